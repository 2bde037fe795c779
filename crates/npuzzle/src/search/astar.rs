use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::passes::{unweigh, weigh};
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::{with_heuristic, Heuristic, HeuristicKind};
use crate::limits::{Limits, Trace, Watch};
use crate::moves::Direction;
use crate::moves::MoveTable;
use crate::parity::precheck;
use crate::solution::{Solution, Stats};

/// A multiplicative hasher for packed states: the keys are already well spread, and the
/// default SipHash costs more than the rest of a node expansion.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}

/// An entry of the open list: f, g (ties broken towards deeper nodes), node index.
type OpenEntry = (Reverse<u32>, u16, u32);
type Index = HashMap<u128, u32, BuildHasherDefault<KeyHasher>>;

/// Bytes a hash table of `capacity` entries holds: its buckets (a power of two, at most
/// 7/8 full) of one entry and one control byte each.
fn table_bytes(capacity: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two() as u64;
    buckets * (std::mem::size_of::<(u128, u32)>() as u64 + 1)
}

/// What the search holds, counted from the structures' capacities (what the allocator
/// gave, not what is in use).
fn held(nodes: &Vec<Node>, index: &Index, open: &BinaryHeap<OpenEntry>) -> u64 {
    (nodes.capacity() * std::mem::size_of::<Node>()) as u64
        + table_bytes(index.capacity())
        + (open.capacity() * std::mem::size_of::<OpenEntry>()) as u64
}

/// The bytes held at the peak of the next expansion (up to four insertions), if one of
/// the structures may grow in it: a full vector or table is copied into one twice its
/// size, and both are held while that happens. `None` if nothing grows.
fn next_peak(nodes: &Vec<Node>, index: &Index, open: &BinaryHeap<OpenEntry>) -> Option<u64> {
    let full = |len: usize, cap: usize| len + 4 > cap;
    let mut extra = 0u64;
    if full(nodes.len(), nodes.capacity()) {
        extra += (nodes.capacity().max(4) * 2 * std::mem::size_of::<Node>()) as u64;
    }
    if full(index.len(), index.capacity()) {
        extra += table_bytes(index.capacity().max(3) * 2);
    }
    if full(open.len(), open.capacity()) {
        extra += (open.capacity().max(4) * 2 * std::mem::size_of::<OpenEntry>()) as u64;
    }
    (extra > 0).then(|| held(nodes, index, open) + extra)
}

/// The boards waiting in the open list by f, smallest first (entries left behind by a
/// shorter path found later are not counted). For watching: a pass over the list.
fn open_by_f(open: &BinaryHeap<OpenEntry>, nodes: &[Node]) -> Vec<(u32, u64)> {
    let mut counts = std::collections::BTreeMap::new();
    for &(Reverse(f), g, i) in open.iter() {
        let n = &nodes[i as usize];
        if !n.closed && n.g == g {
            *counts.entry(f).or_insert(0u64) += 1;
        }
    }
    counts.into_iter().collect()
}

struct Node {
    key: u128,
    parent: u32,
    g: u16,
    h: u16,
    blank: u8,
    /// 1 + the move that reached the node; 0 for the root.
    dir: u8,
    closed: bool,
}

/// A* search: a shortest solution.
///
/// Every generated state is kept with its best known cost; a state reached again by a
/// shorter path is updated and reopened, and the search stops only when the goal is taken
/// from the open list (not when it is first generated), which is what makes the answer
/// shortest. Ties on `f` go to the deeper state. Boards of up to 25 cells.
///
/// ```
/// use npuzzle::{astar, Board, HeuristicKind, Limits};
/// let start: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let s = astar(&start, &goal, HeuristicKind::LinearConflict, &Limits::default()).unwrap();
/// assert_eq!(s.len(), 14);
/// ```
pub fn astar(
    start: &Board,
    goal: &Board,
    heuristic: HeuristicKind,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    with_heuristic!(heuristic, goal, "astar", h => run(start, goal, h, limits, 1000))
}

/// Weighted A*: states taken in order of `g + floor(weight x h)`, so a solution comes
/// sooner and is at most `weight` times the shortest (when the goal is taken, its cost is
/// at most the f of the shortest path's open state, which is at most `weight` times its
/// length). `weight` from 1 to 100; 1 is [`astar`]. A search stopped by its limits
/// reports the lower bound it proved: the least f open, divided by the weight.
///
/// ```
/// use npuzzle::search::astar_weighted;
/// use npuzzle::{Board, HeuristicKind, Limits};
/// let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let goal = Board::solved(start.size());
/// let s = astar_weighted(&start, &goal, HeuristicKind::Manhattan, 2.0, &Limits::default()).unwrap();
/// assert!(s.len() >= 31 && s.len() <= 62);
/// ```
pub fn astar_weighted(
    start: &Board,
    goal: &Board,
    heuristic: HeuristicKind,
    weight: f64,
    limits: &Limits,
) -> Result<Solution, SearchError> {
    let per_mille = super::passes::per_mille(weight, "astar")?;
    with_heuristic!(heuristic, goal, "astar", h => run(start, goal, h, limits, per_mille))
}

