//! `npuzzle serve`: the page and the JSON API on a local web server.

use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::Args as ClapArgs;
use npuzzle::Board;

use crate::opts::{parse_bytes, parse_duration};
use crate::{Fail, IO, OK};

/// A database set loaded for every request: its goal, its partition and the databases.
type Loaded = (Board, String, Arc<npuzzle::heuristic::pdb::PdbHeuristic>);

/// Serve a page to play, solve and compare searches in the browser, and a JSON API.
///
/// The page and the API are served from this binary; nothing is fetched from the
/// network. Pattern databases for 4x4 are loaded once if they are cached (or built at
/// the start when --pdb names them) and shared by every request.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle serve                       # http://127.0.0.1:8080/\n  npuzzle serve --bind 127.0.0.1:0    # any free port (printed)\n  npuzzle serve --pdb 7-8             # build the 4x4 databases first if missing\n\nAPI (docs/server.md):\n  GET  /api/health\n  GET  /api/scramble?size=4x4[&seed=S][&moves=K]\n  POST /api/board    {\"board\": \"8 1 3/4 0 2/7 6 5\"}\n  POST /api/solve    {\"board\": \"8 1 3/4 0 2/7 6 5\", \"algorithm\": \"auto\"}\n  POST /api/compare  {\"board\": \"8 1 3/4 0 2/7 6 5\"}\n  POST /api/solve/stream, /api/compare/stream, /api/watch/stream (server-sent events)"
)]
pub struct Args {
    /// Address to listen on; anything but loopback lets other machines use the server.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Solves run at once for each lane (small boards, large boards) [default: all cores].
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true)]
    pub workers: usize,
    /// Solves that may wait behind the running ones (for large boards a quarter of it);
    /// past it requests get 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub queue: usize,
    /// Time each search may take, e.g. 10s, 500ms.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_duration)]
    pub time_limit: Duration,
    /// Nodes each search may expand.
    #[arg(long, value_name = "N", default_value_t = 500_000_000)]
    pub max_nodes: u64,
    /// Memory each search may use, e.g. 512M.
    #[arg(long, value_name = "BYTES", default_value = "512M", value_parser = parse_bytes)]
    pub max_memory: u64,
    /// 4x4 pattern databases to use: 7-8, 6-6-3 or 5-5-5, built at the start if missing
    /// [default: the largest set already cached, none built].
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Where pattern databases are kept [default: $NPUZZLE_PDB_DIR, else the cache directory].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// How database files are loaded: read or auto (both read them into the server's own
    /// memory: a server never maps a file that another program could cut short under it).
    #[arg(long, value_name = "HOW", default_value = "auto")]
    pub pdb_load: npuzzle::heuristic::pdb::Load,
    /// A host name the server also answers to (repeat for more; `*` for any), besides
    /// localhost, 127.0.0.1, `[::1]` and the address it listens on. Requests naming any other
    /// host are refused, so that no other site's page can reach the server.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Connections served at once; past it new ones are answered 503.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections: usize,
}

/// Checks the options, loads the databases at hand and serves until Ctrl-C.
pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let addr = check(&args)?;
    let dir = crate::pdbs::pdb_dir(&args.pdb_dir)?;
    let pdbs = databases(&args, dir.as_deref())?;
    let config = npuzzle_web::Config {
        workers: npuzzle::limits::resolve_threads(args.workers),
        queue: args.queue,
        time_limit: args.time_limit,
        max_nodes: args.max_nodes,
        max_memory: args.max_memory,
        max_connections: args.max_connections,
        allowed_hosts: args.allow_hosts,
        pdbs,
        // The library's folders, as for every face: what a request builds is saved there.
        pdb_dir: dir,
        table_dir: npuzzle::request::cache_dir(),
        listener: Some(crate::pdbs::listener()),
        ..npuzzle_web::Config::default()
    };
    serve(addr, config, out)
}

