//! nimlab launched from an LMS over LTI 1.3, against a fake platform written here: its own
//! RSA key and JWKS, an authorisation endpoint that answers the login redirect with a
//! signed id_token posted back by the browser, a token endpoint that checks the tool's
//! client assertion against the tool's `/lti/jwks`, and line items that record the scores
//! posted. The platform is on `localhost` and the tool on 127.0.0.1, so a launch is a real
//! cross-site POST. Its signing and checking use aws-lc-rs directly, not nimlab's code.

use super::*;
use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::signature::{self, KeyPair as _};
use axum::extract::{Path as UrlPath, Query, RawQuery, State};
use axum::response::{Html, IntoResponse, Redirect};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use predicates::prelude::PredicateBooleanExt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

mod identity;

const CLIENT_ID: &str = "nimlab-client-7";
const DEPLOYMENT: &str = "deployment-1";
/// The course the platform's launches come from, registered for staff roles.
const COURSE: &str = "course-3";
const MEMBERSHIP: &str = "http://purl.imsglobal.org/vocab/lis/v2/membership";
const LTI: &str = "https://purl.imsglobal.org/spec/lti/claim/";
const SCORE_SCOPE: &str = "https://purl.imsglobal.org/spec/lti-ags/scope/score";

/// A platform's RSA key: signs id_tokens, published in its JWKS.
struct Key {
    pair: signature::RsaKeyPair,
    kid: String,
}

impl Key {
    fn new(kid: &str) -> Key {
        let generated =
            aws_lc_rs::rsa::KeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa2048).unwrap();
        let der = generated.as_der().unwrap();
        Key {
            pair: signature::RsaKeyPair::from_pkcs8(der.as_ref()).unwrap(),
            kid: kid.to_string(),
        }
    }

    fn jwk(&self) -> Value {
        let public = self.pair.public_key();
        let components: signature::RsaPublicKeyComponents<Vec<u8>> = public.into();
        serde_json::json!({
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": self.kid,
            "n": B64.encode(&components.n), "e": B64.encode(&components.e),
        })
    }

    /// `claims` under `header`, signed RS256.
    fn sign(&self, header: &Value, claims: &Value) -> String {
        let input = format!(
            "{}.{}",
            B64.encode(header.to_string()),
            B64.encode(claims.to_string())
        );
        let mut signature = vec![0; self.pair.public_modulus_len()];
        self.pair
            .sign(
                &signature::RSA_PKCS1_SHA256,
                &aws_lc_rs::rand::SystemRandom::new(),
                input.as_bytes(),
                &mut signature,
            )
            .unwrap();
        format!("{input}.{}", B64.encode(signature))
    }

    fn token(&self, claims: &Value) -> String {
        self.sign(
            &serde_json::json!({"alg": "RS256", "typ": "JWT", "kid": self.kid}),
            claims,
        )
    }
}

/// Who a launch is for (by its login hint).
#[derive(Clone)]
struct Person {
    sub: String,
    name: String,
    email: String,
    roles: Vec<String>,
    exercise: Option<String>,
    /// Launched to choose exercises (a Deep Linking request) rather than to one.
    deep_link: bool,
}

fn person(sub: &str, email: &str, roles: &[&str]) -> Person {
    Person {
        sub: sub.into(),
        name: format!("Person {sub}"),
        email: email.into(),
        roles: roles.iter().map(|r| format!("{MEMBERSHIP}#{r}")).collect(),
        exercise: Some("present_board".into()),
        deep_link: false,
    }
}

/// A score the platform received.
#[derive(Debug, Clone)]
struct Received {
    path_and_query: String,
    content_type: String,
    body: Value,
}

struct Shared {
    base: String,
    tool: Mutex<String>,
    key: Mutex<Key>,
    people: Mutex<HashMap<String, Person>>,
    scores: Mutex<Vec<Received>>,
    tokens: Mutex<Vec<String>>,
    refusals: Mutex<Vec<String>>,
    down: AtomicBool,
    /// How long a score waits before it is answered (a slow platform).
    slow_ms: std::sync::atomic::AtomicU64,
    /// Scores whose answer has begun (before any wait).
    arriving: std::sync::atomic::AtomicUsize,
    /// An answer refusing every score: its status and body.
    refusal: Mutex<Option<(u16, String)>>,
    /// The claims of each Deep Linking answer the tool's browser posted, verified.
    answers: Mutex<Vec<Value>>,
}

struct Platform {
    base: String,
    shared: Arc<Shared>,
}

impl Platform {
    fn start() -> Platform {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://localhost:{}", listener.local_addr().unwrap().port());
        let shared = Arc::new(Shared {
            base: base.clone(),
            tool: Mutex::default(),
            key: Mutex::new(Key::new("platform-key-1")),
            people: Mutex::default(),
            scores: Mutex::default(),
            tokens: Mutex::default(),
            refusals: Mutex::default(),
            down: AtomicBool::new(false),
            slow_ms: std::sync::atomic::AtomicU64::new(0),
            arriving: std::sync::atomic::AtomicUsize::new(0),
            refusal: Mutex::default(),
            answers: Mutex::default(),
        });
        let app = axum::Router::new()
            .route("/jwks", axum::routing::get(jwks))
            .route("/start", axum::routing::get(start_launch))
            .route("/auth", axum::routing::get(authorize))
            .route("/token", axum::routing::post(token))
            .route("/lineitems/{id}/scores", axum::routing::post(score))
            .route("/deep-return", axum::routing::post(deep_return))
            .route("/course-page", axum::routing::get(course_page))
            .with_state(Arc::clone(&shared));
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app).await.unwrap();
            });
        });
        Platform { base, shared }
    }

    fn register(&self, db: &Path) {
        nimlab()
            .args([
                "lti",
                "add-platform",
                "--issuer",
                &self.base,
                "--client-id",
                CLIENT_ID,
            ])
            .args(["--deployment-id", DEPLOYMENT])
            .args(["--auth-url", &format!("{}/auth", self.base)])
            .args(["--jwks-url", &format!("{}/jwks", self.base)])
            .args(["--token-url", &format!("{}/token", self.base)])
            .args(["--context", COURSE])
            .arg("--db")
            .arg(db)
            .assert()
            .success();
    }

    fn serve(&self, server: &Server) {
        *self.shared.tool.lock().unwrap() = server.base.clone();
    }

    fn add(&self, hint: &str, person: Person) {
        self.shared
            .people
            .lock()
            .unwrap()
            .insert(hint.into(), person);
    }

    fn scores(&self) -> Vec<Received> {
        self.shared.scores.lock().unwrap().clone()
    }

    /// The id_token the platform would send for `person`, with its `nonce`.
    fn claims(&self, person: &Person, nonce: &str) -> Value {
        let now = rand_now();
        let mut claims = serde_json::json!({
            "iss": self.base, "aud": CLIENT_ID, "azp": CLIENT_ID, "sub": person.sub,
            "exp": now + 300, "iat": now, "nonce": nonce,
            "name": person.name, "email": person.email,
        });
        let map = claims.as_object_mut().unwrap();
        map.insert(format!("{LTI}deployment_id"), DEPLOYMENT.into());
        map.insert(
            format!("{LTI}message_type"),
            "LtiResourceLinkRequest".into(),
        );
        map.insert(format!("{LTI}version"), "1.3.0".into());
        map.insert(format!("{LTI}roles"), serde_json::json!(person.roles));
        map.insert(
            format!("{LTI}context"),
            serde_json::json!({"id": COURSE, "title": "Nim lab"}),
        );
        map.insert(
            format!("{LTI}resource_link"),
            serde_json::json!({"id": "link-1"}),
        );
        let tool = self.shared.tool.lock().unwrap().clone();
        map.insert(
            format!("{LTI}target_link_uri"),
            format!("{tool}/exercises/present_board").into(),
        );
        if person.deep_link {
            map.insert(format!("{LTI}message_type"), "LtiDeepLinkingRequest".into());
            map.remove(&format!("{LTI}resource_link"));
            map.insert(
                "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings".into(),
                serde_json::json!({
                    "deep_link_return_url": format!("{}/deep-return?course=3", self.base),
                    "accept_types": ["link", "ltiResourceLink"],
                    "accept_presentation_document_targets": ["iframe", "window"],
                    "accept_multiple": true,
                    "data": {"opaque": "kept-as-sent"},
                }),
            );
            return claims;
        }
        if let Some(exercise) = &person.exercise {
            map.insert(
                format!("{LTI}custom"),
                serde_json::json!({"exercise": exercise}),
            );
        }
        map.insert(
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint".into(),
            serde_json::json!({
                "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem", SCORE_SCOPE],
                // A query string, as Moodle's line items have.
                "lineitem": format!("{}/lineitems/1?type_id=3", self.base),
            }),
        );
        claims
    }
}

