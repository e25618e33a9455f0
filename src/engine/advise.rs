//! `sim advise GAME`: every legal move of one position, each with its
//! chance to win the game and the game's other figures, and the move to
//! play. It names no game: a game describes its position through
//! [`Position`], and this module plays the moves out, compares them and
//! shows the answer.
//!
//! # How the moves are compared
//!
//! Each move is played out many times from the position: one playout
//! deals the cards the mover cannot see anew (from what the mover knows
//! only), plays the move, and plays the rest of the game with the stated
//! model in every seat. Playout `k` of every move uses the same random
//! stream (`(seed, k)`), so the moves meet the same unseen cards (common
//! random numbers) and their difference is measured far more precisely
//! than either chance alone.
//!
//! Playouts come in looks of [`FIRST_LOOK`], then twice as many per move,
//! and so on up to the budget. At each look the move with the highest
//! estimate is *separated* when, for every other move, the mean paired
//! difference to it is above zero by [`SEPARATION_Z`] standard errors (or
//! the two moves gave the same result in every playout so far). With at
//! most a dozen looks, the chance of stopping on a move that is not the
//! best is below 2% even when two moves are equal. The answer says which
//! ended the search: separation, the budget, or the time limit.
//!
//! Playouts run in chunks of [`CHUNK`] on any number of threads, and the
//! chunks' sums are added in order, so that a seed gives the same answer
//! for any `--threads` (a time limit aside: where it stops depends on the
//! machine).

use std::ops::Range;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::{Value, json};

use super::rng::{SimRng, batch_rng};
use super::stats::Z95;

/// Playouts per move at the first look.
pub const FIRST_LOOK: u64 = 2_000;

/// Playouts of one move in one chunk (the unit of parallel work).
pub const CHUNK: u64 = 500;

/// Standard errors by which the best move's paired difference to every
/// other must exceed zero for the search to stop before its budget.
pub const SEPARATION_Z: f64 = 3.0;

/// Default most playouts per move (`--budget`).
pub const DEFAULT_BUDGET: u64 = 100_000;

/// What a playout measures, for the mover.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Column heading and words (`win chance`, `round score`).
    pub name: &'static str,
    /// Its key in the JSON answer (`win`, `round_score`).
    pub key: &'static str,
    /// A chance (shown with 4 decimals) or points (1 decimal).
    pub chance: bool,
}

/// The chance to win, a tie shared: the first measure of every game.
pub const WIN_CHANCE: Measure = Measure {
    name: "win chance",
    key: "win",
    chance: true,
};

/// A figure worked out exactly from the position (Flip 7's chance that the
/// next card busts), not by playouts.
#[derive(Clone, Debug, PartialEq)]
pub struct Exact {
    /// Its value.
    pub value: f64,
    /// How it is written (`29/91 = 0.3187`).
    pub text: String,
}

/// One legal move of the position.
#[derive(Clone, Debug)]
pub struct Move {
    /// In words (`hit`, `Freeze to seat 2`).
    pub name: String,
    /// In the JSON answer (`hit`, `freeze:2`).
    pub key: String,
    /// The exact figures of [`Position::exact_names`], in order (`None`
    /// where a figure does not apply to this move).
    pub exact: Vec<Option<Exact>>,
}

/// A position of some game, at a decision, as `sim advise` needs it.
pub trait Position: Sync {
    /// The game's name (`flip7`).
    fn game(&self) -> &'static str;
    /// The seat to move.
    fn mover(&self) -> usize;
    /// Players at the table.
    fn players(&self) -> usize;
    /// Every legal move (at least one).
    fn moves(&self) -> Vec<Move>;
    /// What a playout measures; the first is the chance to win, a tie
    /// shared. Every measure is the mover's.
    fn measures(&self) -> &'static [Measure];
    /// Which measure the moves are ranked by: the chance to win (0),
    /// unless every playout of every move wins (one player), when the
    /// game may rank by its score instead.
    fn ranked_by(&self) -> usize {
        0
    }
    /// The measure whose best move is the *score-maximising* move, shown
    /// beside the advice when they differ (`None`: not shown).
    fn score_measure(&self) -> Option<usize> {
        None
    }
    /// Whether measure `measure` of move `mv` is exact, the same in every
    /// playout whatever the cards (Flip 7: the round score of a stay). Only
    /// then is a figure shown as exact; a figure that merely came out the
    /// same in every playout so far is an estimate.
    fn exact_measure(&self, _mv: usize, _measure: usize) -> bool {
        false
    }
    /// The names of the exact figures of every move ([`Move::exact`]).
    fn exact_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// The model every seat plays after the move, in words (a spec).
    fn model(&self) -> String;
    /// The position read back: lines of text, and the same as JSON.
    fn read_back(&self) -> (Vec<String>, Value);
    /// One playout of move `mv`: deals what the mover cannot see anew from
    /// `rng`, plays the move and the rest of the game, and writes each
    /// measure into `out`.
    fn playout(&self, mv: usize, rng: &mut SimRng, out: &mut [f64]);
}

