//! `nimlab bench --serve N`: a server on a fresh database, and N students who log in and
//! submit present_board's model solution at once, each through its own HTTP client.
//! Reports the time from upload to verdict and the submissions judged per second.
//!
//! With `--judges J`, the website runs as a course spreads it over processes: one web process
//! (`--workers 0`) and J judge processes (`--no-web`) on a scratch database the bench makes
//! on the PostgreSQL server `--db` names, and drops afterwards however the bench ends.

use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_core::runner::{ProcessRunner, Runner};
use nimlab_web::store::accounts;
use nimlab_web::store::db;
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

/// Logins answered 429 (too many requests), counted over all the students.
type Refusals = std::sync::Arc<std::sync::atomic::AtomicUsize>;

async fn student(
    base: String,
    username: String,
    source: String,
    t0: Instant,
    limit: Duration,
    refusals: Refusals,
) -> Result<Timing> {
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(120))
        .build()
        .map_err(|e| internal("cannot make an HTTP client", e))?;
    let started = Instant::now();
    // All the students come from one address, as a lab room behind NAT does. The server
    // shares its password checks fairly rather than refusing an address: a login answered
    // 429 is counted and fails the student, with no second try.
    let login = client
        .post(format!("{base}/api/login"))
        .json(&serde_json::json!({ "username": username, "password": PASSWORD }))
        .send()
        .await
        .map_err(|e| internal("login", e))?;
    if login.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
        refusals.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
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
    /// The web process (judging too, unless `workers` is 0); its address.
    fn start(lab: &Lab, db: &std::path::Path, workers: Option<usize>) -> Result<Child> {
        let mut command = Child::command(lab, db)?;
        command.args(["--listen", "127.0.0.1:0", "--max-queued", "1"]);
        if let Some(workers) = workers {
            command.args(["--workers", &workers.to_string()]);
        }
        let (process, line) = Child::spawn(command)?;
        let addr = line
            .strip_prefix("nimlab serve: listening on ")
            .ok_or_else(|| internal("the server did not start", &line))?
            .to_string();
        Ok(Child { process, addr })
    }

    /// A judge process (`--no-web`) with `workers`; `addr` is its name (`HOST:PID:NONCE`).
    fn start_judge(lab: &Lab, db: &std::path::Path, workers: usize) -> Result<Child> {
        let mut command = Child::command(lab, db)?;
        command.args(["--no-web", "--workers", &workers.to_string()]);
        let (process, line) = Child::spawn(command)?;
        let name = line
            .strip_prefix("nimlab serve: judging as ")
            .and_then(|rest| rest.strip_suffix(" (no web)"))
            .ok_or_else(|| internal("the judge did not start", &line))?
            .to_string();
        Ok(Child {
            process,
            addr: name,
        })
    }

    /// `nimlab serve` on `lab` and `db`.
    fn command(lab: &Lab, db: &std::path::Path) -> Result<std::process::Command> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::internal("cannot find the nimlab binary", e))?;
        let mut command = std::process::Command::new(exe);
        if let nimlab_core::lab::LabOrigin::Folder(folder) = &lab.origin {
            command.arg("--lab").arg(folder);
        }
        command
            .arg("serve")
            .arg("--db")
            .arg(db)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit());
        Ok(command)
    }

    /// Starts `command`; its first line, which says it is ready. The rest of its output is
    /// read and dropped, so that it never writes to a closed pipe.
    fn spawn(mut command: std::process::Command) -> Result<(std::process::Child, String)> {
        let mut process = command
            .spawn()
            .map_err(|e| Error::internal("cannot start nimlab serve", e))?;
        let mut line = String::new();
        let mut stdout = std::io::BufReader::new(process.stdout.take().expect("piped"));
        let read = std::io::BufRead::read_line(&mut stdout, &mut line);
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        if let Err(e) = read {
            let _ = process.kill();
            let _ = process.wait();
            return Err(Error::internal("cannot read the server's first line", e));
        }
        Ok((process, line.trim().to_string()))
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
    /// With `--judges`: the judge processes.
    judges: Option<Split>,
}

/// `--judges J`: how many judge processes, with how many workers each, on which PostgreSQL
/// server.
#[derive(Debug, Clone)]
pub struct Judges {
    count: usize,
    server: std::path::PathBuf,
}

