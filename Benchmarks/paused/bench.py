#!/usr/bin/env python3
"""Paused players side by side: how often the threads of a paused player wake up, and how much CPU it uses.

Each player plays the same 720p H.264 + AAC file to PulseAudio, is paused after 2 s (playhead over MPRIS with
playerctl, mpv over its JSON IPC), settles for 2 s, and is then watched for N seconds: wake-ups are the sum of
voluntary and involuntary context switches of all its threads (/proc/PID/task/*/status), CPU the user+system
clock ticks (/proc/PID/task/*/stat).
"""
import argparse
import json
import os
import socket
import subprocess
import time


def threads(pid):
    out = {}
    base = "/proc/%d/task" % pid
    for tid in os.listdir(base):
        try:
            with open("%s/%s/status" % (base, tid)) as f:
                status = f.read()
            with open("%s/%s/stat" % (base, tid)) as f:
                stat = f.read()
        except OSError:
            continue
        switches = sum(int(line.split()[1]) for line in status.splitlines() if "ctxt_switches" in line)
        fields = stat.rsplit(")", 1)[1].split()
        out[tid] = (switches, int(fields[11]) + int(fields[12]))
    return out


def watch(pid, seconds):
    before = threads(pid)
    time.sleep(seconds)
    after = threads(pid)
    wakeups = sum(a[0] - before.get(t, (0, 0))[0] for t, a in after.items())
    ticks = sum(a[1] - before.get(t, (0, 0))[1] for t, a in after.items())
    return wakeups / seconds, ticks / 100.0 / seconds


def measure_playhead(binary, clip, seconds):
    p = subprocess.Popen([binary, "--really-quiet", clip], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        subprocess.run(["playerctl", "-p", "playhead", "pause"], check=True)
        time.sleep(2)
        return watch(p.pid, seconds)
    finally:
        p.terminate()
        p.wait()


def measure_mpv(clip, seconds, run):
    sock = os.path.join(run, "mpv.sock")
    p = subprocess.Popen(["mpv", "--no-config", "--really-quiet", "--vo=null", "--ao=pulse",
                          "--input-ipc-server=" + sock, clip], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock)
        s.sendall((json.dumps({"command": ["set_property", "pause", True]}) + "\n").encode())
        s.close()
        time.sleep(2)
        return watch(p.pid, seconds)
    finally:
        p.terminate()
        p.wait()


def fixture(folder):
    """The 60 s 720p30 H.264 + AAC clip (made on first use)."""
    clip = os.path.join(folder, "bench-720p-60s.mp4")
    if not os.path.exists(clip):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=s=1280x720:r=30:d=60", "-f", "lavfi", "-i", "sine=frequency=440:duration=60",
                        "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", clip],
                       check=True)
    return clip


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--seconds", type=float, default=10)
    a.add_argument("--fixtures", default=".fixtures")
    a.add_argument("--playhead", required=True)
    a.add_argument("--old-playhead")
    args = a.parse_args()
    clip = fixture(args.fixtures)
    run = os.environ.get("PLAYHEAD_RUN", "/tmp")
    rows = [("playhead", measure_playhead(args.playhead, clip, args.seconds))]
    if args.old_playhead:
        rows.append(("playhead (old)", measure_playhead(args.old_playhead, clip, args.seconds)))
    rows.append(("mpv", measure_mpv(clip, args.seconds, run)))
    print("paused for %.0f s after 2 s of 720p playback:" % args.seconds)
    for name, (wakeups, cpu) in rows:
        print("  %-16s %7.1f wake-ups/s   %6.3f%% CPU" % (name, wakeups, cpu * 100))
    mpv = rows[-1][1][0]
    print("playhead / mpv wake-ups: %.2f" % (rows[0][1][0] / mpv if mpv else float("inf")))


if __name__ == "__main__":
    main()
