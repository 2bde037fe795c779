//! Boards and sizes: parsing, validation and formatting of states.
//!
//! A board is stored row-major, one byte per cell, `0` for the blank. Inline text joins
//! rows with `/` (`8 1 3/4 0 2/7 6 5`); sizes are written `WxH`, width first.

use std::fmt;
use std::str::FromStr;

use crate::direction::Direction;
use crate::error::{MoveError, ParseError};
pub use crate::size::{Size, MAX_SIDE, MIN_SIDE};

/// The longest text accepted for one board (in bytes).
pub const MAX_TEXT: usize = 16 * 1024;

/// A sliding-puzzle state: a permutation of the tiles `1..cells` and one blank (`0`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: Size,
    cells: Vec<u8>,
    blank: usize,
}

/// The rows of a board's text (split at `/`, else at line ends), each split into its
/// tokens; a `/` before the first row or after the last closes no row.
fn rows_of(text: &str) -> Result<Vec<Vec<&str>>, ParseError> {
    let raw_rows: Vec<&str> = if text.contains('/') {
        text.split('/').collect()
    } else {
        text.lines().filter(|l| !l.trim().is_empty()).collect()
    };
    let mut rows: Vec<Vec<&str>> = raw_rows
        .iter()
        .map(|r| {
            r.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect()
        })
        .collect();
    // A '/' before the first row or after the last ("/1 2/3 0/") closes no row.
    while rows.len() > 1 && rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
    }
    if rows.len() > 1 && rows[0].is_empty() {
        let first = rows.iter().position(|r| !r.is_empty()).unwrap_or(0);
        rows.drain(..first);
    }
    if rows.iter().all(|r| r.is_empty()) {
        return Err(ParseError::Empty);
    }
    Ok(rows)
}

/// Compact digits: every row one token of single-character cells, 9 cells at most.
fn is_compact(rows: &[Vec<&str>]) -> bool {
    let total_chars: usize = rows
        .iter()
        .map(|r| r.iter().map(|t| t.len()).sum::<usize>())
        .sum();
    total_chars <= 9
        && rows.iter().all(|r| {
            r.len() == 1
                && r[0].len() > 1
                && r[0]
                    .chars()
                    .all(|c| c.is_ascii_digit() || is_blank_symbol(c.encode_utf8(&mut [0; 4])))
        })
}

/// Compact rows as rows of one-character tokens.
fn compact_rows<'a>(rows: &[Vec<&'a str>]) -> Vec<Vec<&'a str>> {
    rows.iter()
        .map(|r| {
            let t = r[0];
            t.char_indices()
                .map(|(i, c)| &t[i..i + c.len_utf8()])
                .collect()
        })
        .collect()
}

/// The size the rows make: their shape, checked against `size` where given, else `size`
/// where the count fits it, else a square of the count.
fn size_of(rows: &[Vec<&str>], size: Option<Size>) -> Result<Size, ParseError> {
    let found: usize = rows.iter().map(|r| r.len()).sum();
    // Digits run together past 9 cells give numbers no tile has (at most 3 digits): say
    // so rather than name the odd shape they make.
    let run_together = || {
        rows.iter()
            .flatten()
            .find(|t| t.len() > 3 && t.chars().all(|c| c.is_ascii_digit()))
            .map(|t| ParseError::RunTogether {
                token: t.chars().take(40).collect(),
                numbers: found,
            })
    };
    if rows.len() > 1 {
        let expected = rows[0].len();
        if let Some(i) = rows.iter().position(|r| r.len() != expected) {
            return Err(run_together().unwrap_or(ParseError::Ragged {
                row: i + 1,
                found: rows[i].len(),
                expected,
            }));
        }
        let shape =
            Size::new(expected, rows.len()).map_err(|e| run_together().unwrap_or(e.into()))?;
        return match size {
            Some(s) if s.cells() != found => Err(ParseError::CellCount {
                expected: s.cells(),
                found,
                size: s,
            }),
            Some(s) if s != shape => Err(ParseError::SizeMismatch {
                expected: s,
                found: shape,
            }),
            _ => Ok(shape),
        };
    }
    if let Some(s) = size {
        if s.cells() != found {
            return Err(run_together().unwrap_or(ParseError::CellCount {
                expected: s.cells(),
                found,
                size: s,
            }));
        }
        return Ok(s);
    }
    let side = (found as f64).sqrt().round() as usize;
    if let Some(e) = run_together().filter(|_| side * side != found || side < 2) {
        return Err(e);
    }
    if side * side != found {
        return Err(ParseError::CannotInferSize { found });
    }
    Ok(Size::square(side)?)
}

