//! `sim advise ib-flip`: positions read from traces continue as the traced
//! games did, the advice depends only on what the mover can see, refusals,
//! the JSON answer, and the same answer on any number of threads.

use serde_json::Value;

use crate::common::{fails_with, file, ok, sim, trace_text, traced};
use sim::engine::advise::TraceCut;
use sim::games::ib_flip::advise::{Decision, IbFlipPosition};
use sim::games::ib_flip::policies::Policy;

/// The games of a traced run: each game's events with their line numbers
/// (the run line is line 1).
fn games_of(events: &[Value]) -> Vec<Vec<(usize, Value)>> {
    let mut games: Vec<Vec<(usize, Value)>> = Vec::new();
    for (i, v) in events.iter().enumerate() {
        if v["event"] == "deal" {
            games.push(Vec::new());
        }
        games.last_mut().unwrap().push((i + 2, v.clone()));
    }
    games
}

/// Decisions checked, by kind: turns, face-down cards, add-ons (at their
/// `add_on` line), add-ons offered (at their `draw` line), fixing steps
/// (the first of a seat's, and the later ones after drawing).
#[derive(Debug, Default)]
struct Checked {
    turns: usize,
    face_down: usize,
    add_ons: usize,
    offered: usize,
    fixes: usize,
    later_fixes: usize,
}

/// From every line of every game of the trace of `args`: a position read
/// from the trace cut there is either refused as no decision, or, continued with the trace's real hidden cards, the trace's
/// answer and every later decision and random outcome of the trace, gives
/// exactly the trace's later events to the game's end.
fn resume_every_decision(args: &[&str], checked: &mut Checked) {
    let run = traced(args);
    let model = Policy::parse("finisher").unwrap();
    for game in games_of(&run.events) {
        for i in 0..game.len() {
            let line = game[i].0;
            let cut = TraceCut {
                run: run.head.clone(),
                events: game[..=i].to_vec(),
                at: Some(line),
            };
            let p = match IbFlipPosition::from_trace(&cut, model) {
                Ok(p) => p,
                Err(e) => {
                    assert!(e.contains("not a decision"), "line {line}: {e}");
                    continue;
                }
            };
            assert_eq!(p.line(), line);
            let kind = game[i].1["event"].as_str().unwrap();
            match (p.decision(), kind) {
                (Decision::Turn, "play" | "reveal" | "pickup") => checked.turns += 1,
                (Decision::FaceDown, "face_down") => checked.face_down += 1,
                (Decision::AddOn(_), "add_on") => checked.add_ons += 1,
                (Decision::AddOn(_), "draw") => checked.offered += 1,
                (Decision::Fix(asked), "fix") => {
                    assert_eq!(
                        u64::from(asked.steps) + 1,
                        game[i].1["step"].as_u64().unwrap(),
                        "line {line}"
                    );
                    checked.fixes += 1;
                    if asked.steps > 0 {
                        checked.later_fixes += 1;
                    }
                }
                (d, k) => panic!("line {line}: a '{k}' line read as {d:?}"),
            }
            // The trace's own answer is one of the moves (past the draw
            // line of an add-on, the cut does not show it).
            if kind != "draw" {
                assert!(p.traced_move().is_some(), "line {line}: {:?}", p.answers());
            }
            p.continue_as_traced(&run.head, &game)
                .unwrap_or_else(|e| panic!("resumed at line {line}: {e}"));
        }
    }
}

/// The reading of a trace and the rules engine's resumption together: from
/// every decision of 32 games (every fixing step, stacks drawn after
/// among them, turns from the hand and face up, reveals, face-down cards,
/// add-ons taken and declined, 2 to 5 players, a random policy among them,
/// powers switched off), the game goes on exactly as traced, event for
/// event, to its end.
#[test]
fn every_traced_decision_resumes_as_the_game_went_on() {
    let mut c = Checked::default();
    resume_every_decision(
        &[
            "ib-flip",
            "--players",
            "4",
            "--games",
            "10",
            "--seed",
            "3",
            "--policy",
            "finisher,random,saver,counter",
        ],
        &mut c,
    );
    resume_every_decision(
        &[
            "ib-flip",
            "--players",
            "2",
            "--games",
            "10",
            "--seed",
            "4",
            "--policy",
            "random,attacker",
        ],
        &mut c,
    );
    resume_every_decision(
        &[
            "ib-flip",
            "--players",
            "5",
            "--games",
            "6",
            "--seed",
            "5",
            "--policy",
            "lowest+fix:stack",
        ],
        &mut c,
    );
    resume_every_decision(
        &[
            "ib-flip",
            "--players",
            "3",
            "--games",
            "4",
            "--seed",
            "6",
            "--without",
            "8,10",
            "--policy",
            "finisher,random,saver",
        ],
        &mut c,
    );
    eprintln!("decisions checked: {c:?}");
    assert!(
        c.turns > 1_000
            && c.face_down > 50
            && c.add_ons > 10
            && c.offered > c.add_ons
            && c.fixes > 100
            && c.later_fixes > 2,
        "{c:?}"
    );
}

