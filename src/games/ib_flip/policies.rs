//! IB-Flip policies, parsed from specs. A policy sees the game only through
//! a [`View`] (what its player can know).
//!
//! # Spec grammar
//!
//! ```text
//! SPEC   = PLAY ("+" OPTION)*
//! PLAY   = "random" | "lowest" | "saver" | "attacker" | "finisher" | "counter"
//!        | "rollout:" K                      (K playouts per candidate, 1..=1000)
//!        | "ismcts:" N                       (N iterations per decision, 1..=1000000)
//! OPTION = "burn-at:" T                      (saver only; T = 1..=52 cards)
//!        | "fix:" ("strong" | "keep" | "stack")   (fixing; default strong)
//!        | "playout:" RULE                   (ismcts only; RULE one of random,
//!                                             lowest, saver, attacker, finisher,
//!                                             counter; default finisher)
//! ```
//!
//! Printed back (Display) in that order, `fix:strong` and
//! `playout:finisher` left out. After `ismcts:N+playout:saver`, a
//! `burn-at:T` goes with the playout's `saver`.
//!
//! # Play rules
//!
//! - `random`: a uniformly random playable rank and number of cards; always
//!   reveals when stuck; adds a random number of drawn cards.
//! - `lowest`: the lowest playable rank in the game order, every copy.
//! - `saver`: like `lowest`, but keeps 2s, 10s, 4s, 5s and 7s for when
//!   nothing else can be played (then one 2 or one 10 at a time); with
//!   `burn-at:T` it burns with one 10, or completes a set (not 8s), as soon
//!   as the live pile has T cards or more.
//! - `attacker`: when the next player is the opponent closest to
//!   finishing (fewest cards, and three or fewer),
//!   skips them with 8s, sends them a 4, a 7 or reverses away from them
//!   with 3s, in that order; otherwise plays as `saver`.
//! - `finisher`: `lowest`, planning the end: with its last cards in play
//!   (draw pile empty, nothing face down or face up behind them) it plays a
//!   2 or a 10 while other cards remain (that "again" then lets it finish on
//!   another card), and never makes a play that would finish illegally (on
//!   a 2, a 10, 8s that come back to it, a set, or a 9 when the seen
//!   discard pile holds a 2 or a 10) if any other play exists.
//! - `counter`: perfect memory of everything public; for each playable
//!   rank it computes the exact chance that the next player cannot answer
//!   (their known hand cards, then the unseen cards dealt at random: a
//!   hypergeometric count; face-up cards exactly; a face-down card or a
//!   reveal as one unseen card) and plays the rank with the best
//!   `P(no answer) x pile size - 1.0 x order` (order 0 for a 3 up to 12
//!   for a 5); a play that gives it another move (a 2, a 10, a set, 8s
//!   that come back) scores `1.5 - 1.0 x order`; one 2 or 10 at a time;
//!   avoids illegal finishes like `finisher`. (The weights were chosen
//!   among three tries against `lowest`, seed 2026.)
//! - `rollout:K`: for every playable rank (every copy), K determinized
//!   playouts: the unseen cards are dealt at random into every hidden place
//!   (a world consistent with what the player knows), the rank is played,
//!   and everybody plays `lowest` to the end (at most 1,000 more moves; a
//!   stalemate counts as the middle place); plays the rank with the best
//!   mean place. The same K worlds are used for every rank.
//! - `ismcts:N`: information-set Monte Carlo tree search (see
//!   [`super::search`] and `docs/search.md`): N iterations at each of its
//!   turns with a choice, every seat playing the playout rule (`finisher`
//!   unless `+playout:RULE`) below the tree. Its fixing is its `fix:`
//!   choice, its add-ons the playout rule's, its face-down cards from the
//!   first slot.
//!
//! Every policy avoids flipping the 8s (playing the 8 that makes four) when
//! another play exists, and turns face-down cards from the first slot
//! (except `random`). No policy picks up voluntarily.
//!
//! # Fixing
//!
//! - `fix:strong` (default): the three strongest cards of the six (by the
//!   game order) face up.
//! - `fix:keep`: the face-up cards as dealt.
//! - `fix:stack`: `fix:strong`, then every hand card of a face-up rank
//!   stacked onto it, drawing back to three (repeated with the cards drawn).

