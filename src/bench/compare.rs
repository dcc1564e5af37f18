//! `nimlab bench --compare OTHER`: this build against another nimlab binary on the same work,
//! timed as whole commands and alternated round by round, so that a speed claim is measured
//! side by side on one machine at one time. The other build is only run as a user runs it
//! (`check`, `grade`), so any build with those commands can be compared, older ones included.
//!
//! Each round runs both builds once, in the order that alternates from one round to the next
//! (a machine that speeds up or slows down during the bench favours neither), after one
//! untimed run of each (the disk cache and the interpreters' own files warmed alike). The
//! report gives each build's median and range, the ratio of the medians, and the spread of
//! the rounds' own ratios.

use super::common::{self, stdout_error};
use super::{Options, What};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The work both builds do: a nimlab command line, without the binary.
struct Work {
    /// What the report calls it.
    title: String,
    args: Vec<std::ffi::OsString>,
    /// A folder each run writes into, emptied before every run (grade's output, whose cache
    /// would otherwise answer the next run).
    out: Option<PathBuf>,
    /// Submissions graded by one run, for a rate.
    submissions: Option<usize>,
    /// Kept until the comparison ends.
    _scratch: tempfile::TempDir,
}

/// One build's times, in the order of the rounds.
struct Times {
    binary: PathBuf,
    samples: Vec<Duration>,
}

/// What the comparison measured.
struct Compared {
    title: String,
    rounds: usize,
    submissions: Option<usize>,
    this: Times,
    other: Times,
}

/// Compares this build with `other` on what `options` asks, and prints the report.
pub(super) fn run(lab: &Lab, options: &Options, other: &Path, out: &mut impl Write) -> Result<u8> {
    let other = other_build(other)?;
    let work = work(lab, options)?;
    let this = common::nimlab_binary()?;
    let compared = measure(&work, &this, &other, options.repeat)?;
    print(&compared, out)?;
    Ok(nimlab_core::exit::SUCCESS)
}

/// The other build, if it is a program that answers `--version`; a usage error otherwise.
fn other_build(path: &Path) -> Result<PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let refused = |why: String| Error::input(&path, format!("cannot be compared with: {why}"));
    if !path.is_file() {
        return Err(refused("no such file".into()));
    }
    let output = Command::new(&path)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| refused(e.to_string()))?;
    if !output.status.success() || !output.stdout.starts_with(b"nimlab ") {
        return Err(refused(
            "it does not answer --version as a nimlab binary".into(),
        ));
    }
    Ok(path)
}

/// The command both builds run: a check of the exercise's model solution, or the grading of a
/// generated class.
fn work(lab: &Lab, options: &Options) -> Result<Work> {
    let scratch = common::scratch()?;
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    if let nimlab_core::lab::LabOrigin::Folder(root) = &lab.origin {
        args.extend(["--lab".into(), root.clone().into_os_string()]);
    }
    match options.what {
        What::Exercise => {
            let exercise = lab.exercise(&options.exercise)?;
            let solution = exercise.solution.as_ref().ok_or_else(|| {
                Error::usage(format!("{} has no solution.py to time", exercise.name))
            })?;
            // Several interpreters (3,2.7) are checked as `check --python 3,2.7` checks them.
            for python in options.python.split(',') {
                common::python(python.trim())?;
            }
            let file = scratch.path().join(format!("{}.py", exercise.name));
            std::fs::write(&file, solution).map_err(|e| Error::unwritable(&file, e))?;
            args.extend([
                "check".into(),
                file.into_os_string(),
                "--python".into(),
                options.python.clone().into(),
                "--format".into(),
                "json".into(),
            ]);
            Ok(Work {
                title: format!(
                    "nimlab check of {}'s model solution ({} cases) under Python {}",
                    exercise.name,
                    exercise.cases.len(),
                    options.python
                ),
                args,
                out: None,
                submissions: None,
                _scratch: scratch,
            })
        }
        What::Class { students, runner } => {
            if students == 0 {
                return Err(Error::usage("--class needs at least one student"));
            }
            for python in options.python.split(',') {
                common::python(python.trim())?;
            }
            let class = scratch.path().join("class");
            let exercises = super::class::write_class_of_solutions(lab, &class, students)?;
            let out = scratch.path().join("out");
            args.extend([
                "grade".into(),
                class.into_os_string(),
                "--out".into(),
                out.clone().into_os_string(),
                "--python".into(),
                options.python.clone().into(),
            ]);
            let mut title = format!(
                "nimlab grade of a class of {students} students x {exercises} exercises under Python {}",
                options.python
            );
            if let Some(runner) = runner {
                args.extend(["--runner".into(), runner.name().into()]);
                title.push_str(&format!(", --runner {}", runner.name()));
            }
            Ok(Work {
                title,
                args,
                out: Some(out),
                submissions: Some(students * exercises),
                _scratch: scratch,
            })
        }
        What::Website { .. } | What::Similarity { .. } => Err(Error::usage(
            "--compare times check or grade (--class); the website and similarity are not compared",
        )),
    }
}

