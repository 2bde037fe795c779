//! Load for `npuzzle serve`: many clients on keep-alive connections, latencies reported.
//!
//! ```text
//! serve-load ADDR solve3 CLIENTS REQUESTS   # 3x3 solves: p50, p99, max latency
//! serve-load ADDR mixed CLIENTS REQUESTS    # 3x3, 4x4 and bad requests: answers checked
//! serve-load ADDR health-during BOARD       # /api/health latency while BOARD is solved
//! ```

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use npuzzle::scramble::{uniform, Rng};
use npuzzle::{Board, Notation, Size};

/// One request on a kept-alive connection: (status, body).
fn call(s: &mut TcpStream, method: &str, path: &str, body: &str) -> (u16, String) {
    let host = s.peer_addr().expect("connected");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        let n = s.read(&mut buf).expect("read");
        assert!(n > 0, "connection closed");
        raw.extend_from_slice(&buf[..n]);
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().expect("length"));
            while raw.len() < end + 4 + len {
                let n = s.read(&mut buf).expect("read");
                assert!(n > 0, "connection closed");
                raw.extend_from_slice(&buf[..n]);
            }
            let status = head[9..12].parse().expect("status");
            let body = String::from_utf8_lossy(&raw[end + 4..end + 4 + len]).into_owned();
            return (status, body);
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn report(name: &str, mut lat: Vec<Duration>) {
    lat.sort();
    println!(
        "{name}: {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        percentile(&lat, 0.5).as_secs_f64() * 1e3,
        percentile(&lat, 0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: serve-load ADDR solve3|mixed CLIENTS REQUESTS | ADDR health-during BOARD";
    let addr = args.get(1).expect(usage).clone();
    let mode = args.get(2).expect(usage).clone();
    if mode == "health-during" {
        let board = args.get(3).expect(usage).clone();
        let a2 = addr.clone();
        let solver = std::thread::spawn(move || {
            let mut s = TcpStream::connect(&a2).expect("connect");
            let t = Instant::now();
            let (status, body) = call(
                &mut s,
                "POST",
                "/api/solve",
                &format!("{{\"board\": \"{board}\", \"algorithm\": \"idastar\"}}"),
            );
            (t.elapsed(), status, body)
        });
        std::thread::sleep(Duration::from_millis(200));
        let mut s = TcpStream::connect(&addr).expect("connect");
        let mut lat = Vec::new();
        let mut running = 0;
        while !solver.is_finished() {
            let t = Instant::now();
            let (status, body) = call(&mut s, "GET", "/api/health", "");
            lat.push(t.elapsed());
            assert_eq!(status, 200);
            if body.contains("\"large_boards\":{\"running\":1") {
                running += 1;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let (took, status, body) = solver.join().unwrap();
        println!(
            "hard solve: {status} after {:.2} s: {}",
            took.as_secs_f64(),
            &body[..body.len().min(160)]
        );
        println!("health polls while it ran: {running} saw it running");
        report("health", lat);
        return;
    }
    let clients: usize = args.get(3).expect(usage).parse().expect("CLIENTS");
    let per: usize = args.get(4).expect(usage).parse().expect("REQUESTS");
    let t0 = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let addr = addr.clone();
            let mode = mode.clone();
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(&addr).expect("connect");
                s.set_nodelay(true).ok();
                let mut rng = Rng::new(c as u64 + 1);
                let g3 = Board::solved(Size::new(3, 3).unwrap());
                let g4 = Board::solved(Size::new(4, 4).unwrap());
                let mut lat = Vec::new();
                let (mut ok, mut busy, mut bad, mut wrong) = (0, 0, 0, 0);
                for i in 0..per {
                    let kind = if mode == "mixed" { (c + i) % 3 } else { 0 };
                    let (body, goal) = match kind {
                        0 => (
                            format!("{{\"board\": \"{}\"}}", uniform(&g3, &mut rng)),
                            Some(&g3),
                        ),
                        1 => (
                            format!("{{\"board\": \"{}\"}}", uniform(&g4, &mut rng)),
                            Some(&g4),
                        ),
                        _ => ("{\"board\": \"1 2 3/4 5 6/7 8 8\"}".to_string(), None),
                    };
                    let t = Instant::now();
                    let (status, answer) = call(&mut s, "POST", "/api/solve", &body);
                    lat.push(t.elapsed());
                    match (status, goal) {
                        (200, Some(g)) => {
                            let board_text = body.split('"').nth(3).unwrap();
                            let mut b: Board = board_text.parse().unwrap();
                            let moves = answer
                                .split("\"moves\":\"")
                                .nth(1)
                                .unwrap()
                                .split('"')
                                .next()
                                .unwrap();
                            let m = Notation::Tile.parse(&b, moves).unwrap();
                            b.apply_all(&m).unwrap();
                            if &b == g {
                                ok += 1
                            } else {
                                wrong += 1
                            }
                        }
                        (503, Some(_)) => busy += 1,
                        (400..=499, None) => bad += 1,
                        _ => wrong += 1,
                    }
                }
                (lat, ok, busy, bad, wrong)
            })
        })
        .collect();
    let mut all = Vec::new();
    let (mut ok, mut busy, mut bad, mut wrong) = (0, 0, 0, 0);
    for t in threads {
        let (l, o, b, x, w) = t.join().unwrap();
        all.extend(l);
        ok += o;
        busy += b;
        bad += x;
        wrong += w;
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("{mode}: {clients} clients x {per}: {ok} solved and verified, {busy} told 503, {bad} bad ones given 4xx, {wrong} wrong or lost; {:.0} requests/s", (clients * per) as f64 / secs);
    report(&mode, all);
    if wrong > 0 {
        std::process::exit(1);
    }
}
