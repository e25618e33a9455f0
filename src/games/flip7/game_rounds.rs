//! The exact distribution of a solo round's score from a fresh deck of any
//! composition (number cards, modifiers and action cards), under any Hit or
//! Stay rule: the round of the independent-rounds model of the game
//! ([`super::game_solve`]) on the full deck.
//!
//! # The round
//!
//! The player is alone in the round, as in `sim flip7 solve` and the
//! round-optimum engine ([`super::optimal`], whose model this follows card
//! for card):
//!
//! - the first card is dealt (no choice), then the player hits or stays;
//! - a new number is added, a seventh different number is a Flip 7 (the
//!   round ends, 15 more, not doubled); a duplicate spends the Second
//!   Chance held (both discarded) or busts (0 points);
//! - modifiers add, `x2` doubles the number sum (two of them: four times);
//! - a Second Chance is kept when none is held, else discarded;
//! - a Freeze ends the round, banked; a Flip Three makes the player flip
//!   three cards, stopping at a bust or a Flip 7, a Second Chance kept at
//!   once, a Freeze or Flip Three set aside; the set-aside cards then act
//!   in the order flipped: a Flip Three flips three more, a Freeze banks,
//!   and every card set aside behind a Freeze does nothing (FAQ 16a);
//! - the pile running out banks (it never does from a fresh deck).
//!
//! # How
//!
//! Every card drawn takes the round one card further, so the states after
//! `k` cards are one layer: the layers are walked in order, each state's
//! chance spread over the cards it may draw next. A state holds what
//! decides every later chance and the score: the numbers held, how many
//! duplicates a Second Chance cancelled (which one does not matter, see
//! [`super::optimal`]), the modifiers held, the Second Chances, Flip Threes
//! and Freezes drawn, whether a Second Chance is held, and during forced
//! flips the flips left, the Flip Threes waiting and whether a Freeze
//! waits. The rule is asked once at each state where the player decides.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::cards::{Card, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, PLUS2, SECOND_CHANCE, TIMES2, plus_value};
use super::game_solve::RoundScores;
use super::rules::{FLIP7_BONUS, FLIP7_CARDS, Hand};

const NUMBERS: usize = MAX_NUMBER as usize + 1;
/// Modifier kinds (`+2` .. `+10`, `x2`).
const MODS: usize = (TIMES2 - PLUS2) as usize + 1;

/// Where the player decides: the hand and the cards left in the pile.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    /// The cards held (numbers, modifiers, a Second Chance).
    pub hand: Hand,
    /// Cards of each kind in front of the player.
    pub in_play: [u8; KINDS],
    /// Cards of each kind gone to the discard pile this round.
    pub discard: [u8; KINDS],
    /// Cards of each kind still in the draw pile.
    pub unseen: [u8; KINDS],
}

/// One state of the round (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
struct State {
    mask: u16,
    dups: u8,
    /// Modifiers held: 2 bits a kind.
    mods: u16,
    sc: bool,
    sc_drawn: u8,
    ft_drawn: u8,
    fz_drawn: u8,
    /// Forced flips left of the Flip Three under way (0: the player decides).
    forced: u8,
    /// Flip Threes waiting, none behind a Freeze.
    waiting: u8,
    /// A Freeze waits behind the forced flips.
    frozen: bool,
}

impl State {
    fn held(&self, m: usize) -> u8 {
        ((self.mods >> (2 * m)) & 3) as u8
    }

    fn number_sum(&self) -> u16 {
        (0..NUMBERS as u16).filter(|n| self.mask & (1 << n) != 0).sum()
    }

    fn banked(&self) -> usize {
        let plus: u16 = (0..MODS - 1)
            .map(|m| plus_value(PLUS2 + m as Card) * u16::from(self.held(m)))
            .sum();
        usize::from((self.number_sum() << self.held(MODS - 1)) + plus)
    }

    /// The duplicates cancelled, as cards of held numbers (each as many as
    /// its copies allow, the lowest numbers first: which does not matter).
    fn cancelled(&self, composition: &[u8; KINDS]) -> [u8; NUMBERS] {
        let mut out = [0u8; NUMBERS];
        let mut left = self.dups;
        for n in (0..NUMBERS).filter(|&n| self.mask & (1 << n) != 0) {
            let take = left.min(composition[n].saturating_sub(1));
            out[n] = take;
            left -= take;
        }
        out
    }

