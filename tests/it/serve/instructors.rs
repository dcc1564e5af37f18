//! The instructor's side of the website: their start page, the submission page's rejudge
//! button and secret cases in full, the paginated and filtered list of submissions,
//! accounts disabled and removed, and the access log.

use super::*;

/// Runs `nimlab users ARGS --db DB`; returns its stdout.
fn users(db: &Path, args: &[&str]) -> String {
    let output = nimlab()
        .arg("users")
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

fn location(client: &Client, server: &Server, path: &str) -> String {
    let response = client.get(server.url(path)).send().unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER, "{path}");
    response.headers()["location"].to_str().unwrap().to_string()
}

#[test]
fn an_instructors_start_page_is_the_class_and_a_students_the_exercises() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let prof = form_login(&server, "prof", "prof-password");
    assert_eq!(location(&prof, &server, "/"), "/class");
    let ada = form_login(&server, "ada", "ada-password");
    assert_eq!(location(&ada, &server, "/"), "/exercises");
    assert_eq!(location(&client(), &server, "/"), "/login");
}

/// A lab whose present_board has a secret case found nowhere else; its input and two
/// distinctive lines of its expected output.
fn secret_case_lab() -> (tempfile::TempDir, &'static str, String) {
    let lab = lab_with(&["present_board"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    });
    let input = "27 18 28 18 28 45 90 45";
    let mut expected = String::from("Nim:\n");
    for (row, size) in input.split(' ').enumerate() {
        let size: usize = size.parse().unwrap();
        expected.push_str(&format!("{}:{}\n", row + 1, " X".repeat(size)));
    }
    let distinctive = format!("7:{}\n8:{}\n", " X".repeat(90), " X".repeat(45));
    let secret = lab.path().join("fixtures/present_board/secret");
    std::fs::write(secret.join("99-pi-and-e.in"), format!("{input}\n")).unwrap();
    std::fs::write(secret.join("99-pi-and-e.out"), &expected).unwrap();
    (lab, input, distinctive)
}

#[test]
fn an_instructor_sees_a_secret_case_whole_and_judge_again_above_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let (lab, input, distinctive) = secret_case_lab();
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let ada = api_login(&server, "ada", "ada-password");
    // It prints a debugging line first: wrong on every case, secret ones too.
    let id = submit(
        &ada,
        &server,
        "present_board",
        &root().join("tests/submissions/debug_print/present_board.py"),
    );
    judged(&ada, &server, id);
    let path = format!("/submissions/{id}");
    let (status, page) = text(
        &form_login(&server, "prof", "prof-password"),
        &server,
        &path,
    );
    assert_eq!(status, StatusCode::OK);
    // The secret case's input, expected output and what the program printed.
    let start = page
        .find("<code>secret/99-pi-and-e</code>")
        .unwrap_or_else(|| panic!("{page}"));
    let case = &page[start..start + page[start..].find("</details>").unwrap()];
    assert!(case.contains(input), "{case}");
    assert!(case.contains("expected: Nim:"), "{case}");
    assert!(case.contains("got:      DEBUG board"), "{case}");
    // The whole expected output and the whole of what the program printed, not only the
    // lines around the first difference, each as a block of its own (not folded away).
    assert!(!case.contains("<details"), "{case}");
    for (label, first) in [
        ("The whole expected output:", "Nim:"),
        ("The whole of what the program printed:", "DEBUG board"),
    ] {
        let at = case
            .find(label)
            .unwrap_or_else(|| panic!("{label}: {case}"));
        let block = &case[at..];
        let block = &block[..block.find("</pre>").unwrap()];
        assert!(
            block.contains(&format!("<pre tabindex=\"0\">{first}")),
            "{block}"
        );
        for line in distinctive.lines() {
            assert!(block.contains(line), "{line} missing from {block}");
        }
    }
    // Its message too, in the table of cases.
    assert!(
        case.contains("line 1: expected <code>Nim:</code>"),
        "{case}"
    );
    // "Judge again" comes before the report, not below it.
    let button = page.find("Judge again").unwrap();
    let report = page.find("class=\"run\"").unwrap();
    assert!(
        button < report,
        "Judge again at {button}, the report at {report}"
    );
    // The student still sees nothing of it.
    let (_, page) = text(&form_login(&server, "ada", "ada-password"), &server, &path);
    assert!(!page.contains(input) && !page.contains(&distinctive));
    assert!(!page.contains("Judge again"));
}

