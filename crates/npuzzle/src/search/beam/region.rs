//! The databases a beam ranks a region by: their lookups, kept up move by move.

use super::layer::*;
use crate::heuristic::pdb::{PdbHeuristic, MAX_CELLS, NONE};

/// One lookup of a region's estimate: a set of databases, on the board as it is or
/// reflected.
pub(super) struct Lookup<'a> {
    pub(super) h: &'a PdbHeuristic,
    /// Which of the set's lookups (see `PdbHeuristic::side_dbs`).
    pub(super) side: usize,
    /// Where its entries start in a position's entries.
    pub(super) offset: usize,
    /// Per region tile: the database its moves change (NONE: none).
    pub(super) owner: Vec<u8>,
    /// Per tile of this side's board: the region tile whose cell it takes (the identity
    /// for side 0; the reflection's renaming, inverted, for side 1).
    pub(super) from: Vec<u8>,
    /// Per region tile: its byte in its database's word (see `RegionDbs::words`).
    pub(super) slot: Vec<u8>,
    /// Per region cell: the cell of this side's board it is (`h.cell_maps[side]`, copied:
    /// read for every child, one indirection fewer cost 4% of the beam's instructions).
    pub(super) side_cell: Vec<u8>,
}

/// Pattern databases for the last region of a staged beam: built for the usual goal of a
/// board the region's size, the region's cells and tiles renamed to it.
pub(super) struct RegionDbs<'a> {
    pub(super) lookups: Vec<Lookup<'a>>,
    /// Entries per position (every lookup's databases).
    pub(super) width: usize,
    /// The board's cells of the region, in the region board's order.
    pub(super) cells: Vec<usize>,
    /// Per board tile: its name on the region's board (0 for the blank and for tiles
    /// outside the region).
    pub(super) tile: Vec<u8>,
    /// Per board cell: its index in `cells` (`u8::MAX` outside the region).
    pub(super) index_of: Vec<u8>,
}

