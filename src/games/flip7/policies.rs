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

/// The first opponent of `chooser` still in the round, clockwise from its
/// left, with the greatest `key` among those for which `key` is not `None`.
///
/// Written without data-dependent branches (the loop runs over every seat,
/// and the comparison compiles to conditional moves): who is active and
/// what they hold is unpredictable, and this runs for every action card.
#[inline]
fn best_opponent(t: &Table, chooser: usize, key: impl Fn(usize) -> Option<u64>) -> Option<usize> {
    let n = t.players();
    let (mut best_seat, mut best_key) = (chooser, 0u64);
    let mut s = chooser;
    for _ in 1..n {
        s = if s + 1 == n { 0 } else { s + 1 };
        // Keys are shifted up by one so that 0 means "not a candidate".
        let k = match key(s) {
            Some(k) if t.is_active(s) => k + 1,
            _ => 0,
        };
        let better = k > best_key;
        best_seat = if better { s } else { best_seat };
        best_key = if better { k } else { best_key };
    }
    (best_key > 0).then_some(best_seat)
}

/// Default Freeze target: the active opponent with the highest game total,
/// ties to the first clockwise from the chooser; the chooser itself when no
/// opponent is active.
pub fn default_freeze_target(t: &Table, chooser: usize) -> usize {
    best_opponent(t, chooser, |s| Some(u64::from(t.total(s)))).unwrap_or(chooser)
}

/// Default Flip Three target: the active opponent with the most number cards,
/// ties by highest game total, then first clockwise; the chooser itself when
/// no opponent is active.
pub fn default_flip_three_target(t: &Table, chooser: usize) -> usize {
    best_opponent(t, chooser, |s| {
        Some((u64::from(t.hand(s).number_count()) << 32) | u64::from(t.total(s)))
    })
    .unwrap_or(chooser)
}

/// Default recipient of a spare Second Chance: the active opponent without
/// one who has the lowest game total, ties first clockwise; `None` (discard)
/// when there is none.
pub fn default_second_chance_to(t: &Table, holder: usize) -> Option<usize> {
    // Lowest total first: the key falls as the total rises.
    best_opponent(t, holder, |s| {
        (!t.hand(s).second_chance).then(|| u64::from(u32::MAX - t.total(s)))
    })
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
