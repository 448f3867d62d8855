//! A log-log scatter plot of two strategies run by run: each point is one instance and
//! seed, below the diagonal where the second strategy did better.

use super::plot::{self, Axis, Panel};

/// One run of each strategy: the figure compared, and whether each answered.
pub struct Pair {
    /// The first strategy's figure.
    pub a: f64,
    /// The second strategy's figure.
    pub b: f64,
    /// Whether both answered (hollow points for the others).
    pub both_answered: bool,
}

/// The two strategies and their runs.
pub struct Scatter {
    /// What is compared (`nodes`, `seconds`).
    pub figure: String,
    /// The first strategy (x axis).
    pub a: String,
    /// The second strategy (y axis).
    pub b: String,
    /// The runs.
    pub pairs: Vec<Pair>,
}

/// Draws the scatter plot into `svg` at `(left, top)`, `size` pixels square.
pub fn draw(svg: &mut String, s: &Scatter, (left, top): (f64, f64), size: f64) {
    let values = s.pairs.iter().flat_map(|p| [p.a, p.b]);
    let lo = values.clone().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
    let hi = values.fold(0.0f64, f64::max);
    let lo = if lo.is_finite() { lo } else { 1.0 };
    let axis = |name: &str| Axis::log(&format!("{name}: {} (log)", s.figure), lo, hi.max(lo));
    let panel = Panel {
        left,
        top,
        width: size,
        height: size,
        x: axis(&s.a),
        y: axis(&s.b),
    };
    panel.frame(svg, &format!("{} per run, one against the other", s.figure));
    panel.diagonal(svg);
    let (answered, other): (Vec<&Pair>, Vec<&Pair>) = s.pairs.iter().partition(|p| p.both_answered);
    let points = |ps: &[&Pair]| ps.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>();
    panel.dots(svg, &points(&answered), plot::colour(0), false);
    panel.dots(svg, &points(&other), plot::colour(1), true);
    panel.legend(
        svg,
        &[
            ("both answered".to_string(), plot::colour(0), false),
            (
                "one or neither answered (hollow)".to_string(),
                plot::colour(1),
                false,
            ),
        ],
    );
}
