//! Beam search: breadth-first, layer by layer, keeping only the `width` most promising
//! positions of each layer (the best rank, from the Manhattan-plus-linear-conflict
//! estimate: see `BeamSetup::rank`). Not
//! optimal, but on boards far too big for an exact search it finds short answers; wider
//! beams find shorter ones.
//!
//! A beam can aim at part of the board: only some tiles tracked (the estimate counts
//! them alone, and positions that differ only in the others are one position), the blank
//! kept to some cells. [`beam`] and [`anytime`] solve a big board that way, a line at a time
//! (the top row and left column together, as an L, once what is left is at most
//! [`STAGED_L_SIDE`] on a side), the way [`fast`](super::fast) does tile by tile, and
//! finish with a beam over the whole last region.

use super::ranking::{Ranking, RankingSample, SampleOptions};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::linear_conflict::LineKeys;
use crate::heuristic::pdb::{prefetch, PdbHeuristic, MAX_CELLS, NONE};
use crate::heuristic::HeuristicKind;
use crate::limits::{for_each_index, resolve_threads, try_reserve, try_vec, Limits, Watch};
use crate::moves::Direction;
use crate::scramble::Rng;
use crate::sequence::simplify;

/// One candidate child of a layer: where it comes from and what it would be.
#[derive(Clone, Copy)]
struct Cand {
    /// Ranking key: the estimate in the high bits, hash bits as a tie-break below.
    key: u64,
    parent: u32,
    dir: u8,
    /// The linear-conflict estimate (the key's may be the databases').
    h: u32,
    all: u32,
    hash: u64,
    /// With databases: the entry each lookup's moved tile changed.
    vals: [u8; 2 * MAX_REGION_SETS],
    /// With a learned ranking: its part kept move by move (see [`Ranking::fresh`]).
    kept: f32,
}

/// A layer of the beam: its positions' cells one after another, and per position the
/// blank, the linear-conflict estimate, the hash and the move that led there (4: none).
#[derive(Default)]
struct Layer {
    cells: Vec<u8>,
    blank: Vec<u16>,
    h: Vec<u32>,
    hash: Vec<u64>,
    /// Manhattan distance of every tile (tracked or not): the tie-break.
    all: Vec<u32>,
    last: Vec<u8>,
    /// With databases: per position, every lookup's entries (see `RegionDbs`).
    vals: Vec<u8>,
    /// With databases: per position, every lookup's databases' tiles' cells (see
    /// `RegionDbs::words`), kept move by move instead of worked out from the cells for
    /// each child.
    words: Vec<u64>,
    /// With a learned ranking: per position, its part kept move by move.
    kept: Vec<f32>,
}

impl Layer {
    /// Empty but for the parts built from the parents (`cells`, `blank`, `vals`,
    /// `words`, sized by [`fit`] and overwritten whole), its memory kept.
    fn clear(&mut self) {
        self.h.clear();
        self.hash.clear();
        self.all.clear();
        self.last.clear();
        self.kept.clear();
    }
}

/// `v` made `len` long, its old contents left where they are (to be overwritten: zeroing
/// a layer's worth every layer showed in the profile).
fn fit<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> Result<(), SearchError> {
    if len > v.len() {
        try_reserve(v, len - v.len(), "beam")?;
        v.resize(len, T::default());
    }
    v.truncate(len);
    Ok(())
}

/// A time for a beam to end by: its width is set layer by layer so that the layers still
/// expected fit in the time left (instead of the clock cutting a wide beam short and
/// losing it all).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pace {
    /// When the beam should end.
    pub until: std::time::Instant,
    /// How many layers it is expected to take (from an earlier, narrower beam: more than
    /// it will).
    pub layers: usize,
    /// The widest it may grow to (memory).
    pub max_width: usize,
}

/// Positions of a layer expanded as one piece of work (by one thread).
const CHUNK: usize = 2048;

/// How many candidates ahead a layer's construction asks for a parent's memory.
const AHEAD: usize = 8;

/// Positions whose children's lookups are asked for together before any is read.
const BLOCK: usize = 64;

/// What one beam run found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BeamEnd {
    /// A solution (shorter than the cap, if one was given).
    Found(Vec<Direction>),
    /// The beam emptied or reached the cap first.
    Exhausted,
    /// The clock ran out or the search was cancelled.
    Stopped,
    /// The best rank in the beam stopped falling for [`STALL_LAYERS`] layers: the moves
    /// to the kept position with the best rank.
    Stalled(Vec<Direction>),
}

/// Layers without a new best rank after which a beam gives up on reaching its
/// goal by itself (its positions circle a local minimum of the estimate).
pub(crate) const STALL_LAYERS: usize = 64;

/// Positions the beams expanded and children they generated, summed over every beam of a
/// run (shared by the threads of a layer).
#[derive(Default)]
pub(crate) struct NodeCount {
    expanded: std::sync::atomic::AtomicU64,
    generated: std::sync::atomic::AtomicU64,
}

impl NodeCount {
    fn add(&self, expanded: u64, generated: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.expanded.fetch_add(expanded, Relaxed);
        self.generated.fetch_add(generated, Relaxed);
    }

    /// (expanded, generated) so far.
    pub(crate) fn get(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.expanded.load(Relaxed), self.generated.load(Relaxed))
    }
}

/// The most database sets a beam's last region is ranked by (the largest estimate wins).
pub const MAX_REGION_SETS: usize = 2;

/// The most tiles a database that ranks a beam's region may have (its tiles' cells are
/// kept a byte each in one word).
pub const MAX_WORD_TILES: usize = 8;

/// One lookup of a region's estimate: a set of databases, on the board as it is or
/// reflected.
struct Lookup<'a> {
    h: &'a PdbHeuristic,
    /// Which of the set's lookups (see `PdbHeuristic::side_dbs`).
    side: usize,
    /// Where its entries start in a position's entries.
    offset: usize,
    /// Per region tile: the database its moves change (NONE: none).
    owner: Vec<u8>,
    /// Per tile of this side's board: the region tile whose cell it takes (the identity
    /// for side 0; the reflection's renaming, inverted, for side 1).
    from: Vec<u8>,
    /// Per region tile: its byte in its database's word (see `RegionDbs::words`).
    slot: Vec<u8>,
    /// Per region cell: the cell of this side's board it is (`h.cell_maps[side]`, copied:
    /// read for every child, one indirection fewer cost 4% of the beam's instructions).
    side_cell: Vec<u8>,
}

/// Pattern databases for the last region of a staged beam: built for the usual goal of a
/// board the region's size, the region's cells and tiles renamed to it.
struct RegionDbs<'a> {
    lookups: Vec<Lookup<'a>>,
    /// Entries per position (every lookup's databases).
    width: usize,
    /// The board's cells of the region, in the region board's order.
    cells: Vec<usize>,
    /// Per board tile: its name on the region's board (0 for the blank and for tiles
    /// outside the region).
    tile: Vec<u8>,
    /// Per board cell: its index in `cells` (`u8::MAX` outside the region).
    index_of: Vec<u8>,
}

