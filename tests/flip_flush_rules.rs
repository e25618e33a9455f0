//! The rules of Flip-Flush (`docs/rules/flip-flush.md`), one test per rule
//! and per reading.
//!
//! Every test deals a stacked deck through the real engine, plays a scripted
//! [`Chooser`] (every move in the order the engine must ask for it; it
//! panics on any other question or when the script runs out, and the script
//! must be used up) and records every event with an [`Observer`] that checks
//! the table's invariants after each one. Each test then compares the exact
//! sequence of events and, where a rule is about where cards go, the table.
//!
//! Cells are numbered row by row: `0 1 2 / 3 4 5 / 6 7 8`. Cards are written
//! rank then suit (`AS`, `10H`, `QC`).

use std::collections::VecDeque;

use sim::engine::rng::{Stacked, batch_rng};
use sim::engine::runner::{Accumulator, Simulation};
use sim::games::flip_flush::FlipFlushSim;
use sim::games::flip_flush::cards::{self, ALL, Card, CardSet, Cell, Deck, name};
use sim::games::flip_flush::policies::{Policy, Seats};
use sim::games::flip_flush::rules::{
    Chooser, End, Event, Fault, MEMORY_ONE, Move, Observer, Rules, Silent, Table, View,
};

// ---------------------------------------------------------------------------
// Cards, tables and the script
// ---------------------------------------------------------------------------

fn c(text: &str) -> Card {
    cards::parse(text).unwrap_or_else(|| panic!("no card {text}"))
}

fn set(text: &str) -> CardSet {
    text.split_whitespace().fold(0, |m, t| m | 1 << c(t))
}

/// A table whose deal gives seat `s` the cards `hands[s]` (eight each,
/// space-separated), dealt one at a time clockwise from a stacked deck.
fn table(rules: Rules, hands: &[&str]) -> Table {
    let mut t = Table::new(rules);
    stack(&mut t, hands);
    t
}

fn stack(t: &mut Table, hands: &[&str]) {
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| h.split_whitespace().map(c).collect())
        .collect();
    assert!(hands.iter().all(|h| h.len() == 8));
    let mut top = Vec::new();
    for k in 0..8 {
        for h in &hands {
            top.push(h[k]);
        }
    }
    t.set_deck(Deck::stacked(&top));
    t.deal(&mut Stacked);
}

fn rules(players: usize) -> Rules {
    Rules::standard(players)
}

fn gambling(players: usize) -> Rules {
    Rules {
        gambling: true,
        ..Rules::standard(players)
    }
}

/// Hands used by most tests: seat 0 has hearts, seat 1 clubs, seat 2
/// spades.
const H0: &str = "AH 2H 3H 4H 5H 6H 7H 8H";
const H1: &str = "AC 2C 3C 4C 5C 6C 7C 8C";
const H2: &str = "AS 2S 3S 4S 5S 6S 7S 8S";

/// One scripted move: who must be asked, and what they do.
#[derive(Clone, Copy, Debug)]
enum Ask {
    /// `.0` places card `.1` on cell `.2`.
    Place(usize, &'static str, usize),
    /// `.0` flips cell `.1` without calling.
    Flip(usize, usize),
    /// `.0` calls a Flush and flips cell `.1`.
    Call(usize, usize),
}
use Ask::*;

struct Script {
    asks: VecDeque<Ask>,
}

impl Script {
    fn new(asks: &[Ask]) -> Script {
        Script {
            asks: asks.iter().copied().collect(),
        }
    }
}

impl Chooser for Script {
    fn choose<D: sim::engine::rng::Draw>(&mut self, v: &View<'_>, _d: &mut D) -> Move {
        let seat = v.seat();
        let ask = self
            .asks
            .pop_front()
            .unwrap_or_else(|| panic!("script ran out: seat {seat} was asked to move"));
        let (who, mv) = match ask {
            Place(s, card, cell) => (s, Move::Place { card: c(card), cell }),
            Flip(s, cell) => (s, Move::Flip { cell, call: false }),
            Call(s, cell) => (s, Move::Flip { cell, call: true }),
        };
        assert_eq!(
            who, seat,
            "seat {seat} was asked to move, the script expected {ask:?}"
        );
        mv
    }
}

/// Every event in a compact form, a copy of the table after each, the end.
struct Recorder {
    lines: Vec<String>,
    after: Vec<Table>,
    end: Option<End>,
}

impl Recorder {
    fn new() -> Recorder {
        Recorder {
            lines: Vec::new(),
            after: Vec::new(),
            end: None,
        }
    }
}

fn fault(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "wrong call",
        Fault::MissedFlush => "missed flush",
    }
}

fn show(e: &Event) -> Option<String> {
    Some(match *e {
        Event::Dealt => return None,
        Event::Place {
            seat,
            card,
            cell,
            covered,
            remembered,
        } => {
            let over = match covered {
                Cell::Empty => String::new(),
                Cell::Down(x) => format!(" over down {}", name(x)),
                Cell::Up(x) => format!(" over up {}", name(x)),
            };
            let memo = if remembered { "" } else { ", forgotten" };
            format!("{seat} places {} on {cell}{over}{memo}", name(card))
        }
        Event::Flip {
            seat,
            cell,
            card,
            call,
            flush,
        } => format!(
            "{seat} {} {cell}: {}{}",
            if call { "calls and flips" } else { "flips" },
            name(card),
            if flush { " flush" } else { "" }
        ),
        Event::Pass { seat } => format!("{seat} passes"),
        Event::KnockedOut { seat, fault: f } => format!("{seat} out: {}", fault(f)),
        Event::Pays { seat, fault: f } => format!("{seat} pays: {}", fault(f)),
    })
}

