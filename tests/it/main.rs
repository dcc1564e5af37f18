//! nimlab's integration tests, in one test binary: each module drives the real `nimlab`
//! binary (or the library, where a test needs its types) the way a user, an instructor or a
//! contest system would. Shared helpers are in `common`; data is in tests/data,
//! tests/submissions (the corpus of student mistakes) and tests/demo-class.

mod common;

mod bench;
mod book;
mod classroom;
mod cli;
mod cms;
mod fast_path;
mod fresh_runs;
mod game;
mod game_styles;
mod grade;
mod hostile;
mod interop;
mod interrupt;
mod kattis_tools;
mod lab_solutions;
mod misere;
mod mistakes;
mod properties;
mod reports;
mod serve;
mod similarity;
mod tenth_exercise;
mod wheel;
