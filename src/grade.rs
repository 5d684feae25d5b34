//! Grading one exercise: compile it, run every case (in parallel), judge each.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::compare::CompareMode;
use crate::compile::Toolchain;
use crate::course::{self, Course, Exercise};
use crate::fixture::{self, Case};
use crate::judge::{self, Finding};
use crate::parallel;
use crate::sandbox::{Limits, Memory, MemoryEnforcement, Sandbox, Session};

pub struct Grader<'a> {
    pub course: &'a Course,
    pub toolchain: Toolchain,
    pub sandbox: Sandbox,
    pub jobs: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Passed,
    Failed,
    CompileError,
    /// The student's file does not exist.
    Missing,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::CompileError => "compile_error",
            Status::Missing => "missing",
        }
    }
}

pub struct CaseResult {
    pub case: Case,
    pub finding: Finding,
    pub mode: CompareMode,
    pub elapsed: Duration,
    pub expected: Vec<u8>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl CaseResult {
    pub fn points(&self) -> u32 {
        if self.finding == Finding::Passed {
            self.case.points()
        } else {
            0
        }
    }
}

pub struct ExerciseResult {
    pub name: String,
    /// The file that was graded, as the student knows it.
    pub source: PathBuf,
    pub status: Status,
    /// What the compiler printed (with its colour codes); empty when it said nothing.
    pub diagnostics: String,
    pub cases: Vec<CaseResult>,
}

impl ExerciseResult {
    pub fn passed(&self) -> bool {
        self.status == Status::Passed
    }

    pub fn points(&self) -> u32 {
        self.cases.iter().map(CaseResult::points).sum()
    }

    pub fn max_points(&self) -> u32 {
        self.cases.iter().map(|result| result.case.points()).sum()
    }
}

impl Grader<'_> {
    /// Grades `exercise` using its file in the course.
    pub fn grade(&self, exercise: &Exercise) -> Result<ExerciseResult> {
        self.grade_source(exercise, &exercise.path)
    }

    /// Grades `source` (relative to the course root, or absolute) against `exercise`'s cases.
    pub fn grade_source(&self, exercise: &Exercise, source: &Path) -> Result<ExerciseResult> {
        // Ctrl-C now stops the runs and lets this grading unwind, cleaning up as it goes.
        let _session = Session::begin()?;
        let cases = fixture::discover(&self.course.fixtures_dir(exercise))?;
        let unrun = |status, finding: Finding, diagnostics: String| ExerciseResult {
            name: exercise.name.clone(),
            source: source.to_path_buf(),
            status,
            diagnostics,
            cases: cases
                .iter()
                .map(|case| CaseResult {
                    case: case.clone(),
                    finding: finding.clone(),
                    mode: self.mode(case),
                    elapsed: Duration::ZERO,
                    expected: Vec::new(),
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                })
                .collect(),
        };
        if !self.course.root.join(source).is_file() {
            return Ok(unrun(Status::Missing, Finding::Missing, String::new()));
        }
        let build = self
            .toolchain
            .compile(source, &self.course.root, &self.course.cache_dir())?;
        let Some(program) = build.program else {
            return Ok(unrun(
                Status::CompileError,
                Finding::NotRun,
                build.diagnostics,
            ));
        };
        let env = self.toolchain.runtime_env();
        let results = parallel::map(&cases, self.jobs, |case| {
            self.run_case(&program, case, &env)
        });
        let cases = results.into_iter().collect::<Result<Vec<_>>>()?;
        let status = if cases.iter().all(|result| result.finding == Finding::Passed) {
            Status::Passed
        } else {
            Status::Failed
        };
        Ok(ExerciseResult {
            name: exercise.name.clone(),
            source: source.to_path_buf(),
            status,
            diagnostics: build.diagnostics,
            cases,
        })
    }

    fn mode(&self, case: &Case) -> CompareMode {
        case.config.compare.unwrap_or(self.course.defaults.compare)
    }

    /// The case's limits, else the course's.
    fn limits(&self, case: &Case) -> Limits {
        let defaults = &self.course.defaults;
        let config = &case.config;
        let wall_ms = config.time_limit_ms.unwrap_or(defaults.time_limit_ms);
        let cpu_ms = config
            .cpu_time_ms
            .or(defaults.cpu_time_ms)
            .unwrap_or_else(|| course::default_cpu_time_ms(wall_ms));
        // AddressSanitizer cannot run under an address-space limit (see MemoryEnforcement).
        let address_sanitizer = self.toolchain.flags().iter().any(|flag| {
            flag.strip_prefix("-fsanitize=")
                .is_some_and(|names| names.split(',').any(|name| name == "address"))
        });
        Limits {
            wall_time: Duration::from_millis(wall_ms),
            cpu_time: Duration::from_millis(cpu_ms),
            memory: Memory {
                bytes: config.memory_mb.unwrap_or(defaults.memory_mb) * 1024 * 1024,
                enforcement: if address_sanitizer {
                    MemoryEnforcement::Sanitizer
                } else {
                    MemoryEnforcement::AddressSpace
                },
            },
            processes: config.processes.unwrap_or(defaults.processes),
            file_size_bytes: config.file_size_bytes.unwrap_or(defaults.file_size_bytes),
            open_files: config.open_files.unwrap_or(defaults.open_files),
            output_bytes: defaults.output_limit_bytes,
        }
    }

    fn run_case(
        &self,
        program: &Path,
        case: &Case,
        env: &[(String, String)],
    ) -> Result<CaseResult> {
        let limits = self.limits(case);
        let expected = case.expected()?;
        let outcome = self
            .sandbox
            .run(program, case.input.as_deref(), limits, env)?;
        let mode = self.mode(case);
        Ok(CaseResult {
            case: case.clone(),
            finding: judge::judge(&outcome, &expected, mode, limits),
            mode,
            elapsed: outcome.elapsed,
            expected,
            stdout: outcome.stdout,
            stderr: outcome.stderr,
        })
    }
}
