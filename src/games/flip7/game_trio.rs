//! The best response at three players, in the independent-rounds model of
//! [`super::game_solve`]: the round rule at every triple of totals that
//! maximises the chance to win against two opponents who both play rounds
//! scored by one distribution, a tie for the lead at the target or above
//! shared out equally.
//!
//! A triple's value needs the values after every pair of opponents'
//! scores: two sums over their round scores, taken one at a time. `H`
//! sums over the second opponent's score (`H(a, b, c) = sum_z d(z) V(a, b,
//! c + z)`), `G` over the first's (`G(a, b, c) = sum_y d(y) H(a, b + y,
//! c)`), so a round score `x` of the player is worth `G(a + x, b, c)`. The
//! player's totals are solved from the top down, and within one the pairs
//! of opponents' totals by their sum from the top down (in parallel along
//! one sum), the two opponents being alike (`V(a, b, c) = V(a, c, b)`,
//! each pair solved once). Where all three score 0 the triple comes back
//! to itself: [`best_cell`] solves that fixed point.

use rayon::prelude::*;

use super::game_solve::{NumberDeck, RoundScores, best_cell};

/// The best response at three players: its chance to win from every
/// triple of totals, `win[(a * target + b) * target + c]`.
pub struct TrioResponse {
    /// The target.
    pub target: usize,
    /// Its chance to win.
    pub win: Vec<f64>,
    /// Its round's bust chance at each triple.
    pub bust: Vec<f64>,
}

impl TrioResponse {
    /// The chance to win from totals `a` against `b` and `c`.
    pub fn at(&self, a: usize, b: usize, c: usize) -> f64 {
        self.win[(a * self.target + b) * self.target + c]
    }
}

/// The share of the win of the player at `a` when the game has ended with
/// the others at `b` and `c`.
fn end(a: usize, b: usize, c: usize) -> f64 {
    let top = a.max(b).max(c);
    if a < top { 0.0 } else { 1.0 / f64::from(1 + u8::from(b == top) + u8::from(c == top)) }
}

/// The exact best response to two opponents whose rounds score by `d`.
pub fn best_response3(deck: &NumberDeck, target: usize, d: &RoundScores) -> TrioResponse {
    let t = target;
    let xs = deck.max_score() + 1;
    let e = t + xs; // first opponent's totals that the sums reach
    let d0 = d.at(0);
    let mut win = vec![0.0f64; t * t * t];
    let mut bust = vec![0.0f64; t * t * t];
    // G of every player's total the sums reach: g[a][b * t + c].
    let mut g: Vec<Vec<f64>> = vec![Vec::new(); t + xs];
    for a in (t..t + xs).rev() {
        let mut h = vec![0.0f64; e * t];
        fill_h(&mut h, 0..e, t, d, |b, c| end(a, b, c));
        g[a] = slice_g(t, e, d, &h);
    }
    for a in (0..t).rev() {
        // H of this total, filled as its pairs are solved (terminal rows
        // of the first opponent's total at once).
        let mut h = vec![0.0f64; e * t];
        let value = |win: &[f64], b: usize, c: usize| -> f64 {
            if b < t && c < t { win[(a * t + b) * t + c] } else { end(a, b, c) }
        };
        fill_h(&mut h, t..e, t, d, |b, c| end(a, b, c));
        for s in (0..=2 * (t - 1)).rev() {
            let lo = s.saturating_sub(t - 1);
            let hi = s / 2;
            if lo > hi {
                continue;
            }
            let solved: Vec<(usize, f64, f64)> = (lo..hi + 1)
                .into_par_iter()
                .with_min_len(4)
                .map(|b| {
                    let c = s - b;
                    let mut known = vec![0.0f64; xs];
                    let mut coef = vec![0.0f64; xs];
                    // The player scores 0: the others' sums, but both 0.
                    let rest_c: f64 = (1..xs).map(|z| d.at(z) * value(&win, b, c + z)).sum();
                    let rest_b: f64 = (1..xs).map(|y| d.at(y) * h[(b + y) * t + c]).sum();
                    known[0] = d0 * rest_c + rest_b;
                    coef[0] = d0 * d0;
                    for (x, k) in known.iter_mut().enumerate().skip(1) {
                        *k = g[a + x][b * t + c];
                    }
                    let guess = if a + 1 < t { win[((a + 1) * t + b) * t + c] } else { 0.5 };
                    let cell = best_cell(deck, &known, &coef, guess);
                    (b, cell.win, cell.round.bust)
                })
                .collect();
            for (b, w, r) in solved {
                let c = s - b;
                for (i, j) in [(b, c), (c, b)] {
                    win[(a * t + i) * t + j] = w;
                    bust[(a * t + i) * t + j] = r;
                }
            }
            // H at the pairs just solved, both ways round.
            for b in lo..=hi {
                let c = s - b;
                for (i, j) in [(b, c), (c, b)] {
                    h[i * t + j] = (0..xs).map(|z| d.at(z) * value(&win, i, j + z)).sum();
                }
            }
        }
        g[a] = slice_g(t, e, d, &h);
    }
    TrioResponse { target, win, bust }
}

/// `H(b, c) = sum_z d(z) v(b, c + z)` for the first totals `rows` and
/// every second total below `t`, into `h[b * t + c]`.
fn fill_h(h: &mut [f64], rows: std::ops::Range<usize>, t: usize, d: &RoundScores, v: impl Fn(usize, usize) -> f64) {
    for b in rows {
        for c in 0..t {
            h[b * t + c] = d.pmf.iter().enumerate().map(|(z, p)| p * v(b, c + z)).sum();
        }
    }
}

/// `G(b, c) = sum_y d(y) H(b + y, c)` for both totals below `t`.
fn slice_g(t: usize, e: usize, d: &RoundScores, h: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0f64; t * t];
    for b in 0..t {
        for c in 0..t {
            g[b * t + c] = d.pmf.iter().enumerate().filter(|(y, _)| b + y < e).map(|(y, p)| p * h[(b + y) * t + c]).sum();
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::game_solve::fixtures::greedy_round;
    use crate::games::flip7::game_solve::trio;

    /// The published figure of the model at a target of 40: the best
    /// response to two score maximisers wins 0.4367747711 from 0-0-0, and
    /// never less than the score maximiser itself from any totals.
    #[test]
    fn published_three_player_best_response_at_forty() {
        let (deck, r) = greedy_round();
        let t = 40;
        let br = best_response3(&deck, t, &r);
        assert!((br.at(0, 0, 0) - 0.4367747711).abs() < 1e-9, "{}", br.at(0, 0, 0));
        let fair = trio(t, &r);
        for a in (0..t).step_by(3) {
            for b in (0..t).step_by(4) {
                for c in (0..t).step_by(5) {
                    let (w, f) = (br.at(a, b, c), fair[(a * t + b) * t + c]);
                    assert!(w >= f - 1e-12, "({a}, {b}, {c}): {w} below {f}");
                    assert!((br.at(a, b, c) - br.at(a, c, b)).abs() < 1e-15);
                }
            }
        }
    }
}
