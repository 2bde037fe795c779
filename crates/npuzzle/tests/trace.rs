//! Watching a search (`Limits::trace`): what the breadth-first searches, A* and IDA* tell
//! step by step agrees with the oracle's layers and with the searches' own counts.

mod common;

use std::sync::{Arc, Mutex};

use npuzzle::limits::{Trace, TraceHook};
use npuzzle::{astar, bfs, bibfs, idastar, iddfs, Board, HeuristicKind, Limits};

/// What a trace told, owned.
#[derive(Debug, Clone, PartialEq)]
enum Told {
    Layer {
        side: u8,
        depth: u32,
        states: u64,
        expanded: u64,
    },
    Expand {
        cells: Vec<u8>,
        g: u32,
        h: u32,
        open: Vec<(u32, u64)>,
        expanded: u64,
    },
    Pass {
        threshold: u32,
        expanded: u64,
        next: Option<u32>,
    },
}

fn watched() -> (Limits, Arc<Mutex<Vec<Told>>>) {
    let told = Arc::new(Mutex::new(Vec::new()));
    let heard = told.clone();
    let hook: TraceHook = Arc::new(move |t: &Trace<'_>| {
        let owned = match *t {
            Trace::Layer {
                side,
                depth,
                states,
                expanded,
                ..
            } => Told::Layer {
                side,
                depth,
                states,
                expanded,
            },
            Trace::Expand {
                cells,
                g,
                h,
                open,
                expanded,
            } => Told::Expand {
                cells: cells.to_vec(),
                g,
                h,
                open: open.to_vec(),
                expanded,
            },
            Trace::Pass {
                threshold,
                expanded,
                next,
            } => Told::Pass {
                threshold,
                expanded,
                next,
            },
            _ => return,
        };
        heard.lock().unwrap().push(owned);
    });
    (
        Limits {
            trace: Some(hook),
            ..Limits::default()
        },
        told,
    )
}

const BOARDS: [&str; 4] = [
    "8 6 7/2 5 4/3 0 1",
    "8 1 3/4 0 2/7 6 5",
    "1 2 3/4 0 5/6 7 8",
    "3 1 2/4 0 5",
];

/// BFS tells each layer: exactly the boards at that many moves from the start (the oracle's
/// count), the last one as far as it grew when the goal was met at the solution's length.
#[test]
fn bfs_tells_its_layers_as_the_oracle_counts_them() {
    for text in BOARDS {
        let start: Board = text.parse().unwrap();
        let goal = Board::solved(start.size());
        let from_start = common::distances(&start);
        let (limits, told) = watched();
        let sol = bfs(&start, &goal, &limits).unwrap();
        let told = told.lock().unwrap().clone();
        let layers: Vec<(u32, u64)> = told
            .iter()
            .map(|t| match t {
                Told::Layer {
                    side: 0,
                    depth,
                    states,
                    ..
                } => (*depth, *states),
                other => panic!("{other:?}"),
            })
            .collect();
        let len = sol.len() as u32;
        assert_eq!(layers.last().unwrap().0, len, "{text}");
        for &(depth, states) in &layers {
            let exact = from_start.values().filter(|&&d| d == depth).count() as u64;
            if depth < len {
                assert_eq!(states, exact, "{text}: depth {depth}");
            } else {
                assert!(states >= 1 && states <= exact, "{text}: depth {depth}");
            }
        }
        let Told::Layer { expanded, .. } = told.last().unwrap() else {
            unreachable!()
        };
        assert_eq!(*expanded, sol.stats.expanded, "{text}");
    }
}

/// Bidirectional BFS tells both halves' layers; their depths add up to the solution's
/// length where they meet.
#[test]
fn bibfs_tells_both_halves_meeting() {
    for text in BOARDS {
        let start: Board = text.parse().unwrap();
        let goal = Board::solved(start.size());
        let (limits, told) = watched();
        let sol = bibfs(&start, &goal, &limits).unwrap();
        let told = told.lock().unwrap().clone();
        let deepest = |s: u8| {
            told.iter()
                .filter_map(|t| match t {
                    Told::Layer { side, depth, .. } if *side == s => Some(*depth),
                    _ => None,
                })
                .max()
                .unwrap()
        };
        assert_eq!(deepest(0) + deepest(1), sol.len() as u32, "{text}");
        let from_goal = common::distances(&goal);
        for t in &told {
            if let Told::Layer {
                side: 1,
                depth,
                states,
                ..
            } = t
            {
                let exact = from_goal.values().filter(|&&d| d == *depth).count() as u64;
                assert!(*states <= exact && *states >= 1, "{text}: {t:?}");
            }
        }
    }
}

