#!/usr/bin/env bash
# Replays the hostile list of issue 18 (a fresh machine and a hostile user): every test suite named Hostile*
# (crashes on numbers, destructive --log-json, lost state, bad and unusual inputs, the scripts themselves),
# EndOfPlaybackTests (playback that never ended) and ServerLossPositionTests (the position while no sound server
# answers), with the daemons started as scripts/test.sh starts them. Takes about three minutes; fails past five.
# Usage: scripts/hostile.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$(date +%s)

scripts/install-deps.sh

echo "== build"
set +o pipefail
swift build --build-tests 2>&1 | grep -v "prohibited flag"
build_status=${PIPESTATUS[0]}
set -o pipefail
if [ "$build_status" -ne 0 ]; then
  echo "error: the build failed (swift build exit $build_status)" >&2
  exit 1
fi

# shellcheck source=scripts/daemons.sh
source scripts/daemons.sh
trap daemons_stop EXIT
daemons_start

export PLAYHEAD_FIXTURES="${PLAYHEAD_FIXTURES:-$root/.fixtures}"
nginx_start "$PLAYHEAD_FIXTURES/www"
export PLAYHEAD_BIN="$root/.build/debug/playhead"

echo "== hostile tests"
tests_started=$(date +%s)
swift test --skip-build --no-parallel --filter 'Hostile|EndOfPlaybackTests|ServerLossPositionTests' "$@"
took=$(($(date +%s) - tests_started))
echo "hostile tests: ${took} s (all: $(($(date +%s) - started)) s)"
if [ "$took" -gt 300 ]; then
  echo "error: the hostile list took ${took} s, over five minutes" >&2
  exit 1
fi
