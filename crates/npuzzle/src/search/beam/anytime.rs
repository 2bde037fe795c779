//! The anytime solver: beams ever wider within the time, the answer polished, the bound
//! proven.

use super::keep::SLOTS_PER_POSITION;
use super::layer::*;
use super::staged::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::{PdbHeuristic, MAX_CELLS};
use crate::heuristic::HeuristicKind;
use crate::limits::{Limits, Watch};
use crate::moves::Direction;

/// What [`anytime`] answers.
#[derive(Debug, Clone)]
pub struct AnytimeAnswer {
    /// The shortest solution found.
    pub solution: crate::solution::Solution,
    /// A proven lower bound on the shortest solution's length (the linear-conflict
    /// estimate, or what the opening exact search proved).
    pub lower_bound: u32,
    /// Whether the solution is proven shortest (the opening exact search found it).
    pub proven: bool,
    /// The widest beam that ran to its end (0: none did, the answer is the fast
    /// solver's, or the exact search's).
    pub width: usize,
    /// Whether the beams' last region is ranked by pattern databases (given to
    /// [`anytime_with_databases`], and of that region's size).
    pub databases: bool,
}

/// Whether `sets` rank the last region [`staged`] leaves of a board of `size` towards
/// any goal: their goal is the usual one of a board that region's size, and
/// [`region_for`] gives the region to databases given ample time. (Whether the time
/// allows them is the caller's choice: `request::anytime_sets` hands them over.)
pub(super) fn region_fits(size: crate::board::Size, sets: &[&PdbHeuristic]) -> bool {
    sets.first().is_some_and(|h| {
        let s = h.goal().size();
        (s == size || region_for(size, None) == Some(s))
            && sets.iter().all(|h| *h.goal() == Board::solved(s))
    })
}

/// The shortest time from which databases rank the last 6x6 region of a board of at most
/// [`BIG_REGION_CELLS`] cells where that region is less than half the board (9x9, 10x10).
/// There the lines before the region are most of the work, and the slower lookups cost
/// them width: at 1 s 10x10 boards took 1.885 times the Manhattan distance with them
/// against 1.852 without; at 5 s no difference the runs' noise shows; at 10 s 30 uniform
/// random 10x10 boards take about 1% fewer moves with them (docs/algorithms.md).
pub const BIG_REGION_FROM: std::time::Duration = std::time::Duration::from_secs(10);

/// The most cells of a board whose last 6x6 region, less than half the board, databases
/// rank from [`BIG_REGION_FROM`] on.
pub const BIG_REGION_CELLS: usize = 100;

/// The size of the last region the beams of [`anytime`] leave of a board of `size`, if
/// databases of that size would rank it within `time` (`None`: no clock, as at a fixed
/// beam width), else `None`: where the region is at least half the board (6x6 to 8x8,
/// 12x6, any time), or where it is 6x6 on a board of at most [`BIG_REGION_CELLS`] cells
/// and the time at least [`BIG_REGION_FROM`].
///
/// ```
/// use npuzzle::search::region_for;
/// use std::time::Duration;
/// let six = "6x6".parse().unwrap();
/// let second = Some(Duration::from_secs(1));
/// assert_eq!(region_for("7x7".parse().unwrap(), second), Some(six));
/// assert_eq!(region_for("10x10".parse().unwrap(), second), None);
/// assert_eq!(region_for("10x10".parse().unwrap(), Some(Duration::from_secs(10))), Some(six));
/// assert_eq!(region_for("11x10".parse().unwrap(), None), None);
/// ```
pub fn region_for(
    size: crate::board::Size,
    time: Option<std::time::Duration>,
) -> Option<crate::board::Size> {
    let region = crate::board::Size::new(
        size.width().min(STAGED_LAST_SIDE),
        size.height().min(STAGED_LAST_SIDE),
    )
    .ok()?;
    let half = size.cells() <= 2 * region.cells();
    let ample = region.cells() == STAGED_LAST_SIDE * STAGED_LAST_SIDE
        && size.cells() <= BIG_REGION_CELLS
        && time.is_none_or(|t| t >= BIG_REGION_FROM);
    (half || ample).then_some(region)
}

