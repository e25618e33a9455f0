//! The rules of IB-Flip (`docs/rules/ib-flip.md`), one test per rule and
//! per reading I1..I35 (named `iN_...`).
//!
//! Most tests set up a position ([`Position`]) and play turns through the
//! real engine with a scripted [`Chooser`]: every question the engine asks
//! must be the next one of the script (it panics on any other), and the
//! script must be used up. A recording [`Observer`] checks the table's
//! invariants after every event (52 cards, each in exactly one place).
//! Random draws use [`Stacked`]: a 9 draws the highest card (by id) of the
//! discard pile, and a 9s flip turns the discard pile up in id order (the
//! highest card on top).
//!
//! Cards are written rank then suit (`10H`, `AS`); suits H < D < C < S.

use std::collections::VecDeque;

use sim::engine::rng::{Draw, Stacked, batch_rng, game_rng};
use sim::games::ib_flip::IbFlipSim;
use sim::games::ib_flip::cards::*;
use sim::games::ib_flip::policies::{Policy, Seats};
use sim::games::ib_flip::rules::*;

// ---------------------------------------------------------------------------
// Cards, positions, the script
// ---------------------------------------------------------------------------

fn c(text: &str) -> Card {
    parse(text).unwrap_or_else(|| panic!("no card {text}"))
}

fn set(text: &str) -> CardSet {
    parse_set(text).unwrap_or_else(|| panic!("bad set {text}"))
}

fn r(text: &str) -> Rank {
    parse_rank(text).unwrap()
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(c).collect()
}

/// A position of `players` players: seat `s` holds `hands[s]` in hand and,
/// unless told otherwise, three face-down cards it will not reach.
struct Setup {
    pos: Position,
    rules: Rules,
}

impl Setup {
    fn new(players: usize) -> Setup {
        Setup {
            pos: Position {
                hands: vec![0; players],
                ups: vec![0; players],
                downs: vec![Vec::new(); players],
                ..Default::default()
            },
            rules: Rules::standard(players),
        }
    }
    fn hand(mut self, s: usize, text: &str) -> Setup {
        self.pos.hands[s] = set(text);
        self
    }
    fn up(mut self, s: usize, text: &str) -> Setup {
        self.pos.ups[s] = set(text);
        self
    }
    fn down(mut self, s: usize, text: &str) -> Setup {
        self.pos.downs[s] = cards(text);
        self
    }
    /// Live cards, bottom first.
    fn live(mut self, text: &str) -> Setup {
        self.pos.live = cards(text).into_iter().map(|c| (c, 0)).collect();
        self
    }
    fn live_flags(mut self, live: &[(&str, u8)]) -> Setup {
        self.pos.live = live.iter().map(|&(t, f)| (c(t), f)).collect();
        self
    }
    fn discard(mut self, text: &str) -> Setup {
        self.pos.discard = set(text);
        self
    }
    /// Draw pile, top card first.
    fn draw(mut self, text: &str) -> Setup {
        self.pos.draw = cards(text);
        self
    }
    fn cur(mut self, s: usize) -> Setup {
        self.pos.cur = s;
        self
    }
    fn reversed(mut self) -> Setup {
        self.pos.reversed = true;
        self
    }
    fn rules(mut self, f: impl FnOnce(&mut Rules)) -> Setup {
        f(&mut self.rules);
        self
    }
    /// Gives every seat without cards listed three face-down cards from the
    /// cards nobody holds (so that nobody finishes by accident).
    fn table(mut self) -> Table {
        let mut used = self.pos.discard;
        for s in 0..self.pos.hands.len() {
            used |= self.pos.hands[s] | self.pos.ups[s];
            used |= self.pos.downs[s].iter().fold(0, |m, &c| m | 1 << c);
        }
        used |= self.pos.draw.iter().fold(0, |m, &c| m | 1 << c);
        used |= self.pos.live.iter().fold(0, |m, &(c, _)| m | 1 << c);
        let mut free = cards_of(ALL & !used).collect::<Vec<_>>().into_iter();
        for s in 0..self.pos.hands.len() {
            if self.pos.downs[s].is_empty() {
                self.pos.downs[s] = (&mut free).take(3).collect();
            }
        }
        let mut t = Table::new(self.rules);
        t.set_position(&self.pos);
        t
    }
}

/// A seat with nothing face down: its last cards are in hand or face up.
fn no_downs(mut t: Table, seats: &[usize]) -> Table {
    let mut pos = position_of(&t);
    for &s in seats {
        pos.downs[s].clear();
    }
    t.set_position(&pos);
    t
}

fn position_of(t: &Table) -> Position {
    let n = t.players();
    Position {
        hands: (0..n).map(|s| t.hand(s)).collect(),
        ups: (0..n).map(|s| t.up(s)).collect(),
        downs: (0..n).map(|s| t.downs(s).to_vec()).collect(),
        draw: t.draw_pile().collect(),
        live: t.live().collect(),
        discard: t.discard(),
        cur: t.current(),
        reversed: t.reversed(),
        known: (0..n).map(|s| t.known(s)).collect(),
    }
}

