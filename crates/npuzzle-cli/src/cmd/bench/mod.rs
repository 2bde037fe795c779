//! `npuzzle bench`: solve an instance set, check every length against its known optimum,
//! and time it.

mod instances;
mod report;
mod work;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args as ClapArgs, ValueEnum};
use npuzzle::request::Core;
use npuzzle::{Board, Limits, Size};

use crate::opts::LimitOpts;
use crate::pdbs::{heuristic, pdb_dir};
use crate::{merge, Fail, BAD_INPUT, LIMIT, OK};
use instances::{Instance, Published};
use report::{Style, Tally};
use work::{Ask, Heuristics, Job};

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
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// Print one JSON object per instance, then one with the totals.
    #[arg(long)]
    pub json: bool,
    /// Where databases are kept [default: $NPUZZLE_PDB_DIR, else the cache directory].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// How database files are loaded: auto and read (into memory of the command's own, on
    /// huge pages: a second or so to load, then the fastest lookups; a benchmark keeps its
    /// files open), map (start at once; only for files nothing else writes meanwhile).
    #[arg(long, value_name = "HOW", default_value = "auto")]
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

/// Solves the instances `args` name and reports each, then the totals; the exit code
/// says the worst that happened.
pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let (mut instances, errors, random) = instances::load(&args)?;
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
    let threads = npuzzle::limits::resolve_threads(args.threads);
    let dir = pdb_dir(&args.pdb_dir)?;
    // One core for the lookups and the answers: databases are read once (the anytime
    // solver's 6x6 set too, when cached).
    let core = crate::pdbs::core(dir.as_deref(), args.pdb_load);
    // With one instance, all threads search it together (parallel IDA*); with several,
    // each thread takes whole instances, which keeps every core busy on short searches.
    // The anytime solver's figures are per board within its time: one board at a time.
    let (per_search, workers) = if instances.len() == 1 || anytime {
        (threads, 1)
    } else {
        (1, threads)
    };
    let ask = Ask {
        weight: args.weight,
        fast,
        anytime,
        beam_width: args.beam_width,
        limits: args.limits.limits(),
        threads: per_search,
    };
    let (heuristics, goals) = prepare(&args, &instances, random, &ask, &core, dir.as_deref())?;
    // Korf & Felner's set with exact search: the published node counts beside ours.
    let published = (args.set == Some(Set::Korf24) && !fast && args.weight.is_none())
        .then(|| Published::parse(instances::KORF24_PUBLISHED));
    let order = taking_order(&instances, published.as_ref(), workers);
    let style = Style {
        json: args.json,
        fast,
        weight: args.weight,
        per_search,
    };
    let mut tally = Tally::new(style, published, code);
    let job = Job::new(&instances, &goals, &heuristics, &ask, &core, order);
    let wall = Instant::now();
    solve_all(&job, workers, out, &mut tally)?;
    tally.summary(out, &instances, wall.elapsed(), threads)
}

/// The order the workers take the instances in: with several workers and published
/// node counts for every instance, the largest count first (Clausecker's small catalogue,
/// the closest to npuzzle's searches), so that the workers end together instead of one
/// finishing a long instance alone; else the file's order.
fn taking_order(
    instances: &[Instance],
    published: Option<&Published>,
    workers: usize,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..instances.len()).collect();
    if let Some(p) = published.filter(|_| workers > 1) {
        let column = p.columns.iter().position(|c| c == "small").unwrap_or(0);
        let count = |i: usize| p.nodes.get(&instances[i].id).and_then(|n| n.get(column));
        if order.iter().all(|&i| count(i).is_some()) {
            order.sort_by_key(|&i| std::cmp::Reverse(count(i)));
        }
    }
    order
}

/// Each instance's goal (an index into the goals) and each goal's databases, read or
/// built before the clock starts.
fn prepare(
    args: &Args,
    instances: &[Instance],
    random: bool,
    ask: &Ask,
    core: &Core,
    dir: Option<&Path>,
) -> Result<(Heuristics, Vec<usize>), Fail> {
    let mut heuristics: Heuristics = Vec::new();
    let mut goals = Vec::new();
    for inst in instances {
        let goal = instances::goal_of(args, &inst.board, random)?;
        if let Some(at) = heuristics.iter().position(|(g, _)| g == &goal) {
            goals.push(at);
            continue;
        }
        let h = databases(args, &goal, ask, core, dir)?;
        heuristics.push((goal, h));
        goals.push(heuristics.len() - 1);
    }
    Ok((heuristics, goals))
}

