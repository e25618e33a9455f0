//! IB-Flip statistics: integer accumulators filled at the end of every
//! game, the game's CSV fields and the console table.
//! `docs/rules/ib-flip.md` documents every column.

use std::io::Write;

use super::rules::{End, Illegal, MAX_PLAYERS, Out, Table};
use crate::engine::columns::{SeatWins, f6};
use crate::engine::observe::Observer;
use crate::engine::job::inconsistent;
use crate::engine::runner::Accumulator;
use crate::engine::stats::{ratio, wilson95};
use crate::engine::args::human_count;
use crate::engine::show::plural;
use crate::engine::table::{seat_cells, seat_columns};

/// Integer totals for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatStats {
    /// Games finished first.
    pub wins: u64,
    /// Games finished last.
    pub losses: u64,
    /// Games finished in each place (index 0 = first).
    pub places: [u64; MAX_PLAYERS],
    /// Sum of places over the games with every place given (not
    /// stalemates, where some seats have none).
    pub place_sum: u64,
    /// Legal finishes.
    pub finish_legal: u64,
    /// Illegal finishes by kind ([`Illegal::ALL`] order).
    pub illegal: [u64; 5],
    /// Games lost by flipping the 8s.
    pub lost_8s: u64,
    /// Games this seat ended as the last one left.
    pub last_left: u64,
    /// Stalemates with this seat still in.
    pub stalemates: u64,
    /// Turns taken.
    pub turns: u64,
    /// Pickups, and cards picked up.
    pub pickups: u64,
    /// Cards picked up.
    pub pickup_cards: u64,
    /// Sum over games of the largest hand held.
    pub max_hand_sum: u64,
    /// Reveals.
    pub reveals: u64,
    /// Revealed cards that could be played.
    pub reveals_ok: u64,
    /// Face-down cards tried.
    pub facedown_tries: u64,
    /// Face-down cards that could not be played.
    pub facedown_fails: u64,
    /// Flips by a 10.
    pub flips_10: u64,
    /// Flips by four of a kind.
    pub flips_set: u64,
    /// Random cards drawn by 9s.
    pub nine_draws: u64,
    /// Games this seat started.
    pub started: u64,
    /// Games this seat started and won.
    pub started_wins: u64,
}

/// Totals for a run (or a batch of it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(remote = "Self")]
pub struct IbFlipStats {
    /// Games played.
    pub games: u64,
    /// Games stopped as stalemates.
    pub stalemates: u64,
    /// Of those, found by exact repetition.
    pub repetitions: u64,
    /// Moves, all games together.
    pub moves: u64,
    /// Per seat.
    pub seats: Vec<SeatStats>,
}

impl IbFlipStats {
    /// Empty totals for `players` seats.
    pub fn new(players: usize) -> IbFlipStats {
        IbFlipStats {
            games: 0,
            stalemates: 0,
            repetitions: 0,
            moves: 0,
            seats: vec![SeatStats::default(); players],
        }
    }
}

impl<'de> serde::Deserialize<'de> for IbFlipStats {
    /// Read, then checked ([`Accumulator::check`]): a state file's tally
    /// is used only when it is consistent in itself.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = IbFlipStats::deserialize(d)?;
        t.check().map_err(|e| inconsistent(&e))?;
        Ok(t)
    }
}

impl serde::Serialize for IbFlipStats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        IbFlipStats::serialize(self, s)
    }
}

