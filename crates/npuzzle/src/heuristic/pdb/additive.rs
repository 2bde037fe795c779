//! The additive heuristic: the sum of disjoint pattern databases, and the same sum on the
//! board reflected about the main diagonal where the goal allows; with several partitions,
//! the largest of all their sums.

use super::{PatternDb, MAX_TILES};
use crate::board::Board;
use crate::error::DatabaseError;

/// No database: the owner of a tile that no pattern holds.
pub(crate) const NONE: u8 = u8::MAX;

/// The most sums (sides) one heuristic keeps: sixteen partitions, each on the board as it
/// is and reflected.
pub const MAX_SIDES: usize = 32;

/// The sum of disjoint pattern databases, and, where the goal allows it, the same sum on
/// the board reflected about the main diagonal; the larger of the two (Korf & Felner).
/// Several partitions of the same goal may be combined ([`PdbHeuristic::catalogue`]): the
/// estimate is then the largest sum over every partition and its reflection.
///
/// Reflection needs a square board whose goal has the blank on the main diagonal: then
/// the reflected board (cell `(r, c)` to `(c, r)`, each tile renamed to the goal's tile at
/// the reflected cell) has the same distance to the goal, so the databases give a second
/// lower bound for free.
#[derive(Debug)]
pub struct PdbHeuristic {
    pub(crate) goal: Board,
    /// Every partition's databases, partition after partition.
    pub(crate) dbs: Vec<PatternDb>,
    /// Per side (a partition, as it is or reflected), for each tile of the board: the
    /// database (an index into `dbs`) and slot its lookup changes, or NONE.
    pub(crate) owners: Vec<Vec<(u8, u8)>>,
    /// Per side, each cell's image (the identity for a side on the board as it is).
    pub(crate) cell_maps: Vec<Vec<u8>>,
    /// Per side: the range of `dbs` its partition holds, and whether it is reflected.
    pub(crate) side_dbs: Vec<(std::ops::Range<usize>, bool)>,
    /// Reflection: tile renaming and cell map, if the goal allows.
    pub(crate) mirror: Option<(Vec<u8>, Vec<u8>)>,
    /// The distinct lookups of all sides: lookups of different sides over the same tiles
    /// of the board (a partition's group reflected and another's as it is) give the same
    /// entries, and are made once.
    pub(crate) shared: Vec<Shared>,
    /// Per tile of the board: the shared lookups that hold it, and its slot in each.
    pub(crate) tile_shared: Vec<Vec<(u8, u8)>>,
}

/// One distinct lookup: a database, on the board as it is or reflected, and the sides whose
/// sums count it.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The database (an index into `dbs`).
    pub(crate) db: usize,
    /// The side it was first met on (whose owners and cell map it uses).
    pub(crate) side: usize,
    /// Bit s set: side s counts it.
    pub(crate) sides: u32,
}

/// Whether `count` partitions can be combined: 1 to `MAX_SIDES / 2` (checked before their
/// databases are loaded or built, and where they meet).
pub(crate) fn check_partition_count(count: usize) -> Result<(), String> {
    if count == 0 || count * 2 > MAX_SIDES {
        return Err(format!(
            "expected 1 to {} partitions, found {count}",
            MAX_SIDES / 2
        ));
    }
    Ok(())
}

impl PdbHeuristic {
    /// Combines databases built for `goal` over disjoint patterns.
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let lim = Limits::default();
    /// let a = PatternDb::build(&goal, &[1, 2, 3, 4], &lim, 1, &mut |_| {}).unwrap();
    /// let b = PatternDb::build(&goal, &[5, 6, 7, 8], &lim, 1, &mut |_| {}).unwrap();
    /// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
    /// assert_eq!(h.estimate(&goal), 0);
    /// ```
    pub fn new(goal: &Board, dbs: Vec<PatternDb>) -> Result<PdbHeuristic, DatabaseError> {
        Self::catalogue(goal, vec![dbs])
    }

