//! One fork server: an interpreter started once (in the sandbox, in cgroups of its own)
//! running `forkserver.py` (which runs the server, `forkserver_body.py`), and the protocol
//! nimlab speaks with it. The messages are described in `PROTOCOL.md` and read and written
//! through [`super::protocol`].

use super::protocol::{Message, Tag, encode};
use super::socket::{self, Received};
use crate::runner::child::{
    Role, Started, kill_group, pidfd_open, reap, set_nonblocking, spawn_in, termination,
};
use crate::runner::process::watch_to_end;
use crate::runner::sandbox::{Isolation, RunCgroup};
use crate::runner::watch::Watch;
use crate::runner::{RunLimits, RunOutcome, RunSpec, RunWay};
use std::ffi::{OsStr, OsString};
use std::io::{Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, ChildStdout, Stdio};
use std::time::{Duration, Instant};

/// The server's own CPU allowance (each program it forks gets its run's).
const SERVER_CPU: Duration = Duration::from_secs(24 * 3600);
/// How long the server may take to answer what needs no program to run (compiling, forking,
/// reaping and cleaning up).
const ANSWER_TIME: Duration = Duration::from_secs(20);
/// The most of the server's own stderr that is kept to explain its death.
const STDERR_KEEP: usize = 2000;

/// Why a run could not be made by the server.
#[derive(Debug)]
pub(super) enum Failure {
    /// This run only (the server is fine): why.
    Refused(String),
    /// The server is gone or cannot be trusted: why.
    Dead(String),
}

/// Which servers can serve a run: everything that is fixed when an interpreter starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub program: PathBuf,
    pub script: PathBuf,
    pub expose: Vec<PathBuf>,
    /// The environment, with the run's working folder in values replaced by `WORKDIR`, and
    /// without PYTHONUNBUFFERED (buffered and unbuffered runs share a server).
    pub env: Vec<(OsString, Vec<u8>)>,
    pub memory_bytes: u64,
    /// The folder the runs' working folders are made in (a tmpfs of the server's sandbox).
    pub mount: PathBuf,
    /// A zygote's key: the interpreter is kept warm for every submission whose folders are in
    /// `expose` (one folder), each served by a server it forks ([`Server::enter`]).
    pub zygote: bool,
}

/// The zygote's own working folder, in its root (no check's scratch folder is named so).
pub(super) const ZYGOTE_WORK: &str = "work";

/// What a zygote's server for one submission is for: the folder its runs' working folders go
/// in, and the folders its runs are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Submission {
    pub mount: PathBuf,
    pub expose: Vec<PathBuf>,
}

/// Stands for the run's working folder in a key's environment.
const WORKDIR: &[u8] = b"\0workdir\0";

impl Key {
    /// The key of a run, or why the fork path cannot make it just as a fresh interpreter
    /// would.
    pub fn of(spec: &RunSpec, script: &Path) -> Result<Key, String> {
        let Some(program) = spec.args.first() else {
            return Err("no program file to run".into());
        };
        if program.as_bytes().starts_with(b"-") {
            return Err("the interpreter is given options, not a program file".into());
        }
        let fixed_hash = spec.env.iter().any(|(k, v)| {
            k == "PYTHONHASHSEED" && !v.is_empty() && v.as_bytes().iter().all(u8::is_ascii_digit)
        });
        if !fixed_hash {
            // Each fresh interpreter would hash strings its own way; forked ones all alike.
            return Err("PYTHONHASHSEED is not fixed".into());
        }
        if spec.env.iter().any(|(k, _)| k == "PYTHONINSPECT") {
            return Err("PYTHONINSPECT asks for an interactive interpreter".into());
        }
        let Some(mount) = spec.workdir.parent().filter(|p| p.is_absolute()) else {
            return Err("the working folder has no parent folder".into());
        };
        let workdir = spec.workdir.as_os_str().as_bytes();
        let env = spec
            .env
            .iter()
            // Read once an interpreter starts, it is given to each run by the server instead.
            .filter(|(k, _)| k != "PYTHONUNBUFFERED")
            .map(|(k, v)| {
                let v = v.as_bytes();
                let inside = v.starts_with(workdir)
                    && (v.len() == workdir.len() || v[workdir.len()] == b'/');
                let value = if inside {
                    [WORKDIR, &v[workdir.len()..]].concat()
                } else {
                    v.to_vec()
                };
                (k.clone(), value)
            })
            .collect();
        Ok(Key {
            program: spec.program.to_path_buf(),
            script: script.to_path_buf(),
            expose: spec.expose.to_vec(),
            env,
            memory_bytes: spec.limits.memory_bytes,
            mount: mount.to_path_buf(),
            zygote: false,
        })
    }

