//! Pattern databases against exhaustive searches written for the test.

mod common;

use std::collections::HashMap;

use common::{all_boards, distances, distances_with_blank, least_over_blank, reaches};
use npuzzle::heuristic::pdb::PdbHeuristic;
use npuzzle::heuristic::pdb::{Load, PatternDb, PdbInfo};
use npuzzle::search::{idastar, idastar_pdb, idastar_pdb_all, idastar_pdb_parallel};
use npuzzle::{Board, HeuristicKind, Limits, Size};

/// The pattern distance of every placement: the least over the blank's cells of the
/// 0-1 search over (positions, blank).
fn abstract_distances(goal: &Board, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    least_over_blank(&distances_with_blank(goal, tiles))
}

fn check_db(goal: &Board, tiles: &[u8], threads: usize) -> PatternDb {
    let db = PatternDb::build(goal, tiles, &Limits::default(), threads, &mut |_| {}).unwrap();
    let want = abstract_distances(goal, tiles);
    assert_eq!(want.len(), db.len(), "every placement is reachable");
    for (pos, d) in &want {
        assert_eq!(
            db.at(db.placement().index(pos)) as u32,
            *d,
            "{tiles:?} at {pos:?}"
        );
    }
    db
}

#[test]
fn databases_match_an_exhaustive_abstract_search() {
    let goal = Board::solved(Size::square(3).unwrap());
    check_db(&goal, &[1, 2, 3, 4], 1);
    check_db(&goal, &[5, 6, 7, 8], 1);
    check_db(&goal, &[2, 4, 6, 8], 1);
    let goal: Board = "1 2 3/8 0 4/7 6 5".parse().unwrap();
    check_db(&goal, &[1, 3, 5, 7], 1);
    let goal = Board::solved(Size::new(4, 2).unwrap());
    check_db(&goal, &[1, 2, 3, 4, 5], 1);
    let goal = Board::solved(Size::new(4, 3).unwrap());
    check_db(&goal, &[1, 2, 3, 4, 5], 2);
    check_db(&goal, &[6, 7, 8, 9], 2);
}

/// One board of each distance in `dist` (the first in cell order), nearest first.
fn one_per_depth(dist: &HashMap<Board, u32>) -> Vec<(&Board, u32)> {
    let mut by_depth: Vec<(&Board, u32)> = dist.iter().map(|(b, &d)| (b, d)).collect();
    by_depth.sort_by_key(|(b, d)| (*d, b.cells().to_vec()));
    by_depth.dedup_by_key(|(_, d)| *d);
    by_depth
}

#[test]
fn additive_sums_and_reflections_are_admissible_on_every_3x3_state() {
    for goal in [
        "1 2 3/4 5 6/7 8 0",
        "0 1 2/3 4 5/6 7 8",
        "1 2 3/8 0 4/7 6 5",
    ] {
        let goal: Board = goal.parse().unwrap();
        let limits = Limits::default();
        let parts: [&[u8]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8]];
        let dbs = parts
            .iter()
            .map(|p| PatternDb::build(&goal, p, &limits, 1, &mut |_| {}).unwrap())
            .collect();
        let h = PdbHeuristic::new(&goal, dbs).unwrap();
        assert!(h.reflects(), "these goals have the blank on the diagonal");
        let dist = distances(&goal);
        let mut tight = 0;
        for b in all_boards(3, 3) {
            if let Some(&d) = dist.get(&b) {
                let e = h.estimate(&b);
                assert!(e <= d, "{b}: {e} > {d}");
                tight += u32::from(e == d);
            }
        }
        assert!(tight > 1000, "the estimate is informative");
        // IDA* with it agrees with the oracle at every depth.
        for (b, d) in one_per_depth(&dist) {
            let s = idastar_pdb(b, &goal, &h, &limits).unwrap();
            assert_eq!(s.len() as u32, d, "{b}");
            assert!(reaches(b, &s.moves, &goal));
        }
    }
}

