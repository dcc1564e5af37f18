//! The workers' signal: wakes idle judges when there is work and tells them to stop. Shared by
//! the queue's workers, the cluster's keeper and listener, and the application's handlers.

use nimlab_core::stop::Stop;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Wakes idle workers when there is work, and tells them to stop: with two stop tokens,
/// one that ends their loop and one, handed down to the checks, that stops the programs
/// being judged.
#[derive(Default)]
pub struct Signal {
    generation: Mutex<u64>,
    wake: Condvar,
    stop: Stop,
    pub(crate) interrupt: Stop,
}

impl Signal {
    pub fn notify(&self) {
        *self
            .generation
            .lock()
            .expect("no panics holding the signal") += 1;
        self.wake.notify_all();
    }

    /// No worker takes another job.
    pub fn stop(&self) {
        self.stop.request();
        self.notify();
    }

    /// The programs being judged are stopped at once.
    pub fn interrupt(&self) {
        self.interrupt.request();
    }

    pub fn stopping(&self) -> bool {
        self.stop.requested()
    }

    /// Waits until notified or `timeout` passes.
    pub(crate) fn wait(&self, seen: u64, timeout: Duration) {
        let generation = self
            .generation
            .lock()
            .expect("no panics holding the signal");
        if *generation == seen && !self.stopping() {
            let _ = self.wake.wait_timeout(generation, timeout);
        }
    }

    /// Waits `duration`, or until the workers are told to stop.
    pub(crate) fn pause(&self, duration: Duration) {
        let end = Instant::now() + duration;
        while !self.stopping() {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            self.wait(self.generation(), left);
        }
    }

    pub(crate) fn generation(&self) -> u64 {
        *self
            .generation
            .lock()
            .expect("no panics holding the signal")
    }
}
