//! Posting the XCSP3-core global constraints (see `crate::constraints` and
//! `docs/constraints.md`): validation of the arguments, the scope of distinct variables,
//! and the choice of propagators or of a decomposition into other constraints.

use crate::constraints::all_different_except::AllDifferentExcept;
use crate::constraints::all_equal::AllEqual;
use crate::constraints::bin_packing::BinPacking;
use crate::constraints::channel::{Channel, ChannelValue};
use crate::constraints::circuit::Circuit;
use crate::constraints::count::{Among, CountVar, NValues};
use crate::constraints::distinct_lists::DistinctLists;
use crate::constraints::layered::{Automaton, LayeredGraph, Machine, Mdd};
use crate::constraints::lex::Lex;
use crate::constraints::linear::LinearKind;
use crate::constraints::min_max::MinMax;
use crate::constraints::precedence::Precedence;
use crate::constraints::scheduling::{Cumulative, NoOverlap, NoOverlapBoxes, Task};
use crate::constraints::scope::{Arg, ScopeBuilder, Term};
use crate::constraints::tally::Tally;
use crate::constraints::{Order, Strength, check_scope};
use crate::error::ModelError;
use crate::model::Model;
use crate::var::{IntOrVar, VarId};

/// `ModelError::InvalidConstraint` for `constraint`.
pub(crate) fn invalid(constraint: &'static str, reason: impl Into<String>) -> ModelError {
    ModelError::InvalidConstraint {
        constraint,
        reason: reason.into(),
    }
}

/// The values sorted, or an error naming the first one listed twice.
fn distinct_values(constraint: &'static str, values: &[i32]) -> Result<Vec<i32>, ModelError> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match sorted.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(invalid(constraint, format!("the value {} is listed twice", w[0]))),
        None => Ok(sorted),
    }
}

/// The values sorted, repeats dropped.
fn value_set(values: &[i32]) -> Vec<i32> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

/// Lists of one length, none empty; returns the length.
fn same_lengths(
    constraint: &'static str,
    what: &'static str,
    lists: &[Vec<VarId>],
) -> Result<usize, ModelError> {
    let Some(first) = lists.first() else {
        return Err(invalid(constraint, "no list is given"));
    };
    if first.is_empty() {
        return Err(invalid(constraint, "a list is empty"));
    }
    if let Some(other) = lists.iter().find(|l| l.len() != first.len()) {
        return Err(ModelError::LengthMismatch {
            what,
            expected: first.len(),
            found: other.len(),
        });
    }
    Ok(first.len())
}

/// The most (variable, value) pairs a `cardinality` constraint may have: it is posted as
/// one `count` over every variable per value, each with its own copy of the scope and a
/// row per variable in the network for each pair.
pub const MAX_CARDINALITY_PAIRS: u64 = 1 << 23;

impl Model {
    /// Posts `allEqual`: every variable of `vars` takes the same value (generalised arc
    /// consistency).
    pub fn all_equal(&mut self, vars: &[VarId]) -> Result<(), ModelError> {
        check_scope("allEqual", vars.iter().copied(), self.num_vars())?;
        let mut scope = ScopeBuilder::new();
        scope.list(vars);
        let scope = scope.finish();
        if scope.len() > 1 {
            self.add_propagator(AllEqual::new(scope))?;
        }
        Ok(())
    }

    /// Posts `allDifferent` with excepted values: the variables take pairwise distinct
    /// values, except that any number of them may take a value of `except`. A variable
    /// listed twice must take an excepted value.
    pub fn all_different_except(&mut self, vars: &[VarId], except: &[i32]) -> Result<(), ModelError> {
        check_scope("allDifferent", vars.iter().copied(), self.num_vars())?;
        let except = value_set(except);
        let mut scope = ScopeBuilder::new();
        let args = scope.list(vars);
        let scope = scope.finish();
        if scope.len() < vars.len() {
            for (i, a) in args.iter().enumerate() {
                if args[..i].iter().any(|b| b.var == a.var) {
                    self.restrict(a.var, |v| except.binary_search(&v).is_ok())?;
                }
            }
        }
        if scope.len() > 1 {
            self.add_propagator(AllDifferentExcept::new(scope, except))?;
        }
        Ok(())
    }

