//! Batch calls on `(N, cells)` arrays: distances, estimates, solvability, scrambles, on the library's thread pool with the GIL released.

use std::sync::atomic::{AtomicBool, Ordering};

use super::*;

/// The tiles of an `(N, cells)` array as one slice, its shape checked.
pub(crate) fn flat<'a>(boards: &'a PyReadonlyArray2<'_, u8>, size: Size) -> PyResult<&'a [u8]> {
    let cols = boards.shape()[1];
    if cols != size.cells() {
        return Err(value_error(format!(
            "boards: expected {} columns (one per cell of {size}), found {cols}",
            size.cells()
        )));
    }
    boards
        .as_slice()
        .map_err(|e| value_error(format!("boards: {e}")))
}

/// `f` of each row's board, on `threads` threads in chunks, in order; the first bad row
/// is named in the error.
pub(crate) fn par_boards<R: Send + Default + Clone>(
    tiles: &[u8],
    size: Size,
    threads: usize,
    cancel: &AtomicBool,
    f: impl Fn(&Board) -> R + Sync,
) -> PyResult<Vec<R>> {
    let cells = size.cells();
    let n = tiles.len() / cells.max(1);
    let bad = std::sync::Mutex::new(None::<(usize, String)>);
    let out = npuzzle::limits::par_map(n, threads, 4096, |i| {
        // Interrupted: the rest are skipped (the call raises KeyboardInterrupt).
        if cancel.load(Ordering::Relaxed) {
            return R::default();
        }
        match Board::from_cells(size, tiles[i * cells..(i + 1) * cells].to_vec()) {
            Ok(b) => f(&b),
            Err(e) => {
                let mut bad = bad.lock().expect("no panics while held");
                if bad.as_ref().is_none_or(|(j, _)| i < *j) {
                    *bad = Some((i, e.to_string()));
                }
                R::default()
            }
        }
    });
    match bad.into_inner().expect("no panics while held") {
        Some((i, e)) => Err(value_error(format!("boards row {i}: {e}"))),
        None => Ok(out),
    }
}

/// Optimal distances of an `(N, cells)` uint8 array of boards: by a distance table on
/// boards of up to 12 cells, by pattern-database IDA* with `pdbs`, else by IDA* with
/// linear conflict; -1 for a board that cannot reach the goal. Every core, GIL released.
#[pyfunction]
#[pyo3(signature = (boards, size, goal=None, pdbs=None, threads=0))]
pub(crate) fn _distances<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, u8>,
    size: &str,
    goal: Option<&Bound<'py, PyAny>>,
    pdbs: Option<&PatternDatabases>,
    threads: i128,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let threads = npuzzle::limits::resolve_threads(whole("threads", threads)?);
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    let tiles = flat(&boards, size)?;
    // Without `pdbs=`, the databases auto would use for this goal where they are cached
    // (nothing is built here), as `solve` and the CLI find them.
    let pdb = match pdbs_for(pdbs, &g)? {
        Some(p) => Some(p),
        None if (16..=25).contains(&size.cells()) => core()
            .pdbs_for(&g, None, &Limits::default(), 0.0)
            .ok()
            .flatten()
            .map(|(_, h)| h),
        None => None,
    };
    crate::solve::log_notes(py);
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let out = interruptible(py, &cancel, || -> PyResult<Vec<i32>> {
        if size.cells() <= 12 && pdb.is_none() {
            let table = DistanceTable::build(&g, &limits).map_err(search_error)?;
            return par_boards(tiles, size, threads, &cancel, |b| {
                table.distance(b).map_or(-1, |d| d as i32)
            });
        }
        let failed = std::sync::Mutex::new(None);
        let d = par_boards(tiles, size, threads, &cancel, |b| {
            let r = match &pdb {
                Some(p) => npuzzle::search::idastar_pdb(b, &g, p, &limits),
                None => npuzzle::search::idastar(b, &g, HeuristicKind::LinearConflict, &limits),
            };
            match r {
                Ok(s) => s.len() as i32,
                Err(SearchError::Unsolvable) => -1,
                Err(e) => {
                    *failed.lock().expect("no panics while held") = Some(e);
                    -2
                }
            }
        })?;
        match failed.into_inner().expect("no panics while held") {
            Some(e) => Err(search_error(e)),
            None => Ok(d),
        }
    })??;
    Ok(PyArray1::from_vec(py, out))
}