fn rand_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn jwks(State(shared): State<Arc<Shared>>) -> axum::Json<Value> {
    axum::Json(serde_json::json!({"keys": [shared.key.lock().unwrap().jwk()]}))
}

/// Where the browser starts: the LMS sends it to the tool's login initiation.
async fn start_launch(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Redirect {
    let tool = shared.tool.lock().unwrap().clone();
    let hint = &query["hint"];
    let mut url = reqwest::Url::parse(&format!("{tool}/lti/login")).unwrap();
    url.query_pairs_mut()
        .append_pair("iss", &shared.base)
        .append_pair("login_hint", hint)
        .append_pair(
            "target_link_uri",
            &format!("{tool}/exercises/present_board"),
        )
        .append_pair("lti_message_hint", &format!("message-{hint}"))
        .append_pair("client_id", CLIENT_ID)
        .append_pair("lti_deployment_id", DEPLOYMENT);
    Redirect::to(url.as_str())
}

/// The authorisation endpoint: checks the tool's redirect, and answers with a page that
/// posts the signed id_token back to the tool.
async fn authorize(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> axum::response::Response {
    let tool = shared.tool.lock().unwrap().clone();
    let get = |name: &str| query.get(name).cloned().unwrap_or_default();
    let problems: Vec<&str> = [
        (get("scope") == "openid", "scope"),
        (get("response_type") == "id_token", "response_type"),
        (get("response_mode") == "form_post", "response_mode"),
        (get("prompt") == "none", "prompt"),
        (get("client_id") == CLIENT_ID, "client_id"),
        (
            get("redirect_uri") == format!("{tool}/lti/launch"),
            "redirect_uri",
        ),
        (
            get("lti_message_hint") == format!("message-{}", get("login_hint")),
            "lti_message_hint",
        ),
        (
            get("nonce").len() >= 32 && get("state").len() >= 32,
            "nonce/state",
        ),
    ]
    .into_iter()
    .filter(|(ok, _)| !ok)
    .map(|(_, name)| name)
    .collect();
    let Some(person) = shared
        .people
        .lock()
        .unwrap()
        .get(&get("login_hint"))
        .cloned()
    else {
        return (axum::http::StatusCode::BAD_REQUEST, "unknown login_hint").into_response();
    };
    if !problems.is_empty() {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            format!("bad {problems:?}"),
        )
            .into_response();
    }
    let platform = Platform {
        base: shared.base.clone(),
        shared: Arc::clone(&shared),
    };
    let claims = platform.claims(&person, &get("nonce"));
    let token = shared.key.lock().unwrap().token(&claims);
    Html(format!(
        r#"<!doctype html><title>LMS</title><form id="f" method="post" action="{}"><input type="hidden" name="id_token" value="{token}"><input type="hidden" name="state" value="{}"></form><script>document.getElementById("f").submit()</script>"#,
        get("redirect_uri"),
        get("state")
    ))
    .into_response()
}

/// The claims of `jwt` if it is signed (RS256) by a key in the tool's `/lti/jwks`.
async fn signed_by_tool(tool: &str, jwt: &str) -> Result<Value, String> {
    let parts: Vec<&str> = jwt.split('.').collect();
    if parts.len() != 3 {
        return Err("not a JWT".into());
    }
    let header: Value =
        serde_json::from_slice(&B64.decode(parts[0]).unwrap_or_default()).unwrap_or_default();
    let claims: Value =
        serde_json::from_slice(&B64.decode(parts[1]).unwrap_or_default()).unwrap_or_default();
    // Through the tests' client, which reaches a site in this process as well as one on a
    // port; it blocks, so not on this server's own threads.
    let url = format!("{tool}/lti/jwks");
    let keys: Value =
        tokio::task::spawn_blocking(move || Client::new().get(url).send().unwrap().json().unwrap())
            .await
            .unwrap();
    let Some(jwk) = keys["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kid"] == header["kid"])
    else {
        return Err(format!("no key {} in the tool's JWKS", header["kid"]));
    };
    let public = signature::RsaPublicKeyComponents {
        n: B64.decode(jwk["n"].as_str().unwrap()).unwrap(),
        e: B64.decode(jwk["e"].as_str().unwrap()).unwrap(),
    };
    let signed = format!("{}.{}", parts[0], parts[1]);
    let signature_bytes = B64.decode(parts[2]).unwrap_or_default();
    if header["alg"] != "RS256"
        || public
            .verify(
                &signature::RSA_PKCS1_2048_8192_SHA256,
                signed.as_bytes(),
                &signature_bytes,
            )
            .is_err()
    {
        return Err("the signature does not verify".into());
    }
    Ok(claims)
}

/// Where the tool's Deep Linking answer is posted by the browser: verified and recorded.
async fn deep_return(
    State(shared): State<Arc<Shared>>,
    RawQuery(query): RawQuery,
    axum::Form(form): axum::Form<HashMap<String, String>>,
) -> axum::response::Response {
    let tool = shared.tool.lock().unwrap().clone();
    let jwt = form.get("JWT").cloned().unwrap_or_default();
    match signed_by_tool(&tool, &jwt).await {
        Ok(claims) if query.as_deref() == Some("course=3") => {
            shared.answers.lock().unwrap().push(claims);
            Html("<!doctype html><title>LMS</title><p>Links added to the course.</p>")
                .into_response()
        }
        Ok(_) => (
            axum::http::StatusCode::BAD_REQUEST,
            "the query string was lost",
        )
            .into_response(),
        Err(why) => {
            shared.refusals.lock().unwrap().push(why.clone());
            (axum::http::StatusCode::BAD_REQUEST, why).into_response()
        }
    }
}

/// A course page of the LMS that shows the tool inside a frame, as LMSs do when asked to.
async fn course_page(Query(query): Query<HashMap<String, String>>) -> Html<String> {
    Html(format!(
        r#"<!doctype html><title>Course</title><h1>Course page</h1><iframe width="1000" height="700" src="/start?hint={}"></iframe>"#,
        query["hint"]
    ))
}

