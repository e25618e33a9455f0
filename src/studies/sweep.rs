//! `sim sweep GAME`: one run per value of a policy parameter, on common
//! deals; a CSV row per value, charts and a workbook.

use std::io::Write;
use std::time::Instant;

use super::args::SweepArgs;
use super::expand::expand;
use super::files::Files;
use super::study::{FORMAT, Kind, STUDY_FILE, StudyFile, SweepPart, rebuild};
use crate::engine::args::format_count;
use crate::engine::columns::{run_csv_bytes, seat_table};
use crate::engine::design::plus_minus;
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::{Acc, Game, SeatResult};
use crate::engine::job::{Finished, Job, show_shard, stop_flag};
use crate::engine::output::{file_label, state_beside};
use crate::engine::runner::{self, Accumulator, RunConfig, Simulation};
use crate::engine::show::{plural, table_json, timing};
use crate::engine::stats::wilson95;
use crate::engine::table::{Table, interval, percent};
use crate::report::page::sweep_title;
use crate::report::workbook::sweep_workbook;
use crate::report::xlsx::RunSheet;

/// Runs `sim sweep GAME`.
pub fn run<G: Game>(args: &SweepArgs<G::Options>) -> Result<(), Failure> {
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
        .resolve(G::NAME, &field_word, G::parse_policy)
        .map_err(|e| format!("--field '{field_word}': {e}"))
        .usage()?;
    let players = G::players(opts);
    let mut swept = Vec::with_capacity(points.len());
    for p in &points {
        let r = library
            .resolve(G::NAME, &p.spec, G::parse_policy)
            .map_err(|e| format!("--policy '{}' at value {}: {e}", policy, p.text))
            .usage()?;
        let mut lineup = vec![r.policy.clone()];
        lineup.extend(std::iter::repeat_n(field.policy.clone(), players - 1));
        swept.push(G::simulation(opts, &lineup).usage()?);
    }

    let seed = args.common.seed.unwrap_or_else(rand::random);
    let threads = args.common.threads();
    let mut parts = vec![
        "sweep".to_string(),
        G::NAME.to_string(),
        file_label(std::slice::from_ref(&policy)),
    ];
    if players > 1 {
        parts.push(format!("vs-{}", file_label(std::slice::from_ref(&field_word))));
    }
    parts.push(format!("{players}p"));
    parts.push(format_count(args.games));
    parts.extend(G::variants(opts).into_iter().map(|v| v.file));
    parts.push(format!("seed{seed}"));
    let out_dir = args.common.out_dir(&parts);
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
    let files = if job_args.shard.is_none() {
        Some(Files::prepare(&out_dir, &file_names, args.common.xlsx.as_ref())?)
    } else {
        None
    };

    let cfg = RunConfig {
        games: args.games,
        seed,
        threads,
        progress: false,
    };
    // The run's units are the batches of every value, value by value:
    // unit u is batch u mod B of value u / B.
    let per_value = runner::batch_count(args.games);
    let units = per_value * points.len() as u64;
    let definition = serde_json::json!({
        "command": "sim sweep GAME",
        "game": G::NAME,
        "players": players,
        "policy": policy,
        "values": points.iter().map(|p| p.spec.clone()).collect::<Vec<_>>(),
        "field": field.policy.to_string(),
        "variants": G::variants(opts).into_iter().map(|v| v.file).collect::<Vec<_>>(),
        "games": args.games,
        "seed": seed.to_string(),
    });
    let empty: Vec<Acc<G>> = swept.iter().map(|s| s.new_acc()).collect();
    let mut job: Job<Vec<Acc<G>>> = Job::start(
        job_args,
        definition,
        units,
        &state_beside(&out_dir),
        empty,
        |a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        },
    )?;
    job.check_outputs(
        files
            .as_ref()
            .map(|f| f.destinations(&out_dir))
            .unwrap_or_default(),
    )?;
    let start = Instant::now();
    let bar = runner::progress_bar(
        args.common.progress(),
        job.games_todo(|u| runner::batch_len(args.games, u % per_value)),
    );
    let played = job.play(0..units, &mut |ranges| {
        let mut accs: Vec<Acc<G>> = swept.iter().map(|s| s.new_acc()).collect();
        let mut done = Vec::new();
        for (v, sim) in swept.iter().enumerate() {
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
            let (acc, played) = runner::run_ranges(sim, &cfg, &mine, &bar, stop_flag())?;
            accs[v] = acc;
            done.extend(played.into_iter().map(|r| r.start + base..r.end + base));
        }
        Ok((accs, done))
    });
    bar.finish_and_clear();
    played?;
    let resumed = job.resumed_note();
    let played_games = job.played_here(|u| runner::batch_len(args.games, u % per_value));
    let command = job.command_line();
    let (accs, leftovers) = match job.finish()? {
        Finished::Complete(a, left) => (a, left),
        Finished::Shard(message) => return show_shard(message, "sweep", job_args, &args.common.show),
    };
    let files = files.expect("a whole run has its files");
    let mut header_row = vec!["parameter".to_string(), "value".to_string()];
    let mut rows = Vec::with_capacity(points.len());
    let mut results: Vec<(u64, SeatResult)> = Vec::with_capacity(points.len());
    for (p, acc) in points.iter().zip(&accs) {
        let mut names = vec![p.spec.clone()];
        names.extend(std::iter::repeat_n(field_word.clone(), players - 1));
        let mut row = vec![policy.clone(), p.text.clone()];
        let (header, seat_rows) = seat_table::<G>(opts, acc, &names);
        if header_row.len() == 2 {
            header_row.extend(header);
        }
        row.extend(seat_rows.into_iter().next().unwrap_or_default());
        rows.push(row);
        let (games, seats) = G::seat_results(opts, acc);
        results.push((games, seats[0]));
    }
    let secs = start.elapsed().as_secs_f64();
    let csv = run_csv_bytes(&header_row, &rows, seed)?;
    let rounds = G::has_rounds(opts);
    let finite = |x: f64| x.is_finite().then_some(x);
    let study_json = StudyFile {
        format: FORMAT,
        kind: Kind::Sweep,
        game: G::NAME.to_string(),
        sim_version: crate::engine::version::SIM_VERSION.to_string(),
        command: command.clone(),
        seed: seed.to_string(),
        date: study_date,
        players,
        tournament: None,
        sweep: Some(SweepPart {
            policy: policy.clone(),
            field: field_word.clone(),
            games: args.games,
            values: points.iter().map(|p| p.value).collect(),
            round_score: rounds.then(|| {
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
    .to_bytes()?;
    // The conclusion, the page and the chart say what the files say (as
    // `sim report DIR` reads them).
    let rebuilt = rebuild(
        &study_json,
        &[("sweep.csv", &csv)],
        !args.common.no_charts,
        !args.common.no_report,
    )?;

    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "sim sweep {}: {} of {}, {}, {} each, seed {seed} ({})",
        G::NAME,
        plural(points.len() as u64, "value"),
        policy,
        plural(players as u64, "player"),
        plural(args.games, "game"),
        timing(threads, played_games, secs)
    );
    if players > 1 {
        let _ = writeln!(
            summary,
            "the swept policy plays seat 0, {field_word} every other seat; every value plays the same deals (common random numbers)"
        );
    }
    if let Some(n) = resumed {
        let _ = writeln!(summary, "{n}");
    }
    let mut table = Table::new();
    table.right("value").right("seat 0 win rate").right("95% CI");
    if rounds {
        table.right("round score");
    }
    for (p, (games, r)) in points.iter().zip(&results) {
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
    for line in &rebuilt.conclusion {
        let _ = writeln!(summary, "{line}");
    }
    let title = sweep_title(G::NAME, &policy);
    let mut contents: Vec<(&str, Vec<u8>)> = vec![("sweep.csv", csv)];
    contents.extend(rebuilt.files);
    contents.push((STUDY_FILE, study_json));
    let json = serde_json::json!({
        "command": format!("sweep {}", G::NAME),
        "policy": policy,
        "field": field_word,
        "players": players,
        "games": args.games,
        "seed": seed.to_string(),
        "threads": threads,
        "seconds": secs,
        "sim_version": crate::engine::version::SIM_VERSION,
        "values": table_json(&header_row, &rows, &["parameter", "policy"]),
    });
    let xlsx_bytes = match workbook_time {
        Some(time) => Some(sweep_workbook(
            &title,
            G::has_rounds(opts),
            header_row,
            rows,
            &RunSheet { command, seed, time },
        )?),
        None => None,
    };
    let written = files.commit(&contents, xlsx_bytes, &mut summary)?;
    leftovers.settle(&mut summary);
    Ok(args.common.show.show(&summary, json, &written)?)
}
