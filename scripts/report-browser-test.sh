#!/usr/bin/env bash
# Opens each kind of report.html in a real browser (headless Chromium) and
# fails on any console error or any network request; keeps a screenshot of
# each page to look at.
#
# Kinds: a tournament of 2 entrants (flip7), one of 8 with a 70-character
# spec and a 20-digit seed, one with places (ib-flip, a forest plot with
# mean place), a sweep of 30 values, the short report of a plain run with
# two policies, and a page made again by `sim report DIR` from a
# tournament's files (checked to be the same bytes as the page the
# tournament wrote).
#
# usage: scripts/report-browser-test.sh [OUT_DIR]   (default target/report-browser)
# Installs Debian's chromium with apt-get when no chromium is found.
# SIM=path/to/sim uses that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-target/report-browser}")
rm -rf "$out"
mkdir -p "$out"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "installing chromium (apt-get)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
    browser=$(command -v chromium)
fi
if [ -z "${SIM:-}" ]; then
    cargo build --release -q
    SIM=${CARGO_TARGET_DIR:-target}/release/sim
fi

seed=18446744073709551615
long='stay-at-25+hit-on-second-chance+freeze:self-when-safe+flip-three:leader'
"$SIM" tournament flip7 --policies stay-at-20,chase:25/0.125 --players 2 --games 2000 --seed 1 \
    --out "$out/two" -q --no-progress
"$SIM" tournament flip7 --policies "stay-at-20,stay-at-22,stay-at-24,stay-at-26,stay-at-28,ev,opportunist,$long" \
    --players 4 --games 300 --seed "$seed" --out "$out/eight" -q --no-progress
"$SIM" tournament ib-flip --policies lowest,saver,finisher,counter --players 3 --games 500 --seed 1 \
    --out "$out/places" -q --no-progress
"$SIM" sweep flip7 --policy 'stay-at-{10..39}' --players 4 --games 2000 --seed "$seed" \
    --out "$out/sweep" -q --no-progress
mkdir -p "$out/run"
"$SIM" flip7 --players 3 --policy "stay-at-20,ev,$long" --games 5000 --seed "$seed" \
    --out "$out/run/run.csv" -q --no-progress
cp "$out/run/run.report.html" "$out/run/report.html"
cp -r "$out/places" "$out/rebuilt"
rm "$out/rebuilt/report.html" "$out/rebuilt"/*.svg "$out/rebuilt"/*.png
"$SIM" report "$out/rebuilt" -q
if ! cmp -s "$out/places/report.html" "$out/rebuilt/report.html"; then
    echo "FAIL rebuilt: sim report made another page than the tournament wrote" >&2
    exit 1
fi

# Opens file $2 as kind $1: the screenshot, the console log and the hosts
# the network stack was asked for (one a line, in $out/$1.hosts).
open_page() {
    local kind=$1 page=$2
    "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$out/profile-$kind" --enable-logging=stderr --v=0 \
        --log-net-log="$out/$kind.netlog.json" --window-size=1100,2600 \
        --screenshot="$out/$kind.png" "file://$page" >"$out/$kind.log" 2>&1 || return 1
    grep -Eo '"url":"[a-z]+://[^/"]*' "$out/$kind.netlog.json" | sed 's/"url":"//' | sort -u >"$out/$kind.hosts" || true
}
# Hosts a page asked for beyond those the browser asks for by itself (what
# it does with a blank page: its clock and account checks).
extra_hosts() { comm -13 "$out/blank.hosts" "$out/$1.hosts" | grep -Ev '^(file|data|about|chrome)://' || true; }

printf '<!DOCTYPE html><title>blank</title>\n' >"$out/blank.html"
open_page blank "$out/blank.html"
# The check itself must catch a page that loads something and logs an error.
printf '<!DOCTYPE html><img src="http://example.invalid/x.png"><script>console.error("bad")</script>\n' >"$out/bad.html"
open_page bad "$out/bad.html" || true
if [ -z "$(extra_hosts bad)" ] || ! grep -q 'CONSOLE' "$out/bad.log"; then
    echo "FAIL: the check does not see a request or a console error of a page made to have both" >&2
    exit 1
fi

fail=0
for kind in two eight places sweep run rebuilt; do
    page="$out/$kind/report.html"
    if grep -Eq 'https?://' "$page"; then
        echo "FAIL $kind: the page names a web address" >&2
        fail=1
    fi
    open_page "$kind" "$page" || {
        echo "FAIL $kind: the browser failed (see $out/$kind.log)" >&2
        fail=1
    }
    if grep -q 'CONSOLE' "$out/$kind.log"; then
        echo "FAIL $kind: console message:" >&2
        grep 'CONSOLE' "$out/$kind.log" >&2
        fail=1
    fi
    if [ -n "$(extra_hosts "$kind")" ]; then
        echo "FAIL $kind: network request to:" >&2
        extra_hosts "$kind" >&2
        fail=1
    fi
    [ -s "$out/$kind.png" ] || { echo "FAIL $kind: no screenshot" >&2; fail=1; }
done
if [ "$fail" = 0 ]; then
    echo "report pages open with no console error and no network request; screenshots in $out"
fi
exit "$fail"
