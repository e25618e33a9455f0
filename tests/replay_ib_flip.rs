//! IB-Flip games replayed from their JSON trace alone
//! (`docs/rules/ib-flip.md`, "The trace as JSON"): the replayer is given
//! nothing but the trace (the table options come from the run line). It
//! puts every card where each event says and checks each move against the
//! rules: fixing, the starting card, the zone a player plays from, the
//! effective top card and what may go on it, refills and add-ons in the
//! order drawn, reveals, blind face-down cards, pick-ups, every power,
//! four of a kind and the special flips, whose turn comes next, legal and
//! illegal finishes and their places, the move cap and repetitions (the
//! position repeated is compared with the one it repeats). After every
//! event each of the 52 cards is in exactly one place. Every figure of
//! the CSV the same run wrote is recomputed from the trace.

use std::collections::HashMap;

use crate::common;
use common::*;

use serde_json::Value;
use sim::games::ib_flip::stats::{IbFlipStats, csv_columns};

fn num(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("{key} in {v}"))
}

const RANKS: [&str; 13] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS: [char; 4] = ['H', 'D', 'C', 'S'];
const TWO: u8 = 0;
const THREE: u8 = 1;
const FOUR: u8 = 2;
const FIVE: u8 = 3;
const SIX: u8 = 4;
const SEVEN: u8 = 5;
const EIGHT: u8 = 6;
const NINE: u8 = 7;
const TEN: u8 = 8;
const ACE: u8 = 12;
/// The game order, lowest first: 3 6 8 9 J Q K A 7 2 10 4 5.
const GAME_ORDER: [u8; 13] = [
    THREE, SIX, EIGHT, NINE, 9, 10, 11, ACE, SEVEN, TWO, TEN, FOUR, FIVE,
];

/// A card: rank * 4 + suit (the documented card order).
type Card = u8;
type Set = u64;

fn card(v: &Value) -> Card {
    let n = v.as_str().unwrap_or_else(|| panic!("a card: {v}"));
    let (r, s) = n.split_at(n.len() - 1);
    let r = RANKS
        .iter()
        .position(|&x| x == r)
        .unwrap_or_else(|| panic!("card {n}"));
    let s = SUITS
        .iter()
        .position(|&x| x.to_string() == s)
        .unwrap_or_else(|| panic!("card {n}"));
    (r * 4 + s) as Card
}

fn list(v: &Value) -> Vec<Card> {
    v.as_array().unwrap().iter().map(card).collect()
}

fn set_of(cards: &[Card]) -> Set {
    let s: Set = cards.iter().fold(0, |m, &c| m | 1 << c);
    assert_eq!(s.count_ones() as usize, cards.len(), "a card twice in {cards:?}");
    s
}

fn set(v: &Value) -> Set {
    set_of(&list(v))
}

fn rank(c: Card) -> u8 {
    c / 4
}

fn order(r: u8) -> usize {
    GAME_ORDER.iter().position(|&x| x == r).unwrap()
}

fn ranks(s: Set) -> u16 {
    (0..52)
        .filter(|c| s >> c & 1 == 1)
        .fold(0, |m, c| m | 1 << rank(c))
}

/// Live-pile flags.
const GHOST: u8 = 1;
const CHAIN: u8 = 2;
const ONE: u8 = 4;
const UNPLAYED: u8 = 8;

/// The effective top card: `None` is zero.
type Target = Option<u8>;

#[derive(Clone, Debug)]
struct Options {
    players: usize,
    /// Ranks whose power is off.
    off: Vec<u8>,
    sets: bool,
    special: bool,
    voluntary_pickup: bool,
    move_cap: u64,
}

impl Options {
    /// The options of the run line's `table`: every option as the run
    /// played it.
    fn from_run(head: &Value) -> Options {
        let t = &head["table"];
        let mut o = Options {
            players: num(t, "players") as usize,
            off: Vec::new(),
            sets: true,
            special: true,
            voluntary_pickup: t["voluntary_pickup"].as_bool().unwrap(),
            move_cap: num(t, "move_cap"),
        };
        assert_eq!(num(head, "players") as usize, o.players);
        for w in t["without"].as_array().unwrap() {
            match w.as_str().unwrap() {
                "sets" => o.sets = false,
                "special" => o.special = false,
                r => o.off.push(
                    RANKS
                        .iter()
                        .position(|&x| x == r)
                        .unwrap_or_else(|| panic!("power {r}")) as u8,
                ),
            }
        }
        o
    }
    fn on(&self, r: u8) -> bool {
        !self.off.contains(&r)
    }
    /// Whether rank `r` may go on target `t` (the rules' table; a power
    /// switched off makes its card an ordinary one).
    fn may(&self, r: u8, t: Target) -> bool {
        let Some(t) = t else { return true };
        match t {
            TWO if self.on(TWO) => true,
            FOUR if self.on(FOUR) => matches!(r, FOUR | FIVE | SIX),
            SEVEN if self.on(SEVEN) => r == ACE || r <= SEVEN,
            _ => order(r) >= order(t),
        }
    }
}

