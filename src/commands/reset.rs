use std::path::Path;

use anyhow::{Result, bail};

use crate::app::App;
use crate::atomic;
use crate::commands::Outcome;
use crate::course::Exercise;
use crate::embedded;
use crate::i18n::Lang;
use crate::term;

/// `clings reset NAME [--yes]`: the original skeleton back, after a confirmation.
pub fn run(app: &mut App, name: &str, yes: bool) -> Result<Outcome> {
    let lang = app.lang;
    let exercise = app.course.exercise(name)?;
    original(exercise)?;
    let file = exercise.path.clone();
    if !yes && !term::confirm(&question(&file, lang), "--yes")? {
        println!("{}", unchanged(lang));
        return Ok(Outcome::Success);
    }
    restore(app, name)?;
    println!("{}", restored(&file, lang));
    Ok(Outcome::Success)
}

/// What a reset says when it is done.
pub fn restored(file: &Path, lang: Lang) -> String {
    lang.pick(
        format!("{} is back to its original skeleton.", file.display()),
        format!("{} 已恢复为原始框架。", file.display()),
    )
}

/// What a reset says when the student answered no.
pub fn unchanged(lang: Lang) -> &'static str {
    lang.pick("Nothing was changed.", "没有做任何修改。")
}

/// The question asked before a reset, answered with y or n.
pub fn question(file: &Path, lang: Lang) -> String {
    lang.pick(
        format!(
            "Reset {} to the original skeleton? Your changes will be lost.",
            file.display()
        ),
        format!("把 {} 恢复为原始框架？你的修改将会丢失。", file.display()),
    )
}

/// The built-in original of `exercise`, or an error that says how to get it back otherwise.
fn original(exercise: &Exercise) -> Result<&'static str> {
    match embedded::skeleton(&exercise.path) {
        Some(original) => Ok(original),
        None => bail!(
            "clings has no built-in original of {}: restore it from your course's repository (e.g. `git checkout -- {}`)",
            exercise.path.display(),
            exercise.path.display()
        ),
    }
}

/// Writes the original skeleton of `name` back (atomically, so an editor or the watcher
/// never sees half a file) and makes it the current, unfinished exercise.
pub fn restore(app: &mut App, name: &str) -> Result<()> {
    let exercise = app.course.exercise(name)?;
    let original = original(exercise)?;
    atomic::write(&app.course.root.join(&exercise.path), original.as_bytes())?;
    app.progress.mark_pending(name);
    app.progress.set_current(name);
    app.progress.save()
}
