//! Every size from 2x2 to 16x16, square and not: short walks from the goal solved by every
//! search, with every heuristic, against a plain breadth-first search written here. A
//! search may refuse a size (memory, packing, walking distance past 4x4) with an error;
//! it never panics, and every answer it gives is right.

use std::collections::{HashSet, VecDeque};

use npuzzle::search::{compared, fast, idastar_all, idastar_weighted, optimize};
use npuzzle::{solve, Algorithm, Board, Direction, HeuristicKind, Limits, SearchError, Size};
use proptest::prelude::*;

/// The optimal length by plain breadth-first search from `start`, up to `depth` moves.
fn bfs_length(start: &Board, goal: &Board, depth: usize) -> Option<usize> {
    let mut seen: HashSet<Vec<u8>> = HashSet::from([start.cells().to_vec()]);
    let mut queue = VecDeque::from([(start.clone(), 0)]);
    while let Some((b, d)) = queue.pop_front() {
        if &b == goal {
            return Some(d);
        }
        if d == depth {
            continue;
        }
        for m in Direction::ALL {
            let mut next = b.clone();
            if next.apply(m).is_ok() && seen.insert(next.cells().to_vec()) {
                queue.push_back((next, d + 1));
            }
        }
    }
    None
}

fn reaches(start: &Board, moves: &[Direction], goal: &Board) -> bool {
    let mut b = start.clone();
    b.apply_all(moves).is_ok() && &b == goal
}

/// Refusals a search may give for a size it does not handle: never a wrong answer.
fn refusal(e: &SearchError) -> bool {
    matches!(
        e,
        SearchError::Unsupported { .. }
            | SearchError::TooManyCells { .. }
            | SearchError::MemoryLimit { .. }
            | SearchError::OutOfMemory { .. }
    )
}

/// A memory limit, and no clock: every search here ends by itself (short walks, bounded
/// depths) or is refused for its memory, on any machine however busy (a 20 s limit once
/// stopped the 3x4 table's build on a loaded one).
fn limits() -> Limits {
    Limits {
        max_memory: 256 << 20,
        ..Limits::default()
    }
}

/// Checks every search on `start`, `optimum` moves from `goal`.
fn check_all(start: &Board, goal: &Board, optimum: usize, walk: &[Direction]) {
    let size = start.size();
    let limits = limits();
    let mut runs: Vec<(Algorithm, HeuristicKind)> = compared()
        .into_iter()
        .map(|(a, h)| (a, h.unwrap_or(HeuristicKind::Manhattan)))
        .collect();
    runs.push((Algorithm::Auto, HeuristicKind::LinearConflict));
    runs.push((Algorithm::Fast, HeuristicKind::Manhattan));
    for (algo, h) in runs {
        match solve(start, goal, algo, h, &limits) {
            Ok(s) => {
                assert!(
                    reaches(start, &s.moves, goal),
                    "{size} {algo} {h:?}: does not solve"
                );
                if algo != Algorithm::Fast && algo != Algorithm::Auto {
                    assert_eq!(s.len(), optimum, "{size} {algo} {h:?}: not optimal");
                }
                assert!(
                    s.len() >= optimum,
                    "{size} {algo}: shorter than the optimum"
                );
            }
            Err(e) => assert!(refusal(&e), "{size} {algo} {h:?}: {e}"),
        }
    }
    // Weighted, all-solutions, the fast solver and the move optimiser.
    let w = idastar_weighted(start, goal, HeuristicKind::Manhattan, 2.0, &limits).unwrap();
    assert!(
        reaches(start, &w.moves, goal) && w.len() <= 2 * optimum,
        "{size} weighted"
    );
    let (all, _) = idastar_all(start, goal, HeuristicKind::LinearConflict, &limits, 3).unwrap();
    assert!(!all.is_empty(), "{size}: no solution from idastar_all");
    for p in &all {
        assert!(reaches(start, p, goal) && p.len() == optimum, "{size} all");
    }
    let f = fast(start, goal, &limits).unwrap();
    assert!(reaches(start, &f.moves, goal), "{size} fast");
    let undo: Vec<Direction> = walk.iter().rev().map(|d| d.inverse()).collect();
    let short = optimize(start, &undo, 16, &limits).unwrap();
    assert!(
        reaches(start, &short, goal) && short.len() == optimum,
        "{size} optimize"
    );
}

/// A walk of up to `moves.len()` moves from the goal (illegal moves skipped).
fn walk(size: Size, moves: &[u8]) -> (Board, Vec<Direction>) {
    let mut b = Board::solved(size);
    let mut made = Vec::new();
    for &m in moves {
        let d = Direction::ALL[m as usize % 4];
        if b.apply(d).is_ok() {
            made.push(d);
        }
    }
    (b, made)
}

/// The shapes named in bug reports, every time: the extremes of the size range.
#[test]
fn the_extreme_shapes_are_solved_by_every_search() {
    for (w, h) in [
        (2, 2),
        (16, 16),
        (16, 2),
        (2, 16),
        (15, 16),
        (16, 15),
        (16, 4),
        (4, 16),
    ] {
        let size = Size::new(w, h).unwrap();
        for moves in [
            &[2u8][..],
            &[2, 0, 3, 1, 2, 0],
            &[2, 2, 0, 0, 3, 1, 3, 1, 2, 0, 2, 0],
        ] {
            let (start, made) = walk(size, moves);
            let goal = Board::solved(size);
            let optimum = bfs_length(&start, &goal, made.len()).expect("within the walk");
            check_all(&start, &goal, optimum, &made);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any size from 2x2 to 16x16, a walk of at most 10 moves (12 on the fixed shapes
    /// above; the breadth-first oracle grows as 3^depth).
    #[test]
    fn every_size_and_every_search(w in 2usize..=16, h in 2usize..=16,
                                   moves in proptest::collection::vec(0u8..4, 0..=10)) {
        let size = Size::new(w, h).unwrap();
        let (start, made) = walk(size, &moves);
        let goal = Board::solved(size);
        let optimum = bfs_length(&start, &goal, made.len()).expect("within the walk");
        check_all(&start, &goal, optimum, &made);
    }
}
