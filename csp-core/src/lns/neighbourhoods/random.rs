//! Random neighbourhoods: the decision variables fixed in a random order, until few
//! enough are free.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::lns::fixer::Fixer;

pub(super) fn fix(fixer: &mut Fixer<'_, '_>, rng: &mut ChaCha8Rng) {
    let mut order = fixer.decision().to_vec();
    order.shuffle(rng);
    for var in order {
        if fixer.done() {
            break;
        }
        fixer.fix(var);
    }
}
