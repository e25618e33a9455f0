//! The bounds that need no search: the best score still reachable, the
//! prophet bound, and the quick bounds [`decide`](super::decide) tries
//! before any search ([`Look`]).

use super::state::{Base, MAX_ACTIONS_PER_KIND, NUMBERS, numbers_in};
use crate::games::flip7::cards::{FLIP_THREE, FREEZE, KINDS, PLUS2, SECOND_CHANCE, TIMES2, plus_value};
use crate::games::flip7::rules::{FLIP7_BONUS, FLIP7_CARDS, Hand};

/// The sum of the best numbers still to add (at most `7 - count` of those in
/// `avail`) and the Flip 7 bonus if seven can be reached.
#[inline]
pub(super) fn best_numbers(mut avail: u16, count: u8) -> (u32, u32) {
    let room = FLIP7_CARDS.saturating_sub(u32::from(count));
    let bonus = if avail.count_ones() >= room {
        u32::from(FLIP7_BONUS)
    } else {
        0
    };
    let mut top = 0;
    for _ in 0..room {
        if avail == 0 {
            break;
        }
        let hi = 15 - avail.leading_zeros();
        top += hi;
        avail ^= 1 << hi;
    }
    (top, bonus)
}

/// The parts of the prophet bound that do not depend on the modifiers
/// (all zero: no gain at all).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Prophet {
    /// Bound of the expected sum of the numbers added.
    pub(super) numbers: f64,
    /// Chance bound that a given card comes before the bust.
    pub(super) one: f64,
    /// Sum of the best numbers that can still be added.
    pub(super) top: u32,
    /// Bound of the expected Flip 7 bonus.
    pub(super) bonus: f64,
}

impl Prophet {
    /// The prophet bound of a state with number sum `sum` and, from its
    /// modifiers, `mult` (`2^x2` of those held), `plus` (their `+N`
    /// points), `doubling` (`2^k - 1` for the `k` `x2` cards left) and
    /// `plus_left` (the `+N` points left): the numbers' bound and what
    /// the doublings left could add to them (with `X` of `k` drawn,
    /// `2^X - 1 <= X (2^k - 1) / k`), doubled by those held, plus every
    /// `+N` held and each left at a card's chance, and the bonus.
    #[inline(always)]
    pub(super) fn value(&self, sum: f64, mult: f64, plus: f64, doubling: f64, plus_left: f64) -> f64 {
        (sum + self.numbers + (sum + f64::from(self.top)) * doubling * self.one) * mult
            + plus
            + plus_left * self.one
            + self.bonus
    }

    /// [`Prophet::value`] with combination of modifiers `m` of `base`.
    #[inline]
    pub(super) fn value_at(&self, sum: u16, base: &Base, m: usize) -> f64 {
        self.value(f64::from(sum), base.mult[m], base.plus_f[m], base.doubling[m], base.plus_left_f[m])
    }
}

