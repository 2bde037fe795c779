//! Error types, one enum per concern: parsing boards, parsing and applying moves, and
//! searching.

use std::fmt;
use std::time::Duration;

pub use crate::size::Cell;
use crate::size::{Size, SizeError};

/// What went wrong while reading a board or a size.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// The text holds no cells at all.
    Empty,
    /// The text is longer than any board can be.
    TooLong {
        /// Characters found.
        found: usize,
        /// The most accepted.
        max: usize,
    },
    /// A token that is neither a number nor a blank symbol.
    UnknownToken {
        /// The token as written.
        token: String,
        /// 1-based position of the token among the cells.
        index: usize,
    },
    /// A row with another number of cells than the first row.
    Ragged {
        /// 1-based row number.
        row: usize,
        /// Cells found in that row.
        found: usize,
        /// Cells in the first row.
        expected: usize,
    },
    /// A size that could not be read (`WxH` expected).
    BadSize {
        /// The text as written.
        text: String,
    },
    /// A width or height outside 2..=16.
    SizeOutOfRange {
        /// Width asked for.
        width: usize,
        /// Height asked for.
        height: usize,
    },
    /// The number of cells does not fit the size.
    CellCount {
        /// Cells the size needs.
        expected: usize,
        /// Cells found.
        found: usize,
        /// The size the cells were checked against.
        size: Size,
    },
    /// No size was given and the cell count is not a square.
    CannotInferSize {
        /// Cells found.
        found: usize,
    },
    /// Digits run together into numbers too long to be tiles, where the board is not
    /// one of up to 9 cells written as digits.
    RunTogether {
        /// The first such number, as written (at most 40 characters).
        token: String,
        /// How many numbers the text held.
        numbers: usize,
    },
    /// A tile number outside 1..=cells-1.
    TileOutOfRange {
        /// The tile as written.
        tile: u64,
        /// The largest tile on this size.
        max: usize,
        /// Where it stands.
        at: Cell,
    },
    /// A run of digits too long to be read as a number.
    NumberTooLarge {
        /// The digits as written (at most 40 of them).
        text: String,
        /// The largest tile on this size.
        max: usize,
        /// Where it stands.
        at: Cell,
    },
    /// The same tile twice.
    DuplicateTile {
        /// The tile.
        tile: u8,
        /// Its first place.
        first: Cell,
        /// Its second place.
        second: Cell,
    },
    /// Two blanks.
    DuplicateBlank {
        /// The first blank.
        first: Cell,
        /// The second blank.
        second: Cell,
    },
    /// No blank at all.
    MissingBlank,
    /// A goal or board of another size than the board it goes with.
    SizeMismatch {
        /// The size expected.
        expected: Size,
        /// The size found.
        found: Size,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "expected a board, found no cells"),
            ParseError::TooLong { found, max } => write!(
                f,
                "expected at most {max} characters for a board, found {found}"
            ),
            ParseError::UnknownToken { token, index } => write!(
                f,
                "expected a tile number or a blank (0 x X _ .) at cell {index}, found {token:?}"
            ),
            ParseError::Ragged {
                row,
                found,
                expected,
            } => write!(
                f,
                "expected {expected} cells in row {row} like row 1, found {found}"
            ),
            ParseError::BadSize { text } => {
                write!(f, "expected a size WxH such as 3x3 or 4x4, found {text:?}")
            }
            ParseError::SizeOutOfRange { width, height } => write!(
                f,
                "expected width and height from 2 to 16, found {width}x{height}"
            ),
            ParseError::CellCount {
                expected,
                found,
                size,
            } => write!(
                f,
                "expected {expected} cells for a {size} board, found {found}"
            ),
            ParseError::CannotInferSize { found } => write!(
                f,
                "expected rows joined by '/' or a square number of cells, found {found} cells \
                 on one row; give the size as WxH"
            ),
            ParseError::RunTogether { token, numbers } => write!(
                f,
                "expected tile numbers separated by spaces or commas (digits run together only \
                 for boards of up to 9 cells), found {numbers} number{} such as {token:?}",
                if *numbers == 1 { "" } else { "s" }
            ),
            ParseError::TileOutOfRange { tile, max, at } => write!(
                f,
                "expected tiles 1 to {max} and one blank, found {tile} at {at}"
            ),
            ParseError::NumberTooLarge { text, max, at } => write!(
                f,
                "expected tiles 1 to {max} and one blank, found {text} at {at}, a number too \
                 large"
            ),
            ParseError::DuplicateTile {
                tile,
                first,
                second,
            } => write!(
                f,
                "expected each tile once, found tile {tile} twice: at {first} and at {second}"
            ),
            ParseError::DuplicateBlank { first, second } => write!(
                f,
                "expected one blank, found two: at {first} and at {second}"
            ),
            ParseError::MissingBlank => write!(f, "expected one blank (0 x X _ .), found none"),
            ParseError::SizeMismatch { expected, found } => write!(
                f,
                "expected a {expected} board to match, found a {found} board"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

impl From<SizeError> for ParseError {
    fn from(e: SizeError) -> ParseError {
        match e {
            SizeError::Unreadable { text } => ParseError::BadSize { text },
            SizeError::OutOfRange { width, height } => ParseError::SizeOutOfRange { width, height },
        }
    }
}

/// What went wrong while reading or applying moves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// A character or token that is not a move in the notation.
    UnknownMove {
        /// The token as written.
        token: String,
        /// 1-based character position in the text.
        position: usize,
        /// The notation that was being read.
        notation: &'static str,
    },
    /// A run length (`U12`) of 0 or over the cap.
    RunLength {
        /// The move and its count as written.
        token: String,
        /// 1-based character position in the text.
        position: usize,
        /// The longest run (and sequence) read: `moves::MAX_RUN`.
        max: usize,
    },
    /// More moves in all than the cap.
    TooMany {
        /// The most moves read: `moves::MAX_RUN`.
        max: usize,
        /// 1-based character position where the sequence went over.
        position: usize,
    },
    /// A move that would take the blank off the board.
    Illegal {
        /// 1-based number of the move in the sequence.
        index: usize,
        /// The move, in tile notation.
        mv: char,
        /// Where the blank stood.
        blank: Cell,
    },
    /// In the `tiles` notation, a tile that is not next to the blank.
    NotAdjacent {
        /// 1-based number of the move in the sequence.
        index: usize,
        /// The tile named.
        tile: u64,
        /// Where the blank stood.
        blank: Cell,
    },
    /// Moves written in a way that no notation reads.
    Ambiguous {
        /// The text.
        text: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::UnknownMove {
                token,
                position,
                notation,
            } => write!(
                f,
                "expected a move in {notation} notation at character {position}, found {token:?}"
            ),
            MoveError::RunLength {
                token,
                position,
                max,
            } => write!(
                f,
                "expected a run length from 1 to {max} at character {position}, found {token:?}"
            ),
            MoveError::TooMany { max, position } => write!(
                f,
                "expected at most {max} moves, found more (at character {position})"
            ),
            MoveError::Illegal { index, mv, blank } => write!(
                f,
                "move {index} ({mv}) is illegal: no tile can move {} into the blank at {blank}",
                match mv {
                    'U' => "up",
                    'D' => "down",
                    'L' => "left",
                    _ => "right",
                }
            ),
            MoveError::NotAdjacent { index, tile, blank } => write!(
                f,
                "move {index}: expected a tile next to the blank at {blank}, found tile {tile}"
            ),
            MoveError::Ambiguous { text } => write!(
                f,
                "expected moves in tile (U2LDR3), blank (uldr) or tiles (1 2 5 6) notation, \
                 found {text:?}"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a search ended without a solution.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SearchError {
    /// The board cannot reach the goal (the parity test says so).
    Unsolvable,
    /// The start and the goal differ in size.
    SizeMismatch {
        /// Size of the start board.
        start: Size,
        /// Size of the goal board.
        goal: Size,
    },
    /// The search would need more memory than allowed.
    MemoryLimit {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The board size.
        size: Size,
        /// Bytes it needs (an estimate, or what it had reached).
        needed: u64,
        /// Bytes allowed.
        limit: u64,
        /// An algorithm that fits (empty where none does the same job).
        suggestion: &'static str,
    },
    /// The time limit ran out, the node budget was spent, or the search was cancelled.
    TimeLimit {
        /// The algorithm's name.
        algorithm: &'static str,
        /// Time spent.
        elapsed: Duration,
        /// The best lower bound on the solution length proven so far.
        lower_bound: u32,
        /// Nodes expanded so far (for the layered whole-space searches, states found).
        expanded: u64,
        /// Nodes generated so far (0 where the algorithm counts none: the layered
        /// whole-space searches, the fast solver).
        generated: u64,
    },
    /// The algorithm packs a board into too few bits for this many cells.
    TooManyCells {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The board size.
        size: Size,
        /// The most cells it packs.
        most: usize,
        /// An algorithm without this limit.
        instead: &'static str,
    },
    /// A comparison left this search out: on this many cells it finishes on no random
    /// board (only IDA* with linear conflict is tried, with the fast solver and weighted
    /// IDA* beside it).
    LeftOut {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The board's cells.
        cells: usize,
    },
    /// The algorithm cannot handle this board at all.
    Unsupported {
        /// The algorithm's name.
        algorithm: &'static str,
        /// Why.
        reason: String,
    },
    /// The memory the search needs could not be had from the system (more than the
    /// machine has, or an allocation refused).
    OutOfMemory {
        /// The algorithm's name.
        algorithm: &'static str,
        /// Bytes it asked for.
        needed: u64,
        /// The machine's memory, where known.
        machine: Option<u64>,
    },
    /// A table or database (read from a file, so written by anyone) contradicts itself.
    Inconsistent {
        /// What it was used for.
        algorithm: &'static str,
        /// What was wrong.
        reason: String,
    },
    /// A request whose options do not go together, or one option's value that cannot be
    /// used (a partition that does not fit the board, say).
    BadRequest {
        /// The request's field: `algorithm`, `heuristic`, `weight`, `metric`, `pdb`,
        /// `solutions`, `exact`.
        field: &'static str,
        /// What was expected and what was found.
        reason: String,
    },
    /// Something the request needs would take longer to build than the time left.
    BuildTooLong {
        /// What would be built.
        what: String,
        /// About how many seconds it takes here.
        seconds: f64,
        /// The seconds left of the time limit.
        left: f64,
    },
}

/// What went wrong reading a table file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileError {
    /// The file could not be read.
    Io {
        /// The file.
        path: String,
        /// The system's message.
        error: String,
    },
    /// The file does not start with the expected magic bytes.
    BadMagic {
        /// The magic expected.
        expected: String,
        /// What the file starts with.
        found: String,
    },
    /// A format version this build does not read.
    Version {
        /// The version this build reads.
        expected: u32,
        /// The file's version.
        found: u32,
    },
    /// The file ends early.
    Truncated {
        /// Bytes needed.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The contents do not match their checksum.
    Checksum {
        /// The checksum stored in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A field with an impossible value.
    Invalid(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, error } => write!(f, "cannot read {path}: {error}"),
            FileError::BadMagic { expected, found } => {
                write!(
                    f,
                    "expected a file starting with {expected:?}, found {found:?}"
                )
            }
            FileError::Version { expected, found } => {
                write!(
                    f,
                    "expected format version {expected}, found version {found}"
                )
            }
            FileError::Truncated { expected, found } => {
                write!(
                    f,
                    "expected at least {expected} bytes, found {found} (truncated)"
                )
            }
            FileError::Checksum { stored, computed } => write!(
                f,
                "expected checksum {stored:016x} as stored, found {computed:016x} (corrupt)"
            ),
            FileError::Invalid(what) => write!(f, "invalid contents: {what}"),
        }
    }
}

impl std::error::Error for FileError {}

/// A number outside the range a setting takes (a weight, a beam's width): says what was
/// expected and what was found.
///
/// ```
/// let e = npuzzle::search::check_weight(0.5).unwrap_err();
/// assert_eq!(e.to_string(), "expected from 1 to 100, found 0.5");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeError {
    /// The values taken (`from 1 to 100`).
    pub expected: String,
    /// The value given.
    pub found: String,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found {}", self.expected, self.found)
    }
}

