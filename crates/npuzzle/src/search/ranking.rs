//! A learned correction to the anytime solver's ranking where a beam is ranked by one set
//! of pattern databases (a whole 6x6 board or a bigger board's last 6x6 region with the
//! 6x6 set, a whole 7x7 board with the 7x7 set), and the samples it is fitted to.
//!
//! The databases' estimate misjudges some positions more than others, and a beam keeps
//! the positions it misjudges most in its favour. The correction is a linear function,
//! fitted by least squares to how many moves beams still took from positions like the
//! ones a beam weighs (its candidates, kept or not), less the estimate:
//!
//! `rank = h + lambda * (sum of w[tile][cell] + sum of v[entry of each lookup] +
//! a*h + b*lc + c*md + d*(h - md))`
//!
//! where `h` is the estimate (the larger of the databases' and linear conflict's), `lc`
//! the linear-conflict estimate and `md` the Manhattan distance. It only orders a beam's
//! positions: no answer's length or lower bound depends on it being right. The weights
//! shipped for 6x6 and 7x7 were made with `examples/ranking_samples.rs` and
//! `bench/train-ranking.py` (see docs/algorithms.md, "The learned 6x6 and 7x7 rankings").

use crate::board::{Board, Size};
use crate::error::FileError;
use crate::heuristic::pdb::PdbHeuristic;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"NPZRANK1";

/// Entries of a database up to this are weighed apart; larger ones as this.
pub(crate) const ENTRY_SLOTS: usize = 64;

/// The weights shipped: fitted for 6x6 boards with the 6x6 set (`npuzzle pdb build
/// --size 6x6`), and for 7x7 boards with the 7x7 set (`npuzzle pdb build --size 7x7`).
static SHIPPED_6X6: &[u8] = include_bytes!("ranking-6x6.bin");
static SHIPPED_7X7: &[u8] = include_bytes!("ranking-7x7.bin");

/// A learned correction to the ranking of a beam ranked by one set of databases (see the
/// module's text).
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    size: Size,
    /// The tiles of each database of the set, in the set's order.
    groups: Vec<Vec<u8>>,
    /// Lookups of the set (2 where it is looked up on the board and reflected).
    lookups: usize,
    lambda: f32,
    /// Per tile (0 for the blank) and cell, tile major.
    tile_cell: Vec<f32>,
    /// Per lookup's database (lookup major) and entry ([`ENTRY_SLOTS`] each).
    entry: Vec<f32>,
    /// Weights of the estimate, the linear-conflict estimate, the Manhattan distance and
    /// the estimate's excess over it.
    scalar: [f32; 4],
}

