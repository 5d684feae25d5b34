//! The student's progress: which exercises are done, the current one, hints revealed.
//! Kept in a small JSON file in the course directory, written atomically, under a lock,
//! and merged with what other clings processes wrote meanwhile. In a course the user may
//! not write to (a shared lab install), it is kept in the user's own state folder.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, Result};
use nix::fcntl::{Flock, FlockArg};
use serde::{Deserialize, Serialize};

use crate::course::{Course, user_state_dir};
use crate::util::atomic;

pub const STATE_FILE: &str = ".clings-state.json";
/// Taken for each write, by every clings process of the course.
const LOCK_FILE: &str = ".clings/state.lock";

/// Held while this process writes the state file, so that an exit on Ctrl-C waits for a
/// write to finish rather than leave a temporary file behind.
static WRITING: Mutex<()> = Mutex::new(());

/// Exits with `code`, once no write of the state file is under way.
pub fn exit_when_saved(code: i32) -> ! {
    let _writing = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
    std::process::exit(code)
}

#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    current: Option<String>,
    done: Vec<String>,
    hints: BTreeMap<String, usize>,
}

/// What this process changed, replayed on the file as it is when saving: two clings
/// processes that each change something both keep their change.
#[derive(Clone, Debug)]
enum Change {
    Done(usize),
    Pending(usize),
    Current(Option<String>),
    /// Hints are only ever revealed: the larger level wins.
    HintLevel(String, usize),
}

pub struct Progress {
    /// Where progress is read and written: the course's state file, or `elsewhere`.
    path: PathBuf,
    lock_path: PathBuf,
    /// The course's own state file, read until the first save elsewhere.
    course_file: PathBuf,
    /// The user's own file for this course, for a course folder that cannot be written.
    elsewhere: Option<PathBuf>,
    /// Exercise names in course order.
    order: Vec<String>,
    current: Option<String>,
    done: Vec<bool>,
    hints: BTreeMap<String, usize>,
    changes: Vec<Change>,
    /// What the student should be told once: where progress went instead of the course
    /// folder, or why it cannot be saved at all.
    unsaved: Option<String>,
    told_unsaved: bool,
}

impl Progress {
    /// Reads the state file; a missing file is a fresh start, and a corrupt or stale one is
    /// reported in the returned warnings and rebuilt, never fatal.
    pub fn load(course: &Course) -> (Progress, Vec<String>) {
        let course_file = course.root.join(STATE_FILE);
        let elsewhere = user_state_dir().map(|dir| {
            let root = std::fs::canonicalize(&course.root).unwrap_or(course.root.clone());
            let course = crate::util::digest::of(&[root.as_os_str().as_encoded_bytes()]);
            dir.join(format!("{course}.json"))
        });
        let order: Vec<String> = course.exercises.iter().map(|e| e.name.clone()).collect();
        let mut progress = Progress {
            path: course_file.clone(),
            lock_path: course.root.join(LOCK_FILE),
            course_file,
            elsewhere: None,
            order,
            current: None,
            done: Vec::new(),
            hints: BTreeMap::new(),
            changes: Vec::new(),
            unsaved: None,
            told_unsaved: false,
        };
        // Progress once moved out of a read-only course stays where it was moved to.
        match elsewhere {
            Some(file) if file.exists() => progress.keep_in(file),
            elsewhere => progress.elsewhere = elsewhere,
        }
        let mut warnings = progress.read();
        if !warnings.is_empty()
            && let Err(err) = progress.save()
        {
            warnings.push(format!("{err:#}"));
        }
        (progress, warnings)
    }

    /// Replaces the in-memory state with the file's, keeping only known exercises.
    fn read(&mut self) -> Vec<String> {
        let path = &self.path;
        let order = &self.order;
        let mut warnings = Vec::new();
        // Before its first save elsewhere, progress is the course's own.
        let text = std::fs::read_to_string(path).or_else(|err| match path == &self.course_file {
            true => Err(err),
            false => std::fs::read_to_string(&self.course_file),
        });
        let file = match text {
            Ok(text) => serde_json::from_str::<StateFile>(&text).unwrap_or_else(|err| {
                warnings.push(format!(
                    "{} is corrupt ({err}); progress starts over and the file is rebuilt",
                    path.display()
                ));
                StateFile::default()
            }),
            Err(_) => StateFile::default(),
        };
        let mut known = |name: &String| {
            let known = order.contains(name);
            if !known {
                warnings.push(format!(
                    "{}: forgetting {name:?}, which is not an exercise of this course",
                    path.display()
                ));
            }
            known
        };
        let done_names: Vec<String> = file.done.into_iter().filter(&mut known).collect();
        self.hints = file
            .hints
            .into_iter()
            .filter(|(name, _)| known(name))
            .collect();
        self.current = file.current.filter(&mut known);
        self.done = order.iter().map(|name| done_names.contains(name)).collect();
        warnings
    }

