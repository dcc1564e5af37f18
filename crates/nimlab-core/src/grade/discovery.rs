//! Finding a class's submissions: who each file belongs to, which exercise it is, which one
//! counts where a student has several, and which entries nimlab will not read (and why).
//!
//! Only regular files are read. A symbolic link is never followed (it could lead out of the
//! class folder, to `/dev/zero` or to another student's file), and a FIFO, socket or device
//! is never opened (reading one can block for ever); each is listed with the reason instead.

use super::book::{RosterEntry, Skipped, Superseded};
use crate::error::{Error, Result};
use crate::lab::Lab;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// A student as the class folder names them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Student {
    /// For people: the name as written, trimmed.
    pub name: String,
    /// Unique in the class: the name as written plus the platform's participant ID where
    /// the file or folder name has one (`Wei Zhang_1001`), else the name as written.
    pub id: String,
}

/// Whom a folder or file name stands for. Learning platforms' bulk downloads name each file
/// or folder `<name>_<participant ID>_...` (Moodle), or `<name>_[LATE_]<user ID>_...`
/// (Canvas): two students with one name differ by that ID.
pub fn identify(name: &str) -> Student {
    let mut parts = name.split('_');
    let written = parts.next().unwrap_or_default();
    let mut next = parts.next();
    if next.is_some_and(|part| part.eq_ignore_ascii_case("late")) {
        next = parts.next();
    }
    let id = match next {
        Some(number) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{written}_{number}")
        }
        _ => written.to_string(),
    };
    Student {
        name: written.trim().to_string(),
        id,
    }
}

/// One file found for one student's exercise.
#[derive(Debug, Clone)]
pub struct Found {
    pub student: Student,
    pub exercise: String,
    pub file: PathBuf,
    /// Relative to the class folder.
    pub relative: String,
    /// Whether the file's folder is the student's own (so its siblings may be imported).
    pub own_folder: bool,
    /// Why nimlab will not read it (a symbolic link, a FIFO): it is not graded.
    pub unreadable: Option<String>,
}

/// Everything in a class folder.
#[derive(Debug, Default)]
pub struct Discovery {
    pub found: Vec<Found>,
    /// Regular files that name no student's exercise, relative to the class folder.
    pub unattributed: Vec<String>,
    /// Entries not read, with the reason.
    pub skipped: Vec<Skipped>,
}

/// Why nimlab does not read an entry of this type, or None for a regular file or a folder.
fn not_read(file_type: std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() || file_type.is_dir() {
        None
    } else if file_type.is_symlink() {
        Some("a symbolic link: nimlab reads only regular files and does not follow links")
    } else if file_type.is_fifo() {
        Some("a named pipe (FIFO), not a regular file: nimlab does not read it")
    } else if file_type.is_socket() {
        Some("a socket, not a regular file: nimlab does not read it")
    } else {
        Some("a device, not a regular file: nimlab does not read it")
    }
}

/// Finds submissions: `DIR/<student>/<exercise>.py`, or flat `DIR/<student>_<...>_<exercise>.py`
/// as platforms' bulk downloads name them. `skip` (the output folder, when it lies inside
/// the class folder) is not looked into.
pub fn discover(lab: &Lab, dir: &Path, skip: Option<&Path>) -> Result<Discovery> {
    if !dir.is_dir() {
        return Err(Error::input(dir, "no such folder"));
    }
    let skip = skip.and_then(|s| s.canonicalize().ok());
    let mut discovery = Discovery::default();
    let walk = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(4)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            !(e.file_type().is_dir()
                && skip
                    .as_deref()
                    .is_some_and(|s| e.path().canonicalize().is_ok_and(|p| p == s)))
        });
    for entry in walk {
        match entry {
            Ok(entry) => discovery.add(lab, dir, &entry),
            Err(error) => discovery.skipped.push(unreadable_folder(dir, &error)?),
        }
    }
    Ok(discovery)
}

