//! The bounding searches of [`decide`](super::decide): where they stop
//! ([`Cut`], [`REACH`]) and the bounds of the values they take there.

use super::bounds::{Prophet, prophet_bound};
use super::memo::Memo;
use super::search::{MAX_FORCED, Search, binomials, inverse_binomials};
use super::state::{Base, FREE_KEY_BITS, MAX_MODS, Part, numbers_in};
use crate::games::flip7::rules::{FLIP7_BONUS, FLIP7_CARDS};

/// Whether a search is exact or stops early with bounds of the values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Cut {
    /// Every state reachable is computed.
    #[default]
    Exact,
    /// The hand parts less likely than the [`threshold`] of this grid
    /// index (a level of [`REACH`] at the multiples of 8) take a lower
    /// bound of their values.
    Lower(u8),
    /// They take an upper bound.
    Upper(u8),
}

/// Where the bounding searches stop, from the cheapest: at the hand parts
/// whose chance to be reached ([`Base::reach`](super::state::Base::reach))
/// is below this (a decade apart). The exact search after the second or
/// third level, not the last, computed 2.0 and 1.6 times as many states
/// in 200 four-player games (seed 8): the few decisions that go that
/// deep, near a tie, cost less through the finer bounding searches than
/// through the exact one. A sixth level (1e-7) before the exact search
/// took more: 16.10 G instructions against 16.05 G on 500 four-player
/// games with one `optimal-round` seat, seeds 1 to 10 (all of it on the
/// one seed with a search that deep).
pub(super) const REACH: [f64; 5] = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6];

/// Steps of a threshold between two of [`REACH`]: an eighth of a decade
/// each (`10^(-k/8)`).
pub(super) const EIGHTHS: [f64; 8] = [
    1.0,
    0.749_894_209_332_455_9,
    0.562_341_325_190_349_1,
    0.421_696_503_428_582_2,
    0.316_227_766_016_837_94,
    0.237_137_370_566_165_5,
    0.177_827_941_003_892_3,
    0.133_352_143_216_332_4,
];

/// The grid index of level `level` of [`REACH`] (the cut of a bounding
/// search is a grid index in eighths of a decade).
pub(super) const fn grid(level: usize) -> u8 {
    (8 * level) as u8
}

/// The threshold of grid index `g`: [`REACH`] at `g / 8`, made finer by
/// `g % 8` eighths of a decade.
#[inline]
pub(super) fn threshold(g: u8) -> f64 {
    let g = usize::from(g);
    REACH[g / 8] * EIGHTHS[g % 8]
}

/// The gain in points that a decision part of chance [`REACH`] may still
/// bring for a bounding search to stop there (see
/// [`Search::cut_here`]). Of 5, 10, 20 and 40 points, 20 took the fewest
/// instructions on 200 two-player games (5.94 G against 6.20 G without).
/// With [`FORCED`] 2, on 200 games at two and four players: seeds 7 and 8,
/// 5.526 G, 5.325 G, 5.257 G, 5.351 G and 5.712 G with 15, 20, 26, 32 and
/// 40; seeds 9 and 10, 4.927 G, 4.843 G and 4.753 G with 20, 26 and 32.
/// Later, seeds 7 and 8: 20 or 34 alone in the round (26 at a table),
/// 5.000 G and 5.026 G, and at a table (26 alone), 4.987 G and 5.091 G,
/// against 4.946 G. Later still, on 500 four-player games with one
/// `optimal-round` seat, seeds 1 to 10: 16.19 G, 16.26 G and 16.21 G with
/// 22, 26 and 31 (and [`FORCED`] 1.6 and 2.5: 16.21 G and 16.18 G), within
/// the spread of the seeds.
pub(super) const GAIN: f64 = 26.0;

/// During forced flips (and where the prophet bound of a decision part is
/// not known), a bounding search stops where the chance to reach the part
/// is below its [`threshold`] times this. (With [`GAIN`] 20, on 200 games
/// at two and four players, seeds 7 and 8: 5.547 G instructions in all
/// with 1, 5.393 G, 5.349 G, 5.318 G, 5.274 G, 5.550 G, 5.484 G and
/// 6.288 G with 1.5, 1.8, 2, 2.2, 2.8, 4 and 8, and 6.284 G with 0.5;
/// seeds 9 and 10, 5.161 G with 1, 4.921 G with 2 and 4.928 G with 2.2.)
pub(super) const FORCED: f64 = 2.0;

