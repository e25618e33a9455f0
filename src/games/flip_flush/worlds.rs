//! The `worlds:K/Q` model of the opponents: a posterior over where the
//! cards a player has not seen lie, estimated from `K` sampled worlds
//! weighted by how likely each makes everything the player saw.
//!
//! # The model
//!
//! A **world** puts every card the player has not seen ([`View::unseen`])
//! somewhere: in the hands of the other players now, on each Place of the
//! game whose card the player did not see, or in the rest (the undealt
//! cards). Before any evidence every world is equally likely (the deal is
//! uniform). The evidence is the public history ([`View::history`]),
//! read under a level-1 model of every placer:
//!
//! - **Places on hot cells.** Just before a Place its placer held its
//!   hand of now plus every card it placed since (in a world, all known).
//!   On a hot cell (suits `D` would have completed a line there), holding
//!   cards of `D` *and* of other suits, the placer put a card of `D` there
//!   with probability `Q` (each alike) and another with probability
//!   `1 - Q` (each alike): the weight of the world is `Q / d` or
//!   `(1 - Q) / r` (`d`, `r` cards of each kind in that hand). Holding one
//!   kind only, it put any card, each alike (`1 / hand`). Places on cells
//!   that were not hot say nothing. This is `read:Q`'s placer, but with one
//!   hand per player followed through all its Places: a player who spent
//!   its other suits on traps has fewer left, and its later hot Places
//!   are read with the hand it can still hold.
//! - **Placed and then protected.** An opponent whose own face-down card
//!   lay on a hot cell at the start of its turn, and who did not flip with
//!   a call that turn, would have flipped and called it had the card been
//!   of a demanded suit and remembered (the chance of remembering is the
//!   table's `--memory`): a world where that card is of a suit demanded at
//!   any such turn has weight `1 - memory`. With full memory a trap that
//!   survives its placer's turn is known not to be a Flush.
//!
//! The chance `p` of a hot face-down cell the player does not know is the
//! weighted share of worlds where its card has a suit demanded now. The
//! worlds are drawn by sequential importance sampling: cards constrained by
//! protection first, by suit in proportion to their weight, then the other
//! cards uniformly; only the cards that enter a weight or a chance are
//! drawn (the hands of players with no hot Place, and their unread cards,
//! are exchangeable with the rest). The random numbers come from one draw
//! of the player's own random stream, made only when some cell is read, so
//! they depend on nothing the player cannot know.

use super::cards::{CELLS, Card, CardSet, SUITS, suit, suit_set};
use super::rules::{HAND_SIZE as HAND, MEMORY_ONE, View};
use crate::engine::rng::Draw;

/// Most Places in a game (every card of six hands).
const MAX_EVENTS: usize = HAND * 6;

/// The evidence and unknowns of one decision, in a form the sampler and the
/// brute-force tests share.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Cards the player has not seen: the pool a world deals from.
    pub pool: CardSet,
    /// The Places of the game in order: placer, card (if seen) and the
    /// suits that would have completed a line on its cell then (0: not hot).
    pub events: Vec<Event>,
    /// For each seat, its hand now if the player knows it (its own),
    /// else `None`; and how many cards it holds.
    pub hands: Vec<(Option<CardSet>, u32)>,
    /// The chance, in millionths, that a placer remembers its card.
    pub memory: u32,
    /// `Q`, in millionths.
    pub q: u32,
    /// Cells to read: the Place that put the card there and the suits that
    /// complete a line there now.
    pub targets: Vec<(usize, usize, u8)>,
}

/// One Place of the history, as the reading player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The placer.
    pub seat: usize,
    /// The card, if the reading player saw it.
    pub card: Option<Card>,
    /// Suits that would have completed a line on the cell then (0: the
    /// cell was not hot).
    pub demand: u8,
    /// Suits demanded on the cell at a later turn of the placer that did
    /// not flip with a call, while the card lay there face-down.
    pub kept: u8,
}

