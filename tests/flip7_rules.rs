//! The rules of Flip 7, one test per rule and per case of the official FAQ
//! (`flip7-en-with-faq.txt`, cases 1-24; official names Freeze = Lock,
//! Flip Three = Flip 3, Second Chance = Life Saver).
//!
//! Every test plays a stacked deck through the real engine with a scripted
//! [`Chooser`] (every Hit-or-Stay answer, target and Second Chance recipient,
//! in the order the engine must ask for them; it panics on any other question
//! or when the script runs out, and the script must be used up) and a
//! recording [`Observer`] that checks the table's invariants after every
//! event. Each test then compares the exact sequence of events, and where a
//! rule is about where cards go, the table's counts at the right moment.
//!
//! Seats are numbers. A new table is in round 0, so seat 0 deals: seat 1 is
//! served first, then clockwise, the dealer last.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;

use sim::engine::rng::Stacked;
use sim::games::flip7::cards::{
    Card, Deck, FLIP_THREE, FREEZE, KINDS, PLUS2, PLUS10, SECOND_CHANCE, TIMES2, Without, composition, name,
};
use sim::games::flip7::policies::{
    Policy, Seats, default_flip_three_target, default_freeze_target, default_second_chance_to,
};
use sim::games::flip7::rules::{
    Chooser, Event, MAX_RESHUFFLES_PER_ROUND, Observer, Rules, Status, Table, Via,
};

const F3: Card = FLIP_THREE;
const SC: Card = SECOND_CHANCE;
const PLUS4: Card = PLUS2 + 1;
const PLUS6: Card = PLUS2 + 2;
const PLUS8: Card = PLUS2 + 3;

// ---------------------------------------------------------------------------
// The scripted chooser
// ---------------------------------------------------------------------------

/// One decision, in the order the engine must ask for it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ask {
    /// The seat is asked Hit or Stay and hits.
    Hit(usize),
    /// The seat is asked Hit or Stay and stays.
    Stay(usize),
    /// `.0` assigns `.1` (Freeze or Flip Three) to `.2`.
    Give(usize, Card, usize),
    /// `.0` assigns `.1` where the default policy of `policies.rs` says.
    DefaultTarget(usize, Card),
    /// `.0` must pass on a second Second Chance: to `.1`, or discard it.
    Pass(usize, Option<usize>),
    /// `.0` passes a second Second Chance where the default policy says.
    DefaultPass(usize),
}

use Ask::*;

impl fmt::Debug for Ask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Hit(s) => write!(f, "Hit({s})"),
            Stay(s) => write!(f, "Stay({s})"),
            Give(s, c, to) => write!(f, "Give({s}, {}, {to})", name(c)),
            DefaultTarget(s, c) => write!(f, "DefaultTarget({s}, {})", name(c)),
            Pass(s, to) => write!(f, "Pass({s}, {to:?})"),
            DefaultPass(s) => write!(f, "DefaultPass({s})"),
        }
    }
}

thread_local! {
    /// The events of the test running on this thread, so far: shown when the
    /// script meets a question it did not expect.
    static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn log_so_far() -> String {
    LOG.with(|l| l.borrow().iter().map(|line| format!("\n    {line}")).collect())
}

struct Script {
    asks: VecDeque<Ask>,
    done: Vec<Ask>,
}

impl Script {
    fn new(asks: &[Ask]) -> Script {
        Script {
            asks: asks.iter().copied().collect(),
            done: Vec::new(),
        }
    }

    fn next(&mut self, question: String) -> Ask {
        match self.asks.pop_front() {
            Some(a) => {
                self.done.push(a);
                a
            }
            None => panic!(
                "script ran out: the engine asked {question} after {:?}; events so far:{}",
                self.done,
                log_so_far()
            ),
        }
    }

    fn wrong(&self, question: String, got: Ask) -> ! {
        panic!(
            "the engine asked {question} but the script expected {got:?} (answered so far: {:?}); events so far:{}",
            self.done,
            log_so_far()
        )
    }

    fn finish(&self) {
        assert!(self.asks.is_empty(), "the engine never asked for {:?}", self.asks);
    }
}

impl Chooser for Script {
    fn hit(&mut self, _t: &Table, seat: usize) -> bool {
        let q = format!("seat {seat} Hit or Stay");
        match self.next(q.clone()) {
            Hit(s) if s == seat => true,
            Stay(s) if s == seat => false,
            other => self.wrong(q, other),
        }
    }

    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        let q = format!("seat {chooser} to assign {}", name(card));
        match self.next(q.clone()) {
            Give(s, c, to) if s == chooser && c == card => to,
            DefaultTarget(s, c) if s == chooser && c == card => {
                if card == FREEZE {
                    default_freeze_target(t, chooser)
                } else {
                    default_flip_three_target(t, chooser)
                }
            }
            other => self.wrong(q, other),
        }
    }

    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        let q = format!("seat {holder} to pass on a Second Chance");
        match self.next(q.clone()) {
            Pass(s, to) if s == holder => to,
            DefaultPass(s) if s == holder => default_second_chance_to(t, holder),
            other => self.wrong(q, other),
        }
    }
}

// ---------------------------------------------------------------------------
// The recording observer
// ---------------------------------------------------------------------------

/// Every event, with a copy of the table right after it; a copy of the table
/// at each round's end (before its cards go to the discard pile); the winner.
struct Recorder {
    events: Vec<Event>,
    after: Vec<Table>,
    ends: Vec<Table>,
    winner: Option<Option<usize>>,
}

impl Observer<Table> for Recorder {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        if let Err(msg) = t.check_invariants() {
            panic!(
                "invariant broken after '{}' (events so far: {:#?}): {msg}",
                show(&e),
                self.lines()
            );
        }
        if matches!(e, Event::Discard { .. }) {
            // Cards leaving mid-round are followed by the JSON trace's
            // replay test (tests/trace_json.rs); the expected event lists
            // here name the decisions and effects only.
            return;
        }
        LOG.with(|l| l.borrow_mut().push(show(&e)));
        self.events.push(e);
        self.after.push(t.clone());
    }

    fn round_end(&mut self, t: &Table) {
        if let Err(msg) = t.check_invariants() {
            panic!("invariant broken at the end of the round: {msg}");
        }
        self.ends.push(t.clone());
    }

    fn game_end(&mut self, _t: &Table, winner: Option<usize>) {
        self.winner = Some(winner);
    }
}

impl Recorder {
    fn new() -> Recorder {
        LOG.with(|l| l.borrow_mut().clear());
        Recorder {
            events: Vec::new(),
            after: Vec::new(),
            ends: Vec::new(),
            winner: None,
        }
    }

    fn lines(&self) -> Vec<String> {
        self.events.iter().map(show).collect()
    }

    /// The table right after the one event shown as `text`.
    fn after(&self, text: &str) -> &Table {
        let hits: Vec<usize> = self
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| show(e) == text)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(
            hits.len(),
            1,
            "expected exactly one event '{text}' in {:#?}",
            self.lines()
        );
        &self.after[hits[0]]
    }

    /// The table at the end of the only (or last) round played.
    fn end(&self) -> &Table {
        self.ends.last().expect("no round ended")
    }
}

/// One event in a compact, readable form.
fn show(e: &Event) -> String {
    match *e {
        Event::RoundStart { round, dealer } => format!("round {round}, dealer {dealer}"),
        Event::Reshuffle { cards } => format!("reshuffle: {cards} cards"),
        Event::Exhausted { cycled: false } => "no card left".into(),
        Event::Exhausted { cycled: true } => "cycle guard".into(),
        Event::Hit { seat } => format!("{seat} hits"),
        Event::Stay { seat } => format!("{seat} stays"),
        Event::Flip {
            seat,
            card,
            via: Via::Deal,
        } => format!("{seat} dealt {}", name(card)),
        Event::Flip {
            seat,
            card,
            via: Via::Hit,
        } => format!("{seat} draws {}", name(card)),
        Event::Flip {
            seat,
            card,
            via: Via::FlipThree(k),
        } => format!("{seat} flips {} ({k}/3)", name(card)),
        Event::Bust { seat } => format!("{seat} busts"),
        Event::SecondChanceUsed { seat, card } => format!("{seat} uses second chance on {}", name(card)),
        Event::SecondChanceGiven { from, to } => format!("{from} gives second chance to {to}"),
        Event::SecondChanceDiscarded { seat } => format!("{seat} discards second chance"),
        Event::Assign { from, to, card } => format!("{from} assigns {} to {to}", name(card)),
        Event::SetAside { seat, card } => format!("{seat} sets aside {}", name(card)),
        Event::Fizzle { seat, card } => format!("{seat} discards unused {}", name(card)),
        Event::Frozen { seat } => format!("{seat} frozen"),
        Event::FlipThreeStart { seat } => format!("{seat} starts flip three"),
        Event::Flip7 { seat } => format!("{seat} flip 7"),
        Event::Discard { seat, card } => format!("{seat} discards {}", name(card)),
    }
}

