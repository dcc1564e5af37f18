//! `nimlab deadline set|extend|list|clear`: the website's deadlines and extensions.

use crate::cli::DeadlineCommand;
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_web::deadlines;
use nimlab_web::store::db::Db;
use std::path::Path;

pub fn deadline(lab: &Lab, command: &DeadlineCommand) -> Result<u8> {
    match command {
        DeadlineCommand::Set {
            exercise,
            when,
            late_until,
            late_penalty,
            db,
        } => {
            // Everything typed is checked before the database is opened or written.
            deadlines::exercises(lab, exercise)?;
            let policy = deadlines::policy(when, late_until.as_deref(), *late_penalty)?;
            let names = deadlines::set(&open(db)?, lab, exercise, &policy)?;
            println!("{}: {}", names.join(", "), deadlines::describe(&policy));
        }
        DeadlineCommand::Extend {
            student,
            exercise,
            until,
            db,
        } => {
            deadlines::exercises(lab, exercise)?;
            nimlab_core::deadline::parse_time(until)
                .map_err(|e| Error::usage(format!("the extension: {e}")))?;
            let (names, until) = deadlines::extend(&open(db)?, lab, student, exercise, until)?;
            println!(
                "{student}: due {} for {}; the late period moves with it",
                nimlab_core::deadline::display(until),
                names.join(", ")
            );
        }
        DeadlineCommand::List { db } => {
            let mut out = std::io::stdout().lock();
            for line in deadlines::list(&open(db)?, lab)? {
                std::io::Write::write_fmt(&mut out, format_args!("{line}\n"))
                    .map_err(super::stdout_error)?;
            }
        }
        DeadlineCommand::Clear {
            exercise,
            student,
            db,
        } => {
            deadlines::exercises(lab, exercise)?;
            let count = deadlines::clear(&open(db)?, lab, exercise, student.as_deref())?;
            match student {
                Some(student) => println!("{student}: {count} extension(s) removed"),
                None => println!("{count} deadline(s) removed"),
            }
        }
    }
    Ok(nimlab_core::exit::SUCCESS)
}

/// The website's database, which must exist: deadlines are set for a class that has one.
fn open(db: &Path) -> Result<Db> {
    Db::open_existing(db)
}
