//! Flip-Flush policies: when to call a Flush, which card to flip, where to
//! place. A policy is parsed from a spec string and sees the game only
//! through a [`View`] (what its player knows).
//!
//! # Spec grammar
//!
//! ```text
//! SPEC  = "default" | PART ("+" PART)* | "ismcts:" N ["+playout:" SPEC]
//! PART  = CALL | READ | STEP
//! CALL  = "call-at:" P ["/" P] | "never-call" | "sure-only"  (at most one)
//! READ  = "read:" Q | "worlds:" K ["/" Q] | "count"      (at most one)
//! STEP  = "flip-likely" | "flip-own" | "flip-safe"
//!       | "place-block" | "place-build" | "place-random"
//!       | "place-trap" | "place-hot"                      (each at most once)
//! ```
//!
//! Parts not given are the default policy's: its call rule, its model of
//! the opponents, its steps. `count` asks for counted chances (no model).
//! `default` is [`DEFAULT_SPEC`]. `ismcts:N` is the search of
//! [`super::search`], with the default policy or `SPEC` below its tree.
//!
//! # Odds
//!
//! For each face-down cell the policy computes, by exact counting, the
//! chance `p` that flipping it makes a new Flush. A Flush needs all three
//! cards of a line face-up, so only lines whose other two cells are face-up
//! and of one suit matter; the flip makes a Flush exactly when its card has
//! one of those suits. If the player remembers the card, `p` is 0 or 1;
//! otherwise the card is equally likely to be any unseen card
//! ([`View::unseen`]), so `p` = unseen cards of those suits / unseen cards.
//! Other face-down cards cannot complete a line through this cell (they stay
//! face-down), so they do not enter the count; the unit tests check this
//! against a brute-force enumeration of every way the unseen cards can lie
//! on the unknown cells.
//!
//! # Reading opponents (`read:Q`)
//!
//! Counting treats every card the player does not know alike. With
//! `read:Q` the player also reads the public history of a hot face-down
//! card it does not know that was placed while its cell was hot: it
//! assumes the placer (opponent, or the player itself when it forgot the
//! card) plays this level-1 model: "when my cell is hot and I hold cards of
//! a demanded suit and of another, I place a demanded one with probability
//! Q; with only one kind, one of that kind", and that the placer's hand
//! then was its (public) number of cards drawn at random from the cards the
//! reader has not seen. The chance `p` of such a cell is the posterior
//! under that model ([`belief_chance`]): `read:0` expects traps and blocks
//! with another suit (what `place-block` and `place-trap` do), `read:1`
//! expects every hot placement to be an attempt (`place-hot`). Each Place
//! is read on its own (two Places of one player are not tied together) and
//! a card placed before its cell was hot is counted as without `read`. The
//! unit tests check the formula against an enumeration of every hand.
//!
//! # Reading the whole history (`worlds:K/Q`)
//!
//! `worlds:K/Q` assumes the same level-1 placer as `read:Q` but reads every
//! Place of the game together, with each player's hand followed through
//! its Places, and reads "placed and then protected": an opponent that
//! leaves its own card face-down on a hot cell through its turn would have
//! flipped and called it had it been a demanded suit it remembers. The
//! chance of every hot face-down card the player does not know is a
//! posterior estimated from `K` worlds (see [`super::worlds`]); `Q` is 0.1
//! when not given.
//!
//! # Call rules (used on every flip, whichever step chose it)
//!
//! - `call-at:P`: call when `p >= P` (P from 0 to 1, up to six decimals;
//!   `call-at:0` always calls).
//! - `call-at:P/Q`: `call-at:P` at a table of three or more players,
//!   `call-at:Q` at a table of two, where a wrong call hands the game to
//!   the other player (the default: `call-at:0.15/0.5`).
//! - `never-call`: never call.
//! - `sure-only`: call only when `p = 1`.
//!
//! # Steps, tried in the order written; the first that proposes a move wins
//!
//! - `flip-likely`: flip the face-down cell with the highest `p`, if the call
//!   rule calls there (and `p > 0`): going for the win.
//! - `flip-own`: flip a remembered card that completes a Flush for certain
//!   (if the call rule calls at `p = 1`); otherwise make progress on an own
//!   known line (a line whose three cards are all known to the player, of
//!   one suit, face-up or remembered) by flipping one of its remembered
//!   face-down cards while at least one other stays face-down (a safe flip,
//!   lines with more face-up cards first).
//! - `flip-safe`: flip a cell with `p = 0`: the one least likely to leave a
//!   hot cell behind (a line with two face-up cards of one suit whose third
//!   cell is not face-up, which the next players can attack), counted
//!   exactly like `p`; ties to cards the player does not know (keeping
//!   remembered, safe-to-flip cards for later).
//! - `place-block`: when a line has two face-up cards of one suit and its
//!   third cell (a hot cell) is empty or holds a face-down card placed by an
//!   opponent still in the game (who may know it completes the line), cover
//!   that cell: with the card of a suit not demanded there that the build
//!   score likes best, when the player holds one (the cell is then safe for
//!   the player), else with a card of a demanded suit.
//!   Opponents' cards come first, the most suspicious first: 1 point, plus
//!   one per face-up card of the hot line(s) the same opponent placed, plus
//!   4 if the card was placed on the cell while it was already hot (public
//!   history); ties go to the opponent who plays soonest. Empty hot cells
//!   come last.
//! - `place-build`: place the card and cell that most raise the player's
//!   build score, if anything raises it. Each line scores 0, 1, 4 or 16 for
//!   0, 1, 2 or 3 cards the player knows to be of one suit (face-up or
//!   remembered; 0 as soon as it holds known cards of two suits); the score
//!   is the sum over the eight lines, less 1 for covering a face-down card
//!   the player does not know. A card goes on an empty cell, or covers a
//!   card only to extend a line in which the player already knows cards,
//!   all of the placed card's suit; so once the grid is full and nothing
//!   extends, `place-build` passes to the next step. The lowest card of the
//!   suit is used.
//! - `place-random`: a uniformly random hand card on a uniformly random cell.
//! - `place-trap`: on a hot cell that is empty or holds a face-down card
//!   the player does not know (the most likely Flush first, then empty hot
//!   cells), place a card of a suit that is **not** demanded there: it
//!   blocks, and it is a trap for an opponent who reads the Place as an
//!   attempt and calls. Passes when every held suit is demanded.
//! - `place-hot`: the same cells, a card of a demanded suit: the player
//!   remembers it and can flip and call it next turn, if nobody covers or
//!   flips it first.
//!
//! When no step proposes a move the player still must move: a flip with
//! `p = 0` if there is one (as `flip-safe`), else a Place by the build score
//! if the hand is not empty, else the flip with the lowest `p`. Every flip
//! then gets the call rule's answer. Ties go to the lowest cell, then the
//! lowest suit.

use std::fmt;

use super::cards::{ALL_CELLS, CELLS, Card, CardSet, LINES, LINES_THROUGH, SUITS, suit, suit_set};
use super::rules::{Chooser, MEMORY_ONE, Move, View};
use super::search::Searched;
use super::worlds::Problem;
use super::FlipFlush;
use crate::engine::custom::{self, Custom, Decision, User};
use crate::engine::game::Game;
use crate::engine::rng::Draw;

/// The default policy, also spelled `default`.
pub const DEFAULT_SPEC: &str = "call-at:0.15/0.5+read:0.1+flip-likely+place-trap+flip-safe+place-build";

/// Spec forms accepted by [`Policy::parse`], for error messages and help.
pub const ACCEPTED: &str = "default, or parts joined by +: one call rule (call-at:P or call-at:P/Q with P, Q from 0 \
                            to 1, never-call, sure-only), at most one model of the opponents \
                            (read:Q with Q from 0 to 1, worlds:K or worlds:K/Q with K from 1 to 100000, \
                            or count) and steps tried in order (flip-likely, \
                            flip-own, flip-safe, place-block, place-build, place-random, \
                            place-trap, place-hot), e.g. call-at:0.15+read:0+flip-likely+place-trap+flip-safe+place-build";

/// When to call a Flush before a flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// `call-at:P`: call when the chance is at least P (in millionths).
    At(u32),
    /// `call-at:P/Q`: call-at:P at a table of three or more players,
    /// call-at:Q at a table of two (where a wrong call hands the game to
    /// the other player, and a tie is rare).
    Split(u32, u32),
    /// `never-call`.
    Never,
    /// `sure-only`: call only when certain.
    SureOnly,
    /// A user policy's call rule, written as code and registered by the
    /// program ([`crate::cli::Builder::policy`]): asked with the player's
    /// [`PlayerView`] and the chance of a new Flush.
    User(User<CallRule>),
}

