//! The exact round-optimum Hit/Stay decision (`optimal-round`): the choice
//! that maximises the expected score of the current round for a player who
//! counts every card seen, within the model below.
//!
//! # The model
//!
//! - **The unseen cards** are those of [`next_card_counts`]: the deck
//!   composition less the discard pile and the cards in play (the discard
//!   pile itself when the draw pile is empty). Every order of them is
//!   equally likely; the real order is never looked at (the [`Table`] does
//!   not reveal it).
//! - **Opponents' future draws are ignored**: the player reasons as if
//!   nobody else drew a card before the round ends for them, and as if the
//!   players now in the round stayed in it.
//! - **A number card**: a new number is added (a seventh different number is
//!   a Flip 7: the round ends, +15, not doubled by `x2`); a duplicate uses
//!   the held Second Chance (the duplicate and the Second Chance are
//!   discarded) or busts the player (round score 0).
//! - **Modifiers** add (`+2`..`+10`) or double the number sum (`x2`; two of
//!   them make x4). The score is that of [`Hand::score`]:
//!   `(number_sum << times2) + plus`, and 15 more for a Flip 7.
//! - **Second Chance**: kept when none is held; otherwise passed on or
//!   discarded, which does not affect the player.
//! - **Freeze and Flip Three**: while another player is in the round they
//!   are given to an opponent and do not affect the player. When the player
//!   is the only one left (always so in solo play) they hit the player, as
//!   `rules.rs` resolves them: a Freeze freezes the player, who banks; a
//!   Flip Three makes the player flip three cards, stopping at a bust or a
//!   Flip 7, keeping a Second Chance at once (usable in the same flips) and
//!   setting aside a Freeze or Flip Three drawn meanwhile. The set-aside
//!   cards then take effect one by one in the order flipped, after any
//!   waiting already: a Flip Three flips three more; a Freeze freezes the
//!   player, and every card waiting behind it then fizzles.
//! - **The pile running out** (of counted cards) ends the round for the
//!   player, who banks. This ignores the reshuffle of the discard pile; it
//!   can matter only when fewer cards are left than the player could still
//!   draw, which never happens in a solo round from a fresh full deck (a
//!   round cannot last 94 cards).
//! - **The decision**: hit iff the expected round score of hitting (and then
//!   playing optimally) exceeds the score banked by staying by more than
//!   [`TIE`] (1e-9 points). Smaller differences count as ties, and a tie
//!   stays: floating-point rounding never decides.
//!
//! # The state, and what is left out of it exactly
//!
//! - Which held number a cancelled duplicate was does not matter: held
//!   numbers stay held, so only the total count of their remaining copies
//!   (the cards that bust) enters any later probability. A state records
//!   the numbers held and how many duplicates were cancelled.
//! - Numbers not held keep their counts until drawn, so the rest of a state
//!   is: the modifiers, Second Chances and Flip Threes drawn since the
//!   root, whether a Second Chance is held, and during a Flip Three the
//!   number of forced flips left and whether a Freeze waits. While no
//!   Freeze waits, every waiting card is a Flip Three, so their order does
//!   not matter and they only add three flips each. Once a Freeze waits,
//!   nothing is decided any more and Freezes and Flip Threes are blanks
//!   (they fizzle behind it): the flips left split into blanks and other
//!   cards with hypergeometric chances, the other cards come in uniform
//!   order among themselves, so the state is the hand and the number of
//!   other cards still to draw before banking.
//! - Cards that can never affect the player are dropped from the pile: with
//!   opponents in the round, Freeze and Flip Three. As the order is
//!   uniform, the next card that matters is uniform among the cards that
//!   matter, and the pile running out of cards that matter is the same as
//!   staying. This changes no decision and no state's value (the better of
//!   staying and hitting): where hitting is better, a card given away just
//!   leads to the same choice again; where staying is better, nothing is
//!   drawn. It does change the value of hitting where staying is better (a
//!   card given away is a free second chance to stay), so [`evaluate`]
//!   puts them back for the root by a closed formula, and its `hit` is the
//!   value of hitting in the full model.
//! - A spare Second Chance is not dropped: Second Chances matter again once
//!   the held one is used, so drawing a spare one is a move to the same
//!   hand with one fewer in the pile.
//!
//! # How it is computed
//!
//! States are grouped in blocks: one block per "hand part" (everything but
//! the modifiers), holding the values of every combination of modifiers
//! drawn (`2^k` of them with `k` modifiers unseen in one deck). A block is
//! computed from its successors' blocks with tight loops over the
//! combinations; blocks are found through a hash table keyed by the packed
//! hand part and kept in one arena ([`Memo`], reusable: after warm-up a
//! decision allocates nothing).
//!
//! To save work without changing any result:
//!
//! - [`hits`] first tries bounds: hitting once and then staying is a lower
//!   bound of the value of hitting (when it beats staying, hit); the chance
//!   that the next card does not bust times the best score still reachable
//!   is an upper bound, and so is the average over the next card of the
//!   better of staying and that bound, each state there also capped by
//!   its prophet bound: the expected score just before the first
//!   card that would bust, which no way of playing can beat.
//!   When one of them cannot beat staying, stay. Most decisions end there,
//!   in about a microsecond.
//! - Otherwise [`decide`] runs bounding searches before the exact one:
//!   the same search, but stopped at the hand parts unlikely to be
//!   reached (the chance that the first cards drawn other than modifiers
//!   are those that make the part, below a threshold: 1e-2, then 1e-3, ..
//!   down to 1e-6; at a decision part, that chance times what the part
//!   can still gain, below the threshold times 26 points; during forced
//!   flips, that chance below twice the threshold), which take a
//!   bound of their value instead. Below:
//!   staying, or hitting once and then staying, where the player decides;
//!   during forced flips, the score of the draws where none of them
//!   busts, is a Flip Three or repeats a number (counting no `x2`): all
//!   the flips made, or a Flip 7 that ends them early; a Second Chance
//!   held cancels one card that busts.
//!   Above: the prophet bound, less, during forced flips without a Second
//!   Chance, the score banked times the chance that one of them busts;
//!   where the player decides, less the score banked times the chance that
//!   the next card busts and, without a Second Chance, what a new number
//!   drawn next then loses at least (`look_ahead` in `bounds.rs`).
//!   Every step of the search (averages with positive weights, the better
//!   of two choices) keeps bounds bounds, so the bounding searches bound
//!   the value of hitting: when the lower one beats staying, hit; when the
//!   upper one does not, stay. The upper bound goes first when the bounds
//!   known point to a Stay: at the first level the quick bounds (the value
//!   of hitting guessed a tenth of the way from the lower one to the
//!   looser upper one), later those of the level before (a tenth of the
//!   way at a table, 0.45 of it alone in the round). At a table, when the
//!   upper search of a level (after the first) does not settle it, the
//!   lower one that follows is a little coarser: it only guides the
//!   guesses. Near a tie, a search
//!   between two levels, finer by a fraction of a decade, tries the side
//!   guessed first. Only the rest (rare: none in the bounding searches of
//!   the timing test of `tests/flip7_optimal.rs`) needs the exact search.
//! - **The world without Freezes and Flip Threes** bounds a player alone
//!   in the round from above: a player there can play as any player here,
//!   drawing the places of the missing cards at random (a Freeze: it
//!   stays; a Flip Three: it hits three times, and so on), so every state
//!   is worth at least as much there. That world has no forced flips, so
//!   its search is much smaller. Alone in the round, [`decide`] bounds it
//!   from above at the first three levels, each with the threshold of the
//!   next one, and first at the first level's own (when hitting there
//!   cannot beat staying, neither can hitting here); where the bounds
//!   point to a Hit, the lower search of the level goes before it. In
//!   every later search of the decision, a decision part where that world
//!   (of the same level, or the third for deeper ones) stays for every
//!   combination of modifiers stays here too and is not expanded (exact:
//!   its values are the scores banked), and the upper bounds where a
//!   bounding search stops are capped by that world's values.
//! - **The searches of one decision share their work**: a bounding search
//!   takes the exact blocks (no stop anywhere below them) of the search
//!   before it instead of computing them again, and for its other blocks
//!   what it worked out about their hand parts (`Known` in `memo.rs`: the
//!   chance to reach the part, its prophet bound, and that not every
//!   combination of modifiers stays there); it does not expand the
//!   decision parts where the last upper bounding search stays for every
//!   combination of modifiers (exact: their values are the scores
//!   banked).
//! - A block where that upper bound cannot beat staying for any combination
//!   of modifiers is worth the banked scores and is not expanded.
//! - The memo of one search stays valid for any later state that follows
//!   from the same root by the player's own draws (every later decision of
//!   a solo round, or of the last player in a round): block keys are
//!   relative to that root, and a consistent later query reuses every block
//!   already computed.
//!
//! - **Two compiled versions**: the search (`Search::ensure` and all it
//!   calls) is compiled for any x86-64 processor and again for those with
//!   AVX2 and the bit instructions of x86-64-v3, and the second is taken
//!   when the processor has them. Both make the same operations in the
//!   same order (no fused multiply-add), so the values are the same bits
//!   (a test compares them); the second takes 11% fewer instructions.
//!
//! # Files
//!
//! - `state.rs`: the packed state: hand parts, where a card leads, the root
//!   that keys are relative to.
//! - `memo.rs`: [`Memo`], the arena of blocks and its hash table.
//! - `search.rs`: the search over one root (successors, blocks, the value
//!   of hitting).
//! - `cuts.rs`: where the bounding searches stop, and the bounds of the
//!   values they take there.
//! - `bounds.rs`: the bounds that need no search (the prophet bound and the
//!   quick bounds [`decide`] tries first).
//! - this file: the decisions and values ([`decide`], [`hits`],
//!   [`evaluate`], [`values`]).

