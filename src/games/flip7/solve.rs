//! Exact values of a solo Flip 7 round from a fresh deck, for any deck
//! composition (number cards, modifiers and action cards).
//!
//! A solo round: the first card is dealt (no choice), then the player
//! chooses Hit or Stay until they stay, bust, are frozen or make a Flip 7.
//! Alone in the round, the player is the target of every Freeze and Flip
//! Three. The values are those of the round-optimum engine
//! ([`super::optimal`]) at the fresh deck, with the same state formulation,
//! so they are exact: the only simplification of that model, ignoring the
//! reshuffle of the discard pile, never applies to a solo round from the
//! fresh deck or any of its `--without` variants (a round ends long before
//! the deck runs out). Only a made-up deck so small that a round can use it
//! up would differ from `rules.rs` (the model banks where the rules would
//! reshuffle the discard pile).
//!
//! With number cards only (`--without actions,modifiers`) the state is the
//! set of numbers held (2^13 states, solved in microseconds); the full deck
//! has about 85 million states (counting every combination of modifiers
//! drawn), solved in about 3 seconds with about 1 GB of memory; each
//! `stay-at-N` takes about as long.

use super::cards::{Card, KINDS, MAX_NUMBER};
use super::optimal::{self, Memo, Rule};
use super::rules::{FLIP7_BONUS, FLIP7_CARDS, Hand};

const STATES: usize = 1 << (MAX_NUMBER as usize + 1);

/// Exact expectations of a solo round.
#[derive(Clone, Debug)]
pub struct SoloRound {
    /// Expected round score of the optimal Hit/Stay rule from a fresh deck.
    pub optimal: f64,
    /// Optimal choice when holding exactly the numbers of `mask` and no
    /// other card (no modifier, no Second Chance, no action card drawn
    /// yet): `hit[mask]`. Meaningful for masks of 1..=6 numbers that the
    /// composition allows (false otherwise).
    pub hit: Vec<bool>,
    /// Expected final score from those same states with optimal play
    /// (`value[mask]`; for 7 numbers, their sum plus the Flip 7 bonus; 0
    /// for masks the composition does not allow and for the empty mask).
    pub value: Vec<f64>,
    /// States whose value was computed (hand states times combinations of
    /// modifiers drawn): a measure of the work.
    pub states: usize,
}

/// A hand holding exactly the numbers of `mask`.
fn plain_hand(mask: usize) -> Hand {
    let numbers: Vec<Card> = (0..=MAX_NUMBER).filter(|&n| mask & (1 << n) != 0).collect();
    Hand::holding(&numbers, 0, 0, false)
}

/// The optimal rule and its value, with the decision table of the states
/// holding numbers only.
pub fn optimal(composition: &[u8; KINDS]) -> Result<SoloRound, String> {
    check(composition)?;
    let mut memo = Memo::new();
    let fresh = optimal::evaluate(&Hand::default(), composition, true, Rule::Optimal, &mut memo);
    let states = memo.states();
    let mut hit = vec![false; STATES];
    let mut value = vec![0.0; STATES];
    for mask in 1..STATES {
        let h = plain_hand(mask);
        let mut pile = *composition;
        if (0..=MAX_NUMBER as usize).any(|n| mask & (1 << n) != 0 && pile[n] == 0) {
            continue; // the composition lacks a number of the mask
        }
        for (n, c) in pile.iter_mut().enumerate().take(MAX_NUMBER as usize + 1) {
            if mask & (1 << n) != 0 {
                *c -= 1;
            }
        }
        if u32::from(h.count) >= FLIP7_CARDS {
            value[mask] = f64::from(h.banked() + FLIP7_BONUS);
            continue;
        }
        // Every such state follows from the fresh deck: the memo answers.
        let v = optimal::evaluate(&h, &pile, true, Rule::Optimal, &mut memo);
        hit[mask] = v.hits();
        value[mask] = v.best();
    }
    Ok(SoloRound {
        optimal: fresh.hit,
        hit,
        value,
        states,
    })
}

/// The exact expected round score of `stay-at-N` (stay when the cards in
/// front are worth at least N; Freeze and Flip Three still apply).
pub fn threshold(composition: &[u8; KINDS], n: u16) -> Result<f64, String> {
    check(composition)?;
    let mut memo = Memo::new();
    Ok(optimal::evaluate(&Hand::default(), composition, true, Rule::StayAt(n), &mut memo).hit)
}

