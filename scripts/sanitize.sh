#!/usr/bin/env bash
# Builds Playhead with a sanitizer and runs the engine, queue and HLS tests under it, with the test daemons.
# Usage: scripts/sanitize.sh thread|address [extra swift test arguments]
#
# Passes when the sanitizer reports nothing (its reports are collected from every process, the playhead command
# included, in .build-SANITIZER/reports). Test expectations about timing (gaps at the sink, wake-ups, start-up)
# may fail under the sanitizer's slowdown (2 to 20 times): they are listed, not counted; the plain suite
# (scripts/test.sh) is where they must hold. No suppressions are used.
set -euo pipefail
kind=${1:?usage: scripts/sanitize.sh thread|address}
shift
case $kind in thread | address) ;; *) echo "usage: scripts/sanitize.sh thread|address" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/install-deps.sh
build=.build-$kind
echo "== build with -sanitize=$kind"
set +e
swift build --build-tests --sanitize="$kind" --build-path "$build" 2>&1 | grep -v "prohibited flag"
status=${PIPESTATUS[0]}
set -e
[ "$status" = 0 ] || { echo "error: the $kind-sanitized build failed" >&2; exit 1; }

# shellcheck source=scripts/daemons.sh
source scripts/daemons.sh
trap daemons_stop EXIT
daemons_start
export PLAYHEAD_FIXTURES="${PLAYHEAD_FIXTURES:-$root/.fixtures}"
nginx_start "$PLAYHEAD_FIXTURES/www"
export PLAYHEAD_BIN="$root/$build/debug/playhead"
reports="$root/$build/reports"
rm -rf "$reports"
mkdir -p "$reports"
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 log_path=$reports/tsan"
# LeakSanitizer is off: FFmpeg, PulseAudio and Foundation keep process-lifetime allocations.
export ASAN_OPTIONS="halt_on_error=0 detect_leaks=0 log_path=$reports/asan"

suites="PlayerStateTests|QueuePlayerTests|GaplessTests|SeekAndSyncTests|LifecycleTests|VideoOutputAttachTests"
suites+="|EngineRobustnessTests|IdleTests|AssetTests|SharedOpenTests|HLSPlaybackTests|HLSSeekTests"
suites+="|HLSSeekDuringDownloadTests|HLSTimelineTests|HLSLiveTests|HLSBadInputTests|NetworkPlaybackTests"
suites+="|SubtitleOutputTests|PlayerVideoOutputTests|HLSLowLatencyTests|PlaybackLoopTests|QueueJoinSeekTests"
suites+="|PresenterThreadTests"
echo "== test under the $kind sanitizer"
log="$root/$build/test.log"
swift test --skip-build --build-path "$build" --no-parallel --filter "$suites" "$@" >"$log" 2>&1 || true
grep -E "Test run with" "$log" | tail -1
if grep -qE "^✘ .*recorded an issue" "$log"; then
  echo "expectations that failed under the sanitizer's slowdown (not counted):"
  grep -E "^✘ .*recorded an issue" "$log" | cut -c1-200 | sed 's/^/  /'
fi
found=$(find "$reports" -type f | wc -l)
if [ "$found" -gt 0 ]; then
  echo "error: the $kind sanitizer reported $found time(s):" >&2
  head -c 20000 "$reports"/* >&2
  exit 1
fi
echo "== the $kind sanitizer reported nothing"
