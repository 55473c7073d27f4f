#!/usr/bin/env python3
"""Movie descriptions (Sabre's format) with ladders and segment lengths the policy was not tuned on.

Sabre's two movies both have 3 s segments; players meet 2 s, 4 s and 6 s ones and ladders with other steps. Each
movie here is a published ladder with segment sizes made the way encoders make them: each segment's size is its
rung's bit rate x its duration x how hard that stretch of the film is to encode (a factor from 0.75 to 1.25, the
same for every rung, drawn per segment) x a small per-rung wobble (0.95 to 1.05). Deterministic: the same files on
every run.

- pensieve.json: Pensieve's and RobustMPC's evaluation ladder (Envivio, 300-4300 kbit/s in 6 rungs), 48 segments of
  4 s.
- apple6s.json: the H.264 ladder of Apple's HLS authoring specification (145-7800 kbit/s in 9 rungs), 100 segments of
  6 s (Apple's recommended length).
- doubling2s.json: a ladder that doubles at each step (400-6400 kbit/s in 5 rungs), 150 segments of 2 s (the short
  segments of low-latency streams).

Usage: scripts/abr-ladders.py OUT_DIR
"""

import json
import random
import sys
from pathlib import Path

MOVIES = {
    "pensieve": (4000, [300, 750, 1200, 1850, 2850, 4300], 48, 1),
    "apple6s": (6000, [145, 365, 730, 1100, 2000, 3000, 4500, 6000, 7800], 100, 2),
    "doubling2s": (2000, [400, 800, 1600, 3200, 6400], 150, 3),
}


def movie(segment_ms, rates_kbps, count, seed):
    rng = random.Random(seed)
    sizes = []
    for _ in range(count):
        hardness = rng.uniform(0.75, 1.25)
        sizes.append([int(kbps * segment_ms * hardness * rng.uniform(0.95, 1.05)) for kbps in rates_kbps])
    return {"segment_duration_ms": segment_ms, "bitrates_kbps": rates_kbps, "segment_sizes_bits": sizes}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, (segment_ms, rates, count, seed) in MOVIES.items():
        (out / f"{name}.json").write_text(json.dumps(movie(segment_ms, rates, count, seed)))


if __name__ == "__main__":
    main()
