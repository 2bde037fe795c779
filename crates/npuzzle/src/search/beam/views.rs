//! The board seen in a mirror along its main diagonal: the same problem for the same
//! databases (every answer keeps its length), on which a beam takes other turns. The
//! anytime solver's last run on a square board searches both views at once, half the
//! threads each, and keeps the shorter answer.

use crate::board::Board;
use crate::direction::Direction;

/// `board` mirrored in its main diagonal, each tile renamed to the goal's tile on the
/// mirror of its own goal cell, so that `goal` stays the goal and every answer keeps its
/// length ([`transpose_moves`] turns an answer of one view into the other's). `None`
/// unless the board is square and the goal's blank lies on the diagonal.
pub(crate) fn transposed(board: &Board, goal: &Board) -> Option<Board> {
    if goal.size() != board.size() {
        return None;
    }
    let (tile, cell) = goal.diagonal_mirror()?;
    let mut cells = vec![0u8; board.cells().len()];
    for (c, &t) in board.cells().iter().enumerate() {
        cells[cell[c] as usize] = tile[t as usize];
    }
    Board::from_cells(board.size(), cells).ok()
}

/// An answer on one view as an answer on the other (either way): up and left trade
/// places, as do down and right.
pub(crate) fn transpose_moves(moves: &[Direction]) -> Vec<Direction> {
    moves
        .iter()
        .map(|&d| match d {
            Direction::Up => Direction::Left,
            Direction::Left => Direction::Up,
            Direction::Down => Direction::Right,
            Direction::Right => Direction::Down,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scramble::{uniform, Rng};
    use crate::Limits;

    #[test]
    fn an_answer_on_the_mirrored_board_answers_the_board() {
        let mut rng = Rng::new(3);
        for (size, goal) in [
            ("6x6", None),
            ("4x4", Some("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15")),
            (
                "5x5",
                Some("1 2 3 4 5/6 7 8 9 10/11 12 0 13 14/15 16 17 18 19/20 21 22 23 24"),
            ),
            ("3x3", None),
        ] {
            let size = size.parse().unwrap();
            let goal = match goal {
                Some(g) => Board::parse(g, Some(size)).unwrap(),
                None => Board::solved(size),
            };
            assert_eq!(transposed(&goal, &goal).as_ref(), Some(&goal), "{goal}");
            for _ in 0..10 {
                let start = uniform(&goal, &mut rng);
                let t = transposed(&start, &goal).unwrap();
                assert_ne!(t, start, "{start}");
                assert_eq!(transposed(&t, &goal).as_ref(), Some(&start), "{start}");
                let on_t = crate::search::fast(&t, &goal, &Limits::default())
                    .unwrap()
                    .moves;
                let mut b = start.clone();
                b.apply_all(&transpose_moves(&on_t)).unwrap();
                assert_eq!(b, goal, "{start}");
            }
        }
    }

    #[test]
    fn no_view_where_the_mirror_would_move_the_goal() {
        let goal = Board::solved("4x3".parse().unwrap());
        assert!(transposed(&goal, &goal).is_none());
        let size = "3x3".parse().unwrap();
        let goal = Board::parse("1 2 0/3 4 5/6 7 8", Some(size)).unwrap();
        assert!(transposed(&goal, &goal).is_none());
    }
}