    /// The key of the zygote that serves this run, whose submission's folders are all in
    /// `root`, and that submission; None where they are not.
    pub fn zygote(self, root: &Path) -> Option<(Key, Submission)> {
        let inside = |p: &PathBuf| p.starts_with(root) && p != root;
        if self.expose.is_empty() || !self.expose.iter().all(inside) || !inside(&self.mount) {
            return None;
        }
        // (Made in the root, so that it goes with it: see `zygote_root`.)
        let work = root.join(ZYGOTE_WORK);
        let submission = Submission {
            mount: self.mount,
            expose: self.expose,
        };
        let key = Key {
            expose: vec![root.to_path_buf()],
            mount: work,
            zygote: true,
            ..self
        };
        Some((key, submission))
    }

    /// The server's own environment: the run's, with its working folder's place taken by the
    /// folder the runs' working folders are made in.
    fn server_env(&self) -> Vec<(OsString, OsString)> {
        let mount = self.mount.as_os_str().as_bytes();
        self.env
            .iter()
            .map(|(k, v)| {
                let value = match v.strip_prefix(WORKDIR) {
                    Some(rest) => [mount, rest].concat(),
                    None => v.clone(),
                };
                (k.clone(), OsStr::from_bytes(&value).to_os_string())
            })
            .collect()
    }
}

/// What compiling a program said.
#[derive(Debug, Clone)]
pub(super) struct Compiled {
    /// The syntax probe's JSON: the version and the compile error, if any.
    pub probe: Vec<u8>,
}

pub(super) struct Server {
    pub key: Key,
    started: Option<Started>,
    socket: OwnedFd,
    stderr: Option<ChildStderr>,
    cgroup: Option<RunCgroup>,
    isolation: Isolation,
    /// False once the server cannot be used again (it died, or left a run's files behind).
    pub healthy: bool,
    /// It will say whether it may take the next run.
    emptying: bool,
    /// Its own code, as it sent it at its start (see [`Server::take_code`]).
    code: Option<Vec<u8>>,
    /// A zygote's: the submission its server is serving, if any.
    pub entered: Option<Submission>,
}