fn run<H: Heuristic>(
    start: &Board,
    goal: &Board,
    h: &H,
    limits: &Limits,
    per_mille: u64,
) -> Result<Solution, SearchError> {
    // The open list's key: g + h, or g + floor(w x h) when weighted.
    let f = |g: u32, h: u32| g + weigh(h, per_mille);
    let watch = Watch::new(limits);
    let mut stats = Stats::default();
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats,
        });
    }
    let size = start.size();
    let n = size.cells();
    let bits = match n {
        0..=16 => 4,
        17..=25 => 5,
        _ => {
            return Err(SearchError::TooManyCells {
                algorithm: "astar",
                size,
                most: 25,
                instead: "idastar",
            })
        }
    };
    let mask: u128 = (1 << bits) - 1;
    let pack = |cells: &[u8]| {
        cells
            .iter()
            .enumerate()
            .fold(0u128, |k, (i, &t)| k | (t as u128) << (bits * i))
    };
    let target = pack(goal.cells());
    let mt = MoveTable::new(size);
    let mut nodes = vec![Node {
        key: pack(start.cells()),
        parent: 0,
        g: 0,
        h: h.estimate(start.cells()) as u16,
        blank: start.blank() as u8,
        dir: 0,
        closed: false,
    }];
    let mut index: Index = HashMap::default();
    index.insert(nodes[0].key, 0);
    let mut open: BinaryHeap<OpenEntry> = BinaryHeap::new();
    open.push((Reverse(f(0, nodes[0].h as u32)), 0u16, 0u32));
    let mut cells = vec![0u8; n];
    let mut lower_bound;
    while let Some((Reverse(fv), g, i)) = open.pop() {
        let node = &nodes[i as usize];
        if node.closed || node.g != g {
            continue;
        }
        // What the least open f proves: it is at most w x the shortest length.
        lower_bound = unweigh(fv, per_mille);
        if node.key == target {
            stats.peak_stored = nodes.len() as u64;
            stats.elapsed = watch.elapsed();
            let mut moves = Vec::with_capacity(g as usize);
            let mut j = i as usize;
            while nodes[j].dir != 0 {
                moves.push(Direction::ALL[nodes[j].dir as usize - 1]);
                j = nodes[j].parent as usize;
            }
            moves.reverse();
            return Ok(Solution { moves, stats });
        }
        stats.expanded += 1;
        if stats.expanded & 0xfff == 0 && watch.stop(stats.expanded) {
            return Err(watch.timeout("astar", lower_bound, stats.expanded, stats.generated));
        }
        // Up to four children are stored: before a structure grows, the memory it will
        // hold at the peak of growing must fit the limit (and the machine). Counting
        // before growing keeps the peak within the limit; counting states after the
        // fact let it run a third over.
        if let Some(peak) = next_peak(&nodes, &index, &open) {
            limits.check_memory("astar", size, peak, "idastar")?;
        }
        let (key, blank, hv, back) = (node.key, node.blank as usize, node.h, node.dir);
        nodes[i as usize].closed = true;
        for (c, slot) in cells.iter_mut().enumerate() {
            *slot = ((key >> (bits * c)) & mask) as u8;
        }
        if let Some(t) = watch.tracing() {
            t(&Trace::Expand {
                cells: &cells,
                g: g as u32,
                h: hv as u32,
                open: &open_by_f(&open, &nodes),
                expanded: stats.expanded,
            });
        }
        for &(d, from) in mt.from(blank) {
            if back != 0 && Direction::ALL[back as usize - 1].inverse() == d {
                continue;
            }
            stats.generated += 1;
            let tile = cells[from];
            let t = tile as u128;
            let child = key ^ (t << (bits * from)) ^ (t << (bits * blank));
            let g2 = g + 1;
            match index.get(&child) {
                Some(&j) => {
                    let other = &mut nodes[j as usize];
                    if g2 < other.g {
                        other.g = g2;
                        other.parent = i;
                        other.dir = d.index() as u8 + 1;
                        other.closed = false;
                        open.push((Reverse(f(g2 as u32, other.h as u32)), g2, j));
                    }
                }
                None => {
                    cells[blank] = tile;
                    cells[from] = 0;
                    let h2 = h.update(hv as u32, &cells, tile, from, blank);
                    cells[from] = tile;
                    cells[blank] = 0;
                    let j = nodes.len() as u32;
                    nodes.push(Node {
                        key: child,
                        parent: i,
                        g: g2,
                        h: h2 as u16,
                        blank: from as u8,
                        dir: d.index() as u8 + 1,
                        closed: false,
                    });
                    index.insert(child, j);
                    open.push((Reverse(f(g2 as u32, h2)), g2, j));
                }
            }
        }
    }
    unreachable!("the parity test admitted an unreachable goal")
}
