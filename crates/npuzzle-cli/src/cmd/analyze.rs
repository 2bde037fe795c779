//! `npuzzle analyze`: the whole state space of a size by breadth-first search.

use std::io::Write;
use std::path::PathBuf;

use clap::Args as ClapArgs;
use npuzzle::analysis::{analyze_mtm, Analysis, MtmAnalysis};
use npuzzle::sequence::Metric;
use npuzzle::Board;
use serde_json::json;

use crate::opts::thousands;
use crate::opts::{parse_size, LimitOpts};
use crate::tables::{build, cache_dir, save};
use crate::{Fail, OK};

/// Search every state of a board size: states at each distance, god's number, the
/// hardest positions. The distance table is saved in the cache, and `solve` then answers
/// any board of that size and goal by table lookup.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Examples:\n  npuzzle analyze --size 3x3\n  npuzzle analyze --size 3x4 --svg 3x4.svg\n  npuzzle analyze --size 3x3 --goal \"1 2 3/8 0 4/7 6 5\" --json"
)]
pub struct Args {
    /// Board size as WxH (at most 12 cells in practice: 3x4 needs 90 MB).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: npuzzle::Size,
    /// The goal board [default: tiles in order, blank last].
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// How many of the farthest positions to list.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub antipodes: usize,
    /// Also draw the histogram as an SVG picture in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// Threads to use [default: all cores].
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// Count moves as single-tile (stm) or multi-tile (mtm: a row or column slid at once
    /// is one move; no distance table is kept for it).
    #[arg(long, default_value = "stm", value_parser = |s: &str| s.parse::<Metric>())]
    pub metric: Metric,
    /// Do not save the distance table in the cache.
    #[arg(long)]
    pub no_save: bool,
    /// Where tables are kept [default: $NPUZZLE_CACHE_DIR, else $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitOpts,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<u8, Fail> {
    let goal = match &args.goal {
        Some(g) => {
            Board::parse(g, Some(args.size)).map_err(|e| Fail::input(format!("--goal: {e}")))?
        }
        None => Board::solved(args.size),
    };
    let limits = args.limits.limits();
    let fail = |e: npuzzle::SearchError| Fail {
        code: crate::search_exit_code(&e),
        message: e.to_string(),
    };
    let (full, mtm): (Option<Analysis>, Option<MtmAnalysis>) = match args.metric {
        Metric::Stm => (
            Some(build(&goal, &limits, args.threads, args.antipodes).map_err(fail)?),
            None,
        ),
        Metric::Mtm => {
            let mut line =
                crate::progress::ProgressLine::new(format!("analyzing {} (mtm)", goal.size()));
            let large = goal.size().cells() > 10;
            let r = analyze_mtm(&goal, &limits, args.threads, args.antipodes, &mut |p| {
                if large {
                    line.update(p.found, p.total, p.elapsed, &format!("depth {}", p.depth));
                }
            });
            line.finish();
            (None, Some(r.map_err(fail)?))
        }
    };
    let a = match (&full, &mtm) {
        (Some(f), _) => Summary {
            histogram: f.histogram(),
            antipodes: &f.antipodes,
            elapsed: f.elapsed,
            threads: f.threads,
            metric: Metric::Stm,
        },
        (_, Some(m)) => Summary {
            histogram: &m.histogram,
            antipodes: &m.antipodes,
            elapsed: m.elapsed,
            threads: m.threads,
            metric: Metric::Mtm,
        },
        _ => unreachable!("one of the two ran"),
    };
    if let Some(path) = &args.svg {
        npuzzle::files::write_through(path, svg(&a, &goal).as_bytes()).map_err(|e| {
            Fail::from(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ))
        })?;
    }
    if args.json {
        let v = json!({
            "size": goal.size().to_string(),
            "goal": goal.to_string(),
            "metric": a.metric.name(),
            "states": a.states(),
            "max_depth": a.max_depth(),
            "histogram": a.histogram(),
            "antipodes": a.antipodes.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
            "antipode_count": a.histogram().last(),
            "seconds": a.elapsed.as_secs_f64(),
            "threads": a.threads,
        });
        writeln!(out, "{v}")?;
    } else {
        report(&a, &goal, out)?;
    }
    if let (Some(f), false) = (&full, args.no_save) {
        // The analysis is printed; a table that cannot be kept is an I/O failure all the
        // same (--no-save asks for none).
        save(cache_dir(&args.cache_dir).as_deref(), &f.table, args.json).map_err(|message| {
            Fail {
                code: crate::IO,
                message: format!("{message} (--no-save keeps no table)"),
            }
        })?;
    }
    Ok(OK)
}

