//! Classic Flip statistics: integer accumulators filled at the end of
//! every round and game, the game's CSV fields and the console table. The
//! README documents every column.

use std::io::Write;

use super::cards::{Func, count};
use super::rules::{End, MAX_PLAYERS, Table};
use crate::engine::columns::{SeatWins, f6};
use crate::engine::design::{Ratio, plus_minus};
use crate::engine::observe::Observer;
use crate::engine::job::inconsistent;
use crate::engine::runner::Accumulator;
use crate::engine::stats::{ratio, wilson95};
use crate::engine::show::plural;
use crate::engine::table::{seat_cells, seat_columns};

/// Round scores on the ladder: 0, 10, 20, 40, 80, 160, 320 or more.
pub const LADDER: [u32; 7] = [0, 10, 20, 40, 80, 160, 320];

/// Integer totals for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatStats {
    /// Games won.
    pub wins: u64,
    /// Sum of final totals.
    pub final_score_sum: u64,
    /// Sum of round scores.
    pub round_score_sum: u64,
    /// This game's round scores so far.
    pub game_round_sum: u64,
    /// Round scores grouped by game (for the standard error).
    pub by_game: Ratio,
    /// Rounds by score: [`LADDER`] steps (the last: 320 or more); other
    /// scores (5,120 at most with two decks) go to the step below them.
    pub ladder: [u64; 7],
    /// "Flip!" calls.
    pub calls: u64,
    /// Calls where the caller's round score was the best (ties count).
    pub caller_top: u64,
    /// Calls where another player scored more than the caller.
    pub outscored: u64,
    /// Sum of the caller's round score at the call.
    pub call_points: u64,
    /// Sum of the turn of the round at the call.
    pub call_turn: u64,
    /// Challenges made.
    pub challenges: u64,
    /// Challenges made and won.
    pub challenges_won: u64,
    /// Times challenged.
    pub challenged: u64,
    /// Times challenged and caught.
    pub caught: u64,
    /// Turns taken.
    pub turns: u64,
    /// Turns ended above the hand limit.
    pub over_limit: u64,
    /// Action functions used, by [`Func`] (blocks included).
    pub funcs: [u64; 8],
    /// Community cards taken as the start option.
    pub community: u64,
    /// Draw-two starts.
    pub draw2: u64,
    /// Cards in hand at the end of rounds.
    pub hand_at_end: u64,
}

/// Totals for a run (or a batch of it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(remote = "Self")]
pub struct ClassicStats {
    /// Games played.
    pub games: u64,
    /// Games stopped by the game cap without a winner.
    pub no_winner: u64,
    /// Rounds played.
    pub rounds: u64,
    /// Rounds cut off by the round cap (void).
    pub cut_off: u64,
    /// Turns, all rounds.
    pub turns: u64,
    /// Reshuffles of the discard pile, all rounds.
    pub reshuffles: u64,
    /// Per seat.
    pub seats: Vec<SeatStats>,
}

impl ClassicStats {
    /// Empty totals for `players` seats.
    pub fn new(players: usize) -> ClassicStats {
        assert!(players <= MAX_PLAYERS);
        ClassicStats {
            games: 0,
            no_winner: 0,
            rounds: 0,
            cut_off: 0,
            turns: 0,
            reshuffles: 0,
            seats: vec![SeatStats::default(); players],
        }
    }
}

impl<'de> serde::Deserialize<'de> for ClassicStats {
    /// Read, then checked ([`Accumulator::check`]): a state file's tally
    /// is used only when it is consistent in itself.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = ClassicStats::deserialize(d)?;
        t.check().map_err(|e| inconsistent(&e))?;
        Ok(t)
    }
}

impl serde::Serialize for ClassicStats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ClassicStats::serialize(self, s)
    }
}

