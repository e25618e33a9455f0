//! `report.html`: one self-contained page per study. Everything is inline
//! (the SVG charts, the style sheet and the few lines of script that sort
//! the tables), so the page works from a file, offline, and loads nothing
//! from anywhere.

/// `text` with `&`, `<`, `>` and `"` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// An SVG document made fit to sit inside HTML: without its XML
/// declaration and namespace attribute (HTML needs neither, and the page
/// then names no web address at all), and scaling to the page width.
pub fn inline_svg(svg: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    let body = body.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    // Keep the drawn size as a viewBox so the chart scales down on a
    // narrow window.
    let size = |name: &str| -> Option<String> {
        let key = format!("{name}=\"");
        let start = body.find(&key)? + key.len();
        let end = body[start..].find('"')? + start;
        Some(body[start..end].to_string())
    };
    match (size("width"), size("height")) {
        (Some(w), Some(h)) if !body[..body.find('>').unwrap_or(0)].contains("viewBox") => body.replacen(
            "<svg",
            &format!("<svg viewBox=\"0 0 {w} {h}\" class=\"chart\""),
            1,
        ),
        _ => body,
    }
}

/// A table cell: the text shown and, for a number, the value it sorts by.
pub struct Cell {
    /// Shown as it is (escaped).
    pub text: String,
    /// Sort key for a numeric column.
    pub number: Option<f64>,
}

impl Cell {
    /// A text cell.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            number: None,
        }
    }

    /// A numeric cell, shown as `text`, sorted by `value`.
    pub fn number(text: impl Into<String>, value: f64) -> Cell {
        Cell {
            text: text.into(),
            number: value.is_finite().then_some(value),
        }
    }

    /// The cells of a CSV row: a field that reads as a number sorts as one.
    pub fn from_csv(fields: &[String]) -> Vec<Cell> {
        fields
            .iter()
            .map(|c| match c.parse::<f64>() {
                Ok(v) => Cell::number(c.clone(), v),
                Err(_) => Cell::text(c.clone()),
            })
            .collect()
    }
}

/// A table whose columns sort when their heading is clicked.
pub fn sortable_table(header: &[&str], rows: &[Vec<Cell>]) -> String {
    let mut s = String::from("<table class=\"sortable\">\n<thead><tr>");
    for h in header {
        s.push_str(&format!(
            "<th tabindex=\"0\" title=\"click to sort\">{}</th>",
            escape(h)
        ));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        s.push_str("<tr>");
        for c in row {
            match c.number {
                Some(v) => s.push_str(&format!(
                    "<td class=\"num\" data-sort=\"{v}\">{}</td>",
                    escape(&c.text)
                )),
                None => s.push_str(&format!("<td>{}</td>", escape(&c.text))),
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// A definition list of `(term, value)` pairs (the run section).
pub fn facts(items: &[(&str, String)]) -> String {
    let mut s = String::from("<dl class=\"facts\">\n");
    for (k, v) in items {
        s.push_str(&format!("<dt>{}</dt><dd>{}</dd>\n", escape(k), escape(v)));
    }
    s.push_str("</dl>\n");
    s
}

/// Paragraphs, one per line of `lines`.
pub fn paragraphs(lines: &[String]) -> String {
    lines.iter().map(|l| format!("<p>{}</p>\n", escape(l))).collect()
}

const STYLE: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#1e1e1e;line-height:1.45}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.sub{color:#666;margin-top:0}.conclusion{background:#eef4fb;border-left:4px solid #2a5ea8;padding:.6em 1em}
.conclusion p{margin:.35em 0}table{border-collapse:collapse;font-size:.92em;margin:.5em 0}
th,td{padding:.3em .7em;border-bottom:1px solid #e4e4e4;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}
th{cursor:pointer;background:#f4f5f7;user-select:none}th:hover{background:#e6e9ef}th.asc::after{content:' \\25B2'}th.desc::after{content:' \\25BC'}
svg.chart{width:100%;height:auto;display:block;margin:.8em 0}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}
dt{color:#666}.wide{overflow-x:auto}.wide td{white-space:nowrap}td{overflow-wrap:anywhere}td.num{white-space:nowrap;overflow-wrap:normal}dd{margin:0;font-family:ui-monospace,monospace;word-break:break-all}
";

/// Sorts a `table.sortable` by the clicked column: numbers by their
/// `data-sort` value, text alphabetically; a second click reverses.
const SCRIPT: &str = "
document.querySelectorAll('table.sortable').forEach(function(t){
  t.querySelectorAll('th').forEach(function(th,col){
    function sort(){
      var up=!th.classList.contains('asc');
      t.querySelectorAll('th').forEach(function(h){h.classList.remove('asc','desc');});
      th.classList.add(up?'asc':'desc');
      var body=t.tBodies[0];
      var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){
        var x=a.cells[col],y=b.cells[col];
        var p=x.getAttribute('data-sort'),q=y.getAttribute('data-sort');
        var c=(p!==null&&q!==null)?parseFloat(p)-parseFloat(q):x.textContent.localeCompare(y.textContent);
        return up?c:-c;
      });
      rows.forEach(function(r){body.appendChild(r);});
    }
    th.addEventListener('click',sort);
    th.addEventListener('keydown',function(e){if(e.key==='Enter'){sort();}});
  });
});
";

/// The whole page: `title`, a line under it, then `body` (already HTML).
pub fn page(title: &str, subtitle: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{t}</h1>\n<p class=\"sub\">{s}</p>\n{body}<script>{SCRIPT}</script>\n</body>\n</html>\n",
        t = escape(title),
        s = escape(subtitle)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_svg_drops_the_namespace_and_scales() {
        let svg = "<?xml version=\"1.0\"?><svg width=\"900\" height=\"300\" xmlns=\"http://www.w3.org/2000/svg\"><text>a</text></svg>";
        let s = inline_svg(svg);
        assert!(!s.contains("http"), "{s}");
        assert!(
            s.starts_with("<svg viewBox=\"0 0 900 300\" class=\"chart\""),
            "{s}"
        );
    }

    #[test]
    fn escape_covers_markup() {
        assert_eq!(escape("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
    }
}
