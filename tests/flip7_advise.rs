//! `sim advise flip7`: positions read from traces continue as the traced
//! games did, the exact bust chance, the information a player has, both
//! ways of giving a position, refusals and the JSON answer.

use std::collections::VecDeque;

use serde_json::Value;

use crate::common::{fails_with, file, ok, sim, trace_text, traced};
use sim::engine::advise::TraceCut;
use sim::games::flip7::advise::Flip7Position;
use sim::games::flip7::advise_trace;
use sim::games::flip7::cards::{Card, parse_card};
use sim::games::flip7::policies::Policy;
use sim::games::flip7::rules::{Answer, Chooser, Observer, Table};

/// The decisions a trace records after a point, answered in order while
/// the round of that point lasts; later rounds get plain answers.
struct Script {
    round: u32,
    decisions: VecDeque<Value>,
}

impl Script {
    fn next(&mut self, t: &Table, kinds: &[&str]) -> Option<Value> {
        if t.round() != self.round {
            return None;
        }
        let e = self.decisions.pop_front().expect("the trace has a decision here");
        let kind = e["event"].as_str().unwrap();
        assert!(kinds.contains(&kind), "asked for {kinds:?} but the trace has {e}");
        Some(e)
    }
}

impl Chooser for Script {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        match self.next(t, &["hit", "stay"]) {
            Some(e) => {
                assert_eq!(e["seat"], seat as u64, "{e}");
                e["event"] == "hit"
            }
            None => false,
        }
    }

    fn target(&mut self, t: &Table, chooser: usize, _card: Card) -> usize {
        match self.next(t, &["assign"]) {
            Some(e) => {
                assert_eq!(e["from"], chooser as u64, "{e}");
                e["to"].as_u64().unwrap() as usize
            }
            None => (0..t.players()).find(|&s| t.is_active(s)).unwrap(),
        }
    }

    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        match self.next(t, &["second_chance_given", "second_chance_discarded"]) {
            Some(e) => e["to"].as_u64().map(|s| s as usize),
            None => (0..t.players()).find(|&s| s != holder && t.is_active(s) && !t.hand(s).second_chance),
        }
    }
}

/// Every seat's score of the first round that ends.
#[derive(Default)]
struct RoundScores(Option<Vec<u16>>);

impl Observer<Table> for RoundScores {
    const EVENTS: bool = false;
    fn round_end(&mut self, t: &Table) {
        if self.0.is_none() {
            self.0 = Some((0..t.players()).map(|s| t.hand(s).score()).collect());
        }
    }
}

fn is_decision(v: &Value) -> bool {
    matches!(
        v["event"].as_str(),
        Some("hit" | "stay" | "assign" | "second_chance_given")
    )
}

/// The rules engine's answer the trace gave at decision `v`.
fn answer_of(v: &Value) -> Answer {
    let seat = |k: &str| v[k].as_u64().unwrap() as usize;
    match v["event"].as_str().unwrap() {
        "hit" => Answer::Hit(true),
        "stay" => Answer::Hit(false),
        "assign" => Answer::Target {
            from: seat("from"),
            card: parse_card(v["card"].as_str().unwrap()).unwrap(),
            to: seat("to"),
        },
        _ => Answer::SecondChance {
            from: seat("from"),
            to: Some(seat("to")),
        },
    }
}

