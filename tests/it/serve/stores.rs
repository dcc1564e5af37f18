//! Results that cannot be stored, and a database that cannot be written.

use super::*;

/// `nimlab serve` with `env` set: the test-only fault switches (`NIMLAB_FAULT_*`, see
/// src/serve/queue.rs).
fn start_with_env(db: &Path, lab: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
    let stderr = stderr_file(db);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("nimlab"))
        .arg("--lab")
        .arg(lab)
        .arg("serve")
        .arg("--db")
        .arg(db)
        .args(["--listen", "127.0.0.1:0"])
        .args(extra)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("nimlab serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("nimlab serve: listening on ")
        .unwrap_or_else(|| panic!("not an address: {line:?}"))
        .to_string();
    Server {
        child: Some(child),
        site: None,
        base,
        stderr,
    }
}

/// Stores fail fast: the waits between tries are counted in 20 ms, not seconds.
const FAST: (&str, &str) = ("NIMLAB_FAULT_BACKOFF_MS", "20");

#[test]
fn a_result_that_cannot_be_stored_at_first_is_stored_when_it_can() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let failures = ("NIMLAB_FAULT_STORE_FAILURES", "2");
    let server = start_with_env(&db, lab.path(), &["--workers", "1"], &[failures, FAST]);
    let ada = api_login(&server, "ada", "ada-password");
    let id = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let judged = judged(&ada, &server, id);
    assert_eq!(judged["status"], "done", "{judged}");
    assert_eq!(judged["verdict"], "accepted", "{judged}");
    let stderr = server.stderr();
    let logged = format!("cannot store the result of submission {id} (trying again");
    assert_eq!(stderr.matches(&logged).count(), 2, "{stderr}");
}

#[test]
fn a_result_that_cannot_be_stored_ends_failed_as_nimlabs_fault_with_the_reason_for_instructors() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    // Five tries at the result, one at marking it failed, one more in the background.
    let failures = ("NIMLAB_FAULT_STORE_FAILURES", "7");
    let server = start_with_env(&db, lab.path(), &["--workers", "1"], &[failures, FAST]);
    let ada = api_login(&server, "ada", "ada-password");
    let id = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let start = Instant::now();
    let judged = judged(&ada, &server, id);
    // Waits of 1+2+4+8 units, then 16 in the background: well under the 40 s bound.
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(judged["status"], "failed", "{judged}");
    let error = judged["error"].as_str().unwrap();
    assert!(error.contains("not your fault"), "{judged}");
    assert!(!error.contains("store"), "{judged}");
    let (status, page) = text(&ada, &server, &format!("/submissions/{id}"));
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("not your fault"), "{page}");
    assert!(!page.contains("could not store"), "{page}");

    let prof = api_login(&server, "prof", "prof-password");
    let (_, seen) = get_json(&prof, &server, &format!("/api/submissions/{id}"));
    let reason = seen["error"].as_str().unwrap();
    assert!(
        reason.contains("could not store its result") && reason.contains("judge it again"),
        "{seen}"
    );
    let (_, page) = text(&prof, &server, &format!("/submissions/{id}"));
    assert!(page.contains("could not store its result"), "{page}");
    let stderr = server.stderr();
    assert_eq!(
        stderr
            .matches(&format!("cannot store the result of submission {id}"))
            .count(),
        5,
        "{stderr}"
    );
    assert_eq!(
        stderr
            .matches(&format!("cannot store the failure of submission {id}"))
            .count(),
        2,
        "{stderr}"
    );
}

/// Files made immutable (`chattr +i`) for as long as this lives; None where that cannot be
/// done (not root, or a file system without the attribute).
struct Immutable(PathBuf);

