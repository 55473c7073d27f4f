#!/usr/bin/env bash
# Gapless joins against mpv --gapless-audio=yes: samples inserted (or lost) at each join of a continuous chirp
# split into three files, per format. Prints the table for BENCHMARKS.md. Usage: Benchmarks/gapless/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/gapless/bench.py --fixtures .fixtures --playhead .build/release/playhead
