//! Pages everyone can use (WCAG 2.1 AA): every page of the website, as a visitor, a student,
//! a TA and an instructor, at a desktop's width and a phone's, passes axe-core's automated
//! rules in Chromium with no violation; and what those rules cannot see: the student's whole
//! path with the keyboard alone, focus that can be seen, status changes read out by screen
//! readers, and verdicts told in words, never by colour alone.

use super::*;

/// The widths every page is checked at: a desktop's and a phone's.
const WIDTHS: [u32; 2] = [1280, 390];

fn log_out(browser: &Browser) {
    browser.click("header form button[type=submit]");
    browser.wait_for("/login");
}

/// axe-core's violations on each page at each width, as `who` sees them.
fn scan(browser: &Browser, axe: &str, who: &str, pages: &[String], server: &Server) -> Vec<String> {
    let mut problems = Vec::new();
    for path in pages {
        for width in WIDTHS {
            browser.resize(width, 900);
            browser.go(&server.url(path));
            for violation in browser.accessibility_violations(axe) {
                problems.push(format!("{who} {path} at {width} px: {violation}"));
            }
            for mute in colour_alone(browser) {
                problems.push(format!(
                    "{who} {path} at {width} px: a verdict told by colour alone: {mute}"
                ));
            }
        }
    }
    problems
}

/// The elements coloured as a verdict (accepted, some, none, not judged) that say nothing
/// in words: the verdict would reach a reader who cannot tell the colours apart by colour
/// alone.
fn colour_alone(browser: &Browser) -> Vec<String> {
    let found = browser.script(
        r#"return Array.from(document.querySelectorAll('.v-accepted, .v-bad, .v-note, .v-none'))
            .filter((e) => e.innerText.trim() === '' && !(e.getAttribute('aria-label') || '').trim())
            .map((e) => e.outerHTML.slice(0, 120));"#,
    );
    found
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e.as_str().unwrap_or_default().to_string())
        .collect()
}

/// A class with something on every page: a TA, an accepted submission, a wrong one with its
/// diff and hints, a whole game with its transcript, a deadline and an extension, and an LMS
/// platform registered. Returns the server (judging) and the submissions' ids.
fn a_class_with_something_on_every_page(dir: &Path) -> (Server, Vec<i64>) {
    let db = class_db(dir);
    nimlab()
        .args(["users", "add", "tess", "--ta", "--db"])
        .arg(&db)
        .write_stdin("tess-password\n")
        .assert()
        .success();
    for args in [
        vec![
            "set",
            "present_board",
            "2030-03-01T00:00:00Z",
            "--late-until",
            "2030-03-08T00:00:00Z",
            "--late-penalty",
            "10",
        ],
        vec!["extend", "ada", "present_board", "2030-03-03T00:00:00Z"],
    ] {
        nimlab()
            .arg("deadline")
            .args(&args)
            .arg("--db")
            .arg(&db)
            .assert()
            .success();
    }
    nimlab()
        .args([
            "lti",
            "add-platform",
            "--issuer",
            "https://lms.example.edu",
            "--client-id",
            "nimlab",
            "--deployment-id",
            "1",
            "--auth-url",
            "https://lms.example.edu/auth",
            "--jwks-url",
            "https://lms.example.edu/jwks",
            "--token-url",
            "https://lms.example.edu/token",
            "--db",
        ])
        .arg(&db)
        .assert()
        .success();
    let server = Server::start(&db, None, &["--workers", "2"]);
    let ada = api_login(&server, "ada", "ada-password");
    let wrong = dir.join("present_board.py");
    std::fs::write(
        &wrong,
        "import json\nboard = json.loads(input())\nprint(board)\nfor i, n in enumerate(board):\n    print(str(i) + ':' + ' X' * n)\n",
    )
    .unwrap();
    let ids = vec![
        submit(&ada, &server, "present_board", &solution("present_board")),
        submit(&ada, &server, "present_board", &wrong),
        submit(&ada, &server, "working_game", &solution("working_game")),
    ];
    for id in &ids {
        let seen = judged(&ada, &server, *id);
        assert_eq!(seen["status"], "done", "{seen}");
    }
    (server, ids)
}

