//! `sim advise classic-flip`: decisions read from traces resume as the
//! traced games went on, the advice depends only on what the mover can
//! see, refusals, the JSON answer, and the same answer on any threads.

use serde_json::Value;

use crate::common::{fails_with, file, ok, sim, trace_text, traced};
use sim::engine::advise::{Position, TraceCut};
use sim::games::classic_flip::advise::ClassicFlipPosition;
use sim::games::classic_flip::policies::Policy;
use sim::games::classic_flip::rules::View;

/// The kind of decision an event records, read from the trace's own
/// words (`opens`: the event is the first after a `turn`, reshuffles
/// aside).
fn kind(v: &Value, opens: bool) -> Option<&'static str> {
    Some(match v["event"].as_str()? {
        "draw" | "community" if opens => "start",
        "play" | "flip" => "start",
        "challenge" => "challenge",
        "discard" => "discard",
        "block" => "block",
        "take" if v["index"].is_null() => "pick",
        "penalty_discard" => "forced",
        "penalty_take" => "penalty",
        _ => return None,
    })
}

/// The events of a trace with their line numbers (the run line is 1).
fn numbered(events: &[Value]) -> Vec<(usize, Value)> {
    events
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, v)| (i + 2, v))
        .collect()
}

/// An event without its game number.
fn bare(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("game");
    v
}

/// Every `stride`-th start and discard, every fourth challenge, penalty
/// pick and discard down to six inside a challenge, and every Block and
/// Take pick of every game of the trace
/// of `args`: the position read from the trace cut
/// there, played on with the trace's hidden cards and later decisions,
/// must end every round and the game as the trace did. Returns the
/// decisions checked, by kind.
fn resume_every_decision(args: &[&str], stride: usize) -> std::collections::BTreeMap<&'static str, usize> {
    let run = traced(args);
    let lines = numbered(&run.events);
    let model = Policy::parse("collector").unwrap();
    let mut checked = std::collections::BTreeMap::new();
    let mut game_start = 0;
    let mut opens = false;
    let (mut common, mut rarer) = (0, 0);
    for (i, (line, v)) in lines.iter().enumerate() {
        if v["event"] == "deal" && v["round"] == 0 {
            game_start = i;
        }
        let k = kind(v, opens);
        opens = v["event"] == "turn" || (opens && v["event"] == "reshuffle");
        let Some(k) = k else { continue };
        if matches!(k, "start" | "discard") {
            common += 1;
            if common % stride != 0 {
                continue;
            }
        }
        if matches!(k, "challenge" | "penalty" | "forced") {
            rarer += 1;
            if rarer % 4 != 0 {
                continue;
            }
        }
        let cut = TraceCut {
            run: run.head.clone(),
            events: lines[game_start..=i].to_vec(),
            at: Some(*line),
        };
        let p = ClassicFlipPosition::from_trace(&cut, model)
            .unwrap_or_else(|e| panic!("{args:?} line {line}: {e}"));
        let r = p.replayed();
        assert_eq!(r.mover as u64, v["seat"].as_u64().unwrap(), "line {line}");
        assert_eq!(r.line, *line);
        let game = v["game"].clone();
        let rest: Vec<(usize, Value)> = lines[game_start..]
            .iter()
            .filter(|(_, e)| e["game"] == game)
            .cloned()
            .collect();
        let ends = r
            .play_on_as_traced(&rest)
            .unwrap_or_else(|e| panic!("{args:?} line {line}: {e}"));
        let want: Vec<Value> = lines[i..]
            .iter()
            .filter(|(_, e)| {
                e["game"] == game && matches!(e["event"].as_str(), Some("round_end" | "game_end"))
            })
            .map(|(_, e)| bare(e))
            .collect();
        assert_eq!(ends, want, "{args:?} line {line}");
        *checked.entry(k).or_insert(0) += 1;
    }
    checked
}

