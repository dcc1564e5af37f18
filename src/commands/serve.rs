//! `nimlab serve` and `nimlab backup`.

use crate::cli::{GradesFrom, ServeArgs};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_web::ServeOptions;
use std::path::Path;

fn grades_from(from: GradesFrom) -> nimlab_web::GradesFrom {
    match from {
        GradesFrom::Best => nimlab_web::GradesFrom::Best,
        GradesFrom::Latest => nimlab_web::GradesFrom::Latest,
    }
}

pub fn serve(lab: Lab, args: &ServeArgs) -> Result<u8> {
    if args.max_upload_kb == 0 {
        return Err(Error::usage("--max-upload-kb must be at least 1"));
    }
    if args.max_queued == 0 {
        return Err(Error::usage("--max-queued must be at least 1"));
    }
    for origin in &args.origins {
        if !(origin.starts_with("http://") || origin.starts_with("https://")) {
            return Err(Error::usage(format!(
                "--origin {origin}: write the site's origin as https://HOST (or http://HOST:PORT)"
            )));
        }
    }
    if args.lease < 2 {
        return Err(Error::usage(
            "--lease must be at least 2 seconds (it is renewed every quarter of it)",
        ));
    }
    let mut options = ServeOptions::new(args.db.clone());
    options.web = !args.no_web;
    options.lease = std::time::Duration::from_secs(args.lease);
    options.listen = args.listen.clone();
    if let Some(workers) = args.workers {
        options.workers = workers;
    }
    options.secure_cookies = args.secure_cookies;
    options.behind_proxy = args.proxy;
    options.lti_frames = args.lti_frames;
    options.origins = args.origins.clone();
    options.max_upload_bytes = args.max_upload_kb * 1024;
    options.max_queued = args.max_queued;
    options.grades_from = grades_from(args.grades_from);
    options.fork = args.runner == crate::cli::RunnerChoice::Fork;
    // Test-only: how soon a score an LMS did not take is sent again.
    if let Some(ms) = std::env::var("NIMLAB_LTI_RETRY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        options.lti_retry = std::time::Duration::from_millis(ms);
    }
    nimlab_web::serve(lab, &options)
}

pub fn backup(db: &Path, out: &Path) -> Result<u8> {
    nimlab_web::backup(db, out)?;
    println!(
        "{}: a copy of {}",
        out.display(),
        nimlab_web::store::db::shown(db)
    );
    Ok(nimlab_core::exit::SUCCESS)
}

pub fn restore(backup: &Path, db: &Path) -> Result<u8> {
    let rows = nimlab_web::restore(backup, db)?;
    println!(
        "{}: the course in {} ({rows} row(s)); serve it with `nimlab serve --db URI`",
        nimlab_web::store::db::shown(db),
        backup.display()
    );
    Ok(nimlab_core::exit::SUCCESS)
}

/// `nimlab export submissions`: the website's submissions as a class folder.
pub fn export_submissions(lab: &Lab, db: &Path, out: &Path, from: GradesFrom) -> Result<u8> {
    let database = nimlab_web::store::db::Db::open_existing(db)?;
    let count = nimlab_web::export_submissions(lab, &database, grades_from(from), out)?;
    println!(
        "{}: {count} submission(s), roster.csv and deadlines.json; grade them with `nimlab grade {} --out OUT --roster {}`",
        out.display(),
        out.display(),
        out.join("roster.csv").display()
    );
    Ok(nimlab_core::exit::SUCCESS)
}
