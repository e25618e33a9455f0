//! The pictures and the `report.html` page of a tournament and of a sweep,
//! built from the analysis (the same code serves a finished run and `sim
//! report DIR`).

use super::charts::{self, Chart, Forest, Heat, Panel, Row};
use super::html::{self, Cell};
use crate::analysis::console::{and_list, conclusion, crn_sentence};
use crate::analysis::standings::{Report, Standing};
use crate::engine::show::plural;
use crate::studies::study::{StudyFile, SweepBack, SweepPart};

/// What a tournament page says about its run besides the analysis.
pub struct Study<'a> {
    /// The game's name (`flip7`).
    pub game: &'a str,
    /// Entrant labels, by entrant index.
    pub names: &'a [String],
    /// Each entrant's policy spec, by entrant index.
    pub specs: &'a [String],
    /// Players at each table.
    pub players: usize,
    /// Seat arrangements played on every deal.
    pub arrangements: usize,
    /// Whether games end in a finishing order (mean place shown).
    pub has_places: bool,
    /// The per-game score's name, for a game with one.
    pub score: Option<&'a str>,
    /// The seed.
    pub seed: u64,
    /// The command line, as run.
    pub command: &'a str,
    /// When the study was run (`2026-11-26 22:00:00 UTC`).
    pub date: &'a str,
    /// The `sim` that ran it.
    pub version: &'a str,
}

/// The line under each chart's title: size and seed.
fn run_line(study: &Study<'_>, report: &Report) -> String {
    format!(
        "{}, {} x {}, seed {}",
        plural(study.players as u64, "player"),
        plural(report.deals, "deal"),
        plural(study.arrangements as u64, "arrangement"),
        study.seed
    )
}

/// The forest plot of the standings: win rate (and mean place where the
/// game has places), best first, the fair share marked.
pub fn standings_chart(study: &Study<'_>, report: &Report) -> Result<Chart, String> {
    let names = study.names;
    let win = Forest {
        heading: "win rate".into(),
        rows: report
            .standings
            .iter()
            .map(|s| Row {
                name: names[s.entrant].clone(),
                value: s.win_rate,
                ci: s.win_ci,
            })
            .collect(),
        reference: Some((
            1.0 / study.players as f64,
            format!(
                "fair share 1/{} = {:.1}%",
                study.players,
                100.0 / study.players as f64
            ),
        )),
        percent: true,
    };
    let mut panels = vec![win];
    if study.has_places {
        let t = crate::engine::stats::Z95;
        panels.push(Forest {
            heading: "mean place (1 = first; lower is better)".into(),
            rows: report
                .standings
                .iter()
                .map(|s| {
                    let (m, se) = s.place.unwrap_or((f64::NAN, f64::NAN));
                    Row {
                        name: names[s.entrant].clone(),
                        value: m,
                        ci: (m - t * se, m + t * se),
                    }
                })
                .collect(),
            reference: Some((
                (study.players as f64 + 1.0) / 2.0,
                format!("middle {:.1}", (study.players as f64 + 1.0) / 2.0),
            )),
            percent: false,
        });
    }
    charts::forest(
        &format!("{} tournament: who wins, best first", study.game),
        &run_line(study, report),
        &panels,
        "dot: estimate; line: its 95% confidence interval (the axis is zoomed to the data); dashed red: what an even game would give",
    )
}

/// The head-to-head heatmap, entrants in standings order.
pub fn head_to_head_chart(study: &Study<'_>, report: &Report) -> Result<Chart, String> {
    let order: Vec<usize> = report.standings.iter().map(|s| s.entrant).collect();
    let n = order.len();
    let mut shares = vec![vec![f64::NAN; n]; n];
    let mut marked = vec![vec![false; n]; n];
    for p in &report.pairs {
        let (Some(r), Some(c)) = (
            order.iter().position(|&e| e == p.a),
            order.iter().position(|&e| e == p.b),
        ) else {
            continue;
        };
        shares[r][c] = p.h2h;
        marked[r][c] = p.significant;
    }
    charts::heatmap(
        &format!("{} tournament: head to head", study.game),
        &run_line(study, report),
        &Heat {
            names: order.iter().map(|&e| study.names[e].clone()).collect(),
            shares,
            marked,
            comparisons: n * n.saturating_sub(1) / 2,
        },
    )
}

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.2}%", 100.0 * x)
    } else {
        "-".into()
    }
}

