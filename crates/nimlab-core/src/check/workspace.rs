//! The check's working folders: the submission read once, its private copy (with the `.py`
//! files beside it where they are the student's own), the folders its runs are given, and
//! the clean environment they run in.

use crate::error::Error;
use crate::runner::Runner;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Sibling files copied next to a submission so it can import them; more or larger is not a
/// lab folder.
pub const MAX_SIBLINGS: usize = 200;
pub const MAX_SIBLING_BYTES: u64 = 2 * 1024 * 1024;
/// No answer to a lab exercise is this large; reading it whole would only cost memory.
pub const MAX_SUBMISSION_BYTES: u64 = 1024 * 1024;

fn unreadable_submission(file: &Path, source: std::io::Error) -> Error {
    Error::input(file, format!("cannot read the submission: {source}"))
}

/// The submission's bytes, read once: only from a regular file (a FIFO or a device put in
/// its place never blocks nimlab), and never more than a submission may hold.
pub(super) fn read_submission(file: &Path) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(file)
        .map_err(|e| unreadable_submission(file, e))?;
    let metadata = opened
        .metadata()
        .map_err(|e| unreadable_submission(file, e))?;
    if !metadata.is_file() {
        return Err(Error::input(
            file,
            "is not a regular file (a folder, a FIFO or a device); nimlab checks Python files",
        ));
    }
    if metadata.len() > MAX_SUBMISSION_BYTES {
        return Err(Error::input(
            file,
            format!(
                "the submission is {} bytes; nimlab checks files of at most 1 MiB",
                metadata.len()
            ),
        ));
    }
    let mut source = Vec::new();
    opened
        .take(MAX_SUBMISSION_BYTES + 1)
        .read_to_end(&mut source)
        .map_err(|e| unreadable_submission(file, e))?;
    if source.len() as u64 > MAX_SUBMISSION_BYTES {
        return Err(Error::input(
            file,
            "the submission grew past 1 MiB while it was read",
        ));
    }
    Ok(source)
}

pub(super) fn workspace_error(source: std::io::Error) -> Error {
    Error::internal("cannot prepare a working folder", source)
}

/// The scratch folder of several checks of one student, made one after another: each
/// snapshot in a folder of its own, all of them under the one folder the runs are shown, and
/// the same working folders, so a runner keeps its interpreters from one check to the next.
/// The checks' owner calls [`SharedWorkspace::finish`] after the last.
pub struct SharedWorkspace {
    dir: tempfile::TempDir,
    expose: Vec<PathBuf>,
    /// The student's folder whose `.py` files were copied into [`SHARED_FOLDER`], once for
    /// all the checks that take their siblings from it (each copy is a file made on disk).
    folder_copied: std::sync::Mutex<Option<PathBuf>>,
}

/// Where a shared workspace keeps its one copy of the student's folder (not an exercise
/// name: those have no capitals).
const SHARED_FOLDER: &str = "Folder";

impl SharedWorkspace {
    /// A workspace in the runner's root for them, if it has one.
    pub fn new(runner: &dyn Runner) -> Result<SharedWorkspace, Error> {
        remove_stale_workspaces();
        let dir = new_workspace(runner.workspace_root())?;
        let snapshots = dir.path().join("submissions");
        std::fs::create_dir_all(&snapshots).map_err(workspace_error)?;
        Ok(SharedWorkspace {
            dir,
            expose: vec![snapshots],
            folder_copied: std::sync::Mutex::new(None),
        })
    }

