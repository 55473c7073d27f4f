#!/usr/bin/env python3
"""Gapless joins, Playhead against mpv --gapless-audio=yes.

A 9 s chirp (200 Hz rising to 1100 Hz) is cut at samples 150001 and 290017 into three files, each encoded on its
own (WAV, FLAC, AAC in MP4, MP3 with its LAME header, Opus), exactly as the test suite's GaplessFixtures does.
Each player plays the three files as one playlist on a PulseAudio null sink whose monitor is recorded. The
recording is aligned to the uncut master before each join and after it: the difference of the two alignments is
the number of samples the player inserted (positive: silence or repeated sound) or dropped (negative) at that
join. Zero is a perfect join. With --old-playhead PATH an older playhead build plays the same files too (its
own column).
"""
import argparse
import os
import subprocess
import time

import numpy as np

RATE = 48000
CUTS = [150001, 290017]
LENGTH = 9 * RATE


def make(folder, name, args):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + args + ["-fflags", "+bitexact", path],
                       check=True)
    return path


def fixtures(folder, ext):
    master = make(folder, "gapless-master.wav",
                  ["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200*t+50*t*t)):s=48000:d=9", "-ac", "2",
                   "-c:a", "pcm_s16le"])
    bounds = [0] + CUTS + [LENGTH]
    codec = {"wav": None, "flac": ["-c:a", "flac"], "m4a": ["-c:a", "aac", "-b:a", "160k"],
             "mp3": ["-c:a", "libmp3lame", "-b:a", "192k"], "opus": ["-c:a", "libopus", "-b:a", "128k"]}[ext]
    parts = []
    for i in range(3):
        trim = "atrim=start_sample=%d:end_sample=%d,asetpts=N/SR/TB" % (bounds[i], bounds[i + 1])
        wav = make(folder, "gapless-part%d.wav" % (i + 1), ["-i", master, "-af", trim, "-c:a", "pcm_s16le"])
        parts.append(wav if codec is None else make(folder, "gapless-part%d.%s" % (i + 1, ext), ["-i", wav] + codec))
    return master, parts


def samples(path):
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-af", "pan=mono|c0=c0", "-f", "s16le",
                          "-"], stdout=subprocess.PIPE, check=True).stdout
    return np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768


def record(sink, cmd):
    path = "/tmp/playhead-gapless-%d.raw" % os.getpid()
    with open(path, "wb") as f:
        rec = subprocess.Popen(["parec", "--device=%s.monitor" % sink, "--rate=48000", "--channels=2",
                                "--format=s16le", "--latency-msec=10"], stdout=f)
        # Wait for the monitor to deliver (an idle null sink works in 2 s blocks before that).
        deadline = time.monotonic() + 5
        while os.path.getsize(path) == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        time.sleep(0.3)
        rec.terminate()
        rec.wait()
    data = np.fromfile(path, dtype="<i2").astype(np.float32) / 32768
    os.remove(path)
    return data[0::2]


def best_offset(rec, ref, at, guess, reach=6000, window=4800):
    """The recording offset at which ref[at:at+window] fits best, searched within reach of guess."""
    seg = ref[at:at + window]
    lo = max(0, guess - reach)
    hi = min(len(rec) - window, guess + reach)
    if hi <= lo:
        return None
    errors = [np.sum((rec[o + at:o + at + window] - seg) ** 2) if o + at + window <= len(rec) else np.inf
              for o in range(lo, hi)]
    return lo + int(np.argmin(errors))


def joins(rec, master):
    start = int(np.argmax(np.abs(rec) > 0.01))
    base = best_offset(rec, master, 4800, start, reach=2000)
    if base is None:
        return None
    result = []
    for cut in CUTS:
        before = best_offset(rec, master, cut - 9600, base, reach=6000)
        after = best_offset(rec, master, cut + 4800, before, reach=6000)
        result.append(None if before is None or after is None else after - before)
    return result


FORMATS = ["wav", "flac", "m4a", "mp3", "opus"]
SINK = "gapless_bench"


def load_sink(sink=SINK):
    """Loads the null sink the joins are recorded from; returns its module index (for unload_sink)."""
    return subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=%s" % sink, "rate=48000",
                           "channels=2"], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()


def unload_sink(module):
    subprocess.run(["pactl", "unload-module", module], check=False)


def playhead_cmd(binary, parts, sink=SINK):
    return [binary, "--no-mpris", "--vo=null", "--audio-device=%s" % sink] + parts


def mpv_cmd(parts, sink=SINK):
    return ["mpv", "--no-config", "--no-video", "--gapless-audio=yes", "--ao=pulse",
            "--audio-device=pulse/%s" % sink, "--really-quiet"] + parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--playhead", required=True)
    ap.add_argument("--old-playhead", help="an older playhead build, measured beside the new one")
    args = ap.parse_args()
    module = load_sink()
    try:
        old_head = " Playhead (old) |" if args.old_playhead else ""
        print("| format | Playhead: samples inserted at join 1, join 2 |%s mpv --gapless-audio=yes | target |"
              % old_head)
        print("|---|---|---|---|" + ("---|" if args.old_playhead else ""))
        for ext in FORMATS:
            master, parts = fixtures(args.fixtures, ext)
            ref = samples(master)
            ours = joins(record(SINK, playhead_cmd(args.playhead, parts)), ref)
            old = ""
            if args.old_playhead:
                old = " %s |" % fmt(joins(record(SINK, playhead_cmd(args.old_playhead, parts)), ref))
            mpv = joins(record(SINK, mpv_cmd(parts)), ref)
            print("| %s | %s |%s %s | 0 |" % (ext, fmt(ours), old, fmt(mpv)))
    finally:
        unload_sink(module)


def fmt(values):
    if values is None:
        return "not aligned"
    return ", ".join("?" if v is None else "%+d" % v for v in values)


if __name__ == "__main__":
    main()
