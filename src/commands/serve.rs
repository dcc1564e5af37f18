//! `nimlab serve` and `nimlab backup`.

use crate::cli::{GradesFrom, ServeArgs};
use crate::error::{Error, Result};
use crate::lab::Lab;
use crate::serve::{self, ServeOptions};
use std::path::Path;

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
    let mut options = ServeOptions::new(args.db.clone());
    options.listen = args.listen.clone();
    if let Some(workers) = args.workers {
        options.workers = workers;
    }
    options.secure_cookies = args.secure_cookies;
    options.origins = args.origins.clone();
    options.max_upload_bytes = args.max_upload_kb * 1024;
    options.max_queued = args.max_queued;
    options.grades_from = match args.grades_from {
        GradesFrom::Best => serve::GradesFrom::Best,
        GradesFrom::Latest => serve::GradesFrom::Latest,
    };
    serve::serve(lab, &options)
}

pub fn backup(db: &Path, out: &Path) -> Result<u8> {
    serve::backup(db, out)?;
    println!("{}: a copy of {}", out.display(), db.display());
    Ok(crate::exit::SUCCESS)
}
