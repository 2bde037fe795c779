//! IDA* with additive pattern databases, tuned for the 15- and 24-puzzle.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::idastar::{next_pass_bound, solution_parity};
use super::{precheck, Limits, MoveTable, Solution, Stats, Watch};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::{PatternDb, MAX_TILES};
use crate::moves::Direction;

const NONE: u8 = u8::MAX;

/// The sum of disjoint pattern databases, and, where the goal allows it, the same sum on
/// the board reflected about the main diagonal; the larger of the two (Korf & Felner).
///
/// Reflection needs a square board whose goal has the blank on the main diagonal: then
/// the reflected board (cell `(r, c)` to `(c, r)`, each tile renamed to the goal's tile at
/// the reflected cell) has the same distance to the goal, so the databases give a second
/// lower bound for free.
#[derive(Debug)]
pub struct PdbHeuristic {
    goal: Board,
    dbs: Vec<PatternDb>,
    /// Per side (0 regular, 1 reflected), for each tile of the board: the database and
    /// slot its lookup changes, or NONE (side 1 is all NONE without reflection).
    owners: [Vec<(u8, u8)>; 2],
    /// Per side, each cell's image (identity for side 0).
    cell_maps: [Vec<u8>; 2],
    /// Reflection: tile renaming and cell map, if the goal allows.
    mirror: Option<(Vec<u8>, Vec<u8>)>,
}

impl PdbHeuristic {
    /// Combines databases built for `goal` over disjoint patterns.
    pub fn new(goal: &Board, dbs: Vec<PatternDb>) -> Result<PdbHeuristic, String> {
        let n = goal.cells().len();
        let mut owner = vec![(NONE, NONE); n];
        for (d, db) in dbs.iter().enumerate() {
            if db.goal() != goal {
                return Err(format!(
                    "expected databases for goal {goal}, found one for {}",
                    db.goal()
                ));
            }
            for (i, &t) in db.tiles().iter().enumerate() {
                if owner[t as usize].0 != NONE {
                    return Err(format!("expected disjoint patterns, found tile {t} in two"));
                }
                owner[t as usize] = (d as u8, i as u8);
            }
        }
        let size = goal.size();
        let w = size.width();
        let mirror =
            (size.width() == size.height() && goal.blank() / w == goal.blank() % w).then(|| {
                let cell: Vec<u8> = (0..n).map(|c| ((c % w) * w + c / w) as u8).collect();
                let mut tile = vec![0u8; n];
                for (c, &t) in goal.cells().iter().enumerate() {
                    tile[t as usize] = goal.cells()[cell[c] as usize];
                }
                (tile, cell)
            });
        let reflected_owner = match &mirror {
            Some((tile, _)) => (0..n).map(|t| owner[tile[t] as usize]).collect(),
            None => vec![(NONE, NONE); n],
        };
        let reflected_cells = match &mirror {
            Some((_, cell)) => cell.clone(),
            None => (0..n as u8).collect(),
        };
        Ok(PdbHeuristic {
            goal: goal.clone(),
            dbs,
            owners: [owner, reflected_owner],
            cell_maps: [(0..n as u8).collect(), reflected_cells],
            mirror,
        })
    }

    /// Whether the reflected lookup is used.
    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    /// The databases.
    pub fn databases(&self) -> &[PatternDb] {
        &self.dbs
    }

    /// Positions of each database's tiles on `cells` (tile -> cell given by `at`).
    fn positions(&self, at: &[u8]) -> Vec<Vec<u8>> {
        self.dbs
            .iter()
            .map(|db| db.tiles().iter().map(|&t| at[t as usize]).collect())
            .collect()
    }

    fn cell_of(cells: &[u8]) -> Vec<u8> {
        let mut at = vec![0u8; cells.len()];
        for (c, &t) in cells.iter().enumerate() {
            at[t as usize] = c as u8;
        }
        at
    }

    /// The estimate for `board`.
    pub fn estimate(&self, board: &Board) -> u32 {
        let [regular, reflected] = self.sides(&Self::cell_of(board.cells()));
        regular.sum.max(reflected.sum)
    }

    /// The lookups for tiles on cells `at` (tile -> cell): the board as it is, and
    /// reflected (a side of no databases where the goal allows no reflection).
    fn sides(&self, at: &[u8]) -> [Side; 2] {
        let reflected = match &self.mirror {
            Some((tile, cell)) => {
                let mut rat = vec![0u8; at.len()];
                for (t, &c) in at.iter().enumerate() {
                    rat[tile[t] as usize] = cell[c as usize];
                }
                Side::new(self, &rat)
            }
            None => Side::none(),
        };
        [Side::new(self, at), reflected]
    }
}

