//! `--trace-format json`: every line is a JSON object, and a trace is
//! enough to replay each game without the simulator and without the
//! command line: the run line carries every table option (`table`) and
//! each game's first event its seed. These tests replay traces from their
//! lines alone: every card is followed through every event, scores,
//! totals, winners and stakes are recomputed, and so is every figure of
//! the CSV the same run wrote.

use std::collections::BTreeMap;

use crate::common;
use common::*;

use serde_json::Value;
use sim::engine::columns::f6;
use sim::engine::design::Ratio;
use sim::engine::game::{Game, Visitor, default_options};
use sim::engine::rng::{batch_rng, next_game_seed};
use sim::engine::stats::{ratio, wilson95};

fn num(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .to_string()
}

/// A traced run: its first line, its events, and the rows of the CSV the
/// same run wrote (`--out`; none for a trace `sim play` saved).
pub(crate) struct Traced {
    pub(crate) head: Value,
    pub(crate) events: Vec<Value>,
    pub(crate) csv: Vec<std::collections::HashMap<String, String>>,
}

/// Runs `args` with a JSON trace and a CSV.
fn traced(args: &[&str]) -> Traced {
    let run = crate::common::traced(args);
    Traced {
        head: run.head,
        events: run.events,
        csv: csv_rows(&run.csv),
    }
}

/// Checks the columns every game's CSV shares against what a replay
/// counted: games, and each seat's wins.
fn check_core_csv(t: &Traced, games: u64, wins: &[u64]) {
    let players = num(&t.head, "players") as usize;
    assert_eq!(t.csv.len(), players);
    for (s, row) in t.csv.iter().enumerate() {
        let (lo, hi) = wilson95(wins[s], games);
        let want = [
            ("seat", s.to_string()),
            ("policy", t.head["seats"][s].as_str().unwrap().to_string()),
            ("players", players.to_string()),
            ("games", games.to_string()),
            ("wins", wins[s].to_string()),
            ("win_rate", f6(ratio(wins[s], games))),
            ("win_rate_ci95_low", f6(lo)),
            ("win_rate_ci95_high", f6(hi)),
            ("seed", text(&t.head, "seed")),
            ("sim_version", text(&t.head, "sim_version")),
        ];
        for (column, value) in want {
            assert_eq!(row[column], value, "seat {s}: {column}");
        }
    }
}

/// Flip 7 card kinds as the trace names them, in kind order.
const FLIP7_KINDS: [&str; 22] = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "12",
    "+2",
    "+4",
    "+6",
    "+8",
    "+10",
    "x2",
    "Freeze",
    "Flip Three",
    "Second Chance",
];
const X2: usize = 18;
const FREEZE: usize = 19;
const FLIP_THREE: usize = 20;
const SECOND_CHANCE: usize = 21;

/// Counts of each Flip 7 card kind: cards of one kind are interchangeable,
/// so a place holds a count per kind.
type Kinds = [u32; 22];

fn kind(v: &Value) -> usize {
    let name = v.as_str().unwrap_or_else(|| panic!("a card name: {v}"));
    FLIP7_KINDS
        .iter()
        .position(|k| *k == name)
        .unwrap_or_else(|| panic!("no card {name}"))
}

fn kinds_of(v: &Value) -> Kinds {
    let mut k = [0; 22];
    for c in v.as_array().unwrap() {
        k[kind(c)] += 1;
    }
    k
}

/// The deck of the rules (docs/rules/flip7.md): 0 once, each number n
/// n times, the six modifiers once, three of each action card; two decks
/// above 18 players; `--without` removes kinds.
fn flip7_deck(table: &Value) -> Kinds {
    let players = num(table, "players");
    let without: Vec<&str> = table["without"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let mut k = [0; 22];
    k[0] = 1;
    for (n, c) in k.iter_mut().enumerate().take(13).skip(1) {
        *c = n as u32;
    }
    if !without.contains(&"modifiers") {
        k[13..=X2].fill(1);
    }
    for (i, word) in [
        (FREEZE, "freeze"),
        (FLIP_THREE, "flip-three"),
        (SECOND_CHANCE, "second-chance"),
    ] {
        if !without.contains(&word) {
            k[i] = 3;
        }
    }
    let decks = if players > 18 { 2 } else { 1 };
    k.map(|c| c * decks)
}

/// What a seat's cards are worth: the different numbers' sum, doubled by
/// each x2, plus the +N cards (no Flip 7 bonus).
fn banked(front: &Kinds) -> u64 {
    let sum: u64 = (0..13).filter(|&n| front[n] > 0).map(|n| n as u64).sum();
    let plus: u64 = (13..X2).map(|i| u64::from(front[i]) * 2 * (i as u64 - 12)).sum();
    (sum << front[X2]) + plus
}

/// How a seat stands in a round, as the replay follows it.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Stand {
    In,
    Stayed,
    Frozen,
    Bust,
    Flip7,
}