/// Compares the recorded events with `expected`, showing both in full and
/// the first difference when they differ.
fn assert_events(rec: &Recorder, expected: &[&str]) {
    let got = rec.lines();
    if got.iter().map(String::as_str).eq(expected.iter().copied()) {
        return;
    }
    let first = got
        .iter()
        .zip(expected)
        .position(|(g, e)| g != e)
        .unwrap_or(got.len().min(expected.len()));
    let width = expected.iter().map(|s| s.len()).max().unwrap_or(0).max(8);
    let mut report = format!("events differ at #{first}\n    {:<width$} | got\n", "expected");
    for i in 0..got.len().max(expected.len()) {
        let e = expected.get(i).copied().unwrap_or("-");
        let g = got.get(i).map(String::as_str).unwrap_or("-");
        let mark = if e == g { ' ' } else { '>' };
        report.push_str(&format!("{mark}{i:>3} {e:<width$} | {g}\n"));
    }
    panic!("{report}");
}

// ---------------------------------------------------------------------------
// Tables and rounds
// ---------------------------------------------------------------------------

fn full() -> [u8; KINDS] {
    composition(1, Without::default())
}

/// A new table of `players` with the full deck stacked so that the next
/// draws are `top`, in order.
fn table(players: usize, top: &[Card]) -> Table {
    table_with(players, full(), top)
}

fn table_with(players: usize, comp: [u8; KINDS], top: &[Card]) -> Table {
    let mut t = Table::new(Rules {
        players,
        composition: comp,
        single_round: false,
        fresh_deck: false,
    });
    t.set_deck(Deck::stacked(comp, top));
    t
}

/// Plays one round with the script, which must be used up exactly.
fn round(t: &mut Table, asks: &[Ask]) -> Recorder {
    let mut script = Script::new(asks);
    let mut rec = Recorder::new();
    t.play_round(&mut script, &mut rec, &mut Stacked);
    script.finish();
    assert_cleared(t);
    rec
}

/// After a round every card is in the draw or the discard pile.
fn assert_cleared(t: &Table) {
    assert_eq!(
        t.in_play_counts(),
        &[0; KINDS],
        "cards still in play after the round"
    );
    for s in 0..t.players() {
        assert_eq!(
            t.hand(s).front(),
            0,
            "seat {s} still has cards in front after the round"
        );
    }
    let discarded: usize = t.discard_counts().iter().map(|&c| usize::from(c)).sum();
    let all: usize = t.rules().composition.iter().map(|&c| usize::from(c)).sum();
    assert_eq!(t.pile_len() + discarded, all, "cards lost or created");
}

fn totals(t: &Table) -> Vec<u32> {
    (0..t.players()).map(|s| t.total(s)).collect()
}

/// Cards of kind `c` in the discard pile / in play.
fn discarded(t: &Table, c: Card) -> u8 {
    t.discard_counts()[c as usize]
}
fn in_play(t: &Table, c: Card) -> u8 {
    t.in_play_counts()[c as usize]
}

fn no_discards(t: &Table) -> bool {
    t.discard_counts().iter().all(|&c| c == 0)
}

// ---------------------------------------------------------------------------
// Basic rules: bust, scoring, Flip 7, Second Chance
// ---------------------------------------------------------------------------

#[test]
fn bust_scores_zero_modifiers_included() {
    let mut t = table(3, &[5, 9, 3, PLUS10, 5]);
    let rec = round(&mut t, &[Hit(1), Stay(2), Stay(0), Hit(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 5",
            "2 dealt 9",
            "0 dealt 3",
            "1 hits",
            "1 draws +10",
            "2 stays",
            "0 stays",
            "1 hits",
            "1 draws 5",
            "1 busts",
        ],
    );
    let h = rec.end().hand(1);
    assert_eq!(h.status, Status::Busted);
    assert_eq!(h.banked(), 15, "the cards would be worth 15");
    assert_eq!(h.score(), 0);
    assert_eq!(totals(&t), [3, 0, 9]);
}

#[test]
fn scoring_example_7_11_plus8_x2_is_44() {
    let mut t = table(2, &[7, 1, 11, PLUS8, TIMES2]);
    let rec = round(&mut t, &[Hit(1), Stay(0), Hit(1), Hit(1), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 7",
            "0 dealt 1",
            "1 hits",
            "1 draws 11",
            "0 stays",
            "1 hits",
            "1 draws +8",
            "1 hits",
            "1 draws x2",
            "1 stays",
        ],
    );
    assert_eq!(rec.end().hand(1).score(), 44);
    assert_eq!(totals(&t), [1, 44]);
}

#[test]
fn flip7_ends_round_immediately_and_scores_15_bonus_not_doubled_by_x2() {
    let mut t = table(
        3,
        &[1, 9, 12, 2, PLUS2, 3, PLUS4, TIMES2, 0, 4, 11, 5, PLUS6, 6, 10, 7],
    );
    let mut asks = vec![Hit(1), Stay(2), Hit(0)];
    for _ in 0..5 {
        asks.extend([Hit(1), Hit(0)]);
    }
    asks.push(Hit(1));
    let rec = round(&mut t, &asks);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 1",
            "2 dealt 9",
            "0 dealt 12",
            "1 hits",
            "1 draws 2",
            "2 stays",
            "0 hits",
            "0 draws +2",
            "1 hits",
            "1 draws 3",
            "0 hits",
            "0 draws +4",
            "1 hits",
            "1 draws x2",
            "0 hits",
            "0 draws 0",
            "1 hits",
            "1 draws 4",
            "0 hits",
            "0 draws 11",
            "1 hits",
            "1 draws 5",
            "0 hits",
            "0 draws +6",
            "1 hits",
            "1 draws 6",
            "0 hits",
            "0 draws 10",
            "1 hits",
            "1 draws 7",
            "1 flip 7",
        ],
    );
    let end = rec.end();
    assert_eq!(end.hand(1).status, Status::Flip7);
    assert_eq!(end.hand(1).banked(), 56, "(1+2+...+7) x2");
    assert_eq!(
        end.hand(1).score(),
        56 + 15,
        "the bonus is added after x2, not doubled"
    );
    // Seat 0 was still in the round and was never asked again; it banks.
    assert_eq!(end.hand(0).status, Status::Active);
    assert_eq!(
        end.hand(0).score(),
        12 + 11 + 10 + 2 + 4 + 6,
        "12, 0, 11, 10, +2, +4, +6"
    );
    assert_eq!(totals(&t), [45, 71, 9]);
}

