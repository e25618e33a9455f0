//! Flip 7 through the engine's search interface ([`Search`]): `ismcts:N`.
//!
//! A determinization is the table with its unseen draw pile shuffled anew
//! (every card on the table, in front of a player or in the discard pile,
//! is face up; only the order of the draw pile is hidden). An iteration
//! plays the rest of the game from the decision with the rules engine,
//! [`Table::finish_game_from`], every decision of every seat (Hit or Stay,
//! a Freeze or Flip Three target, a spare Second Chance) asked of the
//! search's descent and, below the tree, played by the playout rule for
//! every seat. What the searching player sees between two decisions (every
//! hand, every total, the round) keys the tree's nodes.
//!
//! The root is a Hit-or-Stay decision: the rules engine can resume a game
//! from there. A target the `ismcts` seat chooses at the table (a Freeze or
//! Flip Three it drew) follows its spec's `freeze` and `flip-three` choices,
//! as every rule's do; inside the search every target is a node of the
//! tree.

use super::cards::{Card, FREEZE};
use super::policies::{Model, Policy, Seats, Thresholds};
use super::rules::{Chooser, Silent, Table};
use crate::engine::ismcts::{self, Descent, Key, Search};
use crate::engine::rng::SimRng;

/// A move at a Flip 7 decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Stay (bank the cards in front).
    Stay,
    /// Hit (one more card).
    Hit,
    /// A Freeze, Flip Three or spare Second Chance goes to this seat.
    To(u8),
}

/// The scratch space of `ismcts:N`: its tree and table copy, kept from one
/// decision to the next for their memory.
#[derive(Default)]
pub struct SearchScratch {
    tree: ismcts::Tree<Move>,
    copy: Option<Box<Table>>,
}

/// `ismcts:N` with playout rule `playout` (every seat, default choices):
/// whether `seat` hits, from a search seeded with `seed`.
pub fn hits(t: &Table, seat: usize, n: u32, playout: Model, seed: u64, scratch: &mut SearchScratch) -> bool {
    let copy = scratch.copy.get_or_insert_with(|| Box::new(t.clone()));
    let mv = match playout {
        Model::StayAt(at) => {
            let mut root = Root {
                t,
                seat,
                copy,
                playout: Thresholds::uniform(at),
            };
            ismcts::search(&mut root, n, seed, &mut scratch.tree)
        }
        model => {
            let mut root = Root {
                t,
                seat,
                copy,
                playout: Seats::new(vec![Policy::from(model.rule()); t.players()]),
            };
            ismcts::search(&mut root, n, seed, &mut scratch.tree)
        }
    };
    mv == Move::Hit
}

/// A Hit-or-Stay decision of `seat` at table `t`, searched.
struct Root<'a, P> {
    t: &'a Table,
    seat: usize,
    copy: &'a mut Table,
    playout: P,
}

impl<P: Chooser> Search for Root<'_, P> {
    type Move = Move;

    fn players(&self) -> usize {
        self.t.players()
    }

    fn iterate(&mut self, rng: &mut SimRng, descent: &mut Descent<'_, Move>, utility: &mut [f64]) {
        self.copy.clone_from(self.t);
        self.copy.shuffle_draw_pile(rng);
        let legal = hit_or_stay(self.playout.hit(self.t, self.seat));
        let first = descent.choose(self.seat, &legal, seen(self.t, 0));
        let hit = first == Some(Move::Hit);
        let mut asked = Asked {
            descent,
            playout: &mut self.playout,
        };
        self.copy.finish_game_from(self.seat, hit, &mut asked, &mut Silent, rng);
        let t = &*self.copy;
        let best = (0..t.players()).map(|s| t.total(s)).max().unwrap_or(0);
        ismcts::share_win(utility, (0..t.players()).filter(|&s| t.total(s) == best));
    }
}

/// The key of what every player sees at a decision of kind `kind`: every
/// hand in front, every game total, the round.
fn seen(t: &Table, kind: u64) -> u64 {
    let mut k = Key::default().mix(kind).mix(u64::from(t.round()));
    for s in 0..t.players() {
        let h = t.hand(s);
        let word = u64::from(h.numbers)
            | u64::from(h.plus) << 16
            | u64::from(h.times2) << 32
            | u64::from(h.second_chance) << 40
            | (h.status as u64) << 48;
        k = k.mix(word).mix(u64::from(t.total(s)));
    }
    k.get()
}

/// Every decision of an iteration: the descent's move while it is in the
/// tree, the playout rule's below it.
struct Asked<'d, 'e, P> {
    descent: &'d mut Descent<'e, Move>,
    playout: &'d mut P,
}

impl<P: Chooser> Chooser for Asked<'_, '_, P> {
    #[inline]
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        let hit = self.playout.hit(t, seat);
        if self.descent.searching()
            && let Some(m) = self.descent.choose(seat, &hit_or_stay(hit), seen(t, 0))
        {
            return m == Move::Hit;
        }
        hit
    }

    #[inline]
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        let to = self.playout.target(t, chooser, card);
        if self.descent.searching() {
            let legal = seats_where(t, to, |s| t.is_active(s));
            let kind = 1 + u64::from(card == FREEZE);
            if let Some(Move::To(s)) = self.descent.choose(chooser, &legal, seen(t, kind)) {
                return usize::from(s);
            }
        }
        to
    }

    #[inline]
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        let to = self.playout.second_chance_to(t, holder);
        if let Some(first) = to
            && self.descent.searching()
        {
            let legal = seats_where(t, first, |s| s != holder && t.is_active(s) && !t.hand(s).second_chance);
            if let Some(Move::To(s)) = self.descent.choose(holder, &legal, seen(t, 3)) {
                return Some(usize::from(s));
            }
        }
        to
    }
}

/// Hit and Stay, the playout rule's answer (`hit`) first: the search
/// tries a node's moves in the order listed, so that a node visited once
/// plays as the playout rule does.
fn hit_or_stay(hit: bool) -> [Move; 2] {
    if hit {
        [Move::Hit, Move::Stay]
    } else {
        [Move::Stay, Move::Hit]
    }
}

/// The seats for which `ok` holds, as moves, `first` (the playout rule's
/// choice) first.
fn seats_where(t: &Table, first: usize, ok: impl Fn(usize) -> bool) -> Vec<Move> {
    let rest = (0..t.players()).filter(|&s| s != first && ok(s));
    std::iter::once(first).chain(rest).map(|s| Move::To(s as u8)).collect()
}
