//! Optimal solutions in the multi-tile metric: IDA* whose moves slide one, two or more
//! tiles of a row or column at once, guided by the multi-tile walking distance.

use super::passes::{deepen, Bound, Pass, Passes};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::mtm_pdb::MtmRows;
use crate::heuristic::{Heuristic, WalkingDistance};
use crate::limits::{Limits, Watch};
use crate::moves::{Direction, MoveTable};
use crate::parity::precheck;
use crate::solution::{Solution, Stats};

fn vertical(d: Direction) -> bool {
    matches!(d, Direction::Up | Direction::Down)
}

struct Mtm<'a> {
    h: &'a WalkingDistance,
    pdbs: Option<&'a MtmRows>,
    /// The tables' label masks of the current state, kept up to date move by move.
    masks: [[u32; 5]; 3],
    mt: MoveTable,
    cells: Vec<u8>,
    goal: &'a [u8],
    root_blank: usize,
    root_h: u32,
    path: Vec<Direction>,
    stats: Stats,
    b: Bound,
    watch: Watch,
}

impl Mtm<'_> {
    /// The tables' bound where they are given (at least the walking distance on almost
    /// every board), else the walking distance.
    #[inline]
    fn estimate(&self) -> u32 {
        match self.pdbs {
            Some(p) => p.estimate(&self.cells),
            None => self.h.estimate(&self.cells),
        }
    }

    /// Searches below the current state, `g` multi-tile moves from the start, the last
    /// along the vertical axis if `last` is `Some(true)`.
    fn dfs(&mut self, blank: usize, g: u32, hv: u32, last: Option<bool>) -> bool {
        let f = g + hv;
        if self.b.cut(f) {
            return false;
        }
        if hv == 0 && self.cells == self.goal {
            return true;
        }
        self.stats.expanded += 1;
        if self.watch.poll(self.stats.expanded, None) {
            self.b.stopped = true;
            return false;
        }
        // With the tables: every child's first table entry asked for before any is read,
        // so that their reads overlap.
        let mut first = [[0usize; 4]; 4];
        if let Some(p) = self.pdbs {
            for (di, d) in Direction::ALL.into_iter().enumerate() {
                if Some(vertical(d)) == last {
                    continue;
                }
                let (mut m, mut pos, mut k) = (self.masks, blank, 0);
                while let Some(from) = self.mt.mover(pos, d) {
                    p.slide(&mut m, self.cells[from], from, pos);
                    first[di][k] = p.prefetch(&m);
                    pos = from;
                    k += 1;
                }
            }
        }
        // A shortest sequence never makes two moves along one axis in a row: two slides
        // of one line would be one slide, or less.
        for (di, d) in Direction::ALL.into_iter().enumerate() {
            if Some(vertical(d)) == last {
                continue;
            }
            let mut at = [blank; 16];
            let mut k = 0;
            while let Some(from) = self.mt.mover(at[k], d) {
                let tile = self.cells[from];
                self.cells[at[k]] = tile;
                self.cells[from] = 0;
                if let Some(p) = self.pdbs {
                    p.slide(&mut self.masks, tile, from, at[k]);
                }
                self.path.push(d);
                k += 1;
                at[k] = from;
                self.stats.generated += 1;
                let enough = self.b.limit.saturating_sub(g + 1);
                let h2 = match self.pdbs {
                    Some(p) => p.estimate_first(&self.masks, first[di][k - 1], enough),
                    None => self.h.estimate(&self.cells),
                };
                if self.dfs(from, g + 1, h2, Some(vertical(d))) {
                    return true;
                }
                if self.b.stopped {
                    break;
                }
            }
            // Slide the tiles back, the last first.
            for i in (1..=k).rev() {
                let tile = self.cells[at[i - 1]];
                self.cells[at[i]] = tile;
                self.cells[at[i - 1]] = 0;
                if let Some(p) = self.pdbs {
                    p.slide(&mut self.masks, tile, at[i - 1], at[i]);
                }
                self.path.pop();
            }
            if self.b.stopped {
                return false;
            }
        }
        false
    }
}

impl Passes for Mtm<'_> {
    fn pass(&mut self, bound: u32) -> Pass {
        self.b.start(bound);
        let hit = self.dfs(self.root_blank, 0, self.root_h, None);
        self.b.end(hit)
    }

    fn expanded(&self) -> u64 {
        self.stats.expanded
    }

    fn generated(&self) -> u64 {
        self.stats.generated
    }
}

