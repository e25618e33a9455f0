//! SVG and PNG charts drawn with plotters, into memory (the caller writes
//! the files when the run is complete). Text uses the DejaVu Sans font
//! bundled in `assets/`, so PNGs render the same on any machine, with no
//! system font library.

use std::sync::Once;

use crate::engine::exhibit::Surface;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

fn register_font() {
    REGISTER.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            // The bundled font is valid; a failure would only lose text.
            let _ = plotters::style::register_font("sans-serif", style, FONT);
        }
    });
}

/// A chart drawn both as SVG text and as PNG bytes.
pub struct Chart {
    /// The SVG document.
    pub svg: String,
    /// The PNG file.
    pub png: Vec<u8>,
}

/// One panel of a sweep chart: a line against the parameter with a band.
pub struct Panel {
    /// Panel title.
    pub title: String,
    /// Y axis label.
    pub y_label: String,
    /// `(x, y, low, high)` per point, in x order.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// A horizontal reference line and its label (e.g. the fair share).
    pub reference: Option<(f64, String)>,
    /// Show y as a percentage.
    pub percent: bool,
    /// Per point: in the best region (the best value and every value whose
    /// interval overlaps the best's), marked in green; empty for none.
    pub best: Vec<bool>,
    /// The best point itself (filled green), when there is one.
    pub top: Option<usize>,
}

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("cannot draw the chart: {e}")
}

fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(err)?;
        writer.write_image_data(rgb).map_err(err)?;
    }
    Ok(out)
}

/// The PNG canvas: plotters' bitmap backend with text drawn evenly.
mod even_text {
    use plotters::prelude::{BitMapBackend, DrawingBackend};
    use plotters::style::text_anchor::{HPos, VPos};
    use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};

    use super::FONT;

    /// The bundled font, parsed once, for the PNG text.
    fn glyphs() -> &'static ab_glyph::FontRef<'static> {
        static PARSED: std::sync::OnceLock<ab_glyph::FontRef<'static>> = std::sync::OnceLock::new();
        PARSED.get_or_init(|| ab_glyph::FontRef::try_from_slice(FONT).expect("the bundled font parses"))
    }

    /// The bitmap backend with its own text drawing. Plotters draws bitmap
    /// text glyph by glyph at `floor(pen)` and leaves out each glyph's left
    /// side bearing, so letters sit up to a pixel or two off their places
    /// (`sw ept`, `w in`, a gap in the middle of a long seed). Here every glyph
    /// is placed at its exact, fractional pen position (advance and kerning,
    /// as the layout that sized the text measured it) and rasterised there
    /// with its bearing, anti-aliased. Everything else is the bitmap
    /// backend's own.
    pub(super) struct Png<'a>(pub(super) BitMapBackend<'a>);

    type PngError<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

    impl<'a> DrawingBackend for Png<'a> {
        type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

        fn get_size(&self) -> (u32, u32) {
            self.0.get_size()
        }

        fn ensure_prepared(&mut self) -> Result<(), PngError<'a>> {
            self.0.ensure_prepared()
        }

        fn present(&mut self) -> Result<(), PngError<'a>> {
            self.0.present()
        }

        fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), PngError<'a>> {
            self.0.draw_pixel(point, color)
        }

        fn draw_line<S: BackendStyle>(
            &mut self,
            from: BackendCoord,
            to: BackendCoord,
            style: &S,
        ) -> Result<(), PngError<'a>> {
            self.0.draw_line(from, to, style)
        }

        fn draw_rect<S: BackendStyle>(
            &mut self,
            upper_left: BackendCoord,
            bottom_right: BackendCoord,
            style: &S,
            fill: bool,
        ) -> Result<(), PngError<'a>> {
            self.0.draw_rect(upper_left, bottom_right, style, fill)
        }

        fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            path: I,
            style: &S,
        ) -> Result<(), PngError<'a>> {
            self.0.draw_path(path, style)
        }

        fn draw_circle<S: BackendStyle>(
            &mut self,
            center: BackendCoord,
            radius: u32,
            style: &S,
            fill: bool,
        ) -> Result<(), PngError<'a>> {
            self.0.draw_circle(center, radius, style, fill)
        }

        fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            vert: I,
            style: &S,
        ) -> Result<(), PngError<'a>> {
            self.0.fill_polygon(vert, style)
        }

        fn blit_bitmap(
            &mut self,
            pos: BackendCoord,
            size: (u32, u32),
            src: &[u8],
        ) -> Result<(), PngError<'a>> {
            self.0.blit_bitmap(pos, size, src)
        }

        fn draw_text<S: BackendTextStyle>(
            &mut self,
            text: &str,
            style: &S,
            pos: BackendCoord,
        ) -> Result<(), PngError<'a>> {
            use ab_glyph::{Font, ScaleFont, point};
            let color = style.color();
            if color.alpha == 0.0 {
                return Ok(());
            }
            // Anchored as plotters anchors it, on the box its layout gives.
            let ((min_x, min_y), (max_x, max_y)) = style
                .layout_box(text)
                .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
            let (width, height) = (max_x - min_x, max_y - min_y);
            let dx = match style.anchor().h_pos {
                HPos::Left => 0,
                HPos::Right => -width,
                HPos::Center => -width / 2,
            };
            let dy = match style.anchor().v_pos {
                VPos::Top => 0,
                VPos::Center => -height / 2,
                VPos::Bottom => -height,
            };
            let trans = style.transform();
            let (w, h) = self.get_size();
            let size = style.size() as f32;
            let font = glyphs().as_scaled(size);
            // The baseline where plotters puts it: half the size below the top.
            let baseline = size / 2.0;
            let mut pen = 0.0f32;
            let mut prev = None;
            let mut pixels: Vec<(i32, i32, f32)> = Vec::new();
            for c in text.chars() {
                let id = font.glyph_id(c);
                if let Some(p) = prev {
                    pen += font.kern(p, id);
                }
                let glyph = id.with_scale_and_position(font.scale(), point(pen, baseline));
                if let Some(outline) = font.outline_glyph(glyph) {
                    let b = outline.px_bounds();
                    let (bx, by) = (b.min.x as i32, b.min.y as i32);
                    outline.draw(|x, y, cover| pixels.push((bx + x as i32, by + y as i32, cover)));
                }
                pen += font.h_advance(id);
                prev = Some(id);
            }
            for (x, y, cover) in pixels {
                if cover <= 0.0 {
                    continue;
                }
                let (x, y) = trans.transform(x + dx - min_x, y + dy - min_y);
                let (x, y) = (pos.0 + x, pos.1 + y);
                if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                    self.0.draw_pixel((x, y), color.mix(f64::from(cover.min(1.0))))?;
                }
            }
            Ok(())
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use ab_glyph::{Font, ScaleFont};
        use plotters::prelude::{IntoFont, TextStyle};

        /// Each letter of a row of `l`s is drawn one advance after the
        /// one before, to a fraction of a pixel (plotters' own bitmap
        /// text, at each pen position rounded down, is off by up to a
        /// pixel: this test was checked to fail when the positions are rounded down).
        #[test]
        fn letters_sit_one_advance_apart() {
            super::super::register_font();
            let (w, h) = (300u32, 40u32);
            let mut rgb = vec![255u8; (w * h * 3) as usize];
            let size = 19.0;
            {
                let mut png = Png(BitMapBackend::with_buffer(&mut rgb, (w, h)));
                let style: TextStyle<'_> = ("sans-serif", size).into_font().color(&plotters::style::BLACK);
                png.draw_text("llllllllllll", &style, (20, 20)).unwrap();
            }
            // Ink per column, and the ink-weighted middle of each letter.
            let ink: Vec<f64> = (0..w as usize)
                .map(|x| {
                    (0..h as usize)
                        .map(|y| 255.0 - f64::from(rgb[(y * w as usize + x) * 3]))
                        .sum()
                })
                .collect();
            let mut middles = Vec::new();
            let mut x = 0;
            while x < ink.len() {
                if ink[x] > 0.0 {
                    let start = x;
                    while x < ink.len() && ink[x] > 0.0 {
                        x += 1;
                    }
                    let total: f64 = ink[start..x].iter().sum();
                    middles.push((start..x).map(|c| c as f64 * ink[c]).sum::<f64>() / total);
                }
                x += 1;
            }
            assert_eq!(middles.len(), 12, "twelve separate letters: {middles:?}");
            let font = glyphs().as_scaled(size as f32);
            let advance = f64::from(font.h_advance(font.glyph_id('l')));
            assert!(
                advance.fract() > 0.1 && advance.fract() < 0.9,
                "a fractional advance: {advance}"
            );
            for pair in middles.windows(2) {
                let gap = pair[1] - pair[0];
                assert!(
                    (gap - advance).abs() < 0.2,
                    "{gap} apart, the advance is {advance}: {middles:?}"
                );
            }
        }
    }
}

