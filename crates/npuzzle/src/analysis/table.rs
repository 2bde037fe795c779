use std::io;
use std::path::Path;

use super::{analyze, Indexer, Step};
use crate::board::{Board, Size};
use crate::error::{FileError, SearchError};
use crate::files::{check_header, check_trailer, seal, write_atomic, Reader};
use crate::limits::{Limits, Watch};
use crate::moves::Direction;
use crate::parity::precheck;
use crate::solution::{Solution, Stats};

/// The distance to one goal of every state of a size, from one breadth-first search out
/// of the goal (see [`analysis`](crate::analysis)); any board of that size is then solved
/// by stepping to a neighbour one move closer, one lookup per neighbour.
///
/// It keeps one bit per state (`floor(d / 2) mod 2`; the blank's cell gives `d mod 2`):
/// 22 KiB for 3x3, 30 MB for 3x4. It can be saved to a file and loaded back, checked
/// against a checksum.
///
/// ```
/// use npuzzle::{Board, DistanceTable, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let table = DistanceTable::build(&goal, &Limits::default()).unwrap();
/// assert_eq!(table.states(), 181_440);
/// assert_eq!(table.max_depth(), 31);
/// let start: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// assert_eq!(table.distance(&start), Some(14));
/// assert_eq!(table.solve(&start).unwrap().len(), 14);
/// ```
#[derive(Debug, Clone)]
pub struct DistanceTable {
    goal: Board,
    ix: Indexer,
    phase: Vec<u32>,
    histogram: Vec<u64>,
}

/// The first bytes of a table file.
pub const TABLE_MAGIC: &[u8; 8] = b"NPZTABLE";
/// The table file format version this build writes and reads.
pub const TABLE_VERSION: u32 = 1;

impl DistanceTable {
    /// Builds the table for `goal` by breadth-first search over every reachable state,
    /// on all cores.
    pub fn build(goal: &Board, limits: &Limits) -> Result<DistanceTable, SearchError> {
        Ok(analyze(goal, limits, 0, 0, &mut |_| {})
            .map_err(|e| match e {
                SearchError::MemoryLimit {
                    size,
                    needed,
                    limit,
                    suggestion,
                    ..
                } => SearchError::MemoryLimit {
                    algorithm: "table",
                    size,
                    needed,
                    limit,
                    suggestion,
                },
                e => e,
            })?
            .table)
    }

    pub(crate) fn from_parts(
        goal: Board,
        ix: Indexer,
        phase: Vec<u32>,
        histogram: Vec<u64>,
    ) -> DistanceTable {
        DistanceTable {
            goal,
            ix,
            phase,
            histogram,
        }
    }