impl Accumulator for IbFlipStats {
    fn check(&self) -> Result<(), String> {
        let games = self.games;
        let (mut won, mut started) = (0u128, 0u128);
        for (i, s) in self.seats.iter().enumerate() {
            if s.wins > games || s.losses > games {
                return Err(format!(
                    "seat {i} has {} wins and {} losses in {games} games (seats[{i}].wins)",
                    s.wins, s.losses
                ));
            }
            if s.places[0] != s.wins {
                return Err(format!(
                    "seat {i} finished first {} times, not its {} wins (seats[{i}].places)",
                    s.places[0], s.wins
                ));
            }
            let ends = [s.finish_legal, s.lost_8s, s.last_left, s.stalemates];
            let ended: u128 = ends.iter().chain(&s.illegal).map(|&n| u128::from(n)).sum();
            if ended != u128::from(games) {
                return Err(format!(
                    "seat {i}'s ways of ending add up to {ended}, not the {games} games played \
                     (seats[{i}].finish_legal)"
                ));
            }
            won += u128::from(s.wins);
            started += u128::from(s.started);
        }
        if won > u128::from(games) || started != u128::from(games) {
            return Err(format!(
                "the seats have {won} wins and {started} starts in {games} games (seats[].wins)"
            ));
        }
        if self.repetitions > self.stalemates || self.stalemates > games {
            return Err(format!(
                "{} repetitions in {} stalemates in {games} games (stalemates)",
                self.repetitions, self.stalemates
            ));
        }
        Ok(())
    }

    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.stalemates += o.stalemates;
        self.repetitions += o.repetitions;
        self.moves += o.moves;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.wins += b.wins;
            a.losses += b.losses;
            for k in 0..MAX_PLAYERS {
                a.places[k] += b.places[k];
            }
            a.place_sum += b.place_sum;
            a.finish_legal += b.finish_legal;
            for k in 0..5 {
                a.illegal[k] += b.illegal[k];
            }
            a.lost_8s += b.lost_8s;
            a.last_left += b.last_left;
            a.stalemates += b.stalemates;
            a.turns += b.turns;
            a.pickups += b.pickups;
            a.pickup_cards += b.pickup_cards;
            a.max_hand_sum += b.max_hand_sum;
            a.reveals += b.reveals;
            a.reveals_ok += b.reveals_ok;
            a.facedown_tries += b.facedown_tries;
            a.facedown_fails += b.facedown_fails;
            a.flips_10 += b.flips_10;
            a.flips_set += b.flips_set;
            a.nine_draws += b.nine_draws;
            a.started += b.started;
            a.started_wins += b.started_wins;
        }
    }
}

impl Observer<Table> for IbFlipStats {
    const EVENTS: bool = false;

    #[inline]
    fn game_end(&mut self, t: &Table, end: End) {
        self.games += 1;
        self.moves += u64::from(t.moves());
        let stalemate = matches!(end, End::Stalemate { .. });
        self.stalemates += u64::from(stalemate);
        self.repetitions += u64::from(matches!(end, End::Stalemate { repetition: true }));
        let n = t.players();
        for (s, st) in self.seats.iter_mut().enumerate() {
            let place = t.place(s);
            if place != 0 {
                st.places[usize::from(place) - 1] += 1;
                if !stalemate {
                    st.place_sum += u64::from(place);
                }
                st.wins += u64::from(place == 1);
                st.losses += u64::from(usize::from(place) == n);
            }
            match t.how(s) {
                Out::Legal => st.finish_legal += 1,
                Out::Illegal(k) => st.illegal[Illegal::ALL.iter().position(|&x| x == k).unwrap_or(0)] += 1,
                Out::EightsFlip => st.lost_8s += 1,
                Out::Last => st.last_left += 1,
                Out::In => st.stalemates += 1,
            }
            let c = t.counts(s);
            st.turns += u64::from(c.turns);
            st.pickups += u64::from(c.pickups);
            st.pickup_cards += u64::from(c.pickup_cards);
            st.max_hand_sum += u64::from(c.max_hand);
            st.reveals += u64::from(c.reveals);
            st.reveals_ok += u64::from(c.reveals_ok);
            st.facedown_tries += u64::from(c.facedown_tries);
            st.facedown_fails += u64::from(c.facedown_fails);
            st.flips_10 += u64::from(c.flips_10);
            st.flips_set += u64::from(c.flips_set);
            st.nine_draws += u64::from(c.nine_draws);
            if t.starter() == s {
                st.started += 1;
                st.started_wins += u64::from(place == 1);
            }
        }
    }
}