use even_text::Png;

/// Draws `draw` on an SVG and on a PNG canvas of `w` x `h` pixels.
fn both(w: u32, h: u32, draw: impl Fn(Canvas<'_>) -> Result<(), String>) -> Result<Chart, String> {
    register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        draw(Canvas::Svg(root))?;
    }
    let mut rgb = vec![255u8; (w * h * 3) as usize];
    {
        let root = Png(BitMapBackend::with_buffer(&mut rgb, (w, h))).into_drawing_area();
        draw(Canvas::Png(root))?;
    }
    Ok(Chart {
        svg,
        png: encode_png(&rgb, w, h)?,
    })
}

/// Either drawing area; plotters' drawing code is generic over backends.
enum Canvas<'a> {
    Svg(DrawingArea<SVGBackend<'a>, Shift>),
    Png(DrawingArea<Png<'a>, Shift>),
}

macro_rules! on_canvas {
    ($canvas:expr, $f:ident ( $($arg:expr),* )) => {
        match $canvas {
            Canvas::Svg(root) => { $f(&root, $($arg),*)?; root.present().map_err(err) }
            Canvas::Png(root) => { $f(&root, $($arg),*)?; root.present().map_err(err) }
        }
    };
}

/// A tick label of a fractional axis: at most six decimals, trailing
/// zeros dropped (`0.15`, not the `0.15000000000000002` of a stepped
/// float).
fn tick(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

/// Draws a sweep chart: the heading, then each panel in its own band, one
/// under another.
fn draw_panels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    run: &str,
    x_label: &str,
    panels: &[Panel],
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let top = draw_heading(root, title, run)?;
    let root = root.margin(top as u32, 0, 0, 0);
    let areas = root.split_evenly((panels.len().max(1), 1));
    for (area, p) in areas.iter().zip(panels) {
        draw_panel(area, p, x_label)?;
    }
    Ok(())
}

/// The data range of a sweep panel: x over its points (one either side of
/// a single x), y over their bands and the reference line.
struct Extent {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

/// The [`Extent`] of the panel `p`.
fn panel_extent(p: &Panel) -> Extent {
    let xs = p.points.iter().map(|q| q.0);
    let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (x0, x1) = if x0 < x1 { (x0, x1) } else { (x0 - 1.0, x0 + 1.0) };
    let ys = p
        .points
        .iter()
        .flat_map(|q| [q.2, q.3])
        .chain(p.reference.as_ref().map(|r| r.0));
    let (y0, y1) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    Extent { x0, x1, y0, y1 }
}

/// The corner of the panel `p` with the fewest points, where its legend
/// goes.
fn legend_corner(p: &Panel, e: &Extent) -> SeriesLabelPosition {
    let (xm, ym) = ((e.x0 + e.x1) / 2.0, (e.y0 + e.y1) / 2.0);
    let count = |right: bool, upper: bool| {
        p.points
            .iter()
            .filter(|q| (q.0 >= xm) == right && (q.1.max(q.3) >= ym || q.1 >= ym) == upper)
            .count()
    };
    [
        (count(true, true), SeriesLabelPosition::UpperRight),
        (count(false, true), SeriesLabelPosition::UpperLeft),
        (count(true, false), SeriesLabelPosition::LowerRight),
        (count(false, false), SeriesLabelPosition::LowerLeft),
    ]
    .into_iter()
    .min_by_key(|c| c.0)
    .map_or(SeriesLabelPosition::UpperRight, |c| c.1)
}

/// A sweep panel's chart: plotters' x-y coordinates of the data.
type PanelChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws one panel of a sweep chart on `area`: its axes and grid, its
/// series and its legend.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &Panel,
    x_label: &str,
) -> Result<(), String> {
    let e = panel_extent(p);
    let (x0, x1, y0, y1) = (e.x0, e.x1, e.y0, e.y1);
    let pad = ((y1 - y0) * 0.08).max(1e-6);
    let percent = p.percent;
    let whole_x = p.points.iter().all(|q| q.0.fract() == 0.0);
    // The legend goes in the corner with the fewest points.
    let corner = legend_corner(p, &e);
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, ("sans-serif", 17))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        // A little room at both ends, so a ringed end point is whole.
        .build_cartesian_2d(
            (x0 - (x1 - x0) * 0.02)..(x1 + (x1 - x0) * 0.02),
            (y0 - pad)..(y1 + pad),
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(&p.y_label)
        .light_line_style(RGBColor(240, 240, 240))
        // Whole values get whole labels only: no `20 20 21` from ticks
        // at 20.0 and 20.5.
        .x_label_formatter(&|x| match whole_x {
            true if (x - x.round()).abs() < 1e-9 => format!("{x:.0}"),
            true => String::new(),
            false => tick(*x),
        })
        .y_label_formatter(&|y| {
            if percent {
                format!("{:.1}%", y * 100.0)
            } else {
                format!("{y:.2}")
            }
        })
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    draw_panel_series(&mut chart, p, &e)?;
    chart
        .configure_series_labels()
        .position(corner)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .draw()
        .map_err(err)
}

/// Draws the series of the panel `p`, each with its legend entry: the 95%
/// band, the line and dots of the estimates, the best region and the best
/// point ringed in green, and the reference line across `e`.
fn draw_panel_series<DB: DrawingBackend>(
    chart: &mut PanelChart<'_, DB>,
    p: &Panel,
    e: &Extent,
) -> Result<(), String> {
    let colour = RGBColor(40, 90, 170);
    let band: Vec<(f64, f64)> = p
        .points
        .iter()
        .map(|q| (q.0, q.3))
        .chain(p.points.iter().rev().map(|q| (q.0, q.2)))
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, colour.mix(0.2).filled())))
        .map_err(err)?
        .label("95% CI")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], colour.mix(0.2).filled()));
    chart
        .draw_series(LineSeries::new(
            p.points.iter().map(|q| (q.0, q.1)),
            colour.stroke_width(2),
        ))
        .map_err(err)?
        .label("estimate")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
    chart
        .draw_series(
            p.points
                .iter()
                .map(|q| Circle::new((q.0, q.1), 3, colour.filled())),
        )
        .map_err(err)?;
    if p.best.iter().any(|b| *b) {
        let green = RGBColor(20, 150, 70);
        chart
            .draw_series(
                p.points
                    .iter()
                    .zip(&p.best)
                    .filter(|(_, b)| **b)
                    .map(|(q, _)| Circle::new((q.0, q.1), 6, green.stroke_width(2))),
            )
            .map_err(err)?
            .label("best region")
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, green.stroke_width(2)));
        if let Some(q) = p.top.and_then(|i| p.points.get(i)) {
            chart
                .draw_series(std::iter::once(Circle::new((q.0, q.1), 5, green.filled())))
                .map_err(err)?
                .label("best")
                .legend(move |(x, y)| Circle::new((x + 10, y), 5, green.filled()));
        }
    }
    if let Some((y, label)) = &p.reference {
        chart
            .draw_series(LineSeries::new([(e.x0, *y), (e.x1, *y)], RED.stroke_width(1)))
            .map_err(err)?
            .label(label.clone())
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(1)));
    }
    Ok(())
}

