//! Every expected output of the lab's original grading server (CMS task data in
//! tests/data/lab-cms/, copied from the lab) is reproduced by `nimlab reference`, under CMS's own white-diff.

use crate::common::{nimlab, root};

/// CMS white-diff, written independently of nimlab's comparator so the two check each other.
fn white_equal(expected: &str, got: &str) -> bool {
    let canonical = |line: &str| line.split_whitespace().collect::<Vec<_>>().join(" ");
    let e: Vec<&str> = expected.split('\n').collect();
    let g: Vec<&str> = got.split('\n').collect();
    (0..e.len().max(g.len()))
        .all(|i| canonical(e.get(i).unwrap_or(&"")) == canonical(g.get(i).unwrap_or(&"")))
}

#[test]
fn reference_reproduces_every_cms_expected_output() {
    let cms = root().join("tests/data/lab-cms");
    assert!(
        cms.is_dir(),
        "{} is missing: the CMS task data sits beside the checkout",
        cms.display()
    );
    let mut checked = 0;
    for task in std::fs::read_dir(&cms)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
    {
        let name = task.file_name().to_string_lossy().into_owned();
        for input in std::fs::read_dir(task.path().join("input"))
            .unwrap()
            .filter_map(Result::ok)
        {
            let file = input.file_name().to_string_lossy().into_owned();
            let number = file.trim_start_matches("input").trim_end_matches(".txt");
            let expected =
                std::fs::read_to_string(task.path().join(format!("output/output{number}.txt")))
                    .unwrap();
            let output = nimlab()
                .args(["reference", &name])
                .pipe_stdin(input.path())
                .unwrap()
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "{name}/{file}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let got = String::from_utf8(output.stdout).unwrap();
            assert!(
                white_equal(&expected, &got),
                "{name}/{file}: expected {expected:?}, got {got:?}"
            );
            checked += 1;
        }
    }
    // 7 tasks with 5 to 9 cases each in the lab's CMS contest.
    assert_eq!(checked, 46);
}

#[test]
fn the_white_diff_used_here_is_strict_where_cms_is() {
    assert!(white_equal("Nim:\n1: X\n", "Nim:  \n1:   X\n\n"));
    assert!(!white_equal("Nim:\n1: X\n", "Nim: 1: X\n"));
    assert!(!white_equal("[[0, 2, 3], true]", "[[0,2,3],true]"));
}
