//! The short `report.html` of a plain run (`sim GAME`) whose seats play
//! different policies: the conclusion in words, the seats' win rates with
//! their intervals (a table and a dot-and-interval chart), every column of
//! the CSV, and the run.

use super::charts::{self, Forest, Row};
use super::html::{self, Cell};
use crate::engine::show::plural;
use crate::engine::stats::wilson95;
use crate::studies::run::RunPage;

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// `seat 1 (stay-at-30)`.
fn seat_name(seat: usize, name: &str) -> String {
    format!("seat {seat} ({name})")
}

/// The conclusion of a plain run, a sentence a line: the seat that won
/// most, the seats whose 95% interval overlaps its interval, and why a
/// tournament is the fair comparison.
pub fn conclusion(p: &RunPage) -> Vec<String> {
    let pts: Vec<(f64, f64, f64)> = p
        .seats
        .iter()
        .map(|s| {
            let (lo, hi) = wilson95(s.wins, s.games);
            (s.wins as f64 / s.games.max(1) as f64, lo, hi)
        })
        .collect();
    let mut lines = Vec::new();
    if let Some((best, near)) = crate::analysis::standings::best_region(&pts) {
        let top = seat_name(best, &p.seats[best].name);
        let near: Vec<String> = near.iter().map(|&i| seat_name(i, &p.seats[i].name)).collect();
        let (rate, lo, hi) = pts[best];
        let won = format!(
            "{top} wins most: {} of its games (95% CI {} to {})",
            pct(rate),
            pct(lo),
            pct(hi)
        );
        lines.push(match near.len() {
            0 => format!("{won}; no other seat's 95% interval reaches its interval"),
            1 => format!(
                "{won}; {} is within its interval (their 95% intervals overlap: this run cannot tell them apart)",
                near[0]
            ),
            _ => format!(
                "{won}; {} are within its interval (their 95% intervals overlap: this run cannot tell them apart)",
                crate::analysis::console::and_list(&near)
            ),
        });
    }
    lines.push(format!(
        "A seat differs from the others by its place at the table as well as by its policy, so part of a lead may be the seat's: sim tournament {} --policies A,B plays every policy in every seat on the same deals, for a fair comparison.",
        p.game
    ));
    lines
}

/// The page.
pub fn run_page(p: &RunPage) -> Result<String, String> {
    let run_line = format!(
        "{}, {}, seed {}",
        plural(p.players as u64, "player"),
        plural(p.games, "game"),
        p.seed
    );
    let mut body = String::from("<section class=\"conclusion\">\n");
    body.push_str(&html::paragraphs(&conclusion(p)));
    body.push_str("</section>\n<h2>Seats</h2>\n");
    let rows: Vec<Vec<Cell>> = p
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let rate = s.wins as f64 / s.games.max(1) as f64;
            let (lo, hi) = wilson95(s.wins, s.games);
            vec![
                Cell::number(i.to_string(), i as f64),
                Cell::text(s.name.clone()),
                Cell::number(pct(rate), rate),
                Cell::number(format!("{:.2} to {:.2}", 100.0 * lo, 100.0 * hi), lo),
                Cell::number(s.wins.to_string(), s.wins as f64),
                Cell::number(s.games.to_string(), s.games as f64),
            ]
        })
        .collect();
    body.push_str(&html::sortable_table(
        &["seat", "policy", "win rate", "95% CI (points)", "wins", "games"],
        &rows,
    ));
    let chart = charts::forest(
        &format!("{} run: who wins, by seat", p.game),
        &run_line,
        &[Forest {
            heading: "win rate".into(),
            rows: p
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let (lo, hi) = wilson95(s.wins, s.games);
                    Row {
                        name: seat_name(i, &s.name),
                        value: s.wins as f64 / s.games.max(1) as f64,
                        ci: (lo, hi),
                    }
                })
                .collect(),
            reference: Some((
                1.0 / p.players as f64,
                format!("fair share 1/{} = {:.1}%", p.players, 100.0 / p.players as f64),
            )),
            percent: true,
        }],
        "dot: win rate; line: its 95% Wilson interval (the axis is zoomed to the data); dashed red: what an even game would give",
    )?;
    body.push_str(&html::inline_svg(&chart.svg));
    body.push_str("<h2>Every column</h2>\n<div class=\"wide\">\n");
    let all: Vec<Vec<Cell>> = p.rows.iter().map(|r| Cell::from_csv(r)).collect();
    let header: Vec<&str> = p.header.iter().map(String::as_str).collect();
    body.push_str(&html::sortable_table(&header, &all));
    body.push_str("</div>\n<h2>Method</h2>\n");
    body.push_str(&html::paragraphs(&[
        "Each seat keeps its policy for every game; every game is dealt from its own stream of the seed, so the same seed gives the same games for any number of threads.".to_string(),
        "Win-rate intervals are 95% Wilson intervals of each seat's wins over the games. Two seats whose intervals overlap cannot be told apart by this run; more games narrow the intervals.".to_string(),
    ]));
    body.push_str("<h2>Run</h2>\n");
    body.push_str(&html::facts(&[
        ("command", p.command.to_string()),
        ("seed", p.seed.to_string()),
        ("version", p.version.to_string()),
        ("date", p.date.to_string()),
        (
            "files",
            format!("{} (every figure above) beside this page", p.csv),
        ),
    ]));
    Ok(html::page(&format!("{} run", p.game), &run_line, &body))
}
