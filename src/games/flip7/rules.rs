//! One game of Flip 7: rounds, turns, action cards, scoring and the end of
//! the game. `docs/rules/flip7.md` states every rule and reading this file
//! implements; the tests in `tests/flip7_rules.rs` check them case by case.
//!
//! The engine is generic over three things, all resolved at compile time:
//! the [`Chooser`] that makes every decision (the seats' policies, or a script
//! in tests), the [`Observer`] that records statistics and the trace, and the
//! [`Draw`] source that picks cards (a random generator, or a stacked deck).

use super::cards::{Card, Deck, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, PLUS2, PLUS10, SECOND_CHANCE, TIMES2};
pub use crate::engine::observe::{Observer, Silent};
use crate::engine::observe::Observed;
use crate::engine::rng::{Draw, InlineSteps, LazyGameRng, SimRng, next_game_seed};

/// Most players at one table (two decks are used above 18).
pub const MAX_PLAYERS: usize = 36;
/// Game total that ends the game.
pub const TARGET: u32 = 200;
/// Bonus for seven different number cards.
pub const FLIP7_BONUS: u16 = 15;
/// Number cards needed for a Flip 7.
pub const FLIP7_CARDS: u32 = 7;
/// A game still undecided after this many rounds ends with no winner.
/// (No sensible policy comes near it; it only guarantees termination.)
pub const MAX_ROUNDS: u32 = 10_000;
/// Times the discard pile may be shuffled into a new draw pile within one
/// round before the round is ended anyway: only a guarantee that every
/// round ends, never reached in play. The discard pile is reshuffled
/// whenever the draw pile runs out and it holds cards; but players who
/// never stay can cycle the same few cards for ever (a Second Chance and the
/// duplicate it cancels, or Flip Threes that draw each other), and a round
/// that reaches this many reshuffles is such a cycle. It ends as if no card
/// were left, and is counted ([`Table::cycled`], the run's summary).
pub const MAX_RESHUFFLES_PER_ROUND: u16 = 1000;

/// Where a player stands in the current round. The discriminants index
/// per-outcome counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    /// Still in the round.
    #[default]
    Active = 0,
    /// Chose to stay; banks their cards.
    Stayed = 1,
    /// Frozen by a Freeze card; banks their cards.
    Frozen = 2,
    /// Drew a duplicate number without a Second Chance; scores 0.
    Busted = 3,
    /// Collected seven different numbers; banks their cards plus 15.
    Flip7 = 4,
}

/// The cards in front of one player in the current round. 16 bytes, so a
/// seat's hand is found with a shift.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub struct Hand {
    /// Bit `n` set: holds number card `n`.
    pub numbers: u16,
    /// Sum of the number cards held.
    pub number_sum: u16,
    /// Sum of the `+N` modifiers held.
    pub plus: u16,
    /// Number cards held (kept beside the mask: cheaper than a popcount).
    pub count: u8,
    /// `x2` cards held (each doubles the number sum).
    pub times2: u8,
    /// Holds a Second Chance.
    pub second_chance: bool,
    /// Where the player stands.
    pub status: Status,
    /// Cards flipped from the deck for this player this round, modulo 256
    /// ([`Hand::cards_flipped`] has the exact count).
    pub flipped: u8,
    /// Cards received from other players less cards that left this
    /// player's front during the round, modulo 256 (see [`Hand::front`]):
    /// kept apart so that a flip counts one field, not two.
    moved: u8,
    /// `flipped` at the round's last reshuffle, and the times it went past
    /// 255 before then (in the hand's padding: the hot path still counts
    /// one byte). Between two reshuffles a seat flips fewer than 256 cards
    /// (a pile holds at most two decks), so a reshuffle that finds
    /// `flipped` below its mark has seen it wrap once.
    flipped_mark: u8,
    flipped_laps: u16,
}

// One hand is one 16-byte slot (the seats' hands are found with a shift).
const _: () = assert!(std::mem::size_of::<Hand>() == 16);

impl Hand {
    /// The first five fields as one word (`numbers` lowest), so that one
    /// addition adds a card to all of them (see [`CARD_ADDS`]).
    #[inline(always)]
    fn tally(&self) -> u64 {
        #[cfg(target_endian = "little")]
        {
            // SAFETY: `Hand` is `repr(C)` and 16-byte aligned; its first 8
            // bytes are `numbers`, `number_sum`, `plus` (u16 each), `count`
            // and `times2` (u8 each), with no padding; on a little-endian
            // machine they read as this word.
            unsafe { (self as *const Hand).cast::<u64>().read() }
        }
        #[cfg(not(target_endian = "little"))]
        {
            u64::from(self.numbers)
                | u64::from(self.number_sum) << 16
                | u64::from(self.plus) << 32
                | u64::from(self.count) << 48
                | u64::from(self.times2) << 56
        }
    }

    #[inline(always)]
    fn set_tally(&mut self, w: u64) {
        #[cfg(target_endian = "little")]
        {
            // SAFETY: as in `tally`; every bit pattern is valid for these
            // integer fields.
            unsafe { (self as *mut Hand).cast::<u64>().write(w) }
        }
        #[cfg(not(target_endian = "little"))]
        {
            self.numbers = w as u16;
            self.number_sum = (w >> 16) as u16;
            self.plus = (w >> 32) as u16;
            self.count = (w >> 48) as u8;
            self.times2 = (w >> 56) as u8;
        }
    }

    /// A hand in the round holding the number cards `numbers` (each at most
    /// once), `plus` points of `+N` modifiers, `times2` x2 cards and
    /// possibly a Second Chance: for analysis and tests.
    pub fn holding(numbers: &[Card], plus: u16, times2: u8, second_chance: bool) -> Hand {
        let mut h = Hand::default();
        for &n in numbers {
            debug_assert!(n <= MAX_NUMBER && !h.has(n), "{n} is not a new number");
            h.numbers |= 1 << n;
            h.number_sum += u16::from(n);
            h.count += 1;
        }
        h.plus = plus;
        h.times2 = times2;
        h.second_chance = second_chance;
        h
    }

    /// This hand with `status` and `front` cards in front of the player (of
    /// any kind: see [`Hand::front`]), as if flipped for it: for a round
    /// arranged at a decision ([`Table::arranged`]). A hand with nothing in
    /// front in a round being dealt is still to be dealt.
    pub fn in_front(mut self, status: Status, front: u8) -> Hand {
        self.status = status;
        self.flipped = front;
        self.moved = 0;
        self
    }

