//! IDA* with additive pattern databases, tuned for the 15- and 24-puzzle.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::fsm::{Fsm, State};
use super::passes::{deepen, weigh, weighted_bound, Bound, Pass, Passes};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::{PdbHeuristic, Side, MAX_TILES, NONE};
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
            (..=32, ..=8) => $f::<32, 8>($($arg),*),
            _ => $f::<32, 32>($($arg),*),
        }
    };
}

struct Ida<'a, const S: usize, const L: usize> {
    h: &'a PdbHeuristic,
    mt: &'a MoveTable,
    cells: Vec<u8>,
    goal: &'a [u8],
    /// Per shared lookup (see `PdbHeuristic::shared`): its tiles' cells, index and entry.
    look: Vec<Look>,
    /// Per side: the sum of its lookups' entries.
    sums: [u32; S],
    /// Per tile: the shared lookups that hold it (a fixed number of slots, unused ones with
    /// the database NONE, so that the loops over them have a length known when compiled).
    tiles: Vec<[TileLook; L]>,
    path: Vec<Direction>,
    stats: Stats,
    b: Bound,
    watch: Watch,
    /// Set by another thread that found a solution.
    abort: Option<&'a AtomicBool>,
    /// With `want > 0`, collect up to `want` solutions instead of stopping at the first.
    want: usize,
    found: Vec<Vec<Direction>>,
    /// The estimate's weight in thousandths: passes are bounded by g + floor(w x h)
    /// (1000: plain IDA*).
    per_mille: u64,
    /// The duplicate-path pruning machine: a move it refuses is not made.
    fsm: &'a Fsm,
}

/// One shared lookup holding a tile: which, the tile's slot in it, the sides that count
/// it (a bit each), the side whose cell map it uses, and its database (NONE: an unused
/// slot).
#[derive(Clone, Copy)]
struct TileLook {
    l: u8,
    slot: u8,
    sides: u32,
    map: u8,
    db: u8,
}

/// Adds `change` (an entry's new value less its old, wrapping) to the sum of every side
/// in `sides` (a bit each).
#[inline(always)]
fn add_to_sides<const S: usize>(sums: &mut [u32; S], sides: u32, change: u32) {
    let mut m = sides;
    while m != 0 {
        let s = m.trailing_zeros() as usize;
        sums[s] = sums[s].wrapping_add(change);
        m &= m - 1;
    }
}

/// One shared lookup's bookkeeping: the cells of its tiles (as its database sees them),
/// their index and the entry there.
#[derive(Clone, Copy)]
struct Look {
    pos: [u8; MAX_TILES],
    idx: u64,
    val: u32,
}

