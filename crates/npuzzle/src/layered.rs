//! The layered breadth-first engine shared by whole-space analysis and pattern-database
//! builds: two bits per slot, whole layers expanded by every thread at once.
//!
//! A slot is whatever the caller indexes densely (a state of the board, or a placement of
//! a pattern's tiles with the blank on one of the free cells). Its two bits say where the
//! search is with it: `00` unseen, `01` in the current layer, `10` in the next layer, `11`
//! done. A pass expands every current slot, marking its unseen successors `10` with atomic
//! bit-ors (so threads never lock); then a sweep turns `01` into `11` and `10` into `01`.
//! What is expanded and what a slot means belongs to the caller; the layers, the sweep,
//! the threads, progress and the clock belong here.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::error::SearchError;
use crate::limits::{run_chunks, try_vec, Watch};

/// The low bit of every 2-bit slot in a word.
pub(crate) const LO: u64 = 0x5555_5555_5555_5555;

/// How far a layered search has come: reported after each layer.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// The depth (or cost) whose states have just been found.
    pub depth: u32,
    /// Things found so far (states for an analysis, placements for a database).
    pub found: u64,
    /// Things in all.
    pub total: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// Storage for the 2-bit marks of `slots` slots, all unseen; `algorithm` names the
/// search in an [`SearchError::OutOfMemory`] if the system refuses the memory.
pub(crate) fn mark_words(
    slots: u64,
    algorithm: &'static str,
) -> Result<Vec<AtomicU64>, SearchError> {
    try_vec(slots.div_ceil(32) as usize, algorithm, || AtomicU64::new(0))
}

/// The 2-bit marks of every slot: a view of their words, passed by value so that the
/// hot loops hold the words' address in a register (through a reference to an owning
/// struct, every atomic operation made the compiler reload it: 3% of the 3x4 analysis).
#[derive(Clone, Copy)]
pub(crate) struct Marks<'a> {
    words: &'a [AtomicU64],
}

