//! One game of Classic Flip: the deal, every start option, the end-of-turn
//! steps in order, the hand limit, hand challenges, Block, "Flip!" and the
//! final turns, every action function, reshuffles, the round cap, scoring
//! and the game's end with ties at the target played off.
//! `docs/rules/classic-flip.md` states every reading (C1..C43) this file
//! implements; `tests/classic_flip_rules.rs` checks them one by one.
//!
//! A game is generic over the [`Chooser`] that makes every decision, the
//! [`Observer`] that records statistics and the trace, and the [`Draw`]
//! source (a random generator, or [`crate::engine::rng::Stacked`] in
//! tests). A chooser never sees the [`Table`]: it gets a [`View`] holding
//! only what its player can know.
//!
//! State is card masks (`u128`) and one short array (the draw pile);
//! nothing is allocated while a game is played.

use super::cards::*;
use crate::engine::observe::Observed;
pub use crate::engine::observe::{Observer, Silent};
use crate::engine::rng::Draw;

/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players.
pub const MAX_PLAYERS: usize = 8;

/// Bit i of the index as byte i of the value (0 or 1): a seat mask
/// spread over the bytes of a hand-size word.
const BYTE_OF_BIT: [u64; 256] = spread_table(8, 0);

/// Default round cap in turns (C32).
pub const DEFAULT_ROUND_CAP: u32 = 2_000;
/// Rounds after which a game stops without a winner (C32, game cap).
pub const GAME_ROUND_CAP: u32 = 1_000;
/// An empty community slot.
pub const EMPTY: Card = 255;
/// The hand limit.
pub const LIMIT: u32 = 7;
/// The hand limit while holding 7>>>10 or Any.
pub const LIMIT_10: u32 = 10;
/// The limit after a lost or failed challenge.
pub const LIMIT_6: u32 = 6;

/// Options fixed for every game of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Players at the table.
    pub players: usize,
    /// The cards in play.
    pub deck: Deck,
    /// Points that win (200, or 500 for the long game, C38).
    pub target: u32,
    /// Action functions switched off (`--without`; mask of [`Func::bit`]).
    pub off: u8,
    /// Turns after which a round is void (C32).
    pub round_cap: u32,
    /// Whether community multipliers count for everybody (C17 (a)).
    pub community_multipliers: bool,
}

impl Rules {
    /// The game as the text has it: one deck for 2-4 players, two for 5-8.
    pub fn standard(players: usize) -> Rules {
        Rules {
            players,
            deck: Deck::standard(if players >= 5 { 2 } else { 1 }),
            target: 200,
            off: 0,
            round_cap: DEFAULT_ROUND_CAP,
            community_multipliers: true,
        }
    }

    /// Whether function `f` may be used.
    #[inline]
    pub fn allows(&self, f: Func) -> bool {
        self.off & f.bit() == 0
    }
}

/// The steps of a turn's end (C26), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndStep {
    /// E1, the hand challenge, and on.
    Challenge,
    /// E2, the action card to the discard pile, and on.
    ActionCard,
    /// E3, the discard to the limit.
    Discard,
}

/// Where [`Table::play_on_from`] picks up the turn of the player `p` it
/// is given: at a decision, which the chooser it is given then answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// `victim`'s Block reaction to `p`'s Take or Steal in play (the rest
    /// of a Steal's victims follow).
    Block { victim: usize },
    /// `p`'s pick of a card from `from`'s hand (a Take not blocked).
    TakePick { from: usize },
    /// `p`'s pick from the penalty discards `pile` after winning a
    /// challenge (then E2 and E3).
    PenaltyPick { pile: CardSet },
    /// The discard down to six inside `p`'s hand challenge of
    /// `challenged` (C25): by `challenged` when the challenge was `won`
    /// (then `p`'s pick from the discards), else by `p` (then its
    /// six-card limit, C27); then E2 and E3.
    PenaltyDiscard { challenged: usize, won: bool },
    /// `p`'s start option: its whole turn (and its +Turn extra turns).
    Turn,
    /// E1, `p`'s hand challenge.
    Challenge,
    /// E3, `p`'s end-of-turn discard.
    Discard,
}

/// A played action card and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    /// The action card.
    pub card: Card,
    /// The function chosen (C8).
    pub func: Func,
    /// Take, Swap: the target seat.
    pub target: u8,
    /// Steal: the victims (bit per seat).
    pub victims: u8,
    /// Steal with 2 or 3 players: the community slots taken (bit per slot).
    pub slots: u8,
}

impl Play {
    /// A play of `card` as `func` with no target.
    pub fn new(card: Card, func: Func) -> Play {
        Play {
            card,
            func,
            target: 0,
            victims: 0,
            slots: 0,
        }
    }
}

/// The start of a turn: exactly one option (C43).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Draw the top two cards.
    Draw2,
    /// Take the community card in a slot (0..3), replaced from the draw pile.
    Community(u8),
    /// Play an action card.
    Play(Play),
    /// Call "Flip!" (only with five of a kind, C29).
    Flip,
}

