//! All-different reasoning on general domains (any width, with view offsets):
//! hidden singles by counting, and generalised arc consistency by matching.
//!
//! GAC follows Régin (1994). Find a matching of the bipartite graph "variable — view
//! value" that covers every variable (none: the constraint fails). Orient the graph
//! against the matching: a variable points to each value of its view except its own,
//! a matched value points to its variable. An edge outside the matching belongs to
//! some maximum matching exactly when it lies on an alternating cycle (both ends in
//! one strongly connected component) or leads to a value from which a free (unmatched)
//! value can be reached. Every other edge is removed.
//!
//! Two implementations of the same algorithm:
//! - [`filter_word`], bit-parallel, when all views fit in one 64-value window and every
//!   domain is one word (Sudoku units up to 64x64, n-queens diagonals up to n = 32):
//!   the hot path of GAC Sudoku. Fixed views are set aside first, the matching is found
//!   with augmenting paths over `u64` masks, and the components come from
//!   forward-backward closures on bit masks. Everything lives in fixed arrays on the
//!   stack.
//! - [`Scratch::filter`] for everything else: view values are mapped to dense indices
//!   (a direct table when they span a small range, else sorted), components come from
//!   an iterative Tarjan, and every buffer lives in a thread-local [`Scratch`] that is
//!   cleared and reused, so a call allocates nothing once the buffers have grown.
//!
//! The matching is computed from scratch on every call (greedy, singletons first, then
//! augmenting paths): the propagator keeps no state between calls, so backtracking
//! cannot leave a stale matching behind.

use std::cell::RefCell;

use crate::propagation::{Conflict, PropagationContext};
use crate::var::VarId;

/// "No variable" / "no value" in the dense tables.
const NONE: u32 = u32::MAX;

/// Hidden singles under the pigeonhole condition, for any domains: when the views
/// cover exactly as many values as there are variables, a value held by one view
/// only must be taken by it.
pub(crate) fn hidden_singles_general(
    vars: &[VarId],
    offsets: &[i32],
    ctx: &mut PropagationContext<'_>,
) -> Result<(), Conflict> {
    // A view with more values than there are views makes the union wider still: no
    // pigeonhole, nothing to do, and no need to list the values (there may be millions).
    if vars.iter().any(|&v| ctx.size(v) as usize > vars.len()) {
        return Ok(());
    }
    with_scratch(|scratch| scratch.hidden_singles(vars, offsets, ctx))
}

/// Generalised arc consistency for all-different over the views `vars[i] + offsets[i]`:
/// removes every value that belongs to no solution of the constraint on its own, and
/// reports [`Conflict`] when no solution is left.
/// `plain`: every offset is zero.
pub(crate) fn filter(
    vars: &[VarId],
    offsets: &[i32],
    plain: bool,
    ctx: &mut PropagationContext<'_>,
) -> Result<(), Conflict> {
    if vars.is_empty() {
        return Ok(());
    }
    if let (true, Some((_, base))) = (plain, ctx.uniform_words()) {
        // Every view is a one-word domain at one base: the window is that word.
        return filter_word(vars, offsets, i64::from(base), ctx);
    }
    match word_window(vars, offsets, ctx) {
        Window::Fits(lo) => filter_word(vars, offsets, lo, ctx),
        Window::Empty => Err(Conflict),
        Window::TooWide if no_hall_set(vars, offsets, ctx) => Ok(()),
        Window::TooWide => with_scratch(|scratch| scratch.filter(vars, offsets, ctx)),
    }
}

/// Whether GAC can prune nothing, told in time linear in the number of views (the
/// matching is linear in the number of values, which may be millions): no fixed view's
/// value is left in another view, and every unfixed view has more values than there are
/// unfixed views. Then the only Hall sets (views that, together, hold as few values as
/// there are views) are the fixed views, whose values are gone already, and every value
/// keeps a support.
fn no_hall_set(vars: &[VarId], offsets: &[i32], ctx: &PropagationContext<'_>) -> bool {
    let open = vars.iter().filter(|&&v| ctx.size(v) > 1).count();
    let mut views = vars.iter().zip(offsets);
    if views
        .clone()
        .any(|(&v, _)| ctx.size(v) == 0 || (ctx.size(v) > 1 && ctx.size(v) as usize <= open))
    {
        return false;
    }
    views.all(|(&v, &o)| {
        let Some(value) = ctx.min(v).filter(|_| ctx.size(v) == 1) else {
            return true;
        };
        let view = i64::from(value) + i64::from(o);
        vars.iter()
            .zip(offsets)
            .all(|(&w, &p)| w == v || i32::try_from(view - i64::from(p)).is_ok_and(|b| !ctx.contains(w, b)))
    })
}

