//! Accounts from the command line: a roster imported (with random passwords written once to
//! a credentials file for the instructor), one account added, a password changed, an
//! account disabled, enabled or removed.

use crate::auth;
use crate::store::accounts;
use crate::store::accounts::{NewUser, Role};
use crate::store::db::Db;
use nimlab_core::error::{Error, Result};
use nimlab_core::escape;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Whether a username is one nimlab accepts: 1 to 64 letters, digits and `. _ - @ +`.
pub fn check_username(username: &str) -> std::result::Result<(), String> {
    if username.is_empty() || username.chars().count() > 64 {
        return Err(format!(
            "username `{username}` must have 1 to 64 characters"
        ));
    }
    if !username.starts_with(|c: char| c.is_alphanumeric()) {
        return Err(format!(
            "username `{username}` must start with a letter or digit"
        ));
    }
    if let Some(bad) = username
        .chars()
        .find(|c| !(c.is_alphanumeric() || "._-@+".contains(*c)))
    {
        return Err(format!(
            "username `{username}` has `{bad}`: use only letters, digits and . _ - @ +"
        ));
    }
    Ok(())
}

fn check_password(password: &str) -> Result<()> {
    if password.chars().count() < auth::MIN_PASSWORD_CHARS {
        return Err(Error::usage(format!(
            "the password is too short: use at least {} characters",
            auth::MIN_PASSWORD_CHARS
        )));
    }
    Ok(())
}

/// Every account (not removed) as a roster CSV, to `out`: the columns `users import` reads
/// (all but the password) and whether the account is disabled, which import ignores. Each
/// cell is made safe to open in a spreadsheet.
pub fn write_roster(database: &Db, out: impl std::io::Write) -> Result<()> {
    let entries = database.with(accounts::roster)?;
    let failed =
        |e: csv::Error| Error::internal("cannot write the roster", std::io::Error::other(e));
    let mut writer = csv::Writer::from_writer(out);
    writer
        .write_record([
            "username",
            "name",
            "id",
            "section",
            "role",
            "email",
            "lms_id",
            "lms_issuer",
            "lms_client_id",
            "disabled",
        ])
        .map_err(failed)?;
    for entry in &entries {
        let user = &entry.user;
        let cells = [
            user.username.as_str(),
            &user.name,
            &user.student_id,
            &user.section,
            user.role.as_str(),
            &entry.email,
            &entry.lms_id,
            &entry.lms_issuer,
            &entry.lms_client_id,
            if user.disabled { "yes" } else { "" },
        ];
        writer
            .write_record(cells.iter().map(|cell| escape::csv_cell(cell).into_owned()))
            .map_err(failed)?;
    }
    writer
        .flush()
        .map_err(|e| Error::internal("cannot write the roster", e))
}

struct RosterRow {
    user: NewUser,
    password: Option<String>,
    /// The `role` column's, when the roster has one and the cell is not empty.
    role: Option<Role>,
}

