//! Flip 7 statistics: integer accumulators fed by the game's observer hooks,
//! the game's CSV fields made from them, and the console table.

use std::io::Write;

use super::rules::{MAX_PLAYERS, SoloTally, Status, Table};
use crate::engine::columns::{SeatWins, f6};
use crate::engine::design::plus_minus;
use crate::engine::observe::Observer;
use crate::engine::job::inconsistent;
use crate::engine::runner::Accumulator;
use crate::engine::design::Ratio;
use crate::engine::stats::ratio;
use crate::engine::show::plural;
use crate::engine::table::{seat_cells, seat_columns};

/// Integer totals for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatStats {
    /// Games won as the unique winner.
    pub wins: u64,
    /// Sum of final game totals, which is also the sum of the seat's round
    /// scores (bust = 0, Flip 7 bonus included): every game starts from 0.
    pub final_score_sum: u64,
    /// Round scores grouped by game (x = a game's round scores, g = its
    /// rounds): the rounds of a game share a deck, so the game is the
    /// independent unit of the round score's standard error.
    pub by_game: Ratio,
    /// Rounds by how this seat ended them, indexed by [`Status`]: still in
    /// when the round ended (cut off by another player's Flip 7, or no card
    /// left), stayed, frozen, busted, own Flip 7. Every seat plays every
    /// round, so these add up to [`Flip7Stats::rounds`].
    pub outcomes: [u64; 5],
    /// Cards flipped from the deck for this seat.
    pub cards: u64,
}

impl SeatStats {
    /// Rounds this seat ended as `status`.
    pub fn ended(&self, status: Status) -> u64 {
        self.outcomes[status as usize]
    }
}

/// Totals for a run (or one batch of it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(remote = "Self")]
pub struct Flip7Stats {
    /// Games played.
    pub games: u64,
    /// Rounds played, summed over games.
    pub rounds: u64,
    /// Games that ended without a unique winner.
    pub no_winner: u64,
    /// Rounds ended by the cycle guard ([`super::rules::MAX_RESHUFFLES_PER_ROUND`]).
    pub cycled_rounds: u64,
    /// Games by their number of rounds: `rounds_per_game[r]` games took r
    /// rounds (tie-break rounds included). No trailing zeros, so that the
    /// totals of a run are the same however its batches were merged.
    pub rounds_per_game: Vec<u64>,
    /// The seats whose policy cheats (`peek`), one bit each: set by the
    /// simulation, so that every output of the run can say so.
    pub cheating_seats: u64,
    /// Per seat.
    pub seats: Vec<SeatStats>,
}

impl Flip7Stats {
    /// Empty totals for `players` seats.
    pub fn new(players: usize) -> Flip7Stats {
        assert!(players <= MAX_PLAYERS);
        Flip7Stats {
            games: 0,
            rounds: 0,
            no_winner: 0,
            cycled_rounds: 0,
            rounds_per_game: Vec::new(),
            cheating_seats: 0,
            seats: vec![SeatStats::default(); players],
        }
    }
}

impl Flip7Stats {
    /// Back to empty totals (the same seats, cheating or not).
    pub fn clear(&mut self) {
        self.games = 0;
        self.rounds = 0;
        self.no_winner = 0;
        self.cycled_rounds = 0;
        self.rounds_per_game.clear();
        self.seats.fill(SeatStats::default());
    }

    /// Whether seat `seat`'s policy cheats (`peek`).
    pub fn cheats(&self, seat: usize) -> bool {
        seat < 64 && self.cheating_seats >> seat & 1 != 0
    }

    /// The `p`-th percentile (`p` in percent, 0 < p <= 100) of the rounds a
    /// game took: the smallest r such that at least p% of the games took r
    /// rounds or fewer. Exact, from the integer counts; `None` without
    /// games.
    pub fn rounds_percentile(&self, p: u64) -> Option<u64> {
        debug_assert!((1..=100).contains(&p));
        let mut at_most = 0u128;
        for (r, &games) in self.rounds_per_game.iter().enumerate() {
            at_most += u128::from(games);
            if at_most * 100 >= u128::from(p) * u128::from(self.games) && at_most > 0 {
                return Some(r as u64);
            }
        }
        None
    }
}