/// Whether the bit-parallel path applies.
enum Window {
    /// Every domain is one word and every view value lies in `lo..lo + 64`.
    Fits(i64),
    /// Some domain is empty.
    Empty,
    /// The general path is needed.
    TooWide,
}

/// The smallest view value, if every domain is a single word and all the view values
/// lie within 64 consecutive integers.
#[inline]
fn word_window(vars: &[VarId], offsets: &[i32], ctx: &PropagationContext<'_>) -> Window {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for (&var, &offset) in vars.iter().zip(offsets) {
        let Some(word) = ctx.bits(var).single() else {
            return Window::TooWide;
        };
        if word == 0 {
            return Window::Empty;
        }
        let start = i64::from(ctx.base(var)) + i64::from(offset);
        lo = lo.min(start + i64::from(word.trailing_zeros()));
        hi = hi.max(start + 63 - i64::from(word.leading_zeros()));
    }
    if hi - lo < 64 {
        Window::Fits(lo)
    } else {
        Window::TooWide
    }
}

/// Shifts a domain word into the view window (`shift` = first value of the word's
/// view minus the window's first value, in `-63..=63` for any set bit to survive).
#[inline]
fn to_window(word: u64, shift: i64) -> u64 {
    if shift >= 0 { word << shift } else { word >> -shift }
}

/// The inverse of [`to_window`].
#[inline]
fn from_window(mask: u64, shift: i64) -> u64 {
    if shift >= 0 { mask >> shift } else { mask << -shift }
}

/// Régin's GAC when every domain is one word and every view value lies in
/// `lo..lo + 64`: variables and values are bits of `u64` masks, and all state is in
/// fixed arrays on the stack (sized for `vars.len()`, so a 9-cell unit does not clear
/// arrays for 64).
fn filter_word(
    vars: &[VarId],
    offsets: &[i32],
    lo: i64,
    ctx: &mut PropagationContext<'_>,
) -> Result<(), Conflict> {
    match vars.len() {
        0..=16 => filter_word_n::<16>(vars, offsets, lo, ctx),
        17..=64 => filter_word_n::<64>(vars, offsets, lo, ctx),
        // More variables than the 64 values of the window.
        _ => Err(Conflict),
    }
}

