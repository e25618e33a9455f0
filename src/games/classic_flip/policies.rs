//! Classic Flip policies, parsed from specs. A policy sees the game only
//! through a [`View`] (what its player can know).
//!
//! # Spec grammar
//!
//! ```text
//! SPEC = PART ("+" PART)* | SEARCH   every part at most once
//! PART = "collector" | "random" | "counter" | "rollout:" K     the play rule (default collector)
//!      | "thief"                                                action-card use (default plain)
//!      | "caller:" S                                            call timing (default caller:10)
//!      | "bluffer:" K                                           bluffing (default bluffer:7, none)
//!      | "sheriff:" Q                                           challenging (default sheriff:0)
//!      | "no-deny"                                              never take a community card
//!      | "wild-any"                                             never play Any as an action
//!      | "bluff-prior:" B                                       the sheriff's prior share of bluffers (default 1)
//! SEARCH = "ismcts:" N ("+bluff-prior:" B)? ("+playout:" SPEC)?   a search player; SPEC: the rest
//! ```
//!
//! Action-card use, call timing, bluffing and challenging are separate
//! parts, so one of them can be swept with the others fixed
//! (`sim sweep classic-flip --policy 'caller:{10,20,40,80}'`). `random`
//! takes no other part. Printed back (Display) in the order above with
//! the defaults left out (`collector` when everything is default).
//!
//! # Play rules
//!
//! - `collector` (default): greedy set builder. Its target is the rank
//!   with the most naturals in hand and community (gold ranks and held gold
//!   cards count extra, dead ranks in the discard pile less). Start, in
//!   order: call "Flip!" once the round score is at least S; take a
//!   community card that is a wild, Any or 2X (denial: a community card
//!   counts for everybody, one's own hand then holds it); play a Draw half
//!   (draw three) from Draw/Take, Draw/Steal, then Draw/Block; play +Turn;
//!   else draw two. Keeps, in order: Any, 2X, Wild 8s, 7>>>10, the target
//!   rank's cards, Draw/Block, other action cards, other ranks by how many
//!   it holds. Blocks with Draw/Block (never with Any). Takes the most
//!   valuable card it sees.
//! - `random`: a uniformly random legal start option (every action card
//!   and function, random targets), random discards down to the limit,
//!   blocks half the time, never challenges.
//! - `counter`: every start option it can value, valued by its own
//!   exact expected round score after the option, over the unseen cards
//!   (grouped by what they do for the score; sums in
//!   [`super::counter`]): draw two (every pair), Draw (every triple), a
//!   community take (its own hand keeps the card, the replacement is an
//!   unseen card) plus the mirror denial (what the card is worth to its own
//!   combined hand against a random unseen card, taken as what it is worth
//!   to an opponent), Take on every opponent (the best card of a hand made
//!   of its known cards and hidden unseen cards; nothing when the target
//!   holds a Draw/Block), Steal (one random card of each victim, known or
//!   unseen, the community slots' replacements; blocks weighted by the
//!   chance the victim holds a Draw/Block), Swap (the target's known cards
//!   and its hidden cards with the community), Reboot (the community and
//!   as many unseen cards as it gives up), each action of Any valued
//!   without Any's wild and doubling. Options whose sum would take more
//!   than 6,000 terms and Chaos are not valued; +Turn is played when draw
//!   two is the best. Calls (without `caller:S`) when the exact expected
//!   gain of waiting a turn (one draw two; points beyond what takes it past
//!   the target and every opponent count nothing) is at most the expected
//!   gain of that turn for the most improving opponent (the exact gain of
//!   a draw two for the opponent's hand, averaged over 8 worlds sampled
//!   from what it knows): waiting gives every opponent one more turn, and
//!   their final turns come either way. Discards: the action cards that do
//!   not score and the number kept as `collector`; of the cards that score
//!   (numbers, Any, 2X) the set with the best exact expected score after
//!   one more unseen card (when there are at most 128 such sets).
//! - `rollout:K`: for every legal start option (calling "Flip!"
//!   included), K determinized playouts of the rest of the round (the
//!   unseen cards dealt at random into the hidden places, so only worlds
//!   consistent with what it knows; it then plays its own spec with
//!   `collector` as the play rule, everybody else `collector`); plays the
//!   option with the best mean of its round score minus the best
//!   opponent's. The same K worlds serve every option. The hand challenge
//!   (none, or each opponent over its limit and not just given its hand)
//!   and the end-of-turn discard (`collector`'s with its own bluffing part,
//!   and with `bluffer:7` to `bluffer:10`), the Block reaction (none, a
//!   Draw/Block card or an Any), the card a Take takes (every card of the
//!   hand it sees) and the cards taken from the penalty discards (every
//!   pair) are decided the same way, each playout picking the turn up at
//!   the decision ([`super::rollout`]). Forced discards as `collector`.
//! - `ismcts:N`: information-set Monte Carlo tree search
//!   ([`crate::engine::ismcts`]) at every decision it has a choice in
//!   (starts, calls included; challenges; end-of-turn discards; Blocks;
//!   Take picks; penalty pick-ups), N iterations each, in worlds sampled
//!   from what it knows (weighted by the bluff history with
//!   `bluff-prior:B`), every seat playing `+playout:SPEC` (default
//!   `collector`; a spec with `collector` or `random` as its play rule)
//!   below the tree ([`super::search`]). It takes no other part; its
//!   forced discards after a challenge are the playout policy's.
//!
//! # The other parts
//!
//! - `thief`: aggressive actions before the collector's: Take from the
//!   opponent with the most cards (the most valuable card), Steal from
//!   every opponent (the three with most cards; community cards too with 2
//!   or 3 players), Swap into a fully known better hand, Chaos when
//!   scoring nothing and behind; then, holding a Swap/Reboot (or Any), the
//!   Swap or Reboot (or Any played as Swap or Reboot) with the best exact
//!   expected round score as `counter` values it, when that beats drawing
//!   two by more than a point (sums of at most 600 terms: a Swap target
//!   with at most two unknown cards, a Reboot drawing at most two); always
//!   Block.
//! - `no-deny`: never takes a community card (`collector`: its denial of
//!   wilds, Any and 2X off; `counter`: community takes not valued), to
//!   measure what denial is worth.
//! - `wild-any`: never plays Any as an action (`counter`, `thief`), to
//!   measure Any as a wild against Any as an action.
//! - `caller:S`: call "Flip!" once the round score is at least S points.
//! - `bluffer:K`: ends turns with up to K cards (K from 7 to 10; 7 is
//!   no bluff, the same as leaving it out) without a 7>>>10 or Any while
//!   nobody has challenged this round.
//! - `sheriff:Q`: challenges at the end of its turn the opponent over the
//!   seven-card limit whose exact chance of holding a 7>>>10 or Any, from
//!   what it can know (a hypergeometric count over the unseen cards), is
//!   lowest, when that chance is below Q. Every policy but `random`
//!   challenges when the win is certain (11 or more cards, a penalised
//!   player over six, or no 7>>>10 or Any unseen): that is `sheriff:0`.
//! - `bluff-prior:B` (with `sheriff:Q`, Q above 0, or `rollout:K`; refused
//!   alone, where it would change nothing): the chance is a level-1 posterior
//!   instead, from the target's behaviour: with prior B the target bluffs
//!   (over seven whatever it holds), otherwise it is honest and over seven
//!   only with a 7>>>10 or Any ([`chance_given_over_limit`]). B = 1 is the
//!   public-information chance. With `rollout:K`, the worlds of all its
//!   playouts are weighted by the same likelihood
//!   ([`super::rollout`]).

