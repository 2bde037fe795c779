//! Every search checked against the plain BFS oracle in `common.rs`.

mod common;

use common::{all_boards, distances, reaches};
use npuzzle::{
    is_solvable, solve, Algorithm, Board, Core, DistanceTable, HeuristicKind, Limits, Request,
    SearchError, Size, Sources,
};

fn goal3() -> Board {
    Board::solved(Size::square(3).unwrap())
}

#[test]
fn parity_agrees_with_reachability_on_every_small_arrangement() {
    for (w, h) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let goal = Board::solved(Size::new(w, h).unwrap());
        let dist = distances(&goal);
        let all = all_boards(w, h);
        for b in &all {
            assert_eq!(is_solvable(b, &goal).unwrap(), dist.contains_key(b), "{b}");
        }
        assert_eq!(dist.len() * 2, all.len(), "{w}x{h}: half the arrangements");
    }
    // A goal with the blank elsewhere.
    let goal: Board = "1 2 3/8 0 4/7 6 5".parse().unwrap();
    let dist = distances(&goal);
    for b in all_boards(3, 3) {
        assert_eq!(is_solvable(&b, &goal).unwrap(), dist.contains_key(&b));
    }
}

#[test]
fn the_table_and_the_core_agree_with_the_oracle_on_every_3x3_state() {
    let goal = goal3();
    let dist = distances(&goal);
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().max(), Some(&31));
    let table = DistanceTable::build(&goal, &Limits::default()).unwrap();
    // The solving core, as every face asks it: auto, nothing given.
    let core = Core::new(Sources::default());
    let ask = Request::default();
    let (mut solvable, mut unsolvable) = (0, 0);
    for b in all_boards(3, 3) {
        match dist.get(&b) {
            Some(&d) => {
                solvable += 1;
                assert_eq!(table.distance(&b), Some(d), "{b}");
                let s = table.solve(&b).unwrap();
                assert_eq!(s.len() as u32, d, "{b}");
                assert!(reaches(&b, &s.moves, &goal), "{b}");
                let a = core.answer(&b, &ask).unwrap();
                assert_eq!(a.moves.len() as u32, d, "{b}");
                assert_eq!(a.report.optimal, Some(true), "{b}");
                assert!(reaches(&b, &a.moves, &goal), "{b}");
            }
            None => {
                unsolvable += 1;
                assert_eq!(table.distance(&b), None);
                assert_eq!(table.solve(&b).unwrap_err(), SearchError::Unsolvable);
                let a = core.answer(&b, &ask).unwrap();
                assert!(!a.report.solvable && a.moves.is_empty(), "{b}");
            }
        }
    }
    assert_eq!((solvable, unsolvable), (181_440, 181_440));
}

/// Up to `per_depth` boards of each depth, spread over the state space.
fn sample(dist: &std::collections::HashMap<Board, u32>, per_depth: usize) -> Vec<(Board, u32)> {
    let mut boards: Vec<(Board, u32)> = dist.iter().map(|(b, &d)| (b.clone(), d)).collect();
    boards.sort_by_key(|(b, _)| {
        // A fixed scramble of the order, independent of the hash map's.
        b.cells().iter().fold(0xcbf29ce484222325u64, |h, &c| {
            (h ^ c as u64).wrapping_mul(0x100000001b3)
        })
    });
    let max = boards.iter().map(|b| b.1).max().unwrap();
    let mut out = Vec::new();
    for d in 0..=max {
        out.extend(boards.iter().filter(|b| b.1 == d).take(per_depth).cloned());
    }
    out
}

fn check(algo: Algorithm, heuristic: HeuristicKind, cases: &[(Board, u32)], goal: &Board) {
    for (b, d) in cases {
        let s = solve(b, goal, algo, heuristic, &Limits::default())
            .unwrap_or_else(|e| panic!("{algo} {heuristic} on {b}: {e}"));
        assert_eq!(s.len() as u32, *d, "{algo} {heuristic} on {b}");
        assert!(reaches(b, &s.moves, goal), "{algo} {heuristic} on {b}");
    }
}

