#!/usr/bin/env bash
# Installs what is missing, builds the release player and plays FILE|URL (or a generated 5 s demo clip).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
set +o pipefail
swift build -c release --product playhead 2>&1 | grep -v "prohibited flag"
build_status=${PIPESTATUS[0]}
set -o pipefail
if [ "$build_status" -ne 0 ]; then
  echo "error: the build failed (swift build exit $build_status)" >&2
  exit 1
fi
if [ $# -eq 0 ]; then
  mkdir -p .fixtures
  demo=.fixtures/demo.mp4
  if [ ! -f "$demo" ]; then
    ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=s=1280x720:r=30:d=5" \
      -f lavfi -i "sine=frequency=440:duration=5:sample_rate=48000" \
      -metadata title="Playhead demo" -metadata artist="Playhead" \
      -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -ac 2 -shortest "$demo"
  fi
  set -- "$demo"
fi
exec .build/release/playhead "$@"