/// The token endpoint: a client assertion signed by a key in the tool's `/lti/jwks`.
async fn token(
    State(shared): State<Arc<Shared>>,
    axum::Form(form): axum::Form<HashMap<String, String>>,
) -> axum::response::Response {
    let tool = shared.tool.lock().unwrap().clone();
    let refuse = |why: String| {
        shared.refusals.lock().unwrap().push(why.clone());
        (axum::http::StatusCode::UNAUTHORIZED, why).into_response()
    };
    if form.get("grant_type").map(String::as_str) != Some("client_credentials")
        || form.get("client_assertion_type").map(String::as_str)
            != Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        || !form
            .get("scope")
            .is_some_and(|s| s.split(' ').any(|s| s == SCORE_SCOPE))
    {
        return refuse(format!("bad form {form:?}"));
    }
    let assertion = form.get("client_assertion").cloned().unwrap_or_default();
    let claims = match signed_by_tool(&tool, &assertion).await {
        Ok(claims) => claims,
        Err(why) => return refuse(why),
    };
    let now = rand_now();
    if claims["iss"] != CLIENT_ID
        || claims["sub"] != CLIENT_ID
        || claims["aud"] != format!("{}/token", shared.base)
        || claims["exp"].as_u64().unwrap_or(0) < now
        || claims["jti"].as_str().unwrap_or("").is_empty()
    {
        return refuse(format!("bad assertion claims {claims}"));
    }
    let token = format!("access-{}", shared.tokens.lock().unwrap().len() + 1);
    shared.tokens.lock().unwrap().push(token.clone());
    axum::Json(serde_json::json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": SCORE_SCOPE})).into_response()
}

/// A line item's scores: recorded, unless the platform is down or refuses them; answered
/// after its `slow_ms`.
async fn score(
    State(shared): State<Arc<Shared>>,
    UrlPath(id): UrlPath<String>,
    RawQuery(query): RawQuery,
    headers: axum::http::HeaderMap,
    body: String,
) -> axum::response::Response {
    shared.arriving.fetch_add(1, Ordering::SeqCst);
    let slow = shared.slow_ms.load(Ordering::SeqCst);
    if slow > 0 {
        tokio::time::sleep(Duration::from_millis(slow)).await;
    }
    if let Some((status, answer)) = shared.refusal.lock().unwrap().clone() {
        return (axum::http::StatusCode::from_u16(status).unwrap(), answer).into_response();
    }
    score_taken(&shared, &id, query, &headers, body).into_response()
}

fn score_taken(
    shared: &Shared,
    id: &str,
    query: Option<String>,
    headers: &axum::http::HeaderMap,
    body: String,
) -> axum::http::StatusCode {
    if shared.down.load(Ordering::SeqCst) {
        return axum::http::StatusCode::SERVICE_UNAVAILABLE;
    }
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let known = shared
        .tokens
        .lock()
        .unwrap()
        .iter()
        .any(|t| bearer == format!("Bearer {t}"));
    if !known {
        return axum::http::StatusCode::UNAUTHORIZED;
    }
    shared.scores.lock().unwrap().push(Received {
        path_and_query: format!("/lineitems/{id}/scores?{}", query.unwrap_or_default()),
        content_type: headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .into(),
        body: serde_json::from_str(&body).unwrap_or(Value::Null),
    });
    axum::http::StatusCode::OK
}

/// A launch begun at the tool as a browser would begin it: the state and nonce the tool
/// sent to the platform, and the cookie that ties the state to the browser.
struct Begun {
    state: String,
    nonce: String,
    cookie: String,
}

fn begin(server: &Server, platform: &Platform, hint: &str) -> Begun {
    begin_for(server, platform, hint, CLIENT_ID)
}

/// A launch begun for the platform's registration `client_id`.
fn begin_for(server: &Server, platform: &Platform, hint: &str, client_id: &str) -> Begun {
    let mut url = reqwest::Url::parse(&server.url("/lti/login")).unwrap();
    url.query_pairs_mut()
        .append_pair("iss", &platform.base)
        .append_pair("login_hint", hint)
        .append_pair("client_id", client_id);
    let response = client().get(url).send().unwrap();
    assert!(
        response.status().is_redirection(),
        "{}",
        response.text().unwrap()
    );
    let location = reqwest::Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    assert!(
        location
            .as_str()
            .starts_with(&format!("{}/auth?", platform.base))
    );
    let query: HashMap<String, String> = location.query_pairs().into_owned().collect();
    let set_cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        set_cookie.contains("SameSite=None")
            && set_cookie.contains("Secure")
            && set_cookie.contains("HttpOnly"),
        "{set_cookie}"
    );
    Begun {
        state: query["state"].clone(),
        nonce: query["nonce"].clone(),
        cookie: set_cookie.split(';').next().unwrap().to_string(),
    }
}

/// Posts `id_token` to the tool as the platform's page would (cross-site).
fn finish(server: &Server, platform: &Platform, begun: &Begun, id_token: &str) -> Response {
    client()
        .post(server.url("/lti/launch"))
        .header("origin", &platform.base)
        .header("sec-fetch-site", "cross-site")
        .header("cookie", &begun.cookie)
        .form(&[("id_token", id_token), ("state", begun.state.as_str())])
        .send()
        .unwrap()
}

/// The session cookie a launch's answer sets, if any.
fn session_of(response: &Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string())
        .find(|c| c.starts_with("nimlab_session=") && c.len() > "nimlab_session=".len())
}

/// A client logged in with a session cookie.
fn with_session(server: &Server, cookie: &str) -> Client {
    Client::with_cookie(&server.base, cookie)
}

/// A launch of `person` through the whole flow by hand; the session's client.
fn launch_as(
    server: &Server,
    platform: &Platform,
    hint: &str,
    person: &Person,
) -> (Client, String) {
    let begun = begin(server, platform, hint);
    let token = platform
        .shared
        .key
        .lock()
        .unwrap()
        .token(&platform.claims(person, &begun.nonce));
    let response = finish(server, platform, &begun, &token);
    assert_eq!(
        response.status(),
        StatusCode::SEE_OTHER,
        "{}",
        server.stderr()
    );
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let cookie = session_of(&response).expect("a session");
    (with_session(server, &cookie), location)
}

pub(super) fn lti_server(db: &Path, lab: &Path, workers: &str) -> Server {
    let stderr = stderr_file(db);
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
    command
        .arg("--lab")
        .arg(lab)
        .args(["serve", "--db"])
        .arg(db)
        .args(["--listen", "127.0.0.1:0", "--workers", workers])
        .env("NIMLAB_LTI_RETRY_MS", "300")
        .env("NO_COLOR", "1");
    Server::spawn(command, stderr)
}

/// A class on nimlab, launched from the fake platform: registered, and told where nimlab is.
struct Course {
    platform: Platform,
    server: Server,
    db: PathBuf,
    // Dropped last: the server uses them until it stops.
    _lab: tempfile::TempDir,
    dir: tempfile::TempDir,
}

fn course(workers: &str) -> Course {
    course_on(|db, lab| lti_server(db, lab, workers))
}

/// A class whose site runs in the test's process (its scores retried as soon as
/// [`lti_server`]'s).
fn course_in_process(workers: usize) -> Course {
    course_on(|db, lab| lti_in_process(db, lab, workers))
}

fn lti_in_process(db: &Path, lab: &Path, workers: usize) -> Server {
    Server::in_process_with(db, Some(lab), |options| {
        options.workers = workers;
        options.lti_retry = Duration::from_millis(300);
    })
}

fn course_on(start: impl FnOnce(&Path, &Path) -> Server) -> Course {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let platform = Platform::start();
    platform.register(&db);
    let server = start(&db, lab.path());
    platform.serve(&server);
    Course {
        platform,
        server,
        db,
        _lab: lab,
        dir,
    }
}

