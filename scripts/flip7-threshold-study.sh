#!/usr/bin/env bash
# Flip 7 threshold study: regenerates the charts and tables of docs/flip7.md.
#
#   scripts/flip7-threshold-study.sh [GAMES] [SEED] [DEALS]
#
# GAMES per sweep value (default 200K), DEALS of the tournament (default
# 20K; each is played by all 120 seat arrangements).
#
# Writes results/study/ (CSV, SVG, PNG and XLSX). Same seed, same files, on
# any number of threads.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200K}"
seed="${2:-2024}"
deals="${3:-20K}"
out=results/study
# SIM names the binary to use (the docs tests set it); else build it.
[ -n "${SIM:-}" ] || cargo build --release --quiet
sim=${SIM:-target/release/sim}
mkdir -p "$out"

# 1. Every stay-at threshold from 10 to 40 in seat 0 against three
#    stay-at-25 players: mean round score and win rate, with 95% bands.
"$sim" sweep flip7 --policy 'stay-at-{10..40}' --field stay-at-25 --players 4 \
    --games "$games" --seed "$seed" --out "$out/threshold-sweep" \
    --xlsx "$out/threshold-sweep.xlsx"

# 2. The same thresholds alone at the table (one player): the pure round
#    score curve, no opponents.
"$sim" sweep flip7 --policy 'stay-at-{10..40}' --players 1 \
    --games "$games" --seed "$seed" --out "$out/threshold-solo" --no-charts

# 3. The shipped strategies in a tournament: five entrants at four seats,
#    every set of four in all 24 orders, all on the same deals.
"$sim" tournament flip7 --policies cautious,balanced,aggressive,counter,expected-value \
    --players 4 --games "$deals" --seed "$seed" \
    --out "$out/strategies-tournament" --xlsx "$out/strategies-tournament.xlsx"
