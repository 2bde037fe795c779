//! The bench's report: a line per instance (or a JSON object), checked against the
//! optimum where the file gives it, and the totals with the spread of the ratios.

use std::io::Write;
use std::time::Duration;

use npuzzle::{Board, SearchError};
use serde_json::json;

use super::instances::{Instance, Published};
use crate::{merge, Fail, MISMATCH};

/// How the answers are judged and printed.
pub(super) struct Style {
    /// One JSON object a line.
    pub(super) json: bool,
    /// The fast or anytime solver: lengths are not below the optimum.
    pub(super) fast: bool,
    /// Weighted search: lengths within this factor of the optimum.
    pub(super) weight: Option<f64>,
    /// Threads for each search (printed in JSON).
    pub(super) per_search: usize,
}

/// The running totals of a bench, and its exit code so far.
pub(super) struct Tally {
    style: Style,
    published: Option<Published>,
    published_total: Vec<u64>,
    generated_published: u64,
    expanded_published: u64,
    nodes: u64,
    time: Duration,
    max_time: Duration,
    length: u64,
    reference: u64,
    solved: usize,
    ratios: Vec<f64>,
    /// Searches stopped by their limits: how many, and their nodes and time (left out of
    /// the totals above, which are the answers').
    stopped: usize,
    stopped_nodes: u64,
    stopped_time: Duration,
    /// The exit code so far.
    pub(super) code: u8,
}

/// One answer, judged: its length, whether it reaches the goal and is as long as it
/// should be, and what it is measured against.
struct Judged {
    len: u32,
    valid: bool,
    ok: bool,
    reference: u32,
    kind: &'static str,
    ratio: f64,
}

impl Tally {
    /// Nothing counted yet; `published` the published counts to set beside ours.
    pub(super) fn new(style: Style, published: Option<Published>, code: u8) -> Tally {
        let columns = published.as_ref().map_or(0, |p| p.columns.len());
        Tally {
            style,
            published,
            published_total: vec![0; columns],
            generated_published: 0,
            expanded_published: 0,
            nodes: 0,
            time: Duration::ZERO,
            max_time: Duration::ZERO,
            length: 0,
            reference: 0,
            solved: 0,
            ratios: Vec::new(),
            stopped: 0,
            stopped_nodes: 0,
            stopped_time: Duration::ZERO,
            code,
        }
    }

    /// Counts and prints one instance's result.
    pub(super) fn record(
        &mut self,
        out: &mut impl Write,
        inst: &Instance,
        goal: &Board,
        result: Result<npuzzle::Solution, SearchError>,
    ) -> Result<(), Fail> {
        match result {
            Ok(s) => self.answer(out, inst, goal, &s)?,
            // An instance without an answer (out of time, unsolvable) is reported on
            // its line and the rest go on; the exit code says the worst.
            Err(e) => {
                self.code = merge(self.code, crate::search_exit_code(&e));
                if let SearchError::TimeLimit {
                    elapsed, expanded, ..
                } = &e
                {
                    self.stopped += 1;
                    self.stopped_nodes += expanded;
                    self.stopped_time += *elapsed;
                }
                if self.style.json {
                    writeln!(out, "{}", json!({"id": inst.id, "error": e.to_string()}))?;
                } else {
                    writeln!(out, "{:>4}  {e}", inst.id)?;
                }
                if !matches!(e, SearchError::TimeLimit { .. }) {
                    crate::note!("npuzzle: instance {} (line {}): {e}", inst.id, inst.line);
                }
            }
        }
        Ok(())
    }

    /// Checks an answer against the goal and the file's optimum.
    fn judge(&self, inst: &Instance, goal: &Board, s: &npuzzle::Solution) -> Judged {
        let len = s.len() as u32;
        let mut end = inst.board.clone();
        let valid = end.apply_all(&s.moves).is_ok() && &end == goal;
        // Exact: the file's optimum; weighted: within W x it; fast: not below it. Every
        // answer must reach the goal.
        let ok = valid
            && inst
                .optimal
                .is_none_or(|o| match (self.style.fast, self.style.weight) {
                    (true, _) => len >= o,
                    (false, Some(w)) => len >= o && len as f64 <= w * o as f64 + 1e-9,
                    (false, None) => len == o,
                });
        // The length is measured against the optimum where the file gives it, else
        // against the Manhattan distance (a lower bound).
        let (reference, kind) = match inst.optimal {
            Some(o) => (o, "optimal"),
            None => (
                npuzzle::HeuristicKind::Manhattan
                    .estimate(&inst.board, goal)
                    .unwrap_or(0),
                "manhattan",
            ),
        };
        Judged {
            len,
            valid,
            ok,
            reference,
            kind,
            ratio: ratio(len as u64, reference as u64),
        }
    }

