#!/usr/bin/env bash
# Starts the daemons the tests need in a private folder and stops them by PID.
#   source scripts/daemons.sh; daemons_start; ...; daemons_stop
# Exports PLAYHEAD_RUN, HOME, XDG_*, PULSE_SERVER, DBUS_SESSION_BUS_ADDRESS, and PLAYHEAD_TEST_DISPLAY (an Xvfb
# server's display name; DISPLAY itself stays unset, so only the tests that ask for a window get one).

daemons_start() {
  PLAYHEAD_RUN=${PLAYHEAD_RUN:-$(mktemp -d /tmp/playhead-run.XXXXXX)}
  export PLAYHEAD_RUN
  mkdir -p "$PLAYHEAD_RUN/home" "$PLAYHEAD_RUN/xdg" "$PLAYHEAD_RUN/cache" "$PLAYHEAD_RUN/state"
  chmod 700 "$PLAYHEAD_RUN/xdg"
  export HOME="$PLAYHEAD_RUN/home" XDG_RUNTIME_DIR="$PLAYHEAD_RUN/xdg" XDG_CACHE_HOME="$PLAYHEAD_RUN/cache"
  export XDG_STATE_HOME="$PLAYHEAD_RUN/state"

  pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit=yes --use-pid-file=no --disable-shm=yes \
    -L "module-native-protocol-unix socket=$PLAYHEAD_RUN/pulse.sock auth-anonymous=1" \
    -L "module-null-sink sink_name=test_sink rate=48000 channels=2" \
    -L "module-null-sink sink_name=second_sink rate=48000 channels=2" \
    -L module-role-cork -L module-always-sink \
    >"$PLAYHEAD_RUN/pulse.log" 2>&1 &
  echo $! >"$PLAYHEAD_RUN/pulse.pid"
  export PULSE_SERVER="unix:$PLAYHEAD_RUN/pulse.sock"
  for _ in $(seq 1 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
  if ! pactl info >/dev/null 2>&1; then
    echo "error: PulseAudio did not start (see $PLAYHEAD_RUN/pulse.log)" >&2
    cat "$PLAYHEAD_RUN/pulse.log" >&2
    return 1
  fi
  pactl set-default-sink test_sink

  dbus-daemon --session --nofork --nopidfile --address="unix:path=$PLAYHEAD_RUN/bus.sock" --print-address=1 \
    >"$PLAYHEAD_RUN/bus.addr" 2>"$PLAYHEAD_RUN/bus.log" &
  echo $! >"$PLAYHEAD_RUN/dbus.pid"
  for _ in $(seq 1 50); do [ -s "$PLAYHEAD_RUN/bus.addr" ] && break; sleep 0.1; done
  if [ ! -s "$PLAYHEAD_RUN/bus.addr" ]; then
    echo "error: dbus-daemon did not start (see $PLAYHEAD_RUN/bus.log)" >&2
    return 1
  fi
  DBUS_SESSION_BUS_ADDRESS=$(head -1 "$PLAYHEAD_RUN/bus.addr")
  export DBUS_SESSION_BUS_ADDRESS
  if ! dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1; then
    echo "error: dbus-daemon does not answer on $DBUS_SESSION_BUS_ADDRESS (see $PLAYHEAD_RUN/bus.log)" >&2
    cat "$PLAYHEAD_RUN/bus.log" >&2
    return 1
  fi

  # An X server of its own (a free display number, told on fd 3 once it accepts connections).
  Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$PLAYHEAD_RUN/xvfb.display" \
    >"$PLAYHEAD_RUN/xvfb.log" 2>&1 &
  echo $! >"$PLAYHEAD_RUN/xvfb.pid"
  for _ in $(seq 1 100); do [ -s "$PLAYHEAD_RUN/xvfb.display" ] && break; sleep 0.1; done
  PLAYHEAD_TEST_DISPLAY=":$(head -1 "$PLAYHEAD_RUN/xvfb.display" 2>/dev/null)"
  if [ "$PLAYHEAD_TEST_DISPLAY" = ":" ] || ! xwininfo -display "$PLAYHEAD_TEST_DISPLAY" -root >/dev/null 2>&1; then
    echo "error: Xvfb did not start (see $PLAYHEAD_RUN/xvfb.log)" >&2
    cat "$PLAYHEAD_RUN/xvfb.log" >&2
    return 1
  fi
  export PLAYHEAD_TEST_DISPLAY
  # The pointer waits in the bottom-right corner: a window that opens under it would show its player controls.
  DISPLAY=$PLAYHEAD_TEST_DISPLAY xdotool mousemove 1279 719
}

# nginx serving a folder on 127.0.0.1 with an access log, for HTTP and HLS tests:
#   nginx_start ROOT   exports PLAYHEAD_NGINX_PORT and PLAYHEAD_NGINX_LOG
nginx_start() {
  local root=$1 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$PLAYHEAD_RUN/nginx" "$root"
  cat >"$PLAYHEAD_RUN/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $PLAYHEAD_RUN/nginx/nginx.pid;
error_log $PLAYHEAD_RUN/nginx/error.log;
events { worker_connections 64; }
http {
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; audio/mp4 m4a; }
  default_type application/octet-stream;
  log_format timed '\$remote_addr - \$remote_user [\$time_local] "\$request" \$status \$body_bytes_sent '
                   '"\$http_referer" "\$http_user_agent" \$connection \$msec';
  access_log $PLAYHEAD_RUN/nginx/access.log timed;
  client_body_temp_path $PLAYHEAD_RUN/nginx;
  proxy_temp_path $PLAYHEAD_RUN/nginx;
  fastcgi_temp_path $PLAYHEAD_RUN/nginx;
  uwsgi_temp_path $PLAYHEAD_RUN/nginx;
  scgi_temp_path $PLAYHEAD_RUN/nginx;
  server { listen 127.0.0.1:$port; root $root; }
}
CONF
  nginx -c "$PLAYHEAD_RUN/nginx/nginx.conf" -p "$PLAYHEAD_RUN/nginx" >"$PLAYHEAD_RUN/nginx/stdout.log" 2>&1 &
  echo $! >"$PLAYHEAD_RUN/nginx.pid"
  # Answers when an HTTP request gets a status line back (any status: the root may have no index).
  local probe="import sys, urllib.request, urllib.error
try: urllib.request.urlopen('http://127.0.0.1:$port/', timeout=0.5)
except urllib.error.HTTPError: pass
except Exception: sys.exit(1)"
  local answered=0
  for _ in $(seq 1 50); do
    if python3 -c "$probe" 2>/dev/null; then answered=1; break; fi
    kill -0 "$(cat "$PLAYHEAD_RUN/nginx.pid")" 2>/dev/null || break  # it exited: no point waiting
    sleep 0.1
  done
  if [ "$answered" != 1 ]; then
    echo "error: nginx does not answer on 127.0.0.1:$port (see $PLAYHEAD_RUN/nginx/error.log)" >&2
    cat "$PLAYHEAD_RUN/nginx/stdout.log" "$PLAYHEAD_RUN/nginx/error.log" >&2 2>/dev/null
    return 1
  fi
  export PLAYHEAD_NGINX_PORT=$port PLAYHEAD_NGINX_LOG="$PLAYHEAD_RUN/nginx/access.log" PLAYHEAD_NGINX_ROOT="$root"
}

daemons_stop() {
  [ -n "${PLAYHEAD_RUN:-}" ] || return 0
  for f in pulse dbus nginx xvfb; do
    if [ -f "$PLAYHEAD_RUN/$f.pid" ]; then
      kill "$(cat "$PLAYHEAD_RUN/$f.pid")" 2>/dev/null || true
      rm -f "$PLAYHEAD_RUN/$f.pid"
    fi
  done
}
