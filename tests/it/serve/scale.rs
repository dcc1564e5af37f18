//! The website as several processes on one PostgreSQL database: web processes that only
//! serve (`--workers 0`) and judge processes that only judge (`--no-web`), each job claimed
//! under a lease. Real processes and a real database (see `common::postgres`), read directly
//! to see who judged what, when, and how many times.

use super::*;
use crate::common::postgres;

/// A short lease, so that a lost judge's job comes back within seconds.
const LEASE: &str = "3";
/// A bound on every wait here; the tests poll the database and end as soon as they can.
const WAIT: Duration = Duration::from_secs(90);
/// Between two looks at the database.
const POLL: Duration = Duration::from_millis(50);

/// A judge process (`nimlab serve --no-web`), killed when dropped, even stopped.
pub(super) struct Judge {
    child: Child,
    /// As the judge names itself, and the `judge` column names it: `HOST:PID:NONCE`.
    name: String,
    stderr: PathBuf,
}

impl Judge {
    pub(super) fn start(db: &str, lab: &Path, workers: usize) -> Judge {
        Judge::start_with(db, lab, workers, &[])
    }

    /// A judge with more environment: the test hooks that fake its host name and process id
    /// (`NIMLAB_TEST_HOST_PID`) or set its clock off (`NIMLAB_TEST_CLOCK_SKEW_MS`).
    fn start_with(db: &str, lab: &Path, workers: usize, env: &[(&str, &str)]) -> Judge {
        let stderr = stderr_file(Path::new(db));
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("nimlab"))
            .envs(env.iter().copied())
            .arg("--lab")
            .arg(lab)
            .args(["serve", "--no-web", "--lease", LEASE, "--workers"])
            .arg(workers.to_string())
            .arg("--db")
            .arg(db)
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("nimlab serve --no-web starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // The first line, then whatever else it prints, so that it never writes to a
            // closed pipe.
            let mut lines = std::io::BufReader::new(stdout).lines();
            let _ = sender.send(lines.next().and_then(Result::ok).unwrap_or_default());
            for _ in lines {}
        });
        let line = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the judge prints its name");
        let name = line
            .strip_prefix("nimlab serve: judging as ")
            .and_then(|rest| rest.strip_suffix(" (no web)"))
            .unwrap_or_else(|| {
                panic!(
                    "not a judge's first line: {line:?}; stderr: {}",
                    std::fs::read_to_string(&stderr).unwrap_or_default()
                )
            })
            .to_string();
        // HOST:PID:NONCE, the PID this process's unless a test hook names it.
        let parts: Vec<&str> = name.rsplitn(3, ':').collect();
        assert_eq!(parts.len(), 3, "{name}");
        assert!(
            parts[0].len() == 8 && parts[0].bytes().all(|b| b.is_ascii_hexdigit()),
            "{name}"
        );
        if !env.iter().any(|(key, _)| *key == "NIMLAB_TEST_HOST_PID") {
            assert_eq!(parts[1], child.id().to_string(), "{name}");
        }
        Judge {
            child,
            name,
            stderr,
        }
    }

    pub(super) fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    fn signal(&self, signal: libc::c_int) {
        // SAFETY: a signal to a child this test started and has not reaped.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, signal) }, 0);
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        // SIGKILL ends a stopped process too.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The judges' stderr, for a failed assertion's message.
fn stderrs(judges: &[&Judge]) -> String {
    judges
        .iter()
        .map(|j| format!("--- {}:\n{}", j.name, j.stderr()))
        .collect()
}

/// exclusive_or alone, Python 3 only, four cases (two sample, two secret): quick to judge,
/// and a wrong program fails some. `edit` changes its exercise.toml further.
fn scale_lab(edit: impl Fn(&mut toml::Table)) -> tempfile::TempDir {
    let lab = lab_with(&["exclusive_or"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
        edit(config);
    });
    let keep = [
        "sample/01-zero-zero",
        "sample/02-one-one",
        "secret/02-zero-one",
        "secret/03-one-zero",
    ];
    let fixtures = lab.path().join("fixtures/exclusive_or");
    for entry in walkdir::WalkDir::new(&fixtures) {
        let path = entry.unwrap().into_path();
        if path.is_file() {
            let case = path.strip_prefix(&fixtures).unwrap().with_extension("");
            if !keep.contains(&case.to_str().unwrap()) {
                std::fs::remove_file(path).unwrap();
            }
        }
    }
    lab
}

/// The model solution, made its own file by `tag` (as students' files are each their own).
fn accepted_program(tag: &str) -> Vec<u8> {
    let mut source = std::fs::read(solution("exclusive_or")).unwrap();
    source.extend_from_slice(format!("\n# {tag}\n").as_bytes());
    source
}

/// Always 0: right for 0 0 and 1 1, wrong for the others.
fn wrong_program(tag: &str) -> Vec<u8> {
    format!("print(0)\n# {tag}\n").into_bytes()
}

/// The model solution, slowed down by a second at its end (per case, or per job if the
/// runner loads it once): long enough to catch it running, well within the limits
/// (exercise.toml: 2 s of CPU, 5 s of wall time per case; a sleep uses no CPU). At the end,
/// as its `from __future__` import must come first.
fn slow_program() -> Vec<u8> {
    slower_program(1.0)
}

/// The model solution, slowed down by `seconds` at its end (see [`slow_program`]).
fn slower_program(seconds: f64) -> Vec<u8> {
    let mut source = accepted_program("slow");
    source.extend_from_slice(format!("\nimport time\ntime.sleep({seconds})\n").as_bytes());
    source
}

/// Accounts for `students`, each with the password `NAME-password`.
fn accounts(db: &str, dir: &Path, students: &[&str]) {
    let roster = dir.join("roster.csv");
    let mut text = "username,password\n".to_string();
    for name in students {
        text.push_str(&format!("{name},{name}-password\n"));
    }
    std::fs::write(&roster, text).unwrap();
    nimlab()
        .args(["users", "import"])
        .arg(&roster)
        .args(["--db", db])
        .assert()
        .success();
}

/// A web process alone: it serves and queues, and judges nothing.
fn web(db: &str, lab: &Path) -> Server {
    Server::start(
        Path::new(db),
        Some(lab),
        &["--workers", "0", "--max-queued", "1000"],
    )
}

fn upload_bytes(client: &Client, server: &Server, filename: &str, bytes: Vec<u8>) -> i64 {
    let response = upload(client, server, "exclusive_or", filename, bytes);
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    response.json::<Value>().unwrap()["id"].as_i64().unwrap()
}

fn sql(db: &str) -> ::postgres::Client {
    ::postgres::Client::connect(db, ::postgres::NoTls).unwrap()
}

/// A submission as the database has it.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    student: String,
    status: String,
    verdict: Option<String>,
    attempt: i64,
    lost: i64,
    judge: Option<String>,
    started_at: Option<i64>,
    finished_at: Option<i64>,
    /// Milliseconds since the epoch, while running.
    lease_until: Option<i64>,
}

