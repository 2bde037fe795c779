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
    lines: LineKeys,
}

/// Per line of a board (its rows, then its columns) and tile: the tile's key in that line's
/// conflicts (its goal column in its home row, its goal row in its home column), or none
/// where it is not at home in that line or does not count. What [`LinearConflict`] and the
/// beams (which count only the tiles they track) read a line's conflicts through.
#[derive(Debug, Clone)]
pub(crate) struct LineKeys {
    w: usize,
    h: usize,
    n: usize,
    keys: Vec<u8>,
    /// Per tile: its goal row and goal column where it counts (else [`NO_KEY`]).
    home_row: Vec<u8>,
    home_col: Vec<u8>,
}

/// A tile's key in a line where it counts for no conflict.
const NO_KEY: u8 = u8::MAX;

impl LineKeys {
    /// The keys towards `goal`, for the tiles `counts` says count (never the blank).
    pub(crate) fn new(goal: &Board, counts: impl Fn(usize) -> bool) -> LineKeys {
        let (w, h) = (goal.size().width(), goal.size().height());
        let pos = goal_positions(goal);
        let n = pos.len();
        let mut keys = vec![NO_KEY; (h + w) * n];
        let (mut home_row, mut home_col) = (vec![NO_KEY; n], vec![NO_KEY; n]);
        for t in (1..n).filter(|&t| counts(t)) {
            let (r, c) = (pos[t] / w, pos[t] % w);
            keys[r * n + t] = c as u8;
            keys[(h + c) * n + t] = r as u8;
            (home_row[t], home_col[t]) = (r as u8, c as u8);
        }
        LineKeys {
            w,
            h,
            n,
            keys,
            home_row,
            home_col,
        }
    }

    /// Every row's and column's [`LineKeys::excess`] together; `cell(i)` gives the tile at
    /// cell `i`.
    #[inline]
    pub(crate) fn total(&self, cell: impl Fn(usize) -> u8) -> u32 {
        (0..self.h)
            .map(|r| self.excess(true, r, &cell))
            .sum::<u32>()
            + (0..self.w)
                .map(|c| self.excess(false, c, &cell))
                .sum::<u32>()
    }

    /// The conflicts a move of `tile` from cell `from` to cell `to` changes, before and
    /// after it (`before(i)` and `after(i)` give the tile at cell `i` on each side). A
    /// vertical move changes two rows, a horizontal one two columns; the lines across it
    /// keep their tiles in the same order. Of the two, only the tile's home can change its
    /// conflicts, as the tile comes into it or leaves it: that line is counted once, with
    /// the tile and without it. (0, 0) where neither is its home, or the tile does not
    /// count.
    #[inline(always)]
    pub(crate) fn moved(
        &self,
        tile: u8,
        from: usize,
        to: usize,
        before: impl Fn(usize) -> u8,
        after: impl Fn(usize) -> u8,
    ) -> (u32, u32) {
        let t = tile as usize;
        let (row, a, b, home) = if from % self.w == to % self.w {
            (true, from / self.w, to / self.w, self.home_row[t])
        } else {
            (false, from % self.w, to % self.w, self.home_col[t])
        };
        let home = home as usize;
        if home == b {
            let (with, without) = self.excess_with_without(row, home, after, to);
            (without, with)
        } else if home == a {
            self.excess_with_without(row, home, before, from)
        } else {
            (0, 0)
        }
    }

    /// Tiles to remove from row `r` (if `row`) or column `r`; `cell(i)` gives the tile at
    /// cell `i`.
    #[inline]
    pub(crate) fn excess(&self, row: bool, r: usize, cell: impl Fn(usize) -> u8) -> u32 {
        let (m, first, step, line) = if row {
            (self.w, r * self.w, 1, r)
        } else {
            (self.h, r, self.w, self.h + r)
        };
        let keys = &self.keys[line * self.n..(line + 1) * self.n];
        excess(
            (0..m)
                .map(|k| keys[cell(first + k * step) as usize])
                .filter(|&key| key != NO_KEY),
        )
    }

    /// Row `r` (if `row`) or column `r`'s [`LineKeys::excess`] with the tile at cell `at`
    /// (a cell of that line) and without it, in one pass: the two sides of a move that
    /// takes a tile into or out of its home line. `cell(i)` gives the tile at cell `i`
    /// on the side that holds it.
    #[inline]
    fn excess_with_without(
        &self,
        row: bool,
        r: usize,
        cell: impl Fn(usize) -> u8,
        at: usize,
    ) -> (u32, u32) {
        let (m, first, step, line) = if row {
            (self.w, r * self.w, 1, r)
        } else {
            (self.h, r, self.w, self.h + r)
        };
        let keys = &self.keys[line * self.n..(line + 1) * self.n];
        let (mut with, mut without) = (Lis::default(), Lis::default());
        for k in 0..m {
            let i = first + k * step;
            let key = keys[cell(i) as usize];
            if key == NO_KEY {
                continue;
            }
            with.push(key);
            if i != at {
                without.push(key);
            }
        }
        (with.excess(), without.excess())
    }
}