/// A shortest solution in the multi-tile metric (sliding any number of tiles of one row
/// or column at once is one move), for boards up to 4x4: IDA* over multi-tile moves,
/// alternating axes, with the multi-tile walking distance as its admissible estimate.
/// The moves are returned one tile at a time; [`length`](crate::sequence::length) with
/// [`Metric::Mtm`](crate::sequence::Metric::Mtm) counts them as the search did.
///
/// ```
/// use npuzzle::search::idastar_mtm;
/// use npuzzle::sequence::{length, Metric};
/// use npuzzle::{Board, Limits};
/// let start: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let s = idastar_mtm(&start, &goal, &Limits::default()).unwrap();
/// assert_eq!(length(&s.moves, Metric::Mtm), 12); // 14 single-tile moves
/// ```
pub fn idastar_mtm(start: &Board, goal: &Board, limits: &Limits) -> Result<Solution, SearchError> {
    idastar_mtm_pdb(start, goal, None, limits)
}

/// [`idastar_mtm`] guided by the multi-tile tables
/// ([`MtmRows`](crate::heuristic::mtm_pdb::MtmRows)) instead of the walking distance
/// when they are given; they serve 4x4 with the usual goal only, and another goal is
/// refused (their bounds would mean nothing for it).
pub fn idastar_mtm_pdb(
    start: &Board,
    goal: &Board,
    pdbs: Option<&MtmRows>,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let watch = Watch::new(limits);
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats: Stats::default(),
        });
    }
    if pdbs.is_some() && !MtmRows::serves(goal) {
        return Err(SearchError::Unsupported {
            algorithm: "idastar (mtm)",
            reason: format!("the multi-tile tables are for 4x4 with the usual goal, not {goal}"),
        });
    }
    let h = WalkingDistance::multi_tile(goal).ok_or_else(|| SearchError::Unsupported {
        algorithm: "idastar (mtm)",
        reason: format!(
            "optimal multi-tile solutions are for boards up to 4x4, not {}",
            goal.size()
        ),
    })?;
    let mut s = Mtm {
        h: &h,
        pdbs,
        masks: pdbs.map_or([[0; 5]; 3], |p| p.masks(start.cells())),
        mt: MoveTable::new(start.size()),
        cells: start.cells().to_vec(),
        goal: goal.cells(),
        root_blank: start.blank(),
        root_h: 0,
        path: Vec::new(),
        stats: Stats::default(),
        b: Bound::new(),
        watch: watch.clone(),
    };
    s.root_h = s.estimate();
    let first = s.root_h;
    deepen(&mut s, first, None, &watch, "idastar (mtm)", 1000)?;
    let mut stats = s.stats;
    stats.peak_stored = s.path.len() as u64 + 1;
    stats.elapsed = watch.elapsed();
    Ok(Solution {
        moves: s.path,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scramble::{uniform, Rng};
    use crate::sequence::{length, Metric};
    use std::collections::{HashMap, VecDeque};

    /// Multi-tile distances to `goal` of every board, by a plain BFS.
    fn distances(goal: &Board) -> HashMap<Board, u32> {
        let mut dist = HashMap::from([(goal.clone(), 0)]);
        let mut queue = VecDeque::from([goal.clone()]);
        while let Some(b) = queue.pop_front() {
            let d = dist[&b];
            for dir in Direction::ALL {
                let mut c = b.clone();
                while c.apply(dir).is_ok() {
                    if !dist.contains_key(&c) {
                        dist.insert(c.clone(), d + 1);
                        queue.push_back(c.clone());
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn optimal_against_a_plain_bfs() {
        let mut rng = Rng::new(31);
        for goal in [
            "1 2 3/4 5 6/7 8 0",
            "1 2 3/4 5 0",
            "1 2/3 4/5 0",
            "1 2 3/8 0 4/7 6 5",
        ] {
            let goal: Board = goal.parse().unwrap();
            let dist = distances(&goal);
            for _ in 0..60 {
                let b = uniform(&goal, &mut rng);
                let s = idastar_mtm(&b, &goal, &Limits::default()).unwrap();
                let mut end = b.clone();
                end.apply_all(&s.moves).unwrap();
                assert_eq!(end, goal);
                assert_eq!(length(&s.moves, Metric::Mtm) as u32, dist[&b], "{b}");
                // The estimate never exceeds the distance.
                let wd = WalkingDistance::multi_tile(&goal).unwrap();
                assert!(wd.estimate(b.cells()) <= dist[&b], "{b}");
            }
        }
    }
}
