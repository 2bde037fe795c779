//! One beam run, layer by layer: every position expanded, the best `width` kept, the next
//! layer built.

use super::super::ranking::Ranking;
use super::keep::*;
use super::layer::*;
use super::setup::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::{prefetch, NONE};
use crate::limits::{for_each_index, on_pool, resolve_threads, try_vec, Watch};
use crate::moves::Direction;

/// The moves from the start to position `idx` of layer `layer` (0: the start).
pub(super) fn path_to(history: &[Vec<u32>], layer: usize, mut idx: usize) -> Vec<Direction> {
    let mut moves = Vec::with_capacity(layer);
    for step in history[..layer].iter().rev() {
        moves.push(Direction::ALL[(step[idx] & 3) as usize]);
        idx = (step[idx] >> 2) as usize;
    }
    moves.reverse();
    moves
}

/// What one layer's expansion reads, shared by the threads that expand its chunks.
struct Expansion<'a> {
    setup: &'a BeamSetup<'a>,
    layer: &'a Layer,
    /// The kept positions' slots, direct-mapped by their hashes' bits in `mask`.
    seen: &'a [Slot],
    mask: usize,
    /// The layer's positions.
    count: usize,
    depth: usize,
    /// Positions at `depth + estimate` of this many moves or more are dropped.
    limit: Option<u32>,
    ranking: Option<&'a Ranking>,
    /// The smallest (the rest of the board's rank << 32 | index << 2 | direction) of a
    /// child at the aim, if any (see [`BeamSetup::rest`]).
    found: &'a std::sync::atomic::AtomicU64,
    nodes: &'a NodeCount,
}

/// Per position of a block: each child's direction, the cell the blank moves to, its hash
/// and (with databases) its lookups' indices; and how many children.
type BlockKids = [([(u8, usize, u64, [u64; 2 * MAX_REGION_SETS]); 4], usize); BLOCK];

