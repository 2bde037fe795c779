//! A big board a line at a time (an L where the rest is small), then the last region whole.

use super::layer::*;
use super::run::*;
use super::setup::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::heuristic::HeuristicKind;
use crate::limits::{Limits, Watch};
use crate::moves::Direction;
use crate::sequence::simplify;

/// Nodes IDA* may spend finishing from a stalled beam's best position before the fast
/// solver finishes instead.
pub(super) const FINISH_NODES: u64 = 200_000;

/// `start` to `goal` from a position a beam stalled at: IDA* within [`FINISH_NODES`]
/// nodes, else the fast solver.
pub(super) fn finish(
    start: &Board,
    goal: &Board,
    limits: &Limits,
) -> Result<Vec<Direction>, SearchError> {
    let quiet = Limits {
        progress: None,
        max_nodes: Some(FINISH_NODES),
        ..limits.clone()
    };
    match super::super::idastar(start, goal, HeuristicKind::LinearConflict, &quiet) {
        Ok(s) => Ok(s.moves),
        Err(SearchError::TimeLimit { .. }) => {
            Ok(super::super::fast(start, goal, &unbounded(limits))?.moves)
        }
        Err(e) => Err(e),
    }
}

/// `limits` without a clock, node budget, cancel flag or progress hook: for the fast
/// solver, which takes milliseconds even on 16x16 and must answer when time is up.
pub(super) fn unbounded(limits: &Limits) -> Limits {
    Limits {
        time_limit: None,
        max_nodes: None,
        cancel: None,
        progress: None,
        ..limits.clone()
    }
}

/// The side of the last region [`beam`] and [`anytime`] leave to one beam over all its tiles.
pub(crate) const STAGED_LAST_SIDE: usize = 6;

/// Regions no more than this on a side (and bigger than the last region on both) lose their
/// top row and left column together, in one beam over the L the two make. Measured with
/// `npuzzle bench --set random --algo anytime` (seed 7, 30 boards at 1 s; 10 at 5 s on
/// 16x16), length over Manhattan, a line at a time against Ls: 7x7 1.671 against 1.618,
/// 8x8 1.730 against 1.666, 10x10 1.892 against 1.832; 16x16 2.010 with lines only, 2.051
/// with Ls from the start, 1.989 with Ls from 10x10 down.
pub(crate) const STAGED_L_SIDE: usize = 10;

/// How many rows (or columns) a stage takes at once outside the Ls: two, while what is left
/// after them is still at least the last region's side. Measured with `npuzzle bench --set
/// random --algo anytime --time-limit 30` on 10 16x16 boards (seed 7), length over
/// Manhattan, with Ls two lines thick: 1.799 with two, 1.840 with three, 1.887 with one.
pub(crate) const STAGED_LINES: usize = 2;

/// How many lines thick an L is (see [`STAGED_L_SIDE`]): the top two rows and the left two
/// columns of what is left in one beam, where what is left after them is still at least
/// the last region on both sides (else one line). Measured with `npuzzle bench --set
/// random --algo anytime --time-limit 10` on 30 10x10 boards, length over Manhattan, Ls
/// two lines thick against one: 1.647 against 1.668 (seed 7), 1.622 against 1.665
/// (seed 17); three lines 1.786 and four 2.004 (seed 7: their beams stall). An L that
/// stalls goes on from where it stalled a line at a time (narrow beams on 16x16 did).
pub(crate) const STAGED_L_LINES: usize = 2;

/// The width from which a line's focus (how much its estimate outweighs the rest of the
/// board's in the ranking) is the tiles left per tile of the lines over four, rounded
/// (2 on 16x16's first four stages), rather than over six (1 on every board up to
/// 16x16). Measured with `npuzzle bench --set random --size 16x16 --algo anytime
/// --beam-width W` (seed 7), moves over four against over six: width 256, 65,405 against
/// 59,363 (10 boards); 1,024, 56,287 against 55,677; 2,048, 106,978 against 107,038 (20
/// boards); 4,096, 103,378 against 105,052 (and 104,257 against 105,519 on seed 17);
/// 16,384, 49,328 against 49,474 (10 boards, seed 27); all with the first of two repeats
/// in a layer staying (see `keep_best`).
pub(crate) const STAGED_FOCUS_WIDTH: usize = 4096;

