//! `dev check`'s memory of what grading an exercise's programs found, so that a course
//! checked again after a change to one exercise grades that exercise only. An entry is
//! keyed by a digest of everything the grading reads: the programs, the exercise's entry
//! in info.toml and the course's defaults, every file of its fixtures, its checker or
//! referee, the compiler and its flags, the sandbox, and clings itself. An entry that does
//! not parse, or whose key differs, is graded again and replaced.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use walkdir::WalkDir;

use crate::course::Exercise;
use crate::course::lint::Problem;
use crate::grade::Grader;
use crate::util::atomic;
use crate::util::digest;

/// The folder of the entries in the course's cache, one file per exercise.
const FOLDER: &str = "dev-check";
/// Changes when what an entry holds, or how it is read, changes.
const FORMAT: &str = "dev-check 1";

/// What grading an exercise's programs found: the report's lines, its problems and its
/// warnings, as `dev check` prints and counts them.
#[derive(Default, Serialize, Deserialize)]
pub struct Checked {
    pub lines: Vec<String>,
    pub problems: Vec<Problem>,
    pub warnings: Vec<String>,
    /// How many programs were graded.
    pub programs: usize,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    checked: Checked,
}

pub struct CheckCache {
    dir: PathBuf,
    /// The digest of what every exercise's grading depends on.
    common: String,
}

impl CheckCache {
    /// The cache of `grader`'s course, for gradings by `grader`, whose output is coloured
    /// or not (`colour`).
    pub fn new(grader: &Grader, colour: bool) -> CheckCache {
        let strict = grader.strict.as_ref().map(|strict| strict.fingerprint());
        let common = digest::of(&[
            FORMAT.as_bytes(),
            clings_identity().as_bytes(),
            grader.toolchain.fingerprint().as_bytes(),
            strict.unwrap_or_default().as_bytes(),
            format!("{:?}", grader.strict_sample).as_bytes(),
            format!("{:?}", grader.loop_rule).as_bytes(),
            &[u8::from(grader.sandbox.isolated()), u8::from(colour)],
            format!("{:?}", grader.course.defaults).as_bytes(),
        ]);
        CheckCache {
            dir: grader.course.cache_dir().join(FOLDER),
            common,
        }
    }

    /// The key of grading `programs` (relative to `root`) against `exercise`'s cases in
    /// `fixtures`: a digest of every byte the grading reads.
    pub fn key(
        &self,
        root: &Path,
        exercise: &Exercise,
        fixtures: &Path,
        programs: &[&Path],
    ) -> String {
        let mut parts: Vec<Vec<u8>> = vec![
            self.common.clone().into_bytes(),
            format!("{exercise:?}").into_bytes(),
        ];
        // Each file as its name in the key and where it is.
        let mut files: Vec<(PathBuf, PathBuf)> = programs
            .iter()
            .copied()
            .chain(
                [&exercise.checker, &exercise.referee]
                    .into_iter()
                    .flatten()
                    .map(PathBuf::as_path),
            )
            .map(|name| (name.to_path_buf(), root.join(name)))
            .collect();
        for entry in WalkDir::new(fixtures).sort_by_file_name() {
            match entry {
                Ok(entry) if entry.path().is_file() => {
                    let name = entry.path().strip_prefix(fixtures).unwrap_or(entry.path());
                    files.push((name.to_path_buf(), entry.path().to_path_buf()));
                }
                // A folder is in the key by the files in it: an empty one is no part of
                // a case.
                Ok(_) => {}
                Err(err) => parts.push(err.to_string().into_bytes()),
            }
        }
        for (name, path) in files {
            parts.push(name.into_os_string().into_encoded_bytes());
            // A file that cannot be read is in the key as such: reading it fails the same
            // way until it changes.
            parts.push(std::fs::read(path).unwrap_or_else(|err| err.to_string().into_bytes()));
        }
        let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        digest::of(&parts)
    }

    /// What grading `exercise` found when its key was `key`, if that is known.
    pub fn get(&self, exercise: &Exercise, key: &str) -> Option<Checked> {
        let text = std::fs::read(self.path(exercise)).ok()?;
        let entry: Entry = serde_json::from_slice(&text).ok()?;
        (entry.key == key).then_some(entry.checked)
    }

    /// Remembers what grading `exercise` found, under `key`; a cache that cannot be
    /// written costs the next run a grading, nothing more.
    pub fn put(&self, exercise: &Exercise, key: &str, checked: Checked) -> Checked {
        let entry = Entry {
            key: key.to_string(),
            checked,
        };
        if let Ok(text) = serde_json::to_vec(&entry) {
            let _ = atomic::write(&self.path(exercise), &text);
        }
        entry.checked
    }

    fn path(&self, exercise: &Exercise) -> PathBuf {
        self.dir.join(format!("{}.json", exercise.name))
    }
}

/// This clings, as far as its results could differ from another's: its version, and its
/// executable (a rebuild makes a new one).
fn clings_identity() -> String {
    let exe = std::env::current_exe().ok();
    let meta = exe.as_ref().and_then(|exe| std::fs::metadata(exe).ok());
    format!(
        "{} {:?} {:?} {:?}",
        env!("CARGO_PKG_VERSION"),
        exe,
        meta.as_ref().map(std::fs::Metadata::len),
        meta.and_then(|meta| meta.modified().ok())
    )
}
