//! Zero-aware pattern databases: entries against an exhaustive search that knows where the
//! blank is, admissibility on every 3x3 state, shortest answers with fewer nodes, files.

mod common;

use common::{all_boards, distances, distances_with_blank, least_over_blank, reaches};
use npuzzle::heuristic::pdb::{
    cached_file, file_name, partitions, zero_aware_file_name, Load, PatternDb, PdbHeuristic,
    PdbInfo,
};
use npuzzle::search::{idastar, idastar_pdb, idastar_pdb_parallel};
use npuzzle::{Board, HeuristicKind, Limits, SearchError, Size};

/// Builds the zero-aware database and checks every entry: the plain value is the least
/// over the blank's cells, every cell's exact value has the plain value's parity, and the
/// value with the blank is the exhaustive search's, held to two moves over the plain value
/// (what an entry's bit is worth).
fn check_zero_aware(goal: &Board, tiles: &[u8], threads: usize) -> (PatternDb, usize) {
    let lim = Limits::default();
    let db = PatternDb::build_zero_aware(goal, tiles, &lim, threads, &mut |_| {}).unwrap();
    let plain = PatternDb::build(goal, tiles, &lim, threads, &mut |_| {}).unwrap();
    assert!(db.is_zero_aware() && !plain.is_zero_aware());
    assert_eq!(db.len(), plain.len());
    assert_eq!(db.entries().len(), 4 * plain.entries().len());
    let want = distances_with_blank(goal, tiles);
    let least = least_over_blank(&want);
    let mut raised = 0;
    for ((pos, blank), &d) in &want {
        let idx = db.placement().index(pos);
        let base = least[pos];
        assert_eq!(db.at(idx) as u32, base, "{goal} {tiles:?} at {pos:?}");
        assert_eq!(plain.at(idx), db.at(idx), "{goal} {tiles:?} at {pos:?}");
        assert_eq!(
            (d - base) % 2,
            0,
            "{goal} {tiles:?} at {pos:?}, blank on {blank}: {d} against {base}"
        );
        assert_eq!(
            db.at_blank(idx, *blank),
            d.min(base + 2),
            "{goal} {tiles:?} at {pos:?}, blank on {blank}"
        );
        assert_eq!(plain.at_blank(idx, *blank), base);
        raised += usize::from(d > base);
    }
    db.check_consistent(threads).unwrap();
    (db, raised)
}

#[test]
fn zero_aware_entries_match_an_exhaustive_search_with_the_blank() {
    let goal = Board::solved(Size::square(3).unwrap());
    let mut raised = 0;
    raised += check_zero_aware(&goal, &[1, 2, 3, 4], 1).1;
    raised += check_zero_aware(&goal, &[2, 4, 6, 8], 2).1;
    raised += check_zero_aware(&goal, &[5, 6, 7, 8], 1).1;
    let goal: Board = "1 2 3/8 0 4/7 6 5".parse().unwrap();
    raised += check_zero_aware(&goal, &[1, 3, 5, 7], 1).1;
    let goal = Board::solved(Size::new(4, 2).unwrap());
    raised += check_zero_aware(&goal, &[1, 2, 3, 4, 5], 1).1;
    let goal = Board::solved(Size::new(2, 4).unwrap());
    raised += check_zero_aware(&goal, &[1, 3, 5, 7], 1).1;
    let goal = Board::solved(Size::new(4, 3).unwrap());
    raised += check_zero_aware(&goal, &[1, 2, 3, 4, 5], 2).1;
    // Every tile but the blank: half the placements are never reached (parity).
    let goal = Board::solved(Size::square(3).unwrap());
    check_zero_aware(&goal, &[1, 2, 3, 4, 5, 6, 7, 8], 2);
    assert!(raised > 1000, "the blank's region matters: {raised}");
}

