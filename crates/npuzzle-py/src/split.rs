//! One hard board's IDA* passes taken apart, for `npuzzle.dask.solve`: the frontier of a
//! pass, the subtrees below some of its roots, and the answer put back together as a
//! `Solution`. Paths and moves travel as text in the tile notation.

use super::*;

/// The board, its goal and the databases, checked to belong together.
fn setup(
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&str>,
    pdbs: &PatternDatabases,
) -> PyResult<(Board, Board, Arc<PdbHeuristic>)> {
    let b = board_arg(board, size, "board")?;
    let g = goal_arg(goal, b.size())?;
    let h = pdbs_for(Some(pdbs), &g)?.expect("databases given");
    Ok((b, g, h))
}

/// The bound of a split search's next pass (the library's `SplitBounds`): with `beyond`
/// not given, the first pass's (the databases' estimate, to the solutions' parity); else
/// the next one after a pass that saw `beyond` as its smallest f past its bound. A pass
/// that saw nothing beyond and found nothing is an error: the databases are unsound.
#[pyfunction]
#[pyo3(signature = (board, pdbs, beyond=None, goal=None, size=None, first=false))]
pub(crate) fn _split_bound(
    board: &Bound<'_, PyAny>,
    pdbs: &PatternDatabases,
    beyond: Option<u32>,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&str>,
    first: bool,
) -> PyResult<u32> {
    let (b, g, h) = setup(board, goal, size, pdbs)?;
    let mut bounds = npuzzle::search::SplitBounds::new(&b, &g, &h).map_err(search_error)?;
    if first {
        return Ok(bounds.bound());
    }
    bounds.next(beyond).map_err(search_error)
}

/// The first part of one IDA* pass within `bound`: the roots (moves from the board, tile
/// notation) of at least `min_paths` subtrees, a solution met above them, the smallest f
/// beyond the bound seen there, and the nodes expanded and generated.
#[pyfunction]
#[pyo3(signature = (board, pdbs, bound, min_paths, goal=None, size=None))]
#[allow(clippy::type_complexity)]
pub(crate) fn _pass_frontier(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    pdbs: &PatternDatabases,
    bound: u32,
    min_paths: usize,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&str>,
) -> PyResult<(Vec<String>, Option<String>, Option<u32>, u64, u64)> {
    let (b, g, h) = setup(board, goal, size, pdbs)?;
    let top = py
        .detach(|| npuzzle::search::pass_frontier(&b, &g, &h, bound, min_paths, &Limits::default()))
        .map_err(search_error)?;
    let text = |m: &[Direction]| Notation::Tile.format(&b, m);
    Ok((
        top.paths.iter().map(|p| text(p)).collect(),
        top.found.as_deref().map(text),
        top.next_bound,
        top.stats.expanded,
        top.stats.generated,
    ))
}

/// The rest of one IDA* pass within `bound`: the subtrees below `paths` searched in order
/// on this thread; the first root whose subtree holds a solution (its index in `paths`)
/// with the solution's moves from the board, the smallest f beyond the bound, and the
/// nodes expanded and generated. `time_limit` (seconds) stops it with TimeoutError.
#[pyfunction]
#[pyo3(signature = (board, pdbs, bound, paths, goal=None, size=None, time_limit=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(crate) fn _pass_subtrees(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    pdbs: &PatternDatabases,
    bound: u32,
    paths: Vec<String>,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&str>,
    time_limit: Option<f64>,
) -> PyResult<(Option<(usize, String)>, Option<u32>, u64, u64)> {
    let (b, g, h) = setup(board, goal, size, pdbs)?;
    let paths = paths
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Notation::Tile
                .parse(&b, p)
                .map_err(|e| value_error(format!("paths[{i}]: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let limits = Limits {
        time_limit: time_limit_arg(time_limit)?,
        ..Limits::default()
    };
    let sub = py
        .detach(|| npuzzle::search::pass_subtrees(&b, &g, &h, bound, &paths, &limits))
        .map_err(search_error)?;
    Ok((
        sub.found.map(|(i, m)| (i, Notation::Tile.format(&b, &m))),
        sub.next_bound,
        sub.stats.expanded,
        sub.stats.generated,
    ))
}

/// The `Solution` of a split search: `moves` (tile notation) proven optimal by the passes
/// before it, with the work they did, reported as the one-machine database IDA* reports.
#[pyfunction]
#[pyo3(signature = (board, pdbs, moves, expanded, generated, seconds, goal=None, size=None,
                    notation="tile"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _split_solution(
    board: &Bound<'_, PyAny>,
    pdbs: &PatternDatabases,
    moves: &str,
    expanded: u64,
    generated: u64,
    seconds: f64,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&str>,
    notation: &str,
) -> PyResult<Solution> {
    let (b, g, h) = setup(board, goal, size, pdbs)?;
    let m = Notation::Tile
        .parse(&b, moves)
        .map_err(|e| value_error(format!("moves: {e}")))?;
    let mut end = b.clone();
    end.apply_all(&m)
        .map_err(|e| value_error(format!("moves: {e}")))?;
    if end != g {
        return Err(value_error(format!(
            "moves: expected moves that reach the goal {g}, found ones that end at {end}"
        )));
    }
    let sol = npuzzle::Solution {
        stats: npuzzle::Stats {
            expanded,
            generated,
            peak_stored: m.len() as u64 + 1,
            elapsed: Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or_default(),
        },
        moves: m,
    };
    let name = format!(
        "pdb {}{}",
        pdbs.spec,
        if h.reflects() { " + reflection" } else { "" }
    );
    Ok(Solution::from_report(Report::solved(
        &b,
        &g,
        &sol,
        Algorithm::Idastar,
        Some(&name),
        Metric::Stm,
        None,
        notation_arg(notation)?,
    )))
}