use std::fmt;


use super::cards::*;
use super::rules::{BLOCK_CARDS, Chooser, Play, Resume, Start, View};
use super::ClassicFlip;
use crate::engine::custom::{self, Custom, Decision, User};
use crate::engine::game::Game;
use crate::engine::ismcts;
use crate::engine::rng::Draw;

/// Spec forms accepted, for error messages.
pub const ACCEPTED: &str = "parts joined by +: one of collector, random, counter, rollout:K (K 1..=1000), \
     ismcts:N (N 1..=1000000; with only bluff-prior:B and, last, playout:SPEC); \
     thief; caller:S (S 0..=100000 points); bluffer:K (K 7..=10 cards, 7 = no bluff); sheriff:Q (Q 0..=1); \
     no-deny; wild-any; bluff-prior:B (B 0..=1, with sheriff:Q above 0 or rollout:K); e.g. caller:40+sheriff:0.3 or thief+bluffer:9";

/// How a policy chooses its start options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Uniformly random.
    Random,
    /// Greedy set builder.
    Collector,
    /// Exact expected score of each start option it can value.
    Counter,
    /// K determinized playouts per start option.
    Rollout(u16),
    /// `ismcts:N`: information-set Monte Carlo tree search at every
    /// decision ([`super::search`]).
    Ismcts(&'static Searched),
}

/// What `ismcts:N` (`+playout:SPEC`) says: kept once per process
/// ([`ismcts::intern`]) so that a [`Policy`] stays small and `Copy`.
#[derive(Debug, PartialEq, Eq)]
pub struct Searched {
    /// Iterations per decision.
    pub n: u32,
    /// The policy every seat plays below the search tree (default
    /// `collector`, the game's default policy).
    pub playout: Policy,
}


/// A spec cut at its `playout:` part: what comes before it, and the
/// playout's own spec (everything after `playout:`), if any.
fn split_playout(spec: &str) -> (&str, Option<&str>) {
    let mut at = 0;
    for part in spec.split('+') {
        let t = part.trim_start();
        if t.get(..8).is_some_and(|h| h.eq_ignore_ascii_case("playout:")) {
            let rest = at + (part.len() - t.len()) + 8;
            return (spec[..at.saturating_sub(1)].trim(), Some(&spec[rest..]));
        }
        at += part.len() + 1;
    }
    (spec, None)
}

/// A parsed policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The play rule.
    pub base: Base,
    /// Aggressive action-card use.
    pub thief: bool,
    /// Call "Flip!" once the round score is at least this; `None`: the
    /// rule's own timing (collector: 10, at once; counter: its estimate).
    pub call_at: Option<u32>,
    /// Cards kept without a 7>>>10 (7 = no bluff).
    pub bluff: u32,
    /// Challenge threshold in millionths (0 = certain wins only).
    pub sheriff: u32,
    /// Never take a community card (`no-deny`).
    pub no_deny: bool,
    /// Never play Any as an action (`wild-any`).
    pub wild_any: bool,
    /// The sheriff's prior share of bluffers, in millionths (`bluff-prior:B`;
    /// 1,000,000: the public-information chance alone).
    pub bluff_prior: u32,
    /// A user policy's challenge rule, written as code and registered by
    /// the program ([`crate::cli::Builder::policy`]): when given, it alone
    /// decides the hand challenges (`sheriff:Q` and a rollout's
    /// challenges are not asked).
    pub challenge: Option<User<ChallengeRule>>,
}

/// The challenge rule of a user policy: given what the player knows and
/// a player `suspect` who could be challenged (over the seven-card limit),
/// `true` to challenge them. The first suspect clockwise it says yes to is
/// challenged.
pub type ChallengeRule = dyn Fn(&PlayerView<'_>, usize) -> bool + Send + Sync;

impl Custom for ClassicFlip {
    type Decide = ChallengeRule;
    const DECIDES: &'static str = "a challenge rule: one part of a spec, in place of sheriff:Q";
}

impl<F: Fn(&PlayerView<'_>, usize) -> bool + Send + Sync + 'static> Decision<ClassicFlip> for F {
    fn boxed(self) -> Box<ChallengeRule> {
        Box::new(self)
    }
}

/// What a Classic Flip player may know when it may challenge a player
/// over the seven-card limit: hand sizes, game totals, and the chance,
/// from every card it has seen, that the suspect holds the card (7>>>10
/// or Any) that allows its hand.
///
/// ```
/// use sim::games::classic_flip::policies::PlayerView;
/// // Challenge whoever is more likely than not to be bluffing.
/// let doubter = |v: &PlayerView, suspect: usize| v.chance_allowed(suspect) < 0.5;
/// # let _ = doubter;
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

    /// Cards in the hand of player `seat` (public).
    pub fn hand_size(&self, seat: usize) -> u32 {
        self.v.hand_size(seat)
    }

    /// The game total of player `seat`.
    pub fn total(&self, seat: usize) -> u32 {
        self.v.total(seat)
    }

    /// Whether player `seat` has been penalised this round (its limit is
    /// then six cards).
    pub fn penalised(&self, seat: usize) -> bool {
        self.v.penalised(seat)
    }

    /// The chance that player `seat` holds a 7>>>10 or Any (the cards
    /// that allow more than seven), from every card the deciding player
    /// has seen; 1 when it knows of one in that hand.
    pub fn chance_allowed(&self, seat: usize) -> f64 {
        chance_of_limit10(&self.v, seat)
    }

    /// Challenges made so far this round.
    pub fn challenges_this_round(&self) -> u32 {
        self.v.challenges_this_round()
    }

    /// Cards left in the deck.
    pub fn deck_size(&self) -> usize {
        self.v.draw_count()
    }
}

/// The first suspect in `over` (a mask of seats, lowest first from the
/// player's left) that the user rule `u` challenges.
#[inline(never)]
fn user_challenge(u: User<ChallengeRule>, v: &View<'_>, over: u32) -> Option<usize> {
    let view = PlayerView { v: *v };
    let me = v.seat();
    let n = v.players();
    (1..n)
        .map(|k| (me + k) % n)
        .filter(|&q| over & (1 << q) != 0)
        .find(|&q| (u.decide())(&view, q))
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            base: Base::Collector,
            thief: false,
            call_at: None,
            bluff: LIMIT_PLAIN,
            sheriff: 0,
            no_deny: false,
            wild_any: false,
            bluff_prior: 1_000_000,
            challenge: None,
        }
    }
}

const LIMIT_PLAIN: u32 = 7;

fn number_in<T: std::str::FromStr + PartialOrd + Copy + fmt::Display>(
    part: &str,
    text: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(x) if x >= lo && x <= hi => Ok(x),
        _ => Err(format!("'{part}': the value must be a number from {lo} to {hi}; accepted: {ACCEPTED}")),
    }
}

