//! The beams' tests.

use super::super::ranking::{Ranking, SampleOptions};
use super::anytime::*;
use super::keep::*;
use super::layer::*;
use super::run::*;
use super::samples::*;
use super::setup::*;
use super::staged::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::{PdbHeuristic, NONE};
use crate::heuristic::HeuristicKind;
use crate::heuristic::{Heuristic, LinearConflict};
use crate::limits::{Limits, Watch};
use crate::moves::Direction;
use crate::scramble::uniform;
use crate::scramble::Rng;

/// The estimate kept up move by move equals the one computed afresh, for every
/// subset of tracked tiles tried; with every tile tracked it is linear conflict.
#[test]
fn the_updated_estimate_is_the_fresh_one() {
    let mut rng = Rng::new(8);
    for shape in ["3x3", "5x4", "4x7", "9x9", "16x3"] {
        let goal = uniform(&Board::solved(shape.parse().unwrap()), &mut rng);
        let n = goal.cells().len();
        for part in 0..3 {
            let tracked: Vec<bool> = (0..n)
                .map(|t| t != 0 && (part == 0 || rng.below(part + 1) == 0))
                .collect();
            let setup = BeamSetup::new(&goal, tracked, vec![true; n], 1);
            let lc = LinearConflict::new(&goal);
            let mut b = uniform(&goal, &mut rng);
            let mut h = setup.estimate(b.cells());
            for _ in 0..500 {
                let before = b.cells().to_vec();
                let d = Direction::ALL[rng.below(4) as usize];
                let from = b.blank();
                if b.apply(d).is_err() {
                    continue;
                }
                let tile = b.cells()[from];
                h = setup.update(h, &before, b.cells(), tile, b.blank(), from);
                assert_eq!(h, setup.estimate(b.cells()), "{shape}");
                if part == 0 {
                    assert_eq!(h, lc.estimate(b.cells()), "{shape}");
                }
            }
        }
    }
}

/// On a line's beam the rest of the board's rank, kept up move by move, equals the one
/// worked out afresh; with every cell free it is the whole board's linear-conflict
/// estimate, and with the top row placed it counts only the tiles below it.
#[test]
fn the_rest_of_the_board_is_its_linear_conflict_estimate() {
    let mut rng = Rng::new(12);
    for shape in ["4x4", "7x5", "9x9", "16x3", "3x16"] {
        let goal = Board::solved(shape.parse().unwrap());
        let (n, w) = (goal.cells().len(), goal.size().width());
        let lc = LinearConflict::new(&goal);
        for top_placed in [false, true] {
            let free: Vec<bool> = (0..n).map(|c| !top_placed || c >= w).collect();
            let tracked: Vec<bool> = (0..n).map(|t| t != 0 && t <= 2 * w).collect();
            let setup = BeamSetup::new(&goal, tracked, free.clone(), 1);
            let mut cells = goal.cells().to_vec();
            let mut blank = goal.blank();
            let mut rest = setup.rest(&cells);
            assert_eq!(rest, 0, "{shape}");
            for _ in 0..3000 {
                let Some(to) = setup.target(blank, rng.below(4) as usize) else {
                    continue;
                };
                let before = cells.clone();
                let tile = cells[to];
                cells[blank] = tile;
                cells[to] = 0;
                rest = setup.update_rest(rest, &before, &cells, tile, to, blank);
                blank = to;
                assert_eq!(rest, setup.rest(&cells), "{shape}");
                if !top_placed {
                    assert_eq!(rest, lc.estimate(&cells), "{shape}");
                }
            }
            if top_placed {
                // The top row never moved; the rest is the estimate of the board below it.
                assert!((0..w).all(|c| cells[c] == goal.cells()[c]));
                let below = Board::from_cells(
                    crate::board::Size::new(w, n / w - 1).unwrap(),
                    cells[w..]
                        .iter()
                        .map(|&t| if t == 0 { 0 } else { t - w as u8 })
                        .collect(),
                )
                .unwrap();
                let below_goal = Board::solved(below.size());
                assert_eq!(
                    rest,
                    LinearConflict::new(&below_goal).estimate(below.cells()),
                    "{shape}"
                );
            }
        }
    }
}

