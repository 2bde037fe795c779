//! The plan: what will run for a request on a board of a size, as a pure function of the
//! two and of what is at hand ([`plan`], every case unit-tested), and which database sets
//! the anytime solver tries for a size and a time limit. No file is read and nothing is
//! searched here: the answer carries the plan out.

use std::time::Duration;

use super::request::{bad, Request, AUTO_BUILD_SECONDS};
use crate::board::{Board, Size};
use crate::error::SearchError;
use crate::search::{self, Algorithm, FAST_FROM};
use crate::sequence::Metric;

/// Where a request's pattern databases come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DatabaseSource {
    /// Given with the request, for the board's goal.
    Given,
    /// Named by the request: loaded, or built within a minute.
    Named,
    /// Auto's choice: the best set cached, or one that builds within
    /// [`build_budget`] seconds.
    Auto,
}

/// The seconds auto's database builds may take for `request`: 60, or the time limit where
/// it is shorter.
///
/// ```
/// use npuzzle::request::{build_budget, Request};
/// use npuzzle::Limits;
/// let ten = Limits { time_limit: Some(std::time::Duration::from_secs(10)), ..Limits::default() };
/// assert_eq!(build_budget(&Request { limits: ten, ..Request::default() }), 10.0);
/// assert_eq!(build_budget(&Request::default()), 60.0);
/// ```
pub fn build_budget(request: &Request) -> f64 {
    request.limits.time_limit.map_or(AUTO_BUILD_SECONDS, |t| {
        t.as_secs_f64().min(AUTO_BUILD_SECONDS)
    })
}

/// The steps of a [`plan`], in order (at most four: kept inline, as a plan is made for
/// every board of a batch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    steps: [Step; 4],
    len: usize,
}

impl Plan {
    fn of(steps: &[Step]) -> Plan {
        let mut p = Plan {
            steps: [Step::Anytime; 4],
            len: 0,
        };
        for &s in steps {
            p.push(s);
        }
        p
    }

    fn push(&mut self, step: Step) {
        self.steps[self.len] = step;
        self.len += 1;
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len]
    }
}

impl<const N: usize> PartialEq<[Step; N]> for Plan {
    fn eq(&self, other: &[Step; N]) -> bool {
        self.steps() == other
    }
}

/// One step of a [`plan`]. Each answers the board, or (where it has nothing to answer
/// with: no databases at hand) passes the board on to the next step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// Every optimal solution, up to the count asked for: IDA* over every path within the
    /// optimum.
    AllSolutions,
    /// Weighted A* or IDA*, without databases.
    Weighted {
        /// A* or IDA*.
        algorithm: Algorithm,
    },
    /// The multi-tile metric's IDA* (with its tables where they serve the goal).
    MultiTile,
    /// Pattern databases from `source`. With `search`, database IDA* (weighted where a
    /// weight is asked for) answers with them, or the fast solver past its time where auto
    /// chose; without, they are only kept for the steps after. Passes where none are at
    /// hand.
    Databases {
        /// Where they come from.
        source: DatabaseSource,
        /// Whether database IDA* runs with them.
        search: bool,
    },
    /// A set named for the fast solver on a size it uses none on: checked, and said to
    /// go unused.
    UnusedSet,
    /// The fast solver with databases: those of the step before, else the set named or
    /// auto's, if cached (none is built for it). Passes where none is at hand.
    FastWithDatabases,
    /// The anytime solver (beams, ranked by the sets at hand) within the time limit.
    Anytime,
    /// The search without databases, per size: a distance table, IDA*, or the quick exact
    /// search and the fast solver past 25 cells; where it runs out, with auto, the fast
    /// solver. With `beams_after` (auto, where no databases were found): the exact
    /// search gets half the time, and beams the rest.
    Search {
        /// Whether beams answer once the exact search has had half the time.
        beams_after: bool,
    },
}

