//! Runs that outlive one process: shards (`--shard K/N --state PATH`),
//! interrupts (Ctrl-C, SIGTERM) that keep every finished batch, periodic
//! checkpoints (`--checkpoint SECONDS`), `--resume STATE`, and the
//! completeness check behind `sim merge`.
//!
//! A state file holds the run's command line ([`run_command`]: what the
//! run is, without the options that only say how one process takes part
//! in it, [`PROCESS_OPTIONS`]), so `sim GAME --resume STATE` needs nothing
//! else (the command line is rebuilt from the state in [`crate::cli`]).
//! Once a whole run has written its results, the state files it went on
//! from and the checkpoints it wrote are removed ([`Leftovers`]), unless
//! `--keep-state`; a shard's state file is the shard's result, the input
//! of `sim merge`, and is never removed.
//!
//! Every command (`sim GAME`, `sim tournament GAME`, `sim sweep GAME`)
//! plays numbered batches whose results are integer totals that add up in
//! any order. A [`Job`] keeps those totals (its tally) and the batch
//! ranges they cover; it plays what is asked of it minus what is already
//! done, and writes the two to a [state file](super::state) when the
//! process stops early or plays a shard. Merged or resumed, the tally is
//! exactly that of one uninterrupted run, so the files written are the
//! same bytes.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use super::failure::Failure;
use super::output::Output;
use super::show::{ShowArgs, plural};
use super::state::{self, State};

/// The options of every command that plays batches.
#[derive(Args, Debug, Clone, Default)]
pub struct JobArgs {
    /// Play only shard K of N of the run (K from 1 to N: the K-th of N
    /// consecutive shares of its batches) and write a state file to
    /// --state instead of the results; `sim merge` adds the shards up.
    /// Needs --seed and --state.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, requires_all = ["seed", "state"])]
    pub shard: Option<(u64, u64)>,

    /// Where the state file goes: a shard's result, or what an interrupted
    /// or checkpointed run has done so far (default for those: next to the
    /// output, named ...state.json; when resuming, the state resumed).
    #[arg(long, value_name = "PATH")]
    pub state: Option<PathBuf>,

    /// Go on with the run a state file was written for: the state holds
    /// its command line, so `sim GAME --resume STATE` needs no other
    /// option (any other given must match the state's). The files written
    /// are those an uninterrupted run writes; the state file is then
    /// removed (see --keep-state).
    #[arg(long, value_name = "STATE", action = clap::ArgAction::Append)]
    pub resume: Vec<PathBuf>,

    /// Keep the state files of a run once it has written its results (by
    /// default the states it resumed and the checkpoints it wrote are
    /// removed then; a shard's state file is always kept).
    #[arg(long)]
    pub keep_state: bool,

    /// Write the state file every SECONDS seconds while playing, so that a
    /// killed job can be resumed.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub checkpoint: Option<u64>,

    /// (Used by `sim merge`.) Every batch must come from the --resume
    /// states: refuse instead of playing the missing ones.
    #[arg(long, hide = true, requires = "resume")]
    pub merge_only: bool,
}

/// Parses `K/N` with 1 <= K <= N <= [`MAX_SHARDS`].
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || {
        format!(
            "expected K/N with 1 <= K <= N <= {MAX_SHARDS} (a run in at most a million shards), such as 2/8; got '{text}'"
        )
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n || n > MAX_SHARDS {
        return Err(bad());
    }
    Ok((k, n))
}

/// The most shards a run is cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Parses a positive number of seconds.
fn parse_seconds(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(s) if s > 0 => Ok(s),
        _ => Err(format!(
            "expected a whole number of seconds, at least 1; got '{text}'"
        )),
    }
}

/// Set by Ctrl-C or SIGTERM: finish the batches under way, play no more.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the process was asked to stop.
pub fn stopping() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The flag a player checks between batches.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Installs the Ctrl-C / SIGTERM handler once: the first signal asks the
/// run to stop after the batches under way, a second one ends the process
/// at once.
fn install_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\nstopping after the batches under way (again to quit at once) ...");
        });
    });
}

