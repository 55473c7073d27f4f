#!/usr/bin/env python3
"""HLS start-up, side by side: time from launch to the first sound at the sink, and the requests each player made
before it (from nginx's access log). The ladder: 4 variants, 360p to 1080p, 2 s MPEG-TS segments, 20 s."""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "playback"))
from bench import Recorder  # noqa: E402

RUNGS = [(360, 400), (540, 900), (720, 1800), (1080, 3500)]


def make_ladder(root):
    folder = os.path.join(root, "bench-ladder")
    master = os.path.join(folder, "master.m3u8")
    if os.path.exists(master):
        return "bench-ladder/master.m3u8"
    lines = ["#EXTM3U", "#EXT-X-VERSION:3"]
    for i, (h, kbps) in enumerate(RUNGS):
        out = os.path.join(folder, "v%d" % i)
        os.makedirs(out, exist_ok=True)
        w = h * 16 // 9
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=s=%dx%d:r=25:d=20" % (w, h), "-f", "lavfi", "-i",
                        "sine=frequency=440:duration=20:sample_rate=48000", "-c:v", "libx264", "-preset",
                        "veryfast", "-b:v", "%dk" % kbps, "-g", "50", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                        "-c:a", "aac", "-ac", "2", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                        "-hls_segment_filename", os.path.join(out, "seg%02d.ts"),
                        os.path.join(out, "index.m3u8")], check=True)
        lines += ["#EXT-X-STREAM-INF:BANDWIDTH=%d,RESOLUTION=%dx%d,CODECS=\"avc1.64001f,mp4a.40.2\""
                  % ((kbps + 130) * 1000, w, h), "v%d/index.m3u8" % i]
    with open(master, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "bench-ladder/master.m3u8"


def log_lines(path):
    with open(path) as f:
        return f.read().splitlines()


def run(cmd, rec, log, wait=2.5):
    before = len(log_lines(log))
    start = rec.position()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(wait)
    p.kill()
    p.wait()
    time.sleep(0.1)
    first = rec.first_sound_after(start)
    if first is None:
        return None, None
    # nginx stamps its log to the second, too coarse to split at the first sound: return every request of the
    # run's window, from which the report counts what no player needs to start.
    return first / 48000, log_lines(log)[before:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--root", required=True)
    ap.add_argument("--port", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--playhead", required=True)
    a = ap.parse_args()
    url = "http://127.0.0.1:%s/%s" % (a.port, make_ladder(a.root))
    os.environ["PULSE_SINK"] = "test_sink"
    players = {
        "playhead": [os.path.abspath(a.playhead), "--ao=pulse", "--vo=null", "--really-quiet", url],
        "mpv": ["mpv", "--no-config", "--vo=null", "--ao=pulse", "--really-quiet", url],
        "ffplay": ["ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet", url],
    }
    os.environ["SDL_AUDIODRIVER"] = "pulseaudio"
    rec = Recorder("test_sink", "/tmp/playhead-hls-bench.raw")
    times = {k: [] for k in players}
    requests = {k: [] for k in players}
    for _ in range(a.runs):
        for name, cmd in players.items():
            t, lines = run(cmd, rec, a.log)
            if t is not None:
                times[name].append(t)
                requests[name].append(lines)
            time.sleep(0.5)
    rec.stop()
    print("HLS start-up on loopback, 4-variant ladder, %d runs, %s" % (a.runs, time.strftime("%Y-%m-%d")))
    base = statistics.median(times["mpv"]) if times["mpv"] else None
    for name in players:
        if not times[name]:
            print("  %-9s no sound recorded" % name)
            continue
        med = statistics.median(times[name])
        # Requests in the 2.5 s window: playlists, and segments outside variant 0.
        last = requests[name][-1]
        playlists = sum(1 for l in last if ".m3u8" in l)
        other = sum(1 for l in last if ".ts" in l and "/v0/" not in l)
        ratio = " (%.2f x mpv)" % (med / base) if base else ""
        print("  %-9s first sound %4.0f ms%s; in its first 2.5 s: %d playlist requests, %d segments of other variants"
              % (name, med * 1000, ratio, playlists, other))


if __name__ == "__main__":
    sys.exit(main())
