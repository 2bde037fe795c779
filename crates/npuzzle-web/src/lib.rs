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
mod guard;
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

pub use api::{CompareRequest, SolveRequest, WatchRequest, WATCH_CELLS};

/// The page, served at `/`: its markup; its style and scripts are [`ASSETS`].
pub const PAGE: &str = include_str!("../assets/index.html");

/// The page's style and scripts, served under `/assets/` from the binary (no build step,
/// nothing fetched from elsewhere): the path, the content type, the contents. The scripts
/// are modules by job: the board's rules (`board.js`), answers bound to their board
/// (`answer.js`), the API (`net.js`), drawing (`view.js`), solving and playback
/// (`solve.js`), comparison (`compare.js`), the hand solve's clock and session
/// (`timer.js`, `session.js`), watching a search step by step (`watch.js`,
/// `watching.js`), the shared state (`state.js`) and the wiring (`main.js`).
pub const ASSETS: &[(&str, &str, &str)] = &[
    ("page.css", CSS, include_str!("../assets/page.css")),
    ("js/main.js", JS, include_str!("../assets/js/main.js")),
    ("js/state.js", JS, include_str!("../assets/js/state.js")),
    ("js/board.js", JS, include_str!("../assets/js/board.js")),
    ("js/answer.js", JS, include_str!("../assets/js/answer.js")),
    ("js/net.js", JS, include_str!("../assets/js/net.js")),
    ("js/view.js", JS, include_str!("../assets/js/view.js")),
    ("js/solve.js", JS, include_str!("../assets/js/solve.js")),
    ("js/compare.js", JS, include_str!("../assets/js/compare.js")),
    ("js/timer.js", JS, include_str!("../assets/js/timer.js")),
    ("js/session.js", JS, include_str!("../assets/js/session.js")),
    ("js/watch.js", JS, include_str!("../assets/js/watch.js")),
    (
        "js/watching.js",
        JS,
        include_str!("../assets/js/watching.js"),
    ),
];

const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

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
    /// Largest request body in bytes [default: 16 KiB]: a larger `Content-Length` is
    /// answered 413 before anything is read.
    pub body_limit: usize,
    /// Time a client may take to send a request's body once its headers are in [default:
    /// 10 s]; past it the answer is 408 and the connection is closed.
    pub body_timeout: Duration,
    /// Connections served at once [default: 256]; past it a new connection is answered
    /// 503 and closed.
    pub max_connections: usize,
    /// Time a client may leave an answer unread before its connection is closed
    /// [default: [`WRITE_TIMEOUT`]].
    pub write_timeout: Duration,
    /// Host names the server answers besides the loopback ones (`localhost`,
    /// `127.0.0.1`, `[::1]`) and the address it listens on; `*` answers any. A request
    /// naming another host is refused (403): a page on another site that rebinds its name
    /// to this machine cannot use the server.
    pub allowed_hosts: Vec<String>,
    /// Pattern databases loaded once and shared by every request: per goal, the
    /// partition's name (`7-8`) and the databases.
    pub pdbs: Vec<(Board, String, Arc<PdbHeuristic>)>,
    /// Where the library finds (and saves) pattern databases [default: none: nothing is
    /// read or saved; `npuzzle serve` gives the user's folder, as every face does].
    pub pdb_dir: Option<std::path::PathBuf>,
    /// Where the library finds (and saves) distance tables [default: none; `npuzzle
    /// serve` gives the user's cache folder].
    pub table_dir: Option<std::path::PathBuf>,
    /// Told of the library's notes (a database built or refused, a table left out) and
    /// of its builds' progress [default: none; `npuzzle serve` prints them on its
    /// standard error, in the command line's words].
    pub listener: Option<npuzzle::request::Listener>,
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
            body_timeout: Duration::from_secs(10),
            max_connections: 256,
            write_timeout: WRITE_TIMEOUT,
            allowed_hosts: Vec::new(),
            pdbs: Vec::new(),
            pdb_dir: None,
            table_dir: None,
            listener: None,
        }
    }
}

/// The application: every route, sharing one state, behind the guard (docs/server.md):
/// requests must name this server in `Host` (a loopback name, or one of
/// [`Config::allowed_hosts`]) and come from its own page or from a program (`Origin`),
/// POST bodies must be JSON within [`Config::body_limit`] and [`Config::body_timeout`],
/// and a panic while answering is that request's 500.
pub fn router(config: Config) -> Router {
    router_at(config, None)
}

