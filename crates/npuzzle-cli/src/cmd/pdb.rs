//! `npuzzle pdb`: build, list, verify and remove pattern databases.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args as ClapArgs, Subcommand};
use npuzzle::error::human_bytes;
use npuzzle::heuristic::pdb::{file_name_of, partitions, Load, PatternDb, PdbInfo};
use npuzzle::Board;

use crate::opts::{parse_size, LimitOpts};
use crate::pdbs::{build_one, pdb_dir};
use crate::{Fail, BAD_INPUT, OK};

/// Manage the pattern databases used by `solve` and `bench` on 4x4 and larger boards.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
    /// Where databases are kept [default: $NPUZZLE_PDB_DIR, else the cache directory].
    #[arg(long, global = true, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Action {
    /// Build (or rebuild) the databases of a partition.
    #[command(
        after_help = "Examples:\n  npuzzle pdb build --size 4x4 --pdb 7-8\n  npuzzle pdb build --size 4x4 --goal \"0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15\"\n  npuzzle pdb build --size 3x3 --pdb \"1,2,3,4/5,6,7,8\"\n  npuzzle pdb build --size 5x5 --pdb 6-6-6-6x4   (the 24-puzzle catalogue: 12 tables, 1.5 GB)\n  npuzzle pdb build --size 5x5 --pdb 6-6-6-6x4 --zero-aware   (the same, zero-aware: fewer nodes, 6.1 GB)"
    )]
    Build {
        /// Board size as WxH.
        #[arg(long, value_name = "WxH", value_parser = parse_size)]
        size: npuzzle::Size,
        /// The goal [default: tiles in order, blank last].
        #[arg(long, value_name = "BOARD")]
        goal: Option<String>,
        /// Partition: 7-8, 6-6-3, 5-5-5 (4x4), 6-6-6-6 or the catalogue 6-6-6-6x4 (5x5),
        /// auto, or "1,2,3/4,5,6"; partitions joined by "+" build all their databases.
        #[arg(long, default_value = "auto")]
        pdb: String,
        /// Rebuild even when a sound file exists.
        #[arg(long)]
        force: bool,
        /// Zero-aware databases (boards of up to 25 cells): each entry also knows which
        /// region of free cells the blank is in, for larger estimates (on the 24-puzzle
        /// about two thirds of the nodes) at four times the memory. Kept beside the plain
        /// ones (`.za.npz`) and used in their place wherever both are.
        #[arg(long)]
        zero_aware: bool,
        /// mtm: the multi-tile metric's tables for 4x4 with the usual goal instead
        /// (`solve --metric mtm` uses them; 504 MB, about 2 minutes).
        #[arg(long, default_value = "stm", value_parser = |s: &str| s.parse::<npuzzle::sequence::Metric>())]
        metric: npuzzle::sequence::Metric,
        /// Threads [default: all cores].
        #[arg(long, default_value_t = 0, hide_default_value = true)]
        threads: usize,
        #[command(flatten)]
        limits: LimitOpts,
    },
    /// List the databases in the directory.
    List,
    /// Prove every database file: its magic, version and checksum, then the database built
    /// again and every entry compared (as long as a build: minutes for the large ones).
    /// A sound file is stamped, and used from then on without a proof; a file npuzzle did
    /// not write here (copied in, or changed since) is used only once proven.
    Verify {
        /// Threads [default: all cores].
        #[arg(long, default_value_t = 0, hide_default_value = true)]
        threads: usize,
        #[command(flatten)]
        limits: LimitOpts,
    },
    /// Remove database files: all of them, or those of one size.
    Remove {
        /// Only this size.
        #[arg(long, value_name = "WxH", value_parser = parse_size)]
        size: Option<npuzzle::Size>,
    },
}

