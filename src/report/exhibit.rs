//! The page of a game's own command ([`Exhibit`]): its opening in words,
//! each map drawn as a heatmap (also beside the page as SVG and PNG), and
//! the run; written with the command's files all at once.

use super::charts;
use super::html;
use crate::engine::exhibit::Exhibit;
use crate::engine::failure::Failure;
use crate::engine::output::{Output, commit_all};

/// The page of `exhibit` around its charts (SVG text, one per map).
pub fn exhibit_page(exhibit: &Exhibit, charts_svg: &[String], date: &str, files: &str) -> String {
    let mut body = String::from("<section class=\"conclusion\">\n");
    body.push_str(&html::paragraphs(&exhibit.summary));
    body.push_str("</section>\n");
    for (surface, svg) in exhibit.surfaces.iter().zip(charts_svg) {
        body.push_str(&format!("<h2>{}</h2>\n", html::escape(&surface.title)));
        body.push_str(&html::inline_svg(svg));
    }
    body.push_str("<h2>Run</h2>\n");
    body.push_str(&html::facts(&[
        ("command", exhibit.command.clone()),
        ("version", crate::engine::version::SIM_VERSION.to_string()),
        ("date", date.to_string()),
        ("files", files.to_string()),
    ]));
    html::page(&exhibit.title, &exhibit.run_line, &body)
}

/// Draws the maps of `exhibit`, makes its page, writes every file at once
/// (or none), then prints what the command says.
pub fn publish(exhibit: Exhibit) -> Result<(), Failure> {
    let charts = exhibit
        .surfaces
        .iter()
        .map(charts::surface)
        .collect::<Result<Vec<_>, String>>()?;
    let mut names: Vec<String> = exhibit
        .files
        .iter()
        .filter_map(|(o, _)| o.path().map(file_name))
        .collect();
    for surface in &exhibit.surfaces {
        let (svg, png) = &surface.files;
        names.extend([svg, png].iter().filter_map(|o| o.path().map(file_name)));
    }
    if let Some(p) = exhibit.page.path() {
        names.push(file_name(p));
    }
    let date = crate::engine::version::utc_text(crate::engine::version::workbook_time()?);
    let svgs: Vec<String> = charts.iter().map(|c| c.svg.clone()).collect();
    let page = exhibit_page(&exhibit, &svgs, &date, &names.join(", "));
    let Exhibit {
        files,
        surfaces,
        page: page_out,
        text,
        ..
    } = exhibit;
    let mut all: Vec<(Output, Vec<u8>)> = files;
    for (surface, chart) in surfaces.into_iter().zip(charts) {
        let (svg, png) = surface.files;
        all.push((svg, chart.svg.into_bytes()));
        all.push((png, chart.png));
    }
    all.push((page_out, page.into_bytes()));
    let (outs, bytes): (Vec<Output>, Vec<Vec<u8>>) = all.into_iter().unzip();
    commit_all(outs.into_iter().zip(bytes.iter().map(Vec::as_slice)).collect())?;
    Ok(crate::engine::show::print(text.as_bytes())?)
}

/// The last part of a path.
fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}