#[test]
fn second_chance_used_automatically_on_duplicate_and_turn_ends() {
    let mut t = table(2, &[SC, 2, 11, 3, 11, 11]);
    // No question is asked when the Second Chance is used: the script has
    // no entry for it.
    let rec = round(&mut t, &[Hit(1), Hit(0), Hit(1), Stay(0), Hit(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "0 dealt 2",
            "1 hits",
            "1 draws 11",
            "0 hits",
            "0 draws 3",
            "1 hits",
            "1 draws 11",
            "1 uses second chance on 11",
            "0 stays",
            "1 hits",
            "1 draws 11",
            "1 busts",
        ],
    );
    let h = *rec.after("1 uses second chance on 11").hand(1);
    assert_eq!(h.status, Status::Active);
    assert!(!h.second_chance);
    assert_eq!((h.numbers, h.count, h.number_sum), (1 << 11, 1, 11));
    assert_eq!(totals(&t), [5, 0]);
}

// ---------------------------------------------------------------------------
// The FAQ, case by case
// ---------------------------------------------------------------------------

#[test]
fn faq01_busted_cards_stay_in_front_until_end_of_round() {
    let mut t = table(3, &[5, 8, 3, PLUS4, 6, 5]);
    let rec = round(&mut t, &[Hit(1), Stay(2), Hit(0), Hit(1), Stay(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 5",
            "2 dealt 8",
            "0 dealt 3",
            "1 hits",
            "1 draws +4",
            "2 stays",
            "0 hits",
            "0 draws 6",
            "1 hits",
            "1 draws 5",
            "1 busts",
            "0 stays",
        ],
    );
    for at in [rec.after("1 busts"), rec.after("0 stays"), rec.end()] {
        assert_eq!(at.hand(1).status, Status::Busted);
        assert_eq!(at.hand(1).front(), 3, "5, +4 and the busting 5 stay in front");
        assert_eq!(in_play(at, 5), 2);
        assert_eq!(in_play(at, PLUS4), 1);
        assert!(no_discards(at));
    }
    // End of the round: everything goes to the discard pile.
    assert_eq!(discarded(&t, 5), 2);
    assert_eq!(discarded(&t, PLUS4), 1);
    assert_eq!(totals(&t), [9, 0, 8]);
}

#[test]
fn faq02_freeze_dealt_in_initial_deal_can_target_player_not_yet_dealt() {
    let mut t = table(3, &[FREEZE, 7, 9]);
    let rec = round(&mut t, &[Give(1, FREEZE, 2), Hit(1), Stay(0), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Freeze",
            "1 assigns Freeze to 2",
            "2 frozen",
            "0 dealt 7",
            "1 hits",
            "1 draws 9",
            "0 stays",
            "1 stays",
        ],
    );
    let h = rec.end().hand(2);
    assert_eq!(h.status, Status::Frozen);
    assert_eq!(h.flipped, 0, "seat 2 was never dealt a card");
    assert_eq!(h.front(), 1, "only the Freeze");
    assert_eq!(totals(&t), [7, 9, 0]);
}

#[test]
fn faq03_freeze_can_be_assigned_to_yourself() {
    let mut t = table(3, &[4, 10, 6, FREEZE]);
    let rec = round(&mut t, &[Stay(1), Hit(2), Give(2, FREEZE, 2), Stay(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 4",
            "2 dealt 10",
            "0 dealt 6",
            "1 stays",
            "2 hits",
            "2 draws Freeze",
            "2 assigns Freeze to 2",
            "2 frozen",
            "0 stays",
        ],
    );
    assert_eq!(rec.end().hand(2).status, Status::Frozen);
    assert_eq!(totals(&t), [6, 4, 10]);
}

#[test]
fn faq04_freeze_and_frozen_players_cards_stay_face_up_and_score() {
    let mut t = table(3, &[8, 3, 5, FREEZE]);
    let rec = round(&mut t, &[Hit(1), Give(1, FREEZE, 2), Stay(0), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 8",
            "2 dealt 3",
            "0 dealt 5",
            "1 hits",
            "1 draws Freeze",
            "1 assigns Freeze to 2",
            "2 frozen",
            "0 stays",
            "1 stays",
        ],
    );
    for at in [rec.after("2 frozen"), rec.end()] {
        assert_eq!(at.hand(2).status, Status::Frozen);
        assert_eq!(at.hand(2).front(), 2, "the 3 and the Freeze");
        assert_eq!(at.hand(1).front(), 1, "the Freeze left seat 1");
        assert_eq!(in_play(at, FREEZE), 1);
        assert!(no_discards(at));
    }
    assert_eq!(rec.end().hand(2).score(), 3);
    assert_eq!(discarded(&t, FREEZE), 1);
    assert_eq!(totals(&t), [5, 8, 3]);
}

#[test]
fn faq05_second_chance_use_ends_turn_next_player_asked() {
    let mut t = table(3, &[SC, 6, 4, 9, 7, 9]);
    let rec = round(&mut t, &[Hit(1), Hit(2), Stay(0), Hit(1), Stay(2), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 6",
            "0 dealt 4",
            "1 hits",
            "1 draws 9",
            "2 hits",
            "2 draws 7",
            "0 stays",
            "1 hits",
            "1 draws 9",
            "1 uses second chance on 9",
            "2 stays",
            "1 stays",
        ],
    );
    assert_eq!(totals(&t), [4, 9, 13]);
}

#[test]
fn faq06_second_chance_and_duplicate_discarded_original_stays() {
    let mut t = table(2, &[9, 4, SC, 9]);
    let rec = round(&mut t, &[Hit(1), Stay(0), Hit(1), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 9",
            "0 dealt 4",
            "1 hits",
            "1 draws Second Chance",
            "0 stays",
            "1 hits",
            "1 draws 9",
            "1 uses second chance on 9",
            "1 stays",
        ],
    );
    let at = rec.after("1 uses second chance on 9");
    assert_eq!(discarded(at, 9), 1, "the duplicate");
    assert_eq!(discarded(at, SC), 1, "the Second Chance");
    assert_eq!(in_play(at, 9), 1, "the original 9");
    assert_eq!(in_play(at, SC), 0);
    let h = at.hand(1);
    assert_eq!(h.front(), 1);
    assert!(h.has(9) && !h.second_chance);
    assert_eq!(h.number_sum, 9);
    assert_eq!(totals(&t), [4, 9]);
}

#[test]
fn faq07_unused_second_chance_discarded_at_end_of_round() {
    let mut t = table(3, &[SC, 5, 6, 7, FREEZE, 3, 4, 5, 3]);
    let rec = round(&mut t, &[Hit(1), Hit(2), Give(2, FREEZE, 1), Stay(0), Stay(2)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 5",
            "0 dealt 6",
            "1 hits",
            "1 draws 7",
            "2 hits",
            "2 draws Freeze",
            "2 assigns Freeze to 1",
            "1 frozen",
            "0 stays",
            "2 stays",
        ],
    );
    assert!(rec.end().hand(1).second_chance, "frozen while holding it");
    assert_eq!(in_play(rec.end(), SC), 1);
    assert_eq!(discarded(&t, SC), 1, "discarded with the round's cards");
    assert_eq!(totals(&t), [6, 7, 5]);

    // Next round: the Second Chance is gone, so a duplicate busts.
    let rec = round(&mut t, &[Hit(1), Stay(2), Stay(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws 3",
            "1 busts",
            "2 stays",
            "0 stays",
        ],
    );
    assert_eq!(totals(&t), [11, 7, 9]);
}

#[test]
fn faq08_extra_second_chance_given_to_an_active_player_without_one() {
    let mut t = table(3, &[SC, 4, 5, SC, 5]);
    let rec = round(
        &mut t,
        &[Hit(1), Pass(1, Some(0)), Stay(2), Hit(0), Stay(1), Stay(0)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws Second Chance",
            "1 gives second chance to 0",
            "2 stays",
            "0 hits",
            "0 draws 5",
            "0 uses second chance on 5",
            "1 stays",
            "0 stays",
        ],
    );
    let at = rec.after("1 gives second chance to 0");
    assert!(at.hand(1).second_chance && at.hand(0).second_chance);
    assert_eq!(at.hand(1).front(), 1, "seat 1 keeps only its first");
    assert_eq!(at.hand(0).front(), 2, "the 5 and the Second Chance received");
    assert_eq!(totals(&t), [5, 0, 4]);
}

#[test]
fn faq08_extra_second_chance_discarded_when_no_active_player_can_take_it() {
    // Seat 1 holds one and seat 2 (without one) has stayed.
    let mut t = table(3, &[SC, 4, SC, 5, SC]);
    let rec = round(
        &mut t,
        &[Hit(1), Stay(2), Hit(0), Pass(0, None), Stay(1), Stay(0)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 4",
            "0 dealt Second Chance",
            "1 hits",
            "1 draws 5",
            "2 stays",
            "0 hits",
            "0 draws Second Chance",
            "0 discards second chance",
            "1 stays",
            "0 stays",
        ],
    );
    let at = rec.after("0 discards second chance");
    assert_eq!(discarded(at, SC), 1);
    assert_eq!(at.hand(0).front(), 1);
    assert!(at.hand(0).second_chance);
    assert_eq!(totals(&t), [0, 5, 4]);
}

#[test]
#[should_panic(expected = "cannot take it")]
fn faq08_extra_second_chance_cannot_go_to_a_player_who_holds_one() {
    let mut t = table(3, &[SC, 4, SC, 5, SC]);
    round(&mut t, &[Hit(1), Stay(2), Hit(0), Pass(0, Some(1))]);
}

#[test]
fn faq09_tie_at_200_plays_another_round() {
    let mut t = table(3, &[10, 7, 9, 7, 6, 12, 6, 8, 8, 11, 10, 2, 11]);
    t.set_totals(&[190, 195, 199]);
    let mut script = Script::new(&[
        // Round 0, dealt by seat 0: seats 0 and 1 tie at 205.
        Stay(1),
        Hit(2),
        Hit(0),
        Stay(0),
        // Round 1, dealt by seat 1: seats 0 and 2 tie at 211 (seat 2 was
        // not in the first tie).
        Stay(2),
        Stay(0),
        Hit(1),
        // Round 2, dealt by seat 2: seat 1, in neither tie, wins.
        Hit(0),
        Stay(1),
        Stay(2),
    ]);
    let mut rec = Recorder::new();
    let winner = t.play_game(&mut script, &mut rec, &mut Stacked);
    script.finish();
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 10",
            "2 dealt 7",
            "0 dealt 9",
            "1 stays",
            "2 hits",
            "2 draws 7",
            "2 busts",
            "0 hits",
            "0 draws 6",
            "0 stays",
            "round 1, dealer 1",
            "2 dealt 12",
            "0 dealt 6",
            "1 dealt 8",
            "2 stays",
            "0 stays",
            "1 hits",
            "1 draws 8",
            "1 busts",
            "round 2, dealer 2",
            "0 dealt 11",
            "1 dealt 10",
            "2 dealt 2",
            "0 hits",
            "0 draws 11",
            "0 busts",
            "1 stays",
            "2 stays",
        ],
    );
    let after_each: Vec<Vec<u32>> = rec.ends.iter().map(totals).collect();
    assert_eq!(
        after_each,
        [vec![205, 205, 199], vec![211, 205, 211], vec![211, 215, 213]]
    );
    assert_eq!(winner, Some(1));
    assert_eq!(rec.winner, Some(Some(1)));
}

#[test]
fn faq10_x2_doubles_number_cards_only_then_plus_cards_added() {
    let mut t = table(2, &[3, 1, 5, PLUS2, PLUS10, TIMES2]);
    let rec = round(&mut t, &[Hit(1), Stay(0), Hit(1), Hit(1), Hit(1), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "0 dealt 1",
            "1 hits",
            "1 draws 5",
            "0 stays",
            "1 hits",
            "1 draws +2",
            "1 hits",
            "1 draws +10",
            "1 hits",
            "1 draws x2",
            "1 stays",
        ],
    );
    assert_eq!(rec.end().hand(1).score(), (3 + 5) * 2 + 2 + 10);
    assert_eq!(totals(&t), [1, 28]);
}

#[test]
fn faq11_only_modifiers_x2_scores_nothing() {
    let mut t = table(3, &[PLUS2, 4, 5, PLUS6, TIMES2, FREEZE]);
    let rec = round(
        &mut t,
        &[Hit(1), Stay(2), Stay(0), Hit(1), Hit(1), Give(1, FREEZE, 1)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt +2",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws +6",
            "2 stays",
            "0 stays",
            "1 hits",
            "1 draws x2",
            "1 hits",
            "1 draws Freeze",
            "1 assigns Freeze to 1",
            "1 frozen",
        ],
    );
    let h = rec.end().hand(1);
    assert_eq!(h.status, Status::Frozen);
    assert_eq!((h.count, h.times2), (0, 1));
    assert_eq!(h.score(), 8, "+2 and +6; the x2 doubles no number");
    assert_eq!(totals(&t), [5, 8, 4]);
}

#[test]
fn faq12_flip_three_discarded_right_after_resolving() {
    let mut t = table(3, &[F3, 3, 4, 5, 6, F3, 6]);
    let rec = round(
        &mut t,
        &[Give(1, F3, 2), Stay(2), Hit(1), Give(1, F3, 0), Stay(1)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips 3 (1/3)",
            "2 flips 4 (2/3)",
            "2 flips 5 (3/3)",
            "2 stays",
            "0 dealt 6",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 0",
            "0 starts flip three",
            "0 flips 6 (1/3)",
            "0 busts",
            "1 stays",
        ],
    );
    // While resolving, the Flip Three lies in front of the resolver.
    let at = rec.after("2 flips 5 (3/3)");
    assert_eq!(
        (at.hand(2).front(), in_play(at, F3), discarded(at, F3)),
        (4, 1, 0)
    );
    // Three cards flipped without a bust: discarded at once.
    let at = rec.after("2 stays");
    assert_eq!(
        (at.hand(2).front(), in_play(at, F3), discarded(at, F3)),
        (3, 0, 1)
    );
    assert_eq!(at.hand(1).front(), 0);
    // Ended by a bust: discarded at once too; the busted cards stay.
    let at = rec.after("1 stays");
    assert_eq!(
        (at.hand(0).front(), in_play(at, F3), discarded(at, F3)),
        (2, 0, 2)
    );
    assert_eq!(totals(&t), [0, 0, 12]);
}

#[test]
fn faq13_only_active_player_must_assign_freeze_or_flip_three_to_self() {
    let mut t = table(3, &[5, 6, 7, 8, FREEZE, 5, 6, 7, 8, F3, 9, 10, 11]);
    let rec = round(
        &mut t,
        &[Hit(1), Stay(2), Stay(0), Hit(1), DefaultTarget(1, FREEZE)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 5",
            "2 dealt 6",
            "0 dealt 7",
            "1 hits",
            "1 draws 8",
            "2 stays",
            "0 stays",
            "1 hits",
            "1 draws Freeze",
            "1 assigns Freeze to 1",
            "1 frozen",
        ],
    );
    assert_eq!(totals(&t), [7, 13, 6]);

    let rec = round(
        &mut t,
        &[Hit(1), Stay(2), Stay(0), Hit(1), DefaultTarget(1, F3), Stay(1)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 5",
            "2 dealt 6",
            "0 dealt 7",
            "1 hits",
            "1 draws 8",
            "2 stays",
            "0 stays",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips 9 (1/3)",
            "1 flips 10 (2/3)",
            "1 flips 11 (3/3)",
            "1 stays",
        ],
    );
    assert_eq!(totals(&t), [14, 56, 12]);
}

#[test]
#[should_panic(expected = "out of the round")]
fn faq13_action_card_cannot_go_to_a_player_out_of_the_round() {
    let mut t = table(3, &[5, 6, 7, 8, FREEZE]);
    round(&mut t, &[Hit(1), Stay(2), Stay(0), Hit(1), Give(1, FREEZE, 2)]);
}

#[test]
fn faq14_chained_flip_three_set_aside_then_assigned() {
    let mut t = table(3, &[F3, 4, F3, 6, 7, 8, 9, 3]);
    let rec = round(
        &mut t,
        &[Give(1, F3, 1), Give(1, F3, 2), Stay(2), Stay(1), Stay(0)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips 4 (1/3)",
            "1 flips Flip Three (2/3)",
            "1 sets aside Flip Three",
            "1 flips 6 (3/3)",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips 7 (1/3)",
            "2 flips 8 (2/3)",
            "2 flips 9 (3/3)",
            "2 stays",
            "0 dealt 3",
            "1 stays",
            "0 stays",
        ],
    );
    // The new card counts toward the three and waits in front of seat 1.
    let at = rec.after("1 sets aside Flip Three");
    assert_eq!((at.hand(1).front(), in_play(at, F3)), (3, 2));
    // Assigned first; the original is still there until then.
    let at = rec.after("1 assigns Flip Three to 2");
    assert_eq!((at.hand(1).front(), at.hand(2).front()), (3, 1));
    assert_eq!((in_play(at, F3), discarded(at, F3)), (2, 0));
    // Then the original is discarded, and the new one resolves.
    let at = rec.after("2 starts flip three");
    assert_eq!(
        (at.hand(1).front(), in_play(at, F3), discarded(at, F3)),
        (2, 1, 1)
    );
    assert_eq!(totals(&t), [3, 10, 24]);
}

#[test]
fn faq14_chained_flip_three_discarded_unused_if_player_busts() {
    let mut t = table(3, &[5, F3, F3, 5, 7]);
    let rec = round(&mut t, &[Give(2, F3, 1), Stay(2), Stay(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 5",
            "2 dealt Flip Three",
            "2 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips Flip Three (1/3)",
            "1 sets aside Flip Three",
            "1 flips 5 (2/3)",
            "1 busts",
            "0 dealt 7",
            "2 stays",
            "0 stays",
        ],
    );
    let at = rec.after("0 dealt 7");
    assert_eq!(
        (in_play(at, F3), discarded(at, F3)),
        (0, 2),
        "both Flip Threes discarded"
    );
    assert_eq!(at.hand(1).front(), 2, "the two 5s");
    assert_eq!(totals(&t), [7, 0, 0]);
}

#[test]
fn faq15_freeze_drawn_during_flip_three_set_aside_then_assigned() {
    let mut t = table(3, &[4, 5, 6, F3, FREEZE, 7, 8]);
    let rec = round(
        &mut t,
        &[Hit(1), Give(1, F3, 2), Give(2, FREEZE, 0), Stay(2), Stay(1)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 4",
            "2 dealt 5",
            "0 dealt 6",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Freeze (1/3)",
            "2 sets aside Freeze",
            "2 flips 7 (2/3)",
            "2 flips 8 (3/3)",
            "2 assigns Freeze to 0",
            "0 frozen",
            "2 stays",
            "1 stays",
        ],
    );
    let at = rec.after("2 assigns Freeze to 0");
    assert_eq!(at.hand(0).status, Status::Active, "assigned, not yet in effect");
    assert_eq!(at.hand(0).front(), 2);
    assert_eq!((in_play(at, F3), discarded(at, F3)), (1, 0));
    let at = rec.after("0 frozen");
    assert_eq!(
        (in_play(at, F3), discarded(at, F3)),
        (0, 1),
        "Flip Three discarded before the Freeze acts"
    );
    assert_eq!(at.hand(2).front(), 3, "5, 7, 8");
    assert_eq!(totals(&t), [6, 4, 20]);
}

#[test]
fn faq15_freeze_drawn_during_flip_three_discarded_if_player_busts() {
    let mut t = table(3, &[4, 5, 6, F3, FREEZE, 5]);
    let rec = round(&mut t, &[Hit(1), Give(1, F3, 2), Stay(0), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 4",
            "2 dealt 5",
            "0 dealt 6",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Freeze (1/3)",
            "2 sets aside Freeze",
            "2 flips 5 (2/3)",
            "2 busts",
            "0 stays",
            "1 stays",
        ],
    );
    let at = rec.after("0 stays");
    assert_eq!((discarded(at, FREEZE), discarded(at, F3)), (1, 1));
    assert_eq!(at.hand(2).front(), 2, "the two 5s");
    assert_eq!(totals(&t), [6, 4, 0]);
}

#[test]
fn faq16_set_aside_cards_assigned_in_flip_order_then_take_effect_in_order() {
    let mut t = table(4, &[3, 4, 5, 6, F3, FREEZE, F3, 7, 8, 9, 10]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 2),
            Give(2, FREEZE, 3),
            Give(2, F3, 0),
            Stay(2),
            Stay(0),
            Stay(1),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "3 dealt 5",
            "0 dealt 6",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Freeze (1/3)",
            "2 sets aside Freeze",
            "2 flips Flip Three (2/3)",
            "2 sets aside Flip Three",
            "2 flips 7 (3/3)",
            "2 assigns Freeze to 3",
            "2 assigns Flip Three to 0",
            "3 frozen",
            "0 starts flip three",
            "0 flips 8 (1/3)",
            "0 flips 9 (2/3)",
            "0 flips 10 (3/3)",
            "2 stays",
            "0 stays",
            "1 stays",
        ],
    );
    let at = rec.after("2 assigns Flip Three to 0");
    assert_eq!(
        at.hand(3).status,
        Status::Active,
        "no card takes effect before all are assigned"
    );
    assert_eq!(discarded(at, F3), 0);
    assert_eq!(discarded(rec.after("3 frozen"), F3), 1);
    assert_eq!(totals(&t), [33, 3, 11, 5]);
}

#[test]
fn faq16a_freeze_then_flip_three_to_same_player_flip_three_discarded() {
    let mut t = table(3, &[3, 4, 5, F3, FREEZE, F3, 6]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 2),
            Give(2, FREEZE, 0),
            Give(2, F3, 0),
            Stay(2),
            Stay(1),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Freeze (1/3)",
            "2 sets aside Freeze",
            "2 flips Flip Three (2/3)",
            "2 sets aside Flip Three",
            "2 flips 6 (3/3)",
            "2 assigns Freeze to 0",
            "2 assigns Flip Three to 0",
            "0 frozen",
            "0 discards unused Flip Three",
            "2 stays",
            "1 stays",
        ],
    );
    let at = rec.after("0 discards unused Flip Three");
    assert_eq!(discarded(at, F3), 2);
    let h = at.hand(0);
    assert_eq!(
        (h.status, h.front(), h.flipped),
        (Status::Frozen, 2, 1),
        "the 5 and the Freeze; nothing flipped"
    );
    assert_eq!(totals(&t), [5, 3, 10]);
}

