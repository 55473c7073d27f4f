#!/usr/bin/env bash
# Runs tests on a starved machine, to tell a player that starves from a measurement that does: every process of
# the run (the tests, the player, PulseAudio, Xvfb, nginx) shares a CPU quota in a cgroup of its own, so all of
# them stand still together once it is spent, as when a virtual machine's host takes the CPU (steal).
# Usage (root, after scripts/test.sh has built and made the fixtures once):
#   scripts/starve.sh PERCENT FILTER      e.g. scripts/starve.sh 30 'HLSRenditionTests'
# PERCENT is the share of one CPU the whole run gets (100: one of the machine's cores). Uses cgroup v2's cpu.max
# or cgroup v1's CFS quota; real-time scheduling is not granted inside (every thread waits for the quota alike).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
if [ $# -ne 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ "$1" -lt 5 ] || [ "$1" -gt 800 ]; then
  echo "usage: scripts/starve.sh PERCENT(5-800) FILTER" >&2
  exit 2
fi
percent=$1 filter=$2
period=100000 quota=$((percent * 1000))
bundle="$root/.build/debug/PlayheadPackageTests.xctest"
[ -x "$bundle" ] || { echo "error: $bundle is missing: run scripts/test.sh (or swift build --build-tests) first" >&2; exit 1; }

group=""
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
  group=/sys/fs/cgroup/playhead-starve-$$
  mkdir "$group"
  echo "$quota $period" > "$group/cpu.max"
elif [ -d /sys/fs/cgroup/cpu ]; then
  group=/sys/fs/cgroup/cpu/playhead-starve-$$
  mkdir "$group"
  echo "$period" > "$group/cpu.cfs_period_us"
  echo "$quota" > "$group/cpu.cfs_quota_us"
  [ -f "$group/cpu.rt_runtime_us" ] && echo 0 > "$group/cpu.rt_runtime_us"
else
  echo "error: no cgroup CPU controller at /sys/fs/cgroup" >&2
  exit 1
fi
# The daemons stopped at the end may take a moment to leave the group.
cleanup() { for _ in $(seq 50); do rmdir "$group" 2>/dev/null && return; sleep 0.1; done; echo "warning: $group is left" >&2; }
trap cleanup EXIT
echo "== $percent % of one CPU for everything the run starts ($group)"

status=0
(
  echo "$BASHPID" > "$group/cgroup.procs"
  # shellcheck source=scripts/daemons.sh
  source scripts/daemons.sh
  export PLAYHEAD_FIXTURES="${PLAYHEAD_FIXTURES:-$root/.fixtures}" PLAYHEAD_BIN="$root/.build/debug/playhead" NO_COLOR=1
  daemons_start
  nginx_start "$PLAYHEAD_FIXTURES/www"
  set +e
  "$bundle" --testing-library swift-testing --no-parallel --filter "$filter"
  rc=$?
  daemons_stop
  exit $rc
) || status=$?
exit $status
