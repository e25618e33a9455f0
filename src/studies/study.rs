//! `study.json`, what a tournament or sweep folder says about its run
//! beside its CSVs (the game, the command line, the seed, the version, the
//! date, and what its page needs that the CSVs do not hold), and `sim
//! report DIR`, which rebuilds `report.html` and the charts of a finished
//! study from those files alone.
//!
//! A study's page and charts are always made from its files: the run
//! writes its CSVs and `study.json`, reads them back through
//! [`rebuild`] and writes what that gives. So `sim report DIR` makes the
//! same bytes as the run did, also after `sim merge` (which runs the same
//! code), and never a page that says something the CSVs do not.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::tournament::{PAIRWISE_HEADER, STANDINGS_HEADER};
use crate::analysis::standings::{Pair, Report, Standing};
use crate::engine::columns::RUN_COLUMNS;
use crate::engine::failure::Failure;
use crate::engine::output::{Output, commit_all};
use crate::engine::show::ShowArgs;
use crate::report::page::{self, Study, SweepStudy};

/// The name of the metadata file in a study's folder.
pub const STUDY_FILE: &str = "study.json";

/// The format of [`StudyFile`] this `sim` writes and reads.
pub const FORMAT: u32 = 1;

/// Which command made a study.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `sim tournament GAME`.
    Tournament,
    /// `sim sweep GAME`.
    Sweep,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Tournament => "tournament",
            Kind::Sweep => "sweep",
        }
    }
}

/// `study.json`: what a study's folder says about its run besides its
/// CSVs.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct StudyFile {
    /// [`FORMAT`].
    pub format: u32,
    /// Tournament or sweep.
    pub kind: Kind,
    /// The game's name (`flip7`).
    pub game: String,
    /// The `sim` that ran it.
    pub sim_version: String,
    /// The command line, as run (the whole run's, after `sim merge`).
    pub command: String,
    /// The seed (a string, as everywhere in JSON).
    pub seed: String,
    /// When the run was made (`2026-11-26 22:00:00 UTC`).
    pub date: String,
    /// Players at each table.
    pub players: usize,
    /// What a tournament's page needs besides its CSVs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentPart>,
    /// What a sweep's page needs besides its CSV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepPart>,
}

/// The tournament part of [`StudyFile`].
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct TournamentPart {
    /// Entrant labels, in the order given (`--policies`).
    pub entrants: Vec<String>,
    /// Each entrant's policy spec, in the same order.
    pub policies: Vec<String>,
    /// Seat arrangements played on every deal.
    pub arrangements: usize,
    /// Whether games end in a finishing order (mean place shown).
    pub has_places: bool,
    /// The per-game score's name, for a game with one.
    pub score: Option<String>,
    /// The independent units the errors come from.
    pub units: u64,
    /// Batches of 1024 deals played.
    pub batches: usize,
}

/// The sweep part of [`StudyFile`].
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SweepPart {
    /// The swept spec, as given (`stay-at-{10..40}`).
    pub policy: String,
    /// The field, as given (every seat but seat 0).
    pub field: String,
    /// Games per value.
    pub games: u64,
    /// Each value as a number (the chart's x).
    pub values: Vec<f64>,
    /// For a game with rounds: each value's mean round score and its 95%
    /// interval (the chart's upper panel; the CSV holds the mean and its
    /// error, not the interval).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_score: Option<Vec<[Option<f64>; 3]>>,
}

