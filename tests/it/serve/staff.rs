//! Staff and passwords: teaching assistants (made by `users add --ta` and by a roster's
//! `role` column) see what instructors see but manage no accounts; every role against every
//! staff and instructor route; staff kept out of the class matrix and the gradebooks; a
//! database from before the TA role; a student's own password change, and the instructor's
//! reset, ending sessions.

use super::*;

/// Runs `nimlab users ARGS --db DB` (with `stdin`); returns its stdout.
fn users(db: &Path, args: &[&str], stdin: &str) -> String {
    let output = nimlab()
        .arg("users")
        .args(args)
        .arg("--db")
        .arg(db)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The class database of `class_db` and a TA, tess.
fn staff_db(dir: &Path) -> PathBuf {
    let db = class_db(dir);
    let said = users(&db, &["add", "tess", "--ta"], "tess-password\n");
    assert!(said.contains("tess: ta account added"), "{said}");
    db
}

/// The token of a page's forms, for a logged-in client (any role has `/account`).
fn token(client: &Client, server: &Server) -> String {
    let (status, page) = text(client, server, "/account");
    assert_eq!(status, StatusCode::OK, "{page}");
    csrf_of(&page)
}

/// A client that carries only a session cookie (no device cookie), logged in over the API.
fn session_only(server: &Server, username: &str, password: &str) -> Client {
    let response = json_login(server, username, password);
    assert_eq!(response.status(), StatusCode::OK);
    let session = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string())
        .find(|pair| pair.starts_with("nimlab_session="))
        .expect("a session cookie");
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("cookie", session.parse().unwrap());
    Client::with_headers(headers)
}

fn change_over_api(client: &Client, server: &Server, old: &str, new: &str) -> (StatusCode, Value) {
    let response = client
        .post(server.url("/api/password"))
        .json(&serde_json::json!({ "old": old, "new": new }))
        .send()
        .unwrap();
    let status = response.status();
    (status, response.json().unwrap_or(Value::Null))
}

/// Whether a client's session is still live (the API answers 401 once it is not).
fn logged_in(client: &Client, server: &Server) -> bool {
    let (status, _) = get_json(client, server, "/api/exercises");
    assert!(
        status == StatusCode::OK || status == StatusCode::UNAUTHORIZED,
        "{status}"
    );
    status == StatusCode::OK
}

#[test]
fn a_ta_is_made_by_users_add_or_a_roster_and_starts_on_the_class_without_account_management() {
    let dir = tempfile::tempdir().unwrap();
    let db = staff_db(dir.path());
    // A roster's `role` column: `ta` (in any case) for a new account and an existing one; an
    // empty cell keeps the role; a role nimlab does not know is refused with its row.
    let roster = dir.path().join("staff.csv");
    std::fs::write(
        &roster,
        "username,name,role,password\nterry,Terry Tao,TA,terry-password\ngrace,,ta,\nada,,,\n",
    )
    .unwrap();
    let said = users(&db, &["import", roster.to_str().unwrap()], "");
    assert!(said.contains("1 account(s) added, 2 updated"), "{said}");
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "username,role\nada,professor\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&bad)
        .arg("--db")
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "row 2: the role of `ada` is `professor`",
        ));
    let list = users(&db, &["list"], "");
    for line in [
        "ada\tstudent\tAda Lovelace",
        "grace\tta\tGrace Hopper",
        "tess\tta\t",
        "terry\tta\tTerry Tao",
        "prof\tinstructor",
    ] {
        assert!(list.contains(line), "{line}: {list}");
    }
    // One role at a time.
    nimlab()
        .args(["users", "add", "both", "--ta", "--instructor", "--db"])
        .arg(&db)
        .write_stdin("both-password\n")
        .assert()
        .code(2);
    // Grace goes back to being a student through `users add` without a role flag.
    users(&db, &["add", "grace"], "grace-password\n");

    let server = Server::in_process(&db, None, 0);
    for (username, password) in [("tess", "tess-password"), ("terry", "terry-password")] {
        let response = json_login(&server, username, password);
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.json::<Value>().unwrap()["role"], "ta");
    }
    let tess = form_login(&server, "tess", "tess-password");
    let home = tess.get(server.url("/")).send().unwrap();
    assert_eq!(home.headers()["location"], "/class");
    let (status, class) = text(&tess, &server, "/class");
    assert_eq!(status, StatusCode::OK);
    // The navigation shows a TA what they may use, and the class page no account management.
    for link in [
        "href=\"/class\"",
        "href=\"/queue\"",
        "href=\"/downloads\"",
        "href=\"/account\"",
    ] {
        assert!(class.contains(link), "{link}: {class}");
    }
    assert!(!class.contains("action=\"/class/password\""), "{class}");
    let prof = form_login(&server, "prof", "prof-password");
    let (_, class) = text(&prof, &server, "/class");
    assert!(class.contains("action=\"/class/password\""), "{class}");
    let ada = form_login(&server, "ada", "ada-password");
    let (_, exercises) = text(&ada, &server, "/exercises");
    assert!(exercises.contains("href=\"/account\""), "{exercises}");
    assert!(!exercises.contains("href=\"/class\""), "{exercises}");
}