/// The databases' estimate of `start` towards `goal` where the whole board is the region
/// they rank (the goal's blank in the bottom-right corner): the tiles renamed by their
/// goal cells. 0 otherwise.
pub(super) fn region_bound(start: &Board, goal: &Board, sets: &[&PdbHeuristic]) -> u32 {
    let n = goal.cells().len();
    if goal.blank() != n - 1 || !sets.iter().all(|h| h.goal().size() == goal.size()) {
        return 0;
    }
    let mut name = vec![0u8; n];
    for (c, &t) in goal.cells().iter().enumerate() {
        name[t as usize] = if t == 0 { 0 } else { (c + 1) as u8 };
    }
    let cells: Vec<u8> = start.cells().iter().map(|&t| name[t as usize]).collect();
    match Board::from_cells(goal.size(), cells) {
        Ok(b) => sets.iter().map(|h| h.estimate(&b)).max().unwrap_or(0),
        Err(_) => 0,
    }
}

/// The time [`anytime`] takes when the limits give none.
pub const ANYTIME_SECONDS: f64 = 1.0;

/// The window lengths [`anytime`] polishes its answer with, in turn, while time lasts.
pub(super) const POLISH_WINDOWS: [usize; 4] = [16, 24, 32, 40];

/// The share of the time left that [`anytime`]'s last, paced beam is given (the rest is
/// for polishing its answer).
pub(super) const PACED_SHARE: f64 = 0.95;

/// [`PACED_SHARE`] where one beam crosses the whole board, ranked by databases.
pub(super) const WHOLE_PACED_SHARE: f64 = 0.99;

/// The width from which a whole-board beam ranked by databases moves to its last run
/// sooner (see [`next_width`]).
pub(super) const WHOLE_SOONER_WIDTH: usize = 2048;

/// Bytes [`anytime`]'s beams and the databases ranking them may use together at most,
/// whatever the memory limit allows more (3.5 GiB: the beams get what the databases
/// leave, at least [`ANYTIME_MIN_BEAM_MEMORY`]).
pub(super) const ANYTIME_MEMORY: u64 = 7 << 29;

/// Bytes [`anytime`]'s beams may always use, however large the databases.
pub(super) const ANYTIME_MIN_BEAM_MEMORY: u64 = 1 << 30;

/// The anytime solver for big boards: the best answer it can find within the time limit
/// ([`ANYTIME_SECONDS`] without one), which only ever gets shorter as it runs.
///
/// It runs, in turn: IDA* with linear conflict for 100,000
/// nodes (boards a few dozen moves from the goal: a proven answer); the fast solver (an
/// answer at once); then beams ([`beam`]) of growing width, each capped by the best
/// answer so far, the width chosen to fill the time left; and last, every window of 16
/// moves of the best answer replaced by a shortest one ([`optimize`](super::super::optimize)).
/// Each shorter answer is told to the progress hook (`best`). Runs on `threads` threads
/// (0: every core). The clock or the cancel flag ends it with the best answer so far;
/// only a cancel before any answer is an error.
///
/// ```
/// use npuzzle::search::anytime;
/// use npuzzle::{Board, Limits};
/// use std::time::Duration;
/// let goal = Board::solved("7x7".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(9));
/// let limits = Limits { time_limit: Some(Duration::from_millis(300)), ..Limits::default() };
/// let a = anytime(&start, &goal, 1, &limits).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&a.solution.moves).unwrap();
/// assert_eq!(b, goal);
/// assert!(a.lower_bound as usize <= a.solution.len());
/// ```
pub fn anytime(
    start: &Board,
    goal: &Board,
    threads: usize,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    anytime_above(start, goal, threads, limits, 0, &[], None)
}

