//! The game-agnostic Monte Carlo runner.
//!
//! A run of `games` games is cut into batches of [`BATCH_GAMES`] games (the
//! last one shorter). Batch `b` plays with its own generator
//! [`batch_rng`]`(seed, b)` and fills its own accumulator; accumulators hold
//! only integers, so merging them gives the same totals in any order. The
//! result therefore depends on the seed and the number of games only, never
//! on `--threads`.

use std::io::{IsTerminal, Write};

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::observe::{Observed, Observer, Silent, TraceFormat, TraceWriter};
use super::rng::{SimRng, batch_rng, game_rng, next_game_seed, seeded_game_rng};

/// Games per batch. Part of the definition of a run: changing it changes
/// which generator plays which game, so it is fixed, not a setting.
pub const BATCH_GAMES: u64 = 1024;

/// Integer statistics that can be merged.
/// Integer totals only: an accumulator is what a shard's state file holds
/// (serialized as JSON) and what `sim merge` adds up, so it must come back
/// exactly as it was written.
pub trait Accumulator: Send + serde::Serialize + serde::de::DeserializeOwned {
    /// Adds `other` into `self`. Must be associative and commutative
    /// (integer sums and counts are).
    fn merge(&mut self, other: &Self);

    /// Whether the totals are consistent in themselves (no more wins than
    /// games, counts that add up): what is wrong, ending with the field in
    /// parentheses (`seat 2 has 700 wins in 500 games (seats[2].wins)`),
    /// otherwise. A game's accumulator read from a state file is checked
    /// so before it is used (its deserializer asks it, through
    /// [`super::job::inconsistent`]). Nothing to check by default.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A game (with its fixed seats and options) that the runner can play.
pub trait Simulation: Sync {
    /// What one batch accumulates.
    type Acc: Accumulator;

    /// An empty accumulator.
    fn new_acc(&self) -> Self::Acc;

    /// Plays `games` games in order with `rng`, adding to `acc`. When `trace`
    /// is given, a play-by-play of every game is written to it by the same
    /// code that feeds `acc` (the writer numbers the games).
    fn play_batch(
        &self,
        rng: &mut SimRng,
        games: u64,
        acc: &mut Self::Acc,
        trace: Option<&mut TraceWriter<'_>>,
    );

    /// Plays exactly the games of [`Simulation::play_batch`] (the same
    /// deals, in the same order, with the same draws), calling `each` after
    /// every game with the statistics of that game alone. Tournaments use
    /// it to group the games that share a deal.
    fn play_each(&self, rng: &mut SimRng, games: u64, each: &mut dyn FnMut(&Self::Acc));
}

/// One game at a table, again and again: what a game's batch loop plays
/// ([`play_games`]).
pub trait PlaysGames<T: Observed> {
    /// Plays one game with its own generator `rng`, telling `obs`.
    fn play_one<O: Observer<T>>(&mut self, rng: &mut SimRng, obs: &mut O);
}

/// A game's simulation of the common shape: a table and its seats, set up
/// afresh for every batch ([`Seated::sit`]), where games are played one
/// after another ([`PlaysGames`]) into an accumulator that observes them.
/// Implementing it gives the game its [`Simulation`]: `play_batch` and
/// `play_each` are written once, here, for every such game.
pub trait Seated: Sync {
    /// What a game is played on: its events and its end are observed.
    type Table: Observed;
    /// The table and its seats, as a batch plays them.
    type At: PlaysGames<Self::Table>;
    /// What a batch accumulates.
    type Acc: Accumulator + Observer<Self::Table>;
    /// The play-by-play of the games, written to a [`TraceWriter`].
    type Trace<'a, 'w: 'a>: Observer<Self::Table>;

    /// An empty accumulator.
    fn acc(&self) -> Self::Acc;

    /// A table and its seats for one batch.
    fn sit(&self) -> Self::At;

    /// The play-by-play observer writing to `w`.
    fn trace<'a, 'w>(w: &'a mut TraceWriter<'w>) -> Self::Trace<'a, 'w>;

    /// After the last game of a batch: what the table still has to play
    /// (Flip-Flush settles a pot left by a tie), told to `acc` and to the
    /// trace. Nothing by default.
    fn after_last_game(
        &self,
        _at: &mut Self::At,
        _rng: &mut SimRng,
        _acc: &mut Self::Acc,
        _trace: Option<&mut Self::Trace<'_, '_>>,
    ) {
    }

    /// Empties `acc` for the next game of [`Simulation::play_each`].
    fn clear(&self, acc: &mut Self::Acc) {
        *acc = self.acc();
    }
}

impl<S: Seated> Simulation for S {
    type Acc = S::Acc;

    fn new_acc(&self) -> S::Acc {
        self.acc()
    }

