//! Flip-Flush statistics: integer accumulators filled at the end of every
//! game, the game's CSV fields made from them, and the console table.
//! `docs/flip-flush.md` documents every column.

use std::io::Write;

use super::rules::{End, MAX_PLAYERS, Table};
use crate::engine::columns::SeatWins;
use crate::engine::observe::Observer;
use crate::engine::runner::Accumulator;
use crate::engine::stats::{Z95, mean_stderr, ratio};

/// Integer totals for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Games won (by a correct call or as the last player standing).
    pub wins: u64,
    /// Games won by a correct call.
    pub wins_by_call: u64,
    /// Games won because everybody else was knocked out.
    pub wins_last_standing: u64,
    /// Tied games this seat was still in at the end.
    pub ties: u64,
    /// Wrong calls (each one a knock-out, or a stake paid when gambling).
    pub wrong_calls: u64,
    /// Flushes made without a call (likewise).
    pub missed_flushes: u64,
    /// Turns taken (Place, Flip or pass).
    pub turns: u64,
    /// Flushes called.
    pub calls: u64,
    /// Sum over games of stakes won minus stakes paid (gambling).
    pub net_sum: i64,
    /// Sum over games of the square of that game's net stakes.
    pub net_sq: u64,
}

/// Totals for a run (or one batch of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipFlushStats {
    /// Games played.
    pub games: u64,
    /// Games that ended in a tie.
    pub tied_games: u64,
    /// Turns played, all seats together.
    pub turns: u64,
    /// Whether the gambling columns are written.
    pub gambling: bool,
    /// Per seat.
    pub seats: Vec<SeatStats>,
}

impl FlipFlushStats {
    /// Empty totals for `players` seats.
    pub fn new(players: usize, gambling: bool) -> FlipFlushStats {
        assert!(players <= MAX_PLAYERS);
        FlipFlushStats {
            games: 0,
            tied_games: 0,
            turns: 0,
            gambling,
            seats: vec![SeatStats::default(); players],
        }
    }
}

impl FlipFlushStats {
    /// Back to empty totals (the same seats and variant).
    pub fn clear(&mut self) {
        self.games = 0;
        self.tied_games = 0;
        self.turns = 0;
        self.seats.fill(SeatStats::default());
    }
}

impl Accumulator for FlipFlushStats {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.tied_games += o.tied_games;
        self.turns += o.turns;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.wins += b.wins;
            a.wins_by_call += b.wins_by_call;
            a.wins_last_standing += b.wins_last_standing;
            a.ties += b.ties;
            a.wrong_calls += b.wrong_calls;
            a.missed_flushes += b.missed_flushes;
            a.turns += b.turns;
            a.calls += b.calls;
            a.net_sum += b.net_sum;
            a.net_sq += b.net_sq;
        }
    }
}

impl Observer<Table> for FlipFlushStats {
    const EVENTS: bool = false;

    #[inline]
    fn game_end(&mut self, t: &Table, end: End) {
        self.games += 1;
        self.turns += u64::from(t.turn_count());
        let tie = end == End::Tie;
        self.tied_games += u64::from(tie);
        let (by_call, last) = match end {
            End::Call(w) => (w, usize::MAX),
            End::LastStanding(w) => (usize::MAX, w),
            End::Tie => (usize::MAX, usize::MAX),
        };
        for (s, st) in self.seats.iter_mut().enumerate() {
            st.wins_by_call += u64::from(s == by_call);
            st.wins_last_standing += u64::from(s == last);
            st.wins += u64::from(s == by_call || s == last);
            st.ties += u64::from(tie && t.is_alive(s));
            st.wrong_calls += u64::from(t.wrong_calls(s));
            st.missed_flushes += u64::from(t.missed_flushes(s));
            st.turns += u64::from(t.turns(s));
            st.calls += u64::from(t.calls(s));
            let net = i64::from(t.net(s));
            st.net_sum += net;
            st.net_sq += net.unsigned_abs() * net.unsigned_abs();
        }
    }
}

/// The game's own CSV columns, after the shared ones
/// ([`crate::engine::columns::CORE_HEADER`]), without `--gambling`.
pub const CSV_COLUMNS: [&str; 8] = [
    "ties",
    "tie_rate",
    "wins_by_call",
    "wins_last_standing",
    "knocked_out_wrong_call",
    "knocked_out_missed_flush",
    "mean_turns",
    "mean_calls",
];

/// The extra columns of `--gambling`.
pub const CSV_GAMBLING: [&str; 3] = [
    "mean_net_stakes",
    "mean_net_stakes_ci95_low",
    "mean_net_stakes_ci95_high",
];

/// One seat's own results as numbers, ready for a table or CSV (the wins
/// are in [`SeatWins`], shared by every game).
#[derive(Clone, Debug)]
pub struct SeatRow {
    /// Tied games this seat was in.
    pub ties: u64,
    /// ties / games.
    pub tie_rate: f64,
    /// Wins by a correct call.
    pub wins_by_call: u64,
    /// Wins as the last player standing.
    pub wins_last_standing: u64,
    /// Wrong calls (knock-outs, or stakes paid when gambling).
    pub wrong_calls: u64,
    /// Uncalled Flushes (likewise).
    pub missed_flushes: u64,
    /// Turns per game.
    pub mean_turns: f64,
    /// Calls per game.
    pub mean_calls: f64,
    /// Gambling: mean net stakes per game and its normal 95% interval.
    pub net: Option<(f64, f64, f64)>,
}