/// The `--json` answer at line `at` of the trace `path`, as text; `None`
/// when refused.
fn ask(dir: &std::path::Path, path: &str, at: usize, extra: &[&str]) -> Option<String> {
    let at = at.to_string();
    let mut args = vec!["advise", "ib-flip", "--trace", path, "--at", &at, "--json"];
    if !extra.contains(&"--budget") {
        args.extend(["--budget", "2000"]);
    }
    args.extend_from_slice(extra);
    let o = sim(&args, dir);
    o.status.success().then(|| String::from_utf8(o.stdout).unwrap())
}

/// The JSON trace of `sim ARGS` in `dir` (as `t.jsonl`): its path, and its
/// lines as text and as JSON.
fn trace_in(dir: &std::path::Path, args: &[&str]) -> (String, Vec<String>, Vec<Value>) {
    let text = trace_text(args);
    let raw: Vec<String> = text.lines().map(String::from).collect();
    let values = raw.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    (file(dir, "t.jsonl", &text), raw, values)
}

/// Swaps the cards `a` and `b` everywhere in `lines[..upto]` (0-based).
fn swapped(lines: &[String], upto: usize, a: &str, b: &str) -> String {
    let (qa, qb) = (format!("\"{a}\""), format!("\"{b}\""));
    let out: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i < upto {
                l.replace(&qa, "\"@\"").replace(&qb, &qa).replace("\"@\"", &qb)
            } else {
                l.clone()
            }
        })
        .collect();
    out.join("\n") + "\n"
}

/// Where a card is at line `at` (1-based) as the mover `m` knows it:
/// `Some("down")`, `Some("draw")`, `Some("hand")` (drawn by another seat)
/// when the mover cannot know it, `Some("mine")` when only the mover drew
/// it, `None` when it was shown.
fn hidden_place(lines: &[Value], at: usize, m: u64, card: &str) -> Option<&'static str> {
    let deal = &lines[1];
    let c = Value::from(card);
    let mut place = if deal["draw"].as_array().unwrap().contains(&c) {
        "draw"
    } else if deal["seats"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["down"].as_array().unwrap().contains(&c))
    {
        "down"
    } else {
        return None;
    };
    let quoted = format!("\"{card}\"");
    for v in &lines[2..at - 1] {
        if !v.to_string().contains(&quoted) {
            continue;
        }
        match (v["event"].as_str(), v["seat"].as_u64()) {
            (Some("draw"), Some(s)) if place == "draw" => place = if s == m { "mine" } else { "hand" },
            _ => return None,
        }
    }
    Some(place)
}

