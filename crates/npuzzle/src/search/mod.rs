//! Optimal searches, side by side.
//!
//! Every search returns a shortest sequence of moves with its [`Stats`], or a
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
mod bfs;
mod bidir_bfs;
mod idastar;
mod iddfs;
mod packed;
mod pdb_ida;
mod table;

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use astar::astar;
pub use bfs::bfs;
pub use bidir_bfs::bibfs;
pub use idastar::{idastar, idastar_all};
pub use iddfs::iddfs;
pub use pdb_ida::{idastar_pdb, idastar_pdb_all, idastar_pdb_parallel, PdbHeuristic};
pub use table::{DistanceTable, TABLE_MAGIC, TABLE_VERSION};

use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::heuristic::HeuristicKind;
use crate::moves::Direction;
use crate::parity::is_solvable;

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successor states generated (the inverse of the previous move is not generated).
    pub generated: u64,
    /// The most states held in memory at once (for depth-first searches: the deepest path).
    pub peak_stored: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// A shortest solution and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The moves, in tile notation directions, from the start to the goal.
    pub moves: Vec<Direction>,
    /// Counters and time.
    pub stats: Stats,
}

impl Solution {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the start was already the goal.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// Bounds on a search's memory and time.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Bytes the search may use for its tables and open lists.
    pub max_memory: u64,
    /// Wall-clock time allowed, if bounded.
    pub time_limit: Option<Duration>,
    /// Set to `true` from another thread to stop the search as if its time ran out.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Limits {
    /// Half of the machine's memory (what `/proc/meminfo` calls available, if smaller),
    /// 2 GiB where that cannot be read; no time limit.
    fn default() -> Limits {
        Limits {
            max_memory: default_memory_budget(),
            time_limit: None,
            cancel: None,
        }
    }
}

/// A safe share of this machine's memory: half of the total, or 80% of the memory
/// available now if that is less. 2 GiB where `/proc/meminfo` cannot be read.
pub fn default_memory_budget() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/meminfo") else {
        return 2 << 30;
    };
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    match (field("MemTotal:"), field("MemAvailable:")) {
        (Some(t), Some(a)) => (t / 2).min(a / 5 * 4),
        (Some(t), None) => t / 2,
        _ => 2 << 30,
    }
}

