//! Information-set Monte Carlo tree search: one search player for every
//! game that describes its decisions through [`Search`].
//!
//! Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): each
//! iteration samples a determinization (a full state consistent with what
//! the deciding player knows), plays it from the decision to the end of the
//! game, choosing moves with UCB1 down a tree of the deciding player's
//! information sets and with the game's playout policy below it, and adds
//! the result to every move chosen in the tree. The move played is the root
//! move chosen most often. `docs/search.md` states the choices (exploration
//! constant, chance, hidden moves, no tree reuse between decisions).
//!
//! The game drives each iteration: its own rules engine plays the
//! determinization and asks a [`Descent`] at every decision (whoever
//! decides). While the descent is in the tree it answers with a move; once
//! it has left the tree it answers `None` and the game plays its playout
//! policy. So a game's rules engine is used as it is, with its fast paths,
//! and needs no step-by-step state machine.
//!
//! The tree is keyed by the moves made and by what the searching player
//! sees between them (a key the game computes, e.g. the cards turned face
//! up): after Hit, each card drawn leads to its own node, as it leads to its
//! own information set at the table. A node's statistics only count the
//! iterations where its move was legal (availability counts), so moves
//! legal in some determinizations only are compared fairly.
//!
//! This module names no game.

use std::fmt::Debug;

use rand::SeedableRng;

use super::game::PolicyDoc;
use super::rng::SimRng;

/// UCB1's exploration constant for utilities in 0..=1 (a win is 1): the
/// value Cowling, Powley and Whitehouse found good across their games.
pub const EXPLORATION: f64 = 0.7;

/// Largest N accepted by `ismcts:N`.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// The `ismcts:N` line of every game's `--list-policies`.
pub const DOC: PolicyDoc = PolicyDoc {
    spec: "ismcts:N",
    does: "information-set Monte Carlo tree search: N determinized playouts per decision, UCB1 down a tree of \
           what the player sees, the game's default policy below it (1 <= N <= 1000000; +playout:RULE \
           chooses the playout policy; slow)",
};

/// `ismcts:N`: the N of a spec part, `None` when the part is not of that
/// form, or an error naming the value and what is accepted.
pub fn parse_iterations(part: &str) -> Option<Result<u32, String>> {
    let n = part.trim().strip_prefix("ismcts:")?;
    Some(match n.parse::<u32>() {
        Ok(k @ 1..=MAX_ITERATIONS) if !n.starts_with('+') => Ok(k),
        _ => Err(format!(
            "'{}': N must be a whole number from 1 to {MAX_ITERATIONS} (ismcts:N)",
            part.trim()
        )),
    })
}

/// The one `'static` copy of `value` in this process (made once per
/// distinct value): what a game's `ismcts:N` spec says (N, the playout
/// policy) is kept once and pointed to, so that the game's policy stays
/// small and `Copy`. Meant for parsing, not for hot paths.
pub fn intern<T: PartialEq + Send + Sync + 'static>(value: T) -> &'static T {
    use std::any::Any;
    use std::sync::Mutex;
    static MADE: Mutex<Vec<&'static (dyn Any + Send + Sync)>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(m) = made
        .iter()
        .filter_map(|m| m.downcast_ref::<T>())
        .find(|m| **m == value)
    {
        return m;
    }
    let m: &'static T = Box::leak(Box::new(value));
    made.push(m);
    m
}

/// One decision of a game, as the search needs it: the game's state as the
/// deciding player sees it, and how to play one iteration from it.
pub trait Search {
    /// A move at any decision of the game (small and `Copy`: Hit or Stay, a
    /// target seat, a card).
    type Move: Copy + PartialEq + Debug;

    /// Players at the table (the length of the utilities).
    fn players(&self) -> usize;