/// One scripted answer: who must be asked, and what they answer.
#[derive(Clone, Copy, Debug)]
enum Ask {
    /// `.0` plays `.2` cards of rank `.1`.
    Play(usize, &'static str, u8),
    /// `.0` reveals.
    Reveal(usize),
    /// `.0` picks up.
    Pickup(usize),
    /// `.0` adds `.1` drawn cards.
    Add(usize, u8),
    /// `.0` turns face-down slot `.1`.
    Down(usize, usize),
    /// `.0` fixes to these face-up cards.
    Fix(usize, &'static str),
}
use Ask::*;

struct Script(VecDeque<Ask>);

impl Script {
    fn new(asks: &[Ask]) -> Script {
        Script(asks.iter().copied().collect())
    }
    fn next(&mut self, seat: usize, what: &str) -> Ask {
        self.0
            .pop_front()
            .unwrap_or_else(|| panic!("script ran out: seat {seat} was asked to {what}"))
    }
}

impl Chooser for Script {
    fn fix<D: Draw>(&mut self, v: &View<'_>, _: &mut D) -> CardSet {
        match self.next(v.seat(), "fix") {
            Fix(s, up) if s == v.seat() => set(up),
            a => panic!("seat {} was asked to fix, the script has {a:?}", v.seat()),
        }
    }
    fn act<D: Draw>(&mut self, v: &View<'_>, _: &mut D) -> Action {
        match self.next(v.seat(), "act") {
            Play(s, rank, count) if s == v.seat() => Action::Play { rank: r(rank), count },
            Reveal(s) if s == v.seat() => Action::Reveal,
            Pickup(s) if s == v.seat() => Action::Pickup,
            a => panic!("seat {} was asked to act, the script has {a:?}", v.seat()),
        }
    }
    fn add_on<D: Draw>(&mut self, v: &View<'_>, _: Rank, _: u8, _: &mut D) -> u8 {
        match self.next(v.seat(), "add on") {
            Add(s, k) if s == v.seat() => k,
            a => panic!("seat {} was asked to add on, the script has {a:?}", v.seat()),
        }
    }
    fn face_down<D: Draw>(&mut self, v: &View<'_>, _: &mut D) -> usize {
        match self.next(v.seat(), "turn a face-down card") {
            Down(s, k) if s == v.seat() => k,
            a => panic!(
                "seat {} was asked for a face-down card, the script has {a:?}",
                v.seat()
            ),
        }
    }
    fn deterministic(&self) -> bool {
        true
    }
}

/// Records every event and checks the table after each one (except while
/// a revealed or face-down card is in the player's hand of fate).
#[derive(Default)]
struct Rec {
    events: Vec<Event>,
    ends: Vec<End>,
}

impl Observer<Table> for Rec {
    const EVENTS: bool = true;
    fn event(&mut self, t: &Table, e: Event) {
        if !matches!(e, Event::Reveal { .. } | Event::FaceDown { .. }) {
            t.check();
        }
        self.events.push(e);
    }
    fn game_end(&mut self, t: &Table, end: End) {
        t.check();
        self.ends.push(end);
    }
}

/// Plays `n` turns with the script (which must be used up).
fn turns(t: &mut Table, asks: &[Ask], n: usize) -> Vec<Event> {
    let mut s = Script::new(asks);
    let mut rec = Rec::default();
    for _ in 0..n {
        t.turn(&mut s, &mut rec, &mut Stacked);
    }
    assert!(s.0.is_empty(), "script not used up: {:?}", s.0);
    rec.events
}

fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

// ---------------------------------------------------------------------------
// The play-on table
// ---------------------------------------------------------------------------

/// The rule text's table "What the different cards can be played on",
/// transcribed row by row.
const TEXT_TABLE: [(&str, &str); 13] = [
    ("A", "A 2 3 6 7 8 9 J Q K"),
    ("2", "A 2 3 6 7 8 9 J Q K"),
    ("3", "2 3 7"),
    ("4", "A 2 3 4 6 7 8 9 J Q K"),
    ("5", "A 2 3 4 6 7 8 9 J Q K"),
    ("6", "2 3 4 6 7"),
    ("7", "A 2 3 6 7 8 9 J Q K"),
    ("8", "2 3 6 8"),
    ("9", "2 3 6 8 9"),
    ("10", "A 2 3 6 8 9 J Q K"),
    ("J", "2 3 6 8 9 J"),
    ("Q", "2 3 6 8 9 J Q"),
    ("K", "2 3 6 8 9 J Q K"),
];

#[test]
fn play_on_table_matches_the_rule_text_cell_by_cell() {
    let can = can_on_table(0);
    for (played, on) in TEXT_TABLE {
        let x = r(played);
        let tops: Vec<Rank> = on.split_whitespace().map(r).collect();
        for top in 0..RANKS as Rank {
            if top == FIVE || top == TEN {
                // Never a target: nothing in the text is played on them.
                assert!(!tops.contains(&top));
                continue;
            }
            assert_eq!(
                can[usize::from(top)] & (1 << x) != 0,
                tops.contains(&top),
                "{played} on {}",
                RANK_NAMES[usize::from(top)]
            );
        }
        // Anything may be played on zero (I4).
        assert!(can[usize::from(ZERO)] & (1 << x) != 0);
    }
}

// ---------------------------------------------------------------------------
// Deck, players, legality (I1-I6)
// ---------------------------------------------------------------------------

#[test]
fn i1_i2_one_deck_nine_cards_each_two_to_five_players() {
    for players in 2..=5 {
        let mut t = Table::new(Rules::standard(players));
        t.new_game(&mut batch_rng(1, players as u64));
        t.check();
        assert_eq!(t.draw_count(), 52 - 9 * players);
        for s in 0..players {
            assert_eq!(t.hand(s).count_ones(), 3);
            assert_eq!(t.up(s).count_ones(), 3);
            assert_eq!(t.downs(s).len(), 3);
        }
    }
    assert!(IbFlipSim::new(Rules::standard(6), &[Policy::parse("lowest").unwrap()]).is_err());
    assert!(IbFlipSim::new(Rules::standard(1), &[Policy::parse("lowest").unwrap()]).is_err());
}

#[test]
fn i3_seven_takes_seven_or_lower_with_the_ace_as_one() {
    let can = can_on_table(0);
    let on7: Vec<&str> = (0..13)
        .filter(|&x| can[usize::from(SEVEN)] & (1 << x) != 0)
        .map(|x| RANK_NAMES[x])
        .collect();
    assert_eq!(on7, ["2", "3", "4", "5", "6", "7", "A"]);
    // A 4 takes only 4, 5, 6; a 2 anything.
    assert_eq!(can[usize::from(FOUR)], (1 << FOUR) | (1 << FIVE) | (1 << SIX));
    assert_eq!(can[usize::from(TWO)], ALL_RANKS);
}

#[test]
fn i4_zero_takes_anything_empty_pile_and_lone_five() {
    let t = Setup::new(2).live("").table();
    assert_eq!(t.target(), ZERO);
    let t = Setup::new(2).live("5H").table();
    assert_eq!(t.target(), ZERO);
    let mut t = Setup::new(2).hand(0, "3H KH").hand(1, "QH").live("5H").table();
    assert_eq!(t.legal(0), (1 << THREE) | (1 << KING));
    turns(&mut t, &[Play(0, "3", 1)], 1);
    assert_eq!(t.target(), THREE);
}

#[test]
fn i5_several_cards_of_one_rank_in_one_play() {
    let mut t = Setup::new(2)
        .hand(0, "KH KD KC QH")
        .hand(1, "2H")
        .live("JH")
        .table();
    let ev = turns(&mut t, &[Play(0, "K", 2)], 1);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Play { cards, .. } if *cards == set("KH KD"))
    ));
    assert_eq!(t.hand(0), set("KC QH"));
    assert_eq!(t.live_count(), 3);
    assert_eq!(t.current(), 1);
}

#[test]
fn i6_face_up_cards_only_once_the_hand_is_empty() {
    // A playable face-up K does not help a hand that cannot play.
    let t = Setup::new(2)
        .hand(0, "3H")
        .up(0, "KH")
        .hand(1, "2H")
        .live("QH")
        .table();
    assert_eq!(t.zone(0), Zone::Hand);
    assert_eq!(t.legal(0), 0);
    let t = Setup::new(2).up(0, "KH KD 3H").hand(1, "2H").live("QH").table();
    assert_eq!(t.zone(0), Zone::FaceUp);
    assert_eq!(t.legal(0), 1 << KING);
}

// ---------------------------------------------------------------------------
// Four of a kind and flips (I7-I20)
// ---------------------------------------------------------------------------

#[test]
fn i7_four_cards_by_several_players_flip_and_the_flipper_plays_again() {
    let mut t = Setup::new(2)
        .hand(0, "KH KD QH")
        .hand(1, "2H")
        .live("JH KS KC")
        .table();
    let ev = turns(&mut t, &[Play(0, "K", 2)], 1);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Flip {
            cause: FlipCause::Set(KING),
            cards: 5,
            ..
        }
    )));
    assert_eq!(t.live_count(), 0);
    assert_eq!(t.discard(), set("JH KS KC KH KD"));
    assert_eq!(t.current(), 0);
}

#[test]
fn i7_a_five_breaks_the_run() {
    let mut t = Setup::new(2)
        .hand(0, "KH KD QH")
        .hand(1, "2H")
        .live("KS 5H KC")
        .table();
    let ev = turns(&mut t, &[Play(0, "K", 2)], 1);
    assert!(!has(&ev, |e| matches!(e, Event::Flip { .. })));
    assert_eq!(t.run(), (KING, 3));
    assert_eq!(t.current(), 1);
}

