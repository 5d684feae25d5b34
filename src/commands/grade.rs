//! `clings grade SUBMISSIONS`: a whole class in parallel, into a gradebook; and
//! `clings grade --merge`: shards' gradebooks into one.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use crate::app::App;
use crate::commands::Exit;
use crate::fixture;
use crate::grade;
use crate::gradebook::{CSV_FILE, Gradebook, JSON_FILE, Shard, Student};
use crate::parallel;
use crate::report::json;

pub fn run(
    app: &App,
    submissions: &Path,
    shard: Option<Shard>,
    fixtures: Option<PathBuf>,
    out: &Path,
) -> Result<Exit> {
    let mut students: Vec<(String, PathBuf)> = std::fs::read_dir(submissions)
        .with_context(|| {
            format!(
                "cannot read the submissions directory {}",
                submissions.display()
            )
        })?
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            )
        })
        .collect();
    students.sort();
    let students: Vec<(String, PathBuf)> = students
        .into_iter()
        .enumerate()
        .filter(|(position, _)| shard.is_none_or(|shard| shard.contains(*position)))
        .map(|(_, student)| student)
        .collect();

    let names = app.course.names();
    if let Some(dir) = &fixtures {
        fixture::check_hidden_root(dir, &names, &names)?;
    }
    let mut grader = app.grader_for_submissions()?;
    grader.hidden_fixtures = fixtures;
    // Students run side by side; each one's cases run one after another, so no
    // submission gets more than its share of the machine.
    let jobs = grader.jobs;
    grader.jobs = 1;
    let progress = ProgressBar::new(students.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} submissions ({per_sec}, {eta} left)")
            .expect("a valid progress template"),
    );
    let graded = parallel::map(&students, jobs, |(name, dir)| {
        let results: Result<Vec<_>> = app
            .course
            .exercises
            .iter()
            .map(|exercise| grader.grade_source(exercise, dir, &grade::locate(exercise, dir)))
            .collect();
        progress.inc(1);
        match results {
            Ok(results) => Student {
                name: name.clone(),
                error: None,
                results: Some(json::document(&results, app.lang)),
            },
            Err(err) => Student {
                name: name.clone(),
                error: Some(format!("{err:#}")),
                results: None,
            },
        }
    });
    progress.finish_and_clear();

    let errors = graded
        .iter()
        .filter(|student| student.error.is_some())
        .count();
    let book = Gradebook::new(names.into_iter().map(String::from).collect(), graded);
    book.write(out)?;
    println!(
        "graded {} submissions into {} and {}",
        book.students.len(),
        out.join(CSV_FILE).display(),
        out.join(JSON_FILE).display()
    );
    for student in book
        .students
        .iter()
        .filter(|student| student.error.is_some())
    {
        eprintln!(
            "error: grading {} failed: {}",
            student.name,
            student.error.as_deref().unwrap_or_default()
        );
    }
    anyhow::ensure!(
        errors == 0,
        "the grader failed on {errors} submissions (listed above)"
    );
    Ok(Exit::Success)
}

pub fn merge(shards: &[PathBuf], out: &Path) -> Result<Exit> {
    let books = shards
        .iter()
        .map(|path| Ok((path.display().to_string(), Gradebook::load(path)?)))
        .collect::<Result<Vec<_>>>()?;
    let book = Gradebook::merge(books)?;
    book.write(out)?;
    println!(
        "merged {} shards, {} submissions, into {} and {}",
        shards.len(),
        book.students.len(),
        out.join(CSV_FILE).display(),
        out.join(JSON_FILE).display()
    );
    Ok(Exit::Success)
}
