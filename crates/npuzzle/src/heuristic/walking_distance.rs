use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use super::{goal_positions, Heuristic};
use crate::board::Board;

/// The largest width and height walking distance handles. The 5-line tables would take
/// minutes to build here (measured: 5 minutes for 5x5), so WD stops at 4x4, as
/// Takahashi's.
pub const MAX_SIDE: usize = 4;

/// Distances of one axis: for each arrangement "how many tiles of each goal line stand in
/// each line" and the blank's line, the fewest moves along that axis to the goal.
type LineTable = HashMap<u128, u8>;

/// Tables built so far, by (lines, cells per line, the goal blank's line, multi-tile).
type Cache = Mutex<HashMap<(usize, usize, usize, bool), Arc<LineTable>>>;

/// Takahashi's walking distance, for any board up to 4 x 4: the rows and the columns
/// are each abstracted to a matrix counting, per line, the tiles of each goal line; the
/// vertical moves needed to sort the row matrix (the blank swapping one tile between
/// adjacent rows) plus the horizontal moves for the column matrix bound the solution
/// from below. A move changes exactly one of the two by one, so it is consistent.
///
/// The tables depend only on the board's dimensions and the goal blank's row and column,
/// and are built once per process (4x4: 24,964 row states, a few milliseconds).
#[derive(Debug, Clone)]
pub struct WalkingDistance {
    w: usize,
    h: usize,
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
    rows: Arc<LineTable>,
    cols: Arc<LineTable>,
}

/// Breadth-first search of the line abstraction: `lines` lines of `per` cells, the goal
/// blank on line `blank`. With `multi`, one move carries the blank across any number of
/// lines in one direction (a multi-tile move along the other axis), each line passed
/// giving one tile to the line before.
fn build(lines: usize, per: usize, blank: usize, multi: bool) -> LineTable {
    let key = |m: &[u8], b: usize| -> u128 {
        let mut k = b as u128;
        for (i, &c) in m.iter().enumerate() {
            k |= (c as u128) << (4 + 4 * i);
        }
        k
    };
    let mut m = vec![0u8; lines * lines];
    for r in 0..lines {
        m[r * lines + r] = (per - usize::from(r == blank)) as u8;
    }
    let mut dist = LineTable::new();
    dist.insert(key(&m, blank), 0);
    let mut queue = VecDeque::from([(m, blank)]);
    while let Some((m, b)) = queue.pop_front() {
        let d = dist[&key(&m, b)];
        for step in [usize::MAX, 1] {
            // The states one move away in this direction: one line further each time.
            let mut frontier = vec![(m.clone(), b)];
            while !frontier.is_empty() {
                let mut further = Vec::new();
                for (m, b) in frontier {
                    let nb = b.wrapping_add(step);
                    if nb >= lines {
                        continue;
                    }
                    for g in 0..lines {
                        if m[nb * lines + g] == 0 {
                            continue;
                        }
                        let mut m2 = m.clone();
                        m2[nb * lines + g] -= 1;
                        m2[b * lines + g] += 1;
                        let k = key(&m2, nb);
                        if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(k) {
                            e.insert(d + 1);
                            queue.push_back((m2.clone(), nb));
                        }
                        if multi {
                            further.push((m2, nb));
                        }
                    }
                }
                frontier = further;
            }
        }
    }
    dist
}

fn table(lines: usize, per: usize, blank: usize, multi: bool) -> Arc<LineTable> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    c.entry((lines, per, blank, multi))
        .or_insert_with(|| Arc::new(build(lines, per, blank, multi)))
        .clone()
}

impl WalkingDistance {
    /// The heuristic towards `goal`; `None` for boards wider or taller than 4.
    pub fn new(goal: &Board) -> Option<WalkingDistance> {
        WalkingDistance::with_metric(goal, false)
    }

    /// Walking distance in multi-tile moves: one vertical move carries the blank across
    /// any number of rows (the tiles of one column slide together), one horizontal move
    /// across any number of columns. A vertical move changes the row abstraction only and
    /// a horizontal one the column abstraction only, so the two still add up to a lower
    /// bound on the multi-tile distance. `None` for boards wider or taller than 4.
    pub fn multi_tile(goal: &Board) -> Option<WalkingDistance> {
        WalkingDistance::with_metric(goal, true)
    }

    fn with_metric(goal: &Board, multi: bool) -> Option<WalkingDistance> {
        let (w, h) = (goal.size().width(), goal.size().height());
        if w > MAX_SIDE || h > MAX_SIDE {
            return None;
        }
        let pos = goal_positions(goal);
        Some(WalkingDistance {
            w,
            h,
            goal_row: pos.iter().map(|&p| (p / w) as u8).collect(),
            goal_col: pos.iter().map(|&p| (p % w) as u8).collect(),
            rows: table(h, w, goal.blank() / w, multi),
            cols: table(w, h, goal.blank() % w, multi),
        })
    }

    fn keys(&self, cells: &[u8]) -> (u128, u128) {
        let (mut rk, mut ck) = (0u128, 0u128);
        for (i, &t) in cells.iter().enumerate() {
            let (r, c) = (i / self.w, i % self.w);
            if t == 0 {
                rk |= r as u128;
                ck |= c as u128;
                continue;
            }
            let (gr, gc) = (
                self.goal_row[t as usize] as usize,
                self.goal_col[t as usize] as usize,
            );
            rk += 1u128 << (4 + 4 * (r * self.h + gr));
            ck += 1u128 << (4 + 4 * (c * self.w + gc));
        }
        (rk, ck)
    }
}

impl Heuristic for WalkingDistance {
    fn estimate(&self, cells: &[u8]) -> u32 {
        let (rk, ck) = self.keys(cells);
        let r = self
            .rows
            .get(&rk)
            .copied()
            .expect("every arrangement of a board is in the table");
        let c = self
            .cols
            .get(&ck)
            .copied()
            .expect("every arrangement of a board is in the table");
        r as u32 + c as u32
    }

    fn update(&self, _h: u32, cells: &[u8], _tile: u8, _from: usize, _to: usize) -> u32 {
        self.estimate(cells)
    }
}