impl Server {
    /// Starts the interpreter of `spec` on the fork server script, in the sandbox. `code`: a
    /// file holding the server's code as an earlier server of this interpreter compiled it
    /// ([`Server::take_code`]); without one, this server sends its own.
    pub fn start(
        key: &Key,
        spec: &RunSpec,
        isolation: &Isolation,
        code: Option<&Path>,
    ) -> Result<Server, Failure> {
        let failed = |what: &str, e: std::io::Error| Failure::Dead(format!("{what}: {e}"));
        let (ours, theirs) =
            socket::pair().map_err(|e| failed("cannot make the fork server's socket", e))?;
        let mut expose = key.expose.clone();
        if let Some(folder) = key.script.parent() {
            expose.push(folder.to_path_buf());
        }
        let mode = if isolation.is_isolated() {
            "sandbox"
        } else {
            "bare"
        };
        let launch = RunSpec {
            program: spec.program,
            args: vec![
                key.script.clone().into(),
                mode.into(),
                key.mount.clone().into(),
                code.map_or_else(|| "send".into(), |file| file.as_os_str().to_os_string()),
                if key.zygote { "zygote" } else { "server" }.into(),
                // A zygote's root: every submission it may serve is in it.
                key.expose
                    .first()
                    .filter(|_| key.zygote)
                    .map_or_else(OsString::new, |root| root.as_os_str().to_os_string()),
            ],
            stdin: b"",
            workdir: &key.mount,
            env: key.server_env(),
            limits: RunLimits {
                cpu: SERVER_CPU,
                ..spec.limits
            },
            expose: &expose,
            seed: None,
            stop: spec.stop,
        };
        let cgroup = match isolation {
            // One process more than a run may have: the server itself (two: a zygote and the
            // server it forked).
            Isolation::Sandbox(sandbox) => {
                sandbox.own_cgroup(spec.limits.memory_bytes, if key.zygote { 2 } else { 1 })
            }
            Isolation::LimitsOnly { .. } => None,
        };
        let mut started = spawn_in(
            &launch,
            isolation,
            Stdio::from(theirs),
            cgroup,
            Role::ForkServer,
        )
        .map_err(|e| Failure::Dead(e.to_string()))?;
        let cgroup = started.cgroup.take();
        drop(started.child.stdout.take());
        let stderr = started.child.stderr.take();
        if let Some(pipe) = &stderr {
            set_nonblocking(pipe.as_raw_fd());
        }
        let mut server = Server {
            key: key.clone(),
            started: Some(started),
            socket: ours,
            stderr,
            cgroup,
            isolation: isolation.clone(),
            healthy: true,
            emptying: false,
            code: None,
            entered: None,
        };
        if code.is_none() {
            // Sent before the server reads anything: no program has run in its sandbox yet.
            let answer = server.receive(ANSWER_TIME)?;
            match Message::parse(&answer.bytes) {
                Some(Message {
                    tag: Tag::Code,
                    body: Some(code),
                }) => server.code = Some(code.to_vec()).filter(|c| !c.is_empty()),
                _ => return Err(server.death("did not start as expected")),
            }
        }
        Ok(server)
    }

    /// The server's code as this server compiled it, for the next servers of its interpreter
    /// (an interpreter-specific tag, a NUL byte, its marshalled code); None if it was given it.
    pub fn take_code(&mut self) -> Option<Vec<u8>> {
        self.code.take()
    }

    /// Why the server is gone, with the end of what it printed.
    fn death(&mut self, what: &str) -> Failure {
        self.healthy = false;
        let mut said = Vec::new();
        if let Some(pipe) = &mut self.stderr {
            let _ = pipe.read_to_end(&mut said);
        }
        let said = String::from_utf8_lossy(&said);
        let said = said.trim();
        let tail: String = said
            .chars()
            .rev()
            .take(STDERR_KEEP)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if tail.is_empty() {
            Failure::Dead(format!("the fork server {what}"))
        } else {
            Failure::Dead(format!("the fork server {what}: {tail}"))
        }
    }

    fn send(&mut self, message: &[u8]) -> Result<(), Failure> {
        socket::send(&self.socket, message).map_err(|e| self.death(&format!("is gone ({e})")))
    }

