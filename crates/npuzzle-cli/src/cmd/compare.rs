//! `npuzzle compare`: every algorithm and heuristic on one board, side by side.

use std::io::Write;
use std::time::Duration;

use clap::Args as ClapArgs;
use npuzzle::request::Run;
use npuzzle::{is_solvable, Board, HeuristicKind, SearchError};
use serde_json::json;

use crate::opts::thousands;
use crate::opts::{BoardOpts, LimitOpts};
use crate::{Fail, OK};

/// Run every algorithm and heuristic on one board and compare their work.
///
/// Each run has its own time limit (10 s unless --time-limit says otherwise), so that
/// hopeless combinations (iddfs on a deep board, bfs on 4x4) end with a note instead of
/// holding up the table.
#[derive(ClapArgs, Debug)]
#[command(after_help = "Example:\n  npuzzle compare \"8 6 7/2 5 4/3 0 1\"")]
pub struct Args {
    /// The board.
    #[arg(value_name = "BOARD")]
    pub board_text: String,
    #[command(flatten)]
    pub board: BoardOpts,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitOpts,
}

fn human_time(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

/// Compares every search on the board and prints the table (or one JSON object).
pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = args.board.goal()?;
    let board =
        Board::parse(&args.board_text, args.board.size).map_err(|e| Fail::input(e.to_string()))?;
    let goal = BoardOpts::goal_for(&goal, &board).map_err(Fail::input)?;
    let mut limits = args.limits.limits();
    limits.time_limit = Some(limits.time_limit.unwrap_or(Duration::from_secs(10)));
    let solvable = is_solvable(&board, &goal).map_err(|e| Fail::input(e.to_string()))?;
    let estimates: Vec<(HeuristicKind, Option<u32>)> = HeuristicKind::ALL
        .iter()
        .map(|&h| (h, h.estimate(&board, &goal)))
        .collect();

    // The library's comparison: every search of `compared()`, and IDA* with the
    // databases cached for the goal if there are any (none is built).
    let core = crate::pdbs::core(crate::pdbs::pdb_dir(&None)?.as_deref(), Default::default());
    let comparison = core.compare(&board, &goal, &limits, &mut |_| {});
    // Every exact algorithm that finished must agree; anything else is a bug to report.
    if let Some(a) = comparison.disagree {
        return Err(Fail {
            code: crate::INTERNAL,
            message: format!("internal error: {a} disagrees on the optimal length"),
        });
    }
    if args.json {
        let v = json!({
            "board": board.to_string(),
            "goal": goal.to_string(),
            "solvable": solvable,
            "length": comparison.length,
            "estimates": estimates
                .iter()
                .map(|(h, v)| (h.name().to_string(), json!(v)))
                .collect::<serde_json::Map<_, _>>(),
            "runs": comparison.runs.iter().map(run_json).collect::<Vec<_>>(),
        });
        writeln!(out, "{v}")?;
        return Ok(if crate::opts::interrupted() {
            crate::LIMIT
        } else {
            OK
        });
    }
    writeln!(out, "board  {board}  ({})", board.size())?;
    writeln!(out, "goal   {goal}")?;
    if !solvable {
        writeln!(
            out,
            "unsolvable: the permutation parity and the blank's distance disagree"
        )?;
        return Ok(OK);
    }
    let est: Vec<String> = estimates
        .iter()
        .map(|(h, v)| format!("{h} {}", v.map_or("-".to_string(), |v| v.to_string())))
        .collect();
    match comparison.length {
        Some(l) => writeln!(
            out,
            "optimal length {l}; heuristic estimates: {}",
            est.join(", ")
        )?,
        None => writeln!(
            out,
            "no algorithm finished; heuristic estimates: {}",
            est.join(", ")
        )?,
    }
    writeln!(out)?;
    let (table, notes) = table(&comparison.runs);
    print_aligned(out, &table)?;
    if crate::opts::interrupted() {
        // Runs cut short prove nothing about which is faster.
        writeln!(out)?;
        writeln!(out, "interrupted: no winner declared")?;
        return Ok(crate::LIMIT);
    }
    print_winners(out, &comparison.runs)?;
    for n in notes {
        writeln!(out, "note: {n}")?;
    }
    Ok(OK)
}

