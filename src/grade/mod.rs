//! Grading one exercise: compile it, run every case (in parallel), judge each.

pub mod checkers;
pub mod document;
pub mod hidden;
pub mod looping;
pub mod mistakes;
pub mod passing;
pub mod results;
mod strict;

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::compile::cache::{Build, BuildCache, Executable};
use crate::compile::toolchain::{self, Toolchain};
use crate::course::fixture::{self, Case, CaseConfig};
use crate::course::{self, Course, Defaults, Exercise};
use crate::grade::checkers::Validator;
use crate::grade::looping::{LoopRule, LoopWatch};
use crate::grade::results::{CaseResult, ExerciseResult};
use crate::grade::strict::{Passes, Setting};
use crate::sandbox::{Found, Grading, Job, Left, Limits, Memory, RunFiles, Sandbox, Unisolated};
use crate::util::i18n::Lang;
use crate::util::parallel;
use crate::util::style;
use crate::util::timings::{self, Phase};
use crate::verdict::compare::CompareMode;
use crate::verdict::{self, Expected, Finding, JudgedBy, Status};

pub struct Grader<'a> {
    pub course: &'a Course,
    pub toolchain: Toolchain,
    pub sandbox: Sandbox,
    pub jobs: usize,
    /// Cases kept outside the course (`--fixtures`): same layout as `fixtures/`, and
    /// reported without their input, expected output or diff.
    pub hidden_fixtures: Option<PathBuf>,
    /// Where builds are kept (see [`Course::cache_dir`] and [`BuildCache`]).
    cache: BuildCache,
    /// How many cases still run once the program has shown it loops.
    pub loop_rule: LoopRule,
    /// The build of the strict tier (the course's `strict_sanitizers`), when it has one.
    pub strict: Option<Toolchain>,
    /// How many cases, spread over the exercise's, the strict tier runs: a few for a
    /// student waiting for the result, all (`None`) for points.
    pub strict_sample: Option<usize>,
    /// Per case (by name), the most real time a run of it may take, below the case's own
    /// limit: `dev mutants` holds each mutant to a multiple of the reference's time there.
    pub time_caps: HashMap<String, Duration>,
    pub warnings: Vec<String>,
}

/// How graders are made: the same for every command and for watch mode's grading thread.
#[derive(Clone, Copy, Debug)]
pub struct GraderOptions {
    /// Cases run at once.
    pub jobs: usize,
    /// `--require-isolation`: fail rather than run student programs without isolation.
    pub require_isolation: bool,
    /// `--allow-unisolated`: grade other people's code even without isolation.
    pub allow_unisolated: bool,
    pub lang: Lang,
}

/// The cases the strict tier runs for a student: its mistakes (a string with no room for
/// its '\0', a write past an array) show on nearly every case, and each run costs several
/// times a fast one.
const STRICT_SAMPLE: usize = 8;

/// `count` of the indices `0..total`, spread evenly from the first; all when `count` is
/// `None` or not smaller.
fn sample(total: usize, count: Option<usize>) -> Vec<usize> {
    match count {
        Some(count) if count < total => (0..count).map(|step| step * total / count).collect(),
        _ => (0..total).collect(),
    }
}

/// Where what the compiler's and the sandbox's probes find is kept: it is true of the
/// machine, so the user's cache, for every course; else beside the builds.
fn probe_dir(cache: &BuildCache) -> PathBuf {
    course::user_cache_dir().unwrap_or_else(|| cache.dir().to_path_buf())
}

/// Where each failing case's output first went wrong, with the input line it answered
/// there when the exercise names its prompt. Not where a checker or referee judges: the
/// `.out` is then no transcript to part from.
fn find_divergences(exercise: &Exercise, cases: &mut [CaseResult]) {
    if validator_source(exercise).is_some() {
        return;
    }
    for case in cases.iter_mut().filter(|case| case.failed()) {
        case.diverged = case
            .mode
            .divergence(&case.expected, &case.stdout, exercise.prompt.as_deref())
            .map(|found| found.with_input(&case.input));
    }
}

/// The exercise's hints about kinds of failure, after each case's own rules.
fn with_failure_hints(cases: &mut [Case], exercise: &Exercise) {
    for case in cases {
        case.config
            .hints
            .extend(exercise.failure_hints.iter().cloned());
    }
}

/// `plain` with the course's sanitizers, and the strict tier's toolchain when the course
/// has one: which sanitizers the compiler supports is asked of both side by side (two
/// probe builds, the first time, kept in `probe_dir`).
fn sanitized(
    plain: &Toolchain,
    defaults: &Defaults,
    probe_dir: &Path,
) -> Result<(Toolchain, Option<Toolchain>)> {
    std::thread::scope(|scope| {
        let strict = scope.spawn(|| match defaults.strict_sanitizers.is_empty() {
            true => Ok(None),
            false => plain
                .with_sanitizers(&defaults.strict_sanitizers, probe_dir)
                .map(Some),
        });
        let toolchain = plain.with_sanitizers(&defaults.sanitizers, probe_dir)?;
        let strict = strict
            .join()
            .map_err(|_| anyhow::anyhow!("the compiler probe panicked"))??;
        Ok((toolchain, strict))
    })
}

