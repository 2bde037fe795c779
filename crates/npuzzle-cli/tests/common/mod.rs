//! What the binary's tests share: running it in a sandbox of the test's own.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The command, with every place it might keep files pointed into the test's sandbox.
pub fn command(args: &[&str]) -> Command {
    let home = sandbox();
    let mut c = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    c.args(args)
        .env("HOME", &home)
        .env("XDG_CACHE_HOME", home.join("xdg-cache"))
        .env("NPUZZLE_CACHE_DIR", home.join("cache"))
        .env("NPUZZLE_PDB_DIR", home.join("pdb"));
    c
}

/// A folder of this test's own (named after the test's thread) that stands in for every
/// place the binary might keep files: the tests never read or write the user's cache.
/// It is removed when the test ends, passed or failed (see [`remove_when_done`]).
pub fn sandbox() -> std::path::PathBuf {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("main").replace("::", "-");
    // Not created here: only a command that saves something makes it. One folder a test,
    // straight in the temporary folder: a shared parent would be removed by one test's
    // cleanup while another test's command was creating its sandbox inside it.
    let home = std::env::temp_dir().join(format!("npuzzle-cli-home-{}-{name}", std::process::id()));
    // (Only a test's own thread, which is named after the test: a helper thread's
    // sandbox would be shared and could go while another still uses it.)
    if thread.name().is_some() {
        remove_when_done(&home);
    }
    home
}

/// A fresh, empty folder for this test (`name` tells it apart from the test's others),
/// removed when the test ends.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("npuzzle-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    remove_when_done(&d);
    d
}

/// Removes a folder when dropped.
struct Cleanup(std::path::PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

std::thread_local! {
    static CLEANUPS: std::cell::RefCell<Vec<Cleanup>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Has `path` removed when the calling thread ends: each test runs on a thread of its
/// own, so a test's files go when it ends, whether it passed or failed (a run killed
/// outright leaves them).
pub fn remove_when_done(path: &std::path::Path) {
    CLEANUPS.with(|c| {
        let mut c = c.borrow_mut();
        if !c.iter().any(|x| x.0 == path) {
            c.push(Cleanup(path.to_path_buf()));
        }
    });
}

/// Starts the binary with `args`, gives it `stdin` and closes it; its output is piped.
/// A program that ends before reading all of its input is no error here.
pub fn start(args: &[&str], stdin: &[u8]) -> Child {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child
}

/// Runs the binary with `args` and `stdin`, and waits for it.
pub fn npuzzle(args: &[&str], stdin: &str) -> Output {
    start(args, stdin.as_bytes()).wait_with_output().unwrap()
}

/// Bytes as text.
pub fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

/// Runs the binary with `args` and checks that it ends with exit `code` and says `want`
/// on standard error.
pub fn refused(args: &[&str], want: &str, code: i32) {
    let o = npuzzle(args, "");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: expected {want:?} in {err}");
}

/// Makes a FIFO at `path` with the system's `mkfifo`.
pub fn mkfifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}