/// One run as a JSON object.
fn run_json(r: &Run) -> serde_json::Value {
    match &r.result {
        Ok(s) => json!({
            "algorithm": r.algorithm.name(),
            "heuristic": r.heuristic,
            "length": s.len(),
            "expanded": s.stats.expanded,
            "generated": s.stats.generated,
            "peak_stored": s.stats.peak_stored,
            "seconds": s.stats.elapsed.as_secs_f64(),
        }),
        Err(e) => json!({
            "algorithm": r.algorithm.name(),
            "heuristic": r.heuristic,
            "error": crate::search_words(e),
        }),
    }
}

/// The table's columns.
const HEADER: [&str; 7] = [
    "algorithm",
    "heuristic",
    "length",
    "expanded",
    "generated",
    "peak states",
    "time",
];

/// The table's rows, a run each, and the notes below it (once each: one note for every
/// search left out).
fn table(runs: &[Run]) -> (Vec<[String; 7]>, Vec<String>) {
    let mut table: Vec<[String; 7]> = Vec::new();
    let mut notes = Vec::new();
    for r in runs {
        let h = r.heuristic.clone().unwrap_or_else(|| "-".to_string());
        let name = r.algorithm.name().to_string();
        match &r.result {
            Ok(s) => table.push([
                name,
                h,
                s.len().to_string(),
                thousands(s.stats.expanded),
                thousands(s.stats.generated),
                thousands(s.stats.peak_stored),
                human_time(s.stats.elapsed),
            ]),
            Err(e) => {
                let short = match e {
                    SearchError::MemoryLimit { .. } => "memory limit",
                    SearchError::OutOfMemory { .. } => "out of memory",
                    SearchError::TimeLimit { .. } if crate::opts::interrupted() => "interrupted",
                    SearchError::TimeLimit { .. } => "time limit",
                    SearchError::LeftOut { .. } => "left out",
                    _ => "not applicable",
                };
                let dash = || "-".to_string();
                table.push([name, h, dash(), dash(), dash(), dash(), short.into()]);
                let note = match e {
                    SearchError::LeftOut { .. } => e.to_string(),
                    e => format!("{}: {}", r.algorithm, crate::search_words(e)),
                };
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
    }
    (table, notes)
}

/// The header, a rule and the rows, in columns: names to the left, figures to the right.
fn print_aligned(out: &mut impl Write, table: &[[String; 7]]) -> Result<(), Fail> {
    let mut width = HEADER.map(|h| h.chars().count());
    for row in table {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(width[i] - c.chars().count());
                if i < 2 {
                    format!("{c}{pad}")
                } else {
                    format!("{pad}{c}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(&HEADER.map(String::from)))?;
    let rule: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
    writeln!(out, "{}", rule.join("  "))?;
    for row in table {
        writeln!(out, "{}", line(row))?;
    }
    Ok(())
}

/// The winners among the exact searches (the fast and weighted runs answer another
/// question): the fastest, and the one that expanded fewest.
fn print_winners(out: &mut impl Write, runs: &[Run]) -> Result<(), Fail> {
    let done: Vec<(&Run, &npuzzle::Solution)> = runs
        .iter()
        .filter(|r| r.exact)
        .filter_map(|r| r.result.as_ref().ok().map(|s| (r, s)))
        .collect();
    let name = |r: &Run| match &r.heuristic {
        Some(h) => format!("{} with {h}", r.algorithm),
        None => r.algorithm.to_string(),
    };
    if let Some((fast, _)) = done.iter().min_by_key(|(_, s)| s.stats.elapsed) {
        writeln!(out)?;
        writeln!(out, "fastest: {}", name(fast))?;
    }
    if let Some((few, _)) = done.iter().min_by_key(|(_, s)| s.stats.expanded) {
        writeln!(out, "fewest expanded: {}", name(few))?;
    }
    Ok(())
}
