//! Move directions and the three move notations.
//!
//! [`Direction`] names the way the **tile** moves, the sliding-puzzle community's
//! convention: `U` slides the tile below the blank up, so the blank goes down. The
//! `blank` notation (as in HDU 1043) names the way the blank goes instead, so its `u` is
//! the tile move `D`.

use std::str::FromStr;

use crate::board::Board;
pub use crate::direction::Direction;
use crate::error::MoveError;
use crate::size::Size;

/// A way to write a sequence of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Tile directions with run lengths: `U2LDR3` (= `UULDRRR`).
    Tile,
    /// Blank directions, one lowercase letter per move: `uldr` (HDU 1043 style).
    Blank,
    /// The numbers of the tiles moved, separated by spaces: `1 2 5 6`.
    Tiles,
}

/// The largest run length accepted in tile notation (`U1000000`).
pub const MAX_RUN: usize = 1_000_000;

impl Notation {
    /// The notation's name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Tile => "tile",
            Notation::Blank => "blank",
            Notation::Tiles => "tiles",
        }
    }

    /// Guesses the notation of `text`: lowercase `udlr` is `blank`, uppercase letters
    /// (with digits) are `tile`, digits alone are `tiles`.
    ///
    /// ```
    /// use npuzzle::Notation;
    /// assert_eq!(Notation::detect("ullddr").unwrap(), Notation::Blank);
    /// assert_eq!(Notation::detect("U2LDR3").unwrap(), Notation::Tile);
    /// assert_eq!(Notation::detect("1 2 5 6").unwrap(), Notation::Tiles);
    /// assert!(Notation::detect("Uu").is_err());
    /// ```
    pub fn detect(text: &str) -> Result<Notation, MoveError> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .collect();
        if t.is_empty() || t.chars().all(|c| "UDLR0123456789".contains(c)) {
            if t.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                return Ok(Notation::Tiles);
            }
            return Ok(Notation::Tile);
        }
        if t.chars().all(|c| "udlr".contains(c)) {
            return Ok(Notation::Blank);
        }
        Err(MoveError::Ambiguous {
            text: text.chars().take(60).collect(),
        })
    }

    /// Reads moves written in this notation, starting from `start` (needed by `tiles`).
    ///
    /// ```
    /// use npuzzle::{Board, Direction::*, Notation};
    /// let b = Board::parse("0 1 3/4 2 5/7 8 6", None).unwrap();
    /// let want = vec![Left, Up, Left, Up];
    /// assert_eq!(Notation::Tile.parse(&b, "LULU").unwrap(), want);
    /// assert_eq!(Notation::Tile.parse(&b, "LULU").unwrap(), Notation::Blank.parse(&b, "rdrd").unwrap());
    /// assert_eq!(Notation::Tiles.parse(&b, "1 2 5 6").unwrap(), want);
    /// ```
    pub fn parse(self, start: &Board, text: &str) -> Result<Vec<Direction>, MoveError> {
        let unknown = |token: String, position: usize| MoveError::UnknownMove {
            token,
            position,
            notation: self.name(),
        };
        let mut moves = Vec::new();
        match self {
            Notation::Blank => {
                for (i, c) in text.chars().enumerate() {
                    if c.is_whitespace() || c == ',' {
                        continue;
                    }
                    moves.push(Direction::from_blank_char(c).ok_or(unknown(c.to_string(), i + 1))?);
                }
            }
            Notation::Tile => {
                let chars: Vec<char> = text.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let c = chars[i];
                    if c.is_whitespace() || c == ',' {
                        i += 1;
                        continue;
                    }
                    let d = Direction::from_tile_char(c).ok_or(unknown(c.to_string(), i + 1))?;
                    let mut j = i + 1;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    let run = if j > i + 1 {
                        let digits: String = chars[i + 1..j].iter().collect();
                        match digits.parse::<usize>() {
                            Ok(n) if (1..=MAX_RUN).contains(&n) => n,
                            _ => {
                                return Err(MoveError::RunLength {
                                    token: format!(
                                        "{c}{}",
                                        digits.chars().take(40).collect::<String>()
                                    ),
                                    position: i + 1,
                                    max: MAX_RUN,
                                })
                            }
                        }
                    } else {
                        1
                    };
                    if moves.len() + run > MAX_RUN {
                        return Err(MoveError::TooMany {
                            max: MAX_RUN,
                            position: i + 1,
                        });
                    }
                    moves.extend(std::iter::repeat_n(d, run));
                    i = j;
                }
            }
            Notation::Tiles => {
                let mut board = start.clone();
                for tok in text.split(|c: char| c.is_whitespace() || c == ',') {
                    if tok.is_empty() {
                        continue;
                    }
                    // 1-based character position of the token in the text.
                    let offset = tok.as_ptr() as usize - text.as_ptr() as usize;
                    let pos = text[..offset].chars().count() + 1;
                    let tile: u64 = tok
                        .parse()
                        .map_err(|_| unknown(tok.chars().take(20).collect(), pos))?;
                    let d = u8::try_from(tile)
                        .ok()
                        .and_then(|t| board.direction_of_tile(t))
                        .ok_or(MoveError::NotAdjacent {
                            index: moves.len() + 1,
                            tile,
                            blank: board.size().cell(board.blank()),
                        })?;
                    board.apply(d).expect("a tile next to the blank can move");
                    moves.push(d);
                }
            }
        }
        Ok(moves)
    }

    /// Writes moves in this notation; `start` is needed by `tiles`, whose moves must be
    /// legal from it (an illegal one is written as `?`: where the moves come from a
    /// person, use [`try_format`](Notation::try_format), which says which move it is).
    ///
    /// ```
    /// use npuzzle::{Board, Direction::*, Notation};
    /// let b = Board::parse("0 1 3/4 2 5/7 8 6", None).unwrap();
    /// let m = [Left, Up, Left, Up];
    /// assert_eq!(Notation::Tile.format(&b, &m), "LULU");
    /// assert_eq!(Notation::Blank.format(&b, &m), "rdrd");
    /// assert_eq!(Notation::Tiles.format(&b, &m), "1 2 5 6");
    /// assert_eq!(Notation::Tile.format(&b, &[Up, Up, Left]), "U2L");
    /// ```
    pub fn format(self, start: &Board, moves: &[Direction]) -> String {
        let mut out = String::with_capacity(moves.len());
        match self {
            Notation::Blank => out.extend(moves.iter().map(|d| d.blank_char())),
            Notation::Tile => {
                let mut i = 0;
                while i < moves.len() {
                    let mut j = i + 1;
                    while j < moves.len() && moves[j] == moves[i] {
                        j += 1;
                    }
                    out.push(moves[i].tile_char());
                    if j - i > 1 {
                        use std::fmt::Write;
                        let _ = write!(out, "{}", j - i);
                    }
                    i = j;
                }
            }
            Notation::Tiles => {
                let mut board = start.clone();
                let words: Vec<String> = moves
                    .iter()
                    .map(|&d| match board.mover(d) {
                        Some(p) => {
                            let t = board.cells()[p];
                            board.apply(d).expect("mover exists");
                            t.to_string()
                        }
                        None => "?".to_string(),
                    })
                    .collect();
                out = words.join(" ");
            }
        }
        out
    }
}

