//! `<objectives>`: one `<minimize>` or `<maximize>` of a variable, an expression, or a list
//! combined by `sum` (with coefficients), `product`, `minimum`, `maximum`, `nValues` or
//! `lex`. Posted as one variable equal to the objective, which the search minimises or
//! maximises (`csp_core::Model::minimize`).
//!
//! `<coeffs>` may weigh the list of every specialised type, not only `sum`: the function then
//! applies to the products `c_i·x_i` (`maximum` of `<list> x y </list><coeffs> -2 3 </coeffs>`
//! is `max(-2·x, 3·y)`), as the XCSP3 solution checker computes it. The reader turns each
//! weighted item into the expression `mul(c_i, x_i)`, so the exact arithmetic and the limits of
//! expressions hold for it.
//!
//! A `lex` objective orders solutions by their list of values, the first item first. It is
//! posted as its rank `w_1·x_1 + ... + w_k·x_k`, where `w_k = 1` and each weight is the next
//! one times the span of the next item's domain: a larger earlier item outweighs any change
//! of the later ones, so the rank orders solutions as the lists do, and branch and bound on
//! one variable optimises it. The rank is what `o` lines report for it.

use csp_core::{Expr, MAX_DOMAIN_SPAN, VarId};

use crate::error::{Error, Position, Result};
use crate::ir::{Op, expr_vars, value, values_of};
use crate::post::Poster;
use crate::read::Reader;
use crate::xml::Node;

/// Whether the objective is minimised or maximised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The smallest value.
    Minimize,
    /// The largest value.
    Maximize,
}

/// What is optimised.
#[derive(Clone, Debug)]
pub enum Function {
    /// A variable or an expression.
    Expression(Expr),
    /// `sum(coeff * item)`.
    Sum(Vec<(Expr, Expr)>),
    /// The product of the items.
    Product(Vec<Expr>),
    /// The least item.
    Minimum(Vec<Expr>),
    /// The greatest item.
    Maximum(Vec<Expr>),
    /// The number of distinct values the items take.
    NValues(Vec<Expr>),
    /// The list's values in lexicographic order, optimised as their rank (module
    /// documentation); `weights` are the rank's, set when the objective is posted.
    Lex {
        /// The items, the most significant first.
        items: Vec<Expr>,
        /// One weight per item once posted (empty before).
        weights: Vec<i64>,
    },
}

/// An objective as read.
#[derive(Clone, Debug)]
pub struct Objective {
    /// Minimise or maximise.
    pub goal: Goal,
    /// What.
    pub function: Function,
    /// Where its element starts.
    pub position: Position,
}

