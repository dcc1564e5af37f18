//! The exit codes of every `nimlab` command, documented in the README.

/// Everything accepted (check), every fixture right (fixtures verify), or the command did
/// what it was asked.
pub const SUCCESS: u8 = 0;
/// Some case was not accepted, or some fixture disagrees with the reference.
pub const NOT_ACCEPTED: u8 = 1;
/// Bad usage or configuration: unknown exercise, missing file, malformed lab or input, or no
/// interpreter to run with.
pub const USAGE: u8 = 2;
/// nimlab itself failed while judging (a `judge_error` verdict): not the student's fault.
pub const INTERNAL: u8 = 3;
/// Interrupted by Ctrl-C (as shells report it): `grade` keeps what finished, `check` judges
/// nothing more.
pub const INTERRUPTED: u8 = 130;
