//! The `counter` play rule: every start option it can value, valued by its
//! exact expected round score over the unseen cards, discards by the same
//! value, and a call rule that weighs the gain of waiting against what
//! waiting gives the opponents. The rules are in the module
//! documentation of [`super::policies`]; this module has the sums.
//!
//! Every expectation here is over the cards the player cannot place
//! ([`View::unseen`]): the top of the draw pile and every card of an
//! opponent it has not seen are, from what it knows, a uniform draw
//! without replacement from them. Sums go over cards grouped by what they
//! do for a score (`Pool`), so they are exact and cheap for a few cards;
//! an option whose sum would take more than [`BUDGET`] terms is not valued.

use super::cards::*;
use super::policies::{Pool, Policy, binom, holding, steal_slots, steal_victims, Wants};
use super::rules::{BLOCK_CARDS, EMPTY, Play, Start, View};
use crate::engine::rng::Draw;

/// The most terms one expectation may sum (about 0.2 ms).
pub const BUDGET: f64 = 6_000.0;

/// The most terms `thief` sums to value one Swap or Reboot (one or
/// two unknown cards).
pub const THIEF_BUDGET: f64 = 600.0;

/// Worlds sampled to price one opponent turn in the call rule.
pub const CALL_WORLDS: u32 = 8;

/// The exact expected score of `base` plus the best card (for that score)
/// of a hand made of `known` and `hidden` cards drawn without replacement
/// from `unseen`: what a Take on that hand gives (the taker sees the whole
/// hand and takes the card that scores most). With `blocks`, the target
/// blocks whenever its hand holds a Draw/Block (as every shipped policy
/// but `random` does): the Take then gives nothing.
pub fn take_value(base: CardSet, known: CardSet, hidden: u32, unseen: CardSet, blocks: bool) -> f64 {
    let now = f64::from(points(base));
    if count(known) + hidden == 0 {
        return now;
    }
    if blocks && known & BLOCK_CARDS != 0 {
        return now;
    }
    // Given no block, the hidden cards are a uniform draw from the unseen
    // cards that are not Draw/Block.
    let pool = if blocks { unseen & !BLOCK_CARDS } else { unseen };
    let u = count(unseen);
    let u2 = count(pool);
    let p_through = if blocks { binom(u2, hidden) / binom(u, hidden) } else { 1.0 };
    if u2 < hidden || p_through == 0.0 {
        return now;
    }
    let floor = cards_of(known).map(|c| points(base | bit(c))).max().unwrap_or(0).max(points(base));
    let mut vals: Vec<u32> = cards_of(pool).map(|c| points(base | bit(c))).filter(|&p| p > floor).collect();
    vals.sort_unstable_by(|a, b| b.cmp(a));
    // E[max] = floor + sum over levels t (descending) of
    // (t - next level) * P(some hidden card reaches t).
    let mut e = f64::from(floor);
    let all = binom(u2, hidden);
    let mut i = 0;
    while i < vals.len() {
        let t = vals[i];
        while i < vals.len() && vals[i] == t {
            i += 1;
        }
        let next = if i < vals.len() { vals[i] } else { floor };
        let reach = 1.0 - binom(u2 - i as u32, hidden) / all;
        e += f64::from(t - next) * reach;
    }
    p_through * e + (1.0 - p_through) * now
}

/// One Steal victim as the thief sees it.
#[derive(Clone, Copy, Debug)]
pub struct Victim {
    /// The cards the thief knows it holds.
    pub known: CardSet,
    /// Its hand size.
    pub size: u32,
    /// The chance it blocks.
    pub block: f64,
}

/// The expected score of `base` after a Steal: one uniformly random card
/// from each victim (one of its known cards, or one of its unknown cards,
/// which is a uniform unseen card), plus `slots` community cards whose
/// replacements are unseen cards too. Exact but for one approximation: a
/// victim's block and the card it loses are taken as independent.
pub(super) fn steal_value(pool: &Pool, base: CardSet, victims: &[Victim], slots: u32) -> f64 {
    fn go(pool: &Pool, base: CardSet, victims: &[Victim], draws: u32, p: f64, sum: &mut f64) {
        let Some((v, rest)) = victims.split_first() else {
            *sum += p * pool.expected(base, draws);
            return;
        };
        if v.size == 0 {
            go(pool, base, rest, draws, p, sum);
            return;
        }
        if v.block > 0.0 {
            go(pool, base, rest, draws, p * v.block, sum);
        }
        let through = p * (1.0 - v.block);
        if through == 0.0 {
            return;
        }
        let n = f64::from(v.size);
        for c in cards_of(v.known) {
            go(pool, base | bit(c), rest, draws, through / n, sum);
        }
        let hidden = v.size - count(v.known);
        if hidden > 0 {
            go(pool, base, rest, draws + 1, through * f64::from(hidden) / n, sum);
        }
    }
    let mut sum = 0.0;
    go(pool, base, victims, slots, 1.0, &mut sum);
    sum
}