/// What happened, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A round was dealt (round number, dealer).
    Dealt,
    /// A turn began.
    Turn {
        /// The player.
        seat: usize,
        /// Whether it is an extra turn from +Turn.
        extra: bool,
    },
    /// Cards drawn from the draw pile.
    Drew {
        /// The player.
        seat: usize,
        /// The cards.
        cards: CardSet,
    },
    /// A community card taken.
    Community {
        /// The player.
        seat: usize,
        /// The slot (0..3) it was taken from, refilled in place.
        slot: u8,
        /// The card taken.
        card: Card,
        /// Its replacement (`EMPTY` when nothing was left).
        replaced: Card,
    },
    /// An action card played.
    Played {
        /// The player.
        seat: usize,
        /// The card and function.
        play: Play,
    },
    /// A Take or Steal against `seat` was blocked.
    Blocked {
        /// The blocking player.
        seat: usize,
        /// The card used.
        card: Card,
    },
    /// A card went from one hand to another (Take, Steal).
    Took {
        /// The player taking.
        seat: usize,
        /// From whom.
        from: usize,
        /// The card.
        card: Card,
    },
    /// Hands exchanged.
    Swapped {
        /// The player.
        seat: usize,
        /// With whom.
        with: usize,
    },
    /// A hand discarded by Reboot.
    Rebooted {
        /// The player.
        seat: usize,
        /// The discarded cards.
        cards: CardSet,
    },
    /// Chaos dealt every hand and the community out again (the community
    /// is refilled next: [`Event::Refilled`]).
    Chaos {
        /// The player.
        seat: usize,
        /// The cards collected, in the order they were dealt (shuffled):
        /// card `i` went to seat `(seat + i) % players`.
        deal: ChaosDeal,
    },
    /// After Chaos, the community was refilled from the draw pile.
    Refilled,
    /// The action card played this turn went to the discard pile (end of
    /// turn, step 2).
    PlayedDiscarded {
        /// The player.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// "Flip!" called.
    Called {
        /// The caller.
        seat: usize,
        /// Their round score at the call.
        points: u32,
    },
    /// A hand challenge.
    Challenge {
        /// The challenger.
        seat: usize,
        /// The target.
        target: usize,
        /// Whether the challenger won.
        won: bool,
        /// The card shown (7>>>10 or Any), `EMPTY` if none.
        shown: Card,
    },
    /// Cards discarded after a challenge.
    PenaltyDiscard {
        /// Who discarded.
        seat: usize,
        /// The cards.
        cards: CardSet,
    },
    /// Cards the winning challenger took from the penalty discards.
    PenaltyTaken {
        /// The challenger.
        seat: usize,
        /// The cards.
        cards: CardSet,
    },
    /// End-of-turn discards.
    Discarded {
        /// The player.
        seat: usize,
        /// The cards.
        cards: CardSet,
        /// The hand size kept and the limit.
        kept: u32,
        /// The limit.
        limit: u32,
    },
    /// The discard pile became the draw pile.
    Reshuffled {
        /// Cards shuffled.
        cards: u32,
    },
    /// The round hit the round cap (C32).
    CutOff,
}

/// The cards a Chaos collected, in the order it dealt them (built only
/// for observers that ask for events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChaosDeal {
    cards: [Card; 128],
    len: u8,
}

impl ChaosDeal {
    /// The cards in the order dealt.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The unique winner, or `None` after [`GAME_ROUND_CAP`] rounds.
    pub winner: Option<usize>,
}

/// Makes every decision of every seat. Every method gets the [`View`] of
/// the player `v.seat()` deciding.
pub trait Chooser {
    /// The start option of a turn.
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start;
    /// After a Take that was not blocked: the card taken from `target`
    /// (`v.known(target)` is now its whole hand, not empty).
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card;
    /// A Take or Steal by `by` targets this hand and it holds a card that
    /// can Block: the card to Block with, or `None`.
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card>;
    /// End of turn, step 1: a hand challenge, or `None` (C24).
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize>;
    /// The cards to discard. `forced`: after a challenge, down to exactly
    /// `limit` (6); otherwise the end-of-turn discard, where keeping more
    /// than `limit` is a bluff (C19).
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet;
    /// After winning a challenge: up to two of `pile` (the target's
    /// discards) to take.
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet;
}

/// What observers of a Classic Flip table hear.
impl Observed for Table {
    type Event = Event;
    type End = End;
}

/// One seat's counts in the current round (read by the statistics at the
/// end of the round).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Turns taken.
    pub turns: u32,
    /// "Flip!" called (0 or 1).
    pub calls: u32,
    /// Round score at the call.
    pub call_points: u32,
    /// Turn of the round at the call.
    pub call_turn: u32,
    /// Challenges made.
    pub challenges: u32,
    /// Challenges made and won.
    pub challenges_won: u32,
    /// Times challenged.
    pub challenged: u32,
    /// Times challenged and caught.
    pub caught: u32,
    /// Turns ended above the hand limit.
    pub over_limit: u32,
    /// Action functions used (blocks included), by [`Func`].
    pub funcs: [u32; 8],
    /// Community cards taken as the start option.
    pub community: u32,
    /// Draw-two starts.
    pub draw2: u32,
}

/// A position to start from (tests and tools): every place of every card.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Hands.
    pub hands: Vec<CardSet>,
    /// Community slots (`EMPTY` for none).
    pub community: [Card; 3],
    /// Draw pile, top card first.
    pub draw: Vec<Card>,
    /// Discard pile.
    pub discard: CardSet,
    /// Totals.
    pub totals: Vec<u32>,
    /// The caller, if "Flip!" has been called.
    pub caller: Option<usize>,
    /// Penalised players (bit per seat).
    pub penalised: u8,
    /// Round number (the dealer is `round % players`).
    pub round: u32,
}

/// A Classic Flip table: the rules, every card's place, the round and the
/// game.
#[derive(Clone, Debug)]
pub struct Table {
    rules: Rules,
    pub(crate) hand: [CardSet; MAX_PLAYERS],
    /// Cards in each hand, one byte per seat (seat p in bits 8p..8p+8),
    /// kept beside the masks: a popcount of a 128-bit set is a few dozen
    /// instructions on plain x86-64, and every turn asks for every hand's
    /// size. One word, written and read whole: the test of every seat's
    /// limit at once reads it right after a draw changed it, and a wide
    /// read of a byte just stored waits for the store.
    sizes: u64,
    /// `known[p][q]`: cards p knows q holds (always a subset of q's hand).
    pub(crate) known: [[CardSet; MAX_PLAYERS]; MAX_PLAYERS],
    community: [Card; 3],
    /// The community cards as a set, kept beside the slots (every turn
    /// asks for a combined hand).
    community_mask: CardSet,
    pub(crate) draw: [Card; 128],
    pub(crate) draw_n: usize,
    discard: CardSet,
    /// The action card in front of the player (from its play to E2, when
    /// it goes to the discard pile): `in_play`'s card, kept as a set
    /// beside it because every turn's end and every count of the unseen
    /// cards reads it (deriving it each time cost 2% of a run).
    played: CardSet,
    /// The play being resolved (a playout picking up a Block needs it).
    in_play: Option<Play>,
    penalised: u8,
    failed: u8,
    grace: u8,
    caller: Option<u8>,
    extra: bool,
    turn: u32,
    reshuffles: u32,
    round: u32,
    challenges_round: u32,
    cut_off: bool,
    totals: [u32; MAX_PLAYERS],
    points: [u32; MAX_PLAYERS],
    counts: [Counts; MAX_PLAYERS],
}