    fn answer(
        &mut self,
        out: &mut impl Write,
        inst: &Instance,
        goal: &Board,
        s: &npuzzle::Solution,
    ) -> Result<(), Fail> {
        let j = self.judge(inst, goal, s);
        self.ratios.push(j.ratio);
        if !j.ok {
            self.code = merge(self.code, MISMATCH);
            crate::note!(
                "npuzzle: instance {} (line {}): {}",
                inst.id,
                inst.line,
                if j.valid {
                    format!("found {} moves, the file says {}", j.len, j.reference)
                } else {
                    "the moves do not reach the goal".to_string()
                }
            );
        }
        self.nodes += s.stats.expanded;
        self.time += s.stats.elapsed;
        self.length += j.len as u64;
        self.reference += j.reference as u64;
        self.max_time = self.max_time.max(s.stats.elapsed);
        // Moves that miss the goal solve nothing (they are counted as wrong).
        self.solved += usize::from(j.valid);
        // The published counts for this instance, next to ours.
        let theirs = self.published.as_ref().and_then(|p| p.nodes.get(&inst.id));
        if let Some(t) = theirs {
            for (k, &n) in t.iter().enumerate() {
                self.published_total[k] += n;
            }
            self.generated_published += s.stats.generated;
            self.expanded_published += s.stats.expanded;
        }
        self.print_line(out, inst, s, &j, theirs.cloned())?;
        out.flush()?;
        Ok(())
    }

    fn print_line(
        &self,
        out: &mut impl Write,
        inst: &Instance,
        s: &npuzzle::Solution,
        j: &Judged,
        theirs: Option<Vec<u64>>,
    ) -> Result<(), Fail> {
        let verdict = if j.ok { "  ok" } else { "  WRONG" };
        let (st, ratio) = (&s.stats, j.ratio);
        if self.style.json {
            let mut v = json!({
                "id": inst.id, "length": j.len, "optimal": inst.optimal,
                "manhattan": inst.optimal.is_none().then_some(j.reference),
                "ratio": ratio, "ok": j.ok,
                "expanded": st.expanded, "generated": st.generated,
                "seconds": st.elapsed.as_secs_f64(), "threads": self.style.per_search,
            });
            if let (Some(t), Some(p)) = (&theirs, &self.published) {
                v["published"] = by_column(&p.columns, t);
            }
            writeln!(out, "{v}")?;
            return Ok(());
        }
        match (&theirs, &self.published) {
            (Some(t), Some(p)) => {
                writeln!(
                    out,
                    "{:>4}  {:>4} moves  {} {:>4}  x{ratio:.3}{verdict}  {:>14} expanded  {:>14} generated  {:>9.4} s",
                    inst.id,
                    j.len,
                    j.kind,
                    j.reference,
                    st.expanded,
                    st.generated,
                    st.elapsed.as_secs_f64()
                )?;
                writeln!(
                    out,
                    "      published: {}",
                    versus(&p.columns, t, st.generated, st.expanded)
                )?;
            }
            _ => writeln!(
                out,
                "{:>4}  {:>4} moves  {} {:>4}  x{ratio:.3}{verdict}  {:>14} nodes  {:>9.4} s",
                inst.id,
                j.len,
                j.kind,
                j.reference,
                st.expanded,
                st.elapsed.as_secs_f64()
            )?,
        }
        Ok(())
    }