impl Expansion<'_> {
    /// The children of chunk `ci`'s positions that may be kept, into `out`.
    fn chunk(&self, ci: usize, out: &mut Vec<Cand>) {
        let n = self.setup.n;
        let mut cells = vec![0u8; n];
        let mut kids: BlockKids = [(
            [(0u8, 0usize, 0u64, [0u64; 2 * MAX_REGION_SETS]); 4],
            0usize,
        ); BLOCK];
        let (lo, hi) = (ci * CHUNK, ((ci + 1) * CHUNK).min(self.count));
        let mut generated = 0u64;
        for block in (lo..hi).step_by(BLOCK) {
            let end = (block + BLOCK).min(hi);
            // Every child's hash first, its slot of the kept positions and (with
            // databases) its lookups asked for, for a whole block of positions, so that
            // their cache misses overlap instead of coming one after another.
            generated += self.children(block, end, &mut kids);
            self.rank(block, end, &kids, &mut cells, out);
        }
        self.nodes.add((hi - lo) as u64, generated);
    }

    /// The children of positions `block..end`, into `kids`: their moves, hashes and
    /// lookups, the slots and entries they need asked for ahead; how many there are.
    #[inline]
    fn children(&self, block: usize, end: usize, kids: &mut BlockKids) -> u64 {
        let (setup, layer) = (self.setup, self.layer);
        let n = setup.n;
        let g2 = layer.vals.len() / layer.blank.len().max(1);
        let zb = n * n;
        let mut generated = 0u64;
        for i in block..end {
            let cells = &layer.cells[i * n..(i + 1) * n];
            let b = layer.blank[i] as usize;
            let last = layer.last[i];
            let (kids, count) = &mut kids[i - block];
            *count = 0;
            let words = &layer.words[i * g2..(i + 1) * g2];
            for d in 0..4u8 {
                if last != 4 && d == last ^ 1 {
                    continue;
                }
                let Some(to) = setup.target(b, d as usize) else {
                    continue;
                };
                let tile = cells[to];
                let hash = layer.hash[i]
                    ^ setup.tile_hash(tile, to)
                    ^ setup.tile_hash(tile, b)
                    ^ setup.zobrist[zb + b]
                    ^ setup.zobrist[zb + to];
                if !setup.whole {
                    prefetch(self.seen, hash as usize & self.mask);
                }
                let mut pre = [0u64; 2 * MAX_REGION_SETS];
                if let Some(r) = &setup.region {
                    // The tile moves to the blank's cell; the others stay.
                    pre = r.moved(words, tile, r.index_of[b]);
                }
                kids[*count] = (d, to, hash, pre);
                *count += 1;
            }
            generated += *count as u64;
        }
        generated
    }

    /// The children of positions `block..end` (`kids`) ranked, and those that may be kept
    /// pushed to `out` (`cells`: scratch room for one position). A child at the aim is
    /// told to `found`.
    #[inline]
    fn rank(
        &self,
        block: usize,
        end: usize,
        kids: &BlockKids,
        cells: &mut [u8],
        out: &mut Vec<Cand>,
    ) {
        let (setup, layer) = (self.setup, self.layer);
        let n = setup.n;
        let g2 = layer.vals.len() / layer.blank.len().max(1);
        for i in block..end {
            let before = &layer.cells[i * n..(i + 1) * n];
            // (With databases: the parent's entries, which its children update.)
            let parent_vals = &layer.vals[i * g2..(i + 1) * g2];
            cells.copy_from_slice(before);
            let b = layer.blank[i] as usize;
            let (kids, count) = &kids[i - block];
            let sums = setup
                .region
                .as_ref()
                .map_or([0; 2 * MAX_REGION_SETS], |r| r.sums(parent_vals));
            for &(d, to, hash, ref pre) in &kids[..*count] {
                let tile = cells[to];
                cells[b] = tile;
                cells[to] = 0;
                // The linear-conflict estimate, and with databases the larger of it and
                // theirs (both lower bounds; the larger ranks best, measured).
                let lc = setup.update(layer.h[i], before, cells, tile, to, b);
                let all = setup.update_rest(layer.all[i], before, cells, tile, to, b);
                let (h, vals) = match &setup.region {
                    Some(r) => {
                        let (pdb, vals) = r.update(parent_vals, &sums, tile, pre);
                        (pdb.max(lc), vals)
                    }
                    None => (lc, [0; 2 * MAX_REGION_SETS]),
                };
                cells[to] = tile;
                cells[b] = 0;
                if h == 0 {
                    // Of the children at the aim, the one that leaves the rest of the
                    // board nearest its goal (its part of the rank), then the first.
                    self.found.fetch_min(
                        ((all as u64) << 32) | ((i as u64) << 2) | d as u64,
                        std::sync::atomic::Ordering::Relaxed,
                    );
                    continue;
                }
                if self.limit.is_some_and(|c| self.depth as u32 + h >= c) {
                    continue;
                }
                // A position kept before (in this run, while its slot lasts) is no
                // candidate: on a line's beam the blank wandering among other tiles
                // repeats positions all the time. (Where every tile that moves is
                // tracked, repeats are rare: `keep_best` drops them among the kept.)
                if !setup.whole && self.seen[hash as usize & self.mask].hash == hash {
                    continue;
                }
                // With a learned ranking: its kept part moves with the tile and the
                // blank, and with the entries that changed.
                let mut kept = 0.0;
                if let (Some(k), Some(r)) = (self.ranking, &setup.region) {
                    let rt = r.tile[tile as usize] as usize;
                    let (cb, ct) = (r.index_of[b] as usize, r.index_of[to] as usize);
                    kept = layer.kept[i] + k.tile_cell(rt, cb) - k.tile_cell(rt, ct)
                        + k.tile_cell(0, ct)
                        - k.tile_cell(0, cb);
                    for (j, l) in r.lookups.iter().enumerate() {
                        let d = l.owner[rt];
                        if d != NONE {
                            let slot = l.offset + d as usize;
                            kept += k.entry(slot, vals[j]) - k.entry(slot, parent_vals[slot]);
                        }
                    }
                }
                out.push(Cand {
                    key: (setup.rank_with(kept, h, lc, all) << 24) | (hash >> 40),
                    all,
                    parent: i as u32,
                    dir: d,
                    h: lc,
                    hash,
                    vals,
                    kept,
                });
            }
        }
    }
}