impl<'de> serde::Deserialize<'de> for Flip7Stats {
    /// Read, then checked ([`Accumulator::check`]): a state file's tally
    /// is used only when it is consistent in itself.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = Flip7Stats::deserialize(d)?;
        t.check().map_err(|e| inconsistent(&e))?;
        Ok(t)
    }
}

impl serde::Serialize for Flip7Stats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Flip7Stats::serialize(self, s)
    }
}

impl Accumulator for Flip7Stats {
    fn check(&self) -> Result<(), String> {
        let (games, rounds) = (self.games, self.rounds);
        let mut won = u128::from(self.no_winner);
        for (i, s) in self.seats.iter().enumerate() {
            if s.wins > games {
                return Err(format!("seat {i} has {} wins in {games} games (seats[{i}].wins)", s.wins));
            }
            won += u128::from(s.wins);
            let ended: u128 = s.outcomes.iter().map(|&o| u128::from(o)).sum();
            if ended != u128::from(rounds) {
                return Err(format!(
                    "seat {i} ended {ended} rounds, not the {rounds} rounds played (seats[{i}].outcomes)"
                ));
            }
        }
        if won != u128::from(games) {
            return Err(format!(
                "the seats' wins and the {} games without a winner add up to {won}, not the {games} \
                 games played (seats[].wins)",
                self.no_winner
            ));
        }
        if rounds < games || self.cycled_rounds > rounds {
            return Err(format!(
                "{rounds} rounds in {games} games, {} of them ended by the cycle guard (rounds)",
                self.cycled_rounds
            ));
        }
        let by_count: u128 = self.rounds_per_game.iter().map(|&g| u128::from(g)).sum();
        let by_rounds: u128 = (self.rounds_per_game.iter().enumerate())
            .map(|(r, &g)| r as u128 * u128::from(g))
            .sum();
        if by_count != u128::from(games) || by_rounds != u128::from(rounds) {
            return Err(format!(
                "the games by their rounds are {by_count} games of {by_rounds} rounds, not {games} \
                 of {rounds} (rounds_per_game)"
            ));
        }
        Ok(())
    }

    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.rounds += o.rounds;
        self.no_winner += o.no_winner;
        self.cycled_rounds += o.cycled_rounds;
        if self.rounds_per_game.len() < o.rounds_per_game.len() {
            self.rounds_per_game.resize(o.rounds_per_game.len(), 0);
        }
        for (a, b) in self.rounds_per_game.iter_mut().zip(&o.rounds_per_game) {
            *a += b;
        }
        self.cheating_seats |= o.cheating_seats;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.wins += b.wins;
            a.final_score_sum += b.final_score_sum;
            a.by_game.merge(&b.by_game);
            for (x, y) in a.outcomes.iter_mut().zip(b.outcomes) {
                *x += y;
            }
            a.cards += b.cards;
        }
    }
}

impl Flip7Stats {
    /// Adds the rounds of a [`SoloTally`]: exactly what the observer hooks
    /// add for the same solo single rounds, each its own game (one round,
    /// won by its only seat; its rounds' scores grouped by game one by one).
    pub fn add_solo(&mut self, t: &SoloTally) {
        debug_assert_eq!(self.seats.len(), 1);
        let n = t.rounds;
        self.games += n;
        self.rounds += n;
        self.cycled_rounds += t.cycled;
        if n > 0 {
            if self.rounds_per_game.len() < 2 {
                self.rounds_per_game.resize(2, 0);
            }
            self.rounds_per_game[1] += n;
        }
        let st = &mut self.seats[0];
        st.wins += n;
        st.final_score_sum += t.score_sum;
        st.cards += t.cards;
        for (o, &k) in st.outcomes.iter_mut().zip(&t.outcomes) {
            *o += k;
        }
        let (x, g) = (i128::from(t.score_sum), i128::from(n));
        let b = &mut st.by_game;
        b.units += n;
        b.sx += x;
        b.sg += g;
        b.sxx += i128::from(t.score_squares);
        b.sxg += x;
        b.sgg += g;
    }
}

