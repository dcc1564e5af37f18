//! A database that can no longer be written stops the server with a message, not a signal.
//!
//! In WAL mode SQLite keeps the WAL's index in `<db>-shm`, mapped into memory and written
//! with plain stores. When that file can no longer be written (made immutable with
//! `chattr +i`, its disk gone), the kernel answers such a store with SIGBUS: no error code
//! can reach SQLite, so nothing below could report it. The server catches the signal,
//! names the file and exits with [`exit::INTERNAL`]. Nothing acknowledged is lost (it
//! reached the disk before the reply) and what was being judged is still `running`, queued
//! again at the next start.

use nimlab_core::exit;
use std::path::Path;
use std::sync::OnceLock;

/// Written as it is by the handler, which may not allocate.
static MESSAGE: OnceLock<Vec<u8>> = OnceLock::new();

/// From here on, a SIGBUS prints what it means for `db` and ends the process.
pub fn stop_with_message(db: &Path) {
    let message = format!(
        "nimlab serve: stopped: a file mapped into memory could no longer be written (SIGBUS), \
         the index of the database's journal, {}-shm (is it read-only or immutable, or its disk \
         gone?). Submissions acknowledged are kept; make the database and its -wal and -shm \
         files writable and start again, and those being judged are judged again\n",
        db.display()
    );
    let _ = MESSAGE.set(message.into_bytes());
    // SAFETY: the handler calls only async-signal-safe functions (write, _exit) and reads a
    // message set before it is installed; sigaction is given a zeroed, filled-in struct.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_sigbus(_: libc::c_int) {
    if let Some(message) = MESSAGE.get() {
        // SAFETY: write(2) on stderr from a buffer that lives as long as the process.
        unsafe { libc::write(2, message.as_ptr().cast(), message.len()) };
    }
    // SAFETY: _exit ends the process without running anything else.
    unsafe { libc::_exit(i32::from(exit::INTERNAL)) }
}
