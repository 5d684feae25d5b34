//! `clings init [DIR] [--from COURSE]`: a student's own course folder, written from the
//! course built into clings (or from a course folder), for students who installed clings
//! and have no copy of its repository.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::commands::Exit;
use crate::course::Course;
use crate::course::builtin;
use crate::course::student_folder::{self, Origin};
use crate::util::i18n::{Lang, Localized};

/// The folder made when none is named, for the built-in course.
const DEFAULT_DIR: &str = "gomoku";

/// Make your own course folder (exercises, cases, referee, bots) and start there.
#[derive(clap::Args)]
pub struct Args {
    /// The folder to make; it must not exist, or be empty (default: gomoku).
    dir: Option<PathBuf>,
    /// Make it from this course folder instead of the course built into clings.
    #[arg(long, value_name = "COURSE")]
    from: Option<PathBuf>,
}

pub fn run(options: &Args, lang: Lang) -> Result<Exit> {
    // The built-in course is read from a folder too (unpacked, when built in), so that
    // both are written by the same rule: what the course's info.toml needs, and nothing
    // else.
    let unpacked;
    let (course, origin) = match &options.from {
        Some(from) => {
            let from = std::path::absolute(from)
                .with_context(|| format!("cannot find {}", from.display()))?;
            (Course::load(&from)?, Origin::Folder(from))
        }
        None => {
            unpacked = tempfile::tempdir().context("cannot make a temporary folder")?;
            let folder = builtin::folder(unpacked.path())?;
            (Course::load(&folder)?, Origin::BuiltIn)
        }
    };
    let dir = options.dir.clone().unwrap_or_else(|| match &origin {
        Origin::Folder(from) => from.file_name().map_or(DEFAULT_DIR.into(), PathBuf::from),
        Origin::BuiltIn => DEFAULT_DIR.into(),
    });
    // Refused before anything is made: a course with a symbolic link among its files.
    let files = student_folder::files(&course)?;
    write_new_folder(&course, &files, &dir, &origin)?;
    println!("{}", next_steps(&course, &dir, &origin, lang));
    Ok(Exit::Success)
}

/// Writes the student folder, `files` of `course`, at `dir`, which may be an empty folder but nothing else: an
/// existing file is never overwritten. A new folder appears whole or not at all.
fn write_new_folder(
    course: &Course,
    files: &[(PathBuf, PathBuf)],
    dir: &Path,
    origin: &Origin,
) -> Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(not_empty(dir));
            }
            // An empty folder, maybe the shell's own (`clings init .`): written in place,
            // and emptied again if that fails.
            student_folder::write(course, files, dir, origin).inspect_err(|_| empty(dir))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let parent = match dir.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
            let staging = tempfile::Builder::new()
                .prefix(".clings-init-")
                .permissions(std::fs::Permissions::from_mode(0o777))
                .tempdir_in(parent)
                .with_context(|| format!("cannot write in {}", parent.display()))?;
            student_folder::write(course, files, staging.path(), origin)?;
            std::fs::rename(staging.path(), dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            // Renamed away: nothing is left for the guard to remove.
            let _ = staging.keep();
            Ok(())
        }
        Err(_) if dir.exists() => bail!(not_empty(dir)),
        Err(err) => Err(err).with_context(|| format!("cannot read {}", dir.display())),
    }
}

fn not_empty(dir: &Path) -> Localized {
    let dir = dir.display();
    Localized::new(
        format!(
            "{dir} already exists and is not an empty folder: `clings init` writes a new \
             course folder and changes nothing in an existing one. Name another folder \
             (`clings init my-gomoku`), or run clings inside {dir} if it is your course"
        ),
        format!(
            "{dir} 已经存在，而且不是空文件夹：`clings init` 只新建课程文件夹，不会改动已有的文件夹。\
             请换一个名字（`clings init my-gomoku`）；如果 {dir} 就是你的课程，请在里面运行 clings"
        ),
    )
}

/// Removes what a failed `init` wrote into a folder that was empty.
fn empty(dir: &Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let _ = match entry.file_type() {
            Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
    }
}

/// What was made, and the commands to run next.
fn next_steps(course: &Course, dir: &Path, origin: &Origin, lang: Lang) -> String {
    let first = &course.exercises[0];
    let (count, path, shown) = (course.exercises.len(), first.path.display(), dir.display());
    let version = env!("CARGO_PKG_VERSION");
    let from = match origin {
        Origin::BuiltIn if builtin::EMBEDDED => lang.pick(
            format!("the course built into clings {version}"),
            format!("clings {version} 内置的课程"),
        ),
        Origin::BuiltIn => lang.pick(
            format!(
                "the course of the checkout clings {version} was built from, {}",
                course.root.display()
            ),
            format!(
                "构建 clings {version} 的仓库里的课程（{}）",
                course.root.display()
            ),
        ),
        Origin::Folder(from) => from.display().to_string(),
    };
    lang.pick(
        format!(
            "Made {shown}: {count} exercises, from {from}.\n\
             Next:\n  cd {shown}\n  clings            # watch mode: your exercise graded each time you save it\n  \
             clings run next   # or grade the next exercise once\n\
             Start with {path}. Each exercise's reference solution is written to solutions/ \
             once your own passes."
        ),
        format!(
            "已新建 {shown}：共 {count} 个练习，来自{from}。\n\
             下一步：\n  cd {shown}\n  clings            # 监视模式：每次保存都重新评测当前练习\n  \
             clings run next   # 或者只评测一次下一个练习\n\
             从 {path} 开始。你的练习通过之后，它的参考答案会写到 solutions/ 里。"
        ),
    )
}
