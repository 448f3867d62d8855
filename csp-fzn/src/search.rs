//! Search annotations (`int_search`, `bool_search`, `seq_search`) mapped onto csp's
//! variable and value orders. csp's orders range over every variable of the model, so an
//! annotation says two things: its variables come first in the model (they are created
//! first, so `input_order`, csp's `static`, follows the annotation, and ties of the
//! other orders go their way), and its choices set the orders. What csp has no order for
//! falls back to the default, with a note.

use csp_core::{ValueOrder, VarOrder};

use crate::ast::Expr;
use crate::reader::symbols::{PreTerm, Symbols};

/// What the solve item's annotations ask of the search.
#[derive(Clone, Debug, Default)]
pub struct SearchSpec {
    /// The annotated variables, in the annotations' order (indices of the file's scalar
    /// variables; repeats possible).
    pub(crate) vars: Vec<usize>,
    /// The variable order asked for, if csp has it.
    pub var_order: Option<VarOrder>,
    /// The value order asked for, if csp has it.
    pub value_order: Option<ValueOrder>,
    /// Whether the solve item has a search annotation at all.
    pub annotated: bool,
    /// What was not followed, and why (printed on standard error).
    pub notes: Vec<String>,
}

impl SearchSpec {
    /// Reads the solve item's annotations.
    pub(crate) fn read(sym: &Symbols, anns: &[Expr], line: u32) -> SearchSpec {
        let mut spec = SearchSpec::default();
        let mut choices: Vec<(String, String)> = Vec::new();
        for a in anns {
            spec.walk(sym, a, line, &mut choices);
        }
        let mut var_orders = Vec::new();
        let mut value_orders = Vec::new();
        for (var, value) in &choices {
            match var_order(var) {
                Some(o) => var_orders.push(o),
                None => spec.notes.push(format!(
                    "line {line}: variable choice `{var}` is not one of csp's orders; the default order is used"
                )),
            }
            match value_order(value) {
                Some(o) => value_orders.push(o),
                None => spec.notes.push(format!(
                    "line {line}: value choice `{value}` is not one of csp's orders; the default (ascending) is used"
                )),
            }
        }
        spec.var_order = var_orders.first().copied();
        spec.value_order = value_orders.first().copied();
        if var_orders.iter().any(|&o| Some(o) != spec.var_order) {
            spec.notes.push(format!(
                "line {line}: csp has one variable order for the whole search: `{}` (the first annotation's) is used throughout",
                spec.var_order.map_or("default", |o| o.name())
            ));
        }
        if value_orders.iter().any(|&o| Some(o) != spec.value_order) {
            spec.notes.push(format!(
                "line {line}: csp has one value order for the whole search: `{}` (the first annotation's) is used throughout",
                spec.value_order.map_or("asc", |o| o.name())
            ));
        }
        spec
    }

    fn walk(&mut self, sym: &Symbols, a: &Expr, line: u32, choices: &mut Vec<(String, String)>) {
        match a {
            Expr::Call(name, args) if name == "seq_search" => {
                if let Some(Expr::Array(items)) = args.first() {
                    for item in items {
                        self.walk(sym, item, line, choices);
                    }
                }
            }
            Expr::Call(name, args) if name == "int_search" || name == "bool_search" => {
                self.annotated = true;
                if let Some(vars) = args
                    .first()
                    .and_then(|v| sym.pre_terms(v, Default::default()).ok())
                {
                    self.vars.extend(vars.into_iter().filter_map(|t| match t {
                        PreTerm::Var(v) => Some(v),
                        PreTerm::Const(_) => None,
                    }));
                }
                let word = |i: usize| match args.get(i) {
                    Some(Expr::Ident(w)) => w.clone(),
                    Some(Expr::Call(w, _)) => w.clone(),
                    _ => "?".to_string(),
                };
                choices.push((word(1), word(2)));
                // The strategy (fourth argument) may be left out, as older FlatZinc does.
                let strategy = word(3);
                if args.len() > 3 && strategy != "complete" {
                    self.notes.push(format!(
                        "line {line}: search strategy `{strategy}` is not csp's: the search is complete"
                    ));
                }
            }
            Expr::Call(name, _) | Expr::Ident(name) => {
                let known_other = [
                    "set_search",
                    "float_search",
                    "int_default_search",
                    "bool_default_search",
                ];
                if known_other.contains(&name.as_str()) {
                    self.annotated = true;
                }
                self.notes.push(format!(
                    "line {line}: solve annotation `{name}` is not followed by csp"
                ));
            }
            _ => {}
        }
    }
}

/// csp's variable order for a FlatZinc variable choice.
fn var_order(name: &str) -> Option<VarOrder> {
    Some(match name {
        "input_order" => VarOrder::Static,
        "first_fail" => VarOrder::Mrv,
        // Smallest domain, ties by the number of constraints: csp's mrv-degree.
        "most_constrained" => VarOrder::MrvDegree,
        "dom_w_deg" => VarOrder::DomWdeg,
        _ => return None,
    })
}

/// csp's value order for a FlatZinc value choice.
fn value_order(name: &str) -> Option<ValueOrder> {
    Some(match name {
        "indomain_min" | "indomain" => ValueOrder::Asc,
        "indomain_max" => ValueOrder::Desc,
        "indomain_random" => ValueOrder::Random,
        _ => return None,
    })
}
