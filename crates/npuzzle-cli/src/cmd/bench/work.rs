//! Solving the instances: one job a bench, taken instance by instance by every worker
//! thread, each answer left in its instance's slot.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use npuzzle::request::{Core, Request};
use npuzzle::{Algorithm, Board, SearchError};

use super::instances::Instance;

/// An instance's answer, once there is one.
pub(super) type Slot = Mutex<Option<Result<npuzzle::Solution, SearchError>>>;

/// Per goal: the goal and its databases (none for the fast solver).
pub(super) type Heuristics = Vec<(Board, Option<Arc<npuzzle::heuristic::pdb::PdbHeuristic>>)>;

/// How every instance is asked of the core.
pub(super) struct Ask {
    /// The weight of weighted database IDA*.
    pub(super) weight: Option<f64>,
    /// The fast solver.
    pub(super) fast: bool,
    /// The anytime solver.
    pub(super) anytime: bool,
    /// The anytime solver's one beam width.
    pub(super) beam_width: Option<usize>,
    /// The limits of each search.
    pub(super) limits: npuzzle::Limits,
    /// Threads for each search.
    pub(super) threads: usize,
}

/// The bench's work: the instances, the goal of each (an index into `heuristics`), the
/// order they are taken in and each one's place in it, how many have been taken, and the
/// slots the answers go to.
pub(super) struct Job<'a> {
    pub(super) instances: &'a [Instance],
    pub(super) goals: &'a [usize],
    pub(super) heuristics: &'a Heuristics,
    ask: &'a Ask,
    core: &'a Core,
    order: Vec<usize>,
    place: Vec<usize>,
    next: AtomicUsize,
    results: Vec<Slot>,
}

impl<'a> Job<'a> {
    /// The work of `instances` (each one's goal an index into `heuristics`), taken in
    /// `order` (a permutation of their indices), none taken yet.
    pub(super) fn new(
        instances: &'a [Instance],
        goals: &'a [usize],
        heuristics: &'a Heuristics,
        ask: &'a Ask,
        core: &'a Core,
        order: Vec<usize>,
    ) -> Job<'a> {
        let mut place = vec![0; order.len()];
        for (k, &i) in order.iter().enumerate() {
            place[i] = k;
        }
        Job {
            instances,
            goals,
            heuristics,
            ask,
            core,
            order,
            place,
            next: AtomicUsize::new(0),
            results: instances.iter().map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Whether the instances are taken in the file's order.
    pub(super) fn in_file_order(&self) -> bool {
        self.order.iter().enumerate().all(|(k, &i)| k == i)
    }

    /// Whether instance `i` has been taken by a worker.
    pub(super) fn started(&self, i: usize) -> bool {
        self.place[i] < self.next.load(Ordering::Relaxed)
    }

    /// Takes the next unsolved instance, if any, and solves it; false when none was left.
    pub(super) fn solve_next(&self) -> bool {
        // After Ctrl-C no instance is started (the running ones stop with their bounds).
        if crate::opts::interrupted() {
            return false;
        }
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        let Some(&i) = self.order.get(k) else {
            return false;
        };
        let (goal, h) = &self.heuristics[self.goals[i]];
        let r = self.solve(&self.instances[i].board, goal, h.as_ref());
        *self.results[i].lock().expect("no panics while held") = Some(r);
        true
    }

    /// The library's core answers, as `solve` does: the fast solver (with the databases
    /// when at hand), or IDA* (weighted with a weight) with the databases given.
    fn solve(
        &self,
        board: &Board,
        goal: &Board,
        h: Option<&Arc<npuzzle::heuristic::pdb::PdbHeuristic>>,
    ) -> Result<npuzzle::Solution, SearchError> {
        let ask = self.ask;
        let request = Request {
            goal: Some(goal.clone()),
            algorithm: if ask.anytime {
                Algorithm::Auto
            } else if ask.fast || h.is_none() {
                Algorithm::Fast
            } else {
                Algorithm::Idastar
            },
            pdbs: h
                .filter(|_| !ask.anytime)
                .map(|h| (String::new(), h.clone())),
            weight: ask.weight.filter(|_| !ask.fast),
            limits: ask.limits.clone(),
            threads: ask.threads,
            beam_width: ask.beam_width,
            ..Request::default()
        };
        // (An instance that cannot reach its goal is no solved instance.)
        self.core.answer(board, &request).and_then(|a| {
            if a.report.solvable {
                Ok(npuzzle::Solution {
                    moves: a.moves,
                    stats: a.stats,
                })
            } else {
                Err(SearchError::Unsolvable)
            }
        })
    }

    /// The answer of instance `i`, taken from its slot if it is there.
    pub(super) fn take(&self, i: usize) -> Option<Result<npuzzle::Solution, SearchError>> {
        self.results[i].lock().expect("no panics while held").take()
    }
}
