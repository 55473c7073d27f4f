#!/usr/bin/env bash
# HLS start-up on loopback: launch to first sound at the sink, and requests made before it (nginx access log),
# Playhead against mpv and ffplay on a 4-variant ladder, its sound in the variants or (LADDER=renditions) in two
# separate audio renditions; with OLD_PLAYHEAD=path an older playhead build too.
# Usage: [LADDER=muxed|renditions] [OLD_PLAYHEAD=path] Benchmarks/hls-startup/run.sh [RUNS]
set -euo pipefail
if [ -n "${OLD_PLAYHEAD:-}" ]; then OLD_PLAYHEAD=$(realpath "$OLD_PLAYHEAD"); fi
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup nginx
python3 Benchmarks/hls-startup/bench.py --runs "${1:-5}" --root .fixtures/www --port "$PLAYHEAD_NGINX_PORT" \
  --log "$PLAYHEAD_NGINX_LOG" --playhead .build/release/playhead \
  ${OLD_PLAYHEAD:+--old-playhead "$OLD_PLAYHEAD"} --ladder "${LADDER:-muxed}"