/// The chance that `q`, as `v`'s player knows it, holds a Draw/Block.
fn block_chance(v: &View<'_>, q: usize) -> f64 {
    if !v.rules().allows(Func::Block) {
        return 0.0;
    }
    if v.known(q) & BLOCK_CARDS != 0 {
        return 1.0;
    }
    let unseen = v.unseen();
    let u = count(unseen);
    let b = count(unseen & BLOCK_CARDS);
    let h = v.hidden(q);
    if b == 0 || h == 0 {
        return 0.0;
    }
    1.0 - binom(u - b, h) / binom(u, h)
}

/// The mirror model of denial: what a community card `c` is worth to an
/// opponent, taken as what it is worth to this player's own combined hand
/// against a random unseen card in its place (exact over the unseen
/// cards). An opponent's hand is unknown; the model assumes it needs the
/// community as much as this player does.
fn denial(pool: &Pool, combined: CardSet, c: Card) -> f64 {
    (f64::from(points(combined)) - pool.expected(combined & !bit(c), 1)).max(0.0)
}

/// Every start option `counter` values, with its value: own expected
/// round score after the option (plus the mirror denial for community
/// cards taken). Draw two first: ties keep the earlier option.
/// `deny`: community takes are options; `any`: Any's actions are.
pub fn valued_options(v: &View<'_>, wants: &Wants, deny: bool, any: bool) -> Vec<(f64, Start)> {
    let combined = v.combined();
    let pool = Pool::of(v.unseen());
    let mut out: Vec<(f64, Start)> = Vec::with_capacity(16);
    out.push((pool.expected(combined, 2), Start::Draw2));
    if deny && v.caller().is_none() {
        let e1 = pool.expected(combined, 1);
        for (s, &c) in v.community().iter().enumerate() {
            if c != EMPTY {
                out.push((e1 + denial(&pool, combined, c), Start::Community(s as u8)));
            }
        }
    }
    action_options(v, wants, &pool, &mut out, BUDGET, |c, _| any || action(c) != Some(ANY));
    out
}

/// The action plays `keep(card, function)` allows, valued as in
/// [`valued_options`], pushed to `out`.
fn action_options(
    v: &View<'_>,
    wants: &Wants,
    pool: &Pool,
    out: &mut Vec<(f64, Start)>,
    budget: f64,
    keep: impl Fn(Card, Func) -> bool,
) {
    let combined = v.combined();
    let unseen = v.unseen();
    let com = v.community_set();
    let n = v.players();
    let me = v.seat();
    // One card per action (two decks hold two copies).
    let mut seen_action = 0u8;
    for c in cards_of(v.hand() & ACTION_CARDS) {
        let a = action(c).unwrap_or(0);
        if seen_action & (1 << a) != 0 {
            continue;
        }
        seen_action |= 1 << a;
        // Playing Any gives up its wild and its doubling.
        let base = combined & !bit(c);
        for f in Func::ALL {
            if functions(c) & f.bit() == 0 || !keep(c, f) {
                continue;
            }
            let mut p = Play::new(c, f);
            match f {
                Func::Draw => {
                    if v.playable(&p) && pool.leaves(3) <= budget {
                        out.push((pool.expected(base, 3), Start::Play(p)));
                    }
                }
                Func::Take => {
                    for q in (0..n).filter(|&q| q != me && v.hand_size(q) > 0) {
                        p.target = q as u8;
                        if v.playable(&p) {
                            let blocks = v.rules().allows(Func::Block);
                            let e = take_value(base, v.known(q), v.hidden(q), unseen, blocks);
                            out.push((e, Start::Play(p)));
                        }
                    }
                }
                Func::Steal => {
                    p.victims = steal_victims(v);
                    p.slots = steal_slots(v, wants);
                    if v.playable(&p) {
                        let victims: Vec<Victim> = (0..n)
                            .filter(|&q| p.victims & (1 << q) != 0)
                            .map(|q| Victim {
                                known: v.known(q),
                                size: v.hand_size(q),
                                block: block_chance(v, q),
                            })
                            .collect();
                        let draws = victims.iter().map(|x| x.size - count(x.known)).filter(|&h| h > 0).count() as u32
                            + p.slots.count_ones();
                        if pool.leaves(draws) <= budget {
                            let mut e = steal_value(pool, base, &victims, p.slots.count_ones());
                            for s in 0..3 {
                                if p.slots & (1 << s) != 0 {
                                    e += denial(pool, combined, v.community()[s]);
                                }
                            }
                            out.push((e, Start::Play(p)));
                        }
                    }
                }
                Func::Swap => {
                    for q in (0..n).filter(|&q| q != me) {
                        p.target = q as u8;
                        let h = v.hidden(q);
                        if v.playable(&p) && pool.leaves(h) <= budget {
                            out.push((pool.expected(v.known(q) | com, h), Start::Play(p)));
                        }
                    }
                }
                Func::Reboot => {
                    let k = count(v.hand()) - 1;
                    if v.playable(&p) && pool.leaves(k) <= budget {
                        out.push((pool.expected(com, k), Start::Play(p)));
                    }
                }
                // Chaos is not valued; +Turn is decided after the others;
                // Block is a reaction.
                Func::Chaos | Func::PlusTurn | Func::Block => {}
            }
        }
    }
}