/// Changing cards the mover cannot see (face-down cards, the draw pile's
/// order, another player's drawn cards), in a way that stays a legal game,
/// does not change the advice, to the byte; changing a card the mover
/// drew does.
#[test]
fn advice_depends_only_on_what_the_mover_can_see() {
    let dir = tempfile::tempdir().unwrap();
    let (a, lines, values) = trace_in(
        dir.path(),
        &["ib-flip", "--players", "3", "--games", "1", "--seed", "21"],
    );
    let names: Vec<String> = values[1]["draw"]
        .as_array()
        .unwrap()
        .iter()
        .chain(
            values[1]["seats"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|s| s["down"].as_array().unwrap()),
        )
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    // Turns with more than one move, early and late, from the hand.
    let turns: Vec<usize> = (0..values.len())
        .filter(|&i| {
            values[i]["event"] == "play" && values[i]["from"] == "hand" && values[i]["move"].is_u64()
        })
        .map(|i| i + 1)
        .collect();
    let mut same = std::collections::BTreeMap::<&str, usize>::new();
    let mut differs = 0;
    for &at in turns.iter().step_by(turns.len() / 6).take(6) {
        let m = values[at - 1]["seat"].as_u64().unwrap();
        let want = ask(dir.path(), &a, at, &[]).expect("the real trace is advised");
        let hidden: Vec<(&str, &String)> = names
            .iter()
            .filter_map(|c| hidden_place(&values, at, m, c).map(|p| (p, c)))
            .collect();
        for kind in ["down", "draw", "hand"] {
            // Swap a card of this kind with a hidden card of another kind
            // (or of the same kind for the draw pile), until one replays.
            let pairs = hidden.iter().filter(|(p, _)| *p == kind).flat_map(|x| {
                hidden
                    .iter()
                    .filter(move |y| y.1 != x.1 && y.0 != "mine" && (y.0 != kind || kind == "draw"))
                    .map(move |y| (x, y))
            });
            for ((_, x), (_, y)) in pairs.take(12) {
                let b = file(dir.path(), "b.jsonl", &swapped(&lines, at - 1, x, y));
                if let Some(got) = ask(dir.path(), &b, at, &[]) {
                    assert_eq!(got, want, "line {at}: {x} and {y} swapped");
                    *same.entry(kind).or_default() += 1;
                    break;
                }
            }
        }
        // A card the mover drew, swapped with one it cannot see.
        let mine = hidden.iter().filter(|(p, _)| *p == "mine");
        let others: Vec<&&String> = hidden
            .iter()
            .filter(|(p, _)| *p == "draw")
            .map(|(_, c)| c)
            .collect();
        'seen: for (_, x) in mine {
            for y in &others {
                let b = file(dir.path(), "b.jsonl", &swapped(&lines, at - 1, x, y));
                if let Some(got) = ask(dir.path(), &b, at, &[]) {
                    assert_ne!(got, want, "line {at}: {x} (seen) and {y} swapped");
                    differs += 1;
                    break 'seen;
                }
            }
        }
    }
    assert!(
        same.values().sum::<usize>() >= 6 && same.len() == 3 && differs >= 2,
        "{same:?}, {differs}"
    );
}

/// A line that is no decision, a trace that does not follow
/// the rules, a missing --trace and another game's trace are refused
/// (exit 2) with a message naming what is wrong.
#[test]
fn refusals_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["ib-flip", "--players", "3", "--games", "1", "--seed", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    let t = file(dir.path(), "t.jsonl", &text);
    let line_of = |kind: &str| {
        lines
            .iter()
            .position(|l| l.contains(&format!("\"event\":\"{kind}\"")))
            .unwrap()
            + 1
    };
    let start = line_of("start").to_string();
    fails_with(
        2,
        &["advise", "ib-flip", "--trace", &t, "--at", &start],
        dir.path(),
        &[&format!("--at {start}"), "'start' event, not a decision"],
    );
    let end = lines.len().to_string();
    fails_with(
        2,
        &["advise", "ib-flip", "--trace", &t, "--at", &end],
        dir.path(),
        &["'game_end' event, not a decision"],
    );
    // A play changed: the trace no longer follows the rules.
    let i = lines
        .iter()
        .position(|l| l.contains("\"event\":\"play\""))
        .unwrap();
    let v: Value = serde_json::from_str(lines[i]).unwrap();
    let card = v["cards"][0].as_str().unwrap();
    let other = if card == "KS" { "KH" } else { "KS" };
    let mut bad: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    bad[i] = bad[i].replace(&format!("\"{card}\""), &format!("\"{other}\""));
    let bad = file(dir.path(), "bad.jsonl", &bad.join("\n"));
    fails_with(
        2,
        &["advise", "ib-flip", "--trace", &bad],
        dir.path(),
        &[&format!("line {}:", i + 1), "does not follow the rules"],
    );
    fails_with(
        2,
        &["advise", "ib-flip"],
        dir.path(),
        &["ib-flip positions are given by --trace FILE"],
    );
    let flip7 = trace_text(&["flip7", "--games", "1", "--seed", "3"]);
    let flip7 = file(dir.path(), "f.jsonl", &flip7);
    fails_with(
        2,
        &["advise", "ib-flip", "--trace", &flip7],
        dir.path(),
        &["a trace of flip7, not of ib-flip"],
    );
}

