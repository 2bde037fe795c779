//! The server answers its own page and programs, never another site's page: `Host`,
//! `Origin`, content type, body size and deadline, connection cap; a panic while
//! answering is that request's 500 (the `fault-injection` feature, on in test builds).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{get, raw, start};

const BOARD: &str = r#"{"board": "8 1 3/4 0 2/7 6 5"}"#;

fn solve_with(addr: std::net::SocketAddr, headers: &str, body: &str) -> common::Answer {
    let req = format!(
        "POST /api/solve HTTP/1.1\r\n{headers}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, req.as_bytes())
}

#[test]
fn another_sites_page_cannot_drive_the_server() {
    let addr = start(npuzzle_web::Config::default());
    let port = addr.port();
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    let json = "Content-Type: application/json\r\n";
    // The page's own requests and a program's (no Origin) are answered.
    let own = format!("{host}{json}Origin: http://127.0.0.1:{port}\r\n");
    assert_eq!(solve_with(addr, &own, BOARD).status, 200);
    assert_eq!(
        solve_with(addr, &format!("{host}{json}"), BOARD).status,
        200
    );
    for name in ["localhost", "[::1]"] {
        let h = format!("Host: {name}:{port}\r\n{json}");
        assert_eq!(solve_with(addr, &h, BOARD).status, 200, "{name}");
    }
    // Another site's page: a "simple" request any page may send without asking.
    let a = solve_with(
        addr,
        &format!("{host}Origin: http://evil.example\r\nContent-Type: text/plain\r\n"),
        BOARD,
    );
    assert_eq!(a.status, 403, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("evil.example"));
    // Its Origin alone is refused, whatever the content type.
    let a = solve_with(
        addr,
        &format!("{host}{json}Origin: http://evil.example\r\n"),
        BOARD,
    );
    assert_eq!(a.status, 403, "{}", a.body);
    // A name rebound to 127.0.0.1 (DNS rebinding): the request is same-origin for the
    // browser, but the Host names the other site.
    let rebound =
        format!("Host: evil.example:{port}\r\n{json}Origin: http://evil.example:{port}\r\n");
    let a = solve_with(addr, &rebound, BOARD);
    assert_eq!(a.status, 403, "{}", a.body);
    let msg = a.json()["error"].as_str().unwrap().to_string();
    assert!(msg.contains("--allow-host evil.example"), "{msg}");
    // Not even the page or the health check are given to it.
    for path in ["/", "/api/health", "/api/scramble?size=3x3"] {
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: evil.example:{port}\r\nConnection: close\r\n\r\n"
        );
        assert_eq!(raw(addr, req.as_bytes()).status, 403, "{path}");
    }
    // An image or script tag on another site (no Origin; the browser says cross-site).
    let req = format!(
        "GET /api/scramble?size=3x3 HTTP/1.1\r\n{host}Sec-Fetch-Site: cross-site\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(raw(addr, req.as_bytes()).status, 403);
    // A link from another site opens the page.
    let req =
        format!("GET / HTTP/1.1\r\n{host}Sec-Fetch-Site: cross-site\r\nConnection: close\r\n\r\n");
    assert_eq!(raw(addr, req.as_bytes()).status, 200);
    // No Host at all (HTTP/1.0 style): refused with what was expected.
    let a = raw(addr, b"GET /api/health HTTP/1.0\r\n\r\n");
    assert_eq!(a.status, 400, "{}", a.body);
}

#[test]
fn a_name_the_user_allows_is_answered() {
    let addr = start(npuzzle_web::Config {
        allowed_hosts: vec!["Puzzle.LAN".into()],
        ..npuzzle_web::Config::default()
    });
    let h = format!(
        "Host: puzzle.lan:{}\r\nContent-Type: application/json\r\n",
        addr.port()
    );
    assert_eq!(solve_with(addr, &h, BOARD).status, 200);
}

#[test]
fn bodies_must_be_json_small_and_sent_in_time() {
    let addr = start(npuzzle_web::Config {
        body_timeout: Duration::from_secs(1),
        ..npuzzle_web::Config::default()
    });
    let host = format!("Host: 127.0.0.1:{}\r\n", addr.port());
    for ty in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let a = solve_with(addr, &format!("{host}Content-Type: {ty}\r\n"), BOARD);
        assert_eq!(a.status, 415, "{ty}: {}", a.body);
        assert!(a.json()["error"]
            .as_str()
            .unwrap()
            .contains("application/json"));
    }
    let a = solve_with(addr, &host, BOARD);
    assert_eq!(a.status, 415, "no content type: {}", a.body);
    // 50 MB announced: refused before any of it is sent.
    let req = format!(
        "POST /api/solve HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
    );
    let a = raw(addr, req.as_bytes());
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("50000000"));
    // A body that never comes whole: 408 once the body deadline passes, and the
    // connection is closed (the test's own read would wait two minutes).
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"board\""
    );
    s.write_all(head.as_bytes()).unwrap();
    let a = common::read_answer(&mut s).unwrap();
    assert_eq!(a.status, 408, "{}", a.body);
    let mut rest = Vec::new();
    let end = s.read_to_end(&mut rest);
    assert!(end.is_ok() || end.unwrap_err().kind() == std::io::ErrorKind::ConnectionReset);
    // Chunked, past the limit without a length: 413 too.
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\n{host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b' '; 8 << 10];
    for _ in 0..4 {
        let _ = s.write_all(format!("{:x}\r\n", chunk.len()).as_bytes());
        let _ = s.write_all(&chunk);
        let _ = s.write_all(b"\r\n");
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let a = common::read_answer(&mut s).unwrap();
    assert_eq!(a.status, 413, "{}", a.body);
}