impl Observer<Table> for Recorder {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        if let Err(msg) = t.check_invariants() {
            panic!(
                "invariant broken after {e:?} (events so far: {:#?}): {msg}",
                self.lines
            );
        }
        if let Some(line) = show(&e) {
            self.lines.push(line);
            self.after.push(t.clone());
        }
    }

    fn game_end(&mut self, t: &Table, end: End) {
        if let Err(msg) = t.check_invariants() {
            panic!("invariant broken at the end: {msg}");
        }
        self.end = Some(end);
    }
}

/// Plays the game to its end with the script, which must be used up.
fn play(t: &mut Table, asks: &[Ask]) -> Recorder {
    let mut script = Script::new(asks);
    let mut rec = Recorder::new();
    t.play_game(&mut script, &mut rec, &mut Stacked);
    assert!(
        script.asks.is_empty(),
        "the engine never asked for {:?}",
        script.asks
    );
    rec
}

fn assert_events(rec: &Recorder, expected: &[&str]) {
    if rec.lines.iter().map(String::as_str).eq(expected.iter().copied()) {
        return;
    }
    let width = expected.iter().map(|s| s.len()).max().unwrap_or(8).max(8);
    let mut report = format!("events differ\n    {:<width$} | got\n", "expected");
    for i in 0..rec.lines.len().max(expected.len()) {
        let e = expected.get(i).copied().unwrap_or("-");
        let g = rec.lines.get(i).map(String::as_str).unwrap_or("-");
        let mark = if e == g { ' ' } else { '>' };
        report.push_str(&format!("{mark}{i:>3} {e:<width$} | {g}\n"));
    }
    panic!("{report}");
}

/// The table right after the event shown as `text` (exactly one).
fn after<'a>(rec: &'a Recorder, text: &str) -> &'a Table {
    let hits: Vec<usize> = (0..rec.lines.len()).filter(|&i| rec.lines[i] == text).collect();
    assert_eq!(hits.len(), 1, "expected one '{text}' in {:#?}", rec.lines);
    &rec.after[hits[0]]
}

/// Plays the given moves with [`Table::apply`] (turn order not enforced),
/// checking that none ends the game: a quick way to set up a position.
fn setup(t: &mut Table, moves: &[Ask]) {
    for &a in moves {
        let (seat, mv) = match a {
            Place(s, card, cell) => (s, Move::Place { card: c(card), cell }),
            Flip(s, cell) => (s, Move::Flip { cell, call: false }),
            Call(s, cell) => (s, Move::Flip { cell, call: true }),
        };
        assert_eq!(
            t.apply(seat, mv, &mut Silent, &mut Stacked),
            None,
            "{a:?} ended the game"
        );
        t.check_invariants().unwrap();
    }
}

// ---------------------------------------------------------------------------
// The deal and turn order
// ---------------------------------------------------------------------------

#[test]
fn deal_gives_eight_cards_to_each_player_and_sets_the_rest_aside() {
    let t = table(rules(3), &[H0, H1, H2]);
    assert_eq!(t.hand(0), set(H0));
    assert_eq!(t.hand(1), set(H1));
    assert_eq!(t.hand(2), set(H2));
    assert_eq!(t.grid(), cards::Grid::EMPTY);
    // 28 cards set aside, unseen by everybody: seat 0 sees none of them.
    let v = t.view(0);
    assert_eq!(v.unseen(), ALL & !set(H0));
    assert_eq!(v.unseen().count_ones(), 44);
    t.check_invariants().unwrap();
}

#[test]
fn random_deals_are_disjoint_hands_of_eight() {
    let mut rng = batch_rng(5, 5);
    let mut t = Table::new(rules(6));
    for _ in 0..200 {
        t.new_game(&mut rng);
        let all = (0..6).fold(0u64, |m, s| {
            assert_eq!(t.hand(s).count_ones(), 8);
            assert_eq!(m & t.hand(s), 0);
            m | t.hand(s)
        });
        assert_eq!(all.count_ones(), 48);
        t.check_invariants().unwrap();
    }
}

#[test]
fn seat_0_plays_first_and_play_goes_clockwise() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    let rec = play(
        &mut t,
        &[
            Place(0, "AH", 0),
            Place(1, "AC", 1),
            Place(2, "AS", 2),
            Place(0, "2H", 3),
            Call(1, 0),
            Call(2, 1),
        ],
    );
    assert_events(
        &rec,
        &[
            "0 places AH on 0",
            "1 places AC on 1",
            "2 places AS on 2",
            "0 places 2H on 3",
            "1 calls and flips 0: AH",
            "1 out: wrong call",
            "2 calls and flips 1: AC",
            "2 out: wrong call",
        ],
    );
    assert_eq!(rec.end, Some(End::LastStanding(0)));
}

// ---------------------------------------------------------------------------
// Place
// ---------------------------------------------------------------------------

#[test]
fn place_puts_a_hand_card_face_down_on_any_cell() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(&mut t, &[Place(0, "AH", 8), Place(1, "AC", 0)]);
    assert_eq!(t.grid().cell(8), Cell::Down(c("AH")));
    assert_eq!(t.grid().cell(0), Cell::Down(c("AC")));
    assert_eq!(t.hand(0), set(H0) & !set("AH"));
    assert_eq!(t.placer(8), Some(0));
    // Nobody sees a face-down card but its owner.
    assert_eq!(t.view(1).face_up(8), None);
    assert_eq!(t.view(1).known_card(8), None);
    assert_eq!(t.view(0).known_card(8), Some(c("AH")));
    assert!(t.view(1).unseen() & (1 << c("AH")) != 0);
    assert!(t.view(0).unseen() & (1 << c("AH")) == 0);
}

