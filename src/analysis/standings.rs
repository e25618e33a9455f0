//! Standings, head-to-head table, ratings and significance of a tournament,
//! computed from the per-batch, per-arrangement integer records.
//!
//! Methods (docs/tournament.md says the same in more words):
//!
//! - **Independent units.** Every arrangement replays the same deals, so
//!   the games of one deal are not independent of one another; different
//!   deals are (each has its own generator). Every estimate is a ratio of
//!   sums over deals, and its standard error is the ratio (cluster)
//!   estimator over deals, each deal counted once with all its
//!   arrangements ([`crate::engine::design`]). Deals whose games carry
//!   something over to the next game in some arrangement (a gambling pot
//!   left by a tie) are joined into one unit with the next deal.
//! - **Intervals**: `estimate ± t * se` with Student's t on `units - 1`
//!   degrees of freedom; a share's interval is widened to at least the
//!   Wilson interval of the units when there are fewer than
//!   [`FEW_UNITS`] of them or no spread at all.
//! - **Common random numbers**: "with" is the variance above; "without"
//!   is what independent deals for every arrangement would give: the same
//!   estimator applied to each arrangement's seat on its own, summed over
//!   arrangements (independent parts add their variances).
//! - **Head-to-head** of A against B: of the games in which both sat at the
//!   table and one of them won, the share A won, with the interval above.
//!   Two-sided test against 0.5 (normal, its error scaled up by `t / z`
//!   when there are few units), Holm correction over all unordered pairs,
//!   significant when the corrected p-value is below 0.05.
//! - **Rating**: Bradley-Terry strengths fitted by the MM algorithm
//!   (Hunter 2004) to "A beat B" counts: every game A won counts as a win
//!   over each entrant at the table with A. Half a win is added to each
//!   direction of every pair so a winless entrant keeps a finite rating.
//!   Shown on the Elo scale, `1500 + 400 log10(strength / geometric mean)`.
//!   Its standard error is the standard deviation over [`BOOTSTRAP`]
//!   bootstrap resamples of whole batches (seeded from the tournament seed),
//!   given from [`MIN_BOOTSTRAP_BATCHES`] batches on. Beyond
//!   [`GROUPS`](super::tally::GROUPS) batches the resampled unit is a fixed
//!   group of batches (batch `b` in group `b mod GROUPS`), so that memory
//!   does not grow with the deals.

use super::tally::{Moments, Tally, pair_index};
use crate::engine::design::{FEW_UNITS, Ratio, t975};
use crate::engine::game::SeatResult;
use crate::engine::rng::{Draw, SimRng, splitmix64};
use crate::engine::stats::{Z95, ratio};
use rand::SeedableRng;
/// Bootstrap resamples for the rating's standard error.
pub const BOOTSTRAP: usize = 200;
/// The rating's bootstrap resamples whole batches (its independent unit,
/// or groups of them); with fewer than this the resamples say too little, and no
/// error is given rather than a misleading one.
pub const MIN_BOOTSTRAP_BATCHES: usize = 20;

/// What the analysis needs to know about a tournament.
pub struct Setup<'a> {
    /// Entrant labels.
    pub names: &'a [String],
    /// `arrangements[a][s]`: entrant in seat `s` of arrangement `a`.
    pub arrangements: &'a [Vec<usize>],
    /// Seed (for the bootstrap).
    pub seed: u64,
    /// Whether the game has a per-game score.
    pub has_score: bool,
    /// Whether the game has rounds.
    pub has_rounds: bool,
    /// Whether games end in a finishing order (losses and places).
    pub has_places: bool,
}

/// One entrant's line of the standings.
#[derive(Clone, Debug)]
pub struct Standing {
    /// 1 = best win rate.
    pub rank: usize,
    /// Entrant index (order of `--policies`).
    pub entrant: usize,
    /// Games played (deals times arrangements it sits in).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// wins / games.
    pub win_rate: f64,
    /// 95% interval (see the module).
    pub win_ci: (f64, f64),
    /// Games finished last (for a game with a finishing order).
    pub losses: u64,
    /// Losses over games and their 95% interval, for a game with a
    /// finishing order.
    pub loss: Option<(f64, (f64, f64))>,
    /// Mean place (1 = first) over games with every place given, and its
    /// standard error, for a game with a finishing order.
    pub place: Option<(f64, f64)>,
    /// Mean score per game and its standard error (NaN with fewer than two
    /// units).
    pub score: Option<(f64, f64)>,
    /// Rounds played.
    pub rounds: u64,
    /// Mean round score and its standard error.
    pub round_score: Option<(f64, f64)>,
    /// Bradley-Terry rating (Elo scale).
    pub rating: f64,
    /// Its bootstrap standard error (NaN with fewer than 2 batches).
    pub rating_se: f64,
    /// Variance of the win rate with common random numbers.
    pub var_crn: f64,
    /// Variance of the win rate had every arrangement used its own deals.
    pub var_independent: f64,
}