impl Stand {
    fn outcome(self) -> &'static str {
        match self {
            Stand::In => "cut off",
            Stand::Stayed => "stayed",
            Stand::Frozen => "frozen",
            Stand::Bust => "bust",
            Stand::Flip7 => "Flip 7",
        }
    }
}

/// What a Flip 7 replay counts for the CSV, per seat.
#[derive(Default, Clone)]
struct Flip7Seat {
    wins: u64,
    final_sum: u64,
    round_sum: u64,
    game_round_sum: u64,
    by_game: Ratio,
    outcomes: std::collections::HashMap<&'static str, u64>,
    cards: u64,
}

/// Replays a Flip 7 trace from its lines alone: the table options come
/// from the run line, the shuffled deck from each game's first event. After
/// every event every card is in one place (the draw pile, in its order; the
/// cards in front of each seat; the discard pile) and the places add up to
/// the deck the rules give for the table; every flip is the draw pile's
/// top card; the scores, totals and winners are recomputed from the cards,
/// and so is every figure of the run's CSV.
/// Replays the Flip 7 games of `t` from its lines alone and checks every
/// figure of its CSV (when it has one); returns each seat's wins.
pub(crate) fn replay_flip7(t: &Traced) -> Vec<u64> {
    let table = &t.head["table"];
    let players = num(table, "players") as usize;
    let single_round = table["single_round"].as_bool().unwrap();
    let fresh_deck = table["fresh_deck"].as_bool().unwrap();
    let deck = flip7_deck(table);
    let mut pile: Vec<usize> = Vec::new(); // the top card last
    let mut pile_kinds: Kinds = [0; 22];
    let mut fronts: Vec<Kinds> = vec![[0; 22]; players];
    let mut discard: Kinds = [0; 22];
    let mut stand = vec![Stand::In; players];
    let mut flips = vec![0u64; players];
    let mut totals = vec![0u64; players];
    let mut seats = vec![Flip7Seat::default(); players];
    let (mut games, mut rounds, mut game_rounds, mut reshuffles) = (0u64, 0u64, 0u64, 0u64);
    let mut rounds_of_games: Vec<u64> = Vec::new();
    let take = |k: &mut Kinds, c: usize, at: &str| {
        assert!(k[c] > 0, "no {} there: {at}", FLIP7_KINDS[c]);
        k[c] -= 1;
    };
    for e in &t.events {
        let at = e.to_string();
        let seat = e.get("seat").and_then(Value::as_u64).map(|s| s as usize);
        match text(e, "event").as_str() {
            "game" => {
                assert_eq!(num(e, "game"), games, "{at}");
                assert!(text(e, "seed").parse::<u64>().is_ok(), "{at}");
                assert_eq!(num(e, "players") as usize, players, "{at}");
                pile_kinds = kinds_of(&e["deck"]);
                assert_eq!(pile_kinds, deck, "the game starts with the whole deck: {at}");
                pile = e["deck"].as_array().unwrap().iter().rev().map(kind).collect();
                discard = [0; 22];
                totals = vec![0; players];
                game_rounds = 0;
            }
            "round" => {
                game_rounds += 1;
                assert_eq!(num(e, "round"), game_rounds, "{at}");
                assert_eq!(num(e, "dealer"), (game_rounds - 1) % players as u64, "{at}");
                assert_eq!(
                    e.get("deck").is_some(),
                    fresh_deck,
                    "a deck with each round iff --fresh-deck: {at}"
                );
                if let Some(d) = e.get("deck") {
                    // Every card back in the deck, shuffled afresh.
                    let order: Vec<usize> = d.as_array().unwrap().iter().rev().map(kind).collect();
                    if game_rounds == 1 {
                        assert_eq!(order, pile, "the first round's deck is the game's: {at}");
                    }
                    pile_kinds = kinds_of(d);
                    assert_eq!(pile_kinds, deck, "a fresh round holds the whole deck: {at}");
                    pile = order;
                    discard = [0; 22];
                }
                assert_eq!(num(e, "draw_pile") as usize, pile.len(), "{at}");
                assert!(fronts.iter().all(|f| f.iter().all(|&c| c == 0)), "{at}");
                stand = vec![Stand::In; players];
                flips = vec![0; players];
                reshuffles = 0;
            }
            "flip" => {
                let s = seat.unwrap();
                assert_eq!(stand[s], Stand::In, "a card for a seat out of the round: {at}");
                let c = pile
                    .pop()
                    .unwrap_or_else(|| panic!("a card drawn from an empty pile: {at}"));
                assert_eq!(FLIP7_KINDS[c], text(e, "card"), "the top card: {at}");
                pile_kinds[c] -= 1;
                fronts[s][c] += 1;
                flips[s] += 1;
            }
            "hit" | "flip_three" => assert_eq!(stand[seat.unwrap()], Stand::In, "{at}"),
            "set_aside" => {
                let c = kind(&e["card"]);
                assert!(c == FREEZE || c == FLIP_THREE, "{at}");
                assert!(fronts[seat.unwrap()][c] > 0, "{at}");
            }
            "stay" | "frozen" => {
                let s = seat.unwrap();
                assert_eq!(stand[s], Stand::In, "{at}");
                stand[s] = if e["event"] == "stay" {
                    Stand::Stayed
                } else {
                    Stand::Frozen
                };
                assert_eq!(num(e, "banked"), banked(&fronts[s]), "{at}");
                if stand[s] == Stand::Frozen {
                    assert!(fronts[s][FREEZE] > 0, "frozen without a Freeze in front: {at}");
                }
            }
            "bust" => {
                let s = seat.unwrap();
                assert!(
                    (0..13).any(|n| fronts[s][n] == 2),
                    "a bust without a duplicate: {at}"
                );
                stand[s] = Stand::Bust;
            }
            "flip7" => {
                let s = seat.unwrap();
                assert_eq!((0..13).filter(|&n| fronts[s][n] > 0).count(), 7, "{at}");
                stand[s] = Stand::Flip7;
            }
            "second_chance_used" => {
                let (s, d) = (seat.unwrap(), kind(&e["duplicate"]));
                assert_eq!(fronts[s][d], 2, "{at}");
                for c in [d, SECOND_CHANCE] {
                    take(&mut fronts[s], c, &at);
                    discard[c] += 1;
                }
            }
            "second_chance_given" => {
                let (from, to) = (num(e, "from") as usize, num(e, "to") as usize);
                assert!(
                    from != to && stand[to] == Stand::In && fronts[to][SECOND_CHANCE] == 0,
                    "{at}"
                );
                take(&mut fronts[from], SECOND_CHANCE, &at);
                fronts[to][SECOND_CHANCE] += 1;
            }
            "second_chance_discarded" => {
                let s = seat.unwrap();
                assert!(
                    (0..players).all(|o| o == s || stand[o] != Stand::In || fronts[o][SECOND_CHANCE] > 0),
                    "discarded while someone could take it: {at}"
                );
                take(&mut fronts[s], SECOND_CHANCE, &at);
                discard[SECOND_CHANCE] += 1;
            }
            "assign" => {
                let (from, to, c) = (num(e, "from") as usize, num(e, "to") as usize, kind(&e["card"]));
                assert!(c == FREEZE || c == FLIP_THREE, "{at}");
                assert_eq!(stand[to], Stand::In, "{at}");
                take(&mut fronts[from], c, &at);
                fronts[to][c] += 1;
            }
            "fizzle" | "discard" => {
                let (s, c) = (seat.unwrap(), kind(&e["card"]));
                if e["event"] == "fizzle" {
                    assert_ne!(stand[s], Stand::In, "{at}");
                }
                take(&mut fronts[s], c, &at);
                discard[c] += 1;
            }
            "reshuffle" => {
                assert!(pile.is_empty(), "reshuffled before the pile ran out: {at}");
                let new = kinds_of(&e["draw_pile"]);
                assert_eq!(new, discard, "the new pile is the discard pile: {at}");
                reshuffles += 1;
                assert_eq!(num(e, "reshuffles"), reshuffles, "{at}");
                pile = e["draw_pile"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .rev()
                    .map(kind)
                    .collect();
                pile_kinds = new;
                discard = [0; 22];
            }
            "exhausted" => {
                assert!(pile.is_empty(), "{at}");
                if e["cycled"] == true {
                    assert_eq!(reshuffles, 1000, "{at}");
                } else {
                    assert!(discard.iter().all(|&c| c == 0), "{at}");
                }
            }
            "round_end" => {
                assert_eq!(num(e, "round"), game_rounds, "{at}");
                let mut in_play = [0; 22];
                for (s, v) in e["seats"].as_array().unwrap().iter().enumerate() {
                    assert_eq!(num(v, "seat") as usize, s, "{at}");
                    let f = &fronts[s];
                    let numbers: Vec<u64> = (0..13).filter(|&n| f[n] > 0).map(|n| n as u64).collect();
                    let listed: Vec<u64> = v["numbers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|n| n.as_u64().unwrap())
                        .collect();
                    assert_eq!(listed, numbers, "{at}");
                    assert_eq!(num(v, "x2"), u64::from(f[X2]), "{at}");
                    let plus: u64 = (13..X2).map(|i| u64::from(f[i]) * 2 * (i as u64 - 12)).sum();
                    assert_eq!(num(v, "plus"), plus, "{at}");
                    assert_eq!(v["second_chance"].as_bool(), Some(f[SECOND_CHANCE] == 1), "{at}");
                    assert_eq!(num(v, "cards"), u64::from(f.iter().sum::<u32>()), "{at}");
                    assert_eq!(text(v, "outcome"), stand[s].outcome(), "{at}");
                    let score = match stand[s] {
                        Stand::Bust => 0,
                        Stand::Flip7 => banked(f) + 15,
                        _ => banked(f),
                    };
                    assert_eq!(num(v, "score"), score, "{at}");
                    totals[s] += score;
                    assert_eq!(num(v, "total"), totals[s], "{at}");
                    let st = &mut seats[s];
                    st.round_sum += score;
                    st.game_round_sum += score;
                    st.cards += flips[s];
                    *st.outcomes.entry(stand[s].outcome()).or_default() += 1;
                    for (a, b) in in_play.iter_mut().zip(f) {
                        *a += b;
                    }
                }
                assert_eq!(kinds_of(&e["discarded"]), in_play, "{at}");
                for (d, p) in discard.iter_mut().zip(in_play) {
                    *d += p;
                }
                fronts = vec![[0; 22]; players];
                rounds += 1;
            }
            "game_end" => {
                let listed: Vec<u64> = e["totals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_u64().unwrap())
                    .collect();
                assert_eq!(listed, totals, "{at}");
                assert_eq!(num(e, "rounds"), game_rounds, "{at}");
                let best = *totals.iter().max().unwrap();
                let leaders: Vec<usize> = (0..players).filter(|&s| totals[s] == best).collect();
                let winner = (leaders.len() == 1 && (single_round || best >= 200)).then_some(leaders[0]);
                assert_eq!(e["winner"].as_u64().map(|w| w as usize), winner, "{at}");
                if let Some(w) = winner {
                    seats[w].wins += 1;
                }
                for (s, st) in seats.iter_mut().enumerate() {
                    st.final_sum += totals[s];
                    st.by_game.add(st.game_round_sum as i64, game_rounds as i64);
                    st.game_round_sum = 0;
                }
                games += 1;
                rounds_of_games.push(game_rounds);
            }
            other => panic!("unknown event {other}: {at}"),
        }
        // Every card in one place, and every card of the deck somewhere.
        let mut all = pile_kinds;
        for f in fronts.iter().chain([&discard]) {
            for (a, b) in all.iter_mut().zip(f) {
                *a += b;
            }
        }
        assert_eq!(all, deck, "the cards do not add up to the deck after {at}");
    }
    assert_eq!(games, num(&t.head, "games"));
    // Every figure of the CSV, from the replay's counts.
    let wins: Vec<u64> = seats.iter().map(|s| s.wins).collect();
    if t.csv.is_empty() {
        return wins;
    }
    check_core_csv(t, games, &wins);
    for (s, (st, row)) in seats.iter().zip(&t.csv).enumerate() {
        let rate = |o: &str| f6(ratio(st.outcomes.get(o).copied().unwrap_or(0), rounds));
        let want = [
            ("mean_final_score", f6(ratio(st.final_sum, games))),
            ("mean_rounds_per_game", f6(ratio(rounds, games))),
            ("rounds", rounds.to_string()),
            ("mean_round_score", f6(ratio(st.round_sum, rounds))),
            ("round_score_stderr", f6(st.by_game.stderr().unwrap_or(f64::NAN))),
            ("bust_rate", rate("bust")),
            ("stayed_rate", rate("stayed")),
            ("frozen_rate", rate("frozen")),
            ("flip7_rate", rate("Flip 7")),
            ("cut_off_rate", rate("cut off")),
            ("mean_cards_per_round", f6(ratio(st.cards, rounds))),
            ("cheats", "0".to_string()),
            ("rounds_per_game_p10", percentile(&rounds_of_games, 10)),
            ("rounds_per_game_median", percentile(&rounds_of_games, 50)),
            ("rounds_per_game_p90", percentile(&rounds_of_games, 90)),
        ];
        for (column, value) in &want {
            assert_eq!(&row[*column], value, "seat {s}: {column}");
        }
        assert_eq!(row.len(), 8 + want.len() + 2, "every column checked");
    }
    wins
}

/// 1,000 games replayed from the trace alone, with a line-up that uses
/// every action-card choice; then tables that reshuffle often, two decks,
/// house rules, single rounds and a lone player.
#[test]
fn flip7_json_trace_replays_every_card_scores_and_csv() {
    let t = traced(&[
        "flip7",
        "--policy",
        "stay-at-25,ev+freeze:leader,bust-prob:0.3+flip-three:self-when-safe,cards-4+second-chance:fewest-cards",
        "--games",
        "1000",
        "--seed",
        "1",
    ]);
    replay_flip7(&t);
    for args in [
        &[
            "--players",
            "16",
            "--policy",
            "stay-at-45",
            "--games",
            "4",
            "--seed",
            "5",
        ][..],
        &[
            "--players",
            "24",
            "--policy",
            "stay-at-30",
            "--games",
            "3",
            "--seed",
            "6",
        ],
        &[
            "--players",
            "3",
            "--without",
            "second-chance,modifiers",
            "--games",
            "30",
            "--seed",
            "7",
        ],
        &["--players", "5", "--single-round", "--games", "50", "--seed", "8"],
        &["--players", "3", "--fresh-deck", "--games", "40", "--seed", "10"],
        &[
            "--players",
            "1",
            "--policy",
            "stay-at-40",
            "--games",
            "20",
            "--seed",
            "9",
        ],
    ] {
        let t = traced(&[&["flip7"][..], args].concat());
        replay_flip7(&t);
        if args[1] == "16" {
            assert!(
                t.events.iter().any(|e| e["event"] == "reshuffle"),
                "no reshuffle to check"
            );
        }
    }
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

/// Where a Flip-Flush card is.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Spot {
    /// Set aside at the deal, never seen.
    Undealt,
    /// In a seat's hand.
    Hand(usize),
    /// On a cell of the grid, face-up or not.
    Cell(usize, bool),
    /// Out of the game: covered on the grid, or in a knocked-out hand.
    Gone,
}

/// What a Flip-Flush replay counts for the CSV, per seat.
#[derive(Default, Clone)]
struct FlushSeat {
    wins: u64,
    by_call: u64,
    last_standing: u64,
    ties: u64,
    wrong: u64,
    missed: u64,
    turns: u64,
    calls: u64,
    net_sum: i64,
    by_pot: Ratio,
    pot_net: i64,
}

/// Replays a Flip-Flush trace from its lines alone (the table options from
/// the run line): every one of the 52 cards is in one place after every
/// event (undealt, a hand, a cell face-down or face-up, out of the game);
/// a placed card comes from its player's hand, a flip shows the card
/// placed there, `flush` is recomputed from the grid, and each flip's
/// outcome (a win, a knock-out or a stake) follows from the call and the
/// Flush; passes happen only when the rules allow them; ties, winners,
/// turns, pots and stakes are recomputed, and so is every figure of the
/// run's CSV. Games played on (gambling) are followed like the others and
/// count only their stakes.
/// Replays a Flip-Flush trace card for card and returns each seat's wins;
/// with the CSV of the same run (none for a trace `sim play` saved) every
/// figure of it is checked too. A `sim play` trace is one game dealt from
/// the run's own seed, and a pot a tied gambling game leaves stays unsettled.
pub(crate) fn replay_flip_flush(t: &Traced) -> Vec<u64> {
    let table = &t.head["table"];
    let players = num(table, "players") as usize;
    let gambling = table["gambling"].as_bool().unwrap();
    let mut spot: BTreeMap<String, Spot> = BTreeMap::new();
    let mut out = vec![false; players];
    let mut turns = vec![0u64; players];
    let mut seats = vec![FlushSeat::default(); players];
    // Gambling: the pot, what each seat paid in since it was last empty,
    // each seat's stakes this game, counted games since the pot was empty.
    let (mut pot, mut paid, mut net) = (0u64, vec![0i64; players], vec![0i64; players]);
    let mut pot_games = 0i64;
    // What the last flip decides: (seat, fault) expected next, or a win.
    let mut due: Option<(usize, &str)> = None;
    let mut won_by_call: Option<usize> = None;
    let (mut games, mut counted_game, mut last_counted) = (0u64, None::<u64>, 0u64);
    // The games played on since the batch's last game, and their stakes.
    let (mut on_games, mut on_net) = (0u64, vec![0i64; players]);
    // Each game's seed is the next draw of its batch's generator, games
    // played on included.
    let run_seed: u64 = text(&t.head, "seed").parse().unwrap();
    let mut batch = batch_rng(run_seed, 0);
    for e in &t.events {
        let at = e.to_string();
        let event = text(e, "event");
        let played_on = e.get("played_on").and_then(Value::as_u64);
        let seat = e.get("seat").and_then(Value::as_u64).map(|s| s as usize);
        if let Some(s) = seat {
            assert!(!out[s], "a knocked-out player acts: {at}");
        }
        if let Some((s, fault)) = due.take() {
            let want = if gambling { "pays" } else { "knocked_out" };
            assert_eq!(
                (event.as_str(), seat, e["fault"].as_str()),
                (want, Some(s), Some(fault)),
                "{at}"
            );
        }
        match event.as_str() {
            "deal" => {
                match played_on {
                    None => {
                        assert_eq!(num(e, "game"), games, "{at}");
                        if games % 1024 == 0 {
                            batch = batch_rng(run_seed, games / 1024);
                        }
                        counted_game = Some(games);
                        on_games = 0;
                        on_net = vec![0; players];
                    }
                    Some(k) => {
                        assert_eq!(num(e, "game"), last_counted, "{at}");
                        on_games += 1;
                        assert_eq!(k, on_games, "{at}");
                        counted_game = None;
                    }
                }
                let seed = match t.csv.is_empty() {
                    true => text(&t.head, "seed"),
                    false => next_game_seed(&mut batch).to_string(),
                };
                assert_eq!(text(e, "seed"), seed, "{at}");
                assert_eq!(num(e, "players") as usize, players, "{at}");
                spot.clear();
                for c in e["undealt"].as_array().unwrap() {
                    spot.insert(c.as_str().unwrap().to_string(), Spot::Undealt);
                }
                for (s, h) in e["hands"].as_array().unwrap().iter().enumerate() {
                    assert_eq!(h.as_array().unwrap().len(), 8, "{at}");
                    for c in h.as_array().unwrap() {
                        let fresh = spot.insert(c.as_str().unwrap().to_string(), Spot::Hand(s));
                        assert!(fresh.is_none(), "a card dealt twice: {at}");
                    }
                }
                out = vec![false; players];
                turns = vec![0; players];
                net = vec![0; players];
                if gambling {
                    pot += players as u64;
                    for (p, n) in paid.iter_mut().zip(&mut net) {
                        *p += 1;
                        *n -= 1;
                    }
                    assert_eq!(num(e, "pot"), pot, "the pot after the antes: {at}");
                }
            }
            "place" => {
                let (s, cell, card) = (seat.unwrap(), num(e, "cell") as usize, text(e, "card"));
                assert_eq!(
                    spot.get(&card),
                    Some(&Spot::Hand(s)),
                    "a card not in the hand: {at}"
                );
                let on = spot
                    .iter()
                    .find(|(_, w)| matches!(w, Spot::Cell(c, _) if *c == cell));
                match (on, e["covered"].as_str()) {
                    (None, None) => assert!(e["covered_face"].is_null(), "{at}"),
                    (Some((c, w)), Some(shown)) => {
                        assert_eq!(c, shown, "{at}");
                        let up = matches!(w, Spot::Cell(_, true));
                        assert_eq!(e["covered_face"], if up { "up" } else { "down" }, "{at}");
                        spot.insert(shown.to_string(), Spot::Gone);
                    }
                    _ => panic!("the covered card is not the one on the cell: {at}"),
                }
                assert!(e["remembered"].is_boolean(), "{at}");
                spot.insert(card, Spot::Cell(cell, false));
                turns[s] += 1;
            }
            "flip" => {
                let (s, cell, card) = (seat.unwrap(), num(e, "cell") as usize, text(e, "card"));
                assert_eq!(spot.get(&card), Some(&Spot::Cell(cell, false)), "{at}");
                spot.insert(card, Spot::Cell(cell, true));
                let up: Vec<Option<&String>> = (0..9)
                    .map(|c| {
                        spot.iter()
                            .find(|(_, w)| **w == Spot::Cell(c, true))
                            .map(|(n, _)| n)
                    })
                    .collect();
                let flush = LINES.iter().filter(|l| l.contains(&cell)).any(|l| {
                    let cards: Vec<&String> = l.iter().filter_map(|&c| up[c]).collect();
                    cards.len() == 3 && cards.iter().all(|c| suit(c) == suit(cards[0]))
                });
                assert_eq!(e["flush"].as_bool(), Some(flush), "{at}");
                let call = e["call"].as_bool().unwrap();
                turns[s] += 1;
                if counted_game.is_some() {
                    seats[s].calls += u64::from(call);
                }
                match (call, flush) {
                    (true, true) => won_by_call = Some(s),
                    (true, false) => due = Some((s, "wrong_call")),
                    (false, true) => due = Some((s, "missed_flush")),
                    (false, false) => {}
                }
            }
            "pass" => {
                let s = seat.unwrap();
                assert!(
                    !spot.values().any(|w| *w == Spot::Hand(s)),
                    "a pass with cards in hand: {at}"
                );
                assert!(
                    !spot.values().any(|w| matches!(w, Spot::Cell(_, false))),
                    "a pass with a face-down card: {at}"
                );
                turns[s] += 1;
            }
            "knocked_out" | "pays" => {
                let s = seat.unwrap();
                let wrong = text(e, "fault") == "wrong_call";
                if counted_game.is_some() {
                    seats[s].wrong += u64::from(wrong);
                    seats[s].missed += u64::from(!wrong);
                }
                if event == "pays" {
                    assert!(gambling, "{at}");
                    pot += 1;
                    paid[s] += 1;
                    net[s] -= 1;
                    assert_eq!(num(e, "pot"), pot, "{at}");
                } else {
                    assert!(!gambling, "{at}");
                    out[s] = true;
                    for w in spot.values_mut() {
                        if *w == Spot::Hand(s) {
                            *w = Spot::Gone;
                        }
                    }
                }
            }
            "game_end" => {
                let alive: Vec<usize> = (0..players).filter(|&s| !out[s]).collect();
                let (result, winner) = (text(e, "result"), e["winner"].as_u64().map(|w| w as usize));
                match result.as_str() {
                    "call" => assert_eq!(winner, won_by_call, "{at}"),
                    "last_standing" => assert_eq!((alive.len(), winner), (1, Some(alive[0])), "{at}"),
                    "tie" => {
                        assert!(winner.is_none() && won_by_call.is_none(), "{at}");
                        assert!(
                            spot.values()
                                .all(|w| !matches!(w, Spot::Hand(_) | Spot::Cell(_, false))),
                            "{at}"
                        );
                    }
                    other => panic!("result {other}: {at}"),
                }
                let tied: Vec<usize> = e["tied"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_u64().unwrap() as usize)
                    .collect();
                assert_eq!(
                    tied,
                    if result == "tie" {
                        alive.clone()
                    } else {
                        Vec::new()
                    },
                    "{at}"
                );
                assert_eq!(num(e, "turns"), turns.iter().sum::<u64>(), "{at}");
                if gambling {
                    let pot_won = pot;
                    if let Some(w) = winner {
                        net[w] += pot as i64;
                        pot = 0;
                        paid = vec![0; players];
                    }
                    assert_eq!(
                        num(e, "pot"),
                        if winner.is_some() { pot_won } else { pot },
                        "{at}"
                    );
                    let listed: Vec<i64> = e["net"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_i64().unwrap())
                        .collect();
                    assert_eq!(listed, net, "{at}");
                }
                if counted_game.is_some() {
                    for (s, st) in seats.iter_mut().enumerate() {
                        st.wins += u64::from(winner == Some(s));
                        st.by_call += u64::from(winner == Some(s) && result == "call");
                        st.last_standing += u64::from(winner == Some(s) && result == "last_standing");
                        st.ties += u64::from(tied.contains(&s));
                        st.turns += turns[s];
                    }
                    pot_games += 1;
                    last_counted = games;
                    games += 1;
                } else {
                    for (a, b) in on_net.iter_mut().zip(&net) {
                        *a += b;
                    }
                }
                for (st, n) in seats.iter_mut().zip(&net) {
                    st.net_sum += n;
                    st.pot_net += n;
                }
                if gambling && pot == 0 {
                    for st in &mut seats {
                        st.by_pot.add(st.pot_net, pot_games);
                        st.pot_net = 0;
                    }
                    pot_games = 0;
                }
                won_by_call = None;
            }
            "play_on" => {
                assert_eq!(num(e, "game"), last_counted, "{at}");
                assert_eq!(num(e, "games"), on_games, "{at}");
                let returned = e["returned"].as_bool().unwrap();
                assert_eq!(returned, pot > 0, "{at}");
                if returned {
                    assert_eq!(on_games, 256, "{at}");
                    for (s, st) in seats.iter_mut().enumerate() {
                        on_net[s] += paid[s];
                        st.net_sum += paid[s];
                        st.pot_net += paid[s];
                        st.by_pot.add(st.pot_net, pot_games);
                        st.pot_net = 0;
                    }
                    pot = 0;
                    paid = vec![0; players];
                    pot_games = 0;
                }
                let listed: Vec<i64> = e["net"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                assert_eq!(listed, on_net, "{at}");
            }
            other => panic!("unknown event {other}: {at}"),
        }
        // The 52 cards, each in one place; at most one card on a cell.
        assert_eq!(spot.len(), 52, "{at}");
        let mut cells = [0; 9];
        for w in spot.values() {
            if let Spot::Cell(c, _) = w {
                cells[*c] += 1;
            }
        }
        assert!(cells.iter().all(|&n| n <= 1), "{at}");
    }
    assert_eq!(games, num(&t.head, "games"));
    let wins: Vec<u64> = seats.iter().map(|s| s.wins).collect();
    if t.csv.is_empty() {
        return wins;
    }
    assert_eq!(pot, 0, "every pot is settled");
    check_core_csv(t, games, &wins);
    for (s, (st, row)) in seats.iter().zip(&t.csv).enumerate() {
        let mut want = vec![
            ("ties", st.ties.to_string()),
            ("tie_rate", f6(ratio(st.ties, games))),
            ("wins_by_call", st.by_call.to_string()),
            ("wins_last_standing", st.last_standing.to_string()),
            ("knocked_out_wrong_call", st.wrong.to_string()),
            ("knocked_out_missed_flush", st.missed.to_string()),
            ("mean_turns", f6(ratio(st.turns, games))),
            ("mean_calls", f6(ratio(st.calls, games))),
        ];
        if gambling {
            let (lo, hi) = st.by_pot.mean_interval().unwrap_or((f64::NAN, f64::NAN));
            want.extend([
                ("mean_net_stakes", f6(st.net_sum as f64 / games as f64)),
                ("mean_net_stakes_ci95_low", f6(lo)),
                ("mean_net_stakes_ci95_high", f6(hi)),
            ]);
        }
        for (column, value) in &want {
            assert_eq!(&row[*column], value, "seat {s}: {column}");
        }
        assert_eq!(row.len(), 8 + want.len() + 2, "every column checked");
    }
    let total: i64 = seats.iter().map(|s| s.net_sum).sum();
    assert_eq!(total, 0, "every stake paid comes out again");
    wins
}

/// 1,000 games replayed from the trace alone; then gambling tables (a pot
/// won in games played on, and one nobody wins, returned after 256),
/// knock-outs, two and six players, and a short memory.
#[test]
fn flip_flush_json_trace_replays_every_card_and_csv() {
    replay_flip_flush(&traced(&["flip-flush", "--games", "1000", "--seed", "1"]));
    let t = traced(&[
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
        t.events.iter().any(|e| e["event"] == "knocked_out"),
        "no knock-out to check"
    );
    replay_flip_flush(&t);
    let t = traced(&[
        "flip-flush",
        "--players",
        "2",
        "--policy",
        "never-call",
        "--gambling",
        "--games",
        "3",
        "--seed",
        "2",
    ]);
    assert!(
        t.events
            .iter()
            .any(|e| e["event"] == "play_on" && e["returned"] == true),
        "no pot returned"
    );
    replay_flip_flush(&t);
    for args in [
        &["--players", "3", "--gambling", "--games", "1100", "--seed", "7"][..],
        &[
            "--players",
            "6",
            "--memory",
            "0.5",
            "--games",
            "100",
            "--seed",
            "4",
        ],
    ] {
        let t = traced(&[&["flip-flush"][..], args].concat());
        if args[2] == "--gambling" {
            assert!(
                t.events
                    .iter()
                    .any(|e| e["event"] == "play_on" && e["winner"].is_u64()),
                "no pot won in games played on"
            );
        }
        replay_flip_flush(&t);
    }
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
        serde_json::json!({"players": 3, "single_round": true, "fresh_deck": false, "without": ["freeze", "flip-three", "second-chance"]})
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

/// The p-th percentile of the rounds games took, as the CSV reference
/// defines it: the smallest r such that at least p% of the games took r
/// rounds or fewer.
fn percentile(rounds: &[u64], p: u64) -> String {
    let mut sorted = rounds.to_vec();
    sorted.sort_unstable();
    let n = sorted.len() as u64;
    sorted
        .iter()
        .enumerate()
        .find(|&(i, _)| (i as u64 + 1) * 100 >= p * n)
        .map(|(_, r)| r.to_string())
        .unwrap_or_default()
}
