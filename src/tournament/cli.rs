//! `sim tournament GAME` and `sim sweep GAME`: arguments, the run, the
//! console summary and the files (CSV, SVG, PNG, XLSX).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::analysis::{self, Report, Setup};
use super::arrange::arrangements;
use super::play::{BatchRecord, play_batches};
use super::sweep::expand;
use super::{Contest, SeatResult};
use crate::cli::{describe_sources, file_label, report_line};
use crate::engine::args::{format_count, parse_count};
use crate::engine::output::{Output, ignore_closed_pipe};
use crate::engine::runner::{self, RunConfig, batch_count};
use crate::engine::stats::{Z95, mean_stderr, wilson95};
use crate::engine::strategies::{Library, Resolved};
use crate::games::flip_flush::FlipFlushTable;
use crate::games::flip7::Flip7Table;
use crate::report::charts::{self, Bar, Panel};
use crate::report::xlsx::{self, ChartSpec, Series, Sheet};

/// `sim tournament GAME`.
#[derive(Subcommand, Debug)]
pub enum TournamentGame {
    /// A Flip 7 tournament.
    Flip7(TournamentArgs<Flip7Table>),
    /// A Flip-Flush tournament.
    #[command(name = "flip-flush")]
    FlipFlush(TournamentArgs<FlipFlushTable>),
}

/// `sim sweep GAME`.
#[derive(Subcommand, Debug)]
pub enum SweepGame {
    /// Sweep a Flip 7 policy parameter.
    Flip7(SweepArgs<Flip7Table>),
    /// Sweep a Flip-Flush policy parameter.
    #[command(name = "flip-flush")]
    FlipFlush(SweepArgs<FlipFlushTable>),
}

/// Options every tournament and sweep shares.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Seed (random when not given; always printed). The same seed gives
    /// the same files for any --threads.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// Folder for the CSV files and charts (default: a descriptive folder
    /// in results/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Also write a spreadsheet workbook with the tables and charts.
    #[arg(long, value_name = "PATH")]
    pub xlsx: Option<PathBuf>,

    /// Do not draw the SVG and PNG charts.
    #[arg(long)]
    pub no_charts: bool,
}

/// `sim tournament GAME` options.
#[derive(Args, Debug, Clone)]
pub struct TournamentArgs<T: Args> {
    /// The entrants: specs, strategy names or .toml paths, comma-separated
    /// (at least --players of them; one may be listed twice).
    #[arg(
        long,
        value_name = "A,B,C[,...]",
        required_unless_present = "lineup",
        conflicts_with = "lineup"
    )]
    pub policies: Option<String>,

    /// Read the entrants from a line-up file: a strategy file whose
    /// `policy` is a comma-separated list (NAME reads
    /// strategies/GAME-NAME.toml; a path ending in .toml is read as is).
    #[arg(long, value_name = "NAME|PATH")]
    pub lineup: Option<String>,

    #[command(flatten)]
    pub table: T,

    /// Deals: every seat arrangement plays each of them (5000, 250K, 1M).
    /// With --until-ci, the most deals to play.
    #[arg(long, default_value = "10K", value_parser = parse_count)]
    pub games: u64,

    /// Stop once every entrant's 95% win-rate interval is narrower than
    /// ±W (e.g. 0.005 for half a percentage point).
    #[arg(long, value_name = "W", value_parser = parse_width)]
    pub until_ci: Option<f64>,

    #[command(flatten)]
    pub common: Common,
}

/// `sim sweep GAME` options.
#[derive(Args, Debug, Clone)]
pub struct SweepArgs<T: Args> {
    /// The swept policy, with one {A..B}, {A..B..STEP} or {X,Y,Z} group,
    /// e.g. 'stay-at-{10..40}'. It plays seat 0.
    #[arg(long, value_name = "SPEC")]
    pub policy: String,

    /// Policy of the other seats (default: the game's default policy).
    #[arg(long, value_name = "SPEC")]
    pub field: Option<String>,

    #[command(flatten)]
    pub table: T,

    /// Games per value (5000, 250K, 10M).
    #[arg(long, default_value = "100K", value_parser = parse_count)]
    pub games: u64,

    #[command(flatten)]
    pub common: Common,
}

fn parse_width(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if w > 0.0 && w < 0.5 => Ok(w),
        _ => Err("expected a half-width between 0 and 0.5, e.g. 0.005".into()),
    }
}