impl RegionDbs<'_> {
    /// The region board's cell of every region tile on the board `cells`.
    #[inline]
    fn at(&self, cells: &[u8]) -> [u8; MAX_CELLS] {
        let mut at = [0u8; MAX_CELLS];
        for (k, &c) in self.cells.iter().enumerate() {
            at[self.tile[cells[c] as usize] as usize] = k as u8;
        }
        at
    }

    /// The word of database `d` of lookup `l` (see [`RegionDbs::words`]) for region
    /// tiles on cells `at`.
    fn word(&self, at: &[u8; MAX_CELLS], l: &Lookup, d: usize) -> u64 {
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
    fn rank(l: &Lookup, d: usize, word: u64) -> u64 {
        let db = &l.h.dbs[d];
        db.placement()
            .index(&word.to_le_bytes()[..db.tiles().len()])
    }

    /// The index in database `d` of lookup `l` for region tiles on cells `at`.
    fn index(&self, at: &[u8; MAX_CELLS], l: &Lookup, d: usize) -> u64 {
        Self::rank(l, d, self.word(at, l, d))
    }

    /// The entry of database `d` of lookup `l` for region tiles on cells `at`.
    fn entry(&self, at: &[u8; MAX_CELLS], l: &Lookup, d: usize) -> u8 {
        l.h.dbs[d].at(self.index(at, l, d))
    }

    /// For each lookup, the index its database of `tile` has on the board `cells` (0
    /// where no database holds it), worked out afresh from the tiles' cells.
    #[cfg(test)]
    fn indices(&self, cells: &[u8], tile: u8) -> [u64; 2 * MAX_REGION_SETS] {
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
    fn words(&self, cells: &[u8]) -> Vec<u64> {
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
    fn word_after(l: &Lookup, d: u8, words: &[u64], rt: usize, to: u8) -> u64 {
        let shift = 8 * l.slot[rt] as u32;
        (words[l.offset + d as usize] & !(0xff << shift))
            | (l.side_cell[to as usize] as u64) << shift
    }

    /// For each lookup, the index its database of `tile` has once `tile` moved to the
    /// region cell `to` (the position's words before: `words`, see [`RegionDbs::words`]);
    /// 0 where no database holds the tile. The entries are asked for.
    #[inline]
    fn moved(&self, words: &[u64], tile: u8, to: u8) -> [u64; 2 * MAX_REGION_SETS] {
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
    fn move_words(&self, words: &mut [u64], tile: u8, to: u8) {
        let rt = self.tile[tile as usize] as usize;
        for l in &self.lookups {
            let d = l.owner[rt];
            if d != NONE {
                words[l.offset + d as usize] = Self::word_after(l, d, words, rt, to);
            }
        }
    }

    /// Every lookup's entries for the board `cells`.
    fn all_entries(&self, cells: &[u8]) -> Vec<u8> {
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
    fn sums(&self, vals: &[u8]) -> [u32; 2 * MAX_REGION_SETS] {
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
    fn update(
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
    fn estimate(&self, vals: &[u8]) -> u32 {
        self.sums(vals).into_iter().max().unwrap_or(0)
    }
}

/// What a beam aims at, and the facts its inner loop reads.
pub(crate) struct BeamSetup<'a> {
    n: usize,
    w: usize,
    h: usize,
    /// Per tile: whether its place counts.
    tracked: Vec<bool>,
    /// Per cell and direction index: the free cell the blank moves to (`u16::MAX`:
    /// none).
    next: Vec<u16>,
    /// Per tile and cell: the grid distance to the tile's goal cell (0 if untracked).
    dist: Vec<u8>,
    /// Per tile and cell: the grid distance to the tile's goal cell, every tile.
    dist_all: Vec<u8>,
    /// How much the tracked tiles' estimate outweighs every tile's Manhattan distance
    /// in the ranking.
    focus: u64,
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
    /// The tracked tiles' keys in each line's conflicts.
    lines: LineKeys,
    /// Per tile and cell, then per blank cell: random words for the position's hash.
    zobrist: Vec<u64>,
    /// Databases that rank the positions instead of the linear-conflict estimate.
    region: Option<RegionDbs<'a>>,
    /// A learned correction to the databases' ranking (a whole board's beam only).
    ranking: Option<Ranking>,
    /// Takes samples of the candidates, for fitting a ranking.
    sampler: Option<&'a Sampler>,
}

/// Candidates a beam set aside for [`ranking_samples`]: (layer, cells).
struct Sampler {
    per_layer: usize,
    taken: std::sync::Mutex<Vec<(usize, Vec<u8>)>>,
}

impl<'a> BeamSetup<'a> {
    /// A beam towards `goal`'s places for the `tracked` tiles, the blank kept to the
    /// `free` cells. Positions are ranked by `focus` times the tracked tiles' estimate
    /// plus every tile's Manhattan distance (so that, while one line is being solved,
    /// the rest of the board gets no worse than it must).
    pub(crate) fn new(
        goal: &Board,
        tracked: Vec<bool>,
        free: Vec<bool>,
        focus: u64,
    ) -> BeamSetup<'a> {
        let n = goal.cells().len();
        let w = goal.size().width();
        let mut pos = vec![0usize; n];
        for (i, &t) in goal.cells().iter().enumerate() {
            pos[t as usize] = i;
        }
        let mut dist_all = vec![0u8; n * n];
        for t in 1..n {
            for c in 0..n {
                dist_all[t * n + c] =
                    ((pos[t] / w).abs_diff(c / w) + (pos[t] % w).abs_diff(c % w)) as u8;
            }
        }
        let mut dist = dist_all.clone();
        for t in 0..n {
            if !tracked[t] {
                dist[t * n..(t + 1) * n].fill(0);
            }
        }
        let mut rng = Rng::new(0x5eed_beaf);
        let h = goal.size().height();
        let next = (0..n * 4)
            .map(|k| {
                let (blank, d) = (k / 4, k % 4);
                let (r, c) = (blank / w, blank % w);
                let to = match d {
                    // Up: the tile below slides up, the blank goes down.
                    0 => (r + 1 < h).then(|| blank + w),
                    1 => (r > 0).then(|| blank - w),
                    2 => (c + 1 < w).then(|| blank + 1),
                    _ => (c > 0).then(|| blank - 1),
                };
                to.filter(|&t| free[t]).map_or(u16::MAX, |t| t as u16)
            })
            .collect();
        let lines = LineKeys::new(goal, |t| tracked[t]);
        BeamSetup {
            n,
            w,
            h,
            tracked,
            next,
            dist,
            dist_all,
            focus,
            goal_row: pos.iter().map(|&p| (p / w) as u8).collect(),
            goal_col: pos.iter().map(|&p| (p % w) as u8).collect(),
            lines,
            zobrist: (0..n * n + n).map(|_| rng.next_u64()).collect(),
            region: None,
            ranking: None,
            sampler: None,
        }
    }

    /// Ranks the positions by `sets` of databases (the largest of their sums, each on
    /// the board as it is and reflected where the goal allows) instead of the
    /// linear-conflict estimate, if they fit: sets for the usual goal (blank last) of a
    /// board the size of the region of free cells, every tile of which is tracked and has
    /// its goal cell there. Says whether they fit (the first [`MAX_REGION_SETS`] sets are
    /// used).
    pub(crate) fn use_databases(
        &mut self,
        goal: &Board,
        free: &[bool],
        sets: &[&'a PdbHeuristic],
    ) -> bool {
        let free: Vec<usize> = (0..self.n).filter(|&c| free[c]).collect();
        let (Some(&first), Some(&last), Some(h0)) = (free.first(), free.last(), sets.first())
        else {
            return false;
        };
        let (r0, c0) = (first / self.w, first % self.w);
        let (r1, c1) = (last / self.w, last % self.w);
        let size = h0.goal().size();
        if (c1 + 1 - c0, r1 + 1 - r0) != (size.width(), size.height())
            || free.len() != size.cells()
            || sets.iter().any(|h| *h.goal() != Board::solved(size))
            || free.iter().any(|&c| c % self.w < c0 || c % self.w > c1)
        {
            return false;
        }
        let mut tile = vec![0u8; self.n];
        for (k, &c) in free.iter().enumerate() {
            let t = goal.cells()[c];
            // The goal's tiles of the region are the tracked ones, the blank last.
            if (t == 0) != (k + 1 == free.len()) || (t != 0 && !self.tracked[t as usize]) {
                return false;
            }
            tile[t as usize] = if t == 0 { 0 } else { (k + 1) as u8 };
        }
        if (1..self.n).any(|t| self.tracked[t] && tile[t] == 0) {
            return false;
        }
        if sets
            .iter()
            .any(|h| h.dbs.iter().any(|d| d.tiles().len() > MAX_WORD_TILES))
        {
            return false;
        }
        let mut lookups = Vec::new();
        let mut width = 0;
        for h in sets.iter().take(MAX_REGION_SETS) {
            for (side, (dbs, reflected)) in h.side_dbs.iter().enumerate() {
                if dbs.is_empty() {
                    continue;
                }
                if lookups.len() == 2 * MAX_REGION_SETS {
                    break;
                }
                let from = match (reflected, &h.mirror) {
                    (true, Some((m, _))) => {
                        let mut inv = vec![0u8; m.len()];
                        for (t, &u) in m.iter().enumerate() {
                            inv[u as usize] = t as u8;
                        }
                        inv
                    }
                    _ => (0..size.cells() as u8).collect(),
                };
                let mut slot = vec![0u8; size.cells()];
                for d in dbs.clone() {
                    for (j, &u) in h.dbs[d].tiles().iter().enumerate() {
                        slot[from[u as usize] as usize] = j as u8;
                    }
                }
                lookups.push(Lookup {
                    h,
                    side,
                    offset: width,
                    owner: h.owners[side].iter().map(|o| o.0).collect(),
                    from,
                    slot,
                    side_cell: h.cell_maps[side].clone(),
                });
                width += h.dbs.len();
            }
        }
        let mut index_of = vec![u8::MAX; self.n];
        for (k, &c) in free.iter().enumerate() {
            index_of[c] = k as u8;
        }
        // A beam across the whole board ranked by one set: the learned correction
        // fitted for that set, if there is one.
        self.ranking = (free.len() == self.n && sets.len() == 1)
            .then(|| Ranking::shipped(size))
            .flatten()
            .filter(|r| r.fits(h0));
        self.region = Some(RegionDbs {
            lookups,
            width,
            cells: free,
            tile,
            index_of,
        });
        true
    }

    /// A beam across the whole board of `goal` (every tile tracked, every cell free)
    /// ranked by `set`; `None` if the set is not for `goal`.
    fn whole_board(goal: &Board, set: &'a PdbHeuristic) -> Option<BeamSetup<'a>> {
        let n = goal.size().cells();
        let tracked: Vec<bool> = (0..n).map(|t| t != 0).collect();
        let free = vec![true; n];
        let mut setup = BeamSetup::new(goal, tracked, free.clone(), 0);
        setup.use_databases(goal, &free, &[set]).then_some(setup)
    }

    /// The learned ranking's part kept move by move for the board `cells` (0 without
    /// one).
    fn kept(&self, cells: &[u8], vals: &[u8]) -> f32 {
        match (&self.ranking, &self.region) {
            (Some(k), Some(r)) => k.fresh(
                r.cells
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (r.tile[cells[c] as usize] as usize, i)),
                vals,
            ),
            _ => 0.0,
        }
    }

    /// A position's rank: [`BeamSetup::rank`], or with a learned ranking its rank from
    /// its kept part, its estimate `h`, its linear-conflict estimate `lc` and every
    /// tile's Manhattan distance `all`.
    #[inline]
    fn rank_with(&self, kept: f32, h: u32, lc: u32, all: u32) -> u64 {
        match &self.ranking {
            Some(k) => k.rank(kept, h, lc, all),
            None => self.rank(h, all),
        }
    }

    /// A position's rank (smaller is better) from its estimate `h` and every tile's
    /// Manhattan distance `all`: on a line, `focus` times the line's estimate plus every
    /// tile's distance; over every tile (`focus` 0), the estimate, ties going to fewer
    /// linear conflicts (`h - all`, twice their number), which beams find shorter ways
    /// from.
    #[inline]
    fn rank(&self, h: u32, all: u32) -> u64 {
        if self.focus == 0 {
            ((h as u64) << 16) | h.saturating_sub(all).min(0xffff) as u64
        } else {
            h as u64 * self.focus + all as u64
        }
    }

    #[inline]
    fn tile_hash(&self, tile: u8, cell: usize) -> u64 {
        if self.tracked[tile as usize] {
            self.zobrist[tile as usize * self.n + cell]
        } else {
            0
        }
    }

    fn hash(&self, cells: &[u8], blank: usize) -> u64 {
        cells
            .iter()
            .enumerate()
            .fold(self.zobrist[self.n * self.n + blank], |a, (i, &t)| {
                a ^ self.tile_hash(t, i)
            })
    }

    /// Tracked tiles that must leave line `r` (a row if `row`) to let the others pass:
    /// the line's tracked tiles at home in it minus their longest increasing run of goal
    /// positions.
    #[inline]
    fn conflicts(&self, cells: &[u8], row: bool, r: usize) -> u32 {
        self.lines.excess(row, r, |i| cells[i])
    }

    /// Every tile's Manhattan distance (tracked or not) on the board `cells`.
    fn manhattan(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(i, &t)| self.dist_all[t as usize * self.n + i] as u32)
            .sum()
    }

    /// The estimate: tracked tiles' Manhattan distances plus two moves per linear
    /// conflict among them. A lower bound on the moves to the tracked tiles' places.
    fn estimate(&self, cells: &[u8]) -> u32 {
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(i, &t)| self.dist[t as usize * self.n + i] as u32)
            .sum();
        let lc: u32 = (0..self.h)
            .map(|r| self.conflicts(cells, true, r))
            .sum::<u32>()
            + (0..self.w)
                .map(|c| self.conflicts(cells, false, c))
                .sum::<u32>();
        md + 2 * lc
    }

    /// The estimate after `tile` slid from `from` to `to`, `cells` being the cells after
    /// the move and `before` the cells before it.
    #[inline]
    fn update(&self, h: u32, before: &[u8], cells: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        if !self.tracked[tile as usize] {
            return h;
        }
        let d = &self.dist[tile as usize * self.n..];
        let md = h + d[to] as u32 - d[from] as u32;
        // A vertical move takes the tile from one row to another; only a row that is
        // the tile's home changes its conflicts (the others count home tiles only).
        // Likewise columns for a horizontal move.
        let (row, a, b, home) = if from % self.w == to % self.w {
            (
                true,
                from / self.w,
                to / self.w,
                self.goal_row[tile as usize] as usize,
            )
        } else {
            (
                false,
                from % self.w,
                to % self.w,
                self.goal_col[tile as usize] as usize,
            )
        };
        if home != a && home != b {
            return md;
        }
        let old = self.conflicts(before, row, home);
        let new = self.conflicts(cells, row, home);
        md + 2 * new - 2 * old
    }

    /// The cell the blank moves to with direction index `d`, if on the board and free.
    #[inline]
    fn target(&self, blank: usize, d: usize) -> Option<usize> {
        let to = self.next[blank * 4 + d];
        (to != u16::MAX).then_some(to as usize)
    }
}

/// The moves from the start to position `idx` of layer `layer` (0: the start).
fn path_to(history: &[Vec<u32>], layer: usize, mut idx: usize) -> Vec<Direction> {
    let mut moves = Vec::with_capacity(layer);
    for step in history[..layer].iter().rev() {
        moves.push(Direction::ALL[(step[idx] & 3) as usize]);
        idx = (step[idx] >> 2) as usize;
    }
    moves.reverse();
    moves
}

/// One beam search from `start` towards `setup`'s aim keeping `width` positions per
/// layer, on `threads` threads. With `cap`, positions that cannot reach the aim in fewer
/// than `cap` moves (depth plus estimate) are dropped, and the run ends at that depth.
/// With a `pace`, the width is set layer by layer to end by its time (see [`Pace`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn beam_run(
    setup: &BeamSetup,
    start: &Board,
    width: usize,
    cap: Option<usize>,
    threads: usize,
    watch: &Watch,
    nodes: &NodeCount,
    pace: Option<Pace>,
) -> Result<BeamEnd, SearchError> {
    let n = setup.n;
    // (At most 2^29 positions a layer: the way back packs an index in 30 bits.)
    let width0 = width.clamp(1, 1 << 29);
    let mut width = width0;
    // Seconds per position expanded, averaged over the full layers so far (for the pace).
    let mut per_position: Option<f64> = None;
    let vals0 = setup
        .region
        .as_ref()
        .map_or(vec![], |r| r.all_entries(start.cells()));
    let g2 = vals0.len();
    // With databases: every database's tiles' cells, a word each.
    let words0 = setup
        .region
        .as_ref()
        .map_or(vec![], |r| r.words(start.cells()));
    // The layers keep the linear-conflict estimate (kept up move by move); with
    // databases, positions are ranked by the larger of it and the databases' estimate.
    let h0 = setup.estimate(start.cells());
    let rank0 = setup
        .region
        .as_ref()
        .map_or(h0, |r| r.estimate(&vals0).max(h0));
    if h0 == 0 {
        return Ok(BeamEnd::Found(vec![]));
    }
    let mut layer = Layer {
        cells: start.cells().to_vec(),
        blank: vec![start.blank() as u16],
        h: vec![h0],
        hash: vec![setup.hash(start.cells(), start.blank())],
        all: vec![setup.manhattan(start.cells())],
        last: vec![4],
        vals: vals0,
        words: words0,
        kept: vec![],
    };
    // (A learned ranking is set only with databases: `use_databases` sets both.)
    let ranking = setup.ranking.as_ref();
    let kept0 = setup.kept(start.cells(), &layer.vals);
    if ranking.is_some() {
        layer.kept.push(kept0);
    }
    // A direct-mapped table of kept positions' hashes: drops repeats within a layer and,
    // while a slot survives, across layers.
    let slots = (width * 16).next_power_of_two().clamp(1 << 14, 1 << 24);
    let mut seen: Vec<u64> = try_vec(slots, "beam", || 0)?;
    let mask = slots - 1;
    seen[layer.hash[0] as usize & mask] = layer.hash[0];
    // For each layer past the first, every position's parent index and direction index
    // in one word (parent << 2 | direction).
    let mut history: Vec<Vec<u32>> = Vec::new();
    let threads = resolve_threads(threads).max(1);
    // Small layers (and their builds) are not worth a thread.
    let threads_for = |len: usize| if len < 4 * CHUNK { 1 } else { threads };
    let zb = n * n;
    let mut depth = 0usize;
    // The smallest rank kept so far: (rank, layer, index).
    // (The rank, not the estimate alone: a line's beam that trades its estimate for the
    // rest of the board is still going somewhere.)
    let mut best = (
        setup.rank_with(kept0, rank0, h0, layer.all[0]),
        0usize,
        0usize,
    );
    // Kept from layer to layer: every chunk's candidates, all of them together, and the
    // layer before this one (where the next is built).
    let mut parts: Vec<std::sync::Mutex<Vec<Cand>>> = Vec::new();
    let mut cands: Vec<Cand> = Vec::new();
    let mut keys: Vec<u64> = Vec::new();
    let mut spare = Layer::default();
    loop {
        if watch.expired() {
            return Ok(BeamEnd::Stopped);
        }
        let layer_start = std::time::Instant::now();
        depth += 1;
        if cap.is_some_and(|c| depth >= c) {
            return Ok(BeamEnd::Exhausted);
        }
        let count = layer.blank.len();
        let chunks = count.div_ceil(CHUNK);
        while parts.len() < chunks {
            parts.push(std::sync::Mutex::new(Vec::new()));
        }
        let limit = cap.map(|c| c as u32);
        let (layer_ref, seen_ref, parts_ref) = (&layer, &seen, &parts);
        let found = std::sync::atomic::AtomicU64::new(u64::MAX);
        let expand = |ci: usize| {
            // (Each chunk's list is kept from layer to layer: fresh memory every layer
            // cost a fifth of the time in the kernel zeroing pages.)
            let mut out =
                std::mem::take(&mut *parts_ref[ci].lock().unwrap_or_else(|e| e.into_inner()));
            out.clear();
            let mut cells = vec![0u8; n];
            let mut block_kids = [(
                [(0u8, 0usize, 0u64, [0u64; 2 * MAX_REGION_SETS]); 4],
                0usize,
            ); BLOCK];
            let (lo, hi) = (ci * CHUNK, ((ci + 1) * CHUNK).min(count));
            let mut generated = 0u64;
            for block in (lo..hi).step_by(BLOCK) {
                let end = (block + BLOCK).min(hi);
                // Every child's hash first, its slot of the kept positions and (with
                // databases) its lookups asked for, for a whole block of positions, so
                // that their cache misses overlap instead of coming one after another.
                for i in block..end {
                    let cells = &layer_ref.cells[i * n..(i + 1) * n];
                    let b = layer_ref.blank[i] as usize;
                    let last = layer_ref.last[i];
                    // Each child: its direction, the cell the blank moves to, its hash and
                    // (with databases) its lookups' indices.
                    let (kids, count) = &mut block_kids[i - block];
                    *count = 0;
                    let words = &layer_ref.words[i * g2..(i + 1) * g2];
                    for d in 0..4u8 {
                        if last != 4 && d == last ^ 1 {
                            continue;
                        }
                        let Some(to) = setup.target(b, d as usize) else {
                            continue;
                        };
                        let tile = cells[to];
                        let hash = layer_ref.hash[i]
                            ^ setup.tile_hash(tile, to)
                            ^ setup.tile_hash(tile, b)
                            ^ setup.zobrist[zb + b]
                            ^ setup.zobrist[zb + to];
                        prefetch(seen_ref, hash as usize & mask);
                        let mut pre = [0u64; 2 * MAX_REGION_SETS];
                        if let Some(r) = &setup.region {
                            // The tile moves to the blank's cell; the others stay.
                            pre = r.moved(words, tile, r.index_of[b]);
                        }
                        kids[*count] = (d, to, hash, pre);
                        *count += 1;
                    }
                    generated += *count as u64;
                }
                for i in block..end {
                    let before = &layer_ref.cells[i * n..(i + 1) * n];
                    // (With databases: the parent's entries, which its children update.)
                    let parent_vals = &layer_ref.vals[i * g2..(i + 1) * g2];
                    cells.copy_from_slice(before);
                    let b = layer_ref.blank[i] as usize;
                    let (kids, count) = &block_kids[i - block];
                    let sums = setup
                        .region
                        .as_ref()
                        .map_or([0; 2 * MAX_REGION_SETS], |r| r.sums(parent_vals));
                    for &(d, to, hash, ref pre) in &kids[..*count] {
                        let tile = cells[to];
                        cells[b] = tile;
                        cells[to] = 0;
                        // The linear-conflict estimate, and with databases the larger of it
                        // and theirs (both lower bounds; the larger ranks best, measured).
                        let lc = setup.update(layer_ref.h[i], before, &cells, tile, to, b);
                        let (h, vals) = match &setup.region {
                            Some(r) => {
                                let (pdb, vals) = r.update(parent_vals, &sums, tile, pre);
                                (pdb.max(lc), vals)
                            }
                            None => (lc, [0; 2 * MAX_REGION_SETS]),
                        };
                        cells[to] = tile;
                        cells[b] = 0;
                        if h == 0 {
                            found.fetch_min(
                                ((i as u64) << 2) | d as u64,
                                std::sync::atomic::Ordering::Relaxed,
                            );
                            continue;
                        }
                        if limit.is_some_and(|c| depth as u32 + h >= c) {
                            continue;
                        }
                        let da = &setup.dist_all[tile as usize * n..];
                        let all = layer_ref.all[i] + da[b] as u32 - da[to] as u32;
                        // A position kept before (in this run, while its slot lasts) is
                        // no candidate: on a line's beam the blank wandering among other
                        // tiles repeats positions all the time.
                        if seen_ref[hash as usize & mask] == hash {
                            continue;
                        }
                        // With a learned ranking: its kept part moves with the tile and
                        // the blank, and with the entries that changed.
                        let mut kept = 0.0;
                        if let (Some(k), Some(r)) = (ranking, &setup.region) {
                            let rt = r.tile[tile as usize] as usize;
                            let (cb, ct) = (r.index_of[b] as usize, r.index_of[to] as usize);
                            kept = layer_ref.kept[i] + k.tile_cell(rt, cb) - k.tile_cell(rt, ct)
                                + k.tile_cell(0, ct)
                                - k.tile_cell(0, cb);
                            for (j, l) in r.lookups.iter().enumerate() {
                                let d = l.owner[rt];
                                if d != NONE {
                                    let slot = l.offset + d as usize;
                                    kept +=
                                        k.entry(slot, vals[j]) - k.entry(slot, parent_vals[slot]);
                                }
                            }
                        }
                        out.push(Cand {
                            key: (setup.rank_with(kept, h, lc, all) << 24) | (hash >> 40),
                            all,
                            parent: i as u32,
                            dir: d,
                            h: lc,
                            hash,
                            vals,
                            kept,
                        });
                    }
                }
            }
            nodes.add((hi - lo) as u64, generated);
            *parts_ref[ci].lock().unwrap_or_else(|e| e.into_inner()) = out;
        };
        for_each_index(chunks, threads_for(count), expand);
        let found = found.into_inner();
        if found != u64::MAX {
            let mut moves = path_to(&history, history.len(), (found >> 2) as usize);
            moves.push(Direction::ALL[(found & 3) as usize]);
            return Ok(BeamEnd::Found(moves));
        }
        // Every chunk's candidates, in the order they came (their parents').
        let chunk_cands: Vec<_> = parts[..chunks]
            .iter()
            .map(|p| p.lock().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let total: usize = chunk_cands.iter().map(|p| p.len()).sum();
        if total == 0 {
            return Ok(BeamEnd::Exhausted);
        }
        if let Some(s) = setup.sampler {
            let all: Vec<Cand> = chunk_cands.iter().flat_map(|p| p.iter().copied()).collect();
            take_samples(s, &all, &layer, setup, depth);
        }
        // The `width` best keys, chosen among the keys alone (not the whole candidates),
        // and the candidates with them kept in the order they came, their parents'
        // (so that the layer is built reading the one before in order, not all over it):
        // every key below the cut, and as many equal to it as there is room for.
        let (cut, mut room) = if total > width {
            keys.clear();
            for p in &chunk_cands {
                keys.extend(p.iter().map(|c| c.key));
            }
            let (_, &mut cut, _) = keys.select_nth_unstable(width - 1);
            let below = keys.iter().filter(|&&k| k < cut).count();
            (cut, width - below)
        } else {
            (u64::MAX, usize::MAX)
        };
        // Repeats go as the kept positions are recorded: within the layer, and of
        // earlier layers while their slots survive. (The slots of candidates a few on
        // asked for ahead: the table is bigger than the caches, and this runs on one
        // thread.)
        cands.clear();
        for p in &chunk_cands {
            for (k, c) in p.iter().enumerate() {
                if let Some(a) = p.get(k + AHEAD) {
                    if a.key <= cut {
                        prefetch(&seen, a.hash as usize & mask);
                    }
                }
                if c.key > cut || (c.key == cut && room == 0) {
                    continue;
                }
                if c.key == cut {
                    room -= 1;
                }
                let s = &mut seen[c.hash as usize & mask];
                if *s != c.hash {
                    *s = c.hash;
                    cands.push(*c);
                }
            }
        }
        drop(chunk_cands);
        let m = cands.len();
        // The next layer goes where the one before this was (its memory reused).
        let next = &mut spare;
        next.clear();
        let region = setup.region.as_ref();
        let vals_len = if region.is_some() { g2 } else { 0 };
        fit(&mut next.cells, m * n)?;
        fit(&mut next.words, m * vals_len)?;
        fit(&mut next.vals, m * vals_len)?;
        fit(&mut next.blank, m)?;
        // What comes from the candidates alone, in order.
        let mut step = Vec::with_capacity(m);
        let mut low = (u64::MAX, 0);
        for (k, c) in cands.iter().enumerate() {
            next.h.push(c.h);
            next.hash.push(c.hash);
            next.all.push(c.all);
            next.last.push(c.dir);
            if ranking.is_some() {
                next.kept.push(c.kept);
            }
            step.push(c.parent << 2 | c.dir as u32);
            if c.key >> 24 < low.0 {
                low = (c.key >> 24, k);
            }
        }
        // What comes from the parents (anywhere in the layer: most of the copying), split
        // among the threads in runs of candidates.
        let build = |cands: &[Cand],
                     cells: &mut [u8],
                     words: &mut [u64],
                     vals: &mut [u8],
                     blank: &mut [u16]| {
            for (k, c) in cands.iter().enumerate() {
                // The parent a few candidates on, asked for ahead (each read would
                // otherwise wait on memory in turn).
                if let Some(a) = cands.get(k + AHEAD) {
                    let q = a.parent as usize;
                    prefetch(&layer.cells, q * n);
                    prefetch(&layer.cells, q * n + n - 1);
                    prefetch(&layer.blank, q);
                    if region.is_some() {
                        prefetch(&layer.words, q * g2);
                        prefetch(&layer.words, q * g2 + g2 - 1);
                        prefetch(&layer.vals, q * g2);
                    }
                }
                let p = c.parent as usize;
                let dst = &mut cells[k * n..(k + 1) * n];
                dst.copy_from_slice(&layer.cells[p * n..(p + 1) * n]);
                let b = layer.blank[p] as usize;
                let to = setup
                    .target(b, c.dir as usize)
                    .expect("checked on expansion");
                let tile = dst[to];
                dst[b] = tile;
                dst[to] = 0;
                blank[k] = to as u16;
                if let Some(r) = region {
                    let rt = r.tile[tile as usize] as usize;
                    let wd = &mut words[k * g2..(k + 1) * g2];
                    wd.copy_from_slice(&layer.words[p * g2..(p + 1) * g2]);
                    r.move_words(wd, tile, r.index_of[b]);
                    // (Tests run with debug assertions: every kept position's words
                    // checked against the ones worked out afresh.)
                    debug_assert_eq!(wd[..], r.words(dst)[..]);
                    let v = &mut vals[k * g2..(k + 1) * g2];
                    v.copy_from_slice(&layer.vals[p * g2..(p + 1) * g2]);
                    for (j, l) in r.lookups.iter().enumerate() {
                        let d = l.owner[rt];
                        if d != NONE {
                            v[l.offset + d as usize] = c.vals[j];
                        }
                    }
                    // (And the learned ranking's part kept move by move, against the
                    // one worked out afresh.)
                    debug_assert!(
                        ranking.is_none() || (c.kept - setup.kept(dst, v)).abs() < 1e-2,
                        "kept {} fresh {}",
                        c.kept,
                        setup.kept(dst, v)
                    );
                }
            }
        };
        let parts = threads_for(m);
        let per = m.div_ceil(parts).max(1);
        std::thread::scope(|sc| {
            let (mut cells, mut words, mut vals, mut blank) = (
                &mut next.cells[..],
                &mut next.words[..],
                &mut next.vals[..],
                &mut next.blank[..],
            );
            let mut runs = cands.chunks(per).peekable();
            while let Some(run) = runs.next() {
                let k = run.len();
                let (c0, c1) = std::mem::take(&mut cells).split_at_mut(k * n);
                let (a0, a1) = std::mem::take(&mut words).split_at_mut(k * vals_len);
                let (v0, v1) = std::mem::take(&mut vals).split_at_mut(k * vals_len);
                let (b0, b1) = std::mem::take(&mut blank).split_at_mut(k);
                (cells, words, vals, blank) = (c1, a1, v1, b1);
                if runs.peek().is_some() {
                    sc.spawn(move || build(run, c0, a0, v0, b0));
                } else {
                    build(run, c0, a0, v0, b0);
                }
            }
        });
        history.push(step);
        std::mem::swap(&mut layer, &mut spare);
        // On a pace: the width that ends this beam by its time, from what a position has
        // cost so far and the layers still expected (never under a sixteenth of the width
        // asked for, nor over twice it).
        if let Some(p) = &pace {
            if count * 2 >= width {
                let t = layer_start.elapsed().as_secs_f64() / count as f64;
                let avg = per_position.map_or(t, |a| 0.8 * a + 0.2 * t);
                per_position = Some(avg);
                let left = p.until.saturating_duration_since(std::time::Instant::now());
                let layers = p.layers.saturating_sub(depth).max(p.layers / 10).max(1);
                let fits = left.as_secs_f64() / layers as f64 / avg;
                let least = (width0 / 16).max(1);
                width = (fits as usize).clamp(least, (width0 * 2).min(p.max_width).max(least));
            }
        }
        if low.0 < best.0 {
            best = (low.0, depth, low.1);
        } else if depth - best.1 >= STALL_LAYERS {
            return Ok(BeamEnd::Stalled(path_to(&history, best.1, best.2)));
        }
    }
}

/// Sets aside `per_layer` of a layer's candidates `cands` (children of `layer`'s
/// positions, at `depth`), the same ones on every run.
fn take_samples(s: &Sampler, cands: &[Cand], layer: &Layer, setup: &BeamSetup, depth: usize) {
    let n = setup.n;
    let mut taken = s.taken.lock().unwrap_or_else(|e| e.into_inner());
    for k in 0..s.per_layer {
        let j =
            ((depth as u64 * 2_654_435_761 + k as u64 * 40_503) ^ 0x9e37) as usize % cands.len();
        let c = &cands[j];
        let p = c.parent as usize;
        let mut cells = layer.cells[p * n..(p + 1) * n].to_vec();
        let b = layer.blank[p] as usize;
        let to = setup
            .target(b, c.dir as usize)
            .expect("checked on expansion");
        cells[b] = cells[to];
        cells[to] = 0;
        taken.push((depth, cells));
    }
}

/// Runs one beam from `start` across the whole board, ranked by `dbs` (a set for the
/// usual goal of the board's size), samples `per_layer` of each layer's candidates and
/// labels each by the length of a plain beam's answer from it, on `threads` threads.
/// An error if the set does not fit the board.
///
/// ```no_run
/// // (Needs the 7x7 set, built by `npuzzle pdb build --size 7x7`.)
/// use npuzzle::request::{Core, Sources};
/// use npuzzle::search::ranking::SampleOptions;
/// use npuzzle::search::ranking_samples;
/// use npuzzle::Board;
/// let goal = Board::solved("7x7".parse().unwrap());
/// let core = Core::new(Sources::default());
/// let set = core.cached_pdbs(&goal, "auto").expect("the 7x7 set is cached");
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(1));
/// let options = SampleOptions { width: 256, per_layer: 1, label_width: 64, ranking: None };
/// let samples = ranking_samples(&start, &set, &options, 2).unwrap();
/// assert!(samples.iter().all(|s| s.label.is_none_or(|l| l >= s.lc)));
/// ```
pub fn ranking_samples(
    start: &Board,
    dbs: &PdbHeuristic,
    options: &SampleOptions,
    threads: usize,
) -> Result<Vec<RankingSample>, SearchError> {
    let size = start.size();
    let goal = Board::solved(size);
    let bad = |field, reason: String| SearchError::BadRequest { field, reason };
    check_beam_width(options.width).map_err(|r| bad("width", r))?;
    check_beam_width(options.label_width).map_err(|r| bad("label_width", r))?;
    if !(1..=64).contains(&options.per_layer) {
        return Err(bad(
            "per_layer",
            format!(
                "expected 1 to 64 samples a layer, found {}",
                options.per_layer
            ),
        ));
    }
    let setup_with = |ranking: Option<Ranking>, sampler| {
        let Some(mut s) = BeamSetup::whole_board(&goal, dbs) else {
            return Err(bad(
                "databases",
                format!(
                    "expected a set for the usual goal of a {size} board, found one for {}",
                    dbs.goal().size()
                ),
            ));
        };
        s.ranking = ranking;
        s.sampler = sampler;
        Ok(s)
    };
    let sampler = Sampler {
        per_layer: options.per_layer,
        taken: std::sync::Mutex::new(Vec::new()),
    };
    let watch = Watch::new(&Limits::default());
    let nodes = NodeCount::default();
    {
        let setup = setup_with(options.ranking.clone(), Some(&sampler))?;
        beam_run(
            &setup,
            start,
            options.width,
            None,
            threads,
            &watch,
            &nodes,
            None,
        )?;
    }
    let taken = std::mem::take(&mut *sampler.taken.lock().unwrap_or_else(|e| e.into_inner()));
    let plain = setup_with(None, None)?;
    // Each label: the length of a plain beam's answer from the sample (none if it stalls).
    let labels = crate::limits::par_map(taken.len(), threads, 1, |i| {
        let board = Board::from_cells(size, taken[i].1.clone()).expect("a child of a board");
        let end = beam_run(
            &plain,
            &board,
            options.label_width,
            None,
            1,
            &watch,
            &nodes,
            None,
        )?;
        Ok(match end {
            BeamEnd::Found(m) => Some(m.len() as u32),
            _ => None,
        })
    })
    .into_iter()
    .collect::<Result<Vec<Option<u32>>, SearchError>>()?;
    let region = plain.region.as_ref().expect("databases in use");
    Ok(taken
        .into_iter()
        .zip(labels)
        .map(|((depth, cells), label)| RankingSample {
            depth,
            entries: region.all_entries(&cells),
            lc: plain.estimate(&cells),
            md: plain.manhattan(&cells),
            cells,
            label,
        })
        .collect())
}

/// Nodes IDA* may spend finishing from a stalled beam's best position before the fast
/// solver finishes instead.
const FINISH_NODES: u64 = 200_000;

/// `start` to `goal` from a position a beam stalled at: IDA* within [`FINISH_NODES`]
/// nodes, else the fast solver.
fn finish(start: &Board, goal: &Board, limits: &Limits) -> Result<Vec<Direction>, SearchError> {
    let quiet = Limits {
        progress: None,
        max_nodes: Some(FINISH_NODES),
        ..limits.clone()
    };
    match super::idastar(start, goal, HeuristicKind::LinearConflict, &quiet) {
        Ok(s) => Ok(s.moves),
        Err(SearchError::TimeLimit { .. }) => {
            Ok(super::fast(start, goal, &unbounded(limits))?.moves)
        }
        Err(e) => Err(e),
    }
}

/// `limits` without a clock, node budget, cancel flag or progress hook: for the fast
/// solver, which takes milliseconds even on 16x16 and must answer when time is up.
fn unbounded(limits: &Limits) -> Limits {
    Limits {
        time_limit: None,
        max_nodes: None,
        cancel: None,
        progress: None,
        ..limits.clone()
    }
}

/// The side of the last region [`beam`] and [`anytime`] leave to one beam over all its tiles.
pub const STAGED_LAST_SIDE: usize = 6;

/// Regions no more than this on a side (and bigger than the last region on both) lose their
/// top row and left column together, in one beam over the L the two make. Measured with
/// `npuzzle bench --set random --algo anytime` (seed 7, 30 boards at 1 s; 10 at 5 s on
/// 16x16), length over Manhattan, a line at a time against Ls: 7x7 1.671 against 1.618,
/// 8x8 1.730 against 1.666, 10x10 1.892 against 1.832; 16x16 2.010 with lines only, 2.051
/// with Ls from the start, 1.989 with Ls from 10x10 down.
pub const STAGED_L_SIDE: usize = 10;

/// Per stage of a [`staged`] run, in order: its moves and its seconds.
pub(crate) type StageLog = Vec<(usize, f64)>;

/// A time for a whole [`staged`] run to end by, shared among its stages as an earlier run's
/// stages shared theirs (see [`Pace`]).
pub(crate) struct Plan<'p> {
    /// When the run should end.
    pub until: std::time::Instant,
    /// The earlier (narrower) run's stages.
    pub before: &'p [(usize, f64)],
    /// The widest any beam may grow to.
    pub max_width: usize,
}

impl Plan<'_> {
    /// The pace of stage `k`: its share of the time left as the earlier run's stage `k`
    /// had of the time from there on; none for a stage the earlier run did not reach.
    fn pace(&self, k: usize) -> Option<Pace> {
        let &(layers, secs) = self.before.get(k)?;
        let rest: f64 = self.before[k..].iter().map(|s| s.1).sum();
        let now = std::time::Instant::now();
        let left = self.until.saturating_duration_since(now);
        let share = if rest > 0.0 { secs / rest } else { 1.0 };
        Some(Pace {
            until: now + left.mul_f64(share.clamp(0.0, 1.0)),
            layers,
            max_width: self.max_width,
        })
    }
}