/// The call rule of a user policy: given what the player knows and the
/// chance (0 to 1) that the flip makes a new Flush, `true` to call.
pub type CallRule = dyn Fn(&PlayerView<'_>, f64) -> bool + Send + Sync;

impl Call {
    /// Whether to call when the chance of a new Flush is `num / den`.
    #[inline(always)]
    pub fn calls(self, num: u32, den: u32) -> bool {
        match self {
            Call::At(p) | Call::Split(p, _) => u64::from(num) * u64::from(MEMORY_ONE) >= u64::from(p) * u64::from(den),
            Call::Never => false,
            Call::SureOnly => num == den && den > 0,
            Call::User(_) => unreachable!("a user call rule is asked with its view, by Sight::calls"),
        }
    }

    /// The rule that applies at a table of `players`: `call-at:Q` of a
    /// `call-at:P/Q` at a table of two, else the rule itself.
    #[inline(always)]
    pub fn with_players(self, players: u32) -> Call {
        match self {
            Call::Split(_, q) if players <= 2 => Call::At(q),
            Call::Split(p, _) => Call::At(p),
            c => c,
        }
    }
}

/// One move heuristic (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `flip-likely`.
    FlipLikely,
    /// `flip-own`.
    FlipOwn,
    /// `flip-safe`.
    FlipSafe,
    /// `place-block`.
    PlaceBlock,
    /// `place-build`.
    PlaceBuild,
    /// `place-random`.
    PlaceRandom,
    /// `place-trap`.
    PlaceTrap,
    /// `place-hot`.
    PlaceHot,
}

const STEP_NAMES: [(Step, &str); 8] = [
    (Step::FlipLikely, "flip-likely"),
    (Step::FlipOwn, "flip-own"),
    (Step::FlipSafe, "flip-safe"),
    (Step::PlaceBlock, "place-block"),
    (Step::PlaceBuild, "place-build"),
    (Step::PlaceRandom, "place-random"),
    (Step::PlaceTrap, "place-trap"),
    (Step::PlaceHot, "place-hot"),
];

/// Most steps in one policy (each at most once).
pub const MAX_STEPS: usize = STEP_NAMES.len();

/// The model of the opponents: where a player's chances come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// `count`: every card the player does not know is any unseen card.
    Count,
    /// `read:Q` (Q in millionths): each hot Place read on its own.
    Read(u32),
    /// `worlds:K/Q` (Q in millionths): the whole history, from K sampled
    /// worlds ([`super::worlds`]).
    Worlds(u32, u32),
}

/// `Q` of `worlds:K` when not given.
pub const WORLDS_Q: u32 = 100_000;

/// Most worlds a `worlds:K` model may draw.
pub const MAX_WORLDS: u32 = 100_000;

/// A policy: a call rule and an ordered list of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The call rule.
    pub call: Call,
    /// The model of the opponents.
    pub model: Model,
    steps: [Step; MAX_STEPS],
    len: u8,
    /// `ismcts:N` (`+playout:SPEC`): every move is searched
    /// ([`super::search`]); the other fields are then the playout's.
    pub search: Option<&'static Searched>,
}

impl Policy {
    /// A policy from its parts.
    pub fn new(call: Call, steps: &[Step]) -> Policy {
        assert!(steps.len() <= MAX_STEPS);
        let mut s = [Step::FlipSafe; MAX_STEPS];
        s[..steps.len()].copy_from_slice(steps);
        Policy {
            call,
            model: Model::Count,
            steps: s,
            len: steps.len() as u8,
            search: None,
        }
    }