impl Observer<Table> for Flip7Stats {
    const EVENTS: bool = false;

    #[inline]
    fn round_end(&mut self, t: &Table) {
        self.cycled_rounds += u64::from(t.cycled());
        // The round scores are summed from the totals at the game's end.
        for (s, st) in self.seats.iter_mut().enumerate() {
            let h = t.hand(s);
            st.cards += u64::from(h.flipped);
            st.outcomes[h.status as usize] += 1;
        }
        // The byte counts modulo 256; only a round with a reshuffle can
        // have gone past it.
        if t.reshuffled() {
            for (s, st) in self.seats.iter_mut().enumerate() {
                st.cards += 256 * u64::from(t.hand(s).flipped_laps());
            }
        }
    }

    #[inline]
    fn game_end(&mut self, t: &Table, winner: Option<usize>) {
        self.games += 1;
        self.rounds += u64::from(t.round());
        let r = t.round() as usize;
        if r >= self.rounds_per_game.len() {
            self.rounds_per_game.resize(r + 1, 0);
        }
        self.rounds_per_game[r] += 1;
        match winner {
            Some(w) => self.seats[w].wins += 1,
            None => self.no_winner += 1,
        }
        // A game is played from `Table::new_game`, so its totals are the
        // sums of its round scores.
        let rounds = i64::from(t.round());
        for (s, st) in self.seats.iter_mut().enumerate() {
            let total = u64::from(t.total(s));
            st.final_score_sum += total;
            st.by_game.add(total as i64, rounds);
        }
    }
}

/// The game's own CSV columns, after the shared ones
/// ([`crate::engine::columns::CORE_HEADER`]). The README documents each.
pub const CSV_COLUMNS: [&str; 15] = [
    "mean_final_score",
    "mean_rounds_per_game",
    "rounds",
    "mean_round_score",
    "round_score_stderr",
    "bust_rate",
    "stayed_rate",
    "frozen_rate",
    "flip7_rate",
    "cut_off_rate",
    "mean_cards_per_round",
    "rounds_per_game_p10",
    "rounds_per_game_median",
    "rounds_per_game_p90",
    "cheats",
];

/// One seat's own results as numbers, ready for a table or CSV (the wins
/// are in [`SeatWins`], shared by every game).
#[derive(Clone, Debug)]
pub struct SeatRow {
    /// Mean final game total.
    pub mean_final_score: f64,
    /// Mean rounds per game.
    pub mean_rounds_per_game: f64,
    /// Rounds played.
    pub rounds: u64,
    /// Mean round score and its standard error.
    pub mean_round_score: f64,
    /// Standard error of `mean_round_score`.
    pub round_score_stderr: f64,
    /// Per round played.
    pub bust_rate: f64,
    /// Per round played.
    pub stayed_rate: f64,
    /// Per round played.
    pub frozen_rate: f64,
    /// Per round played.
    pub flip7_rate: f64,
    /// Per round played.
    pub cut_off_rate: f64,
    /// Cards flipped per round played.
    pub mean_cards_per_round: f64,
    /// 10th percentile, median and 90th percentile of the rounds per game
    /// (see [`Flip7Stats::rounds_percentile`]); `None` without games.
    pub rounds_per_game_percentiles: [Option<u64>; 3],
    /// Whether the seat's policy cheats (`peek`).
    pub cheats: bool,
}

impl SeatRow {
    /// The row's CSV fields, in [`CSV_COLUMNS`] order. Floats are printed
    /// with a fixed number of decimals so the bytes never depend on the
    /// platform.
    pub fn csv_fields(&self) -> Vec<String> {
        let f = |x: f64| format!("{x:.6}");
        let whole = |x: Option<u64>| x.map(|x| x.to_string()).unwrap_or_default();
        vec![
            f(self.mean_final_score),
            f(self.mean_rounds_per_game),
            self.rounds.to_string(),
            f(self.mean_round_score),
            f6(self.round_score_stderr),
            f(self.bust_rate),
            f(self.stayed_rate),
            f(self.frozen_rate),
            f(self.flip7_rate),
            f(self.cut_off_rate),
            f(self.mean_cards_per_round),
            whole(self.rounds_per_game_percentiles[0]),
            whole(self.rounds_per_game_percentiles[1]),
            whole(self.rounds_per_game_percentiles[2]),
            u8::from(self.cheats).to_string(),
        ]
    }
}

