//! The end-of-turn decisions of `rollout:K`: the hand challenge and the
//! end-of-turn discard are decided, like its start options (and so its
//! calls), by K determinized playouts of the rest of the round in worlds
//! sampled from what its player knows ([`View::sample_world`]). Every
//! candidate sees the same K worlds; the one with the best mean of its
//! round score minus the best opponent's is played (ties: the earlier
//! candidate, no challenge first, `collector`'s discard first). In the
//! playouts it plays its own spec with `collector` as the play rule, the
//! others play `collector`. With `bluff-prior:B` the worlds of these two
//! decisions are weighted by the likelihood of what the opponents did:
//! each opponent over seven counts B in a world where it holds no 7>>>10
//! or Any (it must be bluffing) and 1 where it holds one (importance
//! weights towards the level-1 posterior of `sheriff`'s `bluff-prior`).

use rand::SeedableRng;

use super::cards::*;
use super::policies::{Base, Policy, challengeable};
use super::rules::{Chooser, Silent, Start, View};
use crate::engine::rng::{Draw, SimRng};

/// The chooser of every playout: one decision of the player `me` fixed
/// (its next start, hand challenge or end-of-turn discard), then `mine`
/// for that player and `collector` for everybody else.
pub(super) struct Scripted {
    pub(super) me: usize,
    pub(super) mine: Policy,
    pub(super) start: Option<Start>,
    pub(super) challenge: Option<Option<usize>>,
    pub(super) discard: Option<CardSet>,
}

impl Scripted {
    fn policy(&self, seat: usize) -> Policy {
        if seat == self.me { self.mine } else { Policy::default() }
    }
}

impl Chooser for Scripted {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        if v.seat() == self.me
            && let Some(s) = self.start.take()
        {
            return s;
        }
        self.policy(v.seat()).start(v, d)
    }
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        self.policy(v.seat()).take_pick(v, target, d)
    }
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        self.policy(v.seat()).block(v, by, func, d)
    }
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        if v.seat() == self.me
            && let Some(c) = self.challenge.take()
        {
            return c;
        }
        self.policy(v.seat()).challenge(v, d)
    }
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        if v.seat() == self.me
            && !forced
            && let Some(c) = self.discard.take()
        {
            return c;
        }
        self.policy(v.seat()).discard(v, limit, forced, d)
    }
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        self.policy(v.seat()).take_penalty(v, pile, d)
    }
}

/// K playout seeds, drawn from the decision's random numbers.
pub(super) fn seeds<D: Draw>(k: u16, d: &mut D) -> Vec<u64> {
    (0..k)
        .map(|_| (u64::from(d.below(u32::MAX)) << 32) | u64::from(d.below(u32::MAX)))
        .collect()
}

/// The mean, over the worlds of `seeds`, of `v`'s player's round score
/// minus the best opponent's after playing on from the end of its turn
/// with `script` (void rounds count 0).
fn mean_margin(policy: &Policy, v: &View<'_>, seeds: &[u64], from_challenge: bool, script: (Option<Option<usize>>, Option<CardSet>)) -> f64 {
    let me = v.seat();
    let n = v.players();
    let mine = Policy {
        base: Base::Collector,
        ..*policy
    };
    // With `bluff-prior:B`, each world is weighted by how likely the
    // opponents' behaviour is in it: an opponent over seven without a
    // 7>>>10 or Any is a bluffer (B), with one it may be either (1).
    let b = f64::from(policy.bluff_prior) / 1e6;
    let over: Vec<usize> = (0..n)
        .filter(|&q| q != me && !v.penalised(q) && v.hand_size(q) > 7)
        .collect();
    let mut sum = 0f64;
    let mut weights = 0f64;
    for &seed in seeds {
        let mut rng = SimRng::seed_from_u64(seed);
        let mut w = v.sample_world(&mut rng);
        let weight = if b < 1.0 {
            over.iter()
                .map(|&q| if w.hand(q) & LIMIT10 == 0 { b } else { 1.0 })
                .product()
        } else {
            1.0
        };
        weights += weight;
        let mut ch = Scripted {
            me,
            mine,
            start: None,
            challenge: script.0,
            discard: script.1,
        };
        w.play_on_from_end(me, from_challenge, &mut ch, &mut Silent, &mut rng);
        if !w.cut_off() {
            let other = (0..n).filter(|&q| q != me).map(|q| w.score_of(q).points).max().unwrap_or(0);
            sum += weight * (f64::from(w.score_of(me).points) - f64::from(other));
        }
    }
    if weights == 0.0 { 0.0 } else { sum / weights }
}

/// The players `v`'s player could challenge with a chance of winning:
/// over their limit (seven, six when penalised) and not holding a hand
/// they were just given (C22).
pub fn challenge_candidates(v: &View<'_>) -> Vec<usize> {
    let mut open = challengeable(v);
    let mut cands = Vec::new();
    while open != 0 {
        cands.push(open.trailing_zeros() as usize);
        open &= open - 1;
    }
    cands
}

/// `rollout:K`'s hand challenge.
pub fn challenge<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, d: &mut D) -> Option<usize> {
    let cands = challenge_candidates(v);
    if cands.is_empty() {
        return None;
    }
    let seeds = seeds(k, d);
    let mut best = (mean_margin(policy, v, &seeds, true, (Some(None), None)), None);
    for q in cands {
        let m = mean_margin(policy, v, &seeds, true, (Some(Some(q)), None));
        if m > best.0 {
            best = (m, Some(q));
        }
    }
    best.1
}

/// `rollout:K`'s end-of-turn discard: the candidates are what `collector`
/// would discard with its own bluffing part and with `bluffer:7` to
/// `bluffer:10` (keep seven, or up to ten without a 7>>>10). Discards
/// after a lost challenge (`forced`) are `collector`'s.
pub fn discard<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
    let plain = Policy {
        base: Base::Collector,
        ..*policy
    };
    let first = plain.keep_discard(v, limit, forced, d);
    if forced {
        return first;
    }
    let mut cands = vec![first];
    for bluff in 7..=10 {
        let c = Policy { bluff, ..plain }.keep_discard(v, limit, forced, d);
        if !cands.contains(&c) {
            cands.push(c);
        }
    }
    if cands.len() == 1 {
        return first;
    }
    let seeds = seeds(k, d);
    let mut best = (f64::MIN, first);
    for c in cands {
        let m = mean_margin(policy, v, &seeds, false, (None, Some(c)));
        if m > best.0 {
            best = (m, c);
        }
    }
    best.1
}
