//! The independent oracle: a breadth-first search written as simply as possible, with a
//! hash map of whole boards and nothing from the library but `Board::apply`.

#![allow(dead_code)] // each test crate uses its own part of the oracle

use std::collections::{HashMap, VecDeque};

use npuzzle::{Board, Direction};

/// The distance to `goal` of every board that can reach it.
pub fn distances(goal: &Board) -> HashMap<Board, u32> {
    let mut dist = HashMap::new();
    dist.insert(goal.clone(), 0);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for dir in Direction::ALL {
            let mut c = b.clone();
            if c.apply(dir).is_ok() && !dist.contains_key(&c) {
                dist.insert(c.clone(), d + 1);
                queue.push_back(c);
            }
        }
    }
    dist
}

/// Every arrangement of the cells `0..w*h` on a `w x h` board, in lexicographic order.
pub fn all_boards(w: usize, h: usize) -> Vec<Board> {
    let size = npuzzle::Size::new(w, h).unwrap();
    let n = w * h;
    let mut out = Vec::new();
    let mut cells: Vec<u8> = (0..n as u8).collect();
    loop {
        out.push(Board::from_cells(size, cells.clone()).unwrap());
        // Next permutation.
        let Some(i) = (0..n - 1).rev().find(|&i| cells[i] < cells[i + 1]) else {
            break;
        };
        let j = (i + 1..n).rev().find(|&j| cells[j] > cells[i]).unwrap();
        cells.swap(i, j);
        cells[i + 1..].reverse();
    }
    out
}

/// Applies `moves` to `start` and checks that they are legal and reach `goal`.
pub fn reaches(start: &Board, moves: &[Direction], goal: &Board) -> bool {
    let mut b = start.clone();
    b.apply_all(moves).is_ok() && &b == goal
}
