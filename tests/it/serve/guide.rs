//! The instructor's page of the guide (`docs/src/course.md`) followed as written: every
//! `nimlab` command of its `console` and `sh` blocks, in order, in one fresh folder, with
//! `serve` started where the page starts it; while it serves, a student of the roster logs in
//! with the password the page's import wrote, uploads and gets the points the page promises,
//! and the instructor downloads the gradebooks. (The book's own test checks what each
//! `console` command prints, block by block; this one checks that the page works as a whole.)

use super::*;
use crate::book::{parser, scratch, words};
use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};
use std::collections::HashMap;

/// The `nimlab` commands of a page's `console` blocks (`$ ` lines) and `sh` blocks (lines
/// that start with `nimlab`), in order, their comments left out.
fn commands(text: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut block: Option<(String, String)> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang))) => {
                block = Some((lang.to_string(), String::new()));
            }
            Event::Text(t) => {
                if let Some((_, body)) = &mut block {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let Some((lang, body)) = block.take() else {
                    continue;
                };
                let body = body.replace("\\\n", " ");
                for line in body.lines() {
                    let command = match lang.as_str() {
                        "console" => line.strip_prefix("$ "),
                        "sh" => line.starts_with("nimlab ").then_some(line),
                        _ => None,
                    };
                    if let Some(command) = command {
                        let command = command.split(" # ").next().unwrap_or(command);
                        commands.push(words(command));
                    }
                }
            }
            _ => {}
        }
    }
    commands
}

/// `serve`'s arguments with its address replaced by a free port of the loopback.
fn on_a_free_port(args: &[String]) -> Vec<String> {
    let mut args = args.to_vec();
    if let Some(at) = args.iter().position(|a| a == "--listen") {
        args[at + 1] = "127.0.0.1:0".into();
    }
    args
}

/// A CSV file's row for a student, as its cells.
fn row_of(csv: &str, student: &str) -> Vec<String> {
    csv.lines()
        .map(|line| line.split(',').map(str::to_string).collect::<Vec<_>>())
        .find(|cells| cells.iter().any(|c| c == student))
        .unwrap_or_else(|| panic!("no row for {student} in:\n{csv}"))
}

#[test]
// The page's steps in order, each depending on the last.
#[allow(clippy::too_many_lines)]
fn the_course_page_runs_as_written_and_a_student_gets_the_points_it_promises() {
    let page = root().join("docs/src/course.md");
    let commands = commands(&std::fs::read_to_string(&page).unwrap());
    let folder = scratch();
    let here = folder.path();
    let mut passwords: HashMap<String, String> = HashMap::new();
    let mut website: Option<(String, String)> = None;
    let mut server: Option<Server> = None;
    for words in &commands {
        let shown = words.join(" ");
        assert_eq!(
            words[0], "nimlab",
            "{shown}: the page's commands are nimlab's"
        );
        if words[1] == "serve" {
            let mut command = Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
            command
                .args(on_a_free_port(&words[1..]))
                .current_dir(here)
                .env("NO_COLOR", "1");
            let started = Server::spawn(command, here.join("serve.log"));
            website = Some(a_student_and_the_instructor_visit(
                &started, here, &passwords,
            ));
            server = Some(started);
            continue;
        }
        let output = nimlab()
            .args(&words[1..])
            .current_dir(here)
            .env("TZ", "UTC")
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert!(
            output.status.success(),
            "{shown}: {:?}\n{stdout}{stderr}",
            output.status
        );
        if words.get(1..3) == Some(&["users".to_string(), "add".to_string()]) {
            let password = stdout
                .lines()
                .find_map(|line| line.strip_prefix("password: "))
                .unwrap_or_else(|| panic!("{shown}: no password printed: {stdout}"));
            passwords.insert(words[3].clone(), password.to_string());
        }
    }
    let server = server.expect("the page starts nimlab serve");
    let (gradebook, moodle) = website.unwrap();
    assert!(commands.len() >= 10, "only {} commands", commands.len());

    // The end of the term without the website: the same points for the student.
    let graded = std::fs::read_to_string(here.join("grades-final/gradebook.csv"))
        .expect("the page's `grade` writes grades-final/gradebook.csv");
    let header: Vec<&str> = gradebook.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|c| *c == "present_board").unwrap();
    let graded_header: Vec<&str> = graded.lines().next().unwrap().split(',').collect();
    let graded_column = graded_header
        .iter()
        .position(|c| *c == "present_board")
        .unwrap();
    assert_eq!(
        row_of(&graded, "ada")[graded_column],
        row_of(&gradebook, "ada")[column],
        "grade on the export:\n{graded}\nthe website:\n{gradebook}"
    );
    // Moodle's file finds her by the roster's id, with the same points in the exercise's
    // column (titled by the exercise).
    let moodle_header: Vec<&str> = moodle.lines().next().unwrap().split(',').collect();
    assert_eq!(moodle_header[0], "ID number", "{moodle}");
    let moodle_column = moodle_header
        .iter()
        .position(|c| *c == "Present the board")
        .unwrap_or_else(|| panic!("{moodle}"));
    assert_eq!(
        row_of(&moodle, "1001")[moodle_column],
        row_of(&gradebook, "ada")[column],
        "{moodle}"
    );
    drop(server);
}

