//! `sim tune GAME`: the best policy of a family, found by a race on common
//! random numbers, then measured on fresh deals.
//!
//! docs/tune.md says the same in more words. In short:
//!
//! - **Candidates**: every combination of the `{...}` groups of the
//!   template ([`expand_all`](crate::studies::expand::expand_all)). Each plays one seat against the field in
//!   every seat position (rotations: seat `s` of arrangement `s`), on the
//!   same deals as every other candidate: deal `i` of round `r` is the
//!   same shuffled deck for all of them ([`batch_rng`]).
//! - **Rounds**: round `r` (from 0) plays race batches `2^r - 1 ..
//!   2^(r+1) - 1` of [`BATCH_GAMES`] deals, so the deals double each
//!   round, with every candidate still in the race.
//! - **Test**: after round `r`, every difference between two survivors
//!   gets an interval from all the deals they shared: the ratio (cluster)
//!   estimator over independent deals, linearised for a difference of two
//!   ratios ([`Ratio`]), with a normal multiplier for the level
//!   `alpha_r / m` (Bonferroni over the `m` pairs, two-sided), where
//!   `alpha_r = alpha * 6 / (pi^2 (r + 1)^2)` sums to `alpha` over all
//!   rounds. A candidate whose interval against some survivor lies wholly
//!   on the worse side is dropped.
//! - **Stop**: one survivor left; or every survivor's interval against the
//!   leader says it is less than `--margin` better than the leader; or the
//!   next round would pass `--budget`.
//! - **Guarantee** (normal approximation): with probability at least
//!   `1 - alpha` every interval of every round holds at once, so the best
//!   candidate is never dropped and, when the race stops on the margin, the
//!   winner is within the margin of the best.
//! - **Fresh estimates**: the survivors then play `--fresh` deals no round
//!   used (batches after the race's), which give their estimates and
//!   intervals: no winner's curse.

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use indicatif::ProgressBar;

use super::args::Common;
use super::expand::{Combo, Template};
use super::files::Files;
use crate::engine::args::{MAX_GAMES, format_count, parse_count, too_many};
use crate::engine::columns::{f6, run_csv_bytes};
use crate::engine::design::{Ratio, t975};
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::{Game, SeatResult};
use crate::engine::job::{Job, Leftovers, stop_flag};
use crate::engine::output::{file_label, state_beside};
use crate::engine::rng::batch_rng;
use crate::engine::runner::{BATCH_GAMES, Batches, Simulation};
use crate::engine::show::{plural, table_json, timing};
use crate::engine::strategies::Library;
use crate::engine::table::Table;

/// At most this many candidates race (every pair of survivors keeps its
/// own sums).
pub const MAX_CANDIDATES: usize = 200;

/// The race's overall error level: the chance that any interval of any
/// round is wrong (so that the best candidate is dropped, or a margin stop
/// is wrong) is at most this.
pub const ALPHA: f64 = 0.05;

/// `sim tune GAME` options.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs<T: Args> {
    /// The family of policies: a spec with any number of {...} groups
    /// ({A..B}, {A..B..STEP}, {X,Y,Z} numbers, {a|b|c} choices); every
    /// combination is a candidate, e.g. 'stay-at-{10..40}'.
    #[arg(long, value_name = "TEMPLATE", required_unless_present = "resume")]
    pub policy: Option<String>,

    /// Policy of the other seats (default: the game's default policy).
    #[arg(long, value_name = "SPEC")]
    pub field: Option<String>,

    #[command(flatten)]
    pub options: T,

    /// What to maximise: win-rate, mean-score, net-stakes, mean-round-score,
    /// or mean-place (minimised), as far as the game has it.
    #[arg(long, value_name = "OBJ", default_value = "win-rate")]
    pub objective: String,

    /// The most games the race may play, over all candidates and seats
    /// (5M, 100M).
    #[arg(long, default_value = "10M", value_parser = parse_count, allow_hyphen_values = true)]
    pub budget: u64,

    /// Stop once no survivor can be more than this much better than the
    /// leader, in the objective's points (percentage points for win-rate).
    #[arg(long, value_name = "M", default_value = "0.5", value_parser = parse_margin)]
    pub margin: f64,

    /// Fresh deals for the final estimates of the survivors, never used to
    /// choose them (20K, 1M).
    #[arg(long, value_name = "DEALS", default_value = "20K", value_parser = parse_count, allow_hyphen_values = true)]
    pub fresh: u64,

    /// How candidates are searched: race (every candidate of the template
    /// races; at most 200) or halving (a random sample of the template's
    /// candidates, cut by half on common deals until 8 are left, which
    /// then race; for spaces too large to race whole).
    #[arg(long, value_name = "METHOD", default_value = "race", value_enum)]
    pub method: Method,

    /// With --method halving: how many candidates to draw at random from
    /// the template (every one when it has no more; 2 to 4096; default 64).
    #[arg(long, value_name = "N", value_parser = crate::engine::args::whole_in::<u32>(2..=MAX_SAMPLE as u32))]
    pub sample: Option<u32>,

    #[command(flatten)]
    pub common: Common,
}

/// How `sim tune` searches the template's candidates.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every candidate races (at most [`MAX_CANDIDATES`]).
    Race,
    /// Successive halving of a random sample, then a race of the
    /// [`FINALISTS`].
    Halving,
}

/// The most candidates `--method halving` may draw.
pub const MAX_SAMPLE: u32 = 4096;

/// `--sample` when not given.
pub const DEFAULT_SAMPLE: u32 = 64;

/// The halving cuts the sample down to this many finalists, which race.
pub const FINALISTS: usize = 8;

fn parse_margin(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(m) if m > 0.0 && m.is_finite() => Ok(m),
        _ => Err(format!("expected a margin above 0, e.g. 0.5; got '{text}'")),
    }
}

/// What the race ranks the candidates by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Games won over games.
    WinRate,
    /// Per-game score over games (named `mean-score`, or `net-stakes`
    /// where the game's score is its stakes).
    Score,
    /// Round scores over rounds.
    RoundScore,
    /// Places over games with a finishing order (lower is better).
    Place,
}

impl Objective {
    /// The objectives game `G` has under `opts`, with their names.
    pub fn available<G: Game>(opts: &G::Options) -> Vec<(String, Objective)> {
        let mut out = vec![("win-rate".to_string(), Objective::WinRate)];
        if let Some(name) = G::score_name(opts) {
            let word = if name.contains("stakes") {
                "net-stakes"
            } else {
                "mean-score"
            };
            out.push((word.to_string(), Objective::Score));
        }
        if G::has_rounds(opts) {
            out.push(("mean-round-score".to_string(), Objective::RoundScore));
        }
        if G::has_places(opts) {
            out.push(("mean-place".to_string(), Objective::Place));
        }
        out
    }

    /// The numerator and denominator one seat adds.
    fn of(self, r: &SeatResult) -> (i64, i64) {
        match self {
            Objective::WinRate => (r.wins as i64, 1),
            Objective::Score => (r.score_sum, 1),
            Objective::RoundScore => (r.round_score_sum as i64, r.rounds as i64),
            Objective::Place => (r.place_sum as i64, r.placed as i64),
        }
    }

    /// +1 when higher is better, -1 when lower is.
    fn sign(self) -> f64 {
        if self == Objective::Place { -1.0 } else { 1.0 }
    }

    /// Points per unit of the estimate (win rates are shown in
    /// percentage points).
    fn scale(self) -> f64 {
        if self == Objective::WinRate { 100.0 } else { 1.0 }
    }
}

/// The sums of a pair of candidates `a < b` over the units they shared:
/// `sum x_a x_b`, `sum x_a g_b`, `sum g_a x_b`, `sum g_a g_b`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cross {
    /// Sum of `x_a * x_b`.
    pub xx: i128,
    /// Sum of `x_a * g_b`.
    pub xg: i128,
    /// Sum of `g_a * x_b`.
    pub gx: i128,
    /// Sum of `g_a * g_b`.
    pub gg: i128,
}

impl Cross {
    fn add(&mut self, xa: i64, ga: i64, xb: i64, gb: i64) {
        let (xa, ga, xb, gb) = (i128::from(xa), i128::from(ga), i128::from(xb), i128::from(gb));
        self.xx += xa * xb;
        self.xg += xa * gb;
        self.gx += ga * xb;
        self.gg += ga * gb;
    }

    fn merge(&mut self, o: &Cross) {
        self.xx += o.xx;
        self.xg += o.xg;
        self.gx += o.gx;
        self.gg += o.gg;
    }
}

/// The index of pair `i < j` of `n`.
fn pair(i: usize, j: usize, n: usize) -> usize {
    crate::analysis::tally::pair_index(i, j, n)
}

/// What some candidates (`who`, by candidate number) played together: each
/// one's ratio sums, and each pair's cross sums, over independent units.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sums {
    /// The candidates, by number.
    pub who: Vec<usize>,
    /// Per candidate (in `who` order).
    pub cand: Vec<Ratio>,
    /// Per pair of positions in `who` ([`crate::analysis::tally::pair_index`]).
    pub pairs: Vec<Cross>,
}

impl Sums {
    fn new(who: &[usize]) -> Sums {
        let k = who.len();
        Sums {
            who: who.to_vec(),
            cand: vec![Ratio::default(); k],
            pairs: vec![Cross::default(); k * k.saturating_sub(1) / 2],
        }
    }

    /// Sums of each candidate alone, without the pairs (the halving ranks
    /// by estimates only).
    fn alone(who: &[usize]) -> Sums {
        Sums {
            who: who.to_vec(),
            cand: vec![Ratio::default(); who.len()],
            pairs: Vec::new(),
        }
    }

    fn merge(&mut self, o: &Sums) {
        if o.who.is_empty() {
            return;
        }
        if self.who.is_empty() {
            self.clone_from(o);
            return;
        }
        debug_assert_eq!(self.who, o.who, "sums of different candidates");
        for (a, b) in self.cand.iter_mut().zip(&o.cand) {
            a.merge(b);
        }
        for (a, b) in self.pairs.iter_mut().zip(&o.pairs) {
            a.merge(b);
        }
    }

    /// The sums of `who` (each of which is in `self.who`) alone.
    fn restrict(&self, who: &[usize]) -> Sums {
        let pos: Vec<usize> = who
            .iter()
            .map(|c| self.who.iter().position(|w| w == c).expect("played"))
            .collect();
        let n = self.who.len();
        let mut out = Sums::new(who);
        for (i, &p) in pos.iter().enumerate() {
            out.cand[i] = self.cand[p];
            for (j, &q) in pos.iter().enumerate().skip(i + 1) {
                let c = self.pairs[pair(p.min(q), p.max(q), n)];
                out.pairs[pair(i, j, who.len())] = if p < q {
                    c
                } else {
                    Cross {
                        xx: c.xx,
                        xg: c.gx,
                        gx: c.xg,
                        gg: c.gg,
                    }
                };
            }
        }
        out
    }

    /// Estimate of position `i`.
    fn estimate(&self, i: usize) -> f64 {
        self.cand[i].estimate()
    }

    /// `R_i - R_j` and its standard error (the ratio estimator over the
    /// shared units, linearised; NaN with fewer than two units).
    fn diff(&self, i: usize, j: usize) -> (f64, f64) {
        let (a, b) = (&self.cand[i], &self.cand[j]);
        let (ri, rj) = (a.estimate(), b.estimate());
        let k = a.units as f64;
        let c = self.pairs[pair(i.min(j), i.max(j), self.who.len())];
        // Oriented as (i, j).
        let (xx, xg, gx, gg) = if i < j {
            (c.xx, c.xg, c.gx, c.gg)
        } else {
            (c.xx, c.gx, c.xg, c.gg)
        };
        let (gi, gj) = (a.sg as f64, b.sg as f64);
        let own = |r: &Ratio| {
            let e = r.estimate();
            (r.sxx as f64 - 2.0 * e * r.sxg as f64 + e * e * r.sgg as f64) / (r.sg as f64 * r.sg as f64)
        };
        let cross = (xx as f64 - rj * xg as f64 - ri * gx as f64 + ri * rj * gg as f64) / (gi * gj);
        let var = if a.units < 2 {
            f64::NAN
        } else {
            (own(a) + own(b) - 2.0 * cross).max(0.0) * k / (k - 1.0)
        };
        (ri - rj, var.sqrt())
    }
}

/// Everything the race has played, as integer sums that add up in any
/// order: per round, the survivors' sums; and the fresh deals' sums.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(remote = "Self")]
pub struct TuneTally {
    /// Halving stage `h`'s sums, without pairs (empty for a stage not
    /// started, and for `--method race`).
    #[serde(default)]
    pub halving: Vec<Sums>,
    /// Round `r`'s sums (empty for a round not started).
    pub rounds: Vec<Sums>,
    /// The survivors on the fresh deals.
    pub fresh: Sums,
}

