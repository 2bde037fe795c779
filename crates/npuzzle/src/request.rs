//! The solving core: one [`Request`] and one board in, one [`Report`] out. Every face
//! (the CLI, the server, Python) turns its options into a request and prints the answer,
//! so the same question gets the same answer everywhere; all policy lives here: what
//! `auto` runs on each size, which cached databases it uses and what it may build within
//! the time left, anytime answers with the bound proved, and the fast fallback.
//!
//! A [`Core`] holds what boards share: where databases and tables are kept
//! ([`Sources`]), and those already loaded or built, behind `Arc`s, so any number of
//! threads answer boards through one core without copies.
//!
//! ```
//! use npuzzle::request::{Core, Request, Sources};
//! use npuzzle::{Algorithm, Board};
//!
//! let core = Core::new(Sources::default());
//! let board: Board = "8 1 3/4 0 2/7 6 5".parse()?;
//! let answer = core.answer(&board, &Request::default())?;
//! assert_eq!(answer.report.length, Some(14));
//! assert_eq!(answer.report.optimal, Some(true));
//!
//! // Options that do not go together are refused, naming the request's field.
//! let bad = Request { algorithm: Algorithm::Bfs, weight: Some(2.0), ..Request::default() };
//! let e = core.answer(&board, &bad).unwrap_err();
//! assert!(e.to_string().starts_with("weight:"), "{e}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Progress and cancel travel with the request's limits: the hook hears the bound each
//! pass proves, and the flag stops the search (from any thread) with that bound.
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use std::sync::{Arc, Mutex};
//! use npuzzle::limits::SearchProgress;
//! use npuzzle::request::{Core, Request, Sources};
//! use npuzzle::{Algorithm, Board, HeuristicKind, Limits, SearchError};
//!
//! let board: Board = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0".parse()?;
//! let cancel = Arc::new(AtomicBool::new(false));
//! let bounds = Arc::new(Mutex::new(Vec::new()));
//! let (seen, stop) = (bounds.clone(), cancel.clone());
//! let progress = Arc::new(move |p: &SearchProgress| {
//!     if let Some(b) = p.bound {
//!         seen.lock().unwrap().push(b);
//!     }
//!     if p.bound.is_some_and(|b| b >= 60) {
//!         stop.store(true, Ordering::Relaxed); // enough: cancel
//!     }
//! });
//! let request = Request {
//!     algorithm: Algorithm::Idastar,
//!     heuristic: Some(HeuristicKind::Manhattan),
//!     limits: Limits { cancel: Some(cancel), progress: Some(progress), ..Limits::default() },
//!     ..Request::default()
//! };
//! match Core::new(Sources::default()).answer(&board, &request) {
//!     Err(SearchError::TimeLimit { lower_bound, .. }) => assert!(lower_bound >= 60),
//!     other => panic!("expected the search to be cancelled, found {other:?}"),
//! }
//! let bounds = bounds.lock().unwrap();
//! assert!(bounds.windows(2).all(|w| w[0] < w[1]) && *bounds.last().unwrap() >= 60);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use crate::analysis::DistanceTable;
use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::heuristic::mtm_pdb::MtmRows;
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::pdb::{
    build_memory, build_memory_of, cached_file, check_partition_count, file_name_of, partition,
    partitions, Load, PatternDb, Placement, CATALOGUE_24,
};
use crate::heuristic::HeuristicKind;
use crate::layered::Progress;
use crate::limits::{resolve_threads, Limits};
use crate::moves::{Direction, Notation};
use crate::report::Report;
use crate::search::{self, Algorithm, FAST_FROM};
use crate::sequence::Metric;
use crate::solution::Solution;

/// Seconds `auto` may spend building pattern databases it was not asked for.
pub const AUTO_BUILD_SECONDS: f64 = 60.0;

/// The exact search's time when `auto` was given none on a board of more than 16 cells
/// (and exact answers were not required): after it the fast solver answers, with the
/// bound proven. (On 16 to 25 cells with no databases at hand, the exact search gets
/// half of the time, and the anytime solver's beams answer in the other half.)
pub const AUTO_EXACT_SECONDS: u64 = 10;

/// One solve: everything that says how a board is to be answered.
#[derive(Clone)]
pub struct Request {
    /// The goal; `None`: the board's size with tiles in order and the blank last.
    pub goal: Option<Board>,
    /// The search; `Auto` picks per size.
    pub algorithm: Algorithm,
    /// The estimate for A* and IDA*; `None`: linear conflict (and `auto` may use
    /// pattern databases; naming one turns it away from them).
    pub heuristic: Option<HeuristicKind>,
    /// A partition of pattern databases to load or build (`7-8`, `1,2,3/4,5,6`).
    pub pdb: Option<String>,
    /// Databases given by the caller (a name for reports, and the databases), used
    /// instead of looking any up.
    pub pdbs: Option<(String, Arc<PdbHeuristic>)>,
    /// A weight from 1 to 100: weighted IDA* or A*, at most this times the shortest.
    pub weight: Option<f64>,
    /// How moves are counted: single-tile (`Stm`) or multi-tile moves.
    pub metric: Metric,
    /// `Some(n)`: up to `n` optimal solutions, 1 to [`MAX_SOLUTIONS`] (`usize::MAX`:
    /// all).
    pub solutions: Option<usize>,
    /// Proven-optimal answers only: `auto` never answers with the fast solver.
    pub exact: bool,
    /// How the report writes the moves.
    pub notation: Notation,
    /// Memory, time, node budget, cancellation.
    pub limits: Limits,
    /// Threads for one board's database search (0: all cores).
    pub threads: usize,
    /// `Some(w)`: the anytime solver's beams at this one width instead of widths fitted
    /// to the time ([`search::beams_at_width`]): with auto on boards of 26 cells or more;
    /// without a time limit the run ends when its beams do.
    pub beam_width: Option<usize>,
}

impl Default for Request {
    fn default() -> Request {
        Request {
            goal: None,
            algorithm: Algorithm::Auto,
            heuristic: None,
            pdb: None,
            pdbs: None,
            weight: None,
            metric: Metric::Stm,
            solutions: None,
            exact: false,
            notation: Notation::Tile,
            limits: Limits::default(),
            threads: 0,
            beam_width: None,
        }
    }
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("goal", &self.goal)
            .field("algorithm", &self.algorithm)
            .field("heuristic", &self.heuristic)
            .field("pdb", &self.pdb)
            .field("pdbs", &self.pdbs.as_ref().map(|(n, _)| n))
            .field("weight", &self.weight)
            .field("metric", &self.metric)
            .field("solutions", &self.solutions)
            .field("exact", &self.exact)
            .field("notation", &self.notation)
            .field("threads", &self.threads)
            .field("beam_width", &self.beam_width)
            .finish()
    }
}

fn bad(field: &'static str, reason: impl Into<String>) -> SearchError {
    SearchError::BadRequest {
        field,
        reason: reason.into(),
    }
}

impl Request {
    /// Checks that the options go together; the error names the field at fault.
    pub fn check(&self) -> Result<(), SearchError> {
        use Algorithm::{Astar, Auto, Fast, Idastar};
        if let Some(n) = self.solutions {
            if n == 0 || (n > MAX_SOLUTIONS && n != usize::MAX) {
                return Err(bad(
                    "solutions",
                    format!("expected 1 to {MAX_SOLUTIONS} solutions (or all), found {n}"),
                ));
            }
        }
        if self.limits.time_limit.is_some_and(|t| t.is_zero()) {
            return Err(bad(
                "time_limit",
                "expected a time limit above 0 (the search would stop at once), found 0",
            ));
        }
        if let Some(w) = self.weight {
            search::check_weight(w).map_err(|e| bad("weight", e))?;
            if self.solutions.is_some()
                || self.metric == Metric::Mtm
                || !matches!(self.algorithm, Auto | Idastar | Astar)
                || (self.algorithm == Astar && (self.pdb.is_some() || self.pdbs.is_some()))
            {
                return Err(bad(
                    "weight",
                    "weighted search is IDA* (algorithm auto or idastar, with or without pattern \
                     databases) or A* (algorithm astar); not with several solutions or the \
                     multi-tile metric",
                ));
            }
        }
        if self.exact && (self.weight.is_some() || self.algorithm == Fast) {
            return Err(bad(
                "exact",
                "proven-optimal answers only; a weight and the fast solver give others",
            ));
        }
        if self.metric == Metric::Mtm
            && (self.solutions.is_some() || !matches!(self.algorithm, Auto | Idastar))
        {
            return Err(bad(
                "metric",
                "mtm is solved by idastar (or auto), one solution a board",
            ));
        }
        if self.solutions.is_some() && !matches!(self.algorithm, Auto | Idastar) {
            return Err(bad(
                "solutions",
                "several solutions are enumerated by idastar (or auto)",
            ));
        }
        if self.pdb.is_some() && !matches!(self.algorithm, Auto | Idastar | Fast) {
            return Err(bad(
                "pdb",
                "pattern databases guide idastar (or auto, or weighted IDA*)",
            ));
        }
        // Several solutions and the multi-tile metric are searched without the named
        // databases: say so rather than drop them.
        if self.pdb.is_some() && (self.solutions.is_some() || self.metric == Metric::Mtm) {
            return Err(bad(
                "pdb",
                "pattern databases guide the search for one solution in single-tile moves; \
                 several solutions are enumerated with linear conflict and the multi-tile \
                 metric has tables of its own",
            ));
        }
        if let Some(w) = self.beam_width {
            search::check_beam_width(w).map_err(|e| bad("beam_width", e))?;
            if self.algorithm != Auto
                || self.exact
                || self.weight.is_some()
                || self.solutions.is_some()
                || self.metric == Metric::Mtm
            {
                return Err(bad(
                    "beam_width",
                    "a beam width is for the anytime solver (algorithm auto on boards of 26 \
                     cells or more); not with exact answers, a weight, several solutions or \
                     the multi-tile metric",
                ));
            }
        }
        Ok(())
    }

