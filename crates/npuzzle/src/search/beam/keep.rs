//! A layer's best candidates kept: the cut among their keys, and repeats dropped as the
//! kept positions are recorded in the beam's table of kept positions.

use super::layer::*;
use crate::error::SearchError;
use crate::heuristic::pdb::prefetch;
use crate::limits::for_each_index;
use std::sync::Mutex;

/// Slots of a beam's table of kept positions ([`Slot`]s) per position of its width,
/// before rounding up to a power of two.
pub(super) const SLOTS_PER_POSITION: usize = 16;

/// The `width` best of the first `chunks` chunks' candidates (`parts`, `total` in all),
/// in the order they came (their parents'), into `cands`: every key below the cut, and as
/// many equal to it as there is room for; repeats go as the kept positions are recorded
/// in `seen`, within the layer and of earlier layers while their slots survive, the
/// better ranked of two repeats within the layer staying in the first one's place (each
/// slot of `seen` holds the index in `cands` of the position it records).
/// On a line's beam repeats differ in the untracked tiles, and so in rank: 20 random
/// 16x16 boards at width 4,096 took 102,108 moves with the better staying, 103,378 with
/// the first (seed 7); 20 10x10 boards at 8,192, 22,423 against 22,483. The keys
/// are gathered and the candidates past the cut dropped on `threads` threads, chunk by
/// chunk; the rest on one, in order, so that the answer is the same on any number of
/// threads. (The table's slots shared among the threads in ranges took as long or
/// longer: each thread going through every candidate and recording those of its slots,
/// 6x6 at 10 s, 1.55 s a board against 1.43 s; each thread given lists of its own
/// candidates as the cut is made and the kept ones gathered chunk by chunk, 6x6 at width
/// 32,768 on threads started once, 7.36, 8.03 and 7.23 s against 7.24, 7.65 and 7.69 s.)
/// A slot's hash and index share a cache line: one miss a candidate on this one thread,
/// not two. `keys`: scratch room.
#[allow(clippy::too_many_arguments)]
pub(super) fn keep_best(
    parts: &[Mutex<Vec<Cand>>],
    chunks: usize,
    total: usize,
    width: usize,
    threads: usize,
    keys: &mut Vec<u64>,
    seen: &mut [Slot],
    mask: usize,
    cands: &mut Vec<Cand>,
) -> Result<(), SearchError> {
    let lock = |ci: usize| parts[ci].lock().unwrap_or_else(|e| e.into_inner());
    // The cut is chosen among the keys alone (not the whole candidates).
    if total > width {
        fit(keys, total)?;
        {
            // Each chunk's keys into its own stretch of `keys`, in the chunks' order.
            let mut rest: &mut [u64] = keys;
            let mut spans = Vec::with_capacity(chunks);
            for ci in 0..chunks {
                let (span, after) = rest.split_at_mut(lock(ci).len());
                spans.push(Mutex::new(span));
                rest = after;
            }
            for_each_index(chunks, threads, |ci| {
                let mut span = spans[ci].lock().unwrap_or_else(|e| e.into_inner());
                for (k, c) in span.iter_mut().zip(lock(ci).iter()) {
                    *k = c.key;
                }
            });
        }
        let (before, &mut cut, _) = keys.select_nth_unstable(width - 1);
        let below = before.iter().filter(|&&k| k < cut).count();
        // Past the cut: dropped, chunk by chunk (what is left is in the same order).
        for_each_index(chunks, threads, |ci| lock(ci).retain(|c| c.key <= cut));
        // Equal to the cut past the room: dropped in order (rare: equal keys are
        // repeats, or share a rank and 24 bits of hash).
        let at_cut = (0..chunks).map(|ci| lock(ci).len()).sum::<usize>() - below;
        let mut room = width - below;
        if at_cut > room {
            for ci in 0..chunks {
                lock(ci).retain(|c| {
                    if c.key != cut {
                        return true;
                    }
                    let keep = room > 0;
                    room = room.saturating_sub(1);
                    keep
                });
            }
        }
    }
    cands.clear();
    for ci in 0..chunks {
        let p = lock(ci);
        for (k, c) in p.iter().enumerate() {
            // (The slots of candidates a few on asked for ahead: the table is bigger than
            // the caches, and this runs on one thread.)
            if let Some(a) = p.get(k + AHEAD) {
                prefetch(seen, a.hash as usize & mask);
            }
            let s = &mut seen[c.hash as usize & mask];
            if s.hash != c.hash {
                *s = Slot {
                    hash: c.hash,
                    at: cands.len() as u32,
                };
                cands.push(*c);
            } else {
                // A repeat of a position kept in this layer: the better ranked of the
                // two stays, where the first was. A repeat of an earlier layer's (its
                // slot's index names another position here) is dropped: on a line's
                // beam such children made no candidate, a region's beam drops them here
                // (see `BeamSetup::whole`).
                let j = s.at as usize;
                if j < cands.len() && cands[j].hash == c.hash && c.key < cands[j].key {
                    cands[j] = *c;
                }
            }
        }
    }
    Ok(())
}