mod bounds;
mod cuts;
mod memo;
mod search;
mod state;


use self::bounds::Look;
use self::cuts::{Cut, REACH, grid};
pub use self::memo::Memo;
use self::search::{Aids, Search};
use self::state::{MAX_ACTIONS_PER_KIND, MAX_MODS_PER_KIND};
use super::cards::{FLIP_THREE, FREEZE, KINDS, PLUS2, SECOND_CHANCE, TIMES2};
use super::policies::next_card_counts;
use super::rules::{Hand, Table};

/// Differences of expected score below this many points count as ties
/// (and a tie stays).
pub const TIE: f64 = 1e-9;

/// The Hit/Stay rule whose value is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Hit iff hitting is worth more than staying (by more than [`TIE`]).
    Optimal,
    /// `stay-at-N`: stay when [`Hand::banked`] is at least N.
    StayAt(u16),
}

/// The expected round score of each choice in a state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Values {
    /// Score banked by staying now.
    pub stay: f64,
    /// Expected round score of hitting now and then following the rule.
    pub hit: f64,
}

impl Values {
    /// Whether the optimal rule hits: `hit > stay + TIE`.
    pub fn hits(&self) -> bool {
        self.hit > self.stay + TIE
    }

    /// The value of the better choice (ties stay).
    pub fn best(&self) -> f64 {
        if self.hits() { self.hit } else { self.stay }
    }
}

/// The unseen cards that matter: with an opponent in the round
/// (`solo == false`), Freeze and Flip Three are dropped.
fn counted(unseen: &[u8; KINDS], solo: bool) -> [u8; KINDS] {
    let mut pile = *unseen;
    if !solo {
        pile[FREEZE as usize] = 0;
        pile[FLIP_THREE as usize] = 0;
    }
    for m in PLUS2..=TIMES2 {
        assert!(
            pile[m as usize] <= MAX_MODS_PER_KIND,
            "the optimal-round engine counts at most {MAX_MODS_PER_KIND} of each modifier"
        );
    }
    for a in [FREEZE, FLIP_THREE, SECOND_CHANCE] {
        assert!(
            pile[a as usize] <= MAX_ACTIONS_PER_KIND,
            "the optimal-round engine counts at most {MAX_ACTIONS_PER_KIND} of each action card"
        );
    }
    pile
}

/// The values of staying and of hitting for a player holding `hand` when
/// the unseen cards are `unseen` (counts per kind, in random order), under
/// `rule`. `solo`: no other player is in the round (Freeze and Flip Three
/// hit the player). Exact within the model of the module documentation;
/// `memo` is reusable scratch.
pub fn evaluate(hand: &Hand, unseen: &[u8; KINDS], solo: bool, rule: Rule, memo: &mut Memo) -> Values {
    evaluate_cut(hand, unseen, solo, rule, Cut::Exact, memo, Aids::default())
}