/// Threads race to mark a region first; which one wins must not change an entry: a
/// build on one thread and builds on several give the same bytes (a region's extra move
/// once went missing when two threads marked it at once), and `prove` accepts them.
#[test]
fn zero_aware_builds_give_the_same_entries_on_any_number_of_threads() {
    let goal = Board::solved(Size::square(4).unwrap());
    let lim = Limits::default();
    // 524,160 placements of 11 free cells each: the bits a placement keeps straddle
    // words all over, and the build runs on several threads.
    let tiles = [1, 2, 5, 6, 3];
    let one = PatternDb::build_zero_aware(&goal, &tiles, &lim, 1, &mut |_| {}).unwrap();
    let raised = (0..one.len() as u64)
        .filter(|&i| (0..16).any(|c| one.at_blank(i, c) > one.at(i) as u32))
        .count();
    assert!(raised > 1000, "the blank's region matters: {raised}");
    for _ in 0..3 {
        let many = PatternDb::build_zero_aware(&goal, &tiles, &lim, 4, &mut |_| {}).unwrap();
        assert!(
            many.entries() == one.entries(),
            "entries differ between thread counts"
        );
    }
    one.prove(&lim, 4).unwrap();
}

/// A catalogue of partitions, every database built zero-aware or plain.
fn catalogue(goal: &Board, spec: &str, zero_aware: bool) -> PdbHeuristic {
    let lim = Limits::default();
    let sets = partitions(goal, spec)
        .unwrap()
        .iter()
        .map(|groups| {
            groups
                .iter()
                .map(|t| {
                    if zero_aware {
                        PatternDb::build_zero_aware(goal, t, &lim, 0, &mut |_| {}).unwrap()
                    } else {
                        PatternDb::build(goal, t, &lim, 0, &mut |_| {}).unwrap()
                    }
                })
                .collect()
        })
        .collect();
    PdbHeuristic::catalogue(goal, sets).unwrap()
}

#[test]
fn zero_aware_sums_are_admissible_and_never_below_plain_on_every_3x3_state() {
    let limits = Limits::default();
    for goal in [
        "1 2 3/4 5 6/7 8 0",
        "0 1 2/3 4 5/6 7 8",
        "1 2 3/8 0 4/7 6 5",
        "1 2 3/4 5 0/6 7 8",
    ] {
        let goal: Board = goal.parse().unwrap();
        let dist = distances(&goal);
        for spec in ["1,2,3,4/5,6,7,8", "1,2,3/4,5,6/7,8 + 1,4,7/2,5,8,3,6"] {
            let za = catalogue(&goal, spec, true);
            let plain = catalogue(&goal, spec, false);
            let mut stronger = 0;
            for b in all_boards(3, 3) {
                if let Some(&d) = dist.get(&b) {
                    let (e, p) = (za.estimate(&b), plain.estimate(&b));
                    assert!(e <= d, "{goal} {spec}: {b}: {e} > {d}");
                    assert!(e >= p, "{goal} {spec}: {b}: {e} < {p}");
                    stronger += u32::from(e > p);
                }
            }
            assert!(stronger > 1000, "{goal} {spec}: {stronger}");
            // Searches agree with the oracle at every depth, on one thread and two.
            let mut by_depth: Vec<(&Board, u32)> = dist.iter().map(|(b, &d)| (b, d)).collect();
            by_depth.sort_by_key(|(b, d)| (*d, b.cells().to_vec()));
            by_depth.dedup_by_key(|(_, d)| *d);
            for (b, d) in by_depth {
                let one = idastar_pdb(b, &goal, &za, &limits).unwrap();
                let two = idastar_pdb_parallel(b, &goal, &za, &limits, 2).unwrap();
                assert_eq!(one.len() as u32, d, "{goal}: {b}");
                assert_eq!(two.len() as u32, d, "{goal}: {b}");
                assert!(reaches(b, &one.moves, &goal) && reaches(b, &two.moves, &goal));
            }
        }
    }
}

