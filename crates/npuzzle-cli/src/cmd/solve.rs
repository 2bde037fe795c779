//! `npuzzle solve`: optimal solutions for boards from the arguments or standard input.

use std::collections::HashSet;
use std::io::Write;

use clap::Args as ClapArgs;
use npuzzle::{Algorithm, Board, HeuristicKind, Notation, SearchError, Solver};
use serde_json::json;

use crate::input::{items_from, parse_item};
use crate::opts::{BoardOpts, LimitOpts};
use crate::tables;
use crate::{merge, Fail, BAD_INPUT, LIMIT, OK};

/// Solve boards optimally.
///
/// Boards come from the arguments, or from standard input: one per line, or grid lines
/// joined until a board is complete; blank lines and '#' comments are skipped. A bad line
/// is reported on standard error with its number and the rest are still solved.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle solve \"8 1 3/4 0 2/7 6 5\"\n  npuzzle solve --algo astar --heuristic manhattan --stats 813402765\n  npuzzle solve --json < boards.txt"
)]
pub struct Args {
    /// Boards to solve; read from standard input when none are given.
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
    #[command(flatten)]
    pub board: BoardOpts,
    /// Search algorithm: auto, bfs, bibfs, astar, iddfs, idastar or table.
    #[arg(long, short, default_value = "auto", value_parser = |s: &str| s.parse::<Algorithm>())]
    pub algo: Algorithm,
    /// Heuristic for astar and idastar: misplaced, manhattan, linear-conflict or
    /// walking-distance [default: linear-conflict; auto uses pattern databases on 16 cells
    /// or more unless a heuristic is given].
    #[arg(long = "heuristic", short = 'H', value_parser = |s: &str| s.parse::<HeuristicKind>())]
    pub heuristic: Option<HeuristicKind>,
    /// How to write the moves: tile (U2LDR3), blank (uldr) or tiles (1 2 5 6).
    #[arg(long, default_value = "tile", value_parser = |s: &str| s.parse::<Notation>())]
    pub notation: Notation,
    /// Print every optimal solution (with idastar; auto switches to it).
    #[arg(long, conflicts_with = "first")]
    pub all: bool,
    /// Print the first N optimal solutions (with idastar).
    #[arg(short = 'n', long = "first", value_name = "N", value_parser = parse_count)]
    pub first: Option<usize>,
    /// Print search statistics (algorithm, expanded, generated, peak states, time).
    #[arg(long)]
    pub stats: bool,
    /// Print one JSON object per board per line.
    #[arg(long)]
    pub json: bool,
    /// IDA* with additive pattern databases: 7-8, 6-6-3, 5-5-5 (4x4), 6-6-6-6 (5x5), auto,
    /// or tile lists "1,2,3/4,5,6". Used by auto on boards of 16 cells or more.
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Threads for pattern-database IDA* [default: all cores].
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Where pattern databases are kept [default: $NPUZZLE_PDB_DIR, else the cache directory].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<std::path::PathBuf>,
    /// How database files are loaded: map (start at once), read (into huge pages: lookups
    /// about 15% faster, about 1 s to load the 24-puzzle's), auto (map up to 4x4, read beyond).
    #[arg(long, value_name = "HOW", default_value = "auto")]
    pub pdb_load: npuzzle::heuristic::pdb::Load,
    /// Where distance tables are kept [default: $NPUZZLE_CACHE_DIR, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub limits: LimitOpts,
}