impl Judges {
    /// `--judges` with `--db`: a usage error unless there is at least one judge and `--db` is
    /// a PostgreSQL connection string (judge processes share a database over the network,
    /// not a file).
    pub fn new(count: usize, server: Option<&std::path::Path>) -> Result<Judges> {
        if count == 0 {
            return Err(Error::usage("--judges needs at least 1 judge process"));
        }
        match server {
            Some(server) if db::is_postgres(server) => Ok(Judges {
                count,
                server: server.to_path_buf(),
            }),
            Some(server) => Err(Error::usage(format!(
                "--judges needs --db to be a PostgreSQL connection string (postgresql://...), not {}",
                db::shown(server)
            ))),
            None => Err(Error::usage(
                "--judges needs --db, a PostgreSQL connection string (postgresql:///postgres?host=/run/postgresql): the bench makes a scratch database on that server",
            )),
        }
    }
}

/// What the judge processes did.
struct Split {
    /// Workers in each judge process.
    workers: usize,
    /// Each judge's name, the submissions it judged, and its peak memory (MiB).
    judges: Vec<(String, usize, Option<u64>)>,
}

/// The students' timings, gathered.
struct Tally {
    /// Logins answered 429.
    refused: usize,
    /// Sorted, of the students who saw their verdict.
    logins: Vec<Duration>,
    verdicts: Vec<Duration>,
    /// The students who saw their verdict, and of them those accepted.
    judged: usize,
    accepted: usize,
    /// The other verdicts seen, with how many students saw each (a model solution should
    /// see none).
    others: std::collections::BTreeMap<String, usize>,
    /// Since the bench started, when the last verdict was seen.
    last: Duration,
    /// Why each of the others failed.
    failures: Vec<Error>,
}

/// Has `students` submit at once to a server with `workers` (None: its default), or to a
/// web process and `judges`, and prints the report; not accepted (exit 1) unless every
/// student's submission was accepted.
pub fn run(
    lab: &Lab,
    students: usize,
    workers: Option<usize>,
    judges: Option<Judges>,
    out: &mut dyn Write,
) -> Result<u8> {
    let results = match judges {
        None => measure(lab, students, workers)?,
        Some(judges) => measure_split(lab, students, workers, &judges)?,
    };
    print(&results, out)?;
    let tally = &results.tally;
    Ok(
        if tally.failures.is_empty() && tally.accepted == tally.judged {
            nimlab_core::exit::SUCCESS
        } else {
            nimlab_core::exit::NOT_ACCEPTED
        },
    )
}

/// The model solution the students submit; a usage error without students or solution.
fn model_solution(lab: &Lab, students: usize) -> Result<String> {
    if students == 0 {
        return Err(Error::usage("--serve needs at least 1 student"));
    }
    lab.exercise(EXERCISE)?.solution.clone().ok_or_else(|| {
        Error::usage(format!(
            "the lab's {EXERCISE} has no model solution to submit"
        ))
    })
}

fn measure(lab: &Lab, students: usize, workers: Option<usize>) -> Result<Results> {
    let source = model_solution(lab, students)?;
    let folder = tempfile::tempdir().map_err(|e| Error::internal("cannot create a folder", e))?;
    let db_path = folder.path().join("bench.db");
    accounts(&db_path, students)?;
    let server = Child::start(lab, &db_path, workers)?;
    let workers = workers.unwrap_or_else(nimlab_core::pool::default_jobs);
    let isolation = ProcessRunner::detect().isolation().summary();
    let (timings, elapsed, refused) = submit_at_once(&server.addr, &source, students)?;
    let peak = server.peak_memory_mib();
    drop(server);
    Ok(Results {
        students,
        workers,
        isolation,
        peak,
        tally: tally(timings, elapsed, refused),
        judges: None,
    })
}

