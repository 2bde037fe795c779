//! The answer: the request carried out on one board (auto's choice, the exact searches with
//! their fallbacks, the anytime solver).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::core::*;
use super::databases::*;
use super::plan::*;
use super::request::*;
use super::tables::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::mtm_pdb::MtmRows;
use crate::heuristic::pdb::partitions;
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::HeuristicKind;
use crate::limits::{resolve_threads, Limits};
use crate::report::Report;
use crate::search::{self, Algorithm, FAST_FROM};
use crate::solution::Solution;

/// One board's answer under way: the question, and what the plan's steps have found so
/// far (the databases at hand, the notes for the person asking).
struct Work<'a> {
    board: &'a Board,
    goal: Board,
    request: &'a Request,
    started: Instant,
    heuristic: HeuristicKind,
    /// Databases given for the anytime solver's region (not the board's own).
    region_given: Vec<Arc<PdbHeuristic>>,
    /// Databases given for the board's goal.
    given: Option<Named>,
    /// What a databases step found.
    found: Option<Named>,
    /// What an exact search with databases on a big board proved before it ran out of
    /// its share of the time ([`BIG_EXACT_SHARE`]; the beams take the rest, from its bound).
    proven: Option<Proven>,
    notes: Vec<String>,
}

/// An exact search stopped by its share of the time, for the beams that follow it.
struct Proven {
    /// The lower bound it proved.
    bound: u32,
    /// The nodes it expanded.
    expanded: u64,
    /// The nodes it generated.
    generated: u64,
    /// When the board's time ends.
    until: Option<Instant>,
}