/// An unreadable folder inside the class: listed, the rest still graded. The class folder
/// itself unreadable is the user's error.
fn unreadable_folder(dir: &Path, error: &walkdir::Error) -> Result<Skipped> {
    let reason = error
        .io_error()
        .map_or(error.to_string(), |e| e.to_string());
    match error.path().filter(|p| *p != dir) {
        Some(path) => Ok(Skipped {
            file: relative_text(dir, path),
            reason: format!("cannot read: {reason}"),
        }),
        None => Err(Error::input(
            dir,
            format!("cannot read the class folder: {reason}"),
        )),
    }
}

impl Discovery {
    /// Sorts one entry of the class folder `dir`: a student's exercise, a file that names
    /// none, or an entry not read (listed with the reason).
    fn add(&mut self, lab: &Lab, dir: &Path, entry: &walkdir::DirEntry) {
        let file_type = entry.file_type();
        if file_type.is_dir() {
            return;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .expect("below the root")
            .to_path_buf();
        let relative_text = relative.display().to_string();
        let unreadable = not_read(file_type);
        if let Some(reason) = unreadable {
            self.skipped.push(Skipped {
                file: relative_text.clone(),
                reason: reason.to_string(),
            });
        }
        if relative.extension().is_none_or(|x| x != "py") {
            // A roster or a platform's index file is no submission; anything else is listed.
            // So is the deadlines file an export of the website's submissions carries.
            let ignored = relative_text.ends_with(".csv")
                || relative_text.ends_with(".md")
                || relative_text == crate::deadline::CLASS_FILE;
            if !ignored && unreadable.is_none() {
                self.unattributed.push(relative_text);
            }
            return;
        }
        let (student, named, own_folder) = owner(&relative);
        // Named from the root, so no folder's name (the working directory's) is taken for it.
        let exercise = lab
            .detect_exercise(&Path::new("/").join(format!("{named}.py")))
            .filter(|_| !student.name.is_empty())
            .map(|e| e.name.clone());
        match exercise {
            Some(exercise) => self.found.push(Found {
                student,
                exercise,
                file: entry.path().to_path_buf(),
                relative: relative_text,
                own_folder,
                unreadable: unreadable.map(str::to_string),
            }),
            // Helper modules beside a student's exercises are theirs to import, not stray.
            None if own_folder => {}
            None if unreadable.is_some() => {}
            None => self.unattributed.push(relative_text),
        }
    }
}

/// Whom a student's folder stands for: a platform's download (`<name>_<ID>_...`) as
/// `identify` reads it, any other folder by its whole name, so `maria_silva` and
/// `maria_souza` stay two students.
pub fn identify_folder(name: &str) -> Student {
    let mut parts = name.split('_').skip(1);
    let mut next = parts.next();
    if next.is_some_and(|part| part.eq_ignore_ascii_case("late")) {
        next = parts.next();
    }
    let platform = next.is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()));
    if platform {
        identify(name)
    } else {
        Student {
            name: name.trim().to_string(),
            id: name.to_string(),
        }
    }
}

/// Whose a `.py` file is (by its path in the class folder), the exercise name it gives, and
/// whether it lies in the student's own folder: `<student>/<exercise>.py`, or flat
/// `<student>_<...>_<exercise>.py`.
fn owner(relative: &Path) -> (Student, String, bool) {
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let stem = relative
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    if parts.len() >= 2 {
        (identify_folder(&parts[0]), stem, true)
    } else {
        match stem.split_once('_') {
            Some((_, rest)) => (identify(&stem), rest.to_string(), false),
            None => (identify(""), String::new(), false),
        }
    }
}

