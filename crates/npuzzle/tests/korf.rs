//! Korf's 15-puzzle instances against their published optimal lengths.

use npuzzle::heuristic::pdb::PdbHeuristic;
use npuzzle::heuristic::pdb::{partition, PatternDb};
use npuzzle::search::{idastar_pdb, idastar_pdb_parallel};
use npuzzle::{Board, Limits, Size};

/// (id, board, optimal length) from testdata/korf100.txt; goal 0 1 2 ... 15.
fn korf100() -> Vec<(u32, Board, u32)> {
    let text = include_str!("../../../testdata/korf100.txt");
    let size = Size::square(4).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            let cells = v[1..17].iter().map(|&c| c as u8).collect();
            (v[0], Board::from_cells(size, cells).unwrap(), v[17])
        })
        .collect()
}

fn goal() -> Board {
    Board::from_cells(Size::square(4).unwrap(), (0..16).collect()).unwrap()
}

fn heuristic(spec: &str) -> PdbHeuristic {
    let goal = goal();
    let limits = Limits::default();
    let dbs = partition(&goal, spec)
        .unwrap()
        .iter()
        .map(|tiles| PatternDb::build(&goal, tiles, &limits, 0, &mut |_| {}).unwrap())
        .collect();
    PdbHeuristic::new(&goal, dbs).unwrap()
}

#[test]
fn the_file_sums_to_the_published_total() {
    let set = korf100();
    assert_eq!(set.len(), 100);
    assert_eq!(set.iter().map(|s| s.2).sum::<u32>(), 5305);
}

/// With the small 5-5-5 databases (built in seconds), the quick instances.
#[test]
fn quick_instances_solve_optimally() {
    let h = heuristic("5-5-5");
    let goal = goal();
    let limits = Limits::default();
    for (id, board, optimal) in korf100()
        .into_iter()
        .filter(|k| [2, 4, 17, 79].contains(&k.0))
    {
        assert!(h.estimate(&board) <= optimal);
        let s = idastar_pdb(&board, &goal, &h, &limits).unwrap();
        assert_eq!(s.len() as u32, optimal, "instance {id}");
        // Two and three threads give one thread's answer, move for move, every time.
        for threads in [2, 3, 2, 3] {
            let p = idastar_pdb_parallel(&board, &goal, &h, &limits, threads).unwrap();
            assert_eq!(p.moves, s.moves, "instance {id}, {threads} threads");
        }
        let p = idastar_pdb_parallel(&board, &goal, &h, &limits, 2).unwrap();
        assert_eq!(p.len() as u32, optimal, "instance {id}, two threads");
        let mut b = board.clone();
        b.apply_all(&p.moves).unwrap();
        assert_eq!(b, goal);
    }
}

/// Instances whose passes give each thread a frontier of hundreds of nodes (the frontier
/// grows with the pass before): still one thread's answer, move for move.
#[test]
fn wide_frontiers_keep_one_threads_answer() {
    let h = heuristic("5-5-5");
    let goal = goal();
    let limits = Limits::default();
    for (id, board, optimal) in korf100().into_iter().filter(|k| [3, 63].contains(&k.0)) {
        let s = idastar_pdb(&board, &goal, &h, &limits).unwrap();
        assert_eq!(s.len() as u32, optimal, "instance {id}");
        assert!(s.stats.expanded > 2_000_000, "instance {id}: a big search");
        for threads in [2, 3] {
            let p = idastar_pdb_parallel(&board, &goal, &h, &limits, threads).unwrap();
            assert_eq!(p.moves, s.moves, "instance {id}, {threads} threads");
        }
    }
}

/// All 100 with the 7-8 databases (about 5 minutes to build, then about a second):
/// `cargo test --release -p npuzzle --test korf -- --ignored`.
#[test]
#[ignore]
fn all_hundred_with_seven_eight() {
    let h = heuristic("7-8");
    let goal = goal();
    for (id, board, optimal) in korf100() {
        let s = idastar_pdb(&board, &goal, &h, &Limits::default()).unwrap();
        assert_eq!(s.len() as u32, optimal, "instance {id}");
    }
}

/// A search's limits count from the start of the whole search, on every thread: weak
/// databases (pairs of tiles) leave Korf's instance 1 far out of reach, and the search
/// must give up as soon as its budget is spent, with the bound it proved.
#[test]
fn the_limits_hold_across_passes_and_threads() {
    let goal = goal();
    let pairs = "1,2/3,4/5,6/7,8/9,10/11,12/13,14/15";
    let h = heuristic(pairs);
    let (_, board, optimal) = korf100().into_iter().next().unwrap();
    // The node budget stops a search by the same checks as the clock (every 2^14 nodes a
    // thread), and unlike the clock it holds on any machine, however busy: the search
    // must give up within a check of the budget on each thread, not at the end of the
    // pass that was running (millions of nodes later with these weak databases).
    const BUDGET: u64 = 3_000_000;
    for threads in [1, 2] {
        let limits = Limits {
            max_nodes: Some(BUDGET),
            ..Limits::default()
        };
        let err = idastar_pdb_parallel(&board, &goal, &h, &limits, threads).unwrap_err();
        match err {
            npuzzle::SearchError::TimeLimit {
                lower_bound,
                expanded,
                ..
            } => {
                assert!(lower_bound <= optimal, "{lower_bound} > {optimal}");
                assert!(
                    expanded <= threads as u64 * (BUDGET + (1 << 14)),
                    "{threads} threads: stopped after {expanded} nodes"
                );
            }
            e => panic!("expected the budget to stop it, found {e}"),
        }
    }
}

/// Weighted database search and the fast solver on all of Korf's 100 (5-5-5 databases):
/// every answer reaches the goal, is at least the published optimum, and is within the
/// weight of it where a weight is promised.
#[test]
fn weighted_and_fast_answers_keep_their_promise_on_all_100() {
    let h = heuristic("5-5-5");
    let goal = goal();
    let limits = Limits::default();
    let reaches = |board: &Board, moves: &[npuzzle::Direction]| {
        let mut b = board.clone();
        b.apply_all(moves).is_ok() && b == goal
    };
    let (mut sum15, mut sum_fast) = (0, 0);
    for (id, board, optimal) in korf100() {
        let w = npuzzle::search::idastar_pdb_weighted(
            &board,
            &goal,
            &h,
            1.5,
            &limits,
            1 + id as usize % 2,
        )
        .unwrap();
        assert!(reaches(&board, &w.moves), "instance {id}");
        let len = w.len() as u32;
        assert!(
            len >= optimal && len as f64 <= 1.5 * optimal as f64,
            "instance {id}: {len} vs {optimal}"
        );
        sum15 += len;
        let f = npuzzle::search::fast_pdb(&board, &goal, &h, &limits).unwrap();
        assert!(reaches(&board, &f.solution.moves), "instance {id}");
        let len = f.solution.len() as u32;
        assert!(len >= optimal && f.lower_bound <= optimal, "instance {id}");
        if let Some(w) = f.weight {
            assert!(
                len as f64 <= w * optimal as f64,
                "instance {id}: {len} vs {optimal}"
            );
        }
        sum_fast += len;
    }
    assert!(sum15 >= 5305 && sum_fast >= 5305);
}