#[test]
fn connections_past_the_cap_are_turned_away_and_freed_ones_are_served() {
    let addr = start(npuzzle_web::Config {
        max_connections: 4,
        ..npuzzle_web::Config::default()
    });
    // Four idle connections hold every place (each sent nothing yet).
    let idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
    // The server may take a moment to accept them; the fifth is answered 503 once it has.
    let mut turned_away = None;
    for _ in 0..200 {
        let a = common::try_request(addr, "GET", "/api/health", None).unwrap();
        if a.status == 503 {
            turned_away = Some(a);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let a = turned_away.expect("a fifth connection was never turned away");
    assert_eq!(a.header("retry-after"), Some("1"));
    assert!(a.json()["error"].as_str().unwrap().starts_with("busy"));
    drop(idle);
    // Their places come back.
    let mut served = false;
    for _ in 0..200 {
        if get(addr, "/api/health").status == 200 {
            served = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(served, "the freed places never came back");
}

#[test]
fn a_panic_is_that_requests_500_and_the_server_goes_on() {
    let addr = start(npuzzle_web::Config::default());
    let host = format!(
        "Host: 127.0.0.1:{}\r\nContent-Type: application/json\r\n",
        addr.port()
    );
    let before = solve_with(addr, &host, BOARD);
    assert_eq!(before.status, 200);
    for fault in ["panic-handler", "panic-search"] {
        for _ in 0..3 {
            let a = solve_with(addr, &format!("{host}x-npuzzle-fault: {fault}\r\n"), BOARD);
            assert_eq!(a.status, 500, "{fault}: {}", a.body);
            assert!(a.json()["error"]
                .as_str()
                .unwrap()
                .starts_with("internal error"));
        }
    }
    let a = solve_with(addr, &host, BOARD);
    assert_eq!(a.status, 200);
    assert_eq!(a.json()["moves"], before.json()["moves"]);
    assert_eq!(get(addr, "/api/health").json()["status"], "ok");
}

#[test]
fn long_walks_on_the_largest_board_are_drawn_in_a_lane() {
    let addr = start(npuzzle_web::Config::default());
    let a = get(addr, "/api/scramble?size=16x16&moves=1000000&seed=3");
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    let board: npuzzle::Board = v["board"].as_str().unwrap().parse().unwrap();
    let goal = npuzzle::Board::solved(board.size());
    let (want, _) =
        npuzzle::scramble::walk(&goal, 1_000_000, &mut npuzzle::scramble::Rng::new(3)).unwrap();
    assert_eq!(board, want);
    let a = get(addr, "/api/scramble?size=16x16&moves=1000001");
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("1000000"));
}

/// A client that asks for large answers and never reads them is disconnected once a
/// write has waited the write timeout: its place is free for others again.
#[test]
fn a_client_that_never_reads_gives_its_place_back() {
    let addr = start(npuzzle_web::Config {
        max_connections: 2,
        write_timeout: Duration::from_secs(1),
        ..npuzzle_web::Config::default()
    });
    let host = format!("Host: 127.0.0.1:{}\r\n", addr.port());
    let ask = format!("GET /api/scramble?size=16x16&moves=1000000&seed=1 HTTP/1.1\r\n{host}\r\n");
    // Two connections, each with 60 answers of about a megabyte asked for (more than the
    // system's buffers hold) and none read: every place.
    let stuck: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(ask.repeat(60).as_bytes()).unwrap();
            s
        })
        .collect();
    // Served again once the stuck writes time out (the loop is bounded: about a minute).
    let mut served = false;
    for _ in 0..600 {
        if common::try_request(addr, "GET", "/api/health", None).is_ok_and(|a| a.status == 200) {
            served = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(stuck);
    assert!(served, "the clients that read nothing kept every place");
}
