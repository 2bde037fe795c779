//! Run control, shared by every long computation: memory and time limits
//! ([`Limits`]), the clock and cancel flag they give (`Watch`), and the parallel chunk
//! runner that the layered searches use.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::board::Size;
use crate::error::SearchError;

/// Reads a byte count: a number with an optional K, M, G or T suffix (binary units), as
/// the CLI's `--max-memory` and Python's `max_memory` take it. A whole number is read
/// exactly; a fraction with a suffix is rounded down to whole bytes.
///
/// ```
/// use npuzzle::limits::parse_bytes;
/// assert_eq!(parse_bytes("4G"), Ok(4 << 30));
/// assert_eq!(parse_bytes("1.5K"), Ok(1536));
/// assert_eq!(parse_bytes("1000"), Ok(1000));
/// assert!(parse_bytes("lots").unwrap_err().contains("expected a size such as 512M"));
/// ```
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s
        .trim()
        .trim_end_matches(['b', 'B'])
        .trim_end_matches(['i', 'I']);
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1 << 30),
        Some('t' | 'T') => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
    };
    let num = num.trim();
    let too_big = || {
        format!(
            "expected at most 16 EiB (2^64 - 1 bytes), found {}",
            crate::error::quote_short(s)
        )
    };
    // A whole number is read exactly (a float would round 2^64 - 2 up to 2^64).
    if let Ok(v) = num.parse::<u128>() {
        return u64::try_from(v * mult as u128).map_err(|_| too_big());
    }
    if num.bytes().all(|b| b.is_ascii_digit()) && !num.is_empty() {
        return Err(too_big());
    }
    match num.parse::<f64>() {
        // 2^64 is the first value a u64 cannot hold; a larger figure is refused, not capped.
        Ok(v) if v >= 0.0 && v * mult as f64 >= 18_446_744_073_709_551_616.0 => Err(too_big()),
        Ok(v) if v >= 0.0 && v.is_finite() => Ok((v * mult as f64) as u64),
        _ => Err(format!(
            "expected a size such as 512M or 4G (a number, then K, M, G or T), found {}",
            crate::error::quote_short(s)
        )),
    }
}

/// What a long search tells its caller as it goes: after each pass of an iterative
/// search (with the bound it has proven), and every million nodes or so.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchProgress {
    /// The search's name.
    pub algorithm: &'static str,
    /// After a pass: every solution is at least this long (proven). `None` between
    /// passes' reports.
    pub bound: Option<u32>,
    /// Nodes expanded so far (by this thread, in a parallel search's periodic reports).
    pub expanded: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// For an anytime search (the library's `search::anytime`): the length of the
    /// shortest answer found so far, which only ever falls.
    pub best: Option<u32>,
}

/// A caller's hook for [`SearchProgress`], called from the searching thread(s): it should
/// return quickly (set a flag, send on a channel).
pub type ProgressHook = Arc<dyn Fn(&SearchProgress) + Send + Sync>;

/// What a search shows of its working, step by step, for watching it (the page's watch
/// mode): breadth-first layers, A*'s expansions, IDA*'s passes. Told only where a hook is
/// set ([`Limits::trace`]), from the searching thread; a search without one pays nothing
/// for it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Trace<'a> {
    /// A breadth-first layer reached: `states` boards `depth` moves from the start (`side`
    /// 0) or, in the bidirectional search's backward half, from the goal (`side` 1);
    /// `seen` boards stored so far, `expanded` nodes expanded so far.
    Layer {
        /// 0: from the start; 1: from the goal.
        side: u8,
        /// Moves from that end.
        depth: u32,
        /// Boards in the layer.
        states: u64,
        /// Boards stored so far (both halves).
        seen: u64,
        /// Nodes expanded so far.
        expanded: u64,
    },
    /// A* takes a board from its open list to expand it.
    Expand {
        /// The board's cells, row by row (0 the blank).
        cells: &'a [u8],
        /// Moves from the start to it.
        g: u32,
        /// The heuristic's estimate of the moves left.
        h: u32,
        /// The boards waiting in the open list, as (f = g + h, how many), smallest f first.
        open: &'a [(u32, u64)],
        /// Nodes expanded so far, this one included.
        expanded: u64,
    },
    /// An IDA* pass ended.
    Pass {
        /// The pass's threshold on f = g + h.
        threshold: u32,
        /// Nodes this pass expanded.
        expanded: u64,
        /// The next pass's threshold (the smallest f beyond this one), if any.
        next: Option<u32>,
    },
}