impl Search<'_> {
    /// The modifier-free parts of the prophet bound of decision part `p`
    /// (see [`prophet_bound`]).
    #[inline(always)]
    pub(super) fn prophet(&self, p: &Part) -> Prophet {
        let b = &self.memo.base;
        prophet_bound(
            b.avail & !p.mask,
            &b.copies,
            u32::from(p.count),
            u32::from(p.busts),
            p.sc,
            u32::from(b.sc - p.sc_drawn),
        )
    }

    /// Whether a bounding search stops at `p`: where the chance to reach it
    /// is below the search's [`threshold`], scaled at a decision part by what
    /// the part can still gain, if its prophet bound `pr` is known.
    ///
    /// At a decision part the value (without modifiers drawn since the
    /// root) lies between the score banked and the prophet's value of
    /// hitting, and so do both bounds taken there: stopping costs at most
    /// the chance to get there times that gain. The search stops where
    /// that product is below the threshold times [`GAIN`]. (The gain over
    /// the better of staying and hitting once, rather than over staying,
    /// cost more: 5.773 G against 5.263 G on the runs of [`GAIN`]. So did
    /// stopping where the last lower and upper searches' values are
    /// within the threshold times 1 to 60 points, taking theirs. So did
    /// stopping along the combinations of modifiers: at a decision part
    /// that would stop with a tenth of its chance, only the root's
    /// combination worked out from the successors and the others taking
    /// the bounds of a stop, 10.58 G against 7.98 G on 500 four-player
    /// games with one `optimal-round` seat, seeds 1 to 5; with a half and
    /// 0.9 of the chance, 8.39 G and 8.06 G. A modifier comes about one
    /// card in ten, at every decision part on the way: the other
    /// combinations weigh too much for such loose bounds.)
    #[inline(always)]
    pub(super) fn cut_here(&self, p: &Part, pr: Option<&Prophet>, reach: f64) -> bool {
        let (Cut::Lower(l) | Cut::Upper(l)) = self.cut else {
            return false;
        };
        let b = &self.memo.base;
        debug_assert_eq!(self.threshold, threshold(l));
        let threshold = self.threshold;
        match pr {
            Some(pr) if p.forced == 0 => {
                let banked = b.banked(p.sum, 0);
                let cards = f64::from(b.others_left(p) + b.mods_left[0]);
                let bust = if p.sc { 0.0 } else { f64::from(p.busts) };
                let hit = pr.value_at(p.sum, b, 0) - banked * bust / cards;
                reach * (hit - banked).max(0.0) < threshold * GAIN
            }
            _ => reach < threshold * FORCED,
        }
    }

    /// Caps the upper bounds in block `id` by `free`, the values of the
    /// same state in the world without Freezes and Flip Threes (see
    /// [`free_block`]), which bound them from above: a player there can
    /// play as any player here does, drawing the places of the missing
    /// cards at random, so it scores at least as much (see
    /// [`decide`](super::decide)).
    #[inline(always)]
    pub(super) fn cap_by_free(&mut self, id: u32, free: Option<&[f64]>) {
        let Some(free) = free else { return };
        let size = self.memo.base.size;
        let at = id as usize * size;
        for (o, &f) in self.memo.arena[at..at + size].iter_mut().zip(free) {
            *o = o.min(f);
        }
    }


    /// The prophet bound of `p`, kept in `known` (worked out if `None`).
    /// (Not `Option::get_or_insert_with`: that was compiled out of line,
    /// so only for any x86-64; see `Search::ensure`.)
    #[inline(always)]
    pub(super) fn prophet_of(&self, p: &Part, known: &mut Option<Prophet>) -> Prophet {
        match *known {
            Some(pr) => pr,
            None => {
                let pr = self.prophet(p);
                *known = Some(pr);
                pr
            }
        }
    }

    /// Fills block `id` of `p` with bounds of its values: below, the
    /// better of staying and hitting once where the player decides, and
    /// during forced flips the score of the draws that cannot hurt; above,
    /// the prophet bound (see [`decide`](super::decide)).
    /// `known`: the prophet bound of `p` if already computed.
    #[inline(always)]
    pub(super) fn leaf(&mut self, p: &Part, id: u32, known: &mut Option<Prophet>) {
        let pr = match self.cut {
            Cut::Upper(_) => self.prophet_of(p, known),
            _ => Prophet::default(),
        };
        let decides = p.forced == 0 && !p.frozen;
        // What hitting loses below the prophet bound, times the cards
        // left and one fewer (see `bounds::look_ahead`).
        let loses = if decides && !p.sc && matches!(self.cut, Cut::Upper(_)) {
            f64::from(self.memo.base.look_ahead(p))
        } else {
            0.0
        };
        let forced = if decides { 3 } else { usize::from(p.forced) };
        let b = &self.memo.base;
        let ft_left = if p.frozen {
            0
        } else {
            u16::from(b.flip_three - p.ft_drawn)
        };
        // The upper bound needs neither the draws that cannot hurt nor the
        // numbers not held one by one; the lower bound needs the draws
        // only during forced flips, or for a Flip Three drawn next.
        let lower = matches!(self.cut, Cut::Lower(_));
        let survive = if lower && (!decides || ft_left > 0) {
            self.survive_poly(p, forced)
        } else {
            [0.0; MAX_FORCED + 1]
        };
        let (binom, inverse) = (binomials(), inverse_binomials());
        let others = b.others_left(p);
        let sc_left = u16::from(b.sc - p.sc_drawn);
        let singles = sc_left + if p.frozen { 0 } else { u16::from(b.freeze) };
        let good = |ones: usize, f: usize| good_draws(&binom[ones], &survive, f);
        // Their chance, for up to `flips` flips from `cards` cards.
        let safe = |cards: u16, ones: u16, flips: usize| {
            let n = usize::from(cards);
            let f = flips.min(n);
            good(usize::from(ones), f) * inverse[n][f]
        };
        let not_held = b.avail & !p.mask;
        // A new number drawn at a decision: the cards and the sum of the
        // number sums they lead to, and the Flip 7 bonus they bring.
        // During forced flips of a lower bound, weighted[k]: the sum over
        // numbers not held of value * copies * good draws of `k` other
        // cards (the polynomial without it).
        let (mut new_cards, mut new_sums) = (0.0, 0.0);
        let mut weighted = [0.0; MAX_FORCED + 1];
        let weigh = !decides && lower;
        for n in numbers_in(if lower { not_held } else { 0 }) {
            let c = f64::from(b.copies[n]);
            new_cards += c;
            new_sums += c * (f64::from(p.sum) + n as f64);
            if weigh {
                let mut without = [0.0; MAX_FORCED + 1];
                // survive = without * (1 + c x): divide.
                without[0] = survive[0];
                for d in 1..forced {
                    without[d] = survive[d] - c * without[d - 1];
                }
                for (w, x) in weighted.iter_mut().zip(&without) {
                    *w += n as f64 * c * x;
                }
            }
        }
        let flip7 = if u32::from(p.count) + 1 >= FLIP7_CARDS {
            new_cards * f64::from(FLIP7_BONUS)
        } else {
            0.0
        };
        // Cards after which a hit then stay banks the same score.
        let keep = f64::from(sc_left) + f64::from(b.freeze) + if p.sc { f64::from(p.busts) } else { 0.0 };
        // What depends on the combination of modifiers only through the
        // modifiers left (`v`) is worked out once per count.
        let most = usize::from(b.mods_left[0]);
        let at = id as usize * b.size;
        let out = &mut self.memo.arena[at..at + b.size];
        let sum = f64::from(p.sum);
        match self.cut {
            Cut::Lower(_) if decides => {
                // Hitting once and then staying (or staying now).
                let parts = (new_sums, new_cards, flip7, keep);
                if ft_left == 0 && others > 0 {
                    // No Flip Three (its term would be 0) and a card left
                    // for every combination: no lookups by index.
                    let others = f64::from(others);
                    hit_then_stay_values(b, sum, parts, out, |acc, _, _| acc, |left, _| 1.0 / (others + left));
                } else {
                    // Per count of modifiers left: one over the cards left
                    // (0 for none: the player stays), and the chance that
                    // a Flip Three drawn then flips three cards that cannot
                    // hurt (0 without one: adding 0 changes no bit).
                    let mut safe3 = [0.0; MAX_MODS + 1];
                    let mut per_card = [0.0; MAX_MODS + 1];
                    for (v, (s, per)) in safe3.iter_mut().zip(&mut per_card).enumerate().take(most + 1) {
                        let cards = others + v as u16;
                        if cards > 0 {
                            *per = 1.0 / f64::from(cards);
                            if ft_left > 0 {
                                *s = f64::from(ft_left) * safe(cards - 1, singles + v as u16, 3);
                            }
                        }
                    }
                    hit_then_stay_values(
                        b,
                        sum,
                        parts,
                        out,
                        |acc, banked, left| acc + banked * safe3[usize::from(left)],
                        |_, left| per_card[usize::from(left)],
                    );
                }
            }
            // When none of the forced flips busts, is a Flip Three or
            // repeats a number: the score banked, plus the numbers and
            // `+N` cards drawn (an `x2` counts nothing).
            Cut::Lower(_) => {
                // With a Second Chance held, one card that busts is
                // cancelled: it hurts no more than a card that never hurts.
                let cancel = if p.sc { f64::from(p.busts) } else { 0.0 };
                // New numbers that make a Flip 7, which ends the flips (a
                // part holds at most six numbers).
                let room = FLIP7_CARDS as usize - usize::from(p.count);
                debug_assert!(room > 0);
                // Per count of modifiers left, the score is
                // `banked * cb + mult * cn + plus_left * cp + cc`.
                let mut table = [(1.0, 0.0, 0.0, 0.0); MAX_MODS + 1];
                for (v, t) in table.iter_mut().enumerate().take(most + 1) {
                    let cards = usize::from(others) + v;
                    let f = forced.min(cards);
                    if f == 0 {
                        continue;
                    }
                    let ones = usize::from(singles) + v;
                    // Ways to draw `j` cards that do not hurt from `ones`
                    // cards that never do (and the ones that bust that a
                    // Second Chance cancels); `beside`: `j` of them beside a
                    // given `+N` card.
                    let ways = |ones: usize, j: usize| binom[ones][j] + if j > 0 { cancel * binom[ones][j - 1] } else { 0.0 };
                    let harmless = |j: usize| ways(ones, j);
                    let beside = |j: usize| if ones == 0 { 0.0 } else { ways(ones - 1, j) };
                    // Every flip made: fewer new numbers than a Flip 7 needs.
                    let (mut cb, mut cn, mut cp, mut cc) = (0.0, 0.0, 0.0, 0.0);
                    for k in 0..=f.min(room - 1) {
                        let h = harmless(f - k);
                        cb += h * survive[k];
                        if k > 0 {
                            cn += h * weighted[k - 1];
                        }
                        if k < f {
                            cp += beside(f - k - 1) * survive[k];
                        }
                    }
                    let inv = inverse[cards][f];
                    (cb, cn, cp) = (cb * inv, cn * inv, cp * inv);
                    // A Flip 7 at flip `i`: the first `i` cards hold `room`
                    // new numbers, the last of them drawn last.
                    for (i, &inv) in inverse[cards].iter().enumerate().take(f + 1).skip(room) {
                        let w = room as f64 / i as f64 * inv;
                        let h = w * harmless(i - room);
                        cb += h * survive[room];
                        cn += h * weighted[room - 1];
                        if i > room {
                            cp += w * beside(i - room - 1) * survive[room];
                        }
                        cc += h * survive[room] * f64::from(FLIP7_BONUS);
                    }
                    *t = (cb, cn, cp, cc);
                }
                let n = out.len();
                let per_m = b.mult[..n].iter().zip(&b.plus_f[..n]).zip(b.mods_left[..n].iter().zip(&b.plus_left[..n]));
                for (o, ((&mult, &plus), (&left, &plus_left))) in out.iter_mut().zip(per_m) {
                    let banked = sum * mult + plus;
                    let (cb, cn, cp, cc) = table[usize::from(left)];
                    *o = banked * cb + mult * cn + f64::from(plus_left) * cp + cc;
                }
            }
            Cut::Upper(_) if decides => {
                // Staying, or hitting: the prophet bound less the score it
                // keeps when the next card busts. (Loose at a table: 15.4
                // points above the exact value on average, where stops
                // happen, when the exact value is 7.2 above staying. Capped
                // by staying or hitting once and taking this bound where
                // the card leads, 6.2 above, but a prophet bound per card
                // made the searches take 10.278 G instructions against
                // 4.931 G on 200 games at two and four players, seeds 7
                // and 8.)
                let best = b.best(p);
                // Less what a new number drawn next then loses at least (0
                // with a Second Chance held, and with fewer than two cards
                // left). A division per combination: a lookup by count of
                // modifiers left kept the loop from being vectorised and
                // took more instructions (both divisions looked up: 7.3%
                // more on 500 four-player games, seeds 1 to 10, and no
                // clear change in time, 0.97 to 1.04 of it in interleaved
                // runs).
                let others_f = f64::from(others);
                let ahead = |mult: f64, left: f64| {
                    let cards = others_f + left;
                    mult * loses / (cards * (cards - 1.0)).max(1.0)
                };
                if p.sc || p.busts == 0 {
                    prophet_values(b, &pr, ahead, sum, best, out, |value, banked, _, _| if value > banked { value } else { banked });
                } else {
                    // Cards left: at least the cards that bust, so never 0.
                    let (busts, others) = (f64::from(p.busts), f64::from(others));
                    prophet_values(b, &pr, ahead, sum, best, out, |value, banked, left, _| {
                        let hit = value - banked * (busts / (others + left));
                        if hit > banked { hit } else { banked }
                    });
                }
            }
            // Lower bounds are above: the upper bound during forced flips.
            // (Capped further by the average over the next card of what it
            // leads to, 0 for a bust and otherwise the value of the world
            // without Freezes and Flip Threes: with that world exact, the
            // mean gap to the exact value at the parts a search stops at
            // alone in the round fell from 6.45 to 4.07 points during
            // forced flips, but the searches took 6.193 G instructions
            // against 4.931 G on 200 games at two and four players, seeds
            // 7 and 8: the cap costs about a block's work per stop, more
            // than the tighter bounds saved.)
            _ => {
                let best = b.best(p);
                // The chance that one of the first flips busts (the second
                // such card with a Second Chance held) with no Second
                // Chance drawn before, per count. Only the flips before a
                // Flip 7 can be made count: the first `7 - count`.
                let mut kill = [0.0; MAX_MODS + 1];
                let room = FLIP7_CARDS as usize - usize::from(p.count);
                let busts = usize::from(p.busts);
                for (v, kl) in kill.iter_mut().enumerate().take(most + 1) {
                    let cards = usize::from(others) + v;
                    let f = forced.min(cards).min(room);
                    let no_sc = cards - usize::from(sc_left);
                    let safe = binom[no_sc - busts][f];
                    let mut ways = binom[no_sc][f] - safe;
                    if p.sc {
                        ways -= if f > 0 { busts as f64 * binom[no_sc - busts][f - 1] } else { 0.0 };
                    }
                    *kl = ways * inverse[cards][f];
                }
                // The prophet may stop before a card that busts; forced
                // flips may not: when one of the first of them busts, the
                // player loses at least the score banked now.
                prophet_values(b, &pr, |_, _| 0.0, sum, best, out, |value, banked, _, left| value - banked * kill[usize::from(left)]);
            }
        }
    }

    /// The number of ways to draw `k` cards (`k <= flips`), at most one of
    /// each number not held and none of any other number: the coefficients
    /// of the product of `1 + copies x` over the numbers not held.
    #[inline(always)]
    fn survive_poly(&self, p: &Part, flips: usize) -> [f64; MAX_FORCED + 1] {
        let b = &self.memo.base;
        let mut poly = [0.0; MAX_FORCED + 1];
        poly[0] = 1.0;
        for n in numbers_in(b.avail & !p.mask) {
            let c = f64::from(b.copies[n]);
            for d in (1..=flips).rev() {
                poly[d] += c * poly[d - 1];
            }
        }
        poly
    }
}