    /// The goal for `board`: the request's (its size checked), or the solved board.
    pub fn goal_for(&self, board: &Board) -> Result<Board, SearchError> {
        match &self.goal {
            Some(g) if g.size() != board.size() => Err(SearchError::SizeMismatch {
                start: board.size(),
                goal: g.size(),
            }),
            Some(g) => Ok(g.clone()),
            None => Ok(Board::solved(board.size())),
        }
    }
}

/// The most solutions one request lists (unless it asks for all of them).
pub const MAX_SOLUTIONS: usize = 1000;

/// What the core tells its caller while it works.
#[derive(Debug)]
pub enum Event<'a> {
    /// Something the person asking should hear (a database being built or refused, a
    /// table left out); said once, where it happens.
    Note(&'a str),
    /// A build's progress: what is built, and how far it has come.
    Building {
        /// What is built (`pdb 5`, `analyzing 3x4`).
        what: &'a str,
        /// How far.
        progress: &'a Progress,
    },
    /// A build that reported progress has ended.
    Built {
        /// What was built.
        what: &'a str,
    },
}

/// A listener for [`Event`]s, shared by every thread.
pub type Listener = Arc<dyn Fn(&Event<'_>) + Send + Sync>;

/// The environment variable naming the cache folder (tables, and databases unless
/// [`PDB_DIR_ENV`] says otherwise).
pub const CACHE_DIR_ENV: &str = "NPUZZLE_CACHE_DIR";
/// The environment variable naming the database folder.
pub const PDB_DIR_ENV: &str = "NPUZZLE_PDB_DIR";

/// A non-empty environment variable as a path.
fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The user's cache folder, where every face keeps what it builds: `$NPUZZLE_CACHE_DIR`,
/// else `$XDG_CACHE_HOME/npuzzle`, else `$HOME/.cache/npuzzle`; `None` if none is set.
///
/// ```
/// // (The folder is named, not made.)
/// let dir = npuzzle::request::cache_dir();
/// assert!(dir.is_none_or(|d| d.ends_with("npuzzle") || std::env::var_os("NPUZZLE_CACHE_DIR").is_some()));
/// ```
pub fn cache_dir() -> Option<PathBuf> {
    env_path(CACHE_DIR_ENV)
        .or_else(|| env_path("XDG_CACHE_HOME").map(|p| p.join("npuzzle")))
        .or_else(|| env_path("HOME").map(|p| p.join(".cache").join("npuzzle")))
}

/// The user's database folder: `$NPUZZLE_PDB_DIR`, else [`cache_dir`].
pub fn pdb_dir() -> Option<PathBuf> {
    env_path(PDB_DIR_ENV).or_else(cache_dir)
}

/// The sets of pattern databases auto takes for a board of `size`, best first: the first
/// of them cached is loaded; the first that builds within auto's budget is built. On 4x4
/// `7-8`, `6-6-3`, `5-5-5`; on 5x5 the catalogue, then `6-6-6-6`; elsewhere auto's own
/// partition (`auto`).
///
/// ```
/// let s = npuzzle::request::preferred_sets("4x4".parse().unwrap());
/// assert_eq!(s, ["7-8", "6-6-3", "5-5-5"]);
/// ```
pub fn preferred_sets(size: Size) -> &'static [&'static str] {
    match (size.width(), size.height()) {
        (4, 4) => &["7-8", "6-6-3", "5-5-5"],
        (5, 5) => &[CATALOGUE_24, "6-6-6-6"],
        _ => &["auto"],
    }
}

/// Where databases and tables come from. [`Sources::default`] has no folders (nothing is
/// read or saved); [`Sources::user_cache`] is what every face uses unless told otherwise.
#[derive(Clone, Default)]
pub struct Sources {
    /// The folder of pattern databases (loaded from, and saved to when built).
    pub pdb_dir: Option<PathBuf>,
    /// The folder of distance tables.
    pub table_dir: Option<PathBuf>,
    /// How database files are brought in.
    pub load: Load,
    /// Databases loaded beforehand, per goal: the partition's name and the databases.
    pub pdbs: Vec<(Board, String, Arc<PdbHeuristic>)>,
    /// `table` on more than 9 cells builds a table when none is kept, and saves it.
    pub build_tables: bool,
    /// Threads a database or table build takes (0: every core). A server whose lanes run
    /// one search a thread says 1: a build then takes its own thread, not every core.
    pub build_threads: usize,
    /// Told of notes and build progress.
    pub listener: Option<Listener>,
}

impl Sources {
    /// The user's folders ([`pdb_dir`], [`cache_dir`]), files read into memory
    /// ([`Load::Auto`]), tables built and saved: the sources of the command line, the
    /// server, Python and Dask alike, so that what one face builds the others find.
    pub fn user_cache() -> Sources {
        Sources {
            pdb_dir: pdb_dir(),
            table_dir: cache_dir(),
            load: Load::Auto,
            pdbs: Vec::new(),
            build_tables: true,
            build_threads: 0,
            listener: None,
        }
    }
}

/// The databases of every partition's groups, each distinct group got once by `get` (a
/// group in several partitions shares its entries), in the partitions' order.
fn each_group_once<E>(
    parts: &[Vec<Vec<u8>>],
    mut get: impl FnMut(&[u8]) -> Result<PatternDb, E>,
) -> Result<Vec<Vec<PatternDb>>, E> {
    let mut got: Vec<PatternDb> = Vec::new();
    let mut sets = Vec::new();
    for groups in parts {
        let mut dbs = Vec::new();
        for tiles in groups {
            let db = match got.iter().find(|d| d.tiles() == tiles.as_slice()) {
                Some(db) => db.clone(),
                None => {
                    let db = get(tiles)?;
                    got.push(db.clone());
                    db
                }
            };
            dbs.push(db);
        }
        sets.push(dbs);
    }
    Ok(sets)
}

/// Whether a set of databases of a board of `cells` cells that the sources would load as
/// `load` is mapped instead, where only a few seconds or fewer are spent with it (the fast
/// solver, the anytime solver's sets read on demand): where the process gives one answer
/// and ends ([`Load::Once`]) and the files would otherwise be read into memory of their
/// own. Everywhere else they are read (see [`Load`]).
fn maps_instead(load: Load, cells: usize) -> bool {
    load == Load::Once && Load::Once.reads(cells)
}

/// Databases found for a goal: the partition's name and the databases.
type Named = (String, Arc<PdbHeuristic>);

/// What a look for databases found: the goal, the partition asked for (`None`: auto's
/// choice), whether a build was allowed, whether the files were mapped for the fast
/// solver instead of read as the sources say (see `Core::pdbs_for_fast`), and the
/// databases if any.
/// One look for databases: the goal, the partition asked for (`None`: auto's choice),
/// whether a build was allowed, whether the files were mapped for the fast solver instead
/// of read as the sources say (see `Core::pdbs_for_fast`), and what was found, in a slot
/// of its own: a look under way (a build) holds up the looks for the same key only, never
/// another goal's.
struct Look {
    goal: Board,
    spec: Option<String>,
    may_build: bool,
    map: bool,
    found: Arc<Mutex<Option<Option<Named>>>>,
}

/// The most looks a core keeps (each with the databases it found): past it the oldest not
/// in use is dropped, so that a server asked for ever new goals does not grow without end
/// (a later ask for a dropped one looks again).
const MAX_LOOKS: usize = 16;

/// The last table a thread used, and the question it answered: (core, epoch, algorithm),
/// goal, table.
type Remembered = ((u64, u64, Algorithm), Board, Arc<DistanceTable>);

thread_local! {
    static LAST_TABLE: std::cell::RefCell<Option<Remembered>> = const { std::cell::RefCell::new(None) };
}

/// Numbers cores, so that a thread's remembered table is never taken for another core's.
static CORES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What boards share: the sources, and the databases and tables already at hand.
pub struct Core {
    /// This core's number.
    id: u64,
    /// Raised whenever a table is dropped, so remembered ones are looked up again.
    epoch: std::sync::atomic::AtomicU64,
    sources: Sources,
    /// The looks for databases made, and what each found (at most [`MAX_LOOKS`]).
    pdbs: Mutex<Vec<Look>>,
    /// Per goal: the distance table, if there is one to be had.
    tables: RwLock<HashMap<Board, Option<Arc<DistanceTable>>>>,
    /// Per goal: a table built in memory only (not kept in the folder). `auto` uses these
    /// only under its own rule (boards of at most 9 cells), so a board's answer never
    /// depends on what was asked before it.
    memory: RwLock<HashMap<Board, Arc<DistanceTable>>>,
    /// The multi-tile tables, once looked for.
    mtm: OnceLock<Option<Arc<MtmRows>>>,
}