#[test]
fn i7_the_flip_replaces_the_power_the_fourth_eight_loses_instead_of_skipping() {
    let mut t = Setup::new(3)
        .hand(0, "8S QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("8H 8D 8C")
        .table();
    let ev = turns(&mut t, &[Play(0, "8", 1)], 1);
    assert!(!has(&ev, |e| matches!(e, Event::Skip { .. })));
    assert_eq!(t.how(0), Out::EightsFlip);
    assert_eq!(t.place(0), 3);
    assert_eq!(t.current(), 1);
}

#[test]
fn i8_an_ace_on_a_seven_is_a_one_also_through_fives_and_later_aces_are_aces() {
    let mut t = Setup::new(2).hand(0, "AH QH").hand(1, "3H AD").live("7H").table();
    turns(&mut t, &[Play(0, "A", 1)], 1);
    assert_eq!(t.target(), ZERO);
    // A 3 cannot go on an Ace, but on a one it can.
    assert!(t.legal(1) & (1 << THREE) != 0);
    turns(&mut t, &[Play(1, "A", 1)], 1);
    assert_eq!(t.target(), ACE);

    let mut t = Setup::new(2).hand(0, "AH QH").hand(1, "3H").live("7H 5H").table();
    turns(&mut t, &[Play(0, "A", 1)], 1);
    assert_eq!(t.target(), ZERO);
}

#[test]
fn i8_a_one_under_fives_is_still_zero() {
    let t = Setup::new(2)
        .live_flags(&[("7H", 0), ("AH", ONE), ("5H", 0)])
        .table();
    assert_eq!(t.target(), ZERO);
}

#[test]
fn i9a_a_nine_with_an_empty_discard_pile_is_a_plain_nine() {
    let mut t = Setup::new(2).hand(0, "9H QH").hand(1, "2H").live("8H").table();
    let ev = turns(&mut t, &[Play(0, "9", 1)], 1);
    assert!(!has(&ev, |e| matches!(e, Event::NineDraw { .. })));
    assert_eq!(t.target(), NINE);
    assert_eq!(t.current(), 1);
}

#[test]
fn i9b_several_nines_draw_one_random_card() {
    let mut t = Setup::new(2)
        .hand(0, "9H 9D QH")
        .hand(1, "2H")
        .live("8H")
        .discard("KH QD")
        .table();
    let ev = turns(&mut t, &[Play(0, "9", 2)], 1);
    let draws: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::NineDraw { .. }))
        .collect();
    assert_eq!(draws.len(), 1);
    assert_eq!(t.target(), KING);
    assert_eq!(t.discard(), set("QD"));
}

#[test]
fn i9c_the_nines_become_ghosts_a_random_five_looks_beneath_them() {
    let mut t = Setup::new(2)
        .hand(0, "9H QH")
        .hand(1, "2H")
        .live("8H")
        .discard("5H")
        .table();
    turns(&mut t, &[Play(0, "9", 1)], 1);
    let live: Vec<(Card, u8)> = t.live().collect();
    assert_eq!(live, [(c("8H"), 0), (c("9H"), GHOST), (c("5H"), 0)]);
    assert_eq!(t.target(), EIGHT);
}

#[test]
fn i9d_the_random_card_is_not_checked_for_legality_and_a_random_three_reverses() {
    // A 3 may not go on an 8, but the 9's random 3 is played anyway.
    let mut t = Setup::new(3)
        .hand(0, "9H QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("8H")
        .discard("3H")
        .table();
    let ev = turns(&mut t, &[Play(0, "9", 1)], 1);
    assert!(has(&ev, |e| matches!(e, Event::Reverse { seat: 0 })));
    assert_eq!(t.target(), THREE);
    assert_eq!(t.current(), 2);
}

#[test]
fn i9e_a_random_two_gives_another_move_and_a_random_nine_draws_again() {
    let mut t = Setup::new(2)
        .hand(0, "9H QH")
        .hand(1, "2H")
        .live("8H")
        .discard("2S")
        .table();
    turns(&mut t, &[Play(0, "9", 1)], 1);
    assert_eq!(t.current(), 0);
    assert_eq!(t.target(), TWO);

    let mut t = Setup::new(2)
        .hand(0, "9H QH")
        .hand(1, "2H")
        .live("8H")
        .discard("9S 6H")
        .table();
    let ev = turns(&mut t, &[Play(0, "9", 1)], 1);
    assert_eq!(
        ev.iter().filter(|e| matches!(e, Event::NineDraw { .. })).count(),
        2
    );
    assert_eq!(t.target(), SIX);
    assert_eq!(t.current(), 1);
}

#[test]
fn i10_fives_are_transparent_all_the_way_down() {
    let t = Setup::new(2).live("8H 5H 5D").table();
    assert_eq!(t.target(), EIGHT);
    let t = Setup::new(2).live("5H 5D").table();
    assert_eq!(t.target(), ZERO);
    // A 5 on a 5 is legal where a 5 goes on the card beneath.
    let t = Setup::new(2).hand(0, "5S").live("8H 5H").table();
    assert_eq!(t.legal(0), 1 << FIVE);
    let t = Setup::new(2).hand(0, "5S").live("4H 5H").table();
    assert_eq!(t.legal(0), 1 << FIVE);
}

#[test]
fn i11_eights_skip_that_many_active_players_the_mover_counted() {
    // Two players, one 8: the turn comes back.
    let mut t = Setup::new(2).hand(0, "8H QH").hand(1, "2H").live("6H").table();
    turns(&mut t, &[Play(0, "8", 1)], 1);
    assert_eq!(t.current(), 0);
    // Three players, two 8s: back to the mover.
    let mut t = Setup::new(3)
        .hand(0, "8H 8D QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("6H")
        .table();
    turns(&mut t, &[Play(0, "8", 2)], 1);
    assert_eq!(t.current(), 0);
    // Three players, one 8: seat 1 is skipped.
    let mut t = Setup::new(3)
        .hand(0, "8H QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("6H")
        .table();
    let ev = turns(&mut t, &[Play(0, "8", 1)], 1);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Skip {
            seat: 0,
            turns: 1,
            cause: SkipCause::Eights
        }
    )));
    assert_eq!(t.current(), 2);
}

#[test]
fn i11_finished_players_are_not_counted() {
    // Four players: seat 1 plays its last card legally and leaves; then
    // seat 2's 8 skips seat 3 and passes over the finished seat 1.
    let t = Setup::new(4)
        .hand(0, "KH")
        .hand(1, "6C")
        .hand(2, "8H QH")
        .hand(3, "2C")
        .live("6H")
        .cur(1)
        .table();
    let mut t = no_downs(t, &[1]);
    turns(&mut t, &[Play(1, "6", 1)], 1);
    assert_eq!((t.place(1), t.how(1)), (1, Out::Legal));
    assert_eq!(t.current(), 2);
    turns(&mut t, &[Play(2, "8", 1)], 1);
    assert_eq!(t.current(), 0);
}

