//! Pattern databases built or loaded from Python, shared with the CLI's files.

use super::*;

/// Pattern databases for one goal, loaded or built once and shared by the calls that
/// take `pdbs=`.
#[pyclass(frozen, module = "npuzzle")]
pub(crate) struct PatternDatabases {
    pub(crate) heuristic: Arc<PdbHeuristic>,
    pub(crate) spec: String,
}

#[pymethods]
impl PatternDatabases {
    /// Builds the databases of `partition` (7-8, 6-6-3, 5-5-5 on 4x4; 6-6-6-6 on 5x5; or
    /// tile lists "1,2,3/4,5,6") towards `goal`, on `threads` threads (0: all cores), and
    /// saves them in `directory` if given, under the names the CLI uses. `zero_aware`:
    /// zero-aware databases (boards of up to 25 cells; see the README), larger estimates
    /// at four times the memory.
    #[staticmethod]
    #[pyo3(signature = (size="4x4", partition="5-5-5", goal=None, directory=None, threads=0, zero_aware=false))]
    #[allow(clippy::too_many_arguments)]
    fn build(
        py: Python<'_>,
        size: &str,
        partition: &str,
        goal: Option<&Bound<'_, PyAny>>,
        directory: Option<PathBuf>,
        threads: i128,
        zero_aware: bool,
    ) -> PyResult<PatternDatabases> {
        let threads: usize = whole("threads", threads)?;
        let g = goal_arg(goal, parse_size(size)?)?;
        let parts = partition_arg(&g, partition)?;
        let directory = directory.map(home);
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let dbs = interruptible(py, &flag, || -> Result<Vec<PatternDb>, String> {
            // The library's builds: saved under the CLI's names, a group that a symmetry of
            // the board makes of an earlier one copied instead of searched.
            let core = npuzzle::request::Core::new(npuzzle::request::Sources {
                pdb_dir: directory.clone(),
                ..Default::default()
            });
            let must_save = directory.is_some();
            let mut dbs: Vec<PatternDb> = Vec::new();
            for tiles in &parts {
                let lim = Limits {
                    cancel: Some(flag.clone()),
                    ..Limits::default()
                };
                let db = match core.image_pdb(&g, tiles, &dbs, threads, must_save) {
                    Ok(Some((db, _))) => Ok(db),
                    Ok(None) => core.build_pdb(&g, tiles, &lim, threads, must_save, zero_aware),
                    Err(e) => Err(e),
                }
                .map_err(|e| e.to_string())?;
                dbs.push(db);
            }
            Ok(dbs)
        })?;
        let h = PdbHeuristic::new(&g, dbs.map_err(value_error)?).map_err(value_error)?;
        Ok(PatternDatabases {
            heuristic: Arc::new(h),
            spec: partition.to_string(),
        })
    }

    /// Loads the databases of `partition` for `goal` from `directory` (as the CLI or
    /// `build` saved them; a leading `~` is the home folder; none: the user's database
    /// folder, where `npuzzle pdb build` saves them); ValueError names a missing or
    /// unsound file; a group's zero-aware file (`NAME.za.npz`) is taken where there is one.
    /// `load`: "map"
    /// (memory-mapped: processes on one machine share one copy), "read" (a copy of its
    /// own, fastest to search) or "auto" (read: a mapped file that another program cuts
    /// short ends the process, so "map" is only for files nothing else writes meanwhile).
    #[staticmethod]
    #[pyo3(signature = (directory=None, size="4x4", partition="7-8", goal=None, load="auto"))]
    fn load(
        directory: Option<PathBuf>,
        size: &str,
        partition: &str,
        goal: Option<&Bound<'_, PyAny>>,
        load: &str,
    ) -> PyResult<PatternDatabases> {
        let how = load
            .parse::<Load>()
            .map_err(|e| value_error(format!("load: {e}")))?;
        // No folder named: the library's, where the CLI saves them.
        let directory = match directory {
            Some(d) => home(d),
            None => npuzzle::request::pdb_dir().ok_or_else(|| {
                value_error(
                    "directory: expected a folder (no NPUZZLE_PDB_DIR, NPUZZLE_CACHE_DIR, \
                     XDG_CACHE_HOME or HOME names one)",
                )
            })?,
        };
        let g = goal_arg(goal, parse_size(size)?)?;
        let mut dbs = Vec::new();
        for tiles in partition_arg(&g, partition)? {
            let path = npuzzle::heuristic::pdb::cached_file(&directory, &g, &tiles);
            let db = PatternDb::open_checked(&path, &g, &tiles, how)
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

/// `dir` with a leading `~` turned into the home folder, as a shell would.
fn home(dir: PathBuf) -> PathBuf {
    match (dir.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(h)) => PathBuf::from(h).join(rest),
        _ => dir,
    }
}

/// The databases of `pdbs`, checked to be for `goal`.
pub(crate) fn pdbs_for(
    pdbs: Option<&PatternDatabases>,
    goal: &Board,
) -> PyResult<Option<Arc<PdbHeuristic>>> {
    match pdbs {
        // The usual 6x6 goal's set on a bigger board: the anytime solver's last region.
        Some(p)
            if *p.heuristic.goal() == npuzzle::request::region_goal()
                && goal.size().width() >= p.heuristic.goal().size().width()
                && goal.size().height() >= p.heuristic.goal().size().height() =>
        {
            Ok(Some(p.heuristic.clone()))
        }
        Some(p) if p.heuristic.goal() != goal => Err(value_error(format!(
            "pdbs: the databases are for goal {}, not {goal}",
            p.heuristic.goal()
        ))),
        p => Ok(p.map(|p| p.heuristic.clone())),
    }
}

/// The sets of pattern databases auto takes for boards of `size`, best first (the
/// library's one preference, as the CLI and the server take them).
#[pyfunction]
pub(crate) fn preferred_sets(size: &str) -> PyResult<Vec<&'static str>> {
    Ok(npuzzle::request::preferred_sets(parse_size(size)?).to_vec())
}