/// The suits (bit mask) that would complete a line through `cell` given the
/// face-up suit codes `code` (0: not face-up, else 1 + suit).
pub fn demand_at(cell: usize, code: &[u8; CELLS]) -> u8 {
    let (r, c) = (cell / 3, cell % 3);
    let mut lines: Vec<[usize; 2]> = vec![
        [3 * r + (c + 1) % 3, 3 * r + (c + 2) % 3],
        [3 * ((r + 1) % 3) + c, 3 * ((r + 2) % 3) + c],
    ];
    if r == c {
        lines.push([3 * ((r + 1) % 3) + (c + 1) % 3, 3 * ((r + 2) % 3) + (c + 2) % 3]);
    }
    if r + c == 2 {
        lines.push([3 * ((r + 1) % 3) + (c + 2) % 3, 3 * ((r + 2) % 3) + (c + 1) % 3]);
    }
    let mut d = 0;
    for [a, b] in lines {
        if code[a] != 0 && code[a] == code[b] {
            d |= 1 << (code[a] - 1);
        }
    }
    d
}

impl Problem {
    /// The problem of the player whose view is `v`, reading the cells
    /// `targets` (hot, face-down, unknown to the player), whose demanded
    /// suits now are `demand`.
    pub fn from_view(v: &View<'_>, targets: u16, demand: &[u8; CELLS], q: u32) -> Problem {
        let me = v.seat();
        let n = v.players();
        let mut code = [0u8; CELLS];
        let mut down = 0u16;
        let mut on_cell = [usize::MAX; CELLS];
        let mut events: Vec<Event> = Vec::with_capacity(MAX_EVENTS);
        let mut placed = [0u32; 8];
        for i in 0..v.history_len() {
            let e = v.history(i);
            if e.seat != me && !(e.flip && e.call) {
                let mut m = down;
                while m != 0 {
                    let cell = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let ev = &mut events[on_cell[cell]];
                    if ev.seat == e.seat {
                        ev.kept |= demand_at(cell, &code);
                    }
                }
            }
            if e.flip {
                code[e.cell] = 1 + suit(e.card.expect("a flipped card is seen")) as u8;
                down &= !(1 << e.cell);
            } else {
                events.push(Event {
                    seat: e.seat,
                    card: e.card,
                    demand: demand_at(e.cell, &code),
                    kept: 0,
                });
                on_cell[e.cell] = events.len() - 1;
                code[e.cell] = 0;
                down |= 1 << e.cell;
                placed[e.seat] += 1;
            }
        }
        let hands = (0..n)
            .map(|s| {
                let known = (s == me).then(|| v.hand());
                (known, HAND as u32 - placed[s])
            })
            .collect();
        let mut t = Vec::new();
        let mut m = targets;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            t.push((cell, on_cell[cell], demand[cell]));
        }
        Problem {
            pool: v.unseen(),
            events,
            hands,
            memory: v.memory(),
            q,
            targets: t,
        }
    }

    /// Seats whose hands enter a weight: those with a hot Place whose card
    /// or hand the player does not fully know.
    fn needed_seats(&self) -> u8 {
        self.events
            .iter()
            .filter(|e| e.demand != 0)
            .fold(0, |m, e| m | 1 << e.seat)
    }

    /// The weight of protection evidence for a card of suit `s` on a Place
    /// kept under the demands `kept`.
    fn kept_factor(&self, kept: u8, s: usize) -> f64 {
        if kept >> s & 1 != 0 {
            1.0 - f64::from(self.memory) / f64::from(MEMORY_ONE)
        } else {
            1.0
        }
    }

    /// The weight of a complete world: `cards[i]` the card of event `i`,
    /// `hands[s]` the hand of seat `s` now (only the hands of seats with a
    /// hot Place are read). Protection factors (of cards the player did not
    /// see) are left out when `skip_kept`: the sampler draws those cards in
    /// proportion to them.
    pub fn world_weight(&self, cards: &[Card], hands: &[CardSet], skip_kept: bool) -> f64 {
        let q = f64::from(self.q) / f64::from(MEMORY_ONE);
        let needed = self.needed_seats();
        let mut held = [0u64; 8];
        held[..hands.len()].copy_from_slice(hands);
        let mut w = 1.0;
        for (i, e) in self.events.iter().enumerate().rev() {
            let c = cards[i];
            if e.kept != 0 && e.card.is_none() && !skip_kept {
                w *= self.kept_factor(e.kept, suit(c));
            }
            if needed >> e.seat & 1 == 0 {
                continue;
            }
            let h = held[e.seat] | 1 << c;
            held[e.seat] = h;
            if e.demand == 0 {
                continue;
            }
            let fit = (0..SUITS)
                .filter(|&s| e.demand >> s & 1 != 0)
                .fold(0u64, |m, s| m | suit_set(s));
            let nd = (h & fit).count_ones();
            let nr = h.count_ones() - nd;
            w *= if nd == 0 || nr == 0 {
                1.0 / f64::from(h.count_ones())
            } else if e.demand >> suit(c) & 1 != 0 {
                q / f64::from(nd)
            } else {
                (1.0 - q) / f64::from(nr)
            };
        }
        w
    }

    /// A world drawn uniformly, before any evidence (for the search's
    /// determinizations, which weigh it with [`Problem::world_weight`]):
    /// `cards[i]` the card of event `i` (a seen one as it was, else dealt
    /// from the pool) and `hands[s]` each hand now (the player's own as it
    /// is, the others dealt from what is left of the pool), shuffled by `d`.
    pub fn uniform_world<D: Draw>(&self, d: &mut D, cards: &mut [Card], hands: &mut [CardSet]) {
        let mut pool = [0 as Card; 64];
        let mut len = 0;
        for c in super::cards::cards_of(self.pool) {
            pool[len] = c;
            len += 1;
        }
        d.shuffle(&mut pool[..len]);
        let mut next = pool[..len].iter().copied();
        for (c, e) in cards.iter_mut().zip(&self.events) {
            *c = e.card.unwrap_or_else(|| next.next().expect("the pool holds every unseen Place"));
        }
        for (h, &(known, n)) in hands.iter_mut().zip(&self.hands) {
            *h = known.unwrap_or_else(|| next.by_ref().take(n as usize).fold(0, |m, c| m | 1 << c));
        }
    }

    /// The chance of each target, in units of `one`, from `k` worlds drawn
    /// with the generator seeded by `seed`; `None` when every drawn world
    /// has weight 0 (the evidence contradicts the model).
    pub fn sample(&self, k: u32, seed: u64, one: u32) -> Option<Vec<u32>> {
        let mut rng = Mix(seed);
        let needed = self.needed_seats();
        let mut is_target = vec![false; self.events.len()];
        for &(_, e, _) in &self.targets {
            is_target[e] = true;
        }
        // Events to draw: constrained ones first, then the rest.
        let mut order: Vec<usize> = (0..self.events.len())
            .filter(|&i| {
                let e = &self.events[i];
                e.card.is_none() && (needed >> e.seat & 1 != 0 || is_target[i] || e.kept != 0)
            })
            .collect();
        order.sort_by_key(|&i| self.events[i].kept == 0);
        let hand_seats: Vec<usize> = (0..self.hands.len())
            .filter(|&s| needed >> s & 1 != 0 && self.hands[s].0.is_none())
            .collect();
        let mut cards: Vec<Card> = self.events.iter().map(|e| e.card.unwrap_or(0)).collect();
        let mut hands: Vec<CardSet> = self.hands.iter().map(|h| h.0.unwrap_or(0)).collect();
        let base_counts: [u32; SUITS] = std::array::from_fn(|s| (self.pool & suit_set(s)).count_ones());
        let mut hit = vec![0f64; self.targets.len()];
        let mut total = 0f64;
        for _ in 0..k {
            let mut pool = self.pool;
            let mut counts = base_counts;
            let mut w = 1.0;
            for &i in &order {
                let kept = self.events[i].kept;
                let s = if kept == 0 {
                    rng.pick_suit(&counts, &[1.0; SUITS])
                } else {
                    let f: [f64; SUITS] = std::array::from_fn(|s| self.kept_factor(kept, s));
                    let all: u32 = counts.iter().sum();
                    let tot: f64 = (0..SUITS).map(|s| f[s] * f64::from(counts[s])).sum();
                    w *= tot / f64::from(all);
                    if tot == 0.0 {
                        break;
                    }
                    rng.pick_suit(&counts, &f)
                };
                let c = rng.card_of(pool, s, counts[s]);
                pool &= !(1 << c);
                counts[s] -= 1;
                cards[i] = c;
            }
            if w == 0.0 {
                continue;
            }
            for &s in &hand_seats {
                let mut h = 0;
                for _ in 0..self.hands[s].1 {
                    let su = rng.pick_suit(&counts, &[1.0; SUITS]);
                    let c = rng.card_of(pool, su, counts[su]);
                    pool &= !(1 << c);
                    counts[su] -= 1;
                    h |= 1 << c;
                }
                hands[s] = h;
            }
            w *= self.world_weight(&cards, &hands, true);
            total += w;
            for (j, &(_, e, want)) in self.targets.iter().enumerate() {
                if want >> suit(cards[e]) & 1 != 0 {
                    hit[j] += w;
                }
            }
        }
        if total <= 0.0 {
            return None;
        }
        let allowed_full = self.memory == MEMORY_ONE;
        Some(
            self.targets
                .iter()
                .zip(&hit)
                .map(|(&(_, e, want), &h)| {
                    let kept = self.events[e].kept;
                    let possible = self.pool & suits_of(want) != 0 && !(allowed_full && want & !kept == 0);
                    let sure = self.pool & !suits_of(want) == 0;
                    if !possible {
                        0
                    } else if sure {
                        one
                    } else {
                        // Never 0 or 1 from sampling alone.
                        ((h / total * f64::from(one)).round() as u32).clamp(1, one - 1)
                    }
                })
                .collect(),
        )
    }
}