/// The bookkeeping of one lookup (side 0: the board as it is; side 1: reflected): for
/// each database the cells of its tiles, their index and the entry there; and the sum.
#[derive(Debug, Clone)]
struct Side {
    pos: Vec<[u8; MAX_TILES]>,
    idx: Vec<u64>,
    val: Vec<u32>,
    sum: u32,
}

impl Side {
    /// The side for tiles on cells `at` (tile -> cell).
    fn new(h: &PdbHeuristic, at: &[u8]) -> Side {
        let mut side = Side::none();
        for (db, p) in h.dbs.iter().zip(h.positions(at)) {
            let mut pos = [0u8; MAX_TILES];
            pos[..p.len()].copy_from_slice(&p);
            let idx = db.placement().index(&p);
            let val = db.at(idx) as u32;
            side.pos.push(pos);
            side.idx.push(idx);
            side.val.push(val);
            side.sum += val;
        }
        side
    }

    /// The side of no databases: a sum of 0 (for goals that allow no reflection).
    fn none() -> Side {
        Side {
            pos: Vec::new(),
            idx: Vec::new(),
            val: Vec::new(),
            sum: 0,
        }
    }
}

/// What undoing a move needs: each side's old index and entry.
type Undo = [(u64, u32); 2];

struct Ida<'a> {
    h: &'a PdbHeuristic,
    mt: &'a MoveTable,
    cells: Vec<u8>,
    goal: &'a [u8],
    sides: [Side; 2],
    path: Vec<Direction>,
    stats: Stats,
    bound: u32,
    next_bound: u32,
    watch: Watch,
    stopped: bool,
    /// Set by another thread that found a solution.
    abort: Option<&'a AtomicBool>,
    /// With `want > 0`, collect up to `want` solutions instead of stopping at the first.
    want: usize,
    found: Vec<Vec<Direction>>,
}