impl Common {
    fn threads(&self) -> usize {
        self.threads
            .map(usize::from)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Runs `sim tournament`.
pub fn tournament(game: &TournamentGame) -> Result<(), String> {
    match game {
        TournamentGame::Flip7(a) => run_tournament(a),
        TournamentGame::FlipFlush(a) => run_tournament(a),
    }
}

/// Runs `sim sweep`.
pub fn sweep(game: &SweepGame) -> Result<(), String> {
    match game {
        SweepGame::Flip7(a) => run_sweep(a),
        SweepGame::FlipFlush(a) => run_sweep(a),
    }
}

/// The files of a run, checked before any game is played.
struct Files {
    items: Vec<(Output, &'static str)>,
    xlsx: Option<Output>,
}

impl Files {
    fn prepare(dir: &Path, names: &[&'static str], xlsx: Option<&PathBuf>) -> Result<Files, String> {
        if dir.as_os_str() == "-" || dir.is_file() {
            return Err(format!(
                "--out '{}' must be a folder (the run writes several files into it)",
                dir.display()
            ));
        }
        let items = names
            .iter()
            .map(|n| Output::prepare(&dir.join(n), "--out").map(|o| (o, *n)))
            .collect::<Result<Vec<_>, _>>()?;
        let xlsx = match xlsx {
            Some(p) if p.as_os_str() == "-" => return Err("--xlsx needs a file path, not -".into()),
            Some(p) => Some(Output::prepare(p, "--xlsx")?),
            None => None,
        };
        Ok(Files { items, xlsx })
    }

    /// Writes every file (`contents` by name) and lists them.
    fn commit(
        self,
        contents: &[(&str, Vec<u8>)],
        xlsx: Option<Vec<u8>>,
        summary: &mut Vec<u8>,
    ) -> Result<(), String> {
        for (out, name) in self.items {
            let bytes = contents
                .iter()
                .find(|(n, _)| n == &name)
                .map(|(_, b)| b.as_slice())
                .ok_or_else(|| format!("internal: no content for {name}"))?;
            if let Some(p) = out.commit(bytes)? {
                let _ = writeln!(summary, "wrote {}", p.display());
            }
        }
        if let (Some(out), Some(bytes)) = (self.xlsx, xlsx)
            && let Some(p) = out.commit(&bytes)?
        {
            let _ = writeln!(summary, "wrote {}", p.display());
        }
        Ok(())
    }
}

fn cwd() -> Result<PathBuf, String> {
    std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))
}

/// The entrant words of `--policies` or of a `--lineup` file.
fn entrant_words(
    game: &str,
    policies: Option<&str>,
    lineup: Option<&str>,
    dir: &Path,
) -> Result<Vec<String>, String> {
    let text = match (policies, lineup) {
        (Some(p), _) => p.to_string(),
        (None, Some(l)) => {
            let library = Library::new(dir, None)?;
            let s = library
                .lineup(game, l)
                .map_err(|e| format!("--lineup {l}: {e}"))?;
            s.policy
        }
        (None, None) => return Err("give --policies A,B,C or --lineup NAME".into()),
    };
    Ok(text.split(',').map(|w| w.trim().to_string()).collect())
}

/// Labels made unique: a policy listed again becomes `NAME#2`, `NAME#3`.
fn unique_labels(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        let seen = words.iter().take(out.len()).filter(|v| *v == w).count();
        out.push(if seen == 0 {
            w.clone()
        } else {
            format!("{w}#{}", seen + 1)
        });
    }
    out
}

fn f6(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

fn fe(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6e}")
    } else {
        String::new()
    }
}

fn csv_bytes(header: &[String], rows: &[Vec<String>]) -> Result<Vec<u8>, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(|e| e.to_string())?;
    for r in rows {
        w.write_record(r).map_err(|e| e.to_string())?;
    }
    w.into_inner().map_err(|e| e.to_string())
}

/// Standings CSV columns (docs/tournament.md documents each).
pub const STANDINGS_HEADER: [&str; 21] = [
    "rank",
    "entrant",
    "policy",
    "players",
    "arrangements",
    "deals",
    "games",
    "wins",
    "win_rate",
    "win_rate_ci95_low",
    "win_rate_ci95_high",
    "mean_score",
    "mean_score_stderr",
    "rounds",
    "mean_round_score",
    "round_score_stderr",
    "rating",
    "rating_stderr",
    "win_rate_variance_crn",
    "win_rate_variance_independent",
    "variance_ratio",
];

