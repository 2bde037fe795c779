//! The additive heuristic: the sum of disjoint pattern databases, and the same sum on the
//! board reflected about the main diagonal where the goal allows.

use super::{PatternDb, MAX_TILES};
use crate::board::Board;

/// No database: the owner of a tile that no pattern holds.
pub(crate) const NONE: u8 = u8::MAX;

/// The sum of disjoint pattern databases, and, where the goal allows it, the same sum on
/// the board reflected about the main diagonal; the larger of the two (Korf & Felner).
///
/// Reflection needs a square board whose goal has the blank on the main diagonal: then
/// the reflected board (cell `(r, c)` to `(c, r)`, each tile renamed to the goal's tile at
/// the reflected cell) has the same distance to the goal, so the databases give a second
/// lower bound for free.
#[derive(Debug)]
pub struct PdbHeuristic {
    pub(crate) goal: Board,
    pub(crate) dbs: Vec<PatternDb>,
    /// Per side (0 regular, 1 reflected), for each tile of the board: the database and
    /// slot its lookup changes, or NONE (side 1 is all NONE without reflection).
    pub(crate) owners: [Vec<(u8, u8)>; 2],
    /// Per side, each cell's image (identity for side 0).
    pub(crate) cell_maps: [Vec<u8>; 2],
    /// Reflection: tile renaming and cell map, if the goal allows.
    pub(crate) mirror: Option<(Vec<u8>, Vec<u8>)>,
}

impl PdbHeuristic {
    /// Combines databases built for `goal` over disjoint patterns.
    pub fn new(goal: &Board, dbs: Vec<PatternDb>) -> Result<PdbHeuristic, String> {
        let n = goal.cells().len();
        let mut owner = vec![(NONE, NONE); n];
        for (d, db) in dbs.iter().enumerate() {
            if db.goal() != goal {
                return Err(format!(
                    "expected databases for goal {goal}, found one for {}",
                    db.goal()
                ));
            }
            for (i, &t) in db.tiles().iter().enumerate() {
                if owner[t as usize].0 != NONE {
                    return Err(format!("expected disjoint patterns, found tile {t} in two"));
                }
                owner[t as usize] = (d as u8, i as u8);
            }
        }
        for db in &dbs {
            // Without this a search would never recognise the goal.
            if db.value(goal) != 0 {
                return Err(format!(
                    "expected 0 moves at the goal in the database of tiles {:?}, found {}",
                    db.tiles(),
                    db.value(goal)
                ));
            }
        }
        let size = goal.size();
        let w = size.width();
        let mirror =
            (size.width() == size.height() && goal.blank() / w == goal.blank() % w).then(|| {
                let cell: Vec<u8> = (0..n).map(|c| ((c % w) * w + c / w) as u8).collect();
                let mut tile = vec![0u8; n];
                for (c, &t) in goal.cells().iter().enumerate() {
                    tile[t as usize] = goal.cells()[cell[c] as usize];
                }
                (tile, cell)
            });
        let reflected_owner = match &mirror {
            Some((tile, _)) => (0..n).map(|t| owner[tile[t] as usize]).collect(),
            None => vec![(NONE, NONE); n],
        };
        let reflected_cells = match &mirror {
            Some((_, cell)) => cell.clone(),
            None => size.identity_cells(),
        };
        Ok(PdbHeuristic {
            goal: goal.clone(),
            dbs,
            owners: [owner, reflected_owner],
            cell_maps: [size.identity_cells(), reflected_cells],
            mirror,
        })
    }

    /// Whether the reflected lookup is used.
    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    /// The goal the databases were built for.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The databases.
    pub fn databases(&self) -> &[PatternDb] {
        &self.dbs
    }

    /// Positions of each database's tiles on `cells` (tile -> cell given by `at`).
    fn positions(&self, at: &[u8]) -> Vec<Vec<u8>> {
        self.dbs
            .iter()
            .map(|db| db.tiles().iter().map(|&t| at[t as usize]).collect())
            .collect()
    }

    pub(crate) fn cell_of(cells: &[u8]) -> Vec<u8> {
        let mut at = vec![0u8; cells.len()];
        for (c, &t) in cells.iter().enumerate() {
            at[t as usize] = c as u8;
        }
        at
    }

    /// The estimate for `board`.
    pub fn estimate(&self, board: &Board) -> u32 {
        let [regular, reflected] = self.sides(&Self::cell_of(board.cells()));
        regular.sum.max(reflected.sum)
    }

    /// The lookups for tiles on cells `at` (tile -> cell): the board as it is, and
    /// reflected (a side of no databases where the goal allows no reflection).
    pub(crate) fn sides(&self, at: &[u8]) -> [Side; 2] {
        let reflected = match &self.mirror {
            Some((tile, cell)) => {
                let mut rat = vec![0u8; at.len()];
                for (t, &c) in at.iter().enumerate() {
                    rat[tile[t] as usize] = cell[c as usize];
                }
                Side::new(self, &rat)
            }
            None => Side::none(),
        };
        [Side::new(self, at), reflected]
    }
}

/// The bookkeeping of one lookup (side 0: the board as it is; side 1: reflected): for
/// each database the cells of its tiles, their index and the entry there; and the sum.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    pub(crate) pos: Vec<[u8; MAX_TILES]>,
    pub(crate) idx: Vec<u64>,
    pub(crate) val: Vec<u32>,
    pub(crate) sum: u32,
}

impl Side {
    /// The side for tiles on cells `at` (tile -> cell).
    fn new(h: &PdbHeuristic, at: &[u8]) -> Side {
        let mut side = Side::none();
        for (db, p) in h.dbs.iter().zip(h.positions(at)) {
            let mut pos = [0u8; MAX_TILES];
            pos[..p.len()].copy_from_slice(&p);
            let idx = db.placement().index(&p);
            let val = db.at(idx) as u32;
            side.pos.push(pos);
            side.idx.push(idx);
            side.val.push(val);
            side.sum += val;
        }
        side
    }

    /// The side of no databases: a sum of 0 (for goals that allow no reflection).
    fn none() -> Side {
        Side {
            pos: Vec::new(),
            idx: Vec::new(),
            val: Vec::new(),
            sum: 0,
        }
    }
}
