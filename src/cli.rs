//! The command line: one subcommand per game, plus the options every run
//! shares (games, seed, threads, output, trace).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

use std::time::Instant;

use crate::engine::args::{format_count, parse_count};
use crate::engine::output::{Output, ignore_closed_pipe};
use crate::engine::runner::RunConfig;
use crate::engine::runner::{self, Simulation};
use crate::engine::strategies::{Origin, Resolved, Source};
use crate::games::flip_flush::FlipFlushArgs;
use crate::games::flip7::Flip7Args;

/// Monte Carlo strategy simulator for the Flip family of card games.
#[derive(Parser, Debug)]
#[command(name = "sim", version, about, long_about = None)]
pub struct Cli {
    /// What to simulate.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Flip 7: press your luck to 200 points.
    Flip7(Flip7Args),
    /// Flip-Flush: place and flip on a 3x3 grid; call the Flush.
    #[command(name = "flip-flush")]
    FlipFlush(FlipFlushArgs),
    /// Tournament: policies play every seat on the same deals; standings,
    /// head-to-head table, ratings, charts (see docs/tournament.md).
    #[command(subcommand)]
    Tournament(crate::tournament::cli::TournamentGame),
    /// Sweep: one run per value of a policy parameter, e.g.
    /// --policy 'stay-at-{10..40}'; CSV and charts.
    #[command(subcommand)]
    Sweep(crate::tournament::cli::SweepGame),
}

/// Options shared by every simulation run.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Games to play: 5000, 250K, 10M, 2B or 1_000_000.
    #[arg(long, default_value = "100K", value_parser = parse_count)]
    pub games: u64,

    /// Seed of the run (random when not given; always printed). The same seed
    /// gives the same results for any --threads.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// CSV destination; `-` writes it to stdout (the summary then goes to
    /// stderr). Default: a descriptive name in results/.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Print a play-by-play of every game to stdout (meant for a handful of
    /// games; runs on one thread, same results as without it).
    #[arg(long)]
    pub trace: bool,

    /// Never show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

impl RunArgs {
    /// The runner settings, with the seed drawn now if none was given.
    pub fn config(&self) -> RunConfig {
        RunConfig {
            games: self.games,
            seed: self.seed.unwrap_or_else(rand::random),
            threads: self
                .threads
                .map(usize::from)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            progress: !self.no_progress && !self.trace,
        }
    }

    /// Checks and opens the output before any game is played.
    pub fn prepare_output(&self, default: &Path) -> Result<Session, String> {
        let path = self.out.clone().unwrap_or_else(|| default.to_path_buf());
        let output = Output::prepare(&path, "--out")?;
        let csv_on_stdout = matches!(output, Output::Stdout);
        if csv_on_stdout && self.trace {
            return Err("--out - and --trace both write to stdout; give --out a file path".into());
        }
        Ok(Session {
            output,
            csv_on_stdout,
        })
    }
}

/// An output destination being filled, and where the human summary goes.
pub struct Session {
    output: Output,
    csv_on_stdout: bool,
}

impl Session {
    /// Writes the CSV, then shows the summary and where the CSV went: on
    /// stdout, or on stderr when the CSV itself went to stdout. A closed
    /// stdout (`| head`) is not an error.
    pub fn finish(self, csv: &[u8], mut summary: Vec<u8>) -> Result<(), String> {
        let csv_on_stdout = self.csv_on_stdout;
        if let Some(path) = self.output.commit(csv)? {
            let _ = writeln!(summary, "CSV: {}", path.display());
        }
        if csv_on_stdout {
            ignore_closed_pipe(std::io::stderr().write_all(&summary))
        } else {
            let mut out = std::io::stdout().lock();
            ignore_closed_pipe(out.write_all(&summary).and_then(|_| out.flush()))
        }
    }
}

/// What a game tells [`execute`] about a run, for the file name and the
/// summary's first line.
pub struct RunLabel<'a> {
    /// Subcommand name, first in the file name (`flip7`).
    pub game: &'a str,
    /// Each seat's policy as shown to the user.
    pub policies: &'a [String],
    /// Players at the table.
    pub players: usize,
    /// Options that change the game, for the file name (`single-round`).
    pub name_extras: Vec<String>,
    /// The same options in words, for the summary (`single rounds`).
    pub describe_extras: Vec<String>,
}

