//! The course: `info.toml` read into a typed model, and found by walking up from a directory.

pub mod builtin;
pub mod fixture;
pub mod input_format;
pub mod lint;
pub mod student_folder;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use toml::Spanned;

use crate::course::fixture::{FirstHint, HintRule, Mistake};
use crate::course::input_format::InputFormat;
use crate::util::i18n::{Localized, Text};
use crate::verdict::compare::CompareMode;

pub const INFO_FILE: &str = "info.toml";

/// Names of exercises and chapters: letters, digits, `_` and `-`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}
/// Where skeletons live when an exercise has no `skeleton` key.
pub const SKELETONS_DIR: &str = "skeletons";
/// Where solutions live when an exercise has no `solution` key.
const SOLUTIONS_DIR: &str = "solutions";
/// Where each exercise's known-wrong programs live, a folder per exercise.
pub const WRONG_PROGRAMS_DIR: &str = "solutions/wrong";
/// Where a course keeps its bots: players of its own, a C file each, run as `bot SEED`.
pub const BOTS_DIR: &str = "bots";
const FORMAT_VERSION: u32 = 1;

/// Course-wide settings; each case may override the limits and the compare mode.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Defaults {
    pub compiler: Option<String>,
    pub flags: Vec<String>,
    /// Names given to `-fsanitize=`, e.g. `undefined`, `bounds-strict`, `address`.
    pub sanitizers: Vec<String>,
    /// A second build's sanitizers (e.g. `address`): once the program passes every case,
    /// it runs them all again built with these, and passes only if it passes both. Catches
    /// what the first build's cannot see, at the cost of one more build and run.
    pub strict_sanitizers: Vec<String>,
    /// Wall-clock time per case.
    pub time_limit_ms: u64,
    /// CPU time per case; by default [`default_cpu_time_ms`] of the wall time.
    pub cpu_time_ms: Option<u64>,
    /// Memory per case (docs/security.md, "Limits", says how it is enforced).
    pub memory_mb: u64,
    /// Processes (and threads) at once, the program included.
    pub processes: u64,
    /// The largest file a program may write.
    pub file_size_bytes: u64,
    /// Open file descriptors, stdin, stdout and stderr included.
    pub open_files: u64,
    pub output_limit_bytes: usize,
    pub compare: CompareMode,
}

/// Half the wall time, in whole seconds (RLIMIT_CPU's unit), at least one: a program that
/// spins is stopped sooner, and by a clock that says it was spinning.
pub fn default_cpu_time_ms(time_limit_ms: u64) -> u64 {
    (time_limit_ms / 2).div_ceil(1000).max(1) * 1000
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            compiler: None,
            flags: ["-std=c99", "-Wall", "-Wextra", "-g"]
                .map(String::from)
                .to_vec(),
            sanitizers: ["undefined", "bounds-strict"].map(String::from).to_vec(),
            strict_sanitizers: Vec::new(),
            time_limit_ms: 2000,
            cpu_time_ms: None,
            // The lesson's programs need a few hundred KiB and one process.
            memory_mb: 256,
            processes: 16,
            file_size_bytes: crate::sandbox::DEFAULT_FILE_SIZE_BYTES,
            open_files: 64,
            output_limit_bytes: 64 * 1024,
            compare: CompareMode::Lines,
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    pub name: String,
    pub title: Text,
    /// The file the student edits, relative to the course root.
    pub path: PathBuf,
    /// The reference solution, relative to the course root; by default
    /// [`Exercise::solution_path`].
    #[serde(default)]
    pub solution: Option<PathBuf>,
    /// The pristine copy of `path` that `reset` restores, relative to the course root; by
    /// default [`Exercise::skeleton_path`].
    #[serde(default)]
    pub skeleton: Option<PathBuf>,
    #[serde(default)]
    pub input: InputFormat,
    /// What the program prints before it reads each line of its input ("enter row col: "):
    /// it maps a place in the output back to the input line being answered there, which
    /// the reports name where a program's output first went wrong.
    #[serde(default)]
    pub prompt: Option<String>,
    /// Compiler flags after the course's for every program of this exercise: the
    /// student's, the solution, the known-wrong programs and mutants, the players of its
    /// battles, its checker or referee. For an exercise whose runs cost more than its
    /// compiles, such as a search played move by move (`["-O2"]`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Checks of the course's sanitizers left out of this exercise's builds, both tiers
    /// (`-fno-sanitize=`, after the course's `-fsanitize=`): for a check that costs much
    /// at the exercise's flags and that another catches, such as UBSan's `object-size` at
    /// -O2, which AddressSanitizer's strict tier covers.
    #[serde(default)]
    pub without_sanitizers: Vec<String>,
    #[serde(default)]
    pub hints: Vec<Text>,
    /// Hints about a kind of failure, whichever case shows it (`[[exercises.failure_hints]]`,
    /// the same rules as a case's `[[hints]]`): tried after the case's own.
    #[serde(default)]
    pub failure_hints: Vec<HintRule>,
    /// The mistakes students make here, each recognised by the cases it fails and passes
    /// (`[[exercises.mistakes]]`): the first that the results show is the first hint.
    #[serde(default)]
    pub mistakes: Vec<Mistake>,
    /// Changes of the reference solution that survive the cases and are no mistake
    /// (`[[exercises.accepted_mutants]]`): `dev mutants` lists them apart, with why.
    #[serde(default)]
    pub accepted_mutants: Vec<AcceptedMutant>,
    /// The hint each known-wrong program not named after a mistake must get first
    /// (`[exercises.first_hints]`, by the program's file name without its extension).
    #[serde(default)]
    pub first_hints: BTreeMap<String, FirstHint>,
    /// The `name` of its chapter; the course's first chapter when not given.
    #[serde(default)]
    pub chapter: Option<String>,
    /// A program of the course's, relative to its root, that judges each case's output in
    /// place of comparing it with the `.out` (an output validator: for exercises with more
    /// than one right answer). Built like a solution; see the grading stage's `checkers`.
    #[serde(default)]
    pub checker: Option<PathBuf>,
    /// A program of the course's, relative to its root, that each case's program talks
    /// with (an interactor: a game's other player and its judge). See
    /// the grading stage's `checkers`.
    #[serde(default)]
    pub referee: Option<PathBuf>,
}