/// The database files in `dir`, sorted; entries named like one that are not regular
/// files (a FIFO, a directory, a socket) are skipped with a warning, never opened.
fn files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("pdb-") && n.ends_with(".npz"))
                })
                .filter(|p| {
                    let regular = std::fs::metadata(p).is_ok_and(|m| m.is_file());
                    if !regular {
                        crate::note!(
                            "npuzzle: {}: expected a regular file, found something else; skipped",
                            p.display()
                        );
                    }
                    regular
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let dir = pdb_dir(&args.pdb_dir)?
        .ok_or_else(|| Fail::input("no database directory: set NPUZZLE_PDB_DIR or --pdb-dir"))?;
    if !matches!(args.action, Action::Build { .. }) && !dir.is_dir() {
        // Listing or checking a folder that is not there is a mistake to report (a typo
        // in --pdb-dir), not an empty answer.
        return Err(Fail::input(format!(
            "expected a database folder, found no folder at {}",
            dir.display()
        )));
    }
    match args.action {
        Action::Build {
            size,
            goal,
            pdb,
            force,
            zero_aware,
            metric,
            threads,
            limits,
        } => {
            let goal = match goal {
                Some(g) => {
                    Board::parse(&g, Some(size)).map_err(|e| Fail::input(format!("--goal: {e}")))?
                }
                None => Board::solved(size),
            };
            if metric == npuzzle::sequence::Metric::Mtm {
                if zero_aware {
                    return Err(Fail::input(
                        "--zero-aware: expected the stm metric's databases, found --metric mtm",
                    ));
                }
                return build_mtm(&dir, &goal, force, threads, &limits.limits(), out);
            }
            if zero_aware && size.cells() > npuzzle::heuristic::pdb::ZERO_AWARE_MAX_CELLS {
                return Err(Fail::input(format!(
                    "--zero-aware: expected a board of up to {} cells, found {size} ({} cells)",
                    npuzzle::heuristic::pdb::ZERO_AWARE_MAX_CELLS,
                    size.cells()
                )));
            }
            let parts = partitions(&goal, &pdb).map_err(|e| Fail::input(format!("--pdb: {e}")))?;
            let mut groups: Vec<&Vec<u8>> = Vec::new();
            for tiles in parts.iter().flatten() {
                if !groups.contains(&tiles) {
                    groups.push(tiles);
                }
            }
            // Databases at hand, of which a symmetry of the board may make a later group's.
            let mut have: Vec<PatternDb> = Vec::new();
            let core = crate::pdbs::core(Some(&dir), Load::Read);
            for tiles in groups {
                let path = dir.join(file_name_of(&goal, tiles, zero_aware));
                if !force && path.exists() {
                    if let Ok(db) = crate::pdbs::load(&path, &goal, tiles, Load::Map) {
                        writeln!(out, "{}: present", path.display())?;
                        have.push(db);
                        continue;
                    }
                }
                let start = std::time::Instant::now();
                let (db, how) = match core
                    .image_pdb(&goal, tiles, &have, threads, true)
                    .map_err(crate::search_fail)?
                {
                    Some((db, from)) => {
                        let from = have[from].tiles();
                        let how = format!(
                            "made from the database of tiles {from:?} by a symmetry of the board"
                        );
                        (db, how)
                    }
                    None => (
                        build_one(
                            &goal,
                            tiles,
                            &limits.limits(),
                            threads,
                            Some(&dir),
                            true,
                            zero_aware,
                        )?,
                        "built".to_string(),
                    ),
                };
                writeln!(
                    out,
                    "{}: {how}, {} entries, max {}, {:.1} s",
                    path.display(),
                    db.len(),
                    db.max_value(),
                    start.elapsed().as_secs_f64()
                )?;
                // Kept for the symmetries, as the saved file mapped: its pages are the
                // system's to drop, so a catalogue's build holds one table in memory at a
                // time, not every table it has built (twelve zero-aware 5x5 tables: 6.1 GB).
                keep_mapped(&mut have, db, &path, &goal, tiles);
            }
            Ok(OK)
        }
        Action::List => {
            for p in files(&dir) {
                let meta = std::fs::metadata(&p)?;
                // The header only: listing never reads (or checksums) the entries;
                // `verify` does.
                let desc = match PdbInfo::read(&p) {
                    Ok(info) => format!(
                        "{} goal {} tiles {:?}{}",
                        info.goal.size(),
                        info.goal,
                        info.tiles,
                        if info.zero_aware { " zero-aware" } else { "" }
                    ),
                    Err(e) => format!("unreadable: {e}"),
                };
                writeln!(out, "{}  {}  {desc}", p.display(), human_bytes(meta.len()))?;
            }
            Ok(OK)
        }
        Action::Verify { threads, limits } => {
            let mut code = OK;
            for p in files(&dir) {
                // The checksum, then the proof: the database built again and every entry
                // compared (always run here, stamp or not); a sound file is stamped, so
                // that later loads use it without a proof.
                let checked = crate::pdbs::prove(&p, &limits.limits(), threads);
                match checked {
                    Ok(()) => writeln!(out, "{}: ok", p.display())?,
                    Err(e) => {
                        writeln!(out, "{}: {e}", p.display())?;
                        code = BAD_INPUT;
                    }
                }
            }
            Ok(code)
        }
        Action::Remove { size } => {
            // Every file is tried: one that cannot be removed is named, and the rest
            // still go.
            let mut code = OK;
            for p in files(&dir) {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if size.is_none_or(|s| name.starts_with(&format!("pdb-{s}-"))) {
                    match std::fs::remove_file(&p) {
                        Ok(()) => {
                            npuzzle::files::remove_stamp(&p);
                            writeln!(out, "removed {}", p.display())?;
                        }
                        Err(e) => {
                            crate::note!("npuzzle: cannot remove {}: {e}", p.display());
                            code = crate::IO;
                        }
                    }
                }
            }
            Ok(code)
        }
    }
}

/// Keeps a database just built and saved at `path` for the symmetries of later groups:
/// as its file, mapped, where that opens (the build's own memory freed), else as it is.
fn keep_mapped(
    have: &mut Vec<PatternDb>,
    db: PatternDb,
    path: &std::path::Path,
    goal: &Board,
    tiles: &[u8],
) {
    have.push(crate::pdbs::load(path, goal, tiles, Load::Map).unwrap_or(db));
}

/// `pdb build --metric mtm`: the multi-tile tables for 4x4 with the usual goal.
fn build_mtm(
    dir: &std::path::Path,
    goal: &Board,
    force: bool,
    threads: usize,
    limits: &npuzzle::Limits,
    out: &mut impl Write,
) -> Result<u8, Fail> {
    use npuzzle::heuristic::mtm_pdb::{MtmRows, STATES};
    if !MtmRows::serves(goal) {
        return Err(Fail::input(format!(
            "--metric mtm: the multi-tile tables are for 4x4 with the usual goal \
             (1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0), not {goal}"
        )));
    }
    let path = dir.join(crate::pdbs::MTM_FILE);
    if !force && matches!(npuzzle::request::load_mtm(dir), Ok(Some(_))) {
        writeln!(out, "{}: present", path.display())?;
        return Ok(OK);
    }
    crate::note!(
        "npuzzle: building the multi-tile tables for 4x4 (2 x {STATES} entries, {}, about 2 \
         minutes on two cores); they are saved for next time",
        human_bytes(2 * STATES)
    );
    let start = std::time::Instant::now();
    let t = MtmRows::build(limits, threads).map_err(|e| Fail {
        code: crate::search_exit_code(&e),
        message: e.to_string(),
    })?;
    std::fs::create_dir_all(dir)?;
    npuzzle::files::write_atomic(&path, &t.to_bytes()).map_err(|e| {
        Fail::from(std::io::Error::new(
            e.kind(),
            format!("{}: {e}", path.display()),
        ))
    })?;
    writeln!(
        out,
        "{}: built, {} entries, {:.1} s",
        path.display(),
        2 * STATES,
        start.elapsed().as_secs_f64()
    )?;
    Ok(OK)
}