/// A caller's hook for [`Trace`] events.
pub type TraceHook = Arc<dyn Fn(&Trace<'_>) + Send + Sync>;

/// Bounds on a search's memory and time, the flag that cancels it, and the hook it
/// reports progress to.
#[derive(Clone)]
pub struct Limits {
    /// Bytes the search may use for its tables and open lists.
    pub max_memory: u64,
    /// Wall-clock time allowed, if bounded.
    pub time_limit: Option<Duration>,
    /// Set to `true` from another thread to stop the search as if its time ran out.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Nodes a search may expand, if bounded (checked every few thousand nodes, per
    /// thread in a parallel search); a search past it stops as if its time ran out.
    pub max_nodes: Option<u64>,
    /// Told how the search goes (see [`SearchProgress`]), if set.
    pub progress: Option<ProgressHook>,
    /// Told each step of a search watched (see [`Trace`]): the breadth-first searches,
    /// A* and IDA* (plain and with walking distance or linear conflict) tell it.
    pub trace: Option<TraceHook>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("max_memory", &self.max_memory)
            .field("time_limit", &self.time_limit)
            .field("cancel", &self.cancel)
            .field("max_nodes", &self.max_nodes)
            .field("progress", &self.progress.as_ref().map(|_| "hook"))
            .field("trace", &self.trace.as_ref().map(|_| "hook"))
            .finish()
    }
}

impl Default for Limits {
    /// Half of the machine's memory (what `/proc/meminfo` calls available, if smaller),
    /// 2 GiB where that cannot be read; no time limit.
    fn default() -> Limits {
        Limits {
            max_memory: default_memory_budget(),
            time_limit: None,
            cancel: None,
            max_nodes: None,
            progress: None,
            trace: None,
        }
    }
}

/// A safe share of this machine's memory: half of the total, or 80% of the memory
/// available when first asked if that is less. 2 GiB where `/proc/meminfo` cannot be
/// read. Read once per process: every request of a server made its default limits, and
/// reading the file each time halved the requests a second it answered.
pub fn default_memory_budget() -> u64 {
    static BUDGET: OnceLock<u64> = OnceLock::new();
    *BUDGET.get_or_init(read_memory_budget)
}

fn read_memory_budget() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/meminfo") else {
        return 2 << 30;
    };
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    match (field("MemTotal:"), field("MemAvailable:")) {
        (Some(t), Some(a)) => (t / 2).min(a / 5 * 4),
        (Some(t), None) => t / 2,
        _ => 2 << 30,
    }
}

/// Whether a larger memory limit would let a refused search run: `e` is a
/// [`SearchError::MemoryLimit`] whose need this machine's memory holds (every face then
/// names its way to raise the limit).
///
/// ```
/// use npuzzle::{limits, SearchError};
/// let refused = |needed| SearchError::MemoryLimit {
///     algorithm: "bfs",
///     size: "3x3".parse().unwrap(),
///     needed,
///     limit: 1000,
///     suggestion: "idastar",
/// };
/// assert!(!limits::raising_helps(&refused(u64::MAX)));
/// let known = limits::machine_memory().is_some();
/// assert_eq!(limits::raising_helps(&refused(1 << 20)), known);
/// ```
pub fn raising_helps(e: &SearchError) -> bool {
    match e {
        SearchError::MemoryLimit { needed, .. } => machine_memory().is_some_and(|m| *needed <= m),
        _ => false,
    }
}

