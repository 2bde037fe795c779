//! What every request passes before a handler sees it: the server answers only its own
//! page (the `Host` and `Origin` checks), takes JSON only as JSON, reads bodies within a
//! size and a deadline, and turns a panic in a handler into that request's 500.
//!
//! The threat (docs/server.md): a web page in the user's browser, on another site, that
//! sends requests to the local server: a form post or a `fetch` with a "simple" content
//! type (sent without asking the user), or a DNS name of its own rebound to 127.0.0.1 so
//! that the browser calls the server same-origin and lets the page read the answers.

use std::future::Future;
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use crate::api::error;

/// Which requests the guard lets through, and how long and large their bodies may be.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Host names (lower case, without a port) the server answers besides the loopback
    /// ones; `*` answers every name.
    pub hosts: Vec<String>,
    /// Whether a `Host` that is an IP address literal is answered whatever the address (a
    /// server bound to every interface): a literal address cannot be rebound.
    pub any_ip: bool,
    /// The largest body, in bytes.
    pub body_limit: usize,
    /// How long a client may take to send a body once its headers are in.
    pub body_timeout: Duration,
}

impl Policy {
    /// Whether `host` (a `Host` header's name part, lower case, brackets removed from an
    /// IPv6 address) names this server.
    fn host_allowed(&self, host: &str) -> bool {
        if host == "localhost" || host.ends_with(".localhost") {
            return true;
        }
        if let Ok(ip) = host.parse::<IpAddr>() {
            if ip.is_loopback() || self.any_ip {
                return true;
            }
        }
        self.hosts.iter().any(|h| h == "*" || h == host)
    }
}

/// Splits an authority (`name[:port]`, `[v6][:port]`) into its name (lower case, without
/// brackets) and its port, if any; `None` for one that is not a plain authority.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let a = authority.trim();
    if a.is_empty() || a.contains(['/', '@', ' ', '\\', '?', '#']) {
        return None;
    }
    let (name, port) = if let Some(rest) = a.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        match after {
            "" => (v6, None),
            p => (v6, Some(p.strip_prefix(':')?)),
        }
    } else {
        match a.rsplit_once(':') {
            Some((n, p)) if !n.contains(':') => (n, Some(p)),
            Some(_) => return None,
            None => (a, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    if name.is_empty() {
        return None;
    }
    Some((name.trim_end_matches('.').to_ascii_lowercase(), port))
}

/// A header's value as text, if it is there and is text.
fn text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// A request refused before its handler: the status and what is wrong.
#[derive(Debug)]
struct Refusal(StatusCode, String);

impl Refusal {
    fn response(self) -> Response {
        error(self.0, self.1)
    }
}

/// The refusal of a request from elsewhere: 403 and what was found.
fn forbidden(message: String) -> Refusal {
    Refusal(StatusCode::FORBIDDEN, message)
}

/// Checks `Host`, `Origin` and `Sec-Fetch-Site`: the request comes from the server's own
/// page or from a program, never from another site's page.
fn check_origin(
    policy: &Policy,
    headers: &HeaderMap,
    uri: &axum::http::Uri,
) -> Result<(), Refusal> {
    let path = uri.path();
    // One of each: a second Host or Origin could say something else than the first.
    for name in [header::HOST, header::ORIGIN, header::CONTENT_TYPE] {
        if headers.get_all(&name).iter().count() > 1 {
            return Err(Refusal(
                StatusCode::BAD_REQUEST,
                format!("{name}: expected one, found several"),
            ));
        }
    }
    // A request line naming a host (`GET http://name/path`) must name an allowed one too.
    if let Some(authority) = uri.authority() {
        let name = split_authority(authority.as_str()).map(|(n, _)| n);
        if !name.as_deref().is_some_and(|n| policy.host_allowed(n)) {
            return Err(forbidden(format!(
                "request line: this server answers requests to 127.0.0.1, localhost and the \
                 address it listens on, found {:?}",
                authority.as_str()
            )));
        }
    }
    let Some(host) = text(headers, header::HOST) else {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            "expected a Host header naming the server (such as 127.0.0.1:8080), found none".into(),
        ));
    };
    let Some((name, _)) = split_authority(host) else {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            format!("Host: expected a name and a port such as 127.0.0.1:8080, found {host:?}"),
        ));
    };
    if !policy.host_allowed(&name) {
        return Err(forbidden(format!(
            "Host: this server answers requests to 127.0.0.1, localhost and the address it \
             listens on, found {host:?} (a page on another site may be trying to use it; to \
             reach the server by this name, start it with --allow-host {name})"
        )));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let same = origin
            .strip_prefix("http://")
            .and_then(split_authority)
            .zip(split_authority(host))
            .is_some_and(|((on, op), (hn, hp))| on == hn && op.unwrap_or(80) == hp.unwrap_or(80));
        if !same {
            return Err(forbidden(format!(
                "Origin: this server answers its own page, http://{host}, found a request from \
                 {origin:?}"
            )));
        }
    } else if path != "/"
        && path != "/index.html"
        && text(headers, header::HeaderName::from_static("sec-fetch-site"))
            .is_some_and(|s| s.eq_ignore_ascii_case("cross-site"))
    {
        // A browser's request from another site that carries no Origin (an image, a
        // script tag, a link): only the page itself may be opened that way.
        return Err(forbidden(format!(
            "{path}: this server answers its own page, found a request from another site"
        )));
    }
    Ok(())
}