    /// The policy `ismcts:N` (`+playout:SPEC`) of `searched`.
    pub fn searching(searched: &'static Searched) -> Policy {
        Policy {
            search: Some(searched),
            ..searched.playout
        }
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// The default policy ([`DEFAULT_SPEC`]).
    pub fn default_policy() -> Policy {
        Policy::parse(DEFAULT_SPEC).expect("the default spec parses")
    }

    /// Parses a spec (see the module docs); a call rule may be a user
    /// policy's (see [`crate::cli::Builder::policy`]).
    pub fn parse(spec: &str) -> Result<Policy, String> {
        Policy::parse_spec(spec).map_err(|e| e + &custom::accepted(<FlipFlush as Game>::NAME))
    }

    fn parse_spec(spec: &str) -> Result<Policy, String> {
        let spec = spec.trim();
        if spec == "default" {
            return Policy::parse(DEFAULT_SPEC);
        }
        let playouts = spec.split('+').filter(|part| part.trim().starts_with("playout:")).count();
        if spec.starts_with("ismcts:") && playouts > 1 {
            return Err(format!("'{spec}': playout is chosen twice (ismcts:N+playout:SPEC)"));
        }
        if let Some(searched) = super::search::parse(spec) {
            return searched;
        }
        let mut call = None;
        let mut read = None;
        let mut steps = Vec::new();
        for part in spec.split('+').map(str::trim) {
            let bad = |e: String| format!("{}: {e}; accepted: {ACCEPTED}", part_in(part, spec));
            let this_read = if let Some(q) = part.strip_prefix("read:") {
                Some(Model::Read(parse_probability(q, "Q").map_err(bad)?))
            } else if let Some(kq) = part.strip_prefix("worlds:") {
                let (k, q) = kq.split_once('/').unwrap_or((kq, ""));
                let k = k
                    .parse::<u32>()
                    .ok()
                    .filter(|k| (1..=MAX_WORLDS).contains(k))
                    .ok_or_else(|| bad(format!("K must be a whole number from 1 to {MAX_WORLDS}, found '{k}'")))?;
                let q = if kq.contains('/') {
                    parse_probability(q, "Q").map_err(bad)?
                } else {
                    WORLDS_Q
                };
                Some(Model::Worlds(k, q))
            } else if part == "count" {
                Some(Model::Count)
            } else {
                None
            };
            if let Some(r) = this_read {
                if read.is_some() {
                    return Err(format!(
                        "'{spec}' has two models of the opponents (read:Q, worlds:K, count); give at most one; accepted: {ACCEPTED}"
                    ));
                }
                read = Some(r);
                continue;
            }
            let this_call = if let Some(p) = part.strip_prefix("call-at:") {
                let prob = |p: &str, name: &str| {
                    parse_probability(p, name)
                        .map_err(|e| format!("{}: {e}; accepted: {ACCEPTED}", part_in(part, spec)))
                };
                Some(match p.split_once('/') {
                    None => Call::At(prob(p, "P")?),
                    Some((many, two)) => Call::Split(prob(many, "P")?, prob(two, "Q")?),
                })
            } else if part == "never-call" {
                Some(Call::Never)
            } else if part == "sure-only" {
                Some(Call::SureOnly)
            } else if let Some(user) = custom::parse::<CallRule>(<FlipFlush as Game>::NAME, part) {
                Some(Call::User(user.map_err(|e| format!("{e}; accepted: {ACCEPTED}"))?))
            } else {
                None
            };
            if let Some(c) = this_call {
                if call.is_some() {
                    return Err(format!(
                        "'{spec}' has two call rules; give at most one; accepted: {ACCEPTED}"
                    ));
                }
                call = Some(c);
                continue;
            }
            let Some(&(step, _)) = STEP_NAMES.iter().find(|(_, n)| *n == part) else {
                let shown = if part.is_empty() { "an empty part" } else { part };
                let what = if spec == part {
                    format!("unknown policy '{spec}'")
                } else {
                    format!("unknown part '{shown}' in policy '{spec}'")
                };
                return Err(format!("{what}; accepted: {ACCEPTED}"));
            };
            if steps.contains(&step) {
                return Err(format!(
                    "'{part}' appears twice in '{spec}'; accepted: {ACCEPTED}"
                ));
            }
            steps.push(step);
        }
        // Parts not given are the default policy's.
        let default = (spec != DEFAULT_SPEC).then(Policy::default_policy);
        let call = call.or(default.map(|d| d.call)).unwrap_or(Call::At(MEMORY_ONE / 2));
        let model = read.or(default.map(|d| d.model)).unwrap_or(Model::Count);
        if steps.is_empty()
            && let Some(d) = default
        {
            steps = d.steps().to_vec();
        }
        let mut p = Policy::new(call, &steps);
        p.model = model;
        Ok(p)
    }

    /// Parses a comma-separated list of specs (one per seat, or one for all).
    pub fn parse_list(text: &str) -> Result<Vec<Policy>, String> {
        text.split(',').map(Policy::parse).collect()
    }

    /// The move of the player whose view is `v`.
    #[inline]
    pub fn choose<D: Draw>(&self, v: &View<'_>, d: &mut D) -> Move {
        if let Some(s) = self.search {
            return super::search::choose(v, s, d);
        }
        // Leading place-random steps need no odds: try them first.
        let steps = self.steps();
        let mut first = 0;
        while first < steps.len() && steps[first] == Step::PlaceRandom {
            if let Some(m) = place_random(v.hand(), d) {
                return m;
            }
            first += 1;
        }
        let s = Sight::with_model(v, self.model, d);
        let call = self.call.with_players(v.players() as u32);
        for &step in &steps[first..] {
            let m = match step {
                Step::FlipLikely => s.flip_likely(call),
                Step::FlipOwn => s.flip_own(call),
                Step::FlipSafe => s.flip_safe(call),
                Step::PlaceBlock => s.place_block(),
                Step::PlaceBuild => s.place_build(false),
                Step::PlaceRandom => place_random(s.hand, d),
                Step::PlaceTrap => s.place_hot_cell(false),
                Step::PlaceHot => s.place_hot_cell(true),
            };
            if let Some(m) = m {
                return m;
            }
        }
        s.forced(call)
    }
}

/// A user call rule's answer at a chance of `num / den` (0 when there is
/// nothing to count).
#[inline(never)]
fn user_calls(u: User<CallRule>, v: &View<'_>, num: u32, den: u32) -> bool {
    let chance = if den == 0 { 0.0 } else { f64::from(num) / f64::from(den) };
    (u.decide())(&PlayerView { v: *v }, chance)
}

impl Custom for FlipFlush {
    type Decide = CallRule;
    const DECIDES: &'static str = "a call rule: one part of a spec, beside the model and the steps";
}

impl<F: Fn(&PlayerView<'_>, f64) -> bool + Send + Sync + 'static> Decision<FlipFlush> for F {
    fn boxed(self) -> Box<CallRule> {
        Box::new(self)
    }
}

/// What a Flip-Flush player may know when it decides whether to call a
/// Flush before a flip: who is still in, the hands' sizes, the pot. (The
/// chance of a new Flush comes beside it, counted by the policy's model.)
///
/// ```
/// use sim::games::flip_flush::policies::PlayerView;
/// // Call at even odds, or at 30% when only two players are left.
/// let bolder_heads_up = |v: &PlayerView, chance: f64| {
///     chance >= if v.alive_count() <= 2 { 0.3 } else { 0.5 }
/// };
/// # let _ = bolder_heads_up;
/// ```
#[derive(Clone, Copy)]
pub struct PlayerView<'a> {
    v: View<'a>,
}

impl<'a> PlayerView<'a> {
    /// The view of `seat` at table `t` (for tests of a rule).
    pub fn new(t: &'a super::rules::Table, seat: usize) -> PlayerView<'a> {
        PlayerView { v: t.view(seat) }
    }

    /// The deciding player's seat (0 is the first player).
    pub fn seat(&self) -> usize {
        self.v.seat()
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.v.players()
    }

    /// Whether player `seat` is still in the game.
    pub fn is_alive(&self, seat: usize) -> bool {
        self.v.alive_mask() & (1 << seat) != 0
    }

    /// Players still in the game.
    pub fn alive_count(&self) -> usize {
        self.v.alive_mask().count_ones() as usize
    }

    /// Cards in the hand of player `seat` (public).
    pub fn hand_size(&self, seat: usize) -> u32 {
        self.v.hand_len(seat)
    }

    /// Cards in the deciding player's own hand.
    pub fn my_hand_size(&self) -> u32 {
        self.v.hand().count_ones()
    }

    /// Whether the table plays the gambling variant.
    pub fn gambling(&self) -> bool {
        self.v.gambling()
    }

    /// The pot (gambling; 0 otherwise).
    pub fn pot(&self) -> u32 {
        self.v.pot()
    }

    /// Moves played this game so far.
    pub fn moves(&self) -> usize {
        self.v.history_len()
    }
}

/// Parses a probability from 0 to 1 with up to six decimals, in millionths
/// (also used for `--memory`). `name` is the parameter as the spec forms
/// name it (`P` of `call-at:P`, `Q` of `read:Q`), for the error.
pub fn parse_probability(text: &str, name: &str) -> Result<u32, String> {
    let bad = || format!("{name} must be a number from 0 to 1 with at most six decimals, found '{text}'");
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if (whole.is_empty() && frac.is_empty())
        || frac.len() > 6
        || !whole.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        || whole.len() > 1
    {
        return Err(bad());
    }
    let w: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let f: u32 = if frac.is_empty() {
        0
    } else {
        frac.parse::<u32>().map_err(|_| bad())? * 10u32.pow(6 - frac.len() as u32)
    };
    let p = w * MEMORY_ONE + f;
    if p > MEMORY_ONE {
        return Err(bad());
    }
    Ok(p)
}

/// A probability in millionths, written shortest: `1`, `0`, `0.25`.
fn millionths(p: u32) -> String {
    let (whole, frac) = (p / MEMORY_ONE, p % MEMORY_ONE);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{frac:06}").trim_end_matches('0'))
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.search {
            write!(f, "ismcts:{}", s.n)?;
            if s.playout != Policy::default_policy() {
                write!(f, "+playout:{}", s.playout)?;
            }
            return Ok(());
        }
        match self.call {
            Call::At(p) => write!(f, "call-at:{}", millionths(p))?,
            Call::Split(p, q) => write!(f, "call-at:{}/{}", millionths(p), millionths(q))?,
            Call::Never => write!(f, "never-call")?,
            Call::SureOnly => write!(f, "sure-only")?,
            Call::User(u) => write!(f, "{u}")?,
        }
        match self.model {
            Model::Read(q) => write!(f, "+read:{}", millionths(q))?,
            Model::Worlds(k, q) => write!(f, "+worlds:{k}/{}", millionths(q))?,
            Model::Count => write!(f, "+count")?,
        }
        for step in self.steps() {
            let name = STEP_NAMES.iter().find(|(s, _)| s == step).expect("named").1;
            write!(f, "+{name}")?;
        }
        Ok(())
    }
}

/// Bits set in a 9-bit cell mask (a table: cheaper than a software popcount).
const POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

#[inline(always)]
fn pop9(m: u16) -> u32 {
    u32::from(POP9[usize::from(m) & 511])
}

/// Build score of a line by the number of cards the player knows in it.
const LINE_WEIGHT: [i32; 4] = [0, 1, 4, 16];

/// Build score lost by covering a face-down card the player does not know.
const COVER_COST: i32 = 1;

/// Cards set in each 13-bit suit slice of a card set.
const POP13: [u8; 1 << 13] = {
    let mut t = [0u8; 1 << 13];
    let mut i = 0;
    while i < 1 << 13 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The three cells of each line of [`LINES`], in order.
const LINE_CELLS: [[usize; 3]; 8] = {
    let mut t = [[0usize; 3]; 8];
    let mut l = 0;
    while l < 8 {
        let mut j = 0;
        let mut c = 0;
        while c < CELLS {
            if LINES[l] & (1 << c) != 0 {
                t[l][j] = c;
                j += 1;
            }
            c += 1;
        }
        l += 1;
    }
    t
};

/// For a line whose three cells have face-up codes `a`, `b`, `c` (0: not
/// face-up, else 1 + suit), indexed by `a | b << 3 | c << 6`: for each
/// position `j`, byte `j` holds in its low four bits the suits that would
/// complete the line there (the other two face-up and of that suit), and in
/// its high four bits the suits that, flipped there, would leave the line
/// with two face-up cards of one suit and a third cell not face-up.
const LINE_TABLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut key = 0;
    while key < 512 {
        let codes = [key & 7, (key >> 3) & 7, (key >> 6) & 7];
        let mut valid = true;
        let mut j = 0;
        while j < 3 {
            if codes[j] > 4 {
                valid = false;
            }
            j += 1;
        }
        if valid {
            let mut entry = 0u32;
            let mut j = 0;
            while j < 3 {
                if codes[j] == 0 {
                    let (x, y) = (codes[(j + 1) % 3], codes[(j + 2) % 3]);
                    if x != 0 && x == y {
                        entry |= 1 << (x - 1) << (8 * j);
                    }
                    if (x == 0) != (y == 0) {
                        let s = x + y - 1;
                        entry |= 1 << s << (8 * j + 4);
                    }
                }
                j += 1;
            }
            t[key] = entry;
        }
        key += 1;
    }
    t
};

/// What a player knows at the start of a turn, and the exact odds of every
/// flip, computed once per decision.
#[derive(Clone, Copy)]
pub struct Sight<'a> {
    v: View<'a>,
    hand: CardSet,
    up: u16,
    down: u16,
    empty: u16,
    /// Remembered face-down cells.
    known: u16,
    /// Cells the player knows hold suit `s` (face-up or remembered).
    mine: [u16; SUITS],
    /// Suit of each remembered face-down card.
    known_suit: [u8; CELLS],
    /// For each cell, the suits (bit mask) that would complete a line
    /// through it whose other two cells are face-up.
    demand: [u8; CELLS],
    /// For each cell, the suits (bit mask) that, flipped there, would leave
    /// a hot cell: a line through it has exactly one face-up card, of that
    /// suit.
    expose: [u8; CELLS],
    /// Cells with a non-empty `demand`: hot cells.
    hot: u16,
    /// Unseen cards of each set of suits (indexed by a suit bit mask).
    unseen: [u32; 16],
    unseen_total: u32,
    /// Cells whose chance comes from the belief model (`read:Q`) rather
    /// than from counting, and that chance, in units of [`BELIEF_ONE`].
    read_cells: u16,
    belief: [u32; CELLS],
}

