//! Pattern databases on disk for the command line: the folder, and the solving core's
//! notes and build progress shown on standard error. What is loaded, built or refused
//! is the library's policy ([`npuzzle::request::Core`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::dirs::{default_dir, env_path};
use npuzzle::heuristic::pdb::PdbHeuristic;
use npuzzle::heuristic::pdb::{Load, PatternDb};
use npuzzle::request::{Core, Event, Listener, Note, Remedy, Sources};
use npuzzle::{Board, Limits, SearchError};

use crate::progress::ProgressLine;
use crate::Fail;

/// The environment variable that overrides where databases are kept.
pub const PDB_ENV: &str = npuzzle::request::PDB_DIR_ENV;

pub use npuzzle::request::MTM_FILE;

/// `--pdb-dir`, else `$NPUZZLE_PDB_DIR`, else the cache directory. A folder named by
/// `--pdb-dir` or `$NPUZZLE_PDB_DIR` that is there but is not a folder (a file, a FIFO; a
/// symbolic link is followed) is an error naming where the path came from: databases
/// could neither be found nor saved there, and a solve would quietly go without them. A
/// cache directory that is not a folder gets a note, and no folder is used.
pub fn pdb_dir(opt: &Option<PathBuf>) -> Result<Option<PathBuf>, Fail> {
    let (dir, from) = match (opt, env_path(PDB_ENV)) {
        (Some(d), _) => (d.clone(), Some("--pdb-dir")),
        (None, Some(d)) => (d, Some(PDB_ENV)),
        (None, None) => match default_dir() {
            Some(d) => (d, None),
            None => return Ok(None),
        },
    };
    match (std::fs::metadata(&dir), from) {
        (Ok(m), Some(from)) if !m.is_dir() => Err(Fail::input(format!(
            "{from}: expected a database folder, found {} at {}",
            npuzzle::files::kind_in_words(m.file_type()),
            dir.display()
        ))),
        (Ok(m), None) if !m.is_dir() => {
            crate::note!(
                "npuzzle: the cache directory {} is {}, not a folder: pattern databases are \
                 neither looked for nor saved",
                dir.display(),
                npuzzle::files::kind_in_words(m.file_type())
            );
            Ok(None)
        }
        _ => Ok(Some(dir)),
    }
}

/// Proves the database file in `path` (its header and checksum, then the database built
/// again and every entry compared) and stamps it if sound; why not otherwise.
pub fn prove(path: &Path, limits: &Limits, threads: usize) -> Result<(), String> {
    let meta = npuzzle::files::open_regular(path)
        .and_then(|f| f.metadata())
        .map_err(|e| e.to_string())?;
    let db = PatternDb::open(path, Load::Read).map_err(|e| e.to_string())?;
    db.prove(limits, threads).map_err(|e| e.to_string())?;
    if let Some(seal) = db.stored_seal() {
        npuzzle::files::write_stamp(path, &meta, seal);
    }
    Ok(())
}

/// The sound database in `path`, or why not (an unproven file: with the command that
/// proves it).
pub fn load(path: &Path, goal: &Board, tiles: &[u8], how: Load) -> Result<PatternDb, String> {
    PatternDb::open_checked(path, goal, tiles, how).map_err(|e| match e {
        npuzzle::DatabaseError::Unproven { .. } => {
            word(&Note::new(e.to_string()).with(Remedy::ProvePdbs))
        }
        e => e.to_string(),
    })
}

/// A note of the core's in the command line's words: its remedy, if any, as the command
/// that does it.
pub fn word(note: &Note) -> String {
    let Some(remedy) = &note.remedy else {
        return note.text.clone();
    };
    let does = match remedy {
        Remedy::BuildPdbs { size, set: None } => {
            format!("npuzzle pdb build --size {size} builds them")
        }
        Remedy::BuildPdbs {
            size,
            set: Some(set),
        } => format!("npuzzle pdb build --size {size} --pdb \"{set}\" builds them"),
        Remedy::ProvePdbs => "npuzzle pdb verify proves them once, by rebuilding them".to_string(),
        Remedy::BuildMtm { replace } => format!(
            "npuzzle pdb build --size 4x4 --metric mtm{} (about 2 minutes, 504 MB) builds them",
            if *replace { " --force" } else { "" }
        ),
        _ => remedy.to_string(),
    };
    format!("{}; {does}", note.text)
}

/// The core's notes on standard error (`npuzzle: ...`, in [`word`]'s words), and build
/// progress as a progress line (one at a time: builds run one after another).
pub fn listener() -> Listener {
    let line: Mutex<Option<ProgressLine>> = Mutex::new(None);
    Arc::new(move |e: &Event<'_>| match e {
        Event::Note(note) => crate::note!("npuzzle: {}", word(note)),
        Event::Building { what, progress } => {
            let mut line = line.lock().unwrap_or_else(|e| e.into_inner());
            let l = line.get_or_insert_with(|| ProgressLine::new(what.to_string()));
            let unit = if what.starts_with("pdb") {
                "cost"
            } else {
                "depth"
            };
            l.update(
                progress.found,
                progress.total,
                progress.elapsed,
                &format!("{unit} {}", progress.depth),
            );
        }
        Event::Built { .. } => {
            if let Some(mut l) = line.lock().unwrap_or_else(|e| e.into_inner()).take() {
                l.finish();
            }
        }
        _ => {}
    })
}

/// A solving core over the database folder `dir` (and no tables), telling the command
/// line what it does.
pub fn core(dir: Option<&Path>, how: Load) -> Core {
    Core::new(Sources {
        pdb_dir: dir.map(Path::to_path_buf),
        load: how,
        listener: Some(listener()),
        ..Sources::default()
    })
}

/// Builds one database (zero-aware with `zero_aware`; with a note and progress for large
/// ones) and saves it; with `must_save`, a database that cannot be saved is an error
/// (exit 4).
pub fn build_one(
    goal: &Board,
    tiles: &[u8],
    limits: &Limits,
    threads: usize,
    dir: Option<&Path>,
    must_save: bool,
    zero_aware: bool,
) -> Result<PatternDb, Fail> {
    core(dir, Load::Read)
        .build_pdb(goal, tiles, limits, threads, must_save, zero_aware)
        .map_err(|e| match e {
            SearchError::Unsupported {
                algorithm: "pdb build",
                reason,
            } if must_save => Fail {
                code: crate::IO,
                message: reason,
            },
            e => crate::search_fail(e),
        })
}

/// The heuristic for `goal` and the partition `spec`: each database loaded from `dir`,
/// or built (and saved) when missing or unsound, within the time limit.
pub fn heuristic(
    goal: &Board,
    spec: &str,
    limits: &Limits,
    dir: Option<&Path>,
    how: Load,
) -> Result<PdbHeuristic, Fail> {
    core(dir, how)
        .named_pdbs(goal, spec, limits)
        .map_err(crate::search_fail)
}
