//! Distance tables and the multi-tile tables: at hand, in the folder, or built; a few kept in
//! memory only, within a cap.

use super::sources::{Note, Remedy};
use crate::error::{DatabaseError, FileError};
use std::sync::Arc;

use super::core::*;
use crate::analysis::DistanceTable;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::mtm_pdb::MtmRows;
use crate::limits::Limits;
use crate::search::Algorithm;

/// The last table a thread used, and the question it answered: (core, epoch, algorithm),
/// goal, table.
pub(super) type Remembered = ((u64, u64, Algorithm), Board, Arc<DistanceTable>);

thread_local! {
    pub(super) static LAST_TABLE: std::cell::RefCell<Option<Remembered>> = const { std::cell::RefCell::new(None) };
}

/// Goals whose tables a core keeps in memory at most (a 3x3 table is 22 KiB; a client
/// asking for endless goals must not grow it without end).
pub(crate) const MEMORY_TABLES: usize = 64;

/// Bytes of tables a core keeps in memory at most (eight 12-cell tables).
pub(crate) const MEMORY_TABLE_BYTES: u64 = 256 << 20;

/// The file of the multi-tile tables (`pdb build --metric mtm`) in the database folder.
pub const MTM_FILE: &str = "mtm-4x4-rows-blocks.npz";

/// The multi-tile tables in the database folder `dir`: `None` if there are none, an error
/// if they are there but unsound (or not a regular file: [`FileError::Io`] then names it).
pub fn load_mtm(dir: &std::path::Path) -> Result<Option<MtmRows>, DatabaseError> {
    let path = dir.join(MTM_FILE);
    match crate::files::read_regular(&path) {
        Ok(bytes) => Ok(Some(MtmRows::from_bytes(bytes)?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DatabaseError::File(FileError::Io {
            path: path.display().to_string(),
            error: e.to_string(),
        })),
    }
}

impl Core {
    /// The distance table for `goal`: at hand, else from the table folder, else (with
    /// `build`) built and saved; `None` if there is none to be had.
    pub(super) fn table_for(
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

    pub(super) fn load_table(&self, goal: &Board) -> Option<DistanceTable> {
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
                self.note(format!(
                    "{}: expected a table for goal {goal}, found one for {}; ignoring it",
                    path.display(),
                    t.goal()
                ));
                None
            }
            Err(e) => {
                self.note(format!("{}: {e}; ignoring it", path.display()));
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
            self.note(format!(
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
            Ok(()) => self.note(format!(
                "table saved to {} ({})",
                path.display(),
                crate::error::human_bytes(table.memory())
            )),
            Err(e) => self.note(format!("cannot save the table to {}: {e}", path.display())),
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
                        let path = self.sources.pdb_dir.as_deref().map(|d| d.join(MTM_FILE));
                        let at = path.map(|p| p.display().to_string()).unwrap_or_default();
                        let note = match e {
                            DatabaseError::File(FileError::Io { .. }) => {
                                Note::new(format!("{e}; the multi-tile tables are not used"))
                            }
                            _ => Note::new(format!("{at}: {e}; not used"))
                                .with(Remedy::BuildMtm { replace: true }),
                        };
                        self.note(note);
                        None
                    }
                    None => None,
                };
                if t.is_none() {
                    self.note(
                        Note::new(
                            "no multi-tile tables cached: 4x4 boards are searched with the \
                             walking distance, which can take minutes; with the tables, a \
                             second or less",
                        )
                        .with(Remedy::BuildMtm { replace: false }),
                    );
                }
                t.map(Arc::new)
            })
            .clone()
    }

    /// The table for `goal` built in memory (not saved) and kept for the core's later
    /// boards of that goal (at most [`MEMORY_TABLES`] goals and [`MEMORY_TABLE_BYTES`]: past
    /// that, those kept go).
    pub(super) fn memory_table(
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
}