#[test]
fn i12_odd_threes_reverse_even_threes_do_not() {
    let mut t = Setup::new(3).hand(0, "3H QH").hand(1, "2H").hand(2, "2D").table();
    turns(&mut t, &[Play(0, "3", 1)], 1);
    assert!(t.reversed());
    assert_eq!(t.current(), 2);
    let mut t = Setup::new(3)
        .hand(0, "3H 3D QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .table();
    turns(&mut t, &[Play(0, "3", 2)], 1);
    assert!(!t.reversed());
    assert_eq!(t.current(), 1);
    // Counter-clockwise play goes to the lower seat.
    let mut t = Setup::new(3)
        .hand(0, "KH QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .reversed()
        .table();
    turns(&mut t, &[Play(0, "K", 1)], 1);
    assert_eq!(t.current(), 2);
}

/// A deck dealing `downs`, `ups` and `hands` (three cards each per seat)
/// and then the draw pile `draw` (top first); the other cards follow.
fn deck(downs: &[&str], ups: &[&str], hands: &[&str], draw: &str) -> [Card; DECK] {
    let mut order: Vec<Card> = Vec::new();
    for part in [downs, ups, hands] {
        for s in part {
            let v = cards(s);
            assert_eq!(v.len(), 3);
            order.extend(v);
        }
    }
    order.extend(cards(draw));
    let used = order.iter().fold(0u64, |m, &c| m | 1 << c);
    assert_eq!(used.count_ones() as usize, order.len(), "a card twice");
    order.extend(cards_of(ALL & !used));
    order.try_into().unwrap()
}

#[test]
fn i12_i27_the_lowest_card_in_hand_starts_and_an_odd_opening_of_threes_reverses() {
    let mut t = Table::new(Rules::standard(3));
    t.deal(&deck(
        &["2H 2D 2C", "2S 4H 4D", "4C 4S 5H"],
        &["3H 5D 5C", "5S 6H 6D", "7H 7D 7C"],
        &["KH QH JH", "3D 9H 8H", "3C 9D 8D"],
        "JD JC JS QD QC QS",
    ));
    // Seat 0's 3H is face up: only hand cards count. Seats 1 and 2 hold a 3;
    // diamonds are lower than clubs.
    let mut s = Script::new(&[
        Fix(0, "3H 5D 5C"),
        Fix(1, "5S 6H 6D"),
        Fix(2, "7H 7D 7C"),
        Play(1, "3", 1),
        Play(0, "K", 1),
    ]);
    let mut rec = Rec::default();
    t.set_move_cap(2);
    t.play_game(&mut s, &mut rec, &mut Stacked);
    assert!(has(&rec.events, |e| *e
        == Event::Starts {
            seat: 1,
            card: c("3D")
        }));
    // The 3 reversed: seat 0 moved after seat 1.
    assert!(t.reversed());
    assert!(has(&rec.events, |e| matches!(e, Event::Play { seat: 0, .. })));
    // Every player's announced lowest card is known.
    assert!(t.known(2) & (1 << c("3C")) != 0);
}

#[test]
fn i27_the_starter_must_open_with_the_rank_of_the_lowest_card() {
    let mut t = Table::new(Rules::standard(2));
    t.deal(&deck(
        &["2H 2D 2C", "2S 4H 4D"],
        &["5D 5C 5S", "7H 7D 7C"],
        &["6H 6D KH", "8H 9H JH"],
        "",
    ));
    let mut s = Script::new(&[Fix(0, "5D 5C 5S"), Fix(1, "7H 7D 7C"), Play(0, "6", 2)]);
    let mut rec = Rec::default();
    t.set_move_cap(1);
    t.play_game(&mut s, &mut rec, &mut Stacked);
    assert!(has(&rec.events, |e| *e
        == Event::Starts {
            seat: 0,
            card: c("6H")
        }));
    assert_eq!(t.live_set(), set("6H 6D"));
}

#[test]
fn i13_the_four_chain_runs_through_fives_and_sixes_and_the_loser_takes_the_whole_pile() {
    let mut t = Setup::new(3)
        .hand(0, "4H QH")
        .hand(1, "6H QD")
        .hand(2, "5H QC")
        .live("KH")
        .cur(0)
        .table();
    turns(&mut t, &[Play(0, "4", 1), Play(1, "6", 1), Play(2, "5", 1)], 3);
    assert_eq!(t.target(), FOUR);
    // Seat 0 holds only a Q and the draw pile is empty: it must pick up.
    let ev = turns(&mut t, &[], 1);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Pickup { seat: 0, cards } if *cards == set("KH 4H 6H 5H"))
    ));
    assert_eq!(t.current(), 1);
    assert_eq!(t.target(), ZERO);
}

#[test]
fn i14_a_six_on_an_effective_four_keeps_the_chain() {
    let mut t = Setup::new(2).hand(0, "6H QH").hand(1, "2H").live("4H 5H").table();
    turns(&mut t, &[Play(0, "6", 1)], 1);
    assert_eq!(t.live().last(), Some((c("6H"), CHAIN)));
    assert_eq!(t.target(), FOUR);
    // A 6 on a non-4 is an ordinary 6.
    let mut t = Setup::new(2).hand(0, "6H QH").hand(1, "2H").live("3H").table();
    turns(&mut t, &[Play(0, "6", 1)], 1);
    assert_eq!(t.target(), SIX);
}

#[test]
fn i15_a_ten_flipping_eights_is_an_ordinary_flip() {
    let mut t = Setup::new(2)
        .hand(0, "10H QH")
        .hand(1, "2H")
        .live("8H 8D 8C")
        .table();
    let ev = turns(&mut t, &[Play(0, "10", 1)], 1);
    assert!(has(&ev, |e| matches!(
        e,
        Event::Flip {
            cause: FlipCause::Ten,
            cards: 4,
            ..
        }
    )));
    assert!(t.is_active(0));
    assert_eq!(t.current(), 0);
    assert_eq!(t.target(), ZERO);
}

#[test]
fn i16_a_threes_flip_deals_one_three_to_each_other_active_player() {
    let mut t = Setup::new(3)
        .hand(0, "3S QH")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("3H 3D 3C")
        .table();
    let ev = turns(&mut t, &[Play(0, "3", 1)], 1);
    assert!(!has(&ev, |e| matches!(e, Event::Reverse { .. })));
    assert!(t.hand(1) & set("3H") != 0);
    assert!(t.hand(2) & set("3D") != 0);
    assert_eq!(t.known(1) & rank_set(THREE), set("3H"));
    assert_eq!(t.discard() & rank_set(THREE), set("3C 3S"));
    assert_eq!(t.current(), 0);
}

#[test]
fn i17_a_fours_flip_takes_a_three_from_the_discard_pile_if_there_is_one() {
    let mut t = Setup::new(2)
        .hand(0, "4S QH")
        .hand(1, "2H")
        .live("4H 4D 4C")
        .discard("3H KS")
        .table();
    let ev = turns(&mut t, &[Play(0, "4", 1)], 1);
    assert!(has(&ev, |e| *e
        == Event::ThreeTaken {
            seat: 0,
            card: Some(c("3H"))
        }));
    assert_eq!(t.hand(0), set("3H QH"));
    assert_eq!(t.current(), 1);
    let mut t = Setup::new(2)
        .hand(0, "4S QH")
        .hand(1, "2H")
        .live("4H 4D 4C")
        .table();
    let ev = turns(&mut t, &[Play(0, "4", 1)], 1);
    assert!(has(&ev, |e| *e == Event::ThreeTaken { seat: 0, card: None }));
    assert_eq!(t.current(), 1);
    assert_eq!(t.target(), ZERO);
}

