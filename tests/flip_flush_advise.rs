//! `sim advise flip-flush`: decisions read from traces continue as the
//! traced games did, the advice depends only on what the mover knows,
//! refusals, the JSON answer and its independence of the threads.

use std::cell::Cell as Flag;
use std::collections::VecDeque;

use serde_json::{Value, json};

use crate::common::{fails_with, file, ok, sim, trace_text, traced};
use sim::engine::advise::TraceCut;
use sim::engine::rng::{Draw, batch_rng};
use sim::games::flip_flush::advise::FlipFlushPosition;
use sim::games::flip_flush::advise_trace;
use sim::games::flip_flush::cards::{Cell, name, parse};
use sim::games::flip_flush::policies::Policy;
use sim::games::flip_flush::rules::{Chooser, End, Event, Fault, Move, Observer, Table, View};

/// The trace's Places and Flips from a decision on, answered in order;
/// each Place remembered as the trace says.
struct Script<'f> {
    decisions: VecDeque<Value>,
    remembered: &'f Flag<bool>,
}

impl Chooser for Script<'_> {
    fn choose<D: Draw>(&mut self, v: &View<'_>, _d: &mut D) -> Move {
        let e = self.decisions.pop_front().expect("the trace has a decision here");
        assert_eq!(e["seat"], v.seat() as u64, "{e}");
        let cell = e["cell"].as_u64().unwrap() as usize;
        match e["event"].as_str().unwrap() {
            "place" => {
                self.remembered.set(e["remembered"].as_bool().unwrap());
                Move::Place {
                    card: parse(e["card"].as_str().unwrap()).unwrap(),
                    cell,
                }
            }
            _ => Move::Flip {
                cell,
                call: e["call"].as_bool().unwrap(),
            },
        }
    }
}

/// Remembers a card exactly when the trace did.
struct AsTraced<'f>(&'f Flag<bool>);

impl Draw for AsTraced<'_> {
    fn below(&mut self, n: u32) -> u32 {
        if self.0.get() { 0 } else { n - 1 }
    }
}

fn fault(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "wrong_call",
        Fault::MissedFlush => "missed_flush",
    }
}

/// The events of the rules engine in the trace's words (the fields both
/// have), and how the game ended.
#[derive(Default)]
struct Heard {
    events: Vec<Value>,
    end: Option<(End, Vec<i32>, u32, Vec<usize>)>,
}

impl Observer<Table> for Heard {
    const EVENTS: bool = true;

    fn event(&mut self, _t: &Table, e: Event) {
        let v = match e {
            Event::Dealt => return,
            Event::Place {
                seat,
                card,
                cell,
                covered,
                remembered,
            } => {
                let (c, f) = match covered {
                    Cell::Empty => (Value::Null, Value::Null),
                    Cell::Down(c) => (name(c).into(), "down".into()),
                    Cell::Up(c) => (name(c).into(), "up".into()),
                };
                json!({ "event": "place", "seat": seat, "card": name(card), "cell": cell, "covered": c, "covered_face": f, "remembered": remembered })
            }
            Event::Flip {
                seat,
                cell,
                card,
                call,
                flush,
            } => {
                json!({ "event": "flip", "seat": seat, "cell": cell, "card": name(card), "call": call, "flush": flush })
            }
            Event::Pass { seat } => json!({ "event": "pass", "seat": seat }),
            Event::KnockedOut { seat, fault: f } => {
                json!({ "event": "knocked_out", "seat": seat, "fault": fault(f) })
            }
            Event::Pays { seat, fault: f } => json!({ "event": "pays", "seat": seat, "fault": fault(f) }),
        };
        self.events.push(v);
    }

    fn game_end(&mut self, t: &Table, end: End) {
        let n = t.players();
        let tied = match end {
            End::Tie => (0..n).filter(|&s| t.is_alive(s)).collect(),
            _ => Vec::new(),
        };
        self.end = Some((end, (0..n).map(|s| t.net(s)).collect(), t.turn_count(), tied));
    }
}

