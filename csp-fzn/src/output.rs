//! Solutions as the FlatZinc specification prints them: `name = value;` for each output
//! variable, `name = arrayNd(ranges, [values]);` for each output array, in declaration
//! order; Booleans as `true` and `false`.

use std::fmt::Write;

use crate::post::Term;

/// One output annotation.
#[derive(Clone, Debug)]
pub struct Output {
    /// The variable's or array's name.
    pub name: String,
    /// Whether its values are Booleans.
    pub is_bool: bool,
    /// `None` for `output_var`; the index ranges of `output_array`.
    pub dims: Option<Vec<(i64, i64)>>,
    /// The values' terms: one for a variable, one per cell for an array.
    pub elems: Vec<Term>,
}

/// The marker after each solution.
pub const SOLUTION_END: &str = "----------";
/// The marker of a complete search.
pub const SEARCH_COMPLETE: &str = "==========";
/// The marker of a model without solution.
pub const UNSATISFIABLE: &str = "=====UNSATISFIABLE=====";
/// The marker of a search stopped before it found anything.
pub const UNKNOWN: &str = "=====UNKNOWN=====";

/// The lines of one solution (`values`: one per model variable), closed by
/// [`SOLUTION_END`].
pub fn solution_text(outputs: &[Output], values: &[i32]) -> String {
    let value = |t: &Term, is_bool: bool| -> String {
        let v = match *t {
            Term::Const(k) => k,
            Term::Var(v) => values.get(v.index()).map_or(0, |&x| i64::from(x)),
        };
        if is_bool {
            (if v != 0 { "true" } else { "false" }).to_string()
        } else {
            v.to_string()
        }
    };
    let mut s = String::new();
    for o in outputs {
        match &o.dims {
            None => {
                let v = o
                    .elems
                    .first()
                    .map_or_else(|| "0".to_string(), |t| value(t, o.is_bool));
                let _ = writeln!(s, "{} = {v};", o.name);
            }
            Some(dims) => {
                let ranges: Vec<String> = dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
                let cells: Vec<String> = o.elems.iter().map(|t| value(t, o.is_bool)).collect();
                let _ = writeln!(
                    s,
                    "{} = array{}d({}, [{}]);",
                    o.name,
                    dims.len(),
                    ranges.join(", "),
                    cells.join(", ")
                );
            }
        }
    }
    s.push_str(SOLUTION_END);
    s.push('\n');
    s
}
