use crate::error::DatabaseError;
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
pub(crate) const TABLE_MAGIC: &[u8; 8] = b"NPZTABLE";
/// The table file format version this build writes and reads.
pub(crate) const TABLE_VERSION: u32 = 1;

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
                    ..
                } => SearchError::MemoryLimit {
                    algorithm: "table",
                    size,
                    needed,
                    limit,
                    suggestion: "idastar",
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
            progress: None,
            trace: None,
        });
        precheck(start, &self.goal)?;
        let mut moves = Vec::new();
        let mut stats = self.descend(start, Some(&mut moves))?;
        stats.peak_stored = self.states();
        stats.elapsed = watch.elapsed();
        Ok(Solution { moves, stats })
    }

    /// Checks every state against its neighbours, in one pass on `threads` threads (0:
    /// all cores): the goal is 0, every neighbour of a state is one move nearer or one
    /// farther (never two, as the two bits kept of each distance tell), and every state
    /// but the goal has a neighbour one move nearer. It catches most forged bits, not
    /// all: a distance kept modulo 4 can be off by 2 or 4 with every neighbour still
    /// agreeing, so [`verify`](DistanceTable::verify) follows it with a search.
    ///
    /// ```
    /// use npuzzle::{Board, DistanceTable, Limits};
    /// let goal = Board::solved("3x2".parse().unwrap());
    /// let table = DistanceTable::build(&goal, &Limits::default()).unwrap();
    /// assert!(table.check_consistent(1).is_ok());
    /// ```
    pub fn check_consistent(&self, threads: usize) -> Result<(), DatabaseError> {
        use std::sync::atomic::{AtomicU64, Ordering};
        let first_bad = AtomicU64::new(u64::MAX);
        let states = self.ix.states();
        let goal = self.ix.goal_index();
        crate::limits::run_chunks(
            crate::limits::resolve_threads(threads),
            states as usize,
            1 << 14,
            |lo, hi| {
                let mut steps = [Step::default(); 4];
                for idx in lo as u64..hi as u64 {
                    let (b, seq) = self.ix.decode(idx);
                    let k = self.mod4(b, idx);
                    let n = self.ix.successors(b, seq, idx, &mut steps);
                    let mut nearer = idx == goal && k == 0;
                    let mut sound = idx != goal || k == 0;
                    for st in &steps[..n] {
                        let m = self.mod4(st.blank, st.index);
                        nearer |= m == (k + 3) % 4;
                        sound &= m != k && m != (k + 2) % 4;
                    }
                    if !(nearer && sound) {
                        first_bad.fetch_min(idx, Ordering::Relaxed);
                        return (1, 0);
                    }
                }
                (0, 0)
            },
        );
        match first_bad.into_inner() {
            u64::MAX => Ok(()),
            idx => {
                let (b, seq) = self.ix.decode(idx);
                Err(DatabaseError::Unsound(format!(
                    "expected distances that a breadth-first search could have written, found \
                     {} contradicted by its neighbours (forged or corrupt)",
                    self.ix.board(b, seq)
                )))
            }
        }
    }

    /// Proves the table right: the quick pass of
    /// [`check_consistent`](DistanceTable::check_consistent), then the breadth-first
    /// search that built it, run again within `limits`, and every state compared. It
    /// costs what a build costs (milliseconds for 3x3, about a minute for the 12-cell
    /// sizes on two cores), which is why [`load`](DistanceTable::load) runs it only on a
    /// file it has not seen.
    ///
    /// ```
    /// use npuzzle::{Board, DistanceTable, Limits};
    /// let goal = Board::solved("3x2".parse().unwrap());
    /// let table = DistanceTable::build(&goal, &Limits::default()).unwrap();
    /// assert!(table.verify(&Limits::default()).is_ok());
    /// ```
    pub fn verify(&self, limits: &Limits) -> Result<(), DatabaseError> {
        self.check_consistent(0)?;
        let sound = DistanceTable::build(&self.goal, limits).map_err(DatabaseError::Unchecked)?;
        let states = self.ix.states();
        let differs = (0..self.phase.len()).find(|&w| {
            let valid = (states - 32 * w as u64).min(32);
            let mask = if valid == 32 {
                u32::MAX
            } else {
                (1u32 << valid) - 1
            };
            (self.phase[w] ^ sound.phase[w]) & mask != 0
        });
        if let Some(w) = differs {
            let bit = (self.phase[w] ^ sound.phase[w]).trailing_zeros() as u64;
            let (b, seq) = self.ix.decode(32 * w as u64 + bit);
            return Err(DatabaseError::Unsound(format!(
                "expected the distances of a breadth-first search, found another for {} \
                 (forged or corrupt)",
                self.ix.board(b, seq)
            )));
        }
        if self.histogram != sound.histogram {
            return Err(DatabaseError::Unsound(format!(
                "expected the histogram {:?}, found {:?} (forged or corrupt)",
                sound.histogram, self.histogram
            )));
        }
        Ok(())
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
        if hlen == 0 || hlen > MAX_DEPTHS {
            return Err(FileError::Invalid(format!(
                "expected 1 to {MAX_DEPTHS} depths, found {hlen}"
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

    /// Writes the table to `path` atomically (a temporary file, then a rename), with the
    /// stamp that spares [`load`](DistanceTable::load) its proof. Something other than a
    /// regular file at `path` (a FIFO, a folder) is an error, never replaced.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        if let Ok(m) = std::fs::metadata(path) {
            if !m.is_file() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "expected a regular file or none, found {} in its place",
                        crate::files::kind_in_words(m.file_type())
                    ),
                ));
            }
        }
        let bytes = self.to_bytes();
        write_atomic(path, &bytes)?;
        if let (Some(seal), Ok(meta)) = (crate::files::stored_seal(&bytes), std::fs::metadata(path))
        {
            crate::files::write_stamp(path, &meta, seal);
        }
        Ok(())
    }

    /// The length a table file must have, from its first bytes (at least its header:
    /// magic, version, size, goal, histogram and word count), checked before the rest is
    /// read: a large file of something else is refused at once.
    fn file_len_from_header(head: &[u8]) -> Result<u64, FileError> {
        check_header(head, TABLE_MAGIC, TABLE_VERSION)?;
        let mut r = Reader::new(head);
        r.take(12)?;
        let dims = r.take(4)?;
        let size = Size::new(dims[0] as usize, dims[1] as usize)
            .map_err(|e| FileError::Invalid(format!("size: {e}")))?;
        let goal = Board::from_cells(size, r.take(size.cells())?.to_vec())
            .map_err(|e| FileError::Invalid(format!("goal: {e}")))?;
        let hlen = r.u32()? as usize;
        if hlen == 0 || hlen > MAX_DEPTHS {
            return Err(FileError::Invalid(format!(
                "expected 1 to {MAX_DEPTHS} depths, found {hlen}"
            )));
        }
        r.take(hlen * 8)?;
        let words = r.u64()?;
        let ix = Indexer::new(&goal).map_err(|e| FileError::Invalid(e.to_string()))?;
        let want = ix.states().div_ceil(32);
        if words != want {
            return Err(FileError::Invalid(format!(
                "expected {want} words of bits for {size}, found {words}"
            )));
        }
        Ok(r.pos as u64 + 4 * words + 8)
    }

    /// Reads a table from `path`. Its header is checked first (a file of another kind,
    /// or of another length than its header says, is refused before the rest is read).
    /// A file that [`save`](DistanceTable::save) did not write here (its stamp beside
    /// it, `NAME.checked`, names another file, or the file changed since) is proven by
    /// [`verify`](DistanceTable::verify) within `Limits::default()` on its first load,
    /// and stamped if sound: a forged file, sealed with a valid checksum, is refused.
    pub fn load(path: &Path) -> Result<DistanceTable, FileError> {
        use std::io::Read;
        let io = crate::files::io_error(path);
        let mut file = crate::files::open_regular(path).map_err(io)?;
        // Taken before the bytes are read: a change made while they are read gives the
        // file another change time than the stamp will record.
        let meta = file.metadata().map_err(io)?;
        let mut head = Vec::new();
        file.by_ref()
            .take(HEADER_MAX as u64)
            .read_to_end(&mut head)
            .map_err(io)?;
        let want = DistanceTable::file_len_from_header(&head)?;
        if meta.len() != want {
            return Err(if meta.len() < want {
                FileError::Truncated {
                    expected: want,
                    found: meta.len(),
                }
            } else {
                FileError::Invalid(format!("expected {want} bytes, found {}", meta.len()))
            });
        }
        let mut bytes = head;
        bytes
            .try_reserve_exact((want as usize).saturating_sub(bytes.len()))
            .map_err(|_| FileError::Invalid(format!("cannot allocate {want} bytes")))?;
        file.by_ref()
            .take(want - bytes.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let table = DistanceTable::from_bytes(&bytes)?;
        let seal = crate::files::stored_seal(&bytes);
        if !seal.is_some_and(|s| crate::files::stamp_matches(path, &meta, s)) {
            table
                .verify(&Limits::default())
                .map_err(|e| FileError::Invalid(e.to_string()))?;
            if let Some(s) = seal {
                crate::files::write_stamp(path, &meta, s);
            }
        }
        Ok(table)
    }
}

