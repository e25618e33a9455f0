//! The equilibrium of the two-player independent-rounds model.
//!
//! In the model of [`super::game_solve`] each pair of totals is a game
//! of its own: both players pick a round rule, neither seeing the other's,
//! and the round's two scores lead to other pairs of totals (or end the
//! game). Its payoff for a score `x` against `y` is the chance to win from
//! the totals after the round; a round where both score 0 comes back to
//! the same pair, so the pair's value `v` is a fixed point.
//!
//! Two ways in:
//!
//! - [`fictitious_play`], as the published analysis computes its
//!   equilibrium: the field is the running average of exact best
//!   responses, and the best response to it, which the next step adds,
//!   says how far from an equilibrium it still is (at an equilibrium the
//!   best response wins the game's value, 0.5 from 0-0: no more).
//! - [`pair_equilibrium`]: one pair's game solved exactly, by **double
//!   oracle**. A player's choices are every round rule (Hit or Stay at
//!   every set of numbers held); a small game between the rules found so
//!   far is solved exactly ([`crate::engine::matrix_game`]), each side's
//!   best rule against the other's mixture is found over every rule
//!   ([`NumberDeck::best`]), and a best rule that beats the small game's
//!   value joins it, until neither does. The two best replies bound the
//!   pair's value from both sides ([`PairEquilibrium::gap`]). An
//!   equilibrium that mixes many rules needs as many steps, so this is for
//!   single pairs (the last one takes a fifth of a second), not the grid.
//!
//! The game is symmetric, so the player at `b` against `a` plays what the
//! player at `a` plays at `(b, a)`, and at an equilibrium a tie at the top
//! (both at 200 or more, equal) is worth half a win whether it is split or
//! played on (the play-off is the same game for both).

use super::game_solve::{BestResponse, MASKS, NumberDeck, RoundScores, Ties, after, best_response};
use crate::engine::matrix_game;

/// Where [`pair_equilibrium`] stops: the best replies' values this close.
pub const GAP: f64 = 1e-11;

/// Most best replies asked at one pair.
const STEPS: usize = 400;

/// Weights below this are left out of a mixture.
const LEAST: f64 = 1e-10;

/// A mixed round: round rules played with chances.
#[derive(Clone, Debug)]
pub struct Mixed {
    /// Each rule's chance and its round's scores (chances sum to 1).
    pub parts: Vec<(f64, RoundScores)>,
}

impl Mixed {
    /// The scores of the mixture's round.
    pub fn round(&self) -> RoundScores {
        let len = self.parts.iter().map(|(_, r)| r.pmf.len()).max().unwrap_or(1);
        let mut pmf = vec![0.0; len];
        let mut bust = 0.0;
        for (w, r) in &self.parts {
            for (p, q) in pmf.iter_mut().zip(&r.pmf) {
                *p += w * q;
            }
            bust += w * r.bust;
        }
        RoundScores { pmf, bust }
    }
}

/// One pair of totals solved exactly.
#[derive(Clone, Debug)]
pub struct PairEquilibrium {
    /// The pair's value: the chance to win of the player at the first
    /// total, both playing their equilibrium rounds.
    pub value: f64,
    /// The first player's equilibrium round.
    pub mine: Mixed,
    /// The second player's.
    pub theirs: Mixed,
    /// How far apart the two best replies ended: the value is certified
    /// within it.
    pub gap: f64,
    /// The most that one rule of the first player's mixture, played alone,
    /// guarantees against every rule of the other: below `value` when the
    /// pair needs its mixing.
    pub best_pure: f64,
    /// Best replies asked.
    pub steps: usize,
}

/// The game of one pair of totals: `m[x * xs + y]`, the value of the
/// player's score `x` against the other's `y` (0 for both scoring 0,
/// whose value is the pair's own).
struct PairGame<'a> {
    deck: &'a NumberDeck,
    xs: usize,
    m: Vec<f64>,
}

