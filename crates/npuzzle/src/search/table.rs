use super::packed::{self, check_memory};
use super::{Limits, MoveTable, Solution, Stats, Watch};
use crate::board::{Board, Size};
use crate::error::SearchError;

const UNSEEN: u8 = u8::MAX;

/// The distance to one goal of every state of a size, from one breadth-first search out
/// of the goal; any board of that size is then solved by descending the table, one
/// neighbour lookup per move.
///
/// One byte per permutation: 362,880 bytes for 3x3, built in a few milliseconds.
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
    dist: Vec<u8>,
    histogram: Vec<u64>,
    size: Size,
    moves: MoveTable,
}

impl DistanceTable {
    /// Builds the table for `goal` by breadth-first search over every reachable state.
    pub fn build(goal: &Board, limits: &Limits) -> Result<DistanceTable, SearchError> {
        let watch = Watch::new(limits);
        let size = goal.size();
        let states = check_memory("table", size, 1.0, 4.0, limits)?;
        let n = size.cells();
        let mt = MoveTable::new(size);
        let mut dist = vec![UNSEEN; states];
        let s0 = packed::pack(goal);
        dist[packed::rank(s0, n)] = 0;
        let mut frontier = vec![s0];
        let mut next = Vec::new();
        let mut histogram = vec![1u64];
        let mut depth: u8 = 0;
        let mut done = 0u64;
        while !frontier.is_empty() {
            if depth == UNSEEN - 1 {
                return Err(SearchError::Unsupported {
                    algorithm: "table",
                    reason: "distances beyond 254 moves".into(),
                });
            }
            for &s in &frontier {
                done += 1;
                if done & 0xffff == 0 && watch.expired() {
                    return Err(watch.timeout("table", 0, &Stats::default()));
                }
                for &(_, from) in mt.from(packed::blank(s)) {
                    let t = packed::slide(s, from);
                    let r = packed::rank(t, n);
                    if dist[r] == UNSEEN {
                        dist[r] = depth + 1;
                        next.push(t);
                    }
                }
            }
            depth += 1;
            if !next.is_empty() {
                histogram.push(next.len() as u64);
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        Ok(DistanceTable {
            goal: goal.clone(),
            dist,
            histogram,
            size,
            moves: mt,
        })
    }

    /// The goal the table measures distances to.
    pub fn goal(&self) -> &Board {
        &self.goal
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

    /// The distance of `board` from the goal; `None` if it cannot reach it or is of
    /// another size.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        if board.size() != self.size {
            return None;
        }
        match self.dist[packed::rank(packed::pack(board), board.size().cells())] {
            UNSEEN => None,
            d => Some(d as u32),
        }
    }

    /// A shortest solution for `start`, by stepping to a neighbour one move closer until
    /// the goal.
    pub fn solve(&self, start: &Board) -> Result<Solution, SearchError> {
        let watch = Watch::new(&Limits {
            max_memory: u64::MAX,
            time_limit: None,
            cancel: None,
        });
        if start.size() != self.size {
            return Err(SearchError::SizeMismatch {
                start: start.size(),
                goal: self.size,
            });
        }
        let n = start.size().cells();
        let mt = &self.moves;
        let mut s = packed::pack(start);
        let mut d = self.dist[packed::rank(s, n)];
        if d == UNSEEN {
            return Err(SearchError::Unsolvable);
        }
        let mut stats = Stats::default();
        let mut moves = Vec::with_capacity(d as usize);
        while d > 0 {
            stats.expanded += 1;
            let step = mt.from(packed::blank(s)).iter().find_map(|&(dir, from)| {
                stats.generated += 1;
                let t = packed::slide(s, from);
                (self.dist[packed::rank(t, n)] == d - 1).then_some((dir, t))
            });
            let (dir, t) = step.expect("a state at distance d > 0 has a neighbour at d - 1");
            moves.push(dir);
            s = t;
            d -= 1;
        }
        stats.peak_stored = self.states();
        stats.elapsed = watch.elapsed();
        Ok(Solution { moves, stats })
    }
}