/// Checks a body's declared type and length before any of it is read.
fn check_body_head(policy: &Policy, method: &Method, headers: &HeaderMap) -> Result<(), Refusal> {
    if method == Method::POST {
        let ty = text(headers, header::CONTENT_TYPE).unwrap_or("");
        let essence = ty.split(';').next().unwrap_or("").trim();
        if !essence.eq_ignore_ascii_case("application/json") {
            return Err(Refusal(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "Content-Type: expected application/json, found {}",
                    if ty.is_empty() {
                        "none".to_string()
                    } else {
                        format!("{ty:?}")
                    }
                ),
            ));
        }
    }
    if let Some(len) = headers.get(header::CONTENT_LENGTH) {
        let len = len.to_str().ok().and_then(|l| l.trim().parse::<u64>().ok());
        match len {
            Some(n) if n > policy.body_limit as u64 => {
                return Err(Refusal(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "request body too large: expected at most {} bytes (a small JSON object \
                         such as {{\"board\": \"8 1 3/4 0 2/7 6 5\"}}), found a Content-Length of {n}",
                        policy.body_limit
                    ),
                ))
            }
            Some(_) => {}
            None => {
                return Err(Refusal(
                    StatusCode::BAD_REQUEST,
                    "Content-Length: expected a number of bytes".into(),
                ))
            }
        }
    }
    Ok(())
}

/// Reads a request's body whole, within the policy's size and deadline.
async fn read_body(policy: &Policy, body: Body) -> Result<axum::body::Bytes, Response> {
    match tokio::time::timeout(
        policy.body_timeout,
        axum::body::to_bytes(body, policy.body_limit),
    )
    .await
    {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            Err(if too_large {
                error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "request body too large: expected at most {} bytes",
                        policy.body_limit
                    ),
                )
            } else {
                error(
                    StatusCode::BAD_REQUEST,
                    format!("cannot read the request body: {e}"),
                )
            })
        }
        Err(_) => Err(error(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "request body: expected it within {} s of the headers; the connection is closed",
                policy.body_timeout.as_secs_f64()
            ),
        )),
    }
}

