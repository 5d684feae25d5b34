//! What the watch screen shows, as text: the exercise with its last report (as `clings run`
//! prints it), the next step, hints, the course's progress and the keys; or the list.

use std::fmt::Write;

use colored::Colorize;

use super::files::How;
use super::session::{Busy, Mode, Session};
use crate::grade::passing::Counting;
use crate::grade::results::ExerciseResult;
use crate::report::human::{self, ScreenReport};
use crate::report::student;
use crate::util::i18n::Lang;
use crate::util::term;

/// The screen for a terminal of `width` x `height`, every line wrapped to the width: the
/// result on top, then what to do next and the hints, then the status lines and the keys
/// at the bottom. The report's head (the first failure's verdict, its hint and the start
/// of its diff) is always shown; what follows it gives way first to the next step and the
/// hints, then is cut, saying how to see the rest.
pub fn render(session: &Session, width: usize, height: usize) -> String {
    let (report, after) = match session.mode {
        Mode::List { selected } => (plain(exercise_list(session, selected)), After::default()),
        Mode::Exercise | Mode::ConfirmReset => match &session.shown {
            Some(name) => exercise(session, name),
            None => (plain(finished(session)), After::default()),
        },
    };
    let mut bottom = String::new();
    for notice in &session.notices {
        let _ = writeln!(bottom, "{}", notice.yellow());
    }
    if let Some(message) = &session.message {
        let _ = writeln!(bottom, "{message}");
    }
    bottom.push('\n');
    let app = &session.app;
    let _ = writeln!(bottom, "{}", status(session));
    let _ = writeln!(
        bottom,
        "{}",
        term::progress_line(app.progress.done_count(), app.progress.total(), app.lang)
    );
    let bottom = term::wrap(&bottom, width);
    // The last line has no newline, so a screen that fills the window does not scroll.
    let footer = term::wrap(&footer(session), width);
    let room = height.saturating_sub(rows(&bottom) + rows(&footer));
    let head = term::wrap(&first_lines(&report.text, report.head_lines), width);
    let report = term::wrap(&report.text, width);
    // What comes after the report may take the room the report's head leaves, at most.
    let lang = session.app.lang;
    let after = after.fit(
        room.saturating_sub(rows(&head).min(rows(&report))),
        width,
        lang,
    );
    let name = session.shown.as_deref().unwrap_or_default();
    let whole = lang.pick(
        format!("`clings run {name}` prints the whole report"),
        format!("`clings run {name}` 打印完整报告"),
    );
    let mut out = cut(&report, room.saturating_sub(rows(&after)), Some(&whole));
    out.push_str(&after);
    out.push_str(&bottom);
    out.push_str(&footer);
    out
}

/// A report that has no head to keep in sight.
fn plain(text: String) -> ScreenReport {
    ScreenReport {
        text,
        head_lines: 0,
    }
}