    /// Combines several partitions of `goal`'s tiles, each a list of databases over
    /// disjoint patterns: the estimate is the largest of their sums (and their
    /// reflections' where the goal allows). At most sixteen partitions (with reflection,
    /// [`MAX_SIDES`] sums). Each database is read once however many partitions hold it
    /// (clones of a [`PatternDb`] share its entries), but every group that covers other
    /// tiles of the board than the other partitions' is one more lookup a move for its
    /// tiles: on the 24-puzzle, where lookups wait on memory, the time follows the lookups
    /// a move as much as the nodes (see docs/pattern-databases.md).
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let lim = Limits::default();
    /// let db = |t: &[u8]| PatternDb::build(&goal, t, &lim, 1, &mut |_| {}).unwrap();
    /// let rows = vec![db(&[1, 2, 3, 4]), db(&[5, 6, 7, 8])];
    /// let cols = vec![db(&[1, 4, 7]), db(&[2, 5, 8, 3, 6])];
    /// let one = PdbHeuristic::new(&goal, vec![db(&[1, 2, 3, 4]), db(&[5, 6, 7, 8])]).unwrap();
    /// let both = PdbHeuristic::catalogue(&goal, vec![rows, cols]).unwrap();
    /// let board: Board = "8 7 6/5 4 3/2 1 0".parse().unwrap();
    /// assert!(both.estimate(&board) >= one.estimate(&board));
    /// assert_eq!(both.partitions(), 2);
    /// ```
    pub fn catalogue(
        goal: &Board,
        parts: Vec<Vec<PatternDb>>,
    ) -> Result<PdbHeuristic, DatabaseError> {
        Self::catalogue_in_words(goal, parts).map_err(DatabaseError::Mismatch)
    }

