//! `nimlab serve` over HTTP: the real binary on port 0 with a real SQLite file, driven by an
//! HTTP client as a browser or a script would.

use crate::common::{lab_with, nimlab, root};
use reqwest::StatusCode;
use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use web::{Client, Response, multipart};

mod accessibility;
mod connections;
mod deadlines;
mod guide;
mod instructors;
mod lab_files;
mod logins;
mod lti;
mod lti_peer;
mod postgres;
mod scale;
mod staff;
mod stores;
mod usability;
mod web;

/// Long enough for a slow, shared machine; every wait is bounded.
const JUDGING: Duration = Duration::from_secs(40);

/// The website under test: a running `nimlab serve` on a port, killed when dropped, or the
/// site in this process ([`Server::in_process`]), stopped when dropped.
struct Server {
    child: Option<Child>,
    /// Kept for its lifetime: the clients find it by the host of [`Server::base`].
    site: Option<std::sync::Arc<web::InProcess>>,
    base: String,
    stderr: PathBuf,
}

impl Server {
    /// The site in this process, as `nimlab [--lab LAB] serve --db DB --workers N` would
    /// serve it, its router called without a listener: for tests of what the site answers,
    /// not of its connections, its log or its process.
    fn in_process(db: &Path, lab: Option<&Path>, workers: usize) -> Server {
        Server::in_process_with(db, lab, |options| options.workers = workers)
    }

    /// [`Server::in_process`] with the options `set` chooses (`--max-queued` and so on).
    fn in_process_with(
        db: &Path,
        lab: Option<&Path>,
        set: impl FnOnce(&mut nimlab_web::ServeOptions),
    ) -> Server {
        let lab = nimlab_core::lab::Lab::load(lab).expect("the lab loads");
        let mut options = nimlab_web::ServeOptions::new(db.to_path_buf());
        set(&mut options);
        let site = web::InProcess::open(lab, &options)
            .unwrap_or_else(|e| panic!("the site opens on {}: {e}", db.display()));
        Server {
            child: None,
            base: site.base(),
            site: Some(site),
            stderr: PathBuf::new(),
        }
    }

    fn start(db: &Path, lab: Option<&Path>, extra: &[&str]) -> Server {
        let stderr = stderr_file(db);
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
        if let Some(lab) = lab {
            command.arg("--lab").arg(lab);
        }
        command
            .arg("serve")
            .arg("--db")
            .arg(db)
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .env("NO_COLOR", "1");
        Server::spawn(command, stderr)
    }

    /// Starts `command`, a `nimlab serve` (perhaps through a wrapper), its stderr to `stderr`.
    fn spawn(mut command: Command, stderr: PathBuf) -> Server {
        command
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap());
        let mut child = command.spawn().expect("nimlab serve starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server prints its address");
        let base = line
            .trim()
            .strip_prefix("nimlab serve: listening on ")
            .unwrap_or_else(|| {
                panic!(
                    "not an address: {line:?}; stderr: {}",
                    std::fs::read_to_string(&stderr).unwrap_or_default()
                )
            })
            .to_string();
        Server {
            child: Some(child),
            site: None,
            base,
            stderr,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn stderr(&self) -> String {
        if self.site.is_some() {
            return "(the site runs in the test's process: its messages are the test's)".into();
        }
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// The server's process.
    fn child(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("a nimlab serve process, not a site in-process")
    }

    /// SIGKILL: no clean-up of any kind.
    fn kill(mut self) -> u32 {
        let child = self.child();
        let pid = child.id();
        child.kill().unwrap();
        child.wait().unwrap();
        pid
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Where a server's stderr goes: beside its database file, or in the temporary folder for
/// a PostgreSQL database.
fn stderr_file(db: &Path) -> PathBuf {
    if db.is_absolute() {
        db.with_extension(format!("stderr-{}", rand_suffix()))
    } else {
        std::env::temp_dir().join(format!("nimlab-serve-stderr-{}", rand_suffix()))
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// A client with its own cookies that does not follow redirects (so tests see them).
fn client() -> Client {
    Client::new()
}

/// A class database: ada and grace (students), prof (instructor), all with passwords. An
/// SQLite file in `dir`, or with `NIMLAB_TEST_STORE=postgres` a new PostgreSQL database.
fn class_db(dir: &Path) -> PathBuf {
    populated(store(dir), dir)
}

/// `db` with ada, grace and prof (its roster written in `dir`).
fn populated(db: PathBuf, dir: &Path) -> PathBuf {
    let roster = dir.join("roster.csv");
    std::fs::write(
        &roster,
        "username,name,password\nada,Ada Lovelace,ada-password\ngrace,Grace Hopper,grace-password\n",
    )
    .unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    nimlab()
        .args(["users", "add", "prof", "--instructor", "--db"])
        .arg(&db)
        .write_stdin("prof-password\n")
        .assert()
        .success();
    db
}

/// An empty database for the website: `class.db` in `dir`, or with
/// `NIMLAB_TEST_STORE=postgres` a new database on the tests' PostgreSQL server.
fn store(dir: &Path) -> PathBuf {
    if crate::common::postgres::chosen()
        && let Some(uri) = crate::common::postgres::database()
    {
        return PathBuf::from(uri);
    }
    dir.join("class.db")
}

/// A small lab for fast judging: two exercises, Python 3 only.
fn small_lab() -> tempfile::TempDir {
    lab_with(&["present_board", "exclusive_or"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    })
}

fn api_login(server: &Server, username: &str, password: &str) -> Client {
    let client = client();
    let response = client
        .post(server.url("/api/login"))
        .json(&serde_json::json!({ "username": username, "password": password }))
        .send()
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{}",
        response.text().unwrap()
    );
    client
}

fn upload(
    client: &Client,
    server: &Server,
    exercise: &str,
    filename: &str,
    bytes: Vec<u8>,
) -> Response {
    let form = multipart::Form::new()
        .text("exercise", exercise.to_string())
        .part(
            "file",
            multipart::Part::bytes(bytes).file_name(filename.to_string()),
        );
    client
        .post(server.url("/api/submissions"))
        .multipart(form)
        .send()
        .unwrap()
}

fn submit(client: &Client, server: &Server, exercise: &str, file: &Path) -> i64 {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let response = upload(
        client,
        server,
        exercise,
        &name,
        std::fs::read(file).unwrap(),
    );
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let body: Value = response.json().unwrap();
    body["id"].as_i64().expect("an id")
}

fn solution(exercise: &str) -> PathBuf {
    root().join("exercises").join(exercise).join("solution.py")
}

fn get_json(client: &Client, server: &Server, path: &str) -> (StatusCode, Value) {
    let response = client.get(server.url(path)).send().unwrap();
    let status = response.status();
    (status, response.json().unwrap_or(Value::Null))
}

/// Waits until the submission is judged; returns it.
fn judged(client: &Client, server: &Server, id: i64) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = get_json(client, server, &format!("/api/submissions/{id}"));
        assert_eq!(status, StatusCode::OK, "{body}");
        if body["status"] == "done" || body["status"] == "failed" {
            return body;
        }
        assert!(
            start.elapsed() < JUDGING,
            "submission {id} not judged in time: {body}\n{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The value of the first hidden `csrf` field of a page.
fn csrf_of(page: &str) -> String {
    let marker = "name=\"csrf\" value=\"";
    let start = page.find(marker).expect("a form with a token") + marker.len();
    page[start..start + page[start..].find('"').unwrap()].to_string()
}

/// Logs in through the login form, as a browser does.
fn form_login(server: &Server, username: &str, password: &str) -> Client {
    let client = client();
    let page = client
        .get(server.url("/login"))
        .send()
        .unwrap()
        .text()
        .unwrap();
    let token = csrf_of(&page);
    let response = client
        .post(server.url("/login"))
        .form(&[
            ("username", username),
            ("password", password),
            ("csrf", &token),
            ("next", "/exercises"),
        ])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/exercises");
    client
}

fn text(client: &Client, server: &Server, path: &str) -> (StatusCode, String) {
    let response = client.get(server.url(path)).send().unwrap();
    (response.status(), response.text().unwrap())
}

#[test]
// A story told in order: one student's visit walked end to end, each step depending on the last.
#[allow(clippy::too_many_lines)]
fn a_student_logs_in_submits_and_reads_the_same_report_check_gives() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 2);

    let wrong = client()
        .post(server.url("/api/login"))
        .json(&serde_json::json!({"username": "ada", "password": "not-her-password"}))
        .send()
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let (status, _) = get_json(&client(), &server, "/api/exercises");
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let ada = api_login(&server, "ada", "ada-password");
    let (_, exercises) = get_json(&ada, &server, "/api/exercises");
    let names: Vec<&str> = exercises
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[..3], ["present_board", "make_move", "exclusive_or"]);
    assert_eq!(names.len(), 11);
    assert_eq!(names[9..], ["misere_move", "misere_game"]);
    assert_eq!(exercises[9]["optional"], true);
    assert_eq!(exercises[0]["optional"], false);

    let good = submit(&ada, &server, "present_board", &solution("present_board"));
    let bad = submit(
        &ada,
        &server,
        "present_board",
        &root().join("tests/submissions/debug_print/present_board.py"),
    );
    let good = judged(&ada, &server, good);
    assert_eq!(good["status"], "done");
    assert_eq!(good["student"], "ada");
    assert_eq!(good["verdict"], "accepted", "{good}");
    assert_eq!(good["score"], good["max_score"]);

    // The report is the object `nimlab check --format json` prints for the same file.
    let (cli, _) = crate::common::check_json(&[solution("present_board").to_str().unwrap()]);
    let report = &good["report"];
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(report), keys(&cli));
    assert_eq!(report["verdict"], cli["verdict"]);
    assert_eq!(report["score"], cli["score"]);
    assert_eq!(report["submission"], "solution.py");
    let case_names = |v: &Value| -> Vec<String> {
        v["runs"][0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(case_names(report), case_names(&cli));

    let bad = judged(&ada, &server, bad);
    assert_eq!(bad["verdict"], "wrong_answer");
    for run in bad["report"]["runs"].as_array().unwrap() {
        for case in run["cases"].as_array().unwrap() {
            if case["visibility"] == "secret" {
                assert!(
                    case.get("feedback").is_none() && case["message"] == "",
                    "{case}"
                );
            }
        }
    }
    let hints = crate::common::all_hints(&bad["report"]);
    assert!(
        hints.iter().any(|h| h.contains("remove debug prints")),
        "{hints:?}"
    );
    // Tracebacks and messages never show the server's private folder.
    assert!(!bad.to_string().contains("nimlab-"), "{bad}");

    // The same report as a page: the sample's feedback with its hint, secret cases bare.
    let form_client = form_login(&server, "ada", "ada-password");
    let id = bad["id"].as_i64().unwrap();
    let (status, page) = text(&form_client, &server, &format!("/submissions/{id}"));
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("remove debug prints"), "{page}");
    assert!(page.contains("sample/01-four-rows"));
    assert!(page.contains("secret/01-single-element"));
    assert!(page.contains("First difference, line 1"));

    let (_, list) = get_json(&ada, &server, "/api/submissions?exercise=present_board");
    assert_eq!(list.as_array().unwrap().len(), 2);
    let (_, none) = get_json(&ada, &server, "/api/submissions?exercise=make_move");
    assert_eq!(none.as_array().unwrap().len(), 0);

    // The exercise list shows the best verdict.
    let (_, exercises) = get_json(&ada, &server, "/api/exercises");
    assert_eq!(exercises[0]["best"]["verdict"], "accepted");

    // A traceback names the file alone, never a private folder of the server's; the report
    // names the file as it was uploaded.
    let crash = b"import sys\nsys.stdin.read()\nraise ValueError('boom')\n".to_vec();
    let response = upload(&ada, &server, "exclusive_or", "mine.py", crash);
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let id = response.json::<Value>().unwrap()["id"].as_i64().unwrap();
    let crash = judged(&ada, &server, id);
    assert_eq!(crash["verdict"], "runtime_error", "{crash}");
    assert_eq!(crash["report"]["submission"], "mine.py", "{crash}");
    let shown = crash["report"].to_string();
    assert!(
        shown.contains(r#"File \"exclusive_or.py\", line 3"#),
        "{shown}"
    );
    assert!(
        !shown.contains("nimlab-") && !shown.contains("/tmp/"),
        "{shown}"
    );
}

#[test]
fn the_pages_take_a_student_from_login_to_a_verdict_without_javascript() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 1);

    // Not logged in: sent to the login page, and back afterwards.
    let visitor = client();
    let response = visitor
        .get(server.url("/exercises/exclusive_or"))
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()["location"],
        "/login?next=/exercises/exclusive_or"
    );

    let ada = form_login(&server, "ada", "ada-password");
    let (status, list) = text(&ada, &server, "/exercises");
    assert_eq!(status, StatusCode::OK);
    assert!(list.contains("Present the board") && list.contains("not submitted"));
    let (_, page) = text(&ada, &server, "/exercises/exclusive_or");
    assert!(page.contains("<h1>"), "the statement is rendered: {page}");
    assert!(page.contains("enctype=\"multipart/form-data\""));
    let starter = ada
        .get(server.url("/exercises/exclusive_or/starter"))
        .send()
        .unwrap();
    assert_eq!(starter.status(), StatusCode::OK);
    assert!(
        starter.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("exclusive_or.py")
    );
    let stub = starter.text().unwrap();
    assert_eq!(
        stub,
        std::fs::read_to_string(root().join("exercises/exclusive_or/stub.py")).unwrap()
    );

    // Paste the program instead of choosing a file.
    let token = csrf_of(&page);
    let form = multipart::Form::new()
        .text("csrf", token)
        .text(
            "source",
            std::fs::read_to_string(solution("exclusive_or")).unwrap(),
        )
        .part("file", multipart::Part::bytes(Vec::new()).file_name(""));
    let response = ada
        .post(server.url("/exercises/exclusive_or/submit"))
        .multipart(form)
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert!(location.starts_with("/submissions/"), "{location}");

    // While pending, the page refreshes itself without JavaScript and polls with it.
    let (_, pending) = text(&ada, &server, &location);
    if !pending.contains("Accepted") {
        assert!(pending.contains("http-equiv=\"refresh\""), "{pending}");
        assert!(pending.contains("data-poll=\"/api/submissions/"));
    }
    let start = Instant::now();
    let page = loop {
        let (_, page) = text(&ada, &server, &location);
        if !page.contains("data-poll") {
            break page;
        }
        assert!(start.elapsed() < JUDGING, "{}", server.stderr());
        std::thread::sleep(Duration::from_millis(300));
    };
    assert!(page.contains("Accepted"), "{page}");
    assert!(page.contains("exclusive_or.py"));
    assert!(!page.contains("http-equiv=\"refresh\""));

    let (_, history) = text(&ada, &server, "/submissions");
    assert!(history.contains(&format!("href=\"{location}\"")));
}

#[test]
fn a_pasted_program_is_kept_with_lf_line_ends_and_an_uploaded_file_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = form_login(&server, "ada", "ada-password");
    let solution_text = std::fs::read_to_string(solution("exclusive_or")).unwrap();
    let crlf = solution_text.replace('\n', "\r\n");
    let source_of = |location: &str| {
        ada.get(server.url(&format!("{location}/source")))
            .send()
            .unwrap()
            .bytes()
            .unwrap()
            .to_vec()
    };
    let post = |form: multipart::Form| {
        let response = ada
            .post(server.url("/exercises/exclusive_or/submit"))
            .multipart(form)
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        response.headers()["location"].to_str().unwrap().to_string()
    };
    // Pasted into the text area (browsers send its lines ended by CRLF).
    let (_, page) = text(&ada, &server, "/exercises/exclusive_or");
    let pasted = post(
        multipart::Form::new()
            .text("csrf", csrf_of(&page))
            .text("source", crlf.clone())
            .part("file", multipart::Part::bytes(Vec::new()).file_name("")),
    );
    assert_eq!(source_of(&pasted), solution_text.as_bytes());
    // A file is kept byte for byte.
    let (_, page) = text(&ada, &server, "/exercises/exclusive_or");
    let uploaded = post(multipart::Form::new().text("csrf", csrf_of(&page)).part(
        "file",
        multipart::Part::bytes(crlf.clone().into_bytes()).file_name("exclusive_or.py"),
    ));
    assert_eq!(source_of(&uploaded), crlf.as_bytes());
}

