//! Additive disjoint pattern databases.
//!
//! A pattern is a set of tiles. Its database holds, for every placement of those tiles,
//! the fewest moves **of pattern tiles** needed to bring them home, the other tiles being
//! indistinguishable and free to move. Because each database counts only moves of its own
//! tiles, the values of databases over disjoint patterns add up to a lower bound on the
//! solution length (Korf & Felner).
//!
//! | module | what |
//! |---|---|
//! | `placement` | [`Placement`]: where a pattern's tiles stand, as a dense index |
//! | `build` | [`PatternDb::build`]: the 0-1 breadth-first search on the layered engine |
//! | `check` | [`PatternDb::check_consistent`]: the pass over the entries that finds forged files |
//! | `file` | the file format, checked loading ([`PatternDb::open`], [`Load`]) and [`PdbInfo`] |
//! | `partition` | [`partition`]: preset and written-out groups of tiles |
//! | `additive` | [`PdbHeuristic`]: the sum over disjoint patterns, and its reflection |

mod additive;
mod build;
mod check;
mod file;
mod partition;
mod placement;

use std::io;

use crate::board::Board;
use memmap2::{Mmap, MmapMut};
use std::sync::Arc;

pub use crate::layered::Progress as BuildProgress;
pub(crate) use additive::{check_partition_count, Side, NONE};
pub use additive::{PdbHeuristic, MAX_SIDES};
pub use build::build_memory;
pub use file::{file_name, Load, PdbInfo, PDB_MAGIC, PDB_VERSION};
pub use partition::{check_pattern, partition, partitions, CATALOGUE_24, PRESETS};
pub use placement::Placement;

/// The largest board a pattern database indexes (cells).
pub const MAX_CELLS: usize = 64;
/// The most tiles in one pattern.
pub const MAX_TILES: usize = 12;

/// One pattern database: the tiles, the goal, and a byte per placement.
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
    /// The entries are `data[start..start + place.count()]`.
    data: Arc<Mmap>,
    start: usize,
}

impl PatternDb {
    /// A database from its parts: `data[start..]` holds one entry per placement.
    fn from_parts(
        goal: Board,
        tiles: Vec<u8>,
        place: Placement,
        data: Mmap,
        start: usize,
    ) -> PatternDb {
        PatternDb {
            goal,
            tiles,
            place,
            data: Arc::new(data),
            start,
        }
    }
}

/// Anonymous memory holding `len` bytes, with huge pages asked for.
pub(super) fn huge_buffer(len: usize) -> io::Result<MmapMut> {
    let buf = MmapMut::map_anon(len.max(1))?;
    // Only advice: without it (or where it is refused) the pages are ordinary.
    #[cfg(target_os = "linux")]
    let _ = buf.advise(memmap2::Advice::HugePage);
    Ok(buf)
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

    /// The entries, one byte per placement in index order.
    pub fn entries(&self) -> &[u8] {
        &self.data[self.start..self.start + self.place.count() as usize]
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether the database has no entries (never: a pattern has at least one placement).
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The placement indexing.
    pub fn placement(&self) -> &Placement {
        &self.place
    }

    /// The value at an index.
    #[inline(always)]
    pub fn at(&self, idx: u64) -> u8 {
        self.data[self.start + idx as usize]
    }

    /// Asks the processor to start fetching the entry at `idx` into its cache. Only a
    /// hint: it changes no result, and an index out of range is harmless.
    #[inline(always)]
    pub fn prefetch(&self, idx: u64) {
        prefetch(&self.data, self.start + idx as usize);
    }

    /// The lower bound for `board` (same size and goal assumed).
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
        self.at(self.place.index(&pos)) as u32
    }

    /// The largest value in the database.
    pub fn max_value(&self) -> u8 {
        self.entries().iter().copied().max().unwrap_or(0)
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
