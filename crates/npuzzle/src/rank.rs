//! Permutation ranking: the Lehmer code (Cantor expansion) of a permutation as an integer,
//! and back.
//!
//! Ranks are lexicographic: the identity has rank 0 and the reversed permutation `n! - 1`.
//! Both directions take O(n) word operations: instead of the usual Fenwick tree, one
//! counter word holds, in its nibble `v`, how many values below `v` have been seen (adding
//! a value is one shift and one add; no population count, which baseline x86-64 lacks and
//! whose software version cost the 3x3 table build half its time), or, beyond 32 values,
//! comparisons with the earlier entries (at most 8 of them: pattern databases on boards
//! past 32 cells) or a bit mask of the values seen.
//!
//! This module is the one place that computes Lehmer digits. Everything that ranks uses
//! it: the breadth-first searches (permutations packed four bits a cell), whole-space
//! analysis (tile orders), and pattern databases, which rank *partial* permutations (`k`
//! tiles on `n` cells) in the mixed radix `n, n-1, ..., n-k+1` ([`rank_partial`]).

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

/// Per value `v`, in nibble `v`, how many values below `v` have been added: the Lehmer
/// digit of a value is one shift and mask away.
trait Counts: Copy {
    const ZERO: Self;
    /// How many added values are below `v`.
    fn below(self, v: u32) -> u64;
    /// Adds `v`.
    fn add(self, v: u32) -> Self;
}

impl Counts for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn below(self, v: u32) -> u64 {
        (self >> (4 * v)) & 15
    }
    #[inline(always)]
    fn add(self, v: u32) -> u64 {
        self.wrapping_add((0x1111_1111_1111_1111u64 << (4 * v)) << 4)
    }
}

impl Counts for u128 {
    const ZERO: u128 = 0;
    #[inline(always)]
    fn below(self, v: u32) -> u64 {
        ((self >> (4 * v)) & 15) as u64
    }
    #[inline(always)]
    fn add(self, v: u32) -> u128 {
        self.wrapping_add((0x1111_1111_1111_1111_1111_1111_1111_1111u128 << (4 * v)) << 4)
    }
}

/// Calls `digit(i, d)` with the Lehmer digit of each entry of `pos` (distinct values
/// below `n`): the entry less the number of earlier entries below it.
#[inline(always)]
fn digits(pos: &[u8], n: usize, mut digit: impl FnMut(usize, u64)) {
    #[inline(always)]
    fn by<C: Counts>(pos: &[u8], digit: &mut impl FnMut(usize, u64)) {
        let mut seen = C::ZERO;
        for (i, &p) in pos.iter().enumerate() {
            digit(i, p as u64 - seen.below(p as u32));
            seen = seen.add(p as u32);
        }
    }
    if n <= 16 {
        by::<u64>(pos, &mut digit);
    } else if n <= 32 {
        by::<u128>(pos, &mut digit);
    } else if pos.len() <= 8 {
        // A few entries on many cells (pattern databases past 32 cells): comparisons
        // with the earlier entries, cheaper than a population count, which baseline
        // x86-64 does in software.
        for (i, &p) in pos.iter().enumerate() {
            let below: u64 = pos[..i].iter().map(|&q| (q < p) as u64).sum();
            digit(i, p as u64 - below);
        }
    } else {
        let mut used = 0u64;
        for (i, &p) in pos.iter().enumerate() {
            let below = used & ((1u64 << p) - 1);
            digit(i, p as u64 - below.count_ones() as u64);
            used |= 1u64 << p;
        }
    }
}

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
    debug_assert!({
        let mut seen = vec![false; n];
        perm.iter()
            .all(|&v| (v as usize) < n && !std::mem::replace(&mut seen[v as usize], true))
    });
    let mut r = 0u64;
    digits(perm, n, |i, d| r += d * FACT[n - 1 - i]);
    r
}

/// Writes into `out` the permutation of `0..out.len()` whose rank is `r`.
///
/// # Panics
/// If `out.len() > 20` or `r >= out.len()!`.
pub fn unrank(r: u64, out: &mut [u8]) {
    let n = out.len();
    assert!(
        n <= MAX_RANKED && r < FACT[n],
        "unrank: rank {r} out of range for {n}"
    );
    unrank_with(r, n, (0..n).map(|i| FACT[n - 1 - i]), out);
}

/// The rank of the placement `pos` (distinct cells below `n`) in the mixed radix whose
/// digit `i` has weight `weight[i]`: with `weight[i] = (n-1-i)! / (n-k)!` for `k` entries,
/// the placements of `k` tiles on `n` cells (`n <= 64`) are numbered `0..n!/(n-k)!`.
///
/// ```
/// use npuzzle::rank::rank_partial;
/// // Two tiles on three cells: weights 2, 1.
/// assert_eq!(rank_partial(&[0, 1], 3, &[2, 1]), 0);
/// assert_eq!(rank_partial(&[2, 1], 3, &[2, 1]), 5);
/// ```
#[inline(always)]
pub fn rank_partial(pos: &[u8], n: usize, weight: &[u64]) -> u64 {
    let mut r = 0u64;
    digits(pos, n, |i, d| r += d * weight[i]);
    r
}

