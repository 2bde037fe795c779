//! Solving one board: the library's request and core, progress and Ctrl-C, the answer as a `Solution`.

use super::*;

/// The solving core every call shares.
pub(crate) fn core() -> &'static Core {
    static CORE: std::sync::OnceLock<Core> = std::sync::OnceLock::new();
    // The library's sources, as every face has them: the user's folders (the databases
    // and tables the CLI built are found here, and what is built here is saved there).
    // Its notes are kept, not logged where they are said: a note can come from any thread,
    // holding the core's locks, and taking the GIL there could wait on a thread that
    // holds it and waits on those locks.
    CORE.get_or_init(|| {
        Core::new(Sources {
            listener: Some(Arc::new(|e: &npuzzle::request::Event<'_>| {
                if let npuzzle::request::Event::Note(note) = e {
                    keep_note(note.to_string());
                }
            })),
            ..Sources::user_cache()
        })
    })
}

/// Notes said and not yet logged.
static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn keep_note(note: String) {
    let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    // (Bounded: a caller that never logs them keeps the last thousand.)
    if notes.len() >= 1000 {
        notes.remove(0);
    }
    notes.push(note);
}

/// Logs the core's notes said since the last call (a database built or refused, a table
/// left out, an exact search answered another way) on the `npuzzle` logger at INFO, in
/// the library's words, once the call's work is done and this thread holds the GIL.
pub(crate) fn log_notes(py: Python<'_>) {
    let notes = std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()));
    if notes.is_empty() {
        return;
    }
    let logged = (|| -> PyResult<()> {
        let logger = py
            .import("logging")?
            .call_method1("getLogger", ("npuzzle",))?;
        for n in &notes {
            logger.call_method1("info", ("%s", n))?;
        }
        Ok(())
    })();
    // A logging setup that fails is the caller's to see in its own logs, not a reason
    // to lose the answer.
    if let Err(e) = logged {
        e.print(py);
    }
}

/// One board's answer: the library's report, the fields of `npuzzle solve --json`, read
/// through getters (nothing copied field by field).
#[pyclass(frozen, module = "npuzzle")]
pub(crate) struct Solution {
    report: Report,
}

#[pymethods]
impl Solution {
    /// The board, one line.
    #[getter]
    fn board(&self) -> &str {
        &self.report.board
    }
    /// Whether it can reach the goal.
    #[getter]
    fn solvable(&self) -> bool {
        self.report.solvable
    }
    /// The moves in `notation` (None if unsolvable).
    #[getter]
    fn moves(&self) -> Option<&str> {
        self.report.moves.as_deref()
    }
    /// The solution's length in `metric` (None if unsolvable).
    #[getter]
    fn length(&self) -> Option<usize> {
        self.report.length
    }
    /// Whether the length is proven the shortest.
    #[getter]
    fn optimal(&self) -> Option<bool> {
        self.report.optimal
    }
    /// A proven lower bound on every solution's length.
    #[getter]
    fn lower_bound(&self) -> Option<u32> {
        self.report.lower_bound
    }
    /// The weight of a weighted search.
    #[getter]
    fn weight(&self) -> Option<f64> {
        self.report.weight
    }
    /// stm or mtm.
    #[getter]
    fn metric(&self) -> &'static str {
        self.report.metric.name()
    }
    /// tile, blank or tiles.
    #[getter]
    fn notation(&self) -> &'static str {
        self.report.notation.name()
    }
    /// The algorithm that ran.
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.report.algorithm
    }
    /// The estimate it used.
    #[getter]
    fn heuristic(&self) -> Option<&str> {
        self.report.heuristic.as_deref()
    }
    /// Nodes expanded.
    #[getter]
    fn expanded(&self) -> u64 {
        self.report.expanded
    }
    /// Nodes generated.
    #[getter]
    fn generated(&self) -> u64 {
        self.report.generated
    }
    /// The most states held at once.
    #[getter]
    fn peak_stored(&self) -> u64 {
        self.report.peak_stored
    }
    /// Seconds the search took.
    #[getter]
    fn seconds(&self) -> f64 {
        self.report.seconds
    }
    /// Every solution found when several were asked for (`solutions=N`), else None.
    #[getter]
    fn solutions(&self) -> Option<Vec<String>> {
        self.report.solutions.clone()
    }

    fn __repr__(&self) -> String {
        let r = &self.report;
        match (&r.moves, r.length) {
            (Some(m), Some(l)) => format!(
                "Solution(length={l}, optimal={}, moves={m:?}, algorithm={:?})",
                if r.optimal.unwrap_or(false) {
                    "True"
                } else {
                    "False"
                },
                r.algorithm
            ),
            _ => format!("Solution(board={:?}, solvable=False)", r.board),
        }
    }

    /// The solution as the JSON object `npuzzle solve --json` prints.
    fn to_json(&self) -> String {
        self.report.to_json()
    }

    /// Pickling (for multiprocessing and Dask): the fields, rebuilt by `_solution`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let r = &self.report;
        let make = py.import("npuzzle._core")?.getattr("_solution")?;
        let fields = (
            r.board.clone(),
            r.solvable,
            r.length,
            r.optimal,
            r.weight,
            r.lower_bound,
            r.moves.clone(),
            (r.metric.name(), r.notation.name(), r.algorithm),
            r.heuristic.clone(),
            (r.expanded, r.generated, r.peak_stored, r.seconds),
            r.solutions.clone(),
        )
            .into_pyobject(py)?
            .into_any();
        Ok((make, fields))
    }
}

impl Solution {
    /// A solution holding `report`.
    pub(crate) fn from_report(report: Report) -> Solution {
        Solution { report }
    }
}

