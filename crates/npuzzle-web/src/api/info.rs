//! The scramble and health routes.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State as Shared};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use npuzzle::{Board, Notation, Size};
use serde::Deserialize;
use serde_json::json;

use crate::lanes::Lane;

use super::request::read_boards;
use super::{error, json_response, refused, State};

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

/// `POST /api/board`: a board read by the library's rules (any form the CLI reads, every
/// size from 2x2 to 16x16), as the page checks what is pasted or linked: the board in one
/// line, its size, its tiles row by row, the goal, and whether it can reach it; 422 with
/// the library's words otherwise.
pub async fn board(body: Result<Bytes, BytesRejection>) -> Response {
    let (board, goal) = match read_boards(body) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    json_response(
        StatusCode::OK,
        json!({
            "board": board.to_string(),
            "size": board.size().to_string(),
            "width": board.size().width(),
            "height": board.size().height(),
            "cells": board.cells(),
            "goal": goal.to_string(),
            "goal_cells": goal.cells(),
            // (Sizes checked with the goal as it was read.)
            "solvable": npuzzle::is_solvable(&board, &goal).unwrap_or(false),
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
