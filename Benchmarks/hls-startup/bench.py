#!/usr/bin/env python3
"""HLS start-up, side by side: time from launch to the first sound at the sink, and the requests each player made
before it (from nginx's access log). Two ladders: 4 variants, 360p to 1080p, 2 s MPEG-TS segments, 20 s, with
their sound in the variants (`muxed`); and the same pictures without sound in 4 video-only variants naming an
audio group of two renditions (English, German), each an audio-only MPEG-TS playlist of 4 s segments
(`renditions`). With --old-playhead PATH an older playhead build runs beside the new one, alternating with it."""
import argparse
import collections
import os
import re
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


def make_rendition_ladder(root):
    folder = os.path.join(root, "bench-renditions")
    master = os.path.join(folder, "master.m3u8")
    if os.path.exists(master):
        return "bench-renditions/master.m3u8"
    lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for i, (lang, name, tone) in enumerate([("en", "English", 440), ("de", "Deutsch", 660)]):
        out = os.path.join(folder, "a-" + lang)
        os.makedirs(out, exist_ok=True)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "sine=frequency=%d:duration=20:sample_rate=48000" % tone, "-c:a", "aac", "-ac", "2",
                        "-b:a", "128k", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                        "-hls_segment_filename", os.path.join(out, "seg%02d.ts"),
                        os.path.join(out, "index.m3u8")], check=True)
        lines.append('#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="%s",LANGUAGE="%s",DEFAULT=%s,AUTOSELECT=YES,'
                     'CHANNELS="2",URI="a-%s/index.m3u8"' % (name, lang, "YES" if i == 0 else "NO", lang))
    for i, (h, kbps) in enumerate(RUNGS):
        out = os.path.join(folder, "v%d" % i)
        os.makedirs(out, exist_ok=True)
        w = h * 16 // 9
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=s=%dx%d:r=25:d=20" % (w, h), "-c:v", "libx264", "-preset", "veryfast",
                        "-b:v", "%dk" % kbps, "-g", "50", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                        "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                        "-hls_segment_filename", os.path.join(out, "seg%02d.ts"),
                        os.path.join(out, "index.m3u8")], check=True)
        lines += ['#EXT-X-STREAM-INF:BANDWIDTH=%d,RESOLUTION=%dx%d,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"'
                  % ((kbps + 130) * 1000, w, h), "v%d/index.m3u8" % i]
    with open(master, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "bench-renditions/master.m3u8"


def ladder_url(root, port, ladder="muxed"):
    """The ladder's multivariant playlist on the local nginx (made under root on first use)."""
    make = make_ladder if ladder == "muxed" else make_rendition_ladder
    return "http://127.0.0.1:%s/%s" % (port, make(root))


def playhead_cmd(binary, url):
    return [os.path.abspath(binary), "--ao=pulse", "--vo=null", "--really-quiet", url]


def mpv_cmd(url):
    return ["mpv", "--no-config", "--vo=null", "--ao=pulse", "--really-quiet", url]


def log_lines(path):
    with open(path) as f:
        return f.read().splitlines()


def run(cmd, rec, log, wait=2.5):
    before = len(log_lines(log))
    start = rec.position()
    launched = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(wait)
    p.kill()
    p.wait()
    time.sleep(0.1)
    first = rec.first_sound_after(start)
    if first is None:
        return None, None
    # Every request of the run's window, from which the report counts what no player needs to start, and those
    # nginx logged (`$msec`, the last field) before the first sound reached the sink.
    lines = log_lines(log)[before:]
    seconds = first / 48000
    early = [l for l in lines if float(l.split()[-1]) <= launched + seconds]
    return seconds, (lines, len(early))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--root", required=True)
    ap.add_argument("--port", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--playhead", required=True)
    ap.add_argument("--ladder", choices=["muxed", "renditions"], default="muxed")
    ap.add_argument("--old-playhead", help="an older playhead build, measured beside the new one")
    a = ap.parse_args()
    url = ladder_url(a.root, a.port, a.ladder)
    os.environ["PULSE_SINK"] = "test_sink"
    players = {"playhead": playhead_cmd(a.playhead, url)}
    if a.old_playhead:
        players["playhead (old)"] = playhead_cmd(a.old_playhead, url)
    players["mpv"] = mpv_cmd(url)
    players["ffplay"] = ["ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet", url]
    os.environ["SDL_AUDIODRIVER"] = "pulseaudio"
    rec = Recorder("test_sink", "/tmp/playhead-hls-bench.raw")
    times = {k: [] for k in players}
    requests = {k: [] for k in players}
    for _ in range(a.runs):
        for name, cmd in players.items():
            t, logged = run(cmd, rec, a.log)
            if t is not None:
                times[name].append(t)
                requests[name].append(logged)
            time.sleep(0.5)
    rec.stop()
    print("HLS start-up on loopback, 4-variant ladder (%s), %d runs, %s"
          % (a.ladder, a.runs, time.strftime("%Y-%m-%d")))
    base = statistics.median(times["mpv"]) if times["mpv"] else None
    for name in players:
        if not times[name]:
            print("  %-14s no sound recorded" % name)
            continue
        med = statistics.median(times[name])
        # Requests in the 2.5 s window: playlists, segments outside variant 0 (and, with renditions, of the
        # rendition not chosen: German).
        last = requests[name][-1][0]
        early = statistics.median(r[1] for r in requests[name])
        playlists = sum(1 for l in last if ".m3u8" in l)
        other = sum(1 for l in last if ".ts" in l and "/v0/" not in l and "/a-en/" not in l)
        # Segments by folder (variant or rendition): a player that adapts fetches the one it climbed to; one that
        # probes fetches a few of each.
        folders = collections.Counter(m.group(1) for l in last if ".ts" in l
                                      for m in [re.search(r"/([^/ ]+)/[^/ ]+\.ts", l)] if m)
        by = ", ".join("%s %d" % kv for kv in sorted(folders.items()))
        ratio = " (%.2f x mpv)" % (med / base) if base else ""
        print("  %-14s first sound %4.0f ms%s; %g requests before it; in its first 2.5 s: %d playlist requests, "
              "%d segments of other variants or renditions (by folder: %s)"
              % (name, med * 1000, ratio, early, playlists, other, by))


if __name__ == "__main__":
    sys.exit(main())
