//! Where databases and tables come from: the user's folders (the same for every face), how
//! files are loaded, what is preloaded, and the listener told of notes and builds.

use std::path::PathBuf;
use std::sync::Arc;

use crate::board::{Board, Size};
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::pdb::{Load, CATALOGUE_24};
use crate::layered::Progress;

/// Something the core tells the person asking (a database being built or refused, a table
/// left out), said once where it happens: what happened in words no face's commands are
/// in, and what the person can do about it, if anything, which each face words its own
/// way (the command line as a command).
///
/// ```
/// use npuzzle::request::{Note, Remedy};
/// let note = Note::new("no multi-tile tables").with(Remedy::BuildMtm { replace: false });
/// assert_eq!(
///     note.to_string(),
///     "no multi-tile tables (remedy: build the 4x4 multi-tile tables once, ahead: about 2 minutes, 504 MB)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Note {
    /// What happened.
    pub text: String,
    /// What would help, if anything.
    pub remedy: Option<Remedy>,
}

impl Note {
    /// A note that says `text`, with no remedy.
    pub fn new(text: impl Into<String>) -> Note {
        Note {
            text: text.into(),
            remedy: None,
        }
    }

    /// The note with `remedy`.
    pub fn with(mut self, remedy: Remedy) -> Note {
        self.remedy = Some(remedy);
        self
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.remedy {
            Some(r) => write!(f, "{} (remedy: {r})", self.text),
            None => f.write_str(&self.text),
        }
    }
}

/// What the person can do about a [`Note`]. Each face words it: the command line as the
/// command that does it, the rest as [`Display`](std::fmt::Display) says.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Remedy {
    /// Build pattern databases for `size` once, ahead, into the database folder: the set
    /// named, or `size`'s default set (`None`); later searches find them there.
    BuildPdbs {
        /// The board size.
        size: Size,
        /// The set's name (`7-8`, `6-6-6-6x4`), or `None` for the size's default.
        set: Option<String>,
    },
    /// Prove the database folder's files by rebuilding each and comparing (a file proven
    /// is stamped and used from then on).
    ProvePdbs,
    /// Build the 4x4 multi-tile tables once, ahead, into the database folder (`replace`:
    /// over an unsound file there).
    BuildMtm {
        /// Whether a file there is replaced.
        replace: bool,
    },
}

impl std::fmt::Display for Remedy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Remedy::BuildPdbs { size, set: None } => {
                write!(f, "build the {size} pattern databases once, ahead")
            }
            Remedy::BuildPdbs {
                size,
                set: Some(set),
            } => write!(
                f,
                "build the {set} pattern databases for {size} once, ahead"
            ),
            Remedy::ProvePdbs => f.write_str("prove the database folder's files once"),
            Remedy::BuildMtm { replace } => write!(
                f,
                "{} the 4x4 multi-tile tables once, ahead: about 2 minutes, 504 MB",
                if *replace { "rebuild" } else { "build" }
            ),
        }
    }
}

impl From<String> for Note {
    fn from(text: String) -> Note {
        Note::new(text)
    }
}

impl From<&str> for Note {
    fn from(text: &str) -> Note {
        Note::new(text)
    }
}

/// What the core tells its caller while it works.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// Something the person asking should hear, said once, where it happens.
    Note(&'a Note),
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
pub(super) fn env_path(name: &str) -> Option<PathBuf> {
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
