#!/usr/bin/env bash
# ismcts:N against each game's default and strongest shipped policy, two
# players, seats rotated and common deals (sim tournament), and the time
# per decision of ismcts:N on one thread.
#
#   scripts/ismcts-evidence.sh [DEALS] [SEED] [THREADS] [N...]
#
# DEALS (default 1000) deals for N = 100, a tenth of them per tenfold N
# (at least MIN_DEALS, default 20). PLAYERS (default 2) players at the
# tournaments' tables; ISMCTS_GAMES (default: all) the games to play,
# e.g. ISMCTS_GAMES="flip7 ib-flip". Prints two Markdown tables: ismcts's
# win rate with its 95% interval against each opponent, and its milliseconds per decision (the
# median of three timed runs of `sim GAME --threads 1`; decisions counted
# as the rounds times the cards a round of the ismcts seat, each card but
# the dealt one a Hit and a Stay to end the round: about one decision a
# card; Flip-Flush: its turns, one decision a turn; IB-Flip: the seat's
# turns but its face-down cards, a play, reveal or pick-up each; Classic
# Flip: the seat's turns, each a start decision with discards, challenges,
# Blocks and picks on top, so a turn may hold more than one decision).
# Classic Flip times a tenth of the games (its playouts are about ten
# times as long). Files go to results/ismcts/: each run's folder,
# evidence.csv and timing.csv (the two tables as CSV), and strength.svg,
# the chart of ismcts's win rate against N (log scale), one line per game
# and opponent, with the 95% intervals and the fair share (1 / players)
# marked. TIMED (default 20000) sets the games timed: TIMED / N (a tenth
# of that in Classic Flip, at least 4).
set -euo pipefail
cd "$(dirname "$0")/.."
# `ismcts-evidence.sh chart CSV` only draws the chart of an evidence CSV
# (several runs' rows put together) into results/ismcts/strength.svg.
chart_only=
if [ "${1:-}" = chart ]; then
    chart_only=$(realpath "$2")
    set --