    /// Under the course's lock: re-reads the file, applies this process's changes to it,
    /// and writes it through a temporary file and a rename, so that neither a crash nor
    /// another clings process ever leaves half a file or loses a change.
    ///
    /// In a course the student may not write to, progress moves to the user's own state
    /// folder; where there is none either, it lives on in this process only: the hints and
    /// results are still shown. [`Progress::unsaved_notice`] says which.
    pub fn save(&mut self) -> Result<()> {
        let err = match self.save_to_disk() {
            Err(err) if is_read_only(&err) => err,
            saved => return saved,
        };
        if let Some(elsewhere) = self.elsewhere.take() {
            self.keep_in(elsewhere);
            match self.save_to_disk() {
                Ok(()) => {
                    self.unsaved = Some(format!(
                        "this course folder cannot be written ({err:#}): progress is kept in {}",
                        self.path.display()
                    ));
                    return Ok(());
                }
                Err(again) if is_read_only(&again) => {}
                Err(again) => return Err(again),
            }
        }
        self.unsaved = Some(format!(
            "progress cannot be saved in this course ({err:#}): results and hints are shown, \
             but clings will not remember them; set XDG_STATE_HOME to a folder you may write \
             to and progress is kept there"
        ));
        Ok(())
    }

    /// Reads and writes progress at `file` from now on, under a lock beside it.
    fn keep_in(&mut self, file: PathBuf) {
        self.lock_path = file.with_extension("lock");
        self.path = file;
    }

    /// Once, after a save that could not be made in the course: what to tell the student.
    pub fn unsaved_notice(&mut self) -> Option<String> {
        let notice = self.unsaved.clone().filter(|_| !self.told_unsaved)?;
        self.told_unsaved = true;
        Some(notice)
    }

    /// Replays this process's changes on the file as it is now, and writes it. The changes
    /// are kept until a write succeeds, so a save retried elsewhere loses none of them.
    fn save_to_disk(&mut self) -> Result<()> {
        let _writing = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
        let _lock = self.lock()?;
        let changes = self.changes.clone();
        self.read();
        for change in changes {
            match change {
                Change::Done(index) => self.done[index] = true,
                Change::Pending(index) => self.done[index] = false,
                Change::Current(name) => self.current = name,
                Change::HintLevel(name, level) => {
                    let known = self.hints.entry(name).or_default();
                    *known = (*known).max(level);
                }
            }
        }
        self.write()?;
        self.changes.clear();
        Ok(())
    }