/// A* tells every expansion: as many as it counts, each board at g moves from the start
/// (the oracle's distance at most g), h the heuristic's estimate, f never falling (the
/// heuristics are consistent), and the open list's counts by f.
#[test]
fn astar_tells_every_expansion() {
    for text in BOARDS {
        let start: Board = text.parse().unwrap();
        let goal = Board::solved(start.size());
        let from_start = common::distances(&start);
        for kind in [HeuristicKind::Manhattan, HeuristicKind::Misplaced] {
            let (limits, told) = watched();
            let sol = astar(&start, &goal, kind, &limits).unwrap();
            let told = told.lock().unwrap().clone();
            assert_eq!(told.len() as u64, sol.stats.expanded, "{text}");
            let mut last_f = 0;
            for (i, t) in told.iter().enumerate() {
                let Told::Expand {
                    cells,
                    g,
                    h: est,
                    open,
                    expanded,
                } = t
                else {
                    panic!("{t:?}")
                };
                let board = Board::from_cells(start.size(), cells.clone()).unwrap();
                assert!(from_start[&board] <= *g, "{text}: {board} at g {g}");
                assert_eq!(Some(*est), kind.estimate(&board, &goal), "{text}: {board}");
                assert!(g + est >= last_f, "{text}: f fell");
                last_f = g + est;
                assert_eq!(*expanded, i as u64 + 1);
                assert!(open.windows(2).all(|w| w[0].0 < w[1].0), "{open:?}");
                // Nothing waits below the f being expanded (a consistent estimate).
                assert!(
                    open.first().is_none_or(|&(f, _)| f >= last_f),
                    "{text}: {open:?} at {last_f}"
                );
            }
        }
    }
}

/// IDA* and IDDFS tell each pass: thresholds rising by two (the solutions' parity) to the
/// solution's length, the passes' nodes adding up to the search's count.
#[test]
fn idastar_and_iddfs_tell_their_passes() {
    for text in BOARDS {
        let start: Board = text.parse().unwrap();
        let goal = Board::solved(start.size());
        for run in 0..2 {
            let (limits, told) = watched();
            let sol = if run == 0 {
                idastar(&start, &goal, HeuristicKind::LinearConflict, &limits).unwrap()
            } else {
                iddfs(&start, &goal, &limits).unwrap()
            };
            let told = told.lock().unwrap().clone();
            let passes: Vec<(u32, u64, Option<u32>)> = told
                .iter()
                .map(|t| match t {
                    Told::Pass {
                        threshold,
                        expanded,
                        next,
                    } => (*threshold, *expanded, *next),
                    other => panic!("{other:?}"),
                })
                .collect();
            assert_eq!(passes.last().unwrap().0, sol.len() as u32, "{text}");
            assert_eq!(passes.last().unwrap().2, None);
            assert!(
                passes.windows(2).all(|w| w[1].0 == w[0].2.unwrap()
                    && w[1].0 > w[0].0
                    && (w[1].0 - w[0].0) % 2 == 0),
                "{passes:?}"
            );
            assert_eq!(
                passes.iter().map(|p| p.1).sum::<u64>(),
                sol.stats.expanded,
                "{text}"
            );
        }
    }
}

/// Without a hook nothing is told, and the answers are the same.
#[test]
fn unwatched_searches_answer_alike() {
    let start: Board = BOARDS[0].parse().unwrap();
    let goal = Board::solved(start.size());
    let (limits, _) = watched();
    let a = astar(&start, &goal, HeuristicKind::Manhattan, &limits).unwrap();
    let b = astar(&start, &goal, HeuristicKind::Manhattan, &Limits::default()).unwrap();
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.stats.expanded, b.stats.expanded);
}