    /// Cards physically in front of the player, of any kind (including a
    /// busting duplicate, a Freeze received, and cards set aside or assigned
    /// but not yet resolved); 0 once the round is scored.
    #[inline]
    pub fn front(&self) -> u8 {
        self.flipped.wrapping_add(self.moved)
    }

    /// Cards flipped from the deck for this player this round, exact even
    /// in a round the cycle guard ends, where one seat may flip hundreds.
    #[inline]
    pub fn cards_flipped(&self) -> u32 {
        u32::from(self.flipped) + 256 * self.flipped_laps()
    }

    /// Times [`Hand::flipped`] went past 255 this round (never without a
    /// reshuffle in the round).
    #[inline]
    pub fn flipped_laps(&self) -> u32 {
        u32::from(self.flipped_laps) + u32::from(self.flipped < self.flipped_mark)
    }

    /// Notes a reshuffle for [`Hand::cards_flipped`].
    #[inline]
    fn mark_flipped(&mut self) {
        self.flipped_laps += u16::from(self.flipped < self.flipped_mark);
        self.flipped_mark = self.flipped;
    }

    /// Whether the initial deal still owes this player a card: nothing has
    /// been flipped for them this round and nothing is in front of them
    /// (FAQ 18: a player who resolved a Flip Three before the deal reached
    /// them has been dealt cards, whatever became of them).
    #[inline]
    pub fn undealt(&self) -> bool {
        // Nothing flipped, so `front()` is `moved` alone: both zero.
        (self.flipped | self.moved) == 0
    }

    /// A card leaves this player's front (discarded, or given away).
    #[inline]
    fn leave(&mut self) {
        self.moved = self.moved.wrapping_sub(1);
    }

    /// A card from another player arrives in front of this player.
    #[inline]
    fn receive(&mut self) {
        self.moved = self.moved.wrapping_add(1);
    }

    /// Whether number `n` is held.
    #[inline]
    pub fn has(&self, n: Card) -> bool {
        self.numbers & (1 << n) != 0
    }

    /// Number cards held.
    #[inline]
    pub fn number_count(&self) -> u32 {
        u32::from(self.count)
    }

    /// What the cards are worth now: number sum (doubled by each `x2`) plus
    /// modifiers. No Flip 7 bonus, and no zero for a bust.
    #[inline]
    pub fn banked(&self) -> u16 {
        // Shifted as u32: x86's shift already masks the count to 5 bits,
        // where a u16 shift needs one more instruction to mask it to 4.
        ((u32::from(self.number_sum) << self.times2) + u32::from(self.plus)) as u16
    }

    /// The round score: 0 for a bust, the bonus for a Flip 7.
    #[inline]
    pub fn score(&self) -> u16 {
        // Branch-free: the outcome of a round is unpredictable.
        let kept = u16::from(self.status != Status::Busted);
        let bonus = u16::from(self.status == Status::Flip7) * FLIP7_BONUS;
        self.banked() * kept + bonus
    }

    /// Whether the player is still in the round.
    #[inline]
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }
}

/// How a card came to be flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// The initial deal.
    Deal,
    /// A Hit.
    Hit,
    /// Draw `k` (1..=3) of a Flip Three.
    FlipThree(u8),
}

