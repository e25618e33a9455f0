//! Flip 7 cards, the deck composition and the draw and discard piles.
//!
//! A card is one byte naming its kind: `0..=12` are number cards, then the
//! five `+N` modifiers, `x2`, and the three action cards. Piles are counts
//! per kind except the draw pile, an array shuffled when it is formed (a new
//! game, or a reshuffle of the discard pile) and then drawn from its end.

use crate::engine::rng::{Draw, LazyShuffle, Pile};

/// A card kind.
pub type Card = u8;

/// Number of card kinds.
pub const KINDS: usize = 22;
/// Highest number card.
pub const MAX_NUMBER: Card = 12;
/// `+2` modifier (`+4`, `+6`, `+8`, `+10` follow).
pub const PLUS2: Card = 13;
/// `+10` modifier.
pub const PLUS10: Card = 17;
/// `x2` modifier.
pub const TIMES2: Card = 18;
/// Freeze action card.
pub const FREEZE: Card = 19;
/// Flip Three action card.
pub const FLIP_THREE: Card = 20;
/// Second Chance action card.
pub const SECOND_CHANCE: Card = 21;

/// Length of the per-kind count arrays: a power of two at least [`KINDS`],
/// so a card masked with `SLOTS - 1` indexes them without a bounds check.
const SLOTS: usize = 32;

/// Cards in one deck.
pub const DECK_SIZE: usize = 94;
/// Most cards any game uses (two decks, above 18 players).
pub const MAX_CARDS: usize = 2 * DECK_SIZE;
/// Size of the draw-pile array: a power of two above [`MAX_CARDS`], so an
/// index masked with `PILE_SLOTS - 1` is always in bounds (no bounds checks).
const PILE_SLOTS: usize = 256;

/// The first half of a pile's slots: all a single deck uses.
const HALF_PILE: usize = PILE_SLOTS / 2;
const _: () = assert!(PILE_SLOTS == std::mem::size_of::<crate::engine::rng::Pile>());
/// Longest run of one kind (two decks of twelve 12s).
const RUN: usize = 32;
const _: () = assert!(MAX_CARDS + RUN <= PILE_SLOTS);
const _: () = assert!(2 * 12 <= RUN);

/// Whether `c` is a number card.
#[inline]
pub fn is_number(c: Card) -> bool {
    c <= MAX_NUMBER
}

/// Whether `c` is `+2` .. `+10`.
#[inline]
pub fn is_plus(c: Card) -> bool {
    (PLUS2..=PLUS10).contains(&c)
}

/// Points of a `+N` modifier.
#[inline]
pub fn plus_value(c: Card) -> u16 {
    debug_assert!(is_plus(c));
    u16::from(c - MAX_NUMBER) * 2
}

/// The card's name as printed on it (official English names).
pub fn name(c: Card) -> String {
    match c {
        0..=MAX_NUMBER => c.to_string(),
        PLUS2..=PLUS10 => format!("+{}", plus_value(c)),
        TIMES2 => "x2".into(),
        FREEZE => "Freeze".into(),
        FLIP_THREE => "Flip Three".into(),
        SECOND_CHANCE => "Second Chance".into(),
        _ => format!("?{c}"),
    }
}

/// The short names [`parse_card`] accepts, for messages.
pub const SHORT_NAMES: &str = "0 to 12, +2 +4 +6 +8 +10, x2, F (Freeze), F3 (Flip Three), SC (Second Chance)";

/// A card from its short name as the rules documents write them (`12`,
/// `+4`, `x2`, `F`, `F3`, `SC`) or its name on the card (`Freeze`, `Flip
/// Three`, `Second Chance`), in any case.
pub fn parse_card(text: &str) -> Result<Card, String> {
    let t = text.trim();
    let card = match t.to_ascii_lowercase().as_str() {
        "x2" => Some(TIMES2),
        "f" | "freeze" => Some(FREEZE),
        "f3" | "flip three" | "flip-three" => Some(FLIP_THREE),
        "sc" | "second chance" | "second-chance" => Some(SECOND_CHANCE),
        w => match w.strip_prefix('+') {
            Some(v) => match v.parse::<u16>() {
                Ok(p @ (2 | 4 | 6 | 8 | 10)) => Some(MAX_NUMBER + (p / 2) as Card),
                _ => None,
            },
            None => match w.parse::<u8>() {
                Ok(n) if n <= MAX_NUMBER && !w.starts_with('+') => Some(n),
                _ => None,
            },
        },
    };
    card.ok_or_else(|| format!("'{t}' is not a Flip 7 card (accepted: {SHORT_NAMES})"))
}