/// The first `count` lines of `text`.
fn first_lines(text: &str, count: usize) -> String {
    text.lines()
        .take(count)
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The rows `text` takes on screen, once wrapped to the screen's width.
fn rows(text: &str) -> usize {
    text.lines().count()
}

/// `text` cut to `room` rows, the last of them saying how many lines are left out (and,
/// with `whole`, how to see them).
fn cut(text: &str, room: usize, whole: Option<&str>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= room {
        return text.to_string();
    }
    let kept = room.saturating_sub(1);
    let mut out = first_lines(text, kept);
    if room > 0 {
        let left_out = lines.len() - kept;
        let note = match whole {
            Some(whole) => format!("… {left_out} more lines: {whole}"),
            None => format!("… {left_out} more lines"),
        };
        let _ = writeln!(out, "{}", note.dimmed());
    }
    out
}

/// The exercise's report, and what comes after it: the next step, the hints, the check
/// of everything.
fn exercise(session: &Session, name: &str) -> (ScreenReport, After) {
    let app = &session.app;
    let lang = app.lang;
    let mut out = String::new();
    let Ok(exercise) = app.course.exercise(name) else {
        return (plain(out), After::default());
    };
    let shown_path = exercise.path.display().to_string();
    let file = term::file_link(&app.course.root.join(&exercise.path), &shown_path);
    let report = match &session.result {
        Some(Ok(result)) => human::for_screen(result, lang, &file),
        Some(Err(err)) => {
            let _ = writeln!(out, "{}  ({file})", human::title(exercise, lang));
            let _ = writeln!(out, "{}", format!("error: {err}").red());
            plain(out)
        }
        None => {
            let _ = writeln!(out, "{}  ({file})", human::title(exercise, lang));
            plain(out)
        }
    };
    let mut out = String::from("\n");
    match &session.result {
        Some(Ok(result)) if result.passed() => {
            let _ = writeln!(out, "{}", student::cheer(name, lang));
            let _ = writeln!(out, "{}", next_step(session));
        }
        Some(Ok(_)) => {
            let offer = hint_offer(session, name);
            let again = if matches!(session.how, How::Manual) {
                lang.pick(
                    format!("Save {shown_path}, then press r to run it again; {offer}."),
                    format!("保存 {shown_path} 后按 r 再运行；{offer}。"),
                )
            } else {
                lang.pick(
                    format!("Save {shown_path} to run it again; {offer}."),
                    format!("保存 {shown_path} 就会重新运行；{offer}。"),
                )
            };
            let _ = writeln!(out, "{again}");
        }
        _ => {}
    }
    let mut after = After {
        step: out,
        ..After::default()
    };
    if session.show_hints
        && let Ok(revealed) = app.revealed_hints(name)
    {
        after.hints = student::hints(exercise, revealed, lang)
            .into_iter()
            .map(|hint| format!("{hint}\n"))
            .collect();
    }
    if let Some(results) = &session.checked {
        after.checked = checked(results, lang);
    }
    (report, after)
}

/// What follows the report: the next step, the hints revealed, what `c` found.
#[derive(Default)]
struct After {
    step: String,
    /// Each revealed hint, the oldest first.
    hints: Vec<String>,
    checked: String,
}

impl After {
    /// Wrapped to `width` and cut to `room` rows: the oldest hints go first, so that the
    /// one just revealed stays in sight; then the end is cut.
    fn fit(&self, room: usize, width: usize, lang: Lang) -> String {
        let wrap = |text: &str| term::wrap(text, width);
        let hints: Vec<String> = self.hints.iter().map(|hint| wrap(hint)).collect();
        let (step, checked) = (wrap(&self.step), wrap(&self.checked));
        let gap = usize::from(!hints.is_empty());
        let fixed = rows(&step) + gap + rows(&checked);
        let mut first = 0;
        let note = lang.pick(
            "… earlier hints: `clings hint --all`",
            "……更早的提示：`clings hint --all`",
        );
        let hint_rows = |first: usize| {
            let shown: usize = hints[first..].iter().map(|hint| rows(hint)).sum();
            shown + usize::from(first > 0)
        };
        while first + 1 < hints.len() && fixed + hint_rows(first) > room {
            first += 1;
        }
        let mut out = step;
        if gap > 0 {
            out.push('\n');
        }
        if first > 0 {
            let _ = writeln!(out, "{}", note.dimmed());
        }
        for hint in &hints[first..] {
            out.push_str(hint);
        }
        out.push_str(&checked);
        cut(&out, room, None)
    }
}

/// What `c` found: a line per exercise and the summary, which counts practice as `clings
/// test` does.
fn checked(results: &[ExerciseResult], lang: Lang) -> String {
    let mut out = format!(
        "\n{}\n",
        lang.pick("Every exercise, graded again:", "全部练习重新检查的结果：")
            .bold()
    );
    for line in human::overview(results, lang) {
        let _ = writeln!(out, "{line}");
    }
    out.push_str(&human::closing(results, Counting::Graded, lang));
    out
}

/// What `h` would do next: "stuck? h shows hint 2 of 4".
fn hint_offer(session: &Session, name: &str) -> String {
    let app = &session.app;
    let lang = app.lang;
    let total = app.course.exercise(name).map_or(0, |e| e.hints.len());
    let asked = app.progress.hint_level(name);
    if total == 0 {
        lang.pick("this exercise has no hints", "这个练习没有提示")
            .to_string()
    } else if asked < total {
        lang.pick(
            format!("stuck? h shows hint {} of {total}", asked + 1),
            format!("卡住了？按 h 看第 {} 条提示（共 {total} 条）", asked + 1),
        )
    } else {
        lang.pick(
            "h shows the hints again".to_string(),
            "按 h 再看一遍提示".to_string(),
        )
    }
}

/// After a pass: where to go from here.
fn next_step(session: &Session) -> String {
    let app = &session.app;
    let lang = app.lang;
    match app.current_name() {
        Some(next) => {
            let title = app
                .course
                .exercise(&next)
                .map(|e| e.title.get(lang).to_string())
                .unwrap_or_default();
            lang.pick(
                format!("Next: {next} — {title} (press n to go on)"),
                format!("下一个：{next} — {title}（按 n 继续）"),
            )
        }
        None => lang
            .pick(
                "That was the last one: every exercise is done. Press n for the finish.",
                "这是最后一个：所有练习都完成了。按 n 结束。",
            )
            .to_string(),
    }
}

fn finished(session: &Session) -> String {
    let lang = session.app.lang;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        lang.pick(
            "Every exercise is done. Well played!",
            "所有练习都完成了，干得漂亮！"
        )
        .green()
        .bold()
    );
    let _ = writeln!(
        out,
        "{}",
        lang.pick(
            "c grades them all again, l opens any of them, q quits.",
            "按 c 全部重新检查，按 l 打开任意练习，按 q 退出。",
        )
    );
    if let Some(results) = &session.checked {
        out.push_str(&checked(results, lang));
    }
    out
}

