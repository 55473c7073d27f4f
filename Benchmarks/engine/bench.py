#!/usr/bin/env python3
"""Engine v2, old against new (issue 12): one table of every measurement the issue names, for an older playhead
build ("old"), this tree's build ("new") and mpv, in one sitting on one machine.

Each measurement is the existing benchmark's own code (Benchmarks/playback, hls-startup, gapless, paused: their
fixtures, commands and measuring functions are imported, not copied); this script only runs the three players
alternating, round after round (the order rotates each round, so none always runs first or right after mpv), and
prints old, new, mpv and new/old. Cells are the median with the range over the rounds: the range is the run-to-run
noise the issue's "nothing worse than before by more than the noise" is read against. /proc/loadavg is sampled all
along and reported.
"""
import argparse
import importlib.util
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, folder):
    """Imports Benchmarks/<folder>/bench.py as <name> (every benchmark's script is called bench.py)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "..", folder, "bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


playback = load("playback_bench", "playback")
sys.modules.setdefault("bench", playback)  # hls-startup's `from bench import Recorder`
hls = load("hls_startup_bench", "hls-startup")
gapless = load("gapless_bench", "gapless")
paused = load("paused_bench", "paused")

PLAYERS = ["old", "new", "mpv"]


class LoadSampler:
    """Samples the 1-minute load average every few seconds in the background."""

    def __init__(self, every=5.0):
        self.samples = []
        self.every = every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped.is_set():
            with open("/proc/loadavg") as f:
                self.samples.append(float(f.read().split()[0]))
            self.stopped.wait(self.every)

    def stop(self):
        self.stopped.set()
        self.thread.join()


def rounds(n):
    """The players' order in each of n rounds: rotated, so each runs first, second and third equally often."""
    for r in range(n):
        yield PLAYERS[r % 3:] + PLAYERS[:r % 3]


def measure(n, run):
    """Calls run(player) for each player in each of n rounds; returns {player: [values, None dropped]}."""
    out = {p: [] for p in PLAYERS}
    for order in rounds(n):
        for player in order:
            v = run(player)
            if v is not None:
                out[player].append(v)
    return out


def cell(values, fmt):
    if not values:
        return "n/a"
    med = statistics.median(values)
    if len(values) == 1:
        return fmt % med
    return "%s (%s-%s)" % (fmt % med, fmt % min(values), fmt % max(values))


