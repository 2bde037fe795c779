//! Whole-state-space breadth-first search: the exact distance of every state of a board
//! size to a goal, the number of states at each distance, and the hardest states; and the
//! [`DistanceTable`] it leaves behind.
//!
//! States are indexed densely (`index`): `n!/2` indices for `n` cells, every one a
//! reachable state. The search runs on the layered engine ([`crate::layered`]): two bits
//! per state (unseen, current layer, next layer, done) and, for the distance table, one
//! more bit: `floor(d / 2) mod 2`. With the parity of `d`, which the blank's cell gives,
//! that is `d mod 4`, enough to step from any state to a neighbour one move closer (the
//! neighbours are at `d - 1` and `d + 1`). So the table for 3x4 takes 30 MB and the
//! search 90 MB.

mod index;
mod table;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub use index::MAX_CELLS;
pub(crate) use index::{Indexer, Step};
pub use table::DistanceTable;

use crate::board::{Board, Size};
use crate::error::SearchError;
pub use crate::layered::Progress;
use crate::layered::{mark_words, Layers, Marks, LO};
use crate::limits::{resolve_threads, try_vec, Limits, Watch};
use index::with_tiles;

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
    let space = search_space(goal, limits, threads, antipodes, progress, false)?;
    let phase = space.phase.expect("kept for the single-tile metric");
    Ok(Analysis {
        table: DistanceTable::from_parts(goal.clone(), space.ix, phase, space.histogram),
        antipodes: space.antipodes,
        elapsed: space.elapsed,
        threads: space.threads,
    })
}

/// What a whole-space search leaves.
struct Space {
    ix: Indexer,
    histogram: Vec<u64>,
    antipodes: Vec<Board>,
    /// The phase bits (single-tile moves only).
    phase: Option<Vec<u32>>,
    elapsed: Duration,
    threads: usize,
}

/// The whole-space search behind [`analyze`] and [`analyze_mtm`]: single-tile moves
/// with the phase bits of the distance table, or multi-tile moves without.
fn search_space(
    goal: &Board,
    limits: &Limits,
    threads: usize,
    antipodes: usize,
    progress: &mut dyn FnMut(&Progress),
    multi_tile: bool,
) -> Result<Space, SearchError> {
    let start = Instant::now();
    let watch = Watch::new(limits);
    let size = goal.size();
    // Too many cells to index is its own reason (not a memory figure that fits the limit).
    let ix = Indexer::new(goal)?;
    // (No other search counts every state of a size: nothing to suggest instead.)
    limits.check_memory("analyze", size, memory_needed(size), "")?;
    let states = ix.states();
    // Small spaces are faster on one thread than with a spawn per layer.
    let threads = if states < 1 << 20 {
        1
    } else {
        resolve_threads(threads)
    };
    let words = mark_words(states, "analyze")?;
    let marks = Marks::new(&words);
    let phase: Vec<AtomicU32> = if multi_tile {
        Vec::new()
    } else {
        try_vec(marks.words(), "analyze", || AtomicU32::new(0))?
    };
    marks.set_current(ix.goal_index());
    let layers = Layers {
        name: "analyze",
        threads,
        chunk: 1 << 14,
        total: states,
        watch: &watch,
    };
    let histogram = with_tiles!(ix.m, M => layers.run(
        marks,
        1,
        |lo, hi, _| {
            let new = if multi_tile {
                expand_mtm::<M>(&ix, marks, lo, hi)
            } else {
                expand::<M>(&ix, marks, lo, hi)
            };
            (new, new)
        },
        // The phase bit, floor(d / 2) mod 2, is set for the states at depths 2 and 3
        // mod 4.
        |depth| {
            (!multi_tile && (depth / 2) % 2 == 1).then_some(|w: usize, newly: u64| {
                phase[w].fetch_or(compress_even(newly), Ordering::Relaxed);
            })
        },
        progress,
    ))?;
    debug_assert_eq!(
        histogram.iter().sum::<u64>(),
        states,
        "every index is a reachable state"
    );
    // The last layer is still marked current.
    let mut far = Vec::new();
    marks.for_each_current(0, marks.words(), |idx| {
        if far.len() < antipodes {
            let (b, s) = ix.decode(idx);
            far.push(ix.board(b, s));
        }
    });
    drop(words);
    Ok(Space {
        ix,
        histogram,
        antipodes: far,
        phase: (!multi_tile).then(|| phase.into_iter().map(AtomicU32::into_inner).collect()),
        elapsed: start.elapsed(),
        threads,
    })
}