#[test]
fn add_platform_refuses_plain_http_elsewhere_and_list_shows_what_was_registered() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("class.db");
    nimlab()
        .args([
            "lti",
            "add-platform",
            "--issuer",
            "https://lms.example.edu",
            "--client-id",
            "c1",
            "--deployment-id",
            "d1",
        ])
        .args([
            "--auth-url",
            "http://lms.example.edu/auth",
            "--jwks-url",
            "https://lms.example.edu/jwks",
        ])
        .args(["--token-url", "https://lms.example.edu/token", "--db"])
        .arg(&db)
        .assert()
        .failure()
        .stderr(predicates::str::contains("--auth-url").and(predicates::str::contains("https")));
    let platform = Platform::start();
    platform.register(&db);
    // A second deployment of the same client is added to it, not a second platform.
    nimlab()
        .args([
            "lti",
            "add-platform",
            "--issuer",
            &platform.base,
            "--client-id",
            CLIENT_ID,
            "--deployment-id",
            "deployment-2",
        ])
        .args([
            "--auth-url",
            &format!("{}/auth", platform.base),
            "--jwks-url",
            &format!("{}/jwks", platform.base),
        ])
        .args(["--token-url", &format!("{}/token", platform.base), "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("updated"));
    let listed = nimlab()
        .args(["lti", "list", "--db"])
        .arg(&db)
        .assert()
        .success();
    let out = String::from_utf8_lossy(&listed.get_output().stdout).to_string();
    assert!(
        out.contains(&platform.base) && out.contains(CLIENT_ID),
        "{out}"
    );
    assert!(out.contains("deployment-1, deployment-2"), "{out}");
    assert!(out.contains("0 waiting, 0 failed"), "{out}");
    assert_eq!(out.matches("client id:").count(), 1, "{out}");
}

#[test]
fn browser_a_learner_launched_from_the_lms_uploads_and_the_score_reaches_the_lms() {
    let course = course("1");
    let (platform, server) = (&course.platform, &course.server);
    platform.add(
        "learner-1",
        person("lms-user-41", "ana@uni.example", &["Learner"]),
    );
    let Some(browser) = Browser::start() else {
        return;
    };
    browser.go(&format!("{}/start?hint=learner-1", platform.base));
    browser.wait_for("/exercises/present_board");
    assert!(browser.url().starts_with(&server.base), "{}", browser.url());
    let page = browser.text();
    assert!(
        page.contains("ana@uni.example") && page.contains("Log out"),
        "{page}\n{}",
        server.stderr()
    );
    // Upload from the page, as the student would, and wait for the verdict.
    let source = std::fs::read_to_string(solution("present_board")).unwrap();
    browser.script(&format!(
        "document.querySelector('textarea').value = {}; return true;",
        serde_json::to_string(&source).unwrap()
    ));
    browser.click("form[action$='/submit'] button[type=submit]");
    browser.wait_for("/submissions/");
    let start = Instant::now();
    while platform.scores().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "no score arrived:\n{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let scores = platform.scores();
    let last = scores.last().unwrap();
    assert_eq!(last.path_and_query, "/lineitems/1/scores?type_id=3");
    assert_eq!(last.content_type, "application/vnd.ims.lis.v1.score+json");
    assert_eq!(last.body["userId"], "lms-user-41");
    assert_eq!(last.body["scoreGiven"], 10.0);
    assert_eq!(last.body["scoreMaximum"], 10.0);
    assert_eq!(last.body["activityProgress"], "Completed");
    assert_eq!(last.body["gradingProgress"], "FullyGraded");
    assert!(last.body["timestamp"].as_str().unwrap().ends_with('Z'));
    assert!(platform.shared.refusals.lock().unwrap().is_empty());
    // The account is a student's: the class page is not for it.
    browser.go(&server.url("/class"));
    assert!(browser.text().contains("for instructors") || browser.text().contains("Forbidden"));
}

#[test]
fn course_roles_decide_a_launched_accounts_role_and_a_roster_email_links_an_account() {
    let course = course_in_process(0);
    let (platform, server) = (&course.platform, &course.server);
    let mut instructor = person("lms-9", "prof@uni.example", &["Instructor"]);
    // An institution role says nothing of the course.
    instructor
        .roles
        .push("http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student".into());
    let (prof, location) = launch_as(server, platform, "i", &instructor);
    assert_eq!(location, "/exercises/present_board");
    assert_eq!(text(&prof, server, "/class").0, StatusCode::OK);
    // A TA is often sent as an instructor too: the TA role wins.
    let ta = person(
        "lms-10",
        "ta@uni.example",
        &["Instructor", "TeachingAssistant"],
    );
    let (ta_client, _) = launch_as(server, platform, "t", &ta);
    assert_eq!(text(&ta_client, server, "/class").0, StatusCode::OK);
    assert_eq!(
        text(&ta_client, server, "/class/lti").0,
        StatusCode::FORBIDDEN
    );
    // Institution instructor, course learner: a student.
    let mut learner = person("lms-11", "", &["Learner"]);
    learner
        .roles
        .push("http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor".into());
    learner.exercise = None;
    let (student, location) = launch_as(server, platform, "l", &learner);
    // Without the custom parameter, the link's target names the exercise.
    assert_eq!(location, "/exercises/present_board");
    assert_eq!(text(&student, server, "/class").0, StatusCode::FORBIDDEN);
    // The same person launching again is the same account.
    let (again, _) = launch_as(server, platform, "l", &learner);
    let (_, mine) = get_json(&again, server, "/api/exercises");
    assert!(mine.is_array() || mine.is_object());
    // Where the instructor turned linking on, a roster's email links an imported account to
    // its first launch (any case).
    identity::register_with(platform, &course.db, &["--link-accounts", "on"]);
    let roster = course.dir.path().join("emails.csv");
    std::fs::write(
        &roster,
        "username,email,password\nada,ada@uni.example,ada-password\n",
    )
    .unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .arg("--db")
        .arg(&course.db)
        .assert()
        .success();
    let (ada, _) = launch_as(
        server,
        platform,
        "a",
        &person("lms-12", "ADA@uni.example", &["Learner"]),
    );
    let (_, page) = text(&ada, server, "/exercises");
    assert!(page.contains(">ada<"), "{page}");
    // And that account still logs in with its password.
    form_login(server, "ada", "ada-password");
    // An email that would not do as a username (it names folders in exports) is not one.
    launch_as(
        server,
        platform,
        "e",
        &person("lms-13", "../../evil@x", &["Learner"]),
    );
    let listed = nimlab()
        .args(["users", "list", "--db"])
        .arg(&course.db)
        .assert()
        .success();
    let out = String::from_utf8_lossy(&listed.get_output().stdout).to_string();
    assert_eq!(out.matches("lti-").count(), 2, "{out}");
    assert!(!out.contains("evil"), "{out}");
    assert!(!out.contains("ADA@uni.example"), "{out}");
    assert!(
        out.contains("prof@uni.example") && out.contains("ta@uni.example"),
        "{out}"
    );
}

/// One launch refused: the answer's status and words, and no session.
fn refused_with(server: &Server, platform: &Platform, begun: &Begun, token: &str, words: &str) {
    let response = finish(server, platform, begun, token);
    let status = response.status();
    assert!(session_of(&response).is_none(), "a session for {words}");
    let page = response.text().unwrap();
    assert!(
        status == StatusCode::BAD_REQUEST || status == StatusCode::FORBIDDEN,
        "{status} {page}"
    );
    assert!(page.contains(words), "expected {words:?} in {page}");
}

/// A server with the fake platform registered, and a learner of it.
struct Launching {
    course: Course,
    learner: Person,
}

impl std::ops::Deref for Launching {
    type Target = Course;
    fn deref(&self) -> &Course {
        &self.course
    }
}

fn launching() -> Launching {
    Launching {
        course: course_in_process(0),
        learner: person("lms-50", "x@uni.example", &["Learner"]),
    }
}

#[test]
fn id_tokens_with_a_wrong_claim_are_refused_one_by_one() {
    let launch = launching();
    let (platform, server, learner) = (&launch.platform, &launch.server, &launch.learner);
    let (platform, server) = (platform, server);
    // The guard is dropped before the tool asks the platform for its keys.
    let sign = |claims: &Value| platform.shared.key.lock().unwrap().token(claims);
    // Each case: how the claims or the token are spoiled, and what the refusal says.
    type Spoil = Box<dyn Fn(&mut Value)>;
    let claim_cases: Vec<(&str, Spoil)> = vec![
        (
            "has expired",
            Box::new(|c| {
                c["exp"] = (rand_now() - 600).into();
                c["iat"] = (rand_now() - 900).into();
            }),
        ),
        (
            "issuer",
            Box::new(|c| c["iss"] = "https://other-lms.example".into()),
        ),
        (
            "not meant for this tool",
            Box::new(|c| c["aud"] = "someone-else".into()),
        ),
        (
            "authorised party",
            Box::new(|c| c["azp"] = "someone-else".into()),
        ),
        (
            "deployment",
            Box::new(|c| c[format!("{LTI}deployment_id")] = "deployment-9".into()),
        ),
        (
            "version",
            Box::new(|c| c[format!("{LTI}version")] = "1.1".into()),
        ),
        (
            "LtiSubmissionReviewRequest",
            Box::new(|c| c[format!("{LTI}message_type")] = "LtiSubmissionReviewRequest".into()),
        ),
        (
            "nonce",
            Box::new(|c| c["nonce"] = "not-the-launchs-nonce".into()),
        ),
        (
            "an hour ago",
            Box::new(|c| c["iat"] = (rand_now() - 7200).into()),
        ),
        (
            "iat",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("iat");
            }),
        ),
        (
            "issue time (iat) is not a time",
            Box::new(|c| c["iat"] = "yesterday".into()),
        ),
    ];
    for (words, spoil) in &claim_cases {
        let begun = begin(server, platform, "x");
        let mut claims = platform.claims(learner, &begun.nonce);
        spoil(&mut claims);
        refused_with(server, platform, &begun, &sign(&claims), words);
    }
}

