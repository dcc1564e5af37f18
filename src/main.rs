use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = nimlab::cli::Cli::parse();
    match nimlab::commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            // An error may quote a file or a roster nimlab read: shown, never acting on the terminal.
            eprintln!("error: {}", nimlab::escape::terminal(&error.to_string()));
            ExitCode::from(error.exit_code())
        }
    }
}
