#!/usr/bin/env bash
# Solo Flip 7 rounds, sim against the C++ engine of the public repository
# Eppie/flip-seven (the peer), side by side on one thread of this machine.
#
# Three kinds of solo round, each played by both engines:
#   numbers  the 79 number cards only, stay at T points (default 23);
#   optimal  the 79 number cards only, the round's optimal stopping rule
#            (the peer looks up its solved table; sim plays optimal-round);
#   full     all 94 cards, stay at T2 points (default 25), Freeze and Flip
#            Three on oneself.
# The peer's side is a few lines of driver, written here into a scratch
# folder, over the peer's own Monte Carlo loops (monte_carlo_solitaire and
# monte_carlo_all in its include/flip7_sim.hpp) with the stay rule given
# as its policy; it is built with the peer's compiler flags. Nothing of the
# peer is copied into this repository. The runs of the two engines
# alternate, RUNS times (default 3), and the medians and their ratio are
# printed: a ratio above 1 means sim plays more rounds a second.
#
# usage: scripts/peer-speed.sh PEER_DIR [ROUNDS] [RUNS]
#   PEER_DIR: a checkout of Eppie/flip-seven; without it the script says
#   so and skips (exit 0). ROUNDS: rounds a run (default 20000000).
# env: SIM (default target/release/sim, built if missing), CXX (default
#   g++), T (default 23), T2 (default 25).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ -z "$1" ]; then
    echo "peer-speed: no peer given (PEER_DIR, a checkout of Eppie/flip-seven): skipped"
    exit 0
fi
peer=$1 rounds=${2:-20000000} runs=${3:-3}
[ -f "$peer/include/flip7_sim.hpp" ] || { echo "peer-speed: $peer/include/flip7_sim.hpp is missing: PEER_DIR is a checkout of Eppie/flip-seven" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "peer-speed: ROUNDS '$rounds' is not a positive whole number" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "peer-speed: RUNS '$runs' is not a positive whole number" >&2; exit 2; }
sim=${SIM:-target/release/sim}
[ -x "$sim" ] || cargo build --release --quiet
cxx=${CXX:-g++} t=${T:-23} t2=${T2:-25}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The driver: "driver KIND ROUNDS SEED T" prints rounds a second and the
# mean round score.
cat > "$work/driver.cpp" <<'CPP'
#include "flip7_sim.hpp"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
using namespace flip7;

// A stay rule in the shape monte_carlo_all asks of a policy.
struct StayAt {
    static constexpr int kDeckTotal = SolitaireAllDP::kDeckTotal;
    int at;
    static int extraOf(uint32_t e, int v) { return SolitaireAllDP::extraOf(e, v); }
    static uint32_t setExtra(uint32_t e, int v, int c) { return SolitaireAllDP::setExtra(e, v, c); }
    bool policy(uint16_t nm, uint16_t mm, int, int, uint32_t, int) const { return fullScore(nm, mm) < at; }
};

int main(int argc, char** argv) {
    if (argc != 5) return 2;
    const char* kind = argv[1];
    const uint64_t n = strtoull(argv[2], nullptr, 10), seed = strtoull(argv[3], nullptr, 10);
    const int at = atoi(argv[4]);
    static SolitaireTurnDP dp;
    double mean = 0;
    auto start = std::chrono::steady_clock::now();
    if (strcmp(kind, "full") == 0) {
        mean = monte_carlo_all(StayAt{at}, n, seed).mean;
    } else {
        dp.optimal();
        if (strcmp(kind, "numbers") == 0)
            for (int m = 0; m < SolitaireTurnDP::kStates; ++m) dp.hit[m] = maskSum((uint16_t)m) < at;
        start = std::chrono::steady_clock::now();
        mean = monte_carlo_solitaire(dp, n, seed).mean;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printf("%.0f %.4f\n", (double)n / s, mean);
    return 0;
}
CPP
"$cxx" -std=c++20 -O3 -flto -funroll-loops -march=native -I"$peer/include" "$work/driver.cpp" -o "$work/driver"

# sim's rounds a second: the rounds over the wall time of the whole run.
sim_rate() {
    local kind=$1 seed=$2 args
    case $kind in
        numbers) args=(--without actions,modifiers --policy "stay-at-$t") ;;
        optimal) args=(--without actions,modifiers --policy optimal-round) ;;
        full) args=(--policy "stay-at-$t2") ;;
    esac
    local n=$rounds
    local a b
    a=$(date +%s.%N)
    "$sim" flip7 --players 1 --single-round "${args[@]}" --games "$n" --seed "$seed" --threads 1 \
        --no-progress --out "$work/sim.csv" > /dev/null
    b=$(date +%s.%N)
    awk -v n="$n" -v a="$a" -v b="$b" 'BEGIN { printf "%.0f\n", n / (b - a) }'
}
peer_rate() {
    local kind=$1 seed=$2 at=$t
    [ "$kind" = full ] && at=$t2
    "$work/driver" "$kind" "$rounds" "$seed" "$at" | awk '{ print $1 }'
}
med() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "solo rounds on one thread, $runs alternating runs, medians (rounds a second)"
printf '%-8s %14s %14s %8s\n' kind sim peer sim/peer
for kind in numbers optimal full; do
    s=() p=()
    for r in $(seq "$runs"); do
        s+=("$(sim_rate "$kind" "$r")")
        p+=("$(peer_rate "$kind" "$r")")
    done
    ms=$(med "${s[@]}") mp=$(med "${p[@]}")
    printf '%-8s %14s %14s %8s\n' "$kind" "$ms" "$mp" "$(awk -v a="$ms" -v b="$mp" 'BEGIN { printf "%.2f", a / b }')"
done
