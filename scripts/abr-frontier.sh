#!/usr/bin/env bash
# What the offline optimum can have at each level of rebuffering, beside `playhead` and the leading baseline (the
# online baseline with the best qoe_lin): for each movie and Sabre trace set, `playhead-abr-sim --frontier` (the
# optimum charged 1, 2, 5, 10 and 100 times the metric's 4.3 per stalled second, each measured by the metric), then
# every online policy. A policy that stalls little is judged against the optimum that stalls as little. Prints
# Markdown; about 4 minutes on 2 cores.
# Usage: scripts/abr-frontier.sh [CORPUS_DIR]   (default ../shared/corpora/traces/sabre/example/mmsys18)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpora/traces/sabre/example/mmsys18}
swift build -c release --product playhead-abr-sim 2>&1 | grep -v "prohibited flag" | tail -1
sim=.build/release/playhead-abr-sim
online=(playhead throughput bola-e hls-ewma dynamic robust-mpc)
args=()
for p in "${online[@]}"; do args+=(--policy "$p"); done

for movie in bbb bbb4k; do
  for set in 3Glogs 4Glogs sd_fs hd_fs; do
    frontier=$("$sim" --movie "$corpus/$movie.json" --traces "$corpus/$set" --frontier --json)
    policies=$("$sim" --movie "$corpus/$movie.json" --traces "$corpus/$set" "${args[@]}" --json)
    echo "$movie $set $frontier $policies"
  done
done | python3 -c '
import json, sys
print("| movie | set | traces | optimum at 4.3 / 8.6 / 21.5 / 43 / 430 a stalled second: qoe_lin (rebuffer ratio) "
      "| playhead | leading baseline | playhead, % of the optimum at 43 |")
print("|---|---|---|---|---|---|---|")
decoder = json.JSONDecoder()
for line in sys.stdin:
    movie, name, rest = line.split(" ", 2)
    frontier, end = decoder.raw_decode(rest)
    policies = json.loads(rest[end:])["policies"]
    points = " / ".join("%.3f (%.4f)" % (p["qoe_lin"], p["rebuffer_ratio"]) for p in frontier["frontier"])
    own = policies["playhead"]
    lead = max((p for p in policies if p != "playhead"), key=lambda p: policies[p]["qoe_lin"])
    strict = frontier["frontier"][3]["qoe_lin"]
    share = "%.0f %%" % (100 * own["qoe_lin"] / strict) if strict > 0 else "n/a"
    print("| %s | %s | %d | %s | %.3f (%.4f) | %s %.3f (%.4f) | %s |" % (
        movie, name, frontier["traces"], points, own["qoe_lin"], own["rebuffer_ratio"], lead,
        policies[lead]["qoe_lin"], policies[lead]["rebuffer_ratio"], share))
'
