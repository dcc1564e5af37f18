//! `nimlab bench --serve N`: a server on a fresh database, and N students who log in and
//! submit present_board's model solution at once, each through its own HTTP client.
//! Reports the time from upload to verdict and the submissions judged per second.

use crate::error::{Error, Result};
use crate::lab::Lab;
use crate::runner::{ProcessRunner, Runner};
use crate::serve::db;
use std::io::Write;
use std::time::{Duration, Instant};

const EXERCISE: &str = "present_board";
const PASSWORD: &str = "bench-password";
/// How often each student asks for the verdict.
const POLL: Duration = Duration::from_millis(1000);

struct Timing {
    login: Duration,
    /// From the start of the upload to the first poll that saw the verdict.
    to_verdict: Duration,
    /// Since the bench started, when the verdict was seen.
    finished_at: Duration,
    verdict: String,
}

fn internal(what: &str, e: impl std::fmt::Display) -> Error {
    Error::internal(what.to_string(), std::io::Error::other(e.to_string()))
}

async fn student(
    base: String,
    username: String,
    source: String,
    t0: Instant,
    limit: Duration,
) -> Result<Timing> {
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(120))
        .build()
        .map_err(|e| internal("cannot make an HTTP client", e))?;
    let started = Instant::now();
    let login = client
        .post(format!("{base}/api/login"))
        .json(&serde_json::json!({ "username": username, "password": PASSWORD }))
        .send()
        .await
        .map_err(|e| internal("login", e))?;
    if !login.status().is_success() {
        return Err(internal("login", login.status()));
    }
    let login_time = started.elapsed();
    let upload = Instant::now();
    let form = reqwest::multipart::Form::new()
        .text("exercise", EXERCISE)
        .part(
            "file",
            reqwest::multipart::Part::bytes(source.into_bytes())
                .file_name(format!("{EXERCISE}.py")),
        );
    let reply = client
        .post(format!("{base}/api/submissions"))
        .multipart(form)
        .send()
        .await
        .map_err(|e| internal("upload", e))?;
    if reply.status() != reqwest::StatusCode::ACCEPTED {
        return Err(internal("upload", reply.status()));
    }
    let body: serde_json::Value = reply.json().await.map_err(|e| internal("upload", e))?;
    let id = body["id"]
        .as_i64()
        .ok_or_else(|| internal("upload", "no id"))?;
    loop {
        if upload.elapsed() > limit {
            return Err(internal("waiting for the verdict", "gave up"));
        }
        tokio::time::sleep(POLL).await;
        let status: serde_json::Value = client
            .get(format!("{base}/api/submissions/{id}"))
            .send()
            .await
            .map_err(|e| internal("poll", e))?
            .json()
            .await
            .map_err(|e| internal("poll", e))?;
        match status["status"].as_str() {
            Some("done") | Some("failed") => {
                return Ok(Timing {
                    login: login_time,
                    to_verdict: upload.elapsed(),
                    finished_at: t0.elapsed(),
                    verdict: status["verdict"].as_str().unwrap_or("failed").to_string(),
                });
            }
            _ => {}
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// `nimlab serve` as its own process, as a course runs it.
struct Child {
    process: std::process::Child,
    addr: String,
}

impl Child {
    fn start(lab: &Lab, db: &std::path::Path, workers: Option<usize>) -> Result<Child> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::internal("cannot find the nimlab binary", e))?;
        let mut command = std::process::Command::new(exe);
        if let crate::lab::LabOrigin::Folder(folder) = &lab.origin {
            command.arg("--lab").arg(folder);
        }
        command
            .arg("serve")
            .arg("--db")
            .arg(db)
            .args(["--listen", "127.0.0.1:0", "--max-queued", "1"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit());
        if let Some(workers) = workers {
            command.args(["--workers", &workers.to_string()]);
        }
        let mut process = command
            .spawn()
            .map_err(|e| Error::internal("cannot start nimlab serve", e))?;
        let mut line = String::new();
        let stdout = process.stdout.take().expect("piped");
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
            .map_err(|e| Error::internal("cannot read the server's address", e))?;
        let addr = line
            .trim()
            .strip_prefix("nimlab serve: listening on ")
            .ok_or_else(|| internal("the server did not start", line.trim()))?
            .to_string();
        Ok(Child { process, addr })
    }

    /// The server's peak memory (resident), from /proc.
    fn peak_memory_mib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.process.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024)
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // SAFETY: a signal to the child this bench started: it stops at once, cleanly.
        unsafe { libc::kill(self.process.id() as i32, libc::SIGTERM) };
        let _ = self.process.wait();
    }
}

