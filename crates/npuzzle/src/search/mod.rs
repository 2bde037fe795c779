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

use std::fmt;
use std::str::FromStr;

pub use astar::{astar, astar_weighted};
pub(crate) use beam::STAGED_LAST_SIDE;
pub use beam::{
    anytime, anytime_with_databases, beam, beams_at_width, check_beam_width, AnytimeAnswer,
    ANYTIME_MAX_WIDTH, ANYTIME_SECONDS,
};
pub(crate) use beam::{anytime_above, anytime_time};
pub use beam::{ranking_samples, region_for, BIG_REGION_CELLS, BIG_REGION_FROM};
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
    pass_subtrees, Frontier, SplitBounds, SubtreePass,
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
    /// The solving core's choice for the board's size (the root's `solve`, `Core::answer`).
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

/// The fewest cells on which `Auto` uses the fast solver ([`fast`]) instead of an exact
/// search: 26, one more than the 24-puzzle's.
pub const FAST_FROM: usize = 26;

/// The nodes `Auto` gives IDA* on boards of [`FAST_FROM`] cells or more before it
/// answers with the fast solver: a few milliseconds, enough for boards a few dozen moves
/// from the goal.
pub(crate) const AUTO_QUICK_NODES: u64 = 100_000;

/// What `Auto` answers on boards of [`FAST_FROM`] cells or more: IDA* with `heuristic`
/// for [`AUTO_QUICK_NODES`] nodes (boards a few dozen moves from the goal are common,
/// and the fast solver's route is long on them), else the fast solver. Returns the
/// algorithm that answered: `Idastar` (proven optimal) or `Fast`.
pub(crate) fn quick_or_fast(
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
pub(crate) fn or_fast(
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

/// Builds ahead what the database searches of a board of `size` build when they first
/// need it (the duplicate-path machine: about 0.7 s for 5x5 in a release build, far less
/// on smaller boards), so that no search's clock counts it. Later calls return at once.
///
/// ```
/// npuzzle::search::warm_up("4x4".parse().unwrap());
/// ```
pub fn warm_up(size: crate::board::Size) {
    let _ = fsm::Fsm::for_cells(size.cells());
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

/// Solves one board with the named algorithm; `heuristic` is used by `astar` and
/// `idastar`. `Auto` is the solving core's to resolve (the root's `solve`, a `Core`): asked
/// here, it is refused.
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    match algorithm {
        Algorithm::Auto => Err(SearchError::BadRequest {
            field: "algorithm",
            reason: "auto is resolved by the solving core (npuzzle::solve or Core::answer), \
                     not by one search"
                .to_string(),
        }),
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
