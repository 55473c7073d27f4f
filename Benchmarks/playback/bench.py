#!/usr/bin/env python3
"""Side-by-side playback benchmarks: Playhead against mpv and the ffmpeg decode floor.

Start-up is measured where a listener hears it: a parec recording of the sink's monitor runs all along; the
recording's length when the player is launched marks the launch, and the first loud sample after it marks the
first sound. CPU and memory come from getrusage of each child (user+system seconds, peak RSS).
"""
import argparse
import os
import resource
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
    """Runs cmd; returns (wall seconds, cpu seconds, peak RSS in MiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024.0


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
    a = ap.parse_args()
    ph = os.path.abspath(a.playhead)
    tone = make_fixture(a.fixtures, "bench-tone-10s.m4a",
                        ["-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=48000", "-ac", "2",
                         "-c:a", "aac"])
    hd = make_fixture(a.fixtures, "bench-1080p-30s.mp4",
                      ["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=30", "-f", "lavfi", "-i",
                       "sine=frequency=440:duration=30:sample_rate=48000", "-c:v", "libx264", "-preset",
                       "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-shortest"])
    env = dict(os.environ, PULSE_SINK="test_sink")
    os.environ["PULSE_SINK"] = "test_sink"
    print("Playback benchmarks, %d runs each, %s" % (a.runs, time.strftime("%Y-%m-%d")))

    rec = Recorder("test_sink", "/tmp/playhead-bench-rec.raw")
    results = {"playhead": [], "mpv": []}
    cmds = {
        "playhead": [ph, "--ao=pulse", "--vo=null", "--really-quiet", tone],
        "mpv": ["mpv", "--no-config", "--vo=null", "--ao=pulse", "--really-quiet", tone],
    }
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

    print("\n2. CPU seconds per media second, 1080p30 H.264 + AAC, 30 s at 1x (audio to PulseAudio, video decoded and paced, not shown)")
    floor = [run_measured(["ffmpeg", "-nostdin", "-v", "error", "-threads", "2", "-i", hd, "-f", "null", "-"])
             for _ in range(max(1, a.runs // 2))]
    floor_cpu = statistics.median(c for _, c, _ in floor) / 30
    floor_wall = statistics.median(w for w, _, _ in floor)
    ph_1x = run_measured([ph, "--ao=pulse", "--vo=null", "--really-quiet", hd])
    mpv_1x = run_measured(["mpv", "--no-config", "--vo=null", "--ao=pulse", "--really-quiet",
                           "--vd-lavc-threads=2", hd])
    print("   playhead %.3f   mpv %.3f   decode floor %.3f   playhead/mpv %.2f   playhead/floor %.2f"
          % (ph_1x[1] / 30, mpv_1x[1] / 30, floor_cpu, ph_1x[1] / mpv_1x[1], ph_1x[1] / 30 / floor_cpu))
    print("   (wall: playhead %.1f s, mpv %.1f s for 30 s of media)" % (ph_1x[0], mpv_1x[0]))

    print("\n3. Untimed full decode of the same file (--untimed --ao=null --vo=null) against the decode floor")
    ph_un = [run_measured([ph, "--untimed", "--ao=null", "--vo=null", "--really-quiet", hd])
             for _ in range(max(1, a.runs // 2))]
    ph_wall = statistics.median(w for w, _, _ in ph_un)
    print("   playhead %.2f s   ffmpeg -threads 2 -f null %.2f s   speed relative to the floor %.2f"
          % (ph_wall, floor_wall, floor_wall / ph_wall))

    print("\n4. Peak resident memory playing the 1080p file (first 10 s, --length / --length)")
    ph_rss = peak_rss([ph, "--ao=pulse", "--vo=null", "--really-quiet", "--length=10", hd])
    mpv_rss = peak_rss(["mpv", "--no-config", "--vo=null", "--ao=pulse", "--really-quiet", "--length=10", hd])
    print("   playhead %.0f MiB   mpv %.0f MiB   ratio %.2f" % (ph_rss, mpv_rss, ph_rss / mpv_rss))


if __name__ == "__main__":
    sys.exit(main())
