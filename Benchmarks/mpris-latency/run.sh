#!/usr/bin/env bash
# MPRIS latency: playerctl play-pause to the audible change at the sink and to PropertiesChanged, Playhead against
# mpv with the mpv-mpris plugin (Debian's package). Usage: Benchmarks/mpris-latency/run.sh [TOGGLES]
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/mpris-latency/bench.py --toggles "${1:-20}" --fixtures .fixtures --playhead .build/release/playhead
