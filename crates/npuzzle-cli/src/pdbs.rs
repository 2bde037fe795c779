//! Pattern databases on disk: the directory, file names, loading with checks, and
//! building what is missing with a progress display.

use std::path::{Path, PathBuf};

use crate::dirs::{default_dir, env_path};
use npuzzle::error::human_bytes;
use npuzzle::heuristic::pdb::{build_memory, partition, Load, PatternDb, Placement};
use npuzzle::search::PdbHeuristic;
use npuzzle::{Board, Limits};

use crate::progress::ProgressLine;
use crate::Fail;

/// The environment variable that overrides where databases are kept.
pub const PDB_ENV: &str = "NPUZZLE_PDB_DIR";

/// `--pdb-dir`, else `$NPUZZLE_PDB_DIR`, else the cache directory.
pub fn pdb_dir(opt: &Option<PathBuf>) -> Option<PathBuf> {
    opt.clone()
        .or_else(|| env_path(PDB_ENV))
        .or_else(default_dir)
}

pub use npuzzle::heuristic::pdb::file_name;

/// The sound database in `path`, or why not.
pub fn load(path: &Path, goal: &Board, tiles: &[u8], how: Load) -> Result<PatternDb, String> {
    PatternDb::open_checked(path, goal, tiles, how)
}

/// Builds one database with a message and a progress display, and saves it.
pub fn build_one(
    goal: &Board,
    tiles: &[u8],
    limits: &Limits,
    threads: usize,
    dir: Option<&Path>,
) -> Result<PatternDb, Fail> {
    let entries = Placement::new(goal.size().cells(), tiles.len()).count();
    let large = entries > 1_000_000;
    if large {
        // About 17 million (placement, blank cell) states a second per core here: the
        // 8-tile 4x4 table (4.15 billion) took 121 s on 2 cores.
        let cores = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let states = entries as f64 * (goal.size().cells() - tiles.len()) as f64;
        let secs = states / (17e6 * cores as f64);
        let eta = if secs >= 90.0 {
            format!("about {:.0} minutes", secs / 60.0)
        } else {
            format!("about {:.0} s", secs.max(1.0))
        };
        crate::note!(
            "npuzzle: building the pattern database of tiles {tiles:?} for {} ({entries} entries, about {} of memory, {eta}); it is saved for next time",
            goal.size(),
            human_bytes(build_memory(goal.size(), tiles.len()))
        );
    }
    let mut line = ProgressLine::new(format!("pdb {}", tiles.len()));
    let db = PatternDb::build(goal, tiles, limits, threads, &mut |p| {
        if large {
            line.update(p.found, p.total, p.elapsed, &format!("cost {}", p.depth));
        }
    })
    .map_err(|e| Fail {
        code: crate::search_exit_code(&e),
        message: e.to_string(),
    });
    line.finish();
    let db = db?;
    match dir {
        Some(d) => {
            let path = d.join(file_name(goal, tiles));
            if let Err(e) = npuzzle::files::write_atomic(&path, &db.to_bytes()) {
                crate::note!("npuzzle: cannot save {}: {e}", path.display());
            } else if large {
                crate::note!("npuzzle: saved {}", path.display());
            }
        }
        None => {
            crate::note!("npuzzle: no cache directory (set {PDB_ENV}); the database is not saved")
        }
    }
    Ok(db)
}

/// The heuristic for `goal` and the partition `spec`: each database loaded from `dir`,
/// or built (and saved) when missing or unsound.
pub fn heuristic(
    goal: &Board,
    spec: &str,
    limits: &Limits,
    threads: usize,
    dir: Option<&Path>,
    how: Load,
) -> Result<PdbHeuristic, Fail> {
    let parts = partition(goal, spec).map_err(|e| Fail::input(format!("--pdb: {e}")))?;
    let mut dbs = Vec::new();
    for tiles in &parts {
        let path = dir.map(|d| d.join(file_name(goal, tiles)));
        let loaded = match &path {
            Some(p) if p.exists() => match load(p, goal, tiles, how) {
                Ok(db) => Some(db),
                Err(e) => {
                    crate::note!("npuzzle: {}: {e}; rebuilding it", p.display());
                    None
                }
            },
            _ => None,
        };
        let db = match loaded {
            Some(db) => db,
            None => build_one(goal, tiles, limits, threads, dir)?,
        };
        dbs.push(db);
    }
    PdbHeuristic::new(goal, dbs).map_err(Fail::input)
}

/// The heuristic for `goal` and the partition `spec` if every database of it is in `dir`
/// and sound; nothing is built.
pub fn cached(goal: &Board, spec: &str, dir: Option<&Path>, how: Load) -> Option<PdbHeuristic> {
    let dir = dir?;
    let parts = partition(goal, spec).ok()?;
    let mut dbs = Vec::new();
    for tiles in &parts {
        let path = dir.join(file_name(goal, tiles));
        if !path.exists() {
            return None;
        }
        match load(&path, goal, tiles, how) {
            Ok(db) => dbs.push(db),
            Err(e) => {
                crate::note!("npuzzle: {}: {e}; not used", path.display());
                return None;
            }
        }
    }
    PdbHeuristic::new(goal, dbs).ok()
}
