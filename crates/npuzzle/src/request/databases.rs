//! Pattern databases for a request: the ones at hand, in the folder (proven first where npuzzle
//! did not write them), or built within the time left; one look per key, bounded.

use super::sources::{Note, Remedy};
use crate::error::DatabaseError;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::core::*;
use super::plan::*;
use super::request::*;
use super::sources::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::pdb::{
    build_memory, build_memory_of, cached_file, check_partition_count, file_name_of, is_image,
    left_out, partition, partitions, Load, PatternDb, Placement, CATALOGUE_24,
};
use crate::limits::Limits;
use crate::search::{self};

/// The databases of every partition's groups, each distinct group got once by `get` (a
/// group in several partitions shares its entries), in the partitions' order; `get` is
/// also given the databases got before it.
pub(super) fn each_group_once<E>(
    parts: &[Vec<Vec<u8>>],
    mut get: impl FnMut(&[u8], &[PatternDb]) -> Result<PatternDb, E>,
) -> Result<Vec<Vec<PatternDb>>, E> {
    let mut got: Vec<PatternDb> = Vec::new();
    let mut sets = Vec::new();
    for groups in parts {
        let mut dbs = Vec::new();
        for tiles in groups {
            let db = match got.iter().find(|d| d.tiles() == tiles.as_slice()) {
                Some(db) => db.clone(),
                None => {
                    let db = get(tiles, &got)?;
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
pub(super) fn maps_instead(load: Load, cells: usize) -> bool {
    load == Load::Once && Load::Once.reads(cells)
}

/// Auto's databases, or what to do when their build was stopped: a build the clock
/// stopped (its estimate fitted the time, but a busy machine took longer), or a set whose
/// last database no longer fits the time its first ones left, is no answer to the board,
/// which is then solved without databases (`Ok(Err(note))`, the note saying so): auto
/// chose the build, so auto answers all the same. A cancelled build, or any other error,
/// stays an error.
pub(super) fn auto_build_stopped<T>(
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
        // Refused before it is announced.
        PatternDb::check_build(goal, tiles, limits, zero_aware)?;
        let entries = Placement::new(goal.size().cells(), tiles.len()).count();
        let large = entries > 1_000_000;
        if large {
            let secs = build_seconds(goal, tiles, threads);
            let eta = if secs >= 90.0 {
                format!("about {:.0} minutes", secs / 60.0)
            } else {
                format!("about {:.0} s", secs.max(1.0))
            };
            self.note(format!(
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
        self.save_pdb(&db, must_save, large)?;
        Ok(db)
    }

    /// The database of `tiles` for `goal` made from one of `have` (for the same goal,
    /// loaded or built) through a symmetry of the board where one relates them (see
    /// [`PatternDb::image`]): no search, the same entries a build gives; saved as a build
    /// is. With it, the index in `have` of the database it was made from; `None` where
    /// none of `have` is related so.
    pub fn image_pdb(
        &self,
        goal: &Board,
        tiles: &[u8],
        have: &[PatternDb],
        threads: usize,
        must_save: bool,
    ) -> Result<Option<(PatternDb, usize)>, SearchError> {
        let Some((db, from)) = have
            .iter()
            .enumerate()
            .filter(|(_, d)| d.goal() == goal)
            .find_map(|(i, d)| Some((d.image(tiles, threads)?, i)))
        else {
            return Ok(None);
        };
        let large = db.len() > 1_000_000;
        self.save_pdb(&db, must_save, large)?;
        Ok(Some((db, from)))
    }

    /// Saves a database made here in the database folder (a note where it cannot be, or
    /// with `must_save` an error; with `large`, a note where it went).
    fn save_pdb(&self, db: &PatternDb, must_save: bool, large: bool) -> Result<(), SearchError> {
        let (goal, tiles) = (db.goal(), db.tiles());
        match &self.sources.pdb_dir {
            Some(d) => {
                let path = d.join(file_name_of(goal, tiles, db.is_zero_aware()));
                match db.save(&path) {
                    Err(e) if must_save => {
                        return Err(SearchError::Unsupported {
                            algorithm: "pdb build",
                            reason: format!("cannot save {}: {e}", path.display()),
                        })
                    }
                    Err(e) => self.note(format!("cannot save {}: {e}", path.display())),
                    Ok(()) if large => self.note(format!("saved {}", path.display())),
                    Ok(()) => {}
                }
            }
            None => self.note("no database folder: the database is not saved"),
        }
        Ok(())
    }

    /// The database of `tiles` for `goal` from the folder, if there and sound (a note
    /// says why one there is not used, and `then` what happens instead).
    pub(super) fn load_pdb(
        &self,
        goal: &Board,
        tiles: &[u8],
        how: Load,
        then: &str,
    ) -> Option<PatternDb> {
        let path = self.pdb_path(goal, tiles)?;
        if std::fs::symlink_metadata(&path).is_err() {
            return None;
        }
        match PatternDb::open_checked(&path, goal, tiles, how) {
            Ok(db) => Some(db),
            Err(e) => {
                let note = Note::new(format!("{}: {e}; {then}", path.display()));
                self.note(match e {
                    DatabaseError::Unproven { .. } => note.with(Remedy::ProvePdbs),
                    _ => note,
                });
                None
            }
        }
    }

    /// Where the database of `tiles` for `goal` is kept in the database folder, if there
    /// is one: the zero-aware file where there is one, else the plain one.
    pub(super) fn pdb_path(&self, goal: &Board, tiles: &[u8]) -> Option<PathBuf> {
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
        for (i, groups) in parts.iter().enumerate() {
            let left = left_out(goal, groups);
            if left.is_empty() {
                continue;
            }
            let which = if parts.len() > 1 {
                format!("partition {} of {}", i + 1, parts.len())
            } else {
                "the partition".to_string()
            };
            let (s, they) = if left.len() > 1 {
                ("s", "they add")
            } else {
                ("", "it adds")
            };
            self.note(Note::new(format!(
                "pdb: {which} leaves tile{s} {} in no group: {they} nothing to its estimate \
                 (answers stay optimal; searches take longer)",
                crate::heuristic::pdb::runs(&left),
            )));
        }
        let (how, copy) = self.catalogue_load(goal, parts.len(), self.sources.load);
        let started = Instant::now();
        // The files there are opened first, side by side; one that fails is noted then and
        // rebuilt below.
        let (groups, mut opened) =
            self.open_groups(goal, &parts, (how, copy), "rebuilding it", false);
        let sets = each_group_once(&parts, |tiles, got| {
            let limits = Limits {
                time_limit: limits
                    .time_limit
                    .map(|t| t.saturating_sub(started.elapsed())),
                ..limits.clone()
            };
            let tried = groups
                .iter()
                .position(|g| g.as_slice() == tiles)
                .and_then(|i| opened[i].take());
            match tried {
                Some(Some(db)) => return Ok(db),
                Some(None) => {}
                None => {
                    if let Some(db) = self.load_group(goal, tiles, (how, copy), "rebuilding it") {
                        return Ok(db);
                    }
                }
            }
            let threads = self.sources.build_threads;
            if let Some((db, _)) = self.image_pdb(goal, tiles, got, threads, false)? {
                return Ok(db);
            }
            let secs = build_seconds(goal, tiles, threads);
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

    /// The distinct groups of `parts` (sorted) and each one's database opened as
    /// [`load_group`](Self::load_group) opens it (a failure noted ending with `then`), on
    /// every core side by side: each open reads its file through for the checksum (0.5 s
    /// for the 7x7 set's 1.8 GB on one core here). `None` where the group's file is not in
    /// the folder (not tried), `Some(None)` where it failed. With `give_back`, the pages
    /// each checksum read are given back as its file is opened.
    fn open_groups<'p>(
        &self,
        goal: &Board,
        parts: &'p [Vec<Vec<u8>>],
        how: (Load, bool),
        then: &str,
        give_back: bool,
    ) -> (Vec<&'p Vec<u8>>, Vec<Option<Option<PatternDb>>>) {
        let mut groups: Vec<&Vec<u8>> = parts.iter().flatten().collect();
        groups.sort();
        groups.dedup();
        let opened = crate::limits::par_map(groups.len(), 0, 1, |i| {
            let there = self
                .pdb_path(goal, groups[i])
                .is_some_and(|p| std::fs::symlink_metadata(p).is_ok());
            there.then(|| {
                let db = self.load_group(goal, groups[i], how, then);
                if let Some(db) = db.as_ref().filter(|_| give_back) {
                    db.drop_pages();
                }
                db
            })
        });
        (groups, opened)
    }

    /// A group's database loaded as [`catalogue_load`](Self::catalogue_load) says: where
    /// the ones looked up are copied later, the pages its checksum read are given back
    /// (the copy reads them again; the others are not read again).
    pub(super) fn load_group(
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
    pub(super) fn catalogue_load(
        &self,
        goal: &Board,
        partitions: usize,
        how: Load,
    ) -> (Load, bool) {
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
    pub(super) fn cached_pdbs_as(
        &self,
        goal: &Board,
        spec: &str,
        load: Load,
        give_back: bool,
    ) -> Option<PdbHeuristic> {
        self.sources.pdb_dir.as_ref()?;
        let parts = partitions(goal, spec).ok()?;
        let (how, copy) = self.catalogue_load(goal, parts.len(), load);
        // (A set with a file missing is no set: nothing is opened then.)
        let missing = |tiles: &Vec<u8>| {
            self.pdb_path(goal, tiles)
                .is_none_or(|p| std::fs::symlink_metadata(p).is_err())
        };
        if parts.iter().flatten().any(missing) {
            return None;
        }
        let (groups, mut opened) =
            self.open_groups(goal, &parts, (how, copy), "not used", give_back);
        let sets = each_group_once(&parts, |tiles, _| {
            let i = groups
                .iter()
                .position(|g| g.as_slice() == tiles)
                .ok_or(())?;
            opened[i].take().flatten().ok_or(())
        })
        .ok()?;
        let mut h = PdbHeuristic::catalogue(goal, sets).ok()?;
        if copy {
            if let Err(e) = h.read_lookups_into_memory() {
                self.note(format!(
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
    pub(super) fn auto_pdbs(
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
            // A group that a symmetry makes of an earlier one is copied, not built.
            let secs: f64 = (0..parts.len())
                .filter(|&i| !is_image(goal, &parts[i], &parts[..i]))
                .map(|i| build_seconds(goal, &parts[i], self.sources.build_threads))
                .sum();
            let memory = parts
                .iter()
                .map(|t| build_memory(size, t.len()))
                .max()
                .unwrap_or(0);
            if secs <= budget && memory <= limits.max_memory {
                self.note(
                    Note::new(format!(
                        "auto: building the {spec} pattern databases for {size} (about {:.0} s; \
                         larger sets are built only when named)",
                        secs.max(1.0)
                    ))
                    .with(Remedy::BuildPdbs { size, set: None }),
                );
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
    /// else, where [`search::region_for`] gives the board's last 6x6 region to databases
    /// within the time (6x6 to 8x8, 12x6; 9x9 and 10x10 from [`search::BIG_REGION_FROM`]),
    /// the default 6x6 set for the usual goal if preloaded or cached (never built: `npuzzle
    /// pdb build --size 6x6` makes it; read from the folder only with
    /// [`REGION_PDBS_FROM`] or more); none otherwise. A set not in memory is used only if
    /// its files can be read within [`WARM_SHARE`] of the time (see `warm_pdbs`), and
    /// where the process gives one answer ([`Load::Once`]) it is mapped, not read into
    /// memory of its own: reading the 6x6 set onto huge pages took 0.16 to
    /// 0.86 s of a 1 s solve here (the kernel gathering free huge pages), mapping it 0.1 s,
    /// while its lookups mapped cost the beams a few per cent of their positions.
    pub(super) fn region_pdbs(
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
    pub(super) fn warm_pdbs(&self, goal: &Board, deadline: Instant) -> bool {
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
            // is not used until proven (minutes for the 7x7 set).
            if !crate::files::is_stamped(&path) {
                self.note(
                    Note::new(format!(
                        "{}: not written by npuzzle here, or changed since, and not proven \
                         yet: this board goes without the {} pattern databases",
                        path.display(),
                        goal.size(),
                    ))
                    .with(Remedy::ProvePdbs),
                );
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
            self.note(
                Note::new(format!(
                    "the {} pattern databases in {} were not read within {:.0}% of the time \
                     limit (a cold disk?): this board goes without them; what was read stays \
                     cached for the next",
                    goal.size(),
                    path.parent().unwrap_or(path).display(),
                    WARM_SHARE * 100.0,
                ))
                .with(Remedy::ProvePdbs),
            );
            return false;
        }
        true
    }

    /// Whether auto's databases for `goal` are in memory: preloaded, or read for an earlier
    /// board.
    pub(super) fn pdbs_at_hand(&self, goal: &Board) -> bool {
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
    pub(super) fn pdbs_looked_up(
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
                    self.note(
                        Note::new(format!(
                            "the {spec} pattern databases for {size} {lack}, and nothing is \
                             built for this search: it goes without them"
                        ))
                        .with(Remedy::BuildPdbs {
                            size,
                            set: Some(spec.to_string()),
                        }),
                    );
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::size::Size;
    use std::time::Duration;

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

    /// A build the clock stopped leaves auto without databases, with a note; a cancelled
    /// one or another error stays an error, and a finished one is passed on.
    #[test]
    fn an_auto_build_out_of_time_is_answered_without_databases() {
        let stopped = |algorithm| SearchError::TimeLimit {
            algorithm,
            elapsed: Duration::from_millis(5400),
            lower_bound: 24,
            expanded: 5_764_638,
            generated: 0,
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
