//! Who a launch signs in, attacked: an LMS identity is (platform, subject), so a user of
//! another platform with the same `sub` is someone else; roster and email linking is off
//! unless turned on, and then takes only a student account with no LMS identity, never
//! changing its role; staff roles count only from the registered course; every TA sub-role
//! is a TA's; removed and disabled accounts stay so and a refused launch writes nothing;
//! simultaneous first launches make one account each. On SQLite, and on PostgreSQL with
//! `NIMLAB_TEST_STORE=postgres`.

use super::*;

/// `platform` registered (again) on `db` with `extra` options of `lti add-platform`.
pub(super) fn register_with(platform: &Platform, db: &Path, extra: &[&str]) {
    register_client(platform, db, CLIENT_ID, extra);
}

/// A registration of `platform` for `client_id` (another school on the same LMS cloud, say).
fn register_client(platform: &Platform, db: &Path, client_id: &str, extra: &[&str]) {
    nimlab()
        .args(["lti", "add-platform", "--issuer", &platform.base])
        .args(["--client-id", client_id, "--deployment-id", DEPLOYMENT])
        .args(["--auth-url", &format!("{}/auth", platform.base)])
        .args(["--jwks-url", &format!("{}/jwks", platform.base)])
        .args(["--token-url", &format!("{}/token", platform.base)])
        .args(extra)
        .arg("--db")
        .arg(db)
        .assert()
        .success();
}

/// A launch of `person` whose claims `tweak` changes; the tool's answer.
fn launch_with(
    server: &Server,
    platform: &Platform,
    person: &Person,
    tweak: impl FnOnce(&mut Value),
) -> Response {
    let begun = begin(server, platform, "x");
    let mut claims = platform.claims(person, &begun.nonce);
    tweak(&mut claims);
    let token = platform.shared.key.lock().unwrap().token(&claims);
    finish(server, platform, &begun, &token)
}

/// A launch of `person` through the platform's registration `client_id`.
fn launch_for(server: &Server, platform: &Platform, client_id: &str, person: &Person) -> Response {
    let begun = begin_for(server, platform, "x", client_id);
    let mut claims = platform.claims(person, &begun.nonce);
    claims["aud"] = client_id.into();
    claims["azp"] = client_id.into();
    let token = platform.shared.key.lock().unwrap().token(&claims);
    finish(server, platform, &begun, &token)
}

/// The course the launch comes from set to `id` (None: no context claim at all).
fn from_course(id: Option<&str>) -> impl FnOnce(&mut Value) {
    let id = id.map(str::to_string);
    move |claims: &mut Value| {
        let map = claims.as_object_mut().unwrap();
        match id {
            Some(id) => map.insert(format!("{LTI}context"), serde_json::json!({"id": id})),
            None => map.remove(&format!("{LTI}context")),
        };
    }
}

/// A launch that must sign in: its client and the username it is signed in as.
fn signed_in(server: &Server, response: Response) -> (Client, String) {
    assert_eq!(
        response.status(),
        StatusCode::SEE_OTHER,
        "{}\n{}",
        response.text().unwrap_or_default(),
        server.stderr()
    );
    let client = with_session(server, &session_of(&response).expect("a session"));
    let who = username_of(server, &client);
    (client, who)
}

/// A plain launch of the person with `sub`, `email` and course `roles`, which must sign in.
fn launched(
    server: &Server,
    platform: &Platform,
    sub: &str,
    email: &str,
    roles: &[&str],
) -> (Client, String) {
    let person = person(sub, email, roles);
    signed_in(server, launch_with(server, platform, &person, |_| {}))
}

/// The username a session's pages show.
fn username_of(server: &Server, client: &Client) -> String {
    let (status, page) = text(client, server, "/exercises");
    assert_eq!(status, StatusCode::OK, "{page}");
    let marker = r#"<span class="who">"#;
    let start = page.find(marker).expect("the account's name") + marker.len();
    page[start..].split('<').next().unwrap().to_string()
}

