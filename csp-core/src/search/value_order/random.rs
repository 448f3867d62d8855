//! Random values, drawn one at a time: each next value is drawn uniformly from the
//! domain at the frame's mark without the values tried so far, which makes a uniformly
//! random order of that domain. The frame keeps only the values it tried, sorted, on
//! the value stack: a deep search on large domains (n-queens at n = 10,000 goes 10,000
//! levels down with thousands of values each) would otherwise hold every level's
//! whole domain there.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::search::frame::ValueCursor;
use crate::store::Store;
use crate::var::VarId;

/// The next value of the top frame on `var`, or `None` when every value was tried. The
/// store must be at the frame's mark, and the frame's tried values must end the stack.
pub(in crate::search) fn next(
    cursor: &mut ValueCursor,
    stack: &mut Vec<i32>,
    store: &Store,
    var: VarId,
    rng: &mut ChaCha8Rng,
) -> Option<i32> {
    let start = cursor.start as usize;
    debug_assert_eq!(
        stack.len(),
        start + cursor.pos as usize,
        "the top frame's values end the stack"
    );
    let tried = &stack[start..];
    let left = store.size(var) as usize - tried.len();
    if left == 0 {
        return None;
    }
    let value = untried_value(store, var, tried, rng.random_range(0..left));
    let at = start + tried.partition_point(|&t| t < value);
    stack.insert(at, value);
    cursor.pos += 1;
    Some(value)
}

/// The `rank`-th smallest value of `var`'s domain that is not in `tried` (sorted values
/// of the domain): one pass over the domain's words, each masked by the tried values in
/// it.
fn untried_value(store: &Store, var: VarId, tried: &[i32], mut rank: usize) -> i32 {
    let base = i64::from(store.base(var));
    let mut tried = tried.iter().map(|&t| i64::from(t)).peekable();
    for (index, word) in store.bits(var).iter().enumerate() {
        let low = base + 64 * index as i64;
        let mut untried = word;
        while let Some(t) = tried.next_if(|&t| t < low + 64) {
            untried &= !(1u64 << (t - low));
        }
        let count = untried.count_ones() as usize;
        if rank < count {
            for _ in 0..rank {
                untried &= untried - 1;
            }
            return (low + i64::from(untried.trailing_zeros())) as i32;
        }
        rank -= count;
    }
    unreachable!("fewer untried values than the domain's size says")
}
