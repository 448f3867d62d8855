//! Cactus plots of a campaign: for each strategy, how many runs were answered within a
//! given time, and within a given number of nodes.

use super::plot::{self, Axis, Panel};

/// One strategy's answered runs.
pub struct CactusSeries {
    /// The strategy's name.
    pub name: String,
    /// The seconds of each answered run.
    pub seconds: Vec<f64>,
    /// The nodes of each answered run.
    pub nodes: Vec<f64>,
}

/// Which figure of a series a plot shows.
type Figure = fn(&CactusSeries) -> &[f64];

/// Draws the two cactus plots into `svg` side by side, from `(left, top)`, each panel
/// `size` pixels square.
pub fn draw(svg: &mut String, series: &[CactusSeries], runs: usize, (left, top): (f64, f64), size: f64) {
    let parts: [(&str, &str, Figure); 2] = [
        ("seconds (log)", "Runs answered within a time", |s| &s.seconds),
        ("nodes (log)", "Runs answered within a number of nodes", |s| {
            &s.nodes
        }),
    ];
    for (i, (label, title, values)) in parts.into_iter().enumerate() {
        let all: Vec<f64> = series.iter().flat_map(|s| values(s).iter().copied()).collect();
        let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = all.iter().copied().fold(0.0f64, f64::max);
        let lo = if lo.is_finite() && lo > 0.0 { lo } else { 1e-3 };
        let panel = Panel {
            left: left + i as f64 * (size + 110.0),
            top,
            width: size,
            height: size,
            x: Axis::log(label, lo, hi.max(lo)),
            y: Axis::linear("runs answered", 0.0, runs.max(1) as f64),
        };
        panel.frame(svg, title);
        let mut legend = Vec::new();
        for (k, s) in series.iter().enumerate() {
            let mut sorted = values(s).to_vec();
            sorted.sort_by(f64::total_cmp);
            let points: Vec<(f64, f64)> = sorted
                .iter()
                .enumerate()
                .map(|(j, &v)| (v.max(panel.x.min), (j + 1) as f64))
                .collect();
            panel.steps(svg, &points, plot::colour(k));
            legend.push((format!("{} ({})", s.name, sorted.len()), plot::colour(k), false));
        }
        panel.legend(svg, &legend);
    }
}
