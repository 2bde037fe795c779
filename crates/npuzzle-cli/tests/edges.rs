//! The edges reported against the binary: every size in every search, files that are
//! not what they seem, limits at their extremes, and the messages that misled.

mod common;

use std::process::Stdio;

use common::{command, mkfifo, npuzzle, refused, sandbox, temp_dir, text};

/// A board `moves` (a solution) away from the goal of `size`.
fn board(size: &str, moves: &str) -> String {
    let o = npuzzle(&["moves", "from-solution", "--size", size, moves], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout).trim().to_string()
}

/// Every depth-first search, weighted, --optimal, --all, -n, compare and optimize on
/// 16x16 (and the other extremes): answers, never an abort.
#[test]
fn depth_first_searches_answer_on_every_extreme_size() {
    for size in ["16x16", "16x2", "2x16", "2x2", "16x15"] {
        let b = board(size, "L");
        for args in [
            &["--algo", "idastar"][..],
            &["--algo", "iddfs"],
            &["--algo", "idastar", "--weight", "2"],
            &["--algo", "idastar", "--optimal"],
            &["--optimal"],
            &["--all"],
            &["-n", "3"],
            &["--algo", "auto"],
        ] {
            let mut all = vec!["solve", "--time-limit", "10"];
            all.extend_from_slice(args);
            all.push(&b);
            let o = npuzzle(&all, "");
            assert_eq!(
                o.status.code(),
                Some(0),
                "{size} {args:?}: {}",
                text(&o.stderr)
            );
            assert!(text(&o.stdout).contains("1 move"), "{size} {args:?}");
        }
        let o = npuzzle(&["compare", "--time-limit", "5", &b], "");
        assert_eq!(
            o.status.code(),
            Some(0),
            "{size} compare: {}",
            text(&o.stderr)
        );
        let o = npuzzle(&["moves", "optimize", "--board", &b, "L"], "");
        assert_eq!(text(&o.stdout).trim(), "L", "{size} optimize");
    }
    // Sizes beyond any machine are said in states, not in a byte count that overflowed.
    let o = npuzzle(&["solve", "--algo", "bfs", &board("6x6", "L")], "");
    let err = text(&o.stderr);
    assert!(err.contains("6x6 has 1.9e41 states"), "{err}");
    assert!(!err.contains("TiB"), "{err}");
}

