#!/usr/bin/env python3
"""Synthetic bandwidth traces for the ABR benchmark: links the policy was not tuned on.

Usage: scripts/abr-synthetic-traces.py OUT_DIR MOVIE_JSON [--count N] [--seconds S] [--seed K]

Writes OUT_DIR/FAMILY/traceNNN.json in Sabre's format ([{duration_ms, bandwidth_kbps, latency_ms}]) for four
families, each scaled to the movie's ladder (from its lowest rung L to its top rung T), the same for every run with
the same seed:

- markov: Pensieve's synthetic model (Mao et al., SIGCOMM 2017, section 5.1): a Markov chain over throughput levels
  spread evenly in log scale from 0.5 L to 1.5 T; each second the chain stays with probability 1 - 1/d (d, the mean
  stay, drawn per trace from 2-20 s) or moves to a level picked with weights falling geometrically with distance (0.5
  per level); within a level the throughput is Gaussian around it with a relative deviation drawn per trace from
  0.05-0.5.
- steps: plateaus of 10-60 s at levels drawn log-uniform from 0.5 L to 1.5 T (Sabre's own example network is four
  30 s plateaus).
- walk: a mean-reverting random walk of the log throughput (Ornstein-Uhlenbeck, 1 s steps, reversion 0.05 per s,
  volatility 0.15-0.4 per step) around a level drawn log-uniform from L to T.
- outage: a steady link at a level drawn log-uniform from 1.2 L to 1.5 T, with 5 % noise, that drops to 0.05 L for
  2-15 s at intervals drawn exponentially with a mean of 20-90 s (a train through tunnels).

Latency per trace: uniform 20-150 ms. Nothing here was fitted to any policy: the families and their ranges were set
before any policy ran on them.
"""
import json
import math
import os
import random
import sys


def parse(argv):
    if len(argv) < 3:
        sys.exit("usage: abr-synthetic-traces.py OUT_DIR MOVIE_JSON [--count N] [--seconds S] [--seed K]")
    out, movie = argv[1], argv[2]
    opts = {"--count": 50, "--seconds": 600, "--seed": 1}
    rest = argv[3:]
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            sys.exit("abr-synthetic-traces.py: unknown or incomplete option " + rest[0])
        try:
            opts[rest[0]] = int(rest[1])
        except ValueError:
            sys.exit("abr-synthetic-traces.py: %s needs a whole number, not %r" % (rest[0], rest[1]))
        if opts[rest[0]] <= 0 and rest[0] != "--seed":
            sys.exit("abr-synthetic-traces.py: %s must be positive" % rest[0])
        rest = rest[2:]
    return out, movie, opts["--count"], opts["--seconds"], opts["--seed"]


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def markov(rng, low, top, seconds):
    levels = [math.exp(math.log(0.5 * low) + i * (math.log(1.5 * top) - math.log(0.5 * low)) / 9) for i in range(10)]
    stay = rng.uniform(2, 20)
    spread = rng.uniform(0.05, 0.5)
    state = rng.randrange(len(levels))
    rates = []
    for _ in range(seconds):
        if rng.random() < 1 / stay:
            weights = [0 if j == state else 0.5 ** abs(j - state) for j in range(len(levels))]
            state = rng.choices(range(len(levels)), weights)[0]
        rates.append(max(levels[state] * (1 + spread * rng.gauss(0, 1)), 0.05 * low))
    return [(1000, r) for r in rates]


def steps(rng, low, top, seconds):
    out, t = [], 0
    while t < seconds:
        d = rng.randint(10, 60)
        out.append((d * 1000, log_uniform(rng, 0.5 * low, 1.5 * top)))
        t += d
    return out


def walk(rng, low, top, seconds):
    mean = math.log(log_uniform(rng, low, top))
    sigma = rng.uniform(0.15, 0.4)
    x = mean
    out = []
    for _ in range(seconds):
        x += 0.05 * (mean - x) + sigma * rng.gauss(0, 1)
        x = min(max(x, math.log(0.05 * low)), math.log(3 * top))
        out.append((1000, math.exp(x)))
    return out


def outage(rng, low, top, seconds):
    level = log_uniform(rng, 1.2 * low, 1.5 * top)
    gap = rng.uniform(20, 90)
    out, t = [], 0.0
    next_outage = rng.expovariate(1 / gap)
    while t < seconds:
        if t >= next_outage:
            d = rng.randint(2, 15)
            out.append((d * 1000, 0.05 * low))
            t += d
            next_outage = t + rng.expovariate(1 / gap)
        else:
            out.append((1000, level * (1 + 0.05 * rng.gauss(0, 1))))
            t += 1
    return out


FAMILIES = {"markov": markov, "steps": steps, "walk": walk, "outage": outage}


def main():
    out, movie_path, count, seconds, seed = parse(sys.argv)
    try:
        with open(movie_path) as f:
            ladder = json.load(f)["bitrates_kbps"]
        low, top = float(min(ladder)), float(max(ladder))
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit("abr-synthetic-traces.py: %s: not a Sabre movie description (%s)" % (movie_path, e))
    if low <= 0:
        sys.exit("abr-synthetic-traces.py: %s: the lowest rung is not positive" % movie_path)
    for name, make in FAMILIES.items():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for i in range(count):
            rng = random.Random("%d-%s-%d" % (seed, name, i))
            latency = rng.uniform(20, 150)
            trace = [
                {"duration_ms": d, "bandwidth_kbps": round(r, 1), "latency_ms": round(latency, 1)}
                for d, r in make(rng, low, top, seconds)
            ]
            with open(os.path.join(folder, "trace%03d.json" % i), "w") as f:
                json.dump(trace, f)


if __name__ == "__main__":
    main()