#[test]
fn every_algorithm_agrees_with_the_oracle_at_every_3x3_depth() {
    let goal = goal3();
    let dist = distances(&goal);
    let cases = sample(&dist, 3);
    assert_eq!(cases.iter().map(|c| c.1).max(), Some(31));
    assert!(cases.iter().any(|c| c.1 == 0));
    for algo in [
        Algorithm::Bfs,
        Algorithm::Bibfs,
        Algorithm::Table,
        Algorithm::Auto,
    ] {
        check(algo, HeuristicKind::Manhattan, &cases, &goal);
    }
    for h in HeuristicKind::ALL {
        check(Algorithm::Astar, h, &cases, &goal);
    }
    for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
        check(Algorithm::Idastar, h, &cases, &goal);
    }
    let shallow: Vec<_> = cases.iter().filter(|c| c.1 <= 22).cloned().collect();
    check(
        Algorithm::Idastar,
        HeuristicKind::Misplaced,
        &shallow,
        &goal,
    );
    let shallow: Vec<_> = cases.iter().filter(|c| c.1 <= 14).cloned().collect();
    check(Algorithm::Iddfs, HeuristicKind::Manhattan, &shallow, &goal);
}

#[test]
fn every_algorithm_agrees_with_the_oracle_on_every_small_board() {
    for (w, h) in [(2, 2), (2, 3), (3, 2)] {
        let goal = Board::solved(Size::new(w, h).unwrap());
        let dist = distances(&goal);
        let cases: Vec<(Board, u32)> = dist.iter().map(|(b, &d)| (b.clone(), d)).collect();
        for algo in Algorithm::ALL {
            check(algo, HeuristicKind::LinearConflict, &cases, &goal);
        }
        check(Algorithm::Astar, HeuristicKind::Misplaced, &cases, &goal);
        check(Algorithm::Idastar, HeuristicKind::Manhattan, &cases, &goal);
    }
}

#[test]
fn goals_with_the_blank_elsewhere() {
    for goal in ["1 2 3/8 0 4/7 6 5", "0 1 2/3 4 5/6 7 8"] {
        let goal: Board = goal.parse().unwrap();
        let dist = distances(&goal);
        let cases = sample(&dist, 2);
        for algo in Algorithm::ALL {
            if algo != Algorithm::Iddfs {
                check(algo, HeuristicKind::LinearConflict, &cases, &goal);
            }
        }
    }
    // 2x4 and 4x2 with a scrambled goal.
    for goal in ["7 6 5 4/3 2 1 0", "0 1/2 3/4 5/6 7"] {
        let goal: Board = goal.parse().unwrap();
        let dist = distances(&goal);
        let cases = sample(&dist, 2);
        check(Algorithm::Bibfs, HeuristicKind::Manhattan, &cases, &goal);
        check(
            Algorithm::Idastar,
            HeuristicKind::LinearConflict,
            &cases,
            &goal,
        );
        check(
            Algorithm::Table,
            HeuristicKind::LinearConflict,
            &cases,
            &goal,
        );
    }
}

#[test]
fn heuristics_never_exceed_the_true_distance() {
    for goal in ["1 2 3/4 5 6/7 8 0", "1 2 3/8 0 4/7 6 5"] {
        let goal: Board = goal.parse().unwrap();
        for (b, d) in distances(&goal) {
            for h in HeuristicKind::ALL {
                assert!(h.estimate(&b, &goal).unwrap() <= d, "{h} on {b}");
            }
        }
    }
}