/// The cards of the suits `m` (a bit mask).
fn suits_of(m: u8) -> CardSet {
    (0..SUITS).filter(|&s| m >> s & 1 != 0).fold(0, |a, s| a | suit_set(s))
}

/// SplitMix64: the sampler's own generator, seeded from one draw of the
/// player's stream.
struct Mix(u64);

impl Mix {
    #[inline]
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A suit with probability in proportion to `counts[s] * f[s]`.
    #[inline]
    fn pick_suit(&mut self, counts: &[u32; SUITS], f: &[f64; SUITS]) -> usize {
        let tot: f64 = (0..SUITS).map(|s| f[s] * f64::from(counts[s])).sum();
        let mut x = self.unit() * tot;
        let mut last = 0;
        for s in 0..SUITS {
            let m = f[s] * f64::from(counts[s]);
            if m > 0.0 {
                last = s;
                if x < m {
                    return s;
                }
                x -= m;
            }
        }
        last
    }

    /// A uniform card of suit `s` among the `count` of it in `pool`.
    #[inline]
    fn card_of(&mut self, pool: CardSet, s: usize, count: u32) -> Card {
        let k = ((self.next() >> 32) * u64::from(count)) >> 32;
        let mut m = pool & suit_set(s);
        for _ in 0..k {
            m &= m - 1;
        }
        m.trailing_zeros() as Card
    }
}