/// What each role gets from a route: anonymous, student, TA, instructor.
type Expected = [u16; 4];
const ROLES: [&str; 4] = ["anonymous", "student", "ta", "instructor"];

/// One route of the table: its method and path, the form a POST sends (the client's CSRF
/// token is added), and the status each role gets.
struct Route {
    method: &'static str,
    path: String,
    form: Vec<(&'static str, String)>,
    expected: Expected,
}

fn get(path: impl Into<String>, expected: Expected) -> Route {
    Route {
        method: "GET",
        path: path.into(),
        form: Vec::new(),
        expected,
    }
}

fn post(path: &str, form: &[(&'static str, &str)], expected: Expected) -> Route {
    Route {
        method: "POST",
        path: path.to_string(),
        form: form.iter().map(|(k, v)| (*k, (*v).to_string())).collect(),
        expected,
    }
}

/// The table: every staff and instructor route of the router (and the password page every
/// role has), with the status each role gets. 303: sent to log in; 403: not for this role;
/// 404: another student's submission, as if it did not exist. Add a row for each new staff
/// or instructor route (deadlines, LTI platforms).
fn staff_routes(id: i64) -> Vec<Route> {
    let submission = format!("/submissions/{id}");
    let id_text = id.to_string();
    let mut routes = vec![
        get("/class", [303, 403, 200, 200]),
        get("/class/mistakes", [303, 403, 200, 200]),
        get("/class/similarity", [303, 403, 200, 200]),
        get(
            "/class/similarity?exercise=present_board",
            [303, 403, 200, 200],
        ),
        get("/queue", [303, 403, 200, 200]),
        get("/downloads", [303, 403, 200, 200]),
        get(&submission, [303, 404, 200, 200]),
        get(format!("{submission}/source"), [303, 404, 200, 200]),
        get(format!("/api/submissions/{id}"), [401, 404, 200, 200]),
        get("/account", [303, 200, 200, 200]),
        post(
            "/rejudge",
            &[("scope", "submission"), ("id", &id_text)],
            [303, 403, 303, 303],
        ),
        post(
            "/rejudge",
            &[("scope", "exercise"), ("exercise", "present_board")],
            [303, 403, 303, 303],
        ),
        post("/rejudge", &[("scope", "all")], [303, 403, 303, 303]),
        // Deadlines and the LMS platforms are the instructor's alone.
        get("/deadlines", [303, 403, 403, 200]),
        post(
            "/deadlines",
            &[
                ("action", "set"),
                ("exercise", "present_board"),
                ("due", "2099-01-01 10:00"),
            ],
            [303, 403, 403, 303],
        ),
        get("/class/lti", [303, 403, 403, 200]),
        // Choosing exercises for the LMS is staff's; a choice nobody began is found by no one.
        get("/lti/deep-link/0123abcd", [303, 403, 404, 404]),
        post(
            "/lti/deep-link/0123abcd",
            &[("exercise", "present_board")],
            [303, 403, 404, 404],
        ),
        post("/class/lti/resend", &[], [303, 403, 403, 303]),
        // Account management is the instructor's alone. Last: it gives ada a new password.
        post(
            "/class/password",
            &[("username", "ada")],
            [303, 403, 403, 200],
        ),
    ];
    for file in [
        "gradebook.csv",
        "canvas.csv",
        "moodle.csv",
        "results.json",
        "junit.xml",
        "mistakes.json",
    ] {
        let row = get(format!("/downloads/{file}"), [303, 403, 200, 200]);
        routes.insert(3, row);
    }
    routes
}

/// Sends every route as every role (`clients` and their forms' `tokens`, in [`ROLES`]'s
/// order); returns each status that is not the one expected, described.
fn statuses_differing(
    server: &Server,
    clients: &[Client],
    tokens: &[String],
    routes: &[Route],
) -> Vec<String> {
    let mut wrong = Vec::new();
    for route in routes {
        for (role, (client, token)) in clients.iter().zip(tokens).enumerate() {
            let request = match route.method {
                "GET" => client.get(server.url(&route.path)),
                _ => {
                    let mut form = route.form.clone();
                    form.push(("csrf", token.clone()));
                    client.post(server.url(&route.path)).form(&form)
                }
            };
            let status = request.send().unwrap().status().as_u16();
            if status != route.expected[role] {
                wrong.push(format!(
                    "{} {} {:?} as {}: {status}, expected {}",
                    route.method, route.path, route.form, ROLES[role], route.expected[role]
                ));
            }
        }
    }
    wrong
}

#[test]
fn every_role_gets_its_status_on_every_staff_and_instructor_route() {
    let dir = tempfile::tempdir().unwrap();
    let db = staff_db(dir.path());
    let lab = small_lab();
    // No workers: the submission stays queued, and a rejudge only queues it again.
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = api_login(&server, "ada", "ada-password");
    let id = submit(&ada, &server, "present_board", &solution("present_board"));
    // The student is grace, who does not own the submission.
    let clients = [
        client(),
        form_login(&server, "grace", "grace-password"),
        form_login(&server, "tess", "tess-password"),
        form_login(&server, "prof", "prof-password"),
    ];
    let tokens: Vec<String> = clients
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                String::new()
            } else {
                token(c, &server)
            }
        })
        .collect();
    let wrong = statuses_differing(&server, &clients, &tokens, &staff_routes(id));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Staff's lists have everyone's submissions; a student's only their own.
    let (_, seen) = get_json(&clients[2], &server, "/api/submissions");
    assert_eq!(seen[0]["student"], "ada", "{seen}");
    let (_, seen) = get_json(&clients[1], &server, "/api/submissions");
    assert_eq!(seen, serde_json::json!([]));
}

