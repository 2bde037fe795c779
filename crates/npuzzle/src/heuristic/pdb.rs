//! Additive disjoint pattern databases.
//!
//! A pattern is a set of tiles. Its database holds, for every placement of those tiles,
//! the fewest moves **of pattern tiles** needed to bring them home, the other tiles being
//! indistinguishable and free to move. Because each database counts only moves of its own
//! tiles, the values of databases over disjoint patterns add up to a lower bound on the
//! solution length (Korf & Felner).
//!
//! Building is a breadth-first search over (placement, blank cell) in which moves of other
//! tiles cost nothing: every state is kept with its whole blank region (the empty cells the
//! blank can reach without moving a pattern tile), so each layer holds states of one cost.
//! Two bits per (placement, free cell) track the search as in
//! [`analysis`](crate::analysis); one byte per placement holds the result.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, Size};
use crate::cache::checksum;
use crate::error::{human_bytes, FileError, SearchError};
use crate::search::{Limits, Watch};
use memmap2::{Mmap, MmapMut};

/// The largest board a pattern database indexes (cells).
pub const MAX_CELLS: usize = 64;
/// The most tiles in one pattern.
pub const MAX_TILES: usize = 12;

const LO: u64 = 0x5555_5555_5555_5555;
const UNSEEN: u8 = u8::MAX;

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
        if self.n <= 32 {
            // Nibble counters: (below >> 4p) & 15 counts the used cells under p. Three
            // times faster than a software population count (no POPCNT in baseline
            // x86-64); it took the 7-8 build from 347 s to LATER.
            const ONES: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;
            let mut below = 0u128;
            let mut idx = 0u64;
            for (i, &p) in pos.iter().enumerate() {
                let smaller = ((below >> (4 * p as u32)) & 15) as u64;
                idx += (p as u64 - smaller) * self.weight[i];
                below = below.wrapping_add((ONES << (4 * p as u32)) << 4);
            }
            return idx;
        }
        let mut used = 0u64;
        let mut idx = 0u64;
        for (i, &p) in pos.iter().enumerate() {
            let below = used & ((1u64 << p) - 1);
            let d = p as u64 - popcount(below);
            idx += d * self.weight[i];
            used |= 1u64 << p;
        }
        idx
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
    pub fn unindex(&self, mut idx: u64, pos: &mut [u8]) {
        let mut free = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        for (i, &wt) in self.weight.iter().enumerate() {
            let d = idx / wt;
            idx -= d * wt;
            let mut f = free;
            for _ in 0..d {
                f &= f - 1;
            }
            let p = f.trailing_zeros();
            pos[i] = p as u8;
            free &= !(1u64 << p);
        }
    }
}