fn relative_text(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

/// Reads a roster CSV: a header with `student` (required; the website's roster calls it
/// `username`, which is read where there is no `student`, so one file serves both) and
/// optionally `name`, `id`, `section`; rows whose `role` is `ta` or `instructor` (the
/// website's staff) are left out. Every problem with it is the user's, named with the
/// roster's file.
pub fn read_roster(path: &Path) -> Result<BTreeMap<String, RosterEntry>> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| Error::input(path, format!("cannot read the roster: {e}")))?;
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::input(path, format!("the roster has no header row: {e}")))?
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let student = column("student").or_else(|| column("username")).ok_or_else(|| {
        Error::input(
            path,
            "the roster needs a `student` column (or `username`, as the website's roster has it)",
        )
    })?;
    let mut roster = BTreeMap::new();
    for (line, record) in reader.records().enumerate() {
        let record = record
            .map_err(|e| Error::input(path, format!("row {} is malformed: {e}", line + 2)))?;
        let get = |i: Option<usize>| {
            i.and_then(|i| record.get(i))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let key = get(Some(student));
        if key.is_empty() {
            return Err(Error::input(
                path,
                format!("row {} has no student", line + 2),
            ));
        }
        // The website's roster holds its staff too: they are not graded.
        if matches!(
            get(column("role")).to_lowercase().as_str(),
            "ta" | "instructor"
        ) {
            continue;
        }
        let entry = RosterEntry {
            name: get(column("name")),
            id: get(column("id")),
            section: get(column("section")),
            username: None,
        };
        if roster.insert(key.clone(), entry).is_some() {
            return Err(Error::input(
                path,
                format!(
                    "row {} names student `{}` again",
                    line + 2,
                    crate::escape::terminal(&key)
                ),
            ));
        }
    }
    Ok(roster)
}

/// Whether the student with this id falls in shard `k` of `n`: by a hash of the id, so a
/// student's shard does not depend on who else is in the class.
pub fn in_shard(id: &str, (k, n): (usize, usize)) -> bool {
    let digest = Sha256::digest(id.as_bytes());
    let value = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (value % n as u64) as usize == k - 1
}

/// A class: its students, the one file that counts for each student's exercise, and what
/// was set aside.
#[derive(Debug, Default)]
pub struct Class {
    /// Sorted by name, then id.
    pub students: Vec<Student>,
    /// One per student and exercise handed in, sorted by student id and exercise.
    pub submissions: Vec<Found>,
    /// Other files of a student's exercise, by student id.
    pub superseded: Vec<(String, Superseded)>,
    /// Roster entries by student id.
    pub roster: BTreeMap<String, RosterEntry>,
    pub unattributed: Vec<String>,
    pub skipped: Vec<Skipped>,
}

impl Class {
    /// Keeps only the students of shard `k` of `n` (the lists of files no student owns stay
    /// whole in every shard, and merge as one).
    pub fn retain_shard(&mut self, shard: (usize, usize)) {
        self.students.retain(|s| in_shard(&s.id, shard));
        self.submissions.retain(|f| in_shard(&f.student.id, shard));
        self.superseded.retain(|(id, _)| in_shard(id, shard));
        self.roster.retain(|id, _| in_shard(id, shard));
    }
}

/// Surveys the class folder `dir` (and the roster): who handed in what.
pub fn survey(lab: &Lab, dir: &Path, roster: Option<&Path>, skip: Option<&Path>) -> Result<Class> {
    let discovery = discover(lab, dir, skip)?;
    // Several files for one student's exercise: the last readable one by name counts, and
    // the other readable ones are listed (the unreadable ones are listed as skipped).
    let mut groups: BTreeMap<(String, String), Vec<Found>> = BTreeMap::new();
    for found in discovery.found {
        groups
            .entry((found.student.id.clone(), found.exercise.clone()))
            .or_default()
            .push(found);
    }
    let mut submissions = Vec::new();
    let mut superseded = Vec::new();
    for ((id, _), mut files) in groups {
        files.sort_by(|a, b| a.relative.cmp(&b.relative));
        let chosen = files
            .iter()
            .rposition(|f| f.unreadable.is_none())
            .unwrap_or(files.len() - 1);
        let counted = files.swap_remove(chosen);
        for other in files.into_iter().filter(|f| f.unreadable.is_none()) {
            superseded.push((
                id.clone(),
                Superseded {
                    file: other.relative,
                    graded: counted.relative.clone(),
                },
            ));
        }
        submissions.push(counted);
    }
    let mut students: BTreeMap<String, Student> = submissions
        .iter()
        .map(|f| (f.student.id.clone(), f.student.clone()))
        .collect();
    let mut by_id = BTreeMap::new();
    if let Some(path) = roster {
        for (key, entry) in read_roster(path)? {
            let id = roster_student(&students, path, &key)?;
            students.entry(id.clone()).or_insert_with(|| Student {
                name: key.clone(),
                id: id.clone(),
            });
            if by_id.insert(id.clone(), entry).is_some() {
                return Err(Error::input(
                    path,
                    format!(
                        "two rows name the student `{}` (one by name, one by id)",
                        crate::escape::terminal(&id)
                    ),
                ));
            }
        }
    }
    let mut students: Vec<Student> = students.into_values().collect();
    students.sort();
    Ok(Class {
        students,
        submissions,
        superseded,
        roster: by_id,
        unattributed: discovery.unattributed,
        skipped: discovery.skipped,
    })
}

