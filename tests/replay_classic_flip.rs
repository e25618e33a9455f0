//! Classic Flip games replayed from their JSON trace alone
//! (`docs/rules/classic-flip.md`, "The trace as JSON"): the replayer is
//! given nothing but the trace (the table options come from the run
//! line). It puts every card where each event says, checks each move
//! against the rules (whose turn it is, what a draw takes off the pile,
//! what a Steal's random index picks, how a Chaos deals, how a challenge
//! is judged, the hand limit), checks that every card of the deck is in
//! exactly one place after every event, scores every round from the cards,
//! finds every winner, and from the trace alone recomputes every figure of
//! the CSV the same run wrote.

use std::collections::HashMap;

use crate::common;
use common::*;

use serde_json::Value;
use sim::games::classic_flip::stats::{ClassicStats, LADDER, csv_columns};

fn num(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn seat_of(v: &Value, key: &str) -> usize {
    num(v, key) as usize
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("{key} in {v}"))
}

const ACTIONS: [&str; 8] = [
    "Draw/Take",
    "Draw/Steal",
    "Draw/Block",
    "Swap/Reboot",
    "Chaos/+Turn",
    "2X",
    "7>>>10",
    "Any",
];
const RANKS: [&str; 13] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS: [char; 4] = ['R', 'B', 'P', 'G'];
const FUNCS: [&str; 8] = [
    "draw",
    "take",
    "steal",
    "block",
    "swap",
    "reboot",
    "chaos",
    "plus_turn",
];
/// The functions of each action card, by [`FUNCS`] index (Any: all).
const OFFERS: [&[usize]; 8] = [
    &[0, 1],
    &[0, 2],
    &[0, 3],
    &[4, 5],
    &[6, 7],
    &[],
    &[],
    &[0, 1, 2, 3, 4, 5, 6, 7],
];
const EIGHT: u8 = 6;
const GOLD: u8 = 3;
const TWO_X: u8 = 5;
const SEVEN_TEN: u8 = 6;
const ANY: u8 = 7;
const DRAW_BLOCK: u8 = 2;

/// What a card is, read from its name in the trace.
#[derive(Clone, Copy, Debug)]
struct Meta {
    /// The documented card order: copy, then suits R B P G ranks 2..A,
    /// then the action cards.
    order: u16,
    suit: Option<u8>,
    rank: Option<u8>,
    action: Option<u8>,
}

fn meta(name: &str) -> Meta {
    let (base, copy) = match name.split_once('#') {
        Some((b, k)) => (b, k.parse::<u16>().unwrap() - 1),
        None => (name, 0),
    };
    if let Some(a) = ACTIONS.iter().position(|&x| x == base) {
        return Meta {
            order: copy * 60 + 52 + a as u16,
            suit: None,
            rank: None,
            action: Some(a as u8),
        };
    }
    let s = SUITS
        .iter()
        .position(|&x| base.starts_with(x))
        .unwrap_or_else(|| panic!("card {name}"));
    let r = RANKS
        .iter()
        .position(|&x| x == &base[1..])
        .unwrap_or_else(|| panic!("card {name}"));
    Meta {
        order: copy * 60 + (s * 13 + r) as u16,
        suit: Some(s as u8),
        rank: Some(r as u8),
        action: None,
    }
}

/// The table options, from the run line.
#[derive(Clone, Debug)]
struct Options {
    players: usize,
    decks: u16,
    gold: Vec<u8>,
    /// Functions switched off, by [`FUNCS`] index.
    off: Vec<usize>,
    /// Action cards removed.
    removed: Vec<u8>,
    target: u64,
    round_cap: u64,
    community_multipliers: bool,
}

impl Options {
    /// The options of the run line's `table`: every option as the run
    /// played it.
    fn from_run(head: &Value) -> Options {
        let t = &head["table"];
        let players = num(t, "players") as usize;
        assert_eq!(num(head, "players") as usize, players);
        let words = |key: &str| -> Vec<String> {
            t[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_str().unwrap().to_string())
                .collect()
        };
        let rank = |r: &str| {
            RANKS
                .iter()
                .position(|&x| x == r)
                .unwrap_or_else(|| panic!("rank {r}")) as u8
        };
        let mut o = Options {
            players,
            decks: num(t, "decks") as u16,
            gold: words("gold_ranks").iter().map(|r| rank(r)).collect(),
            off: Vec::new(),
            removed: Vec::new(),
            target: num(t, "target"),
            round_cap: num(t, "round_cap"),
            community_multipliers: text(t, "community_multipliers") == "on",
        };
        for w in words("without") {
            match w.as_str() {
                "2x" => o.removed.push(TWO_X),
                "7-10" => o.removed.push(SEVEN_TEN),
                "any" => o.removed.push(ANY),
                f => o.off.push(
                    FUNCS
                        .iter()
                        .position(|&x| x == f.replace('-', "_"))
                        .unwrap_or_else(|| panic!("{f}")),
                ),
            }
        }
        // A dual card with both functions off leaves the deck.
        for (a, offers) in OFFERS.iter().enumerate().take(5) {
            if offers.iter().all(|f| o.off.contains(f)) {
                o.removed.push(a as u8);
            }
        }
        o
    }

