//! Who a program runs as on the host: never root.
//!
//! Under an ordinary user, a program (and bubblewrap, and a fork server) runs as that user,
//! who holds no privilege to begin with. When nimlab runs as root (as it may, for cgroup v1 or
//! in a container), the child it starts gives up root between fork and exec, after it has
//! joined its cgroups and set its limits: it becomes an unprivileged host uid and gid that
//! nothing else on the machine uses ([`RunAs`], as isolate's boxes do), with no supplementary
//! groups. bubblewrap then makes its namespaces as that user, so no capability it holds in
//! them is worth anything outside, and the kernel checks every host file (/proc/sys among
//! them) against that uid.
//!
//! That user may not reach a folder the program needs: a pyenv interpreter under /root (mode
//! 700), or nimlab's private scratch folder. Before it gives up root the child makes a mount
//! namespace of its own (private: nothing propagates back) and covers each folder it cannot
//! pass with an empty tmpfs in which only the needed folders are bound again, at the same
//! paths ([`Descent`]). Nothing on the host changes mode or owner, and the namespace dies
//! with the child (bubblewrap's own mounts are made inside it).

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The first uid and gid tried for programs when nimlab runs as root (NIMLAB_SANDBOX_UID
/// names another, used as it is).
const FIRST_SANDBOX_ID: u32 = 61_000;

/// An unprivileged host user and group, for programs when nimlab runs as root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunAs {
    pub uid: libc::uid_t,
    pub gid: libc::gid_t,
}

/// Whom programs run as: None when nimlab is not root (they run as nimlab's user), else the
/// unprivileged user found once per process.
pub fn run_as() -> Option<RunAs> {
    static RUN_AS: OnceLock<Option<RunAs>> = OnceLock::new();
    *RUN_AS.get_or_init(|| {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return None;
        }
        let chosen = std::env::var("NIMLAB_SANDBOX_UID")
            .ok()
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|&id| id != 0);
        let id = chosen.unwrap_or_else(|| {
            (FIRST_SANDBOX_ID..FIRST_SANDBOX_ID + 1000)
                .find(|&id| !known_id(id))
                .unwrap_or(FIRST_SANDBOX_ID)
        });
        Some(RunAs { uid: id, gid: id })
    })
}

/// Whether a user or group of the machine has this number.
fn known_id(id: u32) -> bool {
    let named = |file: &str| {
        std::fs::read_to_string(file).is_ok_and(|text| {
            text.lines()
                .any(|line| line.split(':').nth(2) == Some(id.to_string().as_str()))
        })
    };
    named("/etc/passwd") || named("/etc/group")
}

/// Whether `run_as` may pass through (search) the folder with this metadata.
fn passable(meta: &std::fs::Metadata, run_as: RunAs) -> bool {
    let mode = meta.mode();
    if meta.uid() == run_as.uid {
        mode & 0o100 != 0
    } else if meta.gid() == run_as.gid {
        mode & 0o010 != 0
    } else {
        mode & 0o001 != 0
    }
}

/// The first folder on the way to `path` (itself excluded) that `run_as` cannot pass, if any.
fn first_closed(path: &Path, run_as: RunAs) -> Option<PathBuf> {
    let mut at = PathBuf::from("/");
    for part in path.parent()?.components().skip(1) {
        at.push(part);
        let meta = std::fs::metadata(&at).ok()?;
        if !passable(&meta, run_as) {
            return Some(at);
        }
    }
    None
}

/// One folder covered by an empty tmpfs, and the folders bound again inside it.
#[derive(Debug)]
struct Cover {
    folder: CString,
    /// Each folder to bind again: its path, and the folders to make on the way to it (from
    /// the cover down, itself included).
    binds: Vec<(CString, Vec<CString>)>,
}

/// What a child does between fork and exec, when nimlab runs as root, to become [`RunAs`]
/// with the folders it needs still reachable. Built before the fork (it allocates); applied
/// in the child with async-signal-safe calls only.
#[derive(Debug)]
pub(crate) struct Descent {
    run_as: RunAs,
    covers: Vec<Cover>,
}

