//! The run every game shares (`sim GAME`): its options, the policies of
//! the seats, the output checked before any game is played, the games
//! (traced or not), then the CSV, the summary and the report line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use crate::engine::args::{format_count, parse_count, parse_seed, whole_in};
use crate::engine::columns::{run_csv_bytes, seat_table};
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::{Acc, Game};
use crate::engine::job::{Job, JobArgs, Leftovers, show_shard, stop_flag};
use crate::engine::observe::TraceFormat;
use crate::engine::output::{Output, file_label, ignore_closed_pipe, state_beside};
use crate::engine::runner::{self, Accumulator, RunConfig, Simulation, threads};
use crate::engine::show::{ShowArgs, plural, print, summary_failed, table_json, timing};
use crate::engine::strategies::{
    Library, cwd, describe_sources, resolve_policies, seat_policies, simulation_of,
};

/// Options shared by every simulation run.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Games to play: 5000, 250K, 10M, 2B or 1_000_000 (at most 100000B,
    /// 10^14).
    #[arg(long, default_value = "100K", value_parser = parse_count, allow_hyphen_values = true)]
    pub games: u64,

    /// Seed of the run (random when not given; always printed). The same seed
    /// gives the same results for any --threads.
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,

    /// Worker threads (default: all cores).
    #[arg(long, value_parser = whole_in::<u16>(1..=1024), allow_hyphen_values = true)]
    pub threads: Option<u16>,

    /// CSV destination; `-` writes it to stdout (the summary then goes to
    /// stderr). Default: a descriptive name in results/.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Print a play-by-play of every game to stdout (for a handful of
    /// games: at most 10K; runs on one thread, same results as without
    /// it; a reader that goes away, as `| head`, ends the trace, and the
    /// CSV is written all the same).
    #[arg(long, conflicts_with = "json")]
    pub trace: bool,

    /// How --trace writes: readable text, or JSON Lines (a first line
    /// describing the run, then one object per event: the game's number,
    /// the event's name and its fields).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TraceFormat::Text, requires = "trace")]
    pub trace_format: TraceFormat,

    /// Never show the progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// Do not write the short report.html a run whose seats play different
    /// policies writes beside its CSV (NAME.report.html for NAME.csv).
    #[arg(long)]
    pub no_report: bool,

    /// Shards, state files and resuming.
    #[command(flatten)]
    pub job: JobArgs,

    /// Text, JSON or no summary.
    #[command(flatten)]
    pub show: ShowArgs,
}

/// The most games `--trace` plays: a play-by-play is read by people (a
/// game of Flip 7 is about 40 lines), so ten thousand games are already
/// more than anyone reads.
pub const MAX_TRACE_GAMES: u64 = 10_000;

/// `sim GAME`: the policies, the game's table options and the run options.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs<O: Args> {
    /// Policy for every seat, or a comma-separated list with one per seat:
    /// specs, strategy names or .toml paths. (Each game sets its own help
    /// and default here.)
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub policy: Option<String>,

    /// Lists every policy spec form and every strategy (and where it comes
    /// from), then exits.
    #[arg(long)]
    pub list_policies: bool,

    /// A folder of strategy files (GAME-NAME.toml) that add to or override
    /// the built-in ones, ./strategies/ and $SIM_STRATEGIES.
    #[arg(long, value_name = "DIR")]
    pub strategies: Option<PathBuf>,

    /// The game's table options.
    #[command(flatten)]
    pub options: O,

    /// How many games, which seed, where the CSV goes.
    #[command(flatten)]
    pub run: RunArgs,
}

impl RunArgs {
    /// The runner settings, with the seed drawn now if none was given.
    pub fn config(&self) -> RunConfig {
        RunConfig {
            games: self.games,
            seed: self.seed.unwrap_or_else(rand::random),
            // A traced run plays on the calling thread alone.
            threads: if self.trace { 1 } else { threads(self.threads) },
            progress: !self.no_progress && !self.trace,
        }
    }

