#!/usr/bin/env bash
# Playback benchmarks against the peers (mpv, ffmpeg): start-up to first sound at the sink, CPU per media
# second at 1x, untimed decode speed, peak memory. Prints ratios. Usage: Benchmarks/playback/run.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/playback/bench.py --runs "${1:-5}" --fixtures .fixtures --playhead .build/release/playhead
