//! Flip-Flush through the engine's search interface ([`Search`]):
//! `ismcts:N` (`+playout:SPEC`).
//!
//! **Determinizations, weighted by the placements.** Before the search, the
//! deciding player draws a pool of worlds ([`super::worlds::Problem`], the
//! model `worlds:K/Q` reads): every card it has not seen dealt uniformly to
//! the Places whose card it did not see, to the other hands and to the
//! undealt rest, each world weighted by how likely it makes the public
//! history ([`super::worlds::Problem::world_weight`]: the Places on hot
//! cells read with the `Q` of the playout policy's `read:Q` or
//! `worlds:K/Q`, and a card its placer left face-down on a hot cell
//! through its turn). Each iteration picks a world from the pool in
//! proportion to its weight and builds the full table from it
//! ([`View::determinize`]); with a playout policy that counts (`count`)
//! every world weighs the same.
//!
//! **Decisions.** Flip-Flush has one kind of decision, a turn: Place a card
//! on a cell, or Flip a face-down cell with or without a call. The rules
//! engine resumes a game at any turn ([`super::rules::Table::play_game`]),
//! so the root is every decision of the `ismcts` seat. An iteration plays
//! the rest of the game from there with the rules engine; every turn of
//! the searching seat is asked of the search's descent (a node of the tree
//! while it is in the tree), and every other turn, and every turn below
//! the tree, is the playout policy's. Only suits matter, so a Place is
//! searched as one card of each suit held (the lowest) on each of the nine
//! cells; a Flip that is a certain fault (a call where no Flush can be
//! made, no call where one is certain, counted from what the mover knows)
//! is left out. The playout policy's move is listed first, so that a node
//! visited once plays as the playout policy does.
//!
//! **The opponents are the playout policy.** The opponents' turns are not
//! nodes of the tree: the card an opponent places is hidden from the
//! searching player, so in a single-observer tree its Places would be
//! edges the searching player cannot tell apart, and its choices would be
//! made knowing the searching player's hand. With every seat's turns in
//! the tree the search lost to the default (`ismcts:1000` won 30.83%
//! [22.23, 39.44] of 120 games against the default's 44.17%, 2 players,
//! seats rotated); with the opponents played by the playout policy it
//! wins (docs/search.md).
//!
//! **Key.** What the searching player sees between two of its turns: the
//! suits face up on the grid, the face-down cells, who placed the card of
//! each cell and who is still in the game (its own moves are the tree's
//! edges).

use std::cell::RefCell;

use rand::{Rng, SeedableRng};

use super::cards::{CELLS, Card, CardSet, SUITS, suit, suit_set};
use super::policies::{Model, Policy, Seats, Sight};
use super::rules::{Chooser, Move, Silent, View};
use super::worlds::Problem;
use crate::engine::ismcts::{self, Descent, Key, Search, Tree};
use crate::engine::rng::{Draw, SimRng};

/// What `ismcts:N` (`+playout:SPEC`) says: kept once per process and
/// pointed to, so that a policy stays small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Iterations per decision.
    pub n: u32,
    /// The policy every seat plays below the tree.
    pub playout: Policy,
}


/// `ismcts:N` or `ismcts:N+playout:SPEC` (`SPEC` a whole Flip-Flush spec,
/// the rest of the text): `None` when `spec` is not of that form.
pub fn parse(spec: &str) -> Option<Result<Policy, String>> {
    let spec = spec.trim();
    let (head, playout) = match spec.split_once("+playout:") {
        Some((h, p)) => (h, Some(p)),
        None => (spec, None),
    };
    if !head.trim().starts_with("ismcts:") {
        return None;
    }
    if head.contains('+') {
        return Some(Err(format!(
            "'{spec}': ismcts:N takes no other part than +playout:SPEC (ismcts:N+playout:SPEC)"
        )));
    }
    let n = match ismcts::parse_iterations(head)? {
        Ok(n) => n,
        Err(e) => return Some(Err(e)),
    };
    let playout = match playout {
        None => Policy::default_policy(),
        Some(p) => match Policy::parse(p.trim()) {
            Ok(p) if p.search.is_none() => p,
            Ok(_) => return Some(Err(format!("'{spec}': the playout SPEC cannot itself be ismcts:N"))),
            Err(e) => return Some(Err(format!("'{spec}': the playout SPEC '{}': {e}", p.trim()))),
        },
    };
    Some(Ok(Policy::searching(ismcts::intern(Searched { n, playout }))))
}