/// A launch that must be refused with 403 and `words`, with no session.
fn refused_403(server: &Server, response: Response, words: &str) {
    assert_eq!(
        response.status(),
        StatusCode::FORBIDDEN,
        "{}",
        server.stderr()
    );
    assert!(session_of(&response).is_none());
    let page = response.text().unwrap();
    assert!(page.contains(words), "expected {words:?} in {page}");
}

fn import(db: &Path, dir: &Path, csv: &str) {
    let roster = dir.join(format!("roster-{}.csv", rand_suffix()));
    std::fs::write(&roster, csv).unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(db)
        .assert()
        .success();
}

fn is_staff(server: &Server, client: &Client) -> bool {
    text(client, server, "/class").0 == StatusCode::OK
}

fn is_instructor(server: &Server, client: &Client) -> bool {
    text(client, server, "/class/lti").0 == StatusCode::OK
}

#[test]
fn a_subject_of_another_platform_is_another_person_even_with_linking_on() {
    let course = course_in_process(0);
    let (a, server, db) = (&course.platform, &course.server, &course.db);
    // A second LMS (another issuer), both allowed to link roster accounts.
    let b = Platform::start();
    register_with(&b, db, &["--link-accounts", "on"]);
    register_with(a, db, &["--link-accounts", "on"]);
    b.serve(server);
    // Ada launches from A as sub 5; B's user 5 is someone else, whatever they claim.
    let ada = person("5", "ada5@a.example", &["Learner"]);
    let (_, ada_name) = signed_in(server, launch_with(server, a, &ada, |_| {}));
    let mut mallory = person("5", "ada5@a.example", &["Instructor"]);
    mallory.name = "Mallory".into();
    let (mallory_client, mallory_name) =
        signed_in(server, launch_with(server, &b, &mallory, |_| {}));
    assert_ne!(ada_name, mallory_name);
    // Ada's account kept its name: B's launch changed nothing of it.
    let (ada_again, again) = signed_in(server, launch_with(server, a, &ada, |_| {}));
    assert_eq!(again, ada_name);
    assert!(!is_staff(server, &ada_again));
    // A's course is registered for A only: the same context id from B gives no staff role.
    assert!(!is_staff(server, &mallory_client));
    // A roster's LMS id names its platform: ana is A's user 7, not B's.
    import(
        db,
        course.dir.path(),
        &format!(
            "username,lms_id,lms_issuer,password\nana,7,{},ana-password\n",
            a.base
        ),
    );
    let (_, from_b) = launched(server, &b, "7", "", &["Learner"]);
    assert_ne!(from_b, "ana");
    let (_, from_a) = launched(server, a, "7", "", &["Learner"]);
    assert_eq!(from_a, "ana");
    // An LMS id without its issuer is refused at import.
    let roster = course.dir.path().join("bare.csv");
    std::fs::write(&roster, "username,lms_id\nbea,8\n").unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("lms_issuer"));
}

#[test]
fn email_linking_is_off_by_default_and_never_takes_staff_a_linked_account_or_a_role() {
    let course = course_in_process(0);
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    // prof (an instructor) and ada (a student) have emails on the roster.
    import(
        db,
        course.dir.path(),
        "username,email\nprof,prof@uni.example\nada,ada@uni.example\n",
    );
    // Off by default: a launch with ada's email is not ada.
    let (_, name) = launched(server, platform, "lms-1", "ada@uni.example", &["Learner"]);
    assert_ne!(name, "ada");
    register_with(platform, db, &["--link-accounts", "on"]);
    // A learner with the instructor's email takes nothing: prof is staff, never linked.
    let (_, name) = launched(server, platform, "lms-2", "PROF@uni.example", &["Learner"]);
    assert_ne!(name, "prof");
    let prof = form_login(server, "prof", "prof-password");
    assert!(is_instructor(server, &prof), "prof was demoted");
    // ada's account is linked to its first launch, and keeps its role though the launch
    // says Instructor of the registered course.
    let (linked, name) = launched(
        server,
        platform,
        "lms-3",
        "Ada@Uni.example",
        &["Instructor"],
    );
    assert_eq!(name, "ada");
    assert!(!is_staff(server, &linked));
    // Nor do its later launches make the roster's student an instructor.
    let (again, name) = launched(
        server,
        platform,
        "lms-3",
        "ada@uni.example",
        &["Instructor"],
    );
    assert_eq!(name, "ada");
    assert!(!is_staff(server, &again));
    // A disabled student is not escaped through a new account: the launch its email would
    // link is refused, and links nothing.
    import(
        db,
        course.dir.path(),
        "username,email
cy,cy@uni.example
",
    );
    nimlab()
        .args(["users", "disable", "cy", "--db"])
        .arg(db)
        .assert()
        .success();
    let cy = person("lms-cy", "cy@uni.example", &["Learner"]);
    refused_403(
        server,
        launch_with(server, platform, &cy, |_| {}),
        "disabled",
    );
    nimlab()
        .args(["users", "enable", "cy", "--db"])
        .arg(db)
        .assert()
        .success();
    let (_, name) = signed_in(server, launch_with(server, platform, &cy, |_| {}));
    assert_eq!(name, "cy");
    // Once linked, another LMS user with ada's email is not ada.
    let (_, name) = launched(server, platform, "lms-4", "ada@uni.example", &["Learner"]);
    assert_ne!(name, "ada");
    // Turned off again, a roster account is no longer linked.
    import(db, course.dir.path(), "username,email\nbo,bo@uni.example\n");
    register_with(platform, db, &["--link-accounts", "off"]);
    let (_, name) = launched(server, platform, "lms-5", "bo@uni.example", &["Learner"]);
    assert_ne!(name, "bo");
}

