//! `nimlab bench`.

use crate::cli::BenchArgs;
use crate::error::Result;
use crate::lab::Lab;

pub fn bench(lab: &Lab, args: &BenchArgs) -> Result<u8> {
    crate::bench::run(lab, args, &mut anstream::stdout())
}
