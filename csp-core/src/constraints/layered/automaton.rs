//! Finite automata (deterministic or not) for `regular`, and their unrolling over a
//! sequence of variables into the layers of a [`super::LayeredGraph`].

use crate::error::ModelError;

/// A finite automaton over integer values, deterministic or not: states `0..states`,
/// a start state, accepting states and labelled transitions `(from, value, to)`.
///
/// ```
/// use csp_core::Automaton;
/// // Words of 0s and 1s that end with a 1.
/// let a = Automaton::new(2, 0, vec![1], vec![(0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 1)]).unwrap();
/// assert!(a.accepts(&[0, 1, 1]));
/// assert!(!a.accepts(&[1, 0]));
/// assert!(Automaton::new(2, 0, vec![2], vec![]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// The number of states.
    pub states: usize,
    /// The start state.
    pub start: usize,
    /// The accepting states.
    pub finals: Vec<usize>,
    /// The transitions `(from, value, to)`.
    pub transitions: Vec<(usize, i32, usize)>,
}

impl Automaton {
    /// An automaton, checked: every state named must be below `states`.
    pub fn new(
        states: usize,
        start: usize,
        finals: Vec<usize>,
        transitions: Vec<(usize, i32, usize)>,
    ) -> Result<Automaton, ModelError> {
        let automaton = Automaton {
            states,
            start,
            finals,
            transitions,
        };
        automaton.validate()?;
        Ok(automaton)
    }

    /// [`ModelError::InvalidConstraint`] if a state named is not below `states`.
    pub fn validate(&self) -> Result<(), ModelError> {
        let unknown = |what: &str, s: usize| {
            Err(ModelError::InvalidConstraint {
                constraint: "regular",
                reason: format!(
                    "{what} state {s} does not exist (the automaton has {} states)",
                    self.states
                ),
            })
        };
        if self.start >= self.states {
            return unknown("the start", self.start);
        }
        if let Some(&f) = self.finals.iter().find(|&&f| f >= self.states) {
            return unknown("the accepting", f);
        }
        for &(from, _, to) in &self.transitions {
            if from >= self.states {
                return unknown("the transition's source", from);
            }
            if to >= self.states {
                return unknown("the transition's target", to);
            }
        }
        Ok(())
    }

    /// Whether the automaton accepts `word`.
    pub fn accepts(&self, word: &[i32]) -> bool {
        if self.validate().is_err() {
            return false;
        }
        let mut current = vec![false; self.states];
        current[self.start] = true;
        for &a in word {
            let mut next = vec![false; self.states];
            for &(from, value, to) in &self.transitions {
                if value == a && current[from] {
                    next[to] = true;
                }
            }
            current = next;
        }
        self.finals.iter().any(|&f| current[f])
    }
}