/// Mutants of the reference solution that the instructor accepts as no mistake: another
/// player as strong, a bound as safe, two steps in either order. A surviving mutant that
/// an entry fits is not a weakness of the cases, and `dev mutants` leaves it out of the
/// score, saying so; one that an entry names alone, by its change, it does not grade. An
/// entry fits a mutant when each key it gives fits.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedMutant {
    /// The function of the reference whose body holds the change.
    pub function: Option<String>,
    /// The change as `dev mutants` shows it, without its line: `WIN + 2 → WIN + 1`.
    pub change: Option<String>,
    /// Several changes, each fitted as `change` is.
    #[serde(default)]
    pub changes: Vec<String>,
    /// Why such a change is no mistake: shown beside each mutant it accepts.
    pub why: String,
}

impl AcceptedMutant {
    /// Whether the entry fits a mutant changing a body of `function` (none outside every
    /// function) by `change`, as `dev mutants` shows it.
    pub fn fits(&self, function: Option<&str>, change: &str) -> bool {
        let mut named = self.change.iter().chain(&self.changes).peekable();
        self.function
            .as_deref()
            .is_none_or(|wanted| function == Some(wanted))
            && (named.peek().is_none() || named.any(|named| named == change))
    }
}

/// A part of the course: its exercises come after those of the chapters before it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    pub name: String,
    pub title: Text,
    /// Whether its points count for a grade (`grade`'s total); a chapter that does not is
    /// practice, still graded and reported.
    #[serde(default = "counts_by_default")]
    pub graded: bool,
}

fn counts_by_default() -> bool {
    true
}

impl Chapter {
    /// The one chapter of a course that declares none.
    pub fn implicit() -> Chapter {
        Chapter {
            name: IMPLICIT_CHAPTER.to_string(),
            title: Text::Plain(IMPLICIT_CHAPTER.to_string()),
            graded: true,
        }
    }
}

/// The name of the one chapter of a course that declares none.
const IMPLICIT_CHAPTER: &str = "exercises";

impl Exercise {
    /// The reference solution, relative to the course root: the `solution` key, else
    /// `solutions/<file name of path>`.
    pub fn solution_path(&self) -> PathBuf {
        self.solution
            .clone()
            .unwrap_or_else(|| Path::new(SOLUTIONS_DIR).join(self.file_name()))
    }

    /// Where the known-wrong programs of this exercise are: `solutions/wrong/<name>/`,
    /// each a file with the extension of `path` (the course's language).
    pub fn wrong_programs_dir(&self) -> PathBuf {
        Path::new(WRONG_PROGRAMS_DIR).join(&self.name)
    }

