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
        e => value_error(e),
    }
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
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(_distances, m)?)?;
    m.add_function(wrap_pyfunction!(_estimates, m)?)?;
    m.add_function(wrap_pyfunction!(_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(scrambles, m)?)?;
    m.add_function(wrap_pyfunction!(_solution, m)?)?;
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
