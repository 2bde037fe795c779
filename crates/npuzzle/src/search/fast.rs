//! A fast solver for boards of any size: not optimal, but a valid solution at once.
//!
//! The board is reduced the way people solve it: the top row, then the left column, then
//! the next row or column (whichever side of the remaining region is longer), until a
//! region of at most 3x3 is left, which is solved optimally by IDA*. Each tile is brought
//! home by a breadth-first search over (tile, blank) positions among the cells not yet
//! solved; the last two tiles of a row (or column) together by a breadth-first search over
//! (tile, tile, blank) positions in a band of three rows (columns), which also covers the
//! awkward cases that hand-written recipes treat one by one. A goal whose blank is not in
//! the bottom-right corner is reached by solving to the goal with its blank walked there,
//! then walking it back.

use std::collections::VecDeque;

use super::idastar;
use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::HeuristicKind;
use crate::limits::{Limits, Watch};
use crate::moves::Direction;
use crate::parity::precheck;
use crate::sequence::invert;
use crate::solution::{Solution, Stats};

/// The working state: the board's cells, the blank's cell, the moves made.
struct Work {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    blank: usize,
    moves: Vec<Direction>,
    /// Cells whose tiles are home and must not move.
    fixed: Vec<bool>,
}

impl Work {
    fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, col) = (c / self.w, c % self.w);
        let up = (r > 0).then(|| c - self.w);
        let down = (r + 1 < self.h).then(|| c + self.w);
        let left = (col > 0).then(|| c - 1);
        let right = (col + 1 < self.w).then(|| c + 1);
        [up, down, left, right].into_iter().flatten()
    }

    /// Slides the tile on cell `from` (next to the blank) into the blank.
    fn slide(&mut self, from: usize) {
        let b = self.blank;
        let d = if from + self.w == b {
            Direction::Down
        } else if from == b + self.w {
            Direction::Up
        } else if from + 1 == b {
            Direction::Right
        } else {
            Direction::Left
        };
        self.cells[b] = self.cells[from];
        self.cells[from] = 0;
        self.blank = from;
        self.moves.push(d);
    }

    /// Moves the blank along `path` (cells, each next to the one before).
    fn walk(&mut self, path: &[usize]) {
        for &c in path {
            self.slide(c);
        }
    }

    /// Brings the tiles `tiles` to the cells `to` (one or two of them), moving the blank
    /// only over `allowed` cells that are not fixed: a breadth-first search over the
    /// positions of the blank and the tracked tiles (other tiles move freely). False if
    /// the blank or a tile is outside those cells, or no way exists.
    fn place(&mut self, tiles: &[u8], to: &[usize], allowed: &[bool]) -> bool {
        let n = self.cells.len();
        let k = tiles.len();
        let free: Vec<usize> = (0..n).filter(|&c| allowed[c] && !self.fixed[c]).collect();
        let mut id = vec![usize::MAX; n];
        for (i, &c) in free.iter().enumerate() {
            id[c] = i;
        }
        let u = free.len();
        // The tracked cells in a fixed array (one or two of them): no allocation per state.
        let mut pos = [0usize; 2];
        for (p, &t) in pos.iter_mut().zip(tiles) {
            *p = self
                .cells
                .iter()
                .position(|&c| c == t)
                .expect("on the board");
        }
        if pos[..k] == *to {
            return true;
        }
        if id[self.blank] == usize::MAX || pos[..k].iter().chain(to).any(|&c| id[c] == usize::MAX) {
            return false;
        }
        let key = |b: usize, p: &[usize; 2]| -> usize {
            p[..k].iter().fold(id[b], |acc, &x| acc * u + id[x])
        };
        let states = u.pow(k as u32 + 1);
        // Parent of each state: the previous state's key + 1 (0: unseen).
        let mut parent = vec![0u32; states];
        let start = key(self.blank, &pos);
        parent[start] = u32::MAX;
        let mut queue = VecDeque::from([(self.blank, pos)]);
        let mut found = None;
        'search: while let Some((b, p)) = queue.pop_front() {
            let here = key(b, &p);
            for nb in self.neighbours(b) {
                if id[nb] == usize::MAX {
                    continue;
                }
                let mut q = p;
                for x in q[..k].iter_mut() {
                    if *x == nb {
                        *x = b;
                    }
                }
                let kk = key(nb, &q);
                if parent[kk] != 0 {
                    continue;
                }
                parent[kk] = here as u32 + 1;
                if q[..k] == *to {
                    found = Some(kk);
                    break 'search;
                }
                queue.push_back((nb, q));
            }
        }
        let Some(mut at) = found else {
            return false;
        };
        // The blank's cells, from the end back to the start.
        let mut path = Vec::new();
        while at != start {
            path.push(free[at / u.pow(k as u32)]);
            at = parent[at] as usize - 1;
        }
        path.reverse();
        self.walk(&path);
        true
    }

    /// Walks the blank to a cell of `allowed` without passing over fixed cells or the
    /// cells in `keep`; false if it cannot.
    fn blank_into(&mut self, allowed: &[bool], keep: &[usize]) -> bool {
        let n = self.cells.len();
        if allowed[self.blank] {
            return true;
        }
        let mut from = vec![usize::MAX; n];
        from[self.blank] = self.blank;
        let mut queue = VecDeque::from([self.blank]);
        while let Some(c) = queue.pop_front() {
            if allowed[c] {
                let mut path = vec![c];
                let mut x = c;
                while from[x] != self.blank {
                    x = from[x];
                    path.push(x);
                }
                path.reverse();
                self.walk(&path);
                return true;
            }
            for nb in self.neighbours(c) {
                if from[nb] == usize::MAX && !self.fixed[nb] && !keep.contains(&nb) {
                    from[nb] = c;
                    queue.push_back(nb);
                }
            }
        }
        false
    }
}