    /// Every card's name, in card order.
    fn deck(&self) -> Vec<String> {
        let mut v = Vec::new();
        for copy in 0..self.decks {
            let tag = |n: String| {
                if self.decks == 2 {
                    format!("{n}#{}", copy + 1)
                } else {
                    n
                }
            };
            for (s, l) in SUITS.iter().enumerate() {
                for (r, rn) in RANKS.iter().enumerate() {
                    if s < 3 || self.gold.contains(&(r as u8)) {
                        v.push(tag(format!("{l}{rn}")));
                    }
                }
            }
            for (a, an) in ACTIONS.iter().enumerate() {
                if !self.removed.contains(&(a as u8)) {
                    v.push(tag(an.to_string()));
                }
            }
        }
        v
    }
}

/// Card sets as bits, bit i for the i-th card of the deck in card order
/// (so that a set's lowest bits are its lowest cards).
type Set = u128;

struct Deck {
    index: HashMap<String, u8>,
    meta: Vec<Meta>,
    all: Set,
}

impl Deck {
    fn new(o: &Options) -> Deck {
        let names = o.deck();
        let meta: Vec<Meta> = names.iter().map(|n| meta(n)).collect();
        assert!(meta.windows(2).all(|w| w[0].order < w[1].order));
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u8))
            .collect();
        let all = if names.len() == 128 {
            !0
        } else {
            (1u128 << names.len()) - 1
        };
        Deck { index, meta, all }
    }
    fn card(&self, v: &Value) -> u8 {
        let n = v.as_str().unwrap_or_else(|| panic!("a card name: {v}"));
        *self
            .index
            .get(n)
            .unwrap_or_else(|| panic!("no card {n} in the deck"))
    }
    fn opt(&self, v: &Value) -> Option<u8> {
        (!v.is_null()).then(|| self.card(v))
    }
    fn list(&self, v: &Value) -> Vec<u8> {
        v.as_array().unwrap().iter().map(|c| self.card(c)).collect()
    }
    fn set(&self, v: &Value) -> Set {
        let l = self.list(v);
        let s: Set = l.iter().fold(0, |m, &c| m | 1 << c);
        assert_eq!(s.count_ones() as usize, l.len(), "a card twice in {v}");
        s
    }
    fn cards(&self, s: Set) -> impl Iterator<Item = &Meta> {
        (0..128).filter(move |i| s >> i & 1 == 1).map(|i| &self.meta[i])
    }
    /// Cards of `s` that raise the limit to 10 (7>>>10, Any).
    fn limit10(&self, s: Set) -> Vec<u8> {
        (0..self.meta.len() as u8)
            .filter(|&i| s >> i & 1 == 1 && matches!(self.meta[usize::from(i)].action, Some(SEVEN_TEN | ANY)))
            .collect()
    }

    /// The round score of combined hand `all`, multipliers counted from
    /// `mult` only: W = 8s + Any; for each rank but 8, naturals + W; five
    /// score 10, six or more 20, doubled once per 2X, Gold 8, Any and gold
    /// card of the rank; the best rank counts.
    fn score(&self, all: Set, mult: Set) -> u64 {
        let mut nat = [0u32; 13];
        let mut wild = 0;
        for m in self.cards(all) {
            match (m.rank, m.action) {
                (Some(EIGHT), _) | (_, Some(ANY)) => wild += 1,
                (Some(r), _) => nat[usize::from(r)] += 1,
                _ => {}
            }
        }
        let mut doublings = 0;
        let mut gold = [0u32; 13];
        for m in self.cards(mult) {
            match (m.suit, m.rank, m.action) {
                (Some(GOLD), Some(EIGHT), _) | (_, _, Some(TWO_X | ANY)) => doublings += 1,
                (Some(GOLD), Some(r), _) => gold[usize::from(r)] += 1,
                _ => {}
            }
        }
        (0..13)
            .filter(|&r| r != usize::from(EIGHT))
            .map(|r| {
                let k = nat[r] + wild;
                let base: u64 = match k {
                    0..=4 => 0,
                    5 => 10,
                    _ => 20,
                };
                base << (doublings + gold[r])
            })
            .max()
            .unwrap()
    }
}

/// A round as the trace has it, card by card.
struct Round {
    hands: Vec<Set>,
    community: [Option<u8>; 3],
    /// Draw pile, top first.
    pile: Vec<u8>,
    /// Cards of the old pile taken by a draw a reshuffle interrupted.
    pending: Vec<u8>,
    discard: Set,
    played: Option<u8>,
    penalised: Vec<bool>,
    failed: Vec<bool>,
    protected: Vec<bool>,
    caller: Option<usize>,
    turn: u64,
    /// The seat whose turn it is (from the first turn event).
    seat: Option<usize>,
    /// The turn's start option is still to come.
    at_start: bool,
    /// The play of this turn: its function and seat.
    play: Option<(usize, usize)>,
    extra_due: bool,
    /// Cards the draw in progress should take (start draw, Draw, Reboot).
    draw_due: Option<usize>,
    /// The last penalty discards (a winning challenger takes from them).
    penalty_pile: Set,
    cut_off: bool,
}

/// Replays every game of `run` and checks the CSV it wrote.
fn replay(run: &Run) {
    let mut r = Replayer::new(&run.head);
    for e in &run.events {
        r.event(e);
    }
    r.finish(&run.csv);
}