/// Whether the first of `dbs` (the set a beam is ranked by) is for a board of `width` x
/// `height`: a region that size is then one beam, ranked by it across all its tiles.
fn ranks_whole(dbs: &[&PdbHeuristic], width: usize, height: usize) -> bool {
    dbs.first().is_some_and(|d| {
        let s = d.goal().size();
        (s.width(), s.height()) == (width, height)
    })
}

/// A solution by beams of `width`: on a board wider or taller than
/// [`STAGED_LAST_SIDE`], line by line (the top row or the left column of what is left,
/// whichever side is longer; both at once, as an L, once what is left is at most
/// [`STAGED_L_SIDE`] on a side) by a beam that tracks those tiles, the solved lines
/// kept still; then one beam over the last region. A beam that stalls is finished by
/// IDA* or the fast solver. `None` if `cap` (a known answer's length) was reached first;
/// a time-limit error if the clock ran out.
#[allow(clippy::too_many_arguments)]
pub(crate) fn staged(
    start: &Board,
    goal: &Board,
    width: usize,
    cap: Option<usize>,
    threads: usize,
    watch: &Watch,
    limits: &Limits,
    nodes: &NodeCount,
    dbs: &[&PdbHeuristic],
    plan: Option<Plan>,
    log: &mut StageLog,
) -> Result<Option<Vec<Direction>>, SearchError> {
    log.clear();
    let size = start.size();
    let (w, h, n) = (size.width(), size.height(), size.cells());
    // A goal with its blank elsewhere than the bottom-right corner: solved to the goal
    // with the blank walked there, then walked back.
    let (g, back) = super::fast::corner_goal(goal);
    let mut board = start.clone();
    let mut moves: Vec<Direction> = Vec::new();
    let mut free = vec![true; n];
    let (mut r0, mut c0) = (0, 0);
    let over = |m: &Vec<Direction>| cap.is_some_and(|c| m.len() + back.len() >= c);
    loop {
        // What is left is the last region when it is at most STAGED_LAST_SIDE on a side,
        // or the size of the databases given (7x7 ones rank a 7x7 board whole).
        let whole = ranks_whole(dbs, w - c0, h - r0);
        let last = whole || (h - r0 <= STAGED_LAST_SIDE && w - c0 <= STAGED_LAST_SIDE);
        let mut tracked = vec![false; n];
        // A region no more than STAGED_L_SIDE on a side, and more than the last region on
        // both: its top row and left column in one beam (an L), which can interleave the
        // two lines' tiles.
        let ell = !last
            && h - r0 > STAGED_LAST_SIDE
            && w - c0 > STAGED_LAST_SIDE
            && (h - r0).max(w - c0) <= STAGED_L_SIDE;
        let line: Vec<usize> = if last {
            (r0 * w..n).filter(|&c| c % w >= c0).collect()
        } else if ell {
            (c0..w)
                .map(|c| r0 * w + c)
                .chain((r0 + 1..h).map(|r| r * w + c0))
                .collect()
        } else if h - r0 >= w - c0 {
            (c0..w).map(|c| r0 * w + c).collect()
        } else {
            (r0..h).map(|r| r * w + c0).collect()
        };
        for &c in &line {
            tracked[g.cells()[c] as usize] = true;
        }
        tracked[0] = false;
        // The focus on the line grows with the tiles left per tile of the line: a sixth
        // of that ratio (1 on 7x7, 3 on 16x16: the best measured on random boards within
        // the noise); on the last region the estimate decides, ties going to fewer
        // conflicts (see `BeamSetup::rank`).
        let left_tiles = free.iter().filter(|&&f| f).count() - 1;
        let focus = if last {
            0
        } else {
            ((left_tiles as f64 / line.len() as f64 / 6.0).round() as u64).max(1)
        };
        let mut setup = BeamSetup::new(&g, tracked, free.clone(), focus);
        if last {
            setup.use_databases(&g, &free, dbs);
        }
        let left = cap.map(|c| c.saturating_sub(moves.len() + back.len()));
        let stall = |m: Vec<Direction>| -> Result<Vec<Direction>, Vec<Direction>> { Err(m) };
        let stage = log.len();
        let pace = plan.as_ref().and_then(|p| p.pace(stage));
        let began = std::time::Instant::now();
        let part = match beam_run(&setup, &board, width, left, threads, watch, nodes, pace)? {
            BeamEnd::Found(m) => Ok(m),
            BeamEnd::Exhausted if left.is_some() => return Ok(None),
            BeamEnd::Stopped => {
                // Out of time: the lines solved so far are kept and the fast solver
                // finishes (milliseconds), so that a run cut short is not lost.
                moves.extend(super::fast(&board, &g, &unbounded(limits))?.moves);
                break;
            }
            // Without a cap a beam ends only at its aim or at a stall; a beam that lost
            // every position (a tiny region, all repeats) is a stall where it started.
            BeamEnd::Exhausted => stall(vec![]),
            BeamEnd::Stalled(m) => stall(m),
        };
        let part = match part {
            Ok(m) => m,
            Err(mut m) => {
                let mut mid = board.clone();
                mid.apply_all(&m).expect("the beam's moves are legal");
                if !last {
                    // A line's beam stalls only on a freak board: the fast solver takes
                    // the board from there.
                    m.extend(finish(&mid, &g, limits)?);
                    moves.extend(m);
                    break;
                }
                m.extend(finish(&mid, &g, limits)?);
                m
            }
        };
        board.apply_all(&part).expect("the beam's moves are legal");
        log.push((part.len(), began.elapsed().as_secs_f64()));
        moves.extend(part);
        if over(&moves) {
            return Ok(None);
        }
        if last {
            break;
        }
        if ell {
            r0 += 1;
            c0 += 1;
        } else if h - r0 >= w - c0 {
            r0 += 1;
        } else {
            c0 += 1;
        }
        for &c in &line {
            free[c] = false;
        }
    }
    moves.extend(crate::sequence::invert(&back));
    let moves = simplify(&moves);
    Ok(cap.is_none_or(|c| moves.len() < c).then_some(moves))
}