/// Reads a count of solutions: 1 or more.
fn parse_count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("expected at least 1 solution, found 0".to_string()),
        Ok(n) => Ok(n),
        Err(_) if !s.trim().is_empty() && s.trim().chars().all(|c| c.is_ascii_digit()) => {
            Ok(usize::MAX)
        }
        Err(_) => Err(format!("expected a number of solutions, found {s:?}")),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = args.board.goal()?;
    let size = args.board.size;
    let items = items_from(&args.boards, size)?;
    if items.is_empty() {
        return Err(Fail::input(
            "expected a board on the command line or standard input, found none",
        ));
    }
    let limits = args.limits.limits();
    let heuristic_kind = args.heuristic.unwrap_or(HeuristicKind::LinearConflict);
    let mut solver = Solver::new(args.algo, heuristic_kind, limits.clone());
    let cache = tables::cache_dir(&args.cache_dir);
    let mut looked: HashSet<Board> = HashSet::new();
    let mut pdb_cache: Vec<(Board, npuzzle::search::PdbHeuristic)> = Vec::new();
    let mut code = OK;
    for (done, item) in items.iter().enumerate() {
        if crate::opts::interrupted() {
            crate::note!(
                "npuzzle: interrupted: {} of {} boards not solved",
                items.len() - done,
                items.len()
            );
            code = merge(code, LIMIT);
            break;
        }
        let report = |out: &mut dyn Write, msg: &str| -> std::io::Result<()> {
            crate::note!("npuzzle: {}: {msg}", item.label());
            if args.json {
                let v = json!({ "line": item.line, "input": item.text, "error": msg });
                writeln!(out, "{v}")?;
            }
            Ok(())
        };
        let board = match parse_item(item, size) {
            Ok(b) => b,
            Err(e) => {
                report(out, &e)?;
                code = merge(code, BAD_INPUT);
                continue;
            }
        };
        let goal = match BoardOpts::goal_for(&goal, &board) {
            Ok(g) => g,
            Err(e) => {
                report(out, &e)?;
                code = merge(code, BAD_INPUT);
                continue;
            }
        };
        let want = if args.all {
            Some(usize::MAX)
        } else {
            args.first
        };
        if want.is_some() && !matches!(args.algo, Algorithm::Auto | Algorithm::Idastar) {
            return Err(crate::Fail::input(
                "--all and --first enumerate solutions with --algo idastar (or auto)",
            ));
        }
        // Pattern databases: asked for, or auto on 16 cells or more unless a heuristic
        // was named.
        let pdb_spec = match (&args.pdb, args.algo) {
            (Some(p), Algorithm::Auto | Algorithm::Idastar) => Some(p.clone()),
            (None, Algorithm::Auto) if board.size().cells() >= 16 && args.heuristic.is_none() => {
                Some("auto".to_string())
            }
            _ => None,
        };
        if let Some(spec) = pdb_spec {
            // An unsolvable board needs no databases.
            if !npuzzle::is_solvable(&board, &goal).expect("sizes match") {
                print_unsolvable(out, &args, &board, Algorithm::Idastar, None)?;
                continue;
            }
            if !pdb_cache.iter().any(|(g, _)| g == &goal) {
                let h = crate::pdbs::heuristic(
                    &goal,
                    &spec,
                    &limits,
                    0,
                    crate::pdbs::pdb_dir(&args.pdb_dir).as_deref(),
                    args.pdb_load,
                )?;
                pdb_cache.push((goal.clone(), h));
            }
            let h = &pdb_cache.iter().find(|(g, _)| g == &goal).expect("added").1;
            let threads = match args.threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                t => t,
            };
            let name = format!(
                "pdb {spec}{}",
                if h.reflects() { " + reflection" } else { "" }
            );
            match npuzzle::search::idastar_pdb_parallel(&board, &goal, h, &limits, threads) {
                Ok(sol) => {
                    print_solution(out, &args, &board, &sol, Algorithm::Idastar, Some(&name))?
                }
                Err(SearchError::Unsolvable) => {
                    print_unsolvable(out, &args, &board, Algorithm::Idastar, Some(&name))?
                }
                Err(e) => {
                    report(out, &format!("{board}: {e}"))?;
                    code = merge(code, exit_code(&e));
                }
            }
            continue;
        }
        // Distance tables: a cached one for auto and table; table on more than 9 cells
        // builds one (with progress) and saves it for next time.
        let wants_table = matches!(args.algo, Algorithm::Auto | Algorithm::Table);
        if wants_table && !solver.has_table(&goal) && looked.insert(goal.clone()) {
            if let Some(t) = tables::load_cached(cache.as_deref(), &goal) {
                solver.add_table(t);
            } else if args.algo == Algorithm::Table && goal.size().cells() > 9 {
                match tables::build(&goal, &limits, 0, 0) {
                    Ok(a) => {
                        tables::save(cache.as_deref(), &a.table, false);
                        solver.add_table(a.table);
                    }
                    Err(e) => {
                        report(out, &format!("{board}: {e}"))?;
                        code = merge(code, exit_code(&e));
                        continue;
                    }
                }
            }
        }
        if let Some(max) = want {
            if !npuzzle::is_solvable(&board, &goal).expect("sizes match") {
                print_unsolvable(out, &args, &board, Algorithm::Idastar, None)?;
                continue;
            }
            match npuzzle::search::idastar_all(&board, &goal, heuristic_kind, &limits, max) {
                Ok((all, stats)) => {
                    print_all(out, &args, &board, &all, stats, heuristic_kind.name())?
                }
                Err(e) => {
                    report(out, &format!("{board}: {e}"))?;
                    code = merge(code, exit_code(&e));
                }
            }
            continue;
        }
        let algo = solver.resolve(&goal);
        let heuristic = algo.uses_heuristic().then_some(heuristic_kind);
        let hname = heuristic.map(|h| h.name().to_string());
        let result = solver.solve(&board, &goal);
        for n in solver.take_notes() {
            crate::note!("npuzzle: {n}");
        }
        match result {
            Ok((sol, algo)) => print_solution(out, &args, &board, &sol, algo, hname.as_deref())?,
            Err(SearchError::Unsolvable) => {
                print_unsolvable(out, &args, &board, algo, hname.as_deref())?
            }
            Err(e) => {
                report(out, &format!("{board}: {e}"))?;
                code = merge(code, exit_code(&e));
            }
        }
    }
    Ok(code)
}

