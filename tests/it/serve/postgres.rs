//! The website on PostgreSQL: a real server the tests start (see `common::postgres`). The
//! rest of the website's tests run on it too with `NIMLAB_TEST_STORE=postgres`; these are
//! what only PostgreSQL has: migrations started at once, several servers, its backup into a
//! file. Several processes judging at once are in `scale`.

use super::scale::Judge;
use super::*;
use crate::common::postgres;

/// A new PostgreSQL database, or None when PostgreSQL is missing and its tests are skipped.
fn database() -> Option<PathBuf> {
    postgres::database().map(PathBuf::from)
}

#[test]
fn processes_started_at_once_on_a_new_database_migrate_it_once() {
    let Some(db) = database() else { return };
    let adds: Vec<_> = (0..6)
        .map(|i| {
            let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
            command
                .args(["users", "add", &format!("student{i}"), "--db"])
                .arg(&db)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            let mut child = command.spawn().unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"a-long-password\n")
                .unwrap();
            child
        })
        .collect();
    for child in adds {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let list = nimlab()
        .args(["users", "list", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&list.stdout);
    for i in 0..6 {
        assert!(list.contains(&format!("student{i}")), "{list}");
    }
}

#[test]
fn a_class_runs_on_postgresql_and_its_backup_is_a_file_a_server_serves() {
    let Some(db) = database() else { return };
    let dir = tempfile::tempdir().unwrap();
    ada_on(&db, dir.path());
    let lab = small_lab();
    let server = Server::start(&db, Some(lab.path()), &["--workers", "1"]);
    // Unlike a file, a PostgreSQL database takes several servers: a second, web only, serves
    // the same class, and what it queues the first one judges.
    let second = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let ada_there = api_login(&second, "ada", "ada-password");
    let queued_there = submit(
        &ada_there,
        &second,
        "present_board",
        &solution("present_board"),
    );
    let judged_there = judged(&ada_there, &second, queued_there);
    assert_eq!(judged_there["verdict"], "accepted", "{judged_there}");
    drop(second);
    let ada = api_login(&server, "ada", "ada-password");
    let id = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let first = judged(&ada, &server, id);
    assert_eq!(first["verdict"], "accepted", "{first}");

    let copy = dir.path().join("copy.db");
    nimlab()
        .args(["backup", "--db"])
        .arg(&db)
        .arg(&copy)
        .assert()
        .success();
    drop(server);
    let server = Server::start(&copy, Some(lab.path()), &["--workers", "0"]);
    let ada = api_login(&server, "ada", "ada-password");
    let (_, again) = get_json(&ada, &server, &format!("/api/submissions/{id}"));
    assert_eq!(again["verdict"], "accepted", "{again}");
    assert_eq!(again["report"], first["report"]);
    drop(server);

    // The backup restored into a new PostgreSQL database: the same course, served from it,
    // and the next submission gets the next id.
    let restored = database().unwrap();
    nimlab()
        .arg("restore")
        .arg(&copy)
        .arg("--db")
        .arg(&restored)
        .assert()
        .success()
        .stdout(predicates::str::contains("row(s)"));
    let server = Server::start(&restored, Some(lab.path()), &["--workers", "1"]);
    let ada = api_login(&server, "ada", "ada-password");
    let (_, again) = get_json(&ada, &server, &format!("/api/submissions/{id}"));
    assert_eq!(again["report"], first["report"]);
    let next = submit(&ada, &server, "present_board", &solution("present_board"));
    assert!(next > id && next > queued_there, "{next}");
    assert_eq!(judged(&ada, &server, next)["verdict"], "accepted");
    drop(server);
}

/// Imports a roster of ada (password `ada-password`) into `db`; the roster's path, in `dir`.
fn ada_on(db: &Path, dir: &Path) -> PathBuf {
    let roster = dir.join("roster.csv");
    std::fs::write(&roster, "username,password\nada,ada-password\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(db)
        .assert()
        .success();
    roster
}

/// `nimlab restore` never writes over a course, never reads what is not a backup, never
/// writes into a file; each is refused with exit 2, saying so, and nothing is written.
#[test]
fn restore_refuses_a_course_a_file_and_what_is_not_a_backup() {
    let Some(db) = database() else { return };
    let dir = tempfile::tempdir().unwrap();
    let roster = ada_on(&db, dir.path());
    let copy = dir.path().join("copy.db");
    nimlab()
        .args(["backup", "--db"])
        .arg(&db)
        .arg(&copy)
        .assert()
        .success();
    let restored = database().unwrap();
    nimlab()
        .arg("restore")
        .arg(&copy)
        .arg("--db")
        .arg(&restored)
        .assert()
        .success();
    let before = std::fs::read(&copy).unwrap();
    // Never over a course, never from what is not a backup, never into a file; each says so
    // and writes nothing.
    let refused = |backup: &Path, db: &Path, words: &[&str]| {
        let out = nimlab()
            .arg("restore")
            .arg(backup)
            .arg("--db")
            .arg(db)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        for word in words {
            assert!(stderr.contains(word), "no {word:?} in {stderr}");
        }
    };
    refused(
        &copy,
        &restored,
        &["holds a course already", "nothing was written"],
    );
    refused(
        &roster,
        &database().unwrap(),
        &["roster.csv", "not an SQLite database"],
    );
    refused(
        &copy,
        &dir.path().join("class.db"),
        &["an SQLite file", "cp BACKUP"],
    );
    let users = users_list(restored.to_str().unwrap());
    assert_eq!(String::from_utf8_lossy(&users.stdout).lines().count(), 1);
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the backup was changed"
    );
}

#[test]
fn a_password_in_the_connection_string_is_never_printed() {
    // Nothing listens there: the connection fails, and its message names the database.
    let db = "postgresql://nimlab:s3cret-pw@127.0.0.1:9/class";
    let out = nimlab()
        .args(["users", "list", "--db", db])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("postgresql://nimlab:***@127.0.0.1:9/class"),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret-pw"), "{stderr}");
}

#[test]
fn the_queue_page_lists_a_judge_whose_lab_differs_and_uploads_wait_for_one_that_matches() {
    let Some(db) = database() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = populated(db, dir.path());
    let lab = small_lab();
    let web = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let other_lab = lab_with(&["present_board", "exclusive_or"], |config| {
        config.insert("points".into(), toml::Value::Integer(7));
    });
    let stranger = Judge::start(db.to_str().unwrap(), other_lab.path(), 1);
    let ada = api_login(&web, "ada", "ada-password");
    let id = submit(&ada, &web, "exclusive_or", &solution("exclusive_or"));
    let prof = form_login(&web, "prof", "prof-password");
    let start = Instant::now();
    let page = loop {
        let (_, page) = text(&prof, &web, "/queue");
        if page.contains("refuses") || page.contains("is not the one the website serves") {
            break page;
        }
        assert!(start.elapsed() < JUDGING, "{page}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(page.contains("Servers and judges"), "{page}");
    assert!(page.contains("No judge is taking jobs"), "{page}");
    assert!(
        stranger.stderr().contains("refuses jobs: this judge's lab"),
        "{}",
        stranger.stderr()
    );
    std::thread::sleep(Duration::from_secs(1));
    let (_, waiting) = get_json(&ada, &web, &format!("/api/submissions/{id}"));
    assert_eq!(waiting["status"], "queued", "{waiting}");
    // A judge with the website's lab takes it.
    let matching = Judge::start(db.to_str().unwrap(), lab.path(), 1);
    let done = judged(&ada, &web, id);
    assert_eq!(done["verdict"], "accepted", "{done}");
    // Idle now, it is woken by the next upload's NOTIFY: well before its 30 s poll.
    std::thread::sleep(Duration::from_secs(2));
    let started = Instant::now();
    let next = submit(&ada, &web, "exclusive_or", &solution("exclusive_or"));
    assert_eq!(judged(&ada, &web, next)["verdict"], "accepted");
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    let (_, page) = text(&prof, &web, "/queue");
    assert!(!page.contains("No judge is taking jobs"), "{page}");
    drop(matching);
}

fn users_list(db: &str) -> std::process::Output {
    nimlab()
        .args(["users", "list", "--db", db])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

fn works(db: String) {
    let out = users_list(&db);
    assert!(
        out.status.success(),
        "{db}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn refused(db: String, why: &str) {
    let out = users_list(&db);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{db} was taken");
    assert!(stderr.contains(why), "{db}: {stderr}");
}

/// A database on another machine, reached over TCP by a server that takes TLS only: each
/// `sslmode` encrypts and checks the certificate as libpq's does, and a refusal says why.
#[test]
fn a_database_reached_over_tcp_is_encrypted_and_its_certificate_checked_as_sslmode_asks() {
    let Some(cluster) = postgres::tls_cluster() else {
        return;
    };
    let name = cluster.database();
    let uri = |host: &str, query: &str| {
        format!(
            "postgresql://{}@{host}:{}/{name}?{query}",
            cluster.user, cluster.port
        )
    };
    let ca = cluster.ca.display().to_string();
    let other_ca = cluster.other_ca.display().to_string();
    // The first connection makes the schema, over TLS, with the certificate checked in full.
    nimlab()
        .args(["users", "add", "ada", "--db"])
        .arg(uri(
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ))
        .write_stdin("a-long-password\n")
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    // libpq's default (prefer) and require encrypt without checking the certificate.
    works(uri("127.0.0.1", ""));
    works(uri("127.0.0.1", "sslmode=require"));
    // verify-ca checks who signed it, not the name: 127.0.0.1 is not in it.
    works(uri(
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={ca}"),
    ));
    refused(
        uri(
            "127.0.0.1",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ),
        "not valid for",
    );
    refused(
        uri(
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={other_ca}"),
        ),
        "UnknownIssuer",
    );
    // require with a root certificate checks it, as libpq's does.
    refused(
        uri(
            "localhost",
            &format!("sslmode=require&sslrootcert={other_ca}"),
        ),
        "UnknownIssuer",
    );
    // Without TLS this server refuses, and the message gives its reason.
    refused(uri("localhost", "sslmode=disable"), "no encryption");
    // What nimlab cannot use is said before anything is sent.
    refused(
        uri("localhost", "sslmode=verify-full"),
        "sslmode=verify-full needs sslrootcert",
    );
    refused(
        uri(
            "localhost",
            "sslmode=verify-full&sslrootcert=/no/such/ca.pem",
        ),
        "/no/such/ca.pem",
    );
    let out = users_list(&uri(
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ada"));
}

/// A PostgreSQL that cannot be reached or refuses the connection: exit 2 (the setting, not
/// nimlab, is at fault), the cause, and what to check for it.
#[test]
fn a_database_that_cannot_be_reached_says_why_and_what_to_check() {
    let told = |db: &str, words: &[&str]| {
        let out = users_list(db);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{db}: {stderr}");
        for word in words {
            assert!(stderr.contains(word), "{db}: no {word:?} in {stderr}");
        }
    };
    told(
        "postgresql://nimlab@127.0.0.1:9/class",
        &["Connection refused", "listening on that address and port"],
    );
    let nowhere = tempfile::tempdir().unwrap();
    told(
        &format!("postgresql:///class?host={}", nowhere.path().display()),
        &["no server socket in that folder", "/run/postgresql"],
    );
    let Some(db) = postgres::database() else {
        return;
    };
    // The test cluster's own socket, with a database and then a user it does not have.
    let (path, query) = db.split_once('?').unwrap();
    let (server, _) = path.rsplit_once('/').unwrap();
    told(
        &format!("{server}/no_such_database?{query}"),
        &["does not exist", "createdb"],
    );
    let query: Vec<&str> = query
        .split('&')
        .filter(|part| !part.starts_with("user="))
        .collect();
    told(
        &format!("{path}?{}&user=no_such_user", query.join("&")),
        &["no_such_user", "pg_hba.conf"],
    );
}