/// `--json`: the position the mover sees, every legal move with its win
/// chance and players beaten, the advice among the moves; an add-on is the
/// same position at its `draw` line and at its `add_on` line.
#[test]
fn json_answer_has_the_position_the_moves_and_the_advice() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["ib-flip", "--players", "4", "--games", "3", "--seed", "1"]);
    let t = file(dir.path(), "t.jsonl", &text);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"event\":\"play\"") && l.contains("\"move\":4}"))
        .unwrap()
        + 1;
    let a: Value = serde_json::from_str(&ask(dir.path(), &t, at, &[]).unwrap()).unwrap();
    assert_eq!(a["game"], "ib-flip");
    assert_eq!(a["model"], "finisher");
    let pos = &a["position"];
    assert_eq!(pos["line"], at as u64);
    assert_eq!(pos["decision"], "turn");
    assert_eq!(pos["players"], 4);
    let m = a["mover"].as_u64().unwrap() as usize;
    assert_eq!(pos["seats"][m]["hand"].as_array().unwrap().len(), 3);
    for (q, s) in pos["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(s["hand"].is_null(), q != m, "only the mover's hand is shown: {s}");
    }
    let moves = a["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for mv in moves {
        assert!(mv["move"].as_str().unwrap().starts_with("play:"), "{mv}");
        let w = &mv["win"];
        let est = w["estimate"].as_f64().or(w["exact"].as_f64()).unwrap();
        assert!((0.0..=1.0).contains(&est), "{mv}");
        let b = &mv["beaten"];
        let beaten = b["estimate"].as_f64().or(b["exact"].as_f64()).unwrap();
        assert!((0.0..=3.0).contains(&beaten), "{mv}");
    }
    let keys: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert!(keys.contains(&a["advice"].as_str().unwrap()));
    assert!(["separated", "budget", "only-move", "all-equal"].contains(&a["stopped"].as_str().unwrap()));
    // An add-on: the same position at its draw line and its add_on line.
    let add = lines
        .iter()
        .position(|l| l.contains("\"event\":\"add_on\""))
        .expect("an add-on in 3 games")
        + 1;
    let at_draw: Value = serde_json::from_str(&ask(dir.path(), &t, add - 1, &[]).unwrap()).unwrap();
    let at_add: Value = serde_json::from_str(&ask(dir.path(), &t, add, &[]).unwrap()).unwrap();
    assert_eq!(at_add["position"]["decision"], "add_on");
    assert_eq!(at_draw["moves"], at_add["moves"]);
    assert_eq!(at_add["moves"][0]["move"], "add:0");
    // The last decision by default.
    let last: Value = serde_json::from_str(&ok(&sim(
        &["advise", "ib-flip", "--trace", &t, "--budget", "2000", "--json"],
        dir.path(),
    )))
    .unwrap();
    assert!(last["position"]["line"].as_u64().unwrap() < lines.len() as u64);
}

/// The face-down slots are the same to the mover: every slot gives the same
/// result in every playout, and the answer says any slot will do.
#[test]
fn face_down_slots_compare_exactly_equal() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["ib-flip", "--players", "2", "--games", "2", "--seed", "9"]);
    let t = file(dir.path(), "t.jsonl", &text);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"event\":\"face_down\""))
        .expect("a face-down card in 2 games")
        + 1;
    let a: Value = serde_json::from_str(&ask(dir.path(), &t, at, &[]).unwrap()).unwrap();
    let moves = a["moves"].as_array().unwrap();
    // The first face-down card of a game is turned from three.
    assert_eq!(moves.len(), 3, "{a}");
    assert_eq!(a["stopped"], "all-equal", "{a}");
    assert!(
        moves
            .iter()
            .all(|m| m["win"] == moves[0]["win"] && m["beaten"] == moves[0]["beaten"])
    );
    assert_eq!(a["position"]["decision"], "face_down");
}

/// The same seed gives the same answer on one thread and on two.
#[test]
fn the_same_answer_on_one_thread_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["ib-flip", "--players", "3", "--games", "1", "--seed", "8"]);
    let t = file(dir.path(), "t.jsonl", &text);
    let lines: Vec<&str> = text.lines().collect();
    let plays: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("\"event\":\"play\""))
        .map(|i| i + 1)
        .collect();
    for &at in plays.iter().step_by(plays.len() / 3).take(3) {
        let one = ask(dir.path(), &t, at, &["--threads", "1", "--budget", "8000"]).unwrap();
        let two = ask(dir.path(), &t, at, &["--threads", "2", "--budget", "8000"]).unwrap();
        assert_eq!(one, two, "line {at}");
    }
}