fi
deals="${1:-1000}"
seed="${2:-2026}"
threads="${3:-2}"
shift $(($# < 3 ? $# : 3))
ns=("$@")
timed="${TIMED:-20000}"
[[ $timed =~ ^[1-9][0-9]*$ ]] || { echo "$0: TIMED must be a whole number from 1, not '$timed'" >&2; exit 2; }
[ ${#ns[@]} -gt 0 ] || ns=(100 1000)
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || [ -n "$chart_only" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
players="${PLAYERS:-2}"
min_deals="${MIN_DEALS:-20}"
out=results/ismcts
mkdir -p "$out"

# GAME DEFAULT STRONGEST, one line per game.
games="flip7 stay-at-28 max-win
flip-flush default counter
ib-flip finisher rollout:8
classic-flip collector counter"
if [ -n "${ISMCTS_GAMES:-}" ]; then
    games=$(echo "$games" | awk -v keep=" $ISMCTS_GAMES " 'index(keep, " " $1 " ")')
fi

# Deals for N: DEALS for 100, a tenth per tenfold N, at least MIN_DEALS.
deals_for() {
    awk -v d="$deals" -v n="$1" -v m="$min_deals" 'BEGIN { x = int(d * 100 / n); print (x < m ? m : x) }'
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


# Decisions of seat 0 in the plain-run CSV $2 of game $1.
decisions() {
    case "$1" in
        flip7)
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $col["seat"] == 0 { print $col["rounds"] * $col["mean_cards_per_round"] }' "$2" ;;
        flip-flush)
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $col["seat"] == 0 { print $col["games"] * $col["mean_turns"] }' "$2" ;;
        classic-flip)
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $col["seat"] == 0 { print $col["turns"] }' "$2" ;;
        ib-flip)
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $col["seat"] == 0 { print $col["games"] * $col["mean_turns"] - $col["facedown_tries"] }' "$2" ;;
    esac
}

# The chart of evidence CSV $1 into SVG $2: win rate against log10(N), one
# line per game and opponent.
chart() {
    awk -F, -v players="$players" '
    NR == 1 { next }
    {
        k = $1 " vs " $3
        if (!(k in idx)) { idx[k] = ++series; name[series] = k }
        m = ++count[idx[k]]
        x[idx[k], m] = log($2) / log(10); y[idx[k], m] = 100 * $4
        lo[idx[k], m] = 100 * $5; hi[idx[k], m] = 100 * $6
        if (NR == 2 || x[idx[k], m] < xmin) xmin = x[idx[k], m]
        if (NR == 2 || x[idx[k], m] > xmax) xmax = x[idx[k], m]
        if (NR == 2 || lo[idx[k], m] < ymin) ymin = lo[idx[k], m]
        if (NR == 2 || hi[idx[k], m] > ymax) ymax = hi[idx[k], m]
    }
    END {
        fair = 100 / players
        if (fair < ymin) ymin = fair
        if (fair + 5 > ymax) ymax = fair + 5
        ymin = 10 * int(ymin / 10); ymax = 10 * int((ymax + 9.999) / 10)
        if (ymax > 100) ymax = 100
        xmin = int(xmin); xmax = int(xmax + 0.999); if (xmax == xmin) xmax = xmin + 1
        W = 760; H = 440; L = 70; R = 250; T = 40; B = 60
        pw = W - L - R; ph = H - T - B
        printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", W, H
        printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
        printf "<text x=\"%d\" y=\"24\" font-size=\"15\">ismcts:N, win rate against each opponent (%d players, 95%% CI)</text>\n", L, players
        for (v = ymin; v <= ymax; v += 10) {
            py = T + ph * (ymax - v) / (ymax - ymin)
            printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, L + pw, py, py
            printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n", L - 6, py + 4, v
        }
        for (e = xmin; e <= xmax; e++) {
            for (f = 1; f < 10; f++) {
                lx = e + log(f) / log(10)
                if (lx > xmax) break
                px = L + pw * (lx - xmin) / (xmax - xmin)
                printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", px, px, T, T + ph, f == 1 ? "#ccc" : "#f0f0f0"
                if (f == 1) printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", px, T + ph + 18, 10 ^ e
            }
        }
        printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">N, iterations per decision (log scale)</text>\n", L + pw / 2, H - 14
        py = T + ph * (ymax - fair) / (ymax - ymin)
        printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"6 4\"/>\n", L, L + pw, py, py
        printf "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">fair share %g%%</text>\n", L + pw - 4, py - 4, fair
        split("#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf", colour, " ")
        for (s = 1; s <= series; s++) {
            c = colour[(s - 1) % 8 + 1]; pts = ""
            for (m = 1; m <= count[s]; m++) {
                px = L + pw * (x[s, m] - xmin) / (xmax - xmin)
                py = T + ph * (ymax - y[s, m]) / (ymax - ymin)
                pl = T + ph * (ymax - lo[s, m]) / (ymax - ymin); ph2 = T + ph * (ymax - hi[s, m]) / (ymax - ymin)
                printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n", px, px, pl, ph2, c
                printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", px, py, c
                pts = pts sprintf("%.1f,%.1f ", px, py)
            }
            printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", pts, c
            ly = T + 10 + 22 * (s - 1)
            printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n", L + pw + 16, L + pw + 40, ly, ly, c
            printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + pw + 46, ly + 4, name[s]
        }
        print "</svg>"
    }' "$1" > "$2"
}

if [ -n "$chart_only" ]; then
    chart "$chart_only" "$out/strength.svg"
    echo "wrote $out/strength.svg"
    exit 0
fi

echo "game,n,opponent,win_rate,win_rate_ci95_low,win_rate_ci95_high,games,seconds" > "$out/evidence.csv"
echo "| game | N | opponent | ismcts's win rate [95% CI] | games | time |"
echo "|---|---|---|---|---|---|"
echo "$games" | while read -r game default strongest; do
    for n in "${ns[@]}"; do
        for opp in $default $strongest; do
            dir="$out/$game-$n-$(echo "$opp" | tr ':/+' '--_')"
            start=$(date +%s.%N)
            "$sim" tournament "$game" --players "$players" --policies "ismcts:$n,$opp" --games "$(deals_for "$n")" \
                --seed "$seed" --threads "$threads" --no-charts --no-report --no-progress -q --out "$dir" > /dev/null
            secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')
            row=$(standing "$dir/standings.csv" "ismcts:$n")
            echo "| $game | $n | \`$opp\` | $row | ${secs} s |"
            awk -F, -v who="ismcts:$n" -v g="$game" -v n="$n" -v o="$opp" -v s="$secs" '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $col["entrant"] == who {
                    print g "," n "," o "," $col["win_rate"] "," $col["win_rate_ci95_low"] "," \
                        $col["win_rate_ci95_high"] "," $col["games"] "," s
                }' "$dir/standings.csv" >> "$out/evidence.csv"
        done
    done
done

echo
echo "game,n,ms_per_decision" > "$out/timing.csv"
echo "| game | N | ms per decision (median of 3) | decisions per second |"
echo "|---|---|---|---|"
echo "$games" | while read -r game default _; do
    for n in "${ns[@]}"; do
        # Games timed: TIMED / N (at least 4); a tenth of that in Classic Flip.
        g=$(awk -v n="$n" -v game="$game" -v t="$timed" 'BEGIN { x = int((game == "classic-flip" ? t / 10 : t) / n); print (x < 4 ? 4 : x) }')
        ms=$(for k in 1 2 3; do
            start=$(date +%s.%N)
            "$sim" "$game" --players 2 --policy "ismcts:$n,$default" --games "$g" --seed "$k" --threads 1 \
                --no-progress -q --no-report --out "$out/time-$game-$n-$k.csv" > /dev/null
            end=$(date +%s.%N)
            awk -v a="$start" -v b="$end" -v d="$(decisions "$game" "$out/time-$game-$n-$k.csv")" \
                'BEGIN { print 1000 * (b - a) / d }'
        done | sort -g | sed -n 2p)
        echo "$game,$n,$ms" >> "$out/timing.csv"
        awk -v game="$game" -v n="$n" -v ms="$ms" 'BEGIN { printf "| %s | %s | %.2f | %.0f |\n", game, n, ms, 1000 / ms }'
    done
done

chart "$out/evidence.csv" "$out/strength.svg"
echo
echo "wrote $out/evidence.csv, $out/timing.csv and $out/strength.svg"