/// [`anytime`] with pattern databases for the last region its beams solve (6x6 on every
/// board at least 6x6; the whole board on 6x6): databases built for the usual goal of a
/// board that size (blank last), of any partition (`npuzzle pdb build --size 6x6` makes the
/// default one). Where [`region_for`] gives that region to databases given ample time (at
/// least half the board: 6x6 to 8x8, 12x6; or a board of at most [`BIG_REGION_CELLS`]
/// cells: 9x9, 10x10; `request::anytime_sets` names the sets worth the time), its beam
/// ranks positions by the larger of the databases' sum and the linear-conflict
/// estimate: shorter answers for the same time ([`AnytimeAnswer::databases`] says so);
/// other boards are solved as by [`anytime`]. Several sets (of one size) rank by the
/// largest of their estimates; the first two are used.
///
/// ```
/// use npuzzle::heuristic::pdb::{partition, PatternDb, PdbHeuristic};
/// use npuzzle::search::anytime_with_databases;
/// use npuzzle::{Board, Limits};
/// use std::time::Duration;
/// // Small groups for the example (the default 6x6 partition takes minutes to build).
/// let region = Board::solved("6x6".parse().unwrap());
/// let dbs = partition(&region, "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24/25,26,27/28,29,30/31,32,33/34,35")
///     .unwrap()
///     .iter()
///     .map(|tiles| PatternDb::build(&region, tiles, &Limits::default(), 1, &mut |_| {}).unwrap())
///     .collect();
/// let dbs = PdbHeuristic::new(&region, dbs).unwrap();
/// let goal = Board::solved("7x6".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(9));
/// let limits = Limits { time_limit: Some(Duration::from_millis(300)), ..Limits::default() };
/// let a = anytime_with_databases(&start, &goal, &[&dbs], 1, &limits).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&a.solution.moves).unwrap();
/// assert_eq!(b, goal);
/// ```
pub fn anytime_with_databases(
    start: &Board,
    goal: &Board,
    dbs: &[&PdbHeuristic],
    threads: usize,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    anytime_above(start, goal, threads, limits, 0, dbs, None)
}

/// The anytime solver's beams at one `width` (1 to [`ANYTIME_MAX_WIDTH`]) instead of
/// widths fitted to the time: the same stages and databases as
/// [`anytime_with_databases`], run once, then the same polish. Without a time limit there
/// is no clock (the run ends when its beams do), so that, unlike answers fitted to the
/// time, its answer does not depend on the machine's speed; with one, the clock still
/// ends it with the best answer so far. An error if the width does not fit the memory
/// limit.
///
/// ```
/// use npuzzle::search::beams_at_width;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("7x7".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(9));
/// let a = beams_at_width(&start, &goal, &[], 64, 1, &Limits::default()).unwrap();
/// let b = beams_at_width(&start, &goal, &[], 64, 1, &Limits::default()).unwrap();
/// assert_eq!(a.solution.moves, b.solution.moves);
/// assert_eq!(a.width, 64);
/// let mut end = start.clone();
/// end.apply_all(&a.solution.moves).unwrap();
/// assert_eq!(end, goal);
/// ```
pub fn beams_at_width(
    start: &Board,
    goal: &Board,
    dbs: &[&PdbHeuristic],
    width: usize,
    threads: usize,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    anytime_above(start, goal, threads, limits, 0, dbs, Some(width))
}

/// The time the anytime solver takes for a `time_limit`: the limit, else
/// [`ANYTIME_SECONDS`]; at a `fixed` width without a limit, none (no clock).
pub(crate) fn anytime_time(
    time_limit: Option<std::time::Duration>,
    fixed: Option<usize>,
) -> Option<std::time::Duration> {
    match (time_limit, fixed) {
        (None, Some(_)) => None,
        (t, _) => Some(t.unwrap_or(std::time::Duration::from_secs_f64(ANYTIME_SECONDS))),
    }
}

/// The anytime solver's next width after a run at `width` that would fit `fits` times in
/// the time left: eight times wider while that fits `widen_while` times (24, or 64 where
/// one beam crosses the whole board and is [`WHOLE_SOONER_WIDTH`] wide), else the last
/// run, as wide as fills nine tenths of the time left (`true`: it is the last).
pub(super) fn next_width(width: usize, fits: f64, widen_while: f64) -> (usize, bool) {
    if fits >= widen_while {
        (width * 8, false)
    } else {
        ((width as f64 * fits * 0.9) as usize, true)
    }
}

