//! `nimlab serve`: the lab's submission website. Students log in, upload a file and read
//! what `nimlab check` says about it; instructors see the class, the queue and the
//! gradebook files.
//!
//! It is one more front end over the library, like the command line. Its rooms, bottom up:
//! [`store`] (the database: accounts, sessions, and submissions, which are the judging
//! queue; its schema's steps; a database that can no longer be written stops the server with
//! a message), [`auth`], [`deadlines`] and [`grades`] (passwords, the instructor's deadlines,
//! which submissions count), [`jobs`] (the worker threads that judge with
//! [`nimlab_core::check::check`], and this process among the others on a PostgreSQL
//! database), [`lti`] (LTI 1.3's tokens, keys and platforms), [`views`] (HTML through
//! auto-escaping templates, and the site's paths), then [`http`]: the guards every request
//! passes, the handlers by area, the router that joins them and the connections that serve
//! them; [`access_log`] writes a line per request.

mod access_log;
pub mod auth;
pub mod deadlines;
mod grades;
mod http;
pub mod jobs;
pub mod lti;
pub mod store;
pub mod users;
mod views;

use crate::http::state::{App, Logins, body_budget};
pub use grades::{GradesFrom, counted_score, export_submissions};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_core::runner::{ForkRunner, ProcessRunner, Runner};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub struct ServeOptions {
    pub db: PathBuf,
    /// `HOST:PORT`; port 0 takes a free one (printed at start).
    pub listen: String,
    /// Judging threads; 0 accepts uploads but judges nothing.
    pub workers: usize,
    pub secure_cookies: bool,
    /// Origins allowed besides the request's own host, like `https://lab.example.edu`.
    pub origins: Vec<String>,
    pub max_upload_bytes: usize,
    pub max_queued: usize,
    pub grades_from: GradesFrom,
    /// Judge on the fast path (`--runner fork`, the default) rather than a process per case.
    pub fork: bool,
    /// Take the client's address from the proxy's `X-Forwarded-For` entry.
    pub behind_proxy: bool,
    /// The registered LMS platforms may show the site in frames (`--lti-frames`).
    pub lti_frames: bool,
    /// Serve pages; without (`--no-web`), a judge-only process.
    pub web: bool,
    /// How long a claimed job is held without a renewal (`--lease`).
    pub lease: Duration,
    /// The first wait before a score an LMS did not take is sent again (doubling after).
    pub lti_retry: Duration,
}

impl ServeOptions {
    pub fn new(db: PathBuf) -> Self {
        ServeOptions {
            db,
            listen: "127.0.0.1:8080".into(),
            workers: nimlab_core::pool::default_jobs(),
            secure_cookies: false,
            origins: Vec::new(),
            max_upload_bytes: 64 * 1024,
            max_queued: 10,
            grades_from: GradesFrom::Best,
            fork: true,
            behind_proxy: false,
            lti_frames: false,
            web: true,
            lease: crate::jobs::cluster::DEFAULT_LEASE,
            lti_retry: crate::lti::tool::DEFAULT_RETRY,
        }
    }
}

/// The website without a listener: its router over the opened store, with this process's
/// judges running. [`start`] serves it on a port; the tests also call its router in-process,
/// as a connection would.
pub struct Site {
    pub router: axum::Router,
    /// Jobs a crash or kill had left running, queued again at this start.
    pub requeued: usize,
    pub isolation: String,
    /// An SQLite file's lock, held while the site runs (see [`lock_database`]).
    _lock: Option<std::fs::File>,
    presence: Arc<crate::jobs::cluster::Presence>,
    signal: Arc<crate::jobs::signal::Signal>,
    /// The workers, the keeper and the listener.
    threads: Vec<std::thread::JoinHandle<()>>,
}

