use std::path::Path;

use anyhow::{Context, Result};

use crate::app::App;
use crate::atomic;
use crate::commands::Outcome;
use crate::course::{Course, Exercise};
use crate::i18n::{Lang, Localized};
use crate::term;

/// `clings reset NAME [--yes]`: the original skeleton back, after a confirmation.
pub fn run(app: &mut App, name: &str, yes: bool) -> Result<Outcome> {
    let lang = app.lang;
    let exercise = app.course.exercise(name)?;
    original(&app.course, exercise)?;
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

/// The pristine skeleton of `exercise`, read from the course (`skeletons/` by default), or
/// an error that names the missing file and says how to get it back.
fn original(course: &Course, exercise: &Exercise) -> Result<Vec<u8>> {
    let skeleton = exercise.skeleton_path();
    let path = course.root.join(&skeleton);
    match std::fs::read(&path) {
        Ok(original) => Ok(original),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let (skeleton, file, name) =
                (skeleton.display(), exercise.path.display(), &exercise.name);
            Err(Localized::new(
                format!(
                    "the skeleton of {name}, {skeleton}, is missing, so `reset` cannot put it \
                     back in {file} (nothing was changed): restore it from your course's \
                     repository (`git checkout -- {skeleton}`) or copy it from a fresh copy of \
                     the course"
                ),
                format!(
                    "练习 {name} 的原始框架 {skeleton} 不见了，`reset` 无法恢复 {file}\
                     （没有做任何修改）：请从课程仓库中取回它（`git checkout -- {skeleton}`），\
                     或从一份新的课程副本中复制过来"
                ),
            )
            .into())
        }
        Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Writes the original skeleton of `name` back (atomically, so an editor or the watcher
/// never sees half a file) and makes it the current, unfinished exercise.
pub fn restore(app: &mut App, name: &str) -> Result<()> {
    let exercise = app.course.exercise(name)?;
    let original = original(&app.course, exercise)?;
    atomic::write(&app.course.root.join(&exercise.path), &original)?;
    app.progress.mark_pending(name);
    app.progress.set_current(name);
    app.progress.save()
}