#[test]
fn staff_are_not_rows_of_the_class_matrix_nor_of_any_gradebook_and_a_ta_sees_reports_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = staff_db(dir.path());
    users(
        &db,
        &["add", "tess", "--ta", "--full-name", "Tess Tutor"],
        "tess-password\n",
    );
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 2);
    // Staff try the lab too: their uploads are judged, but they are not graded.
    let ada = api_login(&server, "ada", "ada-password");
    let tess = api_login(&server, "tess", "tess-password");
    let prof = api_login(&server, "prof", "prof-password");
    let mine = submit(&ada, &server, "present_board", &solution("present_board"));
    for staff in [&tess, &prof] {
        let id = submit(staff, &server, "present_board", &solution("present_board"));
        judged(staff, &server, id);
    }
    let students_view = judged(&ada, &server, mine);
    // The TA's view of ada's submission is the instructor's: secret cases in full.
    let (status, tas_view) = get_json(&tess, &server, &format!("/api/submissions/{mine}"));
    assert_eq!(status, StatusCode::OK);
    let (_, instructors_view) = get_json(&prof, &server, &format!("/api/submissions/{mine}"));
    assert_eq!(tas_view, instructors_view);
    assert_ne!(students_view["report"], instructors_view["report"]);

    let tess_pages = form_login(&server, "tess", "tess-password");
    let (_, class) = text(&tess_pages, &server, "/class");
    assert!(class.contains("<td class=\"name\">ada"), "{class}");
    assert!(class.contains("<td class=\"name\">grace"), "{class}");
    for staff in ["tess", "prof"] {
        assert!(
            !class.contains(&format!("<td class=\"name\">{staff}")),
            "{staff}: {class}"
        );
    }
    assert!(class.contains("2 students"), "{class}");
    for file in [
        "gradebook.csv",
        "canvas.csv",
        "moodle.csv",
        "results.json",
        "junit.xml",
    ] {
        let (status, body) = text(&tess_pages, &server, &format!("/downloads/{file}"));
        assert_eq!(status, StatusCode::OK, "{file}");
        // Canvas names students by their full name, the others by username.
        let body = body.to_lowercase();
        assert!(body.contains("ada"), "{file}: {body}");
        for staff in ["tess", "tutor", "prof"] {
            assert!(!body.contains(staff), "{file} names {staff}: {body}");
        }
        // Every row of a CSV file but its headers is a student's.
        if file.ends_with(".csv") {
            for row in body.lines().skip(1) {
                assert!(
                    row.starts_with("points possible")
                        || row.contains("ada")
                        || row.contains("grace"),
                    "{file}: {row}"
                );
            }
        }
    }
    // Nor in the class folder `export submissions` writes for `nimlab grade`.
    let class = dir.path().join("class");
    nimlab()
        .args(["export", "submissions", "--db"])
        .arg(&db)
        .arg("--out")
        .arg(&class)
        .assert()
        .success();
    assert!(class.join("ada/present_board.py").is_file());
    for staff in ["tess", "prof"] {
        assert!(!class.join(staff).exists(), "{staff}");
    }
    let roster = std::fs::read_to_string(class.join("roster.csv")).unwrap();
    assert!(
        !roster.contains("tess") && !roster.contains("prof"),
        "{roster}"
    );
}

