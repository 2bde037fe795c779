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
use npuzzle::scramble::{uniform, Rng};
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
        // A larger limit is worth naming where this machine holds what is needed (as the
        // CLI names --max-memory).
        e if npuzzle::limits::raising_helps(&e) => {
            value_error(format!("{e}; max_memory raises the limit"))
        }
        e => value_error(e),
    }
}

/// Runs `work` with the GIL released, on a thread of its own, while this thread looks for
/// Ctrl-C (a KeyboardInterrupt) every 100 ms: `cancel` is set then, so that the library
/// stops, and the interrupt is raised once `work` has returned. A panic in `work` goes on
/// to the caller (PyO3 raises it as PanicException): nothing aborts the interpreter.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &std::sync::atomic::AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    use std::sync::mpsc::RecvTimeoutError;
    py.detach(|| {
        std::thread::scope(|s| {
            let (done, finished) = std::sync::mpsc::channel::<()>();
            let handle = s.spawn(move || {
                let r = work();
                let _ = done.send(());
                r
            });
            let mut interrupt = None;
            loop {
                match finished.recv_timeout(Duration::from_millis(100)) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) if interrupt.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                            interrupt = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            let r = match handle.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            match interrupt {
                Some(e) => Err(e),
                None => Ok(r),
            }
        })
    })
}

/// The error for more boards than fit in memory.
fn too_many(what: &str, n: usize, size: Size) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(format!(
        "{what}: {n} boards of {size} do not fit in this machine's memory"
    ))
}

mod args;
mod batch;
mod board;
mod env;
mod pdbs;
mod solve;
mod split;

use args::*;
use batch::*;
use board::*;
use env::*;
use pdbs::*;
use solve::*;
use split::*;

/// Test builds only (the `fault-injection` feature): panics where `kind` says: "here" (in
/// the call), "thread" (on the thread that works while this one watches for Ctrl-C) or
/// "pool" (on one of the library's worker threads).
#[cfg(feature = "fault-injection")]
#[pyfunction]
fn _fault(py: Python<'_>, kind: &str) -> PyResult<()> {
    match kind {
        "here" => panic!("fault injected here"),
        "thread" => interruptible(py, &std::sync::atomic::AtomicBool::new(false), || {
            panic!("fault injected on the working thread")
        }),
        "pool" => py.detach(|| {
            npuzzle::limits::par_map(64, 2, 1, |i| {
                if i == 63 {
                    panic!("fault injected on a worker thread");
                }
                i
            });
            Ok(())
        }),
        _ => Err(value_error("kind: expected here, thread or pool")),
    }
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    #[cfg(feature = "fault-injection")]
    m.add_function(wrap_pyfunction!(_fault, m)?)?;
    m.add_function(wrap_pyfunction!(parse_board, m)?)?;
    m.add_function(wrap_pyfunction!(preferred_sets, m)?)?;
    m.add_function(wrap_pyfunction!(format_board, m)?)?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(convert_moves, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(_distances, m)?)?;
    m.add_function(wrap_pyfunction!(_estimates, m)?)?;
    m.add_function(wrap_pyfunction!(_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(scrambles, m)?)?;
    m.add_function(wrap_pyfunction!(_solution, m)?)?;
    m.add_function(wrap_pyfunction!(_split_bound, m)?)?;
    m.add_function(wrap_pyfunction!(_pass_frontier, m)?)?;
    m.add_function(wrap_pyfunction!(_pass_subtrees, m)?)?;
    m.add_function(wrap_pyfunction!(_split_solution, m)?)?;
    m.add_class::<PatternDatabases>()?;
    m.add_class::<Solution>()?;
    m.add_class::<_Puzzle>()?;
    m.add_class::<_VecPuzzle>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
