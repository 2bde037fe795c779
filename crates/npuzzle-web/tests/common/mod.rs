//! A server on an ephemeral loopback port, and a small HTTP/1.1 client for tests.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Starts the server with `config` on its own runtime; returns its address.
pub fn start(config: npuzzle_web::Config) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            npuzzle_web::serve(listener, config, std::future::pending())
                .await
                .unwrap();
        });
    });
    rx.recv_timeout(Duration::from_secs(10)).unwrap()
}

/// An answer: status, headers (names lower-cased), body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One request on a fresh connection.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Answer {
    try_request(addr, method, path, body).unwrap()
}

/// One request on a fresh connection, or why it could not be made or answered (a
/// connection refused, or reset before the answer was read).
pub fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> std::io::Result<Answer> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(120)))?;
    send(&mut s, addr, method, path, body, true);
    read_answer(&mut s)
}

/// Reads one answer from `s`: up to the end of its body by Content-Length (some servers
/// keep the connection open), else to the end of the stream.
pub fn read_answer(s: &mut TcpStream) -> std::io::Result<Answer> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 << 10];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = parse(&raw[..end + 4]);
            if let Some(len) = head
                .header("content-length")
                .and_then(|l| l.parse::<usize>().ok())
            {
                while raw.len() < end + 4 + len {
                    let n = s.read(&mut buf)?;
                    if n == 0 {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            "connection closed inside a body",
                        ));
                    }
                    raw.extend_from_slice(&buf[..n]);
                }
                return Ok(parse(&raw[..end + 4 + len]));
            }
            s.read_to_end(&mut raw)?;
            return Ok(parse(&raw));
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Ok(parse(&raw));
        }
        raw.extend_from_slice(&buf[..n]);
    }
}

/// Writes a request on `s`.
pub fn send(
    s: &mut TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    close: bool,
) {
    let body = body.unwrap_or("");
    let conn = if close { "close" } else { "keep-alive" };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: {conn}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
}

pub fn parse(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, None)
}

pub fn post(addr: SocketAddr, path: &str, body: &str) -> Answer {
    request(addr, "POST", path, Some(body))
}

/// Sends `raw` (a whole request, as written) on a fresh connection and reads the answer.
pub fn raw(addr: SocketAddr, raw: &[u8]) -> Answer {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    s.write_all(raw).unwrap();
    read_answer(&mut s).unwrap()
}