/// A server started by [`start`]: a [`Site`] served on a port.
pub struct Running {
    pub addr: SocketAddr,
    site: Site,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// The database opened for a site, and the keys read from it.
struct Opened {
    db: Arc<crate::store::db::Db>,
    lock: Option<std::fs::File>,
    requeued: usize,
    device_key: Vec<u8>,
    lti: Arc<crate::lti::tool::Lti>,
}

impl Opened {
    async fn open(options: &ServeOptions) -> Result<Opened> {
        let (db, lock, requeued, device_key, lti_key) = open_database(options.db.clone()).await?;
        let lti = load_lti(&lti_key, &db, options).await?;
        Ok(Opened {
            db,
            lock,
            requeued,
            device_key,
            lti,
        })
    }

    /// Registers the process, starts its judges and joins the handlers into a router.
    async fn into_site(
        self,
        lab: Arc<Lab>,
        options: &ServeOptions,
        runner: Arc<dyn Runner + Send>,
    ) -> Result<Site> {
        let Opened {
            db,
            lock,
            requeued,
            device_key,
            lti,
        } = self;
        let isolation = runner.isolation().summary();
        let signal = Arc::new(crate::jobs::signal::Signal::default());
        let presence = present(&db, &lab, options, &signal).await?;
        let threads = judging(
            &lab,
            &presence,
            runner,
            options.workers,
            Arc::clone(&lti.wake),
        );
        let cores = nimlab_core::pool::default_jobs();
        let hashers = hashers(cores).await?;
        let app = Arc::new(App {
            lab,
            db,
            signal: Arc::clone(&signal),
            logins: Logins {
                devices: crate::http::throttle::DeviceKey::new(device_key),
                in_flight: Arc::default(),
            },
            behind_proxy: options.behind_proxy,
            hashers,
            secure_cookies: options.secure_cookies,
            origins: options
                .origins
                .iter()
                .map(|o| o.trim_end_matches('/').to_string())
                .collect(),
            max_upload_bytes: options.max_upload_bytes,
            max_queued: options.max_queued,
            grades_from: options.grades_from,
            workers: options.workers,
            isolation: isolation.clone(),
            body_budget: body_budget(options.max_upload_bytes),
            lti,
        });
        tokio::spawn(crate::http::lti::outbox::run(Arc::clone(&app)));
        Ok(Site {
            router: crate::http::router::router(app),
            requeued,
            isolation,
            _lock: lock,
            presence,
            signal,
            threads,
        })
    }
}

impl Site {
    /// Opens the database (queueing again what a crash left running) and starts the judging
    /// workers, on the current tokio runtime; nothing listens.
    pub async fn open(
        lab: Arc<Lab>,
        options: &ServeOptions,
        runner: Arc<dyn Runner + Send>,
    ) -> Result<Site> {
        return_large_blocks();
        Opened::open(options)
            .await?
            .into_site(lab, options, runner)
            .await
    }