    /// Checks and opens the output before any game is played: options
    /// that do not go together are a wrong command line, a destination
    /// that cannot be written a failed run.
    pub fn prepare_output(&self, default: &Path) -> Result<Session, Failure> {
        let path = self.out.clone().unwrap_or_else(|| default.to_path_buf());
        let to_stdout = path.as_os_str() == "-";
        if to_stdout && self.trace {
            return Err(Failure::Usage(
                "--out - and --trace both write to stdout; give --out a file path".into(),
            ));
        }
        if to_stdout && self.show.json {
            return Err(Failure::Usage(
                "--out - and --json both write to stdout; give --out a file path".into(),
            ));
        }
        let output = Output::prepare(&path, "--out")?;
        let csv_on_stdout = matches!(output, Output::Stdout);
        // JSON Lines on stdout stay pure JSON: the summary goes to stderr.
        let json_trace = self.trace && self.trace_format == TraceFormat::Json;
        Ok(Session {
            output,
            summary_to_stderr: csv_on_stdout || json_trace,
            show: self.show,
            report: None,
        })
    }
}

/// An output destination being filled, and where the human summary goes.
pub struct Session {
    output: Output,
    summary_to_stderr: bool,
    show: ShowArgs,
    /// The short report.html beside the CSV, when the run writes one.
    report: Option<Output>,
}

impl Session {
    /// The path the CSV goes to (none for stdout).
    pub fn path(&self) -> Option<&Path> {
        self.output.path()
    }

    /// Where the short report.html goes, beside a CSV written to a file
    /// (`NAME.report.html` for `NAME.csv`); none for stdout or a device.
    pub fn report_beside(&self) -> Option<PathBuf> {
        match &self.output {
            Output::File { path, .. } => {
                let name = path.file_name()?.to_string_lossy();
                let stem = name.strip_suffix(".csv").unwrap_or(&name);
                Some(path.with_file_name(format!("{stem}.report.html")))
            }
            _ => None,
        }
    }

    /// Checks the report's destination (before any game is played).
    pub fn prepare_report(&mut self, path: &Path) -> Result<(), String> {
        self.report = Some(Output::prepare(path, "--out (its report.html)")?);
        Ok(())
    }

    /// Writes the CSV, settles the run's leftover state files, then shows
    /// the summary and where the CSV went: on stdout, or on stderr when
    /// stdout carries the CSV itself or a JSON trace. A closed stdout
    /// (`| head`) is not an error.
    pub fn finish(
        self,
        csv: &[u8],
        report: Option<Vec<u8>>,
        mut summary: Vec<u8>,
        json: serde_json::Value,
        leftovers: Leftovers,
    ) -> Result<(), String> {
        let to_stderr = self.summary_to_stderr;
        // The CSV and its report: both or neither.
        let mut items = vec![(self.output, csv)];
        if let (Some(out), Some(bytes)) = (self.report, report.as_deref()) {
            items.push((out, bytes));
        }
        let mut written = crate::engine::output::commit_all(items)?.into_iter();
        let csv_path = written.next().flatten();
        let report_path = written.next().flatten();
        if let Some(path) = &csv_path {
            let _ = writeln!(summary, "CSV: {}", path.display());
        }
        if let Some(path) = &report_path {
            let _ = writeln!(summary, "report: {}", path.display());
        }
        leftovers.settle(&mut summary);
        let files: Vec<PathBuf> = csv_path.into_iter().chain(report_path).collect();
        if to_stderr && !self.show.quiet {
            ignore_closed_pipe(std::io::stderr().write_all(&summary))
                .map_err(|e| summary_failed(&format!("cannot write to stderr: {e}"), &files))
        } else {
            self.show.show(&summary, json, &files)
        }
    }
}

/// One seat of a plain run, for its page.
pub struct Seat {
    /// The seat's label (its policy as the user named it).
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
}

/// What a plain run's page shows ([`crate::report::run_page`]): the run's
/// results, as the CSV holds them.
pub struct RunPage {
    /// The game's name (`flip7`).
    pub game: &'static str,
    /// Players at the table.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// The seats, in seat order.
    pub seats: Vec<Seat>,
    /// The CSV's header, without the run columns.
    pub header: Vec<String>,
    /// The CSV's rows, without the run columns.
    pub rows: Vec<Vec<String>>,
    /// The command line.
    pub command: String,
    /// When the run was made.
    pub date: String,
    /// The `sim` that ran it.
    pub version: &'static str,
    /// The CSV's file name, beside the page.
    pub csv: String,
}