impl std::error::Error for RangeError {}

/// What is wrong with a pattern database, a partition of the tiles into patterns, or a
/// distance table: the kind, and in words what was expected and what was found.
///
/// ```
/// use npuzzle::error::DatabaseError;
/// use npuzzle::heuristic::pdb::partition;
/// let goal = npuzzle::Board::solved("4x4".parse().unwrap());
/// let e = partition(&goal, "1,2,3/3,4").unwrap_err();
/// assert!(matches!(e, DatabaseError::Pattern(_)));
/// assert_eq!(e.to_string(), "expected disjoint patterns, found tile 3 in two");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DatabaseError {
    /// A pattern or partition that does not fit the board (a tile it lacks, a tile in two
    /// patterns, a preset for another size).
    Pattern(String),
    /// Databases that do not go together, or do not fit the goal they are asked for.
    Mismatch(String),
    /// The file could not be read, or is not a database or table of this build.
    File(FileError),
    /// Entries that contradict the search that builds them (forged or corrupt).
    Unsound(String),
    /// A file npuzzle did not write or prove on this machine (no stamp names it, or it
    /// changed since), too large to prove as it is opened: it is not used until proven,
    /// by rebuilding it and comparing, which takes about `seconds` here.
    Unproven {
        /// About how long proving it takes here.
        seconds: f64,
    },
    /// The check could not be made: the build it compares against stopped.
    Unchecked(SearchError),
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseError::Pattern(s) | DatabaseError::Mismatch(s) => f.write_str(s),
            DatabaseError::Unsound(s) => f.write_str(s),
            DatabaseError::File(e) => write!(f, "{e}"),
            DatabaseError::Unproven { seconds } => write!(
                f,
                "not written by npuzzle here, or changed since (no stamp names this file): \
                 not used until proven, by rebuilding it and comparing (about {})",
                human_seconds(*seconds)
            ),
            DatabaseError::Unchecked(e) => write!(f, "cannot check it against a new build: {e}"),
        }
    }
}