impl Objective {
    /// Calls `f` on every variable it mentions.
    pub fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        match &self.function {
            Function::Expression(e) => expr_vars(e, f),
            Function::Sum(terms) => terms.iter().for_each(|(c, e)| {
                expr_vars(c, f);
                expr_vars(e, f);
            }),
            Function::Product(l)
            | Function::Minimum(l)
            | Function::Maximum(l)
            | Function::NValues(l)
            | Function::Lex { items: l, .. } => l.iter().for_each(|e| expr_vars(e, f)),
        }
    }

    /// The objective's value under a complete assignment, by its definition.
    pub fn value(&self, values: &[i32]) -> Option<i128> {
        match &self.function {
            Function::Expression(e) => value(e, values),
            Function::Sum(terms) => terms.iter().try_fold(0i128, |s, (c, e)| {
                s.checked_add(value(c, values)?.checked_mul(value(e, values)?)?)
            }),
            Function::Product(l) => values_of(l, values)?
                .into_iter()
                .try_fold(1i128, |p, x| p.checked_mul(x)),
            Function::Minimum(l) => values_of(l, values)?.into_iter().min(),
            Function::Maximum(l) => values_of(l, values)?.into_iter().max(),
            Function::NValues(l) => {
                let mut v = values_of(l, values)?;
                v.sort_unstable();
                v.dedup();
                Some(v.len() as i128)
            }
            Function::Lex { items, weights } if weights.len() == items.len() => values_of(items, values)?
                .into_iter()
                .zip(weights)
                .try_fold(0i128, |rank, (x, &w)| {
                    rank.checked_add(x.checked_mul(i128::from(w))?)
                }),
            Function::Lex { .. } => None,
        }
    }

    /// The objective as one expression (for the functions that are expressions), written as
    /// the file would (`add(x,mul(2,y))`: no factor 1, no padding), since messages show it.
    fn expression(&self) -> Option<Expr> {
        let scaled = |c: Expr, e: &Expr| match c {
            Expr::Const(1) => e.clone(),
            c => Expr::Call(Op::Mul, vec![c, e.clone()]),
        };
        Some(match &self.function {
            Function::Expression(e) => e.clone(),
            Function::Sum(terms) => n_ary(
                Op::Add,
                0,
                terms.iter().map(|(c, e)| scaled(c.clone(), e)).collect(),
            ),
            Function::Product(l) => n_ary(Op::Mul, 1, l.clone()),
            Function::Lex { items, weights } => n_ary(
                Op::Add,
                0,
                items
                    .iter()
                    .zip(weights)
                    .map(|(e, &w)| scaled(Expr::Const(w), e))
                    .collect(),
            ),
            _ => return None,
        })
    }

    /// Posts the variable equal to the objective, and makes the model optimise it (a `lex`
    /// objective gets its weights here). An objective whose values one variable cannot hold
    /// (past 32 bits, or spread wider than a domain may span) is refused as unsupported.
    pub(crate) fn post(&mut self, p: &mut Poster<'_, '_>) -> Result<VarId> {
        p.position = self.position;
        if let Function::Lex { items, weights } = &mut self.function {
            *weights = lex_weights(p, items)?;
        }
        let var = self.variable(p).map_err(|e| too_wide(e, self.position))?;
        let set = match self.goal {
            Goal::Minimize => p.model.minimize(var),
            Goal::Maximize => p.model.maximize(var),
        };
        set.map_err(|e| p.err(e))?;
        Ok(var)
    }

    /// The variable equal to the objective.
    fn variable(&self, p: &mut Poster<'_, '_>) -> Result<VarId> {
        Ok(match (&self.function, self.expression()) {
            (_, Some(e)) => p.var_of(&e)?,
            (Function::Minimum(l) | Function::Maximum(l), None) => {
                let vars = p.vars_of(l)?;
                if vars.is_empty() {
                    return Err(p.invalid("an objective over an empty list"));
                }
                let lo = vars.iter().map(|&v| p.bounds_of(v).0).min().expect("not empty");
                let hi = vars.iter().map(|&v| p.bounds_of(v).1).max().expect("not empty");
                let result = p.new_var(lo, hi)?;
                if matches!(self.function, Function::Minimum(_)) {
                    p.model.minimum(&vars, result).map_err(|e| p.err(e))?;
                } else {
                    p.model.maximum(&vars, result).map_err(|e| p.err(e))?;
                }
                result
            }
            (Function::NValues(l), None) => {
                let vars = p.vars_of(l)?;
                let result = p.new_var(i64::from(!vars.is_empty()), vars.len() as i64)?;
                p.model.n_values(&vars, &[], result).map_err(|e| p.err(e))?;
                result
            }
            (_, None) => unreachable!("every other function is an expression"),
        })
    }
}

/// `op` over `items` (n-ary `add` or `mul`): `neutral` for no item, the item itself for one.
fn n_ary(op: Op, neutral: i64, mut items: Vec<Expr>) -> Expr {
    match items.len() {
        0 => Expr::Const(neutral),
        1 => items.pop().expect("one"),
        _ => Expr::Call(op, items),
    }
}

/// An objective csp cannot optimise because one variable cannot hold its values (or those of
/// an item): said as such, with the reason the posting gave. Limits and cancellations pass.
fn too_wide(e: Error, position: Position) -> Error {
    let reason = match e {
        Error::Syntax { message, .. } | Error::ValueOutOfRange { message, .. } => message,
        Error::Model { source, .. } => source.to_string(),
        other => return other,
    };
    Error::Unsupported {
        position,
        what: format!(
            "objective: csp optimises one variable equal to it (and to each item of its list), \
             whose values must be 32-bit and span at most {MAX_DOMAIN_SPAN} values; here {reason}"
        ),
    }
}

