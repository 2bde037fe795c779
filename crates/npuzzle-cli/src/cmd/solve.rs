//! `npuzzle solve`: optimal solutions for boards from the arguments or standard input.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use clap::Args as ClapArgs;
use npuzzle::report::Report;
use npuzzle::search::PdbHeuristic;
use npuzzle::sequence::Metric;
use npuzzle::{Algorithm, Board, DistanceTable, HeuristicKind, Notation, SearchError, Solver};
use serde_json::json;

use crate::input::{items_from, parse_item, Item, Items};
use crate::opts::{BoardOpts, LimitOpts};
use crate::progress::ProgressLine;
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
    /// Search algorithm: auto, bfs, bibfs, astar, iddfs, idastar, table, or fast (any
    /// size at once, not proven optimal).
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
    /// Weighted IDA* (with --algo idastar or auto, without pattern databases): a solution
    /// sooner, at most W times the shortest (W from 1 to 100).
    #[arg(long, value_name = "W", value_parser = parse_weight)]
    pub weight: Option<f64>,
    /// Only proven-optimal answers: with auto, an exact search that does not finish in
    /// time is an error (exit 3) instead of the fast solver's answer with its lower bound;
    /// boards of more than 16 cells get no default time limit, and 26 cells or more are
    /// searched by IDA* instead of the fast solver.
    #[arg(long)]
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

/// Seconds `auto` may spend building pattern databases it was not asked for.
pub(crate) const AUTO_BUILD_SECONDS: f64 = 60.0;

/// The exact search's time when `auto` was not given one on a board of more than 16
/// cells (without --optimal): after it the fast solver answers, with the bound proven.
const AUTO_EXACT_SECONDS: u64 = 10;

/// The limits of one board's search: what is left of its time limit after building
/// databases; with auto on more than 16 cells and no limit given (and no --optimal),
/// [`AUTO_EXACT_SECONDS`].
fn exact_limits(
    args: &Args,
    limits: &npuzzle::Limits,
    cells: usize,
    started: std::time::Instant,
) -> npuzzle::Limits {
    let mut l = limits.clone();
    match l.time_limit {
        Some(t) => l.time_limit = Some(t.saturating_sub(started.elapsed())),
        None if args.algo == Algorithm::Auto && !args.optimal && cells > 16 => {
            l.time_limit = Some(std::time::Duration::from_secs(AUTO_EXACT_SECONDS))
        }
        None => {}
    }
    l
}

/// What a fast answer proves: a lower bound, and the weight it is within if any.
#[derive(Debug, Clone, Copy)]
struct Proof {
    bound: u32,
    weight: Option<f64>,
}

/// With auto (and no --optimal), an exact search that ran out of time is answered by the
/// fast solver (with `pdb`, the weighted database search) with the bound it proved (and a
/// note saying so).
fn anytime(
    args: &Args,
    board: &Board,
    goal: &Board,
    result: Result<npuzzle::Solution, SearchError>,
    pdb: Option<&PdbHeuristic>,
    limits: &npuzzle::Limits,
    a: &mut Answer,
) -> (Result<npuzzle::Solution, SearchError>, Option<Proof>) {
    if args.algo != Algorithm::Auto || args.optimal {
        return (result, None);
    }
    let stopped = match &result {
        Err(SearchError::TimeLimit { elapsed, .. }) => Some(*elapsed),
        _ => None,
    };
    match npuzzle::search::or_fast(board, goal, result, pdb, limits) {
        Ok((ans, Some(bound))) => {
            a.notes.push(format!(
                "npuzzle: {board}: the exact search stopped after {:.1} s having proven {bound}; \
                 answered by the fast solver (--optimal: wait for a proven answer)",
                stopped.map_or(0.0, |d| d.as_secs_f64())
            ));
            let proof = Proof {
                bound: bound.max(ans.lower_bound),
                weight: ans.weight,
            };
            (Ok(ans.solution), Some(proof))
        }
        Ok((ans, None)) => (Ok(ans.solution), None),
        Err(e) => (Err(e), None),
    }
}

