#!/usr/bin/env bash
# Video in a window against the peers (mpv --vo=x11, ffplay) on the test X server (Xvfb): 1080p30 and 720p60
# H.264 played for their length with no sound, CPU seconds per media second and dropped frames of each. Prints
# ratios; then launch to first picture on screen of each (first_picture.py). Usage: Benchmarks/window/run.sh [RUNS]
# [FIRST_PICTURE_RUNS] [PIP_SWITCHES]; then the Picture-in-Picture switch times (pip_switch.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/setup.sh
bench_setup
python3 Benchmarks/window/bench.py --runs "${1:-3}" --fixtures .fixtures --playhead .build/release/playhead \
  --display "$PLAYHEAD_TEST_DISPLAY"
python3 Benchmarks/window/first_picture.py --runs "${2:-7}" --fixtures .fixtures --playhead .build/release/playhead \
  --display "$PLAYHEAD_TEST_DISPLAY"
python3 Benchmarks/window/pip_switch.py --runs "${3:-10}" --fixtures .fixtures --playhead .build/release/playhead \
  --display "$PLAYHEAD_TEST_DISPLAY"
