//! Faults, limits and bad values: every one ends in its real reason and the documented
//! exit code, never in a panic or an abort.

mod common;

use std::fs::File;
use std::process::Stdio;

use common::{command, npuzzle, refused, sandbox, start, text};

/// Exit codes the README documents.
const DOCUMENTED: [i32; 6] = [0, 1, 2, 3, 4, 5];

#[test]
fn memory_beyond_the_machine_is_refused_with_the_figure() {
    // 4x4 needs about 3.6 TiB: within a 4T limit, far beyond the machine.
    let o = npuzzle(&["analyze", "--size", "4x4", "--max-memory", "4T"], "");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("this machine has"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "table",
            "--max-memory",
            "15000T",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
        ],
        "",
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("this machine has"), "{err}");
    // A refusal never contradicts itself: bfs on 4x4 under a limit larger than it needs is
    // refused for the machine, not for the limit.
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "bfs",
            "--max-memory",
            "15000T",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
        ],
        "",
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(!err.contains("but the memory limit is"), "{err}");
}

/// A database build over `--max-memory` is refused before it is announced: no "building"
/// line, nothing saved.
#[test]
fn a_build_over_the_memory_limit_is_refused_before_it_is_announced() {
    let dir = sandbox().join("pdb-over-limit");
    let d = dir.to_str().unwrap();
    for extra in [&[][..], &["--zero-aware"][..]] {
        let mut args = vec!["pdb", "build", "--size", "5x5", "--pdb", "6-6-6-6"];
        args.extend_from_slice(&["--pdb-dir", d, "--max-memory", "100M"]);
        args.extend_from_slice(extra);
        let o = npuzzle(&args, "");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{err}");
        assert!(err.contains("the memory limit is 100.0 MiB"), "{err}");
        assert!(!err.contains("building"), "{err}");
        let saved = std::fs::read_dir(&dir).map(|r| r.count()).unwrap_or(0);
        assert_eq!(saved, 0, "{err}");
    }
}