/// The trace's event `e` with only the fields the engine's events have.
fn as_heard(e: &Value, like: &Value) -> Value {
    let mut o = serde_json::Map::new();
    for (k, _) in like.as_object().unwrap() {
        o.insert(k.clone(), e[k].clone());
    }
    Value::Object(o)
}

#[derive(Default, Debug)]
struct Seen {
    decisions: usize,
    played_on: usize,
    knocked_out: usize,
    pays: usize,
    passes: usize,
    ties: usize,
    gambling_calls: usize,
}

/// From every decision of every game of the trace of `args`: the decision
/// read from the trace cut there, continued with the trace's own hidden
/// cards (the world it dealt, given to the mover's view as a playout's
/// world is) and the trace's own later decisions, makes exactly the
/// trace's later events and ends as the trace's game did (result, winner,
/// ties, turns and, gambling, every seat's stakes); the trace's move is one
/// of the advised moves.
fn replay_every_decision(args: &[&str], seen: &mut Seen) {
    let run = traced(args);
    let gambling = run.head["table"]["gambling"] == true;
    let model = Policy::default_policy();
    let lines: Vec<(usize, Value)> = run
        .events
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, v)| (i + 2, v))
        .collect();
    // The game's cut starts at its deal, or (a game played on, numbered as
    // the batch's last game) at the deal of the game before it.
    let (mut start, mut last_deal) = (0, 0);
    for (i, (line, v)) in lines.iter().enumerate() {
        if v["event"] == "deal" {
            start = if lines[last_deal].1["game"] == v["game"] {
                last_deal
            } else {
                i
            };
            last_deal = i;
        }
        if !matches!(v["event"].as_str(), Some("place" | "flip")) {
            continue;
        }
        let cut = TraceCut {
            run: run.head.clone(),
            events: lines[start..=i]
                .iter()
                .filter(|(_, e)| e["game"] == v["game"])
                .cloned()
                .collect(),
            at: Some(*line),
        };
        let read = advise_trace::read(&cut).unwrap_or_else(|e| panic!("line {line}: {e}"));
        assert_eq!(read.mover, v["seat"].as_u64().unwrap() as usize, "line {line}");
        assert_eq!(read.line, *line);
        let position = FlipFlushPosition::new(read.clone(), model);
        let hand = read.table.hand(read.mover);
        let played = match read.played {
            Move::Place { card, cell } => Move::Place {
                card: (hand
                    & sim::games::flip_flush::cards::suit_set(sim::games::flip_flush::cards::suit(card)))
                .trailing_zeros() as u8,
                cell,
            },
            m => m,
        };
        assert!(
            position.plays().contains(&played),
            "line {line}: {played:?} not advised"
        );
        // The world the trace dealt.
        let mut t = read.table.view(read.mover).determinize(
            &read.places(),
            &read.hands,
            &mut batch_rng(1, *line as u64),
        );
        let rest: Vec<&Value> = lines[i..]
            .iter()
            .map(|(_, e)| e)
            .take_while(|e| e["event"] != "game_end")
            .collect();
        let end = &lines[i + rest.len()].1;
        assert_eq!(end["event"], "game_end", "line {line}");
        let flag = Flag::new(false);
        let mut script = Script {
            decisions: rest
                .iter()
                .filter(|e| matches!(e["event"].as_str(), Some("place" | "flip")))
                .map(|e| (*e).clone())
                .collect(),
            remembered: &flag,
        };
        let mut heard = Heard::default();
        t.play_game(&mut script, &mut heard, &mut AsTraced(&flag));
        assert!(script.decisions.is_empty(), "line {line}: decisions left over");
        assert_eq!(heard.events.len(), rest.len(), "line {line}: {:?}", heard.events);
        for (h, e) in heard.events.iter().zip(&rest) {
            assert_eq!(*h, as_heard(e, h), "line {line}");
        }
        let (how, net, turns, tied) = heard.end.unwrap();
        let (result, winner) = match how {
            End::Call(w) => ("call", Some(w)),
            End::LastStanding(w) => ("last_standing", Some(w)),
            End::Tie => ("tie", None),
        };
        assert_eq!(end["result"], result, "line {line}");
        assert_eq!(end["winner"], json!(winner), "line {line}");
        assert_eq!(end["tied"], json!(tied), "line {line}");
        assert_eq!(end["turns"], turns, "line {line}");
        if gambling {
            // The table read does not hold what earlier ties left in the
            // pot: the winner takes it besides.
            let carried = i32::try_from(read.carried).unwrap();
            let net: Vec<i32> = net
                .iter()
                .enumerate()
                .map(|(s, &x)| x + if winner == Some(s) { carried } else { 0 })
                .collect();
            assert_eq!(end["net"], json!(net), "line {line}");
            seen.gambling_calls += usize::from(result == "call" && read.carried > 0);
        }
        seen.decisions += 1;
        seen.played_on += usize::from(v.get("played_on").is_some());
        seen.ties += usize::from(result == "tie");
        for e in &cut.events {
            match e.1["event"].as_str().unwrap() {
                "knocked_out" => seen.knocked_out += 1,
                "pays" => seen.pays += 1,
                "pass" => seen.passes += 1,
                _ => {}
            }
        }
    }
}