/// The modifier-free parts of an upper bound of a state's value, for
/// `avail` the numbers not held with copies left (`copies[n]` of number
/// `n`), `count`
/// numbers held, `busts` cards left that would bust, a Second Chance held
/// (`held`) and `spare` Second Chances left in the pile.
///
/// Whatever the player does, the round ends at some point before the
/// first card that busts (or busts). The score only grows up to there, so
/// the expected score at that point bounds the value. That point comes no
/// later than in a game where every Second Chance drawn shields one card
/// that busts, even with one held, and only a card that busts with no
/// shield left ends the round: new duplicates, Freezes and forced flips
/// only end it sooner. There a card, and a number's first copy, comes
/// before the end with the chances of [`before_stop`]; the numbers added
/// are at most the best ones (`top`), and a Flip 7 needs `7 - count` new
/// numbers before the end: its chance is at most their expected count over
/// that, and with no Second Chance the chance that the first `7 - count`
/// numbers and cards that bust are all new. (No more cards that bust than
/// shields among the first `7 - count + shields` of them, as a bound with
/// Second Chances, cost more than it saved.) With `X`
/// of `k` x2 cards drawn, `2^X - 1 <= X (2^k - 1) / k`, so the doubling
/// adds at most `(sum + top) (2^k - 1)` times a card's chance.
#[inline(always)]
pub(super) fn prophet_bound(
    avail: u16,
    copies: &[u8],
    count: u32,
    busts: u32,
    held: bool,
    spare: u32,
) -> Prophet {
    let (top, bonus) = best_numbers(avail, count as u8);
    if busts == 0 {
        return Prophet {
            numbers: f64::from(top),
            one: 1.0,
            top,
            bonus: f64::from(bonus),
        };
    }
    // A card's chance to come before the end, and a number's (its first
    // copy's).
    let before = before_stop(busts, spare, held);
    let one = before[1];
    let (mut sum, mut new) = (0.0, 0.0);
    for n in numbers_in(avail) {
        let chance = before[usize::from(copies[n])];
        sum += n as f64 * chance;
        new += chance;
    }
    let bonus = if bonus == 0 {
        0.0
    } else {
        // A Flip 7 needs `7 - count` new numbers before the end: its chance
        // is at most (Markov) their expected count over that. With no
        // Second Chance held or left, it is at most the chance that the
        // first `7 - count` numbers and cards that bust are all new.
        let room = FLIP7_CARDS - count;
        let mut chance = (new / f64::from(room)).min(1.0);
        if !held && spare == 0 {
            let cards: u32 = numbers_in(avail).map(|n| u32::from(copies[n])).sum();
            let clear = if room > cards { 0.0 } else { binomial(cards, room) / binomial(cards + busts, room) };
            chance = chance.min(clear);
        }
        chance * f64::from(bonus)
    };
    Prophet {
        numbers: sum.min(f64::from(top)),
        one,
        top,
        bonus,
    }
}

/// What hitting at a decision part loses at least below the prophet
/// bound less the score banked times the chance that the next card busts,
/// times `cards (cards - 1) / mult` (`cards` left, `mult` the doubling of
/// the modifiers held): with no Second Chance held, `avail` the numbers not
/// held (`copies[n]` of number `n` left), `count` numbers held with sum
/// `sum`, and `busts` cards left that would bust.
///
/// Let `Q(s)` be the expected score just before the first card that busts
/// from state `s`, drawing on through everything else. Every state is worth
/// at most `Q`, and averaging `Q` over the next card (a card that busts
/// keeping the score banked) gives `Q` again. So hitting at a state `c`
/// is worth at most `Q(c)` less the score banked there times the chance
/// `q` that the next card busts, and `c` at most `Q(c) - min(Q(c) -
/// banked, q banked)`. After a new number `n` (not a Flip 7): `Q(c) -
/// banked` is at least the next card's gain, `mult (T - n copies[n]) /
/// (cards - 1)` with `T` the sum of `n copies[n]` over `avail`; `q` is
/// `(busts + copies[n] - 1) / (cards - 1)`; the score banked is at least
/// `mult (sum + n)`. Averaged over the next card, the value of hitting is
/// at most the prophet's less the score banked when it busts, less the
/// chance of each new number times that `min`: the sum over `avail` of
/// `copies[n] min(T - n copies[n], (busts + copies[n] - 1) (sum + n))`,
/// returned here, times `mult / (cards (cards - 1))`. (Taken off where a
/// bounding search stops at a decision part: 500 four-player games with
/// one `optimal-round` seat on one thread, seeds 1 to 10, took 17.28 G
/// instructions in all against 17.43 G without.)
#[inline(always)]
pub(super) fn look_ahead(avail: u16, copies: &[u8], count: u32, busts: u32, sum: u32) -> u32 {
    if count + 1 >= FLIP7_CARDS {
        return 0;
    }
    let total: u32 = numbers_in(avail).map(|n| n as u32 * u32::from(copies[n])).sum();
    let mut k = 0;
    for n in numbers_in(avail) {
        let c = u32::from(copies[n]);
        k += c * (total - n as u32 * c).min((busts + c - 1) * (sum + n as u32));
    }
    k
}

/// Most copies of one number (two decks).
const MAX_COPIES: usize = 24;
/// Most cards that bust, and Second Chances, that [`before_stop`] covers.
const MAX_BUSTS: usize = 200;
const MAX_SPARE: usize = MAX_ACTIONS_PER_KIND as usize;

