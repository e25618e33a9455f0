//! One game of IB-Flip: the deal, fixing, the lowest card starting, turns
//! from the hand, the face-up and the face-down cards, every card power,
//! four-of-a-kind flips and the special flips, finishing legally and
//! illegally, the full finishing order, and the move cap.
//! `docs/rules/ib-flip.md` states every rule and reading (I1..I35) this
//! file implements; `tests/ib_flip_rules.rs` checks them one by one.
//!
//! A game is generic over the [`Chooser`] that makes every decision, the
//! [`Observer`] that records statistics and the trace, and the [`Draw`]
//! source (a random generator, or [`crate::engine::rng::Stacked`] in
//! tests). A chooser never sees the [`Table`]: it gets a [`View`] holding
//! only what its player can know.
//!
//! State is a handful of card masks (`u64`) and two short arrays (the live
//! pile and the draw pile); nothing is allocated while a game is played
//! (the repetition detector's set of state hashes is allocated once per
//! table and only used past [`REPEAT_FROM`] moves).

use std::collections::HashMap;

use super::cards::*;
pub use crate::engine::observe::{Observer, Silent};
use crate::engine::observe::Observed;
use crate::engine::rng::{Draw, splitmix64};

/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players (I2: nine cards each from one deck).
pub const MAX_PLAYERS: usize = 5;
/// Hand size to refill to.
pub const HAND: u32 = 3;
/// Default move cap (I34).
pub const DEFAULT_MOVE_CAP: u32 = 10_000;
/// From this move on, exact repetitions of the state are looked for.
pub const REPEAT_FROM: u32 = 400;

/// Live-pile flag: a 9 replaced by its random card (transparent, I9c).
pub const GHOST: u8 = 1;
/// Live-pile flag: a 6 played on an effective 4 (transparent, I14).
pub const CHAIN: u8 = 2;
/// Live-pile flag: an Ace played on an effective 7, a one (I8).
pub const ONE: u8 = 4;
/// Live-pile flag: turned face up by a 9s flip, never played (I19).
pub const UNPLAYED: u8 = 8;

/// Options fixed for every game of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Players at the table.
    pub players: usize,
    /// Card powers switched off (`--without`).
    pub off: Powers,
    /// Whether a player who can play may pick up instead (I24 option).
    pub voluntary_pickup: bool,
    /// Moves after which a game is a stalemate (I34).
    pub move_cap: u32,
}

impl Rules {
    /// The game as the text has it, for `players` players.
    pub fn standard(players: usize) -> Rules {
        Rules {
            players,
            off: 0,
            voluntary_pickup: false,
            move_cap: DEFAULT_MOVE_CAP,
        }
    }
}

/// What a player does on a turn with cards in hand or face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play `count` cards of `rank` from the zone in play (lowest suits first).
    Play {
        /// The rank.
        rank: Rank,
        /// How many (1..=held).
        count: u8,
    },
    /// Reveal the top card of the draw pile (only when stuck with a hand).
    Reveal,
    /// Pick up the live cards (when stuck, or with `--voluntary-pickup`).
    Pickup,
}

/// Where the cards of a play came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The hand.
    Hand,
    /// The face-up slots.
    FaceUp,
    /// One face-down card, played blind.
    FaceDown,
    /// The top card of the draw pile, revealed.
    Revealed,
}

/// Which zone a player plays from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// Cards in hand.
    Hand,
    /// Hand empty: the face-up cards.
    FaceUp,
    /// Hand and face-up cards gone: the face-down cards.
    FaceDown,
}

/// How an illegal finish happened (it would have been the finisher's turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// On a 2.
    Two,
    /// On a 10.
    Ten,
    /// On 8s that skip back to the finisher.
    Eight,
    /// By flipping a set (not 4s; 9s unless an 8 comes up).
    Flip,
    /// On a 9 whose random card gave the turn back.
    Nine,
}

impl Illegal {
    /// Every kind, in column order.
    pub const ALL: [Illegal; 5] = [Illegal::Two, Illegal::Ten, Illegal::Eight, Illegal::Flip, Illegal::Nine];

    /// Short name for CSV and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Illegal::Two => "2",
            Illegal::Ten => "10",
            Illegal::Eight => "8",
            Illegal::Flip => "flip",
            Illegal::Nine => "9",
        }
    }
}

/// How a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// Still in (or the last one left).
    In,
    /// Finished legally.
    Legal,
    /// Finished illegally.
    Illegal(Illegal),
    /// Flipped the 8s.
    EightsFlip,
    /// The last player left, given the remaining place.
    Last,
}

/// Why the live cards were flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlipCause {
    /// A 10 was played.
    Ten,
    /// Four consecutive cards of this rank.
    Set(Rank),
    /// A 9s flip turned up a 10.
    RevealedTen,
}

/// Where the 8s that skip turns come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipCause {
    /// 8s played (add-ons included).
    Eights,
    /// An 8 drawn by a 9 from the discard pile.
    Nine,
    /// An 8 turned up on top by a 9s flip: the flipper's turn is skipped.
    NinesFlip,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every place is given.
    Complete,
    /// Stopped: the move cap was reached, or (`repetition`) the state
    /// repeated exactly with nothing random in between, so it would cycle
    /// forever.
    Stalemate {
        /// Found by exact repetition rather than the cap.
        repetition: bool,
    },
}

/// Everything that happens at the table, in order. Built only for observers
/// that ask for events ([`Observer::EVENTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The cards are dealt.
    Dealt,
    /// A player fixed their hand: the face-up cards now, and the cards
    /// drawn while fixing.
    Fixed {
        /// The player.
        seat: usize,
        /// Face-up cards.
        up: CardSet,
        /// Cards drawn to refill the hand.
        drew: CardSet,
    },
    /// The starting player and their lowest card.
    Starts {
        /// The player.
        seat: usize,
        /// Their lowest card.
        card: Card,
    },
    /// Cards put on the live pile.
    Play {
        /// The player.
        seat: usize,
        /// The cards.
        cards: CardSet,
        /// From where.
        from: Source,
        /// The effective top card they were played on.
        target: u8,
    },
    /// Cards drawn to refill the hand after a play.
    Drew {
        /// The player.
        seat: usize,
        /// The cards.
        cards: CardSet,
    },
    /// Drawn cards of the rank just played, added to the play (I21).
    AddOn {
        /// The player.
        seat: usize,
        /// The cards.
        cards: CardSet,
    },
    /// The top card of the draw pile revealed.
    Reveal {
        /// The player.
        seat: usize,
        /// The card.
        card: Card,
        /// Whether it could be played.
        ok: bool,
    },
    /// A face-down card turned over.
    FaceDown {
        /// The player.
        seat: usize,
        /// Its slot among the player's face-down cards before it was
        /// taken (0 = the first left; the others close up).
        slot: u8,
        /// The card.
        card: Card,
        /// Whether it could be played.
        ok: bool,
    },
    /// The live cards picked up.
    Pickup {
        /// The player.
        seat: usize,
        /// Cards picked up (with a failed revealed or face-down card).
        cards: CardSet,
    },
    /// A 9's random card from the discard pile.
    NineDraw {
        /// The player of the 9.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// The live cards flipped to the discard pile.
    Flip {
        /// Who flipped.
        seat: usize,
        /// Why.
        cause: FlipCause,
        /// Cards flipped.
        cards: u8,
    },
    /// A 3s flip dealt this 3 to `to`.
    ThreeDealt {
        /// Receiver.
        to: usize,
        /// The 3.
        card: Card,
    },
    /// A 4s flip: the flipper took a 3 (or none was there).
    ThreeTaken {
        /// The flipper.
        seat: usize,
        /// The 3, if the discard pile had one.
        card: Option<Card>,
    },
    /// A 9s flip turned the discard pile into the live cards.
    NinesFlip {
        /// The flipper.
        seat: usize,
        /// Cards turned up.
        cards: u8,
        /// The top card.
        top: Card,
    },
    /// The direction of play switched.
    Reverse {
        /// Who played the 3s.
        seat: usize,
    },
    /// Turns skipped by 8s.
    Skip {
        /// Who played the 8s (or whose 9 or 9s flip turned one up).
        seat: usize,
        /// Turns skipped.
        turns: u8,
        /// Which 8s.
        cause: SkipCause,
    },
    /// One step of fixing: the face-up cards chosen, then the cards drawn
    /// back to three ([`Event::Fixed`] ends the player's fixing).
    FixStep {
        /// The player.
        seat: usize,
        /// Face-up cards chosen.
        up: CardSet,
        /// Cards drawn after it.
        drew: CardSet,
    },
    /// A player left the game.
    Finished {
        /// The player.
        seat: usize,
        /// Their place (1 = winner).
        place: u8,
        /// How.
        how: Out,
    },
}

