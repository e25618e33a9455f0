//! How `rollout:K` decides: its start options (and so its calls), its
//! hand challenge, its end-of-turn discard, its Block reaction, the card
//! taken by its Take and the cards taken from the penalty discards are
//! each decided by K determinized playouts of the rest of the round in
//! worlds sampled from what its player knows ([`View::sample_world`]),
//! each playout picking the turn up at the decision
//! ([`Table::play_on_from`]). Every candidate sees the same K worlds; the
//! one with the best mean of its round score minus the best opponent's
//! is played (ties: the earlier candidate, `collector`'s choice first).
//! In the playouts it plays its own spec with `collector` as the play
//! rule, the others play `collector`. With `bluff-prior:B` the worlds are weighted by the
//! likelihood of what the opponents did: each opponent over seven counts
//! B in a world where it holds no 7>>>10 or Any (it must be bluffing) and
//! 1 where it holds one (importance weights towards the level-1 posterior
//! of `sheriff`'s `bluff-prior`).
//!
//! [`Table::play_on_from`]: super::rules::Table::play_on_from

use rand::SeedableRng;

use super::cards::*;
use super::policies::{Base, Policy, challengeable};
use super::rules::{BLOCK_CARDS, Chooser, Resume, Silent, Start, Table, View};
use crate::engine::rng::{Draw, SimRng};

/// One decision of a playout's player fixed in advance (also the move
/// of `ismcts:N`'s search tree, [`super::search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fixed {
    Start(Start),
    Challenge(Option<usize>),
    Discard(CardSet),
    Block(Option<Card>),
    Pick(Card),
    Penalty(CardSet),
    /// The discard down to six inside a hand challenge (asked by `sim
    /// advise`; `rollout:K` and `ismcts:N` discard there as their policy
    /// does).
    Forced(CardSet),
}

/// The chooser of every playout: the player `me`'s next decision of the
/// kind fixed is the one fixed, then `mine` decides for that player and
/// `others` for everybody else (`collector` in `rollout:K`).
pub(super) struct Scripted {
    pub(super) me: usize,
    pub(super) mine: Policy,
    pub(super) others: Policy,
    pub(super) fixed: Option<Fixed>,
}

impl Scripted {
    fn policy(&self, seat: usize) -> Policy {
        if seat == self.me { self.mine } else { self.others }
    }

    /// The fixed decision, once, if it is `me` deciding and `pick` finds
    /// the kind asked for.
    fn take<T>(&mut self, seat: usize, pick: impl Fn(Fixed) -> Option<T>) -> Option<T> {
        if seat != self.me {
            return None;
        }
        let answer = self.fixed.and_then(pick);
        if answer.is_some() {
            self.fixed = None;
        }
        answer
    }
}

impl Chooser for Scripted {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        let fixed = self.take(v.seat(), |f| if let Fixed::Start(s) = f { Some(s) } else { None });
        fixed.unwrap_or_else(|| self.policy(v.seat()).start(v, d))
    }
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        let fixed = self.take(v.seat(), |f| if let Fixed::Pick(c) = f { Some(c) } else { None });
        fixed.unwrap_or_else(|| self.policy(v.seat()).take_pick(v, target, d))
    }
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        let fixed = self.take(v.seat(), |f| if let Fixed::Block(b) = f { Some(b) } else { None });
        fixed.unwrap_or_else(|| self.policy(v.seat()).block(v, by, func, d))
    }
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        let fixed = self.take(v.seat(), |f| if let Fixed::Challenge(c) = f { Some(c) } else { None });
        fixed.unwrap_or_else(|| self.policy(v.seat()).challenge(v, d))
    }
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        let fixed = self.take(v.seat(), |f| match f {
            Fixed::Discard(c) if !forced => Some(c),
            Fixed::Forced(c) if forced => Some(c),
            _ => None,
        });
        fixed.unwrap_or_else(|| self.policy(v.seat()).discard(v, limit, forced, d))
    }
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        let fixed = self.take(v.seat(), |f| if let Fixed::Penalty(c) = f { Some(c) } else { None });
        fixed.unwrap_or_else(|| self.policy(v.seat()).take_penalty(v, pile, d))
    }
}