/// Watches the clock and the cancel flag.
#[derive(Clone)]
pub(crate) struct Watch {
    start: Instant,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Watch {
    pub(crate) fn new(limits: &Limits) -> Watch {
        let start = Instant::now();
        Watch {
            start,
            deadline: limits.time_limit.map(|d| start + d),
            cancel: limits.cancel.clone(),
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the time is up or the search was cancelled.
    pub(crate) fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    pub(crate) fn timeout(
        &self,
        algorithm: &'static str,
        lower_bound: u32,
        stats: &Stats,
    ) -> SearchError {
        SearchError::TimeLimit {
            algorithm,
            elapsed: self.elapsed(),
            lower_bound,
            expanded: stats.expanded,
        }
    }
}

/// Runs `work` over `0..words` in chunks of `chunk` on `threads` threads, each taking
/// the next chunk as it finishes one; sums the pairs it returns.
pub(crate) fn run_chunks(
    threads: usize,
    words: usize,
    chunk: usize,
    work: impl Fn(usize, usize) -> (u64, u64) + Sync,
) -> (u64, u64) {
    if threads <= 1 {
        return work(0, words);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = (0, 0);
                    loop {
                        let lo = next.fetch_add(chunk, Ordering::Relaxed);
                        if lo >= words {
                            return sum;
                        }
                        let (a, b) = work(lo, (lo + chunk).min(words));
                        sum = (sum.0 + a, sum.1 + b);
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker thread"))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    })
}

/// Checks sizes and solvability; `Ok(true)` when the start is already the goal.
pub(crate) fn precheck(start: &Board, goal: &Board) -> Result<bool, SearchError> {
    if start.size() != goal.size() {
        return Err(SearchError::SizeMismatch {
            start: start.size(),
            goal: goal.size(),
        });
    }
    if !is_solvable(start, goal).expect("sizes checked") {
        return Err(SearchError::Unsolvable);
    }
    Ok(start == goal)
}

/// Per blank position, the legal moves and the cell of the tile that moves.
#[derive(Debug, Clone)]
pub(crate) struct MoveTable {
    moves: Vec<Vec<(Direction, usize)>>,
    by_dir: Vec<[Option<usize>; 4]>,
}

impl MoveTable {
    pub(crate) fn new(size: Size) -> MoveTable {
        let n = size.cells();
        let mut moves = Vec::with_capacity(n);
        let mut by_dir = Vec::with_capacity(n);
        for blank in 0..n {
            // Any arrangement works: only the blank's cell matters for legality.
            let mut cells2: Vec<u8> = (0..n as u8).collect();
            cells2.swap(0, blank);
            let b = Board::from_cells(size, cells2).expect("a permutation");
            let mut list = Vec::new();
            let mut row = [None; 4];
            for d in Direction::ALL {
                if let Some(p) = b.mover(d) {
                    list.push((d, p));
                    row[d.index()] = Some(p);
                }
            }
            moves.push(list);
            by_dir.push(row);
        }
        MoveTable { moves, by_dir }
    }

    #[inline]
    pub(crate) fn from(&self, blank: usize) -> &[(Direction, usize)] {
        &self.moves[blank]
    }

    #[inline]
    pub(crate) fn mover(&self, blank: usize, d: Direction) -> Option<usize> {
        self.by_dir[blank][d.index()]
    }
}

/// The searches by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
}

impl Algorithm {
    /// Every concrete algorithm (not `Auto`).
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
        }
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
    type Err = String;
    fn from_str(s: &str) -> Result<Algorithm, String> {
        match s {
            "auto" => Ok(Algorithm::Auto),
            "bfs" => Ok(Algorithm::Bfs),
            "bibfs" | "bidir" => Ok(Algorithm::Bibfs),
            "astar" | "a*" => Ok(Algorithm::Astar),
            "iddfs" => Ok(Algorithm::Iddfs),
            "idastar" | "ida*" => Ok(Algorithm::Idastar),
            "table" => Ok(Algorithm::Table),
            _ => Err(format!(
                "expected auto, bfs, bibfs, astar, iddfs, idastar or table, found {s:?}"
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
/// table takes about 12 ms to build, IDA* at most about 1.5 ms a board); IDA* beyond 9
/// cells.
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
}

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
        }
    }

    /// Adds a distance table (built or loaded elsewhere) for `table.goal()`; `Auto` and
    /// `Table` then use it for every board of that goal.
    pub fn add_table(&mut self, table: DistanceTable) {
        self.tables.insert(table.goal().clone(), table);
    }

    /// Whether a distance table for `goal` is at hand.
    pub fn has_table(&self, goal: &Board) -> bool {
        self.tables.contains_key(goal)
    }

    /// The algorithm the next board of `goal` will be solved with (`Auto` resolved).
    pub fn resolve(&self, goal: &Board) -> Algorithm {
        let cells = goal.size().cells();
        match self.algorithm {
            Algorithm::Auto if cells <= 6 || self.tables.contains_key(goal) => Algorithm::Table,
            Algorithm::Auto
                if cells <= 9 && self.seen.get(goal).copied().unwrap_or(0) >= TABLE_AFTER =>
            {
                Algorithm::Table
            }
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
        let algo = self.resolve(goal);
        if self.algorithm == Algorithm::Auto && !self.tables.contains_key(goal) {
            *self.seen.entry(goal.clone()).or_insert(0) += 1;
        }
        let sol = match algo {
            Algorithm::Table => {
                precheck(start, goal)?;
                if !self.tables.contains_key(goal) {
                    let t = DistanceTable::build(goal, &self.limits)?;
                    self.tables.insert(goal.clone(), t);
                }
                self.tables[goal].solve(start)?
            }
            a => solve(start, goal, a, self.heuristic, &self.limits)?,
        };
        Ok((sol, algo))
    }
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
    }
}
