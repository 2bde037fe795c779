//! Building a database: a breadth-first search over (placement, blank cell) in which
//! moves of other tiles cost nothing, on the layered engine ([`crate::layered`]).
//!
//! Every state is kept with its whole blank region (the empty cells the blank can reach
//! without moving a pattern tile), so each layer holds states of one cost: a 0-1 search
//! run as a plain one. Two bits per (placement, free cell) track the search; one byte per
//! placement holds the result, and for a zero-aware database one more bit per (placement,
//! free cell) marks the cells of regions first reached at a greater cost than the
//! placement (written out as a word per placement once the search is done).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::{
    check_pattern, fill_entries, huge_buffer, huge_copy, zero_aware_word, BuildProgress, PatternDb,
    Placement, MAX_CELLS, MAX_TILES, ZERO_AWARE_MAX_CELLS, ZERO_AWARE_VALUE_BITS,
};
use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::layered::{mark_words, Layers, Marks};
use crate::limits::{resolve_threads, try_vec, Limits, Watch};

const UNSEEN: u8 = u8::MAX;

/// Bytes a database of `k` tiles on `size` needs while it is built and after.
pub fn build_memory(size: Size, k: usize) -> u64 {
    build_memory_of(size, k, false)
}

/// Bytes a database of `k` tiles on `size` needs while it is built and after, zero-aware
/// or not: per placement, a byte and two bits a free cell while the search runs (a
/// zero-aware build one more bit a free cell), then the entries written out (a byte, or a
/// word for a zero-aware database) while the byte and those bits are still held.
pub fn build_memory_of(size: Size, k: usize, zero_aware: bool) -> u64 {
    let n = size.cells();
    let count = Placement::new(n, k).count() as f64;
    let s = (n - k) as f64;
    let per = if zero_aware {
        (1.0 + 3.0 * s / 8.0).max(5.0 + s / 8.0)
    } else {
        (1.0 + s / 4.0).max(2.0)
    };
    let bytes = count * per;
    if bytes >= u64::MAX as f64 {
        u64::MAX
    } else {
        bytes as u64
    }
}

