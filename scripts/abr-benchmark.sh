#!/usr/bin/env bash
# The ABR benchmark of BENCHMARKS.md: builds playhead-abr-sim (release) and runs every policy over every Sabre trace
# set (3Glogs, 4Glogs, sd_fs, hd_fs) with bbb.json and bbb4k.json, then over each set's two halves (traces at odd
# and at even positions in name order: the policy's constants were tuned on the odd half only), then over four
# families of synthetic traces scaled to each movie's ladder (scripts/abr-synthetic-traces.py: links the policy
# was not tuned on; seed 1 showed the outage weakness fixed on 2026-12-04, seed 2 was run only after), then over every
# set with three ladders and segment lengths the policy was not tuned on (scripts/abr-ladders.py: 2, 4 and 6 s
# segments; first run on 2026-12-04). Prints Markdown.
# Usage: scripts/abr-benchmark.sh [CORPUS_DIR]   (default ../shared/corpora/traces/sabre/example/mmsys18)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpora/traces/sabre/example/mmsys18}
swift build -c release --product playhead-abr-sim 2>&1 | grep -v "prohibited flag" | tail -1
sim=.build/release/playhead-abr-sim
policies=(playhead throughput bola-e hls-ewma dynamic robust-mpc optimal)

table() { # title, then the JSON outputs as "movie set json" lines on stdin
  python3 -c '
import json, sys
title = sys.argv[1]
order = sys.argv[2:]
print("\n#### " + title + "\n")
print("| movie | set | traces | policy | kbps | rebuffer ratio | rebuffer events | switches | switch kbps | start-up s | qoe_lin | % of optimal |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for line in sys.stdin:
    movie, name, text = line.split(" ", 2)
    d = json.loads(text)
    opt = d["policies"]["optimal"]["qoe_lin"]
    online = [p for p in order if p != "optimal"]
    best = max(online, key=lambda p: d["policies"][p]["qoe_lin"])
    for p in order:
        m = d["policies"][p]
        share = "%.0f %%" % (100 * m["qoe_lin"] / opt) if opt > 0 and m["qoe_lin"] > 0 else "n/a"
        q = "%.3f" % m["qoe_lin"]
        print("| %s | %s | %d | %s | %.0f | %.4f | %.2f | %.1f | %.0f | %.2f | %s | %s |" % (
            movie, name, d["traces"], p, m["bitrate_kbps"], m["rebuffer_ratio"], m["rebuffer_events"],
            m["switches"], m["switch_kbps"], m["startup_s"], "**" + q + "**" if p == best else q, share))
' "$@"
}

args=()
for p in "${policies[@]}"; do args+=(--policy "$p"); done
for half in all odd even; do
  for movie in bbb bbb4k; do
    for set in 3Glogs 4Glogs sd_fs hd_fs; do
      case $half in
        all) files=("$corpus/$set") ;;
        odd) mapfile -t files < <(ls "$corpus/$set" | awk 'NR % 2 == 1' | sed "s|^|$corpus/$set/|") ;;
        even) mapfile -t files < <(ls "$corpus/$set" | awk 'NR % 2 == 0' | sed "s|^|$corpus/$set/|") ;;
      esac
      echo "$movie $set $("$sim" --movie "$corpus/$movie.json" --traces "${files[@]}" "${args[@]}" --json)"
    done
  done | table "$half traces" "${policies[@]}"
done

synthetic=$(mktemp -d)
trap 'rm -rf "$synthetic"' EXIT
for seed in 1 2; do
  for movie in bbb bbb4k; do
    scripts/abr-synthetic-traces.py "$synthetic/$seed/$movie" "$corpus/$movie.json" --seed "$seed"
    for family in markov steps walk outage; do
      echo "$movie $family $("$sim" --movie "$corpus/$movie.json" --traces "$synthetic/$seed/$movie/$family" "${args[@]}" --json)"
    done
  done | table "synthetic traces, seed $seed (50 per family, 600 s each)" "${policies[@]}"
done

ladders=$(mktemp -d)
trap 'rm -rf "$synthetic" "$ladders"' EXIT
scripts/abr-ladders.py "$ladders"
for movie in pensieve apple6s doubling2s; do
  for set in 3Glogs 4Glogs sd_fs hd_fs; do
    echo "$movie $set $("$sim" --movie "$ladders/$movie.json" --traces "$corpus/$set" "${args[@]}" --json)"
  done
done | table "other ladders and segment lengths (scripts/abr-ladders.py), all traces" "${policies[@]}"
