//! Console tables whose columns are as wide as their widest cell.
//!
//! Every console table of the program (each game's seat table, a
//! tournament's standings and head-to-head table, a sweep's values) is
//! built here, so that a long policy spec or a `.toml` path widens its own
//! column instead of pushing the rest of its row out of line. Columns are
//! separated by two spaces; a cell never holds two spaces in a row, so the
//! gaps between columns are the only ones. Widths count characters, not
//! bytes (`±` is one).

/// How a column lines up its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text: cells start at the column's left edge.
    Left,
    /// Numbers: cells end at the column's right edge.
    Right,
}

/// A table of text cells, rendered with every column sized to its content.
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<(String, Align)>,
    /// A label over a run of columns (first and last, inclusive).
    groups: Vec<(String, usize, usize)>,
    rows: Vec<Vec<String>>,
}

/// The gap between two columns.
const GAP: &str = "  ";

fn width(text: &str) -> usize {
    text.chars().count()
}

fn pad(out: &mut String, text: &str, to: usize, align: Align) {
    let fill = " ".repeat(to.saturating_sub(width(text)));
    match align {
        Align::Left => {
            out.push_str(text);
            out.push_str(&fill);
        }
        Align::Right => {
            out.push_str(&fill);
            out.push_str(text);
        }
    }
}

impl Table {
    /// A table with no columns yet.
    pub fn new() -> Table {
        Table::default()
    }

    /// Adds a column headed `header`.
    pub fn column(&mut self, header: &str, align: Align) -> &mut Table {
        self.header.push((header.to_string(), align));
        self
    }

    /// Adds a left-aligned column (text).
    pub fn left(&mut self, header: &str) -> &mut Table {
        self.column(header, Align::Left)
    }

    /// Adds a right-aligned column (numbers).
    pub fn right(&mut self, header: &str) -> &mut Table {
        self.column(header, Align::Right)
    }

    /// The number of columns so far.
    pub fn columns(&self) -> usize {
        self.header.len()
    }

    /// Puts `label` on a line above the header, over the columns `first`
    /// to `last` (0-based, inclusive), e.g. "per round" over the columns
    /// counted per round.
    pub fn group(&mut self, label: &str, first: usize, last: usize) -> &mut Table {
        debug_assert!(
            first <= last && last < self.header.len(),
            "group over missing columns"
        );
        self.groups.push((label.to_string(), first, last));
        self
    }

    /// Adds a row: one cell per column (missing cells are blank).
    pub fn row(&mut self, cells: Vec<String>) -> &mut Table {
        debug_assert!(cells.len() <= self.header.len(), "more cells than columns");
        self.rows.push(cells);
        self
    }

    /// The widths of the columns: the widest cell or header of each,
    /// widened where a group label needs more room than its columns give.
    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.header.iter().map(|(h, _)| width(h)).collect();
        for row in &self.rows {
            for (c, cell) in row.iter().enumerate() {
                w[c] = w[c].max(width(cell));
            }
        }
        for (label, first, last) in &self.groups {
            let span: usize = w[*first..=*last].iter().sum::<usize>() + GAP.len() * (last - first);
            // The label, a space and a dash on each side.
            let need = width(label) + 4;
            if need > span {
                w[*last] += need - span;
            }
        }
        w
    }

    /// The table as text: the group line (if any), the header, then the
    /// rows, each line ending in a newline, with no trailing spaces.
    pub fn render(&self) -> String {
        let w = self.widths();
        let mut out = String::new();
        let finish = |line: String, out: &mut String| {
            out.push_str(line.trim_end());
            out.push('\n');
        };
        if !self.groups.is_empty() {
            let mut line = String::new();
            let mut col = 0;
            let mut groups: Vec<&(String, usize, usize)> = self.groups.iter().collect();
            groups.sort_by_key(|g| g.1);
            for (label, first, last) in groups {
                while col < *first {
                    line.push_str(&" ".repeat(w[col]));
                    line.push_str(GAP);
                    col += 1;
                }
                let span: usize = w[*first..=*last].iter().sum::<usize>() + GAP.len() * (last - first);
                let dashes = span - width(label) - 2;
                let left = dashes / 2;
                line.push_str(&"-".repeat(left));
                line.push(' ');
                line.push_str(label);
                line.push(' ');
                line.push_str(&"-".repeat(dashes - left));
                line.push_str(GAP);
                col = last + 1;
            }
            finish(line, &mut out);
        }
        let mut line = String::new();
        for (c, (h, align)) in self.header.iter().enumerate() {
            if c > 0 {
                line.push_str(GAP);
            }
            pad(&mut line, h, w[c], *align);
        }
        finish(line, &mut out);
        for row in &self.rows {
            let mut line = String::new();
            for (c, (_, align)) in self.header.iter().enumerate() {
                if c > 0 {
                    line.push_str(GAP);
                }
                pad(&mut line, row.get(c).map_or("", String::as_str), w[c], *align);
            }
            finish(line, &mut out);
        }
        out
    }
}

/// `41.12%`: a share as a percentage with two decimals.
pub fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// `[40.44, 41.81]`: a 95% interval of a share, in percent.
pub fn interval(lo: f64, hi: f64) -> String {
    format!("[{:.2}, {:.2}]", 100.0 * lo, 100.0 * hi)
}

/// The columns every game's seat table starts with: seat, policy, win
/// rate and its 95% interval (cells from [`seat_cells`]).
pub fn seat_columns() -> Table {
    let mut t = Table::new();
    t.right("seat").left("policy").right("win rate").right("95% CI");
    t
}

/// The cells of [`seat_columns`] for one seat.
pub fn seat_cells(w: &crate::engine::columns::SeatWins) -> Vec<String> {
    vec![
        w.seat.to_string(),
        w.policy.clone(),
        percent(w.win_rate),
        interval(w.win_ci.0, w.win_ci.1),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let mut t = Table::new();
        t.right("seat").left("policy").right("win rate");
        t.row(vec![
            "0".into(),
            "a-rather-long-policy-spec".into(),
            "41.12%".into(),
        ]);
        t.row(vec!["1".into(), "ev".into(), "9.50%".into()]);
        assert_eq!(
            t.render(),
            "seat  policy                     win rate\n\
             \x20  0  a-rather-long-policy-spec    41.12%\n\
             \x20  1  ev                            9.50%\n"
        );
    }

    #[test]
    fn a_group_label_sits_over_its_columns_and_widens_them_when_needed() {
        let mut t = Table::new();
        t.left("x").right("a").right("b");
        t.group("per round", 1, 2);
        t.row(vec!["row".into(), "1".into(), "2".into()]);
        let text = t.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "     - per round -");
        assert_eq!(lines[1], "x    a           b");
        assert_eq!(lines[2], "row  1           2");
    }

    #[test]
    fn widths_count_characters_not_bytes() {
        let mut t = Table::new();
        t.right("score");
        t.row(vec!["1.0 ± 0.1".into()]);
        assert_eq!(t.render(), "    score\n1.0 ± 0.1\n");
    }
}
