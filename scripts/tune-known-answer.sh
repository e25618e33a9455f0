#!/usr/bin/env bash
# The known-answer check of `sim tune` (docs/tune.md): on the numbers-only
# solo round of Flip 7, whose exact values `sim flip7 solve` computes, tune
# stay-at-{10..40} with one seed after another and report
#
# - how often the threshold chosen is within MARGIN of the best exact value,
# - how often the winner's fresh 95% interval covers its exact value,
# - the games tune played (race and fresh deals) against the games a sweep
#   of equal confidence needs, seed by seed (median, 90th percentile, worst,
#   and how often at most a third).
#
#   scripts/tune-known-answer.sh [SEEDS] [MARGIN]
#
# SEEDS: seeds 1 to SEEDS (default 200); MARGIN: --margin (default 0.03).
# Writes results/tune-known-answer/ (the exact values, a line per seed and
# the files of seed 1). Same seeds, same figures, on any number of threads.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-200}"
margin="${2:-0.03}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/tune-known-answer
rm -rf "$out"
mkdir -p "$out"
"$sim" flip7 solve --without actions,modifiers --out "$out/solve" >/dev/null
exact="$out/solve/thresholds.csv"
best=$(awk -F, '$1 ~ /^stay-at-/ { n = substr($1, 9) + 0; if (n >= 10 && n <= 40 && $2 > b) b = $2 } END { print b }' "$exact")

# The value of key $1 in the JSON summary $2.
field() { printf '%s\n' "$2" | sed -n "s/^  \"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p"; }

echo "seed winner exact fresh_low fresh_high tune_games sweep_games" >"$out/seeds.txt"
for s in $(seq 1 "$seeds"); do
    json=$("$sim" tune flip7 --players 1 --single-round --without actions,modifiers \
        --objective mean-round-score --policy 'stay-at-{10..40}' --margin "$margin" \
        --budget 200M --seed "$s" --out "$out/seed$s" --no-progress --json)
    winner=$(field winner "$json")
    games=$(($(field race_games "$json") + $(field fresh_games "$json")))
    sweep=$(field sweep_games "$json")
    value=$(awk -F, -v w="$winner" '$1 == w { print $2 }' "$exact")
    # The winner's fresh interval, by the columns' names.
    interval=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["status"] == "winner" { print $c["fresh_ci95_low"], $c["fresh_ci95_high"] }' \
        "$out/seed$s/candidates.csv")
    echo "$s $winner $value $interval $games $sweep" >>"$out/seeds.txt"
    [ "$s" = 1 ] || rm -r "$out/seed$s"
done

awk -v best="$best" -v margin="$margin" 'NR > 1 {
        n++
        if (best - $3 <= margin + 1e-9) near++
        if ($4 <= $3 && $3 <= $5) covered++
        r[n] = $6 / $7
        if ($6 * 3 <= $7) third++
        tune += $6; sweep += $7
    }
    END {
        # Sort the ratios (insertion sort: a few hundred values).
        for (i = 2; i <= n; i++) { v = r[i]; for (j = i - 1; j >= 1 && r[j] > v; j--) r[j + 1] = r[j]; r[j + 1] = v }
        printf "best exact value of stay-at-{10..40}: %.4f\n", best
        printf "seeds: %d; winner within %s of the best: %d (%.1f%%)\n", n, margin, near, 100 * near / n
        printf "winner fresh 95%% interval covers its exact value: %d (%.1f%%)\n", covered, 100 * covered / n
        printf "tune games / equal-confidence sweep games: median %.3f, 90th percentile %.3f, worst %.3f; at most a third on %d seeds (%.1f%%); all seeds together %.3f\n",
            r[int((n + 1) / 2)], r[int(0.9 * n + 0.5)], r[n], third, 100 * third / n, tune / sweep
    }' "$out/seeds.txt" | tee "$out/summary.txt"
