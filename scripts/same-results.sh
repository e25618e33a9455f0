#!/usr/bin/env bash
# Checks that two sim binaries give the same results: a fixed list of runs
# (each game, several policies and player counts, traces, a tournament, a
# sweep, solve), every CSV byte and every line of the readable trace
# compared, and the report pages and study.json of tournaments and sweeps.
# Timing lines (games/s, seconds) are the only lines left out, with the
# sim_version column that ends every CSV row of a run and the version and
# output folder the pages record (they name the build and the folder, so
# two builds always differ there).
#
# usage: scripts/same-results.sh OLD_BIN NEW_BIN
#    or: scripts/same-results.sh --record BIN DIR   (write the outputs only)
# Exit 0 when every output matches; otherwise the differing files are listed.
set -euo pipefail
cd "$(dirname "$0")/.."  # strategy names resolve from strategies/ here

record() {
    local bin=$1 out=$2 n=0
    mkdir -p "$out"
    # A plain run: its CSV.
    csv() { n=$((n + 1)); "$bin" "$@" --no-progress --out "$out/run$n.csv" >/dev/null; }
    # A traced run: the play-by-play on stdout, minus the timing line and the CSV and report paths.
    trace() { n=$((n + 1)); "$bin" "$@" --out "$out/run$n.csv" | grep -v -e 'games/s' -e '^CSV: ' -e '^report: ' >"$out/run$n.trace"; }
    # A tournament or sweep: every CSV of its folder.
    folder() { n=$((n + 1)); "$bin" "$@" --no-charts --out "$out/run$n" >/dev/null; }

    csv flip7 --games 20K --seed 1 --threads 2
    csv flip7 --policy stay-at-25 --players 2 --games 5K --seed 11 --threads 1
    csv flip7 --policy ev,stay-at-20+freeze:leader,bust-prob:0.3 --players 3 --games 5K --seed 2
    csv flip7 --policy cards-4,saboteur,endgame,ev+flip-three:self-when-safe --games 4K --seed 3
    csv flip7 --single-round --without modifiers --players 2 --games 5K --seed 4
    csv flip7 --policy stay-at-30 --players 1 --games 5K --seed 5
    csv flip7 --policy rollout:3,stay-at-25 --players 2 --games 200 --seed 6
    csv flip7 --policy optimal-round,stay-at-25 --players 2 --games 60 --seed 7 --threads 1
    csv flip7 --policy counter --players 5 --games 3K --seed 8
    trace flip7 --games 3 --seed 9
    trace flip7 --policy ev,stay-at-20+second-chance:fewest-cards --players 2 --games 4 --seed 10
    csv flip-flush --games 20K --seed 1 --threads 2
    csv flip-flush --players 2 --games 5K --seed 12
    csv flip-flush --players 3 --gambling --memory 0.8 --games 5K --seed 13
    csv flip-flush --policy call-at:0.5+place-random,default,never-call --players 3 --games 5K --seed 14
    csv flip-flush --policy gambler --players 6 --gambling --games 3K --seed 15
    trace flip-flush --games 3 --seed 16
    trace flip-flush --players 3 --gambling --memory 0.5 --games 3 --seed 17
    folder tournament flip7 --policies stay-at-18,stay-at-25,ev --players 3 --games 3K --seed 18
    folder tournament flip7 --policies stay-at-20,cards-4 --players 2 --single-round --games 2K --seed 19
    folder tournament flip-flush --policies default,cautious,builder --players 3 --games 2K --seed 20
    folder tournament flip-flush --policies default,gambler --players 2 --gambling --games 2K --seed 21
    folder sweep flip7 --policy 'stay-at-{15..35..5}' --games 3K --seed 22
    folder sweep flip7 --policy 'bust-prob:{0.2,0.4}' --field ev --players 3 --games 2K --seed 23
    folder sweep flip-flush --policy 'call-at:{0.2..0.8..0.3}' --games 3K --seed 24
    n=$((n + 1))
    "$bin" flip7 solve --without modifiers --out "$out/run$n" >/dev/null
    # The build that wrote a CSV is not a result: drop the sim_version
    # column (always the last) wherever the header has it.
    find "$out" -name '*.csv' | while read -r f; do
        if head -n 1 "$f" | grep -q ',sim_version$'; then
            sed -i 's/,[^,]*$//' "$f"
        fi
    done
    # Nor are the build's version and the output folder that the report
    # pages and study.json record with the command line (their date is
    # fixed by SOURCE_DATE_EPOCH below).
    local version
    version=$("$bin" --version | sed 's/^sim //')
    find "$out" -name '*report.html' -o -name 'study.json' | while read -r f; do
        sed -i -e "s#$out#OUT#g" -e "s#$version#VERSION#g" "$f"
    done
}

if [ "${1:-}" = "--record" ]; then
    export SOURCE_DATE_EPOCH=0
    record "$2" "$3"
    exit 0
fi

old=$1 new=$2
export SOURCE_DATE_EPOCH=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
record "$old" "$work/old"
record "$new" "$work/new"
if diff -r "$work/old" "$work/new" >"$work/diff"; then
    echo "same results: $(find "$work/old" -type f | wc -l) files identical"
else
    echo "results differ:"
    grep -E '^(diff|Only)' "$work/diff" | head -40
    exit 1
fi
