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
//! A layer is a list of states packed into one word each, sorted and
//! merged when it is complete (on the full deck 5 to 6 times faster than
//! a hash map of the states: `stay-at-25`'s 9.3 million decisions in 28 s
//! against 85 s, 2026-12-07).

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
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
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
    /// For [`thresholds`], during forced flips (and the deal's): the
    /// banked score where the player last chose to hit, plus one (0: no
    /// choice yet, the deal). 0 in every state where the player decides.
    after: u16,
}

impl State {
    /// The state as one word (every field within its bits: see
    /// [`fits`]).
    fn pack(&self) -> u64 {
        debug_assert!(self.after < 1 << 10 && self.dups < 16 && self.forced < 4 && self.waiting < 8);
        debug_assert!(self.sc_drawn < 8 && self.ft_drawn < 8 && self.fz_drawn < 8);
        u64::from(self.mask)
            | u64::from(self.mods) << 16
            | u64::from(self.after) << 32
            | u64::from(self.dups) << 42
            | u64::from(self.forced) << 46
            | u64::from(self.sc) << 48
            | u64::from(self.sc_drawn) << 49
            | u64::from(self.ft_drawn) << 52
            | u64::from(self.fz_drawn) << 55
            | u64::from(self.waiting) << 58
            | u64::from(self.frozen) << 61
    }

    /// The state [`State::pack`] made `k` of.
    fn unpack(k: u64) -> State {
        let bits = |at: u32, n: u32| ((k >> at) & ((1 << n) - 1)) as u8;
        State {
            mask: k as u16,
            mods: (k >> 16) as u16,
            after: ((k >> 32) & 0x3FF) as u16,
            dups: bits(42, 4),
            forced: bits(46, 2),
            sc: bits(48, 1) != 0,
            sc_drawn: bits(49, 3),
            ft_drawn: bits(52, 3),
            fz_drawn: bits(55, 3),
            waiting: bits(58, 3),
            frozen: bits(61, 1) != 0,
        }
    }

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

/// A layer's states as packed keys ([`State::pack`]) and their chances,
/// sorted and merged once the layer is made: sorting the keys reads and
/// writes memory in order, where a map of millions of states waited on a
/// cache miss at almost every card.
type Layer = Vec<(u64, f64)>;

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
    let mut pmf = vec![0.0f64; max_score(composition) + 1];
    let mut bust = 0.0;
    let mut asked = 0;
    walk(composition, |s, p, drawn, left, next| {
        if left == 0 {
            pmf[s.banked()] += p;
            return;
        }
        if s.forced == 0 && drawn > 0 {
            asked += 1;
            if !hit(&s.decision(composition)) {
                pmf[s.banked()] += p;
                return;
            }
        }
        let mut one = One {
            next,
            pmf: &mut pmf,
            bust: &mut bust,
        };
        draw(composition, s, p / f64::from(left), &mut one);
    });
    pmf[0] += bust;
    (RoundScores { pmf, bust }, asked)
}

/// Walks the round's layers from the deal (the first card is drawn as if
/// hit): `step(s, p, drawn, left, next)` spreads the chance `p` of each
/// state `s` after `drawn` cards, `left` in the pile, over `next`.
fn walk(composition: &[u8; KINDS], mut step: impl FnMut(State, f64, u32, u32, &mut Layer)) {
    assert!(fits(composition), "a deck of at most 7 cards of each action and 3 of each modifier");
    let total: u32 = composition.iter().map(|&c| u32::from(c)).sum();
    let mut layer: Layer = vec![(State::default().pack(), 1.0)];
    let mut drawn = 0u32;
    while !layer.is_empty() {
        let mut next = Layer::with_capacity(4 * layer.len());
        for &(k, p) in &layer {
            step(State::unpack(k), p, drawn, total - drawn, &mut next);
        }
        next.sort_unstable_by_key(|e| e.0);
        next.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
        layer = next;
        drawn += 1;
    }
}

/// Whether every state of a round of `composition` packs into a word
/// ([`State::pack`]): at most 7 Second Chances, Flip Threes and Freezes,
/// 3 of each modifier, 15 duplicates cancelled, banked scores below 1023.
fn fits(composition: &[u8; KINDS]) -> bool {
    let actions = [SECOND_CHANCE, FLIP_THREE, FREEZE].iter().all(|&c| composition[usize::from(c)] < 8);
    let mods = (PLUS2..=TIMES2).all(|c| composition[usize::from(c)] < 4);
    actions && mods && max_score(composition) < 1023
}

/// Where a card drawn takes the round: on to a state, or to its end.
trait Sink {
    /// The round goes on in state `t`, with chance `p`.
    fn on(&mut self, t: State, p: f64);
    /// The round ends scoring `x` (0 for a bust), with chance `p`.
    fn end(&mut self, x: usize, p: f64, bust: bool);
}

