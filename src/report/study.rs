//! A study's `report.html` and charts, made from its files alone: after
//! a tournament or sweep ([`publish`]), and by `sim report DIR`
//! ([`report`]), which rebuilds them from a finished study's folder. Both
//! read the files back first ([`crate::studies::study::read_back`]), so
//! they make the same bytes, also after `sim merge`, and never a page that
//! says something the CSVs do not.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::page::{self, Study, SweepStudy};
use crate::engine::failure::Failure;
use crate::engine::output::{Output, commit_all};
use crate::engine::show::ShowArgs;
use crate::studies::study::{
    Book, BookTables, Kind, ReadBack, STUDY_FILE, StudyDone, StudyFile, csv_names, read_back,
};

/// Makes a finished study's page, charts and workbook, then writes its
/// files.
pub fn publish(done: StudyDone) -> Result<(), Failure> {
    let made = pages(&done.back, done.charts, done.page)?;
    let xlsx = match &done.book {
        Some(book) => Some(workbook(book, &done.back)?),
        None => None,
    };
    done.write(made, xlsx)
}

/// The workbook of a study.
fn workbook(book: &Book, back: &ReadBack) -> Result<Vec<u8>, String> {
    let run = super::xlsx::RunSheet {
        command: book.command.clone(),
        seed: book.seed,
        time: book.time,
    };
    match &book.tables {
        BookTables::Tournament {
            names,
            standings,
            pairs,
        } => super::workbook::tournament_workbook(
            &book.title,
            names,
            back.report.as_ref().expect("a tournament's analysis"),
            standings.clone(),
            pairs.clone(),
            &run,
        ),
        BookTables::Sweep { rounds, header, rows } => {
            super::workbook::sweep_workbook(&book.title, *rounds, header.clone(), rows.clone(), &run)
        }
    }
}

/// `(file name, bytes)` of a study's charts (when `charts`) and page (when
/// `page`), from its files read back.
pub fn pages(back: &ReadBack, charts: bool, page: bool) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    match back.meta.kind {
        Kind::Tournament => tournament_pages(back, charts, page),
        Kind::Sweep => sweep_pages(back, charts, page),
    }
}

/// [`pages`] of a tournament: its page and the standings and head-to-head
/// charts.
fn tournament_pages(
    back: &ReadBack,
    charts: bool,
    page: bool,
) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let meta = &back.meta;
    let t = meta.tournament.as_ref().expect("checked when read");
    let report = back.report.as_ref().expect("a tournament's analysis");
    let study = Study {
        game: &meta.game,
        names: &t.entrants,
        specs: &t.policies,
        players: meta.players,
        arrangements: t.arrangements,
        has_places: t.has_places,
        score: t.score.as_deref(),
        seed: back.seed,
        command: &meta.command,
        date: &meta.date,
        version: &meta.sim_version,
    };
    let mut files: Vec<(&'static str, Vec<u8>)> = Vec::new();
    if charts || page {
        let forest = page::standings_chart(&study, report)?;
        let heat = page::head_to_head_chart(&study, report)?;
        if page {
            files.push((
                "report.html",
                page::tournament_page(&study, report, &forest, &heat).into_bytes(),
            ));
        }
        if charts {
            files.push(("standings.svg", forest.svg.into_bytes()));
            files.push(("standings.png", forest.png));
            files.push(("head-to-head.svg", heat.svg.into_bytes()));
            files.push(("head-to-head.png", heat.png));
        }
    }
    Ok(files)
}

/// [`pages`] of a sweep: its page and chart.
fn sweep_pages(back: &ReadBack, charts: bool, page: bool) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let (meta, seed) = (&back.meta, back.seed);
    let s = meta.sweep.as_ref().expect("checked when read");
    let sweep = back.sweep.as_ref().expect("a sweep's table");
    let chart = page::sweep_chart(meta, s, sweep, seed)?;
    let mut files: Vec<(&'static str, Vec<u8>)> = Vec::new();
    if page {
        let title = page::sweep_title(&meta.game, &s.policy);
        let run_line = page::sweep_run_line(meta.players, s.games, seed);
        files.push((
            "report.html",
            page::sweep_page(&SweepStudy {
                title: &title,
                run_line: &run_line,
                conclusion: &back.conclusion,
                header: &sweep.table.header,
                rows: &sweep.table.rows,
                chart: &chart,
                command: &meta.command,
                seed,
                date: &meta.date,
                version: &meta.sim_version,
            })
            .into_bytes(),
        ));
    }
    if charts {
        files.push(("sweep.svg", chart.svg.into_bytes()));
        files.push(("sweep.png", chart.png));
    }
    Ok(files)
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
    let back = read_back(&study_bytes, &borrowed).map_err(|e| Failure::Usage(format!("'{shown}': {e}")))?;
    let files = pages(&back, !args.no_charts, true).map_err(|e| Failure::Usage(format!("'{shown}': {e}")))?;
    let mut items: Vec<(Output, &[u8])> = Vec::new();
    for (out, name) in outputs {
        let bytes = files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.as_slice())
            .ok_or_else(|| format!("internal: no content for {name}"))?;
        items.push((out, bytes));
    }
    let written: Vec<PathBuf> = commit_all(items)?.into_iter().flatten().collect();
    let summary = report_summary(&meta, &back.conclusion, &written);
    let json = serde_json::json!({
        "command": "report",
        "study": meta.kind.word(),
        "game": meta.game,
        "seed": meta.seed,
        "sim_version": meta.sim_version,
        "run": meta.command,
        "conclusion": back.conclusion,
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
fn report_summary(meta: &StudyFile, conclusion: &[String], written: &[PathBuf]) -> Vec<u8> {
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
    for line in conclusion {
        let _ = writeln!(summary, "{line}");
    }
    for p in written {
        let _ = writeln!(summary, "wrote {}", p.display());
    }
    summary
}