/// The schema as migrations 1 to 3 left it, before the TA role: the users table's CHECK
/// admits only students and instructors.
const SCHEMA_BEFORE_TAS: &str = "
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL DEFAULT '',
        student_id TEXT NOT NULL DEFAULT '',
        section TEXT NOT NULL DEFAULT '',
        role TEXT NOT NULL CHECK (role IN ('student', 'instructor')),
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_user ON sessions(user_id);
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        exercise TEXT NOT NULL,
        filename TEXT NOT NULL,
        source BLOB NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        priority INTEGER NOT NULL DEFAULT 0,
        attempt INTEGER NOT NULL DEFAULT 0,
        submitted_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        verdict TEXT,
        score INTEGER,
        max_score INTEGER,
        report TEXT,
        error TEXT
    );
    CREATE INDEX submissions_queue ON submissions(status, priority, id);
    CREATE INDEX submissions_user ON submissions(user_id, exercise, id);
    CREATE INDEX submissions_started ON submissions(user_id, started_at);
    CREATE TABLE login_throttles (
        key TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        failures INTEGER NOT NULL,
        last_failure_at INTEGER NOT NULL,
        blocked_until INTEGER NOT NULL
    );
    CREATE INDEX login_throttles_user ON login_throttles(username);
    CREATE INDEX login_throttles_last ON login_throttles(last_failure_at);
    CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
    ALTER TABLE users ADD COLUMN disabled_at INTEGER;
    ALTER TABLE users ADD COLUMN removed_at INTEGER;
    PRAGMA user_version = 3;";

