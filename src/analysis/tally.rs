//! What a tournament keeps of the batches it played ([`Tally`]): integer
//! sums of a fixed size, added up deal by deal, that the standings
//! ([`super::standings`]) are worked out from.

use crate::engine::design::Ratio;
use crate::engine::game::SeatResult;
use crate::engine::job::inconsistent;
use crate::engine::runner::BATCH_GAMES;

/// The rating's bootstrap resamples groups of batches: batch `b` adds its
/// "who beat whom" counts to group `b mod GROUPS`. A run of up to `GROUPS`
/// batches has one batch per group; a longer run keeps the same fixed
/// memory however many deals it plays.
pub const GROUPS: u64 = 64;

/// Everything a tournament keeps of the batches it played, in integers,
/// in a size that does not grow with the deals: totals per arrangement and
/// seat, "who beat whom" per bootstrap group, and the design sums behind
/// every standard error. Tallies of disjoint batch ranges add up exactly
/// ([`Tally::merge`]), in any order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(remote = "Self")]
pub struct Tally {
    /// Deals played (games per arrangement).
    pub deals: u64,
    /// Batches played.
    pub batches: u64,
    /// `seats[a * players + s]`: seat `s` of arrangement `a`.
    pub seats: Vec<SeatResult>,
    /// Per bootstrap group ([`GROUPS`]): `beats[i * n + j]` = games `i`
    /// won at a table with `j`, over `n` entrants (empty while the group
    /// has no batch).
    pub beats: Vec<Vec<u64>>,
    /// The sums behind the standard errors.
    pub moments: Moments,
}

impl Tally {
    /// Nothing played yet, for `entrants` entrants and `arrangements`
    /// arrangements of `players` seats.
    pub fn new(entrants: usize, arrangements: usize, players: usize) -> Tally {
        Tally {
            deals: 0,
            batches: 0,
            seats: vec![SeatResult::default(); arrangements * players],
            beats: vec![Vec::new(); GROUPS as usize],
            moments: Moments::new(entrants, arrangements, players),
        }
    }

    /// Adds the batches of `o` (disjoint from those of `self`).
    pub fn merge(&mut self, o: &Tally) {
        self.deals += o.deals;
        self.batches += o.batches;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.add(b);
        }
        for (a, b) in self.beats.iter_mut().zip(&o.beats) {
            if a.is_empty() {
                a.clone_from(b);
            } else {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
            }
        }
        self.moments.merge(&o.moments);
    }
}

impl<'de> serde::Deserialize<'de> for Tally {
    /// Read, then checked ([`Tally::check`]): a state file's tally is used
    /// only when it is consistent in itself.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = Tally::deserialize(d)?;
        t.check().map_err(|e| inconsistent(&e))?;
        Ok(t)
    }
}

impl serde::Serialize for Tally {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Tally::serialize(self, s)
    }
}

impl Tally {
    /// Whether the totals are consistent in themselves: no seat with more
    /// wins, losses or placed games than deals, between one and
    /// [`BATCH_GAMES`] deals a batch, and "who beat whom" of one size in
    /// every group. Otherwise what is wrong, ending with the field in
    /// parentheses.
    pub fn check(&self) -> Result<(), String> {
        let deals = self.deals;
        for (i, s) in self.seats.iter().enumerate() {
            if s.wins > deals || s.losses > deals || s.placed > deals {
                return Err(format!(
                    "seat {i} has {} wins, {} losses and {} placed games in {deals} deals (seats[{i}].wins)",
                    s.wins, s.losses, s.placed
                ));
            }
        }
        if self.batches > deals || u128::from(deals) > u128::from(self.batches) * u128::from(BATCH_GAMES) {
            return Err(format!(
                "{deals} deals in {} batches of at most {BATCH_GAMES} (batches)",
                self.batches
            ));
        }
        let size = self.beats.iter().map(Vec::len).max().unwrap_or(0);
        if let Some(g) = self.beats.iter().position(|b| !b.is_empty() && b.len() != size) {
            return Err(format!(
                "group {g} has {} counts of who beat whom, another {size} (beats[{g}])",
                self.beats[g].len()
            ));
        }
        Ok(())
    }
}

/// The index of the unordered pair `{i, j}` (`i < j`) of `n` entrants.
pub fn pair_index(i: usize, j: usize, n: usize) -> usize {
    debug_assert!(i < j && j < n);
    i * n - i * (i + 1) / 2 + (j - i - 1)
}

/// The integer sums behind every standard error of a tournament, over
/// independent units: a deal with all its arrangements (games that share
/// a deal are not independent, deals are), or consecutive deals joined
/// when a game carries something over to the next in some arrangement
/// ([`Game::carries_over`](crate::engine::game::Game::carries_over): a
/// gambling pot left by a tie).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    /// Per entrant: wins over games.
    pub win: Vec<Ratio>,
    /// Per entrant: score over games.
    pub score: Vec<Ratio>,
    /// Per entrant: round scores over rounds.
    pub round: Vec<Ratio>,
    /// Per entrant: losses (last places) over games.
    pub loss: Vec<Ratio>,
    /// Per entrant: places over games with a complete finishing order.
    pub place: Vec<Ratio>,
    /// Per unordered pair `{i, j}` ([`pair_index`]): the wins of `i` over
    /// the games won by `i` or `j` at a table with both.
    pub h2h: Vec<Ratio>,
    /// Per unordered pair: wins of `i` minus wins of `j` over their games
    /// together.
    pub diff: Vec<Ratio>,
    /// Per arrangement `a` and seat `s` (`a * players + s`): the seat's
    /// wins over its games, as if that arrangement had its own deals.
    pub seat_win: Vec<Ratio>,
    /// Per arrangement and pair of seats `s < t` (in the order of
    /// [`pair_index`] over seats): wins of `s` minus wins of `t`.
    pub seat_diff: Vec<Ratio>,
}

impl Moments {
    /// Empty sums for `entrants` entrants and `arrangements` arrangements
    /// of `players` seats.
    pub fn new(entrants: usize, arrangements: usize, players: usize) -> Moments {
        let pairs = entrants * entrants.saturating_sub(1) / 2;
        let seat_pairs = players * players.saturating_sub(1) / 2;
        Moments {
            win: vec![Ratio::default(); entrants],
            score: vec![Ratio::default(); entrants],
            round: vec![Ratio::default(); entrants],
            loss: vec![Ratio::default(); entrants],
            place: vec![Ratio::default(); entrants],
            h2h: vec![Ratio::default(); pairs],
            diff: vec![Ratio::default(); pairs],
            seat_win: vec![Ratio::default(); arrangements * players],
            seat_diff: vec![Ratio::default(); arrangements * seat_pairs],
        }
    }

    /// Adds the units of `o`.
    pub fn merge(&mut self, o: &Moments) {
        for (a, b) in [
            (&mut self.win, &o.win),
            (&mut self.score, &o.score),
            (&mut self.round, &o.round),
            (&mut self.loss, &o.loss),
            (&mut self.place, &o.place),
            (&mut self.h2h, &o.h2h),
            (&mut self.diff, &o.diff),
            (&mut self.seat_win, &o.seat_win),
            (&mut self.seat_diff, &o.seat_diff),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
    }

    /// Independent units so far.
    pub fn units(&self) -> u64 {
        self.win.first().map_or(0, |r| r.units)
    }
}