/// `goal` with its blank walked to the bottom-right corner (right along its row, then
/// down), and the moves that walk it there: solve to the first, then undo the second.
pub(crate) fn corner_goal(goal: &Board) -> (Board, Vec<Direction>) {
    let w = goal.size().width();
    let corner = goal.size().cells() - 1;
    let mut back = Vec::new();
    let mut g = goal.clone();
    while g.blank() % w + 1 < w {
        g.apply(Direction::Left)
            .expect("a tile to the blank's right");
        back.push(Direction::Left);
    }
    while g.blank() != corner {
        g.apply(Direction::Up).expect("a tile below the blank");
        back.push(Direction::Up);
    }
    (g, back)
}

/// A solution for `start` found fast, for any size and goal: valid, not proven shortest.
/// Boards of up to 9 cells are solved optimally outright.
///
/// ```
/// use npuzzle::search::fast;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("10x10".parse().unwrap());
/// let mut rng = npuzzle::scramble::Rng::new(1);
/// let start = npuzzle::scramble::uniform(&goal, &mut rng);
/// let s = fast(&start, &goal, &Limits::default()).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&s.moves).unwrap();
/// assert_eq!(b, goal);
/// ```
pub fn fast(start: &Board, goal: &Board, limits: &Limits) -> Result<Solution, SearchError> {
    let watch = Watch::new(limits);
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats: Stats::default(),
        });
    }
    let size = start.size();
    let (w, h) = (size.width(), size.height());
    let (g, back) = corner_goal(goal);
    let mut work = Work {
        w,
        h,
        cells: start.cells().to_vec(),
        blank: start.blank(),
        moves: Vec::new(),
        fixed: vec![false; w * h],
    };
    let (mut r0, mut c0) = (0, 0);
    while h - r0 > 3 || w - c0 > 3 {
        if watch.expired() {
            return Err(watch.timeout("fast", 0, 0, 0));
        }
        let rows = h - r0 > 3 && (h - r0 >= w - c0 || w - c0 <= 3);
        // The line's cells in order, and the band of three lines it is finished in.
        let line: Vec<usize> = if rows {
            (c0..w).map(|c| r0 * w + c).collect()
        } else {
            (r0..h).map(|r| r * w + c0).collect()
        };
        let in_band = |c: usize| {
            let (r, col) = (c / w, c % w);
            r >= r0 && col >= c0 && if rows { r < r0 + 3 } else { col < c0 + 3 }
        };
        let everywhere: Vec<bool> = (0..w * h).map(|c| !work.fixed[c]).collect();
        let m = line.len();
        for &cell in &line[..m - 2] {
            let t = g.cells()[cell];
            if !work.place(&[t], &[cell], &everywhere) {
                return Err(SearchError::Unsupported {
                    algorithm: "fast",
                    reason: format!("could not place tile {t} on {size}"),
                });
            }
            work.fixed[cell] = true;
        }
        // The last two together: each into the band (the other kept still once there),
        // the blank after them, then both home by one search in the band; the whole free
        // region if the band will not do.
        let (ca, cb) = (line[m - 2], line[m - 1]);
        let (a, b) = (g.cells()[ca], g.cells()[cb]);
        let band: Vec<bool> = (0..w * h).map(|c| in_band(c) && !work.fixed[c]).collect();
        let spots = if rows {
            [cb + 2 * w, cb + 2 * w - 1]
        } else {
            [cb + 2, cb + 2 - w]
        };
        let at = |work: &Work, t: u8| {
            work.cells
                .iter()
                .position(|&c| c == t)
                .expect("on the board")
        };
        for (t, spot) in [(a, spots[0]), (b, spots[1])] {
            if !band[at(&work, t)] {
                let other = at(&work, if t == a { b } else { a });
                let mut allowed = everywhere.clone();
                if band[other] {
                    allowed[other] = false;
                }
                work.place(&[t], &[spot], &allowed);
            }
        }
        let keep = [at(&work, a), at(&work, b)];
        let ready = band[keep[0]] && band[keep[1]] && work.blank_into(&band, &keep);
        let placed = ready && work.place(&[a, b], &[ca, cb], &band);
        if !placed && !work.place(&[a, b], &[ca, cb], &everywhere) {
            return Err(SearchError::Unsupported {
                algorithm: "fast",
                reason: format!("could not finish a line of {size}"),
            });
        }
        work.fixed[ca] = true;
        work.fixed[cb] = true;
        if rows {
            r0 += 1;
        } else {
            c0 += 1;
        }
    }
    // The last region, at most 3x3: optimally, as a board of its own.
    let (rw, rh) = (w - c0, h - r0);
    let region: Vec<usize> = (r0..h)
        .flat_map(|r| (c0..w).map(move |c| r * w + c))
        .collect();
    let sub_goal_cells: Vec<u8> = region.iter().map(|&c| g.cells()[c]).collect();
    // Rename tiles 1.. in the goal's order, so the region is a board of its own.
    let mut rename = vec![0u8; w * h];
    for (i, &t) in sub_goal_cells.iter().filter(|&&t| t != 0).enumerate() {
        rename[t as usize] = i as u8 + 1;
    }
    let sub_size = Size::new(rw, rh).expect("at least 2x2");
    let sub_start = Board::from_cells(
        sub_size,
        region
            .iter()
            .map(|&c| rename[work.cells[c] as usize])
            .collect(),
    )
    .expect("the region holds its own tiles");
    let sub_goal = Board::from_cells(
        sub_size,
        sub_goal_cells.iter().map(|&t| rename[t as usize]).collect(),
    )
    .expect("the goal's region");
    let rest = idastar(&sub_start, &sub_goal, HeuristicKind::LinearConflict, limits)?;
    let mut moves = work.moves;
    moves.extend(rest.moves);
    moves.extend(invert(&back));
    let stats = Stats {
        elapsed: watch.elapsed(),
        ..Stats::default()
    };
    Ok(Solution { moves, stats })
}