impl Flip7Stats {
    /// One row per seat.
    pub fn rows(&self) -> Vec<SeatRow> {
        let percentiles = [10, 50, 90].map(|p| self.rounds_percentile(p));
        self.seats
            .iter()
            .enumerate()
            .map(|(s, st)| {
                let rounds = self.rounds;
                let mean = ratio(st.final_score_sum, rounds);
                let se = st.by_game.stderr().unwrap_or(f64::NAN);
                SeatRow {
                    mean_final_score: ratio(st.final_score_sum, self.games),
                    mean_rounds_per_game: ratio(self.rounds, self.games),
                    rounds,
                    mean_round_score: mean,
                    round_score_stderr: se,
                    bust_rate: ratio(st.ended(Status::Busted), rounds),
                    stayed_rate: ratio(st.ended(Status::Stayed), rounds),
                    frozen_rate: ratio(st.ended(Status::Frozen), rounds),
                    flip7_rate: ratio(st.ended(Status::Flip7), rounds),
                    cut_off_rate: ratio(st.ended(Status::Active), rounds),
                    mean_cards_per_round: ratio(st.cards, rounds),
                    rounds_per_game_percentiles: percentiles,
                    cheats: self.cheats(s),
                }
            })
            .collect()
    }
}

/// The console table of a run: one line per seat (`names[s]` labels seat
/// `s`), the mean rounds per game, and games without a unique winner.
pub fn summary(acc: &Flip7Stats, names: &[String], w: &mut Vec<u8>) {
    let mut t = seat_columns();
    let first = t.columns();
    t.right("final score").right("round score");
    t.right("bust").right("stay").right("frozen").right("flip7").right("cards");
    t.group("per game", first, first);
    t.group("per round", first + 1, t.columns() - 1);
    let players = acc.seats.len();
    let rows = acc.rows();
    for (s, (r, st)) in rows.iter().zip(&acc.seats).enumerate() {
        let name = if acc.cheats(s) {
            format!("{} (cheats)", names[s])
        } else {
            names[s].clone()
        };
        let won = SeatWins::new(s, &name, players, acc.games, st.wins);
        let mut cells = seat_cells(&won);
        cells.push(format!("{:.2}", r.mean_final_score));
        cells.push(if r.round_score_stderr.is_finite() {
            plus_minus(r.mean_round_score, r.round_score_stderr, 3)
        } else {
            // One game: no spread to measure.
            format!("{:.3} (1 game)", r.mean_round_score)
        });
        for rate in [r.bust_rate, r.stayed_rate, r.frozen_rate, r.flip7_rate] {
            cells.push(format!("{:.1}%", 100.0 * rate));
        }
        cells.push(format!("{:.2}", r.mean_cards_per_round));
        t.row(cells);
    }
    let _ = w.write_all(t.render().as_bytes());
    if let Some(r) = rows.first() {
        let _ = write!(w, "mean rounds per game: {:.3}", r.mean_rounds_per_game);
        if let [Some(p10), Some(median), Some(p90)] = r.rounds_per_game_percentiles {
            let _ = write!(w, " (median {median}; 10th and 90th percentiles {p10} and {p90})");
        }
        let _ = writeln!(w);
    }
    for (s, name) in names.iter().enumerate().filter(|&(s, _)| acc.cheats(s)) {
        let _ = writeln!(
            w,
            "seat {s} ({name}) cheats: it sees the next card of the draw pile, which no player can; \
             its results are an upper bound, not a strategy"
        );
    }
    if acc.cycled_rounds > 0 {
        let _ = writeln!(
            w,
            "{} ended by the cycle guard: players who never stay cycled the same discarded cards through {} reshuffles",
            plural(acc.cycled_rounds, "round"),
            super::rules::MAX_RESHUFFLES_PER_ROUND
        );
    }
    if acc.no_winner > 0 {
        let _ = writeln!(w, "{} without a unique winner", plural(acc.no_winner, "game"));
    }
}