/// Databases of `groups` for the usual goal of a `size` board, built here.
fn small_set(size: &str, groups: &[&[u8]]) -> PdbHeuristic {
    let goal = Board::solved(size.parse().unwrap());
    let dbs = groups
        .iter()
        .map(|t| {
            crate::heuristic::pdb::PatternDb::build(&goal, t, &Limits::default(), 0, &mut |_| {})
                .unwrap()
        })
        .collect();
    PdbHeuristic::new(&goal, dbs).unwrap()
}

/// A beam across the whole board of `set`'s size, ranked by it.
fn whole(set: &PdbHeuristic) -> BeamSetup<'_> {
    BeamSetup::whole_board(set.goal(), set).expect("the set's own goal")
}

/// The 4x4 set of the ranking tests.
fn set_4x4() -> PdbHeuristic {
    small_set(
        "4x4",
        &[
            &[1, 2, 3, 4],
            &[5, 6, 7, 8],
            &[9, 10, 11, 12],
            &[13, 14, 15],
        ],
    )
}

/// A learned ranking for `set` (a 4x4 one) with weights drawn at random.
fn random_ranking(set: &PdbHeuristic) -> Ranking {
    let lookups = set.side_dbs.iter().filter(|(d, _)| !d.is_empty()).count();
    let mut rng = Rng::new(5);
    let mut w = |k: usize| -> Vec<f32> {
        (0..k)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 2000.0)
            .collect()
    };
    Ranking::from_parts(
        "4x4".parse().unwrap(),
        set.dbs.iter().map(|d| d.tiles().to_vec()).collect(),
        lookups,
        0.3,
        w(16 * 16),
        w(lookups * 4 * super::super::ranking::ENTRY_SLOTS),
        [0.2, -0.1, 0.1, 0.3],
    )
    .unwrap()
}

/// Beams of width 64 of `plain` and of `learned` from each of `starts`: every answer
/// reaches `goal`; how many boards the two answered differently.
fn boards_answered_apart(
    plain: &BeamSetup,
    learned: &BeamSetup,
    goal: &Board,
    starts: impl Iterator<Item = Board>,
) -> usize {
    let (watch, nodes) = (Watch::new(&Limits::default()), NodeCount::default());
    let mut differ = 0;
    for (k, start) in starts.enumerate() {
        let mut answers = Vec::new();
        for setup in [plain, learned] {
            let BeamEnd::Found(m) =
                beam_run(setup, &start, 64, None, 1, &watch, &nodes, None).unwrap()
            else {
                panic!("board {k}: no answer");
            };
            let mut b = start.clone();
            b.apply_all(&m).unwrap();
            assert_eq!(&b, goal, "board {k}");
            answers.push(m);
        }
        differ += (answers[0] != answers[1]) as usize;
    }
    differ
}

/// A beam over the last 4x4 region of a 4x5 board (its top row solved), ranked by the
/// 4x4 set, takes the learned ranking too: its part kept move by move equals the one
/// worked out afresh on the region's cells (debug assertions), the beams reach the goal,
/// and the ranking changes which positions are kept.
#[test]
fn a_learned_ranking_ranks_a_last_region_too() {
    let set = set_4x4();
    let goal = Board::solved("4x5".parse().unwrap());
    let free: Vec<bool> = (0..20).map(|c| c >= 4).collect();
    let tracked: Vec<bool> = (0..20).map(|t| t >= 5).collect();
    let region = |ranked: bool| {
        let mut setup = BeamSetup::new(&goal, tracked.clone(), free.clone(), 0);
        assert!(setup.use_databases(&goal, &free, &[&set]));
        // (Only the shipped 6x6 and 7x7 rankings are taken on their own.)
        assert!(setup.ranking.is_none());
        if ranked {
            setup.ranking = Some(random_ranking(&set));
        }
        setup
    };
    let (plain, learned) = (region(false), region(true));
    let starts = (0..8).map(|seed| {
        // A 4x4 board's tiles moved down a row: tile u becomes u + 4.
        let small = uniform(set.goal(), &mut Rng::new(seed));
        let mut cells: Vec<u8> = (1..=4).collect();
        cells.extend(
            small
                .cells()
                .iter()
                .map(|&u| if u == 0 { 0 } else { u + 4 }),
        );
        Board::from_cells(goal.size(), cells).unwrap()
    });
    assert!(
        boards_answered_apart(&plain, &learned, &goal, starts) > 0,
        "the ranking changed no answer"
    );
}