impl<'a> Ida<'a> {
    /// A search state at `cells` (row-major, 0 the blank).
    fn new(
        h: &'a PdbHeuristic,
        mt: &'a MoveTable,
        cells: &[u8],
        goal: &'a [u8],
        watch: Watch,
    ) -> Ida<'a> {
        Ida {
            h,
            mt,
            cells: cells.to_vec(),
            goal,
            sides: h.sides(&PdbHeuristic::cell_of(cells)),
            path: Vec::new(),
            stats: Stats::default(),
            bound: 0,
            next_bound: 0,
            watch,
            stopped: false,
            abort: None,
            want: 0,
            found: Vec::new(),
        }
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        self.sides[0].sum.max(self.sides[1].sum)
    }

    /// The indices each side's entry for `tile` would take with the tile moved to cell
    /// `to` (0 where the tile has none), computed from the current ones by the change in
    /// index, without moving it; asks the processor to fetch the entries. Doing this for
    /// every child before reading any lets the table reads of siblings overlap instead of
    /// waiting in turn.
    #[inline(always)]
    fn fetch(&self, tile: u8, to: usize) -> [u64; 2] {
        let mut out = [0u64; 2];
        for (s, side) in self.sides.iter().enumerate() {
            let (d, i) = self.h.owners[s][tile as usize];
            if d != NONE {
                let (d, i) = (d as usize, i as usize);
                let db = &self.h.dbs[d];
                let pos = &side.pos[d][..db.tiles().len()];
                let to = self.h.cell_maps[s][to];
                out[s] = side.idx[d].wrapping_add_signed(db.placement().delta(pos, i, to));
                db.prefetch(out[s]);
            }
        }
        out
    }

    /// The estimate after moving `tile` whose new indices are `idx`, and each side's new
    /// entry.
    #[inline(always)]
    fn peek(&self, tile: u8, idx: [u64; 2]) -> (u32, [u32; 2]) {
        let mut vals = [0u32; 2];
        let mut sums = [self.sides[0].sum, self.sides[1].sum];
        for (s, side) in self.sides.iter().enumerate() {
            let (d, _) = self.h.owners[s][tile as usize];
            if d != NONE {
                let v = self.h.dbs[d as usize].at(idx[s]) as u32;
                vals[s] = v;
                sums[s] = sums[s] + v - side.val[d as usize];
            }
        }
        (sums[0].max(sums[1]), vals)
    }

    /// Moves `tile` to cell `to` in the bookkeeping, given its new indices and entries.
    #[inline(always)]
    fn apply(&mut self, tile: u8, to: usize, idx: [u64; 2], vals: [u32; 2]) -> Undo {
        let mut undo = [(0u64, 0u32); 2];
        for (s, side) in self.sides.iter_mut().enumerate() {
            let (d, i) = self.h.owners[s][tile as usize];
            if d != NONE {
                let (d, i) = (d as usize, i as usize);
                side.pos[d][i] = self.h.cell_maps[s][to];
                undo[s] = (side.idx[d], side.val[d]);
                side.idx[d] = idx[s];
                side.sum = side.sum + vals[s] - side.val[d];
                side.val[d] = vals[s];
            }
        }
        undo
    }

    /// Moves `tile` to cell `to` in the bookkeeping; returns what undoing needs.
    #[inline(always)]
    fn shift(&mut self, tile: u8, to: usize) -> Undo {
        let idx = self.fetch(tile, to);
        let (_, vals) = self.peek(tile, idx);
        self.apply(tile, to, idx, vals)
    }

    /// Undoes [`shift`](Self::shift) or [`apply`](Self::apply): `tile` goes back to `back`.
    #[inline(always)]
    fn unshift(&mut self, tile: u8, back: usize, undo: Undo) {
        for (s, side) in self.sides.iter_mut().enumerate() {
            let (d, i) = self.h.owners[s][tile as usize];
            if d != NONE {
                let (d, i) = (d as usize, i as usize);
                side.pos[d][i] = self.h.cell_maps[s][back];
                side.idx[d] = undo[s].0;
                side.sum = side.sum + undo[s].1 - side.val[d];
                side.val[d] = undo[s].1;
            }
        }
    }

    /// Walks `levels` moves down within the bound, pushing the nodes reached; true if it
    /// met the goal on the way (the path holds the moves).
    fn collect(
        &mut self,
        blank: usize,
        g: u32,
        back: Option<Direction>,
        levels: u32,
        out: &mut Vec<Split>,
    ) -> bool {
        let hv = self.h();
        if g + hv > self.bound {
            self.next_bound = self.next_bound.min(g + hv);
            return false;
        }
        if hv == 0 && self.cells == self.goal {
            return true;
        }
        if levels == 0 {
            out.push(Split {
                path: self.path.clone(),
            });
            return false;
        }
        self.stats.expanded += 1;
        for k in 0..self.mt.from(blank).len() {
            let (d, from) = self.mt.from(blank)[k];
            if Some(d.inverse()) == back {
                continue;
            }
            self.stats.generated += 1;
            let tile = self.cells[from];
            self.cells[blank] = tile;
            self.cells[from] = 0;
            let old = self.shift(tile, blank);
            self.path.push(d);
            if self.collect(from, g + 1, Some(d), levels - 1, out) {
                return true;
            }
            self.path.pop();
            self.unshift(tile, from, old);
            self.cells[from] = tile;
            self.cells[blank] = 0;
        }
        false
    }

    fn dfs(&mut self, blank: usize, g: u32, back: Option<Direction>) -> bool {
        let hv = self.h();
        let f = g + hv;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
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
        if self.stats.expanded & 0x3fff == 0
            && (self.abort.is_some_and(|a| a.load(Ordering::Relaxed))
                || (self.stats.expanded & 0xfffff == 0 && self.watch.expired()))
        {
            self.stopped = true;
            return false;
        }
        // Peek at every child first: their table reads overlap instead of waiting in turn.
        let mt = self.mt;
        let moves = mt.from(blank);
        let mut kids = [(0usize, [0u64; 2]); 4];
        let mut count = 0;
        for (k, &(d, from)) in moves.iter().enumerate() {
            if Some(d.inverse()) != back {
                kids[count] = (k, self.fetch(self.cells[from], blank));
                count += 1;
            }
        }
        self.stats.generated += count as u64;
        for &(k, idx) in &kids[..count] {
            let (d, from) = moves[k];
            let tile = self.cells[from];
            let (hc, vals) = self.peek(tile, idx);
            let f = g + 1 + hc;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            self.cells[blank] = tile;
            self.cells[from] = 0;
            let old = self.apply(tile, blank, idx, vals);
            self.path.push(d);
            if self.dfs(from, g + 1, Some(d)) {
                return true;
            }
            self.path.pop();
            self.unshift(tile, from, old);
            self.cells[from] = tile;
            self.cells[blank] = 0;
            if self.stopped {
                return false;
            }
        }
        false
    }
}