    /// Posts `allDifferent` over lists: the lists (of one length, not empty) are pairwise
    /// distinct as tuples.
    pub fn all_different_lists(&mut self, lists: &[Vec<VarId>]) -> Result<(), ModelError> {
        same_lengths("allDifferent", "allDifferent list", lists)?;
        check_scope("allDifferent", lists.iter().flatten().copied(), self.num_vars())?;
        if lists.len() < 2 {
            return Ok(());
        }
        let mut scope = ScopeBuilder::new();
        let args: Vec<Vec<Arg>> = lists.iter().map(|l| scope.list(l)).collect();
        self.add_propagator(DistinctLists::new(scope.finish(), args))?;
        Ok(())
    }

    /// Posts `ordered`: `vars[i] + lengths[i] order vars[i + 1]` for each consecutive
    /// pair (`lengths`: `None` for none, else one per pair, `vars.len() - 1` of them).
    /// Posted as one linear constraint per pair (binary ones get arc consistency).
    pub fn ordered(
        &mut self,
        vars: &[VarId],
        lengths: Option<&[IntOrVar]>,
        order: Order,
    ) -> Result<(), ModelError> {
        check_scope("ordered", vars.iter().copied(), self.num_vars())?;
        let pairs = vars.len() - 1;
        if let Some(lengths) = lengths {
            if lengths.len() != pairs {
                return Err(ModelError::LengthMismatch {
                    what: "ordered lengths",
                    expected: pairs,
                    found: lengths.len(),
                });
            }
            for l in lengths {
                match *l {
                    IntOrVar::Var(v) => self.validate_var(v)?,
                    IntOrVar::Int(c) => fits_32("ordered", c)?,
                }
            }
        }
        for i in 0..pairs {
            // x + len - y  within  (-inf, 0] for <=, (-inf, -1] for <, [0, inf) for >=, [1, inf) for >.
            let mut terms = vec![(1, vars[i]), (-1, vars[i + 1])];
            let mut shift = 0i128;
            match lengths.map(|l| l[i]) {
                Some(IntOrVar::Var(l)) => terms.push((1, l)),
                Some(IntOrVar::Int(c)) => shift = i128::from(c),
                None => {}
            }
            let kind = match order {
                Order::Le => LinearKind::Range(i128::MIN, -shift),
                Order::Lt => LinearKind::Range(i128::MIN, -shift - 1),
                Order::Ge => LinearKind::Range(-shift, i128::MAX),
                Order::Gt => LinearKind::Range(1 - shift, i128::MAX),
            };
            self.post_linear_kind("ordered", &terms, kind)?;
        }
        Ok(())
    }

    /// Posts `lex`: each list is lexicographically `order` the next (`Lt`: strictly
    /// smaller, `Le`, `Ge`, `Gt`). Lists of one length, not empty. Generalised arc
    /// consistency on each consecutive pair.
    pub fn lex(&mut self, lists: &[Vec<VarId>], order: Order) -> Result<(), ModelError> {
        same_lengths("lex", "lex list", lists)?;
        check_scope("lex", lists.iter().flatten().copied(), self.num_vars())?;
        for pair in lists.windows(2) {
            let (x, y) = if order.is_decreasing() {
                (&pair[1], &pair[0])
            } else {
                (&pair[0], &pair[1])
            };
            let mut scope = ScopeBuilder::new();
            let (x, y) = (scope.list(x), scope.list(y));
            self.add_propagator(Lex::new(scope.finish(), x, y, order.is_strict()))?;
        }
        Ok(())
    }

    /// Posts `lex` on a matrix: its rows, and its columns, are each lexicographically
    /// `order` the next.
    pub fn lex_matrix(&mut self, rows: &[Vec<VarId>], order: Order) -> Result<(), ModelError> {
        let width = same_lengths("lex", "lex matrix row", rows)?;
        check_scope("lex", rows.iter().flatten().copied(), self.num_vars())?;
        self.lex(rows, order)?;
        let columns: Vec<Vec<VarId>> = (0..width).map(|j| rows.iter().map(|r| r[j]).collect()).collect();
        self.lex(&columns, order)
    }

