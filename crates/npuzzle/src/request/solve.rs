//! One board, one call: the core's answer without a core to hold (the root's
//! [`solve`](crate::solve)).

use std::sync::OnceLock;

use super::{Core, Request, Sources};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::HeuristicKind;
use crate::limits::Limits;
use crate::search::Algorithm;
use crate::solution::Solution;

/// The core [`solve`] asks: no folders (nothing is read from or written to disk), so
/// what it builds (a 3x3 distance table, a 4x4 database set) lives in memory for the
/// process and serves every later call.
fn shared() -> &'static Core {
    static CORE: OnceLock<Core> = OnceLock::new();
    CORE.get_or_init(|| Core::new(Sources::default()))
}

/// Solves one board with `algorithm`, as [`Core::answer`] does: `Auto` is the core's
/// auto (a distance table up to 3x3, IDA* with databases it builds in memory on 4x4 and
/// 5x5, the anytime solver past 25 cells, not proven optimal there); a named algorithm
/// runs as named, `heuristic` guiding `astar` and `idastar` (auto picks its own).
///
/// A caller with many boards, folders of databases or notes to show holds a [`Core`]
/// and asks it [`Request`]s instead.
///
/// ```
/// use npuzzle::{solve, Algorithm, Board, HeuristicKind, Limits};
/// let start: Board = "0 1 3/4 2 5/7 8 6".parse().unwrap();
/// let goal = Board::solved(start.size());
/// for algo in Algorithm::ALL {
///     let s = solve(&start, &goal, algo, HeuristicKind::Manhattan, &Limits::default()).unwrap();
///     assert_eq!(s.len(), 4, "{algo}");
/// }
/// ```
pub fn solve(
    start: &Board,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let request = Request {
        goal: Some(goal.clone()),
        algorithm,
        heuristic: (algorithm != Algorithm::Auto).then_some(heuristic),
        limits: limits.clone(),
        ..Request::default()
    };
    let answer = shared().answer(start, &request)?;
    if !answer.report.solvable {
        return Err(SearchError::Unsolvable);
    }
    Ok(Solution {
        moves: answer.moves,
        stats: answer.stats,
    })
}