/// A beam search from `start` to `goal` with `width` positions per layer, within
/// `limits`, on `threads` threads (0: every core): a valid solution, not proven shortest.
/// Boards bigger than 5x5 are solved a line at a time ([`STAGED_LAST_SIDE`]). Wider
/// beams take longer and find shorter answers.
///
/// ```
/// use npuzzle::search::beam;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("8x8".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(3));
/// let moves = beam(&start, &goal, 100, 1, &Limits::default()).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&moves).unwrap();
/// assert_eq!(b, goal);
/// ```
pub fn beam(
    start: &Board,
    goal: &Board,
    width: usize,
    threads: usize,
    limits: &Limits,
) -> Result<Vec<Direction>, SearchError> {
    let watch = Watch::new(limits);
    if crate::parity::precheck(start, goal)? {
        return Ok(vec![]);
    }
    Ok(staged(
        start,
        goal,
        width,
        None,
        threads,
        &watch,
        limits,
        &NodeCount::default(),
        &[],
        None,
        &mut StageLog::new(),
    )?
    .expect("no cap: the beam always answers"))
}

/// What [`anytime`] answers.
#[derive(Debug, Clone)]
pub struct AnytimeAnswer {
    /// The shortest solution found.
    pub solution: crate::solution::Solution,
    /// A proven lower bound on the shortest solution's length (the linear-conflict
    /// estimate, or what the opening exact search proved).
    pub lower_bound: u32,
    /// Whether the solution is proven shortest (the opening exact search found it).
    pub proven: bool,
    /// The widest beam that ran to its end (0: none did, the answer is the fast
    /// solver's, or the exact search's).
    pub width: usize,
    /// Whether the beams' last region is ranked by pattern databases (given to
    /// [`anytime_with_databases`], and of that region's size).
    pub databases: bool,
}

