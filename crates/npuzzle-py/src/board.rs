//! Single-board calls: parse, format, solvability, moves, one scramble.

use super::*;

/// Parses a board; returns its tiles (0 the blank) and its size as "WxH".
#[pyfunction]
#[pyo3(signature = (board, size=None))]
pub(crate) fn parse_board(
    board: &Bound<'_, PyAny>,
    size: Option<&str>,
) -> PyResult<(Vec<u32>, String)> {
    let b = board_arg(board, size, "board")?;
    Ok((
        b.cells().iter().map(|&t| u32::from(t)).collect(),
        b.size().to_string(),
    ))
}

/// Formats a board on one line ("8 1 3/4 0 2/7 6 5"), or as grid lines with grid=True.
#[pyfunction]
#[pyo3(signature = (board, size=None, grid=false))]
pub(crate) fn format_board(
    board: &Bound<'_, PyAny>,
    size: Option<&str>,
    grid: bool,
) -> PyResult<String> {
    let b = board_arg(board, size, "board")?;
    Ok(if grid { b.to_grid() } else { b.to_string() })
}

/// Whether the board can reach the goal (default: tiles in order, blank last).
#[pyfunction]
#[pyo3(signature = (board, goal=None, size=None))]
pub(crate) fn is_solvable(
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&str>,
) -> PyResult<bool> {
    let b = board_arg(board, size, "board")?;
    let g = goal_arg(goal, b.size())?;
    npuzzle::is_solvable(&b, &g).map_err(value_error)
}

/// The board after `moves` (in `notation`); ValueError names the first illegal move.
#[pyfunction]
#[pyo3(signature = (board, moves, notation="tile", size=None))]
pub(crate) fn apply(
    board: &Bound<'_, PyAny>,
    moves: &str,
    notation: &str,
    size: Option<&str>,
) -> PyResult<String> {
    let mut b = board_arg(board, size, "board")?;
    let m = notation_arg(notation)?
        .parse(&b, moves)
        .map_err(|e| value_error(format!("moves: {e}")))?;
    b.apply_all(&m)
        .map_err(|e| value_error(format!("moves: {e}")))?;
    Ok(b.to_string())
}

/// Whether `moves` take the board to the goal.
#[pyfunction]
#[pyo3(signature = (board, moves, goal=None, notation="tile", size=None))]
pub(crate) fn verify(
    board: &Bound<'_, PyAny>,
    moves: &str,
    goal: Option<&Bound<'_, PyAny>>,
    notation: &str,
    size: Option<&str>,
) -> PyResult<bool> {
    let b = board_arg(board, size, "board")?;
    let g = goal_arg(goal, b.size())?;
    let after = apply(board, moves, notation, size)?;
    Ok(after == g.to_string())
}

/// Rewrites `moves` from one notation into another (tile: U2LDR3, blank: uldr, tiles:
/// "1 2 5 6"); the tiles notation needs the board the moves start from.
#[pyfunction]
#[pyo3(signature = (moves, board, to, notation="tile", size=None))]
pub(crate) fn convert_moves(
    moves: &str,
    board: &Bound<'_, PyAny>,
    to: &str,
    notation: &str,
    size: Option<&str>,
) -> PyResult<String> {
    let b = board_arg(board, size, "board")?;
    let m = notation_arg(notation)?
        .parse(&b, moves)
        .map_err(|e| value_error(format!("moves: {e}")))?;
    notation_arg(to)?
        .try_format(&b, &m)
        .map_err(|e| value_error(format!("moves: {e}")))
}

/// One scramble: uniform over the positions that can reach the goal, or a random walk
/// of `moves` moves that never undoes the move before. The same seed gives the CLI's
/// `npuzzle scramble` answer.
#[pyfunction]
#[pyo3(signature = (size, seed=None, moves=None, goal=None))]
pub(crate) fn scramble(
    size: &str,
    seed: Option<i128>,
    moves: Option<i128>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let seed: Option<u64> = whole_or_none("seed", seed)?;
    let moves: Option<usize> = whole_or_none("moves", moves)?;
    let g = goal_arg(goal, parse_size(size)?)?;
    let mut rng = Rng::new(seed.unwrap_or_else(npuzzle::scramble::fresh_seed));
    Ok(match moves {
        Some(k) => npuzzle::scramble::walk_board(&g, k, &mut rng)
            .map_err(|e| value_error(format!("moves: {e}")))?
            .to_string(),
        None => uniform(&g, &mut rng).to_string(),
    })
}
