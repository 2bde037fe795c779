//! # npuzzle-web
//!
//! The HTTP side of npuzzle: one page embedded in the binary (play, scramble, solve and
//! watch, compare the searches) and a JSON API over the library, on axum and tokio.
//!
//! | route | what it does |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/health` | `{"status":"ok", ...}` with the solves running and waiting |
//! | `GET /api/scramble?size=4x4[&seed=S][&moves=K][&goal=B]` | a uniform scramble (or a walk of K moves) |
//! | `POST /api/solve` | `{"board": "8 1 3/4 0 2/7 6 5", "algorithm": "auto"}`: the fields of `npuzzle solve --json` |
//! | `POST /api/compare` | every applicable search on one board: length, nodes, time |
//!
//! Solving runs on blocking threads, never on the runtime's workers, in two lanes: boards
//! of at most 9 cells in one, everything else in the other, so cheap 3x3 solves are never
//! queued behind slow ones. Each lane runs a bounded number of solves at once with a
//! bounded queue behind them; past it the answer is 503 with `Retry-After`. Each search
//! has a time limit, a node budget and a memory limit; a client that goes away cancels
//! its search.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! npuzzle_web::serve(listener, npuzzle_web::Config::default(), std::future::pending()).await
//! # }
//! ```

mod api;
mod lanes;
mod stream;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use npuzzle::heuristic::pdb::PdbHeuristic;
use npuzzle::Board;

pub use api::{CompareRequest, SolveRequest};

/// The page, served at `/`.
pub const PAGE: &str = include_str!("../assets/index.html");

/// How the server runs: the solves it admits and the limits each one gets.
#[derive(Clone)]
pub struct Config {
    /// Solves run at once in each lane (small boards, large boards) [default: the cores].
    pub workers: usize,
    /// Solves that may wait in each lane behind the running ones [default: 64 for small
    /// boards' lane; a quarter of it for large boards'].
    pub queue: usize,
    /// Time each search may take [default: 10 s].
    pub time_limit: Duration,
    /// Time each search of a comparison may take [default: 2 s].
    pub compare_time_limit: Duration,
    /// Nodes each search may expand [default: 500 million].
    pub max_nodes: u64,
    /// Memory each search may use [default: 512 MiB].
    pub max_memory: u64,
    /// Largest request body in bytes [default: 16 KiB].
    pub body_limit: usize,
    /// Pattern databases loaded once and shared by every request: per goal, the
    /// partition's name (`7-8`) and the databases.
    pub pdbs: Vec<(Board, String, Arc<PdbHeuristic>)>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            workers: npuzzle::limits::resolve_threads(0),
            queue: 64,
            time_limit: Duration::from_secs(10),
            compare_time_limit: Duration::from_secs(2),
            max_nodes: 500_000_000,
            max_memory: 512 << 20,
            body_limit: 16 << 10,
            pdbs: Vec::new(),
        }
    }
}

/// The application: every route, sharing one state.
pub fn router(config: Config) -> Router {
    let body_limit = config.body_limit;
    let state = Arc::new(api::State::new(config));
    Router::new()
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/api/health", get(api::health))
        .route("/api/scramble", get(api::scramble))
        .route("/api/solve", post(api::solve))
        .route("/api/compare", post(api::compare))
        .route("/api/solve/stream", post(api::solve_stream))
        .route("/api/compare/stream", post(api::compare_stream))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// How long a client may take to send a request's headers once it has connected (or
/// between two requests on one connection): a client that sends part of them and stops
/// is disconnected then, instead of holding a connection open for ever.
pub const HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Serves [`router`] on `listener` until `shutdown` completes; solves under way then
/// finish first. Each connection must send its headers within [`HEADER_TIMEOUT`].
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let app = router(config);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait a moment, keep serving.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
        });
    }
    graceful.shutdown().await;
    Ok(())
}

async fn page() -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        PAGE,
    )
        .into_response()
}

async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    let path = uri.path();
    let allowed = if path.starts_with("/api/solve") || path.starts_with("/api/compare") {
        "POST"
    } else {
        "GET"
    };
    api::error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} answers {allowed} requests, found {method}", uri.path()),
    )
}

async fn not_found(uri: axum::http::Uri) -> Response {
    api::error(
        StatusCode::NOT_FOUND,
        format!(
            "no such page: {}; the API is /api/health, /api/scramble, /api/solve and /api/compare",
            uri.path()
        ),
    )
}
