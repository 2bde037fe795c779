//! The plan's pure parts: which database sets the anytime solver tries for a board size and a
//! time limit, and from when (no files are read here).

use std::time::Duration;

use crate::board::{Board, Size};
use crate::search::{self};

/// The shortest time limit for which the anytime solver's last-region databases are read
/// from the database folder (the first board that needs them); sets already in memory
/// (preloaded, given, or read for an earlier board) are used at any limit. Measured on ten
/// 7x7 boards, one process each: 4,236 moves with them against 3,582 without at 0.5 s (the
/// read left little time), 3,524 against 3,546 at 0.75 s, 3,448 against 3,496 at 1 s.
pub const REGION_PDBS_FROM: Duration = Duration::from_millis(750);

/// The shortest time limit for which the anytime solver ranks a board of a size
/// [`whole_pdbs`] names by databases of the whole board, if cached (never built here:
/// `npuzzle pdb build --size 7x7` makes them), instead of its last 6x6 region by 6x6 ones.
pub const WHOLE_PDBS_FROM: Duration = Duration::from_secs(5);

/// Whether the anytime solver ranks boards of `size` whole by databases of that size,
/// given time ([`WHOLE_PDBS_FROM`]): 7x7 (the default 7x7 partition, five tiles a group).
pub fn whole_pdbs(size: Size) -> bool {
    (size.width(), size.height()) == (7, 7)
}

/// The database sets the anytime solver may rank a board of `size` by within
/// `time_limit` (none: [`search::ANYTIME_SECONDS`]), best first, each with whether it may
/// be read from the folder (else it is used only if already in memory): on 7x7 with
/// [`WHOLE_PDBS_FROM`] or more the 7x7 set's goal (the whole board), then, where the last
/// region is 6x6 and at least half the board (6x6 to 8x8, 12x6), the 6x6 set's
/// ([`region_goal`]), read only with [`REGION_PDBS_FROM`] or more. `bench` and `serve`
/// load what this names ahead.
///
/// ```
/// use npuzzle::request::anytime_sets;
/// use std::time::Duration;
/// let seven = "7x7".parse().unwrap();
/// let sets = anytime_sets(seven, Some(Duration::from_secs(10)));
/// assert_eq!(sets.len(), 2);
/// assert_eq!(sets[0].0.size(), seven);
/// // At half a second only the 6x6 set, and only if already in memory.
/// let sets = anytime_sets(seven, Some(Duration::from_millis(500)));
/// assert_eq!(sets.len(), 1);
/// assert!(!sets[0].1);
/// assert!(anytime_sets("10x10".parse().unwrap(), None).is_empty());
/// ```
pub fn anytime_sets(size: Size, time_limit: Option<Duration>) -> Vec<(Board, bool)> {
    let mut sets = Vec::new();
    if whole_pdbs(size) && time_limit.is_some_and(|t| t >= WHOLE_PDBS_FROM) {
        sets.push((Board::solved(size), true));
    }
    let region = region_goal();
    if search::region_for(size) == Some(region.size()) {
        // (Without a limit the anytime solver takes a second: time enough to read them.)
        let read = time_limit.is_none_or(|t| t >= REGION_PDBS_FROM);
        sets.push((region, read));
    }
    sets
}

/// The time limit by which the anytime solver's databases are chosen ([`anytime_sets`])
/// for a request's `time_limit` and `beam_width`: the limit itself, but at a fixed beam
/// width (whose answer the databases change, not the time) the sets of ample time, an
/// hour, whatever the limit.
///
/// ```
/// use npuzzle::request::{anytime_sets, sets_limit};
/// use std::time::Duration;
/// let seven = "7x7".parse().unwrap();
/// let second = Some(Duration::from_secs(1));
/// assert_eq!(sets_limit(second, None), second);
/// assert_eq!(anytime_sets(seven, sets_limit(second, Some(4096))).len(), 2);
/// ```
pub fn sets_limit(time_limit: Option<Duration>, beam_width: Option<usize>) -> Option<Duration> {
    match beam_width {
        Some(_) => Some(Duration::from_secs(3600)),
        None => time_limit,
    }
}

/// The share of a board's time limit the anytime solver's databases may take to be read
/// from the folder (see `Core::region_pdbs`); past it the board goes without them.
pub const WARM_SHARE: f64 = 0.25;

/// The goal of the anytime solver's last-region databases: the usual 6x6 one.
pub fn region_goal() -> Board {
    let side = crate::search::STAGED_LAST_SIDE;
    Board::solved(Size::new(side, side).expect("a small square"))
}