/// Whether `sets` rank the last region [`staged`] leaves of a board of `size` towards
/// any goal: their goal is the usual one of a board that region's size, and the region is
/// at least half the board. (On bigger boards the lines before it are most of the work,
/// and the slower lookups cost them width: 10x10 at 1 s gave 1.885 times the Manhattan
/// distance with them, 1.852 without; 8x8 1.681 and 1.689.)
fn region_fits(size: crate::board::Size, sets: &[&PdbHeuristic]) -> bool {
    sets.first().is_some_and(|h| {
        let s = h.goal().size();
        (s == size || region_for(size) == Some(s))
            && sets.iter().all(|h| *h.goal() == Board::solved(s))
    })
}

/// The size of the last region the beams of [`anytime`] leave of a board of `size`, if
/// databases of that size would rank it (it is at least half the board), else `None`.
///
/// ```
/// use npuzzle::search::region_for;
/// let six = "6x6".parse().unwrap();
/// assert_eq!(region_for("7x7".parse().unwrap()), Some(six));
/// assert_eq!(region_for("10x10".parse().unwrap()), None);
/// ```
pub fn region_for(size: crate::board::Size) -> Option<crate::board::Size> {
    let region = crate::board::Size::new(
        size.width().min(STAGED_LAST_SIDE),
        size.height().min(STAGED_LAST_SIDE),
    )
    .ok()?;
    (size.cells() <= 2 * region.cells()).then_some(region)
}

