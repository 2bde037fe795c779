//! Additive disjoint pattern databases.
//!
//! A pattern is a set of tiles. Its database holds, for every placement of those tiles,
//! the fewest moves **of pattern tiles** needed to bring them home, the other tiles being
//! indistinguishable and free to move. Because each database counts only moves of its own
//! tiles, the values of databases over disjoint patterns add up to a lower bound on the
//! solution length (Korf & Felner).
//!
//! A **zero-aware** database ([`PatternDb::build_zero_aware`], after Clausecker's
//! zero-aware pattern databases) also knows where the blank is: the fewest pattern-tile
//! moves can depend on which region of free cells the blank stands in (the cells it reaches
//! without moving a pattern tile). Each entry keeps the plain value (the least over the
//! regions) and one bit per cell: set where the blank's region needs more. Every move of
//! a pattern tile changes the parity of its row plus column, so every way to the goal
//! from a placement takes the same parity of pattern-tile moves, whatever the blank's
//! region: a region that needs more than the plain value needs at least two more, and a
//! set bit is worth two moves. The sums stay additive (each database still counts only
//! its own tiles' moves) and cost the search nothing more than the plain lookup: a move
//! changes only the moved tile's databases, the blank staying in the same region for
//! every other one.
//!
//! | module | what |
//! |---|---|
//! | `placement` | [`Placement`]: where a pattern's tiles stand, as a dense index |
//! | `build` | [`PatternDb::build`]: the 0-1 breadth-first search on the layered engine |
//! | `check` | [`PatternDb::check_consistent`]: the pass over the entries that finds forged files |
//! | `file` | the file format, checked loading ([`PatternDb::open`], [`Load`]) and [`PdbInfo`] |
//! | `image` | [`PatternDb::image`]: a database made from another by a symmetry of the board |
//! | `partition` | [`partition`]: preset and written-out groups of tiles |
//! | `additive` | [`PdbHeuristic`]: the sum over disjoint patterns, and its reflection |

mod additive;
mod build;
mod check;
mod file;
mod image;
mod partition;
mod placement;

use std::io;

use crate::board::Board;
use memmap2::{Mmap, MmapMut};
use std::sync::Arc;

pub use crate::layered::Progress as BuildProgress;
pub(crate) use additive::{check_partition_count, Side, NONE};
pub use additive::{PdbHeuristic, MAX_SIDES};
pub use build::{build_memory, build_memory_of, build_seconds};
pub use file::{
    cached_file, file_name, file_name_of, zero_aware_file_name, Load, PdbInfo, PROVE_ON_LOAD,
};
pub use image::is_image;
pub(crate) use partition::runs;
pub use partition::{check_pattern, left_out, partition, partitions, CATALOGUE_24, PRESETS};
pub use placement::Placement;

/// The largest board a pattern database indexes (cells).
pub const MAX_CELLS: usize = 64;
/// The most tiles in one pattern.
pub const MAX_TILES: usize = 12;
/// The most cells of a board a zero-aware database is built for: an entry is 32 bits, the
/// plain value in the low 7 bits and a bit per cell above them.
pub const ZERO_AWARE_MAX_CELLS: usize = 32 - ZERO_AWARE_VALUE_BITS as usize;
/// The bits of a zero-aware entry that hold the plain value (values up to 126; all set:
/// a placement no build reaches).
pub(crate) const ZERO_AWARE_VALUE_BITS: u32 = 7;
/// The plain value's bits of a zero-aware entry.
const VALUE_MASK: u32 = (1 << ZERO_AWARE_VALUE_BITS) - 1;

/// The zero-aware entry of plain value `value` (`u8::MAX`: never reached) whose regions
/// on the cells `bits` need more (two moves more, by parity).
pub(super) fn zero_aware_word(value: u8, bits: u32) -> u32 {
    if value == u8::MAX {
        VALUE_MASK
    } else {
        value as u32 | bits << ZERO_AWARE_VALUE_BITS
    }
}

/// Bytes an entry takes: 1, or 4 for a zero-aware database.
pub(super) fn entry_width(zero_aware: bool) -> usize {
    if zero_aware {
        4
    } else {
        1
    }
}

/// One pattern database: the tiles, the goal, and a byte per placement (four for a
/// zero-aware one, see the module's notes).
///
/// The entries live in memory of their own, asked of the system with huge pages where it
/// grants them (a lookup then rarely misses the address-translation cache: the 24-puzzle
/// search ran about 15% faster here), or in a read-only mapping of the file
/// ([`PatternDb::map`]). A clone shares the entries (the same memory or mapping).
#[derive(Debug, Clone)]
pub struct PatternDb {
    goal: Board,
    tiles: Vec<u8>,
    place: Placement,
    /// The entries are `data[start..start + width x place.count()]`.
    data: Arc<Mmap>,
    start: usize,
    /// Whether each entry is a zero-aware one (four bytes, little-endian).
    zero_aware: bool,
    /// Whether `data` maps the file read-only (rather than memory of its own).
    mapped: bool,
}

