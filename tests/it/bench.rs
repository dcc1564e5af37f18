//! `nimlab bench` through the binary: each kind of measurement runs and reports numbers. The
//! numbers themselves depend on the machine, so only their presence and sense are checked;
//! the goals are judged by the command, not here.

use crate::common::{nimlab, number_after};

#[test]
fn bench_times_the_hand_run_both_job_counts_and_isolation() {
    let output = nimlab()
        .args(["bench", "--exercise", "exclusive_or", "--repeat", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.starts_with("exclusive_or: "), "{text}");
    let hand = number_after(&text, "by hand, one start per case:");
    let one = number_after(&text, "nimlab check --jobs 1:");
    let two = number_after(&text, "nimlab check --jobs 2:");
    // Every measurement starts the interpreter once per case: none can be near zero.
    for ms in [hand, one, two] {
        assert!(ms > 50.0, "{text}");
    }
    if text.contains("isolation (bubblewrap):") {
        let per_case = number_after(&text, "isolation (bubblewrap):");
        // Less than the interpreter's start, by hand, per case (12 of them). (A median of
        // paired differences: on a busy machine its noise is the size of a start, and it can
        // come out below zero, so its sign is not asserted; a full test run beside other
        // builds gave -52 to -541 ms against starts of 183 to 1,295 ms.)
        assert!(per_case.abs() < hand / 12.0, "{text}");
        assert!(text.contains("median of 12 paired runs"), "{text}");
    } else {
        assert!(text.contains("isolation: not available here"), "{text}");
    }
}

#[test]
fn bench_times_the_game_judge_apart_from_the_program() {
    let output = nimlab()
        .args(["bench", "--exercise", "working_game", "--repeat", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    let whole = number_after(&text, "per game on average:");
    let program = number_after(&text, "of which the program used");
    let judge = number_after(&text, "and the judge");
    assert!(whole > 0.0 && program > 0.0 && judge >= 0.0, "{text}");
    assert!(program + judge <= whole * 2.0, "{text}");
}

#[test]
fn bench_grades_a_generated_class() {
    let output = nimlab()
        .args(["bench", "--class", "1", "--repeat", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    let count = format!("= {} submissions,", crate::common::exercises().len());
    assert!(text.contains(&count), "{text}");
    assert!(
        number_after(&text, "isolated where possible):") > 0.0,
        "{text}"
    );
    assert!(text.contains("re-run with the cache:"), "{text}");
}

#[test]
fn bench_refuses_zero_repeats_and_unknown_exercises() {
    let output = nimlab().args(["bench", "--repeat", "0"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = nimlab()
        .args(["bench", "--exercise", "chess"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("chess"));
}
