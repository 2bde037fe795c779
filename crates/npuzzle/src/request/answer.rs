//! The answer: the request carried out on one board (auto's choice, the exact searches with
//! their fallbacks, the anytime solver).

use std::sync::atomic::Ordering;
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
use crate::sequence::Metric;
use crate::solution::Solution;

impl Core {
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
