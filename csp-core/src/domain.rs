//! Finite integer domains as bitsets of any size.

use std::borrow::Cow;

use fixedbitset::FixedBitSet;

use crate::error::ModelError;

/// A finite set of integers, stored as a bitset over `min..=max`.
///
/// Any size is allowed (domains are not limited to 64 values).
///
/// ```
/// use csp_core::Domain;
/// let d = Domain::range(1, 9).unwrap();
/// assert_eq!(d.len(), 9);
/// let s = Domain::from_values([3, -1, 7]).unwrap();
/// assert_eq!(s.values().collect::<Vec<_>>(), vec![-1, 3, 7]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    base: i32,
    bits: FixedBitSet,
}

/// The widest span of values one domain may cover (`max - min + 1`).
pub const MAX_DOMAIN_SPAN: i64 = 1 << 26;

impl Domain {
    /// The values `lo..=hi`.
    pub fn range(lo: i32, hi: i32) -> Result<Domain, ModelError> {
        if lo > hi {
            return Err(ModelError::EmptyDomain);
        }
        let span = i64::from(hi) - i64::from(lo) + 1;
        if span > MAX_DOMAIN_SPAN {
            return Err(ModelError::DomainTooWide {
                span,
                max: MAX_DOMAIN_SPAN,
            });
        }
        let mut bits = FixedBitSet::with_capacity(span as usize);
        bits.insert_range(..);
        Ok(Domain { base: lo, bits })
    }

    /// An explicit set of values (duplicates are ignored).
    pub fn from_values(values: impl IntoIterator<Item = i32>) -> Result<Domain, ModelError> {
        let values: Vec<i32> = values.into_iter().collect();
        let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
            return Err(ModelError::EmptyDomain);
        };
        let span = i64::from(hi) - i64::from(lo) + 1;
        if span > MAX_DOMAIN_SPAN {
            return Err(ModelError::DomainTooWide {
                span,
                max: MAX_DOMAIN_SPAN,
            });
        }
        let mut bits = FixedBitSet::with_capacity(span as usize);
        for v in values {
            bits.insert((v - lo) as usize);
        }
        Ok(Domain { base: lo, bits })
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.bits.count_ones(..)
    }

    /// Whether the domain has no value.
    pub fn is_empty(&self) -> bool {
        self.bits.is_clear()
    }

    /// Whether `value` belongs to the domain.
    pub fn contains(&self, value: i32) -> bool {
        let offset = i64::from(value) - i64::from(self.base);
        offset >= 0 && self.bits.contains(offset as usize)
    }

    /// The smallest value (a domain is never empty).
    pub fn min(&self) -> i32 {
        self.base + self.bits.minimum().unwrap_or(0) as i32
    }

    /// The largest value.
    pub fn max(&self) -> i32 {
        self.base + self.bits.maximum().unwrap_or(0) as i32
    }

    /// The values in increasing order.
    pub fn values(&self) -> impl Iterator<Item = i32> + '_ {
        self.bits.ones().map(move |i| self.base + i as i32)
    }

    /// The smallest value the bitset can hold (bit 0).
    pub(crate) fn base(&self) -> i32 {
        self.base
    }

    /// The number of 64-bit words of [`Domain::words`].
    pub(crate) fn num_words(&self) -> usize {
        self.bits.len().div_ceil(64).max(1)
    }

    /// The domain as 64-bit words, bit `i` standing for `base + i`. Each search builds
    /// its store from these.
    pub(crate) fn words(&self) -> Cow<'_, [u64]> {
        let blocks = self.bits.as_slice();
        if usize::BITS == 64 && blocks.len() == self.num_words() {
            // The bit set's blocks are the words: borrowed, not copied (the domains of a
            // large model take tens of megabytes).
            return Cow::Borrowed(bytemuck::cast_slice(blocks));
        }
        let mut words = vec![0u64; self.num_words()];
        // The bit set's blocks, whatever their width, laid into 64-bit words: a copy,
        // not a walk over each value (a domain may hold millions).
        let width = usize::BITS as usize;
        for (i, &block) in blocks.iter().enumerate() {
            let (word, shift) = (i * width / 64, i * width % 64);
            words[word] |= (block as u64) << shift;
        }
        Cow::Owned(words)
    }
}
