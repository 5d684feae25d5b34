//! `clings dev bless [EXERCISE]`: recompute every expected output (stdout, and the files in
//! each case's `.expected/` folder) from the reference solution, show what would change, and
//! write it after a confirmation.

use anyhow::{Context, Result};

use crate::app::App;
use crate::commands::Exit;
use crate::course::fixture;
use crate::report::diff::{self, Sides};
use crate::util::atomic;
use crate::util::i18n::{Lang, count};
use crate::util::style;
use crate::util::term::confirm;
use crate::verdict::compare::CompareMode;

const DIFF_LINES: usize = 30;

/// Recompute expected outputs from the reference solution, showing what changes.
#[derive(clap::Args)]
pub struct Args {
    exercise: Option<String>,
    /// Write without asking.
    #[arg(long, short)]
    yes: bool,
}

pub fn run(app: &App, args: &Args) -> Result<Exit> {
    let yes = args.yes;
    let course = &app.course;
    let exercises = match args.exercise.as_deref() {
        Some(name) => vec![course.exercise(name)?],
        None => course.exercises.iter().collect(),
    };
    let grader = app.grader()?;
    let mut changes = Vec::new();
    let mut unchanged = 0;
    for exercise in exercises {
        let program = grader.build(exercise, &exercise.solution_path())?;
        for case in fixture::discover(&course.fixtures_dir(exercise))? {
            let fresh = grader
                .reference_run(&program, &case)
                .with_context(|| format!("case {} of {}", case.name, exercise.name))?;
            // stdout, then each file the program leaves, each with its own expected file.
            let mut outputs = vec![(case.expected_path.clone(), fresh.stdout)];
            for ((_, path), (_, content)) in case.expected_files.iter().zip(fresh.files) {
                outputs.push((path.clone(), content));
            }
            for (path, fresh) in outputs {
                let current = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if fresh == current {
                    unchanged += 1;
                    continue;
                }
                println!("{}:", path.display());
                let options = diff::Options {
                    mode: CompareMode::Exact,
                    max_lines: DIFF_LINES,
                    lang: Lang::En,
                    sides: Sides::Bless,
                    colour: style::enabled(),
                };
                println!("{}", diff::draw(&current, &fresh, &options));
                changes.push((path, fresh));
            }
        }
    }
    if changes.is_empty() {
        println!(
            "every expected output is already what the reference solution prints or leaves ({})",
            count(unchanged, "output", "outputs")
        );
        return Ok(Exit::Success);
    }
    let question = format!(
        "Write {}?",
        count(
            changes.len(),
            "changed expected output",
            "changed expected outputs"
        )
    );
    if !yes && !confirm(&question, "--yes")? {
        println!("Nothing was written.");
        return Ok(Exit::Success);
    }
    for (path, fresh) in &changes {
        atomic::write(path, fresh)?;
    }
    println!(
        "wrote {} ({unchanged} unchanged)",
        count(changes.len(), "expected output", "expected outputs")
    );
    Ok(Exit::Success)
}