impl Table {
    /// An empty table for `rules`.
    pub fn new(rules: Rules) -> Table {
        assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&rules.players));
        Table {
            rules,
            hand: [0; MAX_PLAYERS],
            sizes: 0,
            known: [[0; MAX_PLAYERS]; MAX_PLAYERS],
            community: [EMPTY; 3],
            community_mask: 0,
            draw: [0; 128],
            draw_n: 0,
            discard: 0,
            played: 0,
            in_play: None,
            penalised: 0,
            failed: 0,
            grace: 0,
            caller: None,
            extra: false,
            turn: 0,
            reshuffles: 0,
            round: 0,
            challenges_round: 0,
            cut_off: false,
            totals: [0; MAX_PLAYERS],
            points: [0; MAX_PLAYERS],
            counts: [Counts::default(); MAX_PLAYERS],
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Players.
    #[inline]
    pub fn players(&self) -> usize {
        self.rules.players
    }
    /// Seat `p`'s hand.
    #[inline]
    pub fn hand(&self, p: usize) -> CardSet {
        self.hand[p]
    }
    /// The community slots.
    pub fn community(&self) -> [Card; 3] {
        self.community
    }
    /// The community cards as a set.
    #[inline]
    pub fn community_set(&self) -> CardSet {
        self.community_mask
    }

    /// Puts `c` (or `EMPTY`) in community slot `slot`.
    fn set_community(&mut self, slot: usize, c: Card) {
        self.community[slot] = c;
        let card = |c: Card| if c == EMPTY { 0 } else { bit(c) };
        self.community_mask = self.community.iter().fold(0, |m, &c| m | card(c));
    }
    /// The draw pile, top card first.
    pub fn draw_pile(&self) -> impl Iterator<Item = Card> + '_ {
        self.draw[..self.draw_n].iter().rev().copied()
    }
    /// Cards in the draw pile.
    pub fn draw_count(&self) -> usize {
        self.draw_n
    }
    /// The discard pile.
    pub fn discard(&self) -> CardSet {
        self.discard
    }
    /// The action card in front of the player whose turn it is.
    #[inline]
    pub fn played(&self) -> CardSet {
        self.played
    }
    /// The caller of "Flip!" this round.
    pub fn caller(&self) -> Option<usize> {
        self.caller.map(usize::from)
    }
    /// Turns taken this round.
    pub fn turns(&self) -> u32 {
        self.turn
    }
    /// Reshuffles this round.
    pub fn reshuffles(&self) -> u32 {
        self.reshuffles
    }
    /// Rounds finished in this game (during a round: its index).
    pub fn round(&self) -> u32 {
        self.round
    }
    /// Whether the round was stopped by the round cap.
    pub fn cut_off(&self) -> bool {
        self.cut_off
    }
    /// Seat `p`'s game total.
    pub fn total(&self, p: usize) -> u32 {
        self.totals[p]
    }
    /// Seat `p`'s score in the last round scored.
    pub fn points(&self, p: usize) -> u32 {
        self.points[p]
    }
    /// Seat `p`'s counts this round.
    pub fn counts(&self, p: usize) -> &Counts {
        &self.counts[p]
    }
    /// Whether `p` is penalised (limit 6 for the round).
    pub fn penalised(&self, p: usize) -> bool {
        self.penalised & (1 << p) != 0
    }
    /// Whether `p` failed a challenge and has not started a turn since.
    pub fn failed(&self, p: usize) -> bool {
        self.failed & (1 << p) != 0
    }
    /// Whether `p` received its hand involuntarily since its last turn (C22).
    pub fn grace(&self, p: usize) -> bool {
        self.grace & (1 << p) != 0
    }
    /// The seats holding more cards than their base limit (seven, six
    /// when penalised), as a mask (bit p for seat p), grace or not. All
    /// seats at once: one byte per hand size, the penalised ones raised
    /// by one, each byte's top bit set by adding 0x78 when it is above
    /// seven (sizes stay far below 0x88), the top bits gathered by one
    /// multiplication.
    #[inline]
    pub fn over_base_limit(&self) -> u32 {
        const TOP: u64 = 0x8080_8080_8080_8080;
        let sizes = self.sizes + BYTE_OF_BIT[usize::from(self.penalised)];
        let top = (sizes + 0x7878_7878_7878_7878) & TOP;
        ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }
    /// Cards in `p`'s hand.
    #[inline(always)]
    fn size(&self, p: usize) -> u32 {
        ((self.sizes >> (8 * p)) & 0xFF) as u32
    }
    #[inline(always)]
    fn set_size(&mut self, p: usize, n: u32) {
        self.sizes = (self.sizes & !(0xFF << (8 * p))) | u64::from(n) << (8 * p);
    }
    /// `k` more cards in `p`'s hand.
    #[inline(always)]
    fn grow(&mut self, p: usize, k: u32) {
        self.sizes += u64::from(k) << (8 * p);
    }
    /// The seat after `p` (no division: a remainder by a number known only
    /// at run time is a slow instruction).
    #[inline(always)]
    pub fn next_seat(&self, p: usize) -> usize {
        if p + 1 == self.players() { 0 } else { p + 1 }
    }
    /// The dealer of the current round (C40).
    pub fn dealer(&self) -> usize {
        self.round as usize % self.players()
    }
    /// The combined hand of `p`: hand plus community (C33).
    #[inline]
    pub fn combined(&self, p: usize) -> CardSet {
        self.hand[p] | self.community_set()
    }
    /// Seat `p`'s round score if the round ended now.
    #[inline]
    pub fn score_of(&self, p: usize) -> Score {
        let m = self.combined(p);
        if self.rules.community_multipliers {
            score(m)
        } else {
            score_split(m, self.hand[p])
        }
    }
    /// Whether `p` may call "Flip!" now (C29).
    pub fn can_call(&self, p: usize) -> bool {
        self.caller.is_none() && reaches_five(self.combined(p)) && p < self.players()
    }

    /// The end-of-turn hand limit of `p` holding `hand`: 6 when penalised
    /// (C28) or after failing a challenge this turn (C27), 10 with 7>>>10
    /// or Any (C7), else 7.
    #[inline]
    pub fn limit_for(&self, p: usize, hand: CardSet) -> u32 {
        if (self.penalised | self.failed) & (1 << p) != 0 {
            LIMIT_6
        } else if hand & LIMIT10 != 0 {
            LIMIT_10
        } else {
            LIMIT
        }
    }

    /// Every card's place is one of hands, community, draw, discard,
    /// played, and each card is in exactly one (panics otherwise).
    pub fn check(&self) {
        let mut seen: CardSet = 0;
        let mut total = 0;
        let mut add = |m: CardSet, what: &str| {
            assert_eq!(seen & m, 0, "card in two places ({what}): {}", names(seen & m));
            seen |= m;
            total += count(m);
        };
        assert_eq!(self.over_base_limit() >> self.players(), 0, "an empty seat over the limit");
        for p in 0..self.players() {
            add(self.hand[p], "hand");
            assert_eq!(self.size(p), count(self.hand[p]), "size of hand {p}");
            let base = 7 - u32::from(self.penalised(p));
            assert_eq!(self.over_base_limit() >> p & 1 == 1, count(self.hand[p]) > base, "over the limit, seat {p}");
            for q in 0..self.players() {
                assert_eq!(self.known[p][q] & !self.hand[q], 0, "knowledge of {p} about {q} is false");
            }
        }
        let slots = self.community.iter().filter(|&&c| c != EMPTY).fold(0, |m, &c| m | bit(c));
        assert_eq!(self.community_mask, slots, "community set out of step with its slots");
        add(self.community_set(), "community");
        let mut pile = 0;
        for &c in &self.draw[..self.draw_n] {
            assert_eq!(pile & bit(c), 0, "draw pile holds {} twice", name(c));
            pile |= bit(c);
        }
        add(pile, "draw");
        add(self.discard, "discard");
        add(self.played, "played");
        assert_eq!(self.played, self.in_play.map_or(0, |play| bit(play.card)), "the played card and the play");
        assert_eq!(seen, self.rules.deck.all, "cards missing: {}", names(self.rules.deck.all & !seen));
        assert_eq!(total as usize, self.rules.deck.len());
    }

    // ----------------------------------------------------------------
    // Setting up
    // ----------------------------------------------------------------

    /// A fresh game: totals zero, round 0.
    pub fn new_game(&mut self) {
        self.totals = [0; MAX_PLAYERS];
        self.points = [0; MAX_PLAYERS];
        self.round = 0;
    }

    fn clear_round(&mut self) {
        self.hand = [0; MAX_PLAYERS];
        self.sizes = 0;
        self.known = [[0; MAX_PLAYERS]; MAX_PLAYERS];
        self.community = [EMPTY; 3];
        self.community_mask = 0;
        self.draw_n = 0;
        self.discard = 0;
        self.played = 0;
        self.in_play = None;
        self.penalised = 0;
        self.failed = 0;
        self.grace = 0;
        self.caller = None;
        self.extra = false;
        self.turn = 0;
        self.reshuffles = 0;
        self.challenges_round = 0;
        self.cut_off = false;
        self.counts = [Counts::default(); MAX_PLAYERS];
    }

    /// Shuffles the whole deck (C41) and deals: three passes of one card to
    /// each player from the dealer's left, then one to the community.
    pub fn deal<D: Draw>(&mut self, d: &mut D) {
        self.clear_round();
        let mut n = 0;
        for c in cards_of(self.rules.deck.all) {
            self.draw[n] = c;
            n += 1;
        }
        d.shuffle(&mut self.draw[..n]);
        self.draw_n = n;
        let players = self.players();
        let first = self.next_seat(self.dealer());
        for pass in 0..3 {
            let mut p = first;
            for _ in 0..players {
                let c = self.pop();
                self.hand[p] |= bit(c);
                self.grow(p, 1);
                p = self.next_seat(p);
            }
            let c = self.pop();
            self.set_community(pass, c);
        }
    }

    /// Sets up a round from a position (tests and tools).
    pub fn set_position(&mut self, pos: &Position) {
        self.clear_round();
        for (p, &h) in pos.hands.iter().enumerate() {
            self.hand[p] = h;
            self.set_size(p, count(h));
        }
        for (slot, &c) in pos.community.iter().enumerate() {
            self.set_community(slot, c);
        }
        self.draw_n = pos.draw.len();
        for (i, &c) in pos.draw.iter().rev().enumerate() {
            self.draw[i] = c;
        }
        self.discard = pos.discard;
        for (p, &t) in pos.totals.iter().enumerate() {
            self.totals[p] = t;
        }
        self.caller = pos.caller.map(|c| c as u8);
        self.penalised = pos.penalised;
        self.round = pos.round;
        self.check();
    }

    /// Marks `p` as penalised (tests and tools).
    pub fn set_penalised(&mut self, p: usize) {
        self.penalised |= 1 << p;
    }

    fn pop(&mut self) -> Card {
        self.draw_n -= 1;
        self.draw[self.draw_n]
    }

    // ----------------------------------------------------------------
    // The game
    // ----------------------------------------------------------------

    /// Plays a whole game (rounds until a unique leader reaches the target,
    /// C37) and tells `obs` its end.
    pub fn play_game<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> End {
        self.new_game();
        self.play_rounds(ch, obs, d)
    }

    /// For searches: the rest of the game from a decision of `p`'s turn
    /// at `at` ([`Table::play_on_from`]): the rest of the round, its
    /// scoring, then rounds until the game ends, as [`Table::play_game`]
    /// plays them; tells `obs` the end.
    pub fn finish_game_from<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        at: Resume,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> End {
        self.play_on_from(p, at, ch, obs, d);
        self.score_round();
        obs.round_end(self);
        self.round += 1;
        if let Some(w) = self.leader() {
            let end = End { winner: Some(w) };
            obs.game_end(self, end);
            return end;
        }
        self.play_rounds(ch, obs, d)
    }

    /// Rounds from the current one until a unique leader reaches the
    /// target (C37) or the game cap; tells `obs` the end.
    #[inline(always)]
    fn play_rounds<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> End {
        let end = loop {
            if self.round >= GAME_ROUND_CAP {
                break End { winner: None };
            }
            self.deal(d);
            if O::EVENTS {
                obs.event(self, Event::Dealt);
            }
            let first = (self.dealer() + 1) % self.players();
            self.play_turns_from(first, ch, obs, d);
            self.score_round();
            obs.round_end(self);
            self.round += 1;
            if let Some(w) = self.leader() {
                break End { winner: Some(w) };
            }
        };
        obs.game_end(self, end);
        end
    }

    /// The unique player with the highest total, if that total reaches the
    /// target (C37: a tie at the top plays another round).
    pub fn leader(&self) -> Option<usize> {
        let n = self.players();
        let top = *self.totals[..n].iter().max().unwrap();
        if top < self.rules.target {
            return None;
        }
        let mut at_top = (0..n).filter(|&p| self.totals[p] == top);
        let w = at_top.next();
        if at_top.next().is_some() { None } else { w }
    }

    /// Scores the round: each player's combined hand (C33), nothing when
    /// the round was cut off (C32).
    pub fn score_round(&mut self) {
        for p in 0..self.players() {
            let pts = if self.cut_off { 0 } else { self.score_of(p).points };
            self.points[p] = pts;
            self.totals[p] += pts;
        }
    }

    /// Plays full turns from seat `p` on, clockwise, until the round ends:
    /// play comes back to the caller of "Flip!", or the round cap.
    pub fn play_turns_from<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        mut p: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        loop {
            if self.caller() == Some(p) {
                return;
            }
            self.full_turn(p, ch, obs, d);
            if self.cut_off {
                if O::EVENTS {
                    obs.event(self, Event::CutOff);
                }
                return;
            }
            p = self.next_seat(p);
        }
    }

    /// A player's turn and the extra turns +Turn gives (C10).
    pub fn full_turn<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, p: usize, ch: &mut C, obs: &mut O, d: &mut D) {
        let mut extra = false;
        loop {
            if self.turn >= self.rules.round_cap {
                self.cut_off = true;
                return;
            }
            if O::EVENTS {
                obs.event(self, Event::Turn { seat: p, extra });
            }
            self.one_turn(p, ch, obs, d);
            if !self.extra {
                return;
            }
            self.extra = false;
            extra = true;
        }
    }

    /// One turn of `p`: the start option, then (unless "Flip!" was called)
    /// the challenge, the played card to the discard pile and the discard
    /// to the limit (C26).
    pub fn one_turn<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, p: usize, ch: &mut C, obs: &mut O, d: &mut D) {
        self.turn += 1;
        self.counts[p].turns += 1;
        // C27: a failed challenger's six-card limit ends as their next turn starts.
        self.failed &= !(1 << p);
        let start = ch.start(&View::new(self, p), d);
        match start {
            Start::Flip => {
                assert!(self.can_call(p), "seat {p} called Flip! without five of a kind or after a call");
                self.caller = Some(p as u8);
                let pts = self.score_of(p).points;
                let c = &mut self.counts[p];
                c.calls += 1;
                c.call_points = pts;
                c.call_turn = self.turn;
                if O::EVENTS {
                    obs.event(self, Event::Called { seat: p, points: pts });
                }
                return;
            }
            Start::Draw2 => {
                self.counts[p].draw2 += 1;
                self.draw_to(p, 2, obs, d);
            }
            Start::Community(slot) => {
                let slot = usize::from(slot);
                assert!(
                    self.caller.is_none() && slot < 3 && self.community[slot] != EMPTY,
                    "seat {p} took community slot {slot}: not allowed now"
                );
                self.counts[p].community += 1;
                self.take_community(p, slot, obs, d);
            }
            Start::Play(play) => self.play_action(p, play, ch, obs, d),
        }
        self.end_phase(p, EndStep::Challenge, ch, obs, d);
    }

    /// The end of `p`'s turn (C26) from step `from` on: the hand
    /// challenge (E1), the played card to the discard pile (E2), the
    /// discard to the limit (E3).
    fn end_phase<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        from: EndStep,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        if from == EndStep::Challenge {
            // E1: one hand challenge (C24).
            if let Some(q) = ch.challenge(&View::new(self, p), d) {
                assert!(q != p && q < self.players(), "seat {p} challenged seat {q}");
                self.challenge(p, q, ch, obs, d);
            }
        }
        if from != EndStep::Discard {
            // E2: the action card played goes to the discard pile.
            let spent = self.in_play.take();
            self.discard |= self.played;
            self.played = 0;
            if O::EVENTS && let Some(play) = spent {
                obs.event(self, Event::PlayedDiscarded { seat: p, card: play.card });
            }
        }
        // E3: discard to the limit (keeping more is a bluff, C19).
        let limit = self.limit_for(p, self.hand[p]);
        let out = ch.discard(&View::new(self, p), limit, false, d);
        assert_eq!(out & !self.hand[p], 0, "seat {p} discarded cards it does not hold");
        self.drop_public(p, out);
        self.discard |= out;
        let kept = self.size(p);
        let limit = self.limit_for(p, self.hand[p]);
        if kept > limit {
            self.counts[p].over_limit += 1;
        }
        self.grace &= !(1 << p);
        if O::EVENTS {
            obs.event(
                self,
                Event::Discarded {
                    seat: p,
                    cards: out,
                    kept,
                    limit,
                },
            );
        }
    }

    /// For playouts that fix one decision: the rest of `p`'s turn from
    /// the point `at` (where that decision is asked: the chooser given
    /// answers it), then its +Turn extra turns and the rest of the round.
    /// Every step is the one every turn plays (the same functions).
    pub fn play_on_from<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        at: Resume,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        // The step the turn's end goes on from (none: the whole turn played).
        let from = match at {
            Resume::Turn => {
                self.full_turn(p, ch, obs, d);
                None
            }
            Resume::Block { victim } => {
                let play = self.in_play.expect("a Block is asked only while a Take or Steal is resolved");
                match play.func {
                    Func::Take => self.take_from(p, victim, ch, obs, d),
                    Func::Steal => self.steal_from(p, play, victim, ch, obs, d),
                    f => panic!("a Block is asked only against a Take or Steal, not {}", f.key()),
                }
                Some(EndStep::Challenge)
            }
            Resume::TakePick { from } => {
                self.pick_from(p, from, ch, obs, d);
                Some(EndStep::Challenge)
            }
            Resume::PenaltyPick { pile } => {
                self.take_from_penalty(p, pile, ch, obs, d);
                Some(EndStep::ActionCard)
            }
            Resume::PenaltyDiscard { challenged, won } => {
                self.settle_challenge(p, challenged, won, ch, obs, d);
                Some(EndStep::ActionCard)
            }
            Resume::Challenge => Some(EndStep::Challenge),
            Resume::Discard => Some(EndStep::Discard),
        };
        if let Some(from) = from {
            self.end_phase(p, from, ch, obs, d);
            if self.extra {
                self.extra = false;
                self.full_turn(p, ch, obs, d);
            }
        }
        if !self.cut_off {
            self.play_turns_from(self.next_seat(p), ch, obs, d);
        }
    }

    /// Removes `cards` from `p`'s hand in sight of everybody.
    fn drop_public(&mut self, p: usize, cards: CardSet) {
        self.hand[p] &= !cards;
        self.set_size(p, count(self.hand[p]));
        for q in 0..self.players() {
            self.known[q][p] &= !cards;
        }
    }

    /// Adds `cards` to `p`'s hand in sight of everybody.
    fn add_public(&mut self, p: usize, cards: CardSet) {
        self.hand[p] |= cards;
        self.set_size(p, count(self.hand[p]));
        for q in 0..self.players() {
            self.known[q][p] |= cards;
        }
    }

    /// Moves one card from `from` to `to` seen only by the two of them:
    /// everybody else forgets what they knew of `from`'s hand.
    fn move_hidden(&mut self, from: usize, to: usize, c: Card) {
        self.hand[from] &= !bit(c);
        self.hand[to] |= bit(c);
        self.sizes -= 1 << (8 * from);
        self.grow(to, 1);
        for q in 0..self.players() {
            if q != from && q != to {
                self.known[q][from] = 0;
            }
            self.known[q][from] &= !bit(c);
        }
        self.known[from][to] |= bit(c);
    }

    /// The next card of the draw pile, reshuffling the discard pile into a
    /// new draw pile when it is empty (C31); `None` when both are empty.
    fn next_card<O: Observer<Table>, D: Draw>(&mut self, obs: &mut O, d: &mut D) -> Option<Card> {
        if self.draw_n == 0 {
            if self.discard == 0 {
                return None;
            }
            let mut n = 0;
            for c in cards_of(self.discard) {
                self.draw[n] = c;
                n += 1;
            }
            d.shuffle(&mut self.draw[..n]);
            self.draw_n = n;
            self.discard = 0;
            self.reshuffles += 1;
            if O::EVENTS {
                obs.event(self, Event::Reshuffled { cards: n as u32 });
            }
        }
        Some(self.pop())
    }

    /// `p` draws `k` cards (fewer when both piles run dry, C31).
    fn draw_to<O: Observer<Table>, D: Draw>(&mut self, p: usize, k: u32, obs: &mut O, d: &mut D) -> CardSet {
        let mut got = 0;
        for _ in 0..k {
            match self.next_card(obs, d) {
                Some(c) => {
                    got |= bit(c);
                    self.hand[p] |= bit(c);
                    self.grow(p, 1);
                }
                None => break,
            }
        }
        if O::EVENTS {
            obs.event(self, Event::Drew { seat: p, cards: got });
        }
        got
    }

    /// `p` takes community slot `slot`; the slot is refilled from the draw
    /// pile (or stays empty, C31).
    fn take_community<O: Observer<Table>, D: Draw>(&mut self, p: usize, slot: usize, obs: &mut O, d: &mut D) {
        let c = self.community[slot];
        self.set_community(slot, EMPTY);
        self.add_public(p, bit(c));
        let r = self.next_card(obs, d).unwrap_or(EMPTY);
        self.set_community(slot, r);
        if O::EVENTS {
            obs.event(
                self,
                Event::Community {
                    seat: p,
                    slot: slot as u8,
                    card: c,
                    replaced: r,
                },
            );
        }
    }

    /// Whether `p` may play `play` now (C8, C9 and the "Flip!" bans).
    pub fn playable(&self, p: usize, play: &Play) -> bool {
        let n = self.players();
        let f = play.func;
        if self.hand[p] & bit(play.card) == 0
            || functions(play.card) & f.bit() == 0
            || !self.rules.allows(f)
            || f == Func::Block
            || (self.caller.is_some() && !f.after_flip())
        {
            return false;
        }
        match f {
            Func::Take | Func::Swap => usize::from(play.target) < n && usize::from(play.target) != p,
            Func::Steal => {
                let opponents = ((1u16 << n) - 1) as u8 & !(1 << p);
                let want = (n - 1).min(3) as u32;
                let slots_max = 3u32.saturating_sub(n as u32 - 1);
                play.victims & !opponents == 0
                    && play.victims.count_ones() == want
                    && play.slots & !0b111 == 0
                    && play.slots.count_ones() <= slots_max
            }
            _ => true,
        }
    }

    fn play_action<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        play: Play,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        assert!(
            self.playable(p, &play),
            "seat {p} cannot play {} as {} now ({play:?})",
            name(play.card),
            play.func.key()
        );
        self.drop_public(p, bit(play.card));
        self.played = bit(play.card);
        self.in_play = Some(play);
        self.counts[p].funcs[play.func as usize] += 1;
        if O::EVENTS {
            obs.event(self, Event::Played { seat: p, play });
        }
        match play.func {
            Func::Draw => {
                self.draw_to(p, 3, obs, d);
            }
            Func::Take => self.take_from(p, usize::from(play.target), ch, obs, d),
            Func::Steal => {
                let first = self.next_seat(p);
                self.steal_from(p, play, first, ch, obs, d);
            }
            Func::Swap => {
                let q = usize::from(play.target);
                self.hand.swap(p, q);
                let (np, nq) = (self.size(p), self.size(q));
                self.set_size(p, nq);
                self.set_size(q, np);
                for o in 0..self.players() {
                    self.known[o].swap(p, q);
                }
                self.known[p][q] = self.hand[q];
                self.known[q][p] = self.hand[p];
                self.grace |= 1 << q;
                if O::EVENTS {
                    obs.event(self, Event::Swapped { seat: p, with: q });
                }
            }
            Func::Reboot => {
                let h = self.hand[p];
                self.drop_public(p, h);
                self.discard |= h;
                if O::EVENTS {
                    obs.event(self, Event::Rebooted { seat: p, cards: h });
                }
                self.draw_to(p, count(h), obs, d);
            }
            Func::Chaos => self.chaos(p, obs, d),
            Func::PlusTurn => self.extra = true,
            Func::Block => unreachable!(),
        }
    }

    /// `p`'s Take against `q`: `q` may block (C12: before any card is
    /// seen), else `p` sees the hand and takes a card of it.
    fn take_from<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, p: usize, q: usize, ch: &mut C, obs: &mut O, d: &mut D) {
        if self.blocked(q, p, Func::Take, ch, obs, d) || self.hand[q] == 0 {
            return;
        }
        // The taker sees the whole hand (C12: only when not blocked).
        self.known[p][q] = self.hand[q];
        self.pick_from(p, q, ch, obs, d);
    }

    /// `p`, seeing `q`'s whole hand, takes a card of it.
    fn pick_from<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, p: usize, q: usize, ch: &mut C, obs: &mut O, d: &mut D) {
        let c = ch.take_pick(&View::new(self, p), q, d);
        assert!(self.hand[q] & bit(c) != 0, "seat {p} took {} that seat {q} does not hold", name(c));
        self.move_hidden(q, p, c);
        self.known[p][q] = self.hand[q];
        if O::EVENTS {
            obs.event(self, Event::Took { seat: p, from: q, card: c });
        }
    }

    /// `p`'s Steal from its victims in seat order, from seat `first` on
    /// (each may block), then the community slots it names.
    fn steal_from<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        play: Play,
        first: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        let mut q = first;
        while q != p {
            if play.victims & (1 << q) != 0 && !self.blocked(q, p, Func::Steal, ch, obs, d) {
                let h = self.hand[q];
                if h != 0 {
                    // C13 (ii): a uniformly random card of the victim's hand.
                    let c = nth(h, d.below(count(h)));
                    self.move_hidden(q, p, c);
                    if O::EVENTS {
                        obs.event(self, Event::Took { seat: p, from: q, card: c });
                    }
                }
            }
            q = self.next_seat(q);
        }
        for slot in 0..3 {
            if play.slots & (1 << slot) != 0 && self.community[slot] != EMPTY {
                self.take_community(p, slot, obs, d);
            }
        }
    }

    /// Chaos (C16): every hand and the community cards are shuffled
    /// together and dealt one at a time from `p` until none is left; the
    /// community is refilled from the draw pile.
    fn chaos<O: Observer<Table>, D: Draw>(&mut self, p: usize, obs: &mut O, d: &mut D) {
        let n = self.players();
        let mut pool = [0u8; 128];
        let mut len = 0;
        for i in 0..n {
            let q = (p + i) % n;
            for c in cards_of(self.hand[q]) {
                pool[len] = c;
                len += 1;
            }
            self.hand[q] = 0;
            self.set_size(q, 0);
        }
        for slot in 0..3 {
            if self.community[slot] != EMPTY {
                pool[len] = self.community[slot];
                len += 1;
                self.set_community(slot, EMPTY);
            }
        }
        d.shuffle(&mut pool[..len]);
        for (i, &c) in pool[..len].iter().enumerate() {
            self.hand[(p + i) % n] |= bit(c);
            self.grow((p + i) % n, 1);
        }
        self.known = [[0; MAX_PLAYERS]; MAX_PLAYERS];
        self.grace |= (((1u16 << n) - 1) as u8) & !(1 << p);
        if O::EVENTS {
            let deal = ChaosDeal {
                cards: pool,
                len: len as u8,
            };
            obs.event(self, Event::Chaos { seat: p, deal });
        }
        for slot in 0..3 {
            let c = self.next_card(obs, d).unwrap_or(EMPTY);
            self.set_community(slot, c);
        }
        if O::EVENTS {
            obs.event(self, Event::Refilled);
        }
    }

    /// Whether `q` blocks `by`'s `func` against its hand (C12: before any
    /// card is seen or taken). The Block card goes to the discard pile.
    fn blocked<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        q: usize,
        by: usize,
        func: Func,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> bool {
        if !self.rules.allows(Func::Block) {
            return false;
        }
        let blockers = self.hand[q] & (BLOCK_CARDS | ANY_CARDS);
        if blockers == 0 {
            return false;
        }
        match ch.block(&View::new(self, q), by, func, d) {
            Some(c) => {
                assert!(blockers & bit(c) != 0, "seat {q} blocked with {} it cannot block with", name(c));
                self.drop_public(q, bit(c));
                self.discard |= bit(c);
                self.counts[q].funcs[Func::Block as usize] += 1;
                if O::EVENTS {
                    obs.event(self, Event::Blocked { seat: q, card: c });
                }
                true
            }
            None => false,
        }
    }

    /// A hand challenge by `p` against `q` (section "Hand Challenge", C22,
    /// C23, C25, C27, C28).
    fn challenge<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        q: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        self.challenges_round += 1;
        self.counts[p].challenges += 1;
        self.counts[q].challenged += 1;
        let n = self.size(q);
        let penalised = self.penalised(q);
        let mut shown = EMPTY;
        let won = if self.grace(q) || self.over_base_limit() >> q & 1 == 0 {
            false
        } else if n >= 11 || penalised {
            true
        } else if self.hand[q] & LIMIT10 != 0 {
            let h = self.hand[q];
            let card = if h & SEVEN_TEN_CARDS != 0 { h & SEVEN_TEN_CARDS } else { h & ANY_CARDS };
            shown = card.trailing_zeros() as Card;
            self.known[p][q] |= bit(shown);
            false
        } else {
            true
        };
        if O::EVENTS {
            obs.event(
                self,
                Event::Challenge {
                    seat: p,
                    target: q,
                    won,
                    shown,
                },
            );
        }
        if won {
            self.counts[p].challenges_won += 1;
            self.counts[q].caught += 1;
            // C25: the loser is penalised (limit six) from now on.
            self.penalised |= 1 << q;
        }
        self.settle_challenge(p, q, won, ch, obs, d);
    }

    /// What follows `p`'s hand challenge of `q` once it is decided: won,
    /// `q` discards to six and `p` takes from those discards (C25); lost,
    /// `p` discards to six and keeps six until its next turn (C27).
    fn settle_challenge<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        q: usize,
        won: bool,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        if won {
            let pile = self.forced_discard(q, ch, obs, d);
            self.take_from_penalty(p, pile, ch, obs, d);
        } else {
            self.forced_discard(p, ch, obs, d);
            self.failed |= 1 << p;
        }
    }

    /// The winning challenger `p` takes up to two of the penalty discards
    /// `pile` (C25).
    fn take_from_penalty<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        p: usize,
        pile: CardSet,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) {
        let take = ch.take_penalty(&View::new(self, p), pile, d);
        assert!(
            take & !pile == 0 && count(take) <= 2,
            "seat {p} took {} from the penalty discards {}",
            names(take),
            names(pile)
        );
        self.discard &= !take;
        self.add_public(p, take);
        if O::EVENTS {
            obs.event(self, Event::PenaltyTaken { seat: p, cards: take });
        }
    }

    /// `q` discards (own choice, face up, C25) down to six cards onto the
    /// discard pile; returns the cards discarded.
    fn forced_discard<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        q: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> CardSet {
        let n = self.size(q);
        if n <= LIMIT_6 {
            return 0;
        }
        let out = ch.discard(&View::new(self, q), LIMIT_6, true, d);
        assert!(
            out & !self.hand[q] == 0 && count(out) == n - LIMIT_6,
            "seat {q} must discard {} cards to six, not {}",
            n - LIMIT_6,
            names(out)
        );
        self.drop_public(q, out);
        self.discard |= out;
        if O::EVENTS {
            obs.event(self, Event::PenaltyDiscard { seat: q, cards: out });
        }
        out
    }
}