/// Reads little-endian numbers off a byte slice, saying where it ran short.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, k: usize, what: &str) -> Result<&[u8], String> {
        let end = self.at.checked_add(k).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!(
                "expected {k} more bytes for {what} at byte {}, found {}",
                self.at,
                self.bytes.len() - self.at
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn byte(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    fn floats(&mut self, k: usize, what: &str) -> Result<Vec<f32>, String> {
        let s = self.take(k * 4, what)?;
        let v: Vec<f32> = s
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        match v.iter().position(|x| !x.is_finite()) {
            Some(i) => Err(format!(
                "expected finite weights in {what}, found {} at {i}",
                v[i]
            )),
            None => Ok(v),
        }
    }
}

impl Ranking {
    /// Reads a correction from its file's bytes: `NPZRANK1`, the board's width and
    /// height, the lookups and the databases (a byte each), each database's tile count
    /// and tiles, then little-endian `f32`s: lambda, the tile-and-cell weights, the
    /// entries' weights and the four scalar weights.
    ///
    /// ```
    /// use npuzzle::search::ranking::Ranking;
    /// let r = Ranking::shipped("7x7".parse().unwrap()).unwrap();
    /// assert_eq!(Ranking::parse(&r.to_bytes()).unwrap(), r);
    /// assert!(Ranking::parse(b"NPZRANK1\x07").unwrap_err().to_string().contains("byte 9"));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Ranking, FileError> {
        let magic = &bytes[..bytes.len().min(8)];
        if magic != MAGIC {
            return Err(FileError::BadMagic {
                expected: String::from_utf8_lossy(MAGIC).into_owned(),
                found: String::from_utf8_lossy(magic).into_owned(),
            });
        }
        Ranking::parse_after_magic(bytes).map_err(FileError::Invalid)
    }

    /// [`Ranking::parse`] past the magic: what is wrong, in words.
    fn parse_after_magic(bytes: &[u8]) -> Result<Ranking, String> {
        let mut r = Reader { bytes, at: 8 };
        let (w, h) = (r.byte("the width")?, r.byte("the height")?);
        let size = Size::new(w as usize, h as usize).map_err(|e| format!("the board size: {e}"))?;
        let n = size.cells();
        let lookups = r.byte("the lookups")? as usize;
        let count = r.byte("the databases")? as usize;
        if !(1..=2).contains(&lookups) || count == 0 {
            return Err(format!(
                "expected 1 or 2 lookups of at least one database, found {lookups} of {count}"
            ));
        }
        let mut groups = Vec::with_capacity(count);
        let mut seen = vec![false; n];
        for g in 0..count {
            let k = r.byte("a database's tile count")? as usize;
            let tiles = r.take(k, "a database's tiles")?.to_vec();
            for &t in &tiles {
                if t == 0 || t as usize >= n || seen[t as usize] {
                    return Err(format!(
                        "expected tiles from 1 to {}, each once, found {t} in database {g}",
                        n - 1
                    ));
                }
                seen[t as usize] = true;
            }
            groups.push(tiles);
        }
        let lambda = r.floats(1, "lambda")?[0];
        let tile_cell = r.floats(n * n, "the tile-and-cell weights")?;
        let entry = r.floats(lookups * count * ENTRY_SLOTS, "the entries' weights")?;
        let s = r.floats(4, "the scalar weights")?;
        if r.at != bytes.len() {
            return Err(format!(
                "expected the file to end at byte {}, found {} bytes more",
                r.at,
                bytes.len() - r.at
            ));
        }
        Ok(Ranking {
            size,
            groups,
            lookups,
            lambda,
            tile_cell,
            entry,
            scalar: [s[0], s[1], s[2], s[3]],
        })
    }

    /// The file's bytes (see [`Ranking::parse`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.push(self.size.width() as u8);
        b.push(self.size.height() as u8);
        b.push(self.lookups as u8);
        b.push(self.groups.len() as u8);
        for g in &self.groups {
            b.push(g.len() as u8);
            b.extend_from_slice(g);
        }
        let floats = std::iter::once(&self.lambda)
            .chain(&self.tile_cell)
            .chain(&self.entry)
            .chain(&self.scalar);
        for x in floats {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// The correction shipped for boards of `size` (6x6 and 7x7), if any.
    ///
    /// ```
    /// use npuzzle::search::ranking::Ranking;
    /// assert!(Ranking::shipped("7x7".parse().unwrap()).is_some());
    /// assert!(Ranking::shipped("6x6".parse().unwrap()).is_some());
    /// assert!(Ranking::shipped("8x8".parse().unwrap()).is_none());
    /// ```
    pub fn shipped(size: Size) -> Option<Ranking> {
        static SIX: std::sync::OnceLock<Option<Ranking>> = std::sync::OnceLock::new();
        static SEVEN: std::sync::OnceLock<Option<Ranking>> = std::sync::OnceLock::new();
        let (cell, bytes) = match (size.width(), size.height()) {
            (6, 6) => (&SIX, SHIPPED_6X6),
            (7, 7) => (&SEVEN, SHIPPED_7X7),
            _ => return None,
        };
        cell.get_or_init(|| Ranking::parse(bytes).ok()).clone()
    }

    /// A correction from its parts: `groups` (the tiles of each database, in the set's
    /// order), `lookups`, `lambda`, and its weights (see [`Ranking::parse`] for their
    /// lengths and order). An error if a length or a tile does not fit.
    pub fn from_parts(
        size: Size,
        groups: Vec<Vec<u8>>,
        lookups: usize,
        lambda: f32,
        tile_cell: Vec<f32>,
        entry: Vec<f32>,
        scalar: [f32; 4],
    ) -> Result<Ranking, FileError> {
        let r = Ranking {
            size,
            groups,
            lookups,
            lambda,
            tile_cell,
            entry,
            scalar,
        };
        // One check for both ways in: the bytes are read back.
        if r.size.width() > 255 || r.size.height() > 255 || r.lookups > 255 || r.groups.len() > 255
        {
            return Err(FileError::Invalid(format!(
                "expected at most 255 a side, lookups and databases, found {:?}",
                r.size
            )));
        }
        Ranking::parse(&r.to_bytes())
    }

    /// The tiles of each database it was fitted for, in the set's order.
    pub fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }

    /// The board size it was fitted for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Its weight against the estimate.
    pub fn lambda(&self) -> f32 {
        self.lambda
    }

    /// The same correction weighed `lambda` against the estimate (0: none).
    pub fn with_lambda(&self, lambda: f32) -> Ranking {
        Ranking {
            lambda,
            ..self.clone()
        }
    }

    /// Whether it was fitted for the set `h` on a board of its goal's size: the same
    /// databases in the same order and as many lookups.
    pub fn fits(&self, h: &PdbHeuristic) -> bool {
        let s = h.goal().size();
        let lookups = h.side_dbs.iter().filter(|(d, _)| !d.is_empty()).count();
        (s.width(), s.height()) == (self.size.width(), self.size.height())
            && *h.goal() == Board::solved(s)
            && h.partitions() == 1
            && lookups == self.lookups
            && h.dbs.len() == self.groups.len()
            && h.dbs
                .iter()
                .zip(&self.groups)
                .all(|(d, g)| d.tiles() == &g[..])
    }

    /// The weight of `tile` (0: the blank; tiles named as on the usual goal) on `cell`.
    #[inline]
    pub(crate) fn tile_cell(&self, tile: usize, cell: usize) -> f32 {
        self.tile_cell[tile * self.size.cells() + cell]
    }

    /// The weight of entry `value` of the lookups' database `slot` (lookup major).
    #[inline]
    pub(crate) fn entry(&self, slot: usize, value: u8) -> f32 {
        self.entry[slot * ENTRY_SLOTS + (value as usize).min(ENTRY_SLOTS - 1)]
    }

    /// The part of the correction kept move by move: the tiles' and the entries'.
    pub(crate) fn fresh(
        &self,
        region_tiles: impl Iterator<Item = (usize, usize)>,
        vals: &[u8],
    ) -> f32 {
        let tiles: f32 = region_tiles.map(|(t, c)| self.tile_cell(t, c)).sum();
        let entries: f32 = vals
            .iter()
            .enumerate()
            .map(|(s, &v)| self.entry(s, v))
            .sum();
        tiles + entries
    }

    /// The rank of a position (smaller is better) from its kept part `kept` (see
    /// [`Ranking::fresh`]), its estimate `h`, linear-conflict estimate `lc` and
    /// Manhattan distance `md`; ties go to fewer conflicts, as without it.
    #[inline]
    pub(crate) fn rank(&self, kept: f32, h: u32, lc: u32, md: u32) -> u64 {
        let [a, b, c, d] = self.scalar;
        let (hf, lf, mf) = (h as f32, lc as f32, md as f32);
        let s = kept + a * hf + b * lf + c * mf + d * (hf - mf);
        // In 64ths of a move, offset so that a large negative correction stays above 0.
        let score = ((hf + self.lambda * s) * 64.0 + 65536.0).clamp(0.0, (1u64 << 22) as f32);
        // (Through i32, one instruction, where a cast to u64 from f32 takes several; the
        // clamped score fits.)
        (((score as i32) as u64) << 16) | h.saturating_sub(md).min(0xffff) as u64
    }
}