use std::fmt;

use rand::SeedableRng;

use super::cards::*;
use super::rules::{Action, Chooser, End, Silent, View, Zone};
use super::IbFlip;
use crate::engine::custom::{self, Custom, Decision, User};
use crate::engine::game::Game;
use crate::engine::ismcts;
use crate::engine::rng::{Draw, SimRng};

/// Spec forms accepted, for error messages.
pub const ACCEPTED: &str = "random, lowest, saver, saver+burn-at:T, attacker, finisher, counter, rollout:K, \
     ismcts:N (optionally +playout:RULE, RULE one of random, lowest, saver, attacker, finisher, counter), \
     each optionally +fix:strong|keep|stack (e.g. saver+burn-at:8+fix:stack)";

/// How a policy chooses its plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Uniformly random.
    Random,
    /// Lowest playable rank, every copy.
    Lowest,
    /// Keeps the power cards; burns at a pile of T cards.
    Saver {
        /// `burn-at:T`, or a user policy's burn rule.
        burn_at: Option<Burn>,
    },
    /// Attacks the player closest to finishing.
    Attacker,
    /// Plans the last cards.
    Finisher,
    /// Counts cards: chance that the next player can answer.
    Counter,
    /// Determinized playouts.
    Rollout {
        /// Playouts per candidate.
        k: u16,
    },
    /// `ismcts:N` (`+playout:RULE`): information-set Monte Carlo tree
    /// search; see [`super::search`].
    Ismcts(&'static Searched),
}

/// What `ismcts:N` (`+playout:RULE`) says: kept once per process and
/// pointed to, so that a [`Play`] stays small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Iterations per decision.
    pub n: u32,
    /// The policy every seat plays below the tree (its fixing unused: a
    /// search starts after fixing).
    pub playout: Policy,
}

/// The playout rule of `ismcts:N` unless `+playout:RULE` is given: the
/// game's default policy.
pub const DEFAULT_PLAYOUT: Play = Play::Finisher;


/// When `saver` burns (with one 10, or by completing a set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Burn {
    /// `burn-at:T`: once the live pile has T cards or more.
    At(u8),
    /// A user policy's burn rule, written as code and registered by the
    /// program ([`crate::cli::Builder::policy`]): asked with the player's
    /// [`PlayerView`].
    User(User<BurnRule>),
}