/// Reads a weight for weighted search: from 1 to 100.
fn parse_weight(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (1.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!("expected a weight from 1 to 100, found {s:?}")),
    }
}

/// Reads a playing speed: moves a second.
fn parse_tps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.1..=100.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected from 0.1 to 100 moves a second, found {s:?}"
        )),
    }
}

/// Plays `moves` from `board` on a terminal: the grid redrawn in place after each move.
fn play(
    out: &mut impl Write,
    board: &Board,
    moves: &[npuzzle::Direction],
    tps: f64,
) -> std::io::Result<()> {
    let pause = std::time::Duration::from_secs_f64(1.0 / tps);
    let rows = board.size().height();
    let mut b = board.clone();
    let draw = |out: &mut dyn Write, b: &Board, k: usize| -> std::io::Result<()> {
        for line in b.to_grid().lines() {
            writeln!(out, "\x1b[2K  {line}")?;
        }
        writeln!(out, "\x1b[2K  move {k} of {}", moves.len())?;
        out.flush()
    };
    draw(out, &b, 0)?;
    for (k, &d) in moves.iter().enumerate() {
        if crate::opts::interrupted() {
            break;
        }
        std::thread::sleep(pause);
        b.apply(d).expect("a solution's moves are legal");
        // Back to the top of the drawing, and over it.
        write!(out, "\x1b[{}A", rows + 1)?;
        draw(out, &b, k + 1)?;
    }
    Ok(())
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

/// A set of pattern databases and the name of its partition.
type NamedPdb = (String, Arc<PdbHeuristic>);

/// What a batch shares between its threads: the options, and what is built once per goal
/// (pattern databases, distance tables).
struct Shared<'a> {
    args: &'a Args,
    goal: Option<Board>,
    size: Option<npuzzle::Size>,
    want: Option<usize>,
    limits: npuzzle::Limits,
    heuristic: HeuristicKind,
    cache: Option<std::path::PathBuf>,
    /// Per goal: the databases and their name (None: auto found none to use).
    pdbs: Mutex<Vec<(Board, Option<NamedPdb>)>>,
    /// Per goal: the table loaded or built (None: none to be had).
    tables: Mutex<HashMap<Board, Option<DistanceTable>>>,
    /// The multi-tile tables, once looked for.
    mtm: std::sync::OnceLock<Option<Arc<npuzzle::heuristic::mtm_pdb::MtmRows>>>,
}

impl Shared<'_> {
    /// The databases for `goal`, looked for by `find` once per batch (whichever thread
    /// asks first; the others wait and share them).
    fn pdb_for(
        &self,
        goal: &Board,
        find: impl FnOnce() -> Result<Option<(String, PdbHeuristic)>, Fail>,
    ) -> Result<Option<NamedPdb>, Fail> {
        let mut pdbs = self.pdbs.lock().expect("no panics while held");
        if let Some((_, p)) = pdbs.iter().find(|(g, _)| g == goal) {
            return Ok(p.clone());
        }
        let found = find()?.map(|(n, h)| (n, Arc::new(h)));
        pdbs.push((goal.clone(), found.clone()));
        Ok(found)
    }
}

/// One thread's own state: its solver (with the tables it was given) and the goals it
/// has asked for tables.
struct Worker {
    solver: Solver,
    looked: HashSet<Board>,
}