/// The first layer: `start` alone, with its estimates; and its rank (the smallest so far)
/// and the learned ranking's kept part.
fn first_layer(setup: &BeamSetup, start: &Board) -> (Layer, u64) {
    let vals0 = setup
        .region
        .as_ref()
        .map_or(vec![], |r| r.all_entries(start.cells()));
    // With databases: every database's tiles' cells, a word each.
    let words0 = setup
        .region
        .as_ref()
        .map_or(vec![], |r| r.words(start.cells()));
    // The layers keep the linear-conflict estimate (kept up move by move); with
    // databases, positions are ranked by the larger of it and the databases' estimate.
    let h0 = setup.estimate(start.cells());
    let rank0 = setup
        .region
        .as_ref()
        .map_or(h0, |r| r.estimate(&vals0).max(h0));
    let mut layer = Layer {
        cells: start.cells().to_vec(),
        blank: vec![start.blank() as u16],
        h: vec![h0],
        hash: vec![setup.hash(start.cells(), start.blank())],
        all: vec![setup.rest(start.cells())],
        last: vec![4],
        vals: vals0,
        words: words0,
        kept: vec![],
    };
    // (A learned ranking is set only with databases: `use_databases` sets both.)
    let kept0 = setup.kept(start.cells(), &layer.vals);
    if setup.ranking.is_some() {
        layer.kept.push(kept0);
    }
    let rank = setup.rank_with(kept0, rank0, h0, layer.all[0]);
    (layer, rank)
}

/// Builds the next layer from the kept candidates `cands` of `layer` into `next` (its
/// memory reused), on up to `threads` threads, each taking a run of candidates: what
/// comes from the candidates alone, then what comes from their parents (anywhere in the
/// layer: most of the copying). The way back (parent << 2 | direction a candidate) and
/// the best (rank, index) among them (the first of the best ranked).
fn build_next(
    setup: &BeamSetup,
    layer: &Layer,
    cands: &[Cand],
    next: &mut Layer,
    threads: usize,
) -> Result<(Vec<u32>, (u64, usize)), SearchError> {
    let n = setup.n;
    let m = cands.len();
    let region = setup.region.as_ref();
    let ranking = setup.ranking.is_some();
    let g2 = layer.vals.len() / layer.blank.len().max(1);
    let vals_len = if region.is_some() { g2 } else { 0 };
    fit(&mut next.cells, m * n)?;
    fit(&mut next.words, m * vals_len)?;
    fit(&mut next.vals, m * vals_len)?;
    fit(&mut next.blank, m)?;
    fit(&mut next.h, m)?;
    fit(&mut next.hash, m)?;
    fit(&mut next.all, m)?;
    fit(&mut next.last, m)?;
    fit(&mut next.kept, if ranking { m } else { 0 })?;
    let mut step: Vec<u32> = try_vec(m, "beam", || 0)?;
    /// One run's share of the next layer.
    struct Run<'a> {
        cands: &'a [Cand],
        /// Its first candidate's index.
        at: usize,
        cells: &'a mut [u8],
        words: &'a mut [u64],
        vals: &'a mut [u8],
        blank: &'a mut [u16],
        h: &'a mut [u32],
        hash: &'a mut [u64],
        all: &'a mut [u32],
        last: &'a mut [u8],
        kept: &'a mut [f32],
        step: &'a mut [u32],
    }
    impl<'a> Run<'a> {
        /// Its first `k` candidates' share (`n` cells, `vals` words and entries, and
        /// with `kept` its learned part, a candidate), and the rest's.
        fn split(self, k: usize, n: usize, vals: usize, kept: bool) -> (Run<'a>, Run<'a>) {
            let (c0, c1) = self.cands.split_at(k);
            let (cells0, cells1) = self.cells.split_at_mut(k * n);
            let (w0, w1) = self.words.split_at_mut(k * vals);
            let (v0, v1) = self.vals.split_at_mut(k * vals);
            let (b0, b1) = self.blank.split_at_mut(k);
            let (h0, h1) = self.h.split_at_mut(k);
            let (x0, x1) = self.hash.split_at_mut(k);
            let (a0, a1) = self.all.split_at_mut(k);
            let (l0, l1) = self.last.split_at_mut(k);
            let (k0, k1) = self.kept.split_at_mut(if kept { k } else { 0 });
            let (s0, s1) = self.step.split_at_mut(k);
            let first = Run {
                cands: c0,
                at: self.at,
                cells: cells0,
                words: w0,
                vals: v0,
                blank: b0,
                h: h0,
                hash: x0,
                all: a0,
                last: l0,
                kept: k0,
                step: s0,
            };
            let rest = Run {
                cands: c1,
                at: self.at + k,
                cells: cells1,
                words: w1,
                vals: v1,
                blank: b1,
                h: h1,
                hash: x1,
                all: a1,
                last: l1,
                kept: k1,
                step: s1,
            };
            (first, rest)
        }
    }
    let build = |r: Run| -> (u64, usize) {
        let mut low = (u64::MAX, 0);
        for (k, c) in r.cands.iter().enumerate() {
            r.h[k] = c.h;
            r.hash[k] = c.hash;
            r.all[k] = c.all;
            r.last[k] = c.dir;
            if ranking {
                r.kept[k] = c.kept;
            }
            r.step[k] = c.parent << 2 | c.dir as u32;
            if c.key >> 24 < low.0 {
                low = (c.key >> 24, r.at + k);
            }
        }
        from_parents(setup, layer, r.cands, r.cells, r.words, r.vals, r.blank, g2);
        low
    };
    let per = m.div_ceil(threads).max(1);
    // The next layer in runs of `per` candidates, one a thread.
    let mut runs = Vec::with_capacity(threads);
    let mut rest = Run {
        cands,
        at: 0,
        cells: &mut next.cells[..],
        words: &mut next.words[..],
        vals: &mut next.vals[..],
        blank: &mut next.blank[..],
        h: &mut next.h[..],
        hash: &mut next.hash[..],
        all: &mut next.all[..],
        last: &mut next.last[..],
        kept: &mut next.kept[..],
        step: &mut step[..],
    };
    while !rest.cands.is_empty() {
        let k = per.min(rest.cands.len());
        let run;
        (run, rest) = rest.split(k, n, vals_len, ranking);
        runs.push(std::sync::Mutex::new(Some(run)));
    }
    let found: Vec<std::sync::Mutex<(u64, usize)>> = (0..runs.len())
        .map(|_| std::sync::Mutex::new((u64::MAX, 0)))
        .collect();
    for_each_index(runs.len(), threads, |r| {
        let run = runs[r].lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(run) = run {
            *found[r].lock().unwrap_or_else(|e| e.into_inner()) = build(run);
        }
    });
    // (Runs in order: of equal ranks the first index stays.)
    let lows = found
        .into_iter()
        .map(|f| f.into_inner().unwrap_or_else(|e| e.into_inner()));
    let low = lows
        .into_iter()
        .fold((u64::MAX, 0), |b, l| if l.0 < b.0 { l } else { b });
    Ok((step, low))
}

