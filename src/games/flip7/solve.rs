//! Exact values of a solo Flip 7 round from a fresh deck, by dynamic
//! programming over the set of number cards held.
//!
//! With number cards only (`--without actions,modifiers`) the state of a
//! solo round is the set of different numbers in front of the player: it
//! fixes the score, and the draw pile is the deck less one card of each
//! number held. That is 2^13 states, solved exactly in microseconds. The
//! first card is dealt (no choice); afterwards the player chooses Hit or
//! Stay; a duplicate scores 0 and a seventh number ends the round with the
//! 15-point bonus.

use super::cards::{KINDS, MAX_NUMBER};
use super::rules::{FLIP7_BONUS, FLIP7_CARDS};

const STATES: usize = 1 << (MAX_NUMBER as usize + 1);

/// Exact expectations of a solo round.
#[derive(Clone, Debug)]
pub struct SoloRound {
    /// Expected round score of the optimal Hit/Stay rule.
    pub optimal: f64,
    /// Optimal choice in each state: `hit[mask]` (only meaningful for
    /// reachable masks with 1..=6 cards).
    pub hit: Vec<bool>,
    /// `(value, optimal)` per state: expected final score from there on.
    pub value: Vec<f64>,
}

/// Checks that `composition` holds number cards only.
fn numbers_only(composition: &[u8; KINDS]) -> Result<[u32; 13], String> {
    if composition[(MAX_NUMBER as usize + 1)..].iter().any(|&c| c > 0) {
        return Err("the exact solver handles number cards only: use --without actions,modifiers".into());
    }
    let mut c = [0u32; 13];
    for (n, slot) in c.iter_mut().enumerate() {
        *slot = u32::from(composition[n]);
    }
    Ok(c)
}

fn sum_of(mask: usize) -> f64 {
    (0..=12).filter(|n| mask & (1 << n) != 0).sum::<usize>() as f64
}

/// Solves every state for a Hit/Stay rule `stay(mask, hit_value)` that says
/// whether to stay given the state and the value of hitting.
fn solve(counts: &[u32; 13], stay: impl Fn(usize, f64, f64) -> bool) -> (f64, Vec<f64>, Vec<bool>) {
    let total: u32 = counts.iter().sum();
    let mut value = vec![0.0; STATES];
    let mut hit = vec![false; STATES];
    // Expected value of drawing one card in state `mask`.
    let draw_value = |mask: usize, value: &[f64]| -> f64 {
        let held = mask.count_ones();
        let left = f64::from(total - held);
        let mut ev = 0.0;
        for n in 0..=12usize {
            let c = counts[n];
            if c == 0 || mask & (1 << n) != 0 {
                continue; // absent, or a duplicate: busts, scores 0
            }
            ev += f64::from(c) / left * value[mask | (1 << n)];
        }
        ev
    };
    // Masks in decreasing number of cards, so successors come first.
    let mut masks: Vec<usize> = (1..STATES).filter(|m| m.count_ones() <= FLIP7_CARDS).collect();
    masks.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
    for mask in masks {
        let banked = sum_of(mask);
        if mask.count_ones() == FLIP7_CARDS {
            value[mask] = banked + f64::from(FLIP7_BONUS);
            continue;
        }
        let h = draw_value(mask, &value);
        let stays = stay(mask, banked, h);
        hit[mask] = !stays;
        value[mask] = if stays { banked } else { h };
    }
    // The first card is dealt: no choice.
    let start = draw_value(0, &value);
    (start, value, hit)
}

/// The optimal rule and its value.
pub fn optimal(composition: &[u8; KINDS]) -> Result<SoloRound, String> {
    let counts = numbers_only(composition)?;
    let (optimal, value, hit) = solve(&counts, |_, banked, hit_value| banked >= hit_value);
    Ok(SoloRound { optimal, hit, value })
}

/// The exact expected round score of `stay-at-N`.
pub fn threshold(composition: &[u8; KINDS], n: u16) -> Result<f64, String> {
    let counts = numbers_only(composition)?;
    Ok(solve(&counts, |_, banked, _| banked >= f64::from(n)).0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::cards::{Without, composition};

    fn numbers() -> [u8; KINDS] {
        composition(1, Without::parse("actions,modifiers").unwrap())
    }

    /// Published exact values for the number-only solo round.
    #[test]
    fn published_values_of_the_number_only_round() {
        let c = numbers();
        let opt = optimal(&c).unwrap().optimal;
        assert!((opt - 18.5652).abs() < 5e-5, "optimal {opt}");
        for (n, exact) in [(20, 18.2451), (23, 18.5212), (25, 18.4061), (30, 17.1389)] {
            let v = threshold(&c, n).unwrap();
            assert!((v - exact).abs() < 5e-5, "stay-at-{n}: {v} vs {exact}");
        }
    }

    #[test]
    fn optimal_beats_every_threshold() {
        let c = numbers();
        let opt = optimal(&c).unwrap().optimal;
        for n in 0..=60 {
            assert!(threshold(&c, n).unwrap() <= opt + 1e-12, "stay-at-{n}");
        }
    }

    #[test]
    fn full_deck_is_refused_with_a_reason() {
        let err = optimal(&composition(1, Without::default())).unwrap_err();
        assert!(err.contains("--without actions,modifiers"), "{err}");
    }
}