/// [`evaluate`], or with `cut` a lower or upper bound of its `hit`,
/// drawing on the memos of other searches in `aids` whose root is this
/// search's: a player alone in the round may take a memo of the world
/// without Freezes and Flip Threes (exact or upper values).
fn evaluate_cut(
    hand: &Hand,
    unseen: &[u8; KINDS],
    solo: bool,
    rule: Rule,
    cut: Cut,
    memo: &mut Memo,
    aids: Aids,
) -> Values {
    let pile = counted(unseen, solo);
    let stay = f64::from(hand.banked());
    if pile.iter().all(|&c| c == 0) {
        return Values { stay, hit: stay };
    }
    memo.searches += 1;
    let donors = [aids.exact.map(|a| &a.base), aids.upper.map(|a| &a.base), aids.free.map(|a| &a.base)];
    let (part, m) = memo.locate(rule, cut, hand, &pile, &donors);
    let aids = Aids {
        free: aids.free.filter(|f| {
            matches!(f.base.cut, Cut::Exact | Cut::Upper(_)) && f.base.same_root_but_actions(&memo.base)
        }),
        exact: aids.exact.filter(|e| e.base.same_root(&memo.base)),
        upper: aids
            .upper
            .filter(|u| matches!(u.base.cut, Cut::Upper(_)) && u.base.same_root(&memo.base)),
    };
    let mut hit = Search::new(memo, aids, rule, cut).hit_value(&part, m);
    // Freezes and Flip Threes given away were left out. That changes no
    // decision and no state's value, but the value of hitting now, when
    // staying is better, counts that such a card would let the player
    // choose again: with `s` of them and `e` other cards, hitting is worth
    // (s * max(stay, value with s - 1) + e * value with none) / (s + e).
    let skipped = u16::from(unseen[FREEZE as usize] - pile[FREEZE as usize])
        + u16::from(unseen[FLIP_THREE as usize] - pile[FLIP_THREE as usize]);
    if skipped > 0 {
        let effective = f64::from(pile.iter().map(|&c| u16::from(c)).sum::<u16>());
        let none = hit;
        for s in 1..=skipped {
            let s = f64::from(s);
            let again = if hit > stay + TIE { hit } else { stay };
            hit = (s * again + effective * none) / (s + effective);
        }
    }
    Values { stay, hit }
}

/// Whether `seat` is the only player left in the round (so Freeze and Flip
/// Three come back to it).
pub fn is_solo(t: &Table, seat: usize) -> bool {
    t.active_mask() & !(1u64 << seat) == 0
}

/// The exact values of staying and hitting for `seat` now (see
/// [`evaluate`]), always by a full search.
pub fn values(t: &Table, seat: usize, memo: &mut Memo) -> Values {
    let (unseen, _) = next_card_counts(t);
    evaluate(t.hand(seat), &unseen, is_solo(t, seat), Rule::Optimal, memo)
}

/// The exact round-score-maximising choice for `seat`: `true` to hit. The
/// same answer as `values(t, seat, memo).hits()`, settled by bounds when
/// they suffice.
pub fn hits(t: &Table, seat: usize, memo: &mut Memo) -> bool {
    let (unseen, _) = next_card_counts(t);
    decide(t.hand(seat), &unseen, is_solo(t, seat), memo)
}

