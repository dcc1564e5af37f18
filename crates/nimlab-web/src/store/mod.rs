//! The store: the website's one database (an SQLite file, or PostgreSQL), its schema's steps,
//! and every question the rest asks of it.

pub mod accounts;
pub mod calendar;
pub mod db;
pub mod judging;
mod migrate;
mod pg_connect;
pub mod processes;
pub(crate) mod sigbus;
pub mod site;
pub mod sql;
pub mod submissions;