/// Pairwise CSV columns.
pub const PAIRWISE_HEADER: [&str; 16] = [
    "entrant",
    "opponent",
    "games_together",
    "entrant_wins",
    "opponent_wins",
    "entrant_win_rate_together",
    "h2h_share",
    "h2h_ci95_low",
    "h2h_ci95_high",
    "h2h_stderr",
    "p_value",
    "p_holm",
    "significant",
    "diff_variance_crn",
    "diff_variance_independent",
    "variance_ratio",
];

fn header(h: &[&str]) -> Vec<String> {
    h.iter().map(|s| s.to_string()).collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn run_tournament<T: Args + Contest>(args: &TournamentArgs<T>) -> Result<(), String> {
    let c = &args.table;
    let dir = cwd()?;
    let words = entrant_words(c.game(), args.policies.as_deref(), args.lineup.as_deref(), &dir)?;
    let resolved: Vec<Resolved<T::Policy>> = words
        .iter()
        .map(|w| c.resolve(w, &dir).map_err(|e| format!("--policies '{w}': {e}")))
        .collect::<Result<_, _>>()?;
    let names = unique_labels(&words);
    let players = c.players();
    let arr = arrangements(names.len(), players)?;
    let sims: Vec<T::Sim> = arr
        .seats
        .iter()
        .map(|seats| {
            let lineup: Vec<T::Policy> = seats.iter().map(|&e| resolved[e].policy.clone()).collect();
            c.simulation(&lineup)
        })
        .collect::<Result<_, _>>()?;

    let seed = args.common.seed.unwrap_or_else(rand::random);
    let threads = args.common.threads();
    let mut parts = vec![
        "tournament".to_string(),
        c.game().to_string(),
        file_label(&names),
        format!("{players}p"),
        format_count(args.games),
    ];
    parts.extend(c.name_extras());
    if let Some(w) = args.until_ci {
        parts.push(format!("ci{w}"));
    }
    parts.push(format!("seed{seed}"));
    let out_dir = args
        .common
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(parts.join("_")));
    let mut file_names = vec!["standings.csv", "pairwise.csv"];
    if !args.common.no_charts {
        file_names.extend(["standings.svg", "standings.png"]);
    }
    let files = Files::prepare(&out_dir, &file_names, args.common.xlsx.as_ref())?;

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let start = Instant::now();
    let total_batches = batch_count(args.games);
    let mut records: Vec<BatchRecord> = Vec::new();
    let mut stop_note = String::new();
    match args.until_ci {
        None => records = play_batches(c, &sims, seed, args.games, 0..total_batches, &pool)?,
        Some(w) => {
            // Checkpoints after 4 batches, then about 25% more each time:
            // fixed by the seed and W alone, never by the threads.
            let mut done = 0;
            let mut next = 4.min(total_batches);
            loop {
                records.extend(play_batches(c, &sims, seed, args.games, done..next, &pool)?);
                done = next;
                let widest = analysis::widest_half_width(&arr.seats, names.len(), &records);
                if widest < w {
                    stop_note = format!(
                        "--until-ci {w}: stopped after {} deals, widest win-rate interval ±{widest:.4}",
                        format_count(records.iter().map(|r| r.deals).sum())
                    );
                    break;
                }
                if done >= total_batches {
                    stop_note = format!(
                        "--until-ci {w}: reached --games {} with the widest win-rate interval still ±{widest:.4}",
                        format_count(args.games)
                    );
                    break;
                }
                next = (done + done.div_ceil(4)).min(total_batches);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();

    let setup = Setup {
        names: &names,
        arrangements: &arr.seats,
        seed,
        has_score: c.score_name().is_some(),
        has_rounds: c.has_rounds(),
    };
    let report = analysis::analyse(&setup, &records);
    let deals = report.deals;
    let games_total = deals * arr.seats.len() as u64;

    // CSV.
    let specs: Vec<String> = resolved.iter().map(|r| r.policy.to_string()).collect();
    let standings_rows: Vec<Vec<String>> = report
        .standings
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                names[s.entrant].clone(),
                specs[s.entrant].clone(),
                players.to_string(),
                arr.seats.len().to_string(),
                deals.to_string(),
                s.games.to_string(),
                s.wins.to_string(),
                f6(s.win_rate),
                f6(s.win_ci.0),
                f6(s.win_ci.1),
                s.score.map_or(String::new(), |v| f6(v.0)),
                s.score.map_or(String::new(), |v| f6(v.1)),
                if c.has_rounds() {
                    s.rounds.to_string()
                } else {
                    String::new()
                },
                s.round_score.map_or(String::new(), |v| f6(v.0)),
                s.round_score.map_or(String::new(), |v| f6(v.1)),
                f6(s.rating),
                f6(s.rating_se),
                fe(s.var_crn),
                fe(s.var_independent),
                f6(s.var_crn / s.var_independent),
            ]
        })
        .collect();
    let pair_rows: Vec<Vec<String>> = report
        .pairs
        .iter()
        .map(|p| {
            vec![
                names[p.a].clone(),
                names[p.b].clone(),
                p.games_together.to_string(),
                p.a_wins.to_string(),
                p.b_wins.to_string(),
                f6(p.a_wins as f64 / p.games_together.max(1) as f64),
                f6(p.h2h),
                f6(p.h2h_ci.0),
                f6(p.h2h_ci.1),
                f6(p.h2h_se),
                fe(p.p_value),
                fe(p.p_holm),
                u8::from(p.significant).to_string(),
                fe(p.diff_var_crn),
                fe(p.diff_var_independent),
                f6(p.diff_var_crn / p.diff_var_independent),
            ]
        })
        .collect();
    let standings_csv = csv_bytes(&header(&STANDINGS_HEADER), &standings_rows)?;
    let pairwise_csv = csv_bytes(&header(&PAIRWISE_HEADER), &pair_rows)?;

    // Summary.
    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "sim tournament {}: {} entrants, {players} players, {} deals, seed {seed} ({threads} threads, {secs:.2} s, {})",
        c.game(),
        names.len(),
        format_count(deals),
        report_line(games_total, secs)
    );
    let _ = writeln!(summary, "{}", arr.how);
    let _ = writeln!(
        summary,
        "every arrangement plays the same {} deals (common random numbers): {} games in all",
        format_count(deals),
        format_count(games_total)
    );
    if !stop_note.is_empty() {
        let _ = writeln!(summary, "{stop_note}");
    }
    describe_sources(&resolved, &mut summary);
    write_standings(&mut summary, c, &names, &report);
    write_pairwise(&mut summary, &names, &report);

    // Charts and workbook.
    let mut contents: Vec<(&str, Vec<u8>)> =
        vec![("standings.csv", standings_csv), ("pairwise.csv", pairwise_csv)];
    let title = format!(
        "{} tournament: {players} players, {} deals x {} arrangements, seed {seed}",
        c.game(),
        format_count(deals),
        arr.seats.len()
    );
    let fair = format!("fair share 1/{players}");
    if !args.common.no_charts {
        let bars: Vec<Bar> = report
            .standings
            .iter()
            .map(|s| Bar {
                name: names[s.entrant].clone(),
                value: s.win_rate,
                ci: s.win_ci,
            })
            .collect();
        let chart = charts::standings(&title, &bars, Some((1.0 / players as f64, &fair)))?;
        contents.push(("standings.svg", chart.svg.into_bytes()));
        contents.push(("standings.png", chart.png));
    }
    let xlsx_bytes = if args.common.xlsx.is_some() {
        Some(tournament_workbook(
            &title,
            &names,
            &report,
            standings_rows,
            pair_rows,
        )?)
    } else {
        None
    };
    files.commit(&contents, xlsx_bytes, &mut summary)?;
    print(&summary)
}