    /// The submission's snapshot: its folder and the program in it. Checks that take their
    /// siblings from the same student folder share one copy of it, in which each writes its
    /// own submission's bytes (what runs is what was read); the others get a folder each.
    pub(super) fn snapshot(
        &self,
        submission: &Path,
        siblings: bool,
        exercise: &str,
        source: &[u8],
    ) -> Result<(PathBuf, PathBuf), Error> {
        let folder = std::path::absolute(submission)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let mut copied = self
            .folder_copied
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let shared = self.expose[0].join(SHARED_FOLDER);
        if siblings && folder.is_some() && *copied == folder {
            // The siblings are there already: only the submission is written.
            let program = snapshot(submission, source, &shared, false)?;
            return Ok((shared, program));
        }
        let first_copy = siblings && folder.is_some() && copied.is_none();
        let dir = if first_copy {
            shared
        } else {
            self.expose[0].join(exercise)
        };
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(workspace_error)?;
        }
        let program = snapshot(submission, source, &dir, siblings)?;
        if first_copy {
            *copied = folder;
        }
        Ok((dir, program))
    }

    /// Lets go of what the runner kept for these checks.
    pub fn finish(self, runner: &dyn Runner) {
        runner.finished_with(&self.expose);
    }
}

/// A scratch folder: `nimlab-PID-…` in the temporary folder, or `ws-…` in `root` (a runner's,
/// itself named so), where only nimlab and the sandbox's group may enter.
fn new_workspace(root: Option<&Path>) -> Result<tempfile::TempDir, Error> {
    let Some(root) = root else {
        return tempfile::Builder::new()
            .prefix(&format!("{WORKSPACE_PREFIX}{}-", std::process::id()))
            .tempdir()
            .map_err(workspace_error);
    };
    let dir = tempfile::Builder::new()
        .prefix("ws-")
        .tempdir_in(root)
        .map_err(workspace_error)?;
    crate::runner::identity::open_to_sandbox_group(dir.path()).map_err(workspace_error)?;
    Ok(dir)
}

/// The environment a submission runs in: nothing of the user's, only what Python needs.
/// Scratch folders are `nimlab-PID-…` in the temporary folder.
const WORKSPACE_PREFIX: &str = "nimlab-";

/// Removes the scratch folders of nimlab processes that were killed before they could clean
/// up (their programs died with them), once per nimlab process. Only folders whose process is
/// gone and that have not changed for a minute, so a live nimlab in another PID namespace
/// sharing this /tmp is left alone.
fn remove_stale_workspaces() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix(WORKSPACE_PREFIX)
                .and_then(|rest| rest.split('-').next())
                .and_then(|pid| pid.parse::<u32>().ok())
            else {
                continue;
            };
            let idle = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|at| at.elapsed().ok())
                .is_some_and(|idle| idle > std::time::Duration::from_secs(60));
            let ours = entry.file_type().is_ok_and(|t| t.is_dir());
            if ours && idle && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
}

pub fn clean_env(home: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("LC_ALL".into(), "C.UTF-8".into()),
        ("PYTHONIOENCODING".into(), "utf-8".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ("PYTHONHASHSEED".into(), "0".into()),
    ]
}

/// A private copy of the submission and the `.py` files beside it, so the program can import
/// its own modules and nothing it does touches the student's folder.
fn snapshot(
    submission: &Path,
    source: &[u8],
    into: &Path,
    siblings: bool,
) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(into).map_err(workspace_error)?;
    let name = submission
        .file_name()
        .unwrap_or_else(|| "submission.py".as_ref());
    let target = into.join(name);
    // The bytes already read: what runs is exactly what was linted and probed.
    std::fs::write(&target, source).map_err(workspace_error)?;
    let folder = submission
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let entries = if siblings {
        std::fs::read_dir(folder).ok()
    } else {
        None
    };
    if let Some(entries) = entries {
        let siblings = entries
            .filter_map(Result::ok)
            .filter(|e| {
                e.path().extension().is_some_and(|x| x == "py")
                    && e.file_name() != name
                    && e.metadata()
                        .is_ok_and(|m| m.is_file() && m.len() <= MAX_SIBLING_BYTES)
            })
            .take(MAX_SIBLINGS);
        for entry in siblings {
            // A sibling that cannot be copied only matters if imported: the run will say so.
            let _ = std::fs::copy(entry.path(), into.join(entry.file_name()));
        }
    }
    // Read by the runs, which may run as another user than nimlab's (a runner already
    // started for earlier snapshots opened only what was there then).
    if crate::runner::identity::run_as().is_some() {
        crate::runner::identity::open_to_runs(&[into.to_path_buf()]);
    }
    Ok(target)
}

