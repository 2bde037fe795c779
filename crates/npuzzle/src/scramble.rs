//! Scrambles: positions drawn uniformly from all those that can reach a goal, and random
//! walks, from a generator whose output is fixed for every seed on every machine and in
//! every version.
//!
//! # The generator (a contract: golden outputs in the tests)
//!
//! [`Rng`] is xoshiro256** (Blackman and Vigna, 2018), its four words seeded by four
//! successive outputs of SplitMix64 started at the seed. A number below `n` is drawn by
//! Lemire's multiply-and-reject method, so it is exactly uniform.
//!
//! # A uniform scramble
//!
//! The cells are shuffled by Fisher-Yates (cell `i` from the last down to 1 swaps with a
//! cell drawn below `i + 1`), giving each of the `n!` arrangements the same chance. Half of
//! them cannot reach the goal; for those, the tiles on the first two cells that do not hold
//! the blank are swapped. For each blank cell that swap is a one-to-one map from the
//! arrangements that cannot reach the goal to those that can, so every position that can
//! reach the goal comes out with probability `2 / n!`: the same for all. (A random walk is
//! not uniform, and a shuffle without the repair gives unsolvable boards half the time.)

use crate::board::Board;
use crate::moves::Direction;
use crate::parity::is_solvable;

/// xoshiro256** seeded by SplitMix64: small, fast, and fixed for every seed (see the
/// module docs).
///
/// ```
/// use npuzzle::scramble::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(6) < 6);
/// ```
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut split = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            s: [split(), split(), split(), split()],
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A number drawn uniformly from `0..n` (`n > 0`), by Lemire's method.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            // Reject the few values that would favour some results.
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }
}

/// A position drawn uniformly from all those that can reach `goal` (see the module docs).
///
/// ```
/// use npuzzle::scramble::{uniform, Rng};
/// use npuzzle::{is_solvable, Board};
/// let goal = Board::solved("4x4".parse().unwrap());
/// let mut rng = Rng::new(1);
/// let b = uniform(&goal, &mut rng);
/// assert!(is_solvable(&b, &goal).unwrap());
/// ```
pub fn uniform(goal: &Board, rng: &mut Rng) -> Board {
    let size = goal.size();
    let mut cells = goal.cells().to_vec();
    for i in (1..cells.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        cells.swap(i, j);
    }
    let mut board = Board::from_cells(size, cells).expect("a shuffle of a board is a board");
    if !is_solvable(&board, goal).expect("same size") {
        let mut cells = board.cells().to_vec();
        let mut tiles = (0..cells.len()).filter(|&c| cells[c] != 0);
        let (a, b) = (
            tiles.next().expect("boards have at least 3 tiles"),
            tiles.next().expect("boards have at least 3 tiles"),
        );
        cells.swap(a, b);
        board = Board::from_cells(size, cells).expect("a swap of two tiles is a board");
    }
    board
}

/// The most scrambles one call draws: 1,000,000,000.
pub const MAX_COUNT: usize = 1_000_000_000;

/// The longest random walk drawn: 1,000,000 moves (every face refuses more, before
/// anything is allocated).
pub const MAX_WALK: usize = 1_000_000;

/// A scramble that was not drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScrambleError {
    /// A walk longer than [`MAX_WALK`].
    WalkTooLong {
        /// The moves asked for.
        found: usize,
    },
}

impl std::fmt::Display for ScrambleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScrambleError::WalkTooLong { found } => {
                write!(f, "expected a walk of 0 to {MAX_WALK} moves, found {found}")
            }
        }
    }
}

impl std::error::Error for ScrambleError {}

/// A random walk of `moves` moves from `goal`, each drawn uniformly from the legal moves
/// that do not undo the one before; the position reached and the moves (tile directions,
/// from `goal`). More than [`MAX_WALK`] moves is an error.
///
/// ```
/// use npuzzle::scramble::{walk, Rng};
/// use npuzzle::Board;
/// let goal = Board::solved("3x3".parse().unwrap());
/// let (b, m) = walk(&goal, 20, &mut Rng::new(5)).unwrap();
/// assert_eq!(m.len(), 20);
/// let mut back = goal.clone();
/// back.apply_all(&m).unwrap();
/// assert_eq!(back, b);
/// assert!(walk(&goal, 1_000_000_000_000, &mut Rng::new(5)).is_err());
/// ```
pub fn walk(
    goal: &Board,
    moves: usize,
    rng: &mut Rng,
) -> Result<(Board, Vec<Direction>), ScrambleError> {
    check_walk(moves)?;
    let mut path = Vec::with_capacity(moves);
    let board = walk_with(goal, moves, rng, |d| path.push(d));
    Ok((board, path))
}

/// The position [`walk`] reaches for the same arguments, without keeping its moves.
///
/// ```
/// use npuzzle::scramble::{walk, walk_board, Rng};
/// use npuzzle::Board;
/// let goal = Board::solved("4x4".parse().unwrap());
/// let b = walk_board(&goal, 50, &mut Rng::new(3)).unwrap();
/// assert_eq!(b, walk(&goal, 50, &mut Rng::new(3)).unwrap().0);
/// ```
pub fn walk_board(goal: &Board, moves: usize, rng: &mut Rng) -> Result<Board, ScrambleError> {
    check_walk(moves)?;
    Ok(walk_with(goal, moves, rng, |_| {}))
}

/// Refuses a walk longer than [`MAX_WALK`].
pub fn check_walk(moves: usize) -> Result<(), ScrambleError> {
    if moves > MAX_WALK {
        return Err(ScrambleError::WalkTooLong { found: moves });
    }
    Ok(())
}

fn walk_with(goal: &Board, moves: usize, rng: &mut Rng, mut each: impl FnMut(Direction)) -> Board {
    let mut board = goal.clone();
    let mut last: Option<Direction> = None;
    for _ in 0..moves {
        let mut choices = [Direction::Up; 4];
        let mut k = 0;
        for d in Direction::ALL {
            if board.mover(d).is_some() && Some(d.inverse()) != last {
                choices[k] = d;
                k += 1;
            }
        }
        let d = choices[rng.below(k as u64) as usize];
        board.apply(d).expect("a legal move");
        each(d);
        last = Some(d);
    }
    board
}

/// A seed drawn from the system, for a caller given none: the clock's nanoseconds, the
/// process id and a count of the calls so far, mixed by [`Rng`]; two calls never give
/// the same seed in one process. Report it, so the draw can be made again.
pub fn fresh_seed() -> u64 {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let calls = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut rng = Rng::new(nanos ^ ((std::process::id() as u64) << 32));
    rng.next_u64() ^ Rng::new(calls).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_matches_its_reference() {
        // SplitMix64 from 0 gives 0xe220a8397b1dcdaf first (its published first output);
        // the state words are the first four.
        let r = Rng::new(0);
        assert_eq!(r.s[0], 0xe220_a839_7b1d_cdaf);
        // below() stays below and hits every value.
        let mut r = Rng::new(3);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[r.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