    /// [`PdbHeuristic::catalogue`], what is wrong in words.
    fn catalogue_in_words(
        goal: &Board,
        parts: Vec<Vec<PatternDb>>,
    ) -> Result<PdbHeuristic, String> {
        let n = goal.cells().len();
        let size = goal.size();
        let mirror = goal.diagonal_mirror();
        check_partition_count(parts.len())?;
        let mut all = Vec::new();
        let mut owners = Vec::new();
        let mut cell_maps = Vec::new();
        let mut side_dbs = Vec::new();
        for dbs in parts {
            let base = all.len();
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
                    owner[t as usize] = ((base + d) as u8, i as u8);
                }
                // Without this a search would never recognise the goal.
                if db.value(goal) != 0 {
                    return Err(format!(
                        "expected 0 moves at the goal in the database of tiles {:?}, found {}",
                        db.tiles(),
                        db.value(goal)
                    ));
                }
            }
            if base + dbs.len() > NONE as usize {
                return Err(format!("expected at most {} databases, found more", NONE));
            }
            all.extend(dbs);
            let range = base..all.len();
            if let Some((tile, cell)) = &mirror {
                owners.push(owner.clone());
                cell_maps.push(size.identity_cells());
                side_dbs.push((range.clone(), false));
                owners.push((0..n).map(|t| owner[tile[t] as usize]).collect());
                cell_maps.push(cell.clone());
                side_dbs.push((range, true));
            } else {
                // A side of no databases stands for the reflection: two sides a partition.
                owners.push(owner);
                cell_maps.push(size.identity_cells());
                side_dbs.push((range, false));
                owners.push(vec![(NONE, NONE); n]);
                cell_maps.push(size.identity_cells());
                side_dbs.push((base..base, false));
            }
        }
        // The distinct lookups: those over the same tiles of the board, with databases of
        // the same kind, are one (a zero-aware database and a plain one over the same tiles
        // give different entries).
        let mut shared: Vec<Shared> = Vec::new();
        let mut keys: Vec<(Vec<usize>, bool)> = Vec::new();
        for (side, (range, _)) in side_dbs.iter().enumerate() {
            for d in range.clone() {
                let tiles: Vec<usize> = (0..n).filter(|&t| owners[side][t].0 == d as u8).collect();
                let key = (tiles, all[d].is_zero_aware());
                match keys.iter().position(|k| *k == key) {
                    Some(l) => shared[l].sides |= 1 << side,
                    None => {
                        keys.push(key);
                        shared.push(Shared {
                            db: d,
                            side,
                            sides: 1 << side,
                        });
                    }
                }
            }
        }
        // (A tile's lookups are numbered in a byte.)
        if shared.len() > u8::MAX as usize {
            return Err(format!(
                "expected at most {} distinct lookups over all partitions, found {}",
                u8::MAX,
                shared.len()
            ));
        }
        let tile_shared = (0..n)
            .map(|t| {
                shared
                    .iter()
                    .enumerate()
                    .filter(|(_, sh)| owners[sh.side][t].0 == sh.db as u8)
                    .map(|(l, sh)| (l as u8, owners[sh.side][t].1))
                    .collect()
            })
            .collect();
        Ok(PdbHeuristic {
            goal: goal.clone(),
            dbs: all,
            owners,
            cell_maps,
            side_dbs,
            mirror,
            shared,
            tile_shared,
        })
    }

    /// The heuristic's name in answers: `pdb SPEC`, then ` + reflection` where it is used
    /// and ` (zero-aware)` where every database is (` (partly zero-aware)` where some).
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::{PatternDb, PdbHeuristic};
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let lim = Limits::default();
    /// let a = PatternDb::build_zero_aware(&goal, &[1, 2, 3, 4], &lim, 1, &mut |_| {}).unwrap();
    /// let b = PatternDb::build_zero_aware(&goal, &[5, 6, 7, 8], &lim, 1, &mut |_| {}).unwrap();
    /// let h = PdbHeuristic::new(&goal, vec![a, b]).unwrap();
    /// assert_eq!(h.label("1,2,3,4/5,6,7,8"), "pdb 1,2,3,4/5,6,7,8 + reflection (zero-aware)");
    /// ```
    pub fn label(&self, spec: &str) -> String {
        let za = self.dbs.iter().filter(|d| d.is_zero_aware()).count();
        format!(
            "pdb {spec}{}{}",
            if self.reflects() { " + reflection" } else { "" },
            match za {
                0 => "",
                z if z == self.dbs.len() => " (zero-aware)",
                _ => " (partly zero-aware)",
            }
        )
    }

    /// Copies the databases the search looks up into memory of their own
    /// ([`PatternDb::in_memory`]), once each however many partitions share them, and
    /// leaves the others as they are, their pages given back where they are mapped: in a
    /// catalogue, a group whose lookups are all made through another partition's group
    /// (its reflection) is read only for a root's estimate, so opened mapped it takes next
    /// to no memory (in `6-6-6-6x4`, four of the twelve tables).
    pub(crate) fn read_lookups_into_memory(&mut self) -> std::io::Result<()> {
        let mut used: Vec<usize> = self.shared.iter().map(|s| s.db).collect();
        used.sort_unstable();
        used.dedup();
        // One database of each set sharing entries, copied on every core side by side
        // (most of a copy's time is the system clearing the new pages: 5 GB took 13 s of
        // one core here).
        let mut firsts: Vec<usize> = Vec::new();
        for d in used {
            if !firsts
                .iter()
                .any(|&f| self.dbs[f].shares_entries(&self.dbs[d]))
            {
                firsts.push(d);
            }
        }
        let copies = crate::limits::par_map(firsts.len(), 0, 1, |i| {
            let db = &self.dbs[firsts[i]];
            let copy = db.in_memory();
            // The mapped pages the copy read are not needed any more.
            db.drop_pages();
            copy
        });
        let mut copied: Vec<(PatternDb, PatternDb)> = Vec::new();
        for (&f, copy) in firsts.iter().zip(copies) {
            copied.push((self.dbs[f].clone(), copy?));
        }
        // Clones of a copied database in other partitions share the copy too; the rest
        // give back what the checksum read.
        for db in &mut self.dbs {
            match copied.iter().find(|(o, _)| o.shares_entries(db)) {
                Some((_, copy)) => *db = copy.clone(),
                None => db.drop_pages(),
            }
        }
        Ok(())
    }

    /// Whether the reflected lookup is used.
    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    /// How many lookups (sides) in all: two a partition.
    pub(crate) fn side_count(&self) -> usize {
        self.side_dbs.len()
    }

    /// The most distinct lookups any one tile is in (what a move of it costs).
    pub(crate) fn most_tile_lookups(&self) -> usize {
        self.tile_shared.iter().map(|l| l.len()).max().unwrap_or(0)
    }

    /// How many partitions are combined (1 unless built by [`PdbHeuristic::catalogue`]).
    pub fn partitions(&self) -> usize {
        self.side_dbs.len() / 2
    }

    /// The goal the databases were built for.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The databases (every partition's, partition after partition).
    pub fn databases(&self) -> &[PatternDb] {
        &self.dbs
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
        self.sides(&Self::cell_of(board.cells()))
            .iter()
            .map(|s| s.sum)
            .max()
            .unwrap_or(0)
    }

    /// The lookups for tiles on cells `at` (tile -> cell): per partition, the board as it
    /// is, and reflected where the goal allows.
    pub(crate) fn sides(&self, at: &[u8]) -> Vec<Side> {
        let reflected: Option<Vec<u8>> = self.mirror.as_ref().map(|(tile, cell)| {
            let mut rat = vec![0u8; at.len()];
            for (t, &c) in at.iter().enumerate() {
                rat[tile[t] as usize] = cell[c as usize];
            }
            rat
        });
        self.side_dbs
            .iter()
            .map(|(range, refl)| {
                let at = match (refl, &reflected) {
                    (true, Some(r)) => r.as_slice(),
                    _ => at,
                };
                Side::new(self, range.clone(), at)
            })
            .collect()
    }
}

/// The bookkeeping of one lookup (a partition on the board as it is or reflected): for
/// each database (of every partition, only its own filled) the cells of its tiles, their
/// index and the entry there; and the sum over its partition.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    pub(crate) pos: Vec<[u8; MAX_TILES]>,
    pub(crate) idx: Vec<u64>,
    pub(crate) val: Vec<u32>,
    pub(crate) sum: u32,
}