/// Everything that happens at the table, in order. Emitted only to observers
/// that ask for them ([`Observer::EVENTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A round begins.
    RoundStart {
        /// 0-based round number within the game.
        round: u32,
        /// Seat that deals.
        dealer: usize,
    },
    /// The discard pile was shuffled into a new draw pile.
    Reshuffle {
        /// Size of the new draw pile.
        cards: usize,
    },
    /// No card is left to draw anywhere (`cycled` false), or the same cards
    /// have cycled through [`MAX_RESHUFFLES_PER_ROUND`] reshuffles (`cycled`
    /// true): the round ends.
    Exhausted {
        /// Ended by the cycle guard, not by a lack of cards.
        cycled: bool,
    },
    /// A player chose to hit.
    Hit {
        /// The player.
        seat: usize,
    },
    /// A player chose to stay.
    Stay {
        /// The player.
        seat: usize,
    },
    /// A card was flipped for a player.
    Flip {
        /// The player.
        seat: usize,
        /// The card.
        card: Card,
        /// Why it was flipped.
        via: Via,
    },
    /// A duplicate number busted a player.
    Bust {
        /// The player.
        seat: usize,
    },
    /// A Second Chance cancelled a duplicate (both discarded).
    SecondChanceUsed {
        /// The player.
        seat: usize,
        /// The duplicate number.
        card: Card,
    },
    /// A second Second Chance was passed to another player.
    SecondChanceGiven {
        /// Who drew it.
        from: usize,
        /// Who received it.
        to: usize,
    },
    /// A second Second Chance with nobody to take it was discarded.
    SecondChanceDiscarded {
        /// Who drew it.
        seat: usize,
    },
    /// A Freeze or Flip Three was assigned to a player.
    Assign {
        /// Who assigned it.
        from: usize,
        /// Who received it.
        to: usize,
        /// The card.
        card: Card,
    },
    /// A Freeze or Flip Three drawn during a Flip Three was set aside.
    SetAside {
        /// The player resolving the Flip Three.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// An assigned card reached a player no longer in the round: discarded.
    Fizzle {
        /// The player.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// A Freeze took effect.
    Frozen {
        /// The player.
        seat: usize,
    },
    /// A player starts resolving a Flip Three.
    FlipThreeStart {
        /// The player.
        seat: usize,
    },
    /// A player made a Flip 7: the round ends.
    Flip7 {
        /// The player.
        seat: usize,
    },
    /// A card in front of a player went to the discard pile during the
    /// round: a Flip Three once resolved, or a card set aside by a player
    /// who busted during a Flip Three. (The readable trace leaves these
    /// out; the JSON trace follows every card.)
    Discard {
        /// The player it was in front of.
        seat: usize,
        /// The card.
        card: Card,
    },
}

/// Makes every decision of every seat.
///
/// The engine checks each answer: a target must be a player still in the
/// round (and, for a Second Chance, one without one).
pub trait Chooser {
    /// `seat` (still in the round) is asked Hit (`true`) or Stay (`false`).
    fn hit(&mut self, t: &Table, seat: usize) -> bool;
    /// `chooser` assigns `card` (Freeze or Flip Three) to a player still in
    /// the round, possibly itself.
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize;
    /// `holder` must pass on a second Second Chance: to another player still
    /// in the round who holds none, or `None` to discard it when there is no
    /// such player.
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize>;
}

/// What observers of a Flip 7 table hear: [`Event`]s, and at the end of a
/// game the unique winner, if any.
impl Observed for Table {
    type Event = Event;
    type End = Option<usize>;
}

/// Per card kind (index masked to 32 slots): the bit a number card sets in
/// [`Hand::numbers`] (0 for other kinds).
const NUMBER_BIT: [u16; 32] = {
    let mut t = [0u16; 32];
    let mut c = 0;
    while c <= MAX_NUMBER as usize {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

/// Per card kind (index masked to 32 slots): what adding it does to
/// [`Hand::tally`]: sets its number's bit and adds its value, adds a `+N`,
/// counts a number card or an `x2`. No field ever carries into the next
/// (a number's bit is added only when not already set; sums stay below
/// 2^16, counts below 2^8).
const CARD_ADDS: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut c = 0;
    while c <= MAX_NUMBER as usize {
        t[c] = 1 << c | (c as u64) << 16 | 1 << 48;
        c += 1;
    }
    let mut c = PLUS2 as usize;
    while c <= PLUS10 as usize {
        t[c] = ((c as u64 - MAX_NUMBER as u64) * 2) << 32;
        c += 1;
    }
    t[TIMES2 as usize] = 1 << 56;
    t
};

/// What [`Table::play_solo_rounds`] adds up: the statistics of that many
/// solo single rounds, each a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoloTally {
    /// Rounds (and games) played.
    pub rounds: u64,
    /// Sum of the round scores.
    pub score_sum: u64,
    /// Sum of their squares.
    pub score_squares: u64,
    /// Cards flipped.
    pub cards: u64,
    /// Rounds by how they ended, indexed by [`Status`] (8 slots for a mask).
    pub outcomes: [u64; 8],
    /// Rounds ended by the cycle guard.
    pub cycled: u64,
}

impl SoloTally {
    /// Adds one round, scored `score`, of `cards` cards flipped, ended as
    /// `status`.
    #[inline(always)]
    pub fn add(&mut self, score: u64, cards: u64, status: Status) {
        self.rounds += 1;
        self.score_sum += score;
        self.score_squares += score * score;
        self.cards += cards;
        self.outcomes[status as usize & 7] += 1;
    }
}

/// The round is over (a Flip 7, or no card left to draw).
#[derive(Debug)]
pub struct RoundOver;

type Step = Result<(), RoundOver>;

/// Freeze and Flip Three cards assigned but not yet resolved, first in first
/// out (FAQ 16: they take effect one by one in the order assigned, after
/// every card of the same batch has been assigned).
#[derive(Clone, Copy, Debug)]
struct Pending {
    items: [(Card, u8); 16],
    head: usize,
    len: usize,
}

impl Pending {
    const EMPTY: Pending = Pending {
        items: [(0, 0); 16],
        head: 0,
        len: 0,
    };

    /// Empties the queue (a round cut short can leave cards waiting); the
    /// slots are overwritten later, so only the indices are reset.
    fn clear(&mut self) {
        (self.head, self.len) = (0, 0);
    }

    fn push(&mut self, card: Card, seat: usize) {
        assert!(self.len < self.items.len(), "too many pending action cards");
        self.items[(self.head + self.len) % 16] = (card, seat as u8);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(Card, usize)> {
        if self.len == 0 {
            return None;
        }
        let (c, s) = self.items[self.head];
        self.head = (self.head + 1) % 16;
        self.len -= 1;
        Some((c, usize::from(s)))
    }
}

/// The Freeze and Flip Three cards a Flip Three has set aside (at most
/// its three cards), in the order flipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aside {
    cards: [Card; 3],
    len: u8,
}

impl Aside {
    /// Cards set aside, in the order flipped.
    pub fn of(cards: &[Card]) -> Aside {
        let mut a = Aside::default();
        for &c in cards {
            a.push(c);
        }
        a
    }

    fn push(&mut self, c: Card) {
        self.cards[usize::from(self.len)] = c;
        self.len += 1;
    }

    /// The cards, in the order flipped.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

/// Where a round stands when a player is asked a decision: what the rules
/// do once it is answered ([`Table::finish_game_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Whose turn it is: the player asked Hit or Stay, or whose deal card
    /// or Hit set off what is being resolved.
    pub turn: usize,
    /// The initial deal is under way: after `turn`, the seats later in the
    /// round's order are still to be dealt (or asked, FAQ 18).
    pub dealing: bool,
    /// A Flip Three being resolved when the decision comes: its player, the
    /// flips still to come after the decision (0 to 2) and the cards it has
    /// set aside that are still to be assigned (after the one being
    /// assigned, for a target decision).
    pub flip_three: Option<(usize, u8, Aside)>,
}

/// A decision and its answer, for [`Table::finish_game_at`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// [`Resume::turn`] hits (`true`) or stays.
    Hit(bool),
    /// `from` assigns `card` (a Freeze or Flip Three it drew or set aside)
    /// to `to`.
    Target {
        /// Who assigns it.
        from: usize,
        /// The card.
        card: Card,
        /// Who receives it.
        to: usize,
    },
    /// `from`, holding a Second Chance, passes the one it just flipped to
    /// `to`, or discards it (`None`) when nobody can take it.
    SecondChance {
        /// Who flipped it.
        from: usize,
        /// Who receives it.
        to: Option<usize>,
    },
}

/// A round as it stands at a decision, for [`Table::arranged`]: every
/// player's total and cards, the dealer, the discard pile and the cards
/// assigned but not yet resolved.
#[derive(Clone, Debug)]
pub struct Arrangement<'a> {
    /// 0-based round (its dealer is `round mod players`).
    pub round: u32,
    /// Each seat's game total before this round.
    pub totals: &'a [u32],
    /// Each seat's hand: [`Hand::holding`] with [`Hand::in_front`].
    pub hands: &'a [Hand],
    /// Cards of each kind in the discard pile.
    pub discard: [u8; KINDS],
    /// Cards of each kind in front of the players.
    pub in_play: [u8; KINDS],
    /// Freezes and Flip Threes assigned and waiting, in order, with their
    /// targets.
    pub pending: &'a [(Card, usize)],
}

