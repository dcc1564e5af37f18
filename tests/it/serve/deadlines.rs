//! Deadlines, late work and extensions: set from the command line and the instructor's page,
//! seen by students on the API and the pages, enforced on uploads, and applied by the
//! gradebook downloads and by `nimlab grade` on exported submissions. The server's clock is
//! the test clock (`NIMLAB_TEST_NOW`), and times are shown in UTC (`TZ=UTC`).

use super::*;

/// The server's clock in these tests: it starts at this moment.
const NOW: &str = "2030-03-01T12:00:00Z";

/// `nimlab serve` on the small lab, its clock starting at [`NOW`], its time zone UTC.
fn start(db: &Path, lab: &Path, workers: &str) -> Server {
    let stderr = stderr_file(db);
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
    command
        .arg("--lab")
        .arg(lab)
        .arg("serve")
        .arg("--db")
        .arg(db)
        .args(["--listen", "127.0.0.1:0", "--workers", workers])
        .env("NO_COLOR", "1")
        .env("TZ", "UTC")
        .env("NIMLAB_TEST_NOW", NOW);
    Server::spawn(command, stderr)
}

/// `nimlab --lab LAB deadline ARGS --db DB`, in UTC.
fn deadline(lab: &Path, db: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    nimlab()
        .arg("--lab")
        .arg(lab)
        .arg("deadline")
        .args(args)
        .arg("--db")
        .arg(db)
        .env("TZ", "UTC")
        .assert()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn list(lab: &Path, db: &Path) -> String {
    stdout(&deadline(lab, db, &["list"]).success())
}

#[test]
// A story told in order, each step depending on the last.
#[allow(clippy::too_many_lines)]
fn deadlines_are_set_extended_listed_and_cleared_from_the_command_line_and_mistakes_write_nothing()
{
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let lab = lab.path();
    let set = deadline(
        lab,
        &db,
        &[
            "set",
            "present_board",
            "2030-03-01 10:00",
            "--late-until",
            "2030-03-03T10:00:00Z",
            "--late-penalty",
            "20",
        ],
    )
    .success();
    assert!(
        stdout(&set).contains("due 2030-03-01 10:00 UTC"),
        "{}",
        stdout(&set)
    );
    deadline(lab, &db, &["set", "all", "2030-04-01T00:00:00+02:00"]).success();
    // `all` set every exercise, present_board's late period included.
    let listed = list(lab, &db);
    assert!(
        listed.contains("present_board\tdue 2030-03-31 22:00 UTC")
            && listed.contains("exclusive_or\tdue 2030-03-31 22:00 UTC"),
        "{listed}"
    );
    deadline(
        lab,
        &db,
        &[
            "set",
            "present_board",
            "2030-03-01T10:00:00Z",
            "--late-until",
            "2030-03-03 10:00",
            "--late-penalty",
            "100",
        ],
    )
    .success();
    deadline(
        lab,
        &db,
        &["extend", "ada", "present_board", "2030-03-02 10:00"],
    )
    .success();
    let listed = list(lab, &db);
    assert!(
        listed.contains(
            "present_board\tdue 2030-03-01 10:00 UTC; late work until 2030-03-03 10:00 UTC, for no credit"
        ),
        "{listed}"
    );
    assert!(
        listed.contains("present_board\textension for ada until 2030-03-02 10:00 UTC"),
        "{listed}"
    );

    // Mistakes: each named, exit 2, nothing written.
    for (args, named) in [
        (
            vec!["set", "present_bord", "2030-03-01 10:00"],
            "no exercise `present_bord`",
        ),
        (
            vec!["set", "present_board", "next friday"],
            "`next friday` is not a time",
        ),
        (
            vec!["set", "present_board", "2030-02-30 10:00"],
            "`2030-02-30 10:00` is not a time",
        ),
        (
            vec![
                "set",
                "present_board",
                "2030-03-05 10:00",
                "--late-until",
                "2030-03-04 10:00",
            ],
            "the late period must end after the due time",
        ),
        (
            vec![
                "set",
                "present_board",
                "2030-03-05 10:00",
                "--late-until",
                "2030-03-06 10:00",
                "--late-penalty",
                "150",
            ],
            "from 0 to 100",
        ),
        (
            vec![
                "set",
                "present_board",
                "2030-03-05 10:00",
                "--late-penalty",
                "10",
            ],
            "a late penalty needs a late period: say until when late work is taken (--late-until)",
        ),
        (
            vec!["extend", "bob", "present_board", "2030-03-02 10:00"],
            "no account `bob`",
        ),
        (
            vec!["extend", "ada", "nim", "2030-03-02 10:00"],
            "no exercise `nim`",
        ),
        (
            vec!["extend", "ada", "all", "2030-03-32 10:00"],
            "`2030-03-32 10:00` is not a time",
        ),
        (
            vec!["clear", "exclusive_or", "--student", "bob"],
            "no account `bob`",
        ),
    ] {
        let failed = deadline(lab, &db, &args).code(2);
        assert!(
            stderr(&failed).contains(named),
            "{args:?}: {}",
            stderr(&failed)
        );
        assert_eq!(list(lab, &db), listed, "{args:?} changed something");
    }

    let cleared = deadline(lab, &db, &["clear", "present_board", "--student", "ada"]).success();
    assert!(stdout(&cleared).contains("1 extension(s) removed"));
    assert!(!list(lab, &db).contains("extension for ada"));
    deadline(lab, &db, &["clear", "all"]).success();
    assert_eq!(
        list(lab, &db),
        "present_board\tno deadline\nexclusive_or\tno deadline\n"
    );
}

#[test]
// A story told in order, each step depending on the last.
#[allow(clippy::too_many_lines)]
fn students_see_their_own_deadline_late_work_is_marked_and_uploads_close_at_the_last_moment() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    // At the server's 12:00: due at 10:00, late work until 11:00, so closed for Ada. Grace's
    // extension to 11:30 moves her late period to 12:30: she is late, not shut out.
    deadline(
        lab.path(),
        &db,
        &[
            "set",
            "present_board",
            "2030-03-01T10:00:00Z",
            "--late-until",
            "2030-03-01T11:00:00Z",
            "--late-penalty",
            "50",
        ],
    )
    .success();
    deadline(
        lab.path(),
        &db,
        &["extend", "grace", "present_board", "2030-03-01T11:30:00Z"],
    )
    .success();
    let server = start(&db, lab.path(), "0");
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");

    let deadline_of = |client: &Client, exercise: &str| {
        let (status, list) = get_json(client, &server, "/api/exercises");
        assert_eq!(status, StatusCode::OK);
        list.as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == exercise)
            .unwrap()["deadline"]
            .clone()
    };
    assert_eq!(deadline_of(&ada, "present_board"), "2030-03-01T10:00:00Z");
    assert_eq!(deadline_of(&grace, "present_board"), "2030-03-01T11:30:00Z");
    assert_eq!(deadline_of(&ada, "exclusive_or"), Value::Null);

    // Ada's upload after her last moment: refused, with when it was, on the API and the page.
    let refused = upload(
        &ada,
        &server,
        "present_board",
        "present_board.py",
        std::fs::read(solution("present_board")).unwrap(),
    );
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let body: Value = refused.json().unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("2030-03-01 10:00 UTC") && message.contains("2030-03-01 11:00 UTC"),
        "{message}"
    );
    let ada_pages = form_login(&server, "ada", "ada-password");
    let (_, page) = text(&ada_pages, &server, "/exercises/present_board");
    assert!(page.contains("due 2030-03-01 10:00 UTC"), "{page}");
    assert!(page.contains("closed"), "{page}");
    let form = multipart::Form::new().text("csrf", csrf_of(&page)).part(
        "file",
        multipart::Part::bytes(std::fs::read(solution("present_board")).unwrap())
            .file_name("present_board.py"),
    );
    let response = ada_pages
        .post(server.url("/exercises/present_board/submit"))
        .multipart(form)
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let page = response.text().unwrap();
    assert!(
        page.contains("2030-03-01 10:00 UTC") && page.contains("Not submitted"),
        "{page}"
    );
    assert!(page.contains("<nav>"), "the site's own page: {page}");
    let (_, mine) = get_json(&ada, &server, "/api/submissions");
    assert_eq!(mine, serde_json::json!([]), "nothing was queued");

    // Without a deadline, on time.
    let on_time = submit(&ada, &server, "exclusive_or", &solution("exclusive_or"));
    let (_, body) = get_json(&ada, &server, &format!("/api/submissions/{on_time}"));
    assert_eq!(body["late"], false, "{body}");

    // Grace, with her extension: in her late period.
    let late = submit(&grace, &server, "present_board", &solution("present_board"));
    let (_, body) = get_json(&grace, &server, &format!("/api/submissions/{late}"));
    assert_eq!(body["late"], true, "{body}");
    let grace_pages = form_login(&server, "grace", "grace-password");
    let (_, page) = text(&grace_pages, &server, &format!("/submissions/{late}"));
    assert!(page.contains(r#"class="badge v-note late""#), "{page}");
    let (_, page) = text(&ada_pages, &server, &format!("/submissions/{on_time}"));
    assert!(!page.contains(r#"class="badge v-note late""#), "{page}");
    // And in the lists.
    for path in ["/submissions", "/exercises/present_board"] {
        let (_, page) = text(&grace_pages, &server, path);
        assert!(
            page.contains(r#"class="badge v-note late""#),
            "{path}: {page}"
        );
    }
    let (_, page) = text(&ada_pages, &server, "/submissions");
    assert!(!page.contains(r#"class="badge v-note late""#), "{page}");
    let (_, list) = text(&grace_pages, &server, "/exercises");
    assert!(
        list.contains("due 2030-03-01 11:30 UTC; late work until 2030-03-01 12:30 UTC"),
        "{list}"
    );

    // An instructor may always upload.
    let prof = api_login(&server, "prof", "prof-password");
    let response = upload(
        &prof,
        &server,
        "present_board",
        "present_board.py",
        std::fs::read(solution("present_board")).unwrap(),
    );
    assert_eq!(response.status(), StatusCode::ACCEPTED);
}

/// The gradebook's rows without the student_id column.
fn rows(csv: &str) -> Vec<String> {
    csv.lines()
        .map(|line| {
            let mut cells: Vec<&str> = line.split(',').collect();
            cells.remove(1);
            cells.join(",")
        })
        .collect()
}

#[test]
// A story told in order, each step depending on the last.
#[allow(clippy::too_many_lines)]
fn the_gradebook_and_nimlab_grade_on_the_export_apply_the_same_penalties() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = start(&db, lab.path(), "1");
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let mut ids = Vec::new();
    for client in [&ada, &grace] {
        for exercise in ["present_board", "exclusive_or"] {
            ids.push((
                client,
                submit(client, &server, exercise, &solution(exercise)),
            ));
        }
    }
    for (client, id) in &ids {
        assert_eq!(judged(client, &server, *id)["verdict"], "accepted");
    }
    let (ada_board, ada_xor) = (ids[0].1, ids[1].1);
    let prof = form_login(&server, "prof", "prof-password");
    let (_, before) = text(&prof, &server, "/downloads/gradebook.csv");
    assert_eq!(
        rows(&before),
        [
            "student,present_board,exclusive_or,total",
            "ada,10,10,20",
            "grace,10,10,20"
        ]
    );

    // Set afterwards, so that the submissions (sent at about 12:00) were late: present_board
    // a started day late at 25% a day; exclusive_or late for no credit, but Grace had an
    // extension.
    let lab_path = lab.path();
    deadline(
        lab_path,
        &db,
        &[
            "set",
            "present_board",
            "2030-03-01T00:00:00Z",
            "--late-until",
            "2030-03-05T00:00:00Z",
            "--late-penalty",
            "25",
        ],
    )
    .success();
    deadline(
        lab_path,
        &db,
        &[
            "set",
            "exclusive_or",
            "2030-03-01T00:00:00Z",
            "--late-until",
            "2030-03-05T00:00:00Z",
            "--late-penalty",
            "100",
        ],
    )
    .success();
    deadline(
        lab_path,
        &db,
        &["extend", "grace", "exclusive_or", "2030-03-02T00:00:00Z"],
    )
    .success();
    let expected = [
        "student,present_board,exclusive_or,total",
        "ada,7.5,0,7.5",
        "grace,7.5,10,17.5",
    ];
    for from in ["best", "latest"] {
        let (status, csv) = text(
            &prof,
            &server,
            &format!("/downloads/gradebook.csv?from={from}"),
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(rows(&csv), expected, "from={from}");
    }

    // One score everywhere: the API, the submission page and the class matrix give the points
    // the gradebook counts, with the raw score beside them and why they differ.
    let seen = judged(&ada, &server, ada_board);
    assert_eq!(seen["score"], seen["max_score"], "{seen}");
    assert_eq!(seen["points"], 7.5, "{seen}");
    assert_eq!(seen["max_points"], 10, "{seen}");
    assert_eq!(seen["on_time_points"], 10.0, "{seen}");
    assert_eq!(seen["late_penalty_percent"], 25.0, "{seen}");
    assert_eq!(seen["counts"], true, "{seen}");
    let seen = judged(&ada, &server, ada_xor);
    assert_eq!(seen["points"], 0.0, "{seen}");
    assert_eq!(seen["late_penalty_percent"], 100.0, "{seen}");
    let ada_pages = form_login(&server, "ada", "ada-password");
    let (_, page) = text(&ada_pages, &server, &format!("/submissions/{ada_board}"));
    assert!(
        page.contains("Counts for 7.5 of 10 points: sent ")
            && page.contains(
                "late, 1 started day at 25% a day, so 25% of its score is taken (10 of 10 on time)."
            ),
        "{page}"
    );
    // Her list of exercises: the raw score, and the points beside it with the reason.
    let (_, list) = text(&ada_pages, &server, "/exercises");
    let line = |exercise: &str| {
        list.split("<tr>")
            .find(|row| row.contains(&format!("/exercises/{exercise}\"")))
            .unwrap_or_else(|| panic!("no line for {exercise}: {list}"))
            .to_string()
    };
    let board = line("present_board");
    assert!(
        board.contains("v-accepted") && board.contains("7.5 of 10") && board.contains("25% a day"),
        "{board}"
    );
    let xor = line("exclusive_or");
    assert!(
        xor.contains("v-accepted") && xor.contains(">0 of 10") && xor.contains("100% a day"),
        "{xor}"
    );
    let (_, listed) = text(&ada, &server, "/api/exercises");
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let grade = |exercise: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == exercise)
            .unwrap()["grade"]
            .clone()
    };
    assert_eq!(grade("present_board")["points"], 7.5, "{listed}");
    assert_eq!(grade("present_board")["id"], ada_board, "{listed}");
    assert_eq!(grade("exclusive_or")["points"], 0.0, "{listed}");
    assert_eq!(grade("exclusive_or")["on_time_points"], 10.0, "{listed}");
    let (_, matrix) = text(&prof, &server, "/class");
    for (student, total) in [("ada", "7.5/20"), ("grace", "17.5/20")] {
        let row = matrix
            .split("<tr>")
            .find(|row| row.contains(&format!("<td class=\"name\">{student}")))
            .unwrap_or_else(|| panic!("no row for {student}: {matrix}"));
        assert!(row.contains(total), "{student}: {row}");
    }
    assert!(matrix.contains("7.5 of 10 pts"), "{matrix}");

    // The export carries the deadlines and each file's time; `nimlab grade` applies the rule.
    let class = dir.path().join("class");
    nimlab()
        .args(["export", "submissions", "--from", "best", "--db"])
        .arg(&db)
        .arg("--out")
        .arg(&class)
        .assert()
        .success();
    let carried: Value =
        serde_json::from_slice(&std::fs::read(class.join("deadlines.json")).unwrap()).unwrap();
    assert_eq!(
        carried["deadlines"]["exclusive_or"]["late_penalty"], 100.0,
        "{carried}"
    );
    assert_eq!(
        carried["extensions"]["grace"]["exclusive_or"],
        "2030-03-02T00:00:00Z"
    );
    assert!(
        carried["submitted"]["ada/present_board.py"]
            .as_str()
            .unwrap()
            .starts_with("2030-03-01T12:"),
        "{carried}"
    );
    let grades = dir.path().join("grades");
    nimlab()
        .arg("--lab")
        .arg(lab_path)
        .arg("grade")
        .arg(&class)
        .arg("--out")
        .arg(&grades)
        .arg("--roster")
        .arg(class.join("roster.csv"))
        .assert()
        .success();
    let graded = std::fs::read_to_string(grades.join("gradebook.csv")).unwrap();
    assert_eq!(rows(&graded), expected, "{graded}");
    let results: Value =
        serde_json::from_slice(&std::fs::read(grades.join("results.json")).unwrap()).unwrap();
    assert!(
        results["unattributed"].as_array().unwrap().is_empty(),
        "deadlines.json is no stray file: {results}"
    );

    // Past the last moment, nothing counts: Ada's present_board drops out.
    deadline(
        lab_path,
        &db,
        &["set", "present_board", "2030-03-01T00:00:00Z"],
    )
    .success();
    let (_, csv) = text(&prof, &server, "/downloads/gradebook.csv");
    assert_eq!(rows(&csv)[1], "ada,0,0,0", "{csv}");
}

#[test]
// A story told in order, each step depending on the last.
#[allow(clippy::too_many_lines)]
fn the_instructors_deadlines_page_sets_and_extends_with_its_token_and_students_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = start(&db, lab.path(), "0");
    let prof = form_login(&server, "prof", "prof-password");
    let (_, class) = text(&prof, &server, "/class");
    assert!(class.contains(r#"href="/deadlines""#), "{class}");
    let (status, page) = text(&prof, &server, "/deadlines");
    assert_eq!(status, StatusCode::OK);
    let token = csrf_of(&page);
    let post = |form: &[(&str, &str)]| {
        prof.post(server.url("/deadlines"))
            .form(form)
            .send()
            .unwrap()
    };
    // As a browser's date-and-time field sends it, in the server's zone.
    let response = post(&[
        ("csrf", &token),
        ("action", "set"),
        ("exercise", "all"),
        ("due", "2030-03-01T10:00"),
        ("late_until", "2030-03-02T10:00"),
        ("late_penalty", "10"),
    ]);
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/deadlines?done=set");
    let response = post(&[
        ("csrf", &token),
        ("action", "extend"),
        ("student", "ada"),
        ("exercise", "exclusive_or"),
        ("until", "2030-03-04T09:30"),
    ]);
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let (_, page) = text(&prof, &server, "/deadlines?done=extend");
    assert!(page.contains("The extension is given."), "{page}");
    assert!(page.contains("2030-03-04 09:30 UTC"), "{page}");
    let listed = list(lab.path(), &db);
    assert!(
        listed.contains("exclusive_or\tdue 2030-03-01 10:00 UTC; late work until 2030-03-02 10:00 UTC, less 10% of the score per day late")
            && listed.contains("exclusive_or\textension for ada until 2030-03-04 09:30 UTC"),
        "{listed}"
    );

    // A malformed time: told on the site's page, nothing changed.
    let response = post(&[
        ("csrf", &token),
        ("action", "set"),
        ("exercise", "present_board"),
        ("due", "soon"),
    ]);
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let page = response.text().unwrap();
    assert!(
        page.contains("`soon` is not a time") && page.contains("<nav>"),
        "{page}"
    );
    let response = post(&[
        ("csrf", &token),
        ("action", "clear"),
        ("exercise", "no_such_exercise"),
    ]);
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    // Without the session's token: refused.
    let response = post(&[("action", "clear"), ("exercise", "all")]);
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(list(lab.path(), &db), listed);

    let response = post(&[
        ("csrf", &token),
        ("action", "unextend"),
        ("student", "ada"),
        ("exercise", "exclusive_or"),
    ]);
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let response = post(&[("csrf", &token), ("action", "clear"), ("exercise", "all")]);
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        list(lab.path(), &db),
        "present_board\tno deadline\nexclusive_or\tno deadline\n"
    );

    // A student may neither see nor change them.
    let ada = form_login(&server, "ada", "ada-password");
    let (status, _) = text(&ada, &server, "/deadlines");
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, page) = text(&ada, &server, "/exercises");
    let response = ada
        .post(server.url("/deadlines"))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("action", "extend"),
            ("student", "ada"),
            ("exercise", "all"),
            ("until", "2031-01-01T00:00"),
        ])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(!list(lab.path(), &db).contains("extension"));
}