/// The machine's memory (`MemTotal` in `/proc/meminfo`), where it can be read; read once.
pub fn machine_memory() -> Option<u64> {
    static TOTAL: OnceLock<Option<u64>> = OnceLock::new();
    *TOTAL.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        kb.checked_mul(1024)
    })
}

impl Limits {
    /// Checks that `needed` bytes fit both the memory limit ([`SearchError::MemoryLimit`],
    /// naming `suggestion`) and the machine ([`SearchError::OutOfMemory`]: a limit set
    /// above the machine's memory does not make the memory appear).
    pub(crate) fn check_memory(
        &self,
        algorithm: &'static str,
        size: Size,
        needed: u64,
        suggestion: &'static str,
    ) -> Result<(), SearchError> {
        if needed > self.max_memory {
            return Err(SearchError::MemoryLimit {
                algorithm,
                size,
                needed,
                limit: self.max_memory,
                suggestion,
            });
        }
        match machine_memory() {
            Some(machine) if needed > machine => Err(SearchError::OutOfMemory {
                algorithm,
                needed,
                machine: Some(machine),
            }),
            _ => Ok(()),
        }
    }
}

/// `len` values made by `make`, in memory asked of the system without aborting: a refusal
/// is [`SearchError::OutOfMemory`].
pub(crate) fn try_vec<T>(
    len: usize,
    algorithm: &'static str,
    make: impl FnMut() -> T,
) -> Result<Vec<T>, SearchError> {
    let mut v = Vec::new();
    try_reserve(&mut v, len, algorithm)?;
    v.resize_with(len, make);
    Ok(v)
}

