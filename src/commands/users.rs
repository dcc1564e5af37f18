//! `nimlab users import|add|passwd|list|disable|enable|remove`: the website's accounts.

use crate::cli::UsersCommand;
use nimlab_core::error::Result;
use nimlab_core::escape;
use nimlab_web::store::accounts;
use nimlab_web::store::accounts::Role;
use nimlab_web::store::db::Db;
use nimlab_web::users;
use std::io::Write;
use std::path::Path;

pub fn users(command: &UsersCommand) -> Result<u8> {
    match command {
        UsersCommand::Import {
            roster,
            db,
            credentials,
        } => import(roster, db, credentials.as_deref()),
        UsersCommand::Add {
            username,
            db,
            instructor,
            ta,
            full_name,
            random,
        } => {
            let role = match (instructor, ta) {
                (true, _) => Role::Instructor,
                (_, true) => Role::Ta,
                _ => Role::Student,
            };
            add(username, db, role, full_name, *random)
        }
        UsersCommand::Passwd {
            username,
            db,
            random,
        } => passwd(username, db, *random),
        UsersCommand::List { db, roster } => {
            if *roster {
                list_roster(db)
            } else {
                list(db)
            }
        }
        UsersCommand::Disable { username, db } => disable(username, db, true),
        UsersCommand::Enable { username, db } => disable(username, db, false),
        UsersCommand::Remove {
            username,
            db,
            with_submissions,
        } => remove(username, db, *with_submissions),
    }
}

fn import(roster: &Path, db: &Path, credentials: Option<&Path>) -> Result<u8> {
    // The new passwords' file (and the database, if new) are private to their owner.
    nimlab_core::fsutil::private_from_now_on();
    let database = Db::open(db)?;
    let credentials = credentials
        .map(Path::to_path_buf)
        .unwrap_or_else(|| users::default_credentials(roster));
    let done = users::import(&database, roster, &credentials)?;
    println!(
        "{}: {} account(s) added, {} updated",
        nimlab_web::store::db::shown(db),
        done.added,
        done.updated
    );
    if let Some((file, count)) = done.credentials {
        println!(
            "{}: the new password(s) of {count} account(s); hand them out and keep the file private (nimlab keeps only hashes)",
            file.display()
        );
    }
    Ok(nimlab_core::exit::SUCCESS)
}

fn add(username: &str, db: &Path, role: Role, name: &str, random: bool) -> Result<u8> {
    let database = Db::open(db)?;
    let (password, show) = users::obtain_password(random)?;
    let added = users::add(&database, username, name, role, &password)?;
    let what = if added { "added" } else { "updated" };
    println!("{username}: {} account {what}", role.as_str());
    if show {
        println!("password: {password}");
    }
    Ok(nimlab_core::exit::SUCCESS)
}

fn passwd(username: &str, db: &Path, random: bool) -> Result<u8> {
    let database = Db::open(db)?;
    let (password, show) = users::obtain_password(random)?;
    users::passwd(&database, username, &password)?;
    println!("{username}: password changed; the account's sessions are ended");
    if show {
        println!("password: {password}");
    }
    Ok(nimlab_core::exit::SUCCESS)
}

/// One line per account, its columns between tabs: username, role, name, and `disabled`
/// when it is. Each cell is [`escape::one_line`], so a name from a roster or an LMS launch
/// cannot add a line or a column (a forged row).
fn list(db: &Path) -> Result<u8> {
    let database = Db::open(db)?;
    let mut out = std::io::stdout().lock();
    for user in database.with(accounts::users)? {
        writeln!(
            out,
            "{}\t{}\t{}{}",
            escape::one_line(&user.username),
            user.role.as_str(),
            escape::one_line(&user.name),
            if user.disabled { "\tdisabled" } else { "" }
        )
        .map_err(super::stdout_error)?;
    }
    Ok(nimlab_core::exit::SUCCESS)
}

/// Every account as a roster CSV (see [`users::write_roster`]).
fn list_roster(db: &Path) -> Result<u8> {
    let database = Db::open(db)?;
    users::write_roster(&database, std::io::stdout().lock())?;
    Ok(nimlab_core::exit::SUCCESS)
}

fn disable(username: &str, db: &Path, disabled: bool) -> Result<u8> {
    let database = Db::open(db)?;
    users::set_disabled(&database, username, disabled)?;
    if disabled {
        println!("{username}: disabled; it cannot log in and its sessions are ended");
    } else {
        println!("{username}: enabled; it can log in again");
    }
    Ok(nimlab_core::exit::SUCCESS)
}

fn remove(username: &str, db: &Path, with_submissions: bool) -> Result<u8> {
    let database = Db::open(db)?;
    let deleted = users::remove(&database, username, with_submissions)?;
    if with_submissions {
        println!("{username}: removed, with its {deleted} submission(s)");
    } else {
        println!("{username}: removed; its submissions stay under its name");
    }
    Ok(nimlab_core::exit::SUCCESS)
}