/// [`hits`] for a hand and unseen cards given directly.
pub fn decide(hand: &Hand, unseen: &[u8; KINDS], solo: bool, memo: &mut Memo) -> bool {
    let look = Look::new(hand, &counted(unseen, solo));
    if look.total == 0 {
        return false;
    }
    let stay = f64::from(look.banked());
    let quick_lo = look.hit_then_stay();
    if quick_lo > stay + TIE {
        return true;
    }
    let mut quick_hi = f64::INFINITY;
    for depth in 0..=UPPER_DEPTH {
        quick_hi = look.upper(depth);
        if quick_hi <= stay + TIE {
            return false;
        }
    }
    // A state of an exact search already made (a later decision of the
    // same round) is answered from it. (So, in principle, could a state
    // that follows from the root of a bounding search of an earlier
    // decision, by that search's bound there; but alone in the round, on
    // 1,000 four-player games, seed 3, only 162 of 1,518 decisions found
    // their state in such a memo, most with a bound that settles nothing,
    // as the decision before was mostly made at a table, with cards drawn
    // by others since: 0.2% fewer instructions, not worth the code. Nor
    // would a table of the decisions made, kept from game to game: in
    // 2,000 four-player games with one `optimal-round` seat, seeds 1 and
    // 2, none of the more than 7,000 and 6,000 decisions that got this
    // far met a hand and pile of cards that an earlier one had met.)
    if memo.base.locate(Rule::Optimal, hand, &look.pile).is_some() {
        return evaluate(hand, unseen, solo, Rule::Optimal, memo).hits();
    }
    if memo.bounds.is_empty() {
        memo.bounds = vec![Memo::new(); POOL];
        memo.recent = (0..POOL).collect();
    }
    // Alone in the round, the world without Freezes and Flip Threes bounds
    // the values from above (see the module documentation). Hitting here
    // draws a Freeze (worth staying), a Flip Three (worth at most the
    // better choice there) or the next card there: when hitting there is
    // worth no more than staying, neither is hitting here.
    let mut free_unseen = *unseen;
    free_unseen[FREEZE as usize] = 0;
    free_unseen[FLIP_THREE as usize] = 0;
    // The memo of the last search of the world without Freezes and Flip
    // Threes (only alone in the round).
    let mut free_cur: Option<usize> = None;
    // Bounding searches, from the cheapest, each taking the exact blocks
    // of the one before. Of the two of a level, the one of the side
    // guessed goes first: at the first level by the quick bounds (see
    // `QUICK_LEAN`), later by the bounds of the level before (see
    // `LEAN_TABLE`). Alone in the round, the first level starts with the world
    // without Freezes and Flip Threes, which mostly settles Stays, unless
    // the guess is a Hit: then the lower search goes before it.
    let guess_hit = quick_lo + QUICK_LEAN * (quick_hi - quick_lo) > stay;
    let mut stay_first = !solo && !guess_hit;
    let mut chain = Chain::default();
    let mut early_lo: Option<(usize, f64)> = None;
    for level in 0..REACH.len() {
        let (below, above) = (Cut::Lower(grid(level)), Cut::Upper(grid(level)));
        // Alone in the round, where the bounds known point to a Hit (the
        // quick ones at the first level), the lower search goes before the
        // world without Freezes and Flip Threes (which mostly settles
        // Stays), pruned by that world of the level before. (At the second
        // level, 200 games: 2.56 G to 2.54 G instructions at two players,
        // 0.98 G to 0.96 G at four.)
        let hit_guessed = if level == 0 { guess_hit } else { !stay_first };
        if solo && level < FREE_LEVELS && hit_guessed {
            let at = chain.pick(&mut memo.recent, free_cur);
            let lo = chain.run(&mut memo.bounds, at, free_cur, below, hand, unseen, solo);
            if lo > stay + TIE {
                return true;
            }
            early_lo = Some((at, lo));
        }
        if solo && level < FREE_LEVELS {
            // One level finer: that search is the cheaper one, and its
            // tighter values prune and cap more in the searches here.
            let finer = Cut::Upper(grid((level + 1).min(REACH.len() - 1)));
            // At the first level, that world is first bounded at the
            // level's own threshold: cheaper, it settles many Stays alone,
            // and the finer search takes its exact blocks.
            if level == 0 {
                let at = chain.pick(&mut memo.recent, free_cur);
                let hit = evaluate_cut(hand, &free_unseen, false, Rule::Optimal, above, &mut memo.bounds[at], Aids::default()).hit;
                if hit <= stay + TIE {
                    return false;
                }
                free_cur = Some(at);
            }
            let at = chain.pick(&mut memo.recent, free_cur);
            let (free, others) = split_one(&mut memo.bounds, at);
            let aids = Aids {
                exact: free_cur.map(|j| others.get(j)),
                ..Aids::default()
            };
            let hit = evaluate_cut(hand, &free_unseen, false, Rule::Optimal, finer, free, aids).hit;
            if hit <= stay + TIE {
                return false;
            }
            free_cur = Some(at);
        }
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        for upper_now in [stay_first, !stay_first] {
            if upper_now {
                let at = chain.pick(&mut memo.recent, free_cur);
                hi = chain.run(&mut memo.bounds, at, free_cur, above, hand, unseen, solo);
                if hi <= stay + TIE {
                    return false;
                }
            } else if let Some((at, early)) = early_lo.take() {
                // Made before the world without Freezes and Flip Threes.
                chain.last = Some(at);
                lo = early;
            } else {
                // At a table, after the upper search of the level, a
                // coarser lower search (see `LOWER_BACK`).
                let below = if stay_first && !solo && level > 0 { Cut::Lower(grid(level) - LOWER_BACK) } else { below };
                let at = chain.pick(&mut memo.recent, free_cur);
                lo = chain.run(&mut memo.bounds, at, free_cur, below, hand, unseen, solo);
                if lo > stay + TIE {
                    return true;
                }
            }
        }
        // Near a tie, a threshold finer by a fraction of a decade often
        // settles the side guessed, for much less than the next level (or
        // than the exact search, after the last level); up to `MIDS` of
        // them, each from the bounds the one before left.
        let lean = if solo { LEAN_ALONE } else { LEAN_TABLE };
        // The last guess also picks the side of the next level.
        let mut g = grid(level);
        for k in 0..=MIDS {
            let guess = lo + lean * (hi - lo);
            stay_first = guess <= stay;
            let near = if stay_first { (stay - guess) / (hi - guess) } else { (guess - stay) / (guess - lo) };
            let eighths = (near.ln() / SHRINK.ln() * 8.0).ceil().clamp(1.0, 7.0) as u8;
            if k == MIDS || near <= NEAR || g + eighths >= grid(level) + 8 {
                break;
            }
            g += eighths;
            let cut = if stay_first { Cut::Upper(g) } else { Cut::Lower(g) };
            let at = chain.pick(&mut memo.recent, free_cur);
            let hit = chain.run(&mut memo.bounds, at, free_cur, cut, hand, unseen, solo);
            if stay_first {
                if hit <= stay + TIE {
                    return false;
                }
                hi = hit;
            } else if hit > stay + TIE {
                return true;
            } else {
                lo = hit;
            }
        }
    }
    // The exact search, skipping the parts where the world without
    // Freezes and Flip Threes stays. (An exact search of that world
    // before it, to skip more parts: 0.1% fewer instructions on 1,000
    // four-player games, seed 10, with an exact search of 100 ms. Alone
    // in the round, the exact search right after the third or fourth
    // level, as the later decisions of the round then take every answer
    // from it: 9.84 G and 8.09 G instructions against 7.98 G on 500
    // four-player games with one `optimal-round` seat, seeds 1 to 5.)
    let bounds = std::mem::take(&mut memo.bounds);
    let aids = Aids {
        free: free_cur.map(|j| &bounds[j]),
        exact: chain.last.map(|j| &bounds[j]),
        upper: chain.last_upper.map(|j| &bounds[j]),
    };
    let hits = evaluate_cut(hand, unseen, solo, Rule::Optimal, Cut::Exact, memo, aids).hits();
    memo.bounds = bounds;
    hits
}

/// The bounding searches of one decision so far: the last one, and the
/// last upper one, whose memos the next search draws on.
#[derive(Clone, Copy, Default)]
struct Chain {
    last: Option<usize>,
    last_upper: Option<usize>,
}

impl Chain {
    /// The memo for the next search: of those in `recent` (the least
    /// recently used first) that no later search of the decision reads
    /// (the last, the last upper, and `free`), the most recently used,
    /// whose memory is the likeliest to be in the processor's caches.
    fn pick(&self, recent: &mut Vec<usize>, free: Option<usize>) -> usize {
        let keep = [self.last, self.last_upper, free];
        let i = recent
            .iter()
            .rposition(|j| !keep.contains(&Some(*j)))
            .expect("more memos than a decision reads at once");
        let j = recent.remove(i);
        recent.push(j);
        j
    }