/// The board the tokens make on `size`: each a blank symbol or a tile's number.
fn cells_of(rows: &[Vec<&str>], size: Size) -> Result<Board, ParseError> {
    let n = size.cells();
    let mut cells = Vec::with_capacity(n);
    for (i, tok) in rows.iter().flatten().enumerate() {
        if is_blank_symbol(tok) {
            cells.push(0u8);
            continue;
        }
        match tok.parse::<u64>() {
            // "00" is the blank as "08" is tile 8: a number is read by its value.
            Ok(0) => cells.push(0),
            Ok(t) if (t as usize) < n => cells.push(t as u8),
            Ok(t) => {
                return Err(ParseError::TileOutOfRange {
                    tile: t,
                    max: n - 1,
                    at: size.cell(i),
                })
            }
            Err(_) => {
                // Only digits are left (words were refused above): a number too long for
                // u64, shown as typed.
                return Err(ParseError::NumberTooLarge {
                    text: tok.chars().take(40).collect(),
                    max: n - 1,
                    at: size.cell(i),
                });
            }
        }
    }
    Board::from_cells(size, cells)
}

fn is_blank_symbol(tok: &str) -> bool {
    matches!(tok, "0" | "x" | "X" | "_" | ".")
}

impl Board {
    /// A board from its cells in row-major order (`0` is the blank), checked: each tile
    /// `1..cells` exactly once and one blank.
    ///
    /// ```
    /// use npuzzle::{Board, Size};
    /// let b = Board::from_cells(Size::new(2, 2).unwrap(), vec![1, 2, 3, 0]).unwrap();
    /// assert_eq!(b.to_string(), "1 2/3 0");
    /// assert!(Board::from_cells(Size::new(2, 2).unwrap(), vec![1, 1, 3, 0]).is_err());
    /// ```
    pub fn from_cells(size: Size, cells: Vec<u8>) -> Result<Board, ParseError> {
        let n = size.cells();
        if cells.len() != n {
            return Err(ParseError::CellCount {
                expected: n,
                found: cells.len(),
                size,
            });
        }
        let mut seen: Vec<Option<usize>> = vec![None; n];
        for (i, &t) in cells.iter().enumerate() {
            let t = t as usize;
            if t >= n {
                return Err(ParseError::TileOutOfRange {
                    tile: t as u64,
                    max: n - 1,
                    at: size.cell(i),
                });
            }
            if let Some(first) = seen[t] {
                return Err(if t == 0 {
                    ParseError::DuplicateBlank {
                        first: size.cell(first),
                        second: size.cell(i),
                    }
                } else {
                    ParseError::DuplicateTile {
                        tile: t as u8,
                        first: size.cell(first),
                        second: size.cell(i),
                    }
                });
            }
            seen[t] = Some(i);
        }
        let blank = seen[0].ok_or(ParseError::MissingBlank)?;
        Ok(Board { size, cells, blank })
    }

    /// The usual goal: tiles in order row by row, the blank last.
    ///
    /// ```
    /// use npuzzle::{Board, Size};
    /// assert_eq!(Board::solved(Size::square(3).unwrap()).to_string(), "1 2 3/4 5 6/7 8 0");
    /// ```
    pub fn solved(size: Size) -> Board {
        let n = size.cells();
        let mut cells: Vec<u8> = (1..n).map(|t| t as u8).collect();
        cells.push(0);
        Board {
            size,
            cells,
            blank: n - 1,
        }
    }