/// The denominator of a chance computed by the belief model.
pub const BELIEF_ONE: u32 = 1 << 24;

/// The belief model's chance that the face-down card on a cell has one of
/// the suits `want`, as a fraction of [`BELIEF_ONE`] (see the module docs,
/// "Reading opponents").
///
/// The card was placed on the cell while the suits `then` (not 0) would
/// have completed a line there, by a player who held `hand` cards just
/// before; `unseen[m]` is the number of cards of the suits `m` the reader
/// has not seen. The model: that hand was `hand` cards drawn at random from
/// the unseen cards (the placed card among them), and its holder put a card
/// of a suit in `then` there with probability `q` (millionths) when the hand
/// held cards of both kinds, a card of `then` when it held only those, and
/// another card when it held none. The suit of the card is then, within each
/// kind, in proportion to the unseen cards of each suit.
pub fn belief_chance(want: u8, then: u8, hand: u32, q: u32, unseen: &[u32; 16]) -> u32 {
    let total = unseen[15];
    let fits = unseen[usize::from(then)];
    let rest = total - fits;
    let (want_fit, want_rest) = (unseen[usize::from(want & then)], unseen[usize::from(want & !then & 15)]);
    if want_fit + want_rest == 0 {
        return 0;
    }
    if want_fit == fits && want_rest == rest {
        return BELIEF_ONE;
    }
    let h = hand.min(total);
    // Chances that the hand held no card of `then`, and only such cards.
    let (mut none, mut only) = (1f64, 1f64);
    for i in 0..h {
        let left = f64::from(total - i);
        none *= f64::from(rest.saturating_sub(i)) / left;
        only *= f64::from(fits.saturating_sub(i)) / left;
    }
    let q = f64::from(q) / f64::from(MEMORY_ONE);
    let fit = q * (1.0 - none - only) + only;
    let mut p = 0.0;
    if fits > 0 {
        p += fit * f64::from(want_fit) / f64::from(fits);
    }
    if rest > 0 {
        p += (1.0 - fit) * f64::from(want_rest) / f64::from(rest);
    }
    // Rounded up (a chance above 0 stays above 0), and never 1 unless
    // certain.
    ((p * f64::from(BELIEF_ONE)).ceil() as u32).min(BELIEF_ONE - 1)
}

impl<'a> Sight<'a> {
    /// Everything the policies use, from the player's view, the chances
    /// counted (no model of the opponents).
    #[inline]
    pub fn new(v: &View<'a>) -> Sight<'a> {
        Sight::reading(v, None)
    }

    /// Everything the policies use, from the player's view, with the chances
    /// of `model`; `worlds:K` draws its worlds from one number of `d`, drawn
    /// only when some cell is read.
    #[inline]
    pub fn with_model<D: Draw>(v: &View<'a>, model: Model, d: &mut D) -> Sight<'a> {
        match model {
            Model::Count => Sight::reading(v, None),
            Model::Read(q) => Sight::reading(v, Some(q)),
            Model::Worlds(k, q) => {
                let mut s = Sight::reading(v, None);
                let targets = s.hot & s.down & !s.known;
                if targets != 0 {
                    let seed = u64::from(d.below(u32::MAX)) << 32 | u64::from(d.below(u32::MAX));
                    let problem = Problem::from_view(v, targets, &s.demand, q);
                    if let Some(p) = problem.sample(k, seed, BELIEF_ONE) {
                        for (&(cell, _, _), p) in problem.targets.iter().zip(p) {
                            s.read_cells |= 1 << cell;
                            s.belief[cell] = p;
                        }
                    }
                }
                s
            }
        }
    }

    /// Everything the policies use, from the player's view; with
    /// `read: Some(q)` the chance of a hot face-down card the player does
    /// not know that was placed while its cell was hot comes from the belief
    /// model [`belief_chance`] with parameter `q`.
    #[inline]
    pub fn reading(v: &View<'a>, read: Option<u32>) -> Sight<'a> {
        let up = v.up();
        let down = v.down();
        let known = v.known();
        let mut mine: [u16; SUITS] = std::array::from_fn(|s| v.suit_up(s));
        let mut demand = [0u8; CELLS];
        let mut expose = [0u8; CELLS];
        let code = v.up_code();
        for cells in &LINE_CELLS {
            let key = cells
                .iter()
                .enumerate()
                .fold(0, |k, (j, &c)| k | ((code >> (3 * c)) & 7) << (3 * j));
            let t = LINE_TABLE[key as usize];
            if t == 0 {
                continue;
            }
            for (j, &c) in cells.iter().enumerate() {
                demand[c] |= (t >> (8 * j)) as u8 & 0xF;
                expose[c] |= (t >> (8 * j + 4)) as u8 & 0xF;
            }
        }
        let mut hot = 0u16;
        for (c, &d) in demand.iter().enumerate() {
            hot |= u16::from(d != 0) << c;
        }
        let mut known_suit = [0u8; CELLS];
        let mut k = known;
        while k != 0 {
            let cell = k.trailing_zeros() as usize;
            k &= k - 1;
            if let Some(c) = v.known_card(cell) {
                let su = suit(c);
                mine[su] |= 1 << cell;
                known_suit[cell] = su as u8;
            }
        }
        let u = v.unseen();
        let mut unseen = [0u32; 16];
        for s in 0..SUITS {
            unseen[1 << s] = u32::from(POP13[(u >> (13 * s)) as usize & 0x1FFF]);
        }
        for m in 3..16 {
            if m & (m - 1) != 0 {
                unseen[m] = unseen[m & (m - 1)] + unseen[m & m.wrapping_neg()];
            }
        }
        let mut read_cells = 0u16;
        let mut belief = [0u32; CELLS];
        if let Some(q) = read {
            let mut m = hot & down & !known;
            while m != 0 {
                let cell = m.trailing_zeros() as usize;
                m &= m - 1;
                let then = v.placed_demand(cell);
                if then != 0 {
                    read_cells |= 1 << cell;
                    belief[cell] = belief_chance(demand[cell], then, v.placed_hand(cell), q, &unseen);
                }
            }
        }
        Sight {
            v: *v,
            hand: v.hand(),
            up,
            down,
            empty: ALL_CELLS & !(up | down),
            known,
            mine,
            known_suit,
            demand,
            expose,
            hot,
            unseen,
            unseen_total: unseen[15],
            read_cells,
            belief,
        }
    }

    /// The exact chance, as `(num, den)`, that flipping the face-down `cell`
    /// makes a new Flush, given what the player knows.
    #[inline(always)]
    pub fn chance(&self, cell: usize) -> (u32, u32) {
        let want = self.demand[cell];
        if self.known & (1 << cell) != 0 {
            let s = self.known_suit(cell);
            return (u32::from(want >> s & 1), 1);
        }
        if self.read_cells & (1 << cell) != 0 {
            return (self.belief[cell], BELIEF_ONE);
        }
        (self.unseen[usize::from(want)], self.unseen_total)
    }

    #[inline(always)]
    fn known_suit(&self, cell: usize) -> usize {
        usize::from(self.known_suit[cell])
    }

    /// Whether `call` calls at a chance of `num / den`: a user rule is
    /// asked (out of line) with the player's view.
    #[inline(always)]
    fn calls(&self, call: Call, num: u32, den: u32) -> bool {
        match call {
            Call::User(u) => user_calls(u, &self.v, num, den),
            c => c.calls(num, den),
        }
    }

    /// A flip of `cell` with the call rule's answer.
    #[inline(always)]
    fn flip(&self, cell: usize, call: Call) -> Move {
        let (n, d) = self.chance(cell);
        Move::Flip {
            cell,
            call: self.calls(call, n, d),
        }
    }

    /// `flip-likely`.
    fn flip_likely(&self, call: Call) -> Option<Move> {
        let mut best: Option<(usize, u32, u32)> = None;
        let mut m = self.down & self.hot;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            let (n, d) = self.chance(cell);
            if n == 0 {
                continue;
            }
            if best.is_none_or(|(_, bn, bd)| u64::from(n) * u64::from(bd) > u64::from(bn) * u64::from(d)) {
                best = Some((cell, n, d));
            }
        }
        let (cell, n, d) = best?;
        self.calls(call, n, d).then_some(Move::Flip { cell, call: true })
    }

    /// `flip-own`.
    fn flip_own(&self, call: Call) -> Option<Move> {
        let known = self.known & self.down;
        if known == 0 {
            return None;
        }
        // A remembered card that completes a Flush for certain.
        let mut m = known;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.chance(cell).0 == 1 && self.calls(call, 1, 1) {
                return Some(Move::Flip { cell, call: true });
            }
        }
        // Progress on an own known line, leaving a face-down card in it.
        let mut best: Option<(u32, usize)> = None;
        for su in 0..SUITS {
            let mine = self.mine[su];
            if mine & known == 0 {
                continue;
            }
            for &l in &LINES {
                let hidden = l & self.down;
                if l & mine != l || hidden & hidden.wrapping_sub(1) == 0 {
                    continue;
                }
                let faceup = pop9(l & self.up);
                let mut c = l & known;
                while c != 0 {
                    let cell = c.trailing_zeros() as usize;
                    c &= c - 1;
                    if self.chance(cell).0 == 0
                        && best.is_none_or(|(f, bc)| faceup > f || (faceup == f && cell < bc))
                    {
                        best = Some((faceup, cell));
                    }
                }
            }
        }
        best.map(|(_, cell)| self.flip(cell, call))
    }

    /// The `p = 0` flip `flip-safe` prefers, if any: the one least likely
    /// to leave a hot cell (a line with two face-up cards of one suit and a
    /// third cell not face-up), ties to cards the player does not know, then
    /// to the lowest cell.
    #[inline]
    fn safest_zero(&self) -> Option<usize> {
        // (risk numerator, risk denominator, known, cell)
        let mut best: Option<(u32, u32, bool, usize)> = None;
        let mut m = self.down;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.chance(cell).0 != 0 {
                continue;
            }
            let (n, d) = self.exposure(cell);
            let known = self.known & (1 << cell) != 0;
            let better = best.is_none_or(|(bn, bd, bk, _)| {
                let (a, b) = (u64::from(n) * u64::from(bd), u64::from(bn) * u64::from(d));
                a < b || (a == b && !known && bk)
            });
            if better {
                best = Some((n, d, known, cell));
            }
        }
        best.map(|(_, _, _, cell)| cell)
    }