/// The options that say how one process takes part in a run rather than
/// what the run is (its argument id, its long name, whether it takes a
/// value): left out of the run's command line, given anew to each process
/// of the run (a resume, a shard, `sim merge`).
pub const PROCESS_OPTIONS: [(&str, &str, bool); 10] = [
    ("shard", "--shard", true),
    ("state", "--state", true),
    ("resume", "--resume", true),
    ("checkpoint", "--checkpoint", true),
    ("threads", "--threads", true),
    ("no_progress", "--no-progress", false),
    ("keep_state", "--keep-state", false),
    ("merge_only", "--merge-only", false),
    ("json", "--json", false),
    ("quiet", "--quiet", false),
];

/// The short forms of [`PROCESS_OPTIONS`].
const PROCESS_SHORT: [&str; 1] = ["-q"];

/// The command line after `sim`, without the [`PROCESS_OPTIONS`].
pub fn run_command() -> Vec<String> {
    run_words(std::env::args().skip(1))
}

/// `words` of a command line without the [`PROCESS_OPTIONS`] (and their
/// values).
pub fn run_words(words: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = words.into_iter();
    while let Some(a) = words.next() {
        let flag = a.split('=').next().unwrap_or("");
        match PROCESS_OPTIONS.iter().find(|(_, long, _)| *long == flag) {
            Some((_, _, true)) => {
                if !a.contains('=') {
                    words.next();
                }
            }
            Some((_, _, false)) => {}
            None if PROCESS_SHORT.contains(&a.as_str()) => {}
            None => out.push(a),
        }
    }
    out
}

/// A command line as a POSIX shell reads it: `sim` and `words`, each
/// quoted when it needs to be.
pub fn command_line(words: &[String]) -> String {
    let mut line = String::from("sim");
    for w in words {
        line.push(' ');
        line.push_str(&quote(w));
    }
    line
}

/// The words naming the command of a run's command line: `flip7`, or
/// `tournament flip7`, `sweep flip7`, `tune flip7`.
pub fn command_path(words: &[String]) -> &[String] {
    let n = match words.first().map(String::as_str) {
        Some("tournament" | "sweep" | "tune") => 2,
        _ => 1,
    };
    &words[..n.min(words.len())]
}

/// What plays batch ranges for a [`Job`]: their tally and the ranges it
/// did play.
pub type Player<'a, T> = dyn FnMut(&[Range<u64>]) -> Result<(T, Vec<Range<u64>>), String> + 'a;

/// A run's batches, played in this process or read from state files.
pub struct Job<T> {
    definition: Value,
    command: Vec<String>,
    batches: u64,
    shard: Option<(u64, u64)>,
    /// The batches this process may play (the shard's share, or all).
    share: Range<u64>,
    state_path: PathBuf,
    checkpoint: Option<Duration>,
    merge_only: bool,
    merge: fn(&mut T, &T),
    tally: T,
    done: Vec<Range<u64>>,
    /// The state files resumed from.
    resumed: Vec<PathBuf>,
    /// The batches they held.
    resumed_done: Vec<Range<u64>>,
    /// The states resumed that are of a whole run, not of a shard.
    resumed_whole: Vec<PathBuf>,
    /// Whether this process wrote its state file (a checkpoint).
    saved: std::cell::Cell<bool>,
    keep_state: bool,
    last_save: Instant,
}

/// How a job ended.
pub enum Finished<T> {
    /// Every batch of the run: write the results, then settle the
    /// leftover state files.
    Complete(T, Leftovers),
    /// A shard's share is done and its state written.
    Shard(String),
}

/// The state files a whole run leaves once its results are written: the
/// ones it resumed (not a shard's, which `sim merge` reads) and the
/// checkpoint it wrote. Removed by [`Leftovers::settle`] unless
/// `--keep-state`.
#[derive(Debug, Default)]
#[must_use = "the state files are removed only once the results are written"]
pub struct Leftovers {
    paths: Vec<PathBuf>,
    keep: bool,
}

