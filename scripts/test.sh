#!/usr/bin/env bash
# Installs what is missing, builds, starts the test daemons (PulseAudio with null sinks, a private D-Bus session
# bus, an Xvfb X server) in a private folder, runs the whole test suite, checks formatting, and stops the daemons by PID.
# Usage: scripts/test.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scripts/install-deps.sh

echo "== format check (swift format lint)"
swift format lint --strict --recursive Sources Tests Package.swift

echo "== build"
# The build's own status decides (a failed build must not test the binary of an earlier one).
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

echo "== test"
# Serially: the timing tests (sound at the sink, pacing) must not compete for the 2 cores.
swift test --skip-build --no-parallel "$@"