impl TuneTally {
    fn merge(&mut self, o: &TuneTally) {
        if self.halving.len() < o.halving.len() {
            self.halving.resize(o.halving.len(), Sums::default());
        }
        for (a, b) in self.halving.iter_mut().zip(&o.halving) {
            a.merge(b);
        }
        if self.rounds.len() < o.rounds.len() {
            self.rounds.resize(o.rounds.len(), Sums::default());
        }
        for (a, b) in self.rounds.iter_mut().zip(&o.rounds) {
            a.merge(b);
        }
        self.fresh.merge(&o.fresh);
    }

    /// Each of `who`'s ratio sums over halving stages `0..=upto` (all of
    /// whom played them), as sums without pairs.
    fn halved(&self, upto: usize, who: &[usize]) -> Sums {
        let mut out = Sums::alone(who);
        for h in &self.halving[..=upto] {
            for (i, c) in who.iter().enumerate() {
                let p = h.who.iter().position(|w| w == c).expect("played");
                out.cand[i].merge(&h.cand[p]);
            }
        }
        out
    }

    /// The sums of `who` over rounds `0..=upto` (all of whom played them).
    fn cumulative(&self, upto: usize, who: &[usize]) -> Sums {
        let mut out = Sums::new(who);
        for r in &self.rounds[..=upto] {
            let part = r.restrict(who);
            for (a, b) in out.cand.iter_mut().zip(&part.cand) {
                a.merge(b);
            }
            for (a, b) in out.pairs.iter_mut().zip(&part.pairs) {
                a.merge(b);
            }
        }
        out
    }
}

impl<'de> serde::Deserialize<'de> for TuneTally {
    /// Read, then checked ([`TuneTally::check`]): a state file's tally is
    /// used only when it is consistent in itself.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = TuneTally::deserialize(d)?;
        t.check().map_err(|e| crate::engine::job::inconsistent(&e))?;
        Ok(t)
    }
}

impl serde::Serialize for TuneTally {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TuneTally::serialize(self, s)
    }
}

impl TuneTally {
    /// Whether the sums are consistent in themselves: each part's
    /// candidates distinct, one total per candidate and none or one per
    /// pair of them, the same units for every candidate, and no count or
    /// sum of squares below zero. Otherwise what is wrong, ending with the field
    /// in parentheses.
    pub fn check(&self) -> Result<(), String> {
        let halving = (self.halving.iter().enumerate()).map(|(h, s)| (format!("halving[{h}]"), s));
        let rounds = (self.rounds.iter().enumerate()).map(|(r, s)| (format!("rounds[{r}]"), s));
        for (at, s) in halving.chain(rounds).chain([("fresh".to_string(), &self.fresh)]) {
            s.check()
                .map_err(|(what, field)| format!("{what} ({at}.{field})"))?;
        }
        Ok(())
    }
}

impl Sums {
    /// [`TuneTally::check`] of one part: what is wrong and its field.
    fn check(&self) -> Result<(), (String, &'static str)> {
        let k = self.who.len();
        let mut seen = self.who.clone();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != k {
            return Err(("a candidate is listed twice".into(), "who"));
        }
        if self.cand.len() != k {
            return Err((
                format!("{} candidate totals for {k} candidates", self.cand.len()),
                "cand",
            ));
        }
        let pairs = k * k.saturating_sub(1) / 2;
        if !self.pairs.is_empty() && self.pairs.len() != pairs {
            return Err((
                format!("{} pair totals for {k} candidates", self.pairs.len()),
                "pairs",
            ));
        }
        if let Some(i) = (0..k).find(|&i| self.cand[i].units != self.cand[0].units) {
            let (a, b) = (self.cand[0].units, self.cand[i].units);
            return Err((format!("candidates of {a} and {b} units played together"), "cand"));
        }
        let negative = |r: &Ratio| r.sg < 0 || r.sxx < 0 || r.sgg < 0;
        if let Some(i) = (0..k).find(|&i| negative(&self.cand[i])) {
            return Err((
                format!("candidate {} has a negative count or sum of squares", self.who[i]),
                "cand",
            ));
        }
        if self.pairs.iter().any(|c| c.gg < 0) {
            return Err(("a pair's sum of squared counts is negative".into(), "pairs"));
        }
        Ok(())
    }
}

/// `n` with its digits grouped by thousands (`20,480`): the console's
/// counts, every digit shown.
fn grouped(n: u64) -> String {
    group_digits(&n.to_string())
}

/// The whole number written `digits`, its digits grouped by thousands (a
/// count that may pass `u64`).
fn group_digits(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The first batch of round `r` and its number of batches.
fn round_batches(r: usize) -> (u64, u64) {
    ((1u64 << r) - 1, 1u64 << r)
}

/// `z` with `P(Z > z) = p` for a standard normal `Z` (by bisection on the
/// complementary error function; `p` in (0, 0.5]).
pub fn z_upper(p: f64) -> f64 {
    let tail = |z: f64| libm::erfc(z / std::f64::consts::SQRT_2) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if tail(mid) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The error level spent on round `r` (from 0): `alpha * 6 / (pi^2 (r+1)^2)`,
/// which sums to `alpha` over all rounds.
pub fn round_alpha(alpha: f64, r: usize) -> f64 {
    let n = (r + 1) as f64;
    alpha * 6.0 / (std::f64::consts::PI * std::f64::consts::PI * n * n)
}

/// The multiplier of simultaneous two-sided intervals for every pair of
/// `k` survivors at level `alpha` (Bonferroni).
pub fn pair_z(alpha: f64, k: usize) -> f64 {
    let m = (k * k.saturating_sub(1) / 2).max(1) as f64;
    z_upper(alpha / (2.0 * m))
}

/// `k` distinct candidate numbers below `count` drawn at random from
/// `seed` (all of them when `count <= k`), in increasing order (Floyd's
/// algorithm: every set of `k` is equally likely).
pub fn sample_indices(count: u64, k: u64, seed: u64) -> Vec<u64> {
    use rand::{RngExt, SeedableRng};
    if count <= k {
        return (0..count).collect();
    }
    // A stream of its own, apart from every batch's.
    let mut rng = crate::engine::rng::SimRng::seed_from_u64(crate::engine::rng::splitmix64(
        seed ^ 0x7475_6e65_5f73_616d,
    ));
    let mut chosen = std::collections::BTreeSet::new();
    for j in count - k..count {
        let t = rng.random_range(0..=j);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    chosen.into_iter().collect()
}

/// The halving's plan, fixed before any game: stage `h` plays
/// `batches[h]` batches (from batch `start[h]`) with `kept[h]` candidates
/// and keeps `kept[h + 1]` of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Halving {
    kept: Vec<usize>,
    start: Vec<u64>,
    batches: Vec<u64>,
}

impl Halving {
    /// The plan for `n` candidates, spending at most `share` games in
    /// equal parts per stage, `games_per_batch` games per candidate and
    /// batch; `None` when a stage cannot pay for one batch per candidate.
    /// No stage when `n` is at most [`FINALISTS`].
    fn plan(n: usize, share: u64, games_per_batch: u64) -> Option<Halving> {
        let mut kept = vec![n];
        while *kept.last().expect("one") > FINALISTS {
            let k = *kept.last().expect("one");
            kept.push(k.div_ceil(2).max(FINALISTS));
        }
        let stages = kept.len() - 1;
        let mut plan = Halving {
            kept,
            ..Halving::default()
        };
        let mut next = 0u64;
        for h in 0..stages {
            let b = share / stages as u64 / (plan.kept[h] as u64 * games_per_batch);
            if b == 0 {
                return None;
            }
            plan.start.push(next);
            plan.batches.push(b);
            next += b;
        }
        Some(plan)
    }

    fn stages(&self) -> usize {
        self.batches.len()
    }

    /// The batches of every stage together.
    fn units(&self) -> u64 {
        self.batches.iter().sum()
    }

    /// The games of every stage together.
    fn games(&self, games_per_batch: u64) -> u64 {
        (0..self.stages())
            .map(|h| self.kept[h] as u64 * self.batches[h] * games_per_batch)
            .sum()
    }

    /// The fewest games `--budget` must allow for `n` candidates: one batch
    /// per candidate in every stage, twice over (the halving spends at
    /// most half).
    fn least_budget(n: usize, games_per_batch: u64) -> u64 {
        let mut k = n;
        let mut stages = 0u64;
        while k > FINALISTS {
            k = k.div_ceil(2).max(FINALISTS);
            stages += 1;
        }
        2 * stages * n as u64 * games_per_batch
    }
}

/// The games a run played and what a sweep of equal confidence needs, for
/// the console's comparison.
struct Saved {
    halving: u64,
    race: u64,
    fresh: u64,
    stop: Stop,
    survivors: usize,
    sweep_deals: u64,
    sweep_games: u64,
    candidates: usize,
    halved: bool,
}

/// The console's line on the games played against a sweep of equal
/// confidence: a saving only where there is one to claim.
fn games_sentence(s: &Saved) -> String {
    let total = s.halving + s.race + s.fresh;
    if s.halved {
        return format!(
            "games: halving {} + race {} + fresh {} = {}; no sweep to compare: the halving cut candidates by their estimates, without a test",
            grouped(s.halving),
            grouped(s.race),
            grouped(s.fresh),
            grouped(total)
        );
    }
    let played = format!(
        "games: race {} + fresh {} = {}",
        grouped(s.race),
        grouped(s.fresh),
        grouped(total)
    );
    if s.stop == Stop::Budget {
        let separated = if s.sweep_games > 0 {
            format!(
                "; a sweep of equal confidence would need more than the {} deals for each of the {} candidates ({} games) that its drops alone need, and more again to separate the survivors",
                grouped(s.sweep_deals),
                s.candidates,
                grouped(s.sweep_games)
            )
        } else {
            "; it dropped no candidate, so no sweep of equal confidence can be sized from it".to_string()
        };
        return format!(
            "{played}; the race was stopped by its budget before it separated its {} survivors{separated}",
            s.survivors
        );
    }
    if s.sweep_games == 0 {
        return played;
    }
    let needs = format!(
        "a sweep of equal confidence needs about {} ({} deals for each of the {} candidates)",
        grouped(s.sweep_games),
        grouped(s.sweep_deals),
        s.candidates
    );
    let race_share = 100.0 * s.race as f64 / s.sweep_games as f64;
    if total <= s.sweep_games {
        format!(
            "{played}; {needs}: tune played {:.1}% of that, the race alone {race_share:.1}%",
            100.0 * total as f64 / s.sweep_games as f64
        )
    } else {
        format!(
            "{played}; {needs}: no saving here: the race alone played {race_share:.1}% of that sweep, and the fresh deals (estimates never used to choose) come on top"
        )
    }
}

/// The method, in a few sentences, for the report page.
fn method_paragraphs(halved: bool, margin: f64, objective: &str, unit: &str) -> Vec<String> {
    let mut out = Vec::new();
    if halved {
        out.push(format!(
            "Halving: candidates were drawn at random (by the seed) from the template's space; every one played the same deals, and after each stage the better half by estimate went on (never fewer than {FINALISTS}), each stage playing twice the deals of the one before. The halving has no test: a candidate close to the cut can be lost to chance, and candidates never drawn are not compared at all."
        ));
    }
    out.push(format!(
        "Race: every candidate {}played the same deals, in every seat in turn against the field (common random numbers), the deals doubling each round. After each round every pair of survivors got an interval on its difference in {objective} (the cluster-robust errors of the tournaments, Bonferroni over the pairs, the error level spread over the rounds so that all intervals of all rounds hold together with probability at least 95%), and a candidate significantly worse than another was dropped. The race stopped when one was left, when no survivor could be more than {margin}{unit} better than the leader, or when the budget was spent.",
        if halved { "left after the halving " } else { "" }
    ));
    out.push(
        "Fresh estimates: the survivors then played deals the race never used; their estimates and 95% intervals (each on its own, not simultaneous) have no winner's curse. The race's own estimates in the candidates table are biased upwards for the winner and are kept for the record."
            .to_string(),
    );
    out
}

/// One round of the race, as rounds.csv shows it.
#[derive(Clone, Debug)]
struct RoundRow {
    deals: u64,
    deals_total: u64,
    candidates: usize,
    games: u64,
    games_total: u64,
    alpha: f64,
    z: f64,
    dropped: Vec<usize>,
    leader: usize,
    leader_estimate: f64,
    survivors: usize,
    stop: String,
}

/// Why the race stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    OneLeft,
    Margin,
    Budget,
}

impl Stop {
    fn word(self) -> &'static str {
        match self {
            Stop::OneLeft => "one-left",
            Stop::Margin => "within-margin",
            Stop::Budget => "budget",
        }
    }
}