/// The focus of a beam of `width` on lines of `line_tiles` tiles with `left_tiles` tiles
/// not yet placed (see [`STAGED_FOCUS_WIDTH`]).
pub(super) fn line_focus(left_tiles: usize, line_tiles: usize, width: usize) -> u64 {
    let per = if width >= STAGED_FOCUS_WIDTH {
        4.0
    } else {
        6.0
    };
    ((left_tiles as f64 / line_tiles.max(1) as f64 / per).round() as u64).max(1)
}

/// Per stage of a [`staged`] run, in order: its beam's way (see [`Way`]) and its seconds.
pub(crate) type StageLog = Vec<(Way, f64)>;

/// A time for a whole [`staged`] run to end by, shared among its stages as an earlier run's
/// stages shared theirs (see [`Pace`]).
#[derive(Clone, Copy)]
pub(crate) struct Plan<'p> {
    /// When the run should end.
    pub until: std::time::Instant,
    /// The earlier (narrower) run's stages.
    pub before: &'p [(Way, f64)],
    /// The widest any beam may grow to.
    pub max_width: usize,
}

impl<'p> Plan<'p> {
    /// The pace of stage `k`: its share of the time left as the earlier run's stage `k`
    /// had of the time from there on; none for a stage the earlier run did not reach.
    pub(super) fn pace(&self, k: usize) -> Option<Pace<'p>> {
        let (way, secs) = self.before.get(k)?;
        let rest: f64 = self.before[k..].iter().map(|s| s.1).sum();
        let now = std::time::Instant::now();
        let left = self.until.saturating_duration_since(now);
        let share = if rest > 0.0 { secs / rest } else { 1.0 };
        Some(Pace {
            until: now + left.mul_f64(share.clamp(0.0, 1.0)),
            before: way,
            same_start: k == 0,
            max_width: self.max_width,
        })
    }
}

/// Whether the first of `dbs` (the set a beam is ranked by) is for a board of `width` x
/// `height`: a region that size is then one beam, ranked by it across all its tiles.
pub(super) fn ranks_whole(dbs: &[&PdbHeuristic], width: usize, height: usize) -> bool {
    dbs.first().is_some_and(|d| {
        let s = d.goal().size();
        (s.width(), s.height()) == (width, height)
    })
}

