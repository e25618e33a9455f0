//! `sim sweep GAME`: one run per value of a policy parameter, on common
//! deals; a CSV row per value, charts and a workbook.

use std::io::Write;
use std::time::Instant;

use super::args::SweepArgs;
use super::expand::expand;
use super::files::Files;
use super::study::{Book, BookTables, FORMAT, Kind, STUDY_FILE, StudyDone, StudyFile, SweepPart, read_back};
use crate::engine::args::format_count;
use crate::engine::columns::{run_csv_bytes, seat_table};
use crate::engine::design::plus_minus;
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::{Acc, Game, SeatResult};
use crate::engine::job::{Finished, Job, Leftovers, show_shard, stop_flag};
use crate::engine::output::{file_label, state_beside};
use crate::engine::runner::{self, Accumulator, RunConfig, Simulation};
use crate::engine::show::{plural, table_json, timing};
use crate::engine::stats::wilson95;
use crate::engine::strategies::simulation_of;
use crate::engine::table::{Table, interval, percent};

/// The swept policy, its values and the field, each value's simulation.
struct Swept<G: Game> {
    policy: String,
    points: Vec<super::expand::Point>,
    field_word: String,
    field_spec: String,
    sims: Vec<G::Sim>,
}

/// Reads the swept policy and the field, and sets up each value's table.
fn swept<G: Game>(args: &SweepArgs<G::Options>) -> Result<Swept<G>, Failure> {
    let opts = &args.options;
    let library = args.common.library().usage()?;
    // Only a resume may leave it out, and a resume is given the state's.
    let policy = args
        .policy
        .clone()
        .ok_or_else(|| Failure::Usage("give the swept policy with --policy".into()))?;
    let points = expand(&policy)
        .map_err(|e| format!("--policy '{}': {e}", policy))
        .usage()?;
    let field_word = args
        .field
        .clone()
        .unwrap_or_else(|| G::DEFAULT_POLICY.to_string());
    if field_word.contains(',') {
        return Err(Failure::Usage(format!(
            "--field '{field_word}': --field takes one spec, for every seat but the swept one (seat 0), \
             not a list; e.g. --field {}",
            G::DEFAULT_POLICY
        )));
    }
    let field = library
        .resolve_policy::<G>(&field_word)
        .map_err(|e| format!("--field '{field_word}': {e}"))
        .usage()?;
    let players = G::players(opts);
    let mut sims = Vec::with_capacity(points.len());
    for p in &points {
        let r = library
            .resolve_policy::<G>(&p.spec)
            .map_err(|e| format!("--policy '{}' at value {}: {e}", policy, p.text))
            .usage()?;
        let mut lineup = vec![r.policy.clone()];
        lineup.extend(std::iter::repeat_n(field.policy.clone(), players - 1));
        let given = [
            (format!("--policy '{policy}' at value {}", p.text), &r.policy),
            (format!("--field '{field_word}'"), &field.policy),
        ];
        sims.push(simulation_of::<G>(opts, &lineup, &given).usage()?);
    }
    Ok(Swept {
        policy,
        points,
        field_word,
        field_spec: field.policy.to_string(),
        sims,
    })
}

/// What a sweep is, worked out and checked before any game is played.
struct Plan<G: Game> {
    cfg: RunConfig,
    files: Option<Files>,
    workbook_time: Option<i64>,
    study_date: String,
    job: Job<Vec<Acc<G>>>,
}

/// The sweep's output folder, from its options and seed.
fn out_dir<G: Game>(args: &SweepArgs<G::Options>, w: &Swept<G>, seed: u64) -> std::path::PathBuf {
    let players = G::players(&args.options);
    let mut parts = vec![
        "sweep".to_string(),
        G::NAME.to_string(),
        file_label(std::slice::from_ref(&w.policy)),
    ];
    if players > 1 {
        parts.push(format!("vs-{}", file_label(std::slice::from_ref(&w.field_word))));
    }
    parts.push(format!("{players}p"));
    parts.push(format_count(args.games));
    parts.extend(G::variants(&args.options).into_iter().map(|v| v.file));
    parts.push(format!("seed{seed}"));
    args.common.out_dir(&parts)
}