impl StudyFile {
    /// The file's bytes (pretty JSON, ending with a newline).
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut b = serde_json::to_vec_pretty(self).map_err(|e| format!("internal: study.json: {e}"))?;
        b.push(b'\n');
        Ok(b)
    }

    /// Reads `study.json` from its bytes; `shown` names it in errors.
    pub fn from_bytes(bytes: &[u8], shown: &str) -> Result<StudyFile, String> {
        // The format first, so that a newer file says so rather than
        // failing on a field this sim does not know.
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|e| format!("'{shown}' is not a study file this sim can read: not JSON: {e}"))?;
        match value.get("format").and_then(serde_json::Value::as_u64) {
            Some(f) if f == u64::from(FORMAT) => {}
            Some(f) => {
                return Err(format!(
                    "'{shown}' is of format {f}; this sim reads format {FORMAT}: rebuild the page with \
                     the sim that ran the study ({})",
                    value
                        .get("sim_version")
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or("its version is not given")
                ));
            }
            None => {
                return Err(format!(
                    "'{shown}' is not a study file: it has no \"format\" number"
                ));
            }
        }
        let study: StudyFile = serde_json::from_value(value)
            .map_err(|e| format!("'{shown}' is not a study file this sim can read: {e}"))?;
        let part = match study.kind {
            Kind::Tournament => study.tournament.is_some(),
            Kind::Sweep => study.sweep.is_some(),
        };
        if !part {
            return Err(format!(
                "'{shown}' says it is a {} but has no \"{}\" part",
                study.kind.word(),
                study.kind.word()
            ));
        }
        Ok(study)
    }

    /// The seed as a number.
    fn seed(&self, shown: &str) -> Result<u64, String> {
        self.seed
            .parse()
            .map_err(|_| format!("'{shown}': seed '{}' is not a whole number", self.seed))
    }
}

/// A CSV read back: its header and rows, without the run columns every
/// CSV ends with, which are checked against the study's seed and version.
struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn read(bytes: &[u8], name: &str, study: &StudyFile, expected: Option<&[&str]>) -> Result<Csv, String> {
        let mut r = csv::Reader::from_reader(bytes);
        let mut header: Vec<String> = r
            .headers()
            .map_err(|e| format!("{name}: {e}"))?
            .iter()
            .map(String::from)
            .collect();
        let n = header.len();
        if n < RUN_COLUMNS.len() || header[n - 2..] != RUN_COLUMNS {
            return Err(format!(
                "{name} does not end with the columns {} every CSV of this sim ends with",
                RUN_COLUMNS.join(", ")
            ));
        }
        header.truncate(n - 2);
        if let Some(want) = expected
            && header != want
        {
            let missing: Vec<&str> = want
                .iter()
                .filter(|w| !header.iter().any(|h| h == *w))
                .copied()
                .collect();
            return Err(format!(
                "{name} does not have the columns this sim writes{}",
                if missing.is_empty() {
                    " (they differ in order)".to_string()
                } else {
                    format!(" (missing: {})", missing.join(", "))
                }
            ));
        }
        let mut rows = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| format!("{name}: {e}"))?;
            let mut row: Vec<String> = rec.iter().map(String::from).collect();
            if row.len() != n {
                return Err(format!("{name}: a row has {} fields, the header {n}", row.len()));
            }
            let version = row.pop().unwrap_or_default();
            let seed = row.pop().unwrap_or_default();
            if seed != study.seed {
                return Err(format!(
                    "{name} is of seed {seed} but {STUDY_FILE} of seed {}: the files are of two runs",
                    study.seed
                ));
            }
            if version != study.sim_version {
                return Err(format!(
                    "{name} was written by sim {version} but {STUDY_FILE} by sim {}: the files are of two runs",
                    study.sim_version
                ));
            }
            rows.push(row);
        }
        Ok(Csv { header, rows })
    }

    fn col(&self, name: &str) -> Result<usize, String> {
        self.header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no column {name}"))
    }
}

/// A float of a CSV field: NaN when empty, an error when not a number.
fn num(text: &str, what: &str) -> Result<f64, String> {
    if text.is_empty() {
        return Ok(f64::NAN);
    }
    text.parse()
        .map_err(|_| format!("{what}: '{text}' is not a number"))
}

fn whole(text: &str, what: &str) -> Result<u64, String> {
    if text.is_empty() {
        return Ok(0);
    }
    text.parse()
        .map_err(|_| format!("{what}: '{text}' is not a whole number"))
}

