//! What a newcomer's first hour on the website ran into: several login tabs, a phone's
//! keyboard, the class matrix's width, Markdown in messages, a long line of output, the
//! Moodle export, and tests that passed without their tools.

use super::*;
use crate::common::write_png;
use reqwest::Method;

#[test]
fn login_pages_open_in_several_tabs_all_log_in() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    let browser = client();
    let page = |client: &Client| {
        client
            .get(server.url("/login"))
            .send()
            .unwrap()
            .text()
            .unwrap()
    };
    let first = page(&browser);
    let second = page(&browser);
    // The username field is typed as it is: no capital letter a phone would add.
    assert!(
        first.contains(r#"autocapitalize="none""#) && first.contains(r#"autocorrect="off""#),
        "{first}"
    );
    // The first tab's form, sent after the second tab was opened.
    let response = browser
        .post(server.url("/login"))
        .form(&[
            ("username", "ada"),
            ("password", "ada-password"),
            ("csrf", &csrf_of(&first)),
        ])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(csrf_of(&first), csrf_of(&second));
    // Another browser's token is still refused.
    let stranger = page(&client());
    let refused = browser
        .post(server.url("/login"))
        .form(&[
            ("username", "ada"),
            ("password", "ada-password"),
            ("csrf", &csrf_of(&stranger)),
        ])
        .send()
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
}

#[test]
fn a_long_line_of_output_is_shown_up_to_the_limit_and_hints_show_code_not_backticks() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let ada = api_login(&server, "ada", "ada-password");
    // Floats where an integer was expected: one line of 27,000 characters.
    let floats = dir.path().join("exclusive_or.py");
    std::fs::write(&floats, "print('1.5' * 9000)\n").unwrap();
    let id = submit(&ada, &server, "exclusive_or", &floats);
    let report = judged(&ada, &server, id).to_string();
    assert!(report.contains("1.51.51.51.5"), "{report}");
    assert!(
        report.contains("more character(s) of this line not shown"),
        "{report}"
    );
    let page_client = form_login(&server, "ada", "ada-password");
    let (_, page) = text(&page_client, &server, &format!("/submissions/{id}"));
    assert!(page.contains("1.51.51.51.5"), "{page}");

    // A hint that names code in backticks shows it as code.
    let debug = root().join("tests/submissions/debug_print/present_board.py");
    let id = submit(&ada, &server, "present_board", &debug);
    judged(&ada, &server, id);
    let (_, page) = text(&page_client, &server, &format!("/submissions/{id}"));
    let hints: Vec<&str> = page
        .split(r#"<p class="hint">"#)
        .skip(1)
        .map(|rest| rest.split("</p>").next().unwrap())
        .collect();
    assert!(
        hints.iter().any(|h| h.contains("remove debug prints")),
        "{page}"
    );
    for hint in &hints {
        assert!(!hint.contains('`'), "a literal backtick: {hint}");
    }
    assert!(hints.iter().any(|h| h.contains("<code>")), "{hints:?}");
}

#[test]
fn moodle_csv_matches_by_username_when_some_accounts_have_no_id_number() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    // Ada has an ID number; Grace has none.
    let roster = dir.path().join("ids.csv");
    std::fs::write(&roster, "username,id\nada,1001\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    let server = Server::in_process(&db, None, 0);
    let prof = form_login(&server, "prof", "prof-password");
    let (status, csv) = text(&prof, &server, "/downloads/moodle.csv");
    assert_eq!(status, StatusCode::OK);
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("Username,"), "{csv}");
    let keys: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.split(',').next().unwrap())
        .collect();
    assert_eq!(keys, ["ada", "grace"], "{csv}");
}

/// Whether the page's widest element fits the window, and (on the class page) whether the
/// matrix's first and last columns are inside its scrolling box.
const LAYOUT: &str = "
    var fits = document.documentElement.scrollWidth <= window.innerWidth + 1;
    var matrix = document.querySelector('table.matrix');
    var sticky = true, scrolls = false;
    if (matrix) {
        var box = matrix.parentElement.getBoundingClientRect();
        var rows = matrix.querySelectorAll('tr');
        for (var i = 0; i < rows.length; i++) {
            var cells = rows[i].children;
            var first = cells[0].getBoundingClientRect();
            var last = cells[cells.length - 1].getBoundingClientRect();
            if (first.left < box.left - 1 || last.right > box.right + 1) { sticky = false; }
        }
        scrolls = matrix.parentElement.scrollWidth > matrix.parentElement.clientWidth + 1;
        matrix.parentElement.scrollLeft = 10000;
        var rows2 = matrix.querySelectorAll('tr');
        for (var j = 0; j < rows2.length; j++) {
            var c = rows2[j].children;
            var f = c[0].getBoundingClientRect();
            if (f.left < box.left - 1) { sticky = false; }
        }
    }
    return [fits, sticky, scrolls];
";

