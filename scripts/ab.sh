#!/usr/bin/env bash
# A/B speed comparison of two sim binaries, interleaved so that machine noise
# hits both alike. Prints the median games/s of each and their ratio.
# usage: scripts/ab.sh OLD_BIN NEW_BIN [RUNS] [sim args...]
set -euo pipefail
old=$1 new=$2 runs=${3:-5}
shift 3 || shift $#
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(flip7 --games 1M --seed 1 --threads 1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate() { "$1" "${args[@]}" --out "$out/ab.csv" --no-progress 2>&1 | sed -n 's/.* \([0-9.]*\)\([KM]\{0,1\}\) games\/s).*/\1 \2/p' | awk '{print ($2=="M") ? $1*1000 : ($2=="K") ? $1 : $1/1000}'; }
a=() b=()
for _ in $(seq "$runs"); do a+=("$(rate "$old")"); b+=("$(rate "$new")"); done
med() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ma=$(med "${a[@]}") mb=$(med "${b[@]}")
echo "old median ${ma}K games/s  new median ${mb}K games/s  ratio $(awk -v a="$ma" -v b="$mb" 'BEGIN{printf "%.3f", b/a}')"