impl Work<'_> {
    /// The report of `sol`, found by `algo` (with the heuristic `name`, weighted by
    /// `weight`).
    fn report(
        &self,
        sol: &Solution,
        algo: Algorithm,
        name: Option<&str>,
        weight: Option<f64>,
    ) -> Report {
        Report::solved(
            self.board,
            &self.goal,
            sol,
            algo,
            name,
            self.request.metric,
            weight,
            self.request.notation,
        )
    }

    /// The answer: `report` and `sol`, with the notes.
    fn done(&mut self, report: Report, sol: Solution) -> Answer {
        Answer {
            report,
            stats: sol.stats,
            moves: sol.moves,
            solutions: Vec::new(),
            notes: std::mem::take(&mut self.notes),
        }
    }

    /// An anytime answer's report: the beams' (`anytime`, not proven), or IDA*'s when the
    /// answer met its bound.
    fn beam_report(&self, a: &search::AnytimeAnswer) -> Report {
        let (algo, name) = if a.proven {
            (Algorithm::Idastar, HeuristicKind::LinearConflict.name())
        } else if a.databases {
            (Algorithm::Fast, "pattern-database beam")
        } else {
            (Algorithm::Fast, "linear-conflict beam")
        };
        let mut r = self
            .report(&a.solution, algo, Some(name), None)
            .with_lower_bound(a.lower_bound);
        if !a.proven {
            r.algorithm = "anytime";
        }
        r
    }

    /// Whether an exact search's `result` hands the board to the anytime step: it ran out
    /// of its share of the board's time, which ends `until` (not cancelled). If so, its
    /// bound and nodes are kept for the beams ([`Work::proven`]) and a note says so.
    fn hand_to_beams(
        &mut self,
        result: &Result<Solution, SearchError>,
        until: Option<Instant>,
    ) -> bool {
        let Err(SearchError::TimeLimit {
            lower_bound,
            elapsed,
            expanded,
            generated,
            ..
        }) = result
        else {
            return false;
        };
        if self.cancelled() {
            return false;
        }
        self.notes.push(format!(
            "{}: the exact search stopped after {:.1} s having proven {lower_bound}; \
             answered by beams (ask for exact answers to wait for a proven one)",
            self.board,
            elapsed.as_secs_f64()
        ));
        self.proven = Some(Proven {
            bound: *lower_bound,
            expanded: *expanded,
            generated: *generated,
            until,
        });
        true
    }

    /// Whether the request's cancel flag is up.
    fn cancelled(&self) -> bool {
        self.request
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// `limits` for an exact search that gets `share` of their time (all of it without one),
/// and when that time ends, for the beams that may take the rest.
fn share_of(
    limits: std::borrow::Cow<'_, Limits>,
    share: Option<f64>,
) -> (std::borrow::Cow<'_, Limits>, Option<Instant>) {
    let total = limits.time_limit;
    let until = total.map(|t| Instant::now() + t);
    match share {
        Some(share) => (
            std::borrow::Cow::Owned(Limits {
                time_limit: total.map(|t| t.mul_f64(share)),
                ..limits.into_owned()
            }),
            until,
        ),
        None => (limits, until),
    }
}

impl Core {
    /// Answers `board` as `request` asks: the report every face prints, the moves, and
    /// the notes for the person asking. The request is checked, an unsolvable board is
    /// answered as such, and [`plan`] says what runs; each step answers or passes on.
    pub fn answer(&self, board: &Board, request: &Request) -> Result<Answer, SearchError> {
        self.answer_since(board, request, Instant::now())
    }

    /// [`Core::answer`] for a board whose time began at `started`.
    fn answer_since(
        &self,
        board: &Board,
        request: &Request,
        started: Instant,
    ) -> Result<Answer, SearchError> {
        request.check()?;
        let goal = request.goal_for(board)?;
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
                notes: Vec::new(),
            });
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
        let steps = plan(request, board.size(), given.is_some())?;
        let mut work = Work {
            board,
            goal,
            request,
            started,
            heuristic: request.heuristic.unwrap_or(HeuristicKind::LinearConflict),
            region_given,
            given,
            found: None,
            proven: None,
            notes: Vec::new(),
        };
        for &step in steps.steps() {
            let answered = match step {
                Step::AllSolutions => Some(self.all_solutions(&mut work)?),
                Step::Weighted { algorithm } => Some(self.weighted(&mut work, algorithm)?),
                Step::MultiTile => Some(self.multi_tile(&mut work)?),
                Step::Databases { source, search } => {
                    self.with_databases(&mut work, source, search)?
                }
                Step::UnusedSet => {
                    self.unused_set(&mut work)?;
                    None
                }
                Step::FastWithDatabases => self.fast_with_databases(&mut work)?,
                Step::Anytime => Some(self.anytime_answer(&mut work)?),
                Step::Search { beams_after } => Some(self.search_step(&mut work, beams_after)?),
            };
            if let Some(a) = answered {
                return Ok(a);
            }
        }
        // (Every plan ends with a step that answers.)
        Err(bad(
            "algorithm",
            "no step of the plan answered the board (a bug)",
        ))
    }

    /// [`Step::AllSolutions`].
    fn all_solutions(&self, w: &mut Work<'_>) -> Result<Answer, SearchError> {
        let (h, limits) = (w.heuristic, &w.request.limits);
        let max = w.request.solutions.unwrap_or(1);
        let (all, stats) = search::idastar_all(w.board, &w.goal, h, limits, max)?;
        let first = Solution {
            moves: all.first().cloned().unwrap_or_default(),
            stats,
        };
        let mut r = w.report(&first, Algorithm::Idastar, Some(h.name()), None);
        r.solutions = Some(
            all.iter()
                .map(|m| w.request.notation.format(w.board, m))
                .collect(),
        );
        let mut a = w.done(r, first);
        a.solutions = all;
        Ok(a)
    }

    /// [`Step::Weighted`].
    fn weighted(&self, w: &mut Work<'_>, algorithm: Algorithm) -> Result<Answer, SearchError> {
        let (h, limits) = (w.heuristic, &w.request.limits);
        let weight = w.request.weight.unwrap_or(1.0);
        let sol = if algorithm == Algorithm::Astar {
            search::astar_weighted(w.board, &w.goal, h, weight, limits)?
        } else {
            search::idastar_weighted(w.board, &w.goal, h, weight, limits)?
        };
        let r = w.report(&sol, algorithm, Some(h.name()), Some(weight));
        Ok(w.done(r, sol))
    }

    /// [`Step::MultiTile`].
    fn multi_tile(&self, w: &mut Work<'_>) -> Result<Answer, SearchError> {
        let tables = MtmRows::serves(&w.goal)
            .then(|| self.mtm_tables())
            .flatten();
        let name = match tables {
            Some(_) => "multi-tile tables (goal rows, columns, blocks)",
            None => "multi-tile walking distance",
        };
        let sol = search::idastar_mtm_pdb(w.board, &w.goal, tables.as_deref(), &w.request.limits)?;
        let r = w.report(&sol, Algorithm::Idastar, Some(name), None);
        Ok(w.done(r, sol))
    }

    /// [`Step::Databases`]: the databases from `source` kept for the steps after, and
    /// with `search`, database IDA* with them (the fast solver past its time, with auto;
    /// on 26 cells or more, auto's search gets [`BIG_EXACT_SHARE`] of the time and, if it
    /// runs out, passes its bound to the anytime step, which takes the rest).
    fn with_databases(
        &self,
        w: &mut Work<'_>,
        source: DatabaseSource,
        search: bool,
    ) -> Result<Option<Answer>, SearchError> {
        let request = w.request;
        w.found = match source {
            DatabaseSource::Given => w.given.clone(),
            DatabaseSource::Named => self.pdbs_for(
                &w.goal,
                request.pdb.as_deref(),
                &request.limits,
                AUTO_BUILD_SECONDS,
            )?,
            DatabaseSource::Auto => {
                let budget = build_budget(request);
                let found = self.pdbs_for(&w.goal, None, &request.limits, budget);
                match auto_build_stopped(found, w.cancelled())? {
                    Ok(found) => found,
                    Err(note) => {
                        w.notes.push(format!("{}: {note}", w.board));
                        None
                    }
                }
            }
        };
        let Some((spec, h)) = w.found.clone().filter(|_| search) else {
            return Ok(None);
        };
        let cells = w.board.size().cells();
        // Auto on a big board: a share of the time for the exact search (boards near the
        // goal proven), the rest for beams.
        let beams_after = answers_by_beams(request, cells) && request.weight.is_none();
        let (limits, until) = share_of(
            self.exact_limits(request, cells, w.started),
            beams_after.then_some(BIG_EXACT_SHARE),
        );
        let name = h.label(&spec);
        let threads = resolve_threads(request.threads);
        let result = match request.weight {
            Some(weight) => {
                search::idastar_pdb_weighted(w.board, &w.goal, &h, weight, &limits, threads)
            }
            None => search::idastar_pdb_parallel(w.board, &w.goal, &h, &limits, threads),
        };
        if beams_after && w.hand_to_beams(&result, until) {
            return Ok(None);
        }
        let notes = std::mem::take(&mut w.notes);
        let w = &*w;
        self.anytime(
            request,
            w.board,
            &w.goal,
            result,
            Some(&h),
            &limits,
            notes,
            |sol| w.report(sol, Algorithm::Idastar, Some(&name), request.weight),
        )
        .map(Some)
    }

    /// [`Step::UnusedSet`]: the named set checked (as for the other searches), and said
    /// to go unused.
    fn unused_set(&self, w: &mut Work<'_>) -> Result<(), SearchError> {
        if let Some(spec) = &w.request.pdb {
            partitions(&w.goal, spec).map_err(|e| bad("pdb", e))?;
            w.notes.push(format!(
                "{}: the fast solver uses pattern databases on 16 to 25 cells only; this {} \
                 board is answered without the {spec} set",
                w.board,
                w.goal.size()
            ));
        }
        Ok(())
    }

    /// [`Step::FastWithDatabases`]: the weighted database search of the fast solver, with
    /// the databases found, else the named or auto's set if cached (none is built for it).
    fn fast_with_databases(&self, w: &mut Work<'_>) -> Result<Option<Answer>, SearchError> {
        let request = w.request;
        let at_hand = match w.found.clone() {
            Some(p) => Some(p),
            None => self.pdbs_for_fast(&w.goal, request.pdb.as_deref(), &request.limits)?,
        };
        let Some((spec, h)) = at_hand else {
            return Ok(None);
        };
        let limits = self.exact_limits(request, w.board.size().cells(), w.started);
        let ans = search::fast_pdb(w.board, &w.goal, &h, &limits)?;
        let name = format!("weighted {}", h.label(&spec));
        let name = ans.weight.is_some().then_some(name.as_str());
        let r = w
            .report(&ans.solution, Algorithm::Fast, name, ans.weight)
            .with_lower_bound(ans.lower_bound);
        Ok(Some(w.done(r, ans.solution)))
    }

    /// [`Step::Anytime`]: the anytime solver within the time limit (a second without one),
    /// ranked by the sets at hand. Reading the databases (the first board that needs
    /// them: 0.2-0.4 s here from the page cache, seconds from disk) counts against the
    /// time; with less than [`REGION_PDBS_FROM`] they are used only if already in memory.
    /// At a fixed beam width, the sets are chosen as for ample time (see [`sets_limit`])
    /// and, without a limit, nothing ends the run but its beams. Databases named or given
    /// for the board's own goal, where it is the usual one, rank its beams instead; after
    /// an exact search with them that ran out ([`Work::proven`]), the beams have the rest
    /// of its time and start from its bound.
    fn anytime_answer(&self, w: &mut Work<'_>) -> Result<Answer, SearchError> {
        let request = w.request;
        let proven = w.proven.take();
        // When the time ends: after an exact search, where its share ended too (what came
        // before it, such as reading databases, already counted there); else the limit
        // from the board's start.
        let until = match &proven {
            Some(p) => p.until,
            None => search::anytime_time(request.limits.time_limit, request.beam_width)
                .map(|t| w.started + t),
        };
        let own = w
            .found
            .as_ref()
            .map(|(_, h)| h.clone())
            .filter(|h| *h.goal() == Board::solved(w.board.size()));
        let dbs = match own {
            Some(h) => vec![h],
            None => {
                let choose = Limits {
                    time_limit: sets_limit(request.limits.time_limit, request.beam_width),
                    ..request.limits.clone()
                };
                self.region_pdbs(w.board, &choose, &w.region_given)
            }
        };
        let dbs: Vec<&PdbHeuristic> = dbs.iter().map(|h| &**h).collect();
        let left = Limits {
            time_limit: until.map(|u| u.saturating_duration_since(Instant::now())),
            ..request.limits.clone()
        };
        let (board, goal, threads) = (w.board, &w.goal, request.threads);
        let a = match (request.beam_width, proven) {
            (Some(width), _) => search::beams_at_width(board, goal, &dbs, width, threads, &left)?,
            (None, Some(p)) => {
                let mut a =
                    search::anytime_above(board, goal, threads, &left, p.bound, &dbs, None)?;
                a.solution.stats.expanded += p.expanded;
                a.solution.stats.generated += p.generated;
                a.solution.stats.elapsed = w.started.elapsed();
                a
            }
            (None, None) => search::anytime_with_databases(board, goal, &dbs, threads, &left)?,
        };
        let r = w.beam_report(&a);
        Ok(w.done(r, a.solution))
    }

    /// [`Step::Search`]. With `beams_after` and no databases found (auto on 16 to 25
    /// cells, none cached or built in the time), the exact search gets half the time, and
    /// if it runs out, beams answer in the other half (far shorter than the fast solver's
    /// answer) with the bound the exact search proved.
    fn search_step(&self, w: &mut Work<'_>, beams_after: bool) -> Result<Answer, SearchError> {
        let request = w.request;
        let beams_after = beams_after && w.found.is_none();
        let (limits, until) = share_of(
            self.exact_limits(request, w.board.size().cells(), w.started),
            beams_after.then_some(0.5),
        );
        // Distance tables, IDA*, the fast solver on big boards: per size.
        let (result, algo) = self.search(
            w.board,
            &w.goal,
            request,
            w.heuristic,
            &limits,
            &mut w.notes,
        );
        if beams_after && w.hand_to_beams(&result, until) {
            return self.anytime_answer(w);
        }
        let name = algo.uses_heuristic().then_some(w.heuristic.name());
        let weight = request.weight;
        let notes = std::mem::take(&mut w.notes);
        let w = &*w;
        self.anytime(
            request,
            w.board,
            &w.goal,
            result,
            None,
            &limits,
            notes,
            |sol| w.report(sol, algo, name, weight.filter(|_| algo != Algorithm::Fast)),
        )
    }

    /// A board's limits: what is left of its time limit after building databases; with
    /// auto on more than 16 cells and no limit given (and exact answers not required),
    /// [`AUTO_EXACT_SECONDS`].
    /// (Borrowed when nothing changes: a batch's boards then share the limits without
    /// touching the reference count of their cancel flag, which two threads contended.)
    pub(super) fn exact_limits<'r>(
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
    pub(super) fn search(
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
        // The remembered table answers in place: no count of its holders is touched, so
        // threads answering boards side by side share no cache line.
        let answered = LAST_TABLE.with(|last| {
            last.borrow()
                .as_ref()
                .filter(|(k, g, _)| *k == key && g == goal)
                .map(|(_, _, t)| t.solve(board))
        });
        if let Some(result) = answered {
            return self.table_answer(result, board, goal, h, limits, notes);
        }
        let table = match algo {
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
            let result = t.solve(board);
            LAST_TABLE.with(|last| *last.borrow_mut() = Some((key, goal.clone(), t)));
            return self.table_answer(result, board, goal, h, limits, notes);
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

    /// A table's answer; a table that contradicts itself is dropped and the board is
    /// searched instead, with a note saying so.
    fn table_answer(
        &self,
        result: Result<Solution, SearchError>,
        board: &Board,
        goal: &Board,
        h: HeuristicKind,
        limits: &Limits,
        notes: &mut Vec<String>,
    ) -> (Result<Solution, SearchError>, Algorithm) {
        match result {
            Err(e @ SearchError::Inconsistent { .. }) => {
                write(&self.tables).insert(goal.clone(), None);
                write(&self.memory).remove(goal);
                self.epoch.fetch_add(1, Ordering::Relaxed);
                LAST_TABLE.with(|last| *last.borrow_mut() = None);
                notes.push(format!(
                    "the distance table for goal {goal} is unusable ({e}); solving by \
                     idastar instead"
                ));
                (
                    search::solve(board, goal, Algorithm::Idastar, h, limits),
                    Algorithm::Idastar,
                )
            }
            r => (r, Algorithm::Table),
        }
    }

    /// With `auto` (and exact answers not required), an exact search that ran out of
    /// time or nodes is answered by the fast solver (with databases, the weighted
    /// database search) with the bound it proved, and a note saying so.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn anytime(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::PatternDb;

    /// Time spent on a board before its exact search (reading or building databases:
    /// here the board's time began 1.5 s before it was asked) counts once: after the
    /// search with a set given for a big board runs out of its share, the beams still run
    /// to the board's limit (counted twice, they ended 1.5 s early). Only a lower bound on
    /// the time is asserted: a busy machine makes a run longer, never shorter.
    #[test]
    fn time_before_the_exact_search_counts_once_for_the_beams() {
        let goal = Board::solved("6x6".parse().unwrap());
        let tiles: Vec<u8> = (1..36).collect();
        let dbs = tiles
            .chunks(3)
            .map(|t| PatternDb::build(&goal, t, &Limits::default(), 1, &mut |_| {}).unwrap())
            .collect();
        let set = Arc::new(PdbHeuristic::new(&goal, dbs).unwrap());
        let start = crate::scramble::uniform(&goal, &mut crate::scramble::Rng::new(89));
        let request = Request {
            pdbs: Some(("small".into(), set)),
            limits: Limits {
                time_limit: Some(Duration::from_secs(4)),
                ..Limits::default()
            },
            threads: 1,
            ..Request::default()
        };
        let core = Core::new(super::super::Sources::default());
        let asked = Instant::now();
        let began = asked - Duration::from_millis(1500);
        let a = core.answer_since(&start, &request, began).unwrap();
        let took = asked.elapsed();
        assert_eq!(a.report.algorithm, "anytime");
        assert!(a.notes.iter().any(|n| n.contains("answered by beams")));
        // 2.5 s were left; the anytime solver keeps back 6% of its time (at most 0.3 s).
        assert!(took >= Duration::from_millis(2000), "{took:?}");
    }
}
