#!/usr/bin/env python3
"""Side-by-side playback benchmarks: Playhead against mpv and the ffmpeg decode floor.

Start-up is measured where a listener hears it: a parec recording of the sink's monitor runs all along; the
recording's length when the player is launched marks the launch, and the first loud sample after it marks the
first sound. CPU and memory come from getrusage of each child (user+system seconds, peak RSS).

With --old-playhead PATH an older playhead build is measured too (start-up and untimed decode alternating with the
new one, CPU and memory once after it); Benchmarks/engine alternates every measurement over several rounds.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

RATE = 48000
FRAME = 4  # s16le stereo


def make_fixture(folder, name, args):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + args + [path], check=True)
    return path


def run_measured(cmd, env=None):
    """Runs cmd; returns (wall seconds, cpu seconds, peak RSS in MiB) of that process alone (wait4: no other
    child reaped meanwhile, such as the recorder, can count in its figures)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = 0  # reaped above; keeps Popen from waiting for it again
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def peak_rss(cmd):
    """Peak RSS (MiB) of one run, isolated with /usr/bin/time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()
    return int(out[-1]) / 1024.0


class Recorder:
    def __init__(self, sink, path):
        self.path = path
        self.f = open(path, "wb")
        self.p = subprocess.Popen(["parec", "--device=%s.monitor" % sink, "--rate=48000", "--channels=2",
                                   "--format=s16le", "--latency-msec=10"], stdout=self.f)
        while os.path.getsize(path) == 0:
            time.sleep(0.01)
        time.sleep(0.5)

    def position(self):
        return os.path.getsize(self.path) // FRAME

    def first_sound_after(self, start_frame, threshold=300):
        with open(self.path, "rb") as f:
            f.seek(start_frame * FRAME)
            data = f.read()
        for i in range(0, len(data) - 3, FRAME):
            v = int.from_bytes(data[i:i + 2], "little", signed=True)
            if abs(v) > threshold:
                return i // FRAME
        return None

    def stop(self):
        self.p.kill()
        self.f.close()


def fixtures(folder):
    """The start-up tone (10 s AAC) and the 1080p30 H.264 + AAC clip (30 s)."""
    tone = make_fixture(folder, "bench-tone-10s.m4a",
                        ["-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=48000", "-ac", "2",
                         "-c:a", "aac"])
    hd = make_fixture(folder, "bench-1080p-30s.mp4",
                      ["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=30", "-f", "lavfi", "-i",
                       "sine=frequency=440:duration=30:sample_rate=48000", "-c:v", "libx264", "-preset",
                       "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-shortest"])
    return tone, hd


HD_SECONDS = 30


def playhead_cmd(binary, what, media):
    """The playhead command of one measurement: "startup", "1x", "untimed" or "memory" (first 10 s)."""
    return [binary] + {"startup": ["--ao=pulse", "--vo=null"], "1x": ["--ao=pulse", "--vo=null"],
                       "untimed": ["--untimed", "--ao=null", "--vo=null"],
                       "memory": ["--ao=pulse", "--vo=null", "--length=10"]}[what] + ["--really-quiet", media]


def mpv_cmd(what, media):
    """mpv's command of the same measurement."""
    return ["mpv", "--no-config"] + {"startup": ["--vo=null", "--ao=pulse"],
                                     "1x": ["--vo=null", "--ao=pulse", "--vd-lavc-threads=2"],
                                     "untimed": ["--untimed", "--vo=null", "--ao=null", "--ao-null-untimed",
                                                 "--vd-lavc-threads=2"],
                                     "memory": ["--vo=null", "--ao=pulse", "--length=10"]}[what] + [
        "--really-quiet", media]


