//! nimlab: an automated grader and exercise harness for the game-of-Nim programming lab.
//!
//! The data flows as the modules are laid out: a [`lab`] (exercises and fixtures) is loaded;
//! a submission is run by a [`runner`]; its output is judged ([`judge`], with each exercise's
//! checker or referee in [`exercises`]); [`check`] sends every case through the one grader
//! its exercise's judging chooses; the results become events that [`report`]ers write.
//! ARCHITECTURE.md has the map.

pub mod check;
pub mod deadline;
pub mod error;
pub mod escape;
pub mod exercises;
pub mod exit;
pub mod feedback;
pub mod fixtures;
pub mod fsutil;
pub mod grade;
pub mod interop;
pub mod judge;
pub mod lab;
pub mod lint;
pub mod nim;
pub mod pack;
pub mod pool;
pub mod printed;
pub mod pyjson;
pub mod report;
pub mod runner;
pub mod similarity;
pub mod stop;
pub mod syntax;
pub mod traceback;
pub mod verdict;
