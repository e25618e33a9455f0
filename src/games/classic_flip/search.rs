//! Classic Flip through the engine's search interface ([`Search`]):
//! `ismcts:N`.
//!
//! A determinization is a world dealt by [`View::sample_world`]: every
//! card the searching player cannot place (the unknown part of every
//! other hand and the draw pile) dealt again at random, every public fact
//! and what the player knows kept. With `bluff-prior:B` the worlds follow
//! the game's own evidence, the bluff history, as `rollout:K`'s do: an
//! opponent over seven cards (not penalised) that may or may not hold a
//! 7>>>10 or Any counts B in a world where it holds none (it must be
//! bluffing) and 1 where it holds one; the search keeps a world with
//! that chance (rejection sampling, so the worlds it plays follow the
//! level-1 posterior; at most [`MAX_TRIES`] draws a world).
//!
//! An iteration plays the rest of the game from the decision with the
//! rules engine ([`Table::finish_game_from`], which picks the turn up at
//! the decision with [`Table::play_on_from`]), every decision of every
//! seat asked of the search's descent while it is in the tree: starts
//! (the call included), hand challenges, end-of-turn discards, Blocks,
//! Take picks and penalty pick-ups, each among the candidates `rollout:K`
//! considers ([`super::rollout`]), the playout policy's own answer first,
//! except that a start takes a community card only when it scores for
//! the player (a wild, Any, 2X, or of the rank it collects): with every
//! community card a candidate, N = 100 won 32% of two-player games
//! against `collector`, the search spreading its few iterations over
//! takes that hardly change the chance to win.
//! Below the tree every seat plays the playout policy (`collector`, the
//! game's default, unless `+playout:SPEC`). A win is 1, anything else 0
//! (a game stopped by the game cap has no winner).
//!
//! The tree's nodes are keyed by what the searching player sees at each
//! decision (`seen`): its own hand, what it knows of each other hand,
//! every hand's size, the community slots, the discard pile, the card in
//! play, the totals, the penalised, the caller, and the decision (its
//! kind, its parameters, who decides).
//!
//! Every kind of decision of the `ismcts` seat is a root: the rules
//! engine resumes a turn at each of them ([`Resume`]). The discard down
//! to six inside a hand challenge is not searched (the engine resumes
//! there for `sim advise`, but the search keeps the results it had): the
//! `ismcts` seat discards there as its playout policy does, at the table
//! and in the search.

use std::cell::RefCell;

use super::cards::*;
use super::policies::{Policy, Searched, Wants, start_options};
use super::rollout::{self, Fixed, collector_rule};
use super::rules::{Chooser, Resume, Silent, Start, Table, View};
use crate::engine::ismcts::{self, Descent, Key, Search};
use crate::engine::rng::{Draw, SimRng};

/// Most worlds drawn for one determinization with `bluff-prior:B` (the
/// last is kept if none was accepted).
pub const MAX_TRIES: u32 = 64;

thread_local! {
    /// The search tree, kept from one decision to the next for its memory.
    static TREE: RefCell<ismcts::Tree<Fixed>> = RefCell::new(ismcts::Tree::new());
}

/// A decision of Classic Flip, with what the rules engine needs to pick
/// the turn up at it.
#[derive(Clone, Copy, Debug)]
enum Ask {
    /// The start option of a turn (the call included).
    Start,
    /// The hand challenge at the end of a turn.
    Challenge,
    /// The end-of-turn discard to `limit` (not forced).
    Discard { limit: u32 },
    /// The Block reaction to `by`'s `func` (Take or Steal).
    Block { by: usize, func: Func },
    /// The card a Take picks from `from`'s hand.
    Pick { from: usize },
    /// The cards taken from the penalty discards `pile`.
    Penalty { pile: CardSet },
}

impl Ask {
    /// The playout policy `p`'s answer.
    fn playout<D: Draw>(self, p: &mut Policy, v: &View<'_>, d: &mut D) -> Fixed {
        match self {
            Ask::Start => Fixed::Start(p.start(v, d)),
            Ask::Challenge => Fixed::Challenge(p.challenge(v, d)),
            Ask::Discard { limit } => Fixed::Discard(p.discard(v, limit, false, d)),
            Ask::Block { by, func } => Fixed::Block(p.block(v, by, func, d)),
            Ask::Pick { from } => Fixed::Pick(p.take_pick(v, from, d)),
            Ask::Penalty { pile } => Fixed::Penalty(p.take_penalty(v, pile, d)),
        }
    }

