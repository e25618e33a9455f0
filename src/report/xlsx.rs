//! Spreadsheet workbooks with the tables and native charts already made.
//!
//! Each table is a sheet with a bold header row and plain numbers (a CSV
//! field that reads as a number is written as a number, an empty field as
//! an empty cell, anything else as text), so the workbook holds what the
//! CSV files hold; the seed and version that end every CSV row are on the
//! last sheet, "Run", instead, with the command and the date. Charts are
//! the spreadsheet's own, drawn from the sheet's cells: editing a cell
//! redraws them.

use crate::engine::version::{SIM_VERSION, utc_text};
use rust_xlsxwriter::{
    Chart, ChartErrorBars, ChartErrorBarsType, ChartLegendPosition, ChartRange, ChartType, DocProperties,
    ExcelDateTime, Format, Workbook, Worksheet, XlsxError,
};

/// A table for one sheet.
pub struct Sheet {
    /// Sheet name (at most 31 characters).
    pub name: String,
    /// Header row.
    pub header: Vec<String>,
    /// Data rows, as CSV fields.
    pub rows: Vec<Vec<String>>,
}

impl Sheet {
    /// The 0-based column of `name` in the header.
    pub fn col(&self, name: &str) -> Option<u16> {
        self.header.iter().position(|h| h == name).map(|c| c as u16)
    }
}

/// A series of a chart: values (and categories or x values) from columns
/// of a sheet, with optional error bars from two more columns holding the
/// distance up and down.
pub struct Series {
    /// Legend name.
    pub name: String,
    /// Column of categories (bar charts) or x values (scatter charts).
    pub x_col: u16,
    /// Column of values.
    pub y_col: u16,
    /// Columns of the plus and minus distances of the error bars.
    pub error_cols: Option<(u16, u16)>,
}

/// A chart placed on a sheet.
pub struct ChartSpec {
    /// Index of the sheet the data comes from and the chart goes on.
    pub sheet: usize,
    /// Column chart (true) or scatter with lines (false).
    pub columns: bool,
    /// Title.
    pub title: String,
    /// Axis names.
    pub x_title: String,
    /// Axis names.
    pub y_title: String,
    /// Number format of the value axis (e.g. `0%`).
    pub y_format: Option<String>,
    /// Series.
    pub series: Vec<Series>,
    /// Top-left cell (row, column) of the chart.
    pub at: (u32, u16),
}

/// What the "Run" sheet says of the run that made a workbook.
pub struct RunSheet {
    /// The command line of the run (`sim tournament flip7 ...`).
    pub command: String,
    /// Its seed.
    pub seed: u64,
    /// When the workbook was made, in seconds since 1970 (UTC): see
    /// [`workbook_time`](crate::engine::version::workbook_time).
    pub time: i64,
}

fn xerr(e: XlsxError) -> String {
    format!("cannot make the workbook: {e}")
}

/// The workbook as bytes: the `sheets` with their `charts`, then the
/// "Run" sheet (command, seed, version of `sim`, date), all text.
pub fn workbook(sheets: &[Sheet], charts: &[ChartSpec], run: &RunSheet) -> Result<Vec<u8>, String> {
    let mut wb = Workbook::new();
    // The date of the run; with SOURCE_DATE_EPOCH the same run gives the
    // same bytes.
    let when = ExcelDateTime::from_timestamp(run.time).map_err(xerr)?;
    wb.set_properties(&DocProperties::new().set_creation_datetime(&when));
    let bold = Format::new().set_bold();
    for sheet in sheets {
        write_table(wb.add_worksheet(), sheet, &bold)?;
    }
    write_run(wb.add_worksheet(), run, &bold)?;
    for spec in charts {
        let chart = native_chart(&sheets[spec.sheet], spec);
        let ws = wb.worksheet_from_index(spec.sheet).map_err(xerr)?;
        ws.insert_chart(spec.at.0, spec.at.1, &chart).map_err(xerr)?;
    }
    wb.save_to_buffer().map_err(xerr)
}

