#!/usr/bin/env bash
# HLS playlist parsing benchmark: Playhead's PlaylistParser against the Python `m3u8` package (PyPI) and FFmpeg's
# HLS demuxer, on a generated 10,000-segment live media playlist and on the 1.19 MB grafov stress playlist.
#
#   Benchmarks/hls-parse/run.sh            (PYTHON=/path/to/python with `pip install m3u8`; default python3)
#
# Builds a release binary in .build/bench-hls/ from a scratch package that links Sources/PlayheadHLS, so it does
# not touch the main package's build. Prints median times in milliseconds and the ratios.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Benchmarks/hls-parse"
work="$root/.build/bench-hls"
pkg="$work/pkg"
python="${PYTHON:-python3}"
stress="$root/../shared/corpora/hls/grafov-m3u8/sample-playlists/media-playlist-large.m3u8"

mkdir -p "$pkg/Sources/hls-parse-bench"
ln -sfn "$root/Sources/PlayheadHLS" "$pkg/Sources/PlayheadHLS"
ln -sfn "$here/main.swift" "$pkg/Sources/hls-parse-bench/main.swift"
cat >"$pkg/Package.swift" <<'MANIFEST'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "hls-parse-bench",
    targets: [
        .target(name: "PlayheadHLS"),
        .executableTarget(name: "hls-parse-bench", dependencies: ["PlayheadHLS"]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
(cd "$pkg" && swift build -c release -j 1 --product hls-parse-bench >"$work/build.log" 2>&1) || {
    cat "$work/build.log"
    exit 1
}
bench="$pkg/.build/release/hls-parse-bench"
live="$work/live-10000.m3u8"
"$bench" generate "$live"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "files: live-10000.m3u8 ($(wc -c <"$live") bytes), media-playlist-large.m3u8 ($(wc -c <"$stress") bytes)"

read -r _ swift_live swift_live_min segments_live < <("$bench" time "$live" --runs 30)
read -r _ swift_stress swift_stress_min segments_stress < <("$bench" time "$stress" --runs 30)
printf '%-28s %12s %12s\n' "parser (median ms)" "live-10000" "stress"
printf '%-28s %12s %12s\n' "Playhead PlaylistParser" "$swift_live" "$swift_stress"
printf '%-28s %12s %12s\n' "  fastest of 30" "$swift_live_min" "$swift_stress_min"
echo "segments: $segments_live and $segments_stress"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0fx", a / b }'; }

if "$python" -c 'import m3u8' 2>/dev/null; then
    read -r _ py_live py_live_min py_segments_live < <("$python" "$here/peer_m3u8.py" "$live")
    read -r _ py_stress py_stress_min _ < <("$python" "$here/peer_m3u8.py" "$stress")
    version=$("$python" -c 'import importlib.metadata as m; print(m.version("m3u8"))')
    printf '%-28s %12s %12s\n' "python m3u8 $version" "$py_live" "$py_stress"
    printf '%-28s %12s %12s\n' "  fastest of 5" "$py_live_min" "$py_stress_min"
    printf '%-28s %12s %12s\n' "  ratio (m3u8 / Playhead)" "$(ratio "$py_live" "$swift_live")" \
        "$(ratio "$py_stress" "$swift_stress")"
    [ "$py_segments_live" = "$segments_live" ] || echo "warning: m3u8 saw $py_segments_live segments, we saw $segments_live"
else
    echo "python m3u8: not installed (pip install m3u8, or set PYTHON)"
fi

if command -v ffprobe >/dev/null; then
    # FFmpeg opens the playlist and then probes one segment; every URI points at one small real segment, and the
    # time of probing that segment alone is subtracted.
    ffmpeg -v error -y -f lavfi -i testsrc=duration=1:size=64x64:rate=10 -f mpegts "$work/seg.ts"
    grep -v -e '^#EXT-X-KEY' -e '^#EXT-X-MAP' "$live" | sed 's/^seg-[0-9]*\.m4s$/seg.ts/' >"$work/ff-live.m3u8"
    sed 's/^movie[0-9]*\.ts$/seg.ts/' "$stress" >"$work/ff-stress.m3u8"
    median_ms() {
        for _ in 1 2 3 4 5; do
            start=$(date +%s%N)
            ffprobe -v quiet "$@" >/dev/null 2>&1 || true
            echo $((($(date +%s%N) - start) / 1000))
        done | sort -n | awk 'NR == 3 { printf "%.3f", $1 / 1000 }'
    }
    base=$(median_ms "$work/seg.ts")
    ff_live=$(awk -v a="$(median_ms "$work/ff-live.m3u8")" -v b="$base" 'BEGIN { printf "%.3f", a - b }')
    ff_stress=$(awk -v a="$(median_ms "$work/ff-stress.m3u8")" -v b="$base" 'BEGIN { printf "%.3f", a - b }')
    printf '%-28s %12s %12s\n' "ffprobe $(ffprobe -version | awk 'NR == 1 { print $3 }') (minus $base ms)" "$ff_live" "$ff_stress"
    printf '%-28s %12s %12s\n' "  ratio (FFmpeg / Playhead)" "$(ratio "$ff_live" "$swift_live")" \
        "$(ratio "$ff_stress" "$swift_stress")"
fi
awk -v t="$swift_live" 'BEGIN { printf "live reload budget: %.3f ms of 60 ms (1/100 of a 6 s target duration): %s\n", t, (t < 60 ? "met" : "NOT met") }'