/// Reads a roster: a header with `username` (required; `student`, the column `nimlab grade
/// --roster` reads, is taken where there is no `username`, so one file serves both) and
/// optionally `name`, `password`, `id`, `section`, `role` (`student`, `ta` or `instructor`).
fn read_roster(path: &Path) -> Result<Vec<RosterRow>> {
    let bytes = std::fs::read(path).map_err(|e| Error::unreadable(path, &e))?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(bytes.as_slice());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::input(path, format!("cannot read the header row: {e}")))?
        .iter()
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_lowercase())
        .collect();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let username = column("username").or_else(|| column("student")).ok_or_else(|| {
        Error::input(
            path,
            format!(
                "the roster needs a `username` column (or `student`, as `nimlab grade --roster` has it; and may have `name`, `password`, `id`, `section`, `role`, and for LMS launches `email`, `lms_id`, `lms_issuer` and `lms_client_id`); its header is: {}",
                headers.join(", ")
            ),
        )
    })?;
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(index + 2, |p| p.line() as usize);
            Error::input(path, format!("row {line} is malformed: {e}"))
        })?;
        // The line in the file (blank lines are skipped by the reader, not by people).
        let line = record.position().map_or(index + 2, |p| p.line() as usize);
        let get = |i: Option<usize>| i.and_then(|i| record.get(i)).unwrap_or("").to_string();
        let name = get(Some(username));
        if name.is_empty() && record.iter().all(str::is_empty) {
            continue; // a blank line
        }
        check_username(&name).map_err(|e| Error::input(path, format!("row {line}: {e}")))?;
        if !seen.insert(name.clone()) {
            return Err(Error::input(
                path,
                format!("row {line}: username `{name}` appears twice"),
            ));
        }
        let password = Some(get(column("password"))).filter(|p| !p.is_empty());
        if let Some(password) = &password
            && password.chars().count() < auth::MIN_PASSWORD_CHARS
        {
            return Err(Error::input(
                path,
                format!(
                    "row {line}: the password for `{name}` is shorter than {} characters",
                    auth::MIN_PASSWORD_CHARS
                ),
            ));
        }
        let role = role_cell(&get(column("role")))
            .map_err(|why| Error::input(path, format!("row {line}: the role of `{name}` {why}")))?;
        let (lms_id, lms_issuer) =
            lms_identity(get(column("lms_id")), get(column("lms_issuer")))
                .map_err(|why| Error::input(path, format!("row {line}: `{name}` {why}")))?;
        // Several registrations may share an issuer (every school on Canvas's cloud does):
        // the client id names which one a roster's lms_id belongs to.
        let lms_client_id = if lms_id.is_empty() {
            String::new()
        } else {
            get(column("lms_client_id"))
        };
        rows.push(RosterRow {
            role,
            user: NewUser {
                username: name,
                name: get(column("name")),
                student_id: get(column("id")),
                section: get(column("section")),
                lms_id,
                lms_issuer,
                lms_client_id,
                email: get(column("email")),
            },
            password,
        });
    }
    Ok(rows)
}

/// A roster's `role` cell: a role, or none when empty.
fn role_cell(text: &str) -> std::result::Result<Option<Role>, String> {
    match text.to_lowercase().as_str() {
        "" => Ok(None),
        text => Role::from_name(text).map(Some).ok_or_else(|| {
            format!("is `{text}`: write student, ta or instructor (or leave it empty)")
        }),
    }
}

/// A roster row's LMS user id and its platform's issuer: both or neither (a subject is
/// unique only within its platform, so an id alone names no one).
fn lms_identity(id: String, issuer: String) -> std::result::Result<(String, String), String> {
    match (id.is_empty(), issuer.is_empty()) {
        (true, _) => Ok((String::new(), String::new())),
        (false, false) => Ok((id, issuer)),
        (false, true) => Err(
            "has an lms_id but no lms_issuer: an LMS's user ids are its own, so give the issuer of the platform it belongs to (as `nimlab lti list` shows it)"
                .to_string(),
        ),
    }
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    pub added: usize,
    pub updated: usize,
    /// Accounts given a random password, written to this file.
    pub credentials: Option<(PathBuf, usize)>,
}

/// The credentials file's default place: beside the roster, `NAME-credentials.csv`.
pub fn default_credentials(roster: &Path) -> PathBuf {
    let stem = roster
        .file_stem()
        .map_or("roster".into(), |s| s.to_string_lossy().into_owned());
    roster.with_file_name(format!("{stem}-credentials.csv"))
}

