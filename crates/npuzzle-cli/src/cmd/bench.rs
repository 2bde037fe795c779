//! `npuzzle bench`: solve an instance set, check every length against its known optimum,
//! and time it.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Args as ClapArgs, ValueEnum};
use npuzzle::request::{Core, Request};
use npuzzle::{Algorithm, Board, SearchError, Size};
use serde_json::json;

use crate::opts::LimitOpts;
use crate::pdbs::{heuristic, pdb_dir};
use crate::{merge, Fail, BAD_INPUT, LIMIT, MISMATCH, OK};

/// Instance sets shipped with npuzzle (testdata/).
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Set {
    /// Korf (1985): 100 random 15-puzzle instances, optimal lengths summing to 5305.
    Korf100,
    /// Korf & Felner (2002): 50 random 24-puzzle instances.
    Korf24,
    /// Uniform random boards (--size, --count, --seed), measured against their
    /// Manhattan distance (a lower bound).
    Random,
}

/// How each instance is solved.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// IDA* with pattern databases (weighted with --weight).
    Pdb,
    /// The fast solver: any size at once, not proven optimal.
    Fast,
    /// The anytime solver (`solve`'s auto past 25 cells): the shortest answer it finds
    /// within --time-limit (1 s without one), not proven optimal; each instance gets
    /// every thread.
    Anytime,
}

const KORF100: &str = include_str!("../../../../testdata/korf100.txt");
const KORF24: &str = include_str!("../../../../testdata/korf24_50.txt");
const KORF24_PUBLISHED: &str = include_str!("../../../../testdata/korf24_published_nodes.txt");

/// The published node counts for Korf & Felner's 24-puzzle instances (sources in the
/// file's header): the column names, and per instance id its counts in that order.
struct Published {
    columns: Vec<String>,
    nodes: std::collections::HashMap<u32, Vec<u64>>,
}

impl Published {
    fn parse(text: &str) -> Published {
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

/// Solve a set of instances with IDA* and pattern databases, checking each length
/// against the optimum given in the file.
///
/// Each line of FILE is `id t0 t1 ... optimal`, the cells row by row (0 the blank);
/// `#` starts a comment. The goal is Korf's, 0 1 2 ... (blank first), unless --goal says
/// otherwise. Missing databases are built first (with progress) and saved.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle bench --set korf100\n  npuzzle bench --set korf100 --threads 1 --json\n  npuzzle bench --set korf24 --ids 1,2,3\n  npuzzle bench --set korf24 --algo fast\n  npuzzle bench --set korf24 --weight 1.2 --time-limit 60\n  npuzzle bench --set random --size 10x10 --count 100 --seed 7 --algo fast\n  npuzzle bench --set random --size 6x6 --count 20 --algo anytime --time-limit 10"
)]
pub struct Args {
    /// An instance file; or use --set.
    #[arg(value_name = "FILE", required_unless_present = "set")]
    pub file: Option<PathBuf>,
    /// A set shipped with npuzzle.
    #[arg(long, value_enum, conflicts_with = "file")]
    pub set: Option<Set>,
    /// How to solve: pdb (IDA* with pattern databases, proven optimal; weighted with
    /// --weight), fast (any size at once, not proven optimal) or anytime (any size, the
    /// best answer within --time-limit).
    #[arg(long, value_enum, default_value = "pdb")]
    pub algo: Method,
    /// Weighted database IDA*: each solution at most W times the optimum (checked where
    /// the file gives it), W from 1 to 100.
    #[arg(long, value_name = "W", value_parser = crate::opts::parse_weight, conflicts_with = "algo")]
    pub weight: Option<f64>,
    /// With --algo anytime: its beams at this one width (1 to 1048576) instead of widths
    /// fitted to --time-limit (none: no clock), so that the lengths do not depend on the
    /// machine's speed; the databases are those of ample time.
    #[arg(long, value_name = "W", value_parser = crate::opts::parse_beam_width)]
    pub beam_width: Option<usize>,
    /// Board size for --set random.
    #[arg(long, value_name = "WxH", value_parser = crate::opts::parse_size)]
    pub size: Option<Size>,
    /// How many boards --set random draws (1 to 1,000,000).
    #[arg(long, default_value_t = 100, value_parser = parse_count)]
    pub count: usize,
    /// The seed of --set random (as `npuzzle scramble --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these instance ids (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ids: Vec<u32>,
    /// The goal [default: 0 1 2 ... with the blank first, as in Korf's files].
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Pattern database partition (see `npuzzle pdb build --help`).
    #[arg(long, default_value = "auto")]
    pub pdb: String,
    /// Search threads per instance [default: all cores].
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object per instance, then one with the totals.
    #[arg(long)]
    pub json: bool,
    /// Where databases are kept [default: $NPUZZLE_PDB_DIR, else the cache directory].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// How database files are loaded: read (into huge pages: a second or so to load, then
    /// the fastest lookups, and two threads get in each other's way least), map (start at
    /// once), auto (map up to 4x4, read beyond).
    #[arg(long, value_name = "HOW", default_value = "read")]
    pub pdb_load: npuzzle::heuristic::pdb::Load,
    #[command(flatten)]
    pub limits: LimitOpts,
}