    /// Whether `file` is a program in this exercise's language: its extension is `path`'s.
    pub fn is_program(&self, file: &Path) -> bool {
        file.extension().is_some() && file.extension() == self.path.extension()
    }

    fn file_name(&self) -> &std::ffi::OsStr {
        self.path.file_name().unwrap_or(self.path.as_os_str())
    }

    /// The pristine skeleton, relative to the course root: the `skeleton` key, else
    /// `skeletons/<file name of path>`. Course data, read when needed, never built into
    /// clings: editing it (or the student's file) needs no rebuild.
    pub fn skeleton_path(&self) -> PathBuf {
        self.skeleton
            .clone()
            .unwrap_or_else(|| Path::new(SKELETONS_DIR).join(self.file_name()))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InfoFile {
    format_version: Spanned<u32>,
    #[serde(default)]
    defaults: Defaults,
    #[serde(default)]
    chapters: Vec<Spanned<Chapter>>,
    exercises: Vec<Spanned<Exercise>>,
}

#[derive(Clone, Debug)]
pub struct Course {
    pub root: PathBuf,
    pub defaults: Defaults,
    /// At least one; the exercises are in chapter order.
    pub chapters: Vec<Chapter>,
    pub exercises: Vec<Exercise>,
}

impl Course {
    /// Finds the nearest `info.toml` at or above `start` and loads it.
    pub fn discover(start: &Path) -> Result<Course> {
        let root = start
            .ancestors()
            .find(|dir| dir.join(INFO_FILE).is_file())
            .ok_or_else(|| {
                Localized::new(
                    format!(
                        "no {INFO_FILE} found in {} or any directory above it: \
                         run clings inside a course directory, or make one with \
                         `clings init gomoku`",
                        start.display()
                    ),
                    format!(
                        "在 {} 及其上级目录中都没有找到 {INFO_FILE}：请在课程目录中运行 clings，\
                         或者用 `clings init gomoku` 新建一个",
                        start.display()
                    ),
                )
            })?;
        Course::load(root)
    }

    pub fn load(root: &Path) -> Result<Course> {
        let info_path = root.join(INFO_FILE);
        let text = std::fs::read_to_string(&info_path)
            .with_context(|| format!("cannot read {}", info_path.display()))?;
        Course::parse(root, &info_path, &text)
    }

    fn parse(root: &Path, info_path: &Path, text: &str) -> Result<Course> {
        let at = |span: std::ops::Range<usize>, key: &str| {
            let line = crate::util::toml_error::line_of(text, key_offset(text, span, key));
            format!("{}:{line}: key `{key}`", info_path.display())
        };
        let info: InfoFile = toml::from_str(text).map_err(|err| {
            anyhow::anyhow!(crate::util::toml_error::describe(
                info_path,
                text,
                "course file",
                &err
            ))
        })?;
        if *info.format_version.get_ref() != FORMAT_VERSION {
            bail!(
                "{}: this clings reads version {FORMAT_VERSION}, the file says {}",
                at(info.format_version.span(), "format_version"),
                info.format_version.get_ref()
            );
        }
        if info.exercises.is_empty() {
            bail!("{}: the course has no [[exercises]]", info_path.display());
        }
        // Every mistake of the file at once, each at its line.
        let mut mistakes = Vec::new();
        let mut chapters: Vec<Chapter> = Vec::with_capacity(info.chapters.len().max(1));
        for spanned in info.chapters {
            let span = spanned.span();
            let chapter = spanned.into_inner();
            if !valid_name(&chapter.name) {
                mistakes.push(format!(
                    "{}: {:?} is not a valid chapter name (letters, digits, `_` and `-` only)",
                    at(span, "name"),
                    chapter.name
                ));
            } else if chapters.iter().any(|known| known.name == chapter.name) {
                mistakes.push(format!(
                    "{}: chapter {:?} appears twice",
                    at(span, "name"),
                    chapter.name
                ));
            } else {
                chapters.push(chapter);
            }
        }
        if chapters.is_empty() {
            chapters.push(Chapter::implicit());
        }
        let mut seen = HashSet::new();
        let mut exercises = Vec::with_capacity(info.exercises.len());
        for spanned in info.exercises {
            let span = spanned.span();
            let mut exercise = spanned.into_inner();
            let before = mistakes.len();
            let mut mistake = |key: &str, what: String| {
                mistakes.push(format!("{}: {what}", at(span.clone(), key)));
            };
            if !valid_name(&exercise.name) {
                mistake(
                    "name",
                    format!(
                        "{:?} is not a valid exercise name (letters, digits, `_` and `-` only)",
                        exercise.name
                    ),
                );
            }
            if !seen.insert(exercise.name.clone()) {
                mistake(
                    "name",
                    format!("exercise {:?} appears twice", exercise.name),
                );
            }
            if exercise.path.is_absolute() {
                mistake(
                    "path",
                    format!(
                        "{} must be relative to the course directory",
                        exercise.path.display()
                    ),
                );
            }
            if exercise.skeleton.as_ref().is_some_and(|s| s.is_absolute()) {
                mistake(
                    "skeleton",
                    format!(
                        "{} must be relative to the course directory",
                        exercise.skeleton_path().display()
                    ),
                );
            }
            for (key, path) in [
                ("checker", &exercise.checker),
                ("referee", &exercise.referee),
            ] {
                if path.as_ref().is_some_and(|path| path.is_absolute()) {
                    mistake(key, "it must be relative to the course directory".into());
                }
            }
            if exercise.checker.is_some() && exercise.referee.is_some() {
                mistake(
                    "referee",
                    "the exercise has a `checker` too: its cases are judged by one of them \
                     (a referee judges the conversation it takes part in)"
                        .into(),
                );
            }
            if exercise.skeleton_path() == exercise.path {
                mistake(
                    "skeleton",
                    format!(
                        "{} is the file students edit; the skeleton is its pristine copy, \
                         kept elsewhere (by default {SKELETONS_DIR}/)",
                        exercise.path.display()
                    ),
                );
            }
            let chapter = exercise
                .chapter
                .get_or_insert_with(|| chapters[0].name.clone());
            let Some(index) = chapters.iter().position(|known| &known.name == chapter) else {
                let names: Vec<&str> = chapters.iter().map(|c| c.name.as_str()).collect();
                mistake(
                    "chapter",
                    format!(
                        "exercise {:?} names chapter {chapter:?}, which is not among the \
                         [[chapters]] ({})",
                        exercise.name,
                        names.join(", ")
                    ),
                );
                continue;
            };
            if mistakes.len() == before {
                exercises.push((index, exercise));
            }
        }
        if !mistakes.is_empty() {
            bail!("{}", mistakes.join("\n"));
        }
        // Chapter by chapter, each in the file's order.
        exercises.sort_by_key(|(index, _)| *index);
        Ok(Course {
            root: root.to_path_buf(),
            defaults: info.defaults,
            chapters,
            exercises: exercises
                .into_iter()
                .map(|(_, exercise)| exercise)
                .collect(),
        })
    }

    /// The chapter `exercise` belongs to.
    pub fn chapter_of(&self, exercise: &Exercise) -> &Chapter {
        self.chapters
            .iter()
            .find(|chapter| Some(&chapter.name) == exercise.chapter.as_ref())
            .unwrap_or(&self.chapters[0])
    }

    /// Whether the course is in chapters the reports name (more than one).
    pub fn has_chapters(&self) -> bool {
        self.chapters.len() > 1
    }

    /// The exercises' names, in the course's order.
    pub fn names(&self) -> Vec<&str> {
        self.exercises.iter().map(|e| e.name.as_str()).collect()
    }

    pub fn exercise(&self, name: &str) -> Result<&Exercise> {
        self.exercises
            .iter()
            .find(|exercise| exercise.name == name)
            .ok_or_else(|| {
                let names = self.names().join(", ");
                Localized::new(
                    format!("no exercise named {name:?}; the course has: {names}"),
                    format!("没有名为 {name:?} 的练习；本课程的练习有：{names}"),
                )
                .into()
            })
    }

    /// The pristine skeleton of `exercise`, read from the course (`skeletons/` by default),
    /// or an error that names the missing file and says how to get it back.
    pub fn skeleton(&self, exercise: &Exercise) -> Result<Vec<u8>> {
        let skeleton = exercise.skeleton_path();
        let path = self.root.join(&skeleton);
        match std::fs::read(&path) {
            Ok(original) => Ok(original),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                let (skeleton, file, name) =
                    (skeleton.display(), exercise.path.display(), &exercise.name);
                Err(Localized::new(
                    format!(
                        "the skeleton of {name}, {skeleton}, is missing, so `reset` cannot put it \
                         back in {file} (nothing was changed): restore it from your course's \
                         repository (`git checkout -- {skeleton}`) or copy it from a fresh copy of \
                         the course"
                    ),
                    format!(
                        "练习 {name} 的原始框架 {skeleton} 不见了，`reset` 无法恢复 {file}\
                         （没有做任何修改）：请从课程仓库中取回它（`git checkout -- {skeleton}`），\
                         或从一份新的课程副本中复制过来"
                    ),
                )
                .into())
            }
            Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    pub fn fixtures_dir(&self, exercise: &Exercise) -> PathBuf {
        self.root.join("fixtures").join(&exercise.name)
    }

    /// Where compiled programs are cached, and scratch work is kept: `.clings/cache` in the
    /// course, or, in a course this user may not write to (a shared lab install), a cache
    /// of their own, one per course.
    pub fn cache_dir(&self) -> PathBuf {
        let own = self.root.join(".clings").join("cache");
        if std::fs::create_dir_all(&own).is_ok()
            && nix::unistd::access(&own, nix::unistd::AccessFlags::W_OK).is_ok()
        {
            return own;
        }
        let course = crate::util::digest::of(&[self.root.as_os_str().as_encoded_bytes()]);
        let user = nix::unistd::getuid();
        user_cache_dir()
            .map(|dir| dir.join(&course))
            .filter(|dir| std::fs::create_dir_all(dir).is_ok())
            .unwrap_or_else(|| {
                std::env::temp_dir()
                    .join(format!("clings-{user}"))
                    .join(course)
            })
    }
}

/// The user's own cache of clings, `$XDG_CACHE_HOME/clings` (else `~/.cache/clings`),
/// created if need be; `None` where there is none to write to. What is true of the machine
/// rather than of one course (which sanitizers the compiler supports, whether isolation
/// works) is kept here, so that a fresh clone of a course does not find it out again.
pub fn user_cache_dir() -> Option<PathBuf> {
    let dir = user_dir("XDG_CACHE_HOME", ".cache")?;
    (std::fs::create_dir_all(&dir).is_ok()
        && nix::unistd::access(&dir, nix::unistd::AccessFlags::W_OK).is_ok())
    .then_some(dir)
}

/// Where the user's own state of clings goes, `$XDG_STATE_HOME/clings` (else
/// `~/.local/state/clings`), not created: progress in courses the user may not write to.
pub fn user_state_dir() -> Option<PathBuf> {
    user_dir("XDG_STATE_HOME", ".local/state")
}

/// `$VARIABLE/clings`, else `~/IN_HOME/clings`, as the XDG base directories say.
fn user_dir(variable: &str, in_home: &str) -> Option<PathBuf> {
    let base = std::env::var_os(variable)
        .filter(|base| !base.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(in_home)))?;
    Some(base.join("clings"))
}

/// Where `key` is set in the table whose span in `text` is `span` (a `[[...]]` entry):
/// its line among the table's own keys, which come before its sub-tables; else the table's
/// start.
fn key_offset(text: &str, span: std::ops::Range<usize>, key: &str) -> usize {
    let start = span.start.min(text.len());
    let mut offset = start;
    for (index, line) in text[start..].split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if index > 0 && trimmed.starts_with('[') {
            break;
        }
        if trimmed
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
        {
            return offset + (line.len() - trimmed.len());
        }
        offset += line.len();
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Course> {
        Course::parse(Path::new("/c"), Path::new("/c/info.toml"), text)
    }

    const MINIMAL: &str = "format_version = 1\n[[exercises]]\nname = \"a\"\ntitle = \"A\"\npath = \"exercises/a.c\"\n";

    #[test]
    fn minimal_course_gets_defaults() {
        let course = parse(MINIMAL).unwrap();
        assert_eq!(course.exercises[0].name, "a");
        assert_eq!(course.defaults.time_limit_ms, 2000);
        assert_eq!(course.defaults.memory_mb, 256);
        assert_eq!(default_cpu_time_ms(2000), 1000);
        assert_eq!(default_cpu_time_ms(1000), 1000);
        assert_eq!(default_cpu_time_ms(5000), 3000);
        assert_eq!(course.defaults.compare, CompareMode::Lines);
    }

    #[test]
    fn limits_are_read_from_defaults() {
        let text = MINIMAL.replace(
            "[[exercises]]",
            "[defaults]\ncpu_time_ms = 500\nmemory_mb = 32\nprocesses = 4\n\
             file_size_bytes = 10\nopen_files = 16\n[[exercises]]",
        );
        let defaults = parse(&text).unwrap().defaults;
        assert_eq!(defaults.cpu_time_ms, Some(500));
        assert_eq!(
            (
                defaults.memory_mb,
                defaults.processes,
                defaults.file_size_bytes,
                defaults.open_files
            ),
            (32, 4, 10, 16)
        );
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let err = parse(&format!("{MINIMAL}colour = \"red\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("/c/info.toml"), "{err}");
        assert!(err.contains("line 6"), "{err}");
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn exercises_come_chapter_by_chapter() {
        let text = "format_version = 1\n\
            [[chapters]]\nname = \"core\"\ntitle = \"Core\"\n\
            [[chapters]]\nname = \"extra\"\ntitle = \"Extra\"\ngraded = false\n\
            [[exercises]]\nname = \"x\"\ntitle = \"X\"\npath = \"x.c\"\nchapter = \"extra\"\n\
            [[exercises]]\nname = \"a\"\ntitle = \"A\"\npath = \"a.c\"\n\
            [[exercises]]\nname = \"b\"\ntitle = \"B\"\npath = \"b.c\"\nchapter = \"core\"\n";
        let course = parse(text).unwrap();
        assert_eq!(course.names(), ["a", "b", "x"]);
        let chapter = |name| course.chapter_of(course.exercise(name).unwrap());
        assert_eq!(chapter("a").name, "core");
        assert_eq!(
            (chapter("x").name.as_str(), chapter("x").graded),
            ("extra", false)
        );
        assert!(chapter("b").graded);
        assert!(course.has_chapters());
        // A course without chapters has one, which no report names.
        let plain = parse(MINIMAL).unwrap();
        assert!(!plain.has_chapters());
        assert_eq!(plain.chapter_of(&plain.exercises[0]).name, "exercises");
    }

    #[test]
    fn an_unknown_chapter_is_named_with_its_line() {
        let text = format!("{MINIMAL}chapter = \"later\"\n");
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.contains("/c/info.toml:6"), "{err}");
        assert!(
            err.contains("key `chapter`") && err.contains("\"later\""),
            "{err}"
        );
        let twice = "format_version = 1\n\
            [[chapters]]\nname = \"a\"\ntitle = \"A\"\n\
            [[chapters]]\nname = \"a\"\ntitle = \"A\"\n\
            [[exercises]]\nname = \"a\"\ntitle = \"A\"\npath = \"a.c\"\n";
        let err = parse(twice).unwrap_err().to_string();
        assert!(
            err.contains("/c/info.toml:6") && err.contains("appears twice"),
            "{err}"
        );
    }

    #[test]
    fn duplicate_names_are_rejected_with_their_line() {
        let text =
            format!("{MINIMAL}[[exercises]]\nname = \"a\"\ntitle = \"A2\"\npath = \"b.c\"\n");
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.contains("/c/info.toml:7"), "{err}");
        assert!(err.contains("appears twice"), "{err}");
    }

    #[test]
    fn every_mistake_is_named_at_the_line_of_its_key() {
        // Lines 6, then 8 and 10 of the second exercise.
        let text = format!(
            "{MINIMAL}skeleton = \"/a.c\"\n\
             [[exercises]]\nname = \"b c\"\ntitle = \"B\"\npath = \"/b.c\"\n"
        );
        let err = parse(&text).unwrap_err().to_string();
        for place in [
            "/c/info.toml:6: key `skeleton`",
            "/c/info.toml:8: key `name`",
            "/c/info.toml:10: key `path`",
        ] {
            assert!(err.contains(place), "{place} in:\n{err}");
        }
    }

    #[test]
    fn skeleton_defaults_to_the_skeletons_folder() {
        let course = parse(MINIMAL).unwrap();
        assert_eq!(
            course.exercises[0].skeleton_path(),
            Path::new("skeletons/a.c")
        );
        let text = format!("{MINIMAL}skeleton = \"start/a.c\"\n");
        let course = parse(&text).unwrap();
        assert_eq!(course.exercises[0].skeleton_path(), Path::new("start/a.c"));
    }

    #[test]
    fn skeleton_must_be_relative_and_not_the_students_file() {
        let err = parse(&format!("{MINIMAL}skeleton = \"/a.c\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("key `skeleton`"), "{err}");
        assert!(err.contains("relative"), "{err}");
        let err = parse(&format!("{MINIMAL}skeleton = \"exercises/a.c\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("info.toml:6"), "{err}");
        assert!(err.contains("the file students edit"), "{err}");
    }

    #[test]
    fn wrong_format_version_is_reported() {
        let err = parse(&MINIMAL.replace("= 1", "= 7"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("format_version"), "{err}");
        assert!(err.contains("info.toml:1"), "{err}");
    }
}
