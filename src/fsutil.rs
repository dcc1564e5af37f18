//! Files written so that a reader never sees half of one: a temporary file beside the target,
//! then a rename.

use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;

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
/// then renamed into place, so a failure or a kill never leaves a half-made folder.
pub fn write_folder(out: &Path, build: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("{}: cannot read the folder", out.display()))?
            .next()
            .is_none();
        if !empty {
            bail!(
                "{}: the folder exists and is not empty; nimlab does not overwrite it",
                out.display()
            );
        }
    }
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("{}: cannot create the folder", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".nimlab-out-")
        .tempdir_in(parent)
        .with_context(|| format!("{}: cannot create a folder here", parent.display()))?;
    build(staging.path())?;
    let staged = staging.keep();
    if out.exists() {
        std::fs::remove_dir(out)
            .with_context(|| format!("{}: cannot replace the empty folder", out.display()))?;
    }
    std::fs::rename(&staged, out).with_context(|| format!("{}: cannot create", out.display()))?;
    Ok(())
}