/// One web process that only serves, and `judges.count` judge processes that only judge,
/// on a scratch database; each judge has `workers` (None: the cores shared between them,
/// at least one each).
fn measure_split(
    lab: &Lab,
    students: usize,
    workers: Option<usize>,
    judges: &Judges,
) -> Result<Results> {
    let source = model_solution(lab, students)?;
    // Declared first, so dropped last: the processes end before their database goes.
    let scratch = Scratch::create(&judges.server)?;
    accounts(&scratch.uri, students)?;
    let web = Child::start(lab, &scratch.uri, Some(0))?;
    let workers =
        workers.unwrap_or_else(|| (nimlab_core::pool::default_jobs() / judges.count).max(1));
    let processes = (0..judges.count)
        .map(|_| Child::start_judge(lab, &scratch.uri, workers))
        .collect::<Result<Vec<_>>>()?;
    let isolation = ProcessRunner::detect().isolation().summary();
    let (timings, elapsed, refused) = submit_at_once(&web.addr, &source, students)?;
    let peak = web.peak_memory_mib();
    let peaks: Vec<(String, Option<u64>)> = processes
        .iter()
        .map(|judge| (judge.addr.clone(), judge.peak_memory_mib()))
        .collect();
    drop(processes);
    drop(web);
    let judged = scratch.judged()?;
    let count = |name: &str| {
        judged
            .iter()
            .filter(|(judge, _)| judge == name)
            .map(|(_, count)| count)
            .sum()
    };
    let split = Split {
        workers,
        judges: peaks
            .into_iter()
            .map(|(name, peak)| {
                let count = count(&name);
                (name, count, peak)
            })
            .collect(),
    };
    Ok(Results {
        students,
        workers: workers * judges.count,
        isolation,
        peak,
        tally: tally(timings, elapsed, refused),
        judges: Some(split),
    })
}

/// A scratch database on a PostgreSQL server, dropped with this.
struct Scratch {
    /// The server's connection string, as `--db` gave it.
    server: std::path::PathBuf,
    name: String,
    /// The scratch database's connection string.
    uri: std::path::PathBuf,
}

impl Scratch {
    fn create(server: &std::path::Path) -> Result<Scratch> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let name = format!("nimlab_bench_{}_{nanos}", std::process::id());
        let mut admin = admin(server)?;
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .map_err(|e| {
                Error::usage(format!(
                    "--db {}: cannot create a scratch database there: {e}",
                    db::shown(server)
                ))
            })?;
        Ok(Scratch {
            server: server.to_path_buf(),
            uri: with_database(server, &name),
            name,
        })
    }

    /// The judges' names and how many submissions each judged, by name.
    fn judged(&self) -> Result<Vec<(String, usize)>> {
        let mut client = admin(&self.uri)?;
        let rows = client
            .query(
                "SELECT judge, COUNT(*)::bigint FROM submissions WHERE judge IS NOT NULL
                 GROUP BY judge ORDER BY judge",
                &[],
            )
            .map_err(|e| internal("cannot count the judges' submissions", e))?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1) as usize))
            .collect())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let dropped = admin(&self.server).and_then(|mut admin| {
            admin
                .batch_execute(&format!(
                    "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                    self.name
                ))
                .map_err(|e| internal("cannot drop the scratch database", e))
        });
        if let Err(e) = dropped {
            eprintln!("nimlab bench: {e} ({})", self.name);
        }
    }
}

/// A connection to the PostgreSQL database `uri` names.
fn admin(uri: &std::path::Path) -> Result<postgres::Client> {
    let config: postgres::Config = uri.to_string_lossy().parse().map_err(|e| {
        Error::usage(format!(
            "--db {}: not a PostgreSQL connection string: {e}",
            db::shown(uri)
        ))
    })?;
    config
        .connect(postgres::NoTls)
        .map_err(|e| Error::usage(format!("--db {}: cannot connect: {e}", db::shown(uri))))
}

/// `server`'s connection string naming the database `name` instead: its path replaced, and
/// any `dbname` parameter left out.
fn with_database(server: &std::path::Path, name: &str) -> std::path::PathBuf {
    let text = server.to_string_lossy();
    let (base, query) = match text.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (&*text, None),
    };
    let (scheme, rest) = base.split_once("://").unwrap_or(("postgresql", base));
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    let mut uri = format!("{scheme}://{authority}/{name}");
    if let Some(query) = query {
        let kept: Vec<&str> = query
            .split('&')
            .filter(|pair| !pair.starts_with("dbname="))
            .collect();
        if !kept.is_empty() {
            uri.push('?');
            uri.push_str(&kept.join("&"));
        }
    }
    std::path::PathBuf::from(uri)
}