impl std::error::Error for DatabaseError {}

impl From<FileError> for DatabaseError {
    fn from(e: FileError) -> DatabaseError {
        DatabaseError::File(e)
    }
}

/// A name none of a setting's names (an algorithm, a heuristic, a notation, a metric, a
/// way to load files, a colour scheme): says which names were expected.
///
/// ```
/// use npuzzle::Algorithm;
/// let e = "dfs".parse::<Algorithm>().unwrap_err();
/// assert_eq!(e.to_string(), "expected auto, bfs, bibfs, astar, iddfs, idastar, table or fast, found \"dfs\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameError {
    /// The names the setting takes.
    pub expected: &'static [&'static str],
    /// What was given (at most 40 characters).
    pub found: String,
}

impl NameError {
    /// The error for `found`, which is none of `expected`.
    pub fn new(expected: &'static [&'static str], found: &str) -> NameError {
        NameError {
            expected,
            found: found.chars().take(40).collect(),
        }
    }
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.expected.len();
        let list = match n {
            0 => String::new(),
            1 => self.expected[0].to_string(),
            _ => format!(
                "{} or {}",
                self.expected[..n - 1].join(", "),
                self.expected[n - 1]
            ),
        };
        write!(f, "expected {list}, found {:?}", self.found)
    }
}