/// An exercise's grading between its phases (see [`Grader::grade_sources`]).
struct ExerciseGrading<'e> {
    /// The result so far: the exercise, its file and what the compiler said; whole when
    /// there is nothing to run (the file is missing or does not compile).
    result: ExerciseResult,
    running: Option<Running<'e>>,
}

/// A built exercise whose cases are being run, phase by phase.
struct Running<'e> {
    exercise: &'e Exercise,
    base: PathBuf,
    validator: Option<Validator>,
    program: Executable,
    /// What the program's runs get in their environment besides the toolchain's: which
    /// mutant a mutant schema runs as (see [`crate::mutants::schema`]).
    program_env: Vec<(String, String)>,
    /// The loop rule's count, over all the exercise's cases, as one run of them had.
    looping: LoopWatch,
    cases: Vec<Case>,
    /// Each case's result once its phase ran, in the cases' order.
    results: Vec<Option<CaseResult>>,
}

/// What judges `exercise` instead of a comparison, and its source: the checker, else the
/// referee.
fn validator_source(exercise: &Exercise) -> Option<(JudgedBy, &Path)> {
    match (&exercise.checker, &exercise.referee) {
        (Some(source), _) => Some((JudgedBy::Checker, source)),
        (None, Some(source)) => Some((JudgedBy::Referee, source)),
        (None, None) => None,
    }
}

/// What a student is told when runs are limited but not isolated: what still holds and
/// what does not.
fn unisolated_warning(unisolated: &Unisolated, lang: Lang) -> String {
    let Unisolated { reason, advice } = unisolated;
    lang.pick(
        format!(
            "programs and the compiler run without isolation ({reason}): time, memory, \
             process and output limits hold and every process they start is stopped, but \
             they can read and change whatever your user can (the course, its solutions \
             and fixtures, your files), use the network and leave files in /tmp. To \
             isolate them: {advice}"
        ),
        format!(
            "程序和编译器在没有隔离的情况下运行（{reason}）：时间、内存、进程和输出限制\
             仍然有效，它们启动的每个进程都会被终止，但它们可以读取和修改你的用户能访问的一切\
             （课程、参考答案和测试用例、你的文件），可以使用网络，也可以在 /tmp 留下文件；\
             隔离的办法：{advice}"
        ),
    )
}

/// Where a submission keeps an exercise's file: at the course's path (a student
/// repository with the course layout) or at its bare file name (a copy of `exercises/`).
/// When neither exists, the course's path, so the result says `missing`. (Something that
/// is there but not a file is the compile's to refuse, with a message that says so.)
pub fn locate(exercise: &Exercise, submission: &Path) -> PathBuf {
    let bare = exercise.path.file_name().map(PathBuf::from);
    match bare {
        Some(bare)
            if !submission.join(&exercise.path).exists() && submission.join(&bare).exists() =>
        {
            bare
        }
        _ => exercise.path.clone(),
    }
}

/// Why the submission `folder` (relative to `base`, or absolute) is not graded, if it is
/// not: a folder on its way from `base` is a symbolic link, or the file of one of
/// `exercises` in it is one or is reached through one. It could lead anywhere, to the
/// course's solutions too: only a student's own folder and files count. `grade` asks it
/// of each student's folder, `test --submission` of the folder it is given.
pub fn refusal<'e>(
    base: &Path,
    folder: &Path,
    exercises: impl IntoIterator<Item = &'e Exercise>,
) -> Result<Option<String>> {
    let why = |path: &Path, target: &Path| {
        format!(
            "{} leads to {} through a symbolic link: only a student's own folder and files \
             count",
            style::one_line(&path.display().to_string()),
            style::one_line(&target.display().to_string())
        )
    };
    // Each folder on the way as named, `..` too: once the folders before it are no
    // links, `..` leads where its name says.
    let (mut on_the_way, mut shown) = (base.to_path_buf(), PathBuf::new());
    for part in folder.components() {
        on_the_way.push(part);
        shown.push(part);
        let Component::Normal(_) = part else { continue };
        if std::fs::symlink_metadata(&on_the_way).is_ok_and(|meta| meta.is_symlink()) {
            let target = std::fs::read_link(&on_the_way)
                .with_context(|| format!("cannot read {}", on_the_way.display()))?;
            return Ok(Some(why(&shown, &target)));
        }
    }
    let dir = base.join(folder);
    for exercise in exercises {
        let source = locate(exercise, &dir);
        if let Some(target) = toolchain::link_target(&dir, &source)? {
            return Ok(Some(why(&source, &target)));
        }
    }
    Ok(None)
}

