use anyhow::Result;

use crate::app::App;
use crate::commands::Exit;
use crate::grade::passing::{Counting, Passing};
use crate::report::{human, student};
use crate::util::term;
use crate::verdict::Status;

/// Compile an exercise and run it on its cases; marks it done when all pass.
#[derive(clap::Args)]
pub struct Args {
    /// An exercise name, or `next` for the next unfinished exercise.
    #[arg(default_value = "next")]
    name: String,
}

/// `clings run [NAME|next]`.
pub fn run(app: &mut App, args: &Args) -> Result<Exit> {
    grade_and_move_on(app, &args.name)
}

/// Grades one exercise (`next`: the current one) and moves on when it passes.
pub fn grade_and_move_on(app: &mut App, name: &str) -> Result<Exit> {
    let lang = app.lang;
    let name = if name == "next" {
        match app.current_name() {
            Some(name) => name,
            None => {
                println!("{}", all_done(app));
                return Ok(Exit::Success);
            }
        }
    } else {
        app.course.exercise(name)?.name.clone()
    };
    let result = {
        let grader = app.grader()?;
        grader.grade(app.course.exercise(&name)?)?
    };
    print!("{}", human::exercise(&result, lang));
    println!();
    if result.status == Status::Missing {
        println!(
            "{}",
            lang.pick(
                format!("`clings reset {name}` brings the original file back."),
                format!("`clings reset {name}` 可以恢复原始文件。"),
            )
        );
    }
    let graded = std::slice::from_ref(&result);
    let solutions = app.record(graded, Some(&name))?;
    let exercise = app.course.exercise(&name)?;
    // The exercise run is the one asked for: it counts, practice or not.
    if !Passing::of(graded, Counting::Named).passed {
        let asked = app.progress.hint_level(&name);
        let total = exercise.hints.len();
        let hint = if asked < total {
            lang.pick(
                format!("stuck? `clings hint` shows hint {} of {total}", asked + 1),
                format!(
                    "卡住了？`clings hint` 显示第 {} 条提示（共 {total} 条）",
                    asked + 1
                ),
            )
        } else {
            lang.pick(
                "`clings hint --all` shows the hints again".to_string(),
                "`clings hint --all` 再看一遍提示".to_string(),
            )
        };
        println!(
            "{}",
            lang.pick(
                format!(
                    "Edit {} and run `clings run {name}` again; {hint}.",
                    exercise.path.display()
                ),
                format!(
                    "修改 {} 后再运行 `clings run {name}`；{hint}。",
                    exercise.path.display()
                ),
            )
        );
        return Ok(Exit::Failure);
    }
    println!("{}", student::cheer(&name, lang));
    for solution in solutions {
        println!("{}", student::solution_written(&solution, lang));
    }
    match app.progress.current() {
        Some(next) => {
            let title = app.course.exercise(next)?.title.get(lang);
            println!(
                "{}",
                lang.pick(
                    format!("Next: {next} — {title} (`clings run next`)"),
                    format!("下一个：{next} — {title}（`clings run next`）"),
                )
            );
        }
        None => println!("{}", all_done(app)),
    }
    println!(
        "{}",
        term::progress_line(app.progress.done_count(), app.progress.total(), lang)
    );
    if let Some(chapters) = student::chapter_progress(&app.course, &app.standings(), lang) {
        println!("{chapters}");
    }
    Ok(Exit::Success)
}

fn all_done(app: &App) -> String {
    app.lang.pick(
        "Every exercise is done. Well played! `clings test` grades them all again.".to_string(),
        "所有练习都完成了，干得漂亮！`clings test` 可以再全部检查一遍。".to_string(),
    )
}