/// One ordered pair of the head-to-head table.
#[derive(Clone, Debug)]
pub struct Pair {
    /// Row entrant.
    pub a: usize,
    /// Column entrant.
    pub b: usize,
    /// Games in which both sat at the table.
    pub games_together: u64,
    /// Of those, won by `a`.
    pub a_wins: u64,
    /// Of those, won by `b`.
    pub b_wins: u64,
    /// `a_wins / (a_wins + b_wins)`.
    pub h2h: f64,
    /// Its 95% interval.
    pub h2h_ci: (f64, f64),
    /// Its standard error (NaN with fewer than two units).
    pub h2h_se: f64,
    /// Two-sided p-value against 0.5.
    pub p_value: f64,
    /// Holm-corrected p-value.
    pub p_holm: f64,
    /// `p_holm < 0.05`.
    pub significant: bool,
    /// Variance of `(a_wins - b_wins) / games_together` with common random
    /// numbers.
    pub diff_var_crn: f64,
    /// The same without (independent deals per arrangement).
    pub diff_var_independent: f64,
}

/// The whole analysis.
#[derive(Clone, Debug)]
pub struct Report {
    /// Sorted by win rate, best first.
    pub standings: Vec<Standing>,
    /// Every ordered pair `a != b`, row-major by entrant index.
    pub pairs: Vec<Pair>,
    /// Deals played.
    pub deals: u64,
    /// Batches.
    pub batches: usize,
    /// Independent units the errors come from.
    pub units: u64,
}

/// Variance of a ratio summed from parts that are independent of one
/// another (each with its own deals): the sum of each part's spread over
/// the square of the total denominator.
fn independent_variance<'a>(parts: impl Iterator<Item = &'a Ratio>) -> f64 {
    let mut spread = 0.0;
    let mut total = 0.0;
    for r in parts {
        match r.spread() {
            Some(s) => spread += s,
            None => return f64::NAN,
        }
        total += r.sg as f64;
    }
    if total > 0.0 {
        spread / (total * total)
    } else {
        f64::NAN
    }
}

/// `(estimate, standard error)` of a ratio (the error NaN when it cannot
/// be estimated).
fn mean_se(r: &Ratio) -> (f64, f64) {
    (r.estimate(), r.stderr().unwrap_or(f64::NAN))
}

/// Holm step-down correction of `p` (same order out).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let k = p.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]).then(i.cmp(&j)));
    let mut out = vec![0.0; k];
    let mut running: f64 = 0.0;
    for (m, &i) in order.iter().enumerate() {
        running = running.max(((k - m) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Bradley-Terry ratings (Elo scale, mean 1500 in the log domain) from
/// `w[i * n + j]` = times `i` beat `j`. Half a win is added to each
/// direction of every pair.
pub fn bradley_terry(w: &[f64], n: usize) -> Vec<f64> {
    let wij = |i: usize, j: usize| w[i * n + j] + 0.5;
    let wins: Vec<f64> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).map(|j| wij(i, j)).sum())
        .collect();
    let mut p = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| (wij(i, j) + wij(j, i)) / (p[i] + p[j]))
                .sum();
            next[i] = wins[i] / denom;
        }
        let geo = (next.iter().map(|v| v.ln()).sum::<f64>() / n as f64).exp();
        for v in &mut next {
            *v /= geo;
        }
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p.iter().map(|v| 1500.0 + 400.0 * v.log10()).collect()
}

/// Analyses a tournament from its per-batch totals and design sums.
pub fn analyse(setup: &Setup<'_>, tally: &Tally) -> Report {
    let m = &tally.moments;
    let n = setup.names.len();
    let seating = Seating::new(n, setup.arrangements, tally.deals);
    let mut standings = standings(setup, tally, &seating);
    let (ratings, rating_se) = ratings(tally, setup.seed, n);
    for st in &mut standings {
        st.rating = ratings[st.entrant];
        st.rating_se = rating_se[st.entrant];
    }

    let units = m.units();
    let mut pairs = Vec::with_capacity(n * n.saturating_sub(1));
    for a in 0..n {
        for b in 0..n {
            if a != b {
                pairs.push(pair(m, &seating, a, b, units));
            }
        }
    }
    correct_pairs(&mut pairs);

    standings.sort_by(|x, y| y.win_rate.total_cmp(&x.win_rate).then(x.entrant.cmp(&y.entrant)));
    for (i, st) in standings.iter_mut().enumerate() {
        st.rank = i + 1;
    }
    Report {
        standings,
        pairs,
        deals: tally.deals,
        batches: tally.batches as usize,
        units,
    }
}

