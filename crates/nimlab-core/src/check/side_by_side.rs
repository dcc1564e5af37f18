//! A one-off check's interpreters run side by side: the first on the calling thread, each
//! other one on a thread of its own, which starts that interpreter's server (servers belong to
//! the thread that started them). Each run gets its share of the check's jobs.
//!
//! The rule of [`RunContext::begin`] still holds: every run's sample cases are judged before
//! any run's secret case starts. The other threads' cases are reported on the calling thread,
//! in the order a check on one thread reports them: every run's samples, then each run's
//! secret cases and its end.

use super::run::{RunContext, report_error};
use crate::error::Error;
use crate::report::{CaseReport, Event, Reporter, RunReport};
use crate::runner::interpreter;
use std::sync::mpsc;
use std::thread::ScopedJoinHandle;

/// The cases one run judged, kept to be reported on the calling thread.
#[derive(Default)]
struct Held {
    cases: Vec<(String, CaseReport)>,
}

impl Reporter for Held {
    fn event(&mut self, event: &Event) -> std::io::Result<()> {
        if let Event::CaseFinished { run, case } = event {
            self.cases.push(((*run).to_string(), (*case).clone()));
        }
        Ok(())
    }
}

impl Held {
    fn pass_on(self, reporter: &mut dyn Reporter) -> Result<(), Error> {
        for (run, case) in &self.cases {
            reporter
                .event(&Event::CaseFinished { run, case })
                .map_err(report_error)?;
        }
        Ok(())
    }
}

/// What another thread's run sends when its sample cases are done.
type SamplesDone = mpsc::Receiver<Held>;
/// What it waits for before its secret cases: any message; a closed channel ends it there.
type GoOn = mpsc::Sender<()>;
/// Its end: the run and its secret cases, to be reported.
type Finished<'scope> = ScopedJoinHandle<'scope, Result<(RunReport, Held), Error>>;

/// Every run of `contexts` (one per interpreter of `wanted`, in order) begun and finished,
/// each on a thread of its own, reported to `reporter` as one thread would.
pub(super) fn begin_then_finish(
    wanted: &[String],
    contexts: &[RunContext],
    reporter: &mut dyn Reporter,
) -> Result<Vec<RunReport>, Error> {
    let (first, others) = contexts.split_first().expect("two runs or more");
    std::thread::scope(|scope| {
        let mut helpers = Vec::with_capacity(others.len());
        for (context, wanted) in others.iter().zip(&wanted[1..]) {
            helpers.push(start(scope, context, wanted)?);
        }
        let begun = first.begin(&interpreter::resolve(&wanted[0]), reporter)?;
        let mut going = Vec::with_capacity(helpers.len());
        for (samples, go_on, handle) in helpers {
            match samples.recv() {
                Ok(held) => held.pass_on(reporter)?,
                // The thread ended before its samples were done: its error says why.
                Err(_) => return Err(joined(handle).err().unwrap_or_else(ended_early)),
            }
            going.push((go_on, handle));
        }
        // Every run's samples are done: the secret cases may start.
        for (go_on, _) in &going {
            let _ = go_on.send(());
        }
        let mut runs = vec![first.finish(begun, reporter)?];
        reporter
            .event(&Event::RunFinished(&runs[0]))
            .map_err(report_error)?;
        for (_, handle) in going {
            let (run, held) = joined(handle)?;
            held.pass_on(reporter)?;
            reporter
                .event(&Event::RunFinished(&run))
                .map_err(report_error)?;
            runs.push(run);
        }
        Ok(runs)
    })
}

/// Starts a run on a thread of its own: it begins, sends its samples, waits to go on, and
/// finishes.
fn start<'scope, 'env>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    context: &'scope RunContext<'env>,
    wanted: &'scope str,
) -> Result<(SamplesDone, GoOn, Finished<'scope>), Error> {
    let (samples_tx, samples_rx) = mpsc::channel();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let handle = std::thread::Builder::new()
        .name("check-run".into())
        .spawn_scoped(scope, move || {
            let mut held = Held::default();
            let begun = context.begin(&interpreter::resolve(wanted), &mut held)?;
            if samples_tx.send(held).is_err() || go_rx.recv().is_err() {
                // The calling thread gave up (an error of its own): no secret case starts.
                return Err(ended_early());
            }
            let mut held = Held::default();
            let run = context.finish(begun, &mut held)?;
            Ok((run, held))
        })
        .map_err(|e| Error::internal("cannot start a thread for a run", e))?;
    Ok((samples_rx, go_tx, handle))
}

fn ended_early() -> Error {
    Error::fault("a check's run ended before its secret cases")
}

/// A run's thread's result; its panic goes on in the calling thread.
fn joined(handle: Finished) -> Result<(RunReport, Held), Error> {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