/// [`anytime`] for a board already proven to need at least `proven` moves (by an exact
/// search that ran out of time): its answer's bound and the bounds its progress reports
/// are never below that. With a `fixed` width, its beams run once at that width (see
/// [`beams_at_width`]).
pub(crate) fn anytime_above(
    start: &Board,
    goal: &Board,
    threads: usize,
    limits: &Limits,
    proven: u32,
    dbs: &[&PdbHeuristic],
    fixed: Option<usize>,
) -> Result<AnytimeAnswer, SearchError> {
    use std::time::Duration;
    if let Some(w) = fixed {
        check_beam_width(w).map_err(|e| SearchError::BadRequest {
            field: "beam_width",
            reason: e.to_string(),
        })?;
    }
    // A margin of 6% (at most 0.3 s) for what cannot stop at once: the layer or window
    // under way, the answer's assembly.
    let time = anytime_time(limits.time_limit, fixed);
    let limits = Limits {
        time_limit: time.map(|time| time - (time * 6 / 100).min(Duration::from_millis(300))),
        ..limits.clone()
    };
    let watch = Watch::new(&limits);
    // Nodes: the opening IDA*'s, then every beam's positions and children.
    let nodes = NodeCount::default();
    let databases = region_fits(start.size(), dbs);
    let answer = |moves: Vec<Direction>, lower_bound, proven, width| AnytimeAnswer {
        solution: crate::solution::Solution {
            moves,
            stats: crate::solution::Stats {
                elapsed: watch.elapsed(),
                expanded: nodes.get().0,
                generated: nodes.get().1,
                ..Default::default()
            },
        },
        lower_bound,
        proven,
        width,
        databases,
    };
    let quiet = Limits {
        progress: None,
        ..limits.clone()
    };
    let dbs = if databases { dbs } else { &[] };
    let lower_bound = match opening(start, goal, &quiet, proven, dbs, &nodes)? {
        Opening::Proven(moves) => {
            let len = moves.len() as u32;
            return Ok(answer(moves, len, true, 0));
        }
        Opening::Bound(l) => l,
    };
    // Cancelled before any answer: said so, not answered.
    if limits
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    {
        return Err(watch.timeout("anytime", lower_bound, nodes.get().0, nodes.get().1));
    }
    // An answer at once, whatever the clock says (milliseconds even on 16x16).
    let best = super::super::fast(start, goal, &unbounded(&limits))?.moves;
    watch.report_best(
        "fast",
        Some(lower_bound),
        nodes.get().0,
        Some(best.len() as u32),
    );
    let max_width = max_beam_width(start, dbs, lower_bound, limits.max_memory, fixed)?;
    let beams = Beams {
        start,
        goal,
        threads,
        watch: &watch,
        quiet: &quiet,
        nodes: &nodes,
        dbs,
        lower_bound,
        max_width,
    };
    let (best, width_done) = beams.widen(best, fixed)?;
    let best = polish(start, best, lower_bound, &watch, &quiet, &nodes);
    let proven = best.len() as u32 == lower_bound;
    Ok(answer(best, lower_bound, proven, width_done))
}

/// How the anytime solver's opening ended.
enum Opening {
    /// The board answered and proven at once (at the goal, or near it).
    Proven(Vec<Direction>),
    /// The bound proven: linear conflict, the exact search's, `proven` and the databases'.
    Bound(u32),
}