/// IB-Flip's advice plays up to 1M playouts a move unless told otherwise
/// (its playouts are cheap, its close moves many); the other games 100K.
#[test]
fn the_default_budget_is_the_games_own() {
    let dir = tempfile::tempdir().unwrap();
    for (game, budget) in [("ib-flip", "1M"), ("flip7", "100K"), ("classic-flip", "100K")] {
        let help = ok(&sim(&["advise", game, "--help"], dir.path()));
        let from = help.find("--budget").unwrap();
        let to = from + help[from..].find("--time").unwrap();
        let flag = &help[from..to];
        assert!(flag.contains(&format!("[default: {budget}]")), "{game}: {flag}");
    }
}

/// The rank part of a card's name (`10H` → `10`).
fn rank_of(card: &str) -> &str {
    &card[..card.len() - 1]
}

/// The legal face-up sets from `pool` by the rule itself (I26): at least 3
/// cards of at most 3 ranks, at most 3 left in hand.
fn legal_fixes(pool: &[&str]) -> usize {
    (0u32..1 << pool.len())
        .filter(|bits| {
            let up: Vec<&str> = (0..pool.len())
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| pool[i])
                .collect();
            let ranks: std::collections::BTreeSet<&str> = up.iter().map(|c| rank_of(c)).collect();
            up.len() >= 3 && ranks.len() <= 3 && pool.len() - up.len() <= 3
        })
        .count()
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// Fixing is advised: every legal face-up set of the hand and face-up
/// cards is a move (the cards up now first, the trace's among them), and
/// the mover sees of the seats that fixed before it their face-up cards and
/// the cards they took back into hand, nothing more.
#[test]
fn fixing_is_advised_with_every_legal_face_up_set() {
    let dir = tempfile::tempdir().unwrap();
    let (t, _, lines) = trace_in(
        dir.path(),
        &["ib-flip", "--players", "4", "--games", "1", "--seed", "1"],
    );
    let deal = &lines[1];
    let fixes: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i]["event"] == "fix")
        .map(|i| i + 1)
        .collect();
    assert_eq!(fixes.len(), 4, "one step each");
    for (seat, &at) in fixes.iter().enumerate() {
        let a: Value = serde_json::from_str(&ask(dir.path(), &t, at, &[]).unwrap()).unwrap();
        let pos = &a["position"];
        assert_eq!(pos["decision"], "fix");
        assert_eq!(a["mover"], seat as u64);
        assert_eq!(pos["fix"]["step"], 1);
        let dealt = &deal["seats"][seat];
        let mut pool = strings(&dealt["hand"]);
        pool.extend(strings(&dealt["up"]));
        let moves = a["moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal_fixes(&pool), "line {at}: {pool:?}");
        let keys: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
        assert!(keys.iter().all(|k| k.starts_with("up:")));
        let first: std::collections::BTreeSet<&str> = keys[0][3..].split(',').collect();
        assert_eq!(
            first,
            strings(&dealt["up"]).into_iter().collect(),
            "the cards up now first"
        );
        let traced: std::collections::BTreeSet<&str> = strings(&lines[at - 1]["up"]).into_iter().collect();
        assert!(
            keys.iter()
                .any(|k| k[3..].split(',').collect::<std::collections::BTreeSet<_>>() == traced),
            "line {at}: the trace's {traced:?} among {keys:?}"
        );
        assert!(keys.contains(&a["advice"].as_str().unwrap()));
        // The seats before: face up as fixed, and in hand only the cards
        // they took back from face up.
        for q in 0..seat {
            let fixed = &lines[fixes[q] - 1];
            let s = &pos["seats"][q];
            assert_eq!(strings(&s["face_up"]).len(), strings(&fixed["up"]).len());
            let taken: Vec<&str> = strings(&deal["seats"][q]["up"])
                .into_iter()
                .filter(|c| strings(&fixed["hand"]).contains(c))
                .collect();
            let mut known = strings(&s["known_hand"]);
            known.sort();
            let mut want = taken.clone();
            want.sort();
            assert_eq!(known, want, "line {at}: seat {q}");
            assert!(s["hand"].is_null());
        }
    }
}

