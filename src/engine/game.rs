//! The interface every game plugs in through, and the registry's visitor.
//!
//! A game is a folder under `src/games/` whose `mod.rs` implements [`Game`]
//! for a unit type, and one line in `src/games/mod.rs` that hands that type
//! to a [`Visitor`]. Everything shared (the command line, the run, the
//! CSV, tournaments, sweeps, strategy files, the trace, the tests that
//! loop over every game) is written once against this trait and names no
//! game.

use std::fmt::{Debug, Display};
use std::ops::RangeInclusive;

use super::advise::{Position, TraceCut};
use super::design::Ratio;
use super::runner::Simulation;

/// One spec form of a policy and what it does, for `--list-policies`.
pub struct PolicyDoc {
    /// The spec form, e.g. `stay-at-N`.
    pub spec: &'static str,
    /// One line on what it does.
    pub does: &'static str,
}

/// A titled group of spec forms (`Hit-or-Stay rules`, `+freeze:CHOICE`).
pub type PolicySection = (&'static str, &'static [PolicyDoc]);

/// One seat's results over some games, in integers: what every game can
/// say of a seat, and all that tournaments and sweeps rank by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatResult {
    /// Games won.
    pub wins: u64,
    /// Sum of the seat's score per game (the game says which score; see
    /// [`Game::score_name`]). Signed: stakes can be lost.
    pub score_sum: i64,
    /// Rounds played (0 for a game without rounds).
    pub rounds: u64,
    /// Sum of round scores.
    pub round_score_sum: u64,
    /// The round scores grouped by game (x = a game's round scores, g =
    /// its rounds), for a standard error that respects the rounds of a
    /// game sharing a deck (empty for a game without rounds).
    pub round_by_game: Ratio,
    /// Games finished in last place (0 for a game without a finishing
    /// order; see [`Game::has_places`]).
    pub losses: u64,
    /// Sum of places (1 = first) over the games with a complete finishing
    /// order.
    pub place_sum: u64,
    /// Games with a complete finishing order (a stalemate has none).
    pub placed: u64,
}

impl SeatResult {
    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &SeatResult) {
        self.wins += o.wins;
        self.score_sum += o.score_sum;
        self.rounds += o.rounds;
        self.round_score_sum += o.round_score_sum;
        self.round_by_game.merge(&o.round_by_game);
        self.losses += o.losses;
        self.place_sum += o.place_sum;
        self.placed += o.placed;
    }
}

/// An option that changes the game (a house rule, a variant), as it shows
/// in file names and in the run's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// For file names: `single-round`, `memory0.8`.
    pub file: String,
    /// In words, for the summary: `single rounds`, `memory 0.8`.
    pub words: String,
}

/// The statistics accumulator of a game's simulation.
pub type Acc<G> = <<G as Game>::Sim as Simulation>::Acc;