impl Notation {
    /// Writes moves in this notation after checking that they are legal from `start`,
    /// whatever the notation: the first illegal move is an error naming it (1-based) and
    /// the blank's cell.
    ///
    /// ```
    /// use npuzzle::{Board, Direction::*, Notation};
    /// let b = Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap();
    /// assert_eq!(Notation::Tiles.try_format(&b, &[Left]).unwrap(), "2");
    /// let e = Notation::Tiles.try_format(&b, &[Left, Left]).unwrap_err();
    /// assert!(e.to_string().contains("move 2"), "{e}");
    /// ```
    pub fn try_format(self, start: &Board, moves: &[Direction]) -> Result<String, MoveError> {
        start.clone().apply_all(moves)?;
        Ok(self.format(start, moves))
    }
}

impl FromStr for Notation {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Notation, crate::error::NameError> {
        match s {
            "tile" => Ok(Notation::Tile),
            "blank" => Ok(Notation::Blank),
            "tiles" => Ok(Notation::Tiles),
            _ => Err(crate::error::NameError::new(&["tile", "blank", "tiles"], s)),
        }
    }
}

/// Per blank position, the legal moves and the cell of the tile that moves.
#[derive(Debug, Clone)]
pub(crate) struct MoveTable {
    moves: Vec<Vec<(Direction, usize)>>,
    by_dir: Vec<[Option<usize>; 4]>,
}

