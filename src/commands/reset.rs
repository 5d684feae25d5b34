use anyhow::{Result, bail};

use crate::app::App;
use crate::atomic;
use crate::commands::Outcome;
use crate::embedded;
use crate::term;

/// `clings reset NAME [--yes]`: the original skeleton back, after a confirmation.
pub fn run(app: &mut App, name: &str, yes: bool) -> Result<Outcome> {
    let lang = app.lang;
    let exercise = app.course.exercise(name)?;
    let Some(original) = embedded::skeleton(&exercise.path) else {
        bail!(
            "clings has no built-in original of {}: restore it from your course's repository (e.g. `git checkout -- {}`)",
            exercise.path.display(),
            exercise.path.display()
        );
    };
    let path = app.course.root.join(&exercise.path);
    let question = lang.pick(
        format!(
            "Reset {} to the original skeleton? Your changes will be lost.",
            exercise.path.display()
        ),
        format!(
            "把 {} 恢复为原始框架？你的修改将会丢失。",
            exercise.path.display()
        ),
    );
    if !yes && !term::confirm(&question, "--yes")? {
        println!("{}", lang.pick("Nothing was changed.", "没有做任何修改。"));
        return Ok(Outcome::Success);
    }
    atomic::write(&path, original.as_bytes())?;
    app.progress.mark_pending(name);
    app.progress.set_current(name);
    app.progress.save()?;
    println!(
        "{}",
        lang.pick(
            format!(
                "{} is back to its original skeleton.",
                exercise.path.display()
            ),
            format!("{} 已恢复为原始框架。", exercise.path.display()),
        )
    );
    Ok(Outcome::Success)
}