/// The opening: a board at the goal or near it (the quick IDA*'s node budget) proven at
/// once, else the best lower bound known (`proven` given, linear conflict, the quick
/// IDA*'s, and `dbs`' where they fit the board).
fn opening(
    start: &Board,
    goal: &Board,
    quiet: &Limits,
    proven: u32,
    dbs: &[&PdbHeuristic],
    nodes: &NodeCount,
) -> Result<Opening, SearchError> {
    if crate::parity::precheck(start, goal)? {
        return Ok(Opening::Proven(vec![]));
    }
    // A board near the goal: proven at once.
    let quick = Limits {
        max_nodes: Some(
            quiet
                .max_nodes
                .unwrap_or(u64::MAX)
                .min(super::super::AUTO_QUICK_NODES),
        ),
        ..quiet.clone()
    };
    let mut lower_bound = crate::heuristic::Heuristic::estimate(
        &crate::heuristic::LinearConflict::new(goal),
        start.cells(),
    )
    .max(proven)
    .max(if dbs.is_empty() {
        0
    } else {
        region_bound(start, goal, dbs)
    });
    match super::super::idastar(start, goal, HeuristicKind::LinearConflict, &quick) {
        Ok(s) => {
            nodes.add(s.stats.expanded, s.stats.generated);
            return Ok(Opening::Proven(s.moves));
        }
        Err(SearchError::TimeLimit {
            lower_bound: l,
            expanded,
            generated,
            ..
        }) => {
            nodes.add(expanded, generated);
            lower_bound = lower_bound.max(l)
        }
        Err(e) => return Err(e),
    }
    Ok(Opening::Bound(lower_bound))
}

/// The widest beam that fits `max_memory` (and the anytime solver's own room, less the
/// databases `dbs` hold) on `start`'s board; a `fixed` width past it is an error that
/// says so. Memory per beam position: the way back per layer (a generous layer count:
/// three times the `lower_bound`), two layers' cells (and with databases their region
/// cells, MAX_CELLS bytes a position), three candidates twice (the threads' lists, kept
/// from layer to layer, and all of them together), and the table of kept positions
/// ([`SLOTS_PER_POSITION`] slots a position, each a hash and an index: 16 bytes).
fn max_beam_width(
    start: &Board,
    dbs: &[&PdbHeuristic],
    lower_bound: u32,
    max_memory: u64,
    fixed: Option<usize>,
) -> Result<usize, SearchError> {
    let databases = !dbs.is_empty();
    let per = 4 * 3 * lower_bound.max(8) as u64
        + 2 * start.size().cells() as u64
        + if databases { 2 * MAX_CELLS as u64 } else { 0 }
        + 6 * std::mem::size_of::<Cand>() as u64
        + (SLOTS_PER_POSITION * std::mem::size_of::<Slot>()) as u64;
    let db_bytes: u64 = dbs
        .iter()
        .take(MAX_REGION_SETS)
        .flat_map(|h| h.databases())
        .map(|d| d.len() as u64)
        .sum();
    let room = ANYTIME_MEMORY
        .saturating_sub(db_bytes)
        .max(ANYTIME_MIN_BEAM_MEMORY);
    let max_width = ((max_memory.min(room) / per) as usize).clamp(1, ANYTIME_MAX_WIDTH);
    if let Some(w) = fixed.filter(|&w| w > max_width) {
        return Err(SearchError::BadRequest {
            field: "beam_width",
            reason: format!(
                "expected a beam width of at most {max_width} for this {} board within the \
                 memory left to the beams ({} MiB), found {w}",
                start.size(),
                max_memory.min(room) >> 20
            ),
        });
    }
    Ok(max_width)
}

/// What the anytime solver's runs of beams share.
struct Beams<'a> {
    start: &'a Board,
    goal: &'a Board,
    threads: usize,
    watch: &'a Watch,
    quiet: &'a Limits,
    nodes: &'a NodeCount,
    /// The databases that rank the board (none where they do not fit it).
    dbs: &'a [&'a PdbHeuristic],
    lower_bound: u32,
    max_width: usize,
}

