//! Logging in under guessing and floods: throttles, device cookies, resets.

use super::*;

/// The server's free failures per account or device, and per address in five minutes
/// (`FREE_FAILURES`, `ADDRESS_FAILURES` in src/serve/throttle.rs).
const FREE_FAILURES: usize = 5;
const ADDRESS_FAILURES: usize = 50;

/// A JSON login with a fresh client that sends `cookie` (a `name=value` pair), if any.
fn login_with_cookie(
    server: &Server,
    username: &str,
    password: &str,
    cookie: Option<&str>,
) -> Response {
    let mut request = client()
        .post(server.url("/api/login"))
        .json(&serde_json::json!({"username": username, "password": password}));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    request.send().unwrap()
}

/// The `nimlab_device=...` pair a successful login set.
fn device_cookie_of(response: &Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .find(|v| v.starts_with("nimlab_device="))
        .unwrap_or_else(|| panic!("no device cookie: {:?}", response.headers()))
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

fn retry_after(response: &Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn error_of(response: Response) -> String {
    let body: Value = response.json().unwrap();
    body["error"].as_str().unwrap_or_default().to_string()
}

fn guess_until_throttled(server: &Server, username: &str) {
    for _ in 0..FREE_FAILURES {
        let guess = json_login(server, username, "a-guess");
        assert_eq!(guess.status(), StatusCode::UNAUTHORIZED);
    }
}

#[test]
fn guessing_makes_new_clients_wait_longer_each_time_while_the_owners_device_logs_in() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    // Ada logged in from her browser yesterday; Grace from hers.
    let ada_device = device_cookie_of(&json_login(&server, "ada", "ada-password"));
    let grace_device = device_cookie_of(&json_login(&server, "grace", "grace-password"));

    guess_until_throttled(&server, "ada");
    let stranger = json_login(&server, "ada", "ada-password");
    assert_eq!(stranger.status(), StatusCode::TOO_MANY_REQUESTS);
    let first_wait = retry_after(&stranger);
    assert!((5..=10).contains(&first_wait), "{first_wait}");
    assert!(error_of(stranger).contains("browsers that have not logged in to it before"));

    // Her own device is not made to wait, however the stranger guesses.
    let owner = login_with_cookie(&server, "ada", "ada-password", Some(&ada_device));
    assert_eq!(owner.status(), StatusCode::OK);
    // A cookie changed by a byte, or one signed for another account, counts for nothing.
    let mut forged = ada_device.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    for cookie in [&forged, &grace_device] {
        let refused = login_with_cookie(&server, "ada", "ada-password", Some(cookie));
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS, "{cookie}");
    }

    // Once the wait is over, one more wrong guess makes the next wait longer.
    std::thread::sleep(Duration::from_secs(first_wait + 1));
    let guess = json_login(&server, "ada", "another-guess");
    assert_eq!(guess.status(), StatusCode::UNAUTHORIZED);
    let longer = json_login(&server, "ada", "ada-password");
    assert_eq!(longer.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(&longer) > first_wait + 5, "{longer:?}");

    // The throttle is in the database: `users passwd`, another process, lifts it.
    nimlab()
        .args(["users", "passwd", "ada", "--db"])
        .arg(&db)
        .write_stdin("a-new-password\n")
        .assert()
        .success();
    let after_reset = json_login(&server, "ada", "a-new-password");
    assert_eq!(after_reset.status(), StatusCode::OK);
}

