//! `nimlab similarity`: how alike a class's programs are, exercise by exercise.

use crate::cli::{Format, SimilarityArgs};
use nimlab_core::error::{Error, Result};
use nimlab_core::escape::terminal;
use nimlab_core::exit;
use nimlab_core::lab::Lab;
use nimlab_core::similarity::{CAUTION, FEWEST, Similarity, TOO_FEW, class, counted, html};
use std::io::Write;

pub fn similarity(lab: &Lab, args: &SimilarityArgs) -> Result<u8> {
    // The report quotes students' programs: it is its owner's alone.
    nimlab_core::fsutil::private_from_now_on();
    let (report, sources) =
        class::analyse(lab, &args.dir, args.out.as_deref(), args.results.as_deref())?;
    if let Some(out) = &args.out {
        let json = serde_json::to_vec_pretty(&report).map_err(|e| {
            Error::internal("cannot write similarity.json", std::io::Error::other(e))
        })?;
        write(&out.join("similarity.json"), &json)?;
        write(
            &out.join("similarity.html"),
            html::page(&report, &sources).as_bytes(),
        )?;
    }
    let printed = match args.format {
        Format::Json => serde_json::to_string_pretty(&report).map_err(|e| {
            Error::internal("cannot print similarity.json", std::io::Error::other(e))
        })?,
        Format::Text => text(&report),
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{printed}").map_err(super::stdout_error)?;
    Ok(exit::SUCCESS)
}

fn write(path: &std::path::Path, contents: &[u8]) -> Result<()> {
    nimlab_core::fsutil::write_atomic(path, contents)
        .map_err(|e| Error::input(path, format!("cannot write: {e}")))
}

/// The flagged pairs of each exercise, highest first, with their reasons.
fn text(report: &Similarity) -> String {
    let mut out = format!("{CAUTION}\n");
    for exercise in &report.exercises {
        out.push_str(&format!(
            "\n{}: {}, {} flagged\n",
            exercise.exercise,
            counted(exercise.students, "student"),
            counted(exercise.flagged, "pair")
        ));
        if exercise.students < FEWEST {
            out.push_str(&format!("  ({TOO_FEW})\n"));
        }
        for pair in report
            .pairs
            .iter()
            .filter(|p| p.exercise == exercise.exercise && p.flagged)
        {
            out.push_str(&format!(
                "  {:.2}  {}  {}\n",
                pair.score,
                terminal(&pair.a),
                terminal(&pair.b)
            ));
            for reason in &pair.reasons {
                out.push_str(&format!("        - {}\n", terminal(reason)));
            }
        }
        let next: Vec<String> = report
            .pairs
            .iter()
            .filter(|p| p.exercise == exercise.exercise && p.is_closest_below_the_flag())
            .map(|p| {
                format!(
                    "{} {:.2}",
                    terminal(&format!("{} and {}", p.a, p.b)),
                    p.score
                )
            })
            .collect();
        if !next.is_empty() {
            out.push_str(&format!(
                "  closest below the flag (reasons with --out or --format json): {}\n",
                next.join(", ")
            ));
        }
        for cluster in report
            .clusters
            .iter()
            .filter(|c| c.exercise == exercise.exercise && c.students.len() > 2)
        {
            let names: Vec<_> = cluster.students.iter().map(|s| terminal(s)).collect();
            out.push_str(&format!("  linked: {}\n", names.join(", ")));
        }
    }
    for skipped in &report.not_read {
        out.push_str(&format!(
            "\nnot read: {}: {}",
            terminal(&skipped.file),
            terminal(&skipped.reason)
        ));
    }
    out
}