impl Leftovers {
    /// After the results are written: removes the state files (or keeps
    /// them with `--keep-state`) and says so in `summary`. A file that
    /// cannot be removed is only a note: the results are written.
    pub fn settle(self, summary: &mut Vec<u8>) {
        use std::io::Write as _;
        let existing: Vec<&PathBuf> = self.paths.iter().filter(|p| p.is_file()).collect();
        if existing.is_empty() {
            return;
        }
        let list = |ps: &[&PathBuf]| {
            ps.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.keep {
            let _ = writeln!(summary, "state kept (--keep-state): {}", list(&existing));
            return;
        }
        let mut removed = Vec::new();
        for p in existing {
            match std::fs::remove_file(p) {
                Ok(()) => removed.push(p),
                Err(e) => {
                    let _ = writeln!(
                        summary,
                        "the run is complete, but its state file '{}' could not be removed: {e}",
                        p.display()
                    );
                }
            }
        }
        if !removed.is_empty() {
            let one = removed.len() == 1;
            let _ = writeln!(
                summary,
                "the run is complete: removed its state file{} {} (--keep-state keeps {})",
                if one { "" } else { "s" },
                list(&removed),
                if one { "it" } else { "them" }
            );
        }
    }
}

impl<T: Serialize + DeserializeOwned> Job<T> {
    /// A job of `batches` batches defined by `definition`, starting from
    /// `empty` and the states of `--resume`. `default_state` is where an
    /// interrupted run writes its state when `--state` is not given.
    /// Checks the state destination and every resumed state (same run, no
    /// batch twice) before anything is played.
    pub fn start(
        args: &JobArgs,
        definition: Value,
        batches: u64,
        default_state: &Path,
        empty: T,
        merge: fn(&mut T, &T),
    ) -> Result<Job<T>, Failure> {
        let mut definition = definition;
        definition["sim"] = super::version::SIM_VERSION.into();
        let state_path = state_path(args, default_state)?;
        let share = match args.shard {
            Some((k, n)) => state::share(k, n, batches),
            None => 0..batches,
        };
        let command = command_with_seed(&definition);
        let mut job = Job {
            definition,
            command,
            batches,
            shard: args.shard,
            share,
            state_path,
            checkpoint: args.checkpoint.map(Duration::from_secs),
            merge_only: args.merge_only,
            merge,
            tally: empty,
            done: Vec::new(),
            resumed: Vec::new(),
            resumed_done: Vec::new(),
            resumed_whole: Vec::new(),
            saved: std::cell::Cell::new(false),
            keep_state: args.keep_state,
            last_save: Instant::now(),
        };
        job.resume_all(args)?;
        job.check_finished_shard()?;
        job.check_coverage()?;
        install_handler();
        Ok(job)
    }

    /// Checks every state of `--resume` against the run and adds its
    /// batches and tally, in the order given; then the batches done are
    /// those the states held.
    fn resume_all(&mut self, args: &JobArgs) -> Result<(), Failure> {
        let mut owners = Owners::default();
        // The first state resumed: every other must be of the same part.
        let mut first_shard: Option<State> = None;
        for path in &args.resume {
            let s = State::read(path).map_err(Failure::Usage)?;
            self.check_same_run(path, &s)?;
            self.check_same_part(args, path, &s, first_shard.as_ref())?;
            if s.batches != self.batches {
                return Err(Failure::Usage(format!(
                    "state file '{}' is for {}, this run has {}",
                    path.display(),
                    plural(s.batches, "batch"),
                    self.batches
                )));
            }
            if self.shard.is_none() && !self.merge_only {
                // Resuming an interrupted shard goes on with its share.
                if let Some([k, n]) = s.shard {
                    self.shard = Some((k, n));
                    self.share = state::share(k, n, self.batches);
                }
            }
            owners.claim(path, &s)?;
            self.add_resumed(path, &s)?;
            if first_shard.is_none() {
                first_shard = Some(s);
            }
        }
        self.done = state::normalize(std::mem::take(&mut self.done));
        self.resumed_done = self.done.clone();
        Ok(())
    }

