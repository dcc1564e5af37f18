//! `nimlab similarity`: a class's programs compared exercise by exercise, through the binary.
//! The labelled class in tests/data/similarity scores the ranking; small classes made here
//! check the starter code, the reports' escaping and bad input.

use crate::common::{nimlab, root};
use serde_json::Value;
use std::path::Path;

/// The lab's starter for nim_sum with the three bodies given.
fn nim_sum(bodies: [&str; 3]) -> String {
    let stub = std::fs::read_to_string(root().join("exercises/nim_sum/stub.py")).unwrap();
    let mut source = stub;
    for body in bodies {
        let at = source
            .find("    # Your code here.\n")
            .expect("the stub has three bodies");
        let end = at + source[at..].find("return").unwrap();
        let end = end + source[end..].find('\n').unwrap() + 1;
        source.replace_range(at..end, body);
    }
    source
}

fn write(dir: &Path, student: &str, exercise: &str, source: &str) {
    std::fs::create_dir_all(dir.join(student)).unwrap();
    std::fs::write(dir.join(student).join(format!("{exercise}.py")), source).unwrap();
}

fn similarity_json(dir: &Path) -> Value {
    similarity_json_with(dir, &[])
}

/// `nimlab similarity DIR --format json` with `more` arguments.
fn similarity_json_with(dir: &Path, more: &[&std::ffi::OsStr]) -> Value {
    let output = nimlab()
        .arg("similarity")
        .arg(dir)
        .args(["--format", "json"])
        .args(more)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

const USUAL: [&str; 3] = [
    "    total = 0\n    for row in board:\n        total ^= row\n    return total\n",
    "    return nim_sum(board) == 0\n",
    "    return nim_sum(board) != 0\n",
];

/// An unusual nim_sum, and the same renamed, recommented and with a debugging line.
const UNUSUAL: [&str; 3] = [
    "    # walk the rows from the end\n    result = 0\n    position = len(board) - 1\n    while position >= 0:\n        result = result ^ board[position]\n        position -= 1\n    return result\n",
    "    if nim_sum(board) == 0:\n        return True\n    return False\n",
    "    value = nim_sum(board)\n    return value > 0 or value < 0\n",
];
const DISGUISED: [&str; 3] = [
    "    # from the last row back\n    acc = 0\n    k = len(board) - 1\n    while k >= 0:\n        print('k', k)\n        acc = acc ^ board[k]\n        k = k - 1\n    return acc\n",
    "    if nim_sum(board) == 0:\n        return True\n    return False\n",
    "    s = nim_sum(board)\n    return s > 0 or s < 0\n",
];

#[test]
fn a_disguised_copy_stands_out_and_the_usual_answer_and_the_starter_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path();
    for student in ["ana", "bea", "caio", "dani", "edu", "fabi"] {
        write(class, student, "nim_sum", &nim_sum(USUAL));
    }
    let stub = std::fs::read_to_string(root().join("exercises/nim_sum/stub.py")).unwrap();
    write(class, "gil", "nim_sum", &stub);
    write(class, "hana", "nim_sum", &stub);
    write(class, "ivo", "nim_sum", &nim_sum(UNUSUAL));
    write(class, "joao", "nim_sum", &nim_sum(DISGUISED));
    let report = similarity_json(class);
    let pairs = report["pairs"].as_array().unwrap();
    let top = &pairs[0];
    assert_eq!(
        (top["a"].as_str(), top["b"].as_str()),
        (Some("ivo"), Some("joao")),
        "{top:#}"
    );
    assert_eq!(top["flagged"], true);
    let reasons = top["reasons"].as_array().unwrap();
    assert!(
        reasons[0].as_str().unwrap().contains("no other student"),
        "{reasons:?}"
    );
    assert!(!top["fragments"].as_array().unwrap().is_empty());
    // The usual answer, written by six, and the untouched starter are not flagged.
    let flagged: Vec<&Value> = pairs.iter().filter(|p| p["flagged"] == true).collect();
    assert_eq!(flagged.len(), 1, "{flagged:#?}");
    assert!(
        pairs.iter().all(|p| p["a"] != "gil" || p["b"] != "hana"),
        "the starter alone is shared"
    );
    assert_eq!(report["exercises"][0]["students"], 10);
    assert!(
        report["caution"]
            .as_str()
            .unwrap()
            .contains("never a verdict")
    );
}

