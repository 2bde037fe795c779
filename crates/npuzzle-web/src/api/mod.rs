//! The JSON API, a room per job: `request` (the bodies read and checked, the request the
//! core is asked), `solve`, `compare` (each at once or as a stream), `info` (scramble,
//! health); here the state every request shares, the lanes' refusals and the error
//! answers.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use npuzzle::request::{Core, Sources};
use npuzzle::Limits;
use serde_json::json;

use crate::lanes::{Lane, Refused};
use crate::Config;

mod compare;
mod info;
mod request;
mod solve;
mod watch;

pub use compare::{compare, compare_stream};
pub use info::{board, health, scramble};
pub use request::{CompareRequest, SolveRequest};
pub use solve::{solve, solve_stream};
pub use watch::{watch_stream, WatchRequest, WATCH_CELLS};

/// Boards of at most this many cells are solved in the small boards' lane.
const SMALL: usize = 9;

/// What every request shares.
pub struct State {
    config: Config,
    small: Lane,
    large: Lane,
    /// The library's solving core: the preloaded databases, and tables built on use.
    core: Core,
    started: Instant,
}

impl State {
    pub fn new(config: Config) -> State {
        let small = Lane::new(config.workers, config.queue);
        let large = Lane::new(config.workers, (config.queue / 4).max(1));
        // The library's sources, as every face gives them, in the folders the server was
        // given; its one declared difference: a build takes one thread (each lane's search
        // has one), not every core.
        let core = Core::new(Sources {
            pdb_dir: config.pdb_dir.clone(),
            table_dir: config.table_dir.clone(),
            pdbs: config.pdbs.clone(),
            build_threads: 1,
            listener: config.listener.clone(),
            ..Sources::user_cache()
        });
        State {
            config,
            small,
            large,
            core,
            started: Instant::now(),
        }
    }

    fn limits(&self, cancel: &Arc<AtomicBool>, time: std::time::Duration) -> Limits {
        Limits {
            max_memory: self.config.max_memory,
            time_limit: Some(time),
            cancel: Some(cancel.clone()),
            max_nodes: Some(self.config.max_nodes),
            progress: None,
            trace: None,
        }
    }

    fn lane(&self, cells: usize) -> &Lane {
        if cells <= SMALL {
            &self.small
        } else {
            &self.large
        }
    }
}

/// A JSON error answer: `{"error": message}`.
pub fn error(status: StatusCode, message: impl Into<String>) -> Response {
    json_response(status, json!({ "error": message.into() }).to_string())
}

/// A request turned away before any work: its status and what is wrong.
pub struct Rejected(StatusCode, String);

fn reject(status: StatusCode, message: impl Into<String>) -> Rejected {
    Rejected(status, message.into())
}

impl IntoResponse for Rejected {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

fn refused(r: Refused, lane: &Lane) -> Response {
    match r {
        Refused::Busy => {
            let mut resp = error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "busy: {} solves running and {} waiting for boards of this size; try again \
                     in a second",
                    lane.running(),
                    lane.waiting()
                ),
            );
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            resp
        }
        Refused::Panicked => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the search failed unexpectedly (a bug; please report the board)",
        ),
    }
}

/// A request body read as JSON of type `T`, or the 4xx answer saying what is wrong.
fn read_json<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Rejected> {
    let body = body.map_err(|r| {
        let status = r.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "request body too large: expected a small JSON object such as {\"board\": \"8 1 3/4 0 2/7 6 5\"}".to_string()
        } else {
            format!("cannot read the request body: {}", r.body_text())
        };
        reject(status, message)
    })?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(reject(
            StatusCode::BAD_REQUEST,
            "expected a JSON object such as {\"board\": \"8 1 3/4 0 2/7 6 5\"}, found an empty body",
        ));
    }
    serde_json::from_slice(&body).map_err(|e| {
        reject(
            StatusCode::BAD_REQUEST,
            format!("request body: expected a JSON object such as {{\"board\": \"8 1 3/4 0 2/7 6 5\"}}: {e}"),
        )
    })
}

/// The message for a job a lane did not run.
fn refused_text(r: Refused, lane: &Lane) -> String {
    match r {
        Refused::Busy => format!(
            "busy: {} solves running and {} waiting for boards of this size; try again in a \
             second",
            lane.running(),
            lane.waiting()
        ),
        Refused::Panicked => {
            "internal error: the search failed unexpectedly (a bug; please report the board)".into()
        }
    }
}