/// `counter`'s start option.
pub fn start<D: Draw>(policy: &Policy, v: &View<'_>, wants: &Wants, d: &mut D) -> Start {
    if v.can_call() && calls(policy, v, d) {
        return Start::Flip;
    }
    if policy.thief
        && let Some(s) = policy.thief_start(v, wants)
    {
        return s;
    }
    let opts = valued_options(v, wants, !policy.no_deny, !policy.wild_any);
    let mut best = opts[0];
    for &o in &opts[1..] {
        if o.0 > best.0 + 1e-9 {
            best = o;
        }
    }
    if let Start::Draw2 = best.1
        && let Some(c) = holding(v, &[CHAOS_TURN], Func::PlusTurn)
    {
        let p = Play::new(c, Func::PlusTurn);
        if v.playable(&p) {
            return Start::Play(p);
        }
    }
    best.1
}

/// The points this round can usefully add for `v`'s player: what takes
/// its total past the target and past every opponent's total (more wins
/// nothing more).
pub fn useful_points(v: &View<'_>) -> u32 {
    let me = v.seat();
    let best_other = (0..v.players()).filter(|&q| q != me).map(|q| v.total(q)).max().unwrap_or(0);
    v.rules().target.max(best_other + 1).saturating_sub(v.total(me))
}

/// `thief`'s uses of Swap and Reboot, after its other actions: when it
/// holds a Swap/Reboot, the Swap or Reboot whose exact expected round
/// score (as `counter` values it) is highest, if it beats drawing two by
/// more than one point. With Any (and not `wild-any`), Any played as
/// Swap or Reboot too, valued without Any's wild and doubling. (Any as
/// Take, Steal or Draw is left to `counter`: valued the same way, it
/// almost never beats keeping Any.)
pub fn thief_extras(policy: &Policy, v: &View<'_>, wants: &Wants) -> Option<Start> {
    let any = !policy.wild_any && v.hand() & ANY_CARDS != 0;
    let swap_reboot = cards_of(v.hand() & ACTION_CARDS).any(|c| action(c) == Some(SWAP_REBOOT));
    if !any && !swap_reboot {
        return None;
    }
    let pool = Pool::of(v.unseen());
    let mut opts = Vec::new();
    action_options(v, wants, &pool, &mut opts, THIEF_BUDGET, |c, f| {
        matches!(f, Func::Swap | Func::Reboot) && (any || action(c) != Some(ANY))
    });
    let combined = v.combined();
    let now = f64::from(points(combined));
    // Drawing two is worth at least the score held: most turns stop here.
    let best = opts.into_iter().filter(|o| o.0 > now + 1.0).max_by(|a, b| a.0.total_cmp(&b.0))?;
    (best.0 > pool.expected(combined, 2) + 1.0).then_some(best.1)
}

/// The expected gain of waiting one more turn: one draw two, exact, with
/// scores counted up to [`useful_points`].
pub fn gain_of_waiting(v: &View<'_>) -> f64 {
    let combined = v.combined();
    let cap = useful_points(v);
    Pool::of(v.unseen()).expected_capped(combined, 2, cap) - f64::from(points(combined).min(cap))
}