/// Which part of the run a batch belongs to, and so where its sums go.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// A halving stage (each candidate's sums only).
    Halving(usize),
    /// A race round.
    Race(usize),
    /// The fresh deals of the survivors.
    Fresh,
}

/// Plays batches `batches` with candidates `who` (`sims[c][s]`: candidate
/// `c` in seat `s`), each deal's results of a candidate summed over its
/// seats, and returns their sums (put where `phase` says) and the ranges
/// played.
#[allow(clippy::too_many_arguments)]
fn play_batches<G: Game>(
    opts: &G::Options,
    sims: &[Vec<G::Sim>],
    objective: Objective,
    who: &[usize],
    phase: Phase,
    seed: u64,
    batches: &[Range<u64>],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    stop: &AtomicBool,
) -> Result<(TuneTally, Vec<Range<u64>>), String> {
    let wrap = |s: Sums| {
        let mut t = TuneTally::default();
        match phase {
            Phase::Halving(h) => {
                t.halving = vec![Sums::default(); h + 1];
                t.halving[h] = s;
            }
            Phase::Race(r) => {
                t.rounds = vec![Sums::default(); r + 1];
                t.rounds[r] = s;
            }
            Phase::Fresh => t.fresh = s,
        }
        t
    };
    let with_pairs = !matches!(phase, Phase::Halving(_));
    let empty = || {
        if with_pairs {
            Sums::new(who)
        } else {
            Sums::alone(who)
        }
    };
    let each = Batches {
        ranges: batches,
        stop,
        bar,
    };
    let (sums, done) = each.play(
        pool,
        empty,
        |a, b| a.merge(&b),
        |acc, b| {
            acc.merge(&play_one::<G>(opts, sims, objective, who, with_pairs, seed, b)?);
            Ok(BATCH_GAMES * (who.len() * G::players(opts)) as u64)
        },
    )?;
    Ok((wrap(sums), done))
}

/// Batch `b` for candidates `who` (with the sums of every pair when
/// `with_pairs`).
fn play_one<G: Game>(
    opts: &G::Options,
    sims: &[Vec<G::Sim>],
    objective: Objective,
    who: &[usize],
    with_pairs: bool,
    seed: u64,
    b: u64,
) -> Result<Sums, String> {
    let n = BATCH_GAMES as usize;
    let k = who.len();
    let mut x = vec![0i64; k * n];
    let mut g = vec![0i64; k * n];
    let mut linked = vec![false; n];
    let mut failed = None;
    for (i, &c) in who.iter().enumerate() {
        for (s, sim) in sims[c].iter().enumerate() {
            let mut rng = batch_rng(seed, b);
            let mut d = 0usize;
            sim.play_each(&mut rng, BATCH_GAMES, &mut |acc| {
                let (games, res) = G::seat_results(opts, acc);
                if games != 1 || s >= res.len() || d >= n {
                    failed
                        .get_or_insert_with(|| format!("internal: one game of batch {b} gave {games} games"));
                    return;
                }
                linked[d] |= G::carries_over(opts, acc);
                let (xv, gv) = objective.of(&res[s]);
                x[i * n + d] += xv;
                g[i * n + d] += gv;
                d += 1;
            });
            if let Some(e) = failed.take() {
                return Err(e);
            }
            if d != n {
                return Err(format!("internal: batch {b} played {d} games, expected {n}"));
            }
        }
    }
    // Units: runs of deals joined while some game carries over.
    let mut sums = if with_pairs {
        Sums::new(who)
    } else {
        Sums::alone(who)
    };
    let mut ux = vec![0i64; k];
    let mut ug = vec![0i64; k];
    for d in 0..n {
        for i in 0..k {
            ux[i] += x[i * n + d];
            ug[i] += g[i * n + d];
        }
        if linked[d] && d + 1 < n {
            continue;
        }
        for i in 0..k {
            sums.cand[i].add(ux[i], ug[i]);
            if !with_pairs {
                continue;
            }
            for j in i + 1..k {
                sums.pairs[pair(i, j, k)].add(ux[i], ug[i], ux[j], ug[j]);
            }
        }
        ux.fill(0);
        ug.fill(0);
    }
    Ok(sums)
}

/// The leader of `sums` (best signed estimate; the lower candidate number
/// on a tie), as a position in `sums.who`.
fn leader(sums: &Sums, sign: f64) -> usize {
    (0..sums.who.len())
        .max_by(|&a, &b| {
            (sign * sums.estimate(a))
                .total_cmp(&(sign * sums.estimate(b)))
                .then(b.cmp(&a))
        })
        .unwrap_or(0)
}

/// The decision after a round: the positions (in `sums.who`) to drop, and
/// whether every remaining survivor is within `margin` of the leader.
fn decide(sums: &Sums, sign: f64, z: f64, margin: f64) -> (Vec<usize>, bool) {
    let k = sums.who.len();
    let mut dropped = Vec::new();
    for i in 0..k {
        let worse = (0..k).any(|j| {
            if j == i {
                return false;
            }
            let (d, se) = sums.diff(j, i);
            se.is_finite() && sign * d - z * se > 0.0
        });
        if worse {
            dropped.push(i);
        }
    }
    let lead = leader(sums, sign);
    let within = (0..k).filter(|i| !dropped.contains(i) && *i != lead).all(|i| {
        let (d, se) = sums.diff(i, lead);
        se.is_finite() && sign * d + z * se < margin
    });
    (dropped, within)
}

/// The options read and checked before anything else: the candidates,
/// their simulations against the field, and the objective.
struct Setup<G: Game> {
    /// `--policy`, as given.
    template: String,
    /// How many candidates the template makes.
    space_size: u64,
    /// `--seed`, or a random one.
    seed: u64,
    /// `--sample`, or [`DEFAULT_SAMPLE`].
    sample_size: u32,
    /// The candidates: every one of the template, or the halving's sample.
    combos: Vec<Combo>,
    /// Each candidate's policy, resolved.
    specs: Vec<String>,
    /// What the race ranks the candidates by.
    objective: Objective,
    /// `--margin` in the estimate's units.
    margin: f64,
    /// `--field`, or the game's default policy, as given.
    field_word: String,
    /// The field's policy, resolved.
    field_spec: String,
    /// The players of a game.
    players: usize,
    /// `sims[c][s]`: candidate `c` in seat `s`, the field in the others.
    sims: Vec<Seats<G>>,
    /// Whether each candidate's policy cheats ([`Game::cheats`]).
    cheats: Vec<bool>,
}

/// Reads and checks the options, in the order their errors are reported:
/// the template and its candidates, the objective, the options tune
/// refuses, the field, and every candidate's simulations.
fn read_options<G: Game>(args: &TuneArgs<G::Options>) -> Result<Setup<G>, Failure> {
    let opts = &args.options;
    let library = args.common.library().usage()?;
    let template = args
        .policy
        .clone()
        .ok_or_else(|| Failure::Usage("give the family of policies with --policy TEMPLATE".into()))?;
    refuse_list::<G>(&template)?;
    let space = Template::parse(&template)
        .map_err(|e| format!("--policy '{template}': {e}"))
        .usage()?;
    if args.sample.is_some() && args.method != Method::Halving {
        return Err(Failure::Usage(
            "--sample: only --method halving draws a sample; the race (--method race, the default) races every candidate"
                .into(),
        ));
    }
    let seed = args.common.seed.unwrap_or_else(rand::random);
    let (space_size, combos) = draw_candidates::<G>(args, &space, &template, seed)?;
    let objective = read_objective::<G>(args)?;
    if args.common.job.shard.is_some() {
        return Err(Failure::Usage(
            "--shard: a race decides each round from all the deals played so far; sim tune does not split into shards"
                .into(),
        ));
    }
    if args.common.xlsx.is_some() {
        return Err(Failure::Usage(
            "--xlsx: sim tune writes no workbook (its CSV files open in any spreadsheet)".into(),
        ));
    }
    let field_word = args
        .field
        .clone()
        .unwrap_or_else(|| G::DEFAULT_POLICY.to_string());
    if field_word.contains(',') {
        return Err(Failure::Usage(format!(
            "--field '{field_word}': --field takes one spec, for every seat but the candidate's (each \
             candidate plays every seat in turn), not a list; e.g. --field {}",
            G::DEFAULT_POLICY
        )));
    }
    let field = library
        .resolve_policy::<G>(&field_word)
        .map_err(|e| format!("--field '{field_word}': {e}"))
        .usage()?;
    let given = Given {
        template: &template,
        field_word: &field_word,
        field: &field.policy,
    };
    let Candidates { specs, cheats, sims } = simulations::<G>(opts, &library, &combos, &given)?;
    Ok(Setup {
        space_size,
        sample_size: args.sample.unwrap_or(DEFAULT_SAMPLE),
        template,
        seed,
        combos,
        specs,
        objective,
        margin: args.margin / objective.scale(),
        field_word,
        field_spec: field.policy.to_string(),
        players: G::players(opts),
        sims,
        cheats,
    })
}

/// Refuses a `--policy` that is a list of specs (a comma outside the
/// groups, or in a choice) rather than one family: the other seats are
/// `--field`'s.
fn refuse_list<G: Game>(template: &str) -> Result<(), Failure> {
    // Between braces (odd parts) a comma separates numbers, unless the
    // group is of choices.
    let listed = (template.split(['{', '}']).enumerate())
        .any(|(i, part)| part.contains(',') && (i % 2 == 0 || part.contains('|')));
    if !listed {
        return Ok(());
    }
    // The items of the list: split at the commas outside the groups.
    let mut items = vec![String::new()];
    let mut inside = false;
    for c in template.chars() {
        match c {
            ',' if !inside => items.push(String::new()),
            _ => {
                inside = (inside || c == '{') && c != '}';
                items.last_mut().expect("one").push(c);
            }
        }
    }
    let family = items.iter().find(|i| i.contains('{'));
    let other = items.iter().find(|i| !i.contains('{') && !i.trim().is_empty());
    let example = match (family, other) {
        (Some(f), Some(o)) => format!("; e.g. --policy '{f}' --field {o}"),
        _ => String::new(),
    };
    Err(Failure::Usage(format!(
        "--policy '{template}': sim tune takes one spec, a family whose {{...}} groups make the \
         candidates, not a list of seats; every other seat plays --field (default {}){example}",
        G::DEFAULT_POLICY
    )))
}

/// The candidates of `space` (`--policy` `template`): every one for the
/// race, a sample drawn by `seed` for the halving; refused when the race
/// would have too many, or when there is only one.
fn draw_candidates<G: Game>(
    args: &TuneArgs<G::Options>,
    space: &Template,
    template: &str,
    seed: u64,
) -> Result<(u64, Vec<Combo>), Failure> {
    let space_size = space.count().ok_or_else(|| {
        Failure::Usage(format!(
            "--policy '{template}': makes {} candidates ({} values multiplied), more than the {} \
             (2^64 - 1) that can be numbered, so no sample of them can be drawn at random; use \
             fewer values or larger steps",
            group_digits(&space.count_text()),
            space.sizes(),
            grouped(u64::MAX)
        ))
    })?;
    let sample_size = args.sample.unwrap_or(DEFAULT_SAMPLE);
    let combos: Vec<Combo> = match args.method {
        Method::Race if space_size > MAX_CANDIDATES as u64 => {
            return Err(Failure::Usage(format!(
                "--policy '{template}': makes {space_size} candidates ({} values multiplied), more than \
                 the {MAX_CANDIDATES} the race (--method race, the default) takes; use fewer values or \
                 larger steps, or --method halving to race the best of a random sample of them \
                 (--sample N, default {DEFAULT_SAMPLE})",
                space.sizes()
            )));
        }
        Method::Race => (0..space_size).map(|i| space.combo(i)).collect(),
        Method::Halving => sample_indices(space_size, u64::from(sample_size), seed)
            .into_iter()
            .map(|i| space.combo(i))
            .collect(),
    };
    if combos.len() < 2 {
        return Err(Failure::Usage(format!(
            "--policy '{template}' makes one candidate: nothing to choose between; give a group of \
             at least two values, or measure one policy with sim {} --policy SPEC",
            G::NAME
        )));
    }
    Ok((space_size, combos))
}

