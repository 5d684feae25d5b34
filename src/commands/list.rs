use anyhow::Result;
use colored::Colorize;

use crate::app::App;
use crate::commands::Outcome;
use crate::term;

pub fn run(app: &App) -> Result<Outcome> {
    for row in rows(app) {
        println!("{row}");
    }
    println!(
        "{}",
        term::progress_line(app.progress.done_count(), app.progress.total(), app.lang)
    );
    Ok(Outcome::Success)
}

/// One line per exercise in course order: a marker for the current one, its state
/// (done / current / pending), its name and its title.
pub fn rows(app: &App) -> Vec<String> {
    let lang = app.lang;
    let current = app.progress.current();
    let width = app
        .course
        .exercises
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0);
    app.course
        .exercises
        .iter()
        .map(|exercise| {
            let (marker, state) = if app.progress.is_done(&exercise.name) {
                (" ", lang.pick("done", "完成").green())
            } else if current == Some(exercise.name.as_str()) {
                ("→", lang.pick("current", "当前").yellow().bold())
            } else {
                (" ", lang.pick("pending", "待做").normal())
            };
            format!(
                "{marker} {:<8} {:<width$}  {}",
                state,
                exercise.name,
                exercise.title.get(lang)
            )
        })
        .collect()
}
