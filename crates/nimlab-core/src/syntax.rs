//! Checks a submission compiles under an interpreter before any case runs, and learns the
//! interpreter's version in the same start-up.

use crate::runner::{RunLimits, RunSpec, Runner, Termination};
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

/// Runs under Python 2.7 and 3 alike: prints the version and what compile() says, as JSON
/// (the version on a line of its own first, in case compiling crashes the interpreter).
/// Anything compile() raises on the file's bytes is the file's fault, not only a SyntaxError:
/// a NUL byte is a TypeError in Python 2 and a ValueError in 3.6 to 3.10, nesting too deep for
/// the parser a MemoryError or RecursionError ([`interpret`] says what each means).
const PROBE: &str = r#"
import json, sys
path = sys.argv[1]
report = {"version": "%d.%d.%d" % tuple(sys.version_info[:3]), "error": None}
sys.stdout.write(json.dumps({"compiling": report["version"]}) + "\n")
sys.stdout.flush()
f = open(path, "rb")
source = f.read()
f.close()
try:
    compile(source, path, "exec")
except SyntaxError as e:
    text = e.text
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    report["error"] = {"kind": type(e).__name__, "line": e.lineno, "message": str(e.msg), "text": text}
except Exception as e:
    report["error"] = {"kind": type(e).__name__, "line": None, "message": str(e), "text": None}
sys.stdout.write(json.dumps(report))
"#;

#[derive(Debug, Clone, Deserialize)]
struct Probe {
    version: String,
    error: Option<ProbeSyntaxError>,
}

/// The probe's first line, before it compiles: the version.
#[derive(Debug, Clone, Deserialize)]
struct Compiling {
    compiling: String,
}

#[derive(Debug, Clone, Deserialize)]
struct ProbeSyntaxError {
    kind: String,
    line: Option<u64>,
    message: String,
    text: Option<String>,
}

#[derive(Debug, Clone)]
pub struct SyntaxCheck {
    /// "3.11.7"
    pub version: String,
    pub problem: Option<SyntaxProblem>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxProblem {
    /// One line: "SyntaxError on line 3: invalid syntax".
    pub message: String,
    /// The offending source line, if known.
    pub source_line: Option<String>,
    pub hint: Option<String>,
}

/// Why the probe could not say whether the file compiles: nimlab's or the machine's fault.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error(transparent)]
    Run(#[from] crate::error::RunnerError),
    #[error("{interpreter} did not answer like a Python interpreter: {stderr}")]
    NotPython { interpreter: String, stderr: String },
}

/// Where the probe runs: its folder and environment, the folders it may see, and the token
/// that stops it.
pub struct ProbePlace<'a> {
    pub workdir: &'a Path,
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    pub expose: &'a [std::path::PathBuf],
    pub stop: &'a crate::stop::Stop,
}

pub fn check(
    runner: &dyn Runner,
    interpreter: &Path,
    file: &Path,
    source: &[u8],
    place: ProbePlace,
) -> Result<SyntaxCheck, ProbeError> {
    let ProbePlace {
        workdir,
        env,
        expose,
        stop,
    } = place;
    let spec = RunSpec {
        program: interpreter,
        // -S: the probe needs only the standard library, and skipping `site` makes Python 3
        // start several times faster.
        args: vec!["-S".into(), "-c".into(), PROBE.into(), file.into()],
        stdin: b"",
        workdir,
        env,
        limits: RunLimits {
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(20),
            memory_bytes: 1 << 30,
            output_bytes: 1 << 20,
        },
        expose,
        seed: None,
        stop,
    };
    let outcome = runner.run(&spec)?;
    if outcome.termination == Termination::Signaled(libc::SIGSEGV)
        && let Some(crash) = crashed_compiling(&outcome.stdout)
    {
        return Ok(crash);
    }
    interpret(interpreter, &outcome.stdout, &outcome.stderr, source)
}

/// The probe's report, on its last line.
fn last_line(stdout: &[u8]) -> &[u8] {
    stdout
        .split(|&b| b == b'\n')
        .rfind(|line| !line.is_empty())
        .unwrap_or_default()
}

/// An interpreter that crashed (SIGSEGV) compiling the file, having said its version and
/// nothing more: its compiler overflowed its stack on the file's nesting (Python 2.7 on a
/// long chain like `1+1+...+1`, which Python 3 refuses with a RecursionError).
fn crashed_compiling(stdout: &[u8]) -> Option<SyntaxCheck> {
    let mut lines = stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    let started: Compiling = serde_json::from_slice(lines.next()?).ok()?;
    if lines.next().is_some() {
        return None;
    }
    let minor = minor(&started.compiling);
    Some(SyntaxCheck {
        problem: Some(SyntaxProblem {
            message: format!(
                "the file nests brackets or expressions too deeply for Python {minor} to compile it (the compiler crashed: killed by SIGSEGV)"
            ),
            source_line: None,
            hint: Some(DEEP_HINT.into()),
        }),
        version: started.compiling,
    })
}