impl PairGame<'_> {
    /// Against the other's round `q`: the value of each own score, with
    /// both scoring 0 worth `v`.
    fn against(&self, q: &[f64], v: f64) -> Vec<f64> {
        let mut u: Vec<f64> = (0..self.xs).map(|x| self.m[x * self.xs..(x + 1) * self.xs].iter().zip(q).map(|(m, q)| m * q).sum()).collect();
        u[0] += v * q[0];
        u
    }

    /// For the other, against the player's round `p`: the value to the
    /// player of each of the other's scores.
    fn facing(&self, p: &[f64], v: f64) -> Vec<f64> {
        let mut u = vec![0.0; self.xs];
        for (x, &px) in p.iter().enumerate() {
            if px != 0.0 {
                for (u, m) in u.iter_mut().zip(&self.m[x * self.xs..(x + 1) * self.xs]) {
                    *u += px * m;
                }
            }
        }
        u[0] += v * p[0];
        u
    }

    /// The player's best rule against `q`: its value and round.
    fn best_reply(&self, q: &[f64], v: f64) -> (f64, RoundScores) {
        let u = self.against(q, v);
        let mut hit = vec![false; MASKS];
        let value = self.deck.best(&u, &mut hit);
        (value, self.deck.round(|m| hit[usize::from(m)]))
    }

    /// The other's best rule against `p`: the player's value then (the
    /// least it can be held to) and the other's round.
    fn best_counter(&self, p: &[f64], v: f64) -> (f64, RoundScores) {
        let u: Vec<f64> = self.facing(p, v).into_iter().map(|x| 1.0 - x).collect();
        let mut hit = vec![false; MASKS];
        let value = self.deck.best(&u, &mut hit);
        (1.0 - value, self.deck.round(|m| hit[usize::from(m)]))
    }
}

/// The mixture of `rounds` with weights `w`, small weights left out.
fn mixture(rounds: &[RoundScores], w: &[f64]) -> Mixed {
    let kept: Vec<(f64, RoundScores)> = w.iter().zip(rounds).filter(|(w, _)| **w > LEAST).map(|(w, r)| (*w, r.clone())).collect();
    let total: f64 = kept.iter().map(|(w, _)| w).sum();
    Mixed {
        parts: kept.into_iter().map(|(w, r)| (w / total, r)).collect(),
    }
}

/// The exact equilibrium of the pair of totals `(a, b)` below `target`,
/// every later pair worth what `w` gives it (`w[a * target + b]`, a grid
/// of values such as a [`super::game_solve::Grid`]'s) and a tie at the top
/// worth half a win.
pub fn pair_equilibrium(deck: &NumberDeck, target: usize, w: &[f64], (a, b): (usize, usize)) -> PairEquilibrium {
    let greedy = deck.greedy();
    let start = deck.round(|m| greedy[usize::from(m)]);
    let xs = start.pmf.len();
    let mut m = vec![0.0; xs * xs];
    for x in 0..xs {
        for y in 0..xs {
            if x + y > 0 {
                m[x * xs + y] = after(target, w, a + x, b + y, 0.5);
            }
        }
    }
    let game = PairGame { deck, xs, m };
    let (mut rows, mut cols) = (vec![start.clone()], vec![start]);
    let mut v = 0.5;
    let mut best: Option<(Mixed, Mixed, f64, f64, usize)> = None;
    for step in 1..=STEPS {
        let payoffs: Vec<Vec<f64>> = rows
            .iter()
            .map(|r| {
                let u = game.facing(&r.pmf, v);
                cols.iter().map(|c| u.iter().zip(&c.pmf).map(|(a, b)| a * b).sum()).collect()
            })
            .collect();
        let sol = matrix_game::solve(&payoffs);
        let (mine, theirs) = (mixture(&rows, &sol.rows), mixture(&cols, &sol.cols));
        let (p, q) = (mine.round(), theirs.round());
        // The pair's value if both kept these rounds (the fixed point of
        // both scoring 0), and the best replies there.
        let both_zero = p.pmf[0] * q.pmf[0];
        let before = v;
        v = (sol.value - v * both_zero) / (1.0 - both_zero);
        let moved = (v - before).abs() > GAP * 0.01;
        let (high, row) = game.best_reply(&q.pmf, v);
        let (low, col) = game.best_counter(&p.pmf, v);
        best = Some((mine, theirs, high - low, v, step));
        let mut grew = false;
        if high > v + GAP * 0.1 && !rows.contains(&row) {
            rows.push(row);
            grew = true;
        }
        if low < v - GAP * 0.1 && !cols.contains(&col) {
            cols.push(col);
            grew = true;
        }
        if high - low < GAP || (!grew && !moved) {
            break;
        }
    }
    let (mine, theirs, gap, value, steps) = best.expect("at least one step");
    let best_pure = mine.parts.iter().map(|(_, r)| game.best_counter(&r.pmf, value).0).fold(f64::NEG_INFINITY, f64::max);
    PairEquilibrium { value, mine, theirs, gap, best_pure, steps }
}

