//! The [`Core`]: what boards share (the sources, and the databases and tables loaded or
//! built, behind `Arc`s), and the [`Answer`] it gives.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use super::sources::*;
use crate::analysis::DistanceTable;
use crate::board::Board;
use crate::heuristic::mtm_pdb::MtmRows;
use crate::heuristic::pdb::PdbHeuristic;
use crate::layered::Progress;
use crate::moves::Direction;
use crate::report::Report;

/// Databases found for a goal: the partition's name and the databases.
pub(super) type Named = (String, Arc<PdbHeuristic>);

/// What a look for databases found: the goal, the partition asked for (`None`: auto's
/// choice), whether a build was allowed, whether the files were mapped for the fast
/// solver instead of read as the sources say (see `Core::pdbs_for_fast`), and the
/// databases if any.
/// One look for databases: the goal, the partition asked for (`None`: auto's choice),
/// whether a build was allowed, whether the files were mapped for the fast solver instead
/// of read as the sources say (see `Core::pdbs_for_fast`), and what was found, in a slot
/// of its own: a look under way (a build) holds up the looks for the same key only, never
/// another goal's.
pub(super) struct Look {
    pub(super) goal: Board,
    pub(super) spec: Option<String>,
    pub(super) may_build: bool,
    pub(super) map: bool,
    pub(super) found: Arc<Mutex<Option<Option<Named>>>>,
}

/// The most looks a core keeps (each with the databases it found): past it the oldest not
/// in use is dropped, so that a server asked for ever new goals does not grow without end
/// (a later ask for a dropped one looks again).
pub(super) const MAX_LOOKS: usize = 16;

/// Numbers cores, so that a thread's remembered table is never taken for another core's.
pub(super) static CORES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What boards share: the sources, and the databases and tables already at hand.
pub struct Core {
    /// This core's number.
    pub(super) id: u64,
    /// Raised whenever a table is dropped, so remembered ones are looked up again.
    pub(super) epoch: std::sync::atomic::AtomicU64,
    pub(super) sources: Sources,
    /// The looks for databases made, and what each found (at most [`MAX_LOOKS`]).
    pub(super) pdbs: Mutex<Vec<Look>>,
    /// Per goal: the distance table, if there is one to be had.
    pub(super) tables: RwLock<HashMap<Board, Option<Arc<DistanceTable>>>>,
    /// Per goal: a table built in memory only (not kept in the folder). `auto` uses these
    /// only under its own rule (boards of at most 9 cells), so a board's answer never
    /// depends on what was asked before it.
    pub(super) memory: RwLock<HashMap<Board, Arc<DistanceTable>>>,
    /// The multi-tile tables, once looked for.
    pub(super) mtm: OnceLock<Option<Arc<MtmRows>>>,
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

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(super) fn read<T>(m: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(|e| e.into_inner())
}

pub(super) fn write<T>(m: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(|e| e.into_inner())
}

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

    pub(super) fn tell(&self, e: &Event<'_>) {
        if let Some(l) = &self.sources.listener {
            l(e);
        }
    }

    pub(super) fn note(&self, note: impl Into<Note>) {
        self.tell(&Event::Note(&note.into()));
    }

    /// Runs a build that reports its layers, telling the listener of each (`shown`: only
    /// builds long enough to watch) and of its end.
    pub(super) fn building<T>(
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
}
