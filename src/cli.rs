//! The command line's shape: every command, argument and help text, and nothing else. What
//! each command does is in [`crate::commands`].

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "nimlab",
    version,
    about = "Checks and grades the game-of-Nim lab's Python exercises",
    after_help = "Exit codes: 0 all accepted or done, 1 some case not accepted (or a fixture wrong), 2 usage or configuration error, 3 nimlab's own failure, 130 interrupted (Ctrl-C)."
)]
pub struct Cli {
    /// Use the lab in this folder (exercises/ and fixtures/) instead of the built-in one
    #[arg(long, global = true, value_name = "DIR")]
    pub lab: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a submission on every case of its exercise
    Check(CheckArgs),
    /// List the lab's exercises
    List,
    /// Print an exercise's statement
    Show { exercise: String },
    /// Write a student pack (statements, starter files, sample cases) into a new folder, or
    /// with --ci a CI workflow that grades a student's repository on push
    Init {
        /// The new folder for the pack; with --ci, the repository (default: the current folder)
        #[arg(required_unless_present = "ci")]
        dir: Option<PathBuf>,
        /// Instead of the pack: write this CI system's workflow into the repository DIR
        /// (github: .github/workflows/classroom.yml, for GitHub Classroom); never overwrites
        #[arg(long, value_enum, value_name = "SYSTEM")]
        ci: Option<CiSystem>,
        /// With --ci: the nimlab wheel the workflow installs, a URL or a path in the
        /// repository (no nimlab package is published on PyPI)
        #[arg(long, value_name = "URL|PATH", requires = "ci")]
        wheel: Option<String>,
    },
    /// Print the reference answer for one case read from stdin
    Reference { exercise: String },
    /// Verify or generate fixtures
    #[command(subcommand)]
    Fixtures(FixturesCommand),
    /// Measure nimlab's own cost against running the interpreter by hand
    Bench(BenchArgs),
    /// Make a lab from a contest system's task folders
    #[command(subcommand)]
    Import(ImportCommand),
    /// Write the lab in a contest system's format
    #[command(subcommand)]
    Export(ExportCommand),
    /// Judge one output as a contest system's checker (output validator) would
    Checker(CheckerArgs),
    /// Grade a class folder into a gradebook and reports
    Grade(GradeArgs),
    /// Grade a student's repository for GitHub Classroom: check every exercise file found
    /// and write the results its autograding reporter reads (runner id `nimlab`)
    Classroom(ClassroomArgs),
    /// Compare a class's programs exercise by exercise: pairs closer than the class's
    /// independent answers usually are, with the evidence (never a verdict)
    Similarity(SimilarityArgs),
    /// Combine the outputs of `grade --shard` runs into the reports one run gives
    Merge {
        /// The shards' output folders
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        #[arg(long, value_name = "OUT")]
        out: PathBuf,
    },
    /// Show which protections are active and which interpreters are found
    Doctor {
        /// Interpreters to look for, comma-separated (versions or paths)
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "LIST",
            default_value = "3,2.7"
        )]
        python: Vec<String>,
    },
    /// Run the lab's submission website (students upload and read feedback; instructors see the class)
    Serve(ServeArgs),
    /// Manage the website's accounts
    #[command(subcommand)]
    Users(UsersCommand),
    /// Register the LMS platforms that may launch the website (LTI 1.3)
    #[command(subcommand)]
    Lti(LtiCommand),
    /// Set the website's deadlines, late periods and extensions
    #[command(subcommand)]
    Deadline(DeadlineCommand),
    /// (Internal) Started by nimlab itself: waits for the nimlab OWNER to end, however it
    /// ends, and kills what is left in its run cgroups
    #[command(hide = true)]
    ReapCgroups {
        owner: u32,
        /// The cgroup folders nimlab makes its run cgroups in
        roots: Vec<PathBuf>,
    },
    /// Copy the website's database while it is in use (into an SQLite file, from either store)
    Backup {
        /// The database to copy
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        /// The copy to write (a new file)
        out: PathBuf,
    },
    /// Fill a new PostgreSQL database with a backup's course (a file `nimlab backup` wrote,
    /// or a server's SQLite file): accounts, submissions, deadlines, LMS links and keys
    Restore {
        /// The backup to read (never changed)
        backup: PathBuf,
        /// The PostgreSQL database to fill; it must hold no course yet
        #[arg(long, value_name = "URI")]
        db: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The class folder: DIR/<student>/<exercise>.py, or flat <student>_..._<exercise>.py files
    pub dir: PathBuf,
    /// Where the gradebook and reports go (a cache there makes re-runs fast)
    #[arg(long, value_name = "OUT")]
    pub out: PathBuf,
    /// Interpreters, comma-separated (default: each exercise's own)
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub python: Option<Vec<String>>,
    /// Students graded at once (default: one more than the cores with the fork runner, as
    /// many as the cores with the process runner)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// A CSV with a `student` column (and `name`, `id`, `section`): who should have submitted
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Grade only the K-th of N shards of the students (merge the outputs with `nimlab merge`)
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Grade everything again, ignoring the cache
    #[arg(long)]
    pub force: bool,
    /// How each case's program is started
    #[arg(long, value_enum, default_value_t = RunnerChoice::Fork)]
    pub runner: RunnerChoice,
}