/// The burn rule of a user policy: given what the player knows, `true`
/// to burn the pile now when it can.
pub type BurnRule = dyn Fn(&PlayerView<'_>) -> bool + Send + Sync;

impl Burn {
    /// Whether to burn now.
    fn now(self, v: &View<'_>) -> bool {
        match self {
            Burn::At(t) => v.live_count() >= usize::from(t),
            Burn::User(u) => (u.decide())(&PlayerView { v: *v }),
        }
    }
}

impl Custom for IbFlip {
    type Decide = BurnRule;
    const DECIDES: &'static str = "a burn rule of saver: saver+NAME, in place of burn-at:T";
}

impl<F: Fn(&PlayerView<'_>) -> bool + Send + Sync + 'static> Decision<IbFlip> for F {
    fn boxed(self) -> Box<BurnRule> {
        Box::new(self)
    }
}

/// What an IB-Flip player may know when `saver` could burn the pile:
/// the pile, everybody's cards left, who plays next.
///
/// ```
/// use sim::games::ib_flip::policies::PlayerView;
/// // Burn at 6 cards, or at once when the next player is nearly out.
/// let burn_late_or_to_stop = |v: &PlayerView| {
///     v.pile_size() >= 6 || v.cards_left(v.next()) <= 2
/// };
/// # let _ = burn_late_or_to_stop;
/// ```
#[derive(Clone, Copy)]
pub struct PlayerView<'a> {
    v: View<'a>,
}

impl<'a> PlayerView<'a> {
    /// The view of `seat` at table `t` (for tests of a rule).
    pub fn new(t: &'a super::rules::Table, seat: usize) -> PlayerView<'a> {
        PlayerView { v: View::new(t, seat) }
    }

    /// The deciding player's seat (0 is the first player).
    pub fn seat(&self) -> usize {
        self.v.seat()
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.v.players()
    }

    /// Cards in the live pile (what a burn takes away).
    pub fn pile_size(&self) -> usize {
        self.v.live_count()
    }

    /// Cards player `seat` has left to play: hand, face up and face down.
    pub fn cards_left(&self, seat: usize) -> u32 {
        self.v.cards_left(seat)
    }

    /// The deciding player's own cards left.
    pub fn my_cards_left(&self) -> u32 {
        self.v.cards_left(self.v.seat())
    }

    /// Whether player `seat` is still playing (has not finished).
    pub fn is_active(&self, seat: usize) -> bool {
        self.v.is_active(seat)
    }

    /// Players still playing.
    pub fn active_count(&self) -> u32 {
        self.v.active_count()
    }

    /// The seat that plays next.
    pub fn next(&self) -> usize {
        self.v.next()
    }

    /// Cards left in the draw pile.
    pub fn draw_count(&self) -> usize {
        self.v.draw_count()
    }
}

/// How a policy fixes its hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Strongest three face up.
    Strong,
    /// As dealt.
    Keep,
    /// Strongest three, then stack.
    Stack,
}

/// A policy: a play rule and a fixing choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The play rule.
    pub play: Play,
    /// The fixing choice.
    pub fix: Fix,
}

/// The play rules named by a word alone, cheap enough to be a playout.
fn cheap_rule(name: &str) -> Option<Play> {
    Some(match name {
        "random" => Play::Random,
        "lowest" => Play::Lowest,
        "saver" => Play::Saver { burn_at: None },
        "attacker" => Play::Attacker,
        "finisher" => Play::Finisher,
        "counter" => Play::Counter,
        _ => return None,
    })
}

fn number(text: &str, what: &str, lo: u32, hi: u32, spec: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(x) if (lo..=hi).contains(&x) && !text.starts_with('+') && !text.starts_with('0') => Ok(x),
        _ => Err(format!(
            "'{text}' in '{spec}': {what} must be a whole number from {lo} to {hi}; accepted: {ACCEPTED}"
        )),
    }
}

impl Policy {
    /// Parses a spec (see the module docs); saver's burn rule may be a
    /// user policy's (see [`crate::cli::Builder::policy`]).
    pub fn parse(spec: &str) -> Result<Policy, String> {
        Policy::parse_spec(spec).map_err(|e| e + &custom::accepted(<IbFlip as Game>::NAME))
    }

