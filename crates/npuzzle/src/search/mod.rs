//! Optimal searches, side by side.
//!
//! Every search returns a shortest sequence of moves with its [`Stats`](crate::solution::Stats), or a
//! [`SearchError`] (unsolvable, a size mismatch, a limit reached). All of them test
//! solvability first, in linear time.
//!
//! | function | method | memory |
//! |---|---|---|
//! | [`bfs`] | breadth-first search, visited states indexed by permutation rank | `n!` bytes |
//! | [`bibfs`] | bidirectional BFS, layer by layer, smaller frontier first | `2 n!` bytes |
//! | [`astar`] | A* with a closed set; stops when the goal is *expanded* | per state |
//! | [`iddfs`] | iterative deepening depth-first search | the path |
//! | [`idastar`] | IDA*, heuristic updated per move | the path |
//! | [`idastar_pdb`] | IDA* with additive pattern databases (and their reflection) | the tables |
//! | [`DistanceTable`] | one BFS from the goal, then any board by descent | `n!/16` bytes |

mod astar;
mod beam;
mod bfs;
mod bidir_bfs;
mod fast;
mod fsm;
mod idastar;
mod iddfs;
mod mtm;
mod optimize;
mod packed;
mod passes;
mod pdb_ida;
pub mod ranking;

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

pub use astar::{astar, astar_weighted};
pub use beam::{
    anytime, anytime_with_databases, beam, beams_at_width, check_beam_width, AnytimeAnswer,
    ANYTIME_MAX_WIDTH, ANYTIME_SECONDS, STAGED_LAST_SIDE, STAGED_L_SIDE,
};
pub(crate) use beam::{anytime_above, anytime_time};
pub use beam::{ranking_samples, region_for};
pub use bfs::bfs;
pub use bidir_bfs::bibfs;
pub use fast::{fast, fast_pdb, FastAnswer};
pub use idastar::{idastar, idastar_all, idastar_weighted};
pub use iddfs::iddfs;
pub use mtm::{idastar_mtm, idastar_mtm_pdb};
pub use optimize::{optimize, OptimizeError};
pub use passes::check_weight;
pub use pdb_ida::{
    idastar_pdb, idastar_pdb_all, idastar_pdb_parallel, idastar_pdb_weighted, pass_frontier,
    pass_subtrees, Frontier, SubtreePass,
};

use crate::analysis::DistanceTable;
use crate::heuristic::pdb::PdbHeuristic;
use crate::limits::Limits;
use crate::solution::Solution;

use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::HeuristicKind;
use crate::limits::Watch;
use crate::parity::precheck;

/// The searches by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// The fastest exact method for the board (see [`Solver`]).
    Auto,
    /// Breadth-first search.
    Bfs,
    /// Bidirectional breadth-first search.
    Bibfs,
    /// A*.
    Astar,
    /// Iterative deepening depth-first search.
    Iddfs,
    /// Iterative deepening A*.
    Idastar,
    /// A complete distance table built by one BFS from the goal.
    Table,
    /// The fast solver for any size ([`fast`]): a valid solution at once, not proven
    /// shortest.
    Fast,
}

impl Algorithm {
    /// Every exact algorithm (not `Auto`, not `Fast`).
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Bfs,
        Algorithm::Bibfs,
        Algorithm::Astar,
        Algorithm::Iddfs,
        Algorithm::Idastar,
        Algorithm::Table,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Bfs => "bfs",
            Algorithm::Bibfs => "bibfs",
            Algorithm::Astar => "astar",
            Algorithm::Iddfs => "iddfs",
            Algorithm::Idastar => "idastar",
            Algorithm::Table => "table",
            Algorithm::Fast => "fast",
        }
    }

    /// Whether the algorithm proves its solutions shortest (all but `Fast`).
    pub fn is_exact(self) -> bool {
        self != Algorithm::Fast
    }

    /// Whether the algorithm uses a heuristic.
    pub fn uses_heuristic(self) -> bool {
        matches!(self, Algorithm::Astar | Algorithm::Idastar)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Algorithm, crate::error::NameError> {
        match s {
            "auto" => Ok(Algorithm::Auto),
            "bfs" => Ok(Algorithm::Bfs),
            "bibfs" | "bidir" => Ok(Algorithm::Bibfs),
            "astar" | "a*" => Ok(Algorithm::Astar),
            "iddfs" => Ok(Algorithm::Iddfs),
            "idastar" | "ida*" => Ok(Algorithm::Idastar),
            "table" => Ok(Algorithm::Table),
            "fast" => Ok(Algorithm::Fast),
            _ => Err(crate::error::NameError::new(
                &[
                    "auto", "bfs", "bibfs", "astar", "iddfs", "idastar", "table", "fast",
                ],
                s,
            )),
        }
    }
}

