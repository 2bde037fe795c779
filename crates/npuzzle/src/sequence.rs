//! Move sequences as speedsolvers handle them: simplified, inverted, transposed, measured
//! in single-tile moves (STM) or multi-tile moves (MTM).
//!
//! Directions are the tile's way (see [`Direction`]). In the multi-tile metric, sliding
//! several tiles of one row or column at once counts as one move: in a sequence of single
//! moves, that is a run of the same direction (`R R R` slides three tiles of a row right).

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::moves::Direction;

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Metric {
    /// Single-tile moves: every tile slid counts.
    #[default]
    Stm,
    /// Multi-tile moves: tiles slid together along a row or column count once.
    Mtm,
}

impl Metric {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Metric, crate::error::NameError> {
        match s {
            "stm" => Ok(Metric::Stm),
            "mtm" => Ok(Metric::Mtm),
            _ => Err(crate::error::NameError::new(&["stm", "mtm"], s)),
        }
    }
}

/// The length of `moves` in `metric`.
///
/// ```
/// use npuzzle::sequence::{length, Metric};
/// use npuzzle::Direction::*;
/// let m = [Right, Right, Up, Left, Left, Left];
/// assert_eq!(length(&m, Metric::Stm), 6);
/// assert_eq!(length(&m, Metric::Mtm), 3);
/// ```
pub fn length(moves: &[Direction], metric: Metric) -> usize {
    match metric {
        Metric::Stm => moves.len(),
        Metric::Mtm => moves.len() - moves.windows(2).filter(|p| p[0] == p[1]).count(),
    }
}

/// `moves` with every move that is followed by its inverse cancelled against it, again
/// and again (`R R L U U` becomes `R U U`, written `RU2`): the same positions reached by
/// the shortest sequence that takes the same path without turning back.
///
/// ```
/// use npuzzle::sequence::simplify;
/// use npuzzle::Direction::*;
/// assert_eq!(simplify(&[Right, Right, Left, Up, Up]), vec![Right, Up, Up]);
/// assert_eq!(simplify(&[Up, Left, Right, Down]), vec![]);
/// ```
pub fn simplify(moves: &[Direction]) -> Vec<Direction> {
    let mut out: Vec<Direction> = Vec::with_capacity(moves.len());
    for &d in moves {
        if out.last() == Some(&d.inverse()) {
            out.pop();
        } else {
            out.push(d);
        }
    }
    out
}

/// The sequence that undoes `moves`: each move inverted, in reverse order.
///
/// ```
/// use npuzzle::sequence::invert;
/// use npuzzle::Direction::*;
/// assert_eq!(invert(&[Up, Up, Left]), vec![Right, Down, Down]);
/// ```
pub fn invert(moves: &[Direction]) -> Vec<Direction> {
    moves.iter().rev().map(|d| d.inverse()).collect()
}

/// A direction mirrored about the main diagonal: up and left trade places, as do down
/// and right.
pub fn transpose_direction(d: Direction) -> Direction {
    match d {
        Direction::Up => Direction::Left,
        Direction::Left => Direction::Up,
        Direction::Down => Direction::Right,
        Direction::Right => Direction::Down,
    }
}

/// `moves` mirrored about the main diagonal: on the transposed board (see
/// [`transpose_board`]) it does what `moves` does on the board, mirrored.
///
/// ```
/// use npuzzle::sequence::transpose;
/// use npuzzle::Direction::*;
/// assert_eq!(transpose(&[Up, Right]), vec![Left, Down]);
/// ```
pub fn transpose(moves: &[Direction]) -> Vec<Direction> {
    moves.iter().map(|&d| transpose_direction(d)).collect()
}

/// The board mirrored about its main diagonal: cell (row, column) goes to (column, row),
/// so a W x H board becomes H x W; tiles keep their numbers.
///
/// ```
/// use npuzzle::sequence::transpose_board;
/// use npuzzle::Board;
/// let b: Board = "1 2 3/4 5 0".parse().unwrap();
/// assert_eq!(transpose_board(&b).to_string(), "1 4/2 5/3 0");
/// ```
pub fn transpose_board(board: &Board) -> Board {
    let size = board.size();
    let (w, h) = (size.width(), size.height());
    let t = crate::board::Size::new(h, w).expect("the same sides, swapped");
    let mut cells = vec![0u8; w * h];
    for r in 0..h {
        for c in 0..w {
            cells[c * h + r] = board.cells()[r * w + c];
        }
    }
    Board::from_cells(t, cells).expect("the same cells, moved")
}

/// The position that `moves` solves: the goal with the inverse sequence applied. `None`
/// if a move of the inverse is illegal from there (the sequence solves no position).
///
/// ```
/// use npuzzle::sequence::from_solution;
/// use npuzzle::{Board, Direction::*};
/// let goal = Board::solved("3x3".parse().unwrap());
/// let start = from_solution(&goal, &[Up, Left]).unwrap();
/// assert_eq!(start.to_string(), "1 2 3/4 0 6/7 5 8");
/// let mut b = start.clone();
/// b.apply_all(&[Up, Left]).unwrap();
/// assert_eq!(b, goal);
/// assert_eq!(from_solution(&goal, &[Down]), None); // no tile can have moved down into it
/// ```
pub fn from_solution(goal: &Board, moves: &[Direction]) -> Option<Board> {
    let mut b = goal.clone();
    b.apply_all(&invert(moves)).ok()?;
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Direction::*;

    #[test]
    fn laws_on_random_sequences() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let board: Board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0".parse().unwrap();
        for _ in 0..200 {
            // A random legal sequence from the board.
            let mut b = board.clone();
            let mut moves = Vec::new();
            for _ in 0..(next() % 40) {
                let d = Direction::ALL[(next() % 4) as usize];
                if b.mover(d).is_some() {
                    b.apply(d).unwrap();
                    moves.push(d);
                }
            }
            // Then its inverse returns the board.
            let mut back = b.clone();
            back.apply_all(&invert(&moves)).unwrap();
            assert_eq!(back, board);
            // Simplify keeps what the sequence does, never lengthens, leaves no U D pair.
            let s = simplify(&moves);
            let mut sb = board.clone();
            sb.apply_all(&s).unwrap();
            assert_eq!(sb, b);
            assert!(s.len() <= moves.len());
            assert!(s.windows(2).all(|p| p[1] != p[0].inverse()));
            // Transpose: the transposed sequence on the transposed board reaches the
            // transposed position.
            let mut tb = transpose_board(&board);
            tb.apply_all(&transpose(&moves)).unwrap();
            assert_eq!(tb, transpose_board(&b));
            // MTM never exceeds STM, and equals it when no move repeats.
            assert!(length(&moves, Metric::Mtm) <= length(&moves, Metric::Stm));
        }
        assert_eq!(length(&[], Metric::Mtm), 0);
        assert_eq!(length(&[Up, Up, Up], Metric::Mtm), 1);
    }
}