/// IDA* guided by additive pattern databases (with the reflected lookup where the goal
/// allows): a shortest solution for the 15-puzzle in milliseconds to seconds.
///
/// ```
/// use npuzzle::heuristic::pdb::PatternDb;
/// use npuzzle::search::{idastar_pdb, PdbHeuristic};
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
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats: Stats::default(),
        });
    }
    if &h.goal != goal {
        return Err(SearchError::Unsupported {
            algorithm: "idastar",
            reason: format!("the pattern databases are for goal {}, not {goal}", h.goal),
        });
    }
    let mt = MoveTable::new(start.size());
    let mut ida = Ida::new(h, &mt, start.cells(), goal.cells(), watch);
    let parity = solution_parity(start, goal);
    let h0 = ida.h();
    ida.bound = h0 + (h0 + parity) % 2;
    loop {
        ida.next_bound = u32::MAX;
        if ida.dfs(start.blank(), 0, None) {
            let mut stats = ida.stats;
            stats.peak_stored = ida.path.len() as u64 + 1;
            stats.elapsed = ida.watch.elapsed();
            return Ok(Solution {
                moves: ida.path,
                stats,
            });
        }
        if ida.stopped {
            return Err(ida.watch.timeout("idastar", ida.bound, &ida.stats));
        }
        ida.bound = next_pass_bound(ida.next_bound, parity);
        if ida.watch.expired() {
            return Err(ida.watch.timeout("idastar", ida.bound, &ida.stats));
        }
    }
}

/// Passes expected to expand fewer nodes than this run on one thread (a pass expands
/// several times the nodes of the one before).
const SMALL_PASS: u64 = 20_000;

/// A node of the frontier shared out to the threads.
struct Split {
    path: Vec<Direction>,
}