fn upload_many(client: &Client, server: &Server, exercise: &str, count: usize) {
    for _ in 0..count {
        let response = upload(client, server, exercise, "a.py", b"print(1)\n".to_vec());
        assert_eq!(response.status(), StatusCode::ACCEPTED);
    }
}

#[test]
fn the_submissions_list_comes_in_pages_with_filters() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process_with(&db, Some(lab.path()), |options| {
        options.workers = 0;
        options.max_queued = 100;
    });
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    upload_many(&ada, &server, "present_board", 45);
    upload_many(&ada, &server, "exclusive_or", 10);
    upload_many(&grace, &server, "exclusive_or", 5);
    let prof = form_login(&server, "prof", "prof-password");
    let (_, page) = text(&prof, &server, "/submissions");
    assert!(page.contains("showing 1–50 of 60"), "{page}");
    assert!(
        page.contains("rel=\"next\" href=\"/submissions?page=2\""),
        "{page}"
    );
    let (_, page) = text(&prof, &server, "/submissions?page=2");
    assert!(page.contains("showing 51–60 of 60"), "{page}");
    assert!(page.contains("rel=\"prev\""), "{page}");
    // Filters, and the form keeps them.
    let (_, page) = text(
        &prof,
        &server,
        "/submissions?student=ada&exercise=exclusive_or&verdict=queued",
    );
    assert!(page.contains("showing 1–10 of 10"), "{page}");
    assert!(page.contains("value=\"ada\""), "{page}");
    let (_, page) = text(&prof, &server, "/submissions?from=2001-01-01&to=2001-01-02");
    assert!(page.contains("No submissions match."), "{page}");
    let (_, page) = text(&prof, &server, "/submissions?verdict=accepted");
    assert!(page.contains("No submissions match."), "{page}");
    let (status, _) = text(&prof, &server, "/submissions?from=yesterday");
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A student sees their own only, whoever they ask for.
    let student = form_login(&server, "grace", "grace-password");
    let (_, page) = text(&student, &server, "/submissions?student=ada");
    assert!(page.contains("showing 1–5 of 5"), "{page}");
    assert!(!page.contains("name=\"student\""), "{page}");
    // The API: the same filters, and a page.
    let response = ada
        .get(server.url("/api/submissions?exercise=present_board&page=2&limit=20"))
        .send()
        .unwrap();
    assert_eq!(response.headers()["x-total-count"], "45");
    let rows: Value = response.json().unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 20);
    let (_, all) = get_json(&prof, &server, "/api/submissions");
    assert_eq!(all.as_array().unwrap().len(), 60);
}

fn json_login_status(server: &Server, username: &str, password: &str) -> (StatusCode, String) {
    let response = client()
        .post(server.url("/api/login"))
        .json(&serde_json::json!({ "username": username, "password": password }))
        .send()
        .unwrap();
    (response.status(), response.text().unwrap())
}