/// Applies moves one by one (turn order not enforced), recording events;
/// none may end the game.
fn steps(t: &mut Table, moves: &[Ask]) -> Recorder {
    let mut rec = Recorder::new();
    for &a in moves {
        let (seat, mv) = match a {
            Place(s, card, cell) => (s, Move::Place { card: c(card), cell }),
            Flip(s, cell) => (s, Move::Flip { cell, call: false }),
            Call(s, cell) => (s, Move::Flip { cell, call: true }),
        };
        assert_eq!(
            t.apply(seat, mv, &mut rec, &mut Stacked),
            None,
            "{a:?} ended the game"
        );
    }
    rec
}

#[test]
fn placing_on_a_face_down_card_removes_it_from_play_unseen() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    let rec = steps(&mut t, &[Place(0, "AH", 4), Place(1, "AC", 4), Flip(2, 4)]);
    assert_events(
        &rec,
        &[
            "0 places AH on 4",
            "1 places AC on 4 over down AH",
            "2 flips 4: AC",
        ],
    );
    let placed = after(&rec, "1 places AC on 4 over down AH");
    assert!(placed.removed() & (1 << c("AH")) != 0);
    assert_eq!(placed.grid().cell(4), Cell::Down(c("AC")));
    // The covered card stays unseen by the others, but its owner knows it
    // is gone and no longer remembers a card on cell 4.
    assert!(placed.view(2).unseen() & (1 << c("AH")) != 0);
    assert!(placed.view(0).unseen() & (1 << c("AH")) == 0);
    assert_eq!(placed.view(0).known_card(4), None);
    assert_eq!(placed.view(1).known_card(4), Some(c("AC")));
    // It never comes back: the flip shows the covering card.
    assert!(t.shown() & (1 << c("AH")) == 0);
}

#[test]
fn placing_on_a_face_up_card_removes_it_and_can_break_a_flush() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    // A face-up heart Flush on the top row (its last flip missed by seat 0,
    // knocked out), then seat 1 covers one of its cards.
    setup(&mut t, &[Place(0, "AH", 0), Place(0, "2H", 1), Place(0, "3H", 2)]);
    setup(&mut t, &[Flip(1, 0), Flip(2, 1)]);
    assert_eq!(
        t.apply(0, Move::Flip { cell: 2, call: false }, &mut Silent, &mut Stacked),
        None,
        "seat 0 is knocked out, two players are left"
    );
    assert!(!t.is_alive(0));
    setup(&mut t, &[Place(1, "AC", 1)]);
    assert_eq!(t.grid().cell(1), Cell::Down(c("AC")));
    assert!(
        t.removed() & (1 << c("2H")) != 0,
        "the face-up card is out of play"
    );
    assert!(t.shown() & (1 << c("2H")) != 0, "and everybody has seen it");
    assert!(t.view(2).unseen() & (1 << c("2H")) == 0);
    assert_eq!(
        t.view(2).suit_up(2),
        0b101,
        "hearts face-up on cells 0 and 2 only"
    );
    // Flipping the covering card makes no Flush: the old one is broken.
    setup(&mut t, &[Flip(2, 1)]);
}

// ---------------------------------------------------------------------------
// Flip and the four outcomes
// ---------------------------------------------------------------------------

#[test]
fn flip_without_call_and_without_flush_goes_on() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(&mut t, &[Place(0, "AH", 0), Place(1, "AC", 1)]);
    setup(&mut t, &[Flip(1, 0)]);
    assert_eq!(t.grid().cell(0), Cell::Up(c("AH")));
    assert!(t.is_alive(1));
    assert_eq!(t.view(1).face_up(0), Some(c("AH")));
}

#[test]
fn call_with_a_new_flush_wins() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    let rec = play(
        &mut t,
        &[
            Place(0, "AH", 0),
            Place(1, "AC", 3),
            Place(2, "AS", 6),
            Place(0, "2H", 1),
            Flip(1, 0),
            Flip(2, 1),
            Place(0, "3H", 2),
            Place(1, "2C", 4),
            Place(2, "2S", 5),
            Call(0, 2),
        ],
    );
    assert_eq!(rec.end, Some(End::Call(0)));
    assert_eq!(rec.lines.last().unwrap(), "0 calls and flips 2: 3H flush");
    assert_eq!(t.calls(0), 1);
}

#[test]
fn call_without_a_flush_knocks_the_caller_out_and_the_hand_leaves_the_game() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    setup(&mut t, &[Place(0, "AH", 0), Place(1, "AC", 1), Place(2, "AS", 2)]);
    let end = t.apply(1, Move::Flip { cell: 0, call: true }, &mut Silent, &mut Stacked);
    assert_eq!(end, None);
    assert!(!t.is_alive(1));
    assert_eq!(t.hand(1), 0, "a knocked-out hand leaves the game");
    assert_eq!(t.wrong_calls(1), 1);
    // Nobody has seen it: the hand stays unseen for the others (and so does
    // seat 1's face-down AC).
    assert_eq!(t.view(0).unseen() & set(H1), set(H1));
    assert!(t.view(0).unseen() & (1 << c("AH")) == 0, "the flipped AH is seen");
    t.check_invariants().unwrap();
}

