#!/usr/bin/env bash
# WebVTT/SRT parse-time benchmark: PlayheadSubtitles (release build) against webvtt-py (PyPI) and FFmpeg's WebVTT
# demuxer on the same generated 2-hour file. Prints the timings and the ratios. Usage: Benchmarks/webvtt-parse/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${PLAYHEAD_BENCH_DIR:-$root/.build/bench-webvtt}
mkdir -p "$work/module"

python3 "$here/generate.py" "$work"
swiftc -O -wmo -parse-as-library -module-name PlayheadSubtitles -emit-module -emit-module-path "$work/module/PlayheadSubtitles.swiftmodule" \
    -emit-library -static -o "$work/module/libPlayheadSubtitles.a" "$root"/Sources/PlayheadSubtitles/*.swift
swiftc -O -I "$work/module" -L "$work/module" -lPlayheadSubtitles "$here/main.swift" -o "$work/webvtt-parse-bench"

echo "== PlayheadSubtitles (median ms, min ms)"
"$work/webvtt-parse-bench" "$work/two-hours.vtt" "$work/two-hours.srt" "$work/forty-hours.vtt" 100 | tee "$work/swift.txt"
# Ratios use the fastest run of each side: the machine is shared, and the minimum is the least disturbed figure.
ours=$(awk '$1 == "webvtt-parse" {print $3}' "$work/swift.txt")

echo "== webvtt-py"
if python3 -c 'import webvtt' 2>/dev/null; then
    python3 "$here/peer_webvtt_py.py" "$work/two-hours.vtt" 20 | tee "$work/python.txt"
    python=$(awk '{print $3}' "$work/python.txt")
    echo "ratio webvtt-py / PlayheadSubtitles (fastest runs): $(python3 -c "print('%.0fx' % ($python / $ours))")"
else
    echo "webvtt-py not installed (pip install webvtt-py): skipped"
fi

echo "== ffmpeg -i forty-hours.vtt -f null (process time, less the time for a one-cue file)"
if command -v ffmpeg >/dev/null; then
    ffmpeg_ms() {
        python3 - "$1" <<'PY'
import subprocess, sys, time
times = []
for _ in range(10):
    start = time.perf_counter()
    subprocess.run(["ffmpeg", "-v", "error", "-i", sys.argv[1], "-map", "0", "-c", "copy", "-f", "null", "-"], check=True)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("%.3f" % times[0])
PY
    }
    big=$(ffmpeg_ms "$work/forty-hours.vtt")
    tiny=$(ffmpeg_ms "$work/tiny.vtt")
    echo "ffmpeg forty-hours ${big} ms, one cue ${tiny} ms (fastest of 10)"
    ours_long=$(awk '$1 == "webvtt-parse-40h" {print $3}' "$work/swift.txt")
    echo "ratio ffmpeg (difference) / PlayheadSubtitles on forty-hours.vtt: $(python3 -c "print('%.1fx' % (($big - $tiny) / $ours_long))")"
else
    echo "ffmpeg not installed: skipped"
fi
