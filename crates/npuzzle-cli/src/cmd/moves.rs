//! `npuzzle apply` and `npuzzle verify`: moves on a board.

use std::io::Write;

use clap::Args as ClapArgs;
use npuzzle::{Board, Direction, Notation};

use crate::opts::BoardOpts;
use crate::{Fail, MISMATCH, OK};

/// Apply moves to a board and print the result.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle apply \"0 1 3/4 2 5/7 8 6\" LULU\n  npuzzle apply \"0 1 3/4 2 5/7 8 6\" rdrd\n  npuzzle apply --grid \"0 1 3/4 2 5/7 8 6\" \"1 2 5 6\""
)]
pub struct ApplyArgs {
    /// The starting board.
    #[arg(value_name = "BOARD")]
    pub board_text: String,
    /// The moves, in tile (U2LDR3), blank (uldr) or tiles (1 2 5 6) notation.
    #[arg(value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: String,
    /// Board size as WxH, when it cannot be read from the board.
    #[arg(long, value_name = "WxH", value_parser = |s: &str| s.parse::<npuzzle::Size>().map_err(|e| e.to_string()))]
    pub size: Option<npuzzle::Size>,
    /// The notation of MOVES [default: recognised from the text].
    #[arg(long, short, value_parser = |s: &str| s.parse::<Notation>())]
    pub notation: Option<Notation>,
    /// Print the result as a grid instead of one line.
    #[arg(long)]
    pub grid: bool,
}

/// Check that moves are legal and solve a board (exit 0), or say what is wrong (exit 1
/// for a legal sequence that ends elsewhere, 2 for an illegal or unreadable one).
#[derive(ClapArgs, Debug)]
#[command(after_help = "Example:\n  npuzzle verify \"0 1 3/4 2 5/7 8 6\" LULU")]
pub struct VerifyArgs {
    /// The starting board.
    #[arg(value_name = "BOARD")]
    pub board_text: String,
    /// The moves, in tile (U2LDR3), blank (uldr) or tiles (1 2 5 6) notation.
    #[arg(value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: String,
    #[command(flatten)]
    pub board: BoardOpts,
    /// The notation of MOVES [default: recognised from the text].
    #[arg(long, short, value_parser = |s: &str| s.parse::<Notation>())]
    pub notation: Option<Notation>,
}

fn read_moves(
    board: &Board,
    text: &str,
    notation: Option<Notation>,
) -> Result<Vec<Direction>, Fail> {
    let n = match notation {
        Some(n) => n,
        None => Notation::detect(text).map_err(|e| Fail::input(e.to_string()))?,
    };
    n.parse(board, text).map_err(|e| Fail::input(e.to_string()))
}

pub fn apply(args: ApplyArgs, out: &mut impl Write) -> Result<u8, Fail> {
    let mut board =
        Board::parse(&args.board_text, args.size).map_err(|e| Fail::input(e.to_string()))?;
    let moves = read_moves(&board, &args.moves, args.notation)?;
    board
        .apply_all(&moves)
        .map_err(|e| Fail::input(e.to_string()))?;
    if args.grid {
        writeln!(out, "{}", board.to_grid())?;
    } else {
        writeln!(out, "{board}")?;
    }
    Ok(OK)
}

pub fn verify(args: VerifyArgs, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = args.board.goal()?;
    let start =
        Board::parse(&args.board_text, args.board.size).map_err(|e| Fail::input(e.to_string()))?;
    let goal = BoardOpts::goal_for(&goal, &start).map_err(Fail::input)?;
    let moves = read_moves(&start, &args.moves, args.notation)?;
    let mut board = start.clone();
    board
        .apply_all(&moves)
        .map_err(|e| Fail::input(e.to_string()))?;
    if board == goal {
        writeln!(
            out,
            "ok: {} reach the goal {goal}",
            crate::moves(moves.len())
        )?;
        Ok(OK)
    } else {
        Err(Fail {
            code: MISMATCH,
            message: format!(
                "the {} moves are legal but reach {board}, not the goal {goal}",
                moves.len()
            ),
        })
    }
}