#[test]
fn browser_every_page_fits_a_desktop_and_a_phone_and_the_matrix_keeps_names_and_points_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = lab_with_a_wide_image();
    let server = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let ada = api_login(&server, "ada", "ada-password");
    let id = submit(&ada, &server, "present_board", &solution("present_board"));
    let Some(browser) = Browser::start() else {
        return;
    };
    let student_pages = [
        "/exercises/no_such_exercise".to_string(),
        "/exercises".to_string(),
        "/exercises/present_board".to_string(),
        "/exercises/working_game".to_string(),
        // The statement's files opened on their own: an image wider than any window, and a
        // handout with a long line.
        "/exercises/present_board/files/wide.png".to_string(),
        "/exercises/present_board/files/notes.txt".to_string(),
        "/submissions".to_string(),
        format!("/submissions/{id}"),
        "/account".to_string(),
    ];
    let submission = format!("/submissions/{id}");
    let instructor_pages = [
        "/class",
        "/queue",
        "/downloads",
        "/deadlines",
        "/submissions",
        "/submissions?student=ada&exercise=present_board",
        submission.as_str(),
    ];
    let log_in = |username: &str, password: &str| browser.log_in(&server, username, password);
    let check = |path: &str, width: u32| {
        browser.resize(width, 900);
        browser.go(&server.url(path));
        let layout = browser.script(LAYOUT);
        assert_eq!(layout[0], true, "{path} is wider than {width} px");
        assert_eq!(
            layout[1], true,
            "{path} at {width} px: the matrix hides a name or the points"
        );
        layout[2].as_bool().unwrap()
    };
    browser.go(&server.url("/login"));
    for width in [1280, 390] {
        browser.resize(width, 900);
        assert!(!browser.overflows(), "the login page at {width} px");
    }
    log_in("ada", "ada-password");
    for path in &student_pages {
        for width in [1280, 390] {
            check(path, width);
        }
    }
    statement_image_fits_a_phone(&browser, &server);
    browser.click("header form button[type=submit]");
    browser.wait_for("/login");
    log_in("prof", "prof-password");
    for path in instructor_pages {
        for width in [1280, 390] {
            let scrolls = check(path, width);
            if path == "/class" {
                // The whole lab's matrix fits a desktop without scrolling; a phone scrolls it.
                assert_eq!(scrolls, width == 390, "/class at {width} px");
            }
        }
    }
    new_password_page_fits(&browser, &server);
}

/// The whole lab, with an image wider than any window in present_board's statement, and a
/// text file with a long line beside it.
fn lab_with_a_wide_image() -> tempfile::TempDir {
    let lab = lab_with(&LAB, |_| {});
    let statement = lab.path().join("exercises/present_board");
    write_png(&statement.join("wide.png"), 1600, 120);
    let long_line = "1 3 5 7 ".repeat(300);
    std::fs::write(
        statement.join("notes.txt"),
        format!("Boards:\n{long_line}\n"),
    )
    .unwrap();
    let readme = statement.join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(&readme, format!("{text}\n![A wide board](wide.png)\n")).unwrap();
    lab
}

/// The statement's image was served and drawn, shrunk to the phone's width.
fn statement_image_fits_a_phone(browser: &Browser, server: &Server) {
    browser.resize(390, 900);
    browser.go(&server.url("/exercises/present_board"));
    let image = browser.script(
        "var i = document.querySelector('main img[src$=\"wide.png\"]'); return [i.naturalWidth, i.getBoundingClientRect().width];",
    );
    assert_eq!(image[0], 1600, "the image did not load");
    assert!(image[1].as_f64().unwrap() <= 390.0, "{image:?}");
}

/// The page an instructor gets after giving a student a new password.
fn new_password_page_fits(browser: &Browser, server: &Server) {
    for width in [1280, 390] {
        browser.resize(width, 900);
        browser.go(&server.url("/class"));
        browser.click("form[action=\"/class/password\"] button[type=submit]");
        browser.wait_for("/class/password");
        let layout = browser.script(LAYOUT);
        assert_eq!(layout[0], true, "the new password's page at {width} px");
        assert!(
            browser
                .script("return document.querySelector('code.password').textContent.length")
                .as_u64()
                .unwrap()
                >= 12
        );
    }
}

/// The lab's nine exercises, in its order.
const LAB: [&str; 9] = [
    "present_board",
    "make_move",
    "exclusive_or",
    "bin_num",
    "bitwise_xor",
    "nim_sum",
    "optimal_move",
    "ui",
    "working_game",
];

/// A newcomer's `cargo test` passes without the tools some tests need, and names each test
/// it skipped even though the harness captures a passing test's output; CI (or
/// `NIMLAB_REQUIRE_TOOLS=1`) fails such a test instead, naming the install command.
#[test]
fn a_test_whose_tool_is_missing_is_skipped_by_name_on_a_newcomers_machine_and_fails_under_ci() {
    let test = "serve::browser_a_pending_page_stops_polling_and_says_so_once_the_session_has_ended";
    let run = |required: bool| {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command
            .args(["--exact", test, "--test-threads=1"])
            .env("NIMLAB_CHROMEDRIVER", "/nonexistent/chromedriver")
            .env_remove("CI");
        if required {
            command.env("NIMLAB_REQUIRE_TOOLS", "1");
        } else {
            command.env_remove("NIMLAB_REQUIRE_TOOLS");
        }
        let output = command.output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout).to_string()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.success(), text)
    };
    let (passed, text) = run(true);
    assert!(!passed, "{text}");
    assert!(
        text.contains("apt-get install chromium chromium-driver") && text.contains("1 failed"),
        "{text}"
    );
    let (passed, text) = run(false);
    assert!(passed, "{text}");
    assert!(
        text.contains(&format!(
            "skipped {test}: Chromium or chromedriver is not installed"
        )) && text.contains("not tested in a browser")
            && text.contains("bash .ci/run"),
        "{text}"
    );
}