    /// The chance, as `(num, den)`, that flipping `cell` leaves a hot cell:
    /// some line through it has one face-up card, of the suit the flipped
    /// card turns out to be, and a third cell that is not face-up.
    #[inline(always)]
    fn exposure(&self, cell: usize) -> (u32, u32) {
        let suits = self.expose[cell];
        if self.known & (1 << cell) != 0 {
            return (u32::from(suits >> self.known_suit(cell) & 1), 1);
        }
        (self.unseen[usize::from(suits)], self.unseen_total)
    }

    /// `flip-safe`.
    fn flip_safe(&self, call: Call) -> Option<Move> {
        self.safest_zero().map(|cell| self.flip(cell, call))
    }

    /// The build score gained by putting a card of suit `su` on `cell`.
    #[inline(always)]
    fn build_gain(&self, before: &[i32; 8], cell: usize, su: usize) -> i32 {
        let cb = 1u16 << cell;
        let knownany = self.up | (self.known & self.down);
        let unknown = self.down & !self.known;
        let mut gain = 0;
        let mut ls = LINES_THROUGH[cell];
        while ls != 0 {
            let l = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            let line = LINES[l];
            let others = line & knownany & !cb;
            let after = if others & !self.mine[su] == 0 {
                LINE_WEIGHT[pop9(others) as usize + 1]
            } else {
                0
            };
            gain += after - before[l];
        }
        // Covering a card the player does not know throws away a card that
        // may be anyone's; an empty cell of equal worth is better.
        gain - COVER_COST * i32::from(unknown & cb != 0)
    }

    /// Each line's build score now.
    #[inline]
    fn line_scores(&self) -> [i32; 8] {
        let knownany = self.up | (self.known & self.down);
        let mut scores = [0; 8];
        for (score, &line) in scores.iter_mut().zip(&LINES) {
            let k = line & knownany;
            let live = k != 0
                && (k & !self.mine[0] == 0
                    || k & !self.mine[1] == 0
                    || k & !self.mine[2] == 0
                    || k & !self.mine[3] == 0);
            *score = if live { LINE_WEIGHT[pop9(k) as usize] } else { 0 };
        }
        scores
    }

    /// Suits held, as a bit mask.
    #[inline(always)]
    fn held_suits(&self) -> u8 {
        let mut s = 0;
        for su in 0..SUITS {
            s |= u8::from(self.hand & suit_set(su) != 0) << su;
        }
        s
    }

    /// The lowest card of suit `su` in the hand.
    #[inline(always)]
    fn card_of(&self, su: usize) -> Card {
        (self.hand & suit_set(su)).trailing_zeros() as Card
    }

    /// `place-build`; when `forced`, the best placement even if it gains
    /// nothing.
    fn place_build(&self, forced: bool) -> Option<Move> {
        if self.hand == 0 {
            return None;
        }
        let before = self.line_scores();
        let held = self.held_suits();
        let knownany = self.up | (self.known & self.down);
        let unknown = self.down & !self.known;
        let mut best: Option<(i32, usize, usize)> = None;
        for (cell, &through) in LINES_THROUGH.iter().enumerate() {
            let cb = 1u16 << cell;
            if !forced && self.hot & cb != 0 {
                continue;
            }
            // Per suit: the gain, and whether a line through the cell holds
            // known cards, all of that suit (so covering extends it).
            let mut gains = [0i32; SUITS];
            let mut extends = 0u8;
            let mut ls = through;
            while ls != 0 {
                let l = ls.trailing_zeros() as usize;
                ls &= ls - 1;
                let others = LINES[l] & knownany & !cb;
                let after = LINE_WEIGHT[pop9(others) as usize + 1];
                for (su, g) in gains.iter_mut().enumerate() {
                    let live = others & !self.mine[su] == 0;
                    *g += if live { after } else { 0 } - before[l];
                    extends |= u8::from(live && others != 0) << su;
                }
            }
            let allowed = if forced || self.empty & cb != 0 {
                held
            } else {
                held & extends
            };
            let cover = COVER_COST * i32::from(unknown & cb != 0);
            for (su, &g) in gains.iter().enumerate() {
                if allowed >> su & 1 != 0 && best.is_none_or(|(bg, _, _)| g - cover > bg) {
                    best = Some((g - cover, cell, su));
                }
            }
        }
        let (g, cell, su) = best?;
        (forced || g > 0).then(|| Move::Place {
            card: self.card_of(su),
            cell,
        })
    }

    /// How strongly `cell` (hot, face-down, placed by an opponent still in)
    /// looks like that opponent's Flush: the cards of the hot line(s) the
    /// same opponent placed, plus 4 if the card went on the cell while it
    /// was already hot. 0 when the cell is no such threat.
    #[inline]
    fn threat(&self, cell: usize) -> u32 {
        let cb = 1u16 << cell;
        if self.demand[cell] == 0 || self.down & self.known & cb != 0 || self.down & cb == 0 {
            return 0;
        }
        let opponents = self.v.alive_mask() & !(1 << self.v.seat());
        let Some(p) = self.v.placer(cell) else {
            return 0;
        };
        if opponents >> p & 1 == 0 {
            return 0;
        }
        let by = self.v.placed_by(p);
        let mut same = 0;
        let mut ls = LINES_THROUGH[cell];
        while ls != 0 {
            let l = LINES[ls.trailing_zeros() as usize];
            ls &= ls - 1;
            let pair = l & !cb;
            if self.mine.iter().any(|&m| m & self.up & pair == pair) {
                same += pop9(pair & by);
            }
        }
        1 + same + 4 * u32::from(self.v.placed_hot() & cb != 0)
    }