#[test]
fn a_new_flush_without_a_call_knocks_the_flipper_out() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    let rec = play(
        &mut t,
        &[
            Place(0, "AH", 0),
            Place(1, "AC", 3),
            Place(2, "AS", 6),
            Place(0, "2H", 4),
            Place(1, "2C", 5),
            Place(2, "2S", 7),
            Place(0, "3H", 8),
            Flip(1, 0),
            Flip(2, 4),
            Flip(0, 8),
            // Seat 0 is out: seat 1 and seat 2 play on.
            Call(1, 3),
        ],
    );
    assert_events(
        &rec,
        &[
            "0 places AH on 0",
            "1 places AC on 3",
            "2 places AS on 6",
            "0 places 2H on 4",
            "1 places 2C on 5",
            "2 places 2S on 7",
            "0 places 3H on 8",
            "1 flips 0: AH",
            "2 flips 4: 2H",
            "0 flips 8: 3H flush",
            "0 out: missed flush",
            "1 calls and flips 3: AC",
            "1 out: wrong call",
        ],
    );
    assert_eq!(rec.end, Some(End::LastStanding(2)));
    assert_eq!((t.missed_flushes(0), t.wrong_calls(1)), (1, 1));
}

#[test]
fn a_flush_already_on_the_grid_is_not_new() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    // Top row: a face-up heart Flush, made by seat 0's uncalled flip.
    setup(&mut t, &[Place(0, "AH", 0), Place(0, "2H", 1), Place(0, "3H", 2)]);
    setup(&mut t, &[Flip(1, 0), Flip(2, 1)]);
    t.apply(0, Move::Flip { cell: 2, call: false }, &mut Silent, &mut Stacked);
    assert!(!t.is_alive(0));
    // A flip elsewhere that makes no line of its own: calling is wrong...
    setup(&mut t, &[Place(1, "AC", 4), Place(2, "AS", 8)]);
    let end = t.apply(1, Move::Flip { cell: 4, call: true }, &mut Silent, &mut Stacked);
    assert_eq!(end, Some(End::LastStanding(2)), "seat 1 called wrongly");
    assert_eq!(t.wrong_calls(1), 1);
}

#[test]
fn an_uncalled_flip_elsewhere_while_an_old_flush_is_face_up_is_safe() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    setup(&mut t, &[Place(0, "AH", 0), Place(0, "2H", 1), Place(0, "3H", 2)]);
    setup(&mut t, &[Flip(1, 0), Flip(2, 1)]);
    t.apply(0, Move::Flip { cell: 2, call: false }, &mut Silent, &mut Stacked);
    setup(&mut t, &[Place(1, "AC", 4), Flip(2, 4)]);
    assert!(t.is_alive(1) && t.is_alive(2));
}

#[test]
fn column_and_diagonal_flushes_count_and_one_flip_can_make_two() {
    for (cells, last) in [([1, 4, 7], 7), ([0, 4, 8], 4), ([2, 4, 6], 2)] {
        let mut t = table(rules(2), &[H0, H1]);
        setup(
            &mut t,
            &[
                Place(0, "AH", cells[0]),
                Place(0, "2H", cells[1]),
                Place(0, "3H", cells[2]),
            ],
        );
        for &cell in &cells {
            if cell != last {
                setup(&mut t, &[Flip(1, cell)]);
            }
        }
        let end = t.apply(
            0,
            Move::Flip {
                cell: last,
                call: true,
            },
            &mut Silent,
            &mut Stacked,
        );
        assert_eq!(end, Some(End::Call(0)), "line {cells:?}");
    }
    // Cell 4 completes the middle row and the middle column at once.
    let mut t = table(rules(2), &[H0, H1]);
    setup(
        &mut t,
        &[
            Place(0, "AH", 3),
            Place(0, "2H", 5),
            Place(0, "3H", 1),
            Place(0, "4H", 7),
            Place(0, "5H", 4),
        ],
    );
    setup(&mut t, &[Flip(1, 3), Flip(1, 5), Flip(1, 1), Flip(1, 7)]);
    let end = t.apply(1, Move::Flip { cell: 4, call: true }, &mut Silent, &mut Stacked);
    assert_eq!(
        end,
        Some(End::Call(1)),
        "a flip made by the other player still wins"
    );
}

#[test]
fn cards_of_one_suit_on_a_line_with_a_face_down_card_are_no_flush() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(
        &mut t,
        &[
            Place(0, "AH", 0),
            Place(0, "2H", 1),
            Place(0, "3H", 2),
            Flip(1, 0),
        ],
    );
    let end = t.apply(1, Move::Flip { cell: 1, call: true }, &mut Silent, &mut Stacked);
    assert_eq!(
        end,
        Some(End::LastStanding(0)),
        "two face-up hearts are not a Flush"
    );
}

// ---------------------------------------------------------------------------
// Passing, knock-outs and the end of the game
// ---------------------------------------------------------------------------

#[test]
fn last_player_standing_wins() {
    let mut t = table(rules(2), &[H0, H1]);
    let rec = play(&mut t, &[Place(0, "AH", 0), Call(1, 0)]);
    assert_events(
        &rec,
        &["0 places AH on 0", "1 calls and flips 0: AH", "1 out: wrong call"],
    );
    assert_eq!(rec.end, Some(End::LastStanding(0)));
}

#[test]
fn knocked_out_players_are_skipped() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    let rec = play(
        &mut t,
        &[
            Place(0, "AH", 0),
            Call(1, 0),
            // Seat 1 is out: seat 2, then seat 0, then seat 2 again.
            Place(2, "AS", 1),
            Place(0, "2H", 2),
            Call(2, 1),
        ],
    );
    assert_events(
        &rec,
        &[
            "0 places AH on 0",
            "1 calls and flips 0: AH",
            "1 out: wrong call",
            "2 places AS on 1",
            "0 places 2H on 2",
            "2 calls and flips 1: AS",
            "2 out: wrong call",
        ],
    );
    assert_eq!(rec.end, Some(End::LastStanding(0)));
}