/// Population count without relying on the POPCNT instruction (not in baseline x86-64).
#[inline(always)]
fn popcount(mut x: u64) -> u64 {
    x -= (x >> 1) & 0x5555_5555_5555_5555;
    x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    x = (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    x.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// Progress of a database build, reported after each layer.
#[derive(Debug, Clone, Copy)]
pub struct BuildProgress {
    /// The cost whose placements were just found.
    pub depth: u32,
    /// Placements valued so far.
    pub found: u64,
    /// Placements in all.
    pub total: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// One pattern database: the tiles, the goal, and a byte per placement.
///
/// The entries live in memory of their own, asked of the system with huge pages where it
/// grants them (a lookup then rarely misses the address-translation cache: the 24-puzzle
/// search ran about 15% faster here), or in a read-only mapping of the file
/// ([`PatternDb::map`]).
#[derive(Debug)]
pub struct PatternDb {
    goal: Board,
    tiles: Vec<u8>,
    place: Placement,
    /// The entries are `data[start..start + place.count()]`.
    data: Mmap,
    start: usize,
}

impl Clone for PatternDb {
    fn clone(&self) -> PatternDb {
        PatternDb {
            goal: self.goal.clone(),
            tiles: self.tiles.clone(),
            place: self.place.clone(),
            data: huge_copy(self.entries()).expect("memory for a copy of a pattern database"),
            start: 0,
        }
    }
}

/// Anonymous memory holding `len` bytes, with huge pages asked for.
fn huge_buffer(len: usize) -> io::Result<MmapMut> {
    let buf = MmapMut::map_anon(len.max(1))?;
    // Only advice: without it (or where it is refused) the pages are ordinary.
    #[cfg(target_os = "linux")]
    let _ = buf.advise(memmap2::Advice::HugePage);
    Ok(buf)
}

/// `bytes` copied into read-only memory of their own, on huge pages where granted.
fn huge_copy(bytes: &[u8]) -> io::Result<Mmap> {
    let mut buf = huge_buffer(bytes.len())?;
    buf[..bytes.len()].copy_from_slice(bytes);
    buf.make_read_only()
}

/// How [`PatternDb::open`] brings a database file into memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Load {
    /// [`Map`](Load::Map) for boards of up to 16 cells, whose searches take milliseconds
    /// (loading dominates); [`Read`](Load::Read) for larger boards, whose searches take
    /// minutes (lookups dominate).
    #[default]
    Auto,
    /// Map the file read-only: starts at once, shares pages between processes.
    Map,
    /// Read into memory of its own on huge pages: slower to start (about 1 s for the
    /// 24-puzzle's 510 MB here), lookups about 15% faster.
    Read,
}

impl std::str::FromStr for Load {
    type Err = String;
    fn from_str(s: &str) -> Result<Load, String> {
        match s {
            "auto" => Ok(Load::Auto),
            "map" => Ok(Load::Map),
            "read" => Ok(Load::Read),
            _ => Err(format!("expected auto, map or read, found {s:?}")),
        }
    }
}

/// What a file's header says, once checked.
struct Header {
    goal: Board,
    tiles: Vec<u8>,
    place: Placement,
    /// Where the entries start.
    start: usize,
}

/// The first bytes of a pattern database file.
pub const PDB_MAGIC: &[u8; 8] = b"NPZPATDB";
/// The format version this build writes and reads.
pub const PDB_VERSION: u32 = 1;

/// Bytes a database of `k` tiles on `size` needs while it is built and after.
pub fn build_memory(size: Size, k: usize) -> u64 {
    let n = size.cells();
    let count = Placement::new(n, k).count() as f64;
    let bytes = count * (1.0 + (n - k) as f64 / 4.0);
    if bytes >= u64::MAX as f64 {
        u64::MAX
    } else {
        bytes as u64
    }
}

impl PatternDb {
    /// Builds the database of `tiles` towards `goal` on `threads` threads (0: all cores);
    /// `progress` is called after each layer.
    pub fn build(
        goal: &Board,
        tiles: &[u8],
        limits: &Limits,
        threads: usize,
        progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<PatternDb, SearchError> {
        let start = Instant::now();
        let watch = Watch::new(limits);
        let size = goal.size();
        let n = size.cells();
        let k = tiles.len();
        check_pattern(size, tiles).map_err(|reason| SearchError::Unsupported {
            algorithm: "pdb",
            reason,
        })?;
        let needed = build_memory(size, k);
        if needed > limits.max_memory {
            return Err(SearchError::MemoryLimit {
                algorithm: "pdb build",
                size,
                needed,
                limit: limits.max_memory,
                suggestion: "idastar with smaller patterns",
            });
        }
        let place = Placement::new(n, k);
        let count = place.count();
        let s = n - k;
        let slots = count * s as u64;
        let words = slots.div_ceil(32) as usize;
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |t| t.get()),
            t => t,
        };
        let threads = if count < 1 << 16 { 1 } else { threads };
        let marks: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
        let data: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(UNSEEN)).collect();
        let grid = Grid::new(size);

        // The goal placement with the blank's whole region.
        let mut home = vec![0u8; k];
        for (i, &t) in tiles.iter().enumerate() {
            home[i] = goal
                .cells()
                .iter()
                .position(|&c| c == t)
                .expect("tile on the goal") as u8;
        }
        let p0 = place.index(&home);
        let occupied = home.iter().fold(0u64, |m, &p| m | 1 << p);
        let region = grid.region(!occupied & grid.all, goal.blank());
        mark_region(&marks, p0, s, !occupied & grid.all, region, 1);
        data[p0 as usize].store(0, Ordering::Relaxed);
        let mut found = 1u64;
        let mut depth = 0u32;
        let ctx = Ctx {
            place: &place,
            grid: &grid,
            marks: &marks,
            data: &data,
            s,
            k,
        };
        loop {
            let (new_states, new_places) =
                run_pass(threads, words, |lo, hi| ctx.expand(lo, hi, depth as u8 + 1));
            if new_states == 0 {
                break;
            }
            depth += 1;
            run_pass(threads, words, |lo, hi| {
                advance(&marks, lo, hi);
                (0, 0)
            });
            found += new_places;
            progress(&BuildProgress {
                depth,
                found,
                total: count,
                elapsed: start.elapsed(),
            });
            if watch.expired() {
                return Err(SearchError::TimeLimit {
                    algorithm: "pdb build",
                    elapsed: watch.elapsed(),
                    lower_bound: depth,
                    expanded: found,
                });
            }
        }
        drop(marks);
        let data: Vec<u8> = data.into_iter().map(AtomicU8::into_inner).collect();
        let data = huge_copy(&data).map_err(|e| SearchError::Unsupported {
            algorithm: "pdb build",
            reason: format!("cannot allocate {}: {e}", human_bytes(data.len() as u64)),
        })?;
        Ok(PatternDb {
            goal: goal.clone(),
            tiles: tiles.to_vec(),
            place,
            data,
            start: 0,
        })
    }

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
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        // SAFETY: SSE is part of the x86-64 baseline, so the instruction exists; a
        // prefetch reads nothing architecturally and never faults, whatever the address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(
                self.data
                    .as_ptr()
                    .wrapping_add(self.start + idx as usize)
                    .cast(),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = idx;
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

    /// The database as file bytes: magic, version, size, goal, tiles, entries, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = self.goal.size();
        let mut out = Vec::with_capacity(64 + self.entries().len());
        out.extend_from_slice(PDB_MAGIC);
        out.extend_from_slice(&PDB_VERSION.to_le_bytes());
        out.push(size.width() as u8);
        out.push(size.height() as u8);
        out.push(self.tiles.len() as u8);
        out.push(0);
        out.extend_from_slice(self.goal.cells());
        out.extend_from_slice(&self.tiles);
        out.extend_from_slice(&(self.entries().len() as u64).to_le_bytes());
        out.extend_from_slice(self.entries());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a database from file bytes, checking magic, version, checksum, that the
    /// goal and tiles are sound and that the entry count fits them.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternDb, FileError> {
        let head = parse(bytes)?;
        let entries = &bytes[head.start..head.start + head.place.count() as usize];
        let data = huge_copy(entries).map_err(|e| {
            FileError::Invalid(format!(
                "cannot allocate {}: {e}",
                human_bytes(entries.len() as u64)
            ))
        })?;
        Ok(PatternDb::from_parts(Header { start: 0, ..head }, data))
    }

    /// A database from its checked header and the bytes holding its entries.
    fn from_parts(head: Header, data: Mmap) -> PatternDb {
        PatternDb {
            goal: head.goal,
            tiles: head.tiles,
            place: head.place,
            data,
            start: head.start,
        }
    }

    /// Opens the database in `path` as `how` says, checking it as
    /// [`from_bytes`](PatternDb::from_bytes) does.
    pub fn open(path: &Path, how: Load) -> Result<PatternDb, FileError> {
        match how {
            Load::Map => PatternDb::map(path),
            Load::Read => PatternDb::read(path),
            Load::Auto => {
                // The board's size is in the header: bytes 12 and 13.
                let mut head = [0u8; 14];
                let cells = File::open(path)
                    .and_then(|mut f| f.read_exact(&mut head))
                    .map(|_| head[12] as usize * head[13] as usize)
                    .unwrap_or(0);
                if cells > 16 {
                    PatternDb::read(path)
                } else {
                    PatternDb::map(path)
                }
            }
        }
    }

    /// Reads the database in `path` into memory of its own (one copy, on huge pages
    /// where the system grants them) and checks it as
    /// [`from_bytes`](PatternDb::from_bytes) does. The fastest for searching.
    pub fn read(path: &Path) -> Result<PatternDb, FileError> {
        let io = io_error(path);
        let mut file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let len = usize::try_from(len).map_err(|_| {
            FileError::Invalid(format!(
                "expected a file that fits in memory, found {len} bytes"
            ))
        })?;
        let mut buf = huge_buffer(len).map_err(io)?;
        file.read_exact(&mut buf[..len]).map_err(io)?;
        let data = buf.make_read_only().map_err(io)?;
        let head = parse(&data[..len])?;
        Ok(PatternDb::from_parts(head, data))
    }

    /// Maps the database in `path` read-only, checking it as
    /// [`from_bytes`](PatternDb::from_bytes) does: no copy, and processes mapping the
    /// same file share its pages.
    pub fn map(path: &Path) -> Result<PatternDb, FileError> {
        let io = io_error(path);
        let file = File::open(path).map_err(io)?;
        #[allow(unsafe_code)]
        // SAFETY: a mapping is undefined behaviour in Rust's terms only if the file
        // changes while mapped. npuzzle never changes a database file in place: it
        // writes a temporary file and renames it over the old name
        // (`cache::write_atomic`), and `pdb remove` unlinks; either way the mapped inode
        // stays as it was. Only another program writing into the file could break this,
        // as it could break any program reading it.
        let data = unsafe { Mmap::map(&file) }.map_err(io)?;
        let head = parse(&data)?;
        Ok(PatternDb::from_parts(head, data))
    }
}