#[test]
fn the_classs_mistakes_group_the_counted_submissions_by_cause_for_staff_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = staff_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 2);
    let mistake =
        |folder: &str, file: &str| root().join("tests/submissions").join(folder).join(file);
    let ada = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let tess = api_login(&server, "tess", "tess-password");
    let uploads = [
        (
            &ada,
            "present_board",
            mistake("debug_print", "present_board.py"),
        ),
        (
            &grace,
            "present_board",
            mistake("debug_print", "present_board.py"),
        ),
        (
            &ada,
            "exclusive_or",
            mistake("python3_print", "exclusive_or.py"),
        ),
        (&grace, "exclusive_or", solution("exclusive_or")),
        // A TA trying the lab is no student of the class, mistakes or not.
        (
            &tess,
            "present_board",
            mistake("debug_print", "present_board.py"),
        ),
    ];
    for (client, exercise, file) in uploads {
        let id = submit(client, &server, exercise, &file);
        judged(client, &server, id);
    }
    let tess_pages = form_login(&server, "tess", "tess-password");
    let (_, class) = text(&tess_pages, &server, "/class");
    assert!(class.contains("href=\"/class/mistakes\""), "{class}");
    let (status, page) = text(&tess_pages, &server, "/class/mistakes");
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("2 of 2 counted submission(s) did not pass."),
        "{page}"
    );
    assert!(
        page.contains("2 student(s): hint: Debug prints in the output"),
        "{page}"
    );
    assert!(
        page.contains("1 of 2 counted submission(s) did not pass."),
        "{page}"
    );
    assert!(page.contains("(print_statement)"), "{page}");
    assert!(
        page.contains("student=grace&amp;exercise=present_board"),
        "{page}"
    );
    assert!(!page.contains("student=tess"), "{page}");
    // The same summary as `grade` writes, among the downloads.
    let prof = api_login(&server, "prof", "prof-password");
    let (status, mistakes) = get_json(&prof, &server, "/downloads/mistakes.json");
    assert_eq!(status, StatusCode::OK);
    let board = &mistakes["exercises"][0];
    assert_eq!(board["exercise"], "present_board");
    assert_eq!(board["groups"][0]["cause"]["id"], "debug_print");
    assert_eq!(
        board["groups"][0]["students"],
        serde_json::json!(["ada", "grace"])
    );
    // Never students.
    let ada_pages = form_login(&server, "ada", "ada-password");
    for path in ["/class/mistakes", "/downloads/mistakes.json"] {
        let response = ada_pages.get(server.url(path)).send().unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{path}");
    }
}

/// A present_board written an unusual way, and a copy of it renamed and commented.
const UNUSUAL_BOARD: &str = "def present_board(board):\n    text = 'Nim:'\n    row = 0\n    while row < len(board):\n        text = text + '\\n' + str(row + 1) + ':'\n        text = text + ' X' * board[row]\n        row = row + 1\n    return text\n\nif __name__ == '__main__':\n    import sys\n    print(present_board([int(word) for word in sys.stdin.readline().split()]))\n";

/// UNUSUAL_BOARD's first lines, its loop written another way.
const PARTIAL_BOARD: &str = "def present_board(board):\n    text = 'Nim:'\n    for number, size in enumerate(board, 1):\n        text += '\\n%d:%s' % (number, ' X' * size)\n    return text\n\nif __name__ == '__main__':\n    import sys\n    print(present_board([int(word) for word in sys.stdin.readline().split()]))\n";