const DEEP_HINT: &str = "Break the deepest expression into steps, each with a name of its own.";

/// "3.11" of "3.11.7".
fn minor(version: &str) -> String {
    version.splitn(3, '.').take(2).collect::<Vec<_>>().join(".")
}

/// What the probe's output (or a fork server's answer, which is the same JSON) says.
pub fn interpret(
    interpreter: &Path,
    stdout: &[u8],
    stderr: &[u8],
    source: &[u8],
) -> Result<SyntaxCheck, ProbeError> {
    let probe: Probe =
        serde_json::from_slice(last_line(stdout)).map_err(|_| ProbeError::NotPython {
            interpreter: interpreter.display().to_string(),
            stderr: crate::traceback::stderr_tail(stderr, 3),
        })?;
    let mut problem = probe.error.map(|e| problem(&probe.version, &e, source));
    if problem.is_none() && probe.version.starts_with("2.") {
        problem = undeclared_non_ascii(source);
    }
    Ok(SyntaxCheck {
        version: probe.version,
        problem,
    })
}

/// What a compile error means, in the student's terms.
fn problem(version: &str, e: &ProbeSyntaxError, source: &[u8]) -> SyntaxProblem {
    if let Some(nul) = nul_byte(e, source) {
        return nul;
    }
    // (A bad coding line is reported on line 0.)
    let line = e.line.filter(|&l| l > 0);
    let place = line.map(|l| format!(" on line {l}")).unwrap_or_default();
    let text = e
        .text
        .as_deref()
        .map(str::trim_end)
        .filter(|t| !t.is_empty());
    let too_deep = e.kind == "MemoryError"
        || e.kind == "RecursionError"
        || e.message.contains("recursion depth")
        || e.message.contains("too complex");
    if too_deep && e.kind != "SyntaxError" {
        let said = if e.message.is_empty() {
            e.kind.clone()
        } else {
            format!("{}: {}", e.kind, e.message)
        };
        return SyntaxProblem {
            message: format!(
                "the file nests brackets or expressions too deeply for Python {} to compile it ({said})",
                minor(version)
            ),
            source_line: text.map(str::to_string),
            hint: Some(DEEP_HINT.into()),
        };
    }
    SyntaxProblem {
        hint: hint(version, &e.message, text),
        message: format!("{}{place}: {}", e.kind, e.message),
        source_line: text.map(str::to_string),
    }
}