/// A whole run played and summed up: what is left is to write its files
/// ([`Finished::write`]), with the page the report layer makes from
/// [`Finished::page`].
pub struct Finished {
    session: Session,
    csv: Vec<u8>,
    summary: Vec<u8>,
    json: serde_json::Value,
    leftovers: Leftovers,
    /// The page's contents, when the run writes a page.
    pub page: Option<RunPage>,
}

impl Finished {
    /// Writes the CSV and `page` (the page's bytes, when [`Finished::page`]
    /// asked for one), settles the state files and shows the summary.
    pub fn write(self, page: Option<Vec<u8>>) -> Result<(), Failure> {
        Ok(self
            .session
            .finish(&self.csv, page, self.summary, self.json, self.leftovers)?)
    }
}

/// `sim GAME`: lists the policies, or plays the run. A run that wrote
/// everything it had to (a list, a shard's state) gives `None`; a whole
/// run gives its results, to be written once its page is made.
pub fn play<G: Game>(args: &PlayArgs<G::Options>) -> Result<Option<Finished>, Failure> {
    let library = Library::new(&cwd()?, args.strategies.as_deref()).usage()?;
    if args.list_policies {
        print(list_policies::<G>(&library).as_bytes())?;
        return Ok(None);
    }
    let text = args.policy.as_deref().unwrap_or(G::DEFAULT_POLICY);
    let resolved = resolve_policies::<G>(text, &library, "--policy").usage()?;
    let opts = &args.options;
    let players = G::players(opts);
    let chosen: Vec<G::Policy> = resolved.iter().map(|r| r.policy.clone()).collect();
    let seats = seat_policies(&chosen, players).usage()?;
    let labels: Vec<String> = resolved.iter().map(|r| r.label.clone()).collect();
    let names = seat_policies(&labels, players).usage()?;
    let given: Vec<(String, &G::Policy)> = resolved
        .iter()
        .map(|r| (format!("--policy '{}'", r.label), &r.policy))
        .collect();
    let sim = simulation_of::<G>(opts, &seats, &given).usage()?;
    let specs: Vec<String> = seat_policies(
        &resolved.iter().map(|r| r.policy.to_string()).collect::<Vec<_>>(),
        players,
    )
    .usage()?;
    let lineup = Lineup {
        names: &names,
        specs: &specs,
    };
    execute::<G>(&sim, opts, &args.run, &lineup, |summary| {
        describe_sources(&resolved, summary)
    })
}

/// Who sits where: `names[s]` labels seat `s` and `specs[s]` is the policy
/// it stands for.
pub struct Lineup<'a> {
    /// The seats' labels.
    pub names: &'a [String],
    /// The seats' policies, as specs.
    pub specs: &'a [String],
}

/// The run of `sim GAME` once the seats are known: check the output first,
/// play the games (with the trace if asked), then sum up the CSV and the
/// summary; `sources` adds what the names stand for to the summary. A
/// shard (`--shard`) writes its state file instead, and gives `None`.
pub fn execute<G: Game>(
    sim: &G::Sim,
    opts: &G::Options,
    args: &RunArgs,
    lineup: &Lineup<'_>,
    sources: impl FnOnce(&mut Vec<u8>),
) -> Result<Option<Finished>, Failure> {
    let mut plan = plan::<G>(opts, args, lineup)?;
    let start = Instant::now();
    let played = if args.trace {
        play_traced::<G>(sim, args, &plan)?
    } else {
        match play_job::<G>(sim, args, &mut plan)? {
            Some(played) => played,
            None => return Ok(None),
        }
    };
    let secs = start.elapsed().as_secs_f64();
    Ok(Some(sum_up::<G>(opts, lineup, plan, played, secs, sources)?))
}