/// Reads `<objectives>`: exactly one `<minimize>` or `<maximize>`.
pub(crate) fn read<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>) -> Result<Objective> {
    let children: Vec<Node> = node.children().collect();
    let [o] = children[..] else {
        return Err(if children.is_empty() {
            r.syntax("", node, "<objectives> without <minimize> or <maximize>")
        } else {
            r.unsupported(children[1], "several objectives (csp optimises one)")
        });
    };
    let goal = match o.name() {
        "minimize" => Goal::Minimize,
        "maximize" => Goal::Maximize,
        other => return Err(r.unsupported(o, format!("element <{other}> in <objectives>"))),
    };
    r.check_children(o, &["list", "coeffs"])?;
    let kind = o.attribute("type").unwrap_or("expression");
    if kind == "expression" {
        if let Some(c) = r.child(o, "coeffs") {
            return Err(r.unsupported(c, "<coeffs> in an objective of type `expression`"));
        }
        let text = r.content(o)?;
        return Ok(Objective {
            goal,
            function: Function::Expression(r.expr(text, o, None)?),
            position: o.position(),
        });
    }
    let items = match r.child(o, "list") {
        Some(l) => r.list(l, None)?,
        None => r.list(o, None)?,
    };
    // `<coeffs>` weighs every item of every specialised type: the function applies to the
    // products `c_i * x_i`, as the XCSP3 solution checker computes it.
    let coeffs = match r.child(o, "coeffs") {
        Some(c) => {
            let coeffs = r.list(c, None)?;
            if coeffs.len() != items.len() {
                return Err(r.syntax(
                    "",
                    c,
                    format!("{} coefficients for {} terms", coeffs.len(), items.len()),
                ));
            }
            Some(coeffs)
        }
        None => None,
    };
    let weighted = |items: Vec<Expr>, coeffs: Option<Vec<Expr>>| -> Vec<Expr> {
        match coeffs {
            None => items,
            Some(coeffs) => coeffs
                .into_iter()
                .zip(items)
                .map(|(c, x)| match c {
                    Expr::Const(1) => x,
                    c => Expr::Call(Op::Mul, vec![c, x]),
                })
                .collect(),
        }
    };
    let function = match kind {
        "sum" => {
            let coeffs = coeffs.unwrap_or_else(|| vec![Expr::Const(1); items.len()]);
            Function::Sum(coeffs.into_iter().zip(items).collect())
        }
        "product" => Function::Product(weighted(items, coeffs)),
        "minimum" => Function::Minimum(weighted(items, coeffs)),
        "maximum" => Function::Maximum(weighted(items, coeffs)),
        "nValues" => Function::NValues(weighted(items, coeffs)),
        "lex" => Function::Lex {
            items: weighted(items, coeffs),
            weights: Vec::new(),
        },
        other => return Err(r.unsupported(o, format!("objective of type `{other}`"))),
    };
    Ok(Objective {
        goal,
        function,
        position: o.position(),
    })
}

/// The weights of a `lex` objective's rank over `items` (module documentation): the last
/// item's is 1, each other's the next one's times the span of the next item's values. A rank
/// whose values would not fit one domain is refused as unsupported.
fn lex_weights(p: &mut Poster<'_, '_>, items: &[Expr]) -> Result<Vec<i64>> {
    if items.is_empty() {
        return Err(p.invalid("an objective over an empty list"));
    }
    let vars = p.vars_of(items)?;
    let mut weights = vec![0i64; vars.len()];
    let mut weight: i64 = 1;
    for (k, &v) in vars.iter().enumerate().rev() {
        weights[k] = weight;
        let (lo, hi) = p.bounds_of(v);
        weight = match weight.checked_mul(hi - lo + 1) {
            Some(w) if w <= MAX_DOMAIN_SPAN => w,
            _ => {
                return Err(Error::Unsupported {
                    position: p.position,
                    what: format!(
                        "lex objective whose rank spans more than {MAX_DOMAIN_SPAN} values \
                         (csp optimises it as one variable: the product of the items' spans must fit one domain)"
                    ),
                });
            }
        };
    }
    Ok(weights)
}
