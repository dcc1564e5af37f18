//! The `nimlab` command: its arguments ([`cli`]) and one function per command ([`commands`]),
//! over the grader (nimlab-core) and the website (nimlab-web).

mod bench;
mod cli;
mod commands;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // nimlab waits for the programs it starts: a SIGCHLD ignored by whoever started it would
    // have the kernel reap them unseen, and every wait fail.
    // SAFETY: a signal's disposition, set before any thread is started.
    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_DFL) };
    let cli = crate::cli::Cli::parse();
    match crate::commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        // Whoever read the output has all they wanted.
        Err(nimlab_core::error::Error::ClosedOutput) => ExitCode::SUCCESS,
        Err(error) => {
            // An error may quote a file or a roster nimlab read: shown, never acting on the terminal.
            eprintln!(
                "error: {}",
                nimlab_core::escape::terminal(&error.to_string())
            );
            ExitCode::from(error.exit_code())
        }
    }
}
