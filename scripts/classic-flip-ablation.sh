#!/usr/bin/env bash
# Classic Flip: which action cards matter? One run per `--without` value,
# `thief` in seat 0 against three `collector`s (or the policies given),
# printed as the Markdown table of docs/classic-flip.md: seat 0's win rate with its 95%
# interval, the mean rounds per game and the mean turns per round.
#
#   scripts/classic-flip-ablation.sh [GAMES] [SEED] [POLICIES]
#
# GAMES per column (default 50K), SEED (default 2026), POLICIES (default
# thief,collector,collector,collector). The CSVs go to
# results/classic-flip-ablation/.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-50K}"
seed="${2:-2026}"
policies="${3:-thief,collector,collector,collector}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/classic-flip-ablation
mkdir -p "$out"
columns=(none take steal draw swap reboot chaos plus-turn block 7-10 2x any actions)
header="| without |"
rule="|---|"
wins="| seat 0 wins |"
ci="| 95% interval |"
rounds="| rounds/game |"
turns="| turns/round |"
for w in "${columns[@]}"; do
    csv="$out/$w.csv"
    extra=()
    [ "$w" != none ] && extra=(--without "$w")
    "$sim" classic-flip --policy "$policies" "${extra[@]}" --games "$games" --seed "$seed" \
        --no-progress --out "$csv" > /dev/null
    row=$(awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["seat"] == 0 {
            printf "%.2f%%|[%.2f, %.2f]|%.2f|%.1f\n", 100 * $col["win_rate"], 100 * $col["win_rate_ci95_low"],
                100 * $col["win_rate_ci95_high"], $col["mean_rounds_per_game"], $col["mean_turns_per_round"] }' "$csv")
    IFS='|' read -r a b c d <<< "$row"
    header+=" $w |"
    rule+="---|"
    wins+=" $a |"
    ci+=" $b |"
    rounds+=" $c |"
    turns+=" $d |"
done
printf '%s\n' "$header" "$rule" "$wins" "$ci" "$rounds" "$turns"