/// What is left of a position to compare for repetitions.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    hands: Vec<Set>,
    ups: Vec<Set>,
    downs: Vec<Vec<Card>>,
    draw: usize,
    live: Vec<(Card, u8)>,
    discard: Set,
    active: Vec<bool>,
    reversed: bool,
    seat: usize,
}

/// One game as the trace has it.
#[derive(Default)]
struct Game {
    hands: Vec<Set>,
    ups: Vec<Set>,
    downs: Vec<Vec<Card>>,
    /// Top first.
    draw: Vec<Card>,
    /// Bottom first.
    live: Vec<(Card, u8)>,
    discard: Set,
    active: Vec<bool>,
    places: Vec<u8>,
    reversed: bool,
    best_free: u8,
    worst_free: u8,
    moves: u64,
    /// Fixing: the seat fixing and whether it must be asked again.
    fixing: Option<(usize, bool)>,
    fix_step: u64,
    opening: Option<Card>,
    starter: usize,
    /// The seat that must move next, once known.
    next: Option<usize>,
    /// The turn in progress.
    turn: Option<Turn>,
    snapshots: HashMap<u64, Snapshot>,
    /// The largest hand of each seat (from its fixing on).
    max_hand: Vec<u64>,
}

/// What happened in the turn in progress, for whose turn comes next.
#[derive(Clone, Debug, Default)]
struct Turn {
    seat: usize,
    /// The rank whose power resolves, and how many cards of it.
    rank: Option<u8>,
    count: u32,
    /// The play's flag (add-ons get it too), and the target it was on.
    flag: u8,
    /// Cards drawn since the play that may be added to it.
    drawn: Set,
    via_nine: bool,
    pickup: bool,
    set_flip: Option<u8>,
    /// The discard pile before a set flip (a 9s flip turns it up).
    before_set: Set,
    nines_top: Option<Card>,
    /// Seats still to get a 3 after a 3s flip.
    threes_to: Option<usize>,
    /// An unplayed revealed or face-down card, waiting for the pick-up.
    failed: Option<Card>,
    /// A revealed or face-down card waiting to be played.
    to_play: Option<(Card, &'static str)>,
    skip: Option<(u64, &'static str)>,
    done: bool,
}

impl Game {
    fn n(&self) -> usize {
        self.hands.len()
    }

    fn target(&self, o: &Options) -> Target {
        for &(c, f) in self.live.iter().rev() {
            if f & (GHOST | CHAIN) != 0 {
                continue;
            }
            let r = rank(c);
            if f & UNPLAYED != 0 {
                return if r == FIVE && o.on(FIVE) { None } else { Some(r) };
            }
            if r == FIVE && o.on(FIVE) {
                continue;
            }
            if f & ONE != 0 {
                return None;
            }
            return Some(r);
        }
        None
    }

    /// The run of one rank on top (ghosts skipped, unplayed cards end it).
    fn run(&self) -> (Option<u8>, u32) {
        let mut r0 = None;
        let mut len = 0;
        for &(c, f) in self.live.iter().rev() {
            if f & GHOST != 0 {
                continue;
            }
            if f & UNPLAYED != 0 {
                break;
            }
            match r0 {
                None => r0 = Some(rank(c)),
                Some(x) if x != rank(c) => break,
                _ => {}
            }
            len += 1;
        }
        (r0, len)
    }

    fn flag(&self, o: &Options, r: u8, t: Target) -> u8 {
        if r == ACE && t == Some(SEVEN) && o.on(ACE) && o.on(SEVEN) {
            ONE
        } else if r == SIX && t == Some(FOUR) && o.on(SIX) && o.on(FOUR) {
            CHAIN
        } else {
            0
        }
    }

    /// `k + 1` active players on from `p`, `p` counted when the cycle
    /// comes round.
    fn step(&self, p: usize, k: u64) -> usize {
        let n = self.n();
        let mut q = p;
        let mut left = k + 1;
        loop {
            q = if self.reversed {
                (q + n - 1) % n
            } else {
                (q + 1) % n
            };
            if q == p || self.active[q] {
                left -= 1;
                if left == 0 {
                    return q;
                }
            }
        }
    }

    /// Takes `k` cards off the draw pile.
    fn take(&mut self, k: usize) -> Vec<Card> {
        assert!(k <= self.draw.len());
        self.draw.drain(..k).collect()
    }

    fn holds_nothing(&self, p: usize) -> bool {
        self.hands[p] | self.ups[p] == 0 && self.downs[p].is_empty()
    }

    fn snapshot(&self, seat: usize) -> Snapshot {
        Snapshot {
            hands: self.hands.clone(),
            ups: self.ups.clone(),
            downs: self.downs.clone(),
            draw: self.draw.len(),
            live: self.live.clone(),
            discard: self.discard,
            active: self.active.clone(),
            reversed: self.reversed,
            seat,
        }
    }

    fn check_places(&self, at: &Value) {
        let mut seen: Set = 0;
        let mut add = |cards: &mut dyn Iterator<Item = Card>| {
            for c in cards {
                assert_eq!(seen >> c & 1, 0, "a card in two places after {at}");
                seen |= 1 << c;
            }
        };
        for p in 0..self.n() {
            add(&mut (0..52).filter(|&c| (self.hands[p] | self.ups[p]) >> c & 1 == 1));
            add(&mut self.downs[p].iter().copied());
        }
        add(&mut self.draw.iter().copied());
        add(&mut self.live.iter().map(|&(c, _)| c));
        add(&mut (0..52).filter(|&c| self.discard >> c & 1 == 1));
        // A revealed or face-down card between its turning and its play
        // or pick-up.
        if let Some(t) = &self.turn {
            add(&mut t.to_play.map(|x| x.0).into_iter().chain(t.failed));
        }
        assert_eq!(seen, (1 << 52) - 1, "cards missing after {at}");
    }
}

/// The seat whose turn comes after turn `t` (the mover still in), and the
/// kind of an illegal finish if that is the mover again.
fn next_of(g: &Game, o: &Options, t: &Turn, at: &Value) -> (usize, &'static str) {
    let p = t.seat;
    let mut skip = None;
    let out = if t.pickup {
        (g.step(p, 0), "")
    } else if let Some(q) = t.set_flip {
        let kind = if t.via_nine { "9" } else { "flip" };
        match q {
            FOUR if o.special => (g.step(p, 0), kind),
            NINE if o.special && t.nines_top.is_some_and(|c| rank(c) == EIGHT && o.on(EIGHT)) => {
                skip = Some((1, "9s_flip"));
                (g.step(p, 0), kind)
            }
            _ => (p, kind),
        }
    } else {
        let r = t.rank.expect("a turn plays or picks up");
        let kind = |k: &'static str| if t.via_nine { "9" } else { k };
        match r {
            TWO if o.on(TWO) => (p, kind("2")),
            TEN if o.on(TEN) => (p, kind("10")),
            EIGHT if o.on(EIGHT) => {
                skip = Some((u64::from(t.count), if t.via_nine { "9" } else { "8s" }));
                (g.step(p, u64::from(t.count)), kind("8"))
            }
            _ => (g.step(p, 0), ""),
        }
    };
    assert_eq!(t.skip, skip, "the turns skipped: {at}");
    out
}

/// The replay of a run, event by event.
struct Replayer {
    head: Value,
    o: Options,
    acc: IbFlipStats,
    g: Game,
    game: u64,
}

impl Replayer {
    fn new(head: &Value) -> Replayer {
        assert_eq!(head["event"], "run", "{head}");
        let o = Options::from_run(head);
        Replayer {
            head: head.clone(),
            acc: IbFlipStats::new(o.players),
            o,
            g: Game::default(),
            game: 0,
        }
    }

    fn finish(self, csv: &str) {
        assert_eq!(self.game, num(&self.head, "games"), "every game ends");
        let rows = csv_rows(csv);
        let n = self.o.players;
        assert_eq!(rows.len(), n);
        for (s, row) in rows.iter().enumerate() {
            assert_seat_wins(row, s, n, self.acc.games, self.acc.seats[s].wins);
            assert_eq!(row["seed"], text(&self.head, "seed"), "seat {s}");
            for (col, value) in csv_columns(n).iter().zip(self.acc.csv_fields(s)) {
                assert_eq!(row[*col], value, "seat {s} {col}");
            }
        }
    }

    /// The turn in progress is over: the seat that must move next.
    fn end_turn(&mut self, at: &Value) {
        let g = &mut self.g;
        let Some(t) = g.turn.take() else { return };
        assert!(
            t.failed.is_none() && t.to_play.is_none(),
            "a turned card left in the air: {at}"
        );
        assert!(
            t.threes_to.is_none() || g.discard & 0xF0 == 0,
            "a 3 not dealt: {at}"
        );
        if t.done {
            return;
        }
        assert!(
            !g.holds_nothing(t.seat),
            "seat {} holds nothing but is still in: {at}",
            t.seat
        );
        g.next = Some(next_of(g, &self.o, &t, at).0);
    }

    fn event(&mut self, e: &Value) {
        let at = || e.to_string();
        assert_eq!(num(e, "game"), self.game, "{}", at());
        let kind = text(e, "event");
        let n = self.o.players;
        // A game's first event carries the seed of the game's generator.
        assert_eq!(
            e["seed"].as_str().is_some_and(|s| s.parse::<u64>().is_ok()),
            kind == "deal",
            "{}",
            at()
        );
        if e.get("move").is_some() || kind == "game_end" || e["how"] == "last_left" {
            self.end_turn(e);
        }
        let o = self.o.clone();
        let g = &mut self.g;
        match kind {
            "deal" => {
                assert_eq!(num(e, "players") as usize, n);
                *g = Game {
                    best_free: 1,
                    worst_free: n as u8,
                    active: vec![true; n],
                    places: vec![0; n],
                    max_hand: vec![0; n],
                    ..Game::default()
                };
                for s in e["seats"].as_array().unwrap() {
                    g.downs.push(list(&s["down"]));
                    g.ups.push(set(&s["up"]));
                    g.hands.push(set(&s["hand"]));
                }
                assert!(g.downs.iter().all(|d| d.len() == 3), "{}", at());
                assert!(
                    g.ups.iter().chain(&g.hands).all(|s| s.count_ones() == 3),
                    "{}",
                    at()
                );
                g.draw = list(&e["draw"]);
                assert_eq!(g.draw.len(), 52 - 9 * n, "{}", at());
            }
            "fix" => {
                let seat = num(e, "seat") as usize;
                match g.fixing {
                    Some((s, true)) => assert_eq!(seat, s, "asked again after drawing: {}", at()),
                    Some((s, false)) => assert_eq!(seat, s + 1, "{}", at()),
                    None => assert_eq!(seat, 0, "{}", at()),
                }
                g.fix_step = if g.fixing.is_some_and(|f| f.1) {
                    g.fix_step + 1
                } else {
                    1
                };
                assert_eq!(num(e, "step"), g.fix_step, "{}", at());
                let pool = g.hands[seat] | g.ups[seat];
                let up = set(&e["up"]);
                assert!(
                    up & !pool == 0 && up.count_ones() >= 3 && ranks(up).count_ones() <= 3,
                    "{}",
                    at()
                );
                assert!((pool & !up).count_ones() <= 3, "at most three in hand: {}", at());
                g.ups[seat] = up;
                g.hands[seat] = pool & !up;
                let drew = list(&e["drew"]);
                let want = if g.draw.is_empty() {
                    0
                } else {
                    (3 - g.hands[seat].count_ones() as usize).min(g.draw.len())
                };
                assert_eq!(drew.len(), want, "drawn back to three: {}", at());
                assert_eq!(g.take(drew.len()), drew, "{}", at());
                g.hands[seat] |= set_of(&drew);
                assert_eq!(set(&e["hand"]), g.hands[seat], "{}", at());
                g.fixing = Some((seat, !drew.is_empty()));
                g.max_hand[seat] = u64::from(g.hands[seat].count_ones());
            }
            "start" => {
                assert_eq!(g.fixing, Some((n - 1, false)), "everybody fixed first: {}", at());
                let seat = num(e, "seat") as usize;
                let c = card(&e["card"]);
                let mut lowest = (99, 0, 0, 0);
                for p in 0..n {
                    for c in (0..52u8).filter(|&c| g.hands[p] >> c & 1 == 1) {
                        lowest = lowest.min((order(rank(c)), c % 4, c, p));
                    }
                }
                assert_eq!(
                    (lowest.2, lowest.3),
                    (c, seat),
                    "the lowest card in hand starts: {}",
                    at()
                );
                g.opening = Some(c);
                g.starter = seat;
                g.next = Some(seat);
                self.acc.seats[seat].started += 1;
            }
            "play" | "reveal" | "face_down" | "pickup" if e.get("move").is_some() => {
                let seat = num(e, "seat") as usize;
                g.moves += 1;
                assert_eq!(num(e, "move"), g.moves, "{}", at());
                assert_eq!(Some(seat), g.next, "whose turn: {}", at());
                assert!(g.active[seat], "{}", at());
                if o.sets {
                    assert!(g.run().1 < 4, "four of a kind left unflipped: {}", at());
                }
                if g.moves > 400 {
                    g.snapshots.insert(g.moves - 1, g.snapshot(seat));
                }
                g.turn = Some(Turn {
                    seat,
                    ..Turn::default()
                });
                self.acc.seats[seat].turns += 1;
                self.turn_event(e);
            }
            "finished" if e["how"] == "last_left" => {
                let seat = num(e, "seat") as usize;
                let left: Vec<usize> = (0..n).filter(|&q| g.active[q]).collect();
                assert_eq!(left, [seat], "{}", at());
                assert_eq!(num(e, "place") as u8, g.best_free, "{}", at());
                assert_eq!(g.best_free, g.worst_free, "{}", at());
                g.places[seat] = g.best_free;
                g.active[seat] = false;
                self.acc.seats[seat].last_left += 1;
            }
            "play" | "reveal" | "face_down" | "pickup" | "draw" | "add_on" | "nine_draw" | "flip"
            | "three_dealt" | "three_taken" | "nines_flip" | "reverse" | "skip" | "finished" => {
                self.turn_event(e)
            }
            "game_end" => {
                let g = &mut self.g;
                let places: Vec<u8> = e["places"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_u64().unwrap() as u8)
                    .collect();
                assert_eq!(places, g.places, "{}", at());
                assert_eq!(num(e, "moves"), g.moves, "{}", at());
                let active = g.active.iter().filter(|&&a| a).count();
                let st = &mut self.acc;
                st.games += 1;
                st.moves += g.moves;
                match text(e, "result") {
                    "complete" => {
                        assert_eq!(active, 0, "{}", at());
                        assert!(e["repeats"].is_null());
                    }
                    "stalemate" => {
                        assert!(active >= 2, "{}", at());
                        st.stalemates += 1;
                        if e["repetition"] == true {
                            st.repetitions += 1;
                            let first = num(e, "repeats");
                            assert!(first >= 400 && first < g.moves, "{}", at());
                            let now = g.snapshot(g.next.unwrap());
                            assert_eq!(
                                g.snapshots.get(&first),
                                Some(&now),
                                "the position repeats move {first}'s: {}",
                                at()
                            );
                        } else {
                            assert_eq!(g.moves, o.move_cap, "{}", at());
                        }
                    }
                    r => panic!("result {r}: {}", at()),
                }
                let stalemate = active > 0;
                for s in 0..n {
                    let seat = &mut st.seats[s];
                    let place = g.places[s];
                    if place != 0 {
                        seat.places[usize::from(place) - 1] += 1;
                        if !stalemate {
                            seat.place_sum += u64::from(place);
                        }
                        seat.wins += u64::from(place == 1);
                        seat.losses += u64::from(usize::from(place) == n);
                    } else {
                        seat.stalemates += 1;
                    }
                    seat.max_hand_sum += g.max_hand[s];
                    if g.starter == s {
                        seat.started_wins += u64::from(place == 1);
                    }
                }
                self.game += 1;
                return;
            }
            other => panic!("unknown event {other}: {}", at()),
        }
        self.g.check_places(e);
    }

    /// An event of the turn in progress.
    fn turn_event(&mut self, e: &Value) {
        let mut t = self
            .g
            .turn
            .take()
            .unwrap_or_else(|| panic!("outside a turn: {e}"));
        self.turn_event_of(e, &mut t);
        self.g.turn = Some(t);
    }

    fn turn_event_of(&mut self, e: &Value, t: &mut Turn) {
        let at = || e.to_string();
        let o = self.o.clone();
        let g = &mut self.g;
        let seat = t.seat;
        let kind = text(e, "event");
        if kind != "three_dealt" {
            assert_eq!(num(e, "seat") as usize, seat, "{}", at());
        }
        let st = &mut self.acc.seats[seat];
        match kind {
            "play" => {
                let cards = list(&e["cards"]);
                assert!(
                    !cards.is_empty() && cards.iter().all(|&c| rank(c) == rank(cards[0])),
                    "{}",
                    at()
                );
                assert!(
                    cards.windows(2).all(|w| w[0] < w[1]),
                    "lowest suits first: {}",
                    at()
                );
                let r = rank(cards[0]);
                let s = set_of(&cards);
                let target = g.target(&o);
                let on = text(e, "on");
                assert_eq!(on, target.map_or("zero", |t| RANKS[usize::from(t)]), "{}", at());
                assert!(
                    o.may(r, target),
                    "{} may not go on {on}: {}",
                    RANKS[usize::from(r)],
                    at()
                );
                match text(e, "from") {
                    "hand" => {
                        assert_eq!(s & !g.hands[seat], 0, "{}", at());
                        g.hands[seat] &= !s;
                    }
                    "face_up" => {
                        assert_eq!(
                            g.hands[seat],
                            0,
                            "face-up cards only with an empty hand: {}",
                            at()
                        );
                        assert_eq!(s & !g.ups[seat], 0, "{}", at());
                        g.ups[seat] &= !s;
                    }
                    from => {
                        assert_eq!(
                            t.to_play.take(),
                            Some((cards[0], if from == "revealed" { "reveal" } else { "face_down" })),
                            "{}",
                            at()
                        );
                        assert_eq!(cards.len(), 1, "{}", at());
                    }
                }
                if let Some(c) = g.opening.take() {
                    assert!(
                        s >> c & 1 == 1,
                        "the starter opens with the lowest card: {}",
                        at()
                    );
                }
                t.flag = g.flag(&o, r, target);
                for &c in &cards {
                    g.live.push((c, t.flag));
                }
                t.rank = Some(r);
                t.count = cards.len() as u32;
                t.drawn = 0;
            }
            "draw" => {
                let cards = list(&e["cards"]);
                let want = (3 - g.hands[seat].count_ones().min(3) as usize).min(g.draw.len());
                assert!(
                    !cards.is_empty() && cards.len() == want,
                    "drawn back to three: {}",
                    at()
                );
                assert_eq!(g.take(cards.len()), cards, "off the top of the pile: {}", at());
                g.hands[seat] |= set_of(&cards);
                t.drawn = set_of(&cards);
            }
            "add_on" => {
                let cards = set(&e["cards"]);
                let r = t.rank.unwrap();
                assert!(
                    cards != 0 && cards & !t.drawn == 0 && ranks(cards) == 1 << r,
                    "only cards just drawn: {}",
                    at()
                );
                g.hands[seat] &= !cards;
                for c in 0..52 {
                    if cards >> c & 1 == 1 {
                        g.live.push((c, t.flag));
                    }
                }
                t.count += cards.count_ones();
                t.drawn = 0;
            }
            "reveal" => {
                let c = card(&e["card"]);
                assert!(g.hands[seat] != 0 && !g.draw.is_empty(), "{}", at());
                let target = g.target(&o);
                let legal = (0..52).any(|x| g.hands[seat] >> x & 1 == 1 && o.may(rank(x), target));
                assert!(
                    !legal && g.opening.is_none(),
                    "a reveal with a card to play: {}",
                    at()
                );
                assert_eq!(g.take(1), [c], "{}", at());
                let ok = o.may(rank(c), target);
                assert_eq!(e["ok"], ok, "{}", at());
                if ok {
                    t.to_play = Some((c, "reveal"));
                } else {
                    t.failed = Some(c);
                }
                st.reveals += 1;
                st.reveals_ok += u64::from(ok);
            }
            "face_down" => {
                let c = card(&e["card"]);
                assert!(g.hands[seat] | g.ups[seat] == 0, "{}", at());
                let slot = num(e, "slot") as usize;
                assert_eq!(
                    g.downs[seat].get(slot),
                    Some(&c),
                    "the card in that slot: {}",
                    at()
                );
                g.downs[seat].remove(slot);
                let ok = o.may(rank(c), g.target(&o));
                assert_eq!(e["ok"], ok, "{}", at());
                if ok {
                    t.to_play = Some((c, "face_down"));
                } else {
                    t.failed = Some(c);
                }
                st.facedown_tries += 1;
                st.facedown_fails += u64::from(!ok);
            }
            "pickup" => {
                let cards = list(&e["cards"]);
                let mut want: Vec<Card> = g.live.iter().map(|&(c, _)| c).collect();
                match t.failed.take() {
                    Some(c) => want.push(c),
                    None => {
                        let target = g.target(&o);
                        let legal = match (g.hands[seat], g.ups[seat]) {
                            (0, up) => up,
                            (h, _) => h,
                        };
                        let can = (0..52).any(|x| legal >> x & 1 == 1 && o.may(rank(x), target));
                        assert!(
                            !can || o.voluntary_pickup,
                            "a pick-up with a card to play: {}",
                            at()
                        );
                        // Stuck with a hand and a draw pile, a player
                        // may reveal or pick up (the text: "allowed to
                        // reveal"; the search and a person choose).
                    }
                }
                assert_eq!(cards, want, "the live pile bottom first: {}", at());
                g.live.clear();
                g.hands[seat] |= set_of(&cards);
                g.opening = None;
                g.max_hand[seat] = g.max_hand[seat].max(u64::from(g.hands[seat].count_ones()));
                t.pickup = true;
                st.pickups += 1;
                st.pickup_cards += cards.len() as u64;
            }
            "nine_draw" => {
                assert_eq!(t.rank, Some(NINE), "{}", at());
                assert!(o.on(NINE) && g.discard != 0, "{}", at());
                let c = card(&e["card"]);
                assert_eq!(num(e, "of"), u64::from(g.discard.count_ones()), "{}", at());
                let index = num(e, "index") as usize;
                assert_eq!(
                    (0..52).filter(|x| g.discard >> x & 1 == 1).nth(index),
                    Some(c),
                    "{}",
                    at()
                );
                let top = g.live.len();
                for x in &mut g.live[top - t.count as usize..] {
                    assert_eq!(rank(x.0), NINE, "{}", at());
                    x.1 |= GHOST;
                }
                g.discard &= !(1 << c);
                let flag = g.flag(&o, rank(c), g.target(&o));
                g.live.push((c, flag));
                t.rank = Some(rank(c));
                t.count = 1;
                t.via_nine = true;
                st.nine_draws += 1;
            }
            "flip" => {
                let cards = list(&e["cards"]);
                let live: Vec<Card> = g.live.iter().map(|&(c, _)| c).collect();
                assert_eq!(cards, live, "the live pile bottom first: {}", at());
                let cause = text(e, "cause");
                match cause {
                    "10" => {
                        assert!(
                            t.rank == Some(TEN) && o.on(TEN) && t.set_flip.is_none(),
                            "{}",
                            at()
                        );
                        st.flips_10 += 1;
                    }
                    "revealed_10" => {
                        assert!(
                            t.nines_top.is_some_and(|c| rank(c) == TEN) && o.on(TEN),
                            "{}",
                            at()
                        );
                        st.flips_10 += 1;
                    }
                    set => {
                        let q = RANKS.iter().position(|&x| format!("set_{x}") == set).unwrap() as u8;
                        let (r, len) = g.run();
                        assert!(o.sets && r == Some(q) && len >= 4, "four of a kind: {}", at());
                        t.set_flip = Some(q);
                        t.before_set = g.discard;
                        t.threes_to = (q == THREE && o.special).then(|| g.step(seat, 0));
                        st.flips_set += 1;
                    }
                }
                g.discard |= set_of(&cards);
                g.live.clear();
            }
            "three_dealt" => {
                assert_eq!(t.set_flip, Some(THREE), "{}", at());
                let to = num(e, "to") as usize;
                let c = card(&e["card"]);
                assert_eq!(
                    Some(to),
                    t.threes_to.filter(|&q| q != seat),
                    "in turn order: {}",
                    at()
                );
                let threes = g.discard & 0xF0;
                assert_eq!(
                    c,
                    threes.trailing_zeros() as Card,
                    "the lowest suit first: {}",
                    at()
                );
                g.discard &= !(1 << c);
                g.hands[to] |= 1 << c;
                let next = g.step(to, 0);
                t.threes_to = Some(next).filter(|&q| q != seat);
                g.max_hand[to] = g.max_hand[to].max(u64::from(g.hands[to].count_ones()));
            }
            "three_taken" => {
                assert!(t.set_flip == Some(FOUR) && o.special, "{}", at());
                let threes = g.discard & 0xF0;
                let want = (threes != 0).then(|| threes.trailing_zeros() as Card);
                let got = (!e["card"].is_null()).then(|| card(&e["card"]));
                assert_eq!(got, want, "{}", at());
                if let Some(c) = got {
                    g.discard &= !(1 << c);
                    g.hands[seat] |= 1 << c;
                    g.max_hand[seat] = g.max_hand[seat].max(u64::from(g.hands[seat].count_ones()));
                }
            }
            "nines_flip" => {
                assert!(
                    t.set_flip == Some(NINE) && o.special && t.before_set != 0,
                    "{}",
                    at()
                );
                let live = list(&e["live"]);
                assert_eq!(
                    set_of(&live),
                    t.before_set,
                    "the discard pile as it was: {}",
                    at()
                );
                assert_eq!(num(e, "cards") as usize, live.len(), "{}", at());
                let top = *live.last().unwrap();
                assert_eq!(card(&e["top"]), top, "{}", at());
                g.discard &= !t.before_set;
                g.live = live.iter().map(|&c| (c, UNPLAYED)).collect();
                t.nines_top = Some(top);
            }
            "reverse" => {
                assert!(
                    t.rank == Some(THREE) && o.on(THREE) && t.count % 2 == 1 && t.set_flip.is_none(),
                    "{}",
                    at()
                );
                g.reversed = !g.reversed;
            }
            "skip" => {
                let cause = ["8s", "9", "9s_flip"]
                    .into_iter()
                    .find(|&c| c == text(e, "cause"))
                    .unwrap();
                assert!(t.skip.is_none(), "{}", at());
                t.skip = Some((num(e, "turns"), cause));
            }
            "finished" => {
                let how = text(e, "how");
                let place = num(e, "place") as u8;
                assert!(g.active[seat], "{}", at());
                match how {
                    "eights_flip" => {
                        assert!(t.set_flip == Some(EIGHT) && o.special, "{}", at());
                        let down = g.downs[seat].drain(..).fold(0, |m: Set, c| m | 1 << c);
                        g.discard |= g.hands[seat] | g.ups[seat] | down;
                        g.hands[seat] = 0;
                        g.ups[seat] = 0;
                        assert_eq!(place, g.worst_free, "{}", at());
                        g.worst_free -= 1;
                        st.lost_8s += 1;
                        t.done = true;
                    }
                    _ => {
                        assert!(g.holds_nothing(seat), "{}", at());
                        // Whose turn would come next decides legal or illegal.
                        let (next, kind) = next_of(g, &o, t, e);
                        if next == seat {
                            assert_eq!(how, format!("illegal_{kind}"), "{}", at());
                            assert_eq!(place, g.worst_free, "{}", at());
                            g.worst_free -= 1;
                            let k = ["2", "10", "8", "flip", "9"]
                                .iter()
                                .position(|&x| x == kind)
                                .unwrap();
                            st.illegal[k] += 1;
                        } else {
                            assert_eq!(how, "legal", "{}", at());
                            assert_eq!(place, g.best_free, "{}", at());
                            g.best_free += 1;
                            st.finish_legal += 1;
                        }
                        t.done = true;
                        g.active[seat] = false;
                        g.places[seat] = place;
                        // After an illegal finish the next active player
                        // moves, no skips.
                        g.next = Some(if next == seat { g.step(seat, 0) } else { next });
                        return;
                    }
                }
                g.active[seat] = false;
                g.places[seat] = place;
                g.next = Some(g.step(seat, 0));
            }
            other => panic!("{other} is not a turn's event: {}", at()),
        }
    }
}

/// Replays a saved trace (`sim play ib-flip --save`): its run line and
/// events, every rule checked as for a run's trace; no CSV to compare.
/// Returns the places by seat of its last game (0: still in).
pub(crate) fn replay_saved(head: &Value, events: &[Value]) -> Vec<u8> {
    let mut r = Replayer::new(head);
    for e in events {
        r.event(e);
    }
    assert_eq!(r.game, num(head, "games"), "every game ends");
    r.g.places.to_vec()
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

fn replay(args: &[&str]) -> Vec<Value> {
    let run = traced(args);
    let mut r = Replayer::new(&run.head);
    for e in &run.events {
        r.event(e);
    }
    r.finish(&run.csv);
    run.events
}

#[test]
fn a_thousand_games_replay_from_the_trace_alone() {
    replay_streamed(&["ib-flip", "--games", "1000", "--seed", "1"]);
}

/// Every table size and every policy, the special flips, finishes of
/// every kind, and stalemates by repetition (the repeated position is
/// compared with the earlier one).
#[test]
fn every_table_size_policy_and_ending_replays() {
    let mut seen = std::collections::BTreeSet::new();
    for (players, policy, games) in [
        ("2", "lowest", "500"),
        ("3", "random,attacker,finisher", "150"),
        ("4", "saver,counter,lowest+fix:keep,random+fix:stack", "100"),
        ("5", "random", "100"),
    ] {
        let events = replay(&[
            "ib-flip",
            "--players",
            players,
            "--policy",
            policy,
            "--games",
            games,
            "--seed",
            "3",
        ]);
        for e in &events {
            let kind = e["event"].as_str().unwrap();
            seen.insert(kind.to_string());
            for key in ["how", "cause", "result", "from"] {
                if let Some(v) = e[key].as_str() {
                    seen.insert(format!("{kind} {v}"));
                }
            }
            if e["repetition"] == true {
                seen.insert("repetition".into());
            }
        }
    }
    for want in [
        "nines_flip",
        "three_dealt",
        "three_taken",
        "reveal",
        "face_down",
        "add_on",
        "reverse",
        "nine_draw",
        "finished legal",
        "finished illegal_2",
        "finished illegal_10",
        "finished illegal_flip",
        "finished eights_flip",
        "finished last_left",
        "skip 8s",
        "skip 9",
        "skip 9s_flip",
        "flip revealed_10",
        "flip set_3",
        "flip set_8",
        "play revealed",
        "play face_down",
        "repetition",
    ] {
        assert!(seen.contains(want), "no {want} to replay");
    }
}

/// The table options that change the rules: each power switched off, no
/// sets, no special flips, voluntary pick-ups and the move cap.
#[test]
fn the_table_options_replay() {
    for extra in [
        &["--without", "2,3,4,5"][..],
        &["--without", "6,7,8,9,10,A"],
        &["--without", "sets"],
        &["--without", "special", "--players", "3"],
        &["--voluntary-pickup", "--policy", "random"],
        &["--move-cap", "60", "--players", "4"],
    ] {
        let mut args = vec!["ib-flip", "--games", "100", "--seed", "5"];
        args.extend(extra);
        let events = replay(&args);
        if extra.contains(&"--move-cap") {
            assert!(
                events.iter().any(|e| e["result"] == "stalemate"),
                "no stalemate to replay"
            );
        }
    }
}

/// The replayer is not fooled: one detail changed anywhere in a trace
/// (a card's order, a place, a target, a skip, whose turn, a random index,
/// a stalemate's position) makes it fail.
#[test]
fn a_trace_changed_in_one_detail_fails_to_replay() {
    let run = traced(&["ib-flip", "--players", "2", "--games", "500", "--seed", "3"]);
    type Change = fn(&mut Value) -> bool;
    let changes: [(&str, Change); 9] = [
        ("draw order", |e| {
            let two = e["event"] == "draw" && e["cards"].as_array().unwrap().len() == 2;
            if two {
                e["cards"].as_array_mut().unwrap().swap(0, 1);
            }
            two
        }),
        ("place", |e| {
            let legal = e["event"] == "finished" && e["how"] == "legal";
            if legal {
                e["place"] = 2.into();
            }
            legal
        }),
        ("target", |e| {
            let on_zero = e["event"] == "play" && e["on"] == "zero";
            if on_zero {
                e["on"] = "3".into();
            }
            on_zero
        }),
        ("skip", |e| {
            let skip = e["event"] == "skip";
            if skip {
                e["turns"] = 2.into();
            }
            skip
        }),
        ("whose turn", |e| {
            let first = e.get("move").is_some_and(|m| m.as_u64() > Some(5)) && e["event"] == "play";
            if first {
                e["seat"] = (1 - e["seat"].as_u64().unwrap()).into();
            }
            first
        }),
        ("random index", |e| {
            let nine = e["event"] == "nine_draw" && e["of"].as_u64() > Some(1);
            if nine {
                e["index"] = ((e["index"].as_u64().unwrap() + 1) % e["of"].as_u64().unwrap()).into();
            }
            nine
        }),
        ("repeated position", |e| {
            let rep = e["repetition"] == true;
            if rep {
                e["repeats"] = (e["repeats"].as_u64().unwrap() + 1).into();
            }
            rep
        }),
        ("face-down slot", |e| {
            let down = e["event"] == "face_down" && e["slot"] == 0;
            if down {
                e["slot"] = 1.into();
            }
            down
        }),
        ("pick-up order", |e| {
            let pick = e["event"] == "pickup" && e["cards"].as_array().unwrap().len() >= 2;
            if pick {
                e["cards"].as_array_mut().unwrap().swap(0, 1);
            }
            pick
        }),
    ];
    for (what, change) in changes {
        let mut events = run.events.clone();
        let i = events
            .iter_mut()
            .position(change)
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
