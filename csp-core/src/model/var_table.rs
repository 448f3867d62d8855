//! The variables' names and initial domains, stored compactly.
//!
//! A model can have millions of variables (a DIMACS graph of ten million vertices is one
//! variable per vertex). A `String` and a `Domain` per variable, each with its own heap
//! block, would cost more than the variable's whole search state; here a variable costs
//! its name's bytes, one offset and one domain index. Variables are declared in runs of the same domain (an array, a
//! graph's vertices), so a domain equal to the previous variable's is stored once.

use crate::domain::Domain;

/// Names and domains of a model's variables, in index order.
#[derive(Clone, Default)]
pub(super) struct VarTable {
    /// All names, one after the other.
    text: String,
    /// Where each variable's name ends in `text`.
    name_ends: Vec<usize>,
    /// The distinct domains, in order of first use by a run of variables.
    domains: Vec<Domain>,
    /// Each variable's domain, an index into `domains`.
    domain_of: Vec<u32>,
}

impl VarTable {
    /// Adds a variable whose name `write_name` appends to the table's text (so that a
    /// name is never a string of its own).
    pub(super) fn push_with(&mut self, write_name: impl FnOnce(&mut String), domain: Domain) {
        write_name(&mut self.text);
        self.name_ends.push(self.text.len());
        if self.domains.last() != Some(&domain) {
            self.domains.push(domain);
        }
        self.domain_of.push(self.domains.len() as u32 - 1);
    }

    /// Room for `count` more variables whose names take `name_bytes` in all.
    pub(super) fn reserve(&mut self, count: usize, name_bytes: usize) {
        self.text.reserve_exact(name_bytes);
        self.name_ends.reserve_exact(count);
        self.domain_of.reserve_exact(count);
    }

    pub(super) fn len(&self) -> usize {
        self.domain_of.len()
    }

    pub(super) fn domain(&self, index: usize) -> &Domain {
        &self.domains[self.domain_of[index] as usize]
    }

    pub(super) fn name(&self, index: usize) -> &str {
        let start = if index == 0 { 0 } else { self.name_ends[index - 1] };
        &self.text[start..self.name_ends[index]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_domains_read_back_in_order() {
        let mut table = VarTable::default();
        let small = Domain::range(0, 2).unwrap();
        let large = Domain::range(-5, 70).unwrap();
        let named = |name: &'static str| move |text: &mut String| text.push_str(name);
        table.push_with(named("a"), small.clone());
        table.push_with(named(""), small.clone());
        table.push_with(named("x[1]"), large.clone());
        table.push_with(named("é"), small.clone());
        assert_eq!(table.len(), 4);
        let names: Vec<&str> = (0..4).map(|i| table.name(i)).collect();
        assert_eq!(names, ["a", "", "x[1]", "é"]);
        let domains: Vec<&Domain> = (0..4).map(|i| table.domain(i)).collect();
        assert_eq!(domains, [&small, &small, &large, &small]);
        // Runs share a domain; a domain met again after another is stored again.
        assert_eq!(table.domains.len(), 3);
    }
}
