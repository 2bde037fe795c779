//! The binary end to end: outputs, errors and exit codes.

mod common;

use common::{npuzzle, refused, sandbox, temp_dir, text};

/// Applies blank-notation moves (HDU 1043 style, `x` the blank) to a 3x3 board.
fn apply_blank(cells: &[u8], path: &str) -> Option<Vec<u8>> {
    let mut c = cells.to_vec();
    let mut b = c.iter().position(|&x| x == 0)?;
    for m in path.chars() {
        let (r, col) = (b / 3, b % 3);
        let nb = match m {
            'u' if r > 0 => b - 3,
            'd' if r < 2 => b + 3,
            'l' if col > 0 => b - 1,
            'r' if col < 2 => b + 1,
            _ => return None,
        };
        c.swap(b, nb);
        b = nb;
    }
    Some(c)
}

#[test]
fn solve_prints_length_and_moves() {
    let o = npuzzle(&["solve", "8 1 3/4 0 2/7 6 5"], "");
    assert!(o.status.success());
    assert_eq!(
        text(&o.stdout),
        "8 1 3/4 0 2/7 6 5: 14 moves: LUR2D2LURULDLU\n"
    );
    let o = npuzzle(&["solve", "1 2 3/4 5 6/7 8 0"], "");
    assert_eq!(
        text(&o.stdout),
        "1 2 3/4 5 6/7 8 0: solved already (0 moves)\n"
    );
    let o = npuzzle(&["solve", "2 1 3/4 5 6/7 8 0"], "");
    assert!(o.status.success(), "an unsolvable board is a valid answer");
    assert_eq!(text(&o.stdout), "2 1 3/4 5 6/7 8 0: unsolvable\n");
}

#[test]
fn solve_json_has_the_documented_fields() {
    for algo in ["auto", "bfs", "bibfs", "astar", "iddfs", "idastar", "table"] {
        let o = npuzzle(
            &[
                "solve",
                "--json",
                "--algo",
                algo,
                "--notation",
                "blank",
                "0 1 3/4 2 5/7 8 6",
            ],
            "",
        );
        assert!(o.status.success(), "{algo}");
        let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
        assert_eq!(v["board"], "0 1 3/4 2 5/7 8 6");
        assert_eq!(v["solvable"], true);
        assert_eq!(v["length"], 4);
        assert_eq!(v["moves"], "rdrd");
        for key in ["algorithm", "expanded", "generated", "seconds"] {
            assert!(!v[key].is_null(), "{algo}: {key}");
        }
    }
    let o = npuzzle(&["solve", "--json", "2 1 3/4 5 6/7 8 0"], "");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["solvable"], false);
    assert!(v["length"].is_null());
}

#[test]
fn a_batch_reports_bad_lines_and_goes_on() {
    let input = "# boards\n8 1 3/4 0 2/7 6 5\n1 2 3/4 5/6 7 0\n\n1 2 3\n4 5 6\n7 0 8\n1 2 3 4 5 6 7 7 0\n813402765\n";
    let o = npuzzle(&["solve"], input);
    assert_eq!(o.status.code(), Some(2));
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 3, "{out}");
    let err = text(&o.stderr);
    assert!(
        err.contains("line 3: expected 3 cells in row 2 like row 1, found 2"),
        "{err}"
    );
    assert!(
        err.contains("line 8: expected each tile once, found tile 7 twice"),
        "{err}"
    );
}

#[test]
fn malformed_input_gets_clear_errors_and_exit_2() {
    for (args, stdin, needle) in [
        (
            vec!["solve", "1 2 3 4 5 6 7 8 9"],
            "",
            "expected tiles 1 to 8",
        ),
        (
            vec!["solve", "1 2 3/4 x 6/7 8 x"],
            "",
            "expected one blank, found two",
        ),
        (vec!["solve", "1 2 3/4 y 6/7 8 0"], "", "found \"y\""),
        (vec!["solve", "1 0"], "", "expected"),
        (
            vec!["solve", "--goal", "1 2 3 0", "8 1 3/4 0 2/7 6 5"],
            "",
            "expected a 2x2 board to match the goal, found a 3x3",
        ),
        (vec!["solve"], "", "found none"),
        (vec!["solve", "--size", "1x9", "1 2 3"], "", "--size"),
        (
            vec!["apply", "1 2 3/4 5 6/7 8 0", "U"],
            "",
            "move 1 (U) is illegal",
        ),
        (
            vec!["apply", "1 2 3/4 5 6/7 8 0", "DDD"],
            "",
            "move 3 (D) is illegal",
        ),
        (
            vec!["apply", "1 2 3/4 5 6/7 8 0", "Dx"],
            "",
            "expected moves",
        ),
        (
            vec!["solve", "--algo", "magic", "813402765"],
            "",
            "expected auto, bfs",
        ),
    ] {
        let o = npuzzle(&args, stdin);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let big = "1 ".repeat(100_000) + "\n";
    let o = npuzzle(&["solve"], &big);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("at most 65536 bytes"));
}

