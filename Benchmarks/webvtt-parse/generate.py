#!/usr/bin/env python3
"""Writes a deterministic 2-hour subtitle track as WebVTT and as SRT: OUT_DIR/two-hours.vtt and .srt.
About 2,000 cues of one or two lines, some with voice/italic/bold tags and cue settings, some NOTE blocks.
Also forty-hours.vtt (the same cues 20 times over, for timing a separate process such as ffmpeg, whose start-up
would otherwise hide the parse) and tiny.vtt (one cue, that start-up alone)."""
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
rng = random.Random(20261130)
words = ("the a of and to in is you that it he was for on are as with his they I at be this have from or one "
         "had by word but not what all were we when your can said there use an each which she do how their if "
         "will up other about out many then them these so some her would make like him into time has look two "
         "more write go see number no way could people my than first water been call who oil its now find").split()


def stamp(t, sep):
    ms = int(round(t * 1000))
    return "%02d:%02d:%02d%s%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, sep, ms % 1000)


def line():
    return " ".join(rng.choice(words) for _ in range(rng.randint(3, 9))).capitalize()


vtt = ["WEBVTT", "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000", ""]
srt = []
cues = []
t, n = 1.0, 0
while t < 7200 - 5:
    n += 1
    duration = rng.uniform(1.0, 4.5)
    start, end = t, t + duration
    text = [line() for _ in range(rng.choice((1, 1, 2)))]
    kind = rng.random()
    if kind < 0.15:
        text[0] = "<v Speaker %d>%s</v>" % (rng.randint(1, 6), text[0])
    elif kind < 0.25:
        text[0] = "<i>%s</i>" % text[0]
    elif kind < 0.3:
        text[0] = "<b>%s</b> &amp; more" % text[0]
    settings = ""
    if rng.random() < 0.1:
        settings = " line:%d%% position:%d%% align:start" % (rng.randint(0, 90), rng.randint(10, 90))
    if n % 250 == 0:
        vtt += ["NOTE chapter %d" % (n // 250), ""]
    vtt += [str(n), "%s --> %s%s" % (stamp(start, "."), stamp(end, "."), settings)] + text + [""]
    srt += [str(n), "%s --> %s" % (stamp(start, ","), stamp(end, ","))] + text + [""]
    cues.append((start, end, settings, text))
    t = end + rng.uniform(0.1, 2.0)

open(out + "/two-hours.vtt", "w").write("\n".join(vtt))
open(out + "/two-hours.srt", "w").write("\r\n".join(srt))
long = ["WEBVTT", ""]
for copy in range(20):
    for start, end, settings, text in cues:
        offset = copy * 7200
        long += ["%s --> %s%s" % (stamp(start + offset, "."), stamp(end + offset, "."), settings)] + text + [""]
open(out + "/forty-hours.vtt", "w").write("\n".join(long))
open(out + "/tiny.vtt", "w").write("WEBVTT\n\n00:00.000 --> 00:01.000\nx\n")
print("%d cues, %.0f s" % (n, t))