    /// Posts `precedence`: for consecutive values `values[k]`, `values[k + 1]`, if some
    /// variable takes `values[k + 1]`, an earlier one takes `values[k]`; `covered`: every
    /// value of `values` is taken. `values` distinct.
    pub fn precedence(&mut self, vars: &[VarId], values: &[i32], covered: bool) -> Result<(), ModelError> {
        check_scope("precedence", vars.iter().copied(), self.num_vars())?;
        distinct_values("precedence", values)?;
        if values.is_empty() {
            return Ok(());
        }
        let mut scope = ScopeBuilder::new();
        let args = scope.list(vars);
        let at = args.iter().map(|a| a.at).collect();
        self.add_propagator(Precedence::new(
            scope.finish(),
            vars.to_vec(),
            at,
            values.to_vec(),
            covered,
        ))?;
        Ok(())
    }

    /// Posts `count` (and `among`): `counter = #{i : vars[i] in values}`.
    pub fn count(&mut self, vars: &[VarId], values: &[i32], counter: VarId) -> Result<(), ModelError> {
        check_scope("count", vars.iter().copied(), self.num_vars())?;
        self.validate_var(counter)?;
        let mut scope = ScopeBuilder::new();
        let list = scope.list(vars);
        let counter = Tally::Var(scope.list(&[counter])[0]);
        self.add_propagator(Among::new(scope.finish(), list, value_set(values), counter))?;
        Ok(())
    }

    /// Posts `count` with constant bounds: `#{i : vars[i] in values}` is one of the values of
    /// the inclusive ranges `allowed` (in any order; they may overlap). No counter variable
    /// is made, so a search branches on the list alone.
    ///
    /// ```
    /// use csp_core::{Domain, Model, SearchConfig, Solver};
    ///
    /// // Three variables over 0..1: one or three of them take the value 1.
    /// let mut model = Model::new();
    /// let xs: Vec<_> = (0..3).map(|_| model.add_var(Domain::range(0, 1).unwrap())).collect();
    /// model.count_within(&xs, &[1], &[(1, 1), (3, 3)]).unwrap();
    /// let mut solver = Solver::new(&model, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.count().solutions, 4);
    /// ```
    pub fn count_within(
        &mut self,
        vars: &[VarId],
        values: &[i32],
        allowed: &[(i64, i64)],
    ) -> Result<(), ModelError> {
        check_scope("count", vars.iter().copied(), self.num_vars())?;
        let mut scope = ScopeBuilder::new();
        let list = scope.list(vars);
        let counter = Tally::allowed(allowed);
        self.add_propagator(Among::new(scope.finish(), list, value_set(values), counter))?;
        Ok(())
    }

    /// Posts `count` with a variable value: `counter = #{i : vars[i] == value}`.
    pub fn count_var(&mut self, vars: &[VarId], value: VarId, counter: VarId) -> Result<(), ModelError> {
        check_scope("count", vars.iter().copied(), self.num_vars())?;
        self.validate_var(value)?;
        self.validate_var(counter)?;
        let mut scope = ScopeBuilder::new();
        let list = scope.list(vars);
        let more = scope.list(&[value, counter]);
        self.add_propagator(CountVar::new(scope.finish(), list, more[0], more[1]))?;
        Ok(())
    }

    /// Posts `nValues`: `counter` is the number of distinct values the variables take,
    /// values of `except` not counted.
    pub fn n_values(&mut self, vars: &[VarId], except: &[i32], counter: VarId) -> Result<(), ModelError> {
        self.validate_var(counter)?;
        self.post_n_values(vars, except, |scope| Tally::Var(scope.list(&[counter])[0]))
    }

    /// Posts `nValues` with constant bounds: the number of distinct values the variables
    /// take, values of `except` not counted, is one of the values of the inclusive ranges
    /// `allowed` (in any order; they may overlap). No counter variable, so none for the
    /// search to branch on (`nValues(x, y, z) > 1`: `n_values_within(&[x, y, z], &[], &[(2,
    /// 3)])`).
    pub fn n_values_within(
        &mut self,
        vars: &[VarId],
        except: &[i32],
        allowed: &[(i64, i64)],
    ) -> Result<(), ModelError> {
        self.post_n_values(vars, except, |_| Tally::allowed(allowed))
    }

    /// The list's scope, then the counter's (which may add a variable to it).
    fn post_n_values(
        &mut self,
        vars: &[VarId],
        except: &[i32],
        counter: impl FnOnce(&mut ScopeBuilder) -> Tally,
    ) -> Result<(), ModelError> {
        check_scope("nValues", vars.iter().copied(), self.num_vars())?;
        let mut scope = ScopeBuilder::new();
        let list = scope.list(vars);
        let counter = counter(&mut scope);
        self.add_propagator(NValues::new(scope.finish(), list, value_set(except), counter))?;
        Ok(())
    }

