//! What a beam aims at: the tiles it tracks, the cells the blank keeps to, its estimates and
//! ranking.

use super::super::ranking::Ranking;
use super::layer::*;
use super::region::*;
use crate::board::Board;
use crate::heuristic::linear_conflict::LineKeys;
use crate::heuristic::pdb::PdbHeuristic;
use crate::scramble::Rng;

/// What a beam aims at, and the facts its inner loop reads.
pub(crate) struct BeamSetup<'a> {
    pub(super) n: usize,
    pub(super) w: usize,
    /// Per tile: whether its place counts.
    pub(super) tracked: Vec<bool>,
    /// Whether every tile that moves (every tile whose goal cell is free) is tracked, as
    /// on a region's beam: a position's hash then tells it whole, and repeats of earlier
    /// layers are rare (the shortest cycle of moves is 12 long), so children are not
    /// looked up in the table of kept positions as they are made, only the layer's best
    /// as they are kept (see `keep_best`, which drops every repeat it finds): a cache miss
    /// a child fewer. Seed 7's 6x6 boards at one width, no other change in the answers:
    /// 4 boards at 65,536 on two threads, 8.34 s against 11.04 s; 4 at 32,768 on one
    /// thread, 6.80 and 6.64 s against 8.22 and 8.16 s (1.2% fewer positions expanded:
    /// the repeats dropped after the cut); 7x7, 3 boards at 16,384, one thread, 4.38 s
    /// against 4.79 s. A line's beam, whose positions repeat all the time, keeps looking
    /// its children up (10x10, 3 boards at 16,384: 3,431 moves against 3,407 without).
    pub(super) whole: bool,
    /// Per cell and direction index: the free cell the blank moves to (`u16::MAX`:
    /// none).
    pub(super) next: Vec<u16>,
    /// Per tile and cell: the grid distance to the tile's goal cell (0 if untracked).
    pub(super) dist: Vec<u8>,
    /// Per tile and cell: the grid distance to the tile's goal cell, every tile.
    pub(super) dist_all: Vec<u8>,
    /// How much the tracked tiles' estimate outweighs every tile's Manhattan distance
    /// in the ranking.
    pub(super) focus: u64,
    /// The tracked tiles' keys in each line's conflicts.
    pub(super) lines: LineKeys,
    /// Every tile's keys in each line's conflicts (the tiles whose goal cells are free):
    /// on a line's beam, the rest of the board's rank counts them.
    pub(super) lines_all: LineKeys,
    /// Whether the rest of the board's rank ([`BeamSetup::rest`]) counts its linear
    /// conflicts: on a line's beam (`focus` above 0).
    pub(super) rest_conflicts: bool,
    /// Per tile and cell, then per blank cell: random words for the position's hash.
    pub(super) zobrist: Vec<u64>,
    /// Databases that rank the positions instead of the linear-conflict estimate.
    pub(super) region: Option<RegionDbs<'a>>,
    /// A learned correction to the databases' ranking (a beam ranked by one set).
    pub(super) ranking: Option<Ranking>,
    /// Takes samples of the candidates, for fitting a ranking.
    pub(super) sampler: Option<&'a Sampler>,
}