/// Every decision of every game of the trace of `args`: the position read
/// from the trace cut there, with the draw pile in the trace's order and
/// the trace's decisions, must end its round with the trace's scores.
/// Returns (decisions checked, decisions skipped because a reshuffle
/// comes before the round ends).
fn replay_every_decision(args: &[&str]) -> (usize, usize) {
    let run = traced(args);
    let model = Policy::parse("ev").unwrap();
    let (mut checked, mut skipped) = (0, 0);
    // The events with their line numbers (the run line is line 1).
    let lines: Vec<(usize, Value)> = run
        .events
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, v)| (i + 2, v))
        .collect();
    let mut game_start = 0;
    for (i, (line, v)) in lines.iter().enumerate() {
        if v["event"] == "game" {
            game_start = i;
        }
        if !is_decision(v) {
            continue;
        }
        let cut = TraceCut {
            run: run.head.clone(),
            events: lines[game_start..=i].to_vec(),
            at: Some(*line),
        };
        let parts = advise_trace::parts(&cut).unwrap_or_else(|e| panic!("line {line}: {e}"));
        let position = Flip7Position::new(parts, model).unwrap_or_else(|e| panic!("line {line}: {e}"));
        // The draw pile in the trace's order: the last list dealt (a
        // game's, a fresh round's or a reshuffle's), less the cards flipped
        // since.
        let (mut order, mut flipped) = (Vec::new(), 0);
        for (_, e) in &lines[game_start..i] {
            match e["event"].as_str().unwrap() {
                "game" => (order, flipped) = (e["deck"].as_array().unwrap().clone(), 0),
                // --fresh-deck: each round its own deck.
                "round" if e.get("deck").is_some() => {
                    (order, flipped) = (e["deck"].as_array().unwrap().clone(), 0)
                }
                "reshuffle" => (order, flipped) = (e["draw_pile"].as_array().unwrap().clone(), 0),
                "flip" => flipped += 1,
                _ => {}
            }
        }
        let rest: Vec<&Value> = lines[i + 1..]
            .iter()
            .map(|(_, e)| e)
            .take_while(|e| e["event"] != "round_end")
            .collect();
        if rest.iter().any(|e| e["event"] == "reshuffle") {
            skipped += 1;
            continue;
        }
        let end = &lines[i + 1 + rest.len()].1;
        let pile: Vec<Card> = order[flipped..]
            .iter()
            .map(|c| parse_card(c.as_str().unwrap()).unwrap())
            .collect();
        let mut t = position.table().clone();
        t.set_draw_order(&pile)
            .unwrap_or_else(|e| panic!("line {line}: {e}"));
        let mut script = Script {
            round: t.round(),
            decisions: rest
                .iter()
                .filter(|e| is_decision(e) || e["event"] == "second_chance_discarded")
                .map(|e| (*e).clone())
                .collect(),
        };
        let mut scores = RoundScores::default();
        t.finish_game_at(
            &position.parts().resume,
            answer_of(v),
            &mut script,
            &mut scores,
            &mut sim::engine::rng::batch_rng(1, 1),
        );
        let want: Vec<u16> = end["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["score"].as_u64().unwrap() as u16)
            .collect();
        assert_eq!(scores.0.unwrap(), want, "line {line}: {v}");
        assert!(
            script.decisions.is_empty(),
            "line {line}: decisions left over: {:?}",
            script.decisions
        );
        checked += 1;
    }
    (checked, skipped)
}

/// The reading of a trace and the rules engine's resumption together: from
/// every decision of 150 games (Hit or Stay during the deal and after,
/// Freezes and Flip Threes drawn and set aside, Second Chances passed, cards
/// waiting), the game goes on exactly as traced to the end of the round.
#[test]
fn every_traced_decision_resumes_as_the_game_went_on() {
    let (checked, skipped) = replay_every_decision(&[
        "flip7",
        "--players",
        "4",
        "--games",
        "100",
        "--seed",
        "7",
        "--policy",
        "stay-at-25,ev+flip-three:self-when-safe,cards-5+freeze:most-cards,stay-at-35",
    ]);
    assert!(
        checked > 5_000 && skipped < checked / 5,
        "{checked} checked, {skipped} skipped"
    );
    let (checked, _) = replay_every_decision(&[
        "flip7",
        "--players",
        "2",
        "--games",
        "50",
        "--seed",
        "8",
        "--policy",
        "ev",
    ]);
    assert!(checked > 1_000, "{checked}");
    // A fresh deck every round: nothing of an earlier round is seen.
    let (checked, _) = replay_every_decision(&[
        "flip7",
        "--players",
        "3",
        "--fresh-deck",
        "--games",
        "30",
        "--seed",
        "9",
    ]);
    assert!(checked > 500, "{checked}");
}