    /// The value of hitting by bounding search `cut` for `hand` facing
    /// `unseen`, made in memo `at` of `memos`: it takes the exact blocks
    /// of the last search and does not expand where the last upper one
    /// stays; alone in the round, the world without Freezes and Flip
    /// Threes of memo `free` prunes and caps it.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        memos: &mut [Memo],
        at: usize,
        free: Option<usize>,
        cut: Cut,
        hand: &Hand,
        unseen: &[u8; KINDS],
        solo: bool,
    ) -> f64 {
        let (search, others) = split_one(memos, at);
        let aids = Aids {
            free: free.map(|f| others.get(f)),
            exact: self.last.map(|j| others.get(j)),
            upper: self.last_upper.map(|j| others.get(j)),
        };
        self.last = Some(at);
        if matches!(cut, Cut::Upper(_)) {
            self.last_upper = Some(at);
        }
        evaluate_cut(hand, unseen, solo, Rule::Optimal, cut, search, aids).hit
    }
}

/// `memos[i]` to write, and the others to read.
fn split_one(memos: &mut [Memo], i: usize) -> (&mut Memo, Others<'_>) {
    let (left, rest) = memos.split_at_mut(i);
    let (one, right) = rest.split_first_mut().expect("an index in range");
    (one, Others { left, right })
}

/// The memos other than the one [`split_one`] lends to write.
struct Others<'a> {
    left: &'a [Memo],
    right: &'a [Memo],
}

impl<'a> Others<'a> {
    /// Memo `j` of the whole list (not the one lent to write).
    fn get(&self, j: usize) -> &'a Memo {
        match j.checked_sub(self.left.len()) {
            None => &self.left[j],
            Some(k) => &self.right[k - 1],
        }
    }
}

/// Where [`decide`] expects the value of hitting between the bounds of a
/// level at a table, from 0 (at the lower bound) to 1 (at the upper one):
/// the upper bounds are the looser. When the point is no more than
/// staying, the next level tries the upper bound first. (Over the
/// decisions of 2,000 games at two and four players, seed 8, the guess
/// from the level before the last was wrong for 43 of 1,397 with 0.1, 110
/// with 0.25 and 645 with 0.5; alone in the round, for 199 of 627 with
/// 0.1, 75 with 0.25, 41 with 0.35 and 92 with 0.5. On 200 games at two and
/// four players, seeds 7 and 8: 7.02 G instructions in all with 0.25 for
/// both, 6.63 G with 0.1 and [`LEAN_ALONE`] 0.45, 6.73 G with 0.1 and
/// 0.35, 6.64 G with 0.15 and 0.45, 6.68 G with 0.1 and 0.55. Later, on
/// 500 four-player games with one `optimal-round` seat, seeds 11 to 20:
/// 15.63 G, 15.30 G, 15.18 G, 15.25 G and 15.49 G with 0.07, 0.1, 0.14,
/// 0.18 and 0.22; 0.14 against 0.1 on seeds 1 to 10, 16.06 G against
/// 16.24 G, and on 300 two-player games, seeds 1 to 10, 16.32 G against
/// 16.38 G, with the same results. On seeds 11 to 20, with 0.1,
/// [`LEAN_ALONE`] 0.38 or 0.52 and [`NEAR`] 0.38 or 0.52 took 15.30 G to
/// 15.54 G; with 0.14 (15.18 G), [`SHRINK`] 0.33 or 0.47, [`LOWER_BACK`]
/// 4 or 8 and [`QUICK_LEAN`] 0.08 or 0.12 (or 0.065 and 0.08 at a table
/// only) took 15.16 G to 15.25 G: none clearly less.)
const LEAN_TABLE: f64 = 0.14;

/// [`LEAN_TABLE`] for a player alone in the round, where the lower bounds
/// are the looser ones more often.
const LEAN_ALONE: f64 = 0.45;

/// Where [`decide`] guesses the value of hitting between the quick bounds
/// (hitting once and then staying, and the upper bound of depth
/// [`UPPER_DEPTH`]), from 0 (at the lower one) to 1: above staying, the
/// lower bounding search goes first at the first level, and alone in the
/// round also before the world without Freezes and Flip Threes. (On 200
/// games, seed 7: 0.1 took 2.69 G instructions at two players and 1.02 G
/// at four, against 2.87 G and 1.10 G with the lower search first at
/// every table and the world without Freezes and Flip Threes first alone;
/// 0.03, 0.06, 0.15, 0.2, 0.3 and 0.6 took more. At a table, where
/// staying lies at least 0.2 or 0.35 of the way from the lower quick bound
/// to the upper one, an upper search stopping at chances of 0.03 to 0.1,
/// before the first level: at best 0.25% fewer instructions on 500
/// four-player games, seeds 1 to 10.)
const QUICK_LEAN: f64 = 0.1;

/// How near a tie a level of [`decide`] must leave the value for a search
/// between it and the next level: the distance from the value guessed (see
/// [`LEAN_TABLE`]) to staying, over that to the bound of the side guessed,
/// above this. (On 200 games at two and four players, seeds 7 and 8,
/// 7.54 G instructions in all without such searches; with one a level,
/// 6.97 G with 0.6, 6.98 G with 0.5, 7.09 G with 0.4. After the guesses
/// of [`LEAN_TABLE`] and cheaper upper bounds, 6.31 G with 0.6, 6.25 G
/// with 0.45, 6.31 G with 0.35, 6.38 G with 0.75; with up to [`MIDS`] of
/// them, 6.20 G with 0.45.)
const NEAR: f64 = 0.45;

/// Most searches between two levels of [`decide`], each finer than the
/// one before (6.25 G, 6.23 G and 6.20 G instructions with one, two and
/// three in the runs of [`NEAR`]).
const MIDS: usize = 3;

