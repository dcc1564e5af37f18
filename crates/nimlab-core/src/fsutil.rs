//! Files written so that a reader never sees half of one: a temporary file beside the target,
//! then a rename.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes a file whole: a reader (or a crash) never sees part of it.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(contents)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// From here on, every file and folder this process creates is its owner's alone (0600,
/// 0700), whatever mode the code creating it asks for. For the commands whose outputs hold
/// students' work, grades or passwords (`grade`, `merge`, `users import`): a process-wide
/// mask covers every writer at once (the gradebooks, the reports, the cache, the folders
/// `create_dir_all` makes, and any added later), where a private writer at each call would
/// be one more thing to forget. The programs judged inherit it too, which is harmless: what
/// they write goes to scratch folders that are removed.
pub fn private_from_now_on() {
    // SAFETY: umask only sets the process's file-creation mask; it cannot fail.
    unsafe {
        let old = libc::umask(0o077);
        libc::umask(old | 0o077);
    }
}

/// Creates `folder` and its missing parents readable by their owner only (0700).
pub fn create_private_dirs(folder: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(folder)
}

/// Writes a new file readable by its owner only (0600), from its first byte.
pub fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(contents)
}

/// Writes a new file whole, refusing to replace one that exists.
pub fn write_new(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    if path.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "the file already exists; nimlab does not overwrite it",
        ));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(contents)?;
    file.persist_noclobber(path).map_err(|e| e.error)?;
    Ok(())
}

/// Creates the folder `out` (new, or empty) whole: `build` fills a folder beside it, which is
/// then renamed into place, so a failure or a kill never leaves a half-made folder. An `out`
/// that exists and is not empty is the user's error (nimlab does not overwrite it); a folder
/// that cannot be made is nimlab's.
pub fn write_folder(out: &Path, build: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    if out.exists() {
        if !out.is_dir() {
            return Err(Error::input(
                out,
                "exists and is not a folder; nimlab does not overwrite it",
            ));
        }
        let empty = std::fs::read_dir(out)
            .map_err(|e| Error::internal(format!("{}: cannot read the folder", out.display()), e))?
            .next()
            .is_none();
        if !empty {
            return Err(Error::input(
                out,
                "the folder exists and is not empty; nimlab does not overwrite it",
            ));
        }
    }
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // The folders made for `out` are removed again if it is not made: a failure leaves nothing.
    let first_made = parent.ancestors().take_while(|a| !a.exists()).last();
    let undo = |error: Error| {
        if let Some(first_made) = first_made {
            for folder in parent.ancestors() {
                if std::fs::remove_dir(folder).is_err() || folder == first_made {
                    break;
                }
            }
        }
        error
    };
    std::fs::create_dir_all(parent)
        .map_err(|e| Error::internal(format!("{}: cannot create the folder", parent.display()), e))
        .map_err(undo)?;
    let staging = tempfile::Builder::new()
        .prefix(".nimlab-out-")
        .tempdir_in(parent)
        .map_err(|e| {
            Error::internal(
                format!("{}: cannot create a folder here", parent.display()),
                e,
            )
        })
        .map_err(undo)?;
    if let Err(error) = build(staging.path()) {
        drop(staging);
        return Err(undo(error));
    }
    let staged = staging.keep();
    if out.exists() {
        std::fs::remove_dir(out).map_err(|e| {
            Error::internal(
                format!("{}: cannot replace the empty folder", out.display()),
                e,
            )
        })?;
    }
    std::fs::rename(&staged, out)
        .map_err(|e| Error::internal(format!("{}: cannot create", out.display()), e))?;
    Ok(())
}

/// `path` cannot be read: the user's file, named with the reason.
fn unreadable(path: &Path, error: std::io::Error) -> Error {
    Error::input(path, format!("cannot read: {error}"))
}

/// Where `path` leads once every symbolic link in it is followed, when that is inside `root`
/// (a folder given with its links resolved); otherwise an error naming `path`.
pub fn resolve_inside(root: &Path, path: &Path) -> Result<PathBuf> {
    let resolved = path.canonicalize().map_err(|e| unreadable(path, e))?;
    if !resolved.starts_with(root) {
        return Err(Error::input(
            path,
            format!(
                "leads out of the folder {} (to {}); nimlab reads only what is inside it",
                root.display(),
                resolved.display()
            ),
        ));
    }
    Ok(resolved)
}

/// Reads a regular file that lies inside `root` (see [`resolve_inside`]), of at most `cap`
/// bytes: a link leading out of `root`, a FIFO, a device or a larger file is an error naming
/// `path`, and nothing is read from it.
pub fn read_inside(root: &Path, path: &Path, cap: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let resolved = resolve_inside(root, path)?;
    // No blocking on a FIFO, no following a link swapped in since.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&resolved)
        .map_err(|e| unreadable(path, e))?;
    let meta = file.metadata().map_err(|e| unreadable(path, e))?;
    if !meta.is_file() {
        return Err(Error::input(path, "is not a regular file"));
    }
    let too_big = || Error::input(path, format!("is larger than {cap} bytes"));
    if meta.len() > cap {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(path, e))?;
    if bytes.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(bytes)
}