    /// Reads a board from text.
    ///
    /// Accepted: rows joined by `/` (`8 1 3/4 0 2/7 6 5`), a grid over several lines,
    /// numbers separated by spaces or commas on one line, and compact digits for boards of
    /// at most 9 cells (`813402765`, `813/402/765`). The blank is `0`, `x`, `X`, `_` or `.`.
    /// The size comes from the rows, from `size`, or from a square cell count.
    ///
    /// ```
    /// use npuzzle::Board;
    /// let a = Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap();
    /// let b = Board::parse("813402765", None).unwrap();
    /// let c = Board::parse("8,1,3\n4,x,2\n7,6,5", None).unwrap();
    /// assert_eq!(a, b);
    /// assert_eq!(a, c);
    /// assert!(Board::parse("1 2 3/4 5/6 7 0", None).is_err()); // ragged rows
    /// ```
    pub fn parse(text: &str, size: Option<Size>) -> Result<Board, ParseError> {
        if text.len() > MAX_TEXT {
            return Err(ParseError::TooLong {
                found: text.len(),
                max: MAX_TEXT,
            });
        }
        // A byte-order mark (an editor's UTF-8 file) is no cell.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut rows = rows_of(text)?;
        if is_compact(&rows) {
            rows = compact_rows(&rows);
        }
        // Words first: a board of "hello" is a bad token, not a board of the wrong size.
        for (i, tok) in rows.iter().flatten().enumerate() {
            if !is_blank_symbol(tok) && !tok.chars().all(|c| c.is_ascii_digit()) {
                return Err(ParseError::UnknownToken {
                    token: tok.chars().take(40).collect(),
                    index: i + 1,
                });
            }
        }
        let size = size_of(&rows, size)?;
        cells_of(&rows, size)
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The cells in row-major order, `0` for the blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The index of the blank cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// This board taken as a goal, seen in a mirror along the main diagonal: per tile,
    /// the goal's tile on the mirror of its goal cell, and per cell, its mirror cell. A
    /// board mirrored by them (tile t on cell c becoming tile `tile[t]` on cell `cell[c]`)
    /// is as far from this goal as before. `None` unless the board is square and its
    /// blank on the diagonal (only then is this goal its own mirror image).
    pub(crate) fn diagonal_mirror(&self) -> Option<(Vec<u8>, Vec<u8>)> {
        let (w, n) = (self.size.width(), self.cells.len());
        (self.size.height() == w && self.blank / w == self.blank % w).then(|| {
            let cell: Vec<u8> = (0..n).map(|c| ((c % w) * w + c / w) as u8).collect();
            let mut tile = vec![0u8; n];
            for (c, &t) in self.cells.iter().enumerate() {
                tile[t as usize] = self.cells[cell[c] as usize];
            }
            (tile, cell)
        })
    }

    /// The cell index of the tile that would move in direction `dir`, if any.
    pub fn mover(&self, dir: Direction) -> Option<usize> {
        self.size.mover(self.blank, dir)
    }

    /// The moves legal on this board, in the order U, D, L, R.
    pub fn legal_moves(&self) -> impl Iterator<Item = Direction> + '_ {
        Direction::ALL
            .into_iter()
            .filter(|&d| self.mover(d).is_some())
    }

    /// Slides one tile in direction `dir` into the blank; an error if no tile can.
    ///
    /// ```
    /// use npuzzle::{Board, Direction};
    /// let mut b = Board::parse("1 2 3/4 5 6/7 0 8", None).unwrap();
    /// b.apply(Direction::Left).unwrap(); // tile 8 slides left
    /// assert_eq!(b.to_string(), "1 2 3/4 5 6/7 8 0");
    /// assert!(b.apply(Direction::Left).is_err());
    /// ```
    pub fn apply(&mut self, dir: Direction) -> Result<(), MoveError> {
        self.apply_numbered(dir, 1)
    }

    fn apply_numbered(&mut self, dir: Direction, index: usize) -> Result<(), MoveError> {
        let from = self.mover(dir).ok_or(MoveError::Illegal {
            index,
            mv: dir.tile_char(),
            blank: self.size.cell(self.blank),
        })?;
        self.cells.swap(from, self.blank);
        self.blank = from;
        Ok(())
    }

