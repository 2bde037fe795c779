//! Options shared by several subcommands.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use clap::Args;
use npuzzle::{Board, Limits, Size};

use crate::Fail;

/// Board size and goal.
#[derive(Args, Debug, Clone)]
pub struct BoardOpts {
    /// Board size as WxH (width first), when it cannot be read from the board itself.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<Size>,
    /// The goal board [default: tiles in order, blank last].
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
}

/// Reads a `WxH` size for clap.
pub fn parse_size(s: &str) -> Result<Size, String> {
    s.parse::<Size>().map_err(|e| e.to_string())
}

impl BoardOpts {
    /// The goal given with --goal, parsed.
    pub fn goal(&self) -> Result<Option<Board>, Fail> {
        self.goal
            .as_deref()
            .map(|g| Board::parse(g, self.size).map_err(|e| Fail::input(format!("--goal: {e}"))))
            .transpose()
    }

    /// The goal for `board`: the --goal board if its size matches, the default otherwise.
    pub fn goal_for(goal: &Option<Board>, board: &Board) -> Result<Board, String> {
        npuzzle::parity::goal_for(goal.as_ref(), board).map_err(|e| goal_words(&e))
    }

    /// Whether the --goal board, if any, is of `board`'s size (the message if not).
    pub fn check_goal(goal: &Option<Board>, board: &Board) -> Result<(), String> {
        match goal {
            Some(g) => npuzzle::parity::check_sizes(board, g).map_err(|e| goal_words(&e)),
            None => Ok(()),
        }
    }
}

/// The library's size check in the command line's words: the board is what was typed,
/// the goal is --goal's.
fn goal_words(e: &npuzzle::SearchError) -> String {
    match e {
        npuzzle::SearchError::SizeMismatch { start, goal } => {
            format!("expected a {goal} board to match the goal, found a {start} board")
        }
        e => e.to_string(),
    }
}

/// Memory and time limits.
#[derive(Args, Debug, Clone)]
pub struct LimitOpts {
    /// Memory a search may use, e.g. 512M, 4G [default: half the machine's memory].
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Time a search may take per board, e.g. 10, 2.5s, 500ms, 2m.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
}

impl LimitOpts {
    /// The library limits these options describe.
    pub fn limits(&self) -> Limits {
        let mut l = Limits::default();
        if let Some(m) = self.max_memory {
            l.max_memory = m;
        }
        l.time_limit = self.time_limit;
        l.cancel = Some(interrupt_flag());
        l
    }
}

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Whether Ctrl-C was pressed (after [`interrupt_flag`] set up the handler): a batch
/// stops before its next board.
pub fn interrupted() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}

/// The flag Ctrl-C sets: searches stop cleanly with the bound they proved, as at a time
/// limit, and batches stop before their next board. A second Ctrl-C ends the program at
/// once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if seen.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            crate::note!("\nnpuzzle: interrupted; stopping (Ctrl-C again to quit now)");
        });
        flag
    })
    .clone()
}

/// `s` quoted for a message, cut short when long (the library's).
pub use npuzzle::error::quote_short;

/// A count with thousands separators: `181,440` (the library's, as its messages write
/// counts).
pub use npuzzle::error::grouped as thousands;

/// Reads a byte count such as `512M` or `4G` (the library's, as Python reads it too).
pub use npuzzle::limits::parse_bytes;

/// The longest time limit read, in seconds.
pub const MAX_SECONDS: f64 = 1e9;

/// Reads a duration: seconds, or a number with ms, s, m or h.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, unit) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v >= 0.0 && v * unit > MAX_SECONDS => Err(format!(
            "expected a time of at most {MAX_SECONDS} s (about 31 years), found {}",
            quote_short(s)
        )),
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v * unit)),
        _ => Err(format!(
            "expected a time such as 10, 2.5s, 500ms or 2m (a number, then ms, s, m or h), \
             found {}",
            quote_short(s)
        )),
    }
}

/// Reads a weight for weighted search (`--weight`), checked as the library checks every
/// weight: from 1 to 100.
pub fn parse_weight(s: &str) -> Result<f64, String> {
    let w = s
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("expected a weight from 1 to 100, found {}", quote_short(s)))?;
    npuzzle::search::check_weight(w).map_err(|e| e.to_string())
}

/// A beam width: 1 to `search::ANYTIME_MAX_WIDTH`.
pub fn parse_beam_width(s: &str) -> Result<usize, String> {
    let w = s.trim().parse::<usize>().map_err(|_| {
        format!(
            "expected a beam width from 1 to {}, found {}",
            npuzzle::search::ANYTIME_MAX_WIDTH,
            quote_short(s)
        )
    })?;
    npuzzle::search::check_beam_width(w).map_err(|e| e.to_string())?;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        // (Byte counts are the library's: `npuzzle::limits` tests them.)
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("1.5").unwrap(), Duration::from_millis(1500));
        assert!(parse_duration("-1").is_err());
        // Over the caps: refused with the cap named, never capped silently.
        let e = parse_duration("99999999999").unwrap_err();
        assert!(e.contains("at most 1000000000 s"), "{e}");
        // A 300-digit number is not repeated whole.
        let long = "9".repeat(300);
        let e = parse_duration(&long).unwrap_err();
        assert!(e.len() < 200 && e.contains("(300 characters)"), "{e}");
    }
}
