//! npuzzle for Python: the `npuzzle._core` extension module, a thin layer over the library.
//!
//! Single boards are passed as text in any form the CLI reads, or as a sequence of tiles
//! with a size; batches as `(N, cells)` arrays of `uint8` (the Python package converts
//! other integer arrays). Batch calls release the GIL and run on every core. Errors from
//! the library become `ValueError` with the library's message; a search stopped by its
//! time limit becomes `TimeoutError`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use npuzzle::heuristic::pdb::PdbHeuristic;
use npuzzle::heuristic::pdb::{partition, Load, PatternDb};
use npuzzle::report::Report;
use npuzzle::request::{Core, Request, Sources};
use npuzzle::scramble::{uniform, walk, Rng};
use npuzzle::sequence::Metric;
use npuzzle::{
    Algorithm, Board, Direction, DistanceTable, HeuristicKind, Limits, Notation, SearchError, Size,
};
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn search_error(e: SearchError) -> PyErr {
    match e {
        SearchError::TimeLimit { .. } => PyTimeoutError::new_err(e.to_string()),
        e => value_error(e),
    }
}

/// The solving core every call shares (no folders: databases come with the call).
fn core() -> &'static Core {
    static CORE: std::sync::OnceLock<Core> = std::sync::OnceLock::new();
    CORE.get_or_init(|| Core::new(Sources::default()))
}

/// The error for more boards than fit in memory.
fn too_many(what: &str, n: usize, size: Size) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(format!(
        "{what}: {n} boards of {size} do not fit in this machine's memory"
    ))
}

fn parse_size(size: &str) -> PyResult<Size> {
    size.parse::<Size>()
        .map_err(|e| value_error(format!("size: {e}")))
}

/// A board from text (any form the CLI reads) or a sequence of tiles (0 the blank) with
/// `size` (a square board's size can be left out).
fn board_arg(board: &Bound<'_, PyAny>, size: Option<&str>, what: &str) -> PyResult<Board> {
    let size = size.map(parse_size).transpose()?;
    if let Ok(text) = board.extract::<String>() {
        return Board::parse(&text, size).map_err(|e| value_error(format!("{what}: {e}")));
    }
    let cells: Vec<i64> = board.extract().map_err(|_| {
        value_error(format!(
            "{what}: expected a board as text (\"8 1 3/4 0 2/7 6 5\") or a sequence of tiles, \
             found {}",
            board
                .get_type()
                .name()
                .map_or("?".into(), |n| n.to_string())
        ))
    })?;
    let size = match size {
        Some(s) => s,
        None => {
            let side = (cells.len() as f64).sqrt().round() as usize;
            if side * side != cells.len() {
                return Err(value_error(format!(
                    "{what}: expected size=\"WxH\" for {} tiles, which make no square",
                    cells.len()
                )));
            }
            Size::square(side).map_err(|e| value_error(format!("{what}: {e}")))?
        }
    };
    let cells: Vec<u8> = cells
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            u8::try_from(t).map_err(|_| {
                value_error(format!(
                    "{what}: expected tiles 0 to 255, found {t} at index {i}"
                ))
            })
        })
        .collect::<PyResult<_>>()?;
    Board::from_cells(size, cells).map_err(|e| value_error(format!("{what}: {e}")))
}

/// The goal for `board`: `goal` if given (its size must match), else tiles in order with
/// the blank last.
fn goal_arg(goal: Option<&Bound<'_, PyAny>>, board_size: Size) -> PyResult<Board> {
    match goal {
        None => Ok(Board::solved(board_size)),
        Some(g) => {
            let s = board_size.to_string();
            let g = board_arg(g, Some(&s), "goal")?;
            if g.size() != board_size {
                return Err(value_error(format!(
                    "goal: expected a {board_size} board, found a {} one",
                    g.size()
                )));
            }
            Ok(g)
        }
    }
}

fn notation_arg(n: &str) -> PyResult<Notation> {
    n.parse::<Notation>()
        .map_err(|e| value_error(format!("notation: {e}")))
}