fn exercise_list(session: &Session, selected: usize) -> String {
    let lang = session.app.lang;
    let mut out = String::new();
    let _ = writeln!(out, "{}\n", lang.pick("Exercises", "练习列表").bold());
    let lines = student::list_lines(&session.app.course, &session.app.standings(), lang);
    for (index, line) in lines {
        let cursor = if index == Some(selected) {
            ">".cyan().bold()
        } else {
            " ".normal()
        };
        let _ = writeln!(out, "{cursor} {line}");
    }
    out
}

/// What is going on: a run, or how the next one will start and how long the last took.
fn status(session: &Session) -> String {
    let lang = session.app.lang;
    match &session.busy {
        Some(Busy::Grading(_)) => {
            let name = session.shown.as_deref().unwrap_or_default();
            return lang
                .pick(format!("Running {name}…"), format!("正在运行 {name}…"))
                .yellow()
                .to_string();
        }
        Some(Busy::Checking) => {
            return lang
                .pick("Checking every exercise…", "正在检查全部练习…")
                .yellow()
                .to_string();
        }
        None => {}
    }
    if session.shown.is_none() {
        // Nothing is watched once every exercise is done and none is open.
        return lang
            .pick(
                "Every exercise is done: nothing to watch until you open one (l).",
                "所有练习都完成了：打开一个练习（按 l）之前不会监视任何文件。",
            )
            .dimmed()
            .to_string();
    }
    let mut line = match &session.how {
        How::Manual => lang
            .pick(
                "Manual mode: press r to run after saving.",
                "手动模式：保存后按 r 运行。",
            )
            .to_string(),
        How::Notify => lang
            .pick(
                "Watching: every save runs the exercise again.",
                "监视中：每次保存都会重新运行。",
            )
            .to_string(),
        How::Poll(None) => lang
            .pick(
                "Looking for saves every half second (--poll).",
                "每半秒检查一次是否保存（--poll）。",
            )
            .to_string(),
        How::Poll(Some(reason)) => lang.pick(
            format!(
                "File notifications failed ({reason}): looking for saves every half second instead."
            ),
            format!("文件通知不可用（{reason}）：改为每半秒检查一次是否保存。"),
        ),
    };
    if let Some(took) = session.last_run {
        line.push_str(&lang.pick(
            format!(" Last run: {:.2} s.", took.as_secs_f64()),
            format!(" 上次运行用时 {:.2} 秒。", took.as_secs_f64()),
        ));
    }
    line.dimmed().to_string()
}

