//! What the website serves: the lab the last web process set, and the counts on its pages.

use crate::store::sql::{Conn, Optional, SqlResult};
use crate::store::submissions::Status;

/// The lab the website serves, as the last web process to start set it: judges take jobs
/// only when theirs is the same.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SiteLab {
    pub digest: String,
    /// The lab as its origin names it.
    pub lab: String,
    /// The nimlab version of the web process.
    pub nimlab: String,
    /// The web process that set it.
    pub by: String,
}

pub fn set_site_lab(c: &mut Conn, lab: &SiteLab) -> SqlResult<()> {
    let value = serde_json::to_string(lab).expect("a site lab serializes");
    c.execute(
        "INSERT INTO site (name, value) VALUES ('lab', ?1)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        [value],
    )?;
    Ok(())
}

/// None before any web process started (or if the row cannot be read as one).
pub fn site_lab(c: &mut Conn) -> SqlResult<Option<SiteLab>> {
    let value: Option<String> = c
        .query_row("SELECT value FROM site WHERE name = 'lab'", [], |r| {
            r.get("value")
        })
        .optional()?;
    Ok(value.and_then(|v| serde_json::from_str(&v).ok()))
}

/// Counts by status, for the queue page.
pub fn counts(c: &mut Conn) -> SqlResult<Vec<(Status, i64)>> {
    c.query(
        "SELECT status, COUNT(*) AS total FROM submissions GROUP BY status ORDER BY status",
        [],
        |r| {
            Ok((
                Status::parse(&r.get::<_, String>("status")?),
                r.get("total")?,
            ))
        },
    )
}