/// Starts the sandboxes of a grading's `jobs` workers while the command reads its course
/// (see [`crate::sandbox::start_sandboxes_early`]); the grader made after finds them.
pub fn start_sandboxes_early(jobs: usize) {
    if let Some(probe_dir) = course::user_cache_dir() {
        crate::sandbox::start_sandboxes_early(&probe_dir, jobs);
    }
}

impl<'a> Grader<'a> {
    /// A grader for `course` with its toolchain and sandbox found; what the student should
    /// know about them (a sanitizer the compiler lacks, no isolation) is left in
    /// `warnings` for the caller to show.
    pub fn new(course: &'a Course, options: GraderOptions) -> Result<Grader<'a>> {
        // Ctrl-C while the compiler is probed lets the probe clean up after itself.
        let _grading = Grading::begin()?;
        // Looked for once: in a read-only course it is the user's own cache.
        let cache = BuildCache::from_env(|| course.cache_dir())?;
        let probe_dir = probe_dir(&cache);
        // Whether isolation works (a sandbox's start, the first time) is found out beside
        // the compiler's name and sanitizers. The workers' sandboxes start as soon as it
        // is known, to be ready once the programs are built: they need nothing of the
        // compiler, and the course's scratch size is every case's without limits of its own.
        let (toolchains, sandbox) = std::thread::scope(|scope| {
            let sandbox = scope.spawn(|| {
                let detected = Sandbox::detect(options.require_isolation, &probe_dir);
                if let Ok((sandbox, _)) = &detected {
                    sandbox.prepare(options.jobs, course.defaults.file_size_bytes);
                }
                detected
            });
            let toolchains = Toolchain::detect(&course.defaults, options.lang)
                .and_then(|plain| sanitized(&plain, &course.defaults, &probe_dir));
            let sandbox = sandbox
                .join()
                .map_err(|_| anyhow::anyhow!("the isolation probe panicked"));
            (toolchains, sandbox)
        });
        let (toolchain, strict) = toolchains?;
        let (sandbox, sandbox_warning) = sandbox??;
        let warnings = toolchain
            .warnings
            .iter()
            .chain(strict.iter().flat_map(|strict| &strict.warnings))
            .cloned()
            .chain(match sandbox_warning {
                Found::Isolated(weaker) => weaker.map(|weaker| weaker.note),
                Found::Unisolated(unisolated) => {
                    Some(unisolated_warning(&unisolated, options.lang))
                }
            })
            .collect();
        // A compiler with none of the strict sanitizers has no strict tier.
        let strict = strict.filter(Toolchain::uses_sanitizers);
        Ok(Grader {
            course,
            toolchain,
            sandbox,
            jobs: options.jobs,
            hidden_fixtures: None,
            cache,
            loop_rule: LoopRule::Student,
            strict,
            strict_sample: Some(STRICT_SAMPLE),
            time_caps: HashMap::new(),
            warnings,
        })
    }

    /// Builds what grading `exercises` will compile, `jobs` at a time, in the order the
    /// grading needs it: each exercise's checker or referee, its file, then its file for
    /// the strict tier. Run beside the grading (as `clings test` does), a first run costs
    /// little more than its compiles on all cores: an exercise is graded while the next
    /// ones are still compiling, and a build the grading reaches first is made once (see
    /// [`Toolchain::compile`]). A strict build is made before its exercise is known to
    /// pass: at worst one compile too many for a file that changed. Compile errors show
    /// when the exercise is graded. No build starts once `done` is set: the grading has
    /// ended (with an error, say) and what is left would only keep it waiting.
    pub fn prebuild(&self, exercises: &[&Exercise], done: &AtomicBool) {
        let builds: Vec<(Cow<Toolchain>, &Path)> = exercises
            .iter()
            .flat_map(|exercise| {
                let own = std::iter::once(self.toolchain_for(exercise))
                    .chain(self.strict_for(exercise))
                    .map(|toolchain| (toolchain, exercise.path.as_path()));
                validator_source(exercise)
                    .map(|(_, source)| (self.toolchain_for(exercise), source))
                    .into_iter()
                    .chain(own)
            })
            .collect();
        parallel::map(&builds, self.jobs, |(toolchain, source)| {
            if !done.load(Ordering::Relaxed) {
                let _ = toolchain.compile(source, &self.course.root, &self.cache, &self.sandbox);
            }
        });
    }

    /// Grades `exercise` using its file in the course.
    pub fn grade(&self, exercise: &Exercise) -> Result<ExerciseResult> {
        self.grade_source(exercise, &self.course.root, &exercise.path)
    }

    /// The exercise's cases: the course's own, then the hidden ones.
    pub fn cases(&self, exercise: &Exercise) -> Result<Vec<Case>> {
        let mut cases = fixture::discover(&self.course.fixtures_dir(exercise))?;
        with_failure_hints(&mut cases, exercise);
        let Some(hidden_root) = &self.hidden_fixtures else {
            return Ok(cases);
        };
        let hidden_dir = hidden_root.join(&exercise.name);
        if !hidden_dir.is_dir() {
            return Ok(cases);
        }
        for mut case in fixture::discover(&hidden_dir)? {
            if cases.iter().any(|known| known.name == case.name) {
                bail!(
                    "hidden case {} has the name of a case in {}: rename one of them",
                    case.expected_path.display(),
                    self.course.fixtures_dir(exercise).display()
                );
            }
            case.hidden = true;
            with_failure_hints(std::slice::from_mut(&mut case), exercise);
            cases.push(case);
        }
        Ok(cases)
    }

    /// Grades `source`, a path relative to `base` (where it is compiled, so diagnostics
    /// and sanitizer reports name it as the student knows it), against the exercise's cases.
    pub fn grade_source(
        &self,
        exercise: &Exercise,
        base: &Path,
        source: &Path,
    ) -> Result<ExerciseResult> {
        let mut graded = self.grade_sources(&[(exercise, base, source.to_path_buf())])?;
        Ok(graded.remove(0))
    }

    /// Grades `source` as [`Grader::grade_source`] does, in rounds of up to `jobs` cases
    /// that `next` chooses, until it chooses none: it is given each case's result so far
    /// (the cases not run in their places, as [`Finding::Skipped`], output divergences
    /// found) and which have run, and returns the cases still to run, most wanted first.
    /// The cases never run are left skipped; the strict tier runs only once every case
    /// has run and allows passing, as in a whole grading. For programs that are no
    /// student's (`dev check`'s, `dev mutants`'): hidden cases are run as the public ones,
    /// and the program's runs get `program_env` in their environment.
    pub fn grade_source_until(
        &self,
        exercise: &Exercise,
        (base, source): (&Path, &Path),
        program_env: &[(String, String)],
        mut next: impl FnMut(&[CaseResult], &[bool]) -> Vec<usize>,
    ) -> Result<ExerciseResult> {
        let _grading = Grading::begin()?;
        let mut grading = self.begin_grading(exercise, base, source, program_env)?;
        let Some(running) = &mut grading.running else {
            return Ok(self.finish_grading(grading));
        };
        loop {
            let ran: Vec<bool> = running.results.iter().map(Option::is_some).collect();
            let mut so_far: Vec<CaseResult> = running
                .results
                .iter()
                .zip(&running.cases)
                .map(|(result, case)| match result {
                    Some(result) => result.clone(),
                    None => self.unrun_case(case, Finding::Skipped),
                })
                .collect();
            find_divergences(exercise, &mut so_far);
            let chosen: Vec<usize> = next(&so_far, &ran)
                .into_iter()
                .filter(|&index| !ran[index])
                .take(self.jobs.max(1))
                .collect();
            if chosen.is_empty() {
                break;
            }
            let cases: Vec<Case> = chosen
                .iter()
                .map(|&index| running.cases[index].clone())
                .collect();
            let results = self.run_cases(
                &cases,
                (&running.program, &running.program_env),
                &self.toolchain,
                running.validator.as_ref(),
                &running.looping,
            )?;
            for (&index, result) in chosen.iter().zip(results) {
                running.results[index] = Some(result);
            }
        }
        if running.results.iter().all(Option::is_some) {
            let all: Vec<usize> = (0..running.cases.len()).collect();
            self.strict_phase(&mut grading, &all)?;
        } else {
            for (result, case) in running.results.iter_mut().zip(&running.cases) {
                if result.is_none() {
                    *result = Some(self.unrun_case(case, Finding::Skipped));
                }
            }
        }
        Ok(self.finish_grading(grading))
    }

    /// Grades one submission: each exercise's source, relative to its base. Every
    /// exercise's own cases run (both builds) before any hidden case of any of them: what
    /// a hidden case's run does to what runs share on a machine (its load, the pid counter
    /// where there is no pid namespace) then happens after every run whose output the
    /// student sees, and cannot show in it. Each exercise is graded on its own cases as
    /// soon as it is built, while the next ones compile.
    pub fn grade_sources(
        &self,
        sources: &[(&Exercise, &Path, PathBuf)],
    ) -> Result<Vec<ExerciseResult>> {
        // Ctrl-C now stops the runs and lets this grading unwind, cleaning up as it goes.
        let _grading = Grading::begin()?;
        let mut gradings = Vec::with_capacity(sources.len());
        for (exercise, base, source) in sources {
            let mut grading = self.begin_grading(exercise, base, source, &[])?;
            self.run_phase(&mut grading, false)?;
            gradings.push(grading);
        }
        for grading in &mut gradings {
            self.run_phase(grading, true)?;
        }
        Ok(gradings
            .into_iter()
            .map(|grading| self.finish_grading(grading))
            .collect())
    }

    /// An exercise's grading up to its first run: its cases found, its source built.
    fn begin_grading<'e>(
        &self,
        exercise: &'e Exercise,
        base: &Path,
        source: &Path,
        program_env: &[(String, String)],
    ) -> Result<ExerciseGrading<'e>> {
        let cases = self.cases(exercise)?;
        let chapter = self.course.chapter_of(exercise).clone();
        let mut result = ExerciseResult {
            name: exercise.name.clone(),
            title: exercise.title.clone(),
            chapter,
            source: source.to_path_buf(),
            status: Status::Failed,
            unchanged: false,
            diagnostics: String::new(),
            cases: Vec::new(),
            hidden_total: None,
        };
        let unrun = |mut result: ExerciseResult, status, finding: Finding| {
            result.status = status;
            result.cases = cases
                .iter()
                .map(|case| self.unrun_case(case, finding.clone()))
                .collect();
            Ok(ExerciseGrading {
                result,
                running: None,
            })
        };
        // A directory or a FIFO is there: the compile refuses it, saying what it is.
        if !base.join(source).exists() {
            return unrun(result, Status::Missing, Finding::Missing);
        }
        // The class report tells a student who handed in the skeletons from one who tried.
        let skeleton = self.course.skeleton(exercise).ok();
        // Read as the compile reads it: a FIFO or a huge file handed in must not hold this up.
        result.unchanged =
            skeleton.is_some() && crate::compile::toolchain::source_bytes(base, source) == skeleton;
        let build = self.compile_in(exercise, base, source)?;
        result.diagnostics = build.diagnostics;
        let Some(program) = build.program else {
            return unrun(result, Status::CompileError, Finding::NotRun);
        };
        let running = Running {
            exercise,
            base: base.to_path_buf(),
            validator: self.validator(exercise)?,
            program,
            program_env: program_env.to_vec(),
            looping: LoopWatch::new(self.loop_rule),
            results: vec![None; cases.len()],
            cases,
        };
        Ok(ExerciseGrading {
            result,
            running: Some(running),
        })
    }

    /// Runs the grading's hidden cases, or its own: each case on the program, then the
    /// strict tier on them where every case so far allows passing. Whether the strict tier
    /// runs on the exercise's own cases depends on those alone: on a hidden case's failure,
    /// a case the student sees would show another result.
    fn run_phase(&self, grading: &mut ExerciseGrading, hidden: bool) -> Result<()> {
        let Some(running) = &mut grading.running else {
            return Ok(());
        };
        let chosen: Vec<usize> = (0..running.cases.len())
            .filter(|&index| running.cases[index].hidden == hidden)
            .collect();
        if chosen.is_empty() {
            return Ok(());
        }
        let cases: Vec<Case> = chosen
            .iter()
            .map(|&index| running.cases[index].clone())
            .collect();
        let results = self.run_cases(
            &cases,
            (&running.program, &running.program_env),
            &self.toolchain,
            running.validator.as_ref(),
            &running.looping,
        )?;
        for (&index, result) in chosen.iter().zip(results) {
            running.results[index] = Some(result);
        }
        self.strict_phase(grading, &chosen)
    }

    /// The strict tier on the cases `chosen` (its sample's part of them), where every
    /// case that ran allows passing.
    fn strict_phase(&self, grading: &mut ExerciseGrading, chosen: &[usize]) -> Result<()> {
        let Some(running) = &mut grading.running else {
            return Ok(());
        };
        let Some(strict) = self.strict_for(running.exercise) else {
            return Ok(());
        };
        let passing = running
            .results
            .iter()
            .flatten()
            .all(CaseResult::allows_passing);
        if !passing {
            return Ok(());
        }
        // The strict tier's sample spreads over all the exercise's cases; each phase runs
        // its part of it.
        let sampled: Vec<usize> = self
            .strict_cases(running.cases.len())
            .into_iter()
            .filter(|index| chosen.contains(index))
            .collect();
        self.run_strict(&strict, &grading.result.source, running, &sampled)
    }

    /// The exercise's result once all its cases ran: the verdict, and the mistakes
    /// diagnosed.
    fn finish_grading(&self, grading: ExerciseGrading) -> ExerciseResult {
        let ExerciseGrading {
            mut result,
            running,
        } = grading;
        let Some(Running {
            exercise, results, ..
        }) = running
        else {
            return result;
        };
        let mut cases: Vec<CaseResult> = results
            .into_iter()
            .map(|case| case.expect("every phase ran"))
            .collect();
        result.status = if cases.iter().all(CaseResult::allows_passing) {
            Status::Passed
        } else {
            find_divergences(exercise, &mut cases);
            mistakes::diagnose(&exercise.mistakes, &mut cases);
            Status::Failed
        };
        result.cases = cases;
        result
    }

    /// A case that was not run, for the reason `finding` gives.
    fn unrun_case(&self, case: &Case, finding: Finding) -> CaseResult {
        CaseResult::unrun(case.clone(), finding, self.mode(case))
    }

    fn mode(&self, case: &Case) -> CompareMode {
        case.config.compare.unwrap_or(self.course.defaults.compare)
    }

    /// The limits a case runs under: its own where it sets them, else the course's.
    pub fn limits(&self, case: Option<&Case>) -> Limits {
        self.limits_for(case, &self.toolchain)
    }

    /// The course's limits for a run that is no case (a made-up input), its real time held
    /// to `cap` as [`Grader::time_caps`] holds a case's.
    pub fn limits_capped(&self, cap: Duration) -> Limits {
        self.limits_within(None, &self.toolchain, Some(cap))
    }

    /// The limits of a case run on a program built by `toolchain`.
    fn limits_for(&self, case: Option<&Case>, toolchain: &Toolchain) -> Limits {
        let cap = case
            .and_then(|case| self.time_caps.get(&case.name))
            .copied();
        self.limits_within(case, toolchain, cap)
    }

    /// The limits of `case` (the course's without one) on a program built by `toolchain`,
    /// its real time held to `cap`.
    fn limits_within(
        &self,
        case: Option<&Case>,
        toolchain: &Toolchain,
        cap: Option<Duration>,
    ) -> Limits {
        let defaults = &self.course.defaults;
        let course_only = CaseConfig::default();
        let config = case.map_or(&course_only, |case| &case.config);
        let limit_ms = config.time_limit_ms.unwrap_or(defaults.time_limit_ms);
        let cap_ms = cap.map(|cap| cap.as_millis() as u64);
        let wall_ms = cap_ms.map_or(limit_ms, |cap| cap.min(limit_ms));
        let cpu_ms = config
            .cpu_time_ms
            .or(defaults.cpu_time_ms)
            .unwrap_or_else(|| course::default_cpu_time_ms(wall_ms));
        // A capped run's CPU time is capped with it.
        let cpu_ms = cap_ms.map_or(cpu_ms, |_| cpu_ms.min(wall_ms));
        Limits {
            wall_time: Duration::from_millis(wall_ms),
            cpu_time: Duration::from_millis(cpu_ms),
            memory: Memory {
                bytes: config.memory_mb.unwrap_or(defaults.memory_mb) * 1024 * 1024,
                enforcement: toolchain.memory_enforcement(),
            },
            processes: config.processes.unwrap_or(defaults.processes),
            file_size_bytes: config.file_size_bytes.unwrap_or(defaults.file_size_bytes),
            open_files: config.open_files.unwrap_or(defaults.open_files),
            output_bytes: config
                .output_limit_bytes
                .unwrap_or(defaults.output_limit_bytes),
        }
    }

    /// What builds `exercise`'s programs: the course's toolchain with the exercise's flags
    /// and without the checks it leaves out.
    pub fn toolchain_for(&self, exercise: &Exercise) -> Cow<'_, Toolchain> {
        self.toolchain
            .for_exercise(&exercise.flags, &exercise.without_sanitizers)
    }

    /// The strict tier's toolchain for `exercise`, when the course has a strict tier.
    fn strict_for(&self, exercise: &Exercise) -> Option<Cow<'_, Toolchain>> {
        let strict = self.strict.as_ref()?;
        Some(strict.for_exercise(&exercise.flags, &exercise.without_sanitizers))
    }

    /// Compiles `source`, relative to `dir`, a program of `exercise`: the program, or what
    /// the compiler said.
    pub fn compile_in(&self, exercise: &Exercise, dir: &Path, source: &Path) -> Result<Build> {
        self.toolchain_for(exercise)
            .compile(source, dir, &self.cache, &self.sandbox)
    }

    /// This grader building with its strict tier's toolchain alone, on every case it is
    /// given (see [`Grader::strict_cases`] for the tier's own sample); none without a strict
    /// tier.
    pub fn into_strict_tier(mut self) -> Option<Grader<'a>> {
        self.toolchain = self.strict.take()?;
        Some(self)
    }

    /// Links the programs this grader builds whole where the compiler can (see
    /// [`Toolchain::linked_whole`]): for programs built once and run many times.
    pub fn link_whole(&mut self) {
        if let Some(whole) = self.toolchain.linked_whole(&probe_dir(&self.cache)) {
            self.toolchain = whole;
        }
    }

    /// The cases of an exercise of `total` cases that the strict tier runs (indices, in
    /// order): its sample.
    pub fn strict_cases(&self, total: usize) -> Vec<usize> {
        sample(total, self.strict_sample)
    }

    /// Compiles `source` (relative to the course root), a program of `exercise`, or fails
    /// with the compiler's errors.
    pub fn build(&self, exercise: &Exercise, source: &Path) -> Result<Executable> {
        self.build_in(exercise, &self.course.root, source)
    }

    /// Compiles `source`, relative to `dir`, a program of `exercise`, or fails with the
    /// compiler's errors.
    pub fn build_in(&self, exercise: &Exercise, dir: &Path, source: &Path) -> Result<Executable> {
        let build = self.compile_in(exercise, dir, source)?;
        build.program.ok_or_else(|| {
            anyhow::anyhow!(
                "{} does not compile:\n{}",
                source.display(),
                crate::util::style::strip_ansi(&build.diagnostics)
            )
        })
    }

    /// What `program` prints and leaves for a case, as its expected output and files;
    /// fails unless the program ends as the case expects, within the course's limits,
    /// and leaves every file named in `case.expected_files`.
    pub fn reference_run(&self, program: &Path, case: &Case) -> Result<ReferenceRun> {
        let limits = self.limits(None);
        let env = self.toolchain.runtime_env();
        let collect = case.file_names();
        let outcome = self
            .sandbox
            .run(&case_job(program, case, &env, &collect), limits)?;
        let mut files = Vec::new();
        for (name, left) in &outcome.files {
            let Left::File(content) = left else {
                bail!("the reference solution did not leave {name} as a file ({left:?})");
            };
            files.push((name.clone(), content.clone()));
        }
        let expected = Expected {
            stdout: &outcome.stdout,
            exit_code: case.exit_code(),
            files: &files,
            checked: None,
        };
        match verdict::judge(&outcome, &expected, CompareMode::Exact, limits) {
            Finding::Passed => Ok(ReferenceRun {
                stdout: outcome.stdout,
                files,
            }),
            finding => bail!(
                "the reference solution gave no usable output: {}",
                finding.message(crate::util::i18n::Lang::En)
            ),
        }
    }

    /// The exercise's checker or referee, built, if the course gives it one.
    pub fn validator(&self, exercise: &Exercise) -> Result<Option<Validator>> {
        let Some((role, source)) = validator_source(exercise) else {
            return Ok(None);
        };
        let program = self
            .build(exercise, source)
            .with_context(|| format!("the validator of {}", exercise.name))?;
        Ok(Some(Validator {
            role,
            source: source.to_path_buf(),
            program,
            // Built by the course's toolchain, whichever built the student's program.
            env: self.toolchain.runtime_env(),
        }))
    }

    /// Runs every case on `program`, built by `toolchain`, with `program_env` besides the
    /// toolchain's environment, in parallel (judged by the
    /// exercise's `validator` when it has one); stops starting cases once the program has
    /// shown that it loops (see [`crate::grade::looping`]).
    fn run_cases(
        &self,
        cases: &[Case],
        (program, program_env): (&Path, &[(String, String)]),
        toolchain: &Toolchain,
        validator: Option<&Validator>,
        looping: &LoopWatch,
    ) -> Result<Vec<CaseResult>> {
        let env = program_env_of(toolchain, program_env);
        let results = parallel::map(cases, self.jobs, |case| match looping.skip() {
            Some(skipped) => Ok(self.unrun_case(case, skipped)),
            None => {
                let result = self.run_case(program, case, toolchain, &env, validator)?;
                // A bonus missed fails nothing, so it stops no mutant's grading.
                looping.record(&result.finding, result.elapsed, !result.allows_passing());
                Ok(result)
            }
        });
        results.into_iter().collect()
    }

    /// The strict tier: the exercise's source built with the course's `strict_sanitizers`
    /// and run on the cases `chosen`; a case it fails replaces the first build's pass.
    fn run_strict(
        &self,
        strict: &Toolchain,
        source: &Path,
        running: &mut Running,
        chosen: &[usize],
    ) -> Result<()> {
        if chosen.is_empty() {
            return Ok(());
        }
        let build = strict.compile(source, &running.base, &self.cache, &self.sandbox)?;
        let Some(program) = build.program else {
            bail!(
                "{} compiles, but not with -fsanitize={}:\n{}",
                source.display(),
                self.course.defaults.strict_sanitizers.join(","),
                crate::util::style::strip_ansi(&build.diagnostics)
            );
        };
        let validator = running.validator.as_ref();
        // A pass is remembered with the environment it ran in: a schema's mark is one
        // mutant's.
        let env = program_env_of(strict, &running.program_env);
        let passes = Passes::of(&program);
        // The cases this build has not passed yet: only their runs can change the verdict.
        let (marks, unknown): (Vec<Option<String>>, Vec<usize>) = chosen
            .iter()
            .filter_map(|&index| {
                let case = &running.cases[index];
                let limits = self.limits_for(Some(case), strict);
                let setting = Setting {
                    limits: &limits,
                    mode: self.mode(case),
                    env: &env,
                    validator,
                    tier: self.sandbox.tier(),
                };
                let mark = Passes::mark(case, &setting);
                match &mark {
                    Some(mark) if passes.passed(mark) => None,
                    _ => Some((mark, index)),
                }
            })
            .unzip();
        let sampled: Vec<Case> = unknown
            .iter()
            .map(|&index| running.cases[index].clone())
            .collect();
        let looping = LoopWatch::new(self.loop_rule);
        let strict_results = self.run_cases(
            &sampled,
            (&program, &running.program_env),
            strict,
            validator,
            &looping,
        )?;
        for ((&index, mark), strict_result) in unknown.iter().zip(marks).zip(strict_results) {
            match (strict_result.finding == Finding::Passed, mark) {
                (true, Some(mark)) => passes.record(&mark),
                (true, None) => {}
                (false, _) => running.results[index] = Some(strict_result),
            }
        }
        Ok(())
    }

    fn run_case(
        &self,
        program: &Path,
        case: &Case,
        toolchain: &Toolchain,
        env: &[(String, String)],
        validator: Option<&Validator>,
    ) -> Result<CaseResult> {
        let limits = self.limits_for(Some(case), toolchain);
        let expected = case.expected()?;
        let expected_files = case.expected_files()?;
        let collect = case.file_names();
        let job = case_job(program, case, env, &collect);
        let (outcome, checked, conversation) = {
            let _timing = timings::measure(Phase::Run);
            match validator {
                Some(referee) if referee.role == JudgedBy::Referee => {
                    let played = referee.play(&self.sandbox, limits, case, job)?;
                    (played.outcome, Some(played.checked), played.conversation)
                }
                _ => (self.sandbox.run(&job, limits)?, None, Vec::new()),
            }
        };
        let checked = match validator {
            Some(checker)
                if checker.role == JudgedBy::Checker
                    && verdict::reaches_output(&outcome, case.exit_code()) =>
            {
                let limits = self.limits(Some(case));
                Some(checker.check(&self.sandbox, limits, case, &outcome.stdout)?)
            }
            _ => checked,
        };
        let mode = self.mode(case);
        let finding = {
            let _timing = timings::measure(Phase::Judge);
            let expected = Expected {
                stdout: &expected,
                exit_code: case.exit_code(),
                files: &expected_files,
                checked: checked.as_ref(),
            };
            verdict::judge(&outcome, &expected, mode, limits)
        };
        Ok(CaseResult {
            case: case.clone(),
            finding,
            mode,
            elapsed: outcome.elapsed,
            input: case.shown_input()?,
            given: case.shown_given()?,
            expected,
            stdout: outcome.stdout,
            stderr: outcome.stderr,
            expected_files,
            left_files: outcome.files,
            conversation: match case.hidden {
                true => Vec::new(),
                false => conversation,
            },
            mistake: None,
            diverged: None,
        })
    }
}

