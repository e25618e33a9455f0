#!/usr/bin/env bash
# Re-tunes every game's default policy with `sim tune` (each game's guide,
# "Tuning the default"): for each game at 2 and at 4 players, the default's
# main parameters race against a field of the default itself (named:
# the default of 2026-11-27), to within a quarter of a
# point, with a modest budget on one thread, then the survivors play fresh deals.
#
#   scripts/tune-defaults.sh [SCALE [GAME...]]
#
# SCALE divides every budget and the fresh deals (default 1: the runs of
# the guides, about 8 minutes on one core of the shared 2-core development
# machine, 2026-11-27, most of it Classic Flip at 4 players).
# GAME limits the runs to those games (flip7 flip-flush ib-flip
# classic-flip). THREADS sets --threads (default 1). Writes
# results/tune-defaults/GAME-Pp/ (candidates.csv, rounds.csv, report.html)
# and prints each run's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
shift || true
games="${*:-flip7 flip-flush ib-flip classic-flip}"
threads="${THREADS:-1}"
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
out=results/tune-defaults
mkdir -p "$out"

# GAME PLAYERS FIELD BUDGET FRESH TEMPLATE: one race against FIELD (the
# default tuned, named so that the run stays the same once the default
# changes), to within a quarter of a point.
race() {
    local game=$1 players=$2 field=$3 budget=$4 fresh=$5 template=$6
    local dir="$out/$game-${players}p"
    rm -rf "$dir"
    echo "== $game, $players players: sim tune $game --players $players --field '$field' --policy '$template' --margin 0.25 --budget $((budget / scale)) --fresh $((fresh / scale)) --seed 2026"
    nice "$sim" tune "$game" --players "$players" --field "$field" --policy "$template" --margin 0.25 \
        --budget $((budget / scale)) --fresh $((fresh / scale)) --seed 2026 \
        --threads "$threads" --out "$dir" --no-progress --no-charts
}

for game in $games; do
    case $game in
    flip7)
        # stay-at-25: its threshold.
        race flip7 2 stay-at-25 40000000 50000 'stay-at-{19..33}'
        race flip7 4 stay-at-25 40000000 50000 'stay-at-{19..33}'
        ;;
    flip-flush)
        # call-at:0.15/0.5+read:0.1+...: the heads-up call level with the
        # read at 2 players, the call level at 3 or more with the read at 4.
        race flip-flush 2 default 20000000 50000 \
            'call-at:0.15/{0.3..0.7..0.05}+read:{0|0.1|0.2}+flip-likely+place-trap+flip-safe+place-build'
        race flip-flush 4 default 20000000 50000 \
            'call-at:{0.05..0.35..0.05}/0.5+read:{0|0.1|0.2}+flip-likely+place-trap+flip-safe+place-build'
        ;;
    ib-flip)
        # lowest+fix:strong: the play rule (the fast ones) and the fixing.
        for p in 2 4; do
            race ib-flip $p lowest 20000000 50000 \
                '{lowest|saver|finisher|attacker|saver+burn-at:6|saver+burn-at:10|saver+burn-at:14}+fix:{strong|keep|stack}'
        done
        ;;
    classic-flip)
        # collector (caller:10, bluffer:7, sheriff:0): when to call and
        # how far to bluff (against a collector field a challenge threshold
        # changes next to nothing: a first run with sheriff:{0|0.15|0.3}
        # showed it).
        race classic-flip 2 collector 4000000 20000 \
            'collector+caller:{20..200..20}+bluffer:{7|10}'
        race classic-flip 4 collector 3000000 20000 \
            'collector+caller:{20..200..20}+bluffer:{7|10}'
        ;;
    *)
        echo "tune-defaults.sh: unknown game '$game' (flip7, flip-flush, ib-flip, classic-flip)" >&2
        exit 2
        ;;
    esac
done