/// Expands the current layer's states in words `lo..hi`; returns how many new states it
/// marked for the next layer.
///
/// The scan of the current layer is written out here rather than taken from
/// `Marks::for_each_current`: through the closure the 3x4 analysis ran 1.5-2% slower on
/// one thread (10.55 s against 10.41 s, alternating runs).
fn expand<const M: usize>(ix: &Indexer, marks: Marks<'_>, lo: usize, hi: usize) -> u64 {
    let mut new = 0;
    let mut steps = [Step::default(); 4];
    for w in lo..hi {
        let v = marks.word(w);
        let mut cur = v & !(v >> 1) & LO;
        while cur != 0 {
            let bit = cur.trailing_zeros() as u64;
            cur &= cur - 1;
            let idx = w as u64 * 32 + bit / 2;
            let (blank, seq) = ix.decode_m::<M>(idx);
            let k = ix.successors_m::<M>(blank, seq, idx, &mut steps);
            for st in &steps[..k] {
                if marks.mark_next(st.index) {
                    new += 1;
                }
            }
        }
    }
    new
}

/// The result of a whole-space search in the multi-tile metric (no distance table: that
/// metric's distances do not follow from the blank's cell, so the table's one bit a state
/// would not do).
#[derive(Debug, Clone)]
pub struct MtmAnalysis {
    /// States at each distance from the goal, from 0 up, in multi-tile moves.
    pub histogram: Vec<u64>,
    /// Up to the requested number of states at the largest distance.
    pub antipodes: Vec<Board>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
}

impl MtmAnalysis {
    /// Number of states that can reach the goal.
    pub fn states(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// The largest distance in multi-tile moves.
    pub fn max_depth(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
}

/// [`analyze`] in the multi-tile metric: sliding any number of tiles of one row or column
/// at once is one move (see [`Metric`](crate::sequence::Metric)).
///
/// ```
/// use npuzzle::analysis::analyze_mtm;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let a = analyze_mtm(&goal, &Limits::default(), 0, 2, &mut |_| {}).unwrap();
/// assert_eq!(a.states(), 181_440);
/// assert_eq!(a.max_depth(), 24); // the published figure for the 8-puzzle
/// ```
pub fn analyze_mtm(
    goal: &Board,
    limits: &Limits,
    threads: usize,
    antipodes: usize,
    progress: &mut dyn FnMut(&Progress),
) -> Result<MtmAnalysis, SearchError> {
    let space = search_space(goal, limits, threads, antipodes, progress, true)?;
    Ok(MtmAnalysis {
        histogram: space.histogram,
        antipodes: space.antipodes,
        elapsed: space.elapsed,
        threads: space.threads,
    })
}

/// Expands the current states in words `lo..hi` by multi-tile moves: in each direction,
/// one tile, two, ... as far as the row or column goes. Returns how many new states it
/// marked.
fn expand_mtm<const M: usize>(ix: &Indexer, marks: Marks<'_>, lo: usize, hi: usize) -> u64 {
    let mut new = 0;
    let mut steps = [Step::default(); 4];
    let mut more = [Step::default(); 4];
    marks.for_each_current(lo, hi, |idx| {
        let (blank, seq) = ix.decode_m::<M>(idx);
        let k = ix.successors_m::<M>(blank, seq, idx, &mut steps);
        for st in &steps[..k] {
            let mut cur = *st;
            loop {
                if marks.mark_next(cur.index) {
                    new += 1;
                }
                // One more tile the same way, seen or not: those beyond may be new.
                let k2 = ix.successors_m::<M>(cur.blank, cur.seq, cur.index, &mut more);
                match more[..k2].iter().find(|s| s.dir == st.dir) {
                    Some(next) => cur = *next,
                    None => break,
                }
            }
        }
    });
    new
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
    fn compress_even_packs_bits() {
        assert_eq!(compress_even(0b0101), 0b11);
        assert_eq!(compress_even(1 << 62), 1 << 31);
        assert_eq!(compress_even(LO), u32::MAX);
    }
}
