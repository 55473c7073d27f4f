#!/usr/bin/env bash
# Paused players: wake-ups per second and CPU of a paused playhead against a paused mpv (and, with
# OLD_PLAYHEAD=path, an older playhead build), each playing 720p H.264 + AAC to PulseAudio and paused after 2 s.
# Usage: Benchmarks/paused/run.sh [SECONDS]
set -euo pipefail
if [ -n "${OLD_PLAYHEAD:-}" ]; then OLD_PLAYHEAD=$(realpath "$OLD_PLAYHEAD"); fi
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/paused/bench.py --seconds "${1:-10}" --fixtures .fixtures --playhead .build/release/playhead \
  ${OLD_PLAYHEAD:+--old-playhead "$OLD_PLAYHEAD"}
