//! similarity.html: one self-contained page (inline CSS, no scripts, no network) for the
//! instructor: per exercise, the clusters, the flagged pairs ranked with their reasons, and
//! each flagged pair's two programs side by side with the matching lines marked; then the
//! closest pairs below the flag, the same way.
//!
//! Every student's name and line of code is escaped: HTML's specials, and control characters
//! shown as escapes.

use super::{CAUTION, Pair, Similarity};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:80rem;color:#222;padding:0 1rem}\
h1,h2,h3{font-weight:600}table{border-collapse:collapse;margin:1rem 0}td,th{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}\
td.num{text-align:right}.muted{color:#666}.note{border-left:4px solid #b8860b;background:#fff8e6;padding:.5rem 1rem}\
.side{display:grid;grid-template-columns:1fr 1fr;gap:1rem}pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;font-size:.8rem;margin:0}\
pre span{display:block}pre span.match{background:#ffe08a}pre b{color:#666;font-weight:400;user-select:none}";

fn escape(text: &str) -> String {
    crate::escape::html(&crate::grade::export::visible(text)).into_owned()
}

/// The page. `sources` holds each program by (exercise, student id).
pub fn page(report: &Similarity, sources: &HashMap<(String, String), String>) -> String {
    let mut body = format!(
        "<h1>Similar programs</h1>\n<p class=\"note\">{}</p>\n<p class=\"muted\">Lab: {}. A pair is flagged from a score of {}: the matching lines are marked in each program.</p>\n",
        escape(CAUTION),
        escape(&report.lab),
        report.flag_score
    );
    for exercise in &report.exercises {
        let name = &exercise.exercise;
        let _ = write!(
            body,
            "<h2 id=\"{0}\">{0}</h2>\n<p>{1} handed it in; {2} flagged.</p>\n",
            escape(name),
            super::counted(exercise.students, "student"),
            super::counted(exercise.flagged, "pair")
        );
        if exercise.students < super::FEWEST {
            let _ = writeln!(body, "<p class=\"muted\">{}.</p>", super::TOO_FEW);
        }
        body.push_str(&clusters(report, name));
        let flagged: Vec<&Pair> = report
            .pairs
            .iter()
            .filter(|p| p.exercise == *name && p.flagged)
            .collect();
        body.push_str(&ranking(&flagged, 0));
        for (rank, pair) in flagged.iter().enumerate() {
            body.push_str(&side_by_side(pair, rank, sources));
        }
        let next: Vec<&Pair> = report
            .pairs
            .iter()
            .filter(|p| p.exercise == *name && p.is_closest_below_the_flag())
            .collect();
        if !next.is_empty() {
            let _ = writeln!(
                body,
                "<h3>The closest pairs below the flag</h3>\n<p class=\"muted\">Not flagged: closer than most of the class's pairs, but not by enough to stand out alone. A copy of an answer many students wrote can rank here.</p>"
            );
            body.push_str(&ranking(&next, flagged.len()));
            for (rank, pair) in next.iter().enumerate() {
                body.push_str(&side_by_side(pair, flagged.len() + rank, sources));
            }
        }
    }
    body.push_str(&not_read(report));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Similar programs</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )
}

/// The class folder's entries that were not compared, and why.
fn not_read(report: &Similarity) -> String {
    if report.not_read.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2>Not read</h2>\n<ul>\n");
    for skipped in &report.not_read {
        let _ = writeln!(
            out,
            "<li><code>{}</code>: {}</li>",
            escape(&skipped.file),
            escape(&skipped.reason)
        );
    }
    out.push_str("</ul>\n");
    out
}

fn clusters(report: &Similarity, exercise: &str) -> String {
    let mut out = String::new();
    for cluster in report.clusters.iter().filter(|c| c.exercise == exercise) {
        let names: Vec<String> = cluster.students.iter().map(|s| escape(s)).collect();
        let _ = writeln!(
            out,
            "<li>{} students: {} (highest score {:.2})</li>",
            names.len(),
            names.join(", "),
            cluster.score
        );
    }
    if out.is_empty() {
        return String::new();
    }
    format!("<h3>Groups linked by flagged pairs</h3>\n<ul>\n{out}</ul>\n")
}

fn pair_id(pair: &Pair, rank: usize) -> String {
    format!("{}-{}", escape(&pair.exercise), rank + 1)
}

/// The pairs' table, ranks counted on from `first`.
fn ranking(pairs: &[&Pair], first: usize) -> String {
    if pairs.is_empty() {
        return "<p class=\"muted\">No pair stands out from the class's independent answers.</p>\n"
            .to_string();
    }
    let mut rows = String::new();
    for (rank, pair) in pairs.iter().enumerate() {
        let rank = first + rank;
        let reasons: Vec<String> = pair.reasons.iter().map(|r| escape(r)).collect();
        let _ = writeln!(
            rows,
            "<tr><td class=\"num\"><a href=\"#{}\">{}</a></td><td class=\"num\">{:.2}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            pair_id(pair, rank),
            rank + 1,
            pair.score,
            escape(&pair.a),
            escape(&pair.b),
            reasons.join("<br>")
        );
    }
    format!(
        "<table>\n<tr><th>#</th><th>score</th><th>a</th><th>b</th><th>why</th></tr>\n{rows}</table>\n"
    )
}

fn side_by_side(pair: &Pair, rank: usize, sources: &HashMap<(String, String), String>) -> String {
    let mut marked: [BTreeSet<u32>; 2] = Default::default();
    for fragment in &pair.fragments {
        marked[0].extend(fragment.a_lines[0]..=fragment.a_lines[1]);
        marked[1].extend(fragment.b_lines[0]..=fragment.b_lines[1]);
    }
    let program = |student: &String, marked: &BTreeSet<u32>| {
        let source = sources
            .get(&(pair.exercise.clone(), student.clone()))
            .map_or("", String::as_str);
        let mut out = String::new();
        for (number, line) in source.lines().enumerate() {
            let number = number as u32 + 1;
            let class = if marked.contains(&number) {
                " class=\"match\""
            } else {
                ""
            };
            let _ = write!(
                out,
                "<span{class}><b>{number:>3} </b>{}</span>",
                escape(line)
            );
        }
        format!("<div><h4>{}</h4><pre>{out}</pre></div>", escape(student))
    };
    format!(
        "<h3 id=\"{}\">{} and {} ({:.2})</h3>\n<div class=\"side\">{}{}</div>\n",
        pair_id(pair, rank),
        escape(&pair.a),
        escape(&pair.b),
        pair.score,
        program(&pair.a, &marked[0]),
        program(&pair.b, &marked[1]),
    )
}
