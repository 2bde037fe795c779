//! Requests read and checked: the JSON bodies, a solve's job, and the request the core is asked.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use npuzzle::request::Request;
use npuzzle::sequence::Metric;
use npuzzle::{Algorithm, Board, HeuristicKind, Limits, Notation, Size};
use serde::Deserialize;

use super::{read_json, reject, Rejected};

/// A solve request: the board and, optionally, how to solve it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The board, in any form the CLI reads (`8 1 3/4 0 2/7 6 5`, `813402765`, grid lines).
    pub board: String,
    /// `WxH`, where the board alone does not tell.
    #[serde(default)]
    pub size: Option<String>,
    /// The goal [default: tiles in order, blank last].
    #[serde(default)]
    pub goal: Option<String>,
    /// auto, bfs, bibfs, astar, iddfs, idastar, table or fast [default: auto].
    #[serde(default)]
    pub algorithm: Option<String>,
    /// misplaced, manhattan, linear-conflict or walking-distance.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// tile, blank or tiles [default: tile].
    #[serde(default)]
    pub notation: Option<String>,
    /// stm or mtm [default: stm].
    #[serde(default)]
    pub metric: Option<String>,
    /// A weight from 1 to 100 for weighted IDA*.
    #[serde(default)]
    pub weight: Option<f64>,
    /// Up to this many optimal solutions (1 to 1000), listed in `solutions`.
    #[serde(default)]
    pub solutions: Option<usize>,
    /// Seconds the search may take, at most the server's own limit.
    #[serde(default)]
    pub time_limit: Option<f64>,
    /// The anytime solver's beams at this one width (1 to 1048576; auto on boards of 26
    /// cells or more), within the time limit.
    #[serde(default)]
    pub beam_width: Option<usize>,
    /// Proven-optimal answers only: auto never answers with the fast solver [default:
    /// false].
    #[serde(default)]
    pub exact: Option<bool>,
    /// A partition of pattern databases (`7-8`, `6-6-3`, `1,2,3/4,5,6`): loaded from the
    /// server's database folder, or built within the time limit.
    #[serde(default)]
    pub pdb: Option<String>,
}

/// A compare request: the board, and its size and goal where needed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// The board.
    pub board: String,
    /// `WxH`, where the board alone does not tell.
    #[serde(default)]
    pub size: Option<String>,
    /// The goal [default: tiles in order, blank last].
    #[serde(default)]
    pub goal: Option<String>,
}

/// A request's board and goal, checked.
pub(super) fn board_and_goal(
    board: &str,
    size: Option<&str>,
    goal: Option<&str>,
) -> Result<(Board, Board), Rejected> {
    let bad = |m: String| reject(StatusCode::UNPROCESSABLE_ENTITY, m);
    let size = size
        .map(|s| s.parse::<Size>().map_err(|e| bad(format!("size: {e}"))))
        .transpose()?;
    let board = Board::parse(board, size).map_err(|e| bad(format!("board: {e}")))?;
    let goal = match goal {
        Some(g) => {
            let g = Board::parse(g, Some(board.size())).map_err(|e| bad(format!("goal: {e}")))?;
            // The library's one size check, in the API's words.
            npuzzle::parity::check_sizes(&board, &g).map_err(|_| {
                bad(format!(
                    "goal: expected a {} board to match the board, found a {} one",
                    board.size(),
                    g.size()
                ))
            })?;
            g
        }
        None => Board::solved(board.size()),
    };
    Ok((board, goal))
}

/// A solve request checked: everything the search needs.
pub(super) struct Job {
    pub(super) board: Board,
    pub(super) goal: Board,
    pub(super) algorithm: Algorithm,
    pub(super) heuristic: Option<HeuristicKind>,
    pub(super) notation: Notation,
    pub(super) metric: Metric,
    pub(super) weight: Option<f64>,
    pub(super) solutions: Option<usize>,
    pub(super) time_limit: Option<std::time::Duration>,
    pub(super) beam_width: Option<usize>,
    pub(super) exact: bool,
    pub(super) pdb: Option<String>,
}

pub(super) fn job(req: &SolveRequest) -> Result<Job, Rejected> {
    let bad = |m: String| reject(StatusCode::UNPROCESSABLE_ENTITY, m);
    let (board, goal) = board_and_goal(&req.board, req.size.as_deref(), req.goal.as_deref())?;
    let algorithm = match &req.algorithm {
        Some(a) => a
            .parse::<Algorithm>()
            .map_err(|e| bad(format!("algorithm: {e}")))?,
        None => Algorithm::Auto,
    };
    let heuristic = req
        .heuristic
        .as_deref()
        .map(|h| {
            h.parse::<HeuristicKind>()
                .map_err(|e| bad(format!("heuristic: {e}")))
        })
        .transpose()?;
    let notation = match &req.notation {
        Some(n) => n
            .parse::<Notation>()
            .map_err(|e| bad(format!("notation: {e}")))?,
        None => Notation::Tile,
    };
    let metric = match &req.metric {
        Some(m) => m
            .parse::<Metric>()
            .map_err(|e| bad(format!("metric: {e}")))?,
        None => Metric::Stm,
    };
    let time_limit = match req.time_limit {
        Some(t) if t >= 0.0 && t.is_finite() => {
            Some(std::time::Duration::from_secs_f64(t.min(1e6)))
        }
        Some(t) => {
            return Err(bad(format!(
                "time_limit: expected a number of seconds, found {t}"
            )))
        }
        None => None,
    };
    let job = Job {
        board,
        goal,
        algorithm,
        heuristic,
        notation,
        metric,
        weight: req.weight,
        solutions: req.solutions,
        time_limit,
        beam_width: req.beam_width,
        exact: req.exact.unwrap_or(false),
        pdb: req.pdb.clone(),
    };
    // Options that do not go together are refused before the request takes a place in
    // a lane, in the library's words (the field named as in the request).
    request(&job, &Limits::default())
        .check()
        .map_err(|e| bad(e.to_string()))?;
    Ok(job)
}

/// A solve request's body read and checked (the 4xx answer if not).
pub(super) fn read_job(body: Result<Bytes, BytesRejection>) -> Result<Job, Rejected> {
    job(&read_json::<SolveRequest>(body)?)
}

/// A compare request's body read: its board and goal, checked (the 4xx answer if not).
pub(super) fn read_boards(body: Result<Bytes, BytesRejection>) -> Result<(Board, Board), Rejected> {
    let req: CompareRequest = read_json(body)?;
    board_and_goal(&req.board, req.size.as_deref(), req.goal.as_deref())
}

/// The library's request for a checked job, within `limits`: one thread a search (the
/// lanes run several searches at once).
pub(super) fn request(job: &Job, limits: &Limits) -> Request {
    Request {
        goal: Some(job.goal.clone()),
        algorithm: job.algorithm,
        heuristic: job.heuristic,
        weight: job.weight,
        metric: job.metric,
        notation: job.notation,
        solutions: job.solutions,
        limits: Limits {
            time_limit: match (limits.time_limit, job.time_limit) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            ..limits.clone()
        },
        threads: 1,
        beam_width: job.beam_width,
        exact: job.exact,
        pdb: job.pdb.clone(),
        ..Request::default()
    }
}