/// The guard, as axum middleware: the checks above, then the handler with its body read,
/// a panic in it answered 500.
pub async fn guard(State(policy): State<Arc<Policy>>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    if let Err(r) = check_origin(&policy, &parts.headers, &parts.uri) {
        return r.response();
    }
    if let Err(r) = check_body_head(&policy, &parts.method, &parts.headers) {
        return r.response();
    }
    let body = match read_body(&policy, body).await {
        Ok(b) => b,
        Err(mut r) => {
            // The client may still be sending: the connection ends with this answer.
            r.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            return r;
        }
    };
    let req = Request::from_parts(parts, Body::from(body));
    let mut run = Box::pin(next.run(req));
    let caught = std::future::poll_fn(|cx| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| run.as_mut().poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(r)) => Poll::Ready(Ok(r)),
            Err(_) => Poll::Ready(Err(())),
        }
    })
    .await;
    caught.unwrap_or_else(|()| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the request failed unexpectedly (a bug; please report it with the \
             request); the server goes on",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy {
            hosts: vec!["puzzle.lan".into()],
            any_ip: false,
            body_limit: 100,
            body_timeout: Duration::from_secs(1),
        }
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    #[test]
    fn authorities_split_into_name_and_port() {
        assert_eq!(
            split_authority("127.0.0.1:8080"),
            Some(("127.0.0.1".into(), Some(8080)))
        );
        assert_eq!(
            split_authority("LocalHost."),
            Some(("localhost".into(), None))
        );
        assert_eq!(split_authority("[::1]:80"), Some(("::1".into(), Some(80))));
        assert_eq!(split_authority("[::1]"), Some(("::1".into(), None)));
        for bad in ["", ":80", "a:b", "a:99999", "a/b", "x@y:1", "::1", "[::1]x"] {
            assert_eq!(split_authority(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_loopback_the_bound_names_and_its_own_origin_pass() {
        let p = policy();
        let api: axum::http::Uri = "/api/solve".parse().unwrap();
        let ok = |h: &[(&str, &str)]| check_origin(&p, &headers(h), &api).is_ok();
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "127.9.9.9",
            "a.localhost:1",
            "puzzle.lan:8080",
        ] {
            assert!(ok(&[("host", host)]), "{host}");
        }
        for host in [
            "evil.example:8080",
            "10.0.0.5:8080",
            "localhost.evil.example",
        ] {
            assert!(!ok(&[("host", host)]), "{host}");
        }
        assert!(!ok(&[]));
        let host = ("host", "127.0.0.1:8080");
        assert!(ok(&[host, ("origin", "http://127.0.0.1:8080")]));
        for origin in [
            "http://evil.example",
            "http://localhost:8080",
            "http://127.0.0.1:8081",
            "https://127.0.0.1:8080",
            "null",
            "",
        ] {
            assert!(!ok(&[host, ("origin", origin)]), "{origin}");
        }
        assert!(!ok(&[host, ("sec-fetch-site", "cross-site")]));
        assert!(ok(&[host, ("sec-fetch-site", "same-origin")]));
        // The page itself may be opened from a link on another site.
        let root: axum::http::Uri = "/".parse().unwrap();
        assert!(check_origin(
            &p,
            &headers(&[host, ("sec-fetch-site", "cross-site")]),
            &root
        )
        .is_ok());
        // Bound to every interface: any address literal, still no other name.
        let any = Policy {
            any_ip: true,
            ..policy()
        };
        assert!(check_origin(&any, &headers(&[("host", "10.0.0.5:8080")]), &root).is_ok());
        assert!(check_origin(&any, &headers(&[("host", "evil.example")]), &root).is_err());
        // Two Hosts (the first allowed), and a request line naming another host.
        assert!(!ok(&[host, ("host", "evil.example")]));
        let absolute: axum::http::Uri = "http://evil.example/api/solve".parse().unwrap();
        assert!(check_origin(&p, &headers(&[host]), &absolute).is_err());
        let own: axum::http::Uri = "http://127.0.0.1:8080/api/solve".parse().unwrap();
        assert!(check_origin(&p, &headers(&[host]), &own).is_ok());
    }

    #[test]
    fn bodies_are_json_and_small() {
        let p = policy();
        let check = |m: Method, h: &[(&str, &str)]| {
            check_body_head(&p, &m, &headers(h)).map_err(|r| r.0.as_u16())
        };
        let json = ("content-type", "application/json; charset=utf-8");
        assert_eq!(
            check(Method::POST, &[json, ("content-length", "100")]),
            Ok(())
        );
        assert_eq!(
            check(Method::POST, &[json, ("content-length", "101")]),
            Err(413)
        );
        assert_eq!(
            check(Method::POST, &[json, ("content-length", "x")]),
            Err(400)
        );
        assert_eq!(
            check(Method::POST, &[("content-type", "text/plain")]),
            Err(415)
        );
        assert_eq!(check(Method::POST, &[]), Err(415));
        assert_eq!(check(Method::GET, &[]), Ok(()));
    }
}