/// Options fixed for every game of a run.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Players at the table (1..=[`MAX_PLAYERS`]).
    pub players: usize,
    /// Cards of each kind in the game.
    pub composition: [u8; KINDS],
    /// Each game is a single round from a fresh deck.
    pub single_round: bool,
    /// Every round is dealt from the whole deck, shuffled afresh (the
    /// cards of the round before are not left out, and no discard pile
    /// carries over).
    pub fresh_deck: bool,
}

/// A Flip 7 table: the players' hands and totals, the piles, and the round.
/// Everything here except the order of the draw pile is public at a real
/// table, and no method reveals that order but [`Table::peek_next_card`],
/// which only the cheating `peek` policy calls.
#[derive(Clone, Debug)]
pub struct Table {
    rules: Rules,
    hands: [Hand; MAX_PLAYERS],
    totals: [u32; MAX_PLAYERS],
    deck: Deck,
    round: u32,
    dealer: usize,
    active: u64,
    pending: Pending,
    /// `orders[d]`: the seats in turn order when seat `d` deals.
    orders: [[u8; MAX_PLAYERS]; MAX_PLAYERS],
    /// Reshuffles this round; one more than [`MAX_RESHUFFLES_PER_ROUND`]
    /// once the cycle guard has ended it.
    reshuffles: u16,
    in_round: bool,
    /// The initial deal is under way (a Hit-or-Stay asked now is FAQ 18's).
    dealing: bool,
}

impl Table {
    /// A table ready for its first game.
    pub fn new(rules: Rules) -> Table {
        assert!((1..=MAX_PLAYERS).contains(&rules.players));
        Table {
            rules,
            hands: [Hand::default(); MAX_PLAYERS],
            totals: [0; MAX_PLAYERS],
            deck: Deck::new(rules.composition),
            round: 0,
            dealer: 0,
            active: 0,
            pending: Pending::EMPTY,
            orders: std::array::from_fn(|dealer| {
                // Only the orders of the seats at the table are ever read.
                let seated = dealer < rules.players;
                std::array::from_fn(|i| if seated && i < rules.players { ((dealer + 1 + i) % rules.players) as u8 } else { 0 })
            }),
            reshuffles: 0,
            in_round: false,
            dealing: false,
        }
    }

    /// Shuffles each new game's deck card by card as its cards are drawn
    /// ([`Deck::shuffle_lazily`]: the same cards, fewer steps) when the
    /// game is a single round, which draws a few cards of a full deck. A
    /// whole game draws most of its first pile, and its draws cost more one
    /// step at a time than a whole shuffle does (8% more instructions for
    /// four players at `stay-at-25`, measured); with a fresh deck every
    /// round each round's shuffle would start from another point of the
    /// generator. For runs without a trace and without `peek`, which read
    /// the pile's order.
    pub fn shuffle_lazily(&mut self, on: bool) {
        self.deck.shuffle_lazily(on && self.rules.single_round && !self.rules.fresh_deck);
    }

    /// Replaces the deck (for stacked-deck tests).
    pub fn set_deck(&mut self, deck: Deck) {
        self.deck = deck;
    }

    /// Deals the unseen draw pile anew, in an order that depends only on `d`
    /// and on which cards are left (see [`Deck::shuffle_draw_pile`]): for
    /// look-ahead (`rollout:K`) and for tests that no decision depends on
    /// the real order.
    pub fn shuffle_draw_pile<D: Draw>(&mut self, d: &mut D) {
        self.deck.shuffle_draw_pile(d);
    }

    /// Puts the draw pile in the order `top_first` (its cards exactly):
    /// for tests that replay a trace from a position.
    pub fn set_draw_order(&mut self, top_first: &[Card]) -> Result<(), String> {
        self.deck.set_draw_order(top_first)
    }

    /// Sets the game totals (for tests of end-of-game rules and choices).
    pub fn set_totals(&mut self, totals: &[u32]) {
        self.totals[..totals.len()].copy_from_slice(totals);
    }

    /// The rules of this table.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// The cards in front of `seat` this round.
    #[inline]
    pub fn hand(&self, seat: usize) -> &Hand {
        &self.hands[seat]
    }

    /// Game total of `seat` (points banked in earlier rounds, and in this
    /// one once it is scored).
    #[inline]
    pub fn total(&self, seat: usize) -> u32 {
        self.totals[seat]
    }

    /// Whether `seat` is still in the round.
    #[inline]
    pub fn is_active(&self, seat: usize) -> bool {
        self.active & (1 << seat) != 0
    }

    /// Bit `s` set: seat `s` is still in the round.
    #[inline]
    pub fn active_mask(&self) -> u64 {
        self.active
    }

    /// 0-based number of the current (or last) round of this game.
    #[inline]
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Seat dealing round [`Table::round`] (`round mod players`).
    #[inline]
    pub fn dealer(&self) -> usize {
        self.dealer
    }

    /// Cards left in the draw pile.
    #[inline]
    pub fn pile_len(&self) -> usize {
        self.deck.pile_len()
    }

    /// The next card of the draw pile, or `None` when it is empty (the next
    /// card then comes from a shuffle not yet made). Hidden at a real table:
    /// only the cheating `peek` policy reads it.
    #[inline]
    pub fn peek_next_card(&self) -> Option<Card> {
        self.deck.peek()
    }

    /// Cards of each kind in the draw pile (public in total only: the
    /// composition less the discard pile and the cards in play).
    pub fn pile_counts(&self) -> [u8; KINDS] {
        self.deck.pile_counts()
    }

    /// The draw pile in the order it will be drawn, top card first. Not
    /// public at a real table: only the JSON trace shows it, so that a
    /// reader can follow every card (a policy must never use it).
    pub fn draw_order(&self) -> Vec<Card> {
        self.deck.draw_order()
    }

    /// Reshuffles so far in this round (the cycle guard ends a round at
    /// [`MAX_RESHUFFLES_PER_ROUND`]).
    pub fn reshuffles(&self) -> u16 {
        self.reshuffles
    }

    /// Cards of each kind in the discard pile (public).
    #[inline]
    pub fn discard_counts(&self) -> &[u8; KINDS] {
        self.deck.discard_counts()
    }

    /// Cards of each kind in play, in front of players (public).
    #[inline]
    pub fn in_play_counts(&self) -> &[u8; KINDS] {
        self.deck.in_play_counts()
    }