fn rows(db: &mut ::postgres::Client) -> Vec<Row> {
    db.query(
        "SELECT s.id::bigint, u.username, s.status, s.verdict, s.attempt::bigint,
                s.lost::bigint, s.judge, s.started_at::bigint, s.finished_at::bigint,
                s.lease_until::bigint
         FROM submissions s JOIN users u ON u.id = s.user_id ORDER BY s.id",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| Row {
        id: r.get(0),
        student: r.get(1),
        status: r.get(2),
        verdict: r.get(3),
        attempt: r.get(4),
        lost: r.get(5),
        judge: r.get(6),
        started_at: r.get(7),
        finished_at: r.get(8),
        lease_until: r.get(9),
    })
    .collect()
}

fn row(db: &mut ::postgres::Client, id: i64) -> Row {
    rows(db).into_iter().find(|r| r.id == id).expect("the row")
}

/// Polls the database until `done` says so of its submissions; their rows then. Panics
/// after [`WAIT`], with the judges' stderr.
fn until(
    db: &mut ::postgres::Client,
    judges: &[&Judge],
    what: &str,
    done: impl Fn(&[Row]) -> bool,
) -> Vec<Row> {
    let start = Instant::now();
    loop {
        let now = rows(db);
        if done(&now) {
            return now;
        }
        assert!(
            start.elapsed() < WAIT,
            "{what}: not in {WAIT:?}; {:?}\n{}",
            now.iter()
                .filter(|r| r.status != "done")
                .take(5)
                .collect::<Vec<_>>(),
            stderrs(judges)
        );
        std::thread::sleep(POLL);
    }
}

fn finished(rows: &[Row]) -> bool {
    rows.iter()
        .all(|r| r.status == "done" || r.status == "failed")
}