impl<'a, const S: usize, const L: usize> Ida<'a, S, L> {
    /// A search state at `cells` (row-major, 0 the blank).
    fn new(
        h: &'a PdbHeuristic,
        mt: &'a MoveTable,
        cells: &[u8],
        goal: &'a [u8],
        watch: Watch,
    ) -> Ida<'a, S, L> {
        let sides: Vec<Side> = h.sides(&PdbHeuristic::cell_of(cells));
        let look = h
            .shared
            .iter()
            .map(|sh| {
                let side = &sides[sh.side];
                Look {
                    pos: side.pos[sh.db],
                    idx: side.idx[sh.db],
                    val: side.val[sh.db],
                }
            })
            .collect();
        let mut sums = [0u32; S];
        for (s, side) in sides.iter().enumerate() {
            sums[s] = side.sum;
        }
        let unused = TileLook {
            l: 0,
            slot: 0,
            sides: 0,
            map: 0,
            db: NONE,
        };
        let tiles = h
            .tile_shared
            .iter()
            .map(|list| {
                let mut e = [unused; L];
                for (k, &(l, slot)) in list.iter().enumerate() {
                    let sh = &h.shared[l as usize];
                    e[k] = TileLook {
                        l,
                        slot,
                        sides: sh.sides,
                        map: sh.side as u8,
                        db: sh.db as u8,
                    };
                }
                e
            })
            .collect();
        Ida {
            h,
            mt,
            cells: cells.to_vec(),
            goal,
            look,
            sums,
            tiles,
            path: Vec::new(),
            stats: Stats::default(),
            b: Bound::new(),
            watch,
            abort: None,
            want: 0,
            found: Vec::new(),
            per_mille: 1000,
            fsm: Fsm::for_cells(cells.len()),
        }
    }

    /// The cost bound test's f: g + h, or g + floor(w x h) when weighted.
    #[inline(always)]
    fn f(&self, g: u32, h: u32) -> u32 {
        g + weigh(h, self.per_mille)
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        self.sums.iter().copied().max().unwrap_or(0)
    }

    /// The indices each shared lookup holding `tile` would take with the tile moved to
    /// cell `to` (in the order of `PdbHeuristic::tile_shared`), computed from the current
    /// ones by the change in index, without moving it; asks the processor to fetch the
    /// entries. Doing this for every child before reading any lets the table reads of
    /// siblings overlap instead of waiting in turn.
    #[inline(always)]
    fn fetch(&self, tile: u8, to: usize) -> [u64; L] {
        let mut out = [0u64; L];
        let tl = &self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                continue;
            }
            let db = &self.h.dbs[e.db as usize];
            let lk = &self.look[e.l as usize];
            let to = self.h.cell_maps[e.map as usize][to];
            let pos = &lk.pos[..db.tiles().len()];
            out[k] = lk
                .idx
                .wrapping_add_signed(db.placement().delta(pos, e.slot as usize, to));
            db.prefetch(out[k]);
        }
        out
    }

    /// The estimate after moving `tile` from cell `from` (where the blank goes) with new
    /// indices `idx`, and each of its lookups' new entry (for zero-aware databases, with
    /// the blank on `from`: only the moved tile's lookups change, the blank staying in the
    /// same region of free cells for every other).
    #[inline(always)]
    fn peek(&self, tile: u8, idx: [u64; L], from: usize) -> (u32, [u32; L]) {
        let mut vals = [0u32; L];
        let mut sums = self.sums;
        let tl = &self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                continue;
            }
            let v = self.h.dbs[e.db as usize]
                .at_blank(idx[k], self.h.cell_maps[e.map as usize][from] as usize);
            vals[k] = v;
            add_to_sides(
                &mut sums,
                e.sides,
                v.wrapping_sub(self.look[e.l as usize].val),
            );
        }
        (sums.iter().copied().max().unwrap_or(0), vals)
    }

    /// Moves `tile` to cell `to` in the bookkeeping, given its new indices and entries.
    #[inline(always)]
    fn apply(&mut self, tile: u8, to: usize, idx: [u64; L], vals: [u32; L]) -> Undo<L> {
        let mut undo = [(0u64, 0u32); L];
        let tl = self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                continue;
            }
            let lk = &mut self.look[e.l as usize];
            lk.pos[e.slot as usize] = self.h.cell_maps[e.map as usize][to];
            undo[k] = (lk.idx, lk.val);
            let change = vals[k].wrapping_sub(lk.val);
            lk.idx = idx[k];
            lk.val = vals[k];
            add_to_sides(&mut self.sums, e.sides, change);
        }
        undo
    }

    /// Moves `tile` from cell `from` to cell `to` in the bookkeeping; returns what undoing
    /// needs.
    #[inline(always)]
    fn shift(&mut self, tile: u8, to: usize, from: usize) -> Undo<L> {
        let idx = self.fetch(tile, to);
        let (_, vals) = self.peek(tile, idx, from);
        self.apply(tile, to, idx, vals)
    }

    /// Undoes [`shift`](Self::shift) or [`apply`](Self::apply): `tile` goes back to `back`.
    #[inline(always)]
    fn unshift(&mut self, tile: u8, back: usize, undo: Undo<L>) {
        let tl = self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                continue;
            }
            let lk = &mut self.look[e.l as usize];
            lk.pos[e.slot as usize] = self.h.cell_maps[e.map as usize][back];
            let change = undo[k].1.wrapping_sub(lk.val);
            lk.idx = undo[k].0;
            lk.val = undo[k].1;
            add_to_sides(&mut self.sums, e.sides, change);
        }
    }

    /// Walks the moves of `path` from the start (blank at `blank`), keeping in `undo`
    /// what [`climb`](Self::climb) needs to come back; the path becomes the search's path
    /// and the blank's cell is returned. The path must be legal.
    fn descend(&mut self, mut blank: usize, path: &[Direction], undo: &mut Vec<Step<L>>) -> usize {
        undo.clear();
        for &d in path {
            let from = self.mt.mover(blank, d).expect("paths are checked legal");
            let tile = self.cells[from];
            self.cells[blank] = tile;
            self.cells[from] = 0;
            undo.push((tile, blank, from, self.shift(tile, blank, from)));
            blank = from;
        }
        self.path.clear();
        self.path.extend_from_slice(path);
        blank
    }

    /// Undoes [`descend`](Self::descend): back at the start.
    fn climb(&mut self, undo: &[Step<L>]) {
        for &(tile, to, from, old) in undo.iter().rev() {
            self.unshift(tile, from, old);
            self.cells[from] = tile;
            self.cells[to] = 0;
        }
    }

    /// Walks `levels` moves down within the bound, pushing the nodes reached; true if it
    /// met the goal on the way (the path holds the moves).
    fn collect(
        &mut self,
        blank: usize,
        g: u32,
        q: State,
        levels: u32,
        out: &mut Vec<Split>,
    ) -> bool {
        let hv = self.h();
        if self.b.cut(self.f(g, hv)) {
            return false;
        }
        if hv == 0 && self.cells == self.goal {
            return true;
        }
        if levels == 0 {
            out.push(Split {
                path: self.path.clone(),
                state: q,
            });
            return false;
        }
        self.stats.expanded += 1;
        // Counted as the depth-first pass counts them: every child, before any is
        // searched.
        let fsm = self.fsm;
        let kids = self.mt.from(blank).iter();
        self.stats.generated += kids.filter(|m| fsm.next(q, m.0) != Fsm::REFUSED).count() as u64;
        for k in 0..self.mt.from(blank).len() {
            let (d, from) = self.mt.from(blank)[k];
            let nq = fsm.next(q, d);
            if nq == Fsm::REFUSED {
                continue;
            }
            let tile = self.cells[from];
            self.cells[blank] = tile;
            self.cells[from] = 0;
            let old = self.shift(tile, blank, from);
            self.path.push(d);
            if self.collect(from, g + 1, nq, levels - 1, out) {
                return true;
            }
            self.path.pop();
            self.unshift(tile, from, old);
            self.cells[from] = tile;
            self.cells[blank] = 0;
        }
        false
    }

    fn dfs(&mut self, blank: usize, g: u32, q: State) -> bool {
        let hv = self.h();
        let f = self.f(g, hv);
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
        self.stats.expanded += 1;
        if self.watch.poll(self.stats.expanded, self.abort) {
            self.b.stopped = true;
            return false;
        }
        // Peek at every child first: their table reads overlap instead of waiting in turn.
        let mt = self.mt;
        let moves = mt.from(blank);
        let mut kids = [(0usize, [0u64; L], 0 as State); 4];
        let mut count = 0;
        for (k, &(d, from)) in moves.iter().enumerate() {
            let nq = self.fsm.next(q, d);
            if nq != Fsm::REFUSED {
                self.fsm.prefetch(nq);
                kids[count] = (k, self.fetch(self.cells[from], blank), nq);
                count += 1;
            }
        }
        self.stats.generated += count as u64;
        for &(k, idx, nq) in &kids[..count] {
            let (d, from) = moves[k];
            let tile = self.cells[from];
            let (hc, vals) = self.peek(tile, idx, from);
            let f = self.f(g + 1, hc);
            if self.b.cut(f) {
                continue;
            }
            self.cells[blank] = tile;
            self.cells[from] = 0;
            let old = self.apply(tile, blank, idx, vals);
            self.path.push(d);
            if self.dfs(from, g + 1, nq) {
                return true;
            }
            self.path.pop();
            self.unshift(tile, from, old);
            self.cells[from] = tile;
            self.cells[blank] = 0;
            if self.b.stopped {
                return false;
            }
        }
        false
    }
}

