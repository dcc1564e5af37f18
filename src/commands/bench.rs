//! `nimlab bench`.

use crate::bench::{Options, Runner, What};
use crate::cli::{BenchArgs, RunnerChoice};
use nimlab_core::error::Result;
use nimlab_core::lab::Lab;

pub fn bench(lab: &Lab, args: &BenchArgs) -> Result<u8> {
    crate::bench::run(lab, &options(args), &mut anstream::stdout())
}

/// The bench's options, from the command line's.
fn options(args: &BenchArgs) -> Options {
    let what = if let Some(students) = args.serve {
        What::Website {
            students,
            workers: None,
            judges: args.judges,
        }
    } else if let Some(students) = args.similarity {
        What::Similarity { students }
    } else if let Some(students) = args.class {
        What::Class {
            students,
            runner: args.runner.map(|runner| match runner {
                RunnerChoice::Process => Runner::Process,
                RunnerChoice::Fork => Runner::Fork,
            }),
        }
    } else {
        What::Exercise
    };
    Options {
        exercise: args.exercise.clone(),
        python: args.python.clone(),
        repeat: args.repeat,
        what,
        db: args.db.clone(),
        compare: args.compare.clone(),
    }
}