#[test]
fn staff_roles_count_only_from_the_registered_course_and_ta_sub_roles_make_tas() {
    let course = course("0");
    let (platform, server) = (&course.platform, &course.server);
    // A learner here who is Instructor of another course on the same platform.
    let other = Some("another-course");
    let sam = person("lms-sam", "", &["Instructor"]);
    let sam_from = |course| {
        signed_in(
            server,
            launch_with(server, platform, &sam, from_course(course)),
        )
    };
    let (sam_client, sam_name) = sam_from(other);
    assert!(!is_staff(server, &sam_client));
    // Nor with no course at all, nor for choosing exercises from the other course.
    let (again, name) = sam_from(None);
    assert_eq!(name, sam_name);
    assert!(!is_staff(server, &again));
    let mut choosing = sam.clone();
    choosing.deep_link = true;
    refused_403(
        server,
        launch_with(server, platform, &choosing, from_course(other)),
        "another-course",
    );
    assert!(server.stderr().contains("not registered"));
    // Every TA sub-role, sent alone or with Instructor, is a TA's in the registered course.
    for (index, sub) in [
        "TeachingAssistant",
        "TeachingAssistantSection",
        "TeachingAssistantOffering",
        "Grader",
    ]
    .iter()
    .enumerate()
    {
        let mut ta = person(&format!("lms-ta-{index}"), "", &["Instructor"]);
        ta.roles = vec![
            format!("{MEMBERSHIP}#Instructor"),
            format!("{MEMBERSHIP}/Instructor#{sub}"),
        ];
        let (client, _) = signed_in(server, launch_with(server, platform, &ta, |_| {}));
        assert!(is_staff(server, &client), "{sub}");
        assert!(!is_instructor(server, &client), "{sub} made an instructor");
    }
    // The course's instructor is one, and stays one when launching as a learner of another
    // course.
    let tess = person("lms-tess", "", &["Instructor"]);
    let (tess_client, _) = signed_in(server, launch_with(server, platform, &tess, |_| {}));
    assert!(is_instructor(server, &tess_client));
    let mut tess_elsewhere = tess.clone();
    tess_elsewhere.roles = vec![format!("{MEMBERSHIP}#Learner")];
    let (client, _) = signed_in(
        server,
        launch_with(server, platform, &tess_elsewhere, from_course(other)),
    );
    assert!(is_instructor(server, &client));
    // The registered course says Learner now: the course's own word counts.
    let (client, _) = signed_in(
        server,
        launch_with(server, platform, &tess_elsewhere, |_| {}),
    );
    assert!(!is_staff(server, &client));
    // A context is registered by the instructor, never learned from a launch: sam's
    // launches from another-course did not register it.
    assert!(!is_staff(server, &sam_from(other).0));
    register_with(platform, &course.db, &["--context", "another-course"]);
    assert!(is_instructor(server, &sam_from(other).0));
    register_with(
        platform,
        &course.db,
        &["--forget-context", "another-course"],
    );
    let listed = nimlab()
        .args(["lti", "list", "--db"])
        .arg(&course.db)
        .output();
    let out = String::from_utf8_lossy(&listed.unwrap().stdout).to_string();
    assert!(
        out.contains(COURSE) && !out.contains("another-course"),
        "{out}"
    );
}