    /// Checks that every card is in exactly one place and that the cards in
    /// play are exactly those in front of the players.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.deck.check_conservation()?;
        let in_play: u32 = self.deck.in_play_counts().iter().map(|&c| u32::from(c)).sum();
        let fronts: u32 = self.hands[..self.players()]
            .iter()
            .map(|h| u32::from(h.front()))
            .sum();
        if in_play != fronts {
            return Err(format!(
                "{in_play} cards in play but {fronts} in front of players"
            ));
        }
        for (s, h) in self.hands[..self.players()].iter().enumerate() {
            if self.in_round && h.is_active() != self.is_active(s) {
                return Err(format!(
                    "seat {s}: status {:?} but active bit {}",
                    h.status,
                    self.is_active(s)
                ));
            }
            let sum: u16 = (0..=12).filter(|&n| h.has(n)).map(u16::from).sum();
            if h.count as u32 != h.numbers.count_ones() {
                return Err(format!(
                    "seat {s}: count {} but {} number cards",
                    h.count,
                    h.numbers.count_ones()
                ));
            }
            if sum != h.number_sum {
                return Err(format!(
                    "seat {s}: number sum {} but cards add to {sum}",
                    h.number_sum
                ));
            }
        }
        Ok(())
    }

    /// Starts a new game: full deck, zero totals, round 0.
    pub fn new_game<D: Draw>(&mut self, d: &mut D) {
        self.deck.reset(d);
        self.totals = [0; MAX_PLAYERS];
        self.round = 0;
        self.dealer = 0;
    }

    /// Moves on to the next round and its dealer (the next seat clockwise:
    /// kept in step with `round` rather than divided out of it each round).
    #[inline]
    fn next_round(&mut self) {
        self.round += 1;
        self.dealer = if self.dealer + 1 == self.players() {
            0
        } else {
            self.dealer + 1
        };
    }

    /// Plays a whole game from [`Table::new_game`]'s state (or any state a
    /// test set up) and returns the unique winner, if any.
    pub fn play_game<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Option<usize> {
        loop {
            self.play_round(ch, obs, d);
            self.next_round();
            if let Some(winner) = self.game_over() {
                debug_assert!(winner.is_none_or(|w| w < self.players()));
                obs.game_end(self, winner);
                return winner;
            }
        }
    }

    /// Plays `games` solo single rounds (one seat, [`Rules::single_round`]),
    /// each from a fresh deck and a generator of its own drawn from
    /// `batch` ([`crate::engine::rng::game_rng`], made as far as the round
    /// uses it: [`LazyGameRng`]), exactly as [`Table::new_game`] then
    /// [`Table::play_game`] would play them, card for card, but without the
    /// machinery of a table of several (the seating, the winner, the
    /// per-seat statistics hooks): what a solo study of "when to stay"
    /// plays millions of. Returns what the rounds add up to. The deck must
    /// shuffle lazily ([`Table::shuffle_lazily`]), so that a round pays only
    /// for the cards it draws.
    pub fn play_solo_rounds<C: Chooser>(&mut self, ch: &mut C, batch: &mut SimRng, games: u64) -> SoloTally {
        assert!(self.players() == 1 && self.rules.single_round, "solo single rounds only");
        let cards = self.deck.composition().iter().map(|&c| usize::from(c)).sum();
        let mut tally = SoloTally::default();
        for _ in 0..games {
            let mut d = InlineSteps(LazyGameRng::new(next_game_seed(batch)));
            self.deck.refill_lazily(cards);
            self.hands[0] = Hand::default();
            self.totals[0] = 0;
            (self.round, self.dealer) = (0, 0);
            self.active = 1;
            self.pending.clear();
            self.reshuffles = 0;
            self.in_round = true;
            // As `play_turns` plays a table of one: the deal, then Hit or
            // Stay until the round is over.
            let _ = self.solo_turns(ch, &mut Silent, &mut d);
            let h = &self.hands[0];
            let score = u64::from(h.score());
            tally.add(score, u64::from(h.cards_flipped()), h.status);
            tally.cycled += u64::from(self.cycled());
            self.totals[0] = score as u32;
            self.round = 1;
            self.active = 0;
            self.in_round = false;
        }
        tally
    }

    /// The turns of a solo round: [`Table::play_turns`] at a table of one.
    #[inline(always)]
    fn solo_turns<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> Step {
        self.flip_for(0, Via::Deal, ch, obs, d)?;
        while self.active != 0 {
            self.turn(0, ch, obs, d)?;
        }
        Ok(())
    }

    /// After a round: `Some(winner)` when the game is over (`winner` the
    /// unique winner, if any), `None` when another round is played.
    #[inline(always)]
    fn game_over(&self) -> Option<Option<usize>> {
        let (leader, best, unique) = self.leader();
        if self.rules.single_round {
            return Some(unique.then_some(leader));
        }
        if best >= TARGET && unique {
            return Some(Some(leader));
        }
        (self.round >= MAX_ROUNDS).then_some(None)
    }

    /// Whether the initial deal of the round is under way.
    #[inline]
    pub fn dealing(&self) -> bool {
        self.dealing
    }

    /// Whether this round was ended by the cycle guard
    /// ([`MAX_RESHUFFLES_PER_ROUND`]) rather than by the rules.
    #[inline]
    pub fn cycled(&self) -> bool {
        self.reshuffles > MAX_RESHUFFLES_PER_ROUND
    }

    /// Whether the discard pile was reshuffled this round (or, after the
    /// round, in the round just played): only then can a seat have
    /// flipped more than 255 cards ([`Hand::cards_flipped`]).
    #[inline]
    pub fn reshuffled(&self) -> bool {
        self.reshuffles != 0
    }

    /// Plays the rest of the game from the moment `seat` is asked Hit or
    /// Stay, with `hit` as its answer, exactly as [`Table::play_game`] would
    /// have continued; returns the unique winner, if any.
    ///
    /// Meant for look-ahead on a copy of the table (with the unseen draw pile
    /// shuffled again, [`Table::shuffle_draw_pile`]): the rest of the current
    /// pass (or deal) follows the seat, then the usual passes, scoring and
    /// further rounds.
    pub fn finish_game_from<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        seat: usize,
        hit: bool,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Option<usize> {
        assert!(
            self.in_round && self.is_active(seat),
            "seat {seat} is not being asked Hit or Stay"
        );
        let _ = self.resume_turns(seat, hit, ch, obs, d);
        self.score_round(obs);
        self.next_round();
        match self.game_over() {
            Some(winner) => {
                obs.game_end(self, winner);
                winner
            }
            None => self.play_game(ch, obs, d),
        }
    }

    /// A table in the middle of a round: `a`'s totals, hands, piles and
    /// pending cards, the draw pile holding every other card (in kind
    /// order: shuffle it, [`Table::shuffle_draw_pile`], before playing on).
    /// Refuses an arrangement whose cards the deck does not hold.
    pub fn arranged(rules: Rules, a: &Arrangement<'_>) -> Result<Table, String> {
        let n = rules.players;
        if a.totals.len() != n || a.hands.len() != n {
            return Err(format!("{n} players but {} totals and {} hands", a.totals.len(), a.hands.len()));
        }
        let mut t = Table::new(rules);
        t.deck = Deck::arranged(rules.composition, a.discard, a.in_play)?;
        t.totals[..n].copy_from_slice(a.totals);
        t.hands[..n].copy_from_slice(a.hands);
        t.round = a.round;
        t.dealer = (a.round % n as u32) as usize;
        t.active = (0..n).filter(|&s| a.hands[s].is_active()).fold(0, |m, s| m | 1 << s);
        for &(card, to) in a.pending {
            t.pending.push(card, to);
        }
        t.in_round = true;
        Ok(t)
    }

    /// Plays the rest of the game from a decision of the round `at`
    /// describes, answered with `answer`, exactly as [`Table::play_game`]
    /// would have continued; returns the unique winner, if any. For
    /// advice on a position ([`Table::arranged`], its draw pile shuffled).
    pub fn finish_game_at<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        at: &Resume,
        answer: Answer,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Option<usize> {
        assert!(self.in_round, "no round is under way");
        let _ = self.resume_at(at, answer, ch, obs, d);
        self.score_round(obs);
        self.next_round();
        match self.game_over() {
            Some(winner) => {
                obs.game_end(self, winner);
                winner
            }
            None => self.play_game(ch, obs, d),
        }
    }

    /// The rest of a round from `answer` to a decision where `at` stands.
    fn resume_at<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        at: &Resume,
        answer: Answer,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        match answer {
            Answer::Hit(hit) => self.act(at.turn, hit, ch, obs, d)?,
            Answer::Target { from, card, to } => self.assign_to(from, card, to, obs),
            Answer::SecondChance { from, to } => self.pass_second_chance(from, to, obs),
        }
        if let Some((t, left, aside)) = at.flip_three {
            if left > 0 && self.is_active(t) {
                self.flip_three_from(t, 4 - left, aside, ch, obs, d)?;
            } else {
                self.end_flip_three(t, aside.cards(), ch, obs);
            }
        }
        self.resolve_pending(ch, obs, d)?;
        self.turns_after(at.turn, at.dealing, ch, obs, d)
    }

    /// (first seat with the highest total, that total, whether it is unique).
    fn leader(&self) -> (usize, u32, bool) {
        let (mut leader, mut best, mut unique) = (0, self.totals[0], true);
        for (s, &x) in self.totals[..self.players()].iter().enumerate().skip(1) {
            if x > best {
                (leader, best, unique) = (s, x, true);
            } else if x == best {
                unique = false;
            }
        }
        (leader, best, unique)
    }

    /// Plays round number [`Table::round`], dealt by seat `round mod N`,
    /// scores it into the totals and moves its cards to the discard pile.
    pub fn play_round<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) {
        let n = self.players();
        debug_assert_eq!(self.dealer, (self.round % n as u32) as usize);
        for h in &mut self.hands[..n] {
            *h = Hand::default();
        }
        self.active = (1u64 << n) - 1;
        self.pending.clear();
        self.reshuffles = 0;
        self.in_round = true;
        if self.rules.fresh_deck && self.round > 0 {
            self.deck.reset(d);
        }
        if O::EVENTS {
            obs.event(
                self,
                Event::RoundStart {
                    round: self.round,
                    dealer: self.dealer,
                },
            );
        }
        // Err means the round ended early; scoring is the same either way.
        let _ = self.play_turns(ch, obs, d);
        self.score_round(obs);
    }

    /// Scores the round into the totals and moves its cards to the discard
    /// pile.
    #[inline(always)]
    fn score_round<O: Observer<Table>>(&mut self, obs: &mut O) {
        let n = self.players();
        for s in 0..n {
            self.totals[s] += u32::from(self.hands[s].score());
        }
        obs.round_end(self);
        self.deck.end_round();
        for h in &mut self.hands[..n] {
            // Every card has gone to the discard pile.
            h.moved = h.flipped.wrapping_neg();
        }
        self.active = 0;
        self.in_round = false;
    }

    /// The initial deal and then passes of Hit or Stay, clockwise from the
    /// dealer's left with the dealer last, until nobody is left in the round.
    fn play_turns<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> Step {
        let n = self.players();
        // Clockwise from the dealer's left, the dealer last.
        let order = self.orders[self.dealer];
        // The initial deal: one card to every player still in who has not
        // been dealt yet; one who already has (a Flip Three resolved for
        // them, even if it only turned up action cards that went elsewhere)
        // or who holds a card is asked Hit or Stay instead (FAQ 18).
        for &s in &order[..n] {
            let s = usize::from(s);
            if self.is_active(s) {
                if self.hands[s].undealt() {
                    self.flip_for(s, Via::Deal, ch, obs, d)?;
                } else {
                    self.dealing_turn(s, ch, obs, d)?;
                }
            }
        }
        // Then passes of Hit or Stay until nobody is left in the round.
        while self.active != 0 {
            for &s in &order[..n] {
                let s = usize::from(s);
                // A player put out earlier in this pass is skipped.
                if self.is_active(s) {
                    self.turn(s, ch, obs, d)?;
                }
            }
        }
        Ok(())
    }

    /// FAQ 18: `s` is asked Hit or Stay when the deal reaches them, with
    /// [`Table::dealing`] true meanwhile.
    #[inline(never)]
    fn dealing_turn<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        s: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        self.dealing = true;
        let hit = ch.hit(self, s);
        self.dealing = false;
        self.act(s, hit, ch, obs, d)
    }

    /// The rest of a round from a Hit-or-Stay answer of `seat`, for
    /// [`Table::finish_game_from`]: the same turns [`Table::play_turns`]
    /// would have played from there. (Kept apart from `play_turns`, whose
    /// loops are the hot path of every simulation: sharing them with a start
    /// position cost 2% more instructions per game.)
    fn resume_turns<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        seat: usize,
        hit: bool,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        let dealing = self.dealing;
        self.dealing = false;
        self.act(seat, hit, ch, obs, d)?;
        self.turns_after(seat, dealing, ch, obs, d)
    }

    /// The turns that follow `seat`'s: the rest of the initial deal when
    /// `dealing` (the seats after it in this round's order), then passes
    /// from the seat after it until nobody is left in the round.
    fn turns_after<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        seat: usize,
        dealing: bool,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        let n = self.players();
        let order = self.orders[self.dealer];
        // The seat's place in this round's order: clockwise from the dealer's left.
        let place = (seat + n - self.dealer - 1) % n;
        if dealing {
            for &s in &order[place + 1..n] {
                let s = usize::from(s);
                if self.is_active(s) {
                    if self.hands[s].undealt() {
                        self.flip_for(s, Via::Deal, ch, obs, d)?;
                    } else {
                        self.dealing_turn(s, ch, obs, d)?;
                    }
                }
            }
        }
        let mut start = if dealing { 0 } else { place + 1 };
        while self.active != 0 {
            for &s in &order[start..n] {
                let s = usize::from(s);
                if self.is_active(s) {
                    self.turn(s, ch, obs, d)?;
                }
            }
            start = 0;
        }
        Ok(())
    }

    /// `s` is asked Hit or Stay.
    #[inline(always)]
    fn turn<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        s: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        let hit = ch.hit(self, s);
        self.act(s, hit, ch, obs, d)
    }

    /// `s` hits or stays.
    #[inline(always)]
    fn act<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        s: usize,
        hit: bool,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        if hit {
            if O::EVENTS {
                obs.event(self, Event::Hit { seat: s });
            }
            self.flip_for(s, Via::Hit, ch, obs, d)
        } else {
            self.set_out(s, Status::Stayed);
            if O::EVENTS {
                obs.event(self, Event::Stay { seat: s });
            }
            Ok(())
        }
    }

    #[inline]
    fn set_out(&mut self, s: usize, status: Status) {
        self.hands[s].status = status;
        self.active &= !(1 << s);
    }

    /// Flips the next card for `s`, reshuffling the discard pile when the
    /// draw pile is empty; ends the round when there is no card at all.
    #[inline(always)]
    fn next_card<O: Observer<Table>, D: Draw>(
        &mut self,
        s: usize,
        via: Via,
        obs: &mut O,
        d: &mut D,
    ) -> Result<Card, RoundOver> {
        let card = match self.deck.draw(d) {
            Some(c) => c,
            None => self.reshuffle_and_draw(obs, d)?,
        };
        let h = &mut self.hands[s];
        h.flipped = h.flipped.wrapping_add(1);
        if O::EVENTS {
            obs.event(self, Event::Flip { seat: s, card, via });
        }
        Ok(card)
    }

    #[cold]
    #[inline(never)]
    fn reshuffle_and_draw<O: Observer<Table>, D: Draw>(
        &mut self,
        obs: &mut O,
        d: &mut D,
    ) -> Result<Card, RoundOver> {
        let discarded = self.deck.discard_counts().iter().any(|&c| c > 0);
        let cycled = self.reshuffles >= MAX_RESHUFFLES_PER_ROUND;
        if !discarded || cycled {
            if discarded {
                self.reshuffles = MAX_RESHUFFLES_PER_ROUND + 1;
            }
            if O::EVENTS {
                obs.event(self, Event::Exhausted { cycled: discarded });
            }
            return Err(RoundOver);
        }
        self.reshuffles += 1;
        for h in &mut self.hands[..self.rules.players] {
            h.mark_flipped();
        }
        self.deck.reshuffle(d);
        if O::EVENTS {
            obs.event(
                self,
                Event::Reshuffle {
                    cards: self.deck.pile_len(),
                },
            );
        }
        Ok(self.deck.draw(d).expect("a reshuffled pile is not empty"))
    }

    /// Flips one card for `s` (deal or hit) and resolves it, including any
    /// action cards it sets off.
    #[inline(always)]
    fn flip_for<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        s: usize,
        via: Via,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        let card = self.next_card(s, via, obs, d)?;
        if card < FREEZE {
            return self.add_card(s, card, obs);
        }
        self.resolve_special(s, card, ch, obs, d)
    }

    /// An action card flipped for `s` on a deal or hit (the rarer, slower
    /// path, kept out of line).
    #[inline(never)]
    fn resolve_special<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        s: usize,
        card: Card,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        if card == SECOND_CHANCE {
            self.take_second_chance(s, ch, obs);
            Ok(())
        } else {
            self.assign(s, card, ch, obs);
            self.resolve_pending(ch, obs, d)
        }
    }

    /// Adds a number or modifier card just flipped for `s`: a duplicate
    /// number busts unless a Second Chance cancels it; a seventh different
    /// number is a Flip 7. Modifiers never bust.
    ///
    /// Numbers and modifiers share one path without branching on the kind
    /// (per-kind tables give each field's increment), because which kind
    /// comes next is as unpredictable to the processor as to the player.
    #[inline(always)]
    fn add_card<O: Observer<Table>>(&mut self, s: usize, c: Card, obs: &mut O) -> Step {
        debug_assert!(c < FREEZE);
        let k = usize::from(c) & 31;
        let h = &mut self.hands[s];
        let bit = NUMBER_BIT[k];
        if h.numbers & bit != 0 {
            if h.second_chance {
                h.second_chance = false;
                h.moved = h.moved.wrapping_sub(2);
                self.deck.discard(c);
                self.deck.discard(SECOND_CHANCE);
                if O::EVENTS {
                    obs.event(self, Event::SecondChanceUsed { seat: s, card: c });
                }
            } else {
                self.set_out(s, Status::Busted);
                if O::EVENTS {
                    obs.event(self, Event::Bust { seat: s });
                }
            }
            return Ok(());
        }
        let w = h.tally() + CARD_ADDS[k];
        h.set_tally(w);
        if (w >> 48) as u8 >= FLIP7_CARDS as u8 {
            self.set_out(s, Status::Flip7);
            if O::EVENTS {
                obs.event(self, Event::Flip7 { seat: s });
            }
            return Err(RoundOver);
        }
        Ok(())
    }

    /// A Second Chance flipped for `s`: kept if `s` has none, else passed to
    /// another player in the round without one, else discarded.
    fn take_second_chance<C: Chooser, O: Observer<Table>>(&mut self, s: usize, ch: &mut C, obs: &mut O) {
        if !self.hands[s].second_chance {
            self.hands[s].second_chance = true;
            return;
        }
        let to = ch.second_chance_to(self, s);
        self.pass_second_chance(s, to, obs);
    }

    /// `s`, holding a Second Chance, passes the one it just flipped to `to`
    /// (another player in the round without one), or discards it (`None`,
    /// when there is no such player).
    fn pass_second_chance<O: Observer<Table>>(&mut self, s: usize, to: Option<usize>, obs: &mut O) {
        match to {
            Some(to) => {
                assert!(
                    to != s && self.is_active(to) && !self.hands[to].second_chance,
                    "Second Chance passed from seat {s} to seat {to}, who cannot take it"
                );
                self.hands[s].leave();
                self.hands[to].receive();
                self.hands[to].second_chance = true;
                if O::EVENTS {
                    obs.event(self, Event::SecondChanceGiven { from: s, to });
                }
            }
            None => {
                let eligible =
                    (0..self.players()).any(|o| o != s && self.is_active(o) && !self.hands[o].second_chance);
                assert!(
                    !eligible,
                    "seat {s} discarded a Second Chance that someone could take"
                );
                self.hands[s].leave();
                self.deck.discard(SECOND_CHANCE);
                if O::EVENTS {
                    obs.event(self, Event::SecondChanceDiscarded { seat: s });
                }
            }
        }
    }

    /// `from` assigns a Freeze or Flip Three it holds; the card moves in
    /// front of the target and waits its turn in the pending queue.
    fn assign<C: Chooser, O: Observer<Table>>(&mut self, from: usize, card: Card, ch: &mut C, obs: &mut O) {
        let to = ch.target(self, from, card);
        self.assign_to(from, card, to, obs);
    }

    /// `from` assigns `card` to `to`, as [`Table::assign`] once `to` is chosen.
    #[inline(always)]
    fn assign_to<O: Observer<Table>>(&mut self, from: usize, card: Card, to: usize, obs: &mut O) {
        assert!(
            self.is_active(to),
            "seat {from} assigned {card} to seat {to}, who is out of the round"
        );
        self.hands[from].leave();
        self.hands[to].receive();
        self.pending.push(card, to);
        if O::EVENTS {
            obs.event(self, Event::Assign { from, to, card });
        }
    }

    /// Lets every assigned card take effect in the order assigned. A card
    /// whose target has left the round meanwhile is discarded (FAQ 16a, 16b).
    fn resolve_pending<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        while let Some((card, t)) = self.pending.pop() {
            if !self.is_active(t) {
                self.hands[t].leave();
                self.deck.discard(card);
                if O::EVENTS {
                    obs.event(self, Event::Fizzle { seat: t, card });
                }
                continue;
            }
            if card == FREEZE {
                // The Freeze stays face-up in front of the player (FAQ 4).
                self.set_out(t, Status::Frozen);
                if O::EVENTS {
                    obs.event(self, Event::Frozen { seat: t });
                }
            } else {
                self.flip_three(t, ch, obs, d)?;
            }
        }
        Ok(())
    }

    /// `t` flips three cards, one at a time, stopping at a bust or a Flip 7.
    /// A Second Chance is kept or passed at once (FAQ 23, 24); a Freeze or
    /// Flip Three is set aside and, if `t` is still in afterwards, assigned in
    /// the order flipped (FAQ 14-16). Then the Flip Three is discarded.
    fn flip_three<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        t: usize,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        if O::EVENTS {
            obs.event(self, Event::FlipThreeStart { seat: t });
        }
        self.flip_three_from(t, 1, Aside::default(), ch, obs, d)
    }

    /// Flips `first..=3` of a Flip Three `t` is resolving, with `aside` set
    /// aside so far, then ends it ([`Table::end_flip_three`]).
    fn flip_three_from<C: Chooser, O: Observer<Table>, D: Draw>(
        &mut self,
        t: usize,
        first: u8,
        mut aside: Aside,
        ch: &mut C,
        obs: &mut O,
        d: &mut D,
    ) -> Step {
        for k in first..=3u8 {
            let card = self.next_card(t, Via::FlipThree(k), obs, d)?;
            if card < FREEZE {
                self.add_card(t, card, obs)?;
                if !self.is_active(t) {
                    break; // busted (FAQ 20)
                }
            } else if card == SECOND_CHANCE {
                self.take_second_chance(t, ch, obs);
            } else {
                aside.push(card);
                if O::EVENTS {
                    obs.event(self, Event::SetAside { seat: t, card });
                }
            }
        }
        self.end_flip_three(t, aside.cards(), ch, obs);
        Ok(())
    }

    /// The end of `t`'s Flip Three: the cards it set aside are assigned in
    /// the order flipped if `t` is still in the round, discarded if not;
    /// then the Flip Three itself is discarded.
    fn end_flip_three<C: Chooser, O: Observer<Table>>(&mut self, t: usize, aside: &[Card], ch: &mut C, obs: &mut O) {
        if self.is_active(t) {
            for &c in aside {
                self.assign(t, c, ch, obs);
            }
        } else {
            for &c in aside {
                self.hands[t].leave();
                self.deck.discard(c);
                if O::EVENTS {
                    obs.event(self, Event::Discard { seat: t, card: c });
                }
            }
        }
        self.hands[t].leave();
        self.deck.discard(FLIP_THREE);
        if O::EVENTS {
            obs.event(
                self,
                Event::Discard {
                    seat: t,
                    card: FLIP_THREE,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_word_is_the_first_five_fields() {
        use std::mem::offset_of;
        assert_eq!(
            [
                offset_of!(Hand, numbers),
                offset_of!(Hand, number_sum),
                offset_of!(Hand, plus),
                offset_of!(Hand, count),
                offset_of!(Hand, times2),
            ],
            [0, 2, 4, 6, 7]
        );
        let mut h = Hand {
            numbers: 0b1010_0000_0001,
            number_sum: 11,
            plus: 14,
            count: 3,
            times2: 1,
            second_chance: true,
            flipped: 6,
            ..Hand::default()
        };
        let w = h.tally();
        assert_eq!(w, 0b1010_0000_0001 | 11 << 16 | 14 << 32 | 3 << 48 | 1 << 56);
        // Adding a 4, then a +6 and an x2, through the table.
        h.set_tally(w + CARD_ADDS[4] + CARD_ADDS[usize::from(PLUS2) + 2] + CARD_ADDS[usize::from(TIMES2)]);
        assert_eq!(
            (h.numbers, h.number_sum, h.plus, h.count, h.times2),
            (0b1010_0001_0001, 15, 20, 4, 2)
        );
        // The other fields are untouched.
        assert!(h.second_chance);
        assert_eq!(h.front(), 6);
    }
}
