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
    let hints = &app.course.exercise(&name)?.hints;
    let total = hints.len();
    if total == 0 {
        println!(
            "{}",
            lang.pick(
                format!("{name} has no hints."),
                format!("{name} 没有提示。")
            )
        );
        return Ok(Outcome::Success);
    }
    let revealed = app.progress.hint_level(&name).min(total);
    let label = |level: usize| {
        lang.pick(
            format!("Hint {level} of {total}"),
            format!("提示 {level}/{total}"),
        )
        .yellow()
        .bold()
    };
    if all {
        if revealed == 0 {
            println!(
                "{}",
                lang.pick(
                    format!("No hint of {name} revealed yet: `clings hint` shows the first."),
                    format!("{name} 还没有看过提示：`clings hint` 显示第一条。"),
                )
            );
        }
        for (index, hint) in hints.iter().take(revealed).enumerate() {
            println!("{} ({name}): {}", label(index + 1), hint.get(lang));
        }
        return Ok(Outcome::Success);
    }
    let level = (revealed + 1).min(total);
    println!("{} ({name}): {}", label(level), hints[level - 1].get(lang));
    if level == total {
        println!(
            "{}",
            lang.pick(
                "That was the last hint; the cases' own hints appear under a failing case.",
                "这是最后一条提示；失败用例下面还有针对该用例的提示。",
            )
            .dimmed()
        );
    }
    app.progress.set_hint_level(&name, level);
    app.progress.save()?;
    Ok(Outcome::Success)
}
