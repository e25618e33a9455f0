//! Flip 7 policies: how a seat decides Hit or Stay and where its action
//! cards go. A policy is a value parsed from a spec string such as
//! `stay-at-25`; it sees only what a player at the table sees (the
//! [`Table`] exposes no draw-pile order).

use std::fmt;

use super::cards::{Card, FREEZE};
use super::rules::{Chooser, Table};

/// A Hit-or-Stay rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `stay-at-N`: stay once the cards in front (numbers, `x2`, modifiers)
    /// are worth at least N; otherwise hit.
    StayAt(u16),
}

/// Spec forms accepted by [`Policy::parse`], for error messages and help.
pub const ACCEPTED: &str = "stay-at-N (N a whole number of points, e.g. stay-at-25)";

impl Policy {
    /// Parses a spec string such as `stay-at-25`.
    pub fn parse(spec: &str) -> Result<Policy, String> {
        let spec = spec.trim();
        if let Some(n) = spec.strip_prefix("stay-at-") {
            return n.parse::<u16>().map(Policy::StayAt).map_err(|_| {
                format!("'{spec}': N must be a whole number from 0 to 65535; accepted: {ACCEPTED}")
            });
        }
        Err(format!("unknown policy '{spec}'; accepted: {ACCEPTED}"))
    }

    /// Parses a comma-separated list of specs (one per seat, or one for all).
    pub fn parse_list(text: &str) -> Result<Vec<Policy>, String> {
        text.split(',').map(Policy::parse).collect()
    }

    /// Whether `seat` hits.
    #[inline]
    pub fn hit(&self, t: &Table, seat: usize) -> bool {
        match *self {
            Policy::StayAt(n) => t.hand(seat).banked() < n,
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::StayAt(n) => write!(f, "stay-at-{n}"),
        }
    }
}

/// Active opponents of `chooser`, clockwise starting at its left.
#[inline]
fn opponents_clockwise(t: &Table, chooser: usize) -> impl Iterator<Item = usize> + '_ {
    let n = t.players();
    (chooser + 1..n)
        .chain(0..chooser)
        .filter(move |&s| t.is_active(s))
}

/// The first opponent clockwise with the greatest `key`, or `None`.
#[inline]
fn best_opponent<K: Ord>(t: &Table, chooser: usize, key: impl Fn(usize) -> K) -> Option<usize> {
    let mut best: Option<(usize, K)> = None;
    for s in opponents_clockwise(t, chooser) {
        let k = key(s);
        if best.as_ref().is_none_or(|(_, bk)| k > *bk) {
            best = Some((s, k));
        }
    }
    best.map(|(s, _)| s)
}

/// Default Freeze target: the active opponent with the highest game total,
/// ties to the first clockwise from the chooser; the chooser itself when no
/// opponent is active.
pub fn default_freeze_target(t: &Table, chooser: usize) -> usize {
    best_opponent(t, chooser, |s| t.total(s)).unwrap_or(chooser)
}

/// Default Flip Three target: the active opponent with the most number cards,
/// ties by highest game total, then first clockwise; the chooser itself when
/// no opponent is active.
pub fn default_flip_three_target(t: &Table, chooser: usize) -> usize {
    best_opponent(t, chooser, |s| (t.hand(s).number_count(), t.total(s))).unwrap_or(chooser)
}

/// Default recipient of a spare Second Chance: the active opponent without
/// one who has the lowest game total, ties first clockwise; `None` (discard)
/// when there is none.
pub fn default_second_chance_to(t: &Table, holder: usize) -> Option<usize> {
    opponents_clockwise(t, holder)
        .filter(|&s| !t.hand(s).second_chance)
        .min_by_key(|&s| t.total(s)) // min_by_key keeps the first of equals
}

/// One policy per seat: the [`Chooser`] used by simulations.
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
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        self.policies[seat].hit(t, seat)
    }

    #[inline]
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        if card == FREEZE {
            default_freeze_target(t, chooser)
        } else {
            default_flip_three_target(t, chooser)
        }
    }

    #[inline]
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        default_second_chance_to(t, holder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs() {
        assert_eq!(Policy::parse("stay-at-25"), Ok(Policy::StayAt(25)));
        assert_eq!(Policy::parse_list("stay-at-20,stay-at-30").unwrap().len(), 2);
        assert_eq!(Policy::StayAt(7).to_string(), "stay-at-7");
        let e = Policy::parse("yolo").unwrap_err();
        assert!(e.contains("'yolo'") && e.contains("stay-at-N"), "{e}");
        assert!(Policy::parse("stay-at-x").is_err());
        assert!(Policy::parse("stay-at--3").is_err());
    }
}
