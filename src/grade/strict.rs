//! Which of the strict tier's runs can change a verdict. The strict tier runs only on a
//! program that every case so far allows to pass (see [`super::Grader::run_phase`]), and its
//! result counts only when it fails a case: a pass leaves the first build's result. So a
//! strict run that passed is remembered, as a mark beside the strict build in the build
//! cache, named by a digest of everything its verdict depends on (the case's input, files,
//! settings and expected output, the limits, the environment, the checker or referee, the
//! tier, this clings). The same build on the same case is not run again: unless the
//! program behaves differently from one run to the next, its verdict cannot change. Any
//! change to the source is another build, with no marks; a failure is never remembered (it
//! runs again, and its report is made from that run); a hidden case is never remembered,
//! so that nothing in the student's folder follows from a hidden case's content.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Result;

use crate::course::fixture::{Case, CaseConfig};
use crate::grade::checkers::Validator;
use crate::sandbox::{Limits, Tier};
use crate::util::digest;
use crate::verdict::compare::CompareMode;

/// The folder of a strict build's marks, in its cache entry: evicted with the build.
const MARKS: &str = "strict-passes";

/// Changes whenever what a mark means does.
const MARK_VERSION: &[u8] = b"strict pass 2";

/// The strict passes of one strict build.
pub struct Passes {
    dir: PathBuf,
}

/// What a strict run's verdict depends on besides the build and the case.
pub struct Setting<'a> {
    pub limits: &'a Limits,
    pub mode: CompareMode,
    pub env: &'a [(String, String)],
    pub validator: Option<&'a Validator>,
    pub tier: Tier,
}

impl Passes {
    /// The passes of the strict build `program` (a build cache entry's program, or a
    /// build of this run's own, whose marks go with it).
    pub fn of(program: &Path) -> Passes {
        Passes {
            dir: program.parent().unwrap_or(Path::new(".")).join(MARKS),
        }
    }

    /// The mark of `case` run under `setting`; `None` for a case never remembered (a
    /// hidden one) or whose files cannot be read (its run says why).
    pub fn mark(case: &Case, setting: &Setting) -> Option<String> {
        if case.hidden {
            return None;
        }
        mark_of(case, setting).ok()
    }

    /// Whether the build passed the case of `mark` before.
    pub fn passed(&self, mark: &str) -> bool {
        self.dir.join(mark).is_file()
    }

    /// Remembers that the build passed the case of `mark`. A cache clings may not write
    /// to (a shared course's) remembers nothing: the case runs again next time.
    pub fn record(&self, mark: &str) {
        let _ = std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::write(self.dir.join(mark), b""));
    }
}

fn mark_of(case: &Case, setting: &Setting) -> Result<String> {
    let input = match &case.input {
        Some(path) => std::fs::read(path)?,
        None => Vec::new(),
    };
    let given = fixture_files(&case.given)?;
    let expected_files = fixture_files(&case.expected_files)?;
    let expected = case.expected()?;
    let validator = setting.validator.map(|validator| {
        format!(
            "{:?} {} {:?}",
            validator.role,
            validator.program.display(),
            validator.env
        )
    });
    Ok(digest::of(&[
        MARK_VERSION,
        clings_identity().as_bytes(),
        format!("{:?}", setting.tier).as_bytes(),
        format!(
            "{:?} {}",
            case.input.is_some(),
            verdict_settings(&case.config)
        )
        .as_bytes(),
        &input,
        &given,
        &expected,
        &expected_files,
        format!("{:?} {:?} {:?}", setting.limits, setting.mode, setting.env).as_bytes(),
        validator.unwrap_or_default().as_bytes(),
    ]))
}

/// What of a case's own settings its verdict depends on: not its texts (description,
/// hints), which are long and only shown, nor its points. Every field is named, so that a
/// new one is sorted here before it compiles.
fn verdict_settings(config: &CaseConfig) -> String {
    let CaseConfig {
        description: _,
        args,
        exit_code,
        points: _,
        bonus: _,
        time_limit_ms,
        cpu_time_ms,
        memory_mb,
        processes,
        file_size_bytes,
        open_files,
        output_limit_bytes,
        compare,
        hint: _,
        hints: _,
    } = config;
    format!(
        "{args:?} {exit_code:?} {time_limit_ms:?} {cpu_time_ms:?} {memory_mb:?} {processes:?} \
         {file_size_bytes:?} {open_files:?} {output_limit_bytes:?} {compare:?}"
    )
}

/// Each file's name and content, one after another, length-prefixed.
fn fixture_files(files: &[(String, PathBuf)]) -> Result<Vec<u8>> {
    let mut parts = Vec::new();
    for (name, path) in files {
        let content = std::fs::read(path)?;
        for part in [name.as_bytes(), &content] {
            parts.extend((part.len() as u64).to_le_bytes());
            parts.extend_from_slice(part);
        }
    }
    Ok(parts)
}

/// This clings: its version and its executable's size and time, so that a rebuilt clings,
/// whose verdicts may differ, remembers nothing of the one before.
fn clings_identity() -> &'static str {
    use std::os::unix::fs::MetadataExt;
    static IDENTITY: OnceLock<String> = OnceLock::new();
    IDENTITY.get_or_init(|| {
        let executable = std::env::current_exe()
            .and_then(std::fs::metadata)
            .map(|meta| format!("{} {} {}", meta.size(), meta.mtime(), meta.mtime_nsec()))
            .unwrap_or_default();
        format!("{} {executable}", env!("CARGO_PKG_VERSION"))
    })
}