    fn play_batch(
        &self,
        rng: &mut SimRng,
        games: u64,
        acc: &mut S::Acc,
        trace: Option<&mut TraceWriter<'_>>,
    ) {
        let mut at = self.sit();
        let mut trace = play_games(&mut at, rng, games, acc, trace.map(S::trace));
        self.after_last_game(&mut at, rng, acc, trace.as_mut());
    }

    fn play_each(&self, rng: &mut SimRng, games: u64, each: &mut dyn FnMut(&S::Acc)) {
        let mut at = self.sit();
        let mut one = self.acc();
        for g in 0..games {
            play_games(&mut at, rng, 1, &mut one, None::<Silent>);
            if g + 1 == games {
                // What the table plays after its last game belongs to it.
                self.after_last_game(&mut at, rng, &mut one, None);
            }
            each(&one);
            self.clear(&mut one);
        }
    }
}

/// The games of a batch, each from its own stream of the batch's generator
/// ([`game_rng`]), told to `acc` and, when given, first to the trace
/// observer `trace`: the same games whether traced or not. The trace hears
/// each game's seed ([`Observer::game_seed`]) before the game. Gives the trace
/// observer back (a game may have more to write after the batch).
pub fn play_games<T: Observed, P: PlaysGames<T>, A: Observer<T>, X: Observer<T>>(
    table: &mut P,
    rng: &mut SimRng,
    games: u64,
    acc: &mut A,
    trace: Option<X>,
) -> Option<X> {
    match trace {
        None => {
            for _ in 0..games {
                table.play_one(&mut game_rng(rng), acc);
            }
            None
        }
        Some(trace) => {
            let mut both = (trace, acc);
            for _ in 0..games {
                // The same generator as `game_rng`, with its seed told to
                // the trace first.
                let seed = next_game_seed(rng);
                both.0.game_seed(seed);
                table.play_one(&mut seeded_game_rng(seed), &mut both);
            }
            Some(both.0)
        }
    }
}

/// How to run a simulation.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Games to play (at least 1).
    pub games: u64,
    /// Seed of the whole run.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Show a progress bar on stderr when stderr is a terminal.
    pub progress: bool,
}

/// The number of batches a run of `games` games is cut into.
pub fn batch_count(games: u64) -> u64 {
    games.div_ceil(BATCH_GAMES)
}

/// The number of games in batch `batch` of a run of `games` games.
pub fn batch_len(games: u64, batch: u64) -> u64 {
    (games - batch * BATCH_GAMES).min(BATCH_GAMES)
}

/// The games in the batches `r` of a run of `games` games: the sum of
/// [`batch_len`] over `r`, worked out at once.
pub fn games_in(games: u64, r: Range<u64>) -> u64 {
    let r = r.start..r.end.min(batch_count(games));
    if r.start >= r.end {
        return 0;
    }
    let last = batch_len(games, r.end - 1);
    (r.end - r.start - 1) * BATCH_GAMES + last
}

/// A progress bar of `games` games with their rate and ETA on stderr, or a
/// hidden one unless `show` and stderr is a terminal.
pub fn progress_bar(show: bool, games: u64) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{bar:40.cyan/blue} {human_pos}/{human_len} games  {rate}  ETA {eta}")
            .expect("valid template")
            .with_key(
                "rate",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", super::show::rate_text(s.per_sec()));
                },
            ),
    );
    pb
}

/// Plays a whole run on a pool of `cfg.threads` threads and returns the
/// merged statistics.
pub fn run<S: Simulation>(sim: &S, cfg: &RunConfig) -> Result<S::Acc, String> {
    let pb = progress_bar(cfg.progress, cfg.games);
    let never = AtomicBool::new(false);
    let all = std::iter::once(0..batch_count(cfg.games)).collect::<Vec<_>>();
    let played = run_ranges(sim, cfg, &all, &pb, &never);
    pb.finish_and_clear();
    Ok(played?.0)
}

/// Plays the batches in `ranges` (of a run of `cfg.games` games) on a pool
/// of `cfg.threads` threads, counting games on `pb`. Once `stop` is set no
/// batch starts; returns the statistics of the batches played and their
/// ranges (sorted, joined).
pub fn run_ranges<S: Simulation>(
    sim: &S,
    cfg: &RunConfig,
    ranges: &[Range<u64>],
    pb: &ProgressBar,
    stop: &AtomicBool,
) -> Result<(S::Acc, Vec<Range<u64>>), String> {
    let pool = pool(cfg.threads)?;
    let each = Batches {
        ranges,
        stop,
        bar: pb,
    };
    each.play(
        &pool,
        || sim.new_acc(),
        |a, b| a.merge(&b),
        |acc, b| {
            let n = batch_len(cfg.games, b);
            sim.play_batch(&mut batch_rng(cfg.seed, b), n, acc, None);
            Ok(n)
        },
    )
}

