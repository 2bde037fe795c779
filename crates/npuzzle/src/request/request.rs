//! The question: a [`Request`] and its check, in the words of its fields.

use std::sync::Arc;

use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::HeuristicKind;
use crate::limits::Limits;
use crate::moves::Notation;
use crate::search::{self, Algorithm};
use crate::sequence::Metric;

/// Seconds `auto` may spend building pattern databases it was not asked for.
pub(crate) const AUTO_BUILD_SECONDS: f64 = 60.0;

/// The exact search's time when `auto` was given none on a board of more than 16 cells
/// (and exact answers were not required): after it the fast solver answers, with the
/// bound proven. (On 16 to 25 cells with no databases at hand, the exact search gets
/// half of the time, and the anytime solver's beams answer in the other half.)
pub(crate) const AUTO_EXACT_SECONDS: u64 = 10;

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

pub(crate) fn bad(field: &'static str, reason: impl std::fmt::Display) -> SearchError {
    SearchError::BadRequest {
        field,
        reason: reason.to_string(),
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
        if self.pdb.is_some() && self.pdbs.is_some() {
            return Err(bad(
                "pdb",
                "expected a partition by name or the databases themselves, found both",
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
        crate::parity::goal_for(self.goal.as_ref(), board)
    }
}

/// The most solutions one request lists (unless it asks for all of them).
pub const MAX_SOLUTIONS: usize = 1000;