/// Where one check's runs happen: the snapshot of the submission, the folders they may see,
/// and the scratch root their working folders go under.
pub(super) struct Prepared {
    /// The check's own folder, removed when this is dropped (at the check's end); None in a
    /// shared workspace.
    pub _own: Option<tempfile::TempDir>,
    pub root: PathBuf,
    pub snapshot_dir: PathBuf,
    pub expose: Vec<PathBuf>,
    /// The program as it runs: the snapshot's copy of the submission.
    pub program: PathBuf,
}

impl Prepared {
    /// The snapshot in `shared`, or in a folder of the check's own.
    pub(super) fn new(
        shared: Option<&SharedWorkspace>,
        root: Option<&Path>,
        submission: &Path,
        siblings: bool,
        exercise: &str,
        source: &[u8],
    ) -> Result<Prepared, Error> {
        remove_stale_workspaces();
        match shared {
            Some(shared) => {
                let (dir, program) = shared.snapshot(submission, siblings, exercise, source)?;
                Ok(Prepared {
                    _own: None,
                    root: shared.dir.path().to_path_buf(),
                    snapshot_dir: dir,
                    expose: shared.expose.clone(),
                    program,
                })
            }
            None => {
                let own = new_workspace(root)?;
                let dir = own.path().join("submission");
                let program = snapshot(submission, source, &dir, siblings)?;
                Ok(Prepared {
                    root: own.path().to_path_buf(),
                    _own: Some(own),
                    snapshot_dir: dir.clone(),
                    expose: vec![dir],
                    program,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;

    #[test]
    fn a_students_checks_share_one_copy_of_their_folder_each_running_its_own_bytes() {
        let lab = Lab::built_in().unwrap();
        let class = tempfile::tempdir().unwrap();
        let ada = class.path().join("ada");
        std::fs::create_dir_all(&ada).unwrap();
        for name in ["ui", "make_move", "helper"] {
            std::fs::write(ada.join(format!("{name}.py")), format!("# {name} 1\n")).unwrap();
        }
        let flat = class.path().join("bo_make_move.py");
        std::fs::write(&flat, "# bo\n").unwrap();
        let shared = SharedWorkspace::new(&crate::runner::ProcessRunner::new(
            crate::runner::sandbox::Isolation::detect().clone(),
        ))
        .unwrap();
        let snap = |exercise: &str, file: &Path, siblings: bool| {
            assert!(lab.exercise(exercise).is_ok());
            let source = std::fs::read(file).unwrap();
            shared.snapshot(file, siblings, exercise, &source).unwrap()
        };
        let (first_dir, first) = snap("ui", &ada.join("ui.py"), true);
        assert_eq!(std::fs::read_to_string(&first).unwrap(), "# ui 1\n");
        assert_eq!(
            std::fs::read_to_string(first_dir.join("helper.py")).unwrap(),
            "# helper 1\n"
        );
        // Changed after the copy was made: the check of make_move runs what it read.
        std::fs::write(ada.join("make_move.py"), "# make_move 2\n").unwrap();
        std::fs::write(ada.join("helper.py"), "# helper 2\n").unwrap();
        let (second_dir, second) = snap("make_move", &ada.join("make_move.py"), true);
        assert_eq!(second_dir, first_dir);
        assert_eq!(std::fs::read_to_string(&second).unwrap(), "# make_move 2\n");
        // A file beside other students' files gets a folder of its own, with nothing else.
        let (flat_dir, flat_program) = snap("make_move", &flat, false);
        assert_ne!(flat_dir, first_dir);
        assert_eq!(std::fs::read_to_string(&flat_program).unwrap(), "# bo\n");
        let names: Vec<_> = std::fs::read_dir(&flat_dir).unwrap().collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
