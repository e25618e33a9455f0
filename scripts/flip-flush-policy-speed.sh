#!/usr/bin/env bash
# What each Flip-Flush policy costs: four players of one policy, games per
# second on all cores, the median of RUNS runs each. Prints a Markdown table.
#
#   scripts/flip-flush-policy-speed.sh [SCALE] [RUNS]
#
# SCALE multiplies the number of games of every run (default 1: each run
# takes a few seconds on 2 cores; a fraction such as 0.001 makes a quick
# check that every run works); RUNS is the number of runs per policy
# (default 3; the table shows their median and range).
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
runs="${2:-3}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}

# policy, games at scale 1, what it does at each decision
policies=(
    "random|5000000|a random card on a random cell while it holds cards (no odds)"
    "builder|2000000|counts; flips its own lines, builds"
    "cautious|2000000|counts; calls only when sure, blocks, builds"
    "gambler|2000000|counts; calls at 15%, builds"
    "counter|2000000|counts; flips for a Flush at even odds, blocks, builds (the default before read:Q)"
    "blocker|2000000|counts; blocks first"
    "trapper|2000000|counts; covers hot cells with another suit"
    "attacker|2000000|reads (read:1); places the demanded suit on hot cells"
    "default|2000000|reads (read:0.1); calls at 15% (50% heads-up), traps, flips safely, builds"
    "call-at:0.5+place-random|5000000|the cheap heuristics of the speed table: a random card on a random cell (no odds)"
    "reader|20000|reads the whole history from 128 sampled worlds at every decision with a hot face-down card it does not know"
)

echo "| policy | games | median time | median games/s | range games/s | at each decision |"
echo "|---|---|---|---|---|---|"
for entry in "${policies[@]}"; do
    IFS='|' read -r policy games what <<< "$entry"
    games=$(awk -v g="$games" -v s="$scale" 'BEGIN {n = int(g * s); print (n < 1 ? 1 : n)}')
    rates=()
    secs=()
    for _ in $(seq "$runs"); do
        out=$("$sim" flip-flush --policy "$policy" --games "$games" --seed 1 --no-progress --out /dev/null)
        line=${out%%$'\n'*}
        # "sim flip-flush: 4 players, 5M games, seed 1 (2 threads, 4.01 s, 1.25M games/s)"
        secs+=("$(sed -n 's/.*threads\?, \([0-9.]*\) s,.*/\1/p' <<< "$line")")
        rates+=("$(awk -v g="$games" -v s="${secs[-1]}" 'BEGIN {printf "%.0f", g / s}')")
    done
    read -r med lo hi < <(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)], a[1], a[NR]}')
    medsecs=$(printf '%s\n' "${secs[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    fmt() { awk -v r="$1" 'BEGIN {if (r >= 1e6) printf "%.2fM", r / 1e6; else printf "%.0fK", r / 1e3}'; }
    shown=$(awk -v g="$games" 'BEGIN {if (g >= 1e6) printf "%gM", g / 1e6; else printf "%gK", g / 1e3}')
    echo "| \`$policy\` | $shown | $medsecs s | $(fmt "$med") | $(fmt "$lo")–$(fmt "$hi") | $what |"
done