/// The short name of a card ([`parse_card`] reads it back).
pub fn short_name(c: Card) -> String {
    match c {
        FREEZE => "F".into(),
        FLIP_THREE => "F3".into(),
        SECOND_CHANCE => "SC".into(),
        _ => name(c),
    }
}

/// Card kinds that a house rule can take out of the deck (`--without`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Without {
    /// No Freeze cards.
    pub freeze: bool,
    /// No Flip Three cards.
    pub flip_three: bool,
    /// No Second Chance cards.
    pub second_chance: bool,
    /// No modifiers (`+2` .. `+10`, `x2`).
    pub modifiers: bool,
}

impl Without {
    /// Words accepted by [`Without::parse`].
    pub const ACCEPTED: &'static str = "freeze, flip-three, second-chance, actions (all three), modifiers";

    /// Parses a comma-separated list such as `actions,modifiers`.
    pub fn parse(text: &str) -> Result<Without, String> {
        let mut w = Without::default();
        for word in text.split(',').map(str::trim) {
            match word {
                "freeze" => w.freeze = true,
                "flip-three" => w.flip_three = true,
                "second-chance" => w.second_chance = true,
                "actions" => {
                    w.freeze = true;
                    w.flip_three = true;
                    w.second_chance = true;
                }
                "modifiers" => w.modifiers = true,
                "" => return Err(format!("empty card kind; accepted: {}", Self::ACCEPTED)),
                other => {
                    return Err(format!(
                        "unknown card kind '{other}'; accepted: {}",
                        Self::ACCEPTED
                    ));
                }
            }
        }
        Ok(w)
    }

    /// A short label for file names: `none`, or the removed kinds joined by `+`.
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        if self.freeze && self.flip_three && self.second_chance {
            parts.push("actions");
        } else {
            if self.freeze {
                parts.push("freeze");
            }
            if self.flip_three {
                parts.push("flip-three");
            }
            if self.second_chance {
                parts.push("second-chance");
            }
        }
        if self.modifiers {
            parts.push("modifiers");
        }
        parts.join("+")
    }
}

/// How many cards of each kind a game uses: `decks` full decks less the kinds
/// removed by `without`.
pub fn composition(decks: u8, without: Without) -> [u8; KINDS] {
    let mut c = [0u8; KINDS];
    c[0] = 1;
    for n in 1..=MAX_NUMBER {
        c[n as usize] = n;
    }
    if !without.modifiers {
        for m in PLUS2..=TIMES2 {
            c[m as usize] = 1;
        }
    }
    if !without.freeze {
        c[FREEZE as usize] = 3;
    }
    if !without.flip_three {
        c[FLIP_THREE as usize] = 3;
    }
    if !without.second_chance {
        c[SECOND_CHANCE as usize] = 3;
    }
    for x in &mut c {
        *x *= decks;
    }
    c
}

/// Decks needed for `players` players: two above 18 players.
pub fn decks_for(players: usize) -> u8 {
    if players > 18 { 2 } else { 1 }
}

/// The draw pile, the discard pile and the cards in play (in front of the
/// players or set aside), which together always hold every card of the game.
#[derive(Clone, Debug)]
pub struct Deck {
    pile: [Card; PILE_SLOTS],
    /// The full pile in kind order, copied in by [`Deck::reset`].
    fresh: [Card; PILE_SLOTS],
    len: usize,
    discard: [u8; SLOTS],
    in_play: [u8; SLOTS],
    composition: [u8; KINDS],
    /// Whether [`Deck::reset`] leaves the shuffle to the draws
    /// ([`Deck::shuffle_lazily`]).
    lazy: bool,
    /// Whether the draw pile is still unshuffled, each draw making the
    /// shuffle's next step first.
    pending: bool,
    step: LazyShuffle,
}