/// The cells, blank and (with databases) words and entries of the kept candidates
/// `cands`, from their parents in `layer` moved once, into their places.
#[allow(clippy::too_many_arguments)]
#[inline]
fn from_parents(
    setup: &BeamSetup,
    layer: &Layer,
    cands: &[Cand],
    cells: &mut [u8],
    words: &mut [u64],
    vals: &mut [u8],
    blank: &mut [u16],
    g2: usize,
) {
    let n = setup.n;
    let region = setup.region.as_ref();
    let ranking = setup.ranking.as_ref();
    for (k, c) in cands.iter().enumerate() {
        // The parent a few candidates on, asked for ahead (each read would otherwise wait
        // on memory in turn).
        if let Some(a) = cands.get(k + AHEAD) {
            let q = a.parent as usize;
            prefetch(&layer.cells, q * n);
            prefetch(&layer.cells, q * n + n - 1);
            prefetch(&layer.blank, q);
            if region.is_some() {
                prefetch(&layer.words, q * g2);
                prefetch(&layer.words, q * g2 + g2 - 1);
                prefetch(&layer.vals, q * g2);
            }
        }
        let p = c.parent as usize;
        let dst = &mut cells[k * n..(k + 1) * n];
        dst.copy_from_slice(&layer.cells[p * n..(p + 1) * n]);
        let b = layer.blank[p] as usize;
        let to = setup
            .target(b, c.dir as usize)
            .expect("checked on expansion");
        let tile = dst[to];
        dst[b] = tile;
        dst[to] = 0;
        blank[k] = to as u16;
        // (Tests run with debug assertions: the rest of the board's rank kept move by
        // move, against the one worked out afresh.)
        debug_assert_eq!(c.all, setup.rest(dst));
        if let Some(r) = region {
            let rt = r.tile[tile as usize] as usize;
            let wd = &mut words[k * g2..(k + 1) * g2];
            wd.copy_from_slice(&layer.words[p * g2..(p + 1) * g2]);
            r.move_words(wd, tile, r.index_of[b]);
            // (Tests run with debug assertions: every kept position's words checked
            // against the ones worked out afresh.)
            debug_assert_eq!(wd[..], r.words(dst)[..]);
            let v = &mut vals[k * g2..(k + 1) * g2];
            v.copy_from_slice(&layer.vals[p * g2..(p + 1) * g2]);
            for (j, l) in r.lookups.iter().enumerate() {
                let d = l.owner[rt];
                if d != NONE {
                    v[l.offset + d as usize] = c.vals[j];
                }
            }
            // (And the learned ranking's part kept move by move, against the one worked
            // out afresh.)
            debug_assert!(
                ranking.is_none() || (c.kept - setup.kept(dst, v)).abs() < 1e-2,
                "kept {} fresh {}",
                c.kept,
                setup.kept(dst, v)
            );
        }
    }
}