impl std::error::Error for NameError {}

/// Byte counts from here on (1 EiB) are beyond any machine: estimates that reach it have
/// usually saturated, so messages speak of states instead.
const BEYOND_ANY_MACHINE: u64 = 1 << 60;

/// The number of reachable states of `size` (`cells! / 2`) in scientific notation, e.g.
/// `1.9e41` for 6x6: exact figures overflow every integer type past 5x5.
pub fn state_count_text(size: Size) -> String {
    let log10: f64 = (2..=size.cells()).map(|k| (k as f64).log10()).sum::<f64>() - 2f64.log10();
    let exponent = log10.floor();
    let mantissa = 10f64.powf(log10 - exponent);
    if exponent < 7.0 {
        format!("{:.0}", 10f64.powf(log10))
    } else {
        format!("{mantissa:.1}e{exponent}")
    }
}

/// The clause naming an algorithm that needs far less memory, if there is one.
fn instead(suggestion: &str) -> String {
    if suggestion.is_empty() {
        String::new()
    } else {
        format!("; {suggestion} needs far less")
    }
}

/// A whole number with thousands separators, as people read counts (`17,825,792`).
///
/// ```
/// assert_eq!(npuzzle::error::grouped(17825792), "17,825,792");
/// assert_eq!(npuzzle::error::grouped(999), "999");
/// ```
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `s` quoted for a message, cut to its first 40 characters (with how many there were)
/// when longer: a 300-digit number is not repeated whole.
///
/// ```
/// assert_eq!(npuzzle::error::quote_short("4X"), "\"4X\"");
/// assert_eq!(npuzzle::error::quote_short(&"9".repeat(50)), format!("{:?} (50 characters)", format!("{}...", "9".repeat(40))));
/// ```
pub fn quote_short(s: &str) -> String {
    const KEEP: usize = 40;
    let n = s.chars().count();
    if n <= KEEP {
        return format!("{s:?}");
    }
    let head: String = s.chars().take(KEEP).collect();
    format!("{:?} ({n} characters)", format!("{head}..."))
}

/// A time in words: `5 s`, `2 minutes`.
pub fn human_seconds(seconds: f64) -> String {
    if seconds >= 90.0 {
        format!("{:.0} minutes", seconds / 60.0)
    } else {
        format!("{:.0} s", seconds.max(1.0))
    }
}

/// Formats a byte count as TiB, GiB, MiB, KiB or bytes.
pub fn human_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1024.0 * 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} TiB", b / (1024.0 * 1024.0 * 1024.0 * 1024.0))
    } else if b >= 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} GiB", b / (1024.0 * 1024.0 * 1024.0))
    } else if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else if bytes == 1 {
        "1 byte".to_string()
    } else {
        format!("{bytes} bytes")
    }
}

