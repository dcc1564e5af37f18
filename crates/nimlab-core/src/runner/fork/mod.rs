//! `ForkRunner`: the fast path. Starting Python is nearly all that a case costs (tens of
//! milliseconds under Python 3, against about one for forking it), so for each submission and
//! interpreter nimlab starts the interpreter once, in the same sandbox and cgroups a run gets, on a
//! small server of its own (`forkserver_body.py`, started by `forkserver.py`). The server compiles
//! the program once; for each run it forks a child that takes the run's stdin, stdout and stderr
//! (passed over a Unix socket), its own working folder, process group and CPU limit, the run's
//! environment and arguments, fresh standard streams, a fresh `__main__`, and the modules of a
//! freshly started interpreter, and runs the program there: the program's code, all of it, runs in
//! the child, once per run. nimlab watches the child as it watches a process (the same poll loop,
//! limits and outcome), and the server kills whatever the run left. Each run's child makes its
//! own namespaces and folders (see `../SANDBOX.md`), so no run finds what another left.
//!
//! Where the fork path cannot do what a fresh interpreter does (no program file, hashing not
//! fixed, a program Python 2 would refuse to run), or when a server cannot start or dies,
//! runs are made by [`ProcessRunner`] instead, and each outcome says how it was made
//! ([`RunWay`]). A server that dies takes the fork path away from what remains of its
//! submission.
//!
//! In the sandbox, one interpreter per thread and interpreter is kept warm for the life of the
//! process (a zygote): checks make their scratch folders in this runner's root
//! ([`Runner::workspace_root`]), and the zygote, which sees that root and never runs a program,
//! forks a server for each submission that sees only that submission's folders (PROTOCOL.md,
//! "The zygote"). Runs whose folders are elsewhere get a server of their own, started for them.
//!
//! Servers belong to the thread that started them (a program started by a thread is killed
//! when that thread ends, and the pool's workers end with their check), and each serves one
//! run at a time.

mod protocol;
mod server;
mod session;
mod socket;

use super::interactive::ProcessSession;
use super::sandbox::Isolation;
use super::{ProcessRunner, RunOutcome, RunSpec, RunWay, Runner, Session};
use crate::error::RunnerError;
use server::{Failure, Key, Server, Submission};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The script the server's interpreter starts, written to a file beside the server itself
/// (which the script has compiled in a child of its own: see the script).
const BOOT: &str = include_str!("forkserver.py");
/// The server's source.
const SERVER: &str = include_str!("forkserver_body.py");
/// The file beside the script that holds the runs' system call filter.
const FILTER_FILE: &str = "run-filter.bpf";

/// How many idle servers a thread keeps.
const KEEP: usize = 4;

thread_local! {
    static SERVERS: RefCell<Vec<Server>> = const { RefCell::new(Vec::new()) };
}

/// Runs programs forked from an interpreter kept running for them, where that gives what a
/// fresh interpreter would; as processes otherwise.
pub struct ForkRunner {
    process: ProcessRunner,
    /// The folder holding the server script (shown read-only to the sandbox), or why there
    /// is none.
    script: Result<(tempfile::TempDir, PathBuf), String>,
    /// Servers that could not start or died, by key, and why: their runs are processes.
    broken: Arc<Mutex<HashMap<Key, String>>>,
    /// By interpreter, a file beside the script holding the server's code as the first server
    /// of that interpreter compiled it: later servers load it instead of compiling the server
    /// again (about a third of a server's start beyond the interpreter's own).
    codes: Mutex<HashMap<PathBuf, PathBuf>>,
    /// Where checks make their scratch folders in the sandbox: every submission there is
    /// served by one warm interpreter (a zygote) per thread and interpreter, which forks a
    /// server for each.
    root: Option<tempfile::TempDir>,
}

/// Which server a run needs: its key, and for a zygote's key the submission to serve.
type Target = (Key, Option<Submission>);