impl PatternDb {
    /// Builds the database of `tiles` towards `goal` on `threads` threads (0: all cores);
    /// `progress` is called after each layer.
    pub fn build(
        goal: &Board,
        tiles: &[u8],
        limits: &Limits,
        threads: usize,
        progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<PatternDb, SearchError> {
        Self::build_of(goal, tiles, limits, threads, progress, false)
    }

    /// Builds the zero-aware database of `tiles` towards `goal` (boards of up to
    /// [`ZERO_AWARE_MAX_CELLS`] cells): the same search as [`build`](Self::build), each
    /// entry also marking the cells where the blank's region needs more (two moves more:
    /// see the [module notes](super)). Four times the memory of the plain database; its
    /// sums are never smaller.
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::PatternDb;
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let lim = Limits::default();
    /// let plain = PatternDb::build(&goal, &[1, 2, 3, 4], &lim, 1, &mut |_| {}).unwrap();
    /// let zero = PatternDb::build_zero_aware(&goal, &[1, 2, 3, 4], &lim, 1, &mut |_| {}).unwrap();
    /// let board: Board = "1 2 3/4 0 6/7 5 8".parse().unwrap();
    /// assert!(zero.is_zero_aware());
    /// assert!(zero.value(&board) >= plain.value(&board));
    /// ```
    pub fn build_zero_aware(
        goal: &Board,
        tiles: &[u8],
        limits: &Limits,
        threads: usize,
        progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<PatternDb, SearchError> {
        Self::build_of(goal, tiles, limits, threads, progress, true)
    }

    /// Whether `tiles` for `goal` can be built within `limits`: the pattern is valid, a
    /// zero-aware database fits the board, and the build's memory fits the limit. What
    /// [`build_of`](Self::build_of) checks first, for a caller to ask before announcing a
    /// build.
    pub(crate) fn check_build(
        goal: &Board,
        tiles: &[u8],
        limits: &Limits,
        zero_aware: bool,
    ) -> Result<(), SearchError> {
        let size = goal.size();
        let n = size.cells();
        let k = tiles.len();
        check_pattern(size, tiles).map_err(|reason| SearchError::Unsupported {
            algorithm: "pdb",
            reason: reason.to_string(),
        })?;
        if zero_aware && n > ZERO_AWARE_MAX_CELLS {
            return Err(SearchError::Unsupported {
                algorithm: "pdb build",
                reason: format!(
                    "zero-aware databases are for boards of up to {ZERO_AWARE_MAX_CELLS} cells, \
                     found {size} ({n} cells)"
                ),
            });
        }
        limits.check_memory(
            "pdb build",
            size,
            build_memory_of(size, k, zero_aware),
            "idastar with smaller patterns",
        )?;
        Ok(())
    }

    /// Builds the database of `tiles` towards `goal`: zero-aware
    /// ([`build_zero_aware`](Self::build_zero_aware)) with `zero_aware`, else plain
    /// ([`build`](Self::build)).
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::PatternDb;
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let lim = Limits::default();
    /// let db = PatternDb::build_of(&goal, &[1, 2, 3], &lim, 1, &mut |_| {}, true).unwrap();
    /// assert!(db.is_zero_aware());
    /// ```
    pub fn build_of(
        goal: &Board,
        tiles: &[u8],
        limits: &Limits,
        threads: usize,
        progress: &mut dyn FnMut(&BuildProgress),
        zero_aware: bool,
    ) -> Result<PatternDb, SearchError> {
        let watch = Watch::new(limits);
        let size = goal.size();
        let n = size.cells();
        let k = tiles.len();
        Self::check_build(goal, tiles, limits, zero_aware)?;
        let place = Placement::new(n, k);
        let count = place.count();
        let s = n - k;
        let slots = count * s as u64;
        // Small databases are faster on one thread than with a spawn per layer.
        let threads = if count < 1 << 16 {
            1
        } else {
            resolve_threads(threads)
        };
        let words = mark_words(slots, "pdb build")?;
        let marks = Marks::new(&words);
        let data: Vec<AtomicU8> = try_vec(count as usize, "pdb build", || AtomicU8::new(UNSEEN))?;
        // Zero-aware: a bit per (placement, free cell), as the marks are laid out.
        let plus_words: Vec<AtomicU64> = if zero_aware {
            try_vec(slots.div_ceil(64) as usize, "pdb build", || {
                AtomicU64::new(0)
            })?
        } else {
            Vec::new()
        };
        let plus = zero_aware.then(|| Marks::new(&plus_words));
        let grid = Grid::new(size);

        // The goal placement with the blank's whole region.
        let mut home = vec![0u8; k];
        for (i, &t) in tiles.iter().enumerate() {
            home[i] = goal
                .cells()
                .iter()
                .position(|&c| c == t)
                .expect("tile on the goal") as u8;
        }
        let p0 = place.index(&home);
        let occupied = home.iter().fold(0u64, |m, &p| m | 1 << p);
        let region = grid.region(!occupied & grid.all, goal.blank());
        mark_region(marks, p0, s, !occupied & grid.all, region, 1);
        data[p0 as usize].store(0, Ordering::Relaxed);
        let ctx = Ctx {
            place: &place,
            grid: &grid,
            marks,
            data: &data,
            plus,
            s,
            k,
        };
        let layers = Layers {
            name: "pdb build",
            threads,
            chunk: 1 << 12,
            total: count,
            watch: &watch,
        };
        layers.run(
            marks,
            1,
            |lo, hi, depth| ctx.expand(lo, hi, depth as u8),
            |_| None::<fn(usize, u64)>,
            progress,
        )?;
        drop(words);
        let data: Vec<u8> = data.into_iter().map(AtomicU8::into_inner).collect();
        let out_of_memory = |needed: usize| SearchError::OutOfMemory {
            algorithm: "pdb build",
            needed: needed as u64,
            machine: crate::limits::machine_memory(),
        };
        let data = if zero_aware {
            let top = data
                .iter()
                .copied()
                .filter(|&v| v != UNSEEN)
                .max()
                .unwrap_or(0);
            // The highest value is kept for unreached placements.
            if top as u32 >= (1 << ZERO_AWARE_VALUE_BITS) - 1 {
                return Err(SearchError::Unsupported {
                    algorithm: "pdb build",
                    reason: format!(
                        "zero-aware entries hold values up to {}, found {top}; build the plain \
                         database instead",
                        (1u32 << ZERO_AWARE_VALUE_BITS) - 2
                    ),
                });
            }
            // The words written straight into the memory the database keeps (no copy:
            // a 7-tile table on the 24-puzzle is 9.7 GB of words).
            let mut words =
                huge_buffer(4 * count as usize).map_err(|_| out_of_memory(4 * count as usize))?;
            let plus = Marks::new(&plus_words);
            fill_entries(&mut words, 4, threads, |i, out| {
                write_word(out, i, data[i as usize], plus, &place, grid.all, s)
            });
            drop(plus_words);
            words
                .make_read_only()
                .map_err(|_| out_of_memory(4 * count as usize))?
        } else {
            huge_copy(&data).map_err(|_| out_of_memory(data.len()))?
        };
        Ok(PatternDb::from_parts(
            goal.clone(),
            tiles.to_vec(),
            place,
            data,
            0,
            zero_aware,
        ))
    }
}

/// Cell masks of a board for flood fills.
#[derive(Debug, Clone)]
pub(super) struct Grid {
    w: usize,
    /// Every cell.
    pub(super) all: u64,
    not_left: u64,
    not_right: u64,
    /// Per cell, the cells next to it.
    pub(super) neighbours: Vec<u64>,
}

impl Grid {
    pub(super) fn new(size: Size) -> Grid {
        let (w, n) = (size.width(), size.cells());
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut not_left = all;
        let mut not_right = all;
        for r in 0..size.height() {
            not_left &= !(1u64 << (r * w));
            not_right &= !(1u64 << (r * w + w - 1));
        }
        let neighbours = (0..n)
            .map(|c| {
                let mut m = 0u64;
                if c % w > 0 {
                    m |= 1 << (c - 1);
                }
                if c % w + 1 < w {
                    m |= 1 << (c + 1);
                }
                if c >= w {
                    m |= 1 << (c - w);
                }
                if c + w < n {
                    m |= 1 << (c + w);
                }
                m
            })
            .collect();
        Grid {
            w,
            all,
            not_left,
            not_right,
            neighbours,
        }
    }

    /// The cells of `free` reachable from `from` through `free`.
    #[inline]
    pub(super) fn region(&self, free: u64, from: usize) -> u64 {
        let mut reach = 1u64 << from;
        loop {
            let grown = reach
                | ((reach << 1) & self.not_left)
                | ((reach >> 1) & self.not_right)
                | (reach << self.w)
                | (reach >> self.w);
            let grown = grown & free & self.all;
            if grown == reach {
                return reach;
            }
            reach = grown;
        }
    }
}

/// The slot bits (`per` bits a free cell, in cell order) with value `v` for the cells of
/// `region`.
#[inline]
fn slots_of(free: u64, region: u64, per: u32, v: u64) -> u128 {
    let mut bits = 0u128;
    let mut f = free;
    let mut j = 0;
    while f != 0 {
        let c = f & f.wrapping_neg();
        if region & c != 0 {
            bits |= (v as u128) << (per * j);
        }
        f ^= c;
        j += 1;
    }
    bits
}

/// The slot bits (2 per free cell, in cell order) with value `v` for the cells of `region`.
#[inline]
fn region_bits(free: u64, region: u64, v: u64) -> u128 {
    slots_of(free, region, 2, v)
}

/// ORs the 2-bit value `v` into the slots of `region` for placement `p`.
fn mark_region(marks: Marks<'_>, p: u64, s: usize, free: u64, region: u64, v: u64) -> u128 {
    let bits = region_bits(free, region, v);
    marks.or_bits(p * s as u64 * 2, bits)
}

/// The bits of the free cells `free` (one a cell, in cell order) that lie in `region`.
#[inline]
fn slot_bits(free: u64, region: u64) -> u64 {
    slots_of(free, region, 1, 1) as u64
}

/// The zero-aware word of placement `i` (its plain value `value`) into `out`: the cells of
/// its regions that need more (two moves, by parity), from the bits `plus` holds a free
/// cell each (`s` a placement, `k` tiles, `all`: every cell of the board; `pos`:
/// scratch). Unreached
/// placements (parity, with every tile but the blank in the pattern) hold the highest
/// value bits and no region bits.
#[inline]
fn write_word(
    out: &mut [u8],
    i: u64,
    value: u8,
    plus: Marks<'_>,
    place: &Placement,
    all: u64,
    s: usize,
) {
    let k = all.count_ones() as usize - s;
    let slots = plus.get_bits(i * s as u64, s);
    let mut cells = 0u32;
    if slots != 0 {
        let mut pos = [0u8; MAX_TILES];
        place.unindex(i, &mut pos[..k]);
        let occupied = pos[..k].iter().fold(0u64, |m, &c| m | 1 << c);
        let mut free = !occupied & all;
        let mut j = 0;
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            if slots >> j & 1 != 0 {
                cells |= 1 << c;
            }
            j += 1;
        }
    }
    out.copy_from_slice(&zero_aware_word(value, cells).to_le_bytes());
}

struct Ctx<'a> {
    place: &'a Placement,
    grid: &'a Grid,
    marks: Marks<'a>,
    data: &'a [AtomicU8],
    /// Zero-aware builds only: per (placement, free cell), set where its region was
    /// reached after the placement.
    plus: Option<Marks<'a>>,
    s: usize,
    k: usize,
}