/// From decisions of dozens of games (2 to 6 players, one deck and two,
/// bluffers, sheriffs and thieves), the table read from the trace, played
/// on with the trace's real hidden cards and its own later decisions,
/// ends every round and the game exactly as the trace did: the reading,
/// the kept table and the point the rules engine resumes at agree.
#[test]
fn every_traced_decision_resumes_as_the_game_went_on() {
    let mixed = "thief+bluffer:9,sheriff:0.3+bluffer:8,thief+sheriff:0.5,counter+bluffer:10";
    let cases: [(&[&str], usize); 4] = [
        (
            &[
                "classic-flip",
                "--players",
                "4",
                "--games",
                "8",
                "--seed",
                "3",
                "--policy",
                mixed,
            ],
            23,
        ),
        (
            &[
                "classic-flip",
                "--players",
                "2",
                "--games",
                "8",
                "--seed",
                "4",
                "--policy",
                "thief+bluffer:9+sheriff:0.3",
            ],
            7,
        ),
        (
            &[
                "classic-flip",
                "--players",
                "3",
                "--games",
                "8",
                "--seed",
                "5",
                "--policy",
                "random,thief,sheriff:0.4+bluffer:9",
            ],
            13,
        ),
        (
            &[
                "classic-flip",
                "--players",
                "6",
                "--games",
                "3",
                "--seed",
                "6",
                "--policy",
                "thief+bluffer:9+sheriff:0.3",
            ],
            29,
        ),
    ];
    let mut all = std::collections::BTreeMap::new();
    for (args, stride) in cases {
        for (k, n) in resume_every_decision(args, stride) {
            *all.entry(k).or_insert(0) += n;
        }
    }
    for k in [
        "start",
        "challenge",
        "discard",
        "block",
        "pick",
        "penalty",
        "forced",
    ] {
        assert!(
            all.get(k).copied().unwrap_or(0) > 0,
            "no {k} decision checked: {all:?}"
        );
    }
    assert!(all.values().sum::<usize>() > 300, "{all:?}");
}