fn print(summary: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    ignore_closed_pipe(out.write_all(summary).and_then(|_| out.flush()))
}

fn write_standings<C: Contest>(w: &mut Vec<u8>, c: &C, names: &[String], report: &Report) {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(7).clamp(7, 40);
    let score_head = c.score_name().unwrap_or("score");
    let _ = writeln!(
        w,
        "{:>4}  {:<width$}  {:>25}  {:>18}  {:>16}  {:>16}",
        "rank", "entrant", "win rate [95% CI]", score_head, "round score", "rating (BT)"
    );
    for s in &report.standings {
        let score = s
            .score
            .map_or("-".to_string(), |(m, se)| format!("{m:.2} ± {se:.2}"));
        let round = s
            .round_score
            .map_or("-".to_string(), |(m, se)| format!("{m:.3} ± {se:.3}"));
        let rating = if s.rating_se.is_finite() {
            format!("{:.1} ± {:.1}", s.rating, s.rating_se)
        } else {
            format!("{:.1}", s.rating)
        };
        let _ = writeln!(
            w,
            "{:>4}  {:<width$}  {:>6.2}% [{:>6.2}, {:>6.2}]  {:>18}  {:>16}  {:>16}",
            s.rank,
            names[s.entrant],
            100.0 * s.win_rate,
            100.0 * s.win_ci.0,
            100.0 * s.win_ci.1,
            score,
            round,
            rating
        );
    }
    if c.score_name().is_none() {
        let _ = writeln!(w, "({} has no per-game score under these options)", c.game());
    }
    if !c.has_rounds() {
        let _ = writeln!(w, "({} is not played in rounds: no round score)", c.game());
    }
}

