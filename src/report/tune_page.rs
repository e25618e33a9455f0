//! The `report.html` page of `sim tune`: the conclusion in words, the
//! winner and the survivors with their fresh-deal intervals, the race
//! chart, every candidate, the method and the run. Built from the report
//! helpers ([`super::html`]) like the pages of tournaments and
//! sweeps.

use super::charts::{self, Chart, Panel};
use super::html::{self, Cell};
use crate::studies::tune::{RaceChart, SURVIVOR_COLUMNS, Survivor, TuneDone};

/// What the page shows; the numbers come from the run as the console and
/// the CSV files show them.
pub struct TunePage<'a> {
    /// The page's title (`flip7 tune of stay-at-{10..40}`).
    pub title: &'a str,
    /// The line under the title: players, objective, seed.
    pub run_line: &'a str,
    /// The conclusion, one paragraph a line.
    pub conclusion: &'a [String],
    /// The survivors' table: heading and rows (the winner first).
    pub survivors_header: &'a [&'a str],
    /// One row per survivor.
    pub survivors: Vec<Vec<Cell>>,
    /// The race chart as SVG.
    pub chart_svg: &'a str,
    /// candidates.csv's header and rows.
    pub header: &'a [String],
    /// One row per candidate.
    pub rows: &'a [Vec<String>],
    /// The method, one paragraph a line.
    pub method: &'a [String],
    /// The command line, as run.
    pub command: &'a str,
    /// The seed.
    pub seed: u64,
    /// When the page was made.
    pub date: &'a str,
    /// The files beside the page.
    pub files: &'a str,
}

/// The whole page.
pub fn tune_page(p: TunePage<'_>) -> String {
    let mut body = String::from("<section class=\"conclusion\">\n");
    body.push_str(&html::paragraphs(p.conclusion));
    body.push_str("</section>\n<h2>Winner and survivors, on fresh deals</h2>\n");
    body.push_str("<div class=\"wide\">\n");
    body.push_str(&html::sortable_table(p.survivors_header, &p.survivors));
    body.push_str("</div>\n");
    if !p.chart_svg.is_empty() {
        body.push_str("<h2>The race</h2>\n");
        body.push_str(&html::inline_svg(p.chart_svg));
    }
    body.push_str("<h2>Every candidate</h2>\n");
    let header: Vec<&str> = p.header.iter().map(String::as_str).collect();
    let rows: Vec<Vec<Cell>> = p.rows.iter().map(|r| Cell::from_csv(r)).collect();
    body.push_str("<div class=\"wide\">\n");
    body.push_str(&html::sortable_table(&header, &rows));
    body.push_str("</div>\n<h2>Method</h2>\n");
    body.push_str(&html::paragraphs(p.method));
    body.push_str("<h2>Run</h2>\n");
    body.push_str(&html::facts(&[
        ("command", p.command.to_string()),
        ("seed", p.seed.to_string()),
        ("version", crate::engine::version::SIM_VERSION.to_string()),
        ("date", p.date.to_string()),
        ("files", p.files.to_string()),
    ]));
    html::page(p.title, p.run_line, &body)
}

/// Makes a finished tune's chart and page, then writes its files.
pub fn publish(done: TuneDone) -> Result<(), crate::engine::failure::Failure> {
    let mut pages: Vec<(&'static str, Vec<u8>)> = Vec::new();
    if let Some(c) = &done.chart {
        let chart = race_chart(c)?;
        if let Some(p) = &done.page {
            let page = tune_page(TunePage {
                title: &c.title,
                run_line: &c.run_line,
                conclusion: &p.conclusion,
                survivors_header: &SURVIVOR_COLUMNS,
                survivors: survivor_rows(&p.survivors),
                chart_svg: &chart.svg,
                header: &p.header,
                rows: &p.rows,
                method: &p.method,
                command: &p.command,
                seed: p.seed,
                date: &p.date,
                files: p.files,
            });
            pages.push(("report.html", page.into_bytes()));
        }
        if done.charts {
            pages.push(("race.svg", chart.svg.into_bytes()));
            pages.push(("race.png", chart.png));
        }
    }
    done.write(pages)
}

/// The race chart: each candidate's estimate when last played, and the
/// stages and rounds it stayed (a panel without points left out).
fn race_chart(c: &RaceChart) -> Result<Chart, String> {
    let halved = c.halved;
    let mut panels = vec![
        Panel {
            title: if halved {
                "estimate when last played: race (95%, not corrected) or halving (dot only); fresh estimates in candidates.csv"
            } else {
                "race estimate when last played (95%, not corrected; fresh estimates in candidates.csv)"
            }
            .into(),
            y_label: c.objective.clone(),
            points: c.race_points.clone(),
            reference: None,
            percent: false,
            best: Vec::new(),
            top: None,
        },
        Panel {
            title: if halved {
                "halving stages and race rounds each candidate stayed"
            } else {
                "rounds each candidate stayed in the race"
            }
            .into(),
            y_label: if halved { "stages + rounds" } else { "rounds" }.into(),
            points: c.round_points.clone(),
            reference: None,
            percent: false,
            best: Vec::new(),
            top: None,
        },
    ];
    panels.retain(|p| !p.points.is_empty());
    charts::sweep(&c.title, &c.run_line, &c.x_label, &panels)
}

/// The page's table of survivors, with their fresh estimates and
/// differences to the winner.
fn survivor_rows(survivors: &[Survivor]) -> Vec<Vec<Cell>> {
    let num = |v: Option<f64>, signed: bool| match v {
        Some(x) if signed => Cell::number(format!("{x:+.4}"), x),
        Some(x) => Cell::number(format!("{x:.4}"), x),
        None => Cell::text("-"),
    };
    survivors
        .iter()
        .map(|s| {
            let (fe, fd) = (s.fresh, s.diff);
            vec![
                Cell::text(if s.cheats {
                    format!("{} (cheats)", s.spec)
                } else {
                    s.spec.clone()
                }),
                Cell::text(if s.winner { "winner" } else { "survivor" }),
                num(fe.map(|v| v.0), false),
                num(fe.map(|v| v.1.0), false),
                num(fe.map(|v| v.1.1), false),
                num(fd.map(|v| v.0), true),
                num(fd.map(|v| v.1.0), true),
                num(fd.map(|v| v.1.1), true),
            ]
        })
        .collect()
}