/// The lines of a trace as JSON values.
fn parse(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn unparse(v: &[Value]) -> String {
    v.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n") + "\n"
}

/// Every card name `a` written as `b` and `b` as `a`, in the events of
/// lines `from..=to`.
fn swap_names(v: &mut [Value], from: usize, to: usize, a: &str, b: &str) {
    fn walk(x: &mut Value, a: &str, b: &str) {
        match x {
            Value::String(s) if s == a => *s = b.to_string(),
            Value::String(s) if s == b => *s = a.to_string(),
            Value::Array(l) => l.iter_mut().for_each(|y| walk(y, a, b)),
            Value::Object(o) => o.values_mut().for_each(|y| walk(y, a, b)),
            _ => {}
        }
    }
    for x in &mut v[from - 1..to] {
        walk(x, a, b);
    }
}

/// The position read from `text` cut at line `at`, if the reader takes it.
fn read(text: &str, at: usize) -> Result<ClassicFlipPosition, String> {
    let cut = sim::engine::advise::cut_trace(text, "t.jsonl", "classic-flip", Some(at))?;
    ClassicFlipPosition::from_trace(&cut, Policy::default())
}

/// The `--json` answer of `sim advise classic-flip` for `file` at `at`.
fn answer_text(dir: &std::path::Path, file: &str, at: usize, extra: &[&str]) -> String {
    let at = at.to_string();
    let mut args = vec!["advise", "classic-flip", "--trace", file, "--at", &at, "--json"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--budget") {
        args.extend(["--budget", "2000"]);
    }
    ok(&sim(&args, dir))
}

/// Changing cards the mover cannot see (another player's hidden card
/// swapped with a card of the draw pile, throughout the round up to the
/// decision; the order of the rest of the draw pile) leaves the `--json`
/// answer the same to the byte; changing a card of the mover's hand
/// changes it.
#[test]
fn advice_depends_only_on_what_the_mover_can_see() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&[
        "classic-flip",
        "--players",
        "3",
        "--games",
        "1",
        "--seed",
        "7",
        "--policy",
        "thief+bluffer:9,sheriff:0.3,collector",
    ]);
    let events = parse(&text);
    let a = file(dir.path(), "a.jsonl", &text);
    let mut opens = false;
    let mut decisions = Vec::new();
    for (i, v) in events.iter().enumerate() {
        if let Some(k) = kind(v, opens) {
            decisions.push((i + 1, k));
        }
        opens = v["event"] == "turn" || (opens && v["event"] == "reshuffle");
    }
    let (mut same, mut differ, mut forced) = (0, 0, 0);
    // Every 37th decision, and the first discards down to six inside a
    // challenge.
    let forced_ones = decisions.iter().filter(|d| d.1 == "forced").take(2);
    for &(at, k) in decisions.iter().skip(12).step_by(37).chain(forced_ones) {
        let p = read(&text, at).unwrap();
        let r = p.replayed();
        let me = r.mover;
        let v = View::new(&r.view, me);
        let deal = (1..at).rev().find(|&l| events[l - 1]["event"] == "deal").unwrap();
        let decks = r.rules.deck.decks;
        let name = |c| sim::games::classic_flip::trace::json_name(c, decks);
        let pile: Vec<String> = r.view.draw_pile().map(name).collect();
        let plain = |n: &String| !n.contains('/') && !n.contains('8') && n.len() <= 3;
        let Some(y) = pile.iter().rev().find(|n| plain(n)) else {
            continue;
        };
        // A card hidden from the mover in another hand.
        let hidden = (0..r.rules.players)
            .filter(|&q| q != me)
            .flat_map(|q| sim::games::classic_flip::cards::cards_of(r.view.hand(q) & !v.known(q)))
            .map(name)
            .filter(|n| plain(n))
            .collect::<Vec<_>>();
        for x in hidden.iter().take(3) {
            let mut changed = events.clone();
            swap_names(&mut changed, deal, at, x, y);
            let changed = unparse(&changed);
            if read(&changed, at).is_err() {
                continue;
            }
            let b = file(dir.path(), "b.jsonl", &changed);
            assert_eq!(
                answer_text(dir.path(), &a, at, &[]),
                answer_text(dir.path(), &b, at, &[]),
                "line {at} ({k}): {x} <-> {y}"
            );
            same += 1;
            forced += usize::from(k == "forced");
            break;
        }
        // A card of the mover's hand.
        let mine: Vec<String> = sim::games::classic_flip::cards::cards_of(v.hand())
            .map(name)
            .filter(|n| plain(n))
            .collect();
        for x in mine.iter().take(3) {
            let mut changed = events.clone();
            swap_names(&mut changed, deal, at, x, y);
            let changed = unparse(&changed);
            if read(&changed, at).is_err() {
                continue;
            }
            let c = file(dir.path(), "c.jsonl", &changed);
            assert_ne!(
                answer_text(dir.path(), &a, at, &[]),
                answer_text(dir.path(), &c, at, &[]),
                "line {at} ({k}): {x} <-> {y}"
            );
            differ += 1;
            break;
        }
    }
    assert!(
        same >= 3 && differ >= 3 && forced >= 1,
        "{same} unchanged ({forced} discards to six), {differ} changed"
    );
}

