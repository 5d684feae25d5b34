//! What every command works with: the course, the student's progress, the language.

use anyhow::{Context, Result};

use crate::course::Course;
use crate::grade::Grader;
use crate::i18n::Lang;
use crate::parallel;
use crate::state::Progress;

pub struct App {
    pub course: Course,
    pub progress: Progress,
    pub lang: Lang,
    jobs: Option<usize>,
}

impl App {
    /// Finds the course from the working directory and loads the progress; problems with
    /// the state file are reported and repaired here, once.
    pub fn open(lang: Lang, jobs: Option<usize>) -> Result<App> {
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
        })
    }

    /// A grader for this course; finds the compiler on first use only, so commands
    /// that do not compile work without one.
    pub fn grader(&self) -> Result<Grader<'_>> {
        let grader = Grader::new(&self.course, self.jobs())?;
        for warning in &grader.toolchain.warnings {
            eprintln!("warning: {warning}");
        }
        Ok(grader)
    }

    /// Cases run at once: `--jobs`, else one per core.
    pub fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(parallel::default_jobs)
    }

    /// The exercise a command without a name is about: the current one.
    pub fn current_name(&self) -> Option<String> {
        self.progress.current().map(String::from)
    }
}