/// `--objective`, refused with the list of the game's objectives when it
/// has no such one.
/// Refused too: one that an option of the game's would give (named), and
/// a win rate with one player, who wins every game.
fn read_objective<G: Game>(args: &TuneArgs<G::Options>) -> Result<Objective, Failure> {
    let objectives = Objective::available::<G>(&args.options);
    let names: Vec<&str> = objectives.iter().map(|(w, _)| w.as_str()).collect();
    let objective = objectives
        .iter()
        .find(|(w, _)| *w == args.objective)
        .map(|(_, o)| *o)
        .ok_or_else(|| {
            let needs = flag_giving::<G>(&args.objective).map_or(String::new(), |flag| {
                format!(" without {flag}: give {flag} to tune it")
            });
            let here = if needs.is_empty() { " here" } else { "" };
            Failure::Usage(format!(
                "--objective '{}': {} has no such objective{here}{needs}; it has {}",
                args.objective,
                G::NAME,
                names.join(", ")
            ))
        })?;
    if objective == Objective::WinRate && G::players(&args.options) == 1 {
        let others: Vec<&str> = names.iter().copied().filter(|n| *n != "win-rate").collect();
        let choose = if others.is_empty() {
            String::new()
        } else {
            format!("another objective ({}), or ", others.join(", "))
        };
        return Err(Failure::Usage(format!(
            "--objective win-rate with 1 player: the one player wins every game, so every candidate \
             wins 100% and none can be told from another; choose {choose}--players 2 or more"
        )));
    }
    Ok(objective)
}

/// The flag of the game's options (`--gambling`) that gives it the
/// objective `name`, tried one at a time on the default options; none when
/// no flag does.
fn flag_giving<G: Game>(name: &str) -> Option<String> {
    use clap::FromArgMatches;
    let command = <G::Options as Args>::augment_args(clap::Command::new(G::NAME));
    let gives = |long: &str| {
        let flag = format!("--{long}");
        (command
            .clone()
            .try_get_matches_from([G::NAME, flag.as_str()])
            .ok())
        .and_then(|m| G::Options::from_arg_matches(&m).ok())
        .is_some_and(|o| Objective::available::<G>(&o).iter().any(|(w, _)| w == name))
    };
    (command.get_arguments())
        .filter(|a| matches!(a.get_action(), clap::ArgAction::SetTrue))
        .filter_map(|a| a.get_long())
        .find(|long| gives(long))
        .map(|long| format!("--{long}"))
}

/// A candidate's simulations, one per seat: `seats[s]` has it in seat
/// `s` and the field in every other seat.
type Seats<G> = Vec<<G as Game>::Sim>;

/// What the candidates are drawn from and what the other seats play.
struct Given<'a, P> {
    /// `--policy`, the family.
    template: &'a str,
    /// `--field` as given.
    field_word: &'a str,
    /// The field's policy.
    field: &'a P,
}

/// Each candidate's policy resolved once: its spec, whether it cheats,
/// and its simulation in every seat.
struct Candidates<G: Game> {
    specs: Vec<String>,
    cheats: Vec<bool>,
    sims: Vec<Seats<G>>,
}

/// Each candidate's spec, whether it cheats and its simulation in every
/// seat, the field in the others. A seat the table refuses is named with
/// the option it came from (`--policy` and the candidate, or `--field`).
fn simulations<G: Game>(
    opts: &G::Options,
    library: &Library,
    combos: &[Combo],
    given: &Given<'_, G::Policy>,
) -> Result<Candidates<G>, Failure> {
    let players = G::players(opts);
    let mut sims: Vec<Seats<G>> = Vec::with_capacity(combos.len());
    let mut specs = Vec::with_capacity(combos.len());
    let mut cheats = Vec::with_capacity(combos.len());
    for c in combos {
        let from = format!("--policy '{}': candidate '{}'", given.template, c.spec);
        let r = library
            .resolve_policy::<G>(&c.spec)
            .map_err(|e| format!("{from}: {e}"))
            .usage()?;
        specs.push(r.policy.to_string());
        cheats.push(G::cheats(&r.policy));
        let named = [
            (from, &r.policy),
            (format!("--field '{}'", given.field_word), given.field),
        ];
        let mut seats = Vec::with_capacity(players);
        for s in 0..players {
            let lineup: Vec<G::Policy> = (0..players)
                .map(|t| {
                    if t == s {
                        r.policy.clone()
                    } else {
                        given.field.clone()
                    }
                })
                .collect();
            seats.push(crate::engine::strategies::simulation_of::<G>(opts, &lineup, &named).usage()?);
        }
        sims.push(seats);
    }
    Ok(Candidates { specs, cheats, sims })
}

/// The run's batches, fixed before any game is played: the halving's
/// stages, then the race's rounds, then the fresh deals.
struct Plan {
    /// The halving's stages (none for `--method race`).
    halving: Halving,
    /// Games a candidate plays in a batch: each deal in every seat.
    games_per_batch: u64,
    /// How many candidates the race starts with.
    finalists: usize,
    /// The race's first batch (the batches follow the halving's).
    race_start: u64,
    /// The most rounds the race can play.
    race_rounds: usize,
    /// The batch after the race's last: the fresh deals' first.
    race_units: u64,
    /// The fresh deals' batches.
    fresh_batches: u64,
    /// Every batch of the run.
    units: u64,
    /// The most games the halving and the race may play (`--budget`).
    budget: u64,
}

/// Plans the batches of `--budget` and `--fresh`: the halving (none for
/// the race, or for a sample of at most [`FINALISTS`]) spends at most half
/// the budget, the race the rest; refused when the budget cannot pay for
/// a halving stage or the race's first round.
fn plan_batches<G: Game>(args: &TuneArgs<G::Options>, setup: &Setup<G>) -> Result<Plan, Failure> {
    let n = setup.combos.len();
    let players = setup.players;
    let games_per_batch = BATCH_GAMES * players as u64;
    let halving = match args.method {
        Method::Race => Halving {
            kept: vec![n],
            ..Halving::default()
        },
        Method::Halving => Halving::plan(n, args.budget / 2, games_per_batch).ok_or_else(|| {
            Failure::Usage(format!(
                "--budget {}: the halving of {n} candidates plays at least one batch of {BATCH_GAMES} deals \
                 per candidate and {} in each stage, and may spend half the budget: give at least {} games, \
                 or a smaller --sample",
                args.budget,
                plural(players as u64, "seat"),
                grouped(Halving::least_budget(n, games_per_batch))
            ))
        })?,
    };
    let race_budget = args.budget - halving.games(games_per_batch);
    let finalists = *halving.kept.last().expect("one");
    let first_round = finalists as u64 * games_per_batch;
    if race_budget < first_round {
        return Err(Failure::Usage(format!(
            "--budget {}: the first round alone plays {} ({finalists} candidates, {BATCH_GAMES} deals, {}); give at least that",
            args.budget,
            plural(first_round, "game"),
            plural(players as u64, "seat")
        )));
    }
    // The race never plays more batches than the budget pays for with two
    // candidates; its batch numbers end at a round's end past that.
    let race_start = halving.units();
    let most = (race_budget / (2 * games_per_batch)).max(1);
    let mut race_rounds = 1usize;
    while round_batches(race_rounds).0 < most {
        race_rounds += 1;
    }
    let race_units = race_start + round_batches(race_rounds).0;
    let fresh_batches = args.fresh.div_ceil(BATCH_GAMES);
    check_fresh(args.fresh, fresh_batches * games_per_batch, finalists, players)?;
    Ok(Plan {
        halving,
        games_per_batch,
        finalists,
        race_start,
        race_rounds,
        race_units,
        fresh_batches,
        units: race_units + fresh_batches,
        budget: args.budget,
    })
}

/// Refuses `--fresh` (`fresh` deals) when its games pass the cap of
/// every count of games ([`MAX_GAMES`]): `per_candidate` games for each
/// of up to `finalists` survivors, at `players` seats.
fn check_fresh(fresh: u64, per_candidate: u64, finalists: usize, players: usize) -> Result<(), Failure> {
    let games = u128::from(per_candidate) * finalists as u128;
    if games <= u128::from(MAX_GAMES) {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "--fresh {}: {} games ({} deals, each played by up to {finalists} survivors in {}): {}",
        format_count(fresh),
        group_digits(&games.to_string()),
        grouped(per_candidate / players as u64),
        plural(players as u64, "seat"),
        too_many()
    )))
}

/// Where the results go, checked before any game is played.
struct Outputs {
    /// `--out`, or the folder the run's options name.
    out_dir: PathBuf,
    /// The files written into it.
    files: Files,
    /// The page's date (none with `--no-report`).
    report_date: Option<String>,
}

/// The output folder (named by the run's options unless `--out` gives
/// one), the page's date and the files, checked before any game.
fn prepare_outputs<G: Game>(args: &TuneArgs<G::Options>, setup: &Setup<G>) -> Result<Outputs, Failure> {
    let players = setup.players;
    let mut parts = vec![
        "tune".to_string(),
        G::NAME.to_string(),
        file_label(std::slice::from_ref(&setup.template)),
    ];
    if players > 1 {
        parts.push(format!(
            "vs-{}",
            file_label(std::slice::from_ref(&setup.field_word))
        ));
    }
    parts.push(format!("{players}p"));
    parts.push(args.objective.clone());
    if args.method == Method::Halving {
        parts.push(format!("halving{}", setup.sample_size));
    }
    parts.extend(G::variants(&args.options).into_iter().map(|v| v.file));
    parts.push(format!("seed{}", setup.seed));
    let out_dir = args.common.out_dir(&parts);
    let mut file_names = vec!["candidates.csv", "rounds.csv"];
    if !args.common.no_charts {
        file_names.extend(["race.svg", "race.png"]);
    }
    if !args.common.no_report {
        file_names.push("report.html");
    }
    let report_date = if args.common.no_report {
        None
    } else {
        Some(args.common.study_date()?)
    };
    let files = Files::prepare(&out_dir, &file_names, None)?;
    Ok(Outputs {
        out_dir,
        files,
        report_date,
    })
}

/// The job of the run's batches, defined by its options (so that
/// `--resume` takes only a state of the same run), with the output files
/// checked against its state files.
fn start_job<G: Game>(
    args: &TuneArgs<G::Options>,
    setup: &Setup<G>,
    plan: &Plan,
    outputs: &Outputs,
) -> Result<Job<TuneTally>, Failure> {
    let definition = serde_json::json!({
        "command": "sim tune GAME",
        "game": G::NAME,
        "players": setup.players,
        "template": setup.template,
        "candidates": setup.specs,
        "field": setup.field_spec,
        "objective": args.objective,
        "variants": G::variants(&args.options).into_iter().map(|v| v.file).collect::<Vec<_>>(),
        "budget": args.budget,
        "margin": args.margin.to_string(),
        "fresh": args.fresh,
        "method": format!("{:?}", args.method).to_lowercase(),
        "sample": setup.sample_size,
        "seed": setup.seed.to_string(),
    });
    let job: Job<TuneTally> = Job::start(
        &args.common.job,
        definition,
        plan.units,
        &state_beside(&outputs.out_dir),
        TuneTally::default(),
        TuneTally::merge,
    )?;
    job.check_outputs(outputs.files.destinations(&outputs.out_dir))?;
    Ok(job)
}

/// What plays the batches: the candidates' simulations, the worker
/// threads and the progress bar.
struct Runner<'a, G: Game> {
    /// The game's options.
    opts: &'a G::Options,
    /// The candidates, their simulations, the objective and the seed.
    setup: &'a Setup<G>,
    /// `--threads`, or every core.
    threads: usize,
    /// The worker threads.
    pool: rayon::ThreadPool,
    /// When the games started.
    start: Instant,
    /// The progress bar, of games up to `--budget`.
    bar: ProgressBar,
}

impl<'a, G: Game> Runner<'a, G> {
    /// Starts the worker threads and the progress bar.
    fn start(args: &'a TuneArgs<G::Options>, setup: &'a Setup<G>) -> Result<Runner<'a, G>, Failure> {
        let threads = args.common.threads();
        let pool = crate::engine::runner::pool(threads)?;
        let start = Instant::now();
        let bar = crate::engine::runner::progress_bar(args.common.progress(), args.budget);
        Ok(Runner {
            opts: &args.options,
            setup,
            threads,
            pool,
            start,
            bar,
        })
    }

    /// Plays the batches of `range` that `job` has not done yet with
    /// candidates `who`, their sums going where `phase` says.
    fn play(
        &self,
        job: &mut Job<TuneTally>,
        who: &[usize],
        phase: Phase,
        range: Range<u64>,
    ) -> Result<(), Failure> {
        let mut play = |ranges: &[Range<u64>]| {
            play_batches::<G>(
                self.opts,
                &self.setup.sims,
                self.setup.objective,
                who,
                phase,
                self.setup.seed,
                ranges,
                &self.pool,
                &self.bar,
                stop_flag(),
            )
        };
        job.play(range, &mut play)
    }
}

