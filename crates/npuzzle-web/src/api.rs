//! The JSON API: requests read and checked, searches run in their lane, answers written.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State as Shared};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use npuzzle::report::Report;
use npuzzle::request::{Core, Request, Sources};
use npuzzle::sequence::Metric;
use npuzzle::{Algorithm, Board, HeuristicKind, Limits, Notation, SearchError, Size};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::lanes::{CancelOnDrop, Lane, Refused};
use crate::stream;
use crate::Config;

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
fn board_and_goal(
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
struct Job {
    board: Board,
    goal: Board,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
    notation: Notation,
    metric: Metric,
    weight: Option<f64>,
    solutions: Option<usize>,
    time_limit: Option<std::time::Duration>,
    beam_width: Option<usize>,
}

fn job(req: &SolveRequest) -> Result<Job, Rejected> {
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
    };
    // Options that do not go together are refused before the request takes a place in
    // a lane, in the library's words (the field named as in the request).
    request(&job, &Limits::default())
        .check()
        .map_err(|e| bad(e.to_string()))?;
    Ok(job)
}

/// A solve request's body read and checked (the 4xx answer if not).
fn read_job(body: Result<Bytes, BytesRejection>) -> Result<Job, Rejected> {
    job(&read_json::<SolveRequest>(body)?)
}

/// A compare request's body read: its board and goal, checked (the 4xx answer if not).
fn read_boards(body: Result<Bytes, BytesRejection>) -> Result<(Board, Board), Rejected> {
    let req: CompareRequest = read_json(body)?;
    board_and_goal(&req.board, req.size.as_deref(), req.goal.as_deref())
}

/// A search that gave no answer: its message, and the lower bound it proved if any.
struct Failed {
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

/// The library's request for a checked job, within `limits`: one thread a search (the
/// lanes run several searches at once).
fn request(job: &Job, limits: &Limits) -> Request {
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
        ..Request::default()
    }
}

/// Runs one solve (on a blocking thread): the library's answer, as the CLI gives it.
fn run_solve(state: &State, job: &Job, limits: &Limits) -> Result<Report, Failed> {
    Ok(state.core.answer(&job.board, &request(job, limits))?.report)
}

/// Test builds with the `fault-injection` feature only: a request with the header
/// `x-npuzzle-fault: panic-handler` panics in its handler, `panic-search` in its search,
/// so that tests can show a panic is that request's 500 in a release build.
fn inject_fault(headers: &axum::http::HeaderMap) -> bool {
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

/// One run of a comparison as the API writes it.
fn run_json(r: &npuzzle::request::Run) -> Value {
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
            "generated": null,
            "peak_stored": null,
            "seconds": null,
            "error": e.to_string(),
        }),
    }
}

/// Runs every applicable search on one board (on a blocking thread): the library's
/// comparison, with the preloaded databases for the goal; `each` hears every run as it
/// ends.
fn run_compare(
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

/// The query of `GET /api/scramble`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScrambleQuery {
    size: Option<String>,
    seed: Option<u64>,
    moves: Option<usize>,
    goal: Option<String>,
}

pub async fn scramble(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<ScrambleQuery>, QueryRejection>,
) -> Response {
    let bad = |m: String| error(StatusCode::UNPROCESSABLE_ENTITY, m);
    let q = match query {
        Ok(Query(q)) => q,
        Err(r) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "query: expected size=WxH with optional seed (a number), moves (a number) and \
                     goal: {}",
                    r.body_text()
                ),
            )
        }
    };
    let size = match q.size.as_deref().map(str::parse::<Size>).transpose() {
        Ok(s) => s,
        Err(e) => return bad(format!("size: {e}")),
    };
    let goal = match (&q.goal, size) {
        (Some(g), s) => match Board::parse(g, s) {
            Ok(g) if s.is_some_and(|s| s != g.size()) => {
                return bad(format!(
                    "goal: expected a {} board, found a {} one",
                    s.expect("checked"),
                    g.size()
                ))
            }
            Ok(g) => g,
            Err(e) => return bad(format!("goal: {e}")),
        },
        (None, Some(s)) => Board::solved(s),
        (None, None) => {
            return bad("size: expected a size such as size=4x4 (or a goal), found none".into())
        }
    };
    if let Some(k) = q.moves {
        if let Err(e) = npuzzle::scramble::check_walk(k) {
            return bad(format!("moves: {e}"));
        }
    }
    let seed = q.seed.unwrap_or_else(npuzzle::scramble::fresh_seed);
    // A long walk on a big board takes milliseconds: in the small boards' lane, as any
    // work, never on the server's own threads.
    let moves = q.moves;
    let lane = &state.small;
    let drawn = lane
        .run(move || {
            let mut rng = npuzzle::scramble::Rng::new(seed);
            match moves {
                Some(k) => npuzzle::scramble::walk(&goal, k, &mut rng).map(|(b, m)| {
                    let text = Notation::Tile.format(&goal, &m);
                    (goal, b, Some(text))
                }),
                None => Ok((
                    goal.clone(),
                    npuzzle::scramble::uniform(&goal, &mut rng),
                    None,
                )),
            }
        })
        .await;
    let (goal, board, walk) = match drawn {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => return bad(format!("moves: {e}")),
        Err(r) => return refused(r, lane),
    };
    json_response(
        StatusCode::OK,
        json!({
            "board": board.to_string(),
            "size": board.size().to_string(),
            "goal": goal.to_string(),
            // A string: JavaScript numbers hold integers exactly only up to 2^53.
            "seed": seed.to_string(),
            "moves": walk,
        })
        .to_string(),
    )
}

pub async fn health(Shared(state): Shared<Arc<State>>) -> Response {
    let c = &state.config;
    let lane = |l: &Lane| json!({ "running": l.running(), "waiting": l.waiting() });
    let pdbs: Vec<String> = state
        .config
        .pdbs
        .iter()
        .map(|(g, _, _)| g.to_string())
        .collect();
    json_response(
        StatusCode::OK,
        json!({
            "status": "ok",
            "version": env!("CARGO_PKG_VERSION"),
            "uptime_seconds": state.started.elapsed().as_secs_f64(),
            "solves": { "small_boards": lane(&state.small), "large_boards": lane(&state.large) },
            "pattern_databases": pdbs,
            // Where this face differs from the library's defaults, declared: its limits per
            // request, one thread a search and a build, its lanes and its folders.
            "configuration": {
                "time_limit_seconds": c.time_limit.as_secs_f64(),
                "compare_time_limit_seconds": c.compare_time_limit.as_secs_f64(),
                "max_nodes": c.max_nodes,
                "max_memory": c.max_memory,
                "threads_per_search": 1,
                "build_threads": 1,
                "workers": c.workers,
                "queue": c.queue,
                "body_limit": c.body_limit,
                "max_connections": c.max_connections,
                "pdb_dir": c.pdb_dir.as_ref().map(|d| d.display().to_string()),
                "table_dir": c.table_dir.as_ref().map(|d| d.display().to_string()),
            },
        })
        .to_string(),
    )
}