/// `policy` with `collector` as its play rule: what `rollout:K` plays in
/// its playouts and offers first as a candidate.
pub(super) fn collector_rule(policy: &Policy) -> Policy {
    Policy {
        base: Base::Collector,
        ..*policy
    }
}

/// K playout seeds, drawn from the decision's random numbers.
pub(super) fn seeds<D: Draw>(k: u16, d: &mut D) -> Vec<u64> {
    (0..k)
        .map(|_| (u64::from(d.below(u32::MAX)) << 32) | u64::from(d.below(u32::MAX)))
        .collect()
}

/// One sampled world of a decision: the table, the generator that plays
/// it on, and its weight.
type World = (Table, SimRng, f64);

/// The worlds of `seeds`, sampled once for every candidate. With
/// `bluff-prior:B`, each world is weighted by how likely the opponents'
/// behaviour is in it: an opponent over seven (not penalised) without a
/// 7>>>10 or Any is a bluffer (B), with one it may be either (1).
fn sample_worlds(policy: &Policy, v: &View<'_>, seeds: &[u64]) -> Vec<World> {
    let me = v.seat();
    let b = f64::from(policy.bluff_prior) / 1e6;
    let over: Vec<usize> = (0..v.players())
        .filter(|&q| q != me && !v.penalised(q) && v.hand_size(q) > 7)
        .collect();
    seeds
        .iter()
        .map(|&seed| {
            let mut rng = SimRng::seed_from_u64(seed);
            let w = v.sample_world(&mut rng);
            let weight = if b < 1.0 {
                over.iter()
                    .map(|&q| if w.hand(q) & LIMIT10 == 0 { b } else { 1.0 })
                    .product()
            } else {
                1.0
            };
            (w, rng, weight)
        })
        .collect()
}

/// The weighted mean, over `worlds`, of `me`'s round score minus the best
/// opponent's after playing on from `at` in the turn of `actor` with
/// `fixed` (void rounds count 0); `mine` plays `me` after that.
fn mean_margin(worlds: &[World], me: usize, mine: Policy, actor: usize, at: Resume, fixed: Fixed) -> f64 {
    let mut sum = 0f64;
    let mut weights = 0f64;
    for (w0, rng0, weight) in worlds {
        let (mut w, mut rng) = (w0.clone(), rng0.clone());
        weights += weight;
        let mut ch = Scripted {
            me,
            mine,
            others: Policy::default(),
            fixed: Some(fixed),
        };
        w.play_on_from(actor, at, &mut ch, &mut Silent, &mut rng);
        if !w.cut_off() {
            let n = w.rules().players;
            let other = (0..n).filter(|&q| q != me).map(|q| w.score_of(q).points).max().unwrap_or(0);
            sum += weight * (f64::from(w.score_of(me).points) - f64::from(other));
        }
    }
    if weights == 0.0 { 0.0 } else { sum / weights }
}

