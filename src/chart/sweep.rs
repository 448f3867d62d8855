//! The phase-transition chart of a sweep: median nodes per strategy (with the quartiles
//! as a band) against the swept parameter on a log scale, the fraction of instances found
//! solvable on a second axis, and the predicted crossover marked.

use super::plot::{self, Axis, Panel};

/// One strategy's nodes at each point: `(x, first quartile, median, third quartile)`.
pub struct NodeSeries {
    /// The strategy's name.
    pub name: String,
    /// Its points, by increasing x.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// What a sweep chart shows.
pub struct SweepChart {
    /// The title.
    pub title: String,
    /// The swept parameter's name (`p2`, `p`, `kappa`).
    pub parameter: String,
    /// Nodes per strategy.
    pub series: Vec<NodeSeries>,
    /// The fraction of instances found solvable at each point.
    pub solvable: Vec<(f64, f64)>,
    /// The predicted crossover and its name (`κ = 1`, `p_cr`).
    pub predicted: Option<(f64, String)>,
    /// Where the fraction solvable was seen to fall through 1/2.
    pub observed: Option<f64>,
}

/// The chart as an SVG document.
pub fn chart(c: &SweepChart) -> String {
    let (width, height) = (820.0, 500.0);
    let xs = c.solvable.iter().map(|p| p.0);
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (x_min, x_max) = if x_min.is_finite() {
        (x_min, x_max)
    } else {
        (0.0, 1.0)
    };
    let y_max = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.3))
        .fold(10.0f64, f64::max);
    let panel = Panel {
        left: 80.0,
        top: 50.0,
        width: width - 170.0,
        height: height - 110.0,
        x: Axis::linear(&c.parameter, x_min, x_max),
        y: Axis::log("nodes (median, quartiles shaded)", 1.0, y_max),
    };
    let mut svg = plot::start(width, height);
    panel.frame(&mut svg, &c.title);
    let fraction = Axis::linear("fraction solvable", 0.0, 1.0);
    panel.right_axis(&mut svg, &fraction);
    let mut legend = Vec::new();
    for (i, s) in c.series.iter().enumerate() {
        let colour = plot::colour(i);
        let band: Vec<_> = s.points.iter().map(|&(x, q1, _, q3)| (x, q1, q3)).collect();
        panel.band(&mut svg, &band, colour);
        let median: Vec<_> = s.points.iter().map(|&(x, _, m, _)| (x, m)).collect();
        panel.line(&mut svg, &median, colour, false);
        legend.push((format!("{} (median nodes)", s.name), colour, false));
    }
    panel.line_on(&mut svg, &fraction, &c.solvable, "#000000", true);
    legend.push(("fraction solvable (right axis)".to_string(), "#000000", true));
    if let Some((x, name)) = &c.predicted {
        panel.vline(&mut svg, *x, "#b00000", &format!("predicted: {name} at {x:.3}"));
    }
    if let Some(x) = c.observed {
        let label = format!("50% solvable at {x:.3}");
        let dx = if c.predicted.as_ref().is_some_and(|(p, _)| *p > x) {
            -150.0
        } else {
            0.0
        };
        panel.vline(&mut svg, x, "#555555", "");
        plot::text(
            &mut svg,
            (panel.px(x) + 4.0 + dx, panel.top + panel.height - 8.0),
            "start",
            11,
            &label,
        );
    }
    panel.legend(&mut svg, &legend);
    plot::finish(svg)
}