/// How long the search may go on.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most playouts per move.
    pub playouts: u64,
    /// Stop at the first look after this long, whatever the budget.
    pub time: Option<Duration>,
    /// Seed of the playouts.
    pub seed: u64,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// One legal move only: nothing to compare.
    OnlyMove,
    /// The best move separated from every other.
    Separated,
    /// Every move gave the same result in every playout.
    AllEqual,
    /// The budget of playouts was spent first.
    Budget,
    /// The time limit came first.
    Time,
}

impl Stop {
    fn key(self) -> &'static str {
        match self {
            Stop::OnlyMove => "only-move",
            Stop::Separated => "separated",
            Stop::AllEqual => "all-equal",
            Stop::Budget => "budget",
            Stop::Time => "time",
        }
    }
}

/// Sums over playouts: per move and measure, and per pair of moves for the
/// ranking measure (their paired differences).
#[derive(Clone, Debug)]
struct Sums {
    n: u64,
    /// `[move][measure]`: sum and sum of squares.
    sum: Vec<Vec<(f64, f64)>>,
    /// `[i][j]`: sum and sum of squares of `x_i - x_j`, the ranking measure.
    diff: Vec<Vec<(f64, f64)>>,
}

impl Sums {
    fn new(moves: usize, measures: usize) -> Sums {
        Sums {
            n: 0,
            sum: vec![vec![(0.0, 0.0); measures]; moves],
            diff: vec![vec![(0.0, 0.0); moves]; moves],
        }
    }

    fn add(&mut self, o: &Sums) {
        self.n += o.n;
        for (a, b) in self.sum.iter_mut().flatten().zip(o.sum.iter().flatten()) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (a, b) in self.diff.iter_mut().flatten().zip(o.diff.iter().flatten()) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
}

/// Mean and standard error from a sum and a sum of squares over `n`.
fn mean_se(n: u64, (s, q): (f64, f64)) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    let mean = s / nf;
    if n < 2 {
        return (mean, 0.0);
    }
    let var = ((q - s * mean) / (nf - 1.0)).max(0.0);
    (mean, (var / nf).sqrt())
}

/// Plays playouts `ks` of every move.
fn play_chunk(
    p: &dyn Position,
    moves: usize,
    measures: usize,
    rank: usize,
    seed: u64,
    ks: Range<u64>,
) -> Sums {
    let mut s = Sums::new(moves, measures);
    let mut out = vec![vec![0.0; measures]; moves];
    s.n = ks.end - ks.start;
    for k in ks {
        for (m, o) in out.iter_mut().enumerate() {
            let mut rng = batch_rng(seed, k);
            p.playout(m, &mut rng, o);
            for (acc, &x) in s.sum[m].iter_mut().zip(o.iter()) {
                acc.0 += x;
                acc.1 += x * x;
            }
        }
        for i in 0..moves {
            for j in 0..moves {
                let d = out[i][rank] - out[j][rank];
                s.diff[i][j].0 += d;
                s.diff[i][j].1 += d * d;
            }
        }
    }
    s
}

/// One move's figures in the answer.
#[derive(Clone, Debug)]
pub struct MoveFigures {
    /// The move.
    pub mv: Move,
    /// Per measure: estimate and standard error (0 when every playout gave
    /// the same value: then the figure is exact for this position).
    pub estimates: Vec<(f64, f64)>,
    /// Whether every playout gave the same value, per measure.
    pub constant: Vec<bool>,
    /// Whether the game says the figure is exact, per measure
    /// ([`Position::exact_measure`]).
    pub exact: Vec<bool>,
    /// Per measure: the 95% interval (for a chance that came out the same
    /// in every playout, Wilson's).
    pub intervals: Vec<(f64, f64)>,
}