#[test]
fn similar_programs_are_shown_to_staff_alone_from_the_latest_uploads() {
    let dir = tempfile::tempdir().unwrap();
    let db = staff_db(dir.path());
    for student in ["bo", "cy", "di"] {
        users(&db, &["add", student], &format!("{student}-password\n"));
    }
    let server = Server::in_process(&db, Some(small_lab().path()), 2);
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    let write = |name: &str, text: &str| {
        let path = files.join(name).join("present_board.py");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    };
    let original = write("original", UNUSUAL_BOARD);
    let copy = write(
        "copy",
        &UNUSUAL_BOARD
            .replace("text", "out")
            .replace("row", "i")
            .replace("    return", "    # done\n    return"),
    );
    // di kept the original's first lines and wrote the loop another way: closer to ada than
    // the class's pairs are, but not flagged.
    let partial = write("partial", PARTIAL_BOARD);
    let model = solution("present_board");
    let mut uploads = vec![("ada", model.clone()), ("ada", original), ("grace", copy)];
    uploads.extend(["bo", "cy"].map(|s| (s, model.clone())));
    uploads.push(("di", partial));
    for (student, file) in uploads {
        let client = api_login(&server, student, &format!("{student}-password"));
        let id = submit(&client, &server, "present_board", &file);
        judged(&client, &server, id);
    }
    let tess = form_login(&server, "tess", "tess-password");
    let (status, page) = text(&tess, &server, "/class/similarity?exercise=present_board");
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("The latest uploads of 5 students compared; 1 pair scores 0.5 or more."),
        "{page}"
    );
    assert!(page.contains("ada and grace"), "{page}");
    assert!(page.contains("no other student of the 5 wrote"), "{page}");
    assert!(page.contains("class=\"match\""), "{page}");
    let below = page
        .split("The closest pairs below the flag")
        .nth(1)
        .unwrap_or_else(|| panic!("no pairs below the flag: {page}"));
    assert!(below.contains("ada and di"), "{below}");
    assert!(!below.contains("ada and grace"), "{below}");
    assert!(
        below.contains("both chose the names `text`, which no other student of the 5 used"),
        "{below}"
    );
    let (status, index) = text(&tess, &server, "/class/similarity");
    assert_eq!(status, StatusCode::OK);
    assert!(index.contains("exercise=present_board"), "{index}");
    let ada = form_login(&server, "ada", "ada-password");
    let response = ada
        .get(server.url("/class/similarity?exercise=present_board"))
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A database as nimlab made it before the TA role, in `dir`: ada (a student, with a live
/// session whose token is returned, and submission 7, judged), prof (an instructor) and gone
/// (a disabled student), all with the password `old-password`.
fn database_before_tas(dir: &Path) -> (PathBuf, String) {
    // A password hash as nimlab makes it, from a scratch database.
    let scratch = dir.join("scratch.db");
    users(&scratch, &["add", "someone"], "old-password\n");
    let hash: String = rusqlite::Connection::open(&scratch)
        .unwrap()
        .query_row(
            "SELECT password_hash FROM users WHERE username = 'someone'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let db = dir.join("old.db");
    let token = "a".repeat(64);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    {
        let old = rusqlite::Connection::open(&db).unwrap();
        old.execute_batch(SCHEMA_BEFORE_TAS).unwrap();
        old.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        let user = "INSERT INTO users (id, username, name, student_id, section, role, password_hash, created_at, disabled_at)
                    VALUES (?1, ?2, ?3, ?4, 'A', ?5, ?6, ?7, ?8)";
        let add = |id: i64, username: &str, name: &str, role: &str, disabled: Option<i64>| {
            let student_id = format!("100{id}");
            old.execute(
                user,
                rusqlite::params![id, username, name, student_id, role, hash, now, disabled],
            )
            .unwrap();
        };
        add(1, "ada", "Ada Lovelace", "student", None);
        add(2, "prof", "", "instructor", None);
        add(3, "gone", "Gone Away", "student", Some(now));
        old.execute(
            "INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?1, 1, ?2, ?3, ?4)",
            rusqlite::params![sha256_hex(&token), "c".repeat(64), now, now + 3_600_000],
        )
        .unwrap();
        old.execute(
            "INSERT INTO submissions (id, user_id, exercise, filename, source, status, submitted_at, finished_at, verdict, score, max_score)
             VALUES (7, 1, 'present_board', 'present_board.py', X'7072696E742829', 'done', ?1, ?1, 'accepted', 5, 5)",
            [now],
        )
        .unwrap();
    }
    (db, token)
}

/// Whether the foreign keys of a migrated database are whole and still point at `users`.
fn assert_foreign_keys_whole(db: &Path) {
    let migrated = rusqlite::Connection::open(db).unwrap();
    let broken: i64 = migrated
        .query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(broken, 0);
    for table in ["sessions", "submissions"] {
        let target: String = migrated
            .query_row(
                &format!("SELECT \"table\" FROM pragma_foreign_key_list('{table}')"),
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(target, "users", "{table}");
    }
    let leftovers: i64 = migrated
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'users_%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(leftovers, 0);
}

#[test]
fn a_database_from_before_the_ta_role_keeps_its_accounts_sessions_and_submissions() {
    let dir = tempfile::tempdir().unwrap();
    let (db, token) = database_before_tas(dir.path());
    // Any command migrates: the accounts are all there, as they were.
    let list = users(&db, &["list"], "");
    assert!(list.contains("ada\tstudent\tAda Lovelace"), "{list}");
    assert!(list.contains("prof\tinstructor"), "{list}");
    assert!(
        list.contains("gone\tstudent\tGone Away\tdisabled"),
        "{list}"
    );
    // The new CHECK admits TAs.
    users(&db, &["add", "tess", "--ta"], "tess-password\n");
    assert_foreign_keys_whole(&db);
    let server = Server::in_process(&db, None, 0);
    // Ada's session from before goes on, and her submission is hers.
    let ada = client();
    let (status, body) = {
        let response = ada
            .get(server.url("/api/submissions/7"))
            .header("cookie", format!("nimlab_session={token}"))
            .send()
            .unwrap();
        (response.status(), response.json::<Value>().unwrap())
    };
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["student"], "ada");
    assert_eq!(body["verdict"], "accepted");
    assert_eq!(body["score"], 5);
    // Passwords and roles are kept; the TA logs in as one.
    let response = json_login(&server, "prof", "old-password");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.json::<Value>().unwrap()["role"], "instructor");
    let response = json_login(&server, "tess", "tess-password");
    assert_eq!(response.json::<Value>().unwrap()["role"], "ta");
    let response = json_login(&server, "gone", "old-password");
    assert_eq!(response.status(), StatusCode::FORBIDDEN, "still disabled");
    drop(server);
    // The foreign keys hold on the new table: a user's sessions go with it (prof's, made by
    // the login above), and a user with submissions cannot be deleted under them.
    let migrated = rusqlite::Connection::open(&db).unwrap();
    migrated.execute_batch("PRAGMA foreign_keys = ON").unwrap();
    let sessions = |c: &rusqlite::Connection| -> i64 {
        c.query_row("SELECT COUNT(*) FROM sessions WHERE user_id = 2", [], |r| {
            r.get(0)
        })
        .unwrap()
    };
    assert_eq!(sessions(&migrated), 1);
    migrated
        .execute("DELETE FROM users WHERE id = 2", [])
        .unwrap();
    assert_eq!(sessions(&migrated), 0);
    assert!(
        migrated
            .execute("DELETE FROM users WHERE id = 1", [])
            .is_err()
    );
}

#[test]
fn a_password_changed_on_the_page_ends_the_other_sessions_and_keeps_this_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    let browser = form_login(&server, "ada", "ada-password");
    let script = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let (status, page) = text(&browser, &server, "/account");
    assert_eq!(status, StatusCode::OK);
    for field in ["name=\"old\"", "name=\"new\"", "name=\"again\""] {
        assert!(page.contains(field), "{field}: {page}");
    }
    let csrf = csrf_of(&page);
    let send = |old: &str, new: &str, again: &str, csrf: &str| {
        let response = browser
            .post(server.url("/account"))
            .form(&[("old", old), ("new", new), ("again", again), ("csrf", csrf)])
            .send()
            .unwrap();
        let status = response.status();
        let location = response
            .headers()
            .get("location")
            .map(|l| l.to_str().unwrap().to_string());
        (status, location, response.text().unwrap())
    };
    // Refused, each on the form with its reason; nothing changes.
    let (status, _, page) = send("ada-password", "new-secret-1", "new-secret-1", "forged");
    assert_eq!(status, StatusCode::FORBIDDEN, "{page}");
    let (status, _, page) = send("wrong-password", "new-secret-1", "new-secret-1", &csrf);
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        page.contains("current password") && page.contains("name=\"old\""),
        "{page}"
    );
    let (status, _, page) = send("ada-password", "new-secret-1", "new-secret-2", &csrf);
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("differ"), "{page}");
    let (status, _, page) = send("ada-password", "short", "short", &csrf);
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("at least 8 characters"), "{page}");
    assert!(logged_in(&script, &server));
    assert_eq!(
        json_login(&server, "ada", "ada-password").status(),
        StatusCode::OK
    );

    let (status, location, _) = send("ada-password", "new-secret-1", "new-secret-1", &csrf);
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location.as_deref(), Some("/account?changed=1"));
    let (status, page) = text(&browser, &server, "/account?changed=1");
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Your password is changed"), "{page}");
    // This session goes on; ada's other one has ended; grace's is not touched.
    assert!(logged_in(&browser, &server));
    assert!(!logged_in(&script, &server));
    assert!(logged_in(&grace, &server));
    assert_eq!(
        json_login(&server, "ada", "ada-password").status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        json_login(&server, "ada", "new-secret-1").status(),
        StatusCode::OK
    );
}

