//! The four moves: [`Direction`] names the way the **tile** moves, the sliding-puzzle
//! community's convention (`U` slides the tile below the blank up, so the blank goes
//! down). The lowest room of the house: it uses nothing else.

use std::fmt;

/// The way a tile slides into the blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// The tile below the blank slides up (the blank goes down).
    Up,
    /// The tile above the blank slides down (the blank goes up).
    Down,
    /// The tile right of the blank slides left (the blank goes right).
    Left,
    /// The tile left of the blank slides right (the blank goes left).
    Right,
}

impl Direction {
    /// All four, in the order U, D, L, R.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The move that undoes this one.
    pub fn inverse(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The letter in tile notation: `U`, `D`, `L`, `R`.
    pub fn tile_char(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    /// The letter in blank notation: where the blank goes (`d` for the tile move `U`).
    pub fn blank_char(self) -> char {
        match self {
            Direction::Up => 'd',
            Direction::Down => 'u',
            Direction::Left => 'r',
            Direction::Right => 'l',
        }
    }

    /// The index of this direction in [`Direction::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn from_tile_char(c: char) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.tile_char() == c)
    }

    pub(crate) fn from_blank_char(c: char) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.blank_char() == c)
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.tile_char())
    }
}