/// The students' accounts in a fresh database. They share one hash (the same password):
/// only logging in is measured.
fn accounts(db_path: &std::path::Path, students: usize) -> Result<()> {
    let database = db::Db::open(db_path)?;
    let hash = nimlab_web::auth::hash_password(PASSWORD)?;
    database.with(|c| {
        let mut tx = c.transaction()?;
        for index in 1..=students {
            let user = accounts::NewUser {
                username: format!("student{index:04}"),
                ..accounts::NewUser::default()
            };
            accounts::upsert_user(&mut tx, &user, accounts::Role::Student, Some(&hash))?;
        }
        tx.commit()
    })
}

/// Every student logs in and submits `source` at once, to the server at `base`: each one's
/// timing, how long it took them all, and how many logins were answered 429.
fn submit_at_once(
    base: &str,
    source: &str,
    students: usize,
) -> Result<(Vec<Result<Timing>>, Duration, usize)> {
    let runtime = nimlab_web::runtime()?;
    let limit = Duration::from_secs(60 + 10 * students as u64);
    let refusals = Refusals::default();
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
                    Refusals::clone(&refusals),
                ))
            })
            .collect();
        let mut timings = Vec::new();
        for task in tasks {
            timings.push(task.await.map_err(|e| internal("a student task", e))?);
        }
        let refused = refusals.load(std::sync::atomic::Ordering::Relaxed);
        Ok::<_, Error>((timings, t0.elapsed(), refused))
    })
}

