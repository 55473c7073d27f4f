#!/usr/bin/env python3
"""Video in a window: Playhead against mpv (--vo=x11) and ffplay on one X server, same clips, no sound.

For each clip and player, the median over RUNS of: CPU seconds (user + system, from wait4) per media second, and
the frames each player says it dropped (Playhead: `dropped-frame` events in --log-json; mpv: its frame-drop
counters printed at the end; ffplay: the `fd=` count of its status line). Prints one table with ratios.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

from common import arguments

CLIPS = {
    "1080p30": ("window-1080p30.mp4", "testsrc2=s=1920x1080:r=30:d=15"),
    "720p60": ("window-720p60.mp4", "testsrc2=s=1280x720:r=60:d=15"),
}
SECONDS = 15


def fixture(folder, name, source):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        subprocess.run(
            ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "libx264",
             "-preset", "veryfast", "-pix_fmt", "yuv420p", path], check=True)
    return path


def run(command, env):
    """Runs `command`; returns (CPU seconds, wall seconds, stdout + stderr)."""
    start = time.monotonic()
    p = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    out = bytearray()
    while True:
        chunk = p.stdout.read(65536)
        if not chunk:
            break
        out += chunk
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"{command[0]} failed ({status}): {out[-500:].decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, wall, out.decode(errors="replace")


def playhead(binary, path, env, scratch):
    log = os.path.join(scratch, "events.jsonl")
    cpu, wall, _ = run([binary, "--no-mpris", "--no-resume", "--ao=null", "--vo=sdl", f"--log-json={log}", path],
                       env)
    with open(log) as f:
        dropped = sum(1 for line in f if json.loads(line).get("event") == "dropped-frame")
    return cpu, wall, dropped


def mpv(path, env):
    # The status line is mpv's only report of its drops; kept alone, it ends with the last counts.
    cpu, wall, out = run(["mpv", "--no-config", "--ao=null", "--vo=x11", "--vd-lavc-threads=2",
                          "--msg-level=all=no,statusline=status",
                          "--term-status-msg=drops ${frame-drop-count} ${decoder-frame-drop-count}", path], env)
    found = re.findall(r"drops (\d+) (\d+)", out)
    dropped = int(found[-1][0]) + int(found[-1][1]) if found else None
    return cpu, wall, dropped


def ffplay(path, env):
    cpu, wall, out = run(["ffplay", "-autoexit", "-an", "-loglevel", "warning", "-stats", path], env)
    found = re.findall(r"fd=\s*(\d+)", out)
    return cpu, wall, int(found[-1]) if found else None


def main():
    args, env = arguments(3)
    scratch = os.path.join(args.fixtures, "window-bench")
    os.makedirs(scratch, exist_ok=True)
    rows = []
    for label, (name, source) in CLIPS.items():
        path = fixture(args.fixtures, name, source)
        results = {"playhead": [], "mpv": [], "ffplay": []}
        for _ in range(args.runs):
            results["playhead"].append(playhead(args.playhead, path, env, scratch))
            results["mpv"].append(mpv(path, env))
            results["ffplay"].append(ffplay(path, env))
        for player, runs in results.items():
            cpu = statistics.median(r[0] for r in runs) / SECONDS
            drops = [r[2] for r in runs if r[2] is not None]
            rows.append((label, player, cpu, statistics.median(drops) if drops else None,
                         statistics.median(r[1] for r in runs)))
    print(f"{'clip':8} {'player':9} {'CPU s/media s':>14} {'dropped':>8} {'wall s':>7} {'CPU vs lower peer':>18}")
    for label in CLIPS:
        peers = [r[2] for r in rows if r[0] == label and r[1] != "playhead"]
        for r in (r for r in rows if r[0] == label):
            ratio = f"{r[2] / min(peers):.2f}" if r[1] == "playhead" else ""
            drops = "?" if r[3] is None else f"{r[3]:.0f}"
            print(f"{r[0]:8} {r[1]:9} {r[2]:14.3f} {drops:>8} {r[4]:7.1f} {ratio:>18}")


if __name__ == "__main__":
    main()
