//! The packed state of the search: a hand part, the key of its block of
//! values ([`Part`]); where a card leads ([`Target`]); and the root that
//! keys are relative to, with the tables derived from it ([`Base`]).

use super::Rule;
use super::bounds::{best_numbers, look_ahead};
use super::cuts::Cut;
use super::search::{MAX_FORCED, binomials, inverse_binomials};
use crate::engine::bits::ones;
use crate::games::flip7::cards::{
    FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, PLUS2, SECOND_CHANCE, TIMES2, plus_value,
};
use crate::games::flip7::rules::Hand;

/// Modifier kinds (`+2` .. `+10`, `x2`), indexed by `card - PLUS2`.
const MODS: usize = (TIMES2 - PLUS2) as usize + 1;
/// Most modifiers left in a pile the packed state can count.
pub(super) const MAX_MODS: usize = MODS * MAX_MODS_PER_KIND as usize;
const I_TIMES2: usize = MODS - 1;
pub(super) const NUMBERS: usize = MAX_NUMBER as usize + 1;

/// Most cards of one modifier kind, and of one action kind, that the
/// packed state can count (two decks need 2 and 6).
pub(super) const MAX_MODS_PER_KIND: u8 = 3;
pub(super) const MAX_ACTIONS_PER_KIND: u8 = 6;

/// Everything of a state but the modifiers drawn: one block of values.
/// The fields of its key come first, one byte each but for `mask`, in the
/// order of [`Part::key`], so that the key is one bit extraction from
/// their eight bytes ([`Part::key_as`]). (Packed in two 64-bit words
/// instead, a card's successor made by adding to them: 0.7% fewer
/// instructions on 500 four-player games, seed 11, and no less time; a
/// [`Target`] then takes 24 bytes, and the list of successors twice the
/// memory.)
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Part {
    /// Numbers held (absolute).
    pub(super) mask: u16,
    /// Duplicates cancelled since the root.
    pub(super) dups: u8,
    /// Holds a Second Chance.
    pub(super) sc: bool,
    /// Second Chances drawn since the root.
    pub(super) sc_drawn: u8,
    /// Flip Threes drawn since the root (0 in effective-draw mode).
    pub(super) ft_drawn: u8,
    /// Forced flips left (those of the Flip Three under way and three for
    /// each one waiting); in effective-draw mode, the effective draws
    /// left; 0 when the player decides.
    pub(super) forced: u8,
    /// Effective-draw mode: a Freeze waits behind the forced flips, so
    /// Freezes and Flip Threes are blanks; they are left out of the pile
    /// and `forced` counts the other cards still to draw before banking.
    pub(super) frozen: bool,
    pub(super) sum: u16,
    /// Copies left of the numbers held (the cards that bust).
    pub(super) busts: u16,
    pub(super) count: u8,
}

/// The bits of the first eight bytes of a [`Part`] that make its key.
#[cfg(target_arch = "x86_64")]
const KEY_BITS: u64 = 0x1FFF | 0x7 << 16 | 1 << 24 | 0x7 << 32 | 0xF << 40 | 0x1F << 48 | 1 << 56;

/// The bits of a key that a decision part with no Flip Three drawn keeps:
/// its key in the world without Freezes and Flip Threes.
pub(super) const FREE_KEY_BITS: u64 = (1 << 20) - 1;

impl Part {
    #[inline]
    pub(super) fn key(&self) -> u64 {
        u64::from(self.mask)
            | u64::from(self.dups) << 13
            | u64::from(self.sc) << 16
            | u64::from(self.sc_drawn) << 17
            | u64::from(self.ft_drawn) << 20
            | u64::from(self.forced) << 24
            | u64::from(self.frozen) << 29
    }

    /// [`Part::key`] by one bit extraction, where the processor has the
    /// bit instructions of x86-64-v3 (`WIDE`, see `Search::ensure`). (500
    /// four-player games with one `optimal-round` seat on one thread,
    /// seeds 1 to 10: 16.43 G instructions in all against 16.95 G.)
    #[inline(always)]
    pub(super) fn key_as<const WIDE: bool>(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if WIDE {
            // SAFETY: `Part` is `repr(C)` with its first eight bytes the
            // key fields (no padding: a `u16` and six bytes), and `WIDE` is
            // true only where the processor has BMI2.
            return unsafe {
                let bytes = std::ptr::read_unaligned((self as *const Part).cast::<u64>());
                std::arch::x86_64::_pext_u64(u64::from_le(bytes), KEY_BITS)
            };
        }
        self.key()
    }
}