/// Reads a count of random boards: from 1 to 1,000,000.
fn parse_count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a count from 1 to 1,000,000, found {}",
            crate::opts::quote_short(s)
        )),
    }
}

struct Instance {
    line: usize,
    id: u32,
    board: Board,
    optimal: Option<u32>,
}

fn parse_set(text: &str) -> (Vec<Instance>, Vec<String>) {
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

fn korf_goal(size: Size) -> Board {
    Board::from_cells(size, size.identity_cells()).expect("a permutation")
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
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
    let (mut instances, errors) = if let Some(size) = args.size.filter(|_| random) {
        let goal = match &args.goal {
            Some(g) => {
                Board::parse(g, Some(size)).map_err(|e| Fail::input(format!("--goal: {e}")))?
            }
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
        (boards, Vec::new())
    } else {
        parse_set(&text)
    };
    let anytime = args.algo == Method::Anytime;
    let fast = args.algo == Method::Fast || anytime;
    if args.beam_width.is_some() && !anytime {
        return Err(Fail::input(
            "--beam-width sets the anytime solver's beams: expected --algo anytime",
        ));
    }
    if !fast
        && instances
            .iter()
            .any(|i| i.board.size().cells() >= npuzzle::search::FAST_FROM)
    {
        return Err(Fail::input(
            "no exact search finishes on random boards of 26 cells or more; try --algo fast \
             or --algo anytime",
        ));
    }
    let mut code = OK;
    for e in &errors {
        crate::note!("npuzzle: {e}");
        code = BAD_INPUT;
    }
    if !args.ids.is_empty() {
        instances.retain(|i| args.ids.contains(&i.id));
    }
    if instances.is_empty() {
        return Err(Fail::input("expected instances, found none"));
    }
    let limits = args.limits.limits();
    let threads = npuzzle::limits::resolve_threads(args.threads);
    let dir = pdb_dir(&args.pdb_dir)?;
    // One core for the lookups and the answers: databases are read once (the anytime
    // solver's 6x6 set too, when cached).
    let core = crate::pdbs::core(dir.as_deref(), args.pdb_load);
    let mut heuristics: Heuristics = Vec::new();
    let mut goals = Vec::new();
    for inst in &instances {
        let goal = match &args.goal {
            Some(g) => Board::parse(g, Some(inst.board.size()))
                .map_err(|e| Fail::input(format!("--goal: {e}")))?,
            None if random => Board::solved(inst.board.size()),
            None => korf_goal(inst.board.size()),
        };
        if !heuristics.iter().any(|(g, _)| g == &goal) {
            // The fast solver uses a cached set if there is one (as `solve --algo fast`
            // does, on 16 to 25 cells) and builds none. The anytime solver's sets (the 7x7
            // set from 5 s, the 6x6 set for the last region) are read here, before the clock
            // starts, so that the figures are about searching whatever the disk; elsewhere
            // none is read (the 7x7 set is 1.8 GB).
            if anytime {
                let until = npuzzle::request::sets_limit(limits.time_limit, args.beam_width);
                for (set, read) in npuzzle::request::anytime_sets(goal.size(), until) {
                    if read {
                        core.pdbs_for(&set, None, &limits, 0.0)
                            .map_err(crate::search_fail)?;
                    }
                }
            }
            let h = if fast && !(16..npuzzle::search::FAST_FROM).contains(&goal.size().cells()) {
                None
            } else if fast {
                core.pdbs_for(&goal, None, &limits, 0.0)
                    .map_err(crate::search_fail)?
                    .map(|(_, h)| h)
            } else {
                Some(Arc::new(heuristic(
                    &goal,
                    &args.pdb,
                    &limits,
                    dir.as_deref(),
                    args.pdb_load,
                )?))
            };
            heuristics.push((goal.clone(), h));
        }
        goals.push(
            heuristics
                .iter()
                .position(|(g, _)| g == &goal)
                .expect("added"),
        );
    }
    // With one instance, all threads search it together (parallel IDA*); with several,
    // each thread takes whole instances, which keeps every core busy on short searches.
    // The anytime solver's figures are per board within its time: one board at a time.
    let (per_search, workers) = if instances.len() == 1 || anytime {
        (threads, 1)
    } else {
        (1, threads)
    };
    let results: Vec<Mutex<Option<Result<npuzzle::Solution, SearchError>>>> =
        instances.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let (mut total_nodes, mut total_time, mut total_len, mut solved) =
        (0u64, Duration::ZERO, 0u64, 0usize);
    let (mut total_ref, mut max_time) = (0u64, Duration::ZERO);
    let mut ratios: Vec<f64> = Vec::new();
    // Korf & Felner's set with exact search: the published node counts beside ours.
    let published = (args.set == Some(Set::Korf24) && !fast && args.weight.is_none())
        .then(|| Published::parse(KORF24_PUBLISHED));
    let mut published_total = vec![0u64; published.as_ref().map_or(0, |p| p.columns.len())];
    let (mut generated_published, mut expanded_published) = (0u64, 0u64);
    let wall = Instant::now();
    // Takes the next unsolved instance and solves it; false when none is left.
    let work = || {
        solve_one(
            &instances,
            &goals,
            &heuristics,
            &limits,
            per_search,
            args.weight,
            fast,
            anytime,
            args.beam_width,
            &next,
            &results,
            &core,
        )
    };
    std::thread::scope(|sc| -> Result<(), Fail> {
        for _ in 1..workers {
            sc.spawn(|| while work() {});
        }
        // This thread solves too, and prints the results in order as they complete.
        let mut printed = 0;
        while printed < instances.len() {
            let ready = results[printed]
                .lock()
                .expect("no panics while held")
                .take();
            let Some(result) = ready else {
                if crate::opts::interrupted() && printed >= next.load(Ordering::Relaxed) {
                    // Never started: the batch stops here.
                    crate::note!(
                        "npuzzle: interrupted: {} of {} instances not solved",
                        instances.len() - printed,
                        instances.len()
                    );
                    code = merge(code, LIMIT);
                    break;
                }
                if !work() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                continue;
            };
            let inst = &instances[printed];
            let goal = &heuristics[goals[printed]].0;
            printed += 1;
            match result {
                Ok(s) => {
                    let len = s.len() as u32;
                    let mut end = inst.board.clone();
                    let valid = end.apply_all(&s.moves).is_ok() && &end == goal;
                    // Exact: the file's optimum; weighted: within W x it; fast: not
                    // below it. Every answer must reach the goal.
                    let ok = valid
                        && inst.optimal.is_none_or(|o| match (fast, args.weight) {
                            (true, _) => len >= o,
                            (false, Some(w)) => len >= o && len as f64 <= w * o as f64 + 1e-9,
                            (false, None) => len == o,
                        });
                    // The length is measured against the optimum where the file gives
                    // it, else against the Manhattan distance (a lower bound).
                    let (reference, kind) = match inst.optimal {
                        Some(o) => (o, "optimal"),
                        None => (
                            npuzzle::HeuristicKind::Manhattan
                                .estimate(&inst.board, goal)
                                .unwrap_or(0),
                            "manhattan",
                        ),
                    };
                    let ratio = ratio(len as u64, reference as u64);
                    ratios.push(ratio);
                    if !ok {
                        code = merge(code, MISMATCH);
                        crate::note!(
                            "npuzzle: instance {} (line {}): {}",
                            inst.id,
                            inst.line,
                            if valid {
                                format!("found {len} moves, the file says {reference}")
                            } else {
                                "the moves do not reach the goal".to_string()
                            }
                        );
                    }
                    total_nodes += s.stats.expanded;
                    total_time += s.stats.elapsed;
                    total_len += len as u64;
                    total_ref += reference as u64;
                    max_time = max_time.max(s.stats.elapsed);
                    // Moves that miss the goal solve nothing (they are counted as wrong).
                    solved += usize::from(valid);
                    // The published counts for this instance, next to ours.
                    let theirs = published.as_ref().and_then(|p| p.nodes.get(&inst.id));
                    if let Some(t) = theirs {
                        for (k, &n) in t.iter().enumerate() {
                            published_total[k] += n;
                        }
                        generated_published += s.stats.generated;
                        expanded_published += s.stats.expanded;
                    }
                    if args.json {
                        let mut v = json!({
                            "id": inst.id, "length": len, "optimal": inst.optimal,
                            "manhattan": inst.optimal.is_none().then_some(reference),
                            "ratio": ratio, "ok": ok,
                            "expanded": s.stats.expanded, "generated": s.stats.generated,
                            "seconds": s.stats.elapsed.as_secs_f64(), "threads": per_search,
                        });
                        if let (Some(t), Some(p)) = (theirs, &published) {
                            v["published"] = p
                                .columns
                                .iter()
                                .zip(t)
                                .map(|(c, &n)| (c.clone(), json!(n)))
                                .collect::<serde_json::Map<_, _>>()
                                .into();
                        }
                        writeln!(out, "{v}")?;
                    } else if let (Some(t), Some(p)) = (theirs, &published) {
                        writeln!(
                            out,
                            "{:>4}  {:>4} moves  {kind} {:>4}  x{ratio:.3}{}  {:>14} expanded  {:>14} generated  {:>9.4} s",
                            inst.id,
                            len,
                            reference,
                            if ok { "  ok" } else { "  WRONG" },
                            s.stats.expanded,
                            s.stats.generated,
                            s.stats.elapsed.as_secs_f64()
                        )?;
                        writeln!(
                            out,
                            "      published: {}",
                            versus(&p.columns, t, s.stats.generated, s.stats.expanded)
                        )?;
                    } else {
                        writeln!(
                            out,
                            "{:>4}  {:>4} moves  {kind} {:>4}  x{ratio:.3}{}  {:>14} nodes  {:>9.4} s",
                            inst.id,
                            len,
                            reference,
                            if ok { "  ok" } else { "  WRONG" },
                            s.stats.expanded,
                            s.stats.elapsed.as_secs_f64()
                        )?;
                    }
                    out.flush()?;
                }
                // An instance without an answer (out of time, unsolvable) is reported on
                // its line and the rest go on; the exit code says the worst.
                Err(e) => {
                    code = merge(code, crate::search_exit_code(&e));
                    if args.json {
                        writeln!(out, "{}", json!({"id": inst.id, "error": e.to_string()}))?;
                    } else {
                        writeln!(out, "{:>4}  {e}", inst.id)?;
                    }
                    if !matches!(e, SearchError::TimeLimit { .. }) {
                        crate::note!("npuzzle: instance {} (line {}): {e}", inst.id, inst.line);
                    }
                }
            }
        }
        Ok(())
    })?;
    let wall = wall.elapsed();
    // The spread of the per-board ratios: least, tenth percentile, median, ninetieth,
    // most.
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| {
        ratios
            .get(((ratios.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let spread = [at(0.0), at(0.1), at(0.5), at(0.9), at(1.0)];
    if args.json {
        let mut v = json!({
            "instances": instances.len(), "solved": solved, "total_length": total_len,
            "total_reference": total_ref,
            "ratio": ratio(total_len, total_ref),
            "ratio_spread": {"min": spread[0], "p10": spread[1], "median": spread[2],
                             "p90": spread[3], "max": spread[4]},
            "total_expanded": total_nodes, "total_seconds": total_time.as_secs_f64(),
            "max_seconds": max_time.as_secs_f64(),
            "wall_seconds": wall.as_secs_f64(), "threads": threads,
        });
        if let Some(p) = published.as_ref().filter(|_| generated_published > 0) {
            v["total_generated_with_published"] = json!(generated_published);
            v["total_expanded_with_published"] = json!(expanded_published);
            v["published_totals"] = p
                .columns
                .iter()
                .zip(&published_total)
                .map(|(c, &n)| (c.clone(), json!(n)))
                .collect::<serde_json::Map<_, _>>()
                .into();
        }
        writeln!(out, "{v}")?;
    } else {
        let against = if instances.iter().all(|i| i.optimal.is_some()) {
            "optimal"
        } else {
            "Manhattan distances (where no optimum is given)"
        };
        writeln!(
            out,
            "total: {solved} of {} solved, {total_len} moves against {total_ref} {against} \
             (x{:.3}), {total_nodes} nodes, {:.3} s searching (at most {:.4} s an instance), \
             {:.3} s wall ({threads} thread{})",
            instances.len(),
            ratio(total_len, total_ref),
            total_time.as_secs_f64(),
            max_time.as_secs_f64(),
            wall.as_secs_f64(),
            if threads == 1 { "" } else { "s" }
        )?;
        if solved > 1 {
            writeln!(
                out,
                "ratio per instance: min x{:.3}, 10% x{:.3}, median x{:.3}, 90% x{:.3}, max x{:.3}",
                spread[0], spread[1], spread[2], spread[3], spread[4]
            )?;
        }
        if let Some(p) = published.as_ref().filter(|_| generated_published > 0) {
            writeln!(
                out,
                "published, the same instances: {} generated, {} expanded here; {}",
                generated_published,
                expanded_published,
                versus(
                    &p.columns,
                    &published_total,
                    generated_published,
                    expanded_published
                )
            )?;
        }
    }
    Ok(code)
}

/// A length over its reference (the optimum or the Manhattan distance); a board already
/// at the goal needs nothing and gets nothing: 1.
fn ratio(len: u64, reference: u64) -> f64 {
    if len == 0 && reference == 0 {
        1.0
    } else {
        len as f64 / reference.max(1) as f64
    }
}

/// Each published count and the ratios of ours to it, generated and expanded: `korf
/// 2031102635 (x1.63 gen, x0.79 exp)`. (Döbbelin et al.'s counts are expansions, as their
/// table is headed in the source of `testdata/korf24_published_nodes.txt`, and so are
/// Clausecker's, whose search counts a node once it passes the bound test; our expanded
/// count is made the same way.)
fn versus(columns: &[String], theirs: &[u64], generated: u64, expanded: u64) -> String {
    columns
        .iter()
        .zip(theirs)
        .map(|(c, &n)| {
            let n1 = n.max(1) as f64;
            format!(
                "{c} {n} (x{:.2} gen, x{:.2} exp)",
                generated as f64 / n1,
                expanded as f64 / n1
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

type Slot = Mutex<Option<Result<npuzzle::Solution, SearchError>>>;

/// Per goal: the goal and its databases (none for the fast solver).
type Heuristics = Vec<(Board, Option<Arc<npuzzle::heuristic::pdb::PdbHeuristic>>)>;

/// Takes the next unsolved instance, if any, and solves it; false when none was left.
#[allow(clippy::too_many_arguments)]
fn solve_one(
    instances: &[Instance],
    goals: &[usize],
    heuristics: &[(Board, Option<Arc<npuzzle::heuristic::pdb::PdbHeuristic>>)],
    limits: &npuzzle::Limits,
    threads: usize,
    weight: Option<f64>,
    fast: bool,
    anytime: bool,
    beam_width: Option<usize>,
    next: &AtomicUsize,
    results: &[Slot],
    core: &Core,
) -> bool {
    // After Ctrl-C no instance is started (the running ones stop with their bounds).
    if crate::opts::interrupted() {
        return false;
    }
    let i = next.fetch_add(1, Ordering::Relaxed);
    if i >= instances.len() {
        return false;
    }
    let (goal, h) = &heuristics[goals[i]];
    let board = &instances[i].board;
    // The library's core answers, as `solve` does: the fast solver (with the databases
    // when at hand), or IDA* (weighted with a weight) with the databases given.
    let request = Request {
        goal: Some(goal.clone()),
        algorithm: if anytime {
            Algorithm::Auto
        } else if fast || h.is_none() {
            Algorithm::Fast
        } else {
            Algorithm::Idastar
        },
        pdbs: h.clone().filter(|_| !anytime).map(|h| (String::new(), h)),
        weight: weight.filter(|_| !fast),
        limits: limits.clone(),
        threads,
        beam_width,
        ..Request::default()
    };
    // (An instance that cannot reach its goal is no solved instance.)
    let r = core.answer(board, &request).and_then(|a| {
        if a.report.solvable {
            Ok(npuzzle::Solution {
                moves: a.moves,
                stats: a.stats,
            })
        } else {
            Err(SearchError::Unsolvable)
        }
    });
    *results[i].lock().expect("no panics while held") = Some(r);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_counts_parse_for_every_instance() {
        let p = Published::parse(KORF24_PUBLISHED);
        assert_eq!(
            p.columns,
            ["korf", "6666", "888", "987", "996", "maxof", "improved", "small"]
        );
        let (instances, errors) = parse_set(KORF24);
        assert!(errors.is_empty(), "{errors:?}");
        for i in &instances {
            assert_eq!(
                p.nodes.get(&i.id).map(Vec::len),
                Some(8),
                "instance {}",
                i.id
            );
        }
        assert_eq!(p.nodes.len(), 50);
        // Instance 1: Korf & Felner's count, and the small catalogue's.
        assert_eq!(p.nodes[&1][0], 2_031_102_635);
        assert_eq!(p.nodes[&1][7], 117_467_064);
        assert_eq!(
            versus(
                &p.columns[..2],
                &p.nodes[&1][..2],
                2_031_102_635,
                1_059_622_872
            ),
            "korf 2031102635 (x1.00 gen, x0.52 exp), 6666 1059622872 (x1.92 gen, x1.00 exp)"
        );
    }
}
