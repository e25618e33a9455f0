//! `study.json`, what a tournament or sweep folder says about its run
//! beside its CSVs (the game, the command line, the seed, the version, the
//! date, and what its page needs that the CSVs do not hold), and a
//! study's files read back ([`read_back`]) into what its console, page and
//! charts say.
//!
//! A study's page and charts are always made from its files: the run
//! writes its CSVs and `study.json`, reads them back through
//! [`read_back`], and the report layer makes the pages from that
//! ([`crate::report::study`]). So `sim report DIR` makes the same bytes
//! as the run did, also after `sim merge` (which runs the same code), and
//! never a page that says something the CSVs do not.

use serde::{Deserialize, Serialize};

use super::tournament::{PAIRWISE_HEADER, STANDINGS_HEADER};
use crate::analysis::console::region_sentence;
use crate::analysis::standings::best_region;
use crate::analysis::standings::{Pair, Report, Standing};
use crate::engine::columns::RUN_COLUMNS;
use crate::engine::failure::Failure;
use crate::engine::stats::wilson95;

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
    /// `tournament` or `sweep`.
    pub fn word(self) -> &'static str {
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
pub struct Csv {
    /// The header.
    pub header: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<String>>,
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

/// A study's files read back: what they say, as its console, page and
/// charts give it.
pub struct ReadBack {
    /// What `study.json` says.
    pub meta: StudyFile,
    /// The seed.
    pub seed: u64,
    /// A tournament's analysis as its CSVs give it.
    pub report: Option<Report>,
    /// A sweep's table and win rates.
    pub sweep: Option<SweepBack>,
    /// The conclusion, a sentence a line.
    pub conclusion: Vec<String>,
}

/// A sweep's `sweep.csv` read back, with each value's win rate and the
/// best region.
pub struct SweepBack {
    /// The CSV, without the run columns.
    pub table: Csv,
    /// Each value's win rate and its 95% Wilson interval, `(x, rate,
    /// low, high)`.
    pub win_points: Vec<(f64, f64, f64, f64)>,
    /// The best value and those whose interval reaches its interval (rows
    /// of the table), with more than one player.
    pub region: Option<(usize, Vec<usize>)>,
}

/// Reads a study back from its files: `study` (the bytes of `study.json`)
/// and `csvs` (`(name, bytes)` of its CSVs).
pub fn read_back(study: &[u8], csvs: &[(&str, &[u8])]) -> Result<ReadBack, String> {
    let meta = StudyFile::from_bytes(study, STUDY_FILE)?;
    let seed = meta.seed(STUDY_FILE)?;
    let csv = |name: &str| {
        csvs.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| *b)
            .ok_or_else(|| format!("{name} is missing"))
    };
    match meta.kind {
        Kind::Tournament => {
            let t = meta.tournament.as_ref().expect("checked when read");
            let standings = Csv::read(
                csv("standings.csv")?,
                "standings.csv",
                &meta,
                Some(&STANDINGS_HEADER),
            )?;
            let pairwise = Csv::read(
                csv("pairwise.csv")?,
                "pairwise.csv",
                &meta,
                Some(&PAIRWISE_HEADER),
            )?;
            let report = tournament_report(t, &standings, &pairwise)?;
            let conclusion = crate::analysis::console::conclusion(&t.entrants, &report);
            Ok(ReadBack {
                meta,
                seed,
                report: Some(report),
                sweep: None,
                conclusion,
            })
        }
        Kind::Sweep => {
            let table = Csv::read(csv("sweep.csv")?, "sweep.csv", &meta, None)?;
            let (sweep, conclusion) = sweep_back(&meta, table)?;
            Ok(ReadBack {
                meta,
                seed,
                report: None,
                sweep: Some(sweep),
                conclusion,
            })
        }
    }
}

/// A sweep's win rates, best region and conclusion, from its CSV `table`
/// and what `meta` adds.
fn sweep_back(meta: &StudyFile, table: Csv) -> Result<(SweepBack, Vec<String>), String> {
    let s = meta.sweep.as_ref().expect("checked when read");
    let col = |name: &str| {
        table
            .header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("sweep.csv: no column {name}"))
    };
    let (games, wins, spec) = (col("games")?, col("wins")?, col("policy")?);
    let rows = &table.rows;
    if rows.len() != s.values.len() {
        return Err(format!(
            "sweep.csv has {} rows for the {} values of study.json",
            rows.len(),
            s.values.len()
        ));
    }
    let win_points = win_rate_points(rows, &s.values, games, wins)?;
    let region = best_region(&win_points.iter().map(|q| (q.1, q.2, q.3)).collect::<Vec<_>>())
        .filter(|_| meta.players > 1);
    let conclusion = region
        .iter()
        .map(|(top, near)| {
            region_sentence(
                &rows[*top][spec],
                &near.iter().map(|&i| rows[i][spec].clone()).collect::<Vec<_>>(),
            )
        })
        .collect();
    let back = SweepBack {
        table,
        win_points,
        region,
    };
    Ok((back, conclusion))
}

