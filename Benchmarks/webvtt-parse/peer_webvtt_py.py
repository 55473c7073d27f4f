#!/usr/bin/env python3
"""Times webvtt-py (PyPI) reading FILE: prints `webvtt-py median_ms min_ms (cues)`."""
import sys
import time

import webvtt

path, iterations = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
times = []
for _ in range(iterations):
    start = time.perf_counter()
    cues = len(webvtt.read(path).captions)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("webvtt-py %.3f %.3f (%d)" % (times[len(times) // 2], times[0], cues))