/// `text` without its long hex runs (a CSRF token may spell `ada` by chance).
fn without_tokens(text: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        if run.len() < 32 {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    if run.len() < 32 {
        out.push_str(&run);
    }
    out
}

#[test]
// A story told in order: every route tried in turn against the one pair of students it sets up.
#[allow(clippy::too_many_lines)]
fn a_student_reaches_no_other_students_submission_on_any_route() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    // No workers: the submissions stay queued, which is all this test needs.
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = api_login(&server, "ada", "ada-password");
    let grace = form_login(&server, "grace", "grace-password");
    let prof = form_login(&server, "prof", "prof-password");
    let id = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let mine = submit(&grace, &server, "exclusive_or", &solution("exclusive_or"));

    for path in [
        format!("/api/submissions/{id}"),
        format!("/submissions/{id}"),
        format!("/submissions/{id}/source"),
    ] {
        let response = grace.get(server.url(&path)).send().unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body = without_tokens(&response.text().unwrap());
        assert!(!body.contains("ada"), "{path}: {body}");
        // The instructor sees it.
        let response = prof.get(server.url(&path)).send().unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    // Her own are hers.
    let (status, _) = get_json(&grace, &server, &format!("/api/submissions/{mine}"));
    assert_eq!(status, StatusCode::OK);
    // Lists hold only her own, even when she asks for another student's.
    for path in [
        "/api/submissions",
        "/api/submissions?exercise=exclusive_or",
        "/api/submissions?student=ada",
    ] {
        let (_, list) = get_json(&grace, &server, path);
        let ids: Vec<i64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, vec![mine], "{path}");
    }
    for path in ["/submissions", "/submissions?student=ada"] {
        let (_, page) = text(&grace, &server, path);
        assert!(
            !page.contains(&format!("href=\"/submissions/{id}\"")),
            "{path}"
        );
        assert!(
            page.contains(&format!("href=\"/submissions/{mine}\"")),
            "{path}"
        );
    }
    let (_, everyone) = get_json(
        &api_login(&server, "prof", "prof-password"),
        &server,
        "/api/submissions",
    );
    assert_eq!(everyone.as_array().unwrap().len(), 2);

    // Instructor pages and actions are refused to students.
    for path in [
        "/class",
        "/queue",
        "/downloads",
        "/downloads/gradebook.csv",
        "/downloads/results.json",
    ] {
        let response = grace.get(server.url(path)).send().unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{path}");
    }
    let (_, page) = text(&grace, &server, "/exercises");
    let token = csrf_of(&page);
    let response = grace
        .post(server.url("/rejudge"))
        .form(&[("csrf", token.as_str()), ("scope", "all")])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    // Without a session: the API answers 401, the pages send to the login page.
    let visitor = client();
    for path in [
        format!("/api/submissions/{id}"),
        "/api/submissions".to_string(),
        "/api/exercises".to_string(),
    ] {
        let response = visitor.get(server.url(&path)).send().unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{path}");
    }
    for path in [
        format!("/submissions/{id}"),
        format!("/submissions/{id}/source"),
        "/exercises".to_string(),
        "/class".to_string(),
        "/downloads/gradebook.csv".to_string(),
    ] {
        let response = visitor.get(server.url(&path)).send().unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{path}");
    }
    let response = upload(
        &visitor,
        &server,
        "exclusive_or",
        "exclusive_or.py",
        b"x = 1\n".to_vec(),
    );
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[test]
// A story told in order: every form tried in turn, each without its token and from another site.
#[allow(clippy::too_many_lines)]
fn forms_without_their_token_and_requests_from_other_sites_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = form_login(&server, "ada", "ada-password");
    let file = || {
        multipart::Part::bytes(std::fs::read(solution("exclusive_or")).unwrap())
            .file_name("exclusive_or.py")
    };
    let form_post = |token: Option<&str>| {
        let mut form = multipart::Form::new().part("file", file());
        if let Some(token) = token {
            form = form.text("csrf", token.to_string());
        }
        ada.post(server.url("/exercises/exclusive_or/submit"))
            .multipart(form)
            .send()
            .unwrap()
    };
    let refused = form_post(None);
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(refused.text().unwrap().contains("security token"));
    assert_eq!(form_post(Some("0123")).status(), StatusCode::FORBIDDEN);
    let (_, page) = text(&ada, &server, "/exercises/exclusive_or");
    assert_eq!(
        form_post(Some(&csrf_of(&page))).status(),
        StatusCode::SEE_OTHER
    );

    // Logging out needs the token too.
    let response = ada
        .post(server.url("/logout"))
        .form(&[("x", "1")])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    // An instructor's rejudge needs the token too; with it, it is done.
    let prof = form_login(&server, "prof", "prof-password");
    for form in [
        vec![("scope", "all")],
        vec![("scope", "all"), ("csrf", "")],
        vec![("scope", "all"), ("csrf", "0123")],
    ] {
        let response = prof
            .post(server.url("/rejudge"))
            .form(&form)
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{form:?}");
        assert!(response.text().unwrap().contains("security token"));
    }
    let (_, queue) = text(&prof, &server, "/queue");
    let response = prof
        .post(server.url("/rejudge"))
        .form(&[("scope", "all"), ("csrf", &csrf_of(&queue))])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    // A login form posted without the login page's cookie (from elsewhere) is refused.
    let response = client()
        .post(server.url("/login"))
        .form(&[
            ("username", "ada"),
            ("password", "ada-password"),
            ("csrf", "x"),
        ])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    // The API: an Origin naming another site is refused, this site's and none are not.
    let api = api_login(&server, "grace", "grace-password");
    let api_upload = |origin: Option<&str>, fetch_site: Option<&str>| {
        let form = multipart::Form::new()
            .text("exercise", "exclusive_or")
            .part("file", file());
        let mut request = api.post(server.url("/api/submissions")).multipart(form);
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        if let Some(site) = fetch_site {
            request = request.header("Sec-Fetch-Site", site);
        }
        request.send().unwrap()
    };
    let refused = api_upload(Some("https://evil.example"), None);
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let body: Value = refused.json().unwrap();
    assert!(body["error"].as_str().unwrap().contains("another site"));
    assert_eq!(
        api_upload(Some("null"), None).status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        api_upload(None, Some("cross-site")).status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        api_upload(Some(&server.base), None).status(),
        StatusCode::ACCEPTED
    );
    // The same host and port under the other scheme is another origin: an http site has no
    // https page that could have sent it.
    let other_scheme = server.base.replacen("http://", "https://", 1);
    assert_eq!(
        api_upload(Some(&other_scheme), None).status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(api_upload(None, None).status(), StatusCode::ACCEPTED);
    // A form from another site, even with a valid token, is refused.
    let (_, page) = text(&ada, &server, "/exercises/exclusive_or");
    let form = multipart::Form::new()
        .text("csrf", csrf_of(&page))
        .part("file", file());
    let response = ada
        .post(server.url("/exercises/exclusive_or/submit"))
        .header("Origin", "http://127.0.0.2:1")
        .multipart(form)
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let response = client()
        .post(server.url("/api/login"))
        .header("Origin", "https://evil.example")
        .json(&serde_json::json!({"username": "ada", "password": "ada-password"}))
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    // Security headers on every page.
    let response = ada.get(server.url("/exercises")).send().unwrap();
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap();
    assert!(
        csp.contains("script-src 'sha256-") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"));
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
}

#[test]
fn after_logging_in_the_form_leads_only_to_a_page_of_this_site() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    // Browsers drop tabs and newlines from a URL: `/\t/evil.example` is `//evil.example`.
    let visitor = client();
    let (status, page) = text(&visitor, &server, "/login?next=/%09/evil.example");
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("name=\"next\" value=\"/\""), "{page}");
    assert!(!page.contains("evil.example"), "{page}");
    for (next, expected) in [
        ("/\t/evil.example", "/"),
        ("/\n/evil.example", "/"),
        ("/x\r\nSet-Cookie: a=b", "/"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        (
            "/submissions?exercise=exclusive_or",
            "/submissions?exercise=exclusive_or",
        ),
    ] {
        let browser = client();
        let page = browser
            .get(server.url("/login"))
            .send()
            .unwrap()
            .text()
            .unwrap();
        let response = browser
            .post(server.url("/login"))
            .form(&[
                ("username", "ada"),
                ("password", "ada-password"),
                ("csrf", &csrf_of(&page)),
                ("next", next),
            ])
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{next:?}");
        assert_eq!(response.headers()["location"], expected, "{next:?}");
        assert!(response.headers().get("a").is_none());
    }
}

/// Sends a request's head and the start of its body over a plain TCP connection (the rest
/// never follows) and returns the answer's status line and how long it took, or None if no answer came
/// within `patience`.
fn head_only(
    server: &Server,
    head: &str,
    body: &str,
    patience: Duration,
) -> Option<(String, Duration)> {
    let start = Instant::now();
    let mut stream = start_sending(server, head, body);
    let answer = answer_head(&mut stream, patience);
    let line = answer.lines().next()?.to_string();
    Some((line, start.elapsed()))
}

/// Sends a request's head and `body` (all of it, or its first bytes), and leaves the
/// connection open.
fn start_sending(server: &Server, head: &str, body: &str) -> std::net::TcpStream {
    use std::io::Write;
    let address = server.base.strip_prefix("http://").unwrap();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .write_all(format!("{head}Host: {address}\r\n\r\n{body}").as_bytes())
        .unwrap();
    stream
}

/// The head of the answer on a connection, within `patience` (what came, if less).
fn answer_head(stream: &mut std::net::TcpStream, patience: Duration) -> String {
    use std::io::Read;
    stream.set_read_timeout(Some(patience)).unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn large_bodies_are_refused_unread_unless_they_are_a_logged_in_users_upload() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    let patience = Duration::from_secs(15);
    let huge = "Content-Length: 50000000\r\n";
    // Not an upload route: 16 KiB at most, refused on its declared length alone.
    for (head, expected) in [
        (
            format!("POST /api/login HTTP/1.1\r\nContent-Type: application/json\r\n{huge}"),
            "413",
        ),
        (
            format!(
                "POST /login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n{huge}"
            ),
            "413",
        ),
        (format!("POST /no/such/route HTTP/1.1\r\n{huge}"), "413"),
        // Another site's request is refused before anything else.
        (
            format!("POST /api/submissions HTTP/1.1\r\nOrigin: https://evil.example\r\n{huge}"),
            "403",
        ),
        (
            format!("POST /api/login HTTP/1.1\r\nOrigin: https://evil.example\r\n{huge}"),
            "403",
        ),
        // An upload without a session: asked to log in, its body unread.
        (format!("POST /api/submissions HTTP/1.1\r\n{huge}"), "401"),
        (
            format!("POST /exercises/present_board/submit HTTP/1.1\r\n{huge}"),
            "303",
        ),
    ] {
        let (line, took) = head_only(&server, &head, "", patience)
            .unwrap_or_else(|| panic!("no answer to {head:?} without its body"));
        assert!(
            line.starts_with(&format!("HTTP/1.1 {expected} ")),
            "{head:?}: {line}"
        );
        assert!(took < Duration::from_secs(5), "{head:?}: {took:?}");
    }
    // A body larger than 16 KiB without a declared length is cut off at the cap: a chunk
    // of 20 KiB, and never its end.
    let chunk = format!("{:x}\r\n{}\r\n", 20 * 1024, " ".repeat(20 * 1024));
    let (line, _) = head_only(
        &server,
        "POST /api/login HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        &chunk,
        patience,
    )
    .expect("an answer to a body past the cap");
    assert!(line.starts_with("HTTP/1.1 413 "), "{line}");
    // A logged-in student's upload is read (and judged by its own limit).
    let ada = api_login(&server, "ada", "ada-password");
    let response = upload(
        &ada,
        &server,
        "present_board",
        "present_board.py",
        vec![b'#'; 256 * 1024],
    );
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body: Value = response.json().unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("larger than the upload limit of 64 KiB"),
        "{body}"
    );
}