/// Writes `sheet` on `ws`: its name, the bold header row (each column as
/// wide as its widest field, up to 40), the rows (a field that reads as a
/// number as a number, an empty one as no cell) and the header frozen.
fn write_table(ws: &mut Worksheet, sheet: &Sheet, bold: &Format) -> Result<(), String> {
    ws.set_name(&sheet.name).map_err(xerr)?;
    for (c, h) in sheet.header.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, h, bold).map_err(xerr)?;
        let width = sheet
            .rows
            .iter()
            .map(|r| r.get(c).map_or(0, |f| f.len()))
            .chain([h.len()])
            .max()
            .unwrap_or(8);
        ws.set_column_width(c as u16, (width as f64 + 2.0).min(40.0))
            .map_err(xerr)?;
    }
    for (r, row) in sheet.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, field) in row.iter().enumerate() {
            let c = c as u16;
            if field.is_empty() {
                continue;
            }
            match field.parse::<f64>() {
                Ok(v) if v.is_finite() => ws.write_number(r, c, v).map_err(xerr)?,
                _ => ws.write_string(r, c, field).map_err(xerr)?,
            };
        }
    }
    ws.set_freeze_panes(1, 0).map_err(xerr)?;
    Ok(())
}

/// Writes the "Run" sheet on `ws`: the command, seed, version of `sim`
/// and date of `run`, each as text beside its name.
fn write_run(ws: &mut Worksheet, run: &RunSheet, bold: &Format) -> Result<(), String> {
    ws.set_name("Run").map_err(xerr)?;
    let rows = [
        ("command", run.command.clone()),
        ("seed", run.seed.to_string()),
        ("sim_version", SIM_VERSION.to_string()),
        ("date", utc_text(run.time)),
    ];
    ws.write_string_with_format(0, 0, "field", bold).map_err(xerr)?;
    ws.write_string_with_format(0, 1, "value", bold).map_err(xerr)?;
    for (r, (field, value)) in rows.iter().enumerate() {
        // Text, every one: a seed above 2^53 is not a spreadsheet number.
        ws.write_string(r as u32 + 1, 0, *field).map_err(xerr)?;
        ws.write_string(r as u32 + 1, 1, value).map_err(xerr)?;
    }
    ws.set_column_width(0, 14).map_err(xerr)?;
    ws.set_column_width(1, 80).map_err(xerr)?;
    Ok(())
}

/// The spreadsheet's own chart of `spec`, its series drawn from the cells
/// of `sheet` (with error bars where the series has them).
fn native_chart(sheet: &Sheet, spec: &ChartSpec) -> Chart {
    let last = sheet.rows.len() as u32;
    let mut chart = Chart::new(if spec.columns {
        ChartType::Column
    } else {
        ChartType::ScatterStraightWithMarkers
    });
    for s in &spec.series {
        let range = |col: u16| ChartRange::new_from_range(&sheet.name, 1, col, last, col);
        let series = chart.add_series();
        series
            .set_name(s.name.as_str())
            .set_categories(&range(s.x_col))
            .set_values(&range(s.y_col));
        if let Some((plus, minus)) = s.error_cols {
            let mut bars = ChartErrorBars::new();
            bars.set_type(ChartErrorBarsType::Custom(range(plus), range(minus)))
                .set_end_cap(true);
            series.set_y_error_bars(&bars);
        }
    }
    chart.title().set_name(spec.title.as_str());
    chart.x_axis().set_name(spec.x_title.as_str());
    chart.y_axis().set_name(spec.y_title.as_str());
    if let Some(f) = &spec.y_format {
        chart.y_axis().set_num_format(f.as_str());
    }
    chart.legend().set_position(ChartLegendPosition::Bottom);
    chart.set_width(720).set_height(420);
    chart
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_utc_dates() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_text(1_700_000_000), "2023-11-14 22:13:20 UTC");
        assert_eq!(utc_text(253_402_300_799), "9999-12-31 23:59:59 UTC");
    }
}
