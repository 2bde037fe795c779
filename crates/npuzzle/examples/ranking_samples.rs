//! Samples for fitting the anytime solver's learned ranking (see `npuzzle::search::ranking`
//! and `bench/train-ranking.py`): for each uniform random board, one beam across the
//! whole board ranked by the cached databases of its size, a few of each layer's
//! candidates, and how many moves a plain beam still took from each.
//!
//! ```text
//! cargo run --release -p npuzzle --example ranking_samples -- --size 7x7 --count 80 \
//!     --seed 101 > samples.txt
//! ```
//!
//! Options: `--size WxH` (7x7), `--count N` (10), `--seed S` (1), `--width W` (4096),
//! `--per-layer K` (3), `--label-width L` (512), `--threads T` (0: every core),
//! `--pdb-dir DIR` (else `$NPUZZLE_PDB_DIR`, `$NPUZZLE_CACHE_DIR`, the cache folder),
//! `--ranking FILE` and `--lambda X` (the sampled beam ranked by that correction, so that
//! the samples show where it leads). Lines: `board depth label lc md | entries | cells`
//! (label `-` where the plain beam stalled), after a header naming the databases.

use npuzzle::request::{Core, Sources};
use npuzzle::search::ranking::{Ranking, SampleOptions};
use npuzzle::search::ranking_samples;
use npuzzle::Board;
use std::io::Write;
use std::path::PathBuf;

fn value<T: std::str::FromStr>(args: &[String], i: usize, name: &str) -> Result<T, String> {
    let v = args
        .get(i + 1)
        .ok_or_else(|| format!("expected a value after {name}, found the end"))?;
    v.parse()
        .map_err(|_| format!("expected a valid value after {name}, found {v:?}"))
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut size, mut count, mut seed) = ("7x7".to_string(), 10usize, 1u64);
    let mut options = SampleOptions {
        width: 4096,
        per_layer: 3,
        label_width: 512,
        ranking: None,
    };
    let (mut threads, mut dir, mut ranking, mut lambda) = (0usize, None, None, None);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--size" => size = value(&args, i, a)?,
            "--count" => count = value(&args, i, a)?,
            "--seed" => seed = value(&args, i, a)?,
            "--width" => options.width = value(&args, i, a)?,
            "--per-layer" => options.per_layer = value(&args, i, a)?,
            "--label-width" => options.label_width = value(&args, i, a)?,
            "--threads" => threads = value(&args, i, a)?,
            "--pdb-dir" => dir = Some(value::<PathBuf>(&args, i, a)?),
            "--ranking" => ranking = Some(value::<PathBuf>(&args, i, a)?),
            "--lambda" => lambda = Some(value::<f32>(&args, i, a)?),
            _ => {
                return Err(format!(
                    "expected an option (see the file's head), found {a:?}"
                ))
            }
        }
        i += 2;
    }
    let size: npuzzle::board::Size = size
        .parse()
        .map_err(|e| format!("--size: expected WxH, found {size:?}: {e}"))?;
    if let Some(path) = ranking {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let r = Ranking::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        options.ranking = Some(match lambda {
            Some(l) => r.with_lambda(l),
            None => r,
        });
    }
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = dir
        .or_else(|| env("NPUZZLE_PDB_DIR"))
        .or_else(|| env("NPUZZLE_CACHE_DIR"))
        .or_else(|| env("XDG_CACHE_HOME").map(|p| p.join("npuzzle")))
        .or_else(|| env("HOME").map(|p| p.join(".cache").join("npuzzle")));
    let core = Core::new(Sources {
        pdb_dir: dir.clone(),
        ..Sources::default()
    });
    let goal = Board::solved(size);
    let set = core.cached_pdbs(&goal, "auto").ok_or_else(|| {
        format!(
            "expected the {size} databases in {}, found none (build them with `npuzzle pdb \
             build --size {size}`)",
            dir.map_or("no folder".into(), |d| d.display().to_string())
        )
    })?;
    if let Some(r) = &options.ranking {
        if !r.fits(&set) {
            return Err(format!(
                "--ranking: expected a ranking fitted for these {size} databases, found one for {} \
                 or other databases",
                r.size()
            ));
        }
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    let groups: Vec<String> = set
        .databases()
        .iter()
        .map(|d| {
            d.tiles()
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let w = |e: std::io::Error| format!("writing the samples: {e}");
    writeln!(out, "# npuzzle ranking samples").map_err(w)?;
    writeln!(
        out,
        "# size {size} lookups {} groups {}",
        if set.reflects() { 2 } else { 1 },
        groups.join(" ")
    )
    .map_err(w)?;
    writeln!(out, "# board depth label lc md | entries | cells").map_err(w)?;
    let mut rng = npuzzle::scramble::Rng::new(seed);
    for board in 1..=count {
        let start = npuzzle::scramble::uniform(&goal, &mut rng);
        let samples = ranking_samples(&start, &set, &options, threads)
            .map_err(|e| format!("board {board}: {e}"))?;
        for s in samples {
            let join = |v: &[u8]| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let label = s.label.map_or("-".to_string(), |l| l.to_string());
            writeln!(
                out,
                "{board} {} {label} {} {} | {} | {}",
                s.depth,
                s.lc,
                s.md,
                join(&s.entries),
                join(&s.cells)
            )
            .map_err(w)?;
        }
        eprintln!("board {board} of {count} sampled");
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("ranking_samples: {e}");
        std::process::exit(2);
    }
}