impl PatternDb {
    /// A database from its parts: `data[start..]` holds one entry per placement.
    fn from_parts(
        goal: Board,
        tiles: Vec<u8>,
        place: Placement,
        data: Mmap,
        start: usize,
        zero_aware: bool,
    ) -> PatternDb {
        PatternDb {
            goal,
            tiles,
            place,
            data: Arc::new(data),
            start,
            zero_aware,
            mapped: false,
        }
    }

    /// The same database with its entries copied into memory of its own (on huge pages
    /// where granted): what [`Load::Read`] gives, for one opened mapped.
    pub fn in_memory(&self) -> io::Result<PatternDb> {
        self.in_memory_by(COPY_PIECE)
    }

    /// [`in_memory`](Self::in_memory), copying `piece` bytes at a time.
    pub(crate) fn in_memory_by(&self, piece: usize) -> io::Result<PatternDb> {
        let entries = self.entries();
        let mut buf = huge_buffer(entries.len())?;
        // In pieces, each piece's mapped pages given back once copied: a table is never
        // held twice (a 7-tile zero-aware 24-puzzle table is 9.7 GB).
        let piece = piece.max(1);
        for at in (0..entries.len()).step_by(piece) {
            let end = (at + piece).min(entries.len());
            buf[at..end].copy_from_slice(&entries[at..end]);
            self.drop_pages_in(self.start + at, end - at);
        }
        let data = buf.make_read_only()?;
        Ok(PatternDb::from_parts(
            self.goal.clone(),
            self.tiles.clone(),
            self.place.clone(),
            data,
            0,
            self.zero_aware,
        ))
    }

    /// Whether the entries are the file mapped read-only ([`Load::Map`]) rather than
    /// memory of their own ([`Load::Read`], or built).
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::PatternDb;
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let db = PatternDb::build(&goal, &[1, 2, 3, 4], &Limits::default(), 1, &mut |_| {});
    /// assert!(!db.unwrap().is_mapped());
    /// ```
    pub fn is_mapped(&self) -> bool {
        self.mapped
    }

    /// For a database mapped from its file: lets the system take back the pages read so
    /// far (the checksum reads them all when it is opened). They stay in the file and
    /// come back on the next read; memory of its own is left alone.
    pub(crate) fn drop_pages(&self) {
        self.drop_pages_in(0, self.data.len());
    }

    /// [`drop_pages`](Self::drop_pages) for the `len` bytes of the mapping from `offset`
    /// (widened to whole pages: a page partly outside is read again when next needed).
    fn drop_pages_in(&self, offset: usize, len: usize) {
        if self.mapped && len > 0 {
            #[allow(unsafe_code)]
            // SAFETY: the mapping is of a file, read-only and shared (see
            // `PatternDb::map`): after this advice its pages are read again from the file,
            // whose contents npuzzle never changes in place, so every later read sees the
            // same bytes. (On memory of its own the advice would lose the entries: it is
            // never given there.)
            let _ = unsafe {
                self.data
                    .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, offset, len)
            };
        }
    }

    /// Whether `self` and `other` share their entries (one is a clone of the other).
    pub(crate) fn shares_entries(&self, other: &PatternDb) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }

    /// Bytes an entry takes: 1, or 4 for a zero-aware database.
    #[inline(always)]
    fn width(&self) -> usize {
        entry_width(self.zero_aware)
    }

    /// The entry at an index as its plain value (`u8::MAX` where no build reaches) and
    /// the cells whose regions need more: two moves, by parity (none for a plain
    /// database).
    pub(super) fn entry(&self, idx: u64) -> (u8, u32) {
        if !self.zero_aware {
            return (self.at(idx), 0);
        }
        let w = self.word(idx);
        match w & VALUE_MASK {
            VALUE_MASK => (u8::MAX, 0),
            v => (v as u8, w >> ZERO_AWARE_VALUE_BITS),
        }
    }

    /// The zero-aware entry at an index (a zero-aware database only).
    #[inline(always)]
    fn word(&self, idx: u64) -> u32 {
        let at = self.start + 4 * idx as usize;
        match self.data.get(at..at + 4) {
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            _ => panic!("index {idx} out of range of {} entries", self.len()),
        }
    }
}

/// Bytes [`PatternDb::in_memory`] copies before it gives the mapped pages back.
const COPY_PIECE: usize = 64 << 20;

/// Anonymous memory holding `len` bytes, with huge pages asked for.
pub(super) fn huge_buffer(len: usize) -> io::Result<MmapMut> {
    let buf = MmapMut::map_anon(len.max(1))?;
    // Only advice: without it (or where it is refused) the pages are ordinary.
    #[cfg(target_os = "linux")]
    let _ = buf.advise(memmap2::Advice::HugePage);
    Ok(buf)
}

/// Fills `out`, entries of `width` bytes, on `threads` threads, each taking an equal run
/// of entries: `f(index, entry)` for every entry.
pub(super) fn fill_entries(
    out: &mut [u8],
    width: usize,
    threads: usize,
    f: impl Fn(u64, &mut [u8]) + Sync,
) {
    let count = out.len() / width;
    let per = count.div_ceil(threads.max(1)).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        for (part, run) in out[..width * count].chunks_mut(per * width).enumerate() {
            scope.spawn(move || {
                for (i, entry) in run.chunks_exact_mut(width).enumerate() {
                    f((part * per + i) as u64, entry);
                }
            });
        }
    });
}

