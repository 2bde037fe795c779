//! What a search returns: the moves and the counters of the work it did.

use std::time::Duration;

use crate::moves::Direction;

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successor states generated (the inverse of the previous move is not generated).
    pub generated: u64,
    /// The most states held in memory at once (for depth-first searches: the deepest path).
    pub peak_stored: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// A shortest solution and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The moves, in tile notation directions, from the start to the goal.
    pub moves: Vec<Direction>,
    /// Counters and time.
    pub stats: Stats,
}

impl Solution {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the start was already the goal.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}
