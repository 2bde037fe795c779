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

/// About how many seconds building the database of `tiles` for `goal` takes here on
/// `threads` threads (0: all cores): 17 million (placement, blank cell) states a second
/// per core (the 8-tile 4x4 table, 4.15 billion, took 121 s on 2 cores).
pub fn build_seconds(goal: &Board, tiles: &[u8], threads: usize) -> f64 {
    let cores = npuzzle::limits::resolve_threads(threads);
    let entries = Placement::new(goal.size().cells(), tiles.len()).count();
    let states = entries as f64 * (goal.size().cells() - tiles.len()) as f64;
    states / (17e6 * cores as f64)
}

/// Builds one database with a message and a progress display, and saves it; with
/// `must_save`, a database that cannot be saved is an error (exit 4), else a note.
pub fn build_one(
    goal: &Board,
    tiles: &[u8],
    limits: &Limits,
    threads: usize,
    dir: Option<&Path>,
    must_save: bool,
) -> Result<PatternDb, Fail> {
    let entries = Placement::new(goal.size().cells(), tiles.len()).count();
    let large = entries > 1_000_000;
    if large {
        let secs = build_seconds(goal, tiles, threads);
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
            if let Err(e) = db.save(&path) {
                if must_save {
                    return Err(Fail {
                        code: crate::IO,
                        message: format!("cannot save {}: {e}", path.display()),
                    });
                }
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
    // Every build counts against one time limit: each gets what the ones before it left.
    let started = std::time::Instant::now();
    for tiles in &parts {
        let limits = &Limits {
            time_limit: limits
                .time_limit
                .map(|t| t.saturating_sub(started.elapsed())),
            ..limits.clone()
        };
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
            None => {
                let secs = build_seconds(goal, tiles, threads);
                if let Some(t) = limits.time_limit.filter(|t| secs > t.as_secs_f64()) {
                    return Err(Fail {
                        code: crate::LIMIT,
                        message: format!(
                            "building the pattern database of tiles {tiles:?} for {} takes about \
                             {secs:.0} s here, more than the time left ({:.1} s of --time-limit); build it first \
                             (npuzzle pdb build --size {} --pdb {spec}) or raise --time-limit",
                            goal.size(),
                            t.as_secs_f64(),
                            goal.size()
                        ),
                    });
                }
                build_one(goal, tiles, limits, threads, dir, false)?
            }
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

/// The databases `auto` uses for `goal`: a cached set (the strongest first), else the
/// first set whose missing databases build within `budget` seconds and the memory limit
/// (built and saved, with a note), else none. Larger builds happen only when named.
pub fn for_auto(
    goal: &Board,
    limits: &Limits,
    dir: Option<&Path>,
    how: Load,
    budget: f64,
) -> Result<Option<(String, PdbHeuristic)>, Fail> {
    let size = goal.size();
    let candidates: &[&str] = match (size.width(), size.height()) {
        (4, 4) => &["7-8", "6-6-3", "5-5-5"],
        (5, 5) => &["6-6-6-6"],
        _ => &["auto"],
    };
    for spec in candidates {
        if let Some(h) = cached(goal, spec, dir, how) {
            return Ok(Some((spec.to_string(), h)));
        }
    }
    for spec in candidates {
        let Ok(parts) = partition(goal, spec) else {
            continue;
        };
        let secs: f64 = parts.iter().map(|t| build_seconds(goal, t, 0)).sum();
        let memory = parts
            .iter()
            .map(|t| build_memory(size, t.len()))
            .max()
            .unwrap_or(0);
        if secs <= budget && memory <= limits.max_memory {
            crate::note!(
                "npuzzle: auto: building the {spec} pattern databases for {size} (about {:.0} s; \
                 larger sets are built only when named, e.g. npuzzle pdb build --size {size})",
                secs.max(1.0)
            );
            return heuristic(goal, spec, limits, 0, dir, how).map(|h| Some((spec.to_string(), h)));
        }
    }
    Ok(None)
}

/// The file of the multi-tile tables (`pdb build --metric mtm`) in the database folder.
pub const MTM_FILE: &str = "mtm-4x4-rows-blocks.npz";

/// The multi-tile tables from `dir`, if they are there and sound (a note if unsound).
pub fn load_mtm(dir: Option<&Path>) -> Option<npuzzle::heuristic::mtm_pdb::MtmRows> {
    let path = dir?.join(MTM_FILE);
    let bytes = match npuzzle::files::read_regular(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            crate::note!("npuzzle: {}: {e}; not used", path.display());
            return None;
        }
    };
    match npuzzle::heuristic::mtm_pdb::MtmRows::from_bytes(bytes) {
        Ok(t) => Some(t),
        Err(e) => {
            crate::note!("npuzzle: {}: {e}; not used (rebuild: npuzzle pdb build --size 4x4 --metric mtm --force)", path.display());
            None
        }
    }
}