/// The student who uploads first and most.
const FLOODER: &str = "flood";
/// Everyone else, who upload fewer, after.
const OTHERS: [&str; 8] = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"];
/// The flooder's uploads, and each other student's: 200 in all.
const FLOOD: usize = 40;
const EACH: usize = 20;

/// The class's uploads, through both web processes in turn: the flooder's first, then the
/// others' in turn. Each upload's id and the verdict it must get (one in four is wrong).
fn upload_all(webs: &[Server; 2]) -> Vec<(i64, &'static str)> {
    let login = |name: &str| api_login(&webs[0], name, &format!("{name}-password"));
    // Logged in at the first web process: the session is in the database, and the second
    // honours it too.
    let flooder = login(FLOODER);
    let others: Vec<Client> = OTHERS.iter().map(|name| login(name)).collect();
    let mut order: Vec<&Client> = vec![&flooder; FLOOD];
    for _ in 0..EACH {
        order.extend(others.iter());
    }
    order
        .into_iter()
        .enumerate()
        .map(|(k, client)| {
            let tag = format!("upload {k}");
            let (bytes, verdict) = if k % 4 == 3 {
                (wrong_program(&tag), "wrong_answer")
            } else {
                (accepted_program(&tag), "accepted")
            };
            (
                upload_bytes(client, &webs[k % 2], "exclusive_or.py", bytes),
                verdict,
            )
        })
        .collect()
}

#[test]
fn two_web_processes_and_three_judges_judge_every_upload_once_and_fairly() {
    let Some(db) = postgres::database() else {
        return;
    };
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let mut students = vec![FLOODER];
    students.extend(OTHERS);
    accounts(&db, dir.path(), &students);
    let lab = scale_lab(|_| {});
    let webs = [web(&db, lab.path()), web(&db, lab.path())];
    let expected = upload_all(&webs);
    assert_eq!(expected.len(), FLOOD + OTHERS.len() * EACH);
    let mut client = sql(&db);
    assert!(rows(&mut client).iter().all(|r| r.status == "queued"));

    let judges: Vec<Judge> = (0..3).map(|_| Judge::start(&db, lab.path(), 1)).collect();
    let judge_refs: Vec<&Judge> = judges.iter().collect();
    let rows = until(&mut client, &judge_refs, "all judged", finished);
    eprintln!("200 uploads judged by 3 judges in {:?}", started.elapsed());
    let names: Vec<&str> = judges.iter().map(|j| j.name.as_str()).collect();
    for (row, (id, verdict)) in rows.iter().zip(&expected) {
        assert_eq!(row.id, *id);
        assert_eq!(row.status, "done", "{row:?}\n{}", stderrs(&judge_refs));
        assert_eq!(row.verdict.as_deref(), Some(*verdict), "{row:?}");
        // Judged once: claimed once, never lost.
        assert_eq!((row.attempt, row.lost), (1, 0), "{row:?}");
        assert!(names.contains(&row.judge.as_deref().unwrap()), "{row:?}");
    }
    let mut per_judge: Vec<usize> = names
        .iter()
        .map(|name| {
            rows.iter()
                .filter(|r| r.judge.as_deref() == Some(name))
                .count()
        })
        .collect();
    per_judge.sort();
    eprintln!("per judge: {per_judge:?}");
    assert!(per_judge[1] > 0, "one judge did all: {per_judge:?}");
    assert_fair(&rows);
    for judge in &judges {
        assert!(
            !judge.stderr().contains("discarded"),
            "{}",
            stderrs(&judge_refs)
        );
    }
}

/// In the order the jobs were started, the flooder takes no more than its share of the
/// first claims.
///
/// The queue takes next the student whose jobs were started least lately, then the oldest
/// upload. Claimed one at a time, the first 9k claims would give each of the 9 students
/// exactly k (they all have at least 20 waiting, so none runs out in the first 180): the
/// flooder, whose uploads are the oldest, is first in every round, so of the first N claims
/// it gets ceil(N / 9). Judges claim at the same time, though: each of the 3 workers can
/// claim while another's claim is not yet counted, and `started_at` (milliseconds, ties by
/// id) may order claims a little differently from their commits; the counts then put the
/// flooder behind again until the others catch up. So at most ceil(N / 9) + 3 of the first N.
/// Taken in upload order instead, the first 40 would all be the flooder's.
fn assert_fair(rows: &[Row]) {
    const FIRST: usize = 90;
    let mut order: Vec<&Row> = rows.iter().collect();
    order.sort_by_key(|r| (r.started_at, r.id));
    let students = 1 + OTHERS.len();
    let flooder = order[..FIRST]
        .iter()
        .filter(|r| r.student == FLOODER)
        .count();
    let bound = FIRST.div_ceil(students) + 3;
    eprintln!("the flooder's share of the first {FIRST} claims: {flooder} (at most {bound})");
    assert!(
        flooder <= bound,
        "the flooder had {flooder} of the first {FIRST} claims (at most {bound}): {:?}",
        order[..FIRST]
            .iter()
            .map(|r| r.student.as_str())
            .collect::<Vec<_>>()
    );
}