    /// Every move considered, `first` (the playout policy `p`'s answer)
    /// first: `rollout:K`'s candidates of the decision.
    fn moves<D: Draw>(self, first: Fixed, p: &Policy, v: &View<'_>, d: &mut D) -> Vec<Fixed> {
        fn all<T>(v: Vec<T>, f: impl Fn(T) -> Fixed) -> Vec<Fixed> {
            v.into_iter().map(f).collect()
        }
        match (self, first) {
            (Ask::Start, Fixed::Start(f)) => {
                // Pruned: a community card is taken only if it scores for
                // the player (a wild, Any, 2X, or of the rank it collects).
                let wants = Wants::of(v);
                let com = v.community();
                let scores = |s: &Start| match *s {
                    Start::Community(slot) => {
                        let c = com[usize::from(slot)];
                        bit(c) & (WILD | TWO_X_CARDS) != 0 || rank(c) == Some(wants.target())
                    }
                    _ => true,
                };
                let options = start_options(v, &wants).into_iter().filter(scores);
                all(rollout::first_then(f, options), Fixed::Start)
            }
            (Ask::Challenge, Fixed::Challenge(f)) => all(rollout::challenge_options(f, v), Fixed::Challenge),
            (Ask::Discard { limit }, Fixed::Discard(f)) => {
                all(rollout::discard_options(f, &collector_rule(p), v, limit, d), Fixed::Discard)
            }
            (Ask::Block { .. }, Fixed::Block(f)) => all(rollout::block_options(f, v), Fixed::Block),
            (Ask::Pick { from }, Fixed::Pick(f)) => all(rollout::pick_options(f, v, from), Fixed::Pick),
            (Ask::Penalty { pile }, Fixed::Penalty(f)) => all(rollout::penalty_options(f, pile), Fixed::Penalty),
            (ask, f) => unreachable!("{f:?} does not answer {ask:?}"),
        }
    }

    /// Whether `f` is a move of this kind of decision.
    fn answered_by(self, f: Fixed) -> bool {
        matches!(
            (self, f),
            (Ask::Start, Fixed::Start(_))
                | (Ask::Challenge, Fixed::Challenge(_))
                | (Ask::Discard { .. }, Fixed::Discard(_))
                | (Ask::Block { .. }, Fixed::Block(_))
                | (Ask::Pick { .. }, Fixed::Pick(_))
                | (Ask::Penalty { .. }, Fixed::Penalty(_))
        )
    }

    /// Where the rules engine picks the turn up at this decision of
    /// `me`: the player whose turn it is, and the point.
    fn resume(self, me: usize) -> (usize, Resume) {
        match self {
            Ask::Start => (me, Resume::Turn),
            Ask::Challenge => (me, Resume::Challenge),
            Ask::Discard { .. } => (me, Resume::Discard),
            Ask::Block { by, .. } => (by, Resume::Block { victim: me }),
            Ask::Pick { from } => (me, Resume::TakePick { from }),
            Ask::Penalty { pile } => (me, Resume::PenaltyPick { pile }),
        }
    }

    /// The decision as a word of the key: its kind and parameters.
    fn word(self) -> u64 {
        match self {
            Ask::Start => 1,
            Ask::Challenge => 2,
            Ask::Discard { limit } => 3 | u64::from(limit) << 8,
            Ask::Block { by, func } => 4 | (by as u64) << 8 | (func as u64) << 16,
            Ask::Pick { from } => 5 | (from as u64) << 8,
            Ask::Penalty { pile } => 6 ^ (pile as u64).rotate_left(8) ^ ((pile >> 64) as u64).rotate_left(40),
        }
    }
}

