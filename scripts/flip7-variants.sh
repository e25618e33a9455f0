#!/usr/bin/env bash
# Flip 7 variants of other simulators, each head to head against its base.
#
#   scripts/flip7-variants.sh [DEALS] [SEED] [SLOW_DEALS]
#
# Each pairing is a two-player tournament (`sim tournament flip7`: both
# seatings play the same DEALS deals, default 50K; SLOW_DEALS, default 5K,
# for a pairing with optimal-round). The variant's win rate is shown with
# its 95% interval; 50% is an even match. `+target:SEAT` needs a named seat,
# so it is measured apart: at 4 players, one seat plays stay-at-25 and the
# three others stay-at-25+target:THAT_SEAT, for each of the 4 seats in turn
# (DEALS games each); the targeted seats' wins are pooled (fair share 25%,
# interval: Wilson). Everything runs on one thread. Prints a Markdown
# table; the files go to results/variants/.
set -euo pipefail
cd "$(dirname "$0")/.."
deals="${1:-50K}"
seed="${2:-2026}"
slow="${3:-5K}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/variants
mkdir -p "$out"

# The row of entrant $2 in standings.csv $1: win rate [interval], games.
standing() {
    awk -F, -v who="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["entrant"] == who {
            printf "%.2f%% [%.2f, %.2f] | %s", 100 * $col["win_rate"], 100 * $col["win_rate_ci95_low"],
                100 * $col["win_rate_ci95_high"], $col["games"]
        }' "$1"
}

echo "| variant | against | variant's win rate [95% CI] | games | time |"
echo "|---|---|---|---|---|"
pair() { # VARIANT BASE DEALS
    local dir
    dir="$out/$(echo "$1-vs-$2" | tr ':/+' '--_')"
    local start
    start=$(date +%s.%N)
    "$sim" tournament flip7 --players 2 --policies "$1,$2" --games "$3" --seed "$seed" \
        --threads 1 --no-charts --no-progress -q --out "$dir" > /dev/null
    local secs
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')
    echo "| \`$1\` | \`$2\` | $(standing "$dir/standings.csv" "$1") | ${secs} s |"
}
pair stay-at-25+hit-on-second-chance stay-at-25 "$deals"
pair ev+hit-on-second-chance ev "$deals"
pair stay-at-numbers-25 stay-at-25 "$deals"
pair stay-at-numbers-20 stay-at-25 "$deals"
pair chase:25/0.1 stay-at-25 "$deals"
pair chase:25/0.3 stay-at-25 "$deals"
pair stay-at-random:15..35 stay-at-25 "$deals"
pair peek ev "$deals"
pair peek optimal-round "$slow"

# +target: each seat in turn is the one the three others aim at.
start=$(date +%s.%N)
wins=0
games=0
for s in 0 1 2 3; do
    lineup=""
    for t in 0 1 2 3; do
        p=stay-at-25
        [ "$t" = "$s" ] || p="stay-at-25+target:$s"
        lineup="$lineup${lineup:+,}$p"
    done
    "$sim" flip7 --players 4 --policy "$lineup" --games "$deals" --seed "$seed" --threads 1 \
        --no-progress --out "$out/target-$s.csv" > /dev/null
    read -r w g < <(awk -F, -v seat="$s" 'NR > 1 && $1 == seat {print $5, $4}' "$out/target-$s.csv")
    wins=$((wins + w))
    games=$((games + g))
done
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')
# Wilson 95% interval of the pooled win rate.
awk -v w="$wins" -v n="$games" -v secs="$secs" 'BEGIN {
    z = 1.959964; p = w / n; d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    printf "| `stay-at-25` aimed at by three `stay-at-25+target:SEAT` (4 players) | fair share 25%% | %.2f%% [%.2f, %.2f] | %d | %s s |\n",
        100 * p, 100 * (c - h), 100 * (c + h), n, secs
}'