/// The sink of one rule's round: the next layer and the scores.
struct One<'a> {
    next: &'a mut Layer,
    pmf: &'a mut [f64],
    bust: &'a mut f64,
}

impl Sink for One<'_> {
    fn on(&mut self, t: State, p: f64) {
        self.next.push((t.pack(), p));
    }
    fn end(&mut self, x: usize, p: f64, bust: bool) {
        if bust {
            *self.bust += p;
        } else {
            self.pmf[x] += p;
        }
    }
}

/// The exact score distributions of a solo round from a fresh deck of
/// `composition` under every threshold at once: `out[t]` is `stay-at-t`'s
/// (hit while the banked score is below `t`), for `t` from 0 to `top`, as
/// [`round`] gives each, from one pass for every [`BLOCK`] thresholds.
///
/// One pass serves many thresholds because the banked score never falls
/// during a round: a state where the player decides, banked `b`, is
/// reached with the same chance under every threshold above `b` (every
/// choice before it was made at a banked score no higher, so it was a hit
/// under each of them), and under a threshold `t` at most `b` it is
/// reached only from a hit made below `t`, and ends there with a stay. So
/// the pass hits while the banked score is below `top`, and every card's
/// outcome counts for the thresholds above the banked score of the hit
/// that drew it (for the forced flips of a Flip Three, of the hit before
/// them), a stay for those up to the banked score where it stays.
pub fn thresholds(composition: &[u8; KINDS], top: usize) -> Vec<RoundScores> {
    (0..=top)
        .step_by(BLOCK)
        .flat_map(|low| thresholds_between(composition, low, (low + BLOCK - 1).min(top)))
        .collect()
}

/// Thresholds a pass of [`thresholds`] serves: the forced flips of a Flip
/// Three are told apart by the banked score of the hit before them, but
/// only within the pass's thresholds. On the full deck, the 26 thresholds
/// to 25 take 184 s and 8.3 GB in passes of 8, 191 s and 15 GB in one
/// (2026-12-07; the stay-at-25 alone, 28 s).
const BLOCK: usize = 8;

/// [`thresholds`] from `low` to `top`: the pass hits below `top`, and a
/// hit below `low` counts as a hit for every threshold served.
fn thresholds_between(composition: &[u8; KINDS], low: usize, top: usize) -> Vec<RoundScores> {
    let xs = max_score(composition) + 1;
    // Changes by threshold: `steps[t * xs + x]` starts (or ends, if
    // negative) a chance of scoring `x` at threshold `t`, and so on up.
    let mut steps = vec![0.0f64; (top + 2) * xs];
    let mut bust_steps = vec![0.0f64; top + 2];
    walk(composition, |s, p, drawn, left, next| {
        // The banked score of the choice that drew this card, plus one
        // (the deal's: 0): the thresholds from here on drew it.
        let from = if s.forced > 0 || drawn == 0 {
            usize::from(s.after)
        } else {
            s.banked() + 1
        };
        let mut many = Many {
            from: from.max(low),
            top,
            xs,
            next,
            steps: &mut steps,
            bust_steps: &mut bust_steps,
        };
        if left == 0 {
            many.end(s.banked(), p, false);
            return;
        }
        draw(composition, s, p / f64::from(left), &mut many);
    });
    let (mut pmf, mut bust) = (vec![0.0f64; xs], 0.0);
    let mut out = Vec::with_capacity(top + 1 - low);
    for t in 0..=top {
        for (p, d) in pmf.iter_mut().zip(&steps[t * xs..(t + 1) * xs]) {
            *p += d;
        }
        bust += bust_steps[t];
        if t >= low {
            // Sums of many small changes: clear what is left of a zero.
            let pmf: Vec<f64> = pmf.iter().map(|&p| if p.abs() < 1e-15 { 0.0 } else { p }).collect();
            out.push(RoundScores { pmf, bust });
        }
    }
    out
}

/// The sink of [`thresholds`]' pass: what a card drawn by a choice made
/// at a banked score below `from` does, for the thresholds `from..=top`.
struct Many<'a> {
    from: usize,
    top: usize,
    xs: usize,
    next: &'a mut Layer,
    steps: &'a mut [f64],
    bust_steps: &'a mut [f64],
}

impl Many<'_> {
    /// Scoring `x` with chance `p` for the thresholds `from..until`.
    fn count(&mut self, x: usize, p: f64, until: usize) {
        self.steps[self.from * self.xs + x] += p;
        self.steps[until * self.xs + x] -= p;
    }
}

