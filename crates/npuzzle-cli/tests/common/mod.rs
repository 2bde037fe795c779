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
pub fn sandbox() -> std::path::PathBuf {
    let name = std::thread::current()
        .name()
        .unwrap_or("main")
        .replace("::", "-");
    // Not created here: only a command that saves something makes it.
    std::env::temp_dir()
        .join(format!("npuzzle-cli-home-{}", std::process::id()))
        .join(name)
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