fn users_list(db: &Path) -> String {
    let listed = nimlab()
        .args(["users", "list", "--db"])
        .arg(db)
        .assert()
        .success();
    String::from_utf8_lossy(&listed.get_output().stdout).to_string()
}

#[test]
fn removed_and_disabled_accounts_stay_so_and_a_refused_launch_changes_nothing() {
    let course = course_in_process(1);
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    let dee = person("lms-dee", "", &["Learner"]);
    let (_, name) = signed_in(server, launch_with(server, platform, &dee, |_| {}));
    let users = |args: &[&str]| {
        nimlab()
            .arg("users")
            .args(args)
            .arg(&name)
            .arg("--db")
            .arg(db)
            .assert()
            .success();
    };
    users(&["disable"]);
    // Disabled: refused, and neither the new name nor the instructor's role is written.
    let mut promoted = dee.clone();
    promoted.name = "Renamed By Launch".into();
    promoted.roles = vec![format!("{MEMBERSHIP}#Instructor")];
    refused_403(
        server,
        launch_with(server, platform, &promoted, |_| {}),
        "disabled",
    );
    let out = users_list(db);
    assert!(!out.contains("Renamed By Launch"), "{out}");
    assert!(out.contains("Person lms-dee"), "{out}");
    users(&["enable"]);
    let (client, again) = signed_in(
        server,
        launch_with(server, platform, &dee, from_course(None)),
    );
    assert_eq!(again, name);
    assert!(!is_staff(server, &client));
    // A student's Deep Linking request is refused before anything is written; a first one
    // makes no account.
    let mut choosing = dee.clone();
    choosing.deep_link = true;
    choosing.name = "Renamed By Launch".into();
    let mut stranger = person("lms-stranger", "", &["Learner"]);
    stranger.deep_link = true;
    for who in [&choosing, &stranger] {
        refused_403(
            server,
            launch_with(server, platform, who, |_| {}),
            "choose exercises",
        );
    }
    let out = users_list(db);
    assert!(
        !out.contains("Renamed By Launch") && !out.contains("lms-stranger"),
        "{out}"
    );
    // Removed: a launch does not bring it back.
    users(&["remove"]);
    refused_403(
        server,
        launch_with(server, platform, &dee, |_| {}),
        "removed",
    );
    assert!(!users_list(db).contains(&name));
}

#[test]
fn users_remove_with_submissions_takes_a_removed_account_that_launched_and_had_its_score_sent() {
    let course = course_in_process(1);
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    let eve = person("lms-eve", "eve@uni.example", &["Learner"]);
    let (client, name) = signed_in(server, launch_with(server, platform, &eve, |_| {}));
    let id = submit(&client, server, "present_board", &solution("present_board"));
    judged(&client, server, id);
    let start = Instant::now();
    while platform.scores().is_empty() {
        assert!(start.elapsed() < JUDGING, "no score:\n{}", server.stderr());
        std::thread::sleep(Duration::from_millis(200));
    }
    let remove = |extra: &[&str]| {
        nimlab()
            .args(["users", "remove", &name])
            .args(extra)
            .arg("--db")
            .arg(db)
            .assert()
            .success();
    };
    remove(&[]);
    refused_403(
        server,
        launch_with(server, platform, &eve, |_| {}),
        "removed",
    );
    // The tombstone, with its identity, line item, score and submission, goes whole.
    remove(&["--with-submissions"]);
    // Eve launching again is a new account with nothing of the old one.
    let (client, _) = signed_in(server, launch_with(server, platform, &eve, |_| {}));
    let (status, mine) = get_json(&client, server, "/api/submissions");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mine.as_array().map_or(0, Vec::len), 0, "{mine}");
}

