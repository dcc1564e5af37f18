fn main() -> std::process::ExitCode {
    nimlab::cli::main()
}
