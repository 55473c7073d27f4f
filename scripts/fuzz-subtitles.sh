#!/usr/bin/env bash
# Fuzzes the WebVTT and SRT parsers for SECONDS (default 60).
#
# With libFuzzer available (swiftc -sanitize=fuzzer), builds Fuzz/Subtitles with the PlayheadSubtitles sources
# under AddressSanitizer, seeds it with the W3C WebVTT corpus, and runs it. Otherwise (or with --in-suite) runs the
# seeded random-mutation harness of the test suite for SECONDS. Prints executions and crashes; exits non-zero on
# a crash. Usage: scripts/fuzz-subtitles.sh [--in-suite] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=libfuzzer
if [[ "${1:-}" == "--in-suite" ]]; then mode=suite; shift; fi
seconds=${1:-60}

corpora=""
dir=$root
while [[ "$dir" != "/" ]]; do
    if [[ -d "$dir/shared/corpora" ]]; then corpora="$dir/shared/corpora"; break; fi
    dir=$(dirname "$dir")
done

work=${PLAYHEAD_FUZZ_DIR:-$root/.build/fuzz-subtitles}
mkdir -p "$work"

if [[ "$mode" == libfuzzer ]]; then
    if ! swiftc -sanitize=fuzzer,address -O -parse-as-library -module-name PlayheadSubtitlesFuzz \
        Sources/PlayheadSubtitles/*.swift Fuzz/Subtitles/main.swift -o "$work/fuzz-subtitles" \
        >"$work/build.log" 2>&1; then
        echo "libFuzzer build failed (see $work/build.log); using the in-suite harness" >&2
        mode=suite
    fi
fi

if [[ "$mode" == suite ]]; then
    PLAYHEAD_FUZZ_SECONDS=$seconds swift test --filter 'FuzzTests' 2>&1 | grep -E 'subtitle fuzzing|passed|failed'
    exit "${PIPESTATUS[0]}"
fi

mkdir -p "$work/corpus" "$work/artifacts"
if [[ -n "$corpora" ]]; then
    cp -n "$corpora"/webvtt/w3c-webvtt/test/wpt-file-parsing/*.vtt "$corpora"/webvtt/w3c-webvtt/test/wpt-cue-parsing/*.vtt \
        "$work/corpus/" 2>/dev/null || true
fi
set +e
"$work/fuzz-subtitles" "$work/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/run.log" 2>&1
status=$?
set -e
executions=$(grep -E '^stat::number_of_executed_units' "$work/run.log" | awk '{print $2}')
crashes=$(find "$work/artifacts" -type f | wc -l)
echo "libFuzzer: ${executions:-0} executions in ${seconds} s, ${crashes} crashes or timeouts (exit ${status}); log: $work/run.log"
[[ $status -eq 0 && $crashes -eq 0 ]]