#[test]
fn the_largest_hand_counts_a_three_dealt_by_a_threes_flip_or_taken_after_a_fours_flip() {
    // A 3s flip deals seat 1 a fifth card.
    let mut t = Setup::new(3)
        .hand(0, "3S QH")
        .hand(1, "2H KH QD JH")
        .hand(2, "2D")
        .live("3H 3D 3C")
        .table();
    turns(&mut t, &[Play(0, "3", 1)], 1);
    assert_eq!(t.hand(1).count_ones(), 5);
    assert_eq!(t.counts(1).max_hand, 5);
    // A 4s flip gives the flipper a fifth card.
    let mut t = Setup::new(2)
        .hand(0, "4S QH KH JH JD")
        .hand(1, "2H")
        .live("4H 4D 4C")
        .discard("3H KS")
        .table();
    turns(&mut t, &[Play(0, "4", 1)], 1);
    assert_eq!(t.hand(0).count_ones(), 5);
    assert_eq!(t.counts(0).max_hand, 5);
}

#[test]
fn i18_the_eights_flipper_loses_and_their_cards_go_to_the_discard_pile() {
    let mut t = Setup::new(3)
        .hand(0, "8S QH")
        .up(0, "KH")
        .down(0, "2S 3S 4S")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("8H 8D 8C")
        .table();
    turns(&mut t, &[Play(0, "8", 1)], 1);
    assert_eq!(t.cards_left(0), 0);
    assert_eq!(t.discard() & set("QH KH 2S 3S 4S"), set("QH KH 2S 3S 4S"));
    // Nobody saw the hand's Q or the face-down cards.
    assert_eq!(t.discard_hidden(), set("QH 2S 3S 4S"));
    assert_eq!((t.place(0), t.how(0)), (3, Out::EightsFlip));
}

fn nines_flip(discard: &str) -> (Table, Vec<Event>) {
    nines_flip_with(discard, |_| {})
}

fn nines_flip_with(discard: &str, rules: impl FnOnce(&mut Rules)) -> (Table, Vec<Event>) {
    let mut t = Setup::new(2)
        .hand(0, "9S QH")
        .hand(1, "2H")
        .live("9H 9D 9C")
        .discard(discard)
        .rules(rules)
        .table();
    let ev = turns(&mut t, &[Play(0, "9", 1)], 1);
    (t, ev)
}

#[test]
fn i19_a_nines_flip_turns_the_discard_pile_up_and_the_top_card_decides() {
    // Top 5: zero, the flipper plays.
    let (t, ev) = nines_flip("2D 5H");
    assert!(has(&ev, |e| matches!(e, Event::NinesFlip { cards: 2, .. })));
    assert_eq!(
        t.live().collect::<Vec<_>>(),
        [(c("2D"), UNPLAYED), (c("5H"), UNPLAYED)]
    );
    assert_eq!(t.discard(), set("9H 9D 9C 9S"));
    assert_eq!((t.target(), t.current()), (ZERO, 0));
    // Top 8: the flipper's turn is skipped.
    let (t, _) = nines_flip("2D 8H");
    assert_eq!((t.target(), t.current()), (EIGHT, 1));
    // Top 10: flipped again, the flipper plays on zero.
    let (t, ev) = nines_flip("2D 10H");
    assert!(has(&ev, |e| matches!(
        e,
        Event::Flip {
            cause: FlipCause::RevealedTen,
            ..
        }
    )));
    assert_eq!((t.live_count(), t.target(), t.current()), (0, ZERO, 0));
    // Top 4: the flipper must play 4, 5 or 6.
    let (t, _) = nines_flip("2D 4H");
    assert_eq!((t.target(), t.current()), (FOUR, 0));
}

#[test]
fn without_8_or_10_the_card_a_nines_flip_turns_up_has_no_power() {
    // Without 8: the 8 on top skips nobody; the flipper plays on it.
    let (t, _) = nines_flip_with("2D 8H", |r| r.off = 1 << EIGHT);
    assert_eq!((t.target(), t.current()), (EIGHT, 0));
    // Without 10: the 10 on top flips nothing; the flipper plays on it.
    let (t, ev) = nines_flip_with("2D 10H", |r| r.off = 1 << TEN);
    assert!(!has(&ev, |e| matches!(
        e,
        Event::Flip {
            cause: FlipCause::RevealedTen,
            ..
        }
    )));
    assert_eq!((t.live_count(), t.target(), t.current()), (2, TEN, 0));
}

#[test]
fn a_ten_a_nines_flip_turns_up_counts_as_a_flip_by_a_ten() {
    let (t, _) = nines_flip("2D 10H");
    assert_eq!(t.counts(0).flips_10, 1);
    assert_eq!(t.counts(0).flips_set, 1);
}

#[test]
fn a_last_card_nine_whose_random_card_completes_a_set_finishes_as_illegal_9() {
    let t = Setup::new(3)
        .hand(0, "9S")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("6H 6D 6C")
        .discard("6S")
        .table();
    let mut t = no_downs(t, &[0]);
    let ev = turns(&mut t, &[Play(0, "9", 1)], 1);
    assert!(has(&ev, |e| matches!(e, Event::NineDraw { .. })));
    assert!(has(&ev, |e| matches!(
        e,
        Event::Flip {
            cause: FlipCause::Set(SIX),
            ..
        }
    )));
    assert_eq!(t.how(0), Out::Illegal(Illegal::Nine));
}

#[test]
fn i19_four_of_a_kind_inside_the_revealed_pile_does_not_flip() {
    let (t, _) = nines_flip("KH KD KC KS 2D");
    assert_eq!(t.run().1, 0);
    assert_eq!(t.live_count(), 5);
}

#[test]
fn i20_a_nines_flip_without_a_discard_pile_is_an_ordinary_flip() {
    let (t, ev) = nines_flip("");
    assert!(!has(&ev, |e| matches!(e, Event::NinesFlip { .. })));
    assert_eq!(t.discard(), set("9H 9D 9C 9S"));
    assert_eq!((t.live_count(), t.current()), (0, 0));
}

#[test]
fn i20_the_flipped_nines_do_not_join_the_pile_turned_up() {
    let (t, _) = nines_flip("KH");
    assert_eq!(t.live_set(), set("KH"));
    assert_eq!(t.discard(), set("9H 9D 9C 9S"));
}

#[test]
fn i35_a_ten_on_an_empty_pile_flips_itself() {
    let mut t = Setup::new(2).hand(0, "10H QH").hand(1, "2H").table();
    let ev = turns(&mut t, &[Play(0, "10", 1)], 1);
    assert!(has(&ev, |e| matches!(e, Event::Flip { cards: 1, .. })));
    assert_eq!(t.current(), 0);
}

// ---------------------------------------------------------------------------
// Turn procedure (I21-I29)
// ---------------------------------------------------------------------------

