//! Branching on places ([`Branching::Places`](crate::Branching::Places)): the
//! permutation constraints of a model, and the value of one of them with just two places
//! left.

use super::Solver;
use super::frame::{Choice, Frame, PlacesCursor};
use crate::var::VarId;

/// The scopes of the model's permutation constraints: plain all-differents whose variables
/// hold, together, exactly as many values as there are variables, so that every value is
/// taken in every solution.
pub(super) struct Permutations {
    scopes: Vec<Vec<VarId>>,
}

/// A value with two places left: branch `first = value`, then `second = value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TwoPlaces {
    pub(super) value: i32,
    pub(super) first: VarId,
    pub(super) second: VarId,
}

impl Permutations {
    /// The permutation constraints among the scopes of plain all-different constraints
    /// (in posting order, which decides ties), judged on the initial domains `words`
    /// (each variable's one word at a shared base); `None` if there are none.
    pub(super) fn find(all_different: &[Vec<VarId>], words: &[u64]) -> Option<Permutations> {
        let scopes: Vec<Vec<VarId>> = all_different
            .iter()
            .filter(|vars| {
                let union = vars.iter().fold(0u64, |u, v| u | words[v.index()]);
                union.count_ones() as usize == vars.len()
            })
            .cloned()
            .collect();
        (!scopes.is_empty()).then_some(Permutations { scopes })
    }

    /// The value with exactly two places among the variables that still have a choice,
    /// held by no variable without one, whose places weigh most (ties to the first
    /// found); `None` if no value has two places. `words` and `base`: the current domains.
    ///
    /// A value held by a variable with one value left is that variable's, whatever
    /// inference has removed so far: its other places are not places.
    pub(super) fn two_places(&self, words: &[u64], base: i32, weights: &[u64]) -> Option<TwoPlaces> {
        let mut best: Option<(u64, TwoPlaces)> = None;
        // Per value (bit) of the scope at hand: its places and their summed weight. Only
        // the entries of the scope's two-place values are written and read.
        let mut first = [VarId(0); 64];
        let mut second = [VarId(0); 64];
        let mut weight = [0u64; 64];
        for scope in &self.scopes {
            // Without branches: whether a variable is fixed follows no pattern.
            let (mut fixed, mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64, 0u64);
            for v in scope {
                let d = words[v.index()];
                let open = d & open_mask(d);
                fixed |= d & !open_mask(d);
                thrice |= twice & open;
                twice |= once & open;
                once |= open;
            }
            let pairs = twice & !thrice & !fixed;
            if pairs == 0 {
                continue;
            }
            // One more pass finds both places of every such value at once.
            let mut seen = 0u64;
            for &v in scope {
                let d = words[v.index()];
                let mut held = d & pairs & open_mask(d);
                while held != 0 {
                    let bit = held.trailing_zeros() as usize;
                    held &= held - 1;
                    if seen >> bit & 1 == 0 {
                        seen |= 1 << bit;
                        first[bit] = v;
                        weight[bit] = weights[v.index()];
                    } else {
                        second[bit] = v;
                        weight[bit] += weights[v.index()];
                    }
                }
            }
            let mut left = pairs;
            while left != 0 {
                let bit = left.trailing_zeros() as usize;
                left &= left - 1;
                if best.is_none_or(|(w, _)| weight[bit] > w) {
                    let value = base + bit as i32;
                    best = Some((
                        weight[bit],
                        TwoPlaces {
                            value,
                            first: first[bit],
                            second: second[bit],
                        },
                    ));
                }
            }
        }
        best.map(|(_, places)| places)
    }
}

/// The next place of a frame on places: its variable becomes the frame's `var`.
#[inline]
pub(super) fn next_place(var: &mut VarId, places: &mut PlacesCursor) -> Option<i32> {
    let next = places.vars.get(usize::from(places.tried))?;
    *var = *next;
    places.tried += 1;
    Some(places.value)
}

impl Solver<'_> {
    /// Under [`crate::Branching::Places`], when `var` (the variable order's choice) has
    /// three values or more: a value with two places to branch on instead, if there is one.
    #[inline]
    pub(super) fn two_places_instead(&self, var: VarId) -> Option<TwoPlaces> {
        let permutations = self.plan.permutations.as_ref()?;
        if self.store.size(var) <= 2 {
            return None;
        }
        let (words, base) = self.store.uniform_words()?;
        permutations.two_places(words, base, &self.weights.var_weight)
    }

    /// A frame that puts `places.value` in `places.first`, then in `places.second`.
    pub(super) fn push_places_frame(&mut self, places: TwoPlaces) {
        self.stats.place_decisions += 1;
        self.state.frames.push(Frame {
            var: places.first,
            mark: self.store.mark(),
            open: false,
            choice: Choice::Places(PlacesCursor {
                value: places.value,
                vars: [places.first, places.second],
                tried: 0,
            }),
        });
    }
}

/// All ones if the domain word `d` holds two values or more, else zero.
#[inline(always)]
fn open_mask(d: u64) -> u64 {
    u64::from(d & d.wrapping_sub(1) != 0).wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, Strength};

    #[test]
    fn finds_permutations_and_the_heaviest_value_with_two_places() {
        let mut m = Model::new();
        let v = m.int_vars(4, 1, 4).unwrap();
        let w = m.int_vars(3, 1, 4).unwrap();
        m.all_different_nary(&v, Strength::Hidden).unwrap();
        // Three variables, four values: no permutation.
        m.all_different_nary(&w, Strength::Hidden).unwrap();
        let initial = vec![0b1111u64; 7];
        let perms = Permutations::find(m.plain_all_different(), &initial).expect("one permutation");
        assert_eq!(perms.scopes, vec![v.clone()]);

        // v0 = {1, 2}, v1 = {1, 2, 3}, v2 = {3, 4}, v3 = {4}: value 4 is v3's, 3 and 2
        // have two places, 1 has two.
        let words = [0b0011, 0b0111, 0b1100, 0b1000, 0, 0, 0];
        let heavy_v2 = [1, 1, 5, 1, 0, 0, 0];
        let found = perms
            .two_places(&words, 1, &heavy_v2)
            .expect("a value with two places");
        assert_eq!(
            found,
            TwoPlaces {
                value: 3,
                first: v[1],
                second: v[2]
            }
        );
        let even = [1u64; 7];
        let found = perms
            .two_places(&words, 1, &even)
            .expect("a value with two places");
        assert_eq!(
            found,
            TwoPlaces {
                value: 1,
                first: v[0],
                second: v[1]
            },
            "ties to the first"
        );
        // Every value with three places or more, or taken: none.
        let wide = [0b0111, 0b0111, 0b0111, 0b1000, 0, 0, 0];
        assert_eq!(perms.two_places(&wide, 1, &even), None);
    }
}