/// The key of what the searching player `me` sees when `v`'s player
/// faces decision `ask`: the decision and who decides, its own hand, what
/// it knows of each other hand, every hand's size, total, penalty and
/// grace, the community slots, the discard pile, the card in play and the
/// caller.
fn seen(v: &View<'_>, me: usize, ask: Ask) -> u64 {
    let m = v.of_seat(me);
    let set = |k: Key, s: CardSet| k.mix(s as u64).mix((s >> 64) as u64);
    let com = m.community();
    let mut k = Key::default()
        .mix(ask.word())
        .mix(v.seat() as u64)
        .mix(u64::from(com[0]) | u64::from(com[1]) << 8 | u64::from(com[2]) << 16)
        .mix(m.caller().map_or(u64::MAX, |c| c as u64));
    k = set(set(set(k, m.hand()), m.discard()), m.played());
    for q in 0..m.players() {
        let word = u64::from(m.hand_size(q))
            | u64::from(m.total(q)) << 8
            | u64::from(m.penalised(q)) << 40
            | u64::from(m.grace(q)) << 41;
        k = k.mix(word);
        if q != me {
            k = set(k, m.known(q));
        }
    }
    k.get()
}

/// The `ismcts` seat `p` (`ismcts:N` `s`) decides `ask` at the table it
/// sees through `v`: the playout policy's answer when it is the only
/// candidate, else the search's move.
fn decide<D: Draw>(p: &Policy, s: &Searched, ask: Ask, v: &View<'_>, d: &mut D) -> Fixed {
    let mut playout = s.playout;
    let first = ask.playout(&mut playout, v, d);
    let legal = ask.moves(first, &playout, v, d);
    if legal.len() == 1 {
        return first;
    }
    let seed = (u64::from(d.below(u32::MAX)) << 32) | u64::from(d.below(u32::MAX));
    let me = v.seat();
    // The opponents whose cards the bluff prior weighs: over seven, not
    // penalised, and maybe holding a 7>>>10 or Any, maybe not.
    let maybe = v.unseen() & LIMIT10 != 0;
    let weighed = if p.bluff_prior < 1_000_000 && maybe {
        (0..v.players())
            .filter(|&q| q != me && !v.penalised(q) && v.hand_size(q) > 7)
            .filter(|&q| v.known(q) & LIMIT10 == 0 && v.hidden(q) > 0)
            .collect()
    } else {
        Vec::new()
    };
    let mut root = Root {
        v: *v,
        me,
        ask,
        legal,
        playout,
        weighed,
        prior: f64::from(p.bluff_prior) / 1e6,
    };
    TREE.with(|tree| ismcts::search(&mut root, s.n, seed, &mut tree.borrow_mut()))
}

/// `ismcts:N`'s start option.
pub(super) fn start<D: Draw>(p: &Policy, s: &Searched, v: &View<'_>, d: &mut D) -> Start {
    match decide(p, s, Ask::Start, v, d) {
        Fixed::Start(x) => x,
        f => unreachable!("{f:?}"),
    }
}

/// `ismcts:N`'s hand challenge.
pub(super) fn challenge<D: Draw>(p: &Policy, s: &Searched, v: &View<'_>, d: &mut D) -> Option<usize> {
    match decide(p, s, Ask::Challenge, v, d) {
        Fixed::Challenge(x) => x,
        f => unreachable!("{f:?}"),
    }
}

/// `ismcts:N`'s discard: searched at the end of a turn; after a hand
/// challenge (`forced`, down to six), the playout policy's.
pub(super) fn discard<D: Draw>(p: &Policy, s: &Searched, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
    if forced {
        let mut playout = s.playout;
        return playout.discard(v, limit, true, d);
    }
    match decide(p, s, Ask::Discard { limit }, v, d) {
        Fixed::Discard(x) => x,
        f => unreachable!("{f:?}"),
    }
}

/// `ismcts:N`'s Block reaction to `by`'s Take or Steal.
pub(super) fn block<D: Draw>(p: &Policy, s: &Searched, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
    match decide(p, s, Ask::Block { by, func }, v, d) {
        Fixed::Block(x) => x,
        f => unreachable!("{f:?}"),
    }
}

/// `ismcts:N`'s pick from the hand its Take sees.
pub(super) fn take_pick<D: Draw>(p: &Policy, s: &Searched, v: &View<'_>, target: usize, d: &mut D) -> Card {
    match decide(p, s, Ask::Pick { from: target }, v, d) {
        Fixed::Pick(x) => x,
        f => unreachable!("{f:?}"),
    }
}