    /// Posts `cardinality`: `occurs[j] = #{i : vars[i] == values[j]}` (values distinct);
    /// `closed`: every variable takes one of `values`. Posted as one `count` per value, plus
    /// the sum of the occurrences (`== vars.len()` when closed, `<=` otherwise). Refused
    /// ([`ModelError::TooLarge`]) when the counts would list more than
    /// [`MAX_CARDINALITY_PAIRS`] (variable, value) pairs together.
    pub fn cardinality(
        &mut self,
        vars: &[VarId],
        values: &[i32],
        occurs: &[VarId],
        closed: bool,
    ) -> Result<(), ModelError> {
        check_scope("cardinality", vars.iter().copied(), self.num_vars())?;
        if values.len() != occurs.len() {
            return Err(ModelError::LengthMismatch {
                what: "cardinality occurs",
                expected: values.len(),
                found: occurs.len(),
            });
        }
        let pairs = vars.len() as u64 * values.len() as u64;
        if pairs > MAX_CARDINALITY_PAIRS {
            return Err(ModelError::TooLarge {
                constraint: "cardinality",
                what: format!(
                    "{} variables and {} values (one count of every variable per value)",
                    vars.len(),
                    values.len()
                ),
                size: pairs,
                max: MAX_CARDINALITY_PAIRS,
            });
        }
        let sorted = distinct_values("cardinality", values)?;
        for &o in occurs {
            self.validate_var(o)?;
        }
        if closed {
            for &x in vars {
                self.restrict(x, |a| sorted.binary_search(&a).is_ok())?;
            }
        }
        for (&value, &o) in values.iter().zip(occurs) {
            self.count(vars, &[value], o)?;
        }
        if !occurs.is_empty() {
            let n = vars.len() as i128;
            let terms: Vec<(i64, VarId)> = occurs.iter().map(|&o| (1, o)).collect();
            let kind = if closed {
                LinearKind::Range(n, n)
            } else {
                LinearKind::Range(i128::MIN, n)
            };
            self.post_linear_kind("cardinality", &terms, kind)?;
        }
        Ok(())
    }

    /// Posts `minimum`: `result = min(vars)`.
    pub fn minimum(&mut self, vars: &[VarId], result: VarId) -> Result<(), ModelError> {
        self.post_min_max_var("minimum", vars, result, false)
    }

    /// Posts `maximum`: `result = max(vars)`.
    pub fn maximum(&mut self, vars: &[VarId], result: VarId) -> Result<(), ModelError> {
        self.post_min_max_var("maximum", vars, result, true)
    }

    /// Posts `minimum` with constant bounds: `min(vars)` is one of the values of the inclusive
    /// ranges `allowed` (in any order; they may overlap). No result variable is made, so a
    /// search branches on the list alone.
    ///
    /// ```
    /// use csp_core::{Domain, Model, SearchConfig, Solver};
    ///
    /// // Two variables over 0..3 whose minimum is 0 or 3.
    /// let mut model = Model::new();
    /// let xs: Vec<_> = (0..2).map(|_| model.add_var(Domain::range(0, 3).unwrap())).collect();
    /// model.minimum_within(&xs, &[(0, 0), (3, 3)]).unwrap();
    /// let mut solver = Solver::new(&model, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.count().solutions, 8); // 7 pairs with a 0, and (3, 3)
    /// ```
    pub fn minimum_within(&mut self, vars: &[VarId], allowed: &[(i64, i64)]) -> Result<(), ModelError> {
        self.post_min_max("minimum", vars, |_| Tally::allowed(allowed), false)
    }

    /// Posts `maximum` with constant bounds, as [`Model::minimum_within`].
    pub fn maximum_within(&mut self, vars: &[VarId], allowed: &[(i64, i64)]) -> Result<(), ModelError> {
        self.post_min_max("maximum", vars, |_| Tally::allowed(allowed), true)
    }

    fn post_min_max_var(
        &mut self,
        what: &'static str,
        vars: &[VarId],
        result: VarId,
        is_max: bool,
    ) -> Result<(), ModelError> {
        self.validate_var(result)?;
        self.post_min_max(what, vars, |scope| Tally::Var(scope.list(&[result])[0]), is_max)
    }