/// The playout policy `text` of `ismcts:N+playout:SPEC` (spec `spec`):
/// one cheap to simulate, its play rule `collector` or `random`.
fn playout_policy(spec: &str, text: &str) -> Result<Policy, String> {
    if split_playout(text).1.is_some() {
        return Err(format!("'{spec}': playout is chosen twice; accepted: {ACCEPTED}"));
    }
    let p = Policy::parse_spec(text).map_err(|e| format!("'{spec}': in its playout SPEC: {e}"))?;
    if matches!(p.base, Base::Counter | Base::Rollout(_) | Base::Ismcts(_)) {
        return Err(format!(
            "'{spec}': the playout SPEC '{}' must be a policy cheap to simulate: collector or random as \
             its play rule, with any other parts (ismcts:N+playout:SPEC, e.g. ismcts:1000+playout:thief)",
            text.trim()
        ));
    }
    Ok(p)
}

impl Policy {
    /// Parses a spec (see the module documentation); the challenge rule
    /// may be a user policy's (see [`crate::cli::Builder::policy`]).
    pub fn parse(spec: &str) -> Result<Policy, String> {
        Policy::parse_spec(spec).map_err(|e| e + &custom::accepted(<ClassicFlip as Game>::NAME))
    }

    fn parse_spec(spec: &str) -> Result<Policy, String> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err(format!("empty policy; accepted: {ACCEPTED}"));
        }
        let (spec_own, playout) = split_playout(spec);
        if spec_own.is_empty() {
            return Err(format!("'{spec}': playout:SPEC is a choice of ismcts:N only; accepted: {ACCEPTED}"));
        }
        let mut p = Policy::default();
        let mut ismcts_n = None;
        let mut seen = [false; 9];
        let mut once = |slot: usize, part: &str| -> Result<(), String> {
            if seen[slot] {
                return Err(format!("'{part}' repeats a part already given in '{spec}'; accepted: {ACCEPTED}"));
            }
            seen[slot] = true;
            Ok(())
        };
        for part in spec_own.split('+').map(str::trim) {
            let lower = part.to_ascii_lowercase();
            let (word, arg) = match lower.split_once(':') {
                Some((w, a)) => (w, Some(a)),
                None => (lower.as_str(), None),
            };
            match (word, arg) {
                ("collector", None) => {
                    once(0, part)?;
                    p.base = Base::Collector;
                }
                ("random", None) => {
                    once(0, part)?;
                    p.base = Base::Random;
                }
                ("counter", None) => {
                    once(0, part)?;
                    p.base = Base::Counter;
                }
                ("rollout", Some(a)) => {
                    once(0, part)?;
                    p.base = Base::Rollout(number_in(part, a, 1u16, 1000)?);
                }
                ("ismcts", Some(_)) => {
                    once(0, part)?;
                    ismcts_n = Some(ismcts::parse_iterations(&lower).expect("an ismcts: part")?);
                }
                ("thief", None) => {
                    once(1, part)?;
                    p.thief = true;
                }
                ("caller", Some(a)) => {
                    once(2, part)?;
                    p.call_at = Some(number_in(part, a, 0u32, 100_000)?);
                }
                ("bluffer", Some(a)) => {
                    once(3, part)?;
                    p.bluff = number_in(part, a, 7u32, 10)?;
                }
                ("sheriff", Some(a)) => {
                    once(4, part)?;
                    let q: f64 = number_in(part, a, 0.0f64, 1.0)?;
                    p.sheriff = (q * 1e6).round() as u32;
                }
                ("no-deny", None) => {
                    once(5, part)?;
                    p.no_deny = true;
                }
                ("wild-any", None) => {
                    once(6, part)?;
                    p.wild_any = true;
                }
                ("bluff-prior", Some(a)) => {
                    once(7, part)?;
                    let b: f64 = number_in(part, a, 0.0f64, 1.0)?;
                    p.bluff_prior = (b * 1e6).round() as u32;
                }
                _ => match custom::parse::<ChallengeRule>(<ClassicFlip as Game>::NAME, part) {
                    Some(user) => {
                        once(8, part)?;
                        p.challenge = Some(user.map_err(|e| format!("{e}; accepted: {ACCEPTED}"))?);
                    }
                    None => return Err(format!("unknown policy part '{part}'; accepted: {ACCEPTED}")),
                },
            }
        }
        if let Some(n) = ismcts_n {
            if seen[1..7].iter().any(|&s| s) || seen[8] {
                return Err(format!(
                    "'{spec}': ismcts:N searches every decision itself; besides it a spec takes only \
                     bluff-prior:B (weights its worlds) and, last, playout:SPEC (what every seat plays \
                     below the tree), e.g. ismcts:1000+playout:thief; accepted: {ACCEPTED}"
                ));
            }
            let playout = match playout {
                None => Policy::default(),
                Some(text) => playout_policy(spec, text)?,
            };
            p.base = Base::Ismcts(ismcts::intern(Searched { n, playout }));
        } else if playout.is_some() {
            return Err(format!("'{spec}': playout:SPEC is a choice of ismcts:N only; accepted: {ACCEPTED}"));
        }
        if p.base == Base::Random && seen[1..].iter().any(|&s| s) {
            return Err(format!("'{spec}': random takes no other part; accepted: {ACCEPTED}"));
        }
        // The prior weighs a challenge's chance (sheriff:Q above 0) or a
        // rollout's worlds: anywhere else it changes no decision.
        if seen[7] && p.sheriff == 0 && !matches!(p.base, Base::Rollout(_) | Base::Ismcts(_)) {
            return Err(format!(
                "'{spec}': bluff-prior:B needs sheriff:Q (Q above 0), rollout:K or ismcts:N, whose \
                 challenges or worlds it weighs; without them it changes nothing (the same games as without it), \
                 e.g. sheriff:0.3+bluff-prior:0.25; accepted: {ACCEPTED}"
            ));
        }
        Ok(p)
    }

    /// The `ismcts:N` part, if this is a search player.
    pub fn searched(&self) -> Option<&'static Searched> {
        match self.base {
            Base::Ismcts(s) => Some(s),
            _ => None,
        }
    }

    /// The call threshold in points.
    fn call_threshold(&self) -> u32 {
        self.call_at.unwrap_or(10)
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        match self.base {
            Base::Random => parts.push("random".into()),
            Base::Collector => {}
            Base::Counter => parts.push("counter".into()),
            Base::Rollout(k) => parts.push(format!("rollout:{k}")),
            Base::Ismcts(s) => parts.push(format!("ismcts:{}", s.n)),
        }
        if self.thief {
            parts.push("thief".into());
        }
        if let Some(s) = self.call_at {
            parts.push(format!("caller:{s}"));
        }
        if self.bluff != LIMIT_PLAIN {
            parts.push(format!("bluffer:{}", self.bluff));
        }
        if self.sheriff != 0 {
            let q = format!("{:.6}", f64::from(self.sheriff) / 1e6);
            let q = q.trim_end_matches('0').trim_end_matches('.');
            parts.push(format!("sheriff:{q}"));
        }
        if self.no_deny {
            parts.push("no-deny".into());
        }
        if self.wild_any {
            parts.push("wild-any".into());
        }
        if self.bluff_prior != 1_000_000 {
            let b = format!("{:.6}", f64::from(self.bluff_prior) / 1e6);
            let b = b.trim_end_matches('0').trim_end_matches('.');
            parts.push(format!("bluff-prior:{b}"));
        }
        if let Some(u) = self.challenge {
            parts.push(u.to_string());
        }
        // Last: everything after it is the playout's spec.
        if let Base::Ismcts(s) = self.base
            && s.playout != Policy::default()
        {
            parts.push(format!("playout:{}", s.playout));
        }
        if parts.is_empty() {
            parts.push("collector".into());
        }
        f.write_str(&parts.join("+"))
    }
}

