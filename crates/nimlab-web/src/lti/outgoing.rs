//! nimlab's calls to a platform (its JWKS, its token URL, a line item's scores): over TLS,
//! or plain http to a loopback address only (tests), never following redirects, within a
//! time limit and a size limit on what comes back.

use reqwest::{Client, Url};
use std::net::IpAddr;
use std::time::Duration;

/// The most a platform's answer may hold.
const MAX_ANSWER: usize = 1024 * 1024;

/// Whether nimlab may call `url`: https anywhere, http only on this machine. A refusal
/// quotes the URL as given ([`nimlab_core::escape::quoted`]): it may come from a platform's
/// token, and is logged and shown.
pub fn allowed(url: &str) -> Result<Url, String> {
    let shown = || nimlab_core::escape::quoted(url, 200);
    let parsed = Url::parse(url).map_err(|e| format!("{} is not a URL ({e})", shown()))?;
    match parsed.scheme() {
        "https" => Ok(parsed),
        "http" if loopback(&parsed) => Ok(parsed),
        "http" => Err(format!(
            "{} is plain http: a platform is reached over https (http only on this machine, for tests)",
            shown()
        )),
        other => Err(format!(
            "{}: the scheme {} is not https",
            shown(),
            nimlab_core::escape::quoted(other, 40)
        )),
    }
}

/// The origin of `url` when it is http(s) and has nothing but an origin's characters, for
/// the security policy's header (a domain may hold `;` or `,` for the URL parser).
pub fn header_safe_origin(url: &str) -> Option<String> {
    let url = Url::parse(url).ok()?;
    if !matches!(url.scheme(), "https" | "http") {
        return None;
    }
    let origin = url.origin().ascii_serialization();
    origin
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b":/.-[]".contains(&b))
        .then_some(origin)
}

fn loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// The HTTP client of every call to a platform.
pub fn client() -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(15))
        .user_agent(concat!("nimlab/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("the HTTP client's settings are valid")
}

/// An answer's status and body (at most [`MAX_ANSWER`] bytes).
pub async fn read(response: reqwest::Response) -> Result<(reqwest::StatusCode, Vec<u8>), String> {
    let status = response.status();
    let mut response = response;
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| format!("the answer was cut short ({e})"))?
    {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err(format!(
                "the answer is larger than {} KiB",
                MAX_ANSWER / 1024
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((status, body))
}

/// A GET of JSON from `url`.
pub async fn get_json(client: &Client, url: &str) -> Result<serde_json::Value, String> {
    let url = allowed(url)?;
    let response = client
        .get(url.clone())
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("{url}: {}", without_url(&e)))?;
    let (status, body) = read(response).await?;
    if !status.is_success() {
        return Err(format!("{url} answered {status}"));
    }
    serde_json::from_slice(&body).map_err(|e| format!("{url} did not answer JSON ({e})"))
}

/// A reqwest error's words without the URL it repeats.
pub fn without_url(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    if let Some(url) = error.url() {
        text = text.replace(&format!(" for url ({url})"), "");
    }
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        text.push_str(&format!(": {inner}"));
        source = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_or_loopback_http() {
        assert!(allowed("https://lms.example.edu/jwks").is_ok());
        assert!(allowed("http://127.0.0.1:8000/jwks").is_ok());
        assert!(allowed("http://127.8.0.1/jwks").is_ok());
        assert!(allowed("http://localhost:9/x").is_ok());
        assert!(allowed("http://[::1]:9/x").is_ok());
        assert!(allowed("http://lms.example.edu/jwks").is_err());
        assert!(allowed("http://10.0.0.1/jwks").is_err());
        assert!(allowed("http://localhost.example.com/jwks").is_err());
        assert!(allowed("file:///etc/passwd").is_err());
        assert!(allowed("not a url").is_err());
    }
}