#[test]
fn browser_every_page_for_every_role_passes_axe_cores_wcag_21_aa_rules_at_both_widths() {
    let dir = tempfile::tempdir().unwrap();
    let (server, ids) = a_class_with_something_on_every_page(dir.path());
    let (Some(axe), Some(browser)) = (axe_core(), Browser::start()) else {
        return;
    };
    let [accepted, wrong, game] = ids[..] else {
        unreachable!()
    };
    let mut problems = Vec::new();

    problems.extend(a_visitor(&browser, &axe, &server));

    browser.log_in(&server, "ada", "ada-password");
    // An upload the form refuses (nothing chosen): the page that says why.
    browser.go(&server.url("/exercises/present_board"));
    browser.click("form[action$='/submit'] button[type=submit]");
    browser.wait_for("/submit");
    for width in WIDTHS {
        browser.resize(width, 900);
        for violation in browser.accessibility_violations(&axe) {
            problems.push(format!(
                "student, an upload refused, at {width} px: {violation}"
            ));
        }
    }
    let student: Vec<String> = [
        "/exercises",
        "/exercises/present_board",
        "/exercises/working_game",
        "/submissions",
        "/account",
        "/exercises/no_such_exercise",
    ]
    .iter()
    .map(|p| p.to_string())
    .chain([accepted, wrong, game].map(|id| format!("/submissions/{id}")))
    .collect();
    problems.extend(scan(&browser, &axe, "student", &student, &server));
    log_out(&browser);

    let staff: Vec<String> = [
        "/class",
        "/class/mistakes",
        "/class/similarity?exercise=present_board",
        "/queue",
        "/downloads",
        "/submissions",
        "/submissions?student=ada&exercise=present_board",
        "/account",
    ]
    .iter()
    .map(|p| p.to_string())
    .chain([wrong, game].map(|id| format!("/submissions/{id}")))
    .collect();
    browser.log_in(&server, "tess", "tess-password");
    problems.extend(scan(&browser, &axe, "TA", &staff, &server));
    log_out(&browser);

    browser.log_in(&server, "prof", "prof-password");
    let mut instructor = staff.clone();
    instructor.extend(["/deadlines".to_string(), "/class/lti".to_string()]);
    problems.extend(scan(&browser, &axe, "instructor", &instructor, &server));

    drop(server);

    problems.extend(a_waiting_submission(&browser, &axe));

    assert!(
        problems.is_empty(),
        "{} violations of WCAG 2.1 AA rules:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// What a visitor sees: the login page, the same with a refusal on it, and a page not found.
fn a_visitor(browser: &Browser, axe: &str, server: &Server) -> Vec<String> {
    let mut problems = Vec::new();
    let visitor = vec!["/login".to_string(), "/no/such/page".to_string()];
    problems.extend(scan(browser, axe, "visitor", &visitor, server));
    browser.go(&server.url("/login"));
    browser.type_into("#username", "ada");
    browser.type_into("#password", "not her password");
    browser.click("form button[type=submit]");
    let start = Instant::now();
    while browser
        .script("return document.querySelector('p.error[role=alert]') !== null;")
        .as_bool()
        != Some(true)
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no refusal shown"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    for violation in browser.accessibility_violations(axe) {
        problems.push(format!("visitor, a refused login: {violation}"));
    }
    problems
}

/// A submission waiting for a judge (on a server that judges nothing): its page, with the
/// status line the page updates, which must be read out as it changes.
fn a_waiting_submission(browser: &Browser, axe: &str) -> Vec<String> {
    // A submission waiting for a judge: its status line, which the page updates.
    let waiting_dir = tempfile::tempdir().unwrap();
    let db = class_db(waiting_dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    let id = submit(
        &api_login(&server, "ada", "ada-password"),
        &server,
        "present_board",
        &solution("present_board"),
    );
    browser.log_in(&server, "ada", "ada-password");
    let problems = scan(
        browser,
        axe,
        "student, waiting for a verdict,",
        &[format!("/submissions/{id}")],
        &server,
    );
    assert_eq!(
        browser.script("return document.getElementById('status').getAttribute('role');"),
        "status",
        "the waiting page's status line is read out as it changes"
    );
    problems
}

/// Presses keys on whatever has the focus, as a keyboard does (WebDriver's actions).
fn press(browser: &Browser, keys: &str) {
    let mut actions = Vec::new();
    for key in keys.chars() {
        let key = key.to_string();
        actions.push(serde_json::json!({ "type": "keyDown", "value": key }));
        actions.push(serde_json::json!({ "type": "keyUp", "value": key }));
    }
    browser.call(
        reqwest::Method::POST,
        "/actions",
        serde_json::json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] }),
    );
}

