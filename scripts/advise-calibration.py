#!/usr/bin/env python3
"""How honest `sim advise` is: its chance to win against what happens.

    scripts/advise-calibration.py GAME [POSITIONS] [SEED]

Plays games of GAME with JSON traces (line-ups of LINEUPS, default: the
game's default policy at 2, 3 and 4 players), draws POSITIONS decisions
(default 1000) from them at random, and for each asks `sim advise GAME
--trace ... --at LINE --json` (the default budget and model). Then, from
the same position, it plays the advised move once more with a seed of its
own (`--budget REALISED`: playouts of the advised move, then the model in every
seat) REALISED times (default 10), and notes how often the player won. Binned by the advised move's
chance to win, the mean chance is set against the realised win rate; the
mean absolute calibration error is their difference averaged over the
positions. For the first LONG_POSITIONS positions (default 200) a long
search (LONG playouts per move, default 1M, another seed) is run too:
where it separates the moves, the share of positions where the advice
picked its best move is given.

Environment: SIM (the binary, default target/release/sim), LINEUPS
(`PLAYERS:POLICY,...;PLAYERS:POLICY,...`), GAMES (games traced per
line-up, default 40), JOBS (processes at once, default the cores; each
runs on one thread), ONLY (event kinds to draw positions from, such as
`fix`; default every line). Writes results/advise-calibration/GAME-positions.csv
(one row a position) and GAME.csv (the table), and prints the table in
Markdown.
"""

import csv
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.environ.get("SIM", os.path.join(ROOT, "target", "release", "sim"))


def run(args, check=True):
    p = subprocess.run([SIM] + args, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"sim {' '.join(args)} failed: {p.stderr.strip()}")
    return p


def traces(game, lineups, games, seed, out):
    """Traces one file per line-up; returns [(path, lines)]."""
    made = []
    for i, (players, policy) in enumerate(lineups):
        path = os.path.join(out, f"{game}-trace-{i}.jsonl")
        args = [game, "--games", str(games), "--seed", str(seed + i), "--trace", "--trace-format", "json",
                "--no-report", "--out", os.path.join(out, f"{game}-trace-{i}.csv")]
        if players:
            args += ["--players", players]
        if policy:
            args += ["--policy", policy]
        text = run(args).stdout
        with open(path, "w") as f:
            f.write(text)
        made.append((path, len(text.splitlines())))
    return made


def advise(game, path, line, extra):
    p = run(["advise", game, "--trace", path, "--at", str(line), "--json", "--threads", "1"] + extra, check=False)
    if p.returncode == 2 and "--at" in p.stderr:
        return None  # a line that is no decision, or one sim cannot advise at
    if p.returncode != 0:
        sys.exit(f"sim advise {game} --trace {path} --at {line}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def win_of(answer, key):
    for m in answer["moves"]:
        if m["move"] == key:
            w = m["win"]
            return w.get("estimate", w.get("exact"))
    sys.exit(f"move {key} not in {answer['moves']}")


def position(task):
    game, path, line, i, long_budget = task
    a = advise(game, path, line, [])
    if a is None:
        return None
    key = a["advice"]
    again = os.environ.get("REALISED", "10")
    realised = win_of(advise(game, path, line, ["--budget", again, "--seed", str(1_000_000 + i)]), key)
    row = {"trace": os.path.basename(path), "line": line, "players": len(a["position"].get("seats", [])) or "",
           "advice": key, "chance": win_of(a, key), "stopped": a["stopped"],
           "playouts": a["playouts_per_move"], "realised": realised, "long_advice": "", "long_stopped": ""}
    if long_budget:
        b = advise(game, path, line, ["--budget", long_budget, "--seed", "99"])
        row["long_advice"], row["long_stopped"] = b["advice"], b["stopped"]
    return row


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    game = sys.argv[1]
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    lineups = [tuple(x.split(":", 1)) for x in os.environ.get("LINEUPS", "2:;3:;4:").split(";") if x]
    long_budget = os.environ.get("LONG", "1M")
    long_positions = int(os.environ.get("LONG_POSITIONS", "200"))
    jobs = int(os.environ.get("JOBS", str(os.cpu_count() or 1)))
    out = os.path.join(ROOT, "results", "advise-calibration")
    os.makedirs(out, exist_ok=True)
    made = traces(game, lineups, int(os.environ.get("GAMES", "40")), seed, out)
    rng = random.Random(seed)
    # Every event line of every trace, in a random order; the decisions
    # among them are kept until there are enough.
    lines = [(p, n) for p, count in made for n in range(3, count + 1)]
    only = {e for e in os.environ.get("ONLY", "").split(",") if e}
    if only:
        kinds = {p: [json.loads(l).get("event") for l in open(p)] for p, _ in made}
        lines = [(p, n) for p, n in lines if kinds[p][n - 1] in only]
    rng.shuffle(lines)
    rows, tried = [], 0
    with ThreadPoolExecutor(jobs) as pool:
        while len(rows) < want and tried < len(lines):
            batch = lines[tried:tried + max(jobs * 4, want - len(rows))]
            tasks = [(game, p, n, tried + k, long_budget if len(rows) + k < long_positions else None)
                     for k, (p, n) in enumerate(batch)]
            tried += len(batch)
            for r in pool.map(position, tasks):
                if r is not None:
                    rows.append(r)
                    if sys.stderr.isatty() and len(rows) % 10 == 0:
                        print(f"\r{len(rows)} of {want} positions", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    rows = rows[:want]
    if len(rows) < want:
        print(f"only {len(rows)} decisions in the traces; raise GAMES", file=sys.stderr)
    with open(os.path.join(out, f"{game}-positions.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    table(game, rows, out)


def table(game, rows, out):
    bins = [[] for _ in range(10)]
    for r in rows:
        bins[min(int(r["chance"] * 10), 9)].append(r)
    lines = ["| advised move's chance to win | positions | mean chance | realised win rate | difference |",
             "|---|---|---|---|---|"]
    records, err = [], 0.0
    for b, rs in enumerate(bins):
        if not rs:
            continue
        chance = sum(r["chance"] for r in rs) / len(rs)
        real = sum(r["realised"] for r in rs) / len(rs)
        err += abs(chance - real) * len(rs)
        lines.append(f"| {b / 10:.1f} to {(b + 1) / 10:.1f} | {len(rs)} | {chance:.4f} | {real:.4f} | {real - chance:+.4f} |")
        records.append([f"{b / 10:.1f}", f"{(b + 1) / 10:.1f}", len(rs), f"{chance:.6f}", f"{real:.6f}"])
    with open(os.path.join(out, f"{game}.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["from", "to", "positions", "mean_chance", "realised"])
        w.writerows(records)
    print("\n".join(lines))
    print(f"\nmean absolute calibration error: {100 * err / len(rows):.2f} points of win rate over {len(rows)} positions")
    long = [r for r in rows if r["long_stopped"] == "separated"]
    if long:
        agree = sum(r["long_advice"] == r["advice"] for r in long)
        print(f"where a long search separated the moves ({len(long)} positions), the advice picked its best move "
              f"in {agree} ({100 * agree / len(long):.1f}%)")


if __name__ == "__main__":
    main()
