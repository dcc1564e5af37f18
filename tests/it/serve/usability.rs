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

/// The whole lab, with an image wider than any window in present_board's statement.
fn lab_with_a_wide_image() -> tempfile::TempDir {
    let lab = lab_with(&LAB, |_| {});
    let statement = lab.path().join("exercises/present_board");
    write_png(&statement.join("wide.png"), 1600, 120);
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

/// Writes a `width` × `height` PNG, one colour, made by Python's zlib (a real image that a
/// browser decodes, so its drawn size can be measured).
fn write_png(path: &Path, width: u32, height: u32) {
    let script = r#"
import struct, sys, zlib
w, h = int(sys.argv[2]), int(sys.argv[3])
rows = b"".join(b"\x00" + b"\x30\x60\xc0" * w for _ in range(h))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
"#;
    let status = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .args([width.to_string(), height.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
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

#[test]
fn an_error_page_keeps_the_sites_navigation_for_a_logged_in_user() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let ada = form_login(&server, "ada", "ada-password");
    let navigation = |page: &str| {
        page.contains("href=\"/exercises\"")
            && page.contains("href=\"/submissions\"")
            && page.contains("Log out")
    };
    for (path, status) in [
        ("/no/such/page", StatusCode::NOT_FOUND),
        ("/exercises/no_such_exercise", StatusCode::NOT_FOUND),
        ("/submissions/999999", StatusCode::NOT_FOUND),
        ("/class", StatusCode::FORBIDDEN),
        ("/queue", StatusCode::FORBIDDEN),
    ] {
        let (got, page) = text(&ada, &server, path);
        assert_eq!(got, status, "{path}");
        assert!(navigation(&page), "{path}: {page}");
    }
    // The guard's own refusal, a form sent from another site, keeps it too.
    let response = ada
        .post(server.url("/rejudge"))
        .header("origin", "http://elsewhere.example")
        .form(&[("exercise", "present_board")])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(navigation(&response.text().unwrap()));
    // A visitor without a session gets the page without it; the API still answers JSON.
    let (got, page) = text(&client(), &server, "/no/such/page");
    assert_eq!(got, StatusCode::NOT_FOUND);
    assert!(!page.contains("Log out") && page.contains("there is no such page"));
    let response = ada.get(server.url("/api/no/such")).send().unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(response.json::<Value>().unwrap()["error"].is_string());
}