/// A NUL byte, which no Python compiles (each says so its own way: a TypeError, a ValueError
/// or a SyntaxError, none with the line): where the first one is.
fn nul_byte(e: &ProbeSyntaxError, source: &[u8]) -> Option<SyntaxProblem> {
    let at = source.iter().position(|&b| b == 0)?;
    if !e.message.to_ascii_lowercase().contains("null byte") {
        return None;
    }
    let start = source[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = source[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |p| at + p);
    let line = source[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&source[start..at]).chars().count() + 1;
    let text = String::from_utf8_lossy(&source[start..end])
        .trim_end()
        .replace('\0', "\\0");
    let utf16 = source.starts_with(b"\xff\xfe") || source.starts_with(b"\xfe\xff");
    let hint = if utf16 {
        "The file is saved as UTF-16, which puts a NUL byte beside every letter: save it as UTF-8 (plain text)."
    } else {
        "A NUL byte is invisible in most editors (shown here as \\0). It comes from pasting from a binary file or a PDF, or from a file saved as UTF-16: delete the line and type it again, or save the file as UTF-8 (plain text)."
    };
    Some(SyntaxProblem {
        message: format!(
            "the file contains a NUL byte (character 0) on line {line}, column {column}: Python compiles no file that does"
        ),
        source_line: (!text.is_empty()).then_some(text),
        hint: Some(hint.into()),
    })
}

fn hint(version: &str, message: &str, text: Option<&str>) -> Option<String> {
    let text = text.unwrap_or("");
    if message.contains("Missing parentheses in call to 'print'") {
        return Some("print is a function in Python 3: write print(x), and keep `from __future__ import print_function` so Python 2 agrees.".into());
    }
    if version.starts_with("2.") && (text.contains("f\"") || text.contains("f'")) {
        return Some("f-strings do not exist in Python 2.7, which the lab also runs: use \"{}\".format(x) or %-formatting.".into());
    }
    if version.starts_with("2.")
        && (text.contains(" -> ") || text.contains(": int") || text.contains(": list"))
    {
        return Some(
            "Type annotations do not exist in Python 2.7, which the lab also runs: leave them out."
                .into(),
        );
    }
    if message.starts_with("unknown encoding") {
        return Some("The coding line names an encoding Python does not know: write `# -*- coding: utf-8 -*-` and save the file as UTF-8.".into());
    }
    if message.contains("codec can't decode") {
        return Some("The file is not UTF-8 text (saved as Latin-1 or Windows-1252, say): save it as UTF-8, or declare its encoding with a line like `# -*- coding: latin-1 -*-`.".into());
    }
    if message.contains("inconsistent use of tabs") || message.contains("unindent does not match") {
        return Some(
            "Indent with spaces only (4 per level): mixing tabs and spaces confuses Python.".into(),
        );
    }
    None
}

/// Python 2 refuses a file with non-ASCII bytes unless it declares its encoding (PEP 263);
/// its compile() does not apply that rule, so nimlab does.
fn undeclared_non_ascii(source: &[u8]) -> Option<SyntaxProblem> {
    if source.starts_with(b"\xef\xbb\xbf") {
        return None;
    }
    let declares = source.split(|&b| b == b'\n').take(2).any(|line| {
        let line = String::from_utf8_lossy(line);
        let Some(comment) = line.trim_start().strip_prefix('#') else {
            return false;
        };
        comment.contains("coding:") || comment.contains("coding=")
    });
    if declares {
        return None;
    }
    let position = source.iter().position(|b| !b.is_ascii())?;
    let line = source[..position].iter().filter(|&&b| b == b'\n').count() + 1;
    let text = source
        .split(|&b| b == b'\n')
        .nth(line - 1)
        .map(|l| String::from_utf8_lossy(l).trim_end().to_string());
    Some(SyntaxProblem {
        message: format!(
            "SyntaxError on line {line}: non-ASCII character '\\x{:02x}' but no encoding declared",
            source[position]
        ),
        source_line: text,
        hint: Some("Python 2 needs `# -*- coding: utf-8 -*-` as the first or second line of a file with non-ASCII characters (é, ü, “quotes”...); or use plain ASCII.".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(version: &str, kind: &str, message: &str, source: &[u8]) -> SyntaxProblem {
        let json = serde_json::json!({
            "version": version,
            "error": {"kind": kind, "line": null, "message": message, "text": null},
        });
        let stdout = format!("{{\"compiling\": \"{version}\"}}\n{json}");
        interpret(Path::new("python"), stdout.as_bytes(), b"", source)
            .unwrap()
            .problem
            .unwrap()
    }

    #[test]
    fn whatever_compile_raises_on_the_file_is_named_in_the_students_terms() {
        let source = b"x = 1\nprint(x)\x00\n";
        for (version, kind, message) in [
            (
                "2.7.18",
                "TypeError",
                "compile() expected string without null bytes",
            ),
            (
                "3.8.18",
                "ValueError",
                "source code string cannot contain null bytes",
            ),
            (
                "3.11.7",
                "SyntaxError",
                "source code string cannot contain null bytes",
            ),
        ] {
            let p = said(version, kind, message, source);
            assert!(
                p.message
                    .contains("NUL byte (character 0) on line 2, column 9"),
                "{p:?}"
            );
            assert_eq!(p.source_line.as_deref(), Some("print(x)\\0"));
        }
        let p = said("2.7.18", "MemoryError", "", b"x = ((((1))))\n");
        assert!(p.message.contains("too deeply for Python 2.7"), "{p:?}");
        let p = said("3.11.7", "SomethingNew", "it is wrong", b"x\n");
        assert_eq!(p.message, "SomethingNew: it is wrong");
    }

    #[test]
    fn a_compiler_that_crashes_after_the_version_is_the_files_nesting() {
        let check = crashed_compiling(b"{\"compiling\": \"2.7.18\"}\n").unwrap();
        assert_eq!(check.version, "2.7.18");
        assert!(check.problem.unwrap().message.contains("too deeply"));
        // A report after it: the compiler did not crash.
        assert!(
            crashed_compiling(
                b"{\"compiling\": \"2.7.18\"}\n{\"version\": \"2.7.18\", \"error\": null}"
            )
            .is_none()
        );
        // The version line alone is no report.
        assert!(
            interpret(
                Path::new("python"),
                b"{\"compiling\": \"3.11.7\"}\n",
                b"",
                b""
            )
            .is_err()
        );
    }

    #[test]
    fn non_ascii_needs_a_coding_line_in_python_2() {
        let p = undeclared_non_ascii("x = 1\ny = 'café'\n".as_bytes()).unwrap();
        assert!(p.message.contains("line 2"), "{}", p.message);
        assert!(undeclared_non_ascii("# -*- coding: utf-8 -*-\ny = 'café'\n".as_bytes()).is_none());
        assert!(
            undeclared_non_ascii(
                "#!/usr/bin/env python\n# vim: set fileencoding=utf-8 :\ny = 'é'\n".as_bytes()
            )
            .is_none()
        );
        assert!(undeclared_non_ascii(b"plain = 'ascii'\n").is_none());
    }
}