/// A line that is no decision, a trace that breaks the rules, no trace at all and a
/// trace of another game are refused, each with a message naming what is
/// wrong.
#[test]
fn refusals_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&[
        "classic-flip",
        "--players",
        "4",
        "--games",
        "1",
        "--seed",
        "3",
        "--policy",
        "thief+bluffer:9,sheriff:0.3+bluffer:8,thief+sheriff:0.5,counter+bluffer:10",
    ]);
    let events = parse(&text);
    let t = file(dir.path(), "t.jsonl", &text);
    let line_of = |event: &str| events.iter().position(|v| v["event"] == event).unwrap() + 1;
    let advise = |f: &str, at: usize| {
        vec![
            "advise".to_string(),
            "classic-flip".into(),
            "--trace".into(),
            f.to_string(),
            "--at".into(),
            at.to_string(),
        ]
    };
    let run = |args: Vec<String>, fragments: &[&str]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_with(2, &args, dir.path(), fragments);
    };
    run(advise(&t, 2), &["--at 2", "'deal' event, not a decision"]);
    run(
        advise(&t, line_of("action_discard")),
        &["an 'action_discard' event, not a decision"],
    );
    // An action's draw is no start option.
    let draw3 = events
        .iter()
        .enumerate()
        .position(|(i, v)| v["event"] == "draw" && i > 0 && events[i - 1]["event"] == "play")
        .unwrap()
        + 1;
    run(advise(&t, draw3), &["'draw' event of an action card"]);
    // A card drawn that is not the top of the pile.
    let mut bad = events.clone();
    let first_draw = bad.iter().position(|v| v["event"] == "draw").unwrap();
    let deal = &bad[1]["draw"];
    let wrong = deal[deal.as_array().unwrap().len() - 1].clone();
    bad[first_draw]["cards"][0] = wrong;
    let b = file(dir.path(), "bad.jsonl", &unparse(&bad));
    run(
        advise(&b, line_of("challenge")),
        &[&format!("line {}:", first_draw + 1), "where the rules give"],
    );
    // A challenge the rules judge otherwise.
    let c = line_of("challenge");
    let mut judged = events.clone();
    let won = judged[c - 1]["won"].as_bool().unwrap();
    judged[c - 1]["won"] = (!won).into();
    let j = file(dir.path(), "judged.jsonl", &unparse(&judged));
    let later = (c + 1..events.len())
        .find(|&l| events[l - 1]["event"] == "discard")
        .unwrap();
    run(advise(&j, later), &[&format!("line {c}:")]);
    fails_with(
        2,
        &["advise", "classic-flip"],
        dir.path(),
        &["classic-flip positions are given by --trace FILE"],
    );
    let flip7 = trace_text(&["flip7", "--games", "1", "--seed", "3"]);
    let f = file(dir.path(), "f7.jsonl", &flip7);
    fails_with(
        2,
        &["advise", "classic-flip", "--trace", &f],
        dir.path(),
        &["a trace of flip7, not of classic-flip"],
    );
}

/// `--json`: the position as the mover sees it, every move with its win
/// chance and round score (an estimate with its 95% interval, or exact),
/// the advice among the moves, and how the search ended; the trace's own
/// move is among the moves.
#[test]
fn json_answer_has_the_position_the_moves_and_the_advice() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["classic-flip", "--games", "1", "--seed", "1"]);
    let t = file(dir.path(), "t.jsonl", &text);
    // Line 20: seat 1's fifth turn of round 1 starts (Draw/Block played).
    let a: Value = serde_json::from_str(&answer_text(dir.path(), &t, 20, &[])).unwrap();
    assert_eq!(a["game"], "classic-flip");
    assert_eq!(a["model"], "collector");
    assert_eq!(a["mover"], 1);
    let p = &a["position"];
    assert_eq!(p["decision"], "start");
    assert_eq!(p["line"], 20);
    assert_eq!(p["players"], 4);
    assert_eq!(
        p["hand"],
        serde_json::json!(["R5", "RQ", "B4", "B6", "Draw/Block"])
    );
    assert_eq!(p["seats"][0]["cards"], 5);
    assert_eq!(p["seats"][0]["known"], serde_json::json!([]));
    assert_eq!(p["community"], serde_json::json!(["BK", "R9", "B7"]));
    assert_eq!(p["traced"], "draw:Draw/Block");
    let moves = a["moves"].as_array().unwrap();
    let keys: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    for k in [
        "draw2",
        "community:0",
        "community:1",
        "community:2",
        "draw:Draw/Block",
    ] {
        assert!(keys.contains(&k), "{keys:?}");
    }
    for m in moves {
        let w = &m["win"];
        if w["exact"].is_null() {
            let (est, low, high) = (
                w["estimate"].as_f64().unwrap(),
                w["low"].as_f64().unwrap(),
                w["high"].as_f64().unwrap(),
            );
            assert!(low <= est && est <= high && (0.0..=1.0).contains(&est), "{m}");
        }
        assert!(m["round_score"].is_object(), "{m}");
    }
    assert!(keys.contains(&a["advice"].as_str().unwrap()));
    assert!(
        ["separated", "budget"].contains(&a["stopped"].as_str().unwrap()),
        "{a}"
    );
    assert_eq!(a["playouts_per_move"], 2000);
    // Line 136: seat 2 takes the 2X of community slot 0.
    let take = read(&text, 136).unwrap();
    let (words, position) = take.read_back();
    assert_eq!(position["traced"], "community:0");
    assert!(
        words
            .iter()
            .any(|l| l == "the trace's move: take community 2X (slot 0)"),
        "{words:?}"
    );
}

