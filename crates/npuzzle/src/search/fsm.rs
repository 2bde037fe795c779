//! Duplicate-path pruning for depth-first searches (Taylor and Korf, "Pruning duplicate
//! nodes in depth-first search", AAAI 1993): a finite-state machine over the blank's moves
//! that refuses every move sequence having a shorter or earlier twin.
//!
//! Two sequences of blank moves are twins when, from any position where both can be
//! played, they lead to the same position. A depth-first search with only the
//! "never undo the last move" rule walks every twin; this machine lets it walk one.
//! A sequence is *refused* when it has a twin that is shorter, or as long and earlier in
//! the order U < D < L < R, and whose blank stays within the rectangle the refused one's
//! blank spans (so that on a rectangular board the twin can be played wherever the
//! refused one can, next to the edges too). Then among the shortest solutions of any
//! board the first in that order contains no refused sequence (replacing one would give
//! a shorter or earlier solution), so a search that skips every path ending in a refused
//! sequence still finds a shortest solution: pruning with the machine keeps IDA* exact.
//!
//! The refused sequences are found by enumerating the sequences up to a length
//! ([`Fsm::new`]) on an unbounded grid, shortest first and in order within a length;
//! the machine is their Aho-Corasick automaton. The library ships the sequences of up to
//! [`SHIPPED_DEPTH`] moves (finding them takes minutes).

use std::collections::VecDeque;
use std::sync::OnceLock;

use crate::moves::Direction;

/// A state of the machine; [`Fsm::START`] before any move.
pub(crate) type State = u32;

/// The machine: per state and direction (in [`Direction::ALL`] order), the next state,
/// or [`Fsm::REFUSED`].
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Fsm {
    next: Vec<State>,
    /// How many refused sequences it holds.
    patterns: usize,
}

/// The blank's step for each direction (row, column): Up moves the tile below up, so the
/// blank goes down.
const STEP: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

impl Fsm {
    /// The state before any move.
    pub(crate) const START: State = 0;
    /// What [`next`](Self::next) answers for a refused move.
    pub(crate) const REFUSED: State = State::MAX;

    /// The state after a move in direction `d` from state `q`, or [`Self::REFUSED`].
    #[inline(always)]
    pub(crate) fn next(&self, q: State, d: Direction) -> State {
        self.next[q as usize * 4 + d as usize]
    }

    /// Asks the processor to fetch state `q`'s row (a child's, before the child is
    /// expanded: the big machine does not fit the caches).
    #[inline(always)]
    pub(crate) fn prefetch(&self, q: State) {
        crate::heuristic::pdb::prefetch(&self.next, q as usize * 4);
    }

    /// The state after `path` from the start, or [`Self::REFUSED`] if some part of it is
    /// refused.
    pub(crate) fn walk(&self, path: &[Direction]) -> State {
        let mut q = Self::START;
        for &d in path {
            q = self.next(q, d);
            if q == Self::REFUSED {
                break;
            }
        }
        q
    }

    /// How many refused sequences the machine holds.
    #[cfg(test)]
    pub(crate) fn patterns(&self) -> usize {
        self.patterns
    }

    /// The machine that refuses the sequences of at most `depth` moves with a twin (see
    /// the module's documentation). Depth 2 refuses exactly the moves that undo the last
    /// one.
    pub(crate) fn new(depth: usize) -> Fsm {
        Fsm::of(&refused(depth, 0))
    }

    /// The machine refusing `patterns`.
    fn of(patterns: &[Vec<u8>]) -> Fsm {
        Fsm {
            next: automaton(patterns),
            patterns: patterns.len(),
        }
    }

