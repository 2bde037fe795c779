//! What every IDA*-style search shares: the bound of a pass and what it saw beyond it
//! ([`Bound`]), how a pass ends ([`Pass`]), the loop of passes that raises the bound
//! ([`deepen`], which also reports progress), and the weighting of estimates for
//! weighted searches ([`weigh`], [`unweigh`], [`check_weight`]). IDA*, IDDFS, database
//! IDA*, multi-tile IDA* and weighted A* use it.

use crate::error::SearchError;
use crate::limits::{Trace, Watch};

/// How one bounded depth-first pass ended.
pub(crate) enum Pass {
    /// A solution within the bound (the search holds it).
    Found,
    /// No solution within the bound: the smallest `f` that exceeded it.
    Over(u32),
    /// Stopped by the clock or the cancel flag.
    Stopped,
}

impl Pass {
    /// How a pass ended: with a solution (or, collecting several, any), stopped, or over
    /// the bound with `next` the smallest `f` beyond it.
    pub(crate) fn end(solved: bool, stopped: bool, next: u32) -> Pass {
        if solved {
            Pass::Found
        } else if stopped {
            Pass::Stopped
        } else {
            Pass::Over(next)
        }
    }
}

/// A pass's bound, the smallest `f` seen beyond it, and whether the clock or the cancel
/// flag stopped it: what every IDA* kernel keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound {
    /// The pass's bound on `f = g + h`.
    pub(crate) limit: u32,
    /// The smallest `f` that went over it so far.
    pub(crate) next: u32,
    /// Whether the search was stopped.
    pub(crate) stopped: bool,
}

impl Bound {
    pub(crate) fn new() -> Bound {
        Bound {
            limit: 0,
            next: u32::MAX,
            stopped: false,
        }
    }

    /// Starts a pass within `limit`.
    pub(crate) fn start(&mut self, limit: u32) {
        self.limit = limit;
        self.next = u32::MAX;
    }

    /// Whether `f` goes over the bound (and so is cut off, remembered for the next pass).
    #[inline(always)]
    pub(crate) fn cut(&mut self, f: u32) -> bool {
        if f > self.limit {
            self.next = self.next.min(f);
            true
        } else {
            false
        }
    }

    /// How the pass ended, `solved` or not.
    pub(crate) fn end(&self, solved: bool) -> Pass {
        Pass::end(solved, self.stopped, self.next)
    }
}

/// A depth-first search run in passes of rising bounds: the plain and the
/// pattern-database IDA*, IDDFS, and the parallel passes. Each keeps its own kernel,
/// specialised for speed; [`deepen`] runs the passes.
pub(crate) trait Passes {
    /// Runs one pass within `bound`.
    fn pass(&mut self, bound: u32) -> Pass;
    /// Nodes expanded so far, over all passes.
    fn expanded(&self) -> u64;
    /// Nodes generated so far, over all passes.
    fn generated(&self) -> u64;
}

/// The one iterative-deepening loop: passes with bounds from `first` raised to the
/// solutions' parity, then each the smallest `f` that went over the last one, raised to
/// that parity (all single-tile solutions of a board share it, so bounds rise by 2;
/// `None` where they do not, as in the multi-tile metric); the clock and
/// cancel flag are checked between passes as well as within them. Returns the bound of
/// the pass that found a solution: its length, when the estimates are admissible.
///
/// On a stop the error's lower bound is the bound of the unfinished pass: the passes
/// before it proved every solution at least that long.
pub(crate) fn deepen(
    search: &mut impl Passes,
    first: u32,
    parity: Option<u32>,
    watch: &Watch,
    name: &'static str,
    per_mille: u64,
) -> Result<u32, SearchError> {
    // Raised to the solutions' parity where all solutions share one.
    let round = |b: u32| parity.map_or(b, |p| b + (b + p) % 2);
    let mut bound = round(first);
    loop {
        let before = search.expanded();
        let pass = search.pass(bound);
        if let Some(t) = watch.tracing() {
            let next = match pass {
                Pass::Over(over) if over != u32::MAX => Some(round(over)),
                _ => None,
            };
            if !matches!(pass, Pass::Stopped) {
                t(&Trace::Pass {
                    threshold: bound,
                    expanded: search.expanded() - before,
                    next,
                });
            }
        }
        match pass {
            Pass::Found => return Ok(bound),
            Pass::Stopped => {
                return Err(watch.timeout(name, bound, search.expanded(), search.generated()))
            }
            Pass::Over(over) => {
                assert!(
                    over != u32::MAX,
                    "the parity test admitted an unreachable goal"
                );
                bound = round(over);
                // What the passes so far prove of the shortest solution (a weighted
                // search's bound divided by its weight).
                watch.report(name, Some(unweigh(bound, per_mille)), search.expanded());
                if watch.stop(search.expanded()) {
                    return Err(watch.timeout(name, bound, search.expanded(), search.generated()));
                }
            }
        }
    }
}

/// A stopped weighted search proved, of the shortest solution, only that `weight` times
/// its length reaches the bound: the bound it reports is the pass's divided by the
/// weight (`per_mille` thousandths), rounded up.
pub(crate) fn weighted_bound<T>(
    r: Result<T, SearchError>,
    per_mille: u64,
) -> Result<T, SearchError> {
    r.map_err(|e| match e {
        SearchError::TimeLimit {
            algorithm,
            elapsed,
            lower_bound,
            expanded,
            generated,
        } => SearchError::TimeLimit {
            algorithm,
            elapsed,
            lower_bound: unweigh(lower_bound, per_mille),
            expanded,
            generated,
        },
        e => e,
    })
}

/// An estimate `h` weighted by `per_mille` thousandths, rounded down (as it is at 1000):
/// what every weighted search adds to `g`.
#[inline(always)]
pub(crate) fn weigh(h: u32, per_mille: u64) -> u32 {
    if per_mille == 1000 {
        h
    } else {
        (h as u64 * per_mille / 1000) as u32
    }
}

/// What a bound `f` of a search weighted by `per_mille` thousandths proves of the shortest
/// length: `f` divided by the weight, rounded up.
pub(crate) fn unweigh(f: u32, per_mille: u64) -> u32 {
    ((f as u64 * 1000).div_ceil(per_mille)) as u32
}

/// A weight from 1 to 100 in thousandths, or why not.
pub(crate) fn per_mille(weight: f64, algorithm: &'static str) -> Result<u64, SearchError> {
    let weight = check_weight(weight).map_err(|e| SearchError::Unsupported {
        algorithm,
        reason: format!("weight: {e}"),
    })?;
    Ok((weight * 1000.0).round() as u64)
}

/// The one check of a weight for weighted search, which every face uses: from 1 to 100.
///
/// ```
/// use npuzzle::search::check_weight;
/// assert_eq!(check_weight(1.5), Ok(1.5));
/// assert_eq!(check_weight(0.5).unwrap_err().to_string(), "expected from 1 to 100, found 0.5");
/// assert!(check_weight(f64::NAN).is_err());
/// ```
pub fn check_weight(weight: f64) -> Result<f64, crate::error::RangeError> {
    if (1.0..=100.0).contains(&weight) {
        Ok(weight)
    } else {
        Err(crate::error::RangeError {
            expected: "from 1 to 100".to_string(),
            found: weight.to_string(),
        })
    }
}
