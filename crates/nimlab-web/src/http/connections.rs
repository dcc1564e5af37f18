//! The website's connections: accepted, bounded and timed here rather than by `axum::serve`,
//! which sets no limit on how many are open or how long one may take to send its head. An
//! attacker's idle sockets would otherwise use up the process's file descriptors, and then
//! nobody could log in (nor could the server open its database or judge).
//!
//! - A request's head must arrive whole within [`HEAD_TIMEOUT`] of the connection being
//!   accepted or of the previous answer (hyper's head timer, which also runs while a kept-alive
//!   connection waits for its next request): one that sends nothing, trickles its head or sits
//!   idle between requests is closed then.
//! - At most [`Limits::cap`] connections are open, the descriptor limit less
//!   [`DESCRIPTOR_RESERVE`] kept for the database, judging and everything else. From three
//!   quarters of the cap, each new connection sheds the one idle longest (no request being
//!   answered), so a newcomer such as a login still gets in; at the cap, a new connection is
//!   closed at once rather than accepted into a full descriptor table.
//! - A request's body has its own time limit (`BODY_TIMEOUT`, in the guard); a request being
//!   answered is never shed.
//!
//! Each request carries `ConnectInfo<SocketAddr>`, the peer's address, for its handler.

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

/// How long a client has to send a request's head: from the connection's start, or from the
/// end of the previous answer on a kept-alive connection (so also the idle limit).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Descriptors kept out of the connections' reach: SQLite's files, the judged programs'
/// pipes and temporary files, the listening socket.
pub const DESCRIPTOR_RESERVE: u64 = 256;
/// The most connections open at once, however high the descriptor limit: each costs memory.
pub const MAX_CONNECTIONS: usize = 8192;
/// How long a shed connection (or one open when the server stops) may take to close by
/// itself before it is dropped, unless a request on it is being answered.
const SHED_GRACE: Duration = Duration::from_secs(1);
/// The pause after an error accepting (such as no descriptor left) before trying again.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// How many connections may be open, from the descriptor limit.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// At the cap, new connections are closed at once.
    pub cap: usize,
    /// From here, each new connection sheds the connection idle longest.
    pub shed_from: usize,
}

impl Limits {
    /// The limits for a soft descriptor limit of `descriptors`.
    pub fn for_descriptors(descriptors: u64) -> Limits {
        // A small limit still leaves half of it to connections.
        let room = descriptors
            .saturating_sub(DESCRIPTOR_RESERVE)
            .max(descriptors / 2);
        let cap = usize::try_from(room)
            .unwrap_or(usize::MAX)
            .clamp(4, MAX_CONNECTIONS);
        Limits {
            cap,
            shed_from: cap / 4 * 3,
        }
    }

    /// The limits for this process's soft descriptor limit now.
    pub fn current() -> Limits {
        Limits::for_descriptors(descriptor_limits().map_or(1024, |(soft, _)| soft))
    }
}

/// The soft and hard `RLIMIT_NOFILE`.
fn descriptor_limits() -> Option<(u64, u64)> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    Some((limit.rlim_cur, limit.rlim_max))
}

/// Raises the soft descriptor limit to the hard one (systemd's default soft limit, 1024, is
/// few for a class's connections). Says nothing unless it fails, then one line on stderr.
pub fn raise_descriptor_limit() {
    let Some((soft, hard)) = descriptor_limits() else {
        eprintln!("nimlab serve: warning: cannot read the open-file limit");
        return;
    };
    // An unlimited hard limit is not a valid soft one on Linux (nr_open caps it).
    let target = if hard == libc::RLIM_INFINITY {
        1 << 20
    } else {
        hard
    };
    if soft >= target {
        return;
    }
    let limit = libc::rlimit {
        rlim_cur: target,
        rlim_max: hard,
    };
    // SAFETY: setrlimit reads the struct given.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
        eprintln!(
            "nimlab serve: warning: cannot raise the open-file limit from {soft} to {target}: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// Serves `router` on `listener` until `stop` resolves, then closes every connection (those
/// answering a request once they have answered it) and returns when all are closed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let table = Table::new(Limits::current());
    // Every connection holds a receiver: `closed` below waits for the last one to end.
    let (stopping, watching) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            // No descriptor left, or the peer gave up already: wait a little, then go on.
            Err(_) => {
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        // At the cap the stream is dropped here: closed at once.
        let Some((entry, shed)) = table.admit() else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = Service {
            router: router.clone(),
            peer,
            entry: Arc::clone(&entry),
        };
        tokio::spawn(connection(stream, service, shed, watching.clone()));
    }
    drop(listener);
    let _ = stopping.send(true);
    drop(watching);
    stopping.closed().await;
    Ok(())
}

/// Serves one connection until it ends, is shed or the server stops.
async fn connection(
    stream: TcpStream,
    service: Service,
    shed: Arc<Notify>,
    mut stopping: watch::Receiver<bool>,
) {
    let entry = Arc::clone(&service.entry);
    let builder = {
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(HEAD_TIMEOUT);
        builder
    };
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        () = shed.notified() => {}
        _ = stopping.wait_for(|stop| *stop) => {}
    }
    // Idle connections close at once; one answering a request closes after its answer.
    conn.as_mut().graceful_shutdown();
    tokio::select! {
        _ = conn.as_mut() => return,
        () = tokio::time::sleep(SHED_GRACE) => {}
    }
    // Still open: a head half sent (hyper waits for it) or a request being answered.
    if entry.busy() {
        let _ = conn.await;
    }
}

