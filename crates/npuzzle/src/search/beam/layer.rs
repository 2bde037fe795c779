//! A beam's layers and candidates, its pace and its ends, and the count of its work.

use crate::error::SearchError;
use crate::limits::try_reserve;
use crate::moves::Direction;

/// A slot of a beam's table of kept positions: the hash of the position it holds and
/// that position's index among its layer's kept candidates, side by side so that one
/// cache line answers both (meaningful only while the slot holds a position of the layer
/// being kept: checked against the candidate there).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub(super) struct Slot {
    pub(super) hash: u64,
    pub(super) at: u32,
}

/// One candidate child of a layer: where it comes from and what it would be.
#[derive(Clone, Copy)]
pub(super) struct Cand {
    /// Ranking key: the estimate in the high bits, hash bits as a tie-break below.
    pub(super) key: u64,
    pub(super) parent: u32,
    pub(super) dir: u8,
    /// The linear-conflict estimate (the key's may be the databases').
    pub(super) h: u32,
    /// The rest of the board's part of the rank (see `BeamSetup::rest`).
    pub(super) all: u32,
    pub(super) hash: u64,
    /// With databases: the entry each lookup's moved tile changed.
    pub(super) vals: [u8; 2 * MAX_REGION_SETS],
    /// With a learned ranking: its part kept move by move (see [`Ranking::fresh`]).
    pub(super) kept: f32,
}

/// A layer of the beam: its positions' cells one after another, and per position the
/// blank, the linear-conflict estimate, the hash and the move that led there (4: none).
#[derive(Default)]
pub(super) struct Layer {
    pub(super) cells: Vec<u8>,
    pub(super) blank: Vec<u16>,
    pub(super) h: Vec<u32>,
    pub(super) hash: Vec<u64>,
    /// The rest of the board's part of the rank (see `BeamSetup::rest`): every tile's
    /// Manhattan distance, and on a line's beam the conflicts of the tiles not yet placed.
    pub(super) all: Vec<u32>,
    pub(super) last: Vec<u8>,
    /// With databases: per position, every lookup's entries (see `RegionDbs`).
    pub(super) vals: Vec<u8>,
    /// With databases: per position, every lookup's databases' tiles' cells (see
    /// `RegionDbs::words`), kept move by move instead of worked out from the cells for
    /// each child.
    pub(super) words: Vec<u64>,
    /// With a learned ranking: per position, its part kept move by move.
    pub(super) kept: Vec<f32>,
}

/// `v` made `len` long, its old contents left where they are (to be overwritten: zeroing
/// a layer's worth every layer showed in the profile).
pub(super) fn fit<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> Result<(), SearchError> {
    if len > v.len() {
        try_reserve(v, len - v.len(), "beam")?;
        v.resize(len, T::default());
    }
    v.truncate(len);
    Ok(())
}

/// A time for a beam to end by: its width is set layer by layer so that the layers still
/// expected fit in the time left (instead of the clock cutting a wide beam short and
/// losing it all).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pace<'w> {
    /// When the beam should end.
    pub until: std::time::Instant,
    /// The way of an earlier, narrower beam of the same stage.
    pub before: &'w Way,
    /// Whether the beam starts where the earlier one did (a run's first stage), so that
    /// their ranks compare.
    pub same_start: bool,
    /// The widest it may grow to (memory).
    pub max_width: usize,
}

impl Pace<'_> {
    /// The full layers still expected after a layer whose lowest rank is `low`, `done`
    /// full layers into the beam: what the earlier beam still took from its first layer
    /// that ranked as low where the two started alike, else from as many full layers in
    /// (at least a tenth of its full layers, and one). A wider beam gets there in fewer
    /// layers, and a cap thins its last ones: counted by depth, the earlier beam's layers
    /// left a seventh of the time unused (6x6 at 10 s). (A later stage starts from a
    /// board the earlier run never saw: its ranks do not compare.)
    pub fn left_after(&self, low: u64, done: f64) -> f64 {
        let total = self.before.full();
        let at = if self.same_start {
            self.before
                .lows
                .iter()
                .find(|l| l.0 <= low)
                .map_or(total, |l| l.1)
        } else {
            done
        };
        (total - at).max(total / 10.0).max(1.0)
    }
}

/// A beam run's way, for a later run's [`Pace`]: after each layer, the lowest rank in it
/// and the full layers so far (each layer's positions over the width it had: the first
/// layers, and the last ones where a cap thins them, are fractions of one).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Way {
    /// (lowest rank, full layers so far), a layer each.
    pub lows: Vec<(u64, f64)>,
}

impl Way {
    /// The full layers the run expanded.
    pub fn full(&self) -> f64 {
        self.lows.last().map_or(0.0, |l| l.1)
    }
}

/// Positions of a layer expanded as one piece of work (by one thread).
pub(super) const CHUNK: usize = 2048;

/// How many candidates ahead a layer's construction asks for a parent's memory.
pub(super) const AHEAD: usize = 8;

/// Positions whose children's lookups are asked for together before any is read.
pub(super) const BLOCK: usize = 64;

/// What one beam run found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BeamEnd {
    /// A solution (shorter than the cap, if one was given).
    Found(Vec<Direction>),
    /// The beam emptied or reached the cap first.
    Exhausted,
    /// The clock ran out or the search was cancelled.
    Stopped,
    /// The best rank in the beam stopped falling for [`STALL_LAYERS`] layers: the moves
    /// to the kept position with the best rank.
    Stalled(Vec<Direction>),
}

/// Layers without a new best rank after which a beam gives up on reaching its
/// goal by itself (its positions circle a local minimum of the estimate).
pub(crate) const STALL_LAYERS: usize = 64;

/// Positions the beams expanded and children they generated, summed over every beam of a
/// run (shared by the threads of a layer).
#[derive(Default)]
pub(crate) struct NodeCount {
    pub(super) expanded: std::sync::atomic::AtomicU64,
    pub(super) generated: std::sync::atomic::AtomicU64,
}

impl NodeCount {
    pub(super) fn add(&self, expanded: u64, generated: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.expanded.fetch_add(expanded, Relaxed);
        self.generated.fetch_add(generated, Relaxed);
    }

    /// (expanded, generated) so far.
    pub(crate) fn get(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.expanded.load(Relaxed), self.generated.load(Relaxed))
    }
}

/// The most database sets a beam's last region is ranked by (the largest estimate wins).
pub(crate) const MAX_REGION_SETS: usize = 2;

/// The most tiles a database that ranks a beam's region may have (its tiles' cells are
/// kept a byte each in one word).
pub(crate) const MAX_WORD_TILES: usize = 8;

/// The widest beam [`anytime`](super::anytime) tries (memory: 4 bytes per position per layer for
/// the way back, plus the layers themselves).
pub const ANYTIME_MAX_WIDTH: usize = 1 << 20;

/// Checks a beam width asked for: 1 to [`ANYTIME_MAX_WIDTH`].
pub fn check_beam_width(width: usize) -> Result<(), crate::error::RangeError> {
    if (1..=ANYTIME_MAX_WIDTH).contains(&width) {
        Ok(())
    } else {
        Err(crate::error::RangeError {
            expected: format!("a beam width from 1 to {ANYTIME_MAX_WIDTH}"),
            found: width.to_string(),
        })
    }
}