/// Room for `more` values in `v`, asked of the system without aborting (as [`try_vec`]).
pub(crate) fn try_reserve<T>(
    v: &mut Vec<T>,
    more: usize,
    algorithm: &'static str,
) -> Result<(), SearchError> {
    v.try_reserve(more).map_err(|_| SearchError::OutOfMemory {
        algorithm,
        needed: (more as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        machine: machine_memory(),
    })
}

/// Watches the clock and the cancel flag.
#[derive(Clone)]
pub(crate) struct Watch {
    start: Instant,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    max_nodes: u64,
    progress: Option<ProgressHook>,
    trace: Option<TraceHook>,
}

impl Watch {
    /// The trace hook, where the search is watched.
    #[inline]
    pub(crate) fn tracing(&self) -> Option<&TraceHook> {
        self.trace.as_ref()
    }

    pub(crate) fn new(limits: &Limits) -> Watch {
        let start = Instant::now();
        Watch {
            start,
            deadline: limits.time_limit.map(|d| start + d),
            cancel: limits.cancel.clone(),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            progress: limits.progress.clone(),
            trace: limits.trace.clone(),
        }
    }

    /// Tells the progress hook, if any, how far `algorithm` has come.
    pub(crate) fn report(&self, algorithm: &'static str, bound: Option<u32>, expanded: u64) {
        self.report_best(algorithm, bound, expanded, None);
    }

    /// [`report`](Self::report) with the shortest answer found so far.
    pub(crate) fn report_best(
        &self,
        algorithm: &'static str,
        bound: Option<u32>,
        expanded: u64,
        best: Option<u32>,
    ) {
        if let Some(p) = &self.progress {
            p(&SearchProgress {
                algorithm,
                bound,
                expanded,
                elapsed: self.elapsed(),
                best,
            });
        }
    }

    /// Time left before the deadline, if there is one.
    pub(crate) fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the time is up or the search was cancelled.
    pub(crate) fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Whether the search should stop after `expanded` nodes: the time is up, it was
    /// cancelled, or its node budget is spent.
    pub(crate) fn stop(&self, expanded: u64) -> bool {
        expanded >= self.max_nodes || self.expired()
    }

    /// The check a depth-first search makes at each node it expands, `expanded` being its
    /// count so far: every 2^14 nodes whether `abort` (another thread's solution) is set,
    /// every 2^20 whether the time is up or the search was cancelled; every 2^14
    /// whether the node budget is spent. Reading the clock
    /// at every node would cost more than the node.
    #[inline(always)]
    pub(crate) fn poll(&self, expanded: u64, abort: Option<&AtomicBool>) -> bool {
        expanded & 0x3fff == 0
            && (abort.is_some_and(|a| a.load(Ordering::Relaxed))
                || expanded >= self.max_nodes
                || (expanded & 0xfffff == 0 && self.tick(expanded)))
    }

    /// Every 2^20 nodes: the periodic progress report, then whether the time is up.
    #[cold]
    fn tick(&self, expanded: u64) -> bool {
        self.report("search", None, expanded);
        self.expired()
    }

    /// The error for a search stopped by the clock or the cancel flag, with the lower
    /// bound it proved and the nodes it expanded and generated.
    pub(crate) fn timeout(
        &self,
        algorithm: &'static str,
        lower_bound: u32,
        expanded: u64,
        generated: u64,
    ) -> SearchError {
        SearchError::TimeLimit {
            algorithm,
            elapsed: self.elapsed(),
            lower_bound,
            expanded,
            generated,
        }
    }
}

/// Runs `work` over `0..words` in chunks of `chunk` on `threads` threads, each taking
/// the next chunk as it finishes one; sums the pairs it returns.
pub(crate) fn run_chunks(
    threads: usize,
    words: usize,
    chunk: usize,
    work: impl Fn(usize, usize) -> (u64, u64) + Sync,
) -> (u64, u64) {
    if threads <= 1 {
        return work(0, words);
    }
    let (a, b) = (AtomicU64::new(0), AtomicU64::new(0));
    for_each_index(words.div_ceil(chunk), threads, |c| {
        let lo = c * chunk;
        let (x, y) = work(lo, (lo + chunk).min(words));
        a.fetch_add(x, Ordering::Relaxed);
        b.fetch_add(y, Ordering::Relaxed);
    });
    (a.into_inner(), b.into_inner())
}

/// The library's one thread pool: `f(i)` for every `i` in `0..n` on `threads` threads
/// (0: every core), each taking the next index as it finishes one; this thread works
/// too. Batches of boards (the CLI's, Python's) and the layered searches' chunks run on
/// it.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let sum = AtomicU64::new(0);
/// npuzzle::limits::for_each_index(1000, 0, |i| {
///     sum.fetch_add(i as u64, Ordering::Relaxed);
/// });
/// assert_eq!(sum.into_inner(), 999 * 1000 / 2);
/// ```
pub fn for_each_index(n: usize, threads: usize, f: impl Fn(usize) + Sync) {
    let wanted = resolve_threads(threads);
    let threads = wanted.min(n).max(1);
    if threads == 1 {
        (0..n).for_each(f);
        return;
    }
    // Inside `on_pool` with as many threads: its threads, started once, not new ones.
    if rayon::current_thread_index().is_some() && rayon::current_num_threads() == wanted {
        use rayon::prelude::*;
        (0..n).into_par_iter().with_max_len(1).for_each(&f);
        return;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            return;
        }
        f(i);
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
}

/// Runs `op` on a pool of `threads` threads (0: every core) started once and kept for
/// later calls, this thread waiting; [`for_each_index`] with the same thread count
/// inside `op` then shares out its indices among the pool's threads instead of starting
/// threads of its own. For work made of many short parallel steps, such as a beam's
/// layers: starting a thread costs about 50 microseconds, a few times in every layer.
/// A pool serves one call at a time (two searches at once get two pools: a thread of one
/// never runs the other's work while its own waits); where no pool can be started, `op`
/// runs here.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let sum = npuzzle::limits::on_pool(2, || {
///     let sum = AtomicU64::new(0);
///     for _ in 0..100 {
///         npuzzle::limits::for_each_index(10, 2, |i| {
///             sum.fetch_add(i as u64, Ordering::Relaxed);
///         });
///     }
///     sum.into_inner()
/// });
/// assert_eq!(sum, 100 * 45);
/// ```
pub fn on_pool<R: Send>(threads: usize, op: impl FnOnce() -> R + Send) -> R {
    /// Pools not in use, kept for the next call (at most this many).
    const IDLE_POOLS: usize = 8;
    static IDLE: std::sync::Mutex<Vec<(usize, rayon::ThreadPool)>> =
        std::sync::Mutex::new(Vec::new());
    let threads = resolve_threads(threads).max(1);
    if threads == 1
        || (rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads)
    {
        return op();
    }
    let idle = || IDLE.lock().unwrap_or_else(|e| e.into_inner());
    let taken = {
        let mut pools = idle();
        let at = pools.iter().position(|p| p.0 == threads);
        at.map(|i| pools.swap_remove(i).1)
    };
    let pool = taken.or_else(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("npuzzle-pool-{i}"))
            .build()
            .ok()
    });
    let Some(pool) = pool else {
        return op();
    };
    // (Given back even when `op` panics: the panic goes on from here.)
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(op)));
    let mut pools = idle();
    if pools.len() < IDLE_POOLS {
        pools.push((threads, pool));
    }
    drop(pools);
    out.unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// `f(i)` for every `i` in `0..n`, in order, computed on the pool ([`for_each_index`])
