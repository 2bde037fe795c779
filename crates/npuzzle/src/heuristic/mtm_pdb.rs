//! Multi-tile-metric tables for the 15-puzzle: exact multi-tile distances of the board
//! with tiles known only by a label.
//!
//! An abstraction keeps every tile but forgets which tile of a class it is: a state is the
//! blank's cell and, for each other cell, the class of its tile. Two labellings of the
//! usual goal (blank last) are kept, each with classes of 4, 4, 4 and 3 tiles, so
//! 16 x 15!/(4! 4! 4! 3!) = 252,252,000 states each: by goal row, and by goal 2x2 block.
//! Every real move is a move of the abstraction, so its distances are lower bounds; here
//! the moves slide one to three tiles of a row or column, each costing one (the
//! multi-tile metric). Read through the transposed board (tiles known by goal column), the
//! row table gives a third bound; the largest of the three is taken. On random 4x4 boards
//! they are 20 to 28 where the walking distance gives 11 to 23 (optimal: 27 to 38).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

use crate::board::Board;
use crate::error::{FileError, SearchError};
use crate::files::{check_header, check_trailer, seal};
use crate::limits::{resolve_threads, run_chunks, try_vec, Limits, Watch};

const UNSEEN: u8 = u8::MAX;
/// The file's magic and format version.
pub(crate) const MTM_MAGIC: &[u8; 8] = b"NPZMTM4\n";
/// The format version of [`MTM_MAGIC`] files.
pub(crate) const MTM_VERSION: u32 = 1;

/// States of the abstraction.
pub const STATES: u64 = 16 * 1365 * 330 * 35;

/// Colex order of the 4-element subsets of 15 positions: masks by rank, and ranks by mask.
struct Combos {
    masks: Vec<u16>,
    ranks: Vec<u16>,
}

fn combos() -> &'static Combos {
    static C: OnceLock<Combos> = OnceLock::new();
    C.get_or_init(|| {
        let mut masks: Vec<u16> = (0u32..1 << 15)
            .filter(|m| m.count_ones() == 4)
            .map(|m| m as u16)
            .collect();
        // Colex: by the highest element, then the next, ...: the same as numeric order.
        masks.sort_unstable();
        let mut ranks = vec![0u16; 1 << 15];
        for (r, &m) in masks.iter().enumerate() {
            ranks[m as usize] = r as u16;
        }
        Combos { masks, ranks }
    })
}

/// `pext` on 16 bits by two byte tables: the bits of `x` where `mask` has ones, packed
/// to the bottom.
struct Pext {
    /// [mask byte][x byte] -> packed bits.
    table: Vec<u8>,
}

fn pext_table() -> &'static Pext {
    static P: OnceLock<Pext> = OnceLock::new();
    P.get_or_init(|| {
        let mut table = vec![0u8; 1 << 16];
        for m in 0..256usize {
            for x in 0..256usize {
                let (mut out, mut k) = (0u8, 0);
                for b in 0..8 {
                    if m >> b & 1 == 1 {
                        out |= ((x >> b & 1) as u8) << k;
                        k += 1;
                    }
                }
                table[m << 8 | x] = out;
            }
        }
        Pext { table }
    })
}

#[inline(always)]
fn pext16(p: &Pext, x: u32, mask: u32) -> u32 {
    let lo = p.table[((mask & 0xff) << 8 | (x & 0xff)) as usize] as u32;
    let hi = p.table[((mask >> 8 & 0xff) << 8 | (x >> 8 & 0xff)) as usize] as u32;
    lo | hi << (mask & 0xff).count_ones()
}