#[allow(clippy::needless_range_loop)] // entrant indices index names and pairs
fn write_pairwise(w: &mut Vec<u8>, names: &[String], report: &Report) {
    let n = names.len();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(7).clamp(7, 24);
    let _ = writeln!(
        w,
        "head-to-head: of the games won by either of two entrants at the same table, the share the row entrant won"
    );
    let mut line = format!("{:<width$}", "");
    for name in names {
        line.push_str(&format!(" {:>width$}", truncate(name, width)));
    }
    let _ = writeln!(w, "{line}");
    for a in 0..n {
        let mut line = format!("{:<width$}", truncate(&names[a], width));
        for b in 0..n {
            if a == b {
                line.push_str(&format!(" {:>width$}", "-"));
            } else {
                let p = report.pairs.iter().find(|p| p.a == a && p.b == b).expect("pair");
                let mark = if p.significant { "*" } else { " " };
                line.push_str(&format!(" {:>width$}", format!("{:.2}%{mark}", 100.0 * p.h2h)));
            }
        }
        let _ = writeln!(w, "{line}");
    }
    let tests = n * (n - 1) / 2;
    let how = if report.batch_errors {
        "standard errors from batch means"
    } else {
        "fewer than 20 batches of 1024 deals: the larger of the binomial and the batch-means standard errors"
    };
    let _ = writeln!(
        w,
        "* significant: two-sided test of the share against 50%, Holm-corrected for {tests} comparisons at the 5% level ({how})"
    );
    let mut yes = Vec::new();
    let mut no = Vec::new();
    for p in report
        .pairs
        .iter()
        .filter(|p| p.h2h > 0.5 || (p.h2h == 0.5 && p.a < p.b))
    {
        let text = format!(
            "{} over {}: {:.2}% [{:.2}, {:.2}] of their decided games, corrected p {}",
            names[p.a],
            names[p.b],
            100.0 * p.h2h,
            100.0 * p.h2h_ci.0,
            100.0 * p.h2h_ci.1,
            p_text(p.p_holm)
        );
        if p.significant {
            yes.push(text)
        } else {
            no.push(text)
        }
    }
    if yes.is_empty() {
        let _ = writeln!(w, "no difference between entrants is statistically significant");
    } else {
        let _ = writeln!(w, "significant (the first really does better than the second):");
        for t in yes {
            let _ = writeln!(w, "  {t}");
        }
    }
    if !no.is_empty() {
        let _ = writeln!(w, "not significant (could be chance; play more deals to tell):");
        for t in no {
            let _ = writeln!(w, "  {t}");
        }
    }
    let ratios: Vec<f64> = report
        .pairs
        .iter()
        .filter(|p| p.a < p.b)
        .map(|p| p.diff_var_crn / p.diff_var_independent)
        .collect();
    let med = median(ratios.clone());
    if med.is_finite() {
        let lo = ratios
            .iter()
            .copied()
            .filter(|x| x.is_finite())
            .fold(f64::INFINITY, f64::min);
        let hi = ratios
            .iter()
            .copied()
            .filter(|x| x.is_finite())
            .fold(f64::NEG_INFINITY, f64::max);
        let _ = writeln!(
            w,
            "common random numbers: the variance of each pair's win-rate difference is {:.0}% of what independent deals would give (median over pairs; {:.0}% to {:.0}%), worth {:.1}x as many games",
            100.0 * med,
            100.0 * lo,
            100.0 * hi,
            1.0 / med
        );
        let ent = median(
            report
                .standings
                .iter()
                .map(|s| s.var_crn / s.var_independent)
                .collect(),
        );
        let _ = writeln!(
            w,
            "  (for each entrant's own win rate: {:.0}% of the independent-deals variance, median)",
            100.0 * ent
        );
    } else {
        let _ = writeln!(
            w,
            "common random numbers: need at least 2 batches of 1024 deals to measure the variance saved"
        );
    }
}

