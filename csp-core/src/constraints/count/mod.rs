//! Counting constraints: how many variables take values of a set (`count`, `among`), how
//! many take the value of a variable (`count` with a variable value), and how many
//! distinct values they take (`nValues`). `cardinality` is posted as one `count` per value
//! (see `model/post_global.rs`).

mod among;
mod count_var;
mod n_values;

pub(crate) use among::Among;
pub(crate) use count_var::CountVar;
pub(crate) use n_values::NValues;