impl Ctx<'_> {
    /// Expands the current states in mark words `lo..hi`; returns (states marked,
    /// placements valued) for the next layer, whose cost is `next`.
    fn expand(&self, lo: usize, hi: usize, next: u8) -> (u64, u64) {
        let s = self.s as u64;
        let mut new_states = 0u64;
        let mut new_places = 0u64;
        let mut pos = [0u8; MAX_TILES];
        let mut cur_p = u64::MAX;
        let mut occupied = 0u64;
        let mut slot_of = [0u8; MAX_CELLS];
        // Per placement: its free cells in order, and how many free cells lie below each
        // cell (branch-free lookups instead of bit-walking loops per state).
        let mut free_list = [0u8; MAX_CELLS];
        let mut free_below = [0u8; MAX_CELLS + 1];
        let n = self.grid.all.count_ones() as usize;
        self.marks.for_each_current(lo, hi, |slot_index| {
            let p = slot_index / s;
            let j = (slot_index % s) as usize;
            if p != cur_p {
                cur_p = p;
                self.place.unindex(p, &mut pos[..self.k]);
                occupied = 0;
                for (i, &c) in pos[..self.k].iter().enumerate() {
                    occupied |= 1 << c;
                    slot_of[c as usize] = i as u8;
                }
                let mut count = 0u8;
                for (cell, below) in free_below.iter_mut().enumerate().take(n) {
                    *below = count;
                    if occupied & (1 << cell) == 0 {
                        free_list[count as usize] = cell as u8;
                        count += 1;
                    }
                }
            }
            let free = !occupied & self.grid.all;
            // The blank's cell: the j-th free cell.
            let b = free_list[j] as usize;
            // Each pattern tile next to the blank can slide into it.
            let mut movers = self.grid.neighbours[b] & occupied;
            while movers != 0 {
                let c = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let i = slot_of[c] as usize;
                pos[i] = b as u8;
                let p2 = self.place.index(&pos[..self.k]);
                pos[i] = c as u8;
                let free2 = (free & !(1u64 << b)) | (1u64 << c);
                // Free cells below c after the move: those below it now, less b.
                let j2 = free_below[c] as usize - usize::from(b < c);
                if self.marks.get(p2 * s + j2 as u64) != 0 {
                    continue;
                }
                let region = self.grid.region(free2, c);
                let before = mark_region(self.marks, p2, self.s, free2, region, 2);
                // What the region's lowest cell held: every thread marking the region
                // writes the word holding that cell first, so exactly one finds it unseen
                // (its own cell's mark may already be set by another thread that reached
                // the region in this layer and found this thread's first word marked).
                let jm = (free2 & ((region & region.wrapping_neg()) - 1)).count_ones() as usize;
                let held = (before >> (2 * jm)) & 3;
                if held == 0 {
                    new_states += 1;
                }
                let d = &self.data[p2 as usize];
                let was = d.load(Ordering::Relaxed);
                if was == UNSEEN {
                    d.store(next, Ordering::Relaxed);
                    new_places += 1;
                } else if was < next && (held == 0 || held == 2) {
                    // A region first reached in this layer (unseen, or marked for the next
                    // layer by another thread: setting the bits twice changes nothing) of
                    // a placement reached earlier: its cells need more, at least two
                    // (parity: the module notes). Set in an earlier layer, the
                    // placement's value is seen by every thread.
                    if let Some(plus) = self.plus {
                        plus.or_bits(p2 * self.s as u64, slot_bits(free2, region) as u128);
                    }
                }
            }
        });
        (new_states, new_places)
    }
}

