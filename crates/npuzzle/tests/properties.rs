//! Property tests: parsing never panics and round-trips; solutions solve their boards;
//! heuristics stay admissible and consistent along random walks.

use npuzzle::{
    idastar, is_solvable, Board, Direction, Heuristic, HeuristicKind, Limits, Notation, Size,
};
use proptest::prelude::*;

fn board_strategy() -> impl Strategy<Value = Board> {
    (2usize..=5, 2usize..=5)
        .prop_flat_map(|(w, h)| {
            let n = w * h;
            (
                Just((w, h)),
                Just((0..n as u8).collect::<Vec<u8>>()).prop_shuffle(),
            )
        })
        .prop_map(|((w, h), cells)| Board::from_cells(Size::new(w, h).unwrap(), cells).unwrap())
}

/// A board reached from the goal by a random walk of `moves` (illegal ones skipped),
/// and the number of moves actually made.
fn walk(size: Size, moves: &[u8]) -> (Board, usize) {
    let mut b = Board::solved(size);
    let mut made = 0;
    for &m in moves {
        made += usize::from(b.apply(Direction::ALL[m as usize % 4]).is_ok());
    }
    (b, made)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_text_never_panics_the_parser(text in "\\PC{0,80}") {
        let _ = Board::parse(&text, None);
        let _ = Board::parse(&text, Some(Size::square(3).unwrap()));
        let b = Board::solved(Size::square(3).unwrap());
        let _ = Notation::detect(&text);
        for n in [Notation::Tile, Notation::Blank, Notation::Tiles] {
            let _ = n.parse(&b, &text);
        }
    }

    #[test]
    fn board_like_text_never_panics_the_parser(text in "[0-9xX_. /,\\n]{0,60}") {
        let _ = Board::parse(&text, None);
    }

    #[test]
    fn parse_format_round_trip(b in board_strategy()) {
        prop_assert_eq!(Board::parse(&b.to_string(), None).unwrap(), b.clone());
        prop_assert_eq!(Board::parse(&b.to_grid(), None).unwrap(), b.clone());
    }

    #[test]
    fn notations_round_trip(moves in prop::collection::vec(0u8..4, 0..40)) {
        let size = Size::new(4, 3).unwrap();
        let (start, _) = walk(size, &[0, 2, 1, 3, 0, 0, 2]);
        let mut b = start.clone();
        let legal: Vec<Direction> = moves
            .iter()
            .map(|&m| Direction::ALL[m as usize])
            .filter(|&d| b.apply(d).is_ok())
            .collect();
        for n in [Notation::Tile, Notation::Blank, Notation::Tiles] {
            let text = n.format(&start, &legal);
            prop_assert_eq!(n.parse(&start, &text).unwrap(), legal.clone());
        }
    }

    #[test]
    fn solutions_solve_their_boards(
        dims in (2usize..=4, 2usize..=4),
        moves in prop::collection::vec(0u8..4, 0..30),
    ) {
        let size = Size::new(dims.0, dims.1).unwrap();
        let (start, made) = walk(size, &moves);
        let goal = Board::solved(size);
        prop_assert!(is_solvable(&start, &goal).unwrap());
        let s = idastar(&start, &goal, HeuristicKind::LinearConflict, &Limits::default()).unwrap();
        prop_assert!(s.len() <= made);
        prop_assert_eq!(s.len() % 2, made % 2, "every path between two states has one parity");
        let mut b = start.clone();
        b.apply_all(&s.moves).unwrap();
        prop_assert_eq!(b, goal);
    }

    #[test]
    fn heuristics_are_consistent_along_walks(
        dims in (2usize..=5, 2usize..=5),
        moves in prop::collection::vec(0u8..4, 0..60),
    ) {
        let size = Size::new(dims.0, dims.1).unwrap();
        let goal = Board::solved(size);
        let mut b = goal.clone();
        let kinds: Vec<HeuristicKind> = HeuristicKind::ALL.into_iter().filter(|k| k.supports(size)).collect();
        for k in &kinds {
            prop_assert_eq!(k.estimate(&goal, &goal), Some(0));
        }
        let lc = npuzzle::heuristic::LinearConflict::new(&goal);
        let mut walked = 0u32;
        for &m in &moves {
            let before: Vec<u32> = kinds.iter().map(|k| k.estimate(&b, &goal).unwrap()).collect();
            if b.apply(Direction::ALL[m as usize]).is_ok() {
                walked += 1;
                for (k, old) in kinds.iter().zip(before) {
                    let new = k.estimate(&b, &goal).unwrap();
                    prop_assert!(new.abs_diff(old) <= 1, "{} jumped {} -> {}", k, old, new);
                    // The walk back to the goal bounds the true distance from above.
                    prop_assert!(new <= walked);
                }
                prop_assert_eq!(Some(lc.estimate(b.cells())), HeuristicKind::LinearConflict.estimate(&b, &goal));
            }
        }
    }
}