#[test]
fn a_password_changed_through_the_api_ends_the_other_sessions_and_keeps_this_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = staff_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    let script = api_login(&server, "tess", "tess-password");
    let other = api_login(&server, "tess", "tess-password");
    let browser = form_login(&server, "tess", "tess-password");
    let (status, body) = change_over_api(&script, &server, "tess-password", "short");
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("at least 8 characters"),
        "{body}"
    );
    let (status, body) = change_over_api(&script, &server, "not-her-password", "new-secret-1");
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let response = script
        .post(server.url("/api/password"))
        .json(&serde_json::json!({ "new": "new-secret-1" }))
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(logged_in(&other, &server));
    let (status, body) = change_over_api(&client(), &server, "tess-password", "new-secret-1");
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");

    let (status, body) = change_over_api(&script, &server, "tess-password", "new-secret-1");
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert!(logged_in(&script, &server));
    assert!(!logged_in(&other, &server));
    let page = browser.get(server.url("/class")).send().unwrap();
    assert_eq!(
        page.status(),
        StatusCode::SEE_OTHER,
        "the page's session ended"
    );
    assert_eq!(
        json_login(&server, "tess", "tess-password").status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        json_login(&server, "tess", "new-secret-1").status(),
        StatusCode::OK
    );
}

#[test]
fn wrong_current_passwords_count_as_failed_logins_for_the_throttle() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    // Without a device cookie, guesses count against the account, as a new client's logins.
    let stolen = session_only(&server, "ada", "ada-password");
    for _ in 0..5 {
        let (status, body) = change_over_api(&stolen, &server, "a-guess-at-it", "new-secret-1");
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    }
    // Now new clients wait, even with the right password, and so does the next guess.
    let response = json_login(&server, "ada", "ada-password");
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key("retry-after"));
    let (status, _) = change_over_api(&stolen, &server, "ada-password", "new-secret-1");
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Another account is not held back.
    assert_eq!(
        json_login(&server, "grace", "grace-password").status(),
        StatusCode::OK
    );
}