/// Replays the games of a saved trace (`sim play classic-flip --save`):
/// every event checked as [`replay`] checks a run's, the CSV too when
/// there is one. Returns each seat's wins.
pub(crate) fn replay_saved(run: &Run) -> Vec<u64> {
    let mut r = Replayer::new(&run.head);
    for e in &run.events {
        r.event(e);
    }
    let wins = r.acc.seats.iter().map(|s| s.wins).collect();
    if run.csv.is_empty() {
        assert!(r.r.is_none(), "the last round ends");
        assert_eq!(r.game, num(&r.head, "games"), "every game ends");
    } else {
        r.finish(&run.csv);
    }
    wins
}

/// Replays `args` as the run writes its trace.
fn replay_streamed(args: &[&str]) {
    let mut r: Option<Replayer> = None;
    let csv = streamed(args, |e| match r.as_mut() {
        Some(r) => r.event(e),
        None => r = Some(Replayer::new(e)),
    });
    r.unwrap().finish(&csv);
}

/// The replay of a run, event by event.
struct Replayer {
    head: Value,
    o: Options,
    deck: Deck,
    acc: ClassicStats,
    totals: Vec<u64>,
    rounds_in_game: u64,
    r: Option<Round>,
    game: u64,
    /// Per round, per seat: turns, calls, call points, call turn,
    /// challenges, won, challenged, caught, over limit, the functions
    /// (8), community takes, draw-two starts.
    counts: Vec<[u64; 19]>,
}

impl Replayer {
    fn new(head: &Value) -> Replayer {
        assert_eq!(head["event"], "run", "{head}");
        let o = Options::from_run(head);
        let n = o.players;
        Replayer {
            head: head.clone(),
            deck: Deck::new(&o),
            o,
            acc: ClassicStats::new(n),
            totals: vec![0; n],
            rounds_in_game: 0,
            r: None,
            game: 0,
            counts: vec![[0; 19]; n],
        }
    }

    fn finish(self, csv: &str) {
        assert!(self.r.is_none());
        assert_eq!(self.game, num(&self.head, "games"), "every game ends");
        compare_csv(&self.head, csv, &self.acc);
    }