/// The analysis of a tournament as its CSVs give it (every figure as
/// written, to six decimals); `t` says what the CSVs do not.
fn tournament_report(t: &TournamentPart, standings: &Csv, pairwise: &Csv) -> Result<Report, String> {
    let (rows, deals) = read_standings(t, standings)?;
    if rows.len() != t.entrants.len() {
        return Err(format!(
            "standings.csv has {} rows for the {} entrants of {STUDY_FILE}",
            rows.len(),
            t.entrants.len()
        ));
    }
    let pairs = read_pairs(t, pairwise)?;
    let n = t.entrants.len();
    if pairs.len() != n * n.saturating_sub(1) {
        return Err(format!(
            "pairwise.csv has {} rows; {n} entrants make {} ordered pairs",
            pairs.len(),
            n * n.saturating_sub(1)
        ));
    }
    Ok(Report {
        standings: rows,
        pairs,
        deals,
        batches: t.batches,
        units: t.units,
    })
}

/// The index of the entrant `name` among `t`'s; `file` names the CSV that
/// gave the name in the error.
fn entrant_index(t: &TournamentPart, name: &str, file: &str) -> Result<usize, String> {
    t.entrants
        .iter()
        .position(|e| e == name)
        .ok_or_else(|| format!("{file}: entrant '{name}' is not one of {STUDY_FILE}'s"))
}

/// Each entrant's standing as standings.csv (`s`) gives it, and the deals
/// played (its last row's).
fn read_standings(t: &TournamentPart, s: &Csv) -> Result<(Vec<Standing>, u64), String> {
    let c = |name: &str| s.col(name).map_err(|e| format!("standings.csv: {e}"));
    let mut rows = Vec::new();
    let mut deals = 0;
    for row in &s.rows {
        let f = |name: &str| -> Result<f64, String> { num(&row[c(name)?], name) };
        let w = |name: &str| -> Result<u64, String> { whole(&row[c(name)?], name) };
        deals = w("deals")?;
        rows.push(Standing {
            rank: w("rank")? as usize,
            entrant: entrant_index(t, &row[c("entrant")?], "standings.csv")?,
            games: w("games")?,
            wins: w("wins")?,
            win_rate: f("win_rate")?,
            win_ci: (f("win_rate_ci95_low")?, f("win_rate_ci95_high")?),
            losses: w("losses")?,
            loss: t.has_places.then_some((
                f("loss_rate")?,
                (f("loss_rate_ci95_low")?, f("loss_rate_ci95_high")?),
            )),
            place: t
                .has_places
                .then_some((f("mean_place")?, f("mean_place_stderr")?)),
            score: t
                .score
                .is_some()
                .then_some((f("mean_score")?, f("mean_score_stderr")?)),
            rounds: w("rounds")?,
            round_score: if row[c("mean_round_score")?].is_empty() {
                None
            } else {
                Some((f("mean_round_score")?, f("round_score_stderr")?))
            },
            rating: f("rating")?,
            rating_se: f("rating_stderr")?,
            var_crn: f("win_rate_variance_crn")?,
            var_independent: f("win_rate_variance_independent")?,
        });
    }
    Ok((rows, deals))
}

/// Each ordered pair as pairwise.csv (`p`) gives it.
fn read_pairs(t: &TournamentPart, p: &Csv) -> Result<Vec<Pair>, String> {
    let c = |name: &str| p.col(name).map_err(|e| format!("pairwise.csv: {e}"));
    let mut pairs = Vec::new();
    for row in &p.rows {
        let f = |name: &str| -> Result<f64, String> { num(&row[c(name)?], name) };
        let w = |name: &str| -> Result<u64, String> { whole(&row[c(name)?], name) };
        let p_value = f("p_value")?;
        let p_holm = f("p_holm")?;
        pairs.push(Pair {
            a: entrant_index(t, &row[c("entrant")?], "pairwise.csv")?,
            b: entrant_index(t, &row[c("opponent")?], "pairwise.csv")?,
            games_together: w("games_together")?,
            a_wins: w("entrant_wins")?,
            b_wins: w("opponent_wins")?,
            h2h: f("h2h_share")?,
            h2h_ci: (f("h2h_ci95_low")?, f("h2h_ci95_high")?),
            h2h_se: f("h2h_stderr")?,
            p_value,
            p_holm,
            significant: row[c("significant")?] == "1",
            diff_var_crn: f("diff_variance_crn")?,
            diff_var_independent: f("diff_variance_independent")?,
        });
    }
    Ok(pairs)
}