/// The keys that work here; at the reset question, the question itself.
fn footer(session: &Session) -> String {
    let lang = session.app.lang;
    match session.mode {
        Mode::ConfirmReset => {
            let file = session
                .shown
                .as_deref()
                .and_then(|name| session.app.course.exercise(name).ok())
                .map(|exercise| exercise.path.clone())
                .unwrap_or_default();
            format!("{} [y/N]", student::reset_question(&file, lang))
                .yellow()
                .bold()
                .to_string()
        }
        Mode::List { .. } => keys(&[
            ("↑↓", lang.pick("choose", "选择"), true),
            ("Enter", lang.pick("open", "打开"), true),
            ("Esc", lang.pick("back", "返回"), true),
        ]),
        Mode::Exercise => {
            let passed = session
                .shown
                .as_deref()
                .is_some_and(|name| session.app.progress.is_done(name));
            keys(&[
                ("n", lang.pick("next", "下一个"), passed),
                ("h", lang.pick("hint", "提示"), true),
                ("l", lang.pick("list", "列表"), true),
                ("r", lang.pick("run", "运行"), true),
                ("c", lang.pick("check all", "全部检查"), true),
                ("x", lang.pick("reset", "重置"), true),
                ("q", lang.pick("quit", "退出"), true),
            ])
        }
    }
}