/// The JSON answer of `args`.
fn answer(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["advise", "flip7"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_str(&ok(&sim(&all, dir.path()))).unwrap()
}

fn busts(a: &Value) -> (f64, String) {
    let hit = &a["moves"][0];
    assert_eq!(hit["move"], "hit");
    let b = &hit["next_card_busts"];
    (
        b["exact"].as_f64().unwrap(),
        b["text"].as_str().unwrap().to_string(),
    )
}

/// The next card busts with the chance counted over every card left: 29 of
/// the 91 cards left after 9, 11 and 12 (8 nines, 10 elevens, 11 twelves),
/// fewer with some of them seen, none with a Second Chance held, and from
/// the discard pile when the draw pile is empty.
#[test]
fn exact_bust_chance_counts_every_card_left() {
    let solo = ["--seat", "120:9,11,12", "--budget", "2000"];
    assert_eq!(busts(&answer(&solo)).1, "29/91 = 0.3187");
    let two = ["--seat", "120:9,11,12", "--seat", "168:5,9", "--budget", "2000"];
    assert_eq!(busts(&answer(&two)).1, "28/89 = 0.3146");
    let seen = ["--seat", "120:9,11,12", "--seen", "12,12,4,F", "--budget", "2000"];
    assert_eq!(busts(&answer(&seen)).1, "27/87 = 0.3103");
    let sc = ["--seat", "120:9,11,12,SC", "--budget", "2000"];
    assert_eq!(busts(&answer(&sc)), (0.0, "0 (Second Chance)".into()));
    // The draw pile given: two cards left, one of them a 9.
    let pile = ["--seat", "120:9,11,12", "--pile", "9,5", "--budget", "2000"];
    assert_eq!(busts(&answer(&pile)).1, "1/2 = 0.5000");
    // An empty draw pile: the next card comes from the discard pile, which
    // holds every card not in front.
    let empty = ["--seat", "120:9,11,12", "--pile", "", "--budget", "2000"];
    let a = answer(&empty);
    assert_eq!(busts(&a).1, "29/91 = 0.3187");
    assert_eq!(a["position"]["draw_pile"], 0);
    // Staying never busts.
    assert_eq!(answer(&solo)["moves"][1]["next_card_busts"]["exact"], 0.0);
}

/// An impossible position is refused (exit 2) with a message naming what
/// is wrong, and nothing is printed or written.
#[test]
fn impossible_positions_are_refused_naming_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["--seat", "10:12,12"], &["seat 0 holds two 12s", "busts"]),
        (
            &["--seat", "10:1", "--seat", "10:1", "--seen", "1"],
            &["3 cards 1", "the deck holds 1"],
        ),
        (
            &["--seat", "10:x2", "--seat", "10:x2"],
            &["2 cards x2", "the deck holds 1"],
        ),
        (
            &["--seat", "10:5", "--seat", "20:6:stayed", "--turn", "1"],
            &["seat 1 is asked to move but has stayed"],
        ),
        (
            &["--seat", "10:5:busted"],
            &["seat 0 is asked to move but has busted"],
        ),
        (
            &["--seat", "200:5"],
            &["seat 0 has a total of 200", "ends the game"],
        ),
        (
            &["--seat", "10:13"],
            &["'13' is not a Flip 7 card", "F3 (Flip Three)"],
        ),
        (
            &["--seat", "10:5", "--seen", "+3"],
            &["--seen +3", "'+3' is not a Flip 7 card"],
        ),
        (&["--seat", "10:5:sleeping"], &["'sleeping' is not a state"]),
        (&["--seat", "ten:5"], &["--seat ten:5", "not a game total"]),
        (
            &["--seat", "10:1,2,3,4,5,6,7"],
            &["seven numbers", "Flip 7 ends the round"],
        ),
        (
            &["--seat", "10:5", "--turn", "3"],
            &["--turn 3", "seats are 0 to 0"],
        ),
        (
            &["--seat", "10:5", "--assign", "x2"],
            &["--assign x2", "only F, F3 or SC"],
        ),
        (
            &["--seat", "10:5", "--seat", "10:6", "--assign", "SC"],
            &["passes a Second Chance only when it already holds one"],
        ),
        (&["--seat", "10:5,F"], &["a F is never kept in front"]),
        (
            &["--seat", "10:5", "--pile", "5,5,5,5,5"],
            &["--pile", "cards 5", "the deck holds 5"],
        ),
        (&[], &["no position", "--seat TOTAL:CARDS"]),
        (
            &["--seat", "10:5", "--budget", "0"],
            &["'0' for '--budget <N>'", "at least 1"],
        ),
    ];
    for (args, fragments) in cases {
        let mut all = vec!["advise", "flip7"];
        all.extend_from_slice(args);
        fails_with(2, &all, dir.path(), fragments);
        let o = sim(&all, dir.path());
        assert!(o.stdout.is_empty(), "{all:?}");
    }
    assert!(crate::common::files_in(dir.path()).is_empty());
}

