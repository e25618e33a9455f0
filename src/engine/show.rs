//! How a command shows what it did: the summary as text or JSON
//! ([`ShowArgs`]), on a stdout that may have gone away ([`print()`]), and the
//! words every summary uses ([`plural`], [`timing`]).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::args::human_count;
use super::output::ignore_closed_pipe;

/// How a run shows its summary: as text (the default), as one JSON object
/// for scripts, or not at all.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct ShowArgs {
    /// Print the summary as one JSON object on stdout (the same figures
    /// as the CSV files, and the files written) instead of text.
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,

    /// Print no summary (errors are still shown; files are still written).
    #[arg(short, long)]
    pub quiet: bool,
}

impl ShowArgs {
    /// Shows a run's summary: `text` as it is, or `json` with `files` (the
    /// paths written) added.
    /// A summary that cannot be shown (stdout full or failing) is an
    /// error that says so, and which files were written all the same.
    pub fn show(&self, text: &[u8], mut json: serde_json::Value, files: &[PathBuf]) -> Result<(), String> {
        if self.quiet {
            return Ok(());
        }
        let shown = if self.json {
            let paths: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
            json["files"] = paths.into();
            let mut bytes = serde_json::to_vec_pretty(&json).map_err(|e| e.to_string())?;
            bytes.push(b'\n');
            print(&bytes)
        } else {
            print(text)
        };
        shown.map_err(|e| summary_failed(&e, files))
    }
}

/// The error of a summary that could not be shown (`why`), naming the
/// files the run wrote all the same.
pub fn summary_failed(why: &str, files: &[PathBuf]) -> String {
    let written = match files {
        [] => String::new(),
        [one] => format!("; the results are written all the same: {}", one.display()),
        many => format!(
            "; the results are written all the same: {}",
            many.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("the summary could not be shown: {why}{written}")
}

/// A table (a CSV's header and rows) as JSON: one object per row, numbers
/// as numbers; the text columns named in `text` stay strings.
pub fn table_json(header: &[String], rows: &[Vec<String>], text: &[&str]) -> serde_json::Value {
    rows.iter()
        .map(|row| {
            let mut obj = serde_json::Map::new();
            for (h, v) in header.iter().zip(row) {
                let value = if text.contains(&h.as_str()) || v.is_empty() {
                    if v.is_empty() {
                        serde_json::Value::Null
                    } else {
                        v.clone().into()
                    }
                } else if let Ok(i) = v.parse::<i64>() {
                    i.into()
                } else {
                    match v.parse::<f64>() {
                        Ok(f) if f.is_finite() => f.into(),
                        _ => v.clone().into(),
                    }
                };
                obj.insert(h.clone(), value);
            }
            serde_json::Value::Object(obj)
        })
        .collect::<Vec<_>>()
        .into()
}

/// Writes `text` to stdout; a reader that has gone is not an error.
pub fn print(text: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    ignore_closed_pipe(out.write_all(text).and_then(|_| out.flush()))
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

/// `1 thread`, `2 threads`, `2.4M games`, `3 batches`: a count (as
/// [`human_count`] writes it) and its noun, in the plural unless the count
/// is 1 (`-es` after a hissing sound: batch, pass, box).
pub fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        return format!("1 {what}");
    }
    let es = ["ch", "sh", "s", "x", "z"].iter().any(|end| what.ends_with(end));
    format!("{} {what}{}", human_count(n), if es { "es" } else { "s" })
}

/// `1.23M games/s` style rate.
/// The timing part of a summary's first line: `2 threads, 0.53 s, 1.10M
/// games/s` for the `games` this process played, or what happened when it
/// played none (every batch came from state files).
pub fn timing(threads: usize, games: u64, secs: f64) -> String {
    if games == 0 {
        return "nothing left to play: every batch came from the state files".to_string();
    }
    format!(
        "{}, {secs:.2} s, {}",
        plural(threads as u64, "thread"),
        report_line(games, secs)
    )
}

/// `1.10M games/s`: `games` played in `secs` seconds; a rate below 1 with
/// two significant digits (`0.34 games/s`, `0.0071 games/s`).
pub fn report_line(games: u64, secs: f64) -> String {
    rate_text(games as f64 / secs.max(1e-9))
}

/// `1.10M games/s`, `2.5K games/s`, `0.34 games/s`: a rate of `rate` games
/// a second, as the summary and the progress bar show it.
pub fn rate_text(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2}M games/s", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}K games/s", rate / 1e3)
    } else if rate >= 1.0 || rate <= 0.0 {
        format!("{rate:.0} games/s")
    } else {
        // Two significant digits: 0.34 has two decimals, 0.034 three.
        let decimals = (1.0 - rate.log10().floor()).clamp(2.0, 15.0) as usize;
        format!("{rate:.decimals$} games/s")
    }
}