    /// The machine for searches that must walk every shortest solution (they are twins):
    /// only undoing the last move is refused.
    pub(crate) fn undo_only() -> &'static Fsm {
        static M: OnceLock<Fsm> = OnceLock::new();
        M.get_or_init(|| Fsm::new(2))
    }

    /// The machine of the refused sequences of at most `depth` moves in the shipped file
    /// `bytes` (found by [`Fsm::new`] or [`refused`] ahead of time).
    fn shipped(bytes: &[u8], depth: usize) -> Fsm {
        let shipped = decode(bytes).expect("the shipped machines are checked by the tests");
        assert!(
            depth <= shipped.depth,
            "the shipped file holds the depth asked for"
        );
        let patterns: Vec<Vec<u8>> = shipped
            .patterns
            .into_iter()
            .filter(|p| p.len() <= depth)
            .collect();
        Fsm::of(&patterns)
    }

    /// The machine the exact searches on a board of `cells` cells use, built once per
    /// process from the shipped sequences:
    /// - 25 cells (the 24-puzzle, searches of minutes to hours): the sequences of up to
    ///   [`FIVE_DEPTH`] moves whose blank spans at most 5 rows and 5 columns (the longer
    ///   ones never fit the board); 566,023 sequences, about 2.6 million states, under a
    ///   second to build. Against the depth-16 machine Korf & Felner's instances 1, 5, 22
    ///   and 28 expand 390,856,139 nodes instead of 416,497,013.
    /// - 17 to 24 cells: up to [`SHIPPED_DEPTH`] moves, any span (627,000 states, about
    ///   25 ms to build).
    /// - Up to 16 cells: up to [`SMALL_DEPTH`] moves (searches of milliseconds, where the
    ///   bigger machine's building and cache misses cost more than its pruning saves:
    ///   Korf's 100 expand 1,417,471 nodes in 0.24 s with it, 1,400,646 in 0.29 s with
    ///   depth 16).
    pub(crate) fn for_cells(cells: usize) -> &'static Fsm {
        static SMALL: OnceLock<Fsm> = OnceLock::new();
        static BIG: OnceLock<Fsm> = OnceLock::new();
        static FIVE: OnceLock<Fsm> = OnceLock::new();
        match cells {
            ..=16 => SMALL.get_or_init(|| Fsm::shipped(SHIPPED, SMALL_DEPTH)),
            25 => FIVE.get_or_init(|| Fsm::shipped(SHIPPED_FIVE, FIVE_DEPTH)),
            _ => BIG.get_or_init(|| Fsm::shipped(SHIPPED, SHIPPED_DEPTH)),
        }
    }
}

/// The depth of the refused sequences shipped for any board ([`SHIPPED`]).
pub(crate) const SHIPPED_DEPTH: usize = 16;

/// The depth of the machine on boards of up to 16 cells.
pub(crate) const SMALL_DEPTH: usize = 14;

/// The depth of the refused sequences shipped for 5x5 boards ([`SHIPPED_FIVE`]).
///
/// Twenty moves do not pay: their machine (2,975,734 sequences, 13.9 million states,
/// found in 12 minutes and 13.7 GB) expands 3.1% fewer nodes on 24-puzzle instances 38
/// and 44 (41,264,445 against 42,602,395 with four of the seven partitions of
/// `bench/pdb/korf24-small.txt`), but its 222 MB table misses the caches: 12.8 and 13.2 s
/// on one thread against 12.3 and 12.6 s (12.7 and 12.6 s on huge pages), and 3 to 5 s
/// to build in every process.
pub(crate) const FIVE_DEPTH: usize = 18;

/// The most rows or columns the blank of a sequence in [`SHIPPED_FIVE`] spans.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const FIVE_SPAN: usize = 5;

/// The refused sequences of up to [`SHIPPED_DEPTH`] moves, as [`encode`] writes them.
/// Made (with [`SHIPPED_FIVE`]) by `NPUZZLE_WRITE_FSM=1 cargo test --release -p npuzzle
/// --lib shipped_sequences_are_current -- --ignored` (about three minutes, 2.9 GB).
static SHIPPED: &[u8] = include_bytes!("fsm.bin");

/// The refused sequences of up to [`FIVE_DEPTH`] moves spanning at most [`FIVE_SPAN`]
/// rows and columns, as [`encode`] writes them.
static SHIPPED_FIVE: &[u8] = include_bytes!("fsm5x5.bin");

/// A shipped file read back.
#[derive(Debug)]
struct Shipped {
    depth: usize,
    /// The most rows or columns a sequence spans; 0 for any.
    #[cfg_attr(not(test), allow(dead_code))]
    span: usize,
    patterns: Vec<Vec<u8>>,
}

