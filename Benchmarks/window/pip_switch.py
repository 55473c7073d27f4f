#!/usr/bin/env python3
"""Picture in Picture switch times: `playhead` plays a looping all-red 720p clip in a window on the test X server
(1280x720, no window manager); the key `i` (xdotool, through XTEST) moves the player into the floating window and
back. Measured from the start of the `xdotool key i` that types it to the first red pixel read from the X server in the
floating window (a point the main window does not cover) and, on the way back, at the screen's centre (where
only the main window shows). Dropped frames come from `--log-json`'s `dropped-frame` events over the whole run.
Prints the median and the worst of RUNS switches each way; the target is under 100 ms each, no frame dropped.
"""
import json
import os
import signal
import statistics
import subprocess
import time

from common import arguments
from first_picture import Screen


def wait_red(screen, point, start, timeout=3):
    """Seconds from `start` until the pixel at `point` is red (None after `timeout`)."""
    while time.monotonic() - start < timeout:
        r, g, b = screen.pixel_at(*point)
        if r > 200 and g < 60 and b < 60:
            return time.monotonic() - start
        time.sleep(0.0005)
    return None


def wait_not_red(screen, point, timeout=3):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if screen.pixel_at(*point)[0] < 60:
            return True
        time.sleep(0.002)
    return False


def window_id(env, pattern):
    r = subprocess.run(["xdotool", "search", "--sync", "--name", pattern], env=env, capture_output=True, text=True,
                       timeout=10)
    return r.stdout.split()[0]


def press_i(env, window):
    """Focuses `window`, then types `i`; returns when the key is sent, with the time xdotool was started (the
    times measured include xdotool's own start, a few milliseconds: an upper bound)."""
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, check=True, timeout=10)
    start = time.monotonic()
    subprocess.run(["xdotool", "key", "i"], env=env, check=True, timeout=10)
    return start


def main():
    args, env = arguments(10)
    clip = os.path.join(args.fixtures, "window-red-720p-60s.mp4")
    if not os.path.exists(clip):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "color=c=red:s=1280x720:r=30:d=60", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip],
                       check=True)
    screen = Screen(args.display)
    log = os.path.join(os.environ.get("PLAYHEAD_RUN", "/tmp"), "pip-switch.jsonl")
    p = subprocess.Popen([args.playhead, "--no-mpris", "--no-resume", "--ao=null", "--vo=sdl", "--loop-file=inf",
                          f"--log-json={log}", "--geometry=960x540+0+0", clip], env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        main_window = window_id(env, "^window-red-720p-60s.mp4 - playhead$")
        centre = (480, 270)
        if wait_red(screen, centre, time.monotonic(), timeout=10) is None:
            raise SystemExit("no picture in the main window")
        # The floating window: a quarter of 1280 wide (320x180), bottom right, 16 pixels in.
        floating_point = (1280 - 16 - 40, 720 - 16 - 20)
        into, back = [], []
        for _ in range(args.runs):
            start = press_i(env, main_window)
            t = wait_red(screen, floating_point, start)
            into.append(t)
            wait_not_red(screen, centre)
            floating = window_id(env, r"\(Picture in Picture\)$")
            time.sleep(0.3)
            start = press_i(env, floating)
            t = wait_red(screen, centre, start)
            back.append(t)
            wait_not_red(screen, floating_point)
            time.sleep(0.3)
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(10)
    dropped = 0
    with open(log) as f:
        for line in f:
            try:
                dropped += json.loads(line).get("event") == "dropped-frame"
            except json.JSONDecodeError:
                pass
    for name, times in (("into Picture in Picture", into), ("back to the window", back)):
        shown = [t * 1000 for t in times if t is not None]
        missing = len(times) - len(shown)
        if not shown:
            print(f"{name:26} no picture")
            continue
        print(f"{name:26} median {statistics.median(shown):6.1f} ms  worst {max(shown):6.1f} ms  "
              f"({len(shown)} switches{', ' + str(missing) + ' without a picture' if missing else ''})")
    print(f"dropped frames over the run: {dropped}")


if __name__ == "__main__":
    main()
