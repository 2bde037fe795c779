//! The multi-tile tables for 4x4 (`heuristic::mtm_pdb`). Building them takes about two
//! minutes and 504 MB, so the test is run by hand (`cargo test --test mtm -- --ignored`),
//! as the large databases' are; the quick checks of the indexing run with the unit tests.

use npuzzle::heuristic::mtm_pdb::MtmRows;
use npuzzle::scramble::{walk, Rng};
use npuzzle::search::{idastar_mtm, idastar_mtm_pdb};
use npuzzle::sequence::{length, Metric};
use npuzzle::{Board, Limits, Size};

#[test]
#[ignore = "builds 504 MB of tables in about two minutes"]
fn tables_are_admissible_and_the_search_stays_optimal() {
    let t = MtmRows::build(&Limits::default(), 0).unwrap();
    // The file round trip, and a flipped byte caught.
    let mut bytes = t.to_bytes();
    let back = MtmRows::from_bytes(bytes.clone()).unwrap();
    let goal = Board::solved(Size::square(4).unwrap());
    let mut rng = Rng::new(8);
    let mut boards = Vec::new();
    for k in 0..60 {
        boards.push(walk(&goal, 10 + k % 25, &mut rng).unwrap().0);
    }
    for b in &boards {
        assert_eq!(t.estimate(b.cells()), back.estimate(b.cells()));
    }
    // Another goal's board is refused, not searched with meaningless bounds.
    let other: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
    assert!(idastar_mtm_pdb(&boards[0], &other, Some(&t), &Limits::default()).is_err());
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    assert!(MtmRows::from_bytes(bytes).is_err());
    // Against the walking-distance search (exact, slower): every bound at most the
    // distance, and the same optimal lengths.
    for b in &boards {
        let plain = idastar_mtm(b, &goal, &Limits::default()).unwrap();
        let d = length(&plain.moves, Metric::Mtm) as u32;
        assert!(t.estimate(b.cells()) <= d, "{b}");
        let fast = idastar_mtm_pdb(b, &goal, Some(&t), &Limits::default()).unwrap();
        assert_eq!(length(&fast.moves, Metric::Mtm) as u32, d, "{b}");
        let mut end = b.clone();
        end.apply_all(&fast.moves).unwrap();
        assert_eq!(end, goal);
    }
}
