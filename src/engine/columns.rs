//! The per-seat CSV every game writes: the columns all games share, then
//! the game's own ([`crate::engine::game::Game::csv_columns`]); and CSV
//! bytes from a header and rows, each row ending with the run that wrote
//! it ([`RUN_COLUMNS`]).
//!
//! Floats are written with a fixed number of decimals ([`f6`]) so the
//! bytes never depend on the platform.

use super::game::{Acc, Game};
use super::stats::{ratio, wilson95};
use super::version::SIM_VERSION;

/// The columns every game's per-seat CSV starts with.
pub const CORE_HEADER: [&str; 8] = [
    "seat",
    "policy",
    "players",
    "games",
    "wins",
    "win_rate",
    "win_rate_ci95_low",
    "win_rate_ci95_high",
];

/// A seat's wins over a run: the part of a per-seat row every game has.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatWins {
    /// Seat index.
    pub seat: usize,
    /// The seat's policy as shown to the user.
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
}

impl SeatWins {
    /// Seat `seat` of `players`, labelled `policy`, with `wins` of `games`.
    pub fn new(seat: usize, policy: &str, players: usize, games: u64, wins: u64) -> SeatWins {
        SeatWins {
            seat,
            policy: policy.to_string(),
            players,
            games,
            wins,
            win_rate: ratio(wins, games),
            win_ci: wilson95(wins, games),
        }
    }

    /// The fields of [`CORE_HEADER`].
    pub fn csv_fields(&self) -> Vec<String> {
        vec![
            self.seat.to_string(),
            self.policy.clone(),
            self.players.to_string(),
            self.games.to_string(),
            self.wins.to_string(),
            f6(self.win_rate),
            f6(self.win_ci.0),
            f6(self.win_ci.1),
        ]
    }
}

/// A float with six decimals; empty when it is not finite (a spreadsheet
/// reads an empty cell as missing, not as `NaN`).
pub fn f6(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// The per-seat CSV of game `G`: its header, and one row per seat
/// (`names[s]` labels seat `s`).
pub fn seat_table<G: Game>(
    opts: &G::Options,
    acc: &Acc<G>,
    names: &[String],
) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header: Vec<String> = CORE_HEADER.iter().map(|h| h.to_string()).collect();
    header.extend(G::csv_columns(opts).into_iter().map(String::from));
    let (games, seats) = G::seat_results(opts, acc);
    let players = seats.len();
    let rows = seats
        .iter()
        .zip(G::csv_fields(opts, acc))
        .enumerate()
        .map(|(s, (r, own))| {
            let mut row = SeatWins::new(s, &names[s], players, games, r.wins).csv_fields();
            row.extend(own);
            row
        })
        .collect();
    (header, rows)
}

/// The columns every CSV of a run, tournament or sweep ends with: its
/// seed and the `sim` that wrote it ([`SIM_VERSION`]), so that rows joined
/// from several runs still say where they came from.
pub const RUN_COLUMNS: [&str; 2] = ["seed", "sim_version"];

/// CSV bytes of a header and rows, every row ending with the
/// [`RUN_COLUMNS`] of the run of seed `seed`.
pub fn run_csv_bytes(header: &[String], rows: &[Vec<String>], seed: u64) -> Result<Vec<u8>, String> {
    let stamp = [seed.to_string(), SIM_VERSION.to_string()];
    let header: Vec<String> = header
        .iter()
        .cloned()
        .chain(RUN_COLUMNS.map(String::from))
        .collect();
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().chain(&stamp).cloned().collect())
        .collect();
    csv_bytes(&header, &rows)
}

/// CSV bytes of a header and rows.
pub fn csv_bytes(header: &[String], rows: &[Vec<String>]) -> Result<Vec<u8>, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(|e| e.to_string())?;
    for r in rows {
        w.write_record(r).map_err(|e| e.to_string())?;
    }
    w.into_inner().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_fields_follow_the_header() {
        let w = SeatWins::new(2, "stay-at-25", 4, 10, 5);
        let fields = w.csv_fields();
        assert_eq!(fields.len(), CORE_HEADER.len());
        assert_eq!(fields[..5], ["2", "stay-at-25", "4", "10", "5"]);
        assert_eq!(fields[5], "0.500000");
        assert_eq!(f6(f64::NAN), "");
    }

    #[test]
    fn a_run_csv_ends_every_row_with_the_seed_and_the_version() {
        let bytes = run_csv_bytes(&["a".into()], &[vec!["1".into()]], u64::MAX).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(
            text,
            format!("a,seed,sim_version\n1,18446744073709551615,{SIM_VERSION}\n")
        );
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let bytes = csv_bytes(&["a".into(), "b".into()], &[vec!["x,y".into(), "1".into()]]).unwrap();
        assert_eq!(bytes, b"a,b\n\"x,y\",1\n");
    }
}