/// [`idastar_pdb`] on `threads` threads: each pass expands the tree a few levels into a
/// frontier of at least 64 nodes per thread, which the threads then take one by one. Any
/// solution within a pass's bound is optimal (the previous pass found none two moves
/// shorter, and lengths keep their parity), so the first one found ends the search.
pub fn idastar_pdb_parallel(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
    threads: usize,
) -> Result<Solution, SearchError> {
    if threads <= 1 {
        return idastar_pdb(start, goal, h, limits);
    }
    let watch = Watch::new(limits);
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats: Stats::default(),
        });
    }
    let parity = solution_parity(start, goal);
    let mt = MoveTable::new(start.size());
    let h0 = Ida::new(h, &mt, start.cells(), goal.cells(), watch.clone()).h();
    let mut bound = h0 + (h0 + parity) % 2;
    let mut stats = Stats::default();
    let mut last_pass = 0u64;
    loop {
        // Small passes run on this thread: sharing out costs more than they take. (Korf's
        // 100 average 19,000 nodes an instance; most passes are far below this.)
        if last_pass < SMALL_PASS {
            let mut ida = Ida::new(h, &mt, start.cells(), goal.cells(), watch.clone());
            ida.bound = bound;
            ida.next_bound = u32::MAX;
            let hit = ida.dfs(start.blank(), 0, None);
            stats.expanded += ida.stats.expanded;
            stats.generated += ida.stats.generated;
            last_pass = ida.stats.expanded;
            if hit {
                stats.elapsed = watch.elapsed();
                stats.peak_stored = ida.path.len() as u64 + 1;
                return Ok(Solution {
                    moves: ida.path,
                    stats,
                });
            }
            if ida.stopped || watch.expired() {
                return Err(watch.timeout("idastar", bound, &stats));
            }
            bound = next_pass_bound(ida.next_bound, parity);
            continue;
        }
        // The frontier: the nodes a few levels down, pruned by the bound; as many levels
        // as it takes to give every thread 64 nodes.
        let mut frontier = Vec::new();
        let mut next_bound = u32::MAX;
        let mut root = Ida::new(h, &mt, start.cells(), goal.cells(), watch.clone());
        root.bound = bound;
        for levels in 1..=bound {
            frontier.clear();
            root.next_bound = u32::MAX;
            root.stats = Stats::default();
            if root.collect(start.blank(), 0, None, levels, &mut frontier) {
                stats.expanded += root.stats.expanded;
                stats.generated += root.stats.generated;
                stats.elapsed = watch.elapsed();
                stats.peak_stored = root.path.len() as u64 + 1;
                return Ok(Solution {
                    moves: std::mem::take(&mut root.path),
                    stats,
                });
            }
            next_bound = root.next_bound;
            if frontier.len() >= 64 * threads {
                break;
            }
        }
        stats.expanded += root.stats.expanded;
        stats.generated += root.stats.generated;
        let taken = AtomicUsize::new(0);
        let found = AtomicBool::new(false);
        let answer: Mutex<Option<Vec<Direction>>> = Mutex::new(None);
        let results: Vec<(Stats, u32, bool)> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    sc.spawn(|| {
                        // One search state per thread, walked down to each node it takes
                        // and back up, so taking a node allocates nothing.
                        let mut ida = Ida::new(h, &mt, start.cells(), goal.cells(), watch.clone());
                        ida.abort = Some(&found);
                        ida.bound = bound;
                        let mut nb = u32::MAX;
                        let mut undo = Vec::new();
                        loop {
                            let i = taken.fetch_add(1, Ordering::Relaxed);
                            if i >= frontier.len() || found.load(Ordering::Relaxed) {
                                return (ida.stats, nb, false);
                            }
                            let node = &frontier[i];
                            let mut blank = start.blank();
                            undo.clear();
                            for &d in &node.path {
                                let from = mt.mover(blank, d).expect("frontier paths are legal");
                                let tile = ida.cells[from];
                                ida.cells[blank] = tile;
                                ida.cells[from] = 0;
                                undo.push((tile, blank, from, ida.shift(tile, blank)));
                                blank = from;
                            }
                            ida.path.clear();
                            ida.path.extend_from_slice(&node.path);
                            ida.next_bound = u32::MAX;
                            let hit =
                                ida.dfs(blank, node.path.len() as u32, node.path.last().copied());
                            nb = nb.min(ida.next_bound);
                            if hit {
                                found.store(true, Ordering::Relaxed);
                                *answer.lock().expect("no panics while held") =
                                    Some(ida.path.clone());
                                return (ida.stats, nb, false);
                            }
                            if ida.stopped {
                                let by_clock = !found.load(Ordering::Relaxed);
                                return (ida.stats, nb, by_clock);
                            }
                            for &(tile, to, from, old) in undo.iter().rev() {
                                ida.unshift(tile, from, old);
                                ida.cells[from] = tile;
                                ida.cells[to] = 0;
                            }
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
            stats.expanded += st.expanded;
            stats.generated += st.generated;
            next_bound = next_bound.min(nb);
            timed_out |= stopped;
        }
        if let Some(moves) = answer.into_inner().expect("no panics while held") {
            stats.elapsed = watch.elapsed();
            stats.peak_stored = moves.len() as u64 + 1;
            return Ok(Solution { moves, stats });
        }
        if timed_out || watch.expired() {
            return Err(watch.timeout("idastar", bound, &stats));
        }
        last_pass = u64::MAX;
        bound = next_pass_bound(next_bound, parity);
    }
}

/// Every optimal solution (up to `max`) with pattern databases, on one thread: the last
/// pass goes on after the first solution; each path is found once.
pub fn idastar_pdb_all(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    limits: &Limits,
    max: usize,
) -> Result<(Vec<Vec<Direction>>, Stats), SearchError> {
    let watch = Watch::new(limits);
    if precheck(start, goal)? {
        return Ok((vec![vec![]], Stats::default()));
    }
    let mt = MoveTable::new(start.size());
    let mut ida = Ida::new(h, &mt, start.cells(), goal.cells(), watch);
    ida.want = max.max(1);
    let parity = solution_parity(start, goal);
    let h0 = ida.h();
    ida.bound = h0 + (h0 + parity) % 2;
    loop {
        ida.next_bound = u32::MAX;
        ida.dfs(start.blank(), 0, None);
        if !ida.found.is_empty() {
            let mut stats = ida.stats;
            stats.elapsed = ida.watch.elapsed();
            return Ok((ida.found, stats));
        }
        if ida.stopped {
            return Err(ida.watch.timeout("idastar", ida.bound, &ida.stats));
        }
        ida.bound = next_pass_bound(ida.next_bound, parity);
    }
}