/// [`excess`] kept key by key: patience sorting on a bit set.
#[derive(Default, Clone, Copy)]
struct Lis {
    tails: u32,
    count: u32,
    longest: u32,
}

impl Lis {
    #[inline]
    fn push(&mut self, key: u8) {
        self.count += 1;
        let not_below = self.tails & (u32::MAX << key);
        self.longest += (not_below == 0) as u32;
        self.tails = (self.tails & !(not_below & not_below.wrapping_neg())) | 1 << key;
    }

    #[inline]
    fn excess(&self) -> u32 {
        self.count - self.longest
    }
}

impl LinearConflict {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        LinearConflict {
            md: Manhattan::new(goal),
            lines: LineKeys::new(goal, |_| true),
        }
    }
}

/// How many of a line's tiles at home in it must leave it to let the others pass: `keys`
/// are their goal positions along the line, in the line's order (distinct, each under 16);
/// the answer is their count minus their longest increasing subsequence. Patience sorting
/// on a bit set: bit `k` is set when some increasing run so far ends at best in key `k`
/// (each key replaces the least tail not below it), so the runs' longest is the set bits'
/// count, which grows by one exactly when no tail is at or above the key (counted as it
/// goes: baseline x86-64 has no population count instruction).
#[inline]
pub(crate) fn excess(keys: impl Iterator<Item = u8>) -> u32 {
    let (mut tails, mut count, mut longest) = (0u32, 0u32, 0u32);
    for key in keys {
        count += 1;
        let not_below = tails & (u32::MAX << key);
        longest += (not_below == 0) as u32;
        // The least tail not below the key, if any, gives way to it.
        tails = (tails & !(not_below & not_below.wrapping_neg())) | 1 << key;
    }
    debug_assert_eq!(longest, tails.count_ones());
    count - longest
}

impl Heuristic for LinearConflict {
    fn estimate(&self, cells: &[u8]) -> u32 {
        self.md.estimate(cells) + 2 * self.lines.total(|i| cells[i])
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
        let md = self.md.update(h, cells, tile, from, to);
        let (old, new) = self.lines.moved(tile, from, to, before, |i| cells[i]);
        md + 2 * new - 2 * old
    }
}

#[cfg(test)]
mod tests {
    use super::excess;
    use crate::scramble::Rng;

    /// The longest increasing subsequence the plain quadratic way.
    fn longest_increasing(keys: &[u8]) -> u32 {
        let mut best = vec![1u32; keys.len()];
        for i in 0..keys.len() {
            for j in 0..i {
                if keys[j] < keys[i] {
                    best[i] = best[i].max(best[j] + 1);
                }
            }
        }
        best.into_iter().max().unwrap_or(0)
    }

    /// The bit-set count agrees with the quadratic one on every line of up to 16
    /// distinct keys tried (random subsets in random orders, every length).
    #[test]
    fn excess_is_count_minus_the_longest_increasing_run() {
        let mut rng = Rng::new(11);
        for _ in 0..20_000 {
            let mut keys: Vec<u8> = (0..16).collect();
            for i in (1..keys.len()).rev() {
                keys.swap(i, rng.below(i as u64 + 1) as usize);
            }
            keys.truncate(rng.below(17) as usize);
            let want = keys.len() as u32 - longest_increasing(&keys);
            assert_eq!(excess(keys.iter().copied()), want, "{keys:?}");
        }
        assert_eq!(excess([15, 0].into_iter()), 1);
        assert_eq!(excess((0..16).rev()), 15);
        assert_eq!(excess(0..16), 0);
        assert_eq!(excess(std::iter::empty()), 0);
    }

    /// A line's conflicts with one tile and without it, counted in one pass, equal the
    /// two counted apart: every row and column of random 4x4, 5x3 and 7x7 boards, with
    /// and without each cell's tile, some tiles not counted.
    #[test]
    fn with_and_without_one_tile_in_one_pass() {
        use super::LineKeys;
        use crate::board::Board;
        let mut rng = Rng::new(5);
        for size in ["4x4", "5x3", "7x7"] {
            let goal = Board::solved(size.parse().unwrap());
            let (w, n) = (goal.size().width(), goal.cells().len());
            for skip in [0, 3] {
                let keys = LineKeys::new(&goal, |t| skip == 0 || t % skip != 0);
                for _ in 0..200 {
                    let board = crate::scramble::uniform(&goal, &mut rng);
                    let cells = board.cells();
                    for at in 0..n {
                        for (row, r) in [(true, at / w), (false, at % w)] {
                            let without = |i: usize| if i == at { 0 } else { cells[i] };
                            let want = (
                                keys.excess(row, r, |i| cells[i]),
                                keys.excess(row, r, without),
                            );
                            let got = keys.excess_with_without(row, r, |i| cells[i], at);
                            assert_eq!(got, want, "{size} cell {at} row {row} line {r}");
                        }
                    }
                }
            }
        }
    }
}
