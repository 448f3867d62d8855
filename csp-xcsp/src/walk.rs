//! The walk over an XCSP3 document: `<instance>`, `<variables>`, `<constraints>` with the
//! syntax helpers `<group>`, `<block>` and `<slide>`, and `<objectives>`.

use csp_core::{Expr, Model};

use crate::constraints;
use crate::error::Result;
use crate::ir::Located;
use crate::limits::Budget;
use crate::objective::{self, Objective};
use crate::read::lists::{Ctx, max_percent};
use crate::read::{Array, Reader};
use crate::xml::{Document, Node};

/// What the walk produced.
pub(crate) struct Parsed {
    pub(crate) model: Model,
    pub(crate) arrays: Vec<Array>,
    pub(crate) constraints: Vec<Located>,
    pub(crate) units: Vec<crate::ir::Unit>,
    pub(crate) tops: Vec<crate::ir::Top>,
    pub(crate) objective: Option<Objective>,
}

/// Reads a whole document.
pub(crate) fn read(doc: &Document<'_>, budget: Budget<'_>) -> Result<Parsed> {
    let mut r = Reader::new(doc, budget);
    let root = doc.root();
    if root.name() != "instance" {
        return Err(r.unsupported(
            root,
            format!("root element <{}> (expected <instance>)", root.name()),
        ));
    }
    match root.attribute("type") {
        Some("CSP" | "COP") | None => {}
        Some(t) => {
            return Err(r.unsupported(root, format!("instance type `{t}` (csp reads CSP and COP)")));
        }
    }
    crate::attributes::check(root, "")?;
    let mut goal = None;
    for child in root.children() {
        match child.name() {
            "objectives" => {
                if goal.is_some() {
                    return Err(r.syntax("", child, "a second <objectives>"));
                }
                goal = Some(objective::read(&mut r, child)?);
            }
            "variables" => r.variables(child)?,
            "constraints" => {
                for c in child.children() {
                    r.begin_top(c);
                    constraint(&mut r, c, None)?;
                }
            }
            "annotations" => {}
            other => return Err(r.unsupported(child, format!("element <{other}>"))),
        }
    }
    Ok(Parsed {
        model: r.model,
        arrays: r.arrays,
        constraints: r.constraints,
        units: r.units,
        tops: r.tops,
        objective: goal,
    })
}

/// A child of `<constraints>` (or of a `<block>`).
fn constraint<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    match node.name() {
        "group" => group(r, node, ctx),
        "block" => {
            for c in node.children() {
                constraint(r, c, ctx)?;
            }
            Ok(())
        }
        "slide" => slide(r, node, ctx),
        _ => {
            r.begin_unit(node, node, None, None);
            constraints::read(r, node, ctx)
        }
    }
}

/// `<group>`: a template and its `<args>`, each list of arguments one constraint.
fn group<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    let mut elems = node.children();
    let Some(template) = elems.next() else {
        return Err(r.syntax("", node, "an empty <group>"));
    };
    if matches!(template.name(), "group" | "block" | "slide" | "args") {
        return Err(r.syntax(
            "",
            template,
            format!("a <{}> as the template of a <group>", template.name()),
        ));
    }
    let rest = max_percent(template).map_or(0, |m| m + 1);
    let open_ended = uses_rest(template);
    let mut count = 0;
    for a in elems {
        if a.name() != "args" {
            return Err(r.unsupported(a, format!("element <{}> in <group>", a.name())));
        }
        r.begin_unit(template, a, Some(node), Some(count));
        let args = r.list(a, ctx)?;
        if args.len() < rest || (args.len() > rest && !open_ended) {
            return Err(r.syntax(
                "",
                a,
                format!(
                    "{} arguments for a template that takes {}{rest}",
                    args.len(),
                    if open_ended { "at least " } else { "" }
                ),
            ));
        }
        constraints::read(r, template, Some(&Ctx { args: &args, rest }))?;
        count += 1;
    }
    if count == 0 {
        return Err(r.syntax("", node, "a <group> without <args>"));
    }
    Ok(())
}

/// Whether the template uses `%...` (the arguments past its `%i`).
fn uses_rest(node: Node) -> bool {
    node.text().contains("%...") || node.children().any(uses_rest)
}

/// `<slide>`: the template over a window sliding along a list.
fn slide<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    let circular = match node.attribute("circular") {
        None | Some("false") => false,
        Some("true") => true,
        Some(x) => return Err(r.syntax("", node, format!("circular=\"{x}\""))),
    };
    let lists = r.children_named(node, "list");
    let templates: Vec<_> = node.children().filter(|c| c.name() != "list").collect();
    let ([list], [template]) = (&lists[..], &templates[..]) else {
        return Err(r.unsupported(node, "<slide> with other than one <list> and one constraint"));
    };
    let items: Vec<Expr> = r.list(*list, ctx)?;
    let arity = max_percent(*template).map_or(0, |m| m + 1);
    let attr = |name: &str, default: usize| -> Result<usize> {
        match list.attribute(name) {
            None => Ok(default),
            Some(s) => s
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&k| k > 0)
                .ok_or_else(|| r.syntax("", *list, format!("{name}=\"{s}\" is not a positive integer"))),
        }
    };
    let collect = attr("collect", arity)?;
    let offset = attr("offset", 1)?;
    let n = items.len();
    if collect != arity {
        return Err(r.syntax(
            "",
            *list,
            format!("collect=\"{collect}\" but the template takes {arity} arguments"),
        ));
    }
    if collect == 0 || collect > n {
        return Err(r.syntax(
            "",
            *list,
            format!("a window of {collect} over a list of {n}: no constraint"),
        ));
    }
    let mut start = 0;
    let mut window = Vec::with_capacity(collect);
    while if circular { start < n } else { start + collect <= n } {
        window.clear();
        window.extend((0..collect).map(|j| items[(start + j) % n].clone()));
        r.begin_unit(*template, node, Some(node), Some(start / offset));
        constraints::read(
            r,
            *template,
            Some(&Ctx {
                args: &window,
                rest: arity,
            }),
        )?;
        start += offset;
    }
    Ok(())
}
