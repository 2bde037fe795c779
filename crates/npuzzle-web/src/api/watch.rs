//! Watching a search: the library's breadth-first searches, A* and IDA* run on a small
//! board with a trace hook, each step sent as an event (`layer`, `expand`, `pass`), then
//! the run's counts as the comparison gives them.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use npuzzle::limits::{Trace, TraceHook};
use npuzzle::{Algorithm, Board, HeuristicKind, Limits, Size};
use serde::Deserialize;
use serde_json::json;

use crate::lanes::CancelOnDrop;
use crate::stream;

use super::request::board_and_goal;
use super::{read_json, refused_text, reject, Rejected, State};

/// The most cells a watched board may have (3x3, 3x4, 2x6): the page draws every step.
pub const WATCH_CELLS: usize = 12;

/// A's expansions sent one by one up to this many; past it, one in [`EXPAND_EVERY`].
const EXPAND_ALL: u64 = 1500;
const EXPAND_EVERY: u64 = 64;

/// A watch request: the board, and the search to watch.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchRequest {
    /// The board (at most 12 cells).
    pub board: String,
    /// `WxH`, where the board alone does not tell.
    #[serde(default)]
    pub size: Option<String>,
    /// The goal [default: tiles in order, blank last].
    #[serde(default)]
    pub goal: Option<String>,
    /// bfs, bibfs, astar, idastar or iddfs.
    pub algorithm: String,
    /// For astar and idastar: misplaced, manhattan, linear-conflict or walking-distance
    /// [default: manhattan].
    #[serde(default)]
    pub heuristic: Option<String>,
}

struct Watched {
    board: Board,
    goal: Board,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
}

fn read_watch(body: Result<Bytes, BytesRejection>) -> Result<Watched, Rejected> {
    let bad = |m: String| reject(StatusCode::UNPROCESSABLE_ENTITY, m);
    let req: WatchRequest = read_json(body)?;
    let (board, goal) = board_and_goal(&req.board, req.size.as_deref(), req.goal.as_deref())?;
    if board.size().cells() > WATCH_CELLS {
        return Err(bad(format!(
            "board: expected at most {WATCH_CELLS} cells to watch a search step by step (3x3, \
             3x4, 2x6), found {} ({})",
            board.size().cells(),
            board.size()
        )));
    }
    let algorithm = req
        .algorithm
        .parse::<Algorithm>()
        .map_err(|e| bad(format!("algorithm: {e}")))?;
    let uses_h = matches!(algorithm, Algorithm::Astar | Algorithm::Idastar);
    if !uses_h
        && !matches!(
            algorithm,
            Algorithm::Bfs | Algorithm::Bibfs | Algorithm::Iddfs
        )
    {
        return Err(bad(format!(
            "algorithm: expected bfs, bibfs, astar, idastar or iddfs to watch, found {}",
            algorithm.name()
        )));
    }
    let heuristic = match (&req.heuristic, uses_h) {
        (Some(h), true) => Some(
            h.parse::<HeuristicKind>()
                .map_err(|e| bad(format!("heuristic: {e}")))?,
        ),
        (None, true) => Some(HeuristicKind::Manhattan),
        (Some(_), false) => return Err(bad(format!("heuristic: {} uses none", algorithm.name()))),
        (None, false) => None,
    };
    Ok(Watched {
        board,
        goal,
        algorithm,
        heuristic,
    })
}

/// One trace event as the page reads it.
fn event(t: &Trace<'_>, size: Size) -> Option<String> {
    Some(match *t {
        Trace::Layer {
            side,
            depth,
            states,
            seen,
            expanded,
        } => stream::json_event(
            "layer",
            &json!({ "side": side, "depth": depth, "states": states, "seen": seen, "expanded": expanded }),
        ),
        Trace::Expand {
            cells,
            g,
            h,
            open,
            expanded,
        } => {
            if expanded > EXPAND_ALL && expanded % EXPAND_EVERY != 0 {
                return None;
            }
            let board = Board::from_cells(size, cells.to_vec()).ok()?;
            stream::json_event(
                "expand",
                &json!({ "board": board.to_string(), "g": g, "h": h, "f": g + h, "open": open, "expanded": expanded }),
            )
        }
        Trace::Pass {
            threshold,
            expanded,
            next,
        } => stream::json_event(
            "pass",
            &json!({ "threshold": threshold, "expanded": expanded, "next": next }),
        ),
        _ => return None,
    })
}

/// `POST /api/watch/stream`: one search on a small board, step by step, then its counts.
pub async fn watch_stream(
    Shared(state): Shared<Arc<State>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let job = match read_watch(body) {
        Ok(j) => j,
        Err(r) => return r.into_response(),
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let mut limits = state.limits(&cancel, state.config.compare_time_limit);
    let steps = tx.clone();
    let size = job.board.size();
    let hook: TraceHook = Arc::new(move |t: &Trace<'_>| {
        if let Some(e) = event(t, size) {
            let _ = steps.send(e);
        }
    });
    limits.trace = Some(hook);
    let st = state.clone();
    tokio::spawn(async move {
        let lane = &st.small;
        let out = match lane.run(move || run(&job, &limits)).await {
            Ok(v) => stream::json_event(
                if v["error"].is_null() {
                    "result"
                } else {
                    "error"
                },
                &v,
            ),
            Err(r) => stream::json_event("error", &json!({ "error": refused_text(r, lane) })),
        };
        let _ = tx.send(out);
    });
    stream::Events::new(rx, CancelOnDrop(cancel)).into_response()
}

/// The search (as the library runs a named one), and its counts as a comparison's row.
fn run(job: &Watched, limits: &Limits) -> serde_json::Value {
    let h = job.heuristic.unwrap_or(HeuristicKind::Manhattan);
    super::compare::run_json(&npuzzle::request::Run {
        algorithm: job.algorithm,
        heuristic: job.heuristic.map(|h| h.name().to_string()),
        result: npuzzle::solve(&job.board, &job.goal, job.algorithm, h, limits),
        exact: true,
    })
}
