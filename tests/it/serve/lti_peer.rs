//! nimlab launched by a second, independent LTI 1.3 platform: `tests/lti_platform/platform.py`,
//! built on PyPI's lti1p3platform, whose login initiation, id_token, access tokens and their
//! checks are the library's, not ours (the platform in `lti.rs` is written by the same hands
//! as the tool). A learner is launched in headless Chromium, uploads, and the score reaches
//! the platform's line item; an instructor's launch makes an instructor.
//!
//! The platform's Python is found through NIMLAB_LTI_PLATFORM_PYTHON or in the virtual
//! environment .ci/run installs (~/.cache/nimlab/lti-platform-venv). Without it the test is
//! skipped by name, or fails under CI (see `common::tool_missing`).

use super::lti::lti_server;
use super::*;

const CLIENT_ID: &str = "nimlab-py-client";
const DEPLOYMENT: &str = "py-deployment-1";

/// A Python with lti1p3platform installed.
fn platform_python() -> Option<PathBuf> {
    let candidate = match std::env::var_os("NIMLAB_LTI_PLATFORM_PYTHON") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("HOME")?)
            .join(".cache/nimlab/lti-platform-venv/bin/python"),
    };
    if candidate.is_file() {
        return Some(candidate);
    }
    crate::common::tool_missing(
        &format!(
            "a Python with lti1p3platform (looked for at {})",
            candidate.display()
        ),
        "python3 -m venv ~/.cache/nimlab/lti-platform-venv && ~/.cache/nimlab/lti-platform-venv/bin/pip install lti1p3platform==0.1.8 (or set NIMLAB_LTI_PLATFORM_PYTHON to a Python that has it)",
        "nimlab was not launched by a second LTI platform implementation",
    );
    None
}

/// `platform.py` running, killed when dropped; its stderr goes to a file.
struct PyPlatform {
    child: Child,
    base: String,
    stderr: PathBuf,
}

