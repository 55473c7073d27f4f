#!/usr/bin/env bash
# HLS host failure (issue 15): a live stream on two hosts (the same variant listed twice), the primary answering 500
# to every request from 10 s on; recovery time and stall time from `playhead --log-json`.
# Usage: Benchmarks/hls-failover/run.sh [RUNS]   (uses the debug build: `swift build` first; nothing is installed)
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 Benchmarks/hls-failover/bench.py --runs "${1:-3}" --playhead "${PLAYHEAD_BIN:-.build/debug/playhead}"
