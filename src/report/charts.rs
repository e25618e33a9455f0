//! SVG and PNG charts drawn with plotters, into memory (the caller writes
//! the files when the run is complete). Text uses the DejaVu Sans font
//! bundled in `assets/`, so PNGs render the same on any machine, with no
//! system font library.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

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

/// One entrant's bar: name, win rate and its 95% interval.
pub struct Bar {
    /// Label on the axis.
    pub name: String,
    /// Win rate (0 to 1).
    pub value: f64,
    /// 95% interval.
    pub ci: (f64, f64),
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
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
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
    Png(DrawingArea<BitMapBackend<'a>, Shift>),
}

macro_rules! on_canvas {
    ($canvas:expr, $f:ident ( $($arg:expr),* )) => {
        match $canvas {
            Canvas::Svg(root) => { $f(&root, $($arg),*)?; root.present().map_err(err) }
            Canvas::Png(root) => { $f(&root, $($arg),*)?; root.present().map_err(err) }
        }
    };
}

fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    bars: &[Bar],
    reference: Option<(f64, &str)>,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let n = bars.len();
    let top = bars
        .iter()
        .map(|b| b.ci.1)
        .chain(reference.map(|r| r.0))
        .fold(0.0f64, f64::max);
    let x_max = (top * 1.15).max(0.01);
    let longest = bars.iter().map(|b| b.name.chars().count()).max().unwrap_or(4);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size((longest as u32 * 8 + 20).clamp(60, 320))
        .build_cartesian_2d(0f64..x_max, (0..n as i32 - 1).into_segmented())
        .map_err(err)?;
    // Best first, at the top: bar i is drawn at row n - 1 - i.
    let row = |i: usize| (n - 1 - i) as i32;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .x_desc("win rate (bars: 95% CI)")
        .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(r) if (*r as usize) < n => bars[n - 1 - *r as usize].name.clone(),
            _ => String::new(),
        })
        .y_labels(n)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()
        .map_err(err)?;
    let fill = RGBColor(70, 120, 180);
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            let mut r = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(row(i))),
                    (b.value, SegmentValue::Exact(row(i) + 1)),
                ],
                fill.mix(0.75).filled(),
            );
            r.set_margin(6, 6, 0, 0);
            r
        }))
        .map_err(err)?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            ErrorBar::new_horizontal(
                SegmentValue::CenterOf(row(i)),
                b.ci.0,
                b.value,
                b.ci.1,
                BLACK.stroke_width(1),
                10,
            )
        }))
        .map_err(err)?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            Text::new(
                format!("{:.2}%", b.value * 100.0),
                (b.ci.1 + x_max * 0.01, SegmentValue::CenterOf(row(i))),
                ("sans-serif", 13).into_font().color(&BLACK),
            )
        }))
        .map_err(err)?;
    if let Some((x, label)) = reference {
        chart
            .draw_series(LineSeries::new(
                [(x, SegmentValue::Exact(0)), (x, SegmentValue::Exact(n as i32))],
                RED.stroke_width(2),
            ))
            .map_err(err)?
            .label(label.to_string())
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// Horizontal bars with 95% intervals, best first; an optional red line
/// marks a reference value (the fair share `1 / players`).
pub fn standings(title: &str, bars: &[Bar], reference: Option<(f64, &str)>) -> Result<Chart, String> {
    let h = 130 + 48 * bars.len() as u32;
    both(900, h.max(300), |canvas| {
        on_canvas!(canvas, draw_bars(title, bars, reference))
    })
}

/// A tick label of a fractional axis: at most six decimals, trailing
/// zeros dropped (`0.15`, not the `0.15000000000000002` of a stepped
/// float).
fn tick(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

fn draw_panels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    panels: &[Panel],
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 22)).map_err(err)?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    let colour = RGBColor(40, 90, 170);
    for (area, p) in areas.iter().zip(panels) {
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
        let pad = ((y1 - y0) * 0.08).max(1e-6);
        let percent = p.percent;
        let whole_x = p.points.iter().all(|q| q.0.fract() == 0.0);
        // The legend goes in the corner with the fewest points.
        let (xm, ym) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let count = |right: bool, upper: bool| {
            p.points
                .iter()
                .filter(|q| (q.0 >= xm) == right && (q.1.max(q.3) >= ym || q.1 >= ym) == upper)
                .count()
        };
        let corner = [
            (count(true, true), SeriesLabelPosition::UpperRight),
            (count(false, true), SeriesLabelPosition::UpperLeft),
            (count(true, false), SeriesLabelPosition::LowerRight),
            (count(false, false), SeriesLabelPosition::LowerLeft),
        ]
        .into_iter()
        .min_by_key(|c| c.0)
        .map_or(SeriesLabelPosition::UpperRight, |c| c.1);
        let mut chart = ChartBuilder::on(area)
            .caption(&p.title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(&p.y_label)
            .light_line_style(RGBColor(240, 240, 240))
            .x_label_formatter(&|x| {
                if whole_x { format!("{x:.0}") } else { tick(*x) }
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
        if let Some((y, label)) = &p.reference {
            chart
                .draw_series(LineSeries::new([(x0, *y), (x1, *y)], RED.stroke_width(1)))
                .map_err(err)?
                .label(label.clone())
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(1)));
        }
        chart
            .configure_series_labels()
            .position(corner)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 12))
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// One panel per measure (stacked), each a line against the swept
/// parameter with its 95% band.
pub fn sweep(title: &str, x_label: &str, panels: &[Panel]) -> Result<Chart, String> {
    let h = 80 + 380 * panels.len() as u32;
    both(900, h, |canvas| {
        on_canvas!(canvas, draw_panels(title, x_label, panels))
    })
}

#[cfg(test)]
mod tests {
    use super::tick;

    #[test]
    fn fractional_ticks_are_short() {
        assert_eq!(tick(0.15000000000000002), "0.15");
        assert_eq!(tick(0.1 + 0.2), "0.3");
        assert_eq!(tick(2.0), "2");
        assert_eq!(tick(-0.0000001), "0");
        assert_eq!(tick(0.025), "0.025");
    }
}
