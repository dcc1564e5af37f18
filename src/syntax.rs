//! Checks a submission compiles under an interpreter before any case runs, and learns the
//! interpreter's version in the same start-up.

use crate::runner::{RunLimits, RunSpec, Runner};
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

/// Runs under Python 2.7 and 3 alike: prints the version and what compile() says, as JSON.
const PROBE: &str = r#"
import json, sys
path = sys.argv[1]
report = {"version": "%d.%d.%d" % tuple(sys.version_info[:3]), "error": None}
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
except ValueError as e:
    report["error"] = {"kind": "SyntaxError", "line": None, "message": str(e), "text": None}
sys.stdout.write(json.dumps(report))
"#;

#[derive(Debug, Clone, Deserialize)]
struct Probe {
    version: String,
    error: Option<ProbeSyntaxError>,
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

pub fn check(
    runner: &dyn Runner,
    interpreter: &Path,
    file: &Path,
    source: &[u8],
    workdir: &Path,
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    expose: &[std::path::PathBuf],
) -> Result<SyntaxCheck, ProbeError> {
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
    };
    let outcome = runner.run(&spec)?;
    interpret(interpreter, &outcome.stdout, &outcome.stderr, source)
}

/// What the probe's output (or a fork server's answer, which is the same JSON) says.
pub fn interpret(
    interpreter: &Path,
    stdout: &[u8],
    stderr: &[u8],
    source: &[u8],
) -> Result<SyntaxCheck, ProbeError> {
    let probe: Probe = serde_json::from_slice(stdout).map_err(|_| ProbeError::NotPython {
        interpreter: interpreter.display().to_string(),
        stderr: crate::feedback::traceback::stderr_tail(stderr, 3),
    })?;
    let mut problem = probe.error.map(|e| {
        let place = e.line.map(|l| format!(" on line {l}")).unwrap_or_default();
        let text = e
            .text
            .as_deref()
            .map(str::trim_end)
            .filter(|t| !t.is_empty());
        SyntaxProblem {
            hint: hint(&probe.version, &e.message, text),
            message: format!("{}{place}: {}", e.kind, e.message),
            source_line: text.map(str::to_string),
        }
    });
    if problem.is_none() && probe.version.starts_with("2.") {
        problem = undeclared_non_ascii(source);
    }
    Ok(SyntaxCheck {
        version: probe.version,
        problem,
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