/// The id of the student a roster row's `student` names: a student's id, else the name of
/// exactly one student, else a student who handed in nothing.
fn roster_student(students: &BTreeMap<String, Student>, path: &Path, key: &str) -> Result<String> {
    if students.contains_key(key) {
        return Ok(key.to_string());
    }
    let named: Vec<&Student> = students.values().filter(|s| s.name == key).collect();
    match named.as_slice() {
        [] => Ok(key.to_string()),
        [one] => Ok(one.id.clone()),
        several => Err(Error::input(
            path,
            format!(
                "`{}` is the name of {} students ({}); name each by their id in the `student` column",
                crate::escape::terminal(key),
                several.len(),
                several
                    .iter()
                    .map(|s| format!("`{}`", crate::escape::terminal(&s.id)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> (String, String) {
        let student = identify(name);
        (student.name, student.id)
    }

    #[test]
    fn the_websites_roster_is_read_without_its_staff() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("roster.csv");
        std::fs::write(
            &path,
            "username,name,id,section,role,email\nada,Ada,1001,A,student,\nbob,Bob,1002,A,,\ntess,Tess,,,ta,\nprof,,,,instructor,\n",
        )
        .unwrap();
        let roster = read_roster(&path).unwrap();
        assert_eq!(roster.keys().collect::<Vec<_>>(), ["ada", "bob"]);
        assert_eq!(roster["ada"].id, "1001");
    }

    #[test]
    fn platform_names_carry_the_participant_id() {
        assert_eq!(id("ada"), ("ada".into(), "ada".into()));
        assert_eq!(
            id("Wei Zhang_1001_assignsubmission_file_"),
            ("Wei Zhang".into(), "Wei Zhang_1001".into())
        );
        assert_eq!(
            id("Wei Zhang_1002_assignsubmission_file_exclusive_or"),
            ("Wei Zhang".into(), "Wei Zhang_1002".into())
        );
        assert_eq!(
            id("zhangwei_LATE_12345_678_exclusive_or"),
            ("zhangwei".into(), "zhangwei_12345".into())
        );
        assert_eq!(
            id("hana_attempt1_exclusive_or"),
            ("hana".into(), "hana".into())
        );
        assert_eq!(id(" ada _7_x"), ("ada".into(), " ada _7".into()));
    }

    #[test]
    fn a_folder_is_its_whole_name_unless_a_platform_named_it() {
        let folder = |name: &str| {
            let student = identify_folder(name);
            (student.name, student.id)
        };
        assert_eq!(
            folder("maria_silva"),
            ("maria_silva".into(), "maria_silva".into())
        );
        assert_eq!(
            folder("hana_attempt1"),
            ("hana_attempt1".into(), "hana_attempt1".into())
        );
        assert_eq!(
            folder("Wei Zhang_1001_assignsubmission_file_"),
            ("Wei Zhang".into(), "Wei Zhang_1001".into())
        );
        assert_eq!(
            folder("zhangwei_LATE_12345_678"),
            ("zhangwei".into(), "zhangwei_12345".into())
        );
        assert_eq!(folder(" ada "), ("ada".into(), " ada ".into()));
    }

    #[test]
    fn shards_split_by_id() {
        let ids = ["Wei Zhang_1001", "Wei Zhang_1002", "ada", "bob"];
        for id in ids {
            let shards: Vec<usize> = (1..=3).filter(|k| in_shard(id, (*k, 3))).collect();
            assert_eq!(shards.len(), 1, "{id}");
        }
    }
}
