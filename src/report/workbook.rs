//! Spreadsheet workbooks of tournaments and sweeps: the tables, error-bar
//! columns and native charts.

use super::xlsx::{self, ChartSpec, RunSheet, Series, Sheet};
use crate::analysis::standings::Report;
use crate::engine::columns::f6;
use crate::engine::stats::Z95;
use crate::studies::tournament::{PAIRWISE_HEADER, STANDINGS_HEADER, header};

fn with_error_columns(sheet: &mut Sheet, value: &str, low: &str, high: &str) -> Option<(u16, u16, u16)> {
    let (v, l, h) = (sheet.col(value)?, sheet.col(low)?, sheet.col(high)?);
    sheet.header.push(format!("{value}_plus"));
    sheet.header.push(format!("{value}_minus"));
    for row in &mut sheet.rows {
        let num = |c: u16| row[c as usize].parse::<f64>().ok();
        let (plus, minus) = match (num(v), num(l), num(h)) {
            (Some(v), Some(l), Some(h)) => (f6(h - v), f6(v - l)),
            _ => (String::new(), String::new()),
        };
        row.push(plus);
        row.push(minus);
    }
    let n = sheet.header.len() as u16;
    Some((v, n - 2, n - 1))
}

/// The workbook of a tournament: standings (with win-rate and rating
/// charts), the pairwise table, the head-to-head matrix and the run.
pub fn tournament_workbook(
    title: &str,
    names: &[String],
    report: &Report,
    standings: Vec<Vec<String>>,
    pairwise: Vec<Vec<String>>,
    run: &RunSheet,
) -> Result<Vec<u8>, String> {
    let (st, cols) = standings_sheet(standings)?;
    let rows = st.rows.len() as u32;
    let pw = Sheet {
        name: "pairwise".into(),
        header: header(&PAIRWISE_HEADER),
        rows: pairwise,
    };
    let matrix = head_to_head_sheet(names, report);
    let charts = standings_charts(title, &cols, rows);
    xlsx::workbook(&[st, pw, matrix], &charts, run)
}

/// The columns of the standings sheet its charts are drawn from.
struct StandingsColumns {
    /// The entrant (the categories).
    entrant: u16,
    /// The win rate.
    win_rate: u16,
    /// The win rate's error bars: the distance up and down.
    win_bars: (u16, u16),
    /// The rating.
    rating: u16,
    /// The rating's error bars: the half-width each way.
    rating_half: u16,
}

/// The standings sheet, with the error-bar columns of the win rate and of
/// the rating (1.96 standard errors each way) added, and where its chart
/// columns are.
fn standings_sheet(standings: Vec<Vec<String>>) -> Result<(Sheet, StandingsColumns), String> {
    let mut st = Sheet {
        name: "standings".into(),
        header: header(&STANDINGS_HEADER),
        rows: standings,
    };
    let (v, plus, minus) = with_error_columns(&mut st, "win_rate", "win_rate_ci95_low", "win_rate_ci95_high")
        .ok_or("internal: standings columns")?;
    let entrant = st.col("entrant").ok_or("internal: entrant column")?;
    let rating = st.col("rating").ok_or("internal: rating column")?;
    let rating_se = st.col("rating_stderr").ok_or("internal: rating column")?;
    // The rating's error bars: 1.96 standard errors each way.
    st.header.push("rating_ci95_half".into());
    for row in &mut st.rows {
        let se = row[rating_se as usize].parse::<f64>().ok();
        row.push(se.map_or(String::new(), |s| f6(Z95 * s)));
    }
    let half = st.header.len() as u16 - 1;
    let cols = StandingsColumns {
        entrant,
        win_rate: v,
        win_bars: (plus, minus),
        rating,
        rating_half: half,
    };
    Ok((st, cols))
}