    /// Stops judging. With `interrupt`, programs being judged are stopped at once and their
    /// submissions go back to the queue; without, the workers finish their current job first.
    pub async fn stop(mut self, interrupt: bool) {
        self.signal.stop();
        if interrupt {
            self.signal.interrupt();
        }
        let threads = std::mem::take(&mut self.threads);
        let presence = Arc::clone(&self.presence);
        let _ = tokio::task::spawn_blocking(move || {
            for thread in threads {
                let _ = thread.join();
            }
            presence.leave();
        })
        .await;
    }
}

/// Opens the database (queueing again what a crash left running), starts the judging
/// workers and serves the website on the current tokio runtime.
pub async fn start(
    lab: Arc<Lab>,
    options: &ServeOptions,
    runner: Arc<dyn Runner + Send>,
) -> Result<Running> {
    return_large_blocks();
    // The database is opened before the address is taken: a file that is not its database
    // is named first.
    let opened = Opened::open(options).await?;
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| {
            Error::usage(format!(
                "--listen {}: cannot listen there: {e}",
                options.listen
            ))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::internal("cannot read the listening address", e))?;
    let site = opened.into_site(lab, options, runner).await?;
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let router = site.router.clone();
    let server = tokio::spawn(async move {
        crate::http::connections::serve(listener, router, async {
            let _ = stopped.await;
        })
        .await
    });
    Ok(Running {
        addr,
        site,
        shutdown: Some(shutdown),
        server,
    })
}

/// Registers a web process (that judges too unless `--workers 0`) on the database.
async fn present(
    db: &Arc<crate::store::db::Db>,
    lab: &Arc<Lab>,
    options: &ServeOptions,
    signal: &Arc<crate::jobs::signal::Signal>,
) -> Result<Arc<crate::jobs::cluster::Presence>> {
    let kind = if options.workers == 0 {
        crate::jobs::cluster::Kind::Web
    } else {
        crate::jobs::cluster::Kind::Both
    };
    let (db, lab, signal) = (Arc::clone(db), Arc::clone(lab), Arc::clone(signal));
    let (workers, lease) = (options.workers, options.lease);
    tokio::task::spawn_blocking(move || {
        crate::jobs::cluster::Presence::start(db, &lab, kind, workers, lease, signal)
    })
    .await
    .map_err(|e| Error::internal("cannot register the server", std::io::Error::other(e)))?
}

/// Starts this process's judging workers (as many as `workers`), its keeper and, on
/// PostgreSQL, its listener; they run until the signal stops them.
fn judging(
    lab: &Arc<Lab>,
    presence: &Arc<crate::jobs::cluster::Presence>,
    runner: Arc<dyn Runner + Send>,
    workers: usize,
    results: Arc<tokio::sync::Notify>,
) -> Vec<std::thread::JoinHandle<()>> {
    let signal = Arc::clone(presence.signal());
    let cores = nimlab_core::pool::default_jobs();
    let pool = Arc::new(crate::jobs::queue::Workers {
        lab: Arc::clone(lab),
        db: Arc::clone(&presence.db),
        presence: Arc::clone(presence),
        runner,
        signal,
        case_jobs: (cores / workers.max(1)).max(1),
        results: Arc::clone(&results),
    });
    let mut threads = pool.spawn(workers);
    threads.extend(presence.spawn(results));
    threads
}

/// The LTI state: the tool's key, the key that signs launch cookies, and with `--lti-frames`
/// the platforms' frame origins read.
async fn load_lti(
    key: &[u8],
    db: &Arc<crate::store::db::Db>,
    options: &ServeOptions,
) -> Result<Arc<crate::lti::tool::Lti>> {
    let (key, db) = (key.to_vec(), Arc::clone(db));
    let (frames, retry) = (options.lti_frames, options.lti_retry);
    // Off the async threads: a PostgreSQL connection blocks on a runtime of its own.
    let lti = tokio::task::spawn_blocking(move || -> Result<crate::lti::tool::Lti> {
        let mut lti = crate::lti::tool::load(&key, db.with(crate::lti::tool::launch_key)?)?;
        lti.retry_base_ms = retry.as_millis().try_into().unwrap_or(i64::MAX);
        if frames {
            lti.frames = Some(std::sync::RwLock::default());
            db.with(|c| crate::lti::tool::refresh_frames(&lti, c))?;
        }
        Ok(lti)
    })
    .await
    .map_err(|e| Error::internal("cannot read the LTI platforms", std::io::Error::other(e)))??;
    Ok(Arc::new(lti))
}

/// The database, opened: an SQLite file locked for this server alone, with the jobs a crash
/// left running queued again; and the keys that sign device cookies and LTI messages. On
/// PostgreSQL other processes may be serving and judging too: nothing is locked, and the jobs
/// of a process that died come back when their lease runs out.
#[allow(clippy::type_complexity)]
async fn open_database(
    path: PathBuf,
) -> Result<(
    Arc<crate::store::db::Db>,
    Option<std::fs::File>,
    usize,
    Vec<u8>,
    Vec<u8>,
)> {
    tokio::task::spawn_blocking(move || -> Result<_> {
        let db = crate::store::db::Db::open(&path)?;
        let (lock, requeued) = if db.dialect() == crate::store::sql::Dialect::Sqlite {
            // A second server would queue again the first one's running jobs as if a crash
            // had left them.
            let lock = lock_database(&path)?;
            (Some(lock), db.with(crate::store::judging::requeue_running)?)
        } else {
            (None, 0)
        };
        let device_key =
            db.with(|c| crate::store::accounts::secret(c, "device_cookie_key", auth::random_key))?;
        let lti_key = db.with(crate::lti::tool::tool_key)?;
        Ok((Arc::new(db), lock, requeued, device_key, lti_key))
    })
    .await
    .map_err(|e| Error::internal("cannot open the database", std::io::Error::other(e)))?
}

/// The password-checking threads, with a check timed: an unknown username is answered
/// after that long from the first login on.
async fn hashers(threads: usize) -> Result<auth::Hashers> {
    let hashers = auth::Hashers::new(threads, auth::Limits::default());
    tokio::task::spawn_blocking(move || {
        hashers.calibrate();
        hashers
    })
    .await
    .map_err(|e| Error::internal("cannot time a password check", std::io::Error::other(e)))
}

impl Running {
    pub fn requeued(&self) -> usize {
        self.site.requeued
    }