#[test]
fn an_id_token_not_valid_yet_is_refused() {
    let launch = launching();
    let (platform, server, learner) = (&launch.platform, &launch.server, &launch.learner);
    let sign = |claims: &Value| platform.shared.key.lock().unwrap().token(claims);
    for (nbf, words) in [
        (serde_json::json!(rand_now() + 600), "not valid yet (nbf)"),
        (serde_json::json!("soon"), "nbf is not a time"),
    ] {
        let begun = begin(server, platform, "x");
        let mut claims = platform.claims(learner, &begun.nonce);
        claims["nbf"] = nbf;
        refused_with(server, platform, &begun, &sign(&claims), words);
    }
    let begun = begin(server, platform, "x");
    let mut claims = platform.claims(learner, &begun.nonce);
    claims["nbf"] = (rand_now() - 5).into();
    let response = finish(server, platform, &begun, &sign(&claims));
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
}

#[test]
fn simultaneous_first_launches_make_one_account_each_without_an_error() {
    let course = course("0");
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    // 64 people launching once each, and one person launching 32 times, all at once.
    let mut launches: Vec<Person> = (0..64)
        .map(|i| person(&format!("flood-{i}"), "", &["Learner"]))
        .collect();
    let same = person("flood-same", "same@uni.example", &["Learner"]);
    launches.extend(std::iter::repeat_n(same, 32));
    let ready: Vec<(Begun, String)> = launches
        .iter()
        .map(|p| {
            let begun = begin(server, platform, "x");
            let claims = platform.claims(p, &begun.nonce);
            let token = platform.shared.key.lock().unwrap().token(&claims);
            (begun, token)
        })
        .collect();
    let barrier = std::sync::Barrier::new(ready.len());
    let answers: Vec<(StatusCode, Option<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = ready
            .iter()
            .map(|(begun, token)| {
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    let response = finish(server, platform, begun, token);
                    (response.status(), session_of(&response))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let failed: Vec<StatusCode> = answers
        .iter()
        .map(|(status, _)| *status)
        .filter(|s| *s != StatusCode::SEE_OTHER)
        .collect();
    assert!(failed.is_empty(), "{failed:?}\n{}", server.stderr());
    // One account per person: the 32 sessions of one person are one account's.
    let names: std::collections::HashSet<String> = answers[64..]
        .iter()
        .map(|(_, cookie)| username_of(server, &with_session(server, cookie.as_ref().unwrap())))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    let out = users_list(db);
    assert_eq!(out.matches("lti-").count(), 64, "{out}");
    assert_eq!(out.matches("same@uni.example").count(), 1, "{out}");
    assert!(!server.stderr().contains("database is locked"));
}

#[test]
fn a_rosters_lms_id_links_only_launches_of_the_registration_it_names() {
    let course = course_in_process(0);
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    // Two schools on one LMS cloud: one issuer, two registrations, each linking.
    const OTHER_SCHOOL: &str = "other-school-client";
    register_with(platform, db, &["--link-accounts", "on"]);
    register_client(platform, db, OTHER_SCHOOL, &["--link-accounts", "on"]);
    let issuer = &platform.base;
    import(
        db,
        course.dir.path(),
        &format!(
            "username,lms_id,lms_issuer,lms_client_id\nana,7,{issuer},{CLIENT_ID}\nben,8,{issuer},\n"
        ),
    );
    // The other school's user 7 is someone else.
    let (_, name) = signed_in(
        server,
        launch_for(
            server,
            platform,
            OTHER_SCHOOL,
            &person("7", "", &["Learner"]),
        ),
    );
    assert_ne!(name, "ana");
    // ben's row names no registration, and its issuer has two here: not linked by id.
    let (_, name) = launched(server, platform, "8", "", &["Learner"]);
    assert_ne!(name, "ben");
    // This school's user 7 is ana.
    let (_, name) = launched(server, platform, "7", "", &["Learner"]);
    assert_eq!(name, "ana");
}

#[test]
fn a_deep_linking_request_refused_for_its_return_url_changes_no_account() {
    let course = course_in_process(0);
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    let (_, name) = launched(server, platform, "lms-dee", "dee@uni.example", &["Learner"]);
    let mut choosing = person("lms-dee", "changed@uni.example", &["Instructor"]);
    choosing.deep_link = true;
    choosing.name = "Renamed By Refused Launch".into();
    for return_url in [
        "http://evil.example/return",
        "javascript:alert(1)",
        "https://exa mple.com/x",
    ] {
        let response = launch_with(server, platform, &choosing, |claims| {
            claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]["deep_link_return_url"] =
                return_url.into();
        });
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{return_url}");
        assert!(session_of(&response).is_none());
        let page = response.text().unwrap();
        assert!(page.contains("return URL is refused"), "{page}");
    }
    // Neither the name, the email nor the instructor's role was written.
    let out = users_list(db);
    let line = out.lines().find(|l| l.contains(&name)).expect("dee listed");
    assert!(line.contains("student"), "{out}");
    assert!(!out.contains("Renamed By Refused Launch"), "{out}");
    assert!(!out.contains("changed@uni.example"), "{out}");
}

#[test]
fn a_nul_in_a_claim_is_refused_and_writes_nothing() {
    let course = course("0");
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    let before = users_list(db);
    for (claim, value) in [
        ("name", "Ada\u{0}Instructor"),
        ("email", "ada@uni.example\u{0}"),
        ("sub", "lms-\u{0}nul"),
    ] {
        let response = launch_with(
            server,
            platform,
            &person("lms-nul", "", &["Learner"]),
            |claims| claims[claim] = value.into(),
        );
        assert_eq!(
            response.status(),
            StatusCode::BAD_REQUEST,
            "{claim}: {}",
            server.stderr()
        );
        assert!(session_of(&response).is_none());
        let page = response.text().unwrap();
        assert!(page.contains("NUL"), "{claim}: {page}");
    }
    assert_eq!(users_list(db), before);
    assert!(
        !server.stderr().contains("nimlab failed"),
        "{}",
        server.stderr()
    );
}

#[test]
fn an_account_a_launch_made_is_made_staff_by_no_command_and_its_name_given_again_is_not_the_launchers()
 {
    let course = course_in_process(0);
    let (platform, server, db) = (&course.platform, &course.server, &course.db);
    // A student launches first with the TA's email, and so holds that username.
    let (_, squatted) = launched(server, platform, "lms-sq", "tess@uni.example", &["Learner"]);
    assert_eq!(squatted, "tess@uni.example");
    let added = nimlab()
        .args(["users", "add", &squatted, "--ta", "--db"])
        .arg(db)
        .write_stdin("tess-password\n")
        .assert()
        .code(2);
    let said = String::from_utf8_lossy(&added.get_output().stderr).to_string();
    assert!(said.contains("an LMS launch made"), "{said}");
    // Nor through a roster; a refused roster writes none of its rows.
    let roster = course.dir.path().join("staff.csv");
    std::fs::write(
        &roster,
        format!("username,role,password\nnew-ta,ta,new-ta-password\n{squatted},ta,tess-password\n"),
    )
    .unwrap();
    let imported = nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(db)
        .assert()
        .code(2);
    let said = String::from_utf8_lossy(&imported.get_output().stderr).to_string();
    assert!(
        said.contains("staff.csv") && said.contains("an LMS launch made"),
        "{said}"
    );
    assert!(!users_list(db).contains("new-ta"));
    let (client, name) = launched(server, platform, "lms-sq", "tess@uni.example", &["Learner"]);
    assert_eq!(name, squatted);
    assert!(!is_staff(server, &client));
    // Removed, its name given to the real TA: the launcher is not signed in to it.
    nimlab()
        .args(["users", "remove", &squatted, "--db"])
        .arg(db)
        .assert()
        .success();
    nimlab()
        .args(["users", "add", &squatted, "--ta", "--db"])
        .arg(db)
        .write_stdin("tess-password\n")
        .assert()
        .success();
    let tess = form_login(server, &squatted, "tess-password");
    assert!(is_staff(server, &tess));
    let (client, name) = launched(server, platform, "lms-sq", "tess@uni.example", &["Learner"]);
    assert_ne!(name, squatted);
    assert!(!is_staff(server, &client));
}
