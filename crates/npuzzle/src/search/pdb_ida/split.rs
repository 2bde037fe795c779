//! The split search: one pass's frontier, and the passes below its nodes, each a
//! function of its inputs alone so that any machine can run one (the Dask face does).

use super::super::fsm::Fsm;
use super::{prepare, Ida};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::limits::{Limits, Watch};
use crate::moves::{Direction, MoveTable};
use crate::solution::Stats;

/// The top of one pass of database IDA*, cut off a few levels down: the roots of the
/// subtrees below, for [`pass_subtrees`] to search elsewhere (other threads, processes or
/// machines). What [`pass_frontier`] returns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frontier {
    /// The moves from the start to each subtree's root, in the order a one-thread pass
    /// meets them; every root is within the bound.
    pub paths: Vec<Vec<Direction>>,
    /// A solution met above the frontier (the pass is then over: it is optimal).
    pub found: Option<Vec<Direction>>,
    /// The smallest `f` beyond the bound seen above the frontier (`None`: none was cut).
    pub next_bound: Option<u32>,
    /// Nodes expanded and generated above the frontier.
    pub stats: Stats,
}

/// What [`pass_subtrees`] found below some of a frontier's roots.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SubtreePass {
    /// The first root (its index in the paths given) whose subtree holds a solution within
    /// the bound, and that solution's moves from the start. The search stops there, as a
    /// one-thread pass would.
    pub found: Option<(usize, Vec<Direction>)>,
    /// The smallest `f` beyond the bound seen in the subtrees searched (`None`: none).
    pub next_bound: Option<u32>,
    /// Nodes expanded and generated in the subtrees.
    pub stats: Stats,
}

/// The first part of one IDA* pass within `bound` (on `f = g + h`, `h` the databases'
/// estimate): the tree from `start` expanded level by level, pruned by the bound, until at
/// least `min_paths` roots lie at the deepest level (or none is left). With
/// [`pass_subtrees`] over all of its paths, it does the work of one pass of
/// [`idastar_pdb`](super::idastar_pdb): in a pass without a solution the same nodes expanded and generated
/// and the same smallest `f` beyond the bound; in the pass with one, the same first
/// solution when the roots are searched in order, and the same nodes but for those the
/// frontier holds past that solution's root (a one-thread pass stops before them). That
/// is how one hard board
/// is spread over many machines (npuzzle's Python package does it on a Dask cluster):
/// each pass's subtrees go out, the smallest next bound and any solution come back, and the
/// first pass that finds one ends the search with an optimal answer.
///
/// ```
/// use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
/// use npuzzle::search::{idastar_pdb, pass_frontier, pass_subtrees};
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let mut bound = h.estimate(&start) | 1; // 31 moves at least: solutions here are odd
/// let moves = loop {
///     let top = pass_frontier(&start, &goal, &h, bound, 8, &limits).unwrap();
///     assert!(top.found.is_none());
///     // The roots in two pieces, as two workers would take them.
///     let (x, y) = top.paths.split_at(top.paths.len() / 2);
///     let one = pass_subtrees(&start, &goal, &h, bound, x, &limits).unwrap();
///     if let Some((_, moves)) = one.found { break moves; }
///     let two = pass_subtrees(&start, &goal, &h, bound, y, &limits).unwrap();
///     if let Some((_, moves)) = two.found { break moves; }
///     let next = [top.next_bound, one.next_bound, two.next_bound].into_iter().flatten().min();
///     bound = next.unwrap() + (next.unwrap() - bound) % 2; // the solutions' parity
/// };
/// assert_eq!(moves.len(), 31);
/// assert_eq!(moves.len(), idastar_pdb(&start, &goal, &h, &limits).unwrap().len());
/// ```
pub fn pass_frontier(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    bound: u32,
    min_paths: usize,
    limits: &Limits,
) -> Result<Frontier, SearchError> {
    let watch = Watch::new(limits);
    if prepare(start, goal, h)? {
        return Ok(Frontier {
            found: Some(vec![]),
            ..Frontier::default()
        });
    }
    by_sides!(h, frontier_in(start, goal, h, bound, min_paths, &watch))
}

fn frontier_in<const S: usize, const L: usize>(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    bound: u32,
    min_paths: usize,
    watch: &Watch,
) -> Result<Frontier, SearchError> {
    let mt = MoveTable::new(start.size());
    let mut root = Ida::<S, L>::new(h, &mt, start.cells(), goal.cells(), watch.clone());
    let mut paths = Vec::new();
    for levels in 1..=bound.max(1) {
        paths.clear();
        root.b.start(bound);
        root.stats = Stats::default();
        if root.collect(start.blank(), 0, Fsm::START, levels, &mut paths) {
            return Ok(Frontier {
                paths: Vec::new(),
                found: Some(std::mem::take(&mut root.path)),
                next_bound: None,
                stats: root.stats,
            });
        }
        if watch.expired() {
            return Err(watch.timeout("idastar", bound, root.stats.expanded, root.stats.generated));
        }
        // Enough roots, or none at all (the bound cuts the tree off above this level).
        if paths.len() >= min_paths || paths.is_empty() {
            break;
        }
    }
    Ok(Frontier {
        paths: paths.into_iter().map(|s| s.path).collect(),
        found: None,
        next_bound: (root.b.next != u32::MAX).then_some(root.b.next),
        stats: root.stats,
    })
}

