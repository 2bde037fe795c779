//! Solving: a board's answer, at once or as a stream of progress.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use npuzzle::report::Report;
use npuzzle::{Limits, SearchError};
use serde_json::json;

use crate::lanes::CancelOnDrop;
use crate::stream;

use super::request::{read_job, request, Job};
use super::{json_response, refused, refused_text, State};

/// A search that gave no answer: its message, and the lower bound it proved if any.
pub(super) struct Failed {
    message: String,
    lower_bound: Option<u32>,
}

impl From<SearchError> for Failed {
    fn from(e: SearchError) -> Failed {
        // (A stopped database build's depth is no bound on the board.)
        Failed {
            message: e.to_string(),
            lower_bound: e.proven_bound(),
        }
    }
}

/// Runs one solve (on a blocking thread): the library's answer, as the CLI gives it.
pub(super) fn run_solve(state: &State, job: &Job, limits: &Limits) -> Result<Report, Failed> {
    Ok(state.core.answer(&job.board, &request(job, limits))?.report)
}

/// Test builds with the `fault-injection` feature only: a request with the header
/// `x-npuzzle-fault: panic-handler` panics in its handler, `panic-search` in its search,
/// so that tests can show a panic is that request's 500 in a release build.
pub(super) fn inject_fault(headers: &axum::http::HeaderMap) -> bool {
    let fault = if cfg!(feature = "fault-injection") {
        headers.get("x-npuzzle-fault").and_then(|v| v.to_str().ok())
    } else {
        None
    };
    if fault == Some("panic-handler") {
        panic!("fault injected in the handler");
    }
    fault == Some("panic-search")
}

pub async fn solve(
    Shared(state): Shared<Arc<State>>,
    headers: axum::http::HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let job = match read_job(body) {
        Ok(j) => j,
        Err(r) => return r.into_response(),
    };
    let panic_in_search = inject_fault(&headers);
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_if_gone = CancelOnDrop(cancel.clone());
    let limits = state.limits(&cancel, state.config.time_limit);
    let lane = state.lane(job.board.size().cells());
    let st = state.clone();
    match lane
        .run(move || {
            if panic_in_search {
                panic!("fault injected in the search");
            }
            run_solve(&st, &job, &limits)
        })
        .await
    {
        Ok(Ok(report)) => json_response(StatusCode::OK, report.to_json()),
        Ok(Err(f)) => json_response(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({ "error": f.message, "lower_bound": f.lower_bound }).to_string(),
        ),
        Err(r) => refused(r, lane),
    }
}

/// `POST /api/solve/stream`: the solve of `/api/solve` as server-sent events: `progress`
/// (`{"algorithm", "bound", "expanded", "best", "seconds"}`: after each pass, and about ten times
/// a second), then `result` (the answer) or `error` (`{"error", "lower_bound"}`). Closing
/// the stream cancels the search.
pub async fn solve_stream(
    Shared(state): Shared<Arc<State>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let job = match read_job(body) {
        Ok(j) => j,
        Err(r) => return r.into_response(),
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let mut limits = state.limits(&cancel, state.config.time_limit);
    let progress = tx.clone();
    let last = std::sync::Mutex::new(None::<Instant>);
    limits.progress = Some(Arc::new(move |p: &npuzzle::limits::SearchProgress| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if p.bound.is_none() && last.is_some_and(|t| t.elapsed().as_millis() < 100) {
            return;
        }
        *last = Some(Instant::now());
        let _ = progress.send(stream::json_event(
            "progress",
            &json!({
                "algorithm": p.algorithm,
                "bound": p.bound,
                "expanded": p.expanded,
                "best": p.best,
                "seconds": p.elapsed.as_secs_f64(),
            }),
        ));
    }));
    let st = state.clone();
    tokio::spawn(async move {
        let lane = st.lane(job.board.size().cells());
        let s2 = st.clone();
        let out = match lane.run(move || run_solve(&s2, &job, &limits)).await {
            Ok(Ok(report)) => stream::event("result", &report.to_json()),
            Ok(Err(f)) => stream::json_event(
                "error",
                &json!({ "error": f.message, "lower_bound": f.lower_bound }),
            ),
            Err(r) => stream::json_event("error", &json!({ "error": refused_text(r, lane) })),
        };
        let _ = tx.send(out);
    });
    stream::Events::new(rx, CancelOnDrop(cancel)).into_response()
}