/// The prophet bound of a part with number sum `sum` and modifier-free
/// parts `pr` ([`Prophet::value`]), less `ahead(mult, modifiers left)` and
/// then at most `best`, for every combination of modifiers of `b`, turned
/// into `out` by `then(value, banked, modifiers left, as an index too)`:
/// one loop over plain `f64` tables per combination, with no lookups by
/// index (but those `then` makes).
#[inline(always)]
fn prophet_values(
    b: &Base,
    pr: &Prophet,
    ahead: impl Fn(f64, f64) -> f64,
    sum: f64,
    best: f64,
    out: &mut [f64],
    then: impl Fn(f64, f64, f64, u16) -> f64,
) {
    let n = out.len();
    let per_m = b.mult[..n].iter().zip(&b.plus_f[..n]);
    let left = b.doubling[..n].iter().zip(&b.plus_left_f[..n]).zip(b.mods_left_f[..n].iter().zip(&b.mods_left[..n]));
    for (o, ((&mult, &plus), ((&doubling, &plus_left), (&mods_left, &index)))) in out.iter_mut().zip(per_m.zip(left)) {
        let banked = sum * mult + plus;
        let value = pr.value(sum, mult, plus, doubling, plus_left) - ahead(mult, mods_left);
        let value = if value < best { value } else { best };
        *o = then(value, banked, mods_left, index);
    }
}

