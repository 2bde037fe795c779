//! Admissible heuristics: lower bounds on the number of moves to the goal.
//!
//! Each heuristic is built once for a goal and then evaluated from scratch
//! ([`Heuristic::estimate`]) or updated after one move ([`Heuristic::update`]), which is
//! what the searches do in their inner loops.

pub(crate) mod linear_conflict;
mod manhattan;
mod misplaced;
pub mod mtm_pdb;
pub mod pdb;
mod walking_distance;

use std::fmt;
use std::str::FromStr;

pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use misplaced::Misplaced;
pub use walking_distance::WalkingDistance;

use crate::board::Board;

/// A lower bound on the distance to one goal.
pub trait Heuristic {
    /// The estimate for `cells` (row-major, `0` the blank), computed from scratch.
    fn estimate(&self, cells: &[u8]) -> u32;

    /// The estimate after `tile` slid from cell `from` to cell `to`, given the estimate
    /// `h` before the move and the cells after it.
    fn update(&self, h: u32, cells: &[u8], tile: u8, from: usize, to: usize) -> u32;
}

/// The heuristics to choose from by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HeuristicKind {
    /// Number of tiles not on their goal cell.
    Misplaced,
    /// Sum of the tiles' grid distances to their goal cells.
    Manhattan,
    /// Manhattan plus two moves for each tile that must leave its goal row or column to
    /// let another pass (Hansson, Mayer and Yung).
    LinearConflict,
    /// Takahashi's walking distance (boards up to 4 x 4).
    WalkingDistance,
}

impl HeuristicKind {
    /// All heuristics, weakest first.
    pub const ALL: [HeuristicKind; 4] = [
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::WalkingDistance,
    ];

    /// Whether the heuristic handles boards of `size` (walking distance: up to 4 x 4).
    pub fn supports(self, size: crate::size::Size) -> bool {
        self != HeuristicKind::WalkingDistance
            || (size.width() <= walking_distance::MAX_SIDE
                && size.height() <= walking_distance::MAX_SIDE)
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Misplaced => "misplaced",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::WalkingDistance => "walking-distance",
        }
    }

    /// Evaluates this heuristic on `board` towards `goal` (same size assumed); `None` if
    /// it does not handle the size (see [`supports`](HeuristicKind::supports)).
    ///
    /// ```
    /// use npuzzle::{Board, HeuristicKind};
    /// let b: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
    /// let g = Board::solved(b.size());
    /// assert_eq!(HeuristicKind::Misplaced.estimate(&b, &g), Some(5));
    /// assert_eq!(HeuristicKind::Manhattan.estimate(&b, &g), Some(10));
    /// assert_eq!(HeuristicKind::WalkingDistance.estimate(&b, &g), Some(10));
    /// ```
    pub fn estimate(self, board: &Board, goal: &Board) -> Option<u32> {
        Some(match self {
            HeuristicKind::Misplaced => Misplaced::new(goal).estimate(board.cells()),
            HeuristicKind::Manhattan => Manhattan::new(goal).estimate(board.cells()),
            HeuristicKind::LinearConflict => LinearConflict::new(goal).estimate(board.cells()),
            HeuristicKind::WalkingDistance => WalkingDistance::new(goal)?.estimate(board.cells()),
        })
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<HeuristicKind, crate::error::NameError> {
        match s {
            "misplaced" | "hamming" => Ok(HeuristicKind::Misplaced),
            "manhattan" | "md" => Ok(HeuristicKind::Manhattan),
            "linear-conflict" | "linear" | "lc" => Ok(HeuristicKind::LinearConflict),
            "walking-distance" | "wd" => Ok(HeuristicKind::WalkingDistance),
            _ => Err(crate::error::NameError::new(
                &[
                    "misplaced",
                    "manhattan",
                    "linear-conflict",
                    "walking-distance",
                ],
                s,
            )),
        }
    }
}

/// Runs `$body` with `$h` bound to a reference to the heuristic `$kind` built for
/// `$goal`: the searches are generic over the heuristic (no dynamic dispatch in their
/// loops), and this is the one place that turns a [`HeuristicKind`] into a type. Walking
/// distance on a board past 4x4 is [`SearchError::Unsupported`](crate::SearchError) for
/// `$algorithm`.
macro_rules! with_heuristic {
    ($kind:expr, $goal:expr, $algorithm:expr, $h:ident => $body:expr) => {{
        use $crate::heuristic::{
            HeuristicKind, LinearConflict, Manhattan, Misplaced, WalkingDistance,
        };
        let goal: &$crate::board::Board = $goal;
        match $kind {
            HeuristicKind::Misplaced => {
                let $h = &Misplaced::new(goal);
                $body
            }
            HeuristicKind::Manhattan => {
                let $h = &Manhattan::new(goal);
                $body
            }
            HeuristicKind::LinearConflict => {
                let $h = &LinearConflict::new(goal);
                $body
            }
            HeuristicKind::WalkingDistance => match WalkingDistance::new(goal) {
                Some(wd) => {
                    let $h = &wd;
                    $body
                }
                None => Err($crate::error::SearchError::Unsupported {
                    algorithm: $algorithm,
                    reason: format!(
                        "walking distance handles boards up to 4x4, not {}",
                        goal.size()
                    ),
                }),
            },
        }
    }};
}
pub(crate) use with_heuristic;

/// Where each tile stands in the goal: `pos[tile]`.
pub(crate) fn goal_positions(goal: &Board) -> Vec<usize> {
    let mut pos = vec![0usize; goal.cells().len()];
    for (i, &t) in goal.cells().iter().enumerate() {
        pos[t as usize] = i;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Direction;

    fn check_updates<H: Heuristic>(h: &H, start: &Board) {
        let mut b = start.clone();
        let mut hv = h.estimate(b.cells());
        // A fixed pseudo-random walk.
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = Direction::ALL[(x % 4) as usize];
            if let Some(from) = b.mover(d) {
                let to = b.blank();
                let tile = b.cells()[from];
                b.apply(d).unwrap();
                let new = h.update(hv, b.cells(), tile, from, to);
                assert_eq!(new, h.estimate(b.cells()), "after {d} on {b}");
                assert!(new.abs_diff(hv) <= 1, "consistent: changes by at most 1");
                hv = new;
            }
        }
    }

    #[test]
    fn incremental_updates_match_full_estimates() {
        for (text, goal) in [
            ("8 1 3/4 0 2/7 6 5", None),
            ("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", None),
            ("1 2 3 4 5/6 7 8 9 0", Some("0 1 2 3 4/5 6 7 8 9")),
            ("1 2/3 4/5 0", Some("5 4/3 2/1 0")),
        ] {
            let b: Board = text.parse().unwrap();
            let g = goal.map_or_else(|| Board::solved(b.size()), |t| t.parse().unwrap());
            check_updates(&Misplaced::new(&g), &b);
            check_updates(&Manhattan::new(&g), &b);
            check_updates(&LinearConflict::new(&g), &b);
            if let Some(wd) = WalkingDistance::new(&g) {
                check_updates(&wd, &b);
            }
        }
    }

    #[test]
    fn known_values() {
        let g = Board::solved(crate::size::Size::square(3).unwrap());
        // Row 1 holds 3 2 1 in reverse: two of them must leave the row.
        let b: Board = "3 2 1/4 5 6/7 8 0".parse().unwrap();
        assert_eq!(Manhattan::new(&g).estimate(b.cells()), 4);
        assert_eq!(LinearConflict::new(&g).estimate(b.cells()), 8);
        assert_eq!(LinearConflict::new(&g).estimate(g.cells()), 0);
    }
}
