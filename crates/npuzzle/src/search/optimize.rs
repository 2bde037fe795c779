//! Shortening a solution: every stretch of a few moves replaced by an optimal one.

use super::idastar;
use crate::board::Board;
use crate::error::{MoveError, SearchError};
use crate::heuristic::HeuristicKind;
use crate::limits::Limits;
use crate::moves::Direction;
use crate::sequence::simplify;

/// Why a sequence could not be optimised.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OptimizeError {
    /// A move of the sequence is illegal from where it stands.
    Move(MoveError),
    /// A window's search ended without an answer (a limit reached).
    Search(SearchError),
}

impl std::fmt::Display for OptimizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptimizeError::Move(e) => e.fmt(f),
            OptimizeError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OptimizeError {}

/// `moves` from `start`, shortened: first simplified (a move followed by its inverse
/// cancelled), then every stretch of up to `window` moves replaced by a shortest sequence
/// between the same two positions (IDA* with linear conflict; windows overlap by half),
/// over and over until no window shortens. The result reaches the same position and is
/// never longer. Any board size; each window's search is short, as its distance is at
/// most `window`.
///
/// ```
/// use npuzzle::search::optimize;
/// use npuzzle::{Board, Limits, Notation};
/// let start: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// // Three turns around a 2x2 block (12 moves that change nothing), then the 14-move
/// // optimum: 26 moves that the windows bring back to 14.
/// let m = Notation::Tile.parse(&start, "LURDLURDLURDLUR2D2LURULDLU").unwrap();
/// let short = optimize(&start, &m, 16, &Limits::default()).unwrap();
/// assert_eq!(short.len(), 14);
/// ```
pub fn optimize(
    start: &Board,
    moves: &[Direction],
    window: usize,
    limits: &Limits,
) -> Result<Vec<Direction>, OptimizeError> {
    shorten(start, moves, window, limits, false)
}

/// [`optimize`] that stops when `limits`' clock runs out or its cancel flag is set, with
/// what it has shortened so far (never an error for that: every window replaced is
/// already shorter and reaches the same place); a window whose search takes more than
/// [`WINDOW_NODES`] nodes is left as it is (its search checks the clock too seldom).
pub(crate) fn optimize_within(
    start: &Board,
    moves: &[Direction],
    window: usize,
    limits: &Limits,
) -> Result<Vec<Direction>, OptimizeError> {
    shorten(start, moves, window, limits, true)
}

/// Nodes a window's search may take in [`optimize_within`].
const WINDOW_NODES: u64 = 100_000;

fn shorten(
    start: &Board,
    moves: &[Direction],
    window: usize,
    limits: &Limits,
    anytime: bool,
) -> Result<Vec<Direction>, OptimizeError> {
    let watch = crate::limits::Watch::new(limits);
    let window_limits = Limits {
        max_nodes: Some(WINDOW_NODES),
        ..limits.clone()
    };
    let limits = if anytime { &window_limits } else { limits };
    let mut end = start.clone();
    end.apply_all(moves).map_err(OptimizeError::Move)?;
    let mut moves = simplify(moves);
    let window = window.max(2);
    loop {
        let mut improved = false;
        let mut i = 0;
        // The position before move i.
        let mut at = start.clone();
        while i < moves.len() {
            if anytime && watch.expired() {
                return Ok(moves);
            }
            let j = (i + window).min(moves.len());
            let mut to = at.clone();
            to.apply_all(&moves[i..j])
                .expect("the moves were checked legal");
            let best = match idastar(&at, &to, HeuristicKind::LinearConflict, limits) {
                Ok(b) => Some(b),
                Err(SearchError::TimeLimit { .. }) if anytime && watch.expired() => {
                    return Ok(moves)
                }
                Err(SearchError::TimeLimit { .. }) if anytime => None,
                Err(e) => return Err(OptimizeError::Search(e)),
            };
            if let Some(best) = best.filter(|b| b.len() < j - i) {
                moves.splice(i..j, best.moves);
                improved = true;
                // Look again from here: the new stretch may join with what follows.
                continue;
            }
            let step = (window / 2).max(1).min(moves.len() - i);
            at.apply_all(&moves[i..i + step])
                .expect("the moves were checked legal");
            i += step;
        }
        if !improved {
            break;
        }
    }
    debug_assert!({
        let mut b = start.clone();
        b.apply_all(&moves).is_ok() && b == end
    });
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scramble::{walk, Rng};

    #[test]
    fn never_longer_and_reaches_the_same_place() {
        let mut rng = Rng::new(12);
        for size in ["3x3", "4x4", "5x4"] {
            let goal = Board::solved(size.parse().unwrap());
            for _ in 0..20 {
                let (start, _) = walk(&goal, 30, &mut rng).unwrap();
                // A long way round: a walk of 8 moves from the start, back by a shortest
                // way (not the walk undone, so simplifying alone cannot see the loop),
                // then the start's own shortest way home.
                let l = Limits::default();
                let (there, detour) = walk(&start, 8, &mut rng).unwrap();
                let back = idastar(&there, &start, HeuristicKind::LinearConflict, &l).unwrap();
                let home = idastar(&start, &goal, HeuristicKind::LinearConflict, &l).unwrap();
                let mut m = detour.clone();
                m.extend(&back.moves);
                m.extend(&home.moves);
                let short = optimize(&start, &m, 20, &l).unwrap();
                assert_eq!(short.len(), home.len(), "{size}");
                let mut b = start.clone();
                b.apply_all(&short).unwrap();
                assert_eq!(b, goal);
            }
        }
    }

    #[test]
    fn a_stopped_polish_keeps_what_it_has() {
        let mut rng = Rng::new(13);
        let goal = Board::solved("5x5".parse().unwrap());
        let (start, w) = walk(&goal, 200, &mut rng).unwrap();
        let back = crate::sequence::invert(&w);
        // Cancelled before it starts: the moves simplified, nothing else, no error.
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let l = Limits {
            cancel: Some(cancel.clone()),
            ..Limits::default()
        };
        let kept = optimize_within(&start, &back, 24, &l).unwrap();
        assert_eq!(kept, simplify(&back));
        // Let run: shorter or equal, and still reaching the goal.
        cancel.store(false, std::sync::atomic::Ordering::Relaxed);
        let short = optimize_within(&start, &back, 24, &l).unwrap();
        assert!(short.len() <= kept.len());
        let mut b = start.clone();
        b.apply_all(&short).unwrap();
        assert_eq!(b, goal);
    }
}