    fn lock(&self) -> Result<Flock<File>> {
        let failed = || format!("cannot lock {}", self.lock_path.display());
        if let Some(dir) = self.lock_path.parent() {
            std::fs::create_dir_all(dir).with_context(failed)?;
        }
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock_path)
            .with_context(failed)?;
        Flock::lock(file, FlockArg::LockExclusive)
            .map_err(|(_, errno)| errno)
            .with_context(failed)
    }

    fn write(&self) -> Result<()> {
        let file = StateFile {
            current: self.current.clone(),
            done: self
                .order
                .iter()
                .zip(&self.done)
                .filter(|(_, done)| **done)
                .map(|(name, _)| name.clone())
                .collect(),
            hints: self.hints.clone(),
        };
        let mut json = serde_json::to_string_pretty(&file).expect("progress serialises");
        json.push('\n');
        // A grading that changed nothing (the usual save in watch mode, a second `clings
        // test`) leaves the file as it is: a write and its sync are the command's slowest
        // few milliseconds.
        if std::fs::read(&self.path).is_ok_and(|on_disk| on_disk == json.as_bytes()) {
            return Ok(());
        }
        atomic::write(&self.path, json.as_bytes())
            .with_context(|| format!("cannot write progress to {}", self.path.display()))
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.order.iter().position(|known| known == name)
    }

    pub fn is_done(&self, name: &str) -> bool {
        self.index(name).is_some_and(|index| self.done[index])
    }

    pub fn done_count(&self) -> usize {
        self.done.iter().filter(|done| **done).count()
    }

    pub fn total(&self) -> usize {
        self.order.len()
    }

    /// The exercise the student is on: the one last chosen if it is not done yet,
    /// else the first unfinished one; `None` once everything is done.
    pub fn current(&self) -> Option<&str> {
        self.current
            .as_deref()
            .filter(|name| !self.is_done(name))
            .or_else(|| self.first_pending_from(0))
    }

    fn first_pending_from(&self, start: usize) -> Option<&str> {
        let count = self.order.len();
        (0..count)
            .map(|offset| (start + offset) % count)
            .find(|&index| !self.done[index])
            .map(|index| self.order[index].as_str())
    }

    pub fn set_current(&mut self, name: &str) {
        self.current = Some(name.to_string());
        self.changes.push(Change::Current(self.current.clone()));
    }

    /// Marks `name` done and moves on to the next unfinished exercise after it.
    pub fn mark_done(&mut self, name: &str) {
        if let Some(index) = self.index(name) {
            self.done[index] = true;
            self.current = self.first_pending_from(index + 1).map(String::from);
            self.changes.push(Change::Done(index));
            self.changes.push(Change::Current(self.current.clone()));
        }
    }

    pub fn mark_pending(&mut self, name: &str) {
        if let Some(index) = self.index(name) {
            self.done[index] = false;
            self.changes.push(Change::Pending(index));
        }
    }

    /// The one rule for what grading does to progress, for every command and watch mode:
    /// a pass makes an exercise done, a failure makes it to be done again (its file changed
    /// since it passed). `focus` is the exercise the student works on (`run`, watch mode):
    /// failing, it stays current; passing, the student moves on to the next unfinished one.
    /// Without a focus (`clings test`), the current exercise stays while it is unfinished.
    pub fn record<'a>(
        &mut self,
        graded: impl IntoIterator<Item = (&'a str, bool)>,
        focus: Option<&str>,
    ) {
        let current = self.current().map(String::from);
        for (name, passed) in graded {
            if passed {
                self.mark_done(name);
            } else {
                self.mark_pending(name);
            }
        }
        match focus {
            Some(name) if self.is_done(name) => {
                let after = self.index(name).map_or(0, |index| index + 1);
                let next = self.first_pending_from(after).map(String::from);
                self.current.clone_from(&next);
                self.changes.push(Change::Current(next));
            }
            Some(name) => self.set_current(name),
            None => {
                if let Some(current) = current.filter(|name| !self.is_done(name)) {
                    self.set_current(&current);
                }
            }
        }
    }

    /// How many hints of `name` have been revealed.
    pub fn hint_level(&self, name: &str) -> usize {
        self.hints.get(name).copied().unwrap_or(0)
    }

    pub fn set_hint_level(&mut self, name: &str, level: usize) {
        self.hints.insert(name.to_string(), level);
        self.changes
            .push(Change::HintLevel(name.to_string(), level));
    }
}

/// Whether saving failed because this user may not write there (not a full disk or a
/// broken file system, which stay errors).
fn is_read_only(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| {
            io.kind() == std::io::ErrorKind::PermissionDenied
                || io.raw_os_error() == Some(libc::EROFS)
        }) || cause
            .downcast_ref::<nix::errno::Errno>()
            .is_some_and(|errno| {
                matches!(errno, nix::errno::Errno::EACCES | nix::errno::Errno::EROFS)
            })
    })
}