#[test]
fn faq16b_two_flip_threes_to_one_player_second_resolved_by_same_player() {
    let mut t = table(3, &[3, 4, 5, F3, F3, F3, 6, 7, 8, 9, 10, PLUS2, 11]);
    // Seat 0 is never asked where the second goes: it resolves it itself.
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 2),
            Give(2, F3, 0),
            Give(2, F3, 0),
            Stay(2),
            Stay(0),
            Stay(1),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Flip Three (1/3)",
            "2 sets aside Flip Three",
            "2 flips Flip Three (2/3)",
            "2 sets aside Flip Three",
            "2 flips 6 (3/3)",
            "2 assigns Flip Three to 0",
            "2 assigns Flip Three to 0",
            "0 starts flip three",
            "0 flips 7 (1/3)",
            "0 flips 8 (2/3)",
            "0 flips 9 (3/3)",
            "0 starts flip three",
            "0 flips 10 (1/3)",
            "0 flips +2 (2/3)",
            "0 flips 11 (3/3)",
            "2 stays",
            "0 stays",
            "1 stays",
        ],
    );
    assert_eq!(discarded(rec.after("2 stays"), F3), 3);
    assert_eq!(totals(&t), [52, 3, 10]);
}

#[test]
fn faq16b_two_flip_threes_to_one_player_second_discarded_after_bust() {
    let mut t = table(3, &[3, 4, 5, F3, F3, F3, 6, 7, 5]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 2),
            Give(2, F3, 0),
            Give(2, F3, 0),
            Stay(2),
            Stay(1),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Flip Three (1/3)",
            "2 sets aside Flip Three",
            "2 flips Flip Three (2/3)",
            "2 sets aside Flip Three",
            "2 flips 6 (3/3)",
            "2 assigns Flip Three to 0",
            "2 assigns Flip Three to 0",
            "0 starts flip three",
            "0 flips 7 (1/3)",
            "0 flips 5 (2/3)",
            "0 busts",
            "0 discards unused Flip Three",
            "2 stays",
            "1 stays",
        ],
    );
    let at = rec.after("0 discards unused Flip Three");
    assert_eq!((in_play(at, F3), discarded(at, F3)), (0, 3));
    assert_eq!(totals(&t), [0, 3, 10]);
}