/// A game of the Flip family, as the shared machinery sees it.
///
/// The type implementing it is a unit marker (`Flip7`); the game's table
/// options, policies and simulation are its associated types. Every method
/// is a plain function of those values.
pub trait Game: Send + Sync + 'static {
    /// Subcommand name and strategy-file prefix (`flip7`).
    const NAME: &'static str;
    /// One line for `sim --help` (`Flip 7: press your luck to 200 points`).
    const ABOUT: &'static str;
    /// The policy of every seat when `--policy` is not given, and of the
    /// other seats of a sweep when `--field` is not given.
    const DEFAULT_POLICY: &'static str;
    /// Players a table may have.
    const PLAYERS: RangeInclusive<usize>;
    /// The help of `--policy`: the spec forms in one sentence.
    const POLICY_HELP: &'static str;
    /// What `--list-policies` says first: how specs are put together.
    const POLICY_INTRO: &'static str;
    /// Every spec form, in groups, for `--list-policies`.
    const CATALOGUE: &'static [PolicySection];
    /// A sweep of one parameter that plays well, for help texts and tests
    /// (`stay-at-{15..35..5}`).
    const SWEEP_EXAMPLE: &'static str;

    /// The table options (players, house rules) of `sim GAME`,
    /// `sim tournament GAME` and `sim sweep GAME`. Serialized, every one
    /// of them with the value it has in the run (defaults resolved), under
    /// `table` in a run's definition (the JSON trace's first line and the
    /// state file): one key per option, named as its flag with `_` for
    /// `-` (`--single-round` is `single_round`).
    type Options: clap::Args + clap::FromArgMatches + serde::Serialize + Clone + Debug + Send + Sync;
    /// A parsed policy.
    type Policy: Clone + Debug + Display + Send + Sync;
    /// A configured game (options and one policy per seat) the runner plays.
    type Sim: Simulation;

    /// Parses a policy spec (not a strategy name: the shared resolver tries
    /// the spec first, then strategy files).
    fn parse_policy(spec: &str) -> Result<Self::Policy, String>;

    /// Whether `policy` sees what no player at the table can (Flip 7's
    /// `peek`): outputs that show it say it cheats.
    fn cheats(_policy: &Self::Policy) -> bool {
        false
    }

    /// Players at the table under `opts`.
    fn players(opts: &Self::Options) -> usize;

    /// The options that change the game, for file names and the summary.
    fn variants(opts: &Self::Options) -> Vec<Variant>;

    /// The simulation of one line-up: `seats[s]` plays seat `s`
    /// (`seats.len() == players(opts)`).
    fn simulation(opts: &Self::Options, seats: &[Self::Policy]) -> Result<Self::Sim, String>;

    /// What the per-game score is (`final score`), or `None` when the game
    /// has no score under these options.
    fn score_name(opts: &Self::Options) -> Option<&'static str>;

    /// Whether the game is played in rounds (and has a round score).
    fn has_rounds(opts: &Self::Options) -> bool;

    /// Whether games end in a finishing order (first to last place), so
    /// that a seat's losses (last place) and mean place mean something;
    /// tournaments then report them beside the win rate.
    fn has_places(_opts: &Self::Options) -> bool {
        false
    }

    /// Whether the one game whose statistics `acc` holds left something at
    /// the table that carries over to the next game (Flip-Flush's gambling
    /// pot after a tie), making the two games depend on each other.
    /// Tournaments join such games into one independent unit.
    fn carries_over(_opts: &Self::Options, _acc: &Acc<Self>) -> bool {
        false
    }

    /// Games played and each seat's results, from an accumulator.
    fn seat_results(opts: &Self::Options, acc: &Acc<Self>) -> (u64, Vec<SeatResult>);

    /// The game's own columns of the per-seat CSV: the shared columns
    /// ([`crate::engine::columns::CORE_HEADER`]) come first.
    fn csv_columns(opts: &Self::Options) -> Vec<&'static str>;

    /// The game's own fields of each seat's CSV row, in
    /// [`Game::csv_columns`] order.
    fn csv_fields(opts: &Self::Options, acc: &Acc<Self>) -> Vec<Vec<String>>;

    /// Appends the console summary of a run: a table of the seats
    /// (`names[s]` labels seat `s`) and any note the game has.
    fn summary(opts: &Self::Options, acc: &Acc<Self>, names: &[String], out: &mut Vec<u8>);

    /// What the JSON trace's first line (`run`) says of how `sim` plays
    /// the games, beyond the table options, that follows from the seats'
    /// policies and that a replay needs (IB-Flip: whether its repetition
    /// detector runs, and what it compares). Nothing by default.
    fn run_notes(_sim: &Self::Sim) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }

    /// Whether `sim advise GAME` exists for this game.
    const ADVISES: bool = false;

    /// Whether a position of `sim advise GAME` may be given by the game's
    /// own flags ([`Game::advise_flags`]); otherwise only by `--trace`.
    const ADVISE_BY_FLAGS: bool = false;

    /// The most playouts of each move `sim advise GAME` plays when
    /// `--budget` is not given (as the flag is written: `100K`, `1M`).
    const ADVISE_BUDGET: &'static str = "100K";

    /// The model every seat plays after the move in `sim advise GAME` when
    /// `--model` is not given.
    const ADVISE_MODEL: &'static str = Self::DEFAULT_POLICY;

    /// The game's own flags of `sim advise GAME`, added to `cmd` (a
    /// position given by flags: Flip 7's); none by default.
    fn advise_flags(cmd: clap::Command) -> clap::Command {
        cmd
    }

    /// The position of `sim advise GAME`: read from `trace` (a JSON trace
    /// cut at a decision) when given, else from the game's own flags in
    /// `m` (only when [`Game::ADVISE_BY_FLAGS`]); every seat plays `model`
    /// after the move. An impossible position is refused with a message
    /// that names what is wrong.
    fn advise_position(
        _m: &clap::ArgMatches,
        _model: Self::Policy,
        _trace: Option<&TraceCut>,
    ) -> Result<Box<dyn Position>, String> {
        Err(format!("sim advise does not know {} positions", Self::NAME))
    }

    /// Whether `sim play GAME` exists for this game.
    const PLAYS: bool = false;

    /// The bots of `sim play GAME` when `--bots` is not given: the game's
    /// strongest strategy that answers at once.
    const PLAY_BOTS: &'static str = Self::DEFAULT_POLICY;

    /// Plays one game of `sim play` with the table `opts`: the person at
    /// `session`'s seat, `seats[s]` at every other seat `s`, the deal of
    /// seed `seed` ([`super::rng::seeded_game_rng`]). Before each of the
    /// person's decisions the table is drawn as that seat sees it and
    /// [`super::console::Session::ask`] asks; every event is narrated as
    /// that seat may know it, and written to the session's JSON trace
    /// (`seed` in its first event). Returns the closing line (who won).
    fn play(
        _session: &std::cell::RefCell<super::console::Session<Self>>,
        _opts: &Self::Options,
        _seats: &[Self::Policy],
        _seed: u64,
    ) -> Result<String, String> {
        Err(format!("sim play does not play {}", Self::NAME))
    }

    /// Subcommands of `sim GAME` other than simulating (Flip 7's `solve`).
    fn actions() -> Vec<clap::Command> {
        Vec::new()
    }

    /// Runs the action `name` of [`Game::actions`] with its arguments: a
    /// wrong argument is a [`Failure::Usage`] (exit 2), anything else that
    /// fails a [`Failure::Run`] (exit 1). An action that has a page returns
    /// its [`super::exhibit::Exhibit`], which the command line draws and
    /// writes with its files; one without writes its own and returns `None`.
    ///
    /// [`Failure::Usage`]: super::failure::Failure::Usage
    /// [`Failure::Run`]: super::failure::Failure::Run
    fn run_action(
        name: &str,
        _args: &clap::ArgMatches,
    ) -> Result<Option<super::exhibit::Exhibit>, super::failure::Failure> {
        Err(format!("internal: {} has no action '{name}'", Self::NAME).into())
    }
}

/// Something done once per registered game (building the command line,
/// dispatching to the chosen game, a test over every game). The registry
/// in `src/games/mod.rs` calls [`Visitor::visit`] with each game in turn.
pub trait Visitor {
    /// Called once for game `G`.
    fn visit<G: Game>(&mut self);
}

/// The table options of game `G` as the command line gives them when no
/// option is written (the defaults of `sim GAME`).
pub fn default_options<G: Game>() -> G::Options {
    use clap::{Args, FromArgMatches};
    let cmd = G::Options::augment_args(clap::Command::new(G::NAME).no_binary_name(true));
    let matches = cmd
        .try_get_matches_from(std::iter::empty::<&str>())
        .expect("every game option has a default");
    G::Options::from_arg_matches(&matches).expect("defaults parse")
}
