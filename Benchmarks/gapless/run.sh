#!/usr/bin/env bash
# Gapless joins against mpv --gapless-audio=yes: samples inserted (or lost) at each join of a continuous chirp
# split into three files, per format. Prints the table for BENCHMARKS.md. With OLD_PLAYHEAD=path an older playhead
# build gets a column too. Usage: [OLD_PLAYHEAD=path] Benchmarks/gapless/run.sh
set -euo pipefail
if [ -n "${OLD_PLAYHEAD:-}" ]; then OLD_PLAYHEAD=$(realpath "$OLD_PLAYHEAD"); fi
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/gapless/bench.py --fixtures .fixtures --playhead .build/release/playhead \
  ${OLD_PLAYHEAD:+--old-playhead "$OLD_PLAYHEAD"}