/// The exact expected round scores of `stay-at-N` for every N of `ns`,
/// computed on up to two threads.
pub fn thresholds(composition: &[u8; KINDS], ns: &[u16]) -> Result<Vec<f64>, String> {
    use rayon::prelude::*;
    check(composition)?;
    Ok(ns
        .par_iter()
        .with_min_len(1)
        .map_init(Memo::new, |memo, &n| {
            let v = optimal::evaluate(&Hand::default(), composition, true, Rule::StayAt(n), memo).hit;
            memo.clear();
            v
        })
        .collect())
}

/// Refuses compositions the engine's packed states cannot count.
fn check(composition: &[u8; KINDS]) -> Result<(), String> {
    use super::cards::{FLIP_THREE, FREEZE, PLUS2, SECOND_CHANCE, TIMES2};
    if (PLUS2..=TIMES2).any(|m| composition[m as usize] > 3) {
        return Err("the exact solver counts at most 3 of each modifier".into());
    }
    if [FREEZE, FLIP_THREE, SECOND_CHANCE]
        .iter()
        .any(|&a| composition[a as usize] > 6)
    {
        return Err("the exact solver counts at most 6 of each action card".into());
    }
    Ok(())
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
        let all: Vec<u16> = (0..=60).collect();
        for (n, v) in all.iter().zip(thresholds(&c, &all).unwrap()) {
            assert!(v <= opt + 1e-12, "stay-at-{n}");
            assert_eq!(v, threshold(&c, *n).unwrap(), "stay-at-{n}: same value alone");
        }
    }

    /// The dynamic programme over number masks that this module used before
    /// the engine existed, for number-only decks.
    fn mask_dp(counts: &[u8; KINDS]) -> (f64, Vec<f64>, Vec<bool>) {
        let total: u32 = counts[..=12].iter().map(|&c| u32::from(c)).sum();
        let sum_of = |mask: usize| (0..=12).filter(|n| mask & (1 << n) != 0).sum::<usize>() as f64;
        let mut value = vec![0.0; STATES];
        let mut hit = vec![false; STATES];
        let draw = |mask: usize, value: &[f64]| -> f64 {
            let left = f64::from(total - mask.count_ones());
            (0..=12usize)
                .filter(|&n| counts[n] > 0 && mask & (1 << n) == 0)
                .map(|n| f64::from(counts[n]) / left * value[mask | (1 << n)])
                .sum()
        };
        let mut masks: Vec<usize> = (1..STATES).filter(|m| m.count_ones() <= 7).collect();
        masks.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
        for mask in masks {
            let banked = sum_of(mask);
            if mask.count_ones() == 7 {
                value[mask] = banked + 15.0;
                continue;
            }
            let h = draw(mask, &value);
            hit[mask] = h > banked;
            value[mask] = if hit[mask] { h } else { banked };
        }
        (draw(0, &value), value, hit)
    }

    #[test]
    fn number_only_decision_table_matches_the_mask_dp() {
        let c = numbers();
        let (opt, value, hit) = mask_dp(&c);
        let solved = optimal(&c).unwrap();
        assert!((solved.optimal - opt).abs() < 1e-9);
        for mask in 1..STATES {
            if mask.count_ones() > 6 {
                continue;
            }
            assert!((solved.value[mask] - value[mask]).abs() < 1e-9, "mask {mask:#b}");
            assert_eq!(solved.hit[mask], hit[mask], "mask {mask:#b}");
        }
    }

    /// The full deck (modifiers, Freeze, Flip Three, Second Chance): the
    /// exact optimum, and what the thresholds around it give.
    #[test]
    fn full_deck_round_values() {
        let c = composition(1, Without::default());
        let solved = optimal(&c).unwrap();
        assert!(
            (solved.optimal - 20.297577).abs() < 1e-6,
            "optimal {}",
            solved.optimal
        );
        assert!(solved.states > 50_000_000, "{} states", solved.states);
        let values = thresholds(&c, &[20, 25, 30]).unwrap();
        for (v, exact) in values.iter().zip([18.187944, 19.070020, 18.819299]) {
            assert!((v - exact).abs() < 1e-6, "{values:?}");
            assert!(*v < solved.optimal);
        }
        // Holding 12, 11 and 10 (33 points), stay; holding 1, 2, 3, hit.
        assert!(!solved.hit[(1 << 12) | (1 << 11) | (1 << 10)]);
        assert!(solved.hit[0b1110]);
    }

    #[test]
    fn too_many_modifiers_are_refused_with_a_reason() {
        let mut c = composition(1, Without::default());
        c[crate::games::flip7::cards::TIMES2 as usize] = 4;
        let err = optimal(&c).unwrap_err();
        assert!(err.contains("at most 3"), "{err}");
    }
}