#[derive(Debug, Args)]
pub struct SimilarityArgs {
    /// The class folder, as `grade` reads it: DIR/<student>/<exercise>.py, or flat files
    pub dir: PathBuf,
    /// Also write similarity.json and similarity.html (the flagged pairs side by side) here
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
    /// What is printed: the flagged pairs as text, or similarity.json whole
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The folder `nimlab grade` wrote for this class: the same wrong output on the same
    /// case counts as evidence too
    #[arg(long, value_name = "GRADE_OUT")]
    pub results: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ClassroomArgs {
    /// The student's repository: its exercise files (present_board.py, make_move.py, ...) are
    /// found by name, as `nimlab check` finds an exercise, at its top level
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Also write the results (base64 of the reporter's JSON) to this file; `result=<base64>`
    /// is appended to the file $GITHUB_OUTPUT names whenever it is set
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Interpreters, comma-separated (default: each exercise's own)
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub python: Option<Vec<String>>,
    /// How each case's program is started
    #[arg(long, value_enum, default_value_t = RunnerChoice::Fork)]
    pub runner: RunnerChoice,
}

/// A CI system `nimlab init --ci` writes a workflow for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CiSystem {
    /// GitHub Actions, graded by GitHub Classroom's autograding reporter
    Github,
}

/// How a case's program is started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunnerChoice {
    /// Fork each case from an interpreter kept warm for the whole command, through a server
    /// forked for each submission that sees only its files (each case still runs the whole
    /// program, with fresh input, output and folder); a case that forking cannot run as a
    /// fresh interpreter would is started as a process
    Fork,
    /// Start a fresh interpreter for every case
    Process,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or("write the shard as K/N, like 2/4")?;
    let (k, n): (usize, usize) = (
        k.trim()
            .parse()
            .map_err(|_| format!("`{k}` is not a shard number"))?,
        n.trim()
            .parse()
            .map_err(|_| format!("`{n}` is not a number of shards"))?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {k}/{n}: K must be from 1 to N"));
    }
    Ok((k, n))
}

#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// A CMS contest folder (contest.yaml) or task folder (task.yaml)
    Cms {
        src: PathBuf,
        /// The lab folder to create (use it with --lab)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// A CMS contest folder (italy_yaml tasks); nimlab is the checker where needed
    Cms {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Kattis problem packages (legacy format), one folder per exercise
    Kattis {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// The website's submissions as a class folder for `nimlab grade` (a student's best or
    /// latest per exercise, deadlines applied; roster.csv; deadlines.json with the deadlines
    /// and each file's time, which `nimlab grade` applies)
    Submissions {
        /// The website's database
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[arg(long, value_enum, default_value_t = GradesFrom::Latest)]
        from: GradesFrom,
    },
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("protocol").required(true))]
pub struct CheckerArgs {
    pub exercise: String,
    /// Kattis output validator: INPUT ANSWER FEEDBACK_DIR, the output on stdin; exits 42
    /// (accepted) or 43 (wrong answer)
    #[arg(long, num_args = 3, value_names = ["INPUT", "ANSWER", "FEEDBACK_DIR"], group = "protocol")]
    pub kattis: Option<Vec<PathBuf>>,
    /// CMS checker: INPUT ANSWER OUTPUT; prints the outcome (1.0 or 0.0), the message on stderr
    #[arg(long, num_args = 3, value_names = ["INPUT", "ANSWER", "OUTPUT"], group = "protocol")]
    pub cms: Option<Vec<PathBuf>>,
    /// Kattis input validator: the case on stdin; exits 42 when it is a valid case, 43 if not
    #[arg(long, group = "protocol")]
    pub input_validator: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The Python file to check
    pub file: PathBuf,
    /// The exercise (detected from the file name when left out)
    #[arg(long)]
    pub exercise: Option<String>,
    /// Interpreters to run under, comma-separated: versions (3, 2.7) or paths
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub python: Option<Vec<String>>,
    /// Cases run at once (default: the number of cores)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Report everything, for the instructor: secret cases' times and messages, and the
    /// detail of nimlab's own failures (by default the report is what a student may see:
    /// secret cases by their verdict alone, nimlab's failures in a sentence)
    #[arg(long)]
    pub instructor: bool,
    /// How each case's program is started
    #[arg(long, value_enum, default_value_t = RunnerChoice::Fork)]
    pub runner: RunnerChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum FixturesCommand {
    /// Check every fixture against the reference implementation
    Verify {
        /// Only these exercises
        exercises: Vec<String>,
    },
    /// Make new cases from a seed (the same seed gives the same cases)
    Generate {
        exercise: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Folder to write NAME.in/NAME.out pairs into (existing files are never replaced)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The exercise whose model solution and cases are timed
    #[arg(long, default_value = "present_board")]
    pub exercise: String,
    /// The interpreter (a version or a path)
    #[arg(long, default_value = "3")]
    pub python: String,
    /// Repetitions of each measurement; the median is reported
    #[arg(long, default_value_t = 5)]
    pub repeat: usize,
    /// Instead: grade a generated class of this many students, each handing in every
    /// exercise's model solution, and report submissions per second (--python may list
    /// several interpreters, like 3,2.7)
    #[arg(long, value_name = "STUDENTS")]
    pub class: Option<usize>,
    /// Instead: start the website and have this many students log in and submit
    /// present_board at once; report the time from upload to verdict
    #[arg(long, value_name = "STUDENTS", conflicts_with = "class")]
    pub serve: Option<usize>,
    /// Instead: run `nimlab similarity` on a generated class of this many students, each
    /// handing in every exercise, and time it and one upload compared with its class
    #[arg(long, value_name = "STUDENTS", conflicts_with_all = ["class", "serve", "compare"])]
    pub similarity: Option<usize>,
    /// With --serve: run the website as one web process and this many judge processes
    /// (`serve --no-web`) on a scratch database of the PostgreSQL server --db names
    #[arg(long, value_name = "J", requires = "serve")]
    pub judges: Option<usize>,
    /// With --judges: a PostgreSQL connection string to an existing database whose user may
    /// create databases (`postgresql:///postgres?host=/run/postgresql`); the bench creates a
    /// scratch database beside it and drops it afterwards
    #[arg(long, value_name = "URI", requires = "judges")]
    pub db: Option<PathBuf>,
    /// With --class: grade with this runner only (default: both, one after the other)
    #[arg(long, value_enum, requires = "class")]
    pub runner: Option<RunnerChoice>,
    /// Time this build against another nimlab binary on the same work (a check of the
    /// exercise's model solution, or with --class the class's grading), the two alternating
    /// for --repeat rounds; prints each one's median and the ratio with its spread
    #[arg(long, value_name = "OTHER_BINARY", conflicts_with = "serve")]
    pub compare: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The database: an SQLite file, created on first start, or a PostgreSQL connection
    /// string (`postgres://user@host/db`, `postgresql:///db?host=/run/postgresql`); from
    /// NIMLAB_DB when not given, which keeps a password out of the process list
    #[arg(
        long,
        value_name = "FILE|URI",
        env = "NIMLAB_DB",
        hide_env_values = true
    )]
    pub db: PathBuf,
    /// Address to listen on; port 0 takes a free port (the address is printed)
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Submissions judged at once (default: the number of cores); 0 queues without judging
    /// (a web-only process, with judges elsewhere on a PostgreSQL --db)
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Judge only, serving no pages: a judge process for the web processes on the same
    /// PostgreSQL --db
    #[arg(long, conflicts_with_all = ["listen", "secure_cookies", "proxy", "origins", "lti_frames"])]
    pub no_web: bool,
    /// Seconds a judge holds a job without renewing its lease; a job whose judge died is
    /// judged again this long after
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub lease: u64,
    /// Mark session cookies Secure: use behind a reverse proxy that serves HTTPS
    #[arg(long)]
    pub secure_cookies: bool,
    /// Requests come through a reverse proxy that appends the client's address to
    /// X-Forwarded-For: login limits per address use that address
    #[arg(long)]
    pub proxy: bool,
    /// The site's public origin, like https://lab.example.edu, when the proxy rewrites Host
    #[arg(long = "origin", value_name = "URL")]
    pub origins: Vec<String>,
    /// Largest upload, in KiB
    #[arg(long, value_name = "KIB", default_value_t = 64)]
    pub max_upload_kb: usize,
    /// Submissions a student may have waiting to be judged
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_queued: usize,
    /// Which submission counts in the gradebook downloads
    #[arg(long, value_enum, default_value_t = GradesFrom::Best)]
    pub grades_from: GradesFrom,
    /// How each case's program is started
    #[arg(long, value_enum, default_value_t = RunnerChoice::Fork)]
    pub runner: RunnerChoice,
    /// Let the registered LMS platforms show the site inside their course pages: their
    /// origins (issuer, --frame-origin) may frame it, and session cookies are sent in frames
    /// (SameSite=None). Needs --secure-cookies (HTTPS)
    #[arg(long, requires = "secure_cookies")]
    pub lti_frames: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GradesFrom {
    /// Each student's highest score per exercise
    Best,
    /// Each student's latest judged submission per exercise
    Latest,
}

#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Add accounts from a CSV (columns username, name, optional password, id, section, role:
    /// student, ta or instructor)
    Import {
        roster: PathBuf,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        /// Where the passwords made for accounts without one go (default: beside the roster,
        /// NAME-credentials.csv); never overwritten
        #[arg(long, value_name = "FILE")]
        credentials: Option<PathBuf>,
    },
    /// Add an account; the password is typed, read from stdin, or made with --random
    Add {
        #[arg(value_name = "USERNAME")]
        username: String,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        /// An instructor account (sees the class, the queue and the gradebooks; manages accounts)
        #[arg(long, conflicts_with = "ta")]
        instructor: bool,
        /// A teaching assistant's account (sees the class, every submission, the queue and the
        /// gradebooks, and may judge again; manages no accounts)
        #[arg(long)]
        ta: bool,
        /// The person's full name
        #[arg(long, value_name = "TEXT", default_value = "")]
        full_name: String,
        /// Make a random password and print it
        #[arg(long)]
        random: bool,
    },
    /// Set an account's password (its sessions end)
    Passwd {
        #[arg(value_name = "USERNAME")]
        username: String,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        /// Make a random password and print it
        #[arg(long)]
        random: bool,
    },
    /// List the accounts
    List {
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        /// Print every column a roster can hold (all but the password), as a roster CSV that
        /// `users import` reads back, with a `disabled` column it ignores
        #[arg(long)]
        roster: bool,
    },
    /// Disable an account: it cannot log in and its sessions end; its work stays in the class
    Disable {
        #[arg(value_name = "USERNAME")]
        username: String,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
    /// Enable a disabled account again
    Enable {
        #[arg(value_name = "USERNAME")]
        username: String,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
    /// Remove an account and its sessions; its submissions stay under its username
    Remove {
        #[arg(value_name = "USERNAME")]
        username: String,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
        /// Delete the account's submissions too, and every trace of it
        #[arg(long)]
        with_submissions: bool,
    },
}

// Parsed once per run: the size of the larger variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum LtiCommand {
    /// Register a platform (an LMS) that may launch the website, or add a deployment to one
    AddPlatform {
        /// The platform's issuer (`iss`), as its administrator gives it
        #[arg(long, value_name = "URL")]
        issuer: String,
        /// The client id the platform gave nimlab
        #[arg(long, value_name = "ID")]
        client_id: String,
        /// A deployment id of nimlab on the platform
        #[arg(long, value_name = "ID")]
        deployment_id: String,
        /// The platform's OIDC authorisation URL (where launches are sent to log in)
        #[arg(long, value_name = "URL")]
        auth_url: String,
        /// The platform's public keys (JWKS)
        #[arg(long, value_name = "URL")]
        jwks_url: String,
        /// The platform's OAuth 2 token URL (for sending scores)
        #[arg(long, value_name = "URL")]
        token_url: String,
        /// An origin whose pages show the site in a frame (`serve --lti-frames`), like
        /// https://school.instructure.com; the issuer's origin always may. Repeat for more
        #[arg(long = "frame-origin", value_name = "URL")]
        frame_origins: Vec<String>,
        /// A course (the launch's context id) whose Instructor and TA roles count here; from
        /// any other course a launch gives no staff role. Repeat for more
        #[arg(long = "context", value_name = "ID")]
        contexts: Vec<String>,
        /// Forget a course context registered with --context
        #[arg(long = "forget-context", value_name = "ID")]
        forget_contexts: Vec<String>,
        /// Whether a first launch may be linked to a roster's student account that has no LMS
        /// identity yet (by the roster's lms_id and lms_issuer, or its email); off unless set
        /// (on/off; leaving it out keeps what was set)
        #[arg(long, value_name = "on|off", hide_possible_values = true, value_parser = clap::builder::BoolishValueParser::new())]
        link_accounts: Option<bool>,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
    /// List the platforms registered and the scores waiting to be sent
    List {
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
}

/// Times (WHEN, UNTIL) are RFC 3339 (`2030-03-01T23:59:00+01:00`, `2030-03-01T22:59:00Z`) or
/// `YYYY-MM-DD HH:MM` in the server's local time zone.
#[derive(Debug, Subcommand)]
pub enum DeadlineCommand {
    /// Set an exercise's due time (or every exercise's, with `all`), and its late period
    Set {
        /// An exercise's name, or `all`
        exercise: String,
        /// The due time: RFC 3339, or YYYY-MM-DD HH:MM in the server's local time zone
        when: String,
        /// Take late work until then (default: nothing after the due time)
        #[arg(long, value_name = "WHEN")]
        late_until: Option<String>,
        /// Percent of the score taken per started day late (100: late work gets no credit);
        /// with --late-until
        #[arg(long, value_name = "PERCENT_PER_DAY")]
        late_penalty: Option<f64>,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
    /// Give a student a new due time for an exercise (or every one, with `all`); the late
    /// period moves with it
    Extend {
        /// The student's username
        student: String,
        /// An exercise's name, or `all`
        exercise: String,
        /// The student's new due time
        until: String,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
    /// List the deadlines and extensions
    List {
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
    /// Remove an exercise's deadline (or every one's, with `all`), or with --student that
    /// student's extension
    Clear {
        /// An exercise's name, or `all`
        exercise: String,
        /// Remove this student's extension instead
        #[arg(long, value_name = "USERNAME")]
        student: Option<String>,
        #[arg(long, value_name = "FILE|URI")]
        db: PathBuf,
    },
}