/// What a study's files give: the analysis the console shows (for a
/// tournament), the conclusion, and the page and charts to write.
pub struct Rebuilt {
    /// A tournament's analysis as its CSVs give it.
    pub report: Option<Report>,
    /// The conclusion, a sentence a line.
    pub conclusion: Vec<String>,
    /// `(file name, bytes)` of the charts (when asked for) and the page
    /// (when asked for).
    pub files: Vec<(&'static str, Vec<u8>)>,
}

/// Makes the page and the charts of a study from its files: `study` (the
/// bytes of `study.json`) and `csvs` (`(name, bytes)` of its CSVs).
/// `charts` and `page` say which to make.
pub fn rebuild(study: &[u8], csvs: &[(&str, &[u8])], charts: bool, page: bool) -> Result<Rebuilt, String> {
    let meta = StudyFile::from_bytes(study, STUDY_FILE)?;
    let seed = meta.seed(STUDY_FILE)?;
    let request = Request {
        meta: &meta,
        csvs,
        seed,
        charts,
        page,
    };
    match meta.kind {
        Kind::Tournament => rebuild_tournament(&request),
        Kind::Sweep => rebuild_sweep(&request),
    }
}

/// What [`rebuild`] is asked for: the study's `study.json` (read), its
/// seed and CSVs, and whether to make the charts and the page.
struct Request<'a> {
    meta: &'a StudyFile,
    csvs: &'a [(&'a str, &'a [u8])],
    seed: u64,
    charts: bool,
    page: bool,
}

impl<'a> Request<'a> {
    /// The bytes of the CSV `name`.
    fn csv(&self, name: &str) -> Result<&'a [u8], String> {
        self.csvs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| *b)
            .ok_or_else(|| format!("{name} is missing"))
    }
}