impl SearchError {
    /// The lower bound on the board's solution that a search stopped by the clock, the
    /// node budget or an interrupt proved; `None` for any other error, and for a stopped
    /// database build, table analysis or ring search, whose `lower_bound` is the depth
    /// their breadth-first search reached (no bound on any board's solution).
    ///
    /// ```
    /// use npuzzle::SearchError;
    /// use std::time::Duration;
    /// let stopped = |algorithm| SearchError::TimeLimit {
    ///     algorithm,
    ///     elapsed: Duration::from_secs(1),
    ///     lower_bound: 24,
    ///     expanded: 1000,
    ///     generated: 2100,
    /// };
    /// assert_eq!(stopped("idastar").proven_bound(), Some(24));
    /// assert_eq!(stopped("pdb build").proven_bound(), None);
    /// ```
    pub fn proven_bound(&self) -> Option<u32> {
        match self {
            SearchError::TimeLimit {
                algorithm: "pdb build" | "analyze" | "ring",
                ..
            } => None,
            SearchError::TimeLimit { lower_bound, .. } => Some(*lower_bound),
            _ => None,
        }
    }
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Unsolvable => write!(f, "the board cannot reach the goal"),
            SearchError::SizeMismatch { start, goal } => write!(
                f,
                "expected a goal of the board's size {start}, found a {goal} goal"
            ),
            SearchError::MemoryLimit {
                algorithm,
                size,
                needed,
                limit,
                suggestion,
            } if *needed >= BEYOND_ANY_MACHINE => write!(
                f,
                "{algorithm} keeps every state it reaches, and {size} has {} states: more than any \
                 machine holds{}",
                state_count_text(*size),
                instead(suggestion)
            ),
            SearchError::MemoryLimit {
                algorithm,
                size,
                needed,
                limit,
                suggestion,
            } => write!(
                f,
                "{algorithm} on {size} needs about {} but the memory limit is {}{}",
                human_bytes(*needed),
                human_bytes(*limit),
                instead(suggestion)
            ),
            // The layered whole-space searches (database builds, analyses) report the
            // depth they reached, which bounds no solution.
            SearchError::TimeLimit {
                algorithm: algorithm @ ("pdb build" | "analyze" | "ring"),
                elapsed,
                lower_bound,
                expanded,
                ..
            } => write!(
                f,
                "{algorithm} stopped (time limit or interrupt) after {:.2} s, at depth \
                 {lower_bound} with {} states found; nothing was saved",
                elapsed.as_secs_f64(),
                grouped(*expanded)
            ),
            SearchError::TimeLimit {
                algorithm,
                elapsed,
                lower_bound,
                expanded,
                ..
            } => write!(
                f,
                "{algorithm} stopped (time limit, node budget or interrupt) after {:.2} s and {} expanded \
                 nodes; the solution needs at least {lower_bound} moves",
                elapsed.as_secs_f64(),
                grouped(*expanded)
            ),
            SearchError::Unsupported { algorithm, reason } => {
                write!(f, "{algorithm} cannot solve this board: {reason}")
            }
            SearchError::TooManyCells {
                algorithm,
                size,
                most,
                instead,
            } => write!(
                f,
                "{algorithm} cannot solve this board: {size} has {} cells, {algorithm} packs at \
                 most {most}; {instead} has no such limit",
                size.cells()
            ),
            SearchError::LeftOut { cells, .. } => write!(
                f,
                "left out: on {cells} cells only IDA* with linear conflict is tried (no other \
                 exact search finishes on a random board), with the fast solver and weighted \
                 IDA* beside it"
            ),
            SearchError::OutOfMemory {
                algorithm,
                needed,
                machine,
            } => match machine {
                Some(m) if needed > m => write!(
                    f,
                    "{algorithm} needs about {} but this machine has {}",
                    human_bytes(*needed),
                    human_bytes(*m)
                ),
                _ => write!(
                    f,
                    "{algorithm} needs about {}, which the system refused to allocate",
                    human_bytes(*needed)
                ),
            },
            SearchError::Inconsistent { algorithm, reason } => {
                write!(f, "{algorithm}: the data contradicts itself: {reason}")
            }
            SearchError::BadRequest { field, reason } => write!(f, "{field}: {reason}"),
            SearchError::BuildTooLong { what, seconds, left } => write!(
                f,
                "building {what} takes about {seconds:.0} s here, more than the time left \
                 ({left:.1} s of the time limit); build it ahead of time or allow more time"
            ),
        }
    }
}

impl std::error::Error for SearchError {}