    /// Refuses the state `s` (read from `path`) when another sim wrote it
    /// or it is of another run (another definition).
    fn check_same_run(&self, path: &Path, s: &State) -> Result<(), Failure> {
        let shown = path.display();
        let (theirs, ours) = (&s.definition["sim"], &self.definition["sim"]);
        if theirs != ours {
            return Err(Failure::Usage(format!(
                "state file '{shown}' was written by sim {}; this is sim {}: finish its run with \
                 the sim that wrote it",
                theirs.as_str().unwrap_or("(unknown)"),
                ours.as_str().unwrap_or("(unknown)")
            )));
        }
        let diff = state::differences(&s.definition, &self.definition);
        if !diff.is_empty() {
            return Err(Failure::Usage(format!(
                "state file '{shown}' belongs to another run: {}",
                diff.join("; ")
            )));
        }
        Ok(())
    }

    /// Refuses the state `s` (read from `path`) when it is of another part
    /// of the run than `--shard` asks for, or (unless merging) than the
    /// first state resumed, `first`.
    fn check_same_part(
        &self,
        args: &JobArgs,
        path: &Path,
        s: &State,
        first: Option<&State>,
    ) -> Result<(), Failure> {
        let shown = path.display();
        if let Some((k, n)) = args.shard
            && s.shard != Some([k, n])
        {
            let finished = s
                .shard
                .is_some_and(|[k, n]| state::missing(&state::share(k, n, s.batches), &s.ranges()).is_empty());
            let advice = if finished {
                format!(
                    "it is finished: write the run's results with sim merge {shown} (and the other shards' states)"
                )
            } else {
                format!("go on with it with {} (it keeps its shard)", resume_line(path, s))
            };
            return Err(Failure::Usage(format!(
                "state file '{shown}' is of {}, not of shard {k}/{n} (--shard {k}/{n}): a state goes \
                 on only as what it was written for; {advice}; to play shard {k}/{n}, leave out --resume",
                part_name(s.shard)
            )));
        }
        if !self.merge_only
            && let Some((first, first_state)) = self.resumed.first().zip(first)
            && first_state.shard != s.shard
        {
            return Err(Failure::Usage(format!(
                "state files '{}' ({}) and '{shown}' ({}) are of different parts of the run: \
                 --resume goes on with one part; to add up the shards of a run, use sim merge {} {shown}",
                first.display(),
                part_name(first_state.shard),
                part_name(s.shard),
                first.display()
            )));
        }
        Ok(())
    }

    /// Adds the state `s` (read from `path`, checked): its tally and its
    /// batches, and the state to those resumed. The first one gives the
    /// run's command line.
    fn add_resumed(&mut self, path: &Path, s: &State) -> Result<(), Failure> {
        let t: T = serde_json::from_str(s.tally.get()).map_err(|e| tally_error::<T>(path, s, &e))?;
        (self.merge)(&mut self.tally, &t);
        self.done.extend(s.ranges());
        if self.resumed.is_empty() {
            // The run's own command line (this process may be `sim
            // merge`, or a resume with other options of its own).
            self.command = s.command.clone();
        }
        self.resumed.push(path.to_path_buf());
        if s.shard.is_none() {
            self.resumed_whole.push(path.to_path_buf());
        }
        Ok(())
    }