impl<'a> Marks<'a> {
    /// The marks held in `words` (from [`mark_words`]).
    pub(crate) fn new(words: &'a [AtomicU64]) -> Marks<'a> {
        Marks { words }
    }

    /// The number of 64-bit words (32 slots each).
    pub(crate) fn words(&self) -> usize {
        self.words.len()
    }

    /// The 2-bit value of `slot`.
    #[inline(always)]
    pub(crate) fn get(&self, slot: u64) -> u64 {
        (self.words[(slot / 32) as usize].load(Ordering::Relaxed) >> (2 * (slot % 32))) & 3
    }

    /// Puts `slot` in the current layer (for the roots).
    pub(crate) fn set_current(&self, slot: u64) {
        self.words[(slot / 32) as usize].fetch_or(1 << (2 * (slot % 32)), Ordering::Relaxed);
    }

    /// Puts an unseen `slot` in the next layer; true if this call was the one that did.
    #[inline(always)]
    pub(crate) fn mark_next(&self, slot: u64) -> bool {
        let (w, shift) = ((slot / 32) as usize, 2 * (slot % 32));
        let target = &self.words[w];
        // A plain load first: most successors are seen already, and a load is far
        // cheaper than a locked bit-or.
        if (target.load(Ordering::Relaxed) >> shift) & 3 != 0 {
            return false;
        }
        let prev = target.fetch_or(2 << shift, Ordering::Relaxed);
        (prev >> shift) & 3 == 0
    }

    /// The `len` bits (at most 64) from bit offset `at`, read as plain bits (not 2-bit
    /// marks): the counterpart of [`or_bits`](Self::or_bits).
    #[inline]
    pub(crate) fn get_bits(&self, at: u64, len: usize) -> u64 {
        if len == 0 {
            return 0;
        }
        let w = (at / 64) as usize;
        let sh = (at % 64) as u32;
        let lo = self.words[w].load(Ordering::Relaxed) >> sh;
        let v = if sh as usize + len > 64 {
            lo | self.words[w + 1].load(Ordering::Relaxed) << (64 - sh)
        } else {
            lo
        };
        if len == 64 {
            v
        } else {
            v & ((1u64 << len) - 1)
        }
    }

    /// ORs `bits` (up to 64 consecutive slots' worth, so up to three words) in at bit
    /// offset `at`; returns the bits that were there before, wherever `bits` has a set
    /// bit in the same word (the caller asks about slots it sets).
    #[inline]
    pub(crate) fn or_bits(&self, at: u64, bits: u128) -> u128 {
        let w = (at / 64) as usize;
        let sh = (at % 64) as u32;
        // The three words `bits` may touch once shifted by `sh`: the third only when
        // more than 128 - sh bits are used (over 32 free cells: boards past 6x6). Only
        // two were written before, and 7x7 to 16x4 databases were left incomplete.
        let parts = if sh == 0 {
            [bits as u64, (bits >> 64) as u64, 0]
        } else {
            [
                (bits as u64) << sh,
                (bits >> (64 - sh)) as u64,
                (bits >> (128 - sh)) as u64,
            ]
        };
        let mut before = 0u128;
        if parts[0] != 0 {
            before |= (self.words[w].fetch_or(parts[0], Ordering::Relaxed) >> sh) as u128;
        }
        if parts[1] != 0 {
            before |=
                (self.words[w + 1].fetch_or(parts[1], Ordering::Relaxed) as u128) << (64 - sh);
        }
        if parts[2] != 0 {
            before |=
                (self.words[w + 2].fetch_or(parts[2], Ordering::Relaxed) as u128) << (128 - sh);
        }
        before
    }

    /// Word `w`.
    #[inline(always)]
    pub(crate) fn word(self, w: usize) -> u64 {
        self.words[w].load(Ordering::Relaxed)
    }

    /// Calls `f` with every slot of the current layer in words `lo..hi`, in order.
    #[inline(always)]
    pub(crate) fn for_each_current(self, lo: usize, hi: usize, mut f: impl FnMut(u64)) {
        for (w, m) in self.words[lo..hi].iter().enumerate() {
            let v = m.load(Ordering::Relaxed);
            // Pairs equal to 01: the current layer (they do not change during a pass).
            let mut cur = v & !(v >> 1) & LO;
            while cur != 0 {
                let bit = cur.trailing_zeros() as u64;
                cur &= cur - 1;
                f((lo + w) as u64 * 32 + bit / 2);
            }
        }
    }

    /// Ends a layer in words `lo..hi`: current (01) becomes done (11), next (10) becomes
    /// current (01); `newly(word, bits)`, if given, gets the low bits of the slots that
    /// became current where there are any. (Two loops: the one without `newly` does no
    /// more than the sweep; a test per word cost the 3x4 analysis 2%.)
    #[inline(always)]
    fn advance<N: Fn(usize, u64)>(&self, lo: usize, hi: usize, newly: Option<&N>) {
        let sweep = |v: u64| {
            let l = v & LO;
            let h = (v >> 1) & LO;
            ((l << 1) | h | l, h & !l)
        };
        let words = &self.words[lo..hi];
        match newly {
            None => {
                for m in words {
                    m.store(sweep(m.load(Ordering::Relaxed)).0, Ordering::Relaxed);
                }
            }
            Some(newly) => {
                for (w, m) in words.iter().enumerate() {
                    let (v, fresh) = sweep(m.load(Ordering::Relaxed));
                    m.store(v, Ordering::Relaxed);
                    if fresh != 0 {
                        newly(lo + w, fresh);
                    }
                }
            }
        }
    }
}

/// One layered search: what it calls itself in errors, its threads and chunk size.
pub(crate) struct Layers<'a> {
    /// The name in a time-limit error (`analyze`, `pdb build`).
    pub(crate) name: &'static str,
    /// Threads to expand each layer on.
    pub(crate) threads: usize,
    /// Words a thread takes at a time.
    pub(crate) chunk: usize,
    /// Things in all, for progress.
    pub(crate) total: u64,
    /// The clock and cancel flag, checked after each layer.
    pub(crate) watch: &'a Watch,
}