    fn event(&mut self, e: &Value) {
        let Replayer {
            o,
            deck,
            acc,
            totals,
            rounds_in_game,
            r,
            game,
            counts,
            ..
        } = self;
        let (o, deck) = (&*o, &*deck);
        let n = o.players;
        let rounds_in_game = &mut *rounds_in_game;
        let game = &mut *game;
        let at = || e.to_string();
        assert_eq!(num(e, "game"), *game, "{}", at());
        let kind = text(e, "event");
        // A game's first event carries the seed of the game's generator.
        let first = kind == "deal" && *rounds_in_game == 0;
        assert_eq!(
            e["seed"].as_str().is_some_and(|s| s.parse::<u64>().is_ok()),
            first,
            "{}",
            at()
        );
        if kind == "deal" {
            assert!(r.is_none(), "a deal inside a round: {}", at());
            assert_eq!(num(e, "round"), (*rounds_in_game), "{}", at());
            assert_eq!(seat_of(e, "dealer"), (*rounds_in_game) as usize % n, "{}", at());
            let hands: Vec<Set> = e["hands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| deck.set(h))
                .collect();
            assert_eq!(hands.len(), n);
            assert!(
                hands.iter().all(|h| h.count_ones() == 3),
                "three cards each: {}",
                at()
            );
            let community: Vec<Option<u8>> = e["community"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| deck.opt(c))
                .collect();
            assert!(community.iter().all(Option::is_some), "{}", at());
            let pile = deck.list(&e["draw"]);
            assert_eq!(
                pile.len() + 3 * n + 3,
                deck.meta.len(),
                "the whole deck is dealt: {}",
                at()
            );
            *r = Some(Round {
                hands,
                community: [community[0], community[1], community[2]],
                pile,
                pending: Vec::new(),
                discard: 0,
                played: None,
                penalised: vec![false; n],
                failed: vec![false; n],
                protected: vec![false; n],
                caller: None,
                turn: 0,
                seat: None,
                at_start: false,
                play: None,
                extra_due: false,
                draw_due: None,
                penalty_pile: 0,
                cut_off: false,
            });
            *counts = vec![[0u64; 19]; n];
            check_places(r.as_ref().unwrap(), deck, e);
            return;
        }
        if kind == "game_end" {
            assert!(r.is_none(), "{}", at());
            let listed: Vec<u64> = e["totals"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap())
                .collect();
            assert_eq!(listed, *totals, "{}", at());
            assert_eq!(num(e, "rounds"), (*rounds_in_game), "{}", at());
            let best = *totals.iter().max().unwrap();
            let leaders: Vec<usize> = (0..n).filter(|&s| totals[s] == best).collect();
            let winner = (best >= o.target && leaders.len() == 1).then(|| leaders[0]);
            assert_eq!(e["winner"].as_u64().map(|w| w as usize), winner, "{}", at());
            if winner.is_none() {
                assert_eq!(
                    (*rounds_in_game),
                    1000,
                    "a game ends without a winner only at the game cap: {}",
                    at()
                );
            }
            acc.games += 1;
            match winner {
                Some(w) => acc.seats[w].wins += 1,
                None => acc.no_winner += 1,
            }
            for (s, st) in acc.seats.iter_mut().enumerate() {
                st.final_score_sum += totals[s];
                st.by_game.add(st.game_round_sum as i64, (*rounds_in_game) as i64);
                st.game_round_sum = 0;
            }
            *totals = vec![0; n];
            *rounds_in_game = 0;
            *game += 1;
            return;
        }
        let rd = r
            .as_mut()
            .unwrap_or_else(|| panic!("an event outside a round: {}", at()));
        match kind {
            "turn" => {
                let seat = seat_of(e, "seat");
                let extra = e["extra"].as_bool().unwrap();
                assert!(rd.turn < o.round_cap, "a turn past the round cap: {}", at());
                rd.turn += 1;
                assert_eq!(num(e, "turn"), rd.turn, "{}", at());
                match rd.seat {
                    None => assert_eq!(seat, ((*rounds_in_game) as usize + 1) % n, "{}", at()),
                    Some(last) if extra => {
                        assert!(
                            rd.extra_due && seat == last,
                            "an extra turn only after +Turn: {}",
                            at()
                        )
                    }
                    Some(last) => {
                        assert!(!rd.extra_due, "+Turn's extra turn is missing: {}", at());
                        assert_eq!(seat, (last + 1) % n, "{}", at());
                    }
                }
                assert!(
                    extra || rd.caller != Some(seat),
                    "the caller plays again: {}",
                    at()
                );
                rd.extra_due = false;
                rd.seat = Some(seat);
                rd.at_start = true;
                rd.play = None;
                rd.failed[seat] = false;
                counts[seat][0] += 1;
            }
            "draw" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.seat, Some(seat), "{}", at());
                let cards = deck.list(&e["cards"]);
                let want = if rd.at_start {
                    rd.at_start = false;
                    counts[seat][18] += 1;
                    2
                } else {
                    rd.draw_due
                        .take()
                        .unwrap_or_else(|| panic!("a draw nobody asked for: {}", at()))
                };
                let took = rd.take_top(cards.len());
                assert_eq!(took, cards, "the cards come off the top of the pile: {}", at());
                if cards.len() < want {
                    assert!(
                        rd.pile.is_empty() && rd.discard == 0,
                        "a short draw with cards left: {}",
                        at()
                    );
                }
                assert!(cards.len() <= want, "{}", at());
                for c in cards {
                    rd.hands[seat] |= 1 << c;
                }
            }
            "community" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.seat, Some(seat), "{}", at());
                assert!(rd.caller.is_none(), "no community card after Flip!: {}", at());
                let slot = num(e, "slot") as usize;
                let card = deck.card(&e["card"]);
                assert_eq!(rd.community[slot], Some(card), "{}", at());
                if rd.at_start {
                    rd.at_start = false;
                    counts[seat][17] += 1;
                } else {
                    assert_eq!(
                        rd.play.map(|p| p.0),
                        Some(2),
                        "a community card taken outside a Steal: {}",
                        at()
                    );
                }
                rd.hands[seat] |= 1 << card;
                let replaced = deck.opt(&e["replaced"]);
                let top = rd.take_top(usize::from(replaced.is_some()));
                assert_eq!(top.first().copied(), replaced, "{}", at());
                if replaced.is_none() {
                    assert!(rd.pile.is_empty() && rd.discard == 0, "{}", at());
                }
                rd.community[slot] = replaced;
            }
            "play" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.seat, Some(seat), "{}", at());
                assert!(rd.at_start, "a play after the start option: {}", at());
                rd.at_start = false;
                let card = deck.card(&e["card"]);
                let f = FUNCS.iter().position(|&x| x == text(e, "function")).unwrap();
                let a = deck.meta[usize::from(card)]
                    .action
                    .unwrap_or_else(|| panic!("not an action card: {}", at()));
                assert!(OFFERS[usize::from(a)].contains(&f) && f != 3, "{}", at());
                assert!(!o.off.contains(&f), "a function switched off: {}", at());
                if rd.caller.is_some() {
                    assert!(matches!(f, 0 | 5 | 7), "forbidden after Flip!: {}", at());
                }
                assert!(rd.hands[seat] >> card & 1 == 1, "{}", at());
                rd.hands[seat] &= !(1 << card);
                rd.played = Some(card);
                rd.play = Some((f, seat));
                counts[seat][9 + f] += 1;
                let target = e["target"].as_u64();
                assert_eq!(
                    target.is_some(),
                    matches!(f, 1 | 4),
                    "a target only for Take and Swap: {}",
                    at()
                );
                let victims: Vec<usize> = e["victims"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize)
                    .collect();
                let slots = e["slots"].as_array().unwrap().len();
                if f == 2 {
                    assert_eq!(victims.len(), (n - 1).min(3), "{}", at());
                    assert!(slots <= 3usize.saturating_sub(n - 1), "{}", at());
                    let order: Vec<usize> = (1..n)
                        .map(|k| (seat + k) % n)
                        .filter(|q| victims.contains(q))
                        .collect();
                    assert_eq!(order, victims, "victims in the order met: {}", at());
                } else {
                    assert!(victims.is_empty() && slots == 0, "{}", at());
                }
                match f {
                    0 => rd.draw_due = Some(3),
                    7 => rd.extra_due = true,
                    _ => {}
                }
            }
            "block" => {
                let seat = seat_of(e, "seat");
                let card = deck.card(&e["card"]);
                let (f, by) = rd
                    .play
                    .unwrap_or_else(|| panic!("a Block with nothing to block: {}", at()));
                assert!(matches!(f, 1 | 2) && by != seat, "{}", at());
                assert_eq!(e["against"], FUNCS[f], "{}", at());
                assert!(!o.off.contains(&3), "{}", at());
                assert!(
                    matches!(deck.meta[usize::from(card)].action, Some(DRAW_BLOCK | ANY)),
                    "{}",
                    at()
                );
                assert!(rd.hands[seat] >> card & 1 == 1, "{}", at());
                rd.hands[seat] &= !(1 << card);
                rd.discard |= 1 << card;
                counts[seat][9 + 3] += 1;
            }
            "take" => {
                let seat = seat_of(e, "seat");
                let from = seat_of(e, "from");
                let card = deck.card(&e["card"]);
                let (f, by) = rd.play.unwrap();
                assert!(matches!(f, 1 | 2) && by == seat && from != seat, "{}", at());
                let hand = rd.hands[from];
                assert!(hand >> card & 1 == 1, "{}", at());
                if f == 2 {
                    // Drawn at random: the index-th card of the hand, lowest first.
                    let index = num(e, "index") as usize;
                    assert_eq!(num(e, "of"), u64::from(hand.count_ones()), "{}", at());
                    let nth = (0..128u8).filter(|&c| hand >> c & 1 == 1).nth(index);
                    assert_eq!(nth, Some(card), "the Steal's index names the card: {}", at());
                } else {
                    assert!(e["index"].is_null() && e["of"].is_null(), "{}", at());
                }
                rd.hands[from] &= !(1 << card);
                rd.hands[seat] |= 1 << card;
            }
            "swap" => {
                let seat = seat_of(e, "seat");
                let with = seat_of(e, "with");
                assert_eq!(rd.play, Some((4, seat)), "{}", at());
                rd.hands.swap(seat, with);
                rd.protected[with] = true;
            }
            "reboot" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.play, Some((5, seat)), "{}", at());
                let cards = deck.set(&e["discarded"]);
                assert_eq!(cards, rd.hands[seat], "the whole hand: {}", at());
                rd.hands[seat] = 0;
                rd.discard |= cards;
                rd.draw_due = Some(cards.count_ones() as usize);
            }
            "chaos" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.play, Some((6, seat)), "{}", at());
                let mut pool: Set = rd.hands.iter().fold(0, |m, h| m | h);
                for c in rd.community.iter_mut() {
                    pool |= c.take().map_or(0, |c| 1 << c);
                }
                let dealt = deck.list(&e["deal"]);
                assert_eq!(dealt.iter().fold(0, |m: Set, &c| m | 1 << c), pool, "{}", at());
                assert_eq!(dealt.len() as u32, pool.count_ones(), "{}", at());
                rd.hands = vec![0; n];
                for (i, &c) in dealt.iter().enumerate() {
                    rd.hands[(seat + i) % n] |= 1 << c;
                }
                let listed: Vec<Set> = e["hands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| deck.set(h))
                    .collect();
                assert_eq!(listed, rd.hands, "dealt one at a time from the player: {}", at());
                for q in 0..n {
                    rd.protected[q] = q != seat;
                }
            }
            "refill" => {
                for slot in 0..3 {
                    let top = rd.take_top(1);
                    rd.community[slot] = top.first().copied();
                }
                let listed: Vec<Option<u8>> = e["community"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| deck.opt(c))
                    .collect();
                assert_eq!(listed, rd.community, "{}", at());
            }
            "action_discard" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.seat, Some(seat), "{}", at());
                let card = deck.card(&e["card"]);
                assert_eq!(rd.played.take(), Some(card), "{}", at());
                rd.discard |= 1 << card;
            }
            "flip" => {
                let seat = seat_of(e, "seat");
                assert!(rd.at_start && rd.caller.is_none(), "{}", at());
                rd.at_start = false;
                let all = rd.hands[seat] | rd.community_set();
                let mult = if o.community_multipliers {
                    all
                } else {
                    rd.hands[seat]
                };
                let points = deck.score(all, mult);
                assert!(points >= 10, "Flip! without five of a kind: {}", at());
                assert_eq!(num(e, "points"), points, "{}", at());
                rd.caller = Some(seat);
                counts[seat][1] += 1;
                counts[seat][2] += points;
                counts[seat][3] += rd.turn;
            }
            "challenge" => {
                let seat = seat_of(e, "seat");
                let target = seat_of(e, "target");
                assert_eq!(rd.seat, Some(seat), "{}", at());
                assert_ne!(seat, target, "{}", at());
                let hand = rd.hands[target];
                let size = u64::from(hand.count_ones());
                let shows = deck.limit10(hand);
                let limit = if rd.penalised[target] {
                    6
                } else if !shows.is_empty() {
                    10
                } else {
                    7
                };
                assert_eq!(num(e, "size"), size, "{}", at());
                assert_eq!(num(e, "limit"), limit, "{}", at());
                assert_eq!(e["penalised"], rd.penalised[target], "{}", at());
                assert_eq!(e["protected"], rd.protected[target], "{}", at());
                let won = !rd.protected[target] && size > limit;
                assert_eq!(e["won"], won, "{}", at());
                // A 7>>>10 (else an Any) clears a hand of 8 to 10.
                let shown = (!won && !rd.protected[target] && limit == 10 && size > 7).then(|| {
                    let seven = shows
                        .iter()
                        .copied()
                        .find(|&c| deck.meta[usize::from(c)].action == Some(SEVEN_TEN));
                    seven.unwrap_or(shows[0])
                });
                assert_eq!(deck.opt(&e["shown"]), shown, "{}", at());
                counts[seat][4] += 1;
                counts[target][6] += 1;
                if won {
                    counts[seat][5] += 1;
                    counts[target][7] += 1;
                    rd.penalised[target] = true;
                } else {
                    rd.failed[seat] = true;
                }
                rd.penalty_pile = 0;
            }
            "penalty_discard" => {
                let seat = seat_of(e, "seat");
                let cards = deck.set(&e["cards"]);
                assert_eq!(cards & !rd.hands[seat], 0, "{}", at());
                rd.hands[seat] &= !cards;
                assert_eq!(rd.hands[seat].count_ones(), 6, "down to six: {}", at());
                rd.discard |= cards;
                rd.penalty_pile = cards;
            }
            "penalty_take" => {
                let seat = seat_of(e, "seat");
                let cards = deck.set(&e["cards"]);
                assert!(
                    cards & !rd.penalty_pile == 0 && cards.count_ones() <= 2,
                    "{}",
                    at()
                );
                rd.discard &= !cards;
                rd.hands[seat] |= cards;
            }
            "discard" => {
                let seat = seat_of(e, "seat");
                assert_eq!(rd.seat, Some(seat), "{}", at());
                assert!(rd.played.is_none() && rd.draw_due.is_none(), "{}", at());
                let cards = deck.set(&e["cards"]);
                assert_eq!(cards & !rd.hands[seat], 0, "{}", at());
                rd.hands[seat] &= !cards;
                rd.discard |= cards;
                let kept = u64::from(rd.hands[seat].count_ones());
                let limit = if rd.penalised[seat] || rd.failed[seat] {
                    6
                } else if !deck.limit10(rd.hands[seat]).is_empty() {
                    10
                } else {
                    7
                };
                assert_eq!(num(e, "kept"), kept, "{}", at());
                assert_eq!(num(e, "limit"), limit, "{}", at());
                assert_eq!(deck.set(&e["hand"]), rd.hands[seat], "{}", at());
                counts[seat][8] += u64::from(kept > limit);
                rd.protected[seat] = false;
            }
            "reshuffle" => {
                assert!(rd.pending.is_empty(), "{}", at());
                rd.pending = std::mem::take(&mut rd.pile);
                let pile = deck.list(&e["draw"]);
                assert_eq!(num(e, "cards") as usize, pile.len(), "{}", at());
                assert_eq!(
                    pile.iter().fold(0, |m: Set, &c| m | 1 << c),
                    rd.discard,
                    "the discard pile: {}",
                    at()
                );
                assert_eq!(pile.len() as u32, rd.discard.count_ones(), "{}", at());
                rd.pile = pile;
                rd.discard = 0;
                acc.reshuffles += 1;
            }
            "cut_off" => {
                assert_eq!(rd.turn, o.round_cap, "{}", at());
                assert_eq!(num(e, "turns"), rd.turn, "{}", at());
                rd.cut_off = true;
            }
            "round_end" => {
                assert_eq!(num(e, "round"), (*rounds_in_game), "{}", at());
                assert_eq!(e["cut_off"], rd.cut_off, "{}", at());
                assert_eq!(e["caller"].as_u64().map(|c| c as usize), rd.caller, "{}", at());
                if !rd.cut_off {
                    let last = rd.seat.unwrap();
                    assert!(!rd.extra_due, "{}", at());
                    assert_eq!(
                        rd.caller,
                        Some((last + 1) % n),
                        "the round ends when play comes back to the caller: {}",
                        at()
                    );
                }
                let listed: Vec<Set> = e["hands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| deck.set(h))
                    .collect();
                assert_eq!(listed, rd.hands, "{}", at());
                let community: Vec<Option<u8>> = e["community"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| deck.opt(c))
                    .collect();
                assert_eq!(community, rd.community, "{}", at());
                let points: Vec<u64> = (0..n)
                    .map(|p| {
                        let all = rd.hands[p] | rd.community_set();
                        let mult = if o.community_multipliers { all } else { rd.hands[p] };
                        if rd.cut_off { 0 } else { deck.score(all, mult) }
                    })
                    .collect();
                let listed: Vec<u64> = e["points"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_u64().unwrap())
                    .collect();
                assert_eq!(listed, points, "{}", at());
                for p in 0..n {
                    totals[p] += points[p];
                }
                let listed: Vec<u64> = e["totals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_u64().unwrap())
                    .collect();
                assert_eq!(listed, *totals, "{}", at());
                // The round's figures.
                acc.rounds += 1;
                acc.cut_off += u64::from(rd.cut_off);
                acc.turns += rd.turn;
                let best = *points.iter().max().unwrap();
                for (p, st) in acc.seats.iter_mut().enumerate() {
                    let c = &counts[p];
                    st.round_score_sum += points[p];
                    st.game_round_sum += points[p];
                    st.ladder[LADDER.iter().rposition(|&l| points[p] >= u64::from(l)).unwrap()] += 1;
                    if c[1] > 0 {
                        st.calls += 1;
                        st.call_points += c[2];
                        st.call_turn += c[3];
                        if points[p] >= best {
                            st.caller_top += 1;
                        } else {
                            st.outscored += 1;
                        }
                    }
                    st.challenges += c[4];
                    st.challenges_won += c[5];
                    st.challenged += c[6];
                    st.caught += c[7];
                    st.turns += c[0];
                    st.over_limit += c[8];
                    for f in 0..8 {
                        st.funcs[f] += c[9 + f];
                    }
                    st.community += c[17];
                    st.draw2 += c[18];
                    st.hand_at_end += u64::from(rd.hands[p].count_ones());
                }
                *rounds_in_game += 1;
                *r = None;
                return;
            }
            other => panic!("unknown event {other}: {}", at()),
        }
        if kind != "reshuffle" {
            assert!(
                rd.pending.is_empty(),
                "a reshuffle's leftovers not taken: {}",
                at()
            );
        }
        check_places(rd, deck, e);
    }
}

