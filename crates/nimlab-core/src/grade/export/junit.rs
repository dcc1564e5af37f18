//! junit.xml for CI dashboards: one suite per student, one test per exercise.
//!
//! Names are the students' ids (unique where names may not be), with every character that
//! is not allowed in XML 1.0 shown as an escape rather than dropped.

use super::{Exporter, Sink, points, unrenderable, visible};
use crate::error::Result;
use crate::grade::book::Gradebook;
use crate::judge::Verdict;

pub struct JunitXml;

impl Exporter for JunitXml {
    fn target(&self) -> &'static str {
        "junit.xml"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
        let mut report = Report::new("nimlab");
        for student in &book.students {
            let id = visible(&student.student_id);
            let mut suite = TestSuite::new(id.as_str());
            for exercise in &book.exercises {
                let result = &student.exercises[&exercise.name];
                let accepted = result
                    .report
                    .as_ref()
                    .is_some_and(|r| r.verdict == Verdict::Accepted);
                let status = if accepted {
                    TestCaseStatus::success()
                } else {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message(visible(&format!(
                        "{}: {} of {} points",
                        result.verdict_label(),
                        points(result.points),
                        exercise.points
                    )));
                    status
                };
                let mut case = TestCase::new(visible(&exercise.name), status);
                case.set_classname(format!("nimlab.{id}"));
                suite.add_test_case(case);
            }
            report.add_test_suite(suite);
        }
        let text = report
            .to_string()
            .map_err(|e| unrenderable(self.target(), e))?;
        sink.file("junit.xml", text.as_bytes())
    }
}