/// One panel per measure (stacked), each a line against the swept
/// parameter with its 95% band and its best region ringed; `run` is the
/// line under the title, shrunk to fit at any length.
pub fn sweep(title: &str, run: &str, x_label: &str, panels: &[Panel]) -> Result<Chart, String> {
    let h = 70 + 380 * panels.len() as u32;
    both(WIDTH, h, |canvas| {
        on_canvas!(canvas, draw_panels(title, run, x_label, panels))
    })
}

/// One row of a forest plot: an estimate and its 95% interval.
#[derive(Clone, Debug)]
pub struct Row {
    /// Label on the left.
    pub name: String,
    /// The estimate.
    pub value: f64,
    /// Its 95% interval.
    pub ci: (f64, f64),
}

/// One panel of a forest plot: a column of estimates sharing an axis.
#[derive(Clone, Debug)]
pub struct Forest {
    /// Heading above the panel (what is measured).
    pub heading: String,
    /// One row per entrant, in the order shown (top first).
    pub rows: Vec<Row>,
    /// A vertical reference line (the fair share) and its label.
    pub reference: Option<(f64, String)>,
    /// Show values as percentages.
    pub percent: bool,
}

/// A square table of shares, row against column (the head-to-head).
#[derive(Clone, Debug)]
pub struct Heat {
    /// Entrant names, in the order of rows and columns.
    pub names: Vec<String>,
    /// `shares[r][c]`: the share row `r` took from column `c` (NaN: none;
    /// the diagonal is ignored).
    pub shares: Vec<Vec<f64>>,
    /// `marked[r][c]`: significant after Holm's correction.
    pub marked: Vec<Vec<bool>>,
    /// Comparisons the correction was over.
    pub comparisons: usize,
}

const INK: RGBColor = RGBColor(30, 30, 30);
const GREY: RGBColor = RGBColor(110, 110, 110);
const DOT: RGBColor = RGBColor(25, 80, 160);
const FAIR: RGBColor = RGBColor(200, 40, 40);
const WIDTH: u32 = 900;