    /// The list's scope, then the result's (which may add a variable to it).
    fn post_min_max(
        &mut self,
        what: &'static str,
        vars: &[VarId],
        result: impl FnOnce(&mut ScopeBuilder) -> Tally,
        is_max: bool,
    ) -> Result<(), ModelError> {
        check_scope(what, vars.iter().copied(), self.num_vars())?;
        let mut scope = ScopeBuilder::new();
        let list = scope.list(vars);
        let result = result(&mut scope);
        self.add_propagator(MinMax::new(scope.finish(), list, result, is_max))?;
        Ok(())
    }

    /// Posts `channel` on one list: `xs[i] = j + start <=> xs[j] = i + start` (an
    /// involution). Each variable keeps the values `start..start + xs.len()`.
    pub fn channel_self(&mut self, xs: &[VarId], start: i32) -> Result<(), ModelError> {
        check_scope("channel", xs.iter().copied(), self.num_vars())?;
        self.within_indices(xs, start, xs.len())?;
        let mut scope = ScopeBuilder::new();
        let args = scope.list(xs);
        let start = i64::from(start);
        self.add_propagator(Channel::new(
            scope.finish(),
            args.clone(),
            start,
            args,
            start,
            true,
        ))?;
        self.implied_all_different(xs)
    }

    /// Posts `channel` on two lists: `xs[i] = j + start_y => ys[j] = i + start_x`, and the
    /// converse when the lists have one length (`xs` may not be longer than `ys`). With the
    /// all-different that the lists imply, generalised arc consistency for lists of one
    /// length.
    pub fn channel(
        &mut self,
        xs: &[VarId],
        start_x: i32,
        ys: &[VarId],
        start_y: i32,
    ) -> Result<(), ModelError> {
        check_scope("channel", xs.iter().copied(), self.num_vars())?;
        check_scope("channel", ys.iter().copied(), self.num_vars())?;
        if xs.len() > ys.len() {
            return Err(invalid(
                "channel",
                format!(
                    "the first list ({}) is longer than the second ({})",
                    xs.len(),
                    ys.len()
                ),
            ));
        }
        let both_ways = xs.len() == ys.len();
        self.within_indices(xs, start_y, ys.len())?;
        if both_ways {
            self.within_indices(ys, start_x, xs.len())?;
        }
        let mut scope = ScopeBuilder::new();
        let (x, y) = (scope.list(xs), scope.list(ys));
        self.add_propagator(Channel::new(
            scope.finish(),
            x,
            i64::from(start_x),
            y,
            i64::from(start_y),
            both_ways,
        ))?;
        self.implied_all_different(xs)
    }

    /// Posts `channel` between 0/1 variables and a value: `bools[i] = 1 <=> value = i +
    /// start`, so exactly one of `bools` is 1 (generalised arc consistency).
    pub fn channel_value(&mut self, bools: &[VarId], start: i32, value: VarId) -> Result<(), ModelError> {
        check_scope("channel", bools.iter().copied(), self.num_vars())?;
        self.validate_var(value)?;
        for &b in bools {
            self.restrict(b, |a| a == 0 || a == 1)?;
        }
        self.within_indices(&[value], start, bools.len())?;
        let mut scope = ScopeBuilder::new();
        let args = scope.list(bools);
        let value = scope.list(&[value])[0];
        self.add_propagator(ChannelValue::new(scope.finish(), args, i64::from(start), value))?;
        Ok(())
    }

    /// Posts `regular`: the values of `vars`, in order, spell a word that `automaton`
    /// (deterministic or not) accepts. Generalised arc consistency on the automaton
    /// unrolled over the sequence (O(edges) per run).
    pub fn regular(&mut self, vars: &[VarId], automaton: &Automaton) -> Result<(), ModelError> {
        check_scope("regular", vars.iter().copied(), self.num_vars())?;
        automaton.validate()?;
        let mut accepting = vec![false; automaton.states];
        for &f in &automaton.finals {
            accepting[f] = true;
        }
        let machine = Machine {
            states: automaton.states,
            start: automaton.start,
            accepting: &accepting,
            transitions: &automaton.transitions,
        };
        // Every transition may be taken at every position.
        let edges = (vars.len() as u64).saturating_mul(automaton.transitions.len() as u64);
        self.post_layered("regular", vars, machine, edges)
    }