    fn decision(&self, composition: &[u8; KINDS]) -> Decision {
        let numbers: Vec<Card> = (0..=MAX_NUMBER).filter(|&n| self.mask & (1 << n) != 0).collect();
        let plus = (0..MODS - 1)
            .map(|m| plus_value(PLUS2 + m as Card) * u16::from(self.held(m)))
            .sum();
        let hand = Hand::holding(&numbers, plus, self.held(MODS - 1), self.sc);
        let mut in_play = [0u8; KINDS];
        let mut discard = [0u8; KINDS];
        for &n in &numbers {
            in_play[usize::from(n)] = 1;
        }
        discard[..NUMBERS].copy_from_slice(&self.cancelled(composition));
        for m in 0..MODS {
            in_play[usize::from(PLUS2) + m] = self.held(m);
        }
        in_play[usize::from(SECOND_CHANCE)] = u8::from(self.sc);
        discard[usize::from(SECOND_CHANCE)] = self.sc_drawn - u8::from(self.sc);
        discard[usize::from(FLIP_THREE)] = self.ft_drawn;
        discard[usize::from(FREEZE)] = self.fz_drawn;
        let mut unseen = *composition;
        for k in 0..KINDS {
            unseen[k] -= in_play[k] + discard[k];
        }
        let front = in_play.iter().sum::<u8>();
        Decision {
            hand: hand.in_front(super::rules::Status::Active, front),
            in_play,
            discard,
            unseen,
        }
    }
}