#[cfg(test)]
mod tests {
    use super::super::policies::visit_real_positions;
    use super::super::rules::Rules;
    use super::*;

    const ALL_TARGETS: u16 = (1 << CELLS) - 1;
    use crate::engine::rng::{Draw, SimRng, batch_rng};

    /// The model's posterior by enumeration: every way to deal the pool to
    /// the unknown cards of `p` (its unseen Places and the hands of the
    /// other seats), each deal weighted by the model's statement written
    /// out directly (not with [`Problem::world_weight`]).
    fn brute_force(p: &Problem) -> Vec<f64> {
        let q = f64::from(p.q) / 1e6;
        let m = f64::from(p.memory) / 1e6;
        let pool: Vec<Card> = (0..52).filter(|&c| p.pool >> c & 1 != 0).collect();
        let mut slots = Vec::new(); // (event or hand seat, is_hand)
        for (i, e) in p.events.iter().enumerate() {
            if e.card.is_none() {
                slots.push((i, false));
            }
        }
        for (s, h) in p.hands.iter().enumerate() {
            if h.0.is_none() {
                for _ in 0..h.1 {
                    slots.push((s, true));
                }
            }
        }
        let mut hit = vec![0f64; p.targets.len()];
        let mut total = 0f64;
        let mut pick = vec![0usize; slots.len()];
        let mut used = vec![false; pool.len()];
        fn walk(k: usize, pick: &mut Vec<usize>, used: &mut Vec<bool>, f: &mut dyn FnMut(&[usize])) {
            if k == pick.len() {
                f(pick);
                return;
            }
            for j in 0..used.len() {
                if !used[j] {
                    used[j] = true;
                    pick[k] = j;
                    walk(k + 1, pick, used, f);
                    used[j] = false;
                }
            }
        }
        let mut eval = |pick: &[usize]| {
            let mut cards: Vec<Card> = p.events.iter().map(|e| e.card.unwrap_or(0)).collect();
            let mut hands: Vec<Vec<Card>> = p.hands.iter().map(|h| (0..52).filter(|&c| h.0.unwrap_or(0) >> c & 1 != 0).collect()).collect();
            for (&(x, is_hand), &j) in slots.iter().zip(pick) {
                if is_hand {
                    hands[x].push(pool[j]);
                } else {
                    cards[x] = pool[j];
                }
            }
            let mut w = 1.0;
            for (i, e) in p.events.iter().enumerate() {
                // The hand just before: the hand now and every card placed since.
                let mut h: Vec<Card> = hands[e.seat].clone();
                for (j, f) in p.events.iter().enumerate().skip(i) {
                    if f.seat == e.seat {
                        h.push(cards[j]);
                    }
                }
                let fits = |c: Card| e.demand >> suit(c) & 1 != 0;
                let nd = h.iter().filter(|&&c| fits(c)).count() as f64;
                let nr = h.len() as f64 - nd;
                if e.demand != 0 {
                    w *= if nd == 0.0 || nr == 0.0 {
                        1.0 / h.len() as f64
                    } else if fits(cards[i]) {
                        q / nd
                    } else {
                        (1.0 - q) / nr
                    };
                } else {
                    w *= 1.0 / h.len() as f64;
                }
                if e.card.is_none() && e.kept >> suit(cards[i]) & 1 != 0 {
                    w *= 1.0 - m;
                }
            }
            total += w;
            for (t, &(_, e, want)) in p.targets.iter().enumerate() {
                if want >> suit(cards[e]) & 1 != 0 {
                    hit[t] += w;
                }
            }
        };
        walk(0, &mut pick, &mut used, &mut eval);
        hit.iter().map(|h| h / total).collect()
    }