/// A web process, `judges` judges of one worker, and one student's slow submission, caught
/// while one of them judges it.
struct Running {
    client: ::postgres::Client,
    judges: Vec<Judge>,
    id: i64,
    /// The row when it was first seen running.
    first: Row,
    _web: Server,
    _lab: tempfile::TempDir,
    _dir: tempfile::TempDir,
}

impl Running {
    fn start(judges: usize) -> Option<Running> {
        Running::start_with(judges, &[], slow_program())
    }

    /// `judges` judges with `env` (test hooks) each, and `program` uploaded.
    fn start_with(judges: usize, env: &[(&str, &str)], program: Vec<u8>) -> Option<Running> {
        let db = postgres::database()?;
        let dir = tempfile::tempdir().unwrap();
        accounts(&db, dir.path(), &["ada"]);
        let lab = scale_lab(|_| {});
        let web = web(&db, lab.path());
        let judges: Vec<Judge> = (0..judges)
            .map(|_| Judge::start_with(&db, lab.path(), 1, env))
            .collect();
        let ada = api_login(&web, "ada", "ada-password");
        let id = upload_bytes(&ada, &web, "exclusive_or.py", program);
        let mut client = sql(&db);
        let refs: Vec<&Judge> = judges.iter().collect();
        let first = until(&mut client, &refs, "running", |rows| {
            rows[0].status == "running"
        })
        .remove(0);
        assert_eq!(first.id, id);
        Some(Running {
            client,
            judges,
            id,
            first,
            _web: web,
            _lab: lab,
            _dir: dir,
        })
    }

    /// The judge judging the submission when first seen running.
    fn holder(&self) -> &Judge {
        let name = self.first.judge.as_deref().expect("a running job's judge");
        self.judges
            .iter()
            .find(|j| j.name == name)
            .expect("one of ours")
    }

    /// Waits until another judge than the holder has judged the submission; its row.
    fn judged_by_another(&mut self) -> Row {
        let holder = self.holder().name.clone();
        let refs: Vec<&Judge> = self.judges.iter().collect();
        let rows = until(&mut self.client, &refs, "judged again", |rows| {
            rows[0].status == "done" && rows[0].judge.as_deref() != Some(holder.as_str())
        });
        let row = rows[0].clone();
        assert_eq!(row.verdict.as_deref(), Some("accepted"), "{row:?}");
        assert!(row.attempt > self.first.attempt, "{:?} {row:?}", self.first);
        assert_eq!(row.lost, 1, "{row:?}");
        row
    }
}

#[test]
fn a_judge_killed_mid_job_loses_it_to_another_after_its_lease() {
    let Some(mut running) = Running::start(2) else {
        return;
    };
    let holder = running.holder();
    holder.signal(libc::SIGKILL);
    let lease = row(&mut running.client, running.id).lease_until;
    let row = running.judged_by_another();
    // Started again only once the lease (renewed until the kill) ran out.
    assert!(row.started_at >= lease, "{lease:?} {row:?}");
}

#[test]
fn a_stale_result_from_a_judge_that_lost_its_lease_is_discarded() {
    let Some(mut running) = Running::start(2) else {
        return;
    };
    running.holder().signal(libc::SIGSTOP);
    let lease = row(&mut running.client, running.id).lease_until;
    let row = running.judged_by_another();
    assert!(row.started_at >= lease, "{lease:?} {row:?}");
    running.holder().signal(libc::SIGCONT);
    let discarded = format!("result of submission {} is discarded", running.id);
    let start = Instant::now();
    while !running.holder().stderr().contains(&discarded) {
        assert!(
            start.elapsed() < WAIT,
            "no {discarded:?}: {}",
            running.holder().stderr()
        );
        std::thread::sleep(POLL);
    }
    // The stored result is still the other judge's, finished once.
    let after = row_after_a_moment(&mut running);
    assert_eq!(after, row);
    assert_eq!(after.status, "done");
    assert_ne!(after.judge.as_deref(), Some(running.holder().name.as_str()));
}

