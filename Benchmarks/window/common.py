"""What the window benchmarks share: their arguments and the environment the players run in."""
import argparse
import os


def arguments(default_runs):
    """The parsed arguments (--runs, --fixtures, --playhead, --display) and the players' environment: the X
    display given, no Wayland, SDL's sound off."""
    a = argparse.ArgumentParser()
    a.add_argument("--runs", type=int, default=default_runs)
    a.add_argument("--fixtures", required=True)
    a.add_argument("--playhead", required=True)
    a.add_argument("--display", required=True)
    args = a.parse_args()
    env = dict(os.environ, DISPLAY=args.display, SDL_AUDIODRIVER="dummy")
    env.pop("WAYLAND_DISPLAY", None)
    return args, env