/// Fictitious play over whole round policies, as the published analysis
/// computes its equilibrium: the field starts as the score maximiser;
/// each step adds the exact best response to the field so far
/// ([`best_response`]), the field at each pair of totals becoming the
/// average of the rounds played there so far (the first field counted
/// once). After `steps` steps: the field, the best response to it, and
/// what the best response to the field won from 0-0 before each step and
/// after the last (`steps + 1` figures, `each` told of each as it comes):
/// the field's distance from an equilibrium, certified, since at an
/// equilibrium the best response wins the value (0.5) and no more.
pub fn fictitious_play(deck: &NumberDeck, target: usize, ties: Ties, steps: usize, mut each: impl FnMut(usize, f64)) -> Played {
    let greedy = deck.greedy();
    let mut field = vec![deck.round(|m| greedy[usize::from(m)]); target * target];
    let mut worth = Vec::with_capacity(steps + 1);
    let mut k = 0;
    loop {
        let br = best_response(deck, target, ties, &|own, other| &field[own * target + other]);
        worth.push(br.grid.at(0, 0));
        each(k, br.grid.at(0, 0));
        if k == steps {
            return Played { field, best: br, worth };
        }
        let keep = (k + 1) as f64 / (k + 2) as f64;
        for (f, r) in field.iter_mut().zip(&br.rounds) {
            for (p, q) in f.pmf.iter_mut().zip(&r.pmf) {
                *p = keep * *p + (1.0 - keep) * q;
            }
            f.bust = keep * f.bust + (1.0 - keep) * r.bust;
        }
        k += 1;
    }
}

/// What [`fictitious_play`] ends with.
pub struct Played {
    /// The averaged field's round at each pair (`field[own * target + other]`).
    pub field: Vec<RoundScores>,
    /// The best response to it.
    pub best: BestResponse,
    /// What the best response won from 0-0, before each step and after
    /// the last.
    pub worth: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::game_solve::fixtures::{deck, greedy_round};

    /// Both at 199: any points reach 200 and the higher total wins. The
    /// game is symmetric, so worth 0.5; its equilibrium mixes rules, and no
    /// rule of the mixture alone guarantees as much.
    #[test]
    fn the_last_pair_is_even_and_needs_its_mixing() {
        let d = deck();
        let t = 200;
        let w = vec![0.0; t * t];
        let e = pair_equilibrium(&d, t, &w, (t - 1, t - 1));
        assert!(e.gap < 1e-10, "{}", e.gap);
        assert!((e.value - 0.5).abs() < 1e-10, "{}", e.value);
        assert!(e.mine.parts.len() > 1);
        assert!(e.best_pure < 0.5 - 1e-4, "{}", e.best_pure);
        let sum: f64 = e.mine.parts.iter().map(|(p, _)| p).sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    /// A pair whose later pairs come from a grid: its value against a
    /// grid of one policy's duel lies between what each side's best reply
    /// to the other's mixture gets.
    #[test]
    fn a_pair_is_bracketed_by_its_best_replies() {
        let (d, r) = greedy_round();
        let t = 60;
        let g = super::super::game_solve::duel(t, Ties::Split, &|_, _| &r, &|_, _| &r);
        let e = pair_equilibrium(&d, t, &g.win, (50, 45));
        assert!(e.gap < 1e-7, "{}", e.gap);
        assert!(e.best_pure <= e.value + 1e-9);
        // Ahead, the pair is worth more than half.
        assert!(e.value > 0.5 && e.value < 1.0, "{}", e.value);
    }

    /// Fictitious play closes in on the value: what the best response to
    /// the averaged field wins never falls below 0.5 (the game's value)
    /// and falls from the first step to the last.
    #[test]
    fn fictitious_play_closes_in_on_the_value() {
        let d = deck();
        let played = fictitious_play(&d, 50, Ties::Split, 6, |_, _| {});
        let (field, worth) = (&played.field, &played.worth);
        assert_eq!((field.len(), worth.len()), (50 * 50, 7));
        assert!(worth.iter().all(|&w| w >= 0.5 - 1e-12), "{worth:?}");
        assert!(worth[6] < worth[0] - 0.01, "{worth:?}");
        let total: f64 = field[7].pmf.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