/// C25, C27: the discard down to six inside a hand challenge is advised,
/// by the player caught and by a challenger that failed: every move
/// discards exactly the cards over six, no move comes twice, and the
/// trace's own discard is among them (the moves themselves are checked
/// in `rollout`'s unit test).
#[test]
fn discard_down_to_six_inside_a_challenge_is_advised() {
    let text = trace_text(&[
        "classic-flip",
        "--players",
        "4",
        "--games",
        "6",
        "--seed",
        "3",
        "--policy",
        "thief+bluffer:9,sheriff:0.3+bluffer:8,thief+sheriff:0.5,counter+bluffer:10",
    ]);
    let events = parse(&text);
    let (mut caught, mut failed) = (0, 0);
    for (i, v) in events.iter().enumerate() {
        if v["event"] != "penalty_discard" {
            continue;
        }
        let at = i + 1;
        let challenge = events[..i]
            .iter()
            .rev()
            .find(|e| e["event"] == "challenge")
            .unwrap();
        let p = read(&text, at).unwrap();
        let r = p.replayed();
        let hand = View::new(&r.view, r.mover).hand();
        let need = hand.count_ones() - 6;
        let (words, position) = p.read_back();
        assert_eq!(position["decision"], "forced", "line {at}");
        if challenge["won"] == true {
            assert_eq!(challenge["target"], v["seat"], "line {at}");
            assert!(words[0].contains("caught over the limit"), "{words:?}");
            caught += 1;
        } else {
            assert_eq!(challenge["seat"], v["seat"], "line {at}");
            assert!(words[0].contains("failed hand challenge"), "{words:?}");
            failed += 1;
        }
        let moves = p.moves();
        let traced = position["traced"].as_str().unwrap().to_string();
        assert!(moves.iter().any(|m| m.key == traced), "line {at}: {traced}");
        for m in &moves {
            let cards: Vec<&str> = m.key.trim_start_matches("discard:").split(',').collect();
            assert_eq!(cards.len() as u32, need, "line {at}: {}", m.key);
        }
        let keys: std::collections::BTreeSet<&str> = moves.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys.len(), moves.len(), "line {at}: a move twice");
    }
    assert!(caught > 0 && failed > 0, "{caught} caught, {failed} failed");
}

/// The same seed gives the same answer, to the byte, on one thread and
/// on two.
#[test]
fn the_answer_is_the_same_on_one_thread_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&[
        "classic-flip",
        "--players",
        "2",
        "--games",
        "1",
        "--seed",
        "4",
        "--policy",
        "thief+bluffer:9+sheriff:0.3",
    ]);
    let t = file(dir.path(), "t.jsonl", &text);
    let events = parse(&text);
    let mut opens = false;
    let mut lines = Vec::new();
    for (i, v) in events.iter().enumerate() {
        if let Some(k) = kind(v, opens)
            && (k != "discard" || lines.len() % 4 == 0)
        {
            lines.push(i + 1);
        }
        opens = v["event"] == "turn" || (opens && v["event"] == "reshuffle");
    }
    for &at in lines.iter().step_by(lines.len() / 3) {
        let one = answer_text(dir.path(), &t, at, &["--threads", "1", "--budget", "3000"]);
        let two = answer_text(dir.path(), &t, at, &["--threads", "2", "--budget", "3000"]);
        assert_eq!(one, two, "line {at}");
    }
}