/// `ismcts:N`'s pick from the penalty discards `pile`.
pub(super) fn take_penalty<D: Draw>(p: &Policy, s: &Searched, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
    match decide(p, s, Ask::Penalty { pile }, v, d) {
        Fixed::Penalty(x) => x,
        f => unreachable!("{f:?}"),
    }
}

/// A decision of the `ismcts` seat, searched.
struct Root<'a> {
    /// What the seat sees at the table.
    v: View<'a>,
    me: usize,
    ask: Ask,
    /// The root's moves (the same in every world: they depend on the view).
    legal: Vec<Fixed>,
    playout: Policy,
    /// The opponents whose holding of a 7>>>10 or Any weighs a world.
    weighed: Vec<usize>,
    /// The bluff prior B.
    prior: f64,
}

impl Root<'_> {
    /// A determinization: a world consistent with the view, kept with
    /// the chance the bluff prior gives it (at most [`MAX_TRIES`] draws).
    fn world(&self, rng: &mut SimRng) -> Table {
        let mut w = self.v.sample_world(rng);
        if self.weighed.is_empty() {
            return w;
        }
        for _ in 1..MAX_TRIES {
            let weight: f64 = self
                .weighed
                .iter()
                .map(|&q| if w.hand(q) & LIMIT10 == 0 { self.prior } else { 1.0 })
                .product();
            if f64::from(rng.below(1 << 30)) < weight * f64::from(1u32 << 30) {
                return w;
            }
            w = self.v.sample_world(rng);
        }
        w
    }
}

impl Search for Root<'_> {
    type Move = Fixed;

    fn players(&self) -> usize {
        self.v.players()
    }

    fn iterate(&mut self, rng: &mut SimRng, descent: &mut Descent<'_, Fixed>, utility: &mut [f64]) {
        let mut w = self.world(rng);
        let first = descent
            .choose(self.me, &self.legal, 0)
            .expect("the root is in the tree");
        let (actor, at) = self.ask.resume(self.me);
        let mut asked = Asked {
            descent,
            playout: self.playout,
            me: self.me,
            root: Some(first),
        };
        let end = w.finish_game_from(actor, at, &mut asked, &mut Silent, rng);
        ismcts::share_win(utility, end.winner.into_iter());
    }
}

/// Every decision of an iteration: the root's move first, then the
/// descent's while it is in the tree, the playout policy's below it.
struct Asked<'d, 'e> {
    descent: &'d mut Descent<'e, Fixed>,
    playout: Policy,
    /// The searching player.
    me: usize,
    /// The root's move, until the rules engine asks the root decision.
    root: Option<Fixed>,
}

impl Asked<'_, '_> {
    fn ask<D: Draw>(&mut self, ask: Ask, v: &View<'_>, d: &mut D) -> Fixed {
        if let Some(f) = self.root
            && v.seat() == self.me
            && ask.answered_by(f)
        {
            self.root = None;
            return f;
        }
        let first = ask.playout(&mut self.playout, v, d);
        if !self.descent.searching() {
            return first;
        }
        let moves = ask.moves(first, &self.playout, v, d);
        if moves.len() > 1
            && let Some(m) = self.descent.choose(v.seat(), &moves, seen(v, self.me, ask))
        {
            return m;
        }
        first
    }
}

impl Chooser for Asked<'_, '_> {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        match self.ask(Ask::Start, v, d) {
            Fixed::Start(x) => x,
            f => unreachable!("{f:?}"),
        }
    }

    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        match self.ask(Ask::Pick { from: target }, v, d) {
            Fixed::Pick(x) => x,
            f => unreachable!("{f:?}"),
        }
    }

    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        match self.ask(Ask::Block { by, func }, v, d) {
            Fixed::Block(x) => x,
            f => unreachable!("{f:?}"),
        }
    }

    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        match self.ask(Ask::Challenge, v, d) {
            Fixed::Challenge(x) => x,
            f => unreachable!("{f:?}"),
        }
    }

    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        if forced {
            return self.playout.discard(v, limit, true, d);
        }
        match self.ask(Ask::Discard { limit }, v, d) {
            Fixed::Discard(x) => x,
            f => unreachable!("{f:?}"),
        }
    }

    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        match self.ask(Ask::Penalty { pile }, v, d) {
            Fixed::Penalty(x) => x,
            f => unreachable!("{f:?}"),
        }
    }
}
