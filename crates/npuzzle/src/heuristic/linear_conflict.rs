use super::{goal_positions, Heuristic, Manhattan};
use crate::board::Board;

/// Manhattan distance plus linear conflicts: in each row, the tiles whose goal is that row
/// must, apart from an ordered subsequence, leave the row and come back (two moves each
/// that Manhattan does not count); likewise in each column. The number that must leave is
/// the line's tile count minus its longest increasing subsequence of goal positions, which
/// is exact, unlike the greedy removal often used.
///
/// A move changes the estimate by exactly one, so the heuristic is consistent.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    md: Manhattan,
    w: usize,
    h: usize,
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
}

impl LinearConflict {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        let w = goal.size().width();
        let pos = goal_positions(goal);
        LinearConflict {
            md: Manhattan::new(goal),
            w,
            h: goal.size().height(),
            goal_row: pos.iter().map(|&p| (p / w) as u8).collect(),
            goal_col: pos.iter().map(|&p| (p % w) as u8).collect(),
        }
    }

    /// Tiles to remove from row `r` (if `row`) or column `r`; `cell(i)` gives the tile at
    /// cell `i`.
    #[inline]
    fn line(&self, row: bool, r: usize, cell: impl Fn(usize) -> u8) -> u32 {
        let n = if row { self.w } else { self.h };
        excess((0..n).filter_map(|k| {
            let t = cell(if row { r * self.w + k } else { k * self.w + r }) as usize;
            let (home, key) = if row {
                (self.goal_row[t], self.goal_col[t])
            } else {
                (self.goal_col[t], self.goal_row[t])
            };
            (t != 0 && home as usize == r).then_some(key)
        }))
    }
}

/// How many of a line's tiles at home in it must leave it to let the others pass: `keys`
/// are their goal positions along the line, in the line's order (at most 16); the answer
/// is their count minus their longest increasing subsequence (by patience sorting).
#[inline]
pub(crate) fn excess(keys: impl Iterator<Item = u8>) -> u32 {
    let mut tails = [0u8; 16];
    let (mut len, mut count) = (0usize, 0u32);
    for key in keys {
        count += 1;
        let at = tails[..len].partition_point(|&x| x < key);
        tails[at] = key;
        if at == len {
            len += 1;
        }
    }
    count - len as u32
}

impl Heuristic for LinearConflict {
    fn estimate(&self, cells: &[u8]) -> u32 {
        let mut extra = 0;
        for r in 0..self.h {
            extra += self.line(true, r, |i| cells[i]);
        }
        for c in 0..self.w {
            extra += self.line(false, c, |i| cells[i]);
        }
        self.md.estimate(cells) + 2 * extra
    }

    #[inline]
    fn update(&self, h: u32, cells: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        let before = |i: usize| {
            if i == from {
                tile
            } else if i == to {
                0
            } else {
                cells[i]
            }
        };
        let after = |i: usize| cells[i];
        // A vertical move changes two rows; a horizontal one two columns. The lines
        // across the move keep their tiles in the same order. Of the two, only the one
        // that is the tile's home can change its conflicts (a line counts the tiles whose
        // home it is), and neither does if the tile's home is elsewhere.
        let (row, a, b, home) = if from % self.w == to % self.w {
            (
                true,
                from / self.w,
                to / self.w,
                self.goal_row[tile as usize],
            )
        } else {
            (
                false,
                from % self.w,
                to % self.w,
                self.goal_col[tile as usize],
            )
        };
        let md = self.md.update(h, cells, tile, from, to);
        let home = home as usize;
        if home != a && home != b {
            return md;
        }
        let old = self.line(row, home, before);
        let new = self.line(row, home, after);
        md + 2 * new - 2 * old
    }
}