/// The dense index of a board given by its cells' masks per label: `m[l]` has a bit for
/// each cell holding a tile of label `l` (0 to 3), `m[4]` the blank's.
#[inline(always)]
fn index_masks(m: &[u32; 5]) -> u64 {
    let (c, p) = (combos(), pext_table());
    let blank = m[4].trailing_zeros() as u64;
    let free = 0xffff & !m[4];
    let r0 = c.ranks[pext16(p, m[0], free) as usize] as u64;
    let free1 = free & !m[0];
    let r1 = c.ranks[pext16(p, m[1], free1) as usize] as u64;
    let free2 = free1 & !m[1];
    let r2 = c.ranks[pext16(p, m[2], free2) as usize] as u64;
    ((blank * 1365 + r0) * 330 + r1) * 35 + r2
}

/// The dense index of a labelled board: `labels[cell]` is 0 to 3, 4 the blank.
#[inline]
fn index(labels: &[u8; 16]) -> u64 {
    let mut m = [0u32; 5];
    for (cell, &l) in labels.iter().enumerate() {
        m[l as usize] |= 1 << cell;
    }
    index_masks(&m)
}

/// The labelled board of an index.
#[inline]
fn unindex(mut idx: u64, labels: &mut [u8; 16]) {
    let c = combos();
    let r2 = (idx % 35) as usize;
    idx /= 35;
    let r1 = (idx % 330) as usize;
    idx /= 330;
    let r0 = (idx % 1365) as usize;
    let blank = (idx / 1365) as usize;
    let (m0, m1, m2) = (c.masks[r0], c.masks[r1], c.masks[r2]);
    let (mut j, mut left1, mut left2) = (0, 0, 0);
    for (cell, slot) in labels.iter_mut().enumerate() {
        if cell == blank {
            *slot = 4;
            continue;
        }
        *slot = if m0 >> j & 1 == 1 {
            0
        } else {
            let l = if m1 >> left1 & 1 == 1 {
                1
            } else {
                let l = if m2 >> left2 & 1 == 1 { 2 } else { 3 };
                left2 += 1;
                l
            };
            left1 += 1;
            l
        };
        j += 1;
    }
}

/// The goal-row and goal-block tables of the 4x4 board with the usual goal (blank last):
/// one byte of multi-tile distance per abstract state.
pub struct MtmRows {
    /// The goal-row table, then the goal-block table (2x2 blocks).
    data: Vec<u8>,
    /// Each tile's goal row (0 to 3), and 4 for the blank; each tile's goal column.
    row_of: [u8; 16],
    col_of: [u8; 16],
    block_of: [u8; 16],
}

impl std::fmt::Debug for MtmRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MtmRows({} entries)", self.data.len())
    }
}

impl MtmRows {
    /// Whether the database serves `goal`: 4x4, tiles in order, blank last.
    pub fn serves(goal: &Board) -> bool {
        goal.size().width() == 4 && goal.size().height() == 4 && *goal == Board::solved(goal.size())
    }