/// The better of staying and hitting once then staying at a decision part
/// with number sum `sum`, for every combination of modifiers of `b`: per
/// combination, the scores after a new number (`new_sums` over `new_cards`
/// of them, and the `flip7` bonus), after the `keep` cards that bank the
/// same score, `flip_three(that sum, banked, modifiers left)` for a Flip
/// Three, then after a modifier; times `per_card(modifiers left, as
/// `f64` and as an index)`, one over the cards left.
#[inline(always)]
fn hit_then_stay_values(
    b: &Base,
    sum: f64,
    (new_sums, new_cards, flip7, keep): (f64, f64, f64, f64),
    out: &mut [f64],
    flip_three: impl Fn(f64, f64, u16) -> f64,
    per_card: impl Fn(f64, u16) -> f64,
) {
    let n = out.len();
    let per_m = b.mult[..n].iter().zip(&b.plus_f[..n]).zip(b.mods_left_f[..n].iter().zip(&b.mods_left[..n]));
    let mods = b.mod_mult[..n].iter().zip(&b.mod_plus[..n]);
    for ((o, ((&mult, &plus), (&left, &index))), (&mod_mult, &mod_plus)) in out.iter_mut().zip(per_m).zip(mods) {
        let banked = sum * mult + plus;
        let acc = flip_three(new_sums * mult + new_cards * plus + flip7 + keep * banked, banked, index);
        // A modifier drawn, then staying.
        let acc = acc + (sum * mod_mult + mod_plus);
        let hit = acc * per_card(left, index);
        *o = if hit > banked { hit } else { banked };
    }
}