/// What [`fast_pdb`] answers: a solution, the weight it is proven within (when the
/// weighted database search found it), and a proven lower bound on the shortest length
/// (the databases' estimate of the start).
#[derive(Debug, Clone)]
pub struct FastAnswer {
    /// A valid solution, not proven shortest.
    pub solution: Solution,
    /// `Some(w)`: the solution is at most `w` times the shortest.
    pub weight: Option<f64>,
    /// A proven lower bound on the shortest solution's length.
    pub lower_bound: u32,
}

/// Nodes the weighted search in [`fast_pdb`] may expand before the reduction solver
/// answers instead (about a fifth of a second here).
pub(crate) const FAST_PDB_NODES: u64 = 2_000_000;

/// The fast solver with pattern databases for the goal at hand: weighted database IDA*
/// (weight 1.2 on 16 cells or fewer, 1.5 beyond), within 2,000,000 (`FAST_PDB_NODES`) nodes, so the
/// answer is at most that weight times the shortest; past the budget, [`fast`]. On
/// Korf's 100 15-puzzles (7-8 databases) the weighted search answers every instance in
/// about a millisecond, 4% over the optimum in all; on Korf & Felner's 50 24-puzzles
/// (6-6-6-6) in at most 0.06 s, 17% over.
///
/// ```
/// use npuzzle::heuristic::pdb::PatternDb;
/// use npuzzle::search::{fast_pdb};
/// use npuzzle::heuristic::pdb::PdbHeuristic;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let answer = fast_pdb(&start, &goal, &h, &limits).unwrap();
/// assert_eq!(answer.weight, Some(1.2));
/// assert!(answer.solution.len() as f64 <= 1.2 * 31.0 && answer.lower_bound <= 31);
/// ```
pub fn fast_pdb(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
) -> Result<FastAnswer, SearchError> {
    let weight = if start.size().cells() <= 16 { 1.2 } else { 1.5 };
    let budget = Limits {
        max_nodes: Some(limits.max_nodes.unwrap_or(u64::MAX).min(FAST_PDB_NODES)),
        ..limits.clone()
    };
    let lower_bound = if h.goal() == goal && start.size() == goal.size() {
        h.estimate(start)
    } else {
        0
    };
    match super::idastar_pdb_weighted(start, goal, h, weight, &budget, 1) {
        Ok(solution) => Ok(FastAnswer {
            solution,
            weight: Some(weight),
            lower_bound,
        }),
        Err(SearchError::TimeLimit { lower_bound: l, .. }) => Ok(FastAnswer {
            solution: fast(start, goal, limits)?,
            weight: None,
            lower_bound: lower_bound.max(l),
        }),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scramble::{uniform, Rng};

    #[test]
    fn solves_random_boards_of_every_shape_and_goal() {
        let mut rng = Rng::new(5);
        for size in [
            "2x2", "3x3", "4x4", "5x5", "4x7", "7x4", "2x6", "6x2", "8x8", "16x16",
        ] {
            let size: Size = size.parse().unwrap();
            for goal_kind in 0..3 {
                let goal = match goal_kind {
                    0 => Board::solved(size),
                    // A random goal: the blank anywhere.
                    _ => uniform(&Board::solved(size), &mut rng),
                };
                let start = uniform(&goal, &mut rng);
                let s = fast(&start, &goal, &Limits::default()).unwrap();
                let mut b = start.clone();
                b.apply_all(&s.moves).unwrap();
                assert_eq!(b, goal, "{size}");
            }
        }
    }
}
