//! The page in a real headless browser (Debian's chromium, driven by its chromedriver over
//! the WebDriver protocol): scramble, solve, watch the animation end on the goal, play with
//! the keyboard alone, compare; no console errors.
//!
//! Needs `chromedriver` and `chromium` (`.ci/run` installs them). Where they are missing
//! the test says so and passes, unless NPUZZLE_BROWSER_TEST=require (as in CI), where it
//! fails. NPUZZLE_SCREENSHOT=FILE.png saves a picture of the page after the comparison.

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Driver {
    addr: SocketAddr,
    child: Child,
    session: String,
    /// The temporary folder chromedriver and the browser were given (their profile and
    /// sockets), removed when the session ends.
    tmp: std::path::PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = common::request(
            self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
        // (The browser may take a moment to go after its driver: a few tries.)
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.tmp).is_ok() || !self.tmp.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

fn find(names: &[&str]) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    for name in names {
        for dir in path.split(':') {
            let p = std::path::Path::new(dir).join(name);
            if p.is_file() {
                return Some(p.to_string_lossy().into_owned());
            }
        }
    }
    None
}

impl Driver {
    fn start() -> Option<Driver> {
        let required = std::env::var("NPUZZLE_BROWSER_TEST").is_ok_and(|v| v == "require");
        let (Some(driver), Some(browser)) = (
            find(&["chromedriver"]),
            find(&["chromium", "chromium-browser", "google-chrome"]),
        ) else {
            assert!(
                !required,
                "NPUZZLE_BROWSER_TEST=require but chromedriver or chromium is not installed"
            );
            eprintln!("browser test skipped: chromedriver and chromium are not both installed (apt install chromium chromium-driver)");
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // A temporary folder of the test's own for chromedriver and the browser (they
        // leave their profiles and sockets in it otherwise, in the system's one).
        let tmp =
            std::env::temp_dir().join(format!("npuzzle-browser-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let mut child = Command::new(driver)
            .arg(format!("--port={port}"))
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let clock = Instant::now();
        // Listening: connected to something other than itself (a connection to a free
        // port in the ephemeral range can meet itself, the same port at both ends, and
        // would pass for chromedriver before it listens).
        let listening = || {
            std::net::TcpStream::connect(addr)
                .is_ok_and(|s| s.local_addr().ok() != s.peer_addr().ok())
        };
        while !listening() {
            assert!(
                clock.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": browser, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1100,1000"]},
            "goog:loggingPrefs": {"browser": "ALL"}
        }}});
        // Once seen listening, chromedriver has been seen to refuse the next connection
        // (a CI run on 2026-12-02) and to reset it before answering (one on 2026-12-03):
        // the session is asked for again, for up to 20 s.
        let a = loop {
            match common::try_request(addr, "POST", "/session", Some(&caps.to_string())) {
                Ok(a) => break a,
                Err(e) => {
                    if clock.elapsed() > Duration::from_secs(20) {
                        let _ = child.kill();
                        panic!("chromedriver refused the session: {e}");
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        };
        assert_eq!(a.status, 200, "new session: {}", a.body);
        let session = a.json()["value"]["sessionId"].as_str().unwrap().to_string();
        Some(Driver {
            addr,
            child,
            session,
            tmp,
        })
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let a = common::request(
            self.addr,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_deref(),
        );
        assert_eq!(a.status, 200, "{method} {path}: {}", a.body);
        a.json()["value"].clone()
    }

    fn element(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }

    fn click(&self, css: &str) {
        let e = self.element(css);
        self.call("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    fn attr(&self, css: &str, name: &str) -> String {
        let e = self.element(css);
        self.call("GET", &format!("/element/{e}/attribute/{name}"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn text(&self, css: &str) -> String {
        let e = self.element(css);
        self.call("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn key(&self, key: &str) {
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "kb", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})),
        );
    }

    /// Runs `script` in the page; its return value.
    fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// The accessibility audit (axe-core, from the file `NPUZZLE_AXE` names) of the page as
    /// it is: the serious and critical violations, as "rule: target" lines. `None` when no
    /// axe-core is given (CI gives it: `.ci/run` installs it from the npm registry).
    fn audit(&self) -> Option<Vec<String>> {
        let path = std::env::var("NPUZZLE_AXE").ok()?;
        let axe = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": format!("{axe}\nreturn 1;"), "args": []})),
        );
        let found = self.call(
            "POST",
            "/execute/async",
            Some(json!({"script": "const done = arguments[arguments.length - 1]; axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id + ': ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', ')))).catch(e => done(['axe failed: ' + e]));", "args": []})),
        );
        Some(
            found
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect(),
        )
    }

    /// Fails on any error the page wrote to the console since the last look.
    fn assert_no_console_errors(&self) {
        let log = self.call("POST", "/se/log", Some(json!({"type": "browser"})));
        let severe: Vec<&Value> = log
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            // A board the library refuses is answered 422, which the browser logs; the
            // page says why in its status line (the tests check it).
            .filter(|e| {
                let m = e["message"].as_str().unwrap_or_default();
                !(e["source"] == "network" && m.contains("/api/board") && m.contains("422"))
            })
            .collect();
        assert!(severe.is_empty(), "console errors: {severe:?}");
    }

    /// Opens `url` afresh (a new page load, not a hash change) and waits for the board.
    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": "about:blank"})));
        self.call("POST", "/url", Some(json!({"url": url})));
        self.wait(5, "the page", |d| {
            !d.attr("#board", "data-board").is_empty()
        });
    }

    /// Saves a picture of the page as `NAME.png` in the folder NPUZZLE_SCREENSHOT_DIR
    /// names, if it names one.
    fn shot(&self, name: &str) {
        if let Ok(dir) = std::env::var("NPUZZLE_SCREENSHOT_DIR") {
            let png = self.call("GET", "/screenshot", None);
            let path = std::path::Path::new(&dir).join(format!("{name}.png"));
            std::fs::write(path, base64(png.as_str().unwrap())).unwrap();
        }
    }

    /// The viewport of a phone of `width` x `height` CSS pixels (the screen a page gets on
    /// one, without the browser's own bars), as Chrome's device emulation gives it.
    fn phone(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(
                json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": width, "height": height, "deviceScaleFactor": 2, "mobile": true}}),
            ),
        );
    }

