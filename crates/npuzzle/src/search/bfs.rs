use super::packed::{self, check_memory};
use crate::board::Board;
use crate::error::SearchError;
use crate::limits::{try_vec, Limits, Trace, Watch};
use crate::moves::Direction;
use crate::moves::MoveTable;
use crate::parity::precheck;
use crate::solution::{Solution, Stats};

/// `via[rank]`: 0 for a state not yet seen, otherwise 1 + the index of the move that
/// first reached it (5 marks a root).
pub(crate) const ROOT: u8 = 5;

/// Walks from `s` back to the root of a `via` array, returning the moves from the root
/// to `s`.
pub(crate) fn path_to(mut s: u64, via: &[u8], n: usize, mt: &MoveTable) -> Vec<Direction> {
    let mut moves = Vec::new();
    loop {
        let v = via[packed::rank(s, n)];
        if v == ROOT {
            break;
        }
        let d = Direction::ALL[(v - 1) as usize];
        moves.push(d);
        let back = mt
            .mover(packed::blank(s), d.inverse())
            .expect("the inverse of a move is legal");
        s = packed::slide(s, back);
    }
    moves.reverse();
    moves
}

/// Breadth-first search from `start` to `goal`: a shortest solution.
///
/// Visited states are marked in an array indexed by permutation rank (one byte per
/// permutation, which also records the move that reached the state), so boards of up to
/// 12 cells fit in memory; larger ones fail with [`SearchError::MemoryLimit`].
///
/// ```
/// use npuzzle::{bfs, Board, Limits};
/// let start: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// let s = bfs(&start, &Board::solved(start.size()), &Limits::default()).unwrap();
/// assert_eq!(s.len(), 14);
/// ```
pub fn bfs(start: &Board, goal: &Board, limits: &Limits) -> Result<Solution, SearchError> {
    let watch = Watch::new(limits);
    let mut stats = Stats::default();
    if precheck(start, goal)? {
        return Ok(Solution {
            moves: vec![],
            stats,
        });
    }
    let size = start.size();
    let states = check_memory("bfs", size, 1.0, 4.0, limits)?;
    let n = size.cells();
    let mt = MoveTable::new(size);
    let mut via = try_vec(states, "bfs", || 0u8)?;
    let s0 = packed::pack(start);
    let target = packed::pack(goal);
    via[packed::rank(s0, n)] = ROOT;
    let mut frontier = vec![s0];
    let mut next = Vec::new();
    let mut seen = 1u64;
    let mut depth = 0u32;
    let layer = |depth: u32, states: usize, seen: u64, expanded: u64| {
        if let Some(t) = watch.tracing() {
            t(&Trace::Layer {
                side: 0,
                depth,
                states: states as u64,
                seen,
                expanded,
            });
        }
    };
    layer(0, 1, seen, 0);
    while !frontier.is_empty() {
        for &s in &frontier {
            stats.expanded += 1;
            if stats.expanded & 0x3fff == 0 && watch.stop(stats.expanded) {
                return Err(watch.timeout("bfs", depth + 1, stats.expanded, stats.generated));
            }
            for &(d, from) in mt.from(packed::blank(s)) {
                let t = packed::slide(s, from);
                stats.generated += 1;
                let r = packed::rank(t, n);
                if via[r] != 0 {
                    continue;
                }
                via[r] = d.index() as u8 + 1;
                seen += 1;
                if t == target {
                    // (The layer where the goal was met, as far as it was grown.)
                    layer(depth + 1, next.len() + 1, seen, stats.expanded);
                    stats.peak_stored = seen;
                    stats.elapsed = watch.elapsed();
                    return Ok(Solution {
                        moves: path_to(t, &via, n, &mt),
                        stats,
                    });
                }
                next.push(t);
            }
        }
        depth += 1;
        layer(depth, next.len(), seen, stats.expanded);
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    unreachable!("the parity test admitted an unreachable goal")
}