#[test]
fn a_full_stdout_is_an_io_error_and_a_full_stderr_loses_nothing() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let full = || File::options().write(true).open("/dev/full").unwrap();
    // Answers to a full disk: exit 4, and the reason on standard error.
    let o = command(&["solve", "8 1 3/4 0 2/7 6 5"])
        .stdout(full())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("No space left"), "{err}");
    // Messages to a full disk: ignored; the answers still come out, and the bad line
    // still sets the exit code.
    let o = command(&["solve", "8 1 3/4 0 2/7 6 5", "1 2 3/4 4 5/6 7 0"])
        .stdout(Stdio::piped())
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).contains("14 moves"), "{}", text(&o.stdout));
    // A closed standard error: the same.
    let o = command(&["verify", "8 1 3/4 0 2/7 6 5", "LUR2D2LURULDLU"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_forged_table_is_refused_and_the_board_still_solved() {
    let dir = sandbox().join("forged");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let o = npuzzle(&["analyze", "--size", "3x3", "--cache-dir", d], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.to_string_lossy();
            name.contains("table-3x3-") && name.ends_with(".npz")
        })
        .expect("the table was saved");
    // Every distance bit cleared, then the checksum made to match: a file that passes
    // every check of its form and lies in its contents. And a second forgery: 20 bits
    // flipped, which the quick pass alone might miss.
    let mut bytes = std::fs::read(&path).unwrap();
    let words = 181_440usize.div_ceil(32);
    let body = bytes.len() - 8;
    for b in &mut bytes[body - 4 * words..body] {
        *b = 0;
    }
    let sum = npuzzle::files::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let o = npuzzle(&["solve", "--cache-dir", d, "8 1 3/4 0 2/7 6 5"], "");
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.contains("14 moves"), "{out}");
    // Refused on loading (its stamp no longer matches, and the proof fails), named, and
    // the board solved without it.
    assert!(err.contains("forged or corrupt"), "{err}");
    assert!(err.contains("ignoring it"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Sends Ctrl-C (SIGINT) to `child` a moment after it started, and waits for it.
fn interrupt(child: std::process::Child) -> std::process::Output {
    std::thread::sleep(std::time::Duration::from_millis(700));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_stops_a_batch_once() {
    // Hard 4x4 boards by IDA* with Manhattan distance: each takes far longer than the
    // moment before the interrupt.
    let boards = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1\n".repeat(5);
    let child = start(
        &["solve", "--heuristic", "manhattan", "--threads", "2"],
        boards.as_bytes(),
    );
    let o = interrupt(child);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("not solved"), "{err}");
    assert!(
        err.matches("stopped").count() <= 2,
        "the boards in flight on the two threads stopped, the rest not started: {err}"
    );
}

#[test]
fn each_error_names_what_was_wrong() {
    let cases: [(&[&str], &str, i32); 13] = [
        (&["solve", "hello"], "found \"hello\"", 2),
        (
            &["solve", "1 2 3 4 5 6 7 8 99999999999999999999999"],
            "99999999999999999999999 at row 3, column 3, a number too large",
            2,
        ),
        (
            &["apply", "8 1 3/4 0 2/7 6 5", "U99999999999"],
            "run length from 1 to 1000000",
            2,
        ),
        (
            &["solve", "--time-limit", "99999999999", "8 1 3/4 0 2/7 6 5"],
            "at most 1000000000 s",
            2,
        ),
        (
            &["solve", "--max-memory", "99999999T", "8 1 3/4 0 2/7 6 5"],
            "at most 16 EiB",
            2,
        ),
        (
            &["solve", "-n", "0", "8 1 3/4 0 2/7 6 5"],
            "--all/--first: expected 1 to 1000 solutions (or all), found 0",
            2,
        ),
        (
            &["solve", "-n", "1001", "8 1 3/4 0 2/7 6 5"],
            "expected 1 to 1000 solutions (or all), found 1001",
            2,
        ),
        (
            &["solve", "--time-limit", "0", "8 1 3/4 0 2/7 6 5"],
            "--time-limit: expected a time limit above 0",
            2,
        ),
        (
            &[
                "solve",
                "--all",
                "--pdb",
                "5-5-5",
                "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
            ],
            "--pdb: pattern databases guide the search for one solution",
            2,
        ),
        (
            &[
                "solve",
                "--metric",
                "mtm",
                "--pdb",
                "5-5-5",
                "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
            ],
            "--pdb: pattern databases guide the search for one solution",
            2,
        ),
        (
            &["pdb", "--pdb-dir", "/nonexistent/npuzzle", "list"],
            "found no folder at /nonexistent/npuzzle",
            2,
        ),
        (
            &["pdb", "--pdb-dir", "/nonexistent/npuzzle", "verify"],
            "found no folder",
            2,
        ),
        (&["solve", "1 2/3"], "expected 2 cells in row 2", 2),
    ];
    for (args, want, code) in cases {
        refused(args, want, code);
    }
}

#[test]
fn judge_answers_stay_on_their_lines() {
    let input = "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 5 7 8 x\n1 2 3 4 5 6 7 8 x\n";
    let o = npuzzle(&["judge", "hdu1043"], input);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("error: line 2"), "{out}");
    assert_eq!(lines[2], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn every_way_out_is_documented() {
    for args in [
        &["--help"][..],
        &["solve", "--help"],
        &["nonsense"],
        &["solve", "--algo", "nope", "1 2/3 0"],
    ] {
        let o = npuzzle(args, "");
        let code = o.status.code().expect("an exit code, not a signal");
        assert!(DOCUMENTED.contains(&code), "{args:?}: {code}");
    }
    let o = npuzzle(&["--help"], "");
    let help = text(&o.stdout);
    assert!(help.contains("4 an I/O error"), "{help}");
}

mod random_input {
    use super::*;
    use proptest::prelude::*;

    /// Pieces a command line is made of: good and bad boards, sizes, options with good,
    /// odd and absurd values, words. Searches are kept to small boards and quick
    /// algorithms (no IDDFS), so that every case ends soon on its own.
    const PIECES: &[&str] = &[
        "8 1 3/4 0 2/7 6 5",
        "1 2 3/4 5 6/7 0 8",
        "813402765",
        "1 2/3 0",
        "0 1 2 3 4 5",
        "1 2 3/4 5 5/7 8 0",
        "1 2 3/4 5/6 7 0",
        "99999999999999999999999",
        "-1",
        "x",
        "",
        " ",
        "/",
        "//",
        "1,2,3",
        "é",
        "--size",
        "3x3",
        "2x3",
        "3x2",
        "17x2",
        "0x0",
        "99999999999999999999x2",
        "--goal",
        "--algo",
        "bfs",
        "bibfs",
        "astar",
        "idastar",
        "table",
        "auto",
        "--heuristic",
        "manhattan",
        "walking-distance",
        "nope",
        "--json",
        "--stats",
        "--notation",
        "blank",
        "tiles",
        "--max-memory",
        "0",
        "1K",
        "4T",
        "99999999T",
        "--time-limit",
        "0",
        "1ms",
        "99999999999",
        "-n",
        "--all",
        "--threads",
        "LUR2D2LURULDLU",
        "U0",
        "U99999999999",
        "rdrd",
        "1 2 5 6",
        "ctrip",
        "hdu1043",
        "luogu1379",
        "--antipodes",
        "--no-save",
        "list",
        "verify",
        "--pdb-dir",
        "--metric",
        "mtm",
        "--weight",
        "1.5",
        "fast",
        "simplify",
        "invert",
        "length",
        "optimize",
        "--board",
        "--moves",
        "--scheme",
        "fringe",
        "--seed",
    ];

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => proptest::sample::select(PIECES).prop_map(str::to_string),
            1 => "[ -~]{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 96,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn no_input_panics_or_leaves_the_documented_codes(
            sub in proptest::sample::select(&[
                "solve", "compare", "solvable", "apply", "verify", "judge", "analyze", "pdb",
                "scramble", "moves", "render",
            ][..]),
            args in proptest::collection::vec(piece(), 0..5),
            stdin in proptest::collection::vec(any::<u8>(), 0..120),
        ) {
            // The two searches that could run long on a board of random cells are kept
            // off standard input's boards: compare gets a time limit, analyze 3x3 at most.
            let mut all: Vec<String> = vec![sub.to_string()];
            all.extend(args.iter().cloned());
            if sub == "compare" {
                all.extend(["--time-limit".to_string(), "1".to_string()]);
            }
            if sub == "analyze" && !args.iter().any(|a| a == "--size") {
                all.extend(["--size".to_string(), "2x3".to_string()]);
            }
            let refs: Vec<&str> = all.iter().map(String::as_str).collect();
            let o = start(&refs, &stdin).wait_with_output().unwrap();
            let err = text(&o.stderr);
            prop_assert!(!err.contains("panicked"), "{all:?}: {err}");
            let code = o.status.code();
            prop_assert!(
                code.is_some_and(|c| DOCUMENTED.contains(&c)),
                "{all:?}: exit {code:?}: {err}"
            );
        }
    }
}

#[test]
fn astar_stays_within_its_memory_limit() {
    // Peak memory as the system saw it, where GNU time is there to tell.
    if !std::path::Path::new("/usr/bin/time").exists() {
        return;
    }
    let o = std::process::Command::new("/usr/bin/time")
        .args(["-f", "peak-kb %M", env!("CARGO_BIN_EXE_npuzzle")])
        .args([
            "solve",
            "--algo",
            "astar",
            "--heuristic",
            "manhattan",
            "--max-memory",
            "64M",
            "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1",
        ])
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("but the memory limit is 64.0 MiB"), "{err}");
    // What fits this machine names the option that raises the limit.
    assert!(err.contains("--max-memory raises the limit"), "{err}");
    let kb: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("peak-kb "))
        .and_then(|v| v.trim().parse().ok())
        .expect("GNU time's figure");
    // The search's own structures stay under the limit; a few MiB are the program's.
    assert!(
        kb < 64 * 1024 + 8 * 1024,
        "peak {kb} KiB for a 64 MiB limit: {err}"
    );
}

