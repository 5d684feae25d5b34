//! Charts as inline SVG, written by hand: a histogram and a stacked bar are a few dozen
//! elements each, so the page needs no charting library, no script to draw them and no
//! network, prints as it shows, and carries its text alternatives (`<title>`, `<desc>`)
//! in the drawing itself.

use std::fmt::Write;

use crate::report::markup::escape;

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

/// A histogram titled `title`, whose `<desc>` reads each bar as `<label> <unit>: <count>
/// <counted>` for those who cannot see it; `id` makes its elements' ids unique.
pub fn histogram(id: &str, title: &str, bars: &[Bar], unit: &str, counted: &str) -> String {
    let tallest = bars.iter().map(|bar| bar.count).max().unwrap_or(0).max(1);
    let plot_width = WIDTH - LEFT - 4;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let step = plot_width as f64 / bars.len().max(1) as f64;
    let description: Vec<String> = bars
        .iter()
        .map(|bar| format!("{} {unit}: {} {counted}", bar.label, bar.count))
        .collect();
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\">\
         <title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>",
        escape(title),
        escape(&description.join("; "))
    );
    let base = TOP + plot_height;
    let _ = write!(
        svg,
        "<line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"#444\"/>\
         <text x=\"{}\" y=\"{}\" class=\"axis\" text-anchor=\"end\">{tallest}</text>\
         <text x=\"{}\" y=\"{base}\" class=\"axis\" text-anchor=\"end\">0</text>",
        WIDTH - 4,
        LEFT - 3,
        TOP + 4,
        LEFT - 3
    );
    for (index, bar) in bars.iter().enumerate() {
        let x = LEFT as f64 + step * index as f64;
        let height = plot_height as f64 * bar.count as f64 / tallest as f64;
        let middle = x + step / 2.0;
        // A zero bar is a line on the axis: there, but visibly nobody.
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{BAR}\">\
             <title>{}</title></rect>",
            x + 1.0,
            base as f64 - height.max(1.0),
            (step - 2.0).max(1.0),
            height.max(1.0),
            escape(&format!("{} {unit}: {} {counted}", bar.label, bar.count))
        );
        if bar.count > 0 {
            let _ = write!(
                svg,
                "<text x=\"{middle:.1}\" y=\"{:.1}\" class=\"count\" text-anchor=\"middle\">{}</text>",
                base as f64 - height - 2.0,
                bar.count
            );
        }
        let _ = write!(
            svg,
            "<text x=\"{middle:.1}\" y=\"{}\" class=\"axis\" text-anchor=\"middle\">{}</text>",
            base + 11,
            escape(&bar.tick)
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" class=\"axis\" text-anchor=\"middle\">{}</text></svg>",
        LEFT + plot_width / 2,
        HEIGHT - 1,
        escape(unit)
    );
    svg
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

/// One bar split into `segments` in proportion to their counts, `title` its text
/// alternative.
pub fn stacked_bar(title: &str, segments: &[Segment]) -> String {
    let total: usize = segments.iter().map(|segment| segment.count).sum();
    let mut svg = format!(
        "<svg class=\"chart mix\" viewBox=\"0 0 {STACK_WIDTH} {STACK_HEIGHT}\" \
         width=\"{STACK_WIDTH}\" height=\"{STACK_HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    let mut x = 0.0;
    for segment in segments.iter().filter(|segment| segment.count > 0) {
        let width = STACK_WIDTH * segment.count as f64 / total.max(1) as f64;
        let _ = write!(
            svg,
            "<rect x=\"{x:.1}\" y=\"0\" width=\"{width:.1}\" height=\"{STACK_HEIGHT}\" \
             fill=\"{}\"><title>{}: {}</title></rect>",
            segment.fill,
            escape(segment.label),
            segment.count
        );
        if width >= 10.0 && !segment.symbol.is_empty() {
            let _ = write!(
                svg,
                "<text x=\"{:.1}\" y=\"12\" fill=\"{}\" class=\"symbol\" \
                 text-anchor=\"middle\">{}</text>",
                x + width / 2.0,
                segment.ink,
                escape(segment.symbol)
            );
        }
        x += width;
    }
    svg.push_str("</svg>");
    svg
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
        let svg = histogram("h1", "sum <total>", &bars, "points", "students");
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
        let svg = stacked_bar("mix", &[segment(1, "a"), segment(0, "b"), segment(3, "c")]);
        assert_eq!(svg.matches("<rect").count(), 2, "no empty segment: {svg}");
        assert!(svg.contains("width=\"60.0\""), "{svg}");
        assert!(svg.contains("x=\"60.0\" y=\"0\" width=\"180.0\""), "{svg}");
    }
}