/// For `busts` cards that would bust, `spare` Second Chances in the pile
/// and one held or not: per `c`, the chance that the first of `c` given
/// cards comes before the prophet's end, in a game where every Second
/// Chance drawn (even with one held) shields one card that busts and
/// nothing else ends the round. The end is then the first card that busts
/// with no shield left; it depends only on the order of the cards that
/// bust and the Second Chances, in which the `c` cards fall uniformly.
#[inline(always)]
fn before_stop(busts: u32, spare: u32, held: bool) -> &'static [f64; MAX_COPIES + 1] {
    type Row = std::sync::OnceLock<[f64; MAX_COPIES + 1]>;
    static TABLE: std::sync::OnceLock<Vec<Row>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| (0..(MAX_BUSTS + 1) * (MAX_SPARE + 1) * 2).map(|_| Row::new()).collect());
    let (b, s) = (busts as usize, spare as usize);
    assert!(b <= MAX_BUSTS && s <= MAX_SPARE, "the prophet bound covers at most {MAX_BUSTS} cards that bust");
    // Each row is worked out when first needed.
    table[(b * (MAX_SPARE + 1) + s) * 2 + usize::from(held)].get_or_init(|| before_stop_row(b, s, usize::from(held)))
}

/// One row of [`before_stop`]: `b` cards that bust, `s` Second Chances,
/// `h` held.
fn before_stop_row(b: usize, s: usize, h: usize) -> [f64; MAX_COPIES + 1] {
    let total = b + s;
    let choose = |n: usize, k: usize| binomial(n as u32, k as u32);
    // Orders of the first `i` cards that bust and `k` Second Chances with
    // no end among them (`i <= h + k` all along).
    let mut ways = vec![vec![0.0; s + 1]; b + 1];
    // `ends[j]`: the chance that the end is the `j`-th of these cards.
    let mut ends = vec![0.0; total + 1];
    let all = choose(total, b);
    for i in 0..=b {
        for k in 0..=s {
            if i > h + k {
                continue;
            }
            ways[i][k] = if i == 0 && k == 0 {
                1.0
            } else {
                (if i > 0 { ways[i - 1][k] } else { 0.0 }) + if k > 0 { ways[i][k - 1] } else { 0.0 }
            };
            if i == h + k && i < b {
                // The next card busts, with no shield left.
                ends[i + k + 1] += ways[i][k] * choose(total - i - k - 1, b - i - 1) / all;
            }
        }
    }
    let never = 1.0 - ends.iter().sum::<f64>();
    let mut row = [never.max(0.0); MAX_COPIES + 1];
    row[0] = 0.0;
    for (j, &e) in ends.iter().enumerate().skip(1) {
        // All `c` cards after the first `j` of the others:
        // C(total - j + c, c) / C(total + c, c), built up over `c`.
        let mut after = 1.0;
        for (c, p) in row.iter_mut().enumerate().skip(1) {
            after *= (total - j + c) as f64 / (total + c) as f64;
            *p += e * (1.0 - after);
        }
    }
    row.map(|p| p.min(1.0))
}

/// `binomial(n, k)` as `f64` (from the table of
/// [`binomials`](super::search::binomials) where it has the pair).
fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    if let Some(row) = super::search::binomials().get(n as usize)
        && let Some(&v) = row.get(k as usize)
    {
        return v;
    }
    let mut v = 1.0;
    for i in 0..k.min(n - k) {
        v = v * f64::from(n - i) / f64::from(i + 1);
    }
    v
}

/// A state for the bounds of [`decide`](super::decide): the hand and the counted pile.
#[derive(Clone, Copy, Debug)]
pub(super) struct Look {
    pub(super) pile: [u8; KINDS],
    pub(super) total: u32,
    busts: u32,
    numbers: u16,
    sum: u32,
    count: u32,
    times2: u32,
    plus: u32,
    sc: bool,
    /// Numbers not held with copies left.
    avail: u16,
    /// The `+N` points left in the pile.
    plus_left: u32,
}