    /// Posts `mdd`: the values of `vars`, in order, label a path from the root of `mdd` to
    /// its terminal, which must lie at depth `vars.len()`. Generalised arc consistency, as
    /// for [`Model::regular`].
    pub fn mdd(&mut self, vars: &[VarId], mdd: &Mdd) -> Result<(), ModelError> {
        check_scope("mdd", vars.iter().copied(), self.num_vars())?;
        let depth = mdd.depth()?;
        if depth != vars.len() {
            return Err(invalid(
                "mdd",
                format!(
                    "the diagram has {depth} layers of edges, for {} variables",
                    vars.len()
                ),
            ));
        }
        let mut accepting = vec![false; mdd.nodes];
        accepting[mdd.terminal] = true;
        let machine = Machine {
            states: mdd.nodes,
            start: mdd.root,
            accepting: &accepting,
            transitions: &mdd.transitions,
        };
        // Each transition lies at one depth.
        let edges = mdd.transitions.len() as u64;
        self.post_layered("mdd", vars, machine, edges)
    }

    /// Unrolls `machine` over `vars` into a layered graph of at most `edges` edges.
    fn post_layered(
        &mut self,
        name: &'static str,
        vars: &[VarId],
        machine: Machine<'_>,
        edges: u64,
    ) -> Result<(), ModelError> {
        // The unrolling keeps three tables of a state per layer (6 bytes in all) and 12
        // bytes an edge: an automaton of 10^5 states over 10^4 variables, a file of a few
        // megabytes, would take gigabytes. Refused before they are allocated.
        let layers = vars.len() as u64 + 1;
        let unrolled = layers
            .saturating_mul(machine.states as u64)
            .saturating_mul(6)
            .saturating_add(edges.saturating_mul(12));
        self.check_constraint_bytes(unrolled)?;
        let mut scope = ScopeBuilder::new();
        let seq = scope.list(vars);
        let graph = LayeredGraph::unroll(
            scope.finish(),
            seq,
            machine,
            |i, a| self.domain(vars[i]).contains(a),
            name,
        );
        self.add_propagator(graph)?;
        Ok(())
    }

    /// Posts `circuit`: `succ[i] = j + start` makes `j` the successor of `i`; loops
    /// (`succ[i] = i + start`) leave `i` off the circuit, and the other arcs form exactly
    /// one cycle of at least two vertices (so not every vertex loops); `size`: its number of
    /// vertices. Posted as a GAC all-different on the successors and a propagator that
    /// follows the chains of fixed arcs (no sub-tour).
    pub fn circuit(&mut self, succ: &[VarId], start: i32, size: Option<IntOrVar>) -> Result<(), ModelError> {
        check_scope("circuit", succ.iter().copied(), self.num_vars())?;
        match size {
            Some(IntOrVar::Var(v)) => self.validate_var(v)?,
            Some(IntOrVar::Int(c)) => fits_32("circuit", c)?,
            None => {}
        }
        self.within_indices(succ, start, succ.len())?;
        let mut scope = ScopeBuilder::new();
        let args = scope.list(succ);
        let size = size.map(|t| scope.term(t));
        self.add_propagator(Circuit::new(scope.finish(), args, i64::from(start), size))?;
        self.implied_all_different(succ)
    }

    /// Posts `noOverlap` on one machine: for `i != j`, `origins[i] + lengths[i] <=
    /// origins[j]` or `origins[j] + lengths[j] <= origins[i]`; `zero_ignored`: a task of
    /// length 0 overlaps nothing (XCSP3's default). Lengths are non-negative (variables
    /// keep their non-negative values). Time-tabling and the pairwise disjunctive rule.
    pub fn no_overlap(
        &mut self,
        origins: &[VarId],
        lengths: &[IntOrVar],
        zero_ignored: bool,
    ) -> Result<(), ModelError> {
        check_scope("noOverlap", origins.iter().copied(), self.num_vars())?;
        let mut scope = ScopeBuilder::new();
        let tasks = self.tasks("noOverlap", &mut scope, origins, lengths, None)?;
        self.add_propagator(NoOverlap::new(scope.finish(), tasks, zero_ignored))?;
        Ok(())
    }

