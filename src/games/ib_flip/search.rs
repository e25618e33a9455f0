//! IB-Flip through the engine's search interface ([`Search`]): `ismcts:N`.
//!
//! A determinization is [`View::sample_world`] of the deciding player:
//! every card it cannot locate (other players' hand cards nobody has seen,
//! every face-down card, the draw pile, the discard cards an 8s flipper
//! took with them) dealt at random into those places, every count kept;
//! what the player has seen (its own hand, every face-up card, the live and
//! seen discard cards, the hand cards everybody knows of: picked up, dealt
//! by a 3s flip, announced as the lowest card) stays where it is. An
//! iteration plays the rest of the game from the decision with the rules
//! engine, [`Table::play_on`](super::rules::Table::play_on), every decision of every seat asked of the
//! search's descent and, below the tree, played by the playout rule for
//! every seat; it ends in places, and the utility is the win (first place
//! 1, anything else 0), the objective the game's tournaments rank by.
//!
//! The decisions and their moves:
//!
//! - a turn with a hand or face-up cards: a play, for each playable rank
//!   (`rollout:K`'s candidates: the 8 that would flip the 8s left out when
//!   something else can be played) every copy (one 10; at most the 8s that
//!   do not make four) and, when more are held, one card; stuck with a hand
//!   and a draw pile: reveal or pick up; the playout rule's move is always
//!   among them, and tried first;
//! - an add-on: how many of the drawn cards of the rank just played to add
//!   (0 to all), the playout rule's answer first;
//! - a face-down card: not a decision the search makes. The player knows
//!   none of its face-down cards, and a determinization deals them at
//!   random, so every slot is the same information set: the first is
//!   turned (as every policy but `random` does);
//! - fixing: not searched (see below); `sim advise` compares every legal
//!   face-up set by playouts instead.
//!
//! What the searching player sees at each decision (its hand, every
//! face-up card and hand size, the hand cards it knows of, face-down and
//! draw counts, the live cards and their top, the seen discard pile, who is
//! in, the direction, who decides and the kind of decision) keys the tree's
//! nodes. A decision with one move is not asked.
//!
//! The root is a turn with a choice: the rules engine resumes a game from
//! the start of a turn ([`Table::play_on`](super::rules::Table::play_on)). The `ismcts` seat's fixing
//! (before the first turn) follows its spec's `fix:` choice, and its
//! add-ons (in the middle of a play) the playout rule's; inside the search
//! every add-on is a node of the tree.

use super::cards::*;
use super::policies::{Play, Policy, Searched, count_for, safe};
use super::rules::{Action, Chooser, Silent, View};
use crate::engine::ismcts::{self, Descent, Key, Search};
use crate::engine::rng::{Draw, SimRng};

/// A move at an IB-Flip decision the search makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A turn's action: a play, a reveal or a pick-up.
    Act(Action),
    /// Add this many drawn cards to the play.
    AddOn(u8),
}

/// Moves a playout may last past the decision (as `rollout:K`'s): a game
/// that cycles is stopped there, nobody winning it.
const PLAYOUT_MOVES: u32 = 1000;

/// `ismcts:N` (`searched`) at a turn of `v`'s player: the action, from a
/// search seeded from `d` (without a search when there is one move).
pub fn act<D: Draw>(v: &View<'_>, searched: &Searched, d: &mut D) -> Action {
    let playout = searched.playout;
    let first = playout.act(v, d);
    let mut legal = Vec::new();
    turn_moves(v, first, &mut legal);
    if legal.len() == 1 {
        return first;
    }
    let seed = u64::from(d.below(u32::MAX)) << 32 | u64::from(d.below(u32::MAX));
    let mut root = Root { v: *v, playout };
    match ismcts::search(&mut root, searched.n, seed, &mut ismcts::Tree::new()) {
        Move::Act(a) => a,
        Move::AddOn(_) => unreachable!("the root is a turn"),
    }
}

/// A turn of `v`'s player, searched.
struct Root<'a> {
    v: View<'a>,
    playout: Policy,
}