#[test]
fn the_wait_outlives_a_restart_and_an_instructors_reset_on_the_website_lifts_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    guess_until_throttled(&server, "grace");
    drop(server);
    let server = Server::start(&db, None, &["--workers", "0"]);
    let waiting = json_login(&server, "grace", "grace-password");
    assert_eq!(waiting.status(), StatusCode::TOO_MANY_REQUESTS);

    let prof = form_login(&server, "prof", "prof-password");
    let (status, class) = text(&prof, &server, "/class");
    assert_eq!(status, StatusCode::OK);
    assert!(class.contains("Reset a password"), "{class}");
    // Without the page's token the reset is refused.
    let forged = prof
        .post(server.url("/class/password"))
        .form(&[("username", "grace")])
        .send()
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let reset = prof
        .post(server.url("/class/password"))
        .form(&[("username", "grace"), ("csrf", &csrf_of(&class))])
        .send()
        .unwrap();
    assert_eq!(reset.status(), StatusCode::OK);
    let page = reset.text().unwrap();
    let password = page
        .split("<code class=\"password\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_else(|| panic!("no password on the page: {page}"));
    assert_eq!(password.len(), 14, "{password}");
    assert_eq!(
        json_login(&server, "grace", "grace-password").status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        json_login(&server, "grace", password).status(),
        StatusCode::OK
    );

    // A student cannot reset anyone's password.
    let ada = form_login(&server, "ada", "ada-password");
    let (_, exercises) = text(&ada, &server, "/exercises");
    let refused = ada
        .post(server.url("/class/password"))
        .form(&[("username", "grace"), ("csrf", &csrf_of(&exercises))])
        .send()
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
}

#[test]
fn failures_per_address_are_bounded_and_a_flood_of_unknown_names_does_not_delay_a_known_device() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    let ada_device = device_cookie_of(&json_login(&server, "ada", "ada-password"));

    let flood = 1_100;
    let senders = 32;
    let started = Instant::now();
    let (statuses, owner) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..senders)
            .map(|sender| {
                let server = &server;
                scope.spawn(move || {
                    let client = client();
                    (sender..flood)
                        .step_by(senders)
                        .map(|i| {
                            client
                                .post(server.url("/api/login"))
                                .json(&serde_json::json!({"username": format!("nobody-{i}"), "password": "x"}))
                                .send()
                                .unwrap()
                                .status()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        // Ada logs in from her device while the flood is on.
        std::thread::sleep(Duration::from_millis(300));
        let before = Instant::now();
        let owner = login_with_cookie(&server, "ada", "ada-password", Some(&ada_device));
        let owner = (owner.status(), before.elapsed());
        let statuses: Vec<StatusCode> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        (statuses, owner)
    });
    let flood_took = started.elapsed();
    let failed = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(
        failed + refused,
        flood,
        "{:?}",
        statuses
            .iter()
            .filter(|s| **s != StatusCode::UNAUTHORIZED && **s != StatusCode::TOO_MANY_REQUESTS)
            .collect::<Vec<_>>()
    );
    assert!(
        (FREE_FAILURES..=ADDRESS_FAILURES).contains(&failed),
        "{failed} failures checked"
    );
    assert_eq!(owner.0, StatusCode::OK);
    assert!(owner.1 < Duration::from_secs(3), "{:?}", owner.1);
    assert!(flood_took < Duration::from_secs(60), "{flood_took:?}");

    // A client this address has not seen log in to the account waits, with the reason;
    // a known device does not.
    let stranger = json_login(&server, "grace", "grace-password");
    assert_eq!(stranger.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(error_of(stranger).contains("network address"));
    let owner = login_with_cookie(&server, "ada", "ada-password", Some(&ada_device));
    assert_eq!(owner.status(), StatusCode::OK);
}

#[test]
fn behind_a_proxy_the_address_is_the_one_the_proxy_adds() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0", "--proxy"]);
    let from = |address: &str, username: &str, password: &str| {
        client()
            .post(server.url("/api/login"))
            // The client wrote the first entry; the proxy appended the last.
            .header("x-forwarded-for", format!("10.9.9.9, {address}"))
            .json(&serde_json::json!({"username": username, "password": password}))
            .send()
            .unwrap()
            .status()
    };
    for i in 0..ADDRESS_FAILURES {
        assert_eq!(
            from("192.0.2.1", &format!("nobody-{i}"), "x"),
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        from("192.0.2.1", "ada", "ada-password"),
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another student behind the same proxy, at another address, is not held back.
    assert_eq!(from("192.0.2.2", "ada", "ada-password"), StatusCode::OK);
}
