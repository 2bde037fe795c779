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

/// Every script and style in `assets/` is served (listed in `ASSETS`), and every module a
/// script imports is one of them: a file added but not listed would be a 404 in the page.
#[test]
fn every_asset_is_served_and_every_import_resolves() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let served: Vec<&str> = npuzzle_web::ASSETS.iter().map(|(p, _, _)| *p).collect();
    let mut on_disk = vec!["page.css".to_string()];
    for e in std::fs::read_dir(root.join("js")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".js") {
            on_disk.push(format!("js/{name}"));
        }
    }
    for f in &on_disk {
        assert!(served.contains(&f.as_str()), "{f} is not served");
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        let listed = npuzzle_web::ASSETS.iter().find(|(p, _, _)| p == f).unwrap();
        assert_eq!(listed.2, text, "{f}: the binary serves another text");
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let target = line.split('"').nth(1).unwrap();
            let path = format!("js/{}", target.trim_start_matches("./"));
            assert!(
                served.contains(&path.as_str()),
                "{f} imports {target}, not served"
            );
        }
    }
    assert_eq!(
        served.len(),
        on_disk.len(),
        "{served:?} against {on_disk:?}"
    );
    assert!(
        npuzzle_web::PAGE.contains("/assets/js/main.js")
            && npuzzle_web::PAGE.contains("/assets/page.css")
    );
}