/// The answer of `sim advise`.
#[derive(Clone, Debug)]
pub struct Advice {
    /// Every move, in the position's order.
    pub moves: Vec<MoveFigures>,
    /// The move advised (index into `moves`).
    pub best: usize,
    /// The score-maximising move, when the game has one.
    pub score_best: Option<usize>,
    /// The best move's paired difference to each move (estimate, standard
    /// error) on the ranking measure.
    pub margins: Vec<(f64, f64)>,
    /// Playouts per move.
    pub playouts: u64,
    /// Why the search stopped.
    pub stop: Stop,
    /// Seconds spent.
    pub secs: f64,
}

/// Compares the moves of `p` within `budget` on the current thread pool.
pub fn advise(p: &dyn Position, budget: &Budget) -> Advice {
    let started = Instant::now();
    let moves = p.moves();
    let measures = p.measures().len();
    let rank = p.ranked_by();
    let mut sums = Sums::new(moves.len(), measures);
    let most = budget.playouts.max(1);
    let mut look = FIRST_LOOK.min(most);
    let stop = loop {
        if moves.len() == 1 && sums.n > 0 {
            break Stop::OnlyMove;
        }
        let chunks = (sums.n..look)
            .step_by(CHUNK as usize)
            .map(|k| k..(k + CHUNK).min(look));
        let parts: Vec<Sums> = chunks
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|ks| play_chunk(p, moves.len(), measures, rank, budget.seed, ks))
            .collect();
        for part in &parts {
            sums.add(part);
        }
        if moves.len() == 1 {
            break Stop::OnlyMove;
        }
        let best = best_of(&sums, rank);
        match separation(&sums, best) {
            Some(stop) => break stop,
            None if look >= most => break Stop::Budget,
            None if budget.time.is_some_and(|t| started.elapsed() >= t) => break Stop::Time,
            None => look = (look * 2).min(most),
        }
    };
    let score_best = p.score_measure().map(|m| best_of(&sums, m));
    // When no move changes the ranking measure, the score decides.
    let best = match (stop, score_best) {
        (Stop::AllEqual, Some(s)) => s,
        _ => best_of(&sums, rank),
    };
    let margins = (0..moves.len())
        .map(|j| mean_se(sums.n, sums.diff[best][j]))
        .collect();
    let figures = moves
        .into_iter()
        .enumerate()
        .map(|(m, mv)| {
            let estimates: Vec<(f64, f64)> = sums.sum[m].iter().map(|&s| mean_se(sums.n, s)).collect();
            let constant: Vec<bool> = sums.sum[m].iter().map(|&(s, q)| constant(sums.n, s, q)).collect();
            let intervals = (0..measures)
                .map(|k| interval(&p.measures()[k], estimates[k], constant[k], sums.n))
                .collect();
            MoveFigures {
                mv,
                estimates,
                constant,
                exact: (0..measures).map(|k| p.exact_measure(m, k)).collect(),
                intervals,
            }
        })
        .collect();
    Advice {
        moves: figures,
        best,
        score_best,
        margins,
        playouts: sums.n,
        stop,
        secs: started.elapsed().as_secs_f64(),
    }
}

/// Whether values with this sum and sum of squares over `n` are all equal
/// (up to rounding).
fn constant(n: u64, s: f64, q: f64) -> bool {
    let mean = s / n.max(1) as f64;
    (q / n.max(1) as f64 - mean * mean).abs() <= 1e-12 * (1.0 + mean * mean)
}

/// The move with the highest mean of measure `m` (the first of equals).
fn best_of(s: &Sums, m: usize) -> usize {
    let mut best = 0;
    for i in 1..s.sum.len() {
        if s.sum[i][m].0 > s.sum[best][m].0 {
            best = i;
        }
    }
    best
}

/// Whether `best` has separated from every other move, and how.
fn separation(s: &Sums, best: usize) -> Option<Stop> {
    let mut all_equal = true;
    for j in 0..s.sum.len() {
        if j == best {
            continue;
        }
        let (d, q) = s.diff[best][j];
        if d == 0.0 && q == 0.0 {
            continue; // the same result in every playout
        }
        all_equal = false;
        let (mean, se) = mean_se(s.n, (d, q));
        if mean - SEPARATION_Z * se <= 0.0 {
            return None;
        }
    }
    Some(if all_equal {
        Stop::AllEqual
    } else {
        Stop::Separated
    })
}

/// The 95% interval of an estimate over `n` playouts: mean ± 1.96
/// standard errors, or for a chance that came out the same in every
/// playout (all wins, or none), Wilson's interval, which is not empty.
fn interval(m: &Measure, (est, se): (f64, f64), constant: bool, n: u64) -> (f64, f64) {
    if constant && m.chance {
        return super::stats::wilson95_f(est, n as f64);
    }
    (est - Z95 * se, est + Z95 * se)
}