    pub fn isolation(&self) -> &str {
        &self.site.isolation
    }

    /// Stops serving (each connection once it has answered), then judging: see
    /// [`Site::stop`].
    pub async fn stop(mut self, interrupt: bool) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), &mut self.server).await;
        self.site.stop(interrupt).await;
    }
}

/// The lock file of a database: `class.db.lock` beside `class.db`.
pub fn lock_path(db: &std::path::Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    db.with_file_name(name)
}

/// Takes the database's lock (an exclusive `flock` on its lock file), held until the
/// returned file is closed: by the end of the server, however it ends.
fn lock_database(db: &std::path::Path) -> Result<std::fs::File> {
    let path = lock_path(db);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options
        .open(&path)
        .map_err(|e| Error::unwritable(&path, e))?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a file descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == std::io::ErrorKind::WouldBlock {
                return Err(Error::input(
                    &path,
                    format!(
                        "another nimlab serve is using {} (it holds this lock): stop it first, or give this one another --db",
                        db.display()
                    ),
                ));
            }
            return Err(Error::internal(
                format!("{}: cannot lock", path.display()),
                error,
            ));
        }
    }
    Ok(file)
}

/// Large blocks (argon2's 19 MiB per password check) go back to the system when freed.
/// Otherwise the allocator keeps them (300 logins at once grew a server past 1 GiB), and
/// every program the server judges starts with a fork of it, which costs more the larger
/// it is.
fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets the allocator's threshold for using mmap.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

async fn terminated() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}

/// The Tokio runtime the website runs on (the bench drives its own server and clients on one).
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal("cannot start the async runtime", e))
}

/// `nimlab serve`: runs until Ctrl-C or SIGTERM. The first line on stdout is the address.
pub fn serve(lab: Lab, options: &ServeOptions) -> Result<u8> {
    let runner: Arc<dyn Runner + Send> = if options.fork {
        Arc::new(ForkRunner::detect())
    } else {
        Arc::new(ProcessRunner::detect())
    };
    if !options.web {
        return judge_only(Arc::new(lab), options, runner);
    }
    crate::http::connections::raise_descriptor_limit();
    let runtime = runtime()?;
    runtime.block_on(async {
        let running = start(Arc::new(lab), options, runner).await?;
        crate::store::sigbus::stop_with_message(&options.db);
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "nimlab serve: listening on http://{}", running.addr);
            let _ = out.flush();
        }
        eprintln!(
            "nimlab serve: database {}; {} judging worker(s); {}",
            crate::store::db::shown(&options.db),
            options.workers,
            running.isolation()
        );
        if options.workers == 0 {
            eprintln!(
                "nimlab serve: --workers 0: uploads are queued and judged by the judge processes on this database (nimlab serve --no-web), if any"
            );
        }
        if running.requeued() > 0 {
            eprintln!(
                "nimlab serve: {} submission(s) left running by the last stop are queued again",
                running.requeued()
            );
        }
        // Answering every request with an error would only hide it: the server stops.
        let unwritable = tokio::select! {
            () = terminated() => false,
            () = crate::store::db::unwritable() => true,
        };
        if unwritable {
            eprintln!(
                "nimlab serve: stopping: the database {} can no longer be written (read-only, immutable, or its disk failing). Submissions acknowledged are kept; make it and its -wal and -shm files writable and start again, and those being judged are judged again",
                crate::store::db::shown(&options.db)
            );
        } else {
            eprintln!(
                "nimlab serve: stopping (submissions being judged are queued again, to be judged from the start)"
            );
        }
        running.stop(true).await;
        Ok(if unwritable {
            nimlab_core::exit::INTERNAL
        } else {
            nimlab_core::exit::SUCCESS
        })
    })
}

