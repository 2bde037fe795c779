//! One board's answer in the one shape every front end gives it: the CLI's `solve --json`
//! and the web API's `/api/solve` write the same fields from the same [`Report`].
//!
//! A report also says what is proven: `optimal` for an exact search, and otherwise
//! `lower_bound`, the best bound the library can show (the linear-conflict estimate, or
//! length / W for a search weighted by W).
//!
//! ```
//! use npuzzle::report::Report;
//! use npuzzle::sequence::Metric;
//! use npuzzle::{solve, Algorithm, Board, HeuristicKind, Limits, Notation};
//!
//! let board: Board = "8 1 3/4 0 2/7 6 5".parse()?;
//! let goal = Board::solved(board.size());
//! let sol = solve(&board, &goal, Algorithm::Idastar, HeuristicKind::Manhattan, &Limits::default())?;
//! let r = Report::solved(&board, &goal, &sol, Algorithm::Idastar, Some("manhattan"),
//!                        Metric::Stm, None, Notation::Tile);
//! assert_eq!((r.length, r.optimal, r.lower_bound), (Some(14), Some(true), Some(14)));
//! assert!(r.to_json().starts_with(r#"{"board":"8 1 3/4 0 2/7 6 5","solvable":true,"length":14"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use crate::board::Board;
use crate::heuristic::HeuristicKind;
use crate::moves::Notation;
use crate::search::Algorithm;
use crate::sequence::{length, Metric};
use crate::solution::Solution;

/// One board's answer: its solution (or that it has none), what is proven about it, and
/// the work it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The board, one line (`8 1 3/4 0 2/7 6 5`).
    pub board: String,
    /// Whether the board can reach the goal.
    pub solvable: bool,
    /// The solution's length in `metric` (none for an unsolvable board).
    pub length: Option<usize>,
    /// Whether the length is proven the shortest (none for an unsolvable board).
    pub optimal: Option<bool>,
    /// The weight of a weighted search (the solution is at most this times the shortest).
    pub weight: Option<f64>,
    /// A proven lower bound on every solution's length (the length itself when optimal).
    pub lower_bound: Option<u32>,
    /// How moves are counted.
    pub metric: Metric,
    /// The moves in `notation` (none for an unsolvable board).
    pub moves: Option<String>,
    /// The notation of `moves`.
    pub notation: Notation,
    /// The algorithm that ran.
    pub algorithm: &'static str,
    /// The estimate it used, if any.
    pub heuristic: Option<String>,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// The most states held at once.
    pub peak_stored: u64,
    /// Seconds the search took.
    pub seconds: f64,
    /// With several solutions asked for (`-n`, `--all`): every one found, in `notation`
    /// (the first is `moves`); none otherwise.
    pub solutions: Option<Vec<String>>,
}

impl Report {
    /// The report of `sol`, a solution of `board` towards `goal` found by `algorithm`
    /// (with `heuristic`, and `weight` if the search was weighted); its moves written in
    /// `notation`, its length counted in `metric`.
    #[allow(clippy::too_many_arguments)]
    pub fn solved(
        board: &Board,
        goal: &Board,
        sol: &Solution,
        algorithm: Algorithm,
        heuristic: Option<&str>,
        metric: Metric,
        weight: Option<f64>,
        notation: Notation,
    ) -> Report {
        let len = length(&sol.moves, metric);
        // Weighted search proves length <= W x shortest, so shortest >= length / W.
        let weighted = weight.filter(|&w| w > 1.0);
        let exact = algorithm.is_exact() && weighted.is_none();
        let lower_bound = if exact {
            len as u32
        } else {
            let lc = HeuristicKind::LinearConflict
                .estimate(board, goal)
                .unwrap_or(0);
            let by_weight = weighted.map_or(0, |w| (len as f64 / w - 1e-9).ceil() as u32);
            lc.max(by_weight)
        };
        Report {
            board: board.to_string(),
            solvable: true,
            length: Some(len),
            // A length that meets a proven lower bound is proven optimal, whatever found it.
            optimal: Some(exact || len as u32 <= lower_bound),
            weight,
            lower_bound: Some(lower_bound),
            metric,
            moves: Some(notation.format(board, &sol.moves)),
            notation,
            algorithm: algorithm.name(),
            heuristic: heuristic.map(str::to_string),
            expanded: sol.stats.expanded,
            generated: sol.stats.generated,
            peak_stored: sol.stats.peak_stored,
            seconds: sol.stats.elapsed.as_secs_f64(),
            solutions: None,
        }
    }