impl ForkRunner {
    pub fn new(isolation: Isolation) -> Self {
        let root = match isolation {
            Isolation::Sandbox(_) => zygote_root(),
            Isolation::LimitsOnly { .. } => None,
        };
        ForkRunner {
            process: ProcessRunner::new(isolation),
            script: write_script(),
            broken: Arc::new(Mutex::new(HashMap::new())),
            codes: Mutex::new(HashMap::new()),
            root,
        }
    }

    /// With the strongest isolation this machine allows.
    pub fn detect() -> Self {
        ForkRunner::new(Isolation::detect().clone())
    }

    /// The server a run needs: a zygote's where its folders are in the root, unless that
    /// zygote failed; a submission's own otherwise.
    fn key(&self, spec: &RunSpec) -> Result<Target, String> {
        let script = match &self.script {
            Ok((_, script)) => script,
            Err(why) => return Err(why.clone()),
        };
        let key = Key::of(spec, script)?;
        let broken = |key: &Key| self.broken.lock().ok().and_then(|b| b.get(key).cloned());
        let zygote = self
            .workspace_root()
            .and_then(|root| key.clone().zygote(root));
        if let Some((zygote, submission)) = zygote
            && broken(&zygote).is_none()
        {
            return Ok((zygote, Some(submission)));
        }
        match broken(&key) {
            Some(why) => Err(why),
            None => Ok((key, None)),
        }
    }

    /// A server for `target` of this thread's, or a new one; a zygote's serving the target's
    /// submission. A zygote that died since its last use is started again (see [`note_death`]).
    fn take_server(&self, target: &Target, spec: &RunSpec) -> Result<Server, Failure> {
        let (key, submission) = target;
        let Some(submission) = submission else {
            return self.server_for(key, spec);
        };
        loop {
            let mut server = self.server_for(key, spec)?;
            let failure = match server.enter(submission) {
                Ok(()) => return Ok(server),
                Err(failure) => failure,
            };
            drop(server);
            match failure {
                Failure::Dead(_) => note_death(&self.broken, key, &failure),
                // It could not serve this submission: not tried again (a submission's own
                // server serves instead).
                Failure::Refused(ref why) => {
                    if let Ok(mut broken) = self.broken.lock() {
                        broken.insert(key.clone(), why.clone());
                    }
                }
            }
            let given_up = self.broken.lock().map_or(true, |b| b.contains_key(key));
            if given_up {
                return Err(failure);
            }
        }
    }

    /// An idle server for `key` of this thread's, or a new one.
    fn server_for(&self, key: &Key, spec: &RunSpec) -> Result<Server, Failure> {
        let idle = SERVERS.with(|servers| {
            let mut servers = servers.borrow_mut();
            let at = servers.iter().position(|s| &s.key == key)?;
            Some(servers.remove(at))
        });
        if let Some(mut server) = idle {
            match server.settle() {
                Ok(()) => return Ok(server),
                // It could not empty the last run's folders: a new server serves instead.
                Err(Failure::Refused(_)) => drop(server),
                Err(failure) => {
                    note_death(&self.broken, key, &failure);
                    // (A zygote is started again, until it has died too often.)
                    if !key.zygote || self.broken.lock().map_or(true, |b| b.contains_key(key)) {
                        return Err(failure);
                    }
                }
            }
        }
        let code = self
            .codes
            .lock()
            .ok()
            .and_then(|codes| codes.get(&key.program).cloned());
        let mut server = Server::start(key, spec, self.process.isolation(), code.as_deref())
            .inspect_err(|failure| {
                note_death(&self.broken, key, failure);
            })?;
        if let Some(code) = server.take_code() {
            self.keep_code(&key.program, &code);
        }
        Ok(server)
    }

    /// Writes a server's code beside the script for the next servers of `interpreter`. (The
    /// script's folder is nimlab's own, and shown to the sandboxes read-only.)
    fn keep_code(&self, interpreter: &Path, code: &[u8]) {
        let (Ok((_, script)), Ok(mut codes)) = (&self.script, self.codes.lock()) else {
            return;
        };
        if codes.contains_key(interpreter) {
            return;
        }
        let Some(folder) = script.parent() else {
            return;
        };
        let file = folder.join(format!("forkserver_body.{}.code", codes.len()));
        // Known to the others only once whole: a server that fails to load it compiles.
        if std::fs::write(&file, code).is_ok() {
            codes.insert(interpreter.to_path_buf(), file);
        }
    }

