#!/usr/bin/env bash
# The planted answer of `sim tune --method halving` in a large space
# (docs/tune.md): `chase:BASE/SLOPE` on the numbers-only solo round of
# Flip 7, 31 x 101 = 3,131 candidates. A lone player's chase threshold is
# BASE whatever the SLOPE, so every candidate's exact value is stay-at-BASE's
# (by `sim flip7 solve`): the good region is BASE 23 (18.5212) and 22
# (18.4991). Over seeds 1 to SEEDS, report how often the winner is within
# 0.05 of the best of the whole space, and how often within 0.05 of the best
# candidate the seed drew.
#
#   scripts/tune-halving-planted.sh [SEEDS]
#
# SEEDS: default 100. Writes results/tune-halving-planted/.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-100}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/tune-halving-planted
rm -rf "$out"
mkdir -p "$out"
"$sim" flip7 solve --without actions,modifiers --out "$out/solve" >/dev/null
exact="$out/solve/thresholds.csv"

echo "seed winner winner_value sample_best" >"$out/seeds.txt"
for s in $(seq 1 "$seeds"); do
    "$sim" tune flip7 --players 1 --single-round --without actions,modifiers \
        --objective mean-round-score --policy 'chase:{10..40}/{0..1..0.01}' \
        --method halving --margin 0.05 --budget 4M --fresh 2K --seed "$s" \
        --out "$out/seed$s" --no-charts --no-report --no-progress --quiet
    # Each candidate's BASE and status, by the columns' names; its exact
    # value is stay-at-BASE's.
    awk -F, -v seed="$s" 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
        FILENAME == ARGV[1] { v[$c[FILENAME, "rule"]] = $c[FILENAME, "expected_round_score"]; next }
        {
            base = $c[FILENAME, "value_1"]
            value = v["stay-at-" base]
            if (value > best) best = value
            if ($c[FILENAME, "status"] == "winner") { w = $c[FILENAME, "policy"]; wv = value }
        }
        END { print seed, w, wv, best }' "$exact" "$out/seed$s/candidates.csv" >>"$out/seeds.txt"
    rm -r "$out/seed$s"
done

awk 'NR > 1 {
        n++
        if ($3 > top) top = $3
        if (18.5212 - $3 <= 0.05) near++
        if ($4 - $3 <= 0.05) near_sample++
        if ($4 >= 18.499) drew++
    }
    END {
        printf "seeds: %d; a BASE of 22 or 23 drawn: %d (%.1f%%)\n", n, drew, 100 * drew / n
        printf "winner within 0.05 of the best of the space: %d (%.1f%%)\n", near, 100 * near / n
        printf "winner within 0.05 of the best candidate drawn: %d (%.1f%%)\n", near_sample, 100 * near_sample / n
    }' "$out/seeds.txt" | tee "$out/summary.txt"