/// A pool of `threads` worker threads (at least 1).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))
}

/// The batches a command plays in parallel, and when it stops: the one
/// interruptible loop of every study (a plain run, a tournament, a sweep,
/// a tune).
pub struct Batches<'a> {
    /// The batch numbers to play (sorted ranges).
    pub ranges: &'a [Range<u64>],
    /// Once set (Ctrl-C), no batch starts; the batches under way finish.
    pub stop: &'a AtomicBool,
    /// Counts the games played.
    pub bar: &'a ProgressBar,
}

impl Batches<'_> {
    /// Plays every batch on `pool`: `batch(acc, b)` plays batch `b` into
    /// an accumulator started by `empty` and returns the games it played
    /// (for the bar); accumulators are joined by `merge`, in any order, so
    /// `merge` must add integer totals. Returns the total and the batches
    /// played (sorted, joined). A stop ends the loop at once, whatever is
    /// left: no batch that has not started is visited.
    pub fn play<T: Send>(
        &self,
        pool: &rayon::ThreadPool,
        empty: impl Fn() -> T + Sync + Send,
        merge: impl Fn(&mut T, T) + Sync + Send,
        batch: impl Fn(&mut T, u64) -> Result<u64, String> + Sync + Send,
    ) -> Result<(T, Vec<Range<u64>>), String> {
        let (acc, done) = pool.install(|| {
            self.ranges
                .par_iter()
                .flat_map(|r| r.clone().into_par_iter())
                .map(|b| (!self.stop.load(Ordering::Relaxed)).then_some(b))
                .while_some()
                .try_fold(
                    || (empty(), Vec::new()),
                    |(mut acc, mut done): (T, Vec<Range<u64>>), b| {
                        let games = batch(&mut acc, b)?;
                        self.bar.inc(games);
                        add_batch(&mut done, b);
                        Ok::<_, String>((acc, done))
                    },
                )
                .try_reduce(
                    || (empty(), Vec::new()),
                    |(mut a, mut da), (b, db)| {
                        merge(&mut a, b);
                        da.extend(db);
                        Ok((a, da))
                    },
                )
        })?;
        Ok((acc, crate::engine::state::normalize(done)))
    }
}

/// Adds batch `b` to `done`, extending the last range when it follows it.
fn add_batch(done: &mut Vec<Range<u64>>, b: u64) {
    match done.last_mut() {
        Some(last) if last.end == b => last.end = b + 1,
        _ => done.push(b..b + 1),
    }
}

/// Plays a whole run on the calling thread, writing a play-by-play of every
/// game to `out` in `format`. Gives exactly the statistics of [`run`] with
/// the same seed. When the trace can no longer be written because its
/// reader has gone (a closed pipe, as in `--trace | head`), the rest of
/// the run is played without it: the statistics are still the whole run's.
pub fn run_traced<S: Simulation>(
    sim: &S,
    cfg: &RunConfig,
    format: TraceFormat,
    out: &mut dyn Write,
) -> Result<S::Acc, String> {
    let mut acc = sim.new_acc();
    let mut trace = TraceWriter::with_format(out, format, 0);
    for b in 0..batch_count(cfg.games) {
        let mut rng = batch_rng(cfg.seed, b);
        let games = batch_len(cfg.games, b);
        if trace.failed() {
            sim.play_batch(&mut rng, games, &mut acc, None);
        } else {
            trace.start_at(b * BATCH_GAMES);
            sim.play_batch(&mut rng, games, &mut acc, Some(&mut trace));
        }
    }
    match trace.finish() {
        Ok(()) => Ok(acc),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(acc),
        Err(e) => Err(format!("cannot write the trace: {e}")),
    }
}