#[test]
fn slow_uploads_time_out_and_a_full_share_of_the_body_budget_asks_to_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    let login = json_login(&server, "ada", "ada-password");
    let cookie = login.headers()["set-cookie"].to_str().unwrap();
    let session = cookie.split(';').next().unwrap().to_string();
    // Uploads of 4 MiB (the largest a 64 KiB upload limit lets through), declared and never
    // sent: two of them hold the 8 MiB that one user's bodies may share (of 64 MiB).
    let head = format!(
        "POST /api/submissions HTTP/1.1\r\nCookie: {session}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: {}\r\n",
        4 * 1024 * 1024
    );
    let started = Instant::now();
    let mut held: Vec<_> = (0..2)
        .map(|_| start_sending(&server, &head, "--x\r\n"))
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    // One more of hers waits for room, then is asked to come back...
    let mut turned_away = start_sending(&server, &head, "--x\r\n");
    // ...while another student, from the same address, logs in and uploads at once.
    let grace = api_login(&server, "grace", "grace-password");
    let sent = Instant::now();
    let response = upload(
        &grace,
        &server,
        "present_board",
        "present_board.py",
        b"print(1)\n".to_vec(),
    );
    assert!(response.status().is_success(), "{}", response.status());
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "{:?}",
        sent.elapsed()
    );
    let answer = answer_head(&mut turned_away, Duration::from_secs(25));
    assert!(answer.starts_with("HTTP/1.1 503 "), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 5"),
        "{answer}"
    );
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(9), "{waited:?}");
    // The held ones never finish sending: each is answered once its time is up.
    for stream in &mut held {
        let answer = answer_head(stream, Duration::from_secs(40));
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    }
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(29), "{took:?}");
    // Their room is free again: an upload goes through to its judging queue.
    let ada = api_login(&server, "ada", "ada-password");
    let response = upload(
        &ada,
        &server,
        "present_board",
        "present_board.py",
        b"print(1)\n".to_vec(),
    );
    assert!(response.status().is_success(), "{}", response.status());
}

#[test]
fn slow_bodies_from_one_address_keep_no_other_address_from_logging_in() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0", "--proxy"]);
    // An attacker behind the proxy opens LTI launches declaring 64 KiB and sends a byte:
    // 128 of them hold the 8 MiB one address may share (1,100 held all 64 MiB before).
    let head = |address: &str| {
        format!(
            "POST /lti/launch HTTP/1.1\r\nX-Forwarded-For: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            64 * 1024
        )
    };
    let held: Vec<_> = (0..128)
        .map(|_| start_sending(&server, &head("203.0.113.9"), "i"))
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let mut more = start_sending(&server, &head("203.0.113.9"), "i");
    // Students at another address log in at once, as a form and through the API.
    for _ in 0..3 {
        let sent = Instant::now();
        let response = client()
            .post(server.url("/api/login"))
            .header("x-forwarded-for", "198.51.100.7")
            .json(&serde_json::json!({"username": "ada", "password": "ada-password"}))
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{}", server.stderr());
        assert!(
            sent.elapsed() < Duration::from_secs(3),
            "{:?}",
            sent.elapsed()
        );
    }
    // The attacker's next body waits for its own share and is turned away.
    let answer = answer_head(&mut more, Duration::from_secs(25));
    assert!(answer.starts_with("HTTP/1.1 503 "), "{answer}");
    drop(held);
}

