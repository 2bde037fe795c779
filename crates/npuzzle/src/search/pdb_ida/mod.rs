//! IDA* with additive pattern databases, tuned for the 15- and 24-puzzle.

//!
//! Its rooms: the search itself on one thread (`ida`), the search shared by threads
//! (`parallel`), and the split search whose passes run anywhere (`split`: the frontier
//! and its subtrees, as a Dask cluster runs them); the entry points here.

use super::fsm::Fsm;
use super::passes::{deepen, weighted_bound};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::limits::{Limits, Watch};
use crate::moves::{Direction, MoveTable};
use crate::parity::{precheck, solution_parity};
use crate::solution::{Solution, Stats};

/// What undoing a move needs: the old index and entry of each lookup holding the tile.
type Undo<const L: usize> = [(u64, u32); L];

/// One move walked down to a root: the tile, the cells it left and entered, and its undo.
type Step<const L: usize> = (u8, usize, usize, Undo<L>);

/// Calls `f::<S, L>(args)` with `S` at least the number of sums (sides) of the heuristic
/// `h` and `L` at least the most distinct lookups any tile is in: the search's
/// bookkeeping is sized for them at compile time (sides past the heuristic's stay 0, which
/// leaves the largest sum as it is; lookup slots past a tile's are unused).
macro_rules! by_sides {
    ($h:expr, $f:ident ( $($arg:expr),* )) => {
        match ($h.side_count(), $h.most_tile_lookups()) {
            (..=2, ..=2) => $f::<2, 2>($($arg),*),
            (..=4, ..=4) => $f::<4, 4>($($arg),*),
            (..=8, ..=4) => $f::<8, 4>($($arg),*),
            (..=8, _) => $f::<8, 8>($($arg),*),
            (..=16, ..=8) => $f::<16, 8>($($arg),*),
            (..=16, ..=12) => $f::<16, 12>($($arg),*),
            (..=16, ..=16) => $f::<16, 16>($($arg),*),
            (..=32, ..=8) => $f::<32, 8>($($arg),*),
            _ => $f::<32, 32>($($arg),*),
        }
    };
}

mod ida;
mod parallel;
mod split;

use ida::Ida;
pub use parallel::idastar_pdb_parallel;
use parallel::run_weighted;
pub use split::{pass_frontier, pass_subtrees, Frontier, SplitBounds, SubtreePass};

/// Checks a board against the databases before any search: the sizes, solvability, and
/// that the databases were built for this goal (with another goal's databases the
/// estimates mean nothing and the search might never end). `Ok(true)` when the start is
/// already the goal.
fn prepare(start: &Board, goal: &Board, h: &PdbHeuristic) -> Result<bool, SearchError> {
    let done = precheck(start, goal)?;
    if h.goal() != goal {
        return Err(SearchError::Unsupported {
            algorithm: "idastar",
            reason: format!(
                "the pattern databases are for goal {}, not {goal}",
                h.goal()
            ),
        });
    }
    Ok(done)
}

/// The solution of a finished search, with its counters.
fn finish(moves: Vec<Direction>, mut stats: Stats, watch: &Watch) -> Solution {
    stats.peak_stored = moves.len() as u64 + 1;
    stats.elapsed = watch.elapsed();
    Solution { moves, stats }
}

/// IDA* guided by additive pattern databases (with the reflected lookup where the goal
/// allows): a shortest solution for the 15-puzzle in milliseconds to seconds.
///
/// ```
/// use npuzzle::heuristic::pdb::PatternDb;
/// use npuzzle::search::{idastar_pdb};
/// use npuzzle::heuristic::pdb::PdbHeuristic;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// assert_eq!(idastar_pdb(&start, &goal, &h, &limits).unwrap().len(), 31);
/// ```
pub fn idastar_pdb(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let watch = Watch::new(limits);
    if prepare(start, goal, h)? {
        return Ok(finish(vec![], Stats::default(), &watch));
    }
    let (mut paths, stats) = by_sides!(h, run_one(start, goal, h, &watch, 0, 1000))?;
    Ok(finish(paths.swap_remove(0), stats, &watch))
}

/// IDA* on this thread, collecting up to `want` solutions (0: stop at the first); the
/// solutions found (one when `want` is 0) and the counters.
fn run_one<const S: usize, const L: usize>(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    watch: &Watch,
    want: usize,
    per_mille: u64,
) -> Result<(Vec<Vec<Direction>>, Stats), SearchError> {
    let mt = MoveTable::new(start.size());
    let mut ida = Ida::<S, L>::new(h, &mt, start.cells(), goal.cells(), watch.clone());
    ida.want = want;
    if want > 0 {
        // Every shortest solution is wanted, twins included.
        ida.fsm = Fsm::undo_only();
    }
    ida.per_mille = per_mille;
    let f0 = ida.f(0, ida.h());
    // Plain passes step by two (all solutions share one parity); weighted ones by one.
    let parity = (per_mille == 1000).then(|| solution_parity(start, goal));
    weighted_bound(
        deepen(&mut ida, f0, parity, watch, "idastar", per_mille),
        per_mille,
    )?;
    let found = if want == 0 { vec![ida.path] } else { ida.found };
    Ok((found, ida.stats))
}

/// Weighted IDA* with pattern databases on `threads` threads: passes bounded by
/// `g + floor(weight x h)`, so a solution comes sooner and is at most `weight` times the
/// shortest (along a shortest path `g + weight x h` never exceeds `weight` times its
/// length, and each pass's bound is the least f beyond the last one, so the pass that
/// finds a solution has a bound of at most that). `weight` from 1 to 100; 1 is
/// [`idastar_pdb_parallel`]. A search stopped by its limits reports the proven lower
/// bound: the pass's bound divided by the weight.
///
/// ```
/// use npuzzle::heuristic::pdb::PatternDb;
/// use npuzzle::search::{idastar_pdb_weighted};
/// use npuzzle::heuristic::pdb::PdbHeuristic;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let s = idastar_pdb_weighted(&start, &goal, &h, 1.5, &limits, 1).unwrap();
/// assert!(s.len() >= 31 && s.len() <= 46);
/// ```
pub fn idastar_pdb_weighted(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    weight: f64,
    limits: &Limits,
    threads: usize,
) -> Result<Solution, SearchError> {
    let per_mille = super::passes::per_mille(weight, "idastar")?;
    by_sides!(h, run_weighted(start, goal, h, limits, threads, per_mille))
}

/// Every optimal solution (up to `max`) with pattern databases, on one thread: the last
/// pass goes on after the first solution; each path is found once.
///
/// ```
/// use npuzzle::heuristic::pdb::PatternDb;
/// use npuzzle::search::{idastar_pdb_all};
/// use npuzzle::heuristic::pdb::PdbHeuristic;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "1 2 3/4 5 6/0 7 8".parse().unwrap();
/// let (all, _) = idastar_pdb_all(&start, &goal, &h, &limits, 10).unwrap();
/// assert_eq!(all.len(), 1);
/// ```
pub fn idastar_pdb_all(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
    max: usize,
) -> Result<(Vec<Vec<Direction>>, Stats), SearchError> {
    let watch = Watch::new(limits);
    if prepare(start, goal, h)? {
        return Ok((vec![vec![]], Stats::default()));
    }
    let (found, mut stats) = by_sides!(h, run_one(start, goal, h, &watch, max.max(1), 1000))?;
    stats.elapsed = watch.elapsed();
    Ok((found, stats))
}