/// The cards of `composition` in a pile, in kind order: a fresh deck before
/// its shuffle.
pub fn fresh_pile(composition: &[u8; KINDS]) -> Pile {
    let mut fresh = [0; PILE_SLOTS];
    let mut at = 0;
    for (kind, &count) in composition.iter().enumerate() {
        for _ in 0..count {
            fresh[at] = kind as Card;
            at += 1;
        }
    }
    fresh
}

impl Deck {
    /// A deck of the given composition, all of it in the draw pile, in kind
    /// order (not shuffled: see [`Deck::reset`]).
    pub fn new(composition: [u8; KINDS]) -> Deck {
        let fresh = fresh_pile(&composition);
        Deck {
            pile: fresh,
            fresh,
            len: composition.iter().map(|&c| usize::from(c)).sum(),
            discard: [0; SLOTS],
            in_play: [0; SLOTS],
            composition,
            lazy: false,
            pending: false,
            step: LazyShuffle::default(),
        }
    }

    /// Shuffles a fresh deck card by card, each step made when its card
    /// is drawn ([`Draw::shuffle_step`]), instead of whole at
    /// [`Deck::reset`]. The cards come out in the same order for the same
    /// generator, and a round that draws a few cards of a full deck makes
    /// a few steps, not a whole shuffle. It holds only while nothing else
    /// draws from the generator before the pile is drawn to its end (a
    /// reshuffle comes only then; a new game has a generator of its own),
    /// and no one reads the pile's order ([`Deck::peek`],
    /// [`Deck::draw_order`]): the caller turns it on only for such runs.
    pub fn shuffle_lazily(&mut self, on: bool) {
        self.lazy = on;
    }

    /// A deck whose next draws (with [`crate::engine::rng::Stacked`]) are
    /// `top` in order; the rest of the composition lies below them.
    /// Panics if `top` uses cards the composition does not have.
    pub fn stacked(composition: [u8; KINDS], top: &[Card]) -> Deck {
        let mut rest = composition;
        for &c in top {
            assert!(rest[c as usize] > 0, "stacked deck uses too many of {}", name(c));
            rest[c as usize] -= 1;
        }
        let mut d = Deck::new(composition);
        d.len = 0;
        for (kind, &count) in rest.iter().enumerate() {
            for _ in 0..count {
                d.pile[d.len] = kind as Card;
                d.len += 1;
            }
        }
        for &c in top.iter().rev() {
            d.pile[d.len] = c;
            d.len += 1;
        }
        d
    }

    /// A deck in the middle of a round: `discard` in the discard pile,
    /// `in_play` in front of the players, every other card of the
    /// composition in the draw pile (in kind order). Refuses a kind with
    /// more cards placed than the composition holds.
    pub fn arranged(composition: [u8; KINDS], discard: [u8; KINDS], in_play: [u8; KINDS]) -> Result<Deck, String> {
        let mut d = Deck::new(composition);
        d.len = 0;
        for kind in 0..KINDS {
            let placed = u16::from(discard[kind]) + u16::from(in_play[kind]);
            if placed > u16::from(composition[kind]) {
                return Err(format!(
                    "{placed} cards {} are placed but the deck holds {}",
                    name(kind as Card),
                    composition[kind]
                ));
            }
            for _ in placed..u16::from(composition[kind]) {
                d.pile[d.len] = kind as Card;
                d.len += 1;
            }
            d.discard[kind] = discard[kind];
            d.in_play[kind] = in_play[kind];
        }
        Ok(d)
    }