#[test]
fn names_and_code_reach_the_reports_escaped_and_the_reports_stay_private() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let hostile = "<img src=x onerror=alert(1)>\u{1b}[2J";
    write(
        &class,
        hostile,
        "nim_sum",
        &nim_sum(UNUSUAL).replace("# walk", "# </pre><script>alert(2)</script> walk"),
    );
    write(&class, "joao", "nim_sum", &nim_sum(DISGUISED));
    for student in ["ana", "bea", "caio"] {
        write(&class, student, "nim_sum", &nim_sum(USUAL));
    }
    let out = dir.path().join("out");
    let output = nimlab()
        .arg("similarity")
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(!printed.contains('\u{1b}'), "{printed}");
    assert!(printed.contains("\\x1b[2J"), "{printed}");
    let html = std::fs::read_to_string(out.join("similarity.html")).unwrap();
    assert!(!html.contains("<img") && !html.contains("<script>") && !html.contains('\u{1b}'));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(
        html.contains("&lt;/pre&gt;&lt;script&gt;"),
        "the code is shown, escaped"
    );
    let json: Value =
        serde_json::from_slice(&std::fs::read(out.join("similarity.json")).unwrap()).unwrap();
    assert!(
        json["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["a"] == hostile || p["b"] == hostile)
    );
    use std::os::unix::fs::PermissionsExt;
    for file in ["similarity.json", "similarity.html"] {
        let mode = std::fs::metadata(out.join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "{file} is private");
    }
}

#[test]
fn a_linked_file_is_not_followed_and_is_named_as_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for student in ["ana", "bea", "caio"] {
        write(&class, student, "nim_sum", &nim_sum(USUAL));
    }
    // Two students link the same file outside the class: were it read, they would match.
    let outside = dir.path().join("outside.py");
    std::fs::write(&outside, nim_sum(UNUSUAL).replace("walk", "secret_walk")).unwrap();
    for student in ["dora", "edu"] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::os::unix::fs::symlink(&outside, class.join(student).join("nim_sum.py")).unwrap();
    }
    let out = dir.path().join("out");
    let output = nimlab()
        .arg("similarity")
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success());
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        printed.contains("not read: dora/nim_sum.py: a symbolic link"),
        "{printed}"
    );
    assert!(printed.contains("nim_sum: 3 students, "), "{printed}");
    let json: Value =
        serde_json::from_slice(&std::fs::read(out.join("similarity.json")).unwrap()).unwrap();
    let not_read: Vec<&str> = json["not_read"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["file"].as_str().unwrap())
        .collect();
    assert_eq!(not_read, ["dora/nim_sum.py", "edu/nim_sum.py"]);
    let html = std::fs::read_to_string(out.join("similarity.html")).unwrap();
    assert!(html.contains("<h2>Not read</h2>") && !html.contains("secret_walk"));
}

#[test]
fn a_missing_class_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-class");
    let output = nimlab().arg("similarity").arg(&missing).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no-such-class") && stderr.contains("no such folder"),
        "{stderr}"
    );
}

/// Four correct students, and two with the same odd mistake (a sum, one too many) written
/// two different ways.
fn odd_mistake_class(class: &Path) {
    let correct = [
        USUAL,
        UNUSUAL,
        [
            "    from functools import reduce\n    return reduce(lambda a, b: a ^ b, board, 0)\n",
            USUAL[1],
            USUAL[2],
        ],
        [
            "    answer = 0\n    for size in board:\n        answer = answer ^ size\n    return answer\n",
            USUAL[1],
            USUAL[2],
        ],
    ];
    for (student, bodies) in ["ana", "bea", "caio", "dani"].iter().zip(correct) {
        write(class, student, "nim_sum", &nim_sum(bodies));
    }
    // The same odd mistake (a sum, one too many), written two different ways.
    write(
        class,
        "ivo",
        "nim_sum",
        &nim_sum(["    return sum(board) + 1\n", USUAL[1], USUAL[2]]),
    );
    write(
        class,
        "joao",
        "nim_sum",
        &nim_sum([
            "    n = 1\n    for x in board:\n        n = n + x\n    return n\n",
            USUAL[1],
            USUAL[2],
        ]),
    );
}

