//! An exercise's files on the website: the statement's images and handouts beside it in the
//! lab folder, its sample cases (and never its secret ones), the upload form's errors as the
//! site's pages, and a file meant for another exercise named as such.

use super::*;

/// A PNG's first bytes: enough for a browser to know it, and for the test to compare.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDRnot-really-an-image";

/// The small lab with files beside present_board's statement, which shows the image.
fn lab_with_statement_files() -> tempfile::TempDir {
    let lab = small_lab();
    let folder = lab.path().join("exercises/present_board");
    std::fs::write(folder.join("board.png"), PNG).unwrap();
    std::fs::write(folder.join("notes.txt"), "rows are numbered from 1\n").unwrap();
    std::fs::write(folder.join("page.html"), "<script>alert(1)</script>").unwrap();
    std::fs::write(folder.join("logo.svg"), "<svg onload=\"alert(1)\"/>").unwrap();
    std::fs::create_dir(folder.join("img")).unwrap();
    std::fs::write(folder.join("img/small.gif"), b"GIF89a").unwrap();
    // A file outside the exercise's folder, and a link to it from inside.
    std::fs::write(lab.path().join("outside.txt"), "not for students\n").unwrap();
    std::os::unix::fs::symlink(lab.path().join("outside.txt"), folder.join("link.txt")).unwrap();
    let readme = folder.join("README.md");
    let mut statement = std::fs::read_to_string(&readme).unwrap();
    statement.push_str("\n![the board](board.png) and [the notes](notes.txt).\n");
    std::fs::write(&readme, statement).unwrap();
    lab
}

/// The session cookie of a fresh login, for requests sent by hand.
fn session_cookie(server: &Server) -> String {
    let response = Client::new()
        .post(server.url("/api/login"))
        .json(&serde_json::json!({ "username": "ada", "password": "ada-password" }))
        .send()
        .unwrap();
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string())
        .find(|c| c.starts_with("nimlab_session="))
        .expect("a session cookie")
}

/// The status line of a GET sent byte for byte as written: HTTP clients resolve `..` and
/// `%2e%2e` before sending, an attacker's does not.
fn raw_status(server: &Server, cookie: &str, path: &str) -> String {
    if let Some(site) = &server.site {
        return format!("HTTP/1.1 {}", site.get_as_written(path, cookie).unwrap());
    }
    let head = format!("GET {path} HTTP/1.1\r\nCookie: {cookie}\r\nConnection: close\r\n");
    let mut stream = start_sending(server, &head, "");
    let answer = answer_head(&mut stream, Duration::from_secs(10));
    answer.lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_statements_files_are_served_beside_it_and_nothing_else_is() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = lab_with_statement_files();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let base = "/exercises/present_board/files/";

    // Not logged in: sent to log in, as for the statement.
    let response = client()
        .get(server.url(&format!("{base}board.png")))
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);

    let ada = form_login(&server, "ada", "ada-password");
    let (_, page) = text(&ada, &server, "/exercises/present_board");
    assert!(page.contains(&format!("src=\"{base}board.png\"")), "{page}");
    assert!(
        page.contains(&format!("href=\"{base}notes.txt\"")),
        "{page}"
    );

    let get = |path: &str| {
        ada.get(server.url(&format!("{base}{path}")))
            .send()
            .unwrap()
    };
    let header =
        |response: &Response, name: &str| response.headers()[name].to_str().unwrap().to_string();
    let image = get("board.png");
    assert_eq!(image.status(), StatusCode::OK);
    assert_eq!(header(&image, "content-type"), "image/png");
    assert_eq!(header(&image, "x-content-type-options"), "nosniff");
    assert_eq!(image.bytes().unwrap().as_ref(), PNG);
    let gif = get("img/small.gif");
    assert_eq!(header(&gif, "content-type"), "image/gif");
    let notes = get("notes.txt");
    assert_eq!(header(&notes, "content-type"), "text/plain; charset=utf-8");
    // What a browser would run is only ever downloaded.
    for download in ["page.html", "logo.svg"] {
        let response = get(download);
        assert_eq!(response.status(), StatusCode::OK, "{download}");
        assert_eq!(
            header(&response, "content-type"),
            "application/octet-stream"
        );
        assert!(header(&response, "content-disposition").starts_with("attachment"));
    }
    // The exercise's own files (the model solution above all) are not statement files, and
    // a link out of the folder was never loaded.
    for hidden in [
        "solution.py",
        "stub.py",
        "exercise.toml",
        "README.md",
        "link.txt",
        "nope.png",
    ] {
        assert_eq!(get(hidden).status(), StatusCode::NOT_FOUND, "{hidden}");
    }

    let cookie = session_cookie(&server);
    assert!(raw_status(&server, &cookie, &format!("{base}board.png")).contains(" 200 "));
    for sneaky in [
        "../../../outside.txt",
        "%2e%2e/%2e%2e/%2e%2e/outside.txt",
        "..%2f..%2f..%2foutside.txt",
        "img%2Fsmall.gif",
        "img%5csmall.gif",
        "/etc/passwd",
        "%2fetc%2fpasswd",
        "./board.png",
        "img//small.gif",
        "../solution.py",
        "../../../fixtures/present_board/secret/01-single-element.out",
    ] {
        let status = raw_status(&server, &cookie, &format!("{base}{sneaky}"));
        assert!(
            status.contains(" 400 ") || status.contains(" 404 "),
            "{sneaky}: {status}"
        );
    }
}