/// Two players place all their cards (the last seven covering earlier
/// ones) and then flip the nine cells in turns. The final grid has no line
/// of one suit: `4H 3S 4C / 3D 2H 4S / 2C 4D 3C`.
fn tie_game(rules: Rules) -> (Table, Recorder) {
    let mut t = table(rules, &["AH 2H 3H 4H AC 2C 3C 4C", "AS 2S 3S 4S AD 2D 3D 4D"]);
    let mut asks = vec![
        Place(0, "AH", 0),
        Place(1, "AS", 1),
        Place(0, "AC", 2),
        Place(1, "AD", 3),
        Place(0, "2H", 4),
        Place(1, "2S", 5),
        Place(0, "2C", 6),
        Place(1, "2D", 7),
        Place(0, "3H", 8),
        Place(1, "3S", 1),
        Place(0, "4H", 0),
        Place(1, "3D", 3),
        Place(0, "4C", 2),
        Place(1, "4S", 5),
        Place(0, "3C", 8),
        Place(1, "4D", 7),
    ];
    // Hands are empty: flips only, seat 0 first.
    for cell in 0..9 {
        asks.push(Flip(cell % 2, cell));
    }
    let rec = play(&mut t, &asks);
    (t, rec)
}

#[test]
fn every_card_face_up_and_no_hand_left_is_a_tie_for_everybody_left() {
    let (t, rec) = tie_game(rules(2));
    assert_eq!(rec.end, Some(End::Tie));
    assert_eq!(t.grid().masks(), (0b111_111_111, 0));
    assert_eq!(t.hand(0) | t.hand(1), 0);
    assert!(rec.lines.iter().all(|l| !l.contains("flush")), "{:#?}", rec.lines);
}

#[test]
fn a_player_who_can_neither_place_nor_flip_passes_but_cards_in_a_hand_play_on() {
    let mut t = table(rules(2), &["AH 2H 3H 4H AC 2C 3C 4C", "AS 2S 3S 4S AD 2D 3D 4D"]);
    // Seat 0 places all eight cards while seat 1 flips each at once (no line
    // of one suit: AH AC 2H / .. 2C 3H / 3C 4H 4C).
    let mut asks = Vec::new();
    let cells = [0, 1, 2, 4, 5, 6, 7, 8];
    let cards = ["AH", "AC", "2H", "2C", "3H", "3C", "4H", "4C"];
    for (cell, card) in cells.iter().zip(cards) {
        asks.push(Place(0, card, *cell));
        asks.push(Flip(1, *cell));
    }
    // Now seat 0 has no card and nothing to flip: it passes. Every card on
    // the grid is face-up, but seat 1 still holds eight cards, so the game
    // goes on: seat 1 places, and then seat 0 must flip, not pass.
    let spades = ["AS", "2S", "3S", "4S", "AD", "2D", "3D", "4D"];
    for card in spades {
        asks.push(Place(1, card, 3));
        asks.push(Flip(0, 3));
    }
    let rec = play(&mut t, &asks);
    let lines: Vec<&str> = rec.lines.iter().map(String::as_str).collect();
    assert_eq!(
        lines[16..20],
        [
            "0 passes",
            "1 places AS on 3",
            "0 flips 3: AS",
            "1 places 2S on 3 over up AS"
        ]
    );
    assert_eq!(lines.iter().filter(|l| l.ends_with("passes")).count(), 1);
    assert_eq!(rec.end, Some(End::Tie));
    assert_eq!(t.turns(0), 8 + 1 + 8);
}

// ---------------------------------------------------------------------------
// Memory and what a player knows
// ---------------------------------------------------------------------------

#[test]
fn with_memory_1_a_player_knows_its_own_face_down_cards() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(&mut t, &[Place(0, "AH", 4)]);
    let v = t.view(0);
    assert_eq!(v.known_card(4), Some(c("AH")));
    assert_eq!(v.known(), 1 << 4);
}

#[test]
fn with_memory_0_a_player_forgets_its_placements_and_counts_them_unseen() {
    let mut t = table(
        Rules {
            memory: 0,
            ..rules(2)
        },
        &[H0, H1],
    );
    let mut rec = Recorder::new();
    t.apply(
        0,
        Move::Place {
            card: c("AH"),
            cell: 4,
        },
        &mut rec,
        &mut Stacked,
    );
    assert_eq!(rec.lines, ["0 places AH on 4, forgotten"]);
    let v = t.view(0);
    assert_eq!(v.known_card(4), None);
    assert!(v.unseen() & (1 << c("AH")) != 0);
}

#[test]
fn memory_is_drawn_from_the_game_generator_when_placed() {
    // With P = 0.5 the stacked source always draws the largest number: the
    // card is forgotten. A random source remembers about half.
    let r = Rules {
        memory: MEMORY_ONE / 2,
        ..rules(2)
    };
    let mut t = table(r, &[H0, H1]);
    setup(&mut t, &[Place(0, "AH", 4)]);
    assert_eq!(t.view(0).known_card(4), None);
    let mut rng = batch_rng(3, 1);
    let mut remembered = 0;
    for _ in 0..2000 {
        let mut t = Table::new(r);
        t.new_game(&mut rng);
        let card = t.hand(0).trailing_zeros() as Card;
        t.apply(0, Move::Place { card, cell: 0 }, &mut Silent, &mut rng);
        remembered += u32::from(t.remembers(0, 0));
    }
    assert!((900..1100).contains(&remembered), "{remembered} of 2000");
}