impl Descent {
    /// The descent for a child that needs `folders` (its interpreter's installation, its
    /// program's folder, the fork server's), or None when nimlab is not root.
    pub fn new(folders: &[PathBuf]) -> Option<Descent> {
        let run_as = run_as()?;
        let mut covers: Vec<Cover> = Vec::new();
        let mut wanted: Vec<(PathBuf, PathBuf)> = folders
            .iter()
            .filter_map(|f| first_closed(f, run_as).map(|closed| (closed, f.clone())))
            .collect();
        // A cover inside another is the outer one's.
        wanted.sort();
        let mut tops: Vec<PathBuf> = Vec::new();
        for (closed, _) in &wanted {
            if !tops.iter().any(|t| closed.starts_with(t)) {
                tops.push(closed.clone());
            }
        }
        for top in tops {
            let mut binds = Vec::new();
            for (_, folder) in wanted.iter().filter(|(c, _)| c.starts_with(&top)) {
                let Ok(rest) = folder.strip_prefix(&top) else {
                    continue;
                };
                let mut on_the_way = Vec::new();
                let mut at = top.clone();
                for part in rest.components() {
                    at.push(part);
                    on_the_way.extend(c_path(&at));
                }
                if let Some(path) = c_path(folder) {
                    binds.push((path, on_the_way));
                }
            }
            if let Some(folder) = c_path(&top) {
                covers.push(Cover { folder, binds });
            }
        }
        Some(Descent { run_as, covers })
    }

    pub fn run_as(&self) -> RunAs {
        self.run_as
    }

    /// In the child, between fork and exec: covers the closed folders (in a mount namespace of
    /// its own), then becomes the unprivileged user for good.
    ///
    /// # Safety
    /// Call it only in the child after fork; it makes only async-signal-safe calls.
    pub unsafe fn apply(&self) -> std::io::Result<()> {
        // SAFETY: the caller is a child between fork and exec.
        unsafe {
            if !self.covers.is_empty() {
                self.cover()?;
            }
            let RunAs { uid, gid } = self.run_as;
            check(libc::setgroups(0, std::ptr::null()))?;
            check(libc::setresgid(gid, gid, gid))?;
            check(libc::setresuid(uid, uid, uid))?;
        }
        Ok(())
    }

    /// # Safety
    /// As [`Descent::apply`].
    unsafe fn cover(&self) -> std::io::Result<()> {
        // SAFETY: system calls on C strings that live in `self`, and stack buffers.
        unsafe {
            check(libc::unshare(libc::CLONE_NEWNS))?;
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            let mask = libc::umask(0o022);
            for cover in &self.covers {
                // Each folder is opened before the tmpfs hides it, and bound from its
                // descriptor.
                let mut fds = [-1; 16];
                // More folders than slots would leave the last ones hidden: fail instead.
                if cover.binds.len() > fds.len() {
                    return Err(std::io::Error::from_raw_os_error(libc::E2BIG));
                }
                for (slot, (path, _)) in fds.iter_mut().zip(&cover.binds) {
                    *slot = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
                }
                check(libc::mount(
                    c"tmpfs".as_ptr(),
                    cover.folder.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    c"mode=0755,size=64k".as_ptr().cast(),
                ))?;
                for (fd, (path, on_the_way)) in fds.iter().zip(&cover.binds) {
                    // A folder that cannot be opened would be hidden under the tmpfs: the
                    // run must fail as nimlab's, not start without its interpreter.
                    check(*fd)?;
                    for folder in on_the_way {
                        libc::mkdir(folder.as_ptr(), 0o755);
                    }
                    let mut source = [0u8; 32];
                    fd_path(*fd, &mut source);
                    let bound = libc::mount(
                        source.as_ptr().cast(),
                        path.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    );
                    libc::close(*fd);
                    check(bound)?;
                }
            }
            libc::umask(mask);
        }
        Ok(())
    }
}

/// Lets the sandbox's group (and no other user) into `folder`, a scratch folder of nimlab's
/// holding others that are shown to runs: a warm interpreter that serves every submission sees
/// them all through it, and binds each submission's own for its runs. Nothing when nimlab runs
/// as an ordinary user (programs then run as that user).
pub fn open_to_sandbox_group(folder: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let Some(RunAs { gid, .. }) = run_as() else {
        return Ok(());
    };
    std::os::unix::fs::chown(folder, None, Some(gid))?;
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o750))
}