impl Accumulator for ClassicStats {
    fn check(&self) -> Result<(), String> {
        let games = self.games;
        let mut won = u128::from(self.no_winner);
        for (i, s) in self.seats.iter().enumerate() {
            if s.wins > games {
                return Err(format!("seat {i} has {} wins in {games} games (seats[{i}].wins)", s.wins));
            }
            won += u128::from(s.wins);
        }
        if won != u128::from(games) {
            return Err(format!(
                "the seats' wins and the {} games without a winner add up to {won}, not the {games} \
                 games played (seats[].wins)",
                self.no_winner
            ));
        }
        if self.rounds < games || self.cut_off > self.rounds {
            return Err(format!(
                "{} rounds in {games} games, {} of them cut off (rounds)",
                self.rounds, self.cut_off
            ));
        }
        Ok(())
    }

    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.no_winner += o.no_winner;
        self.rounds += o.rounds;
        self.cut_off += o.cut_off;
        self.turns += o.turns;
        self.reshuffles += o.reshuffles;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.wins += b.wins;
            a.final_score_sum += b.final_score_sum;
            a.round_score_sum += b.round_score_sum;
            a.by_game.merge(&b.by_game);
            for (x, y) in a.ladder.iter_mut().zip(b.ladder) {
                *x += y;
            }
            a.calls += b.calls;
            a.caller_top += b.caller_top;
            a.outscored += b.outscored;
            a.call_points += b.call_points;
            a.call_turn += b.call_turn;
            a.challenges += b.challenges;
            a.challenges_won += b.challenges_won;
            a.challenged += b.challenged;
            a.caught += b.caught;
            a.turns += b.turns;
            a.over_limit += b.over_limit;
            for (x, y) in a.funcs.iter_mut().zip(b.funcs) {
                *x += y;
            }
            a.community += b.community;
            a.draw2 += b.draw2;
            a.hand_at_end += b.hand_at_end;
        }
    }
}

fn step(points: u32) -> usize {
    LADDER.iter().rposition(|&l| points >= l).unwrap_or(0)
}

impl Observer<Table> for ClassicStats {
    const EVENTS: bool = false;

    #[inline]
    fn round_end(&mut self, t: &Table) {
        self.rounds += 1;
        self.cut_off += u64::from(t.cut_off());
        self.turns += u64::from(t.turns());
        self.reshuffles += u64::from(t.reshuffles());
        let n = t.players();
        let best = (0..n).map(|p| t.points(p)).max().unwrap_or(0);
        for (p, st) in self.seats.iter_mut().enumerate() {
            let pts = t.points(p);
            let c = t.counts(p);
            st.round_score_sum += u64::from(pts);
            st.game_round_sum += u64::from(pts);
            st.ladder[step(pts)] += 1;
            if c.calls > 0 {
                st.calls += 1;
                st.call_points += u64::from(c.call_points);
                st.call_turn += u64::from(c.call_turn);
                // A voided round scores 0 for everybody: the caller ties
                // for the best score, and ties count as top.
                if pts >= best {
                    st.caller_top += 1;
                } else {
                    st.outscored += 1;
                }
            }
            st.challenges += u64::from(c.challenges);
            st.challenges_won += u64::from(c.challenges_won);
            st.challenged += u64::from(c.challenged);
            st.caught += u64::from(c.caught);
            st.turns += u64::from(c.turns);
            st.over_limit += u64::from(c.over_limit);
            for (x, &y) in st.funcs.iter_mut().zip(&c.funcs) {
                *x += u64::from(y);
            }
            st.community += u64::from(c.community);
            st.draw2 += u64::from(c.draw2);
            st.hand_at_end += u64::from(count(t.hand(p)));
        }
    }

    #[inline]
    fn game_end(&mut self, t: &Table, end: End) {
        self.games += 1;
        match end.winner {
            Some(w) => self.seats[w].wins += 1,
            None => self.no_winner += 1,
        }
        let rounds = i64::from(t.round());
        for (p, st) in self.seats.iter_mut().enumerate() {
            st.final_score_sum += u64::from(t.total(p));
            st.by_game.add(st.game_round_sum as i64, rounds);
            st.game_round_sum = 0;
        }
    }
}

/// The game's own CSV columns, after the shared ones. The README
/// documents each.
pub fn csv_columns() -> Vec<&'static str> {
    let mut v = vec![
        "mean_final_score",
        "mean_rounds_per_game",
        "rounds",
        "mean_round_score",
        "round_score_stderr",
        "scored_rate",
        "score_0",
        "score_10",
        "score_20",
        "score_40",
        "score_80",
        "score_160",
        "score_320_plus",
        "calls",
        "call_rate",
        "caller_top_rate",
        "caller_top_rate_ci95_low",
        "caller_top_rate_ci95_high",
        "outscored_after_call",
        "mean_score_at_call",
        "mean_turn_of_call",
        "challenges",
        "challenges_won",
        "challenge_win_rate",
        "challenged",
        "caught",
        "caught_rate",
        "turns",
        "over_limit_turns",
        "over_limit_rate",
    ];
    v.extend([
        "draw_per_game",
        "take_per_game",
        "steal_per_game",
        "block_per_game",
        "swap_per_game",
        "reboot_per_game",
        "chaos_per_game",
        "plus_turn_per_game",
        "community_takes",
        "community_takes_per_game",
        "draw2_per_game",
        "mean_hand_at_end",
        "cut_off_rounds",
        "cut_off_rate",
        "mean_turns_per_round",
        "reshuffles_per_round",
        "games_without_winner",
    ]);
    v
}

