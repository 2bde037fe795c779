//! Run control, shared by every long computation: memory and time limits
//! ([`Limits`]), the clock and cancel flag they give ([`Watch`]), and the parallel chunk
//! runner that the layered searches use.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::SearchError;

/// Bounds on a search's memory and time.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Bytes the search may use for its tables and open lists.
    pub max_memory: u64,
    /// Wall-clock time allowed, if bounded.
    pub time_limit: Option<Duration>,
    /// Set to `true` from another thread to stop the search as if its time ran out.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Limits {
    /// Half of the machine's memory (what `/proc/meminfo` calls available, if smaller),
    /// 2 GiB where that cannot be read; no time limit.
    fn default() -> Limits {
        Limits {
            max_memory: default_memory_budget(),
            time_limit: None,
            cancel: None,
        }
    }
}

/// A safe share of this machine's memory: half of the total, or 80% of the memory
/// available now if that is less. 2 GiB where `/proc/meminfo` cannot be read.
pub fn default_memory_budget() -> u64 {
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

/// Watches the clock and the cancel flag.
#[derive(Clone)]
pub(crate) struct Watch {
    start: Instant,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Watch {
    pub(crate) fn new(limits: &Limits) -> Watch {
        let start = Instant::now();
        Watch {
            start,
            deadline: limits.time_limit.map(|d| start + d),
            cancel: limits.cancel.clone(),
        }
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

    /// The check a depth-first search makes at each node it expands, `expanded` being its
    /// count so far: every 2^14 nodes whether `abort` (another thread's solution) is set,
    /// every 2^20 whether the time is up or the search was cancelled. Reading the clock
    /// at every node would cost more than the node.
    #[inline(always)]
    pub(crate) fn poll(&self, expanded: u64, abort: Option<&AtomicBool>) -> bool {
        expanded & 0x3fff == 0
            && (abort.is_some_and(|a| a.load(Ordering::Relaxed))
                || (expanded & 0xfffff == 0 && self.expired()))
    }

    /// The error for a search stopped by the clock or the cancel flag, with the lower
    /// bound it proved and the nodes it expanded.
    pub(crate) fn timeout(
        &self,
        algorithm: &'static str,
        lower_bound: u32,
        expanded: u64,
    ) -> SearchError {
        SearchError::TimeLimit {
            algorithm,
            elapsed: self.elapsed(),
            lower_bound,
            expanded,
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
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = (0, 0);
                    loop {
                        let lo = next.fetch_add(chunk, Ordering::Relaxed);
                        if lo >= words {
                            return sum;
                        }
                        let (a, b) = work(lo, (lo + chunk).min(words));
                        sum = (sum.0 + a, sum.1 + b);
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker thread"))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    })
}

/// The number of threads to run: `threads`, or every core when it is 0.
pub(crate) fn resolve_threads(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
}
