//! The options of `sim tournament GAME` and `sim sweep GAME`.

use std::path::PathBuf;

use clap::Args;

use crate::engine::args::{parse_count, parse_seed, whole_in};

/// Options every tournament and sweep shares.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Seed (random when not given; always printed). The same seed gives
    /// the same files for any --threads.
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,

    /// Worker threads (default: all cores).
    #[arg(long, value_parser = whole_in::<u16>(1..=1024), allow_hyphen_values = true)]
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

    /// Do not write report.html (the one page with the conclusion, the
    /// tables, the charts, the method and the run).
    #[arg(long)]
    pub no_report: bool,

    /// A folder of strategy files (GAME-NAME.toml) that add to or override
    /// the built-in ones, ./strategies/ and $SIM_STRATEGIES.
    #[arg(long, value_name = "DIR")]
    pub strategies: Option<PathBuf>,

    /// Never show the progress bar (it shows on stderr only when stderr is
    /// a terminal).
    #[arg(long)]
    pub no_progress: bool,

    /// Shards, state files and resuming.
    #[command(flatten)]
    pub job: crate::engine::job::JobArgs,

    /// Text, JSON or no summary.
    #[command(flatten)]
    pub show: crate::engine::show::ShowArgs,
}

/// `sim tournament GAME` options.
#[derive(Args, Debug, Clone)]
pub struct TournamentArgs<T: Args> {
    /// The entrants: specs, strategy names or .toml paths, comma-separated
    /// (at least --players of them; one may be listed twice).
    #[arg(
        long,
        value_name = "A,B,C[,...]",
        required_unless_present_any = ["lineup", "resume"],
        conflicts_with = "lineup"
    )]
    pub policies: Option<String>,

    /// Read the entrants from a line-up file: a strategy file whose
    /// `policy` is a comma-separated list (NAME reads
    /// strategies/GAME-NAME.toml; a path ending in .toml is read as is).
    #[arg(long, value_name = "NAME|PATH")]
    pub lineup: Option<String>,

    #[command(flatten)]
    pub options: T,

    /// Deals: every seat arrangement plays each of them (5000, 250K, 1M).
    /// With --until-ci, the most deals to play.
    #[arg(long, default_value = "10K", value_parser = parse_count, allow_hyphen_values = true)]
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
    #[arg(long, value_name = "SPEC", required_unless_present = "resume")]
    pub policy: Option<String>,

    /// Policy of the other seats (default: the game's default policy).
    #[arg(long, value_name = "SPEC")]
    pub field: Option<String>,

    #[command(flatten)]
    pub options: T,

    /// Games per value (5000, 250K, 10M).
    #[arg(long, default_value = "100K", value_parser = parse_count, allow_hyphen_values = true)]
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
    /// Whether to show a progress bar.
    pub fn progress(&self) -> bool {
        !self.no_progress
    }

    /// `--threads`, or every core.
    pub fn threads(&self) -> usize {
        crate::engine::runner::threads(self.threads)
    }

    /// `--out`, or the folder in results/ named by `parts` joined by `_`.
    pub fn out_dir(&self, parts: &[String]) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("results").join(parts.join("_")))
    }

    /// The time the `--xlsx` workbook records (see
    /// [`crate::engine::version::workbook_time`]), checked before any game is
    /// played; none without `--xlsx`.
    pub fn workbook_time(&self) -> Result<Option<i64>, crate::engine::failure::Failure> {
        match &self.xlsx {
            Some(_) => crate::engine::version::workbook_time()
                .map(Some)
                .map_err(crate::engine::failure::Failure::Usage),
            None => Ok(None),
        }
    }

    /// The date `study.json` and `report.html` record (see
    /// [`workbook_time`](crate::engine::version::workbook_time):
    /// `$SOURCE_DATE_EPOCH` when set), as text. Checked before any game is
    /// played.
    pub fn study_date(&self) -> Result<String, crate::engine::failure::Failure> {
        crate::engine::version::workbook_time()
            .map(crate::engine::version::utc_text)
            .map_err(|e| {
                crate::engine::failure::Failure::Usage(
                    e.replace("--xlsx workbook", "study.json and report.html"),
                )
            })
    }

    /// Where strategy names are looked up (`--strategies`, the
    /// environment, the current folder, the built-in ones).
    pub fn library(&self) -> Result<crate::engine::strategies::Library, String> {
        crate::engine::strategies::Library::new(
            &crate::engine::strategies::cwd()?,
            self.strategies.as_deref(),
        )
    }
}
