//! Whole-state-space breadth-first search: the exact distance of every state of a board
//! size to a goal, the number of states at each distance, and the hardest states.
//!
//! States are indexed without gaps: the blank's cell, then the Lehmer rank of the tiles
//! read in cell order (skipping the blank) halved, since for a given blank cell exactly
//! half of the tile orders are reachable and the two halves differ in one transposition.
//! That is `n!/2` indices for `n` cells, every one a reachable state.
//!
//! The search keeps two bits per state (unseen, current layer, next layer, done) and, for
//! the distance table it leaves behind, one more bit: `floor(d / 2) mod 2`. With the
//! parity of `d`, which the blank's cell gives, that is `d mod 4`, enough to step from any
//! state to a neighbour one move closer (the neighbours are at `d - 1` and `d + 1`). So
//! the table for 3x4 takes 30 MB and the search 90 MB.
//!
//! A horizontal move leaves the tile order unchanged (only the blank's cell changes), and
//! a vertical one rotates `width` consecutive tiles of it, so successors cost at most one
//! rank; the layers are expanded by all threads at once, marking with atomic bit-ors.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::moves::Direction;
use crate::parity::is_solvable;
use crate::search::{DistanceTable, Limits, Watch};

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

const ONES: u64 = 0x1111_1111_1111_1111;
const LO: u64 = 0x5555_5555_5555_5555;