#[test]
fn an_instructors_reset_and_users_passwd_end_every_session_of_the_account() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::in_process(&db, None, 0);
    let browser = form_login(&server, "ada", "ada-password");
    let script = api_login(&server, "ada", "ada-password");
    let grace = api_login(&server, "grace", "grace-password");
    let prof = form_login(&server, "prof", "prof-password");
    let csrf = token(&prof, &server);
    let response = prof
        .post(server.url("/class/password"))
        .form(&[("username", "ada"), ("csrf", csrf.as_str())])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let page = response.text().unwrap();
    let marker = "<code class=\"password\">";
    let start = page.find(marker).expect("the new password") + marker.len();
    let password = &page[start..start + page[start..].find('<').unwrap()];
    assert!(!logged_in(&browser, &server));
    assert!(!logged_in(&script, &server));
    assert!(logged_in(&grace, &server));
    assert!(
        logged_in(&prof, &server),
        "the instructor's own session goes on"
    );
    // From the command line, beside the server.
    let again = api_login(&server, "ada", password);
    assert!(logged_in(&again, &server));
    users(&db, &["passwd", "ada"], "ada-new-password\n");
    assert!(!logged_in(&again, &server));
    assert!(logged_in(&grace, &server));
    assert_eq!(
        json_login(&server, "ada", "ada-new-password").status(),
        StatusCode::OK
    );
}