// ---------------------------------------------------------------------
// Valuation shared by the heuristics
// ---------------------------------------------------------------------

/// How much a player wants each rank (index 0..13; 8 unused).
#[derive(Clone, Copy, Debug)]
pub struct Wants {
    target: Rank,
    /// The value of a plain card of each rank, then of each action card
    /// (see [`Wants::value`]): a card's value is one lookup by
    /// [`CARD_SLOT`].
    rv: [i32; RANKS + 8],
}

impl Wants {
    /// From what `v`'s player holds and sees.
    #[inline]
    pub fn of(v: &View<'_>) -> Wants {
        Wants::from_sets(v.combined(), v.hand(), v.discard(), v.rules().deck.all)
    }

    /// From a combined hand, the hand, the discard pile and the deck.
    #[inline]
    pub fn from_sets(combined: CardSet, hand: CardSet, discard: CardSet, deck: CardSet) -> Wants {
        let (nat, gold_deck, gold_hand, dead) = (
            rank_counts(combined),
            gold_counts(deck),
            gold_counts(hand),
            rank_counts(discard),
        );
        // want = 8 naturals + 3 gold in the deck + 6 gold in hand - 3 dead,
        // for every rank at once: one byte per rank (even ranks in one
        // word, odd in the other), offset by 24 so that no byte goes below
        // zero (dead <= 8) or above 255 (at most 106).
        const LOW: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        const OFFSET: u64 = 24 * 0x0101_0101_0101_0101;
        let lanes = |counts: u64| [counts & LOW, (counts >> 4) & LOW];
        let (nat, gd, gh, dead) = (lanes(nat), lanes(gold_deck), lanes(gold_hand), lanes(dead));
        let x = [0, 1].map(|i| 8 * nat[i] + 3 * gd[i] + 6 * gh[i] + OFFSET - 3 * dead[i]);
        // The highest want is the target (ties: the higher rank): the
        // largest of want << 4 | rank (a conditional move, not a branch:
        // which rank wins is a coin flip for the branch predictor).
        let mut rv = [0; RANKS + 8];
        let mut top = 0i32;
        for (r, v) in rv.iter_mut().enumerate().take(RANKS) {
            let want = ((x[r & 1] >> (8 * (r >> 1))) & 0xFF) as i32;
            *v = 20 * (want - 24);
            if r != EIGHT as usize {
                top = top.max(want << 4 | r as i32);
            }
        }
        let target = (top & 0xF) as Rank;
        // The target's 2,000 is added in `value`: a store at a computed
        // place here would stall the copy of the array that follows.
        rv[EIGHT as usize] = 8_000;
        rv[RANKS..].copy_from_slice(&ACTION_VALUE);
        Wants { target, rv }
    }

    /// The rank it collects.
    pub fn target(&self) -> Rank {
        self.target
    }

    /// What card `c` is worth keeping.
    #[inline]
    ///
    /// Any 10,000, 2X 9,000, a Wild 8 8,000 (the Gold 8 8,500), 7>>>10
    /// 5,000, Draw/Block 900, Draw/Take and Draw/Steal 800, Chaos/+Turn
    /// 700, Swap/Reboot 300; a number card 20 x the want of its rank, plus
    /// 2,000 for the target rank and 60 for a gold card.
    pub fn value(&self, c: Card) -> i32 {
        let c = usize::from(c);
        let slot = CARD_SLOT[c];
        self.rv[usize::from(slot)] + CARD_GOLD_BONUS[c] + 2_000 * i32::from(slot == self.target)
    }
}

/// The action cards with a Draw or +Turn half (both decks): what
/// [`Policy::plain_start`] can play.
const DRAW_OR_TURN: CardSet = {
    let mut m = 0;
    let mut copy = 0;
    while copy < 2 {
        m |= 1 << action_card(DRAW_TAKE, copy)
            | 1 << action_card(DRAW_STEAL, copy)
            | 1 << action_card(DRAW_BLOCK, copy)
            | 1 << action_card(CHAOS_TURN, copy);
        copy += 1;
    }
    m
};

/// [`Wants::value`] of each action card, by action index.
const ACTION_VALUE: [i32; 8] = [800, 800, 900, 300, 700, 9_000, 5_000, 10_000];

const NOT_ACTION: u8 = 255;

/// The action index of every card id ([`NOT_ACTION`] for number cards).
const CARD_ACTION: [u8; 128] = {
    let mut t = [NOT_ACTION; 128];
    let mut c = 0;
    while c < 128 {
        let k = c % PER_DECK as usize;
        if k >= 52 {
            t[c] = (k - 52) as u8;
        }
        c += 1;
    }
    t
};

/// What being gold adds to a number card's value: 500 for the Gold 8, 60
/// for another gold card.
const CARD_GOLD_BONUS: [i32; 128] = {
    let mut t = [0; 128];
    let mut c = 0;
    while c < 128 {
        let k = c % PER_DECK as usize;
        if k >= 39 && k < 52 {
            t[c] = if k - 39 == EIGHT as usize { 500 } else { 60 };
        }
        c += 1;
    }
    t
};

/// Where [`Wants::value`] looks up every card id: its rank for a number
/// card, 13 + its action index for an action card.
const CARD_SLOT: [u8; 128] = {
    let mut t = [0; 128];
    let mut c = 0;
    while c < 128 {
        t[c] = match CARD_ACTION[c] {
            NOT_ACTION => ((c % PER_DECK as usize) % 13) as u8,
            a => RANKS as u8 + a,
        };
        c += 1;
    }
    t
};


/// The cards of a set in order of value: each card with its place (0 for
/// the most valuable), for choosing the most valuable few without
/// sorting. Sort keys are `value << 8 | card` (unique: the card id breaks
/// ties, higher first; positive and below 2^29).
struct Keyed {
    /// Up to 16 cards: the keys, then zeros.
    buf: [i32; 16],
    /// Each card's place: how many keys are above its key.
    place: [u32; 16],
    /// More than 16 cards (a Chaos deal can make such a hand): all keys,
    /// sorted from the most valuable.
    more: Vec<i32>,
    n: usize,
}

impl Keyed {
    #[inline]
    fn of(set: CardSet, wants: &Wants) -> Keyed {
        let key = |c: Card| sort_key(wants, c);
        let mut k = Keyed {
            buf: [0; 16],
            place: [0; 16],
            more: Vec::new(),
            n: 0,
        };
        for c in cards_of(set) {
            if k.n < 16 {
                k.buf[k.n] = key(c);
            } else {
                if k.n == 16 {
                    k.more = k.buf.to_vec();
                }
                k.more.push(key(c));
            }
            k.n += 1;
        }
        if k.n > 16 {
            k.more.sort_unstable_by(|a, b| b.cmp(a));
        } else {
            // Each key against the whole buffer at once (zeros are above
            // nothing): independent comparisons, no branch on a coin flip.
            let keys = k.buf;
            for (x, place) in keys.iter().zip(k.place.iter_mut()).take(k.n) {
                *place = keys.iter().map(|&y| u32::from(y > *x)).sum();
            }
        }
        k
    }