    /// Puts the draw pile in the order `top_first`, which must hold exactly
    /// its cards.
    pub fn set_draw_order(&mut self, top_first: &[Card]) -> Result<(), String> {
        let mut counts = [0u8; KINDS];
        for &c in top_first {
            if usize::from(c) >= KINDS {
                return Err(format!("card kind {c} does not exist"));
            }
            counts[usize::from(c)] += 1;
        }
        if counts != self.pile_counts() {
            return Err("the order given does not hold the draw pile's cards".into());
        }
        self.len = top_first.len();
        self.pending = false;
        for (i, &c) in top_first.iter().rev().enumerate() {
            self.pile[i] = c;
        }
        Ok(())
    }

    /// Puts every card back into the draw pile and shuffles it (a fresh game).
    pub fn reset<D: Draw>(&mut self, d: &mut D) {
        self.pile = self.fresh;
        self.len = self.composition.iter().map(|&c| usize::from(c)).sum();
        self.discard = [0; SLOTS];
        self.in_play = [0; SLOTS];
        if self.lazy {
            self.pending = true;
            self.step = LazyShuffle::default();
        } else {
            d.shuffle_pile(&mut self.pile, self.len);
        }
    }

    /// [`Deck::reset`] for a deck that shuffles lazily, told its number of
    /// cards (the composition's sum, worked out once by the caller): the
    /// same fresh deck, its first shuffle step to be made at the first draw.
    #[inline]
    pub fn refill_lazily(&mut self, cards: usize) {
        debug_assert!(self.lazy && cards == self.composition.iter().map(|&c| usize::from(c)).sum::<usize>());
        if cards <= HALF_PILE {
            // Only the cards' slots need the fresh order: a fixed half,
            // copied inline rather than by a call to copy the whole.
            self.pile[..HALF_PILE].copy_from_slice(&self.fresh[..HALF_PILE]);
        } else {
            self.pile = self.fresh;
        }
        self.len = cards;
        self.discard = [0; SLOTS];
        self.in_play = [0; SLOTS];
        self.pending = true;
        self.step = LazyShuffle::default();
    }

    /// Cards left in the draw pile.
    #[inline]
    pub fn pile_len(&self) -> usize {
        self.len
    }

    /// Cards of each kind in the draw pile (public knowledge only in total:
    /// a counting player can work this out, but never the order).
    pub fn pile_counts(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for &card in &self.pile[..self.len] {
            c[card as usize] += 1;
        }
        c
    }

    /// The draw pile in the order it will be drawn, top card first (for
    /// the JSON trace: the order is not public at a real table).
    pub fn draw_order(&self) -> Vec<Card> {
        debug_assert!(!self.pending || self.len < 2, "a lazy shuffle's order is not made yet");
        self.pile[..self.len].iter().rev().copied().collect()
    }

    /// Cards of each kind in the discard pile.
    #[inline]
    pub fn discard_counts(&self) -> &[u8; KINDS] {
        self.discard.first_chunk().expect("SLOTS >= KINDS")
    }

    /// Cards of each kind in play (in front of players or set aside).
    #[inline]
    pub fn in_play_counts(&self) -> &[u8; KINDS] {
        self.in_play.first_chunk().expect("SLOTS >= KINDS")
    }

    /// Cards of each kind in the whole game.
    #[inline]
    pub fn composition(&self) -> &[u8; KINDS] {
        &self.composition
    }

    /// Shuffles the discard pile into a new draw pile. Cards in play stay.
    /// Only called when the draw pile is empty.
    pub fn reshuffle<D: Draw>(&mut self, d: &mut D) {
        debug_assert_eq!(self.len, 0);
        self.pending = false;
        // Branch-free: write a fixed run of each kind, then advance by its
        // count (the array has room past MAX_CARDS for the overshoot).
        let mut len = 0;
        for kind in 0..KINDS {
            let count = usize::from(self.discard[kind]);
            let start = len.min(MAX_CARDS);
            let run: &mut [Card; RUN] = (&mut self.pile[start..start + RUN])
                .try_into()
                .expect("RUN cards");
            *run = [kind as Card; RUN];
            len += count.min(RUN);
        }
        self.len = len;
        self.discard = [0; SLOTS];
        d.shuffle_pile(&mut self.pile, len);
    }

