//! The work behind the pages: the judging workers and the queue they take from, and this
//! process among the others on one database.

pub mod cluster;
pub mod queue;
pub(crate) mod signal;