#[test]
fn id_tokens_not_signed_by_the_platforms_key_are_refused() {
    let launch = launching();
    let (platform, server, learner) = (&launch.platform, &launch.server, &launch.learner);
    // alg none: no signature at all.
    let begun = begin(server, platform, "x");
    let claims = platform.claims(learner, &begun.nonce);
    let unsigned = format!(
        "{}.{}.",
        B64.encode(serde_json::json!({"alg": "none", "kid": "platform-key-1"}).to_string()),
        B64.encode(claims.to_string())
    );
    refused_with(server, platform, &begun, &unsigned, "RS256 only");
    // HS256 with the platform's public key as the secret (the classic confusion attack).
    let begun = begin(server, platform, "x");
    let claims = platform.claims(learner, &begun.nonce);
    let input = format!(
        "{}.{}",
        B64.encode(serde_json::json!({"alg": "HS256", "kid": "platform-key-1"}).to_string()),
        B64.encode(claims.to_string())
    );
    let public = platform
        .shared
        .key
        .lock()
        .unwrap()
        .pair
        .public_key()
        .as_der()
        .unwrap();
    let mac = aws_lc_rs::hmac::sign(
        &aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, public.as_ref()),
        input.as_bytes(),
    );
    refused_with(
        server,
        platform,
        &begun,
        &format!("{input}.{}", B64.encode(mac.as_ref())),
        "RS256 only",
    );
    // An unknown key id, and a key of the same id that is not the platform's.
    let begun = begin(server, platform, "x");
    let claims = platform.claims(learner, &begun.nonce);
    let stranger = Key::new("no-such-key");
    refused_with(
        server,
        platform,
        &begun,
        &stranger.token(&claims),
        "hold no key &quot;no-such-key&quot;",
    );
    let begun = begin(server, platform, "x");
    let claims = platform.claims(learner, &begun.nonce);
    let impostor = Key::new("platform-key-1");
    refused_with(
        server,
        platform,
        &begun,
        &impostor.token(&claims),
        "signature does not match",
    );
}

#[test]
fn a_launch_serves_once_from_the_browser_that_began_it_and_a_new_platform_key_is_fetched() {
    // On a port: the refusal is read in the server's log.
    let launch = Launching {
        course: course("0"),
        learner: person("lms-50", "x@uni.example", &["Learner"]),
    };
    let (platform, server, learner) = (&launch.platform, &launch.server, &launch.learner);
    let sign = |claims: &Value| platform.shared.key.lock().unwrap().token(claims);
    // The state: another launch's, or none of this browser's.
    let begun = begin(server, platform, "x");
    let other = begin(server, platform, "x");
    let token = sign(&platform.claims(learner, &begun.nonce));
    let crossed = Begun {
        state: other.state.clone(),
        nonce: begun.nonce.clone(),
        cookie: begun.cookie.clone(),
    };
    refused_with(server, platform, &crossed, &token, "state cookie");
    // A state nimlab never made, multi-byte characters and all, is refused, not a crash.
    let odd = Begun {
        state: "€".repeat(30),
        nonce: String::new(),
        cookie: "nimlab_lti_none=x".into(),
    };
    refused_with(server, platform, &odd, "x.y.z", "state cookie");
    // A good launch goes through once; sent again (a replay), it is refused.
    let begun = begin(server, platform, "x");
    let token = sign(&platform.claims(learner, &begun.nonce));
    let response = finish(server, platform, &begun, &token);
    assert_eq!(
        response.status(),
        StatusCode::SEE_OTHER,
        "{}",
        server.stderr()
    );
    refused_with(server, platform, &begun, &token, "used already");
    let fresh = begin(server, platform, "x");
    let replayed = Begun {
        state: fresh.state,
        nonce: begun.nonce.clone(),
        cookie: fresh.cookie,
    };
    refused_with(server, platform, &replayed, &token, "nonce");
    // The platform rotates its key: the tool fetches the new one (once the few seconds are
    // past in which an unknown key id, the stranger's above, does not fetch again).
    *platform.shared.key.lock().unwrap() = Key::new("platform-key-2");
    std::thread::sleep(Duration::from_secs(6));
    launch_as(server, platform, "x", learner);
    // A launch from another site may post here and nowhere else.
    let response = client()
        .post(server.url("/rejudge"))
        .header("origin", &platform.base)
        .form(&[("exercise", "present_board")])
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(server.stderr().contains("LTI launch refused"));
}