#[test]
fn session_cookies_are_http_only_same_site_and_secure_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    for (flags, secure) in [(&[][..], false), (&["--secure-cookies"][..], true)] {
        let mut args = vec!["--workers", "0"];
        args.extend(flags.iter().copied());
        let server = Server::start(&db, None, &args);
        let response = client()
            .post(server.url("/api/login"))
            .json(&serde_json::json!({"username": "ada", "password": "ada-password"}))
            .send()
            .unwrap();
        let cookie = response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(cookie.starts_with("nimlab_session="), "{cookie}");
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
            "{cookie}"
        );
        assert_eq!(cookie.contains("Secure"), secure, "{cookie}");
        // The Origin is compared whole: the scheme this site is served with (https behind a
        // TLS proxy with --secure-cookies, else http), its host and its port.
        let authority = server.base.trim_start_matches("http://").to_string();
        let (ours, theirs) = if secure {
            ("https", "http")
        } else {
            ("http", "https")
        };
        for (scheme, accepted) in [(ours, true), (theirs, false)] {
            let response = client()
                .post(server.url("/api/login"))
                .header("Origin", format!("{scheme}://{authority}"))
                .json(&serde_json::json!({"username": "ada", "password": "ada-password"}))
                .send()
                .unwrap();
            assert_eq!(
                response.status() != StatusCode::FORBIDDEN,
                accepted,
                "{scheme} on a site with secure cookies {secure}: {}",
                response.status()
            );
        }
    }
}

#[test]
// A story told in order: each upload limit tried in turn on one server.
#[allow(clippy::too_many_lines)]
fn uploads_past_each_limit_are_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process_with(&db, Some(lab.path()), |options| {
        options.workers = 0;
        options.max_upload_bytes = 2 * 1024;
        options.max_queued = 2;
    });
    let ada = api_login(&server, "ada", "ada-password");
    let error = |response: Response| -> (StatusCode, String) {
        let status = response.status();
        let body: Value = response.json().unwrap();
        (
            status,
            body["error"].as_str().unwrap_or_default().to_string(),
        )
    };

    let mut big = b"# padding\n".repeat(300);
    big.extend(std::fs::read(solution("exclusive_or")).unwrap());
    let (status, message) = error(upload(
        &ada,
        &server,
        "exclusive_or",
        "exclusive_or.py",
        big,
    ));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        message.contains("exclusive_or.py is larger than the upload limit of 2 KiB"),
        "{message}"
    );
    // Far past the limit, the same message.
    let huge = vec![b'#'; 512 * 1024];
    let (status, message) = error(upload(
        &ada,
        &server,
        "exclusive_or",
        "exclusive_or.py",
        huge,
    ));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(message.contains("upload limit of 2 KiB"), "{message}");

    let (status, message) = error(upload(
        &ada,
        &server,
        "exclusive_or",
        "notes.txt",
        b"x".to_vec(),
    ));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        message.contains("notes.txt is not a Python file"),
        "{message}"
    );
    let (status, message) = error(upload(
        &ada,
        &server,
        "exclusive_or",
        "exclusive_or.py",
        Vec::new(),
    ));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message.contains("is empty"), "{message}");
    let (status, message) = error(upload(
        &ada,
        &server,
        "no_such",
        "no_such.py",
        b"x".to_vec(),
    ));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(message.contains("unknown exercise `no_such`"), "{message}");

    // Two may wait; the third is refused until one is judged.
    let source = std::fs::read(solution("exclusive_or")).unwrap();
    for _ in 0..2 {
        let response = upload(
            &ada,
            &server,
            "exclusive_or",
            "exclusive_or.py",
            source.clone(),
        );
        assert_eq!(response.status(), StatusCode::ACCEPTED);
    }
    let response = upload(
        &ada,
        &server,
        "exclusive_or",
        "exclusive_or.py",
        source.clone(),
    );
    assert!(response.headers().contains_key("retry-after"));
    let (status, message) = error(response);
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        message.contains("2 submissions waiting to be judged"),
        "{message}"
    );
    // Another student is not held back by ada's queue.
    let grace = api_login(&server, "grace", "grace-password");
    let response = upload(&grace, &server, "exclusive_or", "exclusive_or.py", source);
    assert_eq!(response.status(), StatusCode::ACCEPTED);
}

#[test]
fn failed_logins_are_limited_per_account_while_a_whole_room_logs_in_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let room = 30;
    let roster = dir.path().join("room.csv");
    let mut rows = String::from("username,password\n");
    for i in 0..room {
        rows.push_str(&format!("s{i:02},password-{i:02}\n"));
    }
    std::fs::write(&roster, rows).unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    let server = Server::in_process(&db, None, 0);
    let login = |username: &str, password: &str| {
        client()
            .post(server.url("/api/login"))
            .json(&serde_json::json!({"username": username, "password": password}))
            .send()
            .unwrap()
    };
    for _ in 0..5 {
        assert_eq!(login("ada", "guess").status(), StatusCode::UNAUTHORIZED);
    }
    // Locked now, even with the right password.
    let locked = login("ada", "ada-password");
    assert_eq!(locked.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(locked.headers().contains_key("retry-after"));
    let body: Value = locked.json().unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("too many failed logins")
    );
    // The form says so too.
    let page_client = client();
    let page = page_client
        .get(server.url("/login"))
        .send()
        .unwrap()
        .text()
        .unwrap();
    let response = page_client
        .post(server.url("/login"))
        .form(&[
            ("username", "ada"),
            ("password", "ada-password"),
            ("csrf", &csrf_of(&page)),
        ])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.text().unwrap().contains("too many failed logins"));

    // Everyone else, from the same address, all at once.
    assert_eq!(login("grace", "grace-password").status(), StatusCode::OK);
    let statuses: Vec<StatusCode> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..room)
            .map(|i| {
                let login = &login;
                scope
                    .spawn(move || login(&format!("s{i:02}"), &format!("password-{i:02}")).status())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
}

/// The failures an account makes before new clients wait (`FREE_FAILURES` in
/// src/serve/throttle.rs).
const LOGIN_FAILURES: usize = 5;

fn json_login(server: &Server, username: &str, password: &str) -> Response {
    client()
        .post(server.url("/api/login"))
        .json(&serde_json::json!({"username": username, "password": password}))
        .send()
        .unwrap()
}

#[test]
fn guesses_sent_at_once_are_checked_no_more_than_the_accounts_limit() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    let guesses = 40;
    let statuses: Vec<StatusCode> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..guesses)
            .map(|i| {
                let server = &server;
                scope.spawn(move || json_login(server, "ada", &format!("guess-{i}")).status())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert!(
        (1..=LOGIN_FAILURES).contains(&checked) && checked + refused == guesses,
        "{checked} checked, {refused} refused: {statuses:?}"
    );
    // The limit is spent: the right password waits for the window too.
    let locked = json_login(&server, "ada", "ada-password");
    assert_eq!(locked.status(), StatusCode::TOO_MANY_REQUESTS);
    let body: Value = locked.json().unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("too many failed logins"),
        "{body}"
    );

    // Usernames are case-sensitive, and so is the limit: guessing `GRACE` (no such
    // account) does not lock out `grace`.
    for _ in 0..LOGIN_FAILURES {
        assert_eq!(
            json_login(&server, "GRACE", "guess").status(),
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        json_login(&server, "GRACE", "guess").status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        json_login(&server, "grace", "grace-password").status(),
        StatusCode::OK
    );
}

#[test]
fn a_server_killed_mid_queue_loses_nothing_and_judges_everything_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    // On PostgreSQL the jobs come back when their lease runs out, not at the restart.
    let server = Server::start(&db, Some(lab.path()), &["--workers", "1", "--lease", "2"]);
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let mut ids = Vec::new();
    for client in [&ada, &grace, &ada, &grace] {
        ids.push(submit(
            client,
            &server,
            "present_board",
            &solution("present_board"),
        ));
    }
    // Wait until one is being judged, then kill the server outright.
    let start = Instant::now();
    loop {
        let (_, list) = get_json(&ada, &server, "/api/submissions");
        if list
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["status"] == "running")
        {
            break;
        }
        assert!(start.elapsed() < JUDGING, "{}", server.stderr());
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = server.kill();
    // The programs being judged die with it.
    let scratch = format!("nimlab-{pid}-serve-");
    let start = Instant::now();
    while crate::common::processes_mentioning(&scratch) > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "programs outlived the server"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let server = Server::start(&db, Some(lab.path()), &["--workers", "2", "--lease", "2"]);
    // The old session is still valid: sessions live in the database.
    for (index, id) in ids.iter().enumerate() {
        let owner = if index % 2 == 0 { &ada } else { &grace };
        let judged = judged(owner, &server, *id);
        assert_eq!(judged["verdict"], "accepted", "{judged}");
    }
    let said = if crate::common::postgres::chosen() {
        "whose judge stopped renewing its lease (killed, frozen or its machine lost) are queued again"
    } else {
        "left running by the last stop are queued again"
    };
    assert!(server.stderr().contains(said), "{}", server.stderr());
}

