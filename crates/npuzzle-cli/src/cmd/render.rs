//! `npuzzle render`: a picture of a board, or an animation of moves, as SVG.

use std::io::Write;
use std::path::PathBuf;

use clap::Args as ClapArgs;
use npuzzle::svg::{animate, render, Scheme, Style};
use npuzzle::{Board, Notation};

use crate::opts::BoardOpts;
use crate::{Fail, OK};

/// Draw a board as an SVG picture; with --moves, an animated SVG that plays them.
///
/// Tiles are coloured by their row in the goal (rows), by their fringe (fringe: first row
/// and column, then the next...), or all alike (plain). The picture is self-contained and
/// opens in any browser.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle render \"8 1 3/4 0 2/7 6 5\" -o board.svg\n  npuzzle render \"8 1 3/4 0 2/7 6 5\" --moves LUR2D2LURULDLU -o solve.svg\n  npuzzle render \"$(npuzzle scramble --size 10x10)\" --scheme fringe > big.svg"
)]
pub struct Args {
    /// The board.
    #[arg(value_name = "BOARD")]
    pub board_text: String,
    #[command(flatten)]
    pub board: BoardOpts,
    /// Moves to play, in tile, blank or tiles notation.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// The notation of --moves [default: recognised from the text].
    #[arg(long, value_name = "NOTATION", value_parser = |s: &str| s.parse::<Notation>())]
    pub notation: Option<Notation>,
    /// Where to write the SVG (`-`: standard output) [default: standard output].
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Colours: plain, rows or fringe.
    #[arg(long, default_value = "rows", value_parser = |s: &str| s.parse::<Scheme>())]
    pub scheme: Scheme,
    /// Moves a second in an animation.
    #[arg(long, default_value_t = 4.0, value_parser = parse_tps)]
    pub tps: f64,
}

fn parse_tps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.1..=100.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected from 0.1 to 100 moves a second, found {}",
            crate::opts::quote_short(s)
        )),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = args.board.goal()?;
    let board =
        Board::parse(&args.board_text, args.board.size).map_err(|e| Fail::input(e.to_string()))?;
    let goal = BoardOpts::goal_for(&goal, &board).map_err(Fail::input)?;
    let style = Style {
        scheme: args.scheme,
        goal,
        seconds_per_move: 1.0 / args.tps,
    };
    let svg = match &args.moves {
        None => render(&board, &style),
        Some(text) => {
            let n = match args.notation {
                Some(n) => n,
                None => Notation::detect(text).map_err(|e| Fail::input(format!("--moves: {e}")))?,
            };
            let moves = n
                .parse(&board, text)
                .map_err(|e| Fail::input(format!("--moves: {e}")))?;
            let mut check = board.clone();
            check
                .apply_all(&moves)
                .map_err(|e| Fail::input(format!("--moves: {e}")))?;
            animate(&board, &moves, &style).expect("the moves were checked")
        }
    };
    match &args.output {
        Some(path) if path.as_os_str() != "-" => {
            npuzzle::files::write_through(path, svg.as_bytes()).map_err(|e| Fail {
                code: crate::IO,
                message: format!("{}: {e}", path.display()),
            })?
        }
        _ => out.write_all(svg.as_bytes())?,
    }
    Ok(OK)
}
