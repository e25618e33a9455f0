//! `sim sweep GAME`: one run per value of a policy parameter, on common
//! deals; a CSV row per value, charts and a workbook.

use std::io::Write;
use std::time::Instant;

use super::analysis::best_region;
use super::args::SweepArgs;
use super::expand::expand;
use super::files::Files;
use super::page::{SweepStudy, region_sentence, sweep_page};
use super::workbook::sweep_workbook;
use crate::engine::args::format_count;
use crate::engine::columns::{run_csv_bytes, seat_table};
use crate::engine::design::plus_minus;
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::{Acc, Game, SeatResult};
use crate::engine::job::{Finished, Job, show_shard, stop_flag};
use crate::engine::run::{file_label, plural, state_beside, table_json, timing};
use crate::engine::runner::{self, Accumulator, RunConfig, Simulation};
use crate::engine::stats::wilson95;
use crate::engine::table::{Table, interval, percent};
use crate::report::charts::{self, Panel};
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
    let job_args = &args.common.job;
    let workbook_time = args.common.workbook_time()?;
    let report_date = args.common.report_date()?;
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
    let rounds = G::has_rounds(opts);
    let mut table = Table::new();
    table.right("value").right("seat 0 win rate").right("95% CI");
    if rounds {
        table.right("round score");
    }
    let mut win_points = Vec::new();
    let mut round_points = Vec::new();
    for (p, (games, r)) in points.iter().zip(&results) {
        let rate = r.wins as f64 / (*games).max(1) as f64;
        let (lo, hi) = wilson95(r.wins, *games);
        win_points.push((p.value, rate, lo, hi));
        let mut cells = vec![p.text.clone(), percent(rate), interval(lo, hi)];
        if rounds {
            let m = r.round_by_game.estimate();
            let (lo, hi) = r.round_by_game.mean_interval().unwrap_or((m, m));
            round_points.push((p.value, m, lo, hi));
            cells.push(match r.round_by_game.stderr() {
                Some(se) => plus_minus(m, se, 3),
                None => format!("{m:.3}"),
            });
        }
        table.row(cells);
    }
    let _ = summary.write_all(table.render().as_bytes());
    if !G::has_rounds(opts) {
        let _ = writeln!(summary, "({} is not played in rounds: no round score)", G::NAME);
    }
    let region = best_region(&win_points.iter().map(|q| (q.1, q.2, q.3)).collect::<Vec<_>>());
    let mut best = vec![false; points.len()];
    let mut conclusion = Vec::new();
    if let Some((top, near)) = region.clone()
        && players > 1
    {
        best[top] = true;
        for &i in &near {
            best[i] = true;
        }
        let line = region_sentence(
            &points[top].spec,
            &near.iter().map(|&i| points[i].spec.clone()).collect::<Vec<_>>(),
        );
        let _ = writeln!(summary, "{line}");
        conclusion.push(line);
    }

    let title = format!("{} sweep of {}", G::NAME, policy);
    let run_line = format!(
        "{}, {} per value, seed {seed}",
        plural(players as u64, "player"),
        plural(args.games, "game")
    );
    let mut contents: Vec<(&str, Vec<u8>)> = vec![("sweep.csv", csv)];
    if !args.common.no_charts || report_date.is_some() {
        let mut panels = Vec::new();
        if G::has_rounds(opts) {
            panels.push(Panel {
                title: "mean round score of the swept policy".into(),
                y_label: "points per round".into(),
                points: round_points,
                reference: None,
                percent: false,
                best: Vec::new(),
                top: None,
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
            best: best.clone(),
            top: region.as_ref().filter(|_| players > 1).map(|r| r.0),
        });
        let chart = charts::sweep(&title, &run_line, &policy, &panels)?;
        if let Some(date) = &report_date {
            let page = sweep_page(&SweepStudy {
                title: &title,
                run_line: &run_line,
                conclusion: &conclusion,
                header: &header_row,
                rows: &rows,
                chart: &chart,
                command: &command,
                seed,
                date,
            });
            contents.push(("report.html", page.into_bytes()));
        }
        if !args.common.no_charts {
            contents.push(("sweep.svg", chart.svg.into_bytes()));
            contents.push(("sweep.png", chart.png));
        }
    }
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