/// What will run for `request` on a board of `size`, step by step (see [`Step`]);
/// `given_for_board`: whether databases given with the request are for the board's goal
/// (others are the anytime solver's). The board's solvability is checked before: an
/// unsolvable board is an answer whatever the plan. A request a board of this size cannot
/// take is an error.
///
/// ```
/// use npuzzle::request::{plan, DatabaseSource, Request, Step};
/// let auto = Request::default();
/// let steps = plan(&auto, "4x4".parse().unwrap(), false).unwrap();
/// assert_eq!(
///     steps,
///     [
///         Step::Databases { source: DatabaseSource::Auto, search: true },
///         Step::Search { beams_after: true },
///     ]
/// );
/// assert_eq!(plan(&auto, "6x6".parse().unwrap(), false).unwrap(), [Step::Anytime]);
/// ```
pub fn plan(request: &Request, size: Size, given_for_board: bool) -> Result<Plan, SearchError> {
    let cells = size.cells();
    let auto = request.algorithm == Algorithm::Auto;
    if request.solutions.is_some() {
        return Ok(Plan::of(&[Step::AllSolutions]));
    }
    if request.beam_width.is_some() && cells < FAST_FROM {
        return Err(bad(
            "beam_width",
            format!(
                "expected a board of {FAST_FROM} cells or more (where auto answers by beams), \
                 found {size} ({cells} cells)"
            ),
        ));
    }
    // Auto's databases: on 16 to 25 cells, unless a heuristic was named.
    let auto_size = (16..FAST_FROM).contains(&cells);
    let auto_pdbs = auto && request.heuristic.is_none() && auto_size;
    let wants_pdb = request.pdb.is_some() || given_for_board;
    if request.weight.is_some()
        && (request.algorithm == Algorithm::Astar || !(wants_pdb || auto_pdbs))
    {
        let algorithm = if request.algorithm == Algorithm::Astar {
            Algorithm::Astar
        } else {
            Algorithm::Idastar
        };
        return Ok(Plan::of(&[Step::Weighted { algorithm }]));
    }
    if request.metric == Metric::Mtm {
        return Ok(Plan::of(&[Step::MultiTile]));
    }
    let fast = request.algorithm == Algorithm::Fast;
    let db_search = auto || request.algorithm == Algorithm::Idastar;
    let source = if given_for_board && (db_search || fast) {
        Some(DatabaseSource::Given)
    } else if request.pdb.is_some() && db_search {
        Some(DatabaseSource::Named)
    } else if auto_pdbs {
        Some(DatabaseSource::Auto)
    } else {
        None
    };
    // Auto on a big board answers by beams: databases named or given for the board rank
    // them, after an exact search with them for a tenth of the time (none at a fixed
    // width).
    let big_auto = answers_by_beams(request, cells);
    let beams_only = big_auto && request.beam_width.is_some();
    let mut steps = Plan::of(&[]);
    if let Some(source) = source {
        steps.push(Step::Databases {
            source,
            search: !fast && !beams_only,
        });
    }
    if fast && !auto_size && request.pdbs.is_none() && request.pdb.is_some() {
        steps.push(Step::UnusedSet);
    }
    if fast && auto_size {
        steps.push(Step::FastWithDatabases);
    }
    if big_auto {
        steps.push(Step::Anytime);
        return Ok(steps);
    }
    steps.push(Step::Search {
        beams_after: auto_pdbs && !request.exact && request.metric == Metric::Stm,
    });
    Ok(steps)
}

/// The share of a board's time that auto's exact search with databases named or given
/// for a board of 26 cells or more gets before the anytime solver's beams take the rest:
/// boards near the goal are proven in it, and the beams, which answer every other board
/// (an exact search on a uniform random 6x6 board runs for hours), lose little. (On a
/// 7x7 board with the 7x7 set at 10 s: 306 moves with a tenth or a half of the time for
/// the exact search, 302 with none.)
pub const BIG_EXACT_SHARE: f64 = 0.1;