/// The refused sequences as bytes: the magic `NPFSM2`, the depth and the span (one byte
/// each; span 0 for any), then per length from 1 to the depth the count of sequences
/// (u32, little-endian) and the sequences in increasing order, each packed two bits a
/// move (the first highest) and written as its difference from the one before (the
/// first from 0) in LEB128.
#[cfg(test)]
fn encode(depth: usize, span: usize, patterns: &[Vec<u8>]) -> Vec<u8> {
    assert!(depth <= 31 && span < 256, "sequences are packed in 64 bits");
    let mut out = b"NPFSM2".to_vec();
    out.push(depth as u8);
    out.push(span as u8);
    for len in 1..=depth {
        let mut codes: Vec<u64> = patterns
            .iter()
            .filter(|p| p.len() == len)
            .map(|p| p.iter().fold(0u64, |a, &d| (a << 2) | d as u64))
            .collect();
        codes.sort_unstable();
        out.extend_from_slice(&(codes.len() as u32).to_le_bytes());
        let mut last = 0;
        for c in codes {
            let mut delta = c - last;
            last = c;
            loop {
                let byte = (delta & 0x7f) as u8;
                delta >>= 7;
                if delta == 0 {
                    out.push(byte);
                    break;
                }
                out.push(byte | 0x80);
            }
        }
    }
    out
}