impl Search for Root<'_> {
    type Move = Move;

    fn players(&self) -> usize {
        self.v.players()
    }

    fn iterate(&mut self, rng: &mut SimRng, descent: &mut Descent<'_, Move>, utility: &mut [f64]) {
        let mut w = self.v.sample_world(rng);
        w.set_move_cap(w.moves() + PLAYOUT_MOVES);
        let mut asked = Asked {
            descent,
            playout: self.playout,
            me: self.v.seat(),
            legal: Vec::new(),
        };
        // The first decision is the root: the searching player's turn.
        w.play_on(&mut asked, &mut Silent, rng);
        ismcts::share_win(utility, (0..w.players()).filter(|&s| w.place(s) == 1));
    }
}

/// Every decision of an iteration: the descent's move while it is in the
/// tree, the playout rule's below it.
struct Asked<'d, 'e> {
    descent: &'d mut Descent<'e, Move>,
    playout: Policy,
    /// The searching player.
    me: usize,
    /// Scratch space for the legal moves.
    legal: Vec<Move>,
}

impl Chooser for Asked<'_, '_> {
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        self.playout.fix(v, d)
    }

    #[inline]
    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        let first = self.playout.act(v, d);
        if self.descent.searching() {
            turn_moves(v, first, &mut self.legal);
            if self.legal.len() > 1
                && let Some(Move::Act(a)) = self.descent.choose(v.seat(), &self.legal, seen(v, self.me, 0))
            {
                return a;
            }
        }
        first
    }

    #[inline]
    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        let first = self.playout.add_on(v, rank, avail, d);
        if self.descent.searching() {
            self.legal.clear();
            self.legal.push(Move::AddOn(first));
            self.legal.extend((0..=avail).filter(|&k| k != first).map(Move::AddOn));
            if let Some(Move::AddOn(k)) = self.descent.choose(v.seat(), &self.legal, seen(v, self.me, 1)) {
                return k;
            }
        }
        first
    }

    #[inline]
    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
        self.playout.face_down(v, d)
    }

    fn deterministic(&self) -> bool {
        false
    }
}

/// The moves of `v`'s player at a turn, the playout rule's `first` first:
/// for each playable rank (the 8 that flips the 8s left out when something
/// else can be played) every copy as `rollout:K` plays it and, when that is
/// more than one card, one card; stuck (with a hand and a draw pile),
/// reveal or pick up.
fn turn_moves(v: &View<'_>, first: Action, out: &mut Vec<Move>) {
    out.clear();
    out.push(Move::Act(first));
    let legal = v.legal();
    let mut add = |a: Action| {
        if a != first {
            out.push(Move::Act(a));
        }
    };
    if legal == 0 {
        add(Action::Reveal);
        add(Action::Pickup);
        return;
    }
    let cands = safe(v, legal);
    for r in BY_ORDER {
        if cands & (1 << r) != 0 {
            let count = count_for(v, r, Play::Lowest);
            add(Action::Play { rank: r, count });
            if count > 1 {
                add(Action::Play { rank: r, count: 1 });
            }
        }
    }
}

/// The key of what player `me` sees at a decision of kind `kind` made by
/// `v`'s player: read from `me`'s own view only.
fn seen(v: &View<'_>, me: usize, kind: u64) -> u64 {
    let mine = v.as_seen_by(me);
    let live = mine.live().fold(0u64, |m, (c, _)| m | 1 << c);
    let (run, len) = mine.run();
    let mut k = Key::default()
        .mix(
            kind | (v.seat() as u64) << 4
                | u64::from(mine.reversed()) << 8
                | (mine.draw_count() as u64) << 16
                | u64::from(mine.target()) << 24
                | u64::from(run) << 32
                | u64::from(len) << 40
                | (mine.live_count() as u64) << 48,
        )
        .mix(mine.hand())
        .mix(live)
        .mix(mine.discard_seen());
    for q in 0..mine.players() {
        let counts = u64::from(mine.hand_size(q))
            | (mine.down_count(q) as u64) << 8
            | u64::from(mine.is_active(q)) << 12;
        k = k.mix(mine.up(q) | counts << 52).mix(mine.known_hand(q));
    }
    k.get()
}