/// A trace that is not one of this game's, is cut inside an event, or is
/// asked at a line that is no decision, is refused.
#[test]
fn traces_of_another_game_cut_inside_an_event_or_not_at_a_decision_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&["flip7", "--players", "2", "--games", "1", "--seed", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!(
        "{}\n{}",
        lines[..10].join("\n"),
        &lines[10][..lines[10].len() / 2]
    );
    let cut = file(dir.path(), "cut.jsonl", &cut);
    fails_with(
        2,
        &["advise", "flip7", "--trace", &cut],
        dir.path(),
        &["line 11 is cut inside an event"],
    );
    let other = trace_text(&["ib-flip", "--games", "1", "--seed", "3"]);
    let other = file(dir.path(), "ib.jsonl", &other);
    fails_with(
        2,
        &["advise", "flip7", "--trace", &other],
        dir.path(),
        &["a trace of ib-flip, not of flip7"],
    );
    let text_trace = ok(&sim(
        &[
            "flip7",
            "--games",
            "1",
            "--trace",
            "--no-report",
            "--out",
            "r.csv",
        ],
        dir.path(),
    ));
    let text_trace = file(dir.path(), "text.txt", &text_trace);
    fails_with(
        2,
        &["advise", "flip7", "--trace", &text_trace],
        dir.path(),
        &["not a JSON trace"],
    );
    let whole = file(dir.path(), "game.jsonl", &text);
    // Line 3 is the first round's start, no decision.
    fails_with(
        2,
        &["advise", "flip7", "--trace", &whole, "--at", "3"],
        dir.path(),
        &["--at 3", "'round' event, not a decision"],
    );
    let past = (lines.len() + 1).to_string();
    fails_with(
        2,
        &["advise", "flip7", "--trace", &whole, "--at", &past],
        dir.path(),
        &["the trace has"],
    );
    fails_with(
        2,
        &["advise", "flip7", "--trace", &whole, "--seat", "1:5"],
        dir.path(),
        &["either by --trace or by flags"],
    );
}

/// The line numbers of `text`'s decisions (1-based), of the kind `kind`.
fn decision_lines(text: &str, kind: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(&format!("\"event\":\"{kind}\"")))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Changing a card nobody can see (the order of the draw pile, in the
/// deck the trace lists and in its reshuffles) does not change the advice,
/// to the byte; changing a card the player can see does.
#[test]
fn advice_depends_only_on_what_the_player_can_see() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&[
        "flip7",
        "--players",
        "3",
        "--games",
        "1",
        "--seed",
        "11",
        "--policy",
        "ev",
    ]);
    let mut hidden: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for v in &mut hidden {
        for key in ["deck", "draw_pile"] {
            if let Some(a) = v[key].as_array_mut() {
                a.reverse();
            }
        }
    }
    let hidden: Vec<String> = hidden.iter().map(|v| v.to_string()).collect();
    let (a, b) = (
        file(dir.path(), "a.jsonl", &text),
        file(dir.path(), "b.jsonl", &hidden.join("\n")),
    );
    let hits = decision_lines(&text, "hit");
    let assigns = decision_lines(&text, "assign");
    let mut lines: Vec<usize> = hits.iter().step_by(7).copied().collect();
    lines.extend(assigns.iter().take(2));
    assert!(lines.len() >= 4, "{lines:?}");
    for at in lines {
        let at = at.to_string();
        let ask = |f: &str| {
            ok(&sim(
                &[
                    "advise", "flip7", "--trace", f, "--at", &at, "--budget", "4000", "--json",
                ],
                dir.path(),
            ))
        };
        assert_eq!(ask(&a), ask(&b), "line {at}");
    }
    // A card the player sees, changed: the first 12 dealt becomes a 0.
    let seen = text.replacen(
        "\"card\":\"12\",\"via\":\"deal\"",
        "\"card\":\"0\",\"via\":\"deal\"",
        1,
    );
    if seen != text {
        let c = file(dir.path(), "c.jsonl", &seen);
        let at = hits[0].to_string();
        let ask = |f: &str| {
            ok(&sim(
                &[
                    "advise", "flip7", "--trace", f, "--at", &at, "--budget", "4000", "--json",
                ],
                dir.path(),
            ))
        };
        assert_ne!(ask(&a), ask(&c));
    }
}

