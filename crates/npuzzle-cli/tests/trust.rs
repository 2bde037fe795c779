//! What the command does with files it did not make and places it did not choose: files
//! cut short under a running batch or server, junk in the cache, FIFOs and private files
//! where it writes, and a standard output closed before it starts.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Stdio;

use common::{command, npuzzle, sandbox, temp_dir, text};

/// The data files (not the stamps) in `dir`.
fn data_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npz"))
        .collect();
    v.sort();
    v
}

/// Cuts every file in `files` short in place, as `cp` over a file in use does.
fn cut_short(files: &[std::path::PathBuf]) {
    for f in files {
        std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(f)
            .unwrap();
    }
}

/// Builds the 4x4 5-5-5 databases in the sandbox's database folder.
fn build_555() -> Vec<std::path::PathBuf> {
    let o = npuzzle(&["pdb", "build", "--size", "4x4", "--pdb", "5-5-5"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let files = data_files(&sandbox().join("pdb"));
    assert_eq!(files.len(), 3, "{files:?}");
    files
}

/// Four 4x4 boards and their optimal lengths, by the CLI with the databases in place.
fn boards_and_lengths() -> Vec<(String, String)> {
    let o = npuzzle(&["scramble", "--size", "4x4", "-n", "4", "--seed", "8"], "");
    let boards = text(&o.stdout);
    let o = npuzzle(&["solve", "--pdb", "5-5-5"], &boards);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    boards
        .lines()
        .map(str::to_string)
        .zip(text(&o.stdout).lines().map(str::to_string))
        .collect()
}

/// A batch keeps the databases it read: files cut short in place after its first answer
/// (a mapped file would end it with SIGBUS) change none of the answers after it.
#[test]
fn a_batch_outlives_its_database_files_cut_short() {
    let files = build_555();
    let want = boards_and_lengths();
    let mut child = command(&["solve", "--pdb", "5-5-5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    // The first board alone (the batch answers it before reading on), then the files
    // cut short, then the rest.
    writeln!(stdin, "{}", want[0].0).unwrap();
    stdin.flush().unwrap();
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    cut_short(&files);
    for (board, _) in &want[1..] {
        writeln!(stdin, "{board}").unwrap();
    }
    drop(stdin);
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let answers: Vec<String> = std::iter::once(first.trim_end())
        .chain(rest.lines())
        .map(str::to_string)
        .collect();
    let expected: Vec<String> = want.into_iter().map(|(_, a)| a).collect();
    assert_eq!(answers, expected);
}

/// A server keeps the databases it loaded at the start: files cut short in place change
/// nothing, and 4x4 boards are still answered with them.
#[test]
fn a_server_outlives_its_database_files_cut_short() {
    let files = build_555();
    let want = boards_and_lengths();
    let mut child = command(&["serve", "--bind", "127.0.0.1:0", "--pdb", "5-5-5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut url = String::new();
    out.read_line(&mut url).unwrap();
    let addr = url
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    cut_short(&files);
    for (board, answer) in &want {
        let body = format!("{{\"board\": \"{board}\"}}");
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "POST /api/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        // The CLI's line says "N moves"; the API's answer has the same length and the
        // databases' name.
        let moves = answer
            .split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(
            reply.contains(&format!("\"length\":{moves}")),
            "{answer} / {reply}"
        );
        assert!(reply.contains("pdb 5-5-5"), "{reply}");
    }
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// A database file copied in (no stamp names it) is not used by a solve until proven;
/// `pdb verify` proves it by rebuilding and comparing, and stamps it.
#[test]
fn a_copied_in_database_is_proven_before_use() {
    let files = build_555();
    let elsewhere = temp_dir("copied-pdb");
    for f in &files {
        let copy = elsewhere.join(f.file_name().unwrap());
        std::fs::copy(f, &copy).unwrap();
        // The stamp comes along too: it names the original, not the copy.
        let mut stamp = f.as_os_str().to_owned();
        stamp.push(".checked");
        let mut copied = copy.as_os_str().to_owned();
        copied.push(".checked");
        std::fs::copy(stamp, copied).unwrap();
    }
    let d = elsewhere.to_str().unwrap();
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(out.matches(": ok").count(), 3, "{out}");
    // Forged after the proof (one entry raised, sealed again): refused by the next
    // verify, whatever its stamp says.
    let f = &data_files(&elsewhere)[0];
    let mut bytes = std::fs::read(f).unwrap();
    let body = bytes.len() - 8;
    bytes[body - 100] += 1;
    let sum = npuzzle::files::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(f, &bytes).unwrap();
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("forged or corrupt"));
}

/// Junk named like a table is refused by its header, before the rest is read: a 2 GB
/// file (sparse here) is never read whole.
#[test]
fn junk_named_like_a_table_is_refused_by_its_header() {
    let dir = temp_dir("junk-table");
    let d = dir.to_str().unwrap();
    let o = npuzzle(
        &["analyze", "--size", "3x3", "--cache-dir", d, "--json"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let path = data_files(&dir).pop().unwrap();
    // The real header, then 2 GB: the length is wrong before any entry is read.
    let header = std::fs::read(&path).unwrap()[..1000].to_vec();
    std::fs::write(&path, &header).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "table",
            "--cache-dir",
            d,
            "8 1 3/4 0 2/7 6 5",
        ],
        "",
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("expected") && err.contains("found 2147483648"),
        "{err}"
    );
    // Something else altogether (no table's magic): refused by its first bytes.
    std::fs::write(&path, b"").unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let o = npuzzle(
        &[
            "solve",
            "--algo",
            "table",
            "--cache-dir",
            d,
            "8 1 3/4 0 2/7 6 5",
        ],
        "",
    );
    let err = text(&o.stderr);
    assert!(err.contains("magic") || err.contains("NPZTABLE"), "{err}");
}

/// `analyze` never replaces what is not a file at its table's path, and a table it
/// cannot keep is an I/O failure (exit 4), not a success; the size it reports is the
/// file's.
#[cfg(unix)]
#[test]
fn analyze_says_when_it_cannot_keep_its_table() {
    let dir = temp_dir("analyze-save");
    let d = dir.to_str().unwrap();
    let o = npuzzle(&["analyze", "--size", "3x2", "--cache-dir", d], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let path = data_files(&dir).pop().unwrap();
    let len = std::fs::metadata(&path).unwrap().len();
    let err = text(&o.stderr);
    let said = if len < 1024 {
        format!("({len} bytes)")
    } else {
        String::from("KiB)")
    };
    assert!(err.contains(&said), "{len}: {err}");
    // A FIFO in the table's place: left as it is, and exit 4.
    std::fs::remove_file(&path).unwrap();
    common::mkfifo(&path);
    let o = npuzzle(&["analyze", "--size", "3x2", "--cache-dir", d], "");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("a FIFO"), "{err}");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_fifo());
    // A cache folder that is a file: exit 4; --no-save asks for none.
    let file = dir.join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    let f = file.to_str().unwrap();
    let o = npuzzle(&["analyze", "--size", "3x2", "--cache-dir", f], "");
    assert_eq!(o.status.code(), Some(4), "{}", text(&o.stderr));
    let o = npuzzle(
        &["analyze", "--size", "3x2", "--cache-dir", f, "--no-save"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // Too large for any machine: no search suggested in its place.
    let o = npuzzle(&["analyze", "--size", "4x4"], "");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(!err.contains("idastar"), "{err}");
}

/// `render -o` leaves a file as a shell's `>` would: its permissions kept, every hard link
/// seeing the new picture, and no folder made for a path that names a missing one.
#[cfg(unix)]
#[test]
fn render_keeps_the_file_it_overwrites() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("render-out");
    let svg = dir.join("board.svg");
    std::fs::write(&svg, b"old").unwrap();
    std::fs::set_permissions(&svg, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("linked.svg");
    std::fs::hard_link(&svg, &link).unwrap();
    let p = svg.to_str().unwrap();
    let o = npuzzle(&["render", "8 1 3/4 0 2/7 6 5", "-o", p], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let mode = std::fs::metadata(&svg).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let drawn = std::fs::read(&link).unwrap();
    assert!(drawn.starts_with(b"<svg") || drawn.starts_with(b"<?xml"));
    let missing = dir.join("no-such-folder").join("x.svg");
    let o = npuzzle(
        &[
            "render",
            "8 1 3/4 0 2/7 6 5",
            "-o",
            missing.to_str().unwrap(),
        ],
        "",
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("no-such-folder"), "{err}");
    assert!(!dir.join("no-such-folder").exists());
}

/// Help and the version into a standard output closed before the start (`>&-`) are an
/// I/O error (exit 4), as any other output is.
#[cfg(target_os = "linux")]
#[test]
fn help_into_a_closed_stdout_is_an_io_error() {
    for flag in ["--help", "--version"] {
        let o = std::process::Command::new("sh")
            .args([
                "-c",
                "exec \"$0\" \"$1\" >&-",
                env!("CARGO_BIN_EXE_npuzzle"),
                flag,
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(4), "{flag}: {}", text(&o.stderr));
    }
}
