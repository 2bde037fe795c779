//! `npuzzle solve`: optimal solutions for boards from the arguments or standard input.

use std::io::IsTerminal;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use clap::Args as ClapArgs;
use npuzzle::heuristic::pdb::Load;
use npuzzle::report::Report;
use npuzzle::request::{Core, Request, Sources};
use npuzzle::sequence::Metric;
use npuzzle::{Algorithm, Board, HeuristicKind, Notation, SearchError};
use serde_json::json;

use crate::input::{items_from, parse_item, Item, Items};
use crate::opts::{BoardOpts, LimitOpts};
use crate::progress::ProgressLine;
use crate::tables;
use crate::{merge, Fail, BAD_INPUT, LIMIT, OK};

mod batch;
mod print;

use batch::*;
use print::*;

/// Solve boards: proven optimal where the search finishes (--optimal for nothing else).
///
/// Boards come from the arguments, or from standard input: one per line, or grid lines
/// joined until a board is complete; blank lines and '#' comments are skipped. A bad line
/// is reported on standard error with its number and the rest are still solved.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle solve \"8 1 3/4 0 2/7 6 5\"\n  npuzzle solve --algo astar --heuristic manhattan --stats 813402765\n  npuzzle solve --json < boards.txt\n  npuzzle scramble --size 7x7 | npuzzle solve --time-limit 10"
)]
pub struct Args {
    /// Boards to solve; read from standard input when none are given.
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
    #[command(flatten)]
    pub board: BoardOpts,
    /// Search algorithm: auto, bfs, bibfs, astar, iddfs, idastar, table, or fast (any
    /// size at once, not proven optimal). On 26 cells or more auto is the anytime
    /// solver: the shortest answer it finds within --time-limit (1 s without one).
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
    /// Weighted search (IDA* with --algo idastar or auto, with or without pattern
    /// databases; A* with --algo astar): a solution sooner, at most W times the shortest
    /// (W from 1 to 100).
    #[arg(long, value_name = "W", value_parser = crate::opts::parse_weight)]
    pub weight: Option<f64>,
    /// The anytime solver's beams at this one width (1 to 1048576) instead of widths
    /// fitted to --time-limit: boards of 26 cells or more with auto; without
    /// --time-limit the run ends when its beams do, and the same board always gets the
    /// same answer, whatever the machine's speed.
    #[arg(long, value_name = "W", value_parser = crate::opts::parse_beam_width)]
    pub beam_width: Option<usize>,
    /// Only proven-optimal answers: with auto, an exact search that does not finish in
    /// time is an error (exit 3) instead of the fast solver's answer with its lower bound;
    /// boards of more than 16 cells get no default time limit, and 26 cells or more are
    /// searched by IDA* instead of the anytime solver. (`--exact`: the same, by the name
    /// the library, the server and Python give it.)
    #[arg(long, visible_alias = "exact")]
    pub optimal: bool,
    /// Count moves as single tiles (stm) or as rows and columns slid at once (mtm:
    /// optimal by IDA* with the multi-tile walking distance, boards up to 4x4).
    #[arg(long, default_value = "stm", value_parser = |s: &str| s.parse::<Metric>())]
    pub metric: Metric,
    /// Play each solution in the terminal, redrawing the board in place (on a terminal;
    /// elsewhere the answer is printed as usual).
    #[arg(long, conflicts_with = "json")]
    pub animate: bool,
    /// Moves a second for --animate.
    #[arg(long, default_value_t = 4.0, value_parser = parse_tps, requires = "animate")]
    pub tps: f64,
    /// IDA* with additive pattern databases: 7-8, 6-6-3, 5-5-5 (4x4), 6-6-6-6 or the
    /// catalogue 6-6-6-6x4 (5x5), auto, or tile lists "1,2,3/4,5,6"; up to sixteen partitions
    /// joined by "+" (the largest estimate wins). Used by auto on boards of 16 cells or more.
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Threads for pattern-database IDA* [default: all cores].
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// Where pattern databases are kept [default: $NPUZZLE_PDB_DIR, else the cache directory].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<std::path::PathBuf>,
    /// How database files are loaded: map (start at once; only for files nothing else
    /// writes meanwhile), read (into memory of the command's own, on huge pages: lookups
    /// about 15% faster, about 1 s to load the 24-puzzle's), auto (one board on the
    /// command line: map up to 16 cells and past 36, read from 17 to 36; a batch: read).
    #[arg(long, value_name = "HOW", default_value = "auto")]
    pub pdb_load: npuzzle::heuristic::pdb::Load,
    /// Where distance tables are kept [default: $NPUZZLE_CACHE_DIR, else $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub limits: LimitOpts,
}

/// Reads a playing speed: moves a second.
fn parse_tps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.1..=100.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected from 0.1 to 100 moves a second, found {}",
            crate::opts::quote_short(s)
        )),
    }
}