/// A text style: `size` pixels, anchored at `h` horizontally and at the
/// middle vertically.
fn style(size: f64, h: HPos, bold: bool, colour: &RGBColor) -> TextStyle<'static> {
    let font = if bold {
        ("sans-serif", size).into_font().style(FontStyle::Bold)
    } else {
        ("sans-serif", size).into_font()
    };
    TextStyle {
        font,
        color: colour.to_backend_color(),
        pos: Pos::new(h, VPos::Center),
    }
}

/// Width of `text` in pixels at `st`.
fn text_width<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, text: &str, st: &TextStyle<'_>) -> u32 {
    root.estimate_text_size(text, st)
        .map_or(text.chars().count() as u32 * 8, |s| s.0)
}

/// The largest size up to `max` (down to 7) at which `text` fits in
/// `width` pixels.
fn fit<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    max: f64,
    width: u32,
    bold: bool,
) -> f64 {
    let mut size = max;
    while size > 7.0 && text_width(root, text, &style(size, HPos::Left, bold, &INK)) > width {
        size -= 0.5;
    }
    size
}

/// `text` cut (with an ellipsis) to fit `width` pixels at `st`.
fn clip<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    width: u32,
    st: &TextStyle<'_>,
) -> String {
    if text_width(root, text, st) <= width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (1..chars.len()).rev() {
        let s: String = chars[..keep].iter().collect::<String>() + "…";
        if text_width(root, &s, st) <= width {
            return s;
        }
    }
    "…".to_string()
}

/// Draws the title (bold) and the run line under it, each shrunk to fit
/// the width; returns the height they take.
fn draw_heading<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    run: &str,
) -> Result<i32, String> {
    let (w, _) = root.dim_in_pixel();
    let room = w.saturating_sub(30);
    let t = fit(root, title, 20.0, room, true);
    root.draw_text(title, &style(t, HPos::Center, true, &INK), (w as i32 / 2, 20))
        .map_err(err)?;
    let r = fit(root, run, 14.0, room, false);
    root.draw_text(run, &style(r, HPos::Center, false, &GREY), (w as i32 / 2, 44))
        .map_err(err)?;
    Ok(62)
}

/// A "nice" tick step for the range `span` with about `count` ticks.
fn nice_step(span: f64, count: f64) -> f64 {
    let raw = (span / count).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.5 {
        2.0
    } else if f < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// A value as shown on a forest plot's axis or beside a row.
fn show(x: f64, percent: bool, decimals: usize) -> String {
    if percent {
        format!("{:.*}%", decimals, x * 100.0)
    } else {
        format!("{x:.decimals$}")
    }
}

/// A dashed vertical line from `y0` to `y1` at `x`.
fn dashed<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    x: i32,
    y0: i32,
    y1: i32,
    colour: &RGBColor,
) -> Result<(), String> {
    let mut y = y0;
    while y < y1 {
        root.draw(&PathElement::new(
            [(x, y), (x, (y + 6).min(y1))],
            colour.stroke_width(2),
        ))
        .map_err(err)?;
        y += 10;
    }
    Ok(())
}

/// Draws a forest plot: the heading, the shaded rows and their names, each
/// panel beside them, and the note at the bottom.
fn draw_forest<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    run: &str,
    panels: &[Forest],
    note: &str,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    let top = draw_heading(root, title, run)?;
    let n = panels.first().map_or(0, |p| p.rows.len());
    let row_h = forest_row_height(n);
    let header_h = 44;
    let rows_top = top + header_h;
    let layout = ForestLayout {
        top,
        rows_top,
        rows_bottom: rows_top + row_h * n as i32,
        row_h,
        value_style: style(if n > 16 { 11.0 } else { 12.0 }, HPos::Left, false, &GREY),
    };
    let label_w = draw_forest_names(root, panels, &layout)?;
    let room = w as i32 - label_w as i32 - 10;
    let per = room / panels.len().max(1) as i32;
    for (k, p) in panels.iter().enumerate() {
        let x_left = label_w as i32 + per * k as i32;
        draw_forest_panel(root, &layout, p, x_left, per)?;
    }
    let ns = fit(root, note, 12.0, w - 30, false);
    root.draw_text(note, &style(ns, HPos::Left, false, &GREY), (15, h as i32 - 16))
        .map_err(err)?;
    Ok(())
}

/// Where a forest plot's rows go, shared by all its panels.
struct ForestLayout {
    /// The top of the band of panel headings, under the title.
    top: i32,
    /// The top of the first row.
    rows_top: i32,
    /// The bottom of the last row.
    rows_bottom: i32,
    /// The height of a row.
    row_h: i32,
    /// The style of the values written beside the rows.
    value_style: TextStyle<'static>,
}

/// Draws the alternate row shading across the whole width and the row
/// names on the left; returns the width the names take.
fn draw_forest_names<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panels: &[Forest],
    layout: &ForestLayout,
) -> Result<u32, String> {
    let (w, _) = root.dim_in_pixel();
    let ForestLayout { rows_top, row_h, .. } = *layout;
    let n = panels.first().map_or(0, |p| p.rows.len());
    let label_size = if n > 16 { 12.0 } else { 14.0 };
    let label_style = style(label_size, HPos::Right, false, &INK);
    let names: Vec<&str> = panels
        .first()
        .map(|p| p.rows.iter().map(|r| r.name.as_str()).collect())
        .unwrap_or_default();
    let widest = names
        .iter()
        .map(|s| text_width(root, s, &label_style))
        .max()
        .unwrap_or(40);
    let label_w = (widest + 24).clamp(60, w / 4);
    // Alternate row shading across the whole width, under everything.
    for i in (0..n).step_by(2) {
        let y = rows_top + row_h * i as i32;
        root.draw(&Rectangle::new(
            [(8, y), (w as i32 - 8, y + row_h)],
            RGBColor(243, 245, 248).filled(),
        ))
        .map_err(err)?;
    }
    for (i, name) in names.iter().enumerate() {
        let y = rows_top + row_h * i as i32 + row_h / 2;
        let shown = clip(root, name, label_w - 16, &label_style);
        root.draw_text(&shown, &label_style, (label_w as i32 - 8, y))
            .map_err(err)?;
    }
    Ok(label_w)
}