/// [`rebuild`] of a tournament: its analysis, conclusion, page and the
/// standings and head-to-head charts.
fn rebuild_tournament(r: &Request<'_>) -> Result<Rebuilt, String> {
    let meta = r.meta;
    let t = meta.tournament.as_ref().expect("checked when read");
    let standings = Csv::read(
        r.csv("standings.csv")?,
        "standings.csv",
        meta,
        Some(&STANDINGS_HEADER),
    )?;
    let pairwise = Csv::read(
        r.csv("pairwise.csv")?,
        "pairwise.csv",
        meta,
        Some(&PAIRWISE_HEADER),
    )?;
    let report = tournament_report(t, &standings, &pairwise)?;
    let study = Study {
        game: &meta.game,
        names: &t.entrants,
        specs: &t.policies,
        players: meta.players,
        arrangements: t.arrangements,
        has_places: t.has_places,
        score: t.score.as_deref(),
        seed: r.seed,
        command: &meta.command,
        date: &meta.date,
        version: &meta.sim_version,
    };
    let conclusion = crate::analysis::console::conclusion(&t.entrants, &report);
    let mut files: Vec<(&'static str, Vec<u8>)> = Vec::new();
    if r.charts || r.page {
        let forest = page::standings_chart(&study, &report)?;
        let heat = page::head_to_head_chart(&study, &report)?;
        if r.page {
            files.push((
                "report.html",
                page::tournament_page(&study, &report, &forest, &heat).into_bytes(),
            ));
        }
        if r.charts {
            files.push(("standings.svg", forest.svg.into_bytes()));
            files.push(("standings.png", forest.png));
            files.push(("head-to-head.svg", heat.svg.into_bytes()));
            files.push(("head-to-head.png", heat.png));
        }
    }
    Ok(Rebuilt {
        report: Some(report),
        conclusion,
        files,
    })
}

/// [`rebuild`] of a sweep: its conclusion, page and chart.
fn rebuild_sweep(r: &Request<'_>) -> Result<Rebuilt, String> {
    let (meta, seed) = (r.meta, r.seed);
    let s = meta.sweep.as_ref().expect("checked when read");
    let table = Csv::read(r.csv("sweep.csv")?, "sweep.csv", meta, None)?;
    let (conclusion, chart) = page::sweep_chart(meta, s, &table.header, &table.rows, seed)?;
    let mut files: Vec<(&'static str, Vec<u8>)> = Vec::new();
    if r.page {
        let title = page::sweep_title(&meta.game, &s.policy);
        let run_line = page::sweep_run_line(meta.players, s.games, seed);
        files.push((
            "report.html",
            page::sweep_page(&SweepStudy {
                title: &title,
                run_line: &run_line,
                conclusion: &conclusion,
                header: &table.header,
                rows: &table.rows,
                chart: &chart,
                command: &meta.command,
                seed,
                date: &meta.date,
                version: &meta.sim_version,
            })
            .into_bytes(),
        ));
    }
    if r.charts {
        files.push(("sweep.svg", chart.svg.into_bytes()));
        files.push(("sweep.png", chart.png));
    }
    Ok(Rebuilt {
        report: None,
        conclusion,
        files,
    })
}

/// The CSVs each kind of study has.
fn csv_names(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Tournament => &["standings.csv", "pairwise.csv"],
        Kind::Sweep => &["sweep.csv"],
    }
}

/// What `sim report DIR` is told.
pub struct ReportArgs {
    /// The study's folder.
    pub dir: PathBuf,
    /// Rebuild the page only, not the charts.
    pub no_charts: bool,
    /// Text, JSON or no summary.
    pub show: ShowArgs,
}

/// The refusal of a folder without `study.json`: what it is instead.
fn not_a_study(dir: &Path) -> String {
    let shown = dir.display();
    let csv_seed = |name: &str| -> Option<String> {
        let bytes = std::fs::read(dir.join(name)).ok()?;
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let seed = r.headers().ok()?.iter().position(|h| h == "seed")?;
        let rec = r.records().next()?.ok()?;
        rec.get(seed).map(String::from)
    };
    let older = [("standings.csv", "tournament"), ("sweep.csv", "sweep")]
        .into_iter()
        .find(|(f, _)| dir.join(f).is_file());
    match older {
        Some((file, kind)) => {
            let seed = csv_seed(file).map_or(String::new(), |s| format!(" with --seed {s}"));
            format!(
                "'{shown}' holds a {kind}'s {file} but no {STUDY_FILE}, which sim report needs (the game, \
                 the command line, the date): the {kind} was run by an older sim, or {STUDY_FILE} was \
                 removed. Run the {kind} again with this sim{seed} (the same seed plays the same games); \
                 it writes {STUDY_FILE} and report.html"
            )
        }
        None => format!(
            "'{shown}' is not the folder of a tournament or sweep: it has no {STUDY_FILE}, standings.csv \
             or sweep.csv; give the folder a sim tournament or sim sweep wrote (its --out)"
        ),
    }
}

/// `sim report DIR`: rebuilds `report.html` (and the charts) of the
/// finished study in `DIR` from its files.
pub fn report(args: &ReportArgs) -> Result<(), Failure> {
    let dir = &args.dir;
    let shown = dir.display();
    check_folder(dir)?;
    let (study_bytes, meta) = read_study(dir)?;
    let csvs = read_csvs(dir, &meta)?;
    let outputs = prepare_outputs(dir, meta.kind, args.no_charts)?;
    let borrowed: Vec<(&str, &[u8])> = csvs.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    let rebuilt = rebuild(&study_bytes, &borrowed, !args.no_charts, true)
        .map_err(|e| Failure::Usage(format!("'{shown}': {e}")))?;
    let mut items: Vec<(Output, &[u8])> = Vec::new();
    for (out, name) in outputs {
        let bytes = rebuilt
            .files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.as_slice())
            .ok_or_else(|| format!("internal: no content for {name}"))?;
        items.push((out, bytes));
    }
    let written: Vec<PathBuf> = commit_all(items)?.into_iter().flatten().collect();
    let summary = report_summary(&meta, &rebuilt, &written);
    let json = serde_json::json!({
        "command": "report",
        "study": meta.kind.word(),
        "game": meta.game,
        "seed": meta.seed,
        "sim_version": meta.sim_version,
        "run": meta.command,
        "conclusion": rebuilt.conclusion,
    });
    Ok(args.show.show(&summary, json, &written)?)
}