#[test]
fn files_round_trip_and_catch_corruption() {
    let goal = Board::solved(Size::square(3).unwrap());
    let db = PatternDb::build(&goal, &[1, 2, 3, 4], &Limits::default(), 1, &mut |_| {}).unwrap();
    let bytes = db.to_bytes();
    let back = PatternDb::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    for pos in [0, 10, 20, bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[pos] ^= 4;
        assert!(PatternDb::from_bytes(&bad).is_err(), "byte {pos}");
    }
    for len in [0, 10, 30, bytes.len() - 1] {
        assert!(
            PatternDb::from_bytes(&bytes[..len]).is_err(),
            "length {len}"
        );
    }

    // From files: mapped, read into memory of its own, and auto; the same entries; a
    // flipped byte, a truncated file, an empty one and a missing one are refused.
    let dir = std::env::temp_dir().join(format!("npuzzle-pdb-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.npz");
    std::fs::write(&good, &bytes).unwrap();
    for how in [Load::Map, Load::Read, Load::Auto] {
        let db2 = PatternDb::open(&good, how).unwrap();
        assert_eq!(db2.entries(), db.entries(), "{how:?}");
        assert_eq!(db2.to_bytes(), bytes, "{how:?}");
        assert_eq!(db2.clone().entries(), db.entries(), "{how:?}");
        let mut bad = bytes.clone();
        bad[bytes.len() / 3] ^= 1;
        let p = dir.join("flipped.npz");
        std::fs::write(&p, &bad).unwrap();
        let e = PatternDb::open(&p, how).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{how:?}: {e}");
        let p = dir.join("short.npz");
        std::fs::write(&p, &bytes[..bytes.len() - 100]).unwrap();
        assert!(PatternDb::open(&p, how).is_err(), "{how:?}");
        let p = dir.join("empty.npz");
        std::fs::write(&p, b"").unwrap();
        let e = PatternDb::open(&p, how).unwrap_err().to_string();
        assert!(e.contains("expected"), "{how:?}: {e}");
        let e = PatternDb::open(&dir.join("missing.npz"), how)
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.npz"), "{how:?}: {e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_patterns_are_refused() {
    let goal = Board::solved(Size::square(3).unwrap());
    let l = Limits::default();
    for bad in [&[][..], &[0, 1][..], &[1, 1][..], &[9][..]] {
        assert!(
            PatternDb::build(&goal, bad, &l, 1, &mut |_| {}).is_err(),
            "{bad:?}"
        );
    }
    let a = PatternDb::build(&goal, &[1, 2], &l, 1, &mut |_| {}).unwrap();
    let b = PatternDb::build(&goal, &[2, 3], &l, 1, &mut |_| {}).unwrap();
    assert!(
        PdbHeuristic::new(&goal, vec![a, b]).is_err(),
        "overlapping patterns"
    );
}

#[test]
fn every_database_search_refuses_another_goals_databases() {
    // Databases built for the blank-first goal, asked to solve towards the blank-last one
    // (and the other way round): every entry point refuses, none searches. Before the
    // shared check the parallel and all-solutions searches never ended here.
    let l = Limits::default();
    let ours = Board::solved(Size::square(3).unwrap());
    let theirs: Board = "0 1 2/3 4 5/6 7 8".parse().unwrap();
    let h = |goal: &Board| {
        let a = PatternDb::build(goal, &[1, 2, 3, 4], &l, 1, &mut |_| {}).unwrap();
        let b = PatternDb::build(goal, &[5, 6, 7, 8], &l, 1, &mut |_| {}).unwrap();
        PdbHeuristic::new(goal, vec![a, b]).unwrap()
    };
    for (goal, other) in [(&ours, h(&theirs)), (&theirs, h(&ours))] {
        // A walk of 40 moves from the goal, never undoing the last one.
        let mut board = goal.clone();
        let mut last: Option<npuzzle::Direction> = None;
        for i in 0..40usize {
            let d = (0..4)
                .map(|k| npuzzle::Direction::ALL[(i * 3 + k) % 4])
                .find(|&d| board.mover(d).is_some() && Some(d.inverse()) != last)
                .unwrap();
            board.apply(d).unwrap();
            last = Some(d);
        }
        assert!(npuzzle::is_solvable(&board, goal).unwrap());
        let e = idastar_pdb(&board, goal, &other, &l).unwrap_err();
        assert!(
            e.to_string().contains("pattern databases are for goal"),
            "{e}"
        );
        for threads in [1, 2] {
            let e = idastar_pdb_parallel(&board, goal, &other, &l, threads).unwrap_err();
            assert!(
                e.to_string().contains("pattern databases are for goal"),
                "{e}"
            );
        }
        let e = idastar_pdb_all(&board, goal, &other, &l, 5).unwrap_err();
        assert!(
            e.to_string().contains("pattern databases are for goal"),
            "{e}"
        );
        // Even the goal itself is refused: the databases do not fit the question.
        assert!(idastar_pdb_all(goal, goal, &other, &l, 5).is_err());
        // With their own goal's databases all three answer, and agree.
        let own = h(goal);
        let one = idastar_pdb(&board, goal, &own, &l).unwrap();
        let par = idastar_pdb_parallel(&board, goal, &own, &l, 2).unwrap();
        let (all, _) = idastar_pdb_all(&board, goal, &own, &l, 3).unwrap();
        assert_eq!(par.len(), one.len());
        assert!(all.iter().all(|p| p.len() == one.len()));
    }
}

#[test]
fn headers_are_read_without_the_entries() {
    let goal: Board = "1 2 3/8 0 4/7 6 5".parse().unwrap();
    let db = PatternDb::build(&goal, &[2, 4, 6], &Limits::default(), 1, &mut |_| {}).unwrap();
    let bytes = db.to_bytes();
    let dir = std::env::temp_dir().join(format!("npuzzle-pdb-info-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("db.npz");
    std::fs::write(&p, &bytes).unwrap();
    let info = PdbInfo::read(&p).unwrap();
    assert_eq!(info.goal, goal);
    assert_eq!(info.tiles, vec![2, 4, 6]);
    assert_eq!(info.entries, db.len() as u64);
    assert_eq!(info.file_len, bytes.len() as u64);
    // A flipped entry passes the header (the checksum is `open`'s business) ...
    let mut bad = bytes.clone();
    bad[bytes.len() - 20] ^= 1;
    std::fs::write(&p, &bad).unwrap();
    assert_eq!(PdbInfo::read(&p).unwrap().tiles, vec![2, 4, 6]);
    assert!(PatternDb::open(&p, Load::Read).is_err());
    // ... but a short file, a bad magic or a bad tile count do not.
    std::fs::write(&p, &bytes[..bytes.len() - 1]).unwrap();
    let e = PdbInfo::read(&p).unwrap_err().to_string();
    assert!(e.contains("expected"), "{e}");
    let mut bad = bytes.clone();
    bad[0] = b'X';
    std::fs::write(&p, &bad).unwrap();
    assert!(PdbInfo::read(&p).is_err());
    let mut bad = bytes.clone();
    bad[14] = 40;
    std::fs::write(&p, &bad).unwrap();
    assert!(PdbInfo::read(&p).is_err());
    std::fs::write(&p, b"").unwrap();
    assert!(PdbInfo::read(&p).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_forged_database_is_refused() {
    // Every entry set to 3 and the checksum made to match: the file's form is sound, but
    // the goal would cost 3 moves, and a search with it would never see the goal.
    let goal = Board::solved(Size::square(3).unwrap());
    let l = Limits::default();
    let a = PatternDb::build(&goal, &[1, 2, 3, 4], &l, 1, &mut |_| {}).unwrap();
    let b = PatternDb::build(&goal, &[5, 6, 7, 8], &l, 1, &mut |_| {}).unwrap();
    let mut bytes = b.to_bytes();
    let body = bytes.len() - 8;
    for e in &mut bytes[body - b.len()..body] {
        *e = 3;
    }
    let sum = npuzzle::files::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    let forged = PatternDb::from_bytes(&bytes).unwrap();
    let e = PdbHeuristic::new(&goal, vec![a, forged]).unwrap_err();
    assert!(matches!(e, npuzzle::DatabaseError::Mismatch(_)), "{e:?}");
    assert!(
        e.to_string().contains("expected 0 moves at the goal"),
        "{e}"
    );
}

#[test]
fn a_time_limit_stops_a_build() {
    // The 6-tile 4x4 database takes seconds; a millisecond stops it with the time-limit
    // error, between layers.
    let goal = Board::solved(npuzzle::Size::new(4, 4).unwrap());
    let limits = npuzzle::Limits {
        time_limit: Some(std::time::Duration::from_millis(1)),
        ..npuzzle::Limits::default()
    };
    match PatternDb::build(&goal, &[1, 2, 5, 6, 9, 10], &limits, 1, &mut |_| {}) {
        Err(npuzzle::SearchError::TimeLimit { algorithm, .. }) => {
            assert_eq!(algorithm, "pdb build")
        }
        Err(e) => panic!("expected the time limit, got {e}"),
        Ok(_) => panic!("expected the time limit, the build finished"),
    }
}

/// Databases of one to three tiles on every board shape past 6x6 that the 64-cell index
/// takes: every placement reached (none left at 255), and the consistency pass holds.
/// Before the mark spans reached a third word these were built incomplete, and a 7x7
/// board was given a lower bound of 256 moves for an optimum of 64.
#[test]
fn small_patterns_are_complete_on_every_large_shape() {
    let limits = Limits::default();
    for (w, h) in [
        (7, 7),
        (8, 8),
        (9, 7),
        (6, 10),
        (10, 6),
        (16, 4),
        (4, 16),
        (6, 6),
        (8, 5),
    ] {
        let goal = Board::solved(Size::new(w, h).unwrap());
        let n = (w * h) as u8;
        for tiles in [vec![1u8], vec![1, 2], vec![n - 1, 2, w as u8 + 1]] {
            let db = PatternDb::build(&goal, &tiles, &limits, 0, &mut |_| {}).unwrap();
            let unseen = db.entries().iter().filter(|&&e| e == 255).count();
            assert_eq!(
                unseen, 0,
                "{w}x{h} tiles {tiles:?}: {unseen} placements unreached"
            );
            // A single tile's entry is its Manhattan distance home.
            if tiles.len() == 1 {
                let worst = (w - 1) + (h - 1);
                assert_eq!(db.max_value() as usize, worst, "{w}x{h} tile 1");
            }
            db.check_consistent(0)
                .unwrap_or_else(|e| panic!("{w}x{h} tiles {tiles:?}: {e}"));
        }
    }
}

/// A database file forged and sealed again (entries raised, checksum recomputed) is
/// refused by checked loading and by nothing else: a file without a stamp naming it is
/// rebuilt and compared. The sound file loads, and later loads are spared the proof by
/// the stamp, which a forged file put in its place does not match.
#[test]
fn forged_but_sealed_database_files_are_refused() {
    let goal = Board::solved(Size::square(4).unwrap());
    let tiles = [1u8, 2, 5, 6];
    let limits = Limits::default();
    let db = PatternDb::build(&goal, &tiles, &limits, 0, &mut |_| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("npuzzle-forged-pdb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(npuzzle::heuristic::pdb::file_name(&goal, &tiles));
    db.save(&path).unwrap();
    let stamp = dir.join(format!(
        "{}.checked",
        path.file_name().unwrap().to_str().unwrap()
    ));
    assert!(stamp.exists(), "a saved database is stamped");
    PatternDb::open_checked(&path, &goal, &tiles, Load::Map).unwrap();
    let sound = std::fs::read(&path).unwrap();
    let forge = |change: &dyn Fn(&mut [u8])| {
        let mut bytes = sound.clone();
        let body = bytes.len() - 8;
        change(&mut bytes[body - db.len()..body]);
        let sum = npuzzle::files::checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        bytes
    };
    let all_255 = forge(&|e| e.fill(255));
    let raised = forge(&|e| e.iter_mut().filter(|v| **v >= 10).for_each(|v| *v += 3));
    let goal_index = db.entries().iter().position(|&v| v == 0).unwrap();
    let one_raised = forge(&|e| {
        // The first entry one move from the goal's placement, raised to 3.
        let i = (0..e.len())
            .find(|&i| e[i] == 1 && i != goal_index)
            .unwrap();
        e[i] = 3;
    });
    for (what, bytes) in [
        ("all 255", all_255),
        ("raised by 3", raised),
        ("one raised", one_raised),
    ] {
        // The checksum agrees: only the contents tell.
        assert!(PatternDb::from_bytes(&bytes).is_ok(), "{what}");
        std::fs::write(&path, &bytes).unwrap();
        let e = PatternDb::open_checked(&path, &goal, &tiles, Load::Map).unwrap_err();
        assert!(matches!(e, npuzzle::DatabaseError::Unsound(_)), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains("expected the entries of a breadth-first search")
                || e.contains("expected 0 moves at the goal"),
            "{what}: {e}"
        );
    }
    std::fs::write(&path, &sound).unwrap();
    PatternDb::open_checked(&path, &goal, &tiles, Load::Read).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every forgery of one entry raised by one (the checksum redone) of a 3x3 group is
/// refused: with no stamp, and with the sound file's stamp copied beside it. (A
/// consistency pass alone let about a quarter of them through, most of them giving wrong
/// lengths called optimal.)
#[test]
fn every_entry_raised_by_one_is_caught_stamp_or_not() {
    let goal = Board::solved(Size::square(3).unwrap());
    let tiles = [1u8, 2, 3];
    let db = PatternDb::build(&goal, &tiles, &Limits::default(), 1, &mut |_| {}).unwrap();
    assert_eq!(db.len(), 504);
    let dir = std::env::temp_dir().join(format!("npuzzle-raised-pdb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sound_path = dir.join("sound.npz");
    db.save(&sound_path).unwrap();
    let sound = std::fs::read(&sound_path).unwrap();
    let stamp = std::fs::read(dir.join("sound.npz.checked")).unwrap();
    let path = dir.join(npuzzle::heuristic::pdb::file_name(&goal, &tiles));
    let body = sound.len() - 8;
    let mut refused = 0;
    for i in 0..db.len() {
        let mut bytes = sound.clone();
        bytes[body - db.len() + i] += 1;
        let sum = npuzzle::files::checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        for copy_stamp in [false, true] {
            let _ = std::fs::remove_file(dir.join(format!(
                "{}.checked",
                path.file_name().unwrap().to_str().unwrap()
            )));
            std::fs::write(&path, &bytes).unwrap();
            if copy_stamp {
                std::fs::write(
                    dir.join(format!(
                        "{}.checked",
                        path.file_name().unwrap().to_str().unwrap()
                    )),
                    &stamp,
                )
                .unwrap();
            }
            let loaded = PatternDb::open_checked(&path, &goal, &tiles, Load::Read);
            assert!(
                loaded.is_err(),
                "entry {i} raised (stamp copied: {copy_stamp})"
            );
            refused += 1;
        }
    }
    assert_eq!(refused, 2 * 504);
    // The sound bytes under the same name are proven and stamped, then load unproven.
    std::fs::write(&path, &sound).unwrap();
    PatternDb::open_checked(&path, &goal, &tiles, Load::Read).unwrap();
    assert!(npuzzle::files::is_stamped(&path));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO or a folder where a database file should be is an error that names it, at
/// once: nothing waits on a FIFO.
#[cfg(unix)]
#[test]
fn cache_entries_that_are_not_files_are_refused_at_once() {
    let goal = Board::solved(Size::square(3).unwrap());
    let dir = std::env::temp_dir().join(format!("npuzzle-fifo-pdb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pdb.npz");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let folder = dir.join("folder.npz");
    std::fs::create_dir_all(&folder).unwrap();
    for (path, found) in [(&fifo, "a FIFO"), (&folder, "a directory")] {
        for how in [Load::Map, Load::Read, Load::Auto] {
            let e = PatternDb::open(path, how).unwrap_err().to_string();
            assert!(
                e.contains(&format!("expected a regular file, found {found}")),
                "{e}"
            );
        }
        assert!(PdbInfo::read(path).is_err());
        assert!(npuzzle::DistanceTable::load(path).is_err());
        assert!(
            PatternDb::build(&goal, &[1, 2], &Limits::default(), 1, &mut |_| {})
                .unwrap()
                .save(path)
                .is_err()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Database IDA* prunes paths that repeat a position by a twin path (a machine of the
/// move sequences with a shorter or earlier twin, the deepest on boards past 16 cells): its
/// answers stay shortest. Lengths against IDA* with linear conflict, which prunes only
/// moves undoing the last one, on 5x5, 6x4 and 4x4 boards; the every-solution search (no
/// pruning past undoing) finds the pruned search's answer among its own.
#[test]
fn pruning_repeated_positions_keeps_answers_shortest() {
    let limits = Limits::default();
    let mut rng = npuzzle::scramble::Rng::new(21);
    for (shape, groups, steps, count) in [
        (
            "5x5",
            "1,2,6,7/3,4,8,9/5,10,15,20/11,12,16,17/13,14,18,19/21,22,23,24",
            50,
            6,
        ),
        (
            "6x4",
            "1,2,7,8/3,4,9,10/5,6,11,12/13,14,19,20/15,16,21,22/17,18,23",
            50,
            6,
        ),
        ("4x4", "1,2,5,6/3,4,7,8/9,10,13,14/11,12,15", 80, 12),
    ] {
        let goal = Board::solved(shape.parse().unwrap());
        let dbs = npuzzle::heuristic::pdb::partition(&goal, groups)
            .unwrap()
            .iter()
            .map(|t| PatternDb::build(&goal, t, &limits, 0, &mut |_| {}).unwrap())
            .collect();
        let h = PdbHeuristic::new(&goal, dbs).unwrap();
        for _ in 0..count {
            let (start, _) = npuzzle::scramble::walk(&goal, steps, &mut rng).unwrap();
            let pruned = idastar_pdb(&start, &goal, &h, &limits).unwrap();
            let plain = idastar(&start, &goal, HeuristicKind::LinearConflict, &limits).unwrap();
            assert_eq!(pruned.len(), plain.len(), "{shape}: {start}");
            assert!(reaches(&start, &pruned.moves, &goal));
            if shape == "4x4" {
                let (all, _) = idastar_pdb_all(&start, &goal, &h, &limits, 1000).unwrap();
                assert!(all.contains(&pruned.moves), "{shape}: {start}");
                assert!(all.iter().all(|m| m.len() == pruned.len()));
            }
        }
    }
}

/// A catalogue of partitions: every one's databases, built for the test.
fn catalogue(goal: &Board, spec: &str) -> PdbHeuristic {
    let limits = Limits::default();
    let sets = npuzzle::heuristic::pdb::partitions(goal, spec)
        .unwrap()
        .iter()
        .map(|groups| {
            groups
                .iter()
                .map(|t| PatternDb::build(goal, t, &limits, 0, &mut |_| {}).unwrap())
                .collect()
        })
        .collect();
    PdbHeuristic::catalogue(goal, sets).unwrap()
}

#[test]
fn catalogues_are_admissible_and_the_largest_of_their_partitions_on_every_3x3_state() {
    let specs = [
        "1,2,3,4/5,6,7,8",
        "1,4,7/2,5,8,3,6",
        "1,2,4,5/3,6,7,8",
        "2,3/1,4,5,6,7,8",
        "1,2,3/4,5,6/7,8",
        "1,5,6/2,3,4,7,8",
        "3,6,8/1,2,4,5,7",
        "1,2,3,4,5/6,7,8",
        "7,8/1,2,3,4,5,6",
    ];
    for goal in [
        "1 2 3/4 5 6/7 8 0",
        "0 1 2/3 4 5/6 7 8",
        "1 2 3/4 5 0/6 7 8",
    ] {
        let goal: Board = goal.parse().unwrap();
        let limits = Limits::default();
        let singles: Vec<PdbHeuristic> = specs.iter().map(|s| catalogue(&goal, s)).collect();
        let dist = distances(&goal);
        // Four partitions, six and seven (the search's bookkeeping sized for up to 16
        // sums), and nine (more sums and lookups a tile than its smaller sizes hold).
        for count in [4, 6, 7, 9] {
            let all = catalogue(&goal, &specs[..count].join("+"));
            assert_eq!(all.partitions(), count);
            let mut stronger = 0;
            for b in all_boards(3, 3) {
                if let Some(&d) = dist.get(&b) {
                    let e = all.estimate(&b);
                    let each: Vec<u32> = singles[..count].iter().map(|h| h.estimate(&b)).collect();
                    assert!(e <= d, "{goal}: {b}: {e} > {d}");
                    assert_eq!(e, *each.iter().max().unwrap(), "{goal}: {b}");
                    stronger += u32::from(e > each[0]);
                }
            }
            assert!(
                stronger > 1000,
                "{goal}: the other partitions add to the first"
            );
            // Every search over the catalogue agrees with the oracle, one board a depth.
            for (b, d) in one_per_depth(&dist) {
                let one = idastar_pdb(b, &goal, &all, &limits).unwrap();
                let two = idastar_pdb_parallel(b, &goal, &all, &limits, 2).unwrap();
                assert_eq!(one.len() as u32, d, "{goal}: {b}");
                assert_eq!(two.len() as u32, d, "{goal}: {b}");
                assert!(reaches(b, &one.moves, &goal) && reaches(b, &two.moves, &goal));
            }
        }
    }
}

#[test]
fn a_catalogue_of_4x4_partitions_finds_shortest_answers_with_fewer_nodes() {
    let limits = Limits::default();
    let goal = Board::solved("4x4".parse().unwrap());
    let one = catalogue(&goal, "5-5-5");
    let two = catalogue(&goal, "5-5-5 + 1,2,3,4,8/5,6,7,9,10/11,12,13,14,15");
    let mut rng = npuzzle::scramble::Rng::new(5);
    let (mut nodes_one, mut nodes_two) = (0, 0);
    for _ in 0..12 {
        let (start, _) = npuzzle::scramble::walk(&goal, 90, &mut rng).unwrap();
        let a = idastar_pdb(&start, &goal, &one, &limits).unwrap();
        let b = idastar_pdb(&start, &goal, &two, &limits).unwrap();
        let plain = idastar(&start, &goal, HeuristicKind::LinearConflict, &limits).unwrap();
        assert_eq!(b.len(), plain.len(), "{start}");
        assert_eq!(a.len(), plain.len(), "{start}");
        assert!(reaches(&start, &b.moves, &goal));
        assert!(two.estimate(&start) >= one.estimate(&start));
        nodes_one += a.stats.expanded;
        nodes_two += b.stats.expanded;
    }
    assert!(nodes_two < nodes_one, "{nodes_two} >= {nodes_one}");
}

#[test]
fn catalogue_specs_are_checked() {
    let five: Board = Board::solved("5x5".parse().unwrap());
    let four: Board = Board::solved("4x4".parse().unwrap());
    use npuzzle::heuristic::pdb::{partition, partitions, CATALOGUE_24};
    let c = partitions(&five, CATALOGUE_24).unwrap();
    assert_eq!(c.len(), 4);
    assert_eq!(c[0], partition(&five, "6-6-6-6").unwrap());
    for p in &c {
        let mut tiles: Vec<u8> = p.iter().flatten().copied().collect();
        tiles.sort();
        assert_eq!(tiles, (1..25).collect::<Vec<u8>>(), "every tile once");
        assert!(p.iter().all(|g| g.len() == 6));
    }
    // Korf's goal (blank first): turned as the presets are.
    let korf = korf_goal();
    assert_eq!(
        partitions(&korf, CATALOGUE_24).unwrap()[0],
        partition(&korf, "6-6-6-6").unwrap()
    );
    assert!(partitions(&four, CATALOGUE_24)
        .unwrap_err()
        .to_string()
        .contains("5x5"));
    assert!(partition(&five, CATALOGUE_24)
        .unwrap_err()
        .to_string()
        .contains("catalogue"));
    assert!(partitions(&four, "7-8 + ")
        .unwrap_err()
        .to_string()
        .contains("'+'"));
    let too_many = ["5-5-5"; 17].join("+");
    let limits = Limits::default();
    let sets: Vec<Vec<PatternDb>> = partitions(
        &Board::solved("2x2".parse().unwrap()),
        &(["1/2,3+1,2/3+1,3/2+3/1,2"; 4].join("+") + "+2/1,3"),
    )
    .unwrap()
    .iter()
    .map(|g| {
        g.iter()
            .map(|t| {
                PatternDb::build(
                    &Board::solved("2x2".parse().unwrap()),
                    t,
                    &limits,
                    1,
                    &mut |_| {},
                )
                .unwrap()
            })
            .collect()
    })
    .collect();
    let err = PdbHeuristic::catalogue(&Board::solved("2x2".parse().unwrap()), sets)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("expected 1 to 16 partitions, found 17"),
        "{err}"
    );
    assert!(
        partitions(&four, &too_many).is_ok(),
        "the count is checked where the databases meet"
    );
}

/// A group in several partitions of a catalogue is built, saved and loaded once: the
/// partitions share its entries (one copy in memory), and the estimate is as with copies.
#[test]
fn a_group_in_several_partitions_is_read_once() {
    let dir = pdb_folder("shared-pdb");
    let goal = Board::solved("3x3".parse().unwrap());
    let spec = "1,2,3,4/5,6,7,8 + 1,2,3,4/5,6/7,8 + 5,6,7,8/1,4/2,3";
    let core = |load| core_at(&dir, load);
    let limits = Limits::default();
    let built = core(Load::Read).named_pdbs(&goal, spec, &limits).unwrap();
    // Six distinct groups, six files.
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "npz")
        })
        .count();
    assert_eq!(files, 6);
    let copies = catalogue(&goal, spec);
    for load in [Load::Read, Load::Map] {
        let loaded = core(load).cached_pdbs(&goal, spec).expect("all cached");
        for h in [&built, &loaded] {
            let dbs = h.databases();
            assert_eq!(dbs.len(), 8);
            let at = |i: usize| dbs[i].entries().as_ptr();
            // 1,2,3,4 in the first two partitions; 5,6,7,8 in the first and last.
            assert_eq!(at(0), at(2));
            assert_eq!(at(1), at(5));
            assert_ne!(at(0), at(1));
            for b in all_boards(3, 3) {
                assert_eq!(h.estimate(&b), copies.estimate(&b), "{b}");
            }
        }
    }
    // (The files are opened side by side; the set is whole or none.) One file gone, or
    // one cut short: no set.
    let npz: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "npz"))
        .collect();
    let bytes = std::fs::read(&npz[3]).unwrap();
    std::fs::write(&npz[3], &bytes[..bytes.len() / 2]).unwrap();
    assert!(core(Load::Map).cached_pdbs(&goal, spec).is_none());
    std::fs::remove_file(&npz[3]).unwrap();
    assert!(core(Load::Read).cached_pdbs(&goal, spec).is_none());
    std::fs::write(&npz[3], &bytes).unwrap();
    assert!(core(Load::Read).cached_pdbs(&goal, spec).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A partition that leaves tiles out is taken (its estimate stays a lower bound), with a
/// note naming the tiles; a whole one gets no note.
#[test]
fn a_partition_that_leaves_tiles_out_is_noted() {
    use npuzzle::request::{Event, Note, Sources};
    use std::sync::{Arc, Mutex};
    let dir = pdb_folder("left-out-pdb");
    let goal = Board::solved("3x3".parse().unwrap());
    let notes_of = |spec: &str| {
        let notes = Arc::new(Mutex::new(Vec::<Note>::new()));
        let heard = notes.clone();
        let core = npuzzle::request::Core::new(Sources {
            pdb_dir: Some(dir.clone()),
            listener: Some(Arc::new(move |e: &Event<'_>| {
                if let Event::Note(t) = e {
                    heard.lock().unwrap().push((*t).clone());
                }
            })),
            ..Sources::default()
        });
        let h = core.named_pdbs(&goal, spec, &Limits::default()).unwrap();
        let start: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let s = idastar_pdb(&start, &goal, &h, &Limits::default()).unwrap();
        assert_eq!(s.len(), 31, "{spec}: still optimal");
        let texts: Vec<String> = notes
            .lock()
            .unwrap()
            .iter()
            .map(|n| n.text.clone())
            .collect();
        texts
    };
    let one = notes_of("1,2,3/5");
    assert!(
        one.iter()
            .any(|t| t.contains("the partition leaves tiles 4, 6-8 in no group")),
        "{one:?}"
    );
    let two = notes_of("1,2,3,4/5,6,7,8 + 1,2,3/4,5,6,7");
    assert!(
        two.iter()
            .any(|t| t.contains("partition 2 of 2 leaves tile 8 in no group: it adds")),
        "{two:?}"
    );
    assert!(
        !two.iter().any(|t| t.contains("partition 1 of 2")),
        "{two:?}"
    );
    assert!(notes_of("1,2,3,4/5,6,7,8")
        .iter()
        .all(|t| !t.contains("in no group")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Too many partitions are refused before any database is built or saved.
#[test]
fn too_many_partitions_are_refused_before_building() {
    let dir = pdb_folder("many-pdb");
    let goal = Board::solved("3x3".parse().unwrap());
    let core = core_at(&dir, Load::default());
    let spec = ["1,2,3,4/5,6,7,8"; 17].join(" + ");
    let err = core
        .named_pdbs(&goal, &spec, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("expected 1 to 16 partitions, found 17"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing built");
    // Sixteen are taken (one table each, shared).
    let h = core
        .named_pdbs(
            &goal,
            &["1,2,3,4/5,6,7,8"; 16].join(" + "),
            &Limits::default(),
        )
        .unwrap();
    assert_eq!(h.partitions(), 16);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// More distinct lookups than a tile's bookkeeping can number are refused with a message,
/// not miscounted: sixteen different partitions of the 35-puzzle into pairs and triples (240
/// databases, under their own limit of 255), and their reflections, make over 255.
#[test]
fn too_many_distinct_lookups_are_refused() {
    let goal = Board::solved("6x6".parse().unwrap());
    let limits = Limits::default();
    let mut rng = npuzzle::scramble::Rng::new(3);
    let mut parts = Vec::new();
    for _ in 0..16 {
        let mut tiles: Vec<u8> = (1..36).collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let (pairs, triples) = tiles.split_at(20);
        let dbs: Vec<PatternDb> = pairs
            .chunks(2)
            .chain(triples.chunks(3))
            .map(|p| PatternDb::build(&goal, p, &limits, 1, &mut |_| {}).unwrap())
            .collect();
        parts.push(dbs);
    }
    let err = PdbHeuristic::catalogue(&goal, parts)
        .unwrap_err()
        .to_string();
    assert!(err.contains("distinct lookups"), "{err}");
}

/// The fast solver maps a cached set where the process gives one answer ([`Load::Once`]:
/// reading a 5x5 catalogue first took longer than the answer): the set the fast solver
/// got is mapped, an exact search's is read into memory, and after that the fast solver
/// takes the one in memory. Where the sources say how, both go that way; by default
/// (servers, batches, libraries) nothing is mapped.
#[test]
fn the_fast_solver_maps_what_auto_would_read() {
    use npuzzle::request::Request;
    use npuzzle::Algorithm;
    let dir = pdb_folder("fast-map");
    let goal = Board::solved("5x5".parse().unwrap());
    let spec = "1,2,6,7/3,4,8,9/5,10,15,20/11,12,16,17/13,14,18,19/21,22,23,24";
    let core = |load| core_at(&dir, load);
    let limits = Limits::default();
    core(Load::Read).named_pdbs(&goal, spec, &limits).unwrap();
    let mapped = |h: &PdbHeuristic| h.databases().iter().all(|d| d.is_mapped());
    let read = |h: &PdbHeuristic| h.databases().iter().all(|d| !d.is_mapped());
    let (_, fast) = core(Load::Auto)
        .pdbs_for_fast(&goal, Some(spec), &limits)
        .unwrap()
        .unwrap();
    assert!(read(&fast), "by default nothing is mapped");
    let auto = core(Load::Once);
    let (_, fast) = auto
        .pdbs_for_fast(&goal, Some(spec), &limits)
        .unwrap()
        .unwrap();
    assert!(mapped(&fast), "the fast solver's set is mapped");
    let (_, exact) = auto
        .pdbs_for(&goal, Some(spec), &limits, 0.0)
        .unwrap()
        .unwrap();
    assert!(read(&exact), "an exact search's set is read");
    let (_, again) = auto
        .pdbs_for_fast(&goal, Some(spec), &limits)
        .unwrap()
        .unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&again, &exact),
        "then the read one serves both"
    );
    for (load, want_mapped) in [(Load::Read, false), (Load::Map, true)] {
        let c = core(load);
        let (_, h) = c
            .pdbs_for_fast(&goal, Some(spec), &limits)
            .unwrap()
            .unwrap();
        assert_eq!(mapped(&h), want_mapped, "{load:?}");
        assert_eq!(read(&h), !want_mapped, "{load:?}");
    }
    // Through a request (the faces' way in): an answer that reaches the goal, its bound
    // below it. (These small groups leave the weighted search short of its node budget
    // on this board, so the reduction solver answers, bounded by the set.)
    let board: Board = "1 0 3 6 2/13 14 22 21 12/20 9 5 4 18/17 7 23 10 16/11 19 24 15 8"
        .parse()
        .unwrap();
    let request = Request {
        algorithm: Algorithm::Fast,
        pdb: Some(spec.to_string()),
        ..Request::default()
    };
    let a = core(Load::Auto).answer(&board, &request).unwrap();
    let mut b = board.clone();
    b.apply_all(&a.moves).unwrap();
    assert_eq!(b, goal);
    let bound = a.report.lower_bound.unwrap();
    assert!(
        bound > 0 && bound as usize <= a.moves.len(),
        "{:?}",
        a.report
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh database folder for one test (in the system's temporary folder, named by the
/// test and the process).
fn pdb_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("npuzzle-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A solving core with databases in `dir`, loaded as `load` says.
fn core_at(dir: &std::path::Path, load: Load) -> npuzzle::request::Core {
    npuzzle::request::Core::new(npuzzle::request::Sources {
        pdb_dir: Some(dir.to_path_buf()),
        load,
        ..npuzzle::request::Sources::default()
    })
}

/// Korf & Felner's 24-puzzle goal, the blank first (tile `5r + c` at row r, column c).
fn korf_goal() -> Board {
    "0 1 2 3 4/5 6 7 8 9/10 11 12 13 14/15 16 17 18 19/20 21 22 23 24"
        .parse()
        .unwrap()
}

/// The partitions of a catalogue file of `bench/pdb/` (for Korf's goal).
fn bench_partitions(file: &str) -> Vec<Vec<Vec<u8>>> {
    let path = format!("{}/../../bench/pdb/{file}", env!("CARGO_MANIFEST_DIR"));
    let spec = std::fs::read_to_string(&path).unwrap();
    npuzzle::heuristic::pdb::partitions(&korf_goal(), spec.trim()).unwrap()
}

/// A 24-puzzle partition as sets of tiles, mirrored in the main diagonal of Korf's goal
/// where `mirror` says.
fn tile_sets(
    p: &[Vec<u8>],
    mirror: bool,
) -> std::collections::BTreeSet<std::collections::BTreeSet<u8>> {
    let transpose = |t: u8| if mirror { (t % 5) * 5 + t / 5 } else { t };
    p.iter()
        .map(|g| g.iter().map(|&t| transpose(t)).collect())
        .collect()
}

/// The catalogues with 7-tile groups that benchmark the 24-puzzle (`bench/pdb/`): the
/// `6-6-6-6x4` catalogue's first partitions for Korf's goal (all four, or the three that
/// the search's counts show the strongest), their tiles in the same order (so its files
/// are the catalogue's own), then partitions of the 24 tiles with 7-tile groups.
#[test]
fn the_benchmarked_24_puzzle_catalogues_with_7_tile_groups_extend_the_catalogue() {
    use npuzzle::heuristic::pdb::partitions;
    let korf = korf_goal();
    let catalogue = partitions(&korf, "6-6-6-6x4").unwrap();
    for (file, kept, sizes) in [
        ("korf24-catalogue-and-seven.txt", 4, vec![vec![5, 6, 6, 7]]),
        (
            "korf24-catalogue-and-two-sevens.txt",
            4,
            vec![vec![5, 6, 6, 7], vec![5, 5, 7, 7]],
        ),
        ("korf24-three-and-seven.txt", 3, vec![vec![5, 6, 6, 7]]),
    ] {
        let all = bench_partitions(file);
        assert_eq!(all.len(), kept + sizes.len(), "{file}");
        assert_eq!(all[..kept], catalogue[..kept], "{file}");
        for (p, want) in all[kept..].iter().zip(&sizes) {
            let mut tiles: Vec<u8> = p.iter().flatten().copied().collect();
            tiles.sort_unstable();
            assert_eq!(tiles, (1..25).collect::<Vec<u8>>(), "{file}");
            let mut got: Vec<usize> = p.iter().map(|g| g.len()).collect();
            got.sort_unstable();
            assert_eq!(&got, want, "{file}");
        }
    }
}

/// The benchmarked 14-partition catalogue (`bench/pdb/korf24-small-t.txt`): partitions of
/// the 24 tiles into four groups of 6, in transposed pairs (each partition's mirror in the
/// main diagonal, where Korf's goal puts tile `5r + c` at row r, column c, is another
/// one), and the `6-6-6-6x4` catalogue's groups among them written in its order (so that
/// their files are the catalogue's own).
#[test]
fn the_benchmarked_14_partition_catalogue_is_of_transposed_pairs() {
    use npuzzle::heuristic::pdb::partitions;
    let korf = korf_goal();
    let all = bench_partitions("korf24-small-t.txt");
    assert_eq!(all.len(), 14);
    let sets: Vec<_> = all.iter().map(|p| tile_sets(p, false)).collect();
    for p in &all {
        let mut tiles: Vec<u8> = p.iter().flatten().copied().collect();
        tiles.sort_unstable();
        assert_eq!(tiles, (1..25).collect::<Vec<u8>>());
        assert!(p.iter().all(|g| g.len() == 6));
        assert!(
            sets.contains(&tile_sets(p, true)),
            "{p:?} has no transposed partition"
        );
    }
    for group in partitions(&korf, "6-6-6-6x4").unwrap().iter().flatten() {
        assert!(
            all.iter().flatten().any(|g| g == group),
            "the catalogue's group {group:?} in its order"
        );
    }
}

/// The benchmarked 7-partition catalogue (`bench/pdb/korf24-small.txt`) is every other
/// partition of the 14-partition one, and with the transposes of its partitions makes all
/// 14: the search's reflected lookups make the two the same heuristic.
#[test]
fn the_benchmarked_7_partition_catalogue_is_the_14_without_transposes() {
    use std::collections::BTreeSet;
    let seven = bench_partitions("korf24-small.txt");
    let fourteen = bench_partitions("korf24-small-t.txt");
    assert_eq!(seven.len(), 7);
    let every_other: Vec<_> = fourteen.iter().step_by(2).cloned().collect();
    assert_eq!(seven, every_other);
    let mut with_transposes = BTreeSet::new();
    for p in &seven {
        assert!(with_transposes.insert(tile_sets(p, false)), "{p:?} twice");
        assert!(
            with_transposes.insert(tile_sets(p, true)),
            "{p:?}'s transpose among them"
        );
    }
    let all: BTreeSet<_> = fourteen.iter().map(|p| tile_sets(p, false)).collect();
    assert_eq!(with_transposes, all);
}

/// The benchmarked four-partition catalogue (`bench/pdb/korf24-small-four.txt`) is four of
/// the seven, written as the seven write them (so that it reads the seven's files), and
/// needs 10 of their 14 tables: fewer lookups a node for more nodes.
#[test]
fn the_benchmarked_4_partition_catalogue_is_four_of_the_seven() {
    use std::collections::BTreeSet;
    let seven = bench_partitions("korf24-small.txt");
    let four = bench_partitions("korf24-small-four.txt");
    assert_eq!(four.len(), 4);
    for p in &four {
        assert!(
            seven.contains(p),
            "{p:?} is not one of the seven as they write it"
        );
    }
    let distinct =
        |ps: &[Vec<Vec<u8>>]| -> BTreeSet<Vec<u8>> { ps.iter().flatten().cloned().collect() };
    assert_eq!(distinct(&seven).len(), 14);
    assert_eq!(distinct(&four).len(), 10);
    let sets: BTreeSet<_> = four.iter().map(|p| tile_sets(p, false)).collect();
    assert_eq!(sets.len(), 4, "a partition twice");
}
