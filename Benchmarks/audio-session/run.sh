#!/usr/bin/env bash
# Audio session reaction times, measured at the sink: cork request (a phone-role stream starts) to silence, the
# interruption's end to sound again, and removal of the playing sink to silence on the sink the stream moved to.
# Usage: Benchmarks/audio-session/run.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/audio-session/bench.py --runs "${1:-7}" --fixtures .fixtures --playhead .build/release/playhead