    /// The goal the table measures distances to.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.ix.size()
    }

    /// The number of states that can reach the goal.
    pub fn states(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// The largest distance of any state (the size's "god's number" for this goal).
    pub fn max_depth(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }

    /// How many states lie at each distance, from 0 up.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Bytes the table holds in memory.
    pub fn memory(&self) -> u64 {
        self.phase.len() as u64 * 4
    }

    #[inline]
    fn mod4(&self, blank: usize, idx: u64) -> u64 {
        let bit = (self.phase[(idx / 32) as usize] >> (idx % 32)) & 1;
        2 * bit as u64 + self.ix.depth_parity(blank)
    }

    /// Walks down to the goal; the moves if asked for, and the statistics. A table whose
    /// checksum matched can still be wrong (written by another program, or forged): a
    /// state with no neighbour one move closer, or a walk longer than the table's largest
    /// distance, is reported as [`SearchError::Inconsistent`], never followed further.
    fn descend(
        &self,
        start: &Board,
        mut moves: Option<&mut Vec<Direction>>,
    ) -> Result<Stats, SearchError> {
        let bad = |reason: String| SearchError::Inconsistent {
            algorithm: "table",
            reason,
        };
        let mut stats = Stats::default();
        let (mut b, mut s) = self.ix.seq_of(start);
        let mut idx = self.ix.index(b, s);
        let mut k = self.mod4(b, idx);
        let mut steps = [Step::default(); 4];
        while idx != self.ix.goal_index() {
            if stats.expanded >= self.max_depth() as u64 {
                return Err(bad(format!(
                    "the walk from {start} passed the largest distance, {}, without reaching \
                     the goal",
                    self.max_depth()
                )));
            }
            stats.expanded += 1;
            let n = self.ix.successors(b, s, idx, &mut steps);
            let want = (k + 3) % 4;
            let Some(st) = steps[..n].iter().find(|st| {
                stats.generated += 1;
                self.mod4(st.blank, st.index) == want
            }) else {
                return Err(bad(format!(
                    "a state {} moves from {start} has no neighbour one move closer",
                    stats.expanded - 1
                )));
            };
            if let Some(m) = moves.as_deref_mut() {
                m.push(st.dir.expect("successors carry their move"));
            }
            (b, s, idx, k) = (st.blank, st.seq, st.index, want);
        }
        Ok(stats)
    }

    /// The distance of `board` from the goal; `None` if it cannot reach it, is of
    /// another size, or the table contradicts itself on the way (see
    /// [`solve`](DistanceTable::solve), which says why).
    pub fn distance(&self, board: &Board) -> Option<u32> {
        match precheck(board, &self.goal) {
            Ok(true) => Some(0),
            Ok(false) => self.descend(board, None).ok().map(|s| s.expanded as u32),
            Err(_) => None,
        }
    }

    /// A shortest solution for `start`, by stepping to a neighbour one move closer until
    /// the goal; [`SearchError::Inconsistent`] if the table contradicts itself.
    pub fn solve(&self, start: &Board) -> Result<Solution, SearchError> {
        let watch = Watch::new(&Limits {
            max_memory: u64::MAX,
            time_limit: None,
            cancel: None,
            max_nodes: None,
        });
        precheck(start, &self.goal)?;
        let mut moves = Vec::new();
        let mut stats = self.descend(start, Some(&mut moves))?;
        stats.peak_stored = self.states();
        stats.elapsed = watch.elapsed();
        Ok(Solution { moves, stats })
    }

    /// The table as file bytes: magic, version, size, goal, histogram, the bits, and a
    /// checksum of all that precedes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = self.size();
        let mut out = Vec::with_capacity(64 + self.phase.len() * 4);
        out.extend_from_slice(TABLE_MAGIC);
        out.extend_from_slice(&TABLE_VERSION.to_le_bytes());
        out.push(size.width() as u8);
        out.push(size.height() as u8);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(self.goal.cells());
        out.extend_from_slice(&(self.histogram.len() as u32).to_le_bytes());
        for h in &self.histogram {
            out.extend_from_slice(&h.to_le_bytes());
        }
        out.extend_from_slice(&(self.phase.len() as u64).to_le_bytes());
        for w in &self.phase {
            out.extend_from_slice(&w.to_le_bytes());
        }
        seal(&mut out);
        out
    }

    /// Reads a table from file bytes, checking everything: magic, version, that the goal
    /// is a board, lengths, the checksum, and that the histogram adds up to the size's
    /// state count.
    pub fn from_bytes(bytes: &[u8]) -> Result<DistanceTable, FileError> {
        check_header(bytes, TABLE_MAGIC, TABLE_VERSION)?;
        let body = check_trailer(bytes)?;
        let mut r = Reader::new(body);
        r.take(12)?;
        let dims = r.take(4)?;
        let size = Size::new(dims[0] as usize, dims[1] as usize)
            .map_err(|e| FileError::Invalid(format!("size: {e}")))?;
        let goal = Board::from_cells(size, r.take(size.cells())?.to_vec())
            .map_err(|e| FileError::Invalid(format!("goal: {e}")))?;
        let hlen = r.u32()? as usize;
        if hlen == 0 || hlen > 1000 {
            return Err(FileError::Invalid(format!(
                "expected 1 to 1000 depths, found {hlen}"
            )));
        }
        let histogram: Vec<u64> = (0..hlen).map(|_| r.u64()).collect::<Result<_, _>>()?;
        let ix = Indexer::new(&goal).map_err(|e| FileError::Invalid(e.to_string()))?;
        let words = r.u64()?;
        let want = ix.states().div_ceil(32);
        if words != want {
            return Err(FileError::Invalid(format!(
                "expected {want} words of bits for {size}, found {words}"
            )));
        }
        if histogram.iter().sum::<u64>() != ix.states() {
            return Err(FileError::Invalid(format!(
                "expected the histogram to count {} states, found {}",
                ix.states(),
                histogram.iter().sum::<u64>()
            )));
        }
        let raw = r.take(words as usize * 4)?;
        let phase = raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if r.pos != body.len() {
            return Err(FileError::Invalid(format!(
                "expected {} bytes, found {}",
                r.pos + 8,
                bytes.len()
            )));
        }
        Ok(DistanceTable {
            goal,
            ix,
            phase,
            histogram,
        })
    }

    /// Writes the table to `path` atomically (a temporary file, then a rename).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        write_atomic(path, &self.to_bytes())
    }

    /// Reads a table from `path`.
    pub fn load(path: &Path) -> Result<DistanceTable, FileError> {
        let bytes = std::fs::read(path).map_err(|e| FileError::Io {
            path: path.display().to_string(),
            error: e.to_string(),
        })?;
        DistanceTable::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_round_trip_and_corruption() {
        let goal: Board = "1 2 3/8 0 4/7 6 5".parse().unwrap();
        let t = DistanceTable::build(&goal, &Limits::default()).unwrap();
        let bytes = t.to_bytes();
        let back = DistanceTable::from_bytes(&bytes).unwrap();
        assert_eq!(back.histogram(), t.histogram());
        assert_eq!(back.goal(), &goal);
        let b: Board = "2 8 3/1 6 4/7 0 5".parse().unwrap();
        assert_eq!(back.distance(&b), t.distance(&b));
        // Every flipped byte is caught: by the magic, the version or the checksum.
        for pos in [0, 9, 20, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[pos] ^= 0x40;
            assert!(DistanceTable::from_bytes(&bad).is_err(), "byte {pos}");
        }
        // A forged table: every distance bit cleared and the checksum made to match. It
        // loads (its form is sound), but solving says it contradicts itself; no panic.
        let mut forged = bytes.clone();
        let body = forged.len() - 8;
        let words = t.memory() as usize;
        for b in &mut forged[body - words..body] {
            *b = 0;
        }
        let sum = crate::files::checksum(&forged[..body]);
        forged[body..].copy_from_slice(&sum.to_le_bytes());
        let lie = DistanceTable::from_bytes(&forged).unwrap();
        let e = lie.solve(&b).unwrap_err();
        assert!(matches!(e, SearchError::Inconsistent { .. }), "{e}");
        assert_eq!(lie.distance(&b), None);
        assert_eq!(lie.distance(&goal), Some(0));
        for len in [0, 5, 12, bytes.len() - 1] {
            assert!(
                DistanceTable::from_bytes(&bytes[..len]).is_err(),
                "length {len}"
            );
        }
    }
}
