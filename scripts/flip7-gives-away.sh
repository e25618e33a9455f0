#!/usr/bin/env bash
# How much each Flip 7 strategy gives away: exactly, in the
# independent-rounds model of `sim flip7 solve --game`, and, with MEASURE
# set, as measured in real games against `max-win` modelling it.
#
#   scripts/flip7-gives-away.sh [STRATEGY ...]
#   MEASURE=20K scripts/flip7-gives-away.sh [STRATEGY ...]
#   PLAYERS=3 scripts/flip7-gives-away.sh [STRATEGY ...]
#
# For each strategy (default: every shipped one the model can play), the
# exact chance to win from 0-0 of the best response to it (number cards,
# ties played on), its edge over an even game, the strategy's expected
# round score and the rounds it needs alone to reach 200. Prints a Markdown
# table; the grids go to results/gives-away/STRATEGY/game.csv.
#
# MEASURE=DEALS adds two columns: the win rate of `max-win:STRATEGY` (the
# strategy as its model of the opponent; `max-win` itself for `optimal`,
# which max-win cannot simulate cheaply) against the strategy, two players,
# seats rotated over DEALS deals (so twice as many games), with a 95%
# interval: first on the model's deal (number cards, a fresh deck every
# round), then in the real game (full deck, the discard pile carried).
# The tournaments go to results/gives-away/STRATEGY/{model,real}/.
#
# PLAYERS=3 prints instead the exact chance to win from 0-0-0 of the best
# response to two players of each strategy (ties at the top split; about
# 8 minutes a strategy on 2 cores; strategies whose rounds change with
# the totals, such as endgame, are not solved at three players), and
# TARGET=N solves a game to N rather than 200.
set -euo pipefail
cd "$(dirname "$0")/.."
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
if [ $# -eq 0 ]; then
    set -- optimal counter expected-value balanced endgame cautious aggressive
fi
out=results/gives-away
seed=${SEED:-2}
target=${TARGET:-200}

if [ "${PLAYERS:-2}" = 3 ]; then
    [ $# -gt 0 ] || set -- optimal counter expected-value balanced cautious aggressive
    echo "| strategy | best response to two of it wins | gives away (over a third) |"
    echo "|---|---|---|"
    for s in "$@"; do
        text=$("$sim" flip7 solve --game --without actions,modifiers --players 3 --ties split --best-response \
            --step 50 --target "$target" --field "$s" --out "$out/three/$s")
        row=$(sed -n 's/.*the best response to two of it wins \([0-9.]*\) from 0-0-0 (\([-+0-9.]*\) points.*/| `'"$s"'` | \1 | \2 points |/p' <<<"$text")
        [ -n "$row" ] || { echo "no answer for $s" >&2; exit 1; }
        echo "$row"
    done
    exit 0
fi

# The win rate [95% CI] of max-win:$1 against $1 in a tournament with the
# extra flags given, written to folder $2.
measured() {
    local s=$1 dir=$2
    shift 2
    local mw="max-win:$s"
    [ "$s" = optimal ] && mw=max-win
    "$sim" tournament flip7 --policies "$mw,$s" --players 2 --games "$MEASURE" --seed "$seed" \
        --no-charts --out "$dir" "$@" >/dev/null
    awk -F, -v e="$mw" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["entrant"] == e {
            printf "%.2f%% [%.2f, %.2f]", 100 * $col["win_rate"], 100 * $col["win_rate_ci95_low"],
                100 * $col["win_rate_ci95_high"]
        }' "$dir/standings.csv"
}

head="| strategy | best response wins | gives away | its round scores | rounds to 200 alone |"
rule="|---|---|---|---|---|"
if [ -n "${MEASURE:-}" ]; then
    head="$head max-win against it, model's deal | max-win against it, real game |"
    rule="$rule---|---|"
fi
echo "$head"
echo "$rule"
for s in "$@"; do
    text=$("$sim" flip7 solve --game --without actions,modifiers --field "$s" --out "$out/$s")
    win=$(sed -n 's/.*the best response to it wins \([0-9.]*\) .*/\1/p' <<<"$text")
    rounds=$(sed -n 's/.*needs \([0-9.]*\) rounds.*/\1/p' <<<"$text")
    [ -n "$win" ] || { echo "no answer for $s" >&2; exit 1; }
    row=$(awk -F, -v s="$s" -v rounds="$rounds" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["own_total"] == 0 && $col["opponent_total"] == 0 {
            printf "| `%s` | %.4f | %.2f points | %.3f | %.3f |", s, $col["best_response_win"],
                100 * ($col["best_response_win"] - 0.5), $col["field_round_score"], rounds
        }' "$out/$s/game.csv")
    if [ -n "${MEASURE:-}" ]; then
        rm -rf "$out/$s/model" "$out/$s/real"
        model=$(measured "$s" "$out/$s/model" --without actions,modifiers --fresh-deck)
        real=$(measured "$s" "$out/$s/real")
        row="$row $model | $real |"
    fi
    echo "$row"
done
