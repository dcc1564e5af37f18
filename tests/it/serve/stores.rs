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
        child,
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
        if let Some(status) = server.child.try_wait().unwrap() {
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