/// Solves many boards with one configuration, keeping the distance tables it builds so
/// that a batch pays for each goal's table once.
///
/// `Auto` picks the fastest exact method as the batch goes: a distance table for boards
/// of at most 6 cells (it builds in microseconds); for boards of 7 to 9 cells, IDA* for
/// the first [`TABLE_AFTER`] boards of a goal and a distance table from then on (the 3x3
/// table takes about 12 ms to build, IDA* at most about 1.5 ms a board); IDA* from 10
/// cells; the fast solver, not proven optimal, from [`FAST_FROM`] cells.
///
/// ```
/// use npuzzle::{Algorithm, Board, HeuristicKind, Limits, Solver};
/// let mut solver = Solver::new(Algorithm::Auto, HeuristicKind::LinearConflict, Limits::default());
/// let goal = Board::solved("3x3".parse().unwrap());
/// let start: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// let (solution, algorithm) = solver.solve(&start, &goal).unwrap();
/// assert_eq!(solution.len(), 14);
/// assert_eq!(algorithm, Algorithm::Idastar);
/// for _ in 0..npuzzle::search::TABLE_AFTER {
///     solver.solve(&start, &goal).unwrap();
/// }
/// assert_eq!(solver.solve(&start, &goal).unwrap().1, Algorithm::Table);
/// ```
pub struct Solver {
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    limits: Limits,
    tables: HashMap<Board, DistanceTable>,
    seen: HashMap<Board, usize>,
    /// Goals whose table did not fit the memory limit: `Auto` searches them instead.
    untabled: std::collections::HashSet<Board>,
    notes: Vec<String>,
    eager: bool,
    exact: bool,
}

/// The fewest cells on which `Auto` uses the fast solver ([`fast`]) instead of an exact
/// search: 26, one more than the 24-puzzle's.
pub const FAST_FROM: usize = 26;

/// The nodes `Auto` gives IDA* on boards of [`FAST_FROM`] cells or more before it
/// answers with the fast solver: a few milliseconds, enough for boards a few dozen moves
/// from the goal.
pub const AUTO_QUICK_NODES: u64 = 100_000;

/// How many boards of one goal `Auto` solves with IDA* before it builds a distance table
/// (for boards of 7 to 9 cells).
pub const TABLE_AFTER: usize = 8;

impl Solver {
    /// A solver that runs `algorithm` (with `heuristic` where it takes one) within `limits`.
    pub fn new(algorithm: Algorithm, heuristic: HeuristicKind, limits: Limits) -> Solver {
        Solver {
            algorithm,
            heuristic,
            limits,
            tables: HashMap::new(),
            seen: HashMap::new(),
            untabled: Default::default(),
            notes: Vec::new(),
            eager: false,
            exact: false,
        }
    }

    /// With `exact`, `Auto` never answers with the fast solver: boards of
    /// [`FAST_FROM`] cells or more are searched by IDA* (for a caller that wants proven
    /// answers only, whatever they cost).
    pub fn set_exact(&mut self, exact: bool) {
        self.exact = exact;
    }

    /// Adds a distance table (built or loaded elsewhere) for `table.goal()`; `Auto` and
    /// `Table` then use it for every board of that goal.
    pub fn add_table(&mut self, table: DistanceTable) {
        self.tables.insert(table.goal().clone(), table);
    }

    /// With `eager`, `Auto` uses a distance table for boards of at most 9 cells from the
    /// first board on, instead of IDA* for the first [`TABLE_AFTER`] of a goal: for a
    /// caller that knows many boards are coming (and wants the same answers whichever
    /// of its threads solves a board).
    pub fn set_eager_tables(&mut self, eager: bool) {
        self.eager = eager;
    }

    /// Whether a distance table for `goal` is at hand.
    pub fn has_table(&self, goal: &Board) -> bool {
        self.tables.contains_key(goal)
    }

    /// The algorithm the next board of `goal` will be solved with (`Auto` resolved).
    pub fn resolve(&self, goal: &Board) -> Algorithm {
        let cells = goal.size().cells();
        match self.algorithm {
            Algorithm::Auto if self.untabled.contains(goal) => Algorithm::Idastar,
            Algorithm::Auto if cells <= 6 || self.tables.contains_key(goal) => Algorithm::Table,
            Algorithm::Auto
                if cells <= 9
                    && (self.eager || self.seen.get(goal).copied().unwrap_or(0) >= TABLE_AFTER) =>
            {
                Algorithm::Table
            }
            // Beyond 25 cells no exact search finishes on a random board: answer fast.
            Algorithm::Auto if cells >= FAST_FROM && !self.exact => Algorithm::Fast,
            Algorithm::Auto => Algorithm::Idastar,
            a => a,
        }
    }