#[test]
// A story told in order: an instructor's visit walked end to end, each page depending on the last.
#[allow(clippy::too_many_lines)]
fn instructors_see_the_class_and_the_queue_rejudge_and_download_gradebooks() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    // Ada has a student id in the roster; Grace has none.
    let ids = dir.path().join("ids.csv");
    std::fs::write(&ids, "username,name,id\nada,Ada Lovelace,1001\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&ids)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 2);
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let good = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let wrong = submit(
        &grace,
        &server,
        "present_board",
        &root().join("tests/submissions/debug_print/present_board.py"),
    );
    judged(&ada, &server, good);
    judged(&grace, &server, wrong);

    let prof = form_login(&server, "prof", "prof-password");
    let (status, class) = text(&prof, &server, "/class");
    assert_eq!(status, StatusCode::OK);
    assert!(class.contains("ada") && class.contains("Grace Hopper"));
    assert!(class.contains("v-accepted") && class.contains("v-bad"));
    assert!(class.contains("<td class=\"name\">ada"));
    assert!(
        !class.contains("<td class=\"name\">prof"),
        "instructors are not in the matrix"
    );
    let (_, queue) = text(&prof, &server, "/queue");
    assert!(queue.contains("Nothing is waiting"), "{queue}");
    let (_, page) = text(&prof, &server, &format!("/submissions/{wrong}"));
    assert!(
        page.contains("DEBUG"),
        "the instructor sees the source: {page}"
    );

    // Judge one submission again: queued, then judged anew.
    let before = judged(&ada, &server, good)["finished_at"].as_i64().unwrap();
    let response = prof
        .post(server.url("/rejudge"))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("scope", "submission"),
            ("id", &good.to_string()),
        ])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/queue?rejudged=1");
    let again = judged(&ada, &server, good);
    assert_eq!(again["verdict"], "accepted");
    assert!(again["finished_at"].as_i64().unwrap() > before, "{again}");
    // Everything of one exercise, and everything.
    for (scope, extra) in [("exercise", Some("present_board")), ("all", None)] {
        let mut form = vec![("csrf", csrf_of(&page)), ("scope", scope.to_string())];
        if let Some(exercise) = extra {
            form.push(("exercise", exercise.to_string()));
        }
        let response = prof
            .post(server.url("/rejudge"))
            .form(&form)
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        let expected = if scope == "all" { "2" } else { "1" };
        assert_eq!(
            response.headers()["location"],
            format!("/queue?rejudged={expected}").as_str()
        );
    }
    judged(&ada, &server, good);
    judged(&grace, &server, wrong);

    // The gradebook files, from each student's best submission.
    let (status, csv) = text(&prof, &server, "/downloads/gradebook.csv");
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "student,student_id,present_board,exclusive_or,total"
    );
    // The student_id column: the roster's id, else the username.
    assert_eq!(lines[1], "ada,1001,0,10,10");
    assert_eq!(lines[2], "grace,grace,0,0,0");
    assert_eq!(lines.len(), 3);
    let (_, results) = get_json(&prof, &server, "/downloads/results.json?from=latest");
    assert_eq!(results["students"][0]["student"], "ada");
    assert_eq!(
        results["students"][0]["exercises"]["exclusive_or"]["report"]["verdict"],
        "accepted"
    );
    // Each names Ada as its platform matches students: by name and id, by username (Grace
    // has no ID number, so Moodle matches everyone by username), by the gradebook's
    // student_id.
    for (file, ada) in [
        ("canvas.csv", "Ada Lovelace"),
        ("moodle.csv", "\nada,0,10"),
        ("junit.xml", "<testsuite name=\"1001\""),
    ] {
        let (status, body) = text(&prof, &server, &format!("/downloads/{file}"));
        assert_eq!(status, StatusCode::OK, "{file}");
        assert!(body.contains(ada), "{file}: {body}");
    }
    // Past one machine: the submissions as a class folder, graded by `nimlab grade` (in
    // shards, anywhere), give the gradebook the website gives.
    let class = dir.path().join("class");
    nimlab()
        .args(["export", "submissions", "--db"])
        .arg(&db)
        .arg("--out")
        .arg(&class)
        .assert()
        .success();
    assert!(class.join("ada/exclusive_or.py").is_file());
    assert!(class.join("grace/present_board.py").is_file());
    // Students' code and the roster are the owner's alone.
    for folder in [class.clone(), class.join("ada")] {
        assert_eq!(mode(&folder), 0o700, "{}", folder.display());
    }
    for file in ["ada/exclusive_or.py", "roster.csv"] {
        assert_eq!(mode(&class.join(file)), 0o600, "{file}");
    }
    let grades = dir.path().join("grades");
    nimlab()
        .arg("--lab")
        .arg(lab.path())
        .arg("grade")
        .arg(&class)
        .arg("--out")
        .arg(&grades)
        .arg("--roster")
        .arg(class.join("roster.csv"))
        .assert()
        .success();
    let (_, latest) = text(&prof, &server, "/downloads/gradebook.csv?from=latest");
    // The same, but for the student_id column: `nimlab grade` names a student by their
    // folder (the username), the website by their roster id.
    let without_ids = |csv: &str| -> Vec<String> {
        csv.lines()
            .map(|line| {
                let mut cells: Vec<&str> = line.split(',').collect();
                cells.remove(1);
                cells.join(",")
            })
            .collect()
    };
    let graded = std::fs::read_to_string(grades.join("gradebook.csv")).unwrap();
    assert_eq!(without_ids(&graded), without_ids(&latest));
    assert!(graded.contains("\nada,ada,") && latest.contains("\nada,1001,"));
    let (status, _) = text(&prof, &server, "/downloads/gradebook.csv?from=worst");
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = text(&prof, &server, "/downloads/passwords.csv");
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[test]
fn a_students_bytes_are_escaped_everywhere_they_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let ada = api_login(&server, "ada", "ada-password");
    let program = "import sys\nprint('<script>alert(1)</script>')\nsys.stderr.write('<img src=x onerror=alert(2)>\\n')\nraise SystemExit(1)\n";
    let response = upload(
        &ada,
        &server,
        "exclusive_or",
        "<b onmouseover=alert(3)>.py",
        program.as_bytes().to_vec(),
    );
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let id = response.json::<Value>().unwrap()["id"].as_i64().unwrap();
    let result = judged(&ada, &server, id);
    assert_eq!(result["verdict"], "runtime_error", "{result}");
    let prof = form_login(&server, "prof", "prof-password");
    for path in [
        format!("/submissions/{id}"),
        "/submissions".to_string(),
        "/queue".to_string(),
        "/class/mistakes".to_string(),
    ] {
        let (_, page) = text(&prof, &server, &path);
        assert!(!page.contains("<script>alert"), "{path}");
        assert!(!page.contains("<img src=x"), "{path}");
        assert!(!page.contains("<b onmouseover"), "{path}");
    }
    let (_, page) = text(&prof, &server, &format!("/submissions/{id}"));
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{page}"
    );
    assert!(page.contains("&lt;b onmouseover=alert(3)&gt;.py"));
    // The class's mistakes quote the output as the example of its group.
    let (_, mistakes) = text(&prof, &server, "/class/mistakes");
    assert!(
        mistakes.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{mistakes}"
    );
}

#[test]
// A story told in order: an import, its files and the accounts it made, checked in the order a user meets them.
#[allow(clippy::too_many_lines)]
fn users_import_writes_new_passwords_once_and_the_accounts_work() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("class.db");
    let roster = dir.path().join("roster.csv");
    std::fs::write(
        &roster,
        "username,name,password,id,section\nada,Ada Lovelace,,1001,A\ngrace,Grace Hopper,grace-password,1002,B\n",
    )
    .unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("2 account(s) added"))
        .stdout(predicates::str::contains("roster-credentials.csv"));
    let credentials = std::fs::read_to_string(dir.path().join("roster-credentials.csv")).unwrap();
    let lines: Vec<&str> = credentials.lines().collect();
    assert_eq!(lines[0], "username,name,password");
    assert_eq!(lines.len(), 2, "only ada had no password: {credentials}");
    let ada_password = lines[1].rsplit(',').next().unwrap().to_string();
    assert!(lines[1].starts_with("ada,Ada Lovelace,") && ada_password.len() >= 12);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("roster-credentials.csv"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(
            mode & 0o077,
            0,
            "the credentials are private to their owner"
        );
    }

    // A second import with a new student: the credentials file is never overwritten.
    std::fs::write(&roster, "username,name\nada,Ada L.\nalan,Alan Turing\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "roster-credentials.csv: already exists",
        ));
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .arg("--credentials")
        .arg(dir.path().join("more.csv"))
        .assert()
        .success()
        .stdout(predicates::str::contains("1 account(s) added, 1 updated"));
    assert!(
        std::fs::read_to_string(dir.path().join("more.csv"))
            .unwrap()
            .contains("alan,")
    );

    // A roster without usernames (nor `student`, grade's name for them), or with a bad one,
    // is refused with the file and row named.
    std::fs::write(&roster, "login,name\nada,Ada\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "roster.csv: the roster needs a `username` column",
        ));
    std::fs::write(&roster, "username\nada\nbad name\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("row 3: username `bad name`"));

    // passwd from stdin; too short is refused; an unknown account is named.
    nimlab()
        .args(["users", "passwd", "ada", "--db"])
        .arg(&db)
        .write_stdin("short\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("too short"));
    nimlab()
        .args(["users", "passwd", "nobody", "--db"])
        .arg(&db)
        .write_stdin("long-enough-password\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no account `nobody`"));
    let server = Server::in_process(&db, None, 0);
    let ada = api_login(&server, "ada", &ada_password);
    nimlab()
        .args(["users", "passwd", "ada", "--db"])
        .arg(&db)
        .write_stdin("a-new-password\n")
        .assert()
        .success();
    // The change ended her session, and the new password works.
    let (status, _) = get_json(&ada, &server, "/api/exercises");
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    api_login(&server, "ada", "a-new-password");
    let random = nimlab()
        .args(["users", "add", "ta", "--instructor", "--random", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let out = String::from_utf8(random.stdout).unwrap();
    let password = out
        .lines()
        .find_map(|l| l.strip_prefix("password: "))
        .unwrap();
    let ta = api_login(&server, "ta", password);
    let (_, all) = get_json(&ta, &server, "/api/submissions");
    assert!(all.is_array());

    // A backup, taken while the server runs, holds the accounts.
    let copy = dir.path().join("copy.db");
    nimlab()
        .arg("backup")
        .arg("--db")
        .arg(&db)
        .arg(&copy)
        .assert()
        .success();
    nimlab()
        .args(["users", "list", "--db"])
        .arg(&copy)
        .assert()
        .success()
        .stdout(predicates::str::contains("alan\tstudent\tAlan Turing"))
        .stdout(predicates::str::contains("ta\tinstructor"));
    nimlab()
        .arg("backup")
        .arg("--db")
        .arg(&db)
        .arg(&copy)
        .assert()
        .code(2);
}

#[test]
fn importing_a_roster_that_names_an_instructor_keeps_them_an_instructor() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let roster = dir.path().join("again.csv");
    std::fs::write(
        &roster,
        "username,name,id\nprof,Professor Hopper,9000\nada,Ada L.,1001\n",
    )
    .unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("0 account(s) added, 2 updated"));
    nimlab()
        .args(["users", "list", "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "prof\tinstructor\tProfessor Hopper",
        ))
        .stdout(predicates::str::contains("ada\tstudent\tAda L."));
    // A roster without names (or with an empty cell) leaves the names as they are.
    std::fs::write(&roster, "username,name\nada,\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    nimlab()
        .args(["users", "list", "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("ada\tstudent\tAda L."));
    // Still an instructor on the website, with the same password.
    let server = Server::in_process(&db, None, 0);
    let response = json_login(&server, "prof", "prof-password");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.json::<Value>().unwrap()["role"], "instructor");
}

#[test]
fn students_see_neither_nimlabs_own_errors_nor_the_servers_interpreter_paths() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    // Uploaded for an exercise the lab of the next start no longer has: nimlab cannot
    // judge it, and says why to instructors only.
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = api_login(&server, "ada", "ada-password");
    let orphan = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    drop(server);
    let smaller = lab_with(&["present_board"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    });
    let server = Server::in_process(&db, Some(smaller.path()), 1);
    let good = submit(&ada, &server, "present_board", &solution("present_board"));
    let prof = api_login(&server, "prof", "prof-password");

    let failed = judged(&ada, &server, orphan);
    assert_eq!(failed["status"], "failed", "{failed}");
    let (_, seen_by_prof) = get_json(&prof, &server, &format!("/api/submissions/{orphan}"));
    let reason = seen_by_prof["error"].as_str().unwrap().to_string();
    assert!(reason.contains("exclusive_or"), "{reason}");
    assert_eq!(
        failed["error"],
        "nimlab could not judge this submission. This is not your fault; your instructor can see why and judge it again."
    );
    let student_page = text(
        &form_login(&server, "ada", "ada-password"),
        &server,
        &format!("/submissions/{orphan}"),
    )
    .1;
    assert!(student_page.contains("could not judge"), "{student_page}");
    assert!(!student_page.contains(&reason), "{student_page}");

    // The report's runs: the version for everyone, the interpreter's path for instructors.
    let judged_for_ada = judged(&ada, &server, good);
    let (_, judged_for_prof) = get_json(&prof, &server, &format!("/api/submissions/{good}"));
    let run = |v: &Value| v["report"]["runs"][0].clone();
    let path = run(&judged_for_prof)["path"]
        .as_str()
        .expect("instructors see where the interpreter is")
        .to_string();
    assert!(path.starts_with('/'), "{path}");
    assert!(run(&judged_for_ada)["path"].is_null(), "{judged_for_ada}");
    assert!(run(&judged_for_ada)["version"].is_string());
    assert_eq!(
        run(&judged_for_ada)["version"],
        run(&judged_for_prof)["version"]
    );
    assert!(
        !judged_for_ada.to_string().contains(&path),
        "{judged_for_ada}"
    );
    assert!(judged_for_ada["error"].is_null());
}

/// Every string inside a JSON value.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(fields) => fields.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_secret_cases_input_and_expected_output_reach_no_student() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = lab_with(&["present_board"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    });
    // A secret case found nowhere else: its input, and two lines of its expected output.
    let input = "27 18 28 18 28 45 90 45";
    let sizes: Vec<usize> = input.split(' ').map(|n| n.parse().unwrap()).collect();
    let mut expected = String::from("Nim:\n");
    for (row, size) in sizes.iter().enumerate() {
        expected.push_str(&format!("{}:{}\n", row + 1, " X".repeat(*size)));
    }
    let distinctive = format!("7:{}\n8:{}\n", " X".repeat(90), " X".repeat(45));
    assert!(expected.ends_with(&distinctive));
    let secret = lab.path().join("fixtures/present_board/secret");
    std::fs::write(secret.join("99-pi-and-e.in"), format!("{input}\n")).unwrap();
    std::fs::write(secret.join("99-pi-and-e.out"), &expected).unwrap();
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let ada = api_login(&server, "ada", "ada-password");
    // Wrong on every case, so every case would have feedback to show.
    let id = submit(
        &ada,
        &server,
        "present_board",
        &root().join("tests/submissions/debug_print/present_board.py"),
    );
    let report = judged(&ada, &server, id);
    let case = report["report"]["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "secret/99-pi-and-e")
        .unwrap_or_else(|| panic!("the secret case was judged: {report}"))
        .clone();
    assert_eq!(case["verdict"], "wrong_answer", "{case}");
    // The samples' feedback is there; the secret case's is not, anywhere.
    let texts = strings(&report);
    assert!(texts.iter().any(|t| t.contains("Nim:\n1: X")), "{report}");
    for text in &texts {
        assert!(
            !text.contains(input),
            "the API shows the secret input: {text}"
        );
        assert!(
            !text.contains(&distinctive),
            "the API shows the secret expected output: {text}"
        );
    }
    let (_, list) = get_json(&ada, &server, "/api/submissions");
    assert!(!list.to_string().contains(input));
    let student = form_login(&server, "ada", "ada-password");
    let (status, page) = text(&student, &server, &format!("/submissions/{id}"));
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("secret/99-pi-and-e"), "{page}");
    assert!(page.contains("First difference, line 1"), "{page}");
    assert!(!page.contains(input), "the page shows the secret input");
    assert!(
        !page.contains(&distinctive),
        "the page shows the secret expected output"
    );
}