#[test]
fn faq16c_lock_takes_effect_before_flip_three_assigned_later() {
    // A = seat 1, B = seat 2, C = seat 3; seat 0 deals.
    let mut t = table(4, &[F3, F3, FREEZE, 4, F3, 5, 6, 7]);
    let rec = round(
        &mut t,
        &[
            Give(1, F3, 1),
            Give(1, F3, 2),
            Give(1, FREEZE, 3),
            Give(2, F3, 3),
            Stay(2),
            Stay(1),
            Stay(0),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips Flip Three (1/3)",
            "1 sets aside Flip Three",
            "1 flips Freeze (2/3)",
            "1 sets aside Freeze",
            "1 flips 4 (3/3)",
            "1 assigns Flip Three to 2",
            "1 assigns Freeze to 3",
            "2 starts flip three",
            "2 flips Flip Three (1/3)",
            "2 sets aside Flip Three",
            "2 flips 5 (2/3)",
            "2 flips 6 (3/3)",
            "2 assigns Flip Three to 3",
            "3 frozen",
            "3 discards unused Flip Three",
            "2 stays",
            "0 dealt 7",
            "1 stays",
            "0 stays",
        ],
    );
    // B may give C Flip Three #3: C's Freeze has not taken effect yet.
    let at = rec.after("2 assigns Flip Three to 3");
    assert_eq!(at.hand(3).status, Status::Active);
    assert_eq!(at.hand(3).front(), 2, "the Freeze and Flip Three #3");
    assert_eq!(discarded(at, F3), 1, "#1 only");
    // B's #2 is discarded, then the Freeze acts, then #3 is discarded unused.
    assert_eq!(discarded(rec.after("3 frozen"), F3), 2);
    let at = rec.after("3 discards unused Flip Three");
    assert_eq!(discarded(at, F3), 3);
    assert_eq!((at.hand(3).status, at.hand(3).front()), (Status::Frozen, 1));
    assert_eq!(totals(&t), [7, 4, 11, 0]);
}

