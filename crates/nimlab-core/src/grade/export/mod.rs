//! Every report of a graded class, rendered from the gradebook: one [`Exporter`] per output
//! file (or folder of per-student files), each written atomically into OUT.
//!
//! Student-chosen text reaches each format escaped for it: CSV cells through
//! `escape::csv_cell`, HTML through `escape::html`, XML and terminals with control characters
//! shown as escapes.

mod canvas;
pub mod classroom;
mod gradebook_csv;
mod gradescope;
mod html;
mod junit;
mod mistakes_json;
mod moodle;
mod results_json;

use super::book::Gradebook;
use crate::error::{Error, Result};
use crate::escape;
use std::collections::BTreeSet;
use std::path::{Component, Path};

/// Where an exporter puts its files.
pub trait Sink {
    /// Writes `contents` as `relative` (a path inside OUT).
    fn file(&mut self, relative: &str, contents: &[u8]) -> Result<()>;
}

/// One output format. Every failure to write is nimlab's own (exit 3).
pub trait Exporter: Sync {
    /// The file or folder it writes in OUT, as the user guide (docs/src/grading.md) lists it.
    fn target(&self) -> &'static str;
    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()>;
}

/// Every format `nimlab grade` and `nimlab merge` write, in the order written.
pub fn exporters() -> Vec<Box<dyn Exporter>> {
    vec![
        Box::new(results_json::ResultsJson),
        Box::new(gradebook_csv::GradebookCsv),
        Box::new(canvas::CanvasCsv),
        Box::new(moodle::MoodleCsv),
        Box::new(junit::JunitXml),
        Box::new(gradescope::Gradescope),
        Box::new(mistakes_json::MistakesJson),
        Box::new(html::HtmlReport),
    ]
}

/// OUT as a sink: each file written whole, and only below OUT.
struct Folder<'a> {
    out: &'a Path,
    written: BTreeSet<String>,
}

impl Sink for Folder<'_> {
    fn file(&mut self, relative: &str, contents: &[u8]) -> Result<()> {
        let inside = !relative.is_empty()
            && Path::new(relative)
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !inside {
            return Err(Error::fault(format!(
                "{relative}: not a path inside the output folder"
            )));
        }
        let path = self.out.join(relative);
        crate::fsutil::write_atomic(&path, contents).map_err(|e| Error::unwritable(&path, e))?;
        self.written.insert(relative.to_string());
        Ok(())
    }
}

/// Writes every report into `out`, then removes the per-student files an earlier run left
/// for students this gradebook does not hold, so no folder holds a stale result. Each error
/// names the file that could not be written.
pub fn write_all(book: &Gradebook, out: &Path) -> Result<()> {
    std::fs::create_dir_all(out)
        .map_err(|e| Error::internal(format!("{}: cannot create", out.display()), e))?;
    let mut folder = Folder {
        out,
        written: BTreeSet::new(),
    };
    for exporter in exporters() {
        exporter.export(book, &mut folder)?;
    }
    remove_stale(out, &folder.written);
    Ok(())
}

/// One single-file report (`gradebook.csv`, `results.json`...) rendered in memory, for the
/// website's downloads; `None` for a name no exporter writes as one file.
pub fn render_one(book: &Gradebook, target: &str) -> Result<Option<Vec<u8>>> {
    struct Memory(Option<Vec<u8>>);
    impl Sink for Memory {
        fn file(&mut self, _relative: &str, contents: &[u8]) -> Result<()> {
            self.0 = Some(contents.to_vec());
            Ok(())
        }
    }
    let Some(exporter) = exporters()
        .into_iter()
        .find(|e| e.target() == target && !target.ends_with('/'))
    else {
        return Ok(None);
    };
    let mut memory = Memory(None);
    exporter.export(book, &mut memory)?;
    Ok(memory.0)
}

/// Removes `gradescope/*/results.json` and `report/students/*.html` not in `written`.
fn remove_stale(out: &Path, written: &BTreeSet<String>) {
    let listed = |dir: &str| -> Vec<String> {
        std::fs::read_dir(out.join(dir))
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    for name in listed("gradescope") {
        let relative = format!("gradescope/{name}/results.json");
        if !written.contains(&relative) && out.join(&relative).is_file() {
            let _ = std::fs::remove_file(out.join(&relative));
            let _ = std::fs::remove_dir(out.join("gradescope").join(&name));
        }
    }
    for name in listed("report/students") {
        let relative = format!("report/students/{name}");
        if name.ends_with(".html") && !written.contains(&relative) {
            let _ = std::fs::remove_file(out.join(&relative));
        }
    }
}

/// Points as a gradebook shows them: no trailing zeros.
pub(super) fn points(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `target` could not be rendered: nimlab's own failure.
fn unrenderable(target: &str, error: impl std::fmt::Display) -> Error {
    Error::fault(format!("{target}: cannot write: {error}"))
}

/// The CSV file `target` from rows of cells. Text cells go through [`text_cell`]; numbers
/// nimlab writes itself are left alone.
fn csv_bytes(target: &str, rows: Vec<Vec<String>>) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer
            .write_record(row)
            .map_err(|e| unrenderable(target, e))?;
    }
    writer.into_inner().map_err(|e| unrenderable(target, e))
}

/// A CSV text cell that a spreadsheet shows as text, never runs as a formula.
fn text_cell(text: &str) -> String {
    escape::csv_cell(text).into_owned()
}