#[test]
fn i21_drawn_cards_of_the_rank_played_may_be_added_and_count() {
    let mut t = Setup::new(3)
        .hand(0, "8H KH QH")
        .hand(1, "2H KD QD")
        .hand(2, "2D KC QC")
        .live("6H")
        .draw("8D JH JD")
        .table();
    let ev = turns(&mut t, &[Play(0, "8", 1), Add(0, 1)], 1);
    assert!(has(&ev, |e| *e
        == Event::AddOn {
            seat: 0,
            cards: set("8D")
        }));
    // Two 8s with three players: back to seat 0, who drew again.
    assert_eq!(t.current(), 0);
    assert_eq!(t.hand(0), set("KH QH JH"));
    // Declining the add-on keeps the card.
    let mut t = Setup::new(3)
        .hand(0, "8H KH QH")
        .hand(1, "2H KD QD")
        .hand(2, "2D KC QC")
        .live("6H")
        .draw("8D JH")
        .table();
    turns(&mut t, &[Play(0, "8", 1), Add(0, 0)], 1);
    assert_eq!(t.current(), 2);
    assert_eq!(t.hand(0), set("8D KH QH"));
}

#[test]
fn i23_reveal_is_optional_a_playable_card_is_played_else_picked_up_with_the_pile() {
    // K cannot go on an Ace; the revealed 2 can.
    let mut t = Setup::new(2)
        .hand(0, "KH")
        .hand(1, "QD")
        .live("AH")
        .draw("2H 3H JD")
        .table();
    let ev = turns(&mut t, &[Reveal(0)], 1);
    assert!(has(&ev, |e| *e
        == Event::Reveal {
            seat: 0,
            card: c("2H"),
            ok: true
        }));
    assert_eq!(t.current(), 0);
    assert_eq!(t.hand(0), set("KH 3H JD"));
    // A revealed 3 cannot go on an Ace: pile and card to the hand.
    let mut t = Setup::new(2)
        .hand(0, "KH")
        .hand(1, "QD")
        .live("AH")
        .draw("3H JD")
        .table();
    let ev = turns(&mut t, &[Reveal(0)], 1);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Pickup { seat: 0, cards } if *cards == set("AH 3H"))
    ));
    assert_eq!(t.known(0), set("AH 3H"));
    assert_eq!(t.current(), 1);
    // Or the player just picks up.
    let mut t = Setup::new(2)
        .hand(0, "KH")
        .hand(1, "QD")
        .live("AH")
        .draw("3H JD")
        .table();
    turns(&mut t, &[Pickup(0)], 1);
    assert_eq!(t.hand(0), set("KH AH"));
}

#[test]
fn i23_reveal_also_answers_a_four() {
    let mut t = Setup::new(2)
        .hand(0, "KH")
        .hand(1, "QD")
        .live("4H")
        .draw("5H JD")
        .table();
    turns(&mut t, &[Reveal(0)], 1);
    assert_eq!(t.target(), FOUR);
    assert_eq!(t.current(), 1);
}

#[test]
fn i24_a_player_who_can_play_must_play() {
    let result = std::panic::catch_unwind(|| {
        let mut t = Setup::new(2).hand(0, "KH").hand(1, "QD").live("QH").table();
        turns(&mut t, &[Pickup(0)], 1);
    });
    assert!(result.is_err());
    let mut t = Setup::new(2)
        .hand(0, "KH")
        .hand(1, "QD")
        .live("QH")
        .rules(|r| r.voluntary_pickup = true)
        .table();
    turns(&mut t, &[Pickup(0)], 1);
    assert_eq!(t.hand(0), set("KH QH"));
}

#[test]
fn i25_the_hand_is_refilled_before_playing_again() {
    let mut t = Setup::new(2)
        .hand(0, "2H KH QH")
        .hand(1, "3D")
        .draw("JH JD")
        .table();
    let ev = turns(&mut t, &[Play(0, "2", 1)], 1);
    assert!(has(&ev, |e| *e
        == Event::Drew {
            seat: 0,
            cards: set("JH")
        }));
    assert_eq!(t.current(), 0);
    assert_eq!(t.hand(0), set("KH QH JH"));
}

#[test]
fn i26_fixing_swaps_and_stacks_then_draws_back_to_three() {
    let mut t = Table::new(Rules::standard(2));
    t.deal(&deck(
        &["2H 2D 2C", "2S 4D 4C"],
        &["3H 4H 5H", "5D 5C 5S"],
        &["KH KD 6H", "7H 7D 7C"],
        "JH QH",
    ));
    // Seat 0 swaps 3H for 6H and stacks the Ks on one slot: 4 face up,
    // two in hand, draws JH; asked again, keeps it.
    let mut s = Script::new(&[
        Fix(0, "4H 5H KH KD"),
        Fix(0, "4H 5H KH KD"),
        Fix(1, "5D 5C 5S"),
        Play(0, "3", 1),
    ]);
    let mut rec = Rec::default();
    t.set_move_cap(1);
    t.play_game(&mut s, &mut rec, &mut Stacked);
    assert_eq!(t.up(0), set("4H 5H KH KD"));
    assert!(has(&rec.events, |e| *e
        == Event::Fixed {
            seat: 0,
            up: set("4H 5H KH KD"),
            drew: set("JH")
        }));
    // The 3 taken up from the face-up cards was the lowest card: it opened.
    assert_eq!(t.hand(0), set("6H JH QH"));
}

#[test]
fn i26_fixing_that_breaks_the_rules_is_refused() {
    let result = std::panic::catch_unwind(|| {
        let mut t = Table::new(Rules::standard(2));
        t.deal(&deck(
            &["2H 2D 2C", "2S 4D 4C"],
            &["3H 4H 5H", "5D 5C 5S"],
            &["KH QD 6H", "7H 7D 7C"],
            "",
        ));
        let mut s = Script::new(&[Fix(0, "4H 5H KH QD")]);
        t.play_game(&mut s, &mut Silent, &mut Stacked);
    });
    assert!(result.is_err(), "four ranks face up");
}

#[test]
fn i28_face_up_cards_stay_after_a_pickup() {
    let mut t = Setup::new(2).up(0, "KH").hand(1, "QD").live("AH").table();
    turns(&mut t, &[], 1);
    assert_eq!(t.up(0), set("KH"));
    assert_eq!(t.hand(0), set("AH"));
    assert_eq!(t.zone(0), Zone::Hand);
}

#[test]
fn i29_face_down_cards_one_at_a_time_blind() {
    let mut t = Setup::new(2).down(0, "2H KH QH").hand(1, "QD").live("AH").table();
    // The 2 plays and gives another (blind) try: the K goes on the 2.
    let ev = turns(&mut t, &[Down(0, 0), Down(0, 0)], 2);
    assert!(has(&ev, |e| *e
        == Event::FaceDown {
            seat: 0,
            slot: 0,
            card: c("2H"),
            ok: true
        }));
    assert_eq!(t.downs(0), &cards("QH")[..]);
    assert_eq!(t.current(), 1);
    // A card that cannot be played goes to the hand with the pile, shown.
    let mut t = Setup::new(2).down(0, "3H KH").hand(1, "QD").live("AH").table();
    let ev = turns(&mut t, &[Down(0, 1)], 1);
    assert!(has(&ev, |e| *e
        == Event::FaceDown {
            seat: 0,
            slot: 1,
            card: c("KH"),
            ok: false
        }));
    assert_eq!(t.hand(0), set("AH KH"));
    assert_eq!(t.known(0), set("AH KH"));
    assert_eq!(t.downs(0), &cards("3H")[..]);
}

// ---------------------------------------------------------------------------
// Finishing, results, termination (I30-I35)
// ---------------------------------------------------------------------------

