//! What every command works with: the course, the student's progress, the language.

use anyhow::{Context, Result};

use crate::course::Course;
use crate::grade::{Grader, GraderOptions};
use crate::i18n::Lang;
use crate::state::Progress;

pub struct App {
    pub course: Course,
    pub progress: Progress,
    pub lang: Lang,
    options: GraderOptions,
}

impl App {
    /// Finds the course from the working directory and loads the progress; problems with
    /// the state file are reported and repaired here, once.
    pub fn open(lang: Lang, options: GraderOptions) -> Result<App> {
        let cwd = std::env::current_dir().context("cannot read the working directory")?;
        let course = Course::discover(&cwd)?;
        let (progress, warnings) = Progress::load(&course);
        for warning in warnings {
            eprintln!("warning: {warning}");
        }
        Ok(App {
            course,
            progress,
            lang,
            options,
        })
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
        let grader = self.grader()?;
        anyhow::ensure!(
            grader.sandbox.isolated() || self.options.allow_unisolated,
            "submissions cannot be isolated here, and without isolation a submission's \
             compile and programs can read the course's solutions, the hidden cases and \
             this user's files, and change them: install bubblewrap (see the README, \
             \"Untrusted programs\"), or pass --allow-unisolated to grade anyway"
        );
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
}