/// What one more turn is worth to opponent `q`: the mean, over
/// [`CALL_WORLDS`] worlds sampled from what `v`'s player knows, of the
/// exact expected gain of a draw two for `q`'s hand in that world.
pub fn opponent_turn_gains<D: Draw>(v: &View<'_>, d: &mut D) -> Vec<f64> {
    let n = v.players();
    let mut g = vec![0.0; n];
    for _ in 0..CALL_WORLDS {
        let w = v.sample_world(d);
        let pile = w.draw_pile().fold(0, |m, c| m | bit(c));
        let pool = Pool::of(pile);
        for (q, gq) in g.iter_mut().enumerate() {
            if q == v.seat() {
                continue;
            }
            let m = w.combined(q);
            *gq += pool.expected(m, 2) - f64::from(points(m));
        }
    }
    for x in &mut g {
        *x /= f64::from(CALL_WORLDS);
    }
    g
}

/// The call rule: with `caller:S`, once the score is at least S;
/// otherwise when the expected gain of waiting a turn (capped at the
/// points that can still matter, [`useful_points`]) is at most the
/// expected gain that turn gives the most improving opponent (the extra
/// turn every opponent gets before a later call; their final turns come
/// either way).
pub fn calls<D: Draw>(policy: &Policy, v: &View<'_>, d: &mut D) -> bool {
    if let Some(s) = policy.call_at {
        return v.score().points >= s;
    }
    let mine = gain_of_waiting(v);
    let theirs = opponent_turn_gains(v, d).into_iter().fold(0.0, f64::max);
    mine <= theirs
}

/// Most discard choices compared; beyond, `counter` discards as
/// `collector`.
pub const DISCARD_CHOICES: f64 = 128.0;