/// The permission bits of a file.
#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[cfg(unix)]
#[test]
fn the_database_its_journal_and_its_backups_are_private_to_their_owner() {
    let dir = tempfile::tempdir().unwrap();
    // Made by `users import`: accounts with password hashes.
    let db = populated(dir.path().join("class.db"), dir.path());
    assert_eq!(mode(&db), 0o600);
    let server = Server::start(&db, None, &["--workers", "0"]);
    let ada = api_login(&server, "ada", "ada-password");
    submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    for journal in ["class.db-wal", "class.db-shm"] {
        assert_eq!(mode(&dir.path().join(journal)), 0o600, "{journal}");
    }
    let copy = dir.path().join("copy.db");
    nimlab()
        .arg("backup")
        .arg("--db")
        .arg(&db)
        .arg(&copy)
        .assert()
        .success();
    assert_eq!(mode(&copy), 0o600);
    // A name SQLite could read as a URI is a file of that name, not a URI: nothing is
    // written under another name, with another mode.
    let uri_like = "file:uri-copy.db?mode=rwc";
    nimlab()
        .current_dir(dir.path())
        .arg("backup")
        .arg("--db")
        .arg(&db)
        .arg(uri_like)
        .assert()
        .success();
    assert!(!dir.path().join("uri-copy.db").exists());
    assert_eq!(mode(&dir.path().join(uri_like)), 0o600);
    nimlab()
        .args(["users", "list", "--db"])
        .arg(dir.path().join(uri_like))
        .assert()
        .success()
        .stdout(predicates::str::contains("ada\tstudent"));
    nimlab()
        .args(["users", "list", "--db"])
        .arg(&copy)
        .assert()
        .success()
        .stdout(predicates::str::contains("ada\tstudent"));
    // A database made by the server itself.
    let fresh = dir.path().join("fresh.db");
    let other = Server::start(&fresh, None, &["--workers", "0"]);
    assert_eq!(mode(&fresh), 0o600);
    drop(other);
}

#[test]
fn a_second_server_on_the_same_database_is_refused_and_takes_nothing_from_the_first() {
    let dir = tempfile::tempdir().unwrap();
    // An SQLite file has one server; a PostgreSQL database takes several (see `scale`).
    let db = populated(dir.path().join("class.db"), dir.path());
    let lab = lab_with(&["exclusive_or"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    });
    let server = Server::start(&db, Some(lab.path()), &["--workers", "1"]);
    let ada = api_login(&server, "ada", "ada-password");
    // Being judged while the second server tries to start.
    let sleeper = b"import time\ntime.sleep(3)\n".to_vec();
    let response = upload(&ada, &server, "exclusive_or", "exclusive_or.py", sleeper);
    let id = response.json::<Value>().unwrap()["id"].as_i64().unwrap();
    let start = Instant::now();
    while get_json(&ada, &server, &format!("/api/submissions/{id}")).1["status"] != "running" {
        assert!(start.elapsed() < JUDGING);
        std::thread::sleep(Duration::from_millis(50));
    }
    nimlab()
        .arg("--lab")
        .arg(lab.path())
        .args(["serve", "--listen", "127.0.0.1:0", "--workers", "1", "--db"])
        .arg(&db)
        .timeout(Duration::from_secs(30))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("another nimlab serve is using"));
    assert!(!server.stderr().contains("queued again"));
    let (_, still) = get_json(&ada, &server, &format!("/api/submissions/{id}"));
    assert_eq!(still["status"], "running", "{still}");
    // Once the first has stopped, the database is free.
    drop(server);
    let server = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let start = Instant::now();
    while !server.stderr().contains("1 submission(s) left running") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_refuses_a_file_that_is_not_its_database_and_a_busy_address() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(
        &notes,
        "not a database at all, just some notes, long enough to tell",
    )
    .unwrap();
    nimlab()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&notes)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "notes.txt: is not a nimlab database",
        ));
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    nimlab()
        .args(["serve", "--listen", &address, "--db"])
        .arg(dir.path().join("class.db"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot listen there"));
}

#[test]
fn bench_serve_has_students_submit_at_once_and_reports_the_latency() {
    let output = nimlab()
        .args(["bench", "--serve", "2"])
        .timeout(JUDGING)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("upload to verdict: p50 "), "{stdout}");
    assert!(stdout.contains("2 judged in"), "{stdout}");
    assert!(
        stdout.contains("submissions per second; 2 accepted"),
        "{stdout}"
    );
    assert!(stdout.contains("the server's peak memory: "), "{stdout}");
}

/// axe-core's source (`axe.min.js`, from npm: `NIMLAB_AXE`, or where `.ci/run` installs it),
/// or None where it is not installed and the accessibility checks are skipped on purpose
/// (see `common::tool_missing`).
fn axe_core() -> Option<String> {
    let path = std::env::var_os("NIMLAB_AXE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|home| {
                PathBuf::from(home).join(".cache/nimlab/axe/node_modules/axe-core/axe.min.js")
            })
        })
        .filter(|path| path.exists());
    let Some(path) = path else {
        crate::common::tool_missing(
            "axe-core",
            "npm install --prefix ~/.cache/nimlab/axe axe-core@4.14.1",
            "the pages were not checked against WCAG 2.1 AA",
        );
        return None;
    };
    Some(std::fs::read_to_string(&path).unwrap())
}