/// One position a beam weighed, for fitting a [`Ranking`]: where it was, what the
/// databases said, and how many moves a plain beam still took from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankingSample {
    /// The layer (moves from the start).
    pub depth: usize,
    /// The position's cells, row by row (0 the blank), as on the usual goal.
    pub cells: Vec<u8>,
    /// Every lookup's database entries (lookup major).
    pub entries: Vec<u8>,
    /// The linear-conflict estimate.
    pub lc: u32,
    /// The Manhattan distance.
    pub md: u32,
    /// Moves a plain beam of the label width took from it to the goal (`None`: it
    /// stalled).
    pub label: Option<u32>,
}

/// How [`ranking_samples`](super::ranking_samples) samples and labels.
#[derive(Clone, Debug)]
pub struct SampleOptions {
    /// The beam's width.
    pub width: usize,
    /// Candidates sampled per layer (kept or not).
    pub per_layer: usize,
    /// The width of the plain beams that label the samples.
    pub label_width: usize,
    /// A correction the sampled beam ranks by (`None`: the plain ranking), so that the
    /// samples show where that ranking goes.
    pub ranking: Option<Ranking>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(lambda: f32, seed: u64) -> Ranking {
        let mut rng = crate::scramble::Rng::new(seed);
        let mut w = |k: usize| -> Vec<f32> {
            (0..k)
                .map(|_| (rng.below(2001) as f32 - 1000.0) / 500.0)
                .collect()
        };
        let (tile_cell, entry) = (w(9 * 9), w(2 * 2 * ENTRY_SLOTS));
        Ranking::from_parts(
            "3x3".parse().unwrap(),
            vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
            2,
            lambda,
            tile_cell,
            entry,
            [0.5, -0.25, 0.125, 1.0],
        )
        .unwrap()
    }

