#!/usr/bin/env bash
# Flip-Flush evidence table: every shipped strategy against the default at
# 2, 3 and 4 players. The strategy sits in each seat in turn (seat effects
# are large: at 2 players seat 0 must flip first), the default in all the
# others; the figures pool the N runs of N players.
#
#   scripts/flip-flush-evidence.sh [GAMES] [SEED] [STRATEGY...]
#
# GAMES per seat and player count (default 100K). Without STRATEGY names,
# default and every single-policy file strategies/flip-flush-*.toml
# (line-ups are skipped). Prints a Markdown table: win rate with its 95%
# Wilson interval, tie rate, calls, wrong calls and missed Flushes per game
# of the strategy's seat. The CSVs go to results/flip-flush-evidence/.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-100K}"
seed="${2:-19}"
shift $(( $# < 2 ? $# : 2 ))
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/flip-flush-evidence
mkdir -p "$out"

if [ $# -gt 0 ]; then
    names=("$@")
else
    names=(default)
    for f in strategies/flip-flush-*.toml; do
        grep -q '^policy *=.*,' "$f" && continue # a tournament line-up
        n=${f#strategies/flip-flush-}
        names+=("${n%.toml}")
    done
fi

echo "| strategy | players | win rate [95% CI] | tie rate | calls/game | wrong calls/game | missed Flushes/game |"
echo "|---|---|---|---|---|---|---|"
for name in "${names[@]}"; do
    for players in 2 3 4; do
        files=()
        for seat in $(seq 0 $((players - 1))); do
            seats=()
            for s in $(seq 0 $((players - 1))); do
                if [ "$s" = "$seat" ]; then seats+=("$name"); else seats+=(default); fi
            done
            list=$(IFS=,; echo "${seats[*]}")
            safe=$(tr -c 'A-Za-z0-9._+\n-' '-' <<< "$name")
            f="$out/${safe}_${players}p_seat${seat}.csv"
            "$sim" flip-flush --players "$players" --policy "$list" --games "$games" --seed "$seed" \
                --no-progress --out "$f" > /dev/null
            files+=("$f:$seat")
        done
        # Pool the strategy's row of every run: Wilson interval of the wins.
        python3 - "$name" "$players" "${files[@]}" <<'PY'
import csv, math, sys
name, players, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
g = w = ties = calls = wrong = missed = 0
for run in runs:
    path, seat = run.rsplit(":", 1)
    row = list(csv.DictReader(open(path)))[int(seat)]
    n = int(row["games"])
    g += n
    w += int(row["wins"])
    ties += int(row["ties"])
    calls += float(row["mean_calls"]) * n
    wrong += int(row["knocked_out_wrong_call"])
    missed += int(row["knocked_out_missed_flush"])
p, z = w / g, 1.959964
d = 1 + z * z / g
c = (p + z * z / (2 * g)) / d
h = z * math.sqrt(p * (1 - p) / g + z * z / (4 * g * g)) / d
print(f"| {name} | {players} | {100*p:.2f}% [{100*(c-h):.2f}, {100*(c+h):.2f}] | {100*ties/g:.1f}% "
      f"| {calls/g:.3f} | {wrong/g:.3f} | {missed/g:.3f} |")
PY
    done
done