/// On a pace: the width that ends the beam by its time, from what a position has cost so
/// far (`per_position`, updated with this layer's `count` positions in `took`) and the
/// full layers still expected (see [`Pace::left_after`]: where the layer's lowest rank
/// `low`, `done` full layers in, is on the earlier run's way); never under a sixteenth of
/// the width asked for (`width0`), nor over twice it.
#[allow(clippy::too_many_arguments)]
fn paced_width(
    p: &Pace,
    width0: usize,
    low: u64,
    done: f64,
    count: usize,
    took: std::time::Duration,
    per_position: &mut Option<f64>,
) -> usize {
    let t = took.as_secs_f64() / count as f64;
    let avg = per_position.map_or(t, |a| 0.8 * a + 0.2 * t);
    *per_position = Some(avg);
    let left = p.until.saturating_duration_since(std::time::Instant::now());
    let fits = left.as_secs_f64() / p.left_after(low, done) / avg;
    let least = (width0 / 16).max(1);
    (fits as usize).clamp(least, (width0 * 2).min(p.max_width).max(least))
}

/// One beam search from `start` towards `setup`'s aim keeping `width` positions per
/// layer, on `threads` threads. With `cap`, positions that cannot reach the aim in fewer
/// than `cap` moves (depth plus estimate) are dropped, and the run ends at that depth.
/// With a `pace`, the width is set layer by layer to end by its time (see [`Pace`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn beam_run(
    setup: &BeamSetup,
    start: &Board,
    width: usize,
    cap: Option<usize>,
    threads: usize,
    watch: &Watch,
    nodes: &NodeCount,
    pace: Option<Pace>,
) -> Result<BeamEnd, SearchError> {
    let mut way = Way::default();
    beam_run_measured(
        setup, start, width, cap, threads, watch, nodes, pace, &mut way,
    )
}