/// The run every game subcommand shares: check the output first, play the
/// games (with the trace if asked), then write the CSV and the summary.
/// `report` turns the statistics into the CSV bytes and appends the game's
/// summary table to the text it is given.
pub fn execute<S: Simulation>(
    sim: &S,
    args: &RunArgs,
    label: RunLabel<'_>,
    report: impl FnOnce(&S::Acc, &mut Vec<u8>) -> Result<Vec<u8>, String>,
) -> Result<(), String> {
    let cfg = args.config();
    let games = format_count(cfg.games);
    let mut parts = vec![
        label.game.to_string(),
        file_label(label.policies),
        format!("{}p", label.players),
    ];
    parts.push(games.clone());
    parts.extend(label.name_extras);
    parts.push(format!("seed{}", cfg.seed));
    let default_name = PathBuf::from("results").join(format!("{}.csv", parts.join("_")));
    let out = args.prepare_output(&default_name)?;

    let start = Instant::now();
    let acc = if args.trace {
        let mut stdout = std::io::stdout().lock();
        runner::run_traced(sim, &cfg, &mut stdout)?
    } else {
        runner::run(sim, &cfg)?
    };
    let secs = start.elapsed().as_secs_f64();

    // The summary is composed in memory (writing to a Vec cannot fail) and
    // shown after the CSV is safely written.
    let mut summary = Vec::new();
    let mut describe = format!(
        "sim {}: {} players, {games} games, seed {}",
        label.game, label.players, cfg.seed
    );
    for extra in label.describe_extras {
        describe.push_str(", ");
        describe.push_str(&extra);
    }
    let _ = writeln!(
        summary,
        "{describe} ({} threads, {secs:.2} s, {})",
        cfg.threads,
        report_line(cfg.games, secs)
    );
    let csv = report(&acc, &mut summary)?;
    out.finish(&csv, summary)
}

/// Adds to the summary, once per policy, what a strategy name or a label
/// stands for and the file it came from.
pub fn describe_sources<T: std::fmt::Display>(resolved: &[Resolved<T>], summary: &mut Vec<u8>) {
    let mut listed: Vec<&str> = Vec::new();
    for r in resolved {
        if listed.contains(&r.label.as_str()) {
            continue;
        }
        listed.push(&r.label);
        let from = match &r.source {
            Source::Spec => String::new(),
            Source::File(s) => match &s.origin {
                Origin::BuiltIn(file) => format!(" (built in: strategies/{file})"),
                Origin::File(path) => format!(" (from {})", path.display()),
            },
        };
        if r.policy.to_string() != r.label || !from.is_empty() {
            let _ = writeln!(summary, "policy {} = {}{from}", r.label, r.policy);
        }
    }
}

/// One policy per seat from a `--policy` list that names one for every
/// seat or exactly one per seat.
pub fn seat_policies<P: Clone>(policies: &[P], players: usize) -> Result<Vec<P>, String> {
    match policies.len() {
        1 => Ok(vec![policies[0].clone(); players]),
        n if n == players => Ok(policies.to_vec()),
        n => Err(format!(
            "--policy lists {n} specs but --players is {players}; give one spec for every seat, or exactly {players}"
        )),
    }
}

/// A file-name-safe label for a line-up of policies: the spec when every
/// seat plays the same, else the specs joined by `+`.
pub fn file_label(names: &[String]) -> String {
    let joined = if names.iter().all(|n| n == &names[0]) {
        names[0].clone()
    } else {
        names.join("+")
    };
    let mut safe: String = joined
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._+-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    safe.truncate(120);
    safe
}

/// `1.23M games/s` style rate.
pub fn report_line(games: u64, secs: f64) -> String {
    let rate = games as f64 / secs.max(1e-9);
    if rate >= 1e6 {
        format!("{:.2}M games/s", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}K games/s", rate / 1e3)
    } else {
        format!("{rate:.0} games/s")
    }
}

/// Parses the command line and runs it.
pub fn main_with(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Flip7(args) => crate::games::flip7::run(&args),
        Command::FlipFlush(args) => crate::games::flip_flush::run(&args),
        Command::Tournament(game) => crate::tournament::cli::tournament(&game),
        Command::Sweep(game) => crate::tournament::cli::sweep(&game),
    }
}
