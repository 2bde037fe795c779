//! Databases made from others by a symmetry of the board.
//!
//! A database's values depend only on the board's geometry, where its tiles' goal cells
//! are, and in which region of free cells the goal's blank stands. Where a mirror, a turn
//! or (on a square board) a reflection about a diagonal takes one pattern's goal cells onto
//! another's and keeps the goal's blank in its region, the second database is the first
//! seen through that symmetry: entry for entry, with no search. The left and right blocks
//! of 4x4's `6-6-3` and `5-5-5` are such a pair, so each of those sets builds one large
//! database and copies the other.

use super::build::Grid;
use super::{fill_entries, huge_buffer, zero_aware_word, PatternDb, MAX_TILES};
use crate::board::{Board, Size};
use crate::limits::resolve_threads;

/// How one pattern's database is another's seen through a symmetry of the board.
#[derive(Debug, Clone)]
pub(crate) struct Image {
    /// Per slot of the source pattern: the slot of the image's pattern holding the tile
    /// whose goal cell is the source tile's goal cell under the symmetry.
    slots: Vec<u8>,
    /// The symmetry's inverse as a map of cells (image cell to source cell).
    back: Vec<u8>,
    /// The symmetry as a map of cells (source cell to image cell).
    to: Vec<u8>,
}

/// The symmetries of a board of `size` as maps of cells (`map[cell]` is the cell's image),
/// the identity first: the mirrors and the half turn, and on a square board the two
/// diagonal reflections and the quarter turns.
fn symmetries(size: Size) -> Vec<Vec<u8>> {
    let (w, h) = (size.width(), size.height());
    let map = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<u8> {
        (0..w * h)
            .map(|c| {
                let (r, col) = f(c / w, c % w);
                (r * w + col) as u8
            })
            .collect()
    };
    let mut all = vec![
        map(&|r, c| (r, c)),
        map(&|r, c| (r, w - 1 - c)),
        map(&|r, c| (h - 1 - r, c)),
        map(&|r, c| (h - 1 - r, w - 1 - c)),
    ];
    if w == h {
        all.push(map(&|r, c| (c, r)));
        all.push(map(&|r, c| (w - 1 - c, h - 1 - r)));
        all.push(map(&|r, c| (c, w - 1 - r)));
        all.push(map(&|r, c| (h - 1 - c, r)));
    }
    all
}

/// How the database of `to` for `goal` is the database of `from` through a symmetry of
/// the board, if one is: the symmetry takes every goal cell of `from`'s tiles onto a goal
/// cell of `to`'s, and the goal's blank into its own region of `to`'s free cells.
pub(crate) fn image_of(goal: &Board, from: &[u8], to: &[u8]) -> Option<Image> {
    // (`to` must be a pattern of its own: distinct tiles of the board, none the blank.)
    if from.len() != to.len() || super::check_pattern(goal.size(), to).is_err() {
        return None;
    }
    let cells = goal.cells();
    let home = |t: u8| cells.iter().position(|&c| c == t);
    let grid = Grid::new(goal.size());
    let homes_to = to.iter().try_fold(0u64, |m, &t| Some(m | 1 << home(t)?))?;
    let free_to = grid.all & !homes_to;
    for map in symmetries(goal.size()) {
        let slots: Option<Vec<u8>> = from
            .iter()
            .map(|&t| {
                let image = map[home(t)?] as usize;
                to.iter().position(|&u| cells[image] == u).map(|j| j as u8)
            })
            .collect();
        let Some(slots) = slots else { continue };
        let blank = goal.blank();
        if grid.region(free_to, blank) & (1 << map[blank]) == 0 {
            continue;
        }
        let mut back = vec![0u8; map.len()];
        for (c, &m) in map.iter().enumerate() {
            back[m as usize] = c as u8;
        }
        return Some(Image {
            slots,
            back,
            to: map,
        });
    }
    None
}

impl PatternDb {
    /// The database of `tiles` for the same goal made from this one, where a symmetry of
    /// the board takes this pattern onto `tiles` (see the module's notes): the same entries
    /// a build of `tiles` gives, plain or zero-aware as this one is, on `threads` threads
    /// (0: every core). `None` where no symmetry does, or where memory is short.
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::PatternDb;
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("4x4".parse().unwrap());
    /// let lim = Limits::default();
    /// // The left and right blocks of the top two rows, mirror images.
    /// let left = PatternDb::build(&goal, &[1, 2, 5, 6], &lim, 1, &mut |_| {}).unwrap();
    /// let right = left.image(&[4, 3, 8, 7], 1).unwrap();
    /// let built = PatternDb::build(&goal, &[4, 3, 8, 7], &lim, 1, &mut |_| {}).unwrap();
    /// assert_eq!(right.entries(), built.entries());
    /// // Tile 15 is nobody's mirror image of tile 1: the blank's corner is not mirrored.
    /// assert!(left.image(&[15, 14, 11, 10], 1).is_none());
    /// ```
    pub fn image(&self, tiles: &[u8], threads: usize) -> Option<PatternDb> {
        let image = image_of(&self.goal, &self.tiles, tiles)?;
        let width = self.width();
        let count = self.len();
        let mut data = huge_buffer(width * count).ok()?;
        let k = self.tiles.len();
        let threads = if count < 1 << 16 {
            1
        } else {
            resolve_threads(threads)
        };
        fill_entries(&mut data[..width * count], width, threads, |idx, entry| {
            let mut pos_to = [0u8; MAX_TILES];
            let mut pos_from = [0u8; MAX_TILES];
            self.place.unindex(idx, &mut pos_to[..k]);
            for (s, &j) in image.slots.iter().enumerate() {
                pos_from[s] = image.back[pos_to[j as usize] as usize];
            }
            let (value, bits) = self.entry(self.place.index(&pos_from[..k]));
            if width == 1 {
                entry[0] = value;
            } else {
                let mut moved = 0u32;
                let mut b = bits;
                while b != 0 {
                    let c = b.trailing_zeros() as usize;
                    b &= b - 1;
                    moved |= 1 << image.to[c];
                }
                entry.copy_from_slice(&zero_aware_word(value, moved).to_le_bytes());
            }
        });
        let data = data.make_read_only().ok()?;
        Some(PatternDb::from_parts(
            self.goal.clone(),
            tiles.to_vec(),
            self.place.clone(),
            data,
            0,
            self.zero_aware,
        ))
    }
}

