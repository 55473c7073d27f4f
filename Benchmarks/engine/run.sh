#!/usr/bin/env bash
# Engine v2, old against new (issue 12): start-up (file and HLS), CPU per media second at 1x, untimed decode, peak
# memory, gapless joins, paused wake-ups and CPU, for an older playhead build, this tree's release build and mpv,
# alternating in one run; prints one table (old, new, mpv, new/old). The measurements are the other benchmarks'
# own code (Benchmarks/playback, hls-startup, gapless, paused). Takes about 14 minutes with RUNS=3.
# Usage: OLD_PLAYHEAD=path/to/old/playhead Benchmarks/engine/run.sh [RUNS]
#   (ONLY=startup,hls,cpu,untimed,memory,gapless,paused runs a subset.)
set -euo pipefail
if [ -z "${OLD_PLAYHEAD:-}" ]; then
  echo "usage: OLD_PLAYHEAD=path/to/old/playhead $0 [RUNS]" >&2
  exit 2
fi
OLD_PLAYHEAD=$(realpath "$OLD_PLAYHEAD")
[ -x "$OLD_PLAYHEAD" ] || { echo "error: $OLD_PLAYHEAD is not an executable" >&2; exit 2; }
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup nginx
python3 Benchmarks/engine/bench.py --runs "${1:-3}" --playhead .build/release/playhead \
  --old-playhead "$OLD_PLAYHEAD" --fixtures .fixtures --root .fixtures/www --port "$PLAYHEAD_NGINX_PORT" \
  --log "$PLAYHEAD_NGINX_LOG" ${ONLY:+--only "$ONLY"}