/// The rest of one IDA* pass within `bound`: the subtrees below `paths` (each the moves
/// from `start` to a root, as [`pass_frontier`] gives them), searched in order on this
/// thread, stopping at the first solution. An illegal path is refused before any search
/// (a `BadRequest` error naming it); the clock or the cancel flag in `limits` stops the
/// search with a time-limit error. See [`pass_frontier`] for the whole loop.
pub fn pass_subtrees(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    bound: u32,
    paths: &[Vec<Direction>],
    limits: &Limits,
) -> Result<SubtreePass, SearchError> {
    let watch = Watch::new(limits);
    if prepare(start, goal, h)? {
        return Ok(SubtreePass {
            found: (!paths.is_empty()).then(|| (0, vec![])),
            ..SubtreePass::default()
        });
    }
    by_sides!(h, subtrees_in(start, goal, h, bound, paths, &watch))
}

fn subtrees_in<const S: usize, const L: usize>(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    bound: u32,
    paths: &[Vec<Direction>],
    watch: &Watch,
) -> Result<SubtreePass, SearchError> {
    let mt = MoveTable::new(start.size());
    let fsm = Fsm::for_cells(start.size().cells());
    // Each root's machine state, found while its path is checked.
    let mut states = Vec::with_capacity(paths.len());
    for (i, path) in paths.iter().enumerate() {
        let mut blank = start.blank();
        for (k, &d) in path.iter().enumerate() {
            blank = mt.mover(blank, d).ok_or_else(|| SearchError::BadRequest {
                field: "paths",
                reason: format!(
                    "expected legal moves from the start, found move {} ({d}) of path {i} \
                     off the board",
                    k + 1
                ),
            })?;
        }
        let state = fsm.walk(path);
        if state == Fsm::REFUSED {
            return Err(SearchError::BadRequest {
                field: "paths",
                reason: format!(
                    "expected the roots pass_frontier gives, found path {i}, which repeats \
                     another path's position (pass_frontier never gives it)"
                ),
            });
        }
        states.push(state);
    }
    let mut ida = Ida::<S, L>::new(h, &mt, start.cells(), goal.cells(), watch.clone());
    let mut next = u32::MAX;
    let mut undo = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        if watch.expired() {
            return Err(watch.timeout("idastar", bound, ida.stats.expanded, ida.stats.generated));
        }
        let blank = ida.descend(start.blank(), path, &mut undo);
        ida.b.start(bound);
        let hit = ida.dfs(blank, path.len() as u32, states[i]);
        next = next.min(ida.b.next);
        if hit {
            return Ok(SubtreePass {
                found: Some((i, ida.path.clone())),
                next_bound: (next != u32::MAX).then_some(next),
                stats: ida.stats,
            });
        }
        if ida.b.stopped {
            return Err(watch.timeout("idastar", bound, ida.stats.expanded, ida.stats.generated));
        }
        ida.climb(&undo);
    }
    Ok(SubtreePass {
        found: None,
        next_bound: (next != u32::MAX).then_some(next),
        stats: ida.stats,
    })
}

/// The bounds of a split search's passes, as the one-machine search takes them: the first
/// is the databases' estimate of the board, each next one the smallest f a pass saw beyond
/// its bound, rounded up to the parity every solution of the board shares.
///
/// ```
/// use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
/// use npuzzle::search::SplitBounds;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let mut bounds = SplitBounds::new(&start, &goal, &h).unwrap();
/// assert_eq!(bounds.bound() % 2, 1); // every solution here is odd
/// let first = bounds.bound();
/// assert_eq!(bounds.next(Some(first + 1)).unwrap(), first + 2);
/// assert!(bounds.next(None).is_err()); // nothing beyond the bound, no solution: unsound
/// ```
#[derive(Debug, Clone)]
pub struct SplitBounds {
    bound: u32,
    parity: u32,
}

impl SplitBounds {
    /// The first pass's bound for `start`, once the board, its goal and the databases are
    /// checked to belong together (and the board to reach the goal).
    pub fn new(start: &Board, goal: &Board, h: &PdbHeuristic) -> Result<SplitBounds, SearchError> {
        prepare(start, goal, h)?;
        let parity = crate::parity::solution_parity(start, goal);
        let estimate = h.estimate(start);
        Ok(SplitBounds {
            bound: estimate + (estimate + parity) % 2,
            parity,
        })
    }

    /// The bound of the pass to run now.
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// The next pass's bound after one that found no solution and saw `beyond` as its
    /// smallest f past the bound (none: it saw nothing past it, which sound databases
    /// never allow on a board that reaches the goal).
    pub fn next(&mut self, beyond: Option<u32>) -> Result<u32, SearchError> {
        let Some(b) = beyond else {
            return Err(SearchError::Inconsistent {
                algorithm: "idastar",
                reason: format!(
                    "a pass within {} found no solution and nothing beyond its bound: the \
                     databases are unsound",
                    self.bound
                ),
            });
        };
        self.bound = b + (b + self.parity) % 2;
        Ok(self.bound)
    }
}