impl Beams<'_> {
    /// Runs of beams, each wider than the one before, while time lasts and the answer
    /// (`best`) is longer than the bound; at one `fixed` width, one run. The best answer,
    /// and the width of the last run that ended.
    fn widen(
        &self,
        mut best: Vec<Direction>,
        fixed: Option<usize>,
    ) -> Result<(Vec<Direction>, usize), SearchError> {
        let (watch, max_width) = (self.watch, self.max_width);
        let mut width = fixed.unwrap_or(32.min(max_width));
        let mut width_done = 0;
        // One beam across the whole board, ranked by databases of its size: its answer
        // gains next to nothing from the polish, so the last run gets the polish's share
        // too; and once its beams are WHOLE_SOONER_WIDTH wide, the last run comes as soon
        // as a run eight times wider would not fit 64 times (see `next_width`).
        let size = self.start.size();
        let whole = !self.dbs.is_empty() && ranks_whole(self.dbs, size.width(), size.height());
        let share = if whole {
            WHOLE_PACED_SHARE
        } else {
            PACED_SHARE
        };
        // On a square board (the goal's blank on the diagonal) with two threads or more,
        // the last run searches the board and its mirror image at once, half the threads
        // each (see `both_views`).
        let mirrored = (self.threads >= 2)
            .then(|| super::views::transposed(self.start, self.goal))
            .flatten();
        // The last run's stages, and whether the next run is the last (paced to the time).
        let (mut before, mut log) = (StageLog::new(), StageLog::new());
        let mut last = false;
        while !watch.expired() && (best.len() as u32) > self.lower_bound {
            let t = std::time::Instant::now();
            let plan = (last && !before.is_empty()).then(|| Plan {
                until: t + watch.remaining().unwrap_or_default().mul_f64(share),
                before: &before,
                max_width,
            });
            let run = match (&plan, &mirrored) {
                (Some(p), Some(m)) => self.both_views(m, width, best.len(), p, &mut log),
                _ => staged(
                    self.start,
                    self.goal,
                    width,
                    Some(best.len()),
                    self.threads,
                    watch,
                    self.quiet,
                    self.nodes,
                    self.dbs,
                    plan,
                    &mut log,
                ),
            };
            match run {
                Ok(Some(m)) => {
                    best = m;
                    watch.report_best(
                        "beam",
                        Some(self.lower_bound),
                        self.nodes.get().0,
                        Some(best.len() as u32),
                    );
                    width_done = width;
                }
                Ok(None) => width_done = width,
                Err(SearchError::TimeLimit { .. }) => break,
                Err(e) => return Err(e),
            }
            let took = t.elapsed().as_secs_f64().max(1e-4);
            let left = watch.remaining().unwrap_or_default().as_secs_f64();
            // Time grows about as the width: eight times wider while that leaves room
            // for more, else as wide as fills nine tenths of the time left. That last run
            // is paced (see `Plan`): its beams' widths are set layer by layer to end
            // within `share` of the time left, because a run the clock cuts short is lost
            // (measured on 100 7x7 boards at 1 s: 1.582 and 1.582 paced, 1.582 and 1.609
            // unpaced). Moving to the last run sooner (only while eight times wider fits
            // 64 times, not 24) everywhere cost at 1 s (7x7 1.584 and 1.591 against 1.574
            // and 1.587); on a whole-board beam ranked by databases from width 2,048 on,
            // with the polish's share given to the last run, it gains at 10 s (7x7, 78
            // boards: 1.406 against 1.410) and changes nothing at 1 s.
            let fits = left / took;
            // A run that solved every stage (not cut short by the cap) shares the next
            // one's time among the stages.
            if before.is_empty() || log.len() >= before.len() {
                std::mem::swap(&mut before, &mut log);
            }
            let widen_while = if whole && width >= WHOLE_SOONER_WIDTH {
                64.0
            } else {
                24.0
            };
            let (next, is_last) = next_width(width, fits, widen_while);
            last |= is_last;
            if fixed.is_some() || next < width + width / 8 || width >= max_width {
                break;
            }
            width = next.min(max_width);
        }
        Ok((best, width_done))
    }

    /// The last run on the board and on its mirror image `mirrored` at once, each beam
    /// half as wide on half the threads, paced by `plan`: the shorter answer (of fewer
    /// than `cap` moves), as moves on the board.
    fn both_views(
        &self,
        mirrored: &Board,
        width: usize,
        cap: usize,
        plan: &Plan,
        log: &mut StageLog,
    ) -> Result<Option<Vec<Direction>>, SearchError> {
        let half = self.threads / 2;
        let width = (width / 2).max(1);
        let view = |board: &Board, threads: usize, log: &mut StageLog| {
            staged(
                board,
                self.goal,
                width,
                Some(cap),
                threads,
                self.watch,
                self.quiet,
                self.nodes,
                self.dbs,
                Some(*plan),
                log,
            )
        };
        let mut other_log = StageLog::new();
        let (own, other) = std::thread::scope(|s| {
            let other = s.spawn(|| view(mirrored, self.threads - half, &mut other_log));
            let own = view(self.start, half, log);
            (own, other.join())
        });
        let other = match other {
            Ok(r) => r.map(|m| m.map(|m| super::views::transpose_moves(&m))),
            Err(panic) => std::panic::resume_unwind(panic),
        };
        match (own, other) {
            (Ok(a), Ok(b)) => Ok(match (a, b) {
                (Some(a), Some(b)) => Some(if b.len() < a.len() { b } else { a }),
                (a, b) => a.or(b),
            }),
            (Ok(a), Err(SearchError::TimeLimit { .. })) => Ok(a),
            (Err(SearchError::TimeLimit { .. }), Ok(b)) => Ok(b),
            (Err(e), _) | (_, Err(e)) => Err(e),
        }
    }
}