/// `counter`'s discard: the action cards that do not score (Draw/Take,
/// Draw/Steal, Draw/Block, Swap/Reboot, Chaos/+Turn, 7>>>10) are kept or
/// dropped as `collector` would, and so is the number of cards kept; of
/// the cards that score (numbers, Any, 2X) it keeps the set with the best
/// exact expected score after one more unseen card, never going further
/// over its limit than `collector`'s choice. `collector_out` is
/// `collector`'s discard.
pub fn discard(v: &View<'_>, limit: u32, forced: bool, collector_out: CardSet) -> CardSet {
    if collector_out == 0 {
        return 0;
    }
    let hand = v.hand();
    let fixed_kinds = ACTION_CARDS & !ANY_CARDS & !TWO_X_CARDS;
    let kept = hand & !collector_out;
    let fixed = kept & fixed_kinds;
    let free = hand & !fixed_kinds;
    let slots = count(kept) - count(fixed);
    let nf = count(free);
    if binom(nf, slots) > DISCARD_CHOICES {
        return collector_out;
    }
    let over = |s: CardSet| count(s).saturating_sub(if forced { limit } else { v.limit_for(s) });
    let max_over = over(kept);
    let pool = Pool::of(v.unseen());
    let com = v.community_set();
    let value = |k: CardSet| pool.expected(k | com, 1);
    let mut best = (value(kept), kept);
    let cards: Vec<Card> = cards_of(free).collect();
    // Every subset of `slots` of the free cards.
    let mut idx: Vec<usize> = (0..slots as usize).collect();
    loop {
        let k = idx.iter().fold(fixed, |m, &i| m | bit(cards[i]));
        if k != kept && over(k) <= max_over {
            let e = value(k);
            if e > best.0 + 1e-9 {
                best = (e, k);
            }
        }
        // Next combination.
        let s = idx.len();
        let mut i = s;
        while i > 0 && idx[i - 1] == cards.len() - s + i - 1 {
            i -= 1;
        }
        if i == 0 {
            break;
        }
        idx[i - 1] += 1;
        for j in i..s {
            idx[j] = idx[j - 1] + 1;
        }
    }
    hand & !best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> CardSet {
        text.split_whitespace().fold(0, |m, t| m | bit(parse(t).unwrap()))
    }

    /// Every `k`-subset of `s`.
    fn subsets(s: CardSet, k: u32) -> Vec<CardSet> {
        let cards: Vec<Card> = cards_of(s).collect();
        let mut out = Vec::new();
        for mask in 0u32..(1 << cards.len()) {
            if mask.count_ones() == k {
                out.push((0..cards.len()).filter(|&i| mask & (1 << i) != 0).fold(0, |m, i| m | bit(cards[i])));
            }
        }
        out
    }

    fn small_unseen() -> CardSet {
        set("RA GA R8 G8 2X Any R2 B2 P5 7>>>10 Draw/Block Draw/Take")
    }

    #[test]
    fn pool_expectation_equals_brute_force_over_every_draw() {
        let unseen = small_unseen();
        let pool = Pool::of(unseen);
        for base in [set("BA PA"), set("BA PA B8 BK"), set("R3 B3 P3 G3"), 0] {
            for k in 0..=4 {
                let all = subsets(unseen, k);
                let brute = all.iter().map(|&s| f64::from(points(base | s))).sum::<f64>() / all.len() as f64;
                let e = pool.expected(base, k);
                assert!((e - brute).abs() < 1e-9, "base {} k {k}: {e} vs {brute}", names(base));
            }
        }
    }

    #[test]
    fn pool_leaves_count_the_distinct_group_choices() {
        let pool = Pool::of(set("RA BA PA R2"));
        // Groups {RA BA PA} and {R2}: 0+0, 1+0, 0+1 for k = 1; 2+0, 1+1 for 2.
        assert_eq!(pool.leaves(1), 2.0);
        assert_eq!(pool.leaves(2), 2.0);
        assert_eq!(pool.leaves(4), 1.0);
    }

    #[test]
    fn take_value_equals_brute_force_over_every_hidden_hand_with_and_without_blocks() {
        let unseen = small_unseen();
        for (base, known) in [(set("BA PA"), set("B5")), (set("BA PA B8"), 0), (set("R3 B3"), set("P3 G3"))] {
            for hidden in 1..=3 {
                for blocks in [false, true] {
                    let mut sum = 0.0;
                    let all = subsets(unseen, hidden);
                    for &h in &all {
                        let hand = known | h;
                        sum += if blocks && hand & BLOCK_CARDS != 0 {
                            f64::from(points(base))
                        } else {
                            cards_of(hand).map(|c| points(base | bit(c))).max().map_or(0.0, f64::from)
                        };
                    }
                    let brute = sum / all.len() as f64;
                    let e = take_value(base, known, hidden, unseen, blocks);
                    assert!((e - brute).abs() < 1e-9, "{} {hidden} {blocks}: {e} vs {brute}", names(base));
                }
            }
        }
    }

    #[test]
    fn steal_value_equals_brute_force_over_hidden_hands_and_random_picks_without_blocks() {
        // Two victims: one holds a known 8 and one unknown card, the other
        // two unknown cards; one community slot is taken (a third unseen
        // card). Brute force: every deal of the unknown cards and the
        // replacement, every pick.
        let unseen = set("RA GA R2 B2 2X Any P5");
        let base = set("BA PA R9");
        let victims = [
            Victim {
                known: set("B8"),
                size: 2,
                block: 0.0,
            },
            Victim {
                known: 0,
                size: 2,
                block: 0.0,
            },
        ];
        let cards: Vec<Card> = cards_of(unseen).collect();
        let (mut sum, mut n) = (0.0, 0.0);
        for a in 0..cards.len() {
            for b in 0..cards.len() {
                for c in 0..cards.len() {
                    for r in 0..cards.len() {
                        if [a, b, c, r].iter().collect::<std::collections::HashSet<_>>().len() < 4 || b <= c {
                            continue;
                        }
                        // Victim 1 holds B8 + cards[a]; victim 2 cards[b], cards[c].
                        for p1 in [bit(parse("B8").unwrap()), bit(cards[a])] {
                            for p2 in [bit(cards[b]), bit(cards[c])] {
                                sum += f64::from(points(base | p1 | p2 | bit(cards[r])));
                                n += 1.0;
                            }
                        }
                    }
                }
            }
        }
        let e = steal_value(&Pool::of(unseen), base, &victims, 1);
        assert!((e - sum / n).abs() < 1e-9, "{e} vs {}", sum / n);
        // A certain block leaves only the other victim's card.
        let sure = [Victim { block: 1.0, ..victims[0] }, victims[1]];
        let alone = steal_value(&Pool::of(unseen), base, &victims[1..], 1);
        assert!((steal_value(&Pool::of(unseen), base, &sure, 1) - alone).abs() < 1e-9);
    }
}