/// in chunks of `chunk` indices (so that millions of small results cost no lock each).
///
/// ```
/// let squares = npuzzle::limits::par_map(10_000, 2, 256, |i| i * i);
/// assert_eq!(squares[9_999], 9_999 * 9_999);
/// ```
pub fn par_map<R: Send>(
    n: usize,
    threads: usize,
    chunk: usize,
    f: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    let chunk = chunk.max(1);
    let parts: Vec<std::sync::Mutex<Vec<R>>> = (0..n.div_ceil(chunk))
        .map(|_| std::sync::Mutex::new(Vec::new()))
        .collect();
    for_each_index(parts.len(), threads, |c| {
        let part: Vec<R> = (c * chunk..((c + 1) * chunk).min(n)).map(&f).collect();
        *parts[c].lock().unwrap_or_else(|e| e.into_inner()) = part;
    });
    parts
        .into_iter()
        .flat_map(|p| p.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// The number of threads to run: `threads`, or every core when it is 0.
pub fn resolve_threads(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts() {
        assert_eq!(parse_bytes("4G").unwrap(), 4 << 30);
        assert_eq!(parse_bytes("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("lots").is_err());
        // Over the cap: refused with the cap named, never capped silently.
        let e = parse_bytes("99999999T").unwrap_err();
        assert!(e.contains("at most 16 EiB"), "{e}");
        assert_eq!(parse_bytes("16383T").unwrap(), 16383 << 40);
        let e = parse_bytes("lots").unwrap_err();
        assert!(e.contains("\"lots\""), "{e}");
        // Exact near 2^64: 2^64 - 2 is a valid count, 2^64 is not.
        assert_eq!(parse_bytes("18446744073709551614").unwrap(), u64::MAX - 1);
        assert_eq!(parse_bytes("18446744073709551615").unwrap(), u64::MAX);
        assert!(parse_bytes("18446744073709551616").is_err());
        assert!(parse_bytes("16777216T").is_err());
        assert_eq!(parse_bytes("16777215T").unwrap(), 16777215 << 40);
        // A 300-digit number is not repeated whole.
        let e = parse_bytes(&"9".repeat(300)).unwrap_err();
        assert!(e.len() < 200 && e.contains("(300 characters)"), "{e}");
    }

    #[test]
    fn memory_beyond_the_machine_is_refused_not_aborted() {
        let size = Size::new(4, 4).unwrap();
        let huge = Limits {
            max_memory: u64::MAX,
            ..Limits::default()
        };
        // 4 PiB: more than any machine this runs on; the limit allows it, the machine not.
        let e = huge
            .check_memory("test", size, 1 << 52, "idastar")
            .unwrap_err();
        assert!(matches!(e, SearchError::OutOfMemory { .. }), "{e}");
        assert!(e.to_string().contains("this machine has"), "{e}");
        // Within the limit and the machine: fine. Over the limit: the limit is named.
        assert!(huge.check_memory("test", size, 1 << 20, "idastar").is_ok());
        let small = Limits {
            max_memory: 1 << 20,
            ..Limits::default()
        };
        let e = small
            .check_memory("test", size, 1 << 21, "idastar")
            .unwrap_err();
        assert!(matches!(e, SearchError::MemoryLimit { .. }), "{e}");
        // An allocation the system refuses is an error, not an abort.
        let e = try_vec(usize::MAX / 2, "test", || 0u64).unwrap_err();
        assert!(matches!(e, SearchError::OutOfMemory { .. }), "{e}");
        assert_eq!(try_vec(3, "test", || 7u8).unwrap(), vec![7, 7, 7]);
    }

    /// Inside `on_pool`, every index of `for_each_index` runs on the pool's threads (none
    /// started for it, none on the caller's thread), layer after layer.
    #[test]
    fn a_pool_runs_every_step_on_its_own_threads() {
        let caller = std::thread::current().id();
        let names = std::sync::Mutex::new(std::collections::BTreeSet::new());
        let on_caller = AtomicU64::new(0);
        let sum = on_pool(2, || {
            let sum = AtomicU64::new(0);
            for _ in 0..50 {
                for_each_index(8, 2, |i| {
                    let me = std::thread::current();
                    if me.id() == caller {
                        on_caller.fetch_add(1, Ordering::Relaxed);
                    }
                    let name = me.name().unwrap_or("").to_string();
                    names.lock().unwrap().insert(name);
                    sum.fetch_add(i as u64, Ordering::Relaxed);
                });
            }
            sum.into_inner()
        });
        assert_eq!(sum, 50 * 28);
        assert_eq!(on_caller.into_inner(), 0);
        let names = names.into_inner().unwrap();
        assert!(
            !names.is_empty() && names.iter().all(|n| n.starts_with("npuzzle-pool-")),
            "{names:?}"
        );
        // One thread: here, no pool.
        assert_eq!(on_pool(1, || std::thread::current().id()), caller);
    }

    /// A panic inside the pool goes on in the caller, and the next call still works.
    #[test]
    fn a_panic_on_the_pool_reaches_the_caller() {
        let hit = std::panic::catch_unwind(|| {
            on_pool(2, || for_each_index(4, 2, |i| assert!(i < 3, "index {i}")))
        });
        assert!(hit.is_err());
        assert_eq!(on_pool(2, || 7), 7);
    }

    /// Two calls at once get a pool each: each call's two steps wait for each other, which
    /// two calls sharing two threads could never do (each holds one thread waiting).
    #[test]
    fn two_calls_at_once_do_not_share_a_pool() {
        let both = Arc::new(std::sync::Barrier::new(2));
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..2 {
            let (tx, both) = (tx.clone(), both.clone());
            // (Not scoped threads, which would make the test wait forever on a failure:
            // these are watched through the channel.)
            std::thread::spawn(move || {
                let done = on_pool(2, || {
                    both.wait();
                    let pair = std::sync::Barrier::new(2);
                    for_each_index(2, 2, |_| {
                        pair.wait();
                    });
                    true
                });
                let _ = tx.send(done);
            });
        }
        for _ in 0..2 {
            let done = rx.recv_timeout(Duration::from_secs(120));
            assert_eq!(done, Ok(true), "a call waited on the other's pool");
        }
    }
}