fn ci(lo: f64, hi: f64) -> String {
    if lo.is_finite() && hi.is_finite() {
        format!("{:.2} to {:.2}", 100.0 * lo, 100.0 * hi)
    } else {
        "-".into()
    }
}

/// The `report.html` of a tournament: the conclusion in words, the
/// sortable standings, the forest plot, the head-to-head heatmap and the
/// significant pairs, the method, and the run.
pub fn tournament_page(study: &Study<'_>, report: &Report, standings: &Chart, heat: &Chart) -> String {
    let names = study.names;
    let mut body = String::new();
    body.push_str("<section class=\"conclusion\">\n");
    let mut said = conclusion(names, report);
    said.push(head_to_head_sentence(names, report));
    body.push_str(&html::paragraphs(&said));
    body.push_str("</section>\n<h2>Standings</h2>\n");
    body.push_str(&standings_table(study, report));
    body.push_str("<p class=\"sub\">Click a column heading to sort by it.</p>\n");
    body.push_str(&html::inline_svg(&standings.svg));
    body.push_str("<h2>Head to head</h2>\n");
    body.push_str(&html::inline_svg(&heat.svg));
    body.push_str(&pairs_table(names, report));
    body.push_str("<h2>Method</h2>\n");
    body.push_str(&html::paragraphs(&method(study, report)));
    body.push_str("<h2>Run</h2>\n");
    body.push_str(&html::facts(&[
        ("command", study.command.to_string()),
        ("seed", study.seed.to_string()),
        ("version", study.version.to_string()),
        ("date", study.date.to_string()),
        (
            "files",
            "standings.csv, pairwise.csv and study.json (and the charts as SVG and PNG) beside this page; sim report DIR makes this page again from them".to_string(),
        ),
    ]));
    html::page(
        &format!("{} tournament", study.game),
        &format!("{} entrants, {}", names.len(), run_line(study, report)),
        &body,
    )
}

/// The conclusion's head-to-head sentence: no significant pair, how many
/// (when too many to name), or which entrant beats which.
fn head_to_head_sentence(names: &[String], report: &Report) -> String {
    let sig: Vec<String> = report
        .pairs
        .iter()
        .filter(|p| p.significant && p.h2h > 0.5)
        .map(|p| format!("{} over {}", names[p.a], names[p.b]))
        .collect();
    let pairs = names.len() * names.len().saturating_sub(1) / 2;
    if sig.is_empty() {
        "Head to head, no entrant beats another significantly (after Holm's correction): the differences could be chance.".to_string()
    } else if sig.len() > 6 {
        // Too many to read as a sentence: the heatmap and the table below show which.
        format!(
            "Head to head, {} of the {pairs} pairs differ significantly after Holm's correction (starred in the heatmap, listed below).",
            sig.len()
        )
    } else {
        format!(
            "Head to head, significant after Holm's correction: {}.",
            and_list(&sig)
        )
    }
}

/// The sortable standings table: rank, entrant, policy, win rate and its
/// interval, loss rate and mean place (for a game with places), the score
/// (for a game with one), rating and games.
fn standings_table(study: &Study<'_>, report: &Report) -> String {
    let mut header = vec!["rank", "entrant", "policy", "win rate", "95% CI (points)"];
    if study.has_places {
        header.extend(["loss rate", "mean place"]);
    }
    if let Some(s) = study.score {
        header.push(s);
    }
    header.extend(["rating (BT)", "games"]);
    let rows: Vec<Vec<Cell>> = report.standings.iter().map(|s| standings_row(study, s)).collect();
    html::sortable_table(&header, &rows)
}