/// What a run is, worked out and checked before any game is played.
struct Plan {
    cfg: RunConfig,
    players: usize,
    variants: Vec<crate::engine::game::Variant>,
    default_name: PathBuf,
    /// The CSV's destination (none for a shard, which writes its state).
    out: Option<Session>,
    /// The time the page records, when the run writes a page.
    report_date: Option<i64>,
    /// What the run is, for the JSON trace's first line and the state.
    run_fields: serde_json::Map<String, serde_json::Value>,
}

/// The games played, and what the run's summary says of them.
struct Played<A> {
    acc: A,
    note: Option<String>,
    played: u64,
    command: String,
    leftovers: Leftovers,
}

/// Reads the run's options: its file names, the checks of options that do
/// not go together, and every output destination, checked now.
fn plan<G: Game>(opts: &G::Options, args: &RunArgs, lineup: &Lineup<'_>) -> Result<Plan, Failure> {
    let cfg = args.config();
    let players = G::players(opts);
    let variants = G::variants(opts);
    let mut parts = vec![
        G::NAME.to_string(),
        file_label(lineup.names),
        format!("{players}p"),
        format_count(cfg.games),
    ];
    parts.extend(variants.iter().map(|v| v.file.clone()));
    parts.push(format!("seed{}", cfg.seed));
    let default_name = PathBuf::from("results").join(format!("{}.csv", parts.join("_")));
    check_trace(args, cfg.games)?;
    // A shard writes only its state file.
    let mut out = if args.job.shard.is_none() {
        Some(args.prepare_output(&default_name)?)
    } else {
        None
    };
    let report_date = prepare_page(args, lineup, out.as_mut())?;
    let run_fields = run_fields::<G>(opts, lineup, &variants, &cfg)?;
    Ok(Plan {
        cfg,
        players,
        variants,
        default_name,
        out,
        report_date,
        run_fields,
    })
}

/// Refuses a `--trace` of too many games, or with the options of a job.
fn check_trace(args: &RunArgs, games: u64) -> Result<(), Failure> {
    if !args.trace {
        return Ok(());
    }
    if games > MAX_TRACE_GAMES {
        return Err(Failure::Usage(format!(
            "--trace writes out every game, for a handful of them: it takes --games {} at most, \
             given --games {}; trace fewer games, or leave out --trace",
            format_count(MAX_TRACE_GAMES),
            format_count(games)
        )));
    }
    let job = &args.job;
    if job.shard.is_some() || job.state.is_some() || !job.resume.is_empty() || job.checkpoint.is_some() {
        return Err(Failure::Usage(
            "--trace plays a handful of games on one thread: it does not go with --shard, --state, \
             --resume or --checkpoint"
                .into(),
        ));
    }
    Ok(())
}

/// Seats with different policies get a short report.html beside the CSV
/// (one policy in every seat: the seats differ by their place alone, and
/// the CSV says all there is). Its destination and its date are checked
/// now; gives the date when there is a page.
fn prepare_page(
    args: &RunArgs,
    lineup: &Lineup<'_>,
    out: Option<&mut Session>,
) -> Result<Option<i64>, Failure> {
    let specs = lineup.specs;
    let distinct = specs.iter().any(|s| s != &specs[0]);
    let Some(session) = out.filter(|_| distinct && !args.no_report) else {
        return Ok(None);
    };
    let Some(path) = session.report_beside() else {
        return Ok(None);
    };
    let date = crate::engine::version::workbook_time()
        .map_err(|e| Failure::Usage(e.replace("--xlsx workbook", "report.html")))?;
    session.prepare_report(&path)?;
    Ok(Some(date))
}

