//! The drawing every chart shares: an SVG document, panels with linear or logarithmic
//! axes, and the marks drawn in them (lines, bands, points, markers, legends).

use std::fmt::Write;

/// Colours of the series, in order (Okabe and Ito's palette, told apart by most readers).
pub const PALETTE: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
];

/// The colour of series `i`.
pub fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Escapes text for SVG.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An SVG document of `width` x `height` pixels on white; close it with [`finish`].
pub fn start(width: f64, height: f64) -> String {
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    svg
}

/// Ends the document.
pub fn finish(mut svg: String) -> String {
    svg.push_str("</svg>\n");
    svg
}

/// Writes `text` at `(x, y)`; `anchor` is `start`, `middle` or `end`.
pub fn text(svg: &mut String, (x, y): (f64, f64), anchor: &str, size: u32, text: &str) {
    let _ = writeln!(
        svg,
        r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-size="{size}">{}</text>"#,
        escape(text)
    );
}

/// How an axis maps values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Evenly.
    Linear,
    /// By powers of ten (values below the axis' minimum are drawn at it).
    Log,
}

/// An axis: its label, scale and range.
#[derive(Clone, Debug)]
pub struct Axis {
    /// What it measures.
    pub label: String,
    /// Linear or logarithmic.
    pub scale: Scale,
    /// The lowest value shown.
    pub min: f64,
    /// The highest value shown.
    pub max: f64,
}

impl Axis {
    /// A linear axis over `min..max` (widened when empty).
    pub fn linear(label: &str, min: f64, max: f64) -> Axis {
        let (min, max) = if max > min {
            (min, max)
        } else {
            (min - 0.5, min + 0.5)
        };
        Axis {
            label: label.to_string(),
            scale: Scale::Linear,
            min,
            max,
        }
    }

    /// A logarithmic axis from the power of ten at or below `min` (at least 1) to the one
    /// at or above `max`.
    pub fn log(label: &str, min: f64, max: f64) -> Axis {
        let lo = 10f64.powf(min.max(1e-9).log10().floor());
        let hi = 10f64.powf(max.max(lo * 10.0).log10().ceil());
        Axis {
            label: label.to_string(),
            scale: Scale::Log,
            min: lo,
            max: hi,
        }
    }

    /// Where `v` lies, from 0 (the minimum) to 1 (the maximum), clamped.
    pub fn fraction(&self, v: f64) -> f64 {
        let f = match self.scale {
            Scale::Linear => (v - self.min) / (self.max - self.min),
            Scale::Log => {
                (v.max(self.min).log10() - self.min.log10()) / (self.max.log10() - self.min.log10())
            }
        };
        if f.is_finite() { f.clamp(0.0, 1.0) } else { 0.0 }
    }

    /// The values to mark: powers of ten on a log axis, about six round numbers otherwise.
    pub fn ticks(&self) -> Vec<f64> {
        match self.scale {
            Scale::Log => {
                let (lo, hi) = (self.min.log10().round() as i32, self.max.log10().round() as i32);
                let every = ((hi - lo) / 8 + 1).max(1);
                (lo..=hi).step_by(every as usize).map(|e| 10f64.powi(e)).collect()
            }
            Scale::Linear => {
                let raw = (self.max - self.min) / 6.0;
                let magnitude = 10f64.powf(raw.log10().floor());
                let step = [1.0, 2.0, 2.5, 5.0, 10.0]
                    .iter()
                    .map(|m| m * magnitude)
                    .find(|s| *s >= raw)
                    .unwrap_or(raw);
                let first = (self.min / step).ceil() as i64;
                let last = (self.max / step + 1e-9).floor() as i64;
                (first..=last).map(|i| i as f64 * step).collect()
            }
        }
    }
}

