//! The page's logic without a browser: its modules' tests (`tests/page/*.test.js`: the
//! board's rules, answers bound to their board) under Node's test runner.
//!
//! Needs `node` (`.ci/run` installs it, with npm). Where it is missing the test says so and
//! passes, unless NPUZZLE_BROWSER_TEST=require (as in CI), where it fails.

use std::process::Command;

#[test]
fn the_pages_modules_pass_their_tests() {
    let required = std::env::var("NPUZZLE_BROWSER_TEST").is_ok_and(|v| v == "require");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page");
    let run = Command::new("node").arg("--test").arg(&dir).output();
    let out = match run {
        Ok(out) => out,
        Err(e) => {
            assert!(
                !required,
                "NPUZZLE_BROWSER_TEST=require but node cannot run: {e}"
            );
            eprintln!("page logic test skipped: node is not installed ({e})");
            return;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every file's tests ran: none skipped, some passed.
    assert!(text.contains("# fail 0"), "{text}");
    assert!(!text.contains("# pass 0"), "{text}");
}