/// A position read from a trace and the same position given by the flags
/// it reads back as give the same answer, and the answer is the same on
/// one thread and two.
#[test]
fn a_trace_and_its_flags_give_the_same_answer_on_any_threads() {
    let dir = tempfile::tempdir().unwrap();
    let text = trace_text(&[
        "flip7",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "5",
        "--policy",
        "ev,stay-at-25,ev,cards-4",
    ]);
    let trace = file(dir.path(), "t.jsonl", &text);
    let mut lines = decision_lines(&text, "hit");
    lines.truncate(3);
    lines.extend(decision_lines(&text, "assign").into_iter().take(3));
    for at in lines {
        let at = at.to_string();
        let from_trace = answer(&["--trace", &trace, "--at", &at, "--budget", "8000"]);
        let flags = from_trace["position"]["flags"].as_str().unwrap().to_string();
        let mut args: Vec<&str> = flags.split(' ').collect();
        args.extend(["--budget", "8000", "--threads", "1"]);
        let from_flags = answer(&args);
        assert_eq!(from_trace["moves"], from_flags["moves"], "line {at}: {flags}");
        assert_eq!(from_trace["advice"], from_flags["advice"], "line {at}");
        assert_eq!(from_trace["position"], from_flags["position"], "line {at}");
    }
}

/// `--json`: the position read back, every move with its figures (the
/// win chance and round score with their 95% intervals, or exact), the
/// advice, and how the search ended.
#[test]
fn json_answer_has_the_position_the_moves_and_the_advice() {
    let a = answer(&[
        "--seat",
        "120:9,11,12",
        "--seat",
        "168:5,8:stayed",
        "--dealer",
        "1",
    ]);
    assert_eq!(a["game"], "flip7");
    assert_eq!(a["model"], "ev");
    assert_eq!(a["position"]["seats"][1]["state"], "stayed");
    assert_eq!(
        a["position"]["seats"][0]["cards"],
        serde_json::json!(["9", "11", "12"])
    );
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    let hit = &moves[0];
    let (est, low, high) = (
        hit["win"]["estimate"].as_f64().unwrap(),
        hit["win"]["low"].as_f64().unwrap(),
        hit["win"]["high"].as_f64().unwrap(),
    );
    assert!(low < est && est < high && (0.0..=1.0).contains(&est), "{hit}");
    // Staying banks 32 for sure.
    assert_eq!(moves[1]["round_score"]["exact"], 32.0);
    assert!(["hit", "stay"].contains(&a["advice"].as_str().unwrap()));
    assert!(["separated", "budget"].contains(&a["stopped"].as_str().unwrap()));
    // A Freeze to give: one move per player in the round.
    let f = answer(&[
        "--seat",
        "10:5",
        "--seat",
        "150:9,10",
        "--seat",
        "20:1:stayed",
        "--assign",
        "F",
        "--budget",
        "4000",
    ]);
    let keys: Vec<&str> = f["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["seat:0", "seat:1"]);
    assert!(f["moves"][0]["next_card_busts"].is_null());
}

/// `advise:N` plays the advice at each Hit or Stay: its games repeat on
/// any number of threads, and N is checked.
#[test]
fn the_advise_policy_repeats_on_any_threads() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let out = format!("t{threads}.csv");
        let args = [
            "flip7",
            "--players",
            "2",
            "--policy",
            "advise:300,ev",
            "--games",
            "6",
            "--seed",
            "4",
        ];
        let mut all = args.to_vec();
        all.extend(["--threads", threads, "--no-report", "--out", &out]);
        ok(&sim(&all, dir.path()));
        std::fs::read_to_string(dir.path().join(&out)).unwrap()
    };
    assert_eq!(run("1"), run("2"));
    fails_with(
        2,
        &["flip7", "--policy", "advise:0"],
        dir.path(),
        &["'advise:0': N must be a whole number from 1 to 1000000"],
    );
}