    /// Builds both tables by breadth-first search from the goal on `threads` threads (0:
    /// all cores): about a minute each on two cores, 252 MB each.
    pub fn build(limits: &Limits, threads: usize) -> Result<MtmRows, SearchError> {
        let mut goal = [0u8; 16];
        for (cell, l) in goal.iter_mut().enumerate() {
            *l = if cell == 15 { 4 } else { (cell / 4) as u8 };
        }
        let mut data = table(&goal, limits, threads)?;
        for (cell, l) in goal.iter_mut().enumerate() {
            *l = if cell == 15 { 4 } else { block(cell) };
        }
        data.extend(table(&goal, limits, threads)?);
        Ok(MtmRows::from_data(data))
    }
}
/// The multi-tile distances of every labelled board to the labelled goal `goal` (labels
/// 0 to 3 for 4, 4, 4 and 3 tiles, 4 the blank), by breadth-first search on `threads`.
pub fn table(goal: &[u8; 16], limits: &Limits, threads: usize) -> Result<Vec<u8>, SearchError> {
    let watch = Watch::new(limits);
    let size = crate::board::Size::square(4).expect("4x4");
    limits.check_memory("mtm table", size, STATES, "idastar")?;
    let data: Vec<AtomicU8> = try_vec(STATES as usize, "mtm table", || AtomicU8::new(UNSEEN))?;
    data[index(goal) as usize].store(0, Ordering::Relaxed);
    let threads = resolve_threads(threads);
    let chunk = 1u64 << 20;
    let chunks = STATES.div_ceil(chunk) as usize;
    for depth in 0u8.. {
        if watch.expired() {
            return Err(watch.timeout("mtm table", depth as u32, 0, 0));
        }
        let found = AtomicU64::new(0);
        run_chunks(threads, chunks, 1, |lo, hi| {
            let mut labels = [0u8; 16];
            let mut new = 0u64;
            for ci in lo..hi {
                let start = ci as u64 * chunk;
                let end = (start + chunk).min(STATES);
                for id in start..end {
                    if data[id as usize].load(Ordering::Relaxed) != depth {
                        continue;
                    }
                    unindex(id, &mut labels);
                    let blank = labels.iter().position(|&l| l == 4).expect("a blank");
                    let (br, bc) = ((blank / 4) as isize, (blank % 4) as isize);
                    for (dr, dc) in [(1isize, 0isize), (-1, 0), (0, 1), (0, -1)] {
                        let mut next = labels;
                        let mut at = blank;
                        for k in 1..4isize {
                            let (r, c) = (br + dr * k, bc + dc * k);
                            if !(0..4).contains(&r) || !(0..4).contains(&c) {
                                break;
                            }
                            let cell = (r * 4 + c) as usize;
                            next[at] = next[cell];
                            next[cell] = 4;
                            at = cell;
                            let j = index(&next) as usize;
                            if data[j].load(Ordering::Relaxed) == UNSEEN {
                                data[j].store(depth + 1, Ordering::Relaxed);
                                new += 1;
                            }
                        }
                    }
                }
            }
            found.fetch_add(new, Ordering::Relaxed);
            (0, 0)
        });
        if found.load(Ordering::Relaxed) == 0 {
            break;
        }
    }
    Ok(data.into_iter().map(AtomicU8::into_inner).collect())
}

impl MtmRows {
    fn from_data(data: Vec<u8>) -> MtmRows {
        let mut row_of = [4u8; 16];
        let mut col_of = [4u8; 16];
        let mut block_of = [4u8; 16];
        for t in 1..16 {
            row_of[t] = ((t - 1) / 4) as u8;
            col_of[t] = ((t - 1) % 4) as u8;
            block_of[t] = block(t - 1);
        }
        MtmRows {
            data,
            row_of,
            col_of,
            block_of,
        }
    }