#[test]
fn the_same_wrong_output_on_the_same_case_is_evidence_when_grades_are_given() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    odd_mistake_class(&class);
    let graded = dir.path().join("graded");
    let output = nimlab()
        .arg("grade")
        .arg(&class)
        .arg("--out")
        .arg(&graded)
        .args(["--python", "3"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let pair = |report: &Value| {
        report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["a"] == "ivo" && p["b"] == "joao")
            .cloned()
    };
    let without = similarity_json(&class);
    let score_without = pair(&without).map_or(0.0, |p| p["score"].as_f64().unwrap());
    let output = nimlab()
        .arg("similarity")
        .arg(&class)
        .arg("--results")
        .arg(&graded)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let with: Value = serde_json::from_slice(&output.stdout).unwrap();
    let flagged = pair(&with).expect("ivo and joao compared");
    assert_eq!(flagged["flagged"], true, "{flagged:#}");
    assert!(flagged["score"].as_f64().unwrap() > score_without);
    let reasons = flagged["reasons"].to_string();
    assert!(reasons.contains("with the same wrong output"), "{reasons}");
    assert_eq!(with["pairs"][0]["a"], "ivo", "{:#}", with["pairs"][0]);
    // A folder that is not grade's says so.
    let output = nimlab()
        .arg("similarity")
        .arg(&class)
        .arg("--results")
        .arg(&class)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("results.json"));
}

#[test]
fn a_renamed_copy_of_the_usual_answer_is_found_by_the_layout_it_kept() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path();
    for student in ["ana", "bea", "caio", "dani", "edu", "fabi", "gil", "hana"] {
        write(class, student, "nim_sum", &nim_sum(USUAL));
    }
    // The usual answer in a hand of its own: tight operators, a blank line after each line.
    let odd = [
        "    total=0\n\n    for row in board :\n\n        total^=row\n\n    return(total)\n",
        "    return nim_sum( board )==0\n",
        "    return nim_sum( board )!=0\n",
    ];
    let renamed = odd.map(|body| body.replace("total", "acc").replace("row", "r"));
    write(class, "ivo", "nim_sum", &nim_sum(odd));
    write(
        class,
        "joao",
        "nim_sum",
        &nim_sum(renamed.each_ref().map(|b| b.as_str())),
    );
    let report = similarity_json(class);
    let top = &report["pairs"][0];
    assert_eq!(
        (top["a"].as_str(), top["b"].as_str()),
        (Some("ivo"), Some("joao")),
        "{report:#}"
    );
    assert_eq!(top["flagged"], true, "{top:#}");
    let reasons = top["reasons"].to_string();
    assert!(reasons.contains("laid out alike"), "{reasons}");
    // The same code as eight others: the code is no reason.
    assert!(!reasons.contains("same code"), "{reasons}");
}

