use anyhow::{Result, bail};

use crate::app::App;
use crate::commands::Exit;
use crate::report::student;

/// The next hint of the current (or named) exercise.
#[derive(clap::Args)]
pub struct Args {
    name: Option<String>,
    /// Show every hint revealed so far instead of revealing a new one.
    #[arg(long)]
    all: bool,
}

/// `clings hint [NAME] [--all]`: one more hint each time, or all revealed so far.
pub fn run(app: &mut App, args: &Args) -> Result<Exit> {
    let lang = app.lang;
    let all = args.all;
    let name = match &args.name {
        Some(name) => app.course.exercise(name)?.name.clone(),
        None => match app.current_name() {
            Some(name) => name,
            None => bail!(lang.pick(
                "every exercise is done: name the one you want a hint for (`clings hint NAME`)",
                "所有练习都已完成：请指定练习名（`clings hint NAME`）",
            )),
        },
    };
    let exercise = app.course.exercise(&name)?;
    if all {
        let shown = student::hints(exercise, app.revealed_hints(&name)?, lang);
        if shown.is_empty() {
            println!(
                "{}",
                lang.pick(
                    format!("No hint of {name} revealed yet: `clings hint` shows the first."),
                    format!("{name} 还没有看过提示：`clings hint` 显示第一条。"),
                )
            );
        }
        for line in shown {
            println!("{line}");
        }
        return Ok(Exit::Success);
    }
    app.reveal_hint(&name)?;
    let exercise = app.course.exercise(&name)?;
    if let Some(latest) = student::hints(exercise, app.revealed_hints(&name)?, lang).last() {
        println!("{latest}");
    }
    Ok(Exit::Success)
}
