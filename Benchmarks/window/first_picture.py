#!/usr/bin/env python3
"""Launch to first picture on screen: Playhead against mpv (--vo=x11) and ffplay on one X server.

Each player is started on a 2 s clip whose every picture is pure red (1280x720 H.264, no sound) with the screen
black; the centre pixel of the screen is read from the X server (XGetImage through libX11, about 0.1 ms a read)
until it is red. The time from the start of the process to that moment is the launch to first picture; the player
is then stopped. Prints the median of RUNS for each player, and Playhead's ratio to the faster peer.
"""
import ctypes
import os
import signal
import statistics
import subprocess
import sys
import time

from common import arguments


class Screen:
    """Reads one pixel of the X server's screen."""

    def __init__(self, display):
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XDefaultRootWindow.restype = ctypes.c_ulong
        self.x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.x11.XGetImage.restype = ctypes.c_void_p
        self.x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                       ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.x11.XDisplayWidth.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.x11.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.display = self.x11.XOpenDisplay(display.encode())
        if not self.display:
            sys.exit(f"cannot open the X display {display}")
        self.root = self.x11.XDefaultRootWindow(self.display)
        self.centre = (self.x11.XDisplayWidth(self.display, 0) // 2, self.x11.XDisplayHeight(self.display, 0) // 2)

    def pixel(self):
        """(red, green, blue) at the centre of the screen."""
        return self.pixel_at(*self.centre)

    def pixel_at(self, x, y):
        """(red, green, blue) at `x`, `y` of the screen."""
        image = self.x11.XGetImage(self.display, self.root, x, y, 1, 1, 0xFFFFFFFF, 2)
        if not image:
            return (0, 0, 0)
        # struct _XImage: int width, height, xoffset, format; char *data; ... (ZPixmap, 32 bits: B G R X).
        data = ctypes.cast(ctypes.c_void_p.from_address(image + 16).value, ctypes.POINTER(ctypes.c_ubyte))
        return (data[2], data[1], data[0])


def first_picture(command, env, screen, timeout=10):
    """Seconds from starting `command` to a red centre pixel, then stops it; None when none came."""
    start = time.monotonic()
    p = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    seen = None
    while time.monotonic() - start < timeout:
        r, g, b = screen.pixel()
        if r > 200 and g < 60 and b < 60:
            seen = time.monotonic() - start
            break
        time.sleep(0.0005)
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    # The screen is black again before the next player starts.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and screen.pixel()[0] > 60:
        time.sleep(0.01)
    return seen


def main():
    args, env = arguments(5)
    clip = os.path.join(args.fixtures, "window-red-720p.mp4")
    if not os.path.exists(clip):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "color=c=red:s=1280x720:r=30:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip],
                       check=True)
    screen = Screen(args.display)
    commands = {
        "playhead": [args.playhead, "--no-mpris", "--no-resume", "--ao=null", "--vo=sdl", clip],
        "mpv": ["mpv", "--no-config", "--ao=null", "--vo=x11", "--really-quiet", clip],
        "ffplay": ["ffplay", "-an", "-loglevel", "quiet", clip],
    }
    times = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            t = first_picture(command, env, screen)
            if t is not None:
                times[name].append(t)
    print(f"{'player':9} {'launch to first picture (ms)':>29} {'runs':>5} {'vs faster peer':>15}")
    medians = {n: statistics.median(t) * 1000 for n, t in times.items() if t}
    peers = [medians[n] for n in ("mpv", "ffplay") if n in medians]
    for name in commands:
        if name not in medians:
            print(f"{name:9} {'no picture':>29}")
            continue
        ratio = f"{medians[name] / min(peers):.2f}" if name == "playhead" and peers else ""
        print(f"{name:9} {medians[name]:29.1f} {len(times[name]):5} {ratio:>15}")


if __name__ == "__main__":
    main()
