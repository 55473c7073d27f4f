#!/usr/bin/env bash
# Shared set-up of the benchmark scripts, sourced from the package root: installs the peers (mpv, GStreamer,
# hyperfine... with PLAYHEAD_WITH_PEERS=1), builds the release `playhead`, and starts the test daemons (stopped by
# PID on exit). `bench_setup nginx` also starts nginx on .fixtures/www.
bench_setup() {
  PLAYHEAD_WITH_PEERS=1 scripts/install-deps.sh
  swift build -c release --product playhead 2>&1 | grep -v "prohibited flag" | tail -1
  # shellcheck source=scripts/daemons.sh
  source scripts/daemons.sh
  trap daemons_stop EXIT
  daemons_start
  mkdir -p .fixtures/www
  if [ "${1:-}" = nginx ]; then nginx_start "$(pwd)/.fixtures/www"; fi
}