/// At a table, where the upper search of a level goes first and does not
/// settle the decision, the lower search that follows stops this many
/// eighths of a decade above the level (from the second level on): its
/// value only guides the guesses, and the upper search has made the
/// exact blocks the next searches take. (On 200 games at two and four
/// players, seeds 7 and 8: 5.645 G instructions in all at the level,
/// 5.614 G, 5.577 G, 5.561 G, 5.548 G, 5.543 G and 5.578 G with 2, 4, 5,
/// 6, 7 and 8; alone in the round, with 6 too, 5.609 G; the upper search
/// coarser by 4 where it goes second at a table, 5.601 G. Later, against
/// 4.906 G: replaying the first search of a level in the other direction
/// from a record of its hand parts, stops and successors, instead of a
/// second search, 4.931 G, because recording cost 1.3% and the replay
/// saved 1.2%: the second search already takes most of its blocks, and
/// what is known about the rest, from the first; skipping the second
/// search where the value guessed stays on the side of the first, 26.1 G,
/// as a wrong guess is then found only by the exact search.)
const LOWER_BACK: u8 = 6;

/// Memos of the bounding searches of [`decide`]: a search writes one while
/// it reads at most three others (see [`Chain::pick`]). Taking the one
/// most recently used keeps the memory of a decision in the processor's
/// caches: on 200 four-player games (seed 8), with a cache model of 32 KB
/// and 512 KB, 16% fewer reads missed the second level than with a memo
/// for every search of a decision (29), and the process took a third less
/// memory.
const POOL: usize = 4;

/// The share of the distance from the value guessed to a bound that
/// [`decide`] expects to remain a decade finer (measured: about 0.4 for
/// the upper bounds at the levels of [`REACH`]). The search between two
/// levels is finer by the eighths of a decade that should bring the bound
/// of the side guessed past staying. (With [`NEAR`] 0.5, in the runs
/// there: 6.98 G with 0.4, and 7.04 G, 7.11 G, 7.09 G and 7.16 G with
/// 0.16, 0.27, 0.54 and 0.69; later, with [`NEAR`] 0.6: 6.31 G with 0.4,
/// 6.37 G with 0.3, 6.32 G with 0.5. Skipping whole levels where this
/// predicts more than 2, 3 or 4 decades to go cost more: 5.175 G,
/// 5.062 G and 5.050 G against 5.017 G.)
const SHRINK: f64 = 0.4;

/// Levels of [`REACH`] at which [`decide`] bounds the world without
/// Freezes and Flip Threes, each with the threshold of the next level;
/// deeper levels use the last of them (its bounds are looser but still
/// bounds). On 200 two-player games (seed 7): 4.29 G instructions with two
/// levels, 4.82 G with three at their own thresholds, 5.44 G with two
/// levels two thresholds finer, 5.76 G with one level. A first bound at
/// the first level's own threshold, before the finer one: 2.67 G to
/// 2.56 G, and at four players 1.02 G to 0.98 G. After that, and with the
/// lower search first where a Hit is guessed, three levels took 2.47 G
/// against 2.53 G with two (seed 8: 2.74 G against 3.30 G), and at four
/// players 0.957 G against 0.953 G (seed 8: 1.38 G against 1.33 G); four
/// levels took as many as three. Later (500 four-player games with one
/// `optimal-round` seat, seeds 1 to 10, 16.24 G with one level finer):
/// 6, 10, 12 and 16 eighths of a decade finer took 16.87 G, 16.04 G,
/// 16.31 G and 16.91 G, but 10 took more on the 200-game runs (4.119 G
/// against 4.041 G at two and four players, seeds 7 and 8).
const FREE_LEVELS: usize = 3;

/// Levels of look-ahead of the upper bound tried by [`decide`] before a
/// search. (A second level cost more than it saved: 6.55 G instructions
/// against 6.28 G on 200 two-player games. Nor did a small search over
/// the hand itself, with no block of combinations of modifiers, stopping
/// where the bounding searches stop, before the first level: at a table
/// it settled 41% of the decisions it was tried on from above and 25%
/// from below, where the first level's searches settle 55%, and 500
/// four-player games with one `optimal-round` seat took 10.6% more
/// instructions, seed 3. Skipping the first level alone in the round
/// where staying lies 0.09 to 0.2 of the way from the lower quick bound
/// to the upper one, where that level settles 6% of the decisions: 16.55 G
/// against 16.24 G on those games, seeds 1 to 10. A second level of
/// look-ahead on those games: 5% more instructions.)
const UPPER_DEPTH: u32 = 1;

