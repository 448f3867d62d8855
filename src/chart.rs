//! A small SVG bar chart of a strategy comparison (no plotting dependency needed for
//! one chart of horizontal bars).

use std::fmt::Write;

use csp_sudoku::Summary;

const ROW: f64 = 22.0;
const LABEL: f64 = 260.0;
const BAR: f64 = 480.0;
const TOP: f64 = 50.0;

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Horizontal bars of mean nodes per puzzle on a log scale, one per contender; bars of
/// contenders that did not finish every puzzle are drawn in orange.
pub fn nodes_chart(rows: &[Summary]) -> String {
    let max = rows.iter().map(|r| r.nodes_mean).fold(1.0f64, f64::max);
    let scale = (max + 1.0).log10().max(1.0);
    let height = TOP + ROW * rows.len() as f64 + 40.0;
    let width = LABEL + BAR + 160.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
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
    svg.push_str("</svg>\n");
    svg
}
