//! `npuzzle scramble`: fair scrambles, uniform over every position that can reach the goal,
//! or random walks; reproducible from a seed.

use std::io::Write;

use clap::Args as ClapArgs;
use npuzzle::scramble::{uniform, walk, Rng, MAX_COUNT, MAX_WALK};
use npuzzle::{Board, Notation, Size};
use serde_json::json;

use crate::opts::parse_size;
use crate::{Fail, OK};

/// Draw scrambles: positions uniform over all that can reach the goal (never an unsolvable
/// one, never the bias of a random walk), or random walks of a given length.
///
/// The generator is documented (xoshiro256** seeded by SplitMix64; Fisher-Yates with the
/// parity repaired): the same seed gives the same scrambles on every machine and in every
/// version. Without --seed a seed is drawn and reported on standard error, so any scramble
/// can be drawn again.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle scramble --size 4x4\n  npuzzle scramble --size 3x3 --count 5 --seed 42\n  npuzzle scramble --size 5x5 --moves 30 --json"
)]
pub struct Args {
    /// Board size as WxH (width first).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Size,
    /// The goal the scrambles must reach [default: tiles in order, blank last].
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// How many scrambles.
    #[arg(long, short = 'n', default_value_t = 1, value_parser = parse_count)]
    pub count: u64,
    /// The seed (any number below 2^64); drawn from the system when not given.
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// A random walk of K moves from the goal (never undoing the move before) instead of a
    /// uniform position.
    #[arg(long, value_name = "K", value_parser = parse_walk)]
    pub moves: Option<usize>,
    /// Print one JSON object per scramble per line (with the walk's moves, if any).
    #[arg(long)]
    pub json: bool,
}

fn parse_count(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_COUNT as u64).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a count from 1 to {MAX_COUNT}, found {}",
            crate::opts::quote_short(s)
        )),
    }
}

fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!(
            "expected a seed from 0 to {}, found {}",
            u64::MAX,
            crate::opts::quote_short(s)
        )
    })
}

fn parse_walk(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) => npuzzle::scramble::check_walk(n)
            .map(|()| n)
            .map_err(|e| e.to_string()),
        _ => Err(format!(
            "expected a walk of 0 to {MAX_WALK} moves, found {}",
            crate::opts::quote_short(s)
        )),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = match &args.goal {
        Some(g) => {
            Board::parse(g, Some(args.size)).map_err(|e| Fail::input(format!("--goal: {e}")))?
        }
        None => Board::solved(args.size),
    };
    let seed = match args.seed {
        Some(s) => s,
        None => {
            let s = npuzzle::scramble::fresh_seed();
            crate::note!("npuzzle: seed {s} (--seed {s} draws these scrambles again)");
            s
        }
    };
    let mut rng = Rng::new(seed);
    let mut line = String::new();
    for i in 0..args.count {
        let (board, path) = match args.moves {
            Some(k) => {
                let (b, p) =
                    walk(&goal, k, &mut rng).map_err(|e| Fail::input(format!("--moves: {e}")))?;
                (b, Some(p))
            }
            None => (uniform(&goal, &mut rng), None),
        };
        if args.json {
            let mut v = json!({
                "board": board.to_string(),
                "size": args.size.to_string(),
                "seed": seed,
                "index": i,
                "kind": if path.is_some() { "walk" } else { "uniform" },
            });
            if let Some(p) = &path {
                v["walk"] = json!(Notation::Tile.format(&goal, p));
                v["walk_length"] = json!(p.len());
            }
            writeln!(out, "{v}")?;
        } else {
            line.clear();
            write_inline(&mut line, &board);
            writeln!(out, "{line}")?;
        }
    }
    Ok(OK)
}

/// The board's inline form (`8 1 3/4 0 2/7 6 5`), written into `s` without a formatter per
/// cell: a million 4x4 scrambles are mostly this.
fn write_inline(s: &mut String, board: &Board) {
    let w = board.size().width();
    for (i, &t) in board.cells().iter().enumerate() {
        if i > 0 {
            s.push(if i % w == 0 { '/' } else { ' ' });
        }
        if t >= 100 {
            s.push(char::from(b'0' + t / 100));
        }
        if t >= 10 {
            s.push(char::from(b'0' + t / 10 % 10));
        }
        s.push(char::from(b'0' + t % 10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_form_matches_display() {
        for text in ["8 1 3/4 0 2/7 6 5", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"] {
            let b: Board = text.parse().unwrap();
            let mut s = String::new();
            write_inline(&mut s, &b);
            assert_eq!(s, b.to_string());
        }
        let big = Board::solved("16x16".parse().unwrap());
        let mut s = String::new();
        write_inline(&mut s, &big);
        assert_eq!(s, big.to_string());
    }
}