/// Where a card leads, for every combination of modifiers at once.
#[derive(Clone, Copy, Debug)]
pub(super) enum Target {
    /// A state whose values are a block (the same combination of modifiers).
    Part(Part),
    /// The block already computed.
    Block(u32),
    /// The round ends with a Flip 7 at this number sum.
    Flip7(u16),
    /// The round ends with the player banking this number sum.
    Bank(u16),
    /// The modifier drawn leads to the same hand part (decision states).
    Same,
}

/// What a memo's keys are relative to: the root of the search that started
/// it, and tables derived from it.
#[derive(Clone, Debug, Default)]
pub(super) struct Base {
    pub(super) rule: Option<Rule>,
    pub(super) cut: Cut,
    numbers: u16,
    count: u8,
    plus: u16,
    times2: u8,
    pile: [u8; KINDS],
    /// Copies of each number not held at the root.
    pub(super) copies: [u8; NUMBERS],
    /// Numbers not held at the root with copies left.
    pub(super) avail: u16,
    pub(super) sc: u8,
    pub(super) freeze: u8,
    pub(super) flip_three: u8,
    /// Numbers, Second Chances, Freezes and Flip Threes in the pile.
    others: u16,
    /// Copies left of the numbers held at the root (the cards that bust).
    busts: u16,
    /// Combinations of modifiers drawn: the block size.
    pub(super) size: usize,
    /// Index step of one more modifier of each kind.
    stride: [usize; MODS],
    /// Per combination: `plus` and `times2` of the hand, modifiers left in
    /// all, their `+N` points and `x2` cards.
    pub(super) plus_at: Vec<u16>,
    pub(super) times2_at: Vec<u8>,
    pub(super) mods_left: Vec<u16>,
    pub(super) plus_left: Vec<u16>,
    pub(super) times2_left: Vec<u8>,
    /// Per combination: `2^times2` and `plus`, so that a banked score is
    /// `sum * mult + plus_f` (exact: small integers).
    pub(super) mult: Vec<f64>,
    pub(super) plus_f: Vec<f64>,
    /// Per combination, as `f64` (exact: small integers), for loops
    /// without table lookups: the modifiers left, `2^x2 - 1` for the `x2`
    /// cards left, and the `+N` points left.
    pub(super) mods_left_f: Vec<f64>,
    pub(super) doubling: Vec<f64>,
    pub(super) plus_left_f: Vec<f64>,
    /// Modifier kinds with cards left at the root.
    pub(super) kinds: usize,
    /// Whether each of them has one card (one deck): a combination is
    /// then a bit mask of the kinds drawn, and drawing kind `a` sets bit
    /// `a` (with weight 1; 0 when it is set).
    pub(super) single: bool,
    /// Per such kind and combination: the cards of the kind left (as a
    /// weight) and the combination after drawing one (the same
    /// combination when none is left: the weight is then 0).
    pub(super) mod_weight: Vec<Vec<f64>>,
    pub(super) mod_next: Vec<Vec<u32>>,
    /// Per combination: the sums over the modifier cards left of the
    /// `mult` and `plus_f` after drawing each (the score banked after one
    /// modifier is drawn, summed over them, is `sum * mod_mult + mod_plus`).
    pub(super) mod_mult: Vec<f64>,
    pub(super) mod_plus: Vec<f64>,
    /// What the tables per combination were made for: the hand's `+N`
    /// points and `x2` cards, and the modifiers in the pile (the searches
    /// of one decision, and the decisions of a round until a modifier
    /// shows, share them).
    tables_for: Option<(u16, u8, [u8; MODS])>,
}