/// The attack of two containers both named `vm` whose nimlab is process 1: judges named
/// alike took each other's jobs for their own. One stopping cleanly gave back the other's
/// job (judged again from the start), and one alive renewed a dead one's lease, so the job
/// stayed `running` long past it. Each judge now has a nonce in its name.
#[test]
fn judges_with_one_host_name_and_pid_neither_give_back_nor_keep_each_others_jobs() {
    let same = [("NIMLAB_TEST_HOST_PID", "vm:1")];
    let Some(mut running) = Running::start_with(3, &same, slower_program(3.0)) else {
        return;
    };
    let names: std::collections::HashSet<&str> =
        running.judges.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("vm:1:")), "{names:?}");
    let holder = running.holder().name.clone();
    // Another judge stops cleanly: it gives back its own jobs (none), not the holder's.
    let other = running
        .judges
        .iter()
        .position(|j| j.name != holder)
        .unwrap();
    running.judges[other].signal(libc::SIGTERM);
    running.judges[other].child.wait().unwrap();
    let now = row(&mut running.client, running.id);
    assert_eq!(
        (now.status.as_str(), now.attempt, now.judge.as_deref()),
        ("running", running.first.attempt, Some(holder.as_str())),
        "{now:?}"
    );
    // The holder dies: the judge left, named alike, does not renew its lease.
    running.holder().signal(libc::SIGKILL);
    let lease = row(&mut running.client, running.id).lease_until;
    let row = running.judged_by_another();
    assert!(row.started_at >= lease, "{lease:?} {row:?}");
}

/// Leases are measured by the database's clock. A judge whose clock is an hour behind holds
/// a job, and one whose clock is an hour ahead holds another and is killed: by their own
/// clocks the one ahead would take the first job at once, and the one behind would wait two
/// hours for the dead one's lease.
#[test]
fn leases_run_by_the_database_clock_not_a_judge_clock_set_off() {
    const SKEW: &str = "NIMLAB_TEST_CLOCK_SKEW_MS";
    let Some(db) = postgres::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    accounts(&db, dir.path(), &["ada", "bo"]);
    let lab = scale_lab(|_| {});
    let web = web(&db, lab.path());
    let behind = Judge::start_with(&db, lab.path(), 1, &[(SKEW, "-3600000")]);
    let mut client = sql(&db);
    let ada = api_login(&web, "ada", "ada-password");
    let first = upload_bytes(&ada, &web, "exclusive_or.py", slower_program(2.0));
    until(&mut client, &[&behind], "running behind", |rows| {
        rows[0].status == "running"
    });
    let ahead = Judge::start_with(&db, lab.path(), 1, &[(SKEW, "3600000")]);
    let bo = api_login(&web, "bo", "bo-password");
    let second = upload_bytes(&bo, &web, "exclusive_or.py", slower_program(2.0));
    let judges = [&behind, &ahead];
    until(&mut client, &judges, "the second running ahead", |rows| {
        rows[1].status == "running" && rows[1].judge.as_deref() == Some(ahead.name.as_str())
    });
    ahead.signal(libc::SIGKILL);
    let lease = row(&mut client, second).lease_until;
    let rows = until(&mut client, &judges, "both judged", |rows| {
        rows.iter().all(|r| r.status == "done")
    });
    let stderr = stderrs(&judges);
    assert_eq!(rows[0].id, first);
    assert_eq!(
        rows[0].judge.as_deref(),
        Some(behind.name.as_str()),
        "{stderr}"
    );
    assert_eq!(
        (rows[0].attempt, rows[0].lost),
        (1, 0),
        "{:?}\n{stderr}",
        rows[0]
    );
    assert_eq!(
        rows[1].judge.as_deref(),
        Some(behind.name.as_str()),
        "{stderr}"
    );
    assert_eq!(rows[1].lost, 1, "{:?}", rows[1]);
    assert!(rows[1].started_at >= lease, "{lease:?} {:?}", rows[1]);
    // A job's start is the database's time too: neither judge's hour off is written, so no
    // student looks started in the future (and is served last) or long ago.
    let db_now: i64 = client
        .query_one(
            "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
            &[],
        )
        .unwrap()
        .get(0);
    for row in &rows {
        assert_eq!(row.verdict.as_deref(), Some("accepted"), "{row:?}");
        let started = row.started_at.expect("started");
        assert!((db_now - started).abs() < 600_000, "{db_now} {row:?}");
    }
}