    /// Deals the cards left in the draw pile anew: they are put in kind
    /// order, then shuffled. Nothing a player can see changes, and the new
    /// order depends on `d` and on which cards are left, never on their old
    /// order (what look-ahead needs, and what tests of decisions check).
    pub fn shuffle_draw_pile<D: Draw>(&mut self, d: &mut D) {
        let pile = &mut self.pile[..self.len];
        pile.sort_unstable();
        self.pending = false;
        d.shuffle_pile(&mut self.pile, self.len);
    }

    /// Draws the top card of the (shuffled) draw pile into play, or `None`
    /// when the draw pile is empty (the caller decides about reshuffling).
    /// A lazy shuffle ([`Deck::shuffle_lazily`]) makes its step with `d`
    /// first.
    #[inline(always)]
    pub fn draw<D: Draw>(&mut self, d: &mut D) -> Option<Card> {
        if self.len == 0 {
            return None;
        }
        if self.pending {
            if !D::INLINE_STEPS {
                self.shuffle_step(d);
            } else if self.len >= 2 {
                // The step and the draw at once: the pick is drawn and the
                // top card takes its place. Nothing reads a lazy pile above
                // its top, so the top is left as it was.
                let j = d.step_pick(self.len, &mut self.step) & (PILE_SLOTS - 1);
                self.len -= 1;
                let c = self.pile[j];
                self.pile[j] = self.pile[self.len & (PILE_SLOTS - 1)];
                self.in_play[usize::from(c) & (SLOTS - 1)] += 1;
                return Some(c);
            }
        }
        self.len -= 1;
        let c = self.pile[self.len & (PILE_SLOTS - 1)];
        self.in_play[usize::from(c) & (SLOTS - 1)] += 1;
        Some(c)
    }

    /// The lazy shuffle's step before a draw, out of line: whole games never
    /// come here, and their draws stay short.
    #[inline(never)]
    fn shuffle_step<D: Draw>(&mut self, d: &mut D) {
        if self.len >= 2 {
            d.shuffle_step(&mut self.pile, self.len, &mut self.step);
        }
    }

    /// The card [`Deck::draw`] would draw next, without drawing it. No
    /// player can know it: only the cheating `peek` policy asks.
    #[inline]
    pub fn peek(&self) -> Option<Card> {
        debug_assert!(!self.pending || self.len < 2, "a lazy shuffle's next card is not drawn yet");
        (self.len > 0).then(|| self.pile[(self.len - 1) & (PILE_SLOTS - 1)])
    }

    /// Moves one card from play to the discard pile.
    #[inline]
    pub fn discard(&mut self, c: Card) {
        let k = usize::from(c) & (SLOTS - 1);
        debug_assert!(self.in_play[k] > 0);
        self.in_play[k] -= 1;
        self.discard[k] += 1;
    }

    /// Moves every card in play to the discard pile (end of a round).
    pub fn end_round(&mut self) {
        for (d, p) in self.discard.iter_mut().zip(self.in_play.iter_mut()) {
            *d += *p;
            *p = 0;
        }
    }

