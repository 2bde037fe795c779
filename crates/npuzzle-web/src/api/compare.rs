//! Comparison: every search on one board, at once or as a stream.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use npuzzle::{Board, Limits, SearchError};
use serde_json::{json, Value};

use crate::lanes::CancelOnDrop;
use crate::stream;

use super::request::read_boards;
use super::{error, json_response, refused, refused_text, State};

/// One run of a comparison as the API writes it.
pub(super) fn run_json(r: &npuzzle::request::Run) -> Value {
    match &r.result {
        Ok(sol) => json!({
            "algorithm": r.algorithm.name(),
            "heuristic": r.heuristic,
            "exact": r.exact,
            "length": sol.len(),
            "expanded": sol.stats.expanded,
            "generated": sol.stats.generated,
            "peak_stored": sol.stats.peak_stored,
            "seconds": sol.stats.elapsed.as_secs_f64(),
            "error": null,
        }),
        Err(e) => json!({
            "algorithm": r.algorithm.name(),
            "heuristic": r.heuristic,
            "exact": r.exact,
            "length": null,
            "expanded": match e { SearchError::TimeLimit { expanded, .. } => Some(*expanded), _ => None },
            "generated": match e { SearchError::TimeLimit { generated, .. } => Some(*generated), _ => None },
            "peak_stored": null,
            "seconds": null,
            "error": e.to_string(),
        }),
    }
}

/// Runs every applicable search on one board (on a blocking thread): the library's
/// comparison, with the preloaded databases for the goal; `each` hears every run as it
/// ends.
pub(super) fn run_compare(
    state: &State,
    board: &Board,
    goal: &Board,
    limits: &Limits,
    each: &mut dyn FnMut(Value),
) -> Value {
    let c = state
        .core
        .compare(board, goal, limits, &mut |r| each(run_json(r)));
    let runs: Vec<Value> = c.runs.iter().map(run_json).collect();
    json!({
        "board": board.to_string(),
        "goal": goal.to_string(),
        "solvable": c.solvable,
        "length": c.length,
        "runs": runs,
        "disagree": c.disagree.map(|a| a.name()),
    })
}

pub async fn compare(
    Shared(state): Shared<Arc<State>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let (board, goal) = match read_boards(body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_if_gone = CancelOnDrop(cancel.clone());
    let limits = state.limits(&cancel, state.config.compare_time_limit);
    // A comparison runs a dozen searches: always in the large boards' lane.
    let lane = &state.large;
    let st = state.clone();
    match lane
        .run(move || run_compare(&st, &board, &goal, &limits, &mut |_| {}))
        .await
    {
        Ok(mut v) if v["disagree"].is_null() => {
            if let Some(o) = v.as_object_mut() {
                o.remove("disagree");
            }
            json_response(StatusCode::OK, v.to_string())
        }
        Ok(v) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!(
                "internal error: {} disagrees on the optimal length (a bug; please report the board)",
                v["disagree"]
            ),
        ),
        Err(r) => refused(r, lane),
    }
}

/// `POST /api/compare/stream`: the comparison of `/api/compare` as server-sent events:
/// `run` for each search as it ends (a row of `runs`), then `result` (the whole answer) or
/// `error`. Closing the stream cancels the comparison.
pub async fn compare_stream(
    Shared(state): Shared<Arc<State>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let (board, goal) = match read_boards(body) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = state.limits(&cancel, state.config.compare_time_limit);
    let st = state.clone();
    tokio::spawn(async move {
        let lane = &st.large;
        let (s2, rows) = (st.clone(), tx.clone());
        let out = match lane
            .run(move || {
                run_compare(&s2, &board, &goal, &limits, &mut |row| {
                    let _ = rows.send(stream::json_event("run", &row));
                })
            })
            .await
        {
            Ok(mut v) if v["disagree"].is_null() => {
                if let Some(o) = v.as_object_mut() {
                    o.remove("disagree");
                }
                stream::json_event("result", &v)
            }
            Ok(v) => stream::json_event(
                "error",
                &json!({ "error": format!("internal error: {} disagrees on the optimal length (a bug; please report the board)", v["disagree"]) }),
            ),
            Err(r) => stream::json_event("error", &json!({ "error": refused_text(r, lane) })),
        };
        let _ = tx.send(out);
    });
    stream::Events::new(rx, CancelOnDrop(cancel)).into_response()
}