/// The Draw/Block cards.
pub const BLOCK_CARDS: CardSet = bit(action_card(DRAW_BLOCK, 0)) | bit(action_card(DRAW_BLOCK, 1));

/// What one player can know (C21, C42 and section 1.10 of the notes):
/// their own hand, the community, the discard pile, hand sizes, every
/// public event, and the cards they saw go into other hands.
#[derive(Clone, Copy)]
pub struct View<'a> {
    t: &'a Table,
    seat: usize,
}

impl<'a> View<'a> {
    /// The view of `seat`.
    pub fn new(t: &'a Table, seat: usize) -> View<'a> {
        View { t, seat }
    }
    /// The view of another seat at the same table: for the search, which
    /// keys its tree by what its own player sees at every decision of a
    /// world it dealt ([`super::search`]).
    #[inline]
    pub(super) fn of_seat(&self, seat: usize) -> View<'a> {
        View { t: self.t, seat }
    }
    /// The table behind the view: for `sim advise`, which keeps the table
    /// of a traced decision as the rules engine asks it ([`super::advise`]).
    #[inline]
    pub(super) fn table(&self) -> &'a Table {
        self.t
    }
    /// The deciding player.
    #[inline(always)]
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// The rules.
    #[inline]
    pub fn rules(&self) -> &'a Rules {
        &self.t.rules
    }
    /// Players.
    #[inline]
    pub fn players(&self) -> usize {
        self.t.players()
    }
    /// Own hand.
    #[inline]
    pub fn hand(&self) -> CardSet {
        self.t.hand[self.seat]
    }
    /// The community slots.
    #[inline]
    pub fn community(&self) -> [Card; 3] {
        self.t.community
    }
    /// The community cards.
    #[inline]
    pub fn community_set(&self) -> CardSet {
        self.t.community_set()
    }
    /// Own combined hand (hand plus community).
    #[inline]
    pub fn combined(&self) -> CardSet {
        self.t.combined(self.seat)
    }
    /// Own round score if the round ended now.
    #[inline]
    pub fn score(&self) -> Score {
        self.t.score_of(self.seat)
    }
    /// The discard pile (face up, C42).
    #[inline]
    pub fn discard(&self) -> CardSet {
        self.t.discard
    }
    /// The action card played this turn (face up).
    #[inline]
    pub fn played(&self) -> CardSet {
        self.t.played
    }
    /// Hand size of `q` (public, C21).
    #[inline]
    pub fn hand_size(&self, q: usize) -> u32 {
        self.t.size(q)
    }
    /// The cards this player knows `q` holds.
    #[inline]
    pub fn known(&self, q: usize) -> CardSet {
        if q == self.seat { self.hand() } else { self.t.known[self.seat][q] }
    }
    /// Game total of `q`.
    #[inline]
    pub fn total(&self, q: usize) -> u32 {
        self.t.totals[q]
    }
    /// The caller of "Flip!", if any.
    #[inline]
    pub fn caller(&self) -> Option<usize> {
        self.t.caller()
    }
    /// Whether this player may call "Flip!" now.
    #[inline]
    pub fn can_call(&self) -> bool {
        self.t.can_call(self.seat)
    }
    /// Whether this player may play `play` now.
    #[inline]
    pub fn playable(&self, play: &Play) -> bool {
        self.t.playable(self.seat, play)
    }
    /// Whether `q` is penalised (public).
    #[inline]
    pub fn penalised(&self, q: usize) -> bool {
        self.t.penalised(q)
    }
    /// Whether `q` received its hand involuntarily since its last turn
    /// (public: Swap and Chaos are played in the open).
    #[inline]
    pub fn grace(&self, q: usize) -> bool {
        self.t.grace(q)
    }
    /// The seats over their base limit, grace or not (public; see
    /// [`Table::over_base_limit`]).
    #[inline]
    pub fn over_base_limit(&self) -> u32 {
        self.t.over_base_limit()
    }
    /// The seats that received their hand involuntarily since their last
    /// turn, as a mask.
    #[inline]
    pub fn grace_mask(&self) -> u32 {
        u32::from(self.t.grace)
    }
    /// The end-of-turn limit for this player holding `hand`.
    #[inline]
    pub fn limit_for(&self, hand: CardSet) -> u32 {
        self.t.limit_for(self.seat, hand)
    }
    /// Challenges made this round (public).
    #[inline]
    pub fn challenges_this_round(&self) -> u32 {
        self.t.challenges_round
    }
    /// Cards in the draw pile.
    #[inline]
    pub fn draw_count(&self) -> usize {
        self.t.draw_n
    }
    /// Turns taken this round.
    #[inline]
    pub fn turns(&self) -> u32 {
        self.t.turn
    }
    /// Every card this player cannot place: not in own hand, the
    /// community, the discard pile, played, or known in another hand. They
    /// are in the other hands (their unknown part) or the draw pile.
    #[inline]
    pub fn unseen(&self) -> CardSet {
        let mut m = self.t.rules.deck.all & !self.hand() & !self.community_set() & !self.t.discard & !self.t.played;
        // Own row included: what a player knows of its own hand is part of
        // that hand (`check`), already taken out.
        for q in 0..self.players() {
            m &= !self.t.known[self.seat][q];
        }
        m
    }
    /// Unknown cards in `q`'s hand.
    #[inline]
    pub fn hidden(&self, q: usize) -> u32 {
        self.hand_size(q) - count(self.known(q))
    }

    /// A world consistent with what this player knows: the unseen cards
    /// dealt at random into the other hands' unknown parts and the draw
    /// pile (every public fact and this player's knowledge unchanged).
    pub fn sample_world<D: Draw>(&self, d: &mut D) -> Table {
        let t = self.t;
        let mut pool = [0u8; 128];
        let mut len = 0;
        for c in cards_of(self.unseen()) {
            pool[len] = c;
            len += 1;
        }
        d.shuffle(&mut pool[..len]);
        let mut w = t.clone();
        let mut next = 0;
        for q in 0..t.players() {
            if q == self.seat {
                continue;
            }
            let k = self.hidden(q) as usize;
            let mut h = t.known[self.seat][q];
            for &c in &pool[next..next + k] {
                h |= bit(c);
            }
            next += k;
            w.hand[q] = h;
            w.set_size(q, count(h));
        }
        let k = t.draw_n;
        w.draw[..k].copy_from_slice(&pool[next..next + k]);
        next += k;
        debug_assert_eq!(next, len);
        // Knowledge in the world: what this player knows stays, and what
        // the others know of this player's hand (it saw how they learnt
        // it); what they know of one another it cannot tell, so in the
        // world they know nothing of it.
        for o in 0..t.players() {
            for q in 0..t.players() {
                if o != self.seat && q != self.seat {
                    w.known[o][q] = 0;
                }
            }
        }
        w
    }
}