/// The matrix view of the head-to-head shares: a row and a column per
/// entrant, each cell the share the row entrant took from the column's.
fn head_to_head_sheet(names: &[String], report: &Report) -> Sheet {
    let n = names.len();
    let mut matrix_header = vec!["entrant".to_string()];
    matrix_header.extend(names.iter().cloned());
    Sheet {
        name: "head-to-head".into(),
        header: matrix_header,
        rows: (0..n)
            .map(|a| {
                let mut row = vec![names[a].clone()];
                for b in 0..n {
                    row.push(
                        report
                            .pairs
                            .iter()
                            .find(|p| p.a == a && p.b == b)
                            .map_or(String::new(), |p| f6(p.h2h)),
                    );
                }
                row
            })
            .collect(),
    }
}

/// The charts of the standings sheet, under its `rows` rows: the win rate
/// and the rating, each with its 95% error bars.
fn standings_charts(title: &str, cols: &StandingsColumns, rows: u32) -> [ChartSpec; 2] {
    [
        ChartSpec {
            sheet: 0,
            columns: true,
            title: title.to_string(),
            x_title: "entrant".into(),
            y_title: "win rate (error bars: 95% CI)".into(),
            y_format: Some("0.0%".into()),
            series: vec![Series {
                name: "win rate".into(),
                x_col: cols.entrant,
                y_col: cols.win_rate,
                error_cols: Some(cols.win_bars),
            }],
            at: (rows + 3, 0),
        },
        ChartSpec {
            sheet: 0,
            columns: true,
            title: "Bradley-Terry rating (error bars: 95% CI)".into(),
            x_title: "entrant".into(),
            y_title: "rating (Elo scale)".into(),
            y_format: Some("0".into()),
            series: vec![Series {
                name: "rating".into(),
                x_col: cols.entrant,
                y_col: cols.rating,
                error_cols: Some((cols.rating_half, cols.rating_half)),
            }],
            at: (rows + 3 + 23, 0),
        },
    ]
}

/// The workbook of a sweep: its table with win-rate and round-score
/// charts, and the run.
pub fn sweep_workbook(
    title: &str,
    rounds: bool,
    header_row: Vec<String>,
    rows: Vec<Vec<String>>,
    run: &RunSheet,
) -> Result<Vec<u8>, String> {
    let mut sheet = Sheet {
        name: "sweep".into(),
        header: header_row,
        rows,
    };
    let x = sheet.col("value").ok_or("internal: value column")?;
    let (v, plus, minus) =
        with_error_columns(&mut sheet, "win_rate", "win_rate_ci95_low", "win_rate_ci95_high")
            .ok_or("internal: win rate columns")?;
    let at_row = sheet.rows.len() as u32 + 3;
    let mut charts = vec![ChartSpec {
        sheet: 0,
        columns: false,
        title: format!("win rate: {title}"),
        x_title: "value".into(),
        y_title: "win rate (error bars: 95% CI)".into(),
        y_format: Some("0.0%".into()),
        series: vec![Series {
            name: "win rate".into(),
            x_col: x,
            y_col: v,
            error_cols: Some((plus, minus)),
        }],
        at: (at_row, 0),
    }];
    if rounds && let (Some(m), Some(se)) = (sheet.col("mean_round_score"), sheet.col("round_score_stderr")) {
        sheet.header.push("round_score_ci95_half".into());
        for row in &mut sheet.rows {
            let s = row[se as usize].parse::<f64>().ok();
            row.push(s.map_or(String::new(), |s| f6(Z95 * s)));
        }
        let half = sheet.header.len() as u16 - 1;
        charts.push(ChartSpec {
            sheet: 0,
            columns: false,
            title: format!("mean round score: {title}"),
            x_title: "value".into(),
            y_title: "points per round (error bars: 95% CI)".into(),
            y_format: Some("0.0".into()),
            series: vec![Series {
                name: "mean round score".into(),
                x_col: x,
                y_col: m,
                error_cols: Some((half, half)),
            }],
            at: (at_row + 23, 0),
        });
    }
    xlsx::workbook(&[sheet], &charts, run)
}