    fn parse_spec(spec: &str) -> Result<Policy, String> {
        let spec = spec.trim();
        let mut parts = spec.split('+').map(str::trim);
        let head = parts.next().unwrap_or("");
        // `ismcts:N`: `play` is its playout rule until the end.
        let searched = match ismcts::parse_iterations(head) {
            Some(n) => Some(n.map_err(|e| format!("{e}; accepted: {ACCEPTED}"))?),
            None => None,
        };
        let mut playout_given = false;
        let mut play = match cheap_rule(head) {
            _ if searched.is_some() => DEFAULT_PLAYOUT,
            Some(play) => play,
            None => match head.strip_prefix("rollout:") {
                Some(k) => Play::Rollout {
                    k: number(k, "K", 1, 1000, spec)? as u16,
                },
                None => {
                    let what = if head == spec {
                        format!("unknown policy '{spec}'")
                    } else {
                        format!("unknown play rule '{head}' in policy '{spec}'")
                    };
                    return Err(format!("{what}; accepted: {ACCEPTED}"));
                }
            },
        };
        let mut fix = None;
        for part in parts {
            if let Some(t) = part.strip_prefix("burn-at:") {
                match &mut play {
                    Play::Saver { burn_at: b @ None } => *b = Some(Burn::At(number(t, "T", 1, 52, spec)? as u8)),
                    Play::Saver { .. } => {
                        return Err(format!("'{spec}' has burn-at twice; accepted: {ACCEPTED}"));
                    }
                    _ => return Err(format!("'{part}' in '{spec}' goes with saver only; accepted: {ACCEPTED}")),
                }
            } else if let Some(user) = custom::parse::<BurnRule>(<IbFlip as Game>::NAME, part) {
                let user = user.map_err(|e| format!("{e}; accepted: {ACCEPTED}"))?;
                match &mut play {
                    Play::Saver { burn_at: b @ None } => *b = Some(Burn::User(user)),
                    Play::Saver { .. } => {
                        return Err(format!("'{spec}' has two burn rules; accepted: {ACCEPTED}"));
                    }
                    _ => return Err(format!("'{part}' in '{spec}' goes with saver only; accepted: {ACCEPTED}")),
                }
            } else if let Some(rule) = part.strip_prefix("playout:") {
                if searched.is_none() {
                    return Err(format!("'{spec}': playout:RULE is a choice of ismcts:N only; accepted: {ACCEPTED}"));
                }
                if std::mem::replace(&mut playout_given, true) {
                    return Err(format!("'{spec}': playout is chosen twice; accepted: {ACCEPTED}"));
                }
                let other = rule.trim();
                play = cheap_rule(other).ok_or_else(|| {
                    format!(
                        "'{spec}': the playout RULE '{other}' must be a rule cheap to simulate: random, lowest, \
                         saver, attacker, finisher or counter (ismcts:N+playout:RULE)"
                    )
                })?;
            } else if let Some(f) = part.strip_prefix("fix:") {
                let f = match f {
                    "strong" => Fix::Strong,
                    "keep" => Fix::Keep,
                    "stack" => Fix::Stack,
                    _ => {
                        return Err(format!(
                            "'{part}' in '{spec}': fixing is fix:strong, fix:keep or fix:stack; accepted: {ACCEPTED}"
                        ));
                    }
                };
                if fix.replace(f).is_some() {
                    return Err(format!("'{spec}' has two fixing choices; accepted: {ACCEPTED}"));
                }
            } else if cheap_rule(part).is_some() || ["rollout:", "ismcts:"].iter().any(|r| part.starts_with(r)) {
                return Err(format!(
                    "'{spec}' has two play rules ('{head}' and '{part}'); give one; accepted: {ACCEPTED}"
                ));
            } else {
                let shown = if part.is_empty() { "an empty part" } else { part };
                return Err(format!("unknown part '{shown}' in policy '{spec}'; accepted: {ACCEPTED}"));
            }
        }
        if let Some(n) = searched {
            let playout = Policy { play, fix: Fix::Strong };
            play = Play::Ismcts(ismcts::intern(Searched { n, playout }));
        }
        Ok(Policy {
            play,
            fix: fix.unwrap_or(Fix::Strong),
        })
    }

    /// Whether every decision is a function of the view (no random numbers).
    pub fn deterministic(&self) -> bool {
        !matches!(self.play, Play::Random | Play::Rollout { .. } | Play::Ismcts(_))
    }

    /// The face-up cards this policy fixes to.
    pub fn fix<D: Draw>(&self, v: &View<'_>, _d: &mut D) -> CardSet {
        let me = v.seat();
        let pool = v.hand() | v.up(me);
        match self.fix {
            Fix::Keep => {
                let up = v.up(me);
                if (pool & !up).count_ones() <= 3 {
                    up
                } else {
                    strongest(pool, pool.count_ones() - 3)
                }
            }
            Fix::Strong => {
                let k = 3.max(pool.count_ones().saturating_sub(3));
                let up = strongest(pool, k);
                if ranks_of(up).count_ones() <= 3 { up } else { v.up(me) }
            }
            Fix::Stack => {
                let top = strongest(pool, 3);
                let up = top | (pool & rank_cards(ranks_of(top)));
                if (pool & !up).count_ones() <= 3 {
                    up
                } else {
                    let cur = v.up(me);
                    cur | (pool & rank_cards(ranks_of(cur)))
                }
            }
        }
    }