    #[test]
    fn world_belief_matches_brute_force_on_small_problems() {
        let mut rng: SimRng = batch_rng(11, 11);
        let mut checked = 0;
        for case in 0..300 {
            // A pool of 5 to 8 cards; two or three seats; up to four Places.
            let size = 5 + rng.below(4) as usize;
            let mut deck: Vec<Card> = (0..52).collect();
            let mut pool = 0u64;
            for _ in 0..size {
                let j = rng.below(deck.len() as u32) as usize;
                pool |= 1 << deck.swap_remove(j);
            }
            let seats = 2 + rng.below(2) as usize;
            let mut mine = 0u64;
            for _ in 0..2 {
                let j = rng.below(deck.len() as u32) as usize;
                mine |= 1 << deck.swap_remove(j);
            }
            let mut events = Vec::new();
            let mut slots = 0;
            let n_events = 1 + rng.below(4) as usize;
            for _ in 0..n_events {
                let seat = rng.below(seats as u32) as usize;
                let seen = seat == 0 && rng.below(3) == 0;
                let card = if seen {
                    let j = rng.below(deck.len() as u32) as usize;
                    Some(deck.swap_remove(j))
                } else {
                    slots += 1;
                    None
                };
                let demand = if rng.below(4) == 0 { 0 } else { 1 + rng.below(15) as u8 };
                let kept = if seat != 0 && rng.below(3) == 0 { 1 + rng.below(15) as u8 } else { 0 };
                events.push(Event { seat, card, demand, kept });
            }
            let mut hands = vec![(Some(mine), 2)];
            for _ in 1..seats {
                let h = rng.below(3).min((size - slots).saturating_sub(0) as u32);
                let h = h.min((size - slots) as u32);
                slots += h as usize;
                hands.push((None, h));
            }
            if slots > size {
                continue;
            }
            let targets: Vec<(usize, usize, u8)> = (0..events.len())
                .filter(|&i| events[i].card.is_none())
                .map(|i| (i, i, 1 + rng.below(15) as u8))
                .collect();
            if targets.is_empty() {
                continue;
            }
            let memory = [1_000_000, 600_000, 0][case % 3];
            let q = [100_000, 500_000, 900_000][case % 3];
            let p = Problem { pool, events, hands, memory, q, targets };
            let exact = brute_force(&p);
            let Some(got) = p.sample(200_000, case as u64, 1 << 24) else {
                assert!(exact.iter().all(|x| x.is_nan()), "{p:?}: sampler found no world, brute force {exact:?}");
                continue;
            };
            for (g, e) in got.iter().zip(&exact) {
                let g = f64::from(*g) / f64::from(1u32 << 24);
                assert!((g - e).abs() < 0.01, "{p:?}: sampled {g}, exact {e}");
                checked += usize::from(*e > 0.01 && *e < 0.99);
            }
        }
        assert!(checked > 100, "{checked} chances strictly between 0 and 1");
    }