impl Immutable {
    fn make(path: &Path) -> Option<Immutable> {
        let done = Command::new("chattr")
            .arg("+i")
            .arg(path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        // Written back, so the next store into a mapped page of it asks the file system.
        // SAFETY: sync takes no arguments and cannot fail.
        unsafe { libc::sync() };
        done.then(|| Immutable(path.to_path_buf()))
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

/// Makes `journal` (`class.db-wal` or `class.db-shm`) immutable under a server that has
/// stored a submission, uploads again, and checks that the server stops with a message
/// naming the database and exit status 3, not by a signal; then that nothing acknowledged
/// was lost. False where files cannot be made immutable.
#[cfg(unix)]
fn an_unwritable_journal_stops_the_server(journal: &str, message: &str) -> bool {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let mut server = start_with_env(&db, lab.path(), &["--workers", "0"], &[]);
    let ada = api_login(&server, "ada", "ada-password");
    let id = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let Some(immutable) = Immutable::make(&dir.path().join(journal)) else {
        eprintln!("skipped: chattr +i is not available here");
        return false;
    };
    let form = multipart::Form::new()
        .text("exercise", "exclusive_or")
        .part(
            "file",
            multipart::Part::bytes(std::fs::read(solution("exclusive_or")).unwrap())
                .file_name("exclusive_or.py"),
        );
    // Refused (500) or cut off by the server stopping: either way not acknowledged.
    if let Ok(response) = ada
        .post(server.url("/api/submissions"))
        .multipart(form)
        .send()
    {
        assert_ne!(response.status(), StatusCode::ACCEPTED);
    }
    let stopped = Instant::now();
    let status = loop {
        if let Some(status) = server.child().try_wait().unwrap() {
            break status;
        }
        assert!(
            stopped.elapsed() < JUDGING,
            "still running\n{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = server.stderr();
    assert_eq!(status.signal(), None, "{status:?}\n{stderr}");
    assert_eq!(status.code(), Some(3), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
    assert!(stderr.contains(&db.display().to_string()), "{stderr}");
    drop(immutable);
    let server = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let ada = api_login(&server, "ada", "ada-password");
    let (status, kept) = get_json(&ada, &server, &format!("/api/submissions/{id}"));
    assert_eq!(status, StatusCode::OK, "{kept}");
    true
}

#[cfg(unix)]
#[test]
fn a_database_that_can_no_longer_be_written_stops_the_server_with_a_message() {
    // Its writes fail (EPERM): SQLite reports the error.
    if !an_unwritable_journal_stops_the_server("class.db-wal", "can no longer be written") {
        return;
    }
    // A store into its memory-mapped index is answered with SIGBUS.
    an_unwritable_journal_stops_the_server("class.db-shm", "(SIGBUS)");
}

/// The statements of the repository's migrations 1 to `version` for `store` (`sqlite` or
/// `postgres`): the schema as the build that stopped at `version` made it.
fn migrations_up_to(store: &str, version: usize) -> Vec<String> {
    let folder = root().join("crates/nimlab-web/migrations").join(store);
    let names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    (1..=version)
        .map(|v| {
            let name = names
                .iter()
                .find(|n| n.starts_with(&format!("V{v}__")))
                .unwrap_or_else(|| panic!("no migration {v} in {}", folder.display()));
            std::fs::read_to_string(folder.join(name)).unwrap()
        })
        .collect()
}

/// A class as the build before the roster's `lms_client_id` (schema 9) kept it: ada, linked
/// to an LMS user, with a judged submission, in either store's words.
fn class_before(store: &str) -> String {
    let source = if store == "sqlite" {
        "X'7072696E742829'"
    } else {
        "'\\x7072696E742829'::bytea"
    };
    format!(
        "INSERT INTO users (username, name, role, password_hash, created_at, lms_id, lms_issuer, email)
             VALUES ('ada', 'Ada Lovelace', 'student', '', 1, '7', 'https://lms.example', 'ada@uni.example');
         INSERT INTO lti_platforms (issuer, client_id, auth_url, jwks_url, token_url, created_at)
             VALUES ('https://lms.example', 'c1', 'https://lms.example/auth', 'https://lms.example/jwks',
                     'https://lms.example/token', 1);
         INSERT INTO lti_identities (platform_id, subject, user_id)
             SELECT p.id, '7', u.id FROM lti_platforms p, users u WHERE u.username = 'ada';
         INSERT INTO submissions (user_id, exercise, filename, source, status, submitted_at, finished_at,
                                  verdict, score, max_score)
             SELECT id, 'present_board', 'present_board.py', {source}, 'done', 1, 1, 'accepted', 5, 5
             FROM users WHERE username = 'ada';"
    )
}

#[test]
fn a_database_the_build_before_made_opens_and_upgrades_with_its_data_on_both_stores() {
    const BEFORE: usize = 9;
    let dir = tempfile::tempdir().unwrap();
    let mut stores: Vec<PathBuf> = Vec::new();
    // SQLite: the file's user_version is its schema.
    let file = dir.path().join("before.db");
    {
        let old = rusqlite::Connection::open(&file).unwrap();
        for step in migrations_up_to("sqlite", BEFORE) {
            old.execute_batch(&step).unwrap();
        }
        old.execute_batch(&format!("PRAGMA user_version = {BEFORE};"))
            .unwrap();
        old.execute_batch(&class_before("sqlite")).unwrap();
    }
    stores.push(file);
    // PostgreSQL: a table of nimlab's holds it.
    if let Some(uri) = crate::common::postgres::database() {
        let mut old = ::postgres::Client::connect(&uri, ::postgres::NoTls).unwrap();
        for step in migrations_up_to("postgres", BEFORE) {
            old.batch_execute(&step).unwrap();
        }
        old.batch_execute(&format!(
            "CREATE TABLE nimlab_schema (version BIGINT NOT NULL);
             INSERT INTO nimlab_schema (version) VALUES ({BEFORE});"
        ))
        .unwrap();
        old.batch_execute(&class_before("postgres")).unwrap();
        stores.push(PathBuf::from(uri));
    }
    for db in &stores {
        // Opened by this build: upgraded, ada and her LMS link kept, and the new column used.
        let listed = nimlab()
            .args(["users", "list", "--db"])
            .arg(db)
            .assert()
            .success();
        let out = String::from_utf8_lossy(&listed.get_output().stdout).to_string();
        assert!(out.contains("ada") && out.contains("Ada Lovelace"), "{out}");
        let roster = dir.path().join("roster.csv");
        std::fs::write(
            &roster,
            "username,lms_id,lms_issuer,lms_client_id\nbo,8,https://lms.example,c1\n",
        )
        .unwrap();
        let credentials = dir
            .path()
            .join(format!("credentials-{}.csv", rand_suffix()));
        nimlab()
            .args(["users", "import"])
            .arg(&roster)
            .arg("--credentials")
            .arg(&credentials)
            .arg("--db")
            .arg(db)
            .assert()
            .success();
        nimlab()
            .args(["users", "passwd", "ada", "--db"])
            .arg(db)
            .write_stdin("ada-password\n")
            .assert()
            .success();
        // Her judged submission is hers on the website.
        let server = Server::in_process(db, None, 0);
        let ada = api_login(&server, "ada", "ada-password");
        let (status, list) = get_json(&ada, &server, "/api/submissions?exercise=present_board");
        assert_eq!(status, StatusCode::OK, "{list}");
        assert!(list.to_string().contains("accepted"), "{list}");
    }
}