/// A play in progress whose player is asked for an add-on
/// ([`Chooser::add_on`]), as [`Table::resume_add_on`] resumes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddOnAsked {
    /// The rank played.
    pub rank: Rank,
    /// Cards of the play so far (add-ons included).
    pub played: u32,
    /// The cards just drawn.
    pub drawn: CardSet,
}

/// A fixing step a player is asked ([`Chooser::fix`]), as
/// [`Table::resume_fixing`] resumes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixAsked {
    /// The player fixing (seats fix in order, 0 first).
    pub seat: usize,
    /// Steps of this player's fixing already taken.
    pub steps: u32,
    /// Cards drawn in those steps.
    pub drew: CardSet,
}

/// Whether `up` is a legal fixing step from the cards `pool` (hand and
/// face up): at least 3 cards of at most 3 ranks (one rank a slot, I26),
/// taken from the pool, leaving at most 3 in hand.
#[inline]
pub fn fix_is_legal(pool: CardSet, up: CardSet) -> bool {
    up & !pool == 0 && up.count_ones() >= 3 && ranks_of(up).count_ones() <= 3 && (pool & !up).count_ones() <= HAND
}

/// Makes every decision of every seat. Every method gets the [`View`] of
/// the player `v.seat()` deciding.
pub trait Chooser {
    /// Fixing: the face-up cards chosen from `v.hand() | v.up(v.seat())`:
    /// at least 3 cards of at most 3 ranks, leaving at most 3 in hand.
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet;
    /// A turn with cards in hand or face up. `v.legal()` are the playable
    /// ranks; when empty the answer must be [`Action::Reveal`] (only
    /// possible with a hand and a draw pile) or [`Action::Pickup`].
    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action;
    /// How many of the `avail` drawn cards of `rank` to add to the play.
    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8;
    /// Which face-down card to turn (an index below `v.down_count(seat)`).
    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize;
    /// Whether every decision is a function of the view alone (no random
    /// numbers), so that an exact repetition of the state is a cycle.
    fn deterministic(&self) -> bool;
}

/// What observers of an IB-Flip table hear.
impl Observed for Table {
    type Event = Event;
    type End = End;
}

/// Per-seat counters of one game, read by the statistics at its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Turns taken.
    pub turns: u32,
    /// Pickups.
    pub pickups: u32,
    /// Cards picked up.
    pub pickup_cards: u32,
    /// Reveals, and how many could be played.
    pub reveals: u32,
    /// Revealed cards that could be played.
    pub reveals_ok: u32,
    /// Face-down cards tried.
    pub facedown_tries: u32,
    /// Face-down cards that could not be played.
    pub facedown_fails: u32,
    /// Flips by a 10.
    pub flips_10: u32,
    /// Flips by four of a kind.
    pub flips_set: u32,
    /// Random cards drawn by 9s.
    pub nine_draws: u32,
    /// Most cards held in hand.
    pub max_hand: u32,
}

/// A position for tests and tools ([`Table::set_position`]): every zone.
/// Cards listed nowhere are out of play.
#[derive(Clone, Debug, Default)]
pub struct Position {
    /// Hand of each seat.
    pub hands: Vec<CardSet>,
    /// Face-up cards of each seat.
    pub ups: Vec<CardSet>,
    /// Face-down cards of each seat, slot order.
    pub downs: Vec<Vec<Card>>,
    /// The draw pile, top card first.
    pub draw: Vec<Card>,
    /// The live cards, bottom first, with their flags.
    pub live: Vec<(Card, u8)>,
    /// The discard pile.
    pub discard: CardSet,
    /// Whose turn.
    pub cur: usize,
    /// Play goes counter-clockwise.
    pub reversed: bool,
    /// Hand cards everybody knows, per seat (defaults to none).
    pub known: Vec<CardSet>,
}

/// An IB-Flip table: every zone, whose turn, the places, the counters.
#[derive(Clone, Debug)]
pub struct Table {
    rules: Rules,
    can: [u16; 14],
    hand: [CardSet; MAX_PLAYERS],
    up: [CardSet; MAX_PLAYERS],
    down: [[Card; 3]; MAX_PLAYERS],
    down_n: [u8; MAX_PLAYERS],
    /// Hand cards everybody knows of (pickups, fixing swaps, dealt 3s...).
    known: [CardSet; MAX_PLAYERS],
    /// Draw pile, top card last.
    draw: [Card; DECK],
    draw_n: u8,
    live: [Card; DECK],
    flags: [u8; DECK],
    live_n: u8,
    /// The live cards as a set (kept in step with `live`).
    live_mask: CardSet,
    discard: CardSet,
    /// Discard cards nobody saw (the hidden cards of an 8s flipper).
    discard_hidden: CardSet,
    /// Out of play (test positions only).
    out: CardSet,
    active: u8,
    reversed: bool,
    cur: u8,
    /// The opening card the starter must play, if the game has not begun.
    opening: Option<Card>,
    place: [u8; MAX_PLAYERS],
    how: [Out; MAX_PLAYERS],
    best_free: u8,
    worst_free: u8,
    moves: u32,
    starter: u8,
    counts: [Counts; MAX_PLAYERS],
    /// Random numbers drawn during play (9s) since the last one: a
    /// repetition with none in between is a cycle.
    random_epoch: u32,
    seen_epoch: u32,
    /// The states seen since the last random number, each with the move
    /// count at which it was first seen.
    seen: HashMap<u64, u32>,
    /// The move count at which the state that ended the game by
    /// repetition was first seen.
    repeats: u32,
}

