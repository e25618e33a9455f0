//! Spreadsheet workbooks with the tables and native charts already made.
//!
//! Each table is a sheet with a bold header row and plain numbers (a CSV
//! field that reads as a number is written as a number, an empty field as
//! an empty cell, anything else as text), so the workbook holds exactly
//! what the CSV files hold. Charts are the spreadsheet's own, drawn from
//! the sheet's cells: editing a cell redraws them.

use rust_xlsxwriter::{
    Chart, ChartErrorBars, ChartErrorBarsType, ChartLegendPosition, ChartRange, ChartType, DocProperties,
    ExcelDateTime, Format, Workbook, XlsxError,
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

fn xerr(e: XlsxError) -> String {
    format!("cannot make the workbook: {e}")
}

/// The workbook as bytes.
pub fn workbook(sheets: &[Sheet], charts: &[ChartSpec]) -> Result<Vec<u8>, String> {
    let mut wb = Workbook::new();
    // A fixed creation date: the same run gives the same bytes.
    let when = ExcelDateTime::from_ymd(2000, 1, 1).map_err(xerr)?;
    wb.set_properties(&DocProperties::new().set_creation_datetime(&when));
    let bold = Format::new().set_bold();
    for sheet in sheets {
        let ws = wb.add_worksheet();
        ws.set_name(&sheet.name).map_err(xerr)?;
        for (c, h) in sheet.header.iter().enumerate() {
            ws.write_string_with_format(0, c as u16, h, &bold).map_err(xerr)?;
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
    }
    for spec in charts {
        let sheet = &sheets[spec.sheet];
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
        let ws = wb.worksheet_from_index(spec.sheet).map_err(xerr)?;
        ws.insert_chart(spec.at.0, spec.at.1, &chart).map_err(xerr)?;
    }
    wb.save_to_buffer().map_err(xerr)
}
