//! Flip-Flush statistics: integer accumulators filled at the end of every
//! game, and the CSV rows made from them. `docs/flip-flush.md` documents
//! every column.

use super::rules::{End, MAX_PLAYERS, Observer, Table};
use crate::engine::runner::Accumulator;
use crate::engine::stats::{Z95, mean_stderr, ratio, wilson95};

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

impl Observer for FlipFlushStats {
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

/// CSV header, in column order, without and with `--gambling`.
pub const CSV_HEADER: [&str; 16] = [
    "seat",
    "policy",
    "players",
    "games",
    "wins",
    "win_rate",
    "win_rate_ci95_low",
    "win_rate_ci95_high",
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

/// One seat's results as numbers, ready for a table or CSV.
#[derive(Clone, Debug)]
pub struct SeatRow {
    /// Seat index.
    pub seat: usize,
    /// Policy label.
    pub policy: String,
    /// Players at the table.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// wins / games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_ci: (f64, f64),
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
    /// The row's CSV fields, in header order. Floats have a fixed number of
    /// decimals so the bytes never depend on the platform.
    pub fn csv_fields(&self) -> Vec<String> {
        let f = |x: f64| format!("{x:.6}");
        let mut v = vec![
            self.seat.to_string(),
            self.policy.clone(),
            self.players.to_string(),
            self.games.to_string(),
            self.wins.to_string(),
            f(self.win_rate),
            f(self.win_ci.0),
            f(self.win_ci.1),
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
    /// One row per seat; `policies[s]` labels seat `s`.
    pub fn rows(&self, policies: &[String]) -> Vec<SeatRow> {
        let players = self.seats.len();
        self.seats
            .iter()
            .enumerate()
            .map(|(s, st)| SeatRow {
                seat: s,
                policy: policies[s].clone(),
                players,
                games: self.games,
                wins: st.wins,
                win_rate: ratio(st.wins, self.games),
                win_ci: wilson95(st.wins, self.games),
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

    /// The whole CSV (header and one row per seat) as bytes.
    pub fn csv(&self, policies: &[String]) -> Result<Vec<u8>, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header: Vec<&str> = CSV_HEADER.to_vec();
        if self.gambling {
            header.extend(CSV_GAMBLING);
        }
        w.write_record(&header).map_err(|e| e.to_string())?;
        for row in self.rows(policies) {
            w.write_record(row.csv_fields()).map_err(|e| e.to_string())?;
        }
        w.into_inner().map_err(|e| e.to_string())
    }
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
        let csv = String::from_utf8(a.csv(&["x".into(), "y".into()]).unwrap()).unwrap();
        assert!(
            csv.lines()
                .next()
                .unwrap()
                .ends_with("mean_calls,mean_net_stakes,mean_net_stakes_ci95_low,mean_net_stakes_ci95_high")
        );
        assert_eq!(csv.lines().count(), 3);
    }
}