impl MoveTable {
    pub(crate) fn new(size: Size) -> MoveTable {
        let n = size.cells();
        let mut moves = Vec::with_capacity(n);
        let mut by_dir = Vec::with_capacity(n);
        for blank in 0..n {
            let mut list = Vec::new();
            let mut row = [None; 4];
            for d in Direction::ALL {
                if let Some(p) = size.mover(blank, d) {
                    list.push((d, p));
                    row[d.index()] = Some(p);
                }
            }
            moves.push(list);
            by_dir.push(row);
        }
        MoveTable { moves, by_dir }
    }

    #[inline]
    pub(crate) fn from(&self, blank: usize) -> &[(Direction, usize)] {
        &self.moves[blank]
    }

    #[inline]
    pub(crate) fn mover(&self, blank: usize, d: Direction) -> Option<usize> {
        self.by_dir[blank][d.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_and_letters_agree() {
        for d in Direction::ALL {
            assert_eq!(d.inverse().inverse(), d);
            assert_ne!(d.inverse(), d);
            assert_eq!(Direction::from_tile_char(d.tile_char()), Some(d));
            assert_eq!(Direction::from_blank_char(d.blank_char()), Some(d));
            assert_eq!(Direction::ALL[d.index()], d);
        }
    }

    #[test]
    fn notations_round_trip() {
        let b = Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap();
        let m = Notation::Tile.parse(&b, "U2 L D R3").unwrap_or_default();
        assert!(m.is_empty() || m.len() == 7);
        let m = Notation::Tile.parse(&b, "RDLU").unwrap();
        for n in [Notation::Tile, Notation::Blank, Notation::Tiles] {
            let text = n.format(&b, &m);
            assert_eq!(n.parse(&b, &text).unwrap(), m, "{n:?} {text}");
            assert_eq!(Notation::detect(&text).unwrap(), n);
        }
    }

    #[test]
    fn bad_moves_are_reported_where_they_stand() {
        let b = Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap();
        let e = Notation::Tile.parse(&b, "UDX").unwrap_err();
        assert!(e.to_string().contains("character 3"), "{e}");
        let e = Notation::Tile.parse(&b, "U0").unwrap_err();
        assert!(matches!(e, MoveError::RunLength { position: 1, .. }), "{e}");
        let e = Notation::Tile
            .parse(&b, "LU99999999999999999999999")
            .unwrap_err();
        assert!(e.to_string().contains("from 1 to 1000000"), "{e}");
        assert!(e.to_string().contains("U99999999999999999999999"), "{e}");
        let e = Notation::Tile.parse(&b, "U999999U2").unwrap_err();
        assert!(matches!(e, MoveError::TooMany { position: 8, .. }), "{e}");
        let e = Notation::Tiles.parse(&b, "1 7").unwrap_err();
        assert!(
            matches!(
                e,
                MoveError::NotAdjacent {
                    index: 2,
                    tile: 7,
                    ..
                }
            ),
            "{e}"
        );
        assert!(Notation::Tile.parse(&b, "U99999999999999999999").is_err());
    }
}