/// Imports a roster: new accounts get the roster's role (students where it has none) and
/// its password or a random one (written to `credentials`, which must not exist yet: it is
/// written once); existing ones keep their role unless the roster names one, and their
/// password unless the roster gives one, and get its name, id and section.
pub fn import(db: &Db, roster: &Path, credentials: &Path) -> Result<Imported> {
    let rows = read_roster(roster)?;
    // Existing accounts keep their role: an instructor on the roster stays an instructor.
    let existing: std::collections::HashMap<String, Role> = db
        .with(accounts::users)?
        .into_iter()
        .map(|u| (u.username, u.role))
        .collect();
    let mut generated = Vec::new();
    let mut work: Vec<(NewUser, Option<String>, Option<Role>)> = Vec::new();
    for row in rows {
        let password = match row.password {
            Some(p) => Some(p),
            None if existing.contains_key(&row.user.username) => None,
            None => {
                let p = auth::random_password();
                generated.push((row.user.clone(), p.clone()));
                Some(p)
            }
        };
        work.push((row.user, password, row.role));
    }
    if !generated.is_empty() && credentials.exists() {
        return Err(Error::input(
            credentials,
            "already exists; nimlab writes new passwords to a new file only (name another with --credentials)",
        ));
    }
    // Hashing is slow on purpose: spread it over the cores.
    let mut hashed: Vec<Option<Option<String>>> = vec![None; work.len()];
    nimlab_core::pool::run(
        &work,
        nimlab_core::pool::default_jobs(),
        nimlab_core::stop::Stop::never(),
        |_, (_, password, _)| password.as_deref().map(auth::hash_password).transpose(),
        |index, hash| {
            hashed[index] = Some(hash?);
            Ok::<(), Error>(())
        },
    )?;
    let mut report = Imported::default();
    let refused = db.with(|c| {
        let mut tx = c.immediate()?;
        for ((user, _, named), hash) in work.iter().zip(&hashed) {
            let hash = hash.as_ref().and_then(|h| h.as_deref());
            let role = named
                .or_else(|| existing.get(&user.username).copied())
                .unwrap_or(Role::Student);
            // Dropped uncommitted: a refused roster changes no account.
            if let Some(why) = accounts::launched_account_refusal(&mut tx, &user.username, role)? {
                return Ok(Some(why));
            }
            if accounts::upsert_user(&mut tx, user, role, hash)? {
                report.added += 1;
            } else {
                report.updated += 1;
            }
        }
        tx.commit().map(|()| None)
    })?;
    if let Some(why) = refused {
        return Err(Error::input(roster, why));
    }
    if !generated.is_empty() {
        write_credentials(credentials, &generated)?;
        report.credentials = Some((credentials.to_path_buf(), generated.len()));
    }
    Ok(report)
}

/// The new accounts' random passwords, in a file that did not exist before.
fn write_credentials(credentials: &Path, generated: &[(NewUser, String)]) -> Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let write_error =
        |e: csv::Error| Error::internal("cannot write the credentials", std::io::Error::other(e));
    writer
        .write_record(["username", "name", "password"])
        .map_err(write_error)?;
    for (user, password) in generated {
        writer
            .write_record([
                user.username.as_str(),
                &nimlab_core::escape::csv_cell(&user.name),
                password,
            ])
            .map_err(write_error)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| Error::internal("cannot write the credentials", e.into_error()))?;
    nimlab_core::fsutil::write_new(credentials, &bytes)
        .map_err(|e| Error::unwritable(credentials, e))
}

/// A password for `users add` or `users passwd`: random (to print), typed twice at a
/// terminal without echo, or the first line of stdin.
pub fn obtain_password(random: bool) -> Result<(String, bool)> {
    if random {
        return Ok((auth::random_password(), true));
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        let first = read_hidden("New password: ")?;
        let second = read_hidden("Again: ")?;
        if first != second {
            return Err(Error::usage(
                "the two passwords differ; nothing was changed",
            ));
        }
        check_password(&first)?;
        return Ok((first, false));
    }
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdin.lock(), &mut line)
        .map_err(|e| Error::internal("cannot read the password from stdin", e))?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    if password.is_empty() {
        return Err(Error::usage(
            "no password: type it at a terminal, pipe it on stdin, or pass --random",
        ));
    }
    check_password(&password)?;
    Ok((password, false))
}

