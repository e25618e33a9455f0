//! `--trace-format json`: every line is a JSON object, and the events are
//! enough to replay each game without the simulator. These tests replay
//! the traces: every card is followed from the deal to the discard pile,
//! round scores and totals are recomputed from the cards, and each game's
//! result is checked against the replayed state.

use std::collections::BTreeMap;

use crate::common;
use common::*;

use serde_json::Value;
use sim::engine::game::{Game, Visitor, default_options};
use sim::engine::rng::{batch_rng, next_game_seed};

/// The events of the JSON trace of a run, one value per line, after the
/// line describing the run (the summary goes to stderr).
fn trace(args: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let mut all = args.to_vec();
    all.extend(["--trace", "--trace-format", "json", "--out", "x.csv"]);
    let o = sim(&all, dir.path());
    let text = ok(&o);
    assert!(stderr(&o).contains("games/s"), "the summary goes to stderr");
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let head = lines.remove(0);
    assert_eq!(head["event"], "run", "{head}");
    assert!(head.get("game").is_none(), "{head}");
    lines
}

fn num(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .to_string()
}

/// A multiset of card names.
#[derive(Default, Debug, PartialEq, Clone)]
struct Cards(BTreeMap<String, u32>);

impl Cards {
    fn add(&mut self, c: &str) {
        *self.0.entry(c.to_string()).or_default() += 1;
    }
    fn take(&mut self, c: &str, what: &str) {
        let n = self
            .0
            .get_mut(c)
            .unwrap_or_else(|| panic!("{what}: no {c} to take"));
        *n -= 1;
        if *n == 0 {
            self.0.remove(c);
        }
    }
    fn of(v: &Value) -> Cards {
        let mut m = Cards::default();
        for c in v.as_array().unwrap() {
            m.add(c.as_str().unwrap());
        }
        m
    }
    fn len(&self) -> u32 {
        self.0.values().sum()
    }
}