def startup(cmd, rec, settle=1.0):
    start = rec.position()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # Record long enough for the first sound, then stop the player.
    time.sleep(settle)
    p.kill()
    p.wait()
    time.sleep(0.1)
    first = rec.first_sound_after(start)
    return None if first is None else first / RATE


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--fixtures", default=".fixtures")
    ap.add_argument("--playhead", default=".build/release/playhead")
    ap.add_argument("--old-playhead", help="an older playhead build, measured beside the new one")
    a = ap.parse_args()
    ph = os.path.abspath(a.playhead)
    builds = {"playhead": ph}
    if a.old_playhead:
        builds["playhead (old)"] = os.path.abspath(a.old_playhead)
    tone, hd = fixtures(a.fixtures)
    env = dict(os.environ, PULSE_SINK="test_sink")
    os.environ["PULSE_SINK"] = "test_sink"
    print("Playback benchmarks, %d runs each, %s" % (a.runs, time.strftime("%Y-%m-%d")))

    rec = Recorder("test_sink", "/tmp/playhead-bench-rec.raw")
    cmds = {name: playhead_cmd(b, "startup", tone) for name, b in builds.items()}
    cmds["mpv"] = mpv_cmd("startup", tone)
    results = {name: [] for name in cmds}
    for _ in range(a.runs):
        for name, cmd in cmds.items():
            s = startup(cmd, rec)
            if s is not None:
                results[name].append(s)
            time.sleep(0.3)
    rec.stop()
    ph_s = statistics.median(results["playhead"])
    mpv_s = statistics.median(results["mpv"])
    print("\n1. Start-up: launch to first sound at the sink (median of %d)" % a.runs)
    print("   playhead %.0f ms   mpv %.0f ms   ratio playhead/mpv %.2f" % (ph_s * 1000, mpv_s * 1000, ph_s / mpv_s))
    if a.old_playhead:
        old_s = statistics.median(results["playhead (old)"])
        print("   playhead (old) %.0f ms   new/old %.2f" % (old_s * 1000, ph_s / old_s))

    print("\n2. CPU seconds per media second, 1080p30 H.264 + AAC, 30 s at 1x (audio to PulseAudio, video decoded and paced, not shown)")
    floor = [run_measured(["ffmpeg", "-nostdin", "-v", "error", "-threads", "2", "-i", hd, "-f", "null", "-"])
             for _ in range(max(1, a.runs // 2))]
    floor_cpu = statistics.median(c for _, c, _ in floor) / HD_SECONDS
    floor_wall = statistics.median(w for w, _, _ in floor)
    ph_1x = run_measured(playhead_cmd(ph, "1x", hd))
    mpv_1x = run_measured(mpv_cmd("1x", hd))
    print("   playhead %.3f   mpv %.3f   decode floor %.3f   playhead/mpv %.2f   playhead/floor %.2f"
          % (ph_1x[1] / HD_SECONDS, mpv_1x[1] / HD_SECONDS, floor_cpu, ph_1x[1] / mpv_1x[1],
             ph_1x[1] / HD_SECONDS / floor_cpu))
    print("   (wall: playhead %.1f s, mpv %.1f s for 30 s of media)" % (ph_1x[0], mpv_1x[0]))
    if a.old_playhead:
        old_1x = run_measured(playhead_cmd(builds["playhead (old)"], "1x", hd))
        print("   playhead (old) %.3f   new/old %.2f" % (old_1x[1] / HD_SECONDS, ph_1x[1] / old_1x[1]))

    print("\n3. Untimed full decode of the same file (--untimed --ao=null --vo=null) against the decode floor")
    untimed = {name: [] for name in builds}
    for _ in range(max(1, a.runs // 2)):
        for name, b in builds.items():
            untimed[name].append(run_measured(playhead_cmd(b, "untimed", hd))[0])
    ph_wall = statistics.median(untimed["playhead"])
    print("   playhead %.2f s   ffmpeg -threads 2 -f null %.2f s   speed relative to the floor %.2f"
          % (ph_wall, floor_wall, floor_wall / ph_wall))
    if a.old_playhead:
        old_wall = statistics.median(untimed["playhead (old)"])
        print("   playhead (old) %.2f s   new/old %.2f" % (old_wall, ph_wall / old_wall))

    print("\n4. Peak resident memory playing the 1080p file (first 10 s, --length / --length)")
    ph_rss = peak_rss(playhead_cmd(ph, "memory", hd))
    mpv_rss = peak_rss(mpv_cmd("memory", hd))
    print("   playhead %.0f MiB   mpv %.0f MiB   ratio %.2f" % (ph_rss, mpv_rss, ph_rss / mpv_rss))
    if a.old_playhead:
        old_rss = peak_rss(playhead_cmd(builds["playhead (old)"], "memory", hd))
        print("   playhead (old) %.0f MiB   new/old %.2f" % (old_rss, ph_rss / old_rss))


if __name__ == "__main__":
    sys.exit(main())
