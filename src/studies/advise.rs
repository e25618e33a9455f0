//! `sim advise GAME`: reads a position (from the game's own flags, or from
//! a JSON trace cut at a decision), plays its moves out
//! ([`crate::engine::advise`]) and shows the answer.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::engine::advise::{self, Budget, DEFAULT_BUDGET, TraceCut};
use crate::engine::args::{parse_count, parse_seed, whole_in};
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::Game;
use crate::engine::show::print;
use crate::engine::strategies::{Library, cwd};

/// The options every game's `sim advise` shares.
#[derive(Args, Debug, Clone)]
pub struct AdviseArgs {
    /// A JSON trace (sim GAME --trace --trace-format json): the position is
    /// the one just before the decision at line --at.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,

    /// The line of --trace holding the decision to advise on (a hit, a
    /// stay, an assignment...; 1-based, as an editor numbers lines). Default:
    /// the trace's last decision.
    #[arg(long, value_name = "LINE", requires = "trace", value_parser = whole_in::<u32>(1..=u32::MAX))]
    pub at: Option<u32>,

    /// The policy every seat plays after the move (a spec or a strategy
    /// name); the game's default is named in the answer.
    #[arg(long, value_name = "SPEC")]
    pub model: Option<String>,

    /// Most playouts of each move (K and M accepted); the search stops
    /// earlier once the best move is separated from the others.
    #[arg(long, value_name = "N", value_parser = parse_count, default_value_t = DEFAULT_BUDGET)]
    pub budget: u64,

    /// Stop after this many seconds even if the budget is not spent (the
    /// answer then depends on the machine's speed).
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub time: Option<f64>,

    /// Seed of the playouts (the same seed gives the same answer for any
    /// --threads).
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true, default_value_t = 1)]
    pub seed: u64,

    /// Worker threads (default: all cores).
    #[arg(long, value_parser = whole_in::<u16>(1..=1024), allow_hyphen_values = true)]
    pub threads: Option<u16>,

    /// Print the answer as one JSON object (the position read back, every
    /// move with its figures, the advice).
    #[arg(long)]
    pub json: bool,

    /// A folder of strategy files (GAME-NAME.toml) for --model.
    #[arg(long, value_name = "DIR")]
    pub strategies: Option<PathBuf>,
}

/// `--time`: positive seconds.
fn parse_secs(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "'{text}': expected seconds above 0, at most 86400 (a day), e.g. 0.5"
        )),
    }
}

/// Runs `sim advise G` with the shared options `args` and the whole
/// matches `m` (the game's own position flags).
pub fn run<G: Game>(args: &AdviseArgs, m: &clap::ArgMatches) -> Result<(), Failure> {
    if args.budget == 0 {
        return Err(Failure::Usage(
            "--budget 0: expected at least 1 playout per move".into(),
        ));
    }
    let library = Library::new(&cwd()?, args.strategies.as_deref()).usage()?;
    let spec = args.model.as_deref().unwrap_or(G::ADVISE_MODEL);
    let model = library
        .resolve_policy::<G>(spec)
        .map_err(|e| Failure::Usage(format!("--model {spec}: {e}")))?
        .policy;
    if args.trace.is_none() && !G::ADVISE_BY_FLAGS {
        let g = G::NAME;
        return Err(Failure::Usage(format!(
            "no position: {g} positions are given by --trace FILE (a JSON trace: sim {g} --trace --trace-format \
             json), with --at LINE naming the decision (default: the trace's last)"
        )));
    }
    let trace = args
        .trace
        .as_ref()
        .map(|p| read_cut::<G>(p, args.at))
        .transpose()?;
    let position = G::advise_position(m, model, trace.as_ref()).map_err(Failure::Usage)?;
    let budget = Budget {
        playouts: args.budget,
        time: args.time.map(Duration::from_secs_f64),
        seed: args.seed,
    };
    let threads = crate::engine::runner::threads(args.threads);
    let pool = crate::engine::runner::pool(threads)?;
    let answer = pool.install(|| advise::advise(position.as_ref(), &budget));
    let bytes = if args.json {
        let mut b = serde_json::to_vec_pretty(&advise::json(position.as_ref(), &answer, args.seed))
            .map_err(|e| e.to_string())?;
        b.push(b'\n');
        b
    } else {
        advise::text(position.as_ref(), &answer)
    };
    Ok(print(&bytes)?)
}

/// The trace `path`, cut at line `at`.
fn read_cut<G: Game>(path: &std::path::Path, at: Option<u32>) -> Result<TraceCut, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Usage(format!("--trace {}: cannot read it: {e}", path.display())))?;
    advise::cut_trace(
        &text,
        &path.display().to_string(),
        G::NAME,
        at.map(|a| a as usize),
    )
    .usage()
}
