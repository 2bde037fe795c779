//! `npuzzle moves`: the speedsolvers' toolbox for move sequences.

use std::io::Write;

use clap::{Args as ClapArgs, Subcommand};
use npuzzle::sequence::{self, Metric};
use npuzzle::{Board, Direction, Notation, Size};
use serde_json::json;

use crate::input::lines_from;
use crate::opts::{parse_size, LimitOpts};
use crate::{merge, Fail, BAD_INPUT, OK};
use npuzzle::request::Request;

/// Work on move sequences: convert between notations, simplify, invert, measure,
/// transpose, slice, find the position a sequence solves, and compare with the optimum.
///
/// Each command reads its sequences from the argument, or from standard input one per
/// line (blank lines and '#' comments skipped; a bad line is reported and the rest go on).
/// Sequences are read in any of the three notations (tile U2LDR3, blank uldr, tiles
/// 1 2 5 6; the tiles notation needs --board) and written in tile notation unless --to
/// says otherwise.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle moves simplify \"R R L U U\"\n  npuzzle moves invert LULU\n  npuzzle moves length --metric mtm RRRULLL\n  npuzzle moves convert --to blank U2L\n  npuzzle moves from-solution --size 3x3 DRUL\n  npuzzle moves opt-diff \"8 1 3/4 0 2/7 6 5\" LUR2D2LURULDLU\n  npuzzle moves optimize --board \"8 1 3/4 0 2/7 6 5\" LURDLURDLURDLUR2D2LURULDLU"
)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

/// Options every sequence command takes.
#[derive(ClapArgs, Debug, Clone)]
pub struct SeqOpts {
    /// The notation of the input [default: recognised from the text].
    #[arg(long, short, value_name = "NOTATION", value_parser = |s: &str| s.parse::<Notation>())]
    pub notation: Option<Notation>,
    /// The notation of the output: tile, blank or tiles (tiles needs --board).
    #[arg(long, value_name = "NOTATION", default_value = "tile", value_parser = |s: &str| s.parse::<Notation>())]
    pub to: Notation,
    /// The board the sequence starts from (needed to read or write the tiles notation).
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
    /// Print one JSON object per sequence per line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand, Debug)]
pub enum Action {
    /// Write sequences in another notation (--to tile, blank or tiles).
    Convert(Seq),
    /// Cancel every move followed by its inverse, and write runs with counts (R R L U U:
    /// RU2).
    Simplify(Seq),
    /// The sequence that undoes each one: moves inverted, in reverse order.
    Invert(Seq),
    /// Count the moves: single-tile (stm) or multi-tile, a row or column slid at once
    /// counting once (mtm).
    Length {
        #[command(flatten)]
        seq: Seq,
        /// stm (every tile slid) or mtm (tiles slid together count once).
        #[arg(long, default_value = "stm", value_parser = |s: &str| s.parse::<Metric>())]
        metric: Metric,
    },
    /// Mirror each sequence about the main diagonal (U and L trade places, D and R too).
    Transpose(Seq),
    /// The moves from A to B: skip the first A, keep up to move B (counted in single moves,
    /// runs expanded).
    Slice {
        /// Moves to skip.
        #[arg(value_name = "A")]
        skip: usize,
        /// The last move kept.
        #[arg(value_name = "B")]
        last: usize,
        #[command(flatten)]
        seq: Seq,
    },
    /// The position each sequence solves: the goal with the sequence undone.
    FromSolution {
        /// Board size as WxH.
        #[arg(long, value_name = "WxH", value_parser = parse_size)]
        size: Size,
        /// The goal [default: tiles in order, blank last].
        #[arg(long, value_name = "BOARD")]
        goal: Option<String>,
        #[command(flatten)]
        seq: Seq,
    },
    /// Shorten each sequence (from --board): every stretch of up to --window moves
    /// replaced by an optimal one, again until nothing shortens; the result reaches the
    /// same position.
    Optimize {
        #[command(flatten)]
        seq: Seq,
        /// The longest stretch replaced at once.
        #[arg(long, default_value_t = 16, value_parser = parse_window)]
        window: usize,
        #[command(flatten)]
        limits: LimitOpts,
    },
    /// How many moves a solution of BOARD is over the optimum (it is checked first).
    OptDiff {
        /// The board the solution starts from.
        #[arg(value_name = "BOARD")]
        start: String,
        /// The solution.
        #[arg(value_name = "MOVES", allow_hyphen_values = true)]
        moves: String,
        /// The goal [default: tiles in order, blank last].
        #[arg(long, value_name = "BOARD")]
        goal: Option<String>,
        /// The notation of MOVES [default: recognised from the text].
        #[arg(long, short = 'n', value_name = "NOTATION", value_parser = |s: &str| s.parse::<Notation>())]
        notation: Option<Notation>,
        /// Print one JSON object: the board, the goal, the lengths and how many over.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: LimitOpts,
    },
}

/// The sequences of a command and its options.
#[derive(ClapArgs, Debug)]
pub struct Seq {
    /// The sequence; read from standard input, one per line, when not given.
    #[arg(value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    #[command(flatten)]
    pub opts: SeqOpts,
}

fn parse_window(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (2..=40).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a window of 2 to 40 moves, found {}",
            crate::opts::quote_short(s)
        )),
    }
}

