#!/usr/bin/env bash
# Gapless joins against mpv --gapless-audio=yes: samples inserted (or lost) at each join of a continuous chirp
# split into three files, per format. Prints the table for BENCHMARKS.md. Usage: Benchmarks/gapless/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAYHEAD_WITH_PEERS=1 scripts/install-deps.sh
swift build -c release --product playhead 2>&1 | grep -v "prohibited flag" | tail -1
source scripts/daemons.sh
trap daemons_stop EXIT
daemons_start
mkdir -p .fixtures
python3 Benchmarks/gapless/bench.py --fixtures .fixtures --playhead .build/release/playhead