    /// The cards among `mask` that are among the `k` most valuable.
    #[inline]
    fn best_of(&self, k: usize, mask: CardSet) -> CardSet {
        if self.n > 16 {
            return self.more.iter().take(k).fold(0, |m, &x| m | bit(x as u8)) & mask;
        }
        let mut out = 0;
        for (&x, &place) in self.buf.iter().zip(&self.place).take(self.n) {
            out |= bit(x as u8) & 0u128.wrapping_sub(u128::from(place < k as u32));
        }
        out & mask
    }

    /// The `k` most valuable cards (all of them if there are fewer).
    #[inline]
    fn best(&self, k: usize) -> CardSet {
        self.best_of(k, CardSet::MAX)
    }
}

/// A card's sort key: `value << 8 | card`, unique (the card id breaks
/// ties, higher first), positive and below 2^29 (values are above -2^20
/// and below 2^20).
#[inline]
fn sort_key(wants: &Wants, c: Card) -> i32 {
    (wants.value(c) + (1 << 20)) << 8 | i32::from(c)
}

/// Whether a card of `mask` (a few cards of `set`) is among the `k` most
/// valuable of `set`: for each, the keys above its key, counted in one pass.
#[inline]
fn among_most_valuable(set: CardSet, wants: &Wants, k: usize, mask: CardSet) -> bool {
    cards_of(mask).any(|m| {
        let x = sort_key(wants, m);
        cards_of(set).map(|c| u32::from(sort_key(wants, c) > x)).sum::<u32>() < k as u32
    })
}

/// The `k` (1 to 3) least valuable cards of `set` (at least `k` cards),
/// by the keys of [`Keyed`], in one pass that keeps the three lowest keys
/// in registers: no buffer to store and load again, no branch on a coin
/// flip (`min` and `max` are conditional moves).
#[inline]
fn least_valuable(set: CardSet, wants: &Wants, k: usize) -> CardSet {
    let start = (i32::MAX, i32::MAX, i32::MAX);
    let (m1, m2, m3) = cards_of(set).fold(start, |(m1, m2, m3), c| {
        let x = sort_key(wants, c);
        // x pushes the larger of each pair down the line.
        let x1 = m1.max(x);
        let x2 = m2.max(x1);
        (m1.min(x), m2.min(x1), m3.min(x2))
    });
    [m1, m2, m3][..k].iter().fold(0, |m, &x| m | bit(x as u8))
}

/// The cards to discard so that the `keep` most valuable remain.
#[inline]
fn discard_to(hand: CardSet, keep: usize, wants: &Wants) -> CardSet {
    hand & !Keyed::of(hand, wants).best(keep)
}

/// The exact chance that `q` holds a 7>>>10 or Any, from what `v`'s player
/// knows: its unknown cards are a uniform draw from the unseen cards.
pub fn chance_of_limit10(v: &View<'_>, q: usize) -> f64 {
    if v.known(q) & LIMIT10 != 0 {
        return 1.0;
    }
    let unseen = v.unseen();
    let good = count(unseen & LIMIT10);
    let u = count(unseen);
    let h = v.hidden(q);
    if good == 0 || h == 0 {
        return 0.0;
    }
    let mut none = 1.0;
    for i in 0..h {
        if u <= i || u - i <= good {
            return 1.0;
        }
        none *= f64::from(u - good - i) / f64::from(u - i);
    }
    1.0 - none
}

/// The chance that `q`, over the seven-card limit, holds a 7>>>10 or Any,
/// given its behaviour (a level-1 posterior): with prior `b` it bluffs
/// (keeps 8-10 cards whatever it holds, so its cards are as the public
/// information says, [`chance_of_limit10`]); otherwise it is honest and
/// over seven only when it holds one. Bayes: P(none | over seven) =
/// b q0 / (b + (1 - b)(1 - q0)), q0 the public chance of none; the
/// result is 1 minus that. `b` = 1 gives the public chance.
pub fn chance_given_over_limit(v: &View<'_>, q: usize, b: f64) -> f64 {
    let hold = chance_of_limit10(v, q);
    let q0 = 1.0 - hold;
    let over = b + (1.0 - b) * hold;
    if over <= 0.0 {
        // Nobody bluffs and it cannot hold one: it cannot be over seven;
        // the public chance is all there is.
        return hold;
    }
    1.0 - b * q0 / over
}

/// The seats `v`'s player could challenge with a chance of winning, as a
/// mask (bit q for seat q): over their base limit (seven, six when
/// penalised) and not holding a hand they were just given (C22). All
/// seats at once, no branch per seat: nearly always nobody.
#[inline]
pub(super) fn challengeable(v: &View<'_>) -> u32 {
    v.over_base_limit() & !v.grace_mask() & !(1 << v.seat())
}

/// The first held card (in `order`) that can play `f`, Any excluded.
pub(super) fn holding(v: &View<'_>, order: &[u8], f: Func) -> Option<Card> {
    order.iter().find_map(|&a| {
        let m = v.hand() & (bit(action_card(a, 0)) | bit(action_card(a, 1)));
        (m != 0).then(|| m.trailing_zeros() as Card)
            .filter(|&c| functions(c) & f.bit() != 0)
    })
}

/// Steal victims: every opponent, or the three with the most cards.
pub(super) fn steal_victims(v: &View<'_>) -> u8 {
    let n = v.players();
    let me = v.seat();
    let mut opp: Vec<usize> = (0..n).filter(|&q| q != me).collect();
    opp.sort_by_key(|&q| (std::cmp::Reverse(v.hand_size(q)), q));
    opp.iter().take(3).fold(0u8, |m, &q| m | 1 << q)
}

/// Steal community slots: as many as allowed, the most valuable first.
pub(super) fn steal_slots(v: &View<'_>, wants: &Wants) -> u8 {
    let n = v.players();
    let max = 3usize.saturating_sub(n - 1);
    let com = v.community();
    let mut slots: Vec<usize> = (0..3).filter(|&s| com[s] != super::rules::EMPTY).collect();
    slots.sort_by_key(|&s| std::cmp::Reverse(wants.value(com[s])));
    slots.iter().take(max).fold(0u8, |m, &s| m | 1 << s)
}

/// The start options `rollout:K` and `ismcts:N` consider (in this order):
/// draw two, the call, each community card, and each action card's
/// playable functions but Any's (Take and Swap on every opponent, Steal
/// on [`steal_victims`] and [`steal_slots`]).
pub(super) fn start_options(v: &View<'_>, wants: &Wants) -> Vec<Start> {
    let mut cands: Vec<Start> = Vec::with_capacity(12);
    cands.push(Start::Draw2);
    if v.can_call() {
        cands.push(Start::Flip);
}
    if v.caller().is_none() {
        for (s, &c) in v.community().iter().enumerate() {
            if c != super::rules::EMPTY {
                cands.push(Start::Community(s as u8));
            }
        }
}
    let n = v.players();
    let me = v.seat();
    for c in cards_of(v.hand() & ACTION_CARDS) {
        for f in Func::ALL {
            if functions(c) & f.bit() == 0 || action(c) == Some(ANY) {
                continue;
            }
            let mut p = Play::new(c, f);
            match f {
                Func::Take | Func::Swap => {
                    for q in (0..n).filter(|&q| q != me) {
                        p.target = q as u8;
                        if v.playable(&p) {
                            cands.push(Start::Play(p));
                        }
                    }
                    continue;
                }
                Func::Steal => {
                    p.victims = steal_victims(v);
                    p.slots = steal_slots(v, wants);
                }
                _ => {}
            }
            if v.playable(&p) {
                cands.push(Start::Play(p));
            }
        }
}
    cands
}