/// The draws of `f` cards that neither bust, nor draw a Flip Three, nor
/// repeat a number, with `ways[j]` the ways to draw `j` of the cards that
/// never hurt and `survive[k]` those to draw `k` new numbers (see
/// [`Search::survive_poly`]).
#[inline(always)]
fn good_draws(ways: &[f64; MAX_FORCED + 1], survive: &[f64; MAX_FORCED + 1], f: usize) -> f64 {
    (0..=f).map(|k| ways[f - k] * survive[k]).sum()
}

/// The values in the world without Freezes and Flip Threes (the memo
/// `free`) of the hand part keyed `key`, if computed there: the same hand
/// part as a decision, with no Flip Three drawn.
#[inline(always)]
pub(super) fn free_block(free: Option<&Memo>, key: u64) -> Option<&[f64]> {
    let free = free?;
    free.get(key & FREE_KEY_BITS).map(|id| free.block(id))
}

#[cfg(test)]
mod tests {
    use super::super::search::Aids;
    use super::super::random_state;
    use super::super::{Rule, counted, evaluate, evaluate_cut};
    use super::*;
    use crate::games::flip7::cards::KINDS;
    use crate::games::flip7::rules::{FLIP7_BONUS, Hand};

    /// The memo of an exact search for `h` facing `u`, and every hand part
    /// reachable from its root (`None` when there is nothing to draw).
    fn exact_parts(h: &Hand, u: &[u8; KINDS], solo: bool) -> Option<(Memo, Vec<Part>)> {
        let mut exact = Memo::new();
        evaluate(h, u, solo, Rule::Optimal, &mut exact);
        let (root, _) = exact.base.locate(Rule::Optimal, h, &counted(u, solo))?;
        let parts = Search::new(&mut exact, Aids::default(), Rule::Optimal, Cut::Exact).parts(&root);
        Some((exact, parts))
    }