/// The candidate with the best [`mean_margin`] over K worlds (ties: the
/// earlier); the first when it is the only one (no playout, no random
/// number drawn).
#[allow(clippy::too_many_arguments)]
pub(super) fn best_by_playouts<T: Copy, D: Draw>(
    policy: &Policy,
    k: u16,
    v: &View<'_>,
    actor: usize,
    at: Resume,
    cands: &[T],
    fix: impl Fn(T) -> Fixed,
    d: &mut D,
) -> T {
    if cands.len() == 1 {
        return cands[0];
    }
    let worlds = sample_worlds(policy, v, &seeds(k, d));
    let mine = collector_rule(policy);
    let mut best = (f64::MIN, cands[0]);
    for &c in cands {
        let m = mean_margin(&worlds, v.seat(), mine, actor, at, fix(c));
        if m > best.0 {
            best = (m, c);
        }
    }
    best.1
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

/// `first`, then each of `rest` not already listed: a decision's
/// candidates with a policy's own choice first.
pub(super) fn first_then<T: PartialEq>(first: T, rest: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut cands = vec![first];
    for c in rest {
        if !cands.contains(&c) {
            cands.push(c);
        }
    }
    cands
}

/// The hand challenges to consider: `first`, then none and each player
/// `v`'s player could win against.
pub(super) fn challenge_options(first: Option<usize>, v: &View<'_>) -> Vec<Option<usize>> {
    first_then(first, std::iter::once(None).chain(challenge_candidates(v).into_iter().map(Some)))
}

/// The end-of-turn discards to consider: `first`, then what `plain` (a
/// policy with `collector` as its play rule) would discard with
/// `bluffer:7` to `bluffer:10` (keep seven, or up to ten without a
/// 7>>>10).
pub(super) fn discard_options<D: Draw>(first: CardSet, plain: &Policy, v: &View<'_>, limit: u32, d: &mut D) -> Vec<CardSet> {
    let bluffs: Vec<CardSet> = (7..=10)
        .map(|bluff| Policy { bluff, ..*plain }.keep_discard(v, limit, false, d))
        .collect();
    first_then(first, bluffs)
}

/// The discards down to six to consider, `first` first: every discard of
/// `need` cards when `need` is one, else `first` and every discard that
/// swaps one of its cards for one `first` keeps.
pub(super) fn forced_options(first: CardSet, v: &View<'_>, need: u32) -> Vec<CardSet> {
    let hand = v.hand();
    let rest: Vec<CardSet> = if need == 1 {
        cards_of(hand).map(bit).collect()
    } else {
        let mut swaps = Vec::new();
        for out in cards_of(first) {
            for keep in cards_of(hand & !first) {
                swaps.push(first & !bit(out) | bit(keep));
            }
        }
        swaps
    };
    first_then(first, rest)
}

/// The Block reactions to consider: `first`, then no Block, a Draw/Block
/// card and an Any.
pub(super) fn block_options(first: Option<Card>, v: &View<'_>) -> Vec<Option<Card>> {
    let lowest = |m: CardSet| (m != 0).then(|| m.trailing_zeros() as Card);
    first_then(first, [None, lowest(v.hand() & BLOCK_CARDS), lowest(v.hand() & ANY_CARDS)])
}

/// The cards to take from the hand of `target` a Take sees: `first`,
/// then every other card of it.
pub(super) fn pick_options(first: Card, v: &View<'_>, target: usize) -> Vec<Card> {
    first_then(first, cards_of(v.known(target)))
}

/// The cards to take from the penalty discards `pile`: `first`, then
/// every pair (the card itself when the pile holds one).
pub(super) fn penalty_options(first: CardSet, pile: CardSet) -> Vec<CardSet> {
    let cards: Vec<Card> = cards_of(pile).collect();
    let mut rest = Vec::new();
    for (i, &a) in cards.iter().enumerate() {
        for &b in &cards[i + 1..] {
            rest.push(bit(a) | bit(b));
        }
    }
    if cards.len() == 1 {
        rest.push(pile);
    }
    first_then(first, rest)
}

/// `rollout:K`'s hand challenge: none, or each player it could win
/// against.
pub fn challenge<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, d: &mut D) -> Option<usize> {
    let cands = challenge_options(None, v);
    best_by_playouts(policy, k, v, v.seat(), Resume::Challenge, &cands, Fixed::Challenge, d)
}

