use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::{
    Heuristic, HeuristicKind, LinearConflict, Manhattan, Misplaced, WalkingDistance,
};
use crate::limits::{Limits, Watch};
use crate::moves::Direction;
use crate::moves::MoveTable;
use crate::parity::{precheck, solution_parity};
use crate::solution::{Solution, Stats};

/// Iterative-deepening A*: a shortest solution in memory proportional to its length.
///
/// Depth-first passes bounded by `f = g + h`; the board is changed in place and undone,
/// the heuristic updated per move, the inverse of the previous move skipped. Every
/// solution of a board has the same parity, so each new bound is the smallest `f` that
/// exceeded the last one, rounded up to that parity. Any board size.
///
/// ```
/// use npuzzle::{idastar, Board, HeuristicKind, Limits};
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let s = idastar(&start, &goal, HeuristicKind::LinearConflict, &Limits::default()).unwrap();
/// assert_eq!(s.len(), 31);
/// ```
pub fn idastar(
    start: &Board,
    goal: &Board,
    heuristic: HeuristicKind,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    match heuristic {
        HeuristicKind::Misplaced => run(start, goal, &Misplaced::new(goal), "idastar", limits),
        HeuristicKind::Manhattan => run(start, goal, &Manhattan::new(goal), "idastar", limits),
        HeuristicKind::LinearConflict => {
            run(start, goal, &LinearConflict::new(goal), "idastar", limits)
        }
        HeuristicKind::WalkingDistance => match WalkingDistance::new(goal) {
            Some(h) => run(start, goal, &h, "idastar", limits),
            None => Err(SearchError::Unsupported {
                algorithm: "idastar",
                reason: format!(
                    "walking distance handles boards up to 4x4, not {}",
                    goal.size()
                ),
            }),
        },
    }
}

/// How one bounded depth-first pass ended.
pub(crate) enum Pass {
    /// A solution within the bound (the search holds it).
    Found,
    /// No solution within the bound: the smallest `f` that exceeded it.
    Over(u32),
    /// Stopped by the clock or the cancel flag.
    Stopped,
}

impl Pass {
    /// How a pass ended: with a solution (or, collecting several, any), stopped, or over
    /// the bound with `next` the smallest `f` beyond it.
    pub(crate) fn end(solved: bool, stopped: bool, next: u32) -> Pass {
        if solved {
            Pass::Found
        } else if stopped {
            Pass::Stopped
        } else {
            Pass::Over(next)
        }
    }
}

/// A pass's bound, the smallest `f` seen beyond it, and whether the clock or the cancel
/// flag stopped it: what every IDA* kernel keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound {
    /// The pass's bound on `f = g + h`.
    pub(crate) limit: u32,
    /// The smallest `f` that went over it so far.
    pub(crate) next: u32,
    /// Whether the search was stopped.
    pub(crate) stopped: bool,
}

impl Bound {
    pub(crate) fn new() -> Bound {
        Bound {
            limit: 0,
            next: u32::MAX,
            stopped: false,
        }
    }

    /// Starts a pass within `limit`.
    pub(crate) fn start(&mut self, limit: u32) {
        self.limit = limit;
        self.next = u32::MAX;
    }

    /// Whether `f` goes over the bound (and so is cut off, remembered for the next pass).
    #[inline(always)]
    pub(crate) fn cut(&mut self, f: u32) -> bool {
        if f > self.limit {
            self.next = self.next.min(f);
            true
        } else {
            false
        }
    }

    /// How the pass ended, `solved` or not.
    pub(crate) fn end(&self, solved: bool) -> Pass {
        Pass::end(solved, self.stopped, self.next)
    }
}

/// A depth-first search run in passes of rising bounds: the plain and the
/// pattern-database IDA*, IDDFS, and the parallel passes. Each keeps its own kernel,
/// specialised for speed; [`deepen`] runs the passes.
pub(crate) trait Passes {
    /// Runs one pass within `bound`.
    fn pass(&mut self, bound: u32) -> Pass;
    /// Nodes expanded so far, over all passes.
    fn expanded(&self) -> u64;
}

