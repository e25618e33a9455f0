#!/usr/bin/env bash
# ismcts:N against each game's default and strongest shipped policy, two
# players, seats rotated and common deals (sim tournament), and the time
# per decision of ismcts:N on one thread.
#
#   scripts/ismcts-evidence.sh [DEALS] [SEED] [THREADS] [N...]
#
# DEALS (default 1000) deals for N = 100, a tenth of them per tenfold N
# (at least 20). Prints two Markdown tables: ismcts's win rate with its 95%
# interval against each opponent, and its milliseconds per decision (the
# median of three timed runs of `sim GAME --threads 1`; decisions counted
# as the rounds times the cards a round of the ismcts seat, each card but
# the dealt one a Hit and a Stay to end the round: about one decision a
# card; in Classic Flip the turns of the ismcts seat, each with a start
# decision, discards, challenges, Blocks and picks on top). Files go to
# results/ismcts/. Only the games that implement ismcts:N are listed;
# ISMCTS_GAMES (names, space-separated) plays only those.
set -euo pipefail
cd "$(dirname "$0")/.."
deals="${1:-1000}"
seed="${2:-2026}"
threads="${3:-2}"
shift $(($# < 3 ? $# : 3))
ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(100 1000)
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/ismcts
mkdir -p "$out"

# GAME DEFAULT STRONGEST, one line per game that has ismcts:N (Flip 7: the
# default when the figures of docs/search.md were measured, stay-at-25).
games="flip7 stay-at-25 max-win
classic-flip collector counter"
if [ -n "${ISMCTS_GAMES:-}" ]; then
    games=$(echo "$games" | awk -v want=" $ISMCTS_GAMES " 'index(want, " " $1 " ")')
fi

# Deals for N: DEALS for 100, a tenth per tenfold N, at least 20.
deals_for() {
    awk -v d="$deals" -v n="$1" 'BEGIN { x = int(d * 100 / n); print (x < 20 ? 20 : x) }'
}

# The row of entrant $2 in standings.csv $1: win rate [interval] | games.
standing() {
    awk -F, -v who="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["entrant"] == who {
            printf "%.2f%% [%.2f, %.2f] | %s", 100 * $col["win_rate"], 100 * $col["win_rate_ci95_low"],
                100 * $col["win_rate_ci95_high"], $col["games"]
        }' "$1"
}

echo "| game | N | opponent | ismcts's win rate [95% CI] | games | time |"
echo "|---|---|---|---|---|---|"
echo "$games" | while read -r game default strongest; do
    for n in "${ns[@]}"; do
        for opp in $default $strongest; do
            dir="$out/$game-$n-$(echo "$opp" | tr ':/+' '--_')"
            start=$(date +%s.%N)
            "$sim" tournament "$game" --players 2 --policies "ismcts:$n,$opp" --games "$(deals_for "$n")" \
                --seed "$seed" --threads "$threads" --no-charts --no-report --no-progress -q --out "$dir" > /dev/null
            secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')
            echo "| $game | $n | \`$opp\` | $(standing "$dir/standings.csv" "ismcts:$n") | ${secs} s |"
        done
    done
done

echo
echo "| game | N | ms per decision (median of 3) | decisions per second |"
echo "|---|---|---|---|"
echo "$games" | while read -r game default _; do
    for n in "${ns[@]}"; do
        # Games timed: 20,000 / N (at least 4); a tenth of that in Classic
        # Flip, whose playouts are about ten times as long.
        g=$(awk -v n="$n" -v game="$game" 'BEGIN { x = int((game == "classic-flip" ? 2000 : 20000) / n); print (x < 4 ? 4 : x) }')
        for k in 1 2 3; do
            start=$(date +%s.%N)
            "$sim" "$game" --players 2 --policy "ismcts:$n,$default" --games "$g" --seed "$k" --threads 1 \
                --no-progress -q --out "$out/time-$game-$n-$k.csv" > /dev/null
            end=$(date +%s.%N)
            awk -F, -v a="$start" -v b="$end" -v game="$game" '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $col["seat"] == 0 {
                    d = game == "classic-flip" ? $col["turns"] : $col["rounds"] * $col["mean_cards_per_round"]
                    print 1000 * (b - a) / d
                }
            ' "$out/time-$game-$n-$k.csv"
        done | sort -g | sed -n 2p | awk -v game="$game" -v n="$n" '{ printf "| %s | %s | %.2f | %.0f |\n", game, n, $1, 1000 / $1 }'
    done
done
