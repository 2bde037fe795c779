//! `npuzzle`: the command-line face of the npuzzle library. Each subcommand parses its
//! arguments, calls the library, and prints; exit codes: 0 success (an unsolvable board
//! is a valid answer), 1 a wrong answer found (`verify`: the moves do not reach the goal;
//! `bench`: a length differs from the optimum), 2 malformed input, 3 a limit reached or
//! an interruption, 4 an I/O error (standard output could not be written, or a file could
//! not be read or written), 5 an internal error.

/// Writes a line to standard error. A standard error that cannot be written (closed, or
/// on a full disk) is ignored: the answers on standard output matter more, and a panic
/// would lose them.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cmd;
mod dirs;
mod input;
mod opts;
mod pdbs;
mod progress;
mod tables;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code: success.
pub const OK: u8 = 0;
/// Exit code: `verify` found moves that do not reach the goal.
pub const MISMATCH: u8 = 1;
/// Exit code: malformed input.
pub const BAD_INPUT: u8 = 2;
/// Exit code: a memory or time limit was reached, or the user interrupted.
pub const LIMIT: u8 = 3;
/// Exit code: an I/O error (standard output, or a file).
pub const IO: u8 = 4;
/// Exit code: an internal error (a bug: please report it).
pub const INTERNAL: u8 = 5;

/// `n` with the word "move" or "moves" as English wants it: "1 move", "70 moves".
pub fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

/// Combines the exit codes of several boards into the worst: an internal error, then a
/// wrong answer, an I/O error, malformed input, a limit reached, success.
pub fn merge(code: u8, new: u8) -> u8 {
    let rank = |c: u8| match c {
        OK => 0,
        LIMIT => 1,
        BAD_INPUT => 2,
        IO => 3,
        MISMATCH => 4,
        _ => 5,
    };
    if rank(new) > rank(code) {
        new
    } else {
        code
    }
}

/// The exit code for a search that ended without an answer: a limit (memory, time, the
/// machine's memory, an interrupt) is 3; a table or database that contradicts itself is
/// an I/O matter (its file is bad), 4; anything else is about the input, 2.
pub fn search_exit_code(e: &npuzzle::SearchError) -> u8 {
    use npuzzle::SearchError as E;
    match e {
        E::MemoryLimit { .. }
        | E::TimeLimit { .. }
        | E::OutOfMemory { .. }
        | E::BuildTooLong { .. } => LIMIT,
        E::Inconsistent { .. } => IO,
        // The board or the request: unsolvable, sizes that differ, an unsupported size,
        // options that do not go together.
        _ => BAD_INPUT,
    }
}

/// A search error in the command line's words: the library names the request's fields
/// and algorithms; the command line names the options that set them.
pub fn search_words(e: &npuzzle::SearchError) -> String {
    use npuzzle::SearchError as E;
    match e {
        E::BadRequest { field, reason } => {
            let flag = match *field {
                "algorithm" => "--algo",
                "heuristic" => "--heuristic",
                "weight" => "--weight",
                "metric" => "--metric",
                "pdb" => "--pdb",
                "solutions" => "--all/--first",
                "exact" => "--optimal",
                "time_limit" => "--time-limit",
                "beam_width" => "--beam-width",
                other => other,
            };
            format!("{flag}: {reason}")
        }
        E::BuildTooLong { .. } => format!(
            "{e} (npuzzle pdb build --size WxH --pdb PARTITION [--goal GOAL] builds it ahead, \
             with --goal where the board's goal is not the usual one; or raise --time-limit)"
        ),
        E::MemoryLimit { suggestion, .. } => {
            let mut words = e.to_string();
            if !suggestion.is_empty() && !suggestion.contains(' ') {
                words += &format!(" (--algo {suggestion})");
            }
            // A larger limit is worth naming where this machine holds what is needed.
            if npuzzle::limits::raising_helps(e) {
                words += "; --max-memory raises the limit";
            }
            words
        }
        E::TooManyCells { instead, .. } => format!("{e} (--algo {instead})"),
        e => e.to_string(),
    }
}

/// A search error as the command ends with it: its exit code and its words.
pub fn search_fail(e: npuzzle::SearchError) -> Fail {
    Fail {
        code: search_exit_code(&e),
        message: search_words(&e),
    }
}

/// A failure that ends the command with an exit code and a message.
#[derive(Debug)]
pub struct Fail {
    /// The exit code.
    pub code: u8,
    /// What to print on standard error.
    pub message: String,
}

impl Fail {
    /// Malformed input.
    pub fn input(message: impl Into<String>) -> Fail {
        Fail {
            code: BAD_INPUT,
            message: message.into(),
        }
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        Fail {
            code: IO,
            message: e.to_string(),
        }
    }
}