    /// The report of a board that cannot reach its goal.
    pub fn unsolvable(
        board: &Board,
        algorithm: Algorithm,
        heuristic: Option<&str>,
        metric: Metric,
        notation: Notation,
    ) -> Report {
        Report {
            board: board.to_string(),
            solvable: false,
            length: None,
            optimal: None,
            weight: None,
            lower_bound: None,
            metric,
            moves: None,
            notation,
            algorithm: algorithm.name(),
            heuristic: heuristic.map(str::to_string),
            expanded: 0,
            generated: 0,
            peak_stored: 0,
            seconds: 0.0,
            solutions: None,
        }
    }

    /// The report with `bound` as its lower bound where that is more than it had (a bound
    /// proven elsewhere: by an exact search that ran out of time, or by databases).
    pub fn with_lower_bound(mut self, bound: u32) -> Report {
        self.lower_bound = self.lower_bound.map(|l| l.max(bound));
        // A length that meets a proven lower bound is proven optimal.
        if let (Some(len), Some(l)) = (self.length, self.lower_bound) {
            if len as u32 <= l {
                self.optimal = Some(true);
            }
        }
        self
    }

    /// What is proven, as the text output says it after the length: empty for an
    /// optimal answer, else `(at most W x optimal, lower bound L)` or `(not proven
    /// optimal, lower bound L)`.
    pub fn proven(&self) -> String {
        match (
            self.optimal,
            self.weight.filter(|&w| w > 1.0),
            self.lower_bound,
        ) {
            (Some(false), Some(w), Some(l)) => format!(" (at most {w} x optimal, lower bound {l})"),
            (Some(false), None, Some(l)) => format!(" (not proven optimal, lower bound {l})"),
            _ => String::new(),
        }
    }

    /// The report as one JSON object on one line, its fields in the order above.
    pub fn to_json(&self) -> String {
        let mut o = Object::new();
        o.string("board", Some(&self.board));
        o.raw("solvable", Some(self.solvable));
        o.raw("length", self.length);
        o.raw("optimal", self.optimal);
        o.raw("weight", self.weight);
        o.raw("lower_bound", self.lower_bound);
        o.string("metric", Some(self.metric.name()));
        o.string("moves", self.moves.as_deref());
        o.string("notation", Some(self.notation.name()));
        o.string("algorithm", Some(self.algorithm));
        o.string("heuristic", self.heuristic.as_deref());
        o.raw("expanded", Some(self.expanded));
        o.raw("generated", Some(self.generated));
        o.raw("peak_stored", Some(self.peak_stored));
        o.raw("seconds", Some(self.seconds));
        if let Some(all) = &self.solutions {
            o.strings("solutions", all);
            o.raw("count", Some(all.len()));
        }
        o.finish()
    }
}

/// A JSON object written field by field.
struct Object(String);

impl Object {
    fn new() -> Object {
        Object(String::from("{"))
    }

    fn key(&mut self, k: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push('"');
        self.0.push_str(k);
        self.0.push_str("\":");
    }

    /// A number or boolean (`null` for none).
    fn raw<T: std::fmt::Display>(&mut self, k: &str, v: Option<T>) {
        self.key(k);
        match v {
            Some(v) => write!(self.0, "{v}").expect("writing to a string"),
            None => self.0.push_str("null"),
        }
    }

    /// An array of strings, escaped.
    fn strings(&mut self, k: &str, v: &[String]) {
        self.key(k);
        self.0.push('[');
        for (i, s) in v.iter().enumerate() {
            if i > 0 {
                self.0.push(',');
            }
            self.escaped(s);
        }
        self.0.push(']');
    }

    /// A string, escaped (`null` for none).
    fn string(&mut self, k: &str, v: Option<&str>) {
        self.key(k);
        let Some(v) = v else {
            self.0.push_str("null");
            return;
        };
        self.escaped(v);
    }

    /// `v` as a JSON string.
    fn escaped(&mut self, v: &str) {
        self.0.push('"');
        for c in v.chars() {
            match c {
                '"' => self.0.push_str("\\\""),
                '\\' => self.0.push_str("\\\\"),
                '\n' => self.0.push_str("\\n"),
                '\r' => self.0.push_str("\\r"),
                '\t' => self.0.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    write!(self.0, "\\u{:04x}", c as u32).expect("writing to a string")
                }
                c => self.0.push(c),
            }
        }
        self.0.push('"');
    }

    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut o = Object::new();
        o.string("a", Some("x\"y\\z\n\u{1}"));
        o.raw::<u8>("b", None);
        assert_eq!(o.finish(), r#"{"a":"x\"y\\z\n\u0001","b":null}"#);
    }
}