/// The last polish of `best`: windows of 16 moves, then longer ones, replaced by shortest
/// ones while time lasts (a window cut short by the clock changes nothing).
fn polish(
    start: &Board,
    mut best: Vec<Direction>,
    lower_bound: u32,
    watch: &Watch,
    quiet: &Limits,
    nodes: &NodeCount,
) -> Vec<Direction> {
    for window in POLISH_WINDOWS {
        if best.len() as u32 <= lower_bound || watch.expired() {
            break;
        }
        let polish = Limits {
            time_limit: watch.remaining(),
            ..quiet.clone()
        };
        if let Ok(m) = super::super::optimize::optimize_within(start, &best, window, &polish) {
            if m.len() < best.len() {
                best = m;
                watch.report_best(
                    "optimize",
                    Some(lower_bound),
                    nodes.get().0,
                    Some(best.len() as u32),
                );
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::PatternDb;
    use crate::scramble::{uniform, Rng};
    use std::time::{Duration, Instant};

    /// The last run on both views answers the board itself (the mirror image's moves
    /// turned back), and nothing where neither view gets under the cap.
    #[test]
    fn both_views_answer_the_board_itself() {
        let goal = Board::solved("4x4".parse().unwrap());
        let groups: [&[u8]; 4] = [
            &[1, 2, 3, 4],
            &[5, 6, 7, 8],
            &[9, 10, 11, 12],
            &[13, 14, 15],
        ];
        let dbs = groups
            .iter()
            .map(|t| PatternDb::build(&goal, t, &Limits::default(), 0, &mut |_| {}).unwrap())
            .collect();
        let set = PdbHeuristic::new(&goal, dbs).unwrap();
        let sets = [&set];
        let limits = Limits::default();
        let watch = Watch::new(&limits);
        let nodes = NodeCount::default();
        let mut rng = Rng::new(5);
        for _ in 0..4 {
            let start = uniform(&goal, &mut rng);
            let mirrored = super::super::views::transposed(&start, &goal).unwrap();
            let beams = Beams {
                start: &start,
                goal: &goal,
                threads: 2,
                watch: &watch,
                quiet: &limits,
                nodes: &nodes,
                dbs: &sets,
                lower_bound: 0,
                max_width: 1 << 12,
            };
            let mut before = StageLog::new();
            staged(
                &start,
                &goal,
                64,
                None,
                1,
                &watch,
                &limits,
                &nodes,
                &sets,
                None,
                &mut before,
            )
            .unwrap();
            let plan = Plan {
                until: Instant::now() + Duration::from_secs(20),
                before: &before,
                max_width: 1 << 12,
            };
            let mut log = StageLog::new();
            let moves = beams
                .both_views(&mirrored, 256, usize::MAX, &plan, &mut log)
                .unwrap()
                .expect("an answer where there is no cap");
            let mut b = start.clone();
            b.apply_all(&moves).unwrap();
            assert_eq!(b, goal, "{start}");
            let capped = beams
                .both_views(&mirrored, 256, 1, &plan, &mut log)
                .unwrap();
            assert!(capped.is_none(), "{start}: {capped:?}");
        }
    }
}