    /// The action on a turn with a hand or face-up cards.
    pub fn act<D: Draw>(&self, v: &View<'_>, d: &mut D) -> Action {
        if let Play::Ismcts(s) = self.play {
            return super::search::act(v, s, d);
        }
        let legal = v.legal();
        if legal == 0 {
            return if v.zone(v.seat()) == Zone::Hand && v.draw_count() > 0 {
                Action::Reveal
            } else {
                Action::Pickup
            };
        }
        let r = match self.play {
            Play::Random => {
                let k = d.below(legal.count_ones());
                let r = nth_bit(legal, k);
                let avail = held(v, r).count_ones();
                let count = 1 + d.below(avail) as u8;
                return Action::Play { rank: r, count };
            }
            Play::Lowest => lowest_rank(safe(v, legal)),
            Play::Saver { burn_at } => saver(v, safe(v, legal), burn_at),
            Play::Attacker => attacker(v, safe(v, legal)),
            Play::Finisher => finisher(v, safe(v, legal)),
            Play::Counter => counter(v, finish_guard(v, safe(v, legal))),
            Play::Ismcts(_) => unreachable!("searched above"),
            Play::Rollout { k } => {
                let cands = safe(v, legal);
                if cands.count_ones() == 1 {
                    cands.trailing_zeros() as Rank
                } else {
                    rollout(v, cands, k, d)
                }
            }
        };
        Action::Play {
            rank: r,
            count: count_for(v, r, self.play),
        }
    }

    /// How many drawn cards of `rank` to add.
    pub fn add_on<D: Draw>(&self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        match self.play {
            Play::Ismcts(s) => s.playout.add_on(v, rank, avail, d),
            Play::Random => d.below(u32::from(avail) + 1) as u8,
            Play::Saver { .. } | Play::Counter if matches!(rank, TWO | TEN) => 0,
            _ => {
                if rank == EIGHT {
                    let (q, len) = v.run();
                    if q == EIGHT {
                        return avail.min(3u32.saturating_sub(len) as u8);
                    }
                }
                avail
            }
        }
    }

    /// Which face-down card to turn.
    pub fn face_down<D: Draw>(&self, v: &View<'_>, d: &mut D) -> usize {
        match self.play {
            Play::Random => d.below(v.down_count(v.seat()) as u32) as usize,
            _ => 0,
        }
    }
}

/// The cards of the ranks in `ranks`.
fn rank_cards(ranks: u16) -> CardSet {
    (0..RANKS as Rank)
        .filter(|&r| ranks & (1 << r) != 0)
        .fold(0, |m, r| m | rank_set(r))
}

/// The `k` strongest cards of a set by the game order (then suit).
fn strongest(s: CardSet, k: u32) -> CardSet {
    let mut out = 0;
    let mut left = k;
    for &r in BY_ORDER.iter().rev() {
        let mut m = s & rank_set(r);
        while m != 0 && left > 0 {
            out |= m & m.wrapping_neg();
            m &= m - 1;
            left -= 1;
        }
    }
    out
}

fn nth_bit(m: u16, k: u32) -> Rank {
    let mut m = m;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as Rank
}

/// Cards of rank `r` in the zone in play.
fn held(v: &View<'_>, r: Rank) -> CardSet {
    let me = v.seat();
    let zone = if v.hand() != 0 { v.hand() } else { v.up(me) };
    zone & rank_set(r)
}

/// The lowest rank of a mask in the game order.
fn lowest_rank(m: u16) -> Rank {
    for r in BY_ORDER {
        if m & (1 << r) != 0 {
            return r;
        }
    }
    unreachable!("a non-empty rank mask")
}

/// Drops the 8 when one more 8 flips the 8s (and something else is legal).
pub(super) fn safe(v: &View<'_>, legal: u16) -> u16 {
    if legal & (1 << EIGHT) == 0 {
        return legal;
    }
    let (q, len) = v.run();
    if q == EIGHT && len >= 3 {
        let rest = legal & !(1 << EIGHT);
        if rest != 0 {
            return rest;
        }
    }
    legal
}

