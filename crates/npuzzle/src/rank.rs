//! Permutation ranking: the Lehmer code (Cantor expansion) of a permutation as an integer,
//! and back.
//!
//! Ranks are lexicographic: the identity has rank 0 and the reversed permutation `n! - 1`.
//! Both directions take O(n) word operations for n <= 20 (the largest n whose `n!` fits in
//! a `u64`): a bit mask of the values used so far, and a population count, replace the
//! usual Fenwick tree.

/// The largest permutation length that can be ranked.
pub const MAX_RANKED: usize = 20;

/// `n!` for `n <= 20`.
///
/// ```
/// assert_eq!(npuzzle::rank::factorial(9), 362_880);
/// ```
pub const fn factorial(n: usize) -> u64 {
    let mut f = 1u64;
    let mut i = 2;
    while i <= n {
        f *= i as u64;
        i += 1;
    }
    f
}

const FACT: [u64; MAX_RANKED + 1] = {
    let mut t = [1u64; MAX_RANKED + 1];
    let mut i = 1;
    while i <= MAX_RANKED {
        t[i] = t[i - 1] * i as u64;
        i += 1;
    }
    t
};

/// The lexicographic rank of `perm`, a permutation of `0..perm.len()`.
///
/// # Panics
/// If `perm.len() > 20` (in debug builds also if `perm` is not a permutation).
///
/// ```
/// use npuzzle::rank::{rank, unrank};
/// assert_eq!(rank(&[0, 1, 2]), 0);
/// assert_eq!(rank(&[2, 1, 0]), 5);
/// let mut p = [0u8; 3];
/// unrank(3, &mut p);
/// assert_eq!(p, [1, 2, 0]);
/// assert_eq!(rank(&p), 3);
/// ```
pub fn rank(perm: &[u8]) -> u64 {
    let n = perm.len();
    assert!(n <= MAX_RANKED, "rank: {n} elements, at most {MAX_RANKED}");
    let mut used: u32 = 0;
    let mut r = 0u64;
    for (i, &v) in perm.iter().enumerate() {
        debug_assert!((v as usize) < n && used & (1 << v) == 0);
        let below = (used & ((1u32 << v) - 1)).count_ones() as u64;
        r += (v as u64 - below) * FACT[n - 1 - i];
        used |= 1 << v;
    }
    r
}

/// Writes into `out` the permutation of `0..out.len()` whose rank is `r`.
///
/// # Panics
/// If `out.len() > 20` or `r >= out.len()!`.
pub fn unrank(mut r: u64, out: &mut [u8]) {
    let n = out.len();
    assert!(
        n <= MAX_RANKED && r < FACT[n],
        "unrank: rank {r} out of range for {n}"
    );
    let mut free: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    for (i, slot) in out.iter_mut().enumerate() {
        let f = FACT[n - 1 - i];
        let k = (r / f) as u32;
        r %= f;
        let v = select(free, k);
        *slot = v as u8;
        free &= !(1 << v);
    }
}

/// The position of the `k`-th (0-based) set bit of `mask`, by binary search on
/// population counts: O(log 32).
fn select(mask: u32, mut k: u32) -> u32 {
    let mut pos = 0;
    let mut m = mask;
    let mut width = 16;
    while width > 0 {
        let low = m & ((1u32 << width) - 1);
        let c = low.count_ones();
        if k >= c {
            k -= c;
            m >>= width;
            pos += width;
        } else {
            m = low;
        }
        width /= 2;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_3x3_permutation() {
        let n = 9;
        let mut p = [0u8; 9];
        let mut prev: Option<[u8; 9]> = None;
        for r in 0..factorial(n) {
            unrank(r, &mut p);
            assert_eq!(rank(&p), r);
            if let Some(q) = prev {
                assert!(q < p, "ranks are lexicographic");
            }
            prev = Some(p);
        }
    }

    #[test]
    fn largest_permutations_rank() {
        let rev: Vec<u8> = (0..20).rev().collect();
        assert_eq!(rank(&rev), factorial(20) - 1);
        let mut out = vec![0u8; 20];
        unrank(factorial(20) - 1, &mut out);
        assert_eq!(out, rev);
        for v in [0u32, 1, 5, 31] {
            assert_eq!(select(u32::MAX, v), v);
        }
        assert_eq!(select(0b1010_0000, 1), 7);
    }
}
