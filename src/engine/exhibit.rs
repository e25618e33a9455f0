//! What a game's own command leaves for a page: its files, written with
//! the page all at once, and maps of a value over two game totals, which
//! the report floor draws as heatmaps.

use super::output::Output;

/// A value over every pair of two totals (`values[row * side + col]`,
/// totals `0..side` each), drawn in blocks of `block` totals a side.
pub struct Surface {
    /// The chart's title.
    pub title: String,
    /// The line under it (the model, the deck).
    pub run_line: String,
    /// What the rows are (drawn upward from 0).
    pub rows: String,
    /// What the columns are (drawn rightward from 0).
    pub cols: String,
    /// Totals a side.
    pub side: usize,
    /// Totals a side of one drawn block (its values averaged).
    pub block: usize,
    /// The values.
    pub values: Vec<f64>,
    /// What a block's colour shows, and what its two ends mean (the
    /// positive end first).
    pub legend: [String; 3],
    /// The chart's files beside the page, SVG and PNG, prepared before
    /// anything runs.
    pub files: (Output, Output),
}

/// A command's finished work: its files, its page and what it prints.
pub struct Exhibit {
    /// Its data files and their bytes.
    pub files: Vec<(Output, Vec<u8>)>,
    /// The page's title.
    pub title: String,
    /// The line under the title.
    pub run_line: String,
    /// The page's opening, a paragraph a line.
    pub summary: Vec<String>,
    /// Its maps.
    pub surfaces: Vec<Surface>,
    /// The page (`report.html`), prepared before anything runs.
    pub page: Output,
    /// The command as run.
    pub command: String,
    /// What the console shows once every file is written.
    pub text: String,
}