/// The databases a goal's instances are searched with.
///
/// The fast solver uses a cached set if there is one (as `solve --algo fast` does, on
/// 16 to 25 cells) and builds none. The anytime solver's sets (the 7x7 set from 5 s, the
/// 6x6 set for the last region) are read here, before the clock starts, so that the
/// figures are about searching whatever the disk; elsewhere none is read (the 7x7 set
/// is 1.8 GB).
fn databases(
    args: &Args,
    goal: &Board,
    ask: &Ask,
    core: &Core,
    dir: Option<&Path>,
) -> Result<Option<Arc<npuzzle::heuristic::pdb::PdbHeuristic>>, Fail> {
    let limits: &Limits = &ask.limits;
    if ask.anytime {
        let until = npuzzle::request::sets_limit(limits.time_limit, args.beam_width);
        for (set, read) in npuzzle::request::anytime_sets(goal.size(), until) {
            if read {
                core.pdbs_for(&set, None, limits, 0.0)
                    .map_err(crate::search_fail)?;
            }
        }
    }
    let cells = goal.size().cells();
    if !ask.fast && !ask.anytime {
        // The exact searches' duplicate-path machine, built before the clock starts.
        npuzzle::search::warm_up(goal.size());
    }
    Ok(
        if ask.fast && !(16..npuzzle::search::FAST_FROM).contains(&cells) {
            None
        } else if ask.fast {
            core.pdbs_for(goal, None, limits, 0.0)
                .map_err(crate::search_fail)?
                .map(|(_, h)| h)
        } else {
            Some(Arc::new(heuristic(
                goal,
                &args.pdb,
                limits,
                dir,
                args.pdb_load,
            )?))
        },
    )
}

/// Solves every instance on `workers` threads, this one among them; this thread also
/// reports the results: in the file's order as they complete, or, where the instances are
/// taken in another order (largest first), each as soon as it is there (those ready
/// together in the file's order), so that a long instance taken first holds back no
/// other's line.
fn solve_all(
    job: &Job,
    workers: usize,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<(), Fail> {
    let count = job.instances.len();
    std::thread::scope(|sc| -> Result<(), Fail> {
        for _ in 1..workers {
            sc.spawn(|| while job.solve_next() {});
        }
        let in_order = job.in_file_order();
        let mut printed = vec![false; count];
        let mut left = count;
        // Every instance before `first` is printed.
        let mut first = 0;
        while left > 0 {
            let mut any = false;
            for (i, done) in printed.iter_mut().enumerate().skip(first) {
                if *done {
                    continue;
                }
                let Some(result) = job.take(i) else {
                    if in_order {
                        break;
                    }
                    continue;
                };
                let goal = &job.heuristics[job.goals[i]].0;
                tally.record(out, &job.instances[i], goal, result)?;
                *done = true;
                left -= 1;
                any = true;
            }
            while first < count && printed[first] {
                first += 1;
            }
            if any {
                continue;
            }
            if crate::opts::interrupted() && (first..count).all(|i| printed[i] || !job.started(i)) {
                // The rest never started: the batch stops here.
                crate::note!("npuzzle: interrupted: {left} of {count} instances not solved");
                tally.code = merge(tally.code, LIMIT);
                break;
            }
            if !job.solve_next() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::instances::{parse_set, Published, KORF24, KORF24_PUBLISHED};
    use super::taking_order;

    /// With several workers the instances with published counts are taken largest count
    /// first (ties in the file's order); with one worker, or a count missing, in the
    /// file's order.
    #[test]
    fn instances_are_taken_largest_published_count_first() {
        let (all, errors) = parse_set(KORF24);
        assert!(errors.is_empty(), "{errors:?}");
        let p = Published::parse(KORF24_PUBLISHED);
        let small = p.columns.iter().position(|c| c == "small").unwrap();
        let some: Vec<_> = all
            .into_iter()
            .filter(|i| [1, 5, 13, 16, 22].contains(&i.id))
            .collect();
        let order = taking_order(&some, Some(&p), 2);
        let counts: Vec<u64> = order.iter().map(|&i| p.nodes[&some[i].id][small]).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..some.len()).collect::<Vec<_>>());
        assert_ne!(order, sorted, "these five are not in count order by id");
        assert_eq!(taking_order(&some, Some(&p), 1), sorted);
        assert_eq!(taking_order(&some, None, 2), sorted);
        let mut unknown = Published::parse(KORF24_PUBLISHED);
        unknown.nodes.remove(&13);
        assert_eq!(taking_order(&some, Some(&unknown), 2), sorted);
    }
}
