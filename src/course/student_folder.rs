//! A student's own course folder, as `clings init` writes it: the course's exercises (from
//! their skeletons), cases, referees and bots, and nothing of the instructor's (no
//! solution, no known-wrong program). A file in it records where the course came from, so
//! that an exercise's reference solution can be written to `solutions/` once it passes.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::course::builtin;
use crate::course::{BOTS_DIR, Course, Exercise, INFO_FILE};
use crate::util::atomic;

/// Written by `clings init` at the top of the folder.
pub const ORIGIN_FILE: &str = ".clings-course.toml";

/// Where a student's folder came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The course built into clings.
    BuiltIn,
    /// A course folder (`clings init --from`), by its absolute path.
    Folder(PathBuf),
}

#[derive(Serialize, Deserialize)]
struct OriginFile {
    /// `built-in`, or the course folder's path.
    course: String,
}

const BUILT_IN: &str = "built-in";

impl Origin {
    /// The origin recorded in the folder at `root`; `None` in any other course (the
    /// repository, an instructor's copy), where solutions are not handed out.
    pub fn of(root: &Path) -> Option<Origin> {
        let text = std::fs::read_to_string(root.join(ORIGIN_FILE)).ok()?;
        let file: OriginFile = toml::from_str(&text).ok()?;
        Some(match file.course.as_str() {
            BUILT_IN => Origin::BuiltIn,
            path => Origin::Folder(PathBuf::from(path)),
        })
    }

    fn file_text(&self) -> String {
        let course = match self {
            Origin::BuiltIn => BUILT_IN.to_string(),
            Origin::Folder(path) => path.display().to_string(),
        };
        let file = toml::to_string(&OriginFile { course }).expect("a string serializes");
        format!(
            "# Written by `clings init`: the course this folder was made from. Each exercise's\n\
             # reference solution is copied from there into solutions/ once the exercise passes.\n\
             {file}"
        )
    }

    /// The reference solution of `exercise`, if this origin has one.
    fn solution(&self, exercise: &Exercise) -> Option<Vec<u8>> {
        let path = exercise.solution_path();
        match self {
            Origin::BuiltIn => builtin::solution(&path),
            // The origin file is the student's to edit: a folder is trusted only as far as
            // a course folder, and only for files inside it.
            Origin::Folder(course) => {
                let root = course.canonicalize().ok()?;
                if !root.join(INFO_FILE).is_file() {
                    return None;
                }
                let file = root.join(path).canonicalize().ok()?;
                file.starts_with(&root)
                    .then(|| std::fs::read(file).ok())
                    .flatten()
            }
        }
    }
}

/// What `course`'s student folder holds: `(file in the course, file in the folder)`, each
/// relative. Every exercise's file starts as its skeleton; a referee's or checker's folder
/// (`referees/`, with the protocol's README) goes whole, as do each exercise's cases and
/// the course's bots.
pub fn files(course: &Course) -> Result<Vec<(PathBuf, PathBuf)>> {
    let mut files = vec![(PathBuf::from(INFO_FILE), PathBuf::from(INFO_FILE))];
    let mut trees = vec![PathBuf::from(BOTS_DIR)];
    for exercise in &course.exercises {
        let skeleton = plain(exercise, "skeleton", exercise.skeleton_path())?;
        let path = plain(exercise, "path", exercise.path.clone())?;
        files.push((skeleton.clone(), skeleton.clone()));
        files.push((skeleton, path));
        trees.push(Path::new("fixtures").join(&exercise.name));
        for (key, judge) in [
            ("referee", &exercise.referee),
            ("checker", &exercise.checker),
        ] {
            let Some(judge) = judge else { continue };
            let judge = plain(exercise, key, judge.clone())?;
            match judge.parent() {
                Some(folder) if !folder.as_os_str().is_empty() => trees.push(folder.into()),
                _ => files.push((judge.clone(), judge)),
            }
        }
    }
    trees.sort();
    trees.dedup();
    for tree in trees {
        for entry in walkdir::WalkDir::new(course.root.join(&tree)).sort_by_file_name() {
            let Ok(entry) = entry else { continue };
            if entry.file_type().is_file() {
                let relative = entry.path().strip_prefix(&course.root).expect("under root");
                files.push((relative.to_path_buf(), relative.to_path_buf()));
            }
        }
    }
    // A skeleton folder beside the exercises, say, is listed twice: written once.
    files.sort_by(|a, b| a.1.cmp(&b.1));
    files.dedup_by(|a, b| a.1 == b.1);
    Ok(files)
}

/// `path` when it stays inside the course (no `..`, not absolute): a student folder is
/// written only under itself.
fn plain(exercise: &Exercise, key: &str, path: PathBuf) -> Result<PathBuf> {
    if path
        .components()
        .all(|part| matches!(part, Component::Normal(_)))
    {
        return Ok(path);
    }
    bail!(
        "exercise {}: key `{key}`: {} leaves the course folder",
        exercise.name,
        path.display()
    )
}

/// Writes `course`'s student folder into `dir` (which must exist), recording `origin`.
pub fn write(course: &Course, dir: &Path, origin: &Origin) -> Result<()> {
    for (from, to) in files(course)? {
        let source = course.root.join(&from);
        let contents = std::fs::read(&source).with_context(|| {
            format!(
                "the course has no {}, which its {INFO_FILE} needs",
                from.display()
            )
        })?;
        let target = dir.join(&to);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&target, contents)
            .with_context(|| format!("cannot write {}", target.display()))?;
    }
    // The cache of builds is the student's machine's, not something to commit.
    std::fs::write(dir.join(".gitignore"), ".clings/\n")
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    std::fs::write(dir.join(ORIGIN_FILE), origin.file_text())
        .with_context(|| format!("cannot write in {}", dir.display()))
}

/// In a folder made by `clings init` from `origin`, writes the reference solution of each
/// of `passed` that is not there yet; returns the files written, relative to the course.
pub fn hand_out_solutions<'a>(
    course: &Course,
    origin: &Origin,
    passed: impl IntoIterator<Item = &'a Exercise>,
) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for exercise in passed {
        let Ok(path) = plain(exercise, "solution", exercise.solution_path()) else {
            continue;
        };
        let target = course.root.join(&path);
        if target.exists() || through_a_link(&course.root, &path) {
            continue;
        }
        if let Some(solution) = origin.solution(exercise) {
            atomic::write(&target, &solution)?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Whether a folder on the way from `root` to `path` is a symbolic link: a `solutions`
/// that leads elsewhere would take the write out of the student's folder.
fn through_a_link(root: &Path, path: &Path) -> bool {
    path.ancestors()
        .skip(1)
        .filter(|folder| !folder.as_os_str().is_empty())
        .any(|folder| {
            std::fs::symlink_metadata(root.join(folder)).is_ok_and(|meta| meta.is_symlink())
        })
}