/// One board's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The report every face prints.
    pub report: Report,
    /// The solution's moves (the first one with several; empty when unsolvable).
    pub moves: Vec<Direction>,
    /// The statistics of the search that answered.
    pub stats: crate::solution::Stats,
    /// Every solution found when several were asked for.
    pub solutions: Vec<Vec<Direction>>,
    /// What the caller should tell the person asking about this board (an exact search
    /// that ran out and was answered fast, a table found unsound).
    pub notes: Vec<String>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn read<T>(m: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(m: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(|e| e.into_inner())
}

/// Auto's databases, or what to do when their build was stopped: a build the clock
/// stopped (its estimate fitted the time, but a busy machine took longer), or a set whose
/// last database no longer fits the time its first ones left, is no answer to the board,
/// which is then solved without databases (`Ok(Err(note))`, the note saying so): auto
/// chose the build, so auto answers all the same. A cancelled build, or any other error,
/// stays an error.
fn auto_build_stopped<T>(
    found: Result<Option<T>, SearchError>,
    cancelled: bool,
) -> Result<Result<Option<T>, String>, SearchError> {
    match found {
        Err(SearchError::TimeLimit {
            algorithm: "pdb build",
            elapsed,
            ..
        }) if !cancelled => Ok(Err(format!(
            "auto's pattern databases did not build within the time limit ({:.1} s spent; \
             nothing saved): answered without them",
            elapsed.as_secs_f64()
        ))),
        Err(SearchError::BuildTooLong {
            what,
            seconds,
            left,
        }) if !cancelled => Ok(Err(format!(
            "auto's pattern databases did not all build within the time limit ({what} would \
             take about {seconds:.0} s, {left:.1} s were left; what was built is saved): \
             answered without them"
        ))),
        other => other.map(Ok),
    }
}

pub use crate::heuristic::pdb::build_seconds;

impl Core {
    /// A core over `sources`, with nothing loaded yet.
    pub fn new(sources: Sources) -> Core {
        Core {
            id: CORES.fetch_add(1, Ordering::Relaxed),
            epoch: std::sync::atomic::AtomicU64::new(0),
            sources,
            pdbs: Mutex::new(Vec::new()),
            tables: RwLock::new(HashMap::new()),
            memory: RwLock::new(HashMap::new()),
            mtm: OnceLock::new(),
        }
    }

    /// The sources this core reads.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    fn tell(&self, e: &Event<'_>) {
        if let Some(l) = &self.sources.listener {
            l(e);
        }
    }

    fn note(&self, text: &str) {
        self.tell(&Event::Note(text));
    }

    /// Runs a build that reports its layers, telling the listener of each (`shown`: only
    /// builds long enough to watch) and of its end.
    fn building<T>(
        &self,
        what: &str,
        shown: bool,
        run: impl FnOnce(&mut dyn FnMut(&Progress)) -> T,
    ) -> T {
        let result = run(&mut |progress| {
            if shown {
                self.tell(&Event::Building { what, progress });
            }
        });
        if shown {
            self.tell(&Event::Built { what });
        }
        result
    }

    /// Builds one database (zero-aware with `zero_aware`), telling the listener, and saves
    /// it in the database folder; `must_save`: a database that cannot be saved is an error.
    pub fn build_pdb(
        &self,
        goal: &Board,
        tiles: &[u8],
        limits: &Limits,
        threads: usize,
        must_save: bool,
        zero_aware: bool,
    ) -> Result<PatternDb, SearchError> {
        let entries = Placement::new(goal.size().cells(), tiles.len()).count();
        let large = entries > 1_000_000;
        if large {
            let secs = build_seconds(goal, tiles, threads);
            let eta = if secs >= 90.0 {
                format!("about {:.0} minutes", secs / 60.0)
            } else {
                format!("about {:.0} s", secs.max(1.0))
            };
            self.note(&format!(
                "building the {}pattern database of tiles {tiles:?} for {} ({entries} entries, \
                 about {} of memory, {eta}); it is saved for next time",
                if zero_aware { "zero-aware " } else { "" },
                goal.size(),
                crate::error::human_bytes(build_memory_of(goal.size(), tiles.len(), zero_aware))
            ));
        }
        let db = self.building(&format!("pdb {}", tiles.len()), large, |progress| {
            PatternDb::build_of(goal, tiles, limits, threads, progress, zero_aware)
        })?;
        match &self.sources.pdb_dir {
            Some(d) => {
                let path = d.join(file_name_of(goal, tiles, zero_aware));
                match db.save(&path) {
                    Err(e) if must_save => {
                        return Err(SearchError::Unsupported {
                            algorithm: "pdb build",
                            reason: format!("cannot save {}: {e}", path.display()),
                        })
                    }
                    Err(e) => self.note(&format!("cannot save {}: {e}", path.display())),
                    Ok(()) if large => self.note(&format!("saved {}", path.display())),
                    Ok(()) => {}
                }
            }
            None => self.note("no database folder: the database is not saved"),
        }
        Ok(db)
    }

    /// The database of `tiles` for `goal` from the folder, if there and sound (a note
    /// says why one there is not used, and `then` what happens instead).
    fn load_pdb(&self, goal: &Board, tiles: &[u8], how: Load, then: &str) -> Option<PatternDb> {
        let path = self.pdb_path(goal, tiles)?;
        if std::fs::symlink_metadata(&path).is_err() {
            return None;
        }
        match PatternDb::open_checked(&path, goal, tiles, how) {
            Ok(db) => Some(db),
            Err(e) => {
                self.note(&format!("{}: {e}; {then}", path.display()));
                None
            }
        }
    }

    /// Where the database of `tiles` for `goal` is kept in the database folder, if there
    /// is one: the zero-aware file where there is one, else the plain one.
    fn pdb_path(&self, goal: &Board, tiles: &[u8]) -> Option<PathBuf> {
        Some(cached_file(self.sources.pdb_dir.as_ref()?, goal, tiles))
    }

    /// The databases of partition `spec` for `goal`: each loaded, or built (and saved)
    /// within the time limit, every build counting against it.
    pub fn named_pdbs(
        &self,
        goal: &Board,
        spec: &str,
        limits: &Limits,
    ) -> Result<PdbHeuristic, SearchError> {
        // `auto` on 5x5 is the catalogue where it is cached (the strongest), else 6-6-6-6.
        if spec.trim() == "auto" && goal.size().cells() == 25 {
            if let Some(h) = self.cached_pdbs(goal, CATALOGUE_24) {
                return Ok(h);
            }
        }
        let parts = partitions(goal, spec).map_err(|e| bad("pdb", e))?;
        // Counted before anything is built: too many partitions are refused at once.
        check_partition_count(parts.len()).map_err(|e| bad("pdb", e))?;
        let (how, copy) = self.catalogue_load(goal, parts.len(), self.sources.load);
        let started = Instant::now();
        let sets = each_group_once(&parts, |tiles| {
            let limits = Limits {
                time_limit: limits
                    .time_limit
                    .map(|t| t.saturating_sub(started.elapsed())),
                ..limits.clone()
            };
            if let Some(db) = self.load_group(goal, tiles, (how, copy), "rebuilding it") {
                return Ok(db);
            }
            let secs = build_seconds(goal, tiles, self.sources.build_threads);
            if let Some(t) = limits.time_limit.filter(|t| secs > t.as_secs_f64()) {
                return Err(SearchError::BuildTooLong {
                    what: format!(
                        "the pattern database of tiles {tiles:?} for {}",
                        goal.size()
                    ),
                    seconds: secs,
                    left: t.as_secs_f64(),
                });
            }
            self.build_pdb(
                goal,
                tiles,
                &limits,
                self.sources.build_threads,
                false,
                false,
            )
        })?;
        let mut h = PdbHeuristic::catalogue(goal, sets).map_err(|e| bad("pdb", e))?;
        if copy {
            h.read_lookups_into_memory()
                .map_err(|e| bad("pdb", format!("cannot read the databases into memory: {e}")))?;
        }
        Ok(h)
    }

    /// A group's database loaded as [`catalogue_load`](Self::catalogue_load) says: where
    /// the ones looked up are copied later, the pages its checksum read are given back
    /// (the copy reads them again; the others are not read again).
    fn load_group(
        &self,
        goal: &Board,
        tiles: &[u8],
        (how, copy): (Load, bool),
        then: &str,
    ) -> Option<PatternDb> {
        let db = self.load_pdb(goal, tiles, how, then)?;
        if copy {
            db.drop_pages();
        }
        Some(db)
    }

    /// How the databases of a set of `partitions` partitions for `goal` are opened, and
    /// whether those the search looks up are then copied into memory: a catalogue whose
    /// databases would be read opens them mapped and copies only the ones it looks up
    /// (see [`PdbHeuristic::read_lookups_into_memory`]).
    fn catalogue_load(&self, goal: &Board, partitions: usize, how: Load) -> (Load, bool) {
        if partitions > 1 && how.reads(goal.size().cells()) {
            (Load::Map, true)
        } else {
            (how, false)
        }
    }

    /// The databases of `spec` for `goal` if every one is in the folder and sound;
    /// nothing is built.
    pub fn cached_pdbs(&self, goal: &Board, spec: &str) -> Option<PdbHeuristic> {
        self.cached_pdbs_as(goal, spec, self.sources.load, false)
    }

    /// [`cached_pdbs`](Self::cached_pdbs), the files brought in as `load` says; with
    /// `give_back`, the pages each file's checksum read are given back as it is opened
    /// (for the fast solver, which reads a few of them again).
    fn cached_pdbs_as(
        &self,
        goal: &Board,
        spec: &str,
        load: Load,
        give_back: bool,
    ) -> Option<PdbHeuristic> {
        self.sources.pdb_dir.as_ref()?;
        let parts = partitions(goal, spec).ok()?;
        let (how, copy) = self.catalogue_load(goal, parts.len(), load);
        // Every group's file opened once, on every core side by side (each open reads its
        // file through for the checksum: 0.5 s for the 7x7 set's 1.8 GB on one core here).
        let mut groups: Vec<&Vec<u8>> = parts.iter().flatten().collect();
        groups.sort();
        groups.dedup();
        // (A set with a file missing is no set: nothing is opened then.)
        let missing = |tiles: &Vec<u8>| {
            self.pdb_path(goal, tiles)
                .is_none_or(|p| std::fs::symlink_metadata(p).is_err())
        };
        if groups.iter().any(|t| missing(t)) {
            return None;
        }
        let opened: Vec<Mutex<Option<PatternDb>>> =
            groups.iter().map(|_| Mutex::new(None)).collect();
        crate::limits::for_each_index(groups.len(), 0, |i| {
            let db = self.load_group(goal, groups[i], (how, copy), "not used");
            if give_back {
                if let Some(db) = &db {
                    db.drop_pages();
                }
            }
            *lock(&opened[i]) = db;
        });
        let sets = each_group_once(&parts, |tiles| {
            let i = groups
                .iter()
                .position(|g| g.as_slice() == tiles)
                .ok_or(())?;
            lock(&opened[i]).clone().ok_or(())
        })
        .ok()?;
        let mut h = PdbHeuristic::catalogue(goal, sets).ok()?;
        if copy {
            if let Err(e) = h.read_lookups_into_memory() {
                self.note(&format!(
                    "cannot read the databases of {spec} into memory: {e}"
                ));
                return None;
            }
        }
        Some(h)
    }

    /// The databases `auto` uses for `goal`: preloaded, else a cached set (the strongest
    /// first), else the first set whose missing databases build within `budget` seconds
    /// and the memory limit (built and saved, with a note), else none.
    fn auto_pdbs(
        &self,
        goal: &Board,
        limits: &Limits,
        budget: f64,
        load: Load,
        give_back: bool,
    ) -> Result<Option<(String, PdbHeuristic)>, SearchError> {
        let size = goal.size();
        let candidates = preferred_sets(size);
        for spec in candidates {
            if let Some(h) = self.cached_pdbs_as(goal, spec, load, give_back) {
                return Ok(Some((spec.to_string(), h)));
            }
        }
        for spec in candidates {
            let Ok(parts) = partition(goal, spec) else {
                continue;
            };
            let secs: f64 = parts
                .iter()
                .map(|t| build_seconds(goal, t, self.sources.build_threads))
                .sum();
            let memory = parts
                .iter()
                .map(|t| build_memory(size, t.len()))
                .max()
                .unwrap_or(0);
            if secs <= budget && memory <= limits.max_memory {
                self.note(&format!(
                    "auto: building the {spec} pattern databases for {size} (about {:.0} s; \
                     larger sets are built only when named, e.g. npuzzle pdb build --size {size})",
                    secs.max(1.0)
                ));
                return self
                    .named_pdbs(goal, spec, limits)
                    .map(|h| Some((spec.to_string(), h)));
            }
        }
        Ok(None)
    }

    /// The databases the anytime solver ranks `board`'s last region by: those `given`
    /// with the request; else, on a 7x7 board with [`WHOLE_PDBS_FROM`] or more, the
    /// default 7x7 set if preloaded or cached (the whole board is then that region);
    /// else, if `board` is at least 6x6 and at most twice that (6x6 to 8x8, 12x6), the
    /// default 6x6 set for the usual goal if preloaded or cached (never built: `npuzzle
    /// pdb build --size 6x6` makes it; read from the folder only with
    /// [`REGION_PDBS_FROM`] or more); none otherwise. A set not in memory is used only if
    /// its files can be read within [`WARM_SHARE`] of the time (see `warm_pdbs`), and
    /// where the process gives one answer ([`Load::Once`]) it is mapped, not read into
    /// memory of its own: reading the 6x6 set onto huge pages took 0.16 to
    /// 0.86 s of a 1 s solve here (the kernel gathering free huge pages), mapping it 0.1 s,
    /// while its lookups mapped cost the beams a few per cent of their positions.
    fn region_pdbs(
        &self,
        board: &Board,
        limits: &Limits,
        given: &[Arc<PdbHeuristic>],
    ) -> Vec<Arc<PdbHeuristic>> {
        // (Sets given that fit neither the board nor its last region are left out by
        // the solver.)
        if !given.is_empty() {
            return given.to_vec();
        }
        // One deadline for reading whichever sets are tried (see `warm_pdbs`).
        let time = limits
            .time_limit
            .unwrap_or(Duration::from_secs_f64(search::ANYTIME_SECONDS));
        let deadline = Instant::now() + time.mul_f64(WARM_SHARE);
        for (goal, read) in anytime_sets(board.size(), limits.time_limit) {
            if self.pdbs_at_hand(&goal) || (read && self.warm_pdbs(&goal, deadline)) {
                let map = maps_instead(self.sources.load, goal.size().cells());
                if let Ok(Some((_, h))) = self.pdbs_looked_up(&goal, None, limits, 0.0, map) {
                    return vec![h];
                }
            }
        }
        vec![]
    }

    /// Whether auto's cached databases for `goal` can be read in good time: each file of
    /// the set is read through (into the system's page cache) by `deadline` ([`WARM_SHARE`]
    /// of the time limit, of [`search::ANYTIME_SECONDS`] without one, for all the sets a
    /// board tries), so that the open that follows is quick. On a cold, slow disk the
    /// set's first reads take longer than a short limit allows (1.8 GB took over a minute
    /// here): the board is then answered without them, with a note, and what was read
    /// stays cached for the next board. A file whose consistency was never checked (no
    /// stamp) is not read either: its check would take minutes. True when a file is
    /// missing (the open then finds no set, at once).
    fn warm_pdbs(&self, goal: &Board, deadline: Instant) -> bool {
        let Ok(parts) = partition(goal, "auto") else {
            return true;
        };
        let mut paths = Vec::new();
        for tiles in &parts {
            let Some(path) = self.pdb_path(goal, tiles) else {
                return true;
            };
            if !path.exists() {
                return true;
            }
            // A file npuzzle did not write or prove (no stamp names it: copied in, say)
            // is not used until `npuzzle pdb verify` proves it (minutes for the 7x7 set).
            if !crate::files::is_stamped(&path) {
                self.note(&format!(
                    "{}: not written by npuzzle here, or changed since, and not proven yet: \
                     this board goes without the {} pattern databases (npuzzle pdb verify \
                     proves them once, by rebuilding them)",
                    path.display(),
                    goal.size(),
                ));
                return false;
            }
            paths.push(path);
        }
        // Every file read through, on every core side by side (the 7x7 set's 1.8 GB from
        // the page cache: 0.3-0.7 s on one core here).
        let late = Mutex::new(None);
        crate::limits::for_each_index(paths.len(), 0, |i| {
            if let Ok(false) = crate::files::warm(&paths[i], deadline) {
                *lock(&late) = Some(i);
            }
        });
        if let Some(i) = late.into_inner().unwrap_or_else(|e| e.into_inner()) {
            let path = &paths[i];
            self.note(&format!(
                "the {} pattern databases in {} were not read within {:.0}% of the time \
                 limit (a cold disk?): this board goes without them; what was read stays \
                 cached for the next (npuzzle pdb verify reads them all)",
                goal.size(),
                path.parent().unwrap_or(path).display(),
                WARM_SHARE * 100.0,
            ));
            return false;
        }
        true
    }

    /// Whether auto's databases for `goal` are in memory: preloaded, or read for an earlier
    /// board.
    fn pdbs_at_hand(&self, goal: &Board) -> bool {
        self.sources.pdbs.iter().any(|(g, _, _)| g == goal)
            || lock(&self.pdbs).iter().any(|l| {
                l.goal == *goal
                    && l.spec.is_none()
                    && !l.may_build
                    && l.found
                        .try_lock()
                        .is_ok_and(|f| matches!(*f, Some(Some(_))))
            })
    }

    /// The databases for `goal` under `spec` (`None`: auto's choice: preloaded, cached, or
    /// a set that builds within `budget` seconds; a named set with no budget: only if all
    /// cached), looked for once per core (whichever thread asks first; the others wait and
    /// share).
    pub fn pdbs_for(
        &self,
        goal: &Board,
        spec: Option<&str>,
        limits: &Limits,
        budget: f64,
    ) -> Result<Option<Named>, SearchError> {
        self.pdbs_looked_up(goal, spec, limits, budget, false)
    }

    /// The databases the fast solver answers `goal`'s boards with: as
    /// [`pdbs_for`](Self::pdbs_for) without a budget (nothing is built), but where the
    /// process gives one answer ([`Load::Once`]) and no set is at hand yet, the files are
    /// mapped rather than read: the fast solver looks up a few thousand
    /// entries, and reading the 24-puzzle's catalogue (1.1 GB of it) first took 1-4.7 s
    /// here against 0.44 s mapped for the whole answer.
    pub fn pdbs_for_fast(
        &self,
        goal: &Board,
        spec: Option<&str>,
        limits: &Limits,
    ) -> Result<Option<Named>, SearchError> {
        let map = maps_instead(self.sources.load, goal.size().cells());
        self.pdbs_looked_up(goal, spec, limits, 0.0, map)
    }

    /// [`pdbs_for`](Self::pdbs_for), the files mapped if `map` (a set found either way
    /// will do then; one found mapped is not used otherwise).
    fn pdbs_looked_up(
        &self,
        goal: &Board,
        spec: Option<&str>,
        limits: &Limits,
        budget: f64,
        map: bool,
    ) -> Result<Option<Named>, SearchError> {
        if spec.is_none() {
            if let Some((_, name, h)) = self.sources.pdbs.iter().find(|(g, _, _)| g == goal) {
                return Ok(Some((name.clone(), h.clone())));
            }
        }
        let may_build = budget > 0.0;
        let slot = {
            let mut looks = lock(&self.pdbs);
            // Mapped for the fast solver, a set read before will do (it is in memory);
            // read, one mapped before will not.
            let usable = |l: &&Look| {
                l.goal == *goal
                    && l.spec.as_deref() == spec
                    && l.may_build == may_build
                    && (map || !l.map)
            };
            // A finished look (read sets first: where both are there, the faster lookups);
            // one under way is waited for below only if it is this very look.
            let mut done: Option<(bool, Option<Named>)> = None;
            for l in looks.iter().filter(usable) {
                if let Ok(f) = l.found.try_lock() {
                    if let Some(found) = f.as_ref() {
                        if done.as_ref().is_none_or(|(m, _)| *m && !l.map) {
                            done = Some((l.map, found.clone()));
                        }
                    }
                }
            }
            if let Some((_, found)) = done {
                return Ok(found);
            }
            let same = |l: &&Look| usable(l) && l.map == map;
            match looks.iter().find(same) {
                Some(l) => l.found.clone(),
                None => {
                    if looks.len() >= MAX_LOOKS {
                        // (A slot held elsewhere is a look under way or just read.)
                        if let Some(i) = looks.iter().position(|l| Arc::strong_count(&l.found) == 1)
                        {
                            looks.remove(i);
                        }
                    }
                    let found = Arc::new(Mutex::new(None));
                    looks.push(Look {
                        goal: goal.clone(),
                        spec: spec.map(str::to_string),
                        may_build,
                        map,
                        found: found.clone(),
                    });
                    found
                }
            }
        };
        // Another thread's look for the same key is waited for; any other goal's goes on.
        let mut slot = lock(&slot);
        if let Some(found) = slot.as_ref() {
            return Ok(found.clone());
        }
        let load = if map { Load::Map } else { self.sources.load };
        let found = match spec {
            // Without a budget nothing is built: the named set only if it is all cached
            // (a spec that names no set is an error all the same).
            Some(spec) if !may_build => {
                partitions(goal, spec).map_err(|e| bad("pdb", e))?;
                let found = self.cached_pdbs_as(goal, spec, load, map);
                if found.is_none() {
                    // (Once per run: what was found is kept, the lack too.)
                    let size = goal.size();
                    let lack = match &self.sources.pdb_dir {
                        Some(dir) => format!("are not all in {}", dir.display()),
                        None => "have no folder to be found in".to_string(),
                    };
                    self.note(&format!(
                        "the {spec} pattern databases for {size} {lack}, and nothing is built \
                         for this search: it goes without them (npuzzle pdb build --size \
                         {size} --pdb \"{spec}\" builds them)"
                    ));
                }
                found.map(|h| (spec.to_string(), h))
            }
            Some(spec) => Some((spec.to_string(), self.named_pdbs(goal, spec, limits)?)),
            None => self.auto_pdbs(goal, limits, budget, load, map)?,
        };
        let found = found.map(|(n, h)| (n, Arc::new(h)));
        *slot = Some(found.clone());
        Ok(found)
    }

    /// The distance table for `goal`: at hand, else from the table folder, else (with
    /// `build`) built and saved; `None` if there is none to be had.
    fn table_for(
        &self,
        goal: &Board,
        limits: &Limits,
        build: bool,
    ) -> Result<Option<Arc<DistanceTable>>, SearchError> {
        // Read-locked first: every board of a batch asks, and all but the first find it.
        match read(&self.tables).get(goal) {
            Some(Some(t)) => return Ok(Some(t.clone())),
            Some(None) if !build => return Ok(None),
            _ => {}
        }
        let mut tables = write(&self.tables);
        match tables.get(goal) {
            Some(Some(t)) => return Ok(Some(t.clone())),
            Some(None) if !build => return Ok(None),
            _ => {}
        }
        let mut found = self.load_table(goal);
        if found.is_none() && build {
            let t = self.build_table(goal, limits)?;
            self.save_table(&t);
            found = Some(t);
        }
        let found = found.map(Arc::new);
        tables.insert(goal.clone(), found.clone());
        Ok(found)
    }

    /// The file name of the table for `goal` in the table folder.
    pub fn table_file(goal: &Board) -> String {
        format!(
            "table-{}-{:016x}.npz",
            goal.size(),
            crate::files::checksum(goal.cells())
        )
    }

    fn load_table(&self, goal: &Board) -> Option<DistanceTable> {
        let path = self
            .sources
            .table_dir
            .as_ref()?
            .join(Core::table_file(goal));
        if std::fs::symlink_metadata(&path).is_err() {
            return None;
        }
        match DistanceTable::load(&path) {
            Ok(t) if t.goal() == goal => Some(t),
            Ok(t) => {
                self.note(&format!(
                    "{}: expected a table for goal {goal}, found one for {}; ignoring it",
                    path.display(),
                    t.goal()
                ));
                None
            }
            Err(e) => {
                self.note(&format!("{}: {e}; ignoring it", path.display()));
                None
            }
        }
    }

    /// Builds the table for `goal` (with progress and a note on large sizes).
    pub fn build_table(&self, goal: &Board, limits: &Limits) -> Result<DistanceTable, SearchError> {
        let size = goal.size();
        let states: f64 = (2..=size.cells()).map(|k| k as f64).product::<f64>() / 2.0;
        let large = states > 5e6;
        if large && crate::analysis::memory_needed(size) <= limits.max_memory {
            self.note(&format!(
                "searching all {states:.0} states of {size} to goal {goal} (about {} of memory)",
                crate::error::human_bytes(crate::analysis::memory_needed(size))
            ));
        }
        let result = self.building(&format!("analyzing {size}"), large, |progress| {
            crate::analysis::analyze(goal, limits, self.sources.build_threads, 0, progress)
        });
        Ok(result?.table)
    }

    /// Saves a table in the table folder, saying where (or why not).
    pub fn save_table(&self, table: &DistanceTable) {
        let Some(dir) = &self.sources.table_dir else {
            self.note("no cache folder: the table is not saved");
            return;
        };
        let path = dir.join(Core::table_file(table.goal()));
        match table.save(&path) {
            Ok(()) => self.note(&format!(
                "table saved to {} ({})",
                path.display(),
                crate::error::human_bytes(table.memory())
            )),
            Err(e) => self.note(&format!("cannot save the table to {}: {e}", path.display())),
        }
    }

    /// The multi-tile tables from the database folder, once (a note if missing or
    /// unsound).
    pub fn mtm_tables(&self) -> Option<Arc<MtmRows>> {
        self.mtm
            .get_or_init(|| {
                let t = match self.sources.pdb_dir.as_deref().map(load_mtm) {
                    Some(Ok(t)) => t,
                    Some(Err(e)) => {
                        self.note(&e);
                        None
                    }
                    None => None,
                };
                if t.is_none() {
                    self.note(
                        "no multi-tile tables cached: 4x4 boards are searched with the walking \
                         distance, which can take minutes; `npuzzle pdb build --size 4x4 \
                         --metric mtm` (about 2 minutes, 504 MB) makes them a second or less",
                    );
                }
                t.map(Arc::new)
            })
            .clone()
    }

    /// Answers `board` as `request` asks: the report every face prints, the moves, and
    /// the notes for the person asking.
    pub fn answer(&self, board: &Board, request: &Request) -> Result<Answer, SearchError> {
        request.check()?;
        let goal = request.goal_for(board)?;
        let started = Instant::now();
        let mut notes = Vec::new();
        let cells = board.size().cells();
        let h = request.heuristic.unwrap_or(HeuristicKind::LinearConflict);
        let report =
            |sol: &Solution, algo: Algorithm, name: Option<&str>, weight: Option<f64>| -> Report {
                Report::solved(
                    board,
                    &goal,
                    sol,
                    algo,
                    name,
                    request.metric,
                    weight,
                    request.notation,
                )
            };
        let done = |report: Report, sol: Solution, notes: Vec<String>| Answer {
            report,
            stats: sol.stats,
            moves: sol.moves,
            solutions: Vec::new(),
            notes,
        };
        // An unsolvable board is an answer, whatever was asked.
        // (The sizes match: goal_for checked them.)
        if !crate::parity::is_solvable(board, &goal).unwrap_or(false) {
            let report = Report::unsolvable(
                board,
                request.algorithm,
                None,
                request.metric,
                request.notation,
            );
            return Ok(Answer {
                report,
                moves: Vec::new(),
                stats: Default::default(),
                solutions: Vec::new(),
                notes,
            });
        }
        // Several solutions: IDA* over every path within the optimum.
        if let Some(max) = request.solutions {
            let (all, stats) = search::idastar_all(board, &goal, h, &request.limits, max)?;
            let first = Solution {
                moves: all.first().cloned().unwrap_or_default(),
                stats,
            };
            let mut r = report(&first, Algorithm::Idastar, Some(h.name()), None);
            r.solutions = Some(
                all.iter()
                    .map(|m| request.notation.format(board, m))
                    .collect(),
            );
            let mut a = done(r, first, notes);
            a.solutions = all;
            return Ok(a);
        }
        if request.beam_width.is_some() && cells < FAST_FROM {
            return Err(bad(
                "beam_width",
                format!(
                    "expected a board of {FAST_FROM} cells or more (where auto answers by \
                     beams), found {} ({cells} cells)",
                    board.size()
                ),
            ));
        }
        // Databases given for the usual 6x6 goal on a bigger board (or another goal), or
        // for the usual goal of a board of this size that the anytime solver ranks whole
        // (7x7) on a board of another goal, are the anytime solver's; others are this
        // board's.
        let anytimes = |h: &PdbHeuristic| {
            *h.goal() == region_goal()
                || (whole_pdbs(board.size()) && *h.goal() == Board::solved(board.size()))
        };
        let (given, region_given) = match request.pdbs.clone() {
            Some((_, h)) if *h.goal() != goal && anytimes(&h) => (None, vec![h]),
            g => (g, Vec::new()),
        };
        let wants_pdb = request.pdb.is_some() || given.is_some();
        let auto_pdb_size = (16..FAST_FROM).contains(&cells);
        // Weighted A*, and weighted IDA* without databases (with them: below).
        if let Some(w) = request.weight {
            let auto_pdb = request.algorithm == Algorithm::Auto
                && request.heuristic.is_none()
                && auto_pdb_size;
            if request.algorithm == Algorithm::Astar || !(wants_pdb || auto_pdb) {
                let (sol, algo) = if request.algorithm == Algorithm::Astar {
                    let s = search::astar_weighted(board, &goal, h, w, &request.limits)?;
                    (s, Algorithm::Astar)
                } else {
                    let s = search::idastar_weighted(board, &goal, h, w, &request.limits)?;
                    (s, Algorithm::Idastar)
                };
                return Ok(done(
                    report(&sol, algo, Some(h.name()), Some(w)),
                    sol,
                    notes,
                ));
            }
        }
        if request.metric == Metric::Mtm {
            let tables = MtmRows::serves(&goal).then(|| self.mtm_tables()).flatten();
            let name = match tables {
                Some(_) => "multi-tile tables (goal rows, columns, blocks)",
                None => "multi-tile walking distance",
            };
            let sol = search::idastar_mtm_pdb(board, &goal, tables.as_deref(), &request.limits)?;
            return Ok(done(
                report(&sol, Algorithm::Idastar, Some(name), None),
                sol,
                notes,
            ));
        }
        // Pattern databases: given, named, or auto's on 16 to 25 cells unless a heuristic
        // was named (a cached set, or one that builds within a minute and the time left).
        let auto_pdbs =
            request.algorithm == Algorithm::Auto && request.heuristic.is_none() && auto_pdb_size;
        let db_search = matches!(request.algorithm, Algorithm::Auto | Algorithm::Idastar);
        let pdb =
            if let Some(g) = given.filter(|_| db_search || request.algorithm == Algorithm::Fast) {
                Some(g)
            } else if request.pdb.is_some() && db_search {
                self.pdbs_for(
                    &goal,
                    request.pdb.as_deref(),
                    &request.limits,
                    AUTO_BUILD_SECONDS,
                )?
            } else if auto_pdbs {
                let budget = request.limits.time_limit.map_or(AUTO_BUILD_SECONDS, |t| {
                    t.as_secs_f64().min(AUTO_BUILD_SECONDS)
                });
                let found = self.pdbs_for(&goal, None, &request.limits, budget);
                let cancelled = request
                    .limits
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed));
                match auto_build_stopped(found, cancelled)? {
                    Ok(found) => found,
                    Err(note) => {
                        notes.push(format!("{board}: {note}"));
                        None
                    }
                }
            } else {
                None
            };
        let limits = self.exact_limits(request, cells, started);
        let no_pdb = pdb.is_none();
        if let Some((spec, h)) = pdb
            .as_ref()
            .filter(|_| request.algorithm != Algorithm::Fast)
        {
            let name = h.label(spec);
            let threads = resolve_threads(request.threads);
            let result = match request.weight {
                Some(w) => search::idastar_pdb_weighted(board, &goal, h, w, &limits, threads),
                None => search::idastar_pdb_parallel(board, &goal, h, &limits, threads),
            };
            return self.anytime(
                request,
                board,
                &goal,
                result,
                Some(h),
                &limits,
                notes,
                |sol| report(sol, Algorithm::Idastar, Some(&name), request.weight),
            );
        }
        // The fast solver on 16 to 25 cells: the weighted database search when a set
        // for the goal is at hand (the one named, else auto's; nothing is built for it),
        // else the reduction solver.
        // Where the fast solver uses none, a set named is checked all the same (as for
        // the other searches, and as on 16 to 25 cells below), and said to go unused.
        if request.algorithm == Algorithm::Fast && !auto_pdb_size && request.pdbs.is_none() {
            if let Some(spec) = &request.pdb {
                partitions(&goal, spec).map_err(|e| bad("pdb", e))?;
                notes.push(format!(
                    "{board}: the fast solver uses pattern databases on 16 to 25 cells \
                     only; this {} board is answered without the {spec} set",
                    goal.size()
                ));
            }
        }
        if request.algorithm == Algorithm::Fast && auto_pdb_size {
            let at_hand = match pdb {
                Some(p) => Some(p),
                None => self.pdbs_for_fast(&goal, request.pdb.as_deref(), &request.limits)?,
            };
            if let Some((spec, h)) = at_hand {
                let ans = search::fast_pdb(board, &goal, &h, &limits)?;
                let name = format!("weighted {}", h.label(&spec));
                let name = ans.weight.is_some().then_some(name.as_str());
                let r = report(&ans.solution, Algorithm::Fast, name, ans.weight)
                    .with_lower_bound(ans.lower_bound);
                return Ok(done(r, ans.solution, notes));
            }
        }
        // An anytime answer's report: the beams' (`anytime`, not proven), or IDA*'s when
        // the answer met its bound.
        let beam_report = |a: &search::AnytimeAnswer| {
            let (algo, name) = if a.proven {
                (Algorithm::Idastar, HeuristicKind::LinearConflict.name())
            } else {
                let name = if a.databases {
                    "pattern-database beam"
                } else {
                    "linear-conflict beam"
                };
                (Algorithm::Fast, name)
            };
            let mut r = report(&a.solution, algo, Some(name), None).with_lower_bound(a.lower_bound);
            if !a.proven {
                r.algorithm = "anytime";
            }
            r
        };
        // Auto past 25 cells: the anytime solver, within the time limit (a second
        // without one).
        if request.algorithm == Algorithm::Auto && cells >= FAST_FROM && !request.exact {
            // Reading the databases (the first board that needs them: 0.2-0.4 s here
            // from the page cache, seconds from disk) counts against the time, a second
            // when none is given; with less than REGION_PDBS_FROM they are used only if
            // already in memory.
            // At a fixed beam width, the sets are chosen as for ample time (see
            // `sets_limit`) and, without a limit, nothing ends the run but its beams.
            let total = search::anytime_time(request.limits.time_limit, request.beam_width);
            let choose = Limits {
                time_limit: sets_limit(request.limits.time_limit, request.beam_width),
                ..request.limits.clone()
            };
            let dbs = self.region_pdbs(board, &choose, &region_given);
            let dbs: Vec<&PdbHeuristic> = dbs.iter().map(|h| &**h).collect();
            let left = Limits {
                time_limit: total.map(|t| t.saturating_sub(started.elapsed())),
                ..request.limits.clone()
            };
            let a = match request.beam_width {
                Some(w) => search::beams_at_width(board, &goal, &dbs, w, request.threads, &left)?,
                None => search::anytime_with_databases(board, &goal, &dbs, request.threads, &left)?,
            };
            return Ok(done(beam_report(&a), a.solution, notes));
        }
        // Auto on 16 to 25 cells with no databases at hand (none cached, none built in the
        // time): the exact search gets half the time, and if it runs out, beams answer in
        // the other half (far shorter than the fast solver's answer), with the bound the
        // exact search proved.
        let beams_after = auto_pdbs && no_pdb && !request.exact && request.metric == Metric::Stm;
        let total = limits.time_limit;
        let limits = if beams_after {
            std::borrow::Cow::Owned(Limits {
                time_limit: total.map(|t| t / 2),
                ..limits.into_owned()
            })
        } else {
            limits
        };
        // Distance tables, IDA*, the fast solver on big boards: per size.
        let (result, algo) = self.search(board, &goal, request, h, &limits, &mut notes);
        let cancelled = request
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
        if let (
            true,
            false,
            Err(SearchError::TimeLimit {
                lower_bound,
                elapsed,
                expanded,
                ..
            }),
        ) = (beams_after, cancelled, &result)
        {
            let left = Limits {
                time_limit: total.map(|t| t.saturating_sub(started.elapsed())),
                ..request.limits.clone()
            };
            let dbs = self.region_pdbs(board, &left, &region_given);
            let dbs: Vec<&PdbHeuristic> = dbs.iter().map(|h| &**h).collect();
            let mut a = search::anytime_above(
                board,
                &goal,
                request.threads,
                &left,
                *lower_bound,
                &dbs,
                None,
            )?;
            a.solution.stats.expanded += expanded;
            a.solution.stats.elapsed = started.elapsed();
            notes.push(format!(
                "{board}: the exact search stopped after {:.1} s having proven {lower_bound}; \
                 answered by beams (ask for exact answers to wait for a proven one)",
                elapsed.as_secs_f64()
            ));
            return Ok(done(beam_report(&a), a.solution, notes));
        }
        let name = algo.uses_heuristic().then_some(h.name());
        let weight = request.weight;
        self.anytime(request, board, &goal, result, None, &limits, notes, |sol| {
            report(sol, algo, name, weight.filter(|_| algo != Algorithm::Fast))
        })
    }

    /// A board's limits: what is left of its time limit after building databases; with
    /// auto on more than 16 cells and no limit given (and exact answers not required),
    /// [`AUTO_EXACT_SECONDS`].
    /// (Borrowed when nothing changes: a batch's boards then share the limits without
    /// touching the reference count of their cancel flag, which two threads contended.)
    fn exact_limits<'r>(
        &self,
        request: &'r Request,
        cells: usize,
        started: Instant,
    ) -> std::borrow::Cow<'r, Limits> {
        let time = match request.limits.time_limit {
            Some(t) => Some(t.saturating_sub(started.elapsed())),
            None if request.algorithm == Algorithm::Auto && !request.exact && cells > 16 => {
                Some(Duration::from_secs(AUTO_EXACT_SECONDS))
            }
            None => return std::borrow::Cow::Borrowed(&request.limits),
        };
        std::borrow::Cow::Owned(Limits {
            time_limit: time,
            ..request.limits.clone()
        })
    }

    /// The search without databases: `auto` resolved per size (a table, IDA*, or the
    /// quick exact search and the fast solver past 25 cells), or the named one.
    fn search(
        &self,
        board: &Board,
        goal: &Board,
        request: &Request,
        h: HeuristicKind,
        limits: &Limits,
        notes: &mut Vec<String>,
    ) -> (Result<Solution, SearchError>, Algorithm) {
        let cells = board.size().cells();
        let algo = request.algorithm;
        // The table this thread used last, when it is for the same question: a batch's
        // boards then touch no lock (two threads locking per board cost 5-10% of a
        // million 3x3 boards).
        let key = (self.id, self.epoch.load(Ordering::Relaxed), algo);
        let remembered = LAST_TABLE.with(|last| {
            last.borrow()
                .as_ref()
                .filter(|(k, g, _)| *k == key && g == goal)
                .map(|(_, _, t)| t.clone())
        });
        let table = match algo {
            _ if remembered.is_some() => remembered,
            // A kept table, else (past 9 cells, where told to) one built and saved, else
            // one built in memory for the goal.
            Algorithm::Table => {
                let kept = self.table_for(goal, limits, self.sources.build_tables && cells > 9);
                match kept {
                    Ok(Some(t)) => Some(t),
                    Ok(None) => match self.memory_table(goal, limits) {
                        Ok(t) => Some(t),
                        Err(e) => return (Err(e), algo),
                    },
                    Err(e) => return (Err(e), algo),
                }
            }
            Algorithm::Auto => {
                // A cached table answers any board of its goal; on 9 cells or fewer one
                // is built in memory (12 ms for 3x3, then microseconds a board), so a
                // board's answer never depends on the boards before it.
                let build = cells <= 9;
                match self.table_for(goal, limits, false) {
                    Ok(Some(t)) => Some(t),
                    _ if build => match self.memory_table(goal, limits) {
                        Ok(t) => Some(t),
                        // A table is only a way to go faster: one that does not fit is
                        // left out, and the board is searched.
                        Err(e) => {
                            notes.push(format!(
                                "no distance table for goal {goal} ({e}); solving by idastar"
                            ));
                            None
                        }
                    },
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(t) = table {
            LAST_TABLE.with(|last| *last.borrow_mut() = Some((key, goal.clone(), t.clone())));
            match t.solve(board) {
                Ok(sol) => return (Ok(sol), Algorithm::Table),
                Err(e @ SearchError::Inconsistent { .. }) => {
                    // A table that contradicts itself is dropped; the board is searched.
                    write(&self.tables).insert(goal.clone(), None);
                    write(&self.memory).remove(goal);
                    self.epoch.fetch_add(1, Ordering::Relaxed);
                    notes.push(format!(
                        "the distance table for goal {goal} is unusable ({e}); solving by \
                         idastar instead"
                    ));
                    return (
                        search::solve(board, goal, Algorithm::Idastar, h, limits),
                        Algorithm::Idastar,
                    );
                }
                Err(e) => return (Err(e), Algorithm::Table),
            }
        }
        match algo {
            Algorithm::Auto if cells >= FAST_FROM && !request.exact => {
                match search::quick_or_fast(board, goal, h, limits) {
                    Ok((sol, ran)) => (Ok(sol), ran),
                    Err(e) => (Err(e), Algorithm::Fast),
                }
            }
            Algorithm::Auto => (
                search::solve(board, goal, Algorithm::Idastar, h, limits),
                Algorithm::Idastar,
            ),
            a => (search::solve(board, goal, a, h, limits), a),
        }
    }

    /// The table for `goal` built in memory (not saved) and kept for the core's later
    /// boards of that goal (at most [`MEMORY_TABLES`] goals and [`MEMORY_TABLE_BYTES`]: past
    /// that, those kept go).
    fn memory_table(
        &self,
        goal: &Board,
        limits: &Limits,
    ) -> Result<Arc<DistanceTable>, SearchError> {
        if let Some(t) = read(&self.memory).get(goal) {
            return Ok(t.clone());
        }
        let mut memory = write(&self.memory);
        if let Some(t) = memory.get(goal) {
            return Ok(t.clone());
        }
        let t = Arc::new(DistanceTable::build(goal, limits)?);
        // Kept within a count and a size: a client asking for endless goals (or for the
        // 30 MB tables of 12-cell boards) must not grow the core without end.
        let held: u64 = memory.values().map(|t| t.memory()).sum();
        if memory.len() >= MEMORY_TABLES || held + t.memory() > MEMORY_TABLE_BYTES {
            memory.clear();
        }
        memory.insert(goal.clone(), t.clone());
        Ok(t)
    }

    /// With `auto` (and exact answers not required), an exact search that ran out of
    /// time or nodes is answered by the fast solver (with databases, the weighted
    /// database search) with the bound it proved, and a note saying so.
    #[allow(clippy::too_many_arguments)]
    fn anytime(
        &self,
        request: &Request,
        board: &Board,
        goal: &Board,
        result: Result<Solution, SearchError>,
        pdb: Option<&PdbHeuristic>,
        limits: &Limits,
        mut notes: Vec<String>,
        report: impl Fn(&Solution) -> Report,
    ) -> Result<Answer, SearchError> {
        let finish = |r: Report, sol: Solution, notes: Vec<String>| Answer {
            report: r,
            stats: sol.stats,
            moves: sol.moves,
            solutions: Vec::new(),
            notes,
        };
        if request.algorithm != Algorithm::Auto || request.exact {
            let sol = result?;
            return Ok(finish(report(&sol), sol, notes));
        }
        let stopped = match &result {
            Err(SearchError::TimeLimit { elapsed, .. }) => Some(*elapsed),
            _ => None,
        };
        match search::or_fast(board, goal, result, pdb, limits)? {
            (ans, Some(bound)) => {
                notes.push(format!(
                    "{board}: the exact search stopped after {:.1} s having proven {bound}; \
                     answered by the fast solver (ask for exact answers to wait for a proven one)",
                    stopped.map_or(0.0, |d| d.as_secs_f64())
                ));
                let r = Report::solved(
                    board,
                    goal,
                    &ans.solution,
                    Algorithm::Fast,
                    None,
                    request.metric,
                    ans.weight,
                    request.notation,
                )
                .with_lower_bound(bound.max(ans.lower_bound));
                Ok(finish(r, ans.solution, notes))
            }
            (ans, None) => Ok(finish(report(&ans.solution), ans.solution, notes)),
        }
    }
}

/// The shortest time limit for which the anytime solver's last-region databases are read
/// from the database folder (the first board that needs them); sets already in memory
/// (preloaded, given, or read for an earlier board) are used at any limit. Measured on ten
/// 7x7 boards, one process each: 4,236 moves with them against 3,582 without at 0.5 s (the
/// read left little time), 3,524 against 3,546 at 0.75 s, 3,448 against 3,496 at 1 s.
pub const REGION_PDBS_FROM: Duration = Duration::from_millis(750);

/// The shortest time limit for which the anytime solver ranks a board of a size
/// [`whole_pdbs`] names by databases of the whole board, if cached (never built here:
/// `npuzzle pdb build --size 7x7` makes them), instead of its last 6x6 region by 6x6 ones.
pub const WHOLE_PDBS_FROM: Duration = Duration::from_secs(5);

/// Whether the anytime solver ranks boards of `size` whole by databases of that size,
/// given time ([`WHOLE_PDBS_FROM`]): 7x7 (the default 7x7 partition, five tiles a group).
pub fn whole_pdbs(size: Size) -> bool {
    (size.width(), size.height()) == (7, 7)
}

/// The database sets the anytime solver may rank a board of `size` by within
/// `time_limit` (none: [`search::ANYTIME_SECONDS`]), best first, each with whether it may
/// be read from the folder (else it is used only if already in memory): on 7x7 with
/// [`WHOLE_PDBS_FROM`] or more the 7x7 set's goal (the whole board), then, where the last
/// region is 6x6 and at least half the board (6x6 to 8x8, 12x6), the 6x6 set's
/// ([`region_goal`]), read only with [`REGION_PDBS_FROM`] or more. `bench` and `serve`
/// load what this names ahead.
///
/// ```
/// use npuzzle::request::anytime_sets;
/// use std::time::Duration;
/// let seven = "7x7".parse().unwrap();
/// let sets = anytime_sets(seven, Some(Duration::from_secs(10)));
/// assert_eq!(sets.len(), 2);
/// assert_eq!(sets[0].0.size(), seven);
/// // At half a second only the 6x6 set, and only if already in memory.
/// let sets = anytime_sets(seven, Some(Duration::from_millis(500)));
/// assert_eq!(sets.len(), 1);
/// assert!(!sets[0].1);
/// assert!(anytime_sets("10x10".parse().unwrap(), None).is_empty());
/// ```
pub fn anytime_sets(size: Size, time_limit: Option<Duration>) -> Vec<(Board, bool)> {
    let mut sets = Vec::new();
    if whole_pdbs(size) && time_limit.is_some_and(|t| t >= WHOLE_PDBS_FROM) {
        sets.push((Board::solved(size), true));
    }
    let region = region_goal();
    if search::region_for(size) == Some(region.size()) {
        // (Without a limit the anytime solver takes a second: time enough to read them.)
        let read = time_limit.is_none_or(|t| t >= REGION_PDBS_FROM);
        sets.push((region, read));
    }
    sets
}

/// The time limit by which the anytime solver's databases are chosen ([`anytime_sets`])
/// for a request's `time_limit` and `beam_width`: the limit itself, but at a fixed beam
/// width (whose answer the databases change, not the time) the sets of ample time, an
/// hour, whatever the limit.
///
/// ```
/// use npuzzle::request::{anytime_sets, sets_limit};
/// use std::time::Duration;
/// let seven = "7x7".parse().unwrap();
/// let second = Some(Duration::from_secs(1));
/// assert_eq!(sets_limit(second, None), second);
/// assert_eq!(anytime_sets(seven, sets_limit(second, Some(4096))).len(), 2);
/// ```
pub fn sets_limit(time_limit: Option<Duration>, beam_width: Option<usize>) -> Option<Duration> {
    match beam_width {
        Some(_) => Some(Duration::from_secs(3600)),
        None => time_limit,
    }
}

/// The share of a board's time limit the anytime solver's databases may take to be read
/// from the folder (see `Core::region_pdbs`); past it the board goes without them.
pub const WARM_SHARE: f64 = 0.25;

/// The goal of the anytime solver's last-region databases: the usual 6x6 one.
pub fn region_goal() -> Board {
    let side = crate::search::STAGED_LAST_SIDE;
    Board::solved(Size::new(side, side).expect("a small square"))
}

/// Goals whose tables a core keeps in memory at most (a 3x3 table is 22 KiB; a client
/// asking for endless goals must not grow it without end).
pub const MEMORY_TABLES: usize = 64;

/// Bytes of tables a core keeps in memory at most (eight 12-cell tables).
pub const MEMORY_TABLE_BYTES: u64 = 256 << 20;

/// One search of a comparison: what ran and what it gave.
#[derive(Debug, Clone)]
pub struct Run {
    /// The search.
    pub algorithm: Algorithm,
    /// Its estimate (`pdb 7-8 + reflection` for databases), if it takes one.
    pub heuristic: Option<String>,
    /// Its solution, or why none (a search left out says why in an `Unsupported`).
    pub result: Result<Solution, SearchError>,
    /// Whether its solution is proven shortest (the fast and weighted runs are not).
    pub exact: bool,
}

/// Every search of a comparison on one board.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Whether the board can reach the goal (no search runs when it cannot).
    pub solvable: bool,
    /// The runs in the order of [`search::compared`], then IDA* with the databases at
    /// hand for the goal, if any; a cancelled comparison ends early.
    pub runs: Vec<Run>,
    /// The optimal length, if a search finished.
    pub length: Option<usize>,
    /// A search whose length differs from the others' (a bug to report), if any.
    pub disagree: Option<Algorithm>,
}

impl Core {
    /// Runs every search of [`search::compared`] on `board` towards `goal` within
    /// `limits` each (and IDA* with the databases preloaded or cached for the goal, none
    /// built), telling `each` of every run as it ends: the comparison `npuzzle compare`
    /// prints and the page shows.
    ///
    /// ```
    /// use npuzzle::request::{Core, Sources};
    /// use npuzzle::{Board, Limits};
    /// let board: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
    /// let goal = Board::solved(board.size());
    /// let c = Core::new(Sources::default()).compare(&board, &goal, &Limits::default(), &mut |_| {});
    /// assert_eq!(c.length, Some(14));
    /// assert!(c.disagree.is_none() && c.runs.iter().all(|r| r.result.is_ok()));
    /// ```
    pub fn compare(
        &self,
        board: &Board,
        goal: &Board,
        limits: &Limits,
        each: &mut dyn FnMut(&Run),
    ) -> Comparison {
        let solvable = crate::parity::is_solvable(board, goal).unwrap_or(false);
        let mut c = Comparison {
            solvable,
            runs: Vec::new(),
            length: None,
            disagree: None,
        };
        if !solvable {
            return c;
        }
        let cancelled = || {
            limits
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        };
        let pdbs = if (16..FAST_FROM).contains(&board.size().cells()) {
            self.pdbs_for(goal, None, limits, 0.0).ok().flatten()
        } else {
            None
        };
        let mut searches: Vec<(Algorithm, Option<HeuristicKind>, Option<Named>)> =
            search::compared()
                .into_iter()
                .map(|(a, h)| (a, h, None))
                .collect();
        if let Some(p) = pdbs {
            searches.push((Algorithm::Idastar, None, Some(p)));
        }
        // Past 25 cells no exact search but IDA* (with linear conflict, within the limit)
        // can finish on any but a nearly solved board: the others are left out, saying
        // why, and what can answer is compared instead (the fast solver, weighted IDA*).
        let big = board.size().cells() >= FAST_FROM;
        let mut answer_anyway = Vec::new();
        if big {
            answer_anyway.push((Algorithm::Fast, None));
            answer_anyway.push((Algorithm::Idastar, Some(3.0)));
        }
        for (algorithm, h, pdb) in searches {
            if cancelled() {
                break;
            }
            if big && !(algorithm == Algorithm::Idastar && h == Some(HeuristicKind::LinearConflict))
            {
                let run = Run {
                    algorithm,
                    heuristic: h.map(|h| h.name().to_string()),
                    result: Err(SearchError::Unsupported {
                        algorithm: algorithm.name(),
                        reason: format!(
                            "left out: on {} cells only IDA* with linear conflict is tried \
                             (no other exact search finishes on a random board), with the fast \
                             solver and weighted IDA* beside it",
                            board.size().cells()
                        ),
                    }),
                    exact: true,
                };
                each(&run);
                c.runs.push(run);
                continue;
            }
            let (result, heuristic) = match &pdb {
                Some((spec, p)) => (
                    search::idastar_pdb_parallel(board, goal, p, limits, 1),
                    Some(p.label(spec)),
                ),
                None => (
                    search::solve(
                        board,
                        goal,
                        algorithm,
                        h.unwrap_or(HeuristicKind::Manhattan),
                        limits,
                    ),
                    h.map(|h| h.name().to_string()),
                ),
            };
            if let Ok(s) = &result {
                match c.length {
                    None => c.length = Some(s.len()),
                    Some(l) if l != s.len() => c.disagree = Some(algorithm),
                    _ => {}
                }
            }
            let run = Run {
                algorithm,
                heuristic,
                result,
                exact: true,
            };
            each(&run);
            c.runs.push(run);
        }
        for (algorithm, weight) in answer_anyway {
            if cancelled() {
                break;
            }
            let h = HeuristicKind::LinearConflict;
            let (result, heuristic) = match weight {
                Some(w) => (
                    search::idastar_weighted(board, goal, h, w, limits),
                    Some(format!("{} x {w}", h.name())),
                ),
                None => (search::solve(board, goal, algorithm, h, limits), None),
            };
            let run = Run {
                algorithm,
                heuristic,
                result,
                exact: false,
            };
            each(&run);
            c.runs.push(run);
        }
        c
    }
}

/// The file of the multi-tile tables (`pdb build --metric mtm`) in the database folder.
pub const MTM_FILE: &str = "mtm-4x4-rows-blocks.npz";

/// The multi-tile tables in the database folder `dir`: `None` if there are none, an error
/// naming the file if they are there but unsound (or not a regular file).
pub fn load_mtm(dir: &std::path::Path) -> Result<Option<MtmRows>, String> {
    let path = dir.join(MTM_FILE);
    match crate::files::read_regular(&path) {
        Ok(bytes) => MtmRows::from_bytes(bytes).map(Some).map_err(|e| {
            format!(
                "{}: {e}; not used (rebuild: npuzzle pdb build --size 4x4 --metric mtm --force)",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}; not used", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build the clock stopped leaves auto without databases, with a note; a cancelled
    /// one or another error stays an error, and a finished one is passed on.
    #[test]
    fn looks_for_databases_are_kept_bounded_and_never_wait_on_another_goal() {
        use crate::scramble::{uniform, Rng};
        let core = Core::new(Sources::default());
        let size = Size::square(3).unwrap();
        let spec = "1,2,3,4/5,6,7,8";
        let mut rng = Rng::new(5);
        let goals: Vec<Board> = (0..MAX_LOOKS + 8)
            .map(|_| uniform(&Board::solved(size), &mut rng))
            .collect();
        for g in &goals {
            let found = core
                .pdbs_looked_up(g, Some(spec), &Limits::default(), 60.0, false)
                .unwrap();
            assert!(found.is_some());
            assert!(lock(&core.pdbs).len() <= MAX_LOOKS);
        }
        // A look under way (its slot held here, as a build holds it) holds up no other
        // goal's look.
        let busy = lock(&core.pdbs)[0].found.clone();
        let held = lock(&busy);
        let other = goals[0].clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|s| {
            s.spawn(|| {
                let r = core.pdbs_looked_up(&other, Some(spec), &Limits::default(), 60.0, false);
                tx.send(r.map(|f| f.is_some())).unwrap();
            });
            let got = rx.recv_timeout(Duration::from_secs(120));
            drop(held);
            assert!(matches!(got, Ok(Ok(true))), "{got:?}");
        });
    }

    #[test]
    fn an_auto_build_out_of_time_is_answered_without_databases() {
        let stopped = |algorithm| SearchError::TimeLimit {
            algorithm,
            elapsed: Duration::from_millis(5400),
            lower_bound: 24,
            expanded: 5_764_638,
        };
        let note = auto_build_stopped::<u8>(Err(stopped("pdb build")), false)
            .unwrap()
            .unwrap_err();
        assert!(
            note.contains("within the time limit (5.4 s spent"),
            "{note}"
        );
        assert!(matches!(
            auto_build_stopped::<u8>(Err(stopped("pdb build")), true),
            Err(SearchError::TimeLimit { .. })
        ));
        assert!(matches!(
            auto_build_stopped::<u8>(Err(stopped("idastar")), false),
            Err(SearchError::TimeLimit { .. })
        ));
        assert_eq!(
            auto_build_stopped(Ok(Some(7u8)), false).unwrap(),
            Ok(Some(7))
        );
        assert_eq!(auto_build_stopped::<u8>(Ok(None), true).unwrap(), Ok(None));
        // The set's first databases built, the next no longer fits the time left.
        let too_long = || SearchError::BuildTooLong {
            what: "the pattern database of tiles [7, 8, 9] for 3x6".into(),
            seconds: 5.0,
            left: 4.7,
        };
        let note = auto_build_stopped::<u8>(Err(too_long()), false)
            .unwrap()
            .unwrap_err();
        assert!(note.contains("4.7 s were left"), "{note}");
        assert!(auto_build_stopped::<u8>(Err(too_long()), true).is_err());
    }

    /// Sets read on demand by the anytime solver (or the fast solver) are mapped where
    /// the library would otherwise read them (the 6x6 set, 36 cells; 5x5's, 25): reading
    /// them onto huge pages took most of a 1 s solve here. Sets the sources say how to
    /// load are loaded so, and sets the library maps anyway (7x7's) stay mapped.
    #[test]
    fn sets_read_on_demand_are_mapped_where_the_library_chooses() {
        assert!(maps_instead(Load::Once, 36));
        assert!(maps_instead(Load::Once, 25));
        assert!(!maps_instead(Load::Once, 49), "mapped by Once itself");
        assert!(!Load::Once.reads(49));
        assert!(!maps_instead(Load::Once, 16), "mapped by Once itself");
        assert!(!maps_instead(Load::Read, 36), "the sources said read");
        assert!(!maps_instead(Load::Map, 36), "the sources said map");
        // The exact searches of 17 to 25 cells still read their sets (pdbs_for).
        assert!(Load::Once.reads(25));
        // Servers, batches and libraries (Auto) never map a file on their own.
        for cells in [4, 9, 16, 25, 36, 49, 256] {
            assert!(
                Load::Auto.reads(cells) && !maps_instead(Load::Auto, cells),
                "{cells}"
            );
        }
    }
}
