//! Whole-space analysis against the oracle and the published results.

mod common;

use common::{all_boards, distances};
use npuzzle::analysis::analyze;
use npuzzle::{Board, Limits, Size};

fn histogram_of(goal: &Board, threads: usize) -> Vec<u64> {
    analyze(goal, &Limits::default(), threads, 0, &mut |_| {})
        .unwrap()
        .histogram()
        .to_vec()
}

fn oracle_histogram(goal: &Board) -> Vec<u64> {
    let dist = distances(goal);
    let max = *dist.values().max().unwrap() as usize;
    let mut h = vec![0u64; max + 1];
    for d in dist.values() {
        h[*d as usize] += 1;
    }
    h
}

#[test]
fn the_3x3_distribution_is_the_published_one() {
    // Reinefeld (1993); OEIS A089473.
    let published = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    let goal = Board::solved(Size::square(3).unwrap());
    let a = analyze(&goal, &Limits::default(), 0, 10, &mut |_| {}).unwrap();
    assert_eq!(a.histogram(), published);
    assert_eq!(a.histogram(), oracle_histogram(&goal));
    assert_eq!((a.states(), a.max_depth()), (181_440, 31));
    let mut far: Vec<String> = a.antipodes.iter().map(|b| b.to_string()).collect();
    far.sort();
    assert_eq!(far, ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]);
}

#[test]
fn small_maxima_and_transposed_sizes() {
    for (w, h, max) in [(2, 2, 6), (2, 3, 21), (2, 4, 36)] {
        let goal = Board::solved(Size::new(w, h).unwrap());
        let hist = histogram_of(&goal, 1);
        assert_eq!(hist.len() - 1, max, "{w}x{h}");
        assert_eq!(hist, oracle_histogram(&goal), "{w}x{h}");
        let t = histogram_of(&Board::solved(Size::new(h, w).unwrap()), 1);
        assert_eq!(hist, t, "{w}x{h} and {h}x{w}");
    }
    // 2x5 and 5x2 (1.8 million states), on all cores and on one.
    let a = histogram_of(&Board::solved(Size::new(2, 5).unwrap()), 0);
    let b = histogram_of(&Board::solved(Size::new(5, 2).unwrap()), 1);
    assert_eq!(a, b);
    assert_eq!(a.iter().sum::<u64>(), 1_814_400);
}

#[test]
fn goals_with_the_blank_elsewhere_match_the_oracle() {
    for goal in ["1 2 3/8 0 4/7 6 5", "0 1 2/3 4 5/6 7 8", "5 0/3 1/4 2"] {
        let goal: Board = goal.parse().unwrap();
        assert_eq!(histogram_of(&goal, 1), oracle_histogram(&goal), "{goal}");
    }
    let goal = Board::parse("3 1 2 0 4 5 6 7", Some(Size::new(4, 2).unwrap())).unwrap();
    assert_eq!(histogram_of(&goal, 1), oracle_histogram(&goal));
}

#[test]
fn the_table_answers_every_state_like_the_oracle_for_another_goal() {
    let goal: Board = "1 2 3/8 0 4/7 6 5".parse().unwrap();
    let dist = distances(&goal);
    let table = analyze(&goal, &Limits::default(), 1, 0, &mut |_| {})
        .unwrap()
        .table;
    for b in all_boards(3, 3) {
        assert_eq!(table.distance(&b), dist.get(&b).copied(), "{b}");
    }
}

#[test]
fn memory_is_checked_before_starting() {
    let goal = Board::solved(Size::square(4).unwrap());
    let e = analyze(&goal, &Limits::default(), 0, 0, &mut |_| {}).unwrap_err();
    assert!(
        e.to_string().starts_with("analyze on 4x4 needs about"),
        "{e}"
    );
    let small = Limits {
        max_memory: 256 << 10,
        ..Limits::default()
    };
    let goal = Board::solved(Size::new(2, 5).unwrap());
    assert!(analyze(&goal, &small, 0, 0, &mut |_| {}).is_err());
}

/// The 12-cell sizes take about 10 s each in release builds: run with
/// `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn twelve_cells_maxima_and_transposes() {
    for (w, h, max) in [(3, 4, 53), (2, 6, 80)] {
        let a = histogram_of(&Board::solved(Size::new(w, h).unwrap()), 0);
        let b = histogram_of(&Board::solved(Size::new(h, w).unwrap()), 0);
        assert_eq!(a.len() - 1, max, "{w}x{h}");
        assert_eq!(a, b);
        assert_eq!(a.iter().sum::<u64>(), 239_500_800);
    }
}

/// Distances in multi-tile moves by a plain BFS over boards: from each board, in each
/// direction, one tile, two, ... as far as they go.
fn mtm_histogram_by_bfs(goal: &npuzzle::Board) -> Vec<u64> {
    use std::collections::{HashMap, VecDeque};
    let mut dist: HashMap<npuzzle::Board, u32> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal.clone(), 0);
    queue.push_back(goal.clone());
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for dir in npuzzle::Direction::ALL {
            let mut c = b.clone();
            while c.apply(dir).is_ok() {
                if !dist.contains_key(&c) {
                    dist.insert(c.clone(), d + 1);
                    queue.push_back(c.clone());
                }
            }
        }
    }
    let max = *dist.values().max().unwrap() as usize;
    let mut h = vec![0u64; max + 1];
    for &d in dist.values() {
        h[d as usize] += 1;
    }
    h
}

#[test]
fn multi_tile_histograms_match_a_plain_bfs() {
    for (goal, size) in [
        ("1 2 3/4 5 0", None),
        ("1 2/3 4/5 0", None),
        ("1 2 3/4 5 6/7 8 0", None),
        ("1 2 3/8 0 4/7 6 5", None),
        ("0 1 2 3 4 5 6 7", Some("4x2")),
    ] {
        let goal = npuzzle::Board::parse(goal, size.map(|s| s.parse().unwrap())).unwrap();
        let a =
            npuzzle::analysis::analyze_mtm(&goal, &npuzzle::Limits::default(), 0, 3, &mut |_| {})
                .unwrap();
        assert_eq!(a.histogram, mtm_histogram_by_bfs(&goal), "{goal}");
        assert!(!a.antipodes.is_empty());
    }
}
