//! States of at most 15 cells packed in a `u64` for the breadth-first searches: cell `i`
//! in bits `4i..4i+4`, the blank's cell in the top four bits. Moving is two XORs; the
//! permutation rank comes straight from the nibbles.

use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::rank::factorial;
use crate::search::Limits;

/// The most cells a packed state holds.
pub(crate) const MAX_CELLS: usize = 15;

pub(crate) fn pack(board: &Board) -> u64 {
    let mut s = 0u64;
    for (i, &t) in board.cells().iter().enumerate() {
        s |= (t as u64) << (4 * i);
    }
    s | (board.blank() as u64) << 60
}

#[inline]
pub(crate) fn blank(s: u64) -> usize {
    (s >> 60) as usize
}

/// The state after the tile on cell `from` slides into the blank.
#[inline]
pub(crate) fn slide(s: u64, from: usize) -> u64 {
    let b = blank(s);
    let tile = (s >> (4 * from)) & 15;
    let moved = s ^ (tile << (4 * from)) ^ (tile << (4 * b));
    (moved & !(15u64 << 60)) | ((from as u64) << 60)
}

const ONES: u64 = 0x1111_1111_1111_1111;

const FACT: [u64; 16] = {
    let mut t = [1u64; 16];
    let mut i = 1;
    while i < 16 {
        t[i] = t[i - 1] * i as u64;
        i += 1;
    }
    t
};

/// The lexicographic rank of the permutation held in the first `n` nibbles.
///
/// Dispatches to a copy specialised for each cell count a board can have, which the
/// compiler unrolls with the factorials folded in: the table build for 3x3 took 23 ms
/// with a generic popcount loop (criterion, `3x3/table-build`); see the comment below.
#[inline(always)]
pub(crate) fn rank(s: u64, n: usize) -> usize {
    match n {
        4 => rank_n::<4>(s),
        6 => rank_n::<6>(s),
        8 => rank_n::<8>(s),
        9 => rank_n::<9>(s),
        10 => rank_n::<10>(s),
        12 => rank_n::<12>(s),
        14 => rank_n::<14>(s),
        _ => rank_dyn(s, n),
    }
}

#[inline(always)]
fn rank_n<const N: usize>(s: u64) -> usize {
    // below >> 4v (a nibble) counts the values smaller than v seen so far. Baseline
    // x86-64 has no popcount instruction, and the software one cost half the build time.
    let mut below = 0u64;
    let mut r = 0u64;
    let mut i = 0;
    while i < N {
        let v = (s >> (4 * i)) & 15;
        let smaller = (below >> (4 * v)) & 15;
        r += (v - smaller) * FACT[N - 1 - i];
        below = below.wrapping_add((ONES << (4 * v)) << 4);
        i += 1;
    }
    r as usize
}

fn rank_dyn(s: u64, n: usize) -> usize {
    let mut below = 0u64;
    let mut r = 0u64;
    for i in 0..n {
        let v = (s >> (4 * i)) & 15;
        let smaller = (below >> (4 * v)) & 15;
        r += (v - smaller) * FACT[n - 1 - i];
        below = below.wrapping_add((ONES << (4 * v)) << 4);
    }
    r as usize
}

#[cfg(test)]
pub(crate) fn unpack(s: u64, size: Size) -> Board {
    let cells = (0..size.cells())
        .map(|i| ((s >> (4 * i)) & 15) as u8)
        .collect();
    Board::from_cells(size, cells).expect("packed states hold permutations")
}

/// Checks that `bytes_per_rank * n!` bytes (plus `per_state` for each reachable state,
/// `n!/2` of them) fit the limits; returns `n!`.
pub(crate) fn check_memory(
    algorithm: &'static str,
    size: Size,
    bytes_per_rank: f64,
    per_state: f64,
    limits: &Limits,
) -> Result<usize, SearchError> {
    let n = size.cells();
    let fact: f64 = (2..=n).map(|k| k as f64).product();
    let needed = fact * bytes_per_rank + fact / 2.0 * per_state;
    let needed_u = if needed >= u64::MAX as f64 {
        u64::MAX
    } else {
        needed as u64
    };
    if n > MAX_CELLS || needed_u > limits.max_memory {
        return Err(SearchError::MemoryLimit {
            algorithm,
            size,
            needed: needed_u,
            limit: limits.max_memory,
            suggestion: "idastar",
        });
    }
    Ok(factorial(n) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_and_ranks_like_the_rank_module() {
        let b: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
        let s = pack(&b);
        assert_eq!(unpack(s, b.size()), b);
        assert_eq!(blank(s), 4);
        assert_eq!(rank(s, 9) as u64, crate::rank::rank(b.cells()));
        let t = slide(s, 1); // tile 1 slides down
        assert_eq!(unpack(t, b.size()).to_string(), "8 0 3/4 1 2/7 6 5");
        assert_eq!(blank(t), 1);
    }
}
