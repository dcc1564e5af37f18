//! OUT/.cache: a submission's report, kept under a key of everything it depends on, so a
//! re-run grades only what changed.
//!
//! Computing a key reads the submission and the `.py` files beside it, so it reads only what
//! `nimlab check` would copy: regular files (never a FIFO, which would block, nor a link,
//! which could lead to `/dev/zero`), no larger than the check's own caps.

use super::discovery::Found;
use crate::check::{MAX_SIBLING_BYTES, MAX_SIBLINGS, MAX_SUBMISSION_BYTES};
use crate::error::{Error, Result};
use crate::lab::LabExercise;
use crate::report::CheckReport;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct Cache {
    dir: PathBuf,
    /// Ignore what is cached (`--force`); results are still stored.
    force: bool,
    /// The keys this run used, so a whole run can remove the others.
    in_use: Mutex<BTreeSet<String>>,
}

impl Cache {
    /// Opens OUT/.cache, creating it (and OUT): a folder nimlab cannot make is its own failure.
    pub fn open(out: &Path, force: bool) -> Result<Cache> {
        let dir = out.join(".cache");
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::internal(format!("{}: cannot create", dir.display()), e))?;
        Ok(Cache {
            dir,
            force,
            in_use: Mutex::new(BTreeSet::new()),
        })
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The report cached under `key` (unless forced), and notes that the key is in use.
    pub fn load(&self, key: &str) -> Option<CheckReport> {
        self.in_use
            .lock()
            .expect("no worker panics")
            .insert(key.to_string());
        if self.force {
            return None;
        }
        std::fs::read(self.path(key))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
    }

    /// Keeps a report; a failure to write only costs a re-run its time.
    pub fn store(&self, key: &str, report: &CheckReport) {
        if let Ok(bytes) = serde_json::to_vec(report) {
            let _ = crate::fsutil::write_atomic(&self.path(key), &bytes);
        }
    }

    /// Removes the cached results (files named by their keys) that no submission of this run
    /// used: earlier versions of files, students gone from the folder, so OUT/.cache does not
    /// grow without end. Only after a whole run: a shard or an interrupted run has not seen
    /// every submission.
    pub fn prune(self) {
        let in_use = self.in_use.into_inner().expect("no worker panics");
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let key = name.strip_suffix(".json");
            if key.is_some_and(|key| !in_use.contains(key)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Feeds a regular file of at most `cap` bytes to `hash`. Opened without following a link
/// and without blocking (a FIFO put in the file's place is refused, not waited on), and read
/// no further than the cap even if the file grows.
fn hash_regular_file(hash: &mut Sha256, path: &Path, cap: u64) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if metadata.len() > cap {
        return Err(std::io::Error::other(format!(
            "{} bytes, more than the {cap} nimlab reads",
            metadata.len()
        )));
    }
    let mut reader = file.take(cap + 1);
    let mut buffer = [0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += read as u64;
        if total > cap {
            return Err(std::io::Error::other("the file grew while it was read"));
        }
        hash.update(&buffer[..read]);
    }
    Ok(())
}

/// The `.py` files `nimlab check` copies beside a submission in its own folder: regular files
/// (a link or a FIFO is not one), within the size cap, sorted, at most the check's number.
fn siblings(found: &Found) -> Vec<PathBuf> {
    let Some(folder) = found.file.parent() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let own = found.file.file_name();
    let mut siblings: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let path = e.path();
            path.extension().is_some_and(|x| x == "py")
                && Some(e.file_name().as_os_str()) != own
                && e.file_type().is_ok_and(|t| t.is_file())
                && e.metadata().is_ok_and(|m| m.len() <= MAX_SIBLING_BYTES)
        })
        .map(|e| e.path())
        .collect();
    siblings.sort();
    siblings.truncate(MAX_SIBLINGS);
    siblings
}

/// What a cached result depends on: nimlab, the exercise (settings and cases), the
/// interpreters, the file's name and every file the program can read. A submission that
/// cannot be read is an error naming it (relative to the class folder).
pub fn key(exercise: &LabExercise, interpreters: &[String], found: &Found) -> Result<String> {
    let unreadable = |e: std::io::Error| Error::input(&found.relative, format!("cannot read: {e}"));
    let size = std::fs::symlink_metadata(&found.file)
        .map_err(unreadable)?
        .len();
    if size > MAX_SUBMISSION_BYTES {
        return Err(Error::input(
            &found.relative,
            format!("the submission is {size} bytes; nimlab checks files of at most 1 MiB"),
        ));
    }
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION"));
    hash.update(format!("{:?}", exercise.config));
    for case in &exercise.cases {
        hash.update(&case.name);
        hash.update(case.input.text());
        hash.update(&case.expected);
    }
    hash.update(interpreters.join(","));
    // The file's own name too: two students' identical files give different reports (a
    // traceback names the file that ran), and one must never see the other's.
    hash.update(found.relative.as_bytes());
    hash.update([u8::from(found.own_folder)]);
    hash_regular_file(&mut hash, &found.file, MAX_SUBMISSION_BYTES).map_err(unreadable)?;
    if found.own_folder {
        for sibling in siblings(found) {
            hash.update(sibling.to_string_lossy().as_bytes());
            // One that cannot be read now is not copied either: the key says so.
            if hash_regular_file(&mut hash, &sibling, MAX_SIBLING_BYTES).is_err() {
                hash.update(b"\0unreadable\0");
            }
        }
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.py");
        std::fs::write(&small, "print(1)\n").unwrap();
        let mut hash = Sha256::new();
        hash_regular_file(&mut hash, &small, 100).unwrap();
        assert!(hash_regular_file(&mut hash, &small, 4).is_err());

        let fifo = dir.path().join("fifo.py");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid, NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let error = hash_regular_file(&mut hash, &fifo, 100).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");

        let link = dir.path().join("zero.py");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(hash_regular_file(&mut hash, &link, 100).is_err());
    }
}