/// Parses a board; returns its tiles (0 the blank) and its size as "WxH".
#[pyfunction]
#[pyo3(signature = (board, size=None))]
fn parse_board(board: &Bound<'_, PyAny>, size: Option<&str>) -> PyResult<(Vec<u32>, String)> {
    let b = board_arg(board, size, "board")?;
    Ok((
        b.cells().iter().map(|&t| u32::from(t)).collect(),
        b.size().to_string(),
    ))
}

/// Formats a board on one line ("8 1 3/4 0 2/7 6 5"), or as grid lines with grid=True.
#[pyfunction]
#[pyo3(signature = (board, size=None, grid=false))]
fn format_board(board: &Bound<'_, PyAny>, size: Option<&str>, grid: bool) -> PyResult<String> {
    let b = board_arg(board, size, "board")?;
    Ok(if grid { b.to_grid() } else { b.to_string() })
}

/// Whether the board can reach the goal (default: tiles in order, blank last).
#[pyfunction]
#[pyo3(signature = (board, goal=None, size=None))]
fn is_solvable(
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
fn apply(
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
fn verify(
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
fn convert_moves(
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
fn scramble(
    size: &str,
    seed: Option<u64>,
    moves: Option<usize>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let g = goal_arg(goal, parse_size(size)?)?;
    let mut rng = Rng::new(seed.unwrap_or_else(npuzzle::scramble::fresh_seed));
    Ok(match moves {
        Some(k) => walk(&g, k, &mut rng).0.to_string(),
        None => uniform(&g, &mut rng).to_string(),
    })
}

/// Pattern databases for one goal, loaded or built once and shared by the calls that
/// take `pdbs=`.
#[pyclass(frozen, module = "npuzzle")]
struct PatternDatabases {
    heuristic: Arc<PdbHeuristic>,
    spec: String,
}

#[pymethods]
impl PatternDatabases {
    /// Builds the databases of `partition` (7-8, 6-6-3, 5-5-5 on 4x4; 6-6-6-6 on 5x5; or
    /// tile lists "1,2,3/4,5,6") towards `goal`, on `threads` threads (0: all cores), and
    /// saves them in `directory` if given, under the names the CLI uses.
    #[staticmethod]
    #[pyo3(signature = (size="4x4", partition="5-5-5", goal=None, directory=None, threads=0))]
    fn build(
        py: Python<'_>,
        size: &str,
        partition: &str,
        goal: Option<&Bound<'_, PyAny>>,
        directory: Option<PathBuf>,
        threads: usize,
    ) -> PyResult<PatternDatabases> {
        let g = goal_arg(goal, parse_size(size)?)?;
        let parts = partition_arg(&g, partition)?;
        let dbs = py.detach(|| -> Result<Vec<PatternDb>, String> {
            let mut dbs = Vec::new();
            for tiles in &parts {
                let db = PatternDb::build(&g, tiles, &Limits::default(), threads, &mut |_| {})
                    .map_err(|e| e.to_string())?;
                if let Some(d) = &directory {
                    let path = d.join(npuzzle::heuristic::pdb::file_name(&g, tiles));
                    db.save(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                }
                dbs.push(db);
            }
            Ok(dbs)
        });
        let h = PdbHeuristic::new(&g, dbs.map_err(value_error)?).map_err(value_error)?;
        Ok(PatternDatabases {
            heuristic: Arc::new(h),
            spec: partition.to_string(),
        })
    }

    /// Loads the databases of `partition` for `goal` from `directory` (as the CLI or
    /// `build` saved them); ValueError names a missing or unsound file.
    #[staticmethod]
    #[pyo3(signature = (directory, size="4x4", partition="7-8", goal=None))]
    fn load(
        directory: PathBuf,
        size: &str,
        partition: &str,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PatternDatabases> {
        let g = goal_arg(goal, parse_size(size)?)?;
        let mut dbs = Vec::new();
        for tiles in partition_arg(&g, partition)? {
            let path = directory.join(npuzzle::heuristic::pdb::file_name(&g, &tiles));
            let db = PatternDb::open_checked(&path, &g, &tiles, Load::Auto)
                .map_err(|e| value_error(format!("{}: {e}", path.display())))?;
            dbs.push(db);
        }
        let h = PdbHeuristic::new(&g, dbs).map_err(value_error)?;
        Ok(PatternDatabases {
            heuristic: Arc::new(h),
            spec: partition.to_string(),
        })
    }

    /// The goal the databases are for.
    #[getter]
    fn goal(&self) -> String {
        self.heuristic.goal().to_string()
    }

    /// The partition they were made with.
    #[getter]
    fn partition(&self) -> String {
        self.spec.clone()
    }

    /// The additive estimate of one board (with reflection where it applies).
    fn estimate(&self, board: &Bound<'_, PyAny>) -> PyResult<u32> {
        let size = self.heuristic.goal().size().to_string();
        let b = board_arg(board, Some(&size), "board")?;
        Ok(self.heuristic.estimate(&b))
    }

    fn __repr__(&self) -> String {
        format!(
            "PatternDatabases(partition={:?}, goal={:?})",
            self.spec,
            self.goal()
        )
    }
}

/// The databases of `pdbs`, checked to be for `goal`.
fn pdbs_for(pdbs: Option<&PatternDatabases>, goal: &Board) -> PyResult<Option<Arc<PdbHeuristic>>> {
    match pdbs {
        Some(p) if p.heuristic.goal() != goal => Err(value_error(format!(
            "pdbs: the databases are for goal {}, not {goal}",
            p.heuristic.goal()
        ))),
        p => Ok(p.map(|p| p.heuristic.clone())),
    }
}

fn partition_arg(goal: &Board, spec: &str) -> PyResult<Vec<Vec<u8>>> {
    partition(goal, spec).map_err(|e| value_error(format!("partition: {e}")))
}

/// One board's answer: the fields of `npuzzle solve --json`.
#[pyclass(frozen, get_all, module = "npuzzle")]
struct Solution {
    /// The board, one line.
    board: String,
    /// Whether it can reach the goal.
    solvable: bool,
    /// The moves in `notation` (None if unsolvable).
    moves: Option<String>,
    /// The solution's length in `metric` (None if unsolvable).
    length: Option<usize>,
    /// Whether the length is proven the shortest.
    optimal: Option<bool>,
    /// A proven lower bound on every solution's length.
    lower_bound: Option<u32>,
    /// The weight of a weighted search.
    weight: Option<f64>,
    /// stm or mtm.
    metric: String,
    /// tile, blank or tiles.
    notation: String,
    /// The algorithm that ran.
    algorithm: String,
    /// The estimate it used.
    heuristic: Option<String>,
    /// Nodes expanded.
    expanded: u64,
    /// Nodes generated.
    generated: u64,
    /// The most states held at once.
    peak_stored: u64,
    /// Seconds the search took.
    seconds: f64,
    /// Every solution found when several were asked for (`solutions=N`), else None.
    solutions: Option<Vec<String>>,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        match (&self.moves, self.length) {
            (Some(m), Some(l)) => format!(
                "Solution(length={l}, optimal={}, moves={m:?}, algorithm={:?})",
                if self.optimal.unwrap_or(false) {
                    "True"
                } else {
                    "False"
                },
                self.algorithm
            ),
            _ => format!("Solution(board={:?}, solvable=False)", self.board),
        }
    }

    /// The solution as the JSON object `npuzzle solve --json` prints.
    fn to_json(&self) -> String {
        self.report().to_json()
    }
}

impl Solution {
    fn from_report(r: Report) -> Solution {
        Solution {
            board: r.board,
            solvable: r.solvable,
            moves: r.moves,
            length: r.length,
            optimal: r.optimal,
            lower_bound: r.lower_bound,
            weight: r.weight,
            metric: r.metric.name().to_string(),
            notation: r.notation.name().to_string(),
            algorithm: r.algorithm.to_string(),
            heuristic: r.heuristic,
            expanded: r.expanded,
            generated: r.generated,
            peak_stored: r.peak_stored,
            seconds: r.seconds,
            solutions: r.solutions,
        }
    }

    fn report(&self) -> Report {
        Report {
            board: self.board.clone(),
            solvable: self.solvable,
            length: self.length,
            optimal: self.optimal,
            weight: self.weight,
            lower_bound: self.lower_bound,
            metric: self.metric.parse().unwrap_or(Metric::Stm),
            moves: self.moves.clone(),
            notation: self.notation.parse().unwrap_or(Notation::Tile),
            algorithm: Algorithm::ALL
                .iter()
                .chain([Algorithm::Auto, Algorithm::Fast].iter())
                .map(|a| a.name())
                .find(|n| *n == self.algorithm)
                .unwrap_or("auto"),
            heuristic: self.heuristic.clone(),
            expanded: self.expanded,
            generated: self.generated,
            peak_stored: self.peak_stored,
            seconds: self.seconds,
            solutions: self.solutions.clone(),
        }
    }
}

/// Solves one board. `algorithm`: auto, bfs, bibfs, astar, iddfs, idastar, table or fast;
/// `heuristic` for astar and idastar; `weight` (1 to 100) for weighted IDA*; `metric`
/// "mtm" counts a row or column slid at once as one move; `pdbs` (PatternDatabases for
/// the goal) make auto and idastar use them; `time_limit` in seconds; `solutions=N` lists
/// up to N optimal solutions (IDA*); `progress` is called with a dict (`algorithm`,
/// `bound` proven after a pass or None, `expanded`, `seconds`) as the search goes, and an
/// exception it raises, or Ctrl-C (KeyboardInterrupt), stops the search and is raised. With auto, a search that runs out of time is
/// answered by the fast solver (optimal False, with the lower bound proven); a named
/// algorithm raises TimeoutError. The answer is the library's, as `npuzzle solve --json`
/// and the server give it.
#[pyfunction]
#[pyo3(signature = (board, goal=None, algorithm="auto", heuristic=None, weight=None,
                    time_limit=None, size=None, notation="tile", metric="stm", pdbs=None,
                    solutions=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    heuristic: Option<&str>,
    weight: Option<f64>,
    time_limit: Option<f64>,
    size: Option<&str>,
    notation: &str,
    metric: &str,
    pdbs: Option<&PatternDatabases>,
    solutions: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Solution> {
    let b = board_arg(board, size, "board")?;
    let g = goal_arg(goal, b.size())?;
    let algo = algorithm
        .parse::<Algorithm>()
        .map_err(|e| value_error(format!("algorithm: {e}")))?;
    let named = heuristic
        .map(|h| {
            h.parse::<HeuristicKind>()
                .map_err(|e| value_error(format!("heuristic: {e}")))
        })
        .transpose()?;
    let notation = notation_arg(notation)?;
    let metric = metric
        .parse::<Metric>()
        .map_err(|e| value_error(format!("metric: {e}")))?;
    let limits = Limits {
        time_limit: match time_limit {
            Some(t) if t > 0.0 && Duration::try_from_secs_f64(t).is_ok() => {
                Some(Duration::from_secs_f64(t))
            }
            Some(t) => {
                return Err(value_error(format!(
                    "time_limit: expected a positive number of seconds, found {t}"
                )))
            }
            None => None,
        },
        ..Limits::default()
    };
    let pdbs = pdbs_for(pdbs, &g)?.map(|h| (pdbs.map_or(String::new(), |p| p.spec.clone()), h));
    let request = Request {
        goal: Some(g),
        algorithm: algo,
        heuristic: named,
        pdbs,
        weight,
        metric,
        notation,
        limits,
        solutions,
        ..Request::default()
    };
    // Options that do not go together are refused in the library's words (the field
    // named as the keyword is), before any work.
    request.check().map_err(search_error)?;
    // Progress and Ctrl-C: the library reports after each pass and every million nodes
    // or so; each report calls `progress` (a dict: algorithm, bound, expanded, seconds)
    // and checks for KeyboardInterrupt, which cancels the search and is raised after it.
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let raised: Arc<std::sync::Mutex<Option<PyErr>>> = Arc::default();
    let mut request = request;
    request.limits.cancel = Some(cancel.clone());
    request.limits.progress = Some({
        let (cancel, raised) = (cancel.clone(), raised.clone());
        Arc::new(move |p: &npuzzle::limits::SearchProgress| {
            Python::attach(|py| {
                let called = progress.as_ref().map_or(Ok(()), |f| {
                    let d = pyo3::types::PyDict::new(py);
                    d.set_item("algorithm", p.algorithm)?;
                    d.set_item("bound", p.bound)?;
                    d.set_item("expanded", p.expanded)?;
                    d.set_item("seconds", p.elapsed.as_secs_f64())?;
                    f.call1(py, (d,)).map(|_| ())
                });
                if let Err(e) = called.and_then(|()| py.check_signals()) {
                    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                    let mut r = raised.lock().unwrap_or_else(|e| e.into_inner());
                    r.get_or_insert(e);
                }
            });
        })
    });
    // The library's answer, as the CLI and the server give it; the GIL is released.
    let report = py.detach(move || core().answer(&b, &request).map(|a| a.report));
    if let Some(e) = raised.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    report.map(Solution::from_report).map_err(search_error)
}

/// The tiles of an `(N, cells)` array as one slice, its shape checked.
fn flat<'a>(boards: &'a PyReadonlyArray2<'_, u8>, size: Size) -> PyResult<&'a [u8]> {
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
fn par_boards<R: Send + Default + Clone>(
    tiles: &[u8],
    size: Size,
    threads: usize,
    f: impl Fn(&Board) -> R + Sync,
) -> PyResult<Vec<R>> {
    let cells = size.cells();
    let n = tiles.len() / cells.max(1);
    let bad = std::sync::Mutex::new(None::<(usize, String)>);
    let out = npuzzle::limits::par_map(n, threads, 4096, |i| {
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
fn _distances<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, u8>,
    size: &str,
    goal: Option<&Bound<'py, PyAny>>,
    pdbs: Option<&PatternDatabases>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    let tiles = flat(&boards, size)?;
    let threads = npuzzle::limits::resolve_threads(threads);
    let pdb = pdbs_for(pdbs, &g)?;
    let out = py.detach(|| -> PyResult<Vec<i32>> {
        if size.cells() <= 12 && pdb.is_none() {
            let table = DistanceTable::build(&g, &Limits::default()).map_err(search_error)?;
            return par_boards(tiles, size, threads, |b| {
                table.distance(b).map_or(-1, |d| d as i32)
            });
        }
        let failed = std::sync::Mutex::new(None);
        let d = par_boards(tiles, size, threads, |b| {
            let r = match &pdb {
                Some(p) => npuzzle::search::idastar_pdb(b, &g, p, &Limits::default()),
                None => npuzzle::search::idastar(
                    b,
                    &g,
                    HeuristicKind::LinearConflict,
                    &Limits::default(),
                ),
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
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Admissible estimates of an `(N, cells)` uint8 array of boards: "manhattan",
/// "linear-conflict", "walking-distance", "misplaced", or "pdb" (with `pdbs`).
#[pyfunction]
#[pyo3(signature = (boards, size, heuristic="manhattan", goal=None, pdbs=None, threads=0))]
fn _estimates<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, u8>,
    size: &str,
    heuristic: &str,
    goal: Option<&Bound<'py, PyAny>>,
    pdbs: Option<&PatternDatabases>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
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
        py.detach(|| par_boards(tiles, size, threads, |b| p.estimate(b) as i32))?
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
        py.detach(|| {
            par_boards(tiles, size, threads, |b| {
                h.estimate(b, &g).map_or(-1, |v| v as i32)
            })
        })?
    };
    Ok(PyArray1::from_vec(py, out))
}

/// Whether each board of an `(N, cells)` uint8 array can reach the goal.
#[pyfunction]
#[pyo3(signature = (boards, size, goal=None, threads=0))]
fn _solvable<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, u8>,
    size: &str,
    goal: Option<&Bound<'py, PyAny>>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    let tiles = flat(&boards, size)?;
    let threads = npuzzle::limits::resolve_threads(threads);
    let out = py.detach(|| {
        par_boards(tiles, size, threads, |b| {
            npuzzle::is_solvable(b, &g).unwrap_or(false)
        })
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// `count` scrambles as a `(count, cells)` uint8 array: uniform, or random walks of
/// `walk` moves; the same seed gives the rows `npuzzle scramble -n count --seed seed`
/// prints.
#[pyfunction]
#[pyo3(signature = (size, count, seed=None, walk=None, goal=None))]
fn scrambles<'py>(
    py: Python<'py>,
    size: &str,
    count: usize,
    seed: Option<u64>,
    walk: Option<usize>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let size = parse_size(size)?;
    let g = goal_arg(goal, size)?;
    let cells = size.cells();
    let mut rng = Rng::new(seed.unwrap_or_else(npuzzle::scramble::fresh_seed));
    let mut data: Vec<u8> = Vec::new();
    count
        .checked_mul(cells)
        .and_then(|n| data.try_reserve_exact(n).ok())
        .ok_or_else(|| too_many("count", count, size))?;
    let data = py.detach(move || {
        for _ in 0..count {
            let b = match walk {
                Some(k) => npuzzle::scramble::walk(&g, k, &mut rng).0,
                None => uniform(&g, &mut rng),
            };
            data.extend_from_slice(b.cells());
        }
        data
    });
    let flat = PyArray1::from_vec(py, data);
    flat.reshape([count, cells])
}

/// The direction a Gymnasium action names: 0 up, 1 down, 2 left, 3 right (the way the
/// tile moves).
fn action(a: i64) -> Option<Direction> {
    usize::try_from(a)
        .ok()
        .and_then(|i| Direction::ALL.get(i).copied())
}

/// A scrambled board: uniform, or a walk of `walk` moves.
fn draw(goal: &Board, walk_len: Option<usize>, rng: &mut Rng) -> Board {
    loop {
        let b = match walk_len {
            Some(k) => walk(goal, k, rng).0,
            None => uniform(goal, rng),
        };
        // A scramble that is already solved would end an episode before its first step.
        if &b != goal || goal.size().cells() <= 2 {
            return b;
        }
    }
}

/// The single environment's state, stepped in Rust (the Python class wraps it).
#[pyclass(module = "npuzzle")]
struct _Puzzle {
    goal: Board,
    board: Board,
    walk: Option<usize>,
}

#[pymethods]
impl _Puzzle {
    #[new]
    #[pyo3(signature = (size, walk=None, goal=None))]
    fn new(size: &str, walk: Option<usize>, goal: Option<&Bound<'_, PyAny>>) -> PyResult<_Puzzle> {
        let g = goal_arg(goal, parse_size(size)?)?;
        Ok(_Puzzle {
            board: g.clone(),
            goal: g,
            walk,
        })
    }

    /// A new scramble from `seed`; its tiles.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> Bound<'py, PyArray1<u8>> {
        self.board = draw(&self.goal, self.walk, &mut Rng::new(seed));
        PyArray1::from_slice(py, self.board.cells())
    }

    /// Sets the board (for `options={"board": ...}`).
    fn set_board<'py>(
        &mut self,
        py: Python<'py>,
        board: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let s = self.goal.size().to_string();
        let b = board_arg(board, Some(&s), "board")?;
        if b.size() != self.goal.size() {
            return Err(value_error(format!(
                "board: expected a {} board, found a {} one",
                self.goal.size(),
                b.size()
            )));
        }
        self.board = b;
        Ok(PyArray1::from_slice(py, self.board.cells()))
    }

    /// One action: (tiles, reward, terminated). A move off the board leaves it as it is.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        a: i64,
    ) -> PyResult<(Bound<'py, PyArray1<u8>>, f64, bool)> {
        let d =
            action(a).ok_or_else(|| value_error(format!("action: expected 0 to 3, found {a}")))?;
        let _ = self.board.apply(d);
        Ok((
            PyArray1::from_slice(py, self.board.cells()),
            -1.0,
            self.board == self.goal,
        ))
    }

    /// The board, one line.
    fn board(&self) -> String {
        self.board.to_string()
    }

    /// The board as grid lines.
    fn grid(&self) -> String {
        self.board.to_grid()
    }

    /// The actions that move a tile.
    fn legal(&self) -> Vec<i64> {
        Direction::ALL
            .iter()
            .enumerate()
            .filter(|(_, &d)| self.board.mover(d).is_some())
            .map(|(i, _)| i as i64)
            .collect()
    }
}

/// N environments stepped in one call (the vector environment wraps it). An environment
/// that reached its goal is reset by its next step (Gymnasium's next-step autoreset).
#[pyclass(module = "npuzzle")]
struct _VecPuzzle {
    goal: Board,
    boards: Vec<Board>,
    done: Vec<bool>,
    walk: Option<usize>,
    rng: Rng,
}

#[pymethods]
impl _VecPuzzle {
    #[new]
    #[pyo3(signature = (num, size, walk=None, goal=None))]
    fn new(
        num: usize,
        size: &str,
        walk: Option<usize>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<_VecPuzzle> {
        let size = parse_size(size)?;
        let g = goal_arg(goal, size)?;
        let mut boards = Vec::new();
        boards
            .try_reserve_exact(num)
            .map_err(|_| too_many("num", num, size))?;
        boards.resize(num, g.clone());
        Ok(_VecPuzzle {
            boards,
            done: vec![false; num],
            goal: g,
            walk,
            rng: Rng::new(0),
        })
    }

    /// New scrambles for every environment from `seed`; their tiles `(N, cells)`.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<Bound<'py, PyArray2<u8>>> {
        self.rng = Rng::new(seed);
        for (b, d) in self.boards.iter_mut().zip(&mut self.done) {
            *b = draw(&self.goal, self.walk, &mut self.rng);
            *d = false;
        }
        self.observe(py)
    }

    /// One action per environment: (tiles, rewards, terminated).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let acts = actions.as_slice().map_err(value_error)?;
        if acts.len() != self.boards.len() {
            return Err(value_error(format!(
                "actions: expected {} (one per environment), found {}",
                self.boards.len(),
                acts.len()
            )));
        }
        let mut rewards = vec![-1.0f32; acts.len()];
        let mut term = vec![false; acts.len()];
        for (i, &a) in acts.iter().enumerate() {
            if self.done[i] {
                self.boards[i] = draw(&self.goal, self.walk, &mut self.rng);
                self.done[i] = false;
                rewards[i] = 0.0;
                continue;
            }
            let d = action(a)
                .ok_or_else(|| value_error(format!("actions[{i}]: expected 0 to 3, found {a}")))?;
            let _ = self.boards[i].apply(d);
            if self.boards[i] == self.goal {
                term[i] = true;
                self.done[i] = true;
            }
        }
        Ok((
            self.observe(py)?,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, term),
        ))
    }
}

impl _VecPuzzle {
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let cells = self.goal.size().cells();
        let mut flat = Vec::with_capacity(self.boards.len() * cells);
        for b in &self.boards {
            flat.extend_from_slice(b.cells());
        }
        PyArray1::from_vec(py, flat).reshape([self.boards.len(), cells])
    }
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_board, m)?)?;
    m.add_function(wrap_pyfunction!(format_board, m)?)?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(convert_moves, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(_distances, m)?)?;
    m.add_function(wrap_pyfunction!(_estimates, m)?)?;
    m.add_function(wrap_pyfunction!(_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(scrambles, m)?)?;
    m.add_class::<PatternDatabases>()?;
    m.add_class::<Solution>()?;
    m.add_class::<_Puzzle>()?;
    m.add_class::<_VecPuzzle>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
