//! The search on one thread: the board, the lookups' running sums, and the depth-first
//! pass below a bound.

use std::sync::atomic::AtomicBool;

use super::super::fsm::{Fsm, State};
use super::super::passes::{weigh, Bound, Pass, Passes};
use super::parallel::Split;
use super::{Step, Undo};
use crate::heuristic::pdb::{PdbHeuristic, Side, MAX_TILES, NONE};
use crate::limits::Watch;
use crate::moves::{Direction, MoveTable};
use crate::solution::Stats;

/// One search on one thread: the databases and the move table it reads, the board as it
/// stands, the sums of the lookups, the path, and the bound of the pass.
pub(super) struct Ida<'a, const S: usize, const L: usize> {
    pub(super) h: &'a PdbHeuristic,
    pub(super) mt: &'a MoveTable,
    pub(super) cells: Vec<u8>,
    pub(super) goal: &'a [u8],
    /// Per shared lookup (see `PdbHeuristic::shared`): its tiles' cells, index and entry.
    look: Vec<Look>,
    /// Per side: the sum of its lookups' entries.
    pub(super) sums: [u32; S],
    /// Per tile: the shared lookups that hold it (a fixed number of slots, the used ones
    /// first and the unused ones after them with the database NONE, so that the loops over
    /// them have a length known when compiled and stop at the first unused slot).
    tiles: Vec<[TileLook; L]>,
    pub(super) path: Vec<Direction>,
    pub(super) stats: Stats,
    pub(super) b: Bound,
    pub(super) watch: Watch,
    /// Set by another thread that found a solution.
    pub(super) abort: Option<&'a AtomicBool>,
    /// With `want > 0`, collect up to `want` solutions instead of stopping at the first.
    pub(super) want: usize,
    pub(super) found: Vec<Vec<Direction>>,
    /// The estimate's weight in thousandths: passes are bounded by g + floor(w x h)
    /// (1000: plain IDA*).
    pub(super) per_mille: u64,
    /// The duplicate-path pruning machine: a move it refuses is not made.
    pub(super) fsm: &'a Fsm,
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
/// in `sides` (a bit each): every sum, the change masked to nothing where the side's bit
/// is clear, without branches. (A loop over the set bits, one to four of them, took 7 to
/// 8% longer on 24-puzzle instances 38 and 44 with eight sides, on one thread.)
#[inline(always)]
fn add_to_sides<const S: usize>(sums: &mut [u32; S], sides: u32, change: u32) {
    for (s, sum) in sums.iter_mut().enumerate() {
        *sum = sum.wrapping_add(change & 0u32.wrapping_sub((sides >> s) & 1));
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
    pub(super) fn new(
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
    pub(super) fn f(&self, g: u32, h: u32) -> u32 {
        g + weigh(h, self.per_mille)
    }

    #[inline(always)]
    pub(super) fn h(&self) -> u32 {
        self.sums.iter().copied().max().unwrap_or(0)
    }

    /// The indices each shared lookup holding `tile` would take with the tile moved to
    /// cell `to` (in the order of `PdbHeuristic::tile_shared`), computed from the current
    /// ones by the change in index, without moving it; asks the processor to fetch the
    /// entries. Doing this for every child before reading any lets the table reads of
    /// siblings overlap instead of waiting in turn.
    #[inline(always)]
    pub(super) fn fetch(&self, tile: u8, to: usize) -> [u64; L] {
        let mut out = [0u64; L];
        let tl = &self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                break;
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
    pub(super) fn peek(&self, tile: u8, idx: [u64; L], from: usize) -> (u32, [u32; L]) {
        let mut vals = [0u32; L];
        let mut sums = self.sums;
        let tl = &self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                break;
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
    pub(super) fn apply(&mut self, tile: u8, to: usize, idx: [u64; L], vals: [u32; L]) -> Undo<L> {
        let mut undo = [(0u64, 0u32); L];
        let tl = self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                break;
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
    pub(super) fn shift(&mut self, tile: u8, to: usize, from: usize) -> Undo<L> {
        let idx = self.fetch(tile, to);
        let (_, vals) = self.peek(tile, idx, from);
        self.apply(tile, to, idx, vals)
    }

    /// Undoes [`shift`](Self::shift) or [`apply`](Self::apply): `tile` goes back to `back`.
    #[inline(always)]
    pub(super) fn unshift(&mut self, tile: u8, back: usize, undo: Undo<L>) {
        let tl = self.tiles[tile as usize];
        for k in 0..L {
            let e = tl[k];
            if e.db == NONE {
                break;
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
    pub(super) fn descend(
        &mut self,
        mut blank: usize,
        path: &[Direction],
        undo: &mut Vec<Step<L>>,
    ) -> usize {
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
    pub(super) fn climb(&mut self, undo: &[Step<L>]) {
        for &(tile, to, from, old) in undo.iter().rev() {
            self.unshift(tile, from, old);
            self.cells[from] = tile;
            self.cells[to] = 0;
        }
    }

    /// Walks `levels` moves down within the bound, pushing the nodes reached; true if it
    /// met the goal on the way (the path holds the moves).
    pub(super) fn collect(
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

    /// The depth-first pass below the node at `blank` (g moves from the start, `q` the
    /// duplicate machine's state): true once it meets the goal (or enough of them).
    ///
    /// On a processor with AVX2 and BMI2 (x86-64-v3) the pass runs in a copy compiled for
    /// them: the sides' sums in wider registers and shifts by a register in one
    /// instruction (3% quicker on 24-puzzle instances 38 and 44, one thread); any other
    /// processor runs the plain copy. The same steps either way.
    pub(super) fn dfs(&mut self, blank: usize, g: u32, q: State) -> bool {
        #[cfg(target_arch = "x86_64")]
        if v3() {
            #[allow(unsafe_code)]
            // SAFETY: the processor has every feature `dfs_v3` is compiled for (checked
            // by `v3`).
            return unsafe { self.dfs_v3(blank, g, q) };
        }
        self.dfs_plain(blank, g, q)
    }

    /// [`dfs`](Self::dfs) compiled for x86-64-v3's instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe")]
    fn dfs_v3(&mut self, blank: usize, g: u32, q: State) -> bool {
        self.dfs_body::<true>(blank, g, q)
    }

    /// [`dfs`](Self::dfs) for any processor.
    fn dfs_plain(&mut self, blank: usize, g: u32, q: State) -> bool {
        self.dfs_body::<false>(blank, g, q)
    }

    /// The pass's steps, compiled into [`dfs_v3`](Self::dfs_v3) (`V3`) and
    /// [`dfs_plain`](Self::dfs_plain); a child is searched by the same copy.
    #[inline(always)]
    fn dfs_body<const V3: bool>(&mut self, blank: usize, g: u32, q: State) -> bool {
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
            if self.dfs_child::<V3>(from, g + 1, nq) {
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

    /// A child's pass, in the copy the parent runs in.
    #[inline(always)]
    fn dfs_child<const V3: bool>(&mut self, blank: usize, g: u32, q: State) -> bool {
        #[cfg(target_arch = "x86_64")]
        if V3 {
            #[allow(unsafe_code)]
            // SAFETY: `V3` is set only in `dfs_v3`'s steps, which run only where `v3`
            // found every feature it is compiled for.
            return unsafe { self.dfs_v3(blank, g, q) };
        }
        self.dfs_plain(blank, g, q)
    }
}

/// Whether the processor has every instruction [`Ida::dfs_v3`] is compiled for (the
/// answer is kept after the first question).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("movbe")
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

    fn generated(&self) -> u64 {
        self.stats.generated
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::PatternDb;
    use crate::scramble::{uniform, Rng};
    use crate::{Board, Limits};

    /// Both copies of the pass, every bound up to the solution, on one board: the same
    /// answer, the same nodes, the same path (where the processor runs only the plain
    /// copy there is nothing to compare).
    fn same_steps<const S: usize, const L: usize>(h: &PdbHeuristic, start: &Board) {
        #[cfg(target_arch = "x86_64")]
        if v3() {
            let goal = h.goal();
            let mt = MoveTable::new(start.size());
            let watch = Watch::new(&Limits::default());
            let new = || Ida::<S, L>::new(h, &mt, start.cells(), goal.cells(), watch.clone());
            let (mut plain, mut wide) = (new(), new());
            let mut bound = plain.h();
            // (No 3x3 board takes more than 31 moves.)
            while bound <= 31 {
                plain.b.start(bound);
                wide.b.start(bound);
                let hit = plain.dfs_plain(start.blank(), 0, Fsm::START);
                #[allow(unsafe_code)]
                // SAFETY: `v3` found every feature `dfs_v3` is compiled for.
                let wide_hit = unsafe { wide.dfs_v3(start.blank(), 0, Fsm::START) };
                assert_eq!(hit, wide_hit, "{start} at bound {bound}");
                assert_eq!(plain.stats.expanded, wide.stats.expanded, "{start}");
                assert_eq!(plain.stats.generated, wide.stats.generated, "{start}");
                if hit {
                    assert_eq!(plain.path, wide.path, "{start}");
                    return;
                }
                bound += 2;
            }
            panic!("{start}: no solution within 31 moves");
        }
    }

    #[test]
    fn the_wide_copy_takes_the_plain_copys_steps() {
        // Zero-aware 3x3 databases and 20 random boards; the wide copy where it runs.
        let goal = Board::solved("3x3".parse().unwrap());
        let lim = Limits::default();
        let dbs = [&[1u8, 2, 3, 4][..], &[5, 6, 7, 8]]
            .iter()
            .map(|t| PatternDb::build_zero_aware(&goal, t, &lim, 1, &mut |_| {}).unwrap())
            .collect();
        let h = PdbHeuristic::new(&goal, dbs).unwrap();
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let start = uniform(&goal, &mut rng);
            by_sides!(h, same_steps(&h, &start));
        }
    }
}