impl Sink for Many<'_> {
    fn on(&mut self, mut t: State, p: f64) {
        if t.forced > 0 {
            t.after = self.from as u16;
            self.next.push((t.pack(), p));
            return;
        }
        // The player decides at banked `b`: stays under the thresholds up
        // to `b`, hits under those above it.
        let b = t.banked();
        if b >= self.from {
            self.count(b, p, b.min(self.top) + 1);
        }
        if b < self.top {
            t.after = 0;
            self.next.push((t.pack(), p));
        }
    }
    fn end(&mut self, x: usize, p: f64, bust: bool) {
        self.count(x, p, self.top + 1);
        if bust {
            self.bust_steps[self.from] += p;
            self.bust_steps[self.top + 1] -= p;
        }
    }
}

/// Spreads the chance `each` of every card left (times its copies) from
/// state `s` over the states it leads to, or the scores it ends at.
fn draw(composition: &[u8; KINDS], s: State, each: f64, sink: &mut impl Sink) {
    let in_forced = s.forced > 0;
    // After a card that does not end the round: a forced flip is spent.
    fn go(in_forced: bool, mut t: State, p: f64, sink: &mut impl Sink) {
        if in_forced {
            t.forced -= 1;
            if t.forced == 0 {
                if t.waiting > 0 {
                    t.waiting -= 1;
                    t.forced = 3;
                } else if t.frozen {
                    sink.end(t.banked(), p, false);
                    return;
                }
            }
        }
        sink.on(t, p);
    }
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
            sink.end(t.banked() + usize::from(FLIP7_BONUS), p, false);
        } else {
            go(in_forced, t, p, sink);
        }
    }
    let dup = copies_held - u32::from(s.dups);
    if dup > 0 {
        let p = each * f64::from(dup);
        if s.sc {
            let mut t = s;
            t.sc = false;
            t.dups += 1;
            go(in_forced, t, p, sink);
        } else {
            sink.end(0, p, true);
        }
    }
    // Modifiers.
    for m in 0..MODS {
        let c = composition[usize::from(PLUS2) + m] - s.held(m);
        if c > 0 {
            let mut t = s;
            t.mods += 1 << (2 * m);
            go(in_forced, t, each * f64::from(c), sink);
        }
    }
    // Second Chance: kept, or discarded when one is held.
    let c = composition[usize::from(SECOND_CHANCE)] - s.sc_drawn;
    if c > 0 {
        let mut t = s;
        t.sc_drawn += 1;
        t.sc = true;
        go(in_forced, t, each * f64::from(c), sink);
    }
    // Freeze: banks, or waits behind the forced flips (a second does nothing).
    let c = composition[usize::from(FREEZE)] - s.fz_drawn;
    if c > 0 {
        let p = each * f64::from(c);
        if in_forced {
            let mut t = s;
            t.fz_drawn += 1;
            t.frozen = true;
            go(in_forced, t, p, sink);
        } else {
            sink.end(s.banked(), p, false);
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
            go(in_forced, t, p, sink);
        } else {
            t.forced = 3;
            sink.on(t, p);
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
    fn a_state_packs_into_one_word_and_back() {
        let states = [
            State::default(),
            State {
                mask: 0x1FFF,
                dups: 7,
                mods: 0x0FFF,
                sc: true,
                sc_drawn: 7,
                ft_drawn: 7,
                fz_drawn: 7,
                forced: 3,
                waiting: 7,
                frozen: true,
                after: 1023,
            },
            State {
                mask: 0b1010_0110,
                mods: 0b01_00_10,
                ft_drawn: 2,
                forced: 1,
                after: 17,
                ..State::default()
            },
        ];
        for s in states {
            assert_eq!(State::unpack(s.pack()), s);
        }
    }

    #[test]
    fn every_threshold_at_once_scores_as_each_alone() {
        let numbers = composition(1, Without::parse("actions,modifiers").unwrap());
        for (comp, top, some) in [
            (numbers, 30, &[0, 1, 2, 9, 17, 23, 24, 29, 30][..]),
            (decks()[0], 12, &[0, 7, 8, 12][..]),
            (decks()[1], 12, &[5, 12][..]),
        ] {
            let all = thresholds(&comp, top);
            assert_eq!(all.len(), top + 1);
            for &t in some {
                let (want, _) = round(&comp, |d| usize::from(d.hand.banked()) < t);
                assert!((all[t].bust - want.bust).abs() < 1e-12, "stay-at-{t}");
                assert_eq!(all[t].pmf.len(), want.pmf.len());
                for (x, p) in want.pmf.iter().enumerate() {
                    assert!((all[t].at(x) - p).abs() < 1e-12, "stay-at-{t}, score {x}: {} against {p}", all[t].at(x));
                }
            }
        }
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