/// About how many seconds building the database of `tiles` for `goal` takes on `threads`
/// threads (0: all cores): 17 million (placement, blank cell) states a second per core
/// here (the 8-tile 4x4 table, 4.15 billion, took 121 s on 2 cores).
pub fn build_seconds(goal: &Board, tiles: &[u8], threads: usize) -> f64 {
    let cores = crate::limits::resolve_threads(threads);
    let entries = Placement::new(goal.size().cells(), tiles.len()).count();
    let states = entries as f64 * (goal.size().cells() - tiles.len()) as f64;
    states / (17e6 * cores as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    #[test]
    fn regions_flood_only_free_cells() {
        let g = Grid::new(Size::new(3, 3).unwrap());
        // Free: cells 0, 1, 3 and 8; from 0 the region is {0, 1, 3}.
        let free = 0b1_0000_1011;
        assert_eq!(g.region(free, 0), 0b1011);
        assert_eq!(g.region(free, 8), 1 << 8);
        assert_eq!(region_bits(free, 0b1010, 2), 0b10_10_00);
    }

    #[test]
    fn slot_bits_number_the_free_cells_in_order() {
        // Free: cells 0, 1, 3 and 8 (slots 0 to 3); the region {1, 8} is slots 1 and 3.
        let free = 0b1_0000_1011;
        assert_eq!(slot_bits(free, 0b1_0000_0010), 0b1010);
        assert_eq!(slot_bits(free, free), 0b1111);
        assert_eq!(slot_bits(free, 0), 0);
    }

    #[test]
    fn a_zero_aware_7_tile_24_puzzle_table_builds_within_20_gb() {
        let size = Size::square(5).unwrap();
        // 2,422,728,000 placements of 18 free cells: 7.75 bytes each while the search runs.
        let za = build_memory_of(size, 7, true);
        assert_eq!(za, (2_422_728_000f64 * 7.75) as u64);
        assert!(za < 20_000_000_000);
        // Plain: 5.5 bytes each (a byte and two bits a free cell).
        assert_eq!(build_memory_of(size, 7, false), 2_422_728_000 * 11 / 2);
    }
}
