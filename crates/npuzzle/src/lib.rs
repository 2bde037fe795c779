//! # npuzzle
//!
//! Sliding-tile puzzles of any size from 2x2 to 16x16: boards and moves, solvability for
//! any goal, permutation ranking, admissible heuristics, and the classic optimal searches
//! side by side (BFS, bidirectional BFS, A*, IDDFS, IDA*, and a complete distance table).
//!
//! Ask the solving core: one [`Request`] and one board in, one [`Answer`] out, as the
//! command line, the server and Python ask it. `auto` picks the search for the size (a
//! distance table, pattern databases from the user's cache, IDA*, the anytime solver).
//!
//! ```
//! use npuzzle::{Board, Core, Request, Sources};
//!
//! // No folders here; `Sources::user_cache()` gives the user's, as every face uses them.
//! let core = Core::new(Sources::default());
//! let start: Board = "8 1 3/4 0 2/7 6 5".parse()?;
//! let answer = core.answer(&start, &Request::default())?;
//! assert_eq!(answer.report.length, Some(14));
//! assert_eq!(answer.report.optimal, Some(true));
//!
//! // The moves reach the goal.
//! let mut board = start.clone();
//! board.apply_all(&answer.moves)?;
//! assert_eq!(board, Board::solved(start.size()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every search is also a function of its own, for teaching and measuring them side by
//! side ([`bfs`], [`bibfs`], [`astar`], [`iddfs`], [`idastar`]):
//!
//! ```
//! use npuzzle::{idastar, Board, HeuristicKind, Limits, Notation};
//!
//! let start: Board = "8 1 3/4 0 2/7 6 5".parse()?;
//! let goal = Board::solved(start.size());
//! let solution = idastar(&start, &goal, HeuristicKind::LinearConflict, &Limits::default())?;
//! assert_eq!(solution.len(), 14);
//! println!("{}", Notation::Tile.format(&start, &solution.moves));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Directions name the way the **tile** moves (see [`Direction`]).

// The layers, from the board up; each uses only those above it in this list.
// 1. The puzzle, from the bottom up: directions, sizes, errors, boards, notations.
pub mod board;
pub mod direction;
pub mod error;
pub mod moves;
pub mod parity;
pub mod rank;
pub mod sequence;
pub mod size;
pub mod solution;
// 2. Run control, files, scrambles (these use the puzzle alone).
pub mod files;
pub mod limits;
pub mod scramble;
pub mod svg;
// 3. The layered breadth-first engine.
pub mod layered;
// 4. Whole-space analysis and distance tables.
pub mod analysis;
// 5. Heuristics, pattern databases included.
pub mod heuristic;
// 6. Searches.
pub mod search;
// 7. The solving core: one request in, one report out, in the shape every face gives it.
pub mod report;
pub mod request;

pub use analysis::DistanceTable;
pub use board::Board;
pub use error::{
    DatabaseError, FileError, MoveError, NameError, ParseError, RangeError, SearchError,
};
pub use heuristic::{Heuristic, HeuristicKind};
pub use limits::Limits;
pub use moves::{Direction, Notation};
pub use parity::is_solvable;
pub use request::{solve, Answer, Core, Request, Sources};
pub use search::{astar, bfs, bibfs, idastar, iddfs, Algorithm};
pub use size::{Size, SizeError};
pub use solution::{Solution, Stats};
