//! `npuzzle completions SHELL` and `npuzzle man`: shell completion scripts and the manual
//! page, made from the command line's own definition (clap_complete, clap_mangen), so they
//! never fall behind it.

use std::io::Write;

use clap::{Args as ClapArgs, CommandFactory, ValueEnum};

use crate::{Fail, OK};

/// The shells completions are written for.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Shell {
    /// Bash: `npuzzle completions bash > ~/.local/share/bash-completion/completions/npuzzle`.
    Bash,
    /// Zsh: `npuzzle completions zsh > "${fpath[1]}/_npuzzle"`.
    Zsh,
    /// Fish: `npuzzle completions fish > ~/.config/fish/completions/npuzzle.fish`.
    Fish,
}

/// Writes a shell completion script to standard output.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "examples:\n  npuzzle completions bash > ~/.local/share/bash-completion/completions/npuzzle\n  npuzzle completions zsh > \"${fpath[1]}/_npuzzle\"\n  npuzzle completions fish > ~/.config/fish/completions/npuzzle.fish"
)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the manual page (roff) to standard output, or every page (npuzzle(1) and one per
/// subcommand, npuzzle-solve(1) and so on) into a folder.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "examples:\n  npuzzle man > npuzzle.1 && man ./npuzzle.1\n  npuzzle man --dir ~/.local/share/man/man1   # then: man npuzzle-solve"
)]
pub struct ManArgs {
    /// Write npuzzle.1 and a page per subcommand (npuzzle-solve.1, ...) into this folder
    /// (made if missing) instead of the main page to standard output.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// `npuzzle completions SHELL`.
pub fn completions(args: CompletionsArgs, out: &mut impl Write) -> Result<u8, Fail> {
    let mut cmd = crate::Cli::command();
    let shell = match args.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut cmd, "npuzzle", &mut bytes);
    out.write_all(&bytes)?;
    Ok(OK)
}

/// A page for every subcommand of `cmd` (and theirs: `npuzzle-pdb-build`), named after
/// its path.
fn pages_of(cmd: &clap::Command, path: &str, pages: &mut Vec<(String, clap::Command)>) {
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("{path}-{}", sub.get_name());
        let call = format!("{} {}", path.replace('-', " "), sub.get_name());
        let page = sub
            .clone()
            .disable_help_subcommand(true)
            .display_name(name.clone())
            .bin_name(call);
        pages_of(&page, &name, pages);
        pages.push((name, page));
    }
}

/// `npuzzle man`.
pub fn man(args: ManArgs, out: &mut impl Write) -> Result<u8, Fail> {
    // (The help subcommand is `--help` on every page; it gets no page of its own.)
    let cmd = crate::Cli::command().disable_help_subcommand(true);
    let Some(dir) = args.dir else {
        let mut bytes = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut bytes)?;
        out.write_all(&bytes)?;
        return Ok(OK);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| Fail::input(format!("--dir: cannot make {}: {e}", dir.display())))?;
    let mut pages = vec![("npuzzle".to_string(), cmd.clone())];
    pages_of(&cmd, "npuzzle", &mut pages);
    for (name, page) in pages {
        let mut bytes = Vec::new();
        clap_mangen::Man::new(page)
            .source(format!("npuzzle {}", env!("CARGO_PKG_VERSION")))
            .render(&mut bytes)?;
        let path = dir.join(format!("{name}.1"));
        npuzzle::files::write_through(&path, &bytes).map_err(|e| Fail {
            code: crate::IO,
            message: format!("{}: {e}", path.display()),
        })?;
        writeln!(out, "{}", path.display())?;
    }
    Ok(OK)
}