/// The number of cards of `r` to play: every copy, except one 2 or 10 for
/// the savers and never the 8 that makes four.
pub(super) fn count_for(v: &View<'_>, r: Rank, play: Play) -> u8 {
    let avail = held(v, r).count_ones();
    let mut n = avail;
    if matches!(play, Play::Saver { .. } | Play::Counter) && matches!(r, TWO | TEN) {
        n = 1;
    }
    if r == TEN {
        n = 1;
    }
    if r == EIGHT {
        let (q, len) = v.run();
        if q == EIGHT {
            n = n.min(3u32.saturating_sub(len)).max(1);
        }
    }
    n as u8
}

const SAVED: u16 = (1 << TWO) | (1 << TEN) | (1 << FOUR) | (1 << FIVE) | (1 << SEVEN);

fn saver(v: &View<'_>, legal: u16, burn_at: Option<Burn>) -> Rank {
    if let Some(b) = burn_at
        && b.now(v)
    {
        if legal & (1 << TEN) != 0 {
            return TEN;
        }
        let (q, len) = v.run();
        if q != EIGHT && q != ZERO && legal & (1 << q) != 0 && len + held(v, q).count_ones() >= 4 {
            return q;
        }
    }
    let plain = legal & !SAVED;
    if plain != 0 {
        lowest_rank(plain)
    } else {
        lowest_rank(legal)
    }
}

fn attacker(v: &View<'_>, legal: u16) -> Rank {
    let me = v.seat();
    let next = v.next();
    let fewest = (0..v.players())
        .filter(|&q| q != me && v.is_active(q))
        .map(|q| v.cards_left(q))
        .min()
        .unwrap_or(u32::MAX);
    let left = v.cards_left(next);
    if left == fewest && left <= 3 {
        if legal & (1 << EIGHT) != 0 {
            return EIGHT;
        }
        if legal & (1 << FOUR) != 0 {
            return FOUR;
        }
        if legal & (1 << SEVEN) != 0 {
            return SEVEN;
        }
        if legal & (1 << THREE) != 0 && v.active_count() >= 3 {
            return THREE;
        }
    }
    saver(v, legal, None)
}

/// Whether `v`'s player holds nothing beyond the zone in play and cannot
/// draw: a play of every card of that zone would finish.
fn last_zone(v: &View<'_>) -> bool {
    let me = v.seat();
    v.draw_count() == 0
        && v.down_count(me) == 0
        && match v.zone(me) {
            Zone::Hand => v.up(me) == 0,
            Zone::FaceUp => true,
            Zone::FaceDown => false,
        }
}

/// Whether playing every card of rank `r` would finish illegally (as far
/// as the player can tell: a 9 is risky when the seen discard pile holds a
/// 2 or a 10).
fn finishes_illegally(v: &View<'_>, r: Rank) -> bool {
    let me = v.seat();
    let zone = if v.hand() != 0 { v.hand() } else { v.up(me) };
    if !last_zone(v) || zone & !rank_set(r) != 0 {
        return false;
    }
    let n = held(v, r).count_ones();
    let (q, len) = v.run();
    let set = q == r && len + n >= 4;
    match r {
        _ if set => r != FOUR,
        TWO | TEN => true,
        EIGHT => v.step(me, n) == me,
        NINE => v.discard_seen() & (rank_set(TWO) | rank_set(TEN)) != 0,
        _ => false,
    }
}

/// Drops the plays that would finish illegally, when another play exists.
fn finish_guard(v: &View<'_>, legal: u16) -> u16 {
    if !last_zone(v) {
        return legal;
    }
    let ok = (0..RANKS as Rank)
        .filter(|&r| legal & (1 << r) != 0 && !finishes_illegally(v, r))
        .fold(0u16, |m, r| m | 1 << r);
    if ok != 0 { ok } else { legal }
}