    /// On positions reached in play: the history replayed from what the
    /// player saw gives each card on the grid the hot-cell demand the table
    /// recorded and each seat its hand size; and where few cards are
    /// unknown, the sampled chances match the enumeration.
    #[test]
    fn world_belief_on_real_positions_matches_brute_force() {
        let (mut replayed, mut enumerated) = (0, 0);
        let specs = [
            "call-at:1+place-trap+flip-safe+place-build",
            "call-at:1+place-hot+flip-safe+place-build",
            "call-at:1+flip-safe+place-block+place-build",
        ];
        let rules = |players, seed: u64| Rules {
            players,
            gambling: false,
            memory: [MEMORY_ONE, 500_000][(seed % 2) as usize],
        };
        visit_real_positions(200, 23, 60, specs, rules, |seed, t, s| {
            let v = t.view(s);
            let down = t.grid().masks().1;
            let mut code = [0u8; CELLS];
            for (c, x) in code.iter_mut().enumerate() {
                if let Some(card) = v.face_up(c) {
                    *x = 1 + suit(card) as u8;
                }
            }
            let demand: [u8; CELLS] = std::array::from_fn(|c| demand_at(c, &code));
            let targets = (0..CELLS as u16)
                .filter(|&c| down >> c & 1 != 0 && v.known() >> c & 1 == 0 && demand[c as usize] != 0)
                .fold(0u16, |m, c| m | 1 << c);
            let p = Problem::from_view(&v, ALL_TARGETS & targets, &demand, 200_000);
            for (x, h) in p.hands.iter().enumerate() {
                assert_eq!(h.1, if t.is_alive(x) { v.hand_len(x) } else { h.1 });
            }
            for &(cell, e, _) in &p.targets {
                assert_eq!(p.events[e].demand, v.placed_demand(cell), "seed {seed} cell {cell}");
                assert_eq!(p.events[e].seat, v.placer(cell).unwrap());
                replayed += 1;
            }
            // Small enough to enumerate. The hands of seats with no
            // hot Place enter no weight: they are left with the rest.
            let needed = p.needed_seats();
            let mut small = p.clone();
            for (x, h) in small.hands.iter_mut().enumerate() {
                if needed >> x & 1 == 0 && h.0.is_none() {
                    h.1 = 0;
                }
            }
            let unknown = small.events.iter().filter(|e| e.card.is_none()).count() as u32
                + small.hands.iter().filter(|h| h.0.is_none()).map(|h| h.1).sum::<u32>();
            if p.targets.is_empty() || unknown > 3 || p.pool.count_ones() > 40 {
                return;
            }
            let exact = brute_force(&small);
            let Some(got) = p.sample(100_000, seed, 1 << 24) else {
                return;
            };
            for (g, e) in got.iter().zip(&exact) {
                let g = f64::from(*g) / f64::from(1u32 << 24);
                assert!((g - e).abs() < 0.01, "seed {seed}: sampled {g}, exact {e}; {p:?}");
                enumerated += 1;
            }
        });
        assert!(replayed > 500 && enumerated > 20, "{replayed} cells replayed, {enumerated} enumerated");
    }
}