/// Maps states of one size and goal to dense indices and back.
#[derive(Debug, Clone)]
pub(crate) struct Indexer {
    size: Size,
    m: usize,
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

/// Lehmer rank of the first `m` nibbles of `seq`, by nibble counters of smaller values.
#[inline(always)]
fn rank_seq(seq: u64, m: usize) -> u64 {
    let mut below = 0u64;
    let mut r = 0u64;
    let mut fact = 1u64;
    // From the last position back, so the factorial grows as we go.
    let mut i = m;
    while i > 0 {
        i -= 1;
        let v = (seq >> (4 * i)) & 15;
        let smaller = (below >> (4 * v)) & 15;
        r += smaller * fact;
        below = below.wrapping_add((ONES << (4 * v)) << 4);
        fact *= (m - i) as u64;
    }
    r
}

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
        blank as u64 * FHALF[M] + (rank_seq(seq, M) >> 1)
    }

    /// The blank cell and tile order of an index (specialised for `M` tiles).
    #[inline(always)]
    fn decode_m<const M: usize>(&self, idx: u64) -> (usize, u64) {
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
    fn successors_m<const M: usize>(
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

/// How far an analysis has come: reported after each layer.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// The depth whose states have just been found.
    pub depth: u32,
    /// States found so far.
    pub found: u64,
    /// States in all (every reachable state is found once).
    pub total: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// The result of a whole-space search.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The distance of every state, ready for solving.
    pub table: DistanceTable,
    /// Up to the requested number of states at the largest distance.
    pub antipodes: Vec<Board>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
}

impl Analysis {
    /// States at each distance from the goal, from 0 up.
    pub fn histogram(&self) -> &[u64] {
        self.table.histogram()
    }

    /// Number of states that can reach the goal.
    pub fn states(&self) -> u64 {
        self.table.states()
    }

    /// The largest distance ("god's number" for this size and goal).
    pub fn max_depth(&self) -> u32 {
        self.table.max_depth()
    }
}

/// Bytes an analysis of `size` needs: two bits per state for the search, one for the
/// table.
pub fn memory_needed(size: Size) -> u64 {
    let n = size.cells();
    let states: f64 = (2..=n).map(|k| k as f64).product::<f64>() / 2.0;
    let bytes = states * 3.0 / 8.0 + 4096.0;
    if bytes >= u64::MAX as f64 {
        u64::MAX
    } else {
        bytes as u64
    }
}

/// Searches every state reachable from `goal` by breadth-first search on `threads`
/// threads (0: all cores), keeping up to `antipodes` of the farthest states; `progress`
/// is called after each layer.
///
/// ```
/// use npuzzle::analysis::analyze;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let a = analyze(&goal, &Limits::default(), 0, 10, &mut |_| {}).unwrap();
/// assert_eq!(a.states(), 181_440);
/// assert_eq!(a.max_depth(), 31);
/// assert_eq!(a.histogram()[..5], [1, 2, 4, 8, 16]);
/// assert_eq!(a.antipodes.len(), 2);
/// ```
pub fn analyze(
    goal: &Board,
    limits: &Limits,
    threads: usize,
    antipodes: usize,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Analysis, SearchError> {
    let start = Instant::now();
    let watch = Watch::new(limits);
    let size = goal.size();
    let needed = memory_needed(size);
    if size.cells() > MAX_CELLS || needed > limits.max_memory {
        return Err(SearchError::MemoryLimit {
            algorithm: "analyze",
            size,
            needed,
            limit: limits.max_memory,
            suggestion: "idastar",
        });
    }
    let ix = Indexer::new(goal)?;
    let states = ix.states();
    let words = states.div_ceil(32) as usize;
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    // Small spaces are faster on one thread than with a spawn per layer.
    let threads = if states < 1 << 20 { 1 } else { threads };
    let marks: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let phase: Vec<AtomicU32> = (0..words).map(|_| AtomicU32::new(0)).collect();
    let g = ix.goal_index();
    marks[(g / 32) as usize].store(1 << (2 * (g % 32)), Ordering::Relaxed);
    let mut histogram = vec![1u64];
    let mut found = 1u64;
    let mut depth = 0u32;
    loop {
        let next = with_tiles!(ix.m, M => run_pass(threads, words, |lo, hi| expand::<M>(&ix, &marks, lo, hi)));
        if next == 0 {
            break;
        }
        depth += 1;
        let set_phase = (depth / 2) % 2 == 1;
        run_pass(threads, words, |lo, hi| {
            advance(&marks, &phase, set_phase, lo, hi);
            0
        });
        histogram.push(next);
        found += next;
        progress(&Progress {
            depth,
            found,
            total: states,
            elapsed: start.elapsed(),
        });
        if watch.expired() {
            return Err(SearchError::TimeLimit {
                algorithm: "analyze",
                elapsed: watch.elapsed(),
                lower_bound: depth,
                expanded: found,
            });
        }
    }
    debug_assert_eq!(found, states, "every index is a reachable state");
    // The last layer is still marked current.
    let mut far = Vec::new();
    'scan: for (w, m) in marks.iter().enumerate() {
        let v = m.load(Ordering::Relaxed);
        let mut cur = v & !(v >> 1) & LO;
        while cur != 0 {
            if far.len() >= antipodes {
                break 'scan;
            }
            let bit = cur.trailing_zeros() as u64;
            cur &= cur - 1;
            let idx = w as u64 * 32 + bit / 2;
            let (b, s) = ix.decode(idx);
            far.push(ix.board(b, s));
        }
    }
    drop(marks);
    let phase: Vec<u32> = phase.into_iter().map(AtomicU32::into_inner).collect();
    Ok(Analysis {
        table: DistanceTable::from_parts(goal.clone(), ix, phase, histogram),
        antipodes: far,
        elapsed: start.elapsed(),
        threads,
    })
}

impl Indexer {
    /// The blank cell and tile order of an index.
    pub(crate) fn decode(&self, idx: u64) -> (usize, u64) {
        with_tiles!(self.m, M => self.decode_m::<M>(idx))
    }
}

/// Runs `work` over `0..words` in chunks on `threads` threads; sums what it returns.
fn run_pass(threads: usize, words: usize, work: impl Fn(usize, usize) -> u64 + Sync) -> u64 {
    crate::search::run_chunks(threads, words, 1 << 14, |lo, hi| (work(lo, hi), 0)).0
}

/// Expands the current layer's states in words `lo..hi`; returns how many new states it
/// marked for the next layer.
fn expand<const M: usize>(ix: &Indexer, marks: &[AtomicU64], lo: usize, hi: usize) -> u64 {
    let mut new = 0;
    let mut steps = [Step::default(); 4];
    for (w, m) in marks.iter().enumerate().take(hi).skip(lo) {
        let v = m.load(Ordering::Relaxed);
        // Pairs equal to 01: the current layer (they do not change during the pass).
        let mut cur = v & !(v >> 1) & LO;
        while cur != 0 {
            let bit = cur.trailing_zeros() as u64;
            cur &= cur - 1;
            let idx = w as u64 * 32 + bit / 2;
            let (blank, seq) = ix.decode_m::<M>(idx);
            let k = ix.successors_m::<M>(blank, seq, idx, &mut steps);
            for st in &steps[..k] {
                let (tw, shift) = ((st.index / 32) as usize, 2 * (st.index % 32));
                let target = &marks[tw];
                if (target.load(Ordering::Relaxed) >> shift) & 3 != 0 {
                    continue;
                }
                let prev = target.fetch_or(2 << shift, Ordering::Relaxed);
                if (prev >> shift) & 3 == 0 {
                    new += 1;
                }
            }
        }
    }
    new
}

/// Ends a layer in words `lo..hi`: current (01) becomes done (11), next (10) becomes
/// current (01), and the new states get their phase bit.
fn advance(marks: &[AtomicU64], phase: &[AtomicU32], set_phase: bool, lo: usize, hi: usize) {
    for w in lo..hi {
        let v = marks[w].load(Ordering::Relaxed);
        let l = v & LO;
        let h = (v >> 1) & LO;
        let nv = (l << 1) | h | l;
        marks[w].store(nv, Ordering::Relaxed);
        if set_phase {
            let newly = h & !l;
            if newly != 0 {
                // Gather the even bits into 32 consecutive ones.
                phase[w].fetch_or(compress_even(newly), Ordering::Relaxed);
            }
        }
    }
}

/// The even-position bits of `x` packed into the low 32 bits.
#[inline]
fn compress_even(x: u64) -> u32 {
    let mut x = x & LO;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x >> 8)) & 0x0000_ffff_0000_ffff;
    x = (x | (x >> 16)) & 0x0000_0000_ffff_ffff;
    x as u32
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

    #[test]
    fn compress_even_packs_bits() {
        assert_eq!(compress_even(0b0101), 0b11);
        assert_eq!(compress_even(1 << 62), 1 << 31);
        assert_eq!(compress_even(LO), u32::MAX);
    }
}