fn finisher(v: &View<'_>, legal: u16) -> Rank {
    let legal = finish_guard(v, legal);
    if last_zone(v) {
        let me = v.seat();
        let zone = if v.hand() != 0 { v.hand() } else { v.up(me) };
        for r in [TWO, TEN] {
            if legal & (1 << r) != 0 && zone & !rank_set(r) != 0 {
                return r;
            }
        }
    }
    lowest_rank(legal)
}

/// The chance that player `q` cannot play on target `t`, as `v`'s player
/// can count it.
fn p_stuck(v: &View<'_>, q: usize, t: u8) -> f64 {
    let ok_ranks = v.can_on(t);
    let ok_cards = rank_cards(ok_ranks);
    let unseen = v.unseen();
    let u = unseen.count_ones() as f64;
    let a = (unseen & ok_cards).count_ones() as f64;
    let one_unseen_fails = if u > 0.0 { 1.0 - a / u } else { 1.0 };
    match v.zone(q) {
        Zone::FaceDown => one_unseen_fails,
        Zone::FaceUp => {
            if ranks_of(v.up(q)) & ok_ranks != 0 {
                0.0
            } else {
                1.0
            }
        }
        Zone::Hand => {
            let known = v.known_hand(q);
            if ranks_of(known) & ok_ranks != 0 {
                return 0.0;
            }
            let h = v.hand_size(q) - known.count_ones();
            let mut p = 1.0;
            for i in 0..h {
                let i = f64::from(i);
                if u - i <= 0.0 {
                    break;
                }
                p *= ((u - a - i) / (u - i)).max(0.0);
            }
            if v.draw_count() > 0 {
                p *= one_unseen_fails;
            }
            p
        }
    }
}

/// What `counter` charges for spending a card, per step of the game order.
const COUNTER_COST: f64 = 1.0;
/// What `counter` counts for a play that gives it another move (a 2, a
/// 10, a set, 8s that come back): the card is gone and the turn stays.
const AGAIN_VALUE: f64 = 1.5;

fn counter(v: &View<'_>, legal: u16) -> Rank {
    let me = v.seat();
    let t = v.target();
    let pile = v.live_count() as f64;
    let mut best = (f64::NEG_INFINITY, 0u8, ZERO);
    for r in BY_ORDER {
        if legal & (1 << r) == 0 {
            continue;
        }
        let n = held(v, r).count_ones();
        let (q, len) = v.run();
        let again = matches!(r, TWO | TEN) || (q == r && len + n >= 4);
        let cost = COUNTER_COST * f64::from(ORDER[usize::from(r)]);
        let score = if again {
            AGAIN_VALUE - cost
        } else {
            let (after, next) = match r {
                FIVE => (t, v.next()),
                SIX if t == FOUR => (FOUR, v.next()),
                ACE if t == SEVEN => (ZERO, v.next()),
                EIGHT => (r, v.step(me, n)),
                _ => (r, v.next()),
            };
            if next == me {
                AGAIN_VALUE - cost
            } else {
                p_stuck(v, next, after) * (pile + f64::from(n)) - cost
            }
        };
        let key = ORDER[usize::from(r)];
        if score > best.0 || (score == best.0 && key < best.1) {
            best = (score, key, r);
        }
    }
    best.2
}

/// A chooser that makes one given play first, then plays `lowest`.
struct Playout {
    first: Option<Rank>,
}

const LOWEST: Policy = Policy {
    play: Play::Lowest,
    fix: Fix::Strong,
};

impl Chooser for Playout {
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        LOWEST.fix(v, d)
    }
    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        if let Some(r) = self.first.take() {
            return Action::Play {
                rank: r,
                count: count_for(v, r, Play::Lowest),
            };
        }
        LOWEST.act(v, d)
    }
    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        LOWEST.add_on(v, rank, avail, d)
    }
    fn face_down<D: Draw>(&mut self, _: &View<'_>, _: &mut D) -> usize {
        0
    }
    fn deterministic(&self) -> bool {
        false
    }
}