#[test]
fn larger_boards_solve_with_idastar_and_astar() {
    // Random walks of known bounded length on 4x4 and 5x5; the optimal length is checked
    // by two different algorithms agreeing.
    let start: Board = "1 2 3 4/5 6 0 8/9 10 7 11/13 14 15 12".parse().unwrap();
    let goal = Board::solved(start.size());
    let a = solve(
        &start,
        &goal,
        Algorithm::Idastar,
        HeuristicKind::LinearConflict,
        &Limits::default(),
    )
    .unwrap();
    let b = solve(
        &start,
        &goal,
        Algorithm::Astar,
        HeuristicKind::Manhattan,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(a.len(), 3);
    assert_eq!(b.len(), 3);
    let start: Board = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 0 19/21 22 23 24 20"
        .parse()
        .unwrap();
    let goal = Board::solved(start.size());
    let a = solve(
        &start,
        &goal,
        Algorithm::Idastar,
        HeuristicKind::LinearConflict,
        &Limits::default(),
    )
    .unwrap();
    let b = solve(
        &start,
        &goal,
        Algorithm::Astar,
        HeuristicKind::LinearConflict,
        &Limits::default(),
    )
    .unwrap();
    assert!(reaches(&start, &a.moves, &goal));
    assert!(reaches(&start, &b.moves, &goal));
    assert_eq!((a.len(), b.len()), (2, 2));
}

#[test]
fn limits_stop_searches_cleanly() {
    let start: Board = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0".parse().unwrap();
    let goal = Board::solved(start.size());
    let e = solve(
        &start,
        &goal,
        Algorithm::Bfs,
        HeuristicKind::Manhattan,
        &Limits::default(),
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("bfs on 4x4 needs about")
            && msg.contains("; idastar needs far less")
            && !msg.contains("--algo"),
        "{msg}"
    );
    let limits = Limits {
        time_limit: Some(std::time::Duration::from_millis(50)),
        ..Limits::default()
    };
    match solve(
        &start,
        &goal,
        Algorithm::Idastar,
        HeuristicKind::Manhattan,
        &limits,
    ) {
        Err(SearchError::TimeLimit { lower_bound, .. }) => assert!(lower_bound >= 40),
        other => panic!("expected a time limit, got {other:?}"),
    }
    let small = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    match solve(
        &start,
        &goal,
        Algorithm::Astar,
        HeuristicKind::Manhattan,
        &small,
    ) {
        Err(SearchError::MemoryLimit { .. }) => {}
        other => panic!("expected a memory limit, got {other:?}"),
    }
}

#[test]
fn a_node_budget_stops_every_search_near_it() {
    // A deep 3x3 board (31 moves): each search needs far more than 2^14 nodes without
    // a budget, and stops within a few thousand nodes of it with one.
    let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
    let goal = goal3();
    let budget = 1 << 14;
    let limits = Limits {
        max_nodes: Some(budget),
        ..Limits::default()
    };
    for algo in [
        Algorithm::Bfs,
        Algorithm::Astar,
        Algorithm::Iddfs,
        Algorithm::Idastar,
    ] {
        let free = solve(
            &start,
            &goal,
            algo,
            HeuristicKind::Misplaced,
            &Limits::default(),
        )
        .unwrap();
        assert!(
            free.stats.expanded > 2 * budget,
            "{algo}: {}",
            free.stats.expanded
        );
        match solve(&start, &goal, algo, HeuristicKind::Misplaced, &limits) {
            Err(SearchError::TimeLimit { expanded, .. }) => {
                assert!(
                    expanded >= budget && expanded < budget + (1 << 16),
                    "{algo}: {expanded}"
                )
            }
            other => panic!("{algo}: expected the budget to stop it, got {other:?}"),
        }
    }
    // Bidirectional BFS needs about 10,000 nodes on that board; a random 4x3 board takes
    // far more.
    let goal4 = Board::solved(npuzzle::Size::new(4, 3).unwrap());
    let deep = npuzzle::scramble::uniform(&goal4, &mut npuzzle::scramble::Rng::new(1));
    match solve(
        &deep,
        &goal4,
        Algorithm::Bibfs,
        HeuristicKind::Misplaced,
        &limits,
    ) {
        Err(SearchError::TimeLimit { expanded, .. }) => {
            assert!(
                expanded >= budget && expanded < budget + (1 << 16),
                "bibfs: {expanded}"
            )
        }
        other => panic!("bibfs: expected the budget to stop it, got {other:?}"),
    }
}

#[test]
fn all_optimal_solutions_match_a_count_by_the_oracle() {
    // The number of shortest paths to the goal, by dynamic programming over the oracle's
    // distances, for a sample of boards; idastar_all must list exactly that many, all
    // distinct and all legal.
    let goal = goal3();
    let dist = distances(&goal);
    let mut ways: std::collections::HashMap<Board, u64> = std::collections::HashMap::new();
    let mut by_depth: Vec<(&Board, u32)> = dist.iter().map(|(b, &d)| (b, d)).collect();
    by_depth.sort_by_key(|&(_, d)| d);
    for &(b, d) in &by_depth {
        let w = if d == 0 {
            1
        } else {
            npuzzle::Direction::ALL
                .iter()
                .filter_map(|&m| {
                    let mut c = b.clone();
                    c.apply(m).ok()?;
                    (dist[&c] + 1 == d).then(|| ways[&c])
                })
                .sum()
        };
        ways.insert(b.clone(), w);
    }
    for (b, d) in sample(&dist, 1).into_iter().filter(|c| c.1 <= 24) {
        let (all, _) = npuzzle::search::idastar_all(
            &b,
            &goal,
            HeuristicKind::LinearConflict,
            &Limits::default(),
            usize::MAX,
        )
        .unwrap();
        assert_eq!(all.len() as u64, ways[&b], "{b}");
        let mut uniq = all.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), all.len());
        assert!(all
            .iter()
            .all(|m| m.len() as u32 == d && reaches(&b, m, &goal)));
    }
}