/// Turns an I/O error on `path` into a [`FileError`] naming the file.
fn io_error(path: &Path) -> impl Fn(io::Error) -> FileError + Copy + '_ {
    move |e| FileError::Io {
        path: path.display().to_string(),
        error: e.to_string(),
    }
}

/// Checks file bytes: magic, version, checksum, that the goal and tiles are sound and
/// that the entry count fits them.
fn parse(bytes: &[u8]) -> Result<Header, FileError> {
    if bytes.len() < 24 {
        return Err(FileError::Truncated {
            expected: 24,
            found: bytes.len() as u64,
        });
    }
    if &bytes[..8] != PDB_MAGIC {
        return Err(FileError::BadMagic {
            expected: String::from_utf8_lossy(PDB_MAGIC).into_owned(),
            found: String::from_utf8_lossy(&bytes[..8]).into_owned(),
        });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != PDB_VERSION {
        return Err(FileError::Version {
            expected: PDB_VERSION,
            found: version,
        });
    }
    let body = &bytes[..bytes.len() - 8];
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let computed = checksum(body);
    if stored != computed {
        return Err(FileError::Checksum { stored, computed });
    }
    let size = Size::new(bytes[12] as usize, bytes[13] as usize)
        .map_err(|e| FileError::Invalid(format!("size: {e}")))?;
    let k = bytes[14] as usize;
    let n = size.cells();
    let mut pos = 16;
    let take = |pos: &mut usize, len: usize| -> Result<&[u8], FileError> {
        if body.len() < *pos + len {
            return Err(FileError::Truncated {
                expected: (*pos + len + 8) as u64,
                found: bytes.len() as u64,
            });
        }
        let s = &body[*pos..*pos + len];
        *pos += len;
        Ok(s)
    };
    let goal = Board::from_cells(size, take(&mut pos, n)?.to_vec())
        .map_err(|e| FileError::Invalid(format!("goal: {e}")))?;
    let tiles = take(&mut pos, k)?.to_vec();
    check_pattern(size, &tiles).map_err(FileError::Invalid)?;
    let len = u64::from_le_bytes(take(&mut pos, 8)?.try_into().expect("8 bytes"));
    let place = Placement::new(n, k);
    if len != place.count() {
        return Err(FileError::Invalid(format!(
            "expected {} entries for {k} tiles on {size}, found {len}",
            place.count()
        )));
    }
    let data_at = pos;
    take(&mut pos, len as usize)?;
    if pos != body.len() {
        return Err(FileError::Invalid(format!(
            "expected {} bytes, found {}",
            pos + 8,
            bytes.len()
        )));
    }
    Ok(Header {
        goal,
        tiles,
        place,
        start: data_at,
    })
}

/// Checks that `tiles` is a usable pattern on `size`: distinct tiles, none the blank, at
/// most [`MAX_TILES`], and a board of at most [`MAX_CELLS`] cells.
pub fn check_pattern(size: Size, tiles: &[u8]) -> Result<(), String> {
    let n = size.cells();
    if n > MAX_CELLS {
        return Err(format!(
            "{size} has {n} cells; pattern databases index at most {MAX_CELLS}"
        ));
    }
    if tiles.is_empty() || tiles.len() > MAX_TILES {
        return Err(format!(
            "expected 1 to {MAX_TILES} tiles in a pattern, found {}",
            tiles.len()
        ));
    }
    let mut seen = vec![false; n];
    for &t in tiles {
        if t == 0 || t as usize >= n {
            return Err(format!(
                "expected tiles 1 to {} in a pattern, found {t}",
                n - 1
            ));
        }
        if seen[t as usize] {
            return Err(format!(
                "expected each tile once in a pattern, found {t} twice"
            ));
        }
        seen[t as usize] = true;
    }
    Ok(())
}

/// Cell masks of a board for flood fills.
#[derive(Debug, Clone)]
struct Grid {
    w: usize,
    all: u64,
    not_left: u64,
    not_right: u64,
    neighbours: Vec<u64>,
}

impl Grid {
    fn new(size: Size) -> Grid {
        let (w, n) = (size.width(), size.cells());
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut not_left = all;
        let mut not_right = all;
        for r in 0..size.height() {
            not_left &= !(1u64 << (r * w));
            not_right &= !(1u64 << (r * w + w - 1));
        }
        let neighbours = (0..n)
            .map(|c| {
                let mut m = 0u64;
                if c % w > 0 {
                    m |= 1 << (c - 1);
                }
                if c % w + 1 < w {
                    m |= 1 << (c + 1);
                }
                if c >= w {
                    m |= 1 << (c - w);
                }
                if c + w < n {
                    m |= 1 << (c + w);
                }
                m
            })
            .collect();
        Grid {
            w,
            all,
            not_left,
            not_right,
            neighbours,
        }
    }

    /// The cells of `free` reachable from `from` through `free`.
    #[inline]
    fn region(&self, free: u64, from: usize) -> u64 {
        let mut reach = 1u64 << from;
        loop {
            let grown = reach
                | ((reach << 1) & self.not_left)
                | ((reach >> 1) & self.not_right)
                | (reach << self.w)
                | (reach >> self.w);
            let grown = grown & free & self.all;
            if grown == reach {
                return reach;
            }
            reach = grown;
        }
    }
}

/// The slot bits (2 per free cell, in cell order) with value `v` for the cells of `region`.
#[inline]
fn region_bits(free: u64, region: u64, v: u64) -> u128 {
    let mut bits = 0u128;
    let mut f = free;
    let mut j = 0;
    while f != 0 {
        let c = f & f.wrapping_neg();
        if region & c != 0 {
            bits |= (v as u128) << (2 * j);
        }
        f ^= c;
        j += 1;
    }
    bits
}

/// ORs the 2-bit value `v` into the slots of `region` for placement `p`.
fn mark_region(marks: &[AtomicU64], p: u64, s: usize, free: u64, region: u64, v: u64) -> u128 {
    let bits = region_bits(free, region, v);
    or_bits(marks, p * s as u64 * 2, bits)
}

/// ORs `bits` at bit offset `at` of the mark array; returns the bits there before.
#[inline]
fn or_bits(marks: &[AtomicU64], at: u64, bits: u128) -> u128 {
    let w = (at / 64) as usize;
    let sh = (at % 64) as u32;
    let wide = bits << sh;
    let lo = wide as u64;
    let hi = (wide >> 64) as u64;
    let mut before = 0u128;
    if lo != 0 {
        before |= (marks[w].fetch_or(lo, Ordering::Relaxed) >> sh) as u128;
    }
    if hi != 0 {
        before |= (marks[w + 1].fetch_or(hi, Ordering::Relaxed) as u128) << (64 - sh);
    }
    before
}

/// Reads the 2-bit value of slot `j` of placement `p`.
#[inline]
fn slot(marks: &[AtomicU64], p: u64, s: usize, j: usize) -> u64 {
    let at = (p * s as u64 + j as u64) * 2;
    (marks[(at / 64) as usize].load(Ordering::Relaxed) >> (at % 64)) & 3
}

struct Ctx<'a> {
    place: &'a Placement,
    grid: &'a Grid,
    marks: &'a [AtomicU64],
    data: &'a [AtomicU8],
    s: usize,
    k: usize,
}