/// What the students saw, and the server's peak memory.
struct Results {
    students: usize,
    workers: usize,
    /// The isolation the server judges in, as it describes itself.
    isolation: String,
    /// In MiB; None where /proc does not tell.
    peak: Option<u64>,
    tally: Tally,
}

/// The students' timings, gathered.
struct Tally {
    /// Sorted, of the students who saw their verdict.
    logins: Vec<Duration>,
    verdicts: Vec<Duration>,
    /// The students who saw their verdict, and of them those accepted.
    judged: usize,
    accepted: usize,
    /// Since the bench started, when the last verdict was seen.
    last: Duration,
    /// Why each of the others failed.
    failures: Vec<Error>,
}

/// Has `students` submit at once to a server with `workers` (None: its default) and prints
/// the report; not accepted (exit 1) unless every student's submission was accepted.
pub fn run(lab: &Lab, students: usize, workers: Option<usize>, out: &mut dyn Write) -> Result<u8> {
    let results = measure(lab, students, workers)?;
    print(&results, out)?;
    let tally = &results.tally;
    Ok(
        if tally.failures.is_empty() && tally.accepted == tally.judged {
            crate::exit::SUCCESS
        } else {
            crate::exit::NOT_ACCEPTED
        },
    )
}

fn measure(lab: &Lab, students: usize, workers: Option<usize>) -> Result<Results> {
    if students == 0 {
        return Err(Error::usage("--serve needs at least 1 student"));
    }
    let source = lab.exercise(EXERCISE)?.solution.clone().ok_or_else(|| {
        Error::usage(format!(
            "the lab's {EXERCISE} has no model solution to submit"
        ))
    })?;
    let folder = tempfile::tempdir().map_err(|e| Error::internal("cannot create a folder", e))?;
    let db_path = folder.path().join("bench.db");
    accounts(&db_path, students)?;
    let server = Child::start(lab, &db_path, workers)?;
    let workers = workers.unwrap_or_else(crate::pool::default_jobs);
    let isolation = ProcessRunner::detect().isolation().summary();
    let (timings, elapsed) = submit_at_once(&server.addr, &source, students)?;
    let peak = server.peak_memory_mib();
    drop(server);
    Ok(Results {
        students,
        workers,
        isolation,
        peak,
        tally: tally(timings, elapsed),
    })
}

/// The students' accounts in a fresh database. They share one hash (the same password):
/// only logging in is measured.
fn accounts(db_path: &std::path::Path, students: usize) -> Result<()> {
    let database = db::Db::open(db_path)?;
    let hash = crate::serve::auth::hash_password(PASSWORD)?;
    database.with(|c| {
        let mut tx = c.transaction()?;
        for index in 1..=students {
            let user = db::NewUser {
                username: format!("student{index:04}"),
                ..db::NewUser::default()
            };
            db::upsert_user(&mut tx, &user, db::Role::Student, Some(&hash))?;
        }
        tx.commit()
    })
}

/// Every student logs in and submits `source` at once, to the server at `base`: each one's
/// timing, and how long it took them all.
fn submit_at_once(
    base: &str,
    source: &str,
    students: usize,
) -> Result<(Vec<Result<Timing>>, Duration)> {
    let runtime = crate::serve::runtime()?;
    let limit = Duration::from_secs(60 + 10 * students as u64);
    runtime.block_on(async {
        let t0 = Instant::now();
        let tasks: Vec<_> = (1..=students)
            .map(|index| {
                tokio::spawn(student(
                    base.to_string(),
                    format!("student{index:04}"),
                    // A comment makes each file its own, as students' files are.
                    format!("{source}\n# student {index}\n"),
                    t0,
                    limit,
                ))
            })
            .collect();
        let mut timings = Vec::new();
        for task in tasks {
            timings.push(task.await.map_err(|e| internal("a student task", e))?);
        }
        Ok::<_, Error>((timings, t0.elapsed()))
    })
}