#[test]
fn zero_aware_5_5_5_finds_shortest_15_puzzle_answers_with_fewer_nodes() {
    let limits = Limits::default();
    for goal in [
        Board::solved("4x4".parse().unwrap()),
        "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap(),
    ] {
        let plain = catalogue(&goal, "5-5-5", false);
        let za = catalogue(&goal, "5-5-5", true);
        let mut rng = npuzzle::scramble::Rng::new(11);
        let (mut nodes_plain, mut nodes_za) = (0, 0);
        for _ in 0..10 {
            let (start, _) = npuzzle::scramble::walk(&goal, 90, &mut rng).unwrap();
            let a = idastar_pdb(&start, &goal, &plain, &limits).unwrap();
            let b = idastar_pdb(&start, &goal, &za, &limits).unwrap();
            let lc = idastar(&start, &goal, HeuristicKind::LinearConflict, &limits).unwrap();
            assert_eq!(a.len(), lc.len(), "{start}");
            assert_eq!(b.len(), lc.len(), "{start}");
            assert!(reaches(&start, &b.moves, &goal));
            assert!(za.estimate(&start) >= plain.estimate(&start));
            nodes_plain += a.stats.expanded;
            nodes_za += b.stats.expanded;
        }
        assert!(nodes_za < nodes_plain, "{nodes_za} >= {nodes_plain}");
    }
}