    /// Refuses to resume a finished shard: it has nothing left to play;
    /// resuming it would only write its state again, and the run's results
    /// come from merging.
    fn check_finished_shard(&self) -> Result<(), Failure> {
        if !self.merge_only
            && let (Some((k, n)), Some(first)) = (self.shard, self.resumed.first())
            && state::missing(&self.share, &self.done).is_empty()
        {
            let merge = if n == 1 {
                format!("sim merge {}", first.display())
            } else {
                format!(
                    "sim merge {} STATE... (with the state files of the other shards)",
                    first.display()
                )
            };
            return Err(Failure::Usage(format!(
                "state file '{}' is of shard {k}/{n}, which is finished: nothing is left to play; \
                 write the run's results with {merge}",
                first.display()
            )));
        }
        Ok(())
    }

    /// For `sim merge` (`--merge-only`): refuses states that do not hold
    /// every batch of the run.
    fn check_coverage(&self) -> Result<(), Failure> {
        if self.merge_only {
            let batches = self.batches;
            let missing = state::missing(&(0..batches), &self.done);
            if let Some(whole) = self.resumed_whole.first().filter(|_| !missing.is_empty()) {
                let mut resume = command_path(&self.command).to_vec();
                resume.extend(["--resume".to_string(), whole.display().to_string()]);
                return Err(Failure::Usage(format!(
                    "state file '{}' is of a whole run that was interrupted, not of a shard: sim merge \
                     adds up the states of a run's shards; to go on with the run: {}",
                    whole.display(),
                    command_line(&resume)
                )));
            }
            if !missing.is_empty() {
                let list: Vec<String> = missing.iter().take(5).map(state::describe).collect();
                let more = if missing.len() > 5 { ", ..." } else { "" };
                return Err(Failure::Usage(format!(
                    "the states given do not cover the run: {}{more} of {batches} are missing \
                     (a shard not given, or not finished)",
                    list.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// The batches of `range` this process still has to play (within its
    /// share, not yet done).
    pub fn todo(&self, range: Range<u64>) -> Vec<Range<u64>> {
        let r = range.start.max(self.share.start)..range.end.min(self.share.end);
        if r.start >= r.end {
            return Vec::new();
        }
        state::missing(&r, &self.done)
    }

    /// The tally so far.
    pub fn tally(&self) -> &T {
        &self.tally
    }

    /// The games (as `size` counts a range of batches) this process has
    /// still to play of its share: what its progress bar counts. The work
    /// is that of the ranges, not of the batches in them (a run of 10^11
    /// batches is counted at once).
    pub fn games_todo(&self, size: impl Fn(Range<u64>) -> u64) -> u64 {
        self.todo(0..self.batches).into_iter().map(size).sum()
    }

    /// How many of the games (as `size` counts a range of batches) this
    /// process played rather than read from state files.
    pub fn played_here(&self, size: impl Fn(Range<u64>) -> u64) -> u64 {
        let count = |rs: &[Range<u64>]| -> u64 { rs.iter().cloned().map(&size).sum() };
        count(&self.done) - count(&self.resumed_done)
    }

    /// Whether any batch at or after `batch` is done (a resumed run that
    /// had got further).
    pub fn done_beyond(&self, batch: u64) -> bool {
        self.done.last().is_some_and(|r| r.end > batch)
    }

    /// The tally of a run that ends before its last batch on purpose
    /// (`--until-ci`), and the state files to settle once its results
    /// are written.
    pub fn into_tally(self) -> (T, Leftovers) {
        let leftovers = self.leftovers();
        (self.tally, leftovers)
    }

    /// The state files this job reads (`--resume`) or may write (its
    /// state file: a shard's, a checkpoint, an interrupted run's), each
    /// with the option that names it, for [`check_distinct`]: no output
    /// of the run may be one of them.
    ///
    /// [`check_distinct`]: super::output::check_distinct
    pub fn state_files(&self) -> Vec<(String, PathBuf)> {
        let mut all = Vec::new();
        if !self.merge_only {
            let what = if self.resumed.first() == Some(&self.state_path) {
                "--resume"
            } else {
                "--state"
            };
            all.push((what.to_string(), self.state_path.clone()));
        }
        for p in &self.resumed {
            if self.merge_only || p != &self.state_path {
                all.push(("--resume".to_string(), p.clone()));
            }
        }
        all
    }

    /// Refuses a run one of whose `outputs` (what names each, and its
    /// path) is one of its state files, before anything is played.
    pub fn check_outputs(&self, outputs: Vec<(String, PathBuf)>) -> Result<(), Failure> {
        let mut all = outputs;
        all.extend(self.state_files());
        super::output::check_distinct(&all).map_err(Failure::Usage)
    }

    /// The run's command line, as `sim ...` (the state's when resumed).
    pub fn command_line(&self) -> String {
        command_line(&self.command)
    }

    /// The state files of a whole run to remove once its results are
    /// written: those resumed that are not a shard's, and this process's
    /// own checkpoint.
    fn leftovers(&self) -> Leftovers {
        let mut paths = Vec::new();
        if !self.merge_only {
            paths.extend(self.resumed_whole.iter().cloned());
        }
        if self.saved.get() && !paths.contains(&self.state_path) {
            paths.push(self.state_path.clone());
        }
        Leftovers {
            paths,
            keep: self.keep_state,
        }
    }

    /// Plays the batches of `range` not yet done: `play(ranges)` plays
    /// them (skipping any once [`stop_flag`] is set) and returns their
    /// tally and the ranges it did play. With `--checkpoint` they are
    /// played in pieces and the state written between them when due. On an
    /// interrupt, writes the state and fails with exit code 130.
    pub fn play(&mut self, range: Range<u64>, play: &mut Player<'_, T>) -> Result<(), Failure> {
        let todo = self.todo(range);
        if self.checkpoint.is_none() {
            self.play_piece(&todo, play)?;
        } else {
            // Pieces of 64 batches, made one at a time (a list of them all
            // would grow with the batches of the run).
            for r in todo {
                let mut a = r.start;
                while a < r.end {
                    let b = a.saturating_add(64).min(r.end);
                    self.play_piece(std::slice::from_ref(&(a..b)), play)?;
                    a = b;
                }
            }
        }
        if stopping() {
            return Err(self.interrupted());
        }
        Ok(())
    }

    /// Plays the batches of `piece` and adds them to the tally; fails once
    /// the process is asked to stop, and writes a checkpoint when due.
    fn play_piece(&mut self, piece: &[Range<u64>], play: &mut Player<'_, T>) -> Result<(), Failure> {
        if piece.is_empty() {
            return Ok(());
        }
        let (t, played) = play(piece)?;
        (self.merge)(&mut self.tally, &t);
        self.done.extend(played);
        self.done = state::normalize(std::mem::take(&mut self.done));
        if stopping() {
            return Err(self.interrupted());
        }
        if let Some(every) = self.checkpoint
            && self.last_save.elapsed() >= every
        {
            self.save()?;
            self.last_save = Instant::now();
        }
        Ok(())
    }

    /// Writes the state file (atomically: complete or absent).
    fn save(&self) -> Result<(), String> {
        let tally =
            serde_json::to_string(&self.tally).map_err(|e| format!("cannot encode the tally: {e}"))?;
        let s = State {
            format: state::FORMAT.into(),
            version: state::VERSION,
            definition: self.definition.clone(),
            command: self.command.clone(),
            batches: self.batches,
            shard: self.shard.map(|(k, n)| [k, n]),
            done: self.done.iter().map(|r| [r.start, r.end]).collect(),
            tally: RawValue::from_string(tally).map_err(|e| e.to_string())?,
            checksum: String::new(),
        };
        Output::prepare(&self.state_path, "--state")?.commit(&s.to_bytes()?)?;
        self.saved.set(true);
        Ok(())
    }

    /// The failure of an interrupted run, after writing its state: exit
    /// code 130 when the state is kept, a failed run (1) when it could
    /// not be written (what was played since the last checkpoint, if
    /// any, is lost then).
    fn interrupted(&self) -> Failure {
        let shown = self.state_path.display();
        if let Err(e) = self.save() {
            return Failure::Run(format!("interrupted; the state could not be written: {e}"));
        }
        let mut resume = command_path(&self.command).to_vec();
        resume.push("--resume".into());
        resume.push(shown.to_string());
        let mine = self.share.end - self.share.start;
        let left: u64 = state::missing(&self.share, &self.done)
            .iter()
            .map(|r| r.end - r.start)
            .sum();
        let done = mine - left;
        Failure::Interrupted(format!(
            "interrupted after {done} of {}; their results are in '{shown}'. \
             To go on from there (the state holds the rest of the command):\n  {}",
            plural(mine, "batch"),
            command_line(&resume)
        ))
    }

    /// Ends the job: a shard writes its state and says so; a whole run
    /// returns its tally (every batch must be done).
    pub fn finish(self) -> Result<Finished<T>, Failure> {
        if let Some((k, n)) = self.shard {
            let left = state::missing(&self.share, &self.done);
            if let Some(r) = left.first() {
                return Err(Failure::Run(format!(
                    "internal: shard {k}/{n} left {} unplayed",
                    state::describe(r)
                )));
            }
            self.save()?;
            let share = &self.share;
            let what = if share.is_empty() {
                format!("no batches (the run has only {})", self.batches)
            } else {
                format!("{} of {}", state::describe(share), self.batches)
            };
            return Ok(Finished::Shard(format!(
                "shard {k}/{n}: {what}; state written to {}\nwhen every shard is done: sim merge STATE...",
                self.state_path.display()
            )));
        }
        let left = state::missing(&(0..self.batches), &self.done);
        if let Some(r) = left.first() {
            return Err(Failure::Run(format!(
                "internal: the run left {} unplayed",
                state::describe(r)
            )));
        }
        let leftovers = self.leftovers();
        Ok(Finished::Complete(self.tally, leftovers))
    }

    /// A note for the summary when states were resumed or merged.
    pub fn resumed_note(&self) -> Option<String> {
        if self.resumed.is_empty() {
            return None;
        }
        let files: Vec<String> = self.resumed.iter().map(|p| p.display().to_string()).collect();
        Some(format!(
            "{} {} state file{}: {}",
            if self.merge_only {
                "merged from"
            } else {
                "resumed from"
            },
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            files.join(", ")
        ))
    }
}

/// Where the job's state file goes: `--state`, else the state resumed
/// (a resumed run goes on writing to it; not `sim merge`, which writes no
/// state), else `default_state`. Checked now when a state will be written
/// (a shard, `--checkpoint`, `--state`).
fn state_path(args: &JobArgs, default_state: &Path) -> Result<PathBuf, Failure> {
    let resumed_path = args.resume.first().filter(|_| !args.merge_only);
    let state_path = args
        .state
        .clone()
        .or_else(|| resumed_path.cloned())
        .unwrap_or_else(|| default_state.to_path_buf());
    if args.shard.is_some() || args.checkpoint.is_some() || args.state.is_some() {
        // Checked now, written later (and again, atomically, each time).
        drop(Output::prepare(&state_path, "--state").map_err(Failure::Run)?);
    }
    Ok(state_path)
}

/// The run's command line ([`run_command`]), with the seed of
/// `definition` added when none was given (a seed drawn at random: the
/// rest of the run needs it).
fn command_with_seed(definition: &Value) -> Vec<String> {
    let mut command = run_command();
    if !command.iter().any(|a| a == "--seed" || a.starts_with("--seed=")) {
        command.push("--seed".into());
        let seed = &definition["seed"];
        command.push(seed.as_str().map_or_else(|| seed.to_string(), String::from));
    }
    command
}

/// The start of the message of a tally's deserializer that finds the
/// tally not consistent in itself ([`inconsistent`]).
const INCONSISTENT: &str = "tally not consistent: ";

/// The error a tally's deserializer gives when the tally, read whole, is
/// not consistent in itself (more wins than games, counts that do not add
/// up): `what` says what is wrong and ends with the field, in
/// parentheses, as `seat 2 has 700 wins in 500 games (seats[2].wins)`.
/// Every tally a state holds is read so, and checked, before it is used.
pub fn inconsistent<E: serde::de::Error>(what: &str) -> E {
    E::custom(format!("{INCONSISTENT}{what}"))
}

/// The refusal of the state `s` (read from `path`) whose tally `T` cannot
/// read (`e`): damaged, or not consistent in itself, naming the field
/// from the top of the tally (`tally.seats[2].wins`, or `tally[3]...` in
/// a list of tallies, one per value of a sweep).
fn tally_error<T: DeserializeOwned>(path: &Path, s: &State, e: &serde_json::Error) -> Failure {
    let shown = path.display();
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    let Some(what) = text.strip_suffix(&at).unwrap_or(&text).strip_prefix(INCONSISTENT) else {
        return Failure::Usage(format!("state file '{shown}' is damaged: {e}"));
    };
    // In a list of tallies, the one that is not consistent.
    let raw = s.tally.get();
    let item = serde_json::from_str::<Vec<&RawValue>>(raw)
        .ok()
        .and_then(|items| {
            items
                .iter()
                .position(|i| serde_json::from_str::<T>(&format!("[{}]", i.get())).is_err())
        })
        .map_or(String::new(), |i| format!("[{i}]"));
    let what = match what.rfind(" (") {
        Some(i) => format!("{} (tally{item}.{}", &what[..i], &what[i + 2..]),
        None => what.to_string(),
    };
    Failure::Usage(format!(
        "state file '{shown}' is not consistent: {what}; it was edited or damaged: {}",
        s.remedy()
    ))
}

/// The batch ranges of the states resumed so far, each with the state
/// file it came from: no batch may come from two states.
#[derive(Default)]
struct Owners(Vec<(Range<u64>, PathBuf)>);

impl Owners {
    /// Takes the batches of the state `s` (read from `path`), or refuses
    /// it when a state already taken (it too, given twice) holds one of
    /// them.
    fn claim(&mut self, path: &Path, s: &State) -> Result<(), Failure> {
        for r in s.ranges() {
            if let Some((other, p)) = self.0.iter().find(|(o, _)| o.start < r.end && r.start < o.end) {
                let both = other.start.max(r.start)..other.end.min(r.end);
                let which = if p == path {
                    format!("'{}' (given twice)", path.display())
                } else {
                    format!("'{}' and '{}'", p.display(), path.display())
                };
                return Err(Failure::Usage(format!(
                    "{} of the run are in both {which}: a shard given twice, or states of \
                     overlapping runs",
                    state::describe(&both)
                )));
            }
            self.0.push((r, path.to_path_buf()));
        }
        Ok(())
    }
}

/// The part of a run a state is of: `a whole run` or `shard K/N`.
fn part_name(shard: Option<[u64; 2]>) -> String {
    shard.map_or("a whole run".to_string(), |[k, n]| format!("shard {k}/{n}"))
}

/// The command line that goes on with the state `st` at `p`: `sim
/// COMMAND --resume P`.
fn resume_line(p: &Path, st: &State) -> String {
    let mut words = command_path(&st.command).to_vec();
    words.extend(["--resume".to_string(), p.display().to_string()]);
    command_line(&words)
}

/// Shows what a finished shard says (`message`), as text or, with
/// `--json`, as `{"command": COMMAND, "shard": true, "files": [STATE]}`.
pub fn show_shard(message: String, command: &str, args: &JobArgs, show: &ShowArgs) -> Result<(), Failure> {
    let mut text = message.into_bytes();
    text.push(b'\n');
    let json = serde_json::json!({"command": command, "shard": true});
    let state: Vec<PathBuf> = args.state.iter().cloned().collect();
    Ok(show.show(&text, json, &state)?)
}

/// `text` quoted for a POSIX shell when it needs to be.
fn quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:,=+@%".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