/// Where one forest panel's axis goes: from the value `x0` at pixel
/// `px0` to `x1` at `px1`.
struct PanelPlace {
    /// The pixel of the axis's left end.
    px0: i32,
    /// The pixel of the axis's right end.
    px1: i32,
    /// The value at the left end.
    x0: f64,
    /// The value at the right end.
    x1: f64,
}

impl PanelPlace {
    /// The pixel of the value `v` on the axis.
    fn px(&self, v: f64) -> i32 {
        self.px0 + ((v - self.x0) / (self.x1 - self.x0) * (self.px1 - self.px0) as f64).round() as i32
    }
}

/// The text beside each row of the panel `p`: "33.90% [33.21, 34.58]".
fn forest_texts(p: &Forest) -> Vec<String> {
    p.rows
        .iter()
        .map(|r| {
            let d = if p.percent { 2 } else { 3 };
            let (lo, hi) = if p.percent {
                (r.ci.0 * 100.0, r.ci.1 * 100.0)
            } else {
                r.ci
            };
            if r.ci.0.is_finite() {
                format!("{} [{lo:.d$}, {hi:.d$}]", show(r.value, p.percent, d))
            } else {
                show(r.value, p.percent, d)
            }
        })
        .collect()
}

/// The axis range of the panel `p`: zoomed to the data and the reference,
/// with a margin.
fn forest_range(p: &Forest) -> (f64, f64) {
    let values = p
        .rows
        .iter()
        .flat_map(|r| [r.value, r.ci.0, r.ci.1])
        .chain(p.reference.as_ref().map(|r| r.0))
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else if lo.is_finite() {
        (lo - 0.01, lo + 0.01)
    } else {
        (0.0, 1.0)
    };
    let pad = (hi - lo) * 0.08;
    (lo - pad, hi + pad)
}

/// Draws the forest panel `p` in the `per` pixels from `x_left`: its
/// heading, axis, reference line, and each row's estimate and value.
fn draw_forest_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    layout: &ForestLayout,
    p: &Forest,
    x_left: i32,
    per: i32,
) -> Result<(), String> {
    // Beside each row: "33.90% [33.21, 34.58]", in a column of its own.
    let texts = forest_texts(p);
    let text_w = texts
        .iter()
        .map(|t| text_width(root, t, &layout.value_style))
        .max()
        .unwrap_or(60) as i32
        + 12;
    let px0 = x_left + 14;
    let px1 = (x_left + per - text_w - 8).max(px0 + 60);
    let (x0, x1) = forest_range(p);
    let place = PanelPlace { px0, px1, x0, x1 };
    // Heading, and the reference label in the header band.
    let hs = fit(root, &p.heading, 14.0, (px1 - px0 + text_w) as u32, true);
    root.draw_text(
        &p.heading,
        &style(hs, HPos::Left, true, &INK),
        (px0, layout.top + 8),
    )
    .map_err(err)?;
    draw_forest_axis(root, layout, p, &place)?;
    if let Some((v, label)) = &p.reference {
        let x = place.px(*v);
        dashed(root, x, layout.rows_top - 6, layout.rows_bottom, &FAIR)?;
        let ls = style(11.5, HPos::Center, false, &FAIR);
        let lw = text_width(root, label, &ls) as i32;
        let cx = x.clamp(px0 + lw / 2, (px1 + text_w - lw / 2).max(px0 + lw / 2));
        root.draw_text(label, &ls, (cx, layout.top + 28)).map_err(err)?;
    }
    draw_forest_rows(root, layout, p, &texts, &place)
}

/// Draws the axis of the forest panel `p`: its ticks, their labels and
/// grid lines, and the axis line.
fn draw_forest_axis<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    layout: &ForestLayout,
    p: &Forest,
    place: &PanelPlace,
) -> Result<(), String> {
    let PanelPlace { px0, px1, x0, x1, .. } = *place;
    let (rows_top, rows_bottom) = (layout.rows_top, layout.rows_bottom);
    let step = nice_step(x1 - x0, ((px1 - px0) as f64 / 90.0).max(2.0));
    let decimals = if p.percent {
        (-(step * 100.0).log10().floor()).max(0.0) as usize
    } else {
        (-step.log10().floor()).max(0.0) as usize
    };
    let mut t = (x0 / step).ceil() * step;
    let tick_style = style(11.0, HPos::Center, false, &GREY);
    while t <= x1 + 1e-12 {
        let x = place.px(t);
        root.draw(&PathElement::new(
            [(x, rows_top), (x, rows_bottom)],
            RGBColor(220, 222, 228).stroke_width(1),
        ))
        .map_err(err)?;
        root.draw(&PathElement::new(
            [(x, rows_bottom), (x, rows_bottom + 5)],
            GREY.stroke_width(1),
        ))
        .map_err(err)?;
        root.draw_text(&show(t, p.percent, decimals), &tick_style, (x, rows_bottom + 14))
            .map_err(err)?;
        t += step;
    }
    root.draw(&PathElement::new(
        [(px0, rows_bottom), (px1, rows_bottom)],
        GREY.stroke_width(1),
    ))
    .map_err(err)?;
    Ok(())
}

/// Draws each row of the forest panel `p`: the line across its interval,
/// the dot at its estimate and its text in the column of values.
fn draw_forest_rows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    layout: &ForestLayout,
    p: &Forest,
    texts: &[String],
    place: &PanelPlace,
) -> Result<(), String> {
    for (i, (r, text)) in p.rows.iter().zip(texts).enumerate() {
        let y = layout.rows_top + layout.row_h * i as i32 + layout.row_h / 2;
        if r.ci.0.is_finite() && r.ci.1.is_finite() {
            let (a, b) = (place.px(r.ci.0), place.px(r.ci.1));
            root.draw(&PathElement::new([(a, y), (b, y)], DOT.stroke_width(2)))
                .map_err(err)?;
            for x in [a, b] {
                root.draw(&PathElement::new([(x, y - 5), (x, y + 5)], DOT.stroke_width(2)))
                    .map_err(err)?;
            }
        }
        if r.value.is_finite() {
            root.draw(&Circle::new((place.px(r.value), y), 4, DOT.filled()))
                .map_err(err)?;
        }
        root.draw_text(text, &layout.value_style, (place.px1 + 10, y))
            .map_err(err)?;
    }
    Ok(())
}

