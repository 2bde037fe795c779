//! How an answer is written: text, `--stats`, JSON (the library's report), several
//! solutions, and `--animate` on a terminal.

use super::*;

pub(super) fn print_solution(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    ans: &npuzzle::request::Answer,
) -> std::io::Result<()> {
    let r = &ans.report;
    if args.json {
        return writeln!(out, "{}", r.to_json());
    }
    let metric = match args.metric {
        Metric::Stm => "",
        Metric::Mtm => " (mtm)",
    };
    if ans.moves.is_empty() {
        writeln!(out, "{board}: solved already (0 moves)")?;
    } else {
        let (length, moves) = (r.length.unwrap_or(0), r.moves.as_deref().unwrap_or(""));
        // (The report's board is the board written out already.)
        writeln!(
            out,
            "{}: {}{metric}{}: {moves}",
            r.board,
            crate::moves(length),
            r.proven()
        )?;
    }
    if args.stats {
        print_stats(out, r, &ans.stats)?;
    }
    Ok(())
}

/// The `--stats` line: algorithm, heuristic, nodes, peak states, time.
pub(super) fn print_stats(
    out: &mut impl Write,
    r: &Report,
    st: &npuzzle::Stats,
) -> std::io::Result<()> {
    let h = r
        .heuristic
        .as_ref()
        .map(|h| format!(" ({h})"))
        .unwrap_or_default();
    writeln!(
        out,
        "  {}{h}: {} expanded, {} generated, {} peak states, {:.6} s",
        r.algorithm,
        st.expanded,
        st.generated,
        st.peak_stored,
        st.elapsed.as_secs_f64()
    )
}

pub(super) fn print_unsolvable(
    out: &mut impl Write,
    args: &Args,
    r: &Report,
) -> std::io::Result<()> {
    if args.json {
        writeln!(out, "{}", r.to_json())
    } else {
        writeln!(out, "{}: unsolvable", r.board)
    }
}

pub(super) fn print_all(
    out: &mut impl Write,
    args: &Args,
    board: &Board,
    ans: &npuzzle::request::Answer,
) -> std::io::Result<()> {
    let r = &ans.report;
    if args.json {
        return writeln!(out, "{}", r.to_json());
    }
    let all = r.solutions.as_deref().unwrap_or_default();
    writeln!(
        out,
        "{board}: {}, {} optimal solution{}:",
        crate::moves(r.length.unwrap_or(0)),
        all.len(),
        if all.len() == 1 { "" } else { "s" }
    )?;
    for m in all {
        writeln!(out, "  {m}")?;
    }
    if args.stats {
        print_stats(out, r, &ans.stats)?;
    }
    Ok(())
}

/// Plays `moves` from `board` on a terminal: the grid redrawn in place after each move.
pub(super) fn play(
    out: &mut impl Write,
    board: &Board,
    moves: &[npuzzle::Direction],
    tps: f64,
) -> std::io::Result<()> {
    let pause = std::time::Duration::from_secs_f64(1.0 / tps);
    let rows = board.size().height();
    let mut b = board.clone();
    let draw = |out: &mut dyn Write, b: &Board, k: usize| -> std::io::Result<()> {
        for line in b.to_grid().lines() {
            writeln!(out, "\x1b[2K  {line}")?;
        }
        writeln!(out, "\x1b[2K  move {k} of {}", moves.len())?;
        out.flush()
    };
    draw(out, &b, 0)?;
    for (k, &d) in moves.iter().enumerate() {
        if crate::opts::interrupted() {
            break;
        }
        std::thread::sleep(pause);
        b.apply(d).expect("a solution's moves are legal");
        // Back to the top of the drawing, and over it.
        write!(out, "\x1b[{}A", rows + 1)?;
        draw(out, &b, k + 1)?;
    }
    Ok(())
}
