//! `npuzzle solvable`: the linear-time parity test.

use std::io::Write;

use clap::Args as ClapArgs;
use npuzzle::is_solvable;
use serde_json::json;

use crate::input::{items_from, parse_item};
use crate::opts::BoardOpts;
use crate::{Fail, BAD_INPUT, OK};

/// Tell whether boards can reach the goal (a parity test, no search).
#[derive(ClapArgs, Debug)]
#[command(after_help = "Example:\n  npuzzle solvable \"2 1 3/4 5 6/7 8 0\"")]
pub struct Args {
    /// Boards to test; read from standard input when none are given.
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
    #[command(flatten)]
    pub board: BoardOpts,
    /// Print one JSON object per board per line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = args.board.goal()?;
    let items = items_from(&args.boards, args.board.size)?;
    if items.is_empty() {
        return Err(Fail::input(
            "expected a board on the command line or standard input, found none",
        ));
    }
    let mut code = OK;
    for item in &items {
        let checked = parse_item(item, args.board.size).and_then(|b| {
            let g = BoardOpts::goal_for(&goal, &b)?;
            Ok((is_solvable(&b, &g).expect("sizes match"), b))
        });
        match checked {
            Ok((s, b)) if args.json => {
                writeln!(out, "{}", json!({"board": b.to_string(), "solvable": s}))?
            }
            Ok((s, b)) => writeln!(out, "{b}: {}", if s { "solvable" } else { "unsolvable" })?,
            Err(e) => {
                crate::note!("npuzzle: {}: {e}", item.label());
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({"line": item.line, "input": item.text, "error": e})
                    )?;
                }
                code = BAD_INPUT;
            }
        }
    }
    Ok(code)
}