/// Where the halving and the race got to: the candidates left, the stage
/// or round each other one left in, the games played, and the rows of
/// rounds.csv.
struct Race {
    /// The candidates still in, by number.
    who: Vec<usize>,
    /// The halving stage that cut each candidate.
    cut_in: Vec<Option<usize>>,
    /// Each candidate's deals in the halving.
    halving_deals_of: Vec<u64>,
    /// Each candidate's estimate over the halving stages it played.
    halving_estimate: Vec<f64>,
    /// The race round that dropped each candidate.
    dropped_in: Vec<Option<usize>>,
    /// Each candidate's games in the halving and the race.
    games_of: Vec<u64>,
    /// The halving's stages, as rounds.csv shows them.
    stage_rows: Vec<RoundRow>,
    /// The race's rounds, as rounds.csv shows them.
    rows: Vec<RoundRow>,
    /// The games the halving and the race played.
    used: u64,
    /// The deals of the race's rounds.
    deals_total: u64,
    /// Why the race stopped (none until it does).
    stop: Option<Stop>,
    /// The multiplier of the last round's intervals.
    last_z: f64,
    /// The winner, once the race is over ([`Race::choose_winner`]).
    winner: usize,
    /// The survivors in order, the winner first, once the race is over.
    survivors: Vec<usize>,
}

impl Race {
    /// Before any game: every one of `n` candidates in.
    fn new(n: usize) -> Race {
        Race {
            who: (0..n).collect(),
            cut_in: vec![None; n],
            halving_deals_of: vec![0; n],
            halving_estimate: vec![f64::NAN; n],
            dropped_in: vec![None; n],
            games_of: vec![0; n],
            stage_rows: Vec::new(),
            rows: Vec::new(),
            used: 0,
            deals_total: 0,
            stop: None,
            last_z: f64::NAN,
            winner: 0,
            survivors: Vec::new(),
        }
    }

    /// The halving: each stage plays its batches with the candidates
    /// left, then keeps the best of them ([`Race::halving_stage`]).
    fn play_halving<G: Game>(
        &mut self,
        runner: &Runner<'_, G>,
        job: &mut Job<TuneTally>,
        plan: &Plan,
    ) -> Result<(), Failure> {
        for h in 0..plan.halving.stages() {
            self.halving_stage(runner, job, plan, h)?;
        }
        Ok(())
    }

    /// Halving stage `h`: plays its batches with the candidates left, then
    /// keeps the best of them by their estimates over every stage so far
    /// (the lower candidate number on a tie).
    fn halving_stage<G: Game>(
        &mut self,
        runner: &Runner<'_, G>,
        job: &mut Job<TuneTally>,
        plan: &Plan,
        h: usize,
    ) -> Result<(), Failure> {
        let (first, count) = (plan.halving.start[h], plan.halving.batches[h]);
        runner.play(job, &self.who, Phase::Halving(h), first..first + count)?;
        let games = count * self.who.len() as u64 * plan.games_per_batch;
        self.used += games;
        for &c in &self.who {
            self.games_of[c] += count * plan.games_per_batch;
            self.halving_deals_of[c] += count * BATCH_GAMES;
        }
        let sign = runner.setup.objective.sign();
        let sums = job.tally().halved(h, &self.who);
        let mut order: Vec<usize> = (0..self.who.len()).collect();
        order.sort_by(|&a, &b| {
            (sign * sums.estimate(b))
                .total_cmp(&(sign * sums.estimate(a)))
                .then(self.who[a].cmp(&self.who[b]))
        });
        for (i, &c) in self.who.iter().enumerate() {
            self.halving_estimate[c] = sums.estimate(i);
        }
        let keep = plan.halving.kept[h + 1];
        let mut gone: Vec<usize> = order[keep..].iter().map(|&i| self.who[i]).collect();
        gone.sort_unstable();
        for &c in &gone {
            self.cut_in[c] = Some(h);
        }
        self.stage_rows.push(RoundRow {
            deals: count * BATCH_GAMES,
            deals_total: self.halving_deals_of[self.who[order[0]]],
            candidates: self.who.len(),
            games,
            games_total: self.used,
            alpha: f64::NAN,
            z: f64::NAN,
            dropped: gone.clone(),
            leader: self.who[order[0]],
            leader_estimate: sums.estimate(order[0]),
            survivors: keep,
            stop: String::new(),
        });
        self.who.retain(|c| !gone.contains(c));
        Ok(())
    }

    /// The race: round after round ([`Race::race_round`]) until it stops.
    fn play_race<G: Game>(
        &mut self,
        runner: &Runner<'_, G>,
        job: &mut Job<TuneTally>,
        plan: &Plan,
    ) -> Result<(), Failure> {
        let mut r = 0usize;
        while self.stop.is_none() {
            self.race_round(runner, job, plan, r)?;
            r += 1;
        }
        Ok(())
    }

    /// Race round `r`: stops on the budget when it cannot pay for a batch
    /// of the round, or the plan has no more rounds; otherwise plays the
    /// batches it can pay for, drops every candidate significantly worse
    /// than another, and stops when one is left, when every survivor is
    /// within the margin of the leader, or when the round was cut short.
    fn race_round<G: Game>(
        &mut self,
        runner: &Runner<'_, G>,
        job: &mut Job<TuneTally>,
        plan: &Plan,
        r: usize,
    ) -> Result<(), Failure> {
        let k = self.who.len() as u64;
        let (first, full) = round_batches(r);
        let first = plan.race_start + first;
        let afford = (plan.budget - self.used) / (k * plan.games_per_batch);
        let count = full.min(afford);
        if count == 0 || r >= plan.race_rounds {
            self.stop_by(Stop::Budget);
            return Ok(());
        }
        runner.play(job, &self.who, Phase::Race(r), first..first + count)?;
        let games = count * k * plan.games_per_batch;
        self.used += games;
        self.deals_total += count * BATCH_GAMES;
        for &c in &self.who {
            self.games_of[c] += count * plan.games_per_batch;
        }
        let alpha = round_alpha(ALPHA, r);
        let z = pair_z(alpha, self.who.len());
        self.last_z = z;
        let sign = runner.setup.objective.sign();
        let sums = job.tally().cumulative(r, &self.who);
        let (drop, within) = decide(&sums, sign, z, runner.setup.margin);
        let lead = leader(&sums, sign);
        let gone: Vec<usize> = drop.iter().map(|&i| self.who[i]).collect();
        for &c in &gone {
            self.dropped_in[c] = Some(r);
        }
        let row = RoundRow {
            deals: count * BATCH_GAMES,
            deals_total: self.deals_total,
            candidates: self.who.len(),
            games,
            games_total: self.used,
            alpha,
            z,
            dropped: gone.clone(),
            leader: self.who[lead],
            leader_estimate: sums.estimate(lead),
            survivors: self.who.len() - gone.len(),
            stop: String::new(),
        };
        self.who.retain(|c| !gone.contains(c));
        self.rows.push(row);
        if self.who.len() == 1 {
            self.stop_by(Stop::OneLeft);
        } else if within {
            self.stop_by(Stop::Margin);
        } else if count < full {
            self.stop_by(Stop::Budget);
        }
        Ok(())
    }

    /// Stops the race for `why`, which the last round's row records.
    fn stop_by(&mut self, why: Stop) {
        self.stop = Some(why);
        if let Some(last) = self.rows.last_mut() {
            last.stop = why.word().to_string();
        }
    }

    /// Picks the winner, the leader of the survivors on the race's deals
    /// (the first survivor when no round was played), and puts the
    /// survivors in order, the winner first.
    fn choose_winner(&mut self, tally: &TuneTally, sign: f64) {
        let final_sums = match self.rows.len() {
            0 => None,
            played => Some(tally.cumulative(played - 1, &self.who)),
        };
        self.winner = final_sums
            .as_ref()
            .map_or(self.who[0], |s| s.who[leader(s, sign)]);
        self.survivors = self.who.clone();
        self.survivors.sort_by_key(|&c| (c != self.winner, c));
    }
}

/// Plays the halving, the race and the survivors' fresh deals, and picks
/// the winner; the progress bar is cleared before an interrupt or an
/// error is reported.
fn play_all<G: Game>(runner: &Runner<'_, G>, job: &mut Job<TuneTally>, plan: &Plan) -> Result<Race, Failure> {
    let mut race = Race::new(runner.setup.combos.len());
    let played = race
        .play_halving(runner, job, plan)
        .and_then(|()| race.play_race(runner, job, plan));
    race.choose_winner(job.tally(), runner.setup.objective.sign());
    let played =
        played.and_then(|()| runner.play(job, &race.survivors, Phase::Fresh, plan.race_units..plan.units));
    runner.bar.finish_and_clear();
    played.map(|()| race)
}

/// A chart's points, `(x, y, low, high)` each.
type Points = Vec<(f64, f64, f64, f64)>;

/// candidates.csv's header and rows, and the chart's points.
struct CandidateTable {
    /// candidates.csv's header.
    header: Vec<String>,
    /// One row per candidate.
    rows: Vec<Vec<String>>,
    /// Each candidate's estimate when last played, with its band.
    race_points: Points,
    /// The stages and rounds each candidate stayed.
    round_points: Points,
    /// Whether the template has one group of numbers only, the chart's
    /// x axis then.
    single_number: bool,
}

/// The run once every batch is played: what the files and the console
/// are written from.
struct Results<'a, G: Game> {
    /// The command's options.
    args: &'a TuneArgs<G::Options>,
    /// The candidates, the field and the objective.
    setup: &'a Setup<G>,
    /// The batches of the run.
    plan: &'a Plan,
    /// Where the halving and the race got to, the winner and the
    /// survivors.
    race: Race,
    /// Everything played.
    tally: TuneTally,
    /// What the run says of the state files it resumed from, if any.
    resumed: Option<String>,
    /// The command line, as run.
    command: String,
    /// The worker threads.
    threads: usize,
    /// The seconds the games took.
    secs: f64,
    /// The deals a sweep of equal confidence gives each candidate (0 when
    /// the race made no decision to size it by).
    sweep_deals: u64,
    /// Whether the objective told some candidates apart
    /// ([`Results::estimates_differ`]); no winner is named otherwise.
    separated: bool,
}

impl<'a, G: Game> Results<'a, G> {
    /// The results of `job`, whose every batch is played, and the state
    /// files to settle once they are written.
    fn new(
        args: &'a TuneArgs<G::Options>,
        setup: &'a Setup<G>,
        plan: &'a Plan,
        race: Race,
        job: Job<TuneTally>,
        runner: &Runner<'_, G>,
    ) -> (Results<'a, G>, Leftovers) {
        let resumed = job.resumed_note();
        let command = job.command_line();
        let (tally, leftovers) = job.into_tally();
        let secs = runner.start.elapsed().as_secs_f64();
        let sweep_deals = sweep_deals(setup, &race, &tally);
        let mut results = Results {
            args,
            setup,
            plan,
            race,
            tally,
            resumed,
            command,
            threads: runner.threads,
            secs,
            sweep_deals,
            separated: true,
        };
        results.separated = results.estimates_differ();
        (results, leftovers)
    }

    /// Whether two of the estimates (every candidate's in the halving or
    /// the race, and on fresh deals) differ. When every one is equal or
    /// undefined (no game gave the objective a value) the objective told
    /// no one apart.
    fn estimates_differ(&self) -> bool {
        let fresh = &self.tally.fresh;
        let mut values = (0..self.setup.combos.len())
            .flat_map(|c| {
                let own = match self.race.cut_in[c] {
                    Some(_) => self.race.halving_estimate[c],
                    None => self.race_estimate(c).0,
                };
                let new = (fresh.who.iter().position(|&w| w == c)).map_or(f64::NAN, |i| fresh.estimate(i));
                [own, new]
            })
            .filter(|v| v.is_finite());
        let first = values.next();
        values.any(|v| Some(v) != first)
    }

    /// The only value of every estimate, in the objective's points (none
    /// when every one is undefined), for a run that told no one apart.
    fn common_estimate(&self) -> Option<f64> {
        let scale = self.setup.objective.scale();
        (0..self.setup.combos.len())
            .map(|c| match self.race.cut_in[c] {
                Some(_) => self.race.halving_estimate[c],
                None => self.race_estimate(c).0,
            })
            .find(|v| v.is_finite())
            .map(|v| v * scale)
    }

    /// Why no winner is named: the objective told no candidate apart.
    fn no_winner_why(&self) -> String {
        let objective = &self.args.objective;
        match self.common_estimate() {
            Some(v) => format!(
                "{objective} could not separate the candidates: every estimate, in the race and on fresh deals, is {v:.4}{}",
                if self.setup.objective == Objective::WinRate {
                    "%"
                } else {
                    ""
                }
            ),
            None => format!(
                "{objective} could not separate the candidates: no game gave it a value, so every estimate is undefined"
            ),
        }
    }