/// The databases' estimate of `start` towards `goal` where the whole board is the region
/// they rank (the goal's blank in the bottom-right corner): the tiles renamed by their
/// goal cells. 0 otherwise.
fn region_bound(start: &Board, goal: &Board, sets: &[&PdbHeuristic]) -> u32 {
    let n = goal.cells().len();
    if goal.blank() != n - 1 || !sets.iter().all(|h| h.goal().size() == goal.size()) {
        return 0;
    }
    let mut name = vec![0u8; n];
    for (c, &t) in goal.cells().iter().enumerate() {
        name[t as usize] = if t == 0 { 0 } else { (c + 1) as u8 };
    }
    let cells: Vec<u8> = start.cells().iter().map(|&t| name[t as usize]).collect();
    match Board::from_cells(goal.size(), cells) {
        Ok(b) => sets.iter().map(|h| h.estimate(&b)).max().unwrap_or(0),
        Err(_) => 0,
    }
}

/// The time [`anytime`] takes when the limits give none.
pub const ANYTIME_SECONDS: f64 = 1.0;

/// The widest beam [`anytime`] tries (memory: 4 bytes per position per layer for
/// the way back, plus the layers themselves).
pub const ANYTIME_MAX_WIDTH: usize = 1 << 20;

/// The window lengths [`anytime`] polishes its answer with, in turn, while time lasts.
const POLISH_WINDOWS: [usize; 4] = [16, 24, 32, 40];

/// The share of the time left that [`anytime`]'s last, paced beam is given (the rest is
/// for polishing its answer).
const PACED_SHARE: f64 = 0.95;

/// [`PACED_SHARE`] where one beam crosses the whole board, ranked by databases.
const WHOLE_PACED_SHARE: f64 = 0.99;

/// The width from which a whole-board beam ranked by databases moves to its last run
/// sooner (see [`next_width`]).
const WHOLE_SOONER_WIDTH: usize = 2048;

/// Bytes [`anytime`]'s beams and the databases ranking them may use together at most,
/// whatever the memory limit allows more (3.5 GiB: the beams get what the databases
/// leave, at least [`ANYTIME_MIN_BEAM_MEMORY`]).
const ANYTIME_MEMORY: u64 = 7 << 29;

/// Bytes [`anytime`]'s beams may always use, however large the databases.
const ANYTIME_MIN_BEAM_MEMORY: u64 = 1 << 30;

/// The anytime solver for big boards: the best answer it can find within the time limit
/// ([`ANYTIME_SECONDS`] without one), which only ever gets shorter as it runs.
///
/// It runs, in turn: IDA* with linear conflict for [`AUTO_QUICK_NODES`](super::AUTO_QUICK_NODES)
/// nodes (boards a few dozen moves from the goal: a proven answer); the fast solver (an
/// answer at once); then beams ([`beam`]) of growing width, each capped by the best
/// answer so far, the width chosen to fill the time left; and last, every window of 16
/// moves of the best answer replaced by a shortest one ([`optimize`](super::optimize)).
/// Each shorter answer is told to the progress hook (`best`). Runs on `threads` threads
/// (0: every core). The clock or the cancel flag ends it with the best answer so far;
/// only a cancel before any answer is an error.
///
/// ```
/// use npuzzle::search::anytime;
/// use npuzzle::{Board, Limits};
/// use std::time::Duration;
/// let goal = Board::solved("7x7".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(9));
/// let limits = Limits { time_limit: Some(Duration::from_millis(300)), ..Limits::default() };
/// let a = anytime(&start, &goal, 1, &limits).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&a.solution.moves).unwrap();
/// assert_eq!(b, goal);
/// assert!(a.lower_bound as usize <= a.solution.len());
/// ```
pub fn anytime(
    start: &Board,
    goal: &Board,
    threads: usize,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    anytime_above(start, goal, threads, limits, 0, &[], None)
}

/// [`anytime`] with pattern databases for the last region its beams solve (6x6 on every
/// board at least 6x6; the whole board on 6x6): databases built for the usual goal of a
/// board that size (blank last), of any partition (`npuzzle pdb build --size 6x6` makes the
/// default one). Where that region is at least half the board (6x6 to 8x8, 12x6), its
/// beam ranks positions by the larger of the databases' sum and the linear-conflict
/// estimate: shorter answers for the same time ([`AnytimeAnswer::databases`] says so);
/// other boards are solved as by [`anytime`]. Several sets (of one size) rank by the
/// largest of their estimates; the first two are used.
///
/// ```
/// use npuzzle::heuristic::pdb::{partition, PatternDb, PdbHeuristic};
/// use npuzzle::search::anytime_with_databases;
/// use npuzzle::{Board, Limits};
/// use std::time::Duration;
/// // Small groups for the example (the default 6x6 partition takes minutes to build).
/// let region = Board::solved("6x6".parse().unwrap());
/// let dbs = partition(&region, "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24/25,26,27/28,29,30/31,32,33/34,35")
///     .unwrap()
///     .iter()
///     .map(|tiles| PatternDb::build(&region, tiles, &Limits::default(), 1, &mut |_| {}).unwrap())
///     .collect();
/// let dbs = PdbHeuristic::new(&region, dbs).unwrap();
/// let goal = Board::solved("7x6".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(9));
/// let limits = Limits { time_limit: Some(Duration::from_millis(300)), ..Limits::default() };
/// let a = anytime_with_databases(&start, &goal, &[&dbs], 1, &limits).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&a.solution.moves).unwrap();
/// assert_eq!(b, goal);
/// ```
pub fn anytime_with_databases(
    start: &Board,
    goal: &Board,
    dbs: &[&PdbHeuristic],
    threads: usize,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    anytime_above(start, goal, threads, limits, 0, dbs, None)
}

/// The anytime solver's beams at one `width` (1 to [`ANYTIME_MAX_WIDTH`]) instead of
/// widths fitted to the time: the same stages and databases as
/// [`anytime_with_databases`], run once, then the same polish. Without a time limit there
/// is no clock (the run ends when its beams do), so that, unlike answers fitted to the
/// time, its answer does not depend on the machine's speed; with one, the clock still
/// ends it with the best answer so far. An error if the width does not fit the memory
/// limit.
///
/// ```
/// use npuzzle::search::beams_at_width;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("7x7".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(9));
/// let a = beams_at_width(&start, &goal, &[], 64, 1, &Limits::default()).unwrap();
/// let b = beams_at_width(&start, &goal, &[], 64, 1, &Limits::default()).unwrap();
/// assert_eq!(a.solution.moves, b.solution.moves);
/// assert_eq!(a.width, 64);
/// let mut end = start.clone();
/// end.apply_all(&a.solution.moves).unwrap();
/// assert_eq!(end, goal);
/// ```
pub fn beams_at_width(
    start: &Board,
    goal: &Board,
    dbs: &[&PdbHeuristic],
    width: usize,
    threads: usize,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    anytime_above(start, goal, threads, limits, 0, dbs, Some(width))
}

/// The time the anytime solver takes for a `time_limit`: the limit, else
/// [`ANYTIME_SECONDS`]; at a `fixed` width without a limit, none (no clock).
pub(crate) fn anytime_time(
    time_limit: Option<std::time::Duration>,
    fixed: Option<usize>,
) -> Option<std::time::Duration> {
    match (time_limit, fixed) {
        (None, Some(_)) => None,
        (t, _) => Some(t.unwrap_or(std::time::Duration::from_secs_f64(ANYTIME_SECONDS))),
    }
}

/// Checks a beam width asked for: 1 to [`ANYTIME_MAX_WIDTH`].
pub fn check_beam_width(width: usize) -> Result<(), String> {
    if (1..=ANYTIME_MAX_WIDTH).contains(&width) {
        Ok(())
    } else {
        Err(format!(
            "expected a beam width from 1 to {ANYTIME_MAX_WIDTH}, found {width}"
        ))
    }
}

/// The anytime solver's next width after a run at `width` that would fit `fits` times in
/// the time left: eight times wider while that fits `widen_while` times (24, or 64 where
/// one beam crosses the whole board and is [`WHOLE_SOONER_WIDTH`] wide), else the last
/// run, as wide as fills nine tenths of the time left (`true`: it is the last).
fn next_width(width: usize, fits: f64, widen_while: f64) -> (usize, bool) {
    if fits >= widen_while {
        (width * 8, false)
    } else {
        ((width as f64 * fits * 0.9) as usize, true)
    }
}