impl Look {
    pub(super) fn new(hand: &Hand, pile: &[u8; KINDS]) -> Look {
        let busts = (0..NUMBERS)
            .filter(|&n| hand.numbers & (1 << n) != 0)
            .map(|n| u32::from(pile[n]))
            .sum();
        let avail = (0..NUMBERS)
            .filter(|&n| pile[n] > 0 && hand.numbers & (1 << n) == 0)
            .fold(0u16, |a, n| a | 1 << n);
        Look {
            pile: *pile,
            total: pile.iter().map(|&c| u32::from(c)).sum(),
            busts,
            numbers: hand.numbers,
            sum: u32::from(hand.number_sum),
            count: u32::from(hand.count),
            times2: u32::from(hand.times2),
            plus: u32::from(hand.plus),
            sc: hand.second_chance,
            avail,
            plus_left: (PLUS2..TIMES2)
                .map(|m| u32::from(pile[m as usize]) * u32::from(plus_value(m)))
                .sum(),
        }
    }

    #[inline]
    pub(super) fn banked(&self) -> u32 {
        (self.sum << self.times2) + self.plus
    }

    /// Numbers not held with copies left.
    #[inline]
    fn avail(&self) -> u16 {
        self.avail
    }

    /// The best round score still reachable.
    fn best(&self) -> u32 {
        let (top, bonus) = best_numbers(self.avail(), self.count as u8);
        self.best_from(top, bonus)
    }

    /// [`Look::best`] given the [`best_numbers`] of the state.
    fn best_from(&self, top: u32, bonus: u32) -> u32 {
        ((self.sum + top) << (self.times2 + u32::from(self.pile[TIMES2 as usize])))
            + self.plus
            + self.plus_left
            + bonus
    }

    /// The state after drawing `card` (not a Freeze or Flip Three, and not
    /// a held number unless a Second Chance is held), and whether it ends
    /// the round with a Flip 7.
    fn after(&self, card: usize) -> (Look, bool) {
        let mut c = *self;
        c.pile[card] -= 1;
        c.total -= 1;
        if card < NUMBERS {
            if self.numbers & (1 << card) != 0 {
                c.sc = false;
                c.busts -= 1;
            } else {
                c.numbers |= 1 << card;
                c.avail &= !(1 << card);
                c.sum += card as u32;
                c.count += 1;
                c.busts += u32::from(c.pile[card]);
            }
        } else if card == TIMES2 as usize {
            c.times2 += 1;
        } else if card == SECOND_CHANCE as usize {
            c.sc = true;
        } else {
            c.plus += u32::from(plus_value(card as u8));
            c.plus_left -= u32::from(plus_value(card as u8));
        }
        (c, c.count >= FLIP7_CARDS)
    }

    /// An upper bound of the value of the state (the better of staying and
    /// hitting, whatever is done next): the expected score just before the
    /// first card that would bust, as if the player could see it coming
    /// (see [`prophet_bound`]).
    fn prophet(&self) -> f64 {
        self.prophet_from(&self.modifier_free(), self.best())
    }

    /// The modifier-free parts of [`Look::prophet`]: the same for every
    /// state that differs only by modifiers drawn.
    fn modifier_free(&self) -> Prophet {
        prophet_bound(
            self.avail(),
            &self.pile,
            self.count,
            self.busts,
            self.sc,
            u32::from(self.pile[SECOND_CHANCE as usize]),
        )
    }

    /// [`Look::prophet`] given its modifier-free parts and [`Look::best`].
    fn prophet_from(&self, p: &Prophet, best: u32) -> f64 {
        let k = u32::from(self.pile[TIMES2 as usize]);
        let value = p.value(
            f64::from(self.sum),
            f64::from(1u32 << self.times2),
            f64::from(self.plus),
            f64::from((1u32 << k) - 1),
            f64::from(self.plus_left),
        );
        value.min(f64::from(best))
    }

    /// An upper bound of the value of hitting now: the prophet's, less
    /// the score it keeps when the very next card busts (the player who
    /// hits loses it). (Less also what a new number drawn next then loses
    /// at least, as in [`look_ahead`]: 17.26 G instructions against
    /// 17.28 G on the runs there, too little for the code.)
    fn prophet_hit(&self, p: &Prophet, best: u32) -> f64 {
        let prophet = self.prophet_from(p, best);
        if self.sc {
            prophet
        } else {
            prophet - f64::from(self.banked()) * f64::from(self.busts) / f64::from(self.total)
        }
    }