    /// The fresh estimate of candidate `c` and its 95% interval, in the
    /// objective's points; none for a candidate that played no fresh deal.
    fn fresh_estimate(&self, c: usize) -> Option<(f64, (f64, f64))> {
        let fresh = &self.tally.fresh;
        let scale = self.setup.objective.scale();
        let i = fresh.who.iter().position(|&w| w == c)?;
        let r = &fresh.cand[i];
        let e = r.estimate();
        let ci = if self.setup.objective == Objective::WinRate {
            let (lo, hi) = r.share_interval();
            // Shares of games: a deal's games are its seats.
            (lo, hi)
        } else {
            r.mean_interval().unwrap_or((f64::NAN, f64::NAN))
        };
        // Undefined (no game gave the objective a value): nothing to show.
        [e, ci.0, ci.1]
            .iter()
            .all(|v| v.is_finite())
            .then_some((e * scale, (ci.0 * scale, ci.1 * scale)))
    }

    /// Candidate `c`'s fresh difference to the winner and its 95%
    /// interval, in the objective's points; none for the winner, and for
    /// a candidate that played no fresh deal.
    fn fresh_diff(&self, c: usize) -> Option<(f64, (f64, f64))> {
        let fresh = &self.tally.fresh;
        let scale = self.setup.objective.scale();
        let i = fresh.who.iter().position(|&w| w == c)?;
        let w = fresh.who.iter().position(|&w| w == self.race.winner)?;
        if i == w || !self.separated {
            return None;
        }
        let (d, se) = fresh.diff(i, w);
        let h = t975(fresh.cand[i].units.saturating_sub(1)) * se;
        (d.is_finite() && h.is_finite()).then_some((d * scale, ((d - h) * scale, (d + h) * scale)))
    }

    /// The games of the survivors' fresh deals.
    fn fresh_games(&self) -> u64 {
        self.plan.fresh_batches * self.plan.games_per_batch * self.race.survivors.len() as u64
    }

    /// The deals of the halving's stages.
    fn halving_deals(&self) -> u64 {
        self.plan.halving.units() * BATCH_GAMES
    }

    /// The games the halving played.
    fn halving_used(&self) -> u64 {
        self.race.stage_rows.iter().map(|w| w.games).sum()
    }

    /// Candidate `c`'s race estimate and its standard error over the
    /// rounds it played; NaN for a candidate cut by the halving, or when
    /// the race played no round.
    fn race_estimate(&self, c: usize) -> (f64, f64) {
        let played = self.race.rows.len();
        if played > 0 && self.race.cut_in[c].is_none() {
            let s = self.tally.cumulative(self.last_round(c), &[c]);
            (s.cand[0].estimate(), s.cand[0].stderr().unwrap_or(f64::NAN))
        } else {
            (f64::NAN, f64::NAN)
        }
    }

    /// The last race round candidate `c` played (0 when none was played).
    fn last_round(&self, c: usize) -> usize {
        self.race.dropped_in[c].unwrap_or(self.race.rows.len().saturating_sub(1))
    }

    /// Whether candidate `c` is the winner (none is when the objective
    /// told no one apart).
    fn is_winner(&self, c: usize) -> bool {
        c == self.race.winner && self.separated
    }

    /// Candidate `c`'s status in candidates.csv.
    fn status(&self, c: usize) -> &'static str {
        if self.is_winner(c) {
            "winner"
        } else if self.race.cut_in[c].is_some() {
            "cut"
        } else if self.race.dropped_in[c].is_none() {
            "survivor"
        } else {
            "dropped"
        }
    }

    /// candidates.csv's header and rows, and the chart's points.
    fn candidates(&self) -> CandidateTable {
        let combos = &self.setup.combos;
        let groups = combos.first().map_or(0, |c| c.values.len());
        let mut header: Vec<String> = vec!["candidate".into(), "policy".into()];
        header.extend((1..=groups).map(|g| format!("value_{g}")));
        header.extend(CANDIDATE_COLUMNS.map(String::from));
        if self.any_cheats() {
            header.push("cheats".into());
        }
        let single_number = groups == 1 && combos.iter().all(|c| c.values[0].parse::<f64>().is_ok());
        let (race_points, round_points) = self.chart_points(single_number);
        CandidateTable {
            header,
            rows: (0..combos.len()).map(|c| self.candidate_row(c)).collect(),
            race_points,
            round_points,
            single_number,
        }
    }

    /// Candidate `c`'s row of candidates.csv.
    fn candidate_row(&self, c: usize) -> Vec<String> {
        let (race, plan) = (&self.race, self.plan);
        let scale = self.setup.objective.scale();
        let players = self.setup.players as u64;
        let combo = &self.setup.combos[c];
        let (est, se) = self.race_estimate(c);
        let fe = self.fresh_estimate(c);
        let fd = self.fresh_diff(c);
        let race_games = race.games_of[c] - race.halving_deals_of[c] * players;
        let race_deals = race_games / players;
        let in_race = race.cut_in[c].is_none();
        let fresh = self.tally.fresh.who.contains(&c);
        let halved = plan.halving.stages() > 0;
        let shown = |show: bool, value: &dyn Fn() -> String| if show { value() } else { String::new() };
        let mut row = vec![(c + 1).to_string(), combo.spec.clone()];
        row.extend(combo.values.iter().cloned());
        row.extend([
            self.status(c).to_string(),
            race.cut_in[c].map_or(String::new(), |h| h.to_string()),
            shown(halved, &|| race.halving_deals_of[c].to_string()),
            shown(halved, &|| f6(race.halving_estimate[c] * scale)),
            race.dropped_in[c].map_or(String::new(), |r| r.to_string()),
            shown(in_race, &|| race_deals.to_string()),
            shown(in_race, &|| race_games.to_string()),
            shown(in_race, &|| f6(est * scale)),
            shown(in_race, &|| f6(se * scale)),
            shown(fresh, &|| (plan.fresh_batches * BATCH_GAMES).to_string()),
            shown(fresh, &|| (plan.fresh_batches * plan.games_per_batch).to_string()),
            fe.map_or(String::new(), |v| f6(v.0)),
            fe.map_or(String::new(), |v| f6(v.1.0)),
            fe.map_or(String::new(), |v| f6(v.1.1)),
            fd.map_or(String::new(), |v| f6(v.0)),
            fd.map_or(String::new(), |v| f6(v.1.0)),
            fd.map_or(String::new(), |v| f6(v.1.1)),
        ]);
        if self.any_cheats() {
            row.push(u8::from(self.setup.cheats[c]).to_string());
        }
        row
    }

    /// Whether some candidate's policy cheats: candidates.csv then has a
    /// `cheats` column.
    fn any_cheats(&self) -> bool {
        self.setup.cheats.contains(&true)
    }

    /// Candidate `c`'s spec, marked when it cheats and when it is the
    /// winner, as the console's and the page's tables show it.
    fn label(&self, c: usize, winner: bool) -> String {
        let spec = &self.setup.combos[c].spec;
        match (winner, self.setup.cheats[c]) {
            (true, true) => format!("{spec} (winner, cheats)"),
            (true, false) => format!("{spec} (winner)"),
            (false, true) => format!("{spec} (cheats)"),
            (false, false) => spec.clone(),
        }
    }

    /// The line naming the candidates that cheat, as a plain run and a
    /// tournament say it (none when no candidate does).
    fn cheats_line(&self) -> Option<String> {
        let cheating: Vec<&str> = (0..self.setup.combos.len())
            .filter(|&c| self.setup.cheats[c])
            .map(|c| self.setup.combos[c].spec.as_str())
            .collect();
        match cheating.len() {
            0 => None,
            1 => Some(format!(
                "{} cheats: its policy sees what no player can; its results are an upper bound, not a strategy",
                cheating[0]
            )),
            _ => Some(format!(
                "{} cheat: their policies see what no player can; their results are upper bounds, not strategies",
                cheating.join(", ")
            )),
        }
    }

    /// The chart's points, at each candidate's value when the template
    /// has `single_number`, else at its number: the estimate when last
    /// played with its band, and the stages and rounds it stayed.
    fn chart_points(&self, single_number: bool) -> (Points, Points) {
        let n = self.setup.combos.len();
        let scale = self.setup.objective.scale();
        let mut race_points = Vec::with_capacity(n);
        let mut round_points = Vec::with_capacity(n);
        for (c, combo) in self.setup.combos.iter().enumerate() {
            let x = if single_number {
                combo.values[0].parse::<f64>().unwrap_or(c as f64)
            } else {
                (c + 1) as f64
            };
            let (est, se) = self.race_estimate(c);
            // A point without an estimate is left out, a band without an
            // error drawn as the point (plotters cannot place NaN); a
            // candidate the halving cut shows its halving estimate,
            // without a band.
            if self.race.cut_in[c].is_some() {
                let e = self.race.halving_estimate[c] * scale;
                if e.is_finite() {
                    race_points.push((x, e, e, e));
                }
            } else if est.is_finite() {
                let h = crate::engine::stats::Z95 * se;
                let (lo, hi) = if h.is_finite() {
                    (est - h, est + h)
                } else {
                    (est, est)
                };
                race_points.push((x, est * scale, lo * scale, hi * scale));
            }
            let rounds_in = match self.race.cut_in[c] {
                Some(h) => (h + 1) as f64,
                None => (self.plan.halving.stages() + self.last_round(c) + 1) as f64,
            };
            round_points.push((x, rounds_in, 0.0, rounds_in));
        }
        (race_points, round_points)
    }

    /// rounds.csv: a row per halving stage, then per race round.
    fn rounds_csv(&self) -> Result<Vec<u8>, Failure> {
        let combos = &self.setup.combos;
        let scale = self.setup.objective.scale();
        let header: Vec<String> = ROUND_COLUMNS.map(String::from).to_vec();
        let phases = (self.race.stage_rows.iter().enumerate())
            .map(|(h, w)| ("halving", h, w))
            .chain(self.race.rows.iter().enumerate().map(|(r, w)| ("race", r, w)));
        let rows: Vec<Vec<String>> = phases
            .map(|(phase, r, w)| {
                let tested = phase == "race";
                vec![
                    phase.to_string(),
                    r.to_string(),
                    w.deals.to_string(),
                    w.deals_total.to_string(),
                    w.candidates.to_string(),
                    w.games.to_string(),
                    w.games_total.to_string(),
                    if tested {
                        format!("{:.6e}", w.alpha)
                    } else {
                        String::new()
                    },
                    if tested { f6(w.z) } else { String::new() },
                    w.dropped.len().to_string(),
                    w.dropped
                        .iter()
                        .map(|&c| combos[c].spec.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    w.survivors.to_string(),
                    if self.separated {
                        combos[w.leader].spec.clone()
                    } else {
                        String::new()
                    },
                    f6(w.leader_estimate * scale),
                    w.stop.clone(),
                ]
            })
            .collect();
        Ok(run_csv_bytes(&header, &rows, self.setup.seed)?)
    }
}

/// candidates.csv's columns after the candidate, its policy and its
/// values.
const CANDIDATE_COLUMNS: [&str; 17] = [
    "status",
    "cut_in_stage",
    "halving_deals",
    "halving_estimate",
    "dropped_in_round",
    "race_deals",
    "race_games",
    "race_estimate",
    "race_stderr",
    "fresh_deals",
    "fresh_games",
    "fresh_estimate",
    "fresh_ci95_low",
    "fresh_ci95_high",
    "fresh_diff_to_winner",
    "fresh_diff_ci95_low",
    "fresh_diff_ci95_high",
];

/// rounds.csv's columns.
const ROUND_COLUMNS: [&str; 15] = [
    "phase",
    "round",
    "deals",
    "deals_total",
    "candidates",
    "games",
    "games_total",
    "alpha",
    "z",
    "dropped",
    "dropped_policies",
    "survivors",
    "leader",
    "leader_race_estimate",
    "stop",
];

/// The deals a sweep of equal confidence gives each candidate, in whole
/// batches: every candidate the same deals, one look at the full level,
/// enough deals to make every decision the race made (a drop, or a
/// survivor within the margin), by the race's own estimates of each
/// difference and its spread; 0 when the race made no such decision.
fn sweep_deals<G: Game>(setup: &Setup<G>, race: &Race, tally: &TuneTally) -> u64 {
    let (winner, sign, margin) = (race.winner, setup.objective.sign(), setup.margin);
    let z_sweep = pair_z(ALPHA, setup.combos.len());
    let mut sweep_deals: f64 = 0.0;
    for (c, dropped) in race.dropped_in.iter().enumerate() {
        if c == winner || race.cut_in[c].is_some() {
            continue;
        }
        let (upto, gap_of): (usize, Box<dyn Fn(f64) -> f64>) = match *dropped {
            Some(r) => (r, Box::new(|d: f64| -d)),
            None if race.stop == Some(Stop::Margin) => {
                (race.rows.len() - 1, Box::new(move |d: f64| margin - d))
            }
            None => continue,
        };
        let s = tally.cumulative(upto, &[winner, c]);
        let (d, se) = s.diff(1, 0);
        let gap = gap_of(sign * d);
        let units = s.cand[0].units as f64;
        if gap > 0.0 && se.is_finite() {
            let sd = se * units.sqrt();
            sweep_deals = sweep_deals.max((z_sweep * sd / gap).powi(2));
        }
    }
    (sweep_deals.ceil() as u64).div_ceil(BATCH_GAMES) * BATCH_GAMES
}