/// Where the student stands on one exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Done,
    /// The one they work on.
    Current,
    Pending,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A course of four exercises, `a` to `d`, in a directory of its own.
    fn course() -> (tempfile::TempDir, Course) {
        let dir = tempfile::tempdir().unwrap();
        let mut info = String::from("format_version = 1\n");
        for name in ["a", "b", "c", "d"] {
            info.push_str(&format!(
                "[[exercises]]\nname = \"{name}\"\ntitle = \"{name}\"\npath = \"exercises/{name}.c\"\n"
            ));
        }
        std::fs::write(dir.path().join("info.toml"), info).unwrap();
        let course = Course::load(dir.path()).unwrap();
        (dir, course)
    }

    fn load(course: &Course) -> Progress {
        let (progress, warnings) = Progress::load(course);
        assert_eq!(warnings, Vec::<String>::new());
        progress
    }

    fn state_file(course: &Course) -> serde_json::Value {
        let text = std::fs::read_to_string(course.root.join(STATE_FILE)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn a_fresh_start_is_on_the_first_exercise_and_writes_nothing() {
        let (_dir, course) = course();
        let progress = load(&course);
        assert_eq!(progress.current(), Some("a"));
        assert_eq!((progress.done_count(), progress.total()), (0, 4));
        assert!(!progress.is_done("a"));
        assert_eq!(progress.hint_level("a"), 0);
        // Reading the progress (`clings list`) leaves the course as it was.
        assert!(!course.root.join(STATE_FILE).exists());
    }

    #[test]
    fn progress_and_hints_survive_a_restart() {
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.mark_done("b");
        progress.set_hint_level("c", 2);
        progress.save().unwrap();

        let progress = load(&course);
        assert!(progress.is_done("b") && !progress.is_done("a"));
        assert_eq!((progress.done_count(), progress.total()), (1, 4));
        assert_eq!((progress.hint_level("c"), progress.hint_level("b")), (2, 0));
        // `run b` passing moved the student on to the exercise after it.
        assert_eq!(progress.current(), Some("c"));
        assert_eq!(
            state_file(&course),
            serde_json::json!({ "current": "c", "done": ["b"], "hints": { "c": 2 } })
        );
    }

    #[test]
    fn a_save_that_changes_nothing_leaves_the_file_as_it_was() {
        use std::os::unix::fs::MetadataExt;
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.mark_done("b");
        progress.save().unwrap();
        let path = course.root.join(STATE_FILE);
        let before = std::fs::metadata(&path).unwrap();
        // A second grading with the same result: the same file, not a new one put in place.
        let mut again = load(&course);
        again.mark_done("b");
        again.save().unwrap();
        let after = std::fs::metadata(&path).unwrap();
        assert_eq!(
            (before.ino(), before.mtime_nsec()),
            (after.ino(), after.mtime_nsec())
        );
        // A change is still written.
        again.set_hint_level("a", 1);
        again.save().unwrap();
        assert_ne!(std::fs::metadata(&path).unwrap().ino(), before.ino());
        assert_eq!(state_file(&course)["hints"], serde_json::json!({ "a": 1 }));
    }

    #[test]
    fn current_is_the_chosen_exercise_until_done_then_the_next_unfinished_one() {
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.set_current("c");
        assert_eq!(progress.current(), Some("c"));
        // Done, it moves on past exercises already done, to the next one after it...
        progress.mark_done("b");
        progress.mark_done("c");
        assert_eq!(progress.current(), Some("d"));
        progress.set_current("b");
        assert_eq!(
            progress.current(),
            Some("a"),
            "b is done: the first unfinished"
        );
        // ...and from the last one back to the first one still to do.
        progress.mark_done("d");
        assert_eq!(progress.current(), Some("a"));
        progress.mark_done("a");
        assert_eq!(progress.current(), None, "all done");
        assert_eq!(progress.done_count(), 4);
        // `reset` puts an exercise back, and it is to be done again.
        progress.mark_pending("c");
        assert!(!progress.is_done("c"));
        assert_eq!(progress.current(), Some("c"));
        progress.save().unwrap();
        let progress = load(&course);
        assert_eq!(progress.done_count(), 3);
        assert!(!progress.is_done("c"));
    }

    #[test]
    fn done_moves_on_to_the_next_unfinished_exercise_after_it() {
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.mark_done("c");
        // After b comes c, done, then d; a before it is not where the student goes next.
        progress.mark_done("b");
        assert_eq!(progress.current(), Some("d"));
    }

    #[test]
    fn a_pass_moves_the_student_on_and_a_failure_keeps_them_on_the_exercise() {
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.record([("a", true)], Some("a"));
        assert_eq!(
            (progress.is_done("a"), progress.current()),
            (true, Some("b"))
        );
        // Failing an exercise already done undoes the pass, and the student stays on it.
        progress.record([("a", false)], Some("a"));
        assert_eq!(
            (progress.is_done("a"), progress.current()),
            (false, Some("a"))
        );
        // Passing one further on moves on after it, past exercises already done.
        progress.record([("d", true)], None);
        progress.record([("b", true)], Some("b"));
        assert_eq!(progress.current(), Some("c"));
        progress.record([("c", true)], Some("c"));
        assert_eq!(
            progress.current(),
            Some("a"),
            "after d, back to the first unfinished"
        );
        progress.save().unwrap();
        assert_eq!(state_file(&course)["current"], "a");
    }

    #[test]
    fn grading_many_keeps_the_current_exercise_while_it_is_unfinished() {
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.set_current("b");
        progress.record([("a", true), ("b", false), ("c", true), ("d", false)], None);
        assert_eq!(progress.current(), Some("b"));
        assert_eq!(progress.done_count(), 2);
        // Once the current one passes, the next unfinished after it.
        progress.record([("a", true), ("b", true), ("c", true), ("d", false)], None);
        assert_eq!(progress.current(), Some("d"));
        // With a focus (watch mode's check of everything), the focus decides.
        progress.record(
            [("a", false), ("b", true), ("c", true), ("d", false)],
            Some("b"),
        );
        assert_eq!(progress.current(), Some("d"));
        progress.record(
            [("a", false), ("b", false), ("c", true), ("d", false)],
            Some("b"),
        );
        assert_eq!(progress.current(), Some("b"));
        progress.record([("a", true), ("b", true), ("c", true), ("d", true)], None);
        assert_eq!(progress.current(), None, "all done");
    }

    #[test]
    fn two_processes_keep_each_others_changes() {
        let (_dir, course) = course();
        let mut first = load(&course);
        let mut second = load(&course);
        first.mark_done("a");
        first.set_hint_level("b", 2);
        first.save().unwrap();
        // The second process read the file before the first one saved.
        second.set_hint_level("b", 1);
        second.set_hint_level("c", 1);
        second.mark_done("d");
        second.save().unwrap();

        let merged = load(&course);
        assert!(merged.is_done("a") && merged.is_done("d"));
        // Hints are only ever revealed: the larger level wins.
        assert_eq!((merged.hint_level("b"), merged.hint_level("c")), (2, 1));
        // Saving also brings the other process's changes into this one.
        assert!(second.is_done("a"));
        assert_eq!(second.hint_level("b"), 2);
    }

    #[test]
    fn a_save_waits_for_the_lock_another_process_holds() {
        let (_dir, course) = course();
        let mut progress = load(&course);
        progress.mark_done("a");
        let lock_path = course.root.join(LOCK_FILE);
        std::fs::create_dir_all(lock_path.parent().unwrap()).unwrap();
        let file = File::create(&lock_path).unwrap();
        // flock locks belong to the open file, so this one excludes the save's own.
        let held = Flock::lock(file, FlockArg::LockExclusive).unwrap();
        let saving = std::thread::spawn(move || progress.save());
        // Time to write a small file many times over; a machine too slow to do it only
        // lets the save look blocked, never lets it look unblocked.
        std::thread::sleep(Duration::from_millis(300));
        assert!(!saving.is_finished(), "the save went past the lock");
        assert!(!course.root.join(STATE_FILE).exists());
        drop(held);
        saving.join().unwrap().unwrap();
        assert_eq!(state_file(&course)["done"], serde_json::json!(["a"]));
    }

    #[test]
    fn a_corrupt_file_is_reported_and_rebuilt() {
        let (_dir, course) = course();
        let path = course.root.join(STATE_FILE);
        for corrupt in [
            "{ \"done\": [\"a\"",
            r#"{ "current": null, "done": ["a"], "hints": {}, "colour": 1 }"#,
        ] {
            std::fs::write(&path, corrupt).unwrap();
            let (progress, warnings) = Progress::load(&course);
            assert_eq!(warnings.len(), 1, "{warnings:?}");
            assert!(
                warnings[0].contains(&path.display().to_string())
                    && warnings[0].contains("is corrupt"),
                "{warnings:?}"
            );
            assert_eq!(progress.done_count(), 0, "progress starts over");
            assert_eq!(
                state_file(&course),
                serde_json::json!({ "current": null, "done": [], "hints": {} })
            );
        }
    }

    #[test]
    fn exercises_no_longer_in_the_course_are_forgotten_with_a_warning() {
        let (_dir, course) = course();
        std::fs::write(
            course.root.join(STATE_FILE),
            r#"{ "current": "gone", "done": ["a", "gone"], "hints": { "gone": 1, "b": 2 } }"#,
        )
        .unwrap();
        let (progress, warnings) = Progress::load(&course);
        // One warning per place the name was found: done, hints, current.
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings
                .iter()
                .all(|warning| warning.contains("forgetting \"gone\"")),
            "{warnings:?}"
        );
        assert!(progress.is_done("a"));
        assert_eq!(progress.hint_level("b"), 2);
        assert_eq!(progress.current(), Some("b"));
        assert_eq!(
            state_file(&course),
            serde_json::json!({ "current": null, "done": ["a"], "hints": { "b": 2 } })
        );
    }
}