impl Base {
    pub(super) fn set(&mut self, rule: Rule, hand: &Hand, pile: &[u8; KINDS], donors: &[Option<&Base>]) {
        self.rule = Some(rule);
        self.numbers = hand.numbers;
        self.count = hand.count;
        self.plus = hand.plus;
        self.times2 = hand.times2;
        self.pile = *pile;
        self.avail = 0;
        for (n, (copies, &c)) in self.copies.iter_mut().zip(pile.iter()).enumerate() {
            *copies = if hand.numbers & (1 << n) != 0 { 0 } else { c };
            if *copies > 0 {
                self.avail |= 1 << n;
            }
        }
        self.busts = numbers_in(hand.numbers).map(|n| u16::from(pile[n])).sum();
        self.sc = pile[SECOND_CHANCE as usize];
        self.freeze = pile[FREEZE as usize];
        self.flip_three = pile[FLIP_THREE as usize];
        self.others = pile[..NUMBERS].iter().map(|&c| u16::from(c)).sum::<u16>()
            + u16::from(self.sc)
            + u16::from(self.freeze)
            + u16::from(self.flip_three);
        let mut mods = [0u8; MODS];
        mods.copy_from_slice(&pile[PLUS2 as usize..PLUS2 as usize + MODS]);
        let key = (hand.plus, hand.times2, mods);
        if self.tables_for == Some(key) {
            return;
        }
        // Another search of the decision has them already: copied. (500
        // four-player games with one `optimal-round` seat on one thread,
        // seeds 1 to 10: 16.95 G instructions in all against 17.03 G.)
        if let Some(from) = donors.iter().flatten().find(|d| d.tables_for == Some(key)) {
            self.copy_tables(from);
            return;
        }
        self.tables_for = Some(key);
        let mut size = 1;
        for j in 0..MODS {
            self.stride[j] = size;
            size *= usize::from(pile[PLUS2 as usize + j]) + 1;
        }
        self.size = size;
        self.plus_at.clear();
        self.times2_at.clear();
        self.mods_left.clear();
        self.plus_left.clear();
        self.times2_left.clear();
        self.mult.clear();
        self.plus_f.clear();
        self.mods_left_f.clear();
        self.doubling.clear();
        self.plus_left_f.clear();
        // Modifier kinds with cards left (no allocation: this runs at every
        // new root).
        let mut kinds = [0usize; MODS];
        self.kinds = 0;
        for j in (0..MODS).filter(|&j| pile[PLUS2 as usize + j] > 0) {
            kinds[self.kinds] = j;
            self.kinds += 1;
        }
        let active = &kinds[..self.kinds];
        self.single = active.iter().all(|&j| pile[PLUS2 as usize + j] == 1);
        if self.mod_weight.len() < MODS {
            self.mod_weight.resize(MODS, Vec::new());
            self.mod_next.resize(MODS, Vec::new());
        }
        for a in 0..self.kinds {
            self.mod_weight[a].clear();
            self.mod_next[a].clear();
        }
        for m in 0..size {
            let mut left = [0u8; MODS];
            let (mut plus, mut plus_left, mut total) = (hand.plus, 0u16, 0u16);
            for j in 0..MODS {
                let have = pile[PLUS2 as usize + j];
                let drawn = ((m / self.stride[j]) % (usize::from(have) + 1)) as u8;
                left[j] = have - drawn;
                total += u16::from(left[j]);
                if j < I_TIMES2 {
                    let v = plus_value(PLUS2 + j as u8);
                    plus += u16::from(drawn) * v;
                    plus_left += u16::from(left[j]) * v;
                }
            }
            let times2 = hand.times2 + pile[TIMES2 as usize] - left[I_TIMES2];
            self.plus_at.push(plus);
            self.times2_at.push(times2);
            self.mods_left.push(total);
            self.plus_left.push(plus_left);
            self.times2_left.push(left[I_TIMES2]);
            self.mult.push(f64::from(1u32 << times2));
            self.plus_f.push(f64::from(plus));
            self.mods_left_f.push(f64::from(total));
            self.doubling.push(f64::from((1u32 << left[I_TIMES2]) - 1));
            self.plus_left_f.push(f64::from(plus_left));
            for (a, &j) in active.iter().enumerate() {
                self.mod_weight[a].push(f64::from(left[j]));
                let next = if left[j] > 0 { m + self.stride[j] } else { m };
                self.mod_next[a].push(next as u32);
            }
        }
        // After the loop: `mult` and `plus_f` of the later combinations.
        self.mod_mult.clear();
        self.mod_plus.clear();
        for m in 0..size {
            let (mut mult, mut plus) = (0.0, 0.0);
            for a in 0..self.kinds {
                let (w, next) = (self.mod_weight[a][m], self.mod_next[a][m] as usize);
                mult += w * self.mult[next];
                plus += w * self.plus_f[next];
            }
            self.mod_mult.push(mult);
            self.mod_plus.push(plus);
        }
    }

