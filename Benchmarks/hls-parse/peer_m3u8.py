"""Times the `m3u8` package (PyPI) on the same playlists: prints "<file> <median ms> <min ms> <segments>"."""
import statistics
import sys
import time

import m3u8

runs = 5
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    times = []
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        playlist = m3u8.loads(text, uri="https://cdn.example.com/live/index.m3u8")
        times.append((time.perf_counter() - start) * 1000)
        count = len(playlist.segments)
    print(path, "%.3f %.3f" % (statistics.median(times), min(times)), count)