/// [`anytime`] for a board already proven to need at least `proven` moves (by an exact
/// search that ran out of time): its answer's bound and the bounds its progress reports
/// are never below that. With a `fixed` width, its beams run once at that width (see
/// [`beams_at_width`]).
pub(crate) fn anytime_above(
    start: &Board,
    goal: &Board,
    threads: usize,
    limits: &Limits,
    proven: u32,
    dbs: &[&PdbHeuristic],
    fixed: Option<usize>,
) -> Result<AnytimeAnswer, SearchError> {
    use std::time::{Duration, Instant};
    if let Some(w) = fixed {
        check_beam_width(w).map_err(|reason| SearchError::BadRequest {
            field: "beam_width",
            reason,
        })?;
    }
    // A margin of 6% (at most 0.3 s) for what cannot stop at once: the layer or window
    // under way, the answer's assembly.
    let time = anytime_time(limits.time_limit, fixed);
    let limits = Limits {
        time_limit: time.map(|time| time - (time * 6 / 100).min(Duration::from_millis(300))),
        ..limits.clone()
    };
    let watch = Watch::new(&limits);
    // Nodes: the opening IDA*'s, then every beam's positions and children.
    let nodes = NodeCount::default();
    let databases = region_fits(start.size(), dbs);
    let answer = |moves: Vec<Direction>, lower_bound, proven, width| AnytimeAnswer {
        solution: crate::solution::Solution {
            moves,
            stats: crate::solution::Stats {
                elapsed: watch.elapsed(),
                expanded: nodes.get().0,
                generated: nodes.get().1,
                ..Default::default()
            },
        },
        lower_bound,
        proven,
        width,
        databases,
    };
    if crate::parity::precheck(start, goal)? {
        return Ok(answer(vec![], 0, true, 0));
    }
    let quiet = Limits {
        progress: None,
        ..limits.clone()
    };
    // A board near the goal: proven at once.
    let quick = Limits {
        max_nodes: Some(
            limits
                .max_nodes
                .unwrap_or(u64::MAX)
                .min(super::AUTO_QUICK_NODES),
        ),
        ..quiet.clone()
    };
    let mut lower_bound = crate::heuristic::Heuristic::estimate(
        &crate::heuristic::LinearConflict::new(goal),
        start.cells(),
    )
    .max(proven)
    .max(if databases {
        region_bound(start, goal, dbs)
    } else {
        0
    });
    match super::idastar(start, goal, HeuristicKind::LinearConflict, &quick) {
        Ok(s) => {
            nodes.add(s.stats.expanded, s.stats.generated);
            let len = s.len() as u32;
            return Ok(answer(s.moves, len, true, 0));
        }
        Err(SearchError::TimeLimit {
            lower_bound: l,
            expanded,
            ..
        }) => {
            // (A stopped search tells its expanded nodes only.)
            nodes.add(expanded, 0);
            lower_bound = lower_bound.max(l)
        }
        Err(e) => return Err(e),
    }
    // Cancelled before any answer: said so, not answered.
    if limits
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    {
        return Err(watch.timeout("anytime", lower_bound, nodes.get().0));
    }
    // An answer at once, whatever the clock says (milliseconds even on 16x16).
    let mut best = super::fast(start, goal, &unbounded(&limits))?.moves;
    let mut width_done = 0;
    watch.report_best(
        "fast",
        Some(lower_bound),
        nodes.get().0,
        Some(best.len() as u32),
    );
    // Memory per beam position: the way back per layer (a generous layer count: three
    // times the estimate), two layers' cells (and with databases their region cells,
    // MAX_CELLS bytes a position), three candidates twice (the threads' lists, kept from layer
    // to layer, and all of them together).
    let per = 4 * 3 * lower_bound.max(8) as u64
        + 2 * start.size().cells() as u64
        + if databases { 2 * MAX_CELLS as u64 } else { 0 }
        + 6 * std::mem::size_of::<Cand>() as u64;
    let db_bytes: u64 = if databases {
        dbs.iter()
            .take(MAX_REGION_SETS)
            .flat_map(|h| h.databases())
            .map(|d| d.len() as u64)
            .sum()
    } else {
        0
    };
    let room = ANYTIME_MEMORY
        .saturating_sub(db_bytes)
        .max(ANYTIME_MIN_BEAM_MEMORY);
    let max_width = ((limits.max_memory.min(room) / per) as usize).clamp(1, ANYTIME_MAX_WIDTH);
    if let Some(w) = fixed.filter(|&w| w > max_width) {
        return Err(SearchError::BadRequest {
            field: "beam_width",
            reason: format!(
                "expected a beam width of at most {max_width} for this {} board within the \
                 memory left to the beams ({} MiB), found {w}",
                start.size(),
                limits.max_memory.min(room) >> 20
            ),
        });
    }
    let mut width = fixed.unwrap_or(32.min(max_width));
    // One beam across the whole board, ranked by databases of its size: its answer
    // gains next to nothing from the polish, so the last run gets the polish's share
    // too; and once its beams are WHOLE_SOONER_WIDTH wide, the last run comes as soon
    // as a run eight times wider would not fit 64 times (see `next_width`).
    let size = start.size();
    let whole = databases && ranks_whole(dbs, size.width(), size.height());
    let share = if whole {
        WHOLE_PACED_SHARE
    } else {
        PACED_SHARE
    };
    // The last run's stages, and whether the next run is the last (paced to the time).
    let (mut before, mut log) = (StageLog::new(), StageLog::new());
    let mut last = false;
    while !watch.expired() && (best.len() as u32) > lower_bound {
        let t = Instant::now();
        let plan = (last && !before.is_empty()).then(|| Plan {
            until: t + watch.remaining().unwrap_or_default().mul_f64(share),
            before: &before,
            max_width,
        });
        match staged(
            start,
            goal,
            width,
            Some(best.len()),
            threads,
            &watch,
            &quiet,
            &nodes,
            if databases { dbs } else { &[] },
            plan,
            &mut log,
        ) {
            Ok(Some(m)) => {
                best = m;
                watch.report_best(
                    "beam",
                    Some(lower_bound),
                    nodes.get().0,
                    Some(best.len() as u32),
                );
                width_done = width;
            }
            Ok(None) => width_done = width,
            Err(SearchError::TimeLimit { .. }) => break,
            Err(e) => return Err(e),
        }
        let took = t.elapsed().as_secs_f64().max(1e-4);
        let left = watch.remaining().unwrap_or_default().as_secs_f64();
        // Time grows about as the width: eight times wider while that leaves room for
        // more, else as wide as fills nine tenths of the time left. That last run is
        // paced (see `Plan`): its beams' widths are set layer by layer to end within
        // `share` of the time left, because a run the clock cuts short is lost
        // (measured on 100 7x7 boards at 1 s: 1.582 and 1.582 paced, 1.582 and 1.609
        // unpaced). Moving to the last run sooner (only while eight times wider fits 64
        // times, not 24) everywhere cost at 1 s (alternating builds: 7x7 1.584 and 1.591
        // against 1.574 and 1.587, 10x10 1.846 and 1.867 against 1.834 and 1.833, 6x6 at
        // 2 s 1.408 and 1.412 against 1.405 and 1.402: a last run paced by a much narrower
        // one); on a whole-board beam ranked by databases from width 2,048 on, with the
        // polish's share given to the last run, it gains at 10 s (7x7, 78 boards: 1.406
        // against 1.410; 6x6, 30: 1.377 against 1.379) and changes nothing at 1 s (6x6:
        // 1.433 and 1.433 against 1.432 and 1.429). See README, "The schedule of widths".
        let fits = left / took;
        // A run that solved every stage (not cut short by the cap) shares the next one's
        // time among the stages.
        if before.is_empty() || log.len() >= before.len() {
            std::mem::swap(&mut before, &mut log);
        }
        let widen_while = if whole && width >= WHOLE_SOONER_WIDTH {
            64.0
        } else {
            24.0
        };
        let (next, is_last) = next_width(width, fits, widen_while);
        last |= is_last;
        if fixed.is_some() || next < width + width / 8 || width >= max_width {
            break;
        }
        width = next.min(max_width);
    }
    // The last polish: windows of 16 moves, then longer ones, replaced by shortest ones
    // while time lasts (a window cut short by the clock changes nothing).
    for window in POLISH_WINDOWS {
        if best.len() as u32 <= lower_bound || watch.expired() {
            break;
        }
        let polish = Limits {
            time_limit: watch.remaining(),
            ..quiet.clone()
        };
        if let Ok(m) = super::optimize::optimize_within(start, &best, window, &polish) {
            if m.len() < best.len() {
                best = m;
                watch.report_best(
                    "optimize",
                    Some(lower_bound),
                    nodes.get().0,
                    Some(best.len() as u32),
                );
            }
        }
    }
    let proven = best.len() as u32 == lower_bound;
    Ok(answer(best, lower_bound, proven, width_done))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Heuristic, LinearConflict};
    use crate::scramble::{uniform, Rng};

    /// The estimate kept up move by move equals the one computed afresh, for every
    /// subset of tracked tiles tried; with every tile tracked it is linear conflict.
    #[test]
    fn the_updated_estimate_is_the_fresh_one() {
        let mut rng = Rng::new(8);
        for shape in ["3x3", "5x4", "4x7", "9x9", "16x3"] {
            let goal = uniform(&Board::solved(shape.parse().unwrap()), &mut rng);
            let n = goal.cells().len();
            for part in 0..3 {
                let tracked: Vec<bool> = (0..n)
                    .map(|t| t != 0 && (part == 0 || rng.below(part + 1) == 0))
                    .collect();
                let setup = BeamSetup::new(&goal, tracked, vec![true; n], 1);
                let lc = LinearConflict::new(&goal);
                let mut b = uniform(&goal, &mut rng);
                let mut h = setup.estimate(b.cells());
                for _ in 0..500 {
                    let before = b.cells().to_vec();
                    let d = Direction::ALL[rng.below(4) as usize];
                    let from = b.blank();
                    if b.apply(d).is_err() {
                        continue;
                    }
                    let tile = b.cells()[from];
                    h = setup.update(h, &before, b.cells(), tile, b.blank(), from);
                    assert_eq!(h, setup.estimate(b.cells()), "{shape}");
                    if part == 0 {
                        assert_eq!(h, lc.estimate(b.cells()), "{shape}");
                    }
                }
            }
        }
    }

    /// Databases of `groups` for the usual goal of a `size` board, built here.
    fn small_set(size: &str, groups: &[&[u8]]) -> PdbHeuristic {
        let goal = Board::solved(size.parse().unwrap());
        let dbs = groups
            .iter()
            .map(|t| {
                crate::heuristic::pdb::PatternDb::build(
                    &goal,
                    t,
                    &Limits::default(),
                    0,
                    &mut |_| {},
                )
                .unwrap()
            })
            .collect();
        PdbHeuristic::new(&goal, dbs).unwrap()
    }

    /// A beam across the whole board of `set`'s size, ranked by it.
    fn whole(set: &PdbHeuristic) -> BeamSetup<'_> {
        BeamSetup::whole_board(set.goal(), set).expect("the set's own goal")
    }

    /// With a learned ranking the beams still reach the goal, and its part kept move by
    /// move equals the one worked out afresh (on every kept position: tests run with
    /// debug assertions); it changes which positions are kept.
    #[test]
    fn a_learned_ranking_is_kept_up_and_the_beams_still_end() {
        let set = small_set(
            "4x4",
            &[
                &[1, 2, 3, 4],
                &[5, 6, 7, 8],
                &[9, 10, 11, 12],
                &[13, 14, 15],
            ],
        );
        let lookups = set.side_dbs.iter().filter(|(d, _)| !d.is_empty()).count();
        let mut rng = Rng::new(5);
        let mut w = |k: usize| -> Vec<f32> {
            (0..k)
                .map(|_| (rng.below(2001) as f32 - 1000.0) / 2000.0)
                .collect()
        };
        let ranking = Ranking::from_parts(
            "4x4".parse().unwrap(),
            set.dbs.iter().map(|d| d.tiles().to_vec()).collect(),
            lookups,
            0.3,
            w(16 * 16),
            w(lookups * 4 * super::super::ranking::ENTRY_SLOTS),
            [0.2, -0.1, 0.1, 0.3],
        )
        .unwrap();
        assert!(ranking.fits(&set));
        let plain = whole(&set);
        let mut learned = whole(&set);
        learned.ranking = Some(ranking);
        let (watch, nodes) = (Watch::new(&Limits::default()), NodeCount::default());
        let mut differ = 0;
        for seed in 0..8 {
            let start = uniform(set.goal(), &mut Rng::new(seed));
            let mut answers = Vec::new();
            for setup in [&plain, &learned] {
                let BeamEnd::Found(m) =
                    beam_run(setup, &start, 64, None, 1, &watch, &nodes, None).unwrap()
                else {
                    panic!("board {seed}: no answer");
                };
                let mut b = start.clone();
                b.apply_all(&m).unwrap();
                assert_eq!(&b, set.goal(), "board {seed}");
                answers.push(m);
            }
            differ += (answers[0] != answers[1]) as usize;
        }
        assert!(differ > 0, "the ranking changed no answer");
        // Fitted for other databases: it does not fit.
        let other = small_set(
            "4x4",
            &[
                &[1, 2, 5, 6],
                &[3, 4, 7, 8],
                &[9, 10, 13, 14],
                &[11, 12, 15],
            ],
        );
        assert!(!learned.ranking.as_ref().unwrap().fits(&other));
    }

    /// Samples: as many a layer as asked, the same on every run, each label a length no
    /// shorter than the shortest (breadth-first search) and of its parity, the estimates
    /// lower bounds; bad options refused.
    #[test]
    fn ranking_samples_are_labelled_by_beams_from_them() {
        let set = small_set("3x3", &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
        let goal = set.goal().clone();
        let options = SampleOptions {
            width: 16,
            per_layer: 2,
            label_width: 4,
            ranking: None,
        };
        for seed in 0..4 {
            let start = uniform(&goal, &mut Rng::new(100 + seed));
            let samples = ranking_samples(&start, &set, &options, 2).unwrap();
            assert_eq!(samples, ranking_samples(&start, &set, &options, 1).unwrap());
            let layers = samples.iter().map(|s| s.depth).max().unwrap();
            for d in 1..=layers {
                assert_eq!(
                    samples.iter().filter(|s| s.depth == d).count(),
                    2,
                    "layer {d}"
                );
            }
            let mut labelled = 0;
            for s in &samples {
                let b = Board::from_cells(goal.size(), s.cells.clone()).unwrap();
                let best = super::super::bfs(&b, &goal, &Limits::default())
                    .unwrap()
                    .moves
                    .len() as u32;
                for lookup in s.entries.chunks(set.dbs.len()) {
                    assert!(lookup.iter().map(|&x| x as u32).sum::<u32>() <= best);
                }
                assert!(s.md <= s.lc && s.lc <= best);
                if let Some(l) = s.label {
                    assert!(
                        l >= best && (l - best) % 2 == 0,
                        "label {l}, shortest {best}"
                    );
                    labelled += 1;
                }
            }
            assert!(labelled > samples.len() / 2);
        }
        let start = uniform(&goal, &mut Rng::new(1));
        for (o, field) in [
            (
                SampleOptions {
                    width: 0,
                    ..options.clone()
                },
                "width",
            ),
            (
                SampleOptions {
                    label_width: 0,
                    ..options.clone()
                },
                "label_width",
            ),
            (
                SampleOptions {
                    per_layer: 0,
                    ..options.clone()
                },
                "per_layer",
            ),
            (
                SampleOptions {
                    per_layer: 65,
                    ..options.clone()
                },
                "per_layer",
            ),
        ] {
            match ranking_samples(&start, &set, &o, 1) {
                Err(SearchError::BadRequest { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{field}: {other:?}"),
            }
        }
        let four = uniform(&Board::solved("4x4".parse().unwrap()), &mut Rng::new(1));
        match ranking_samples(&four, &set, &options, 1) {
            Err(SearchError::BadRequest { field, reason }) => {
                assert_eq!(field, "databases");
                assert!(reason.contains("3x3"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Small databases for the usual 6x6 goal: groups of three tiles, in rows (`rows`) or
    /// in columns.
    fn small_6x6(rows: bool) -> PdbHeuristic {
        let order: Vec<u8> = (0..36u8)
            .map(|k| if rows { k } else { (k % 6) * 6 + k / 6 })
            .filter(|&c| c != 35)
            .map(|c| c + 1)
            .collect();
        small_set("6x6", &order.chunks(3).collect::<Vec<_>>())
    }

    /// The region's estimate kept up move by move (entries, indices asked for ahead)
    /// equals the databases' own estimate of the region renamed to a 6x6 board, the
    /// larger of two sets; the databases fit only a region of their size with the usual
    /// goal's tiles.
    #[test]
    fn the_region_estimate_kept_up_is_the_databases_own() {
        let (a, b) = (small_6x6(true), small_6x6(false));
        let mut rng = Rng::new(81);
        for shape in ["6x6", "7x6", "6x9", "9x8"] {
            let size: crate::board::Size = shape.parse().unwrap();
            let goal = Board::solved(size);
            let (w, h) = (size.width(), size.height());
            let n = size.cells();
            let free: Vec<bool> = (0..n).map(|c| c % w >= w - 6 && c / w >= h - 6).collect();
            let tracked: Vec<bool> = (0..n)
                .map(|t| {
                    t != 0 && free[goal.cells().iter().position(|&x| x as usize == t).unwrap()]
                })
                .collect();
            let mut setup = BeamSetup::new(&goal, tracked.clone(), free.clone(), 0);
            assert!(setup.use_databases(&goal, &free, &[&a, &b]), "{shape}");
            let r = setup.region.as_ref().unwrap();
            // The region renamed: its tiles by their goal cells in it.
            let renamed = |cells: &[u8]| -> Board {
                let region: Vec<u8> = r.cells.iter().map(|&c| r.tile[cells[c] as usize]).collect();
                Board::from_cells("6x6".parse().unwrap(), region).unwrap()
            };
            let mut cells = goal.cells().to_vec();
            let mut blank = goal.blank();
            let mut vals = r.all_entries(&cells);
            let mut words = r.words(&cells);
            for step in 0..3000 {
                let d = rng.below(4) as usize;
                let Some(to) = setup.target(blank, d) else {
                    continue;
                };
                let tile = cells[to];
                cells[blank] = tile;
                cells[to] = 0;
                // The indices from the words kept move by move are the fresh ones.
                let idx = r.indices(&cells, tile);
                assert_eq!(r.moved(&words, tile, r.index_of[blank]), idx);
                r.move_words(&mut words, tile, r.index_of[blank]);
                assert_eq!(words, r.words(&cells), "{shape} step {step}");
                let (est, changed) = r.update(&vals, &r.sums(&vals), tile, &idx);
                let rt = r.tile[tile as usize] as usize;
                for (k, l) in r.lookups.iter().enumerate() {
                    if l.owner[rt] != NONE {
                        vals[l.offset + l.owner[rt] as usize] = changed[k];
                    }
                }
                blank = to;
                assert_eq!(vals, r.all_entries(&cells), "{shape} step {step}");
                let own = renamed(&cells);
                assert_eq!(
                    est,
                    a.estimate(&own).max(b.estimate(&own)),
                    "{shape} step {step}"
                );
                assert_eq!(est, r.estimate(&vals));
                // Outside the region nothing moved.
                assert!((0..n).all(|c| free[c] || cells[c] == goal.cells()[c]));
            }
            // Databases of another size, or a region holding other tiles, do not fit.
            let mut other = BeamSetup::new(&goal, tracked.clone(), free.clone(), 0);
            let five = Board::solved("5x5".parse().unwrap());
            let small = crate::heuristic::pdb::PatternDb::build(
                &five,
                &[1, 2],
                &Limits::default(),
                0,
                &mut |_| {},
            )
            .unwrap();
            let five = PdbHeuristic::new(&five, vec![small]).unwrap();
            assert!(!other.use_databases(&goal, &free, &[&five]), "{shape}");
            let turned = uniform(&goal, &mut rng);
            let mut other = BeamSetup::new(&turned, tracked.clone(), free.clone(), 0);
            assert!(!other.use_databases(&turned, &free, &[&a]), "{shape}");
            assert!(other.region.is_none());
        }
    }

    /// A run's time is shared among its stages as the earlier run's was; a stage the
    /// earlier run did not reach has no pace.
    #[test]
    fn a_plan_shares_the_time_as_the_earlier_run_did() {
        use std::time::{Duration, Instant};
        let before = [(100, 1.0), (50, 3.0)];
        let until = Instant::now() + Duration::from_secs(80);
        let plan = Plan {
            until,
            before: &before,
            max_width: 1000,
        };
        let first = plan.pace(0).unwrap();
        let left = first.until.saturating_duration_since(Instant::now());
        assert!(
            left > Duration::from_secs(19) && left <= Duration::from_secs(20),
            "{left:?}"
        );
        assert_eq!((first.layers, first.max_width), (100, 1000));
        let second = plan.pace(1).unwrap();
        assert!(second.until <= until && second.until + Duration::from_secs(1) > until);
        assert_eq!(second.layers, 50);
        assert!(plan.pace(2).is_none());
    }

    /// Widths grow eightfold while that fits the threshold's times in the time left, then
    /// fill nine tenths of it in a last run; a whole-board beam moves to its last run
    /// sooner.
    #[test]
    fn the_widths_grow_eightfold_then_fill_the_time() {
        assert_eq!(next_width(2048, 30.0, 24.0), (16384, false));
        assert_eq!(next_width(2048, 24.0, 24.0), (16384, false));
        assert_eq!(next_width(2048, 20.0, 24.0), (36864, true));
        assert_eq!(next_width(2048, 30.0, 64.0), (55296, true));
        assert_eq!(next_width(256, 64.0, 64.0), (2048, false));
        // A run that took longer than the time left: narrower, and the loop ends.
        assert_eq!(next_width(1000, 0.5, 24.0), (450, true));
    }

    /// A beam whose pace is already past narrows (to a sixteenth of its width) and still
    /// ends at its aim, where the clock would have stopped it.
    #[test]
    fn a_beam_behind_its_pace_narrows_and_still_ends() {
        let goal = Board::solved("5x5".parse().unwrap());
        let mut rng = Rng::new(5);
        for _ in 0..3 {
            let start = uniform(&goal, &mut rng);
            let setup = BeamSetup::new(&goal, (0..25).map(|t| t != 0).collect(), vec![true; 25], 0);
            let watch = Watch::new(&Limits::default());
            let pace = Pace {
                until: std::time::Instant::now(),
                layers: 100,
                max_width: 4096,
            };
            let nodes = NodeCount::default();
            let run = |pace| beam_run(&setup, &start, 4096, None, 1, &watch, &nodes, pace);
            let BeamEnd::Found(paced) = run(Some(pace)).unwrap() else {
                panic!("the paced beam did not end at its aim");
            };
            let mut b = start.clone();
            b.apply_all(&paced).unwrap();
            assert_eq!(b, goal);
            // Narrower, so it looked at fewer positions than the beam at full width.
            let paced_nodes = nodes.get().1;
            let BeamEnd::Found(full) = run(None).unwrap() else {
                panic!("the beam did not end at its aim");
            };
            assert!(
                nodes.get().1 - paced_nodes > paced_nodes,
                "{paced_nodes} {:?}",
                nodes.get()
            );
            b = start.clone();
            b.apply_all(&full).unwrap();
            assert_eq!(b, goal);
        }
    }

    /// A bound proven before the anytime solver starts is kept: the answer's bound is never
    /// below it, and an answer that meets it is proven.
    #[test]
    fn a_bound_proven_before_is_kept() {
        let goal = Board::solved("5x5".parse().unwrap());
        let mut rng = Rng::new(12);
        let (start, _) = crate::scramble::walk(&goal, 40, &mut rng).unwrap();
        let optimum = super::super::idastar(
            &start,
            &goal,
            HeuristicKind::LinearConflict,
            &Limits::default(),
        )
        .unwrap()
        .len() as u32;
        let limits = Limits {
            time_limit: Some(std::time::Duration::from_millis(300)),
            ..Limits::default()
        };
        let a = anytime_above(&start, &goal, 1, &limits, optimum, &[], None).unwrap();
        assert!(a.lower_bound >= optimum);
        assert_eq!(a.proven, a.solution.len() as u32 == a.lower_bound);
        let mut b = start.clone();
        b.apply_all(&a.solution.moves).unwrap();
        assert_eq!(b, goal);
    }
}