    /// The tables per combination of `from` (made for the same modifiers).
    fn copy_tables(&mut self, from: &Base) {
        self.tables_for = from.tables_for;
        self.size = from.size;
        self.stride = from.stride;
        self.kinds = from.kinds;
        self.single = from.single;
        self.plus_at.clone_from(&from.plus_at);
        self.times2_at.clone_from(&from.times2_at);
        self.mods_left.clone_from(&from.mods_left);
        self.plus_left.clone_from(&from.plus_left);
        self.times2_left.clone_from(&from.times2_left);
        self.mult.clone_from(&from.mult);
        self.plus_f.clone_from(&from.plus_f);
        self.mods_left_f.clone_from(&from.mods_left_f);
        self.doubling.clone_from(&from.doubling);
        self.plus_left_f.clone_from(&from.plus_left_f);
        if self.mod_weight.len() < from.mod_weight.len() {
            self.mod_weight.resize(from.mod_weight.len(), Vec::new());
            self.mod_next.resize(from.mod_next.len(), Vec::new());
        }
        for a in 0..from.kinds {
            self.mod_weight[a].clone_from(&from.mod_weight[a]);
            self.mod_next[a].clone_from(&from.mod_next[a]);
        }
        self.mod_mult.clone_from(&from.mod_mult);
        self.mod_plus.clone_from(&from.mod_plus);
    }

    /// The hand part and combination of modifiers of `hand` facing `pile`,
    /// if the state follows from this root by drawing cards.
    pub(super) fn locate(&self, rule: Rule, hand: &Hand, pile: &[u8; KINDS]) -> Option<(Part, usize)> {
        if self.rule != Some(rule) || self.numbers & !hand.numbers != 0 {
            return None;
        }
        let mut drawn = [0u8; KINDS];
        for k in 0..KINDS {
            drawn[k] = self.pile[k].checked_sub(pile[k])?;
        }
        let new = hand.numbers & !self.numbers;
        let mut numbers_drawn = 0u32;
        let mut busts = 0u16;
        for (n, &d) in drawn.iter().enumerate().take(NUMBERS) {
            let held = hand.numbers & (1 << n) != 0;
            if (!held && d > 0) || (new & (1 << n) != 0 && d == 0) {
                return None;
            }
            numbers_drawn += u32::from(d);
            if held {
                busts += u16::from(pile[n]);
            }
        }
        let dups = numbers_drawn - new.count_ones();
        let mut m = 0;
        for j in 0..MODS {
            m += usize::from(drawn[PLUS2 as usize + j]) * self.stride[j];
        }
        if dups > 7
            || drawn[FREEZE as usize] > 0
            || hand.plus != self.plus_at[m]
            || hand.times2 != self.times2_at[m]
        {
            return None;
        }
        let part = Part {
            mask: hand.numbers,
            sum: hand.number_sum,
            count: hand.count,
            busts,
            dups: dups as u8,
            sc: hand.second_chance,
            sc_drawn: drawn[SECOND_CHANCE as usize],
            ft_drawn: drawn[FLIP_THREE as usize],
            forced: 0,
            frozen: false,
        };
        Some((part, m))
    }

    /// Whether `other` has the same root hand and pile: its blocks are
    /// then the same states.
    pub(super) fn same_root(&self, other: &Base) -> bool {
        self.pile == other.pile && self.same_root_but_actions(other)
    }

    /// Whether `other` has the same root hand and the same pile but for
    /// Freezes and Flip Threes: its hand parts and combinations of
    /// modifiers are then keyed and indexed as this memo's.
    pub(super) fn same_root_but_actions(&self, other: &Base) -> bool {
        let same_pile = (0..KINDS)
            .filter(|&k| k != FREEZE as usize && k != FLIP_THREE as usize)
            .all(|k| self.pile[k] == other.pile[k]);
        self.rule.is_some()
            && self.rule == other.rule
            && same_pile
            && (self.numbers, self.count, self.plus, self.times2) == (other.numbers, other.count, other.plus, other.times2)
    }