    /// The tables as a file: magic, version, the two tables, a checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() + 20);
        out.extend_from_slice(MTM_MAGIC);
        out.extend_from_slice(&MTM_VERSION.to_le_bytes());
        out.extend_from_slice(&self.data);
        seal(&mut out);
        out
    }

    /// The tables from a file's bytes, all of it checked: magic, version, length,
    /// checksum, and the goal at distance 0 in every table.
    pub fn from_bytes(mut bytes: Vec<u8>) -> Result<MtmRows, FileError> {
        check_header(&bytes, MTM_MAGIC, MTM_VERSION)?;
        let body = check_trailer(&bytes)?.len();
        if body as u64 != 2 * STATES + 12 {
            return Err(FileError::Truncated {
                expected: 2 * STATES + 20,
                found: bytes.len() as u64,
            });
        }
        // The tables in place: no second copy of 504 MB.
        bytes.truncate(body);
        bytes.drain(..12);
        let t = MtmRows::from_data(bytes);
        let goal = Board::solved(crate::board::Size::square(4).expect("4x4"));
        if t.estimate(goal.cells()) != 0 {
            return Err(FileError::Invalid(
                "expected 0 moves at the goal: the entries are not the goal's".into(),
            ));
        }
        Ok(t)
    }

    /// The label masks of a 4x4 board's cells for the three lookups (goal rows, goal
    /// blocks, goal columns of the transposed board): `masks[j][l]` has a bit for each
    /// cell whose tile has label `l`, `[j][4]` the blank's. A search keeps them up to date
    /// with [`slide`](Self::slide) instead of recomputing them.
    pub fn masks(&self, cells: &[u8]) -> [[u32; 5]; 3] {
        let mut m = [[0u32; 5]; 3];
        for (cell, &t) in cells.iter().enumerate() {
            let t = t as usize;
            let tr = (cell % 4) * 4 + cell / 4;
            m[0][self.row_of[t] as usize] |= 1 << cell;
            m[1][self.block_of[t] as usize] |= 1 << cell;
            m[2][self.col_of[t] as usize] |= 1 << tr;
        }
        m
    }

    /// Updates `masks` for tile `t` sliding from cell `from` into the blank at cell `to`
    /// (the blank goes to `from`).
    #[inline(always)]
    pub fn slide(&self, masks: &mut [[u32; 5]; 3], t: u8, from: usize, to: usize) {
        let t = t as usize;
        let tr = |c: usize| (c % 4) * 4 + c / 4;
        let plain = (1u32 << from) ^ (1u32 << to);
        let transposed = (1u32 << tr(from)) ^ (1u32 << tr(to));
        masks[0][self.row_of[t] as usize] ^= plain;
        masks[1][self.block_of[t] as usize] ^= plain;
        masks[2][self.col_of[t] as usize] ^= transposed;
        masks[0][4] ^= plain;
        masks[1][4] ^= plain;
        masks[2][4] ^= transposed;
    }

    /// The goal-row table's entry address for label masks, and a hint to the processor
    /// to fetch it: a search asks for all of a node's children first, so that their
    /// reads overlap, then passes each to [`estimate_first`](Self::estimate_first).
    #[inline(always)]
    pub fn prefetch(&self, m: &[[u32; 5]; 3]) -> usize {
        let i = index_masks(&m[0]) as usize;
        super::pdb::prefetch(&self.data, i);
        i
    }

    /// The bound from label masks kept by a search, reading the tables only until one
    /// exceeds `enough`: the largest of the goal-row, goal-block and goal-column bounds if
    /// none does, else the first that does (a search that prunes above `enough` needs no
    /// more). `first` is the goal-row entry's address, from [`prefetch`](Self::prefetch).
    #[inline(always)]
    pub fn estimate_first(&self, m: &[[u32; 5]; 3], first: usize, enough: u32) -> u32 {
        let a = self.data[first] as u32;
        if a > enough {
            return a;
        }
        let c = self.data[(STATES + index_masks(&m[1])) as usize] as u32;
        if c > enough {
            return c;
        }
        let b = self.data[index_masks(&m[2]) as usize] as u32;
        a.max(b).max(c)
    }

    /// The largest of the goal-row, goal-column and goal-block bounds of a 4x4 board's
    /// cells.
    #[inline]
    pub fn estimate(&self, cells: &[u8]) -> u32 {
        let m = self.masks(cells);
        self.estimate_first(&m, index_masks(&m[0]) as usize, u32::MAX)
    }
}

/// The 2x2 block (0 to 3, row-major) of a 4x4 cell.
fn block(cell: usize) -> u8 {
    ((cell / 8) * 2 + (cell % 4) / 2) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_dense_and_round_trip() {
        let mut labels = [0u8; 16];
        for id in (0..STATES).step_by(9973).chain([0, STATES - 1]) {
            unindex(id, &mut labels);
            let counts = (0..5).map(|l| labels.iter().filter(|&&x| x == l).count());
            assert_eq!(counts.collect::<Vec<_>>(), vec![4, 4, 4, 3, 1]);
            assert_eq!(index(&labels), id);
        }
    }
}