def ratio(values):
    if not values["old"] or not values["new"]:
        return "n/a"
    old, new = statistics.median(values["old"]), statistics.median(values["new"])
    if old == 0:
        return "n/a (old 0)" if new else "1.00"
    return "**%.2f**" % (new / old)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3, help="rounds of each measurement (start-up: 3 x this)")
    ap.add_argument("--playhead", required=True, help="the new build")
    ap.add_argument("--old-playhead", required=True, help="the old build")
    ap.add_argument("--fixtures", default=".fixtures")
    ap.add_argument("--root", required=True, help="nginx's root (the HLS ladder is made there)")
    ap.add_argument("--port", required=True)
    ap.add_argument("--log", required=True, help="nginx's access log")
    ap.add_argument("--paused-seconds", type=float, default=10)
    ap.add_argument("--gapless-runs", type=int, default=1, help="rounds of the gapless joins (sample counts)")
    ap.add_argument("--only", help="comma-separated subset: startup,hls,cpu,untimed,memory,gapless,paused")
    a = ap.parse_args()
    builds = {"new": os.path.abspath(a.playhead), "old": os.path.abspath(a.old_playhead)}
    only = set(a.only.split(",")) if a.only else None

    def wanted(name):
        return only is None or name in only

    os.environ["PULSE_SINK"] = "test_sink"
    os.environ["SDL_AUDIODRIVER"] = "pulseaudio"
    tone, hd = playback.fixtures(a.fixtures)
    url = hls.ladder_url(a.root, a.port)
    rows = []  # (measurement, {player: values}, format)
    loads = LoadSampler()
    started = time.monotonic()

    def step(title):
        print("[%4.0f s, load %s] %s" % (time.monotonic() - started, open("/proc/loadavg").read().split()[0],
                                         title), file=sys.stderr, flush=True)

    if wanted("startup") or wanted("hls"):
        rec = playback.Recorder("test_sink", "/tmp/playhead-engine-bench.raw")
        try:
            if wanted("startup"):
                step("start-up, file")
                cmds = {p: playback.playhead_cmd(b, "startup", tone) for p, b in builds.items()}
                cmds["mpv"] = playback.mpv_cmd("startup", tone)

                def startup(p):
                    s = playback.startup(cmds[p], rec)
                    time.sleep(0.3)
                    return None if s is None else s * 1000

                rows.append(("launch to first sound at the sink, 10 s AAC file (ms)", measure(3 * a.runs, startup),
                             "%.0f"))
            if wanted("hls"):
                step("start-up, HLS")
                cmds = {p: hls.playhead_cmd(b, url) for p, b in builds.items()}
                cmds["mpv"] = hls.mpv_cmd(url)
                requests = {p: [] for p in PLAYERS}

                def hls_startup(p):
                    t, logged = hls.run(cmds[p], rec, a.log)
                    time.sleep(0.5)
                    if t is None:
                        return None
                    requests[p].append(logged[1])
                    return t * 1000

                rows.append(("launch to first sound at the sink, HLS 4-variant ladder (ms)",
                             measure(3 * a.runs, hls_startup), "%.0f"))
                rows.append(("HLS: requests nginx logged before that first sound", requests, "%.0f"))
        finally:
            rec.stop()

    if wanted("cpu"):
        step("CPU at 1x")

        def cpu(p):
            cmd = playback.mpv_cmd("1x", hd) if p == "mpv" else playback.playhead_cmd(builds[p], "1x", hd)
            return playback.run_measured(cmd)[1] / playback.HD_SECONDS

        rows.append(("CPU s per media s, 1080p30 30 s at 1x (sound to PulseAudio, video decoded and paced)",
                     measure(a.runs, cpu), "%.3f"))

    if wanted("untimed"):
        step("untimed decode")

        untimed_cpu = {p: [] for p in PLAYERS}

        def untimed(p):
            cmd = playback.mpv_cmd("untimed", hd) if p == "mpv" else playback.playhead_cmd(builds[p], "untimed", hd)
            wall, cpu, _ = playback.run_measured(cmd)
            untimed_cpu[p].append(cpu)
            return wall

        rows.append(("`--untimed --ao=null --vo=null`, whole 1080p file, wall time (s)", measure(a.runs, untimed),
                     "%.2f"))
        rows.append(("the same, CPU time (user + system s)", untimed_cpu, "%.2f"))

    if wanted("memory"):
        step("peak memory")

        def memory(p):
            cmd = playback.mpv_cmd("memory", hd) if p == "mpv" else playback.playhead_cmd(builds[p], "memory", hd)
            return playback.peak_rss(cmd)

        rows.append(("peak resident memory, first 10 s of the 1080p file (MiB)", measure(a.runs, memory), "%.0f"))

    if wanted("gapless"):
        step("gapless joins")
        module = gapless.load_sink()
        try:
            for ext in gapless.FORMATS:
                master, parts = gapless.fixtures(a.fixtures, ext)
                ref = gapless.samples(master)

                def joins(p):
                    cmd = gapless.mpv_cmd(parts) if p == "mpv" else gapless.playhead_cmd(builds[p], parts)
                    return gapless.fmt(gapless.joins(gapless.record(gapless.SINK, cmd), ref))

                rows.append(("gapless, %s: samples inserted (+) or lost (-) at join 1, join 2" % ext,
                             measure(a.gapless_runs, joins), None))
        finally:
            gapless.unload_sink(module)

    if wanted("paused"):
        step("paused")
        clip = paused.fixture(a.fixtures)
        run = os.environ.get("PLAYHEAD_RUN", "/tmp")
        cpu_paused = {p: [] for p in PLAYERS}

        def wakeups(p):
            if p == "mpv":
                w, c = paused.measure_mpv(clip, a.paused_seconds, run)
            else:
                w, c = paused.measure_playhead(builds[p], clip, a.paused_seconds)
            cpu_paused[p].append(c * 100)
            return w

        rows.append(("paused 720p: wake-ups per second (%g s watched)" % a.paused_seconds, measure(a.runs, wakeups),
                     "%.1f"))
        rows.append(("paused 720p: CPU (%)", cpu_paused, "%.3f"))

    loads.stop()
    elapsed = time.monotonic() - started
    print("Engine old against new, %s, %d rounds (start-up %d), %.0f s" % (time.strftime("%Y-%m-%d"), a.runs,
                                                                        3 * a.runs, elapsed))
    print("old: %s\nnew: %s\nmpv: %s" % (builds["old"], builds["new"], mpv_version()))
    if loads.samples:
        print("load average (1 min) during the run: min %.2f, median %.2f, max %.2f (%d samples)"
              % (min(loads.samples), statistics.median(loads.samples), max(loads.samples), len(loads.samples)))
    print()
    print("| measurement | old | new | mpv | new/old |")
    print("|---|---|---|---|---|")
    for title, values, fmt in rows:
        if fmt is None:  # gapless: the runs' strings, each distinct one once
            cells = [" / ".join(dict.fromkeys(values[p])) or "n/a" for p in PLAYERS]
            same = "same" if values["old"] == values["new"] else "differs"
            print("| %s | %s | %s | %s | %s |" % (title, cells[0], cells[1], cells[2], same))
        else:
            print("| %s | %s | %s | %s | %s |" % (title, cell(values["old"], fmt), cell(values["new"], fmt),
                                                 cell(values["mpv"], fmt), ratio(values)))
    print("\nCells: median (lowest-highest) over the rounds.")


def mpv_version():
    import subprocess
    out = subprocess.run(["mpv", "--version"], stdout=subprocess.PIPE, text=True).stdout
    return out.splitlines()[0] if out else "mpv"


if __name__ == "__main__":
    sys.exit(main())