    /// Runs `work` on a server for `key`, then keeps the server for later runs if it is still
    /// sound. A server that died is not started again for this key.
    fn with_server<T>(
        &self,
        target: &Target,
        spec: &RunSpec,
        work: impl FnOnce(&mut Server) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let mut server = self.take_server(target, spec)?;
        let result = work(&mut server);
        if let Err(failure) = &result {
            note_death(&self.broken, &target.0, failure);
        }
        keep(server);
        result
    }

    /// The session as a process of its own, saying (when it ends) why it was not forked.
    fn fallback_session(
        &self,
        spec: &RunSpec,
        why: String,
    ) -> Result<Box<dyn Session>, RunnerError> {
        Ok(Box::new(session::Fallback {
            inner: self.process.start(spec)?,
            why,
        }))
    }

    /// The run as a process of its own, saying why it was not forked.
    fn fallback(&self, spec: &RunSpec, why: String) -> Result<RunOutcome, RunnerError> {
        let mut outcome = self.process.run(spec)?;
        outcome.way = RunWay::Fallback(why);
        Ok(outcome)
    }
}

impl Runner for ForkRunner {
    fn run(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError> {
        let key = match self.key(spec) {
            Ok(key) => key,
            Err(why) => return self.fallback(spec, why),
        };
        let stdin = server::stdin_file(spec.stdin).map_err(|source| RunnerError::System {
            what: "cannot write the stdin file",
            source,
        })?;
        match self.with_server(&key, spec, |server| server.run(spec, stdin)) {
            Ok(outcome) => Ok(outcome),
            Err(Failure::Refused(why) | Failure::Dead(why)) => self.fallback(spec, why),
        }
    }

    fn start(&self, spec: &RunSpec) -> Result<Box<dyn Session>, RunnerError> {
        let key = match self.key(spec) {
            Ok(key) => key,
            Err(why) => return self.fallback_session(spec, why),
        };
        let mut server = match self.take_server(&key, spec) {
            Ok(server) => server,
            Err(Failure::Refused(why) | Failure::Dead(why)) => {
                return self.fallback_session(spec, why);
            }
        };
        match session::start(&mut server, spec) {
            Ok((pid, stdin, watch, started)) => {
                let reaper = session::ForkReaper::new(server, Arc::clone(&self.broken));
                Ok(Box::new(ProcessSession::watching(
                    pid,
                    Some(stdin),
                    watch,
                    started,
                    spec.limits,
                    Box::new(reaper),
                    spec.stop,
                )))
            }
            Err(failure) => {
                note_death(&self.broken, &key.0, &failure);
                keep(server);
                match failure {
                    Failure::Refused(why) | Failure::Dead(why) => self.fallback_session(spec, why),
                }
            }
        }
    }

    fn isolation(&self) -> &Isolation {
        self.process.isolation()
    }

    fn workspace_root(&self) -> Option<&Path> {
        self.root.as_ref().map(tempfile::TempDir::path)
    }

    fn compile(&self, spec: &RunSpec) -> Option<Vec<u8>> {
        let key = self.key(spec).ok()?;
        let program = Path::new(spec.args.first()?);
        self.with_server(&key, spec, |server| server.compile(program))
            .ok()
            .map(|compiled| compiled.probe)
    }

    fn finished_with(&self, expose: &[PathBuf]) {
        let done: Vec<Server> = SERVERS.with(|servers| {
            let mut servers = servers.borrow_mut();
            let (done, kept) = servers.drain(..).partition(|s| s.key.expose == expose);
            *servers = kept;
            done
        });
        drop(done);
        // A zygote's server of the submission ends; the zygote stays, for the next.
        let served = |s: &Server| s.entered.as_ref().is_some_and(|e| e.expose == expose);
        let leaving: Vec<Server> = SERVERS.with(|servers| {
            let mut servers = servers.borrow_mut();
            let (leaving, kept) = servers.drain(..).partition(served);
            *servers = kept;
            leaving
        });
        for mut server in leaving {
            if server.leave().is_ok() {
                keep(server);
            }
        }
        if let Ok(mut broken) = self.broken.lock() {
            broken.retain(|key, _| key.expose != expose);
        }
    }
}

impl Drop for ForkRunner {
    fn drop(&mut self) {
        if let Ok((_, script)) = &self.script {
            let _ = SERVERS.try_with(|servers| {
                servers.borrow_mut().retain(|s| &s.key.script != script);
            });
        }
    }
}

/// Puts a server back among this thread's idle ones if it can serve again.
fn keep(server: Server) {
    if !server.healthy {
        return;
    }
    let _ = SERVERS.try_with(|servers| {
        let mut servers = servers.borrow_mut();
        servers.push(server);
        if servers.len() > KEEP {
            servers.remove(0);
        }
    });
}

/// Takes the fork path away from the rest of `key`'s runs when its server died; a zygote's
/// only once it has died [`ZYGOTE_LIVES`] times (before that, the next use starts another).
fn note_death(broken: &Mutex<HashMap<Key, String>>, key: &Key, failure: &Failure) {
    static ZYGOTE_DEATHS: Mutex<Option<HashMap<Key, u32>>> = Mutex::new(None);
    let Failure::Dead(why) = failure else {
        return;
    };
    if key.zygote
        && let Ok(mut deaths) = ZYGOTE_DEATHS.lock()
    {
        let count = deaths
            .get_or_insert_with(HashMap::new)
            .entry(key.clone())
            .or_insert(0);
        *count += 1;
        if *count < ZYGOTE_LIVES {
            return;
        }
    }
    if let Ok(mut broken) = broken.lock() {
        broken.insert(key.clone(), why.clone());
    }
}

/// How many times a zygote may die before its thread's submissions get servers of their own.
const ZYGOTE_LIVES: u32 = 3;

/// The folder the checks' scratch folders go in, where one zygote serves them all (named as
/// nimlab's scratch folders are; only the sandbox's group may enter it); None where it cannot
/// be made (each submission then has a server of its own).
fn zygote_root() -> Option<tempfile::TempDir> {
    let root = tempfile::Builder::new()
        .prefix(&format!("nimlab-{}-warm-", std::process::id()))
        .tempdir()
        .ok()?;
    crate::runner::identity::open_to_sandbox_group(root.path()).ok()?;
    std::fs::create_dir(root.path().join(server::ZYGOTE_WORK)).ok()?;
    Some(root)
}

/// Writes the server script into a folder of its own (named as nimlab's scratch folders are,
/// so that a killed nimlab's is cleaned up by the next).
fn write_script() -> Result<(tempfile::TempDir, PathBuf), String> {
    let folder = tempfile::Builder::new()
        .prefix(&format!("nimlab-{}-fork-", std::process::id()))
        .tempdir()
        .map_err(|e| format!("cannot write the fork server: {e}"))?;
    let write = |name: &str, text: &str| {
        let path = folder.path().join(name);
        std::fs::write(&path, text)
            .map_err(|e| format!("cannot write the fork server: {e}"))
            .map(|()| path)
    };
    write("forkserver_body.py", SERVER)?;
    // The system call filter each run is put under (see runner::filter); none where this
    // machine has no seccomp.
    if let Some(filter) = crate::runner::filter::bytes() {
        let path = folder.path().join(FILTER_FILE);
        std::fs::write(&path, filter).map_err(|e| format!("cannot write the fork server: {e}"))?;
    }
    // (The finder that seeds a random the program imports itself: see _seeder.)
    write("random_seed.py", crate::runner::seed::SITECUSTOMIZE)?;
    let script = write("forkserver.py", BOOT)?;
    Ok((folder, script))
}
