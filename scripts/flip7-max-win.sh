#!/usr/bin/env bash
# Flip 7 max-win against the strongest shipped strategies, with seats
# rotated and common deals.
#
#   scripts/flip7-max-win.sh [DEALS] [SEED] [SLOW_DEALS] [THREADS]
#
# Two players: a tournament of max-win and each opponent (both seatings
# play the same DEALS deals, default 20K; SLOW_DEALS, default 5K, against
# optimal-round). Four players: max-win and three copies of the opponent
# (every order of the four entrants, 24 arrangements, on DEALS / 10 deals;
# SLOW_DEALS / 10 against optimal-round): the fair share is 25%. Then the
# four strongest policies in one four-player tournament (DEALS / 10 deals).
# Prints Markdown tables (max-win's win rate with its 95% interval); the
# files go to results/max-win/.
set -euo pipefail
cd "$(dirname "$0")/.."
deals="${1:-20K}"
seed="${2:-2026}"
slow="${3:-5K}"
threads="${4:-2}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/max-win
mkdir -p "$out"

# DEALS / 10, keeping the K or M suffix.
tenth() {
    local n=${1%[KkMm]} suffix=${1##*[0-9]}
    case "$suffix" in
        K | k) echo $((n * 100)) ;;
        M | m) echo $((n * 100))K ;;
        *) echo $((n / 10 > 0 ? n / 10 : 1)) ;;
    esac
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

# PLAYERS OPPONENT DEALS: one row.
row() {
    local players=$1 opponent=$2 n=$3 entrants="max-win,$2" dir start secs
    [ "$players" = 2 ] || entrants="max-win,$2,$2,$2"
    dir="$out/${players}p-$(echo "$opponent" | tr ':/+' '--_')"
    start=$(date +%s.%N)
    "$sim" tournament flip7 --players "$players" --policies "$entrants" --games "$n" --seed "$seed" \
        --threads "$threads" --no-charts --no-progress -q --out "$dir" > /dev/null
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')
    echo "| $players | \`$opponent\` | $(standing "$dir/standings.csv" max-win) | ${secs} s |"
}

echo "| players | opponents | max-win's win rate [95% CI] | games | time |"
echo "|---|---|---|---|---|"
row 2 optimal-round "$slow"
for opponent in ev endgame:25 stay-at-25; do
    row 2 "$opponent" "$deals"
done
row 4 optimal-round "$(tenth "$slow")"
for opponent in ev endgame:25 stay-at-25; do
    row 4 "$opponent" "$(tenth "$deals")"
done

echo
echo "| entrant | win rate [95% CI] | games |"
echo "|---|---|---|"
dir="$out/4p-strongest"
"$sim" tournament flip7 --players 4 --policies max-win,optimal-round,ev,endgame:25 --games "$(tenth "$deals")" \
    --seed "$seed" --threads "$threads" --no-charts --no-progress -q --out "$dir" > /dev/null
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "| `%s` | %.2f%% [%.2f, %.2f] | %s |\n", $col["entrant"], 100 * $col["win_rate"],
        100 * $col["win_rate_ci95_low"], 100 * $col["win_rate_ci95_high"], $col["games"] }' "$dir/standings.csv"