/// What the run is: the JSON trace's first line and the state file's
/// definition both say it. `table` holds every table option (defaults
/// included), so that a trace can be replayed from its lines alone;
/// `variants` only those that differ from the default, as file names show
/// them.
fn run_fields<G: Game>(
    opts: &G::Options,
    lineup: &Lineup<'_>,
    variants: &[crate::engine::game::Variant],
    cfg: &RunConfig,
) -> Result<serde_json::Map<String, serde_json::Value>, Failure> {
    let table =
        serde_json::to_value(opts).map_err(|e| Failure::Run(format!("internal: the table options: {e}")))?;
    let fields = serde_json::json!({
        "players": G::players(opts),
        "seats": lineup.names,
        "policies": lineup.specs,
        "variants": variants.iter().map(|v| v.file.clone()).collect::<Vec<_>>(),
        "table": table,
        "games": cfg.games,
        "seed": cfg.seed.to_string(),
    });
    let serde_json::Value::Object(fields) = fields else {
        unreachable!("a JSON object")
    };
    Ok(fields)
}

/// The command line the report shows for a run of this process: its own,
/// with its seed.
fn this_command(seed: u64) -> String {
    let mut words = crate::engine::job::run_command();
    if !words.iter().any(|a| a == "--seed" || a.starts_with("--seed=")) {
        words.push("--seed".into());
        words.push(seed.to_string());
    }
    crate::engine::job::command_line(&words)
}

/// Plays the run on the calling thread with its play-by-play on stdout.
/// A reader that goes away (`| head`) ends the trace, not the run: the
/// rest is played untraced and the CSV written.
fn play_traced<G: Game>(sim: &G::Sim, args: &RunArgs, plan: &Plan) -> Result<Played<Acc<G>>, Failure> {
    let mut stdout = std::io::stdout().lock();
    if args.trace_format == TraceFormat::Json {
        // The first line says which run the events are of.
        let mut head = serde_json::json!({ "event": "run", "command": G::NAME });
        head.as_object_mut().unwrap().extend(plan.run_fields.clone());
        head.as_object_mut().unwrap().extend(G::run_notes(sim));
        head["sim_version"] = crate::engine::version::SIM_VERSION.into();
        match writeln!(stdout, "{head}") {
            // The reader has gone already: the games are played all the same.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => return Err(Failure::Run(format!("cannot write the trace: {e}"))),
            Ok(()) => {}
        }
    }
    let acc = runner::run_traced(sim, &plan.cfg, args.trace_format, &mut stdout)?;
    Ok(Played {
        acc,
        note: None,
        played: plan.cfg.games,
        command: this_command(plan.cfg.seed),
        leftovers: Leftovers::default(),
    })
}

/// Plays the run's batches as a job (shards, interrupts, resume); `None`
/// once a shard has written its state and said so.
fn play_job<G: Game>(
    sim: &G::Sim,
    args: &RunArgs,
    plan: &mut Plan,
) -> Result<Option<Played<Acc<G>>>, Failure> {
    let cfg = &plan.cfg;
    let mut definition = serde_json::json!({ "command": "sim GAME", "game": G::NAME });
    definition
        .as_object_mut()
        .unwrap()
        .extend(std::mem::take(&mut plan.run_fields));
    let batches = runner::batch_count(cfg.games);
    let state_default = match args.out.as_deref() {
        Some(p) if p.as_os_str() != "-" => state_beside(p),
        _ => state_beside(&plan.default_name),
    };
    let mut job: Job<Acc<G>> = Job::start(
        &args.job,
        definition,
        batches,
        &state_default,
        sim.new_acc(),
        |a, b| a.merge(b),
    )?;
    let out = plan.out.as_ref();
    let csv = out
        .and_then(Session::path)
        .map(|p| ("--out".to_string(), p.to_path_buf()));
    let report = out
        .filter(|_| plan.report_date.is_some())
        .and_then(Session::report_beside)
        .map(|p| ("--out (its report.html)".to_string(), p));
    job.check_outputs(csv.into_iter().chain(report).collect())?;
    let pb = runner::progress_bar(cfg.progress, job.games_todo(|r| runner::games_in(cfg.games, r)));
    let outcome = job.play(0..batches, &mut |ranges| {
        runner::run_ranges(sim, cfg, ranges, &pb, stop_flag())
    });
    pb.finish_and_clear();
    outcome?;
    let note = job.resumed_note();
    let played = job.played_here(|r| runner::games_in(cfg.games, r));
    let command = job.command_line();
    match job.finish()? {
        crate::engine::job::Finished::Complete(acc, leftovers) => Ok(Some(Played {
            acc,
            note,
            played,
            command,
            leftovers,
        })),
        crate::engine::job::Finished::Shard(message) => {
            show_shard(message, G::NAME, &args.job, &args.show)?;
            Ok(None)
        }
    }
}