    /// Whether the element of id `id` is disabled.
    fn disabled(&self, id: &str) -> bool {
        self.js(&format!("return document.getElementById('{id}').disabled")) == json!(true)
    }

    /// Sets a select or range input by id and tells the page.
    fn set(&self, id: &str, value: &str, event: &str) {
        self.js(&format!(
            "const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('{event}'));"
        ));
    }

    /// The length the solve line says (`31 moves, optimal; ...`).
    fn said_length(&self) -> usize {
        let t = self.text("#solveinfo");
        t.split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("{t}"))
    }

    /// Waits until `ok` holds, up to `secs`.
    fn wait(&self, secs: u64, what: &str, mut ok: impl FnMut(&Driver) -> bool) {
        let clock = Instant::now();
        while !ok(self) {
            assert!(
                clock.elapsed() < Duration::from_secs(secs),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

fn base64(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (val(c) as u32) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn the_page_scrambles_solves_animates_and_compares() {
    let Some(d) = Driver::start() else { return };
    let server = common::start(npuzzle_web::Config::default());
    let page = format!("http://{server}/");
    d.call("POST", "/url", Some(json!({"url": page})));
    assert_eq!(d.call("GET", "/title", None), "npuzzle");
    assert_eq!(d.attr("#board", "data-board"), "1 2 3/4 5 6/7 8 0");

    // Scramble on 4x4: a new position, the tiles drawn.
    d.call("POST", "/execute/sync", Some(json!({"script": "document.getElementById('w').value = '4'; document.getElementById('h').value = '4'; document.getElementById('h').dispatchEvent(new Event('change'));", "args": []})));
    d.wait(5, "a 4x4 board", |d| {
        d.attr("#board", "data-board").split('/').count() == 4
    });
    d.click("#scramble");
    d.wait(10, "a scramble", |d| {
        d.attr("#board", "data-solved") == "false"
    });
    let scrambled = d.attr("#board", "data-board");
    let tiles = d.call(
        "POST",
        "/elements",
        Some(json!({"using": "css selector", "value": "#board .tile"})),
    );
    assert_eq!(tiles.as_array().unwrap().len(), 15);
    // The link opens this board.
    let url = d.call("GET", "/url", None).as_str().unwrap().to_string();
    assert!(url.contains("board="), "{url}");

    // Solve: an answer, played at full speed, ends on the goal.
    d.call("POST", "/execute/sync", Some(json!({"script": "const s = document.getElementById('speed'); s.value = 100; s.dispatchEvent(new Event('input'));", "args": []})));
    d.click("#solve");
    d.wait(30, "a solution", |d| {
        d.text("#solveinfo").contains("moves,")
    });
    let info = d.text("#solveinfo");
    assert!(info.contains("optimal"), "{info}");
    d.wait(60, "the animation to end on the goal", |d| {
        d.attr("#board", "data-solved") == "true"
    });
    assert_eq!(
        d.attr("#board", "data-board"),
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"
    );
    assert!(
        d.text("#status").contains("Solution played"),
        "{}",
        d.text("#status")
    );
    // Stepping back from the end returns towards the scramble.
    d.click("#first");
    assert_eq!(d.attr("#board", "data-board"), scrambled);

    // The keyboard alone: open a board one move from the goal by its link; ArrowLeft slides 8.
    d.call(
        "POST",
        "/url",
        Some(json!({"url": format!("{page}#board=1+2+3%2F4+5+6%2F7+0+8")})),
    );
    d.call("POST", "/refresh", Some(json!({})));
    d.wait(5, "the linked board", |d| {
        d.attr("#board", "data-board") == "1 2 3/4 5 6/7 0 8"
    });
    d.key("\u{E012}");
    d.wait(5, "the move", |d| d.attr("#board", "data-solved") == "true");
    assert!(
        d.text("#status").contains("Solved in 1 move and"),
        "{}",
        d.text("#status")
    );

    // Compare on a 3x3 board: a row per search, a chart.
    d.call(
        "POST",
        "/url",
        Some(json!({"url": format!("{page}#board=8+1+3%2F4+0+2%2F7+6+5")})),
    );
    d.call("POST", "/refresh", Some(json!({})));
    d.wait(5, "the compared board", |d| {
        d.attr("#board", "data-board") == "8 1 3/4 0 2/7 6 5"
    });
    d.click("#compare");
    d.wait(60, "the comparison", |d| {
        d.text("#cmpinfo").contains("Optimal length 14")
    });
    let rows = d.call(
        "POST",
        "/elements",
        Some(json!({"using": "css selector", "value": "#cmptable tbody tr"})),
    );
    assert_eq!(
        rows.as_array().unwrap().len(),
        npuzzle::search::compared().len()
    );
    let bars = d.call(
        "POST",
        "/elements",
        Some(json!({"using": "css selector", "value": "#chart rect"})),
    );
    assert_eq!(
        bars.as_array().unwrap().len(),
        2 * npuzzle::search::compared().len()
    );

    if let Ok(path) = std::env::var("NPUZZLE_SCREENSHOT") {
        let png = d.call("GET", "/screenshot", None);
        std::fs::write(path, base64(png.as_str().unwrap())).unwrap();
    }

    // No errors on the console.
    d.assert_no_console_errors();
}

/// The page follows the board it shows: answers for another board are dropped and their
/// searches cancelled, links open in an open tab and bad ones keep a board, pasted grids
/// and blanks written `x` load, the timer follows the board, seeds come back exact.
#[test]
fn the_page_follows_the_board_it_shows() {
    let Some(d) = Driver::start() else { return };
    let server = common::start(npuzzle_web::Config::default());
    let page = format!("http://{server}/");

    // 7. A slow 4x4 solve shows its progress, and Cancel stops it on the server at once.
    d.open(&format!(
        "{page}#board=15+14+13+12%2F11+10+9+8%2F7+6+5+4%2F3+1+2+0"
    ));
    d.js("document.getElementById('algo').value = 'idastar'; document.getElementById('heur').value = 'manhattan';");
    assert_eq!(
        d.js("return document.getElementById('cancel').disabled"),
        json!(true)
    );
    d.click("#solve");
    d.wait(10, "progress", |d| {
        d.text("#solveinfo").contains("moves proven")
    });
    d.click("#cancel");
    assert_eq!(d.text("#solveinfo"), "Cancelled.");
    let clock = Instant::now();
    while common::get(server, "/api/health").json()["solves"]["large_boards"]["running"] != 0 {
        assert!(
            clock.elapsed() < Duration::from_secs(5),
            "Cancel left the search running"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        d.js("return document.getElementById('solve').disabled"),
        json!(false)
    );

    // 1. A slow 4x4 solve, then 3x3 and Scramble: the old answer never lands.
    d.click("#solve");
    d.wait(5, "the solve to start", |d| {
        let t = d.text("#solveinfo");
        t.contains("Solving") || t.contains("Searching")
    });
    d.js("const w = document.getElementById('w'); w.value = '3'; const h = document.getElementById('h'); h.value = '3'; h.dispatchEvent(new Event('change'));");
    d.click("#scramble");
    d.wait(10, "a 3x3 scramble", |d| {
        d.attr("#board", "data-board").split('/').count() == 3
            && d.attr("#board", "data-solved") == "false"
    });
    let scrambled = d.attr("#board", "data-board");
    assert!(
        !d.text("#solveinfo").contains("Solving"),
        "{}",
        d.text("#solveinfo")
    );
    assert_eq!(
        d.js("return document.getElementById('solve').disabled"),
        json!(false)
    );
    // Long enough for the 4x4 search to have hit the server's limit and answered.
    std::thread::sleep(Duration::from_secs(11));
    assert_eq!(
        d.attr("#board", "data-board"),
        scrambled,
        "an old answer moved the board"
    );
    assert!(d.text("#moves").is_empty(), "{}", d.text("#moves"));
    let health = common::get(server, "/api/health").json();
    assert_eq!(
        health["solves"]["large_boards"]["running"], 0,
        "the old search still runs: {health}"
    );

    // 6. The scramble's seed is shown exactly: asking for it again gives this board.
    let status = d.text("#status");
    let seed = status
        .split("seed ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap()
        .to_string();
    let again = common::get(server, &format!("/api/scramble?size=3x3&seed={seed}")).json();
    assert_eq!(again["board"].as_str().unwrap(), scrambled, "seed {seed}");

    // 9. Controls that mean what they show: no playback without a solution, no
    // heuristic where auto uses a table, End jumps to the end, speed up to 500/s.
    for id in ["first", "back", "play", "fwd", "last"] {
        assert_eq!(
            d.js(&format!("return document.getElementById('{id}').disabled")),
            json!(true),
            "{id}"
        );
    }
    d.js("const a = document.getElementById('algo'); a.value = 'auto'; a.dispatchEvent(new Event('change'));");
    assert_eq!(
        d.js("return document.getElementById('heur').disabled"),
        json!(true)
    );
    d.js("const s = document.getElementById('speed'); s.value = 100; s.dispatchEvent(new Event('input'));");
    assert_eq!(d.text("#speedval"), "500/s");
    d.js("const s = document.getElementById('speed'); s.value = 0; s.dispatchEvent(new Event('input'));");
    d.click("#solve");
    d.wait(30, "a solution", |d| {
        d.text("#solveinfo").contains("moves,")
    });
    assert_eq!(
        d.js("return document.getElementById('last').disabled"),
        json!(false)
    );
    d.click("#last");
    assert_eq!(d.attr("#board", "data-solved"), "true");
    assert_eq!(d.text("#play"), "Play");

    // 2. A bad link keeps a board and says what was wrong.
    d.open(&format!("{page}#board=garbage"));
    assert_eq!(d.attr("#board", "data-board"), "1 2 3/4 5 6/7 8 0");
    assert!(
        d.text("#status").contains("Cannot open the link's board"),
        "{}",
        d.text("#status")
    );

    // 3. A link followed in the open tab opens its board.
    d.js("location.hash = '#board=1+2+3%2F4+5+6%2F7+0+8';");
    d.wait(5, "the board of the new link", |d| {
        d.attr("#board", "data-board") == "1 2 3/4 5 6/7 0 8"
    });
    d.js("location.hash = '#board=nonsense';");
    d.wait(5, "the bad link's message", |d| {
        d.text("#status").contains("Cannot open")
    });
    assert_eq!(d.attr("#board", "data-board"), "1 2 3/4 5 6/7 0 8");

    // 4. A grid pasted as several lines, and x for the blank.
    d.js("const p = document.getElementById('paste'); p.focus(); const dt = new DataTransfer(); dt.setData('text', '8 1 3\\n4 x 2\\n7 6 5\\n'); p.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true}));");
    d.click("#load");
    d.wait(5, "the pasted board", |d| {
        d.attr("#board", "data-board") == "8 1 3/4 0 2/7 6 5"
    });

    // 5. A played solution stops the timer on the goal; a move after a hand solve
    // starts again.
    d.js("const s = document.getElementById('speed'); s.value = 100; s.dispatchEvent(new Event('input'));");
    d.key("\u{E012}");
    d.click("#solve");
    d.wait(30, "the played solution", |d| {
        d.text("#status").contains("Solution played")
    });
    let t1 = d.text("#timer");
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(d.text("#timer"), t1, "the timer ran on after the goal");
    d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F7+0+8"));
    d.key("\u{E012}");
    d.wait(5, "a hand solve", |d| {
        d.text("#status").contains("Solved in 1 move")
    });
    // 11. What assistive tools get: the move and the gap announced, the size and board on
    // the element, the tiles in board order, the movable ones reachable by Tab.
    assert_eq!(
        d.js("return document.getElementById('announce').textContent"),
        json!("Tile 8 moved; the gap is at row 3, column 3. Solved!")
    );
    assert_eq!(d.attr("#board", "data-size"), "3x3");
    assert_eq!(
        d.attr("#board", "aria-owns"),
        "tile-1 tile-2 tile-3 tile-4 tile-5 tile-6 tile-7 tile-8"
    );
    assert_eq!(
        d.js("return [...document.querySelectorAll('#board .tile')].filter(t => t.tabIndex === 0).map(t => t.dataset.tile).sort().join(' ')"),
        json!("3 6 7 8")
    );
    d.key("\u{E014}");
    assert!(
        d.text("#status").contains("Your move"),
        "{}",
        d.text("#status")
    );
    assert_eq!(d.text("#count"), "1");
    std::thread::sleep(Duration::from_millis(400));
    assert_ne!(d.text("#timer"), "0.000", "the timer did not start again");

    // 11. No serious or critical accessibility violations on the desktop layout, with a
    // solution shown and a comparison drawn.
    d.click("#compare");
    d.wait(60, "the comparison", |d| {
        d.text("#cmpinfo").contains("Optimal length")
    });
    if let Some(v) = d.audit() {
        assert!(v.is_empty(), "desktop: {v:#?}");
    }

    // 10. A phone: the comparison fits the screen, no sideways scrolling.
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 390, "height": 844})),
    );
    d.open(&format!("{page}#board=8+1+3%2F4+0+2%2F7+6+5"));
    d.click("#compare");
    d.wait(60, "the comparison", |d| {
        d.text("#cmpinfo").contains("Optimal length 14")
    });
    let (scroll, inner) = (
        d.js("return document.documentElement.scrollWidth"),
        d.js("return window.innerWidth"),
    );
    assert!(
        scroll.as_u64() <= inner.as_u64(),
        "page {scroll} px wide in a {inner} px window"
    );
    // Controls are 44 px touch targets on a phone (the tiles are the board's size).
    let small = d.js("return [...document.querySelectorAll('button:not(.tile), select, input')].filter(e => e.offsetParent && (e.offsetHeight < 44 || e.offsetWidth < 44)).map(e => e.id)");
    assert_eq!(small, json!([]), "controls under 44 px");
    d.js("window.scrollTo(0, 0);");
    if let Ok(path) = std::env::var("NPUZZLE_PHONE_SCREENSHOT") {
        let png = d.call("GET", "/screenshot", None);
        std::fs::write(path, base64(png.as_str().unwrap())).unwrap();
    }

    d.assert_no_console_errors();
}

/// A big board's Solve shows the anytime answer improving (`best so far N moves`), then
/// the answer with its lower bound.
#[test]
fn the_page_shows_a_big_boards_answer_improving() {
    let Some(d) = Driver::start() else { return };
    let server = common::start(npuzzle_web::Config::default());
    let goal = npuzzle::Board::solved("6x6".parse().unwrap());
    let board = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(3));
    let link = board.to_string().replace(' ', "+").replace('/', "%2F");
    d.open(&format!("http://{server}/#board={link}"));
    d.wait(5, "the 6x6 board", |d| {
        d.attr("#board", "data-board") == board.to_string()
    });
    d.click("#solve");
    d.wait(10, "the answer improving", |d| {
        d.text("#solveinfo").contains("best so far")
    });
    let going = d.text("#solveinfo");
    assert!(going.starts_with("Searching ("), "{going}");
    if let Ok(path) = std::env::var("NPUZZLE_SCREENSHOT_BIG") {
        let png = d.call("GET", "/screenshot", None);
        std::fs::write(path, base64(png.as_str().unwrap())).unwrap();
    }
    // The page asks for three seconds of it.
    d.wait(15, "the answer", |d| {
        let t = d.text("#solveinfo");
        !t.starts_with("Searching") && t.contains("moves,")
    });
    let info = d.text("#solveinfo");
    assert!(
        info.contains("not proven optimal (lower bound") && info.contains("anytime"),
        "{info}"
    );
    // The best told last is the answer's length.
    let told: u64 = going
        .split("best so far ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a length");
    let length: u64 = info.split(' ').next().unwrap().parse().unwrap();
    assert!(length <= told, "{length} after {told}");
    // On a phone the longer progress line wraps: nothing scrolls sideways.
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 390, "height": 844})),
    );
    d.open(&format!("http://{server}/#board={link}"));
    d.click("#solve");
    d.wait(10, "the answer improving on a phone", |d| {
        d.text("#solveinfo").contains("best so far")
    });
    let wide = d.js("return document.documentElement.scrollWidth <= window.innerWidth;");
    assert_eq!(wide, json!(true), "the page scrolls sideways on a phone");
    if let Ok(path) = std::env::var("NPUZZLE_PHONE_SCREENSHOT_BIG") {
        d.js("document.getElementById('solveinfo').scrollIntoView({block: 'center'});");
        let png = d.call("GET", "/screenshot", None);
        std::fs::write(path, base64(png.as_str().unwrap())).unwrap();
    }
    d.assert_no_console_errors();
}

