//! Charts as inline SVG, drawn by templates (`assets/histogram.svg`,
//! `assets/stacked_bar.svg`) from the geometry computed here: a histogram and a stacked
//! bar are a few dozen elements each, so the page needs no charting library, no script
//! to draw them and no network, prints as it shows, and carries its text alternatives
//! (`<title>`, `<desc>`) in the drawing itself. Their templates escape every text they
//! place (see [`crate::report::markup`]), so a page places a chart as it is.

use askama::Template;

/// A histogram's bars: its blue (Okabe–Ito), readable on paper and by colour-blind eyes.
const BAR: &str = "#0072B2";
const WIDTH: u32 = 300;
const HEIGHT: u32 = 150;
const LEFT: u32 = 26;
const BOTTOM: u32 = 22;
const TOP: u32 = 14;

/// A bar of a histogram: what it counts (`5–8`), the tick under it (`5`: eleven full
/// labels would overlap), and how many.
pub struct Bar {
    pub label: String,
    pub tick: String,
    pub count: usize,
}

/// A histogram, drawn.
#[derive(Template)]
#[template(path = "histogram.svg", config = "src/report/assets/askama.toml")]
pub struct Histogram<'a> {
    id: String,
    title: String,
    description: String,
    unit: &'a str,
    tallest: usize,
    plot_width: u32,
    /// The plot's bottom line, the bars' base.
    base: u32,
    bars: Vec<DrawnBar>,
}

/// A histogram's bar where it is drawn, and its text alternative.
struct DrawnBar {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    /// Where its count and tick are centred, and the count's baseline.
    middle: f64,
    top: f64,
    count: usize,
    tick: String,
    title: String,
}

/// A histogram titled `title`, whose `<desc>` reads each bar as `<label> <unit>: <count>
/// <counted>` for those who cannot see it; `id` makes its elements' ids unique.
pub fn histogram<'a>(
    id: &str,
    title: &str,
    bars: &[Bar],
    unit: &'a str,
    counted: &str,
) -> Histogram<'a> {
    let tallest = bars.iter().map(|bar| bar.count).max().unwrap_or(0).max(1);
    let plot_width = WIDTH - LEFT - 4;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let step = plot_width as f64 / bars.len().max(1) as f64;
    let base = TOP + plot_height;
    let read = |bar: &Bar| format!("{} {unit}: {} {counted}", bar.label, bar.count);
    let description: Vec<String> = bars.iter().map(read).collect();
    let drawn = bars
        .iter()
        .enumerate()
        .map(|(index, bar)| {
            let x = LEFT as f64 + step * index as f64;
            let height = plot_height as f64 * bar.count as f64 / tallest as f64;
            // A zero bar is a line on the axis: there, but visibly nobody.
            DrawnBar {
                x: x + 1.0,
                y: base as f64 - height.max(1.0),
                width: (step - 2.0).max(1.0),
                height: height.max(1.0),
                middle: x + step / 2.0,
                top: base as f64 - height - 2.0,
                count: bar.count,
                tick: bar.tick.clone(),
                title: read(bar),
            }
        })
        .collect();
    Histogram {
        id: id.to_string(),
        title: title.to_string(),
        description: description.join("; "),
        unit,
        tallest,
        plot_width,
        base,
        bars: drawn,
    }
}

/// A part of a stacked bar: how many, drawn in `fill` with `symbol` in `ink` on it when
/// it is wide enough, named `label` (its tooltip and its text alternative).
pub struct Segment<'a> {
    pub count: usize,
    pub fill: &'a str,
    pub ink: &'a str,
    pub symbol: &'a str,
    pub label: &'a str,
}

const STACK_WIDTH: f64 = 240.0;
const STACK_HEIGHT: u32 = 16;

/// A stacked bar, drawn.
#[derive(Template)]
#[template(path = "stacked_bar.svg", config = "src/report/assets/askama.toml")]
pub struct StackedBar<'a> {
    title: String,
    parts: Vec<Part<'a>>,
}

/// A segment where it is drawn: from `x`, `width` wide, its symbol (if it fits) centred
/// on `middle`.
struct Part<'a> {
    x: f64,
    width: f64,
    middle: f64,
    fill: &'a str,
    ink: &'a str,
    symbol: Option<&'a str>,
    label: &'a str,
    count: usize,
}

/// One bar split into `segments` in proportion to their counts, `title` its text
/// alternative.
pub fn stacked_bar<'a>(title: &str, segments: &[Segment<'a>]) -> StackedBar<'a> {
    let total: usize = segments.iter().map(|segment| segment.count).sum();
    let mut x = 0.0;
    let mut parts = Vec::new();
    for segment in segments.iter().filter(|segment| segment.count > 0) {
        let width = STACK_WIDTH * segment.count as f64 / total.max(1) as f64;
        parts.push(Part {
            x,
            width,
            middle: x + width / 2.0,
            fill: segment.fill,
            ink: segment.ink,
            symbol: Some(segment.symbol).filter(|symbol| width >= 10.0 && !symbol.is_empty()),
            label: segment.label,
            count: segment.count,
        });
        x += width;
    }
    StackedBar {
        title: title.to_string(),
        parts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_has_a_bar_and_a_text_alternative_per_bin() {
        let bars = [
            Bar {
                label: "0".into(),
                tick: "0".into(),
                count: 0,
            },
            Bar {
                label: "1".into(),
                tick: "1".into(),
                count: 3,
            },
        ];
        let svg = histogram("h1", "sum <total>", &bars, "points", "students").to_string();
        assert_eq!(svg.matches("<rect").count(), 2);
        assert!(
            svg.contains("<title id=\"h1-t\">sum &lt;total&gt;</title>"),
            "{svg}"
        );
        assert!(
            svg.contains("<desc id=\"h1-d\">0 points: 0 students; 1 points: 3 students</desc>"),
            "{svg}"
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }

    #[test]
    fn a_stacked_bar_splits_its_width_by_count() {
        let segment = |count, label| Segment {
            count,
            fill: "#000",
            ink: "#fff",
            symbol: "x",
            label,
        };
        let svg =
            stacked_bar("mix", &[segment(1, "a"), segment(0, "b"), segment(3, "c")]).to_string();
        assert_eq!(svg.matches("<rect").count(), 2, "no empty segment: {svg}");
        assert!(svg.contains("width=\"60.0\""), "{svg}");
        assert!(svg.contains("x=\"60.0\" y=\"0\" width=\"180.0\""), "{svg}");
    }
}