impl Ctx<'_> {
    /// Expands the current states in mark words `lo..hi`; returns (states marked,
    /// placements valued) for the next layer, whose cost is `next`.
    fn expand(&self, lo: usize, hi: usize, next: u8) -> (u64, u64) {
        let s = self.s as u64;
        let mut new_states = 0u64;
        let mut new_places = 0u64;
        let mut pos = [0u8; MAX_TILES];
        let mut cur_p = u64::MAX;
        let mut occupied = 0u64;
        let mut slot_of = [0u8; MAX_CELLS];
        // Per placement: its free cells in order, and how many free cells lie below each
        // cell (branch-free lookups instead of bit-walking loops per state).
        let mut free_list = [0u8; MAX_CELLS];
        let mut free_below = [0u8; MAX_CELLS + 1];
        let n = self.grid.all.count_ones() as usize;
        for w in lo..hi {
            let v = self.marks[w].load(Ordering::Relaxed);
            let mut cur = v & !(v >> 1) & LO;
            while cur != 0 {
                let bit = cur.trailing_zeros() as u64;
                cur &= cur - 1;
                let slot_index = w as u64 * 32 + bit / 2;
                let p = slot_index / s;
                let j = (slot_index % s) as usize;
                if p != cur_p {
                    cur_p = p;
                    self.place.unindex(p, &mut pos[..self.k]);
                    occupied = 0;
                    for (i, &c) in pos[..self.k].iter().enumerate() {
                        occupied |= 1 << c;
                        slot_of[c as usize] = i as u8;
                    }
                    let mut count = 0u8;
                    for (cell, below) in free_below.iter_mut().enumerate().take(n) {
                        *below = count;
                        if occupied & (1 << cell) == 0 {
                            free_list[count as usize] = cell as u8;
                            count += 1;
                        }
                    }
                }
                let free = !occupied & self.grid.all;
                // The blank's cell: the j-th free cell.
                let b = free_list[j] as usize;
                // Each pattern tile next to the blank can slide into it.
                let mut movers = self.grid.neighbours[b] & occupied;
                while movers != 0 {
                    let c = movers.trailing_zeros() as usize;
                    movers &= movers - 1;
                    let i = pos[..self.k]
                        .iter()
                        .position(|&x| x as usize == c)
                        .expect("occupied");
                    pos[i] = b as u8;
                    let p2 = self.place.index(&pos[..self.k]);
                    pos[i] = c as u8;
                    let free2 = (free & !(1u64 << b)) | (1u64 << c);
                    // Free cells below c after the move: those below it now, less b.
                    let j2 = free_below[c] as usize - usize::from(b < c);
                    if slot(self.marks, p2, self.s, j2) != 0 {
                        continue;
                    }
                    let region = self.grid.region(free2, c);
                    let before = mark_region(self.marks, p2, self.s, free2, region, 2);
                    if (before >> (2 * j2)) & 3 == 0 {
                        new_states += 1;
                    }
                    let d = &self.data[p2 as usize];
                    if d.load(Ordering::Relaxed) == UNSEEN {
                        d.store(next, Ordering::Relaxed);
                        new_places += 1;
                    }
                }
            }
        }
        (new_states, new_places)
    }
}

