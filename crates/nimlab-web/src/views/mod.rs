//! The pages, as maud templates: every value is escaped for HTML unless marked otherwise
//! (only the statement's Markdown, rendered with raw HTML disabled, and the fixed script).

pub(crate) mod assets;
pub(crate) mod urls;

mod account;
mod exercises;
mod layout;
mod report;
mod staff;
mod submissions;

pub use account::*;
pub use exercises::*;
pub use layout::*;
pub use staff::*;
pub use submissions::*;

#[cfg(test)]
mod tests {
    use super::report::prose;
    use super::*;
    use nimlab_core::judge::Verdict;

    #[test]
    fn times_are_shown_in_utc() {
        assert_eq!(time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time(1_709_251_199_000), "2024-02-29 23:59:59 UTC");
    }

    #[test]
    fn raw_html_in_a_statement_is_shown_not_run() {
        let html = statement(
            "# Title\n\n<script>alert(1)</script>\n\nsome `code` <b>bold</b>\n",
            "/f/",
        )
        .into_string();
        assert!(html.contains("<h1>Title</h1>"), "{html}");
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn backticks_in_messages_become_code_and_stay_escaped() {
        assert_eq!(
            prose("use `//` not `/`").into_string(),
            "use <code>//</code> not <code>/</code>"
        );
        assert_eq!(
            prose("a `<b>` and one ` left").into_string(),
            "a <code>&lt;b&gt;</code> and one ` left"
        );
        assert_eq!(prose("plain").into_string(), "plain");
    }

    #[test]
    fn relative_links_in_a_statement_lead_to_its_files() {
        let html = statement(
            "![board](board.png) [notes](./img/notes.txt) [web](https://example.org/a.png) [top](#top) [site](/exercises) [mail](mailto:a@b.c)\n",
            "/exercises/x/files/",
        )
        .into_string();
        assert!(
            html.contains("src=\"/exercises/x/files/board.png\""),
            "{html}"
        );
        assert!(
            html.contains("href=\"/exercises/x/files/img/notes.txt\""),
            "{html}"
        );
        for kept in [
            "https://example.org/a.png",
            "#top",
            "/exercises\"",
            "mailto:a@b.c",
        ] {
            assert!(html.contains(kept), "{kept}: {html}");
        }
    }

    #[test]
    fn verdicts_are_read_by_their_json_names() {
        assert_eq!(verdict_of("wrong_answer"), Some(Verdict::WrongAnswer));
        assert_eq!(verdict_of("nonsense"), None);
    }
}