    /// `place-block`.
    fn place_block(&self) -> Option<Move> {
        if self.hand == 0 {
            return None;
        }
        // The strongest threat; ties to the opponent who plays soonest after
        // this player. Failing any, an empty hot cell.
        let n = self.v.players() as u32;
        let me = self.v.seat() as u32;
        let mut best: Option<(u32, u32, usize)> = None;
        let mut empty_hot = None;
        let mut cells = self.hot & ((self.down & !self.known) | self.empty);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let t = self.threat(cell);
            if t > 0 {
                let p = self.v.placer(cell).map_or(me, |p| p as u32);
                let wait = (p + n - me) % n;
                if best.is_none_or(|(bt, bw, _)| t > bt || (t == bt && wait < bw)) {
                    best = Some((t, wait, cell));
                }
            } else if self.empty & (1 << cell) != 0 && empty_hot.is_none() {
                empty_hot = Some(cell);
            }
        }
        let cell = best.map(|(_, _, c)| c).or(empty_hot)?;
        let safe = self.held_suits() & !self.demand[cell];
        let su = if safe == 0 {
            (self.held_suits() & self.demand[cell]).trailing_zeros() as usize
        } else {
            let before = self.line_scores();
            let held = safe;
            let mut best: Option<(i32, usize)> = None;
            for su in 0..SUITS {
                if held >> su & 1 != 0 {
                    let g = self.build_gain(&before, cell, su);
                    if best.is_none_or(|(bg, _)| g > bg) {
                        best = Some((g, su));
                    }
                }
            }
            best?.1
        };
        Some(Move::Place {
            card: self.card_of(su),
            cell,
        })
    }

    /// `place-trap` (`go` false) and `place-hot` (`go` true): a card on a
    /// hot cell that is empty or holds a face-down card the player does not
    /// know, the most likely Flush first (covering it), then empty hot
    /// cells, then the lowest cell. `place-hot` puts a card of a demanded
    /// suit there (to flip and call it next turn); `place-trap` a card of a
    /// suit that is not demanded there, for an opponent who reads the Place
    /// as an attempt and calls. The suit is the one the build score likes
    /// best there, the lowest card of it.
    fn place_hot_cell(&self, go: bool) -> Option<Move> {
        if self.hand == 0 {
            return None;
        }
        let held = self.held_suits();
        // (chance num, den, cell, suits allowed)
        let mut best: Option<(u32, u32, usize, u8)> = None;
        let mut cells = self.hot & ((self.down & !self.known) | self.empty);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let want = self.demand[cell];
            let allowed = held & if go { want } else { !want & 15 };
            if allowed == 0 {
                continue;
            }
            let (n, d) = if self.down & (1 << cell) != 0 {
                self.chance(cell)
            } else {
                (0, 1)
            };
            if best.is_none_or(|(bn, bd, _, _)| u64::from(n) * u64::from(bd) > u64::from(bn) * u64::from(d)) {
                best = Some((n, d, cell, allowed));
            }
        }
        let (_, _, cell, allowed) = best?;
        let before = self.line_scores();
        let mut pick: Option<(i32, usize)> = None;
        for su in 0..SUITS {
            if allowed >> su & 1 != 0 {
                let g = self.build_gain(&before, cell, su);
                if pick.is_none_or(|(bg, _)| g > bg) {
                    pick = Some((g, su));
                }
            }
        }
        let (_, su) = pick?;
        Some(Move::Place {
            card: self.card_of(su),
            cell,
        })
    }

    /// The move when no step proposed one.
    fn forced(&self, call: Call) -> Move {
        if let Some(cell) = self.safest_zero() {
            return self.flip(cell, call);
        }
        if let Some(m) = self.place_build(true) {
            return m;
        }
        // Lowest chance; cross-multiplied so known and unknown cells compare.
        let mut best: Option<(usize, u32, u32)> = None;
        let mut m = self.down;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            let (n, d) = self.chance(cell);
            if best.is_none_or(|(_, bn, bd)| u64::from(n) * u64::from(bd) < u64::from(bn) * u64::from(d)) {
                best = Some((cell, n, d));
            }
        }
        let (cell, _, _) = best.expect("a player who cannot place has a card to flip");
        self.flip(cell, call)
    }
}

/// `place-random`: a uniformly random card of `hand` on a uniformly random
/// cell, from one draw of `below(cards * 9)`.
#[inline]
fn place_random<D: Draw>(hand: CardSet, d: &mut D) -> Option<Move> {
    if hand == 0 {
        return None;
    }
    let r = d.below(hand.count_ones() * CELLS as u32);
    let (k, cell) = (r / CELLS as u32, (r % CELLS as u32) as usize);
    // The k-th card, without a data-dependent loop (a hand holds at most 8).
    let mut h = hand;
    for i in 0..7 {
        h &= h - u64::from(i < k);
    }
    let card = h.trailing_zeros() as Card;
    Some(Move::Place { card, cell })
}

/// One policy per seat: the [`Chooser`] of simulations.
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
    fn choose<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Move {
        self.policies[v.seat()].choose(v, d)
    }
}

/// Test positions from real play, shared by the tests that check a model
/// against enumeration: for each seed below `seeds`, a game of 2 to 4
/// players (by seed) who place on hot cells, each in its own way (`specs`
/// rotated by seat and seed), under `rules(players, seed)`, drawn from
/// stream `stream`, for up to `turns` turns; before every turn of a live
/// seat, `visit(seed, table, s)` for every seat `s`.
/// Where a bad part of a spec is: `'part' in 'spec'`, or `'spec'` when
/// the part is the whole spec.
fn part_in(part: &str, spec: &str) -> String {
    if part == spec {
        format!("'{spec}'")
    } else {
        format!("'{part}' in '{spec}'")
    }
}

