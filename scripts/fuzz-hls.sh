#!/usr/bin/env bash
# Fuzzes the HLS playlist parser for SECONDS (default 60) and prints executions and crashes.
#
# Uses libFuzzer (swiftc -sanitize=fuzzer,address) with Fuzz/HLS/PlaylistFuzzTarget.swift compiled together with
# Sources/PlayheadHLS, seeded with the playlists of ../shared/corpora/hls. If the toolchain cannot build a
# libFuzzer binary, it falls back to the seeded random-mutation harness of the test suite
# (PLAYHEAD_FUZZ_SECONDS=SECONDS swift test --filter FuzzTests). The sources are compiled from a snapshot copy.
# Work files (binary, growing corpus, crash artifacts) go to .build/fuzz-hls/.
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpora="$root/../shared/corpora/hls"
work="$root/.build/fuzz-hls"
mkdir -p "$work/corpus" "$work/artifacts"

if [ ! -d "$corpora" ]; then
    echo "fuzz-hls: $corpora not found (shared/ must be beside the repository)" >&2
    exit 1
fi

# Does this toolchain build libFuzzer binaries at all?
probe="$work/probe"
mkdir -p "$probe"
printf '@_cdecl("LLVMFuzzerTestOneInput")\npublic func f(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt { 0 }\n' \
    >"$probe/probe.swift"
if ! swiftc -sanitize=fuzzer -parse-as-library "$probe/probe.swift" -o "$probe/probe" >"$probe/log" 2>&1; then
    echo "fuzz-hls: swiftc -sanitize=fuzzer does not work here; using the test-suite harness" >&2
    cd "$root"
    PLAYHEAD_FUZZ_SECONDS="$seconds" swift test --filter 'PlayheadHLSTests.FuzzTests' 2>&1 | grep -E 'HLS fuzz|passed|failed'
    exit "${PIPESTATUS[0]}"
fi

# Build from a snapshot of the sources, so that editing them meanwhile cannot break the build.
rm -rf "$work/src"
mkdir -p "$work/src"
cp "$root"/Sources/PlayheadHLS/*.swift "$root"/Fuzz/HLS/*.swift "$work/src/"
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PlayheadHLSFuzz "$work"/src/*.swift \
    -o "$work/fuzz-hls" >"$work/build.log" 2>&1; then
    grep -v 'Cannot export local symbol' "$work/build.log" >&2
    echo "fuzz-hls: build failed" >&2
    exit 1
fi

find "$corpora" -name '*.m3u8' -size -64k -exec cp {} "$work/corpus/" \;
set +e
"$work/fuzz-hls" "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts/" >"$work/run.log" 2>&1
status=$?
set -e
executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/run.log" | grep -o '[0-9]*$' || echo 0)
crashes=$(find "$work/artifacts" -type f -newer "$work/build.log" | wc -l)
echo "fuzz-hls (libFuzzer): ${seconds} s, ${executions} executions, ${crashes} crashes, exit ${status}"
if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then
    tail -40 "$work/run.log"
    exit 1
fi