/// The website's service for one connection: tells the table while a request is being
/// answered, and gives each request the peer's address.
#[derive(Clone)]
struct Service {
    router: Router,
    peer: SocketAddr,
    entry: Arc<Entry>,
}

impl hyper::service::Service<hyper::Request<Incoming>> for Service {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        let mut request: Request = request.map(axum::body::Body::new);
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let busy = Busy::new(Arc::clone(&self.entry));
        let mut router = self.router.clone();
        Box::pin(async move {
            // Held until the handler has answered, or is dropped unfinished.
            let _busy = busy;
            tower_service::Service::call(&mut router, request).await
        })
    }
}

/// The open connections, and which are idle (no request being answered) since when.
struct Table {
    limits: Limits,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    open: HashMap<u64, Open>,
    /// The idle connections, idle longest first.
    idle: BTreeSet<(Instant, u64)>,
}

/// An open connection, as the [`Table`] sees it.
struct Open {
    /// Requests being answered.
    busy: usize,
    /// Since when it is idle, while it is (and has not been asked to close).
    idle_since: Option<Instant>,
    /// Asked to close: never counted as idle again.
    asked: bool,
    shed: Arc<Notify>,
}

/// A connection's place in the [`Table`], given up when dropped.
struct Entry {
    id: u64,
    table: Arc<Table>,
}

impl Table {
    fn new(limits: Limits) -> Arc<Table> {
        Arc::new(Table {
            limits,
            inner: Mutex::new(Inner::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection, and how it will be asked to close: none at the cap.
    /// Near it, the connection idle longest is asked to close, to keep room for those to
    /// come (a login among them).
    fn admit(self: &Arc<Self>) -> Option<(Arc<Entry>, Arc<Notify>)> {
        let mut inner = self.lock();
        let open = inner.open.len();
        if open >= self.limits.shed_from
            && let Some((_, oldest)) = inner.idle.pop_first()
            && let Some(conn) = inner.open.get_mut(&oldest)
        {
            conn.idle_since = None;
            conn.asked = true;
            conn.shed.notify_one();
        }
        if open >= self.limits.cap {
            return None;
        }
        let id = inner.next;
        inner.next += 1;
        let now = Instant::now();
        let shed = Arc::new(Notify::new());
        inner.open.insert(
            id,
            Open {
                busy: 0,
                idle_since: Some(now),
                asked: false,
                shed: Arc::clone(&shed),
            },
        );
        inner.idle.insert((now, id));
        let entry = Arc::new(Entry {
            id,
            table: Arc::clone(self),
        });
        Some((entry, shed))
    }
}

impl Entry {
    fn busy(&self) -> bool {
        self.table
            .lock()
            .open
            .get(&self.id)
            .is_some_and(|conn| conn.busy > 0)
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        let mut inner = self.table.lock();
        if let Some(Open {
            idle_since: Some(since),
            ..
        }) = inner.open.remove(&self.id)
        {
            inner.idle.remove(&(since, self.id));
        }
    }
}

/// A request being answered on a connection, from its head to the handler's answer.
struct Busy {
    entry: Arc<Entry>,
}

impl Busy {
    fn new(entry: Arc<Entry>) -> Busy {
        let mut inner = entry.table.lock();
        let id = entry.id;
        let since = inner.open.get_mut(&id).and_then(|conn| {
            conn.busy += 1;
            conn.idle_since.take()
        });
        if let Some(since) = since {
            inner.idle.remove(&(since, id));
        }
        drop(inner);
        Busy { entry }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut inner = self.entry.table.lock();
        let id = self.entry.id;
        let now = Instant::now();
        let idle = inner.open.get_mut(&id).is_some_and(|conn| {
            conn.busy -= 1;
            let idle = conn.busy == 0 && !conn.asked;
            if idle {
                conn.idle_since = Some(now);
            }
            idle
        });
        if idle {
            inner.idle.insert((now, id));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_keeps_a_reserve_of_descriptors_and_a_sane_maximum() {
        let systemd = Limits::for_descriptors(1024);
        assert_eq!(systemd.cap, 768);
        assert_eq!(systemd.shed_from, 576);
        assert_eq!(Limits::for_descriptors(300).cap, 150);
        assert_eq!(Limits::for_descriptors(1 << 20).cap, MAX_CONNECTIONS);
        assert_eq!(Limits::for_descriptors(0).cap, 4);
    }

    #[tokio::test]
    async fn a_handler_finds_the_peers_address_and_stopping_ends_the_server() {
        use std::io::{Read, Write};
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let router = Router::new().route(
            "/",
            axum::routing::get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move {
                peer.to_string()
            }),
        );
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, router, async {
            let _ = stopped.await;
        }));
        let (peer, answer) = tokio::task::spawn_blocking(move || {
            let mut stream = std::net::TcpStream::connect(address).unwrap();
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            (stream.local_addr().unwrap(), answer)
        })
        .await
        .unwrap();
        assert!(answer.ends_with(&peer.to_string()), "{answer}");
        let _ = stop.send(());
        let ended = tokio::time::timeout(Duration::from_secs(5), server).await;
        assert!(matches!(ended, Ok(Ok(Ok(())))));
    }
}