    /// Posts `noOverlap` for boxes: `origins[i][d]` and `lengths[i][d]` place box `i` along
    /// dimension `d` (every box has the same number of dimensions); for `i != j` some
    /// dimension separates them. `zero_ignored`: a box with a length 0 in some dimension
    /// overlaps nothing. Pairwise: no way apart fails, a single way is enforced.
    pub fn no_overlap_boxes(
        &mut self,
        origins: &[Vec<VarId>],
        lengths: &[Vec<IntOrVar>],
        zero_ignored: bool,
    ) -> Result<(), ModelError> {
        let dims = same_lengths("noOverlap", "noOverlap box origins", origins)?;
        check_scope("noOverlap", origins.iter().flatten().copied(), self.num_vars())?;
        if lengths.len() != origins.len() {
            return Err(ModelError::LengthMismatch {
                what: "noOverlap box lengths",
                expected: origins.len(),
                found: lengths.len(),
            });
        }
        let mut scope = ScopeBuilder::new();
        let mut boxes = Vec::with_capacity(origins.len());
        for (o, l) in origins.iter().zip(lengths) {
            if l.len() != dims {
                return Err(ModelError::LengthMismatch {
                    what: "noOverlap box lengths",
                    expected: dims,
                    found: l.len(),
                });
            }
            boxes.push(self.tasks("noOverlap", &mut scope, o, l, None)?);
        }
        self.add_propagator(NoOverlapBoxes::new(scope.finish(), boxes, zero_ignored))?;
        Ok(())
    }

    /// Posts `cumulative`: at every time `t`, the heights of the tasks with `origins[i] <=
    /// t < origins[i] + lengths[i]` add up to at most `peak`; `exact`: and the largest such
    /// sum equals `peak`. Lengths and heights are non-negative (variables keep their
    /// non-negative values). Time-tabling and the pairwise rule for tasks too high to run
    /// together.
    pub fn cumulative(
        &mut self,
        origins: &[VarId],
        lengths: &[IntOrVar],
        heights: &[IntOrVar],
        peak: IntOrVar,
        exact: bool,
    ) -> Result<(), ModelError> {
        check_scope("cumulative", origins.iter().copied(), self.num_vars())?;
        if heights.len() != origins.len() {
            return Err(ModelError::LengthMismatch {
                what: "cumulative heights",
                expected: origins.len(),
                found: heights.len(),
            });
        }
        match peak {
            IntOrVar::Var(v) => self.validate_var(v)?,
            IntOrVar::Int(c) => fits_32("cumulative", c)?,
        }
        let mut scope = ScopeBuilder::new();
        let tasks = self.tasks("cumulative", &mut scope, origins, lengths, Some(heights))?;
        let peak = scope.term(peak);
        self.add_propagator(Cumulative::new(scope.finish(), tasks, peak, exact))?;
        Ok(())
    }

    /// Posts `binPacking`: `loads[b]` is the total of `sizes[i]` over the items with
    /// `bins[i] == first_bin + b`, and every item goes in one of those bins. Sizes are
    /// non-negative and fit in 32 bits. Load bounds.
    pub fn bin_packing(
        &mut self,
        bins: &[VarId],
        sizes: &[i64],
        loads: &[VarId],
        first_bin: i32,
    ) -> Result<(), ModelError> {
        check_scope("binPacking", loads.iter().copied(), self.num_vars())?;
        let mut scope = ScopeBuilder::new();
        let b = scope.list(bins);
        let l = scope.list(loads).into_iter().map(Tally::Var).collect();
        self.post_bin_packing(scope, b, bins, sizes, l, first_bin)
    }

    /// Posts `binPacking` with the loads bounded by constants instead of equal to variables:
    /// every item goes in one of the bins `first_bin..first_bin + allowed.len()`, and the
    /// load of bin `first_bin + b` is one of the values of the inclusive ranges
    /// `allowed[b]` (in any order; they may overlap). Sizes as in [`Model::bin_packing`].
    /// No load variable is made: a search, above all one without inference, branches on
    /// the items alone.
    ///
    /// ```
    /// use csp_core::{Domain, Model, SearchConfig, Solver};
    ///
    /// // Three items of size 1 in bins 0 and 1; a bin holds 0 or 2 items, never 1.
    /// let mut model = Model::new();
    /// let items: Vec<_> = (0..3).map(|_| model.add_var(Domain::range(0, 1).unwrap())).collect();
    /// let even = vec![(0, 0), (2, 2)];
    /// model.bin_packing_within(&items, &[1, 1, 1], &[even.clone(), even], 0).unwrap();
    /// let mut solver = Solver::new(&model, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.count().solutions, 0); // three items cannot make two even loads
    /// ```
    pub fn bin_packing_within(
        &mut self,
        bins: &[VarId],
        sizes: &[i64],
        allowed: &[Vec<(i64, i64)>],
        first_bin: i32,
    ) -> Result<(), ModelError> {
        let mut scope = ScopeBuilder::new();
        let b = scope.list(bins);
        let loads = allowed.iter().map(|ranges| Tally::allowed(ranges)).collect();
        self.post_bin_packing(scope, b, bins, sizes, loads, first_bin)
    }

