//! What every command works with: the course, the student's progress, the language.

use anyhow::{Context, Result};

use crate::course::Course;
use crate::grade::{Grader, GraderOptions};
use crate::i18n::Lang;
use crate::parallel;
use crate::state::Progress;

pub struct App {
    pub course: Course,
    pub progress: Progress,
    pub lang: Lang,
    jobs: Option<usize>,
    /// `--require-isolation`: fail rather than run student programs without isolation.
    require_isolation: bool,
}

impl App {
    /// Finds the course from the working directory and loads the progress; problems with
    /// the state file are reported and repaired here, once.
    pub fn open(lang: Lang, jobs: Option<usize>, require_isolation: bool) -> Result<App> {
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
            jobs,
            require_isolation,
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

    /// How this run's graders are made: `--jobs` (else one per core), `--require-isolation`.
    pub fn grader_options(&self) -> GraderOptions {
        GraderOptions {
            jobs: self.jobs.unwrap_or_else(parallel::default_jobs),
            require_isolation: self.require_isolation,
            lang: self.lang,
        }
    }

    /// The exercise a command without a name is about: the current one.
    pub fn current_name(&self) -> Option<String> {
        self.progress.current().map(String::from)
    }
}