/// A solution by beams of `width`: on a board wider or taller than
/// [`STAGED_LAST_SIDE`], lines at a time (the top [`STAGED_LINES`] rows or left columns
/// of what is left, whichever side is longer; the top [`STAGED_L_LINES`] rows and left
/// columns at once, as an L, once what is left is at most [`STAGED_L_SIDE`] on a side) by
/// a beam that tracks those tiles, the solved lines kept still; then one beam over the
/// last region. A stage of several lines that stalls goes on from there a line at a
/// time; a beam of one line or the last region that stalls is finished by IDA* or the
/// fast solver. `None` if `cap` (a known answer's length) was reached first; a time-limit
/// error if the clock ran out.
#[allow(clippy::too_many_arguments)]
pub(crate) fn staged(
    start: &Board,
    goal: &Board,
    width: usize,
    cap: Option<usize>,
    threads: usize,
    watch: &Watch,
    limits: &Limits,
    nodes: &NodeCount,
    dbs: &[&PdbHeuristic],
    plan: Option<Plan>,
    log: &mut StageLog,
) -> Result<Option<Vec<Direction>>, SearchError> {
    log.clear();
    let size = start.size();
    let (w, h, n) = (size.width(), size.height(), size.cells());
    // A goal with its blank elsewhere than the bottom-right corner: solved to the goal
    // with the blank walked there, then walked back.
    let (g, back) = super::super::fast::corner_goal(goal);
    let mut board = start.clone();
    let mut moves: Vec<Direction> = Vec::new();
    let mut free = vec![true; n];
    let (mut r0, mut c0) = (0, 0);
    // A stage of several lines that stalled, gone on a line at a time: where it ends (the
    // first row and column past it), its seconds so far and its beam's way, logged as one
    // stage.
    let mut merge: Option<((usize, usize), f64, Way)> = None;
    let over = |m: &Vec<Direction>| cap.is_some_and(|c| m.len() + back.len() >= c);
    loop {
        // What is left is the last region when it is at most STAGED_LAST_SIDE on a side,
        // or the size of the databases given (7x7 ones rank a 7x7 board whole).
        let whole = ranks_whole(dbs, w - c0, h - r0);
        let last = whole || (h - r0 <= STAGED_LAST_SIDE && w - c0 <= STAGED_LAST_SIDE);
        let mut tracked = vec![false; n];
        // A region no more than STAGED_L_SIDE on a side, and more than the last region on
        // both: its top rows and left columns in one beam (an L), which can interleave the
        // lines' tiles.
        let ell = !last
            && h - r0 > STAGED_LAST_SIDE
            && w - c0 > STAGED_LAST_SIDE
            && (h - r0).max(w - c0) <= STAGED_L_SIDE;
        // Rows (else columns) where the region is not an L: the longer side's, or those
        // of the stage of several lines gone on a line at a time.
        let rows = match merge {
            Some(((end_r, _), ..)) if !ell => end_r > r0,
            _ => h - r0 >= w - c0,
        };
        // How many lines the stage takes (rows, columns, or of each in an L): as many as
        // the constants say while that leaves at least the last region's side, one once
        // a thicker stage stalled here.
        let k = if last {
            0
        } else if merge.is_some() {
            1
        } else if ell {
            STAGED_L_LINES
                .min(h - r0 - STAGED_LAST_SIDE)
                .min(w - c0 - STAGED_LAST_SIDE)
        } else if rows {
            STAGED_LINES.min(h - r0 - STAGED_LAST_SIDE)
        } else {
            STAGED_LINES.min(w - c0 - STAGED_LAST_SIDE)
        }
        .max(1);
        // Where the stage ends (the first row and column past it): the next starts there.
        let next = if ell {
            (r0 + k, c0 + k)
        } else if rows {
            (r0 + k, c0)
        } else {
            (r0, c0 + k)
        };
        let line: Vec<usize> = if last {
            (r0 * w..n).filter(|&c| c % w >= c0).collect()
        } else if ell {
            (r0 * w..n)
                .filter(|&c| c % w >= c0 && (c / w < r0 + k || c % w < c0 + k))
                .collect()
        } else if rows {
            (r0 * w..(r0 + k) * w).filter(|&c| c % w >= c0).collect()
        } else {
            (r0 * w..n)
                .filter(|&c| c % w >= c0 && c % w < c0 + k)
                .collect()
        };
        for &c in &line {
            tracked[g.cells()[c] as usize] = true;
        }
        tracked[0] = false;
        // The focus on the lines grows with the tiles left per tile of the lines (see
        // STAGED_FOCUS_WIDTH); on the last region the estimate decides, ties going to
        // fewer conflicts (see `BeamSetup::rank`).
        let left_tiles = free.iter().filter(|&&f| f).count() - 1;
        let focus = if last {
            0
        } else {
            line_focus(left_tiles, line.len(), width)
        };
        let mut setup = BeamSetup::new(&g, tracked, free.clone(), focus);
        if last {
            setup.use_databases(&g, &free, dbs);
        }
        let left = cap.map(|c| c.saturating_sub(moves.len() + back.len()));
        let stall = |m: Vec<Direction>| -> Result<Vec<Direction>, Vec<Direction>> { Err(m) };
        let stage = log.len();
        let pace = plan.as_ref().and_then(|p| p.pace(stage));
        let began = std::time::Instant::now();
        let mut way = Way::default();
        let end = beam_run_measured(
            &setup, &board, width, left, threads, watch, nodes, pace, &mut way,
        )?;
        let part = match end {
            BeamEnd::Found(m) => Ok(m),
            BeamEnd::Exhausted if left.is_some() => return Ok(None),
            BeamEnd::Stopped => {
                // Out of time: the lines solved so far are kept and the fast solver
                // finishes (milliseconds), so that a run cut short is not lost.
                moves.extend(super::super::fast(&board, &g, &unbounded(limits))?.moves);
                break;
            }
            // Without a cap a beam ends only at its aim or at a stall; a beam that lost
            // every position (a tiny region, all repeats) is a stall where it started.
            BeamEnd::Exhausted => stall(vec![]),
            BeamEnd::Stalled(m) => stall(m),
        };
        let part = match part {
            Ok(m) => m,
            Err(mut m) => {
                let mut mid = board.clone();
                mid.apply_all(&m).expect("the beam's moves are legal");
                if !last && k > 1 {
                    // A stage of several lines that stalls: on from where it stalled, a
                    // line at a time.
                    board = mid;
                    merge = Some((next, began.elapsed().as_secs_f64(), way));
                    moves.extend(m);
                    if over(&moves) {
                        return Ok(None);
                    }
                    continue;
                }
                if !last {
                    // A line's beam stalls only on a freak board: the fast solver takes
                    // the board from there.
                    m.extend(finish(&mid, &g, limits)?);
                    moves.extend(m);
                    break;
                }
                m.extend(finish(&mid, &g, limits)?);
                m
            }
        };
        board.apply_all(&part).expect("the beam's moves are legal");
        let secs = began.elapsed().as_secs_f64();
        match merge.take() {
            Some((end, s0, w0)) if next.0 < end.0 || next.1 < end.1 => {
                merge = Some((end, s0 + secs, w0))
            }
            Some((_, s0, w0)) => log.push((w0, s0 + secs)),
            None => log.push((way, secs)),
        }
        moves.extend(part);
        if over(&moves) {
            return Ok(None);
        }
        if last {
            break;
        }
        (r0, c0) = next;
        for &c in &line {
            free[c] = false;
        }
    }
    moves.extend(crate::sequence::invert(&back));
    let moves = simplify(&moves);
    Ok(cap.is_none_or(|c| moves.len() < c).then_some(moves))
}

/// A beam search from `start` to `goal` with `width` positions per layer, within
/// `limits`, on `threads` threads (0: every core): a valid solution, not proven shortest.
/// Boards bigger than 5x5 are solved a line at a time, down to a 6x6 corner. Wider
/// beams take longer and find shorter answers.
///
/// ```
/// use npuzzle::search::beam;
/// use npuzzle::{Board, Limits};
/// let goal = Board::solved("8x8".parse().unwrap());
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(3));
/// let moves = beam(&start, &goal, 100, 1, &Limits::default()).unwrap();
/// let mut b = start.clone();
/// b.apply_all(&moves).unwrap();
/// assert_eq!(b, goal);
/// ```
pub fn beam(
    start: &Board,
    goal: &Board,
    width: usize,
    threads: usize,
    limits: &Limits,
) -> Result<Vec<Direction>, SearchError> {
    let watch = Watch::new(limits);
    if crate::parity::precheck(start, goal)? {
        return Ok(vec![]);
    }
    Ok(staged(
        start,
        goal,
        width,
        None,
        threads,
        &watch,
        limits,
        &NodeCount::default(),
        &[],
        None,
        &mut StageLog::new(),
    )?
    .expect("no cap: the beam always answers"))
}
