//! Board sizes: width and height from 2 to 16, cells and their places, and the one
//! geometry of moves every table shares. Uses only [`Direction`].

use std::fmt;
use std::str::FromStr;

use crate::direction::Direction;

/// The smallest width or height a board may have.
pub const MIN_SIDE: usize = 2;
/// The largest width or height a board may have.
pub const MAX_SIDE: usize = 16;
/// The dimensions of a board: width (columns) and height (rows), each from 2 to 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Size {
    width: usize,
    height: usize,
}

impl Size {
    /// A size of `width` columns and `height` rows.
    ///
    /// ```
    /// use npuzzle::Size;
    /// let s = Size::new(4, 3).unwrap();
    /// assert_eq!((s.width(), s.height(), s.cells()), (4, 3, 12));
    /// assert!(Size::new(1, 5).is_err());
    /// ```
    pub fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(SizeError::OutOfRange { width, height });
        }
        Ok(Size { width, height })
    }

    /// A square size `side x side`.
    pub fn square(side: usize) -> Result<Size, SizeError> {
        Size::new(side, side)
    }

    /// Number of columns.
    pub fn width(self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(self) -> usize {
        self.height
    }

    /// Number of cells, `width * height`.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// The 1-based row and column of a cell index.
    pub fn cell(self, index: usize) -> Cell {
        Cell {
            row: index / self.width + 1,
            col: index % self.width + 1,
        }
    }

    /// The cell whose tile would slide in direction `dir` into a blank at `blank`, if
    /// any: the one geometry every move table and board shares.
    ///
    /// ```
    /// use npuzzle::{Direction, Size};
    /// let s = Size::new(3, 3).unwrap();
    /// assert_eq!(s.mover(4, Direction::Up), Some(7)); // the tile below slides up
    /// assert_eq!(s.mover(0, Direction::Right), None);
    /// ```
    pub fn mover(self, blank: usize, dir: Direction) -> Option<usize> {
        let w = self.width;
        let (r, c) = (blank / w, blank % w);
        match dir {
            Direction::Up if r + 1 < self.height => Some(blank + w),
            Direction::Down if r > 0 => Some(blank - w),
            Direction::Left if c + 1 < w => Some(blank + 1),
            Direction::Right if c > 0 => Some(blank - 1),
            _ => None,
        }
    }

    /// The cells in goal order as bytes, `0, 1, ..., cells - 1` (every size's cell
    /// indices fit a byte: 16x16 has 256 cells).
    pub fn identity_cells(self) -> Vec<u8> {
        (0..self.cells()).map(|c| c as u8).collect()
    }

    /// The size with width and height exchanged.
    pub fn transposed(self) -> Size {
        Size {
            width: self.height,
            height: self.width,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// Reads `WxH` (also `WXH` or `W*H`), or a single number `N` for `NxN`.
    fn from_str(s: &str) -> Result<Size, SizeError> {
        let t = s.trim();
        let bad = || SizeError::Unreadable {
            text: s.to_string(),
        };
        let parts: Vec<&str> = t.split(['x', 'X', '*']).collect();
        let num = |p: &str| p.trim().parse::<usize>().map_err(|_| bad());
        match parts.as_slice() {
            [n] => Size::square(num(n)?),
            [w, h] => Size::new(num(w)?, num(h)?),
            _ => Err(bad()),
        }
    }
}

/// Where a cell of a board was found in its text: 1-based row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// 1-based row.
    pub row: usize,
    /// 1-based column.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// A size that could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeError {
    /// Text that is not a size (`WxH` expected).
    Unreadable {
        /// The text as written.
        text: String,
    },
    /// A width or height outside 2..=16.
    OutOfRange {
        /// Width asked for.
        width: usize,
        /// Height asked for.
        height: usize,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Unreadable { text } => {
                write!(f, "expected a size WxH such as 3x3 or 4x4, found {text:?}")
            }
            SizeError::OutOfRange { width, height } => write!(
                f,
                "expected width and height from {MIN_SIDE} to {MAX_SIDE}, found {width}x{height}"
            ),
        }
    }
}

impl std::error::Error for SizeError {}