/// The one iterative-deepening loop: passes with bounds from `first` raised to the
/// solutions' parity, then each the smallest `f` that went over the last one, raised to
/// that parity (all single-tile solutions of a board share it, so bounds rise by 2;
/// `None` where they do not, as in the multi-tile metric); the clock and
/// cancel flag are checked between passes as well as within them. Returns the bound of
/// the pass that found a solution: its length, when the estimates are admissible.
///
/// On a stop the error's lower bound is the bound of the unfinished pass: the passes
/// before it proved every solution at least that long.
pub(crate) fn deepen(
    search: &mut impl Passes,
    first: u32,
    parity: Option<u32>,
    watch: &Watch,
    name: &'static str,
) -> Result<u32, SearchError> {
    // Raised to the solutions' parity where all solutions share one.
    let round = |b: u32| parity.map_or(b, |p| b + (b + p) % 2);
    let mut bound = round(first);
    loop {
        match search.pass(bound) {
            Pass::Found => return Ok(bound),
            Pass::Stopped => return Err(watch.timeout(name, bound, search.expanded())),
            Pass::Over(over) => {
                assert!(
                    over != u32::MAX,
                    "the parity test admitted an unreachable goal"
                );
                bound = round(over);
                if watch.expired() {
                    return Err(watch.timeout(name, bound, search.expanded()));
                }
            }
        }
    }
}

/// The depth-first core of IDA* and IDDFS (which is IDA* with `h` only used to
/// recognise the goal and `prune` false).
pub(crate) struct Dfs<'a, H> {
    h: &'a H,
    prune: bool,
    mt: MoveTable,
    cells: Vec<u8>,
    goal: &'a [u8],
    root_blank: usize,
    root_h: u32,
    path: Vec<Direction>,
    stats: Stats,
    b: Bound,
    watch: Watch,
    /// With `want > 0`, collect up to `want` solutions instead of stopping at the first.
    want: usize,
    found: Vec<Vec<Direction>>,
}

impl<'a, H: Heuristic> Dfs<'a, H> {
    /// A search from `start` towards `goal`, pruning by `h` if `prune`.
    fn new(h: &'a H, start: &Board, goal: &'a Board, prune: bool, watch: Watch) -> Self {
        Dfs {
            h,
            prune,
            mt: MoveTable::new(start.size()),
            cells: start.cells().to_vec(),
            goal: goal.cells(),
            root_blank: start.blank(),
            root_h: h.estimate(start.cells()),
            path: Vec::new(),
            stats: Stats::default(),
            b: Bound::new(),
            watch,
            want: 0,
            found: Vec::new(),
        }
    }

    /// Searches below the current state; true when the goal was reached (the path holds
    /// the moves).
    fn dfs(&mut self, blank: usize, g: u32, hv: u32, back: Option<Direction>) -> bool {
        let f = if self.prune { g + hv } else { g };
        if self.b.cut(f) {
            return false;
        }
        if hv == 0 && self.cells == self.goal {
            if self.want == 0 {
                return true;
            }
            self.found.push(self.path.clone());
            return self.found.len() >= self.want;
        }
        if g == self.b.limit {
            // Only reached without pruning (IDDFS): the depth limit.
            self.b.next = self.b.next.min(g + 1);
            return false;
        }
        self.stats.expanded += 1;
        if self.watch.poll(self.stats.expanded, None) {
            self.b.stopped = true;
            return false;
        }
        let moves = self.mt.from(blank).len();
        for k in 0..moves {
            let (d, from) = self.mt.from(blank)[k];
            if Some(d.inverse()) == back {
                continue;
            }
            self.stats.generated += 1;
            let tile = self.cells[from];
            self.cells[blank] = tile;
            self.cells[from] = 0;
            let h2 = self.h.update(hv, &self.cells, tile, from, blank);
            self.path.push(d);
            if self.dfs(from, g + 1, h2, Some(d)) {
                return true;
            }
            self.path.pop();
            self.cells[from] = tile;
            self.cells[blank] = 0;
            if self.b.stopped {
                return false;
            }
        }
        false
    }

