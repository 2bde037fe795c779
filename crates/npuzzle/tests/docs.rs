//! The documentation's shape: the README is a front door (at most 250 lines, no dated
//! measurements), and every relative link in it and in docs/ leads to a file that exists.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The relative link targets of a Markdown text: `[text](target)` and `src="target"`,
/// without anchors; web addresses left out.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [("](", ')'), ("src=\"", '"')] {
        let mut rest = text;
        while let Some(i) = rest.find(open) {
            rest = &rest[i + open.len()..];
            let Some(j) = rest.find(close) else { break };
            let target = rest[..j].split('#').next().unwrap_or_default().trim();
            if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
                out.push(target.to_string());
            }
        }
    }
    out
}

#[test]
fn every_link_in_the_readme_and_docs_leads_somewhere() {
    let root = root();
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for target in links(&text) {
            if !dir.join(&target).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
    // Every docs page is reachable from the README.
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for page in pages.iter().skip(1) {
        let name = format!("docs/{}", page.file_name().unwrap().to_string_lossy());
        assert!(
            readme.contains(&name),
            "{name} is not linked from the README"
        );
    }
}

#[test]
fn the_readme_is_a_front_door() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines; reference goes to docs/"
    );
    // No measurement diary: no dates.
    let dated: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.as_bytes().windows(10).any(|w| {
                w[..4].iter().all(u8::is_ascii_digit)
                    && w[4] == b'-'
                    && w[5..7].iter().all(u8::is_ascii_digit)
                    && w[7] == b'-'
                    && w[8..].iter().all(u8::is_ascii_digit)
            })
        })
        .collect();
    assert!(dated.is_empty(), "{dated:#?}");
}