/// Each value's win rate and its 95% Wilson interval, `(x, rate, low,
/// high)`, from the `games` and `wins` columns of the sweep's rows.
fn win_rate_points(
    rows: &[Vec<String>],
    values: &[f64],
    games: usize,
    wins: usize,
) -> Result<Vec<(f64, f64, f64, f64)>, String> {
    let mut win_points = Vec::with_capacity(rows.len());
    for (row, &x) in rows.iter().zip(values) {
        let n: u64 = row[games]
            .parse()
            .map_err(|_| format!("sweep.csv: games '{}' is not a whole number", row[games]))?;
        let w: u64 = row[wins]
            .parse()
            .map_err(|_| format!("sweep.csv: wins '{}' is not a whole number", row[wins]))?;
        let (lo, hi) = wilson95(w, n);
        win_points.push((x, w as f64 / n.max(1) as f64, lo, hi));
    }
    Ok(win_points)
}

/// The CSVs each kind of study has.
pub fn csv_names(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Tournament => &["standings.csv", "pairwise.csv"],
        Kind::Sweep => &["sweep.csv"],
    }
}

/// A tournament or sweep played, analysed and summed up: what is left is
/// its page, charts and workbook, which the report layer makes from
/// [`StudyDone::back`] and [`StudyDone::book`], then its files
/// ([`StudyDone::write`]).
pub struct StudyDone {
    /// The study's files read back.
    pub back: ReadBack,
    /// Whether to make the charts.
    pub charts: bool,
    /// Whether to make the page.
    pub page: bool,
    /// What the workbook holds, when `--xlsx` asks for one.
    pub book: Option<Book>,
    /// The output folder, checked before any game was played.
    pub files: super::files::Files,
    /// `(name, bytes)` of the CSVs.
    pub csvs: Vec<(&'static str, Vec<u8>)>,
    /// The bytes of `study.json`.
    pub study_json: Vec<u8>,
    /// The console summary so far.
    pub summary: Vec<u8>,
    /// The JSON summary.
    pub json: serde_json::Value,
    /// The state files to settle once the files are written.
    pub leftovers: crate::engine::job::Leftovers,
    /// How the summary is shown.
    pub show: crate::engine::show::ShowArgs,
}

/// What a study's workbook holds besides its run: the tables it was
/// written from.
pub struct Book {
    /// The workbook's title.
    pub title: String,
    /// The run's command line.
    pub command: String,
    /// The seed.
    pub seed: u64,
    /// The time the workbook records.
    pub time: i64,
    /// The tables.
    pub tables: BookTables,
}

/// The tables of a study's workbook.
pub enum BookTables {
    /// A tournament: its entrants, and the rows of its standings and
    /// pairwise CSVs.
    Tournament {
        /// The entrants' names.
        names: Vec<String>,
        /// The standings' rows.
        standings: Vec<Vec<String>>,
        /// The pairwise rows.
        pairs: Vec<Vec<String>>,
    },
    /// A sweep: its CSV's header and rows.
    Sweep {
        /// Whether the game has round scores.
        rounds: bool,
        /// The header.
        header: Vec<String>,
        /// The rows.
        rows: Vec<Vec<String>>,
    },
}

impl StudyDone {
    /// Writes the CSVs, `pages` (`(name, bytes)` of the charts and page
    /// made from [`StudyDone::back`]), `study.json` and the workbook
    /// `xlsx`, all or none; settles the state files and shows the summary.
    pub fn write(
        mut self,
        pages: Vec<(&'static str, Vec<u8>)>,
        xlsx: Option<Vec<u8>>,
    ) -> Result<(), Failure> {
        let mut contents: Vec<(&str, Vec<u8>)> = self.csvs;
        contents.extend(pages);
        contents.push((STUDY_FILE, self.study_json));
        let written = self.files.commit(&contents, xlsx, &mut self.summary)?;
        self.leftovers.settle(&mut self.summary);
        Ok(self.show.show(&self.summary, self.json, &written)?)
    }
}
