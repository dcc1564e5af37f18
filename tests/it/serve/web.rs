//! The HTTP client of the website's tests, one for both ways a test runs the site: a real
//! `nimlab serve` on a port (requests go through reqwest over TCP), or the site's router
//! called in-process with a real store and real judges ([`InProcess`], as axum's own testing
//! example calls a router). A test reads the same whichever it uses; only the tests of what
//! depends on the connection (addresses, timeouts, the access log, signals) need the port.
//!
//! Cookies are kept here for both, as a browser keeps them: per host, `Secure` ones only over
//! https, gone once `Max-Age` runs out.

use axum::body::Body;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode, Url};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// How long a request may take when the test sets no timeout of its own.
const PATIENCE: Duration = Duration::from_secs(60);

/// The in-process sites by their authority (`in-process:N`), for the clients to find.
fn sites() -> &'static Mutex<HashMap<String, Weak<InProcess>>> {
    static SITES: OnceLock<Mutex<HashMap<String, Weak<InProcess>>>> = OnceLock::new();
    SITES.get_or_init(Mutex::default)
}

/// The website in this process: its router over a real store, its judging workers running on
/// their own threads, its async tasks on a runtime of its own.
pub struct InProcess {
    /// `in-process:N`: one host for all, as every `nimlab serve` of a test is on
    /// 127.0.0.1, so a client's cookies reach the next site on the same database too.
    authority: String,
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    site: Mutex<Option<nimlab_web::Site>>,
    /// The address every request comes from, as if one machine sent them all.
    peer: SocketAddr,
}

impl InProcess {
    /// Opens `options.db` and starts the site's judges, as `nimlab serve` does before it
    /// listens; the error is the one `serve` would print.
    pub fn open(
        lab: nimlab_core::lab::Lab,
        options: &nimlab_web::ServeOptions,
    ) -> Result<Arc<InProcess>, nimlab_core::error::Error> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let runner: Arc<dyn nimlab_core::runner::Runner + Send> = if options.fork {
            Arc::new(nimlab_core::runner::ForkRunner::detect())
        } else {
            Arc::new(nimlab_core::runner::ProcessRunner::detect())
        };
        let site = runtime.block_on(nimlab_web::Site::open(Arc::new(lab), options, runner))?;
        let authority = format!("in-process:{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let site = Arc::new(InProcess {
            authority: authority.clone(),
            router: site.router.clone(),
            site: Mutex::new(Some(site)),
            runtime,
            peer: SocketAddr::from(([127, 0, 0, 1], 40000)),
        });
        sites()
            .lock()
            .unwrap()
            .insert(authority, Arc::downgrade(&site));
        Ok(site)
    }

    /// The base of its URLs: `http://in-process:N`.
    pub fn base(&self) -> String {
        format!("http://{}", self.authority)
    }

    /// Requeues what it was judging and stops its workers, as a stop by SIGTERM does.
    pub fn stop(&self) {
        if let Some(site) = self.site.lock().unwrap().take() {
            self.runtime.block_on(site.stop(true));
        }
    }

    /// The status of a GET of `path` exactly as written (`..` and all, which URL parsers
    /// resolve before sending) with `cookie`; a path no HTTP parser takes is a 400, as the
    /// server's parser answers it.
    pub fn get_as_written(&self, path: &str, cookie: &str) -> Result<StatusCode, Error> {
        let Ok(uri) = path.parse::<axum::http::Uri>() else {
            return Ok(StatusCode::BAD_REQUEST);
        };
        let mut request = axum::http::Request::get(uri)
            .header("host", &self.authority)
            .header("cookie", cookie)
            .body(Body::empty())
            .map_err(|e| Error(e.to_string()))?;
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(self.peer));
        Ok(self.call(request, PATIENCE)?.0)
    }

    fn call(&self, request: axum::extract::Request, patience: Duration) -> Result<Answer, Error> {
        use tower::ServiceExt;
        let router = self.router.clone();
        self.runtime.block_on(async move {
            let answer = tokio::time::timeout(patience, async move {
                let response = router.oneshot(request).await.unwrap();
                let (parts, body) = response.into_parts();
                let body = axum::body::to_bytes(body, usize::MAX)
                    .await
                    .map_err(|e| Error(format!("reading the answer: {e}")))?;
                Ok::<_, Error>((parts.status, parts.headers, body.to_vec()))
            })
            .await
            .map_err(|_| Error(format!("no answer in {patience:?} (timed out)")))??;
            Ok(answer)
        })
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        self.stop();
        sites().lock().unwrap().remove(&self.authority);
    }
}

/// A status, headers and the whole body.
type Answer = (StatusCode, HeaderMap, Vec<u8>);

/// What went wrong with a request (the connection, the time, reading the answer).
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// A cookie as the jar keeps it.
#[derive(Clone)]
struct Cookie {
    name: String,
    value: String,
    secure: bool,
    expires: Option<Instant>,
}

