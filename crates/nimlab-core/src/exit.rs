//! The exit codes of every `nimlab` command, documented in the user guide (docs/src/commands.md).

/// Everything accepted (check), every fixture right (fixtures verify), or the command did
/// what it was asked.
pub const SUCCESS: u8 = 0;
/// Some case was not accepted, or some fixture disagrees with the reference.
pub const NOT_ACCEPTED: u8 = 1;
/// Bad usage or configuration: unknown exercise, missing or malformed file or folder, an
/// output folder that would be overwritten, or no interpreter to run with.
pub const USAGE: u8 = 2;
/// nimlab itself failed: a case judged `judge_error` (not the student's fault), or a folder,
/// report or file it could not create or write, or a process it could not start.
pub const INTERNAL: u8 = 3;
/// Interrupted by Ctrl-C (as shells report it): `grade` keeps what finished, `check` judges
/// nothing more.
pub const INTERRUPTED: u8 = 130;