/// One untimed run of each build, then `rounds` rounds of both, alternating which goes first.
fn measure(work: &Work, this: &Path, other: &Path, rounds: usize) -> Result<Compared> {
    run_once(work, this)?;
    run_once(work, other)?;
    let mut times = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for which in order {
            let binary = if which == 0 { this } else { other };
            times[which].push(run_once(work, binary)?);
        }
    }
    let [this_times, other_times] = times;
    Ok(Compared {
        title: work.title.clone(),
        rounds,
        submissions: work.submissions,
        this: Times {
            binary: this.to_path_buf(),
            samples: this_times,
        },
        other: Times {
            binary: other.to_path_buf(),
            samples: other_times,
        },
    })
}

/// The work run once by `binary`, timed; a failing run is a measurement that cannot be made.
fn run_once(work: &Work, binary: &Path) -> Result<Duration> {
    if let Some(out) = &work.out
        && out.exists()
    {
        std::fs::remove_dir_all(out)
            .map_err(|e| Error::internal(format!("{}: cannot empty", out.display()), e))?;
    }
    let started = Instant::now();
    let output = Command::new(binary)
        .args(&work.args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| Error::internal(format!("cannot run {}", binary.display()), e))?;
    let spent = started.elapsed();
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = nimlab_core::escape::terminal(said.trim());
        return Err(Error::fault(format!(
            "{} failed ({}) on the compared work: {said}",
            binary.display(),
            output.status
        )));
    }
    Ok(spent)
}

/// The median of `samples` and their range.
fn spread(samples: &[Duration]) -> (Duration, Duration, Duration) {
    let mut sorted = samples.to_vec();
    sorted.sort();
    (
        common::median(sorted.clone()),
        sorted[0],
        sorted[sorted.len() - 1],
    )
}

fn print(compared: &Compared, out: &mut impl Write) -> Result<()> {
    let Compared {
        title,
        rounds,
        submissions,
        this,
        other,
    } = compared;
    writeln!(
        out,
        "compare: {title}; {rounds} round(s), the builds alternating, after one untimed run of each"
    )
    .map_err(stdout_error)?;
    let time = |d: Duration| {
        if d >= Duration::from_secs(10) {
            format!("{:.1} s", d.as_secs_f64())
        } else {
            format!("{:.1} ms", common::ms(d))
        }
    };
    for (name, times) in [("this build ", this), ("other build", other)] {
        let (median, low, high) = spread(&times.samples);
        let rate = submissions
            .map(|n| format!(", {:.1} submissions/s", n as f64 / median.as_secs_f64()))
            .unwrap_or_default();
        writeln!(
            out,
            "  {name} {}: median {} ({} to {}){rate}",
            nimlab_core::escape::terminal(&times.binary.display().to_string()),
            time(median),
            time(low),
            time(high),
        )
        .map_err(stdout_error)?;
    }
    let ratios: Vec<f64> = this
        .samples
        .iter()
        .zip(&other.samples)
        .map(|(a, b)| b.as_secs_f64() / a.as_secs_f64())
        .collect();
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(0.0, f64::max);
    let (this_median, ..) = spread(&this.samples);
    let (other_median, ..) = spread(&other.samples);
    let ratio = other_median.as_secs_f64() / this_median.as_secs_f64();
    let reading = if ratio >= 1.0 {
        format!("this build is {ratio:.2} times as fast")
    } else {
        format!("this build is {:.2} times as slow", 1.0 / ratio)
    };
    writeln!(
        out,
        "  other / this: {ratio:.2} ({reading}); the rounds' own ratios {low:.2} to {high:.2}"
    )
    .map_err(stdout_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::common::test::printed;

    fn ms(values: &[u64]) -> Vec<Duration> {
        values.iter().map(|v| Duration::from_millis(*v)).collect()
    }

    #[test]
    fn the_report_gives_both_medians_their_ranges_and_the_ratio_with_its_spread() {
        let compared = Compared {
            title: "nimlab check of present_board's model solution (17 cases) under Python 3"
                .into(),
            rounds: 3,
            submissions: None,
            this: Times {
                binary: "/new/nimlab".into(),
                samples: ms(&[100, 110, 90]),
            },
            other: Times {
                binary: "/old/nimlab".into(),
                samples: ms(&[300, 220, 360]),
            },
        };
        assert_eq!(
            printed(|out| print(&compared, out)),
            "compare: nimlab check of present_board's model solution (17 cases) under Python 3; 3 round(s), the builds alternating, after one untimed run of each
  this build  /new/nimlab: median 100.0 ms (90.0 ms to 110.0 ms)
  other build /old/nimlab: median 300.0 ms (220.0 ms to 360.0 ms)
  other / this: 3.00 (this build is 3.00 times as fast); the rounds' own ratios 2.00 to 4.00
"
        );
    }

    #[test]
    fn a_class_is_also_given_as_a_rate_and_a_slower_build_says_so() {
        let compared = Compared {
            title: "grade".into(),
            rounds: 1,
            submissions: Some(330),
            this: Times {
                binary: "/a".into(),
                samples: ms(&[33_000]),
            },
            other: Times {
                binary: "/b".into(),
                samples: ms(&[16_500]),
            },
        };
        let text = printed(|out| print(&compared, out));
        assert!(
            text.contains("median 33.0 s (33.0 s to 33.0 s), 10.0 submissions/s"),
            "{text}"
        );
        assert!(
            text.contains("0.50 (this build is 2.00 times as slow)"),
            "{text}"
        );
    }
}
