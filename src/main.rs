use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = nimlab::cli::Cli::parse();
    match nimlab::commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}
