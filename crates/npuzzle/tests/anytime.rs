//! The beam and anytime solvers: every answer reaches the goal (every size from 2x2 to
//! 16x16, any goal), lower bounds never exceed the optimum (a plain BFS written here on
//! boards small enough), and the answers told to the progress hook only ever get
//! shorter, the last one being the answer.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use npuzzle::limits::SearchProgress;
use npuzzle::scramble::{uniform, walk, Rng};
use npuzzle::search::{anytime, beam};
use npuzzle::{Board, Direction, Limits, SearchError, Size};

fn reaches(start: &Board, moves: &[Direction], goal: &Board) -> bool {
    let mut b = start.clone();
    b.apply_all(moves).is_ok() && &b == goal
}

/// Every board's distance to `goal` by a plain breadth-first search (small boards).
fn distances(goal: &Board) -> HashMap<Vec<u8>, usize> {
    let mut d = HashMap::from([(goal.cells().to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let k = d[b.cells()];
        for m in Direction::ALL {
            let mut next = b.clone();
            if next.apply(m).is_ok() && !d.contains_key(next.cells()) {
                d.insert(next.cells().to_vec(), k + 1);
                queue.push_back(next);
            }
        }
    }
    d
}

/// The usual goal (`kind` 0), or a random one with the blank anywhere.
fn goal_of(kind: usize, size: Size, rng: &mut Rng) -> Board {
    match kind {
        0 => Board::solved(size),
        _ => uniform(&Board::solved(size), rng),
    }
}

fn within(ms: u64) -> Limits {
    Limits {
        time_limit: Some(Duration::from_millis(ms)),
        max_memory: 512 << 20,
        ..Limits::default()
    }
}

#[test]
fn beams_of_any_width_reach_the_goal_on_every_shape() {
    let mut rng = Rng::new(41);
    let shapes = [
        "2x2", "2x3", "3x2", "3x3", "2x8", "8x2", "4x4", "5x3", "6x6", "7x5", "16x2", "2x16",
        // Ls (a row and a column in one beam) on square and oblong regions.
        "7x7", "7x10", "10x8", "9x9", "16x16",
    ];
    for shape in shapes {
        let size: Size = shape.parse().unwrap();
        for goal_kind in 0..2 {
            let goal = goal_of(goal_kind, size, &mut rng);
            let start = uniform(&goal, &mut rng);
            // Width 1 stalls on most boards (finished by the fast solver); wider beams
            // reach the goal themselves.
            for width in [1, 7, 200] {
                let m = beam(&start, &goal, width, 2, &Limits::default()).unwrap();
                assert!(reaches(&start, &m, &goal), "{shape} width {width}");
            }
        }
    }
}

#[test]
fn anytime_answers_reach_the_goal_and_bounds_stay_below_the_optimum() {
    let mut rng = Rng::new(42);
    for shape in ["2x2", "3x2", "2x4", "3x3", "4x2", "2x5", "5x2"] {
        let size: Size = shape.parse().unwrap();
        let goal = uniform(&Board::solved(size), &mut rng);
        let dist = distances(&goal);
        for _ in 0..6 {
            let start = uniform(&goal, &mut rng);
            let optimum = dist[start.cells()];
            let a = anytime(&start, &goal, 1, &within(200)).unwrap();
            assert!(reaches(&start, &a.solution.moves, &goal), "{shape} {start}");
            assert!(a.lower_bound as usize <= optimum, "{shape} {start}");
            assert!(a.solution.len() >= optimum, "{shape} {start}");
            if a.proven {
                assert_eq!(a.solution.len(), optimum, "{shape} {start}");
            }
        }
    }
}

#[test]
fn anytime_on_big_boards_reaches_the_goal_with_a_sound_bound() {
    let mut rng = Rng::new(43);
    for shape in ["6x6", "16x2", "2x16", "7x9", "16x16"] {
        let goal = Board::solved(shape.parse().unwrap());
        let start = uniform(&goal, &mut rng);
        let a = anytime(&start, &goal, 2, &within(300)).unwrap();
        assert!(reaches(&start, &a.solution.moves, &goal), "{shape}");
        // The bound is at least the linear-conflict estimate, never above the answer.
        let lc = npuzzle::HeuristicKind::LinearConflict
            .estimate(&start, &goal)
            .unwrap();
        assert!(
            lc <= a.lower_bound && a.lower_bound as usize <= a.solution.len(),
            "{shape}"
        );
        assert!(!a.proven || a.solution.len() == a.lower_bound as usize);
        // The work is counted: the opening IDA*'s nodes, and the beams' positions and
        // children when a beam ran to its end.
        let st = a.solution.stats;
        assert!(st.expanded > 0, "{shape}");
        assert!(a.width == 0 || st.generated > 0, "{shape}: {st:?}");
        // Every node counted as expanded has a child counted as generated (the opening
        // IDA* stopped by its budget counts its children too).
        assert!(st.generated >= st.expanded, "{shape}: {st:?}");
        // Boards a few moves from the goal are proven at once, on every size.
        let (near, _) = walk(&goal, 12, &mut rng).unwrap();
        let a = anytime(&near, &goal, 2, &within(2000)).unwrap();
        assert!(a.proven, "{shape}");
        assert!(reaches(&near, &a.solution.moves, &goal) && a.solution.len() <= 12);
    }
}

#[test]
fn anytime_answers_only_get_shorter() {
    let mut rng = Rng::new(44);
    for shape in ["6x6", "8x8", "12x5"] {
        let goal = Board::solved(shape.parse().unwrap());
        let start = uniform(&goal, &mut rng);
        let told: Arc<Mutex<Vec<u32>>> = Arc::default();
        let t = told.clone();
        let limits = Limits {
            progress: Some(Arc::new(move |p: &SearchProgress| {
                if let Some(b) = p.best {
                    t.lock().unwrap().push(b);
                }
            })),
            ..within(600)
        };
        let a = anytime(&start, &goal, 2, &limits).unwrap();
        let told = told.lock().unwrap().clone();
        assert!(
            told.len() >= 2,
            "{shape}: the fast answer and at least one better: {told:?}"
        );
        assert!(told.windows(2).all(|w| w[1] < w[0]), "{shape}: {told:?}");
        assert_eq!(*told.last().unwrap() as usize, a.solution.len(), "{shape}");
        assert!(reaches(&start, &a.solution.moves, &goal));
    }
}

#[test]
fn a_cancelled_anytime_search_still_answers_or_says_why() {
    let goal = Board::solved("10x10".parse().unwrap());
    let start = uniform(&goal, &mut Rng::new(45));
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..within(5000)
    };
    // Cancelled before it began: an error, not a made-up answer.
    match anytime(&start, &goal, 2, &limits) {
        Err(SearchError::TimeLimit { .. }) => {}
        other => panic!("expected a stop, got {other:?}"),
    }
    // An unsolvable board is said so.
    let mut cells = start.cells().to_vec();
    let (i, j) = if cells[0] != 0 && cells[1] != 0 {
        (0, 1)
    } else {
        (2, 3)
    };
    cells.swap(i, j);
    let odd = Board::from_cells(start.size(), cells).unwrap();
    assert!(matches!(
        anytime(&odd, &goal, 1, &within(100)),
        Err(SearchError::Unsolvable)
    ));
}

/// Small databases for the usual goal of a `side` x `side` board (groups of three tiles in
/// goal order): on 6x6 they rank the anytime solver's last 6x6 region when given, on 7x7 a
/// 7x7 board whole.
fn small_set(side: usize) -> npuzzle::heuristic::pdb::PdbHeuristic {
    use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
    let goal = Board::solved(Size::square(side).unwrap());
    let tiles: Vec<u8> = (1..(side * side) as u8).collect();
    let dbs = tiles
        .chunks(3)
        .map(|t| PatternDb::build(&goal, t, &Limits::default(), 0, &mut |_| {}).unwrap())
        .collect();
    PdbHeuristic::new(&goal, dbs).unwrap()
}

/// The usual goal of a `side` x `side` board and a core holding [`small_set`] for it.
fn core_with_small_set(side: usize) -> (Board, npuzzle::request::Core) {
    use npuzzle::request::{Core, Sources};
    let goal = Board::solved(Size::square(side).unwrap());
    let core = Core::new(Sources {
        pdbs: vec![(goal.clone(), "small".into(), Arc::new(small_set(side)))],
        ..Sources::default()
    });
    (goal, core)
}

#[test]
fn anytime_with_databases_reaches_the_goal_with_a_sound_bound() {
    use npuzzle::search::anytime_with_databases;
    let dbs = small_set(6);
    let mut rng = Rng::new(46);
    // Boards whose last region is 6x6 (the databases rank it) and boards whose is not.
    for (shape, fits) in [
        ("6x6", true),
        ("7x7", true),
        ("8x6", true),
        ("6x9", true),
        ("9x8", true),
        // Less than half the board, on at most 100 cells: ranked (the plan gives them
        // only with 10 s or more).
        ("9x9", true),
        ("10x10", true),
        ("16x6", true),
        // Less than half the board otherwise: left to linear conflict.
        ("11x10", false),
        ("16x7", false),
        ("16x16", false),
        ("5x7", false),
        ("16x2", false),
        ("3x3", false),
    ] {
        let size: Size = shape.parse().unwrap();
        for goal_kind in 0..2 {
            let goal = goal_of(goal_kind, size, &mut rng);
            let start = uniform(&goal, &mut rng);
            let a = anytime_with_databases(&start, &goal, &[&dbs], 2, &within(400)).unwrap();
            assert!(reaches(&start, &a.solution.moves, &goal), "{shape}");
            assert_eq!(a.databases, fits, "{shape}");
            assert!(a.lower_bound as usize <= a.solution.len(), "{shape}");
            assert!(!a.proven || a.solution.len() == a.lower_bound as usize);
            // On 6x6 with the blank last the databases' estimate is a proven bound too.
            if shape == "6x6" && goal_kind == 0 {
                assert!(a.lower_bound >= dbs.estimate(&start), "{shape}");
            }
        }
    }
    // Near the goal the bound stays below the optimum (IDA* proves it), any goal whose
    // blank is last, renamed or not.
    for goal_kind in 0..2 {
        let goal = match goal_kind {
            0 => Board::solved("6x6".parse().unwrap()),
            _ => {
                let mut cells: Vec<u8> = (1..36).rev().collect();
                cells.push(0);
                Board::from_cells("6x6".parse().unwrap(), cells).unwrap()
            }
        };
        for _ in 0..4 {
            let (start, _) = walk(&goal, 24, &mut rng).unwrap();
            let optimum = npuzzle::search::idastar(
                &start,
                &goal,
                npuzzle::HeuristicKind::LinearConflict,
                &Limits::default(),
            )
            .unwrap()
            .len();
            let a = anytime_with_databases(&start, &goal, &[&dbs], 2, &within(300)).unwrap();
            assert!(a.lower_bound as usize <= optimum, "{start}");
            assert!(a.solution.len() >= optimum);
        }
    }
}

/// Where the last 6x6 region is less than half the board, `region_for` gives it to
/// databases on at most 100 cells (9x9, 10x10, 16x6) from 10 s on, and without a clock (a
/// fixed width): there the beams rank it by the sets given, and the answer still reaches
/// the goal with a bound below its length; on a bigger board they are left out. (The
/// anytime solver at a time limit: `anytime_with_databases_reaches_the_goal_with_a_sound_bound`.)
#[test]
fn databases_rank_a_big_boards_last_region_up_to_100_cells() {
    use npuzzle::search::{beams_at_width, region_for, BIG_REGION_FROM};
    let dbs = small_set(6);
    let mut rng = Rng::new(47);
    let six = Size::square(6).unwrap();
    for (shape, fits) in [
        ("9x9", true),
        ("10x10", true),
        ("11x10", false),
        ("16x6", true),
        ("16x7", false),
    ] {
        let size: Size = shape.parse().unwrap();
        assert_eq!(region_for(size, None), fits.then_some(six), "{shape}");
        assert_eq!(
            region_for(size, Some(BIG_REGION_FROM)),
            region_for(size, None),
            "{shape}"
        );
        assert_eq!(
            region_for(size, Some(BIG_REGION_FROM - Duration::from_millis(1))),
            None,
            "{shape}"
        );
        for goal_kind in 0..2 {
            let goal = goal_of(goal_kind, size, &mut rng);
            let start = uniform(&goal, &mut rng);
            let a = beams_at_width(&start, &goal, &[&dbs], 8, 2, &Limits::default()).unwrap();
            assert!(reaches(&start, &a.solution.moves, &goal), "{shape}");
            assert_eq!(a.databases, fits, "{shape}");
            assert!(a.lower_bound as usize <= a.solution.len(), "{shape}");
        }
    }
}

/// Databases of a board's own size rank the whole board in one beam (no lines first):
/// the answer reaches the goal, the report says databases ranked it, and on the usual goal
/// the databases' estimate is part of the proven bound; a bigger board leaves them out.
#[test]
fn databases_of_the_boards_size_rank_it_whole() {
    use npuzzle::search::anytime_with_databases;
    let dbs = small_set(7);
    let mut rng = Rng::new(53);
    for (shape, fits) in [("7x7", true), ("8x8", false), ("7x8", false)] {
        let size: Size = shape.parse().unwrap();
        for goal_kind in 0..2 {
            let goal = goal_of(goal_kind, size, &mut rng);
            let start = uniform(&goal, &mut rng);
            let a = anytime_with_databases(&start, &goal, &[&dbs], 2, &within(400)).unwrap();
            assert!(reaches(&start, &a.solution.moves, &goal), "{shape}");
            assert_eq!(a.databases, fits, "{shape} {goal_kind}");
            assert!(a.lower_bound as usize <= a.solution.len(), "{shape}");
            if fits && goal_kind == 0 {
                assert!(a.lower_bound >= dbs.estimate(&start), "{shape}");
            }
        }
    }
    // The beam alone, past the opening search and the fast solver: its answer against the
    // fast solver's (a whole-board beam ranked by databases answers far shorter).
    let goal = Board::solved("7x7".parse().unwrap());
    let start = uniform(&goal, &mut rng);
    let a = anytime_with_databases(&start, &goal, &[&dbs], 2, &within(1000)).unwrap();
    let fast = npuzzle::search::fast(&start, &goal, &Limits::default()).unwrap();
    assert!(
        a.width > 0 && a.solution.len() < fast.moves.len(),
        "{} {}",
        a.solution.len(),
        fast.moves.len()
    );
}

/// The library's request gives the anytime solver the 6x6 databases when they are at
/// hand (here preloaded), and its report says so; without them it ranks by linear
/// conflict.
#[test]
fn the_request_ranks_the_last_region_by_databases_at_hand() {
    use npuzzle::request::{Core, Request, Sources};
    let (_, with) = core_with_small_set(6);
    let without = Core::new(Sources::default());
    let goal = Board::solved("7x7".parse().unwrap());
    let start = uniform(&goal, &mut Rng::new(47));
    let request = Request {
        limits: within(500),
        ..Request::default()
    };
    for (core, name) in [
        (&with, "pattern-database beam"),
        (&without, "linear-conflict beam"),
    ] {
        let a = core.answer(&start, &request).unwrap();
        assert_eq!(a.report.algorithm, "anytime");
        assert_eq!(a.report.heuristic.as_deref(), Some(name));
        assert!(reaches(&start, &a.moves, &goal));
    }
    // Databases in memory are used however short the time (only reading them waits for
    // npuzzle::request::REGION_PDBS_FROM).
    let short = Request {
        limits: within(100),
        ..Request::default()
    };
    assert!(npuzzle::request::REGION_PDBS_FROM > Duration::from_millis(100));
    let a = with.answer(&start, &short).unwrap();
    assert_eq!(a.report.heuristic.as_deref(), Some("pattern-database beam"));
    assert!(reaches(&start, &a.moves, &goal));
}

/// On a 10x10 board the request gives the anytime solver the 6x6 databases at hand from a
/// 10 s limit on (`BIG_REGION_FROM`), and the solver ranks by them although the time left
/// to its beams is already less than that; below the limit it ranks by linear conflict.
#[test]
fn the_request_ranks_a_10x10_boards_last_region_from_10_s() {
    use npuzzle::request::Request;
    use npuzzle::search::BIG_REGION_FROM;
    let (_, core) = core_with_small_set(6);
    let goal = Board::solved("10x10".parse().unwrap());
    let start = uniform(&goal, &mut Rng::new(48));
    for (limit, name) in [
        (BIG_REGION_FROM, "pattern-database beam"),
        (Duration::from_millis(500), "linear-conflict beam"),
    ] {
        let request = Request {
            limits: Limits {
                time_limit: Some(limit),
                max_memory: 512 << 20,
                ..Limits::default()
            },
            ..Request::default()
        };
        let a = core.answer(&start, &request).unwrap();
        assert_eq!(a.report.heuristic.as_deref(), Some(name), "{limit:?}");
        assert!(reaches(&start, &a.moves, &goal));
    }
}

/// With 7x7 databases at hand (here preloaded, no 6x6 ones), the request ranks a 7x7 board
/// whole by them from `WHOLE_PDBS_FROM` on, and by linear conflict below it; other sizes
/// never use them.
#[test]
fn the_request_ranks_a_7x7_board_whole_with_time_enough() {
    use npuzzle::request::{Core, Request, Sources, WHOLE_PDBS_FROM};
    let (goal, core) = core_with_small_set(7);
    let start = uniform(&goal, &mut Rng::new(59));
    let at = |limit: Duration| Request {
        limits: Limits {
            time_limit: Some(limit),
            max_memory: 512 << 20,
            ..Limits::default()
        },
        ..Request::default()
    };
    for (limit, name) in [
        (Duration::from_millis(500), "linear-conflict beam"),
        (WHOLE_PDBS_FROM, "pattern-database beam"),
    ] {
        let a = core.answer(&start, &at(limit)).unwrap();
        assert_eq!(a.report.heuristic.as_deref(), Some(name), "{limit:?}");
        assert!(reaches(&start, &a.moves, &goal));
    }
    let eight = Board::solved("8x8".parse().unwrap());
    let start = uniform(&eight, &mut Rng::new(59));
    let a = core
        .answer(&start, &at(Duration::from_millis(500)))
        .unwrap();
    assert_eq!(a.report.heuristic.as_deref(), Some("linear-conflict beam"));
    // Given with the request (as Python gives them) on a 7x7 board of another goal, they
    // rank it whole at any limit.
    let other = uniform(&goal, &mut Rng::new(60));
    let start = uniform(&other, &mut Rng::new(62));
    let given = Request {
        goal: Some(other.clone()),
        pdbs: Some(("small".into(), Arc::new(small_set(7)))),
        ..at(Duration::from_millis(500))
    };
    let a = Core::new(Sources::default())
        .answer(&start, &given)
        .unwrap();
    assert_eq!(a.report.heuristic.as_deref(), Some("pattern-database beam"));
    assert!(reaches(&start, &a.moves, &other));
}

/// Databases given for a big board's own goal (as Python's `pdbs=` gives them) are used
/// the way auto uses databases on a big board: an exact search with them for half the
/// time, then the anytime solver's beams, ranked by them, from the bound it proved (not
/// the fast solver, whose answers are twice as long); at a fixed beam width, the beams
/// alone, at that width, ranked by them: the same answer as the library's beams given the
/// same set.
#[test]
fn databases_given_for_a_big_board_rank_its_beams() {
    use npuzzle::request::{Core, Request, Sources};
    use npuzzle::search::beams_at_width;
    let goal = Board::solved("6x6".parse().unwrap());
    let set = Arc::new(small_set(6));
    let core = Core::new(Sources::default());
    let start = uniform(&goal, &mut Rng::new(83));
    let given = |limits: Limits, width: Option<usize>| Request {
        pdbs: Some(("small".into(), set.clone())),
        beam_width: width,
        limits,
        threads: 1,
        ..Request::default()
    };
    let fast = npuzzle::search::fast(&start, &goal, &Limits::default()).unwrap();
    let a = core.answer(&start, &given(within(1000), None)).unwrap();
    assert!(reaches(&start, &a.moves, &goal));
    assert_eq!(a.report.algorithm, "anytime");
    assert_eq!(a.report.heuristic.as_deref(), Some("pattern-database beam"));
    assert!(
        a.moves.len() < fast.moves.len(),
        "{} {}",
        a.moves.len(),
        fast.moves.len()
    );
    let bound = a.report.lower_bound.unwrap() as u64;
    assert!(bound >= u64::from(set.estimate(&start)), "{bound}");
    assert!(
        a.notes.iter().any(|n| n.contains("answered by beams")),
        "{:?}",
        a.notes
    );
    // At one width, no exact search and no clock: the library's beams with that set.
    let fixed = core
        .answer(&start, &given(Limits::default(), Some(64)))
        .unwrap();
    let direct = beams_at_width(&start, &goal, &[&*set], 64, 1, &Limits::default()).unwrap();
    assert!(direct.databases);
    assert_eq!(fixed.moves, direct.solution.moves);
    assert_eq!(fixed.report.algorithm, "anytime");
    // Exact answers asked for: the search alone, an error when it runs out.
    let exact = Request {
        exact: true,
        ..given(within(200), None)
    };
    assert!(core.answer(&start, &exact).is_err());
}

/// Databases in the folder that cannot be read within a quarter of the time limit (here a
/// 64 GiB sparse file under the first database's name, standing for a cold, slow disk),
/// or were never checked, are left out for that board, with a note saying so, instead of
/// holding it up; the board is still answered, by linear conflict.
#[test]
fn databases_too_slow_to_read_are_left_out_with_a_note() {
    use npuzzle::heuristic::pdb::{file_name, partition};
    use npuzzle::request::{Core, Event, Note, Remedy, Request, Sources};
    let dir = std::env::temp_dir().join(format!("npuzzle-warm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let region = Board::solved("6x6".parse().unwrap());
    let parts = partition(&region, "auto").unwrap();
    let slow = std::fs::File::create(dir.join(file_name(&region, &parts[0]))).unwrap();
    slow.set_len(64 << 30).unwrap();
    for tiles in &parts[1..] {
        std::fs::write(dir.join(file_name(&region, tiles)), b"not read").unwrap();
    }
    let goal = Board::solved("7x7".parse().unwrap());
    let start = uniform(&goal, &mut Rng::new(61));
    let request = Request {
        limits: within(1000),
        ..Request::default()
    };
    // Unproven files (no stamps) are not read at all: their proof would take minutes.
    // Stamped ones are read until the quarter of the time is gone.
    for (stamped, said) in [(false, "not proven yet"), (true, "were not read within")] {
        if stamped {
            for tiles in &parts {
                let path = dir.join(file_name(&region, tiles));
                let seal = npuzzle::files::file_seal(&path).unwrap().unwrap();
                let meta = std::fs::metadata(&path).unwrap();
                npuzzle::files::write_stamp(&path, &meta, seal);
            }
        }
        let notes = Arc::new(Mutex::new(Vec::<Note>::new()));
        let heard = notes.clone();
        let core = Core::new(Sources {
            pdb_dir: Some(dir.clone()),
            listener: Some(Arc::new(move |e: &Event<'_>| {
                if let Event::Note(t) = e {
                    heard.lock().unwrap().push((*t).clone());
                }
            })),
            ..Sources::default()
        });
        let a = core.answer(&start, &request).unwrap();
        assert!(reaches(&start, &a.moves, &goal));
        assert_eq!(a.report.heuristic.as_deref(), Some("linear-conflict beam"));
        // The note is typed: the library's words name no face's command, and the remedy
        // (proving the files) is for each face to word.
        let notes = notes.lock().unwrap();
        let note = notes.iter().find(|n| n.text.contains(said));
        let note = note.unwrap_or_else(|| panic!("{notes:?}"));
        assert_eq!(note.remedy, Some(Remedy::ProvePdbs), "{note:?}");
        assert!(!note.to_string().contains("npuzzle pdb"), "{note}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The beams at one width have no clock: the same board gets the same answer every time,
/// reaching the goal, its bound never above the optimum (small boards, against BFS) and
/// its width the one asked for; widths outside 1 to the most, or past the memory
/// allowed, are refused with the reason.
#[test]
fn beams_at_one_width_answer_the_same_every_time() {
    use npuzzle::search::{beams_at_width, ANYTIME_MAX_WIDTH};
    let mut rng = Rng::new(71);
    for shape in ["3x3", "2x5", "5x2"] {
        let size: Size = shape.parse().unwrap();
        let goal = uniform(&Board::solved(size), &mut rng);
        let dist = distances(&goal);
        for _ in 0..4 {
            let start = uniform(&goal, &mut rng);
            let a = beams_at_width(&start, &goal, &[], 16, 1, &Limits::default()).unwrap();
            assert!(reaches(&start, &a.solution.moves, &goal), "{shape} {start}");
            assert!(
                a.lower_bound as usize <= dist[start.cells()],
                "{shape} {start}"
            );
        }
    }
    for shape in ["6x6", "16x2", "2x16", "7x7", "9x8"] {
        let size: Size = shape.parse().unwrap();
        for goal_kind in 0..2 {
            let goal = goal_of(goal_kind, size, &mut rng);
            let start = uniform(&goal, &mut rng);
            for width in [1, 40] {
                let run = || beams_at_width(&start, &goal, &[], width, 2, &Limits::default());
                let (a, b) = (run().unwrap(), run().unwrap());
                assert!(reaches(&start, &a.solution.moves, &goal), "{shape} {width}");
                assert_eq!(a.solution.moves, b.solution.moves, "{shape} {width}");
                assert!(
                    a.lower_bound as usize <= a.solution.len(),
                    "{shape} {width}"
                );
                assert!(!a.proven || a.solution.len() == a.lower_bound as usize);
                // (A proven answer comes from the opening exact search, before any beam.)
                assert!(a.proven || a.width == width, "{shape} {width} {}", a.width);
            }
        }
    }
    let goal = Board::solved("16x16".parse().unwrap());
    let start = uniform(&goal, &mut rng);
    let small = Limits {
        max_memory: 64 << 20,
        ..Limits::default()
    };
    for (width, limits) in [
        (0, Limits::default()),
        (ANYTIME_MAX_WIDTH + 1, Limits::default()),
        (ANYTIME_MAX_WIDTH, small),
    ] {
        match beams_at_width(&start, &goal, &[], width, 1, &limits) {
            Err(SearchError::BadRequest { field, reason }) => {
                assert_eq!(field, "beam_width");
                assert!(reason.contains("expected a beam width"), "{reason}");
                assert!(reason.contains(&width.to_string()), "{reason}");
            }
            other => panic!("width {width}: {other:?}"),
        }
    }
}

/// Asked through the request, a beam width takes the databases of ample time whatever
/// the limit (the 7x7 set at half a second), answers alike twice without a limit, and is
/// refused on boards auto solves exactly and with options it does not go with.
#[test]
fn the_request_runs_beams_at_the_width_asked_for() {
    use npuzzle::request::Request;
    use npuzzle::search::Algorithm;
    let (goal, core) = core_with_small_set(7);
    let start = uniform(&goal, &mut Rng::new(73));
    let at = |limit: Option<Duration>| Request {
        limits: Limits {
            time_limit: limit,
            max_memory: 512 << 20,
            ..Limits::default()
        },
        beam_width: Some(64),
        ..Request::default()
    };
    let a = core
        .answer(&start, &at(Some(Duration::from_millis(500))))
        .unwrap();
    assert_eq!(a.report.heuristic.as_deref(), Some("pattern-database beam"));
    assert!(reaches(&start, &a.moves, &goal));
    let (b, c) = (
        core.answer(&start, &at(None)).unwrap(),
        core.answer(&start, &at(None)).unwrap(),
    );
    assert_eq!(b.moves, c.moves);
    assert!(reaches(&start, &b.moves, &goal));
    // Wide enough that layers are expanded and built on both threads (and, with debug
    // assertions, every kept position's region cells checked): the same answer as on one.
    let wide = |threads| Request {
        beam_width: Some(12_000),
        threads,
        ..at(None)
    };
    let (one, two) = (
        core.answer(&start, &wide(1)).unwrap(),
        core.answer(&start, &wide(2)).unwrap(),
    );
    assert_eq!(one.moves, two.moves);
    assert!(reaches(&start, &two.moves, &goal));
    let five = uniform(&Board::solved("5x5".parse().unwrap()), &mut Rng::new(74));
    let refused = |start: &Board, r: &Request| match core.answer(start, r) {
        Err(SearchError::BadRequest { field, reason }) => {
            assert_eq!(field, "beam_width");
            reason
        }
        other => panic!("{other:?}"),
    };
    assert!(refused(&five, &at(None)).contains("found 5x5 (25 cells)"));
    for r in [
        Request {
            algorithm: Algorithm::Idastar,
            ..at(None)
        },
        Request {
            exact: true,
            ..at(None)
        },
        Request {
            weight: Some(2.0),
            ..at(None)
        },
        Request {
            beam_width: Some(0),
            ..at(None)
        },
    ] {
        refused(&start, &r);
    }
}