/// `= 0.012`, `= 3.1e-5`, `< 1e-15` (below what the normal tail
/// approximation can tell apart).
fn p_text(p: f64) -> String {
    if p < 1e-15 {
        "< 1e-15".into()
    } else if p < 0.001 {
        format!("= {p:.1e}")
    } else {
        format!("= {p:.3}")
    }
}

fn truncate(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

fn with_error_columns(sheet: &mut Sheet, value: &str, low: &str, high: &str) -> Option<(u16, u16, u16)> {
    let (v, l, h) = (sheet.col(value)?, sheet.col(low)?, sheet.col(high)?);
    sheet.header.push(format!("{value}_plus"));
    sheet.header.push(format!("{value}_minus"));
    for row in &mut sheet.rows {
        let num = |c: u16| row[c as usize].parse::<f64>().ok();
        let (plus, minus) = match (num(v), num(l), num(h)) {
            (Some(v), Some(l), Some(h)) => (f6(h - v), f6(v - l)),
            _ => (String::new(), String::new()),
        };
        row.push(plus);
        row.push(minus);
    }
    let n = sheet.header.len() as u16;
    Some((v, n - 2, n - 1))
}

fn tournament_workbook(
    title: &str,
    names: &[String],
    report: &Report,
    standings: Vec<Vec<String>>,
    pairwise: Vec<Vec<String>>,
) -> Result<Vec<u8>, String> {
    let mut st = Sheet {
        name: "standings".into(),
        header: header(&STANDINGS_HEADER),
        rows: standings,
    };
    let (v, plus, minus) = with_error_columns(&mut st, "win_rate", "win_rate_ci95_low", "win_rate_ci95_high")
        .ok_or("internal: standings columns")?;
    let entrant = st.col("entrant").ok_or("internal: entrant column")?;
    let rating = st.col("rating").ok_or("internal: rating column")?;
    let rating_se = st.col("rating_stderr").ok_or("internal: rating column")?;
    // The rating's error bars: 1.96 standard errors each way.
    st.header.push("rating_ci95_half".into());
    for row in &mut st.rows {
        let se = row[rating_se as usize].parse::<f64>().ok();
        row.push(se.map_or(String::new(), |s| f6(Z95 * s)));
    }
    let half = st.header.len() as u16 - 1;
    let rows = st.rows.len() as u32;
    let pw = Sheet {
        name: "pairwise".into(),
        header: header(&PAIRWISE_HEADER),
        rows: pairwise,
    };
    // The matrix view of the head-to-head shares.
    let n = names.len();
    let mut matrix_header = vec!["entrant".to_string()];
    matrix_header.extend(names.iter().cloned());
    let matrix = Sheet {
        name: "head-to-head".into(),
        header: matrix_header,
        rows: (0..n)
            .map(|a| {
                let mut row = vec![names[a].clone()];
                for b in 0..n {
                    row.push(
                        report
                            .pairs
                            .iter()
                            .find(|p| p.a == a && p.b == b)
                            .map_or(String::new(), |p| f6(p.h2h)),
                    );
                }
                row
            })
            .collect(),
    };
    let charts = [
        ChartSpec {
            sheet: 0,
            columns: true,
            title: title.to_string(),
            x_title: "entrant".into(),
            y_title: "win rate (error bars: 95% CI)".into(),
            y_format: Some("0.0%".into()),
            series: vec![Series {
                name: "win rate".into(),
                x_col: entrant,
                y_col: v,
                error_cols: Some((plus, minus)),
            }],
            at: (rows + 3, 0),
        },
        ChartSpec {
            sheet: 0,
            columns: true,
            title: "Bradley-Terry rating (error bars: 95% CI)".into(),
            x_title: "entrant".into(),
            y_title: "rating (Elo scale)".into(),
            y_format: Some("0".into()),
            series: vec![Series {
                name: "rating".into(),
                x_col: entrant,
                y_col: rating,
                error_cols: Some((half, half)),
            }],
            at: (rows + 3 + 23, 0),
        },
    ];
    xlsx::workbook(&[st, pw, matrix], &charts)
}

fn run_sweep<T: Args + Contest>(args: &SweepArgs<T>) -> Result<(), String> {
    let c = &args.table;
    let dir = cwd()?;
    let points = expand(&args.policy).map_err(|e| format!("--policy '{}': {e}", args.policy))?;
    let field_word = args
        .field
        .clone()
        .unwrap_or_else(|| c.default_policy().to_string());
    let field = c
        .resolve(&field_word, &dir)
        .map_err(|e| format!("--field '{field_word}': {e}"))?;
    let players = c.players();
    let mut swept = Vec::with_capacity(points.len());
    for p in &points {
        let r = c
            .resolve(&p.spec, &dir)
            .map_err(|e| format!("--policy '{}' at value {}: {e}", args.policy, p.text))?;
        let mut lineup = vec![r.policy.clone()];
        lineup.extend(std::iter::repeat_n(field.policy.clone(), players - 1));
        swept.push(c.simulation(&lineup)?);
    }

    let seed = args.common.seed.unwrap_or_else(rand::random);
    let threads = args.common.threads();
    let mut parts = vec![
        "sweep".to_string(),
        c.game().to_string(),
        file_label(std::slice::from_ref(&args.policy)),
    ];
    if players > 1 {
        parts.push(format!("vs-{}", file_label(std::slice::from_ref(&field_word))));
    }
    parts.push(format!("{players}p"));
    parts.push(format_count(args.games));
    parts.extend(c.name_extras());
    parts.push(format!("seed{seed}"));
    let out_dir = args
        .common
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(parts.join("_")));
    let mut file_names = vec!["sweep.csv"];
    if !args.common.no_charts {
        file_names.extend(["sweep.svg", "sweep.png"]);
    }
    let files = Files::prepare(&out_dir, &file_names, args.common.xlsx.as_ref())?;

    let cfg = RunConfig {
        games: args.games,
        seed,
        threads,
        progress: false,
    };
    let start = Instant::now();
    let mut header_row = vec!["parameter".to_string(), "value".to_string()];
    header_row.extend(c.csv_header());
    let mut rows = Vec::with_capacity(points.len());
    let mut results: Vec<(u64, SeatResult)> = Vec::with_capacity(points.len());
    for (p, sim) in points.iter().zip(&swept) {
        let acc = runner::run(sim, &cfg)?;
        let mut names = vec![p.spec.clone()];
        names.extend(std::iter::repeat_n(field_word.clone(), players - 1));
        let mut row = vec![args.policy.clone(), p.text.clone()];
        row.extend(c.csv_rows(&acc, &names).swap_remove(0));
        rows.push(row);
        let (games, seats) = c.results(&acc);
        results.push((games, seats[0]));
    }
    let secs = start.elapsed().as_secs_f64();
    let csv = csv_bytes(&header_row, &rows)?;

    let mut summary = Vec::new();
    let total = args.games * points.len() as u64;
    let _ = writeln!(
        summary,
        "sim sweep {}: {} values of {}, {players} players, {} games each, seed {seed} ({threads} threads, {secs:.2} s, {})",
        c.game(),
        points.len(),
        args.policy,
        format_count(args.games),
        report_line(total, secs)
    );
    if players > 1 {
        let _ = writeln!(
            summary,
            "the swept policy plays seat 0, {field_word} every other seat; every value plays the same deals (common random numbers)"
        );
    }
    let _ = writeln!(
        summary,
        "{:>10}  {:>25}  {:>18}",
        "value",
        "seat 0 win rate [95% CI]",
        if c.has_rounds() { "round score" } else { "" }
    );
    let mut win_points = Vec::new();
    let mut round_points = Vec::new();
    for (p, (games, r)) in points.iter().zip(&results) {
        let rate = r.wins as f64 / (*games).max(1) as f64;
        let (lo, hi) = wilson95(r.wins, *games);
        win_points.push((p.value, rate, lo, hi));
        let round = if c.has_rounds() {
            let (m, se) = mean_stderr(
                r.rounds,
                u128::from(r.round_score_sum),
                u128::from(r.round_score_sq),
            );
            round_points.push((p.value, m, m - Z95 * se, m + Z95 * se));
            format!("{m:.3} ± {se:.3}")
        } else {
            String::new()
        };
        let _ = writeln!(
            summary,
            "{:>10}  {:>6.2}% [{:>6.2}, {:>6.2}]  {:>18}",
            p.text,
            100.0 * rate,
            100.0 * lo,
            100.0 * hi,
            round
        );
    }
    if !c.has_rounds() {
        let _ = writeln!(summary, "({} is not played in rounds: no round score)", c.game());
    }
    let best = win_points
        .iter()
        .zip(&points)
        .max_by(|a, b| a.0.1.total_cmp(&b.0.1))
        .map(|(_, p)| p.spec.clone());
    if let Some(best) = best
        && players > 1
    {
        let _ = writeln!(summary, "highest win rate: {best}");
    }

    let title = format!(
        "{} sweep of {}: {players} players, {} games per value, seed {seed}",
        c.game(),
        args.policy,
        format_count(args.games)
    );
    let mut contents: Vec<(&str, Vec<u8>)> = vec![("sweep.csv", csv)];
    if !args.common.no_charts {
        let mut panels = Vec::new();
        if c.has_rounds() {
            panels.push(Panel {
                title: "mean round score of the swept policy".into(),
                y_label: "points per round".into(),
                points: round_points,
                reference: None,
                percent: false,
            });
        }
        panels.push(Panel {
            title: if players > 1 {
                format!("win rate against {field_word}")
            } else {
                "win rate".into()
            },
            y_label: "win rate".into(),
            points: win_points,
            reference: (players > 1).then(|| (1.0 / players as f64, format!("fair share 1/{players}"))),
            percent: true,
        });
        let chart = charts::sweep(&title, &args.policy, &panels)?;
        contents.push(("sweep.svg", chart.svg.into_bytes()));
        contents.push(("sweep.png", chart.png));
    }
    let xlsx_bytes = if args.common.xlsx.is_some() {
        Some(sweep_workbook(&title, c.has_rounds(), header_row, rows)?)
    } else {
        None
    };
    files.commit(&contents, xlsx_bytes, &mut summary)?;
    print(&summary)
}