/// A tick's label: powers of ten as `1e4` from 10,000 up, other numbers short.
pub fn tick_label(v: f64, scale: Scale) -> String {
    if scale == Scale::Log && v >= 1e4 {
        return format!("1e{}", v.log10().round());
    }
    if v != 0.0 && v.abs() < 0.01 {
        return format!("{v:.0e}");
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A rectangle of the document with its axes.
pub struct Panel {
    /// Left edge of the plotting area.
    pub left: f64,
    /// Top edge of the plotting area.
    pub top: f64,
    /// Width of the plotting area.
    pub width: f64,
    /// Height of the plotting area.
    pub height: f64,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
}

impl Panel {
    /// The horizontal pixel of `v`.
    pub fn px(&self, v: f64) -> f64 {
        self.left + self.width * self.x.fraction(v)
    }

    /// The vertical pixel of `v` on `axis` (the panel's own or a second one).
    pub fn py_on(&self, axis: &Axis, v: f64) -> f64 {
        self.top + self.height * (1.0 - axis.fraction(v))
    }

    /// The vertical pixel of `v`.
    pub fn py(&self, v: f64) -> f64 {
        self.py_on(&self.y, v)
    }

    /// The frame, the grid, the ticks and labels of both axes, and the title above.
    pub fn frame(&self, svg: &mut String, title: &str) {
        let (l, t, w, h) = (self.left, self.top, self.width, self.height);
        let _ = writeln!(
            svg,
            r##"<rect x="{l:.1}" y="{t:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="#444"/>"##
        );
        for v in self.x.ticks() {
            let x = self.px(v);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{t:.1}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/>"##,
                t + h
            );
            text(svg, (x, t + h + 15.0), "middle", 11, &tick_label(v, self.x.scale));
        }
        for v in self.y.ticks() {
            let y = self.py(v);
            let _ = writeln!(
                svg,
                r##"<line x1="{l:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
                l + w
            );
            text(svg, (l - 5.0, y + 4.0), "end", 11, &tick_label(v, self.y.scale));
        }
        text(svg, (l + w / 2.0, t + h + 34.0), "middle", 12, &self.x.label);
        let (yx, yy) = (l - 48.0, t + h / 2.0);
        let _ = writeln!(
            svg,
            r#"<text x="{yx:.1}" y="{yy:.1}" text-anchor="middle" transform="rotate(-90 {yx:.1} {yy:.1})">{}</text>"#,
            escape(&self.y.label)
        );
        text(svg, (l + w / 2.0, t - 10.0), "middle", 14, title);
    }

    /// A second vertical axis on the right, with its ticks and label.
    pub fn right_axis(&self, svg: &mut String, axis: &Axis) {
        let x = self.left + self.width;
        for v in axis.ticks() {
            let y = self.py_on(axis, v);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#444"/>"##,
                x + 4.0
            );
            text(svg, (x + 7.0, y + 4.0), "start", 11, &tick_label(v, axis.scale));
        }
        let (lx, ly) = (x + 45.0, self.top + self.height / 2.0);
        let _ = writeln!(
            svg,
            r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="middle" transform="rotate(90 {lx:.1} {ly:.1})">{}</text>"#,
            escape(&axis.label)
        );
    }

    /// A line through `points` (on `axis` vertically), dashed or not.
    pub fn line_on(&self, svg: &mut String, axis: &Axis, points: &[(f64, f64)], colour: &str, dashed: bool) {
        if points.is_empty() {
            return;
        }
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py_on(axis, y)))
            .collect();
        let dash = if dashed { r#" stroke-dasharray="6 4""# } else { "" };
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            path.join(" ")
        );
    }

    /// A line through `points`.
    pub fn line(&self, svg: &mut String, points: &[(f64, f64)], colour: &str, dashed: bool) {
        self.line_on(svg, &self.y, points, colour, dashed);
    }

    /// A step line through `points`: flat from each point to the next one's x.
    pub fn steps(&self, svg: &mut String, points: &[(f64, f64)], colour: &str) {
        let mut stepped = Vec::with_capacity(points.len() * 2);
        for (i, &(x, y)) in points.iter().enumerate() {
            if i > 0 {
                stepped.push((x, points[i - 1].1));
            }
            stepped.push((x, y));
        }
        self.line(svg, &stepped, colour, false);
    }

    /// The area between two lines over the same x values (a quartile band), pale.
    pub fn band(&self, svg: &mut String, points: &[(f64, f64, f64)], colour: &str) {
        if points.is_empty() {
            return;
        }
        let mut outline: Vec<String> = points
            .iter()
            .map(|&(x, lo, _)| format!("{:.1},{:.1}", self.px(x), self.py(lo)))
            .collect();
        outline.extend(
            points
                .iter()
                .rev()
                .map(|&(x, _, hi)| format!("{:.1},{:.1}", self.px(x), self.py(hi))),
        );
        let _ = writeln!(
            svg,
            r#"<polygon points="{}" fill="{colour}" fill-opacity="0.15" stroke="none"/>"#,
            outline.join(" ")
        );
    }

    /// Dots at `points`: filled, or hollow.
    pub fn dots(&self, svg: &mut String, points: &[(f64, f64)], colour: &str, hollow: bool) {
        let fill = if hollow { "none" } else { colour };
        for &(x, y) in points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{fill}" fill-opacity="0.7" stroke="{colour}"/>"#,
                self.px(x),
                self.py(y)
            );
        }
    }

    /// A vertical line at `x` across the panel, labelled at its top.
    pub fn vline(&self, svg: &mut String, x: f64, colour: &str, label: &str) {
        let px = self.px(x);
        let _ = writeln!(
            svg,
            r#"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="3 3"/>"#,
            self.top,
            self.top + self.height
        );
        text(svg, (px + 4.0, self.top + 14.0), "start", 11, label);
    }

    /// The diagonal `y = x` (both axes alike).
    pub fn diagonal(&self, svg: &mut String) {
        let (lo, hi) = (self.x.min.max(self.y.min), self.x.max.min(self.y.max));
        let _ = writeln!(
            svg,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888"/>"##,
            self.px(lo),
            self.py(lo),
            self.px(hi),
            self.py(hi)
        );
    }

    /// A legend in the panel's top left corner: a coloured line per entry (dashed for the
    /// entries marked so).
    pub fn legend(&self, svg: &mut String, entries: &[(String, &str, bool)]) {
        let longest = entries.iter().map(|e| e.0.chars().count()).max().unwrap_or(0);
        let _ = writeln!(
            svg,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="white" fill-opacity="0.85"/>"#,
            self.left + 4.0,
            self.top + 4.0,
            40.0 + 6.5 * longest as f64,
            16.0 * entries.len() as f64 + 6.0
        );
        for (i, (label, colour, dashed)) in entries.iter().enumerate() {
            let y = self.top + 16.0 + 16.0 * i as f64;
            let x = self.left + 10.0;
            let dash = if *dashed { r#" stroke-dasharray="6 4""# } else { "" };
            let _ = writeln!(
                svg,
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2"{dash}/>"#,
                y - 4.0,
                x + 22.0,
                y - 4.0
            );
            text(svg, (x + 28.0, y), "start", 11, label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_map_their_ends_and_tick_inside() {
        let lin = Axis::linear("p2", 0.05, 0.6);
        assert_eq!((lin.fraction(0.05), lin.fraction(0.6)), (0.0, 1.0));
        let ticks = lin.ticks();
        assert!(
            ticks.len() >= 4 && ticks.iter().all(|t| (0.05..=0.6 + 1e-9).contains(t)),
            "{ticks:?}"
        );
        let log = Axis::log("nodes", 3.0, 45_000.0);
        assert_eq!((log.min, log.max), (1.0, 100_000.0));
        assert!((log.fraction(1000.0) - 0.6).abs() < 1e-12);
        assert_eq!(log.ticks(), vec![1.0, 10.0, 100.0, 1000.0, 10_000.0, 100_000.0]);
        assert_eq!(tick_label(100_000.0, Scale::Log), "1e5");
        assert_eq!(tick_label(0.25, Scale::Linear), "0.25");
    }
}