/// Whether a page has the navigation of a logged-in user, and an instructor's links.
fn navigation(page: &str) -> (bool, bool) {
    let user = page.contains("href=\"/exercises\"")
        && page.contains("href=\"/submissions\"")
        && page.contains("Log out");
    (user, page.contains("href=\"/class\""))
}

/// An error page as a browser gets it: in the site's layout and with its security headers.
fn error_page(response: Response, status: StatusCode, what: &str) -> String {
    assert_eq!(response.status(), status, "{what}");
    let headers = response.headers();
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"),
        "{what}: {headers:?}"
    );
    assert_eq!(headers["x-content-type-options"], "nosniff", "{what}");
    assert_eq!(headers["x-frame-options"], "DENY", "{what}");
    assert!(
        headers.contains_key("content-security-policy"),
        "{what}: {headers:?}"
    );
    let page = response.text().unwrap();
    assert!(
        page.contains("<header class=\"top\"") && page.contains("href=\"/static/style.css\""),
        "{what}: {page}"
    );
    // Nothing of the request is shown back as markup.
    assert!(!page.contains("<script"), "{what}: {page}");
    page
}

#[test]
fn an_error_page_has_the_sites_navigation_for_whoever_is_logged_in_and_the_api_answers_json() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = form_login(&server, "ada", "ada-password");
    let prof = form_login(&server, "prof", "prof-password");
    let visitor = client();
    let get = |who: &Client, path: &str| who.get(server.url(path)).send().unwrap();
    // (A visitor is sent to log in before the pages that need a session look further.)
    for (path, status, visitor_too) in [
        ("/no/such/page", StatusCode::NOT_FOUND, true),
        ("/exercises/no_such_exercise", StatusCode::NOT_FOUND, false),
        ("/submissions/999999", StatusCode::NOT_FOUND, false),
        (
            "/exercises/present_board/files/none.png",
            StatusCode::NOT_FOUND,
            false,
        ),
        // An address axum cannot read, and a route that takes no GET: axum's errors.
        (
            "/submissions/%3Cscript%3Ealert(1)",
            StatusCode::BAD_REQUEST,
            false,
        ),
        ("/logout", StatusCode::METHOD_NOT_ALLOWED, true),
    ] {
        // A student's navigation, an instructor's, and a visitor's link to log in.
        let page = error_page(get(&ada, path), status, path);
        assert_eq!(navigation(&page), (true, false), "{path}: {page}");
        let page = error_page(get(&prof, path), status, path);
        assert_eq!(navigation(&page), (true, true), "{path}: {page}");
        if visitor_too {
            let page = error_page(get(&visitor, path), status, path);
            assert_eq!(navigation(&page), (false, false), "{path}: {page}");
            assert!(
                page.contains("<a href=\"/login\">Log in</a>"),
                "{path}: {page}"
            );
        }
    }
    for path in ["/class", "/queue", "/downloads"] {
        let page = error_page(get(&ada, path), StatusCode::FORBIDDEN, path);
        assert_eq!(navigation(&page), (true, false), "{path}: {page}");
    }
    // The route's methods are still named.
    assert_eq!(get(&ada, "/logout").headers()["allow"], "POST");
    // The guard's own refusal, a form sent from another site, for a user and a visitor.
    for (who, logged_in) in [(&ada, true), (&visitor, false)] {
        let response = who
            .post(server.url("/rejudge"))
            .header("origin", "http://elsewhere.example")
            .form(&[("exercise", "present_board")])
            .send()
            .unwrap();
        let page = error_page(response, StatusCode::FORBIDDEN, "another site's form");
        assert_eq!(navigation(&page).0, logged_in, "{page}");
        assert_eq!(page.contains("href=\"/login\""), !logged_in, "{page}");
    }
    // A form axum cannot read (no username, no password).
    let response = visitor
        .post(server.url("/login"))
        .form(&[("next", "/")])
        .send()
        .unwrap();
    let page = error_page(response, StatusCode::UNPROCESSABLE_ENTITY, "a form");
    assert!(page.contains("could not be read"), "{page}");
    // The API answers JSON for each of these, in the same words.
    let api = api_login(&server, "ada", "ada-password");
    for (method, path, status) in [
        (Method::GET, "/api/no/such", StatusCode::NOT_FOUND),
        (Method::GET, "/api/submissions/abc", StatusCode::BAD_REQUEST),
        (
            Method::DELETE,
            "/api/exercises",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let response = api.request(method, server.url(path)).send().unwrap();
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
        let body: Value = response.json().unwrap();
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}: {body}"
        );
    }
}