impl Round {
    /// Takes `k` cards off the pile, the old pile's leftovers first.
    fn take_top(&mut self, k: usize) -> Vec<u8> {
        let from_old = k.min(self.pending.len());
        let mut v: Vec<u8> = self.pending.drain(..from_old).collect();
        let rest = k - from_old;
        assert!(rest <= self.pile.len(), "more cards taken than the pile holds");
        v.extend(self.pile.drain(..rest));
        v
    }
    fn community_set(&self) -> Set {
        self.community.iter().flatten().fold(0, |m, &c| m | 1 << c)
    }
}

/// Every card of the deck in exactly one place.
fn check_places(rd: &Round, deck: &Deck, at: &Value) {
    let mut seen: Set = 0;
    let mut total = 0;
    let mut add = |s: Set| {
        assert_eq!(seen & s, 0, "a card in two places after {at}");
        seen |= s;
        total += s.count_ones();
    };
    for &h in &rd.hands {
        add(h);
    }
    add(rd.community_set());
    let pile: Set = rd.pile.iter().chain(&rd.pending).fold(0, |m, &c| m | 1 << c);
    add(pile);
    add(rd.discard);
    add(rd.played.map_or(0, |c| 1 << c));
    assert_eq!(seen, deck.all, "cards missing after {at}");
    assert_eq!(
        total as usize + rd.pile.len() + rd.pending.len(),
        deck.meta.len() + pile.count_ones() as usize,
        "{at}"
    );
}