/// Row height of a forest plot of `n` rows.
fn forest_row_height(n: usize) -> i32 {
    if n > 16 { 22 } else { 30 }
}

/// A forest plot: per row, a dot at the estimate and a line across its
/// 95% interval, one panel per measure side by side, the axis zoomed to
/// the data, a dashed line at each panel's reference, and the values
/// written in a column of their own so no label overlaps another. `run`
/// is the line under the title (seed and size: shrunk to fit at any
/// length), `note` the line at the bottom.
pub fn forest(title: &str, run: &str, panels: &[Forest], note: &str) -> Result<Chart, String> {
    let n = panels.first().map_or(0, |p| p.rows.len()) as u32;
    let h = 62 + 44 + forest_row_height(n as usize) as u32 * n + 34 + 30;
    both(WIDTH, h, |canvas| {
        on_canvas!(canvas, draw_forest(title, run, panels, note))
    })
}

/// Fill colour of a share: blue above 50%, orange below, paler nearer;
/// `span` is the distance from 50% that takes the full colour.
fn heat_colour(share: f64, span: f64) -> RGBColor {
    if !share.is_finite() {
        return RGBColor(225, 225, 225);
    }
    let t = ((share - 0.5) / span).clamp(-1.0, 1.0);
    let (full, k) = if t >= 0.0 {
        ((40.0, 100.0, 190.0), t)
    } else {
        ((215.0, 95.0, 30.0), -t)
    };
    let mix = |c: f64| (255.0 + (c - 255.0) * k * 0.85).round() as u8;
    RGBColor(mix(full.0), mix(full.1), mix(full.2))
}

/// The largest distance of a share from 50% (at least 2 points): the
/// colour scale's half-width.
fn heat_span(heat: &Heat) -> f64 {
    heat.shares
        .iter()
        .flatten()
        .filter(|s| s.is_finite())
        .map(|s| (s - 0.5).abs())
        .fold(0.02, f64::max)
}

/// Cell size of a heatmap of `n` entrants.
fn cell_size(n: usize) -> i32 {
    (600 / n.max(1) as i32).clamp(26, 80)
}

/// Draws a heatmap: the heading, the column numbers, each row of cells
/// with its number and name, the colour scale and the legend.
fn draw_heat<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    run: &str,
    heat: &Heat,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let top = draw_heading(root, title, run)?;
    let layout = heat_layout(root, heat, top);
    draw_heat_columns(root, heat, &layout)?;
    for (i, name) in heat.names.iter().enumerate() {
        draw_heat_row(root, heat, &layout, i, name)?;
    }
    // The colour scale.
    let ly = layout.y0 + layout.grid + 22;
    let span = layout.span;
    let ends = [
        format!("{:.1}%", (0.5 - span) * 100.0),
        format!("{:.1}%", (0.5 + span) * 100.0),
    ];
    draw_heat_scale(root, span, ly, [&ends[0], "50%", &ends[1]])?;
    draw_heat_legend(root, heat, ly)
}

/// Where a heatmap's grid and names go, and how its cells are coloured.
struct HeatLayout {
    /// The top of the column headings, under the title.
    top: i32,
    /// The side of a cell.
    c: i32,
    /// The side of the whole grid.
    grid: i32,
    /// The width of the row names and numbers left of the grid.
    label_w: i32,
    /// The grid's left edge.
    x0: i32,
    /// The grid's top edge.
    y0: i32,
    /// The style of the row names.
    label_style: TextStyle<'static>,
    /// The colour scale's half-width (see [`heat_span`]).
    span: f64,
    /// The size of the text in a cell.
    text_size: f64,
}

/// The [`HeatLayout`] of `heat` under a heading `top` pixels high.
fn heat_layout<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, heat: &Heat, top: i32) -> HeatLayout {
    let (w, _) = root.dim_in_pixel();
    let n = heat.names.len();
    let c = cell_size(n);
    let label_style = style(if n > 16 { 11.5 } else { 13.0 }, HPos::Right, false, &INK);
    let widest = heat
        .names
        .iter()
        .map(|s| text_width(root, s, &label_style))
        .max()
        .unwrap_or(40);
    let grid = c * n as i32;
    // Name, then its number (the column heading), right-aligned.
    let label_w = (widest as i32 + 44).clamp(80, (w as i32 - grid - 30).max(80));
    HeatLayout {
        top,
        c,
        grid,
        label_w,
        x0: label_w + ((w as i32 - label_w - grid - 20) / 2).max(0),
        y0: top + 40,
        label_style,
        span: heat_span(heat),
        text_size: (c as f64 * 0.28).clamp(8.5, 15.0),
    }
}

/// Draws "against (column)" over the grid and each column's number.
fn draw_heat_columns<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heat: &Heat,
    layout: &HeatLayout,
) -> Result<(), String> {
    let HeatLayout {
        top, c, grid, x0, y0, ..
    } = *layout;
    let cs = style(11.5, HPos::Center, false, &GREY);
    root.draw_text("against (column)", &cs, (x0 + grid / 2, top + 6))
        .map_err(err)?;
    for (j, _) in heat.names.iter().enumerate() {
        root.draw_text(
            &(j + 1).to_string(),
            &style(12.0, HPos::Center, true, &INK),
            (x0 + c * j as i32 + c / 2, y0 - 12),
        )
        .map_err(err)?;
    }
    Ok(())
}

/// Draws row `i` of a heatmap: its number, its name (cut to fit) and its
/// cells.
fn draw_heat_row<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heat: &Heat,
    layout: &HeatLayout,
    i: usize,
    name: &str,
) -> Result<(), String> {
    let HeatLayout {
        c, label_w, x0, y0, ..
    } = *layout;
    let y = y0 + c * i as i32;
    root.draw_text(
        &(i + 1).to_string(),
        &style(12.0, HPos::Right, true, &INK),
        (x0 - 8, y + c / 2),
    )
    .map_err(err)?;
    let shown = clip(root, name, label_w as u32 - 44, &layout.label_style);
    root.draw_text(&shown, &layout.label_style, (x0 - 32, y + c / 2))
        .map_err(err)?;
    for j in 0..heat.names.len() {
        draw_heat_cell(root, heat, layout, (i, j))?;
    }
    Ok(())
}