/// Reads a line from the terminal with echo off.
fn read_hidden(prompt: &str) -> Result<String> {
    eprint!("{prompt}");
    let fd = libc::STDIN_FILENO;
    // SAFETY: termios is plain data; tcgetattr fills it for a terminal fd.
    let mut saved: libc::termios = unsafe { std::mem::zeroed() };
    let quiet = unsafe { libc::tcgetattr(fd, &mut saved) } == 0;
    if quiet {
        let mut silent = saved;
        silent.c_lflag &= !libc::ECHO;
        // SAFETY: a termios read from this fd, with echo cleared.
        unsafe { libc::tcsetattr(fd, libc::TCSANOW, &silent) };
    }
    let mut line = String::new();
    let read = std::io::BufRead::read_line(&mut std::io::stdin().lock(), &mut line);
    if quiet {
        // SAFETY: restores the settings read above.
        unsafe { libc::tcsetattr(fd, libc::TCSANOW, &saved) };
        eprintln!();
    }
    read.map_err(|e| Error::internal("cannot read the password", e))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// Adds an account (or changes its role and name); its password is set.
pub fn add(db: &Db, username: &str, name: &str, role: Role, password: &str) -> Result<bool> {
    check_username(username).map_err(Error::usage)?;
    let hash = auth::hash_password(password)?;
    let user = NewUser {
        username: username.to_string(),
        name: name.to_string(),
        ..NewUser::default()
    };
    db.with(|c| {
        // Keep what an import set, unless told otherwise.
        let old = accounts::find_user(c, username)?;
        let user = match &old {
            Some((existing, _)) => NewUser {
                name: if name.is_empty() {
                    existing.name.clone()
                } else {
                    name.to_string()
                },
                student_id: existing.student_id.clone(),
                section: existing.section.clone(),
                ..user
            },
            None => user,
        };
        if let Some(why) = accounts::launched_account_refusal(c, username, role)? {
            return Ok(Err(why));
        }
        accounts::upsert_user(c, &user, role, Some(&hash)).map(Ok)
    })?
    .map_err(Error::usage)
}

/// Sets an account's password; its sessions end.
pub fn passwd(db: &Db, username: &str, password: &str) -> Result<()> {
    let hash = auth::hash_password(password)?;
    let found = db.with(|c| accounts::find_user(c, username))?;
    let Some((user, _)) = found else {
        return Err(Error::usage(format!(
            "no account `{username}` in {}",
            db.shown()
        )));
    };
    db.with(|c| accounts::set_password(c, user.id, &hash))
}

fn no_account(db: &Db, username: &str) -> Error {
    Error::usage(format!("no account `{username}` in {}", db.shown()))
}

/// Disables (or enables) an account; a disabled one's sessions end.
pub fn set_disabled(db: &Db, username: &str, disabled: bool) -> Result<()> {
    if db.with(|c| accounts::set_disabled(c, username, disabled))? {
        Ok(())
    } else {
        Err(no_account(db, username))
    }
}

/// Removes an account (its submissions too with `with_submissions`); returns how many
/// submissions were deleted.
pub fn remove(db: &Db, username: &str, with_submissions: bool) -> Result<usize> {
    db.with(|c| accounts::remove_user(c, username, with_submissions))?
        .ok_or_else(|| no_account(db, username))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_plain() {
        assert!(check_username("ada.lovelace@uni.example").is_ok());
        assert!(check_username("").is_err());
        assert!(check_username("a b").unwrap_err().contains("` `"));
        assert!(check_username("../x").is_err());
        assert!(check_username("=cmd").is_err());
    }

    #[test]
    fn a_roster_without_usernames_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let roster = dir.path().join("roster.csv");
        std::fs::write(&roster, "login,name\nada,Ada\n").unwrap();
        let error = read_roster(&roster).err().unwrap().to_string();
        assert!(
            error.contains("roster.csv") && error.contains("`username` column"),
            "{error}"
        );
    }

    #[test]
    fn the_graders_roster_with_its_student_column_is_read_as_usernames() {
        let dir = tempfile::tempdir().unwrap();
        let roster = dir.path().join("roster.csv");
        std::fs::write(&roster, "student,name,id\nada,Ada,1001\n").unwrap();
        let rows = read_roster(&roster).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].user.username, "ada");
        assert_eq!(rows[0].user.student_id, "1001");
    }

    #[test]
    fn a_repeated_username_is_refused_with_its_row() {
        let dir = tempfile::tempdir().unwrap();
        let roster = dir.path().join("roster.csv");
        std::fs::write(
            &roster,
            "username,name\nada,Ada\n\ngrace,Grace\nada,Ada again\n",
        )
        .unwrap();
        let error = read_roster(&roster).err().unwrap().to_string();
        assert!(
            error.contains("row 5") && error.contains("twice"),
            "{error}"
        );
    }
}
