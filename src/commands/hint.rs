use anyhow::{Result, bail};
use colored::Colorize;

use crate::app::App;
use crate::commands::Outcome;

/// `clings hint [NAME] [--all]`: one more hint each time, or all revealed so far.
pub fn run(app: &mut App, name: Option<&str>, all: bool) -> Result<Outcome> {
    let lang = app.lang;
    let name = match name {
        Some(name) => app.course.exercise(name)?.name.clone(),
        None => match app.current_name() {
            Some(name) => name,
            None => bail!(lang.pick(
                "every exercise is done: name the one you want a hint for (`clings hint NAME`)",
                "所有练习都已完成：请指定练习名（`clings hint NAME`）",
            )),
        },
    };
    if all {
        let shown = revealed(app, &name)?;
        if shown.is_empty() && !app.course.exercise(&name)?.hints.is_empty() {
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
        return Ok(Outcome::Success);
    }
    reveal_next(app, &name)?;
    if let Some(latest) = revealed(app, &name)?.last() {
        println!("{latest}");
    }
    Ok(Outcome::Success)
}

/// Reveals one more hint of `name` (staying on the last one once all are out) and
/// remembers it in the progress file; returns how many are revealed now.
pub fn reveal_next(app: &mut App, name: &str) -> Result<usize> {
    let total = app.course.exercise(name)?.hints.len();
    if total == 0 {
        return Ok(0);
    }
    let level = (app.progress.hint_level(name) + 1).min(total);
    app.progress.set_hint_level(name, level);
    app.progress.save()?;
    Ok(level)
}

/// The hints of `name` revealed so far, one text each ("Hint 2 of 4 (name): ..."); the
/// last hint says it is the last, and an exercise without hints says so.
pub fn revealed(app: &App, name: &str) -> Result<Vec<String>> {
    let lang = app.lang;
    let hints = &app.course.exercise(name)?.hints;
    let total = hints.len();
    if total == 0 {
        return Ok(vec![lang.pick(
            format!("{name} has no hints."),
            format!("{name} 没有提示。"),
        )]);
    }
    let level = app.progress.hint_level(name).min(total);
    Ok(hints
        .iter()
        .take(level)
        .enumerate()
        .map(|(index, hint)| {
            let number = index + 1;
            let label = lang.pick(
                format!("Hint {number} of {total}"),
                format!("提示 {number}/{total}"),
            );
            let mut text = format!("{} ({name}): {}", label.yellow().bold(), hint.get(lang));
            if number == total {
                let last = lang.pick(
                    "That was the last hint; the cases' own hints appear under a failing case.",
                    "这是最后一条提示；失败用例下面还有针对该用例的提示。",
                );
                text.push_str(&format!("\n{}", last.dimmed()));
            }
            text
        })
        .collect())
}
