#!/usr/bin/env bash
# Installs the Debian packages Playhead builds, tests and benchmarks with; installs only what is missing.
set -euo pipefail
packages=(
  pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev libavfilter-dev ffmpeg
  pulseaudio pulseaudio-utils libpulse-dev sox
  dbus libsystemd-dev playerctl
  nginx-light
  python3
)
if [ "${PLAYHEAD_WITH_PEERS:-0}" = 1 ]; then
  packages+=(mpv mpv-mpris gstreamer1.0-tools gstreamer1.0-plugins-base-apps gstreamer1.0-plugins-good gstreamer1.0-libav hyperfine)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null; then
  echo "error: the Swift toolchain (6.0 or later) is not on PATH" >&2
  exit 1
fi
