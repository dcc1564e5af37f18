//! Similar programs (staff only): an exercise's latest uploads compared as `nimlab
//! similarity` compares a class folder, the flagged pairs with their reasons and the two
//! programs side by side.

use super::layout::{Rendered, Viewer, page};
use crate::views::urls::percent_encode;
use maud::{Markup, html};
use nimlab_core::similarity::{CAUTION, FLAG_SCORE, Pair, counted};
use std::collections::{BTreeSet, HashMap};

/// One exercise compared.
pub struct SimilarityView {
    pub exercise: String,
    /// Students with an upload of it.
    pub students: usize,
    pub pairs: Vec<Pair>,
    /// Each student's latest upload, by username.
    pub sources: HashMap<String, String>,
}

pub fn similarity(
    viewer: &Viewer,
    exercises: &[String],
    view: Option<&SimilarityView>,
) -> Rendered {
    page(
        "Similar programs",
        Some(viewer),
        html! {},
        html! {
            h1 { "Similar programs" }
            p.small {
                a href="/class" { "Class" } " · "
                @for (index, name) in exercises.iter().enumerate() {
                    @if index > 0 { " · " }
                    a href={ "/class/similarity?exercise=" (percent_encode(name)) } { (name) }
                }
            }
            p.hint { (CAUTION) }
            @if let Some(view) = view { (compared(view)) } @else {
                p.dim { "Choose an exercise: each student's latest upload of it is compared with the others'." }
            }
        },
    )
}

fn compared(view: &SimilarityView) -> Markup {
    let flagged: Vec<&Pair> = view.pairs.iter().filter(|p| p.flagged).collect();
    html! {
        h2 { (view.exercise) }
        p {
            "The latest uploads of " (counted(view.students, "student")) " compared; "
            (counted(flagged.len(), "pair")) @if flagged.len() == 1 { " scores " } @else { " score " }
            (FLAG_SCORE) " or more."
        }
        @if view.students < nimlab_core::similarity::FEWEST {
            p.dim { "With " (view.students) " upload(s): " (nimlab_core::similarity::TOO_FEW) "." }
        } @else if flagged.is_empty() {
            p.dim { "No pair stands out from the class's independent answers." }
        }
        @for pair in &flagged {
            (pair_section(view, pair))
        }
        @let next: Vec<&Pair> = view.pairs.iter().filter(|p| p.is_closest_below_the_flag()).collect();
        @if !next.is_empty() {
            h3 { "The closest pairs below the flag" }
            p.dim { "Not flagged: closer than most of the class's pairs, but not by enough to stand out alone. A copy of an answer many students wrote can rank here." }
            @for pair in &next {
                (pair_section(view, pair))
            }
        }
    }
}

fn pair_section(view: &SimilarityView, pair: &Pair) -> Markup {
    html! {
        section.pair {
            h3 { (pair.a) " and " (pair.b) " " span.small.dim { "(score " (format!("{:.2}", pair.score)) ")" } }
            ul { @for reason in &pair.reasons { li { (reason) } } }
            div.side {
                (program(view, &pair.a, pair.fragments.iter().map(|f| f.a_lines)))
                (program(view, &pair.b, pair.fragments.iter().map(|f| f.b_lines)))
            }
        }
    }
}

fn program(view: &SimilarityView, student: &str, spans: impl Iterator<Item = [u32; 2]>) -> Markup {
    let marked: BTreeSet<u32> = spans.flat_map(|[first, last]| first..=last).collect();
    let source = view.sources.get(student).map_or("", String::as_str);
    html! {
        div {
            h4 { a href={ "/submissions?student=" (percent_encode(student)) "&exercise=" (percent_encode(&view.exercise)) } { (student) } }
            pre { @for (number, line) in source.lines().enumerate() {
                @let number = number as u32 + 1;
                @if marked.contains(&number) { span.match { (format!("{number:>3} ")) (line) } }
                @else { span { (format!("{number:>3} ")) (line) } }
            } }
        }
    }
}