/// Every answer on its own board: a second Solve or a Compare pressed while a solution
/// plays is for the board shown then (the playback stops, End ends on the goal); the
/// playback's steps wait while a search runs; a move by hand during a search cancels it
/// and drops the solution; a comparison goes when its board does.
#[test]
fn the_page_keeps_every_answer_on_its_own_board() {
    let Some(d) = Driver::start() else { return };
    let server = common::start(npuzzle_web::Config::default());
    let page = format!("http://{server}/");

    // 1. Solve, play at one move a second, Solve again two moves in.
    d.open(&format!("{page}#board=8+6+7%2F2+5+4%2F3+0+1"));
    d.set("speed", "0", "input");
    d.click("#solve");
    d.wait(10, "the first answer", |d| {
        d.text("#solveinfo").contains("moves,")
    });
    assert_eq!(d.said_length(), 31);
    d.wait(10, "two moves played", |d| {
        d.js("return document.querySelectorAll('#moves .done').length")
            .as_u64()
            >= Some(2)
    });
    d.click("#solve");
    d.wait(10, "the second answer", |d| {
        d.text("#solveinfo").contains("moves,") && d.said_length() < 31
    });
    let asked = d.attr("#board", "data-board");
    let length = d.said_length();
    // The second answer is for the board shown when it was asked: optimal from there.
    let start = npuzzle::Board::parse(&asked, None).unwrap();
    let table = npuzzle::DistanceTable::build(
        &npuzzle::Board::solved(start.size()),
        &npuzzle::Limits::default(),
    )
    .unwrap();
    assert_eq!(table.distance(&start), Some(length as u32), "{asked}");
    d.click("#last");
    assert_eq!(d.attr("#board", "data-solved"), "true");
    assert!(
        d.text("#status").contains("Solution played"),
        "{}",
        d.text("#status")
    );
    d.shot("bound-solved");

    // 2. Compare pressed while a solution plays: the playback stops, and the optimal
    // length is the board's shown then; a step after it takes the comparison away.
    d.open(&format!("{page}#board=8+6+7%2F2+5+4%2F3+0+1"));
    d.set("speed", "0", "input");
    d.click("#solve");
    d.wait(10, "an answer", |d| d.text("#solveinfo").contains("moves,"));
    d.wait(10, "a move played", |d| {
        d.js("return document.querySelectorAll('#moves .done').length")
            .as_u64()
            >= Some(1)
    });
    d.click("#compare");
    assert_eq!(
        d.text("#play"),
        "Play",
        "the playback went on during Compare"
    );
    d.wait(60, "the comparison", |d| {
        d.text("#cmpinfo").contains("Optimal length")
    });
    let shown = npuzzle::Board::parse(&d.attr("#board", "data-board"), None).unwrap();
    let optimal = table.distance(&shown).unwrap();
    assert!(
        d.text("#cmpinfo")
            .contains(&format!("Optimal length {optimal}:")),
        "{} for {shown}",
        d.text("#cmpinfo")
    );
    assert!(!d.disabled("fwd"));
    d.click("#fwd");
    assert_eq!(
        d.text("#cmpinfo"),
        "",
        "a comparison stayed beside another board"
    );
    d.click("#last");
    assert_eq!(d.attr("#board", "data-solved"), "true");

    // 3. While a search runs the steps wait; a move by hand cancels it and drops the
    // solution.
    d.open(&format!(
        "{page}#board=15+14+13+12%2F11+10+9+8%2F7+6+5+4%2F3+1+2+0"
    ));
    d.set("algo", "fast", "change");
    d.click("#solve");
    d.wait(20, "the fast answer", |d| {
        d.text("#solveinfo").contains("moves,")
    });
    d.click("#play");
    d.set("algo", "idastar", "change");
    d.set("heur", "misplaced", "change");
    d.click("#solve");
    d.wait(5, "the slow search", |d| {
        let t = d.text("#solveinfo");
        t.contains("Solving") || t.contains("Searching")
    });
    for id in ["first", "back", "play", "fwd", "last"] {
        assert!(d.disabled(id), "{id} live during a search");
    }
    // (Focus went to Cancel with the search: the person's next action.)
    assert_eq!(d.js("return document.activeElement.id"), json!("cancel"));
    // A tile beside the gap, clicked.
    d.js("document.querySelector('#board .tile[tabindex=\"0\"]').click();");
    assert!(
        d.text("#solveinfo").contains("the search was cancelled"),
        "{}",
        d.text("#solveinfo")
    );
    assert!(d.text("#moves").is_empty(), "{}", d.text("#moves"));
    for id in ["first", "back", "play", "fwd", "last"] {
        assert!(d.disabled(id), "{id} live without a solution");
    }
    let clock = Instant::now();
    while common::get(server, "/api/health").json()["solves"]["large_boards"]["running"] != 0 {
        assert!(
            clock.elapsed() < Duration::from_secs(5),
            "the search ran on"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // 4. A search the server refuses says why, in the library's words.
    d.set("algo", "bfs", "change");
    d.click("#solve");
    d.wait(10, "the refusal", |d| {
        d.text("#solveinfo").contains("memory limit")
    });
    assert_eq!(d.attr("#solveinfo", "class"), "bad");
    assert!(!d.disabled("solve"));

    // 5. Compare on 10x10: the searches left out for one reason say it once.
    let big = common::get(server, "/api/scramble?size=10x10&seed=4").json();
    let link = big["board"]
        .as_str()
        .unwrap()
        .replace(' ', "+")
        .replace('/', "%2F");
    d.open(&format!("{page}#board={link}"));
    d.click("#compare");
    d.wait(60, "the comparison", |d| {
        d.text("#cmpinfo").contains("Optimal length")
    });
    let notes = d.js("return document.querySelectorAll('#cmptable .notes li').length");
    let rows = d.js("return [...document.querySelectorAll('#cmptable td')].filter(t => t.textContent === 'did not finish (note 1)').length");
    assert_eq!(notes, json!(1), "{}", d.text("#cmptable"));
    assert!(rows.as_u64() >= Some(10), "{rows}: {}", d.text("#cmptable"));
    d.js("document.getElementById('cmp-h').scrollIntoView();");
    d.shot("compare-10x10");
    if let Some(v) = d.audit() {
        assert!(v.is_empty(), "compare on 10x10: {v:#?}");
    }
    d.assert_no_console_errors();
}

/// Every size from 2x2 to 16x16 on phones (360x640 and 390x844): no sideways scrolling,
/// the board and its Solve button on the screen together, 16x16 opened from a link with a
/// seed, scrambled, solved and audited; the link carries the size and seed, and Scramble
/// adds a history entry; `?board=` opens a board.
#[test]
fn the_page_fits_every_size_on_a_phone() {
    let Some(d) = Driver::start() else { return };
    let server = common::start(npuzzle_web::Config::default());
    let page = format!("http://{server}/");
    for (width, height) in [(360, 640), (390, 844)] {
        d.phone(width, height);
        d.open(&page);
        let sizes = (2..=16)
            .map(|n| (n, n))
            .chain([(16, 2), (2, 16), (7, 3), (3, 7), (12, 5)]);
        for (w, h) in sizes {
            d.set("w", &w.to_string(), "change");
            d.set("h", &h.to_string(), "change");
            assert_eq!(d.attr("#board", "data-size"), format!("{w}x{h}"));
            let fits = d.js(
                "window.scrollTo(0, 0); const b = document.getElementById('board').getBoundingClientRect(), s = document.getElementById('solve').getBoundingClientRect(); \
                 return [document.documentElement.scrollWidth <= window.innerWidth, b.bottom <= window.innerHeight, s.bottom <= window.innerHeight, b.right <= window.innerWidth];",
            );
            let seen = d.js("const b = document.getElementById('board').getBoundingClientRect(), s = document.getElementById('solve').getBoundingClientRect(); return [window.innerWidth, window.innerHeight, b.top, b.bottom, b.right, s.bottom, document.documentElement.scrollWidth];");
            assert_eq!(
                fits,
                json!([true, true, true, true]),
                "{w}x{h} at {width}x{height}: {seen}"
            );
        }
        // 16x16 from a link with its size and seed: the seed's board, solved on the page.
        d.open(&format!("{page}#size=16x16&seed=5"));
        let drawn = common::get(server, "/api/scramble?size=16x16&seed=5").json();
        assert_eq!(
            d.attr("#board", "data-board"),
            drawn["board"].as_str().unwrap()
        );
        assert!(
            d.text("#status").contains("seed 5"),
            "{}",
            d.text("#status")
        );
        d.click("#solve");
        d.wait(30, "the 16x16 answer", |d| {
            let t = d.text("#solveinfo");
            !t.starts_with("Searching") && t.contains("moves,")
        });
        let wide = d.js("return document.documentElement.scrollWidth <= window.innerWidth");
        assert_eq!(wide, json!(true), "16x16 solved at {width}x{height}");
        d.js("window.scrollTo(0, 0);");
        d.shot(&format!("16x16-{width}x{height}"));
        if let Some(v) = d.audit() {
            assert!(v.is_empty(), "16x16 at {width}x{height}: {v:#?}");
        }
        // A comparison on a phone: its table scrolls in its card and is reachable.
        d.open(&format!("{page}#board=8+1+3%2F4+0+2%2F7+6+5"));
        d.click("#compare");
        d.wait(60, "the comparison", |d| {
            d.text("#cmpinfo").contains("Optimal length 14")
        });
        if let Some(v) = d.audit() {
            assert!(v.is_empty(), "comparison at {width}x{height}: {v:#?}");
        }
        d.js("document.getElementById('cmpinfo').scrollIntoView({block: 'start'});");
        d.shot(&format!("compare-{width}x{height}"));
    }

    // Scramble: a history entry, the seed in the link and its field; Back returns.
    d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F7+0+8"));
    let before = d.js("return history.length");
    d.set("seed", "42", "input");
    d.click("#scramble");
    d.wait(5, "the seeded scramble", |d| {
        d.attr("#board", "data-board") != "1 2 3/4 5 6/7 0 8"
    });
    assert_eq!(
        d.js("return history.length").as_u64(),
        before.as_u64().map(|n| n + 1)
    );
    let hash = d.js("return location.hash").as_str().unwrap().to_string();
    assert!(
        hash.contains("size=3x3") && hash.contains("seed=42"),
        "{hash}"
    );
    let drawn = common::get(server, "/api/scramble?size=3x3&seed=42").json();
    assert_eq!(
        d.attr("#board", "data-board"),
        drawn["board"].as_str().unwrap()
    );
    d.js("history.back();");
    d.wait(5, "the board before", |d| {
        d.attr("#board", "data-board") == "1 2 3/4 5 6/7 0 8"
    });

    // A board in the query, and a 16x16 pasted in one line.
    d.open(&format!("{page}?board=2+0%2F1+3"));
    assert_eq!(d.attr("#board", "data-board"), "2 0/1 3");
    let big = drawn_board(server, "16x16", 9);
    d.js(&format!(
        "document.getElementById('paste').value = '{big}';"
    ));
    d.click("#load");
    d.wait(5, "the pasted 16x16", |d| {
        d.attr("#board", "data-board") == big
    });
    d.assert_no_console_errors();
}

fn drawn_board(server: SocketAddr, size: &str, seed: u64) -> String {
    common::get(server, &format!("/api/scramble?size={size}&seed={seed}")).json()["board"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A speedsolver's page: the clock in milliseconds and moves a second; the length set
/// beside the optimum; best, ao5 and ao12 kept per size across a reload; undo and redo
/// (an attempt with undo is not kept in the averages); a replay of the solve.
#[test]
fn the_page_times_a_hand_solve() {
    let Some(d) = Driver::start() else { return };
    let server = common::start(npuzzle_web::Config::default());
    let page = format!("http://{server}/");
    d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F7+0+8"));
    d.js("localStorage.clear();");
    d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F0+7+8"));
    assert_eq!(d.text("#timer"), "0.000");
    assert!(d.disabled("undo") && d.disabled("redo") && d.disabled("replay"));
    // Two moves to the goal: one, taken back, made again, then the last.
    d.key("\u{E012}");
    assert_eq!(d.attr("#board", "data-board"), "1 2 3/4 5 6/7 0 8");
    assert!(!d.disabled("undo"));
    d.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'z', ctrlKey: true}));");
    assert_eq!(d.attr("#board", "data-board"), "1 2 3/4 5 6/0 7 8");
    assert_eq!(d.text("#count"), "0");
    d.click("#redo");
    assert_eq!(d.attr("#board", "data-board"), "1 2 3/4 5 6/7 0 8");
    d.key("\u{E012}");
    assert_eq!(d.attr("#board", "data-solved"), "true");
    let said = d.text("#status");
    assert!(
        said.starts_with("Solved in 2 moves and ") && said.contains("moves/s"),
        "{said}"
    );
    assert!(said.contains("not kept in the averages"), "{said}");
    d.wait(10, "the optimum", |d| {
        d.text("#status").contains("You 2, optimal 2.")
    });
    let clock = d.text("#timer");
    assert!(
        clock.contains('.') && clock.split('.').nth(1).unwrap().len() == 3,
        "{clock}"
    );
    assert!(
        d.text("#session").contains("no solves kept"),
        "{}",
        d.text("#session")
    );

    // Five clean solves: best and ao5 shown, and kept across a reload.
    for _ in 0..5 {
        d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F7+0+8"));
        d.key("\u{E012}");
        d.wait(10, "the optimum", |d| {
            d.text("#status").contains("You 1, optimal 1.")
        });
    }
    let line = d.text("#session");
    assert!(
        line.starts_with("3x3: best ") && line.contains("ao5 ") && line.contains("5 solves"),
        "{line}"
    );
    assert!(line.contains("ao12 —"), "{line}");
    d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F7+0+8"));
    assert_eq!(d.text("#session"), line);
    d.set("w", "4", "change");
    assert!(
        d.text("#session").starts_with("4x3: no solves"),
        "{}",
        d.text("#session")
    );

    // The last solve replayed on its board, to the goal.
    d.open(&format!("{page}#board=1+2+3%2F4+5+6%2F0+7+8"));
    d.key("\u{E012}");
    d.key("\u{E012}");
    d.wait(10, "the optimum", |d| {
        d.text("#status").contains("You 2, optimal 2.")
    });
    // (Clicked and read in one script: the replay's moves wait for their timers, so the
    // board read is the one it starts from however slow the machine is.)
    let started = d.js("document.getElementById('replay').click(); return document.getElementById('board').dataset.board;");
    assert_eq!(started, json!("1 2 3/4 5 6/0 7 8"));
    d.wait(10, "the replay", |d| {
        d.text("#status").starts_with("Replayed: 2 moves")
    });
    assert_eq!(d.attr("#board", "data-solved"), "true");
    if let Some(v) = d.audit() {
        assert!(v.is_empty(), "the timer's controls: {v:#?}");
    }
    d.assert_no_console_errors();
}

/// Watching a search on a 3x3 (and an oblong board): each search's steps from the server,
/// played and stepped on the page; the counts at the end are the comparison's; a 4x4 is
/// refused with the reason; the board changed takes the watch away.
#[test]
fn the_page_shows_a_search_step_by_step() {
    let Some(d) = Driver::start() else { return };
    // Every search here must end for its counts to be compared: iterative deepening takes
    // about a second on this 31-move board and can pass the default 2 s on a busy
    // machine, so the comparison and the watch get ten minutes.
    let server = common::start(npuzzle_web::Config {
        compare_time_limit: Duration::from_secs(600),
        ..npuzzle_web::Config::default()
    });
    let page = format!("http://{server}/");
    let board = "8 6 7/2 5 4/3 0 1";
    let compared = common::post(
        server,
        "/api/compare",
        &json!({ "board": board }).to_string(),
    )
    .json();
    d.open(&format!("{page}#board=8+6+7%2F2+5+4%2F3+0+1"));
    for (algo, heur, says) in [
        ("bfs", None, "boards at"),
        ("bibfs", None, "from the goal"),
        ("astar", Some("manhattan"), "f = g + h"),
        ("idastar", Some("manhattan"), "Pass with threshold"),
        ("iddfs", None, "Pass with threshold"),
    ] {
        d.set("walgo", algo, "change");
        if let Some(h) = heur {
            d.set("wheur", h, "change");
        }
        assert_eq!(d.disabled("wheur"), heur.is_none(), "{algo}");
        d.click("#watch");
        d.wait(30, "the steps", |d| {
            d.text("#winfo").contains("steps to watch")
        });
        // Stopped part way: a step back and forth, the caption saying what it shows.
        d.click("#wplay");
        d.click("#wfirst");
        d.click("#wfwd");
        d.click("#wfwd");
        let caption = d.text("#wcaption");
        assert!(caption.starts_with("Step 3 of "), "{algo}: {caption}");
        if algo != "bibfs" {
            assert!(caption.contains(says), "{algo}: {caption}");
        }
        d.click("#wlast");
        let caption = d.text("#wcaption");
        assert!(caption.contains(says), "{algo}: {caption}");
        // The counts are the comparison's for the same search.
        let row = compared["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["algorithm"] == algo && (heur.is_none() || r["heuristic"] == heur.unwrap()))
            .unwrap_or_else(|| panic!("{algo} in {compared}"));
        let result = d.text("#wresult");
        let n = |v: &Value| {
            v.as_u64()
                .unwrap_or_else(|| panic!("{algo}: no count in {row}"))
                .to_string()
                .as_bytes()
                .rchunks(3)
                .rev()
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect::<Vec<_>>()
                .join(",")
        };
        assert!(
            result.starts_with(&format!(
                "{} moves; {} nodes expanded, {} generated, {} stored at most",
                n(&row["length"]),
                n(&row["expanded"]),
                n(&row["generated"]),
                n(&row["peak_stored"])
            )),
            "{algo}: {result} against {row}"
        );
        // A picture part way through.
        d.click("#wfirst");
        let steps: u64 = caption
            .split(" of ")
            .nth(1)
            .unwrap()
            .split('.')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        for _ in 0..(steps / 2).min(40) {
            d.click("#wfwd");
        }
        d.js("document.getElementById('watch-h').scrollIntoView();");
        d.shot(&format!("watch-{algo}"));
    }
    if let Some(v) = d.audit() {
        assert!(v.is_empty(), "watching: {v:#?}");
    }
    // A move takes the watch away; a 4x4 is refused with the reason.
    d.js("document.querySelector('#board .tile[tabindex=\"0\"]').click();");
    assert_eq!(d.text("#wcaption"), "");
    assert!(d.disabled("wplay"));
    d.open(&format!(
        "{page}#board=1+2+3+4%2F5+6+7+8%2F9+10+11+12%2F13+14+0+15"
    ));
    d.click("#watch");
    assert!(
        d.text("#winfo").contains("at most 12 cells"),
        "{}",
        d.text("#winfo")
    );
    // An oblong board watched: the two frontiers meet at the optimum's depth.
    d.open(&format!("{page}#board=1+5+0+6+8%2F2+7+4+9+3"));
    d.set("walgo", "bibfs", "change");
    d.click("#watch");
    d.wait(30, "the steps", |d| {
        d.text("#winfo").contains("steps to watch")
    });
    assert!(
        d.text("#wresult").starts_with("31 moves;"),
        "{}",
        d.text("#wresult")
    );
    d.click("#wlast");
    d.shot("watch-bibfs-5x2");
    // A breadth-first search too big for the server's memory says so, in the library's
    // words.
    d.open(&format!("{page}#board=4+1+2%2F0+5+3%2F7+8+6%2F10+11+9"));
    d.set("walgo", "bfs", "change");
    d.click("#watch");
    d.wait(10, "the refusal", |d| {
        d.text("#winfo").contains("memory limit")
    });
    d.assert_no_console_errors();
}