impl SeatRow {
    /// The row's CSV fields, in [`CSV_COLUMNS`] order (then
    /// [`CSV_GAMBLING`] when gambling). Floats have a fixed number of
    /// decimals so the bytes never depend on the platform.
    pub fn csv_fields(&self) -> Vec<String> {
        let f = |x: f64| format!("{x:.6}");
        let mut v = vec![
            self.ties.to_string(),
            f(self.tie_rate),
            self.wins_by_call.to_string(),
            self.wins_last_standing.to_string(),
            self.wrong_calls.to_string(),
            self.missed_flushes.to_string(),
            f(self.mean_turns),
            f(self.mean_calls),
        ];
        if let Some((m, lo, hi)) = self.net {
            v.extend([f(m), f(lo), f(hi)]);
        }
        v
    }
}

/// Mean and standard error of a signed quantity from its integer sum and
/// sum of squares (the variance depends on the sum only through its square).
fn signed_mean_stderr(n: u64, sum: i64, sum_sq: u64) -> (f64, f64) {
    let (m, se) = mean_stderr(n, u128::from(sum.unsigned_abs()), u128::from(sum_sq));
    (if sum < 0 { -m } else { m }, se)
}

impl FlipFlushStats {
    /// One row per seat.
    pub fn rows(&self) -> Vec<SeatRow> {
        self.seats
            .iter()
            .map(|st| SeatRow {
                ties: st.ties,
                tie_rate: ratio(st.ties, self.games),
                wins_by_call: st.wins_by_call,
                wins_last_standing: st.wins_last_standing,
                wrong_calls: st.wrong_calls,
                missed_flushes: st.missed_flushes,
                mean_turns: ratio(st.turns, self.games),
                mean_calls: ratio(st.calls, self.games),
                net: self.gambling.then(|| {
                    let (m, se) = signed_mean_stderr(self.games, st.net_sum, st.net_sq);
                    (m, m - Z95 * se, m + Z95 * se)
                }),
            })
            .collect()
    }
}

/// The console table of a run: one line per seat (`names[s]` labels seat
/// `s`), then ties and turns.
pub fn summary(acc: &FlipFlushStats, names: &[String], w: &mut Vec<u8>) {
    let width = names.iter().map(String::len).max().unwrap_or(6).clamp(6, 40);
    let _ = write!(
        w,
        "{:>4}  {:<width$} {:>25}  {:>6} {:>6} {:>6}  {:>6} {:>6}  {:>5} {:>5}",
        "seat", "policy", "win rate [95% CI]", "tie", "call", "last", "wrong", "missed", "turns", "calls"
    );
    if acc.gambling {
        let _ = write!(w, "  {:>24}", "net stakes/game [95% CI]");
    }
    let _ = writeln!(w);
    let pct = |k: u64| 100.0 * k as f64 / acc.games.max(1) as f64;
    let players = acc.seats.len();
    for (s, (r, st)) in acc.rows().iter().zip(&acc.seats).enumerate() {
        let won = SeatWins::new(s, &names[s], players, acc.games, st.wins);
        let _ = write!(
            w,
            "{:>4}  {:<width$} {:>6.2}% [{:>6.2}, {:>6.2}]  {:>5.1}% {:>5.1}% {:>5.1}%  {:>6.3} {:>6.3}  {:>5.1} {:>5.2}",
            s,
            won.policy,
            100.0 * won.win_rate,
            100.0 * won.win_ci.0,
            100.0 * won.win_ci.1,
            100.0 * r.tie_rate,
            pct(r.wins_by_call),
            pct(r.wins_last_standing),
            r.wrong_calls as f64 / acc.games.max(1) as f64,
            r.missed_flushes as f64 / acc.games.max(1) as f64,
            r.mean_turns,
            r.mean_calls,
        );
        if let Some((m, lo, hi)) = r.net {
            let _ = write!(w, "  {m:>+7.3} [{lo:>+7.3}, {hi:>+7.3}]");
        }
        let _ = writeln!(w);
    }
    let _ = writeln!(
        w,
        "tied games: {:.2}%, mean turns per game: {:.2} (wrong, missed: wrong calls and missed Flushes per game, knock-outs{})",
        pct(acc.tied_games),
        acc.turns as f64 / acc.games.max(1) as f64,
        if acc.gambling { " or stakes paid" } else { "" }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_means_keep_their_sign() {
        // -1, -2, 3: mean 0, sd sqrt(7), se sqrt(7/3).
        let (m, se) = signed_mean_stderr(3, 0, 14);
        assert_eq!(m, 0.0);
        assert!((se - (7.0f64 / 3.0).sqrt()).abs() < 1e-12);
        let (m, _) = signed_mean_stderr(2, -3, 5);
        assert_eq!(m, -1.5);
    }

    #[test]
    fn merge_adds_everything() {
        let mut a = FlipFlushStats::new(2, true);
        a.games = 3;
        a.seats[1].net_sum = -4;
        a.seats[1].wins = 1;
        let mut b = a.clone();
        b.seats[1].net_sum = 6;
        a.merge(&b);
        assert_eq!(a.games, 6);
        assert_eq!(a.seats[1].net_sum, 2);
        assert_eq!(a.seats[1].wins, 2);
        let rows = a.rows();
        assert_eq!(rows.len(), 2);
        // Gambling rows carry the stakes columns after the game's own.
        assert_eq!(rows[1].csv_fields().len(), CSV_COLUMNS.len() + CSV_GAMBLING.len());
        assert_eq!(rows[1].csv_fields()[CSV_COLUMNS.len()], "0.333333");
    }
}