/// The summary (composed in memory: writing to a Vec cannot fail, and it
/// is shown after the CSV is safely written), the CSV's bytes, the JSON
/// summary and what the page shows.
fn sum_up<G: Game>(
    opts: &G::Options,
    lineup: &Lineup<'_>,
    plan: Plan,
    played: Played<Acc<G>>,
    secs: f64,
    sources: impl FnOnce(&mut Vec<u8>),
) -> Result<Finished, Failure> {
    let Plan {
        cfg,
        players,
        variants,
        out,
        report_date,
        ..
    } = plan;
    let (cfg, players, variants) = (&cfg, &players, &variants);
    let acc = &played.acc;
    let mut summary = Vec::new();
    let mut describe = format!(
        "sim {}: {}, {}, seed {}",
        G::NAME,
        plural(*players as u64, "player"),
        plural(cfg.games, "game"),
        cfg.seed
    );
    for v in variants {
        describe.push_str(", ");
        describe.push_str(&v.words);
    }
    let _ = writeln!(
        summary,
        "{describe} ({})",
        timing(cfg.threads, played.played, secs)
    );
    if let Some(n) = &played.note {
        let _ = writeln!(summary, "{n}");
    }
    sources(&mut summary);
    G::summary(opts, acc, lineup.names, &mut summary);
    let (header, rows) = seat_table::<G>(opts, acc, lineup.names);
    let csv = run_csv_bytes(&header, &rows, cfg.seed)?;
    let json = serde_json::json!({
        "command": G::NAME,
        "players": players,
        "games": cfg.games,
        "seed": cfg.seed.to_string(),
        "threads": cfg.threads,
        "seconds": secs,
        "sim_version": crate::engine::version::SIM_VERSION,
        "variants": variants.iter().map(|v| v.file.clone()).collect::<Vec<_>>(),
        "seats": table_json(&header, &rows, &["policy"]),
    });
    let session = out.expect("a whole run has an output");
    let page = report_date.map(|time| {
        let csv_name = session.path().and_then(Path::file_name);
        let csv = csv_name
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        page_of::<G>(
            opts,
            acc,
            lineup,
            cfg.seed,
            (header, rows),
            played.command,
            time,
            csv,
        )
    });
    Ok(Finished {
        session,
        csv,
        summary,
        json,
        leftovers: played.leftovers,
        page,
    })
}

/// What the page of a run shows: its seats' wins and its CSV's `table`
/// (header and rows), the command line `command`, the date `time` and
/// the CSV's file name `csv`.
#[allow(clippy::too_many_arguments)]
fn page_of<G: Game>(
    opts: &G::Options,
    acc: &Acc<G>,
    lineup: &Lineup<'_>,
    seed: u64,
    table: (Vec<String>, Vec<Vec<String>>),
    command: String,
    time: i64,
    csv: String,
) -> RunPage {
    let (games, results) = G::seat_results(opts, acc);
    let seats = lineup.names.iter().zip(&results);
    RunPage {
        game: G::NAME,
        players: G::players(opts),
        games,
        seed,
        seats: seats
            .map(|(n, r)| Seat {
                name: n.clone(),
                games,
                wins: r.wins,
            })
            .collect(),
        header: table.0,
        rows: table.1,
        command,
        date: crate::engine::version::utc_text(time),
        version: crate::engine::version::SIM_VERSION,
        csv,
    }
}