    /// Runs the passes; the first solution found (all of them are in `found` when
    /// `want > 0`).
    fn run(&mut self, parity: Option<u32>, name: &'static str) -> Result<Solution, SearchError> {
        let first = if self.prune { self.root_h } else { 0 };
        let watch = self.watch.clone();
        deepen(self, first, parity, &watch, name)?;
        if let Some(first) = self.found.first() {
            self.path = first.clone();
        }
        self.stats.peak_stored = self.path.len() as u64 + 1;
        self.stats.elapsed = self.watch.elapsed();
        Ok(Solution {
            moves: std::mem::take(&mut self.path),
            stats: self.stats,
        })
    }
}

impl<H: Heuristic> Passes for Dfs<'_, H> {
    fn pass(&mut self, bound: u32) -> Pass {
        self.b.start(bound);
        // The deepest path this pass can hold.
        self.stats.peak_stored = self.stats.peak_stored.max(bound as u64 + 1);
        let hit = self.dfs(self.root_blank, 0, self.root_h, None);
        self.b.end(hit || !self.found.is_empty())
    }

    fn expanded(&self) -> u64 {
        self.stats.expanded
    }
}

pub(crate) fn run<H: Heuristic>(
    start: &Board,
    goal: &Board,
    h: &H,
    name: &'static str,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let watch = Watch::new(limits);
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats: Stats::default(),
        });
    }
    let mut dfs = Dfs::new(h, start, goal, name == "idastar", watch);
    dfs.run(Some(solution_parity(start, goal)), name)
}

/// An estimate scaled by a weight (in thousandths), rounded down.
struct Weighted<'a, H> {
    h: &'a H,
    per_mille: u64,
}

impl<H: Heuristic> Heuristic for Weighted<'_, H> {
    fn estimate(&self, cells: &[u8]) -> u32 {
        (self.h.estimate(cells) as u64 * self.per_mille / 1000) as u32
    }

    fn update(&self, _h: u32, cells: &[u8], _tile: u8, _from: usize, _to: usize) -> u32 {
        // The weighted value does not give back the plain one: estimate afresh.
        self.estimate(cells)
    }
}

