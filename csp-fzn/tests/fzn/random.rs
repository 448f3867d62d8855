//! A small generator of random FlatZinc instances with their meaning: each constraint
//! comes with an independent evaluation, so that the solutions can be counted by brute
//! force over every assignment and compared with csp's count.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An argument: a variable (by index) or a constant.
#[derive(Clone, Copy, Debug)]
pub enum A {
    V(usize),
    C(i64),
}

/// A constraint's meaning over a complete assignment.
pub type Check = Box<dyn Fn(&[i64]) -> bool>;

/// A random instance under construction.
pub struct Gen {
    pub rng: ChaCha8Rng,
    /// Each variable's name, domain and whether it is Boolean.
    pub vars: Vec<(i64, i64, bool)>,
    pub constraints: Vec<String>,
    pub checks: Vec<Check>,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            vars: Vec::new(),
            constraints: Vec::new(),
            checks: Vec::new(),
        }
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.random_range(lo..=hi)
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    /// A new integer variable over a random range within `lo..=hi` of at most `width`
    /// values.
    pub fn int_var_in(&mut self, lo: i64, hi: i64, width: i64) -> usize {
        let a = self.range(lo, hi);
        let b = (a + self.range(0, width - 1)).min(hi);
        self.vars.push((a, b, false));
        self.vars.len() - 1
    }

    pub fn int_var(&mut self) -> usize {
        self.int_var_in(-3, 3, 4)
    }

    pub fn bool_var(&mut self) -> usize {
        self.vars.push((0, 1, true));
        self.vars.len() - 1
    }

    /// An integer argument: mostly a new or existing integer variable, sometimes a
    /// constant.
    pub fn int_arg(&mut self) -> A {
        let existing: Vec<usize> = (0..self.vars.len()).filter(|&v| !self.vars[v].2).collect();
        if self.chance(0.2) {
            A::C(self.range(-3, 3))
        } else if !existing.is_empty() && self.chance(0.3) {
            A::V(existing[self.range(0, existing.len() as i64 - 1) as usize])
        } else {
            A::V(self.int_var())
        }
    }

    pub fn bool_arg(&mut self) -> A {
        let existing: Vec<usize> = (0..self.vars.len()).filter(|&v| self.vars[v].2).collect();
        if self.chance(0.15) {
            A::C(self.range(0, 1))
        } else if !existing.is_empty() && self.chance(0.3) {
            A::V(existing[self.range(0, existing.len() as i64 - 1) as usize])
        } else {
            A::V(self.bool_var())
        }
    }

    pub fn int_args(&mut self, n: usize) -> Vec<A> {
        (0..n).map(|_| self.int_arg()).collect()
    }

    pub fn bool_args(&mut self, n: usize) -> Vec<A> {
        (0..n).map(|_| self.bool_arg()).collect()
    }

    pub fn consts(&mut self, n: usize, lo: i64, hi: i64) -> Vec<i64> {
        (0..n).map(|_| self.range(lo, hi)).collect()
    }

    /// Adds a constraint and its meaning.
    pub fn add(&mut self, text: String, check: impl Fn(&[i64]) -> bool + 'static) {
        self.constraints.push(text);
        self.checks.push(Box::new(check));
    }

    /// The FlatZinc text: the variables (Booleans as `var bool`), the constraints, and
    /// `solve satisfy`.
    pub fn fzn(&self) -> String {
        let mut s = String::new();
        for (i, &(lo, hi, is_bool)) in self.vars.iter().enumerate() {
            if is_bool {
                s.push_str(&format!("var bool: x{i};\n"));
            } else {
                s.push_str(&format!("var {lo}..{hi}: x{i};\n"));
            }
        }
        for c in &self.constraints {
            s.push_str(&format!("constraint {c};\n"));
        }
        s.push_str("solve satisfy;\n");
        s
    }

    /// The number of assignments that satisfy every constraint.
    pub fn brute_force(&self) -> usize {
        let n = self.vars.len();
        let mut values: Vec<i64> = self.vars.iter().map(|v| v.0).collect();
        let mut count = 0;
        loop {
            if self.checks.iter().all(|c| c(&values)) {
                count += 1;
            }
            // Next assignment, odometer style.
            let mut i = 0;
            loop {
                if i == n {
                    return count;
                }
                if values[i] < self.vars[i].1 {
                    values[i] += 1;
                    break;
                }
                values[i] = self.vars[i].0;
                i += 1;
            }
        }
    }

    /// The number of assignments (to keep brute force fast).
    pub fn space(&self) -> u128 {
        self.vars.iter().map(|v| (v.1 - v.0 + 1) as u128).product()
    }
}

/// The value of an argument.
pub fn val(a: A, x: &[i64]) -> i64 {
    match a {
        A::V(i) => x[i],
        A::C(c) => c,
    }
}

pub fn vals(a: &[A], x: &[i64]) -> Vec<i64> {
    a.iter().map(|&a| val(a, x)).collect()
}

/// An integer argument as FlatZinc text.
pub fn t(a: A) -> String {
    match a {
        A::V(i) => format!("x{i}"),
        A::C(c) => c.to_string(),
    }
}

/// A Boolean argument as FlatZinc text.
pub fn tb(a: A) -> String {
    match a {
        A::V(i) => format!("x{i}"),
        A::C(c) => (c != 0).to_string(),
    }
}

pub fn list(a: &[A]) -> String {
    format!("[{}]", a.iter().map(|&a| t(a)).collect::<Vec<_>>().join(", "))
}

pub fn blist(a: &[A]) -> String {
    format!("[{}]", a.iter().map(|&a| tb(a)).collect::<Vec<_>>().join(", "))
}

pub fn ints(c: &[i64]) -> String {
    format!(
        "[{}]",
        c.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
    )
}

/// Checks csp's count against brute force on `rounds` instances made by `make`.
pub fn check_counts(name: &str, rounds: u64, make: impl Fn(&mut Gen)) {
    let mut checked = 0;
    let mut seed = 0;
    while checked < rounds {
        seed += 1;
        let mut g = Gen::new(seed * 7919 + name.len() as u64);
        make(&mut g);
        if g.space() > 300_000 {
            continue;
        }
        let fzn = g.fzn();
        let expected = g.brute_force();
        let got = crate::count(&fzn);
        assert_eq!(
            got, expected,
            "{name}, seed {seed}: csp counts {got}, brute force {expected}\n{fzn}"
        );
        checked += 1;
    }
}