/// The algorithm names a report can carry.
const ALGORITHMS: [&str; 9] = [
    "auto", "bfs", "bibfs", "astar", "iddfs", "idastar", "table", "fast", "anytime",
];

/// A `Solution` from its fields (what pickling stores); ValueError for names that are
/// no metric, notation or algorithm.
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(crate) fn _solution(
    board: String,
    solvable: bool,
    length: Option<usize>,
    optimal: Option<bool>,
    weight: Option<f64>,
    lower_bound: Option<u32>,
    moves: Option<String>,
    names: (String, String, String),
    heuristic: Option<String>,
    counts: (u64, u64, u64, f64),
    solutions: Option<Vec<String>>,
) -> PyResult<Solution> {
    let (metric, notation, algorithm) = names;
    let algorithm = ALGORITHMS
        .iter()
        .find(|&&a| a == algorithm)
        .ok_or_else(|| {
            value_error(format!(
                "algorithm: expected one of {}, found {algorithm:?}",
                ALGORITHMS.join(", ")
            ))
        })?;
    Ok(Solution {
        report: Report {
            board,
            solvable,
            length,
            optimal,
            weight,
            lower_bound,
            metric: metric
                .parse::<Metric>()
                .map_err(|e| value_error(format!("metric: {e}")))?,
            moves,
            notation: notation_arg(&notation)?,
            algorithm,
            heuristic,
            expanded: counts.0,
            generated: counts.1,
            peak_stored: counts.2,
            seconds: counts.3,
            solutions,
        },
    })
}

/// Solves one board. `algorithm`: auto, bfs, bibfs, astar, iddfs, idastar, table or fast;
/// `heuristic` for astar and idastar; `weight` (1 to 100) for weighted IDA*; `metric`
/// "mtm" counts a row or column slid at once as one move; `pdbs` (PatternDatabases for
/// the goal) make auto and idastar use them (on 26 cells or more, auto's exact search
/// gets a tenth of the time, then beams ranked by them; the usual 6x6 goal's set,
/// `PatternDatabases.load(dir, "6x6", "auto")`, ranks the anytime solver's last region on
/// 6x6 to 8x8 boards of another goal than its own); `time_limit` in seconds; `solutions=N` lists
/// up to N optimal solutions (IDA*); `progress` is called with a dict (`algorithm`,
/// `bound` proven after a pass or None, `expanded`, `seconds`) as the search goes, and an
/// exception it raises, or Ctrl-C (KeyboardInterrupt), stops the search and is raised.
/// With auto, a search that runs out of time is answered by the fast solver (optimal False, with the lower bound proven); a named
/// algorithm raises TimeoutError. `threads`: threads for one board's database search
/// (0: all cores). `beam_width` (1 to 1048576): the anytime solver's beams at that one width
/// instead of widths fitted to the time (auto, boards of 26 cells or more; without
/// `time_limit` no clock, and the same board always gets the same answer). The answer is
/// the library's, as `npuzzle solve --json` and the server give it. `exact=True`: proven
/// answers only (auto never answers with the fast solver); `pdb`: a partition by name
/// (`"7-8"`, `"6-6-3"`, `"1,2,3/4,5,6"`), loaded from the user's database folder or built
/// within a minute, as the CLI's `--pdb` (`pdbs` gives them instead); `max_memory`: bytes a
/// search may use, a whole number or a size such as `"4G"` read as the CLI's
/// `--max-memory` reads it (by default half the machine's memory), a search that needs
/// more being refused with ValueError before it starts.
#[pyfunction]
#[pyo3(signature = (board, goal=None, algorithm="auto", heuristic=None, weight=None,
                    time_limit=None, size=None, notation="tile", metric="stm", pdbs=None,
                    solutions=None, progress=None, threads=0, beam_width=None, *,
                    exact=false, pdb=None, max_memory=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
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
    solutions: Option<i128>,
    progress: Option<Py<PyAny>>,
    threads: i128,
    beam_width: Option<i128>,
    exact: bool,
    pdb: Option<String>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solution> {
    let solutions = whole_or_none("solutions", solutions)?;
    let max_memory: Option<u64> = max_memory.map(bytes_arg).transpose()?;
    let threads = whole("threads", threads)?;
    let beam_width = whole_or_none("beam_width", beam_width)?;
    let b = board_arg(board, size, "board")?;
    let cells = b.size().cells();
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
    let mut limits = Limits {
        time_limit: time_limit_arg(time_limit)?,
        ..Limits::default()
    };
    if let Some(m) = max_memory {
        limits.max_memory = m;
    }
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
        threads,
        beam_width,
        exact,
        pdb,
    };
    // Options that do not go together are refused in the library's words (the field
    // named as the keyword is), before any work.
    request.check().map_err(search_error)?;
    // Progress and Ctrl-C: the library reports after each pass and every million nodes
    // or so; each report calls `progress` (a dict: algorithm, bound, expanded, best,
    // seconds)
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
                    d.set_item("best", p.best)?;
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
    // The library's answer, as the CLI and the server give it; the GIL is released. Past
    // 9 cells (searches that can take long, some with few progress reports) the search
    // runs on a thread of its own while this one watches for Ctrl-C.
    let answer = move || {
        core().answer(&b, &request).map(|a| {
            a.notes.into_iter().for_each(keep_note);
            a.report
        })
    };
    let report = if cells > 9 {
        interruptible(py, &cancel, answer)
    } else {
        Ok(py.detach(answer))
    };
    log_notes(py);
    let report = report?;
    if let Some(e) = raised.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    report
        .map(|report| Solution { report })
        .map_err(search_error)
}
