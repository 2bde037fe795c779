use super::{goal_positions, Heuristic};
use crate::board::Board;

/// The number of tiles (not counting the blank) away from their goal cell.
#[derive(Debug, Clone)]
pub struct Misplaced {
    goal_pos: Vec<usize>,
}

impl Misplaced {
    /// The heuristic towards `goal`.
    pub fn new(goal: &Board) -> Misplaced {
        Misplaced {
            goal_pos: goal_positions(goal),
        }
    }
}

impl Heuristic for Misplaced {
    fn estimate(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .filter(|&(i, &t)| t != 0 && self.goal_pos[t as usize] != i)
            .count() as u32
    }

    #[inline]
    fn update(&self, h: u32, _cells: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        let g = self.goal_pos[tile as usize];
        h + (g == from) as u32 - (g == to) as u32
    }
}