#[test]
fn a_view_shows_face_up_cards_placers_own_hand_and_own_memory_only() {
    let mut t = table(rules(3), &[H0, H1, H2]);
    setup(
        &mut t,
        &[
            Place(0, "AH", 0),
            Place(1, "AC", 1),
            Place(2, "AS", 2),
            Flip(0, 1),
            Place(1, "2C", 2),
        ],
    );
    let v = t.view(0);
    assert_eq!(v.hand(), set(H0) & !set("AH"));
    assert_eq!(v.face_up(1), Some(c("AC")));
    assert_eq!(v.face_up(0), None);
    assert_eq!(v.known_card(0), Some(c("AH")));
    assert_eq!(v.known_card(2), None, "an opponent's card is never known");
    assert_eq!(v.placer(2), Some(1), "who placed what is public");
    assert_eq!(v.placer(1), Some(1));
    assert_eq!((v.up(), v.down(), v.empty()), (0b010, 0b101, 0b111_111_000));
    // Unseen: not the own hand, not face-up cards, not own remembered
    // placements; but opponents' hands, their face-down cards, the cards
    // set aside and the face-down card seat 1 covered (AS) are.
    let expected = ALL & !set(H0) & !set("AC");
    assert_eq!(v.unseen(), expected);
    assert!(v.unseen() & (1 << c("AS")) != 0);
    assert_eq!(v.unseen_by_suit(), [12, 13, 5, 13]);
}

// ---------------------------------------------------------------------------
// Illegal moves
// ---------------------------------------------------------------------------

#[test]
#[should_panic(expected = "not in the hand")]
fn placing_a_card_not_in_the_hand_is_refused() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(&mut t, &[Place(0, "AC", 0)]);
}

#[test]
#[should_panic(expected = "holds no face-down card")]
fn flipping_a_face_up_card_is_refused() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(&mut t, &[Place(0, "AH", 0), Flip(1, 0), Flip(0, 0)]);
}

#[test]
#[should_panic(expected = "holds no face-down card")]
fn flipping_an_empty_cell_is_refused() {
    let mut t = table(rules(2), &[H0, H1]);
    setup(&mut t, &[Flip(0, 3)]);
}

// ---------------------------------------------------------------------------
// Gambling
// ---------------------------------------------------------------------------

#[test]
fn gambling_antes_one_stake_each_and_a_fault_pays_instead_of_knocking_out() {
    let mut t = table(gambling(3), &[H0, H1, H2]);
    assert_eq!(t.pot(), 3);
    let rec = play(
        &mut t,
        &[
            Place(0, "AH", 0),
            Call(1, 0),
            Place(2, "2S", 1),
            Place(0, "2H", 3),
            Place(1, "AC", 6),
            Flip(2, 3),
            Place(0, "3H", 8),
            Flip(1, 1),
            Place(2, "AS", 4),
            Place(0, "4H", 4),
            Flip(1, 8),
            Place(2, "3S", 2),
            Call(0, 4),
        ],
    );
    assert_eq!(rec.lines[2], "1 pays: wrong call");
    assert!(t.is_alive(1), "nobody is knocked out when gambling");
    assert_eq!(rec.end, Some(End::Call(0)));
    // Pot: 3 antes + 1 stake; the winner takes it all.
    assert_eq!(t.pot(), 0);
    assert_eq!([t.net(0), t.net(1), t.net(2)], [3, -2, -1]);
}

#[test]
fn gambling_missed_flush_pays_a_stake() {
    let mut t = table(gambling(2), &[H0, H1]);
    setup(&mut t, &[Place(0, "AH", 0), Place(0, "2H", 1), Place(0, "3H", 2)]);
    setup(&mut t, &[Flip(1, 0), Flip(1, 1)]);
    let mut rec = Recorder::new();
    let end = t.apply(1, Move::Flip { cell: 2, call: false }, &mut rec, &mut Stacked);
    assert_eq!(end, None);
    assert_eq!(rec.lines, ["1 flips 2: 3H flush", "1 pays: missed flush"]);
    assert_eq!((t.pot(), t.net(1), t.missed_flushes(1)), (3, -2, 1));
}

#[test]
fn a_tied_gambling_game_leaves_the_pot_for_the_next_game_of_the_table() {
    let (mut t, rec) = tie_game(gambling(2));
    assert_eq!(rec.end, Some(End::Tie));
    assert_eq!(t.pot(), 2, "both antes stay in the pot");
    assert_eq!((t.net(0), t.net(1)), (-1, -1));
    // Next game at the same table: two more antes, and the winner takes 4.
    stack(&mut t, &[H0, H1]);
    assert_eq!(t.pot(), 4);
    let rec = play(
        &mut t,
        &[
            Place(0, "AH", 0),
            Place(1, "AC", 3),
            Place(0, "2H", 1),
            Flip(1, 0),
            Place(0, "3H", 2),
            Flip(1, 1),
            Call(0, 2),
        ],
    );
    assert_eq!(rec.end, Some(End::Call(0)));
    assert_eq!((t.pot(), t.net(0), t.net(1)), (0, 3, -1));
}

#[test]
fn each_batch_is_a_table_that_starts_with_an_empty_pot_and_settles_it() {
    // Every stake paid into a pot comes out of it again: won after the
    // batch's last game if need be, or returned. So every batch's net
    // stakes add up to exactly zero, and it counts exactly its games.
    let sim = FlipFlushSim::new(gambling(3), &[Policy::parse("call-at:0.35").unwrap()]).unwrap();
    let mut total = sim.new_acc();
    for b in 0..200 {
        let mut acc = sim.new_acc();
        let mut rng = batch_rng(9, b);
        sim.play_batch(&mut rng, 3, &mut acc, None);
        let net: i64 = acc.seats.iter().map(|s| s.net_sum).sum();
        assert_eq!(net, 0, "batch {b}");
        assert_eq!(acc.games, 3);
        assert_eq!(acc.pot_games, 0, "no pot left open");
        total.merge(&acc);
    }
    assert_eq!(total.games, 600);
    assert!(total.play_on_games > 0, "some batch ended on a tie");
    // Replaying a batch with its generator gives the same totals.
    let mut a = sim.new_acc();
    let mut b = sim.new_acc();
    sim.play_batch(&mut batch_rng(9, 3), 200, &mut a, None);
    sim.play_batch(&mut batch_rng(9, 3), 200, &mut b, None);
    assert_eq!(a, b);
}

