//! Every chart of the program, as SVG text drawn by hand (no plotting dependency): the
//! bar chart of a strategy comparison (here), the phase-transition chart of a sweep
//! ([`sweep`]), a campaign's cactus plots and scatter plot ([`cactus`], [`scatter`]), and
//! search trees ([`tree`]). They share [`plot`]: axes, panels, lines, bands and legends.

pub mod cactus;
pub mod plot;
pub mod scatter;
pub mod sweep;
pub mod tree;

use std::fmt::Write;

use csp_sudoku::Summary;

use plot::escape;

const ROW: f64 = 22.0;
const LABEL: f64 = 260.0;
const BAR: f64 = 480.0;
const TOP: f64 = 50.0;

/// Horizontal bars of mean nodes per puzzle on a log scale, one per contender; bars of
/// contenders that did not finish every puzzle are drawn in orange.
pub fn nodes_chart(rows: &[Summary]) -> String {
    let max = rows.iter().map(|r| r.nodes_mean).fold(1.0f64, f64::max);
    let scale = (max + 1.0).log10().max(1.0);
    let height = TOP + ROW * rows.len() as f64 + 40.0;
    let width = LABEL + BAR + 160.0;
    let mut svg = plot::start(width, height);
    let _ = writeln!(
        svg,
        r#"<text x="10" y="24" font-size="15">Mean nodes per puzzle (log scale); orange: some puzzles hit a limit</text>"#
    );
    for (i, r) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let length = BAR * (r.nodes_mean + 1.0).log10() / scale;
        let colour = if r.limit > 0 { "#e8892b" } else { "#3b7dd8" };
        let _ = writeln!(
            svg,
            r#"<text x="{x}" y="{ty}" text-anchor="end">{label}</text><rect x="{LABEL}" y="{y}" width="{length:.1}" height="{h}" fill="{colour}"/><text x="{vx:.1}" y="{ty}">{value:.1} ({solved}/{total})</text>"#,
            x = LABEL - 8.0,
            ty = y + 14.0,
            label = escape(&r.contender),
            h = ROW - 6.0,
            vx = LABEL + length + 6.0,
            value = r.nodes_mean,
            solved = r.solved + r.unsatisfiable,
            total = r.puzzles,
        );
    }
    plot::finish(svg)
}

/// A campaign's charts in one document: the two cactus plots, then the scatter plot of two
/// strategies when there is one.
pub fn campaign_chart(
    series: &[cactus::CactusSeries],
    runs: usize,
    pair: Option<&scatter::Scatter>,
) -> String {
    const SIZE: f64 = 380.0;
    const GAP: f64 = 110.0;
    let panels = if pair.is_some() { 3.0 } else { 2.0 };
    let width = 80.0 + panels * SIZE + (panels - 1.0) * GAP + 40.0;
    let mut svg = plot::start(width, SIZE + 110.0);
    cactus::draw(&mut svg, series, runs, (80.0, 50.0), SIZE);
    if let Some(pair) = pair {
        scatter::draw(&mut svg, pair, (80.0 + 2.0 * (SIZE + GAP), 50.0), SIZE);
    }
    plot::finish(svg)
}