const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";

/// The focused element, described (`tag#id name "text" href`), and whether its focus can be
/// seen: an outline or a ring drawn around it.
fn focused(browser: &Browser) -> (String, bool) {
    let seen = browser.script(
        r#"const e = document.activeElement;
           const style = getComputedStyle(e);
           const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
           const ring = style.boxShadow !== 'none';
           return [e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                   (e.name ? ' ' + e.name : '') + (e.type ? ' ' + e.type : '') +
                   ' "' + (e.innerText || e.value || '').trim().slice(0, 40) + '"' +
                   (e.getAttribute('href') ? ' ' + e.getAttribute('href') : ''),
                   outline || ring];"#,
    );
    (
        seen[0].as_str().unwrap_or_default().to_string(),
        seen[1].as_bool().unwrap_or(false),
    )
}

/// Tabs forward until the focused element's description holds `wanted` (at most 60 presses),
/// checking that each element the focus lands on shows it.
fn tab_to(browser: &Browser, wanted: &str) -> Vec<String> {
    let mut unseen = Vec::new();
    for _ in 0..60 {
        press(browser, TAB);
        let (element, visible) = focused(browser);
        // The body has the focus where Tab has left the page for the browser's own controls.
        if !visible && !element.starts_with("body") {
            unseen.push(element.clone());
        }
        if element.contains(wanted) {
            return unseen;
        }
    }
    panic!("{wanted} is never reached with Tab from {}", browser.url());
}

/// The program typed into the form: present_board, right, a little slow (so that its
/// submission's page is seen waiting first), with no tab character (Tab moves the focus).
const TYPED: &str = "import sys, time
time.sleep(0.1)
board = [int(w) for w in sys.stdin.readline().split()]
print('\\n'.join(['Nim:'] + [str(i) + ':' + ' X' * n for i, n in enumerate(board, 1)]))
";

#[test]
fn browser_a_student_goes_from_login_to_a_verdict_with_the_keyboard_alone_and_always_sees_the_focus()
 {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "1"]);
    let Some(browser) = Browser::start() else {
        return;
    };
    let mut unseen = Vec::new();
    browser.go(&server.url("/login"));
    unseen.extend(tab_to(&browser, "input#username"));
    press(&browser, "ada");
    unseen.extend(tab_to(&browser, "input#password"));
    press(&browser, "ada-password");
    press(&browser, ENTER);
    browser.wait_for("/exercises");

    unseen.extend(tab_to(&browser, "/exercises/present_board"));
    press(&browser, ENTER);
    browser.wait_for("/exercises/present_board");
    unseen.extend(tab_to(&browser, "paste your program"));
    press(&browser, ENTER);
    unseen.extend(tab_to(&browser, "textarea#source"));
    press(&browser, TYPED);
    unseen.extend(tab_to(&browser, "button submit \"Submit\""));
    press(&browser, ENTER);
    browser.wait_for("/submissions/");

    // Waiting: the status line is a status region, so its changes are read out.
    let waiting = browser.script(
        "const s = document.getElementById('status'); return s ? s.getAttribute('role') : 'judged already';",
    );
    assert!(
        waiting == "status" || waiting == "judged already",
        "the waiting page's status line: {waiting}"
    );
    let start = Instant::now();
    while !browser.text().contains("Accepted") && !browser.text().contains("accepted") {
        assert!(
            start.elapsed() < JUDGING,
            "no verdict with the keyboard: {}",
            browser.text()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let title = browser.script("return document.title;");
    assert!(
        title.as_str().unwrap_or_default().contains("accepted"),
        "the report's title tells the verdict first: {title}"
    );
    // And from the report, on with the keyboard: the case list, then logging out.
    unseen.extend(tab_to(&browser, "button submit \"Log out\""));
    press(&browser, ENTER);
    browser.wait_for("/login");
    assert!(
        unseen.is_empty(),
        "the focus could not be seen on: {unseen:#?}"
    );
}