/// Candidates a beam set aside for [`ranking_samples`]: (layer, cells).
pub(super) struct Sampler {
    pub(super) per_layer: usize,
    pub(super) taken: std::sync::Mutex<Vec<(usize, Vec<u8>)>>,
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
        let whole = (1..n).all(|t| tracked[t] || !free[pos[t]]);
        let lines = LineKeys::new(goal, |t| tracked[t]);
        let lines_all = LineKeys::new(goal, |t| free[pos[t]]);
        BeamSetup {
            n,
            w,
            tracked,
            whole,
            next,
            dist,
            dist_all,
            focus,
            lines,
            lines_all,
            rest_conflicts: focus > 0,
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
        // A beam across the whole board or its last region ranked by one set: the
        // learned correction fitted for that set, if there is one.
        self.ranking = (sets.len() == 1)
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
    pub(super) fn whole_board(goal: &Board, set: &'a PdbHeuristic) -> Option<BeamSetup<'a>> {
        let n = goal.size().cells();
        let tracked: Vec<bool> = (0..n).map(|t| t != 0).collect();
        let free = vec![true; n];
        let mut setup = BeamSetup::new(goal, tracked, free.clone(), 0);
        setup.use_databases(goal, &free, &[set]).then_some(setup)
    }

    /// The learned ranking's part kept move by move for the board `cells` (0 without
    /// one).
    pub(super) fn kept(&self, cells: &[u8], vals: &[u8]) -> f32 {
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
    pub(super) fn rank_with(&self, kept: f32, h: u32, lc: u32, all: u32) -> u64 {
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
    pub(super) fn rank(&self, h: u32, all: u32) -> u64 {
        if self.focus == 0 {
            ((h as u64) << 16) | h.saturating_sub(all).min(0xffff) as u64
        } else {
            h as u64 * self.focus + all as u64
        }
    }

    #[inline]
    pub(super) fn tile_hash(&self, tile: u8, cell: usize) -> u64 {
        if self.tracked[tile as usize] {
            self.zobrist[tile as usize * self.n + cell]
        } else {
            0
        }
    }

    pub(super) fn hash(&self, cells: &[u8], blank: usize) -> u64 {
        cells
            .iter()
            .enumerate()
            .fold(self.zobrist[self.n * self.n + blank], |a, (i, &t)| {
                a ^ self.tile_hash(t, i)
            })
    }

    /// Every tile's Manhattan distance (tracked or not) on the board `cells`.
    pub(super) fn manhattan(&self, cells: &[u8]) -> u32 {
        self.fresh(&self.dist_all, None, cells)
    }

    /// The rest of the board's part of the rank: every tile's Manhattan distance, and on a
    /// line's beam two moves per linear conflict among the tiles not yet placed (which
    /// the lines after this one meet).
    pub(super) fn rest(&self, cells: &[u8]) -> u32 {
        let keys = self.rest_conflicts.then_some(&self.lines_all);
        self.fresh(&self.dist_all, keys, cells)
    }

    /// [`BeamSetup::rest`] after `tile` slid from `from` to `to` (`rest` before), `cells`
    /// being the cells after the move and `before` the cells before it.
    #[inline]
    pub(super) fn update_rest(
        &self,
        rest: u32,
        before: &[u8],
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        let keys = self.rest_conflicts.then_some(&self.lines_all);
        self.moved(rest, &self.dist_all, keys, before, cells, tile, from, to)
    }

    /// The estimate: tracked tiles' Manhattan distances plus two moves per linear
    /// conflict among them. A lower bound on the moves to the tracked tiles' places.
    pub(super) fn estimate(&self, cells: &[u8]) -> u32 {
        self.fresh(&self.dist, Some(&self.lines), cells)
    }

    /// The estimate after `tile` slid from `from` to `to`, `cells` being the cells after
    /// the move and `before` the cells before it.
    #[inline]
    pub(super) fn update(
        &self,
        h: u32,
        before: &[u8],
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        if !self.tracked[tile as usize] {
            return h;
        }
        self.moved(
            h,
            &self.dist,
            Some(&self.lines),
            before,
            cells,
            tile,
            from,
            to,
        )
    }

    /// The distances `dist` (per tile and cell) summed over the board `cells`, plus two
    /// moves per conflict that `keys` count.
    fn fresh(&self, dist: &[u8], keys: Option<&LineKeys>, cells: &[u8]) -> u32 {
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(i, &t)| dist[t as usize * self.n + i] as u32)
            .sum();
        md + keys.map_or(0, |k| 2 * k.total(|i| cells[i]))
    }

    /// [`BeamSetup::fresh`]'s `value` after `tile` slid from `from` to `to` (the cells
    /// `before` and after, `cells`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn moved(
        &self,
        value: u32,
        dist: &[u8],
        keys: Option<&LineKeys>,
        before: &[u8],
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        let d = &dist[tile as usize * self.n..];
        let md = value + d[to] as u32 - d[from] as u32;
        let Some(keys) = keys else {
            return md;
        };
        let (old, new) = keys.moved(tile, from, to, |i| before[i], |i| cells[i]);
        md + 2 * new - 2 * old
    }

    /// The cell the blank moves to with direction index `d`, if on the board and free.
    #[inline]
    pub(super) fn target(&self, blank: usize, d: usize) -> Option<usize> {
        let to = self.next[blank * 4 + d];
        (to != u16::MAX).then_some(to as usize)
    }
}