impl Layers<'_> {
    /// Runs layer after layer from the roots already marked current (which count as
    /// `found` things) until a layer marks nothing new.
    ///
    /// `expand(lo, hi, depth)` expands the current slots in mark words `lo..hi` into the
    /// layer at `depth` and returns (slots newly marked, things newly found);
    /// `newly(depth)` may give a function that hears of the slots entering the current
    /// layer at `depth` (`f(word, bits)`, the low bit of each such slot set). Returns the
    /// things found at each depth (the roots first). The last layer stays marked current.
    pub(crate) fn run<N: Fn(usize, u64) + Sync>(
        &self,
        marks: Marks<'_>,
        found: u64,
        expand: impl Fn(usize, usize, u32) -> (u64, u64) + Sync,
        newly: impl Fn(u32) -> Option<N>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Vec<u64>, SearchError> {
        let mut histogram = vec![found];
        let mut found = found;
        let mut depth = 0u32;
        let words = marks.words();
        loop {
            let next = depth + 1;
            let (slots, things) = run_chunks(self.threads, words, self.chunk, |lo, hi| {
                expand(lo, hi, next)
            });
            if slots == 0 {
                return Ok(histogram);
            }
            depth = next;
            let hear = newly(depth);
            run_chunks(self.threads, words, self.chunk, |lo, hi| {
                marks.advance(lo, hi, hear.as_ref());
                (0, 0)
            });
            histogram.push(things);
            found += things;
            progress(&Progress {
                depth,
                found,
                total: self.total,
                elapsed: self.watch.elapsed(),
            });
            if self.watch.expired() {
                return Err(self.watch.timeout(self.name, depth, found, 0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    /// Breadth-first search on a ring of `n` slots from slot 0, each slot linked to its
    /// two neighbours: layer d holds the two slots at distance d (one at the far end).
    fn ring(n: u64, threads: usize) -> Vec<u64> {
        let words = mark_words(n, "ring").unwrap();
        let marks = Marks::new(&words);
        marks.set_current(0);
        let watch = Watch::new(&Limits::default());
        let layers = Layers {
            name: "ring",
            threads,
            chunk: 1,
            total: n,
            watch: &watch,
        };
        let mut reports = 0;
        let h = layers
            .run(
                marks,
                1,
                |lo, hi, _| {
                    let mut new = 0;
                    marks.for_each_current(lo, hi, |s| {
                        for t in [(s + 1) % n, (s + n - 1) % n] {
                            new += u64::from(marks.mark_next(t));
                        }
                    });
                    (new, new)
                },
                |_| None::<fn(usize, u64)>,
                &mut |_| reports += 1,
            )
            .unwrap();
        assert_eq!(reports, h.len() - 1, "a report per layer after the roots");
        assert!((0..n).all(|s| marks.get(s) != 0), "every slot seen");
        h
    }

    #[test]
    fn layers_of_a_ring() {
        for threads in [1, 2] {
            let mut want = vec![1u64];
            want.extend(std::iter::repeat_n(2, 49));
            want.push(1);
            assert_eq!(ring(100, threads), want);
            assert_eq!(ring(101, threads).len(), 51);
        }
    }

    #[test]
    fn or_bits_spans_three_words() {
        let words = mark_words(32 * 4, "test").unwrap();
        let marks = Marks::new(&words);
        // 126 bits (63 slots, as on 16x4 with one pattern tile) starting at bit 62.
        let bits = (1u128 << 126) - 1;
        assert_eq!(marks.or_bits(62, bits), 0);
        assert_eq!(marks.word(0), 0b11 << 62);
        assert_eq!(marks.word(1), u64::MAX);
        assert_eq!(marks.word(2), (1u64 << 60) - 1);
        assert_eq!(marks.word(3), 0);
        assert_eq!(marks.or_bits(62, 1 << 125) & (1 << 125), 1 << 125);
        assert_eq!(
            marks.or_bits(0, (1 << 127) | 1) & ((1 << 127) | 1),
            1 << 127
        );
        assert_eq!(marks.word(1), u64::MAX);
    }

    #[test]
    fn bits_read_back_as_written_across_words() {
        let words = mark_words(200, "test").unwrap();
        let marks = Marks::new(&words);
        // One bit a slot, 19 slots a placement: placements straddle words.
        for p in [0u64, 3, 6, 7] {
            marks.or_bits(p * 19, 0b101_0000_0000_0001_0011 & ((1 << 19) - 1));
        }
        for p in [0u64, 3, 6, 7] {
            assert_eq!(marks.get_bits(p * 19, 19), 0b101_0000_0000_0001_0011, "{p}");
        }
        assert_eq!(marks.get_bits(19, 19), 0);
        assert_eq!(marks.get_bits(0, 0), 0);
        assert_eq!(marks.get_bits(1, 2), 0b01);
    }

    #[test]
    fn or_bits_spans_two_words() {
        let words = mark_words(64, "test").unwrap();
        let marks = Marks::new(&words);
        let before = marks.or_bits(62, 0b1111);
        assert_eq!(before, 0);
        assert_eq!(marks.get(31), 0b11);
        assert_eq!(marks.get(32), 0b11);
        // Only the words it touches are read back.
        assert_eq!(marks.or_bits(62, 0b0011), 0b0011);
        assert_eq!(marks.or_bits(62, 0b1100), 0b1100);
    }
}