    #[test]
    fn the_key_by_bit_extraction_is_the_key_and_tells_parts_apart() {
        // Every hand part of exact searches from random roots, alone in the
        // round and at a table: the key the search takes on x86-64-v3 (one
        // bit extraction) is `Part::key`, and no two parts share one.
        let mut rng = crate::engine::rng::batch_rng(15, 0);
        let mut checked = 0;
        for _ in 0..20 {
            let (h, u) = random_state(&mut rng);
            for solo in [false, true] {
                let Some((_, parts)) = exact_parts(&h, &u, solo) else { continue };
                let mut seen = std::collections::HashMap::new();
                for p in &parts {
                    let fields = (p.mask, p.dups, p.sc, p.sc_drawn, p.ft_drawn, p.forced, p.frozen);
                    assert_eq!(*seen.entry(p.key()).or_insert(fields), fields, "{p:?}");
                    if super::super::search::wide() {
                        assert_eq!(p.key_as::<true>(), p.key(), "{p:?}");
                    }
                    assert_eq!(p.key_as::<false>(), p.key());
                    assert_eq!(p.key() & FREE_KEY_BITS, Part { ft_drawn: 0, forced: 0, frozen: false, ..*p }.key());
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn leaf_bounds_bracket_the_exact_value_of_every_part() {
        // Every hand part of an exact search (decisions, forced flips,
        // flips behind a waiting Freeze): the bounds a bounding search
        // takes where it stops, against the exact values.
        let mut rng = crate::engine::rng::batch_rng(13, 0);
        let mut checked = [0usize; 3];
        let (mut flip7_near, mut cancels, mut ahead) = (0, 0, 0);
        for _ in 0..40 {
            let (h, u) = random_state(&mut rng);
            for solo in [false, true] {
                let Some((exact, parts)) = exact_parts(&h, &u, solo) else { continue };
                for cut in [Cut::Lower(0), Cut::Upper(0)] {
                    let mut bounds = exact.clone();
                    bounds.base.cut = cut;
                    for p in &parts {
                        let Some(id) = exact.get(p.key()) else { continue };
                        Search::new(&mut bounds, Aids::default(), Rule::Optimal, cut).leaf(p, id, &mut None);
                        let (bound, value) = (bounds.block(id), exact.block(id));
                        for (m, (&b, &v)) in bound.iter().zip(value).enumerate() {
                            match cut {
                                Cut::Lower(_) => assert!(b <= v + 1e-9, "{p:?} m {m}: {b} above {v}"),
                                _ => assert!(b + 1e-9 >= v, "{p:?} m {m}: {b} below {v}"),
                            }
                        }
                        let kind = if p.frozen { 2 } else { usize::from(p.forced > 0) };
                        checked[kind] += 1;
                        // A forced flip that can make a Flip 7: the lower
                        // bound counts at least a new number first (the
                        // round then ends: later flips cannot bust).
                        if matches!(cut, Cut::Lower(_)) && p.forced > 0 && p.count == 6 {
                            let b = &exact.base;
                            let new: u16 = numbers_in(b.avail & !p.mask).map(|n| u16::from(b.copies[n])).sum();
                            let cards = f64::from(b.others_left(p) + b.mods_left[0]);
                            let first = f64::from(new) / cards * (b.banked(p.sum, 0) + f64::from(FLIP7_BONUS));
                            assert!(bound[0] + 1e-9 >= first, "{p:?}: {} below {first}", bound[0]);
                            flip7_near += 1;
                        }
                        if matches!(cut, Cut::Lower(_)) && p.forced > 0 && p.sc && p.busts > 0 {
                            cancels += 1;
                        }
                        // The upper bound at a decision part less what a
                        // new number drawn next then loses at least.
                        if matches!(cut, Cut::Upper(_)) && p.forced == 0 && !p.frozen && !p.sc && exact.base.look_ahead(p) > 0 {
                            ahead += 1;
                        }
                    }
                }
            }
        }
        // Not vacuous: every kind of part, forced flips one number from a
        // Flip 7, forced flips with a Second Chance to cancel a bust, and
        // decision parts whose upper bound the look-ahead lowers.
        assert!(checked.iter().all(|&c| c > 1000), "{checked:?}");
        assert!(flip7_near > 100 && cancels > 100 && ahead > 1000, "{flip7_near} {cancels} {ahead}");
    }

    #[test]
    fn what_a_search_keeps_about_a_part_is_what_a_later_one_would_work_out() {
        // An upper bounding search, then searches of the same root that
        // take what it kept about the hand parts they meet again: per part
        // not exact, the chance to reach it and its prophet bound are those
        // worked out afresh, and not every combination of modifiers stays
        // there; and the later searches give the same bits as without it.
        let mut rng = crate::engine::rng::batch_rng(14, 0);
        let (mut checked, mut decisions) = (0, 0);
        for _ in 0..40 {
            let (h, u) = random_state(&mut rng);
            for solo in [false, true] {
                let mut first = Memo::new();
                evaluate_cut(&h, &u, solo, Rule::Optimal, Cut::Upper(8), &mut first, Aids::default());
                let Some((root, _)) = first.base.locate(Rule::Optimal, &h, &counted(&u, solo)) else {
                    continue;
                };
                let mut probe = first.clone();
                let search = Search::new(&mut probe, Aids::default(), Rule::Optimal, Cut::Upper(8));
                for p in search.parts(&root) {
                    let Some(id) = first.get(p.key()) else { continue };
                    if first.exact[id as usize] {
                        continue;
                    }
                    let known = first.known[id as usize];
                    assert_eq!(known.reach.to_bits(), first.base.reach(&p).to_bits(), "{p:?}");
                    if let Some(kept) = known.prophet {
                        assert_eq!(format!("{kept:?}"), format!("{:?}", search.prophet(&p)), "{p:?}");
                    }
                    if p.forced == 0 {
                        assert!(known.prophet.is_some(), "{p:?}");
                        assert!(!search.all_stay(&p, &mut None), "{p:?}");
                        decisions += 1;
                    }
                    checked += 1;
                }
                for cut in [Cut::Lower(8), Cut::Upper(12), Cut::Lower(16)] {
                    let aids = Aids { exact: Some(&first), ..Aids::default() };
                    let chained = evaluate_cut(&h, &u, solo, Rule::Optimal, cut, &mut Memo::new(), aids);
                    let alone = evaluate_cut(&h, &u, solo, Rule::Optimal, cut, &mut Memo::new(), Aids::default());
                    assert_eq!(chained.hit.to_bits(), alone.hit.to_bits(), "{h:?} {u:?} {solo} {cut:?}");
                }
            }
        }
        // Not vacuous: many parts, decisions among them.
        assert!(checked > 1000 && decisions > 300, "{checked} {decisions}");
    }

    #[test]
    fn the_look_ahead_below_the_prophet_bound_holds_where_it_is_nearly_tight() {
        // Small piles of numbers only, where the prophet bound is close to
        // the exact value: the upper bound a search takes at a decision
        // part, with what a new number drawn next then loses at least
        // taken off, stays above the exact value; and in some states,
        // taking it off twice would not, so the test would catch a term
        // much larger than it may be.
        use crate::engine::rng::Draw;
        let mut rng = crate::engine::rng::batch_rng(15, 0);
        let (mut active, mut sharp) = (0, 0);
        for _ in 0..3000 {
            let mut unseen = [0u8; KINDS];
            let mut held = Vec::new();
            for n in 1..=12u8 {
                match rng.below(4) {
                    0 if held.len() < 5 => held.push(n),
                    1 => unseen[usize::from(n)] = 1 + rng.below(3) as u8,
                    _ => {}
                }
            }
            for &n in &held {
                unseen[usize::from(n)] = rng.below(3) as u8;
            }
            if held.is_empty() || unseen.iter().map(|&c| u32::from(c)).sum::<u32>() < 2 {
                continue;
            }
            let h = Hand::holding(&held, 0, 0, false);
            let mut exact = Memo::new();
            let values = evaluate(&h, &unseen, false, Rule::Optimal, &mut exact);
            let Some((root, m)) = exact.base.locate(Rule::Optimal, &h, &counted(&unseen, false)) else { continue };
            let Some(id) = exact.get(root.key()) else { continue };
            let mut bounds = exact.clone();
            bounds.base.cut = Cut::Upper(0);
            Search::new(&mut bounds, Aids::default(), Rule::Optimal, Cut::Upper(0)).leaf(&root, id, &mut None);
            let bound = bounds.block(id)[m];
            assert!(bound + 1e-9 >= values.best(), "{h:?} {unseen:?}: {bound} below {values:?}");
            let b = &exact.base;
            let k = b.look_ahead(&root);
            let cards = f64::from(b.others_left(&root) + b.mods_left[m]);
            let taken = f64::from(k) / (cards * (cards - 1.0)).max(1.0);
            if taken > 0.0 && bound > values.stay {
                active += 1;
                if bound - taken < values.best() - 1e-9 {
                    sharp += 1;
                }
            }
        }
        assert!(active > 200 && sharp > 10, "{active} {sharp}");
    }
}
