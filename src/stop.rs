//! The one flag that says nimlab was interrupted (Ctrl-C). Running programs are stopped at
//! once, no new work starts, and what was cut short is reported as not judged, never as the
//! student's failure.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every loop that watches the flag to stop.
pub fn request() {
    STOP.store(true, Ordering::Relaxed);
}

pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Ctrl-C sets the flag instead of killing nimlab, so that nimlab ends as usual: its scratch
/// folders removed, its reports whole.
pub fn on_ctrl_c() {
    let _ = ctrlc::set_handler(request);
}
