//! The library's layers point one way: no module names a module of a higher layer.
//! (README, "Architecture".)

use std::path::Path;

/// The layers from the bottom up, by top-level module; the puzzle's own (directions,
/// sizes, errors, boards, then what uses boards) are layers of their own, so that no two
/// of its modules name each other.
const LAYERS: [&[&str]; 12] = [
    &["direction", "rank"],
    &["size"],
    &["error"],
    &["board"],
    &["moves", "parity"],
    &["sequence", "solution"],
    &["files", "limits", "scramble", "svg"],
    &["layered"],
    &["analysis"],
    &["heuristic"],
    &["search"],
    &["report", "request"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `.rs` file under `dir`, with the top-level module it belongs to.
fn sources(dir: &Path, top: Option<&str>, out: &mut Vec<(String, std::path::PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let module = top.map_or(stem.clone(), str::to_string);
        if path.is_dir() {
            sources(&path, Some(&module), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((module, path));
        }
    }
}

#[test]
fn no_module_names_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, None, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (module, path) in &files {
        let Some(own) = layer_of(module) else {
            assert_eq!(module, "lib", "{} is in no layer", path.display());
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            for (pos, _) in line.match_indices("crate::") {
                let name: String = line[pos + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if let Some(theirs) = layer_of(&name) {
                    if theirs > own {
                        wrong.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(checked >= 25, "only {checked} files found");
    assert!(
        wrong.is_empty(),
        "names of higher layers:\n{}",
        wrong.join("\n")
    );
}