#[cfg(test)]
pub(super) fn visit_real_positions(
    seeds: u64,
    stream: u64,
    turns: usize,
    specs: [&str; 3],
    rules: impl Fn(usize, u64) -> super::rules::Rules,
    mut visit: impl FnMut(u64, &super::rules::Table, usize),
) {
    use crate::engine::rng::{SimRng, batch_rng};
    for seed in 0..seeds {
        let mut rng: SimRng = batch_rng(seed, stream);
        let players = 2 + (seed % 3) as usize;
        let mut t = super::rules::Table::new(rules(players, seed));
        t.new_game(&mut rng);
        let mut seats = Seats::new(
            (0..players)
                .map(|s| Policy::parse(specs[(s + seed as usize) % 3]).unwrap())
                .collect(),
        );
        for turn in 0..turns {
            let seat = turn % players;
            if !t.is_alive(seat) {
                continue;
            }
            for s in 0..players {
                visit(seed, &t, s);
            }
            if t.hand(seat) == 0 && t.grid().masks().1 == 0 {
                continue;
            }
            let mv = seats.choose(&t.view(seat), &mut rng);
            if t.apply(seat, mv, &mut super::rules::Silent, &mut rng).is_some() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::{Cell, Deck, parse as card};
    use super::super::rules::{Rules, Silent, Table};
    use super::*;
    use crate::engine::rng::{SimRng, Stacked, batch_rng};

    #[test]
    fn parses_specs_and_prints_them_back() {
        let p = Policy::parse("call-at:0.6+flip-safe+place-build").unwrap();
        assert_eq!(p.call, Call::At(600_000));
        assert_eq!(p.steps(), [Step::FlipSafe, Step::PlaceBuild]);
        assert_eq!(p.model, Model::Read(100_000), "the default's model");
        assert_eq!(p.to_string(), "call-at:0.6+read:0.1+flip-safe+place-build");
        let c = Policy::parse("count+flip-likely").unwrap();
        assert_eq!((c.call, c.model), (Call::Split(150_000, 500_000), Model::Count));
        let w = Policy::parse("worlds:64+flip-likely").unwrap();
        assert_eq!(w.model, Model::Worlds(64, WORLDS_Q));
        assert_eq!(w.to_string(), "call-at:0.15/0.5+worlds:64/0.1+flip-likely");
        assert_eq!(Policy::parse(&w.to_string()).unwrap(), w);
        assert_eq!(Policy::parse("worlds:8/0.3").unwrap().model, Model::Worlds(8, 300_000));
        assert_eq!(c.to_string(), "call-at:0.15/0.5+count+flip-likely");
        let r = Policy::parse("read:0.75+never-call+place-trap+place-hot").unwrap();
        assert_eq!(r.to_string(), "never-call+read:0.75+place-trap+place-hot");
        assert_eq!(Policy::parse(&r.to_string()).unwrap(), r);
        assert_eq!(Policy::parse("default").unwrap().to_string(), DEFAULT_SPEC);
        assert_eq!(
            Policy::parse("sure-only").unwrap().steps(),
            Policy::default_policy().steps()
        );
        assert_eq!(Policy::parse("place-random").unwrap().call, Call::Split(150_000, 500_000));
        for (p, shown) in [
            ("1", "1"),
            ("0", "0"),
            (".25", "0.25"),
            ("0.000001", "0.000001"),
            ("1.0", "1"),
        ] {
            let policy = Policy::parse(&format!("call-at:{p}+flip-safe")).unwrap();
            assert_eq!(policy.to_string(), format!("call-at:{shown}+read:0.1+flip-safe"));
        }
        assert_eq!(Policy::parse_list("default,never-call").unwrap().len(), 2);
    }

    #[test]
    fn bad_specs_are_refused_with_what_is_accepted() {
        for (bad, says) in [
            ("yolo", "unknown policy 'yolo'"),
            ("call-at:0.5+yolo", "unknown part 'yolo'"),
            ("call-at:1.5", "P must be a number from 0 to 1"),
            ("call-at:0.2/", "Q must be"),
            ("call-at:0.2/0.3/0.4", "Q must be"),
            ("call-at:-1", "P must be"),
            ("call-at:0.1234567", "at most six decimals"),
            ("call-at:", "P must be"),
            ("never-call+sure-only", "two call rules"),
            ("flip-safe+flip-safe", "appears twice"),
            ("flip-safe+", "an empty part"),
            ("read:0.2+count", "two models"),
            ("read:2", "Q must be a number from 0 to 1"),
            ("worlds:0", "K must be a whole number"),
            ("worlds:x/0.1", "K must be"),
            ("worlds:", "K must be"),
            ("worlds:10/1.5", "Q must be a number from 0 to 1"),
            ("worlds:10+read:0.1", "two models"),
        ] {
            let e = Policy::parse(bad).unwrap_err();
            assert!(e.contains(says) && e.contains("call-at:P"), "{bad}: {e}");
        }
    }

    #[test]
    fn call_rules_compare_exactly() {
        assert!(Call::At(500_000).calls(1, 2));
        assert!(!Call::At(500_000).calls(49, 99));
        assert!(Call::At(0).calls(0, 7));
        let split = Policy::parse("call-at:0.15/0.5").unwrap().call;
        assert_eq!(split, Call::Split(150_000, 500_000));
        assert_eq!(split.with_players(3), Call::At(150_000));
        assert_eq!(split.with_players(2), Call::At(500_000));
        assert_eq!(Call::Never.with_players(2), Call::Never);
        assert_eq!(Policy::parse("call-at:0.15/0.5").unwrap().to_string().split('+').next(), Some("call-at:0.15/0.5"));
        assert!(Call::SureOnly.calls(3, 3));
        assert!(!Call::SureOnly.calls(2, 3));
        assert!(!Call::Never.calls(1, 1));
    }

    // ----- Exact odds against brute force -----

    /// Whether the grid `cards` (face-up flags `up`) has a line through
    /// `cell` of three face-up cards of one suit: written independently of
    /// the engine's line tables.
    fn naive_flush(cards: &[Card; 9], up: &[bool; 9], cell: usize) -> bool {
        let lines = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        lines
            .iter()
            .filter(|l| l.contains(&cell))
            .any(|l| l.iter().all(|&i| up[i]) && l.iter().all(|&i| cards[i] / 13 == cards[l[0]] / 13))
    }

    /// Every way to lay distinct unseen cards on the cells the player does
    /// not know, and in how many of them flipping `target` makes a Flush.
    fn brute_force(t: &Table, seat: usize, target: usize) -> (u64, u64) {
        let v = t.view(seat);
        let unseen: Vec<Card> = super::super::cards::cards_of(v.unseen()).collect();
        let mut cards = [0 as Card; 9];
        let mut up = [false; 9];
        let mut unknown = Vec::new();
        for i in 0..9 {
            match t.grid().cell(i) {
                Cell::Up(c) => {
                    cards[i] = c;
                    up[i] = true;
                }
                Cell::Down(c) => match v.known_card(i) {
                    Some(k) => {
                        assert_eq!(k, c);
                        cards[i] = c;
                    }
                    None => unknown.push(i),
                },
                Cell::Empty => cards[i] = 63,
            }
        }
        /// The recursion: lays a card on each unknown cell in turn.
        struct Walk<'a> {
            unknown: &'a [usize],
            unseen: &'a [Card],
            used: Vec<bool>,
            cards: [Card; 9],
            up: [bool; 9],
            target: usize,
            out: (u64, u64),
        }
        impl Walk<'_> {
            fn walk(&mut self, k: usize) {
                if k == self.unknown.len() {
                    let mut up = self.up;
                    up[self.target] = true;
                    self.out.0 += u64::from(naive_flush(&self.cards, &up, self.target));
                    self.out.1 += 1;
                    return;
                }
                for j in 0..self.unseen.len() {
                    if !self.used[j] {
                        self.used[j] = true;
                        self.cards[self.unknown[k]] = self.unseen[j];
                        self.walk(k + 1);
                        self.used[j] = false;
                    }
                }
            }
        }
        let mut w = Walk {
            unknown: &unknown,
            unseen: &unseen,
            used: vec![false; unseen.len()],
            cards,
            up,
            target,
            out: (0, 0),
        };
        w.walk(0);
        w.out
    }

    fn assert_matches_brute_force(t: &Table, seat: usize) -> (usize, usize) {
        let v = t.view(seat);
        let s = Sight::new(&v);
        let (mut checked, mut nonzero) = (0, 0);
        for cell in 0..9 {
            if !matches!(t.grid().cell(cell), Cell::Down(_)) {
                continue;
            }
            let (num, den) = s.chance(cell);
            let (hits, all) = brute_force(t, seat, cell);
            assert!(den > 0 && all > 0);
            assert_eq!(
                u64::from(num) * all,
                hits * u64::from(den),
                "seat {seat} cell {cell}: computed {num}/{den}, brute force {hits}/{all}; grid {:?}",
                t.grid()
            );
            checked += 1;
            nonzero += usize::from(num > 0);
        }
        (checked, nonzero)
    }

    fn table_with_hands(players: usize, memory: u32, hands: &[&[&str]]) -> Table {
        let mut t = Table::new(Rules {
            players,
            gambling: false,
            memory,
        });
        let mut top = Vec::new();
        for k in 0..8 {
            for h in hands {
                top.push(card(h[k]).unwrap());
            }
        }
        t.set_deck(Deck::stacked(&top));
        t.deal(&mut Stacked);
        t
    }

    fn place(t: &mut Table, seat: usize, c: &str, cell: usize) {
        let card = card(c).unwrap();
        assert!(
            t.apply(seat, Move::Place { card, cell }, &mut Silent, &mut Stacked)
                .is_none()
        );
    }

    fn flip(t: &mut Table, seat: usize, cell: usize) {
        assert!(
            t.apply(seat, Move::Flip { cell, call: false }, &mut Silent, &mut Stacked)
                .is_none()
        );
    }

    /// A fixed position: two face-up hearts on the top row, an opponent's
    /// card on its third cell; hearts on the middle column; unknown cards in
    /// lines through the target that cannot complete them.
    #[test]
    fn chance_matches_brute_force_on_a_fixed_position() {
        let hands: [&[&str]; 3] = [
            &["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9H"],
            &["AH", "2H", "3H", "4H", "5D", "6D", "7D", "8D"],
            &["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],
        ];
        let mut t = table_with_hands(3, MEMORY_ONE, &hands);
        place(&mut t, 1, "AH", 0);
        place(&mut t, 1, "2H", 1);
        place(&mut t, 2, "AS", 2);
        place(&mut t, 1, "3H", 4);
        place(&mut t, 0, "9H", 7);
        place(&mut t, 2, "2S", 8);
        place(&mut t, 1, "5D", 3);
        flip(&mut t, 2, 0);
        flip(&mut t, 2, 1);
        flip(&mut t, 2, 4);
        // Seat 0: cell 2 completes the top row if a heart (unknown card),
        // cell 7 holds its own 9H (completes the middle column: certain),
        // cell 8 would complete the diagonal 0-4-8 if a heart.
        let s = Sight::new(&t.view(0));
        let unseen = t.view(0).unseen();
        let hearts = (unseen & suit_set(2)).count_ones();
        assert_eq!(s.chance(2), (hearts, unseen.count_ones()));
        assert_eq!(s.chance(7), (1, 1));
        assert_eq!(s.chance(3), (0, unseen.count_ones()));
        assert_eq!(assert_matches_brute_force(&t, 0), (4, 3));
        // Seat 2 knows cells 2 and 8 (spades): no Flush there for certain.
        let s2 = Sight::new(&t.view(2));
        assert_eq!(s2.chance(2), (0, 1));
        assert_eq!(s2.chance(8), (0, 1));
        assert_eq!(
            assert_matches_brute_force(&t, 2),
            (4, 1),
            "only cell 7 (its 9H) is unknown and hot"
        );
        assert_eq!(assert_matches_brute_force(&t, 1).0, 4);
    }

    /// A cell with two lines demanding different suits: the chance adds the
    /// two suits' unseen cards. A forgetful owner does not know its card.
    #[test]
    fn two_demanded_suits_and_forgotten_cards() {
        let hands: [&[&str]; 2] = [
            &["AH", "2H", "AS", "2S", "3C", "4C", "5C", "6C"],
            &["3H", "4H", "3S", "4S", "5D", "6D", "7D", "8D"],
        ];
        // Memory 0: nobody remembers anything placed.
        let mut t = table_with_hands(2, 0, &hands);
        place(&mut t, 0, "AH", 1);
        place(&mut t, 0, "2H", 2);
        place(&mut t, 1, "3S", 3);
        place(&mut t, 1, "4S", 6);
        place(&mut t, 0, "3C", 0);
        for c in [1, 2, 3, 6] {
            flip(&mut t, 1, c);
        }
        let v = t.view(0);
        let s = Sight::new(&v);
        let u = v.unseen();
        assert_eq!(v.known(), 0, "memory 0 forgets");
        assert!(u & (1 << card("3C").unwrap()) != 0, "a forgotten card is unseen");
        let hs = (u & (suit_set(2) | suit_set(3))).count_ones();
        assert_eq!(s.chance(0), (hs, u.count_ones()));
        assert_eq!(assert_matches_brute_force(&t, 0), (1, 1));
    }

    // ----- worlds:K: placed and then protected -----

    /// An opponent leaves its own card face-down on a hot cell through its
    /// turn without calling: with full memory, `worlds` reads it as certainly
    /// no Flush (it would have called it); `read:Q` and counting cannot tell;
    /// with memory 0 the placer may have forgotten it, and it stays a chance.
    #[test]
    fn a_card_left_face_down_on_a_hot_cell_through_its_placers_turn_is_no_flush() {
        let hands: [&[&str]; 3] = [
            &["2C", "2D", "3D", "4D", "5D", "6D", "7D", "8D"],
            &["3C", "5H", "6H", "7H", "8H", "9H", "10H", "JH"],
            &["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"],
        ];
        let worlds = |t: &Table, seat: usize| {
            let mut d = batch_rng(3, 3);
            let (n, den) = Sight::with_model(&t.view(seat), Model::Worlds(2000, 100_000), &mut d).chance(2);
            f64::from(n) / f64::from(den)
        };
        for memory in [MEMORY_ONE, 0] {
            let mut t = table_with_hands(3, memory, &hands);
            place(&mut t, 0, "2C", 0);
            place(&mut t, 1, "3C", 1);
            flip(&mut t, 2, 0);
            flip(&mut t, 0, 1);
            // Cell 2 is hot for clubs; seat 1 puts a heart there.
            place(&mut t, 1, "5H", 2);
            place(&mut t, 2, "2S", 4);
            let before = worlds(&t, 2);
            assert!(before > 0.0, "memory {memory}: a fresh hot Place may be a Flush");
            place(&mut t, 0, "2D", 5);
            // Seat 1's turn: it places elsewhere instead of flipping cell 2.
            place(&mut t, 1, "6H", 6);
            let after = worlds(&t, 2);
            let counted = Sight::new(&t.view(2)).chance(2);
            let read = Sight::reading(&t.view(2), Some(100_000)).chance(2);
            assert!(counted.0 > 0 && read.0 > 0);
            if memory == MEMORY_ONE {
                assert_eq!(after, 0.0, "a remembered Flush would have been called");
            } else {
                assert!(after > 0.0, "a forgetful placer may have left a Flush");
            }
        }
    }

    // ----- The belief model against brute force -----

    /// The belief model's chance by enumeration: every hand of `hand`
    /// cards out of `unseen` (each equally likely), and within it every
    /// card the model lets its holder place, with the model's probability;
    /// the share of that weight on cards of the suits `want`. Written from
    /// the model's statement, not from [`belief_chance`].
    fn belief_brute_force(want: u8, then: u8, hand: usize, q: f64, unseen: &[Card]) -> f64 {
        let fits = |c: Card| then >> suit(c) & 1 != 0;
        let wanted = |c: Card| want >> suit(c) & 1 != 0;
        let hand = hand.min(unseen.len());
        let (mut hit, mut all) = (0f64, 0f64);
        // Every subset of `hand` positions, by a lexicographic walk.
        let mut idx: Vec<usize> = (0..hand).collect();
        loop {
            let h: Vec<Card> = idx.iter().map(|&i| unseen[i]).collect();
            let nf = h.iter().filter(|&&c| fits(c)).count();
            let nr = h.len() - nf;
            for &c in &h {
                // Probability that the holder of `h` places `c` there.
                let w = if nf == 0 || nr == 0 {
                    1.0 / h.len() as f64
                } else if fits(c) {
                    q / nf as f64
                } else {
                    (1.0 - q) / nr as f64
                };
                all += w;
                if wanted(c) {
                    hit += w;
                }
            }
            // Next subset.
            let mut k = hand;
            loop {
                if k == 0 {
                    return hit / all;
                }
                k -= 1;
                if idx[k] < unseen.len() - hand + k {
                    break;
                }
            }
            idx[k] += 1;
            for j in k + 1..hand {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }

    fn suit_counts(cards: &[Card]) -> [u32; 16] {
        std::array::from_fn(|m| cards.iter().filter(|&&c| m >> suit(c) & 1 != 0).count() as u32)
    }

    #[test]
    fn belief_matches_brute_force_on_small_card_sets() {
        let mut rng: SimRng = batch_rng(5, 5);
        let mut checked = 0;
        for _ in 0..400 {
            // A random set of 4 to 14 unseen cards.
            let size = 4 + rng.below(11) as usize;
            let mut pool: Vec<Card> = (0..52).collect();
            let mut unseen = Vec::new();
            for _ in 0..size {
                let j = rng.below(pool.len() as u32) as usize;
                unseen.push(pool.swap_remove(j));
            }
            unseen.sort();
            let then = 1 + rng.below(15) as u8;
            let want = 1 + rng.below(15) as u8;
            let hand = 1 + rng.below(8) as usize;
            let q = [0, 200_000, 500_000, 900_000, MEMORY_ONE][rng.below(5) as usize];
            let u = suit_counts(&unseen);
            let got = f64::from(belief_chance(want, then, hand as u32, q, &u)) / f64::from(BELIEF_ONE);
            let want_p = belief_brute_force(want, then, hand, f64::from(q) / 1e6, &unseen);
            assert!(
                (got - want_p).abs() < 1e-6 || (want_p > 1.0 - 1e-9 && got > 1.0 - 1e-6),
                "want {want:04b} then {then:04b} hand {hand} q {q} unseen {unseen:?}: {got} vs {want_p}"
            );
            checked += usize::from(want_p > 0.0 && want_p < 1.0);
        }
        assert!(checked > 200, "only {checked} cases strictly between 0 and 1");
    }

    /// On real positions: a reader's chance of every hot face-down card it
    /// does not know, placed while hot, against the enumeration over that
    /// position's unseen cards (hands of at most three, to stay quick); and
    /// the reader's chance differs from the count where the model says
    /// something.
    #[test]
    fn reader_chances_on_real_positions_match_brute_force() {
        let (mut checked, mut differ) = (0, 0);
        let q = 300_000;
        // Players who place on hot cells, each in its own way.
        let specs = [
            "call-at:1+flip-safe+place-block+place-build",
            "call-at:1+place-hot+flip-safe+place-build",
            "call-at:1+place-trap+flip-safe+place-build",
        ];
        visit_real_positions(300, 17, 40, specs, |players, _| Rules::standard(players), |_, t, s| {
            let v = t.view(s);
            let counted = Sight::new(&v);
            let read = Sight::reading(&v, Some(q));
            let unseen: Vec<Card> = super::super::cards::cards_of(v.unseen()).collect();
            for cell in 0..CELLS {
                let then = v.placed_demand(cell);
                let want = read.demand[cell];
                if read.read_cells >> cell & 1 == 0 {
                    assert_eq!(read.chance(cell), counted.chance(cell));
                    continue;
                }
                assert!(then != 0 && want != 0 && v.known_card(cell).is_none());
                let hand = v.placed_hand(cell) as usize;
                if hand > 3 {
                    continue;
                }
                let (n, d) = read.chance(cell);
                let got = f64::from(n) / f64::from(d);
                let exact = belief_brute_force(want, then, hand, 0.3, &unseen);
                assert!((got - exact).abs() < 1e-6, "seat {s} cell {cell}: {got} vs {exact}");
                checked += 1;
                let (cn, cd) = counted.chance(cell);
                differ += usize::from((f64::from(cn) / f64::from(cd) - got).abs() > 1e-3);
            }
        });
        assert!(checked > 100 && differ > 50, "{checked} cells checked, {differ} differ from the count");
    }

    /// Positions reached by random legal play, from fixed seeds: every
    /// face-down cell of every player with at most three unknown cells.
    #[test]
    fn chance_matches_brute_force_on_random_positions() {
        let (mut checked, mut nonzero) = (0, 0);
        for seed in 0..60u64 {
            let mut rng: SimRng = batch_rng(seed, 99);
            let players = 2 + (seed % 3) as usize;
            let mut t = Table::new(Rules {
                players,
                gambling: true,
                memory: 700_000,
            });
            t.new_game(&mut rng);
            for turn in 0..60 {
                let seat = turn % players;
                let hand = t.hand(seat);
                let (_, down) = t.grid().masks();
                let mv = if hand != 0 && (down == 0 || rng.below(3) > 0) {
                    let k = rng.below(hand.count_ones());
                    let card = super::super::cards::cards_of(hand).nth(k as usize).unwrap();
                    Move::Place {
                        card,
                        cell: rng.below(9) as usize,
                    }
                } else if down != 0 {
                    let cells: Vec<usize> = (0..9).filter(|&i| down & (1 << i) != 0).collect();
                    Move::Flip {
                        cell: cells[rng.below(cells.len() as u32) as usize],
                        call: false,
                    }
                } else {
                    break;
                };
                let _ = t.apply(seat, mv, &mut Silent, &mut rng);
                t.check_invariants().unwrap();
                for s in 0..players {
                    let v = t.view(s);
                    let unknown = (t.grid().masks().1 & !v.known()).count_ones();
                    if unknown <= 3 && t.grid().masks().0 != 0 {
                        let (c, z) = assert_matches_brute_force(&t, s);
                        checked += c;
                        nonzero += z;
                    }
                }
            }
        }
        assert!(
            checked > 1000 && nonzero > 100,
            "only {checked} cells checked, {nonzero} with odds"
        );
    }
}