    /// Applies a sequence of moves; on an illegal move the error names it (1-based) and
    /// the board is left as it was before that move.
    pub fn apply_all(&mut self, moves: &[Direction]) -> Result<(), MoveError> {
        for (i, &d) in moves.iter().enumerate() {
            self.apply_numbered(d, i + 1)?;
        }
        Ok(())
    }

    /// The direction in which `tile` would move into the blank, if it is next to it.
    pub fn direction_of_tile(&self, tile: u8) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| {
            self.mover(d)
                .is_some_and(|p| self.cells[p] == tile && tile != 0)
        })
    }

    /// The board as an aligned grid, one row per line, the blank shown as `.`.
    ///
    /// ```
    /// use npuzzle::Board;
    /// let b = Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap();
    /// assert_eq!(b.to_grid(), "8 1 3\n4 . 2\n7 6 5");
    /// ```
    pub fn to_grid(&self) -> String {
        let wide = (self.size.cells() - 1).to_string().len();
        let mut out = String::new();
        for (r, row) in self.cells.chunks(self.size.width()).enumerate() {
            if r > 0 {
                out.push('\n');
            }
            let line: Vec<String> = row
                .iter()
                .map(|&t| {
                    if t == 0 {
                        format!("{:>wide$}", ".")
                    } else {
                        format!("{t:>wide$}")
                    }
                })
                .collect();
            out.push_str(&line.join(" "));
        }
        out
    }
}