/// Text with every character that would act on a terminal or is not allowed in XML 1.0
/// (C0 and C1 controls, U+FFFE, U+FFFF) shown as an escape: what XML and HTML get.
pub(crate) fn visible(text: &str) -> String {
    escape::terminal(text)
        .replace('\u{fffe}', "\\u{fffe}")
        .replace('\u{ffff}', "\\u{ffff}")
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// An in-memory sink.
    impl Sink for BTreeMap<String, Vec<u8>> {
        fn file(&mut self, relative: &str, contents: &[u8]) -> Result<()> {
            self.insert(relative.to_string(), contents.to_vec());
            Ok(())
        }
    }

    /// A gradebook of two exercises and these students (name, id), each with 5 points in
    /// the first exercise and nothing handed in for the second.
    fn book(students: &[(&str, &str)]) -> Gradebook {
        use crate::grade::book::{ExerciseInfo, ExerciseResult, Status, StudentResult};
        let result = |status, points| ExerciseResult {
            status,
            file: None,
            points,
            error: None,
            report: None,
        };
        Gradebook {
            nimlab_version: "0".into(),
            lab: "test".into(),
            exercises: ["one", "two"]
                .iter()
                .map(|name| ExerciseInfo {
                    name: name.to_string(),
                    title: format!("Exercise {name}"),
                    points: 10,
                    optional: false,
                    in_total: true,
                })
                .collect(),
            students: students
                .iter()
                .map(|(name, id)| StudentResult {
                    student: name.to_string(),
                    student_id: id.to_string(),
                    roster: None,
                    exercises: BTreeMap::from([
                        ("one".to_string(), result(Status::Error, 5.0)),
                        ("two".to_string(), result(Status::Missing, 0.0)),
                    ]),
                    total: 5.0,
                })
                .collect(),
            unattributed: vec![],
            superseded: vec![],
            skipped: vec![],
            isolation: "not isolated".into(),
        }
    }

    #[test]
    fn every_exporter_writes_its_files_one_per_student_where_per_student() {
        let book = book(&[
            ("Wei Zhang", "Wei Zhang_1001"),
            ("Wei Zhang", "Wei Zhang_1002"),
        ]);
        let mut files = BTreeMap::new();
        for exporter in exporters() {
            exporter.export(&book, &mut files).unwrap();
        }
        let names: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(names.len(), 6 + 2 * 2 + 2, "{names:?}");
        for name in [
            "results.json",
            "mistakes.json",
            "report/mistakes.html",
            "gradebook.csv",
            "canvas.csv",
            "moodle.csv",
            "junit.xml",
        ] {
            assert!(files.contains_key(name), "{name}");
        }
        for student in &book.students {
            let stem = student.file_stem();
            assert!(files.contains_key(&format!("gradescope/{stem}/results.json")));
            assert!(files.contains_key(&format!("report/students/{stem}.html")));
        }
        let gradebook = String::from_utf8(files["gradebook.csv"].clone()).unwrap();
        assert_eq!(
            gradebook,
            "student,student_id,one,two,total\n\
             Wei Zhang,Wei Zhang_1001,5,0,5\n\
             Wei Zhang,Wei Zhang_1002,5,0,5\n"
        );
    }

    #[test]
    fn csv_text_cells_never_start_a_formula() {
        let book = book(&[("=1+1", "=1+1"), ("@x", "@x_7")]);
        let mut files = BTreeMap::new();
        for exporter in exporters() {
            exporter.export(&book, &mut files).unwrap();
        }
        let text = |name: &str| String::from_utf8(files[name].clone()).unwrap();
        assert!(text("gradebook.csv").contains("'=1+1,'=1+1,5,0,5"));
        assert!(text("canvas.csv").contains("\n'@x,,,,,5,0\n"));
        assert!(text("moodle.csv").contains("\n'@x_7,5,0\n"));
    }

    #[test]
    fn moodle_matches_every_row_by_the_same_field_and_never_by_an_empty_one() {
        let moodle = |ids: &[&str]| {
            let mut book = book(&[("Ada", "ada"), ("Bo", "bo")]);
            for (student, id) in book.students.iter_mut().zip(ids) {
                student.roster = Some(crate::grade::book::RosterEntry {
                    name: student.student.clone(),
                    id: id.to_string(),
                    section: String::new(),
                    username: None,
                });
            }
            let mut files = BTreeMap::new();
            moodle::MoodleCsv.export(&book, &mut files).unwrap();
            String::from_utf8(files["moodle.csv"].clone()).unwrap()
        };
        let rows = "Exercise one,Exercise two\n";
        assert_eq!(
            moodle(&["1001", "1002"]),
            format!("ID number,{rows}1001,5,0\n1002,5,0\n")
        );
        // One student without an ID number (or not on the roster): nimlab's ids for all.
        for partial in [&["1001", ""][..], &["1001"][..]] {
            assert_eq!(
                moodle(partial),
                format!("Username,{rows}ada,5,0\nbo,5,0\n"),
                "{partial:?}"
            );
        }
    }

    #[test]
    fn points_drop_trailing_zeros() {
        assert_eq!(points(10.0), "10");
        assert_eq!(points(7.5), "7.5");
        assert_eq!(points(3.333), "3.33");
        assert_eq!(points(0.0), "0");
    }

    #[test]
    fn a_folder_sink_writes_only_inside_out() {
        let out = tempfile::tempdir().unwrap();
        let mut folder = Folder {
            out: out.path(),
            written: BTreeSet::new(),
        };
        for bad in ["../x", "/etc/x", "a/../../x", ""] {
            assert!(folder.file(bad, b"x").is_err(), "{bad}");
        }
        folder.file("a/b.txt", b"x").unwrap();
        assert!(out.path().join("a/b.txt").is_file());
    }

    #[test]
    fn visible_text_has_no_control_or_non_xml_character() {
        let shown = visible("a\x1b[2J\x07\u{8f}\u{fffe}\u{ffff}\tb\n");
        assert_eq!(shown, "a\\x1b[2J\\x07\\x8f\\u{fffe}\\u{ffff}\tb\n");
    }
}