/// A WebDriver session with headless Chromium through chromedriver (Debian's `chromium` and
/// `chromium-driver`), spoken over HTTP.
struct Browser {
    driver: Child,
    http: reqwest::blocking::Client,
    session: String,
    _profile: tempfile::TempDir,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// None where Chromium or chromedriver is not installed and the tests that need them are
    /// skipped on purpose (see `common::tool_missing`).
    fn start() -> Option<Browser> {
        let found = |paths: &[&str]| {
            paths
                .iter()
                .find(|p| Path::new(p).exists())
                .map(|p| p.to_string())
        };
        // NIMLAB_CHROMIUM and NIMLAB_CHROMEDRIVER name others (a test names missing ones).
        let named = |variable: &str| std::env::var(variable).ok();
        let binary = named("NIMLAB_CHROMIUM")
            .map(|p| found(&[p.as_str()]))
            .unwrap_or_else(|| found(&["/usr/bin/chromium", "/usr/bin/chromium-browser"]));
        let driver = named("NIMLAB_CHROMEDRIVER")
            .map(|p| found(&[p.as_str()]))
            .unwrap_or_else(|| found(&["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]));
        let (Some(binary), Some(driver)) = (binary, driver) else {
            crate::common::tool_missing(
                "Chromium or chromedriver",
                "apt-get install chromium chromium-driver",
                "the website was not tested in a browser",
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let http = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        while http.get(format!("{base}/status")).send().is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromedriver answers"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let capabilities = serde_json::json!({
            "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:loggingPrefs": { "browser": "ALL" },
                "goog:chromeOptions": {
                    "binary": binary,
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--window-size=1200,1000",
                        format!("--user-data-dir={}", profile.path().display()),
                    ],
                },
            } }
        });
        let reply: Value = http
            .post(format!("{base}/session"))
            .json(&capabilities)
            .send()
            .unwrap()
            .json()
            .unwrap();
        let session = reply["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {reply}"))
            .to_string();
        Some(Browser {
            driver,
            http,
            session: format!("{base}/session/{session}"),
            _profile: profile,
        })
    }

    fn call(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|reply| panic!("WebDriver {path}: {reply}"))
    }

    /// The reply's value, or the whole reply when WebDriver answers with an error.
    fn try_call(&self, method: reqwest::Method, path: &str, body: Value) -> Result<Value, Value> {
        let mut request = self
            .http
            .request(method.clone(), format!("{}{path}", self.session));
        if method != reqwest::Method::GET {
            request = request.json(&body);
        }
        let reply: Value = request.send().unwrap().json().unwrap();
        if reply["value"].get("error").is_some() {
            return Err(reply);
        }
        Ok(reply["value"].clone())
    }

    fn go(&self, url: &str) {
        self.call(
            reqwest::Method::POST,
            "/url",
            serde_json::json!({ "url": url }),
        );
    }

    fn find(&self, css: &str) -> String {
        let found = self.call(
            reqwest::Method::POST,
            "/element",
            serde_json::json!({ "using": "css selector", "value": css }),
        );
        found[ELEMENT].as_str().unwrap().to_string()
    }

    fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.call(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            serde_json::json!({ "text": text }),
        );
    }

    /// Clicks the element `css` finds; found again when the page replaced it between the
    /// finding and the click (a script or a frame still loading).
    fn click(&self, css: &str) {
        for _ in 0..50 {
            let element = self.find(css);
            let clicked = self.try_call(
                reqwest::Method::POST,
                &format!("/element/{element}/click"),
                serde_json::json!({}),
            );
            match clicked {
                Ok(_) => return,
                Err(reply) => {
                    let text = reply.to_string();
                    assert!(
                        text.contains("stale element")
                            || text.contains("does not belong to the document"),
                        "WebDriver click on {css}: {reply}"
                    );
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
        panic!("{css} was replaced on every try to click it");
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            reqwest::Method::POST,
            "/execute/sync",
            serde_json::json!({ "script": script, "args": [] }),
        )
    }

    fn text(&self) -> String {
        self.script("return document.body.innerText;")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Reads and acts inside the page's `index`-th frame from now on.
    fn enter_frame(&self, index: u32) {
        self.call(
            reqwest::Method::POST,
            "/frame",
            serde_json::json!({ "id": index }),
        );
    }

    /// Back to the top page from a frame.
    fn out_of_frames(&self) {
        self.call(
            reqwest::Method::POST,
            "/frame",
            serde_json::json!({ "id": null }),
        );
    }

    fn url(&self) -> String {
        self.call(reqwest::Method::GET, "/url", Value::Null)
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Logs in through the login form, as a person does, and waits to be let in.
    fn log_in(&self, server: &Server, username: &str, password: &str) {
        self.go(&server.url("/login"));
        self.type_into("#username", username);
        self.type_into("#password", password);
        self.click("form button[type=submit]");
        let start = Instant::now();
        while self.url().ends_with("/login") {
            assert!(start.elapsed() < Duration::from_secs(60), "not logged in");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits for a navigation a click started to land on a page whose path holds `part`.
    fn wait_for(&self, part: &str) {
        let start = Instant::now();
        while !self.url().contains(part) {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "still at {}, not {part}",
                self.url()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn resize(&self, width: u32, height: u32) {
        self.call(
            reqwest::Method::POST,
            "/window/rect",
            serde_json::json!({ "width": width, "height": height }),
        );
    }

    /// Whether the page is wider than the window (it scrolls sideways as a whole).
    fn overflows(&self) -> bool {
        self.script("return document.documentElement.scrollWidth > window.innerWidth + 1;")
            .as_bool()
            .unwrap()
    }

    fn screenshot(&self, path: &Path) {
        use base64::Engine;
        let data = self.call(reqwest::Method::GET, "/screenshot", Value::Null);
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }

    /// axe-core's rules for WCAG 2.0 and 2.1, levels A and AA, run on the page as it stands:
    /// each violation with the elements it was found on (none where the page passes). `axe`
    /// is axe-core's own source ([`axe_core`]), put into the page first.
    fn accessibility_violations(&self, axe: &str) -> Vec<String> {
        self.script(&format!("{axe}\n;window.axe = axe; return true;"));
        let found = self.call(
            reqwest::Method::POST,
            "/execute/async",
            serde_json::json!({
                "script": r#"
                    const done = arguments[arguments.length - 1];
                    window.axe.run(document, {
                        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
                        resultTypes: ['violations'],
                    }).then(
                        (result) => done(result.violations.map((v) =>
                            v.id + ' (' + v.impact + '): ' + v.help + '\n' + v.nodes.map((n) =>
                                '    ' + n.target.join(' ') + ': ' + n.failureSummary.replace(/\n/g, ' ')
                            ).join('\n'))),
                        (error) => done(['axe-core failed: ' + error]),
                    );
                "#,
                "args": [],
            }),
        );
        found
            .as_array()
            .unwrap_or_else(|| panic!("axe-core's answer: {found}"))
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// What the page's console said (errors, refused scripts).
    fn console(&self) -> Vec<String> {
        let entries = self.call(
            reqwest::Method::POST,
            "/se/log",
            serde_json::json!({ "type": "browser" }),
        );
        entries
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| format!("{} {}", e["level"], e["message"]))
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.http.delete(&self.session).send();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

#[test]
// A story told in order: one browser session walked end to end.
#[allow(clippy::too_many_lines)]
fn browser_a_student_uploads_with_the_form_and_sees_the_verdict_and_its_hint() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::start(&db, Some(lab.path()), &["--workers", "1"]);
    let Some(browser) = Browser::start() else {
        return;
    };
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-browser");
    std::fs::create_dir_all(&shots).unwrap();

    browser.go(&server.url("/"));
    assert!(browser.url().ends_with("/login"), "{}", browser.url());
    browser.type_into("#username", "ada");
    browser.type_into("#password", "ada-password");
    browser.click("form button[type=submit]");
    browser.wait_for("/exercises");
    assert!(browser.text().contains("Present the board"));

    browser.click("a[href='/exercises/present_board']");
    browser.wait_for("/exercises/present_board");
    assert!(browser.text().contains("Download the starter file"));
    let file = root().join("tests/submissions/debug_print/present_board.py");
    browser.type_into("#file", file.to_str().unwrap());
    browser.screenshot(&shots.join("exercise-desktop.png"));
    browser.click("form[enctype] button[type=submit]");
    browser.wait_for("/submissions/");

    // The page updates itself (the poll script, allowed by its hash) until the verdict.
    let start = Instant::now();
    while !browser.text().contains("Wrong answer") {
        assert!(
            start.elapsed() < JUDGING,
            "no verdict shown: {}\n{}\nconsole: {:?}\napi: {:?}",
            browser.text(),
            server.stderr(),
            browser.console(),
            get_json(
                &api_login(&server, "ada", "ada-password"),
                &server,
                "/api/submissions"
            ),
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let page = browser.text();
    assert!(
        page.contains("remove debug prints"),
        "the hint is shown: {page}"
    );
    assert!(page.contains("First difference, line 1"));
    browser.screenshot(&shots.join("report-desktop.png"));
    let refused: Vec<String> = browser
        .console()
        .into_iter()
        .filter(|line| line.contains("SEVERE") || line.contains("Content Security Policy"))
        .collect();
    assert!(refused.is_empty(), "console: {refused:?}");

    // At phone width the pages fit: only tables and code scroll sideways, in their boxes.
    browser.resize(390, 844);
    let report = browser.url();
    for (path, shot) in [
        (report.as_str(), "report-phone.png"),
        (&server.url("/exercises") as &str, "exercises-phone.png"),
        (
            &server.url("/exercises/present_board") as &str,
            "exercise-phone.png",
        ),
    ] {
        browser.go(path);
        assert!(!browser.overflows(), "{path} is wider than a phone");
        browser.screenshot(&shots.join(shot));
    }
    // The hint is on screen, not cut off, at phone width.
    browser.go(&report);
    let hint_fits = browser
        .script(
            "var h = document.querySelector('.hint'); var r = h.getBoundingClientRect();
             return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth;",
        )
        .as_bool()
        .unwrap();
    assert!(hint_fits, "the hint fits a phone's width");

    // The instructor's class matrix, after logging out and in again.
    browser.click("header form button[type=submit]");
    browser.wait_for("/login");
    browser.type_into("#username", "prof");
    browser.type_into("#password", "prof-password");
    browser.click("form button[type=submit]");
    // An instructor's start page is the class.
    browser.wait_for("/class");
    let page = browser.text();
    assert!(page.contains("ada") && page.contains("0/18"), "{page}");
    assert!(!browser.overflows(), "the class page is wider than a phone");
    browser.screenshot(&shots.join("class-phone.png"));
    browser.resize(1200, 1000);
    browser.screenshot(&shots.join("class-desktop.png"));
    browser.go(&server.url("/queue"));
    browser.screenshot(&shots.join("queue-desktop.png"));
    eprintln!("screenshots in {}", shots.display());
}

#[test]
fn browser_a_pending_page_stops_polling_and_says_so_once_the_session_has_ended() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    // No workers: the submission stays queued, and its page keeps asking.
    let server = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let id = submit(
        &api_login(&server, "ada", "ada-password"),
        &server,
        "exclusive_or",
        &solution("exclusive_or"),
    );
    let Some(browser) = Browser::start() else {
        return;
    };
    browser.go(&server.url("/login"));
    browser.type_into("#username", "ada");
    browser.type_into("#password", "ada-password");
    browser.click("form button[type=submit]");
    browser.wait_for("/exercises");
    browser.go(&server.url(&format!("/submissions/{id}")));
    assert!(browser.text().contains("Queued: "), "{}", browser.text());

    // A new password ends her sessions: the next poll is answered 401.
    nimlab()
        .args(["users", "passwd", "ada", "--db"])
        .arg(&db)
        .write_stdin("a-new-password\n")
        .assert()
        .success();
    let start = Instant::now();
    while !browser.text().contains("Your session has ended") {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the page still says: {}",
            browser.text()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let link = browser.script("return document.querySelector('#status a').getAttribute('href');");
    assert_eq!(link, format!("/login?next=%2Fsubmissions%2F{id}"));
    // And it has stopped: nothing writes over the status any more.
    browser.script("document.getElementById('status').textContent = 'left alone';");
    std::thread::sleep(Duration::from_secs(4));
    let status = browser.script("return document.getElementById('status').textContent;");
    assert_eq!(status, "left alone");
}

#[test]
fn sigterm_stops_the_server_at_once_and_the_next_start_judges_what_it_was_judging() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    // Short time limits: the sleeping program below ends each case soon.
    let lab = lab_with(&["exclusive_or"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
        let limits = config["limits"].as_table_mut().unwrap();
        limits.insert("wall_ms".into(), toml::Value::Integer(1000));
        limits.insert("cpu_ms".into(), toml::Value::Integer(1000));
    });
    let mut server = Server::start(&db, Some(lab.path()), &["--workers", "1"]);
    let ada = api_login(&server, "ada", "ada-password");
    // A program that sleeps: still being judged when the server is told to stop.
    let sleeper = b"import time\ntime.sleep(30)\n".to_vec();
    let response = upload(&ada, &server, "exclusive_or", "exclusive_or.py", sleeper);
    let id = response.json::<Value>().unwrap()["id"].as_i64().unwrap();
    let start = Instant::now();
    while get_json(&ada, &server, &format!("/api/submissions/{id}")).1["status"] != "running" {
        assert!(start.elapsed() < JUDGING);
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child().id();
    let stopped = Instant::now();
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTERM) }, 0);
    let status = loop {
        if let Some(status) = server.child().try_wait().unwrap() {
            break status;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(20),
            "the server did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}\n{}", server.stderr());
    assert!(stopped.elapsed() < Duration::from_secs(10));
    assert!(server.stderr().contains("stopping"), "{}", server.stderr());
    assert_eq!(
        crate::common::processes_mentioning(&format!("nimlab-{pid}-serve-")),
        0
    );

    let server = Server::start(&db, Some(lab.path()), &["--workers", "1"]);
    let judged = judged(&ada, &server, id);
    // Judged whole after the restart: every case ran to its own time limit.
    assert_eq!(judged["verdict"], "time_limit", "{judged}");
    let cases = judged["report"]["runs"][0]["cases"].as_array().unwrap();
    assert!(
        cases.iter().all(|c| c["verdict"] == "time_limit"),
        "{judged}"
    );
}

#[test]
fn one_students_many_uploads_take_turns_with_another_students_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    // Queued first with no worker, so the order is the queue's alone.
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let eager: Vec<i64> = (0..4)
        .map(|_| submit(&ada, &server, "exclusive_or", &solution("exclusive_or")))
        .collect();
    let late = submit(&grace, &server, "exclusive_or", &solution("exclusive_or"));
    drop(server);
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let started =
        |client: &Client, id: i64| judged(client, &server, id)["started_at"].as_i64().unwrap();
    let grace_started = started(&grace, late);
    let ada_started: Vec<i64> = eager.iter().map(|id| started(&ada, *id)).collect();
    // Ada's first upload, then Grace's (uploaded last), then the rest of Ada's.
    assert!(
        ada_started[0] < grace_started,
        "{ada_started:?} {grace_started}"
    );
    assert!(
        grace_started < ada_started[1],
        "{ada_started:?} {grace_started}"
    );
}

#[test]
fn a_secret_cases_time_and_message_and_nimlabs_own_detail_reach_instructors_only() {
    use crate::common::{CPU_SPELLER, SECRET_FIRST, SPELLED_CASE, case_in, cpu_speller_lab};
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = cpu_speller_lab();
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let ada = api_login(&server, "ada", "ada-password");
    let file = dir.path().join("present_board.py");
    std::fs::write(&file, CPU_SPELLER).unwrap();
    let id = submit(&ada, &server, "present_board", &file);
    let seen = judged(&ada, &server, id);
    assert_eq!(seen["verdict"], "wrong_answer", "{seen}");

    // The instructor's API: the secret case's time spells its input's first number.
    let prof = api_login(&server, "prof", "prof-password");
    let (_, full) = get_json(&prof, &server, &format!("/api/submissions/{id}"));
    let case = case_in(&full, SPELLED_CASE)[0];
    let spent = case["time_ms"].as_u64().unwrap();
    assert!(spent >= SECRET_FIRST * 10, "{case}");
    let message = case["message"].as_str().unwrap().to_string();
    assert!(!message.is_empty(), "{case}");

    // The student's API: the verdict alone; the samples keep their times.
    let case = case_in(&seen, SPELLED_CASE)[0];
    assert_eq!(case["verdict"], "wrong_answer", "{case}");
    assert_eq!(case["message"], "", "{case}");
    for key in ["time_ms", "wall_ms", "feedback"] {
        assert!(case.get(key).is_none(), "{key}: {case}");
    }
    assert!(case_in(&seen, "sample/01-four-rows")[0]["time_ms"].is_u64());

    // The pages: the secret case's row, with its time and message for the instructor only.
    let row = |page: &str| -> String {
        // The table's row (the instructor's page shows the case's feedback above it too).
        let start = page
            .find(&format!("<td><code>{SPELLED_CASE}"))
            .unwrap_or_else(|| panic!("{page}"));
        page[start..].split("</tr>").next().unwrap().to_string()
    };
    let path = format!("/submissions/{id}");
    let (_, page) = text(&form_login(&server, "ada", "ada-password"), &server, &path);
    let seen_row = row(&page);
    assert!(
        !seen_row.contains(" ms") && !seen_row.contains(&spent.to_string()),
        "{seen_row}"
    );
    let (_, page) = text(
        &form_login(&server, "prof", "prof-password"),
        &server,
        &path,
    );
    let full_row = row(&page);
    assert!(full_row.contains(&format!("{spent} ms")), "{full_row}");
    let first_word = message.split_whitespace().next().unwrap();
    assert!(full_row.contains(first_word), "{full_row}");
    assert!(!seen_row.contains(first_word), "{seen_row}");

    // A fork server interrupted on that case: the server's traceback, through nimlab's
    // temporary folder, is the instructor's; the student reads a sentence.
    let _interrupts = crate::common::InterruptsForkServers::start();
    std::fs::write(&file, crate::common::server_killer()).unwrap();
    let id = submit(&ada, &server, "present_board", &file);
    let seen = judged(&ada, &server, id);
    let (_, full) = get_json(&prof, &server, &format!("/api/submissions/{id}"));
    let note = full["report"]["runs"][0]["runner_note"]
        .as_str()
        .unwrap_or_else(|| panic!("no runner note: the server was not interrupted: {full}"));
    assert!(
        note.contains("Traceback") && note.contains("/tmp/nimlab-"),
        "{note}"
    );
    let text = seen.to_string();
    for detail in ["Traceback", "nimlab-", "forkserver"] {
        assert!(!text.contains(detail), "{detail}: {text}");
    }
    assert!(
        seen["report"]["runs"][0]["runner_note"]
            .as_str()
            .unwrap()
            .contains("not your fault"),
        "{seen}"
    );
}

#[test]
fn a_judge_only_process_needs_postgresql_and_its_database_may_come_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("class.db");
    let refused = nimlab()
        .env("NIMLAB_DB", &db)
        .args(["serve", "--no-web"])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("--no-web needs a PostgreSQL --db")
            && stderr.contains(&db.display().to_string()),
        "{stderr}"
    );
    assert!(!db.exists(), "nothing is created for a refused judge");
    // The help names the variable but never shows its value (a password).
    nimlab()
        .env(
            "NIMLAB_DB",
            "postgres://nimlab:s3cret-pw@db.example.edu/course",
        )
        .args(["serve", "--help"])
        .assert()
        .success()
        .stdout(predicates::str::contains("NIMLAB_DB"))
        .stdout(predicates::prelude::PredicateBooleanExt::not(
            predicates::str::contains("s3cret-pw"),
        ));
    nimlab()
        .args(["serve", "--lease", "1", "--db"])
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--lease must be at least 2 seconds",
        ));
}

/// `users list --roster`: every column a roster can hold but the password, as a roster that
/// `users import` reads back into the same accounts; a cell a spreadsheet would take for a
/// formula is quoted; the plain list is unchanged.
#[test]
fn users_list_roster_shows_every_roster_column_and_imports_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path());
    let roster = dir.path().join("roster.csv");
    std::fs::write(
        &roster,
        "username,name,id,section,role,email,lms_id,lms_issuer,lms_client_id,password\n\
         ada,Ada Lovelace,s-1,A,student,ada@uni.example,sub-7,https://lms.example,c1,ada-password\n\
         bob,=HYPERLINK(\"x\"),s-2,B,,,,,,bob-password\n\
         prof,Prof,,,instructor,prof@uni.example,,,,prof-password\n",
    )
    .unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    nimlab()
        .args(["users", "disable", "bob", "--db"])
        .arg(&db)
        .assert()
        .success();
    let listed = |db: &Path| {
        let out = nimlab()
            .args(["users", "list", "--roster", "--db"])
            .arg(db)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let first = listed(&db);
    assert_eq!(
        first,
        "username,name,id,section,role,email,lms_id,lms_issuer,lms_client_id,disabled\n\
         ada,Ada Lovelace,s-1,A,student,ada@uni.example,sub-7,https://lms.example,c1,\n\
         bob,\"'=HYPERLINK(\"\"x\"\")\",s-2,B,student,,,,,yes\n\
         prof,Prof,,,instructor,prof@uni.example,,,,\n"
    );
    assert!(!first.contains("password"), "{first}");
    // Read back into a new store: the same accounts, every column (but bob's name, quoted).
    let listed_again = dir.path().join("listed.csv");
    std::fs::write(&listed_again, &first).unwrap();
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let db2 = store(&other);
    nimlab()
        .args(["users", "import"])
        .arg(&listed_again)
        .arg("--db")
        .arg(&db2)
        .arg("--credentials")
        .arg(dir.path().join("made.csv"))
        .assert()
        .success();
    let second = listed(&db2);
    assert_eq!(
        second
            .lines()
            .filter(|l| !l.starts_with("bob,"))
            .collect::<Vec<_>>(),
        first
            .lines()
            .filter(|l| !l.starts_with("bob,"))
            .collect::<Vec<_>>()
    );
    nimlab()
        .args(["users", "list", "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("ada\tstudent\tAda Lovelace\n"));
}