    /// Prints the totals: one JSON object, or a line with the spread of the ratios and
    /// the published counts beside ours.
    pub(super) fn summary(
        mut self,
        out: &mut impl Write,
        instances: &[Instance],
        wall: Duration,
        threads: usize,
    ) -> Result<u8, Fail> {
        // The spread of the per-board ratios: least, tenth percentile, median, ninetieth,
        // most.
        self.ratios.sort_by(f64::total_cmp);
        let at = |q: f64| {
            self.ratios
                .get(((self.ratios.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let spread = [at(0.0), at(0.1), at(0.5), at(0.9), at(1.0)];
        let published = self
            .published
            .as_ref()
            .filter(|_| self.generated_published > 0);
        if self.style.json {
            let mut v = json!({
                "instances": instances.len(), "solved": self.solved,
                "total_length": self.length, "total_reference": self.reference,
                "ratio": ratio(self.length, self.reference),
                "ratio_spread": {"min": spread[0], "p10": spread[1], "median": spread[2],
                                 "p90": spread[3], "max": spread[4]},
                "total_expanded": self.nodes, "total_seconds": self.time.as_secs_f64(),
                "max_seconds": self.max_time.as_secs_f64(),
                "wall_seconds": wall.as_secs_f64(), "threads": threads,
                "stopped": self.stopped, "stopped_expanded": self.stopped_nodes,
                "stopped_seconds": self.stopped_time.as_secs_f64(),
            });
            if let Some(p) = published {
                v["total_generated_with_published"] = json!(self.generated_published);
                v["total_expanded_with_published"] = json!(self.expanded_published);
                v["published_totals"] = by_column(&p.columns, &self.published_total);
            }
            writeln!(out, "{v}")?;
            return Ok(self.code);
        }
        let against = if instances.iter().all(|i| i.optimal.is_some()) {
            "optimal"
        } else {
            "Manhattan distances (where no optimum is given)"
        };
        writeln!(
            out,
            "total: {} of {} solved, {} moves against {} {against} \
             (x{:.3}), {} nodes, {:.3} s searching (at most {:.4} s an instance), \
             {:.3} s wall ({threads} thread{})",
            self.solved,
            instances.len(),
            self.length,
            self.reference,
            ratio(self.length, self.reference),
            self.nodes,
            self.time.as_secs_f64(),
            self.max_time.as_secs_f64(),
            wall.as_secs_f64(),
            if threads == 1 { "" } else { "s" }
        )?;
        if self.stopped > 0 {
            writeln!(
                out,
                "stopped by their limits: {} instance{}, {} nodes, {:.3} s searching (not in \
                 the totals above)",
                self.stopped,
                if self.stopped == 1 { "" } else { "s" },
                self.stopped_nodes,
                self.stopped_time.as_secs_f64(),
            )?;
        }
        if self.solved > 1 {
            writeln!(
                out,
                "ratio per instance: min x{:.3}, 10% x{:.3}, median x{:.3}, 90% x{:.3}, max x{:.3}",
                spread[0], spread[1], spread[2], spread[3], spread[4]
            )?;
        }
        if let Some(p) = published {
            writeln!(
                out,
                "published, the same instances: {} generated, {} expanded here; {}",
                self.generated_published,
                self.expanded_published,
                versus(
                    &p.columns,
                    &self.published_total,
                    self.generated_published,
                    self.expanded_published
                )
            )?;
        }
        Ok(self.code)
    }
}

/// `{"column": count, ...}`.
fn by_column(columns: &[String], counts: &[u64]) -> serde_json::Value {
    columns
        .iter()
        .zip(counts)
        .map(|(c, &n)| (c.clone(), json!(n)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// A length over its reference (the optimum or the Manhattan distance); a board already
/// at the goal needs nothing and gets nothing: 1.
fn ratio(len: u64, reference: u64) -> f64 {
    if len == 0 && reference == 0 {
        1.0
    } else {
        len as f64 / reference.max(1) as f64
    }
}

/// Each published count and the ratios of ours to it, generated and expanded: `korf
/// 2031102635 (x1.63 gen, x0.79 exp)`. (Döbbelin et al.'s counts are expansions, as their
/// table is headed in the source of `testdata/korf24_published_nodes.txt`, and so are
/// Clausecker's, whose search counts a node once it passes the bound test; our expanded
/// count is made the same way.)
fn versus(columns: &[String], theirs: &[u64], generated: u64, expanded: u64) -> String {
    columns
        .iter()
        .zip(theirs)
        .map(|(c, &n)| {
            let n1 = n.max(1) as f64;
            format!(
                "{c} {n} (x{:.2} gen, x{:.2} exp)",
                generated as f64 / n1,
                expanded as f64 / n1
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::bench::instances::{parse_set, Published, KORF24, KORF24_PUBLISHED};

    #[test]
    fn the_published_counts_parse_for_every_instance() {
        let p = Published::parse(KORF24_PUBLISHED);
        assert_eq!(
            p.columns,
            ["korf", "6666", "888", "987", "996", "maxof", "improved", "small"]
        );
        let (instances, errors) = parse_set(KORF24);
        assert!(errors.is_empty(), "{errors:?}");
        for i in &instances {
            assert_eq!(
                p.nodes.get(&i.id).map(Vec::len),
                Some(8),
                "instance {}",
                i.id
            );
        }
        assert_eq!(p.nodes.len(), 50);
        // Instance 1: Korf & Felner's count, and the small catalogue's.
        assert_eq!(p.nodes[&1][0], 2_031_102_635);
        assert_eq!(p.nodes[&1][7], 117_467_064);
        assert_eq!(
            versus(
                &p.columns[..2],
                &p.nodes[&1][..2],
                2_031_102_635,
                1_059_622_872
            ),
            "korf 2031102635 (x1.00 gen, x0.52 exp), 6666 1059622872 (x1.92 gen, x1.00 exp)"
        );
    }
}
