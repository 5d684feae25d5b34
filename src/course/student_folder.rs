//! A student's own course folder, as `clings init` writes it: the course's exercises (from
//! their skeletons), cases, referees and bots, and nothing of the instructor's (no
//! solution, no known-wrong program). A file in it records where the course came from, so
//! that an exercise's reference solution can be written to `solutions/` once it passes.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::course::builtin;
use crate::course::{BOTS_DIR, Course, Exercise, INFO_FILE};
use crate::util::atomic;
use crate::util::i18n::Localized;
use crate::util::style;

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
/// the course's bots. A course in which any of it, or a folder on the way to it, is a
/// symbolic link is refused, every link named: a link could lead out of the course (to
/// the student's own ssh key, in a shared course) and copy what it leads to into the
/// folder the student pushes.
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
    let mut links = BTreeSet::new();
    for (from, _) in &files {
        links.extend(link_on_the_way(&course.root, from));
    }
    for tree in trees {
        if let Some(link) = link_on_the_way(&course.root, &tree) {
            links.insert(link);
            continue;
        }
        let walk = walkdir::WalkDir::new(course.root.join(&tree))
            .follow_root_links(false)
            .sort_by_file_name();
        for entry in walk {
            let Ok(entry) = entry else { continue };
            let relative = entry.path().strip_prefix(&course.root).expect("under root");
            if entry.path_is_symlink() {
                links.insert(relative.to_path_buf());
            } else if entry.file_type().is_file() {
                files.push((relative.to_path_buf(), relative.to_path_buf()));
            }
        }
    }
    if !links.is_empty() {
        bail!(refused_links(&course.root, &links));
    }
    // A skeleton folder beside the exercises, say, is listed twice: written once.
    files.sort_by(|a, b| a.1.cmp(&b.1));
    files.dedup_by(|a, b| a.1 == b.1);
    Ok(files)
}

/// The first of `path` (relative to `root`) and the folders on the way to it that is a
/// symbolic link, if one is.
fn link_on_the_way(root: &Path, path: &Path) -> Option<PathBuf> {
    let mut on_the_way = PathBuf::new();
    path.components().find_map(|part| {
        on_the_way.push(part);
        std::fs::symlink_metadata(root.join(&on_the_way))
            .is_ok_and(|meta| meta.is_symlink())
            .then(|| on_the_way.clone())
    })
}

/// Why a course with `links` (relative to `root`) is not copied, each named with where it
/// leads.
fn refused_links(root: &Path, links: &BTreeSet<PathBuf>) -> Localized {
    let listed: String = links
        .iter()
        .map(|link| {
            let target = std::fs::read_link(root.join(link)).unwrap_or_default();
            format!(
                "\n  {} -> {}",
                style::one_line(&link.display().to_string()),
                style::one_line(&target.display().to_string())
            )
        })
        .collect();
    let course = style::one_line(&root.display().to_string()).into_owned();
    Localized::new(
        format!(
            "{course} is not copied: a student's folder is written from the course's own \
             files only, and these are symbolic links, which could lead to any file (your \
             ssh key) and put it in the folder you push:{listed}\n\
             Nothing was written. Ask whoever keeps the course to put the files themselves \
             in place of the links."
        ),
        format!(
            "{course} 不能复制：学生文件夹只从课程自己的文件写出，而下面这些是符号链接，\
             它们可能指向任何文件（比如你的 ssh 密钥），把它放进你要推送的文件夹：{listed}\n\
             什么都没有写入。请课程的维护者用文件本身替换这些链接。"
        ),
    )
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

/// Writes `files` (see [`files`]) of `course` into `dir` (which must exist), recording
/// `origin`.
pub fn write(
    course: &Course,
    files: &[(PathBuf, PathBuf)],
    dir: &Path,
    origin: &Origin,
) -> Result<()> {
    for (from, to) in files {
        let contents = read_within(&course.root, from)?;
        let target = dir.join(to);
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

/// The bytes of the regular file `path` (relative, each part a name) under `root`, opened
/// one folder at a time without following a link: a link put in place of a file or folder
/// since [`files`] looked is refused, not followed out of the course.
fn read_within(root: &Path, path: &Path) -> Result<Vec<u8>> {
    use nix::fcntl::{OFlag, open, openat};
    use nix::sys::stat::Mode;
    let shown = path.display();
    let failed = |errno: nix::errno::Errno| match errno {
        nix::errno::Errno::ENOENT => {
            anyhow::anyhow!("the course has no {shown}, which its {INFO_FILE} needs")
        }
        // What a link in place of a folder or of the file gives.
        nix::errno::Errno::ELOOP | nix::errno::Errno::ENOTDIR | nix::errno::Errno::EMLINK => {
            anyhow::anyhow!(
                "cannot copy {shown}: it, or a folder on the way, became a symbolic link"
            )
        }
        errno => anyhow::anyhow!("cannot read {shown}: {errno}"),
    };
    let folder = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC;
    let mut dir = open(root, folder, Mode::empty())
        .with_context(|| format!("cannot read {}", root.display()))?;
    let parts: Vec<_> = path.components().collect();
    let (name, folders) = parts.split_last().context("an empty path")?;
    for part in folders {
        dir = openat(
            &dir,
            part.as_os_str(),
            folder | OFlag::O_NOFOLLOW,
            Mode::empty(),
        )
        .map_err(failed)?;
    }
    // O_NONBLOCK: a FIFO put there must not hold init up.
    let file = openat(
        &dir,
        name.as_os_str(),
        OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .map_err(failed)?;
    let mut file = std::fs::File::from(file);
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {shown}"))?;
    anyhow::ensure!(
        meta.is_file(),
        "cannot copy {shown}: it is not a regular file"
    );
    let mut contents = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut contents)
        .with_context(|| format!("cannot read {shown}"))?;
    Ok(contents)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A file, or a folder on the way to it, that became a symbolic link after [`files`]
    /// looked is refused, not followed; a FIFO is refused without waiting for a writer.
    #[test]
    fn a_file_is_read_only_from_inside_the_course_as_it_was() {
        let course = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("id_ed25519"), "secret").unwrap();
        std::fs::create_dir(course.path().join("skeletons")).unwrap();
        std::fs::write(course.path().join("skeletons/sum.c"), "int main;").unwrap();
        let read = |path: &str| read_within(course.path(), Path::new(path));
        assert_eq!(read("skeletons/sum.c").unwrap(), b"int main;");

        std::os::unix::fs::symlink(
            outside.path().join("id_ed25519"),
            course.path().join("skeletons/key.c"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), course.path().join("referees")).unwrap();
        for path in ["skeletons/key.c", "referees/id_ed25519"] {
            let error = format!("{:#}", read(path).unwrap_err());
            assert!(error.contains("became a symbolic link"), "{path}: {error}");
        }
        nix::unistd::mkfifo(
            &course.path().join("skeletons/fifo.c"),
            nix::sys::stat::Mode::S_IRWXU,
        )
        .unwrap();
        let error = format!("{:#}", read("skeletons/fifo.c").unwrap_err());
        assert!(error.contains("not a regular file"), "{error}");
        let error = format!("{:#}", read("skeletons/none.c").unwrap_err());
        assert!(
            error.contains("the course has no skeletons/none.c"),
            "{error}"
        );
    }
}