/// Replays Flip 7 games: the draw pile's size, the cards in play and the
/// discard pile follow every event; each round's scores and the totals are
/// recomputed from the cards in front; the winner is the unique highest
/// total of at least 200.
fn replay_flip7(events: &[Value], games: u64) {
    let mut pile = 0u64;
    let mut in_play = Cards::default();
    let mut discard = Cards::default();
    let mut totals: Vec<u64> = Vec::new();
    let mut ended = 0;
    for e in events {
        let at = e.to_string();
        match text(e, "event").as_str() {
            "game" => {
                totals = vec![0; num(e, "players") as usize];
                discard = Cards::default();
                in_play = Cards::default();
            }
            "round" => {
                assert_eq!(in_play.len(), 0, "{at}");
                if num(e, "round") == 1 {
                    pile = num(e, "draw_pile");
                } else {
                    assert_eq!(num(e, "draw_pile"), pile, "{at}");
                }
            }
            "flip" => {
                assert!(pile > 0, "a card drawn from an empty pile: {at}");
                pile -= 1;
                in_play.add(&text(e, "card"));
            }
            "second_chance_used" => {
                for c in [text(e, "duplicate"), "Second Chance".to_string()] {
                    in_play.take(&c, &at);
                    discard.add(&c);
                }
            }
            "second_chance_discarded" => {
                in_play.take("Second Chance", &at);
                discard.add("Second Chance");
            }
            "fizzle" | "discard" => {
                let c = text(e, "card");
                in_play.take(&c, &at);
                discard.add(&c);
            }
            "reshuffle" => {
                assert_eq!(pile, 0, "reshuffled before the pile ran out: {at}");
                let new = Cards::of(&e["draw_pile"]);
                assert_eq!(new, discard, "the new pile is the discard pile: {at}");
                pile = u64::from(new.len());
                discard = Cards::default();
            }
            "round_end" => {
                assert_eq!(Cards::of(&e["discarded"]), in_play, "{at}");
                for c in std::mem::take(&mut in_play).0 {
                    *discard.0.entry(c.0).or_default() += c.1;
                }
                for s in e["seats"].as_array().unwrap() {
                    let numbers: Vec<u64> = s["numbers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|n| n.as_u64().unwrap())
                        .collect();
                    let sum: u64 = numbers.iter().sum();
                    let score = match text(s, "outcome").as_str() {
                        "bust" => 0,
                        outcome => {
                            let base = (sum << num(s, "x2")) + num(s, "plus");
                            if outcome == "Flip 7" {
                                assert_eq!(numbers.len(), 7, "{at}");
                                base + 15
                            } else {
                                base
                            }
                        }
                    };
                    assert_eq!(num(s, "score"), score, "{at}");
                    let seat = num(s, "seat") as usize;
                    totals[seat] += score;
                    assert_eq!(num(s, "total"), totals[seat], "{at}");
                }
            }
            "game_end" => {
                let listed: Vec<u64> = e["totals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_u64().unwrap())
                    .collect();
                assert_eq!(listed, totals, "{at}");
                let best = *totals.iter().max().unwrap();
                let leaders: Vec<usize> = (0..totals.len()).filter(|&s| totals[s] == best).collect();
                match e["winner"].as_u64() {
                    Some(w) => {
                        assert_eq!(leaders, [w as usize], "{at}");
                        assert!(best >= 200, "{at}");
                    }
                    None => assert!(leaders.len() > 1 || best < 200, "{at}"),
                }
                ended += 1;
            }
            "hit"
            | "stay"
            | "bust"
            | "assign"
            | "set_aside"
            | "frozen"
            | "flip_three"
            | "flip7"
            | "exhausted"
            | "second_chance_given" => {}
            other => panic!("unknown event {other}: {at}"),
        }
    }
    assert_eq!(ended, games);
}

#[test]
fn flip7_json_trace_replays_card_by_card() {
    for (players, policy, seed) in [
        ("4", "stay-at-25", "1"),
        ("2", "ev", "2"),
        ("6", "bust-prob:0.4", "3"),
        ("1", "stay-at-40", "4"),
    ] {
        let events = trace(&[
            "flip7",
            "--players",
            players,
            "--policy",
            policy,
            "--games",
            "30",
            "--seed",
            seed,
        ]);
        replay_flip7(&events, 30);
    }
    // Many players and long rounds reshuffle the discard pile.
    let events = trace(&[
        "flip7",
        "--players",
        "16",
        "--policy",
        "stay-at-45",
        "--games",
        "3",
        "--seed",
        "5",
    ]);
    assert!(
        events.iter().any(|e| e["event"] == "reshuffle"),
        "no reshuffle to check"
    );
    replay_flip7(&events, 3);
}

fn suit(card: &str) -> char {
    card.chars().last().unwrap()
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Replays Flip-Flush games: the 52 cards are dealt or left undealt once
/// each; a placed card leaves its player's hand and lies face-down on its
/// cell; a flip shows the very card placed there; a Flush is a line of
/// three face-up cards of one suit through the flipped cell; only players
/// still in the game act; the winner is one of them.
fn replay_flip_flush(events: &[Value], games: u64) {
    let mut hands: Vec<Cards> = Vec::new();
    let mut grid: Vec<Option<(String, bool)>> = vec![None; 9];
    let mut out: Vec<bool> = Vec::new();
    let mut ended = 0;
    for e in events {
        let at = e.to_string();
        let seat = e.get("seat").and_then(Value::as_u64).map(|s| s as usize);
        if let Some(s) = seat {
            assert!(!out[s], "a knocked-out player acts: {at}");
        }
        match text(e, "event").as_str() {
            "deal" => {
                let mut every = Cards::of(&e["undealt"]);
                hands = e["hands"].as_array().unwrap().iter().map(Cards::of).collect();
                for h in &hands {
                    for (c, n) in &h.0 {
                        *every.0.entry(c.clone()).or_default() += n;
                    }
                }
                assert_eq!(every.len(), 52, "{at}");
                assert!(every.0.values().all(|&n| n == 1), "a card dealt twice: {at}");
                grid = vec![None; 9];
                out = vec![false; hands.len()];
            }
            "place" => {
                let cell = num(e, "cell") as usize;
                let card = text(e, "card");
                hands[seat.unwrap()].take(&card, &at);
                let covered = grid[cell].take();
                match (&covered, e["covered"].as_str()) {
                    (None, None) => {}
                    (Some((c, up)), Some(shown)) => {
                        assert_eq!(c, shown, "{at}");
                        assert_eq!(e["covered_face"], if *up { "up" } else { "down" }, "{at}");
                    }
                    _ => panic!("the covered card is not the one on the cell: {at}"),
                }
                grid[cell] = Some((card, false));
            }
            "flip" => {
                let cell = num(e, "cell") as usize;
                let (card, up) = grid[cell].clone().expect("a flip of an empty cell");
                assert!(!up, "a face-up card flipped: {at}");
                assert_eq!(card, text(e, "card"), "{at}");
                grid[cell] = Some((card, true));
                let flush = LINES.iter().filter(|l| l.contains(&cell)).any(|l| {
                    let cards: Vec<&(String, bool)> = l.iter().filter_map(|&c| grid[c].as_ref()).collect();
                    cards.len() == 3 && cards.iter().all(|(c, up)| *up && suit(c) == suit(&cards[0].0))
                });
                assert_eq!(e["flush"].as_bool(), Some(flush), "{at}");
            }
            "knocked_out" => out[seat.unwrap()] = true,
            "pass" | "pays" => {}
            "play_on" => {
                // The pot the batch's last game left is settled: what the
                // players get back adds up to it, whoever won it.
                let net: i64 = e["net"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .sum();
                assert_eq!(net, num(e, "pot") as i64, "{at}");
                assert!(num(e, "games") >= 1, "{at}");
            }
            "game_end" => {
                if let Some(w) = e["winner"].as_u64() {
                    assert!(!out[w as usize], "{at}");
                }
                for t in e["tied"].as_array().unwrap() {
                    assert!(!out[t.as_u64().unwrap() as usize], "{at}");
                }
                ended += 1;
            }
            other => panic!("unknown event {other}: {at}"),
        }
    }
    assert_eq!(ended, games);
}

#[test]
fn flip_flush_json_trace_replays_card_by_card() {
    for (players, extra, seed) in [
        ("4", None, "1"),
        ("2", None, "2"),
        ("3", Some("--gambling"), "3"),
        ("6", None, "4"),
    ] {
        let mut args = vec![
            "flip-flush",
            "--players",
            players,
            "--games",
            "40",
            "--seed",
            seed,
        ];
        args.extend(extra);
        replay_flip_flush(&trace(&args), 40);
    }
    let events = trace(&[
        "flip-flush",
        "--players",
        "3",
        "--policy",
        "call-at:0.1+place-random",
        "--games",
        "60",
        "--seed",
        "5",
    ]);
    assert!(
        events.iter().any(|e| e["event"] == "knocked_out"),
        "no knock-out to check"
    );
    assert!(events.iter().any(|e| e["flush"] == true), "no Flush to check");
    replay_flip_flush(&events, 60);
}

/// The JSON trace comes from the same games as the text trace and the CSV.
#[test]
fn json_and_text_traces_play_the_same_games() {
    for game in ["flip7", "flip-flush"] {
        let dir = tempfile::tempdir().unwrap();
        let base = [game, "--games", "50", "--seed", "9"];
        let text_run = ok(&sim(
            &[&base[..], &["--trace", "--out", "a.csv"]].concat(),
            dir.path(),
        ));
        let json_run = ok(&sim(
            &[
                &base[..],
                &["--trace", "--trace-format", "json", "--out", "b.csv"],
            ]
            .concat(),
            dir.path(),
        ));
        let plain = ok(&sim(&[&base[..], &["--out", "c.csv"]].concat(), dir.path()));
        let a = std::fs::read(dir.path().join("a.csv")).unwrap();
        assert_eq!(a, std::fs::read(dir.path().join("b.csv")).unwrap(), "{game}");
        assert_eq!(a, std::fs::read(dir.path().join("c.csv")).unwrap(), "{game}");
        let ends = json_run
            .lines()
            .filter(|l| l.contains("\"event\":\"game_end\""))
            .count();
        assert_eq!(ends, 50, "{game}");
        assert!(text_run.contains("game 49: ") && plain.contains("CSV:"), "{game}");
    }
}

/// What the shared test needs of a registered game: its name, its table
/// options' names (as clap knows them) and their defaults as a run's
/// `table` shows them.
struct TableOf {
    name: &'static str,
    flags: Vec<String>,
    defaults: Value,
}

#[derive(Default)]
struct Tables(Vec<TableOf>);

impl Visitor for Tables {
    fn visit<G: Game>(&mut self) {
        use clap::Args;
        let cmd = G::Options::augment_args(clap::Command::new(G::NAME));
        let flags = cmd
            .get_arguments()
            .map(|a| a.get_id().as_str().to_string())
            .collect();
        self.0.push(TableOf {
            name: G::NAME,
            flags,
            defaults: serde_json::to_value(default_options::<G>()).unwrap(),
        });
    }
}

/// Every game's run line carries every table option (defaults included)
/// under `table`, and every game's first event carries the game's own
/// seed: the batch generator's next draw ([`next_game_seed`]).
#[test]
fn every_game_traces_its_table_options_and_each_games_seed() {
    let mut all = Tables::default();
    sim::games::each(&mut all);
    assert!(all.0.len() >= 4, "the registry lists the games");
    for g in all.0 {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            g.name,
            "--games",
            "5",
            "--seed",
            "11",
            "--trace",
            "--trace-format",
            "json",
            "--out",
            "x.csv",
        ];
        let o = sim(&args, dir.path());
        let lines: Vec<Value> = ok(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let head = &lines[0];
        let table = head["table"]
            .as_object()
            .unwrap_or_else(|| panic!("{}: {head}", g.name));
        let mut keys: Vec<&String> = table.keys().collect();
        let mut flags: Vec<&String> = g.flags.iter().collect();
        keys.sort();
        flags.sort();
        assert_eq!(keys, flags, "{}: one key per table option", g.name);
        assert_eq!(head["table"], g.defaults, "{}", g.name);
        assert_eq!(head["table"]["players"], head["players"], "{}", g.name);
        // The seed of each game, in its first event.
        let mut batch = batch_rng(11, 0);
        let mut seen = 0;
        for (i, e) in lines[1..].iter().enumerate() {
            let first = i == 0 || lines[i]["game"] != e["game"];
            if first && e.get("played_on").is_none() {
                let want = next_game_seed(&mut batch).to_string();
                assert_eq!(e["seed"], Value::String(want), "{}: {e}", g.name);
                seen += 1;
            } else if !first {
                assert!(
                    e.get("seed").is_none(),
                    "{}: a seed past a game's first event: {e}",
                    g.name
                );
            }
        }
        assert_eq!(seen, 5, "{}", g.name);
    }
    // Options given show as given, the others as their defaults.
    let dir = tempfile::tempdir().unwrap();
    let head = |args: &[&str]| -> Value {
        let mut all = args.to_vec();
        all.extend([
            "--games",
            "1",
            "--trace",
            "--trace-format",
            "json",
            "--out",
            "x.csv",
        ]);
        let out = ok(&sim(&all, dir.path()));
        serde_json::from_str(out.lines().next().unwrap()).unwrap()
    };
    let h = head(&[
        "flip7",
        "--players",
        "3",
        "--without",
        "actions",
        "--single-round",
    ]);
    assert_eq!(
        h["table"],
        serde_json::json!({"players": 3, "single_round": true, "without": ["freeze", "flip-three", "second-chance"]})
    );
    let h = head(&["flip-flush", "--players", "2", "--gambling", "--memory", "0.25"]);
    assert_eq!(
        h["table"],
        serde_json::json!({"players": 2, "gambling": true, "memory": 0.25})
    );
}

#[test]
fn trace_format_needs_trace() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(&["flip7", "--trace-format", "json"], dir.path());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--trace"), "{}", stderr(&o));
}