#[test]
fn weighted_searches_stay_within_their_weight() {
    // Every 3x3 board at every depth (a sample of 40 per depth), weights 1, 1.2, 1.5, 2:
    // weighted IDA*, weighted A* and weighted database IDA* (one and two threads) reach
    // the goal within the weight times the BFS distance; weight 1 is exact.
    let goal = Board::solved(Size::square(3).unwrap());
    let limits = Limits::default();
    let pdbs = npuzzle::heuristic::pdb::PdbHeuristic::new(
        &goal,
        vec![
            npuzzle::heuristic::pdb::PatternDb::build(
                &goal,
                &[1, 2, 3, 4],
                &limits,
                1,
                &mut |_| {},
            )
            .unwrap(),
            npuzzle::heuristic::pdb::PatternDb::build(
                &goal,
                &[5, 6, 7, 8],
                &limits,
                1,
                &mut |_| {},
            )
            .unwrap(),
        ],
    )
    .unwrap();
    let dist = common::distances(&goal);
    let mut by_depth: std::collections::BTreeMap<u32, Vec<&Board>> = Default::default();
    for (b, &d) in &dist {
        let v = by_depth.entry(d).or_default();
        if v.len() < 40 {
            v.push(b);
        }
    }
    for w in [1.0, 1.2, 1.5, 2.0] {
        for (&d, boards) in &by_depth {
            for &b in boards {
                let ida = npuzzle::search::idastar_weighted(
                    b,
                    &goal,
                    HeuristicKind::LinearConflict,
                    w,
                    &Limits::default(),
                )
                .unwrap();
                let astar = npuzzle::search::astar_weighted(
                    b,
                    &goal,
                    HeuristicKind::Manhattan,
                    w,
                    &Limits::default(),
                )
                .unwrap();
                let pdb = npuzzle::search::idastar_pdb_weighted(
                    b,
                    &goal,
                    &pdbs,
                    w,
                    &Limits::default(),
                    1 + (d as usize % 2),
                )
                .unwrap();
                for (name, s) in [("idastar", &ida), ("astar", &astar), ("pdb", &pdb)] {
                    assert!(common::reaches(b, &s.moves, &goal), "{name} {b}");
                    assert!(
                        s.len() as f64 <= w * d as f64,
                        "{name} {b}: {} > {w} x {d}",
                        s.len()
                    );
                    if w == 1.0 {
                        assert_eq!(s.len() as u32, d, "{name} {b}");
                    }
                }
            }
        }
    }
    assert!(npuzzle::search::idastar_weighted(
        &goal,
        &goal,
        HeuristicKind::Manhattan,
        0.5,
        &Limits::default()
    )
    .is_err());
}
