//! The solving core: one [`Request`] and one board in, one [`Answer`] out. Every face
//! (the CLI, the server, Python) turns its options into a request and prints the answer,
//! so the same question gets the same answer everywhere; all policy lives here: what
//! `auto` runs on each size, which cached databases it uses and what it may build within
//! the time left, anytime answers with the bound proved, and the fast fallback.
//!
//! A [`Core`] holds what boards share: where databases and tables are kept
//! ([`Sources`]), and those already loaded or built, behind `Arc`s, so any number of
//! threads answer boards through one core without copies.
//!
//! ```
//! use npuzzle::request::{Core, Request, Sources};
//! use npuzzle::{Algorithm, Board};
//!
//! let core = Core::new(Sources::default());
//! let board: Board = "8 1 3/4 0 2/7 6 5".parse()?;
//! let answer = core.answer(&board, &Request::default())?;
//! assert_eq!(answer.report.length, Some(14));
//! assert_eq!(answer.report.optimal, Some(true));
//!
//! // Options that do not go together are refused, naming the request's field.
//! let bad = Request { algorithm: Algorithm::Bfs, weight: Some(2.0), ..Request::default() };
//! let e = core.answer(&board, &bad).unwrap_err();
//! assert!(e.to_string().starts_with("weight:"), "{e}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Progress and cancel travel with the request's limits: the hook hears the bound each
//! pass proves, and the flag stops the search (from any thread) with that bound.
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use std::sync::{Arc, Mutex};
//! use npuzzle::limits::SearchProgress;
//! use npuzzle::request::{Core, Request, Sources};
//! use npuzzle::{Algorithm, Board, HeuristicKind, Limits, SearchError};
//!
//! let board: Board = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0".parse()?;
//! let cancel = Arc::new(AtomicBool::new(false));
//! let bounds = Arc::new(Mutex::new(Vec::new()));
//! let (seen, stop) = (bounds.clone(), cancel.clone());
//! let progress = Arc::new(move |p: &SearchProgress| {
//!     if let Some(b) = p.bound {
//!         seen.lock().unwrap().push(b);
//!     }
//!     if p.bound.is_some_and(|b| b >= 60) {
//!         stop.store(true, Ordering::Relaxed); // enough: cancel
//!     }
//! });
//! let request = Request {
//!     algorithm: Algorithm::Idastar,
//!     heuristic: Some(HeuristicKind::Manhattan),
//!     limits: Limits { cancel: Some(cancel), progress: Some(progress), ..Limits::default() },
//!     ..Request::default()
//! };
//! match Core::new(Sources::default()).answer(&board, &request) {
//!     Err(SearchError::TimeLimit { lower_bound, .. }) => assert!(lower_bound >= 60),
//!     other => panic!("expected the search to be cancelled, found {other:?}"),
//! }
//! let bounds = bounds.lock().unwrap();
//! assert!(bounds.windows(2).all(|w| w[0] < w[1]) && *bounds.last().unwrap() >= 60);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answer;
mod compare;
mod core;
mod databases;
mod plan;
#[allow(clippy::module_inception)]
mod request;
mod solve;
mod sources;
mod tables;

pub use compare::*;
pub use core::*;
pub use databases::*;
pub use plan::*;
pub use request::*;
pub use solve::solve;
pub use sources::*;
pub use tables::*;
