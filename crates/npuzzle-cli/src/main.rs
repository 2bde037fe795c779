//! `npuzzle`: the command-line face of the npuzzle library. Each subcommand parses its
//! arguments, calls the library, and prints; exit codes: 0 success (an unsolvable board
//! is a valid answer), 1 `verify` found that the moves do not reach the goal, 2 malformed
//! input, 3 a limit reached.

mod cmd;
mod dirs;
mod input;
mod opts;
mod pdbs;
mod progress;
mod tables;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code: success.
pub const OK: u8 = 0;
/// Exit code: `verify` found moves that do not reach the goal.
pub const MISMATCH: u8 = 1;
/// Exit code: malformed input.
pub const BAD_INPUT: u8 = 2;
/// Exit code: a memory or time limit was reached.
pub const LIMIT: u8 = 3;

/// Combines exit codes of several boards: malformed input outranks a limit reached.
pub fn merge(code: u8, new: u8) -> u8 {
    if code == BAD_INPUT || new == BAD_INPUT {
        BAD_INPUT
    } else {
        code.max(new)
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
            code: 1,
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
#[command(name = "npuzzle", version, about, long_about)]
struct Cli {
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a, &mut out),
        Command::Compare(a) => cmd::compare::run(a, &mut out),
        Command::Solvable(a) => cmd::solvable::run(a, &mut out),
        Command::Apply(a) => cmd::moves::apply(a, &mut out),
        Command::Verify(a) => cmd::moves::verify(a, &mut out),
        Command::Judge(a) => cmd::judge::run(a, &mut out),
        Command::Analyze(a) => cmd::analyze::run(a, &mut out),
        Command::Pdb(a) => cmd::pdb::run(a, &mut out),
        Command::Bench(a) => cmd::bench::run(a, &mut out),
    };
    let flushed = out.flush();
    match (result, flushed) {
        (Ok(code), Ok(())) => ExitCode::from(code),
        (Err(f), _) if f.code == 1 && f.message.contains("Broken pipe") => ExitCode::from(OK),
        (_, Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(OK),
        (Err(f), _) => {
            eprintln!("npuzzle: {}", f.message);
            ExitCode::from(f.code)
        }
        (Ok(_), Err(e)) => {
            eprintln!("npuzzle: {e}");
            ExitCode::from(1)
        }
    }
}
