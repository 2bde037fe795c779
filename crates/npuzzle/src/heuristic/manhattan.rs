use super::{goal_positions, Heuristic};
use crate::board::Board;

/// The sum over tiles of the grid distance to the goal cell, with a
/// `[tile][cell]` distance table so that a move costs one lookup pair.
#[derive(Debug, Clone)]
pub struct Manhattan {
    n: usize,
    dist: Vec<u8>,
}

impl Manhattan {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Board) -> Manhattan {
        let n = goal.cells().len();
        let w = goal.size().width();
        let pos = goal_positions(goal);
        let mut dist = vec![0u8; n * n];
        for t in 1..n {
            let g = pos[t];
            for p in 0..n {
                dist[t * n + p] = ((g / w).abs_diff(p / w) + (g % w).abs_diff(p % w)) as u8;
            }
        }
        Manhattan { n, dist }
    }

    /// The distance of `tile` at `cell` from its goal cell.
    #[inline]
    pub fn tile_distance(&self, tile: u8, cell: usize) -> u32 {
        self.dist[tile as usize * self.n + cell] as u32
    }
}

impl Heuristic for Manhattan {
    fn estimate(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(i, &t)| self.tile_distance(t, i))
            .sum()
    }

    #[inline]
    fn update(&self, h: u32, _cells: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        h + self.tile_distance(tile, to) - self.tile_distance(tile, from)
    }
}
