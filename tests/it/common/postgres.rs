//! A real PostgreSQL server for the tests: one cluster per test binary, started on first use
//! in a temporary folder (a Unix socket only, no TCP), and a fresh database per test.
//!
//! Debian's `initdb` and `postgres` are under `/usr/lib/postgresql/N/bin`. `initdb` refuses
//! to run as root, so under root the cluster belongs to the `postgres` user. The server is
//! started from a thread that lives as long as the test binary, with a parent-death signal:
//! when the binary ends, however it ends, the server ends too.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

struct Cluster {
    socket_dir: PathBuf,
    user: String,
}

static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// The folder of PostgreSQL's programs: the newest `/usr/lib/postgresql/N/bin`, or where
/// `NIMLAB_POSTGRES_BIN` says.
fn bin_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("NIMLAB_POSTGRES_BIN") {
        let dir = PathBuf::from(dir);
        return dir.join("initdb").is_file().then_some(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_string_lossy().parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// Who owns the cluster: `postgres` under root (uid and gid), else whoever runs the tests.
fn owner() -> Option<(u32, u32, String)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let id = |flag: &str| -> u32 {
        let out = Command::new("id")
            .args([flag, "postgres"])
            .output()
            .expect("id runs");
        assert!(
            out.status.success(),
            "under root the tests need a `postgres` user (Debian's postgresql package makes one)"
        );
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    Some((id("-u"), id("-g"), "postgres".into()))
}

/// The cluster's owner (see [`owner`]) and the database user the tests connect as.
fn owner_and_user() -> (Option<(u32, u32, String)>, String) {
    let owner = owner();
    let user = owner
        .as_ref()
        .map(|(_, _, name)| name.clone())
        .unwrap_or_else(|| std::env::var("USER").unwrap_or_else(|_| "postgres".into()));
    (owner, user)
}

fn as_owner(command: &mut Command, owner: &Option<(u32, u32, String)>) {
    if let Some((uid, gid, _)) = owner {
        command.uid(*uid).gid(*gid);
    }
}

fn start() -> Option<Cluster> {
    let bin = bin_dir()?;
    let (owner, user) = owner_and_user();
    remove_stale_clusters();
    let (dir, data, log) = init(&bin, &owner, &user, "");
    run_server(bin, data, dir.clone(), log, owner, None);
    let cluster = Cluster {
        socket_dir: dir,
        user,
    };
    wait_until_up(&cluster.uri("postgres"), &cluster.socket_dir);
    Some(cluster)
}

/// A new cluster in a temporary folder named for this test binary (and `tag`): the folder,
/// its data folder and the server's log file.
fn init(
    bin: &Path,
    owner: &Option<(u32, u32, String)>,
    user: &str,
    tag: &str,
) -> (PathBuf, PathBuf, std::fs::File) {
    let dir = std::env::temp_dir().join(format!("nimlab-test-pg-{}{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    if let Some((uid, gid, _)) = owner {
        std::os::unix::fs::chown(&dir, Some(*uid), Some(*gid)).unwrap();
    }
    let data = dir.join("data");
    let mut initdb = Command::new(bin.join("initdb"));
    initdb
        .args(["-A", "trust", "--no-sync", "-U", user, "-D"])
        .arg(&data)
        .current_dir(&dir);
    as_owner(&mut initdb, owner);
    let out = initdb.output().expect("initdb runs");
    assert!(
        out.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::File::create(dir.join("server.log")).unwrap();
    if let Some((uid, gid, _)) = owner {
        std::os::unix::fs::chown(dir.join("server.log"), Some(*uid), Some(*gid)).unwrap();
    }
    (dir, data, log)
}

/// Starts `postgres` on `data`, its socket in `dir`, from a thread that lives as long as the
/// test binary: the server's parent-death signal comes when that thread ends.
fn run_server(
    bin: PathBuf,
    data: PathBuf,
    dir: PathBuf,
    log: std::fs::File,
    owner: Option<(u32, u32, String)>,
    tcp_port: Option<u16>,
) {
    let (started, ready) = std::sync::mpsc::channel();
    let server_dir = dir;
    std::thread::spawn(move || {
        let mut server = Command::new(bin.join("postgres"));
        server
            .arg("-D")
            .arg(&data)
            .arg("-k")
            .arg(&server_dir)
            .args(match tcp_port {
                // Over TCP, as a database on another machine is reached.
                Some(port) => vec![
                    "-c".to_string(),
                    "listen_addresses=127.0.0.1".to_string(),
                    "-c".to_string(),
                    format!("port={port}"),
                ],
                None => vec!["-c".to_string(), "listen_addresses=".to_string()],
            })
            .args(["-c", "fsync=off"])
            .args(["-c", "synchronous_commit=off", "-c", "full_page_writes=off"])
            .args(["-c", "max_connections=300"])
            .current_dir(&server_dir)
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        as_owner(&mut server, &owner);
        // SAFETY: prctl in the child before exec, after its credentials are set (a change of
        // credentials would clear the signal).
        unsafe {
            server.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGQUIT) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = server.spawn();
        let _ = started.send(child.is_ok());
        if let Ok(mut child) = child {
            let _ = child.wait();
        }
        loop {
            std::thread::park();
        }
    });
    assert!(ready.recv().unwrap(), "postgres starts");
}

/// Clusters left by test binaries no longer running (their server ended with them).
fn remove_stale_clusters() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name.strip_prefix("nimlab-test-pg-").map(|rest| {
            rest.split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap_or("")
        });
        if let Some(pid) = pid
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Cluster {
    fn uri(&self, database: &str) -> String {
        format!(
            "postgresql:///{database}?host={}&user={}",
            self.socket_dir.display(),
            self.user
        )
    }
}

/// A new, empty database on the test cluster: its connection string for `--db`. None when
/// PostgreSQL is missing and its tests are skipped (see `tool_missing`).
pub fn database() -> Option<String> {
    let Some(cluster) = CLUSTER.get_or_init(start).as_ref() else {
        missing("the website on PostgreSQL");
        return None;
    };
    let name = format!(
        "t{}_{}",
        std::process::id(),
        DATABASES.fetch_add(1, Ordering::SeqCst)
    );
    let mut admin = postgres::Client::connect(&cluster.uri("postgres"), postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    Some(cluster.uri(&name))
}

/// Whether the website tests run on PostgreSQL (`NIMLAB_TEST_STORE=postgres`) rather than on
/// an SQLite file.
pub fn chosen() -> bool {
    std::env::var("NIMLAB_TEST_STORE").as_deref() == Ok("postgres")
}

/// A cluster reached over TCP that takes TLS connections only, as a database on another
/// machine should: its certificate names `localhost` and is signed by `ca`; `other_ca` signed
/// nothing of it.
pub struct TlsCluster {
    pub port: u16,
    pub ca: PathBuf,
    pub other_ca: PathBuf,
    pub user: String,
    socket_dir: PathBuf,
}

static TLS_CLUSTER: OnceLock<Option<TlsCluster>> = OnceLock::new();
static TLS_DATABASES: AtomicUsize = AtomicUsize::new(0);

impl TlsCluster {
    /// A new, empty database on it.
    pub fn database(&self) -> String {
        let name = format!(
            "tls{}_{}",
            std::process::id(),
            TLS_DATABASES.fetch_add(1, Ordering::SeqCst)
        );
        let admin_uri = format!(
            "postgresql:///postgres?host={}&port={}&user={}",
            self.socket_dir.display(),
            self.port,
            self.user
        );
        let mut admin = postgres::Client::connect(&admin_uri, postgres::NoTls).unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        name
    }
}

/// The TLS cluster, started on first use; None when PostgreSQL is missing.
pub fn tls_cluster() -> Option<&'static TlsCluster> {
    let cluster = TLS_CLUSTER.get_or_init(start_tls).as_ref();
    if cluster.is_none() {
        missing("the website on PostgreSQL over TLS");
    }
    cluster
}

/// Every test that needed PostgreSQL names itself as skipped (or fails under CI).
fn missing(untested: &str) {
    crate::common::tool_missing("PostgreSQL", "apt-get install postgresql", untested);
}

fn start_tls() -> Option<TlsCluster> {
    let bin = bin_dir()?;
    let (owner, user) = owner_and_user();
    remove_stale_clusters();
    let (dir, data, log) = init(&bin, &owner, &user, "-tls");
    let private = |path: PathBuf, text: String| write_private(&path, &text, &owner);
    let (ca, other_ca) = write_certificates(&dir, &data, &owner);
    let mut conf = std::fs::read_to_string(data.join("postgresql.conf")).unwrap();
    conf.push_str("\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n");
    private(data.join("postgresql.conf"), conf);
    // The socket is for the tests' own set-up; over TCP, TLS or nothing.
    private(
        data.join("pg_hba.conf"),
        "local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostnossl all all 127.0.0.1/32 reject\n"
            .to_string(),
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    run_server(bin, data, dir.clone(), log, owner, Some(port));
    let cluster = TlsCluster {
        port,
        ca,
        other_ca,
        user,
        socket_dir: dir,
    };
    let admin_uri = format!(
        "postgresql:///postgres?host={}&port={port}&user={}",
        cluster.socket_dir.display(),
        cluster.user
    );
    wait_until_up(&admin_uri, &cluster.socket_dir);
    Some(cluster)
}

/// Returns once the server at `uri` answers; after a minute, fails with its log (in `dir`).
fn wait_until_up(uri: &str, dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match postgres::Client::connect(uri, postgres::NoTls) {
            Ok(_) => return,
            Err(e) if Instant::now() > deadline => panic!(
                "PostgreSQL did not start: {e}; log: {}",
                std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
            ),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// Files only the cluster's owner reads (PostgreSQL refuses a key others can read).
fn write_private(path: &Path, text: &str, owner: &Option<(u32, u32, String)>) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    if let Some((uid, gid, _)) = owner {
        std::os::unix::fs::chown(path, Some(*uid), Some(*gid)).unwrap();
    }
}

/// The server's certificate for `localhost` and its key in `data`, signed by an authority
/// written to `dir`/ca.pem; `dir`/other-ca.pem is an authority that signed nothing of it.
fn write_certificates(
    dir: &Path,
    data: &Path,
    owner: &Option<(u32, u32, String)>,
) -> (PathBuf, PathBuf) {
    let authority = |name: &str| {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        let certificate = params.self_signed(&key).unwrap();
        (params, key, certificate)
    };
    let (ca_params, ca_key, ca_certificate) = authority("nimlab test authority");
    let (_, _, other_certificate) = authority("nimlab test authority nobody trusts");
    let server_key = rcgen::KeyPair::generate().unwrap();
    let server_certificate = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(
            &server_key,
            &rcgen::Issuer::from_params(&ca_params, &ca_key),
        )
        .unwrap();
    let ca = dir.join("ca.pem");
    let other_ca = dir.join("other-ca.pem");
    std::fs::write(&ca, ca_certificate.pem()).unwrap();
    std::fs::write(&other_ca, other_certificate.pem()).unwrap();
    write_private(&data.join("server.crt"), &server_certificate.pem(), owner);
    write_private(&data.join("server.key"), &server_key.serialize_pem(), owner);
    (ca, other_ca)
}