/// A figure with its 95% interval, or alone when exact.
fn figure(m: &Measure, f: &MoveFigures, k: usize) -> String {
    let digits = if m.chance { 4 } else { 1 };
    let (est, se) = f.estimates[k];
    let (low, high) = f.intervals[k];
    if f.exact[k] {
        format!("{est:.digits$} exact")
    } else if f.constant[k] && m.chance {
        format!("{est:.digits$} ({low:.digits$} to {high:.digits$})")
    } else if f.constant[k] {
        format!("{est:.digits$} (every playout)")
    } else {
        format!("{est:.digits$} ± {:.digits$}", Z95 * se)
    }
}

/// The answer as text: the position, a table of the moves, the advice.
pub fn text(p: &dyn Position, a: &Advice) -> Vec<u8> {
    let mut out = String::new();
    let (lines, _) = p.read_back();
    out.push_str(&format!(
        "sim advise {}: seat {} to move ({} players; after the move every seat plays {})\n",
        p.game(),
        p.mover(),
        p.players(),
        p.model()
    ));
    for l in &lines {
        out.push_str(&format!("  {l}\n"));
    }
    out.push('\n');
    let mut header: Vec<String> = vec!["move".into()];
    header.extend(p.measures().iter().map(|m| format!("{} (95%)", m.name)));
    header.extend(p.exact_names().iter().map(|n| format!("{n} (exact)")));
    let rows: Vec<Vec<String>> = a
        .moves
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mark = if i == a.best { " *" } else { "" };
            let mut row = vec![format!("{}{mark}", f.mv.name)];
            for (k, m) in p.measures().iter().enumerate() {
                row.push(figure(m, f, k));
            }
            for e in &f.mv.exact {
                row.push(e.as_ref().map_or("-".into(), |e| e.text.clone()));
            }
            row
        })
        .collect();
    out.push_str(&columns(&header, &rows));
    out.push('\n');
    out.push_str(&conclusion(p, a));
    out.into_bytes()
}

/// Left-aligned columns, two spaces apart.
fn columns(header: &[String], rows: &[Vec<String>]) -> String {
    let width = |c: usize| {
        std::iter::once(&header[c])
            .chain(rows.iter().map(|r| &r[c]))
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, &w)| format!("{c:<w$}"))
            .collect();
        format!("  {}\n", padded.join("  ").trim_end())
    };
    let mut out = line(header);
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

/// The advice in words: the move, by how much, how the search ended, and
/// the score-maximising move when it differs.
fn conclusion(p: &dyn Position, a: &Advice) -> String {
    let best = &a.moves[a.best].mv.name;
    let rank = &p.measures()[p.ranked_by()];
    let per = format!("{} playouts per move", super::args::format_count(a.playouts));
    let mut out = match a.stop {
        Stop::OnlyMove => format!("advice: {best}, the only legal move ({per})\n"),
        Stop::AllEqual => match p.score_measure() {
            Some(m) => format!(
                "advice: {best}: every move gave the same {} in every playout ({per}); {best} has the best {}\n",
                rank.name,
                p.measures()[m].name
            ),
            None => format!(
                "advice: any move: every move gave the same {} in every playout ({per}); {best} is listed first\n",
                rank.name
            ),
        },
        stop => {
            let (j, (d, se)) = a
                .margins
                .iter()
                .enumerate()
                .filter(|&(j, &(d, se))| j != a.best && (d, se) != (0.0, 0.0))
                .min_by(|x, y| x.1.0.total_cmp(&y.1.0))
                .map(|(j, m)| (j, *m))
                .unwrap_or((a.best, (0.0, 0.0)));
            let digits = if rank.chance { 4 } else { 1 };
            let margin = format!(
                "{} {d:.digits$} ± {:.digits$} above {} (common random numbers)",
                rank.name,
                Z95 * se,
                a.moves[j].mv.name
            );
            match stop {
                Stop::Separated => format!("advice: {best}: {margin}; separated after {per}\n"),
                Stop::Time => {
                    format!("advice: {best}, not separated: {margin}; the time limit came after {per}\n")
                }
                _ => format!("advice: {best}, not separated: {margin}; the budget was spent after {per}\n"),
            }
        }
    };
    if let Some(s) = a.score_best.filter(|&s| s != a.best) {
        let m = &p.measures()[p.score_measure().unwrap_or(0)];
        out.push_str(&format!(
            "the {}-maximising move is {} ({} {:.1} against {:.1})\n",
            m.name,
            a.moves[s].mv.name,
            m.name,
            a.moves[s].estimates[p.score_measure().unwrap_or(0)].0,
            a.moves[a.best].estimates[p.score_measure().unwrap_or(0)].0
        ));
    }
    out
}