    fn post_bin_packing(
        &mut self,
        scope: ScopeBuilder,
        items: Vec<Arg>,
        bins: &[VarId],
        sizes: &[i64],
        loads: Vec<Tally>,
        first_bin: i32,
    ) -> Result<(), ModelError> {
        check_scope("binPacking", bins.iter().copied(), self.num_vars())?;
        if sizes.len() != bins.len() {
            return Err(ModelError::LengthMismatch {
                what: "binPacking sizes",
                expected: bins.len(),
                found: sizes.len(),
            });
        }
        for &size in sizes {
            fits_32("binPacking", size)?;
            if size < 0 {
                return Err(invalid("binPacking", format!("the size {size} is negative")));
            }
        }
        self.within_indices(bins, first_bin, loads.len())?;
        self.add_propagator(BinPacking::new(
            scope.finish(),
            items,
            sizes.to_vec(),
            loads,
            i64::from(first_bin),
        ))?;
        Ok(())
    }

    /// The tasks of a scheduling constraint, checked: one length (and height) per origin,
    /// constants non-negative within 32 bits, variables restricted to their non-negative
    /// values.
    fn tasks(
        &mut self,
        constraint: &'static str,
        scope: &mut ScopeBuilder,
        origins: &[VarId],
        lengths: &[IntOrVar],
        heights: Option<&[IntOrVar]>,
    ) -> Result<Vec<Task>, ModelError> {
        if lengths.len() != origins.len() {
            return Err(ModelError::LengthMismatch {
                what: "task lengths",
                expected: origins.len(),
                found: lengths.len(),
            });
        }
        for &t in lengths.iter().chain(heights.unwrap_or(&[])) {
            match t {
                IntOrVar::Var(v) => self.restrict(v, |a| a >= 0)?,
                IntOrVar::Int(c) => {
                    fits_32(constraint, c)?;
                    if c < 0 {
                        return Err(invalid(
                            constraint,
                            format!("the length or height {c} is negative"),
                        ));
                    }
                }
            }
        }
        let origins = scope.list(origins);
        Ok((0..origins.len())
            .map(|i| Task {
                origin: origins[i],
                length: scope.term(lengths[i]),
                height: heights.map_or(Term::Const(1), |h| scope.term(h[i])),
            })
            .collect())
    }

    /// Keeps, at posting, the values `start..start + len` of each variable.
    fn within_indices(&mut self, vars: &[VarId], start: i32, len: usize) -> Result<(), ModelError> {
        let (lo, hi) = (i64::from(start), i64::from(start) + len as i64);
        let inside = |a: i32| (lo..hi).contains(&i64::from(a));
        for &x in vars {
            // Most domains lie within already: no pass over their values.
            let domain = self.domain(x);
            if inside(domain.min()) && inside(domain.max()) {
                continue;
            }
            self.restrict(x, |a| (lo..hi).contains(&i64::from(a)))?;
        }
        Ok(())
    }

    /// A GAC all-different implied by another constraint, where the variables are distinct.
    fn implied_all_different(&mut self, vars: &[VarId]) -> Result<(), ModelError> {
        let mut sorted = vars.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == vars.len() && vars.len() > 1 {
            self.all_different_nary(vars, Strength::Gac)?;
        }
        Ok(())
    }
}

/// [`ModelError::Arithmetic`] unless `c` fits in 32 bits (the constraint compares it with
/// values, and adds it to them in 64 bits).
pub(crate) fn fits_32(constraint: &'static str, c: i64) -> Result<(), ModelError> {
    if i32::try_from(c).is_ok() {
        Ok(())
    } else {
        Err(ModelError::Arithmetic {
            constraint,
            reason: format!("the constant {c} does not fit in 32 bits"),
        })
    }
}