    fn receive(&mut self, timeout: Duration) -> Result<Received, Failure> {
        match socket::recv(&self.socket, timeout) {
            Ok(Some(received)) => Ok(received),
            Ok(None) => Err(self.death("ended")),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                Err(self.death("did not answer in time"))
            }
            Err(e) => Err(self.death(&format!("cannot be heard ({e})"))),
        }
    }

    /// Compiles `file` in the server (once; it is kept for the runs).
    pub fn compile(&mut self, file: &Path) -> Result<Compiled, Failure> {
        let path = file.as_os_str().as_bytes();
        if path.contains(&0) {
            return Err(Failure::Refused("the file name holds a NUL byte".into()));
        }
        let message = encode(Tag::Compile, &[path]);
        if message.len() > socket::MESSAGE_MAX {
            return Err(Failure::Refused("the file name is too long".into()));
        }
        self.send(&message)?;
        let answer = self.receive(ANSWER_TIME)?;
        let compiled = Message::parse(&answer.bytes).filter(|m| m.tag == Tag::Compile);
        // (The probe's JSON is the rest of the message.)
        let fields = compiled.map(|m| m.fields_upto(3)).unwrap_or_default();
        match fields.as_slice() {
            [_ok, _servable, probe] => Ok(Compiled {
                probe: probe.to_vec(),
            }),
            _ => Err(self.death("answered a compile request oddly")),
        }
    }

    /// Runs the spec's program in a forked child, watched as [`crate::runner::ProcessRunner`]
    /// watches a process, to the same outcome.
    pub fn run(&mut self, spec: &RunSpec, stdin: OwnedFd) -> Result<RunOutcome, Failure> {
        let (stdout, stdout_w) = pipe().map_err(|e| Failure::Refused(e.to_string()))?;
        let (stderr, stderr_w) = pipe().map_err(|e| Failure::Refused(e.to_string()))?;
        let started = Instant::now();
        let (child, pidfd) = self.fork(spec, [stdin, stdout_w, stderr_w])?;
        let mut watch = Watch::forked(
            child,
            pidfd,
            ChildStdout::from(stdout),
            ChildStderr::from(stderr),
            spec.limits.output_bytes,
        );
        let watched = watch_to_end(
            &mut watch,
            child,
            started + spec.limits.wall,
            spec.limits.cpu,
            spec.stop,
        );
        // Whatever happened, the run is over: the server reaps the child once it has ended.
        watch.kill();
        let exit = self.exit()?;
        let wall = started.elapsed();
        let watched = watched.map_err(|e| Failure::Refused(e.to_string()))?;
        let out_of_memory = self
            .cgroup
            .as_mut()
            .is_some_and(RunCgroup::oom_killed_since);
        let (stderr, stderr_truncated) = watch.take_stderr();
        Ok(RunOutcome {
            termination: watched
                .stopped_by_us
                .unwrap_or_else(|| termination(exit.status, &self.isolation)),
            stdout: watched.stdout,
            stderr,
            stderr_truncated,
            cpu: exit.cpu.max(watched.tree_cpu),
            wall,
            max_rss_bytes: exit.max_rss_bytes,
            out_of_memory,
            working_at_wall_limit: watched.working_at_wall_limit,
            way: RunWay::Fork,
        })
    }

    /// Reads whether the server may take the next run (it says so after saying how the run
    /// ended, while nimlab judges it: in the sandbox always, each run's folders being its own
    /// mounts; without one, once it has removed the run's working folder). A server that
    /// could not is not used again. Called (by `ForkRunner::take_server`) before every use of
    /// a server after its first.
    pub fn settle(&mut self) -> Result<(), Failure> {
        if !self.emptying {
            return Ok(());
        }
        self.emptying = false;
        let answer = self.receive(ANSWER_TIME)?;
        let settled = Message::parse(&answer.bytes).filter(|m| m.tag == Tag::Settled);
        match settled.and_then(|m| m.body) {
            Some(b"1") => Ok(()),
            Some(b"0") => {
                self.healthy = false;
                Err(Failure::Refused(
                    "the fork server could not empty a run's folders".into(),
                ))
            }
            _ => Err(self.death("answered oddly after a run")),
        }
    }

    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Whether the kernel killed a process of the server's for want of memory since the last
    /// look.
    pub fn oom_killed_since(&mut self) -> bool {
        self.cgroup
            .as_mut()
            .is_some_and(RunCgroup::oom_killed_since)
    }

    /// Has the server fork a child on these descriptors; the child's pid (in nimlab's PID
    /// namespace) and pidfd, once it is about to run the program.
    pub fn fork(
        &mut self,
        spec: &RunSpec,
        fds: [OwnedFd; 3],
    ) -> Result<(libc::pid_t, OwnedFd), Failure> {
        let message = run_message(spec)?;
        self.send(&message)?;
        socket::send_fds(&self.socket, &fds.each_ref().map(|fd| fd.as_raw_fd()))
            .map_err(|e| self.death(&format!("cannot be handed the descriptors ({e})")))?;
        drop(fds);
        let answer = self.receive(ANSWER_TIME)?;
        let (tag, text) = match Message::parse(&answer.bytes) {
            Some(message) => (Some(message.tag), message.text()),
            None => (None, String::new()),
        };
        match tag {
            Some(Tag::Ready) => match answer.sender {
                Some(pid) => {
                    // The server reaps the child only after this "W": until then its pid
                    // stays its own, and the pidfd is the child's.
                    let Some(pidfd) = pidfd_open(pid) else {
                        // (An old kernel, or no descriptor left.) Without a pidfd its end
                        // cannot be seen: the run is made as a process instead.
                        // SAFETY: signals the child, whose pid is not reaped before "W".
                        unsafe { libc::kill(pid, libc::SIGKILL) };
                        self.send(&encode(Tag::Watching, &[]))?;
                        self.exit()?;
                        return Err(Failure::Refused(
                            "nimlab cannot watch a forked child here (no pidfd)".into(),
                        ));
                    };
                    self.send(&encode(Tag::Watching, &[]))?;
                    Ok((pid, pidfd))
                }
                None => Err(self.death("forked a child nimlab cannot see")),
            },
            Some(Tag::Refused) => Err(Failure::Refused(text)),
            Some(Tag::Failed) => {
                self.send(&encode(Tag::Watching, &[]))?;
                self.exit()?;
                Err(Failure::Refused(format!(
                    "the forked child could not start the program: {text}"
                )))
            }
            _ => Err(self.death("answered a run request oddly")),
        }
    }

    /// Reads how the child ended, once the server has reaped it (and killed what it left).
    pub fn exit(&mut self) -> Result<Exit, Failure> {
        let answer = self.receive(ANSWER_TIME)?;
        let exited = Message::parse(&answer.bytes).filter(|m| m.tag == Tag::Exited);
        let fields = exited.map(|m| m.fields()).unwrap_or_default();
        let number =
            |at: usize| -> Option<i64> { std::str::from_utf8(fields.get(at)?).ok()?.parse().ok() };
        match (number(0), number(1), number(2), number(3)) {
            (Some(status), Some(user), Some(system), Some(rss)) => {
                self.emptying = true;
                let micros = |m: i64| Duration::from_micros(u64::try_from(m).unwrap_or(0));
                Ok(Exit {
                    status: status as libc::c_int,
                    cpu: micros(user) + micros(system),
                    max_rss_bytes: u64::try_from(rss).unwrap_or(0) * 1024,
                })
            }
            _ => Err(self.death("answered a reap request oddly")),
        }
    }

    /// Has a zygote serve `submission`: the server of the one it served before ends, and a new
    /// one is forked, which sees only this submission's folders (see PROTOCOL.md).
    pub fn enter(&mut self, submission: &Submission) -> Result<(), Failure> {
        if self.entered.as_ref() == Some(submission) {
            return Ok(());
        }
        self.leave()?;
        if crate::runner::identity::run_as().is_some() {
            // (Made by nimlab with a private file-creation mask, perhaps.)
            crate::runner::identity::open_to_runs(&submission.expose);
        }
        let mut fields: Vec<&[u8]> = vec![submission.mount.as_os_str().as_bytes()];
        fields.extend(submission.expose.iter().map(|p| p.as_os_str().as_bytes()));
        let message = encode(Tag::Enter, &fields);
        if fields.iter().any(|f| f.contains(&0)) || message.len() > socket::MESSAGE_MAX {
            return Err(Failure::Refused(
                "the submission's folders cannot be named to the warm interpreter".into(),
            ));
        }
        self.send(&message)?;
        let answer = self.receive(ANSWER_TIME)?;
        match Message::parse(&answer.bytes) {
            Some(m) if m.tag == Tag::Entered => {
                self.entered = Some(submission.clone());
                Ok(())
            }
            Some(m) if m.tag == Tag::Refused => {
                let why = m.text();
                self.left()?;
                Err(Failure::Refused(format!(
                    "the warm interpreter could not serve the submission: {why}"
                )))
            }
            _ => Err(self.death("answered an enter request oddly")),
        }
    }

    /// Ends a zygote's server of the submission it served, if any.
    pub fn leave(&mut self) -> Result<(), Failure> {
        if self.entered.take().is_none() {
            return Ok(());
        }
        self.settle()?;
        self.send(&encode(Tag::Leave, &[]))?;
        self.left()
    }

    /// Reads the zygote's word that the submission's server has ended.
    fn left(&mut self) -> Result<(), Failure> {
        let answer = self.receive(ANSWER_TIME)?;
        match Message::parse(&answer.bytes) {
            Some(m) if m.tag == Tag::Left => Ok(()),
            _ => Err(self.death("answered a leave request oddly")),
        }
    }

    /// Stops the server and lets go of its cgroups.
    fn stop(&mut self) {
        let Some(started) = self.started.take() else {
            return;
        };
        kill_group(started.pid);
        let _ = reap(started.pid);
        drop(started.child);
        if let Some(cgroup) = self.cgroup.take() {
            cgroup.finish();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How a forked child ended.
pub(super) struct Exit {
    pub status: libc::c_int,
    pub cpu: Duration,
    pub max_rss_bytes: u64,
}

/// The run message ([`Tag::Run`]): program, working folder, CPU seconds, `random` seed (empty
/// for none), arguments and environment.
fn run_message(spec: &RunSpec) -> Result<Vec<u8>, Failure> {
    let program = spec
        .args
        .first()
        .ok_or_else(|| Failure::Refused("no program".into()))?;
    let cpu_seconds = spec.limits.kernel_cpu_seconds();
    let mut fields: Vec<&[u8]> = vec![program.as_bytes(), spec.workdir.as_os_str().as_bytes()];
    let cpu = cpu_seconds.to_string();
    let seed = spec.seed.map(|s| s.to_string()).unwrap_or_default();
    let argc = spec.args.len().to_string();
    let envc = spec.env.len().to_string();
    fields.push(cpu.as_bytes());
    fields.push(seed.as_bytes());
    fields.push(argc.as_bytes());
    fields.extend(spec.args.iter().map(|a| a.as_bytes()));
    fields.push(envc.as_bytes());
    for (k, v) in &spec.env {
        fields.push(k.as_bytes());
        fields.push(v.as_bytes());
    }
    if fields.iter().any(|f| f.contains(&0)) {
        return Err(Failure::Refused(
            "an argument or variable holds a NUL byte".into(),
        ));
    }
    let message = encode(Tag::Run, &fields);
    if message.len() > socket::MESSAGE_MAX {
        return Err(Failure::Refused(
            "the arguments and environment are too long to send to the fork server".into(),
        ));
    }
    Ok(message)
}

/// A pipe: (read end, write end), both close-on-exec.
pub(super) fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two descriptors to fill.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both were just created and belong to nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The case's input in an anonymous in-memory file, as the process path gives it.
pub(super) fn stdin_file(input: &[u8]) -> std::io::Result<OwnedFd> {
    // SAFETY: the name is a valid C string; the returned descriptor is owned by the File.
    let fd = unsafe { libc::memfd_create(c"nimlab-stdin".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fd was just created and is owned by nobody else.
    let mut file = unsafe { std::fs::File::from_raw_fd(fd) };
    file.write_all(input)?;
    file.rewind()?;
    Ok(OwnedFd::from(file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::RunLimits;

    fn spec<'a>(workdir: &'a Path, env: Vec<(OsString, OsString)>) -> RunSpec<'a> {
        RunSpec {
            program: Path::new("/usr/bin/python3"),
            args: vec!["/lab/present_board.py".into()],
            stdin: b"",
            workdir,
            env,
            limits: RunLimits {
                cpu: Duration::from_secs(2),
                wall: Duration::from_secs(3),
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
            },
            expose: &[],
            seed: None,
            stop: crate::stop::Stop::never(),
        }
    }

    #[test]
    fn a_run_message_the_server_would_read_cut_short_is_refused() {
        let workdir = Path::new("/tmp/run-0/case-0");
        let fits = vec![("HOME".into(), "/tmp/run-0/case-0".into())];
        let message = run_message(&spec(workdir, fits)).unwrap();
        assert!(message.starts_with(b"R\0/lab/present_board.py\0/tmp/run-0/case-0\0"));
        let long = vec![("BIG".into(), "x".repeat(socket::MESSAGE_MAX).into())];
        match run_message(&spec(workdir, long)) {
            Err(Failure::Refused(why)) => assert!(why.contains("too long"), "{why}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}