/// The most depths a table's histogram holds.
const MAX_DEPTHS: usize = 1000;
/// The longest header a table file has: magic and version, size, goal, histogram, word
/// count.
const HEADER_MAX: usize = 12 + 4 + 256 + 4 + 8 * MAX_DEPTHS + 8;

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
        assert!(lie.check_consistent(1).is_err());
    }

    /// Flipped bits sealed again: the quick pass finds most, the proof every one, and
    /// `load` refuses such a file (naming why) while the sound file loads.
    #[test]
    fn forged_tables_fail_the_consistency_pass() {
        let goal = Board::solved("3x3".parse().unwrap());
        let t = DistanceTable::build(&goal, &Limits::default()).unwrap();
        t.check_consistent(2).unwrap();
        let bytes = t.to_bytes();
        let body = bytes.len() - 8;
        let start = body - t.memory() as usize;
        let reseal = |mut b: Vec<u8>| {
            let sum = crate::files::checksum(&b[..body]);
            b[body..].copy_from_slice(&sum.to_le_bytes());
            b
        };
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        // Bits past the last state are padding and change nothing.
        let state_bits = t.states() as usize;
        // The quick pass alone catches most single flipped bits.
        let mut caught = 0;
        for _ in 0..200 {
            let bit = next() as usize % state_bits;
            let mut b = bytes.clone();
            b[start + bit / 8] ^= 1 << (bit % 8);
            let forged = DistanceTable::from_bytes(&reseal(b)).unwrap();
            caught += usize::from(forged.check_consistent(1).is_err());
        }
        assert!(caught >= 100, "{caught} of 200");
        let mut b = bytes.clone();
        for _ in 0..20 {
            let bit = next() as usize % state_bits;
            b[start + bit / 8] ^= 1 << (bit % 8);
        }
        let dir = std::env::temp_dir().join(format!("npuzzle-forged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("table.npz");
        std::fs::write(&path, reseal(b)).unwrap();
        let e = DistanceTable::load(&path).unwrap_err();
        assert!(e.to_string().contains("forged or corrupt"), "{e}");
        // Every single flipped bit, sealed again, fails the proof.
        for bit in (0..state_bits).step_by(997) {
            let mut b = bytes.clone();
            b[start + bit / 8] ^= 1 << (bit % 8);
            let forged = DistanceTable::from_bytes(&reseal(b)).unwrap();
            assert!(forged.verify(&Limits::default()).is_err(), "bit {bit}");
        }
        t.save(&path).unwrap();
        assert!(DistanceTable::load(&path).is_ok());
        assert!(dir.join("table.npz.checked").exists());
        // The stamp belongs to the sound file: a forged one put in its place is checked.
        let mut b = bytes.clone();
        b[start] ^= 1;
        std::fs::write(&path, reseal(b)).unwrap();
        assert!(DistanceTable::load(&path).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
