//! The pages, as maud templates: every value is escaped for HTML unless marked otherwise
//! (only the statement's Markdown, rendered with raw HTML disabled, and the fixed script).

pub(crate) mod assets;
pub(crate) mod urls;

mod account;
mod exercises;
mod layout;
mod report;
mod similarity;
mod staff;
mod submissions;

pub use account::*;
pub use exercises::*;
pub use layout::*;
pub use similarity::*;
pub use staff::*;
pub use submissions::*;