/// Plans the sweep: its files, every destination checked, and the job of
/// its units (unit u is batch u mod B of value u / B, B batches a value).
fn plan<G: Game>(args: &SweepArgs<G::Options>, w: &Swept<G>) -> Result<Plan<G>, Failure> {
    let opts = &args.options;
    let seed = args.common.seed.unwrap_or_else(rand::random);
    let out_dir = out_dir(args, w, seed);
    let mut file_names = vec!["sweep.csv"];
    if !args.common.no_charts {
        file_names.extend(["sweep.svg", "sweep.png"]);
    }
    if !args.common.no_report {
        file_names.push("report.html");
    }
    file_names.push(STUDY_FILE);
    let job_args = &args.common.job;
    let workbook_time = args.common.workbook_time()?;
    let study_date = args.common.study_date()?;
    // A shard writes only its state file.
    let files = match job_args.shard {
        None => Some(Files::prepare(&out_dir, &file_names, args.common.xlsx.as_ref())?),
        Some(_) => None,
    };
    let cfg = RunConfig {
        games: args.games,
        seed,
        threads: args.common.threads(),
        progress: false,
    };
    let units = runner::batch_count(args.games) * w.points.len() as u64;
    let definition = serde_json::json!({
        "command": "sim sweep GAME",
        "game": G::NAME,
        "players": G::players(opts),
        "policy": w.policy,
        "values": w.points.iter().map(|p| p.spec.clone()).collect::<Vec<_>>(),
        "field": w.field_spec,
        "variants": G::variants(opts).into_iter().map(|v| v.file).collect::<Vec<_>>(),
        "games": args.games,
        "seed": seed.to_string(),
    });
    let empty: Vec<Acc<G>> = w.sims.iter().map(|s| s.new_acc()).collect();
    let merge = |a: &mut Vec<Acc<G>>, b: &Vec<Acc<G>>| {
        for (x, y) in a.iter_mut().zip(b) {
            x.merge(y);
        }
    };
    let job = Job::start(job_args, definition, units, &state_beside(&out_dir), empty, merge)?;
    job.check_outputs(
        files
            .as_ref()
            .map(|f| f.destinations(&out_dir))
            .unwrap_or_default(),
    )?;
    Ok(Plan {
        cfg,
        files,
        workbook_time,
        study_date,
        job,
    })
}

/// The games of the units `u` of a sweep of `games` games a value (unit
/// u is batch u mod `per_value` of value u / `per_value`), value by value.
fn unit_games(games: u64, per_value: u64, u: std::ops::Range<u64>) -> u64 {
    let mut sum = 0;
    let mut at = u.start;
    while at < u.end {
        let base = at - at % per_value;
        let end = u.end.min(base + per_value);
        sum += runner::games_in(games, at - base..end - base);
        at = end;
    }
    sum
}

/// Plays the units asked for, value by value, each value's batches on
/// every thread.
fn play<G: Game>(args: &SweepArgs<G::Options>, w: &Swept<G>, plan: &mut Plan<G>) -> Result<(), Failure> {
    let per_value = runner::batch_count(args.games);
    let bar = runner::progress_bar(
        args.common.progress(),
        plan.job.games_todo(|u| unit_games(args.games, per_value, u)),
    );
    let cfg = &plan.cfg;
    let played = plan
        .job
        .play(0..per_value * w.points.len() as u64, &mut |ranges| {
            let mut accs: Vec<Acc<G>> = w.sims.iter().map(|s| s.new_acc()).collect();
            let mut done = Vec::new();
            for (v, sim) in w.sims.iter().enumerate() {
                let base = v as u64 * per_value;
                // This value's batches among the units asked for.
                let mine: Vec<std::ops::Range<u64>> = ranges
                    .iter()
                    .map(|r| r.start.max(base)..r.end.min(base + per_value))
                    .filter(|r| r.start < r.end)
                    .map(|r| r.start - base..r.end - base)
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let (acc, played) = runner::run_ranges(sim, cfg, &mine, &bar, stop_flag())?;
                accs[v] = acc;
                done.extend(played.into_iter().map(|r| r.start + base..r.end + base));
            }
            Ok((accs, done))
        });
    bar.finish_and_clear();
    played
}

