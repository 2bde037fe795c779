//! A bounded load on loopback: many clients at once, good and bad requests mixed; nothing
//! is lost (every good request answered correctly or told 503, every bad one a 4xx).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use npuzzle::scramble::{uniform, Rng};
use npuzzle::{Board, Notation, Size};

#[test]
fn concurrent_mixed_requests_are_all_answered() {
    // Room for every client in the small boards' lane (2 x cores + 64 > 24 clients): none
    // of them may be turned away; the large boards' lane (a quarter of the queue) may say 503.
    let addr = common::start(npuzzle_web::Config::default());
    let clients = 24;
    let per_client = 20;
    let ok = Arc::new(AtomicUsize::new(0));
    let busy = Arc::new(AtomicUsize::new(0));
    let bad = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let (ok, busy, bad) = (ok.clone(), busy.clone(), bad.clone());
            std::thread::spawn(move || {
                let mut rng = Rng::new(1000 + c as u64);
                for i in 0..per_client {
                    let size = if (c + i) % 5 == 0 {
                        Size::new(4, 4)
                    } else {
                        Size::new(3, 3)
                    };
                    let goal = Board::solved(size.unwrap());
                    if (c + i) % 7 == 3 {
                        // A bad one: a tile missing.
                        let a =
                            common::post(addr, "/api/solve", r#"{"board": "1 2 3/4 5 6/7 8 8"}"#);
                        assert_eq!(a.status, 422, "{}", a.body);
                        bad.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    let b = uniform(&goal, &mut rng);
                    // 4x4 boards with the fast solver: cheap, and in the large boards' lane.
                    let algo = if goal.size().cells() == 16 {
                        "fast"
                    } else {
                        "auto"
                    };
                    let req = serde_json::json!({"board": b.to_string(), "algorithm": algo});
                    let a = common::post(addr, "/api/solve", &req.to_string());
                    match a.status {
                        200 => {
                            let v = a.json();
                            let mut x = b.clone();
                            let m = Notation::Tile
                                .parse(&x, v["moves"].as_str().unwrap())
                                .unwrap();
                            x.apply_all(&m).unwrap();
                            assert_eq!(x, goal, "{b}");
                            if algo == "auto" {
                                let want =
                                    npuzzle::bfs(&b, &goal, &npuzzle::Limits::default()).unwrap();
                                assert_eq!(v["length"], want.len(), "{b}");
                            }
                            ok.fetch_add(1, Ordering::Relaxed);
                        }
                        503 => {
                            assert_eq!(algo, "fast", "a 3x3 board turned away: {}", a.body);
                            assert_eq!(a.header("retry-after"), Some("1"));
                            busy.fetch_add(1, Ordering::Relaxed);
                        }
                        s => panic!("{b}: {s} {}", a.body),
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let (ok, busy, bad) = (
        ok.load(Ordering::Relaxed),
        busy.load(Ordering::Relaxed),
        bad.load(Ordering::Relaxed),
    );
    assert_eq!(ok + busy + bad, clients * per_client);
    assert!(ok > 0, "{ok} answered, {busy} busy");
    // Afterwards nothing is left running or waiting.
    let v = common::get(addr, "/api/health").json();
    for lane in ["small_boards", "large_boards"] {
        assert_eq!(v["solves"][lane]["running"], 0, "{v}");
        assert_eq!(v["solves"][lane]["waiting"], 0, "{v}");
    }
}
