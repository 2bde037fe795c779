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

/// The fewest pattern-tile moves from every (placement, blank cell) to the goal, by plain
/// 0-1 BFS: moving a pattern tile costs 1, any other tile 0.
pub fn distances_with_blank(goal: &Board, tiles: &[u8]) -> HashMap<(Vec<u8>, usize), u32> {
    let size = goal.size();
    let (w, n) = (size.width(), size.cells());
    let home: Vec<u8> = tiles
        .iter()
        .map(|&t| goal.cells().iter().position(|&c| c == t).unwrap() as u8)
        .collect();
    let mut best: HashMap<(Vec<u8>, usize), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    best.insert((home.clone(), goal.blank()), 0);
    queue.push_back((home, goal.blank(), 0u32));
    while let Some((pos, blank, d)) = queue.pop_front() {
        if best[&(pos.clone(), blank)] < d {
            continue;
        }
        let (r, c) = (blank / w, blank % w);
        let mut nbs = vec![];
        if c > 0 {
            nbs.push(blank - 1);
        }
        if c + 1 < w {
            nbs.push(blank + 1);
        }
        if r > 0 {
            nbs.push(blank - w);
        }
        if blank + w < n {
            nbs.push(blank + w);
        }
        for nb in nbs {
            let mut p2 = pos.clone();
            let cost = match p2.iter().position(|&x| x as usize == nb) {
                Some(i) => {
                    p2[i] = blank as u8;
                    1
                }
                None => 0,
            };
            let key = (p2.clone(), nb);
            if best.get(&key).is_none_or(|&b| b > d + cost) {
                best.insert(key, d + cost);
                if cost == 0 {
                    queue.push_front((p2, nb, d));
                } else {
                    queue.push_back((p2, nb, d + 1));
                }
            }
        }
    }
    best
}

/// Per placement, the least of `by_blank` over the blank's cells (its plain pattern
/// distance).
pub fn least_over_blank(by_blank: &HashMap<(Vec<u8>, usize), u32>) -> HashMap<Vec<u8>, u32> {
    let mut out: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((pos, _), &d) in by_blank {
        let e = out.entry(pos.clone()).or_insert(d);
        *e = (*e).min(d);
    }
    out
}
