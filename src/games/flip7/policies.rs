//! Flip 7 policies: how a seat decides Hit or Stay and where its action
//! cards go. A policy is a value parsed from a spec string such as
//! `stay-at-25`; it sees only what a player at the table sees (the
//! [`Table`] exposes no draw-pile order).

use std::fmt;

use super::cards::{Card, FREEZE, KINDS, MAX_NUMBER, TIMES2, plus_value};
use super::rules::{Chooser, FLIP7_BONUS, FLIP7_CARDS, MAX_PLAYERS, TARGET, Table};

/// A Hit-or-Stay rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// `stay-at-N`: stay once the cards in front (numbers, `x2`, modifiers)
    /// are worth at least N; otherwise hit.
    StayAt(u16),
    /// `cards-N`: stay once holding N number cards; otherwise hit.
    Cards(u8),
    /// `bust-prob:P`: hit while the chance that the next card busts is below
    /// P, counting every card seen (see [`next_card_counts`]); a held Second
    /// Chance makes that chance 0.
    BustProb(f64),
    /// `ev`: hit while the expected round score after one more card, from
    /// the counted draw pile, exceeds the score banked by staying.
    Ev,
    /// `endgame:N` (`endgame` = `endgame:25`): a threshold that looks at
    /// the game scores; see [`endgame_threshold`].
    Endgame(u16),
}

/// Spec forms accepted by [`Policy::parse`], for error messages and help.
pub const ACCEPTED: &str = "stay-at-N (stay once the cards are worth N points, e.g. stay-at-25), \
                            cards-N (stay once holding N number cards, e.g. cards-4), \
                            bust-prob:P (hit while the chance of busting on the next card is below P, \
                            0 < P <= 1, e.g. bust-prob:0.3), ev (hit while one more card is worth more \
                            on average), endgame:N (stay-at-N that looks at the game scores: stays \
                            when banking wins the game, presses when an opponent is close to 200, \
                            plays safe when far ahead; endgame = endgame:25)";

