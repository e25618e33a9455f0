#!/usr/bin/env bash
# Flip 7 evidence table: every shipped strategy in seat 0 against stay-at-25
# in the other seats, at 2 and 4 players, plus its solo mean round score.
#
#   scripts/flip7-evidence.sh [GAMES] [SEED] [STRATEGY...]
#
# GAMES per run (default 1M). Without STRATEGY names, every single-policy
# file strategies/flip7-*.toml (line-ups are skipped), and stay-at-25 itself
# as the reference (seat 0 is not a neutral seat: it deals the first round).
# Prints a Markdown table; the CSVs go to results/evidence/.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1M}"
seed="${2:-2025}"
shift $(( $# < 2 ? $# : 2 ))
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/evidence
mkdir -p "$out"

if [ $# -gt 0 ]; then
    names=("$@")
else
    names=(stay-at-25)
    for f in strategies/flip7-*.toml; do
        grep -q '^policy *=.*,' "$f" && continue # a tournament line-up
        n=${f#strategies/flip7-}
        names+=("${n%.toml}")
    done
fi

# Field 3 of the CSV row of seat 0: win rate and its interval (fractions).
win() { awk -F, 'NR==2 {printf "%.2f%% [%.2f, %.2f]", 100*$6, 100*$7, 100*$8}' "$1"; }
solo() { awk -F, 'NR==2 {printf "%.3f ± %.3f", $12, $13}' "$1"; }

echo "| strategy | policy | 2 players: win rate [95% CI] | 4 players: win rate [95% CI] | solo round score ± s.e. | time |"
echo "|---|---|---|---|---|---|"
for name in "${names[@]}"; do
    start=$(date +%s.%N)
    "$sim" flip7 --policy "$name,stay-at-25" --players 2 --games "$games" --seed "$seed" \
        --no-progress --out "$out/$name-2p.csv" > /dev/null
    "$sim" flip7 --policy "$name,stay-at-25,stay-at-25,stay-at-25" --players 4 --games "$games" \
        --seed "$seed" --no-progress --out "$out/$name-4p.csv" > /dev/null
    "$sim" flip7 --policy "$name" --players 1 --single-round --games "$games" --seed "$seed" \
        --no-progress --out "$out/$name-solo.csv" > /dev/null
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')
    spec=$name
    file=strategies/flip7-$name.toml
    [ -f "$file" ] && spec=$(sed -n 's/^policy *= *"\(.*\)"/\1/p' "$file")
    echo "| $name | \`$spec\` | $(win "$out/$name-2p.csv") | $(win "$out/$name-4p.csv") | $(solo "$out/$name-solo.csv") | ${secs} s |"
done
