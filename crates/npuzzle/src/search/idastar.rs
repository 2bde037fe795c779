use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::{with_heuristic, Heuristic, HeuristicKind};
use crate::limits::{Limits, Watch};
use crate::moves::Direction;
use crate::moves::MoveTable;
use crate::parity::{precheck, solution_parity};
use crate::solution::{Solution, Stats};

use super::passes::{deepen, per_mille, weigh, weighted_bound, Bound, Pass, Passes};

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
    with_heuristic!(heuristic, goal, "idastar", h => run(start, goal, h, "idastar", limits))
}

/// The depth-first core of IDA* and IDDFS (which is IDA* with `h` only used to
/// recognise the goal and `prune` false).
pub(crate) struct Dfs<'a, H> {
    h: &'a H,
    prune: bool,
    /// The weight on the estimate, in thousandths (1000: plain IDA*).
    per_mille: u64,
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
            per_mille: 1000,
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

    /// The estimate as the bound sees it: weighted (rounded down) when a weight is set.
    #[inline(always)]
    fn weigh(&self, hv: u32) -> u32 {
        weigh(hv, self.per_mille)
    }

    /// Searches below the current state; true when the goal was reached (the path holds
    /// the moves).
    fn dfs(&mut self, blank: usize, g: u32, hv: u32, back: Option<Direction>) -> bool {
        let f = if self.prune { g + self.weigh(hv) } else { g };
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
        let first = if self.prune {
            self.weigh(self.root_h)
        } else {
            0
        };
        let watch = self.watch.clone();
        deepen(self, first, parity, &watch, name, self.per_mille)?;
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

    fn generated(&self) -> u64 {
        self.stats.generated
    }
}

pub(crate) fn run<H: Heuristic>(
    start: &Board,
    goal: &Board,
    h: &H,
    name: &'static str,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    search(start, goal, h, name == "idastar", 1000, 0, name, limits).map(|(s, _)| s)
}

/// The depth-first search from `start`: pruning by `h` (weighted by `per_mille`
/// thousandths) if `prune`, collecting up to `want` solutions if `want > 0`; the first
/// solution and all those collected.
#[allow(clippy::too_many_arguments)]
fn search<H: Heuristic>(
    start: &Board,
    goal: &Board,
    h: &H,
    prune: bool,
    per_mille: u64,
    want: usize,
    name: &'static str,
    limits: &Limits,
) -> Result<(Solution, Vec<Vec<Direction>>), SearchError> {
    let watch = Watch::new(limits);
    if precheck(start, goal)? {
        let none = Solution {
            moves: vec![],
            stats: Stats::default(),
        };
        return Ok((none, vec![vec![]]));
    }
    let mut dfs = Dfs::new(h, start, goal, prune, watch);
    dfs.per_mille = per_mille;
    dfs.want = want;
    // Weighted bounds keep no parity. A stopped weighted search proved, of the shortest
    // solution, only that weight x its length reaches the bound.
    let parity = (per_mille == 1000).then(|| solution_parity(start, goal));
    let sol = weighted_bound(dfs.run(parity, name), per_mille)?;
    Ok((sol, std::mem::take(&mut dfs.found)))
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
    let per_mille = per_mille(weight, "idastar")?;
    with_heuristic!(heuristic, goal, "idastar", h => {
        search(start, goal, h, true, per_mille, 0, "idastar", limits).map(|(s, _)| s)
    })
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
) -> Result<(Vec<Vec<Direction>>, crate::solution::Stats), SearchError> {
    with_heuristic!(heuristic, goal, "idastar", h => {
        search(start, goal, h, true, 1000, max.max(1), "idastar", limits)
            .map(|(sol, all)| (all, sol.stats))
    })
}
