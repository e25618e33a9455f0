#!/usr/bin/env bash
# The planted-answer check of `sim tune` (docs/tune.md): of stay-at-21, 23
# and 25 on the numbers-only solo round of Flip 7, stay-at-23 is better by
# more than 0.1 points (exactly, by `sim flip7 solve`), twice the margin
# given. Over seeds 1 to SEEDS, report how often the race names it (the
# race promises at least 95%) and how often the winner's fresh 95%
# interval covers its exact value.
#
#   scripts/tune-planted-answer.sh [SEEDS]
#
# SEEDS: default 200. Writes results/tune-planted-answer/.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-200}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/tune-planted-answer
rm -rf "$out"
mkdir -p "$out"
"$sim" flip7 solve --without actions,modifiers --out "$out/solve" >/dev/null
exact="$out/solve/thresholds.csv"

echo "seed winner exact fresh_low fresh_high" >"$out/seeds.txt"
for s in $(seq 1 "$seeds"); do
    "$sim" tune flip7 --players 1 --single-round --without actions,modifiers \
        --objective mean-round-score --policy 'stay-at-{21|23|25}' --margin 0.05 \
        --budget 50M --fresh 5K --seed "$s" --out "$out/seed$s" --no-charts --no-progress --quiet
    # The winner and its fresh interval, by the columns' names.
    line=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["status"] == "winner" { print $c["policy"], $c["fresh_ci95_low"], $c["fresh_ci95_high"] }' \
        "$out/seed$s/candidates.csv")
    set -- $line
    value=$(awk -F, -v w="$1" '$1 == w { print $2 }' "$exact")
    echo "$s $1 $value $2 $3" >>"$out/seeds.txt"
    rm -r "$out/seed$s"
done

awk 'NR > 1 {
        n++
        if ($2 == "stay-at-23") found++
        if ($4 <= $3 && $3 <= $5) covered++
    }
    END {
        printf "seeds: %d; planted best stay-at-23 named: %d (%.1f%%)\n", n, found, 100 * found / n
        printf "winner fresh 95%% interval covers its exact value: %d (%.1f%%)\n", covered, 100 * covered / n
    }' "$out/seeds.txt" | tee "$out/summary.txt"