/// With a learned ranking the beams still reach the goal, and its part kept move by
/// move equals the one worked out afresh (on every kept position: tests run with
/// debug assertions); it changes which positions are kept.
#[test]
fn a_learned_ranking_is_kept_up_and_the_beams_still_end() {
    let set = set_4x4();
    let ranking = random_ranking(&set);
    assert!(ranking.fits(&set));
    let plain = whole(&set);
    let mut learned = whole(&set);
    learned.ranking = Some(ranking);
    let starts = (0..8).map(|seed| uniform(set.goal(), &mut Rng::new(seed)));
    assert!(
        boards_answered_apart(&plain, &learned, set.goal(), starts) > 0,
        "the ranking changed no answer"
    );
    // Fitted for other databases: it does not fit.
    let other = small_set(
        "4x4",
        &[
            &[1, 2, 5, 6],
            &[3, 4, 7, 8],
            &[9, 10, 13, 14],
            &[11, 12, 15],
        ],
    );
    assert!(!learned.ranking.as_ref().unwrap().fits(&other));
}

/// Samples: as many a layer as asked, the same on every run, each label a length no
/// shorter than the shortest (breadth-first search) and of its parity, the estimates
/// lower bounds; bad options refused.
#[test]
fn ranking_samples_are_labelled_by_beams_from_them() {
    let set = small_set("3x3", &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    let goal = set.goal().clone();
    let options = SampleOptions {
        width: 16,
        per_layer: 2,
        label_width: 4,
        ranking: None,
    };
    for seed in 0..4 {
        let start = uniform(&goal, &mut Rng::new(100 + seed));
        let samples = ranking_samples(&start, &set, &options, 2).unwrap();
        assert_eq!(samples, ranking_samples(&start, &set, &options, 1).unwrap());
        let layers = samples.iter().map(|s| s.depth).max().unwrap();
        for d in 1..=layers {
            assert_eq!(
                samples.iter().filter(|s| s.depth == d).count(),
                2,
                "layer {d}"
            );
        }
        let mut labelled = 0;
        for s in &samples {
            let b = Board::from_cells(goal.size(), s.cells.clone()).unwrap();
            let best = super::super::bfs(&b, &goal, &Limits::default())
                .unwrap()
                .moves
                .len() as u32;
            for lookup in s.entries.chunks(set.dbs.len()) {
                assert!(lookup.iter().map(|&x| x as u32).sum::<u32>() <= best);
            }
            assert!(s.md <= s.lc && s.lc <= best);
            if let Some(l) = s.label {
                assert!(
                    l >= best && (l - best) % 2 == 0,
                    "label {l}, shortest {best}"
                );
                labelled += 1;
            }
        }
        assert!(labelled > samples.len() / 2);
    }
    let start = uniform(&goal, &mut Rng::new(1));
    for (o, field) in [
        (
            SampleOptions {
                width: 0,
                ..options.clone()
            },
            "width",
        ),
        (
            SampleOptions {
                label_width: 0,
                ..options.clone()
            },
            "label_width",
        ),
        (
            SampleOptions {
                per_layer: 0,
                ..options.clone()
            },
            "per_layer",
        ),
        (
            SampleOptions {
                per_layer: 65,
                ..options.clone()
            },
            "per_layer",
        ),
    ] {
        match ranking_samples(&start, &set, &o, 1) {
            Err(SearchError::BadRequest { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    let four = uniform(&Board::solved("4x4".parse().unwrap()), &mut Rng::new(1));
    match ranking_samples(&four, &set, &options, 1) {
        Err(SearchError::BadRequest { field, reason }) => {
            assert_eq!(field, "databases");
            assert!(reason.contains("3x3"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

/// Small databases for the usual 6x6 goal: groups of three tiles, in rows (`rows`) or
/// in columns.
fn small_6x6(rows: bool) -> PdbHeuristic {
    let order: Vec<u8> = (0..36u8)
        .map(|k| if rows { k } else { (k % 6) * 6 + k / 6 })
        .filter(|&c| c != 35)
        .map(|c| c + 1)
        .collect();
    small_set("6x6", &order.chunks(3).collect::<Vec<_>>())
}

/// The region's estimate kept up move by move (entries, indices asked for ahead)
/// equals the databases' own estimate of the region renamed to a 6x6 board, the
/// larger of two sets; the databases fit only a region of their size with the usual
/// goal's tiles.
#[test]
fn the_region_estimate_kept_up_is_the_databases_own() {
    let (a, b) = (small_6x6(true), small_6x6(false));
    let mut rng = Rng::new(81);
    for shape in ["6x6", "7x6", "6x9", "9x8"] {
        let size: crate::board::Size = shape.parse().unwrap();
        let goal = Board::solved(size);
        let (w, h) = (size.width(), size.height());
        let n = size.cells();
        let free: Vec<bool> = (0..n).map(|c| c % w >= w - 6 && c / w >= h - 6).collect();
        let tracked: Vec<bool> = (0..n)
            .map(|t| t != 0 && free[goal.cells().iter().position(|&x| x as usize == t).unwrap()])
            .collect();
        let mut setup = BeamSetup::new(&goal, tracked.clone(), free.clone(), 0);
        assert!(setup.use_databases(&goal, &free, &[&a, &b]), "{shape}");
        let r = setup.region.as_ref().unwrap();
        // The region renamed: its tiles by their goal cells in it.
        let renamed = |cells: &[u8]| -> Board {
            let region: Vec<u8> = r.cells.iter().map(|&c| r.tile[cells[c] as usize]).collect();
            Board::from_cells("6x6".parse().unwrap(), region).unwrap()
        };
        let mut cells = goal.cells().to_vec();
        let mut blank = goal.blank();
        let mut vals = r.all_entries(&cells);
        let mut words = r.words(&cells);
        for step in 0..3000 {
            let d = rng.below(4) as usize;
            let Some(to) = setup.target(blank, d) else {
                continue;
            };
            let tile = cells[to];
            cells[blank] = tile;
            cells[to] = 0;
            // The indices from the words kept move by move are the fresh ones.
            let idx = r.indices(&cells, tile);
            assert_eq!(r.moved(&words, tile, r.index_of[blank]), idx);
            r.move_words(&mut words, tile, r.index_of[blank]);
            assert_eq!(words, r.words(&cells), "{shape} step {step}");
            let (est, changed) = r.update(&vals, &r.sums(&vals), tile, &idx);
            let rt = r.tile[tile as usize] as usize;
            for (k, l) in r.lookups.iter().enumerate() {
                if l.owner[rt] != NONE {
                    vals[l.offset + l.owner[rt] as usize] = changed[k];
                }
            }
            blank = to;
            assert_eq!(vals, r.all_entries(&cells), "{shape} step {step}");
            let own = renamed(&cells);
            assert_eq!(
                est,
                a.estimate(&own).max(b.estimate(&own)),
                "{shape} step {step}"
            );
            assert_eq!(est, r.estimate(&vals));
            // Outside the region nothing moved.
            assert!((0..n).all(|c| free[c] || cells[c] == goal.cells()[c]));
        }
        // Databases of another size, or a region holding other tiles, do not fit.
        let mut other = BeamSetup::new(&goal, tracked.clone(), free.clone(), 0);
        let five = Board::solved("5x5".parse().unwrap());
        let small = crate::heuristic::pdb::PatternDb::build(
            &five,
            &[1, 2],
            &Limits::default(),
            0,
            &mut |_| {},
        )
        .unwrap();
        let five = PdbHeuristic::new(&five, vec![small]).unwrap();
        assert!(!other.use_databases(&goal, &free, &[&five]), "{shape}");
        let turned = uniform(&goal, &mut rng);
        let mut other = BeamSetup::new(&turned, tracked.clone(), free.clone(), 0);
        assert!(!other.use_databases(&turned, &free, &[&a]), "{shape}");
        assert!(other.region.is_none());
    }
}

/// A run's time is shared among its stages as the earlier run's was; a stage the
/// earlier run did not reach has no pace.
#[test]
fn a_plan_shares_the_time_as_the_earlier_run_did() {
    use std::time::{Duration, Instant};
    let way = |full: f64| Way {
        lows: vec![(9, full / 2.0), (3, full)],
    };
    let before = [(way(100.0), 1.0), (way(50.0), 3.0)];
    let until = Instant::now() + Duration::from_secs(80);
    let plan = Plan {
        until,
        before: &before,
        max_width: 1000,
    };
    let first = plan.pace(0).unwrap();
    let left = first.until.saturating_duration_since(Instant::now());
    assert!(
        left > Duration::from_secs(19) && left <= Duration::from_secs(20),
        "{left:?}"
    );
    assert_eq!((first.before.full(), first.max_width), (100.0, 1000));
    let second = plan.pace(1).unwrap();
    assert!(second.until <= until && second.until + Duration::from_secs(1) > until);
    assert_eq!(second.before.full(), 50.0);
    assert!(plan.pace(2).is_none());
}

/// A paced beam expects the work its earlier beam still had from the first layer that
/// ranked as well as the one it is at (past the earlier beam's best: the least) where
/// both started from the same board, else from as many full layers in; never less than
/// a tenth of it.
#[test]
fn a_pace_expects_the_work_left_from_the_same_rank() {
    let before = Way {
        lows: vec![(50, 0.5), (40, 10.0), (45, 20.0), (30, 60.0), (20, 100.0)],
    };
    let pace = Pace {
        until: std::time::Instant::now(),
        before: &before,
        same_start: true,
        max_width: 100,
    };
    assert_eq!(before.full(), 100.0);
    assert_eq!(pace.left_after(60, 0.0), 99.5);
    assert_eq!(pace.left_after(50, 0.0), 99.5);
    // Ranked 42: first reached at the second layer (the third ranked worse again).
    assert_eq!(pace.left_after(42, 0.0), 90.0);
    assert_eq!(pace.left_after(40, 0.0), 90.0);
    assert_eq!(pace.left_after(35, 0.0), 40.0);
    assert_eq!(pace.left_after(20, 0.0), 10.0);
    assert_eq!(pace.left_after(0, 0.0), 10.0);
    // A later stage, from another board: by the full layers done.
    let later = Pace {
        same_start: false,
        ..pace
    };
    assert_eq!(later.left_after(60, 30.0), 70.0);
    assert_eq!(later.left_after(20, 30.0), 70.0);
    assert_eq!(later.left_after(20, 95.0), 10.0);
    let empty = Way::default();
    let pace = Pace {
        before: &empty,
        ..pace
    };
    assert_eq!(pace.left_after(7, 0.0), 1.0);
}

/// Widths grow eightfold while that fits the threshold's times in the time left, then
/// fill nine tenths of it in a last run; a whole-board beam moves to its last run
/// sooner.
#[test]
fn the_widths_grow_eightfold_then_fill_the_time() {
    assert_eq!(next_width(2048, 30.0, 24.0), (16384, false));
    assert_eq!(next_width(2048, 24.0, 24.0), (16384, false));
    assert_eq!(next_width(2048, 20.0, 24.0), (36864, true));
    assert_eq!(next_width(2048, 30.0, 64.0), (55296, true));
    assert_eq!(next_width(256, 64.0, 64.0), (2048, false));
    // A run that took longer than the time left: narrower, and the loop ends.
    assert_eq!(next_width(1000, 0.5, 24.0), (450, true));
}

/// A beam whose pace is already past narrows (to a sixteenth of its width) and still
/// ends at its aim, where the clock would have stopped it.
#[test]
fn a_beam_behind_its_pace_narrows_and_still_ends() {
    let goal = Board::solved("5x5".parse().unwrap());
    let mut rng = Rng::new(5);
    for _ in 0..3 {
        let start = uniform(&goal, &mut rng);
        let setup = BeamSetup::new(&goal, (0..25).map(|t| t != 0).collect(), vec![true; 25], 0);
        let watch = Watch::new(&Limits::default());
        let before = Way {
            lows: (1..=100).map(|k| (1000 - k, k as f64)).collect(),
        };
        let pace = Pace {
            until: std::time::Instant::now(),
            before: &before,
            same_start: true,
            max_width: 4096,
        };
        let nodes = NodeCount::default();
        let run = |pace| beam_run(&setup, &start, 4096, None, 1, &watch, &nodes, pace);
        let BeamEnd::Found(paced) = run(Some(pace)).unwrap() else {
            panic!("the paced beam did not end at its aim");
        };
        let mut b = start.clone();
        b.apply_all(&paced).unwrap();
        assert_eq!(b, goal);
        // Narrower, so it looked at fewer positions than the beam at full width.
        let paced_nodes = nodes.get().1;
        let BeamEnd::Found(full) = run(None).unwrap() else {
            panic!("the beam did not end at its aim");
        };
        assert!(
            nodes.get().1 - paced_nodes > paced_nodes,
            "{paced_nodes} {:?}",
            nodes.get()
        );
        b = start.clone();
        b.apply_all(&full).unwrap();
        assert_eq!(b, goal);
    }
}

/// A bound proven before the anytime solver starts is kept: the answer's bound is never
/// below it, and an answer that meets it is proven.
#[test]
fn a_bound_proven_before_is_kept() {
    let goal = Board::solved("5x5".parse().unwrap());
    let mut rng = Rng::new(12);
    let (start, _) = crate::scramble::walk(&goal, 40, &mut rng).unwrap();
    let optimum = super::super::idastar(
        &start,
        &goal,
        HeuristicKind::LinearConflict,
        &Limits::default(),
    )
    .unwrap()
    .len() as u32;
    let limits = Limits {
        time_limit: Some(std::time::Duration::from_millis(300)),
        ..Limits::default()
    };
    let a = anytime_above(&start, &goal, 1, &limits, optimum, &[], None).unwrap();
    assert!(a.lower_bound >= optimum);
    assert_eq!(a.proven, a.solution.len() as u32 == a.lower_bound);
    let mut b = start.clone();
    b.apply_all(&a.solution.moves).unwrap();
    assert_eq!(b, goal);
}

/// A layer's best candidates are the same on one thread and on several, and the same as
/// one plain pass over them in order keeps: every key below the cut, as many equal to it
/// as there is room for (the first ones), and no hash its table slot already holds (the
/// slot then taken), a repeat within the layer that ranks better than the one kept
/// taking its place. Small keys and hashes, so that ties, repeats and slots shared by
/// two hashes are common.
#[test]
fn the_best_candidates_are_those_of_one_pass_in_order() {
    let cand = |key: u64, hash: u64, parent: u32| Cand {
        key,
        parent,
        dir: 0,
        h: 0,
        all: 0,
        hash,
        vals: [0; 2 * MAX_REGION_SETS],
        kept: 0.0,
    };
    let mask = 255;
    let mut rng = Rng::new(11);
    // Repeats that ranked better than the one kept, over every round.
    let mut replaced = 0;
    for round in 0..40 {
        let chunks = 1 + round % 7;
        let lists: Vec<Vec<Cand>> = (0..chunks)
            .map(|ci| {
                let len = rng.below(if round % 2 == 0 { 3000 } else { 40 }) as usize;
                (0..len)
                    .map(|k| cand(rng.below(60), rng.below(900), (ci * 10_000 + k) as u32))
                    .collect()
            })
            .collect();
        let total: usize = lists.iter().map(|l| l.len()).sum();
        let width = 1 + rng.below(total as u64 + 20) as usize;
        // Earlier layers' slots: their indices stale (any number).
        let table: Vec<Slot> = (0..=mask)
            .map(|_| Slot {
                hash: rng.below(900),
                at: rng.below(4000) as u32,
            })
            .collect();
        // One plain pass, in order.
        let mut sorted: Vec<u64> = lists.iter().flatten().map(|c| c.key).collect();
        sorted.sort_unstable();
        let (cut, mut room) = if total > width {
            let cut = sorted[width - 1];
            (cut, width - sorted.iter().filter(|&&k| k < cut).count())
        } else {
            (u64::MAX, usize::MAX)
        };
        let mut want_seen: Vec<u64> = table.iter().map(|s| s.hash).collect();
        let mut want: Vec<(u64, u64, u32)> = Vec::new();
        // Per slot: where in `want` the position it holds went (none for the table's).
        let mut want_at = vec![usize::MAX; mask + 1];
        for c in lists.iter().flatten() {
            if c.key > cut || (c.key == cut && room == 0) {
                continue;
            }
            if c.key == cut {
                room -= 1;
            }
            let slot = c.hash as usize & mask;
            if want_seen[slot] != c.hash {
                want_seen[slot] = c.hash;
                want_at[slot] = want.len();
                want.push((c.key, c.hash, c.parent));
            } else if let Some(w) = want.get_mut(want_at[slot]) {
                // A repeat within the layer: the better ranked stays, in the first's place.
                if w.1 == c.hash && c.key < w.0 {
                    *w = (c.key, c.hash, c.parent);
                    replaced += 1;
                }
            }
        }
        let want: Vec<u32> = want.iter().map(|w| w.2).collect();
        for threads in [1, 2, 3] {
            let parts: Vec<_> = lists
                .iter()
                .map(|l| std::sync::Mutex::new(l.clone()))
                .collect();
            let (mut keys, mut seen, mut cands) = (Vec::new(), table.clone(), Vec::new());
            keep_best(
                &parts, chunks, total, width, threads, &mut keys, &mut seen, mask, &mut cands,
            )
            .unwrap();
            let got: Vec<u32> = cands.iter().map(|c| c.parent).collect();
            assert_eq!(got, want, "round {round}, {threads} threads");
            let seen: Vec<u64> = seen.iter().map(|s| s.hash).collect();
            assert_eq!(seen, want_seen, "round {round}, {threads} threads");
        }
    }
    assert!(replaced > 100, "only {replaced} repeats ranked better");
}

/// A beam wide enough to be shared among threads (its layers past 8,192 positions) gives
/// the same answer on one, two and three threads.
#[test]
fn a_wide_beam_answers_the_same_on_any_number_of_threads() {
    let goal = Board::solved("5x5".parse().unwrap());
    let mut rng = Rng::new(23);
    for _ in 0..2 {
        let start = uniform(&goal, &mut rng);
        let setup = BeamSetup::new(&goal, (0..25).map(|t| t != 0).collect(), vec![true; 25], 0);
        let watch = Watch::new(&Limits::default());
        let nodes = NodeCount::default();
        let answers: Vec<_> = [1, 2, 3]
            .into_iter()
            .map(|threads| {
                let BeamEnd::Found(m) =
                    beam_run(&setup, &start, 10_000, None, threads, &watch, &nodes, None).unwrap()
                else {
                    panic!("no answer on {threads} threads");
                };
                m
            })
            .collect();
        let mut b = start.clone();
        b.apply_all(&answers[0]).unwrap();
        assert_eq!(b, goal);
        assert_eq!(answers[0], answers[1]);
        assert_eq!(answers[0], answers[2]);
    }
}

/// A run logs one stage per part of the board: two lines at a time and Ls two lines thick
/// where they leave the last region (16x16: six pairs of lines, two Ls and the 6x6
/// region; 12x12: two pairs, two Ls, the region; 16x2: five pairs of columns, the region;
/// 10x10: two Ls and the region; 9x9: an L two lines thick, one a line thick, the region;
/// 8x8: one L and the region). Narrow beams, which stall on stages of two lines (and then
/// go on a line at a time, or finish with the fast solver), still solve the board.
#[test]
fn stages_take_two_lines_at_once_and_narrow_beams_still_answer() {
    let mut rng = Rng::new(11);
    for (size, stages) in [
        ("16x16", 9),
        ("12x12", 5),
        ("16x2", 6),
        ("2x16", 6),
        ("10x10", 3),
        ("9x9", 3),
        ("8x8", 2),
        ("7x7", 2),
    ] {
        let goal = Board::solved(size.parse().unwrap());
        for width in [1, 3, 64, 2048] {
            let log = staged_to_goal(&uniform(&goal, &mut rng), &goal, width);
            if width == 2048 {
                assert_eq!(log.len(), stages, "{size} at width {width}");
            }
        }
    }
}

/// A line's focus is 2 on 16x16's first stages from width 4,096 (the ratio over four), 1
/// below it (over six) and on smaller boards; 16x2 and 2x16, whose first stages get
/// focus 2 too, still answer at that width.
#[test]
fn wide_beams_focus_on_16x16s_first_lines_and_still_answer() {
    // 16x16's first stage: 255 tiles left, two rows of 16.
    assert_eq!(line_focus(255, 32, STAGED_FOCUS_WIDTH), 2);
    assert_eq!(line_focus(255, 32, STAGED_FOCUS_WIDTH - 1), 1);
    // Its fifth (12x14, two columns of 12): 1 at any width.
    assert_eq!(line_focus(143, 24, 1 << 20), 1);
    // 10x10's first L: 1.
    assert_eq!(line_focus(99, 36, 1 << 20), 1);
    // A line of one tile at the far end of a big board, and none.
    assert_eq!(line_focus(255, 1, 1 << 20), 64);
    assert_eq!(line_focus(5, 0, 1), 1);
    let mut rng = Rng::new(5);
    for size in ["16x2", "2x16"] {
        let goal = Board::solved(size.parse().unwrap());
        staged_to_goal(&uniform(&goal, &mut rng), &goal, STAGED_FOCUS_WIDTH);
    }
}

/// [`staged`] from `start` at `width` on one thread, with no cap, clock or databases: its
/// answer checked to reach `goal`; its stages' log.
fn staged_to_goal(start: &Board, goal: &Board, width: usize) -> StageLog {
    let limits = Limits::default();
    let mut log = StageLog::new();
    let moves = staged(
        start,
        goal,
        width,
        None,
        1,
        &Watch::new(&limits),
        &limits,
        &NodeCount::default(),
        &[],
        None,
        &mut log,
    )
    .unwrap()
    .expect("no cap: an answer");
    let mut b = start.clone();
    b.apply_all(&moves).unwrap();
    let size = goal.size();
    assert_eq!(
        &b,
        goal,
        "{}x{} at width {width}",
        size.width(),
        size.height()
    );
    log
}