/// Who sits where in a tournament's arrangements, and its deals: what
/// the standings and the pairs are counted over.
struct Seating<'a> {
    /// Entrants.
    n: usize,
    /// `arrs[a][s]`: entrant in seat `s` of arrangement `a`.
    arrs: &'a [Vec<usize>],
    /// Seats at the table.
    players: usize,
    /// Unordered pairs of seats.
    seat_pairs: usize,
    /// `seat_of[a][e]`: the seat of entrant `e` in arrangement `a`.
    seat_of: Vec<Vec<Option<usize>>>,
    /// Deals played.
    deals: u64,
}

impl Seating<'_> {
    /// The seating of `n` entrants in `arrs`, over `deals` deals.
    fn new(n: usize, arrs: &[Vec<usize>], deals: u64) -> Seating<'_> {
        let players = arrs.first().map_or(0, Vec::len);
        let seat_of = arrs
            .iter()
            .map(|seats| {
                let mut v = vec![None; n];
                for (s, &e) in seats.iter().enumerate() {
                    v[e] = Some(s);
                }
                v
            })
            .collect();
        Seating {
            n,
            arrs,
            players,
            seat_pairs: players * players.saturating_sub(1) / 2,
            seat_of,
            deals,
        }
    }

    /// The seat of entrant `e` in arrangement `a` (it sits there).
    fn seat(&self, a: usize, e: usize) -> usize {
        self.seat_of[a][e].expect("sits")
    }
}

/// Every entrant's line of the standings, in entrant order, unranked and
/// without its rating.
fn standings(setup: &Setup<'_>, tally: &Tally, seating: &Seating<'_>) -> Vec<Standing> {
    let m = &tally.moments;
    let (n, players) = (seating.n, seating.players);
    let mut standings: Vec<Standing> = Vec::with_capacity(n);
    for e in 0..n {
        let mine: Vec<usize> = (0..seating.arrs.len())
            .filter(|&a| seating.seat_of[a][e].is_some())
            .collect();
        let mut tot = SeatResult::default();
        for &a in &mine {
            tot.add(&tally.seats[a * players + seating.seat(a, e)]);
        }
        let games = seating.deals * mine.len() as u64;
        let win = &m.win[e];
        let var_crn = win.variance().unwrap_or(f64::NAN);
        let var_independent = independent_variance(
            mine.iter()
                .map(|&a| &m.seat_win[a * players + seating.seat(a, e)]),
        );
        standings.push(Standing {
            rank: 0,
            entrant: e,
            games,
            wins: tot.wins,
            win_rate: ratio(tot.wins, games),
            win_ci: win.share_interval(),
            losses: tot.losses,
            loss: setup
                .has_places
                .then(|| (ratio(tot.losses, games), m.loss[e].share_interval())),
            place: setup.has_places.then(|| mean_se(&m.place[e])),
            score: setup.has_score.then(|| mean_se(&m.score[e])),
            rounds: tot.rounds,
            round_score: setup.has_rounds.then(|| mean_se(&m.round[e])),
            rating: 0.0,
            rating_se: f64::NAN,
            var_crn,
            var_independent,
        });
    }
    standings
}

/// The Bradley-Terry ratings of the `n` entrants from the "i beat j"
/// counts of `tally`, and their bootstrap standard errors (NaN with fewer
/// than [`MIN_BOOTSTRAP_BATCHES`] groups of batches).
fn ratings(tally: &Tally, seed: u64, n: usize) -> (Vec<f64>, Vec<f64>) {
    // "i beat j" counts, per bootstrap group of batches.
    let per_batch: Vec<Vec<f64>> = tally
        .beats
        .iter()
        .filter(|g| !g.is_empty())
        .map(|g| g.iter().map(|&w| w as f64).collect())
        .collect();
    let mut total_w = vec![0.0; n * n];
    for w in &per_batch {
        for (t, v) in total_w.iter_mut().zip(w) {
            *t += v;
        }
    }
    let ratings = bradley_terry(&total_w, n);
    let rating_se = if per_batch.len() >= MIN_BOOTSTRAP_BATCHES {
        bootstrap_se(&per_batch, seed, n)
    } else {
        vec![f64::NAN; n]
    };
    (ratings, rating_se)
}

