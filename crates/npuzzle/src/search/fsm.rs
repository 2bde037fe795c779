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

use std::collections::{HashMap, VecDeque};
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
        Fsm::of(&refused(depth))
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

    /// The machine of the refused sequences of at most `depth` moves shipped with the
    /// library (found by [`Fsm::new`] ahead of time; [`SHIPPED_DEPTH`] at most).
    fn shipped(depth: usize) -> Fsm {
        let patterns: Vec<Vec<u8>> = decode(SHIPPED)
            .expect("the shipped machine is checked by the tests")
            .1
            .into_iter()
            .filter(|p| p.len() <= depth)
            .collect();
        Fsm::of(&patterns)
    }

    /// The machine the exact searches on a board of `cells` cells use, built once per
    /// process from the shipped sequences: up to [`SHIPPED_DEPTH`] moves on boards of more
    /// than 16 cells (searches of seconds to hours; 627,000 states, about 25 ms to build),
    /// up to [`SMALL_DEPTH`] on smaller ones (searches of milliseconds, where the bigger
    /// machine's building and cache misses cost more than its pruning saves: Korf's 100
    /// expand 1,417,471 nodes in 0.24 s with it, 1,400,646 in 0.29 s with depth 16).
    pub(crate) fn for_cells(cells: usize) -> &'static Fsm {
        static SMALL: OnceLock<Fsm> = OnceLock::new();
        static BIG: OnceLock<Fsm> = OnceLock::new();
        if cells <= 16 {
            SMALL.get_or_init(|| Fsm::shipped(SMALL_DEPTH))
        } else {
            BIG.get_or_init(|| Fsm::shipped(SHIPPED_DEPTH))
        }
    }
}

/// The depth of the refused sequences shipped with the library.
pub(crate) const SHIPPED_DEPTH: usize = 16;

/// The depth of the machine on boards of up to 16 cells.
pub(crate) const SMALL_DEPTH: usize = 14;

/// The refused sequences of up to [`SHIPPED_DEPTH`] moves, as [`encode`] writes them.
/// Made by `NPUZZLE_WRITE_FSM=1 cargo test --release -p npuzzle --lib
/// shipped_sequences_are_current -- --ignored` (about six minutes).
static SHIPPED: &[u8] = include_bytes!("fsm.bin");

/// The refused sequences as bytes: the magic `NPFSM1`, the depth (one byte), then per
/// length from 1 to the depth the count of sequences (u32, little-endian) and each
/// sequence's moves packed two bits a move, the first highest (u32, little-endian).
#[cfg(test)]
fn encode(depth: usize, patterns: &[Vec<u8>]) -> Vec<u8> {
    assert!(depth <= 16, "sequences are packed in 32 bits");
    let mut out = b"NPFSM1".to_vec();
    out.push(depth as u8);
    for len in 1..=depth {
        let of_len: Vec<&Vec<u8>> = patterns.iter().filter(|p| p.len() == len).collect();
        out.extend_from_slice(&(of_len.len() as u32).to_le_bytes());
        for p in of_len {
            let code = p.iter().fold(0u32, |a, &d| (a << 2) | d as u32);
            out.extend_from_slice(&code.to_le_bytes());
        }
    }
    out
}

