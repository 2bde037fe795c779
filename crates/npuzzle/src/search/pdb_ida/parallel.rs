//! The search shared by threads: small passes on one thread, larger ones split at a
//! frontier whose subtrees the threads take in turn.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::super::fsm::{Fsm, State};
use super::super::passes::{deepen, weighted_bound, Pass, Passes};
use super::{finish, prepare, run_one, Ida};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::limits::{Limits, Watch};
use crate::moves::{Direction, MoveTable};
use crate::parity::solution_parity;
use crate::solution::{Solution, Stats};

/// Passes expected to expand fewer nodes than this run on one thread (a pass expands
/// several times the nodes of the one before).
const SMALL_PASS: u64 = 20_000;

/// The frontier's nodes per thread of a pass shared out: the last pass's nodes over
/// [`FRONTIER_SHARE`], from [`MIN_FRONTIER`] to [`MAX_FRONTIER`]. The threads take the
/// frontier in order, and once one finds a solution the others still finish the earlier
/// nodes they hold: with few nodes a thread may end the last pass alone in a subtree a
/// tenth of the pass. (24-puzzle instance 36 on two threads, two runs each: 32.7 s and
/// 31.6 s searching with 64 a thread, 29.3 s and 29.4 s with up to 1,024.)
const MAX_FRONTIER: u64 = 1024;

/// The fewest frontier nodes per thread of a pass shared out.
const MIN_FRONTIER: u64 = 64;

/// A pass shared out gets a frontier node a thread for every this many nodes of the
/// pass before: the frontier's expansion stays a small part of the pass.
const FRONTIER_SHARE: u64 = 4096;

/// A node of the frontier shared out to the threads.
pub(super) struct Split {
    pub(super) path: Vec<Direction>,
    /// The pruning machine's state after the path.
    pub(super) state: State,
}

/// The passes of [`idastar_pdb_parallel`]: small ones on the calling thread, the others
/// split into a frontier that the threads take node by node.
struct Parallel<'a, const S: usize, const L: usize> {
    h: &'a PdbHeuristic,
    mt: &'a MoveTable,
    start: &'a Board,
    goal: &'a Board,
    watch: &'a Watch,
    threads: usize,
    /// Nodes the last pass expanded.
    last_pass: u64,
    stats: Stats,
    answer: Option<Vec<Direction>>,
    per_mille: u64,
}

impl<'a, const S: usize, const L: usize> Parallel<'a, S, L> {
    fn ida(&self) -> Ida<'a, S, L> {
        let mut ida = Ida::new(
            self.h,
            self.mt,
            self.start.cells(),
            self.goal.cells(),
            self.watch.clone(),
        );
        ida.per_mille = self.per_mille;
        ida
    }

    fn add(&mut self, st: &Stats) {
        self.stats.expanded += st.expanded;
        self.stats.generated += st.generated;
    }

    /// A pass on this thread.
    fn small_pass(&mut self, bound: u32) -> Pass {
        let mut ida = self.ida();
        let pass = ida.pass(bound);
        self.add(&ida.stats);
        self.last_pass = ida.stats.expanded;
        if let Pass::Found = pass {
            self.answer = Some(ida.path);
        }
        pass
    }

    /// A pass shared out: the tree expanded a few levels into a frontier of 64 to 1,024
    /// nodes per thread (more after a bigger pass), which the threads then take one by
    /// one.
    fn split_pass(&mut self, bound: u32) -> Pass {
        let (start, watch) = (self.start, self.watch);
        let before = self.stats.expanded;
        let per_thread = (self.last_pass / FRONTIER_SHARE).clamp(MIN_FRONTIER, MAX_FRONTIER);
        // The frontier: the nodes a few levels down, pruned by the bound; as many levels
        // as it takes to give every thread `per_thread` nodes.
        let mut frontier = Vec::new();
        let mut next_bound = u32::MAX;
        let mut root = self.ida();
        root.b.start(bound);
        for levels in 1..=bound {
            frontier.clear();
            root.b.start(bound);
            root.stats = Stats::default();
            if root.collect(start.blank(), 0, Fsm::START, levels, &mut frontier) {
                let (st, path) = (root.stats, std::mem::take(&mut root.path));
                self.add(&st);
                self.answer = Some(path);
                return Pass::Found;
            }
            next_bound = root.b.next;
            if frontier.len() as u64 >= per_thread * self.threads as u64 {
                break;
            }
        }
        let st = root.stats;
        self.add(&st);
        // The answer is the one a single thread would give: the first solution in the
        // frontier's order. A thread that finds one in node i stops only the threads on
        // later nodes; those on earlier nodes finish theirs, and the earliest wins.
        let taken = AtomicUsize::new(0);
        let best = AtomicUsize::new(usize::MAX);
        let working: Vec<AtomicUsize> = (0..self.threads).map(|_| AtomicUsize::new(0)).collect();
        let aborts: Vec<AtomicBool> = (0..self.threads).map(|_| AtomicBool::new(false)).collect();
        let answer: Mutex<Option<(usize, Vec<Direction>)>> = Mutex::new(None);
        let fresh = || self.ida();
        let results: Vec<(Stats, u32, bool)> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..self.threads)
                .map(|t| {
                    let (frontier, taken, best) = (&frontier, &taken, &best);
                    let (working, aborts, answer) = (&working, &aborts, &answer);
                    sc.spawn(move || {
                        // One search state per thread, walked down to each node it takes
                        // and back up, so taking a node allocates nothing.
                        let mut ida = fresh();
                        ida.abort = Some(&aborts[t]);
                        ida.b.start(bound);
                        let mut nb = u32::MAX;
                        let mut undo = Vec::new();
                        loop {
                            let i = taken.fetch_add(1, Ordering::SeqCst);
                            working[t].store(i, Ordering::SeqCst);
                            if i >= frontier.len() || i > best.load(Ordering::SeqCst) {
                                return (ida.stats, nb, false);
                            }
                            let node = &frontier[i];
                            let blank = ida.descend(start.blank(), &node.path, &mut undo);
                            ida.b.start(bound);
                            let hit = ida.dfs(blank, node.path.len() as u32, node.state);
                            nb = nb.min(ida.b.next);
                            if hit {
                                best.fetch_min(i, Ordering::SeqCst);
                                for (w, stop) in working.iter().zip(aborts) {
                                    if w.load(Ordering::SeqCst) > i {
                                        stop.store(true, Ordering::SeqCst);
                                    }
                                }
                                let mut a = answer.lock().expect("no panics while held");
                                if a.as_ref().is_none_or(|(j, _)| i < *j) {
                                    *a = Some((i, ida.path.clone()));
                                }
                                return (ida.stats, nb, false);
                            }
                            if ida.b.stopped {
                                let by_clock = !aborts[t].load(Ordering::SeqCst);
                                return (ida.stats, nb, by_clock);
                            }
                            ida.climb(&undo);
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|t| t.join().expect("search thread"))
                .collect()
        });
        let mut timed_out = false;
        for (st, nb, stopped) in results {
            self.add(&st);
            next_bound = next_bound.min(nb);
            timed_out |= stopped;
        }
        self.last_pass = self.stats.expanded - before;
        if let Some((_, moves)) = answer.into_inner().expect("no panics while held") {
            self.answer = Some(moves);
            return Pass::Found;
        }
        if timed_out || watch.expired() {
            return Pass::Stopped;
        }
        Pass::Over(next_bound)
    }
}

