use super::idastar::run;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::Misplaced;
use crate::limits::Limits;
use crate::solution::Solution;

/// Iterative deepening depth-first search: depth-limited passes with limits 0 (or 1), 2,
/// 4, ... (all solutions share one parity), without a heuristic: a shortest solution in
/// memory proportional to its length, in time exponential in it. Practical on 3x3 up to
/// about 20 moves; use [`time_limit`](Limits::time_limit) beyond.
///
/// ```
/// use npuzzle::{iddfs, Board, Limits};
/// let start: Board = "0 1 3/4 2 5/7 8 6".parse().unwrap();
/// let s = iddfs(&start, &Board::solved(start.size()), &Limits::default()).unwrap();
/// assert_eq!(s.len(), 4);
/// ```
pub fn iddfs(start: &Board, goal: &Board, limits: &Limits) -> Result<Solution, SearchError> {
    // The misplaced-tile count only recognises the goal (zero there); it does not prune.
    run(start, goal, &Misplaced::new(goal), "iddfs", limits)
}