/// `nimlab serve --no-web`: a process that judges what the web processes on the same
/// PostgreSQL database queue, until Ctrl-C or SIGTERM. The first line on stdout names it.
fn judge_only(lab: Arc<Lab>, options: &ServeOptions, runner: Arc<dyn Runner + Send>) -> Result<u8> {
    if !crate::store::db::is_postgres(&options.db) {
        return Err(Error::usage(format!(
            "--no-web needs a PostgreSQL --db (postgres://...): {} is an SQLite file, which one nimlab serve both serves and judges",
            options.db.display()
        )));
    }
    if options.workers == 0 {
        return Err(Error::usage(
            "--no-web with --workers 0 would neither serve nor judge: give --workers 1 or more",
        ));
    }
    let db = Arc::new(crate::store::db::Db::open(&options.db)?);
    let signal = Arc::new(crate::jobs::signal::Signal::default());
    let presence = crate::jobs::cluster::Presence::start(
        db,
        &lab,
        crate::jobs::cluster::Kind::Judge,
        options.workers,
        options.lease,
        Arc::clone(&signal),
    )?;
    let isolation = runner.isolation().summary();
    // No outbox here: the web processes hear of results through their own listeners.
    let threads = judging(
        &lab,
        &presence,
        runner,
        options.workers,
        Arc::new(tokio::sync::Notify::new()),
    );
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "nimlab serve: judging as {} (no web)", presence.name());
        let _ = out.flush();
    }
    eprintln!(
        "nimlab serve: database {}; {} judging worker(s); {}; lab {}",
        crate::store::db::shown(&options.db),
        options.workers,
        isolation,
        lab.origin
    );
    runtime()?.block_on(terminated());
    eprintln!(
        "nimlab serve: stopping (submissions being judged are queued again, for another judge)"
    );
    signal.stop();
    signal.interrupt();
    for thread in threads {
        let _ = thread.join();
    }
    presence.leave();
    Ok(nimlab_core::exit::SUCCESS)
}

/// A copy of the lab for a server that outlives the caller's borrow.
pub fn own_lab(lab: &Lab) -> Result<Lab> {
    Ok(match &lab.origin {
        nimlab_core::lab::LabOrigin::BuiltIn => Lab::built_in()?,
        nimlab_core::lab::LabOrigin::Folder(path) => Lab::from_folder(path)?,
    })
}

/// `nimlab backup`: a consistent copy of a database in use.
pub fn backup(db: &std::path::Path, to: &std::path::Path) -> Result<()> {
    crate::store::db::Db::open_existing(db)?.backup(to)
}

/// `nimlab restore`: a backup file's course into a new PostgreSQL database; the rows written.
pub fn restore(backup: &std::path::Path, db: &std::path::Path) -> Result<usize> {
    if !backup.is_file() {
        return Err(nimlab_core::error::Error::input(
            backup,
            "no such backup file",
        ));
    }
    if !crate::store::db::is_postgres(db) {
        // (Before opening it: opening would make an SQLite file there.)
        return Err(nimlab_core::error::Error::usage(format!(
            "--db {}: an SQLite file; a backup is one already: put it in place of the database \
             (cp BACKUP {}) while no server runs",
            db.display(),
            db.display()
        )));
    }
    crate::store::db::Db::open(db)?.restore(backup)
}
