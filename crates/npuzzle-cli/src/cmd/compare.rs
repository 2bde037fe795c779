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
    let rows = &comparison.runs;
    let length = comparison.length;
    // Every exact algorithm that finished must agree; anything else is a bug to report.
    if let Some(a) = comparison.disagree {
        return Err(Fail {
            code: crate::INTERNAL,
            message: format!("internal error: {a} disagrees on the optimal length"),
        });
    }

    if args.json {
        let runs: Vec<_> = rows
            .iter()
            .map(|r| match &r.result {
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
            })
            .collect();
        let est: serde_json::Map<String, serde_json::Value> = estimates
            .iter()
            .map(|(h, v)| (h.name().to_string(), json!(v)))
            .collect();
        let v = json!({
            "board": board.to_string(),
            "goal": goal.to_string(),
            "solvable": solvable,
            "length": length,
            "estimates": est,
            "runs": runs,
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
    match length {
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
    let header = [
        "algorithm",
        "heuristic",
        "length",
        "expanded",
        "generated",
        "peak states",
        "time",
    ];
    let mut table: Vec<[String; 7]> = Vec::new();
    let mut notes = Vec::new();
    for r in rows {
        let h = r.heuristic.clone().unwrap_or_else(|| "-".to_string());
        match &r.result {
            Ok(s) => table.push([
                r.algorithm.name().to_string(),
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
                    SearchError::Unsupported { reason, .. } if reason.starts_with("left out") => {
                        "left out"
                    }
                    _ => "not applicable",
                };
                table.push([
                    r.algorithm.name().to_string(),
                    h,
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    short.into(),
                ]);
                // One note for every search left out, not one each.
                let note = match e {
                    SearchError::Unsupported { reason, .. } if reason.starts_with("left out") => {
                        reason.clone()
                    }
                    e => format!("{}: {}", r.algorithm, crate::search_words(e)),
                };
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
    }
    let mut width = header.map(|h| h.chars().count());
    for row in &table {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = width[i] - c.chars().count();
                if i < 2 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(&header.map(String::from)))?;
    writeln!(
        out,
        "{}",
        width
            .iter()
            .map(|&w| "-".repeat(w))
            .collect::<Vec<_>>()
            .join("  ")
    )?;
    for row in &table {
        writeln!(out, "{}", line(row))?;
    }
    if crate::opts::interrupted() {
        // Runs cut short prove nothing about which is faster.
        writeln!(out)?;
        writeln!(out, "interrupted: no winner declared")?;
        return Ok(crate::LIMIT);
    }
    // Winners among the exact searches (the fast and weighted runs answer another question).
    let done: Vec<&Run> = rows
        .iter()
        .filter(|r| r.exact && r.result.is_ok())
        .collect();
    let name = |r: &Run| match &r.heuristic {
        Some(h) => format!("{} with {h}", r.algorithm),
        None => r.algorithm.to_string(),
    };
    if let Some(fast) = done
        .iter()
        .min_by_key(|r| r.result.as_ref().unwrap().stats.elapsed)
    {
        writeln!(out)?;
        writeln!(out, "fastest: {}", name(fast))?;
    }
    if let Some(few) = done
        .iter()
        .min_by_key(|r| r.result.as_ref().unwrap().stats.expanded)
    {
        writeln!(out, "fewest expanded: {}", name(few))?;
    }
    for n in notes {
        writeln!(out, "note: {n}")?;
    }
    Ok(OK)
}