/// Admissible estimates of an `(N, cells)` uint8 array of boards: "manhattan",
/// "linear-conflict", "walking-distance", "misplaced", or "pdb" (with `pdbs`).
#[pyfunction]
#[pyo3(signature = (boards, size, heuristic="manhattan", goal=None, pdbs=None, threads=0))]
pub(crate) fn _estimates<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, u8>,
    size: &str,
    heuristic: &str,
    goal: Option<&Bound<'py, PyAny>>,
    pdbs: Option<&PatternDatabases>,
    threads: i128,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let threads: usize = whole("threads", threads)?;
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    if heuristic == "pdb" && pdbs.is_none() {
        return Err(value_error(
            "heuristic: \"pdb\" needs pdbs= (PatternDatabases.load or .build)",
        ));
    }
    let tiles = flat(&boards, size)?;
    let threads = npuzzle::limits::resolve_threads(threads);
    let out = if heuristic == "pdb" {
        let Some(p) = pdbs_for(pdbs, &g)? else {
            return Err(value_error("heuristic: \"pdb\" needs pdbs="));
        };
        let cancel = AtomicBool::new(false);
        interruptible(py, &cancel, || {
            par_boards(tiles, size, threads, &cancel, |b| p.estimate(b) as i32)
        })??
    } else {
        let h = heuristic
            .parse::<HeuristicKind>()
            .map_err(|e| value_error(format!("heuristic: expected pdb or {e}")))?;
        if h.estimate(&g, &g).is_none() {
            return Err(value_error(format!(
                "heuristic: {} does not take {size} boards",
                h.name()
            )));
        }
        let cancel = AtomicBool::new(false);
        interruptible(py, &cancel, || {
            par_boards(tiles, size, threads, &cancel, |b| {
                h.estimate(b, &g).map_or(-1, |v| v as i32)
            })
        })??
    };
    Ok(PyArray1::from_vec(py, out))
}

/// Whether each board of an `(N, cells)` uint8 array can reach the goal.
#[pyfunction]
#[pyo3(signature = (boards, size, goal=None, threads=0))]
pub(crate) fn _solvable<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, u8>,
    size: &str,
    goal: Option<&Bound<'py, PyAny>>,
    threads: i128,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let threads = npuzzle::limits::resolve_threads(whole("threads", threads)?);
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    let tiles = flat(&boards, size)?;
    let cancel = AtomicBool::new(false);
    let out = interruptible(py, &cancel, || {
        par_boards(tiles, size, threads, &cancel, |b| {
            npuzzle::is_solvable(b, &g).unwrap_or(false)
        })
    })??;
    Ok(PyArray1::from_vec(py, out))
}

/// `count` scrambles as a `(count, cells)` uint8 array: uniform, or random walks of
/// `walk` moves; the same seed gives the rows `npuzzle scramble -n count --seed seed`
/// prints.
#[pyfunction]
#[pyo3(signature = (size, count, seed=None, walk=None, goal=None))]
pub(crate) fn scrambles<'py>(
    py: Python<'py>,
    size: &str,
    count: i128,
    seed: Option<i128>,
    walk: Option<i128>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let count: usize = whole("count", count)?;
    let seed: Option<u64> = whole_or_none("seed", seed)?;
    let walk: Option<usize> = whole_or_none("walk", walk)?;
    if let Some(k) = walk {
        npuzzle::scramble::check_walk(k).map_err(|e| value_error(format!("walk: {e}")))?;
    }
    if count > npuzzle::scramble::MAX_COUNT {
        return Err(value_error(format!(
            "count: expected at most {}, found {count}",
            npuzzle::scramble::MAX_COUNT
        )));
    }
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    let cells = size.cells();
    let mut rng = Rng::new(seed.unwrap_or_else(npuzzle::scramble::fresh_seed));
    let mut data: Vec<u8> = Vec::new();
    count
        .checked_mul(cells)
        .and_then(|n| data.try_reserve_exact(n).ok())
        .ok_or_else(|| too_many("count", count, size))?;
    let cancel = AtomicBool::new(false);
    let data = interruptible(py, &cancel, || {
        for _ in 0..count {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let b = match walk {
                Some(k) => npuzzle::scramble::walk_board(&g, k, &mut rng).expect("checked"),
                None => uniform(&g, &mut rng),
            };
            data.extend_from_slice(b.cells());
        }
        data
    })?;
    let flat = PyArray1::from_vec(py, data);
    flat.reshape([count, cells])
}