/// Every figure of the CSV, recomputed from the trace.
fn compare_csv(head: &Value, csv: &str, acc: &ClassicStats) {
    let rows = csv_rows(csv);
    let n = acc.seats.len();
    assert_eq!(rows.len(), n);
    for (s, row) in rows.iter().enumerate() {
        assert_seat_wins(row, s, n, acc.games, acc.seats[s].wins);
        assert_eq!(row["seed"], text(head, "seed"), "seat {s}");
        for (col, value) in csv_columns().iter().zip(acc.csv_fields(s)) {
            assert_eq!(row[*col], value, "seat {s} {col}");
        }
    }
}

#[test]
fn a_thousand_games_replay_from_the_trace_alone() {
    replay_streamed(&["classic-flip", "--games", "1000", "--seed", "1"]);
}

/// Every action function, Blocks, challenges won and lost, bluffs and
/// penalties, with one deck and two (copies named apart), at 2 to 8
/// players.
#[test]
fn every_action_and_challenge_replays_at_every_table_size() {
    let mut seen = std::collections::BTreeSet::new();
    for (players, policy, games) in [
        ("2", "thief+bluffer:10+sheriff:0.4", "40"),
        ("3", "random,thief+sheriff:0.3,bluffer:10+sheriff:0.5", "40"),
        (
            "5",
            "thief+sheriff:0.3,random,bluffer:9+sheriff:0.5,thief,collector",
            "15",
        ),
        ("8", "thief+bluffer:9+sheriff:0.3", "6"),
    ] {
        let run = traced(&[
            "classic-flip",
            "--players",
            players,
            "--policy",
            policy,
            "--games",
            games,
            "--seed",
            "7",
        ]);
        seen.extend(
            run.events
                .iter()
                .map(|e| e["event"].as_str().unwrap().to_string()),
        );
        seen.extend(
            run.events
                .iter()
                .filter_map(|e| e["function"].as_str())
                .map(String::from),
        );
        replay(&run);
    }
    for kind in [
        "take",
        "steal",
        "block",
        "swap",
        "reboot",
        "chaos",
        "plus_turn",
        "refill",
        "challenge",
        "penalty_take",
        "reshuffle",
    ] {
        assert!(seen.contains(kind), "no {kind} to replay");
    }
}