    /// Solves `start` towards `goal`; returns the solution and the algorithm that ran.
    pub fn solve(
        &mut self,
        start: &Board,
        goal: &Board,
    ) -> Result<(Solution, Algorithm), SearchError> {
        let limits = self.limits.clone();
        self.solve_within(start, goal, &limits)
    }

    /// [`solve`](Self::solve) within `limits` instead of the solver's own (a board with
    /// a time limit of its own, say).
    pub fn solve_within(
        &mut self,
        start: &Board,
        goal: &Board,
        limits: &Limits,
    ) -> Result<(Solution, Algorithm), SearchError> {
        let algo = self.resolve(goal);
        if self.algorithm == Algorithm::Auto && !self.tables.contains_key(goal) {
            *self.seen.entry(goal.clone()).or_insert(0) += 1;
        }
        let sol = match algo {
            Algorithm::Table => {
                precheck(start, goal)?;
                if !self.tables.contains_key(goal) {
                    match DistanceTable::build(goal, limits) {
                        Ok(t) => {
                            self.tables.insert(goal.clone(), t);
                        }
                        // A table is only a way for `Auto` to go faster: one that does not
                        // fit is left out, and this goal's boards are searched instead.
                        Err(
                            e @ (SearchError::MemoryLimit { .. } | SearchError::OutOfMemory { .. }),
                        ) if self.algorithm == Algorithm::Auto => {
                            self.untabled.insert(goal.clone());
                            self.notes.push(format!(
                                "no distance table for goal {goal} ({e}); solving by idastar"
                            ));
                            let sol =
                                solve(start, goal, Algorithm::Idastar, self.heuristic, limits)?;
                            return Ok((sol, Algorithm::Idastar));
                        }
                        Err(e) => return Err(e),
                    }
                }
                match self.tables[goal].solve(start) {
                    Err(e @ SearchError::Inconsistent { .. }) => {
                        // A table that contradicts itself is dropped; the board is solved
                        // by search instead, and the caller hears why.
                        self.tables.remove(goal);
                        self.notes.push(format!(
                            "the distance table for goal {goal} is unusable ({e}); solving by \
                             idastar instead"
                        ));
                        let sol = solve(start, goal, Algorithm::Idastar, self.heuristic, limits)?;
                        return Ok((sol, Algorithm::Idastar));
                    }
                    r => r?,
                }
            }
            // Auto past 25 cells: a short exact search first (boards a few moves from
            // the goal are common, and the fast solver's route is long on them), then
            // the fast solver.
            Algorithm::Fast if self.algorithm == Algorithm::Auto => {
                return quick_or_fast(start, goal, self.heuristic, limits);
            }
            a => solve(start, goal, a, self.heuristic, limits)?,
        };
        Ok((sol, algo))
    }

    /// What the solver had to do differently from what was asked since the last call
    /// (a table found inconsistent and dropped, say), for the caller to pass on.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }
}

/// What `Auto` answers on boards of [`FAST_FROM`] cells or more: IDA* with `heuristic`
/// for [`AUTO_QUICK_NODES`] nodes (boards a few dozen moves from the goal are common,
/// and the fast solver's route is long on them), else the fast solver. Returns the
/// algorithm that answered: `Idastar` (proven optimal) or `Fast`.
///
/// ```
/// use npuzzle::search::quick_or_fast;
/// use npuzzle::{Algorithm, Board, Direction, HeuristicKind, Limits};
/// let goal = Board::solved("16x16".parse().unwrap());
/// let mut start = goal.clone();
/// start.apply(Direction::Right).unwrap();
/// let (sol, algo) = quick_or_fast(&start, &goal, HeuristicKind::LinearConflict, &Limits::default()).unwrap();
/// assert_eq!((sol.len(), algo), (1, Algorithm::Idastar));
/// ```
pub fn quick_or_fast(
    start: &Board,
    goal: &Board,
    heuristic: HeuristicKind,
    limits: &Limits,
) -> Result<(Solution, Algorithm), SearchError> {
    let quick = Limits {
        max_nodes: Some(limits.max_nodes.unwrap_or(u64::MAX).min(AUTO_QUICK_NODES)),
        ..limits.clone()
    };
    match solve(start, goal, Algorithm::Idastar, heuristic, &quick) {
        Ok(sol) => Ok((sol, Algorithm::Idastar)),
        Err(SearchError::TimeLimit { .. }) => {
            // The fast solver's own small searches report no progress: their bounds are
            // not the board's.
            let quiet = Limits {
                progress: None,
                ..limits.clone()
            };
            Ok((fast(start, goal, &quiet)?, Algorithm::Fast))
        }
        Err(e) => Err(e),
    }
}