/// One entrant's row of [`standings_table`].
fn standings_row(study: &Study<'_>, s: &Standing) -> Vec<Cell> {
    let mut r = vec![
        Cell::number(s.rank.to_string(), s.rank as f64),
        Cell::text(study.names[s.entrant].clone()),
        Cell::text(study.specs[s.entrant].clone()),
        Cell::number(pct(s.win_rate), s.win_rate),
        Cell::number(ci(s.win_ci.0, s.win_ci.1), s.win_ci.0),
    ];
    if study.has_places {
        let loss = s.loss.map_or(f64::NAN, |l| l.0);
        r.push(Cell::number(pct(loss), loss));
        let place = s.place.map_or(f64::NAN, |p| p.0);
        r.push(Cell::number(
            if place.is_finite() {
                format!("{place:.3}")
            } else {
                "-".into()
            },
            place,
        ));
    }
    if study.score.is_some() {
        let m = s.score.map_or(f64::NAN, |p| p.0);
        r.push(Cell::number(
            if m.is_finite() {
                format!("{m:.2}")
            } else {
                "-".into()
            },
            m,
        ));
    }
    r.push(Cell::number(format!("{:.1}", s.rating), s.rating));
    r.push(Cell::number(s.games.to_string(), s.games as f64));
    r
}

/// The sortable table of pairs, each once (the entrant that took more of
/// their decided games first): its share, interval, p-values and whether
/// it is significant.
fn pairs_table(names: &[String], report: &Report) -> String {
    let pair_rows: Vec<Vec<Cell>> = report
        .pairs
        .iter()
        .filter(|p| p.h2h > 0.5 || (p.h2h == 0.5 && p.a < p.b))
        .map(|p| {
            vec![
                Cell::text(names[p.a].clone()),
                Cell::text(names[p.b].clone()),
                Cell::number(pct(p.h2h), p.h2h),
                Cell::number(ci(p.h2h_ci.0, p.h2h_ci.1), p.h2h_ci.0),
                Cell::number(format!("{:.2e}", p.p_value), p.p_value),
                Cell::number(format!("{:.2e}", p.p_holm), p.p_holm),
                Cell::text(if p.significant { "yes" } else { "no" }),
            ]
        })
        .collect();
    html::sortable_table(
        &[
            "entrant",
            "over",
            "share of decided games",
            "95% CI (points)",
            "p",
            "p after Holm",
            "significant",
        ],
        &pair_rows,
    )
}

/// The method section, a paragraph each: common random numbers, the
/// intervals, the head-to-head test, the rating, and what sharing the
/// deals saved.
fn method(study: &Study<'_>, report: &Report) -> Vec<String> {
    let mut method = vec![
        format!(
            "Every arrangement of the entrants in the seats ({}) plays the same {} (common random numbers), so no entrant is helped by its seat or by the luck of its deals.",
            plural(study.arrangements as u64, "arrangement"),
            plural(report.deals, "deal")
        ),
        format!(
            "Intervals are 95% confidence intervals; their errors come from {}, each deal counted once with all its arrangements (the games of one deal are not independent of one another).",
            plural(report.units, "independent unit")
        ),
        "Head to head, the share is of the games either entrant won at the same table; each share is tested against 50%, and Holm's correction over all pairs keeps the chance of any false \"significant\" below 5%.".to_string(),
        "The rating is a Bradley-Terry fit to who beat whom, on the Elo scale.".to_string(),
    ];
    if let Some(s) = crn_sentence(report) {
        method.push(s);
    }
    method
}

/// What a sweep page shows.
pub struct SweepStudy<'a> {
    /// Page and chart title.
    pub title: &'a str,
    /// Size and seed.
    pub run_line: &'a str,
    /// The conclusion, a sentence a line.
    pub conclusion: &'a [String],
    /// The CSV header (without the run columns).
    pub header: &'a [String],
    /// The CSV rows.
    pub rows: &'a [Vec<String>],
    /// The sweep chart.
    pub chart: &'a Chart,
    /// The command line.
    pub command: &'a str,
    /// The seed.
    pub seed: u64,
    /// When the study was run.
    pub date: &'a str,
    /// The `sim` that ran it.
    pub version: &'a str,
}