/// [`beam_run`], its way (see [`Way`]) written to `way`, for a later run's [`Pace`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn beam_run_measured(
    setup: &BeamSetup,
    start: &Board,
    width: usize,
    cap: Option<usize>,
    threads: usize,
    watch: &Watch,
    nodes: &NodeCount,
    pace: Option<Pace>,
    way: &mut Way,
) -> Result<BeamEnd, SearchError> {
    // (Its layers' parallel steps on threads started once: see `on_pool`.)
    on_pool(threads, || {
        // (At most 2^29 positions a layer: the way back packs an index in 30 bits.)
        let width0 = width.clamp(1, 1 << 29);
        let mut width = width0;
        // Seconds per position expanded, averaged over the full layers so far (for the pace).
        let mut per_position: Option<f64> = None;
        way.lows.clear();
        // Full layers so far.
        let mut full = 0.0;
        if setup.estimate(start.cells()) == 0 {
            return Ok(BeamEnd::Found(vec![]));
        }
        let (mut layer, rank0) = first_layer(setup, start);
        // A direct-mapped table of kept positions' hashes: drops repeats within a layer and,
        // while a slot survives, across layers.
        let slots = (width * SLOTS_PER_POSITION)
            .next_power_of_two()
            .clamp(1 << 14, 1 << 24);
        let mut seen: Vec<Slot> = try_vec(slots, "beam", Slot::default)?;
        let mask = slots - 1;
        seen[layer.hash[0] as usize & mask].hash = layer.hash[0];
        // For each layer past the first, every position's parent index and direction index
        // in one word (parent << 2 | direction).
        let mut history: Vec<Vec<u32>> = Vec::new();
        let threads = resolve_threads(threads).max(1);
        // Small layers (and their builds) are not worth a thread.
        let threads_for = |len: usize| if len < 4 * CHUNK { 1 } else { threads };
        let mut depth = 0usize;
        // The smallest rank kept so far: (rank, layer, index).
        // (The rank, not the estimate alone: a line's beam that trades its estimate for the
        // rest of the board is still going somewhere.)
        let mut best = (rank0, 0usize, 0usize);
        // Kept from layer to layer: every chunk's candidates, all of them together, and the
        // layer before this one (where the next is built).
        let mut parts: Vec<std::sync::Mutex<Vec<Cand>>> = Vec::new();
        let mut cands: Vec<Cand> = Vec::new();
        let mut keys: Vec<u64> = Vec::new();
        let mut spare = Layer::default();
        loop {
            if watch.expired() {
                return Ok(BeamEnd::Stopped);
            }
            let layer_start = std::time::Instant::now();
            depth += 1;
            if cap.is_some_and(|c| depth >= c) {
                return Ok(BeamEnd::Exhausted);
            }
            let count = layer.blank.len();
            full += count as f64 / width as f64;
            let chunks = count.div_ceil(CHUNK);
            while parts.len() < chunks {
                parts.push(std::sync::Mutex::new(Vec::new()));
            }
            let found = std::sync::atomic::AtomicU64::new(u64::MAX);
            let expansion = Expansion {
                setup,
                layer: &layer,
                seen: &seen,
                mask,
                count,
                depth,
                limit: cap.map(|c| c as u32),
                ranking: setup.ranking.as_ref(),
                found: &found,
                nodes,
            };
            let parts_ref = &parts;
            for_each_index(chunks, threads_for(count), |ci| {
                // (Each chunk's list is kept from layer to layer: fresh memory every layer
                // cost a fifth of the time in the kernel zeroing pages.)
                let mut out =
                    std::mem::take(&mut *parts_ref[ci].lock().unwrap_or_else(|e| e.into_inner()));
                out.clear();
                expansion.chunk(ci, &mut out);
                *parts_ref[ci].lock().unwrap_or_else(|e| e.into_inner()) = out;
            });
            let found = found.into_inner();
            if found != u64::MAX {
                let found = found & 0xffff_ffff;
                let mut moves = path_to(&history, history.len(), (found >> 2) as usize);
                moves.push(Direction::ALL[(found & 3) as usize]);
                return Ok(BeamEnd::Found(moves));
            }
            // Every chunk's candidates, in the order they came (their parents').
            let total: usize = parts[..chunks]
                .iter()
                .map(|p| p.lock().unwrap_or_else(|e| e.into_inner()).len())
                .sum();
            if total == 0 {
                return Ok(BeamEnd::Exhausted);
            }
            if let Some(s) = setup.sampler {
                let all: Vec<Cand> = parts[..chunks]
                    .iter()
                    .flat_map(|p| p.lock().unwrap_or_else(|e| e.into_inner()).clone())
                    .collect();
                take_samples(s, &all, &layer, setup, depth);
            }
            keep_best(
                &parts,
                chunks,
                total,
                width,
                threads_for(total),
                &mut keys,
                &mut seen,
                mask,
                &mut cands,
            )?;
            // The next layer goes where the one before this was (its memory reused).
            let (step, low) =
                build_next(setup, &layer, &cands, &mut spare, threads_for(cands.len()))?;
            history.push(step);
            std::mem::swap(&mut layer, &mut spare);
            way.lows.push((low.0, full));
            if let Some(p) = &pace {
                if count * 2 >= width {
                    width = paced_width(
                        p,
                        width0,
                        low.0,
                        full,
                        count,
                        layer_start.elapsed(),
                        &mut per_position,
                    );
                }
            }
            if low.0 < best.0 {
                best = (low.0, depth, low.1);
            } else if depth - best.1 >= STALL_LAYERS {
                return Ok(BeamEnd::Stalled(path_to(&history, best.1, best.2)));
            }
        }
    })
}

/// Sets aside `per_layer` of a layer's candidates `cands` (children of `layer`'s
/// positions, at `depth`), the same ones on every run.
pub(super) fn take_samples(
    s: &Sampler,
    cands: &[Cand],
    layer: &Layer,
    setup: &BeamSetup,
    depth: usize,
) {
    let n = setup.n;
    let mut taken = s.taken.lock().unwrap_or_else(|e| e.into_inner());
    for k in 0..s.per_layer {
        let j =
            ((depth as u64 * 2_654_435_761 + k as u64 * 40_503) ^ 0x9e37) as usize % cands.len();
        let c = &cands[j];
        let p = c.parent as usize;
        let mut cells = layer.cells[p * n..(p + 1) * n].to_vec();
        let b = layer.blank[p] as usize;
        let to = setup
            .target(b, c.dir as usize)
            .expect("checked on expansion");
        cells[b] = cells[to];
        cells[to] = 0;
        taken.push((depth, cells));
    }
}