/// The reading of a trace and the resumption together: from every decision
/// of some dozens of games (2 to 6 players, full, partial and no memory,
/// gambling with pots carried over and games played on, knock-outs, passes,
/// cards covered face-up and face-down), the game goes on exactly as traced
/// to its end.
#[test]
fn every_traced_decision_resumes_as_the_game_went_on() {
    let mut seen = Seen::default();
    replay_every_decision(
        &[
            "flip-flush",
            "--players",
            "4",
            "--games",
            "16",
            "--seed",
            "7",
            "--policy",
            "default,place-random+flip-safe,count+flip-likely+place-build+flip-safe,call-at:0.4+read:0+place-hot+flip-likely+flip-safe",
        ],
        &mut seen,
    );
    replay_every_decision(
        &[
            "flip-flush",
            "--players",
            "2",
            "--games",
            "16",
            "--seed",
            "8",
            "--memory",
            "0.5",
        ],
        &mut seen,
    );
    replay_every_decision(
        &[
            "flip-flush",
            "--players",
            "6",
            "--games",
            "6",
            "--seed",
            "9",
            "--memory",
            "0",
            "--gambling",
        ],
        &mut seen,
    );
    replay_every_decision(
        &[
            "flip-flush",
            "--players",
            "3",
            "--games",
            "4",
            "--seed",
            "3",
            "--gambling",
            "--policy",
            "never-call+flip-safe+place-build,never-call+place-random,sure-only+flip-safe+place-build",
        ],
        &mut seen,
    );
    let s = &seen;
    assert!(s.decisions > 3_000, "{s:?}");
    assert!(
        s.knocked_out > 100 && s.pays > 100 && s.passes > 0 && s.ties > 0,
        "{s:?}"
    );
    assert!(s.played_on > 0 && s.gambling_calls > 0, "{s:?}");
}

/// `sim advise flip-flush --trace FILE` with `args`, as text.
fn advise(dir: &std::path::Path, trace: &str, args: &[&str]) -> String {
    let mut all = vec!["advise", "flip-flush", "--trace", trace];
    all.extend_from_slice(args);
    ok(&sim(&all, dir))
}

/// The JSON answer at line `at`.
fn answer(dir: &std::path::Path, trace: &str, at: usize, args: &[&str]) -> Value {
    let at = at.to_string();
    let mut all = vec!["--at", &at, "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&advise(dir, trace, &all)).unwrap()
}

/// The lines (1-based) of the decisions of `text`, with each event.
fn decisions(text: &str) -> Vec<(usize, Value)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, serde_json::from_str::<Value>(l).unwrap()))
        .filter(|(_, v)| matches!(v["event"].as_str(), Some("place" | "flip")))
        .collect()
}

/// `text` with the card names `a` and `b` swapped on every line.
fn swap(text: &str, a: &str, b: &str) -> String {
    let (qa, qb) = (format!("\"{a}\""), format!("\"{b}\""));
    text.replace(&qa, "\"\u{1}\"")
        .replace(&qb, &qa)
        .replace("\"\u{1}\"", &qb)
}