/// Sliding-tile puzzles of any size: solve optimally, compare search algorithms, check
/// and apply moves, and answer the classic 8-puzzle judge problems.
///
/// Boards are written as rows joined by '/' ("8 1 3/4 0 2/7 6 5"), as numbers on one line
/// (size from --size or a square count), as compact digits for boards of at most 9 cells
/// ("813402765"), or as a grid over several lines. The blank is 0, x, X, _ or '.'.
/// Moves name the way the tile slides (U D L R).
#[derive(Parser, Debug)]
#[command(
    name = "npuzzle",
    version,
    about,
    long_about,
    after_help = "Exit codes: 0 success (an unsolvable board is a valid answer); 1 a wrong answer \
                  found (verify, bench); 2 malformed input; 3 a limit reached or interrupted; \
                  4 an I/O error; 5 an internal error; 130 a second Ctrl-C. In a batch, the worst of \
                  them."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Solve(cmd::solve::Args),
    Compare(cmd::compare::Args),
    Solvable(cmd::solvable::Args),
    Apply(cmd::moves::ApplyArgs),
    Verify(cmd::moves::VerifyArgs),
    Judge(cmd::judge::Args),
    Analyze(cmd::analyze::Args),
    Pdb(cmd::pdb::Args),
    Bench(cmd::bench::Args),
    Scramble(cmd::scramble::Args),
    Moves(cmd::sequence::Args),
    Render(cmd::render::Args),
    Serve(cmd::serve::Args),
    /// Write a shell completion script (bash, zsh or fish) to standard output.
    Completions(cmd::shell::CompletionsArgs),
    /// Write the manual page (roff, for man) to standard output.
    Man(cmd::shell::ManArgs),
}

/// Help, version, or a bad command line: clap's text, written where it belongs with the
/// writes checked (help sent to a full disk is an I/O error, exit 4, not a success).
fn argument_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let mut out = io::stdout().lock();
        let mut written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        if written.is_ok() && stdout_closed() {
            written = Err(io::Error::other("standard output is closed"));
        }
        return match written {
            Ok(()) => ExitCode::from(OK),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(OK),
            Err(e) => {
                note!("npuzzle: cannot write the help: {e}");
                ExitCode::from(IO)
            }
        };
    }
    let _ = io::stderr().write_all(text.as_bytes());
    ExitCode::from(BAD_INPUT)
}

/// Whether standard output was closed when the program started (`>&-`). The Rust
/// runtime puts /dev/null, opened for reading and writing, in place of a closed standard
/// descriptor, so output would vanish with success; a shell's `>/dev/null` opens it for
/// writing only.
fn stdout_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        let null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == Path::new("/dev/null"));
        let read_write = std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
                .is_some_and(|f| f & 3 == 2)
        });
        null && read_write
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// Standard output, counting what is written to it.
struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Runs one subcommand.
fn dispatch(command: Command, out: &mut Counted<impl Write>) -> Result<u8, Fail> {
    match command {
        Command::Solve(a) => cmd::solve::run(a, out),
        Command::Compare(a) => cmd::compare::run(a, out),
        Command::Solvable(a) => cmd::solvable::run(a, out),
        Command::Apply(a) => cmd::moves::apply(a, out),
        Command::Verify(a) => cmd::moves::verify(a, out),
        Command::Judge(a) => cmd::judge::run(a, out),
        Command::Analyze(a) => cmd::analyze::run(a, out),
        Command::Pdb(a) => cmd::pdb::run(a, out),
        Command::Bench(a) => cmd::bench::run(a, out),
        Command::Scramble(a) => cmd::scramble::run(a, out),
        Command::Moves(a) => cmd::sequence::run(a, out),
        Command::Render(a) => cmd::render::run(a, out),
        Command::Serve(a) => cmd::serve::run(a, out),
        Command::Completions(a) => cmd::shell::completions(a, out),
        Command::Man(a) => cmd::shell::man(a, out),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return argument_error(e),
    };
    let stdout = io::stdout();
    let mut out = Counted {
        inner: io::BufWriter::new(stdout.lock()),
        written: 0,
    };
    // A panic (a bug) ends the command with exit 5 and a word on what to do, not 101.
    let command = cli.command;
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(command, &mut out)))
            .unwrap_or_else(|_| {
                Err(Fail {
                    code: INTERNAL,
                    message:
                        "internal error: the command failed unexpectedly (a bug; please report it \
                      with the command line and its input)"
                            .into(),
                })
            });
    let mut flushed = out.flush();
    if flushed.is_ok() && out.written > 0 && stdout_closed() {
        flushed = Err(io::Error::other("standard output is closed"));
    }
    match (result, flushed) {
        (Ok(code), Ok(())) => ExitCode::from(code),
        // A reader that stopped early (`| head`) is not an error.
        (Err(f), _) if f.code == IO && f.message.contains("Broken pipe") => ExitCode::from(OK),
        (_, Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(OK),
        (Err(f), _) => {
            note!("npuzzle: {}", f.message);
            ExitCode::from(f.code)
        }
        (Ok(_), Err(e)) => {
            note!("npuzzle: cannot write the output: {e}");
            ExitCode::from(IO)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_exits_with_its_worst_outcome() {
        let order = [OK, LIMIT, BAD_INPUT, IO, MISMATCH, INTERNAL];
        for (i, &a) in order.iter().enumerate() {
            for (j, &b) in order.iter().enumerate() {
                assert_eq!(merge(a, b), order[i.max(j)], "{a} then {b}");
            }
        }
        // A wrong length is not hidden by a bad line that came after it.
        assert_eq!(merge(merge(OK, MISMATCH), BAD_INPUT), MISMATCH);
    }
}