/// Most worlds drawn for one decision (fewer when N is smaller).
pub const WORLD_POOL: usize = 1024;

/// The scratch space of `ismcts:N`, kept by each thread from one decision
/// to the next for its memory.
#[derive(Default)]
struct Scratch {
    tree: Tree<Move>,
    worlds: Worlds,
    legal: Vec<Move>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The move of `ismcts:N` (`s`) for the player whose view is `v`: a search
/// seeded by one number drawn from `d` (the player's own stream), so that
/// it depends on nothing the player cannot know.
#[inline(never)]
pub fn choose<D: Draw>(v: &View<'_>, s: &Searched, d: &mut D) -> Move {
    let seed = u64::from(d.below(u32::MAX)) << 32 | u64::from(d.below(u32::MAX));
    SCRATCH.with_borrow_mut(|scratch| {
        let mut rng = SimRng::seed_from_u64(seed ^ 0x5EED_0F30_12D5);
        scratch.worlds.draw(v, &s.playout, s.n, &mut rng);
        let mut root = Root {
            v: *v,
            worlds: &scratch.worlds,
            playout: Seats::new(vec![s.playout; v.players()]),
            legal: &mut scratch.legal,
        };
        ismcts::search(&mut root, s.n, seed, &mut scratch.tree)
    })
}

/// The root moves of the last search of this thread, with their visits and
/// mean utilities (for tests and measurements).
pub fn last_root() -> Vec<ismcts::RootStat<Move>> {
    SCRATCH.with_borrow(|s| s.tree.root())
}

/// A pool of worlds for one decision, with their cumulated weights.
#[derive(Default)]
struct Worlds {
    events: usize,
    players: usize,
    places: Vec<Card>,
    hands: Vec<CardSet>,
    cum: Vec<f64>,
}

impl Worlds {
    /// Draws `min(n, WORLD_POOL)` worlds for the player of `v`, weighted
    /// with the `Q` of `playout`'s model (all alike for `count`, or when the
    /// evidence rules every drawn world out).
    fn draw(&mut self, v: &View<'_>, playout: &Policy, n: u32, rng: &mut SimRng) {
        let q = match playout.model {
            Model::Read(q) | Model::Worlds(_, q) => Some(q),
            Model::Count => None,
        };
        let problem = Problem::from_view(v, 0, &[0; CELLS], q.unwrap_or(0));
        let k = (n as usize).min(WORLD_POOL);
        let (e, p) = (problem.events.len(), v.players());
        (self.events, self.players) = (e, p);
        self.places.resize(k * e, 0);
        self.hands.resize(k * p, 0);
        self.cum.clear();
        let mut total = 0.0;
        for w in 0..k {
            let cards = &mut self.places[w * e..(w + 1) * e];
            let hands = &mut self.hands[w * p..(w + 1) * p];
            problem.uniform_world(rng, cards, hands);
            total += if q.is_some() {
                problem.world_weight(cards, hands, false)
            } else {
                1.0
            };
            self.cum.push(total);
        }
        if total <= 0.0 {
            for (i, c) in self.cum.iter_mut().enumerate() {
                *c = (i + 1) as f64;
            }
        }
    }

