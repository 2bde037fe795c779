//! Each search on 3x3 boards at depths 10, 20 and 31, plus the distance table's build and
//! a batch solved through it. Run with `cargo bench -p npuzzle-bench`.

#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use npuzzle::{solve, Algorithm, Board, DistanceTable, HeuristicKind, Limits};

/// Boards at depths 10, 20 and 31 from the goal 1 2 3/4 5 6/7 8 0 (lengths checked below).
const BOARDS: [(u32, &str); 3] = [
    (10, "1 6 2/5 7 3/0 4 8"),
    (20, "3 6 0/1 5 7/8 2 4"),
    (31, "8 6 7/2 5 4/3 0 1"),
];

fn searches(c: &mut Criterion) {
    let limits = Limits::default();
    let mut group = c.benchmark_group("3x3");
    group.sample_size(10);
    for (depth, text) in BOARDS {
        let start: Board = text.parse().unwrap();
        let goal = Board::solved(start.size());
        let runs: Vec<(Algorithm, HeuristicKind, &str)> = vec![
            (Algorithm::Bfs, HeuristicKind::Manhattan, "bfs"),
            (Algorithm::Bibfs, HeuristicKind::Manhattan, "bibfs"),
            (
                Algorithm::Astar,
                HeuristicKind::Manhattan,
                "astar-manhattan",
            ),
            (
                Algorithm::Astar,
                HeuristicKind::LinearConflict,
                "astar-linear-conflict",
            ),
            (
                Algorithm::Idastar,
                HeuristicKind::Manhattan,
                "idastar-manhattan",
            ),
            (
                Algorithm::Idastar,
                HeuristicKind::LinearConflict,
                "idastar-linear-conflict",
            ),
            (Algorithm::Iddfs, HeuristicKind::Manhattan, "iddfs"),
            (
                Algorithm::Table,
                HeuristicKind::Manhattan,
                "table-build-and-solve",
            ),
        ];
        for (algo, h, name) in runs {
            if algo == Algorithm::Iddfs && depth > 20 {
                continue; // seconds per run at 31: see `npuzzle compare`.
            }
            let s = solve(&start, &goal, algo, h, &limits).unwrap();
            assert_eq!(s.len() as u32, depth, "{name} on {text}");
            group.bench_with_input(BenchmarkId::new(name, depth), &start, |b, start| {
                b.iter(|| solve(start, &goal, algo, h, &limits).unwrap())
            });
        }
    }
    let goal = Board::solved("3x3".parse().unwrap());
    let table = DistanceTable::build(&goal, &limits).unwrap();
    for (depth, text) in BOARDS {
        let start: Board = text.parse().unwrap();
        group.bench_with_input(
            BenchmarkId::new("table-solve-only", depth),
            &start,
            |b, s| b.iter(|| table.solve(s).unwrap()),
        );
    }
    group.bench_function("table-build", |b| {
        b.iter(|| DistanceTable::build(&goal, &limits).unwrap())
    });
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
