use anyhow::Result;

use crate::app::App;
use crate::commands::Exit;
use crate::report::student;
use crate::util::term;

/// `clings list`: every exercise with where the student stands, and the progress bar.
pub fn run(app: &App) -> Result<Exit> {
    for (_, line) in student::list_lines(&app.course, &app.standings(), app.lang) {
        println!("{line}");
    }
    println!(
        "{}",
        term::progress_line(app.progress.done_count(), app.progress.total(), app.lang)
    );
    if let Some(chapters) = student::chapter_progress(&app.course, &app.standings(), app.lang) {
        println!("{chapters}");
    }
    Ok(Exit::Success)
}