impl Policy {
    /// Parses a spec string such as `stay-at-25`.
    pub fn parse(spec: &str) -> Result<Policy, String> {
        let spec = spec.trim();
        if let Some(n) = spec.strip_prefix("stay-at-") {
            return n.parse::<u16>().map(Policy::StayAt).map_err(|_| {
                format!("'{spec}': N must be a whole number from 0 to 65535; accepted: {ACCEPTED}")
            });
        }
        if let Some(n) = spec.strip_prefix("cards-") {
            return match n.parse::<u8>() {
                Ok(n @ 1..=7) => Ok(Policy::Cards(n)),
                _ => Err(format!(
                    "'{spec}': N must be a whole number from 1 to 7; accepted: {ACCEPTED}"
                )),
            };
        }
        if let Some(p) = spec.strip_prefix("bust-prob:") {
            return match p.parse::<f64>() {
                Ok(p) if p > 0.0 && p <= 1.0 => Ok(Policy::BustProb(p)),
                _ => Err(format!(
                    "'{spec}': P must be a number above 0 and at most 1; accepted: {ACCEPTED}"
                )),
            };
        }
        if spec == "ev" {
            return Ok(Policy::Ev);
        }
        if spec == "endgame" {
            return Ok(Policy::Endgame(25));
        }
        if let Some(n) = spec.strip_prefix("endgame:") {
            return n.parse::<u16>().map(Policy::Endgame).map_err(|_| {
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
            Policy::Cards(n) => t.hand(seat).count < n,
            _ => self.hit_counting(t, seat),
        }
    }

    /// The card-counting rules, kept out of line so that the cheap ones stay
    /// small inside the game loop.
    #[inline(never)]
    fn hit_counting(&self, t: &Table, seat: usize) -> bool {
        match *self {
            Policy::BustProb(p) => bust_chance(t, seat) < p,
            Policy::Ev => ev_hits(t, seat),
            Policy::Endgame(n) => t.hand(seat).banked() < endgame_threshold(t, seat, n),
            Policy::StayAt(_) | Policy::Cards(_) => unreachable!("handled in Policy::hit"),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::StayAt(n) => write!(f, "stay-at-{n}"),
            Policy::Cards(n) => write!(f, "cards-{n}"),
            Policy::BustProb(p) => write!(f, "bust-prob:{p}"),
            Policy::Ev => write!(f, "ev"),
            Policy::Endgame(n) => write!(f, "endgame:{n}"),
        }
    }
}

/// The threshold `endgame:N` plays in the current state: N, adjusted by the
/// game scores (all public):
///
/// - **banking wins:** when the game total plus the cards in front reach 200
///   and beat every opponent's total plus what they have in front, stay
///   (threshold 0 above that point: the banked score is enough);
/// - **an opponent is close:** when an opponent could end the game this
///   round (their total plus their cards in front reach 200) or already
///   stands at 200 - N or more, and this player cannot catch them by
///   staying, the threshold rises to what it takes to pass them (at most
///   N + 25);
/// - **far ahead:** at least 50 points ahead of every opponent, the
///   threshold drops to N - 5 (play safe).
pub fn endgame_threshold(t: &Table, seat: usize, n: u16) -> u16 {
    let me = t.total(seat);
    let banked = u32::from(t.hand(seat).banked());
    let mut best_other = 0u32; // an opponent's total plus cards in front
    let mut best_total = 0u32; // an opponent's game total
    for s in (0..t.players()).filter(|&s| s != seat) {
        let h = t.hand(s);
        let in_front = if h.status == super::rules::Status::Busted {
            0
        } else {
            u32::from(h.banked())
        };
        best_other = best_other.max(t.total(s) + in_front);
        best_total = best_total.max(t.total(s));
    }
    if me + banked >= TARGET && me + banked > best_other {
        return 0;
    }
    let n32 = u32::from(n);
    let threatened = best_other >= TARGET || best_total + n32 >= TARGET;
    if threatened && me + banked <= best_other {
        let to_pass = best_other + 1 - me;
        return to_pass.clamp(n32, n32 + 25) as u16;
    }
    if t.players() > 1 && me >= best_total + 50 {
        return n.saturating_sub(5);
    }
    n
}

/// What a player who tracks every card seen knows of the next card: the
/// count of each kind it may be, and their total. Cards in front of players
/// and in the discard pile are public, so the draw pile holds the rest;
/// when the draw pile is empty the next card comes from the reshuffled
/// discard pile. Never looks at the draw pile's order.
pub fn next_card_counts(t: &Table) -> ([u8; KINDS], u32) {
    let mut counts = [0u8; KINDS];
    if t.pile_len() == 0 {
        counts = *t.discard_counts();
    } else {
        let comp = t.rules().composition;
        for (k, c) in counts.iter_mut().enumerate() {
            *c = comp[k] - t.discard_counts()[k] - t.in_play_counts()[k];
        }
    }
    let total = counts.iter().map(|&c| u32::from(c)).sum();
    (counts, total)
}

/// The chance that the next card busts `seat`: a number it holds, unless it
/// holds a Second Chance.
pub fn bust_chance(t: &Table, seat: usize) -> f64 {
    let h = t.hand(seat);
    if h.second_chance {
        return 0.0;
    }
    let (counts, total) = next_card_counts(t);
    if total == 0 {
        return 0.0;
    }
    let dup: u32 = (0..=MAX_NUMBER)
        .filter(|&n| h.has(n))
        .map(|n| u32::from(counts[usize::from(n)]))
        .sum();
    f64::from(dup) / f64::from(total)
}

/// Expected round score of `seat` after one more card from the counted draw
/// pile, scoring the round as if it ended right after: a new number adds
/// (doubled by x2, with the Flip 7 bonus for a seventh), a duplicate scores
/// 0 (or is cancelled by a held Second Chance), a modifier adds or doubles,
/// and an action card leaves the score unchanged (it is passed on).
pub fn expected_after_hit(t: &Table, seat: usize) -> f64 {
    let (sum, total) = score_after_hit_sum(t, seat);
    if total == 0 {
        return f64::from(t.hand(seat).banked());
    }
    sum as f64 / f64::from(total)
}

/// The `ev` rule in exact integers: hit when the expected score after one
/// more card beats the banked score, i.e. `sum > banked * total`.
fn ev_hits(t: &Table, seat: usize) -> bool {
    let (sum, total) = score_after_hit_sum(t, seat);
    sum > u64::from(t.hand(seat).banked()) * u64::from(total)
}

/// The sum over every card the next draw may be (each counted once) of the
/// round score right after it, and the number of such cards; see
/// [`expected_after_hit`].
fn score_after_hit_sum(t: &Table, seat: usize) -> (u64, u32) {
    let h = t.hand(seat);
    let (counts, total) = next_card_counts(t);
    let banked = u64::from(h.banked());
    let bonus = if u32::from(h.count) + 1 >= FLIP7_CARDS {
        FLIP7_BONUS
    } else {
        0
    };
    let mut sum = 0u64;
    for (k, &c) in counts.iter().enumerate() {
        let card = k as Card;
        let after = if card <= MAX_NUMBER {
            if h.has(card) {
                if h.second_chance { banked } else { 0 }
            } else {
                u64::from(((h.number_sum + u16::from(card)) << h.times2) + h.plus + bonus)
            }
        } else if card == TIMES2 {
            u64::from((h.number_sum << (h.times2 + 1)) + h.plus)
        } else if card < TIMES2 {
            banked + u64::from(plus_value(card))
        } else {
            banked
        };
        sum += u64::from(c) * after;
    }
    (sum, total)
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
    /// Indexed by seat masked to 64 slots: no bounds check in the hot loop.
    policies: Box<[Policy; 64]>,
}

impl Seats {
    /// `policies[s]` plays seat `s`.
    pub fn new(policies: Vec<Policy>) -> Seats {
        assert!(policies.len() <= MAX_PLAYERS);
        let mut all = Box::new([Policy::StayAt(0); 64]);
        all[..policies.len()].copy_from_slice(&policies);
        Seats { policies: all }
    }
}

impl Chooser for Seats {
    #[inline]
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        self.policies[seat & 63].hit(t, seat)
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
