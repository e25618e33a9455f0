//! Flip-Flush statistics: integer accumulators filled at the end of every
//! game, the game's CSV fields made from them, and the console table.
//! `docs/flip-flush.md` documents every column.

use std::io::Write;

use super::rules::{End, MAX_PLAYERS, Table};
use crate::engine::columns::{SeatWins, f6};
use crate::engine::observe::Observer;
use crate::engine::job::inconsistent;
use crate::engine::runner::Accumulator;
use crate::engine::design::Ratio;
use crate::engine::show::plural;
use crate::engine::stats::ratio;
use crate::engine::table::{seat_cells, seat_columns};

/// Integer totals for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Stakes won minus stakes paid (gambling), games played on to settle
    /// a pot and pots returned included.
    pub net_sum: i64,
    /// Net stakes grouped by pot (x = the stakes of the games from an empty
    /// pot until it is won or returned, g = the counted games among them):
    /// a pot carried over ties those games together, so the pot is the
    /// independent unit of the stakes' standard error.
    pub by_pot: Ratio,
    /// Net stakes since the pot was last empty.
    pub pot_net: i64,
}

/// Totals for a run (or one batch of it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(remote = "Self")]
pub struct FlipFlushStats {
    /// Games played.
    pub games: u64,
    /// Games that ended in a tie.
    pub tied_games: u64,
    /// Turns played, all seats together.
    pub turns: u64,
    /// Gambling: games played on after a batch's last game to settle the
    /// pot it left (their stakes count, not the games).
    pub play_on_games: u64,
    /// Gambling: pots nobody won within the play-on limit, returned to
    /// those who paid them in.
    pub pots_returned: u64,
    /// Counted games since the pot was last empty.
    pub pot_games: i64,
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
            play_on_games: 0,
            pots_returned: 0,
            pot_games: 0,
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
        self.play_on_games = 0;
        self.pots_returned = 0;
        self.pot_games = 0;
        self.seats.fill(SeatStats::default());
    }
}

impl<'de> serde::Deserialize<'de> for FlipFlushStats {
    /// Read, then checked ([`Accumulator::check`]): a state file's tally
    /// is used only when it is consistent in itself.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = FlipFlushStats::deserialize(d)?;
        t.check().map_err(|e| inconsistent(&e))?;
        Ok(t)
    }
}

impl serde::Serialize for FlipFlushStats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        FlipFlushStats::serialize(self, s)
    }
}

impl Accumulator for FlipFlushStats {
    fn check(&self) -> Result<(), String> {
        let games = self.games;
        let mut won = u128::from(self.tied_games);
        for (i, s) in self.seats.iter().enumerate() {
            if s.wins > games {
                return Err(format!("seat {i} has {} wins in {games} games (seats[{i}].wins)", s.wins));
            }
            if s.wins_by_call + s.wins_last_standing != s.wins {
                return Err(format!(
                    "seat {i}'s {} wins by a call and {} as the last standing are not its {} wins \
                     (seats[{i}].wins_by_call)",
                    s.wins_by_call, s.wins_last_standing, s.wins
                ));
            }
            if s.ties > self.tied_games {
                return Err(format!(
                    "seat {i} has {} ties in {} tied games (seats[{i}].ties)",
                    s.ties, self.tied_games
                ));
            }
            won += u128::from(s.wins);
        }
        if won != u128::from(games) {
            return Err(format!(
                "the seats' wins and the {} tied games add up to {won}, not the {games} games \
                 played (seats[].wins)",
                self.tied_games
            ));
        }
        Ok(())
    }

    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.tied_games += o.tied_games;
        self.turns += o.turns;
        self.play_on_games += o.play_on_games;
        self.pots_returned += o.pots_returned;
        self.pot_games += o.pot_games;
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
            a.by_pot.merge(&b.by_pot);
            a.pot_net += b.pot_net;
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
            st.net_sum += i64::from(t.net(s));
        }
        if self.gambling {
            self.pot_games += 1;
            self.stakes(t);
        }
    }
}