/// The address to listen on, once every option is checked: limits that would refuse
/// every solve are refused here instead.
fn check(args: &Args) -> Result<SocketAddr, Fail> {
    let addr = args
        .bind
        .to_socket_addrs()
        .map_err(|e| {
            Fail::input(format!(
                "--bind: expected an address such as 127.0.0.1:8080, found {:?}: {e}",
                args.bind
            ))
        })?
        .next()
        .ok_or_else(|| {
            Fail::input(format!(
                "--bind: expected an address such as 127.0.0.1:8080, found {:?} (it names no address)",
                args.bind
            ))
        })?;
    if args.workers > 1024 {
        return Err(Fail::input(format!(
            "--workers: expected at most 1024, found {}",
            args.workers
        )));
    }
    if args.pdb_load == npuzzle::heuristic::pdb::Load::Map {
        return Err(Fail::input(
            "--pdb-load: expected auto or read, found map (a file another program cuts short \
             while it is mapped would end the server)",
        ));
    }
    if args.time_limit.is_zero() {
        return Err(Fail::input(
            "--time-limit: expected a time above 0 (every solve would stop at once), found 0",
        ));
    }
    if args.max_nodes == 0 {
        return Err(Fail::input(
            "--max-nodes: expected at least 1 (every solve would stop at once), found 0",
        ));
    }
    if args.max_memory < 1 << 20 {
        return Err(Fail::input(format!(
            "--max-memory: expected at least 1M (every search would stop at once), found {} bytes",
            args.max_memory
        )));
    }
    if !(1..=65_536).contains(&args.max_connections) {
        return Err(Fail::input(format!(
            "--max-connections: expected from 1 to 65536, found {}",
            args.max_connections
        )));
    }
    for h in &args.allow_hosts {
        let ok = h == "*"
            || (!h.is_empty()
                && h.len() <= 253
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b)));
        if !ok {
            return Err(Fail::input(format!(
                "--allow-host: expected a host name such as puzzle.lan (no port), or *, found {}",
                crate::opts::quote_short(h)
            )));
        }
    }
    Ok(addr)
}

/// The databases every request shares: the 4x4 set (`--pdb`, built if missing, else the
/// best one cached), and the anytime solver's sets if cached.
fn databases(args: &Args, dir: Option<&Path>) -> Result<Vec<Loaded>, Fail> {
    let goal = Board::solved(npuzzle::Size::square(4).expect("4x4"));
    let pdbs = match &args.pdb {
        Some(spec) => {
            let h = crate::pdbs::heuristic(
                &goal,
                spec,
                &npuzzle::Limits::default(),
                dir,
                args.pdb_load,
            )?;
            crate::note!("npuzzle: 4x4 pattern databases {spec} loaded");
            vec![(goal, spec.clone(), Arc::new(h))]
        }
        None => {
            let core = crate::pdbs::core(dir, args.pdb_load);
            let found = npuzzle::request::preferred_sets(goal.size())
                .iter()
                .find_map(|spec| core.cached_pdbs(&goal, spec).map(|h| (spec, h)));
            match found {
                Some((spec, h)) => {
                    crate::note!("npuzzle: 4x4 pattern databases {spec} loaded from the cache");
                    vec![(goal, spec.to_string(), Arc::new(h))]
                }
                None => {
                    crate::note!(
                        "npuzzle: no 4x4 pattern databases cached: as every face does, the first \
                         4x4 board builds auto's small set where it fits the time limit (and \
                         saves it), else is solved without; `npuzzle serve --pdb 7-8` builds \
                         the strongest first (about 2 minutes, 1.5 GB)"
                    );
                    Vec::new()
                }
            }
        }
    };
    // The anytime solver's sets, if cached (never built), loaded once here: the 6x6 set
    // (the last 6x6 region of boards of at most 100 cells, or where it is half the board or
    // more: `region_for` with no clock; used at any limit once in memory) and,
    // with a time limit of 5 s or more, the 7x7 set (a 7x7 board whole; 1.8 GB): those it
    // may use on a 7x7 board within the server's limit.
    let mut pdbs = pdbs;
    let seven = npuzzle::Size::square(7).expect("7x7");
    for (set, _) in npuzzle::request::anytime_sets(seven, Some(args.time_limit)) {
        if let Some(h) = crate::pdbs::core(dir, args.pdb_load).cached_pdbs(&set, "auto") {
            let size = set.size();
            crate::note!(
                "npuzzle: {size} pattern databases loaded from the cache (the anytime solver's)"
            );
            pdbs.push((set, "auto".to_string(), Arc::new(h)));
        }
    }
    Ok(pdbs)
}

/// Listens on `addr` and serves until Ctrl-C, printing the address first.
fn serve(addr: SocketAddr, config: npuzzle_web::Config, out: &mut impl Write) -> Result<u8, Fail> {
    let flag = crate::opts::interrupt_flag();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Fail {
            code: IO,
            message: format!("cannot start the server's runtime: {e}"),
        })?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Fail {
                code: IO,
                message: format!("cannot listen on {addr}: {e}"),
            })?;
        let local = listener.local_addr()?;
        if !local.ip().is_loopback() {
            crate::note!(
                "npuzzle: warning: listening on {local}, not loopback: anyone who can reach this \
                 machine can use the server (there is no authentication); requests must name \
                 it by address{}",
                if config.allowed_hosts.is_empty() {
                    " (--allow-host NAME for a name)".to_string()
                } else {
                    format!(" or as {}", config.allowed_hosts.join(", "))
                }
            );
        }
        writeln!(out, "http://{local}/")?;
        out.flush()?;
        crate::note!("npuzzle: serving http://{local}/ (Ctrl-C to stop)");
        let shutdown = async move {
            while !flag.load(std::sync::atomic::Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        npuzzle_web::serve(listener, config, shutdown).await?;
        crate::note!("npuzzle: server stopped");
        Ok(OK)
    })
}