/// The standard deviation of the `n` ratings over [`BOOTSTRAP`]
/// resamples of the groups of batches `per_batch` (their "i beat j"
/// counts), drawn from the tournament `seed`.
fn bootstrap_se(per_batch: &[Vec<f64>], seed: u64, n: usize) -> Vec<f64> {
    let mut rating_se = vec![f64::NAN; n];
    let mut rng = SimRng::seed_from_u64(splitmix64(seed ^ 0xB007_57A9));
    let mut sum = vec![0.0; n];
    let mut sum_sq = vec![0.0; n];
    for _ in 0..BOOTSTRAP {
        let mut w = vec![0.0; n * n];
        for _ in 0..per_batch.len() {
            let pick = &per_batch[rng.below(per_batch.len() as u32) as usize];
            for (t, v) in w.iter_mut().zip(pick) {
                *t += v;
            }
        }
        for (i, r) in bradley_terry(&w, n).into_iter().enumerate() {
            sum[i] += r;
            sum_sq[i] += r * r;
        }
    }
    let k = BOOTSTRAP as f64;
    for i in 0..n {
        let mean = sum[i] / k;
        rating_se[i] = ((sum_sq[i] / k - mean * mean).max(0.0) * k / (k - 1.0)).sqrt();
    }
    rating_se
}

/// The head-to-head line of entrant `a` against `b` (`a != b`) from the
/// sums `m` over `units` independent units, before the Holm correction.
fn pair(m: &Moments, seating: &Seating<'_>, a: usize, b: usize, units: u64) -> Pair {
    let (lo, hi) = (a.min(b), a.max(b));
    let k = pair_index(lo, hi, seating.n);
    let h = &m.h2h[k];
    let both: Vec<usize> = (0..seating.arrs.len())
        .filter(|&q| seating.seat_of[q][a].is_some() && seating.seat_of[q][b].is_some())
        .collect();
    // h counts the lower entrant's wins; flip it for the other.
    let lower_wins = h.sx as u64;
    let decided = h.sg as u64;
    let (a_wins, b_wins) = if a == lo {
        (lower_wins, decided - lower_wins)
    } else {
        (decided - lower_wins, lower_wins)
    };
    // No decided game: no share to show (NaN: empty in the CSV,
    // "none" on the console), not 0% both ways.
    let (h2h, ci) = if decided == 0 {
        (f64::NAN, (f64::NAN, f64::NAN))
    } else {
        let (l, u) = h.share_interval();
        if a == lo {
            (ratio(a_wins, decided), (l, u))
        } else {
            (ratio(a_wins, decided), (1.0 - u, 1.0 - l))
        }
    };
    let se = if decided == 0 {
        f64::NAN
    } else {
        h.stderr().unwrap_or(f64::NAN)
    };
    let diff_var_independent = independent_variance(both.iter().map(|&q| {
        let (s, t) = (seating.seat(q, a), seating.seat(q, b));
        &m.seat_diff[q * seating.seat_pairs + pair_index(s.min(t), s.max(t), seating.players)]
    }));
    Pair {
        a,
        b,
        games_together: seating.deals * both.len() as u64,
        a_wins,
        b_wins,
        h2h,
        h2h_ci: ci,
        h2h_se: se,
        p_value: p_value(h2h, se, decided, units),
        p_holm: 1.0,
        significant: false,
        diff_var_crn: m.diff[k].variance().unwrap_or(f64::NAN),
        diff_var_independent,
    }
}

/// The two-sided p-value of the head-to-head share `h2h` (standard error
/// `se`, over `decided` decided games and `units` units) against 0.5.
fn p_value(h2h: f64, se: f64, decided: u64, units: u64) -> f64 {
    // Few units: the error scaled up to what t would give.
    let se_test = if (2..FEW_UNITS).contains(&units) {
        se * t975(units - 1) / Z95
    } else {
        se
    };
    if decided == 0 || se_test.is_nan() {
        1.0
    } else if se_test == 0.0 {
        if h2h == 0.5 { 1.0 } else { 0.0 }
    } else {
        libm::erfc(((h2h - 0.5) / se_test).abs() / std::f64::consts::SQRT_2)
    }
}

