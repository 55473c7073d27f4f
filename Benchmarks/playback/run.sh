#!/usr/bin/env bash
# Playback benchmarks against the peers (mpv, ffmpeg): start-up to first sound at the sink, CPU per media
# second at 1x, untimed decode speed, peak memory. Prints ratios; with OLD_PLAYHEAD=path an older playhead build
# too. Usage: [OLD_PLAYHEAD=path] Benchmarks/playback/run.sh [RUNS]
set -euo pipefail
if [ -n "${OLD_PLAYHEAD:-}" ]; then OLD_PLAYHEAD=$(realpath "$OLD_PLAYHEAD"); fi
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/playback/bench.py --runs "${1:-5}" --fixtures .fixtures --playhead .build/release/playhead \
  ${OLD_PLAYHEAD:+--old-playhead "$OLD_PLAYHEAD"}