#[test]
fn gambling_a_pot_left_by_the_last_game_is_played_on_until_won() {
    // The table's last game tied, leaving both antes: play goes on until
    // somebody wins the pot. Those games add their stakes, not themselves.
    let (mut t, _) = tie_game(gambling(2));
    assert_eq!(t.pot(), 2);
    let sim = FlipFlushSim::new(gambling(2), &[Policy::parse("call-at:0.2").unwrap()]).unwrap();
    let mut seats = Seats::new(sim.policies.clone());
    let mut acc = sim.new_acc();
    let settled = sim
        .play_on(&mut t, &mut seats, &mut batch_rng(4, 0), &mut acc, None)
        .expect("a pot to settle");
    assert_eq!(settled.pot, 2);
    assert!(settled.winner.is_some());
    assert!(settled.games >= 1);
    assert_eq!(t.pot(), 0);
    assert_eq!((acc.games, acc.play_on_games), (0, u64::from(settled.games)));
    // What was on the table went to the players: the nets add up to it.
    assert_eq!(settled.net.iter().sum::<i64>(), 2);
    let net: Vec<i64> = acc.seats.iter().map(|s| s.net_sum).collect();
    assert_eq!(net, settled.net);
    assert_eq!(acc.pots_returned, 0);
}

#[test]
fn gambling_a_pot_nobody_wins_in_256_games_goes_back_to_its_payers() {
    let (mut t, _) = tie_game(gambling(2));
    let sim = FlipFlushSim::new(gambling(2), &[Policy::parse("never-call").unwrap()]).unwrap();
    let mut seats = Seats::new(sim.policies.clone());
    let mut acc = sim.new_acc();
    let settled = sim
        .play_on(&mut t, &mut seats, &mut batch_rng(4, 0), &mut acc, None)
        .expect("a pot to settle");
    assert_eq!(settled.winner, None);
    let games = settled.games;
    assert_eq!(games, sim::games::flip_flush::PLAY_ON_CAP);
    assert_eq!((t.pot(), t.paid(0), t.paid(1)), (0, 0, 0));
    assert_eq!(acc.pots_returned, 1);
    // Each seat gets back what it put in since the pot was last won: its
    // ante of the tied game and every stake of the games played on, so
    // the games played on cost nobody anything.
    assert_eq!(settled.net.iter().sum::<i64>(), 2);
    assert_eq!(acc.seats[0].by_pot.units, 1);
}

// ---------------------------------------------------------------------------
// Whole games
// ---------------------------------------------------------------------------

/// Checks invariants after every event of random games with every policy
/// kind, and that each game ends within two actions per card dealt plus
/// passes.
#[test]
fn every_game_ends_and_keeps_every_card_in_one_place() {
    /// (passes, game end, actions)
    struct Check(u32, Option<End>, u32);
    impl Observer<Table> for Check {
        const EVENTS: bool = true;
        fn event(&mut self, t: &Table, e: Event) {
            match e {
                Event::Pass { .. } => self.0 += 1,
                Event::Place { .. } | Event::Flip { .. } => self.2 += 1,
                _ => {}
            }
            if let Err(m) = t.check_invariants() {
                panic!("after {e:?}: {m}");
            }
        }
        fn game_end(&mut self, t: &Table, end: End) {
            t.check_invariants().unwrap();
            self.1 = Some(end);
            match end {
                End::Tie => {
                    assert_eq!(t.grid().masks().1, 0);
                    assert!((0..t.players()).all(|s| t.hand(s) == 0));
                }
                End::LastStanding(w) => {
                    assert_eq!(t.alive_mask(), 1 << w);
                    assert!(!t.rules().gambling);
                }
                End::Call(_) => {}
            }
        }
    }
    let specs = [
        "default",
        "call-at:0.5+place-random",
        "never-call+flip-safe+place-build",
        "sure-only+flip-own+place-block+place-build",
        "call-at:0.2+flip-likely+place-random",
        "call-at:0.15+read:0+flip-likely+place-trap+flip-safe+place-build",
        "call-at:0.4+read:1+place-hot+flip-likely+flip-own+flip-safe",
    ];
    let mut rng = batch_rng(1, 1);
    for players in 2..=6 {
        for gamble in [false, true] {
            for memory in [0, 300_000, MEMORY_ONE] {
                let r = Rules {
                    players,
                    gambling: gamble,
                    memory,
                };
                let policies: Vec<Policy> = (0..players)
                    .map(|s| Policy::parse(specs[(s + players) % specs.len()]).unwrap())
                    .collect();
                let mut seats = Seats::new(policies);
                let mut t = Table::new(r);
                for _ in 0..60 {
                    t.new_game(&mut rng);
                    let mut check = Check(0, None, 0);
                    let end = t.play_game(&mut seats, &mut check, &mut rng);
                    assert_eq!(check.1, Some(end));
                    // Each action uses up a card dealt (a Place) or a card
                    // placed earlier (a Flip); a full round of passes ends
                    // the game.
                    let n = players as u32;
                    let (passes, actions) = (check.0, check.2);
                    assert!(actions <= 2 * 8 * n, "{actions} actions");
                    assert!(passes <= (actions + 1) * (n - 1), "{passes} passes");
                    assert_eq!(passes + actions, t.turn_count());
                }
            }
        }
    }
}

