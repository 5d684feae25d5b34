use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail};

use crate::app::App;
use crate::commands::Exit;
use crate::course::Exercise;
use crate::course::fixture;
use crate::grade;
use crate::grade::hidden::HiddenFeedback;
use crate::grade::passing::{Counting, Passing};
use crate::report::{self, Format};
use crate::util::style;

/// The hidden cases of a grading, and how much it tells of them (`test` and `grade` alike).
#[derive(clap::Args)]
pub struct Hidden {
    /// Hidden cases from DIR (same layout as fixtures/), run as --hidden-feedback says;
    /// no report shows their input, expected output or diff.
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// How much the reports, the points and the exit status tell of the hidden cases (it
    /// needs --fixtures). Each thing told is an answer a student who submits again reads
    /// about the hidden inputs: give per-push feedback `none` or `total`, and run the
    /// grading that counts once, at the deadline, with `verdicts`.
    #[arg(
        long,
        value_enum,
        default_value_t,
        value_name = "HOW",
        requires = "fixtures"
    )]
    pub hidden_feedback: HiddenFeedback,
}

impl Hidden {
    /// The folder of hidden cases to run, once it is checked against the exercises
    /// `known` and `graded`: none under `--hidden-feedback none`, which says so.
    pub fn to_run(&self, known: &[&str], graded: &[&str]) -> Result<Option<PathBuf>> {
        let Some(dir) = &self.fixtures else {
            return Ok(None);
        };
        fixture::check_hidden_root(dir, known, graded)?;
        if !self.hidden_feedback.runs_hidden() {
            eprintln!("{}", not_run(dir));
            return Ok(None);
        }
        Ok(Some(dir.clone()))
    }
}

/// Why the hidden cases given are not run: said once, the same whatever is graded.
fn not_run(dir: &Path) -> String {
    format!(
        "note: the hidden cases in {} are not run: with --hidden-feedback none (the default) \
         nothing tells of them; --hidden-feedback total or verdicts runs them",
        dir.display()
    )
}

/// Run the cases of the named exercises (all by default) and report.
#[derive(clap::Args)]
pub struct Args {
    names: Vec<String>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Grade the exercise files in DIR (a copy of exercises/, or a repository with the
    /// course layout) without touching the course's own files or progress.
    #[arg(long, value_name = "DIR")]
    submission: Option<PathBuf>,
    #[command(flatten)]
    hidden: Hidden,
    /// Write the report in --format to FILE; the terminal still gets the human report.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Practice chapters (`graded = false`) count toward the result too: without it,
    /// every exercise of a graded chapter passing is a pass (exit 0). Exercises named
    /// count whatever their chapter.
    #[arg(long, visible_alias = "all-chapters")]
    count_practice: bool,
}

/// `clings test [NAME...]`: grade exercises (all by default) and report in `format`; exit 0
/// when the exercises that count passed (see [`Counting`]).
pub fn run(app: &mut App, options: &Args) -> Result<Exit> {
    let exercises: Vec<&Exercise> = if options.names.is_empty() {
        app.course.exercises.iter().collect()
    } else {
        options
            .names
            .iter()
            .map(|name| app.course.exercise(name))
            .collect::<Result<_>>()?
    };
    if let Some(dir) = &options.submission {
        let shown = style::one_line(&dir.display().to_string()).into_owned();
        if !dir.is_dir() {
            bail!("the submission directory {shown} does not exist");
        }
        // As `grade` refuses a student's folder: a link could lead to the solutions.
        if let Some(why) = grade::refusal(Path::new("."), dir, exercises.iter().copied())? {
            bail!("refused the submission {shown}: {why}");
        }
    }
    let graded: Vec<&str> = exercises.iter().map(|e| e.name.as_str()).collect();
    let hidden_fixtures = options.hidden.to_run(&app.course.names(), &graded)?;
    let results = {
        let mut grader = match options.submission {
            Some(_) => app.grader_for_submissions()?,
            None => app.grader()?,
        };
        grader.hidden_fixtures = hidden_fixtures;
        let (grader, done) = (&grader, &AtomicBool::new(false));
        std::thread::scope(|scope| {
            if options.submission.is_none() {
                scope.spawn(|| grader.prebuild(&exercises, done));
            }
            let base = options.submission.as_deref().unwrap_or(&app.course.root);
            let sources: Vec<_> = exercises
                .iter()
                .map(|exercise| match &options.submission {
                    Some(dir) => (*exercise, base, grade::locate(exercise, dir)),
                    None => (*exercise, base, exercise.path.clone()),
                })
                .collect();
            let results = grader.grade_sources(&sources);
            done.store(true, Ordering::Relaxed);
            results
        })?
    };
    // Nothing more runs: the sandboxes end beside the report.
    crate::sandbox::end_warm_sandboxes_soon();
    let results = options.hidden.hidden_feedback.apply(results);
    let counting = match (options.names.is_empty(), options.count_practice) {
        (false, _) => Counting::Named,
        (true, true) => Counting::WithPractice,
        (true, false) => Counting::Graded,
    };
    report::publish(
        &results,
        counting,
        options.format,
        options.output.as_deref(),
        app.lang,
    )?;
    // A submission is someone else's work: the course's own progress is left alone.
    if options.submission.is_none() {
        // Said on stderr: stdout may be a report in another format.
        for solution in app.record(&results, None)? {
            eprintln!("{}", report::student::solution_written(&solution, app.lang));
        }
    }
    Ok(if Passing::of(&results, counting).passed {
        Exit::Success
    } else {
        Exit::Failure
    })
}