/// `rollout:K`'s end-of-turn discard: the candidates are what `collector`
/// would discard with its own bluffing part and with `bluffer:7` to
/// `bluffer:10` (keep seven, or up to ten without a 7>>>10). Discards
/// after a lost challenge (`forced`) are `collector`'s.
pub fn discard<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
    let plain = collector_rule(policy);
    let first = plain.keep_discard(v, limit, forced, d);
    if forced {
        return first;
    }
    let cands = discard_options(first, &plain, v, limit, d);
    best_by_playouts(policy, k, v, v.seat(), Resume::Discard, &cands, Fixed::Discard, d)
}

/// `rollout:K`'s Block reaction to `by`'s Take or Steal: no Block, a
/// Draw/Block card or an Any (`collector`'s choice first).
pub fn block<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
    let first = collector_rule(policy).block(v, by, func, d);
    let cands = block_options(first, v);
    best_by_playouts(policy, k, v, by, Resume::Block { victim: v.seat() }, &cands, Fixed::Block, d)
}

/// `rollout:K`'s pick from the hand its Take sees: every card of it
/// (`collector`'s first).
pub fn take_pick<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, target: usize, d: &mut D) -> Card {
    let first = collector_rule(policy).take_pick(v, target, d);
    let cands = pick_options(first, v, target);
    best_by_playouts(policy, k, v, v.seat(), Resume::TakePick { from: target }, &cands, Fixed::Pick, d)
}

/// `rollout:K`'s pick from the penalty discards `pile` after winning a
/// challenge: `collector`'s two, then every other pair (the card itself
/// when the pile holds one). Taking a card never forces keeping it: the
/// discard to the limit follows.
pub fn take_penalty<D: Draw>(policy: &Policy, k: u16, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
    let first = collector_rule(policy).take_penalty(v, pile, d);
    let cands = penalty_options(first, pile);
    best_by_playouts(policy, k, v, v.seat(), Resume::PenaltyPick { pile }, &cands, Fixed::Penalty, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::classic_flip::rules::{EMPTY, Position, Rules};

    /// A two-player table where seat 0 holds `names`, every other card in
    /// the draw pile.
    fn holding(names: &[&str]) -> Table {
        let hand = names.iter().fold(0, |m, c| m | bit(parse(c).unwrap()));
        let deck = Rules::standard(2).deck.all;
        let mut t = Table::new(Rules::standard(2));
        t.set_position(&Position {
            hands: vec![hand, 0],
            community: [EMPTY; 3],
            draw: cards_of(deck & !hand).collect(),
            totals: vec![0, 0],
            ..Default::default()
        });
        t
    }

    /// C25: with one card to go, every card of the hand is a discard to
    /// consider, the first given first.
    #[test]
    fn forced_discard_of_one_card_considers_every_card() {
        let t = holding(&["R2", "R3", "B4", "B5", "P6", "P7", "GK"]);
        let v = View::new(&t, 0);
        let first = bit(parse("GK").unwrap());
        let all = forced_options(first, &v, 1);
        assert_eq!(all.len(), 7);
        assert_eq!(all[0], first);
        assert_eq!(all.iter().fold(0, |m, &c| m | c), v.hand());
        assert!(all.iter().all(|c| c.count_ones() == 1));
    }

    /// With more to go: the first discard, then every discard that swaps
    /// one of its cards for a card it keeps, each of the same size and
    /// each once.
    #[test]
    fn forced_discard_of_more_considers_the_one_card_swaps() {
        let t = holding(&["R2", "R3", "B4", "B5", "P6", "P7", "GK", "GQ", "GJ"]);
        let v = View::new(&t, 0);
        let first = ["R2", "R3", "B4"].iter().fold(0, |m, c| m | bit(parse(c).unwrap()));
        let all = forced_options(first, &v, 3);
        assert_eq!(all.len(), 1 + 3 * 6);
        assert_eq!(all[0], first);
        for (i, &c) in all.iter().enumerate() {
            assert_eq!(c.count_ones(), 3);
            assert_eq!(c & !v.hand(), 0);
            assert!(i == 0 || (c & first).count_ones() == 2);
            assert!(!all[..i].contains(&c));
        }
    }
}