/// A multiplicative hash of a state's bytes (the keys are small and
/// well spread; the standard hasher costs more than the rest of a step).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u8(b);
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u16(&mut self, v: u16) {
        self.0 = (self.0.rotate_left(16) ^ u64::from(v)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Layer = HashMap<State, f64, BuildHasherDefault<Mix>>;

/// The largest score a round of `composition` can make.
pub fn max_score(composition: &[u8; KINDS]) -> usize {
    // The seven highest numbers held, every modifier, the bonus.
    let top: u16 = (0..=MAX_NUMBER as u16)
        .rev()
        .filter(|&n| composition[usize::from(n)] > 0)
        .take(FLIP7_CARDS as usize)
        .sum();
    let plus: u16 = (PLUS2..TIMES2)
        .map(|m| plus_value(m) * u16::from(composition[usize::from(m)]))
        .sum();
    usize::from((top << composition[usize::from(TIMES2)].min(3)) + plus + FLIP7_BONUS)
}

/// The exact distribution of the score of a solo round from a fresh deck
/// of `composition` when the player hits exactly where `hit` says, asked
/// once at every state where the player decides. Also returns how many
/// such states were asked.
pub fn round(composition: &[u8; KINDS], mut hit: impl FnMut(&Decision) -> bool) -> (RoundScores, usize) {
    let total: u32 = composition.iter().map(|&c| u32::from(c)).sum();
    let mut pmf = vec![0.0f64; max_score(composition) + 1];
    let mut bust = 0.0;
    let mut asked = 0;
    // The deal: the first card is drawn as if hit.
    let mut layer: Layer = Layer::default();
    layer.insert(State::default(), 1.0);
    let mut drawn = 0u32;
    while !layer.is_empty() {
        let mut next = Layer::default();
        let left = total - drawn;
        for (s, p) in layer.drain() {
            if left == 0 {
                pmf[s.banked()] += p;
                continue;
            }
            if s.forced == 0 && drawn > 0 {
                asked += 1;
                if !hit(&s.decision(composition)) {
                    pmf[s.banked()] += p;
                    continue;
                }
            }
            draw(composition, s, p / f64::from(left), &mut next, &mut pmf, &mut bust);
        }
        layer = next;
        drawn += 1;
    }
    pmf[0] += bust;
    (RoundScores { pmf, bust }, asked)
}

/// Spreads the chance `each` of every card left (times its copies) from
/// state `s` over the states it leads to, or the scores it ends at.
fn draw(composition: &[u8; KINDS], s: State, each: f64, next: &mut Layer, pmf: &mut [f64], bust: &mut f64) {
    let in_forced = s.forced > 0;
    // After a card that does not end the round: a forced flip is spent.
    let mut go = |mut t: State, p: f64, pmf: &mut [f64]| {
        if in_forced {
            t.forced -= 1;
            if t.forced == 0 {
                if t.waiting > 0 {
                    t.waiting -= 1;
                    t.forced = 3;
                } else if t.frozen {
                    pmf[t.banked()] += p;
                    return;
                }
            }
        }
        *next.entry(t).or_insert(0.0) += p;
    };
    // Numbers.
    let mut copies_held = 0u32;
    for (n, &c) in composition.iter().enumerate().take(NUMBERS) {
        if c == 0 {
            continue;
        }
        if s.mask & (1 << n) != 0 {
            copies_held += u32::from(c - 1);
            continue;
        }
        let p = each * f64::from(c);
        let mut t = s;
        t.mask |= 1 << n;
        if t.mask.count_ones() >= FLIP7_CARDS {
            pmf[t.banked() + usize::from(FLIP7_BONUS)] += p;
        } else {
            go(t, p, pmf);
        }
    }
    let dup = copies_held - u32::from(s.dups);
    if dup > 0 {
        let p = each * f64::from(dup);
        if s.sc {
            let mut t = s;
            t.sc = false;
            t.dups += 1;
            go(t, p, pmf);
        } else {
            *bust += p;
        }
    }
    // Modifiers.
    for m in 0..MODS {
        let c = composition[usize::from(PLUS2) + m] - s.held(m);
        if c > 0 {
            let mut t = s;
            t.mods += 1 << (2 * m);
            go(t, each * f64::from(c), pmf);
        }
    }
    // Second Chance: kept, or discarded when one is held.
    let c = composition[usize::from(SECOND_CHANCE)] - s.sc_drawn;
    if c > 0 {
        let mut t = s;
        t.sc_drawn += 1;
        t.sc = true;
        go(t, each * f64::from(c), pmf);
    }
    // Freeze: banks, or waits behind the forced flips (a second does nothing).
    let c = composition[usize::from(FREEZE)] - s.fz_drawn;
    if c > 0 {
        let p = each * f64::from(c);
        if in_forced {
            let mut t = s;
            t.fz_drawn += 1;
            t.frozen = true;
            go(t, p, pmf);
        } else {
            pmf[s.banked()] += p;
        }
    }
    // Flip Three: three forced flips, or waits (nothing behind a Freeze).
    let c = composition[usize::from(FLIP_THREE)] - s.ft_drawn;
    if c > 0 {
        let p = each * f64::from(c);
        let mut t = s;
        t.ft_drawn += 1;
        if in_forced {
            if !t.frozen {
                t.waiting += 1;
            }
            go(t, p, pmf);
        } else {
            t.forced = 3;
            *next.entry(t).or_insert(0.0) += p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::cards::{Without, composition};
    use crate::games::flip7::game_solve::NumberDeck;
    use crate::games::flip7::optimal::{self, Memo, Rule};
    use crate::games::flip7::solve;

    #[test]
    fn the_number_cards_alone_give_the_number_decks_rounds() {
        let comp = composition(1, Without::parse("actions,modifiers").unwrap());
        let deck = NumberDeck::new(&comp).unwrap();
        for n in [1u16, 15, 25, 40] {
            let (r, _) = round(&comp, |d| d.hand.banked() < n);
            let sum = |m: u16| (0..13u16).filter(|b| m & (1 << b) != 0).sum::<u16>();
            let want = deck.round(|m| sum(m) < n);
            assert!((r.bust - want.bust).abs() < 1e-12, "stay-at-{n}");
            for (x, p) in want.pmf.iter().enumerate() {
                assert!((r.at(x) - p).abs() < 1e-12, "stay-at-{n}, score {x}");
            }
        }
    }

    /// Decks the solver handles in seconds: modifiers, Second Chances and
    /// Freezes; and the action cards with the numbers, Flip Three's forced
    /// flips among them. (The full deck gives the same agreement, 20.2976
    /// for the optimum, in minutes.)
    fn decks() -> [[u8; KINDS]; 2] {
        [
            composition(1, Without::parse("flip-three").unwrap()),
            composition(1, Without::parse("modifiers").unwrap()),
        ]
    }

    #[test]
    fn a_threshold_scores_what_the_solver_says() {
        for comp in decks() {
            for n in [10u16, 25] {
                let (r, _) = round(&comp, |d| d.hand.banked() < n);
                let want = solve::threshold(&comp, n).unwrap();
                assert!((r.mean() - want).abs() < 1e-9, "stay-at-{n}: {} against {want}", r.mean());
                assert!((r.pmf.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_optimal_rule_scores_the_optimum() {
        for comp in decks() {
            let mut memo = Memo::new();
            // The fresh deck first: every later state follows from it, so
            // the memo answers them.
            optimal::evaluate(&Hand::default(), &comp, true, Rule::Optimal, &mut memo);
            let (r, _) = round(&comp, |d| {
                optimal::evaluate(&d.hand, &d.unseen, true, Rule::Optimal, &mut memo).hits()
            });
            let want = solve::optimal(&comp).unwrap().optimal;
            assert!((r.mean() - want).abs() < 1e-9, "{} against {want}", r.mean());
        }
    }
}
