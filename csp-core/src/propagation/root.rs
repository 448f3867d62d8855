//! The root of every search and of [`crate::ac3`]: the model's givens and exclusions
//! written into a fresh store, before any inference.

use crate::model::Model;
use crate::store::Store;
use crate::var::VarId;

/// Fixes each given in `store` (and reports it to `given`), then removes the excluded
/// values. Returns `false` if an exclusion empties a domain.
pub(crate) fn load_givens(model: &Model, store: &mut Store, mut given: impl FnMut(VarId, i32)) -> bool {
    for var in model.vars() {
        if let Some(v) = model.fixed(var) {
            store.fix(var, v);
            given(var, v);
        }
    }
    for &(var, value) in model.excluded() {
        store.remove(var, value);
        if store.size(var) == 0 {
            return false;
        }
    }
    for &(var, base, bits) in model.excluded_bits() {
        exclude_bits(store, var, base, bits);
        if store.size(var) == 0 {
            return false;
        }
    }
    true
}

/// Removes the values `base + i` for each bit `i` of `bits` from `var` at the root: one
/// masked write when the domain is one word that the bits can be shifted onto.
fn exclude_bits(store: &mut Store, var: VarId, base: i32, bits: u64) {
    let offset = i64::from(base) - i64::from(store.base(var));
    if store.bits(var).len() == 1 && (-63..=63).contains(&offset) {
        let clear = if offset >= 0 {
            bits << offset
        } else {
            bits >> -offset
        };
        if store.uniform_base().is_some() {
            // At the root, before the root mark: never undone.
            store.retain_word_for_good(var, !clear);
        } else {
            store.retain_bits(var, &[!clear]);
        }
        return;
    }
    let mut rest = bits;
    while rest != 0 {
        let value = i64::from(base) + i64::from(rest.trailing_zeros());
        if let Ok(value) = i32::try_from(value) {
            store.remove(var, value);
        }
        rest &= rest - 1;
    }
}
