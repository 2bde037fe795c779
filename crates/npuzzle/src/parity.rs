//! Solvability for any W x H board and any goal, in linear time.
//!
//! Each move exchanges the blank with a neighbour: one transposition of the cells, and one
//! step of the blank on the grid. So the parity of the permutation taking the goal to the
//! board equals the parity of the blank's grid distance between them, for every board
//! that can reach the goal. For boards at least 2 x 2 the converse holds too (every
//! arrangement with matching parities is reachable); the tests check this against
//! exhaustive search on 2x2, 2x3, 3x2 and 3x3.

use crate::board::Board;
use crate::error::{ParseError, SearchError};

/// Whether `board` can reach `goal` by sliding tiles. An error if their sizes differ.
///
/// ```
/// use npuzzle::{is_solvable, Board};
/// let goal = Board::solved(npuzzle::Size::square(3).unwrap());
/// assert!(is_solvable(&"8 1 3/4 0 2/7 6 5".parse().unwrap(), &goal).unwrap());
/// assert!(!is_solvable(&"2 1 3/4 5 6/7 8 0".parse().unwrap(), &goal).unwrap());
/// ```
pub fn is_solvable(board: &Board, goal: &Board) -> Result<bool, ParseError> {
    if board.size() != goal.size() {
        return Err(ParseError::SizeMismatch {
            expected: board.size(),
            found: goal.size(),
        });
    }
    let n = board.size().cells();
    let w = board.size().width();
    // goal_pos[t]: where tile t stands in the goal (on the stack: boards have at most
    // 256 cells, and a batch asks this of every board).
    let mut goal_pos = [0u8; 256];
    for (i, &t) in goal.cells().iter().enumerate() {
        goal_pos[t as usize] = i as u8;
    }
    // perm[i] = the goal position of the tile on cell i; count its cycles.
    let mut seen = [false; 256];
    let mut cycles = 0;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        cycles += 1;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = goal_pos[board.cells()[i] as usize] as usize;
        }
    }
    let perm_odd = (n - cycles) % 2 == 1;
    let (a, b) = (board.blank(), goal.blank());
    let dist = (a / w).abs_diff(b / w) + (a % w).abs_diff(b % w);
    Ok(perm_odd == (dist % 2 == 1))
}

/// The one check of a goal's size that every search, the solving core and each face
/// make: `goal` must be of `start`'s size.
///
/// ```
/// use npuzzle::{parity::check_sizes, Board, SearchError};
/// let start: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
/// assert!(check_sizes(&start, &Board::solved(start.size())).is_ok());
/// let other = Board::solved("4x4".parse().unwrap());
/// assert!(matches!(check_sizes(&start, &other), Err(SearchError::SizeMismatch { .. })));
/// ```
pub fn check_sizes(start: &Board, goal: &Board) -> Result<(), SearchError> {
    if start.size() != goal.size() {
        return Err(SearchError::SizeMismatch {
            start: start.size(),
            goal: goal.size(),
        });
    }
    Ok(())
}

/// The goal for `start`: `goal` (its size checked by [`check_sizes`]), or the solved
/// board of `start`'s size when none is given.
pub fn goal_for(goal: Option<&Board>, start: &Board) -> Result<Board, SearchError> {
    match goal {
        Some(g) => check_sizes(start, g).map(|()| g.clone()),
        None => Ok(Board::solved(start.size())),
    }
}

/// Checks sizes and solvability; `Ok(true)` when the start is already the goal.
pub(crate) fn precheck(start: &Board, goal: &Board) -> Result<bool, SearchError> {
    check_sizes(start, goal)?;
    if !is_solvable(start, goal).expect("sizes checked") {
        return Err(SearchError::Unsolvable);
    }
    Ok(start == goal)
}

/// The parity every solution of `start` has.
pub(crate) fn solution_parity(start: &Board, goal: &Board) -> u32 {
    let w = start.size().width();
    let (a, b) = (start.blank(), goal.blank());
    ((a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)) as u32 % 2
}
