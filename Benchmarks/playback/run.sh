#!/usr/bin/env bash
# Playback benchmarks against the peers (mpv, ffmpeg): start-up to first sound at the sink, CPU per media
# second at 1x, untimed decode speed, peak memory. Prints ratios. Usage: Benchmarks/playback/run.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAYHEAD_WITH_PEERS=1 scripts/install-deps.sh
swift build -c release --product playhead 2>&1 | grep -v "prohibited flag" | tail -1
source scripts/daemons.sh
trap daemons_stop EXIT
daemons_start
mkdir -p .fixtures
python3 Benchmarks/playback/bench.py --runs "${1:-5}" --fixtures .fixtures --playhead .build/release/playhead
