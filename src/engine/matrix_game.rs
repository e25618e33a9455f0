//! Two-player zero-sum matrix games, solved exactly by the simplex method.
//!
//! [`solve`] takes the payoffs `a[i][j]` to the row player (who maximises)
//! and returns an optimal mixed strategy for each side and the game's
//! value. The games this serves are small (tens of rows and columns: the
//! restricted games of a double-oracle search), so a dense tableau with
//! the largest price entering (Bland's rule, which cannot cycle, once
//! pivots stall) is enough.
//!
//! The row player's problem, once every payoff is made positive by a
//! shift `c`: minimise `sum x` subject to `A^T x >= 1`, `x >= 0`; then
//! the value is `1 / sum x - c` and the strategy `x / sum x`. The tableau
//! solves the column player's dual (maximise `sum y` subject to
//! `A y <= 1`), whose slack prices are the row player's `x`.

/// An optimal strategy for each player and the value of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The row player's mixed strategy (sums to 1).
    pub rows: Vec<f64>,
    /// The column player's mixed strategy (sums to 1).
    pub cols: Vec<f64>,
    /// The row player's expected payoff when both play them.
    pub value: f64,
}

/// Pivots smaller than this count as zero.
const EPS: f64 = 1e-12;

/// Pivots in a row that leave the objective where it was before Bland's
/// rule takes over.
const STALL: usize = 50;

/// Solves the game whose payoff to the row player is `a[i][j]` (every row
/// the same length, at least one row and one column).
pub fn solve(a: &[Vec<f64>]) -> Solution {
    let (m, n) = (a.len(), a[0].len());
    assert!(
        m > 0 && n > 0 && a.iter().all(|r| r.len() == n),
        "a rectangular, non-empty game"
    );
    let low = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    // Tableau: m constraint rows [A + shift | I | 1], then the objective
    // row [-1 ... | 0 ... | 0]; basis starts with the slacks.
    let width = n + m + 1;
    let mut t = vec![0.0f64; (m + 1) * width];
    for (i, row) in a.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            t[i * width + j] = v + shift;
        }
        t[i * width + n + i] = 1.0;
        t[i * width + width - 1] = 1.0;
    }
    for j in 0..n {
        t[m * width + j] = -1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Dantzig's rule (the most negative price enters), Bland's (the first
    // negative one) once pivots stall without progress, so it cannot cycle.
    let mut stalled = 0;
    loop {
        let prices = &t[m * width..m * width + n + m];
        let col = if stalled < STALL {
            (0..n + m)
                .filter(|&j| prices[j] < -EPS)
                .min_by(|&i, &j| prices[i].total_cmp(&prices[j]))
        } else {
            (0..n + m).find(|&j| prices[j] < -EPS)
        };
        let Some(col) = col else { break };
        let Some(row) = leaving(&t, width, m, col, &basis) else {
            break; // unbounded cannot happen with positive payoffs
        };
        let before = t[m * width + width - 1];
        pivot(&mut t, width, row, col);
        basis[row] = col;
        stalled = if t[m * width + width - 1] > before + EPS {
            0
        } else {
            stalled + 1
        };
    }
    let mut y = vec![0.0f64; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            y[b] = t[i * width + width - 1];
        }
    }
    let x: Vec<f64> = (0..m).map(|i| t[m * width + n + i]).collect();
    let total = t[m * width + width - 1];
    Solution {
        rows: normalised(x),
        cols: normalised(y),
        value: 1.0 / total - shift,
    }
}

/// The leaving row by the ratio test, ties broken by the lowest basic
/// variable (Bland's rule).
fn leaving(t: &[f64], width: usize, m: usize, col: usize, basis: &[usize]) -> Option<usize> {
    let mut best: Option<(f64, usize, usize)> = None;
    for i in 0..m {
        let p = t[i * width + col];
        if p > EPS {
            let ratio = t[i * width + width - 1] / p;
            let better = match best {
                None => true,
                Some((r, _, b)) => ratio < r - EPS || (ratio <= r + EPS && basis[i] < b),
            };
            if better {
                best = Some((ratio, i, basis[i]));
            }
        }
    }
    best.map(|(_, i, _)| i)
}

/// One pivot of the tableau on `(row, col)`.
fn pivot(t: &mut [f64], width: usize, row: usize, col: usize) {
    let p = t[row * width + col];
    for v in &mut t[row * width..(row + 1) * width] {
        *v /= p;
    }
    let pivot_row: Vec<f64> = t[row * width..(row + 1) * width].to_vec();
    for (i, r) in t.chunks_mut(width).enumerate() {
        if i != row && r[col] != 0.0 {
            let f = r[col];
            for (v, &pv) in r.iter_mut().zip(&pivot_row) {
                *v -= f * pv;
            }
        }
    }
}

/// `v` scaled to sum to 1, tiny negatives of rounding cleared.
fn normalised(v: Vec<f64>) -> Vec<f64> {
    let v: Vec<f64> = v.into_iter().map(|x| x.max(0.0)).collect();
    let s: f64 = v.iter().sum();
    v.into_iter().map(|x| x / s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each side guarantees with its strategy, whatever the other does.
    fn guarantees(a: &[Vec<f64>], s: &Solution) -> (f64, f64) {
        let n = a[0].len();
        let low = (0..n)
            .map(|j| a.iter().zip(&s.rows).map(|(r, p)| p * r[j]).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        let high = a
            .iter()
            .map(|r| r.iter().zip(&s.cols).map(|(v, q)| v * q).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        (low, high)
    }

    #[test]
    fn matching_pennies_is_even_and_mixed_half_and_half() {
        let a = vec![vec![1.0, -1.0], vec![-1.0, 1.0]];
        let s = solve(&a);
        assert!(s.value.abs() < 1e-12);
        for p in s.rows.iter().chain(&s.cols) {
            assert!((p - 0.5).abs() < 1e-12);
        }
    }

    #[test]
    fn a_saddle_point_is_played_pure() {
        // Row 1 dominates; column 0 is the column player's best reply.
        let a = vec![vec![0.2, 0.9], vec![0.4, 0.6], vec![0.1, 0.3]];
        let s = solve(&a);
        assert!((s.value - 0.4).abs() < 1e-12, "{}", s.value);
        assert!((s.rows[1] - 1.0).abs() < 1e-12 && (s.cols[0] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn rock_paper_scissors_with_weights() {
        // Rock beats scissors by 2 (and loses by 2 to it): R 1/4, P 1/2, S 1/4.
        let a = vec![vec![0.0, -1.0, 2.0], vec![1.0, 0.0, -1.0], vec![-2.0, 1.0, 0.0]];
        let s = solve(&a);
        let (low, high) = guarantees(&a, &s);
        assert!((low - s.value).abs() < 1e-12 && (high - s.value).abs() < 1e-12);
        assert!(
            (s.rows[0] - 0.25).abs() < 1e-12 && (s.rows[1] - 0.5).abs() < 1e-12,
            "{:?}",
            s.rows
        );
        assert!((s.value - 0.0).abs() < 1e-12);
    }

    #[test]
    fn random_games_meet_in_the_middle() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..200 {
            let (m, n) = (rng.random_range(1..9), rng.random_range(1..9));
            let a: Vec<Vec<f64>> = (0..m)
                .map(|_| (0..n).map(|_| rng.random::<f64>()).collect())
                .collect();
            let s = solve(&a);
            let (low, high) = guarantees(&a, &s);
            assert!(high - low < 1e-12, "{m}x{n}: {low} .. {high}");
            assert!((s.value - low).abs() < 1e-12);
        }
    }
}