/// The console's lines that the page's conclusion repeats.
struct Lines {
    /// The halving's candidates, stages, deals and games (none without a
    /// halving).
    halving: Option<String>,
    /// The race's rounds, deals and games, and why it stopped.
    race: String,
    /// The survivors, and the chance that the race went wrong.
    confidence: String,
    /// The candidates that cheat (none when no candidate does).
    cheats: Option<String>,
    /// The winner and the survivors within its fresh interval (none when
    /// the winner has no fresh estimate).
    winner: Option<String>,
    /// The games played, against a sweep of equal confidence.
    games: String,
}

impl<G: Game> Results<'_, G> {
    /// Why the race stopped (the budget, for a race that played no round).
    fn stop(&self) -> Stop {
        self.race.stop.unwrap_or(Stop::Budget)
    }

    /// What `--margin` is counted in, after the number.
    fn unit(&self) -> &'static str {
        if self.setup.objective == Objective::WinRate {
            " points"
        } else {
            ""
        }
    }

    /// The halving's stages (0 without a halving).
    fn stages(&self) -> usize {
        self.plan.halving.stages()
    }

    /// The games the race played.
    fn race_used(&self) -> u64 {
        self.race.used - self.halving_used()
    }

    /// The games of a sweep of equal confidence.
    fn sweep_games(&self) -> u64 {
        self.sweep_deals * self.setup.combos.len() as u64 * self.setup.players as u64
    }

    /// The console's summary, and the lines of it the page repeats.
    fn console(&self) -> (Vec<u8>, Lines) {
        let mut summary = Vec::new();
        self.write_heading(&mut summary);
        let lines = Lines {
            halving: self.halving_line(),
            race: self.race_line(),
            confidence: self.confidence_line(),
            cheats: self.cheats_line(),
            winner: self.winner_line(),
            games: self.games_line(),
        };
        if let Some(line) = &lines.halving {
            let _ = writeln!(summary, "{line}");
        }
        let _ = writeln!(summary, "{}", lines.race);
        let _ = writeln!(summary, "{}", lines.confidence);
        self.write_fresh_table(&mut summary);
        if let Some(line) = &lines.cheats {
            let _ = writeln!(summary, "{line}");
        }
        if let Some(line) = &lines.winner {
            let _ = writeln!(summary, "{line}");
        }
        let _ = writeln!(summary, "{}", lines.games);
        let _ = writeln!(summary, "{}", self.same_deals_line());
        (summary, lines)
    }

    /// The summary's first lines: the run, the field, and the states
    /// resumed from.
    fn write_heading(&self, summary: &mut Vec<u8>) {
        let setup = self.setup;
        let _ = writeln!(
            summary,
            "sim tune {}: {} of {}, {}, objective {}, seed {} ({})",
            G::NAME,
            plural(setup.combos.len() as u64, "candidate"),
            setup.template,
            plural(setup.players as u64, "player"),
            self.args.objective,
            setup.seed,
            timing(self.threads, self.race.used + self.fresh_games(), self.secs)
        );
        if setup.players > 1 {
            let _ = writeln!(
                summary,
                "each candidate plays every seat in turn against {}; every candidate plays the same deals (common random numbers)",
                setup.field_word
            );
        }
        if let Some(note) = &self.resumed {
            let _ = writeln!(summary, "{note}");
        }
    }

    /// The halving's line: the candidates drawn, the stages, deals and
    /// games, the finalists (none without a halving).
    fn halving_line(&self) -> Option<String> {
        let stages = self.stages();
        if stages == 0 {
            return None;
        }
        let (n, space_size) = (self.setup.combos.len(), self.setup.space_size);
        let line = format!(
            "halving: {} drawn at random from the {} of the template; {} on {} deals, {} games, cut them to {} finalists by their estimates (no test)",
            plural(n as u64, "candidate"),
            grouped(space_size),
            plural(stages as u64, "stage"),
            grouped(self.halving_deals()),
            grouped(self.halving_used()),
            self.plan.finalists,
        );
        Some(if space_size <= n as u64 {
            line.replace(
                &format!("drawn at random from the {} of the template", grouped(space_size)),
                "(every one of the template)",
            )
        } else {
            line
        })
    }

    /// The race's line: rounds, deals, games and why it stopped.
    fn race_line(&self) -> String {
        let how = match self.stop() {
            Stop::OneLeft => "one candidate left".to_string(),
            Stop::Margin => format!(
                "no survivor can be more than {}{} better than the leader",
                self.args.margin,
                self.unit()
            ),
            Stop::Budget => format!("the budget of {} games is spent", format_count(self.args.budget)),
        };
        format!(
            "race: {} on {} deals, {} games; stopped because {how}",
            plural(self.race.rows.len() as u64, "round"),
            grouped(self.race.deals_total),
            grouped(self.race_used()),
        )
    }

    /// The survivors left, and the chance that the race went wrong.
    fn confidence_line(&self) -> String {
        let halved = self.stages() > 0;
        let of_whom = if halved {
            format!("{} finalists", self.plan.finalists)
        } else {
            self.setup.combos.len().to_string()
        };
        format!(
            "{} left of {of_whom}; chance that the best{} was dropped or the stop is wrong: at most {ALPHA} (simultaneous intervals, last z {:.2})",
            plural(self.race.survivors.len() as u64, "survivor"),
            if halved { " finalist" } else { "" },
            self.race.last_z,
        )
    }

    /// The survivors' fresh estimates: a line on the fresh deals, then
    /// the table.
    fn write_fresh_table(&self, summary: &mut Vec<u8>) {
        let mut table = Table::new();
        table
            .left("candidate")
            .right("fresh estimate")
            .right("95% CI")
            .right("vs winner")
            .right("95% CI");
        for &c in &self.race.survivors {
            let fe = self.fresh_estimate(c);
            let fd = self.fresh_diff(c);
            table.row(vec![
                self.label(c, self.is_winner(c)),
                fe.map_or("-".into(), |v| format!("{:.4}", v.0)),
                fe.map_or("-".into(), |v| format!("[{:.4}, {:.4}]", v.1.0, v.1.1)),
                fd.map_or("-".into(), |v| format!("{:+.4}", v.0)),
                fd.map_or("-".into(), |v| format!("[{:+.4}, {:+.4}]", v.1.0, v.1.1)),
            ]);
        }
        let _ = writeln!(
            summary,
            "fresh estimates{}: {} deals never used by the race ({} games per candidate)",
            if self.setup.objective == Objective::WinRate {
                " (win rates in %)"
            } else {
                ""
            },
            grouped(self.plan.fresh_batches * BATCH_GAMES),
            grouped(self.plan.fresh_batches * self.plan.games_per_batch)
        );
        let _ = summary.write_all(table.render().as_bytes());
    }

    /// The winner and the survivors whose fresh estimates lie within its
    /// fresh interval (none when the winner has no fresh estimate), or why
    /// there is no winner.
    fn winner_line(&self) -> Option<String> {
        if !self.separated {
            return Some(format!("no winner: {}", self.no_winner_why()));
        }
        let (combos, specs, winner) = (&self.setup.combos, &self.setup.specs, self.race.winner);
        let (_, (lo, hi)) = self.fresh_estimate(winner)?;
        let inside: Vec<&str> = (self.race.survivors.iter())
            .filter(|&&c| c != winner)
            .filter(|&&c| self.fresh_estimate(c).is_some_and(|v| v.0 >= lo && v.0 <= hi))
            .map(|&c| combos[c].spec.as_str())
            .collect();
        let mut resolved = if specs[winner] == combos[winner].spec {
            String::new()
        } else {
            format!(" ({})", specs[winner])
        };
        if self.setup.cheats[winner] {
            resolved.push_str(" (cheats)");
        }
        Some(format!(
            "winner: {}{resolved}; survivors within its fresh interval: {}",
            combos[winner].spec,
            if inside.is_empty() {
                "none".to_string()
            } else {
                inside.join(", ")
            }
        ))
    }

    /// The games played, against a sweep of equal confidence.
    fn games_line(&self) -> String {
        games_sentence(&Saved {
            halving: self.halving_used(),
            race: self.race_used(),
            fresh: self.fresh_games(),
            stop: self.stop(),
            survivors: self.race.survivors.len(),
            sweep_deals: self.sweep_deals,
            sweep_games: self.sweep_games(),
            candidates: self.setup.combos.len(),
            halved: self.stages() > 0,
        })
    }

    /// The games of a sweep that gives every candidate the deals the
    /// finalists (or the race's candidates) played.
    fn same_deals_line(&self) -> String {
        let n = self.setup.combos.len();
        let deals_total = self.race.deals_total;
        let halving_deals = self.halving_deals();
        let same_deals_games = (halving_deals + deals_total) * n as u64 * self.setup.players as u64;
        if self.stages() > 0 {
            format!(
                "a sweep giving each of the {n} sampled candidates the finalists' {} deals would play {} games",
                grouped(halving_deals + deals_total),
                grouped(same_deals_games)
            )
        } else {
            format!(
                "a sweep giving every candidate the race's {} deals would play {} games",
                grouped(deals_total),
                grouped(same_deals_games)
            )
        }
    }
}

/// The page's table of survivors: its columns.
pub const SURVIVOR_COLUMNS: [&str; 8] = [
    "candidate",
    "status",
    "fresh estimate",
    "95% low",
    "95% high",
    "vs winner",
    "95% low",
    "95% high",
];