#[test]
fn a_disabled_account_cannot_log_in_and_a_removed_ones_work_stays_on_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    upload_many(&grace, &server, "exclusive_or", 2);
    upload_many(&ada, &server, "exclusive_or", 1);

    users(&db, &["disable", "ada"]);
    let (status, _) = get_json(&ada, &server, "/api/exercises");
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the session ended");
    let (status, body) = json_login_status(&server, "ada", "ada-password");
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        body.contains("this account is disabled: ask your instructor"),
        "{body}"
    );
    let (status, body) = json_login_status(&server, "ada", "not-her-password");
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body.contains("wrong username or password"), "{body}");
    assert!(
        users(&db, &["list"])
            .lines()
            .any(|l| l.starts_with("ada\t") && l.ends_with("disabled"))
    );
    let prof = form_login(&server, "prof", "prof-password");
    let (_, class) = text(&prof, &server, "/class");
    let row = &class[class.find("<td class=\"name\">ada").unwrap()..];
    assert!(
        row[..row.find("</td>").unwrap()].contains("disabled"),
        "{class}"
    );
    users(&db, &["enable", "ada"]);
    api_login(&server, "ada", "ada-password");

    users(&db, &["remove", "grace"]);
    let (status, _) = get_json(&grace, &server, "/api/exercises");
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = json_login_status(&server, "grace", "grace-password");
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(!users(&db, &["list"]).contains("grace"));
    let (_, list) = get_json(
        &api_login(&server, "prof", "prof-password"),
        &server,
        "/api/submissions?student=grace",
    );
    assert_eq!(list.as_array().unwrap().len(), 2, "{list}");
    let (_, class) = text(&prof, &server, "/class");
    assert!(!class.contains("<td class=\"name\">grace"), "{class}");

    users(&db, &["remove", "ada", "--with-submissions"]);
    let (_, list) = get_json(
        &api_login(&server, "prof", "prof-password"),
        &server,
        "/api/submissions?student=ada",
    );
    assert_eq!(list.as_array().unwrap().len(), 0, "{list}");
    let output = nimlab()
        .args(["users", "disable", "nobody", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no account `nobody`"));
}

#[test]
fn every_request_is_logged_without_secrets_or_terminal_controls() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::start(&db, Some(lab.path()), &["--workers", "0"]);
    let ada = api_login(&server, "ada", "ada-password");
    get_json(&ada, &server, "/api/exercises");
    let form = form_login(&server, "grace", "grace-password");
    let (status, _) = text(
        &form,
        &server,
        "/exercises/%1B%5B2J%1B]0;owned%07?csrf=tok3n&page=2",
    );
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A raw ESC in the request line, as a hostile client would send it.
    let mut stream =
        std::net::TcpStream::connect(server.base.trim_start_matches("http://")).unwrap();
    std::io::Write::write_all(
        &mut stream,
        b"GET /x\x1b[2J HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let _ = std::io::Read::read_to_end(&mut stream, &mut Vec::new());
    let start = Instant::now();
    while !server.stderr().contains("GET /exercises/") && start.elapsed() < JUDGING {
        std::thread::sleep(Duration::from_millis(100));
    }
    let log = server.stderr();
    assert!(log.contains("nimlab serve: POST /api/login 200 "), "{log}");
    assert!(
        log.lines().any(
            |l| l.starts_with("nimlab serve: GET /api/exercises 200 ") && l.ends_with("ms ada")
        ),
        "{log}"
    );
    assert!(log.contains("?page=2 404 "), "{log}");
    assert!(log.contains("ms grace"), "{log}");
    for secret in [
        "ada-password",
        "grace-password",
        "tok3n",
        "csrf",
        "nimlab_session",
        "\u{1b}",
        "\u{7}",
    ] {
        assert!(!log.contains(secret), "{secret:?} in the log: {log}");
    }
}

/// A name from a roster (or an LMS launch) with a newline, tabs and terminal controls
/// would forge a row in `users list`, an instructor's row at that, and act on the terminal
/// reading it: each cell is shown on its own line, escaped.
#[test]
fn a_name_with_a_newline_and_tabs_forges_no_row_in_users_list() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let roster = dir.path().join("hostile.csv");
    std::fs::write(
        &roster,
        "username,name\neve,\"Eve\nmallory\tinstructor\tMallory\x1b[2J\x07\"\n",
    )
    .unwrap();
    users(&db, &["import", roster.to_str().unwrap()]);
    let listed = users(&db, &["list"]);
    // ada, grace, eve and prof: four accounts, four lines, three or four cells each.
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 4, "{listed:?}");
    assert!(
        !listed.contains('\x1b') && !listed.contains('\x07'),
        "{listed:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("mallory")),
        "{listed:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.contains("\tinstructor")).count(),
        1,
        "{listed:?}"
    );
    let eve = lines.iter().find(|l| l.starts_with("eve\t")).unwrap();
    assert_eq!(
        *eve, "eve\tstudent\tEve\\nmallory\\tinstructor\\tMallory\\x1b[2J\\x07",
        "{listed:?}"
    );
}