/// Seat 0 plays its last cards (`last`, in hand, nothing else) on `live`;
/// returns the table after the turn.
fn last_play(players: usize, last: &str, play: Ask, live: &str, discard: &str) -> Table {
    let mut s = Setup::new(players).hand(0, last).live(live).discard(discard);
    for q in 1..players {
        s = s.hand(q, ["2H", "2D", "2C", "2S"][q - 1]);
    }
    let mut t = no_downs(s.table(), &[0]);
    turns(&mut t, &[play], 1);
    t
}

#[test]
fn i30_finishing_on_a_two_a_ten_or_a_set_is_illegal() {
    let t = last_play(3, "2S", Play(0, "2", 1), "KH", "");
    assert_eq!((t.how(0), t.place(0)), (Out::Illegal(Illegal::Two), 3));
    let t = last_play(3, "10H", Play(0, "10", 1), "KH", "");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Ten));
    let t = last_play(3, "KS", Play(0, "K", 1), "KH KD KC", "");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Flip));
    // The 3s flip is a set too.
    let t = last_play(3, "3S", Play(0, "3", 1), "3H 3D 3C", "");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Flip));
}

#[test]
fn i30_eights_are_illegal_only_when_they_skip_back_to_the_finisher() {
    let t = last_play(2, "8H", Play(0, "8", 1), "6H", "");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Eight));
    let t = last_play(3, "8H", Play(0, "8", 1), "6H", "");
    assert_eq!((t.how(0), t.place(0)), (Out::Legal, 1));
    let t = last_play(3, "8H 8D", Play(0, "8", 2), "6H", "");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Eight));
    let t = last_play(3, "8H 8D 8C", Play(0, "8", 3), "6H", "");
    assert_eq!(t.how(0), Out::Legal);
}

#[test]
fn i30_a_nine_whose_random_card_gives_the_turn_back_is_illegal() {
    let t = last_play(2, "9H", Play(0, "9", 1), "8H", "2D");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Nine));
    let t = last_play(2, "9H", Play(0, "9", 1), "8H", "10D");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Nine));
    let t = last_play(2, "9H", Play(0, "9", 1), "8H", "KD");
    assert_eq!(t.how(0), Out::Legal);
}

#[test]
fn i30_the_fours_flip_finishes_legally_without_a_three_and_keeps_the_player_in_with_one() {
    let t = last_play(3, "4S", Play(0, "4", 1), "4H 4D 4C", "");
    assert_eq!(t.how(0), Out::Legal);
    let t = last_play(3, "4S", Play(0, "4", 1), "4H 4D 4C", "3H");
    assert!(t.is_active(0));
    assert_eq!(t.hand(0), set("3H"));
}

#[test]
fn i30_the_nines_flip_finishes_legally_only_when_an_eight_comes_up() {
    let t = last_play(3, "9S", Play(0, "9", 1), "9H 9D 9C", "3H 8H");
    assert_eq!(t.how(0), Out::Legal);
    let t = last_play(3, "9S", Play(0, "9", 1), "9H 9D 9C", "3H KH");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Flip));
    let t = last_play(3, "9S", Play(0, "9", 1), "9H 9D 9C", "");
    assert_eq!(t.how(0), Out::Illegal(Illegal::Flip));
}

#[test]
fn i30_a_plain_last_card_finishes_legally_from_hand_face_up_and_face_down() {
    let t = last_play(2, "KS", Play(0, "K", 1), "QH", "");
    assert_eq!((t.how(0), t.place(0)), (Out::Legal, 1));
    // The game is over for two players: the other is last.
    let mut t = t;
    assert_eq!(
        t.play_on(&mut Script::new(&[]), &mut Rec::default(), &mut Stacked),
        End::Complete
    );
    assert_eq!((t.how(1), t.place(1)), (Out::Last, 2));
    let mut t = Setup::new(3)
        .up(0, "KS")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("QH")
        .table();
    t = no_downs(t, &[0]);
    turns(&mut t, &[Play(0, "K", 1)], 1);
    assert_eq!(t.how(0), Out::Legal);
    let mut t = Setup::new(3)
        .down(0, "KS")
        .hand(1, "2H")
        .hand(2, "2D")
        .live("QH")
        .table();
    turns(&mut t, &[Down(0, 0)], 1);
    assert_eq!(t.how(0), Out::Legal);
}

#[test]
fn i31_after_an_illegal_finish_the_next_active_player_plays_on_the_pile_as_it_stands() {
    let t = last_play(3, "2S", Play(0, "2", 1), "KH", "");
    assert_eq!(t.current(), 1);
    assert_eq!(t.target(), TWO);
    // After 8s that skip back: the next player, no skips.
    let t = last_play(3, "8H 8D", Play(0, "8", 2), "6H", "");
    assert_eq!(t.current(), 1);
}

#[test]
fn i32_legal_finishes_fill_places_from_the_top_illegal_ones_from_the_bottom() {
    // Three players: seat 0 finishes illegally (3rd), then seat 1 legally
    // (1st), seat 2 is left with 2nd.
    let mut t = Setup::new(3)
        .hand(0, "2S")
        .hand(1, "KS")
        .hand(2, "AH AD")
        .live("QH")
        .table();
    t = no_downs(t, &[0, 1]);
    let mut s = Script::new(&[Play(0, "2", 1), Play(1, "K", 1)]);
    let mut rec = Rec::default();
    let end = t.play_on(&mut s, &mut rec, &mut Stacked);
    assert_eq!(end, End::Complete);
    assert_eq!([t.place(0), t.place(1), t.place(2)], [3, 1, 2]);
    assert_eq!(t.how(2), Out::Last);
    // An 8s flip after an illegal finish: the earlier one is last.
    let mut t = Setup::new(3)
        .hand(0, "2S")
        .hand(1, "8H 8D 8C 8S QD")
        .hand(2, "AH AD")
        .live("KH")
        .table();
    t = no_downs(t, &[0]);
    // Three 8s with two players left come back to seat 1; its fourth 8 flips.
    let mut s = Script::new(&[Play(0, "2", 1), Play(1, "8", 3), Play(1, "8", 1)]);
    t.play_on(&mut s, &mut Rec::default(), &mut Stacked);
    assert_eq!([t.place(0), t.place(1), t.place(2)], [3, 2, 1]);
}

#[test]
fn i33_no_reveal_with_an_empty_draw_pile() {
    // Stuck with a hand and no draw pile: picked up without being asked.
    let mut t = Setup::new(2).hand(0, "KH").hand(1, "QD").live("AH").table();
    turns(&mut t, &[], 1);
    assert_eq!(t.hand(0), set("KH AH"));
}

#[test]
fn i34_the_move_cap_ends_a_game_as_a_stalemate() {
    let mut t = Table::new(Rules {
        move_cap: 5,
        ..Rules::standard(3)
    });
    let mut seats = Seats::new(vec![Policy::parse("lowest").unwrap(); 3]);
    let mut rng = batch_rng(3, 0);
    t.new_game(&mut rng);
    let mut rec = Rec::default();
    let end = t.play_game(&mut seats, &mut rec, &mut rng);
    assert_eq!(end, End::Stalemate { repetition: false });
    assert_eq!(t.moves(), 5);
    assert_eq!(rec.ends, [end]);
}