/// Reads what [`encode`] wrote: the depth and the sequences.
fn decode(bytes: &[u8]) -> Result<(usize, Vec<Vec<u8>>), String> {
    let rest = bytes
        .strip_prefix(b"NPFSM1")
        .ok_or("expected the magic NPFSM1")?;
    let (&depth, mut rest) = rest.split_first().ok_or("expected a depth")?;
    let depth = depth as usize;
    if depth > 16 {
        return Err(format!("expected a depth of at most 16, found {depth}"));
    }
    let mut word = |what: &str| -> Result<u32, String> {
        let (w, r) = rest
            .split_first_chunk::<4>()
            .ok_or(format!("expected {what}, found the end"))?;
        rest = r;
        Ok(u32::from_le_bytes(*w))
    };
    let mut patterns = Vec::new();
    for len in 1..=depth {
        let count = word("a count")?;
        for _ in 0..count {
            let code = word("a sequence")?;
            patterns.push(moves_of(code as u64, len).collect());
        }
    }
    if !rest.is_empty() {
        return Err(format!("expected the end, found {} more bytes", rest.len()));
    }
    Ok((depth, patterns))
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

type MixMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Mix>>;

/// The moves of the sequence `code` of `len` moves (two bits a move, the first highest).
fn moves_of(code: u64, len: usize) -> impl Iterator<Item = u8> {
    (0..len).rev().map(move |k| ((code >> (2 * k)) & 3) as u8)
}

/// The refused sequences of at most `depth` moves (at most 31), each as its moves
/// (direction indices), shortest first and in order within a length; none contains
/// another.
fn refused(depth: usize) -> Vec<Vec<u8>> {
    assert!(depth <= 31, "sequences are packed in a word");
    // A grid big enough that no sequence reaches its edge, the blank in the middle.
    let side = 2 * depth + 3;
    let centre = (depth + 1) * side + depth + 1;
    let offset = |d: u8| STEP[d as usize].0 * side as i32 + STEP[d as usize].1;
    // Per effect (the blank's cell, then each moved cell with the cell its tile came
    // from), the footprints (cells the blank visited) of the live sequences that have it.
    let mut effects: MixMap<Box<[u16]>, Vec<Box<[u16]>>> = MixMap::default();
    effects.insert(Box::new([centre as u16]), vec![Box::new([centre as u16])]);
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    // The live sequences of the last length, in order.
    let mut level: Vec<u64> = vec![0];
    let mut grid: Vec<u16> = (0..(side * side) as u16).collect();
    let mut foot: Vec<u16> = Vec::with_capacity(depth + 1);
    let mut key: Vec<u16> = Vec::with_capacity(2 * depth + 3);
    for len in 0..depth {
        // The machine of the patterns so far: a sequence one longer is dead when a
        // shorter refused sequence ends it.
        let machine = automaton(&patterns);
        let mut next_level = Vec::new();
        for &code in &level {
            let q = moves_of(code, len).fold(0u32, |q, d| machine[q as usize * 4 + d as usize]);
            for d in 0..4u8 {
                if machine[q as usize * 4 + d as usize] == Fsm::REFUSED {
                    continue;
                }
                let t = (code << 2) | d as u64;
                // Play it on the grid, noting the blank's cells and their box.
                let mut blank = centre;
                foot.clear();
                foot.push(centre as u16);
                for m in moves_of(t, len + 1) {
                    let to = (blank as i32 + offset(m)) as usize;
                    grid.swap(blank, to);
                    blank = to;
                    foot.push(to as u16);
                }
                foot.sort_unstable();
                foot.dedup();
                let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
                key.clear();
                key.push(blank as u16);
                for &c in &foot {
                    let (r, cc) = (c as usize / side, c as usize % side);
                    (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(cc), c1.max(cc));
                    if grid[c as usize] != c {
                        key.push(c);
                        key.push(grid[c as usize]);
                    }
                }
                for &c in &foot {
                    grid[c as usize] = c;
                }
                // Refused if a twin found before stays within this one's box: on a
                // rectangular board the twin can be played wherever this one can.
                let inside = |f: &[u16]| {
                    f.iter().all(|&c| {
                        let (r, cc) = (c as usize / side, c as usize % side);
                        (r0..=r1).contains(&r) && (c0..=c1).contains(&cc)
                    })
                };
                let twins = effects.entry(key.as_slice().into()).or_default();
                if twins.iter().any(|f| inside(f)) {
                    patterns.push(moves_of(t, len + 1).collect());
                } else {
                    twins.push(foot.as_slice().into());
                    next_level.push(t);
                }
            }
        }
        level = next_level;
    }
    patterns
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
        keeps_every_shortest_path(Fsm::for_cells(25), "6x3", 8);
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
        let mut patterns = refused(8);
        patterns.push(vec![0, 0]);
        let greedy = Fsm::of(&patterns);
        let caught = std::panic::catch_unwind(|| keeps_every_shortest_path(&greedy, "3x3", 8));
        assert!(caught.is_err());
    }

    /// The same deeper, on small boards where every path meets the edges: the longest
    /// refused sequences too.
    #[test]
    fn the_shipped_machine_keeps_shortest_paths_near_edges() {
        let m = Fsm::for_cells(25);
        keeps_every_shortest_path(m, "3x3", 16);
        keeps_every_shortest_path(m, "4x2", 16);
        keeps_every_shortest_path(m, "4x3", 14);
    }
}

#[cfg(test)]
mod shipped {
    use super::*;

    /// The shipped sequences read back, and their first lengths are what the generator
    /// finds (the whole depth: the ignored test below, which also rewrites the file).
    #[test]
    fn shipped_sequences_start_as_generated() {
        let (depth, patterns) = decode(SHIPPED).unwrap();
        assert_eq!(depth, SHIPPED_DEPTH);
        let short: Vec<Vec<u8>> = patterns.into_iter().filter(|p| p.len() <= 10).collect();
        assert_eq!(short, refused(10));
        assert!(decode(&SHIPPED[..SHIPPED.len() - 1]).is_err());
        assert!(decode(b"NPFSM1").is_err());
    }

    /// The whole shipped file is what the generator finds (minutes: run by hand, with
    /// `NPUZZLE_WRITE_FSM=1` to rewrite the file).
    #[test]
    #[ignore]
    fn shipped_sequences_are_current() {
        let fresh = encode(SHIPPED_DEPTH, &refused(SHIPPED_DEPTH));
        if std::env::var_os("NPUZZLE_WRITE_FSM").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/fsm.bin");
            std::fs::write(path, &fresh).unwrap();
        }
        assert!(
            fresh == SHIPPED,
            "src/search/fsm.bin is not what the generator finds"
        );
    }
}
