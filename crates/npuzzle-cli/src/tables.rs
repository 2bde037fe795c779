//! Distance tables on disk: finding, loading and saving them in the cache directory, and
//! building them with a progress display.

use std::path::{Path, PathBuf};

use crate::dirs::{default_dir, table_file_name};
use npuzzle::analysis::{analyze, memory_needed, Analysis};
use npuzzle::error::human_bytes;
use npuzzle::{Board, DistanceTable, Limits, SearchError};

use crate::progress::ProgressLine;

/// The cache directory: `--cache-dir`, else the library's default.
pub fn cache_dir(opt: &Option<PathBuf>) -> Option<PathBuf> {
    opt.clone().or_else(default_dir)
}

/// Saves a table to the cache and says where (unless `quiet`), or says why not: the
/// error is the message.
pub fn save(dir: Option<&Path>, table: &DistanceTable, quiet: bool) -> Result<(), String> {
    let Some(dir) = dir else {
        return Err(
            "no cache directory (set NPUZZLE_CACHE_DIR or --cache-dir); table not saved".into(),
        );
    };
    let path = dir.join(table_file_name(table.goal()));
    match table.save(&path) {
        Ok(()) => {
            if !quiet {
                let len = std::fs::metadata(&path).map_or(0, |m| m.len());
                crate::note!(
                    "npuzzle: table saved to {} ({})",
                    path.display(),
                    human_bytes(len)
                );
            }
            Ok(())
        }
        Err(e) => Err(format!("cannot save the table to {}: {e}", path.display())),
    }
}

/// Searches the whole space of `goal` with a progress display for large sizes.
pub fn build(
    goal: &Board,
    limits: &Limits,
    threads: usize,
    antipodes: usize,
) -> Result<Analysis, SearchError> {
    let size = goal.size();
    let states: f64 = (2..=size.cells()).map(|k| k as f64).product::<f64>() / 2.0;
    let large = states > 5e6;
    if large && memory_needed(size) <= limits.max_memory {
        crate::note!(
            "npuzzle: searching all {:.0} states of {size} to goal {goal} (about {} of memory)",
            states,
            human_bytes(memory_needed(size))
        );
    }
    let mut line = ProgressLine::new(format!("analyzing {size}"));
    let result = analyze(goal, limits, threads, antipodes, &mut |p| {
        if large {
            line.update(p.found, p.total, p.elapsed, &format!("depth {}", p.depth));
        }
    });
    line.finish();
    result
}
