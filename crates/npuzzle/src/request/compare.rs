//! Every applicable search on one board, side by side.

use std::sync::atomic::Ordering;

use super::core::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::HeuristicKind;
use crate::limits::Limits;
use crate::search::{self, Algorithm, FAST_FROM};
use crate::solution::Solution;

/// One search of a comparison: what ran and what it gave.
#[derive(Debug, Clone)]
pub struct Run {
    /// The search.
    pub algorithm: Algorithm,
    /// Its estimate (`pdb 7-8 + reflection` for databases), if it takes one.
    pub heuristic: Option<String>,
    /// Its solution, or why none (a search left out says so: `SearchError::LeftOut`).
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
                    result: Err(SearchError::LeftOut {
                        algorithm: algorithm.name(),
                        cells: board.size().cells(),
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