/// The environment of a program built by `toolchain`: the toolchain's, then `extra`.
pub fn program_env_of(toolchain: &Toolchain, extra: &[(String, String)]) -> Vec<(String, String)> {
    let mut env = toolchain.runtime_env();
    env.extend_from_slice(extra);
    env
}

/// What a reference solution printed and left for a case.
pub struct ReferenceRun {
    pub stdout: Vec<u8>,
    pub files: Vec<(String, Vec<u8>)>,
}

/// A run of `program` on `case`: its input, arguments and files, in a fresh scratch
/// directory; `collect` names the files to take from it afterwards.
fn case_job<'a>(
    program: &'a Path,
    case: &'a Case,
    env: &'a [(String, String)],
    collect: &'a [String],
) -> Job<'a> {
    Job {
        args: &case.config.args,
        files: RunFiles {
            given: &case.given,
            collect,
        },
        ..Job::program(program, case.input.as_deref(), env)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_strict_sample_is_spread_over_the_cases() {
        assert_eq!(super::sample(44, Some(8)), [0, 5, 11, 16, 22, 27, 33, 38]);
        assert_eq!(super::sample(3, Some(8)), [0, 1, 2]);
        assert_eq!(super::sample(5, None), [0, 1, 2, 3, 4]);
        assert!(super::sample(0, Some(8)).is_empty());
    }
}