/// Whether the database of `tiles` for `goal` is the image of one of `others` (see
/// [`PatternDb::image`]): made by copying, not by a search.
pub fn is_image(goal: &Board, tiles: &[u8], others: &[Vec<u8>]) -> bool {
    others.iter().any(|o| image_of(goal, o, tiles).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;

    fn build(goal: &Board, tiles: &[u8], zero: bool) -> PatternDb {
        PatternDb::build_of(goal, tiles, &Limits::default(), 2, &mut |_| {}, zero).unwrap()
    }

    #[test]
    fn symmetries_are_permutations_of_the_cells() {
        for (w, h) in [(2, 2), (3, 3), (4, 4), (2, 5), (5, 3), (16, 2)] {
            let size = Size::new(w, h).unwrap();
            let all = symmetries(size);
            assert_eq!(all.len(), if w == h { 8 } else { 4 });
            for map in &all {
                let mut seen = vec![false; w * h];
                for &c in map {
                    assert!(!std::mem::replace(&mut seen[c as usize], true));
                }
            }
        }
    }

    /// Every pair of patterns of the board that a symmetry relates: the image's entries
    /// are byte for byte those of the database built for it, plain and zero-aware, on
    /// both goals and on square and oblong boards.
    #[test]
    fn every_image_is_the_database_a_build_gives() {
        let (mut checked, mut refused) = (0, 0);
        for (size, goals) in [
            (
                "3x3",
                vec![
                    "1 2 3/4 5 6/7 8 0",
                    "0 1 2/3 4 5/6 7 8",
                    "1 2 3/4 0 5/6 7 8",
                ],
            ),
            ("4x3", vec!["1 2 3 4/5 6 7 8/9 10 11 0"]),
            ("2x4", vec!["1 2/3 4/5 6/7 0"]),
            ("4x4", vec!["1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"]),
        ] {
            for g in goals {
                let goal: Board = g.parse().unwrap();
                assert_eq!(goal.size().to_string(), size);
                let n = goal.size().cells();
                let tiles: Vec<u8> = (1..n as u8).collect();
                // Patterns: runs of the goal's tiles in reading order, and their images.
                let k = if n == 16 { 3 } else { 4.min(n - 2) };
                for start in 0..=tiles.len() - k {
                    let from = &tiles[start..start + k];
                    for zero in [false, true] {
                        let db = build(&goal, from, zero);
                        for map in symmetries(goal.size()) {
                            let cells = goal.cells();
                            let to: Option<Vec<u8>> = from
                                .iter()
                                .map(|&t| {
                                    let c = cells.iter().position(|&x| x == t).unwrap();
                                    let u = cells[map[c] as usize];
                                    (u != 0).then_some(u)
                                })
                                .collect();
                            let Some(to) = to else { continue };
                            let mut reversed = to.clone();
                            reversed.reverse();
                            for to in [to, reversed] {
                                let Some(img) = db.image(&to, 2) else {
                                    refused += 1;
                                    continue;
                                };
                                let want = build(&goal, &to, zero);
                                assert_eq!(img.tiles(), to.as_slice());
                                assert_eq!(img.is_zero_aware(), zero);
                                assert!(
                                    img.entries() == want.entries(),
                                    "{g}: {from:?} to {to:?} zero-aware {zero}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        // Refused: where the goal's blank would leave its region of the image's free cells.
        assert!(
            checked > 100 && refused > 0,
            "{checked} images checked, {refused} refused"
        );
    }

    #[test]
    fn patterns_no_symmetry_relates_have_no_image() {
        let goal = Board::solved("4x4".parse().unwrap());
        // Sizes differ; a tile's image would be the blank's cell; no map fits.
        assert!(image_of(&goal, &[1, 2], &[3]).is_none());
        assert!(image_of(&goal, &[1], &[16]).is_none());
        assert!(image_of(&goal, &[1, 2, 3], &[1, 2, 5]).is_none());
        // Not a pattern: a tile twice, the blank, a tile off the board.
        assert!(image_of(&goal, &[1, 6], &[4, 4]).is_none());
        assert!(image_of(&goal, &[1, 6], &[4, 0]).is_none());
        assert!(image_of(&goal, &[1, 6], &[4, 99]).is_none());
        assert!(image_of(&goal, &[1, 6], &[4, 7]).is_some());
        assert!(is_image(&goal, &[4, 7], &[vec![9], vec![1, 6]]));
        assert!(!is_image(&goal, &[4, 8], &[vec![1, 6]]));
    }
}