/// Cookies by host (without the port, as browsers keep them).
#[derive(Default)]
struct Jar {
    hosts: HashMap<String, Vec<Cookie>>,
}

impl Jar {
    fn keep(&mut self, url: &Url, line: &str) {
        let mut fields = line.split(';').map(str::trim);
        let Some((name, value)) = fields.next().and_then(|pair| pair.split_once('=')) else {
            return;
        };
        let mut cookie = Cookie {
            name: name.to_string(),
            value: value.to_string(),
            secure: false,
            expires: None,
        };
        for field in fields {
            let (key, value) = field.split_once('=').unwrap_or((field, ""));
            if key.eq_ignore_ascii_case("secure") {
                cookie.secure = true;
            } else if key.eq_ignore_ascii_case("max-age") {
                let seconds: i64 = value.parse().unwrap_or(0);
                cookie.expires =
                    Some(Instant::now() + Duration::from_secs(seconds.max(0).unsigned_abs()));
            }
        }
        let cookies = self
            .hosts
            .entry(url.host_str().unwrap_or_default().to_string())
            .or_default();
        cookies.retain(|c| c.name != cookie.name);
        cookies.push(cookie);
    }

    /// The `Cookie` header for a request to `url`, if any cookie goes.
    fn header(&mut self, url: &Url) -> Option<String> {
        let now = Instant::now();
        let cookies = self.hosts.get_mut(url.host_str()?)?;
        cookies.retain(|c| c.expires.is_none_or(|at| at > now));
        let sent: Vec<String> = cookies
            .iter()
            .filter(|c| !c.secure || url.scheme() == "https")
            .map(|c| format!("{}={}", c.name, c.value))
            .collect();
        (!sent.is_empty()).then(|| sent.join("; "))
    }
}

/// A client with its own cookies that follows no redirects (so tests see them).
#[derive(Clone)]
pub struct Client {
    http: reqwest::blocking::Client,
    jar: Option<Arc<Mutex<Jar>>>,
    headers: HeaderMap,
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

impl Client {
    pub fn new() -> Client {
        Client {
            http: reqwest::blocking::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(PATIENCE)
                .build()
                .unwrap(),
            jar: Some(Arc::default()),
            headers: HeaderMap::new(),
        }
    }

    /// A client that keeps no cookies and sends `headers` with every request.
    pub fn with_headers(headers: HeaderMap) -> Client {
        Client {
            jar: None,
            headers,
            ..Client::new()
        }
    }

    /// A new client holding the cookie `line` (as a `Set-Cookie` from `base` would give it).
    pub fn with_cookie(base: &str, line: &str) -> Client {
        let client = Client::new();
        if let Some(jar) = &client.jar {
            jar.lock().unwrap().keep(&Url::parse(base).unwrap(), line);
        }
        client
    }

    pub fn get(&self, url: impl AsRef<str>) -> RequestBuilder {
        self.request(Method::GET, url)
    }

    pub fn post(&self, url: impl AsRef<str>) -> RequestBuilder {
        self.request(Method::POST, url)
    }

    pub fn request(&self, method: Method, url: impl AsRef<str>) -> RequestBuilder {
        RequestBuilder {
            client: self.clone(),
            method,
            url: Url::parse(url.as_ref()).map_err(|e| Error(format!("{}: {e}", url.as_ref()))),
            headers: self.headers.clone(),
            body: Vec::new(),
        }
    }

    fn send(&self, request: RequestBuilder) -> Result<Response, Error> {
        let RequestBuilder {
            method,
            url,
            mut headers,
            body,
            ..
        } = request;
        let url = url?;
        if let Some(jar) = &self.jar
            && let Some(cookies) = jar.lock().unwrap().header(&url)
        {
            headers.insert("cookie", cookies.parse().unwrap());
        }
        let in_process = sites()
            .lock()
            .unwrap()
            .get(url.authority())
            .and_then(Weak::upgrade);
        let (status, answer_headers, bytes) = match in_process {
            Some(site) => {
                let mut request = axum::http::Request::builder()
                    .method(method)
                    .uri(&url[url::Position::BeforePath..]);
                for (name, value) in &headers {
                    request = request.header(name, value);
                }
                let mut request = request
                    .header("host", url.authority())
                    .header("content-length", body.len())
                    .body(Body::from(body))
                    .map_err(|e| Error(e.to_string()))?;
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(site.peer));
                site.call(request, PATIENCE)?
            }
            None => {
                let mut request = self.http.request(method, url.clone()).headers(headers);
                if !body.is_empty() {
                    request = request.body(body);
                }
                let response = request.send().map_err(|e| Error(format!("{e:?}")))?;
                let (status, headers) = (response.status(), response.headers().clone());
                let bytes = response.bytes().map_err(|e| Error(format!("{e:?}")))?;
                (status, headers, bytes.to_vec())
            }
        };
        if let Some(jar) = &self.jar {
            let mut jar = jar.lock().unwrap();
            for line in answer_headers.get_all("set-cookie") {
                jar.keep(&url, line.to_str().unwrap_or_default());
            }
        }
        Ok(Response {
            status,
            headers: answer_headers,
            body: bytes,
        })
    }
}