impl FlipFlushStats {
    /// Adds the stakes of the game that just ended at `t` to the pot's
    /// running totals, and closes the pot's unit when it was won.
    fn stakes(&mut self, t: &Table) {
        for (s, st) in self.seats.iter_mut().enumerate() {
            st.pot_net += i64::from(t.net(s));
        }
        if t.pot() == 0 {
            self.close_pot();
        }
    }

    /// The pot is empty again: its games and stakes become one unit.
    fn close_pot(&mut self) {
        for st in &mut self.seats {
            st.by_pot.add(st.pot_net, self.pot_games);
            st.pot_net = 0;
        }
        self.pot_games = 0;
    }

    /// A game played on after the batch's last game to settle the pot
    /// ended at `t`: its stakes count, the game does not.
    pub fn played_on(&mut self, t: &Table) {
        self.play_on_games += 1;
        for (s, st) in self.seats.iter_mut().enumerate() {
            st.net_sum += i64::from(t.net(s));
        }
        self.stakes(t);
    }

    /// Nobody won the pot within the play-on limit: `back[s]` stakes went
    /// back to seat `s`.
    pub fn pot_returned(&mut self, back: &[u32]) {
        self.pots_returned += 1;
        for (st, &b) in self.seats.iter_mut().zip(back) {
            st.net_sum += i64::from(b);
            st.pot_net += i64::from(b);
        }
        self.close_pot();
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
            v.extend([f(m), f6(lo), f6(hi)]);
        }
        v
    }
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
                    let m = st.net_sum as f64 / self.games.max(1) as f64;
                    let (lo, hi) = st.by_pot.mean_interval().unwrap_or((f64::NAN, f64::NAN));
                    (m, lo, hi)
                }),
            })
            .collect()
    }
}

/// The console table of a run: one line per seat (`names[s]` labels seat
/// `s`), then ties and turns.
pub fn summary(acc: &FlipFlushStats, names: &[String], w: &mut Vec<u8>) {
    let mut t = seat_columns();
    for h in ["tie", "call", "last", "wrong", "missed", "turns", "calls"] {
        t.right(h);
    }
    if acc.gambling {
        t.right("net stakes/game").right("95% CI");
    }
    let pct = |k: u64| 100.0 * k as f64 / acc.games.max(1) as f64;
    let per_game = |k: u64| k as f64 / acc.games.max(1) as f64;
    let players = acc.seats.len();
    for (s, (r, st)) in acc.rows().iter().zip(&acc.seats).enumerate() {
        let won = SeatWins::new(s, &names[s], players, acc.games, st.wins);
        let mut cells = seat_cells(&won);
        cells.extend([
            format!("{:.1}%", 100.0 * r.tie_rate),
            format!("{:.1}%", pct(r.wins_by_call)),
            format!("{:.1}%", pct(r.wins_last_standing)),
            format!("{:.3}", per_game(r.wrong_calls)),
            format!("{:.3}", per_game(r.missed_flushes)),
            format!("{:.1}", r.mean_turns),
            format!("{:.2}", r.mean_calls),
        ]);
        if let Some((m, lo, hi)) = r.net {
            cells.push(format!("{m:+.3}"));
            cells.push(if lo.is_finite() {
                format!("[{lo:+.3}, {hi:+.3}]")
            } else {
                "(one pot: no interval)".to_string()
            });
        }
        t.row(cells);
    }
    let _ = w.write_all(t.render().as_bytes());
    let _ = writeln!(
        w,
        "tied games: {:.2}%, mean turns per game: {:.2} (wrong, missed: wrong calls and missed Flushes per game, knock-outs{})",
        pct(acc.tied_games),
        acc.turns as f64 / acc.games.max(1) as f64,
        if acc.gambling { " or stakes paid" } else { "" }
    );
    if acc.gambling {
        let pots = acc.seats.first().map_or(0, |st| st.by_pot.units);
        let _ = writeln!(
            w,
            "stakes: {} won or returned; {} played on after a batch's last game to settle its pot (their stakes count, the games do not); {} returned to their payers after {} games without a winner",
            plural(pots, "pot"),
            plural(acc.play_on_games, "game"),
            plural(acc.pots_returned, "pot"),
            super::PLAY_ON_CAP
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
