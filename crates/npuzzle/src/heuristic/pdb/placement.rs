//! Where a pattern's tiles stand, as a dense index.

use crate::rank::{rank_partial, unrank_partial};

/// How a placement of `k` tiles on `n` cells maps to an index: mixed radix
/// `n, n-1, ..., n-k+1`, each digit the position's rank among the cells not yet used.
#[derive(Debug, Clone)]
pub struct Placement {
    n: usize,
    k: usize,
    /// `weight[i]`: the product of the radices after digit `i`.
    weight: Vec<u64>,
}

impl Placement {
    /// The indexing of `k` tiles on `n` cells.
    pub fn new(n: usize, k: usize) -> Placement {
        let mut weight = vec![1u64; k];
        for i in (0..k.saturating_sub(1)).rev() {
            weight[i] = weight[i + 1] * (n - 1 - i) as u64;
        }
        Placement { n, k, weight }
    }

    /// Number of placements: `n! / (n - k)!`.
    pub fn count(&self) -> u64 {
        if self.k == 0 {
            1
        } else {
            self.weight[0] * self.n as u64
        }
    }

    /// The index of the placement `pos` (distinct cells, `k` of them).
    #[inline]
    pub fn index(&self, pos: &[u8]) -> u64 {
        rank_partial(pos, self.n, &self.weight)
    }

    /// How the index of `pos` changes when the tile in slot `i` moves to the free cell
    /// `to`: only tiles on cells strictly between the old cell and `to` change digits, so
    /// a move along a row changes one digit by one.
    #[inline(always)]
    pub fn delta(&self, pos: &[u8], i: usize, to: u8) -> i64 {
        let from = pos[i];
        let (lo, hi) = if to > from { (from, to) } else { (to, from) };
        let span = (hi - lo - 1) as u32;
        let between = |c: u8| ((c.wrapping_sub(lo + 1) as u32) < span) as u64;
        let below: u64 = pos[..i].iter().map(|&c| between(c)).sum();
        let later: u64 = pos[i + 1..]
            .iter()
            .zip(&self.weight[i + 1..])
            .map(|(&c, &w)| between(c) * w)
            .sum();
        let change = ((hi - lo) as u64 - below) * self.weight[i] + later;
        if to > from {
            change as i64
        } else {
            -(change as i64)
        }
    }

    /// The placement of an index, written into `pos`.
    #[inline]
    pub fn unindex(&self, idx: u64, pos: &mut [u8]) {
        unrank_partial(idx, self.n, &self.weight, pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_round_trip() {
        let p = Placement::new(9, 3);
        assert_eq!(p.count(), 9 * 8 * 7);
        let mut seen = vec![false; p.count() as usize];
        let mut pos = [0u8; 3];
        for i in 0..p.count() {
            p.unindex(i, &mut pos);
            assert_eq!(p.index(&pos), i);
            assert!(pos[0] != pos[1] && pos[1] != pos[2] && pos[0] != pos[2]);
            seen[i as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn index_changes_match_full_recomputation() {
        // Every placement of 3 tiles on 4x4 and 5x5, every tile moved to every free
        // neighbouring cell: the change agrees with indexing the new placement.
        for w in [4usize, 5] {
            let n = w * w;
            let p = Placement::new(n, 3);
            let mut pos = [0u8; 3];
            for idx in 0..p.count() {
                p.unindex(idx, &mut pos);
                for i in 0..3 {
                    let c = pos[i] as usize;
                    let mut near = vec![];
                    if c % w > 0 {
                        near.push(c - 1);
                    }
                    if c % w + 1 < w {
                        near.push(c + 1);
                    }
                    if c >= w {
                        near.push(c - w);
                    }
                    if c + w < n {
                        near.push(c + w);
                    }
                    for to in near {
                        if pos.contains(&(to as u8)) {
                            continue;
                        }
                        let mut moved = pos;
                        moved[i] = to as u8;
                        let want = p.index(&moved) as i64 - idx as i64;
                        assert_eq!(p.delta(&pos, i, to as u8), want, "{pos:?} slot {i} to {to}");
                    }
                }
            }
        }
    }
}
