//! The `report.html` page of `sim tune`: the conclusion in words, the
//! winner and the survivors with their fresh-deal intervals, the race
//! chart, every candidate, the method and the run. Built from the report
//! helpers ([`super::html`]) like the pages of tournaments and
//! sweeps.

use super::html::{self, Cell};

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