/// The table options that change the rules: decks, gold ranks, target,
/// functions and cards switched off, the round cap (void rounds), and
/// community multipliers counted from one's own hand only.
#[test]
fn the_table_options_replay() {
    for extra in [
        &["--players", "4", "--decks", "2"][..],
        &["--players", "6", "--decks", "1"],
        &["--gold-ranks", "2,3,4,5,6,7,8", "--target", "60"],
        &["--without", "take,steal,2x,any", "--policy", "thief"],
        &["--without", "draw,block,plus-turn,7-10", "--policy", "random"],
        &["--round-cap", "12", "--target", "10"],
        &["--community-multipliers", "off", "--policy", "thief"],
    ] {
        let mut args = vec!["classic-flip", "--games", "20", "--seed", "3"];
        args.extend(extra);
        let run = traced(&args);
        if extra.contains(&"--round-cap") {
            assert!(
                run.events.iter().any(|e| e["event"] == "cut_off"),
                "no void round to replay"
            );
        }
        replay(&run);
    }
}

/// The replayer is not fooled: one detail changed anywhere in a trace (a
/// draw's order, a reshuffled pile's order, a Steal's index, a Chaos
/// deal, a community slot, a challenge's state, a call's points, a
/// target, a copy of a card) makes it fail.
#[test]
fn a_trace_changed_in_one_detail_fails_to_replay() {
    let runs = [
        traced(&[
            "classic-flip",
            "--players",
            "5",
            "--policy",
            "thief+bluffer:9+sheriff:0.5",
            "--games",
            "20",
            "--seed",
            "7",
        ]),
        traced(&[
            "classic-flip",
            "--players",
            "3",
            "--policy",
            "random,thief+sheriff:0.3,bluffer:10+sheriff:0.5",
            "--games",
            "20",
            "--seed",
            "7",
        ]),
    ];
    let swap = |e: &mut Value, key: &str| e[key].as_array_mut().unwrap().swap(0, 1);
    let long = |e: &Value, key: &str| e[key].as_array().is_some_and(|a| a.len() >= 2);
    type Change = Box<dyn Fn(&mut Value) -> bool>;
    let changes: Vec<(&str, Change)> = vec![
        (
            "draw order",
            Box::new(move |e| {
                e["event"] == "draw" && long(e, "cards") && {
                    swap(e, "cards");
                    true
                }
            }),
        ),
        (
            "reshuffled order",
            Box::new(move |e| {
                e["event"] == "reshuffle" && long(e, "draw") && {
                    swap(e, "draw");
                    true
                }
            }),
        ),
        (
            "deal order",
            Box::new(move |e| {
                e["event"] == "deal" && {
                    swap(e, "draw");
                    true
                }
            }),
        ),
        (
            "chaos deal",
            Box::new(move |e| {
                e["event"] == "chaos" && e["deal"][0] != e["deal"][1] && {
                    swap(e, "deal");
                    true
                }
            }),
        ),
        (
            "steal index",
            Box::new(|e| {
                e["event"] == "take" && e["of"].as_u64() > Some(1) && {
                    e["index"] = ((e["index"].as_u64().unwrap() + 1) % e["of"].as_u64().unwrap()).into();
                    true
                }
            }),
        ),
        (
            "community slot",
            Box::new(|e| {
                e["event"] == "community" && {
                    e["slot"] = ((e["slot"].as_u64().unwrap() + 1) % 3).into();
                    true
                }
            }),
        ),
        (
            "challenge limit",
            Box::new(|e| {
                e["event"] == "challenge" && {
                    e["limit"] = 8.into();
                    true
                }
            }),
        ),
        (
            "protection",
            Box::new(|e| {
                e["event"] == "challenge" && {
                    e["protected"] = (e["protected"] != true).into();
                    true
                }
            }),
        ),
        (
            "call points",
            Box::new(|e| {
                e["event"] == "flip" && {
                    e["points"] = 0.into();
                    true
                }
            }),
        ),
        (
            "target",
            Box::new(|e| {
                e["event"] == "play" && e["function"] == "draw" && {
                    e["target"] = 0.into();
                    true
                }
            }),
        ),
        (
            "copy",
            Box::new(|e| {
                e["event"] == "draw" && e["cards"][0].as_str().is_some_and(|c| c.ends_with("#1")) && {
                    let c = e["cards"][0].as_str().unwrap().replace("#1", "#2");
                    e["cards"][0] = c.into();
                    true
                }
            }),
        ),
        (
            "action card discarded",
            Box::new(|e| {
                e["event"] == "action_discard" && {
                    e["event"] = "turn".into();
                    true
                }
            }),
        ),
    ];
    for (what, change) in changes {
        let (run, events, i) = runs
            .iter()
            .find_map(|run| {
                let mut events = run.events.clone();
                let i = events.iter_mut().position(&change)?;
                Some((run, events, i))
            })
            .unwrap_or_else(|| panic!("nothing to change: {what}"));
        let changed = std::panic::catch_unwind(|| {
            let mut r = Replayer::new(&run.head);
            for e in &events {
                r.event(e);
            }
            r.finish(&run.csv);
        });
        assert!(
            changed.is_err(),
            "the replay missed a changed {what} at event {i}"
        );
    }
}