/// [`filter_word`] for at most `N <= 64` variables.
///
/// Fixed views (one value left) are set aside first: their values leave every other
/// view, and the matching and the residual graph are built on the open views only (in a
/// Sudoku unit late in the search, most cells are fixed).
fn filter_word_n<const N: usize>(
    vars: &[VarId],
    offsets: &[i32],
    lo: i64,
    ctx: &mut PropagationContext<'_>,
) -> Result<(), Conflict> {
    let (mut fixed_vals, mut failed) = (0u64, false);
    // The open views: position in `vars`, shift into the window, values before and
    // after removing the fixed values (bit k = value lo + k).
    let mut position = [0u8; N];
    let mut shift = [0i8; N];
    let mut before = [0u64; N];
    let mut dom = [0u64; N];
    let mut n = 0usize;
    // Plain views in the uniform layout at the window's base: words as they are.
    let uniform = ctx
        .uniform_words()
        .filter(|&(_, base)| i64::from(base) == lo && offsets.iter().all(|&o| o == 0))
        .map(|(words, _)| words);
    // Without branches: which views are fixed follows no learnable pattern. Each view is
    // written at `n`, which moves on for open views only.
    let mut take = |i: usize, w: u64, s: i64| {
        let single = w & w.wrapping_sub(1) == 0;
        let fixed = if single { w } else { 0 };
        // An empty domain, or two views fixed to one value.
        failed |= (w == 0) | (fixed_vals & fixed != 0);
        fixed_vals |= fixed;
        position[n] = i as u8;
        shift[n] = s as i8;
        before[n] = w;
        n += usize::from(!single);
    };
    // Two loops rather than a choice per view: the uniform one is a plain gather.
    match uniform {
        Some(words) => {
            for (i, &var) in vars.iter().enumerate() {
                take(i, words[var.index()], 0);
            }
        }
        None => {
            for (i, (&var, &offset)) in vars.iter().zip(offsets).enumerate() {
                // In -63..=63: every value of the view lies in the window.
                let s = i64::from(ctx.base(var)) + i64::from(offset) - lo;
                take(i, to_window(ctx.bits(var)[0], s), s);
            }
        }
    }
    if failed {
        return Err(Conflict);
    }
    let in_place = uniform.is_some();
    if n == 0 {
        return Ok(());
    }
    let mut union = 0u64;
    // Fixed values still in open views: removed by the writes at the end.
    let mut trimmed = 0u64;
    for k in 0..n {
        trimmed |= before[k] & fixed_vals;
        dom[k] = before[k] & !fixed_vals;
        if dom[k] == 0 {
            return Err(Conflict);
        }
        union |= dom[k];
    }
    if (union.count_ones() as usize) < n {
        return Err(Conflict);
    }
    let all_vars = if n == 64 { !0 } else { (1u64 << n) - 1 };

    // Maximum matching: greedy, then augmenting paths.
    let mut var_val = [0u8; N];
    let mut val_var = [0u8; 64];
    let mut used = 0u64;
    let mut unmatched = 0u64;
    for k in 0..n {
        let free = dom[k] & !used;
        if free == 0 {
            unmatched |= 1 << k;
            continue;
        }
        let b = free.trailing_zeros() as usize;
        var_val[k] = b as u8;
        val_var[b] = k as u8;
        used |= 1 << b;
    }
    while unmatched != 0 {
        let root = unmatched.trailing_zeros() as usize;
        unmatched &= unmatched - 1;
        if !augment_word(root, &dom[..n], &mut var_val[..n], &mut val_var, &mut used) {
            return Err(Conflict);
        }
    }

    // The residual graph on variables: x -> y when y's matched value is in x's view (the
    // alternating path x -> value -> y). Its closures are taken by sweeps over the
    // candidate variables, testing each view against the matched values gathered so far:
    // on a handful of open views that is cheaper than listing the edges first.
    let mut matched = [0u64; N];
    for k in 0..n {
        matched[k] = 1 << var_val[k];
    }

    // Variables whose matched value reaches a free value along an alternating path:
    // those holding a free value, then backwards through the residual graph.
    let free_vals = union & !used;
    let mut reached = 0u64;
    let mut reach_vals = free_vals;
    if free_vals != 0 {
        for (k, &d) in dom[..n].iter().enumerate() {
            if d & free_vals != 0 {
                reached |= 1 << k;
                reach_vals |= matched[k];
            }
        }
        (reached, reach_vals) = close_backward(reached, reach_vals, all_vars, &dom[..n], &matched);
    }

    // Strongly connected components of the other variables (a cycle never leaves them,
    // or they would be reached), by forward-backward closures: the component of v is what
    // v reaches and what reaches v. scc_vals[x]: the matched values of x's component.
    let mut scc_vals = [0u64; N];
    let mut remaining = all_vars & !reached;
    while remaining != 0 {
        let v = remaining.trailing_zeros() as usize;
        // Forward: y joins when some view already in holds y's matched value.
        let (mut forward, mut vals) = (1u64 << v, dom[v]);
        loop {
            let mut grew = false;
            let mut c = remaining & !forward;
            while c != 0 {
                let y = c.trailing_zeros() as usize;
                c &= c - 1;
                if vals & matched[y] != 0 {
                    forward |= 1 << y;
                    vals |= dom[y];
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let (component, component_vals) = close_backward(1 << v, matched[v], forward, &dom[..n], &matched);
        if component == all_vars && trimmed == 0 {
            // One component and no free value: every edge lies on an alternating cycle,
            // and no fixed value is left to remove.
            return Ok(());
        }
        remaining &= !component;
        let mut c = component;
        while c != 0 {
            scc_vals[c.trailing_zeros() as usize] = component_vals;
            c &= c - 1;
        }
    }

    // Keep the matched value, the values that reach a free value, and the values
    // matched inside the variable's own component; fixed values are gone already.
    for k in 0..n {
        let allowed = reach_vals | scc_vals[k] | matched[k];
        let kept = dom[k] & allowed;
        if kept != before[k] {
            let i = position[k] as usize;
            if in_place {
                ctx.retain_word(vars[i], kept)?;
            } else {
                ctx.retain_bits(vars[i], &[from_window(kept, i64::from(shift[k]))])?;
            }
        }
    }
    Ok(())
}

/// Backward closure in the residual graph, within the variables `within`: starting from
/// the variables `set` with matched values `vals`, adds every variable whose view holds
/// a matched value of the set, until none does. Returns the set and its matched values.
#[inline]
fn close_backward(mut set: u64, mut vals: u64, within: u64, dom: &[u64], matched: &[u64]) -> (u64, u64) {
    loop {
        let mut grew = false;
        let mut c = within & !set;
        while c != 0 {
            let x = c.trailing_zeros() as usize;
            c &= c - 1;
            if dom[x] & vals != 0 {
                set |= 1 << x;
                vals |= matched[x];
                grew = true;
            }
        }
        if !grew {
            return (set, vals);
        }
    }
}

/// Extends the matching to the unmatched variable `root` by a breadth-first search for
/// an augmenting path. Returns `false` if there is none.
fn augment_word(
    root: usize,
    dom: &[u64],
    var_val: &mut [u8],
    val_var: &mut [u8; 64],
    used: &mut u64,
) -> bool {
    // parent[b]: the variable from which value b was reached.
    let mut parent = [0u8; 64];
    // Each variable enters the queue at most once (through its matched value).
    let mut queue = [0u8; 64];
    let (mut head, mut tail) = (0usize, 1usize);
    queue[0] = root as u8;
    let mut seen = 0u64;
    while head < tail {
        let u = queue[head] as usize;
        head += 1;
        let candidates = dom[u] & !seen;
        let free = candidates & !*used;
        if free != 0 {
            let first = free.trailing_zeros() as usize;
            *used |= 1 << first;
            let (mut x, mut b) = (u, first);
            loop {
                let previous = var_val[x] as usize;
                var_val[x] = b as u8;
                val_var[b] = x as u8;
                if x == root {
                    return true;
                }
                b = previous;
                x = parent[b] as usize;
            }
        }
        seen |= candidates;
        let mut c = candidates;
        while c != 0 {
            let b = c.trailing_zeros() as usize;
            c &= c - 1;
            parent[b] = u as u8;
            queue[tail] = val_var[b];
            tail += 1;
        }
    }
    false
}

thread_local! {
    /// Buffers of the general path, reused from call to call on each thread.
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch::new()) };
}

/// Runs `f` with this thread's scratch buffers (or fresh ones if they are in use).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::new()),
    })
}