/// A random hand facing the full deck less the hand and some cards
/// seen, for the tests of the search and its benchmark: cards are taken
/// from a shuffled deck into the hand until it holds `1..=5` numbers
/// (repeats, Freezes, Flip Threes and a second Second Chance are put
/// aside as seen), then `0..75` more are seen.
pub fn random_state(rng: &mut crate::engine::rng::SimRng) -> (Hand, [u8; KINDS]) {
    use super::cards::{MAX_NUMBER, Without, composition, plus_value};
    use crate::engine::rng::Draw;
    let comp = composition(1, Without::default());
    let mut deck: Vec<u8> = (0..KINDS as u8)
        .flat_map(|k| std::iter::repeat_n(k, usize::from(comp[usize::from(k)])))
        .collect();
    rng.shuffle(&mut deck);
    let want = rng.below(5) as usize + 1;
    let (mut numbers, mut plus, mut times2, mut sc) = (Vec::new(), 0, 0, false);
    let mut unseen = comp;
    let mut cards = deck.into_iter();
    while numbers.len() < want {
        let c = cards.next().expect("the deck holds enough numbers");
        unseen[usize::from(c)] -= 1;
        if c <= MAX_NUMBER && !numbers.contains(&c) {
            numbers.push(c);
        } else if c == TIMES2 {
            times2 += 1;
        } else if (PLUS2..TIMES2).contains(&c) {
            plus += plus_value(c);
        } else if c == SECOND_CHANCE {
            sc = true;
        }
    }
    for c in cards.take(rng.below(75) as usize) {
        unseen[usize::from(c)] -= 1;
    }
    (Hand::holding(&numbers, plus, times2, sc), unseen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::cards::{Without, composition};

    pub(super) fn unseen_after(comp: [u8; KINDS], h: &Hand) -> [u8; KINDS] {
        let mut u = comp;
        for n in 0..=12 {
            if h.has(n) {
                u[n as usize] -= 1;
            }
        }
        u
    }

    #[test]
    fn empty_pile_stays() {
        let h = Hand::holding(&[5], 0, 0, false);
        let v = evaluate(&h, &[0; KINDS], true, Rule::Optimal, &mut Memo::new());
        assert_eq!(v, Values { stay: 5.0, hit: 5.0 });
        assert!(!decide(&h, &[0; KINDS], false, &mut Memo::new()));
    }

    #[test]
    fn a_pile_that_cannot_hurt_is_always_hit() {
        // Only a +4 left: hitting adds 4.
        let mut u = [0; KINDS];
        u[PLUS2 as usize + 1] = 1;
        let h = Hand::holding(&[3, 9], 0, 0, false);
        let v = evaluate(&h, &u, false, Rule::Optimal, &mut Memo::new());
        assert_eq!(v.hit, 16.0);
        assert!(decide(&h, &u, false, &mut Memo::new()));
    }

    #[test]
    fn two_cards_left_are_weighed_exactly() {
        // Pile {9, 10}; holding 9: hit busts half the time, else 19 and then
        // only the 9 is left, which busts: stay at 19. Hit is worth 9.5.
        let mut u = [0; KINDS];
        u[9] = 1;
        u[10] = 1;
        let h = Hand::holding(&[9], 0, 0, false);
        let v = evaluate(&h, &u, false, Rule::Optimal, &mut Memo::new());
        assert!((v.hit - 9.5).abs() < 1e-12, "{v:?}");
        assert!(v.hits());
    }

    #[test]
    fn opponents_take_freeze_and_flip_three() {
        let mut u = [0; KINDS];
        u[4] = 1;
        u[FREEZE as usize] = 1;
        u[FLIP_THREE as usize] = 2;
        let h = Hand::holding(&[7], 0, 0, false);
        // With an opponent in, only the 4 matters.
        let multi = evaluate(&h, &u, false, Rule::Optimal, &mut Memo::new());
        assert_eq!(multi.hit, 11.0);
        // Solo: the Freeze (1/4) banks 7. The 4 (1/4) makes 11, and then a
        // hit only banks or flips the rest: 11 either way. A Flip Three
        // (2/4) flips three: every card left; the Freeze among them waits
        // and banks 11 at the end. So 7/4 + 3 * 11/4.
        let solo = evaluate(&h, &u, true, Rule::Optimal, &mut Memo::new());
        assert!((solo.hit - (7.0 + 33.0) / 4.0).abs() < 1e-12, "{solo:?}");
    }

    #[test]
    fn memo_is_reused_for_a_later_state_of_the_same_round() {
        let comp = composition(1, Without::default());
        let mut memo = Memo::new();
        let h0 = Hand::holding(&[8, 3, 4], 0, 0, false);
        let u0 = unseen_after(comp, &h0);
        evaluate(&h0, &u0, true, Rule::Optimal, &mut memo);
        let states = memo.states();
        // The player then drew an 11 and the +4.
        let h1 = Hand::holding(&[8, 3, 4, 11], 4, 0, false);
        let mut u1 = unseen_after(comp, &h1);
        u1[PLUS2 as usize + 1] -= 1;
        let reused = evaluate(&h1, &u1, true, Rule::Optimal, &mut memo);
        assert_eq!(memo.states(), states, "no new state computed");
        let fresh = evaluate(&h1, &u1, true, Rule::Optimal, &mut Memo::new());
        assert_eq!(reused, fresh);
    }

    /// `unseen` without its Freezes and Flip Threes.
    fn without_actions(unseen: &[u8; KINDS]) -> [u8; KINDS] {
        let mut u = *unseen;
        u[FREEZE as usize] = 0;
        u[FLIP_THREE as usize] = 0;
        u
    }

    #[test]
    fn the_world_without_freezes_and_flip_threes_bounds_a_player_alone() {
        // A player alone in the round, where Freezes and Flip Threes hit
        // it, never does better than in the same state with those cards
        // taken out: there a player can play as here, drawing the places
        // of the missing cards at random. Hitting here is not hitting
        // there: the next card may be a Freeze (the player banks) or a
        // Flip Three (worth at most the state's value there).
        let mut rng = crate::engine::rng::batch_rng(12, 0);
        let (mut solo_memo, mut free_memo) = (Memo::new(), Memo::new());
        let mut strictly = 0;
        for _ in 0..60 {
            let (h, u) = random_state(&mut rng);
            let alone = evaluate(&h, &u, true, Rule::Optimal, &mut solo_memo);
            let free = evaluate(&h, &without_actions(&u), false, Rule::Optimal, &mut free_memo);
            let actions = f64::from(u[FREEZE as usize] + u[FLIP_THREE as usize]);
            let others = f64::from(counted(&u, false).iter().map(|&c| u16::from(c)).sum::<u16>());
            let hit = (actions * free.best() + others * free.hit) / (actions + others);
            assert!(hit + TIE >= alone.hit, "{h:?} {u:?}: {free:?} {alone:?}");
            assert!(free.best() + TIE >= alone.best(), "{h:?} {u:?}: {free:?} {alone:?}");
            if free.best() > alone.best() + 0.01 {
                strictly += 1;
            }
        }
        // Not a bound that always holds with equality.
        assert!(strictly > 20, "{strictly}");
    }

    #[test]
    fn bounding_searches_bracket_the_exact_value() {
        // Every level of the bounding searches of `decide`, below and
        // above (alone in the round: also capped by the world without
        // Freezes and Flip Threes, exact or bounded at the same level),
        // against the exact value of hitting, alone in the round and not;
        // and `decide` against the exact choice.
        let mut rng = crate::engine::rng::batch_rng(11, 0);
        let (mut exact_memo, mut bound_memo, mut memo) = (Memo::new(), Memo::new(), Memo::new());
        let (mut free_exact, mut free_bound, mut capped_memo) = (Memo::new(), Memo::new(), Memo::new());
        let mut settled = [0; 2 * REACH.len() - 1];
        let (mut hard, mut tighter) = (0, 0);
        while hard < 40 {
            let (h, u) = random_state(&mut rng);
            for solo in [false, true] {
                // Only states the quick bounds of `decide` leave open.
                let look = Look::new(&h, &counted(&u, solo));
                let stay = f64::from(look.banked());
                if look.total == 0
                    || look.hit_then_stay() > stay + TIE
                    || look.upper(UPPER_DEPTH) <= stay + TIE
                {
                    continue;
                }
                hard += 1;
                let exact = evaluate(&h, &u, solo, Rule::Optimal, &mut exact_memo);
                let free_u = without_actions(&u);
                evaluate(&h, &free_u, false, Rule::Optimal, &mut free_exact);
                if solo {
                    // The exact search skipping the parts where the world
                    // without Freezes and Flip Threes stays: the same.
                    let pruned =
                        evaluate_cut(&h, &u, solo, Rule::Optimal, Cut::Exact, &mut capped_memo, Aids { free: Some(&free_exact), ..Aids::default() });
                    assert!((pruned.hit - exact.hit).abs() < 1e-9, "{h:?} {u:?}: {pruned:?} {exact:?}");
                    assert_eq!(pruned.hits(), exact.hits());
                }
                // Every level, and the thresholds half-way between them.
                for g in (0..=grid(REACH.len() - 1)).step_by(4) {
                    let (below, above) = (Cut::Lower(g), Cut::Upper(g));
                    let lower = evaluate_cut(&h, &u, solo, Rule::Optimal, below, &mut bound_memo, Aids::default());
                    let upper = evaluate_cut(&h, &u, solo, Rule::Optimal, above, &mut bound_memo, Aids::default());
                    assert_eq!(lower.stay, exact.stay);
                    assert!(
                        lower.hit <= exact.hit + TIE,
                        "{h:?} {u:?} {solo} {g}: {lower:?} {exact:?}"
                    );
                    assert!(
                        upper.hit + TIE >= exact.hit,
                        "{h:?} {u:?} {solo} {g}: {upper:?} {exact:?}"
                    );
                    let mut best_upper = upper.hit;
                    let mut best_lower = lower.hit;
                    if solo {
                        evaluate_cut(&h, &free_u, false, Rule::Optimal, above, &mut free_bound, Aids::default());
                        // Pruned where the world without Freezes and Flip
                        // Threes stays: still a lower bound.
                        let pruned =
                            evaluate_cut(&h, &u, solo, Rule::Optimal, below, &mut capped_memo, Aids { free: Some(&free_bound), ..Aids::default() });
                        assert!(pruned.hit <= exact.hit + TIE, "{h:?} {u:?} {g}: {pruned:?} {exact:?}");
                        best_lower = best_lower.max(pruned.hit);
                        for free in [&free_exact, &free_bound] {
                            let capped =
                                evaluate_cut(&h, &u, solo, Rule::Optimal, above, &mut capped_memo, Aids { free: Some(free), ..Aids::default() });
                            assert!(
                                capped.hit + TIE >= exact.hit,
                                "{h:?} {u:?} {g}: {capped:?} {exact:?}"
                            );
                            assert!(capped.hit <= upper.hit + TIE, "{capped:?} {upper:?}");
                            if capped.hit < upper.hit - 1e-6 {
                                tighter += 1;
                            }
                            best_upper = best_upper.min(capped.hit);
                        }
                    }
                    if best_lower > exact.stay + TIE || best_upper <= exact.stay + TIE {
                        settled[usize::from(g) / 4] += 1;
                    }
                }
                assert_eq!(
                    decide(&h, &u, solo, &mut memo),
                    exact.hits(),
                    "{h:?} {u:?} {solo}: {exact:?}"
                );
            }
        }
        // The bounds are not vacuous: they settle many of these, deeper
        // levels more, and the caps tighten them.
        assert!(settled[0] > 5 && settled[4] > 20 && settled[8] > 30, "{settled:?}");
        assert!(tighter > 20, "{tighter}");
    }

    #[test]
    fn both_compiled_versions_of_the_search_give_the_same_bits() {
        // The search compiled for AVX2 (taken when the processor has it)
        // and for any x86-64: the same value, bit for bit, for exact and
        // bounding searches alone in the round and at a table. (On a
        // processor without AVX2 both runs take the plain version.)
        let mut rng = crate::engine::rng::batch_rng(13, 0);
        let (mut wide_memo, mut plain_memo) = (Memo::new(), Memo::new());
        for _ in 0..16 {
            let (h, u) = random_state(&mut rng);
            for solo in [false, true] {
                for cut in [Cut::Exact, Cut::Lower(8), Cut::Upper(8), Cut::Upper(16)] {
                    let wide = evaluate_cut(&h, &u, solo, Rule::Optimal, cut, &mut wide_memo, Aids::default());
                    search::PLAIN.set(true);
                    let plain = evaluate_cut(&h, &u, solo, Rule::Optimal, cut, &mut plain_memo, Aids::default());
                    search::PLAIN.set(false);
                    assert_eq!(wide.hit.to_bits(), plain.hit.to_bits(), "{h:?} {u:?} {solo} {cut:?}");
                }
                search::PLAIN.set(true);
                let plain = decide(&h, &u, solo, &mut plain_memo);
                search::PLAIN.set(false);
                assert_eq!(decide(&h, &u, solo, &mut wide_memo), plain, "{h:?} {u:?} {solo}");
            }
        }
        // Searches of some size, not only trivial ones.
        assert!(wide_memo.expanded() > 100_000, "{}", wide_memo.expanded());
    }

    #[test]
    fn decide_agrees_with_a_full_search() {
        let comp = composition(1, Without::default());
        let mut memo = Memo::new();
        let mut fresh = Memo::new();
        let cases = [
            Hand::holding(&[8], 0, 0, false),
            Hand::holding(&[12, 11, 10], 0, 0, false),
            Hand::holding(&[12, 11, 10], 0, 0, true),
            Hand::holding(&[2, 5, 9, 11], 4, 1, false),
            Hand::holding(&[1, 3, 6, 8, 12], 0, 0, false),
            Hand::holding(&[0, 1, 2, 3, 4, 5], 10, 0, false),
            Hand::holding(&[7, 9, 10, 12], 0, 0, false),
        ];
        for h in &cases {
            let u = unseen_after(comp, h);
            for solo in [false, true] {
                let full = evaluate(h, &u, solo, Rule::Optimal, &mut fresh);
                assert_eq!(
                    decide(h, &u, solo, &mut memo),
                    full.hits(),
                    "{h:?} solo {solo}: {full:?}"
                );
            }
        }
    }
}