// ---------------------------------------------------------------------
// The decisions
// ---------------------------------------------------------------------

impl Policy {
    fn collector_start(&self, v: &View<'_>) -> Start {
        // One scoring serves both: a call is possible exactly when some
        // rank reaches five (C29) and nobody has called.
        if v.caller().is_none() && reaches_five(v.combined()) && v.score().points >= self.call_threshold() {
            return Start::Flip;
        }
        if self.thief
            && let Some(s) = self.thief_start(v, &Wants::of(v))
        {
            return s;
        }
        self.plain_start(v)
    }

    /// Denial (unless `no-deny`), Draw, +Turn, draw two.
    fn plain_start(&self, v: &View<'_>) -> Start {
        if !self.no_deny && v.caller().is_none() && v.community_set() & (WILD | TWO_X_CARDS) != 0 {
            let com = v.community();
            for (s, &c) in com.iter().enumerate() {
                if c != super::rules::EMPTY && bit(c) & (WILD | TWO_X_CARDS) != 0 {
                    return Start::Community(s as u8);
                }
            }
        }
        if v.hand() & DRAW_OR_TURN == 0 {
            return Start::Draw2;
        }
        if let Some(c) = holding(v, &[DRAW_TAKE, DRAW_STEAL, DRAW_BLOCK], Func::Draw) {
            let p = Play::new(c, Func::Draw);
            if v.playable(&p) {
                return Start::Play(p);
            }
        }
        if let Some(c) = holding(v, &[CHAOS_TURN], Func::PlusTurn) {
            let p = Play::new(c, Func::PlusTurn);
            if v.playable(&p) {
                return Start::Play(p);
            }
        }
        Start::Draw2
    }

    // Out of line: the collector's start stays small and its frame
    // holds none of this one's buffers.
    #[inline(never)]
    pub(super) fn thief_start(&self, v: &View<'_>, wants: &Wants) -> Option<Start> {
        if v.caller().is_some() {
            return None;
        }
        let n = v.players();
        let me = v.seat();
        if let Some(c) = holding(v, &[DRAW_TAKE], Func::Take) {
            let target = (0..n)
                .filter(|&q| q != me)
                .max_by_key(|&q| (v.hand_size(q), v.total(q), std::cmp::Reverse(q)));
            if let Some(q) = target.filter(|&q| v.hand_size(q) > 0) {
                let mut p = Play::new(c, Func::Take);
                p.target = q as u8;
                if v.playable(&p) {
                    return Some(Start::Play(p));
                }
            }
        }
        if let Some(c) = holding(v, &[DRAW_STEAL], Func::Steal) {
            let mut p = Play::new(c, Func::Steal);
            p.victims = steal_victims(v);
            p.slots = steal_slots(v, wants);
            if v.playable(&p) {
                return Some(Start::Play(p));
            }
        }
        let mine = v.score().points;
        if let Some(c) = holding(v, &[SWAP_REBOOT], Func::Swap) {
            let com = v.community_set();
            let better = (0..n)
                .filter(|&q| q != me && v.hidden(q) == 0 && v.hand_size(q) > 0)
                .map(|q| (points(v.known(q) | com), q))
                .max();
            if let Some((pts, q)) = better.filter(|&(pts, _)| pts > mine) {
                let _ = pts;
                let mut p = Play::new(c, Func::Swap);
                p.target = q as u8;
                if v.playable(&p) {
                    return Some(Start::Play(p));
                }
            }
        }
        if let Some(c) = holding(v, &[CHAOS_TURN], Func::Chaos) {
            let behind = (0..n).any(|q| q != me && v.total(q) > v.total(me));
            let p = Play::new(c, Func::Chaos);
            if mine == 0 && behind && v.playable(&p) {
                return Some(Start::Play(p));
            }
        }
        super::counter::thief_extras(self, v, wants)
    }

    // Out of line: the collector's start stays small and its frame
    // holds none of this one's buffers.
    #[inline(never)]
    fn random_start<D: Draw>(&self, v: &View<'_>, d: &mut D) -> Start {
        let mut opts: Vec<Start> = Vec::with_capacity(16);
        opts.push(Start::Draw2);
        if v.can_call() {
            opts.push(Start::Flip);
        }
        let n = v.players();
        let me = v.seat();
        if v.caller().is_none() {
            for (s, &c) in v.community().iter().enumerate() {
                if c != super::rules::EMPTY {
                    opts.push(Start::Community(s as u8));
                }
            }
        }
        for c in cards_of(v.hand() & ACTION_CARDS) {
            for f in Func::ALL {
                if functions(c) & f.bit() == 0 {
                    continue;
                }
                let mut p = Play::new(c, f);
                match f {
                    Func::Take | Func::Swap => {
                        let k = d.below(n as u32 - 1) as usize;
                        p.target = ((me + 1 + k) % n) as u8;
                    }
                    Func::Steal => {
                        let mut opp: Vec<usize> = (0..n).filter(|&q| q != me).collect();
                        d.shuffle_usize(&mut opp);
                        p.victims = opp.iter().take(3).fold(0u8, |m, &q| m | 1 << q);
                        let max = 3u32.saturating_sub(n as u32 - 1);
                        let want = d.below(max + 1);
                        let mut slots = [0u8, 1, 2];
                        d.shuffle(&mut slots);
                        p.slots = slots[..want as usize].iter().fold(0u8, |m, &s| m | 1 << s);
                    }
                    _ => {}
                }
                if v.playable(&p) {
                    opts.push(Start::Play(p));
                }
            }
        }
        opts[d.below(opts.len() as u32) as usize]
    }

    // Out of line: the collector's start stays small and its frame
    // holds none of this one's buffers.
    #[inline(never)]
    fn rollout_start<D: Draw>(&self, k: u16, v: &View<'_>, wants: &Wants, d: &mut D) -> Start {
        let cands = start_options(v, wants);
        super::rollout::best_by_playouts(self, k, v, v.seat(), Resume::Turn, &cands, super::rollout::Fixed::Start, d)
    }