/// Every policy sees only what its player saw: at every turn of random
/// games, the cards the player has not seen are shuffled among the places
/// that hold them (opponents' hands, the undealt rest, face-down cards the
/// player does not know, cards removed unseen, knocked-out hands) and the
/// policy, with the same random numbers, must make the same move.
#[test]
fn redealing_what_a_player_cannot_know_never_changes_a_decision() {
    let specs = [
        "default",
        "call-at:0.5+flip-likely+flip-safe+place-block+place-build",
        "call-at:0.15+read:0+flip-likely+place-trap+flip-safe+place-build",
        "call-at:0.3+read:0.7+place-hot+flip-likely+flip-own+place-block",
        "sure-only+flip-own+flip-safe+place-block+place-build",
        "call-at:0.2+read:1+flip-likely+place-trap+place-random",
        "never-call+place-build+flip-safe",
        "call-at:0.15/0.5+worlds:16+flip-likely+place-trap+flip-safe+place-build",
        "call-at:0.1+worlds:8/0.5+place-hot+flip-likely+flip-safe+place-block",
    ];
    let (mut decisions, mut moved) = (0, 0);
    for (i, spec) in specs.iter().enumerate() {
        let policy = Policy::parse(spec).unwrap();
        for g in 0..40u64 {
            let players = 2 + (g % 3) as usize;
            let memory = [MEMORY_ONE, 600_000, 0][(g % 3) as usize];
            let mut t = Table::new(Rules {
                players,
                gambling: g % 2 == 1,
                memory,
            });
            let mut rng = batch_rng(g, 40 + i as u64);
            t.new_game(&mut rng);
            // The others play a mix of policies that place on hot cells.
            let mut others = Seats::new(
                (0..players)
                    .map(|s| Policy::parse(specs[(s + g as usize) % specs.len()]).unwrap())
                    .collect(),
            );
            for turn in 0..60 {
                let seat = turn % players;
                if !t.is_alive(seat) || (t.hand(seat) == 0 && t.grid().masks().1 == 0) {
                    continue;
                }
                let v = t.view(seat);
                let mut a = batch_rng(99, turn as u64);
                let mut b = a.clone();
                let here = policy.choose(&v, &mut a);
                let mut dealer = batch_rng(7, (g << 8) + turn as u64);
                let world = t.redeal_hidden(seat, &mut dealer);
                world.check_invariants().unwrap();
                let w = world.view(seat);
                assert_eq!(
                    (w.hand(), w.unseen(), w.up_code()),
                    (v.hand(), v.unseen(), v.up_code())
                );
                moved +=
                    usize::from(world.grid() != t.grid() || (0..players).any(|s| world.hand(s) != t.hand(s)));
                let there = policy.choose(&w, &mut b);
                assert_eq!(
                    here, there,
                    "{spec}: the move changed with cards seat {seat} cannot know"
                );
                decisions += 1;
                let mv = others.choose(&t.view(seat), &mut rng);
                if t.apply(seat, mv, &mut Silent, &mut rng).is_some() {
                    break;
                }
            }
        }
    }
    assert!(
        decisions > 3000 && moved > decisions / 2,
        "{decisions} decisions, {moved} re-deals moved a card"
    );
}

/// The public history a player reads (`View::history`): every Place and
/// Flip in order, with who moved, where, and whether they called; the card
/// of a Flip always, the card of a Place only once it was flipped or when
/// the player placed it and remembers it: a card the history hides is one
/// the player has not seen, and a card it shows is one the player has.
#[test]
fn the_history_shows_a_player_only_the_cards_it_saw() {
    let (mut hidden, mut shown) = (0, 0);
    for g in 0..60u64 {
        let players = 2 + (g % 3) as usize;
        let memory = [MEMORY_ONE, 500_000, 0][(g % 3) as usize];
        let mut t = Table::new(Rules {
            players,
            gambling: false,
            memory,
        });
        let mut rng = batch_rng(g, 77);
        t.new_game(&mut rng);
        let mut seats = Seats::new(vec![Policy::parse("default").unwrap(); players]);
        for turn in 0..80 {
            let seat = turn % players;
            if !t.is_alive(seat) || (t.hand(seat) == 0 && t.grid().masks().1 == 0) {
                continue;
            }
            let mv = seats.choose(&t.view(seat), &mut rng);
            let ended = t.apply(seat, mv, &mut Silent, &mut rng).is_some();
            for s in 0..players {
                let v = t.view(s);
                assert_eq!(v.history_len(), t.log_len());
                for i in 0..t.log_len() {
                    let (truth, seen) = (t.log_entry(i), v.history(i));
                    assert_eq!(
                        (seen.seat, seen.cell, seen.flip, seen.call),
                        (truth.seat, truth.cell, truth.flip, truth.call)
                    );
                    let card = truth.card.unwrap();
                    match seen.card {
                        Some(c) => {
                            assert_eq!(c, card);
                            assert!(
                                v.unseen() & (1 << c) == 0,
                                "seat {s} shown card {c} it has not seen"
                            );
                            shown += 1;
                        }
                        None => {
                            assert!(!truth.flip, "a flipped card is public");
                            assert!(v.unseen() & (1 << card) != 0, "seat {s}: a card it saw is hidden");
                            hidden += 1;
                        }
                    }
                }
            }
            if ended {
                break;
            }
        }
    }
    assert!(hidden > 1000 && shown > 1000, "{hidden} hidden, {shown} shown");
}