    /// One iteration: samples, with `rng`, a determinization consistent
    /// with what the deciding player knows (the evidence of the game
    /// included), plays it to the end of the game asking `descent` at
    /// every decision, the root decision first (its legal moves must be the
    /// same in every determinization), and writes each seat's utility into
    /// `utility` (a win 1, a tie shared, a loss 0). Where the descent
    /// answers `None` the game plays its playout policy; its chance events
    /// come from `rng`.
    fn iterate(&mut self, rng: &mut SimRng, descent: &mut Descent<'_, Self::Move>, utility: &mut [f64]);
}

/// No node or edge.
const NONE: u32 = u32::MAX;

/// A move made at a node, with its statistics.
#[derive(Clone, Debug)]
struct Edge<M> {
    mv: M,
    /// The player who makes it (whose utility it adds up).
    player: u32,
    visits: u32,
    /// Iterations where the move was legal at its node.
    avail: u32,
    reward: f64,
    /// The first node reached by this move (one per key seen).
    child: u32,
    /// The next move of the same node.
    sibling: u32,
}

/// An information set of the searching player: reached by a move and the
/// key of what was seen before the next decision.
#[derive(Clone, Debug)]
struct Node {
    seen: u64,
    first_edge: u32,
    /// The next node reached by the same move (another key).
    sibling: u32,
}

/// The search tree of one decision, kept between decisions only for its
/// memory (each decision starts a new tree).
#[derive(Clone, Debug)]
pub struct Tree<M> {
    nodes: Vec<Node>,
    edges: Vec<Edge<M>>,
    path: Vec<u32>,
}

/// What the search found at the root: each legal move with its visits and
/// mean utility for the deciding player.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStat<M> {
    /// The move.
    pub mv: M,
    /// Iterations that chose it.
    pub visits: u32,
    /// Its mean utility for the deciding player.
    pub mean: f64,
}

impl<M> Default for Tree<M> {
    fn default() -> Tree<M> {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            path: Vec::new(),
        }
    }
}

impl<M: Copy + PartialEq + Debug> Tree<M> {
    /// An empty tree.
    pub fn new() -> Tree<M> {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            path: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(Node {
            seen: 0,
            first_edge: NONE,
            sibling: NONE,
        });
    }

    /// The root's moves after a search, in the order first tried.
    pub fn root(&self) -> Vec<RootStat<M>> {
        let mut out = Vec::new();
        let mut e = self.nodes.first().map_or(NONE, |n| n.first_edge);
        while e != NONE {
            let edge = &self.edges[e as usize];
            out.push(RootStat {
                mv: edge.mv,
                visits: edge.visits,
                mean: if edge.visits == 0 {
                    0.0
                } else {
                    edge.reward / f64::from(edge.visits)
                },
            });
            e = edge.sibling;
        }
        out
    }

    /// Nodes in the tree (for tests and measurements).
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The node reached by `edge` with key `seen`, made if new.
    fn child(&mut self, edge: u32, seen: u64) -> u32 {
        let mut n = self.edges[edge as usize].child;
        while n != NONE {
            if self.nodes[n as usize].seen == seen {
                return n;
            }
            n = self.nodes[n as usize].sibling;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            seen,
            first_edge: NONE,
            sibling: self.edges[edge as usize].child,
        });
        self.edges[edge as usize].child = id;
        id
    }
}

/// One iteration's walk down the tree: the game asks it at every decision.
pub struct Descent<'a, M> {
    tree: &'a mut Tree<M>,
    /// The edge chosen at the last decision in the tree (`NONE` before the
    /// root decision).
    last: u32,
    in_tree: bool,
}

impl<M: Copy + PartialEq + Debug> Descent<'_, M> {
    /// Whether the descent is still in the tree: the next decision is
    /// answered by [`Descent::choose`], so the game must compute its key.
    /// Once false, every later [`Descent::choose`] of the iteration is
    /// `None` (the playout policy decides).
    #[inline(always)]
    pub fn searching(&self) -> bool {
        self.in_tree
    }

    /// The move of `player` among `legal` (not empty) at a decision where
    /// the searching player has seen what `seen` stands for since the last
    /// decision, or `None` when the playout policy decides.
    ///
    /// In the tree, a legal move never tried at this node is tried (the
    /// first in `legal` order; the descent then leaves the tree), else the
    /// legal move with the highest UCB1 value for `player`.
    pub fn choose(&mut self, player: usize, legal: &[M], seen: u64) -> Option<M> {
        if !self.in_tree {
            return None;
        }
        debug_assert!(!legal.is_empty(), "a decision without a legal move");
        let tree = &mut *self.tree;
        let node = if self.last == NONE {
            0
        } else {
            tree.child(self.last, seen)
        };
        // Availability: every legal move already at the node was available.
        let mut untried = None;
        let mut best = (NONE, f64::NEG_INFINITY);
        for &mv in legal {
            let mut e = tree.nodes[node as usize].first_edge;
            while e != NONE && tree.edges[e as usize].mv != mv {
                e = tree.edges[e as usize].sibling;
            }
            if e == NONE {
                untried.get_or_insert(mv);
                continue;
            }
            let edge = &mut tree.edges[e as usize];
            edge.avail += 1;
            if untried.is_none() {
                let visits = f64::from(edge.visits.max(1));
                let ucb = edge.reward / visits + EXPLORATION * (f64::from(edge.avail).ln() / visits).sqrt();
                if ucb > best.1 {
                    best = (e, ucb);
                }
            }
        }
        let chosen = match untried {
            Some(mv) => {
                let id = tree.edges.len() as u32;
                tree.edges.push(Edge {
                    mv,
                    player: player as u32,
                    visits: 0,
                    avail: 1,
                    reward: 0.0,
                    child: NONE,
                    sibling: tree.nodes[node as usize].first_edge,
                });
                tree.nodes[node as usize].first_edge = id;
                self.in_tree = false;
                id
            }
            None => best.0,
        };
        tree.path.push(chosen);
        self.last = chosen;
        Some(tree.edges[chosen as usize].mv)
    }
}