/// Writes into `out` the placement of rank `r` on `n` cells (`n <= 64`) in the mixed
/// radix of `weight` (see [`rank_partial`]).
#[inline]
pub fn unrank_partial(r: u64, n: usize, weight: &[u64], out: &mut [u8]) {
    unrank_with(r, n, weight.iter().copied(), out);
}

#[inline(always)]
fn unrank_with(mut r: u64, n: usize, weights: impl Iterator<Item = u64>, out: &mut [u8]) {
    let mut free = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (slot, wt) in out.iter_mut().zip(weights) {
        let d = r / wt;
        r -= d * wt;
        // The d-th free value: clear the d lowest ones.
        let mut f = free;
        for _ in 0..d {
            f &= f - 1;
        }
        let v = f.trailing_zeros();
        *slot = v as u8;
        free &= !(1u64 << v);
    }
}

/// The rank of the permutation of `0..n` held four bits a value in `seq` (value `i` in
/// bits `4i..4i+4`, `n <= 16`), as [`rank`] gives for the same values. Called with a
/// constant `n`, it unrolls with the factorials folded in.
#[inline(always)]
pub(crate) fn rank_nibbles(seq: u64, n: usize) -> u64 {
    // From the last value back: the digit is the number of later values below this one,
    // and the factorial grows as we go (no table).
    let mut later = 0u64;
    let mut r = 0u64;
    let mut fact = 1u64;
    let mut i = n;
    while i > 0 {
        i -= 1;
        let v = (seq >> (4 * i)) & 15;
        r += ((later >> (4 * v)) & 15) * fact;
        later = later.wrapping_add((0x1111_1111_1111_1111u64 << (4 * v)) << 4);
        fact *= (n - i) as u64;
    }
    r
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
            let seq = p
                .iter()
                .enumerate()
                .fold(0u64, |s, (i, &v)| s | (v as u64) << (4 * i));
            assert_eq!(rank_nibbles(seq, n), r);
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
        let rev16: u64 = (0..16).fold(0, |s, i| s | (15 - i as u64) << (4 * i));
        assert_eq!(rank_nibbles(rev16, 16), factorial(16) - 1);
    }

    #[test]
    fn partial_ranks_are_dense_for_every_counter_width() {
        // 3 tiles on 9, 20 and 40 cells: the u64, u128 and bit-mask counters.
        for n in [9usize, 20, 40] {
            let k = 3;
            let weight: Vec<u64> = (0..k)
                .map(|i| ((i + 1)..k).map(|j| (n - j) as u64).product())
                .collect();
            let count = (0..k).map(|j| (n - j) as u64).product::<u64>();
            let mut pos = [0u8; 3];
            for r in 0..count {
                unrank_partial(r, n, &weight, &mut pos);
                assert!(pos.iter().all(|&p| (p as usize) < n));
                assert!(pos[0] != pos[1] && pos[1] != pos[2] && pos[0] != pos[2]);
                assert_eq!(rank_partial(&pos, n, &weight), r, "{n}: {pos:?}");
            }
        }
    }

    #[test]
    fn partial_ranks_past_32_cells_agree_by_comparison_and_by_bit_mask() {
        // 5 tiles (compared with the earlier ones) and 9 (a bit mask) on 49 and 64 cells:
        // random placements rank to the mixed-radix number of their Lehmer digits
        // worked out the slow way, and back.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, k) in [(49usize, 5usize), (49, 9), (64, 8), (64, 9)] {
            let weight: Vec<u64> = (0..k)
                .map(|i| ((i + 1)..k).map(|j| (n - j) as u64).product())
                .collect();
            for _ in 0..2_000 {
                let mut cells: Vec<u8> = (0..n as u8).collect();
                for i in 0..k {
                    let j = i + (next() % (n - i) as u64) as usize;
                    cells.swap(i, j);
                }
                let pos = &cells[..k];
                let want: u64 = (0..k)
                    .map(|i| {
                        let below = pos[..i].iter().filter(|&&q| q < pos[i]).count() as u64;
                        (pos[i] as u64 - below) * weight[i]
                    })
                    .sum();
                assert_eq!(rank_partial(pos, n, &weight), want, "{n}: {pos:?}");
                let mut back = vec![0u8; k];
                unrank_partial(want, n, &weight, &mut back);
                assert_eq!(back, pos);
            }
        }
    }
}