/// Refuses a `dir` that does not exist, cannot be read or is a file.
fn check_folder(dir: &Path) -> Result<(), Failure> {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Failure::Usage(format!(
                "DIR '{shown}' does not exist; give the folder of a finished tournament or sweep (the \
                 folder its --out named, or the one it printed)"
            )));
        }
        Err(e) => return Err(Failure::Usage(format!("DIR '{shown}': cannot read it: {e}"))),
        Ok(m) if !m.is_dir() => {
            return Err(Failure::Usage(format!(
                "DIR '{shown}' is a file, not a folder; give the folder of a finished tournament or \
                 sweep (the one holding its {STUDY_FILE})"
            )));
        }
        Ok(_) => {}
    }
    Ok(())
}

/// The bytes of the `study.json` in `dir`, and what they say.
fn read_study(dir: &Path) -> Result<(Vec<u8>, StudyFile), Failure> {
    let study_path = dir.join(STUDY_FILE);
    let study_bytes = match std::fs::read(&study_path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Failure::Usage(not_a_study(dir)));
        }
        Err(e) => {
            return Err(Failure::Run(format!(
                "cannot read '{}': {e}",
                study_path.display()
            )));
        }
    };
    let path_shown = study_path.display().to_string();
    let meta = StudyFile::from_bytes(&study_bytes, &path_shown).map_err(Failure::Usage)?;
    Ok((study_bytes, meta))
}

/// `(name, bytes)` of each CSV in `dir` that the study `meta` has.
fn read_csvs(dir: &Path, meta: &StudyFile) -> Result<Vec<(&'static str, Vec<u8>)>, Failure> {
    let shown = dir.display();
    let mut csvs: Vec<(&str, Vec<u8>)> = Vec::new();
    for name in csv_names(meta.kind) {
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(b) => csvs.push((name, b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Failure::Usage(format!(
                    "'{shown}' is a {} study but has no {name}; it cannot be rebuilt without it (run the {} \
                     again: {})",
                    meta.kind.word(),
                    meta.kind.word(),
                    meta.command
                )));
            }
            Err(e) => return Err(Failure::Run(format!("cannot read '{}': {e}", path.display()))),
        }
    }
    Ok(csvs)
}

/// Every file `sim report` writes in `dir` for a study of `kind` (the
/// page, and the charts unless `no_charts`), each checked before anything
/// is made, with its name.
fn prepare_outputs(dir: &Path, kind: Kind, no_charts: bool) -> Result<Vec<(Output, &'static str)>, Failure> {
    let mut names = vec!["report.html"];
    if !no_charts {
        names.extend(match kind {
            Kind::Tournament => &[
                "standings.svg",
                "standings.png",
                "head-to-head.svg",
                "head-to-head.png",
            ][..],
            Kind::Sweep => &["sweep.svg", "sweep.png"][..],
        });
    }
    names
        .iter()
        .map(|n| Output::prepare(&dir.join(n), "sim report DIR").map(|o| (o, *n)))
        .collect::<Result<_, _>>()
        .map_err(Failure::Run)
}

/// What `sim report` says when done: the study and the files it was
/// rebuilt from, the command that ran it, its conclusion and the files
/// `written`.
fn report_summary(meta: &StudyFile, rebuilt: &Rebuilt, written: &[PathBuf]) -> Vec<u8> {
    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "sim report: the {} {} of {} (sim {}, seed {}), rebuilt from {}",
        meta.game,
        meta.kind.word(),
        meta.date,
        meta.sim_version,
        meta.seed,
        std::iter::once(STUDY_FILE)
            .chain(csv_names(meta.kind).iter().copied())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(summary, "run: {}", meta.command);
    for line in &rebuilt.conclusion {
        let _ = writeln!(summary, "{line}");
    }
    for p in written {
        let _ = writeln!(summary, "wrote {}", p.display());
    }
    summary
}