impl Side {
    /// The side of the databases `range` of `h` for tiles on cells `at` (tile -> cell).
    fn new(h: &PdbHeuristic, range: std::ops::Range<usize>, at: &[u8]) -> Side {
        let all = h.dbs.len();
        let mut side = Side {
            pos: vec![[0u8; MAX_TILES]; all],
            idx: vec![0; all],
            val: vec![0; all],
            sum: 0,
        };
        for d in range {
            let db = &h.dbs[d];
            let mut pos = [0u8; MAX_TILES];
            for (p, &t) in pos.iter_mut().zip(db.tiles()) {
                *p = at[t as usize];
            }
            let idx = db.placement().index(&pos[..db.tiles().len()]);
            let val = db.at_blank(idx, at[0] as usize);
            side.pos[d] = pos;
            side.idx[d] = idx;
            side.val[d] = val;
            side.sum += val;
        }
        side
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    /// A partition whose groups are the reflections of another's is looked up through
    /// the other's: only the first partition's databases are copied into memory, once
    /// each (the one shared by both partitions too), and the estimates stay the same.
    #[test]
    fn only_the_databases_looked_up_are_copied_into_memory() {
        let goal = Board::solved("3x3".parse().unwrap());
        let lim = Limits::default();
        let db = |t: &[u8]| PatternDb::build(&goal, t, &lim, 1, &mut |_| {}).unwrap();
        let (a, b, c) = (db(&[1, 2, 3]), db(&[4, 5, 6]), db(&[7, 8]));
        let (ra, rb, rc) = (db(&[1, 4, 7]), db(&[2, 5, 8]), db(&[3, 6]));
        let first = vec![a.clone(), b.clone(), c.clone()];
        let second = vec![ra.clone(), rb.clone(), rc.clone()];
        // The third partition shares group 1,2,3 with the first.
        let third = vec![a.clone(), db(&[4, 5, 7]), db(&[6, 8])];
        let mut h = PdbHeuristic::catalogue(&goal, vec![first, second, third]).unwrap();
        let mut rng = crate::scramble::Rng::new(3);
        let boards: Vec<Board> = (0..500)
            .map(|_| crate::scramble::uniform(&goal, &mut rng))
            .collect();
        let before: Vec<u32> = boards.iter().map(|b| h.estimate(b)).collect();
        h.read_lookups_into_memory().unwrap();
        let originals = [&a, &b, &c, &ra, &rb, &rc, &a];
        for (d, o) in originals.iter().enumerate().take(6) {
            // The first partition's copied; the second's (reflections) left as they were.
            assert_eq!(h.dbs[d].shares_entries(o), d >= 3, "database {d}");
        }
        // The group both partitions hold: one copy for both.
        assert!(h.dbs[6].shares_entries(&h.dbs[0]) && !h.dbs[6].shares_entries(&a));
        let after: Vec<u32> = boards.iter().map(|b| h.estimate(b)).collect();
        assert_eq!(before, after);
    }

    /// A partition's transpose (its groups mirrored in the main diagonal) adds nothing to
    /// the partition where the board is reflected: the transpose's sum on the board is
    /// the partition's on the reflected board, so the catalogue of both gives the
    /// partition's estimates with the same lookups.
    #[test]
    fn a_partition_and_its_transpose_give_the_partition_alone() {
        // Tile t stands at row t / 3, column t % 3: its mirror is tile 3 (t % 3) + t / 3.
        let goal: Board = "0 1 2/3 4 5/6 7 8".parse().unwrap();
        let lim = Limits::default();
        let db = |t: &[u8]| PatternDb::build_zero_aware(&goal, t, &lim, 1, &mut |_| {}).unwrap();
        let part = vec![db(&[1, 2, 5]), db(&[3, 4, 6, 7, 8])];
        let transposed = vec![db(&[3, 6, 7]), db(&[1, 4, 2, 5, 8])];
        let one = PdbHeuristic::catalogue(&goal, vec![part.clone()]).unwrap();
        let tr = PdbHeuristic::catalogue(&goal, vec![transposed.clone()]).unwrap();
        let both = PdbHeuristic::catalogue(&goal, vec![part, transposed]).unwrap();
        assert!(one.reflects());
        assert_eq!(one.shared.len(), both.shared.len());
        let mut rng = crate::scramble::Rng::new(5);
        let mut differ = 0;
        for _ in 0..2000 {
            let b = crate::scramble::uniform(&goal, &mut rng);
            let at = PdbHeuristic::cell_of(b.cells());
            let (o, t) = (one.sides(&at), tr.sides(&at));
            assert_eq!((o[0].sum, o[1].sum), (t[1].sum, t[0].sum), "{b}");
            differ += usize::from(o[0].sum != t[0].sum);
            assert_eq!(one.estimate(&b), both.estimate(&b), "{b}");
        }
        // The transpose is another partition: its sum on the board is not the same.
        assert!(differ > 0);
    }
}