/// Weighted IDA*: passes bounded by `g + floor(weight x h)`, so a solution comes sooner
/// and is at most `weight` times the shortest (along a shortest path `g + weight x h` never
/// exceeds `weight` times its length, so no pass beyond that bound is needed). `weight`
/// from 1 to 100; 1 is plain IDA*.
///
/// ```
/// use npuzzle::search::idastar_weighted;
/// use npuzzle::{Board, HeuristicKind, Limits};
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let s = idastar_weighted(&start, &goal, HeuristicKind::Manhattan, 1.5, &Limits::default()).unwrap();
/// assert!(s.len() <= 46); // 1.5 x 31
/// ```
pub fn idastar_weighted(
    start: &Board,
    goal: &Board,
    heuristic: HeuristicKind,
    weight: f64,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    if !(1.0..=100.0).contains(&weight) {
        return Err(SearchError::Unsupported {
            algorithm: "idastar",
            reason: format!("expected a weight from 1 to 100, found {weight}"),
        });
    }
    let per_mille = (weight * 1000.0).round() as u64;
    fn go<H: Heuristic>(
        start: &Board,
        goal: &Board,
        h: &H,
        per_mille: u64,
        limits: &Limits,
    ) -> Result<Solution, SearchError> {
        let watch = Watch::new(limits);
        if precheck(start, goal)? {
            return Ok(Solution {
                moves: vec![],
                stats: Stats::default(),
            });
        }
        let w = Weighted { h, per_mille };
        let mut dfs = Dfs::new(&w, start, goal, true, watch);
        // Weighted bounds keep no parity. A stopped search proved, of the shortest
        // solution, only that weight x its length reaches the bound.
        dfs.run(None, "idastar").map_err(|e| match e {
            SearchError::TimeLimit {
                algorithm,
                elapsed,
                lower_bound,
                expanded,
            } => SearchError::TimeLimit {
                algorithm,
                elapsed,
                lower_bound: ((lower_bound as u64 * 1000).div_ceil(per_mille)) as u32,
                expanded,
            },
            e => e,
        })
    }
    match heuristic {
        HeuristicKind::Misplaced => go(start, goal, &Misplaced::new(goal), per_mille, limits),
        HeuristicKind::Manhattan => go(start, goal, &Manhattan::new(goal), per_mille, limits),
        HeuristicKind::LinearConflict => {
            go(start, goal, &LinearConflict::new(goal), per_mille, limits)
        }
        HeuristicKind::WalkingDistance => match WalkingDistance::new(goal) {
            Some(h) => go(start, goal, &h, per_mille, limits),
            None => Err(SearchError::Unsupported {
                algorithm: "idastar",
                reason: format!(
                    "walking distance handles boards up to 4x4, not {}",
                    goal.size()
                ),
            }),
        },
    }
}

/// Every optimal solution (up to `max` of them) by IDA*: the last pass, whose bound is the
/// optimal length, goes on after the first solution. Each path is found once (a tree
/// search; shortest paths never undo a move).
///
/// ```
/// use npuzzle::search::idastar_all;
/// use npuzzle::{Board, HeuristicKind, Limits};
/// let start: Board = "1 2 3/4 5 6/0 7 8".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let (all, _) = idastar_all(&start, &goal, HeuristicKind::Manhattan, &Limits::default(), 100).unwrap();
/// assert_eq!(all.len(), 1);
/// let hard: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let (all, _) = idastar_all(&hard, &goal, HeuristicKind::Manhattan, &Limits::default(), 5).unwrap();
/// assert_eq!(all.len(), 5);
/// assert!(all.iter().all(|p| p.len() == 31));
/// assert!((1..5).all(|i| all[i] != all[i - 1]));
/// ```
pub fn idastar_all(
    start: &Board,
    goal: &Board,
    heuristic: HeuristicKind,
    limits: &Limits,
    max: usize,
) -> Result<(Vec<Vec<Direction>>, crate::search::Stats), SearchError> {
    fn go<H: Heuristic>(
        start: &Board,
        goal: &Board,
        h: &H,
        limits: &Limits,
        max: usize,
    ) -> Result<(Vec<Vec<Direction>>, Stats), SearchError> {
        let watch = Watch::new(limits);
        if precheck(start, goal)? {
            return Ok((vec![vec![]], Stats::default()));
        }
        let mut dfs = Dfs::new(h, start, goal, true, watch);
        dfs.want = max.max(1);
        let sol = dfs.run(Some(solution_parity(start, goal)), "idastar")?;
        Ok((std::mem::take(&mut dfs.found), sol.stats))
    }
    match heuristic {
        HeuristicKind::Misplaced => go(start, goal, &Misplaced::new(goal), limits, max),
        HeuristicKind::Manhattan => go(start, goal, &Manhattan::new(goal), limits, max),
        HeuristicKind::LinearConflict => go(start, goal, &LinearConflict::new(goal), limits, max),
        HeuristicKind::WalkingDistance => match WalkingDistance::new(goal) {
            Some(h) => go(start, goal, &h, limits, max),
            None => Err(SearchError::Unsupported {
                algorithm: "idastar",
                reason: format!(
                    "walking distance handles boards up to 4x4, not {}",
                    goal.size()
                ),
            }),
        },
    }
}