/// The submission's row a little after the stopped judge said it discarded its result (in
/// case anything else were to follow).
fn row_after_a_moment(running: &mut Running) -> Row {
    std::thread::sleep(Duration::from_millis(500));
    row(&mut running.client, running.id)
}

#[test]
fn a_judge_with_another_lab_refuses_jobs_and_a_matching_one_takes_them() {
    let Some(db) = postgres::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    accounts(&db, dir.path(), &["ada"]);
    let lab = scale_lab(|_| {});
    let other = scale_lab(|config| {
        config.insert("points".into(), toml::Value::Integer(11));
    });
    let web = web(&db, lab.path());
    let stale = Judge::start(&db, other.path(), 1);
    let start = Instant::now();
    while !stale.stderr().contains("refuses jobs") {
        assert!(start.elapsed() < WAIT, "{}", stale.stderr());
        std::thread::sleep(POLL);
    }
    let ada = api_login(&web, "ada", "ada-password");
    let id = upload_bytes(&ada, &web, "exclusive_or.py", accepted_program("ada"));
    let mut client = sql(&db);
    let refusing: Option<String> = client
        .query_one(
            "SELECT refusing FROM processes WHERE name = $1",
            &[&stale.name],
        )
        .unwrap()
        .get(0);
    assert!(refusing.is_some_and(|why| !why.is_empty()));
    // Long enough for a judge that did not refuse to claim it (a notice wakes it at once).
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(row(&mut client, id).status, "queued", "{}", stale.stderr());

    let good = Judge::start(&db, lab.path(), 1);
    let rows = until(&mut client, &[&stale, &good], "judged", finished);
    assert_eq!(
        rows[0].verdict.as_deref(),
        Some("accepted"),
        "{:?}",
        rows[0]
    );
    assert_eq!(rows[0].judge.as_deref(), Some(good.name.as_str()));
    assert_eq!(rows[0].attempt, 1);
    let refusing: Option<String> = client
        .query_one(
            "SELECT refusing FROM processes WHERE name = $1",
            &[&good.name],
        )
        .unwrap()
        .get(0);
    assert_eq!(refusing, None);
}

#[test]
fn bench_serve_with_judges_splits_the_website_over_processes_and_drops_its_database() {
    let Some(db) = postgres::database() else {
        return;
    };
    let output = nimlab()
        .args(["bench", "--serve", "10", "--judges", "2", "--db", &db])
        .timeout(WAIT)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.starts_with("nimlab bench --serve 10 --judges 2: 10 students "),
        "{stdout}"
    );
    assert!(stdout.contains("judged by 2 judge process(es)"), "{stdout}");
    assert!(
        stdout.contains("10 judged in") && stdout.contains("submissions per second; 10 accepted"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the web process's peak memory: "),
        "{stdout}"
    );
    // Each judge by name, and together they judged them all.
    let judged: Vec<usize> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("  judge "))
        .map(|rest| {
            let count = rest.split(": judged ").nth(1).expect("a count");
            count.split(',').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(judged.len(), 2, "{stdout}");
    assert_eq!(judged.iter().sum::<usize>(), 10, "{stdout}");
    // The scratch database is gone; only the test's own is left.
    let mut client = sql(&db);
    let left: i64 = client
        .query_one(
            "SELECT COUNT(*) FROM pg_database WHERE datname LIKE 'nimlab_bench_%'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(left, 0);
}

#[test]
fn bench_judges_need_a_postgresql_database() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bench.db");
    for args in [
        vec!["bench", "--serve", "2", "--judges", "2"],
        vec![
            "bench",
            "--serve",
            "2",
            "--judges",
            "2",
            "--db",
            file.to_str().unwrap(),
        ],
    ] {
        let output = nimlab().args(&args).timeout(WAIT).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("--judges needs --db"),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(!file.exists());
    // --judges belongs to --serve.
    let output = nimlab()
        .args(["bench", "--judges", "2"])
        .timeout(WAIT)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