impl<const S: usize, const L: usize> Passes for Parallel<'_, S, L> {
    fn pass(&mut self, bound: u32) -> Pass {
        // Small passes run on this thread: sharing out costs more than they take. (Korf's
        // 100 average 19,000 nodes an instance; most passes are far below this.)
        if self.last_pass < SMALL_PASS {
            self.small_pass(bound)
        } else {
            self.split_pass(bound)
        }
    }

    fn expanded(&self) -> u64 {
        self.stats.expanded
    }

    fn generated(&self) -> u64 {
        self.stats.generated
    }
}

/// [`idastar_pdb`](super::idastar_pdb) on `threads` threads: each pass expands the tree a few levels into a
/// frontier of 64 to 1,024 nodes per thread, which the threads then take one by one. Any
/// solution within a pass's bound is optimal (the previous pass found none two moves
/// shorter, and lengths keep their parity), so the first one found ends the search.
///
/// ```
/// use npuzzle::heuristic::pdb::PatternDb;
/// use npuzzle::search::{idastar_pdb_parallel};
/// use npuzzle::heuristic::pdb::PdbHeuristic;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let limits = Limits::default();
/// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &limits, 1, &mut |_| {}).unwrap();
/// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &limits, 1, &mut |_| {}).unwrap();
/// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// assert_eq!(idastar_pdb_parallel(&start, &goal, &h, &limits, 2).unwrap().len(), 31);
/// ```
pub fn idastar_pdb_parallel(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
    threads: usize,
) -> Result<Solution, SearchError> {
    by_sides!(h, run_weighted(start, goal, h, limits, threads, 1000))
}

pub(super) fn run_weighted<const S: usize, const L: usize>(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
    threads: usize,
    per_mille: u64,
) -> Result<Solution, SearchError> {
    let watch = Watch::new(limits);
    if prepare(start, goal, h)? {
        return Ok(finish(vec![], Stats::default(), &watch));
    }
    if threads <= 1 {
        let (mut paths, stats) = run_one::<S, L>(start, goal, h, &watch, 0, per_mille)?;
        return Ok(finish(paths.swap_remove(0), stats, &watch));
    }
    let mt = MoveTable::new(start.size());
    let mut par = Parallel::<S, L> {
        h,
        mt: &mt,
        start,
        goal,
        watch: &watch,
        threads,
        last_pass: 0,
        stats: Stats::default(),
        answer: None,
        per_mille,
    };
    let root = par.ida();
    let f0 = root.f(0, root.h());
    let parity = (per_mille == 1000).then(|| solution_parity(start, goal));
    weighted_bound(
        deepen(&mut par, f0, parity, &watch, "idastar", per_mille),
        per_mille,
    )?;
    let moves = par
        .answer
        .take()
        .expect("a pass that found a solution keeps it");
    Ok(finish(moves, par.stats, &watch))
}
