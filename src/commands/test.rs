use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::app::App;
use crate::atomic;
use crate::commands::Outcome;
use crate::course::Exercise;
use crate::fixture;
use crate::grade;
use crate::report::{Format, github, human, json, junit};

pub struct TestOptions {
    pub names: Vec<String>,
    pub format: Format,
    /// Grade the exercise files found here instead of the course's own.
    pub submission: Option<PathBuf>,
    /// Hidden cases, kept outside the student's repository.
    pub fixtures: Option<PathBuf>,
    /// Write the formatted report here; the terminal gets the human report.
    pub output: Option<PathBuf>,
}

/// `clings test [NAME...]`: grade exercises (all by default) and report in `format`.
pub fn run(app: &mut App, options: &TestOptions) -> Result<Outcome> {
    let exercises: Vec<&Exercise> = if options.names.is_empty() {
        app.course.exercises.iter().collect()
    } else {
        options
            .names
            .iter()
            .map(|name| app.course.exercise(name))
            .collect::<Result<_>>()?
    };
    if let Some(dir) = &options.submission
        && !dir.is_dir()
    {
        bail!("the submission directory {} does not exist", dir.display());
    }
    if let Some(dir) = &options.fixtures {
        let graded: Vec<&str> = exercises.iter().map(|e| e.name.as_str()).collect();
        fixture::check_hidden_root(dir, &app.course.names(), &graded)?;
    }
    let results = {
        let mut grader = match options.submission {
            Some(_) => app.grader_for_submissions()?,
            None => app.grader()?,
        };
        grader.hidden_fixtures = options.fixtures.clone();
        exercises
            .iter()
            .map(|exercise| match &options.submission {
                Some(dir) => grader.grade_source(exercise, dir, &grade::locate(exercise, dir)),
                None => grader.grade(exercise),
            })
            .collect::<Result<Vec<_>>>()?
    };
    let lang = app.lang;
    let log = human::report(&results, lang);
    let formatted = match options.format {
        Format::Human => log.clone(),
        Format::Json => json::render(&results, lang) + "\n",
        Format::Junit => junit::render(&results, lang),
        Format::Github => github::summary(&results, lang),
    };
    // The Actions runner reads stdout for workflow commands, and the human report quotes
    // programs and the compiler: only clings' own annotations may be live.
    let log = match options.format {
        Format::Github => github::fenced(&log)?,
        _ => log,
    };
    match (&options.output, options.format) {
        (Some(path), _) => {
            print!("{log}");
            atomic::write(path, formatted.as_bytes())?;
        }
        // Annotations only work on stdout, where the Actions runner reads them.
        (None, Format::Github) => print!("{log}"),
        (None, _) => print!("{formatted}"),
    }
    if options.format == Format::Github {
        print!("{}", github::annotations(&results, lang));
        if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|path| !path.is_empty())
        {
            append(&PathBuf::from(path), &formatted)?;
        }
    }
    // A submission is someone else's work: the course's own progress is left alone.
    if options.submission.is_none() {
        app.record(&results, None)?;
    }
    Ok(if results.iter().all(|result| result.passed()) {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

fn append(path: &std::path::Path, text: &str) -> Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .with_context(|| format!("cannot append the summary to {}", path.display()))
}
