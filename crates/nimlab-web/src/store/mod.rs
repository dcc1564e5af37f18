//! The store: the website's one database (an SQLite file, or PostgreSQL), its schema's steps,
//! and every question the rest asks of it.

pub mod db;
mod migrate;
mod pg_connect;
pub(crate) mod sigbus;
pub mod sql;