/// What `sim GAME --list-policies` prints: every spec form, then every
/// strategy of the game in `library`, with where it comes from.
pub fn list_policies<G: Game>(library: &Library) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(G::POLICY_INTRO);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let found = library.list(G::NAME);
    let users = crate::engine::custom::listed(G::NAME);
    // The first column is as wide as the longest spec form or name.
    let width = G::CATALOGUE
        .iter()
        .flat_map(|(_, entries)| entries.iter().map(|e| e.spec.chars().count()))
        .chain(found.iter().map(|(name, _)| name.chars().count()))
        .chain(users.iter().map(|(form, _)| form.chars().count()))
        .max()
        .unwrap_or(0);
    for (title, entries) in G::CATALOGUE {
        let _ = writeln!(out, "\n{title}:");
        for e in *entries {
            let _ = writeln!(out, "  {:<width$}  {}", e.spec, e.does);
        }
    }
    if !users.is_empty() {
        let _ = writeln!(out, "\nUser policies (written in code, added by this program):");
        for (form, does) in &users {
            let _ = writeln!(out, "  {form:<width$}  {does}");
        }
        if let Some(decides) = crate::engine::custom::decides(G::NAME) {
            let _ = writeln!(out, "  (each is {decides})");
        }
    }
    let _ = writeln!(
        out,
        "\nStrategies (--policy NAME: strategies/{}-NAME.toml, built in or from a folder;\n\
         ./strategies/, $SIM_STRATEGIES and --strategies DIR add to or override them):",
        G::NAME
    );
    if found.is_empty() {
        let _ = writeln!(out, "  (none)");
    }
    for (name, file) in found {
        // A file whose policy is a list is a line-up (for tournaments).
        let checked = file.and_then(|s| match s.policy.contains(',') {
            true => Ok((format!("line-up: {}", s.policy), s)),
            false => G::parse_policy(&s.policy).map(|p| (p.to_string(), s)),
        });
        match checked {
            Ok((p, s)) => {
                let _ = writeln!(out, "  {name:<width$}  {p}");
                if !s.description.is_empty() {
                    let _ = writeln!(out, "  {:<width$}  {}", "", s.description);
                }
                let _ = writeln!(out, "  {:<width$}  ({})", "", s.origin);
            }
            Err(e) => {
                let _ = writeln!(out, "  {name:<width$}  (cannot be used: {e})");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn run_args(words: &[&str]) -> RunArgs {
        Cli::parse_from(std::iter::once("sim").chain(words.iter().copied())).run
    }

    #[test]
    fn a_trace_takes_a_handful_of_games_and_no_job() {
        assert!(check_trace(&run_args(&["--games", "20K"]), 20_000).is_ok());
        assert!(check_trace(&run_args(&["--trace", "--games", "3"]), 3).is_ok());
        let e = check_trace(&run_args(&["--trace", "--games", "20K"]), 20_000).unwrap_err();
        assert!(
            matches!(&e, Failure::Usage(m) if m.contains("--games 10K at most")),
            "{e:?}"
        );
        let e = check_trace(&run_args(&["--trace", "--checkpoint", "5"]), 3).unwrap_err();
        assert!(
            matches!(&e, Failure::Usage(m) if m.contains("does not go with --shard")),
            "{e:?}"
        );
    }

    #[test]
    fn one_policy_in_every_seat_or_no_report_has_no_page() {
        let names = ["a".to_string(), "b".to_string()];
        let same = ["x".to_string(), "x".to_string()];
        let lineup = Lineup {
            names: &names,
            specs: &same,
        };
        let args = run_args(&[]);
        let dir = tempfile::tempdir().unwrap();
        let mut session = args.prepare_output(&dir.path().join("r.csv")).unwrap();
        assert_eq!(prepare_page(&args, &lineup, Some(&mut session)).unwrap(), None);
        let differ = ["x".to_string(), "y".to_string()];
        let lineup = Lineup {
            names: &names,
            specs: &differ,
        };
        let quiet = run_args(&["--no-report"]);
        assert_eq!(prepare_page(&quiet, &lineup, Some(&mut session)).unwrap(), None);
        // A shard has no output, and so no page.
        assert_eq!(prepare_page(&args, &lineup, None).unwrap(), None);
        assert!(
            prepare_page(&args, &lineup, Some(&mut session))
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn the_command_of_a_run_carries_its_seed() {
        assert!(this_command(77).ends_with("--seed 77"), "{}", this_command(77));
    }
}