    /// Hitting once and then staying: a lower bound of the value of hitting
    /// (a Flip Three counts 0).
    pub(super) fn hit_then_stay(&self) -> f64 {
        let banked = self.banked();
        let mut acc = 0u64;
        for k in 0..KINDS {
            let cards = u64::from(self.pile[k]);
            if cards == 0 || k == FLIP_THREE as usize {
                continue;
            }
            let v = if k == FREEZE as usize || (k < NUMBERS && self.numbers & (1 << k) != 0) {
                if k == FREEZE as usize || self.sc {
                    banked
                } else {
                    0
                }
            } else {
                let (c, flip7) = self.after(k);
                c.banked() + if flip7 { u32::from(FLIP7_BONUS) } else { 0 }
            };
            acc += cards * u64::from(v);
        }
        acc as f64 / f64::from(self.total)
    }

    /// [`Look::upper`] at depth 0, given the modifier-free parts of the
    /// prophet bound and the [`best_numbers`] of the state.
    fn upper_now(&self, p: &Prophet, top: u32, bonus: u32) -> f64 {
        let safe = if self.sc { self.total } else { self.total - self.busts };
        let best = self.best_from(top, bonus);
        let crude = f64::from(best) * f64::from(safe) / f64::from(self.total);
        crude.min(self.prophet_hit(p, best))
    }

