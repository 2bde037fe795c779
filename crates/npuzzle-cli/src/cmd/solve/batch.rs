//! A batch of boards solved on the thread pool, one request shared, each answer kept
//! until its turn to be written.

use super::*;

/// One board's answer, kept until its turn to be written.
#[derive(Default)]
pub(super) struct Answer {
    pub(super) out: Vec<u8>,
    pub(super) notes: Vec<String>,
    pub(super) code: u8,
    /// A solution to play (with --animate).
    pub(super) play: Option<(Board, Vec<npuzzle::Direction>)>,
}

/// Solves a batch on up to `threads` threads, each taking the next board as it finishes
/// one; the answers in input order (`None` for boards left after Ctrl-C). A single board
/// gets every thread for its search instead.
pub(super) fn solve_batch(
    shared: &Shared,
    batch: &[Item],
    threads: usize,
) -> Result<Vec<Option<Answer>>, Fail> {
    let (per_search, spawn) = if batch.len() == 1 {
        (threads, 1)
    } else {
        (1, threads.min(batch.len()))
    };
    let slots: Vec<Mutex<Option<Result<Answer, Fail>>>> =
        batch.iter().map(|_| Mutex::new(None)).collect();
    // One request for the batch: its boards share it. A single board on a terminal shows
    // how its search goes (the bound proven, the nodes) once it has taken a second.
    let line = Arc::new(Mutex::new(ProgressLine::new("search")));
    let mut limits = shared.request.limits.clone();
    if batch.len() == 1 && lock(&line).is_terminal() {
        let line = line.clone();
        // The last pass's report: the search's name and the bound it proved.
        let proven: Mutex<(&'static str, u32)> = Mutex::new(("search", 0));
        limits.progress = Some(Arc::new(move |p: &npuzzle::limits::SearchProgress| {
            let (name, bound) = {
                let mut last = lock(&proven);
                if let Some(b) = p.bound {
                    *last = (p.algorithm, b.max(last.1));
                }
                *last
            };
            if p.elapsed.as_secs_f64() >= 1.0 {
                let best = p
                    .best
                    .map(|b| format!("best so far {b} moves, "))
                    .unwrap_or_default();
                lock(&line).status(&format!(
                    "{name}: {best}at least {bound} moves proven, {:.1} s",
                    p.elapsed.as_secs_f64()
                ));
            }
        }));
    }
    let request = Request {
        threads: per_search,
        limits,
        ..shared.request.clone()
    };
    npuzzle::limits::for_each_index(batch.len(), spawn, |i| {
        if crate::opts::interrupted() {
            return;
        }
        let r = solve_one(shared, &batch[i], &request);
        *slots[i].lock().expect("no panics while held") = Some(r);
    });
    lock(&line).finish();
    slots
        .into_iter()
        .map(|s| s.into_inner().expect("no panics while held").transpose())
        .collect()
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Solves one board into its answer.
pub(super) fn solve_one(shared: &Shared, item: &Item, request: &Request) -> Result<Answer, Fail> {
    let args = shared.args;
    let mut a = Answer::default();
    let report = |a: &mut Answer, msg: &str, code: u8| -> std::io::Result<()> {
        a.notes.push(format!("npuzzle: {}: {msg}", item.label()));
        if args.json {
            let v = json!({ "line": item.line, "input": item.text, "error": msg });
            writeln!(a.out, "{v}")?;
        }
        a.code = merge(a.code, code);
        Ok(())
    };
    let board = match parse_item(item, shared.size) {
        Ok(b) => b,
        Err(e) => {
            report(&mut a, &e, BAD_INPUT)?;
            return Ok(a);
        }
    };
    // The goal's size is checked here, in the command line's words; the request holds
    // the goal (or none: each board's solved position).
    if let Err(e) = BoardOpts::check_goal(&shared.goal, &board) {
        report(&mut a, &e, BAD_INPUT)?;
        return Ok(a);
    }
    match shared.core.answer(&board, request) {
        Ok(ans) => {
            for n in &ans.notes {
                a.notes.push(format!("npuzzle: {n}"));
            }
            if !ans.report.solvable {
                print_unsolvable(&mut a.out, args, &ans.report)?;
            } else if ans.report.solutions.is_some() {
                print_all(&mut a.out, args, &board, &ans)?;
            } else {
                print_solution(&mut a.out, args, &board, &ans)?;
                if args.animate && std::io::stdout().is_terminal() {
                    a.play = Some((board.clone(), ans.moves));
                }
            }
        }
        Err(e) => {
            // A request's own error stands alone; a search's names the board.
            let msg = match &e {
                SearchError::BadRequest { .. } | SearchError::BuildTooLong { .. } => {
                    crate::search_words(&e)
                }
                e => format!("{board}: {}", crate::search_words(e)),
            };
            report(&mut a, &msg, exit_code(&e))?;
        }
    }
    Ok(a)
}

/// The exit code a search error calls for: a limit reached (3), or input the search
/// cannot take (2).
pub(super) fn exit_code(e: &SearchError) -> u8 {
    crate::search_exit_code(e)
}