#[test]
fn faq17_flip_three_dealt_in_initial_deal_assigned_and_resolved_at_once() {
    let mut t = table(3, &[F3, 2, 3, 4, F3, 5, 6, 7]);
    let rec = round(
        &mut t,
        &[Give(1, F3, 1), Give(2, F3, 0), Stay(0), Stay(1), Stay(2)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips 2 (1/3)",
            "1 flips 3 (2/3)",
            "1 flips 4 (3/3)",
            "2 dealt Flip Three",
            "2 assigns Flip Three to 0",
            "0 starts flip three",
            "0 flips 5 (1/3)",
            "0 flips 6 (2/3)",
            "0 flips 7 (3/3)",
            "0 stays",
            "1 stays",
            "2 stays",
        ],
    );
    assert_eq!(totals(&t), [18, 9, 0]);
}

#[test]
fn faq18_player_with_cards_at_initial_deal_is_asked_and_may_stay() {
    let mut t = table(3, &[F3, 3, 4, 5, 6, 7]);
    let rec = round(&mut t, &[Give(1, F3, 2), Stay(2), Hit(1), Stay(0), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips 3 (1/3)",
            "2 flips 4 (2/3)",
            "2 flips 5 (3/3)",
            "2 stays",
            "0 dealt 6",
            "1 hits",
            "1 draws 7",
            "0 stays",
            "1 stays",
        ],
    );
    assert_eq!(
        rec.end().hand(2).flipped,
        3,
        "no initial card was forced on seat 2"
    );
    assert_eq!(totals(&t), [6, 7, 12]);
}

#[test]
fn faq18_flip_three_of_only_action_cards_before_the_deal_is_asked_hit_or_stay() {
    // Seat 1 is dealt a Flip Three and gives it to seat 2, who has not been
    // dealt yet. All three flips are Freezes: set aside, then given to the
    // other players, so nothing is left in front of seat 2. Seat 2 has been
    // dealt cards all the same: when the deal reaches it, it is asked Hit or
    // Stay (and may stay), not dealt a card.
    let mut t = table(4, &[F3, FREEZE, FREEZE, FREEZE, 5, 6]);
    let rec = round(
        &mut t,
        &[
            Give(1, F3, 2),
            Give(2, FREEZE, 3),
            Give(2, FREEZE, 0),
            Give(2, FREEZE, 1),
            Stay(2),
        ],
    );
    let end = rec.end();
    assert_eq!(end.hand(2).front(), 0, "the Freezes went to the others");
    assert_eq!(end.hand(2).flipped, 3, "no initial card was forced on seat 2");
    assert!(
        !rec.lines().iter().any(|e| e.starts_with("2 dealt")),
        "{:#?}",
        rec.lines()
    );
    assert_eq!(totals(&t), [0, 0, 0, 0]);
}

#[test]
fn faq18_player_with_cards_at_initial_deal_is_asked_and_may_hit() {
    let mut t = table(3, &[F3, 3, 4, 5, 9, 6, 10]);
    let rec = round(
        &mut t,
        &[Give(1, F3, 2), Hit(2), Stay(1), Hit(2), Stay(0), Stay(2)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips 3 (1/3)",
            "2 flips 4 (2/3)",
            "2 flips 5 (3/3)",
            "2 hits",
            "2 draws 9",
            "0 dealt 6",
            "1 stays",
            "2 hits",
            "2 draws 10",
            "0 stays",
            "2 stays",
        ],
    );
    assert_eq!(totals(&t), [6, 0, 31]);
}

#[test]
fn faq19_next_turn_after_player_originally_dealt_flip_three() {
    // A = seat 1, B = seat 2, C = seat 3, D = seat 0 (the dealer).
    let mut t = table(4, &[3, 4, 5, 6, F3, 7, F3, 8, 9, 10, 11]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 3),
            Give(3, F3, 0),
            Stay(2),
            Stay(3),
            Stay(0),
            Stay(1),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "3 dealt 5",
            "0 dealt 6",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 3",
            "3 starts flip three",
            "3 flips 7 (1/3)",
            "3 flips Flip Three (2/3)",
            "3 sets aside Flip Three",
            "3 flips 8 (3/3)",
            "3 assigns Flip Three to 0",
            "0 starts flip three",
            "0 flips 9 (1/3)",
            "0 flips 10 (2/3)",
            "0 flips 11 (3/3)",
            // B, next after A, not after C or D.
            "2 stays",
            "3 stays",
            "0 stays",
            "1 stays",
        ],
    );
    assert_eq!(totals(&t), [36, 3, 4, 20]);
}

#[test]
fn faq20_bust_during_flip_three_stops_drawing_at_once() {
    let mut t = table(3, &[F3, 5, 5, 6, 7]);
    let rec = round(&mut t, &[Give(1, F3, 2), Hit(1), Stay(0), Stay(1)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Flip Three",
            "1 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips 5 (1/3)",
            "2 flips 5 (2/3)",
            "2 busts",
            // No third card; seat 2 is out and is not dealt either.
            "0 dealt 6",
            "1 hits",
            "1 draws 7",
            "0 stays",
            "1 stays",
        ],
    );
    let h = rec.end().hand(2);
    assert_eq!((h.status, h.flipped, h.front()), (Status::Busted, 2, 2));
    assert_eq!(totals(&t), [6, 7, 0]);
}

#[test]
fn faq21_flip7_during_flip_three_ends_round_at_once() {
    let mut t = table(3, &[1, 9, 12, 2, PLUS2, 3, PLUS4, 4, 0, 5, 11, 6, F3, F3, 7]);
    let mut asks = vec![Hit(1), Stay(2), Hit(0)];
    for _ in 0..4 {
        asks.extend([Hit(1), Hit(0)]);
    }
    asks.push(Give(0, F3, 1));
    let rec = round(&mut t, &asks);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 1",
            "2 dealt 9",
            "0 dealt 12",
            "1 hits",
            "1 draws 2",
            "2 stays",
            "0 hits",
            "0 draws +2",
            "1 hits",
            "1 draws 3",
            "0 hits",
            "0 draws +4",
            "1 hits",
            "1 draws 4",
            "0 hits",
            "0 draws 0",
            "1 hits",
            "1 draws 5",
            "0 hits",
            "0 draws 11",
            "1 hits",
            "1 draws 6",
            "0 hits",
            "0 draws Flip Three",
            "0 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips Flip Three (1/3)",
            "1 sets aside Flip Three",
            "1 flips 7 (2/3)",
            "1 flip 7",
        ],
    );
    let end = rec.end();
    assert_eq!(end.hand(1).status, Status::Flip7);
    assert_eq!(end.hand(1).flipped, 8, "dealt 1, 5 hits, 2 of the Flip Three");
    assert_eq!(
        end.hand(1).front(),
        9,
        "7 numbers, the set-aside and the original Flip Three"
    );
    assert_eq!(
        end.hand(0).status,
        Status::Active,
        "seat 0 is never asked again but banks"
    );
    assert_eq!(discarded(&t, F3), 2, "the set-aside Flip Three is never assigned");
    assert_eq!(t.pile_len(), 94 - 15);
    assert_eq!(totals(&t), [29, 43, 9]);
}

#[test]
fn faq22_second_chance_held_before_flip_three_can_be_used_during_it() {
    let mut t = table(3, &[SC, 4, 5, 8, F3, 9, 8, 10]);
    let rec = round(
        &mut t,
        &[Hit(1), Hit(2), Give(2, F3, 1), Stay(0), Stay(1), Stay(2)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws 8",
            "2 hits",
            "2 draws Flip Three",
            "2 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips 9 (1/3)",
            "1 flips 8 (2/3)",
            "1 uses second chance on 8",
            "1 flips 10 (3/3)",
            "0 stays",
            "1 stays",
            "2 stays",
        ],
    );
    assert_eq!(totals(&t), [5, 27, 4]);
}

