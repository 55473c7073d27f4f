#!/usr/bin/env python3
"""MPRIS remote-control latency: `playerctl play-pause` to the change being audible at the sink, and to the
player's PropertiesChanged (PlaybackStatus) on the bus; Playhead against mpv with the mpv-mpris plugin.

Clocks: dbus-monitor stamps every message with the wall clock when it reaches the bus monitor (the PlayPause
call and the PropertiesChanged signal); the sink's monitor is recorded all along with parec, and the recording's
length sampled just before playerctl starts ties recorded frames to the wall clock. The audible change is the first
5 ms of silence after a pause, the first loud sample after a play. Latencies are counted from the PlayPause call
on the bus (playerctl's own start-up, ~30 ms, is reported apart) and include parec's ~10 ms capture latency.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "playback"))
from bench import FRAME, RATE, Recorder, make_fixture  # noqa: E402

THRESHOLD = 300  # of 32767: the tone is at about 4000


def first_silence_after(rec, start, window=RATE // 200):
    with open(rec.path, "rb") as f:
        f.seek(start * FRAME)
        data = f.read()
    quiet = 0
    for i in range(0, len(data) - 3, FRAME):
        v = int.from_bytes(data[i:i + 2], "little", signed=True)
        quiet = quiet + 1 if abs(v) < THRESHOLD else 0
        if quiet == window:
            return start + i // FRAME - window + 1
    return None


class BusMonitor:
    """dbus-monitor of the PlayPause calls and PropertiesChanged signals, with its time stamps."""

    def __init__(self, path):
        self.path = path
        self.f = open(path, "w")
        self.p = subprocess.Popen(
            ["dbus-monitor", "--session", "type='method_call',member='PlayPause'",
             "type='signal',member='PropertiesChanged',path='/org/mpris/MediaPlayer2'"], stdout=self.f)
        while os.path.getsize(path) == 0:
            time.sleep(0.01)

    def events(self):
        """(kind, wall time) for each PlayPause call and each PropertiesChanged holding PlaybackStatus."""
        self.f.flush()
        text = open(self.path).read()
        out = []
        for block in re.split(r"\n(?=\S)", text):
            m = re.match(r"(method call|signal) time=([0-9.]+)", block)
            if not m:
                continue
            if "member=PlayPause" in block:
                out.append(("call", float(m.group(2))))
            elif "member=PropertiesChanged" in block and '"PlaybackStatus"' in block:
                out.append(("changed", float(m.group(2))))
        return out

    def stop(self):
        self.p.kill()
        self.p.wait()
        self.f.close()


def measure(name, cmd, bus_name, toggles, rec, mon):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            listed = subprocess.run(["playerctl", "-l"], capture_output=True, text=True).stdout.split()
            if bus_name in listed:
                break
            time.sleep(0.1)
        else:
            raise SystemExit("%s never appeared on the bus" % name)
        time.sleep(1.5)  # playing steadily
        results = []
        for k in range(toggles):
            pausing = k % 2 == 0
            before = len([e for e in mon.events() if e[0] == "call"])
            frame0, t0 = rec.position(), time.time()
            subprocess.run(["playerctl", "-p", bus_name, "play-pause"], check=True)
            time.sleep(0.6)
            events = mon.events()
            calls = [t for kind, t in events if kind == "call"]
            if len(calls) <= before:
                raise SystemExit("%s: the PlayPause call was not seen on the bus" % name)
            call = calls[before]
            changed = next((t for kind, t in events if kind == "changed" and t >= call), None)
            if pausing:
                frame = first_silence_after(rec, frame0)
            else:
                heard = rec.first_sound_after(frame0, THRESHOLD)
                frame = None if heard is None else frame0 + heard
            audible = None if frame is None else t0 + (frame - frame0) / RATE
            results.append({
                "pausing": pausing, "launch": call - t0,
                "changed": None if changed is None else changed - call,
                "audible": None if audible is None else audible - call,
            })
        return results
    finally:
        p.kill()
        p.wait()


def ms(values):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    return "%.0f ms (min %.0f, max %.0f, n=%d)" % (
        statistics.median(values) * 1000, min(values) * 1000, max(values) * 1000, len(values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--toggles", type=int, default=20)
    ap.add_argument("--fixtures", default=".fixtures")
    ap.add_argument("--playhead", default=".build/release/playhead")
    a = ap.parse_args()
    tone = make_fixture(a.fixtures, "bench-tone-120s.m4a",
                        ["-f", "lavfi", "-i", "sine=frequency=440:duration=120:sample_rate=48000", "-ac", "2",
                         "-c:a", "aac"])
    os.environ["PULSE_SINK"] = "test_sink"
    players = {
        "playhead": ([os.path.abspath(a.playhead), "--ao=pulse", "--really-quiet", tone], "playhead"),
    }
    plugin = "/usr/lib/mpv-mpris/mpris.so"
    if os.path.exists(plugin):
        players["mpv"] = (["mpv", "--no-config", "--script=%s" % plugin, "--no-video", "--ao=pulse",
                           "--really-quiet", tone], "mpv")
    else:
        print("mpv-mpris is not installed (%s): Playhead alone" % plugin)
    rec = Recorder("test_sink", "/tmp/playhead-mpris-bench.raw")
    mon = BusMonitor("/tmp/playhead-mpris-bench.monitor")
    print("MPRIS latency, %d play-pause toggles each, %s" % (a.toggles, time.strftime("%Y-%m-%d")))
    try:
        for name, (cmd, bus_name) in players.items():
            r = measure(name, cmd, bus_name, a.toggles, rec, mon)
            for label, subset in (("pause", [x for x in r if x["pausing"]]), ("play", [x for x in r if not x["pausing"]])):
                print("%-9s %-5s  PlayPause -> PropertiesChanged %s" % (name, label, ms([x["changed"] for x in subset])))
                print("%-9s %-5s  PlayPause -> audible          %s" % (name, label, ms([x["audible"] for x in subset])))
            print("%-9s        playerctl start -> PlayPause    %s" % (name, ms([x["launch"] for x in r])))
    finally:
        mon.stop()
        rec.stop()


if __name__ == "__main__":
    main()