    pub(super) fn keep_discard<D: Draw>(&self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        let hand = v.hand();
        let n = v.hand_size(v.seat());
        if matches!(self.base, Base::Random) {
            let mut h = hand;
            let mut out = 0;
            loop {
                let lim = if forced { limit } else { v.limit_for(h) };
                if count(h) <= lim {
                    return out;
                }
                let c = nth(h, d.below(count(h)));
                h &= !bit(c);
                out |= bit(c);
            }
        }
        // Not forced, `limit` is the limit for the hand held (the engine's
        // `limit_for`).
        debug_assert!(forced || limit == v.limit_for(hand));
        if n <= limit {
            return 0;
        }
        let wants = Wants::of(v);
        if forced {
            return discard_to(hand, limit as usize, &wants);
        }
        // Keep the best seven (six); with a 7>>>10 or Any among them, ten
        // (six when penalised: the limit held is then six).
        let six_or_seven = v.limit_for(0) as usize;
        let limit10 = hand & LIMIT10;
        let mut keep = if limit10 != 0 && among_most_valuable(hand, &wants, six_or_seven, limit10) {
            limit as usize
        } else {
            six_or_seven
        };
        if keep == LIMIT_PLAIN as usize && self.bluff > LIMIT_PLAIN && v.challenges_this_round() == 0 {
            keep = self.bluff as usize;
        }
        match (n as usize).saturating_sub(keep) {
            0 => 0,
            // The usual discard: one to three cards, found in one pass.
            out @ 1..=3 => least_valuable(hand, &wants, out),
            _ => hand & !Keyed::of(hand, &wants).best(keep),
        }
    }

    /// The hand challenge of the heuristics: nearly always nobody can be
    /// challenged, found here without a call; the choice among those who
    /// can is out of line.
    #[inline]
    fn challenge_choice(&self, v: &View<'_>) -> Option<usize> {
        let over = challengeable(v);
        if matches!(self.base, Base::Random) || over == 0 {
            return None;
        }
        self.challenge_among(v, over)
    }

    #[inline(never)]
    fn challenge_among(&self, v: &View<'_>, mut over: u32) -> Option<usize> {
        let q_max = f64::from(self.sheriff) / 1e6;
        let mut unseen_limit10: Option<CardSet> = None;
        let mut best: Option<(bool, f64, u32, usize)> = None;
        while over != 0 {
            let q = over.trailing_zeros() as usize;
            over &= over - 1;
            let n = v.hand_size(q);
            let sure = n >= 11 || v.penalised(q);
            let p = if sure {
                0.0
            } else if self.bluff_prior != 1_000_000 {
                // `bluff-prior:B`: the chance given that it kept more than seven.
                chance_given_over_limit(v, q, f64::from(self.bluff_prior) / 1e6)
            } else if q_max == 0.0 {
                // Only certain wins: no 7>>>10 or Any it could hold.
                // Some card of `q` unknown (nothing known is the usual
                // case, found without counting) while a 7>>>10 or Any is
                // unseen, or one known in its hand: no certain win.
                let u = *unseen_limit10.get_or_insert_with(|| v.unseen() & LIMIT10);
                let k = v.known(q);
                if k & LIMIT10 != 0 || (u != 0 && (k == 0 || count(k) < n)) {
                    continue;
                }
                0.0
            } else {
                chance_of_limit10(v, q)
            };
            if !(sure || p == 0.0 || p < q_max) {
                continue;
            }
            let better = match best {
                None => true,
                Some((bs, bp, bn, _)) => (sure && !bs) || (sure == bs && (p < bp || (p == bp && n > bn))),
            };
            if better {
                best = Some((sure, p, n, q));
            }
        }
        best.map(|b| b.3)
    }
}

/// The unseen cards grouped by what they do for a score: cards of one
/// group are interchangeable in any combined hand.
pub(super) struct Pool {
    /// (cards of the group, how many).
    groups: [(CardSet, u32); 32],
    len: usize,
    total: u32,
}

impl Pool {
    pub(super) fn of(unseen: CardSet) -> Pool {
        let mut groups = [(0, 0); 32];
        let mut len = 0;
        let mut add = |m: CardSet| {
            if m != 0 {
                groups[len] = (m, count(m));
                len += 1;
            }
        };
        for r in 0..RANKS {
            let gold = unseen & GOLD_OF[r];
            add(unseen & NAT[r] & !gold);
            add(gold);
        }
        add(unseen & ANY_CARDS);
        add(unseen & TWO_X_CARDS);
        add(unseen & ACTION_CARDS & !ANY_CARDS & !TWO_X_CARDS);
        Pool {
            groups,
            len,
            total: count(unseen),
        }
    }

    /// The exact expected score of `combined` plus `k` cards drawn without
    /// replacement from the pool.
    pub(super) fn expected(&self, combined: CardSet, k: u32) -> f64 {
        self.expected_capped(combined, k, u32::MAX)
    }

    /// As [`Pool::expected`], each score counted at most `cap`.
    pub(super) fn expected_capped(&self, combined: CardSet, k: u32, cap: u32) -> f64 {
        if self.total < k {
            return f64::from(points(combined).min(cap));
        }
        let mut sum = 0f64;
        self.walk(0, k, combined, 1.0, cap, &mut sum);
        sum / binom(self.total, k)
    }

    /// How many terms [`Pool::expected`] sums for `k` cards: the ways to
    /// choose `k` cards up to the groups (its cost).
    pub(super) fn leaves(&self, k: u32) -> f64 {
        let k = k as usize;
        if k >= 16 {
            return f64::INFINITY;
        }
        let mut ways = [0f64; 16];
        ways[0] = 1.0;
        for g in 0..self.len {
            let n = self.groups[g].1 as usize;
            // Ways for j cards: the sum of ways[j - t] for t = 0..=n.
            for j in (1..=k).rev() {
                let add: f64 = (1..=n.min(j)).map(|t| ways[j - t]).sum();
                ways[j] += add;
            }
        }
        ways[k]
    }

    fn walk(&self, from: usize, k: u32, m: CardSet, weight: f64, cap: u32, sum: &mut f64) {
        if k == 0 {
            *sum += weight * f64::from(points(m).min(cap));
            return;
        }
        for g in from..self.len {
            let (cards, n) = self.groups[g];
            let mut add = m;
            let mut rest = cards;
            for j in 1..=k.min(n) {
                let c = rest.trailing_zeros();
                rest &= rest - 1;
                add |= 1u128 << c;
                self.walk(g + 1, k - j, add, weight * binom(n, j), cap, sum);
            }
        }
    }
}

pub(super) fn binom(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut r = 1.0;
    for i in 0..k {
        r = r * f64::from(n - i) / f64::from(i + 1);
    }
    r
}

/// Shuffling a small list of seats.
trait ShuffleSeats {
    fn shuffle_usize(&mut self, v: &mut [usize]);
}

impl<D: Draw> ShuffleSeats for D {
    fn shuffle_usize(&mut self, v: &mut [usize]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            v.swap(i, j);
        }
    }
}

