//! The submission lists' query (`/submissions` and `GET /api/submissions`): filters by
//! student, exercise, verdict and dates, and the page asked for, read into a [`submissions::Filter`]
//! that a student's own id always narrows.

use crate::http::fail::Fail;
use crate::store::accounts::User;
use crate::store::submissions;
use serde::Deserialize;

/// Rows on a page of `/submissions`.
pub const PAGE_SIZE: usize = 50;
/// The most rows the API gives at once when asked for a page.
pub const MAX_LIMIT: usize = 500;

/// The list's query parameters, as typed in the form (empty fields mean "any").
#[derive(Deserialize, Default, Debug, Clone)]
pub struct ListQuery {
    pub student: Option<String>,
    pub exercise: Option<String>,
    pub verdict: Option<String>,
    /// Days in UTC, `YYYY-MM-DD`, both included.
    pub from: Option<String>,
    pub to: Option<String>,
    pub page: Option<usize>,
    pub limit: Option<usize>,
}

fn given(value: Option<&String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Milliseconds at the start of a UTC day written `YYYY-MM-DD`.
pub fn day_start_ms(text: &str) -> Option<i64> {
    let mut parts = text.splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next()?.parse().ok()?;
    let day: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || !(1970..=9999).contains(&year) {
        return None;
    }
    // Howard Hinnant's days-from-civil (the inverse of `views::time`).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400_000)
}

fn day(name: &str, text: Option<String>) -> Result<Option<i64>, Fail> {
    match text {
        None => Ok(None),
        Some(text) => day_start_ms(&text).map(Some).ok_or_else(|| {
            Fail::bad_request(format!("{name}={text}: write a day as YYYY-MM-DD (UTC)"))
        }),
    }
}

impl ListQuery {
    /// The filter for `user`: a student's own submissions only (a `student` asked for is
    /// ignored), everyone's for staff; `page_size` rows from page `page` (1 first), or every
    /// row when None.
    pub fn filter(
        &self,
        user: &User,
        page_size: Option<usize>,
    ) -> Result<submissions::Filter, Fail> {
        let staff = user.is_staff();
        let from_ms = day("from", given(self.from.as_ref()))?;
        // The `to` day is included: up to the start of the next one.
        let until_ms = day("to", given(self.to.as_ref()))?.map(|start| start + 86_400_000);
        let page = self.page.unwrap_or(1).max(1);
        Ok(submissions::Filter {
            user_id: (!staff).then_some(user.id),
            username: given(self.student.as_ref()).filter(|_| staff),
            exercise: given(self.exercise.as_ref()),
            verdict: given(self.verdict.as_ref()),
            from_ms,
            until_ms,
            limit: page_size,
            offset: page_size.map_or(0, |size| (page - 1).saturating_mul(size)),
        })
    }

    /// The page asked for (1 first).
    pub fn page(&self) -> usize {
        self.page.unwrap_or(1).max(1)
    }

    /// The query again with another page, for the next and previous links.
    pub fn with_page(&self, page: usize) -> String {
        let mut pairs: Vec<(&str, String)> = [
            ("student", &self.student),
            ("exercise", &self.exercise),
            ("verdict", &self.verdict),
            ("from", &self.from),
            ("to", &self.to),
        ]
        .into_iter()
        .filter_map(|(key, value)| given(value.as_ref()).map(|v| (key, v)))
        .collect();
        pairs.push(("page", page.to_string()));
        pairs
            .iter()
            .map(|(key, value)| format!("{key}={}", crate::views::urls::percent_encode(value)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// Whether any filter is set.
    pub fn filtered(&self) -> bool {
        [
            &self.student,
            &self.exercise,
            &self.verdict,
            &self.from,
            &self.to,
        ]
        .iter()
        .any(|v| given(v.as_ref()).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_read_in_utc() {
        assert_eq!(day_start_ms("1970-01-01"), Some(0));
        assert_eq!(
            day_start_ms("2024-02-29"),
            Some(1_709_251_199_000 + 1000 - 86_400_000)
        );
        assert_eq!(day_start_ms("2024-13-01"), None);
        assert_eq!(day_start_ms("yesterday"), None);
    }
}