/// One board's answer, kept until its turn to be written.
#[derive(Default)]
struct Answer {
    out: Vec<u8>,
    notes: Vec<String>,
    code: u8,
    /// A solution to play (with --animate).
    play: Option<(Board, Vec<npuzzle::Direction>)>,
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
    let want = if args.all {
        Some(usize::MAX)
    } else {
        args.first
    };
    if args.weight.is_some()
        && (want.is_some()
            || args.metric == Metric::Mtm
            || !matches!(
                args.algo,
                Algorithm::Auto | Algorithm::Idastar | Algorithm::Astar
            )
            || (args.pdb.is_some() && args.algo == Algorithm::Astar))
    {
        return Err(crate::Fail::input(
            "--weight runs weighted IDA* (--algo idastar or auto, with or without --pdb) or \
             weighted A* (--algo astar); not with --all, --first or --metric mtm",
        ));
    }
    if args.optimal && (args.weight.is_some() || args.algo == Algorithm::Fast) {
        return Err(crate::Fail::input(
            "--optimal asks for proven-optimal answers; --weight and --algo fast give others",
        ));
    }
    if args.metric == Metric::Mtm
        && (want.is_some() || !matches!(args.algo, Algorithm::Auto | Algorithm::Idastar))
    {
        return Err(crate::Fail::input(
            "--metric mtm solves by idastar (or auto), one solution a board",
        ));
    }
    if want.is_some() && !matches!(args.algo, Algorithm::Auto | Algorithm::Idastar) {
        return Err(crate::Fail::input(
            "--all and --first enumerate solutions with --algo idastar (or auto)",
        ));
    }
    let size = args.board.size;
    let limits = args.limits.limits();
    let heuristic = args.heuristic.unwrap_or(HeuristicKind::LinearConflict);
    let shared = Shared {
        args: &args,
        goal: args.board.goal()?,
        size,
        want,
        limits: limits.clone(),
        heuristic,
        cache: tables::cache_dir(&args.cache_dir),
        pdbs: Mutex::new(Vec::new()),
        tables: Mutex::new(HashMap::new()),
        mtm: std::sync::OnceLock::new(),
    };
    let threads = npuzzle::limits::resolve_threads(args.threads);
    let workers: Vec<Mutex<Worker>> = (0..threads)
        .map(|_| {
            // --optimal: boards of 26 cells or more are searched, not answered fast.
            let mut solver = Solver::new(args.algo, heuristic, limits.clone());
            solver.set_exact(args.optimal);
            Mutex::new(Worker {
                solver,
                looked: HashSet::new(),
            })
        })
        .collect();
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
        let answers = solve_batch(&shared, &workers, &batch, threads)?;
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

/// Solves a batch on up to `threads` threads, each taking the next board as it finishes
/// one; the answers in input order (`None` for boards left after Ctrl-C). A single board
/// gets every thread for its search instead.
fn solve_batch(
    shared: &Shared,
    workers: &[Mutex<Worker>],
    batch: &[Item],
    threads: usize,
) -> Result<Vec<Option<Answer>>, Fail> {
    let (per_search, spawn) = if batch.len() == 1 {
        (threads, 1)
    } else {
        (1, threads.min(batch.len()))
    };
    let slots: Vec<Mutex<Option<Result<Answer, Fail>>>> =
        batch.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    // A batch of many boards uses tables from its first board: every thread then gives
    // a board the same answer, so the output does not depend on the thread count.
    let eager = batch.len() >= npuzzle::search::TABLE_AFTER;
    let work = |w: &Mutex<Worker>| {
        let mut worker = w.lock().expect("no panics while held");
        worker.solver.set_eager_tables(eager);
        loop {
            if crate::opts::interrupted() {
                return;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= batch.len() {
                return;
            }
            let r = solve_one(shared, &mut worker, &batch[i], per_search);
            *slots[i].lock().expect("no panics while held") = Some(r);
        }
    };
    std::thread::scope(|sc| {
        for w in &workers[1..spawn] {
            sc.spawn(|| work(w));
        }
        work(&workers[0]);
    });
    slots
        .into_iter()
        .map(|s| s.into_inner().expect("no panics while held").transpose())
        .collect()
}

/// Solves one board into its answer.
fn solve_one(
    shared: &Shared,
    worker: &mut Worker,
    item: &Item,
    per_search: usize,
) -> Result<Answer, Fail> {
    let args = shared.args;
    let mut a = Answer::default();
    let report = |a: &mut Answer, msg: &str, code: u8| -> std::io::Result<()> {
        a.notes.push(format!("npuzzle: {}: {msg}", item.label()));
        if args.json {
            let v = json!({ "line": item.line, "input": item.text, "error": msg });
            writeln!(a.out, "{v}")?;
        }
        a.code = merge(a.code, code);
        Ok(())
    };
    let board = match parse_item(item, shared.size) {
        Ok(b) => b,
        Err(e) => {
            report(&mut a, &e, BAD_INPUT)?;
            return Ok(a);
        }
    };
    let goal = match BoardOpts::goal_for(&shared.goal, &board) {
        Ok(g) => g,
        Err(e) => {
            report(&mut a, &e, BAD_INPUT)?;
            return Ok(a);
        }
    };
    // Prints a search's outcome: the solution (kept to play with --animate), an
    // unsolvable board, or the reason there is no answer.
    let answer = |a: &mut Answer,
                  result: Result<npuzzle::Solution, SearchError>,
                  algo: Algorithm,
                  name: Option<&str>,
                  proof: Option<Proof>|
     -> std::io::Result<()> {
        match result {
            Ok(sol) => {
                print_solution(&mut a.out, args, &board, &goal, &sol, algo, name, proof)?;
                if args.animate && std::io::stdout().is_terminal() {
                    a.play = Some((board.clone(), sol.moves));
                }
            }
            Err(SearchError::Unsolvable) => print_unsolvable(&mut a.out, args, &board, algo, name)?,
            Err(e) => report(a, &format!("{board}: {e}"), exit_code(&e))?,
        }
        Ok(())
    };
    // Several solutions (-n, --all): IDA* over every path within the optimum, before
    // any database or table is looked at (they find one solution).
    if let Some(max) = shared.want {
        if !npuzzle::is_solvable(&board, &goal).expect("sizes match") {
            print_unsolvable(&mut a.out, args, &board, Algorithm::Idastar, None)?;
            return Ok(a);
        }
        match npuzzle::search::idastar_all(&board, &goal, shared.heuristic, &shared.limits, max) {
            Ok((all, stats)) => print_all(
                &mut a.out,
                args,
                &board,
                &all,
                stats,
                shared.heuristic.name(),
            )?,
            Err(e) => report(&mut a, &format!("{board}: {e}"), exit_code(&e))?,
        }
        return Ok(a);
    }
    // Weighted A*, and weighted IDA* without databases (with them: below).
    let uses_pdb = args.pdb.is_some()
        || (args.algo == Algorithm::Auto
            && args.heuristic.is_none()
            && (16..npuzzle::search::FAST_FROM).contains(&board.size().cells()));
    if let Some(w) = args
        .weight
        .filter(|_| args.algo == Algorithm::Astar || !uses_pdb)
    {
        let (result, algo) = if args.algo == Algorithm::Astar {
            let r =
                npuzzle::search::astar_weighted(&board, &goal, shared.heuristic, w, &shared.limits);
            (r, Algorithm::Astar)
        } else {
            let r = npuzzle::search::idastar_weighted(
                &board,
                &goal,
                shared.heuristic,
                w,
                &shared.limits,
            );
            (r, Algorithm::Idastar)
        };
        answer(&mut a, result, algo, Some(shared.heuristic.name()), None)?;
        return Ok(a);
    }
    let out = &mut a.out;
    if args.metric == Metric::Mtm {
        // The multi-tile tables, loaded once, for 4x4 with the usual goal.
        let tables = if npuzzle::heuristic::mtm_pdb::MtmRows::serves(&goal) {
            shared
                .mtm
                .get_or_init(|| {
                    let t = crate::pdbs::load_mtm(crate::pdbs::pdb_dir(&args.pdb_dir).as_deref());
                    if t.is_none() {
                        crate::note!(
                            "npuzzle: no multi-tile tables cached: 4x4 boards are searched with \
                             the walking distance, which can take minutes; \
                             `npuzzle pdb build --size 4x4 --metric mtm` (about 2 minutes, 504 MB) \
                             makes them a second or less"
                        );
                    }
                    t.map(Arc::new)
                })
                .clone()
        } else {
            None
        };
        let name = match tables {
            Some(_) => "multi-tile tables (goal rows, columns, blocks)",
            None => "multi-tile walking distance",
        };
        let result =
            npuzzle::search::idastar_mtm_pdb(&board, &goal, tables.as_deref(), &shared.limits);
        answer(&mut a, result, Algorithm::Idastar, Some(name), None)?;
        return Ok(a);
    }
    // Pattern databases: asked for, or auto on 16 to 25 cells unless a heuristic was
    // named. A named partition is loaded or built; auto uses a cached set or one that
    // builds within a minute (and the time left), else searches without databases.
    let started = std::time::Instant::now();
    let cells = board.size().cells();
    let pdb_spec = match (&args.pdb, args.algo) {
        (Some(p), Algorithm::Auto | Algorithm::Idastar) => Some(Some(p.clone())),
        (None, Algorithm::Auto)
            if (16..npuzzle::search::FAST_FROM).contains(&cells) && args.heuristic.is_none() =>
        {
            Some(None)
        }
        _ => None,
    };
    let mut pdb = None;
    if let Some(spec) = &pdb_spec {
        // An unsolvable board needs no databases.
        if !npuzzle::is_solvable(&board, &goal).expect("sizes match") {
            print_unsolvable(out, args, &board, Algorithm::Idastar, None)?;
            return Ok(a);
        }
        // Built (or loaded) once per goal, whichever thread asks first; the build counts
        // against this board's time limit.
        pdb = shared.pdb_for(&goal, || {
            let dir = crate::pdbs::pdb_dir(&args.pdb_dir);
            match spec {
                Some(spec) => {
                    let h = crate::pdbs::heuristic(
                        &goal,
                        spec,
                        &shared.limits,
                        0,
                        dir.as_deref(),
                        args.pdb_load,
                    )?;
                    Ok(Some((spec.clone(), h)))
                }
                None => {
                    let budget = shared.limits.time_limit.map_or(AUTO_BUILD_SECONDS, |t| {
                        t.as_secs_f64().min(AUTO_BUILD_SECONDS)
                    });
                    crate::pdbs::for_auto(
                        &goal,
                        &shared.limits,
                        dir.as_deref(),
                        args.pdb_load,
                        budget,
                    )
                }
            }
        })?;
    }
    let limits = exact_limits(args, &shared.limits, cells, started);
    if let Some((spec, h)) = pdb {
        let name = format!(
            "pdb {spec}{}",
            if h.reflects() { " + reflection" } else { "" }
        );
        let result = match args.weight {
            Some(w) => {
                npuzzle::search::idastar_pdb_weighted(&board, &goal, &h, w, &limits, per_search)
            }
            None => npuzzle::search::idastar_pdb_parallel(&board, &goal, &h, &limits, per_search),
        };
        let (result, proof) = anytime(args, &board, &goal, result, Some(&h), &limits, &mut a);
        let (algo, name) = match proof {
            Some(_) => (Algorithm::Fast, None),
            None => (Algorithm::Idastar, Some(name.as_str())),
        };
        answer(&mut a, result, algo, name, proof)?;
        return Ok(a);
    }
    // The fast solver on 16 to 25 cells: the weighted database search when a set for the
    // goal is cached (nothing is built for it), else the reduction solver below.
    if args.algo == Algorithm::Fast && (16..npuzzle::search::FAST_FROM).contains(&cells) {
        let cached = shared.pdb_for(&goal, || {
            let dir = crate::pdbs::pdb_dir(&args.pdb_dir);
            crate::pdbs::for_auto(&goal, &shared.limits, dir.as_deref(), args.pdb_load, 0.0)
        })?;
        if let Some((spec, h)) = cached {
            if npuzzle::is_solvable(&board, &goal).expect("sizes match") {
                let name = format!("weighted pdb {spec}");
                match npuzzle::search::fast_pdb(&board, &goal, &h, &limits) {
                    Ok(ans) => {
                        let proof = Proof {
                            bound: ans.lower_bound,
                            weight: ans.weight,
                        };
                        let name = ans.weight.is_some().then_some(name.as_str());
                        answer(&mut a, Ok(ans.solution), Algorithm::Fast, name, Some(proof))?;
                    }
                    Err(e) => answer(&mut a, Err(e), Algorithm::Fast, None, None)?,
                }
                return Ok(a);
            }
        }
    }
    // Distance tables: a cached one for auto and table; table on more than 9 cells
    // builds one (with progress) and saves it for next time. Once per goal for the whole
    // batch; each thread takes its copy.
    let wants_table = matches!(args.algo, Algorithm::Auto | Algorithm::Table);
    if wants_table && !worker.solver.has_table(&goal) && worker.looked.insert(goal.clone()) {
        let mut tables = shared.tables.lock().expect("no panics while held");
        if !tables.contains_key(&goal) {
            let mut found = tables::load_cached(shared.cache.as_deref(), &goal);
            if found.is_none() && args.algo == Algorithm::Table && goal.size().cells() > 9 {
                match tables::build(&goal, &shared.limits, 0, 0) {
                    Ok(built) => {
                        tables::save(shared.cache.as_deref(), &built.table, false);
                        found = Some(built.table);
                    }
                    Err(e) => {
                        drop(tables);
                        report(&mut a, &format!("{board}: {e}"), exit_code(&e))?;
                        return Ok(a);
                    }
                }
            }
            tables.insert(goal.clone(), found);
        }
        if let Some(Some(t)) = tables.get(&goal) {
            worker.solver.add_table(t.clone());
        }
    }
    let solver = &mut worker.solver;
    let algo = solver.resolve(&goal);
    let heuristic = algo.uses_heuristic().then_some(shared.heuristic);
    let hname = heuristic.map(|h| h.name().to_string());
    // Within this board's limits: what a database build left of its time, or the
    // default for large boards.
    let result = solver.solve_within(&board, &goal, &limits);
    for n in solver.take_notes() {
        a.notes.push(format!("npuzzle: {n}"));
    }
    let (result, algo) = match result {
        Ok((sol, ran)) => (Ok(sol), ran),
        Err(e) => (Err(e), algo),
    };
    let (result, proof) = anytime(args, &board, &goal, result, None, &limits, &mut a);
    let (algo, hname) = if proof.is_some() {
        (Algorithm::Fast, None)
    } else {
        (algo, hname)
    };
    answer(&mut a, result, algo, hname.as_deref(), proof)?;
    Ok(a)
}

#[allow(clippy::too_many_arguments)]
fn print_solution(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    goal: &Board,
    sol: &npuzzle::Solution,
    algo: Algorithm,
    heuristic: Option<&str>,
    proof: Option<Proof>,
) -> std::io::Result<()> {
    // A fast answer carries the promise it has (none, or the weighted database search's
    // weight), not the one --weight asked of the search.
    let weight = match proof {
        Some(p) => p.weight,
        None => args.weight.filter(|_| algo != Algorithm::Fast),
    };
    let r = Report::solved(
        board,
        goal,
        sol,
        algo,
        heuristic,
        args.metric,
        weight,
        args.notation,
    )
    .with_lower_bound(proof.map_or(0, |p| p.bound));
    if args.json {
        return writeln!(out, "{}", r.to_json());
    }
    let metric = match args.metric {
        Metric::Stm => "",
        Metric::Mtm => " (mtm)",
    };
    if sol.is_empty() {
        writeln!(out, "{board}: solved already (0 moves)")?;
    } else {
        let (length, moves) = (r.length.unwrap_or(0), r.moves.as_deref().unwrap_or(""));
        writeln!(
            out,
            "{board}: {}{metric}{}: {moves}",
            crate::moves(length),
            r.proven()
        )?;
    }
    if args.stats {
        let h = heuristic.map(|h| format!(" ({h})")).unwrap_or_default();
        let st = sol.stats;
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

fn print_unsolvable(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    algo: Algorithm,
    heuristic: Option<&str>,
) -> std::io::Result<()> {
    if args.json {
        let r = Report::unsolvable(board, algo, heuristic, args.metric, args.notation);
        writeln!(out, "{}", r.to_json())
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
        "{board}: {}, {} optimal solution{}:",
        crate::moves(len),
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
