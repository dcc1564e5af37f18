//! `nimlab bench`.

use crate::cli::BenchArgs;
use crate::error::Result;
use crate::lab::Lab;

pub fn bench(lab: &Lab, args: &BenchArgs) -> Result<u8> {
    if let Some(students) = args.serve {
        return crate::bench::website::run(lab, students, None, &mut anstream::stdout());
    }
    crate::bench::run(lab, args, &mut anstream::stdout())
}
