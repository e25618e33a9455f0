//! Tournaments and sweeps for any game: the game-agnostic part.
//!
//! A game takes part by implementing [`Contest`] in its own `mod.rs`: it
//! builds a [`Simulation`] from a line-up of policies (one per seat) and
//! reads each seat's results out of that simulation's accumulator as a
//! [`SeatResult`]. Everything else (seat arrangements, common random
//! numbers, standings, head-to-head tables, ratings, significance, sweeps,
//! CSV, charts and workbooks) lives here and in [`crate::report`].
//!
//! - [`arrange`]: which entrant sits in which seat, for every arrangement.
//! - [`play`]: plays every arrangement on the same deals, batch by batch.
//! - [`analysis`]: standings, pairwise table, Bradley-Terry ratings,
//!   significance and the variance saved by common random numbers.
//! - [`sweep`]: `{a..b}` and `{x,y}` expansion of a policy spec.
//! - [`cli`]: `sim tournament` and `sim sweep`.

pub mod analysis;
pub mod arrange;
pub mod cli;
pub mod play;
pub mod sweep;

use std::path::Path;

use crate::engine::runner::Simulation;
use crate::engine::strategies::Resolved;

/// One seat's results over some games, in integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatResult {
    /// Games won.
    pub wins: u64,
    /// Sum of the seat's score per game (the game says which score; see
    /// [`Contest::score_name`]). Signed: stakes can be lost.
    pub score_sum: i64,
    /// Rounds played (0 for a game without rounds).
    pub rounds: u64,
    /// Sum of round scores.
    pub round_score_sum: u64,
    /// Sum of squared round scores.
    pub round_score_sq: u64,
}

impl SeatResult {
    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &SeatResult) {
        self.wins += o.wins;
        self.score_sum += o.score_sum;
        self.rounds += o.rounds;
        self.round_score_sum += o.round_score_sum;
        self.round_score_sq += o.round_score_sq;
    }
}

/// What a game provides to take part in tournaments and sweeps. `self`
/// holds the table options of the game (players and house rules), not the
/// policies, which come with each line-up.
pub trait Contest: Sync {
    /// A parsed policy of the game.
    type Policy: Clone + Send + Sync + std::fmt::Display;
    /// The game's simulation for a fixed line-up.
    type Sim: Simulation;

    /// Subcommand name and strategy-file prefix (`flip7`).
    fn game(&self) -> &'static str;
    /// Players at the table.
    fn players(&self) -> usize;
    /// The options that change the game, for file names (`single-round`).
    fn name_extras(&self) -> Vec<String>;
    /// What the per-game score is (`final score`), or `None` when the game
    /// has no score under these options.
    fn score_name(&self) -> Option<&'static str>;
    /// Whether the game is played in rounds (and has a round score).
    fn has_rounds(&self) -> bool;
    /// The policy a sweep's other seats play when `--field` is not given.
    fn default_policy(&self) -> &'static str;
    /// Resolves one `--policies` word: a spec, a strategy name or a path,
    /// strategy files looked up under `dir`.
    fn resolve(&self, word: &str, dir: &Path) -> Result<Resolved<Self::Policy>, String>;
    /// The simulation of one line-up: `seats[s]` plays seat `s`.
    fn simulation(&self, seats: &[Self::Policy]) -> Result<Self::Sim, String>;
    /// Games played and each seat's results, from an accumulator.
    fn results(&self, acc: &<Self::Sim as Simulation>::Acc) -> (u64, Vec<SeatResult>);
    /// The header of the game's normal per-seat CSV.
    fn csv_header(&self) -> Vec<String>;
    /// The game's normal per-seat CSV rows; `names[s]` labels seat `s`.
    fn csv_rows(&self, acc: &<Self::Sim as Simulation>::Acc, names: &[String]) -> Vec<Vec<String>>;
}
