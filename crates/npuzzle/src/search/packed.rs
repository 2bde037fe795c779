//! States of at most 15 cells packed in a `u64` for the breadth-first searches: cell `i`
//! in bits `4i..4i+4`, the blank's cell in the top four bits. Moving is two XORs; the
//! permutation rank comes straight from the nibbles.

use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::limits::Limits;
use crate::rank::{factorial, rank_nibbles};

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

/// The lexicographic rank of the permutation held in the first `n` nibbles.
///
/// Dispatches to a copy specialised for each cell count a board can have, which the
/// compiler unrolls with the factorials folded in: the table build for 3x3 took 23 ms
/// with a generic popcount loop (criterion, `3x3/table-build`).
#[inline(always)]
pub(crate) fn rank(s: u64, n: usize) -> usize {
    (match n {
        4 => rank_nibbles(s, 4),
        6 => rank_nibbles(s, 6),
        8 => rank_nibbles(s, 8),
        9 => rank_nibbles(s, 9),
        10 => rank_nibbles(s, 10),
        12 => rank_nibbles(s, 12),
        14 => rank_nibbles(s, 14),
        _ => rank_nibbles(s, n),
    }) as usize
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
    limits.check_memory(algorithm, size, needed_u, "idastar")?;
    if n > MAX_CELLS {
        // Only on a machine with tens of terabytes: the memory check comes first.
        return Err(SearchError::Unsupported {
            algorithm,
            reason: format!("{size} has {n} cells; {algorithm} packs at most {MAX_CELLS}"),
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