/// The timings gathered; `elapsed`, the whole submission's time, stands for the last
/// verdict's when none was seen; `refused` logins were answered 429.
fn tally(timings: Vec<Result<Timing>>, elapsed: Duration, refused: usize) -> Tally {
    let (done, failed): (Vec<_>, Vec<_>) = timings.into_iter().partition(|t| t.is_ok());
    let done: Vec<Timing> = done.into_iter().map(|t| t.expect("partitioned")).collect();
    let mut logins: Vec<Duration> = done.iter().map(|t| t.login).collect();
    let mut verdicts: Vec<Duration> = done.iter().map(|t| t.to_verdict).collect();
    logins.sort();
    verdicts.sort();
    Tally {
        refused,
        logins,
        verdicts,
        judged: done.len(),
        accepted: done.iter().filter(|t| t.verdict == "accepted").count(),
        others: done.iter().filter(|t| t.verdict != "accepted").fold(
            std::collections::BTreeMap::new(),
            |mut counts, t| {
                *counts.entry(t.verdict.clone()).or_insert(0) += 1;
                counts
            },
        ),
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
        ref judges,
    } = *results;
    let mut line = |text: std::fmt::Arguments| {
        writeln!(out, "{text}").map_err(|e| Error::internal("cannot write to stdout", e))
    };
    match judges {
        None => line(format_args!(
            "nimlab bench --serve {students}: {students} students log in and submit {EXERCISE}'s model solution at once ({workers} judging worker(s); {isolation})",
        ))?,
        Some(split) => line(format_args!(
            "nimlab bench --serve {students} --judges {}: {students} students log in and submit {EXERCISE}'s model solution at once to a web process, judged by {} judge process(es) of {} worker(s) each on PostgreSQL ({workers} in all; {isolation})",
            split.judges.len(),
            split.judges.len(),
            split.workers,
        ))?,
    }
    line(format_args!(
        "  log in:            p50 {}, p95 {}, max {}; {} refused (429)",
        seconds(percentile(&t.logins, 50.0)),
        seconds(percentile(&t.logins, 95.0)),
        seconds(t.logins.last().copied().unwrap_or_default()),
        t.refused
    ))?;
    line(format_args!(
        "  upload to verdict: p50 {}, p95 {}, max {} (seen by polling every {} ms)",
        seconds(percentile(&t.verdicts, 50.0)),
        seconds(percentile(&t.verdicts, 95.0)),
        seconds(t.verdicts.last().copied().unwrap_or_default()),
        POLL.as_millis()
    ))?;
    let others: Vec<String> = t
        .others
        .iter()
        .map(|(verdict, count)| format!("{count} {verdict}"))
        .collect();
    line(format_args!(
        "  {} judged in {}: {:.2} submissions per second; {} accepted{}",
        t.judged,
        seconds(t.last),
        t.judged as f64 / t.last.as_secs_f64().max(1e-9),
        t.accepted,
        if others.is_empty() {
            String::new()
        } else {
            format!(" (not: {})", others.join(", "))
        }
    ))?;
    let server = if judges.is_some() {
        "the web process"
    } else {
        "the server"
    };
    if let Some(peak) = peak {
        line(format_args!("  {server}'s peak memory: {peak} MiB"))?;
    }
    for (name, judged, peak) in judges.iter().flat_map(|split| &split.judges) {
        let memory = peak
            .map(|mib| format!(", peak memory {mib} MiB"))
            .unwrap_or_default();
        line(format_args!("  judge {name}: judged {judged}{memory}"))?;
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
            tally: tally(timings, millis(2300.0), 0),
            judges: None,
        };
        assert_eq!(
            printed(|out| print(&results, out)),
            "nimlab bench --serve 2: 2 students log in and submit present_board's model solution at once (2 judging worker(s); isolated with bubblewrap: no network, private filesystem, processes and /tmp; at most 64 processes; one memory limit for the whole run)
  log in:            p50 0.16 s, p95 0.20 s, max 0.20 s; 0 refused (429)
  upload to verdict: p50 1.01 s, p95 2.01 s, max 2.01 s (seen by polling every 1000 ms)
  2 judged in 2.21 s: 0.91 submissions per second; 2 accepted
  the server's peak memory: 53 MiB
"
        );
    }

    #[test]
    fn a_student_who_failed_is_reported() {
        let timings = vec![timing(200.0, 2010.0, 2206.0), Err(internal("login", "429"))];
        let tally = tally(timings, millis(2300.0), 1);
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
            judges: None,
        };
        let text = printed(|out| print(&results, out));
        assert!(text.contains("\n  1 judged in 2.21 s: "), "{text}");
        assert!(!text.contains("peak memory"), "{text}");
        assert!(text.contains("max 0.20 s; 1 refused (429)\n"), "{text}");
        assert!(
            text.ends_with("\n  a student failed: login: 429\n"),
            "{text}"
        );
    }

    #[test]
    fn the_report_names_the_judges_and_what_each_judged() {
        let timings = vec![timing(200.0, 2010.0, 2206.0), timing(160.0, 1010.0, 1190.0)];
        let results = Results {
            students: 2,
            workers: 2,
            isolation: ISOLATION.to_string(),
            peak: Some(40),
            tally: tally(timings, millis(2300.0), 0),
            judges: Some(Split {
                workers: 1,
                judges: vec![
                    ("host:101".to_string(), 2, Some(30)),
                    ("host:102".to_string(), 0, None),
                ],
            }),
        };
        let text = printed(|out| print(&results, out));
        assert!(
            text.starts_with("nimlab bench --serve 2 --judges 2: 2 students log in and submit present_board's model solution at once to a web process, judged by 2 judge process(es) of 1 worker(s) each on PostgreSQL (2 in all; "),
            "{text}"
        );
        assert!(
            text.ends_with(
                "  the web process's peak memory: 40 MiB\n  judge host:101: judged 2, peak memory 30 MiB\n  judge host:102: judged 0\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn judges_need_a_postgresql_server() {
        let pg = std::path::Path::new("postgresql:///postgres?host=/run/postgresql");
        assert!(Judges::new(2, Some(pg)).is_ok());
        for (count, db) in [
            (2, None),
            (2, Some(std::path::Path::new("class.db"))),
            (0, Some(pg)),
        ] {
            assert_eq!(Judges::new(count, db).unwrap_err().exit_code(), 2);
        }
    }

    #[test]
    fn the_scratch_database_is_named_in_the_servers_connection_string() {
        let named = |server: &str| {
            with_database(std::path::Path::new(server), "scratch")
                .to_string_lossy()
                .into_owned()
        };
        assert_eq!(
            named("postgresql:///postgres?host=/run/postgresql"),
            "postgresql:///scratch?host=/run/postgresql"
        );
        assert_eq!(
            named("postgres://bench:pw@db.example:5433/class?sslmode=disable&dbname=class"),
            "postgres://bench:pw@db.example:5433/scratch?sslmode=disable"
        );
        assert_eq!(
            named("postgresql://localhost"),
            "postgresql://localhost/scratch"
        );
    }
}