impl Table {
    /// A table for `rules`, ready for [`Table::new_game`].
    pub fn new(rules: Rules) -> Table {
        assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&rules.players));
        Table {
            rules,
            can: can_on_table(rules.off),
            hand: [0; MAX_PLAYERS],
            up: [0; MAX_PLAYERS],
            down: [[0; 3]; MAX_PLAYERS],
            down_n: [0; MAX_PLAYERS],
            known: [0; MAX_PLAYERS],
            draw: [0; DECK],
            draw_n: 0,
            live: [0; DECK],
            flags: [0; DECK],
            live_n: 0,
            live_mask: 0,
            discard: 0,
            discard_hidden: 0,
            out: 0,
            active: 0,
            reversed: false,
            cur: 0,
            opening: None,
            place: [0; MAX_PLAYERS],
            how: [Out::In; MAX_PLAYERS],
            best_free: 1,
            worst_free: rules.players as u8,
            moves: 0,
            starter: 0,
            counts: [Counts::default(); MAX_PLAYERS],
            random_epoch: 0,
            seen_epoch: u32::MAX,
            seen: HashMap::new(),
            repeats: 0,
        }
    }

    fn reset(&mut self) {
        let n = self.players();
        self.hand = [0; MAX_PLAYERS];
        self.up = [0; MAX_PLAYERS];
        self.down = [[0; 3]; MAX_PLAYERS];
        self.down_n = [0; MAX_PLAYERS];
        self.known = [0; MAX_PLAYERS];
        self.draw_n = 0;
        self.live_n = 0;
        self.live_mask = 0;
        self.discard = 0;
        self.discard_hidden = 0;
        self.out = 0;
        self.active = ((1u16 << n) - 1) as u8;
        self.reversed = false;
        self.cur = 0;
        self.opening = None;
        self.place = [0; MAX_PLAYERS];
        self.how = [Out::In; MAX_PLAYERS];
        self.best_free = 1;
        self.worst_free = n as u8;
        self.moves = 0;
        self.starter = 0;
        self.counts = [Counts::default(); MAX_PLAYERS];
        self.random_epoch = 0;
        self.seen_epoch = u32::MAX;
    }

    /// Shuffles a full deck and deals it ([`Table::deal`]).
    #[inline]
    pub fn new_game<D: Draw>(&mut self, d: &mut D) {
        let mut deck: [Card; DECK] = std::array::from_fn(|i| i as Card);
        d.shuffle(&mut deck);
        self.deal(&deck);
    }

    /// Deals `deck` (top card first): three face-down cards to each player
    /// (seat 0 first), then three face-up, then three in hand; the rest is
    /// the draw pile, in the same order.
    pub fn deal(&mut self, deck: &[Card; DECK]) {
        self.reset();
        let n = self.players();
        let mut i = 0;
        for p in 0..n {
            self.down[p].copy_from_slice(&deck[i..i + 3]);
            self.down_n[p] = 3;
            i += 3;
        }
        for p in 0..n {
            for &c in &deck[i..i + 3] {
                self.up[p] |= 1 << c;
            }
            i += 3;
        }
        for p in 0..n {
            for &c in &deck[i..i + 3] {
                self.hand[p] |= 1 << c;
            }
            i += 3;
        }
        let rest = &deck[i..];
        self.draw_n = rest.len() as u8;
        for (k, &c) in rest.iter().rev().enumerate() {
            self.draw[k] = c;
        }
    }

    /// Sets up a position (tests, tools): the game continues from it with
    /// [`Table::play_on`], with no fixing and no opening card.
    pub fn set_position(&mut self, pos: &Position) {
        self.reset();
        let n = self.players();
        for p in 0..n {
            self.hand[p] = pos.hands.get(p).copied().unwrap_or(0);
            self.up[p] = pos.ups.get(p).copied().unwrap_or(0);
            let down = pos.downs.get(p).cloned().unwrap_or_default();
            assert!(down.len() <= 3);
            self.down_n[p] = down.len() as u8;
            self.down[p][..down.len()].copy_from_slice(&down);
            self.known[p] = pos.known.get(p).copied().unwrap_or(0) & self.hand[p];
        }
        self.draw_n = pos.draw.len() as u8;
        for (k, &c) in pos.draw.iter().rev().enumerate() {
            self.draw[k] = c;
        }
        self.live_n = pos.live.len() as u8;
        self.live_mask = 0;
        for (k, &(c, f)) in pos.live.iter().enumerate() {
            self.live[k] = c;
            self.flags[k] = f;
            self.live_mask |= 1 << c;
        }
        self.discard = pos.discard;
        self.cur = pos.cur as u8;
        self.reversed = pos.reversed;
        let placed = self.all_placed();
        self.out = ALL & !placed;
        self.check();
    }

    fn all_placed(&self) -> CardSet {
        let mut m = self.discard;
        for p in 0..self.players() {
            m |= self.hand[p] | self.up[p] | self.down_set(p);
        }
        for k in 0..usize::from(self.draw_n) {
            m |= 1 << self.draw[k];
        }
        for k in 0..usize::from(self.live_n) {
            m |= 1 << self.live[k];
        }
        m
    }

    /// Checks that every card is in exactly one place and the bookkeeping
    /// agrees (panics otherwise). Cheap enough for tests after every event.
    pub fn check(&self) {
        let mut seen = self.out;
        let mut add = |m: CardSet, what: &str| {
            assert_eq!(seen & m, 0, "cards in two places ({what}): {}", names(seen & m));
            seen |= m;
        };
        add(self.discard, "discard");
        for p in 0..self.players() {
            add(self.hand[p], "hand");
            add(self.up[p], "up");
            add(self.down_set(p), "down");
            assert_eq!(self.down_set(p).count_ones(), u32::from(self.down_n[p]));
            assert_eq!(self.known[p] & !self.hand[p], 0, "known cards not in hand");
        }
        for k in 0..usize::from(self.draw_n) {
            add(1 << self.draw[k], "draw");
        }
        let mut live = 0;
        for k in 0..usize::from(self.live_n) {
            add(1 << self.live[k], "live");
            live |= 1 << self.live[k];
        }
        assert_eq!(live, self.live_mask, "the live mask");
        assert_eq!(seen, ALL, "cards missing: {}", names(ALL & !seen));
        assert_eq!(self.discard_hidden & !self.discard, 0);
        let placed: u8 = (0..self.players()).filter(|&p| self.place[p] != 0).count() as u8;
        assert_eq!(
            u32::from(placed) + self.active.count_ones(),
            self.players() as u32,
            "every player is either placed or active"
        );
    }

    // ----------------------------------------------------------------
    // Accessors
    // ----------------------------------------------------------------

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Players at the table.
    #[inline(always)]
    pub fn players(&self) -> usize {
        self.rules.players
    }
    /// A seat's hand.
    pub fn hand(&self, p: usize) -> CardSet {
        self.hand[p]
    }
    /// A seat's face-up cards.
    pub fn up(&self, p: usize) -> CardSet {
        self.up[p]
    }
    /// A seat's face-down cards.
    pub fn down_set(&self, p: usize) -> CardSet {
        self.down[p][..usize::from(self.down_n[p])]
            .iter()
            .fold(0, |m, &c| m | 1 << c)
    }
    /// A seat's face-down cards in slot order.
    pub fn downs(&self, p: usize) -> &[Card] {
        &self.down[p][..usize::from(self.down_n[p])]
    }
    /// Hand cards of `p` everybody knows of.
    pub fn known(&self, p: usize) -> CardSet {
        self.known[p]
    }
    /// The draw pile, top card first.
    pub fn draw_pile(&self) -> impl Iterator<Item = Card> + '_ {
        self.draw[..usize::from(self.draw_n)].iter().rev().copied()
    }
    /// Cards in the draw pile.
    pub fn draw_count(&self) -> usize {
        usize::from(self.draw_n)
    }
    /// The live cards, bottom first, with their flags.
    pub fn live(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        let n = usize::from(self.live_n);
        self.live[..n].iter().copied().zip(self.flags[..n].iter().copied())
    }
    /// Cards on the live pile.
    pub fn live_count(&self) -> usize {
        usize::from(self.live_n)
    }
    /// The live cards as a set.
    #[inline(always)]
    pub fn live_set(&self) -> CardSet {
        self.live_mask
    }
    /// The discard pile.
    pub fn discard(&self) -> CardSet {
        self.discard
    }
    /// Discard cards nobody has seen.
    pub fn discard_hidden(&self) -> CardSet {
        self.discard_hidden
    }
    /// Whether `p` is still in the game.
    #[inline(always)]
    pub fn is_active(&self, p: usize) -> bool {
        self.active & (1 << p) != 0
    }
    /// Players still in.
    pub fn active_count(&self) -> u32 {
        self.active.count_ones()
    }
    /// Whose turn.
    pub fn current(&self) -> usize {
        usize::from(self.cur)
    }
    /// Whether play goes counter-clockwise.
    pub fn reversed(&self) -> bool {
        self.reversed
    }
    /// A seat's place (1 = winner), 0 while in the game.
    pub fn place(&self, p: usize) -> u8 {
        self.place[p]
    }
    /// How a seat left the game.
    pub fn how(&self, p: usize) -> Out {
        self.how[p]
    }
    /// Moves (turns) played.
    pub fn moves(&self) -> u32 {
        self.moves
    }
    /// The seat that started.
    pub fn starter(&self) -> usize {
        usize::from(self.starter)
    }
    /// A seat's counters.
    pub fn counts(&self, p: usize) -> &Counts {
        &self.counts[p]
    }
    /// Cards a seat still holds (hand, face up, face down).
    pub fn cards_left(&self, p: usize) -> u32 {
        self.hand[p].count_ones() + self.up[p].count_ones() + u32::from(self.down_n[p])
    }
    /// The ranks that may be played on target `t` under these rules.
    #[inline(always)]
    pub fn can_on(&self, t: u8) -> u16 {
        self.can[usize::from(t)]
    }
    /// The zone `p` plays from.
    #[inline]
    pub fn zone(&self, p: usize) -> Zone {
        if self.hand[p] != 0 {
            Zone::Hand
        } else if self.up[p] != 0 {
            Zone::FaceUp
        } else {
            Zone::FaceDown
        }
    }
    /// The opening card still to be played, before the first move.
    pub fn opening(&self) -> Option<Card> {
        self.opening
    }
    /// Changes the move cap of the game in play (playouts, tests).
    pub fn set_move_cap(&mut self, cap: u32) {
        self.rules.move_cap = cap;
    }

    /// The effective top card of the live pile: a rank, or [`ZERO`].
    #[inline]
    pub fn target(&self) -> u8 {
        let five_on = power(self.rules.off, FIVE);
        let mut i = usize::from(self.live_n);
        while i > 0 {
            i -= 1;
            let f = self.flags[i];
            if f & (GHOST | CHAIN) != 0 {
                continue;
            }
            let r = rank(self.live[i]);
            if f & UNPLAYED != 0 {
                return if r == FIVE && five_on { ZERO } else { r };
            }
            if r == FIVE && five_on {
                continue;
            }
            if f & ONE != 0 {
                return ZERO;
            }
            return r;
        }
        ZERO
    }

    /// The run on top of the live pile: its rank and how many consecutive
    /// played cards of it (ghost 9s skipped, unplayed cards end it).
    #[inline]
    pub fn run(&self) -> (Rank, u32) {
        let mut i = usize::from(self.live_n);
        let mut r0 = None;
        let mut len = 0;
        while i > 0 {
            i -= 1;
            let f = self.flags[i];
            if f & GHOST != 0 {
                continue;
            }
            if f & UNPLAYED != 0 {
                break;
            }
            let r = rank(self.live[i]);
            match r0 {
                None => r0 = Some(r),
                Some(x) if x != r => break,
                _ => {}
            }
            len += 1;
        }
        (r0.unwrap_or(ZERO), len)
    }

    /// The ranks `p` may play now from the zone in play (empty on
    /// face-down cards).
    #[inline]
    pub fn legal(&self, p: usize) -> u16 {
        let zone = match self.zone(p) {
            Zone::Hand => self.hand[p],
            Zone::FaceUp => self.up[p],
            Zone::FaceDown => return 0,
        };
        let m = ranks_of(zone) & self.can_on(self.target());
        match self.opening {
            Some(c) => m & (1 << rank(c)),
            None => m,
        }
    }

    /// The next seat `k + 1` active players on from `p` in the current
    /// direction, `p` itself counted when the cycle comes round (8s).
    #[inline]
    pub fn step(&self, p: usize, k: u32) -> usize {
        let n = self.players();
        let mut q = p;
        let mut left = k + 1;
        loop {
            q = if self.reversed {
                if q == 0 { n - 1 } else { q - 1 }
            } else if q + 1 == n {
                0
            } else {
                q + 1
            };
            if q == p || self.is_active(q) {
                left -= 1;
                if left == 0 {
                    return q;
                }
            }
        }
    }

    /// The next active player after `p` (who has left), no skips.
    fn next_after(&self, p: usize) -> usize {
        let n = self.players();
        let mut q = p;
        loop {
            q = if self.reversed {
                if q == 0 { n - 1 } else { q - 1 }
            } else if q + 1 == n {
                0
            } else {
                q + 1
            };
            if self.is_active(q) || q == p {
                return q;
            }
        }
    }

    // ----------------------------------------------------------------
    // Setup
    // ----------------------------------------------------------------

    /// Plays a dealt game to its end: fixing (seat 0 first), the lowest
    /// card starts, then turns until one player is left or the game is a
    /// stalemate.
    pub fn play_game<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> End {
        if O::EVENTS {
            obs.event(self, Event::Dealt);
        }
        self.setup_from(FixAsked { seat: 0, steps: 0, drew: 0 }, ch, obs, d);
        self.play_on(ch, obs, d)
    }

    /// Resumes a game in its fixing: `self` is the table as it was when
    /// `asked.seat` was asked [`Chooser::fix`] after `asked.steps` steps;
    /// the step is asked of `ch` again, and the fixing, the start and the
    /// game are played to the end (`sim advise`).
    pub fn resume_fixing<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        asked: FixAsked,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> End {
        self.setup_from(asked, ch, obs, d);
        self.play_on(ch, obs, d)
    }

    /// Fixing from where `asked` stands to the last seat's, then the start.
    #[inline(always)]
    fn setup_from<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, asked: FixAsked, ch: &mut C, obs: &mut O, d: &mut D) {
        let mut drew = asked.drew;
        for p in asked.seat..self.players() {
            self.fix(p, drew, ch, obs, d);
            self.counts[p].max_hand = self.hand[p].count_ones();
            drew = 0;
        }
        self.choose_starter(obs);
    }

    /// `p`'s fixing, steps until one draws nothing; `drew_before` are the
    /// cards drawn in the steps already taken (a resumed fixing).
    fn fix<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        drew_before: CardSet,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        let mut drew_all = drew_before;
        for _ in 0..DECK {
            let pool = self.hand[p] | self.up[p];
            let up = ch.fix(&View { t: self, seat: p }, d);
            assert!(
                fix_is_legal(pool, up),
                "seat {p}: fixing to face-up {} from {} breaks the rules",
                names(up),
                names(pool)
            );
            let old_up = self.up[p];
            self.up[p] = up;
            self.hand[p] = pool & !up;
            // Cards taken up from the face-up slots are known to be in hand.
            self.known[p] = (self.known[p] | (old_up & !up)) & self.hand[p];
            let drew = self.refill(p);
            drew_all |= drew;
            if O::EVENTS {
                obs.event(self, Event::FixStep { seat: p, up, drew });
            }
            if drew == 0 {
                break;
            }
        }
        if O::EVENTS {
            obs.event(
                self,
                Event::Fixed {
                    seat: p,
                    up: self.up[p],
                    drew: drew_all,
                },
            );
        }
    }

    /// The lowest card in hand by the game order, ties by suit (I27),
    /// starts; every player's lowest card is announced (known to all).
    fn choose_starter<O: Observer<Table>>(&mut self, obs: &mut O) {
        let mut best: Option<(u8, Card, usize)> = None;
        for p in 0..self.players() {
            if self.hand[p] == 0 {
                continue;
            }
            let lowest = lowest_card(self.hand[p]);
            self.known[p] |= 1 << lowest;
            let key = (ORDER[usize::from(rank(lowest))], lowest, p);
            if best.is_none_or(|b| (key.0, suit(key.1)) < (b.0, suit(b.1))) {
                best = Some(key);
            }
        }
        if let Some((_, card, p)) = best {
            self.cur = p as u8;
            self.starter = p as u8;
            self.opening = Some(card);
            if O::EVENTS {
                obs.event(self, Event::Starts { seat: p, card });
            }
        }
    }

    // ----------------------------------------------------------------
    // Play
    // ----------------------------------------------------------------

    /// Plays from the current state to the end of the game.
    pub fn play_on<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> End {
        let detect = ch.deterministic();
        let end = loop {
            if self.active.count_ones() <= 1 {
                if self.active != 0 {
                    let p = self.active.trailing_zeros() as usize;
                    self.leave(p, Out::Last, obs);
                }
                break End::Complete;
            }
            if self.moves >= self.rules.move_cap {
                break End::Stalemate { repetition: false };
            }
            if detect && self.moves >= REPEAT_FROM && self.repeated() {
                break End::Stalemate { repetition: true };
            }
            self.turn(ch, obs, d);
        };
        obs.game_end(self, end);
        end
    }

    /// Whether this state was seen before with no random number drawn since.
    fn repeated(&mut self) -> bool {
        if self.seen_epoch != self.random_epoch {
            self.seen.clear();
            self.seen_epoch = self.random_epoch;
        }
        let (hash, moves) = (self.state_hash(), self.moves);
        match self.seen.insert(hash, moves) {
            Some(first) => {
                self.repeats = first;
                true
            }
            None => false,
        }
    }

    /// After a stalemate by repetition: the number of moves played when
    /// the repeated state was first seen (the state before the next move
    /// then and now is the same).
    pub fn repeats(&self) -> u32 {
        self.repeats
    }

    /// A 64-bit hash of everything a deterministic game's future depends on.
    pub fn state_hash(&self) -> u64 {
        let mut h = 0x1234_5678u64;
        let mut mix = |x: u64| h = splitmix64(h ^ x);
        for p in 0..self.players() {
            mix(self.hand[p]);
            mix(self.up[p]);
            mix(self.known[p]);
            let mut dn = 0u64;
            for &c in self.downs(p) {
                dn = dn << 6 | u64::from(c);
            }
            mix(dn);
        }
        mix(u64::from(self.draw_n));
        for (c, f) in self.live() {
            mix(u64::from(c) | u64::from(f) << 8);
        }
        mix(self.discard);
        mix(self.discard_hidden);
        mix(u64::from(self.active) | u64::from(self.cur) << 8 | u64::from(self.reversed) << 16);
        mix(u64::from(self.live_n));
        h
    }

    /// One turn of the current player.
    pub fn turn<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) {
        let p = self.current();
        self.moves += 1;
        self.counts[p].turns += 1;
        let t = self.target();
        match self.zone(p) {
            Zone::FaceDown => {
                let slot = ch.face_down(&View { t: self, seat: p }, d);
                assert!(slot < usize::from(self.down_n[p]), "seat {p}: no face-down slot {slot}");
                let n = usize::from(self.down_n[p]);
                let c = self.down[p][slot];
                self.down[p].copy_within(slot + 1..n, slot);
                self.down_n[p] -= 1;
                let ok = self.can_on(t) & (1 << rank(c)) != 0;
                self.counts[p].facedown_tries += 1;
                self.counts[p].facedown_fails += u32::from(!ok);
                if O::EVENTS {
                    obs.event(
                        self,
                        Event::FaceDown {
                            seat: p,
                            slot: slot as u8,
                            card: c,
                            ok,
                        },
                    );
                }
                if ok {
                    self.play(p, rank(c), 1 << c, Source::FaceDown, t, ch, obs, d);
                } else {
                    self.pickup(p, 1 << c, obs);
                }
            }
            zone => {
                let legal = self.legal(p);
                let can_reveal = zone == Zone::Hand && self.draw_n > 0;
                let action = if legal == 0 && !can_reveal {
                    Action::Pickup
                } else {
                    ch.act(&View { t: self, seat: p }, d)
                };
                match action {
                    Action::Play { rank: r, count } => {
                        assert!(legal & (1 << r) != 0, "seat {p}: {} is not playable", RANK_NAMES[usize::from(r)]);
                        let (held, from) = if zone == Zone::Hand {
                            (self.hand[p], Source::Hand)
                        } else {
                            (self.up[p], Source::FaceUp)
                        };
                        let of_rank = held & rank_set(r);
                        assert!(
                            count >= 1 && u32::from(count) <= of_rank.count_ones(),
                            "seat {p}: cannot play {count} of rank {}",
                            RANK_NAMES[usize::from(r)]
                        );
                        let cards = lowest_k(of_rank, u32::from(count));
                        if zone == Zone::Hand {
                            self.hand[p] &= !cards;
                            self.known[p] &= !cards;
                        } else {
                            self.up[p] &= !cards;
                        }
                        self.opening = None;
                        self.play(p, r, cards, from, t, ch, obs, d);
                    }
                    Action::Reveal => {
                        assert!(legal == 0 && can_reveal, "seat {p}: may not reveal");
                        self.draw_n -= 1;
                        let c = self.draw[usize::from(self.draw_n)];
                        let ok = self.can_on(t) & (1 << rank(c)) != 0;
                        self.counts[p].reveals += 1;
                        self.counts[p].reveals_ok += u32::from(ok);
                        if O::EVENTS {
                            obs.event(self, Event::Reveal { seat: p, card: c, ok });
                        }
                        if ok {
                            self.play(p, rank(c), 1 << c, Source::Revealed, t, ch, obs, d);
                        } else {
                            self.pickup(p, 1 << c, obs);
                        }
                    }
                    Action::Pickup => {
                        assert!(
                            legal == 0 || self.rules.voluntary_pickup,
                            "seat {p}: may not pick up with a card to play"
                        );
                        self.pickup(p, 0, obs);
                    }
                }
            }
        }
    }

    /// Keeps `p`'s largest hand of the game up to date after its hand grew
    /// (a pick-up, a 3 dealt by a 3s flip or taken after a 4s flip).
    #[inline]
    fn note_hand_size(&mut self, p: usize) {
        let c = &mut self.counts[p];
        c.max_hand = c.max_hand.max(self.hand[p].count_ones());
    }

    /// `p` picks up the live cards and `extra`; the next player moves.
    fn pickup<O: Observer<Table>>(&mut self, p: usize, extra: CardSet, obs: &mut O) {
        let cards = self.live_set() | extra;
        self.live_n = 0;
        self.live_mask = 0;
        self.hand[p] |= cards;
        self.known[p] |= cards;
        let c = &mut self.counts[p];
        c.pickups += 1;
        c.pickup_cards += cards.count_ones();
        self.note_hand_size(p);
        // The opening card can only be played, never picked up; an empty
        // pile cannot be picked up with an opening pending anyway.
        self.opening = None;
        if O::EVENTS {
            obs.event(self, Event::Pickup { seat: p, cards });
        }
        self.cur = self.step(p, 0) as u8;
    }

    /// Draws `p` back up to three cards; returns the cards drawn.
    #[inline]
    fn refill(&mut self, p: usize) -> CardSet {
        let mut drew = 0;
        if self.draw_n == 0 {
            return 0;
        }
        let mut held = self.hand[p].count_ones();
        while self.draw_n > 0 && held < HAND {
            self.draw_n -= 1;
            let c = self.draw[usize::from(self.draw_n)];
            self.hand[p] |= 1 << c;
            drew |= 1 << c;
            held += 1;
        }
        drew
    }

    #[inline]
    fn push(&mut self, cards: CardSet, flag: u8) {
        for c in cards_of(cards) {
            let i = usize::from(self.live_n);
            self.live[i] = c;
            self.flags[i] = flag;
            self.live_n += 1;
        }
        self.live_mask |= cards;
    }

    /// Flags of a card of rank `r` played on target `t`.
    #[inline]
    fn flag_for(&self, r: Rank, t: u8) -> u8 {
        let off = self.rules.off;
        if r == ACE && t == SEVEN && power(off, ACE) && power(off, SEVEN) {
            ONE
        } else if r == SIX && t == FOUR && power(off, SIX) && power(off, FOUR) {
            CHAIN
        } else {
            0
        }
    }

    /// Moves the live cards to the discard pile.
    #[inline]
    fn flip_live(&mut self) -> u8 {
        let n = self.live_n;
        self.discard |= self.live_set();
        self.live_n = 0;
        self.live_mask = 0;
        n
    }

    /// Puts `cards` of rank `r` (already out of their zone) on the live
    /// pile on target `t`, refills, offers the add-on, resolves the powers
    /// and flips, checks for a finish and passes the turn.
    #[allow(clippy::too_many_arguments)]
    fn play<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        r: Rank,
        cards: CardSet,
        from: Source,
        t: u8,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        let flag = self.flag_for(r, t);
        self.push(cards, flag);
        if O::EVENTS {
            obs.event(
                self,
                Event::Play {
                    seat: p,
                    cards,
                    from,
                    target: t,
                },
            );
        }
        self.refill_and_add(p, r, flag, cards.count_ones(), ch, obs, d);
    }

    /// After `n` cards of rank `r` (flags `flag`) went on the live pile:
    /// refills `p`'s hand, adds drawn cards of the same rank as the chooser
    /// says (I21, I25), and resolves the play.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn refill_and_add<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        r: Rank,
        flag: u8,
        mut n: u32,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        while self.draw_n > 0 {
            let drew = self.refill(p);
            if drew == 0 {
                break;
            }
            if O::EVENTS {
                obs.event(self, Event::Drew { seat: p, cards: drew });
            }
            let same = drew & rank_set(r);
            if same == 0 {
                break;
            }
            let k = ch.add_on(&View { t: self, seat: p }, r, same.count_ones() as u8, d);
            if !self.add_drawn(p, same, k, flag, obs) {
                break;
            }
            n += u32::from(k);
        }
        self.resolve(p, r, n, obs, d);
    }

    /// Adds `k` of the drawn cards `same` to `p`'s play; false for none.
    #[inline]
    fn add_drawn<O: Observer<Table>>(&mut self, p: usize, same: CardSet, k: u8, flag: u8, obs: &mut O) -> bool {
        assert!(u32::from(k) <= same.count_ones(), "seat {p}: add-on of {k}");
        if k == 0 {
            return false;
        }
        let add = lowest_k(same, u32::from(k));
        self.hand[p] &= !add;
        self.push(add, flag);
        if O::EVENTS {
            obs.event(self, Event::AddOn { seat: p, cards: add });
        }
        true
    }

    /// Resumes a game at a turn: `self` is the table as it was when the
    /// current player was asked for its turn ([`Chooser::act`] or
    /// [`Chooser::face_down`]); the turn is asked of `ch` again from its
    /// start, and the game is played to its end (`sim advise`).
    pub fn resume_turn<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> End {
        let p = self.current();
        // The turn had begun: it is begun again.
        self.moves -= 1;
        self.counts[p].turns -= 1;
        self.turn(ch, obs, d);
        self.play_on(ch, obs, d)
    }

    /// Resumes a game at an add-on: `self` is the table as it was when the
    /// current player was asked [`Chooser::add_on`] during `asked`; `k` of
    /// the drawn cards are added, and the game is played to its end with
    /// `ch` (`sim advise`).
    pub fn resume_add_on<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        asked: AddOnAsked,
        k: u8,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> End {
        let p = self.current();
        let flag = self.flags[usize::from(self.live_n) - 1];
        let same = asked.drawn & rank_set(asked.rank);
        if self.add_drawn(p, same, k, flag, obs) {
            self.refill_and_add(p, asked.rank, flag, asked.played + u32::from(k), ch, obs, d);
        } else {
            self.resolve(p, asked.rank, asked.played, obs, d);
        }
        self.play_on(ch, obs, d)
    }

    /// Puts `cards` in `p`'s face-down slots, in slot order, in place of the
    /// same number of cards there (a world of `sim advise`, whose face-down
    /// cards are unknown).
    pub fn set_downs(&mut self, p: usize, cards: &[Card]) {
        assert_eq!(cards.len(), usize::from(self.down_n[p]), "seat {p}: face-down slots");
        self.down[p][..cards.len()].copy_from_slice(cards);
    }

    /// Applies four of a kind or the power of the top play (`n` cards of
    /// rank `r` by `p`), then the finish check and the next turn.
    fn resolve<O: Observer<Table>, D: Draw>(&mut self, p: usize, mut r: Rank, mut n: u32, obs: &mut O, d: &mut D) {
        let off = self.rules.off;
        let mut via_nine = false;
        // (next player, the illegal kind if that is p). A plain step to the
        // next player never returns p (two players at least are in), so
        // its kind is never read; `Illegal::Two` stands in.
        let (next, kind) = loop {
            if off & SETS_OFF == 0 {
                let (q, len) = self.run();
                if len >= 4 {
                    // A set the 9s' random card completed is the 9s' doing.
                    match self.set_flip(p, q, obs, d) {
                        Some((next, kind)) => break (next, if via_nine { Illegal::Nine } else { kind }),
                        None => return,
                    }
                }
            }
            let on = power(off, r);
            let illegal_as = |k: Illegal| if via_nine { Illegal::Nine } else { k };
            match r {
                TWO if on => break (p, illegal_as(Illegal::Two)),
                TEN if on => {
                    let k = self.flip_live();
                    self.counts[p].flips_10 += 1;
                    if O::EVENTS {
                        obs.event(
                            self,
                            Event::Flip {
                                seat: p,
                                cause: FlipCause::Ten,
                                cards: k,
                            },
                        );
                    }
                    break (p, illegal_as(Illegal::Ten));
                }
                THREE if on => {
                    if n % 2 == 1 {
                        self.reversed = !self.reversed;
                        if O::EVENTS {
                            obs.event(self, Event::Reverse { seat: p });
                        }
                    }
                    break (self.step(p, 0), Illegal::Two);
                }
                EIGHT if on => {
                    if O::EVENTS {
                        let cause = if via_nine { SkipCause::Nine } else { SkipCause::Eights };
                        obs.event(
                            self,
                            Event::Skip {
                                seat: p,
                                turns: n as u8,
                                cause,
                            },
                        );
                    }
                    break (self.step(p, n), illegal_as(Illegal::Eight));
                }
                NINE if on && self.discard != 0 => {
                    // The 9s become ghosts; a random discard card is played
                    // in their place (I9).
                    let top = usize::from(self.live_n);
                    for f in &mut self.flags[top - n as usize..top] {
                        *f |= GHOST;
                    }
                    let k = d.below(self.discard.count_ones());
                    self.random_epoch = self.random_epoch.wrapping_add(1);
                    let c = nth_card(self.discard, k);
                    self.discard &= !(1 << c);
                    self.discard_hidden &= !(1 << c);
                    let t = self.target();
                    let flag = self.flag_for(rank(c), t);
                    self.push(1 << c, flag);
                    self.counts[p].nine_draws += 1;
                    if O::EVENTS {
                        obs.event(self, Event::NineDraw { seat: p, card: c });
                    }
                    via_nine = true;
                    r = rank(c);
                    n = 1;
                }
                _ => break (self.step(p, 0), Illegal::Two),
            }
        };
        self.after(p, next, kind, obs);
    }

    /// The finish check (I30) and the next turn.
    fn after<O: Observer<Table>>(&mut self, p: usize, next: usize, kind: Illegal, obs: &mut O) {
        if self.hand[p] | self.up[p] == 0 && self.down_n[p] == 0 && self.is_active(p) {
            if next == p {
                self.leave(p, Out::Illegal(kind), obs);
                self.cur = self.next_after(p) as u8;
            } else {
                self.leave(p, Out::Legal, obs);
                self.cur = next as u8;
            }
        } else {
            self.cur = next as u8;
        }
    }

    /// `p` leaves the game `how`: legal finishes take the best free place,
    /// illegal ones and the 8s flip the worst (I32).
    fn leave<O: Observer<Table>>(&mut self, p: usize, how: Out, obs: &mut O) {
        let place = match how {
            Out::Legal => {
                self.best_free += 1;
                self.best_free - 1
            }
            Out::Last => self.best_free,
            _ => {
                self.worst_free -= 1;
                self.worst_free + 1
            }
        };
        self.place[p] = place;
        self.how[p] = how;
        self.active &= !(1 << p);
        if O::EVENTS {
            obs.event(self, Event::Finished { seat: p, place, how });
        }
    }

    /// Four of a kind of `q` flipped by `p`: the special flips (I15-I20).
    /// Returns the next player and the illegal kind, or `None` when the
    /// turn is already settled (the 8s flip).
    fn set_flip<O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        q: Rank,
        obs: &mut O,
        d: &mut D,
    ) -> Option<(usize, Illegal)> {
        let pre = self.discard;
        let k = self.flip_live();
        self.counts[p].flips_set += 1;
        if O::EVENTS {
            obs.event(
                self,
                Event::Flip {
                    seat: p,
                    cause: FlipCause::Set(q),
                    cards: k,
                },
            );
        }
        let special = self.rules.off & SPECIAL_OFF == 0;
        match q {
            THREE if special => {
                // One 3 to each other active player, in turn order (I16).
                let mut to = self.step(p, 0);
                while to != p {
                    let threes = self.discard & rank_set(THREE);
                    if threes == 0 {
                        break;
                    }
                    let c = threes.trailing_zeros() as Card;
                    self.discard &= !(1 << c);
                    self.hand[to] |= 1 << c;
                    self.known[to] |= 1 << c;
                    self.note_hand_size(to);
                    if O::EVENTS {
                        obs.event(self, Event::ThreeDealt { to, card: c });
                    }
                    to = self.step(to, 0);
                }
                Some((p, Illegal::Flip))
            }
            FOUR if special => {
                let threes = self.discard & rank_set(THREE);
                let card = (threes != 0).then(|| threes.trailing_zeros() as Card);
                if let Some(c) = card {
                    self.discard &= !(1 << c);
                    self.discard_hidden &= !(1 << c);
                    self.hand[p] |= 1 << c;
                    self.known[p] |= 1 << c;
                    self.note_hand_size(p);
                }
                if O::EVENTS {
                    obs.event(self, Event::ThreeTaken { seat: p, card });
                }
                Some((self.step(p, 0), Illegal::Flip))
            }
            EIGHT if special => {
                // The flipper loses at once; their cards go to the discard
                // pile, those nobody saw face down (I18).
                let hidden = (self.hand[p] & !self.known[p]) | self.down_set(p);
                self.discard |= self.hand[p] | self.up[p] | self.down_set(p);
                self.discard_hidden |= hidden;
                self.hand[p] = 0;
                self.known[p] = 0;
                self.up[p] = 0;
                self.down_n[p] = 0;
                self.leave(p, Out::EightsFlip, obs);
                self.cur = self.next_after(p) as u8;
                None
            }
            NINE if special && pre != 0 => {
                // The pre-existing discard pile, shuffled, becomes the live
                // cards; the flipped cards become the discard pile (I19, I20).
                let old_live = self.discard & !pre;
                let mut m = pre;
                let mut len = 0usize;
                while m != 0 {
                    self.live[len] = m.trailing_zeros() as Card;
                    self.flags[len] = UNPLAYED;
                    m &= m - 1;
                    len += 1;
                }
                d.shuffle(&mut self.live[..len]);
                self.random_epoch = self.random_epoch.wrapping_add(1);
                self.live_n = len as u8;
                self.live_mask = pre;
                self.discard = old_live;
                self.discard_hidden = 0;
                let top = self.live[len - 1];
                if O::EVENTS {
                    obs.event(
                        self,
                        Event::NinesFlip {
                            seat: p,
                            cards: len as u8,
                            top,
                        },
                    );
                }
                // The top card acts as if played, but only with its power
                // on: a switched-off 8 or 10 is an ordinary card here too.
                let off = self.rules.off;
                match rank(top) {
                    EIGHT if power(off, EIGHT) => {
                        if O::EVENTS {
                            obs.event(
                                self,
                                Event::Skip {
                                    seat: p,
                                    turns: 1,
                                    cause: SkipCause::NinesFlip,
                                },
                            );
                        }
                        Some((self.step(p, 0), Illegal::Flip))
                    }
                    TEN if power(off, TEN) => {
                        let k = self.flip_live();
                        self.counts[p].flips_10 += 1;
                        if O::EVENTS {
                            obs.event(
                                self,
                                Event::Flip {
                                    seat: p,
                                    cause: FlipCause::RevealedTen,
                                    cards: k,
                                },
                            );
                        }
                        Some((p, Illegal::Flip))
                    }
                    _ => Some((p, Illegal::Flip)),
                }
            }
            _ => Some((p, Illegal::Flip)),
        }
    }
}