/// `n next  h hint  ...`, each key in bold; a key that does nothing yet is dimmed.
fn keys(keys: &[(&str, &str, bool)]) -> String {
    keys.iter()
        .map(|(key, what, active)| {
            if *active {
                format!("{} {what}", key.bold())
            } else {
                format!("{key} {what}").dimmed().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("  ")
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crossterm::event::KeyCode;

    use super::*;
    use crate::course::fixture::{Case, CaseConfig};
    use crate::grade::results::CaseResult;
    use crate::verdict::{Finding, Status};
    use crate::watch::session::tests::{app, char_key, graded, key, started};

    fn screen(session: &Session) -> String {
        crate::util::style::strip_ansi(&render(session, 80, 24))
    }

    /// A result of exercise `a` with `failing` wrong-output cases after one that passed.
    fn failing(failing: usize) -> ExerciseResult {
        let case = |index: usize, passed: bool| CaseResult {
            case: Case {
                name: format!("{index:02}_case"),
                input: None,
                expected_path: PathBuf::from("x.out"),
                config: CaseConfig::default(),
                given: Vec::new(),
                expected_files: Vec::new(),
                hidden: false,
            },
            finding: if passed {
                Finding::Passed
            } else {
                Finding::WrongOutput
            },
            mode: crate::verdict::compare::CompareMode::Lines,
            elapsed: std::time::Duration::ZERO,
            input: Vec::new(),
            given: Vec::new(),
            expected: b"black\n".to_vec(),
            stdout: if passed {
                b"black\n".to_vec()
            } else {
                b"none\n".to_vec()
            },
            stderr: Vec::new(),
            expected_files: Vec::new(),
            left_files: Vec::new(),
            conversation: Vec::new(),
            mistake: None,
            diverged: None,
        };
        ExerciseResult {
            name: "a".into(),
            title: crate::util::i18n::Text::Plain("a".into()),
            chapter: crate::course::Chapter::implicit(),
            source: PathBuf::from("exercises/a.c"),
            status: Status::Failed,
            unchanged: false,
            diagnostics: String::new(),
            cases: std::iter::once(case(0, true))
                .chain((1..=failing).map(|index| case(index, false)))
                .collect(),
            hidden_total: None,
        }
    }

    #[test]
    fn a_failure_offers_the_next_hint_and_a_pass_the_next_exercise() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        let shown = screen(&session);
        assert!(
            shown.contains("Save exercises/a.c to run it again; stuck? h shows hint 1 of 2."),
            "{shown}"
        );
        char_key(&mut session, 'h');
        char_key(&mut session, 'h');
        let shown = screen(&session);
        assert!(shown.contains("h shows the hints again"), "{shown}");
        assert!(shown.contains("Hint 2 of 2 (a): second"), "{shown}");
        graded(&mut session, "a", true);
        let shown = screen(&session);
        assert!(shown.contains("✓ a passed!"), "{shown}");
        assert!(shown.contains("Next: b — b (press n to go on)"), "{shown}");
        assert!(!shown.contains("stuck?"), "{shown}");
    }

    #[test]
    fn a_tall_report_is_cut_to_the_screen_with_the_keys_kept() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        let event = crate::watch::events::Event::Graded("a".into(), Ok(Box::new(failing(30))));
        session.handle(event).unwrap();
        let shown = screen(&session);
        assert_eq!(shown.lines().count(), 24, "the window, filled: {shown}");
        // The note counts exactly the lines left out of the whole report.
        let whole = crate::util::style::strip_ansi(&render(&session, 80, 10_000));
        let left_out: usize = shown
            .lines()
            .find_map(|line| line.strip_prefix("… ")?.split(' ').next()?.parse().ok())
            .expect("a note of the lines left out");
        assert_eq!(whole.lines().count(), shown.lines().count() - 1 + left_out);
        assert!(
            shown.contains("1/31 cases passed"),
            "the totals first: {shown}"
        );
        assert!(
            shown.contains("-black") && shown.contains("+none"),
            "{shown}"
        );
        assert!(
            shown.contains("more lines: `clings run a` prints the whole report"),
            "{shown}"
        );
        assert!(
            shown.ends_with("q quit"),
            "the keys stay at the bottom: {shown}"
        );
        // A short report is not cut.
        let event = crate::watch::events::Event::Graded("a".into(), Ok(Box::new(failing(1))));
        session.take_requests();
        session.handle(event).unwrap();
        assert!(!screen(&session).contains("more lines"));
    }

    #[test]
    fn every_screen_shows_where_the_student_is() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        assert!(screen(&session).contains("Running a…"));
        graded(&mut session, "a", false);
        assert!(screen(&session).contains("Watching: every save runs the exercise again."));
        char_key(&mut session, 'x');
        assert!(screen(&session).ends_with(
            "Reset exercises/a.c to the original skeleton? Your changes will be lost. [y/N]"
        ));
        char_key(&mut session, 'n');
        char_key(&mut session, 'l');
        key(&mut session, KeyCode::Down);
        let shown = screen(&session);
        assert!(
            shown.contains("> → current  a") || shown.contains("→ current  a"),
            "{shown}"
        );
        assert!(shown.contains(">   pending  b"), "the cursor on b: {shown}");
        key(&mut session, KeyCode::Esc);
        char_key(&mut session, 'c');
        assert!(screen(&session).contains("Checking every exercise…"));
        let results = ["a", "b", "c"]
            .iter()
            .map(|name| crate::watch::session::tests::result(name, true))
            .collect();
        session
            .handle(crate::watch::events::Event::Checked(results))
            .unwrap();
        let shown = screen(&session);
        assert!(shown.contains("Every exercise, graded again:"), "{shown}");
        assert!(shown.contains("3 passed, 0 failed"), "{shown}");
        char_key(&mut session, 'n');
        let shown = screen(&session);
        assert!(
            shown.contains("Every exercise is done. Well played!"),
            "{shown}"
        );
        assert!(shown.contains("nothing to watch"), "{shown}");
    }

    #[test]
    fn checking_everything_counts_practice_as_test_does() {
        let result = |name: &str, graded: bool, passed: bool| {
            let mut result = crate::watch::session::tests::result(name, passed).unwrap();
            result.chapter = crate::course::Chapter {
                name: if graded { "core" } else { "extra" }.into(),
                title: crate::util::i18n::Text::Plain(if graded { "Core" } else { "Extra" }.into()),
                graded,
            };
            result
        };
        let shown = checked(
            &[result("a", true, true), result("b", false, false)],
            Lang::En,
        );
        assert!(
            shown.ends_with(
                "Result: passed (practice does not count toward it: Extra; --count-practice \
                 counts it)\n1 passed, 1 failed\n"
            ),
            "{shown}"
        );
    }
}