/// Holm over unordered pairs (a < b) of `pairs`; (b, a) shares the
/// result: the corrected p-value and whether it is significant.
fn correct_pairs(pairs: &mut [Pair]) {
    let idx: Vec<usize> = (0..pairs.len()).filter(|&k| pairs[k].a < pairs[k].b).collect();
    let adjusted = holm(&idx.iter().map(|&k| pairs[k].p_value).collect::<Vec<_>>());
    for (&k, &p) in idx.iter().zip(&adjusted) {
        let (a, b) = (pairs[k].a, pairs[k].b);
        for q in pairs
            .iter_mut()
            .filter(|q| (q.a == a && q.b == b) || (q.a == b && q.b == a))
        {
            q.p_holm = p;
            q.significant = p < 0.05;
        }
    }
}

/// The best of `(estimate, low, high)` points (the highest estimate, the
/// first on a tie) and every other point whose interval overlaps its
/// interval: the points this run cannot tell from the best. `None` when
/// there is no finite estimate.
pub fn best_region(points: &[(f64, f64, f64)]) -> Option<(usize, Vec<usize>)> {
    let best = (0..points.len())
        .filter(|&i| points[i].0.is_finite())
        .fold(None, |b: Option<usize>, i| match b {
            Some(j) if points[j].0 >= points[i].0 => Some(j),
            _ => Some(i),
        })?;
    let (_, lo, hi) = points[best];
    let near = (0..points.len())
        .filter(|&i| i != best && points[i].2 >= lo && points[i].1 <= hi)
        .collect();
    Some((best, near))
}

/// The difference in win rate between entrants `a` and `b` over the games
/// they played together, in points (percent), and its 95% interval:
/// `(a_wins - b_wins) / games_together` with the error common random
/// numbers give it. `None` without such games, when neither ever won
/// one, or without an error.
pub fn lead(report: &Report, a: usize, b: usize) -> Option<(f64, f64, f64)> {
    let p = report.pairs.iter().find(|p| p.a == a && p.b == b)?;
    if p.games_together == 0 || p.a_wins + p.b_wins == 0 || !p.diff_var_crn.is_finite() {
        return None;
    }
    let d = (p.a_wins as f64 - p.b_wins as f64) / p.games_together as f64;
    let t = if report.units < FEW_UNITS {
        t975(report.units.saturating_sub(1).max(1))
    } else {
        Z95
    };
    let half = t * p.diff_var_crn.sqrt();
    Some((100.0 * d, 100.0 * (d - half), 100.0 * (d + half)))
}

/// The largest half-width of the entrants' 95% win-rate intervals so far.
pub fn widest_half_width(m: &Moments) -> f64 {
    m.win
        .iter()
        .map(|w| {
            let (lo, hi) = w.share_interval();
            (hi - lo) / 2.0
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erfc_known_values() {
        use libm::erfc;
        assert_eq!(erfc(0.0), 1.0);
        assert!((erfc(1.959_964 / std::f64::consts::SQRT_2) - 0.05).abs() < 1e-6);
        assert!((erfc(-1.0) - 1.842_700_792_949_715).abs() < 1e-15);
        assert!((erfc(3.0) - 2.209_049_699_858_544e-5).abs() < 1e-19);
    }

    #[test]
    fn best_region_holds_the_values_whose_intervals_overlap_the_best() {
        let pts = [
            (0.30, 0.27, 0.335),
            (0.35, 0.33, 0.37),
            (0.34, 0.32, 0.36),
            (0.20, 0.19, 0.21),
        ];
        assert_eq!(best_region(&pts), Some((1, vec![0, 2])));
        assert_eq!(best_region(&[(f64::NAN, 0.0, 1.0)]), None);
        assert_eq!(
            best_region(&[(0.5, 0.4, 0.6), (0.5, 0.4, 0.6)]),
            Some((0, vec![1]))
        );
    }

    #[test]
    fn holm_steps_down() {
        let p = holm(&[0.01, 0.04, 0.03]);
        assert!((p[0] - 0.03).abs() < 1e-12);
        assert!((p[2] - 0.06).abs() < 1e-12);
        assert!((p[1] - 0.06).abs() < 1e-12);
    }

    #[test]
    fn bradley_terry_recovers_strengths() {
        // Strengths 1 : 2 : 4 -> i beats j with p_i / (p_i + p_j).
        let s = [1.0, 2.0, 4.0];
        let mut w = vec![0.0; 9];
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    w[i * 3 + j] = 1e6 * s[i] / (s[i] + s[j]);
                }
            }
        }
        let r = bradley_terry(&w, 3);
        let step = 400.0 * 2f64.log10();
        assert!((r[1] - r[0] - step).abs() < 0.01, "{r:?}");
        assert!((r[2] - r[1] - step).abs() < 0.01, "{r:?}");
        assert!((r.iter().sum::<f64>() / 3.0 - 1500.0).abs() < 1e-6);
    }
}