/// The buffers of the general path. Variables are `0..n` (positions in the
/// constraint), values are dense indices `0..m` into `values`.
struct Scratch {
    /// The view value of every edge, variable after variable.
    views: Vec<i64>,
    /// The edges of variable `x` are `var_start[x]..var_start[x + 1]`.
    var_start: Vec<u32>,
    /// The dense value index of every edge.
    edge_val: Vec<u32>,
    /// The distinct view values in increasing order (dense index -> view value).
    values: Vec<i64>,
    /// `view - lo` -> dense index, when the views span a small range.
    dense: Vec<u32>,
    var_val: Vec<u32>,
    val_var: Vec<u32>,
    /// Per value: the augmentation in which it was last reached.
    seen: Vec<u32>,
    /// Per value: the variable from which it was reached.
    parent: Vec<u32>,
    queue: Vec<u32>,
    /// Tarjan: visit order (0 = not visited), low links, component ids.
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    /// Tarjan's explicit call stack: (node, position in its successor list).
    call: Vec<(u32, u32)>,
}

impl Scratch {
    const fn new() -> Scratch {
        Scratch {
            views: Vec::new(),
            var_start: Vec::new(),
            edge_val: Vec::new(),
            values: Vec::new(),
            dense: Vec::new(),
            var_val: Vec::new(),
            val_var: Vec::new(),
            seen: Vec::new(),
            parent: Vec::new(),
            queue: Vec::new(),
            index: Vec::new(),
            low: Vec::new(),
            comp: Vec::new(),
            on_stack: Vec::new(),
            stack: Vec::new(),
            call: Vec::new(),
        }
    }

