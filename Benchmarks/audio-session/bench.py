#!/usr/bin/env python3
"""Audio session reaction times at the sink (see run.sh). Needs PULSE_SERVER (daemons.sh).

Every time is read off a parec recording of a null sink's monitor (48 kHz, --latency-msec=10): the trigger's
position is the recording's length when the trigger is issued, the reaction is where sound stops (or starts)
after it. The same recording path has a constant lag, measured as the zero point: a plain client (paplay)
killed (silence) or started (sound) the same way. The *-to-pause/-play rows are Playhead's own reaction, from its
--log-json: the request (pacat started or killed, the sink unloaded) to the player's rate change.
"""
import argparse, json, os, signal, statistics, struct, subprocess, time

RATE = 48000


def pactl(*args):
    return subprocess.run(["pactl", *args], check=True, capture_output=True, text=True).stdout.strip()


class Recorder:
    def __init__(self, sink, path):
        self.path = path
        open(path, "wb").close()
        self.p = subprocess.Popen(["parec", f"--device={sink}.monitor", "--rate=48000", "--channels=2",
                                   "--format=s16le", "--latency-msec=10"], stdout=open(path, "wb"))
        deadline = time.time() + 5
        while self.seconds() == 0 and time.time() < deadline:
            time.sleep(0.01)

    def seconds(self):
        return os.path.getsize(self.path) / 4 / RATE

    def samples(self):
        data = open(self.path, "rb").read()
        n = len(data) // 4
        return struct.unpack("<%dh" % (2 * n), data[: 4 * n])[0::2]

    def stop(self):
        self.p.kill()
        self.p.wait()


def first_silence(s, start, threshold=300, window=240):
    """Seconds from `start` (s) to the first 5 ms window with no loud sample."""
    i = int(start * RATE)
    while i + window <= len(s):
        if max(abs(v) for v in s[i : i + window]) <= threshold:
            return i / RATE - start
        i += window
    return None


def first_sound(s, start, threshold=300):
    for i in range(int(start * RATE), len(s)):
        if abs(s[i]) > threshold:
            return i / RATE - start
    return None


def wait_sound(rec, seconds=0.5, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = rec.samples()
        if sum(1 for v in s[-int(seconds * RATE):] if abs(v) > 300) > seconds * RATE * 0.5:
            return True
        time.sleep(0.05)
    return False


def null_sink(name):
    return pactl("load-module", "module-null-sink", f"sink_name={name}", "rate=48000", "channels=2")


def run_once(args, tone, scratch, i):
    a, b = f"bench_a{i}", f"bench_b{i}"
    ma, mb = null_sink(a), null_sink(b)
    pactl("set-default-sink", b)
    rec_a = Recorder(a, f"{scratch}/a.raw")
    rec_b = Recorder(b, f"{scratch}/b.raw")
    out = {}
    # Zero points: a plain client killed and started.
    base = subprocess.Popen(["paplay", f"--device={a}", tone])
    wait_sound(rec_a)
    t = rec_a.seconds()
    base.kill(); base.wait()
    time.sleep(0.4)
    out["zero-silence"] = first_silence(rec_a.samples(), t)
    t = rec_a.seconds()
    base = subprocess.Popen(["paplay", f"--device={a}", tone])
    time.sleep(0.6)
    out["zero-sound"] = first_sound(rec_a.samples(), t)
    base.kill(); base.wait()
    time.sleep(0.3)

    log = f"{scratch}/events{i}.jsonl"
    player = subprocess.Popen([args.playhead, "--ao=pulse", "--vo=null", "--no-mpris", f"--audio-device={a}",
                               f"--log-json={log}", tone], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_sound(rec_a)
    t = rec_a.seconds()
    corked_at = time.monotonic()
    phone = subprocess.Popen(["pacat", "--property=media.role=phone", f"--device={a}", "/dev/zero"])
    time.sleep(0.6)
    out["cork-to-silence"] = first_silence(rec_a.samples(), t)
    t = rec_a.seconds()
    uncorked_at = time.monotonic()
    phone.kill(); phone.wait()
    time.sleep(0.6)
    out["uncork-to-sound"] = first_sound(rec_a.samples(), t)
    wait_sound(rec_a)
    t_b = rec_b.seconds()
    removed_at = time.monotonic()
    pactl("unload-module", ma)
    time.sleep(0.8)
    # Playhead's own part, from its event log: the request to the player's rate change, on CLOCK_MONOTONIC (the
    # audio session's entries carry it, which gives the log's zero).
    events = [json.loads(line) for line in open(log)]
    zero = next(e["monotonic"] - e["time"] for e in events if "monotonic" in e)
    rates = [(zero + e["time"], e["rate"]) for e in events if e["event"] == "rate-changed"]
    out["cork-to-pause"] = next((t - corked_at for t, r in rates if t > corked_at and r == 0), None)
    out["uncork-to-play"] = next((t - uncorked_at for t, r in rates if t > uncorked_at and r > 0), None)
    out["removal-to-pause"] = next((t - removed_at for t, r in rates if t > removed_at and r == 0), None)
    s_b = rec_b.samples()
    leak = first_sound(s_b, t_b)
    out["removal-to-silence"] = 0.0 if leak is None else leak + (first_silence(s_b, t_b + leak) or 0)
    player.kill(); player.wait()
    rec_a.stop(); rec_b.stop()
    pactl("set-default-sink", "test_sink")
    subprocess.run(["pactl", "unload-module", mb], capture_output=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--fixtures", default=".fixtures")
    ap.add_argument("--playhead", required=True)
    args = ap.parse_args()
    tone = os.path.join(args.fixtures, "bench-tone-30s.wav")
    if not os.path.exists(tone):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "sine=frequency=440:duration=30:sample_rate=48000", "-ac", "2", tone], check=True)
    scratch = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    results = [run_once(args, tone, scratch, i) for i in range(args.runs)]
    print(f"{'measurement':<22} {'median ms':>10} {'max ms':>8} {'zero point ms':>14}  (runs: {args.runs})")
    for key, zero in [("cork-to-silence", "zero-silence"), ("uncork-to-sound", "zero-sound"),
                      ("removal-to-silence", "zero-silence"), ("cork-to-pause", None), ("uncork-to-play", None),
                      ("removal-to-pause", None)]:
        vals = [r[key] * 1000 for r in results if r[key] is not None]
        zeros = [r[zero] * 1000 for r in results if zero and r[zero] is not None] or [0]
        missing = args.runs - len(vals)
        note = f"  ({missing} runs without a reading)" if missing else ""
        print(f"{key:<22} {statistics.median(vals):>10.0f} {max(vals):>8.0f} {statistics.median(zeros):>14.0f}{note}")


if __name__ == "__main__":
    main()