/// A deadline set after the fact makes the submission a day late at half credit: the LMS
/// gets the lower score; an extension for the student gives the whole score back.
fn a_deadline_and_an_extension_send_new_scores(
    prof: &Client,
    server: &Server,
    platform: &Platform,
) {
    let (_, page) = text(prof, server, "/deadlines");
    let csrf = csrf_of(&page);
    let now = jiff::Timestamp::now();
    let at = |hours: i64| (now + jiff::SignedDuration::from_hours(hours)).to_string();
    let change = |form: &[(&str, String)]| {
        let mut form = form.to_vec();
        form.push(("csrf", csrf.clone()));
        let response = prof
            .post(server.url("/deadlines"))
            .form(&form)
            .send()
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::SEE_OTHER,
            "{}",
            response.text().unwrap()
        );
    };
    change(&[
        ("action", "set".into()),
        ("exercise", "present_board".into()),
        ("due", at(-1)),
        ("late_until", at(48)),
        ("late_penalty", "50".into()),
    ]);
    let arrived = |count: usize| {
        let start = Instant::now();
        while platform.scores().len() < count {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{:?}\n{}",
                platform.scores(),
                server.stderr()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        platform.scores()[count - 1].body["scoreGiven"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(arrived(2), 5.0);
    change(&[
        ("action", "extend".into()),
        ("student", "bo@uni.example".into()),
        ("exercise", "present_board".into()),
        ("until", at(24)),
    ]);
    assert_eq!(arrived(3), 10.0);
}

#[test]
fn scores_wait_while_the_lms_is_down_and_arrive_when_it_is_back() {
    let course = course_in_process(1);
    let (platform, server) = (&course.platform, &course.server);
    platform.shared.down.store(true, Ordering::SeqCst);
    let learner = person("lms-77", "bo@uni.example", &["Learner"]);
    let (student, _) = launch_as(server, platform, "b", &learner);
    let id = submit(
        &student,
        server,
        "present_board",
        &solution("present_board"),
    );
    assert_eq!(judged(&student, server, id)["status"], "done");
    // The instructor sees it waiting, with the platform's answer.
    let prof = form_login(server, "prof", "prof-password");
    let start = Instant::now();
    loop {
        let (status, page) = text(&prof, server, "/class/lti");
        assert_eq!(status, StatusCode::OK);
        if page.contains("503") {
            assert!(
                page.contains("bo@uni.example") && page.contains("retrying"),
                "{page}"
            );
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{page}\n{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(platform.scores().is_empty());
    platform.shared.down.store(false, Ordering::SeqCst);
    let start = Instant::now();
    while platform.scores().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(platform.scores()[0].body["scoreGiven"], 10.0);
    // Marked sent once the platform's answer is read, a moment after it arrived there.
    let start = Instant::now();
    loop {
        let (_, page) = text(&prof, server, "/class/lti");
        if page.contains("0 waiting, 0 failed") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{page}");
        std::thread::sleep(Duration::from_millis(100));
    }
    a_deadline_and_an_extension_send_new_scores(&prof, server, platform);
    // A worse submission later does not lower the best score: nothing more is sent.
    let worse = course.dir.path().join("worse.py");
    std::fs::write(&worse, "print('no')\n").unwrap();
    let id = submit(&student, server, "present_board", &worse);
    judged(&student, server, id);
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(platform.scores().len(), 3);
}

/// The Deep Linking answer's claims, checked as a platform would: from this tool to the
/// platform, for the deployment, with the platform's data sent back; its content items.
fn answer_items(platform: &Platform, answer: &Value) -> Vec<Value> {
    const DL: &str = "https://purl.imsglobal.org/spec/lti-dl/claim/";
    assert_eq!(answer["iss"], CLIENT_ID, "{answer}");
    assert_eq!(answer["aud"], platform.base.as_str());
    assert_eq!(
        answer[format!("{LTI}message_type")],
        "LtiDeepLinkingResponse"
    );
    assert_eq!(answer[format!("{LTI}version")], "1.3.0");
    assert_eq!(answer[format!("{LTI}deployment_id")], DEPLOYMENT);
    assert_eq!(answer[format!("{DL}data")]["opaque"], "kept-as-sent");
    assert!(answer["exp"].as_u64().unwrap() > rand_now());
    assert!(!answer["nonce"].as_str().unwrap().is_empty());
    answer[format!("{DL}content_items")]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn browser_an_instructor_chooses_exercises_for_the_course_and_the_lms_gets_signed_links() {
    let course = course("0");
    let (platform, server) = (&course.platform, &course.server);
    let mut teacher = person("lms-teacher-9", "tess@uni.example", &["Instructor"]);
    teacher.deep_link = true;
    platform.add("teacher-deep", teacher);
    let Some(browser) = Browser::start() else {
        return;
    };
    browser.go(&format!("{}/start?hint=teacher-deep", platform.base));
    browser.wait_for("/lti/deep-link/");
    let page = browser.text();
    assert!(
        page.contains("present_board") && page.contains("exclusive_or"),
        "{page}"
    );
    // The choosing page, reached only from an LMS, as usable as every other page
    // (serve::accessibility checks those).
    if let Some(axe) = axe_core() {
        for width in [1280, 390] {
            browser.resize(width, 900);
            let violations = browser.accessibility_violations(&axe);
            assert!(violations.is_empty(), "at {width} px: {violations:#?}");
        }
        browser.resize(1200, 1000);
    }
    browser.click("input[value=present_board]");
    browser.click("input[value=exclusive_or]");
    browser.click("form[action^='/lti/deep-link/'] button[type=submit]");
    // The answer page posts itself to the LMS (its script and form-action allowed).
    browser.wait_for("/deep-return");
    assert!(browser.text().contains("Links added"), "{}", browser.text());
    assert!(platform.shared.refusals.lock().unwrap().is_empty());
    let answers = platform.shared.answers.lock().unwrap().clone();
    assert_eq!(answers.len(), 1);
    let items = answer_items(platform, &answers[0]);
    let names: Vec<&str> = items
        .iter()
        .map(|i| i["custom"]["exercise"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["present_board", "exclusive_or"]);
    assert_eq!(items[0]["lineItem"]["scoreMaximum"], 10);
    for item in &items {
        let name = item["custom"]["exercise"].as_str().unwrap();
        assert_eq!(item["type"], "ltiResourceLink");
        assert_eq!(item["url"], format!("{}/exercises/{name}", server.base));
        assert_eq!(item["lineItem"]["resourceId"], name);
        assert!(
            item["lineItem"]["scoreMaximum"].as_u64().unwrap() > 0,
            "{item}"
        );
    }
}

/// A Deep Linking launch by hand: the session's client and where it was sent.
fn deep_launch(server: &Server, platform: &Platform, hint: &str) -> Response {
    let begun = begin(server, platform, hint);
    let person = platform.shared.people.lock().unwrap()[hint].clone();
    let token = platform
        .shared
        .key
        .lock()
        .unwrap()
        .token(&platform.claims(&person, &begun.nonce));
    finish(server, platform, &begun, &token)
}

#[test]
fn only_staff_choose_exercises_and_each_choice_is_sent_once_by_its_own_instructor() {
    let course = course_in_process(0);
    let (platform, server) = (&course.platform, &course.server);
    for (hint, roles) in [("learner", "Learner"), ("teacher", "Instructor")] {
        let mut someone = person(
            &format!("sub-{hint}"),
            &format!("{hint}@uni.example"),
            &[roles],
        );
        someone.deep_link = true;
        platform.add(hint, someone);
    }
    let learner = deep_launch(server, platform, "learner");
    assert_eq!(learner.status(), StatusCode::FORBIDDEN);
    assert!(
        learner
            .text()
            .unwrap()
            .contains("only the course's instructors")
    );
    let launched = deep_launch(server, platform, "teacher");
    assert_eq!(
        launched.status(),
        StatusCode::SEE_OTHER,
        "{}",
        server.stderr()
    );
    let choose = launched.headers()["location"].to_str().unwrap().to_string();
    assert!(choose.starts_with("/lti/deep-link/"), "{choose}");
    let teacher = with_session(server, &session_of(&launched).unwrap());
    let (status, page) = text(&teacher, server, &choose);
    assert_eq!(status, StatusCode::OK);
    let csrf = csrf_of(&page);
    // Another instructor (the class's own) cannot see or send this choice.
    let other = form_login(server, "prof", "prof-password");
    assert_eq!(text(&other, server, &choose).0, StatusCode::NOT_FOUND);
    let send = |client: &Client, fields: &[(&str, &str)]| {
        client
            .post(server.url(&choose))
            .header("origin", &server.base)
            .form(fields)
            .send()
            .unwrap()
    };
    let unknown = send(
        &teacher,
        &[("csrf", &csrf), ("exercise", "no_such_exercise")],
    );
    assert_eq!(unknown.status(), StatusCode::BAD_REQUEST);
    let no_token = send(&teacher, &[("exercise", "present_board")]);
    assert_eq!(no_token.status(), StatusCode::FORBIDDEN);
    let sent = send(&teacher, &[("csrf", &csrf), ("exercise", "present_board")]);
    assert_eq!(sent.status(), StatusCode::OK);
    let policy = sent.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        policy.contains(&format!("form-action 'self' {};", platform.base)),
        "{policy}"
    );
    assert!(
        sent.text()
            .unwrap()
            .contains(&format!("{}/deep-return?course=3", platform.base))
    );
    // Sent once.
    let again = send(&teacher, &[("csrf", &csrf), ("exercise", "present_board")]);
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    // Every other page keeps its own form-action.
    let home = teacher.get(server.url("/")).send().unwrap();
    let policy = home.headers()["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("form-action 'self';"), "{policy}");
}

/// nimlab on `db` with `extra` options, for the framing tests. It says its origin is plain
/// http (with --secure-cookies it would assume https behind a proxy).
fn framed_server(db: &Path, lab: &Path, extra: &[&str]) -> Server {
    let stderr = stderr_file(db);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
    command
        .arg("--lab")
        .arg(lab)
        .args(["serve", "--db"])
        .arg(db)
        .args(["--listen", &format!("127.0.0.1:{port}"), "--workers", "0"])
        .args(["--origin", &format!("http://127.0.0.1:{port}")])
        .args(extra)
        .env("NO_COLOR", "1");
    Server::spawn(command, stderr)
}

/// `--frame-origin` takes an origin alone: a path is refused, a school's own LMS host kept.
fn register_frame_origins(platform: &Platform, db: &Path) {
    let add = |origin: &str| {
        let mut command = nimlab();
        command
            .args(["lti", "add-platform", "--issuer", &platform.base])
            .args(["--client-id", CLIENT_ID, "--deployment-id", DEPLOYMENT])
            .args(["--auth-url", &format!("{}/auth", platform.base)])
            .args(["--jwks-url", &format!("{}/jwks", platform.base)])
            .args(["--token-url", &format!("{}/token", platform.base)])
            .args(["--frame-origin", origin])
            .arg("--db")
            .arg(db);
        command.assert()
    };
    add("https://school.example/courses")
        .code(2)
        .stderr(predicates::str::contains(
            "give the origin alone, like https://school.example",
        ));
    add("https://school.example").success();
}

#[test]
fn framing_is_refused_unless_asked_for_and_then_allowed_to_the_registered_platforms_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let platform = Platform::start();
    register_frame_origins(&platform, &db);
    // Framing needs cookies a frame receives: only with --secure-cookies.
    nimlab()
        .args(["serve", "--lti-frames", "--db"])
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--secure-cookies"));
    let headers_of = |server: &Server| {
        let response = client().get(server.url("/login")).send().unwrap();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_string())
        };
        (
            header("content-security-policy").unwrap(),
            header("x-frame-options"),
            header("set-cookie").unwrap_or_default(),
        )
    };
    let closed = framed_server(&db, lab.path(), &[]);
    let (policy, frame_options, cookie) = headers_of(&closed);
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert_eq!(frame_options.as_deref(), Some("DENY"));
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    drop(closed);
    let open = framed_server(&db, lab.path(), &["--lti-frames", "--secure-cookies"]);
    let (policy, frame_options, cookie) = headers_of(&open);
    assert!(
        policy.contains(&format!(
            "frame-ancestors {} https://school.example;",
            platform.base
        )),
        "{policy}"
    );
    assert_eq!(frame_options, None);
    assert!(
        cookie.contains("SameSite=None") && cookie.contains("Secure"),
        "{cookie}"
    );
    browser_launches_inside_the_course_page(&platform, &open);
}

/// In a real browser: a course page of the platform frames the launch; with framing on,
/// the student lands on the exercise inside the frame, logged in.
fn browser_launches_inside_the_course_page(platform: &Platform, server: &Server) {
    platform.serve(server);
    platform.add(
        "framed",
        person("lms-framed", "fran@uni.example", &["Learner"]),
    );
    let Some(browser) = Browser::start() else {
        return;
    };
    browser.go(&format!("{}/course-page?hint=framed", platform.base));
    browser.enter_frame(0);
    let start = Instant::now();
    while !browser.text().contains("fran@uni.example") {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the framed launch did not land: {:?}\n{}",
            browser.text(),
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let inside = browser.script("return location.href;");
    assert!(
        inside
            .as_str()
            .unwrap()
            .ends_with("/exercises/present_board"),
        "{inside}"
    );
    browser.out_of_frames();
    assert!(browser.text().contains("Course page"));
}

#[test]
fn browser_without_framing_a_course_page_cannot_show_the_site() {
    let course = course("0");
    let (platform, server) = (&course.platform, &course.server);
    platform.add(
        "framed",
        person("lms-framed", "fran@uni.example", &["Learner"]),
    );
    let Some(browser) = Browser::start() else {
        return;
    };
    browser.go(&format!("{}/course-page?hint=framed", platform.base));
    // The launch went through; in the frame the session cookie (SameSite=Lax) was not sent,
    // so the exercise sent the frame on to the login page, which was sent and not shown.
    let start = Instant::now();
    while !server.stderr().contains("GET /login 200") {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_millis(500));
    browser.enter_frame(0);
    let inside = browser.text();
    assert!(
        !inside.contains("fran@uni.example") && !inside.contains("Log in"),
        "{inside}"
    );
    assert!(
        server.stderr().contains("POST /lti/launch 303"),
        "{}",
        server.stderr()
    );
}

/// Two platforms on one nimlab: `slow` and `quick`, both registered, with a learner of
/// each launched (their scores go to their own platform's line item).
struct TwoPlatforms {
    slow: Platform,
    quick: Platform,
    server: Server,
    from_slow: Client,
    from_quick: Client,
    _lab: tempfile::TempDir,
    _dir: tempfile::TempDir,
}

fn two_platforms() -> TwoPlatforms {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let lab = small_lab();
    let (slow, quick) = (Platform::start(), Platform::start());
    slow.register(&db);
    quick.register(&db);
    let server = lti_in_process(&db, lab.path(), 2);
    slow.serve(&server);
    quick.serve(&server);
    let (from_slow, _) = launch_as(
        &server,
        &slow,
        "s",
        &person("lms-31", "ann@slow.example", &["Learner"]),
    );
    let (from_quick, _) = launch_as(
        &server,
        &quick,
        "q",
        &person("lms-32", "ben@quick.example", &["Learner"]),
    );
    TwoPlatforms {
        slow,
        quick,
        server,
        from_slow,
        from_quick,
        _lab: lab,
        _dir: dir,
    }
}

/// Waits (at most `limit`) until `done`; panics with the server's log.
fn within(server: &Server, limit: Duration, what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < limit,
            "{what}: not within {limit:?}\n{}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One platform answers scores only after 12 s (slow, or its network is). Scores used to
/// be sent one at a time, each waiting for its answer, so the other platform's students
/// waited too; each platform has its own sender now.
#[test]
fn a_slow_platform_delays_only_its_own_scores() {
    let two = two_platforms();
    let server = &two.server;
    two.slow.shared.slow_ms.store(12_000, Ordering::SeqCst);
    let id = submit(
        &two.from_slow,
        server,
        "present_board",
        &solution("present_board"),
    );
    judged(&two.from_slow, server, id);
    within(
        server,
        Duration::from_secs(10),
        "the slow platform asked",
        || two.slow.shared.arriving.load(Ordering::SeqCst) >= 1,
    );
    let id = submit(
        &two.from_quick,
        server,
        "present_board",
        &solution("present_board"),
    );
    judged(&two.from_quick, server, id);
    let judged_at = Instant::now();
    within(
        server,
        Duration::from_secs(5),
        "the quick platform's score",
        || !two.quick.scores().is_empty(),
    );
    eprintln!(
        "the quick platform's score arrived {:?} after its judging",
        judged_at.elapsed()
    );
    assert!(
        two.slow.scores().is_empty(),
        "the slow one has not answered yet"
    );
    assert_eq!(two.quick.scores()[0].body["scoreGiven"], 10.0);
    // The slow platform gets its score in its own time.
    within(
        server,
        Duration::from_secs(20),
        "the slow platform's score",
        || !two.slow.scores().is_empty(),
    );
    assert_eq!(two.slow.scores()[0].body["scoreGiven"], 10.0);
}

/// A platform refuses a score with an answer meant for whoever reads it (terminal controls,
/// a script, a forged line): the instructor sees the score failed and what the platform
/// answered, escaped and quoted as the platform's; the other platform's score is sent.
#[test]
fn a_refused_score_shows_failed_with_the_platforms_answer_escaped() {
    let two = two_platforms();
    let server = &two.server;
    let answer = "\x1b]0;owned\x07<script>alert(1)</script>\nnimlab: all scores sent";
    *two.slow.shared.refusal.lock().unwrap() = Some((400, answer.to_string()));
    for student in [&two.from_slow, &two.from_quick] {
        let id = submit(student, server, "present_board", &solution("present_board"));
        judged(student, server, id);
    }
    let prof = form_login(server, "prof", "prof-password");
    let page = || text(&prof, server, "/class/lti").1;
    within(server, Duration::from_secs(20), "failed and sent", || {
        let page = page();
        page.contains(r#"data-status="failed""#) && page.contains(r#"data-status="sent""#)
    });
    let page = page();
    let failed = &page[page.find(r#"data-status="failed""#).unwrap()..];
    let failed = &failed[..failed.find("</tr>").unwrap()];
    assert!(
        failed.contains("ann@slow.example") || failed.contains("lti-"),
        "{failed}"
    );
    assert!(failed.contains("400 Bad Request"), "{failed}");
    assert!(
        failed.contains(r"&quot;\x1b]0;owned\x07&lt;script&gt;alert(1)&lt;/script&gt;\nnimlab: all scores sent&quot;"),
        "{failed}"
    );
    assert!(!page.contains('\x1b') && !page.contains('\x07'), "{page}");
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(page.contains("1 failed"), "{page}");
    assert!(two.quick.scores().len() == 1 && two.slow.scores().is_empty());
    // The class matrix says so beside each student, linking to the LMS page.
    let (_, class) = text(&prof, server, "/class");
    assert!(class.contains("LMS: 1 failed"), "{class}");
    assert!(class.contains("LMS: 1 sent"), "{class}");
}

/// What a stranger posts as the platform's error (`error`, `error_description`) or as the
/// issuer of a login initiation is written to the log escaped, on its one line, and never
/// on nimlab's page, which says in its own words what happened.
#[test]
fn a_platform_error_reaches_the_log_escaped_and_the_page_not_at_all() {
    let course = course("1");
    let (platform, server) = (&course.platform, &course.server);
    let hostile = "\x1b[2J\x07Your account is locked: call +1 555 0100\nnimlab serve: GET /admin 200 1ms prof\t";
    for (error, named) in [("login_required", true), ("\x1b[31mpay here\n", false)] {
        let response = client()
            .post(server.url("/lti/launch"))
            .header("origin", &platform.base)
            .header("sec-fetch-site", "cross-site")
            .form(&[("error", error), ("error_description", hostile)])
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let page = response.text().unwrap();
        assert!(page.contains("answered with"), "{page}");
        assert_eq!(page.contains("login_required"), named, "{page}");
        for word in ["locked", "555", "/admin", "pay here", "\x1b", "\x07"] {
            assert!(!page.contains(word), "{word:?} in {page}");
        }
    }
    let mut url = reqwest::Url::parse(&server.url("/lti/login")).unwrap();
    url.query_pairs_mut()
        .append_pair("iss", hostile)
        .append_pair("login_hint", "x");
    let response = client().get(url).send().unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let page = response.text().unwrap();
    assert!(page.contains("not registered here"), "{page}");
    assert!(!page.contains("locked") && !page.contains('\x1b'), "{page}");

    let log = server.stderr();
    assert!(!log.contains('\x1b') && !log.contains('\x07'), "{log:?}");
    assert!(
        !log.lines()
            .any(|l| l.starts_with("nimlab serve: GET /admin")),
        "{log}"
    );
    // Each attempt is one line, the stranger's words quoted and escaped.
    let refused: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("LTI launch refused") && l.contains("locked"))
        .collect();
    assert_eq!(refused.len(), 3, "{log}");
    for line in refused {
        assert!(
            line.contains(r#""\x1b[2J\x07Your account is locked: call +1 555 0100\nnimlab serve: GET /admin 200 1ms prof\t""#),
            "{line}"
        );
    }
}

/// Two web processes on one PostgreSQL database share the outbox, and both hear of every
/// judging: each score is still sent once, by one of them, while the platform is slow.
#[test]
fn two_web_processes_on_postgresql_send_each_score_once() {
    let Some(uri) = crate::common::postgres::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = populated(PathBuf::from(uri), dir.path());
    let lab = small_lab();
    let platform = Platform::start();
    platform.register(&db);
    let first = lti_server(&db, lab.path(), "2");
    let _second = lti_server(&db, lab.path(), "0");
    platform.serve(&first);
    platform.shared.slow_ms.store(1000, Ordering::SeqCst);
    let students: Vec<Client> = (0..4)
        .map(|k| {
            let person = person(
                &format!("lms-4{k}"),
                &format!("p{k}@uni.example"),
                &["Learner"],
            );
            launch_as(&first, &platform, &format!("p{k}"), &person).0
        })
        .collect();
    for student in &students {
        let id = submit(student, &first, "present_board", &solution("present_board"));
        judged(student, &first, id);
    }
    within(&first, Duration::from_secs(30), "four scores", || {
        platform.scores().len() >= 4
    });
    std::thread::sleep(Duration::from_secs(3));
    let scores = platform.scores();
    let mut users: Vec<&str> = scores
        .iter()
        .map(|s| s.body["userId"].as_str().unwrap())
        .collect();
    users.sort_unstable();
    users.dedup();
    assert_eq!((scores.len(), users.len()), (4, 4), "{scores:?}");
}

/// The rows of `table` in the server's database, on either store.
fn rows_of(db: &Path, table: &str) -> i64 {
    let query = format!("SELECT COUNT(*) FROM {table}");
    let location = db.to_string_lossy();
    if location.starts_with("postgres") {
        let mut client = ::postgres::Client::connect(&location, ::postgres::NoTls).unwrap();
        client.query_one(&query, &[]).unwrap().get(0)
    } else {
        let connection = rusqlite::Connection::open(db).unwrap();
        connection.query_row(&query, [], |r| r.get(0)).unwrap()
    }
}

/// One anonymous login initiation, as anyone may send: the status it got.
fn initiation(client: &Client, server: &Server, platform: &Platform, i: usize) -> StatusCode {
    let mut url = reqwest::Url::parse(&server.url("/lti/login")).unwrap();
    url.query_pairs_mut()
        .append_pair("iss", &platform.base)
        .append_pair("login_hint", &format!("flood-{i}"))
        .append_pair("client_id", CLIENT_ID);
    client.get(url).send().unwrap().status()
}

/// A whole launch of `person` by hand: its answer's status.
fn launch_status(server: &Server, platform: &Platform, person: &Person) -> StatusCode {
    let begun = begin(server, platform, &person.sub);
    let claims = platform.claims(person, &begun.nonce);
    let token = platform.shared.key.lock().unwrap().token(&claims);
    finish(server, platform, &begun, &token).status()
}

#[test]
fn a_flood_of_login_initiations_keeps_no_real_launch_out_and_stores_nothing() {
    let course = course("0");
    let (platform, server) = (&course.platform, &course.server);
    let class: Vec<Person> = (0..300)
        .map(|i| {
            person(
                &format!("lms-{i}"),
                &format!("s{i}@uni.example"),
                &["Learner"],
            )
        })
        .collect();
    // The first 30 launch with no flood: what a launch takes on this machine now.
    let quiet = Instant::now();
    let mut launches: Vec<StatusCode> = class[..30]
        .iter()
        .map(|person| launch_status(server, platform, person))
        .collect();
    let quiet_launch = quiet.elapsed() / 30;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let (flood, flooded) = std::thread::scope(|scope| {
        // Eight clients send initiations as fast as they are answered, all along.
        let flooding: Vec<_> = (0..8)
            .map(|sender| {
                let stop = &stop;
                scope.spawn(move || {
                    let client = client();
                    let mut statuses = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        statuses.push(initiation(&client, server, platform, sender));
                    }
                    statuses
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(500));
        // The class launches from one address, one after the other, while the flood goes on.
        // (First launches at the same moment are issue 41's point 7, not this test's.)
        let launches: Vec<StatusCode> = class[30..]
            .iter()
            .map(|person| launch_status(server, platform, person))
            .collect();
        stop.store(true, Ordering::Relaxed);
        let flood: Vec<StatusCode> = flooding
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        (flood, launches)
    });
    let took = started.elapsed();
    launches.extend(flooded);
    let failed: Vec<_> = launches
        .iter()
        .filter(|s| **s != StatusCode::SEE_OTHER)
        .collect();
    assert!(
        failed.is_empty(),
        "{} launches failed: {failed:?}\n{}",
        failed.len(),
        server.stderr()
    );
    assert_eq!(launches.len(), 300);
    // Under the flood a launch takes its turn beside eight clients, not after them: within
    // a few times a quiet launch (measured, since debug builds and loaded machines differ).
    let flooded_launch = took / 270;
    assert!(
        flooded_launch < quiet_launch * 6 + Duration::from_millis(50),
        "a launch took {flooded_launch:?} under the flood, {quiet_launch:?} without"
    );
    // Every initiation was answered with its redirect to the platform.
    assert!(
        flood.iter().all(|s| *s == StatusCode::SEE_OTHER),
        "{:?}",
        flood.iter().find(|s| **s != StatusCode::SEE_OTHER)
    );
    assert!(flood.len() > 300, "only {} initiations", flood.len());
    // Nothing was kept of them: only the nonces of the launches that came back signed.
    assert_eq!(rows_of(&course.db, "lti_launches"), 0);
    assert_eq!(rows_of(&course.db, "lti_nonces"), 300);
    eprintln!(
        "270 launches in {took:?} during {} initiations ({quiet_launch:?} a launch without)",
        flood.len()
    );
}