/// Runs `sim sweep GAME`: gives the sweep played and summed up, for the
/// report layer to make its pages, or `None` once a shard has written its
/// state.
pub fn run<G: Game>(args: &SweepArgs<G::Options>) -> Result<Option<StudyDone>, Failure> {
    let w = swept::<G>(args)?;
    let mut plan = plan::<G>(args, &w)?;
    let start = Instant::now();
    play::<G>(args, &w, &mut plan)?;
    let job = plan.job;
    let per_value = runner::batch_count(args.games);
    let resumed = job.resumed_note();
    let games = job.played_here(|u| unit_games(args.games, per_value, u));
    let command = job.command_line();
    let (accs, leftovers) = match job.finish()? {
        Finished::Complete(a, left) => (a, left),
        Finished::Shard(message) => {
            show_shard(message, "sweep", &args.common.job, &args.common.show)?;
            return Ok(None);
        }
    };
    let ends = Ends {
        files: plan.files.expect("a whole run has its files"),
        workbook_time: plan.workbook_time,
        study_date: plan.study_date,
        cfg: plan.cfg,
        leftovers,
        resumed,
        games,
        command,
    };
    Ok(Some(sum_up::<G>(args, &w, &accs, ends, start)?))
}

/// What a whole sweep ends with besides its totals.
struct Ends {
    files: Files,
    workbook_time: Option<i64>,
    study_date: String,
    cfg: RunConfig,
    leftovers: Leftovers,
    resumed: Option<String>,
    games: u64,
    command: String,
}

/// Each value's row of `sweep.csv` (and the CSV's header), and the swept
/// seat's results.
type Rows = (Vec<String>, Vec<Vec<String>>, Vec<(u64, SeatResult)>);

/// The rows of `sweep.csv`, from each value's totals.
fn rows<G: Game>(opts: &G::Options, w: &Swept<G>, accs: &[Acc<G>]) -> Rows {
    let players = G::players(opts);
    let mut header_row = vec!["parameter".to_string(), "value".to_string()];
    let mut rows = Vec::with_capacity(w.points.len());
    let mut results: Vec<(u64, SeatResult)> = Vec::with_capacity(w.points.len());
    for (p, acc) in w.points.iter().zip(accs) {
        let mut names = vec![p.spec.clone()];
        names.extend(std::iter::repeat_n(w.field_word.clone(), players - 1));
        let mut row = vec![w.policy.clone(), p.text.clone()];
        let (header, seat_rows) = seat_table::<G>(opts, acc, &names);
        if header_row.len() == 2 {
            header_row.extend(header);
        }
        row.extend(seat_rows.into_iter().next().unwrap_or_default());
        rows.push(row);
        let (games, seats) = G::seat_results(opts, acc);
        results.push((games, seats[0]));
    }
    (header_row, rows, results)
}

/// The sweep's `study.json`.
fn study_file<G: Game>(
    args: &SweepArgs<G::Options>,
    w: &Swept<G>,
    ends: &Ends,
    results: &[(u64, SeatResult)],
) -> StudyFile {
    let finite = |x: f64| x.is_finite().then_some(x);
    StudyFile {
        format: FORMAT,
        kind: Kind::Sweep,
        game: G::NAME.to_string(),
        sim_version: crate::engine::version::SIM_VERSION.to_string(),
        command: ends.command.clone(),
        seed: ends.cfg.seed.to_string(),
        date: ends.study_date.clone(),
        players: G::players(&args.options),
        tournament: None,
        sweep: Some(SweepPart {
            policy: w.policy.clone(),
            field: w.field_word.clone(),
            games: args.games,
            values: w.points.iter().map(|p| p.value).collect(),
            round_score: G::has_rounds(&args.options).then(|| {
                results
                    .iter()
                    .map(|(_, r)| {
                        let m = r.round_by_game.estimate();
                        let (lo, hi) = r.round_by_game.mean_interval().unwrap_or((m, m));
                        [finite(m), finite(lo), finite(hi)]
                    })
                    .collect()
            }),
        }),
    }
}