    /// A world of the pool, in proportion to its weight.
    fn pick(&self, rng: &mut SimRng) -> (&[Card], &[CardSet]) {
        let total = *self.cum.last().expect("a pool of at least one world");
        let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let w = self.cum.partition_point(|&c| c <= x).min(self.cum.len() - 1);
        let (e, p) = (self.events, self.players);
        (&self.places[w * e..(w + 1) * e], &self.hands[w * p..(w + 1) * p])
    }
}

/// A decision of the player of `v`, searched.
struct Root<'a> {
    v: View<'a>,
    worlds: &'a Worlds,
    playout: Seats,
    legal: &'a mut Vec<Move>,
}

impl Search for Root<'_> {
    type Move = Move;

    fn players(&self) -> usize {
        self.v.players()
    }

    fn iterate(&mut self, rng: &mut SimRng, descent: &mut Descent<'_, Move>, utility: &mut [f64]) {
        let (places, hands) = self.worlds.pick(rng);
        let mut t = self.v.determinize(places, hands, rng);
        let mut asked = Asked {
            descent,
            playout: &mut self.playout,
            legal: self.legal,
            searcher: self.v.seat(),
        };
        let end = t.play_game(&mut asked, &mut Silent, rng);
        match end.winner() {
            Some(w) => utility[w] = 1.0,
            None => ismcts::share_win(utility, (0..t.players()).filter(|&s| t.is_alive(s))),
        }
    }
}

/// Every turn of an iteration: the descent's move while it is in the tree,
/// the playout policy's below it.
struct Asked<'d, 'e> {
    descent: &'d mut Descent<'e, Move>,
    playout: &'d mut Seats,
    legal: &'d mut Vec<Move>,
    /// The seat searching: the only one whose turns are nodes of the tree.
    searcher: usize,
}

impl Chooser for Asked<'_, '_> {
    #[inline]
    fn choose<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Move {
        let mv = self.playout.choose(v, d);
        if v.seat() == self.searcher && self.descent.searching() {
            legal_moves(v, mv, self.legal);
            if let Some(m) = self.descent.choose(v.seat(), self.legal, seen(v)) {
                return m;
            }
        }
        mv
    }
}

/// The key of what every player sees at a turn: the suits face up, the
/// face-down cells, who placed each card, who is still in the game.
fn seen(v: &View<'_>) -> u64 {
    let word = u64::from(v.up_code()) | u64::from(v.down()) << 32 | u64::from(v.alive_mask()) << 48;
    let mut k = Key::default().mix(word);
    for s in 0..v.players() {
        k = k.mix(u64::from(v.placed_by(s)));
    }
    k.get()
}

/// A Place as searched: the lowest card of its suit in the hand.
fn canonical(hand: CardSet, mv: Move) -> Move {
    match mv {
        Move::Place { card, cell } => Move::Place {
            card: (hand & suit_set(suit(card))).trailing_zeros() as Card,
            cell,
        },
        flip => flip,
    }
}

/// The moves searched at a turn of the player of `v`, the playout policy's
/// move `first` first: a Place of the lowest card of each suit held on each
/// cell, and each Flip with and without a call but a certain fault.
pub fn legal_moves(v: &View<'_>, first: Move, out: &mut Vec<Move>) {
    out.clear();
    let hand = v.hand();
    let first = canonical(hand, first);
    out.push(first);
    for s in 0..SUITS {
        let h = hand & suit_set(s);
        if h == 0 {
            continue;
        }
        let card = h.trailing_zeros() as Card;
        for cell in 0..CELLS {
            let m = Move::Place { card, cell };
            if m != first {
                out.push(m);
            }
        }
    }
    let mut down = v.down();
    if down == 0 {
        return;
    }
    let sight = Sight::new(v);
    while down != 0 {
        let cell = down.trailing_zeros() as usize;
        down &= down - 1;
        let (num, den) = sight.chance(cell);
        for call in [false, true] {
            let fault = if call { num == 0 } else { den > 0 && num == den };
            let m = Move::Flip { cell, call };
            if !fault && m != first {
                out.push(m);
            }
        }
    }
}