/// Plays `lowest` but does not let the engine look for repetitions.
struct NoDetect(Seats);
impl Chooser for NoDetect {
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        self.0.fix(v, d)
    }
    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        self.0.act(v, d)
    }
    fn add_on<D: Draw>(&mut self, v: &View<'_>, r: Rank, a: u8, d: &mut D) -> u8 {
        self.0.add_on(v, r, a, d)
    }
    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
        self.0.face_down(v, d)
    }
    fn deterministic(&self) -> bool {
        false
    }
}

#[test]
fn i34_an_exact_repetition_is_a_cycle_that_never_ends() {
    // Find a game `lowest` stops by repetition, then replay it without the
    // detector: it runs to the move cap.
    let rules = Rules::standard(2);
    let lowest = vec![Policy::parse("lowest").unwrap(); 2];
    let mut batch = batch_rng(34, 0);
    let mut found = None;
    for _ in 0..20_000 {
        let mut rng = game_rng(&mut batch);
        let keep = rng.clone();
        let mut t = Table::new(rules);
        t.new_game(&mut rng);
        if t.play_game(&mut Seats::new(lowest.clone()), &mut Silent, &mut rng)
            == (End::Stalemate { repetition: true })
        {
            found = Some(keep);
            break;
        }
    }
    let mut rng = found.expect("a cycling two-player game in 20,000");
    let mut t = Table::new(Rules {
        move_cap: 3000,
        ..rules
    });
    t.new_game(&mut rng);
    let end = t.play_game(&mut NoDetect(Seats::new(lowest)), &mut Silent, &mut rng);
    assert_eq!(end, End::Stalemate { repetition: false });
    assert_eq!(t.moves(), 3000);
}

// ---------------------------------------------------------------------------
// --without
// ---------------------------------------------------------------------------

#[test]
fn without_a_power_the_card_is_ordinary() {
    // Without 2: no second move, and only 2, 10, 4, 5 go on a 2.
    let mut t = Setup::new(2)
        .hand(0, "2H QH")
        .hand(1, "KD")
        .live("JH")
        .rules(|r| r.off = 1 << TWO)
        .table();
    turns(&mut t, &[Play(0, "2", 1)], 1);
    assert_eq!(t.current(), 1);
    assert_eq!(t.legal(1), 0);
    // Without 8: no skip.
    let mut t = Setup::new(2)
        .hand(0, "8H QH")
        .hand(1, "KD")
        .live("6H")
        .rules(|r| r.off = 1 << EIGHT)
        .table();
    turns(&mut t, &[Play(0, "8", 1)], 1);
    assert_eq!(t.current(), 1);
    // Without sets: four Ks do not flip.
    let mut t = Setup::new(2)
        .hand(0, "KH QH")
        .hand(1, "2D")
        .live("KD KC KS")
        .rules(|r| r.off = SETS_OFF)
        .table();
    turns(&mut t, &[Play(0, "K", 1)], 1);
    assert_eq!(t.live_count(), 4);
    // Without the special flips: the 8s flip is an ordinary flip.
    let mut t = Setup::new(2)
        .hand(0, "8S QH")
        .hand(1, "2D")
        .live("8H 8D 8C")
        .rules(|r| r.off = SPECIAL_OFF)
        .table();
    turns(&mut t, &[Play(0, "8", 1)], 1);
    assert!(t.is_active(0));
    assert_eq!(t.current(), 0);
}

// ---------------------------------------------------------------------------
// Invariants and information
// ---------------------------------------------------------------------------

#[test]
fn invariants_over_many_seeds_every_player_count_and_every_policy() {
    let specs = [
        "lowest",
        "random",
        "saver+burn-at:6",
        "attacker+fix:stack",
        "finisher+fix:keep",
        "counter",
    ];
    for players in 2..=5 {
        for g in 0..150u64 {
            let seats: Vec<Policy> = (0..players)
                .map(|s| Policy::parse(specs[(g as usize + s) % specs.len()]).unwrap())
                .collect();
            let mut t = Table::new(Rules::standard(players));
            let mut rng = batch_rng(g, players as u64);
            t.new_game(&mut rng);
            let mut rec = Rec::default();
            let end = t.play_game(&mut Seats::new(seats), &mut rec, &mut rng);
            let mut places: Vec<u8> = (0..players).map(|s| t.place(s)).collect();
            match end {
                End::Complete => {
                    places.sort();
                    assert_eq!(places, (1..=players as u8).collect::<Vec<_>>());
                }
                End::Stalemate { .. } => {
                    assert!(t.active_count() >= 2);
                    for s in 0..players {
                        assert_eq!(t.place(s) == 0, t.is_active(s));
                    }
                }
            }
        }
    }
}

#[test]
fn redealing_what_a_player_cannot_know_never_changes_a_decision() {
    let specs = [
        "lowest",
        "random",
        "saver+burn-at:6",
        "attacker",
        "finisher",
        "counter",
        "rollout:2",
    ];
    let mut changed = 0;
    for (i, spec) in specs.iter().enumerate() {
        let policy = Policy::parse(spec).unwrap();
        let seats = Seats::new(vec![Policy::parse("lowest").unwrap(); 3]);
        for g in 0..6u64 {
            let mut t = Table::new(Rules::standard(3));
            let mut rng = batch_rng(g, i as u64);
            t.new_game(&mut rng);
            let mut seats = seats.clone();
            // Fix and start like a real game, with a tiny cap, then step.
            t.set_move_cap(0);
            t.play_game(&mut seats, &mut Silent, &mut rng);
            let mut checked = 0;
            while t.active_count() >= 2 && t.moves() < 150 && checked < 12 {
                let p = t.current();
                if t.zone(p) != Zone::FaceDown && (t.legal(p) != 0) {
                    let v = View::new(&t, p);
                    let mut a = batch_rng(99, t.moves().into());
                    let mut b = a.clone();
                    let here = policy.act(&v, &mut a);
                    let mut dealer = batch_rng(7, t.moves().into());
                    let world = v.sample_world(&mut dealer);
                    world.check();
                    if (0..3).any(|q| q != p && world.hand(q) != t.hand(q)) || world.downs(p) != t.downs(p) {
                        changed += 1;
                    }
                    let there = policy.act(&View::new(&world, p), &mut b);
                    assert_eq!(
                        here, there,
                        "{spec}: the decision changed with cards the player cannot know"
                    );
                    checked += 1;
                }
                t.turn(&mut seats, &mut Silent, &mut rng);
            }
        }
    }
    assert!(changed > 50, "the re-deals moved hidden cards ({changed})");
}

#[test]
fn the_view_hides_face_down_cards_the_draw_order_and_unknown_hand_cards() {
    let t = Setup::new(2)
        .hand(0, "KH QH")
        .hand(1, "2H 3D")
        .up(1, "AS")
        .live("JH")
        .draw("5S 6S")
        .table();
    let mut pos = position_of(&t);
    pos.known = vec![0, set("3D")];
    let mut t = t;
    t.set_position(&pos);
    let v = View::new(&t, 0);
    assert_eq!(v.known_hand(1), set("3D"));
    let unseen = v.unseen();
    assert!(unseen & set("2H 5S 6S") == set("2H 5S 6S"));
    for &c in t.downs(0).iter().chain(t.downs(1)) {
        assert!(unseen & (1 << c) != 0);
    }
    assert_eq!(unseen & set("KH QH 3D AS JH"), 0);
}