/// Reads what [`encode`] wrote.
fn decode(bytes: &[u8]) -> Result<Shipped, String> {
    let rest = bytes
        .strip_prefix(b"NPFSM2")
        .ok_or("expected the magic NPFSM2")?;
    let [depth, span, ref rest @ ..] = *rest else {
        return Err("expected a depth and a span, found the end".into());
    };
    let (depth, span) = (depth as usize, span as usize);
    if depth > 31 {
        return Err(format!("expected a depth of at most 31, found {depth}"));
    }
    let mut rest = rest;
    let mut patterns = Vec::new();
    for len in 1..=depth {
        let (count, r) = rest
            .split_first_chunk::<4>()
            .ok_or(format!("expected the count of length {len}, found the end"))?;
        rest = r;
        let mut code = 0u64;
        for _ in 0..u32::from_le_bytes(*count) {
            let mut delta = 0u64;
            let mut shift = 0;
            loop {
                let (&byte, r) = rest.split_first().ok_or(format!(
                    "expected a sequence of length {len}, found the end"
                ))?;
                rest = r;
                if shift > 56 {
                    return Err(format!(
                        "expected a sequence of length {len}, found too many bytes"
                    ));
                }
                delta |= ((byte & 0x7f) as u64) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            code = code
                .checked_add(delta)
                .filter(|&c| c < 1u64 << (2 * len))
                .ok_or(format!(
                    "expected a sequence of {len} moves, found a larger number"
                ))?;
            patterns.push(moves_of(code, len).collect());
        }
    }
    if !rest.is_empty() {
        return Err(format!("expected the end, found {} more bytes", rest.len()));
    }
    Ok(Shipped {
        depth,
        span,
        patterns,
    })
}

/// A fast hasher for the generator's effect keys (a multiply-rotate mix, as in rustc's
/// FxHash).
#[derive(Default)]
struct Mix(u64);

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u16(&mut self, v: u16) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The moves of the sequence `code` of `len` moves (two bits a move, the first highest).
fn moves_of(code: u64, len: usize) -> impl Iterator<Item = u8> {
    (0..len).rev().map(move |k| ((code >> (2 * k)) & 3) as u8)
}

/// The refused sequences of at most `depth` moves (at most [`MAX_DEPTH`]), each as its
/// moves (direction indices), shortest first and in order within a length; none contains
/// another. With `span` above 0, only those whose blank spans at most `span` rows and
/// `span` columns: exactly the others' refused sequences within that span, since a
/// sequence's twins stay within its box (a test checks it).
///
/// Every live (not refused) sequence is kept only as its moves in a [`Kept`] table
/// placed by its effect's hash; a candidate meeting a kept one with the same hash bits is
/// played again beside it, so twins are decided on the whole effect and the footprint,
/// never on the hash alone.
fn refused(depth: usize, span: usize) -> Vec<Vec<u8>> {
    assert!(depth <= MAX_DEPTH, "sequences are packed in a word");
    let grid = Grid::new(depth);
    let span = if span == 0 { usize::MAX } else { span };
    let mut scratch = Played::default();
    let mut other = Played::default();
    let mut kept = Kept::new(depth);
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    grid.play(0, 0, &mut scratch);
    kept.insert(scratch.hash, 0, 0);
    // The live sequences of the last length, in order.
    let mut level: Vec<u64> = vec![0];
    for len in 0..depth {
        // Room for every extension of this length's live sequences before any is added
        // (three each past the first move: undoing the last move is refused).
        kept.reserve(
            if len == 0 { 4 } else { 3 * level.len() },
            &grid,
            &mut other,
        );
        // The machine of the patterns so far: a sequence one longer is dead when a
        // shorter refused sequence ends it.
        let machine = automaton(&patterns);
        let last = len + 1 == depth;
        let mut next_level = Vec::new();
        for &code in &level {
            let q = moves_of(code, len).fold(0u32, |q, d| machine[q as usize * 4 + d as usize]);
            for d in 0..4u8 {
                if machine[q as usize * 4 + d as usize] == Fsm::REFUSED {
                    continue;
                }
                let t = (code << 2) | d as u64;
                grid.play(t, len + 1, &mut scratch);
                if scratch.rows.1 - scratch.rows.0 >= span
                    || scratch.cols.1 - scratch.cols.0 >= span
                {
                    // Too wide: neither refused nor extended.
                    continue;
                }
                // Refused if a twin kept before stays within this one's box: on a
                // rectangular board the twin can be played wherever this one can.
                let twin = kept.any(scratch.hash, |c, l| {
                    grid.play(c, l, &mut other);
                    other.key == scratch.key && other.foot.iter().all(|&f| grid.inside(&scratch, f))
                });
                if twin {
                    patterns.push(moves_of(t, len + 1).collect());
                } else {
                    kept.insert(scratch.hash, t, len + 1);
                    if !last {
                        next_level.push(t);
                    }
                }
            }
        }
        level = next_level;
    }
    patterns
}

/// The longest sequences [`refused`] finds: a sequence's moves, its length and at least
/// three bits of its effect's hash share a 64-bit word in [`Kept`].
const MAX_DEPTH: usize = 28;

/// The live sequences [`refused`] has kept, in an open-addressed table (linear probing)
/// placed by their effects' hashes: per slot one word, the sequence's moves (two bits a
/// move), its length plus one (five bits, so that no kept word is 0, the empty slot) and
/// the hash's highest bits in the rest, so that most sequences met in a probe are passed
/// over without being played again. Eight bytes a slot, the table at most three-quarters
/// full.
struct Kept {
    slots: Vec<u64>,
    /// How many slots are taken.
    len: usize,
    /// Bits below the hash's tag: the moves and the length.
    low: u32,
}

impl Kept {
    fn new(depth: usize) -> Kept {
        Kept {
            slots: vec![0; 1024],
            len: 0,
            low: 2 * depth as u32 + 5,
        }
    }

    /// A kept word's sequence: its moves and its length.
    fn unpack(w: u64) -> (u64, usize) {
        let len = (w & 31) as usize - 1;
        ((w >> 5) & ((1u64 << (2 * len)) - 1), len)
    }

    fn tag(&self, hash: u64) -> u64 {
        hash >> self.low
    }

    /// The first slot a hash probes.
    fn home(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 1)
    }

    /// Whether `f(moves, length)` holds for a kept sequence met probing from `hash`'s
    /// home whose tag is `hash`'s (every sequence with `hash` is among them).
    fn any(&self, hash: u64, mut f: impl FnMut(u64, usize) -> bool) -> bool {
        let (tag, mask) = (self.tag(hash), self.slots.len() - 1);
        let mut at = self.home(hash);
        loop {
            let w = self.slots[at];
            if w == 0 {
                return false;
            }
            if w >> self.low == tag {
                let (code, len) = Kept::unpack(w);
                if f(code, len) {
                    return true;
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Keeps the sequence `code` of `len` moves whose effect has `hash`; there must be
    /// room (see [`reserve`](Self::reserve)).
    fn insert(&mut self, hash: u64, code: u64, len: usize) {
        let w = (self.tag(hash) << self.low) | (code << 5) | (len as u64 + 1);
        let mask = self.slots.len() - 1;
        let mut at = self.home(hash);
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = w;
        self.len += 1;
    }

    /// Room for `more` sequences with the table at most three-quarters full: a larger
    /// table where needed, every kept sequence played again for its hash.
    fn reserve(&mut self, more: usize, grid: &Grid, scratch: &mut Played) {
        let need = (self.len + more) * 4 / 3 + 1;
        if need <= self.slots.len() {
            return;
        }
        let old = std::mem::replace(&mut self.slots, vec![0; need.next_power_of_two()]);
        self.len = 0;
        for w in old.into_iter().filter(|&w| w != 0) {
            let (code, len) = Kept::unpack(w);
            grid.play(code, len, scratch);
            self.insert(scratch.hash, code, len);
        }
    }
}

/// An unbounded grid for [`refused`]: big enough that no sequence of its depth reaches
/// the edge, the blank starting in the middle.
struct Grid {
    side: usize,
    centre: usize,
}

/// What playing a sequence leaves: its effect (the blank's cell, then each moved cell
/// with the cell its tile came from), the effect's hash, the cells the blank visited and
/// their box. Its buffers are reused from one sequence to the next.
#[derive(Default)]
struct Played {
    key: Vec<u16>,
    hash: u64,
    /// The blank's cells in the order it visits them.
    path: Vec<u16>,
    /// The cells the blank visited, in increasing order, each once.
    foot: Vec<u16>,
    /// The cell each tile on `foot` came from (in `foot`'s order).
    tiles: Vec<u16>,
    rows: (usize, usize),
    cols: (usize, usize),
}

impl Grid {
    fn new(depth: usize) -> Grid {
        let side = 2 * depth + 3;
        Grid {
            side,
            centre: (depth + 1) * side + depth + 1,
        }
    }

    /// Whether grid cell `c` lies within the box of `played`.
    fn inside(&self, played: &Played, c: u16) -> bool {
        let (r, cc) = (c as usize / self.side, c as usize % self.side);
        (played.rows.0..=played.rows.1).contains(&r)
            && (played.cols.0..=played.cols.1).contains(&cc)
    }

    /// Plays the sequence `code` of `len` moves into `out`.
    fn play(&self, code: u64, len: usize, out: &mut Played) {
        let side = self.side;
        let offset = |d: u8| STEP[d as usize].0 * side as i32 + STEP[d as usize].1;
        let mut blank = self.centre;
        out.path.clear();
        out.path.push(blank as u16);
        for m in moves_of(code, len) {
            blank = (blank as i32 + offset(m)) as usize;
            out.path.push(blank as u16);
        }
        // Only the tiles on the visited cells move: replay on those alone.
        out.foot.clear();
        out.foot.extend_from_slice(&out.path);
        out.foot.sort_unstable();
        out.foot.dedup();
        out.tiles.clear();
        out.tiles.extend_from_slice(&out.foot);
        let foot = &out.foot;
        let pos = |c: u16| foot.binary_search(&c).expect("a visited cell");
        let mut b = pos(self.centre as u16);
        for &to in &out.path[1..] {
            let t = pos(to);
            out.tiles.swap(b, t);
            b = t;
        }
        out.key.clear();
        out.key.push(blank as u16);
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        for (&c, &tile) in out.foot.iter().zip(&out.tiles) {
            let (r, cc) = (c as usize / side, c as usize % side);
            (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(cc), c1.max(cc));
            if tile != c {
                out.key.push(c);
                out.key.push(tile);
            }
        }
        out.rows = (r0, r1);
        out.cols = (c0, c1);
        let mut h = Mix(0x9e37_79b9_7f4a_7c15);
        for &k in &out.key {
            std::hash::Hasher::write_u64(&mut h, k as u64);
        }
        out.hash = std::hash::Hasher::finish(&h) ^ (out.key.len() as u64).rotate_left(32);
    }
}

/// The Aho-Corasick automaton of `patterns` over the four directions: the transition
/// table, [`Fsm::REFUSED`] wherever a pattern would end.
fn automaton(patterns: &[Vec<u8>]) -> Vec<State> {
    const NONE: State = State::MAX;
    let mut goto: Vec<[State; 4]> = vec![[NONE; 4]];
    let mut end: Vec<bool> = vec![false];
    for p in patterns {
        let mut q = 0usize;
        for &d in p {
            if goto[q][d as usize] == NONE {
                goto.push([NONE; 4]);
                end.push(false);
                goto[q][d as usize] = (goto.len() - 1) as State;
            }
            q = goto[q][d as usize] as usize;
        }
        end[q] = true;
    }
    // Breadth-first: each state's failure link, and the full transition table.
    let n = goto.len();
    let mut fail = vec![0usize; n];
    let mut delta = vec![[0 as State; 4]; n];
    let mut queue = VecDeque::new();
    for d in 0..4 {
        match goto[0][d] {
            NONE => delta[0][d] = 0,
            c => {
                delta[0][d] = c;
                fail[c as usize] = 0;
                queue.push_back(c as usize);
            }
        }
    }
    while let Some(q) = queue.pop_front() {
        end[q] = end[q] || end[fail[q]];
        for d in 0..4 {
            match goto[q][d] {
                NONE => delta[q][d] = delta[fail[q]][d],
                c => {
                    let c = c as usize;
                    fail[c] = delta[fail[q]][d] as usize;
                    delta[q][d] = c as State;
                    queue.push_back(c);
                }
            }
        }
    }
    // A move into a state where a pattern ends is refused. (Breadth-first order makes
    // `end` final for a state's failure link before the state itself is reached.)
    let mut next = Vec::with_capacity(n * 4);
    for row in &delta {
        for &c in row {
            next.push(if end[c as usize] { Fsm::REFUSED } else { c });
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Depth 2 refuses exactly the undoing moves.
    #[test]
    fn depth_two_refuses_undoing() {
        let m = Fsm::new(2);
        assert_eq!(m.patterns(), 4);
        for a in Direction::ALL {
            let q = m.next(Fsm::START, a);
            assert_ne!(q, Fsm::REFUSED);
            for b in Direction::ALL {
                assert_eq!(m.next(q, b) == Fsm::REFUSED, b == a.inverse(), "{a:?}{b:?}");
            }
        }
    }

    /// What the machines refuse always has a twin they keep: every position within 8 moves
    /// is reached by a kept path of the shortest length, whatever edges are near.
    #[test]
    fn refused_paths_have_kept_twins() {
        let m = Fsm::new(10);
        assert!(m.patterns() > 4);
        keeps_every_shortest_path(&m, "5x5", 8);
        // The shipped machines, on the boards that use them.
        keeps_every_shortest_path(Fsm::for_cells(25), "5x5", 8);
        keeps_every_shortest_path(Fsm::for_cells(16), "4x4", 8);
        keeps_every_shortest_path(Fsm::for_cells(18), "6x3", 8);
    }

    /// From the blank at each of several cells (corners, edges, middle) of a solved
    /// `shape` board: every position `moves` moves away or nearer is reached by a path
    /// `machine` keeps, of the shortest length (breadth-first over positions, and over
    /// positions with the machine's state).
    fn keeps_every_shortest_path(machine: &Fsm, shape: &str, moves: usize) {
        use crate::board::Board;
        use std::collections::HashSet;
        let goal = Board::solved(shape.parse().unwrap());
        let (w, h) = (goal.size().width(), goal.size().height());
        let cells = [0, w / 2, w + 1, (h / 2) * w + w / 2, w * h - 1, (h - 1) * w];
        for start_blank in cells {
            let mut start = goal.clone();
            // The blank to `start_blank`: left along the bottom row, then up.
            let (r, c) = (start_blank / w, start_blank % w);
            for _ in 0..(w - 1 - c) {
                start.apply(Direction::Right).unwrap();
            }
            for _ in 0..(h - 1 - r) {
                start.apply(Direction::Down).unwrap();
            }
            assert_eq!(start.blank(), start_blank);
            let mut all: HashMap<Board, usize> = HashMap::from([(start.clone(), 0)]);
            let mut kept: HashMap<Board, usize> = HashMap::from([(start.clone(), 0)]);
            let mut plain = vec![start.clone()];
            let mut pairs: HashSet<(Board, State)> = HashSet::from([(start.clone(), Fsm::START)]);
            for len in 1..=moves {
                let mut next = Vec::new();
                for b in &plain {
                    for d in Direction::ALL {
                        let mut nb = b.clone();
                        if nb.apply(d).is_ok() && !all.contains_key(&nb) {
                            all.insert(nb.clone(), len);
                            next.push(nb);
                        }
                    }
                }
                plain = next;
                let mut next_pairs = HashSet::new();
                for (b, q) in &pairs {
                    for d in Direction::ALL {
                        let nq = machine.next(*q, d);
                        let mut nb = b.clone();
                        if nq == Fsm::REFUSED || nb.apply(d).is_err() {
                            continue;
                        }
                        kept.entry(nb.clone()).or_insert(len);
                        next_pairs.insert((nb, nq));
                    }
                }
                pairs = next_pairs;
            }
            for (p, len) in &all {
                assert_eq!(
                    kept.get(p),
                    Some(len),
                    "{shape}, blank at {start_blank}: {p}"
                );
            }
        }
    }

    /// The check has teeth: a machine that also refuses going up twice in a row fails it.
    #[test]
    fn the_check_catches_a_machine_refusing_too_much() {
        let mut patterns = refused(8, 0);
        patterns.push(vec![0, 0]);
        let greedy = Fsm::of(&patterns);
        let caught = std::panic::catch_unwind(|| keeps_every_shortest_path(&greedy, "3x3", 8));
        assert!(caught.is_err());
    }

    /// The same deeper, on small boards where every path meets the edges: the longest
    /// refused sequences too.
    #[test]
    fn the_shipped_machines_keep_shortest_paths_near_edges() {
        for cells in [24, 25] {
            let m = Fsm::for_cells(cells);
            keeps_every_shortest_path(m, "3x3", 16);
            keeps_every_shortest_path(m, "4x2", 16);
            keeps_every_shortest_path(m, "4x3", 14);
        }
    }

    /// Limiting the span keeps exactly the refused sequences within it: their twins,
    /// and the twins' refusals, all stay within the same box.
    #[test]
    fn a_span_limit_keeps_the_sequences_within_it() {
        let all = refused(10, 0);
        for span in [2, 3] {
            let within: Vec<Vec<u8>> = all
                .iter()
                .filter(|p| {
                    let (mut r, mut c) = (0i32, 0i32);
                    let (mut rows, mut cols) = ((0, 0), (0, 0));
                    for &d in p.iter() {
                        (r, c) = (r + STEP[d as usize].0, c + STEP[d as usize].1);
                        rows = (rows.0.min(r), rows.1.max(r));
                        cols = (cols.0.min(c), cols.1.max(c));
                    }
                    rows.1 - rows.0 < span && cols.1 - cols.0 < span
                })
                .cloned()
                .collect();
            assert!(within.len() > 4 && within.len() < all.len(), "span {span}");
            assert_eq!(refused(10, span as usize), within, "span {span}");
        }
    }
}

#[cfg(test)]
mod shipped {
    use super::*;

    /// The shipped sequences read back, and their first lengths are what the generator
    /// finds (the whole depth: the ignored test below, which also rewrites the files).
    #[test]
    fn shipped_sequences_start_as_generated() {
        for (bytes, depth, span) in [
            (SHIPPED, SHIPPED_DEPTH, 0),
            (SHIPPED_FIVE, FIVE_DEPTH, FIVE_SPAN),
        ] {
            let shipped = decode(bytes).unwrap();
            assert_eq!((shipped.depth, shipped.span), (depth, span));
            let short: Vec<Vec<u8>> = shipped
                .patterns
                .into_iter()
                .filter(|p| p.len() <= 10)
                .collect();
            assert_eq!(short, refused(10, span));
            assert!(decode(&bytes[..bytes.len() - 1]).is_err());
            let mut longer = bytes.to_vec();
            longer.push(0);
            assert!(decode(&longer).is_err());
        }
        assert_eq!(
            decode(b"NPFSM2").err().unwrap(),
            "expected a depth and a span, found the end"
        );
        assert!(decode(b"NPFSM1\x10\x00").is_err());
        // A sequence's number too large for its length.
        let mut forged = b"NPFSM2\x01\x00".to_vec();
        forged.extend_from_slice(&1u32.to_le_bytes());
        forged.push(4);
        assert!(decode(&forged).unwrap_err().contains("larger number"));
    }

    /// The whole shipped files are what the generator finds (minutes and gigabytes: run
    /// by hand, with `NPUZZLE_WRITE_FSM=1` to rewrite the files).
    #[test]
    #[ignore]
    fn shipped_sequences_are_current() {
        let mut stale = Vec::new();
        for (name, bytes, depth, span) in [
            ("fsm.bin", SHIPPED, SHIPPED_DEPTH, 0),
            ("fsm5x5.bin", SHIPPED_FIVE, FIVE_DEPTH, FIVE_SPAN),
        ] {
            let fresh = encode(depth, span, &refused(depth, span));
            if std::env::var_os("NPUZZLE_WRITE_FSM").is_some() {
                let path = format!("{}/src/search/{name}", env!("CARGO_MANIFEST_DIR"));
                std::fs::write(path, &fresh).unwrap();
            }
            if fresh != bytes {
                stale.push(name);
            }
        }
        assert!(
            stale.is_empty(),
            "not what the generator finds: src/search/{stale:?}"
        );
    }
}