/// The game's own CSV columns, after the shared ones; the `place_K`
/// columns go up to the number of players.
pub fn csv_columns(players: usize) -> Vec<&'static str> {
    let mut v = vec![
        "losses",
        "loss_rate",
        "loss_rate_ci95_low",
        "loss_rate_ci95_high",
        "mean_place",
    ];
    v.extend(&["place_1", "place_2", "place_3", "place_4", "place_5"][..players]);
    v.extend([
        "finish_legal",
        "finish_illegal_2",
        "finish_illegal_10",
        "finish_illegal_8",
        "finish_illegal_flip",
        "finish_illegal_9",
        "lost_8s_flip",
        "last_left",
        "stalemates",
        "mean_moves",
        "mean_turns",
        "pickups",
        "mean_pickups",
        "mean_pickup_size",
        "mean_max_hand",
        "reveals",
        "reveal_success",
        "facedown_tries",
        "facedown_fails",
        "flips_10",
        "flips_set",
        "nine_draws",
        "started",
        "started_win_rate",
    ]);
    v
}

impl IbFlipStats {
    /// Games with every place given.
    pub fn complete(&self) -> u64 {
        self.games - self.stalemates
    }

    /// The CSV fields of seat `s` in [`csv_columns`] order.
    pub fn csv_fields(&self, s: usize) -> Vec<String> {
        let st = &self.seats[s];
        let g = self.games;
        let n = self.seats.len();
        let (lo, hi) = wilson95(st.losses, g);
        let mut v = vec![
            st.losses.to_string(),
            f6(ratio(st.losses, g)),
            f6(lo),
            f6(hi),
            f6(ratio(st.place_sum, self.complete())),
        ];
        v.extend(st.places[..n].iter().map(|&k| f6(ratio(k, g))));
        v.push(st.finish_legal.to_string());
        v.extend(st.illegal.iter().map(u64::to_string));
        v.extend([
            st.lost_8s.to_string(),
            st.last_left.to_string(),
            st.stalemates.to_string(),
            f6(ratio(self.moves, g)),
            f6(ratio(st.turns, g)),
            st.pickups.to_string(),
            f6(ratio(st.pickups, g)),
            f6(ratio(st.pickup_cards, st.pickups)),
            f6(ratio(st.max_hand_sum, g)),
            st.reveals.to_string(),
            f6(ratio(st.reveals_ok, st.reveals)),
            st.facedown_tries.to_string(),
            st.facedown_fails.to_string(),
            st.flips_10.to_string(),
            st.flips_set.to_string(),
            st.nine_draws.to_string(),
            st.started.to_string(),
            f6(ratio(st.started_wins, st.started)),
        ]);
        v
    }
}

/// The console table of a run.
pub fn summary(acc: &IbFlipStats, names: &[String], w: &mut Vec<u8>) {
    let mut t = seat_columns();
    for h in ["loss", "place", "illegal", "8s", "pickup", "turns"] {
        t.right(h);
    }
    let g = acc.games.max(1) as f64;
    let players = acc.seats.len();
    for (s, st) in acc.seats.iter().enumerate() {
        let won = SeatWins::new(s, &names[s], players, acc.games, st.wins);
        let illegal: u64 = st.illegal.iter().sum();
        let mut cells = seat_cells(&won);
        cells.extend([
            format!("{:.1}%", 100.0 * st.losses as f64 / g),
            format!("{:.2}", ratio(st.place_sum, acc.complete())),
            format!("{:.1}%", 100.0 * illegal as f64 / g),
            format!("{:.1}%", 100.0 * st.lost_8s as f64 / g),
            format!("{:.2}", st.pickups as f64 / g),
            format!("{:.1}", st.turns as f64 / g),
        ]);
        t.row(cells);
    }
    let _ = w.write_all(t.render().as_bytes());
    let _ = writeln!(
        w,
        "stalemates: {} of {} ({:.3}%; {} by exact repetition), mean moves per game: {:.1}",
        human_count(acc.stalemates),
        plural(acc.games, "game"),
        100.0 * acc.stalemates as f64 / g,
        human_count(acc.repetitions),
        acc.moves as f64 / g
    );
    let _ = writeln!(
        w,
        "(loss: last place; place: mean place of complete games; illegal: games finished illegally; 8s: lost by flipping the 8s; pickup: pickups per game)"
    );
}