/// `bytes` copied into read-only memory of their own, on huge pages where granted.
pub(super) fn huge_copy(bytes: &[u8]) -> io::Result<Mmap> {
    let mut buf = huge_buffer(bytes.len())?;
    buf[..bytes.len()].copy_from_slice(bytes);
    buf.make_read_only()
}

impl PatternDb {
    /// The tiles of the pattern, in index order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The entries' bytes in index order: one byte per placement, or for a zero-aware
    /// database four (a little-endian word: the plain value in the low
    /// 7 bits, then a bit per cell, set where the blank's region needs
    /// more: two moves, by parity).
    pub fn entries(&self) -> &[u8] {
        &self.data[self.start..self.start + self.width() * self.place.count() as usize]
    }

    /// The number of entries (placements).
    pub fn len(&self) -> usize {
        self.place.count() as usize
    }

    /// Whether the database has no entries (never: a pattern has at least one placement).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the entries know the blank's region (see the module's notes).
    pub fn is_zero_aware(&self) -> bool {
        self.zero_aware
    }

    /// The placement indexing.
    pub fn placement(&self) -> &Placement {
        &self.place
    }

    /// The plain value at an index: the fewest pattern-tile moves wherever the blank is.
    #[inline(always)]
    pub fn at(&self, idx: u64) -> u8 {
        if self.zero_aware {
            self.data[self.start + 4 * idx as usize] & VALUE_MASK as u8
        } else {
            self.data[self.start + idx as usize]
        }
    }

    /// The value at an index with the blank on cell `blank` (a free cell of that
    /// placement): two more than [`at`](Self::at) where a zero-aware database knows the
    /// blank's region needs more (by parity, see the [module notes](self)); the plain
    /// value otherwise.
    #[inline(always)]
    pub fn at_blank(&self, idx: u64, blank: usize) -> u32 {
        if self.zero_aware {
            let w = self.word(idx);
            (w & VALUE_MASK) + (((w >> (ZERO_AWARE_VALUE_BITS as usize + blank)) & 1) << 1)
        } else {
            self.data[self.start + idx as usize] as u32
        }
    }

    /// Asks the processor to start fetching the entry at `idx` into its cache. Only a
    /// hint: it changes no result, and an index out of range is harmless.
    #[inline(always)]
    pub fn prefetch(&self, idx: u64) {
        prefetch(&self.data, self.start + self.width() * idx as usize);
    }

    /// The lower bound for `board` (same size and goal assumed), with the blank's
    /// region where the database knows it.
    pub fn value(&self, board: &Board) -> u32 {
        let pos: Vec<u8> = self
            .tiles
            .iter()
            .map(|&t| {
                board
                    .cells()
                    .iter()
                    .position(|&c| c == t)
                    .expect("tile present") as u8
            })
            .collect();
        self.at_blank(self.place.index(&pos), board.blank())
    }

    /// The largest value in the database (with the blank anywhere), over the placements
    /// a build reaches.
    pub fn max_value(&self) -> u8 {
        (0..self.len() as u64)
            .map(|i| self.entry(i))
            .filter(|&(v, _)| v != u8::MAX)
            .map(|(v, bits)| v + u8::from(bits != 0))
            .max()
            .unwrap_or(0)
    }
}

/// Asks the processor to start fetching `data[at]` into its cache. Only a hint: it changes
/// no result, and an index out of range is harmless.
#[inline(always)]
pub(crate) fn prefetch<T>(data: &[T], at: usize) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: SSE is part of the x86-64 baseline, so the instruction exists; a prefetch
    // reads nothing architecturally and never faults, whatever the address (the pointer
    // is formed with wrapping arithmetic and never dereferenced).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(data.as_ptr().wrapping_add(at).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, at);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    /// A mapped database copied into memory piece by piece, its mapped pages given back
    /// after each piece (pieces that end inside a page included), keeps every entry.
    #[test]
    fn copies_in_pieces_keep_every_entry() {
        let goal = Board::solved("4x3".parse().unwrap());
        let lim = Limits::default();
        let built =
            PatternDb::build_zero_aware(&goal, &[1, 2, 5, 6], &lim, 1, &mut |_| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("npuzzle-pieces-{}", std::process::id()));
        let path = dir.join("db.za.npz");
        std::fs::create_dir_all(&dir).unwrap();
        built.save(&path).unwrap();
        let mapped = PatternDb::map(&path).unwrap();
        assert!(mapped.is_mapped());
        for piece in [1, 4093, 4096, 1 << 20] {
            let copy = mapped.in_memory_by(piece).unwrap();
            assert!(!copy.is_mapped());
            assert!(copy.entries() == built.entries(), "piece {piece}");
            // The mapping still reads the same after its pages were given back.
            assert!(mapped.entries() == built.entries(), "piece {piece}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