/// Moves a playout may last.
const PLAYOUT_MOVES: u32 = 1000;

fn rollout<D: Draw>(v: &View<'_>, cands: u16, k: u16, d: &mut D) -> Rank {
    let me = v.seat();
    let players = v.players() as u32;
    let seeds: Vec<u64> = (0..k)
        .map(|_| u64::from(d.below(u32::MAX)) << 32 | u64::from(d.below(u32::MAX)))
        .collect();
    let mut best = (u32::MAX, 0u8, ZERO);
    for r in BY_ORDER {
        if cands & (1 << r) == 0 {
            continue;
        }
        // Sum of places, in halves (a stalemate is the middle place).
        let mut sum = 0u32;
        for &seed in &seeds {
            let mut rng = SimRng::seed_from_u64(seed);
            let mut w = v.sample_world(&mut rng);
            w.set_move_cap(w.moves() + PLAYOUT_MOVES);
            let mut ch = Playout { first: Some(r) };
            let end = w.play_on(&mut ch, &mut Silent, &mut rng);
            sum += match end {
                End::Complete => 2 * u32::from(w.place(me)),
                End::Stalemate { .. } => players + 1,
            };
        }
        let key = ORDER[usize::from(r)];
        if sum < best.0 || (sum == best.0 && key < best.1) {
            best = (sum, key, r);
        }
    }
    best.2
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.play {
            Play::Random => write!(f, "random")?,
            Play::Lowest => write!(f, "lowest")?,
            Play::Saver { burn_at } => {
                write!(f, "saver")?;
                match burn_at {
                    Some(Burn::At(t)) => write!(f, "+burn-at:{t}")?,
                    Some(Burn::User(u)) => write!(f, "+{u}")?,
                    None => {}
                }
            }
            Play::Attacker => write!(f, "attacker")?,
            Play::Finisher => write!(f, "finisher")?,
            Play::Counter => write!(f, "counter")?,
            Play::Rollout { k } => write!(f, "rollout:{k}")?,
            Play::Ismcts(s) => {
                write!(f, "ismcts:{}", s.n)?;
                if s.playout.play != DEFAULT_PLAYOUT {
                    write!(f, "+playout:{}", s.playout)?;
                }
            }
        }
        match self.fix {
            Fix::Strong => Ok(()),
            Fix::Keep => write!(f, "+fix:keep"),
            Fix::Stack => write!(f, "+fix:stack"),
        }
    }
}

/// Every seat's policy, as one [`Chooser`].
#[derive(Clone, Debug)]
pub struct Seats {
    policies: Vec<Policy>,
    deterministic: bool,
}

impl Seats {
    /// `policies[s]` plays seat `s`.
    pub fn new(policies: Vec<Policy>) -> Seats {
        let deterministic = policies.iter().all(Policy::deterministic);
        Seats { policies, deterministic }
    }
}

impl Chooser for Seats {
    #[inline]
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        self.policies[v.seat()].fix(v, d)
    }
    #[inline]
    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        self.policies[v.seat()].act(v, d)
    }
    #[inline]
    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        self.policies[v.seat()].add_on(v, rank, avail, d)
    }
    #[inline]
    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
        self.policies[v.seat()].face_down(v, d)
    }
    fn deterministic(&self) -> bool {
        self.deterministic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_print_back() {
        for s in [
            "random",
            "lowest",
            "saver",
            "saver+burn-at:8",
            "attacker+fix:keep",
            "finisher+fix:stack",
            "counter",
            "rollout:16",
        ] {
            assert_eq!(Policy::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Policy::parse("lowest+fix:strong").unwrap().to_string(), "lowest");
        for bad in ["", "x", "lowest+burn-at:3", "saver+burn-at:0", "rollout:0", "lowest+fix:x", "saver+burn-at:07"] {
            assert!(Policy::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strongest_picks_by_game_order() {
        let s = parse_set("3H 5D 10C 4S 7H AH").unwrap();
        assert_eq!(strongest(s, 3), parse_set("5D 10C 4S").unwrap());
    }
}
