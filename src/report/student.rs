//! What a student reads about their own course, the same in the commands and in watch
//! mode: the list of exercises, the hints revealed, a cheer, what a reset did.

use std::path::Path;

use colored::Colorize;

use crate::course::{Chapter, Course, Exercise};
use crate::store::progress::Standing;
use crate::util::i18n::{Lang, Text};

/// The list of exercises: [`list_rows`], each chapter's under its heading when the course
/// has chapters. Each line comes with the index of its exercise (`None` for a heading).
pub fn list_lines(
    course: &Course,
    standings: &[(&Exercise, Standing)],
    lang: Lang,
) -> Vec<(Option<usize>, String)> {
    let mut lines = Vec::with_capacity(standings.len() + course.chapters.len());
    let rows = list_rows(standings, lang);
    for (index, ((exercise, _), row)) in standings.iter().zip(rows).enumerate() {
        let chapter = course.chapter_of(exercise);
        let first = index == 0 || course.chapter_of(standings[index - 1].0).name != chapter.name;
        if course.has_chapters() && first {
            lines.push((None, chapter_heading(course, chapter, standings, lang)));
        }
        lines.push((Some(index), row));
    }
    lines
}

/// `Chapters: The game in three steps 3/3 · After class 1/4`, when the course has chapters.
pub fn chapter_progress(
    course: &Course,
    standings: &[(&Exercise, Standing)],
    lang: Lang,
) -> Option<String> {
    if !course.has_chapters() {
        return None;
    }
    let parts: Vec<String> = course
        .chapters
        .iter()
        .map(|chapter| {
            let (done, total) = chapter_count(course, chapter, standings);
            format!("{} {done}/{total}", chapter.title.get(lang))
        })
        .collect();
    Some(lang.pick(
        format!("Chapters: {}", parts.join(" · ")),
        format!("各章进度：{}", parts.join(" · ")),
    ))
}

/// Exercises done in `chapter`, and how many it has.
fn chapter_count(
    course: &Course,
    chapter: &Chapter,
    standings: &[(&Exercise, Standing)],
) -> (usize, usize) {
    let mine = standings
        .iter()
        .filter(|(exercise, _)| course.chapter_of(exercise).name == chapter.name);
    let done = mine
        .clone()
        .filter(|(_, standing)| *standing == Standing::Done)
        .count();
    (done, mine.count())
}

/// `Chapter 2 · After class (1/4 done)`, and whether it counts for a grade.
fn chapter_heading(
    course: &Course,
    chapter: &Chapter,
    standings: &[(&Exercise, Standing)],
    lang: Lang,
) -> String {
    let number = course
        .chapters
        .iter()
        .position(|known| known.name == chapter.name)
        .unwrap_or(0)
        + 1;
    let (done, total) = chapter_count(course, chapter, standings);
    let title = chapter.title.get(lang);
    let mut heading = lang.pick(
        format!("Chapter {number} · {title} ({done}/{total} done)"),
        format!("第 {number} 章 · {title}（已完成 {done}/{total}）"),
    );
    if !chapter.graded {
        heading.push_str(lang.pick(" — practice, not graded", " —— 练习，不计入成绩"));
    }
    heading.bold().to_string()
}

/// One line per exercise in course order: a marker for the current one, its standing
/// (done / current / pending), its name and its title.
fn list_rows(standings: &[(&Exercise, Standing)], lang: Lang) -> Vec<String> {
    let width = standings
        .iter()
        .map(|(exercise, _)| exercise.name.len())
        .max()
        .unwrap_or(0);
    standings
        .iter()
        .map(|(exercise, standing)| {
            let (marker, word) = match standing {
                Standing::Done => (" ", lang.pick("done", "完成").green()),
                Standing::Current => ("→", lang.pick("current", "当前").yellow().bold()),
                Standing::Pending => (" ", lang.pick("pending", "待做").normal()),
            };
            format!(
                "{marker} {:<8} {:<width$}  {}",
                word,
                exercise.name,
                exercise.title.get(lang)
            )
        })
        .collect()
}