    /// An upper bound of the value of hitting (`total > 0`). At depth 0:
    /// the chance that the next card does not bust times the best score
    /// still reachable. Deeper: the average over the next card of the
    /// better of staying and the bound one level down (a Flip Three counts
    /// the best score still reachable).
    pub(super) fn upper(&self, depth: u32) -> f64 {
        if depth == 0 {
            let (top, bonus) = best_numbers(self.avail(), self.count as u8);
            return self.upper_now(&self.modifier_free(), top, bonus);
        }
        // A modifier drawn next changes none of the modifier-free parts of
        // the prophet bound, nor the best numbers: worked out once. (With
        // the numbers and `+N` points left kept by `after`, and no second
        // prophet bound per card: 17.03 G instructions against 17.28 G on
        // the runs of `look_ahead`.)
        let (top, bonus) = best_numbers(self.avail(), self.count as u8);
        let same = self.modifier_free();
        let banked = f64::from(self.banked());
        let mut acc = 0.0;
        let mut dup_done = false;
        for k in 0..KINDS {
            let cards = f64::from(self.pile[k]);
            if cards == 0.0 {
                continue;
            }
            let held = k < NUMBERS && self.numbers & (1 << k) != 0;
            let v = if k == FREEZE as usize {
                banked
            } else if k == FLIP_THREE as usize {
                self.prophet_from(&same, self.best_from(top, bonus))
            } else if held && !self.sc {
                0.0
            } else {
                if held {
                    // Every held number leads to the same state.
                    if dup_done {
                        continue;
                    }
                    dup_done = true;
                }
                let (c, flip7) = self.after(k);
                let w = if held { f64::from(self.busts) } else { cards };
                let v = if flip7 {
                    f64::from(c.banked() + u32::from(FLIP7_BONUS))
                } else if c.total == 0 {
                    f64::from(c.banked())
                } else {
                    // `upper(0)` is below the prophet bound, itself above
                    // staying, so only deeper bounds need capping by it.
                    let modifier = (PLUS2 as usize..=TIMES2 as usize).contains(&k);
                    let u = if depth == 1 && modifier { c.upper_now(&same, top, bonus) } else { c.upper(depth - 1) };
                    let v = f64::from(c.banked()).max(u);
                    if depth > 1 { v.min(c.prophet()) } else { v }
                };
                acc += w * v;
                continue;
            };
            acc += cards * v;
        }
        acc / f64::from(self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::unseen_after;
    use super::super::{Memo, Rule, UPPER_DEPTH, counted, evaluate};
    use super::*;
    use crate::games::flip7::cards::{Without, composition};

    #[test]
    fn a_card_drawn_keeps_the_numbers_and_plus_points_left_as_counted_afresh() {
        // `after` updates what `Look::new` counts: the numbers not held with
        // copies left, and the `+N` points in the pile.
        let mut rng = crate::engine::rng::seeded_game_rng(17);
        let mut checked = 0;
        for _ in 0..300 {
            let (h, unseen) = super::super::random_state(&mut rng);
            let look = Look::new(&h, &counted(&unseen, true));
            for k in 0..KINDS {
                let held = k < NUMBERS && look.numbers & (1 << k) != 0;
                if look.pile[k] == 0 || k == FREEZE as usize || k == FLIP_THREE as usize || (held && !look.sc) {
                    continue;
                }
                let (c, _) = look.after(k);
                let avail = (0..NUMBERS)
                    .filter(|&n| c.pile[n] > 0 && c.numbers & (1 << n) == 0)
                    .fold(0u16, |a, n| a | 1 << n);
                let plus_left: u32 = (PLUS2..TIMES2)
                    .map(|m| u32::from(c.pile[m as usize]) * u32::from(plus_value(m)))
                    .sum();
                assert_eq!((c.avail, c.plus_left), (avail, plus_left), "{h:?} drawing {k}");
                checked += 1;
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    #[test]
    fn bounds_hold_against_exact_values() {
        // Hands of the decide test and more, each facing the full deck less
        // some cards seen: the prophet bound is never below the value of
        // the state, the look-ahead bounds never below the value of hitting,
        // and hitting once then staying never above it.
        let comp = composition(1, Without::default());
        let mut memo = Memo::new();
        let hands = [
            Hand::holding(&[8], 0, 0, false),
            Hand::holding(&[12, 11], 0, 0, true),
            Hand::holding(&[12, 11, 10], 0, 0, false),
            Hand::holding(&[2, 5, 9, 11], 4, 1, false),
            Hand::holding(&[1, 3, 6, 8, 12], 0, 0, true),
            Hand::holding(&[0, 1, 2, 3, 4, 5], 10, 0, false),
            Hand::holding(&[7, 9, 10, 12], 6, 0, false),
        ];
        let seen: [&[u8]; 4] = [
            &[],
            &[12, 12, 12, 11, SECOND_CHANCE],
            &[TIMES2, PLUS2 + 4, 9, 9],
            &[SECOND_CHANCE, SECOND_CHANCE, 5, 6, 7],
        ];
        let mut checked = 0;
        for h in &hands {
            for gone in seen {
                let mut u = unseen_after(comp, h);
                for &c in gone {
                    u[c as usize] = u[c as usize].saturating_sub(1);
                }
                for solo in [false, true] {
                    // The bounds are of the counted pile (with an opponent
                    // in, Freezes and Flip Threes left out).
                    let pile = counted(&u, solo);
                    let exact = evaluate(h, &pile, solo, Rule::Optimal, &mut memo);
                    let look = Look::new(h, &pile);
                    let tie = 1e-9;
                    assert!(
                        look.prophet() + tie >= exact.best(),
                        "{h:?} {solo}: {exact:?} {}",
                        look.prophet()
                    );
                    for depth in 0..=UPPER_DEPTH + 1 {
                        assert!(
                            look.upper(depth) + tie >= exact.hit,
                            "{h:?} {solo} {depth}: {exact:?}"
                        );
                    }
                    assert!(look.hit_then_stay() <= exact.hit + tie, "{h:?} {solo}: {exact:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 56);
    }

    /// The expected score just before the first card that busts when every
    /// card is taken (Freeze and Flip Three as blanks): what the prophet
    /// bound bounds, by brute force.
    fn prophet_exact(l: &Look) -> f64 {
        if l.total == 0 {
            return f64::from(l.banked());
        }
        let mut acc = 0.0;
        for k in 0..KINDS {
            let cards = f64::from(l.pile[k]);
            if cards == 0.0 {
                continue;
            }
            let held = k < NUMBERS && l.numbers & (1 << k) != 0;
            let v = if held && !l.sc {
                f64::from(l.banked())
            } else if k == FREEZE as usize || k == FLIP_THREE as usize {
                let mut c = *l;
                c.pile[k] -= 1;
                c.total -= 1;
                prophet_exact(&c)
            } else {
                let (c, flip7) = l.after(k);
                if flip7 {
                    f64::from(c.banked() + u32::from(FLIP7_BONUS))
                } else {
                    prophet_exact(&c)
                }
            };
            acc += cards * v;
        }
        acc / f64::from(l.total)
    }

    /// The chance that the first of `c` given cards comes before the end
    /// of the game of [`before_stop`], over every order of `b` cards that
    /// bust, `s` Second Chances and the `c` cards.
    fn before_stop_by_orders(b: usize, s: usize, h: usize, c: usize) -> f64 {
        // (cards that bust, Second Chances, given cards) left; shields.
        fn walk(left: [usize; 3], shields: usize) -> (f64, f64) {
            // (orders where a given card comes first, all orders)
            let total: usize = left.iter().sum();
            if total == 0 {
                return (0.0, 1.0);
            }
            let (mut hit, mut all) = (0.0, 0.0);
            for kind in 0..3 {
                if left[kind] == 0 {
                    continue;
                }
                let mut next = left;
                next[kind] -= 1;
                let ways = left[kind] as f64;
                // Orders of the cards left (each card told apart).
                let rest = |l: [usize; 3]| -> f64 { (1..=l.iter().sum::<usize>()).map(|i| i as f64).product() };
                match kind {
                    2 => {
                        hit += ways * rest(next);
                        all += ways * rest(next);
                    }
                    1 => {
                        let (h2, a2) = walk(next, shields + 1);
                        hit += ways * h2;
                        all += ways * a2;
                    }
                    _ if shields == 0 => all += ways * rest(next),
                    _ => {
                        let (h2, a2) = walk(next, shields - 1);
                        hit += ways * h2;
                        all += ways * a2;
                    }
                }
            }
            (hit, all)
        }
        let (hit, all) = walk([b, s, c], h);
        hit / all
    }

    #[test]
    fn the_end_of_the_relaxed_prophet_game_comes_as_counted() {
        for b in 0..=5 {
            for s in 0..=3 {
                for h in [false, true] {
                    let row = before_stop(b as u32, s as u32, h);
                    for (c, &got) in row.iter().enumerate().take(4).skip(1) {
                        let want = before_stop_by_orders(b, s, usize::from(h), c);
                        assert!((got - want).abs() < 1e-12, "{b} {s} {h} {c}: {got} {want}");
                    }
                }
            }
        }
        // One card that busts and no shield: the first of `c` cards comes
        // before it with chance c / (c + 1).
        assert!((before_stop(1, 0, false)[3] - 0.75).abs() < 1e-15);
    }

    #[test]
    fn prophet_bound_is_above_the_prophet_value() {
        let piles: [&[u8]; 6] = [
            &[3, 3, 5, 9, TIMES2, PLUS2 + 4, SECOND_CHANCE, 9],
            &[3, 3, 3, 5, 5, 11, TIMES2, SECOND_CHANCE, SECOND_CHANCE],
            &[1, 2, 4, 6, 8, 10, 12, 3],
            &[12, 12, 12, 11, 11, TIMES2, TIMES2, PLUS2],
            &[7, 7, 6, SECOND_CHANCE, FREEZE, FLIP_THREE, PLUS2 + 2, 0, 1],
            &[2, 2, 4, 4, 8, 8, SECOND_CHANCE, SECOND_CHANCE, SECOND_CHANCE],
        ];
        let hands = [
            Hand::holding(&[3], 0, 0, false),
            Hand::holding(&[3, 7, 11], 2, 0, false),
            Hand::holding(&[5, 9], 0, 1, true),
            Hand::holding(&[0, 1, 2, 4, 6], 0, 0, false),
            Hand::holding(&[12], 0, 0, true),
        ];
        let mut tight = f64::INFINITY;
        for pile in piles {
            let mut u = [0u8; KINDS];
            for &c in pile {
                u[c as usize] += 1;
            }
            for h in &hands {
                let look = Look::new(h, &u);
                let exact = prophet_exact(&look);
                let bound = look.prophet();
                assert!(bound + 1e-9 >= exact, "{h:?} {pile:?}: {bound} < {exact}");
                tight = tight.min(bound - exact);
            }
        }
        // Some case is close: the bound is not vacuous.
        assert!(tight < 0.5, "closest {tight}");
    }
}