#[test]
fn limits_exit_3_with_advice() {
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "bfs",
            "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(3));
    let err = text(&o.stderr);
    assert!(
        err.contains("bfs on 4x4 needs about")
            && err.contains("idastar needs far less (--algo idastar)"),
        "{err}"
    );
    // More than this machine holds: no larger limit is offered.
    assert!(!err.contains("--max-memory"), "{err}");
    // With --optimal (or a named algorithm), running out of time is exit 3 with the bound;
    // auto alone answers fast instead (exit 0, not proven optimal).
    let hard = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0";
    let args = ["solve", "--time-limit", "50ms", "--heuristic", "manhattan"];
    let o = npuzzle(&[&args[..], &[hard]].concat(), "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("(not proven optimal, lower bound"));
    let o = npuzzle(&[&args[..], &["--optimal", hard]].concat(), "");
    assert_eq!(o.status.code(), Some(3));
    assert!(
        text(&o.stderr).contains("needs at least"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn apply_and_verify() {
    for moves in ["LULU", "rdrd", "1 2 5 6", "L U L U"] {
        let o = npuzzle(&["apply", "0 1 3/4 2 5/7 8 6", moves], "");
        assert_eq!(text(&o.stdout), "1 2 3/4 5 6/7 8 0\n", "{moves}");
        let o = npuzzle(&["verify", "0 1 3/4 2 5/7 8 6", moves], "");
        assert_eq!(o.status.code(), Some(0), "{moves}");
    }
    let o = npuzzle(&["verify", "0 1 3/4 2 5/7 8 6", "LUL"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("reach 1 2 3/4 5 0/7 8 6"),
        "{}",
        text(&o.stderr)
    );
    let o = npuzzle(
        &[
            "verify",
            "--goal",
            "1 2 3/8 0 4/7 6 5",
            "2 8 3/1 0 4/7 6 5",
            "DR",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    let o = npuzzle(&["apply", "--grid", "0 1 3/4 2 5/7 8 6", "L"], "");
    assert_eq!(text(&o.stdout), "1 . 3\n4 2 5\n7 8 6\n");
}

#[test]
fn solvable_and_compare() {
    let o = npuzzle(&["solvable", "8 1 3/4 0 2/7 6 5", "2 1 3/4 5 6/7 8 0"], "");
    assert_eq!(
        text(&o.stdout),
        "8 1 3/4 0 2/7 6 5: solvable\n2 1 3/4 5 6/7 8 0: unsolvable\n"
    );
    let o = npuzzle(&["compare", "0 1 3/4 2 5/7 8 6"], "");
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert!(out.contains("optimal length 4"), "{out}");
    for name in [
        "bfs",
        "bibfs",
        "iddfs",
        "astar",
        "idastar",
        "table",
        "linear-conflict",
    ] {
        assert!(out.contains(name), "{name}: {out}");
    }
    let o = npuzzle(&["compare", "--json", "0 1 3/4 2 5/7 8 6"], "");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 12);
    assert!(runs.iter().all(|r| r["length"] == 4));
}

#[test]
fn judge_examples() {
    let o = npuzzle(&["judge", "ctrip"], "0 1 3\n4 2 5\n7 8 6\n");
    assert_eq!(text(&o.stdout), "4\n");
    let o = npuzzle(&["judge", "ctrip"], "1 2 3\n4 5 6\n7 8 0\n");
    assert_eq!(text(&o.stdout), "0\n");
    let o = npuzzle(&["judge", "ctrip"], "2 1 3\n4 5 6\n7 8 0\n");
    assert_eq!(text(&o.stdout), "-1\n");
    let o = npuzzle(&["judge", "luogu1379"], "283104765\n");
    assert_eq!(text(&o.stdout), "4\n");
    let o = npuzzle(&["judge", "luogu1379"], "123804765\n");
    assert_eq!(text(&o.stdout), "0\n");
    let o = npuzzle(
        &["judge", "hdu1043"],
        "2  3  4  1  5  x  7  6  8\n1 2 3 4 5 6 7 8 x\n2 1 3 4 5 6 7 8 x\n",
    );
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].len(), 19);
    assert_eq!(
        apply_blank(&[2, 3, 4, 1, 5, 0, 7, 6, 8], lines[0]).unwrap(),
        vec![1, 2, 3, 4, 5, 6, 7, 8, 0]
    );
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "unsolvable");
    let o = npuzzle(&["judge", "ctrip"], "0 1 3\n4 2 5\n7 8\n");
    assert_eq!(o.status.code(), Some(2));
    let o = npuzzle(
        &["judge", "hdu1043"],
        "1 2 3 4 5 6 7 8 8\n1 2 3 4 5 6 7 x 8\n",
    );
    assert_eq!(o.status.code(), Some(2));
    // One output line per board: the bad one says so, the answers stay on their lines.
    let out = text(&o.stdout);
    assert!(out.starts_with("error: line 1: "), "{out}");
    assert!(out.ends_with("\nr\n"), "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(text(&o.stderr).contains("line 1:"));
}

/// Generated cases: random walks from the goal give an upper bound and a parity; the
/// length must not exceed the walk, must match the solve command's, and every path must
/// be legal and reach the goal.
#[test]
fn judge_modes_on_generated_cases() {
    let mut x: u64 = 0x2545f4914f6cdd1d;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut hdu_in = String::new();
    let mut boards = Vec::new();
    for _ in 0..300 {
        let mut cells: Vec<u8> = vec![1, 2, 3, 4, 5, 6, 7, 8, 0];
        // Fisher-Yates: half of these are unsolvable.
        for i in (1..9).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            cells.swap(i, j);
        }
        let line: Vec<String> = cells
            .iter()
            .map(|&c| if c == 0 { "x".into() } else { c.to_string() })
            .collect();
        hdu_in.push_str(&line.join(" "));
        hdu_in.push('\n');
        boards.push(cells);
    }
    let o = npuzzle(&["judge", "hdu1043"], &hdu_in);
    assert!(o.status.success());
    let paths: Vec<String> = text(&o.stdout).lines().map(String::from).collect();
    assert_eq!(paths.len(), boards.len());
    // The solve command with bfs, a different algorithm, gives the lengths.
    let solve_in: String = boards
        .iter()
        .map(|c| {
            c.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let o = npuzzle(&["solve", "--json", "--algo", "bibfs"], &solve_in);
    let lens: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["length"].clone())
        .collect();
    let (mut solvable, mut unsolvable) = (0, 0);
    for ((cells, path), len) in boards.iter().zip(&paths).zip(&lens) {
        if path == "unsolvable" {
            unsolvable += 1;
            assert!(len.is_null());
        } else {
            solvable += 1;
            assert_eq!(
                apply_blank(cells, path).unwrap(),
                vec![1, 2, 3, 4, 5, 6, 7, 8, 0]
            );
            assert_eq!(path.len() as u64, len.as_u64().unwrap());
        }
        // ctrip on the same board agrees.
        let grid: String = cells
            .chunks(3)
            .map(|r| {
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        if solvable + unsolvable <= 20 {
            let o = npuzzle(&["judge", "ctrip"], &grid);
            let want = if path == "unsolvable" {
                "-1".to_string()
            } else {
                path.len().to_string()
            };
            assert_eq!(text(&o.stdout).trim(), want);
        }
    }
    assert!(solvable > 100 && unsolvable > 100);

    // luogu1379 against `solve` with the same goal and another algorithm.
    for cells in boards.iter().take(30) {
        let digits: String = cells.iter().map(|t| t.to_string()).collect();
        let o = npuzzle(&["judge", "luogu1379"], &format!("{digits}\n"));
        let got = text(&o.stdout).trim().to_string();
        let o = npuzzle(
            &[
                "solve",
                "--json",
                "--algo",
                "astar",
                "--goal",
                "123804765",
                &digits,
            ],
            "",
        );
        let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
        let want = v["length"]
            .as_u64()
            .map_or("-1".to_string(), |l| l.to_string());
        assert_eq!(got, want, "{digits}");
    }
}

/// The files in `dir` that npuzzle keeps data in, without the stamps (`NAME.checked`)
/// that record which of them passed the consistency pass.
fn data_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_none_or(|x| x != "checked"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn analyze_reports_json_text_and_svg() {
    let dir = temp_dir("analyze");
    let cache = dir.to_str().unwrap();
    let svg = dir.join("h.svg");
    let o = npuzzle(
        &[
            "analyze",
            "--size",
            "3x3",
            "--json",
            "--cache-dir",
            cache,
            "--svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["size"], "3x3");
    assert_eq!(v["states"], 181_440);
    assert_eq!(v["max_depth"], 31);
    assert_eq!(v["histogram"].as_array().unwrap().len(), 32);
    assert_eq!(v["histogram"][31], 2);
    assert_eq!(v["antipodes"].as_array().unwrap().len(), 2);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert_eq!(picture.matches("<rect x=").count(), 32, "one bar per depth");

    let o = npuzzle(
        &["analyze", "--size", "2x3", "--antipodes", "1", "--no-save"],
        "",
    );
    let out = text(&o.stdout);
    assert!(out.contains("360 states, at most 21 moves"), "{out}");
    assert!(
        out.contains("hardest positions (21 moves): 1 in all"),
        "{out}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn analyze_refuses_what_does_not_fit() {
    let o = npuzzle(&["analyze", "--size", "4x4"], "");
    assert_eq!(o.status.code(), Some(3));
    assert!(
        text(&o.stderr).contains("analyze on 4x4 needs about"),
        "{}",
        text(&o.stderr)
    );
    let o = npuzzle(&["analyze", "--size", "3x4", "--max-memory", "10M"], "");
    assert_eq!(o.status.code(), Some(3));
    let o = npuzzle(&["analyze", "--size", "3x3", "--goal", "1 2 3 0"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn solve_uses_cached_tables_and_survives_corrupt_ones() {
    let dir = temp_dir("cache");
    let cache = dir.to_str().unwrap();
    let goal = "1 2/3 4/5 6/7 8/9 0";
    let o = npuzzle(
        &[
            "analyze",
            "--size",
            "2x5",
            "--goal",
            goal,
            "--cache-dir",
            cache,
        ],
        "",
    );
    assert!(o.status.success());
    let board = "0 1/2 3/4 5/6 7/8 9";
    let o = npuzzle(
        &[
            "solve",
            "--json",
            "--cache-dir",
            cache,
            "--goal",
            goal,
            board,
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["algorithm"], "table");
    let with_table = v["length"].clone();
    let o = npuzzle(
        &[
            "solve", "--json", "--algo", "idastar", "--goal", goal, board,
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["length"], with_table);
    // Corrupt the file: it is reported and ignored, and auto falls back to a search.
    let file = data_files(&dir)[0].clone();
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let o = npuzzle(
        &[
            "solve",
            "--json",
            "--cache-dir",
            cache,
            "--goal",
            goal,
            board,
        ],
        "",
    );
    assert!(o.status.success());
    assert!(text(&o.stderr).contains("corrupt"), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["algorithm"], "idastar");
    assert_eq!(v["length"], with_table);
    // --algo table rebuilds it and saves a sound one.
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "table",
            "--cache-dir",
            cache,
            "--goal",
            goal,
            board,
        ],
        "",
    );
    assert!(o.status.success());
    assert!(
        text(&o.stderr).contains("table saved"),
        "{}",
        text(&o.stderr)
    );
    let o = npuzzle(
        &[
            "solve",
            "--json",
            "--cache-dir",
            cache,
            "--goal",
            goal,
            board,
        ],
        "",
    );
    assert!(!text(&o.stderr).contains("corrupt"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn pattern_databases_build_list_verify_and_solve() {
    let dir = temp_dir("pdb");
    let d = dir.to_str().unwrap();
    let build = || {
        npuzzle(
            &[
                "pdb",
                "--pdb-dir",
                d,
                "build",
                "--size",
                "3x3",
                "--pdb",
                "1,2,3,4/5,6,7,8",
            ],
            "",
        )
    };
    let o = build();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).matches("built").count(), 2);
    let o = build();
    assert_eq!(text(&o.stdout).matches("present").count(), 2);
    let o = npuzzle(&["pdb", "--pdb-dir", d, "list"], "");
    assert_eq!(text(&o.stdout).lines().count(), 2);
    let o = npuzzle(&["pdb", "--pdb-dir", d, "verify"], "");
    assert!(o.status.success());
    // IDA* with them agrees with the table on boards of every kind of depth.
    for board in [
        "8 6 7/2 5 4/3 0 1",
        "8 1 3/4 0 2/7 6 5",
        "1 2 3/4 5 6/7 0 8",
    ] {
        let o = npuzzle(
            &[
                "solve",
                "--json",
                "--pdb",
                "1,2,3,4/5,6,7,8",
                "--pdb-dir",
                d,
                board,
            ],
            "",
        );
        let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
        let o = npuzzle(&["solve", "--json", "--algo", "table", board], "");
        let w: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
        assert_eq!(v["length"], w["length"], "{board}");
        assert!(v["heuristic"].as_str().unwrap().contains("reflection"));
        // Mapped or read into memory, the same answer.
        for how in ["map", "read"] {
            let o = npuzzle(
                &[
                    "solve",
                    "--json",
                    "--pdb",
                    "1,2,3,4/5,6,7,8",
                    "--pdb-load",
                    how,
                    "--pdb-dir",
                    d,
                    board,
                ],
                "",
            );
            let x: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
            assert_eq!(x["length"], w["length"], "{board} {how}");
        }
    }
    let o = npuzzle(&["solve", "--pdb-load", "mmap", "8 6 7/2 5 4/3 0 1"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("expected auto, map or read, found \"mmap\""),
        "{}",
        text(&o.stderr)
    );
    // A corrupt file is found by verify and rebuilt on use.
    let file = data_files(&dir)[0].clone();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let o = npuzzle(&["pdb", "--pdb-dir", d, "verify"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).contains("corrupt"));
    let o = npuzzle(
        &[
            "solve",
            "--pdb",
            "1,2,3,4/5,6,7,8",
            "--pdb-dir",
            d,
            "8 6 7/2 5 4/3 0 1",
        ],
        "",
    );
    assert!(o.status.success());
    assert!(
        text(&o.stderr).contains("rebuilding"),
        "{}",
        text(&o.stderr)
    );
    let o = npuzzle(&["pdb", "--pdb-dir", d, "verify"], "");
    assert!(o.status.success());
    let o = npuzzle(&["pdb", "--pdb-dir", d, "remove"], "");
    assert_eq!(text(&o.stdout).matches("removed").count(), 2);
    let o = npuzzle(&["solve", "--pdb", "1,2,2", "8 6 7/2 5 4/3 0 1"], "");
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_checks_lengths_against_the_file() {
    let dir = temp_dir("bench");
    let d = dir.to_str().unwrap();
    // 3x3 instances in Korf's format (goal 0 1 2 ... 8), lengths from the table.
    let boards = [
        "8 6 7 2 5 4 3 0 1",
        "1 2 0 3 4 5 6 7 8",
        "3 1 2 0 4 5 6 7 8",
    ];
    let mut file = String::from("# id cells optimal\n");
    for (i, b) in boards.iter().enumerate() {
        let o = npuzzle(
            &[
                "solve",
                "--json",
                "--algo",
                "table",
                "--goal",
                "0 1 2 3 4 5 6 7 8",
                b,
            ],
            "",
        );
        let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
        file.push_str(&format!("{} {b} {}\n", i + 1, v["length"]));
    }
    let path = dir.join("set.txt");
    std::fs::write(&path, &file).unwrap();
    for threads in ["1", "2"] {
        let o = npuzzle(
            &[
                "bench",
                path.to_str().unwrap(),
                "--pdb-dir",
                d,
                "--threads",
                threads,
                "--json",
            ],
            "",
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let lines: Vec<serde_json::Value> = text(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[..3].iter().all(|v| v["ok"] == true));
        assert_eq!(lines[3]["solved"], 3);
    }
    // A wrong optimum in the file is reported, a bad line too; the exit code is the worse
    // of the two, the wrong length (1), not hidden by the bad line (2).
    std::fs::write(&path, file.replace(" 2\n", " 4\n") + "9 1 2 3\n").unwrap();
    let o = npuzzle(&["bench", path.to_str().unwrap(), "--pdb-dir", d], "");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("the file says 4"),
        "{}",
        text(&o.stderr)
    );
    // An instance that cannot reach the goal (two tiles swapped) is reported on its line
    // and not counted as solved; the others still are (exit 2: the bad instance).
    std::fs::write(&path, file.clone() + "4 0 1 2 3 4 5 6 8 7 5\n").unwrap();
    let o = npuzzle(
        &["bench", path.to_str().unwrap(), "--pdb-dir", d, "--json"],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .contains("cannot reach the goal"));
    assert_eq!(lines[4]["solved"], 3);
    assert_eq!(lines[4]["instances"], 4);
    assert_eq!(lines[4]["stopped"], 0);
    // A search its time limit stops is reported on its line, and its nodes and time apart
    // from the answers' totals (a 24-puzzle with single-tile databases: far beyond any
    // machine in a third of a second).
    let stopped = |json: bool| {
        let mut args = vec![
            "bench",
            "--set",
            "korf24",
            "--ids",
            "1",
            "--pdb",
            "1/2",
            "--pdb-dir",
            d,
            "--time-limit",
            "0.3",
        ];
        if json {
            args.push("--json");
        }
        npuzzle(&args, "")
    };
    let o = stopped(true);
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let total = lines.last().unwrap();
    assert_eq!(total["solved"], 0, "{lines:?}");
    assert_eq!(total["total_expanded"], 0, "{lines:?}");
    assert_eq!(total["stopped"], 1, "{lines:?}");
    assert!(total["stopped_expanded"].as_u64().unwrap() > 0, "{lines:?}");
    assert!(
        total["stopped_seconds"].as_f64().unwrap() > 0.0,
        "{lines:?}"
    );
    let out = text(&stopped(false).stdout);
    assert!(
        out.contains("stopped by their limits: 1 instance, "),
        "{out}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn all_and_first_enumerate_optimal_solutions() {
    let o = npuzzle(
        &["solve", "--json", "--first", "4", "8 6 7/2 5 4/3 0 1"],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["count"], 4);
    let sols = v["solutions"].as_array().unwrap();
    for s in sols {
        let o = npuzzle(&["verify", "8 6 7/2 5 4/3 0 1", s.as_str().unwrap()], "");
        assert!(o.status.success());
        assert_eq!(
            npuzzle::Notation::Tile
                .parse(&"8 6 7/2 5 4/3 0 1".parse().unwrap(), s.as_str().unwrap())
                .unwrap()
                .len(),
            31
        );
    }
    let o = npuzzle(&["solve", "--all", "1 2 3/4 5 6/0 7 8"], "");
    assert_eq!(
        text(&o.stdout),
        "1 2 3/4 5 6/0 7 8: 2 moves, 1 optimal solution:\n  L2\n"
    );
    let o = npuzzle(
        &["solve", "--all", "--algo", "bfs", "1 2 3/4 5 6/0 7 8"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_named_heuristic_wins_over_pattern_databases() {
    // auto on 4x4 uses pattern databases, but not when a heuristic is named: nothing is
    // built in the (empty) database directory and the named heuristic does the work.
    let dir = temp_dir("named-heuristic");
    let d = dir.to_str().unwrap();
    let o = npuzzle(
        &[
            "solve",
            "--json",
            "--heuristic",
            "manhattan",
            "--pdb-dir",
            d,
            "1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15",
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["length"], 2);
    assert_eq!(v["heuristic"], "manhattan");
    assert!(!text(&o.stderr).contains("building"), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_dir(&dir).map_or(0, |r| r.count()), 0);
    let _ = std::fs::remove_dir_all(dir);
}

/// A test's sandbox and temporary folders go when its thread ends, passed or failed:
/// repeated runs leave nothing behind in the system's temporary folder.
#[test]
fn a_tests_files_go_when_it_ends() {
    for fails in [false, true] {
        let (tx, rx) = std::sync::mpsc::channel();
        let t = std::thread::Builder::new()
            .name(format!("cleanup-check-{fails}"))
            .spawn(move || {
                let home = sandbox();
                std::fs::create_dir_all(home.join("cache")).unwrap();
                std::fs::write(home.join("cache").join("f"), b"x").unwrap();
                let other = temp_dir(&format!("cleanup-check-{fails}"));
                std::fs::write(other.join("f"), b"x").unwrap();
                tx.send((home, other)).unwrap();
                assert!(!fails, "a failing test's files go too");
            })
            .unwrap();
        assert_eq!(t.join().is_err(), fails);
        let (home, other) = rx.recv().unwrap();
        assert!(!home.exists(), "{} left behind", home.display());
        assert!(!other.exists(), "{} left behind", other.display());
    }
}

/// One test's cleanup never pulls the ground from under another's: tests that make and
/// drop their sandboxes side by side always find their folders (CI once failed when one
/// test's cleanup removed a shared parent folder while another was creating its own).
#[test]
fn sandboxes_made_and_dropped_side_by_side_do_not_interfere() {
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::Builder::new()
                .name(format!("sandbox-race-{t}"))
                .spawn(move || {
                    for round in 0..200 {
                        // A thread of its own a round, so each round's cleanup runs.
                        std::thread::Builder::new()
                            .name(format!("sandbox-race-{t}-{round}"))
                            .spawn(|| {
                                let home = sandbox();
                                std::fs::create_dir_all(home.join("cache"))?;
                                std::fs::write(home.join("cache").join("f"), b"x")
                            })
                            .unwrap()
                            .join()
                            .unwrap()
                            .unwrap_or_else(|e| panic!("round {round}: {e}"));
                    }
                })
                .unwrap()
        })
        .collect();
    for t in threads {
        assert!(t.join().is_ok());
    }
}

#[test]
fn tests_keep_their_files_in_their_own_sandbox() {
    // A 2x5 board solved by table, with no --cache-dir: the table is saved in the folder
    // that NPUZZLE_CACHE_DIR names for this test, not in the user's cache.
    let home = sandbox();
    let _ = std::fs::remove_dir_all(&home);
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "table",
            "--size",
            "5x2",
            "1 2 3 4 0 5 6 7 8 9",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let saved: Vec<_> = data_files(&home.join("cache"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        saved.len() == 1 && saved[0].starts_with("table-5x2-"),
        "{saved:?}"
    );
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn scramble_draws_reproducible_solvable_positions() {
    let o = npuzzle(&["scramble", "--size", "4x4", "--seed", "1", "-n", "3"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(
        out,
        "11 10 3 15/5 13 0 7/4 1 2 14/6 9 8 12\n\
         12 10 14 4/9 0 8 3/11 5 6 13/1 7 2 15\n\
         5 10 7 2/13 0 9 4/12 11 3 8/15 6 14 1\n"
    );
    // Every one solvable, by the parity test.
    let o = npuzzle(&["solvable"], &out);
    assert_eq!(text(&o.stdout).matches(": solvable\n").count(), 3);
    // A walk, in JSON, with its moves; a goal of one's own.
    let o = npuzzle(
        &[
            "scramble",
            "--size",
            "3x3",
            "--seed",
            "2",
            "--moves",
            "10",
            "--json",
            "--goal",
            "1 2 3/8 0 4/7 6 5",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["kind"], "walk");
    assert_eq!(v["walk_length"], 10);
    assert_eq!(v["seed"], 2);
    // Without a seed, the one drawn is told, and drawing with it gives the same board.
    let o = npuzzle(&["scramble", "--size", "3x3"], "");
    let err = text(&o.stderr);
    let seed = err
        .split_whitespace()
        .nth(2)
        .expect("npuzzle: seed N ...")
        .to_string();
    let again = npuzzle(&["scramble", "--size", "3x3", "--seed", &seed], "");
    assert_eq!(text(&again.stdout), text(&o.stdout), "{err}");
    // Bad values are named.
    for (args, want) in [
        (&["scramble"][..], "--size"),
        (&["scramble", "--size", "3x3", "-n", "0"], "count from 1"),
        (&["scramble", "--size", "3x3", "--seed=-4"], "seed from 0"),
        (
            &["scramble", "--size", "3x3", "--moves", "x"],
            "walk of 0 to",
        ),
        (&["scramble", "--size", "3x3", "--goal", "1 2 3"], "--goal"),
    ] {
        refused(args, want, 2);
    }
}

#[test]
fn the_moves_toolbox() {
    let run = |args: &[&str]| {
        let o = npuzzle(args, "");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        text(&o.stdout).trim_end().to_string()
    };
    assert_eq!(run(&["moves", "simplify", "R R L U U"]), "RU2");
    assert_eq!(run(&["moves", "invert", "LULU"]), "DRDR");
    assert_eq!(run(&["moves", "length", "RRRULLL"]), "7");
    assert_eq!(run(&["moves", "length", "--metric", "mtm", "RRRULLL"]), "3");
    assert_eq!(run(&["moves", "transpose", "URDL"]), "LDRU");
    assert_eq!(run(&["moves", "slice", "1", "3", "LURD"]), "UR");
    assert_eq!(
        run(&["moves", "from-solution", "--size", "3x3", "DRUL"]),
        "1 2 3/4 6 8/7 5 0"
    );
    // What from-solution gives, the sequence solves.
    let o = npuzzle(&["verify", "1 2 3/4 6 8/7 5 0", "DRUL"], "");
    assert_eq!(o.status.code(), Some(0));
    // Notations round trip: tile -> blank -> tiles -> tile.
    let board = "0 1 3/4 2 5/7 8 6";
    let blank = run(&["moves", "convert", "--to", "blank", "L U L U"]);
    assert_eq!(blank, "rdrd");
    let tiles = run(&[
        "moves", "convert", "--to", "tiles", "--board", board, &blank,
    ]);
    assert_eq!(tiles, "1 2 5 6");
    let tile = run(&["moves", "convert", "--board", board, &tiles]);
    assert_eq!(tile, "LULU");
    // The optimum, and how far over a solution is.
    assert_eq!(
        run(&["moves", "opt-diff", "8 1 3/4 0 2/7 6 5", "LUR2D2LURULDLU"]),
        "14 moves, optimal 14: 0 over (optimal)"
    );
    let longer = "LUR2D2LURULDLU".to_string() + "RLRL";
    assert_eq!(
        run(&["moves", "opt-diff", "8 1 3/4 0 2/7 6 5", &longer]),
        "18 moves, optimal 14: 4 over"
    );
    // Optimize: three turns round a block (nothing) and the optimum, back to 14 moves,
    // still reaching the goal.
    let short = run(&[
        "moves",
        "optimize",
        "--board",
        "8 1 3/4 0 2/7 6 5",
        "LURDLURDLURDLUR2D2LURULDLU",
    ]);
    assert_eq!(run(&["moves", "length", &short]), "14");
    let o = npuzzle(&["verify", "8 1 3/4 0 2/7 6 5", &short], "");
    assert_eq!(o.status.code(), Some(0));
    // Standard input, one sequence a line; a bad line is reported and the rest go on.
    let o = npuzzle(
        &["moves", "invert", "--json"],
        "LU\nxyz\n\n# a comment\nR2\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["moves"], "DR");
    assert!(lines[1]["error"].as_str().unwrap().contains("xyz"));
    assert_eq!(lines[2]["moves"], "L2");
    assert!(text(&o.stderr).contains("line 2"));
    // Errors say what is wrong.
    for (args, want, code) in [
        (&["moves", "slice", "3", "1", "LURD"][..], "A at most B", 2),
        (
            &["moves", "slice", "1", "9", "LURD"],
            "within the 4 moves",
            2,
        ),
        (&["moves", "convert", "1 2 5 6"], "needs --board", 2),
        (
            &["moves", "convert", "--to", "tiles", "LU"],
            "needs --board",
            2,
        ),
        (
            &["moves", "from-solution", "--size", "3x3", "D"],
            "solves no 3x3",
            2,
        ),
        (
            &["moves", "opt-diff", "8 1 3/4 0 2/7 6 5", "LU"],
            "not the goal",
            1,
        ),
        (&["moves", "optimize", "LU"], "expected --board", 2),
        (
            &[
                "moves", "optimize", "--board", "1 2/3 0", "--window", "1", "R",
            ],
            "window of 2 to 40",
            2,
        ),
    ] {
        refused(args, want, code);
    }
}

#[test]
fn batches_on_several_threads_answer_as_one_thread_does() {
    // 2,000 scrambles, a bad line among them, two goals' sizes: the same output, in input
    // order, whatever the thread count.
    let o = npuzzle(
        &["scramble", "--size", "3x3", "-n", "1500", "--seed", "4"],
        "",
    );
    let mut input = text(&o.stdout);
    input.push_str("1 2 3/4 4 5/6 7 0\n");
    let o = npuzzle(
        &["scramble", "--size", "3x2", "-n", "500", "--seed", "5"],
        "",
    );
    input.push_str(&text(&o.stdout));
    let one = npuzzle(&["solve", "--threads", "1"], &input);
    let two = npuzzle(&["solve", "--threads", "2"], &input);
    let three = npuzzle(&["solve", "--threads", "3", "--json"], &input);
    assert_eq!(one.status.code(), Some(2));
    assert_eq!(two.status.code(), Some(2));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    assert_eq!(text(&one.stdout).lines().count(), 2000);
    // Answers stay in input order: line k answers board k.
    let boards: Vec<&str> = input.lines().filter(|l| !l.contains("4 4")).collect();
    for (answer, board) in text(&one.stdout).lines().zip(&boards) {
        assert!(
            answer.starts_with(&format!("{board}: ")),
            "{answer} / {board}"
        );
    }
    let json: Vec<serde_json::Value> = text(&three.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(json.len(), 2001);
    assert_eq!(json[1500]["line"], 1501);
    assert!(json[1500]["error"]
        .as_str()
        .unwrap()
        .contains("tile 4 twice"));
}

#[test]
fn a_batch_answers_before_its_input_ends() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = common::command(&["solve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"8 1 3/4 0 2/7 6 5\n").unwrap();
    stdin.flush().unwrap();
    // The first answer comes while standard input is still open. (A guard ends the test
    // if it never comes, rather than hanging.)
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    drop(stdin);
    let _ = child.wait();
    let first = first.expect("an answer before the input ended");
    assert!(first.starts_with("8 1 3/4 0 2/7 6 5: 14 moves"), "{first}");
}

#[test]
fn render_draws_boards_and_animations() {
    let o = npuzzle(&["render", "8 1 3/4 0 2/7 6 5"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let svg = text(&o.stdout);
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(svg.matches("<text").count(), 8);
    let dir = sandbox().join("render");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("solve.svg");
    let o = npuzzle(
        &[
            "render",
            "8 1 3/4 0 2/7 6 5",
            "--moves",
            "LUR2D2LURULDLU",
            "--scheme",
            "fringe",
            "-o",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg.matches("<animateTransform").count(), 8);
    std::fs::remove_dir_all(&dir).unwrap();
    for (args, want, code) in [
        (
            &["render", "8 1 3/4 0 2/7 6 5", "--moves", "UUU"][..],
            "--moves",
            2,
        ),
        (
            &["render", "8 1 3/4 0 2/7 6 5", "--scheme", "pink"],
            "plain, rows or fringe",
            2,
        ),
        (
            &["render", "8 1 3/4 0 2/7 6 5", "--tps", "0"],
            "moves a second",
            2,
        ),
        (
            &["render", "8 1 3/4 0 2/7 6 5", "-o", "/proc/npuzzle/x.svg"],
            "/proc/npuzzle",
            4,
        ),
    ] {
        refused(args, want, code);
    }
}

#[test]
fn animate_plays_only_on_a_terminal() {
    // In a pipe the answer is printed as usual, with no drawing codes.
    let o = npuzzle(&["solve", "--animate", "8 1 3/4 0 2/7 6 5"], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        text(&o.stdout),
        "8 1 3/4 0 2/7 6 5: 14 moves: LUR2D2LURULDLU\n"
    );
    let o = npuzzle(&["solve", "--animate", "--json", "8 1 3/4 0 2/7 6 5"], "");
    assert_eq!(o.status.code(), Some(2), "--animate and --json conflict");
    let o = npuzzle(
        &["solve", "--animate", "--tps", "0", "8 1 3/4 0 2/7 6 5"],
        "",
    );
    assert!(text(&o.stderr).contains("moves a second"));
    // On a terminal (tmux), the grid is redrawn in place: the last frame shows the goal.
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        return;
    }
    let name = format!("npz{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    let started = std::process::Command::new("tmux")
        .args(["new-session", "-d", "-s", &name, "-x", "60", "-y", "10"])
        .arg(format!(
            "HOME={h} XDG_CACHE_HOME={h}/x NPUZZLE_CACHE_DIR={h}/c NPUZZLE_PDB_DIR={h}/p \
             {bin} solve --animate --tps 100 '1 2 3/4 0 6/7 5 8'; sleep 5",
            h = sandbox().display()
        ))
        .status()
        .unwrap();
    assert!(started.success());
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let pane = std::process::Command::new("tmux")
        .args(["capture-pane", "-p", "-t", &name])
        .output()
        .unwrap();
    let _ = std::process::Command::new("tmux")
        .args(["kill-session", "-t", &name])
        .status();
    let screen = text(&pane.stdout);
    assert!(screen.contains("move 2 of 2"), "{screen}");
    assert_eq!(
        screen.matches("move ").count(),
        1,
        "redrawn in place: {screen}"
    );
    assert!(screen.contains("  7 8 ."), "{screen}");
}

#[test]
fn analyze_counts_multi_tile_moves() {
    let dir = sandbox().join("mtm");
    let d = dir.to_str().unwrap();
    let o = npuzzle(
        &[
            "analyze",
            "--size",
            "3x3",
            "--metric",
            "mtm",
            "--json",
            "--cache-dir",
            d,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["metric"], "mtm");
    assert_eq!(v["states"], 181_440);
    assert_eq!(v["max_depth"], 24);
    assert_eq!(v["antipodes"][0], "1 4 7/2 0 8/3 6 5");
    // No table is saved for this metric.
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
    let o = npuzzle(&["analyze", "--size", "3x3", "--metric", "ftm"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("stm or mtm"));
}

#[test]
fn solve_counts_multi_tile_moves() {
    // The farthest 3x3 position in multi-tile moves, as analyze finds it: 24 moves.
    let o = npuzzle(&["solve", "--metric", "mtm", "1 4 7/2 0 8/3 6 5"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("1 4 7/2 0 8/3 6 5: 24 moves (mtm): "),
        "{out}"
    );
    let moves = out.trim().rsplit(' ').next().unwrap();
    let o = npuzzle(&["verify", "1 4 7/2 0 8/3 6 5", moves], "");
    assert_eq!(o.status.code(), Some(0));
    let o = npuzzle(&["moves", "length", "--metric", "mtm", moves], "");
    assert_eq!(text(&o.stdout).trim(), "24");
    let o = npuzzle(
        &["solve", "--metric", "mtm", "--json", "8 1 3/4 0 2/7 6 5"],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["metric"], "mtm");
    assert_eq!(v["length"], 12);
    for args in [
        &[
            "solve",
            "--metric",
            "mtm",
            "--algo",
            "bfs",
            "1 2 3/4 5 6/7 0 8",
        ][..],
        &["solve", "--metric", "mtm", "--all", "1 2 3/4 5 6/7 0 8"],
    ] {
        refused(args, "--metric: mtm", 2);
    }
    let five = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24";
    let o = npuzzle(&["solve", "--metric", "mtm", five], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("up to 4x4"), "{}", text(&o.stderr));
}

#[test]
fn fast_solves_any_size_and_says_it_is_not_proven() {
    let o = npuzzle(
        &["scramble", "--size", "12x9", "--seed", "3", "-n", "3"],
        "",
    );
    let boards = text(&o.stdout);
    let o = npuzzle(&["solve", "--algo", "fast", "--json"], &boards);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for (line, board) in text(&o.stdout).lines().zip(boards.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["optimal"], false);
        let (len, lb) = (
            v["length"].as_u64().unwrap(),
            v["lower_bound"].as_u64().unwrap(),
        );
        assert!(lb > 0 && lb <= len, "{lb} {len}");
        let moves = v["moves"].as_str().unwrap();
        let check = npuzzle(&["verify", board, moves], "");
        assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    }
    let o = npuzzle(&["solve", "--algo", "fast", "8 1 3/4 0 2/7 6 5"], "");
    assert!(
        text(&o.stdout).contains("(not proven optimal, lower bound 10)"),
        "{}",
        text(&o.stdout)
    );
    // Exact answers say so in JSON too.
    let o = npuzzle(&["solve", "--json", "8 1 3/4 0 2/7 6 5"], "");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["optimal"], true);
    assert_eq!(v["lower_bound"], 14);
}

#[test]
fn weighted_search_states_its_bound() {
    let o = npuzzle(
        &["solve", "--weight", "1.5", "--json", "8 6 7/2 5 4/3 0 1"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["optimal"], false);
    assert_eq!(v["weight"], 1.5);
    let len = v["length"].as_u64().unwrap();
    assert!((31..=46).contains(&len), "{len}");
    assert!(v["lower_bound"].as_u64().unwrap() <= 31);
    let o = npuzzle(&["solve", "--weight", "1.5", "8 6 7/2 5 4/3 0 1"], "");
    assert!(
        text(&o.stdout).contains("(at most 1.5 x optimal, lower bound"),
        "{}",
        text(&o.stdout)
    );
    for args in [
        &["solve", "--weight", "0.9", "8 6 7/2 5 4/3 0 1"][..],
        &[
            "solve",
            "--weight",
            "1.5",
            "--algo",
            "bfs",
            "8 6 7/2 5 4/3 0 1",
        ],
        &["solve", "--weight", "1.5", "--all", "8 6 7/2 5 4/3 0 1"],
    ] {
        refused(args, "weight", 2);
    }
}

#[test]
fn solve_runs_beams_at_the_width_asked_for() {
    let board = text(&npuzzle(&["scramble", "--size", "7x7", "--seed", "4"], "").stdout)
        .trim()
        .to_string();
    // No clock: the same answer every run, verified by applying it.
    let run = || npuzzle(&["solve", "--beam-width", "32", "--stats", &board], "");
    let (a, b) = (run(), run());
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    let first = |o: &std::process::Output| text(&o.stdout).lines().next().unwrap().to_string();
    assert_eq!(first(&a), first(&b));
    assert!(
        first(&a).contains("(not proven optimal, lower bound"),
        "{}",
        first(&a)
    );
    assert!(text(&a.stdout).contains("  anytime (linear-conflict beam):"));
    let moves = first(&a).rsplit(' ').next().unwrap().to_string();
    assert_eq!(
        npuzzle(&["verify", &board, &moves], "").status.code(),
        Some(0)
    );
    let five = text(&npuzzle(&["scramble", "--size", "5x5", "--seed", "4"], "").stdout)
        .trim()
        .to_string();
    refused(
        &["solve", "--beam-width", "32", &five],
        "--beam-width: expected a board of 26 cells or more (where auto answers by beams), \
         found 5x5 (25 cells)",
        2,
    );
    refused(
        &["solve", "--beam-width", "32", "--algo", "idastar", &board],
        "a beam width is for the anytime solver",
        2,
    );
    refused(
        &["solve", "--beam-width", "x", &board],
        "expected a beam width from 1 to 1048576, found \"x\"",
        2,
    );
}

#[test]
fn auto_answers_large_boards_without_building_databases() {
    // A random 6x6 under a tiny memory limit: answered by the anytime solver within its
    // second (beams as wide as the limit allows), said to be unproven, and no database
    // is built or saved.
    let o = npuzzle(&["scramble", "--size", "6x6", "--seed", "4"], "");
    let board = text(&o.stdout).trim().to_string();
    let o = npuzzle(&["solve", "--max-memory", "1M", "--stats", &board], "");
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(out.contains("(not proven optimal, lower bound"), "{out}");
    assert!(out.contains("  anytime (linear-conflict beam):"), "{out}");
    let moves = out.lines().next().unwrap().rsplit(' ').next().unwrap();
    let o = npuzzle(&["verify", &board, moves], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(!sandbox().join("pdb").exists(), "nothing built");
}

/// `npuzzle serve`: prints its address, answers, warns off loopback, stops on Ctrl-C.
#[test]
fn serve_answers_on_its_printed_address_and_stops_on_ctrl_c() {
    use std::io::{BufRead, Read, Write};
    for (bind, warns) in [("127.0.0.1:0", false), ("0.0.0.0:0", true)] {
        let mut child = common::command(&["serve", "--bind", bind])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let url = line.trim().to_string();
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .unwrap()
            .to_string();
        let ask = |host: &str| {
            let mut s = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
            write!(
                s,
                "GET /api/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut answer = String::new();
            s.read_to_string(&mut answer).unwrap();
            answer
        };
        let answer = ask(&format!("127.0.0.1:{port}"));
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("\"status\":\"ok\""), "{answer}");
        // Another name is refused (a page that rebinds its name to this machine); an
        // address is answered where the server listens on every interface.
        assert!(ask(&format!("evil.example:{port}")).starts_with("HTTP/1.1 403"));
        let lan = ask(&format!("10.1.2.3:{port}"));
        assert_eq!(lan.starts_with("HTTP/1.1 200"), warns, "{bind}: {lan}");
        let st = std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(st.success());
        let o = child.wait_with_output().unwrap();
        let err = common::text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.contains("server stopped"), "{err}");
        assert_eq!(err.contains("not loopback"), warns, "{bind}: {err}");
        // No databases are cached in the sandbox: the server says so and builds none.
        assert!(err.contains("no 4x4 pattern databases cached"), "{err}");
    }
    common::refused(
        &["serve", "--bind", "nowhere"],
        "--bind: expected an address",
        2,
    );
    // Limits that would refuse every solve, and mapping, are refused at the start.
    for (args, says) in [
        (
            &["--time-limit", "0"][..],
            "--time-limit: expected a time above 0",
        ),
        (
            &["--max-nodes", "0"][..],
            "--max-nodes: expected at least 1",
        ),
        (
            &["--max-memory", "0"][..],
            "--max-memory: expected at least 1M",
        ),
        (
            &["--pdb-load", "map"][..],
            "--pdb-load: expected auto or read",
        ),
        (
            &["--max-connections", "0"][..],
            "--max-connections: expected from 1",
        ),
        (
            &["--allow-host", "a:80"][..],
            "--allow-host: expected a host name",
        ),
    ] {
        let mut all = vec!["serve", "--bind", "127.0.0.1:0"];
        all.extend_from_slice(args);
        common::refused(&all, says, 2);
    }
}

/// The files in the sandbox's database folder.
fn built() -> Vec<String> {
    data_files(&sandbox().join("pdb"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn auto_answers_a_24_puzzle_within_its_time_limit_with_the_bound_proven() {
    let o = npuzzle(&["scramble", "--size", "5x5", "--seed", "3"], "");
    let board = text(&o.stdout).trim().to_string();
    // No databases cached: none is built (each 5x5 one takes minutes); the exact search
    // runs for half the time limit, then beams answer in the other half with the bound it
    // proved, far shorter than the fast solver's answer.
    let o = npuzzle(&["solve", "--json", "--time-limit", "0.6", &board], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(
        (v["optimal"].as_bool(), v["algorithm"].as_str()),
        (Some(false), Some("anytime"))
    );
    let bound = v["lower_bound"].as_u64().unwrap();
    let len = v["length"].as_u64().unwrap();
    assert!(bound > 0 && bound <= len);
    assert!(v["expanded"].as_u64().unwrap() > 0);
    assert!(
        text(&o.stderr).contains("the exact search stopped after")
            && text(&o.stderr).contains("answered by beams"),
        "{}",
        text(&o.stderr)
    );
    let fast = npuzzle(&["solve", "--json", "--algo", "fast", &board], "");
    let f: serde_json::Value = serde_json::from_str(text(&fast.stdout).trim()).unwrap();
    assert!(
        len <= f["length"].as_u64().unwrap(),
        "beams {len}, fast {}",
        f["length"]
    );
    let o2 = npuzzle(&["verify", &board, v["moves"].as_str().unwrap()], "");
    assert_eq!(o2.status.code(), Some(0));
    assert!(built().is_empty(), "built {:?}", built());
    // --optimal: running out is an error with the bound, as before.
    let o = npuzzle(&["solve", "--optimal", "--time-limit", "0.3", &board], "");
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("the solution needs at least"));
    refused(
        &["solve", "--optimal", "--algo", "fast", &board],
        "--optimal",
        2,
    );
}

#[test]
fn auto_builds_only_cheap_databases_and_named_builds_respect_the_time_limit() {
    let o = npuzzle(&["scramble", "--size", "4x4", "--seed", "3"], "");
    let board = text(&o.stdout).trim().to_string();
    // A named 7-8 set takes about two minutes to build: refused before it starts.
    let o = npuzzle(&["solve", "--pdb", "7-8", "--time-limit", "2", &board], "");
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("more than the time left"),
        "{}",
        text(&o.stderr)
    );
    assert!(built().is_empty());
    // auto, with memory for 5-tile databases only: the 5-5-5 set is built (a second),
    // not 7-8 or 6-6-3, and the answer is optimal (the same length as with the
    // linear-conflict search, run without databases).
    let o = npuzzle(&["solve", "--json", "--max-memory", "8M", &board], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["optimal"], true);
    assert_eq!(v["heuristic"], "pdb 5-5-5 + reflection");
    let files = built();
    assert_eq!(files.len(), 3, "{files:?}");
    let plain = npuzzle(
        &["solve", "--json", "--heuristic", "walking-distance", &board],
        "",
    );
    let w: serde_json::Value = serde_json::from_str(text(&plain.stdout).trim()).unwrap();
    assert_eq!(v["length"], w["length"]);
}

#[test]
fn weighted_astar_and_weighted_database_search_keep_their_promise() {
    // A*: the deepest 3x3 board (31 moves), weight 1.5: at most 46 moves, said so.
    let o = npuzzle(
        &[
            "solve",
            "--json",
            "--algo",
            "astar",
            "--weight",
            "1.5",
            "8 6 7/2 5 4/3 0 1",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(
        (v["algorithm"].as_str(), v["optimal"].as_bool()),
        (Some("astar"), Some(false))
    );
    let len = v["length"].as_u64().unwrap();
    assert!((31..=46).contains(&len), "{len}");
    assert!(v["lower_bound"].as_u64().unwrap() <= 31);
    // Database IDA* on 4x4 (5-5-5, built in the sandbox): within 1.5 x the optimum that
    // the unweighted search finds with the same databases.
    let board = text(&npuzzle(&["scramble", "--size", "4x4", "--seed", "12"], "").stdout)
        .trim()
        .to_string();
    let exact = npuzzle(&["solve", "--json", "--pdb", "5-5-5", &board], "");
    let e: serde_json::Value = serde_json::from_str(text(&exact.stdout).trim()).unwrap();
    let o = npuzzle(&["solve", "--pdb", "5-5-5", "--weight", "1.5", &board], "");
    let out = text(&o.stdout);
    assert!(out.contains("(at most 1.5 x optimal, lower bound"), "{out}");
    let moves = out.trim().rsplit(' ').next().unwrap();
    assert!(npuzzle(&["verify", &board, moves], "").status.success());
    let n = npuzzle::Notation::Tile
        .parse(&board.parse().unwrap(), moves)
        .unwrap()
        .len() as f64;
    assert!(
        n <= 1.5 * e["length"].as_f64().unwrap(),
        "{n} vs {}",
        e["length"]
    );
    refused(
        &[
            "solve", "--weight", "1.5", "--algo", "astar", "--pdb", "5-5-5", &board,
        ],
        "--weight",
        2,
    );
}

#[test]
fn bench_measures_the_fast_solver_weights_and_random_boards() {
    // The fast solver on five of Korf's 100: valid, never below the optimum.
    let o = npuzzle(
        &[
            "bench",
            "--set",
            "korf100",
            "--algo",
            "fast",
            "--ids",
            "1,2,3,4,5",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for v in &lines[..5] {
        assert_eq!(v["ok"], true, "{v}");
        assert!(v["ratio"].as_f64().unwrap() >= 1.0);
    }
    assert!(lines[5]["ratio"].as_f64().unwrap() >= 1.0);
    // Weighted database search (5-5-5, built in the sandbox): each within 1.5 x the
    // published optimum.
    let o = npuzzle(
        &[
            "bench", "--set", "korf100", "--pdb", "5-5-5", "--weight", "1.5", "--ids", "1,2,3",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for l in text(&o.stdout).lines().take(3) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let (len, opt) = (
            v["length"].as_f64().unwrap(),
            v["optimal"].as_f64().unwrap(),
        );
        assert!(v["ok"] == true && len >= opt && len <= 1.5 * opt, "{v}");
    }
    // Random 8x8 boards: measured against their Manhattan distance, with the spread.
    let lengths = |algo: &str, extra: &[&str]| {
        let mut args = vec![
            "bench", "--set", "random", "--size", "8x8", "--count", "4", "--seed", "3", "--algo",
            algo,
        ];
        args.extend(extra);
        let o = npuzzle(&args, "");
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        let lens: Vec<u64> = out
            .lines()
            .filter(|l| l.contains(" manhattan ") && l.ends_with(" s"))
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(lens.len(), 4, "{out}");
        assert!(out.contains("total: 4 of 4 solved"), "{out}");
        assert!(out.contains("ratio per instance: min x"), "{out}");
        lens
    };
    let fast = lengths("fast", &[]);
    // The anytime solver starts from the fast answer and only keeps shorter ones: never
    // longer, whatever the machine does in 0.3 s (how much shorter depends on its speed;
    // the fixed width below shows it shorter without a clock).
    let any = lengths("anytime", &["--time-limit", "0.3"]);
    assert!(
        any.iter().zip(&fast).all(|(a, f)| a <= f),
        "{any:?} {fast:?}"
    );
    // At one beam width there is no clock: the same lengths every run, shorter than the
    // fast solver's.
    let wide = lengths("anytime", &["--beam-width", "64"]);
    assert_eq!(wide, lengths("anytime", &["--beam-width", "64"]));
    assert!(
        wide.iter().zip(&fast).all(|(a, f)| a < f),
        "{wide:?} {fast:?}"
    );
    for (algo, width, want) in [
        (
            "fast",
            "8",
            "--beam-width sets the anytime solver's beams: expected --algo anytime",
        ),
        (
            "anytime",
            "0",
            "expected a beam width from 1 to 1048576, found 0",
        ),
    ] {
        let args = ["bench", "--set", "random", "--size", "8x8", "--algo", algo];
        refused(&[&args[..], &["--beam-width", width]].concat(), want, 2);
    }
    refused(
        &["bench", "--set", "random", "--size", "6x6"],
        "try --algo fast or --algo anytime",
        2,
    );
    refused(
        &["bench", "--set", "random"],
        "--set random needs --size",
        2,
    );
    // A file without optima (measured against Manhattan), one board at the goal: it
    // needs no move, and its ratio is 1, not 0.
    let dir = temp_dir("bench-manhattan");
    let path = dir.join("boards.txt");
    let bench_file = |boards: &str| {
        std::fs::write(&path, boards).unwrap();
        let o = npuzzle(
            &[
                "bench",
                path.to_str().unwrap(),
                "--goal",
                "1 2 3 4 5 6 7 8 0",
                "--algo",
                "anytime",
                "--pdb-dir",
                dir.to_str().unwrap(),
            ],
            "",
        );
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{}{out}", text(&o.stderr));
        out
    };
    let out = bench_file("0 1 2 3 4 5 6 0 7 8\n1 1 2 3 4 5 6 7 8 0\n");
    let ratios: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" manhattan "))
        .map(|l| l.split_whitespace().nth(5).unwrap())
        .collect();
    assert_eq!(ratios, ["x1.000", "x1.000"], "{out}");
    assert!(out.contains("ratio per instance: min x1.000"), "{out}");
    // The total too, where every board is at the goal.
    let out = bench_file("1 1 2 3 4 5 6 7 8 0\n");
    assert!(out.contains("0 moves against 0 Manhattan"), "{out}");
    assert!(out.contains("(x1.000)"), "{out}");
}

#[test]
fn the_fast_solver_uses_cached_databases_and_builds_none() {
    let board = text(&npuzzle(&["scramble", "--size", "4x4", "--seed", "5"], "").stdout)
        .trim()
        .to_string();
    // Nothing cached: the reduction solver, nothing built.
    let o = npuzzle(&["solve", "--algo", "fast", "--json", &board], "");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(
        (v["algorithm"].as_str(), v["weight"].as_f64()),
        (Some("fast"), None)
    );
    assert!(built().is_empty());
    // With the 5-5-5 set cached: the weighted database search, within 1.2 x the optimum.
    let o = npuzzle(&["pdb", "build", "--size", "4x4", "--pdb", "5-5-5"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The right block is the left one's mirror image: copied, not searched; and the copy
    // is what a build gives (verify builds every file again and compares).
    let said = text(&o.stdout);
    let copied: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("made from the database of tiles [1, 2, 5, 6, 9]"))
        .collect();
    assert_eq!(copied.len(), 1, "{said}");
    assert!(copied[0].contains("3.4.7.8.12.npz"), "{said}");
    let o = npuzzle(&["pdb", "verify"], "");
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(
        text(&o.stdout).contains("3.4.7.8.12.npz: ok"),
        "{}",
        text(&o.stdout)
    );
    let o = npuzzle(&["solve", "--algo", "fast", "--json", &board], "");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(
        (v["optimal"].as_bool(), v["weight"].as_f64()),
        (Some(false), Some(1.2))
    );
    let exact = npuzzle(&["solve", "--json", "--pdb", "5-5-5", &board], "");
    let e: serde_json::Value = serde_json::from_str(text(&exact.stdout).trim()).unwrap();
    // Named as the exact search names the same set (its reflection said too).
    assert!(
        e["heuristic"].as_str().unwrap().starts_with("pdb 5-5-5"),
        "{e}"
    );
    assert_eq!(
        v["heuristic"].as_str(),
        Some(format!("weighted {}", e["heuristic"].as_str().unwrap()).as_str()),
        "{v}"
    );
    let (len, opt) = (v["length"].as_f64().unwrap(), e["length"].as_f64().unwrap());
    assert!(len >= opt && len <= 1.2 * opt, "{len} vs {opt}");
    assert!(v["lower_bound"].as_f64().unwrap() <= opt);
    assert!(
        npuzzle(&["verify", &board, v["moves"].as_str().unwrap()], "")
            .status
            .success()
    );
    // A set named with --pdb is the one used (auto would take 5-5-5), if cached; one not
    // cached is not built: the reduction solver answers.
    let small = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15";
    let o = npuzzle(&["pdb", "build", "--size", "4x4", "--pdb", small], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let fast_small = || -> serde_json::Value {
        let o = npuzzle(
            &["solve", "--algo", "fast", "--json", "--pdb", small, &board],
            "",
        );
        serde_json::from_str(text(&o.stdout).trim()).unwrap()
    };
    let v = fast_small();
    assert!(
        v["heuristic"]
            .as_str()
            .unwrap()
            .starts_with(&format!("weighted pdb {small}")),
        "{v}"
    );
    assert!(!v["heuristic"].as_str().unwrap().contains("zero-aware"));
    // Zero-aware files, where cached, are used in the plain ones' place, and said.
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "--size",
            "4x4",
            "--pdb",
            small,
            "--zero-aware",
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v = fast_small();
    assert!(
        v["heuristic"].as_str().unwrap().ends_with(" (zero-aware)"),
        "{v}"
    );
    let files = built();
    let o = npuzzle(
        &[
            "solve", "--algo", "fast", "--json", "--pdb", "6-6-3", &board,
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(
        (v["algorithm"].as_str(), v["weight"].as_f64()),
        (Some("fast"), None),
        "{v}"
    );
    assert_eq!(built(), files, "nothing built for the fast solver");
    // ... and a note says so, once for a batch of two boards.
    let two = format!("{board}\n{board}\n");
    let o = npuzzle(&["solve", "--algo", "fast", "--pdb", "6-6-3"], &two);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert_eq!(
        err.matches("the 6-6-3 pattern databases for 4x4 are not all in")
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains("npuzzle pdb build --size 4x4 --pdb \"6-6-3\""),
        "{err}"
    );
    // A spec naming no set is an error, as with the other searches.
    let o = npuzzle(&["solve", "--algo", "fast", "--pdb", "7-7-5-5", &board], "");
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--pdb"), "{}", text(&o.stderr));
    // On every size: a 4x4 preset for an 8-puzzle is refused, nonsense too; a set that
    // fits a size the fast solver answers without databases is said to go unused.
    let eight = "8 1 3/4 0 2/7 6 5";
    for (spec, want) in [
        ("5-5-5", "the preset 5-5-5 is for 4x4, not 3x3"),
        ("nonsense", "--pdb: expected tile numbers"),
    ] {
        let o = npuzzle(&["solve", "--algo", "fast", "--pdb", spec, eight], "");
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(want),
            "{spec}: {}",
            text(&o.stderr)
        );
    }
    let o = npuzzle(
        &["solve", "--algo", "fast", "--pdb", "1,2,3,4/5,6,7,8", eight],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("uses pattern databases on 16 to 25 cells only"),
        "{}",
        text(&o.stderr)
    );
    assert!(
        text(&o.stdout).contains(": 14 moves"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn multi_tile_tables_are_asked_for_by_name() {
    // Not cached: the walking distance answers (an easy board), with a note saying how
    // to get the tables; nothing is built.
    let o = npuzzle(
        &[
            "solve",
            "--metric",
            "mtm",
            "1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("2 moves (mtm)"),
        "{}",
        text(&o.stdout)
    );
    assert!(
        text(&o.stderr).contains("pdb build --size 4x4 --metric mtm"),
        "{}",
        text(&o.stderr)
    );
    assert!(built().is_empty());
    // They are for 4x4 with the usual goal only.
    refused(
        &["pdb", "build", "--size", "3x3", "--metric", "mtm"],
        "multi-tile tables are for 4x4",
        2,
    );
    refused(
        &[
            "pdb",
            "build",
            "--size",
            "4x4",
            "--metric",
            "mtm",
            "--goal",
            "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
        ],
        "multi-tile tables are for 4x4",
        2,
    );
    // A damaged file is named and not used.
    std::fs::create_dir_all(sandbox().join("pdb")).unwrap();
    std::fs::write(
        sandbox().join("pdb").join("mtm-4x4-rows-blocks.npz"),
        b"NPZMTM4\nshort",
    )
    .unwrap();
    let o = npuzzle(
        &[
            "solve",
            "--metric",
            "mtm",
            "1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stderr).contains("mtm-4x4-rows-blocks.npz"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn zero_aware_databases_are_built_listed_verified_and_used() {
    let board = text(&npuzzle(&["scramble", "--size", "4x4", "--seed", "8"], "").stdout)
        .trim()
        .to_string();
    let solve = || {
        let o = npuzzle(&["solve", "--json", "--pdb", "5-5-5", &board], "");
        assert!(o.status.success(), "{}", text(&o.stderr));
        serde_json::from_str::<serde_json::Value>(text(&o.stdout).trim()).unwrap()
    };
    let build_zero_aware = || {
        npuzzle(
            &[
                "pdb",
                "build",
                "--size",
                "4x4",
                "--pdb",
                "5-5-5",
                "--zero-aware",
            ],
            "",
        )
    };
    // Plain databases, built by the search itself.
    let plain = solve();
    assert_eq!(plain["heuristic"], "pdb 5-5-5 + reflection", "{plain}");
    // The zero-aware ones beside them: named .za.npz, listed as such, sound, and used in
    // their place for the same shortest length with fewer nodes.
    let o = build_zero_aware();
    assert!(o.status.success(), "{}", text(&o.stderr));
    // (The right block is the left one's mirror image, copied zero-aware too.)
    let said = text(&o.stdout);
    assert_eq!(said.matches(".za.npz: built").count(), 2, "{said}");
    assert_eq!(said.matches(".za.npz: made from").count(), 1, "{said}");
    let o = npuzzle(&["pdb", "list"], "");
    assert_eq!(
        text(&o.stdout).matches("zero-aware").count(),
        3,
        "{}",
        text(&o.stdout)
    );
    assert_eq!(text(&o.stdout).lines().count(), 6, "{}", text(&o.stdout));
    let o = npuzzle(&["pdb", "verify"], "");
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert_eq!(text(&o.stdout).matches(": ok").count(), 6);
    let za = solve();
    assert_eq!(
        za["heuristic"], "pdb 5-5-5 + reflection (zero-aware)",
        "{za}"
    );
    assert_eq!(za["length"], plain["length"]);
    assert_eq!(za["optimal"], true);
    assert!(
        za["expanded"].as_u64().unwrap() < plain["expanded"].as_u64().unwrap(),
        "{za} {plain}"
    );
    assert!(
        npuzzle(&["verify", &board, za["moves"].as_str().unwrap()], "")
            .status
            .success()
    );
    // Built again without --force: present.
    let o = build_zero_aware();
    assert_eq!(
        text(&o.stdout).matches(": present").count(),
        3,
        "{}",
        text(&o.stdout)
    );
    // Past 25 cells, and with the multi-tile metric: refused as bad input.
    refused(
        &[
            "pdb",
            "build",
            "--size",
            "6x6",
            "--pdb",
            "1,2",
            "--zero-aware",
        ],
        "expected a board of up to 25 cells, found 6x6",
        2,
    );
    refused(
        &[
            "pdb",
            "build",
            "--size",
            "4x4",
            "--metric",
            "mtm",
            "--zero-aware",
        ],
        "--zero-aware: expected the stm metric",
        2,
    );
}

/// Shell completions (bash, zsh, fish) and the manual pages come from the command line's
/// own definition: every subcommand in them, bash's script valid and completing `so` to
/// solve and solvable, and `man --dir` writing a page per subcommand.
#[test]
fn completions_and_manual_pages_name_every_subcommand() {
    let subcommands = [
        "solve",
        "compare",
        "solvable",
        "apply",
        "verify",
        "judge",
        "analyze",
        "pdb",
        "bench",
        "scramble",
        "moves",
        "render",
        "serve",
        "completions",
        "man",
    ];
    for shell in ["bash", "zsh", "fish"] {
        let o = npuzzle(&["completions", shell], "");
        assert!(o.status.success(), "{shell}: {}", text(&o.stderr));
        let script = text(&o.stdout);
        for s in subcommands {
            assert!(script.contains(s), "{shell} lacks {s}");
        }
    }
    let o = npuzzle(&["completions", "bash"], "");
    let dir = temp_dir("completions");
    let path = dir.join("npuzzle.bash");
    std::fs::write(&path, &o.stdout).unwrap();
    let bash = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {}; COMP_WORDS=(npuzzle so); COMP_CWORD=1; _npuzzle npuzzle so npuzzle; echo \"${{COMPREPLY[@]}}\"",
            path.display()
        ))
        .output();
    if let Ok(b) = bash {
        assert_eq!(
            text(&b.stdout).trim(),
            "solve solvable",
            "{}",
            text(&b.stderr)
        );
    }
    refused(
        &["completions", "tcsh"],
        "possible values: bash, zsh, fish",
        2,
    );

    let o = npuzzle(&["man"], "");
    assert!(o.status.success());
    let page = text(&o.stdout);
    assert!(
        page.contains(".TH npuzzle 1") && page.contains("SUBCOMMANDS"),
        "{page}"
    );
    let out = dir.join("man1");
    let o = npuzzle(&["man", "--dir", out.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    for s in subcommands {
        let p = out.join(format!("npuzzle-{s}.1"));
        let page = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(page.contains(&format!("npuzzle {s}")), "{}", p.display());
    }
    assert!(out.join("npuzzle.1").is_file());
    // The subcommands' own subcommands too, and every page another names is written.
    for nested in ["npuzzle-pdb-build.1", "npuzzle-moves-simplify.1"] {
        assert!(out.join(nested).is_file(), "{nested}");
    }
    for e in std::fs::read_dir(&out).unwrap() {
        let page = std::fs::read_to_string(e.unwrap().path())
            .unwrap()
            .replace("\\-", "-");
        for (at, _) in page.match_indices("(1)") {
            let before = &page[..at];
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |k| k + 1);
            let name = &before[start..];
            if name.starts_with("npuzzle") {
                assert!(
                    out.join(format!("{name}.1")).is_file(),
                    "{name}(1) is named but not written"
                );
            }
        }
    }
    // A folder that cannot be made: refused, saying where.
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let o = npuzzle(&["man", "--dir", file.join("sub").to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("--dir: cannot make"),
        "{}",
        text(&o.stderr)
    );
}