#[test]
fn faq23_second_chance_drawn_during_flip_three_while_holding_one_is_passed() {
    let mut t = table(3, &[SC, 4, 5, F3, SC, 6, 7, 5]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 1),
            Pass(1, Some(0)),
            Stay(2),
            Hit(0),
            Stay(1),
            Stay(0),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 4",
            "0 dealt 5",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips Second Chance (1/3)",
            "1 gives second chance to 0",
            "1 flips 6 (2/3)",
            "1 flips 7 (3/3)",
            "2 stays",
            "0 hits",
            "0 draws 5",
            "0 uses second chance on 5",
            "1 stays",
            "0 stays",
        ],
    );
    assert_eq!(totals(&t), [5, 13, 4]);
}

#[test]
fn faq23_second_chance_drawn_during_flip_three_discarded_when_alone() {
    let mut t = table(2, &[SC, 5, 6, F3, SC, 7, 8]);
    let rec = round(
        &mut t,
        &[Hit(1), Stay(0), Hit(1), Give(1, F3, 1), Pass(1, None), Stay(1)],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "0 dealt 5",
            "1 hits",
            "1 draws 6",
            "0 stays",
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips Second Chance (1/3)",
            "1 discards second chance",
            "1 flips 7 (2/3)",
            "1 flips 8 (3/3)",
            "1 stays",
        ],
    );
    let at = rec.after("1 discards second chance");
    assert_eq!(discarded(at, SC), 1);
    assert!(at.hand(1).second_chance, "still holds the first");
    assert_eq!(totals(&t), [5, 21]);
}

#[test]
fn faq24_second_chance_drawn_during_flip_three_kept_and_usable() {
    let mut t = table(3, &[6, 4, 5, F3, SC, 6, 7, F3, SC, 8, 9, 8]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Give(1, F3, 1),
            Hit(2),
            Give(2, F3, 2),
            Stay(0),
            Stay(1),
            Hit(2),
            Stay(2),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 6",
            "2 dealt 4",
            "0 dealt 5",
            // Kept, and used later in the same Flip Three.
            "1 hits",
            "1 draws Flip Three",
            "1 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips Second Chance (1/3)",
            "1 flips 6 (2/3)",
            "1 uses second chance on 6",
            "1 flips 7 (3/3)",
            // Kept, unused during the Flip Three, used later in the round.
            "2 hits",
            "2 draws Flip Three",
            "2 assigns Flip Three to 2",
            "2 starts flip three",
            "2 flips Second Chance (1/3)",
            "2 flips 8 (2/3)",
            "2 flips 9 (3/3)",
            "0 stays",
            "1 stays",
            "2 hits",
            "2 draws 8",
            "2 uses second chance on 8",
            "2 stays",
        ],
    );
    assert!(rec.after("2 flips 9 (3/3)").hand(2).second_chance);
    assert_eq!(totals(&t), [5, 13, 21]);
}

// ---------------------------------------------------------------------------
// Running out of cards
// ---------------------------------------------------------------------------

/// A deck of `comp` whose draw pile holds only `pile` (drawn in that order)
/// and whose discard pile holds every other card.
fn deck_with_short_pile(comp: [u8; KINDS], pile: &[Card]) -> Deck {
    let mut rest = comp;
    for &c in pile {
        rest[c as usize] -= 1;
    }
    let mut order: Vec<Card> = Vec::new();
    for (kind, &count) in rest.iter().enumerate() {
        order.extend(std::iter::repeat_n(kind as Card, usize::from(count)));
    }
    let to_discard = order.len();
    order.extend_from_slice(pile);
    let mut deck = Deck::stacked(comp, &order);
    for _ in 0..to_discard {
        let c = deck.draw(&mut Stacked).unwrap();
        deck.discard(c);
    }
    assert_eq!(deck.pile_len(), pile.len());
    deck.check_conservation().unwrap();
    deck
}

#[test]
fn reshuffle_mid_round_takes_only_discard_pile_cards_in_front_stay() {
    // Numbers only, so the reshuffled pile (drawn by Stacked from its
    // highest kind) starts with the 12s.
    let comp = composition(
        1,
        Without {
            freeze: true,
            flip_three: true,
            second_chance: true,
            modifiers: true,
        },
    );
    let mut t = Table::new(Rules {
        players: 3,
        composition: comp,
        single_round: false,
        fresh_deck: false,
    });
    t.set_deck(deck_with_short_pile(comp, &[5, 9, 4, 5, 8]));
    let rec = round(&mut t, &[Hit(1), Hit(2), Hit(0), Stay(2), Stay(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 5",
            "2 dealt 9",
            "0 dealt 4",
            "1 hits",
            "1 draws 5",
            "1 busts",
            "2 hits",
            "2 draws 8",
            "0 hits",
            "reshuffle: 74 cards",
            "0 draws 12",
            "2 stays",
            "0 stays",
        ],
    );
    let before = rec.after("0 hits");
    assert_eq!(before.pile_len(), 0);
    let at = rec.after("reshuffle: 74 cards");
    assert_eq!(at.pile_len(), 79 - 5);
    assert!(no_discards(at), "the whole discard pile was shuffled in");
    assert_eq!(
        at.in_play_counts(),
        before.in_play_counts(),
        "cards in front stay where they are"
    );
    let mut expected = [0u8; KINDS];
    for c in [5, 5, 9, 4, 8] {
        expected[c as usize] += 1;
    }
    assert_eq!(at.in_play_counts(), &expected);
    assert_eq!(
        (at.hand(1).status, at.hand(1).front()),
        (Status::Busted, 2),
        "even a busted player's"
    );
    assert_eq!((at.hand(2).front(), at.hand(0).front()), (2, 1));
    assert_eq!(rec.after("0 draws 12").pile_len(), 73);
    assert_eq!(totals(&t), [16, 0, 17]);
}

#[test]
fn no_card_left_to_draw_ends_round_and_active_players_bank_their_cards() {
    let mut comp = [0u8; KINDS];
    for c in [1, 2, 3, 4] {
        comp[c] = 1;
    }
    comp[5] = 2;
    let mut t = table_with(3, comp, &[1, 2, 5, 5, 3, 4]);
    let rec = round(&mut t, &[Hit(1), Stay(2), Hit(0), Hit(1), Hit(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 1",
            "2 dealt 2",
            "0 dealt 5",
            "1 hits",
            "1 draws 5",
            "2 stays",
            "0 hits",
            "0 draws 3",
            "1 hits",
            "1 draws 4",
            "0 hits",
            "no card left",
        ],
    );
    let end = rec.end();
    assert_eq!(
        (end.hand(0).status, end.hand(0).front()),
        (Status::Active, 2),
        "no card was flipped"
    );
    assert_eq!(end.hand(1).status, Status::Active);
    assert_eq!(totals(&t), [8, 10, 2]);

    // The next round starts by shuffling the discard pile.
    let rec = round(&mut t, &[Stay(1), Stay(2), Stay(0)]);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "reshuffle: 6 cards",
            "1 dealt 5",
            "2 dealt 5",
            "0 dealt 4",
            "1 stays",
            "2 stays",
            "0 stays",
        ],
    );
    assert_eq!(totals(&t), [12, 15, 7]);
}

// ---------------------------------------------------------------------------
// Default action-card choices (policies.rs)
// ---------------------------------------------------------------------------

#[test]
fn default_freeze_target_highest_total_active_opponent_ties_first_clockwise_else_self() {
    let mut t = table(5, &[FREEZE, FREEZE, 5, FREEZE]);
    t.set_totals(&[60, 10, 100, 120, 60]);
    let rec = round(
        &mut t,
        &[
            // Opponents of 1: 2 (100), 3 (120), 4 (60), 0 (60).
            DefaultTarget(1, FREEZE),
            // Opponents of 2 still in: 4 (60), 0 (60), 1 (10); 4 is first
            // clockwise from 2 (though 0 is the lower seat number).
            DefaultTarget(2, FREEZE),
            Stay(1),
            Stay(2),
            Hit(0),
            // Nobody else is in: seat 0 freezes itself.
            DefaultTarget(0, FREEZE),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Freeze",
            "1 assigns Freeze to 3",
            "3 frozen",
            "2 dealt Freeze",
            "2 assigns Freeze to 4",
            "4 frozen",
            "0 dealt 5",
            "1 stays",
            "2 stays",
            "0 hits",
            "0 draws Freeze",
            "0 assigns Freeze to 0",
            "0 frozen",
        ],
    );
    assert_eq!(totals(&t), [65, 10, 100, 120, 60]);
}