    /// An estimate of the chance that a player who keeps drawing reaches
    /// `p` from the root: the chance that the cards other than modifiers
    /// drawn first are exactly those that make `p` (its new numbers, its
    /// cancelled duplicates, its Second Chances and Flip Threes), in any
    /// order. It ignores that the player may stop before and, once a
    /// Freeze waits, the Flip Threes drawn: it only decides where a
    /// bounding search stops, never a value.
    #[inline(always)]
    pub(super) fn reach(&self, p: &Part) -> f64 {
        let binom = binomials();
        let new = p.mask & !self.numbers;
        let mut ways = 1.0;
        let mut busts = self.busts;
        for n in numbers_in(new) {
            ways *= f64::from(self.copies[n]);
            busts += u16::from(self.copies[n]) - 1;
        }
        let take = |n: u16, k: u8| binom[usize::from(n)][usize::from(k).min(MAX_FORCED)];
        ways *= take(busts, p.dups) * take(u16::from(self.sc), p.sc_drawn) * take(u16::from(self.flip_three), p.ft_drawn);
        let drawn = new.count_ones() as usize + usize::from(p.dups) + usize::from(p.sc_drawn) + usize::from(p.ft_drawn);
        ways * inverse_binomials()[usize::from(self.others)][drawn.min(MAX_FORCED)]
    }

    /// Cards left that are not modifiers and count for `p`: all of them;
    /// in effective-draw mode, all but Freezes and Flip Threes.
    #[inline]
    pub(super) fn others_left(&self, p: &Part) -> u16 {
        let drawn = u16::from(p.count - self.count) + u16::from(p.dups) + u16::from(p.sc_drawn);
        if p.frozen {
            self.others - u16::from(self.freeze) - u16::from(self.flip_three) - drawn
        } else {
            self.others - drawn - u16::from(p.ft_drawn)
        }
    }

    #[inline]
    pub(super) fn banked(&self, sum: u16, m: usize) -> f64 {
        f64::from(sum) * self.mult[m] + self.plus_f[m]
    }

    /// [`look_ahead`] of decision part `p` (held with no Second Chance).
    #[inline(always)]
    pub(super) fn look_ahead(&self, p: &Part) -> u32 {
        look_ahead(self.avail & !p.mask, &self.copies, u32::from(p.count), u32::from(p.busts), u32::from(p.sum))
    }

    /// The best score still reachable from `p`: its numbers and the best
    /// ones left, doubled by every `x2`, plus every `+N` and the Flip 7
    /// bonus if seven numbers can be reached. The same for every
    /// combination of modifiers: those drawn and those left add up to the
    /// root's pile.
    #[inline(always)]
    pub(super) fn best(&self, p: &Part) -> f64 {
        let (top, bonus) = best_numbers(self.avail & !p.mask, p.count);
        f64::from(
            ((u32::from(p.sum) + top) << (self.times2_at[0] + self.times2_left[0]))
                + u32::from(self.plus_at[0] + self.plus_left[0])
                + bonus,
        )
    }
}

/// The numbers in the mask `bits`, from the lowest.
#[inline]
pub(super) fn numbers_in(bits: u16) -> impl Iterator<Item = usize> {
    ones(u64::from(bits)).map(|n| n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::cards::{Without, composition};

    #[test]
    fn tables_copied_from_another_search_are_the_tables_made_afresh() {
        // Every table per combination of modifiers that `Base::set` makes
        // is one `copy_tables` copies: the two roots print the same, with
        // one deck (a bit per kind) and two (counts per kind), modifiers in
        // hand or not.
        for decks in [1, 2] {
            let pile = composition(decks, Without::default());
            for hand in [Hand::holding(&[3, 7], 0, 0, false), Hand::holding(&[5], 6, 1, true)] {
                let mut made = Base::default();
                made.set(Rule::Optimal, &hand, &pile, &[]);
                let mut copied = Base::default();
                copied.set(Rule::Optimal, &hand, &pile, &[Some(&made)]);
                assert!(made.size > 1);
                assert_eq!(format!("{copied:?}"), format!("{made:?}"));
            }
        }
    }
}