/// The lowest card of a non-empty set by the game order, then suit.
pub fn lowest_card(s: CardSet) -> Card {
    for r in BY_ORDER {
        let m = s & rank_set(r);
        if m != 0 {
            return m.trailing_zeros() as Card;
        }
    }
    panic!("lowest card of an empty set")
}

/// What one player may know, and nothing else: their own hand and face-up
/// cards, everybody's face-up cards, the live and (seen) discard cards,
/// the hand cards everybody knows of, every count. Never a face-down card
/// or the draw order.
#[derive(Clone, Copy)]
pub struct View<'a> {
    t: &'a Table,
    seat: usize,
}

impl<'a> View<'a> {
    /// The view of `seat` (tests and tools).
    pub fn new(t: &'a Table, seat: usize) -> View<'a> {
        View { t, seat }
    }
    /// The deciding player.
    #[inline(always)]
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// The same table as player `seat` sees it: for a search, which plays
    /// every seat of a determinization and keys its tree by what its own
    /// player sees at every one of those decisions.
    pub(super) fn as_seen_by(&self, seat: usize) -> View<'a> {
        View { t: self.t, seat }
    }
    /// The whole table behind the view, hidden cards included: only for
    /// `sim advise`, which keeps the table at a traced decision. A policy
    /// must never read it.
    pub(super) fn table(&self) -> &'a Table {
        self.t
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.t.rules
    }
    /// Players at the table.
    #[inline(always)]
    pub fn players(&self) -> usize {
        self.t.players()
    }
    /// The player's own hand.
    #[inline(always)]
    pub fn hand(&self) -> CardSet {
        self.t.hand[self.seat]
    }
    /// Face-up cards of any seat.
    #[inline(always)]
    pub fn up(&self, q: usize) -> CardSet {
        self.t.up[q]
    }
    /// Face-down cards left to any seat (a count only).
    #[inline(always)]
    pub fn down_count(&self, q: usize) -> usize {
        usize::from(self.t.down_n[q])
    }
    /// Hand size of any seat.
    #[inline(always)]
    pub fn hand_size(&self, q: usize) -> u32 {
        self.t.hand[q].count_ones()
    }
    /// Cards any seat holds in all.
    #[inline(always)]
    pub fn cards_left(&self, q: usize) -> u32 {
        self.t.cards_left(q)
    }
    /// Hand cards of `q` everybody knows of (for the player: their hand).
    #[inline(always)]
    pub fn known_hand(&self, q: usize) -> CardSet {
        if q == self.seat { self.t.hand[q] } else { self.t.known[q] }
    }
    /// The zone a seat plays from (public: hand size, face-up cards).
    #[inline(always)]
    pub fn zone(&self, q: usize) -> Zone {
        self.t.zone(q)
    }
    /// The live cards, bottom first, with their flags.
    pub fn live(&self) -> impl Iterator<Item = (Card, u8)> + 'a {
        self.t.live()
    }
    /// Cards on the live pile.
    #[inline(always)]
    pub fn live_count(&self) -> usize {
        self.t.live_count()
    }
    /// The effective top card.
    #[inline(always)]
    pub fn target(&self) -> u8 {
        self.t.target()
    }
    /// The run on top of the live pile.
    #[inline(always)]
    pub fn run(&self) -> (Rank, u32) {
        self.t.run()
    }
    /// Ranks playable on `t`.
    #[inline(always)]
    pub fn can_on(&self, t: u8) -> u16 {
        self.t.can_on(t)
    }
    /// Ranks the player may play now.
    #[inline(always)]
    pub fn legal(&self) -> u16 {
        self.t.legal(self.seat)
    }
    /// Cards in the draw pile.
    #[inline(always)]
    pub fn draw_count(&self) -> usize {
        self.t.draw_count()
    }
    /// Discard cards everybody saw flipped.
    #[inline(always)]
    pub fn discard_seen(&self) -> CardSet {
        self.t.discard & !self.t.discard_hidden
    }
    /// Cards in the discard pile.
    #[inline(always)]
    pub fn discard_count(&self) -> u32 {
        self.t.discard.count_ones()
    }
    /// Whether a seat is still in the game.
    #[inline(always)]
    pub fn is_active(&self, q: usize) -> bool {
        self.t.is_active(q)
    }
    /// Whether play goes counter-clockwise.
    pub fn reversed(&self) -> bool {
        self.t.reversed
    }
    /// The next seat `k + 1` active players on from `q` (8s count).
    #[inline(always)]
    pub fn step(&self, q: usize, k: u32) -> usize {
        self.t.step(q, k)
    }
    /// The next player after this one.
    #[inline(always)]
    pub fn next(&self) -> usize {
        self.t.step(self.seat, 0)
    }
    /// Players still in.
    pub fn active_count(&self) -> u32 {
        self.t.active_count()
    }
    /// Moves played so far.
    pub fn moves(&self) -> u32 {
        self.t.moves
    }
    /// The opening card to be played, before the first move.
    pub fn opening(&self) -> Option<Card> {
        self.t.opening
    }
    /// Cards out of play (test positions).
    pub fn out(&self) -> CardSet {
        self.t.out
    }
    /// Cards this player cannot locate: in other hands unknown to them, in
    /// the draw pile, face down, or unseen in the discard pile.
    pub fn unseen(&self) -> CardSet {
        let t = self.t;
        let mut known = t.hand[self.seat] | self.discard_seen() | t.live_set() | t.out;
        for q in 0..t.players() {
            known |= t.up[q] | t.known[q];
        }
        ALL & !known
    }

    /// A world consistent with everything this player knows: the
    /// [`View::unseen`] cards dealt at random into every hidden place
    /// (other hands beyond their known cards, the draw pile, every
    /// face-down card, the unseen discard cards), every count kept.
    /// Only counts of hidden places are read, never their cards.
    pub fn sample_world<D: Draw>(&self, d: &mut D) -> Table {
        let t = self.t;
        let mut pool: [Card; DECK] = [0; DECK];
        let mut len = 0;
        for c in cards_of(self.unseen()) {
            pool[len] = c;
            len += 1;
        }
        d.shuffle(&mut pool[..len]);
        let mut w = t.clone();
        let mut next = 0;
        let mut take = |k: usize| {
            let s = &pool[next..next + k];
            next += k;
            s.iter().fold(0u64, |m, &c| m | 1 << c)
        };
        for q in 0..t.players() {
            if q != self.seat {
                let hidden = (t.hand[q] & !t.known[q]).count_ones() as usize;
                w.hand[q] = t.known[q] | take(hidden);
            }
        }
        let hidden_discard = t.discard_hidden.count_ones() as usize;
        let hd = take(hidden_discard);
        w.discard = self.discard_seen() | hd;
        w.discard_hidden = hd;
        for q in 0..t.players() {
            let k = usize::from(t.down_n[q]);
            let s = &pool[next..next + k];
            w.down[q][..k].copy_from_slice(s);
            next += k;
        }
        let k = usize::from(t.draw_n);
        w.draw[..k].copy_from_slice(&pool[next..next + k]);
        next += k;
        debug_assert_eq!(next, len);
        w.seen = HashMap::new();
        w.seen_epoch = u32::MAX;
        w
    }
}