/// What the report shows, from either metric's analysis.
pub struct Summary<'a> {
    histogram: &'a [u64],
    antipodes: &'a [Board],
    elapsed: std::time::Duration,
    threads: usize,
    metric: Metric,
}

impl Summary<'_> {
    fn states(&self) -> u64 {
        self.histogram.iter().sum()
    }
    fn max_depth(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
    fn histogram(&self) -> &[u64] {
        self.histogram
    }
}

fn report(a: &Summary, goal: &Board, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{} to goal {goal}: {} states, at most {} moves{} ({:.3} s, {} thread{})",
        goal.size(),
        thousands(a.states()),
        a.max_depth(),
        if a.metric == Metric::Mtm {
            " (mtm)"
        } else {
            ""
        },
        a.elapsed.as_secs_f64(),
        a.threads,
        if a.threads == 1 { "" } else { "s" }
    )?;
    writeln!(out)?;
    let hist = a.histogram();
    let max = *hist.iter().max().unwrap_or(&1) as f64;
    let wide = thousands(max as u64).len().max(6);
    writeln!(out, "depth  {:>wide$}", "states")?;
    const BLOCKS: [&str; 8] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"];
    for (d, &c) in hist.iter().enumerate() {
        let eighths = ((c as f64 / max) * 50.0 * 8.0).round() as usize;
        let mut bar = "█".repeat(eighths / 8);
        if eighths % 8 > 0 {
            bar.push_str(BLOCKS[eighths % 8 - 1]);
        } else if bar.is_empty() {
            bar.push_str(BLOCKS[0]);
        }
        writeln!(out, "{d:>5}  {:>wide$}  {bar}", thousands(c))?;
    }
    writeln!(out)?;
    let total = *hist.last().unwrap_or(&0);
    writeln!(
        out,
        "hardest positions ({} moves): {} in all{}",
        a.max_depth(),
        thousands(total),
        if (a.antipodes.len() as u64) < total {
            format!(", the first {} listed", a.antipodes.len())
        } else {
            String::new()
        }
    )?;
    for b in a.antipodes {
        writeln!(out, "  {b}")?;
    }
    Ok(())
}

/// The histogram as a bar chart in SVG.
pub fn svg(a: &Summary, goal: &Board) -> String {
    let hist = a.histogram();
    let (w, h) = (860.0, 420.0);
    let (left, right, top, bottom) = (80.0, 20.0, 50.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let max = *hist.iter().max().unwrap_or(&1) as f64;
    let bw = pw / hist.len() as f64;
    let mut s = String::new();
    s.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    ));
    s.push_str(&format!(
        "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    ));
    s.push_str(&format!(
        "<text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">{}: {} states by distance to {} (max {})</text>\n",
        w / 2.0,
        goal.size(),
        thousands(a.states()),
        goal,
        a.max_depth()
    ));
    for k in 0..=4 {
        let v = max * k as f64 / 4.0;
        let y = top + ph - ph * k as f64 / 4.0;
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            left + pw,
            left - 6.0,
            y + 4.0,
            thousands(v.round() as u64)
        ));
    }
    for (d, &c) in hist.iter().enumerate() {
        let bh = ph * c as f64 / max;
        let x = left + d as f64 * bw;
        s.push_str(&format!(
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"#3b6ea8\"><title>depth {d}: {} states</title></rect>\n",
            x + bw * 0.1,
            top + ph - bh,
            bw * 0.8,
            bh.max(0.5),
            thousands(c)
        ));
        let step = (hist.len() / 16).max(1);
        if d % step == 0 || d + 1 == hist.len() {
            s.push_str(&format!(
                "<text x=\"{:.2}\" y=\"{:.1}\" text-anchor=\"middle\">{d}</text>\n",
                x + bw / 2.0,
                top + ph + 16.0
            ));
        }
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">distance (moves)</text>\n",
        left + pw / 2.0,
        h - 12.0
    ));
    s.push_str("</svg>\n");
    s
}
