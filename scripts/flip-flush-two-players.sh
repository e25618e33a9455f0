#!/usr/bin/env bash
# Flip-Flush at two players: how much seat 1 wins in self-play, policy by
# policy, and how it wins (by a call, or as the last player in because
# seat 0 was knocked out). Seat 0 plays first, so it places its eighth card
# first and, once its hand is empty, must flip whatever seat 1 left.
#
#   scripts/flip-flush-two-players.sh [GAMES] [SEED] [POLICY...]
#
# GAMES per policy (default 200K; `reader` and other worlds:K policies are
# slow, give them fewer), SEED (default 19). Prints a Markdown table; the
# CSVs go to results/flip-flush-two-players/.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200K}"
seed="${2:-19}"
shift $(( $# < 2 ? $# : 2 ))
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/flip-flush-two-players
mkdir -p "$out"
if [ $# -gt 0 ]; then
    names=("$@")
else
    names=(default counter cautious trapper blocker builder random)
fi
echo "| policy (both seats) | seat 0 wins [95% CI] | seat 1 wins [95% CI] | seat 1 as last standing | seat 1 by a call | tied games |"
echo "|---|---|---|---|---|---|"
for name in "${names[@]}"; do
    csv="$out/$(tr -c 'A-Za-z0-9._+\n-' '-' <<< "$name").csv"
    "$sim" flip-flush --players 2 --policy "$name" --games "$games" --seed "$seed" --no-progress --out "$csv" > /dev/null
    awk -F, -v name="$name" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { s = $col["seat"]; g = $col["games"]
          w[s] = sprintf("%.2f%% [%.2f, %.2f]", 100 * $col["win_rate"], 100 * $col["win_rate_ci95_low"], 100 * $col["win_rate_ci95_high"])
          last[s] = sprintf("%.2f%%", 100 * $col["wins_last_standing"] / g)
          call[s] = sprintf("%.2f%%", 100 * $col["wins_by_call"] / g)
          tie = sprintf("%.2f%%", 100 * $col["tie_rate"]) }
        END { printf "| `%s` | %s | %s | %s | %s | %s |\n", name, w[0], w[1], last[1], call[1], tie }' "$csv"
done
