//! The one stop mechanism: a token handed down to everything that works for one command or
//! one server. When it is set, running programs are stopped at once, no new work starts, and
//! what was cut short is reported as not judged, never as the student's failure.
//!
//! Ctrl-C sets the token of the command that asked for it ([`Stop::on_ctrl_c`]); the
//! website sets its workers' token when it is stopped. Nothing below the commands reads a
//! global: a token is passed down to the pool, the check and the runner.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A request to stop, shared by its clones.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A token nothing has set yet.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks everything holding this token (or a clone of it) to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A token that nothing sets: for work only its own limits stop (a benchmark, a test).
    pub fn never() -> &'static Stop {
        static NEVER: std::sync::OnceLock<Stop> = std::sync::OnceLock::new();
        NEVER.get_or_init(Stop::new)
    }

    /// The token that Ctrl-C sets from now on, instead of killing nimlab, so that nimlab ends
    /// as usual: its scratch folders removed, its reports whole. One per process (a process
    /// has one Ctrl-C); later calls return the same token.
    pub fn on_ctrl_c() -> Stop {
        static CTRL_C: std::sync::OnceLock<Stop> = std::sync::OnceLock::new();
        CTRL_C
            .get_or_init(|| {
                let stop = Stop::new();
                let setter = stop.clone();
                let _ = ctrlc::set_handler(move || setter.request());
                stop
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reaches_every_clone_and_no_other_token() {
        let stop = Stop::new();
        let held = stop.clone();
        let other = Stop::new();
        assert!(!held.requested());
        stop.request();
        assert!(held.requested() && stop.requested());
        assert!(!other.requested());
    }
}
