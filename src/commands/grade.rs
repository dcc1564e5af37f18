//! `nimlab grade` and `nimlab merge`: a class folder into a gradebook and reports.

use crate::cli::GradeArgs;
use nimlab_core::error::Result;
use nimlab_core::exit;
use nimlab_core::lab::Lab;
use nimlab_core::stop::Stop;
use std::path::{Path, PathBuf};

pub fn grade(lab: &Lab, args: &GradeArgs) -> Result<u8> {
    // Grades, reports and the cache of students' results are private to their owner.
    nimlab_core::fsutil::private_from_now_on();
    let options = nimlab_core::grade::GradeOptions {
        dir: &args.dir,
        out: &args.out,
        interpreters: args.python.clone(),
        jobs: match args.jobs {
            None => nimlab_core::grade::default_jobs(args.runner == crate::cli::RunnerChoice::Fork),
            requested => super::jobs(requested)?,
        },
        roster: args.roster.as_deref(),
        shard: args.shard,
        force: args.force,
        runner: super::runner(args.runner),
        // Ctrl-C stops the programs running and keeps what has finished.
        stop: Stop::on_ctrl_c(),
    };
    nimlab_core::grade::run(lab, &options, &mut anstream::stdout())?;
    Ok(if options.stop.requested() {
        exit::INTERRUPTED
    } else {
        exit::SUCCESS
    })
}

pub fn merge(parts: &[PathBuf], out: &Path) -> Result<u8> {
    nimlab_core::fsutil::private_from_now_on();
    nimlab_core::grade::merge_folders(parts, out, &mut anstream::stdout())?;
    Ok(exit::SUCCESS)
}