/// [`router`] for a server listening on `local`: its address is answered in `Host` too
/// (an address that is every interface's answers any address literal).
fn router_at(config: Config, local: Option<std::net::SocketAddr>) -> Router {
    let body_limit = config.body_limit;
    let mut hosts: Vec<String> = config
        .allowed_hosts
        .iter()
        .map(|h| h.trim().trim_end_matches('.').to_ascii_lowercase())
        .collect();
    if let Some(a) = local.filter(|a| !a.ip().is_unspecified()) {
        hosts.push(a.ip().to_string());
    }
    let policy = Arc::new(guard::Policy {
        hosts,
        any_ip: local.is_some_and(|a| a.ip().is_unspecified()),
        body_limit,
        body_timeout: config.body_timeout,
    });
    let state = Arc::new(api::State::new(config));
    Router::new()
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/assets/{*file}", get(asset))
        .route("/api/health", get(api::health))
        .route("/api/scramble", get(api::scramble))
        .route("/api/board", post(api::board))
        .route("/api/solve", post(api::solve))
        .route("/api/compare", post(api::compare))
        .route("/api/solve/stream", post(api::solve_stream))
        .route("/api/compare/stream", post(api::compare_stream))
        .route("/api/watch/stream", post(api::watch_stream))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(policy, guard::guard))
}

/// How long a client may take to send a request's headers once it has connected (or
/// between two requests on one connection): a client that sends part of them and stops
/// is disconnected then, instead of holding a connection open for ever.
pub const HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a connection may leave the server's answer unread (a write that cannot go on
/// because the client reads nothing): past it the connection is closed, so a client that
/// stops reading does not hold its place for ever.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection's stream whose writes fail once one has waited [`WRITE_TIMEOUT`] for the
/// client to read.
struct Stalls<S> {
    inner: S,
    /// When a write started waiting, and the timer that wakes it then.
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
    timeout: Duration,
}

impl<S> Stalls<S> {
    /// `Ready(Err)` once a write has waited too long; arms the timer on a first wait.
    fn check(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<()>> {
        let timeout = self.timeout;
        let sleep = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match sleep.as_mut().poll(cx) {
            std::task::Poll::Ready(()) => std::task::Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing of the answer in time",
            ))),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }

    /// A write's outcome: a wait checked against the timeout, progress disarming it.
    fn after<T>(
        &mut self,
        cx: &mut std::task::Context<'_>,
        r: std::task::Poll<std::io::Result<T>>,
    ) -> std::task::Poll<std::io::Result<T>> {
        match r {
            std::task::Poll::Pending => match self.check(cx) {
                std::task::Poll::Ready(Err(e)) => std::task::Poll::Ready(Err(e)),
                _ => std::task::Poll::Pending,
            },
            done => {
                self.waiting = None;
                done
            }
        }
    }
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Stalls<S> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Stalls<S> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let r = std::pin::Pin::new(&mut self.inner).poll_write(cx, buf);
        self.after(cx, r)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let r = std::pin::Pin::new(&mut self.inner).poll_flush(cx);
        self.after(cx, r)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let r = std::pin::Pin::new(&mut self.inner).poll_shutdown(cx);
        self.after(cx, r)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let r = std::pin::Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.after(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Serves [`router`] on `listener` until `shutdown` completes; solves under way then
/// finish first (for at most the server's time limit and a header timeout more: a client
/// that holds its connection open does not hold the server). Each connection must send its
/// headers within [`HEADER_TIMEOUT`] and read its answers: a write the client leaves
/// waiting for [`WRITE_TIMEOUT`] closes the connection.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let connections = Arc::new(tokio::sync::Semaphore::new(config.max_connections.max(1)));
    let drain = config.time_limit.saturating_add(HEADER_TIMEOUT);
    let write_timeout = config.write_timeout;
    let app = router_at(config, listener.local_addr().ok());
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
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            tokio::spawn(turn_away(stream));
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .serve_connection(
                TokioIo::new(Stalls {
                    inner: stream,
                    waiting: None,
                    timeout: write_timeout,
                }),
                service,
            );
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _held = permit;
            let _ = conn.await;
        });
    }
    // No more connections: the port is closed at once, and the solves under way are given
    // their time to end.
    drop(listener);
    let _ = tokio::time::timeout(drain, graceful.shutdown()).await;
    Ok(())
}

/// Answers a connection past [`Config::max_connections`]: 503 and closed, without
/// reading its request (within a second).
async fn turn_away(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let body = "{\"error\":\"busy: too many connections open; try again in a second\"}";
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
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

async fn asset(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    match ASSETS.iter().find(|(path, _, _)| *path == file) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            *body,
        )
            .into_response(),
        None => api::error(
            StatusCode::NOT_FOUND,
            format!(
                "no such file: /assets/{}",
                file.chars().take(100).collect::<String>()
            ),
        ),
    }
}

async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    let path = uri.path();
    let allowed = if path.starts_with("/api/solve")
        || path.starts_with("/api/compare")
        || path.starts_with("/api/watch")
        || path == "/api/board"
    {
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
            "no such page: {}; the API is /api/health, /api/scramble, /api/board, /api/solve and \
             /api/compare",
            uri.path()
        ),
    )
}