impl RegionDbs<'_> {
    /// The region board's cell of every region tile on the board `cells`.
    #[inline]
    pub(super) fn at(&self, cells: &[u8]) -> [u8; MAX_CELLS] {
        let mut at = [0u8; MAX_CELLS];
        for (k, &c) in self.cells.iter().enumerate() {
            at[self.tile[cells[c] as usize] as usize] = k as u8;
        }
        at
    }

    /// The word of database `d` of lookup `l` (see [`RegionDbs::words`]) for region
    /// tiles on cells `at`.
    pub(super) fn word(&self, at: &[u8; MAX_CELLS], l: &Lookup, d: usize) -> u64 {
        let map = &l.h.cell_maps[l.side];
        l.h.dbs[d]
            .tiles()
            .iter()
            .enumerate()
            .fold(0, |word, (j, &u)| {
                word | (map[at[l.from[u as usize] as usize] as usize] as u64) << (8 * j)
            })
    }

    /// The index in database `d` of lookup `l` of its word `word`.
    #[inline(always)]
    pub(super) fn rank(l: &Lookup, d: usize, word: u64) -> u64 {
        let db = &l.h.dbs[d];
        db.placement()
            .index(&word.to_le_bytes()[..db.tiles().len()])
    }

    /// The index in database `d` of lookup `l` for region tiles on cells `at`.
    pub(super) fn index(&self, at: &[u8; MAX_CELLS], l: &Lookup, d: usize) -> u64 {
        Self::rank(l, d, self.word(at, l, d))
    }

    /// The entry of database `d` of lookup `l` for region tiles on cells `at`.
    pub(super) fn entry(&self, at: &[u8; MAX_CELLS], l: &Lookup, d: usize) -> u8 {
        l.h.dbs[d].at(self.index(at, l, d))
    }

    /// For each lookup, the index its database of `tile` has on the board `cells` (0
    /// where no database holds it), worked out afresh from the tiles' cells.
    #[cfg(test)]
    pub(super) fn indices(&self, cells: &[u8], tile: u8) -> [u64; 2 * MAX_REGION_SETS] {
        let at = self.at(cells);
        let rt = self.tile[tile as usize] as usize;
        let mut idx = [0u64; 2 * MAX_REGION_SETS];
        for (k, l) in self.lookups.iter().enumerate() {
            let d = l.owner[rt];
            if d != NONE {
                idx[k] = self.index(&at, l, d as usize);
            }
        }
        idx
    }

    /// Per lookup and database (at the entries' places, see [`RegionDbs::all_entries`]),
    /// the cells of the database's tiles on its side's board, a byte each in the
    /// database's order: its index is their placement's rank, and a move changes one
    /// byte of one word a lookup (databases hold at most [`MAX_WORD_TILES`] tiles here).
    pub(super) fn words(&self, cells: &[u8]) -> Vec<u64> {
        let at = self.at(cells);
        let mut words = vec![0u64; self.width];
        for l in &self.lookups {
            for d in l.h.side_dbs[l.side].0.clone() {
                words[l.offset + d] = self.word(&at, l, d);
            }
        }
        words
    }

    /// Lookup `l`'s word of the database of region tile `rt` (which it holds) once
    /// that tile moved to the region cell `to`, the words before being `words`.
    #[inline]
    pub(super) fn word_after(l: &Lookup, d: u8, words: &[u64], rt: usize, to: u8) -> u64 {
        let shift = 8 * l.slot[rt] as u32;
        (words[l.offset + d as usize] & !(0xff << shift))
            | (l.side_cell[to as usize] as u64) << shift
    }

    /// For each lookup, the index its database of `tile` has once `tile` moved to the
    /// region cell `to` (the position's words before: `words`, see [`RegionDbs::words`]);
    /// 0 where no database holds the tile. The entries are asked for.
    #[inline]
    pub(super) fn moved(&self, words: &[u64], tile: u8, to: u8) -> [u64; 2 * MAX_REGION_SETS] {
        let rt = self.tile[tile as usize] as usize;
        let mut idx = [0u64; 2 * MAX_REGION_SETS];
        for (k, l) in self.lookups.iter().enumerate() {
            let d = l.owner[rt];
            if d != NONE {
                idx[k] = Self::rank(l, d as usize, Self::word_after(l, d, words, rt, to));
                l.h.dbs[d as usize].prefetch(idx[k]);
            }
        }
        idx
    }

    /// The words `words` (see [`RegionDbs::words`]) updated for `tile` moved to the
    /// region cell `to`.
    #[inline]
    pub(super) fn move_words(&self, words: &mut [u64], tile: u8, to: u8) {
        let rt = self.tile[tile as usize] as usize;
        for l in &self.lookups {
            let d = l.owner[rt];
            if d != NONE {
                words[l.offset + d as usize] = Self::word_after(l, d, words, rt, to);
            }
        }
    }

    /// Every lookup's entries for the board `cells`.
    pub(super) fn all_entries(&self, cells: &[u8]) -> Vec<u8> {
        let at = self.at(cells);
        let mut vals = Vec::with_capacity(self.width);
        for l in &self.lookups {
            for d in 0..l.h.dbs.len() {
                // The other partitions' entries stay 0.
                vals.push(if l.h.side_dbs[l.side].0.contains(&d) {
                    self.entry(&at, l, d)
                } else {
                    0
                });
            }
        }
        vals
    }

    /// Every lookup's sum of the entries `vals` (a position's), for [`RegionDbs::update`]:
    /// worked out once a position, not once a child.
    #[inline]
    pub(super) fn sums(&self, vals: &[u8]) -> [u32; 2 * MAX_REGION_SETS] {
        let mut sums = [0u32; 2 * MAX_REGION_SETS];
        for (k, l) in self.lookups.iter().enumerate() {
            sums[k] = vals[l.offset..l.offset + l.h.dbs.len()]
                .iter()
                .map(|&x| x as u32)
                .sum();
        }
        sums
    }

    /// The estimate after `tile` moved (the entries before `vals`, their sums `sums`
    /// from [`RegionDbs::sums`], the indices after `idx`, from [`RegionDbs::indices`]),
    /// and the entry each lookup's database of that tile now has.
    #[inline]
    pub(super) fn update(
        &self,
        vals: &[u8],
        sums: &[u32; 2 * MAX_REGION_SETS],
        tile: u8,
        idx: &[u64; 2 * MAX_REGION_SETS],
    ) -> (u32, [u8; 2 * MAX_REGION_SETS]) {
        let rt = self.tile[tile as usize] as usize;
        let mut out = [0u8; 2 * MAX_REGION_SETS];
        let mut best = 0;
        for (k, l) in self.lookups.iter().enumerate() {
            let d = l.owner[rt];
            let sum = if d == NONE {
                sums[k]
            } else {
                out[k] = l.h.dbs[d as usize].at(idx[k]);
                sums[k] - vals[l.offset + d as usize] as u32 + out[k] as u32
            };
            best = best.max(sum);
        }
        (best, out)
    }

    /// The estimate from every lookup's entries: the largest sum.
    pub(super) fn estimate(&self, vals: &[u8]) -> u32 {
        self.sums(vals).into_iter().max().unwrap_or(0)
    }
}
