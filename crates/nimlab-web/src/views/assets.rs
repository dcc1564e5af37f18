//! The website's style sheet and its one script. The script is inline, allowed by its hash
//! in the Content-Security-Policy; no other script can run.

use axum::http::header;
use axum::response::IntoResponse;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

/// Polls a pending submission's status and reloads the page once it is judged. It stops,
/// and says why, once the answer is that the session has ended (401) or the submission is
/// not there (404); other failures are tried again, less often. Without JavaScript the
/// page refreshes itself (`<noscript>` in its head).
pub const POLL_SCRIPT: &str = r#"(function () {
  var status = document.getElementById("status");
  if (!status) { return; }
  var url = status.getAttribute("data-poll");
  function stop(before, link, after) {
    status.textContent = before;
    if (link) {
      var a = document.createElement("a");
      a.href = "/login?next=" + encodeURIComponent(location.pathname);
      a.textContent = link;
      status.appendChild(a);
      status.appendChild(document.createTextNode(after));
    }
    status.setAttribute("data-stopped", "");
  }
  function tick() {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) {
        if (r.status === 401) {
          stop("Your session has ended: ", "log in again", " to see the verdict.");
          return null;
        }
        if (r.status === 404) {
          stop("This submission is no longer available: reload the page.");
          return null;
        }
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        return r.json();
      })
      .then(function (s) {
        if (!s) { return; }
        if (s.status === "done" || s.status === "failed") {
          // Said by screen readers (the line is a status region) as the report loads.
          status.textContent = s.status === "done" ? "Judged: loading the report…" : "Not judged: loading the page…";
          location.reload();
          return;
        }
        status.textContent = s.status === "running" ? "Running your program on the test cases…"
          : "Queued: " + (s.waiting_before || 0) + " submission(s) ahead of yours.";
        setTimeout(tick, 1000);
      })
      .catch(function () { setTimeout(tick, 3000); });
  }
  setTimeout(tick, 1000);
})();"#;

/// Posts the LTI Deep Linking answer to the course's site as soon as the page is read.
pub const SUBMIT_SCRIPT: &str = r#"document.getElementById("deep-link-answer").submit();"#;

/// The policy's `script-src` sources: `'sha256-…'` of each of the site's scripts.
pub fn script_hash() -> &'static str {
    static HASH: LazyLock<String> = LazyLock::new(|| {
        [POLL_SCRIPT, SUBMIT_SCRIPT]
            .iter()
            .map(|script| {
                let digest = Sha256::digest(script.as_bytes());
                format!(
                    "'sha256-{}'",
                    base64::engine::general_purpose::STANDARD.encode(digest)
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    });
    &HASH
}

pub const STYLE: &str = r#"
:root { --ok: #1a7f37; --bad: #c62828; --note: #9a6700; --dim: #57606a; --line: #d0d7de;
  --bg-ok: #dafbe1; --bg-bad: #ffebe9; --bg-note: #fff8c5; --bg-none: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .6rem 1rem;
  background: #24292f; color: #fff; }
header.top a { color: #fff; text-decoration: none; white-space: nowrap; }
header.top .brand { font-weight: 700; margin-right: .5rem; }
header.top nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; flex: 1; }
header.top form { margin: 0; }
header.top .who { color: #d0d7de; font-size: .9rem; }
header.top button { background: transparent; color: #fff; border: 1px solid #8c959f; border-radius: 4px;
  padding: .1rem .6rem; font: inherit; font-size: .9rem; cursor: pointer; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
/* A statement's images shrink to the page, never widen it. */
main img { max-width: 100%; height: auto; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; }
a { color: #0969da; }
/* Focus is always seen: a keyboard user follows it from link to field to button. */
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
header.top :focus-visible { outline-color: #fff; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; background: var(--bg-none); }
td.num, th.num { text-align: right; white-space: nowrap; }
pre { background: var(--bg-none); border: 1px solid var(--line); border-radius: 6px; padding: .6rem;
  overflow-x: auto; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600;
  white-space: nowrap; }
.v-accepted { background: var(--bg-ok); color: var(--ok); }
.v-bad { background: var(--bg-bad); color: var(--bad); }
.v-note { background: var(--bg-note); color: var(--note); }
.v-none { background: var(--bg-none); color: var(--dim); }
.verdict { padding: .75rem 1rem; border-radius: 8px; margin: 1rem 0; font-size: 1.1rem; }
.hint { background: var(--bg-note); border-left: 4px solid var(--note); padding: .5rem .75rem; margin: .5rem 0; }
.hint strong { color: var(--note); }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.side pre span { display: block; }
.side pre span.match { background: var(--bg-note); }
.dim { color: var(--dim); }
.file { display: block; }
.small { font-size: .875rem; }
.error { background: var(--bg-bad); border-left: 4px solid var(--bad); padding: .5rem .75rem; }
.notice { background: var(--bg-ok); border-left: 4px solid var(--ok); padding: .5rem .75rem; }
details { margin: .5rem 0; }
details > summary { cursor: pointer; font-weight: 600; }
.case { border: 1px solid var(--line); border-radius: 8px; padding: .5rem .75rem; margin: .75rem 0; }
.diff .del { color: var(--ok); }
.diff .ins { color: var(--bad); }
.typed { color: var(--note); font-weight: 600; }
.broken { color: var(--bad); font-weight: 600; }
form.stack { display: grid; gap: .75rem; max-width: 36rem; }
form.inline { display: inline; }
label { font-weight: 600; }
input[type=text], input[type=password], input[type=number], input[type=datetime-local], select, textarea { width: 100%; padding: .45rem; font: inherit;
  border: 1px solid var(--line); border-radius: 6px; }
textarea { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
button.primary { background: #1f883d; color: #fff; border: 0; border-radius: 6px; padding: .55rem 1.2rem;
  font: inherit; font-weight: 600; cursor: pointer; justify-self: start; }
button.secondary { background: var(--bg-none); border: 1px solid var(--line); border-radius: 6px;
  padding: .35rem .8rem; font: inherit; cursor: pointer; justify-self: start; }
form.stack + form.stack { margin-top: 1rem; }
.matrix td { text-align: center; white-space: nowrap; }
.matrix td.name, .matrix th.name { text-align: left; }
.matrix a { color: inherit; text-decoration: none; display: block; }
/* The class matrix widens its page to fit; where it still cannot (a phone, a long lab), it
   scrolls in its box with the student column and the points kept in view. */
main:has(table.matrix) { max-width: 96rem; }
.matrix th:first-child, .matrix td:first-child, .matrix th:last-child, .matrix td:last-child {
  position: sticky; z-index: 1; background: #fff; }
.matrix th:first-child, .matrix td:first-child { left: 0; box-shadow: 1px 0 0 var(--line); }
.matrix th:last-child, .matrix td:last-child { right: 0; box-shadow: -1px 0 0 var(--line); }
.matrix th:first-child, .matrix th:last-child { background: var(--bg-none); }
.statement { border-bottom: 1px solid var(--line); padding-bottom: 1rem; }
@media (max-width: 40rem) {
  main { padding: .75rem; }
  header.top { font-size: .9rem; padding: .5rem .75rem; }
  header.top .who { display: none; }
  h1 { font-size: 1.35rem; }
  th, td { padding: .3rem .35rem; }
  .wide { display: none; }
}
"#;

pub async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        STYLE,
    )
}
