#!/usr/bin/env bash
# MPRIS latency: playerctl play-pause to the audible change at the sink and to PropertiesChanged, Playhead against
# mpv with the mpv-mpris plugin (Debian's package). Usage: Benchmarks/mpris-latency/run.sh [TOGGLES]
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAYHEAD_WITH_PEERS=1 scripts/install-deps.sh
swift build -c release --product playhead 2>&1 | grep -v "prohibited flag" | tail -1
source scripts/daemons.sh
trap daemons_stop EXIT
daemons_start
mkdir -p .fixtures
python3 Benchmarks/mpris-latency/bench.py --toggles "${1:-20}" --fixtures .fixtures --playhead .build/release/playhead
