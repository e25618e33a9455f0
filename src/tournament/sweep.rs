//! `sim sweep GAME`: one run per value of a policy parameter, on common
//! deals; a CSV row per value, charts and a workbook.

use std::io::Write;
use std::time::Instant;

use super::args::SweepArgs;
use super::expand::expand;
use super::files::Files;
use super::workbook::sweep_workbook;
use crate::engine::args::format_count;
use crate::engine::columns::{csv_bytes, seat_table};
use crate::engine::design::plus_minus;
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::{Game, SeatResult};
use crate::engine::run::{file_label, plural, report_line, table_json};
use crate::engine::runner::{self, RunConfig};
use crate::engine::stats::wilson95;
use crate::report::charts::{self, Panel};

/// Runs `sim sweep GAME`.
pub fn run<G: Game>(args: &SweepArgs<G::Options>) -> Result<(), Failure> {
    let opts = &args.options;
    let library = args.common.library().usage()?;
    let points = expand(&args.policy)
        .map_err(|e| format!("--policy '{}': {e}", args.policy))
        .usage()?;
    let field_word = args
        .field
        .clone()
        .unwrap_or_else(|| G::DEFAULT_POLICY.to_string());
    let field = library
        .resolve(G::NAME, &field_word, G::parse_policy)
        .map_err(|e| format!("--field '{field_word}': {e}"))
        .usage()?;
    let players = G::players(opts);
    let mut swept = Vec::with_capacity(points.len());
    for p in &points {
        let r = library
            .resolve(G::NAME, &p.spec, G::parse_policy)
            .map_err(|e| format!("--policy '{}' at value {}: {e}", args.policy, p.text))
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
        file_label(std::slice::from_ref(&args.policy)),
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
    let files = Files::prepare(&out_dir, &file_names, args.common.xlsx.as_ref())?;

    let cfg = RunConfig {
        games: args.games,
        seed,
        threads,
        progress: false,
    };
    let start = Instant::now();
    let bar = runner::progress_bar(args.common.progress(), args.games * points.len() as u64);
    let mut header_row = vec!["parameter".to_string(), "value".to_string()];
    let mut rows = Vec::with_capacity(points.len());
    let mut results: Vec<(u64, SeatResult)> = Vec::with_capacity(points.len());
    for (p, sim) in points.iter().zip(&swept) {
        let acc = runner::run_counted(sim, &cfg, &bar)?;
        let mut names = vec![p.spec.clone()];
        names.extend(std::iter::repeat_n(field_word.clone(), players - 1));
        let mut row = vec![args.policy.clone(), p.text.clone()];
        let (header, seat_rows) = seat_table::<G>(opts, &acc, &names);
        if header_row.len() == 2 {
            header_row.extend(header);
        }
        row.extend(seat_rows.into_iter().next().unwrap_or_default());
        rows.push(row);
        let (games, seats) = G::seat_results(opts, &acc);
        results.push((games, seats[0]));
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let csv = csv_bytes(&header_row, &rows)?;

    let mut summary = Vec::new();
    let total = args.games * points.len() as u64;
    let _ = writeln!(
        summary,
        "sim sweep {}: {} of {}, {}, {} games each, seed {seed} ({}, {secs:.2} s, {})",
        G::NAME,
        plural(points.len(), "value"),
        args.policy,
        plural(players, "player"),
        format_count(args.games),
        plural(threads, "thread"),
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
        if G::has_rounds(opts) { "round score" } else { "" }
    );
    let mut win_points = Vec::new();
    let mut round_points = Vec::new();
    for (p, (games, r)) in points.iter().zip(&results) {
        let rate = r.wins as f64 / (*games).max(1) as f64;
        let (lo, hi) = wilson95(r.wins, *games);
        win_points.push((p.value, rate, lo, hi));
        let round = if G::has_rounds(opts) {
            let m = r.round_by_game.estimate();
            let (lo, hi) = r.round_by_game.mean_interval().unwrap_or((m, m));
            round_points.push((p.value, m, lo, hi));
            match r.round_by_game.stderr() {
                Some(se) => plus_minus(m, se, 3),
                None => format!("{m:.3}"),
            }
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
    if !G::has_rounds(opts) {
        let _ = writeln!(summary, "({} is not played in rounds: no round score)", G::NAME);
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
        G::NAME,
        args.policy,
        format_count(args.games)
    );
    let mut contents: Vec<(&str, Vec<u8>)> = vec![("sweep.csv", csv)];
    if !args.common.no_charts {
        let mut panels = Vec::new();
        if G::has_rounds(opts) {
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
    let json = serde_json::json!({
        "command": format!("sweep {}", G::NAME),
        "policy": args.policy,
        "field": field_word,
        "players": players,
        "games": args.games,
        "seed": seed,
        "threads": threads,
        "seconds": secs,
        "values": table_json(&header_row, &rows, &["parameter", "policy"]),
    });
    let xlsx_bytes = if args.common.xlsx.is_some() {
        Some(sweep_workbook(&title, G::has_rounds(opts), header_row, rows)?)
    } else {
        None
    };
    let written = files.commit(&contents, xlsx_bytes, &mut summary)?;
    Ok(args.common.show.show(&summary, json, &written)?)
}