/// The cards of the deal's hand of `seat` and its undealt cards.
fn dealt(text: &str, seat: usize) -> (Vec<String>, Vec<String>) {
    let deal: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let list = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    (list(&deal["hands"][seat]), list(&deal["undealt"]))
}

/// Whether card `c` is turned face-up before line `at` (or, by `seat`,
/// placed before it).
fn shown_before(text: &str, c: &str, at: usize, placed_by: Option<usize>) -> bool {
    text.lines().take(at - 1).skip(2).any(|l| {
        let v: Value = serde_json::from_str(l).unwrap();
        (v["event"] == "flip" && v["card"] == c)
            || (v["event"] == "place" && v["card"] == c && placed_by.is_some_and(|s| v["seat"] == s as u64))
    })
}

/// Changing cards the mover cannot see (an opponent's card, in its hand or
/// placed face-down and never turned up, exchanged with a card set aside of
/// another suit, and two opponents' hidden cards exchanged with each other)
/// leaves the `--json` answer the same to the byte; changing a card in the
/// mover's hand changes it.
#[test]
fn advice_depends_only_on_what_the_mover_knows() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["flip-flush", "--players", "3", "--games", "1", "--seed", "21"]);
    let a = file(dir.path(), "a.jsonl", &text);
    let all = decisions(&text);
    let picks: Vec<&(usize, Value)> = all.iter().skip(3).step_by(4).take(3).collect();
    assert_eq!(picks.len(), 3, "{}", all.len());
    let budget = ["--budget", "500"];
    for (at, v) in picks {
        let at = *at;
        let mover = v["seat"].as_u64().unwrap() as usize;
        let (o1, o2) = ((mover + 1) % 3, (mover + 2) % 3);
        let hidden = |s: usize| -> Vec<String> {
            dealt(&text, s)
                .0
                .into_iter()
                .filter(|c| !shown_before(&text, c, at, None))
                .collect()
        };
        let (h1, h2) = (hidden(o1), hidden(o2));
        let x = &h1[0];
        let suit = |c: &str| c.chars().last().unwrap();
        let y = dealt(&text, 0)
            .1
            .into_iter()
            .find(|c| suit(c) != suit(x))
            .unwrap();
        let z = h2.iter().find(|c| suit(c) != suit(&h1[1])).unwrap();
        let cut: String = text.lines().take(at).collect::<Vec<_>>().join("\n");
        let changed = swap(&swap(&cut, x, &y), &h1[1], z);
        assert_ne!(changed, cut);
        let b = file(dir.path(), "b.jsonl", &changed);
        let asked = |f: &str| {
            advise(
                dir.path(),
                f,
                &["--at", &at.to_string(), "--json", budget[0], budget[1]],
            )
        };
        assert_eq!(asked(&a), asked(&b), "line {at}: {x}<->{y}, {}<->{z}", h1[1]);
        // A card the mover holds, exchanged with a card set aside of
        // another suit: its hand differs, and so does the answer.
        let mine = dealt(&text, mover)
            .0
            .into_iter()
            .find(|c| !shown_before(&text, c, at, Some(mover)))
            .unwrap();
        let other = dealt(&text, 0)
            .1
            .into_iter()
            .find(|c| suit(c) != suit(&mine))
            .unwrap();
        let c = file(dir.path(), "c.jsonl", &swap(&cut, &mine, &other));
        assert_ne!(asked(&a), asked(&c), "line {at}: {mine}<->{other}");
    }
}

