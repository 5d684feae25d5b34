//! The student's progress: which exercises are done, the current one, hints revealed.
//! Kept in a small JSON file in the course directory, written atomically.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::atomic;
use crate::course::Course;

pub const STATE_FILE: &str = ".clings-state.json";

#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    current: Option<String>,
    done: Vec<String>,
    hints: BTreeMap<String, usize>,
}

pub struct Progress {
    path: PathBuf,
    /// Exercise names in course order.
    order: Vec<String>,
    current: Option<String>,
    done: Vec<bool>,
    hints: BTreeMap<String, usize>,
}

impl Progress {
    /// Reads the state file; a missing file is a fresh start, and a corrupt or stale one is
    /// reported in the returned warnings and rebuilt, never fatal.
    pub fn load(course: &Course) -> (Progress, Vec<String>) {
        let path = course.root.join(STATE_FILE);
        let order: Vec<String> = course.exercises.iter().map(|e| e.name.clone()).collect();
        let mut warnings = Vec::new();
        let file = match std::fs::read_to_string(&path) {
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
        let hints = file
            .hints
            .into_iter()
            .filter(|(name, _)| known(name))
            .collect();
        let current = file.current.filter(&mut known);
        let done = order.iter().map(|name| done_names.contains(name)).collect();
        let progress = Progress {
            path,
            order,
            current,
            done,
            hints,
        };
        if !warnings.is_empty()
            && let Err(err) = progress.save()
        {
            warnings.push(format!("{err:#}"));
        }
        (progress, warnings)
    }

    /// Writes through a temporary file and a rename, so a crash never leaves half a file.
    pub fn save(&self) -> Result<()> {
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
    }

    /// Marks `name` done and moves on to the next unfinished exercise after it.
    pub fn mark_done(&mut self, name: &str) {
        if let Some(index) = self.index(name) {
            self.done[index] = true;
            self.current = self.first_pending_from(index + 1).map(String::from);
        }
    }

    pub fn mark_pending(&mut self, name: &str) {
        if let Some(index) = self.index(name) {
            self.done[index] = false;
        }
    }

    /// How many hints of `name` have been revealed.
    pub fn hint_level(&self, name: &str) -> usize {
        self.hints.get(name).copied().unwrap_or(0)
    }

    pub fn set_hint_level(&mut self, name: &str, level: usize) {
        self.hints.insert(name.to_string(), level);
    }
}
