//! Server-sent events: a solve or a comparison that tells the page how it goes (the bound
//! proven, the nodes, each search of a comparison as it ends) and ends with its answer. A
//! client that closes the stream (the page's Cancel, another board) cancels the search.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::lanes::CancelOnDrop;

/// One event in the stream's text form.
pub fn event(name: &str, data: &str) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// One event whose data is a JSON value.
pub fn json_event(name: &str, data: &Value) -> String {
    event(name, &data.to_string())
}

/// The events a job sends, as a response body; dropping it (the client went away) sets
/// the job's cancel flag.
pub struct Events {
    rx: UnboundedReceiver<String>,
    _cancel: CancelOnDrop,
}

impl Events {
    /// The stream of `rx`, cancelling through `cancel` when dropped.
    pub fn new(rx: UnboundedReceiver<String>, cancel: CancelOnDrop) -> Events {
        Events {
            rx,
            _cancel: cancel,
        }
    }

    /// The response: `text/event-stream`, not cached.
    pub fn into_response(self) -> Response {
        (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/event-stream"),
                ),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            Body::from_stream(self),
        )
            .into_response()
    }
}

impl futures_core::Stream for Events {
    type Item = Result<String, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.rx.poll_recv(cx).map(|e| e.map(Ok))
    }
}