fn sweep_workbook(
    title: &str,
    rounds: bool,
    header_row: Vec<String>,
    rows: Vec<Vec<String>>,
) -> Result<Vec<u8>, String> {
    let mut sheet = Sheet {
        name: "sweep".into(),
        header: header_row,
        rows,
    };
    let x = sheet.col("value").ok_or("internal: value column")?;
    let (v, plus, minus) =
        with_error_columns(&mut sheet, "win_rate", "win_rate_ci95_low", "win_rate_ci95_high")
            .ok_or("internal: win rate columns")?;
    let at_row = sheet.rows.len() as u32 + 3;
    let mut charts = vec![ChartSpec {
        sheet: 0,
        columns: false,
        title: format!("win rate: {title}"),
        x_title: "value".into(),
        y_title: "win rate (error bars: 95% CI)".into(),
        y_format: Some("0.0%".into()),
        series: vec![Series {
            name: "win rate".into(),
            x_col: x,
            y_col: v,
            error_cols: Some((plus, minus)),
        }],
        at: (at_row, 0),
    }];
    if rounds && let (Some(m), Some(se)) = (sheet.col("mean_round_score"), sheet.col("round_score_stderr")) {
        sheet.header.push("round_score_ci95_half".into());
        for row in &mut sheet.rows {
            let s = row[se as usize].parse::<f64>().ok();
            row.push(s.map_or(String::new(), |s| f6(Z95 * s)));
        }
        let half = sheet.header.len() as u16 - 1;
        charts.push(ChartSpec {
            sheet: 0,
            columns: false,
            title: format!("mean round score: {title}"),
            x_title: "value".into(),
            y_title: "points per round (error bars: 95% CI)".into(),
            y_format: Some("0.0".into()),
            series: vec![Series {
                name: "mean round score".into(),
                x_col: x,
                y_col: m,
                error_cols: Some((half, half)),
            }],
            at: (at_row + 23, 0),
        });
    }
    xlsx::workbook(&[sheet], &charts)
}