#[test]
fn the_exercise_page_offers_the_sample_cases_and_never_a_secret_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = form_login(&server, "ada", "ada-password");
    let (_, page) = text(&ada, &server, "/exercises/present_board");
    // A student on the website is told to upload here; nimlab on their machine is optional.
    assert!(page.contains("Upload your file here"), "{page}");
    assert!(page.contains("If you have nimlab installed"), "{page}");

    let fixtures = lab.path().join("fixtures/present_board");
    let stems = |folder: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(fixtures.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let samples = stems("sample");
    assert!(!samples.is_empty());
    for stem in &samples {
        for part in ["in", "out"] {
            let path = format!("/exercises/present_board/samples/{stem}.{part}");
            assert!(page.contains(&format!("href=\"{path}\"")), "{path}: {page}");
            let (status, body) = text(&ada, &server, &path);
            assert_eq!(status, StatusCode::OK, "{path}");
            let stored =
                std::fs::read_to_string(fixtures.join(format!("sample/{stem}.{part}"))).unwrap();
            assert_eq!(body.trim_end(), stored.trim_end(), "{path}");
        }
    }
    let secrets = stems("secret");
    assert!(!secrets.is_empty());
    let cookie = session_cookie(&server);
    for stem in &secrets {
        assert!(!page.contains(stem.as_str()), "{stem} is named on the page");
        // Guessed by its name, by its folder, or by a way out of the samples.
        for guess in [
            format!("{stem}.in"),
            format!("{stem}.out"),
            format!("secret%2F{stem}.out"),
            format!("..%2Fsecret%2F{stem}.out"),
        ] {
            let path = format!("/exercises/present_board/samples/{guess}");
            let (status, _) = text(&ada, &server, &path);
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        }
        for raw in [
            format!("/exercises/present_board/samples/../secret/{stem}.out"),
            format!(
                "/exercises/present_board/files/../../../fixtures/present_board/secret/{stem}.out"
            ),
        ] {
            let status = raw_status(&server, &cookie, &raw);
            assert!(!status.contains(" 200 "), "{raw}: {status}");
        }
    }
    let visitor = client()
        .get(server.url(&format!(
            "/exercises/present_board/samples/{}.in",
            samples[0]
        )))
        .send()
        .unwrap();
    assert_eq!(visitor.status(), StatusCode::SEE_OTHER);
}