/// While the page's server runs: Ada logs in with the password the import wrote, uploads
/// the model solution of the first exercise and sees it count in full (the deadlines the
/// page set are years away); the instructor sees her on the class page and downloads the
/// gradebook and Moodle's file, which are returned.
fn a_student_and_the_instructor_visit(
    server: &Server,
    here: &Path,
    passwords: &HashMap<String, String>,
) -> (String, String) {
    let issued = std::fs::read_to_string(here.join("passwords.csv"))
        .expect("the page's import writes passwords.csv");
    let ada_password = row_of(&issued, "ada")[2].clone();
    let ada = api_login(server, "ada", &ada_password);
    let id = submit(
        &ada,
        server,
        "present_board",
        &here.join("exercises/present_board/solution.py"),
    );
    assert_eq!(judged(&ada, server, id)["verdict"], "accepted");
    let (_, listed) = get_json(&ada, server, "/api/exercises");
    let grade = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "present_board")
        .unwrap()["grade"]
        .clone();
    assert_eq!(grade["id"], id, "{listed}");
    assert_eq!(
        grade["points"].as_f64(),
        grade["max_points"].as_f64(),
        "{listed}"
    );
    let (_, list) = text(
        &form_login(server, "ada", &ada_password),
        server,
        "/exercises",
    );
    let full = format!(">{0} of {0}<", grade["max_points"]);
    assert!(list.contains(&full), "{full} not in {list}");

    // An exercise of further study, optional: outside the total, as in the gradebook.
    let optional = submit(
        &ada,
        server,
        "misere_move",
        &here.join("exercises/misere_move/solution.py"),
    );
    assert_eq!(judged(&ada, server, optional)["verdict"], "accepted");

    let prof = form_login(server, "prof", &passwords["prof"]);
    let (status, class) = text(&prof, server, "/class");
    assert_eq!(status, StatusCode::OK);
    let row = |student: &str| {
        class
            .split("<tr>")
            .find(|row| row.contains(&format!("<td class=\"name\">{student}")))
            .unwrap_or_else(|| panic!("no row for {student}: {class}"))
            .to_string()
    };
    // The total the gradebook gives, out of the exercises it counts (the lab's 100 points).
    assert!(row("ada").contains(">10/100<"), "{}", row("ada"));
    assert!(row("bob").contains(">0/100<"), "{}", row("bob"));
    assert!(!class.contains("-0/"), "{class}");
    let (_, gradebook) = text(&prof, server, "/downloads/gradebook.csv");
    let (_, moodle) = text(&prof, server, "/downloads/moodle.csv");
    // The TA the page added reaches the class too.
    let tess = form_login(server, "tess", &passwords["tess"]);
    assert_eq!(text(&tess, server, "/class").0, StatusCode::OK);
    (gradebook, moodle)
}