#[test]
fn zero_aware_files_round_trip_and_forged_bits_are_caught() {
    let goal = Board::solved(Size::square(4).unwrap());
    let tiles = [1u8, 2, 5, 6];
    let lim = Limits::default();
    let db = PatternDb::build_zero_aware(&goal, &tiles, &lim, 0, &mut |_| {}).unwrap();
    let bytes = db.to_bytes();
    let back = PatternDb::from_bytes(&bytes).unwrap();
    assert!(back.is_zero_aware());
    assert_eq!(back.to_bytes(), bytes);
    for len in [0, 10, 30, bytes.len() / 2, bytes.len() - 1] {
        assert!(PatternDb::from_bytes(&bytes[..len]).is_err(), "{len}");
    }
    let dir = std::env::temp_dir().join(format!("npuzzle-za-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The plain file alone, then both: the zero-aware one is taken.
    let plain = PatternDb::build(&goal, &tiles, &lim, 0, &mut |_| {}).unwrap();
    plain.save(&dir.join(file_name(&goal, &tiles))).unwrap();
    assert_eq!(
        cached_file(&dir, &goal, &tiles),
        dir.join(file_name(&goal, &tiles))
    );
    let path = dir.join(zero_aware_file_name(&goal, &tiles));
    db.save(&path).unwrap();
    assert_eq!(cached_file(&dir, &goal, &tiles), path);
    let info = PdbInfo::read(&path).unwrap();
    assert!(info.zero_aware && info.entries == db.len() as u64);
    assert!(
        !PdbInfo::read(&dir.join(file_name(&goal, &tiles)))
            .unwrap()
            .zero_aware
    );
    for how in [Load::Map, Load::Read, Load::Auto] {
        let d = PatternDb::open_checked(&path, &goal, &tiles, how).unwrap();
        assert!(d.is_zero_aware() && d.entries() == db.entries(), "{how:?}");
    }
    // Another version number: refused with what was expected.
    let mut other = bytes.clone();
    other[8] = 3;
    let e = PatternDb::from_bytes(&other).unwrap_err().to_string();
    assert!(e.contains("version"), "{e}");
    // The version of plain files on zero-aware entries: the length gives it away.
    let mut other = bytes.clone();
    other[8] = 1;
    assert!(PatternDb::from_bytes(&other).is_err());

    // Forged and sealed again: a region bit set where the plain value is reached is caught
    // (in nearly every placement), and so is one on an occupied cell or on the goal.
    let n = goal.size().cells();
    let body = bytes.len() - 8;
    let start = body - db.entries().len();
    let forge = |i: usize, bits: u32| {
        let mut b = bytes.clone();
        let at = start + 4 * i;
        let w = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) | bits << 7;
        b[at..at + 4].copy_from_slice(&w.to_le_bytes());
        let sum = npuzzle::files::checksum(&b[..body]);
        b[body..].copy_from_slice(&sum.to_le_bytes());
        PatternDb::from_bytes(&b).unwrap()
    };
    let (mut tried, mut caught) = (0, 0);
    let mut pos = vec![0u8; tiles.len()];
    for i in (0..db.len()).step_by(97) {
        db.placement().unindex(i as u64, &mut pos);
        let occupied = pos.iter().fold(0u32, |m, &c| m | 1 << c);
        // An occupied cell: always caught.
        let c = pos[0] as u32;
        assert!(
            forge(i, 1 << c).check_consistent(1).is_err(),
            "entry {i} cell {c}"
        );
        // One free cell of a region of several: always caught.
        // Every region whose value is the plain one, one at a time, whole.
        let mut left = !occupied & ((1 << n) - 1);
        while left != 0 {
            let region = region_of(goal.size(), !occupied, left.trailing_zeros() as usize);
            left &= !region;
            let b = region.trailing_zeros() as usize;
            if db.at_blank(i as u64, b) != db.at(i as u64) as u32 {
                continue;
            }
            if region.count_ones() > 1 {
                assert!(
                    forge(i, 1 << b).check_consistent(1).is_err(),
                    "entry {i} cell {b}"
                );
            }
            tried += 1;
            caught += usize::from(forge(i, region).check_consistent(1).is_err());
        }
    }
    assert!(
        tried > 100 && caught * 100 >= tried * 95,
        "{caught} of {tried}"
    );
    let home: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
    let gi = db.placement().index(&home) as usize;
    let e = forge(gi, 1 << goal.blank())
        .check_consistent(1)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("expected entries that a build could have written"),
        "{e}"
    );
    // On disk: a forged file is refused by the first checked load.
    let mut b = forge(gi, 1 << goal.blank()).to_bytes();
    let l = b.len();
    let sum = npuzzle::files::checksum(&b[..l - 8]);
    b[l - 8..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &b).unwrap();
    assert!(PatternDb::open_checked(&path, &goal, &tiles, Load::Map).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cells of `free` (a bit each) reachable from `from` through `free` on `size`.
fn region_of(size: Size, free: u32, from: usize) -> u32 {
    let (w, n) = (size.width(), size.cells());
    let mut seen = 1u32 << from;
    let mut stack = vec![from];
    while let Some(c) = stack.pop() {
        let mut next = vec![];
        if c % w > 0 {
            next.push(c - 1);
        }
        if c % w + 1 < w {
            next.push(c + 1);
        }
        if c >= w {
            next.push(c - w);
        }
        if c + w < n {
            next.push(c + w);
        }
        for d in next {
            if free >> d & 1 == 1 && seen >> d & 1 == 0 {
                seen |= 1 << d;
                stack.push(d);
            }
        }
    }
    seen
}

#[test]
fn zero_aware_builds_past_25_cells_are_refused_with_a_reason() {
    let goal = Board::solved(Size::square(6).unwrap());
    let e = PatternDb::build_zero_aware(&goal, &[1, 2], &Limits::default(), 1, &mut |_| {})
        .unwrap_err();
    match e {
        SearchError::Unsupported { reason, .. } => {
            assert!(
                reason.contains("up to 25 cells") && reason.contains("6x6"),
                "{reason}"
            )
        }
        e => panic!("{e}"),
    }
    // 5x2 and 2x5 (10 cells) and 5x5 are fine.
    for size in ["5x2", "2x5"] {
        let goal = Board::solved(size.parse().unwrap());
        check_zero_aware(&goal, &[1, 2, 3], 1);
    }
}

/// A catalogue loaded from files by the solving core, read into memory (files mapped, the
/// tables looked up copied, the pages of the others given back): the same estimates as the
/// databases built in memory, zero-aware and plain mixed, and shortest answers.
#[test]
fn a_catalogue_loaded_from_files_keeps_its_estimates() {
    use npuzzle::request::{Core, Sources};
    let goal = Board::solved(Size::square(3).unwrap());
    let lim = Limits::default();
    // The second partition's groups are the first's reflections.
    let spec = "1,2,3/4,5,6/7,8 + 1,4,7/2,5,8/3,6 + 1,2,4,5/3,6,7,8";
    let dir = std::env::temp_dir().join(format!("npuzzle-za-core-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut sets = Vec::new();
    for (p, groups) in partitions(&goal, spec).unwrap().iter().enumerate() {
        let mut dbs = Vec::new();
        for tiles in groups {
            // Zero-aware for the first and last partitions, plain for the second.
            let db = if p != 1 {
                let db = PatternDb::build_zero_aware(&goal, tiles, &lim, 1, &mut |_| {}).unwrap();
                db.save(&dir.join(zero_aware_file_name(&goal, tiles)))
                    .unwrap();
                db
            } else {
                let db = PatternDb::build(&goal, tiles, &lim, 1, &mut |_| {}).unwrap();
                db.save(&dir.join(file_name(&goal, tiles))).unwrap();
                db
            };
            dbs.push(db);
        }
        sets.push(dbs);
    }
    let built = PdbHeuristic::catalogue(&goal, sets).unwrap();
    for load in [Load::Read, Load::Map, Load::Auto] {
        let core = Core::new(Sources {
            pdb_dir: Some(dir.clone()),
            load,
            ..Sources::default()
        });
        let h = core.named_pdbs(&goal, spec, &lim).unwrap();
        assert_eq!(h.label("x"), "pdb x + reflection (partly zero-aware)");
        let dist = distances(&goal);
        for b in all_boards(3, 3) {
            if dist.contains_key(&b) {
                assert_eq!(h.estimate(&b), built.estimate(&b), "{load:?} {b}");
            }
        }
        let mut rng = npuzzle::scramble::Rng::new(4);
        for _ in 0..20 {
            let b = npuzzle::scramble::uniform(&goal, &mut rng);
            let s = idastar_pdb(&b, &goal, &h, &lim).unwrap();
            assert_eq!(s.len() as u32, dist[&b], "{load:?} {b}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On 2x2 a pattern of two tiles leaves placements that no build reaches (each tile keeps
/// its place in the cycle of the four cells): both kinds pass the consistency pass, their
/// largest value is a reached one, and a file cut short says it is truncated.
#[test]
fn two_by_two_databases_pass_the_check_and_short_files_say_truncated() {
    let goal = Board::solved(Size::square(2).unwrap());
    let lim = Limits::default();
    for tiles in [&[1u8, 2][..], &[3], &[1, 2, 3]] {
        let plain = PatternDb::build(&goal, tiles, &lim, 1, &mut |_| {}).unwrap();
        let za = PatternDb::build_zero_aware(&goal, tiles, &lim, 1, &mut |_| {}).unwrap();
        for db in [&plain, &za] {
            db.check_consistent(1).unwrap();
            assert!(db.max_value() <= 6, "{tiles:?}: {}", db.max_value());
        }
        let (_, raised) = check_zero_aware(&goal, tiles, 1);
        assert_eq!(raised, 0, "one region on 2x2");
    }
    let db = PatternDb::build_zero_aware(&goal, &[1, 2], &lim, 1, &mut |_| {}).unwrap();
    let bytes = db.to_bytes();
    let e = PatternDb::from_bytes(&bytes[..bytes.len() - 5])
        .unwrap_err()
        .to_string();
    assert!(e.contains("(truncated)"), "{e}");
}
