#!/usr/bin/env bash
# How much each Flip 7 strategy gives away, exactly, in the
# independent-rounds model of `sim flip7 solve --game`.
#
#   scripts/flip7-gives-away.sh [STRATEGY ...]
#
# For each strategy (default: every shipped one the model can play), the
# exact chance to win from 0-0 of the best response to it (number cards,
# ties played on), its edge over an even game, the strategy's expected
# round score and the rounds it needs alone to reach 200. Prints a Markdown
# table; the grids go to results/gives-away/STRATEGY/game.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
if [ $# -eq 0 ]; then
    set -- optimal counter expected-value balanced endgame cautious aggressive
fi
out=results/gives-away
echo "| strategy | best response wins | gives away | its round scores | rounds to 200 alone |"
echo "|---|---|---|---|---|"
for s in "$@"; do
    text=$("$sim" flip7 solve --game --without actions,modifiers --field "$s" --out "$out/$s")
    win=$(sed -n 's/.*the best response to it wins \([0-9.]*\) .*/\1/p' <<<"$text")
    rounds=$(sed -n 's/.*needs \([0-9.]*\) rounds.*/\1/p' <<<"$text")
    awk -F, -v s="$s" -v rounds="$rounds" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["own_total"] == 0 && $col["opponent_total"] == 0 {
            printf "| `%s` | %.4f | %.2f points | %.3f | %.3f |\n", s, $col["best_response_win"],
                100 * ($col["best_response_win"] - 0.5), $col["field_round_score"], rounds
        }' "$out/$s/game.csv"
    [ -n "$win" ] || { echo "no answer for $s" >&2; exit 1; }
done