/// A line that is no decision, a trace that does not follow the rules, a
/// trace of another game and no trace at all are refused (exit 2), naming
/// what is wrong, and nothing is printed.
#[test]
fn lines_that_are_no_decision_and_traces_that_break_the_rules_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["flip-flush", "--players", "3", "--games", "1", "--seed", "21"]);
    let lines: Vec<&str> = text.lines().collect();
    let whole = file(dir.path(), "t.jsonl", &text);
    let end = lines.len().to_string();
    let mut cases: Vec<(String, Vec<String>, Vec<String>)> = vec![
        (
            whole.clone(),
            vec!["--at".into(), "2".into()],
            vec!["--at 2".into(), "'deal' event, not a decision".into()],
        ),
        (
            whole.clone(),
            vec!["--at".into(), end.clone()],
            vec![format!("line {end} is a 'game_end' event")],
        ),
        (
            whole.clone(),
            vec!["--at".into(), "1".into()],
            vec!["line 1 is the run's definition".into()],
        ),
    ];
    let all = decisions(&text);
    let (first_flip, flip) = all.iter().find(|(_, v)| v["event"] == "flip").unwrap();
    let later = all.iter().find(|(l, _)| l > first_flip).unwrap().0.to_string();
    let mut bad = |name: &str, from: &str, to: &str, fragments: Vec<String>| {
        let i = first_flip - 1;
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        assert!(l[i].contains(from), "{}", l[i]);
        l[i] = l[i].replacen(from, to, 1);
        cases.push((
            file(dir.path(), name, &l.join("\n")),
            vec!["--at".into(), later.clone()],
            fragments,
        ));
    };
    let card = flip["card"].as_str().unwrap();
    let other = if card == "2C" { "3C" } else { "2C" };
    bad(
        "card.jsonl",
        &format!("\"card\":\"{card}\""),
        &format!("\"card\":\"{other}\""),
        vec![
            format!("line {first_flip}"),
            format!("the Flip turns up {card} by the rules, the trace says \"{other}\""),
        ],
    );
    let flush = flip["flush"].as_bool().unwrap();
    bad(
        "flush.jsonl",
        &format!("\"flush\":{flush}"),
        &format!("\"flush\":{}", !flush),
        vec![format!("line {first_flip}"), "a Flush by the rules".into()],
    );
    let seat = flip["seat"].as_u64().unwrap();
    bad(
        "seat.jsonl",
        &format!("\"seat\":{seat}"),
        &format!("\"seat\":{}", (seat + 1) % 3),
        vec![
            format!("line {first_flip}"),
            format!("but the rules ask seat {seat} to place or flip here"),
        ],
    );
    bad(
        "cell.jsonl",
        &format!("\"cell\":{}", flip["cell"]),
        "\"cell\":9",
        vec![format!("line {first_flip}"), "'cell' 9 is not a cell".into()],
    );
    for (trace, args, fragments) in &cases {
        let mut all: Vec<&str> = vec!["advise", "flip-flush", "--trace", trace];
        all.extend(args.iter().map(String::as_str));
        let frags: Vec<&str> = fragments.iter().map(String::as_str).collect();
        fails_with(2, &all, dir.path(), &frags);
        assert!(sim(&all, dir.path()).stdout.is_empty(), "{all:?}");
    }
    // A Place of a card the placer does not hold.
    let (pl, place) = all
        .iter()
        .find(|(_, v)| v["event"] == "place" && v["seat"] == 1)
        .unwrap();
    let held = dealt(&text, 0).0;
    let not_held = held
        .iter()
        .find(|c| !text.lines().nth(pl - 1).unwrap().contains(c.as_str()))
        .unwrap();
    let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    l[pl - 1] = l[pl - 1].replacen(
        &format!("\"card\":{}", place["card"]),
        &format!("\"card\":\"{not_held}\""),
        1,
    );
    let f = file(dir.path(), "hand.jsonl", &l.join("\n"));
    fails_with(
        2,
        &["advise", "flip-flush", "--trace", &f],
        dir.path(),
        &[&format!(
            "line {pl}: seat 1 places {not_held}, which is not in its hand"
        )],
    );
    let other = trace_text(&["ib-flip", "--games", "1", "--seed", "3"]);
    let other = file(dir.path(), "ib.jsonl", &other);
    fails_with(
        2,
        &["advise", "flip-flush", "--trace", &other],
        dir.path(),
        &["a trace of ib-flip, not of flip-flush"],
    );
    fails_with(
        2,
        &["advise", "flip-flush"],
        dir.path(),
        &["flip-flush positions are given by --trace FILE"],
    );
}