/// A placeholder start for notations that need none (tile and blank never look at it).
fn any_board() -> Board {
    Board::solved(Size::square(3).expect("3x3 is a size"))
}

/// Reads one sequence in `notation` (or the one its text shows).
fn read(
    text: &str,
    notation: Option<Notation>,
    board: Option<&Board>,
) -> Result<Vec<Direction>, String> {
    let n = match notation {
        Some(n) => n,
        None => Notation::detect(text).map_err(|e| e.to_string())?,
    };
    if n == Notation::Tiles && board.is_none() {
        return Err("the tiles notation (1 2 5 6) needs --board".into());
    }
    let placeholder = any_board();
    n.parse(board.unwrap_or(&placeholder), text)
        .map_err(|e| e.to_string())
}

/// Writes `moves` in `to` (from `board`, which the tiles notation needs).
fn write(moves: &[Direction], to: Notation, board: Option<&Board>) -> Result<String, String> {
    match (to, board) {
        (Notation::Tiles, None) => Err("writing the tiles notation needs --board".into()),
        (_, Some(b)) => to.try_format(b, moves).map_err(|e| format!("--board: {e}")),
        (_, None) => Ok(to.format(&any_board(), moves)),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    match args.action {
        Action::Convert(s) => each(s, out, |m, o, b| {
            let text = write(m, o.to, b)?;
            Ok((
                text.clone(),
                json!({ "moves": text, "notation": o.to.name() }),
            ))
        }),
        Action::Simplify(s) => each(s, out, |m, o, b| {
            let simple = sequence::simplify(m);
            let text = write(&simple, o.to, b)?;
            Ok((
                text.clone(),
                json!({ "moves": text, "length": simple.len(), "was": m.len() }),
            ))
        }),
        Action::Invert(s) => each(s, out, |m, o, b| {
            let inv = sequence::invert(m);
            // The inverse starts where the sequence ended.
            let end = b.map(|b| {
                let mut e = b.clone();
                let _ = e.apply_all(m);
                e
            });
            let text = write(&inv, o.to, end.as_ref())?;
            Ok((text.clone(), json!({ "moves": text, "length": inv.len() })))
        }),
        Action::Length { seq, metric } => each(seq, out, move |m, _, _| {
            let n = sequence::length(m, metric);
            Ok((
                n.to_string(),
                json!({ "length": n, "metric": metric.name() }),
            ))
        }),
        Action::Transpose(s) => each(s, out, |m, o, b| {
            let t = sequence::transpose(m);
            let tb = b.map(sequence::transpose_board);
            let text = write(&t, o.to, tb.as_ref())?;
            Ok((text.clone(), json!({ "moves": text })))
        }),
        Action::Slice {
            skip: from,
            last: to,
            seq,
        } => {
            if from > to {
                return Err(Fail::input(format!(
                    "expected a slice A B with A at most B, found {from} {to}"
                )));
            }
            each(seq, out, move |m, o, b| {
                if to > m.len() {
                    return Err(format!(
                        "expected a slice within the {} moves, found {from} {to}",
                        m.len()
                    ));
                }
                // The slice starts where the first `from` moves end.
                let start = b.map(|b| {
                    let mut e = b.clone();
                    let _ = e.apply_all(&m[..from]);
                    e
                });
                let text = write(&m[from..to], o.to, start.as_ref())?;
                Ok((text.clone(), json!({ "moves": text, "length": to - from })))
            })
        }
        Action::FromSolution { size, goal, seq } => {
            let goal = match goal {
                Some(g) => {
                    Board::parse(&g, Some(size)).map_err(|e| Fail::input(format!("--goal: {e}")))?
                }
                None => Board::solved(size),
            };
            each(seq, out, move |m, _, _| {
                let start = sequence::from_solution(&goal, m).ok_or_else(|| {
                    format!("the sequence solves no {size} position: undoing it from the goal leaves the board")
                })?;
                Ok((
                    start.to_string(),
                    json!({ "board": start.to_string(), "goal": goal.to_string() }),
                ))
            })
        }
        Action::Optimize {
            seq,
            window,
            limits,
        } => {
            if seq.opts.board.is_none() {
                return Err(Fail::input(
                    "expected --board, the position the sequence starts from",
                ));
            }
            let limits = limits.limits();
            each(seq, out, move |m, o, b| {
                let start = b.expect("--board was checked");
                let short = npuzzle::search::optimize(start, m, window, &limits)
                    .map_err(|e| e.to_string())?;
                let text = write(&short, o.to, Some(start))?;
                Ok((
                    text.clone(),
                    json!({ "moves": text, "length": short.len(), "was": m.len() }),
                ))
            })
        }
        Action::OptDiff {
            start,
            moves,
            goal,
            notation,
            json,
            limits,
        } => opt_diff(
            &start,
            &moves,
            goal.as_deref(),
            notation,
            json,
            &limits,
            out,
        ),
    }
}

/// Runs `f` on every sequence of `seq` (the argument, or each line of standard input),
/// printing its text or JSON answer; a bad sequence is reported and the rest go on.
fn each(
    seq: Seq,
    out: &mut impl Write,
    f: impl Fn(&[Direction], &SeqOpts, Option<&Board>) -> Result<(String, serde_json::Value), String>,
) -> Result<u8, Fail> {
    let opts = seq.opts;
    let board = opts
        .board
        .as_deref()
        .map(|b| Board::parse(b, None).map_err(|e| Fail::input(format!("--board: {e}"))))
        .transpose()?;
    let args: Vec<String> = seq.moves.into_iter().collect();
    let items = lines_from(&args)?;
    let mut code = OK;
    for item in &items {
        if let Some(e) = &item.error {
            crate::note!("npuzzle: {}: {e}", item.label());
            code = merge(code, BAD_INPUT);
            continue;
        }
        let done = read(&item.text, opts.notation, board.as_ref())
            .and_then(|m| f(&m, &opts, board.as_ref()));
        match done {
            Ok((_, mut v)) if opts.json => {
                v["input"] = json!(item.text);
                writeln!(out, "{v}")?;
            }
            Ok((text, _)) => writeln!(out, "{text}")?,
            Err(e) => {
                crate::note!("npuzzle: {}: {e}", item.label());
                if opts.json {
                    writeln!(out, "{}", json!({ "input": item.text, "error": e }))?;
                }
                code = merge(code, BAD_INPUT);
            }
        }
    }
    Ok(code)
}

fn opt_diff(
    start: &str,
    moves: &str,
    goal: Option<&str>,
    notation: Option<Notation>,
    json: bool,
    limits: &LimitOpts,
    out: &mut impl Write,
) -> Result<u8, Fail> {
    let board = Board::parse(start, None).map_err(|e| Fail::input(e.to_string()))?;
    let goal = match goal {
        Some(g) => {
            Board::parse(g, Some(board.size())).map_err(|e| Fail::input(format!("--goal: {e}")))?
        }
        None => Board::solved(board.size()),
    };
    let m = read(moves, notation, Some(&board)).map_err(Fail::input)?;
    let mut end = board.clone();
    end.apply_all(&m).map_err(|e| Fail::input(e.to_string()))?;
    if end != goal {
        return Err(Fail {
            code: crate::MISMATCH,
            message: format!(
                "the {} moves are legal but reach {end}, not the goal {goal}",
                m.len()
            ),
        });
    }
    // The optimum as `solve --optimal` finds it: the library's core, exact answers only
    // (auto's databases on 16 to 25 cells, cached or built within a minute and the time
    // limit; IDA* beyond).
    let request = Request {
        goal: Some(goal.clone()),
        exact: true,
        limits: limits.limits(),
        ..Request::default()
    };
    let core = crate::pdbs::core(crate::pdbs::pdb_dir(&None)?.as_deref(), Default::default());
    let optimal = core
        .answer(&board, &request)
        .map_err(crate::search_fail)?
        .moves;
    let over = m.len() - optimal.len();
    if json {
        writeln!(
            out,
            "{}",
            json!({
                "board": board.to_string(),
                "goal": goal.to_string(),
                "length": m.len(),
                "optimal": optimal.len(),
                "over": over,
            })
        )?;
        return Ok(OK);
    }
    writeln!(
        out,
        "{}, optimal {}: {over} over{}",
        crate::moves(m.len()),
        optimal.len(),
        if over == 0 { " (optimal)" } else { "" }
    )?;
    Ok(OK)
}