/// The answer as one JSON object: the position read back, the moves with
/// every figure (estimates with their 95% intervals, exact figures as
/// such), the advice and how the search ended.
pub fn json(p: &dyn Position, a: &Advice, seed: u64) -> Value {
    let (_, position) = p.read_back();
    let moves: Vec<Value> = a
        .moves
        .iter()
        .map(|f| {
            let mut o = json!({ "move": f.mv.key, "name": f.mv.name });
            for (k, m) in p.measures().iter().enumerate() {
                let (est, _) = f.estimates[k];
                let (low, high) = f.intervals[k];
                o[m.key] = if f.exact[k] {
                    json!({ "exact": est })
                } else {
                    json!({ "estimate": est, "low": low, "high": high })
                };
            }
            for (name, e) in p.exact_names().iter().zip(&f.mv.exact) {
                let key = name.replace(' ', "_");
                o[key] = e
                    .as_ref()
                    .map_or(Value::Null, |e| json!({ "exact": e.value, "text": e.text }));
            }
            o
        })
        .collect();
    json!({
        "game": p.game(),
        "position": position,
        "mover": p.mover(),
        "model": p.model(),
        "seed": seed.to_string(),
        "playouts_per_move": a.playouts,
        "stopped": a.stop.key(),
        "moves": moves,
        "advice": a.moves[a.best].mv.key,
        "score_maximising": a.score_best.map(|s| a.moves[s].mv.key.clone()),
        "sim_version": super::version::SIM_VERSION,
    })
}

/// A JSON trace cut at a decision, for a game to read its position from:
/// the run's first line and the events of one game up to the decision.
#[derive(Clone, Debug)]
pub struct TraceCut {
    /// The trace's first line (`"event": "run"`): the run's definition.
    pub run: Value,
    /// The game's events up to the decision, each with its line number in
    /// the file (1-based): from the game's first event to line `at`, or to
    /// the end of the file.
    pub events: Vec<(usize, Value)>,
    /// The line the advice is asked at (`--at`), if given: the last of
    /// `events`.
    pub at: Option<usize>,
}

/// Reads the JSON trace `text` (of file `file`) of game `game` up to line
/// `at` (1-based, the whole file when `None`), and keeps the run line and
/// the events of the game that line belongs to. Refuses a file that is not
/// a JSON trace of `game`, a line cut inside an event, and an `at` outside
/// the file or on the run line.
pub fn cut_trace(text: &str, file: &str, game: &str, at: Option<usize>) -> Result<TraceCut, String> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .first()
        .ok_or_else(|| format!("--trace {file}: the file is empty"))?;
    let run: Value = serde_json::from_str(first).map_err(|_| {
        format!("--trace {file}: not a JSON trace (its first line is not JSON; write traces with --trace-format json)")
    })?;
    if run["event"] != "run" {
        return Err(format!(
            "--trace {file}: not a JSON trace of sim (its first line is not the run's definition)"
        ));
    }
    match run["command"].as_str() {
        Some(g) if g == game => {}
        Some(g) => {
            return Err(format!(
                "--trace {file}: a trace of {g}, not of {game} (use sim advise {g})"
            ));
        }
        None => return Err(format!("--trace {file}: the run line names no game")),
    }
    let last = match at {
        Some(0 | 1) => {
            return Err(format!(
                "--at {}: line 1 is the run's definition; give the line of a decision (2 to {})",
                at.unwrap_or(0),
                lines.len()
            ));
        }
        Some(n) if n > lines.len() => {
            return Err(format!("--at {n}: the trace has {} lines", lines.len()));
        }
        Some(n) => n,
        None => lines.len(),
    };
    if last < 2 {
        return Err(format!("--trace {file}: the trace has no event"));
    }
    let mut parsed = Vec::with_capacity(last - 1);
    for (i, l) in lines[1..last].iter().enumerate() {
        let v: Value = serde_json::from_str(l).map_err(|_| {
            format!(
                "--trace {file}: line {} is cut inside an event (not a whole JSON object)",
                i + 2
            )
        })?;
        parsed.push((i + 2, v));
    }
    let game_of = |v: &Value| v["game"].as_u64();
    let g = game_of(&parsed[parsed.len() - 1].1);
    let events = parsed.into_iter().filter(|(_, v)| game_of(v) == g).collect();
    Ok(TraceCut { run, events, at })
}