impl fmt::Display for Board {
    /// Inline form: rows joined by `/`, cells by spaces, `0` for the blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written into a buffer on the stack and handed over in one piece (a batch
        // writes millions of boards): at most 256 cells of up to 3 digits and a separator.
        let mut buf = [0u8; 4 * 256];
        let mut len = 0;
        let w = self.size.width();
        for (i, &t) in self.cells.iter().enumerate() {
            if i > 0 {
                buf[len] = if i % w == 0 { b'/' } else { b' ' };
                len += 1;
            }
            if t >= 100 {
                buf[len] = b'0' + t / 100;
                len += 1;
            }
            if t >= 10 {
                buf[len] = b'0' + t / 10 % 10;
                len += 1;
            }
            buf[len] = b'0' + t % 10;
            len += 1;
        }
        // (Only ASCII digits, spaces and slashes were written.)
        f.write_str(std::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Board {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Board, ParseError> {
        Board::parse(s, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str, size: Option<Size>) -> ParseError {
        Board::parse(text, size).unwrap_err()
    }

    #[test]
    fn leading_zeros_edge_slashes_and_a_byte_order_mark_are_read() {
        let want = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
        for text in [
            "1 2 3/4 5 6/7 8 00",
            "01 02 03/04 05 06/07 08 000",
            "/1 2 3/4 5 6/7 8 0",
            "1 2 3/4 5 6/7 8 0/",
            " / 1 2 3/4 5 6/7 8 0 / ",
            "\u{feff}1 2 3/4 5 6/7 8 0",
            "\u{feff}1 2 3\n4 5 6\n7 8 0\n",
        ] {
            assert_eq!(Board::parse(text, None).as_ref(), Ok(&want), "{text:?}");
        }
        // Two blanks are two blanks, however written; an empty row inside is ragged.
        assert!(matches!(
            Board::parse("1 2 3/4 5 6/7 00 0", None),
            Err(ParseError::DuplicateBlank { .. })
        ));
        assert!(Board::parse("1 2 3//4 5 6/7 8 0", None).is_err());
        assert_eq!(Board::parse("/", None), Err(ParseError::Empty));
    }

    #[test]
    fn parses_every_accepted_form() {
        let want = Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap();
        for text in [
            "813402765",
            "8 1 3 4 0 2 7 6 5",
            "8,1,3,4,x,2,7,6,5",
            "8 1 3\n4 _ 2\n7 6 5\n",
            "813/4.2/765",
            "  8  1 3 / 4 X 2 / 7 6 5 ",
        ] {
            assert_eq!(Board::parse(text, None).unwrap(), want, "{text}");
        }
        let b = Board::parse("1 2 3 4 5 6 7 0", Some("4x2".parse().unwrap())).unwrap();
        assert_eq!(b.to_string(), "1 2 3 4/5 6 7 0");
        let b = Board::parse("1 2 3 4/5 6 7 0", None).unwrap();
        assert_eq!(b.size(), Size::new(4, 2).unwrap());
    }

    #[test]
    fn rejects_bad_boards_with_clear_errors() {
        assert_eq!(err("", None), ParseError::Empty);
        assert_eq!(err(" / ", None), ParseError::Empty);
        assert!(matches!(
            err("1 2 3/4 5/6 7 0", None),
            ParseError::Ragged {
                row: 2,
                found: 2,
                expected: 3
            }
        ));
        assert!(matches!(
            err("1 2 3 4 5 6 7 0", None),
            ParseError::CannotInferSize { found: 8 }
        ));
        assert!(matches!(
            err("1 2 3 4 5 6 7 9 0", None),
            ParseError::TileOutOfRange { tile: 9, .. }
        ));
        assert!(matches!(
            err("1 2 3 4 5 6 7 7 0", None),
            ParseError::DuplicateTile { tile: 7, .. }
        ));
        assert!(matches!(
            err("1 2 3 4 5 6 7 0 x", None),
            ParseError::DuplicateBlank { .. }
        ));
        assert!(matches!(
            err("1 2 3 4 5 6 7 y 0", None),
            ParseError::UnknownToken { index: 8, .. }
        ));
        assert!(matches!(
            err("1 0", None),
            ParseError::SizeOutOfRange { .. } | ParseError::CannotInferSize { .. }
        ));
        assert!(matches!(
            err("1/0", None),
            ParseError::SizeOutOfRange {
                width: 1,
                height: 2
            }
        ));
        assert!(matches!(
            err("1 2 3 0", Some(Size::square(3).unwrap())),
            ParseError::CellCount {
                expected: 9,
                found: 4,
                ..
            }
        ));
        assert!(matches!(
            err(&"1 ".repeat(20000), None),
            ParseError::TooLong { .. }
        ));
        // A number too long to read is out of range, and shown as typed.
        let e = err("1 2 3 4 5 6 7 8 99999999999999999999999", None);
        assert!(matches!(e, ParseError::NumberTooLarge { .. }), "{e}");
        assert!(
            e.to_string()
                .contains("found 99999999999999999999999 at row 3, column 3"),
            "{e}"
        );
        // A word is a bad token wherever it stands, not a board of the wrong size.
        assert!(matches!(
            err("hello", None),
            ParseError::UnknownToken { index: 1, .. }
        ));
        let e = err("1 2 3/4 5 5/7 8 0", None);
        assert_eq!(e.to_string(), "expected each tile once, found tile 5 twice: at row 2, column 2 and at row 2, column 3");
    }

    #[test]
    fn boards_print_every_size_as_rows_of_numbers() {
        // The written form against one made independently, for 1-, 2- and 3-digit tiles.
        for (w, h) in [(2, 2), (3, 3), (16, 2), (2, 16), (10, 10), (16, 16)] {
            let b = Board::solved(Size::new(w, h).unwrap());
            let want: Vec<String> = b
                .cells()
                .chunks(w)
                .map(|row| {
                    row.iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            assert_eq!(b.to_string(), want.join("/"));
            assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
        }
    }

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!("4x3".parse::<Size>().unwrap().to_string(), "4x3");
        assert_eq!("5".parse::<Size>().unwrap().to_string(), "5x5");
        assert!("3x".parse::<Size>().is_err());
        assert!("17x2".parse::<Size>().is_err());
        assert!("axb".parse::<Size>().is_err());
    }

    #[test]
    fn moves_follow_the_tile() {
        let mut b = Board::parse("1 2 3/4 0 5/6 7 8", None).unwrap();
        b.apply(Direction::Up).unwrap(); // 7 slides up
        assert_eq!(b.to_string(), "1 2 3/4 7 5/6 0 8");
        assert_eq!(b.direction_of_tile(6), Some(Direction::Right));
        assert_eq!(b.direction_of_tile(5), None);
        let e = b.apply(Direction::Up).unwrap_err();
        assert!(e.to_string().contains("row 3, column 2"), "{e}");
    }
}
