#!/usr/bin/env bash
# What each Flip 7 policy costs: four players of one policy, games per
# second on all cores, one run each. Prints a Markdown table.
#
#   scripts/flip7-policy-speed.sh [SCALE]
#
# SCALE multiplies the number of games of every run (default 1: each run
# takes a few seconds on 2 cores; a fraction such as 0.001 makes a quick
# check that every run works).
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}

# policy, games at scale 1, what it does at each decision
runs=(
    "stay-at-25|5000000|compares the banked score with N"
    "cards-4|5000000|counts the numbers held"
    "saboteur|5000000|stay-at-25 with other action-card choices"
    "endgame:25|2000000|adds the game scores to a threshold"
    "bust-prob:0.3|2000000|counts the unseen cards"
    "ev|1000000|counts, and sums the value of every possible next card"
    "opportunist|500000|ev, plus an exact three-card bust chance per Flip Three"
    "optimal-round|5000|bounds, then bounding and exact searches (see optimal-round below)"
    "max-win|20000|a two-card look-ahead on the chance to win the game (its tables made once per run, about a second)"
    "rollout:10|2000|20 imagined continuations of the whole game"
)

echo "| policy | games | time | games/s | at each decision |"
echo "|---|---|---|---|---|"
for run in "${runs[@]}"; do
    IFS='|' read -r policy games what <<< "$run"
    games=$(awk -v g="$games" -v s="$scale" 'BEGIN {n = int(g * s); print (n < 1 ? 1 : n)}')
    line=$("$sim" flip7 --policy "$policy" --games "$games" --seed 1 --no-progress --out /dev/null | head -1)
    # "sim flip7: 4 players, 5M games, seed 1 (2 threads, 4.01 s, 1.25M games/s)"
    shown=$(sed -n 's/.* players, \([^ ]*\) games,.*/\1/p' <<< "$line")
    secs=$(sed -n 's/.*threads, \([0-9.]*\) s,.*/\1/p' <<< "$line")
    rate=$(sed -n 's/.* s, \([0-9.]*[KM]\?\) games\/s).*/\1/p' <<< "$line")
    echo "| \`$policy\` | $shown | $secs s | $rate | $what |"
done