/// Searches `game`'s decision with `iterations` iterations from the random
/// stream seeded by `seed`, in `tree` (cleared first), and returns the root
/// move chosen most often (ties: the higher mean utility, then the move
/// tried first). The same game, iterations and seed always give the same
/// move.
///
/// # Panics
/// When `iterations` is 0, or the game never asks the descent at the root.
pub fn search<S: Search>(game: &mut S, iterations: u32, seed: u64, tree: &mut Tree<S::Move>) -> S::Move {
    assert!(iterations > 0, "a search needs at least one iteration");
    tree.clear();
    let mut rng = SimRng::seed_from_u64(seed);
    let mut utility = vec![0.0; game.players()];
    for _ in 0..iterations {
        tree.path.clear();
        utility.iter_mut().for_each(|u| *u = 0.0);
        let mut descent = Descent {
            tree,
            last: NONE,
            in_tree: true,
        };
        game.iterate(&mut rng, &mut descent, &mut utility);
        for &e in &tree.path {
            let edge = &mut tree.edges[e as usize];
            edge.visits += 1;
            edge.reward += utility[edge.player as usize];
        }
    }
    let root = tree.root();
    // `root` lists the moves newest first: the last of equals is the first tried.
    let best = root
        .iter()
        .rev()
        .fold(None::<&RootStat<S::Move>>, |best, r| match best {
            Some(b) if (b.visits, b.mean) >= (r.visits, r.mean) => Some(b),
            _ => Some(r),
        })
        .expect("the game asks the descent at the root of every iteration");
    best.mv
}

/// The utilities of a game that ended with `winners` sharing the win (a
/// unique winner gets 1; `k` tied winners 1/k each; nobody, all 0).
pub fn share_win(utility: &mut [f64], winners: impl Iterator<Item = usize> + Clone) {
    let k = winners.clone().count();
    for w in winners {
        utility[w] = 1.0 / k as f64;
    }
}

/// A key of what was seen, built by mixing words in (SplitMix64 steps): for
/// [`Descent::choose`]'s `seen`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Key(u64);

impl Key {
    /// Mixes `word` in.
    #[inline]
    pub fn mix(self, word: u64) -> Key {
        Key(super::rng::splitmix64(self.0 ^ word))
    }

    /// The key.
    #[inline]
    pub fn get(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interned_values_are_shared_per_value_and_type() {
        let a = intern((3u32, 4u8));
        let b = intern((3u32, 4u8));
        assert!(std::ptr::eq(a, b));
        assert!(!std::ptr::eq(a, intern((3u32, 5u8))));
        assert_eq!(*intern(7u64), 7);
        assert_eq!(*intern((3u32, 4u8)), (3, 4));
    }

    #[test]
    fn iterations_parse_with_clear_errors() {
        assert_eq!(parse_iterations("ismcts:100"), Some(Ok(100)));
        assert_eq!(parse_iterations("stay-at-25"), None);
        for bad in ["ismcts:0", "ismcts:abc", "ismcts:", "ismcts:-3", "ismcts:1000001"] {
            let e = parse_iterations(bad).unwrap().unwrap_err();
            assert!(e.contains(bad) && e.contains("1 to 1000000"), "{e}");
        }
    }
}
