#!/usr/bin/env bash
# How long `sim advise flip7` takes to answer: three traced games of `ev`
# at 2, 3 and 4 players, and every fifth decision (Hit, Stay or an
# assignment) of each, asked with the default budget on every core.
# Prints, per table size, the slowest answer and the mean, in seconds of
# wall time.
#
#   scripts/advise-speed.sh [EVERY] [SEED]
#
# EVERY (default 5) asks every EVERY-th decision; SEED (default 21) seeds
# the traced games. SIM names the binary (default target/release/sim).
set -euo pipefail
every=${1:-5}
seed=${2:-21}
sim=${SIM:-target/release/sim}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for players in 2 3 4; do
  "$sim" flip7 --players "$players" --games 3 --seed "$seed" --policy ev --trace --trace-format json \
    --no-report --out "$dir/run.csv" > "$dir/t.jsonl" 2>/dev/null
  lines=$(grep -n '"event":"\(hit\|stay\|assign\)"' "$dir/t.jsonl" | cut -d: -f1 | awk -v e="$every" 'NR % e == 0')
  for at in $lines; do
    start=$(date +%s.%N)
    "$sim" advise flip7 --trace "$dir/t.jsonl" --at "$at" --json > /dev/null
    end=$(date +%s.%N)
    echo "$start $end"
  done | awk -v p="$players" '{ w = $2 - $1; if (w > max) max = w; sum += w; n++ }
    END { printf "%d players: %d decisions, slowest %.2f s, mean %.3f s\n", p, n, max, sum / n }'
done
