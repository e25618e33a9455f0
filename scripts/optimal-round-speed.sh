#!/usr/bin/env bash
# How much faster one sim build plays `optimal-round` than another: three
# tables (two players with one optimal-round seat, four with one, four all
# playing it), each over the seeds SEEDS names, one thread, the two builds
# alternating run by run so that machine noise hits both alike. It adds up
# the processor time (user + system) of the runs (with REPS, the fastest
# of each build per seed) and prints each build's
# games per second of processor time, the ratio, and the lowest and
# highest ratio of a single seed. The cost of a game
# varies a lot with the seed (a few decisions near a tie take most of the
# time), so a ratio needs several seeds.
#
# usage: scripts/optimal-round-speed.sh OLD_BIN NEW_BIN [SEEDS] [SCALE] [REPS]
#   SEEDS: seeds per table (default 10: seeds 1 to 10), or a range FIRST..LAST
#   (say 21..40); SCALE: multiplies the games per
#   seed (default 1: 300 two-player games, 1,000 and 300 four-player ones);
#   REPS: runs of each build per seed, alternating (default 1). With more
#   than one, a seed counts the fastest run of each build: on a machine
#   shared with others, a run now and then takes up to twice as long, and
#   the fastest of a few is the run least disturbed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN [SEEDS] [SCALE] [REPS]" >&2; exit 2; }
old=$1 new=$2 seeds=${3:-10} scale=${4:-1} reps=${5:-1}
for bin in "$old" "$new"; do
    [ -x "$bin" ] || { echo "$0: $bin is not an executable" >&2; exit 2; }
done
if [[ $seeds =~ ^([1-9][0-9]*)\.\.([1-9][0-9]*)$ ]] && ((BASH_REMATCH[1] <= BASH_REMATCH[2])); then
    first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}
elif [[ $seeds =~ ^[1-9][0-9]*$ ]]; then
    first=1 last=$seeds
else
    echo "$0: SEEDS must be a whole number from 1 or a range FIRST..LAST (say 21..40), not '$seeds'" >&2
    exit 2
fi
[[ $scale =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "$0: SCALE must be a positive number, not '$scale'" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "$0: REPS must be a whole number from 1, not '$reps'" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The processor seconds of one run (user + system).
cpu() {
    local TIMEFORMAT='%3U %3S' t
    t=$( { time "$@" >/dev/null 2>"$out/err"; } 2>&1 ) || { cat "$out/err" >&2; exit 1; }
    awk '{printf "%.3f", $1 + $2}' <<<"$t"
}

printf '%-36s %7s %12s %12s %6s %14s\n' table games "old games/s" "new games/s" ratio "one seed"

table() {
    local name=$1 games=$2; shift 2
    games=$(awk -v g="$games" -v s="$scale" 'BEGIN{n = int(g * s + 0.5); print (n < 1) ? 1 : n}')
    local s ta tb
    : >"$out/times"
    for s in $(seq "$first" "$last"); do
        local args=(flip7 "$@" --games "$games" --seed "$s" --threads 1 --no-progress --out "$out/run.csv")
        local r a b
        ta='' tb=''
        for r in $(seq "$reps"); do
            # Each build goes first in every other run.
            if ((r % 2)); then
                a=$(cpu "$old" "${args[@]}") b=$(cpu "$new" "${args[@]}")
            else
                b=$(cpu "$new" "${args[@]}") a=$(cpu "$old" "${args[@]}")
            fi
            ta=$(awk -v x="$a" -v m="$ta" 'BEGIN{print (m == "" || x < m) ? x : m}')
            tb=$(awk -v x="$b" -v m="$tb" 'BEGIN{print (m == "" || x < m) ? x : m}')
        done
        echo "$ta $tb" >>"$out/times"
    done
    awk -v name="$name" -v n="$((games * (last - first + 1)))" '
        { a += $1; b += $2; r = ($2 > 0) ? $1 / $2 : 0; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r }
        END { if (a <= 0) a = 0.001; if (b <= 0) b = 0.001;
              printf "%-36s %7d %12.0f %12.0f %6.2f %6.2f..%-6.2f\n", name, n, n / a, n / b, a / b, lo, hi }' "$out/times"
}
table "2 players, one optimal-round seat" 300 --players 2 --policy optimal-round,stay-at-25
table "4 players, one optimal-round seat" 1000 --policy optimal-round,stay-at-25,stay-at-25,stay-at-25
table "4 players, all optimal-round" 300 --policy optimal-round
