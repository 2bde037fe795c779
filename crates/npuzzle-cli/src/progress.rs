//! A one-line progress display on standard error, redrawn in place when standard error is
//! a terminal, and a line every few seconds otherwise.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Prints progress of long work with an estimate of the time left.
pub struct ProgressLine {
    what: String,
    tty: bool,
    last: Option<Instant>,
    every: Duration,
    drawn: bool,
}

impl ProgressLine {
    /// A display for `what` ("analyzing 3x4").
    pub fn new(what: impl Into<String>) -> ProgressLine {
        let tty = std::io::stderr().is_terminal();
        ProgressLine {
            what: what.into(),
            tty,
            last: None,
            every: if tty {
                Duration::from_millis(100)
            } else {
                Duration::from_secs(5)
            },
            drawn: false,
        }
    }

    /// Shows that `done` of `total` units are done after `elapsed`, with a detail.
    pub fn update(&mut self, done: u64, total: u64, elapsed: Duration, detail: &str) {
        if self.last.is_some_and(|t| t.elapsed() < self.every) && done < total {
            return;
        }
        self.last = Some(Instant::now());
        let frac = if total == 0 {
            1.0
        } else {
            done as f64 / total as f64
        };
        let left = if frac > 0.01 && frac < 1.0 {
            format!(
                ", about {:.0} s left",
                elapsed.as_secs_f64() * (1.0 - frac) / frac
            )
        } else {
            String::new()
        };
        let width = 24;
        let full = (frac * width as f64).round() as usize;
        let bar = format!(
            "[{}{}]",
            "#".repeat(full.min(width)),
            " ".repeat(width - full.min(width))
        );
        let line = format!(
            "{} {bar} {:5.1}% {detail}, {:.0} s{left}",
            self.what,
            frac * 100.0,
            elapsed.as_secs_f64()
        );
        self.draw(&line);
    }

    /// Writes `line`: over the last one on a terminal, below it elsewhere.
    fn draw(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[2K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
        self.drawn = true;
    }

    /// Whether the display redraws in place (standard error is a terminal).
    pub fn is_terminal(&self) -> bool {
        self.tty
    }

    /// Shows a count and rate where the total is not known (a stream).
    pub fn count(&mut self, done: u64, what: &str, elapsed: Duration) {
        if self.last.is_some_and(|t| t.elapsed() < self.every) {
            return;
        }
        self.last = Some(Instant::now());
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
        let line = format!(
            "{} {} {what}, {:.0}/s, {secs:.0} s",
            self.what,
            crate::opts::thousands(done),
            rate
        );
        self.draw(&line);
    }

    /// Shows a free-form status (a search's bound and nodes), at most every refresh.
    pub fn status(&mut self, text: &str) {
        if self.last.is_some_and(|t| t.elapsed() < self.every) {
            return;
        }
        self.last = Some(Instant::now());
        let line = format!("{} {text}", self.what);
        self.draw(&line);
    }

    /// Ends the display (moves past the redrawn line).
    pub fn finish(&mut self) {
        if self.tty && self.drawn {
            crate::note!("");
        }
        self.drawn = false;
    }
}