/// The hints of `exercise` revealed so far, one text each ("Hint 2 of 4 (name): ..."); the
/// last hint says it is the last, and an exercise without hints says so.
pub fn hints(exercise: &Exercise, revealed: &[Text], lang: Lang) -> Vec<String> {
    let name = &exercise.name;
    let total = exercise.hints.len();
    if total == 0 {
        return vec![lang.pick(
            format!("{name} has no hints."),
            format!("{name} 没有提示。"),
        )];
    }
    revealed
        .iter()
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
        .collect()
}

/// The line that celebrates a passed exercise.
pub fn cheer(name: &str, lang: Lang) -> String {
    lang.pick(format!("✓ {name} passed!"), format!("✓ {name} 通过了！"))
        .green()
        .bold()
        .to_string()
}

/// What is said when a passed exercise's reference solution is written, at `path`.
pub fn solution_written(path: &Path, lang: Lang) -> String {
    let path = path.display();
    lang.pick(
        format!("Its reference solution is now in {path}: compare it with yours."),
        format!("参考答案已写入 {path}：和你的写法对照一下吧。"),
    )
}

/// The question asked before a reset, answered with y or n.
pub fn reset_question(file: &Path, lang: Lang) -> String {
    lang.pick(
        format!(
            "Reset {} to the original skeleton? Your changes will be lost.",
            file.display()
        ),
        format!("把 {} 恢复为原始框架？你的修改将会丢失。", file.display()),
    )
}

/// What a reset says when it is done.
pub fn reset_done(file: &Path, lang: Lang) -> String {
    lang.pick(
        format!("{} is back to its original skeleton.", file.display()),
        format!("{} 已恢复为原始框架。", file.display()),
    )
}

/// What a reset says when the student answered no.
pub fn reset_declined(lang: Lang) -> &'static str {
    lang.pick("Nothing was changed.", "没有做任何修改。")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::Defaults;

    fn exercise(name: &str, chapter: &str) -> Exercise {
        toml::from_str(&format!(
            "name = \"{name}\"\ntitle = \"{name}\"\npath = \"{name}.c\"\nchapter = \"{chapter}\""
        ))
        .unwrap()
    }

    fn chapter(name: &str, graded: bool) -> Chapter {
        Chapter {
            name: name.into(),
            title: Text::Localized {
                en: name.to_uppercase(),
                zh: Some(format!("{name}章")),
            },
            graded,
        }
    }

    #[test]
    fn chapters_head_their_exercises_and_count_them() {
        let course = Course {
            root: "/c".into(),
            defaults: Defaults::default(),
            chapters: vec![chapter("core", true), chapter("extra", false)],
            exercises: vec![
                exercise("a", "core"),
                exercise("b", "core"),
                exercise("c", "extra"),
            ],
        };
        let standings: Vec<(&Exercise, Standing)> = course
            .exercises
            .iter()
            .zip([Standing::Done, Standing::Current, Standing::Pending])
            .collect();
        let lines = list_lines(&course, &standings, Lang::En);
        let indices: Vec<Option<usize>> = lines.iter().map(|(index, _)| *index).collect();
        assert_eq!(indices, [None, Some(0), Some(1), None, Some(2)]);
        let plain = |line: &str| crate::util::style::strip_ansi(line);
        assert_eq!(plain(&lines[0].1), "Chapter 1 · CORE (1/2 done)");
        assert_eq!(
            plain(&lines[3].1),
            "Chapter 2 · EXTRA (0/1 done) — practice, not graded"
        );
        assert_eq!(
            chapter_progress(&course, &standings, Lang::Zh).as_deref(),
            Some("各章进度：core章 1/2 · extra章 0/1")
        );
        // One chapter: no heading, nothing to count apart.
        let single = Course {
            chapters: vec![Chapter::implicit()],
            exercises: vec![exercise("a", "exercises")],
            ..course.clone()
        };
        let standings = [(&single.exercises[0], Standing::Current)];
        assert_eq!(list_lines(&single, &standings, Lang::En).len(), 1);
        assert_eq!(chapter_progress(&single, &standings, Lang::En), None);
    }
}