impl PyPlatform {
    fn start(python: &Path, tool: &str, dir: &Path) -> PyPlatform {
        let stderr = dir.join("platform.stderr");
        let script = root().join("tests/lti_platform/platform.py");
        let mut child = Command::new(python)
            .arg(&script)
            .args(["--tool", tool, "--client-id", CLIENT_ID])
            .args(["--deployment-id", DEPLOYMENT])
            .env("PYTHONUNBUFFERED", "1")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("the platform's Python starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver.recv_timeout(Duration::from_secs(60));
        let mut platform = PyPlatform {
            child,
            base: String::new(),
            stderr,
        };
        platform.base = line
            .ok()
            .and_then(|l| l.trim().strip_prefix("listening ").map(str::to_string))
            .unwrap_or_else(|| panic!("platform.py did not start:\n{}", platform.log()));
        platform
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// What the platform received: `{"scores": [...], "items": [...], "refusals": [...]}`.
    fn received(&self) -> Value {
        client()
            .get(format!("{}/received", self.base))
            .send()
            .and_then(Response::json)
            .unwrap_or_else(|e| panic!("/received: {e}\n{}", self.log()))
    }

    fn register(&self, db: &Path) {
        nimlab()
            .args(["lti", "add-platform", "--issuer", &self.base])
            .args(["--client-id", CLIENT_ID, "--deployment-id", DEPLOYMENT])
            .args(["--auth-url", &format!("{}/auth", self.base)])
            .args(["--jwks-url", &format!("{}/jwks", self.base)])
            .args(["--token-url", &format!("{}/token", self.base)])
            .args(["--context", "py-course-3"])
            .arg("--db")
            .arg(db)
            .assert()
            .success();
    }
}

impl Drop for PyPlatform {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Both sides' stderr, for a failure to explain itself.
fn logs(server: &Server, platform: &PyPlatform) -> String {
    format!(
        "\n--- platform.py stderr:\n{}\n--- nimlab stderr:\n{}",
        platform.log(),
        server.stderr()
    )
}

/// A launch from the platform before it is registered is refused; registered while the
/// server runs (it reads the platforms at each launch), the same launch will go through.
fn refused_until_registered(server: &Server, platform: &PyPlatform, db: &Path) {
    let start = client()
        .get(format!("{}/start?hint=learner-1", platform.base))
        .send()
        .unwrap();
    assert_eq!(
        start.status(),
        StatusCode::FOUND,
        "{}",
        logs(server, platform)
    );
    let login = start.headers()["location"].to_str().unwrap().to_string();
    assert!(login.starts_with(&server.url("/lti/login?")), "{login}");
    let response = client().get(&login).send().unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let page = response.text().unwrap();
    assert!(page.contains("is not registered here"), "{page}");
    platform.register(db);
}

/// The learner's launch in the browser, and an upload of the model solution from the page.
fn learner_launches_and_uploads(browser: &Browser, server: &Server, platform: &PyPlatform) {
    browser.go(&format!("{}/start?hint=learner-1", platform.base));
    browser.wait_for("/exercises/present_board");
    assert!(
        browser.url().starts_with(&server.base),
        "{}{}",
        browser.url(),
        logs(server, platform)
    );
    let page = browser.text();
    assert!(
        page.contains("py.learner@uni.example") && page.contains("Log out"),
        "{page}{}",
        logs(server, platform)
    );
    assert_eq!(
        browser.script("return document.querySelector(\"header a[href='/class']\") !== null;"),
        false,
        "a learner is not staff"
    );
    let source = std::fs::read_to_string(solution("present_board")).unwrap();
    browser.script(&format!(
        "document.querySelector('textarea').value = {}; return true;",
        serde_json::to_string(&source).unwrap()
    ));
    browser.click("form[action$='/submit'] button[type=submit]");
    browser.wait_for("/submissions/");
}

/// The learner's score, once the platform has it (within 90 s).
fn learners_score(server: &Server, platform: &PyPlatform) -> Value {
    let start = Instant::now();
    loop {
        let received = platform.received();
        let scores = received["scores"].as_array().unwrap();
        if let Some(score) = scores.iter().find(|s| s["body"]["userId"] == "py-user-1") {
            return score.clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "no score arrived: {received}{}",
            logs(server, platform)
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// After the learner logs out, the instructor's launch: an instructor's account, which sees
/// the class and the LTI page (TAs do not).
fn teacher_launches(browser: &Browser, server: &Server, platform: &PyPlatform) {
    browser.click("header form[action='/logout'] button");
    browser.wait_for("/login");
    browser.go(&format!("{}/start?hint=teacher-1", platform.base));
    browser.wait_for("/exercises/present_board");
    let page = browser.text();
    assert!(
        page.contains("py.teacher@uni.example") && page.contains("Class"),
        "{page}{}",
        logs(server, platform)
    );
    assert_eq!(
        browser.script("return document.querySelector(\"header a[href='/class']\") !== null;"),
        true,
        "{page}"
    );
    browser.go(&server.url("/class/lti"));
    let page = browser.text();
    assert!(page.contains(&platform.base), "{page}");
}

/// The instructor adds an exercise to the course by Deep Linking: the library's platform
/// checks the signed answer (nimlab's key, its data sent back, its audience) and keeps
/// the link.
fn teacher_adds_an_exercise(browser: &Browser, server: &Server, platform: &PyPlatform) {
    browser.go(&format!("{}/start?hint=teacher-1&deep=1", platform.base));
    browser.wait_for("/lti/deep-link/");
    browser.click("input[value=exclusive_or]");
    browser.click("form[action^='/lti/deep-link/'] button[type=submit]");
    browser.wait_for("/deep-return");
    assert!(
        browser.text().contains("received 1 items"),
        "{}{}",
        browser.text(),
        logs(server, platform)
    );
    let items = platform.received()["items"].clone();
    assert_eq!(items[0]["type"], "ltiResourceLink", "{items}");
    assert_eq!(items[0]["custom"]["exercise"], "exclusive_or", "{items}");
    assert_eq!(
        items[0]["url"],
        format!("{}/exercises/exclusive_or", server.base)
    );
}

#[test]
fn browser_a_second_platform_implementation_launches_nimlab_and_receives_the_score() {
    let Some(python) = platform_python() else {
        return;
    };
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = lti_server(&db, lab.path(), "1");
    let platform = PyPlatform::start(&python, &server.base, dir.path());
    refused_until_registered(&server, &platform, &db);
    learner_launches_and_uploads(&browser, &server, &platform);
    let score = learners_score(&server, &platform);
    // The line item's query string stays after /scores, as a Moodle line item needs.
    assert_eq!(
        score["path_and_query"],
        "/lineitems/7/lineitem/scores?course=3"
    );
    assert_eq!(
        score["content_type"],
        "application/vnd.ims.lis.v1.score+json"
    );
    let body = &score["body"];
    assert_eq!(body["scoreGiven"], 10.0, "{score}");
    assert_eq!(body["scoreMaximum"], 10.0, "{score}");
    assert_eq!(body["activityProgress"], "Completed", "{score}");
    assert_eq!(body["gradingProgress"], "FullyGraded", "{score}");
    teacher_launches(&browser, &server, &platform);
    teacher_adds_an_exercise(&browser, &server, &platform);
    let received = platform.received();
    assert_eq!(
        received["refusals"],
        serde_json::json!([]),
        "{}",
        logs(&server, &platform)
    );
}