    /// The shipped corrections read, and were fitted for the databases `auto` gives 6x6
    /// and 7x7 boards (their groups in the same order).
    #[test]
    fn the_shipped_rankings_are_for_the_auto_sets() {
        for size in ["6x6", "7x7"] {
            let size: Size = size.parse().unwrap();
            let r = Ranking::shipped(size).expect("the shipped file reads");
            let groups = crate::heuristic::pdb::partition(&Board::solved(size), "auto").unwrap();
            assert_eq!(r.groups(), &groups[..]);
            assert_eq!(r.size(), size);
            assert!(r.lambda() > 0.0 && r.lambda() < 1.0);
            assert_eq!(Ranking::parse(&r.to_bytes()).unwrap(), r);
        }
    }

    /// Every way a file can be wrong is refused, saying what was expected and where.
    #[test]
    fn bad_files_are_refused_with_the_place() {
        let good = small(0.3, 1).to_bytes();
        assert_eq!(Ranking::parse(&good).unwrap(), small(0.3, 1));
        // Cut anywhere: refused.
        for k in 0..good.len() {
            let e = Ranking::parse(&good[..k]).unwrap_err().to_string();
            assert!(e.contains("expected"), "{k}: {e}");
        }
        let mut long = good.clone();
        long.push(0);
        let e = Ranking::parse(&long).unwrap_err().to_string();
        assert!(e.contains("1 bytes more"), "{e}");
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(Ranking::parse(&bad)
            .unwrap_err()
            .to_string()
            .contains("NPZRANK1"));
        // A tile twice, the blank, a tile past the board.
        for (at, t) in [(14, 1u8), (14, 0), (14, 9)] {
            let mut bad = good.clone();
            bad[at] = t;
            let e = Ranking::parse(&bad).unwrap_err().to_string();
            assert!(e.contains(&format!("found {t} in database")), "{e}");
        }
        // Lookups 0 or 3.
        for l in [0u8, 3] {
            let mut bad = good.clone();
            bad[10] = l;
            assert!(Ranking::parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("1 or 2 lookups"));
        }
        // A weight that is not a number.
        let mut bad = good.clone();
        let at = bad.len() - 4;
        bad[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Ranking::parse(&bad)
            .unwrap_err()
            .to_string()
            .contains("finite"));
        assert!(Ranking::from_parts(
            "3x3".parse().unwrap(),
            vec![vec![1, 2]],
            1,
            0.3,
            vec![0.0; 80],
            vec![0.0; ENTRY_SLOTS],
            [0.0; 4]
        )
        .is_err());
    }

    /// Without a weight the rank is the estimate's, ties to fewer conflicts; a smaller
    /// kept part ranks better; the weights decide as fitted.
    #[test]
    fn the_rank_orders_by_the_corrected_estimate() {
        let r = small(0.0, 2);
        assert!(r.rank(-50.0, 10, 8, 8) < r.rank(50.0, 11, 8, 8));
        assert!(r.rank(0.0, 10, 10, 10) < r.rank(0.0, 10, 10, 8));
        let r = r.with_lambda(0.5);
        assert!(r.rank(-4.0, 10, 8, 8) < r.rank(4.0, 10, 8, 8));
        // 10 + 0.5 * (-8 + 5 - 2 + 1 + 2) = 9 moves against 11 + 0.5 * (5.5 - 2.75 +
        // 1.375 + 0) = 13.06.
        assert!(r.rank(-8.0, 10, 8, 8) < r.rank(0.0, 11, 11, 11));
        // Extremes stay in range and in order.
        assert_eq!(r.rank(-1e9, 10, 8, 8) >> 16, 0);
        assert!(r.rank(1e9, 10, 8, 8) >= r.rank(1e6, 10, 8, 8));
    }
}