/// `--threads`, or every core when not given.
pub fn threads(flag: Option<u16>) -> usize {
    flag.map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Draw;

    /// A toy game: roll a die per game, count sixes.
    struct Dice;
    #[derive(Default, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
    struct Count {
        games: u64,
        sixes: u64,
    }
    impl Accumulator for Count {
        fn merge(&mut self, o: &Self) {
            self.games += o.games;
            self.sixes += o.sixes;
        }
    }
    impl Simulation for Dice {
        type Acc = Count;
        fn new_acc(&self) -> Count {
            Count::default()
        }
        fn play_batch(
            &self,
            rng: &mut SimRng,
            games: u64,
            acc: &mut Count,
            mut trace: Option<&mut TraceWriter<'_>>,
        ) {
            for _ in 0..games {
                let roll = rng.below(6) + 1;
                acc.games += 1;
                acc.sixes += u64::from(roll == 6);
                if let Some(t) = trace.as_mut() {
                    t.line(format_args!("game {}: {roll}", t.game()));
                    t.next_game();
                }
            }
        }
        fn play_each(&self, rng: &mut SimRng, games: u64, each: &mut dyn FnMut(&Count)) {
            for _ in 0..games {
                let mut one = Count::default();
                self.play_batch(rng, 1, &mut one, None);
                each(&one);
            }
        }
    }

    fn cfg(games: u64, threads: usize) -> RunConfig {
        RunConfig {
            games,
            seed: 42,
            threads,
            progress: false,
        }
    }

    /// Ctrl-C stops a run at once however many batches are left: the
    /// loop visits no batch once the stop is seen (a run of 10^11
    /// batches used to walk every one of them to skip it).
    #[test]
    fn a_stop_ends_the_loop_at_once_whatever_is_left() {
        let bar = ProgressBar::hidden();
        let ranges: Vec<Range<u64>> = std::iter::once(0..u64::MAX / 2).collect();
        let p = pool(2).unwrap();
        let stop = AtomicBool::new(true);
        let each = Batches {
            ranges: &ranges,
            stop: &stop,
            bar: &bar,
        };
        let (n, done) = each
            .play(
                &p,
                || 0u64,
                |a, b| *a += b,
                |a, _| {
                    Ok({
                        *a += 1;
                        1
                    })
                },
            )
            .unwrap();
        assert_eq!((n, done.len()), (0, 0));
        // Stopped while playing: what was played is kept and counted in
        // `done`, and little more starts.
        let stop = AtomicBool::new(false);
        let each = Batches {
            ranges: &ranges,
            stop: &stop,
            bar: &bar,
        };
        let (n, done) = each
            .play(
                &p,
                || 0u64,
                |a, b| *a += b,
                |a, b| {
                    if b == 100 {
                        stop.store(true, Ordering::Relaxed);
                    }
                    *a += 1;
                    Ok(1)
                },
            )
            .unwrap();
        let played: u64 = done.iter().map(|r| r.end - r.start).sum();
        assert_eq!(n, played);
        assert!((101..10_000_000).contains(&played), "{played}");
        assert!(done[0].start == 0 && done[0].end > 100, "{done:?}");
    }

    /// An error in one batch is the loop's error.
    #[test]
    fn a_failed_batch_fails_the_loop() {
        let bar = ProgressBar::hidden();
        let stop = AtomicBool::new(false);
        let ranges: Vec<Range<u64>> = std::iter::once(0..50).collect();
        let each = Batches {
            ranges: &ranges,
            stop: &stop,
            bar: &bar,
        };
        let got = each.play(
            &pool(2).unwrap(),
            || 0u64,
            |a, b| *a += b,
            |_, b| {
                if b == 7 { Err("batch 7".to_string()) } else { Ok(1) }
            },
        );
        assert_eq!(got.unwrap_err(), "batch 7");
    }

    #[test]
    fn same_seed_same_result_for_any_thread_count() {
        let one = run(&Dice, &cfg(100_000, 1)).unwrap();
        for t in [2, 3, 8] {
            assert_eq!(run(&Dice, &cfg(100_000, t)).unwrap(), one);
        }
        assert_eq!(one.games, 100_000);
    }

    #[test]
    fn traced_run_plays_the_same_games() {
        let mut out = Vec::new();
        let traced = run_traced(&Dice, &cfg(3000, 1), TraceFormat::Text, &mut out).unwrap();
        assert_eq!(traced, run(&Dice, &cfg(3000, 2)).unwrap());
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 3000);
        let sixes = text.lines().filter(|l| l.ends_with(": 6")).count() as u64;
        assert_eq!(sixes, traced.sixes);
        // The runner numbers the games across batches.
        for (i, line) in text.lines().enumerate() {
            assert!(line.starts_with(&format!("game {i}: ")), "{line}");
        }
    }

    #[test]
    fn the_games_of_a_range_of_batches_are_counted_at_once() {
        for games in [1, 1023, 1024, 1025, 5000, 3 * BATCH_GAMES] {
            let n = batch_count(games);
            for a in 0..=n {
                for b in a..=n + 1 {
                    let slow: u64 = (a..b.min(n)).map(|x| batch_len(games, x)).sum();
                    assert_eq!(games_in(games, a..b), slow, "{games} {a}..{b}");
                }
            }
        }
        assert_eq!(
            games_in(100_000 * 1_000_000_000, 0..u64::MAX),
            100_000 * 1_000_000_000
        );
    }

    #[test]
    fn batches_cover_every_game_once() {
        assert_eq!(batch_count(1), 1);
        assert_eq!(batch_count(BATCH_GAMES), 1);
        assert_eq!(batch_count(BATCH_GAMES + 1), 2);
        let total: u64 = (0..batch_count(5000)).map(|b| batch_len(5000, b)).sum();
        assert_eq!(total, 5000);
    }
}
