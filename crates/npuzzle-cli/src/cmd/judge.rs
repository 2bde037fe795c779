//! `npuzzle judge`: the exact input and output of three classic 8-puzzle problems.

use std::io::{self, Read, Write};

use clap::{Args as ClapArgs, ValueEnum};
use npuzzle::request::{Core, Request, Sources};
use npuzzle::{Board, Direction, Notation, SearchError, Size};

use crate::input::{parse_item, read_items};
use crate::{Fail, BAD_INPUT, OK};

/// The problems.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// 3 lines of 3 numbers (0 the blank) -> fewest moves to 1 2 3/4 5 6/7 8 0, or -1.
    Ctrip,
    /// Lines of 9 cells (x the blank) until end of input -> a shortest uldr blank path to
    /// 1 2 3/4 5 6/7 8 x per line, or "unsolvable".
    Hdu1043,
    /// One line of 9 digits -> fewest moves to 123804765, or -1.
    Luogu1379,
}

/// Answer a classic judge problem on standard input with its exact output format.
///
/// Every answer is exact: IDA* for the first boards, then (for a batch) one breadth-first
/// search from the goal gives the distance of all 181,440 states, and each board is
/// solved by descending it.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  printf '0 1 3\\n4 2 5\\n7 8 6\\n' | npuzzle judge ctrip            # 4\n  echo '2  3  4  1  5  x  7  6  8' | npuzzle judge hdu1043   # a 19-move path\n  echo 283104765 | npuzzle judge luogu1379                  # 4"
)]
pub struct Args {
    /// Which problem.
    #[arg(value_enum)]
    pub problem: Problem,
}

const MAX_INPUT: u64 = 1 << 20;

fn three() -> Size {
    Size::square(3).expect("3x3 is a size")
}

/// A shortest solution, `None` if there is none: the core's auto, proven answers only
/// (on 3x3 a distance table, built once for the goal, answers every board).
fn shortest(core: &Core, board: &Board, goal: &Board) -> Result<Option<Vec<Direction>>, Fail> {
    let request = Request {
        goal: Some(goal.clone()),
        exact: true,
        threads: 1,
        ..Request::default()
    };
    match core.answer(board, &request) {
        Ok(a) if a.report.solvable => Ok(Some(a.moves)),
        Ok(_) | Err(SearchError::Unsolvable) => Ok(None),
        Err(e) => Err(Fail {
            code: crate::LIMIT,
            message: e.to_string(),
        }),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    // The judges' boards are 3x3: nothing is read from or written to disk.
    let core = Core::new(Sources::default());
    match args.problem {
        Problem::Ctrip | Problem::Luogu1379 => {
            let goal = match args.problem {
                Problem::Ctrip => Board::solved(three()),
                _ => "1 2 3/8 0 4/7 6 5"
                    .parse()
                    .expect("the Luogu goal is a board"),
            };
            let mut text = String::new();
            io::stdin()
                .take(MAX_INPUT + 1)
                .read_to_string(&mut text)
                .map_err(|e| Fail::input(format!("expected UTF-8 text on standard input: {e}")))?;
            if text.len() as u64 > MAX_INPUT {
                return Err(Fail::input(format!(
                    "expected one board on standard input (at most {} KiB), found more",
                    MAX_INPUT / 1024
                )));
            }
            // Luogu's input is one line; a second board there is a mistake to name.
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            if args.problem == Problem::Luogu1379 && lines > 1 {
                return Err(Fail::input(format!(
                    "expected one line of 9 digits, found {lines} lines"
                )));
            }
            let board =
                Board::parse(&text, Some(three())).map_err(|e| Fail::input(e.to_string()))?;
            match shortest(&core, &board, &goal)? {
                Some(m) => writeln!(out, "{}", m.len())?,
                None => writeln!(out, "-1")?,
            }
            Ok(OK)
        }
        Problem::Hdu1043 => {
            let goal = Board::solved(three());
            let items = read_items(io::stdin().lock(), Some(three()))?;
            let mut code = OK;
            for item in &items {
                let board = match parse_item(item, Some(three())) {
                    Ok(b) => b,
                    Err(e) => {
                        // One line of output for every board read, so that answers stay
                        // on the lines of their boards.
                        crate::note!("npuzzle: {}: {e}", item.label());
                        writeln!(out, "error: {}: {e}", item.label())?;
                        code = BAD_INPUT;
                        continue;
                    }
                };
                match shortest(&core, &board, &goal)? {
                    Some(m) => writeln!(out, "{}", Notation::Blank.format(&board, &m))?,
                    None => writeln!(out, "unsolvable")?,
                }
            }
            Ok(code)
        }
    }
}