/// A later fixing step, after stacking drew new cards, is advised there:
/// the step and the cards drawn so far are read back, and the moves are
/// the legal sets of the bigger pool.
#[test]
fn a_later_fixing_step_is_advised_after_the_draw() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "ib-flip",
        "--players",
        "3",
        "--games",
        "6",
        "--seed",
        "5",
        "--policy",
        "lowest+fix:stack",
    ];
    let (t, _, lines) = trace_in(dir.path(), &args);
    let at = (0..lines.len())
        .find(|&i| lines[i]["event"] == "fix" && lines[i]["step"] == 2)
        .expect("a second fixing step in 6 games of stackers")
        + 1;
    let before = &lines[at - 2];
    assert_eq!(before["event"], "fix");
    let a: Value = serde_json::from_str(&ask(dir.path(), &t, at, &[]).unwrap()).unwrap();
    let pos = &a["position"];
    assert_eq!(pos["decision"], "fix");
    assert_eq!(pos["fix"]["step"], 2);
    let mut drew = strings(&pos["fix"]["drew"]);
    let mut want = strings(&before["drew"]);
    drew.sort();
    want.sort();
    assert_eq!(drew, want);
    let mut pool = strings(&before["up"]);
    pool.extend(strings(&before["hand"]));
    assert_eq!(
        a["moves"].as_array().unwrap().len(),
        legal_fixes(&pool),
        "{pool:?}"
    );
    let m = a["mover"].as_u64().unwrap() as usize;
    let mut hand = strings(&pos["seats"][m]["hand"]);
    let mut fixed_hand = strings(&before["hand"]);
    hand.sort();
    fixed_hand.sort();
    assert_eq!(hand, fixed_hand);
}

/// At a fixing step, the dealt hands of the seats still to fix, the
/// face-down cards and the draw pile are hidden from the mover: swapping
/// two such cards gives the same answer to the byte; swapping a card of
/// the mover's own hand with one of them does not.
#[test]
fn fixing_advice_depends_only_on_what_the_mover_can_see() {
    let dir = tempfile::tempdir().unwrap();
    let (t, raw, lines) = trace_in(
        dir.path(),
        &["ib-flip", "--players", "4", "--games", "1", "--seed", "7"],
    );
    let deal = &lines[1];
    // Seat 1's first fixing step.
    let at = (0..lines.len())
        .find(|&i| lines[i]["event"] == "fix" && lines[i]["seat"] == 1)
        .unwrap()
        + 1;
    let want = ask(dir.path(), &t, at, &[]).unwrap();
    // Cards named by no line up to the decision but the deal.
    let only_dealt = |c: &str| {
        let q = format!("\"{c}\"");
        raw[2..at].iter().all(|l| !l.contains(&q))
    };
    let mut hidden: Vec<(&str, &str)> = Vec::new();
    for q in 2..4 {
        hidden.extend(
            strings(&deal["seats"][q]["hand"])
                .into_iter()
                .map(|c| ("hand", c)),
        );
    }
    for q in 0..4 {
        hidden.extend(
            strings(&deal["seats"][q]["down"])
                .into_iter()
                .map(|c| ("down", c)),
        );
    }
    hidden.extend(strings(&deal["draw"]).into_iter().map(|c| ("draw", c)));
    hidden.retain(|(_, c)| only_dealt(c));
    let mut same = std::collections::BTreeSet::new();
    for (kind, x) in &hidden {
        if same.contains(kind) {
            continue;
        }
        let y = hidden.iter().find(|(k, _)| k != kind).unwrap().1;
        let b = file(dir.path(), "b.jsonl", &swapped(&raw, at, x, y));
        let got = ask(dir.path(), &b, at, &[]).unwrap_or_else(|| panic!("{x} and {y} swapped: refused"));
        assert_eq!(got, want, "line {at}: {x} ({kind}) and {y} swapped");
        same.insert(*kind);
    }
    assert_eq!(same.len(), 3, "{same:?}");
    let mine = strings(&deal["seats"][1]["hand"])[0];
    let y = hidden.iter().find(|(k, _)| *k == "draw").unwrap().1;
    let b = file(dir.path(), "b.jsonl", &swapped(&raw, at, mine, y));
    let got = ask(dir.path(), &b, at, &[]).unwrap();
    assert_ne!(got, want, "the mover's own {mine} changed");
}