impl<const S: usize, const L: usize> Passes for Ida<'_, S, L> {
    fn pass(&mut self, bound: u32) -> Pass {
        self.b.start(bound);
        let blank = self.cells.iter().position(|&c| c == 0).expect("a blank");
        let hit = self.dfs(blank, 0, Fsm::START);
        self.b.end(hit || !self.found.is_empty())
    }

    fn expanded(&self) -> u64 {
        self.stats.expanded
    }
}

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

/// Passes expected to expand fewer nodes than this run on one thread (a pass expands
/// several times the nodes of the one before).
const SMALL_PASS: u64 = 20_000;

/// A node of the frontier shared out to the threads.
struct Split {
    path: Vec<Direction>,
    /// The pruning machine's state after the path.
    state: State,
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

    /// A pass shared out: the tree expanded a few levels into a frontier of at least 64
    /// nodes per thread, which the threads then take one by one.
    fn split_pass(&mut self, bound: u32) -> Pass {
        let (start, watch) = (self.start, self.watch);
        // The frontier: the nodes a few levels down, pruned by the bound; as many levels
        // as it takes to give every thread 64 nodes.
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
            if frontier.len() >= 64 * self.threads {
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
        self.last_pass = u64::MAX;
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
}

/// [`idastar_pdb`] on `threads` threads: each pass expands the tree a few levels into a
/// frontier of at least 64 nodes per thread, which the threads then take one by one. Any
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

fn run_weighted<const S: usize, const L: usize>(
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
/// [`idastar_pdb`]: in a pass without a solution the same nodes expanded and generated
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
            return Err(watch.timeout("idastar", bound, root.stats.expanded));
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
            return Err(watch.timeout("idastar", bound, ida.stats.expanded));
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
            return Err(watch.timeout("idastar", bound, ida.stats.expanded));
        }
        ida.climb(&undo);
    }
    Ok(SubtreePass {
        found: None,
        next_bound: (next != u32::MAX).then_some(next),
        stats: ida.stats,
    })
}