/// `--json`: the position as the mover knows it, every legal move (a Place
/// per suit held and cell, each face-down cell flipped with and without a
/// call) with its win chance (and, gambling, net stakes) and 95% interval,
/// the advice among them and how the search ended.
#[test]
fn json_answer_has_the_position_the_moves_and_the_advice() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["flip-flush", "--players", "3", "--games", "1", "--seed", "21"]);
    let trace = file(dir.path(), "t.jsonl", &text);
    let (at, v) = decisions(&text).into_iter().nth(6).unwrap();
    let a = answer(dir.path(), &trace, at, &["--budget", "1000"]);
    assert_eq!(a["game"], "flip-flush");
    assert_eq!(a["model"], Policy::default_policy().to_string());
    let p = &a["position"];
    assert_eq!(p["line"], at);
    assert_eq!(p["mover"], v["seat"]);
    assert_eq!(a["mover"], v["seat"]);
    assert_eq!(p["grid"].as_array().unwrap().len(), 9);
    let hand: Vec<&str> = p["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let suits: std::collections::BTreeSet<char> = hand.iter().map(|c| c.chars().last().unwrap()).collect();
    let down = p["grid"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["face"] == "down")
        .count();
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9 * suits.len() + 2 * down, "{p}");
    let keys: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert!(keys.contains(&p["played"].as_str().unwrap()), "{keys:?}");
    assert!(keys.contains(&a["advice"].as_str().unwrap()));
    for m in moves {
        let w = &m["win"];
        match w.get("exact") {
            Some(x) => assert!((0.0..=1.0).contains(&x.as_f64().unwrap()), "{m}"),
            None => {
                let (e, lo, hi) = (
                    w["estimate"].as_f64().unwrap(),
                    w["low"].as_f64().unwrap(),
                    w["high"].as_f64().unwrap(),
                );
                assert!(lo < e && e < hi && (0.0..=1.0).contains(&e), "{m}");
            }
        }
        assert!(m.get("net_stakes").is_none());
    }
    assert!(a["score_maximising"].is_null());
    assert!(["separated", "budget", "all-equal"].contains(&a["stopped"].as_str().unwrap()));
    // Gambling: net stakes too, and the move that maximises them.
    let g = trace_text(&[
        "flip-flush",
        "--players",
        "2",
        "--games",
        "1",
        "--seed",
        "5",
        "--gambling",
    ]);
    let gt = file(dir.path(), "g.jsonl", &g);
    let (gat, _) = decisions(&g).into_iter().nth(4).unwrap();
    let b = answer(dir.path(), &gt, gat, &["--budget", "500"]);
    assert_eq!(b["position"]["gambling"], true);
    assert!(b["position"]["pot"].as_u64().unwrap() >= 2);
    assert!(b["moves"][0]["net_stakes"].is_object(), "{}", b["moves"][0]);
    assert!(b["score_maximising"].is_string());
}

/// The same seed gives the same answer, to the byte, on one thread and two;
/// the default line is the trace's last decision.
#[test]
fn the_answer_is_the_same_on_one_thread_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&[
        "flip-flush",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "6",
        "--memory",
        "0.5",
    ]);
    let trace = file(dir.path(), "t.jsonl", &text);
    let all = decisions(&text);
    for (at, _) in [&all[5], &all[all.len() / 2]] {
        let at = at.to_string();
        let one = advise(
            dir.path(),
            &trace,
            &["--at", &at, "--budget", "1500", "--threads", "1", "--json"],
        );
        let two = advise(
            dir.path(),
            &trace,
            &["--at", &at, "--budget", "1500", "--threads", "2", "--json"],
        );
        assert_eq!(one, two, "line {at}");
    }
    let last = all.last().unwrap().0.to_string();
    let by_default = advise(dir.path(), &trace, &["--budget", "500", "--json"]);
    let at_last = advise(dir.path(), &trace, &["--at", &last, "--budget", "500", "--json"]);
    assert_eq!(by_default, at_last);
}