/// Reads a count of solutions (the library checks its range, as for every face).
fn parse_count(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        // A number too large for a count is still out of range, not "all" (--all is).
        return Ok(t.parse::<usize>().unwrap_or(usize::MAX - 1));
    }
    Err(format!(
        "expected a number of solutions, found {}",
        crate::opts::quote_short(s)
    ))
}

/// What a run shares between its threads: the options, the request they make, and the
/// solving core (with the databases and tables it has loaded or built).
struct Shared<'a> {
    args: &'a Args,
    goal: Option<Board>,
    size: Option<npuzzle::Size>,
    request: Request,
    core: Core,
}

/// A reader that counts the bytes taken from it (for progress).
struct Counted<R> {
    inner: R,
    read: Arc<std::sync::atomic::AtomicU64>,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: std::io::BufRead> std::io::BufRead for Counted<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.read.fetch_add(amt as u64, Ordering::Relaxed);
        self.inner.consume(amt);
    }
}

/// Boards solved per batch at most: the memory a run holds does not grow with its input.
const MAX_BATCH: usize = 4096;

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let solutions = if args.all {
        Some(usize::MAX)
    } else {
        args.first
    };
    let goal = args.board.goal()?;
    let request = Request {
        goal: goal.clone(),
        algorithm: args.algo,
        heuristic: args.heuristic,
        pdb: args.pdb.clone(),
        pdbs: None,
        weight: args.weight,
        metric: args.metric,
        solutions,
        exact: args.optimal,
        notation: args.notation,
        limits: args.limits.limits(),
        threads: args.threads,
        beam_width: args.beam_width,
    };
    request.check().map_err(crate::search_fail)?;
    let size = args.board.size;
    let sources = Sources {
        pdb_dir: crate::pdbs::pdb_dir(&args.pdb_dir)?,
        table_dir: tables::cache_dir(&args.cache_dir),
        // One answer and the command ends: mapping where loading would dominate is safe
        // enough; a batch (boards on standard input) keeps its files for longer, and a
        // file cut short under a mapping would end it (see `Load`).
        load: match args.pdb_load {
            Load::Auto if args.boards.len() == 1 => Load::Once,
            how => how,
        },
        listener: Some(crate::pdbs::listener()),
        ..Sources::user_cache()
    };
    let shared = Shared {
        args: &args,
        goal,
        size,
        request,
        core: Core::new(sources),
    };
    let threads = npuzzle::limits::resolve_threads(args.threads);
    // Boards are read as they are needed: the first answers come out before the input
    // ends, and a batch holds at most MAX_BATCH boards.
    // Progress, on a terminal only: the share of standard input read when it is a file
    // (with the time left), else the count and rate.
    let read = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let input_len = std::fs::metadata("/dev/stdin")
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut progress = Some(ProgressLine::new("solving")).filter(|p| p.is_terminal());
    let started = std::time::Instant::now();
    let mut source: Box<dyn Iterator<Item = std::io::Result<Item>>> = if args.boards.is_empty() {
        let counted = Counted {
            inner: std::io::stdin().lock(),
            read: read.clone(),
        };
        Box::new(Items::new(counted, size))
    } else {
        Box::new(items_from(&args.boards, size)?.into_iter().map(Ok))
    };
    let mut code = OK;
    let mut seen = 0usize;
    let mut batch_len = 1;
    loop {
        let batch: Vec<Item> = source
            .by_ref()
            .take(batch_len)
            .collect::<std::io::Result<_>>()?;
        if batch.is_empty() {
            break;
        }
        seen += batch.len();
        let answers = solve_batch(&shared, &batch, threads)?;
        let mut stopped = false;
        for a in answers {
            let Some(a) = a else {
                stopped = true;
                break;
            };
            for n in &a.notes {
                crate::note!("{n}");
            }
            out.write_all(&a.out)?;
            code = merge(code, a.code);
            if let Some((board, moves)) = &a.play {
                play(out, board, moves, args.tps)?;
            }
        }
        out.flush()?;
        if let Some(p) = progress
            .as_mut()
            .filter(|_| started.elapsed().as_secs() >= 1)
        {
            let boards = format!("{} boards", crate::opts::thousands(seen as u64));
            match input_len {
                Some(total) => p.update(
                    read.load(Ordering::Relaxed),
                    total,
                    started.elapsed(),
                    &boards,
                ),
                None => p.count(seen as u64, "boards", started.elapsed()),
            }
        }
        if stopped || crate::opts::interrupted() {
            crate::note!("npuzzle: interrupted; the boards after the last answer are not solved");
            code = merge(code, LIMIT);
            break;
        }
        batch_len = (batch_len * 2).min(MAX_BATCH);
    }
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    if seen == 0 {
        return Err(Fail::input(
            "expected a board on the command line or standard input, found none",
        ));
    }
    Ok(code)
}