/// An anytime answer: `result` if the exact search finished; if it stopped at its time
/// limit or node budget (not cancelled), the fast solver's answer ([`fast_pdb`] when
/// databases for the goal are at hand, else [`fast`]) with the lower bound the exact
/// search proved (`Some(bound)`: the solution is not proven optimal). Any other error is
/// passed on.
///
/// ```
/// use npuzzle::search::{idastar, or_fast};
/// use npuzzle::{Board, HeuristicKind, Limits};
/// let start: Board = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let limits = Limits { max_nodes: Some(10_000), ..Limits::default() };
/// let exact = idastar(&start, &goal, HeuristicKind::Manhattan, &limits);
/// let (answer, bound) = or_fast(&start, &goal, exact, None, &limits).unwrap();
/// let bound = bound.expect("the exact search ran out of nodes");
/// assert!(bound as usize <= answer.solution.len());
/// ```
pub fn or_fast(
    start: &Board,
    goal: &Board,
    result: Result<Solution, SearchError>,
    pdbs: Option<&PdbHeuristic>,
    limits: &Limits,
) -> Result<(FastAnswer, Option<u32>), SearchError> {
    let cancelled = limits
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
    match result {
        Ok(solution) => Ok((
            FastAnswer {
                solution,
                weight: None,
                lower_bound: 0,
            },
            None,
        )),
        Err(SearchError::TimeLimit { lower_bound, .. }) if !cancelled => {
            // The fast solver takes milliseconds even on 16x16: no budget of its own
            // beyond a clock that cannot stop it in practice.
            // (Its own searches report no progress: their bounds are not the board's.)
            let quick = Limits {
                max_nodes: None,
                time_limit: Some(std::time::Duration::from_secs(60)),
                progress: None,
                ..limits.clone()
            };
            let answer = match pdbs {
                Some(h) => fast_pdb(start, goal, h, &quick)?,
                None => FastAnswer {
                    solution: fast(start, goal, &quick)?,
                    weight: None,
                    lower_bound: 0,
                },
            };
            Ok((answer, Some(lower_bound)))
        }
        Err(e) => Err(e),
    }
}

/// The searches `npuzzle compare` and the web page's Compare run on one board, in the
/// order they are shown: the blind searches, then A* and IDA* with every heuristic, then
/// the distance table.
pub fn compared() -> Vec<(Algorithm, Option<HeuristicKind>)> {
    let mut v = vec![
        (Algorithm::Bfs, None),
        (Algorithm::Bibfs, None),
        (Algorithm::Iddfs, None),
    ];
    for h in HeuristicKind::ALL {
        v.push((Algorithm::Astar, Some(h)));
    }
    for h in HeuristicKind::ALL {
        v.push((Algorithm::Idastar, Some(h)));
    }
    v.push((Algorithm::Table, None));
    v
}

/// Solves one board with the named algorithm (`Auto` as in [`Solver`]); `heuristic` is
/// used by `astar` and `idastar` (and by `auto` when it picks `idastar`).
///
/// ```
/// use npuzzle::{solve, Algorithm, Board, HeuristicKind, Limits};
/// let start: Board = "0 1 3/4 2 5/7 8 6".parse().unwrap();
/// let goal = Board::solved(start.size());
/// for algo in Algorithm::ALL {
///     let s = solve(&start, &goal, algo, HeuristicKind::Manhattan, &Limits::default()).unwrap();
///     assert_eq!(s.len(), 4, "{algo}");
/// }
/// ```
pub fn solve(
    start: &Board,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    match algorithm {
        Algorithm::Auto => Solver::new(Algorithm::Auto, heuristic, limits.clone())
            .solve(start, goal)
            .map(|(s, _)| s),
        Algorithm::Bfs => bfs(start, goal, limits),
        Algorithm::Bibfs => bibfs(start, goal, limits),
        Algorithm::Astar => astar(start, goal, heuristic, limits),
        Algorithm::Iddfs => iddfs(start, goal, limits),
        Algorithm::Idastar => idastar(start, goal, heuristic, limits),
        Algorithm::Table => {
            precheck(start, goal)?;
            let watch = Watch::new(limits);
            let table = DistanceTable::build(goal, limits)?;
            let mut s = table.solve(start)?;
            s.stats.elapsed = watch.elapsed();
            s.stats.peak_stored = table.states();
            Ok(s)
        }
        Algorithm::Fast => fast(
            start,
            goal,
            &Limits {
                progress: None,
                ..limits.clone()
            },
        ),
    }
}