/// Whether `request` on a board of `cells` is answered by the anytime solver's beams:
/// auto on [`FAST_FROM`] cells or more, exact answers not required.
pub(super) fn answers_by_beams(request: &Request, cells: usize) -> bool {
    request.algorithm == Algorithm::Auto && cells >= FAST_FROM && !request.exact
}

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
/// region is 6x6 and [`search::region_for`] gives it to databases within the time (6x6 to
/// 8x8, 12x6; 9x9 and 10x10 from [`search::BIG_REGION_FROM`]), the 6x6 set's
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
/// assert_eq!(anytime_sets("10x10".parse().unwrap(), Some(Duration::from_secs(10))).len(), 1);
/// assert!(anytime_sets("16x16".parse().unwrap(), Some(Duration::from_secs(30))).is_empty());
/// ```
pub fn anytime_sets(size: Size, time_limit: Option<Duration>) -> Vec<(Board, bool)> {
    let mut sets = Vec::new();
    if whole_pdbs(size) && time_limit.is_some_and(|t| t >= WHOLE_PDBS_FROM) {
        sets.push((Board::solved(size), true));
    }
    let region = region_goal();
    if search::region_for(size, search::anytime_time(time_limit, None)) == Some(region.size()) {
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
pub(crate) const WARM_SHARE: f64 = 0.25;

/// The goal of the anytime solver's last-region databases: the usual 6x6 one.
pub fn region_goal() -> Board {
    let side = crate::search::STAGED_LAST_SIDE;
    Board::solved(Size::new(side, side).expect("a small square"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::limits::Limits;

    fn size(s: &str) -> Size {
        s.parse().unwrap()
    }

    fn auto() -> Step {
        Step::Databases {
            source: DatabaseSource::Auto,
            search: true,
        }
    }

    /// A databases step.
    fn databases(source: DatabaseSource, search: bool) -> Step {
        Step::Databases { source, search }
    }

    /// A request built from the default one.
    fn r(f: &dyn Fn(&mut Request)) -> Request {
        let mut r = Request::default();
        f(&mut r);
        r
    }

    /// A case: what it is, the request, the board size, whether databases are given, and
    /// the steps it must get.
    type Case = (&'static str, Request, &'static str, bool, Vec<Step>);

    fn check(cases: Vec<Case>) {
        for (what, request, s, given, want) in cases {
            assert_eq!(
                plan(&request, size(s), given).unwrap().steps(),
                want,
                "{what}"
            );
        }
    }

    /// Auto at each size, with and without a time limit, exactness, a heuristic or databases given.
    #[test]
    fn auto_gets_its_steps_at_every_size() {
        let search = Step::Search { beams_after: false };
        check(vec![
            ("auto 3x3", r(&|_| {}), "3x3", false, vec![search]),
            (
                "auto 4x4",
                r(&|_| {}),
                "4x4",
                false,
                vec![auto(), Step::Search { beams_after: true }],
            ),
            (
                "auto 4x4, 10 s",
                r(&|r| {
                    r.limits = Limits {
                        time_limit: Some(Duration::from_secs(10)),
                        ..Limits::default()
                    }
                }),
                "4x4",
                false,
                vec![auto(), Step::Search { beams_after: true }],
            ),
            (
                "auto 4x4, exact",
                r(&|r| r.exact = true),
                "4x4",
                false,
                vec![auto(), search],
            ),
            (
                "auto 5x5",
                r(&|_| {}),
                "5x5",
                false,
                vec![auto(), Step::Search { beams_after: true }],
            ),
            ("auto 6x6", r(&|_| {}), "6x6", false, vec![Step::Anytime]),
            (
                "auto 6x6, exact",
                r(&|r| r.exact = true),
                "6x6",
                false,
                vec![search],
            ),
            (
                "auto 4x4, a heuristic",
                r(&|r| r.heuristic = Some(HeuristicKind::Manhattan)),
                "4x4",
                false,
                vec![search],
            ),
            (
                "auto 6x6, given",
                r(&|_| {}),
                "6x6",
                true,
                vec![databases(DatabaseSource::Given, true), Step::Anytime],
            ),
            (
                "auto 7x7, named, a beam width",
                r(&|r| {
                    r.pdb = Some("auto".into());
                    r.beam_width = Some(64)
                }),
                "7x7",
                false,
                vec![databases(DatabaseSource::Named, false), Step::Anytime],
            ),
            (
                "auto 6x6, given, exact",
                r(&|r| r.exact = true),
                "6x6",
                true,
                vec![databases(DatabaseSource::Given, true), search],
            ),
            (
                "auto 4x4, given",
                r(&|_| {}),
                "4x4",
                true,
                vec![
                    Step::Databases {
                        source: DatabaseSource::Given,
                        search: true,
                    },
                    Step::Search { beams_after: true },
                ],
            ),
        ]);
    }

    /// IDA* with and without named databases, the fast solver, BFS.
    #[test]
    fn named_algorithms_get_their_steps() {
        let search = Step::Search { beams_after: false };
        check(vec![
            (
                "idastar 4x4, named",
                r(&|r| {
                    r.algorithm = Algorithm::Idastar;
                    r.pdb = Some("5-5-5".into())
                }),
                "4x4",
                false,
                vec![
                    Step::Databases {
                        source: DatabaseSource::Named,
                        search: true,
                    },
                    search,
                ],
            ),
            (
                "idastar 4x4",
                r(&|r| r.algorithm = Algorithm::Idastar),
                "4x4",
                false,
                vec![search],
            ),
            (
                "fast 4x4",
                r(&|r| r.algorithm = Algorithm::Fast),
                "4x4",
                false,
                vec![Step::FastWithDatabases, search],
            ),
            (
                "fast 4x4, given",
                r(&|r| r.algorithm = Algorithm::Fast),
                "4x4",
                true,
                vec![
                    Step::Databases {
                        source: DatabaseSource::Given,
                        search: false,
                    },
                    Step::FastWithDatabases,
                    search,
                ],
            ),
            (
                "fast 3x3, named",
                r(&|r| {
                    r.algorithm = Algorithm::Fast;
                    r.pdb = Some("1,2,3/4,5,6/7,8".into())
                }),
                "3x3",
                false,
                vec![Step::UnusedSet, search],
            ),
            (
                "fast 6x6",
                r(&|r| r.algorithm = Algorithm::Fast),
                "6x6",
                false,
                vec![search],
            ),
            (
                "bfs 3x3",
                r(&|r| r.algorithm = Algorithm::Bfs),
                "3x3",
                false,
                vec![search],
            ),
        ]);
    }

    /// Several solutions, weighted searches, the multi-tile metric.
    #[test]
    fn solutions_weights_and_metrics_get_their_steps() {
        check(vec![
            (
                "several solutions",
                r(&|r| r.solutions = Some(3)),
                "4x4",
                false,
                vec![Step::AllSolutions],
            ),
            (
                "weighted, no databases",
                r(&|r| {
                    r.weight = Some(2.0);
                    r.heuristic = Some(HeuristicKind::Manhattan)
                }),
                "4x4",
                false,
                vec![Step::Weighted {
                    algorithm: Algorithm::Idastar,
                }],
            ),
            (
                "weighted A*",
                r(&|r| {
                    r.weight = Some(2.0);
                    r.algorithm = Algorithm::Astar
                }),
                "4x4",
                false,
                vec![Step::Weighted {
                    algorithm: Algorithm::Astar,
                }],
            ),
            (
                "weighted auto 4x4",
                r(&|r| r.weight = Some(2.0)),
                "4x4",
                false,
                vec![auto(), Step::Search { beams_after: true }],
            ),
            (
                "weighted auto 3x3",
                r(&|r| r.weight = Some(2.0)),
                "3x3",
                false,
                vec![Step::Weighted {
                    algorithm: Algorithm::Idastar,
                }],
            ),
            (
                "multi-tile",
                r(&|r| r.metric = Metric::Mtm),
                "4x4",
                false,
                vec![Step::MultiTile],
            ),
        ]);
    }

    /// A beam width on a board too small for beams is refused, naming the field.
    #[test]
    fn a_beam_width_needs_a_board_for_beams() {
        let beams = r(&|r| r.beam_width = Some(8));
        assert!(matches!(
            plan(&beams, size("5x5"), false),
            Err(SearchError::BadRequest {
                field: "beam_width",
                ..
            })
        ));
        assert_eq!(plan(&beams, size("6x6"), false).unwrap(), [Step::Anytime]);
    }
}
