//! The one worker pool: `check` runs cases on it, `grade` runs submissions. Work is handed
//! out in order, results are handed back as they finish (on the calling thread, so
//! reporters need no locks), and nothing new starts once the caller's stop token is set.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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
            scope.spawn(move || work_through(items, next, stop, work, &sender));
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

/// Like [`run`], for work whose workers cost something to set up (a check's cases: each
/// worker thread starts fork servers of its own): the calling thread works through the items
/// itself, as with one job, and a helper is added (up to `jobs` threads in all) only when an
/// item of the calling thread's has run for `grow_after`. Quick items all stay on the one
/// thread and its servers; slow ones (a program that runs to its time limit) are spread.
/// Results of helpers are handed to `done` on this thread, between its own items.
pub fn run_growing<T, R, E>(
    items: &[T],
    jobs: usize,
    stop: &crate::stop::Stop,
    grow_after: std::time::Duration,
    work: impl Fn(usize, &T) -> R + Sync,
    mut done: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    let jobs = jobs.clamp(1, items.len().max(1));
    if jobs == 1 {
        return run(items, 1, stop, work, done);
    }
    let next = AtomicUsize::new(0);
    let epoch = std::time::Instant::now();
    let millis = || u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX - 1);
    // When the calling thread's current item began (ms from `epoch`); NOTHING between items.
    const NOTHING: u64 = u64::MAX;
    let running_since = AtomicU64::new(NOTHING);
    let finished = AtomicBool::new(false);
    let grow_ms = u64::try_from(grow_after.as_millis()).unwrap_or(u64::MAX);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        let (next, work, finished, running_since) = (&next, &work, &finished, &running_since);
        let watchdog_sender = sender.clone();
        scope.spawn(move || {
            let mut helpers = 0;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(5));
                let since = running_since.load(Ordering::Relaxed);
                let slow = since != NOTHING && millis().saturating_sub(since) >= grow_ms;
                let left = next.load(Ordering::Relaxed) < items.len();
                if !slow || !left || helpers + 1 >= jobs || stop.requested() {
                    continue;
                }
                helpers += 1;
                // The next helper waits for another whole `grow_after` of the same item.
                running_since.store(millis(), Ordering::Relaxed);
                let sender = watchdog_sender.clone();
                scope.spawn(move || work_through(items, next, stop, work, &sender));
            }
        });
        drop(sender);
        let mut outcome = Ok(());
        let mut deliver = |index: usize, result: R, outcome: &mut Result<(), E>| {
            if outcome.is_ok() {
                *outcome = done(index, result);
                if outcome.is_err() {
                    // No more work is handed out; running items finish.
                    next.store(items.len(), Ordering::Relaxed);
                }
            }
        };
        loop {
            while let Ok((index, result)) = receiver.try_recv() {
                deliver(index, result, &mut outcome);
            }
            if stop.requested() || outcome.is_err() {
                break;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else { break };
            running_since.store(millis(), Ordering::Relaxed);
            let result = work(index, item);
            running_since.store(NOTHING, Ordering::Relaxed);
            deliver(index, result, &mut outcome);
        }
        finished.store(true, Ordering::Relaxed);
        for (index, result) in receiver {
            deliver(index, result, &mut outcome);
        }
        outcome
    })
}

/// A worker thread's loop: the next item not yet handed out, until none is left or a stop
/// is asked for, each result sent back with its index.
fn work_through<T, R>(
    items: &[T],
    next: &AtomicUsize,
    stop: &crate::stop::Stop,
    work: &(impl Fn(usize, &T) -> R + Sync),
    sender: &mpsc::Sender<(usize, R)>,
) {
    while !stop.requested() {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = items.get(index) else { break };
        if sender.send((index, work(index, item))).is_err() {
            break;
        }
    }
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
    fn a_growing_pool_does_every_item_once_and_keeps_quick_items_on_the_calling_thread() {
        let items: Vec<u32> = (0..200).collect();
        let caller = std::thread::current().id();
        let mut seen = vec![0; items.len()];
        let mut elsewhere = 0;
        run_growing(
            &items,
            4,
            &Stop::new(),
            std::time::Duration::from_millis(100),
            |_, n| (n * 2, std::thread::current().id()),
            |i, (doubled, thread)| {
                assert_eq!(doubled, items[i] * 2);
                seen[i] += 1;
                elsewhere += usize::from(thread != caller);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
        assert_eq!(elsewhere, 0, "quick items started a helper");
    }

    #[test]
    fn a_growing_pool_spreads_slow_items_over_its_jobs() {
        let items: Vec<u32> = (0..8).collect();
        let threads = std::sync::Mutex::new(std::collections::HashSet::new());
        let mut count = 0;
        run_growing(
            &items,
            4,
            &Stop::new(),
            std::time::Duration::from_millis(20),
            |_, _| {
                threads.lock().unwrap().insert(std::thread::current().id());
                std::thread::sleep(std::time::Duration::from_millis(150));
            },
            |_, ()| {
                count += 1;
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(count, items.len());
        let threads = threads.lock().unwrap().len();
        assert!((2..=4).contains(&threads), "{threads} threads");
    }

    #[test]
    fn an_error_stops_a_growing_pool_handing_out_work() {
        let items: Vec<u32> = (0..1000).collect();
        let started = AtomicUsize::new(0);
        let result = run_growing(
            &items,
            2,
            &Stop::new(),
            std::time::Duration::from_millis(1),
            |_, _| {
                started.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(2));
            },
            |_, _| Err("report failed"),
        );
        assert_eq!(result, Err("report failed"));
        assert!(started.load(Ordering::Relaxed) < 10);
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
