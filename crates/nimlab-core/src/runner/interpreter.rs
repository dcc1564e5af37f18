//! Finds the Python interpreter a request names ("3", "2.7", "pypy3" or a path), resolved once
//! to the real binary: a version manager's shim would cost tens of milliseconds per start.

use std::env;
use std::path::{Path, PathBuf};

/// What `--python` or `exercise.toml` asked for, and the binary it resolved to, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interpreter {
    pub request: String,
    pub path: Option<PathBuf>,
}

pub fn resolve(request: &str) -> Interpreter {
    Interpreter {
        request: request.to_string(),
        path: find(request, &Environment::current()),
    }
}

/// What `nimlab doctor` tells of an interpreter: its version and what one start costs.
#[derive(Debug, Clone)]
pub struct Probe {
    pub path: PathBuf,
    pub version: String,
    /// The median of a few starts: what every case pays before the student's code runs.
    pub start: Option<std::time::Duration>,
}

/// Resolves and starts an interpreter a few times; `None` where it is not installed.
pub fn probe(request: &str) -> Option<Probe> {
    use std::process::Command;
    let path = resolve(request).path?;
    let version = Command::new(&path)
        .args([
            "-c",
            "import sys; print('%d.%d.%d' % tuple(sys.version_info[:3]))",
        ])
        .env_clear()
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "?".into());
    let mut starts: Vec<std::time::Duration> = (0..5)
        .filter_map(|_| {
            let started = std::time::Instant::now();
            let status = Command::new(&path)
                .args(["-c", "pass"])
                .env_clear()
                .status()
                .ok()?;
            status.success().then(|| started.elapsed())
        })
        .collect();
    starts.sort();
    Some(Probe {
        start: starts.get(starts.len() / 2).copied(),
        path,
        version,
    })
}

/// What resolution reads from the process environment, gathered so tests can supply their own.
#[derive(Debug, Clone)]
pub struct Environment {
    pub path: Vec<PathBuf>,
    pub pyenv_root: Option<PathBuf>,
    pub pyenv_version: Option<String>,
    pub cwd: Option<PathBuf>,
}

impl Environment {
    pub fn current() -> Self {
        let home = env::var_os("HOME").map(PathBuf::from);
        Environment {
            path: env::var_os("PATH")
                .map(|p| env::split_paths(&p).collect())
                .unwrap_or_default(),
            pyenv_root: env::var_os("PYENV_ROOT")
                .map(PathBuf::from)
                .or_else(|| home.map(|h| h.join(".pyenv"))),
            pyenv_version: env::var("PYENV_VERSION").ok(),
            cwd: env::current_dir().ok(),
        }
    }
}

fn is_version(request: &str) -> bool {
    !request.is_empty() && request.chars().all(|c| c.is_ascii_digit() || c == '.')
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

pub fn find(request: &str, environment: &Environment) -> Option<PathBuf> {
    if request.contains('/') {
        let path = PathBuf::from(request);
        return is_executable(&path).then_some(path);
    }
    let command = if is_version(request) {
        format!("python{request}")
    } else {
        request.to_string()
    };
    for dir in &environment.path {
        let candidate = dir.join(&command);
        if !is_executable(&candidate) {
            continue;
        }
        if is_pyenv_shims(dir, environment) {
            // A shim runs whatever pyenv selects; find that binary directly, or go on
            // looking (the shim would fail for a version pyenv has not selected).
            if let Some(real) = pyenv_selected(&command, environment) {
                return Some(real);
            }
            continue;
        }
        return Some(candidate);
    }
    if is_version(request) {
        return pyenv_installed(request, &command, environment);
    }
    None
}

fn is_pyenv_shims(dir: &Path, environment: &Environment) -> bool {
    match &environment.pyenv_root {
        Some(root) => dir == root.join("shims"),
        None => false,
    }
}

/// The versions pyenv would select, in its order: PYENV_VERSION, a `.python-version` file in
/// the working folder or above it, then the global `version` file.
fn pyenv_selection(environment: &Environment) -> Vec<String> {
    let split = |text: &str| -> Vec<String> {
        text.split(|c: char| c == ':' || c.is_whitespace())
            .filter(|v| !v.is_empty() && !v.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    if let Some(version) = &environment.pyenv_version {
        return split(version);
    }
    if let Some(cwd) = &environment.cwd {
        for dir in cwd.ancestors() {
            if let Ok(text) = std::fs::read_to_string(dir.join(".python-version")) {
                return split(&text);
            }
        }
    }
    environment
        .pyenv_root
        .as_ref()
        .and_then(|root| std::fs::read_to_string(root.join("version")).ok())
        .map(|text| split(&text))
        .unwrap_or_default()
}

fn pyenv_selected(command: &str, environment: &Environment) -> Option<PathBuf> {
    let root = environment.pyenv_root.as_ref()?;
    pyenv_selection(environment)
        .into_iter()
        .map(|version| {
            root.join("versions")
                .join(version)
                .join("bin")
                .join(command)
        })
        .find(|candidate| is_executable(candidate))
}

/// The newest installed pyenv version that `request` is a prefix of (2.7 -> 2.7.18).
fn pyenv_installed(request: &str, command: &str, environment: &Environment) -> Option<PathBuf> {
    let versions = environment.pyenv_root.as_ref()?.join("versions");
    let mut found: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir(&versions)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let matches =
                is_version(&name) && (name == request || name.starts_with(&format!("{request}.")));
            let binary = entry.path().join("bin").join(command);
            (matches && is_executable(&binary)).then(|| {
                let key = name.split('.').filter_map(|p| p.parse().ok()).collect();
                (key, binary)
            })
        })
        .collect();
    found.sort();
    found.pop().map(|(_, path)| path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn executable(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn sees_through_shims_and_falls_back_to_installed_versions() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("pyenv");
        executable(&root.join("shims/python3"));
        executable(&root.join("shims/python2.7"));
        executable(&root.join("versions/3.11.7/bin/python3"));
        executable(&root.join("versions/2.7.9/bin/python2.7"));
        executable(&root.join("versions/2.7.18/bin/python2.7"));
        std::fs::write(root.join("version"), "3.11.7\n").unwrap();
        let environment = Environment {
            path: vec![root.join("shims"), tmp.path().join("usr/bin")],
            pyenv_root: Some(root.clone()),
            pyenv_version: None,
            cwd: None,
        };
        assert_eq!(
            find("3", &environment),
            Some(root.join("versions/3.11.7/bin/python3"))
        );
        // 2.7 is not selected, so its shim would fail: the newest installed 2.7 is used.
        assert_eq!(
            find("2.7", &environment),
            Some(root.join("versions/2.7.18/bin/python2.7"))
        );
        assert_eq!(find("3.4", &environment), None);
    }

    #[test]
    fn a_plain_path_entry_wins_and_paths_are_taken_as_given() {
        let tmp = tempfile::tempdir().unwrap();
        executable(&tmp.path().join("bin/python3"));
        let environment = Environment {
            path: vec![tmp.path().join("bin")],
            pyenv_root: None,
            pyenv_version: None,
            cwd: None,
        };
        assert_eq!(
            find("3", &environment),
            Some(tmp.path().join("bin/python3"))
        );
        let direct = tmp.path().join("bin/python3");
        assert_eq!(find(direct.to_str().unwrap(), &environment), Some(direct));
        assert_eq!(find("/no/such/python", &environment), None);
    }
}
