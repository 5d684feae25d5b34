//! What every command and watch mode work with: the course, the student's progress and
//! language, and the student's actions on them (record a grading, reveal a hint, reset an
//! exercise, open one). Commands and watch mode call these and only draw the outcome.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::course::student_folder::{self, Origin};
use crate::course::{Course, Exercise};
use crate::grade::looping::LoopRule;
use crate::grade::results::ExerciseResult;
use crate::grade::{Grader, GraderOptions};
use crate::store::progress::{Progress, Standing};
use crate::util::atomic;
use crate::util::i18n::{Lang, Text};

pub struct App {
    pub course: Course,
    pub progress: Progress,
    pub lang: Lang,
    options: GraderOptions,
    /// Where a folder made by `clings init` came from, read once: its solutions are
    /// handed out as they are earned.
    origin: Option<Origin>,
}

impl App {
    /// Finds the course from the working directory and loads the progress; problems with
    /// the state file are reported and repaired here, once.
    pub fn open(lang: Lang, options: GraderOptions) -> Result<App> {
        let cwd = std::env::current_dir().context("cannot read the working directory")?;
        let course = Course::discover(&cwd)?;
        let (app, warnings) = App::load(course, lang, options);
        for warning in warnings {
            eprintln!("warning: {warning}");
        }
        Ok(app)
    }

    /// The app for `course`, with the problems found in its state file (repaired).
    pub fn load(course: Course, lang: Lang, options: GraderOptions) -> (App, Vec<String>) {
        let (progress, warnings) = Progress::load(&course);
        let origin = Origin::of(&course.root);
        let app = App {
            course,
            progress,
            lang,
            options,
            origin,
        };
        (app, warnings)
    }

    /// A grader for this course; finds the compiler on first use only, so commands
    /// that do not compile work without one.
    pub fn grader(&self) -> Result<Grader<'_>> {
        let grader = Grader::new(&self.course, self.grader_options())?;
        for warning in &grader.warnings {
            eprintln!("warning: {warning}");
        }
        Ok(grader)
    }

    /// A grader for other people's code (`--submission`, `grade`), which is never run
    /// without isolation unless `--allow-unisolated` says so.
    pub fn grader_for_submissions(&self) -> Result<Grader<'_>> {
        let mut grader = self.grader()?;
        // Other people's code, graded for points: a few looping cases cost no more points.
        grader.loop_rule = LoopRule::Ci;
        grader.strict_sample = None;
        anyhow::ensure!(
            grader.sandbox.isolated() || self.options.allow_unisolated,
            "submissions cannot be isolated here, and without isolation a submission's \
             compile and programs can read the course's solutions, the hidden cases and \
             this user's files, and change them: the warning above says what would \
             isolate them (docs/security.md), or pass --allow-unisolated to grade anyway"
        );
        if !self.options.allow_unisolated {
            grader.sandbox.require_isolation();
        }
        // Its solutions and fixtures are below its root.
        crate::sandbox::refuse_if_visible_to_programs(&self.course.root, "the course")?;
        Ok(grader)
    }

    /// How this run's graders are made: `--jobs` (else one per core), `--require-isolation`.
    pub fn grader_options(&self) -> GraderOptions {
        self.options
    }

    /// The exercise a command without a name is about: the current one.
    pub fn current_name(&self) -> Option<String> {
        self.progress.current().map(String::from)
    }

    /// What grading found, into the progress (by [`Progress::record`]'s rule) and saved.
    /// `focus` is the exercise the student works on, when there is one. In a folder made
    /// by `clings init`, each passed exercise earns its reference solution: returns what
    /// that wrote, to be said.
    pub fn record(
        &mut self,
        results: &[ExerciseResult],
        focus: Option<&str>,
    ) -> Result<Vec<PathBuf>> {
        self.progress.record(
            results
                .iter()
                .map(|result| (result.name.as_str(), result.passed())),
            focus,
        );
        self.progress.save()?;
        let Some(origin) = &self.origin else {
            return Ok(Vec::new());
        };
        let passed = results
            .iter()
            .filter(|result| result.passed())
            .filter_map(|result| self.course.exercise(&result.name).ok());
        student_folder::hand_out_solutions(&self.course, origin, passed)
    }

    /// Makes `name` the exercise the student works on.
    pub fn open_exercise(&mut self, name: &str) -> Result<()> {
        self.course.exercise(name)?;
        self.progress.set_current(name);
        self.progress.save()
    }

    /// Reveals one more hint of `name` (staying on the last one once all are out) and
    /// remembers it; returns how many are revealed now.
    pub fn reveal_hint(&mut self, name: &str) -> Result<usize> {
        let total = self.course.exercise(name)?.hints.len();
        if total == 0 {
            return Ok(0);
        }
        let level = (self.progress.hint_level(name) + 1).min(total);
        self.progress.set_hint_level(name, level);
        self.progress.save()?;
        Ok(level)
    }

    /// The hints of `name` revealed so far, in order.
    pub fn revealed_hints(&self, name: &str) -> Result<&[Text]> {
        let hints = &self.course.exercise(name)?.hints;
        Ok(&hints[..self.progress.hint_level(name).min(hints.len())])
    }

    /// Writes the original skeleton of `name` back (atomically, so an editor or watch mode
    /// never sees half a file) and makes it the current exercise, to be done again.
    pub fn reset(&mut self, name: &str) -> Result<()> {
        let exercise = self.course.exercise(name)?;
        let original = self.course.skeleton(exercise)?;
        atomic::write(&self.course.root.join(&exercise.path), &original)?;
        self.progress.mark_pending(name);
        self.progress.set_current(name);
        self.progress.save()
    }

    /// Fails unless `name` has an original skeleton to reset to, saying how to get it back.
    pub fn check_resettable(&self, name: &str) -> Result<()> {
        self.course.skeleton(self.course.exercise(name)?).map(drop)
    }

    /// Every exercise in course order, with where the student stands on it.
    pub fn standings(&self) -> Vec<(&Exercise, Standing)> {
        let current = self.progress.current();
        self.course
            .exercises
            .iter()
            .map(|exercise| {
                let standing = if self.progress.is_done(&exercise.name) {
                    Standing::Done
                } else if current == Some(exercise.name.as_str()) {
                    Standing::Current
                } else {
                    Standing::Pending
                };
                (exercise, standing)
            })
            .collect()
    }
}
