//! Writing instances as XCSP3 text: random CSPs ([`csp_core::random::RandomCsp`]) as
//! `extension` constraints of conflicts, which every XCSP3 solver reads.

use std::io::{self, Write};

use csp_core::random::RandomCsp;

/// Writes `csp` as an XCSP3 instance: the array `x` of `n` variables over `0..d-1`, an
/// `extension` of conflicts per constraint, and comments with the generator's parameters
/// and, for forced instances, the hidden solution (`<!-- hidden solution: v0 v1 ... -->`).
///
/// ```
/// let csp = csp_core::random::ModelB { n: 3, d: 2, p1: 1.0, p2: 0.25 }.generate(0).unwrap();
/// let mut text = Vec::new();
/// csp_xcsp::write::random_csp(&csp, &mut text).unwrap();
/// let instance = csp_xcsp::Instance::from_str(std::str::from_utf8(&text).unwrap()).unwrap();
/// assert_eq!((instance.model.num_vars(), instance.constraints.len()), (3, 3));
/// ```
pub fn random_csp(csp: &RandomCsp, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    // `--` may not appear in an XML comment.
    writeln!(out, "<!-- {} -->", csp.description.replace("--", "- -"))?;
    if let Some(hidden) = &csp.hidden {
        write!(out, "<!-- hidden solution:")?;
        for v in hidden {
            write!(out, " {v}")?;
        }
        writeln!(out, " -->")?;
    }
    writeln!(out, r#"<instance format="XCSP3" type="CSP">"#)?;
    writeln!(out, "  <variables>")?;
    writeln!(
        out,
        r#"    <array id="x" size="[{}]"> 0..{} </array>"#,
        csp.variables,
        csp.domain_size.saturating_sub(1)
    )?;
    writeln!(out, "  </variables>")?;
    writeln!(out, "  <constraints>")?;
    for c in &csp.constraints {
        write!(out, "    <extension>\n      <list>")?;
        for x in &c.scope {
            write!(out, " x[{x}]")?;
        }
        write!(out, " </list>\n      <conflicts> ")?;
        for t in &c.tuples {
            write!(out, "(")?;
            for (i, v) in t.iter().enumerate() {
                if i > 0 {
                    write!(out, ",")?;
                }
                write!(out, "{v}")?;
            }
            write!(out, ")")?;
        }
        writeln!(out, " </conflicts>\n    </extension>")?;
    }
    writeln!(out, "  </constraints>")?;
    writeln!(out, "</instance>")
}