/// The CSV and `study.json`, read back as `sim report DIR` reads them,
/// and the console summary of what they say.
fn sum_up<G: Game>(
    args: &SweepArgs<G::Options>,
    w: &Swept<G>,
    accs: &[Acc<G>],
    ends: Ends,
    start: Instant,
) -> Result<StudyDone, Failure> {
    let opts = &args.options;
    let seed = ends.cfg.seed;
    let (header_row, rows, results) = rows::<G>(opts, w, accs);
    let secs = start.elapsed().as_secs_f64();
    let csv = run_csv_bytes(&header_row, &rows, seed)?;
    let study_json = study_file::<G>(args, w, &ends, &results).to_bytes()?;
    // The conclusion, the page and the chart say what the files say (as
    // `sim report DIR` reads them).
    let back = read_back(&study_json, &[("sweep.csv", &csv)])?;
    let mut summary = head::<G>(args, w, &ends, secs);
    write_values::<G>(&mut summary, opts, w, &results);
    for line in &back.conclusion {
        let _ = writeln!(summary, "{line}");
    }
    let json = serde_json::json!({
        "command": format!("sweep {}", G::NAME),
        "policy": w.policy,
        "field": w.field_word,
        "players": G::players(opts),
        "games": args.games,
        "seed": seed.to_string(),
        "threads": ends.cfg.threads,
        "seconds": secs,
        "sim_version": crate::engine::version::SIM_VERSION,
        "values": table_json(&header_row, &rows, &["parameter", "policy"]),
    });
    let book = ends.workbook_time.map(|time| Book {
        title: format!("{} sweep of {}", G::NAME, w.policy),
        command: ends.command.clone(),
        seed,
        time,
        tables: BookTables::Sweep {
            rounds: G::has_rounds(opts),
            header: header_row,
            rows,
        },
    });
    Ok(StudyDone {
        back,
        charts: !args.common.no_charts,
        page: !args.common.no_report,
        book,
        files: ends.files,
        csvs: vec![("sweep.csv", csv)],
        study_json,
        summary,
        json,
        leftovers: ends.leftovers,
        show: args.common.show,
    })
}

/// The summary's first lines: what was played.
fn head<G: Game>(args: &SweepArgs<G::Options>, w: &Swept<G>, ends: &Ends, secs: f64) -> Vec<u8> {
    let players = G::players(&args.options);
    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "sim sweep {}: {} of {}, {}, {} each, seed {} ({})",
        G::NAME,
        plural(w.points.len() as u64, "value"),
        w.policy,
        plural(players as u64, "player"),
        plural(args.games, "game"),
        ends.cfg.seed,
        timing(ends.cfg.threads, ends.games, secs)
    );
    if players > 1 {
        let _ = writeln!(
            summary,
            "the swept policy plays seat 0, {} every other seat; every value plays the same deals (common random numbers)",
            w.field_word
        );
    }
    if let Some(n) = &ends.resumed {
        let _ = writeln!(summary, "{n}");
    }
    summary
}

/// The table of the swept seat's win rate (and round score) at each value.
fn write_values<G: Game>(
    summary: &mut Vec<u8>,
    opts: &G::Options,
    w: &Swept<G>,
    results: &[(u64, SeatResult)],
) {
    let rounds = G::has_rounds(opts);
    let mut table = Table::new();
    table.right("value").right("seat 0 win rate").right("95% CI");
    if rounds {
        table.right("round score");
    }
    for (p, (games, r)) in w.points.iter().zip(results) {
        let rate = r.wins as f64 / (*games).max(1) as f64;
        let (lo, hi) = wilson95(r.wins, *games);
        let mut cells = vec![p.text.clone(), percent(rate), interval(lo, hi)];
        if rounds {
            let m = r.round_by_game.estimate();
            cells.push(match r.round_by_game.stderr() {
                Some(se) => plus_minus(m, se, 3),
                None => format!("{m:.3}"),
            });
        }
        table.row(cells);
    }
    let _ = summary.write_all(table.render().as_bytes());
    if !rounds {
        let _ = writeln!(summary, "({} is not played in rounds: no round score)", G::NAME);
    }
}