#[test]
fn the_upload_forms_errors_are_the_sites_pages_with_a_way_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let server = Server::in_process(&db, Some(lab.path()), 0);
    let ada = form_login(&server, "ada", "ada-password");
    let (_, page) = text(&ada, &server, "/exercises/present_board");
    let token = csrf_of(&page);
    let send = |file: multipart::Part| {
        let form = multipart::Form::new()
            .text("csrf", token.clone())
            .text("source", "")
            .part("file", file);
        let response = ada
            .post(server.url("/exercises/present_board/submit"))
            .multipart(form)
            .send()
            .unwrap();
        (response.status(), response.text().unwrap())
    };
    for (file, message) in [
        (
            multipart::Part::bytes(Vec::new()).file_name(""),
            "choose a .py file",
        ),
        (
            multipart::Part::bytes(b"my notes\n".to_vec()).file_name("notes.txt"),
            "notes.txt is not a Python file",
        ),
    ] {
        let (status, body) = send(file);
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body.contains(message), "{body}");
        assert!(
            body.contains("<nav>") && body.contains("My submissions"),
            "{body}"
        );
        assert!(
            body.contains("href=\"/exercises/present_board#submit\""),
            "{body}"
        );
        assert!(body.contains("Log out"), "{body}");
    }
}

#[test]
fn a_file_meant_for_another_exercise_is_named_as_such_on_the_website_and_in_check() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = lab_with(&["present_board", "make_move"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    });
    let server = Server::in_process(&db, Some(lab.path()), 1);
    let ada = api_login(&server, "ada", "ada-password");
    let wrong = std::fs::read(solution("make_move")).unwrap();
    let response = upload(&ada, &server, "present_board", "make_move.py", wrong);
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let id = response.json::<Value>().unwrap()["id"].as_i64().unwrap();
    let done = judged(&ada, &server, id);
    assert_ne!(done["verdict"], "accepted", "{done}");
    let hint = "looks like make_move's, not present_board's";
    let hints = done["report"]["hints"].to_string();
    assert!(hints.contains(hint), "{done}");
    let (_, page) = text(&ada, &server, &format!("/submissions/{id}"));
    assert!(page.contains(hint), "{page}");
    assert!(
        page.contains("<code>make_move</code>") || page.contains("`make_move`"),
        "{page}"
    );

    // The right file has no such hint.
    let right = submit(&ada, &server, "present_board", &solution("present_board"));
    let done = judged(&ada, &server, right);
    assert_eq!(done["verdict"], "accepted", "{done}");
    assert!(!done["report"]["hints"].to_string().contains("looks like"));

    // `nimlab check` says the same.
    let output = crate::common::nimlab()
        .arg("--lab")
        .arg(lab.path())
        .arg("check")
        .arg(solution("make_move"))
        .args(["--exercise", "present_board"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains(hint), "{said}");
}

#[test]
fn init_and_the_exports_carry_a_statements_files() {
    let lab = lab_with(&["present_board"], |_| {});
    let folder = lab.path().join("exercises/present_board");
    std::fs::write(folder.join("board.png"), PNG).unwrap();
    std::fs::create_dir(folder.join("img")).unwrap();
    std::fs::write(folder.join("img/small.gif"), b"GIF89a").unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = |args: &[&str], target: &Path| {
        crate::common::nimlab()
            .arg("--lab")
            .arg(lab.path())
            .args(args)
            .arg(target)
            .assert()
            .success();
    };
    let pack = out.path().join("pack");
    run(&["init"], &pack);
    let cms = out.path().join("cms");
    run(&["export", "cms", "--out"], &cms);
    let kattis = out.path().join("kattis");
    run(&["export", "kattis", "--out"], &kattis);
    for (statements, beside) in [
        (pack.join("statements"), "present_board.md"),
        (cms.join("present_board/statement"), "statement.md"),
        (
            kattis.join("presentboard/problem_statement"),
            "problem.en.tex",
        ),
    ] {
        assert!(
            statements.join(beside).is_file(),
            "{}",
            statements.display()
        );
        assert_eq!(std::fs::read(statements.join("board.png")).unwrap(), PNG);
        assert_eq!(
            std::fs::read(statements.join("img/small.gif")).unwrap(),
            b"GIF89a"
        );
        // The model solution stays where the format keeps it, never with the statement.
        assert!(!statements.join("solution.py").exists());
    }
}
