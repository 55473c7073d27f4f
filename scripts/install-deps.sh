#!/usr/bin/env bash
# Installs the Debian packages Playhead builds, tests and benchmarks with; installs only what is missing.
# Libraries are checked by package; every program the scripts and the tests start is checked by its command
# (so a machine that has it from elsewhere installs nothing), then checked again after the install.
set -euo pipefail
libraries=(pkg-config libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev libavfilter-dev
  libpulse-dev libsystemd-dev libcurl4-openssl-dev libsdl2-dev libsdl2-ttf-dev libass-dev libfontconfig-dev fonts-dejavu-core
  libdecor-0-plugin-1-cairo)
# command:package for each program started by scripts/ and Tests/ (and the test support library).
programs=(
  ffmpeg:ffmpeg ffprobe:ffmpeg
  pulseaudio:pulseaudio pactl:pulseaudio-utils pacat:pulseaudio-utils parec:pulseaudio-utils
  paplay:pulseaudio-utils sox:sox
  dbus-daemon:dbus dbus-send:dbus dbus-monitor:dbus busctl:systemd playerctl:playerctl
  nginx:nginx-light python3:python3
  Xvfb:xvfb xwininfo:x11-utils xprop:x11-utils xmessage:x11-utils xdotool:xdotool openbox:openbox wmctrl:wmctrl weston:weston
  openssl:openssl bash:bash sh:dash env:coreutils seq:coreutils sleep:coreutils mktemp:coreutils mkfifo:coreutils xargs:findutils
  script:bsdutils
)
if [ "${PLAYHEAD_WITH_PEERS:-0}" = 1 ]; then
  libraries+=(mpv-mpris gstreamer1.0-plugins-base-apps gstreamer1.0-plugins-good gstreamer1.0-libav)
  programs+=(mpv:mpv gst-launch-1.0:gstreamer1.0-tools hyperfine:hyperfine time:time)
fi
missing=()
for p in "${libraries[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for entry in "${programs[@]}"; do
  command -v "${entry%%:*}" >/dev/null 2>&1 || missing+=("${entry#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
absent=()
for entry in "${programs[@]}"; do
  command -v "${entry%%:*}" >/dev/null 2>&1 || absent+=("${entry%%:*}")
done
if [ ${#absent[@]} -gt 0 ]; then
  echo "error: still missing after the install: ${absent[*]}" >&2
  exit 1
fi
if ! command -v swift >/dev/null; then
  echo "error: the Swift toolchain (6.0 or later) is not on PATH" >&2
  exit 1
fi
