//! The student's progress: which exercises are done, the current one, hints revealed.
//! Kept in a small JSON file in the course directory, written atomically, under a lock,
//! and merged with what other clings processes wrote meanwhile.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, Result};
use nix::fcntl::{Flock, FlockArg};
use serde::{Deserialize, Serialize};

use crate::atomic;
use crate::course::Course;

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
    path: PathBuf,
    lock_path: PathBuf,
    /// Exercise names in course order.
    order: Vec<String>,
    current: Option<String>,
    done: Vec<bool>,
    hints: BTreeMap<String, usize>,
    changes: Vec<Change>,
}

impl Progress {
    /// Reads the state file; a missing file is a fresh start, and a corrupt or stale one is
    /// reported in the returned warnings and rebuilt, never fatal.
    pub fn load(course: &Course) -> (Progress, Vec<String>) {
        let path = course.root.join(STATE_FILE);
        let order: Vec<String> = course.exercises.iter().map(|e| e.name.clone()).collect();
        let mut progress = Progress {
            path,
            lock_path: course.root.join(LOCK_FILE),
            order,
            current: None,
            done: Vec::new(),
            hints: BTreeMap::new(),
            changes: Vec::new(),
        };
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
        let file = match std::fs::read_to_string(path) {
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
    pub fn save(&mut self) -> Result<()> {
        let _writing = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
        let _lock = self.lock()?;
        let changes = std::mem::take(&mut self.changes);
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
        self.write()
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