/// A labelled class: which pairs of students are copies (one of the other, or both of one
/// source), by exercise, from `folder`/labels.json.
fn labelled_pairs(
    folder: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<(String, String)>> {
    let path = root().join(folder).join("labels.json");
    let labels: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut pairs = std::collections::BTreeMap::new();
    for (exercise, copies) in labels["exercises"].as_object().unwrap() {
        // Copies and their sources, joined into groups: every two of a group are a true pair.
        let mut group_of: std::collections::BTreeMap<String, usize> = Default::default();
        let mut groups: Vec<Vec<String>> = Vec::new();
        for copy in copies["copies"].as_array().unwrap() {
            let mut members: Vec<String> = vec![copy["copy"].as_str().unwrap().to_string()];
            members.extend(
                copy["source"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string()),
            );
            let mut joined: Vec<usize> = members
                .iter()
                .filter_map(|m| group_of.get(m).copied())
                .collect();
            joined.sort_unstable();
            joined.dedup();
            let into = joined.first().copied().unwrap_or_else(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            for other in joined.iter().skip(1).rev() {
                let moved = std::mem::take(&mut groups[*other]);
                groups[into].extend(moved);
            }
            groups[into].extend(members);
            for group in groups.iter_mut() {
                group.sort();
                group.dedup();
            }
            for (index, group) in groups.iter().enumerate() {
                for member in group {
                    group_of.insert(member.clone(), index);
                }
            }
        }
        let mut truth = std::collections::BTreeSet::new();
        for group in &groups {
            for (x, a) in group.iter().enumerate() {
                for b in &group[x + 1..] {
                    truth.insert((a.min(b).clone(), a.max(b).clone()));
                }
            }
        }
        pairs.insert(exercise.clone(), truth);
    }
    pairs
}

/// Average precision of `ranked` (pairs, best first; every pair not in it ranks below all,
/// in the worst order) against `truth`, and the false pairs ranked above the weakest true one.
fn average_precision(
    ranked: &[((String, String), f64)],
    truth: &std::collections::BTreeSet<(String, String)>,
    all_pairs: usize,
) -> (f64, usize) {
    let mut found = 0;
    let mut precision_sum = 0.0;
    let mut false_above = 0;
    let mut false_seen = 0;
    // Ties: false pairs first among equal scores.
    let mut ranked = ranked.to_vec();
    ranked.sort_by(|x, y| {
        y.1.total_cmp(&x.1)
            .then_with(|| truth.contains(&x.0).cmp(&truth.contains(&y.0)))
    });
    for (rank, (pair, _)) in ranked.iter().enumerate() {
        if truth.contains(pair) {
            found += 1;
            precision_sum += f64::from(found) / (rank + 1) as f64;
            false_above = false_seen;
        } else {
            false_seen += 1;
        }
    }
    // True pairs never listed come after every listed and unlisted false pair.
    let missing = truth.len() - found as usize;
    if missing > 0 {
        false_above = all_pairs - truth.len();
        let mut at = all_pairs - missing;
        for _ in 0..missing {
            found += 1;
            at += 1;
            precision_sum += f64::from(found) / at as f64;
        }
    }
    (precision_sum / truth.len().max(1) as f64, false_above)
}

/// Each labelled exercise's average precision and false pairs above the weakest true pair,
/// as a table, and the lowest average precision.
fn ranking_on(folder: &str) -> (String, f64) {
    let (table, by_exercise) = ranking_by_exercise(folder);
    let worst = by_exercise.values().copied().fold(1.0, f64::min);
    (table, worst)
}

/// Each labelled exercise's average precision, as a table and by exercise.
fn ranking_by_exercise(folder: &str) -> (String, std::collections::BTreeMap<String, f64>) {
    let report = similarity_json(&root().join(folder).join("class"));
    let truth = labelled_pairs(folder);
    let mut table = String::new();
    let mut by_exercise = std::collections::BTreeMap::new();
    for summary in report["exercises"].as_array().unwrap() {
        let exercise = summary["exercise"].as_str().unwrap();
        let Some(truth) = truth.get(exercise) else {
            continue;
        };
        let students = summary["students"].as_u64().unwrap() as usize;
        let ranked: Vec<((String, String), f64)> = report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["exercise"] == exercise)
            .map(|p| {
                let (a, b) = (
                    p["a"].as_str().unwrap().to_string(),
                    p["b"].as_str().unwrap().to_string(),
                );
                (
                    (a.clone().min(b.clone()), a.max(b)),
                    p["score"].as_f64().unwrap(),
                )
            })
            .collect();
        let (ap, false_above) = average_precision(&ranked, truth, students * (students - 1) / 2);
        table.push_str(&format!(
            "{exercise}: AP {ap:.3}, {false_above} false pairs above the weakest true one\n"
        ));
        by_exercise.insert(exercise.to_string(), ap);
    }
    assert!(!table.is_empty(), "no labelled exercise compared");
    (table, by_exercise)
}

#[test]
fn the_labelled_class_ranks_its_copies_above_its_independent_answers() {
    // copydetect 0.5.0 and Dolos 3.5.1, measured on this class (tests/data/similarity/README.md),
    // reach at most 0.04 on any exercise, barely above a random order; nimlab must stay at least
    // twice as high on every one.
    let (table, worst) = ranking_on("tests/data/similarity");
    println!("{table}");
    assert!(worst >= 0.08, "{table}");
}

#[test]
fn a_second_class_written_apart_and_never_tuned_on_is_ranked_as_well() {
    // Written by another generator, with its own styles, names and disguises, after the scoring
    // was tuned on the first class and not used to tune it. The peers' best on any of its
    // exercises is 0.086 (make_move); their worst-exercise best is 0.034 (nim_sum).
    let (table, worst) = ranking_on("tests/data/similarity-heldout");
    println!("{table}");
    assert!(worst >= 0.06, "{table}");
}

/// Every exercise of a labelled class at least 1.5 times the peers' best there, and 0.45, and
/// the mean at least 0.7.
fn ranked_far_ahead_of_the_peers(folder: &str, peers_best: &[(&str, f64)]) {
    let (table, by_exercise) = ranking_by_exercise(folder);
    println!("{table}");
    assert_eq!(by_exercise.len(), peers_best.len(), "{table}");
    for &(exercise, best) in peers_best {
        let ours = by_exercise[exercise];
        assert!(
            ours >= 1.5 * best && ours >= 0.45,
            "{exercise}: {ours} against {best}\n{table}"
        );
    }
    let mean = by_exercise.values().sum::<f64>() / by_exercise.len() as f64;
    assert!(mean >= 0.7, "mean {mean}\n{table}");
}

#[test]
fn a_class_written_by_hand_is_ranked_far_ahead_of_the_peers() {
    // The peers' best average precision on each exercise, of copydetect 0.5.0 and Dolos 3.5.1
    // with and without the starter (tests/data/similarity-written/README.md).
    ranked_far_ahead_of_the_peers(
        "tests/data/similarity-written",
        &[
            ("bin_num", 0.09),
            ("bitwise_xor", 0.49),
            ("make_move", 0.27),
            ("nim_sum", 0.07),
            ("present_board", 0.10),
        ],
    );
}

#[test]
fn a_second_class_written_by_hand_apart_is_ranked_far_ahead_of_the_peers() {
    // Other writers, students and exercises (tests/data/similarity-written-2/README.md).
    ranked_far_ahead_of_the_peers(
        "tests/data/similarity-written-2",
        &[
            ("bin_num", 0.09),
            ("exclusive_or", 0.13),
            ("make_move", 0.25),
            ("nim_sum", 0.11),
            ("optimal_move", 0.35),
        ],
    );
}

#[test]
fn copies_below_the_flag_are_shown_with_their_evidence_in_every_report() {
    let folder = "tests/data/similarity-written";
    let out = tempfile::tempdir().unwrap();
    let class = root().join(folder).join("class");
    let report = similarity_json_with(
        &class,
        &[std::ffi::OsStr::new("--out"), out.path().as_os_str()],
    );
    let truth = labelled_pairs(folder);
    let is_copy = |p: &Value| {
        let key = (
            p["a"].as_str().unwrap().to_string(),
            p["b"].as_str().unwrap().to_string(),
        );
        truth[p["exercise"].as_str().unwrap()].contains(&key)
    };
    let pairs = report["pairs"].as_array().unwrap();
    let shown: Vec<&Value> = pairs.iter().filter(|p| p["reasons"].is_array()).collect();
    let flagged_copies = pairs
        .iter()
        .filter(|p| p["flagged"] == true && is_copy(p))
        .count();
    let shown_copies = shown.iter().filter(|p| is_copy(p)).count();
    // Ten more pairs per exercise, and copies among them.
    assert!(shown.len() >= pairs.iter().filter(|p| p["flagged"] == true).count() + 5 * 10);
    assert!(
        shown_copies >= flagged_copies + 10,
        "{shown_copies} shown, {flagged_copies} flagged"
    );
    let html = std::fs::read_to_string(out.path().join("similarity.html")).unwrap();
    assert_eq!(html.matches("The closest pairs below the flag").count(), 5);
    let below = shown.iter().find(|p| p["flagged"] == false).unwrap();
    assert!(html.contains(&format!(
        "{} and {} (",
        below["a"].as_str().unwrap(),
        below["b"].as_str().unwrap()
    )));
    let printed = nimlab().arg("similarity").arg(&class).output().unwrap();
    let printed = String::from_utf8_lossy(&printed.stdout);
    assert!(printed.contains("closest below the flag"), "{printed}");
}
