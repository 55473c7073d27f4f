#!/usr/bin/env python3
"""The failures of a test run, and how much of the CPU the host took while each failed test ran.

Usage: scripts/test-report.py LOGS GROUP...

LOGS holds, for each GROUP, GROUP.jsonl (the Swift Testing event stream, version 0, written by the test bundle's
`--event-stream-output-path`) and GROUP.status (the bundle's exit status), and steal.txt: lines of
"EPOCH-SECONDS TOTAL-JIFFIES STEAL-JIFFIES" sampled from /proc/stat's cpu line about once a second.

Prints each failed test with its issues and the share of this machine's CPU time that the host took (steal)
between the test's start and end, and writes LOGS/rerun.txt: a line "GROUP FILTER" for each failed test that ran
while the host took at least STARVED of the CPU (a virtual machine that stands still cannot keep real time,
however the player is written). Exit status: 0 no failure, 2 every failure is such a test, 1 otherwise (a test
that failed on a machine that ran, or a group that ended without a result: a crash).
"""

import bisect
import json
import os
import re
import sys

# The host's share of the CPU time above which a failed test is run again alone: the share this machine shows
# when nothing else runs on its host is 0-5 %; the red runs of 2026-12-02 showed 24-66 %.
STARVED = 0.10


def read_steal(path):
    samples = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3:
                    samples.append((float(parts[0]), int(parts[1]), int(parts[2])))
    return samples


def steal_share(samples, start, end):
    """The steal share between the last sample at or before `start` and the first at or after `end`."""
    times = [s[0] for s in samples]
    i = max(0, bisect.bisect_right(times, start) - 1)
    j = min(len(samples) - 1, bisect.bisect_left(times, end))
    if j <= i:
        return None
    total = samples[j][1] - samples[i][1]
    return (samples[j][2] - samples[i][2]) / total if total > 0 else None


def read_group(path):
    """Start and end times of each test, its issues' texts, and whether the run ended."""
    started, ended, issues, run_ended = {}, {}, {}, False
    if not os.path.exists(path):
        return started, ended, issues, run_ended
    with open(path) as f:
        for line in f:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut off by a crash
            if record.get("kind") != "event":
                continue
            event = record["payload"]
            kind, test = event.get("kind"), event.get("testID")
            when = event.get("instant", {}).get("since1970", 0)
            if kind == "testStarted":
                started[test] = when
            elif kind == "testEnded":
                ended[test] = when
            elif kind == "issueRecorded" and not event.get("issue", {}).get("isKnown", False):
                texts = [m["text"] for m in event.get("messages", [])]
                issues.setdefault(test, []).append(" / ".join(texts))
            elif kind == "runEnded":
                run_ended = True
    return started, ended, issues, run_ended


def filter_for(test):
    """The `--filter` expression that runs this test (or suite) alone: its ID without the source location."""
    name = re.sub(r"/[^/]*\.swift:\d+:\d+$", "", test)
    return "^" + re.escape(name) + "(/|$)"


def main():
    logs, groups = sys.argv[1], sys.argv[2:]
    samples = read_steal(os.path.join(logs, "steal.txt"))
    rerun, hard = [], False
    for group in groups:
        started, ended, issues, run_ended = read_group(os.path.join(logs, group + ".jsonl"))
        status_path = os.path.join(logs, group + ".status")
        status = open(status_path).read().strip() if os.path.exists(status_path) else "?"
        if status != "0" and not run_ended:
            print(f"[{group}] the test run ended without a result (exit status {status}): a crash or a hang")
            for test in started:
                if test not in ended and "/" in test:
                    print(f"[{group}] ✘ {test} started and never ended")
            hard = True
        elif status != "0" and not issues:
            print(f"[{group}] the test run failed (exit status {status}) without a recorded issue")
            hard = True
        for test, texts in issues.items():
            if test is None:
                print(f"[{group}] an issue outside any test: {texts}")
                hard = True
                continue
            share = steal_share(samples, started.get(test, 0), ended.get(test, float("inf")))
            stolen = "unknown" if share is None else f"{100 * share:.0f} %"
            print(f"[{group}] ✘ {test} (the host took {stolen} of the CPU meanwhile)")
            for text in texts:
                # A failed expectation prints the values of its parts, which can be a whole recording.
                print(f"[{group}]     {text if len(text) <= 400 else text[:400] + ' ...'}")
            if share is not None and share >= STARVED:
                rerun.append(f"{group} {filter_for(test)}")
            else:
                hard = True
    with open(os.path.join(logs, "rerun.txt"), "w") as f:
        f.writelines(line + "\n" for line in sorted(set(rerun)))
    if hard:
        return 1
    return 2 if rerun else 0


if __name__ == "__main__":
    sys.exit(main())