impl<G: Game> Results<'_, G> {
    /// The tune summed up: its CSVs, console summary and JSON, and what
    /// its chart and page show, for the report layer to make them.
    fn done(self, outputs: Outputs, leftovers: Leftovers) -> Result<TuneDone, Failure> {
        let table = self.candidates();
        let cand_csv = run_csv_bytes(&table.header, &table.rows, self.setup.seed)?;
        let rounds_csv = self.rounds_csv()?;
        let (summary, lines) = self.console();
        let charts = !self.args.common.no_charts;
        let chart = (charts || outputs.report_date.is_some()).then(|| self.chart(&table));
        let page = (outputs.report_date.as_ref()).map(|date| self.page(&lines, &table, date));
        let json = self.summary_json(&table);
        Ok(TuneDone {
            chart,
            page,
            charts,
            files: outputs.files,
            csvs: vec![("candidates.csv", cand_csv), ("rounds.csv", rounds_csv)],
            summary,
            json,
            leftovers,
            show: self.args.common.show,
        })
    }

    /// The chart's and the page's title.
    fn title(&self) -> String {
        format!("{} tune of {}", G::NAME, self.setup.template)
    }

    /// The line under the title: players, objective, seed.
    fn run_line(&self) -> String {
        format!(
            "{}, {}, seed {}",
            plural(self.setup.players as u64, "player"),
            self.args.objective,
            self.setup.seed
        )
    }

    /// What the race chart shows: each candidate's estimate when last
    /// played, and the stages and rounds it stayed.
    fn chart(&self, table: &CandidateTable) -> RaceChart {
        let template = &self.setup.template;
        RaceChart {
            title: self.title(),
            run_line: self.run_line(),
            x_label: if table.single_number {
                template.clone()
            } else {
                format!("candidate number (candidates.csv) of {template}")
            },
            halved: self.stages() > 0,
            objective: self.args.objective.clone(),
            race_points: table.race_points.clone(),
            round_points: table.round_points.clone(),
        }
    }

    /// What report.html shows: the conclusion, the survivors, every
    /// candidate (`table`), the method and the run, made on `date`.
    fn page(&self, lines: &Lines, table: &CandidateTable, date: &str) -> TunePageData {
        TunePageData {
            conclusion: self.conclusion(lines),
            survivors: self.survivors(),
            header: table.header.clone(),
            rows: table.rows.clone(),
            method: method_paragraphs(
                self.stages() > 0,
                self.args.margin,
                &self.args.objective,
                self.unit(),
            ),
            command: self.command.clone(),
            seed: self.setup.seed,
            date: date.to_string(),
            files: if self.args.common.no_charts {
                "candidates.csv and rounds.csv beside this page"
            } else {
                "candidates.csv, rounds.csv and the race chart (race.svg, race.png) beside this page"
            },
        }
    }

    /// The page's conclusion: the winner on its fresh deals, the field's
    /// own policy or the fair share, the survivors it could not be told
    /// from, then the console's `lines`.
    fn conclusion(&self, lines: &Lines) -> Vec<String> {
        let (combos, winner) = (&self.setup.combos, self.race.winner);
        let mut conclusion = Vec::new();
        if let Some((e, (lo, hi))) = self.fresh_estimate(winner).filter(|_| self.separated) {
            conclusion.push(self.best_sentence(e, (lo, hi)));
            conclusion.extend(self.field_sentence((lo, hi)));
        }
        let others: Vec<&str> = (self.race.survivors.iter())
            .filter(|&&c| c != winner)
            .map(|&c| combos[c].spec.as_str())
            .collect();
        conclusion.push(if !self.separated {
            format!("No winner is named: {}.", self.no_winner_why())
        } else if others.is_empty() {
            "No other candidate survived the race.".to_string()
        } else {
            format!(
                "The race could not separate it from {} (in the table below, with their fresh differences to the winner).",
                others.join(", ")
            )
        });
        conclusion.extend(lines.halving.iter().cloned());
        conclusion.push(lines.race.clone());
        conclusion.push(lines.confidence.clone());
        conclusion.extend(lines.cheats.iter().cloned());
        // Without a winner, the first sentence said why already.
        if let Some(w) = lines.winner.as_ref().filter(|_| self.separated) {
            conclusion.push(w.clone());
        }
        conclusion.push(lines.games.clone());
        conclusion
    }

    /// The conclusion's first sentence: the winner, of which candidates,
    /// and its fresh estimate `e` with its interval `(lo, hi)`.
    fn best_sentence(&self, e: f64, (lo, hi): (f64, f64)) -> String {
        let setup = self.setup;
        let (n, template) = (setup.combos.len(), &setup.template);
        let what = if setup.objective == Objective::WinRate {
            format!("a win rate of {e:.2}% [{lo:.2}%, {hi:.2}%]")
        } else {
            format!("{} {e:.4} [{lo:.4}, {hi:.4}]", self.args.objective)
        };
        let of = if self.stages() > 0 {
            format!(
                "the {} finalists of {n} candidates drawn from {template}",
                self.plan.finalists
            )
        } else {
            format!("the {n} candidates of {template}")
        };
        let cheats = if setup.cheats[self.race.winner] {
            " It cheats: its policy sees what no player can; its result is an upper bound, not a strategy."
        } else {
            ""
        };
        format!(
            "{} is the best of {of}{}: {what} (95% interval) on {} fresh deals never used to choose it.{cheats}",
            setup.combos[self.race.winner].spec,
            if setup.players > 1 {
                format!(" against {}", setup.field_word)
            } else {
                String::new()
            },
            grouped(self.plan.fresh_batches * BATCH_GAMES)
        )
    }

    /// With several players: what became of the field's own policy when
    /// it is a candidate, else (for win rates) the winner's fresh
    /// interval `(lo, hi)` against the fair share.
    fn field_sentence(&self, (lo, hi): (f64, f64)) -> Option<String> {
        let (setup, race) = (self.setup, &self.race);
        let players = setup.players;
        let field_at = (0..setup.combos.len()).find(|&c| setup.specs[c] == setup.field_spec);
        if let Some(f) = field_at.filter(|_| players > 1) {
            let own = &setup.combos[f].spec;
            return if f == race.winner {
                Some(format!(
                    "The field's own policy ({own}) is the winner: no candidate was found better than it."
                ))
            } else if let Some(h) = race.cut_in[f] {
                Some(format!(
                    "The field's own policy ({own}) was cut by the halving in stage {h}."
                ))
            } else if let Some(r) = race.dropped_in[f] {
                Some(format!(
                    "The field's own policy ({own}) was dropped in race round {r}: significantly worse than another candidate, at the race's confidence."
                ))
            } else {
                self.fresh_diff(f).map(|(d, (lo, hi))| {
                    format!("The field's own policy ({own}) survived the race; the winner's fresh difference to it is {:+.4} [{:+.4}, {:+.4}]{}.", -d, -hi, -lo, self.unit())
                })
            };
        }
        if setup.objective != Objective::WinRate || players <= 1 {
            return None;
        }
        let fair = 100.0 / players as f64;
        let (verdict, why) = if lo > fair {
            ("wins more than", "lies wholly above it")
        } else if hi < fair {
            ("wins less than", "lies wholly below it")
        } else {
            ("cannot be told from", "contains it")
        };
        Some(format!(
            "Against {} it {verdict} the fair share of {fair:.1}% of {players} players: its interval {why}.",
            setup.field_word
        ))
    }

    /// The survivors, the winner first, with their fresh estimates and
    /// differences to the winner.
    fn survivors(&self) -> Vec<Survivor> {
        (self.race.survivors.iter())
            .map(|&c| Survivor {
                spec: self.setup.combos[c].spec.clone(),
                cheats: self.setup.cheats[c],
                winner: self.is_winner(c),
                fresh: self.fresh_estimate(c),
                diff: self.fresh_diff(c),
            })
            .collect()
    }

    /// The run's JSON (`--json`): its options, games, winner, survivors and
    /// every candidate's row of `table`.
    fn summary_json(&self, table: &CandidateTable) -> serde_json::Value {
        let (setup, args, race) = (self.setup, self.args, &self.race);
        let combos = &setup.combos;
        serde_json::json!({
            "command": format!("tune {}", G::NAME),
            "template": setup.template,
            "field": setup.field_word,
            "players": setup.players,
            "objective": args.objective,
            "seed": setup.seed.to_string(),
            "threads": self.threads,
            "seconds": self.secs,
            "sim_version": crate::engine::version::SIM_VERSION,
            "stop": self.stop().word(),
            "rounds": race.rows.len(),
            "method": format!("{:?}", args.method).to_lowercase(),
            "space": setup.space_size,
            "halving_games": self.halving_used(),
            "race_games": self.race_used(),
            "fresh_games": self.fresh_games(),
            "sweep_games": self.sweep_games(),
            "winner": if self.separated { combos[race.winner].spec.clone().into() } else { serde_json::Value::Null },
            "survivors": race.survivors.iter().map(|&c| combos[c].spec.clone()).collect::<Vec<_>>(),
            "candidates": table_json(&table.header, &table.rows, &["policy", "status"]),
        })
    }
}

/// A tune played and summed up: what is left is its chart and page,
/// which the report layer makes from [`TuneDone::chart`] and
/// [`TuneDone::page`], then its files ([`TuneDone::write`]).
pub struct TuneDone {
    /// What the race chart shows, when there is a chart or a page.
    pub chart: Option<RaceChart>,
    /// What the page shows, when there is one.
    pub page: Option<TunePageData>,
    /// Whether the chart is written as files.
    pub charts: bool,
    files: Files,
    csvs: Vec<(&'static str, Vec<u8>)>,
    summary: Vec<u8>,
    json: serde_json::Value,
    leftovers: Leftovers,
    show: crate::engine::show::ShowArgs,
}

impl TuneDone {
    /// Writes the CSVs and `pages` (`(name, bytes)` of the page and
    /// chart made from [`TuneDone::chart`] and [`TuneDone::page`]), all or
    /// none; settles the state files and shows the summary or the JSON.
    pub fn write(mut self, pages: Vec<(&'static str, Vec<u8>)>) -> Result<(), Failure> {
        let mut contents: Vec<(&str, Vec<u8>)> = self.csvs;
        contents.extend(pages);
        let written = self.files.commit(&contents, None, &mut self.summary)?;
        self.leftovers.settle(&mut self.summary);
        Ok(self.show.show(&self.summary, self.json, &written)?)
    }
}

/// What a tune's race chart shows.
pub struct RaceChart {
    /// The chart's title.
    pub title: String,
    /// The line under the title.
    pub run_line: String,
    /// The x axis: the parameter, or the candidate's number.
    pub x_label: String,
    /// Whether a halving came before the race.
    pub halved: bool,
    /// The objective, as the y axis of the estimates.
    pub objective: String,
    /// Each candidate's estimate when last played, `(x, estimate, low,
    /// high)`.
    pub race_points: Vec<(f64, f64, f64, f64)>,
    /// The stages and rounds each candidate stayed.
    pub round_points: Vec<(f64, f64, f64, f64)>,
}

/// What a tune's page shows besides its chart.
pub struct TunePageData {
    /// The conclusion, one paragraph a line.
    pub conclusion: Vec<String>,
    /// The survivors, the winner first.
    pub survivors: Vec<Survivor>,
    /// candidates.csv's header.
    pub header: Vec<String>,
    /// One row per candidate.
    pub rows: Vec<Vec<String>>,
    /// The method, one paragraph a line.
    pub method: Vec<String>,
    /// The command line, as run.
    pub command: String,
    /// The seed.
    pub seed: u64,
    /// When the page was made.
    pub date: String,
    /// The files beside the page.
    pub files: &'static str,
}

/// A survivor of the race, with its fresh estimate and its fresh
/// difference to the winner, each with its 95% interval.
pub struct Survivor {
    /// The candidate's spec.
    pub spec: String,
    /// Whether its policy cheats ([`Game::cheats`]).
    pub cheats: bool,
    /// Whether it is the winner.
    pub winner: bool,
    /// Its fresh estimate.
    pub fresh: Option<(f64, (f64, f64))>,
    /// Its fresh difference to the winner.
    pub diff: Option<(f64, (f64, f64))>,
}

/// Runs `sim tune GAME`: reads the options, plans the batches and checks
/// the outputs before any game, plays the halving, the race and the fresh
/// deals, then writes the results.
pub fn run<G: Game>(args: &TuneArgs<G::Options>) -> Result<TuneDone, Failure> {
    let setup = read_options::<G>(args)?;
    let plan = plan_batches::<G>(args, &setup)?;
    let outputs = prepare_outputs::<G>(args, &setup)?;
    let mut job = start_job::<G>(args, &setup, &plan, &outputs)?;
    let runner = Runner::start(args, &setup)?;
    let race = play_all(&runner, &mut job, &plan)?;
    let (results, leftovers) = Results::new(args, &setup, &plan, race, job, &runner);
    results.done(outputs, leftovers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(20_480), "20,480");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn normal_quantiles_and_the_spent_levels() {
        assert!((z_upper(0.025) - 1.959_964).abs() < 1e-5);
        assert!((z_upper(0.05) - 1.644_854).abs() < 1e-5);
        assert!((z_upper(1e-6) - 4.753_424).abs() < 1e-4);
        let total: f64 = (0..100_000).map(|r| round_alpha(0.05, r)).sum();
        assert!(total < 0.05 && total > 0.0499, "{total}");
        // Two candidates: one pair, a two-sided interval at the level.
        assert!((pair_z(0.05, 2) - 1.959_964).abs() < 1e-5);
    }

    /// The linearised error of a difference, against the direct formula
    /// over units.
    #[test]
    fn the_error_of_a_difference_matches_the_direct_formula() {
        let units = [
            (3i64, 2i64, 5i64, 2i64),
            (10, 5, 8, 4),
            (0, 1, 1, 1),
            (7, 4, 9, 5),
            (2, 2, 2, 3),
        ];
        let mut s = Sums::new(&[4, 9]);
        for &(xa, ga, xb, gb) in &units {
            s.cand[0].add(xa, ga);
            s.cand[1].add(xb, gb);
            s.pairs[0].add(xa, ga, xb, gb);
        }
        let ra =
            units.iter().map(|u| u.0).sum::<i64>() as f64 / units.iter().map(|u| u.1).sum::<i64>() as f64;
        let rb =
            units.iter().map(|u| u.2).sum::<i64>() as f64 / units.iter().map(|u| u.3).sum::<i64>() as f64;
        let (ga, gb) = (
            units.iter().map(|u| u.1).sum::<i64>() as f64,
            units.iter().map(|u| u.3).sum::<i64>() as f64,
        );
        let ss: f64 = units
            .iter()
            .map(|&(xa, a, xb, b)| {
                ((xa as f64 - ra * a as f64) / ga - (xb as f64 - rb * b as f64) / gb).powi(2)
            })
            .sum();
        let want = (ss * 5.0 / 4.0).sqrt();
        let (d, se) = s.diff(0, 1);
        assert!((d - (ra - rb)).abs() < 1e-12);
        assert!((se - want).abs() < 1e-12, "{se} {want}");
        // Reversed, and through a restriction that swaps the order.
        let (d2, se2) = s.diff(1, 0);
        assert!((d2 + d).abs() < 1e-12 && (se2 - se).abs() < 1e-12);
        let r = s.restrict(&[9, 4]);
        let (d3, se3) = r.diff(0, 1);
        assert!((d3 + d).abs() < 1e-12 && (se3 - se).abs() < 1e-12);
    }
}
