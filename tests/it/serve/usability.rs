//! What a newcomer's first hour on the website ran into: several login tabs, a phone's
//! keyboard, the class matrix's width, Markdown in messages, a long line of output, the
//! Moodle export, and tests that passed without their tools.

use super::*;

#[test]
fn login_pages_open_in_several_tabs_all_log_in() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
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
    let server = Server::start(&db, Some(lab.path()), &["--workers", "1"]);
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
    let server = Server::start(&db, None, &["--workers", "0"]);
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
    let server = Server::start(&db, None, &["--workers", "0"]);
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
        "/submissions".to_string(),
        format!("/submissions/{id}"),
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
    let log_in = |username: &str, password: &str| {
        browser.go(&server.url("/login"));
        browser.type_into("#username", username);
        browser.type_into("#password", password);
        browser.click("form button[type=submit]");
        let start = Instant::now();
        while browser.url().ends_with("/login") {
            assert!(start.elapsed() < Duration::from_secs(60), "not logged in");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
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
}

#[test]
fn a_test_whose_tool_is_missing_fails_and_says_how_to_install_it_unless_skipped_on_purpose() {
    let test = "serve::browser_a_pending_page_stops_polling_and_says_so_once_the_session_has_ended";
    let run = |skip: bool| {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env("NIMLAB_CHROMEDRIVER", "/nonexistent/chromedriver")
            .env_remove("CI");
        if skip {
            command.env("NIMLAB_SKIP_MISSING_TOOLS", "1");
        } else {
            command.env_remove("NIMLAB_SKIP_MISSING_TOOLS");
        }
        let output = command.output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout).to_string()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.success(), text)
    };
    let (passed, text) = run(false);
    assert!(!passed, "{text}");
    assert!(
        text.contains("apt-get install chromium chromium-driver")
            && text.contains("NIMLAB_SKIP_MISSING_TOOLS=1"),
        "{text}"
    );
    assert!(text.contains("1 failed"), "{text}");
    let (passed, text) = run(true);
    assert!(passed, "{text}");
    assert!(
        text.contains("skipped (NIMLAB_SKIP_MISSING_TOOLS=1)")
            && text.contains("not tested in a browser"),
        "{text}"
    );
}
