//! `npuzzle judge`: the exact input and output of three classic 8-puzzle problems.

use std::io::{self, Read, Write};

use clap::{Args as ClapArgs, ValueEnum};
use npuzzle::{Board, DistanceTable, Limits, Notation, Size};

use crate::input::{parse_item, read_items};
use crate::{Fail, BAD_INPUT, OK};

/// The problems.
#[derive(ValueEnum, Debug, Clone, Copy)]
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
/// Every answer is exact: one breadth-first search from the goal builds the distance of
/// all 181,440 states, and each board is solved by descending it.
#[derive(ClapArgs, Debug)]
#[command(after_help = "Examples:\n  printf '0 1 3\\n4 2 5\\n7 8 6\\n' | npuzzle judge ctrip            # 4\n  echo '2  3  4  1  5  x  7  6  8' | npuzzle judge hdu1043   # a 19-move path\n  echo 283104765 | npuzzle judge luogu1379                  # 4")]
pub struct Args {
    /// Which problem.
    #[arg(value_enum)]
    pub problem: Problem,
}

const MAX_INPUT: u64 = 1 << 20;

fn three() -> Size {
    Size::square(3).expect("3x3 is a size")
}

fn table(goal: &Board) -> Result<DistanceTable, Fail> {
    DistanceTable::build(goal, &Limits::default()).map_err(|e| Fail {
        code: crate::LIMIT,
        message: e.to_string(),
    })
}

/// The one board of a single-board problem.
fn single(goal: &Board) -> Result<(Board, DistanceTable), Fail> {
    let mut text = String::new();
    io::stdin()
        .take(MAX_INPUT)
        .read_to_string(&mut text)
        .map_err(|e| Fail::input(format!("expected UTF-8 text on standard input: {e}")))?;
    let board = Board::parse(&text, Some(three())).map_err(|e| Fail::input(e.to_string()))?;
    Ok((board, table(goal)?))
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    match args.problem {
        Problem::Ctrip | Problem::Luogu1379 => {
            let goal = match args.problem {
                Problem::Ctrip => Board::solved(three()),
                _ => "1 2 3/8 0 4/7 6 5".parse().expect("the Luogu goal is a board"),
            };
            let (board, table) = single(&goal)?;
            match table.distance(&board) {
                Some(d) => writeln!(out, "{d}")?,
                None => writeln!(out, "-1")?,
            }
            Ok(OK)
        }
        Problem::Hdu1043 => {
            let goal = Board::solved(three());
            let items = read_items(io::stdin().lock(), Some(three()))?;
            let mut table_cache = None;
            let mut code = OK;
            for item in &items {
                let board = match parse_item(item, Some(three())) {
                    Ok(b) => b,
                    Err(e) => {
                        eprintln!("npuzzle: {}: {e}", item.label());
                        code = BAD_INPUT;
                        continue;
                    }
                };
                if table_cache.is_none() {
                    table_cache = Some(table(&goal)?);
                }
                let t = table_cache.as_ref().expect("built above");
                match t.solve(&board) {
                    Ok(s) => writeln!(out, "{}", Notation::Blank.format(&board, &s.moves))?,
                    Err(_) => writeln!(out, "unsolvable")?,
                }
            }
            Ok(code)
        }
    }
}