/// Ends a layer: current (01) becomes done (11), next (10) becomes current (01).
fn advance(marks: &[AtomicU64], lo: usize, hi: usize) {
    for m in &marks[lo..hi] {
        let v = m.load(Ordering::Relaxed);
        let l = v & LO;
        let h = (v >> 1) & LO;
        m.store((l << 1) | h | l, Ordering::Relaxed);
    }
}

/// Runs `work` over `0..words` in chunks on `threads` threads; sums what it returns.
fn run_pass(
    threads: usize,
    words: usize,
    work: impl Fn(usize, usize) -> (u64, u64) + Sync,
) -> (u64, u64) {
    crate::search::run_chunks(threads, words, 1 << 12, work)
}

/// The tiles a goal has on `cells` (the blank's cell left out).
fn tiles_on(goal: &Board, cells: &[usize]) -> Vec<u8> {
    cells
        .iter()
        .map(|&c| goal.cells()[c])
        .filter(|&t| t != 0)
        .collect()
}

/// The names of the preset partitions.
pub const PRESETS: [&str; 5] = ["7-8", "6-6-3", "5-5-5", "6-6-6-6", "auto"];

/// A partition of the goal's tiles into patterns: a preset name (`7-8`, `6-6-3`,
/// `5-5-5` on 4x4; `6-6-6-6` on 5x5; `auto` for the default of any size) or tile lists
/// such as `1,2,3,4,5,6,7/8,9,10,11,12,13,14,15`.
///
/// The 4x4 and 5x5 presets are blocks of cells laid out for a goal with the blank in the
/// bottom-right corner and turned half a turn when the blank is in the top-left one; for
/// other goals the blocks are taken as they are, less the blank's cell.
///
/// ```
/// use npuzzle::heuristic::pdb::partition;
/// use npuzzle::Board;
/// let goal = Board::solved("4x4".parse().unwrap());
/// let p = partition(&goal, "7-8").unwrap();
/// assert_eq!(p, vec![vec![1, 2, 3, 4, 5, 6, 7, 8], vec![9, 10, 11, 12, 13, 14, 15]]);
/// assert_eq!(partition(&goal, "1,2/3").unwrap(), vec![vec![1, 2], vec![3]]);
/// assert!(partition(&goal, "1,2/2").is_err());
/// ```
pub fn partition(goal: &Board, spec: &str) -> Result<Vec<Vec<u8>>, String> {
    let size = goal.size();
    let (w, h, n) = (size.width(), size.height(), size.cells());
    // Turn the layout half a turn when the blank sits in the first cell.
    let turn = |cells: Vec<usize>| -> Vec<usize> {
        if goal.blank() == 0 {
            cells.into_iter().map(|c| n - 1 - c).collect()
        } else {
            cells
        }
    };
    let blocks = |groups: &[&[usize]]| -> Vec<Vec<u8>> {
        groups
            .iter()
            .map(|g| tiles_on(goal, &turn(g.to_vec())))
            .filter(|t| !t.is_empty())
            .collect()
    };
    let parts = match (spec.trim(), w, h) {
        ("7-8", 4, 4) => blocks(&[&[0, 1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]]),
        ("6-6-3", 4, 4) => blocks(&[
            &[0, 1, 4, 5, 8, 9],
            &[2, 3, 6, 7, 10, 11],
            &[12, 13, 14, 15],
        ]),
        ("5-5-5", 4, 4) => blocks(&[
            &[0, 1, 4, 5, 8],
            &[2, 3, 6, 7, 11],
            &[9, 10, 12, 13, 14, 15],
        ]),
        // Korf & Felner's layout: against blocks of rows 3-4 (10,11,12,15,16,17 and
        // 18..23) it took Korf's 24-puzzle instance 25 from 118 to 85 million nodes.
        ("6-6-6-6", 5, 5) => blocks(&[
            &[0, 1, 2, 5, 6, 7],
            &[3, 4, 8, 9, 13, 14],
            &[10, 11, 15, 16, 20, 21],
            &[12, 17, 18, 19, 22, 23, 24],
        ]),
        ("auto", 4, 4) => return partition(goal, "7-8"),
        ("auto", 5, 5) => return partition(goal, "6-6-6-6"),
        ("auto", _, _) => {
            // Groups of at most 6 tiles in goal order, as even as possible.
            let tiles: Vec<u8> = goal.cells().iter().copied().filter(|&t| t != 0).collect();
            let groups = tiles.len().div_ceil(6);
            let per = tiles.len().div_ceil(groups);
            tiles.chunks(per).map(|c| c.to_vec()).collect()
        }
        (p, _, _) if PRESETS.contains(&p) => {
            return Err(format!(
                "the preset {p} is for {}, not {size}",
                if p == "6-6-6-6" { "5x5" } else { "4x4" }
            ))
        }
        (p, _, _) => {
            let mut parts = Vec::new();
            for (i, group) in p.split('/').enumerate() {
                let tiles: Result<Vec<u8>, String> = group
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|t| !t.is_empty())
                    .map(|t| {
                        t.parse::<u8>().map_err(|_| {
                            format!("expected tile numbers in pattern {}, found {t:?}", i + 1)
                        })
                    })
                    .collect();
                parts.push(tiles?);
            }
            parts
        }
    };
    let mut seen = vec![false; n];
    for p in &parts {
        check_pattern(size, p)?;
        for &t in p {
            if std::mem::replace(&mut seen[t as usize], true) {
                return Err(format!("expected disjoint patterns, found tile {t} in two"));
            }
        }
    }
    Ok(parts)
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
        assert_eq!(popcount(u64::MAX), 64);
        assert_eq!(popcount(0b1011), 3);
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

    #[test]
    fn regions_flood_only_free_cells() {
        let g = Grid::new(Size::new(3, 3).unwrap());
        // Free: cells 0, 1, 3 and 8; from 0 the region is {0, 1, 3}.
        let free = 0b1_0000_1011;
        assert_eq!(g.region(free, 0), 0b1011);
        assert_eq!(g.region(free, 8), 1 << 8);
        assert_eq!(region_bits(free, 0b1010, 2), 0b10_10_00);
    }
}
