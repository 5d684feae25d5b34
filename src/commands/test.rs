use anyhow::Result;

use crate::app::App;
use crate::commands::Outcome;
use crate::course::Exercise;
use crate::grade::ExerciseResult;
use crate::report::{Format, human, json};
use crate::state::Progress;

/// `clings test [NAME...]`: grade exercises (all by default) and report in `format`.
pub fn run(app: &mut App, names: &[String], format: Format) -> Result<Outcome> {
    let exercises: Vec<&Exercise> = if names.is_empty() {
        app.course.exercises.iter().collect()
    } else {
        names
            .iter()
            .map(|name| app.course.exercise(name))
            .collect::<Result<_>>()?
    };
    let results = {
        let grader = app.grader()?;
        exercises
            .iter()
            .map(|exercise| grader.grade(exercise))
            .collect::<Result<Vec<_>>>()?
    };
    match format {
        Format::Human => {
            for (result, exercise) in results.iter().zip(&exercises) {
                println!("{}", human::exercise(result, exercise, app.lang));
            }
            println!("{}", human::summary(&results));
        }
        Format::Json => println!("{}", json::render(&results, app.lang)),
    }
    record(&mut app.progress, &results)?;
    Ok(if results.iter().all(|result| result.passed()) {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

/// Remembers what a full grading found: passed exercises are done, the others are not.
pub fn record(progress: &mut Progress, results: &[ExerciseResult]) -> Result<()> {
    for result in results {
        if result.passed() {
            progress.mark_done(&result.name);
        } else {
            progress.mark_pending(&result.name);
        }
    }
    progress.save()
}
