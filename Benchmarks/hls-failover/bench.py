#!/usr/bin/env python3
"""HLS host failure: a live stream (2 s MPEG-TS segments written in real time by ffmpeg) served by two test origins
(scripts/test-origin.py), listed twice in a multivariant playlist with the same attributes (primary first). From
FAIL_AT s after launch the primary answers 500 to every request. From `playhead --log-json` it measures:

  recovery: from the primary's failure to the first segment loaded from the backup (segment-loaded after the
            failover event);
  stall:    the time between stalled and resumed events (the sound at the sink stops);
  detected: from the failure to the failover event (the first request that met the failure).

Prints one line per run and the medians."""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
import urllib.request

FAIL_AT = 10.0
PLAY_FOR = 26.0


def origin(root):
    p = subprocess.Popen(["python3", "scripts/test-origin.py", root], stdout=subprocess.PIPE, text=True)
    port = int(p.stdout.readline())
    return p, port


def segments(playlist):
    try:
        with open(playlist) as f:
            return sum(1 for line in f if line.startswith("#EXTINF"))
    except FileNotFoundError:
        return 0


def run_once(playhead):
    root = tempfile.mkdtemp(prefix="hls-failover-")
    live = os.path.join(root, "live")
    os.makedirs(live)
    writer = subprocess.Popen(
        ["ffmpeg", "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=s=320x180:r=25",
         "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast",
         "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2",
         "-f", "hls", "-hls_time", "2", "-hls_list_size", "10", "-hls_flags", "delete_segments+temp_file",
         "-hls_segment_filename", os.path.join(live, "seg%05d.ts"), os.path.join(live, "index.m3u8")])
    primary, p_port = origin(root)
    backup, b_port = origin(root)
    try:
        while segments(os.path.join(live, "index.m3u8")) < 4:
            time.sleep(0.1)
        stream = '#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.42c00d,mp4a.40.2"'
        with open(os.path.join(root, "master.m3u8"), "w") as f:
            f.write("#EXTM3U\n%s\nhttp://127.0.0.1:%d/live/index.m3u8\n%s\nhttp://127.0.0.1:%d/live/index.m3u8\n"
                    % (stream, p_port, stream, b_port))
        log = os.path.join(root, "events.jsonl")
        launched = time.monotonic()
        player = subprocess.Popen(
            [playhead, "--ao=null", "--vo=null", "--no-mpris", "--log-json=" + log,
             "http://127.0.0.1:%d/master.m3u8" % b_port], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(max(0, launched + FAIL_AT - time.monotonic()))
        urllib.request.urlopen("http://127.0.0.1:%d/_control?status=500" % p_port).read()
        failed = time.monotonic() - launched
        time.sleep(max(0, launched + PLAY_FOR - time.monotonic()))
        player.send_signal(signal.SIGTERM)
        _, stderr = player.communicate(timeout=10)
    finally:
        for p in (writer, primary, backup):
            p.kill()
            p.wait()
    events = [json.loads(line) for line in open(log)]
    shutil.rmtree(root, ignore_errors=True)
    failover = next((e["time"] for e in events if e["event"] == "failover"), None)
    loaded = next((e["time"] for e in events
                   if failover is not None and e["event"] == "segment-loaded" and e["time"] >= failover), None)
    stall, since = 0.0, None
    for e in events:
        if e["event"] == "stalled":
            since = e["time"]
        elif e["event"] == "resumed" and since is not None:
            stall += e["time"] - since
            since = None
    if since is not None:
        stall += PLAY_FOR - since
    notices = [line for line in stderr.splitlines() if "failover" in line]
    return {"failed": failed, "detected": None if failover is None else failover - failed,
            "recovery": None if loaded is None else loaded - failed, "stall": stall, "notices": len(notices),
            "errors": [e.get("message") for e in events if e["event"] == "error"]}


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--runs", type=int, default=3)
    a.add_argument("--playhead", default=".build/debug/playhead")
    args = a.parse_args()
    results = []
    for i in range(args.runs):
        r = run_once(args.playhead)
        results.append(r)
        print("run %d: failure at %.2f s, detected after %s s, backup segment after %s s, stall %.2f s, "
              "%d notice(s), errors %s" % (i + 1, r["failed"], fmt(r["detected"]), fmt(r["recovery"]), r["stall"],
                                          r["notices"], r["errors"]), flush=True)
    ok = [r for r in results if r["recovery"] is not None]
    if ok:
        print("median: detected %.2f s, recovery %.2f s, stall %.2f s" % (
            statistics.median(r["detected"] for r in ok), statistics.median(r["recovery"] for r in ok),
            statistics.median(r["stall"] for r in ok)))


def fmt(x):
    return "-" if x is None else "%.2f" % x


if __name__ == "__main__":
    main()
