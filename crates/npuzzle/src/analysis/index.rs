//! Dense indices for every reachable state of one size and goal, and their successors.
//!
//! States are indexed without gaps: the blank's cell, then the Lehmer rank of the tiles
//! read in cell order (skipping the blank) halved, since for a given blank cell exactly
//! half of the tile orders are reachable and the two halves differ in one transposition.
//! That is `n!/2` indices for `n` cells, every one a reachable state.
//!
//! A horizontal move leaves the tile order unchanged (only the blank's cell changes), and
//! a vertical one rotates `width` consecutive tiles of it, so successors cost at most one
//! rank.

use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::moves::Direction;
use crate::parity::is_solvable;
use crate::rank::rank_nibbles;

/// The most cells a board may have to be indexed (tiles are held in 4-bit fields).
pub const MAX_CELLS: usize = 16;

const FHALF: [u64; 16] = {
    let mut t = [1u64; 16];
    let mut f = 1u64;
    let mut k = 1;
    while k < 16 {
        f *= k as u64;
        t[k] = if k >= 2 { f / 2 } else { 1 };
        k += 1;
    }
    t
};

/// Maps states of one size and goal to dense indices and back.
#[derive(Debug, Clone)]
pub(crate) struct Indexer {
    size: Size,
    pub(super) m: usize,
    half: u64,
    /// Per blank cell: the parity of the tile order's inversions in reachable states.
    parity: Vec<u8>,
    /// Tile number of each label (labels number the tiles in the goal's order).
    tiles: Vec<u8>,
    /// Label of each tile number.
    labels: Vec<u8>,
    goal_blank: usize,
    goal_index: u64,
}

/// One successor: the tile's direction, the new blank cell, the tile order and index.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Step {
    pub(crate) dir: Option<Direction>,
    pub(crate) blank: usize,
    pub(crate) seq: u64,
    pub(crate) index: u64,
}

/// Calls `$body` with the const `$M` equal to the runtime tile count `$m`.
macro_rules! with_tiles {
    ($m:expr, $M:ident => $body:expr) => {
        match $m {
            3 => {
                const $M: usize = 3;
                $body
            }
            5 => {
                const $M: usize = 5;
                $body
            }
            7 => {
                const $M: usize = 7;
                $body
            }
            8 => {
                const $M: usize = 8;
                $body
            }
            9 => {
                const $M: usize = 9;
                $body
            }
            11 => {
                const $M: usize = 11;
                $body
            }
            13 => {
                const $M: usize = 13;
                $body
            }
            14 => {
                const $M: usize = 14;
                $body
            }
            15 => {
                const $M: usize = 15;
                $body
            }
            m => unreachable!("no board has {} cells", m + 1),
        }
    };
}

pub(super) use with_tiles;

impl Indexer {
    pub(crate) fn new(goal: &Board) -> Result<Indexer, SearchError> {
        let size = goal.size();
        let n = size.cells();
        if n > MAX_CELLS {
            return Err(SearchError::Unsupported {
                algorithm: "table",
                reason: format!(
                    "{size} has {n} cells; whole-space tables index at most {MAX_CELLS}"
                ),
            });
        }
        let m = n - 1;
        let tiles: Vec<u8> = goal.cells().iter().copied().filter(|&t| t != 0).collect();
        let mut labels = vec![0u8; n];
        for (l, &t) in tiles.iter().enumerate() {
            labels[t as usize] = l as u8;
        }
        let mut parity = vec![0u8; n];
        for (b, p) in parity.iter_mut().enumerate() {
            // Tiles in goal order around a blank on cell b: inversion count 0.
            let mut cells = Vec::with_capacity(n);
            let mut next = tiles.iter();
            for c in 0..n {
                cells.push(if c == b {
                    0
                } else {
                    *next.next().expect("n - 1 tiles")
                });
            }
            let board = Board::from_cells(size, cells).expect("a permutation");
            *p = u8::from(!is_solvable(&board, goal).expect("same size"));
        }
        let mut ix = Indexer {
            size,
            m,
            half: FHALF[m],
            parity,
            tiles,
            labels,
            goal_blank: goal.blank(),
            goal_index: 0,
        };
        let (b, s) = ix.seq_of(goal);
        ix.goal_index = ix.index(b, s);
        Ok(ix)
    }

    /// Number of indices: every reachable state once.
    pub(crate) fn states(&self) -> u64 {
        self.size.cells() as u64 * self.half
    }

    pub(crate) fn goal_index(&self) -> u64 {
        self.goal_index
    }

    pub(crate) fn size(&self) -> Size {
        self.size
    }

    /// The blank cell and tile order (labels, 4 bits each) of a board.
    pub(crate) fn seq_of(&self, board: &Board) -> (usize, u64) {
        let mut seq = 0u64;
        let mut k = 0;
        for &t in board.cells() {
            if t != 0 {
                seq |= (self.labels[t as usize] as u64) << (4 * k);
                k += 1;
            }
        }
        (board.blank(), seq)
    }

    pub(crate) fn index(&self, blank: usize, seq: u64) -> u64 {
        with_tiles!(self.m, M => self.index_m::<M>(blank, seq))
    }

    #[inline(always)]
    fn index_m<const M: usize>(&self, blank: usize, seq: u64) -> u64 {
        blank as u64 * FHALF[M] + (rank_nibbles(seq, M) >> 1)
    }