impl Chooser for Policy {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        match self.base {
            Base::Random => self.random_start(v, d),
            Base::Collector => self.collector_start(v),
            Base::Counter => super::counter::start(self, v, &Wants::of(v), d),
            Base::Rollout(k) => self.rollout_start(k, v, &Wants::of(v), d),
            Base::Ismcts(s) => super::search::start(self, s, v, d),
        }
    }

    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        match self.base {
            Base::Rollout(k) => return super::rollout::take_pick(self, k, v, target, d),
            Base::Ismcts(s) => return super::search::take_pick(self, s, v, target, d),
            _ => {}
        }
        let h = v.known(target);
        if matches!(self.base, Base::Random) {
            return nth(h, d.below(count(h)));
        }
        let wants = Wants::of(v);
        cards_of(h).max_by_key(|&c| (wants.value(c), c)).unwrap()
    }

    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        match self.base {
            Base::Rollout(k) => return super::rollout::block(self, k, v, by, func, d),
            Base::Ismcts(s) => return super::search::block(self, s, v, by, func, d),
            _ => {}
        }
        let b = v.hand() & BLOCK_CARDS;
        if b == 0 {
            return None;
        }
        if matches!(self.base, Base::Random) && d.below(2) == 0 {
            return None;
        }
        Some(b.trailing_zeros() as Card)
    }

    #[inline(always)]
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        if let Some(u) = self.challenge {
            let over = challengeable(v);
            return if over == 0 { None } else { user_challenge(u, v, over) };
        }
        match self.base {
            Base::Rollout(k) => return super::rollout::challenge(self, k, v, d),
            Base::Ismcts(s) => return super::search::challenge(self, s, v, d),
            _ => {}
        }
        self.challenge_choice(v)
    }

    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        match self.base {
            Base::Rollout(k) => return super::rollout::discard(self, k, v, limit, forced, d),
            Base::Ismcts(s) => return super::search::discard(self, s, v, limit, forced, d),
            _ => {}
        }
        let out = self.keep_discard(v, limit, forced, d);
        if matches!(self.base, Base::Counter) {
            return super::counter::discard(v, limit, forced, out);
        }
        out
    }

    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        match self.base {
            Base::Rollout(k) => return super::rollout::take_penalty(self, k, v, pile, d),
            Base::Ismcts(s) => return super::search::take_penalty(self, s, v, pile, d),
            _ => {}
        }
        if matches!(self.base, Base::Random) {
            let k = d.below(3.min(count(pile) + 1));
            return cards_of(pile).take(k as usize).fold(0, |m, c| m | bit(c));
        }
        let wants = Wants::of(v);
        Keyed::of(pile, &wants).best(2)
    }
}

/// One policy per seat.
#[derive(Clone, Debug)]
pub struct Seats {
    policies: Vec<Policy>,
}

impl Seats {
    /// `policies[s]` plays seat `s`.
    pub fn new(policies: Vec<Policy>) -> Seats {
        Seats { policies }
    }
}

impl Chooser for Seats {
    #[inline]
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        self.policies[v.seat()].start(v, d)
    }
    #[inline]
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        self.policies[v.seat()].take_pick(v, target, d)
    }
    #[inline]
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        self.policies[v.seat()].block(v, by, func, d)
    }
    // Always, with the policy's own `challenge`: both inlined into the
    // game loop, as they were before the batch loop moved to the engine
    // (left to the compiler, 1.35% more instructions on 1K games,
    // 2026-12-02; 0.28% more with both always inlined).
    #[inline(always)]
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        self.policies[v.seat()].challenge(v, d)
    }
    #[inline]
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        self.policies[v.seat()].discard(v, limit, forced, d)
    }
    #[inline]
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        self.policies[v.seat()].take_penalty(v, pile, d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::SimRng;
    use rand::SeedableRng;

    #[test]
    fn specs_print_back() {
        for s in [
            "collector",
            "random",
            "counter",
            "rollout:8",
            "thief",
            "caller:40",
            "bluffer:9",
            "sheriff:0.3",
            "counter+thief+caller:20+bluffer:8+sheriff:0.25",
            "no-deny",
            "thief+wild-any",
            "counter+no-deny+wild-any",
            "sheriff:0.3+bluff-prior:0.25",
        ] {
            assert_eq!(Policy::parse(s).unwrap().to_string(), s);
        }
        assert!(Policy::parse("caller:x").unwrap_err().contains("caller:x"));
        assert!(Policy::parse("random+thief").is_err());
        assert!(Policy::parse("caller:10+caller:20").is_err());
        assert!(Policy::parse("sheriff:2").is_err());
    }

    /// The wants by the rule's words, one rank at a time.
    fn wants_by_rank(combined: CardSet, hand: CardSet, discard: CardSet, deck: CardSet) -> (Rank, [i32; RANKS]) {
        let (nat, gd, gh, dead) = (rank_counts(combined), gold_counts(deck), gold_counts(hand), rank_counts(discard));
        let want = |r: usize| {
            8 * nibble(nat, r) as i32 + 3 * nibble(gd, r) as i32 + 6 * nibble(gh, r) as i32 - 3 * nibble(dead, r) as i32
        };
        let target = (0..RANKS).filter(|&r| r != EIGHT as usize).max_by_key(|&r| (want(r), r)).unwrap();
        let rv = std::array::from_fn(|r| match r {
            _ if r == EIGHT as usize => 8_000,
            _ if r == target => 20 * want(r) + 2_000,
            _ => 20 * want(r),
        });
        (target as Rank, rv)
    }

    #[test]
    fn wants_match_the_rank_by_rank_rule_on_random_hands_and_piles() {
        let mut rng = SimRng::seed_from_u64(15);
        for decks in [1, 2] {
            let deck = Deck::standard(decks).all;
            for _ in 0..20_000 {
                // Each card of the deck to the hand, the community, the
                // discard pile or elsewhere; dense piles reach the extremes.
                let (mut hand, mut com, mut discard) = (0, 0, 0);
                let dense = rng.below(4) == 0;
                for c in cards_of(deck) {
                    match rng.below(if dense { 3 } else { 12 }) {
                        0 => hand |= bit(c),
                        1 => discard |= bit(c),
                        2 if rng.below(4) == 0 => com |= bit(c),
                        _ => {}
                    }
                }
                let w = Wants::from_sets(hand | com, hand, discard, deck);
                let (target, rv) = wants_by_rank(hand | com, hand, discard, deck);
                assert_eq!(w.target, target, "hand {} discard {}", names(hand), names(discard));
                for c in cards_of(deck) {
                    let want = match action(c) {
                        Some(a) => ACTION_VALUE[usize::from(a)],
                        None => rv[usize::from(rank(c).unwrap())] + CARD_GOLD_BONUS[usize::from(c)],
                    };
                    assert_eq!(w.value(c), want, "{}", name(c));
                }
            }
        }
    }

    #[test]
    fn the_best_k_cards_are_the_k_highest_values() {
        let mut rng = SimRng::seed_from_u64(16);
        let deck = Deck::standard(2).all;
        for _ in 0..5_000 {
            let n = 1 + rng.below(30);
            let mut set = 0;
            while count(set) < n {
                set |= bit(nth(deck, rng.below(count(deck))));
            }
            let w = Wants::from_sets(set, set, 0, deck);
            let mut sorted: Vec<Card> = cards_of(set).collect();
            sorted.sort_by_key(|&c| std::cmp::Reverse((w.value(c), c)));
            for k in 0..=n as usize + 1 {
                let want = sorted.iter().take(k).fold(0, |m, &c| m | bit(c));
                assert_eq!(Keyed::of(set, &w).best(k), want, "k {k} of {}", names(set));
                if (1..=3).contains(&(n as usize).saturating_sub(k)) {
                    assert_eq!(least_valuable(set, &w, n as usize - k), set & !want, "drop {} of {}", n as usize - k, names(set));
                }
                let mask = set & LIMIT10;
                let among = sorted.iter().take(k).any(|&c| bit(c) & mask != 0);
                assert_eq!(among_most_valuable(set, &w, k, mask), among);
            }
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binom(5, 2), 10.0);
        assert_eq!(binom(40, 3), 9880.0);
    }
}