    /// Checks that every card is in exactly one place: draw pile, discard pile
    /// or in play. Returns a description of the first difference.
    pub fn check_conservation(&self) -> Result<(), String> {
        let pile = self.pile_counts();
        for (k, &pile_k) in pile.iter().enumerate() {
            let total = pile_k + self.discard[k] + self.in_play[k];
            if total != self.composition[k] {
                return Err(format!(
                    "{}: {} in pile + {} discarded + {} in play != {} in the game",
                    name(k as Card),
                    pile_k,
                    self.discard[k],
                    self.in_play[k],
                    self.composition[k]
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Stacked, batch_rng};

    #[test]
    fn deck_has_94_cards_of_the_right_kinds() {
        let c = composition(1, Without::default());
        assert_eq!(c.iter().map(|&x| usize::from(x)).sum::<usize>(), DECK_SIZE);
        assert_eq!(c[..=12].iter().map(|&x| usize::from(x)).sum::<usize>(), 79);
        assert_eq!(c[0], 1);
        assert_eq!(c[1], 1);
        assert_eq!(c[2], 2);
        assert_eq!(c[12], 12);
        for m in PLUS2..=TIMES2 {
            assert_eq!(c[m as usize], 1);
        }
        for a in [FREEZE, FLIP_THREE, SECOND_CHANCE] {
            assert_eq!(c[a as usize], 3);
        }
    }

    #[test]
    fn two_decks_above_18_players() {
        assert_eq!(decks_for(18), 1);
        assert_eq!(decks_for(19), 2);
        let c = composition(2, Without::default());
        assert_eq!(c.iter().map(|&x| usize::from(x)).sum::<usize>(), 2 * DECK_SIZE);
    }

    #[test]
    fn without_removes_kinds() {
        let w = Without::parse("actions,modifiers").unwrap();
        let c = composition(1, w);
        assert_eq!(c.iter().map(|&x| usize::from(x)).sum::<usize>(), 79);
        let w = Without::parse("freeze").unwrap();
        assert_eq!(composition(1, w)[FREEZE as usize], 0);
        assert_eq!(composition(1, w)[FLIP_THREE as usize], 3);
        assert_eq!(w.label(), "freeze");
        let err = Without::parse("jokers").unwrap_err();
        assert!(err.contains("'jokers'") && err.contains("flip-three"), "{err}");
    }

    #[test]
    fn stacked_deck_draws_in_order_and_reshuffles_discards_only() {
        let comp = composition(1, Without::default());
        let mut d = Deck::stacked(comp, &[7, FREEZE, 12]);
        assert_eq!(d.draw(&mut Stacked), Some(7));
        assert_eq!(d.draw(&mut Stacked), Some(FREEZE));
        assert_eq!(d.draw(&mut Stacked), Some(12));
        d.discard(FREEZE);
        d.check_conservation().unwrap();
        while d.draw(&mut Stacked).is_some() {}
        assert_eq!(d.pile_len(), 0);
        d.reshuffle(&mut Stacked);
        assert_eq!(d.pile_len(), 1);
        assert_eq!(d.draw(&mut Stacked), Some(FREEZE));
        d.check_conservation().unwrap();
    }

    #[test]
    fn random_draws_empty_the_pile_exactly() {
        let comp = composition(1, Without::default());
        let mut d = Deck::new(comp);
        let mut rng = batch_rng(3, 9);
        d.reset(&mut rng);
        let mut seen = [0u8; KINDS];
        while let Some(c) = d.draw(&mut rng) {
            seen[c as usize] += 1;
        }
        assert_eq!(seen, comp);
        d.check_conservation().unwrap();
    }

    /// A deck shuffled card by card deals the cards of the same deck
    /// shuffled whole, game after game, and a reshuffle of its discards
    /// finds the generator where the whole shuffle left it.
    #[test]
        fn a_lazily_shuffled_deck_deals_the_cards_of_one_shuffled_whole() {
        for (decks, without) in [(1, "freeze"), (1, "actions,modifiers"), (2, "freeze")] {
            let comp = composition(decks, Without::parse(without).unwrap());
            let (mut whole, mut lazy) = (Deck::new(comp), Deck::new(comp));
            lazy.shuffle_lazily(true);
            let (mut a, mut b) = (batch_rng(5, 1), batch_rng(5, 1));
            for game in 0..50 {
                whole.reset(&mut a);
                lazy.reset(&mut b);
                // Draw the whole pile, discard it, reshuffle, draw on.
                for _ in 0..whole.pile_len() {
                    let (x, y) = (whole.draw(&mut a), lazy.draw(&mut b));
                    assert_eq!(x, y, "{without}, game {game}");
                    whole.discard(x.unwrap());
                    lazy.discard(y.unwrap());
                }
                whole.reshuffle(&mut a);
                lazy.reshuffle(&mut b);
                for _ in 0..game {
                    assert_eq!(whole.draw(&mut a), lazy.draw(&mut b), "{without}, game {game}");
                }
                lazy.check_conservation().unwrap();
            }
        }
    }
}