/// Opens the folders shown to a program, and what is in them, to the sandbox's user: folders
/// get read and search for everyone, files read. They are nimlab's own copies (the submission's
/// snapshot, the fork server's script, the sitecustomize) inside scratch folders only their
/// owner can enter, where a private file-creation mask (`grade`'s) made them the owner's
/// alone. Modes are only ever widened to that.
///
/// A folder [`open_to_sandbox_group`] opened to the sandbox's group alone is left as it is,
/// with all it holds: the fork runner's root of scratch folders, and each in it, hold other
/// submissions than the one a run is for, which no other user may read.
pub fn open_to_runs(folders: &[PathBuf]) {
    use std::os::unix::fs::PermissionsExt;
    let gid = run_as().map(|RunAs { gid, .. }| gid);
    let group_only = |entry: &walkdir::DirEntry| {
        entry.file_type().is_dir()
            && entry
                .metadata()
                .is_ok_and(|m| Some(m.gid()) == gid && m.permissions().mode() & 0o777 == 0o750)
    };
    for folder in folders {
        for entry in walkdir::WalkDir::new(folder)
            .follow_links(false)
            .into_iter()
            .filter_entry(|entry| !group_only(entry))
            .filter_map(Result::ok)
        {
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            let wanted = if meta.is_dir() {
                0o755
            } else if meta.is_file() {
                0o644
            } else {
                continue;
            };
            let mode = meta.permissions().mode() & 0o7777;
            if mode & wanted != wanted {
                let _ = std::fs::set_permissions(
                    entry.path(),
                    std::fs::Permissions::from_mode(mode | wanted),
                );
            }
        }
    }
}

fn c_path(path: &Path) -> Option<CString> {
    CString::new(path.as_os_str().as_bytes()).ok()
}

fn check(result: libc::c_int) -> std::io::Result<()> {
    if result < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// "/proc/self/fd/N" and a NUL into `out`, without allocating.
fn fd_path(fd: libc::c_int, out: &mut [u8; 32]) {
    let head = b"/proc/self/fd/";
    out[..head.len()].copy_from_slice(head);
    let mut digits = [0u8; 10];
    let mut n = fd.unsigned_abs();
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in 0..len {
        out[head.len() + i] = digits[len - 1 - i];
    }
    out[head.len() + len] = 0;
}

/// Marks every descriptor from 3 on close-on-exec but `keep`: nothing nimlab inherited
/// (from the shell that started it, say) reaches the program, at any number.
///
/// # Safety
/// Call it only in the child after fork; it makes only async-signal-safe calls.
pub(crate) unsafe fn close_inherited(keep: Option<libc::c_int>) -> std::io::Result<()> {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    let range = |first: libc::c_uint, last: libc::c_uint| {
        if first > last {
            return Ok(());
        }
        // SAFETY: close_range only changes this process's descriptor flags.
        let r = unsafe { libc::syscall(libc::SYS_close_range, first, last, CLOSE_RANGE_CLOEXEC) };
        if r == 0 {
            return Ok(());
        }
        // (Kernels before 5.11: each open descriptor in turn, as far as the limit allows.)
        // SAFETY: sysconf and fcntl on descriptors of this process.
        let max = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) }.max(1024) as libc::c_uint;
        for fd in first..=last.min(max) {
            // SAFETY: as above.
            unsafe { libc::fcntl(fd as libc::c_int, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        Ok::<(), std::io::Error>(())
    };
    match keep {
        Some(fd) if fd >= 3 => {
            range(3, fd as libc::c_uint - 1)?;
            range(fd as libc::c_uint + 1, libc::c_uint::MAX)
        }
        _ => range(3, libc::c_uint::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptor_path_is_spelled_without_allocating() {
        let mut out = [0u8; 32];
        fd_path(1234, &mut out);
        assert_eq!(&out[..19], b"/proc/self/fd/1234\0");
        fd_path(0, &mut out);
        assert_eq!(&out[..16], b"/proc/self/fd/0\0");
    }

    #[test]
    fn a_folder_under_a_closed_one_is_covered_from_the_closed_one() {
        let run_as = RunAs {
            uid: 61_000,
            gid: 61_000,
        };
        let top = tempfile::tempdir().unwrap();
        let closed = top.path().join("closed");
        let inner = closed.join("a/b");
        std::fs::create_dir_all(&inner).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::set_permissions(top.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 || top.path().starts_with("/root") {
            // (Owned by root, the closed folder is closed to the sandbox's user.)
            assert_eq!(first_closed(&inner, run_as), Some(closed.clone()));
        }
        assert_eq!(first_closed(top.path(), run_as), None);
    }
}