/// The timings gathered; `elapsed`, the whole submission's time, stands for the last
/// verdict's when none was seen.
fn tally(timings: Vec<Result<Timing>>, elapsed: Duration) -> Tally {
    let (done, failed): (Vec<_>, Vec<_>) = timings.into_iter().partition(|t| t.is_ok());
    let done: Vec<Timing> = done.into_iter().map(|t| t.expect("partitioned")).collect();
    let mut logins: Vec<Duration> = done.iter().map(|t| t.login).collect();
    let mut verdicts: Vec<Duration> = done.iter().map(|t| t.to_verdict).collect();
    logins.sort();
    verdicts.sort();
    Tally {
        logins,
        verdicts,
        judged: done.len(),
        accepted: done.iter().filter(|t| t.verdict == "accepted").count(),
        last: done.iter().map(|t| t.finished_at).max().unwrap_or(elapsed),
        failures: failed.into_iter().filter_map(Result::err).collect(),
    }
}

fn print(results: &Results, out: &mut dyn Write) -> Result<()> {
    let Results {
        students,
        workers,
        ref isolation,
        peak,
        tally: ref t,
    } = *results;
    let mut line = |text: std::fmt::Arguments| {
        writeln!(out, "{text}").map_err(|e| Error::internal("cannot write to stdout", e))
    };
    line(format_args!(
        "nimlab bench --serve {students}: {students} students log in and submit {EXERCISE}'s model solution at once ({workers} judging worker(s); {isolation})",
    ))?;
    line(format_args!(
        "  log in:            p50 {}, p95 {}, max {}",
        seconds(percentile(&t.logins, 50.0)),
        seconds(percentile(&t.logins, 95.0)),
        seconds(t.logins.last().copied().unwrap_or_default())
    ))?;
    line(format_args!(
        "  upload to verdict: p50 {}, p95 {}, max {} (seen by polling every {} ms)",
        seconds(percentile(&t.verdicts, 50.0)),
        seconds(percentile(&t.verdicts, 95.0)),
        seconds(t.verdicts.last().copied().unwrap_or_default()),
        POLL.as_millis()
    ))?;
    line(format_args!(
        "  {} judged in {}: {:.2} submissions per second; {} accepted",
        t.judged,
        seconds(t.last),
        t.judged as f64 / t.last.as_secs_f64().max(1e-9),
        t.accepted
    ))?;
    if let Some(peak) = peak {
        line(format_args!("  the server's peak memory: {peak} MiB"))?;
    }
    for error in t.failures.iter().take(5) {
        line(format_args!("  a student failed: {error}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::common::test::{ISOLATION, millis, printed};

    fn timing(login: f64, to_verdict: f64, finished_at: f64) -> Result<Timing> {
        Ok(Timing {
            login: millis(login),
            to_verdict: millis(to_verdict),
            finished_at: millis(finished_at),
            verdict: "accepted".to_string(),
        })
    }

    #[test]
    fn the_report_reads_as_a_bench_run_printed_it() {
        let timings = vec![timing(200.0, 2010.0, 2206.0), timing(160.0, 1010.0, 1190.0)];
        let results = Results {
            students: 2,
            workers: 2,
            isolation: ISOLATION.to_string(),
            peak: Some(53),
            tally: tally(timings, millis(2300.0)),
        };
        assert_eq!(
            printed(|out| print(&results, out)),
            "nimlab bench --serve 2: 2 students log in and submit present_board's model solution at once (2 judging worker(s); isolated with bubblewrap: no network, private filesystem, processes and /tmp; at most 64 processes; one memory limit for the whole run)
  log in:            p50 0.16 s, p95 0.20 s, max 0.20 s
  upload to verdict: p50 1.01 s, p95 2.01 s, max 2.01 s (seen by polling every 1000 ms)
  2 judged in 2.21 s: 0.91 submissions per second; 2 accepted
  the server's peak memory: 53 MiB
"
        );
    }

    #[test]
    fn a_student_who_failed_is_reported() {
        let timings = vec![timing(200.0, 2010.0, 2206.0), Err(internal("login", "401"))];
        let tally = tally(timings, millis(2300.0));
        assert_eq!(
            (tally.judged, tally.accepted, tally.failures.len()),
            (1, 1, 1)
        );
        let results = Results {
            students: 2,
            workers: 2,
            isolation: ISOLATION.to_string(),
            peak: None,
            tally,
        };
        let text = printed(|out| print(&results, out));
        assert!(text.contains("\n  1 judged in 2.21 s: "), "{text}");
        assert!(!text.contains("peak memory"), "{text}");
        assert!(
            text.ends_with("\n  a student failed: login: 401\n"),
            "{text}"
        );
    }
}