    /// See [`hidden_singles_general`].
    fn hidden_singles(
        &mut self,
        vars: &[VarId],
        offsets: &[i32],
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        let views = &mut self.views;
        views.clear();
        for (&v, &o) in vars.iter().zip(offsets) {
            views.extend(ctx.values(v).map(|a| i64::from(a) + i64::from(o)));
        }
        views.sort_unstable();
        let distinct = views.chunk_by(|a, b| a == b).count();
        if distinct < vars.len() {
            return Err(Conflict);
        }
        if distinct > vars.len() {
            return Ok(());
        }
        let unique = &mut self.values;
        unique.clear();
        unique.extend(
            views
                .chunk_by(|a, b| a == b)
                .filter(|c| c.len() == 1)
                .map(|c| c[0]),
        );
        for &view in unique.iter() {
            for (&v, &o) in vars.iter().zip(offsets) {
                if let Ok(value) = i32::try_from(view - i64::from(o)) {
                    if ctx.contains(v, value) {
                        ctx.fix(v, value)?;
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Régin's GAC over dense value indices; see the module documentation.
    fn filter(
        &mut self,
        vars: &[VarId],
        offsets: &[i32],
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        let n = vars.len();
        if !self.build_graph(vars, offsets, ctx) {
            return Err(Conflict);
        }
        let m = self.values.len();
        if m < n {
            return Err(Conflict);
        }
        if !self.match_all(n, m) {
            return Err(Conflict);
        }
        self.components(n, m > n);

        let Scratch {
            views,
            var_start,
            edge_val,
            var_val,
            val_var,
            comp,
            ..
        } = self;
        for x in 0..n {
            let own = var_val[x];
            for e in var_start[x] as usize..var_start[x + 1] as usize {
                let b = edge_val[e];
                if b == own {
                    continue;
                }
                let y = val_var[b as usize];
                // y == NONE: a free value, always part of some maximum matching.
                if y != NONE && comp[x] != comp[y as usize] {
                    // The value came from the domain, so it fits an i32.
                    let value = (views[e] - i64::from(offsets[x])) as i32;
                    ctx.remove(vars[x], value)?;
                }
            }
        }
        Ok(())
    }

    /// Collects the edges and maps view values to dense indices. `false` if a domain is empty.
    fn build_graph(&mut self, vars: &[VarId], offsets: &[i32], ctx: &PropagationContext<'_>) -> bool {
        self.views.clear();
        self.var_start.clear();
        self.var_start.push(0);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (&v, &o) in vars.iter().zip(offsets) {
            let (Some(min), Some(max)) = (ctx.min(v), ctx.max(v)) else {
                return false;
            };
            lo = lo.min(i64::from(min) + i64::from(o));
            hi = hi.max(i64::from(max) + i64::from(o));
            self.views
                .extend(ctx.values(v).map(|a| i64::from(a) + i64::from(o)));
            self.var_start.push(self.views.len() as u32);
        }
        self.values.clear();
        self.edge_val.clear();
        let span = (hi - lo + 1) as u64;
        if span <= 4 * self.views.len() as u64 + 64 {
            // A direct table over the span: mark, number in increasing order, look up.
            self.dense.clear();
            self.dense.resize(span as usize, NONE);
            for &view in &self.views {
                self.dense[(view - lo) as usize] = 0;
            }
            for (k, slot) in self.dense.iter_mut().enumerate() {
                if *slot != NONE {
                    *slot = self.values.len() as u32;
                    self.values.push(lo + k as i64);
                }
            }
            let dense = &self.dense;
            self.edge_val
                .extend(self.views.iter().map(|&view| dense[(view - lo) as usize]));
        } else {
            // Sparse values: sort, deduplicate, binary search.
            self.values.extend_from_slice(&self.views);
            self.values.sort_unstable();
            self.values.dedup();
            let values = &self.values;
            self.edge_val.extend(
                self.views
                    .iter()
                    .map(|view| values.binary_search(view).expect("every view is listed") as u32),
            );
        }
        true
    }

    /// A matching that covers every variable: greedy (variables with one value first),
    /// then a breadth-first augmenting path for each variable left over.
    fn match_all(&mut self, n: usize, m: usize) -> bool {
        let Scratch {
            var_start,
            edge_val,
            var_val,
            val_var,
            seen,
            parent,
            queue,
            ..
        } = self;
        var_val.clear();
        var_val.resize(n, NONE);
        val_var.clear();
        val_var.resize(m, NONE);
        for singles in [true, false] {
            for x in 0..n {
                let edges = &edge_val[var_start[x] as usize..var_start[x + 1] as usize];
                if (edges.len() == 1) != singles {
                    continue;
                }
                if let Some(&b) = edges.iter().find(|&&b| val_var[b as usize] == NONE) {
                    var_val[x] = b;
                    val_var[b as usize] = x as u32;
                }
            }
        }
        seen.clear();
        seen.resize(m, 0);
        parent.clear();
        parent.resize(m, NONE);
        let mut stamp = 0u32;
        for root in 0..n {
            if var_val[root] != NONE {
                continue;
            }
            stamp += 1;
            queue.clear();
            queue.push(root as u32);
            let mut head = 0;
            let mut end = None;
            'search: while head < queue.len() {
                let u = queue[head] as usize;
                head += 1;
                for &b in &edge_val[var_start[u] as usize..var_start[u + 1] as usize] {
                    let b = b as usize;
                    if seen[b] == stamp {
                        continue;
                    }
                    seen[b] = stamp;
                    parent[b] = u as u32;
                    if val_var[b] == NONE {
                        end = Some(b);
                        break 'search;
                    }
                    queue.push(val_var[b]);
                }
            }
            let Some(mut b) = end else {
                return false;
            };
            loop {
                let x = parent[b] as usize;
                let previous = var_val[x];
                var_val[x] = b as u32;
                val_var[b] = x as u32;
                if x == root {
                    break;
                }
                b = previous as usize;
            }
        }
        true
    }

    /// Tarjan's algorithm, iterative, on the residual graph over variables: `x -> y`
    /// when `y`'s matched value is in `x`'s view. With free values, an extra node `T = n`
    /// collects them: `x -> T` when `x`'s view holds a free value, and `T -> x` for every
    /// `x`. Then an edge `(x, value of y)` belongs to some maximum matching exactly when
    /// `x` and `y` share a component: an alternating cycle, or (through `T`) a path to a
    /// free value.
    fn components(&mut self, n: usize, has_free: bool) {
        let Scratch {
            var_start,
            edge_val,
            val_var,
            index,
            low,
            comp,
            on_stack,
            stack,
            call,
            ..
        } = self;
        let t = n;
        let nodes = n + usize::from(has_free);
        index.clear();
        index.resize(nodes, 0);
        low.clear();
        low.resize(nodes, 0);
        comp.clear();
        comp.resize(nodes, NONE);
        on_stack.clear();
        on_stack.resize(nodes, false);
        stack.clear();
        call.clear();
        let mut counter = 0u32;
        let mut components = 0u32;
        // The next successor of `v` from position `*pos` of its list.
        let next = |v: usize, pos: &mut u32| -> Option<usize> {
            if v == t {
                let w = *pos as usize;
                *pos += 1;
                return (w < n).then_some(w);
            }
            let (start, end) = (var_start[v] as usize, var_start[v + 1] as usize);
            while start + (*pos as usize) < end {
                let b = edge_val[start + *pos as usize] as usize;
                *pos += 1;
                let y = val_var[b];
                if y == NONE {
                    return Some(t);
                }
                if y as usize != v {
                    return Some(y as usize);
                }
            }
            None
        };
        for root in 0..nodes {
            if index[root] != 0 {
                continue;
            }
            counter += 1;
            index[root] = counter;
            low[root] = counter;
            stack.push(root as u32);
            on_stack[root] = true;
            call.push((root as u32, 0));
            while let Some(&mut (v, ref mut pos)) = call.last_mut() {
                let v = v as usize;
                if let Some(w) = next(v, pos) {
                    if index[w] == 0 {
                        counter += 1;
                        index[w] = counter;
                        low[w] = counter;
                        stack.push(w as u32);
                        on_stack[w] = true;
                        call.push((w as u32, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                call.pop();
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp[w as usize] = components;
                        if w as usize == v {
                            break;
                        }
                    }
                    components += 1;
                }
                if let Some(&(parent, _)) = call.last() {
                    let parent = parent as usize;
                    low[parent] = low[parent].min(low[v]);
                }
            }
        }
    }
}