impl ClassicStats {
    /// Seat `s`'s fields, in [`csv_columns`] order.
    pub fn csv_fields(&self, s: usize) -> Vec<String> {
        let st = &self.seats[s];
        let rounds = self.rounds;
        let games = self.games;
        let scored = rounds - st.ladder[0];
        let (top_lo, top_hi) = wilson95(st.caller_top, st.calls);
        let mut v = vec![
            f6(ratio(st.final_score_sum, games)),
            f6(ratio(rounds, games)),
            rounds.to_string(),
            f6(ratio(st.round_score_sum, rounds)),
            f6(st.by_game.stderr().unwrap_or(f64::NAN)),
            f6(ratio(scored, rounds)),
        ];
        v.extend(st.ladder.iter().map(|&k| f6(ratio(k, rounds))));
        v.extend([
            st.calls.to_string(),
            f6(ratio(st.calls, rounds)),
            f6(ratio(st.caller_top, st.calls)),
            f6(top_lo),
            f6(top_hi),
            f6(ratio(st.outscored, st.calls)),
            f6(ratio(st.call_points, st.calls)),
            f6(ratio(st.call_turn, st.calls)),
            st.challenges.to_string(),
            st.challenges_won.to_string(),
            f6(ratio(st.challenges_won, st.challenges)),
            st.challenged.to_string(),
            st.caught.to_string(),
            f6(ratio(st.caught, st.challenged)),
            st.turns.to_string(),
            st.over_limit.to_string(),
            f6(ratio(st.over_limit, st.turns)),
        ]);
        v.extend(Func::ALL.iter().map(|&f| f6(ratio(st.funcs[f as usize], games))));
        v.extend([
            st.community.to_string(),
            f6(ratio(st.community, games)),
            f6(ratio(st.draw2, games)),
            f6(ratio(st.hand_at_end, rounds)),
            self.cut_off.to_string(),
            f6(ratio(self.cut_off, rounds)),
            f6(ratio(self.turns, rounds)),
            f6(ratio(self.reshuffles, rounds)),
            self.no_winner.to_string(),
        ]);
        v
    }
}

/// The console table: one line per seat, then table-wide figures.
pub fn summary(acc: &ClassicStats, names: &[String], w: &mut Vec<u8>) {
    let mut t = seat_columns();
    let first = t.columns();
    t.right("final score");
    t.right("round score").right("scored").right("calls");
    t.right("caller top");
    t.right("challenges").right("caught");
    t.group("per game", first, first);
    t.group("per round", first + 1, first + 3);
    t.group("per call", first + 4, first + 4);
    t.group("in all", first + 5, first + 6);
    let players = acc.seats.len();
    for (s, st) in acc.seats.iter().enumerate() {
        let won = SeatWins::new(s, &names[s], players, acc.games, st.wins);
        let se = st.by_game.stderr();
        let mean = ratio(st.round_score_sum, acc.rounds);
        let round = match se {
            Some(e) if e.is_finite() => plus_minus(mean, e, 3),
            _ => format!("{mean:.3} (1 game)"),
        };
        let mut cells = seat_cells(&won);
        cells.extend([
            format!("{:.2}", ratio(st.final_score_sum, acc.games)),
            round,
            format!("{:.1}%", 100.0 * ratio(acc.rounds - st.ladder[0], acc.rounds)),
            format!("{:.3}", ratio(st.calls, acc.rounds)),
            format!("{:.1}%", 100.0 * ratio(st.caller_top, st.calls)),
            st.challenges.to_string(),
            st.caught.to_string(),
        ]);
        t.row(cells);
    }
    let _ = w.write_all(t.render().as_bytes());
    let _ = writeln!(
        w,
        "mean rounds per game: {:.3}; turns per round: {:.2}; reshuffles per round: {:.3}",
        ratio(acc.rounds, acc.games),
        ratio(acc.turns, acc.rounds),
        ratio(acc.reshuffles, acc.rounds)
    );
    if acc.cut_off > 0 {
        let _ = writeln!(
            w,
            "{} cut off by the round cap (void, no points)",
            plural(acc.cut_off, "round")
        );
    }
    if acc.no_winner > 0 {
        let _ = writeln!(w, "{} without a winner (game cap)", plural(acc.no_winner, "game"));
    }
}
