#!/usr/bin/env bash
# Times a newcomer's two commands from fresh clones of this checkout's HEAD:
#   1. `cargo build --release`, then the README's run command, which must
#      compile nothing (prints "no rebuild" or fails);
#   2. `cargo test --release` from another fresh clone, build included.
# Each clone gets its own empty target folder (dependencies are compiled
# too; the crates themselves come from cargo's download cache).
# usage: scripts/fresh-clone-times.sh [build|test|both]   (default both)
set -euo pipefail
what=${1:-both}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CARGO_TARGET_DIR

if [ "$what" = build ] || [ "$what" = both ]; then
    git clone --quiet "$root" "$tmp/build"
    cd "$tmp/build"
    start=$(date +%s.%N)
    cargo build --release --quiet
    echo "cargo build --release: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}') s"
    log=$(cargo run --release -- flip7 --policy stay-at-25 --games 10K --seed 1 --no-progress 2>&1 >/dev/null)
    if grep -q Compiling <<<"$log"; then
        echo "the run after the build compiled again:"
        echo "$log"
        exit 1
    fi
    echo "cargo run --release after it: no rebuild"
fi

if [ "$what" = test ] || [ "$what" = both ]; then
    git clone --quiet "$root" "$tmp/test"
    cd "$tmp/test"
    start=$(date +%s.%N)
    cargo test --release --quiet >"$tmp/test.log" 2>&1 || { tail -40 "$tmp/test.log"; exit 1; }
    echo "cargo test --release: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}') s"
    grep '^test result' "$tmp/test.log" | awk '{p+=$4; f+=$6; i+=$8} END {print p " passed, " f " failed, " i " ignored"}'
fi