fn print_solution(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    sol: &npuzzle::Solution,
    algo: Algorithm,
    heuristic: Option<&str>,
) -> std::io::Result<()> {
    let moves = args.notation.format(board, &sol.moves);
    let st = sol.stats;
    if args.json {
        let v = json!({
            "board": board.to_string(),
            "solvable": true,
            "length": sol.len(),
            "moves": moves,
            "notation": args.notation.name(),
            "algorithm": algo.name(),
            "heuristic": heuristic,
            "expanded": st.expanded,
            "generated": st.generated,
            "peak_stored": st.peak_stored,
            "seconds": st.elapsed.as_secs_f64(),
        });
        writeln!(out, "{v}")
    } else {
        if sol.is_empty() {
            writeln!(out, "{board}: solved already (0 moves)")?;
        } else {
            writeln!(out, "{board}: {} moves: {moves}", sol.len())?;
        }
        if args.stats {
            let h = heuristic.map(|h| format!(" ({h})")).unwrap_or_default();
            writeln!(
                out,
                "  {algo}{h}: {} expanded, {} generated, {} peak states, {:.6} s",
                st.expanded,
                st.generated,
                st.peak_stored,
                st.elapsed.as_secs_f64()
            )?;
        }
        Ok(())
    }
}

fn print_unsolvable(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    algo: Algorithm,
    heuristic: Option<&str>,
) -> std::io::Result<()> {
    if args.json {
        let v = json!({
            "board": board.to_string(),
            "solvable": false,
            "length": null,
            "moves": null,
            "algorithm": algo.name(),
            "heuristic": heuristic,
            "expanded": 0,
            "generated": 0,
            "seconds": 0.0,
        });
        writeln!(out, "{v}")
    } else {
        writeln!(out, "{board}: unsolvable")
    }
}

fn print_all(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    all: &[Vec<npuzzle::Direction>],
    stats: npuzzle::Stats,
    heuristic: &str,
) -> std::io::Result<()> {
    let moves: Vec<String> = all.iter().map(|m| args.notation.format(board, m)).collect();
    let len = all.first().map_or(0, |m| m.len());
    if args.json {
        let v = json!({
            "board": board.to_string(),
            "solvable": true,
            "length": len,
            "moves": moves.first(),
            "solutions": moves,
            "count": all.len(),
            "notation": args.notation.name(),
            "algorithm": "idastar",
            "heuristic": heuristic,
            "expanded": stats.expanded,
            "generated": stats.generated,
            "seconds": stats.elapsed.as_secs_f64(),
        });
        return writeln!(out, "{v}");
    }
    writeln!(
        out,
        "{board}: {len} moves, {} optimal solution{}:",
        all.len(),
        if all.len() == 1 { "" } else { "s" }
    )?;
    for m in &moves {
        writeln!(out, "  {m}")?;
    }
    if args.stats {
        writeln!(
            out,
            "  idastar ({heuristic}): {} expanded, {} generated, {:.6} s",
            stats.expanded,
            stats.generated,
            stats.elapsed.as_secs_f64()
        )?;
    }
    Ok(())
}

/// The exit code a search error calls for: a limit reached (3), or input the search
/// cannot take (2).
fn exit_code(e: &SearchError) -> u8 {
    crate::search_exit_code(e)
}