    /// The blank cell and tile order of an index (specialised for `M` tiles).
    #[inline(always)]
    pub(super) fn decode_m<const M: usize>(&self, idx: u64) -> (usize, u64) {
        let blank = (idx / FHALF[M]) as usize;
        let mut r = idx - blank as u64 * FHALF[M];
        let mut avail = 0xFEDC_BA98_7654_3210u64;
        let mut seq = 0u64;
        let mut inv = 0u64;
        let mut i = 0;
        while i + 2 < M {
            let f = FHALF[M - 1 - i];
            let d = r / f;
            r -= d * f;
            seq |= ((avail >> (4 * d)) & 15) << (4 * i);
            avail = (avail & ((1u64 << (4 * d)) - 1)) | ((avail >> (4 * d + 4)) << (4 * d));
            inv += d;
            i += 1;
        }
        let d = (self.parity[blank] as u64 ^ inv) & 1;
        seq |= ((avail >> (4 * d)) & 15) << (4 * (M - 2));
        avail = (avail & ((1u64 << (4 * d)) - 1)) | ((avail >> (4 * d + 4)) << (4 * d));
        seq |= (avail & 15) << (4 * (M - 1));
        (blank, seq)
    }

    pub(crate) fn board(&self, blank: usize, seq: u64) -> Board {
        let n = self.size.cells();
        let mut cells = Vec::with_capacity(n);
        let mut k = 0;
        for c in 0..n {
            if c == blank {
                cells.push(0);
            } else {
                cells.push(self.tiles[((seq >> (4 * k)) & 15) as usize]);
                k += 1;
            }
        }
        Board::from_cells(self.size, cells).expect("decoded states are permutations")
    }

    /// The parity of the distance of any state with the blank on `blank`.
    #[inline]
    pub(crate) fn depth_parity(&self, blank: usize) -> u64 {
        let w = self.size.width();
        (((blank / w) + (blank % w) + (self.goal_blank / w) + (self.goal_blank % w)) & 1) as u64
    }

    /// The successors of a state; returns how many were written.
    pub(crate) fn successors(
        &self,
        blank: usize,
        seq: u64,
        idx: u64,
        out: &mut [Step; 4],
    ) -> usize {
        with_tiles!(self.m, M => self.successors_m::<M>(blank, seq, idx, out))
    }

    #[inline(always)]
    pub(super) fn successors_m<const M: usize>(
        &self,
        blank: usize,
        seq: u64,
        idx: u64,
        out: &mut [Step; 4],
    ) -> usize {
        let half = FHALF[M];
        let w = self.size.width();
        let h = self.size.height();
        let (row, col) = (blank / w, blank % w);
        let r2 = idx - blank as u64 * half;
        let mut k = 0;
        if col > 0 {
            out[k] = Step {
                dir: Some(Direction::Right),
                blank: blank - 1,
                seq,
                index: (blank as u64 - 1) * half + r2,
            };
            k += 1;
        }
        if col + 1 < w {
            out[k] = Step {
                dir: Some(Direction::Left),
                blank: blank + 1,
                seq,
                index: (blank as u64 + 1) * half + r2,
            };
            k += 1;
        }
        let mask = (1u64 << (4 * w)) - 1;
        if row > 0 {
            // The tile above (order position blank - w) drops to position blank - 1.
            let p = blank - w;
            let seg = (seq >> (4 * p)) & mask;
            let new = (seg >> 4) | ((seg & 15) << (4 * (w - 1)));
            let s2 = (seq & !(mask << (4 * p))) | (new << (4 * p));
            out[k] = Step {
                dir: Some(Direction::Down),
                blank: p,
                seq: s2,
                index: self.index_m::<M>(p, s2),
            };
            k += 1;
        }
        if row + 1 < h {
            // The tile below (order position blank + w - 1) rises to position blank.
            let p = blank;
            let seg = (seq >> (4 * p)) & mask;
            let new = ((seg << 4) & mask) | (seg >> (4 * (w - 1)));
            let s2 = (seq & !(mask << (4 * p))) | (new << (4 * p));
            out[k] = Step {
                dir: Some(Direction::Up),
                blank: blank + w,
                seq: s2,
                index: self.index_m::<M>(blank + w, s2),
            };
            k += 1;
        }
        k
    }
}

impl Indexer {
    /// The blank cell and tile order of an index.
    pub(crate) fn decode(&self, idx: u64) -> (usize, u64) {
        with_tiles!(self.m, M => self.decode_m::<M>(idx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_dense_and_round_trip() {
        for text in [
            "1 2 3/4 5 6/7 8 0",
            "1 2 3/8 0 4/7 6 5",
            "0 1/2 3/4 5",
            "3 1 2 0 4 5 6 7",
        ] {
            let goal = if text.contains('/') {
                text.parse::<Board>().unwrap()
            } else {
                Board::parse(text, Some("4x2".parse().unwrap())).unwrap()
            };
            let ix = Indexer::new(&goal).unwrap();
            let mut seen = vec![false; ix.states() as usize];
            for idx in 0..ix.states() {
                let (b, s) = ix.decode(idx);
                assert_eq!(ix.index(b, s), idx);
                let board = ix.board(b, s);
                assert!(is_solvable(&board, &goal).unwrap(), "{board}");
                assert_eq!(ix.seq_of(&board), (b, s));
                let mut steps = [Step::default(); 4];
                let k = ix.successors(b, s, idx, &mut steps);
                for st in &steps[..k] {
                    let mut moved = board.clone();
                    moved.apply(st.dir.unwrap()).unwrap();
                    assert_eq!(
                        ix.seq_of(&moved),
                        (st.blank, st.seq),
                        "{board} {:?}",
                        st.dir
                    );
                    assert_eq!(ix.index(st.blank, st.seq), st.index);
                }
                assert!(!seen[idx as usize]);
                seen[idx as usize] = true;
            }
        }
    }
}