/// A request being written.
pub struct RequestBuilder {
    client: Client,
    method: Method,
    url: Result<Url, Error>,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl RequestBuilder {
    pub fn header<K, V>(mut self, name: K, value: V) -> RequestBuilder
    where
        K: TryInto<HeaderName>,
        K::Error: std::fmt::Debug,
        V: TryInto<HeaderValue>,
        V::Error: std::fmt::Debug,
    {
        self.headers
            .append(name.try_into().unwrap(), value.try_into().unwrap());
        self
    }

    pub fn form<K: AsRef<str>, V: AsRef<str>>(self, fields: &[(K, V)]) -> RequestBuilder {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        for (key, value) in fields {
            form.append_pair(key.as_ref(), value.as_ref());
        }
        self.body_of(
            "application/x-www-form-urlencoded",
            form.finish().into_bytes(),
        )
    }

    pub fn json<T: serde::Serialize + ?Sized>(self, value: &T) -> RequestBuilder {
        self.body_of("application/json", serde_json::to_vec(value).unwrap())
    }

    pub fn multipart(self, form: multipart::Form) -> RequestBuilder {
        let (content_type, body) = form.encode();
        self.body_of(&content_type, body)
    }

    pub fn send(self) -> Result<Response, Error> {
        let client = self.client.clone();
        client.send(self)
    }

    fn body_of(mut self, content_type: &str, body: Vec<u8>) -> RequestBuilder {
        if !self.headers.contains_key("content-type") {
            self.headers
                .insert("content-type", content_type.parse().unwrap());
        }
        self.body = body;
        self
    }
}

/// An answer, read whole.
#[derive(Debug)]
pub struct Response {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Response {
    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    pub fn text(self) -> Result<String, Error> {
        Ok(String::from_utf8_lossy(&self.body).into_owned())
    }

    pub fn bytes(self) -> Result<axum::body::Bytes, Error> {
        Ok(self.body.into())
    }

    pub fn json<T: serde::de::DeserializeOwned>(self) -> Result<T, Error> {
        serde_json::from_slice(&self.body).map_err(|e| Error(format!("not JSON: {e}")))
    }
}

/// Multipart forms, as a browser's upload form sends them.
pub mod multipart {
    /// A form's fields in order.
    #[derive(Default)]
    pub struct Form {
        parts: Vec<(String, Part)>,
    }

    /// One field: its bytes, and a file name if it is a file.
    pub struct Part {
        bytes: Vec<u8>,
        file_name: Option<String>,
    }

    impl Form {
        pub fn new() -> Form {
            Form::default()
        }

        pub fn text(self, name: impl Into<String>, value: impl Into<String>) -> Form {
            self.part(name, Part::bytes(value.into().into_bytes()))
        }

        pub fn part(mut self, name: impl Into<String>, part: Part) -> Form {
            self.parts.push((name.into(), part));
            self
        }

        /// The content type (with its boundary) and the body.
        pub(super) fn encode(self) -> (String, Vec<u8>) {
            let boundary = format!("nimlab-test-boundary-{:016x}", rand_boundary());
            let mut body = Vec::new();
            for (name, part) in self.parts {
                body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
                let mut disposition = format!("Content-Disposition: form-data; name=\"{name}\"");
                // A file's name escaped as browsers and reqwest escape it.
                if let Some(file) = &part.file_name {
                    let file = file
                        .replace('\\', "\\\\")
                        .replace('"', "\\\"")
                        .replace('\r', "\\\r")
                        .replace('\n', "\\\n");
                    disposition.push_str(&format!("; filename=\"{file}\""));
                }
                body.extend_from_slice(disposition.as_bytes());
                body.extend_from_slice(b"\r\n");
                body.extend_from_slice(b"\r\n");
                body.extend_from_slice(&part.bytes);
                body.extend_from_slice(b"\r\n");
            }
            body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
            (format!("multipart/form-data; boundary={boundary}"), body)
        }
    }

    impl Part {
        pub fn bytes(bytes: impl Into<Vec<u8>>) -> Part {
            Part {
                bytes: bytes.into(),
                file_name: None,
            }
        }

        pub fn file_name(mut self, name: impl Into<String>) -> Part {
            self.file_name = Some(name.into());
            self
        }
    }

    fn rand_boundary() -> u64 {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(super::super::rand_suffix());
        hasher.finish()
    }
}
