//! The one worker pool: `check` runs cases on it, `grade` runs submissions. Work is handed
//! out in order, results are handed back as they finish (on the calling thread, so
//! reporters need no locks), and nothing new starts once the caller's stop token is set.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// One worker per core, where nothing else is asked for.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on every item with up to `jobs` workers, and `done` on each result as it
/// comes, on this thread. With one job everything runs on this thread: it already holds
/// what a worker sets up once (a sandbox's cgroup). The first error from `done` stops the
/// handing out of work and is returned once running work has finished.
pub fn run<T, R, E>(
    items: &[T],
    jobs: usize,
    stop: &crate::stop::Stop,
    work: impl Fn(usize, &T) -> R + Sync,
    mut done: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    let workers = jobs.clamp(1, items.len().max(1));
    if workers == 1 {
        for (index, item) in items.iter().enumerate() {
            if stop.requested() {
                break;
            }
            done(index, work(index, item))?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                while !stop.requested() {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if sender.send((index, work(index, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut outcome = Ok(());
        for (index, result) in receiver {
            if outcome.is_ok() {
                outcome = done(index, result);
                if outcome.is_err() {
                    // No more work is handed out; running items finish.
                    next.store(items.len(), Ordering::Relaxed);
                }
            }
        }
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::Stop;

    #[test]
    fn every_item_is_done_once_whatever_the_jobs() {
        let items: Vec<u32> = (0..50).collect();
        for jobs in [1, 2, 7, 100] {
            let mut seen = vec![0; items.len()];
            run(
                &items,
                jobs,
                &Stop::new(),
                |_, n| n * 2,
                |i, doubled| {
                    assert_eq!(doubled, items[i] * 2);
                    seen[i] += 1;
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            assert!(seen.iter().all(|&n| n == 1), "jobs {jobs}: {seen:?}");
        }
    }

    #[test]
    fn an_error_stops_handing_out_work() {
        let items: Vec<u32> = (0..1000).collect();
        let started = AtomicUsize::new(0);
        let result = run(
            &items,
            2,
            &Stop::new(),
            |_, _| {
                started.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(1));
            },
            |_, _| Err("report failed"),
        );
        assert_eq!(result, Err("report failed"));
        assert!(started.load(Ordering::Relaxed) < items.len());
    }

    #[test]
    fn a_stop_token_ends_the_handing_out_of_work() {
        let items: Vec<u32> = (0..1000).collect();
        for jobs in [1, 2] {
            let stop = Stop::new();
            let mut done = 0;
            run(
                &items,
                jobs,
                &stop,
                |_, _| std::thread::sleep(std::time::Duration::from_micros(200)),
                |_, ()| {
                    done += 1;
                    if done == 10 {
                        stop.request();
                    }
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            assert!(
                done < items.len() / 2,
                "jobs {jobs}: {done} done after the stop"
            );
        }
    }
}
