//! The instances a bench solves: the sets shipped with npuzzle, a file of them, or
//! uniform random boards; and the published node counts beside Korf & Felner's set.

use npuzzle::{Board, Size};

use super::{Args, Set};
use crate::Fail;

const KORF100: &str = include_str!("../../../../../testdata/korf100.txt");
pub(super) const KORF24: &str = include_str!("../../../../../testdata/korf24_50.txt");
pub(super) const KORF24_PUBLISHED: &str =
    include_str!("../../../../../testdata/korf24_published_nodes.txt");

/// The published node counts for Korf & Felner's 24-puzzle instances (sources in the
/// file's header): the column names, and per instance id its counts in that order.
pub(super) struct Published {
    pub(super) columns: Vec<String>,
    pub(super) nodes: std::collections::HashMap<u32, Vec<u64>>,
}

impl Published {
    pub(super) fn parse(text: &str) -> Published {
        let mut columns = Vec::new();
        let mut nodes = std::collections::HashMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"id") {
                // id, optimal, then one column per heuristic.
                columns = words.iter().skip(2).map(|w| w.to_string()).collect();
            } else if let Some(Ok(id)) = words.first().map(|w| w.parse::<u32>()) {
                let counts: Option<Vec<u64>> =
                    words.iter().skip(2).map(|w| w.parse().ok()).collect();
                if let Some(c) = counts.filter(|c| c.len() == columns.len()) {
                    nodes.insert(id, c);
                }
            }
        }
        Published { columns, nodes }
    }
}

/// One instance: where it was read, its id, its board, and its optimal length where
/// the file gives it.
pub(super) struct Instance {
    pub(super) line: usize,
    pub(super) id: u32,
    pub(super) board: Board,
    pub(super) optimal: Option<u32>,
}

/// The instances of a set's text, and an error for each line that is not one.
pub(super) fn parse_set(text: &str) -> (Vec<Instance>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let nums: Result<Vec<u64>, _> = t.split_whitespace().map(|x| x.parse::<u64>()).collect();
        let nums = match nums {
            Ok(v) => v,
            Err(_) => {
                errors.push(format!(
                    "line {}: expected numbers: id, cells, optimal length",
                    i + 1
                ));
                continue;
            }
        };
        // id + cells + optimal, or id + cells.
        let cells_with_opt = nums.len().saturating_sub(2);
        let side = (cells_with_opt as f64).sqrt().round() as usize;
        let (cells, optimal) = if side * side == cells_with_opt && side >= 2 {
            (&nums[1..nums.len() - 1], Some(nums[nums.len() - 1] as u32))
        } else {
            (&nums[1..], None)
        };
        let side = (cells.len() as f64).sqrt().round() as usize;
        let parsed = Size::square(side)
            .map_err(npuzzle::ParseError::from)
            .and_then(|s| {
                if s.cells() != cells.len() {
                    return Err(npuzzle::ParseError::CannotInferSize { found: cells.len() });
                }
                let cells: Vec<u8> = cells.iter().map(|&c| c.min(255) as u8).collect();
                Board::from_cells(s, cells)
            });
        match parsed {
            Ok(board) => out.push(Instance {
                line: i + 1,
                id: nums[0] as u32,
                board,
                optimal,
            }),
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
    }
    (out, errors)
}

/// Korf's goal: 0 1 2 ... with the blank first.
pub(super) fn korf_goal(size: Size) -> Board {
    Board::from_cells(size, size.identity_cells()).expect("a permutation")
}

/// The instances `args` name (a file, a shipped set, or random boards), the errors of
/// the lines that are none, and whether the boards are random ones.
pub(super) fn load(args: &Args) -> Result<(Vec<Instance>, Vec<String>, bool), Fail> {
    let text = match (&args.file, args.set) {
        (Some(f), _) => {
            std::fs::read_to_string(f).map_err(|e| Fail::input(format!("{}: {e}", f.display())))?
        }
        (None, Some(Set::Korf100)) => KORF100.to_string(),
        (None, Some(Set::Korf24)) => KORF24.to_string(),
        (None, Some(Set::Random)) => String::new(),
        (None, None) => return Err(Fail::input("expected a FILE or --set")),
    };
    let random = args.set == Some(Set::Random);
    if random != args.size.is_some() {
        return Err(Fail::input(if random {
            "--set random needs --size WxH"
        } else {
            "--size goes with --set random"
        }));
    }
    let Some(size) = args.size.filter(|_| random) else {
        let (instances, errors) = parse_set(&text);
        return Ok((instances, errors, false));
    };
    let goal = match &args.goal {
        Some(g) => Board::parse(g, Some(size)).map_err(|e| Fail::input(format!("--goal: {e}")))?,
        None => Board::solved(size),
    };
    let mut rng = npuzzle::scramble::Rng::new(args.seed);
    let boards = (1..=args.count)
        .map(|id| Instance {
            line: 0,
            id: id as u32,
            board: npuzzle::scramble::uniform(&goal, &mut rng),
            optimal: None,
        })
        .collect();
    Ok((boards, Vec::new(), true))
}

/// The goal of an instance: `--goal`, else the solved board for random boards, else
/// Korf's.
pub(super) fn goal_of(args: &Args, board: &Board, random: bool) -> Result<Board, Fail> {
    Ok(match &args.goal {
        Some(g) => {
            Board::parse(g, Some(board.size())).map_err(|e| Fail::input(format!("--goal: {e}")))?
        }
        None if random => Board::solved(board.size()),
        None => korf_goal(board.size()),
    })
}