/// Draws the cell of row `i` and column `j`: on the diagonal a pale cell
/// struck through; elsewhere the share's colour, an outline where it is
/// significant, and the share written in it (starred where significant).
fn draw_heat_cell<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heat: &Heat,
    layout: &HeatLayout,
    (i, j): (usize, usize),
) -> Result<(), String> {
    let HeatLayout { c, x0, y0, span, .. } = *layout;
    let (x, y) = (x0 + c * j as i32, y0 + c * i as i32);
    if i == j {
        root.draw(&Rectangle::new(
            [(x, y), (x + c, y + c)],
            RGBColor(250, 250, 250).filled(),
        ))
        .map_err(err)?;
        root.draw(&PathElement::new(
            [(x + 4, y + 4), (x + c - 4, y + c - 4)],
            RGBColor(200, 200, 200).stroke_width(1),
        ))
        .map_err(err)?;
        return Ok(());
    }
    let share = heat.shares[i][j];
    let fill = heat_colour(share, span);
    root.draw(&Rectangle::new([(x, y), (x + c, y + c)], fill.filled()))
        .map_err(err)?;
    root.draw(&Rectangle::new([(x, y), (x + c, y + c)], WHITE.stroke_width(1)))
        .map_err(err)?;
    let strong = ((share - 0.5) / span).abs() > 0.6;
    let ink = if strong { WHITE } else { INK };
    let mark = heat.marked[i][j];
    if mark {
        root.draw(&Rectangle::new(
            [(x + 2, y + 2), (x + c - 2, y + c - 2)],
            INK.stroke_width(2),
        ))
        .map_err(err)?;
    }
    let text = if !share.is_finite() {
        "none".to_string()
    } else if c >= 44 {
        format!("{:.1}{}", share * 100.0, if mark { "*" } else { "" })
    } else {
        format!("{:.0}{}", share * 100.0, if mark { "*" } else { "" })
    };
    root.draw_text(
        &text,
        &style(layout.text_size, HPos::Center, mark, &ink),
        (x + c / 2, y + c / 2),
    )
    .map_err(err)?;
    Ok(())
}

/// Draws the colour scale at height `ly`, centred: a strip from 50% less
/// `span` to 50% plus `span`, its ends and middle labelled `labels`.
fn draw_heat_scale<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    span: f64,
    ly: i32,
    labels: [&str; 3],
) -> Result<(), String> {
    let (w, _) = root.dim_in_pixel();
    let lw = 240;
    let lx = (w as i32 - lw) / 2;
    for k in 0..lw {
        let share = 0.5 - span + 2.0 * span * k as f64 / (lw - 1) as f64;
        root.draw(&Rectangle::new(
            [(lx + k, ly), (lx + k + 1, ly + 12)],
            heat_colour(share, span).filled(),
        ))
        .map_err(err)?;
    }
    let ts = style(11.0, HPos::Center, false, &GREY);
    for (label, x) in labels.iter().zip([lx, lx + lw / 2, lx + lw]) {
        root.draw_text(label, &ts, (x, ly + 24)).map_err(err)?;
    }
    Ok(())
}

/// Draws the two lines under the colour scale at `ly`: what a cell shows
/// and what its star means.
fn draw_heat_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heat: &Heat,
    ly: i32,
) -> Result<(), String> {
    let (w, _) = root.dim_in_pixel();
    let lines = [
        "each cell: of the games the row entrant or the column entrant won at the same table, the share (%) the row entrant won"
            .to_string(),
        format!(
            "* and outlined: differs from 50% after Holm's correction for {} comparison{} (5% level); the others could be chance",
            heat.comparisons,
            if heat.comparisons == 1 { "" } else { "s" }
        ),
    ];
    for (k, line) in lines.iter().enumerate() {
        let s = fit(root, line, 12.0, w - 30, false);
        root.draw_text(
            line,
            &style(s, HPos::Center, false, &INK),
            (w as i32 / 2, ly + 46 + 18 * k as i32),
        )
        .map_err(err)?;
    }
    Ok(())
}

/// A heatmap of the head-to-head shares: each cell the share the row
/// entrant took from the column entrant (blue above 50%, orange below),
/// starred and outlined where Holm's correction leaves it significant,
/// with the colour scale and a legend that says so.
pub fn heatmap(title: &str, run: &str, heat: &Heat) -> Result<Chart, String> {
    let n = heat.names.len();
    let h = 62 + 40 + cell_size(n) as u32 * n as u32 + 22 + 46 + 36 + 16;
    // Wide enough for the grid and the names beside it (about 8 pixels a
    // character), never narrower than the other charts.
    let longest = heat.names.iter().map(|s| s.chars().count()).max().unwrap_or(4) as u32;
    let w = (cell_size(n) as u32 * n as u32 + 80 + 8 * longest.min(40)).max(WIDTH);
    both(w, h, |canvas| on_canvas!(canvas, draw_heat(title, run, heat)))
}

/// A map of a value over two game totals ([`Surface`]): blocks coloured
/// from the negative end (orange) through white (0) to the positive end
/// (blue), the totals on both axes, and a colour scale with what its ends
/// mean.
pub fn surface(surface: &Surface) -> Result<Chart, String> {
    let cells = surface.side.div_ceil(surface.block.max(1));
    let c = (440 / cells.max(1)).max(2) as u32;
    let h = 62 + 24 + c * cells as u32 + 40 + 70;
    both(WIDTH, h, |canvas| {
        on_canvas!(canvas, draw_surface(surface, c as i32))
    })
}

