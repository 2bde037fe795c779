//! Partitions of the goal's tiles into patterns: presets and written-out groups.

use super::{MAX_CELLS, MAX_TILES};
use crate::board::{Board, Size};
use crate::error::DatabaseError;

/// The tiles a goal has on `cells` (the blank's cell left out).
fn tiles_on(goal: &Board, cells: &[usize]) -> Vec<u8> {
    cells
        .iter()
        .map(|&c| goal.cells()[c])
        .filter(|&t| t != 0)
        .collect()
}

/// The tiles of `goal` on each group of cells, the groups laid out for the blank in the
/// bottom-right corner and turned half a turn when it is in the first cell (a group left
/// with no tile is dropped).
fn blocks(goal: &Board, groups: &[&[usize]]) -> Vec<Vec<u8>> {
    let n = goal.size().cells();
    groups
        .iter()
        .map(|g| {
            let cells: Vec<usize> = if goal.blank() == 0 {
                g.iter().map(|&c| n - 1 - c).collect()
            } else {
                g.to_vec()
            };
            tiles_on(goal, &cells)
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// The names of the preset partitions.
pub const PRESETS: [&str; 5] = ["7-8", "6-6-3", "5-5-5", "6-6-6-6", "auto"];

/// A partition of the goal's tiles into patterns: a preset name (`7-8`, `6-6-3`,
/// `5-5-5` on 4x4; `6-6-6-6` on 5x5; `auto` for the default of any size) or tile lists
/// such as `1,2,3,4,5,6,7/8,9,10,11,12,13,14,15`.
///
/// The 4x4 and 5x5 presets are blocks of cells laid out for a goal with the blank in the
/// bottom-right corner and turned half a turn when the blank is in the top-left one; for
/// other goals the blocks are taken as they are, less the blank's cell.
///
/// ```
/// use npuzzle::heuristic::pdb::partition;
/// use npuzzle::Board;
/// let goal = Board::solved("4x4".parse().unwrap());
/// let p = partition(&goal, "7-8").unwrap();
/// assert_eq!(p, vec![vec![1, 2, 3, 4, 5, 6, 7, 8], vec![9, 10, 11, 12, 13, 14, 15]]);
/// assert_eq!(partition(&goal, "1,2/3").unwrap(), vec![vec![1, 2], vec![3]]);
/// assert!(partition(&goal, "1,2/2").is_err());
/// ```
pub fn partition(goal: &Board, spec: &str) -> Result<Vec<Vec<u8>>, DatabaseError> {
    partition_in_words(goal, spec).map_err(DatabaseError::Pattern)
}

/// [`partition`], what is wrong in words.
fn partition_in_words(goal: &Board, spec: &str) -> Result<Vec<Vec<u8>>, String> {
    let size = goal.size();
    let (w, h, n) = (size.width(), size.height(), size.cells());
    let blocks = |groups: &[&[usize]]| blocks(goal, groups);
    let parts = match (spec.trim(), w, h) {
        ("7-8", 4, 4) => blocks(&[&[0, 1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]]),
        ("6-6-3", 4, 4) => blocks(&[
            &[0, 1, 4, 5, 8, 9],
            &[2, 3, 6, 7, 10, 11],
            &[12, 13, 14, 15],
        ]),
        ("5-5-5", 4, 4) => blocks(&[
            &[0, 1, 4, 5, 8],
            &[2, 3, 6, 7, 11],
            &[9, 10, 12, 13, 14, 15],
        ]),
        // Korf & Felner's layout: against blocks of rows 3-4 (10,11,12,15,16,17 and
        // 18..23) it took Korf's 24-puzzle instance 25 from 118 to 85 million nodes.
        ("6-6-6-6", 5, 5) => blocks(&[
            &[0, 1, 2, 5, 6, 7],
            &[3, 4, 8, 9, 13, 14],
            &[10, 11, 15, 16, 20, 21],
            &[12, 17, 18, 19, 22, 23, 24],
        ]),
        // Seven groups of five tiles: 45 million entries each (43 MiB), about 25 s a
        // build here; the last region of the anytime solver's beams.
        ("auto", 6, 6) => blocks(&[
            &[0, 1, 2, 6, 7],
            &[3, 4, 5, 10, 11],
            &[8, 9, 14, 15, 20],
            &[12, 13, 18, 19, 24],
            &[16, 17, 21, 22, 23],
            &[25, 26, 30, 31, 32],
            &[27, 28, 29, 33, 34, 35],
        ]),
        // Eight groups of five tiles and two of four, in blocks: 229 million entries
        // (218 MiB) for each of the eight, about 2.5 minutes a build here; the whole
        // board of the anytime solver's beams with time enough (see
        // `request::WHOLE_PDBS_FROM`).
        ("auto", 7, 7) => blocks(&[
            &[0, 1, 2, 7, 8],
            &[3, 4, 9, 10, 11],
            &[5, 6, 12, 13, 20],
            &[14, 15, 16, 21, 22],
            &[17, 18, 19, 24, 25],
            &[23, 30, 31, 32, 38],
            &[26, 27, 33, 34, 41],
            &[28, 29, 35, 36, 42],
            &[37, 43, 44, 45],
            &[39, 40, 46, 47],
        ]),
        ("auto", 4, 4) => return partition_in_words(goal, "7-8"),
        ("auto", 5, 5) => return partition_in_words(goal, "6-6-6-6"),
        ("auto", _, _) => {
            // Groups of at most 6 tiles in goal order, as even as possible.
            let tiles: Vec<u8> = goal.cells().iter().copied().filter(|&t| t != 0).collect();
            let groups = tiles.len().div_ceil(6);
            let per = tiles.len().div_ceil(groups);
            tiles.chunks(per).map(|c| c.to_vec()).collect()
        }
        (p, _, _) if p == CATALOGUE_24 => {
            return Err(format!(
                "expected one partition, found the catalogue {p} (four partitions; where \
                 several are taken, see partitions)"
            ))
        }
        (p, _, _) if PRESETS.contains(&p) => {
            return Err(format!(
                "the preset {p} is for {}, not {size}",
                if p == "6-6-6-6" { "5x5" } else { "4x4" }
            ))
        }
        (p, _, _) => {
            let mut parts = Vec::new();
            for (i, group) in p.split('/').enumerate() {
                let tiles: Result<Vec<u8>, String> = group
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|t| !t.is_empty())
                    .map(|t| {
                        t.parse::<u8>().map_err(|_| {
                            format!("expected tile numbers in pattern {}, found {t:?}", i + 1)
                        })
                    })
                    .collect();
                parts.push(tiles?);
            }
            parts
        }
    };
    let mut seen = vec![false; n];
    for p in &parts {
        check_pattern_in_words(size, p)?;
        for &t in p {
            if std::mem::replace(&mut seen[t as usize], true) {
                return Err(format!("expected disjoint patterns, found tile {t} in two"));
            }
        }
    }
    Ok(parts)
}

/// The name of the 24-puzzle's catalogue: four 6-6-6-6 partitions, the estimate the
/// largest of their sums and their reflections' (see [`partitions`]).
pub const CATALOGUE_24: &str = "6-6-6-6x4";

/// The catalogue's partitions after `6-6-6-6`, as blocks of cells (blank in the
/// bottom-right corner): three of the kind Clausecker's catalogues use (rows of the
/// bottom-left and top-right blocks cut differently). On Korf's instances 25, 38, 40 and 44
/// the four took the nodes expanded from 256 to 107 million.
const CATALOGUE_24_CELLS: [[[usize; 6]; 4]; 3] = [
    [
        [13, 14, 18, 19, 22, 23],
        [12, 15, 16, 17, 20, 21],
        [0, 1, 5, 6, 10, 11],
        [2, 3, 4, 7, 8, 9],
    ],
    [
        [12, 13, 14, 18, 19, 23],
        [15, 16, 17, 20, 21, 22],
        [6, 7, 8, 9, 10, 11],
        [0, 1, 2, 3, 4, 5],
    ],
    [
        [13, 14, 18, 19, 22, 23],
        [12, 15, 16, 17, 20, 21],
        [6, 7, 8, 9, 10, 11],
        [0, 1, 2, 3, 4, 5],
    ],
];

/// Several partitions joined by `+` (a catalogue: the estimate is the largest of their
/// sums, see [`PdbHeuristic::catalogue`](super::PdbHeuristic::catalogue)), each as
/// [`partition`] reads it; one partition without a `+`.
///
/// ```
/// use npuzzle::heuristic::pdb::partitions;
/// use npuzzle::Board;
/// let goal = Board::solved("3x3".parse().unwrap());
/// let p = partitions(&goal, "1,2,3,4/5,6,7,8 + 1,4,7/2,5,8,3,6").unwrap();
/// assert_eq!(p.len(), 2);
/// assert_eq!(p[1], vec![vec![1, 4, 7], vec![2, 5, 8, 3, 6]]);
/// assert!(partitions(&goal, "1,2+").is_err());
/// ```
pub fn partitions(goal: &Board, spec: &str) -> Result<Vec<Vec<Vec<u8>>>, DatabaseError> {
    partitions_in_words(goal, spec).map_err(DatabaseError::Pattern)
}

/// [`partitions`], what is wrong in words.
fn partitions_in_words(goal: &Board, spec: &str) -> Result<Vec<Vec<Vec<u8>>>, String> {
    let size = goal.size();
    if spec.trim() == CATALOGUE_24 {
        if (size.width(), size.height()) != (5, 5) {
            return Err(format!("the preset {CATALOGUE_24} is for 5x5, not {size}"));
        }
        // `6-6-6-6` first, then the others, laid out as the presets are.
        let mut all = vec![partition_in_words(goal, "6-6-6-6")?];
        for groups in &CATALOGUE_24_CELLS {
            let groups: Vec<&[usize]> = groups.iter().map(|g| g.as_slice()).collect();
            all.push(blocks(goal, &groups));
        }
        return Ok(all);
    }
    spec.split('+')
        .enumerate()
        .map(|(i, one)| {
            if one.trim().is_empty() {
                return Err(format!(
                    "expected a partition on each side of '+', found none in place {}",
                    i + 1
                ));
            }
            partition_in_words(goal, one)
        })
        .collect()
}

/// The goal's tiles in none of `groups`, in order: they add nothing to the partition's
/// estimate (it stays a lower bound, only weaker).
///
/// ```
/// use npuzzle::heuristic::pdb::left_out;
/// use npuzzle::Board;
/// let goal = Board::solved("3x3".parse().unwrap());
/// assert_eq!(left_out(&goal, &[vec![1, 2, 3], vec![5, 8]]), vec![4, 6, 7]);
/// assert!(left_out(&goal, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]).is_empty());
/// ```
pub fn left_out(goal: &Board, groups: &[Vec<u8>]) -> Vec<u8> {
    let mut tiles: Vec<u8> = goal.cells().iter().copied().filter(|&t| t != 0).collect();
    tiles.sort_unstable();
    tiles.retain(|t| !groups.iter().any(|g| g.contains(t)));
    tiles
}

/// Tiles in order written as runs: `6-24`, `3, 5, 9-11`.
pub(crate) fn runs(tiles: &[u8]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tiles.len() {
        let mut j = i;
        while j + 1 < tiles.len() && tiles[j + 1] == tiles[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}-{}", tiles[i], tiles[j])
        } else {
            tiles[i].to_string()
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Checks that `tiles` is a usable pattern on `size`: distinct tiles, none the blank, at
/// most [`MAX_TILES`], and a board of at most [`MAX_CELLS`] cells.
pub fn check_pattern(size: Size, tiles: &[u8]) -> Result<(), DatabaseError> {
    check_pattern_in_words(size, tiles).map_err(DatabaseError::Pattern)
}

/// [`check_pattern`], what is wrong in words.
pub(crate) fn check_pattern_in_words(size: Size, tiles: &[u8]) -> Result<(), String> {
    let n = size.cells();
    if n > MAX_CELLS {
        return Err(format!(
            "{size} has {n} cells; pattern databases index at most {MAX_CELLS}"
        ));
    }
    if tiles.is_empty() || tiles.len() > MAX_TILES {
        return Err(format!(
            "expected 1 to {MAX_TILES} tiles in a pattern, found {}",
            tiles.len()
        ));
    }
    let mut seen = vec![false; n];
    for &t in tiles {
        if t == 0 || t as usize >= n {
            return Err(format!(
                "expected tiles 1 to {} in a pattern, found {t}",
                n - 1
            ));
        }
        if seen[t as usize] {
            return Err(format!(
                "expected each tile once in a pattern, found {t} twice"
            ));
        }
        seen[t as usize] = true;
    }
    Ok(())
}
