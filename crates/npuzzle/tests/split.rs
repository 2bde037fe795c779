//! One IDA* pass taken apart (`pass_frontier` + `pass_subtrees`), as a cluster runs it:
//! put back together in order, it does exactly what the one-thread search does.

use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
use npuzzle::scramble::{uniform, walk, Rng};
use npuzzle::search::{idastar_pdb, pass_frontier, pass_subtrees};
use npuzzle::{Board, Direction, Limits, SearchError};

fn databases(goal: &Board, groups: &[&[u8]]) -> PdbHeuristic {
    let limits = Limits::default();
    let dbs = groups
        .iter()
        .map(|g| PatternDb::build(goal, g, &limits, 1, &mut |_| {}).unwrap())
        .collect();
    PdbHeuristic::new(goal, dbs).unwrap()
}

/// The split search, each pass's roots searched in pieces of `piece`, in order:
/// (moves, expanded, generated, the last pass's bound).
fn split_solve(
    start: &Board,
    goal: &Board,
    h: &PdbHeuristic,
    min_paths: usize,
    piece: usize,
    parity: u32,
) -> (Vec<Direction>, u64, u64, u32, (u64, u64)) {
    let limits = Limits::default();
    let round = |b: u32| b + (b + parity) % 2;
    let mut bound = round(h.estimate(start));
    let (mut expanded, mut generated) = (0, 0);
    loop {
        let top = pass_frontier(start, goal, h, bound, min_paths, &limits).unwrap();
        expanded += top.stats.expanded;
        generated += top.stats.generated;
        let above = (top.stats.expanded, top.stats.generated);
        if let Some(m) = top.found {
            return (m, expanded, generated, bound, above);
        }
        let mut next = top.next_bound;
        for (k, chunk) in top.paths.chunks(piece.max(1)).enumerate() {
            let sub = pass_subtrees(start, goal, h, bound, chunk, &limits).unwrap();
            expanded += sub.stats.expanded;
            generated += sub.stats.generated;
            if let Some((i, m)) = sub.found {
                // The moves start with the root's path.
                assert_eq!(&m[..chunk[i].len()], &chunk[i][..], "piece {k} root {i}");
                return (m, expanded, generated, bound, above);
            }
            next = match (next, sub.next_bound) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        bound = round(next.expect("a solvable board has a next bound"));
    }
}

fn check(start: &Board, goal: &Board, h: &PdbHeuristic) {
    let one = idastar_pdb(start, goal, h, &Limits::default()).unwrap();
    let parity = one.len() as u32 % 2;
    for (min_paths, piece) in [(1, 1), (8, 3), (50, 7), (400, 1000)] {
        let (moves, expanded, generated, bound, above) =
            split_solve(start, goal, h, min_paths, piece, parity);
        let mut b = start.clone();
        b.apply_all(&moves).unwrap();
        assert_eq!(&b, goal, "{start}: the moves solve it");
        assert_eq!(moves.len(), one.len(), "{start}: optimal");
        assert_eq!(bound as usize, one.len());
        assert_eq!(moves, one.moves, "{start}: the same first solution");
        // The passes before the last do the same work; in the last, the frontier's nodes
        // past the solution's root are extra (a one-thread pass stops before them).
        let what = format!("{start}: min_paths {min_paths}, piece {piece}");
        assert!(expanded >= one.stats.expanded, "{what}");
        assert!(expanded - above.0 <= one.stats.expanded, "{what}");
        assert!(generated >= one.stats.generated, "{what}");
        assert!(generated - above.1 <= one.stats.generated, "{what}");
    }
    // A pass that finds nothing: the same work however it is cut.
    if one.len() >= 2 {
        let bound = one.len() as u32 - 2;
        let limits = Limits::default();
        let mut seen = Vec::new();
        for (min_paths, piece) in [(1, 1), (8, 3), (50, 7), (400, 1000)] {
            let top = pass_frontier(start, goal, h, bound, min_paths, &limits).unwrap();
            let (mut e, mut g, mut next) = (
                top.stats.expanded,
                top.stats.generated,
                top.next_bound.unwrap_or(u32::MAX),
            );
            assert!(top.found.is_none());
            for chunk in top.paths.chunks(piece) {
                let sub = pass_subtrees(start, goal, h, bound, chunk, &limits).unwrap();
                assert!(sub.found.is_none());
                e += sub.stats.expanded;
                g += sub.stats.generated;
                next = next.min(sub.next_bound.unwrap_or(u32::MAX));
            }
            seen.push((e, g, next));
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{start}: {seen:?}");
        assert!(seen[0].2 > bound && seen[0].2 <= one.len() as u32);
    }
}

#[test]
fn split_passes_match_the_one_thread_search_on_3x3() {
    let goal = Board::solved("3x3".parse().unwrap());
    let h = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    let mut rng = Rng::new(11);
    for _ in 0..20 {
        check(&uniform(&goal, &mut rng), &goal, &h);
    }
    // Any goal: the blank in the middle.
    let goal: Board = "1 2 3/4 0 5/6 7 8".parse().unwrap();
    let h = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    for _ in 0..5 {
        check(&uniform(&goal, &mut rng), &goal, &h);
    }
}

#[test]
fn split_passes_match_the_one_thread_search_on_4x4() {
    let goal = Board::solved("4x4".parse().unwrap());
    let h = databases(
        &goal,
        &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]],
    );
    let mut rng = Rng::new(5);
    for len in [0, 1, 2, 30, 60, 90, 200] {
        let (start, _) = walk(&goal, len, &mut rng).unwrap();
        check(&start, &goal, &h);
    }
    // Korf's first instance (his goal has the blank first): 57 moves.
    let goal: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
    let h = databases(
        &goal,
        &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]],
    );
    let korf1: Board = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3".parse().unwrap();
    let (moves, ..) = split_solve(&korf1, &goal, &h, 64, 5, 1);
    assert_eq!(moves.len(), 57);
}

#[test]
fn a_bad_path_or_board_is_refused() {
    let goal = Board::solved("3x3".parse().unwrap());
    let h = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
    let limits = Limits::default();
    // The blank is on the bottom row: no tile below it slides up.
    let bad = vec![vec![Direction::Left], vec![Direction::Up]];
    let e = pass_subtrees(&start, &goal, &h, 31, &bad, &limits).unwrap_err();
    assert!(
        matches!(e, SearchError::BadRequest { field: "paths", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("path 1"), "{e}");
    // A legal path that undoes its own move repeats a position: no frontier holds it.
    let twin = vec![
        vec![Direction::Left],
        vec![Direction::Left, Direction::Right],
    ];
    let e = pass_subtrees(&start, &goal, &h, 31, &twin, &limits).unwrap_err();
    assert!(e.to_string().contains("path 1"), "{e}");
    let unsolvable: Board = "6 8 7/2 5 4/3 0 1".parse().unwrap();
    assert!(pass_frontier(&unsolvable, &goal, &h, 31, 8, &limits).is_err());
    assert!(pass_subtrees(&unsolvable, &goal, &h, 31, &[], &limits).is_err());
    // A cancelled search stops with the pass's bound.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stopped = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let top = pass_frontier(&start, &goal, &h, 31, 4, &limits).unwrap();
    match pass_subtrees(&start, &goal, &h, 31, &top.paths, &stopped) {
        Err(SearchError::TimeLimit { lower_bound, .. }) => assert_eq!(lower_bound, 31),
        other => panic!("expected a stop, found {other:?}"),
    }
}