/// The average of each block of `surface`, rows from total 0 up.
fn surface_blocks(surface: &Surface) -> Vec<Vec<f64>> {
    let (n, k) = (surface.side, surface.block.max(1));
    (0..n.div_ceil(k))
        .map(|br| {
            (0..n.div_ceil(k))
                .map(|bc| {
                    let (mut sum, mut count) = (0.0, 0.0);
                    for r in br * k..((br + 1) * k).min(n) {
                        for c in bc * k..((bc + 1) * k).min(n) {
                            sum += surface.values[r * n + c];
                            count += 1.0;
                        }
                    }
                    sum / count
                })
                .collect()
        })
        .collect()
}

fn draw_surface<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    surface: &Surface,
    c: i32,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let top = draw_heading(root, &surface.title, &surface.run_line)? + 24;
    let blocks = surface_blocks(surface);
    let n = blocks.len() as i32;
    let grid = c * n;
    let (w, _) = root.dim_in_pixel();
    let x0 = (w as i32 - grid) / 2;
    let span = blocks
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-9);
    for (r, row) in blocks.iter().enumerate() {
        for (col, &v) in row.iter().enumerate() {
            let (x, y) = (x0 + col as i32 * c, top + grid - (r as i32 + 1) * c);
            root.draw(&Rectangle::new(
                [(x, y), (x + c, y + c)],
                heat_colour(0.5 + v, span).filled(),
            ))
            .map_err(err)?;
        }
    }
    root.draw(&Rectangle::new(
        [(x0, top), (x0 + grid, top + grid)],
        GREY.stroke_width(1),
    ))
    .map_err(err)?;
    let ticks = style(11.0, HPos::Center, false, &GREY);
    let right = style(11.0, HPos::Right, false, &GREY);
    let per = surface.block.max(1) as i32;
    for t in (0..surface.side).step_by(50) {
        let at = t as i32 * c / per;
        root.draw_text(&t.to_string(), &ticks, (x0 + at, top + grid + 14))
            .map_err(err)?;
        root.draw_text(&t.to_string(), &right, (x0 - 6, top + grid - at - 5))
            .map_err(err)?;
    }
    let axis = style(13.0, HPos::Center, false, &INK);
    root.draw_text(&surface.cols, &axis, (w as i32 / 2, top + grid + 32))
        .map_err(err)?;
    let left = style(13.0, HPos::Right, false, &INK);
    root.draw_text(&surface.rows, &left, (x0 - 34, top + grid / 2))
        .map_err(err)?;
    let ly = top + grid + 46;
    let ends = [format!("{:+.3}", -span), format!("{span:+.3}")];
    draw_heat_scale(root, span, ly, [&ends[0], "0", &ends[1]])?;
    let (lw, lx) = (240, (w as i32 - 240) / 2);
    root.draw_text(&surface.legend[2], &right, (lx - 12, ly + 6))
        .map_err(err)?;
    let leftward = style(11.0, HPos::Left, false, &GREY);
    root.draw_text(&surface.legend[1], &leftward, (lx + lw + 12, ly + 6))
        .map_err(err)?;
    let line = fit(root, &surface.legend[0], 12.0, w - 30, false);
    root.draw_text(
        &surface.legend[0],
        &style(line, HPos::Center, false, &INK),
        (w as i32 / 2, ly + 44),
    )
    .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The font size of the SVG text element that shows `text`.
    fn font_size_of(svg: &str, text: &str) -> f64 {
        let at = svg.find(&format!(">\n{text}\n<")).expect("the text is drawn");
        let open = svg[..at].rfind("<text").expect("in a text element");
        let attr = &svg[open..at];
        let from = attr.find("font-size=\"").expect("a font size") + 11;
        let to = attr[from..].find('"').unwrap() + from;
        attr[from..to].parse().unwrap()
    }

    fn rows(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| Row {
                name: format!("stay-at-{}", 10 + i),
                value: 0.3 + 0.01 * i as f64,
                ci: (0.29 + 0.01 * i as f64, 0.31 + 0.01 * i as f64),
            })
            .collect()
    }

    #[test]
    fn a_run_line_too_long_for_the_width_is_drawn_smaller() {
        let panel = Forest {
            heading: "win rate".into(),
            rows: rows(2),
            reference: Some((0.25, "fair share".into())),
            percent: true,
        };
        let short = "2 players, seed 1";
        let long = format!(
            "2 players, {}, seed 18446744073709551615",
            "stay-at-25+hit-on-second-chance ".repeat(4)
        );
        let a = forest("title", short, std::slice::from_ref(&panel), "note").unwrap();
        let b = forest("title", &long, &[panel], "note").unwrap();
        let (full, shrunk) = (font_size_of(&a.svg, short), font_size_of(&b.svg, &long));
        assert!(
            shrunk < 0.9 * full,
            "the long line keeps its size: {shrunk} against {full}"
        );
    }

    #[test]
    fn forest_and_heatmap_draw_two_to_thirty_entrants() {
        for n in [2, 8, 30] {
            let panel = Forest {
                heading: "win rate".into(),
                rows: rows(n),
                reference: None,
                percent: true,
            };
            let f = forest("t", "r", &[panel], "note").unwrap();
            assert!(f.png.starts_with(b"\x89PNG"));
            assert_eq!(f.svg.matches(">\nstay-at-10\n<").count(), 1);
            let heat = Heat {
                names: rows(n).into_iter().map(|r| r.name).collect(),
                shares: vec![vec![0.6; n]; n],
                marked: vec![vec![true; n]; n],
                comparisons: n * (n - 1) / 2,
            };
            let h = heatmap("t", "r", &heat).unwrap();
            // Every off-diagonal cell, starred.
            let cells = h.svg.matches(">\n60.0*\n<").count() + h.svg.matches(">\n60*\n<").count();
            assert_eq!(cells, n * (n - 1));
        }
    }

    #[test]
    fn fractional_ticks_are_short() {
        assert_eq!(tick(0.15000000000000002), "0.15");
        assert_eq!(tick(0.1 + 0.2), "0.3");
        assert_eq!(tick(2.0), "2");
        assert_eq!(tick(-0.0000001), "0");
        assert_eq!(tick(0.025), "0.025");
    }
}