/// The `report.html` of a sweep: the conclusion, the chart, every value's
/// row (sortable), the method and the run.
pub fn sweep_page(s: &SweepStudy<'_>) -> String {
    let mut body = String::from("<section class=\"conclusion\">\n");
    let mut said = s.conclusion.to_vec();
    if said.is_empty() {
        said.push("One player alone: there is no one to win against, so no best value by win rate.".into());
    }
    body.push_str(&html::paragraphs(&said));
    body.push_str("</section>\n");
    body.push_str(&html::inline_svg(&s.chart.svg));
    body.push_str("<h2>Every value</h2>\n");
    // Every column of sweep.csv but the first (the swept spec, the same on
    // every row: it is the title).
    let header: Vec<&str> = s.header.iter().skip(1).map(String::as_str).collect();
    let rows: Vec<Vec<Cell>> = s
        .rows
        .iter()
        .map(|r| Cell::from_csv(r.get(1..).unwrap_or_default()))
        .collect();
    body.push_str("<div class=\"wide\">\n");
    body.push_str(&html::sortable_table(&header, &rows));
    body.push_str("</div>\n<h2>Method</h2>\n");
    body.push_str(&html::paragraphs(&[
        "The swept policy plays seat 0 and the field every other seat; every value plays the same deals (common random numbers), so the values differ by their play, not by their luck.".to_string(),
        "Win-rate intervals are 95% Wilson intervals. The best region is the value with the highest win rate and every value whose interval overlaps its interval: this run cannot tell them apart; more games narrow it.".to_string(),
        "The test is the overlap of each value's own interval: a sweep keeps each value's totals apart, so unlike a tournament it has no paired interval of the difference between two values; the overlap is the cautious test (two values whose intervals barely overlap may still differ).".to_string(),
    ]));
    body.push_str("<h2>Run</h2>\n");
    body.push_str(&html::facts(&[
        ("command", s.command.to_string()),
        ("seed", s.seed.to_string()),
        ("version", s.version.to_string()),
        ("date", s.date.to_string()),
        (
            "files",
            "sweep.csv and study.json (and the chart as SVG and PNG) beside this page; sim report DIR makes this page again from them".to_string(),
        ),
    ]));
    html::page(s.title, s.run_line, &body)
}

/// A sweep's chart and page title.
pub fn sweep_title(game: &str, policy: &str) -> String {
    format!("{game} sweep of {policy}")
}

/// The line under a sweep's title: size and seed.
pub fn sweep_run_line(players: usize, games: u64, seed: u64) -> String {
    format!(
        "{}, {} per value, seed {seed}",
        plural(players as u64, "player"),
        plural(games, "game")
    )
}

/// A sweep's chart, from what its files say (`back`, read back from its
/// CSV and `study.json`).
pub fn sweep_chart(meta: &StudyFile, s: &SweepPart, back: &SweepBack, seed: u64) -> Result<Chart, String> {
    let players = meta.players;
    let mut best = vec![false; back.table.rows.len()];
    if let Some((top, near)) = &back.region {
        best[*top] = true;
        for &i in near {
            best[i] = true;
        }
    }
    let mut panels = Vec::new();
    if let Some(rounds) = &s.round_score {
        panels.push(round_score_panel(rounds, &s.values));
    }
    panels.push(Panel {
        title: if players > 1 {
            format!("win rate against {}", s.field)
        } else {
            "win rate".into()
        },
        y_label: "win rate".into(),
        points: back.win_points.clone(),
        reference: (players > 1).then(|| (1.0 / players as f64, format!("fair share 1/{players}"))),
        percent: true,
        best,
        top: back.region.as_ref().map(|r| r.0),
    });
    charts::sweep(
        &sweep_title(&meta.game, &s.policy),
        &sweep_run_line(players, s.games, seed),
        &s.policy,
        &panels,
    )
}

/// The upper panel of a sweep with rounds: the swept policy's mean round
/// score at each value, with its 95% interval (`rounds`, from
/// `study.json`).
fn round_score_panel(rounds: &[[Option<f64>; 3]], values: &[f64]) -> Panel {
    let nan = |v: Option<f64>| v.unwrap_or(f64::NAN);
    Panel {
        title: "mean round score of the swept policy".into(),
        y_label: "points per round".into(),
        points: rounds
            .iter()
            .zip(values)
            .map(|(r, &x)| (x, nan(r[0]), nan(r[1]), nan(r[2])))
            .collect(),
        reference: None,
        percent: false,
        best: Vec::new(),
        top: None,
    }
}