/// `render -o` writes through what it is given: a link's target, a FIFO's reader,
/// /dev/null left a device; `-o -` is standard output; a full device is an error.
#[cfg(unix)]
#[test]
fn render_writes_through_links_fifos_and_devices() {
    use std::os::unix::fs::{symlink, FileTypeExt};
    let dir = temp_dir("render");
    let b = "8 1 3/4 0 2/7 6 5";
    let o = npuzzle(&["render", b, "-o", "-"], "");
    assert!(o.status.success());
    assert!(
        text(&o.stdout).starts_with("<svg"),
        "-o - is standard output"
    );
    // A link to a file: the file gets the picture, the link stays.
    let target = dir.join("target.svg");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.svg");
    symlink(&target, &link).unwrap();
    let o = npuzzle(&["render", b, "-o", link.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("<svg"));
    // A FIFO: its reader gets the picture and it stays a FIFO.
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = npuzzle(&["render", b, "-o", fifo.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(reader.join().unwrap().starts_with("<svg"));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // Devices stay devices; a full one is an I/O error.
    let o = npuzzle(&["render", b, "-o", "/dev/null"], "");
    assert!(o.status.success());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    if std::path::Path::new("/dev/full").exists() {
        refused(&["render", b, "-o", "/dev/full"], "/dev/full", 4);
    }
    refused(
        &["render", b, "-o", dir.to_str().unwrap()],
        "found a directory",
        4,
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The database folder holding a FIFO and a folder named like databases: skipped with a
/// warning by list and verify, and a solve that would read one answers within its time
/// limit, building what it needs without replacing them.
#[cfg(unix)]
#[test]
fn odd_entries_in_the_database_folder_never_block() {
    let pdb = sandbox().join("pdb");
    std::fs::create_dir_all(&pdb).unwrap();
    let o = npuzzle(&["pdb", "build", "--size", "4x4", "--pdb", "5-5-5"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let first = text(&o.stdout).split(':').next().unwrap().to_string();
    std::fs::remove_file(&first).unwrap();
    mkfifo(std::path::Path::new(&first));
    std::fs::create_dir_all(pdb.join("pdb-4x4-0000000000000000-1.2.npz")).unwrap();
    for args in [&["pdb", "list"][..], &["pdb", "verify"]] {
        let mut child = command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let clock = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            assert!(clock.elapsed().as_secs() < 30, "{args:?} hangs");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let o = child.wait_with_output().unwrap();
        assert!(
            text(&o.stderr).contains("expected a regular file"),
            "{args:?}"
        );
        assert_eq!(o.status.code(), Some(0), "{args:?}");
    }
    let o = npuzzle(
        &[
            "solve",
            "--pdb",
            "5-5-5",
            "--time-limit",
            "20",
            "8 1 3 4/5 0 2 6/7 9 10 11/12 13 14 15",
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("found a FIFO"),
        "{}",
        text(&o.stderr)
    );
    let kind = std::fs::symlink_metadata(&first).unwrap().file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "the FIFO is left alone"
    );
}

/// A database forged and sealed again is named by `pdb verify` (exit 2) and rebuilt by a
/// solve, whose answer stays optimal.
#[test]
fn forged_databases_are_found_and_not_used() {
    let o = npuzzle(&["pdb", "build", "--size", "4x4", "--pdb", "5-5-5"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let first = text(&o.stdout).split(':').next().unwrap().to_string();
    let mut bytes = std::fs::read(&first).unwrap();
    let body = bytes.len() - 8;
    for e in &mut bytes[body - 524_160..body] {
        if *e >= 10 {
            *e += 3;
        }
    }
    let sum = npuzzle::files::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&first, &bytes).unwrap();
    let o = npuzzle(&["pdb", "verify"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stdout).contains("forged or corrupt"),
        "{}",
        text(&o.stdout)
    );
    let b = "7 3 1 10/2 4 15 8/9 5 0 14/13 6 11 12";
    let o = npuzzle(&["solve", "--pdb", "5-5-5", "--json", b], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Named once: the files are opened side by side first, and one that failed is not
    // opened again.
    assert_eq!(
        text(&o.stderr).matches("forged or corrupt").count(),
        1,
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    let want = npuzzle(&["solve", "--algo", "idastar", "--json", b], "");
    let w: serde_json::Value = serde_json::from_str(text(&want.stdout).trim()).unwrap();
    assert_eq!(v["length"], w["length"]);
    assert_eq!(v["length"], 38);
    assert_eq!(v["optimal"], true);
}

/// Illegal moves are errors naming the move, in every notation and in JSON.
#[test]
fn illegal_moves_are_named_not_written_as_question_marks() {
    let b = "8 1 3/4 0 2/7 6 5";
    for args in [
        &["moves", "convert", "--to", "tiles", "--board", b, "LLLL"][..],
        &["moves", "simplify", "--to", "tiles", "--board", b, "LLLLRR"],
        &["moves", "convert", "--to", "blank", "--board", b, "LLLL"],
    ] {
        let o = npuzzle(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!text(&o.stdout).contains('?'), "{args:?}");
        assert!(
            text(&o.stderr).contains("move 2 (L) is illegal"),
            "{args:?}"
        );
    }
    let o = npuzzle(
        &[
            "moves", "convert", "--json", "--to", "tiles", "--board", b, "LLLL",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert!(v["error"].as_str().unwrap().contains("illegal"), "{v}");
}

/// Options that were ignored or policies that were bypassed.
#[test]
fn options_are_honoured() {
    // -n 3 and --all with databases cached: several solutions and the solutions field.
    let o = npuzzle(&["pdb", "build", "--size", "4x4", "--pdb", "5-5-5"], "");
    assert!(o.status.success());
    let b = "5 1 2 3/9 6 7 4/13 10 11 8/14 15 12 0";
    let o = npuzzle(&["solve", "-n", "3", "--json", b], "");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert!(v["solutions"].is_array(), "{v}");
    let o = npuzzle(&["solve", "--all", b], "");
    assert!(
        text(&o.stdout).contains("optimal solution"),
        "{}",
        text(&o.stdout)
    );
    // opt-diff uses the cached 5-5-5 set (no build) and IDA* past 25 cells.
    let o = npuzzle(
        &["moves", "opt-diff", "--time-limit", "10", b, "R3D3L3U3"],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).trim(),
        "12 moves, optimal 12: 0 over (optimal)"
    );
    assert!(!text(&o.stderr).contains("building"), "{}", text(&o.stderr));
    let o = npuzzle(&["moves", "opt-diff", "--json", b, "R3D3L3U3DU"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(
        (&v["length"], &v["optimal"], &v["over"], &v["board"]),
        (&14.into(), &12.into(), &2.into(), &b.into()),
        "{v}"
    );
    for size in ["6x6", "9x9"] {
        let seq = "RRDDLLUURDLU";
        let start = board(size, seq);
        let o = npuzzle(&["moves", "opt-diff", &start, seq], "");
        assert!(o.status.success(), "{size}: {}", text(&o.stderr));
        assert!(!text(&o.stderr).contains("--pdb"), "{size}");
        assert!(text(&o.stdout).contains("optimal 12"), "{size}");
    }
    // auto under a memory limit too small for a table searches instead.
    let boards = "8 1 3/4 0 2/7 6 5\n".repeat(12);
    let o = npuzzle(&["solve", "--max-memory", "60K", "--threads", "1"], &boards);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).lines().count(), 12);
    let o = npuzzle(&["solve", "--max-memory", "1", "1 2 3/4 0 5"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("1 byte"), "{}", text(&o.stderr));
}

/// Limits and exit codes at their edges.
#[test]
fn limits_and_exit_codes() {
    let dir = temp_dir("limits");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    refused(
        &[
            "pdb",
            "build",
            "--size",
            "3x3",
            "--pdb",
            "1,2,3/4,5,6/7,8",
            "--pdb-dir",
            file.to_str().unwrap(),
        ],
        "--pdb-dir: expected a database folder, found a file at",
        2,
    );
    refused(
        &[
            "pdb",
            "build",
            "--size",
            "3x3",
            "--pdb",
            "1,2,3/4,5,6/7,8",
            "--pdb-dir",
            "/proc/npuzzle-none",
        ],
        "cannot create the folder",
        4,
    );
    // A closed standard output is an error, not a silent success.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' solve '8 1 3/4 0 2/7 6 5' >&-",
            env!("CARGO_BIN_EXE_npuzzle")
        ))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("standard output is closed"));
    // Every named build counts against one time limit.
    let o = npuzzle(
        &[
            "solve",
            "--pdb",
            "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19",
            "--time-limit",
            "3",
            "18 4 14 0 11/17 6 16 9 8/19 2 7 10 12/15 13 3 5 1",
        ],
        "",
    );
    // Answered or refused within the limit: both are fine here; the clock is the
    // benchmark's business, the exit code is not.
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "{}",
        text(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The messages that misled, now saying what was expected and found.
#[test]
fn messages_say_what_was_wrong() {
    refused(
        &["solve", "1234567890"],
        "digits run together only for boards of up to 9 cells",
        2,
    );
    let o = npuzzle(&["judge", "luogu1379"], "123456780\n123456708\n");
    assert!(text(&o.stderr).contains("expected one line of 9 digits, found 2 lines"));
    let o = npuzzle(&["judge", "luogu1379"], "1234567890\n");
    assert!(
        text(&o.stderr).contains("digits run together"),
        "{}",
        text(&o.stderr)
    );
    let big = "1".repeat(2 << 20);
    let o = npuzzle(&["judge", "ctrip"], &big);
    assert!(
        text(&o.stderr).contains("found more"),
        "{}",
        text(&o.stderr)
    );
    let o = npuzzle(&["solve", "1 2 3/4 5 6/7 0 8"], "");
    assert_eq!(text(&o.stdout), "1 2 3/4 5 6/7 0 8: 1 move: L\n");
    // A blank line inside a grid is skipped, as documented.
    let o = npuzzle(&["solve"], "8 1 3\n4 0 2\n\n7 6 5\n");
    assert_eq!(
        text(&o.stdout),
        "8 1 3/4 0 2/7 6 5: 14 moves: LUR2D2LURULDLU\n"
    );
    // An interrupted build does not speak of a solution.
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "--size",
            "5x5",
            "--pdb",
            "6-6-6-6",
            "--time-limit",
            "0.2",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(!err.contains("solution needs"), "{err}");
}

/// A database folder that is not a folder (a file, a FIFO) is refused, naming where the
/// path came from, by every command that reads databases: a solve does not quietly go
/// without them. A cache directory that is a file gets a note and the answer.
#[test]
fn a_database_folder_that_is_not_a_folder_is_refused() {
    let dir = temp_dir("pdb-dir-not-folder");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let fifo = dir.join("a-fifo");
    mkfifo(&fifo);
    let link = dir.join("a-link");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let b = "8 1 3/4 0 2/7 6 5";
    let big = board("6x6", "LLUU");
    for (path, kind) in [(&file, "a file"), (&fifo, "a FIFO"), (&link, "a file")] {
        let p = path.to_str().unwrap();
        let want = format!("--pdb-dir: expected a database folder, found {kind} at {p}");
        for args in [
            &["solve", "--pdb-dir", p, b][..],
            &["solve", "--time-limit", "1", "--pdb-dir", p, &big],
            &[
                "bench",
                "--set",
                "random",
                "--size",
                "3x3",
                "--count",
                "1",
                "--pdb-dir",
                p,
            ],
            &["pdb", "--pdb-dir", p, "list"],
            &["serve", "--bind", "127.0.0.1:0", "--pdb-dir", p],
            &[
                "pdb",
                "build",
                "--size",
                "3x3",
                "--pdb",
                "1,2,3,4/5,6,7,8",
                "--pdb-dir",
                p,
            ],
        ] {
            refused(args, &want, 2);
        }
    }
    // From the environment: the variable is named.
    let o = command(&["solve", b])
        .env("NPUZZLE_PDB_DIR", &file)
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("NPUZZLE_PDB_DIR: expected a database folder, found a file at"),
        "{err}"
    );
    // The cache directory (nothing named): a note, and the answer all the same.
    let o = command(&["solve", b])
        .env_remove("NPUZZLE_PDB_DIR")
        .env("NPUZZLE_CACHE_DIR", &file)
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert!(text(&o.stdout).contains("14 moves"), "{}", text(&o.stdout));
}