#[test]
fn default_flip_three_target_most_number_cards_then_highest_total_else_self() {
    let mut t = table(
        5,
        &[3, 4, 5, 6, 7, 8, F3, 9, 3, F3, 10, 11, PLUS4, F3, 12, PLUS6, 2],
    );
    t.set_totals(&[60, 0, 30, 80, 50]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Hit(2),
            // Seat 1 holds two numbers, everyone else one: seat 1, despite
            // the lowest total and coming last clockwise from 2.
            DefaultTarget(2, F3),
            Hit(3),
            // One number each: 4 (50), 0 (60), 2 (30): the highest total.
            DefaultTarget(3, F3),
            Stay(4),
            Stay(0),
            Stay(2),
            Hit(3),
            // Nobody else is in: seat 3 takes it.
            DefaultTarget(3, F3),
            Stay(3),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 3",
            "2 dealt 4",
            "3 dealt 5",
            "4 dealt 6",
            "0 dealt 7",
            "1 hits",
            "1 draws 8",
            "2 hits",
            "2 draws Flip Three",
            "2 assigns Flip Three to 1",
            "1 starts flip three",
            "1 flips 9 (1/3)",
            "1 flips 3 (2/3)",
            "1 busts",
            "3 hits",
            "3 draws Flip Three",
            "3 assigns Flip Three to 0",
            "0 starts flip three",
            "0 flips 10 (1/3)",
            "0 flips 11 (2/3)",
            "0 flips +4 (3/3)",
            "4 stays",
            "0 stays",
            "2 stays",
            "3 hits",
            "3 draws Flip Three",
            "3 assigns Flip Three to 3",
            "3 starts flip three",
            "3 flips 12 (1/3)",
            "3 flips +6 (2/3)",
            "3 flips 2 (3/3)",
            "3 stays",
        ],
    );
    assert_eq!(totals(&t), [92, 0, 34, 105, 56]);
}

#[test]
fn default_flip_three_target_full_tie_goes_first_clockwise() {
    let mut t = table(4, &[4, 5, 6, 7, PLUS2, F3, 8, 9, 10]);
    t.set_totals(&[20, 10, 0, 20]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Hit(2),
            // One number each; 3 and 0 tie at 20 (1 has 10): 3 is first
            // clockwise from 2.
            DefaultTarget(2, F3),
            Stay(3),
            Stay(0),
            Stay(1),
            Stay(2),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt 4",
            "2 dealt 5",
            "3 dealt 6",
            "0 dealt 7",
            "1 hits",
            "1 draws +2",
            "2 hits",
            "2 draws Flip Three",
            "2 assigns Flip Three to 3",
            "3 starts flip three",
            "3 flips 8 (1/3)",
            "3 flips 9 (2/3)",
            "3 flips 10 (3/3)",
            "3 stays",
            "0 stays",
            "1 stays",
            "2 stays",
        ],
    );
    assert_eq!(totals(&t), [27, 16, 5, 53]);
}

#[test]
fn default_second_chance_to_active_opponent_without_one_lowest_total_else_discarded() {
    let mut t = table(5, &[SC, 4, 5, 6, 7, 8, 9, 10, 11, SC, 12, SC]);
    t.set_totals(&[10, 99, 50, 10, 0]);
    let rec = round(
        &mut t,
        &[
            Hit(1),
            Hit(2),
            Hit(3),
            Stay(4),
            Hit(0),
            Hit(1),
            // Eligible: 2 (50), 3 (10), 0 (10); seat 4 (0) has stayed.
            // 3 and 0 tie: 3 is first clockwise from 1.
            DefaultPass(1),
            Stay(2),
            Hit(3),
            Stay(0),
            // Seat 3 holds one, everyone else is out: discarded.
            Hit(1),
            DefaultPass(1),
            Stay(3),
            Stay(1),
        ],
    );
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Second Chance",
            "2 dealt 4",
            "3 dealt 5",
            "4 dealt 6",
            "0 dealt 7",
            "1 hits",
            "1 draws 8",
            "2 hits",
            "2 draws 9",
            "3 hits",
            "3 draws 10",
            "4 stays",
            "0 hits",
            "0 draws 11",
            "1 hits",
            "1 draws Second Chance",
            "1 gives second chance to 3",
            "2 stays",
            "3 hits",
            "3 draws 12",
            "0 stays",
            "1 hits",
            "1 draws Second Chance",
            "1 discards second chance",
            "3 stays",
            "1 stays",
        ],
    );
    assert_eq!(totals(&t), [28, 107, 63, 37, 6]);
}

#[test]
fn seats_chooser_uses_stay_at_and_the_default_choices() {
    let mut t = table(3, &[FREEZE, 7, 12, 4]);
    t.set_totals(&[0, 0, 50]);
    let mut seats = Seats::new(vec![Policy::stay_at(10); 3]);
    let mut rec = Recorder::new();
    t.play_round(&mut seats, &mut rec, &mut Stacked);
    assert_cleared(&t);
    assert_events(
        &rec,
        &[
            "round 0, dealer 0",
            "1 dealt Freeze",
            "1 assigns Freeze to 2",
            "2 frozen",
            "0 dealt 7",
            "1 hits",
            "1 draws 12",
            "0 hits",
            "0 draws 4",
            "1 stays",
            "0 stays",
        ],
    );
    assert_eq!(totals(&t), [11, 12, 50]);
}

/// Reading (docs/rules/flip7.md): the discard pile is reshuffled whenever
/// the draw pile runs out and it holds cards, as often as needed; only a
/// round that cycles the same cards through `MAX_RESHUFFLES_PER_ROUND`
/// reshuffles is ended (the cycle guard), and it is counted. A lone player
/// who never stays cycles a Second Chance and the duplicate it cancels.
#[test]
fn reshuffles_as_often_as_needed_and_only_an_endless_cycle_is_cut() {
    let mut comp = [0u8; KINDS];
    comp[7] = 2;
    comp[SC as usize] = 1;
    let mut t = table_with(1, comp, &[7, SC, 7]);
    let hits = 1 + 2 * (usize::from(MAX_RESHUFFLES_PER_ROUND) + 1);
    let rec = round(&mut t, &vec![Hit(0); hits]);
    let lines = rec.lines();
    let reshuffles = lines
        .iter()
        .filter(|l| l.as_str() == "reshuffle: 2 cards")
        .count();
    assert_eq!(reshuffles, usize::from(MAX_RESHUFFLES_PER_ROUND));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("0 uses second chance"))
            .count(),
        reshuffles + 1
    );
    assert_eq!(lines.last().map(String::as_str), Some("cycle guard"));
    assert!(!lines.iter().any(|l| l == "no card left"));
    assert!(rec.end().cycled());
    assert_eq!(rec.end().hand(0).status, Status::Active);
    assert_eq!(totals(&t), [7]);
}

/// The rule text has no limit on reshuffles: a round with many players that
/// empties the draw pile a third time reshuffles again and plays on (it
/// used to end after two reshuffles with cards still in the discard pile).
#[test]
fn a_third_reshuffle_in_a_round_is_played_not_cut_off() {
    // `sim flip7 --players 36 --policy stay-at-60 --seed 51 --games 1`,
    // played through the same code as the command line.
    use sim::engine::rng::batch_rng;
    use sim::games::flip7::Flip7Sim;
    let sim = Flip7Sim::new(
        36,
        &[Policy::parse("stay-at-60").unwrap()],
        false,
        Without::default(),
    )
    .unwrap();
    struct Count {
        most: usize,
        now: usize,
        starved: usize,
    }
    impl Observer<Table> for Count {
        const EVENTS: bool = true;
        fn event(&mut self, t: &Table, e: Event) {
            match e {
                Event::Reshuffle { .. } => {
                    self.now += 1;
                    self.most = self.most.max(self.now);
                }
                Event::Exhausted { cycled } => {
                    assert!(!cycled, "no cycle in a real game");
                    assert_eq!(
                        t.discard_counts().iter().map(|&c| usize::from(c)).sum::<usize>(),
                        0
                    );
                    self.starved += 1;
                }
                _ => {}
            }
        }
        fn round_end(&mut self, _: &Table) {
            self.now = 0;
        }
    }
    let mut count = Count {
        most: 0,
        now: 0,
        starved: 0,
    };
    let mut table = Table::new(sim.rules);
    let mut seats = Seats::new(sim.policies.clone());
    let mut rng = sim::engine::rng::game_rng(&mut batch_rng(51, 0));
    table.new_game(&mut rng);
    table.play_game(&mut seats, &mut count, &mut rng);
    assert!(count.most >= 3, "reshuffles in the busiest round: {}", count.most);
}