#[test]
fn help_to_a_full_disk_is_an_io_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let full = File::options().write(true).open("/dev/full").unwrap();
    let o = command(&["--help"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", text(&o.stderr));
    let o = npuzzle(&["--version"], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stdout).starts_with("npuzzle "),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn an_interrupted_compare_declares_no_winner() {
    let child = start(&["compare", "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"], b"");
    let o = interrupt(child);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{out}{}", text(&o.stderr));
    assert!(out.contains("no winner declared"), "{out}");
    assert!(!out.contains("fastest:"), "{out}");
}

#[test]
fn a_table_with_flipped_bits_sealed_again_is_refused() {
    let dir = sandbox().join("flipped");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let o = npuzzle(&["analyze", "--size", "3x3", "--cache-dir", d], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".npz"))
        .expect("the table was saved");
    let mut bytes = std::fs::read(&path).unwrap();
    let words = 181_440usize.div_ceil(32);
    let body = bytes.len() - 8;
    let start = body - 4 * words;
    for k in 0..20 {
        let bit = (k * 7_919 + 13) % 181_440;
        bytes[start + bit / 8] ^= 1 << (bit % 8);
    }
    let sum = npuzzle::files::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    // 0 8 7/2 4 5/1 3 6 is 26 moves by BFS; the forged table must not answer it.
    let o = npuzzle(
        &["solve", "--json", "--cache-dir", d, "0 8 7/2 4 5/1 3 6"],
        "",
    );
    let err = text(&o.stderr);
    assert!(err.contains("forged or corrupt"), "{err}");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["length"], 26, "{v}");
    assert_eq!(v["optimal"], true);
    std::fs::remove_dir_all(&dir).unwrap();
}
