//! The watch session: which exercise is on screen, what its last run found, what the
//! student asked for. It turns each event into a change of that state; `screen` draws it.

use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use colored::Colorize;
use crossterm::event::KeyEvent;

use super::events::Event;
use super::files::{Fingerprint, How};
use super::keys::{self, Action, Keymap};
use super::runner::Runner;
use super::screen;
use super::terminal::Terminal;
use crate::app::App;
use crate::commands::{hint, reset, test};
use crate::grade::ExerciseResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Exercise,
    /// The list of exercises, with the row the cursor is on.
    List {
        selected: usize,
    },
    /// The y/n question before resetting the exercise on screen.
    ConfirmReset,
}

/// What the grading thread is doing for us.
pub enum Busy {
    Grading(Instant),
    Checking,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

pub struct Session<'a> {
    pub app: &'a mut App,
    runner: Runner,
    /// How saves are noticed (or not, in manual mode).
    pub how: How,
    /// The exercise on screen; `None` once the course is finished and the student moved on.
    pub shown: Option<String>,
    pub mode: Mode,
    /// The last result of the shown exercise, or why grading it failed.
    pub result: Option<Result<ExerciseResult, String>>,
    pub busy: Option<Busy>,
    /// A save came during a run: once the run ends, the file is looked at again.
    save_pending: bool,
    /// A key pressed during a run: it takes effect once the run ends, so a student who
    /// presses `n` the moment a result appears is not ignored by a run still finishing.
    deferred: Option<Action>,
    /// The version of the shown file that the last run started from.
    graded: Option<Fingerprint>,
    /// How long the last run took, from the request to the result.
    pub last_run: Option<Duration>,
    /// Whether the hints revealed so far are on screen (after `h`).
    pub show_hints: bool,
    /// The report of the last `c`, one line per exercise and the summary line.
    pub checked: Option<Vec<String>>,
    /// Lasting messages: toolchain warnings.
    pub notices: Vec<String>,
    /// The answer to the last key (or a one-off note); gone at the next key.
    pub message: Option<String>,
}

impl<'a> Session<'a> {
    pub fn new(app: &'a mut App, runner: Runner, how: How, message: Option<String>) -> Self {
        let shown = app.current_name();
        Session {
            app,
            runner,
            how,
            shown,
            mode: Mode::Exercise,
            result: None,
            busy: None,
            save_pending: false,
            deferred: None,
            graded: None,
            last_run: None,
            show_hints: false,
            checked: None,
            notices: Vec::new(),
            message,
        }
    }

    /// Grades the current exercise, then answers events until the student quits.
    pub fn run(&mut self, events: &Receiver<Event>, terminal: &mut Terminal) -> Result<()> {
        self.start_run()?;
        loop {
            terminal.draw(&screen::render(self))?;
            let event = events
                .recv()
                .context("watch mode lost every source of events")?;
            if self.handle(event)? == Flow::Quit {
                return Ok(());
            }
            // Whatever else already waits is handled before drawing again.
            while let Ok(event) = events.try_recv() {
                if self.handle(event)? == Flow::Quit {
                    return Ok(());
                }
            }
        }
    }

    /// The absolute path of an exercise's file, as file events name it.
    pub fn file_of(&self, name: &str) -> Option<PathBuf> {
        let exercise = self.app.course.exercise(name).ok()?;
        Some(self.app.course.root.join(&exercise.path))
    }

    fn handle(&mut self, event: Event) -> Result<Flow> {
        match event {
            Event::Key(key) => return self.on_key(key),
            Event::Resize => {}
            Event::Saved(path) => self.on_saved(&path)?,
            Event::Graded(name, result) => self.on_graded(&name, result)?,
            Event::Checked(results) => self.on_checked(results)?,
            Event::Notice(text) => self.notices.push(text),
            Event::Signal => return Ok(Flow::Quit),
            Event::InputFailed(err) => {
                return Err(err).context("cannot read keys from the terminal");
            }
        }
        Ok(Flow::Continue)
    }

    /// Grades the shown exercise, or, while the grading thread is busy, remembers to
    /// look at the file again when it is done: saves during a run are never lost, and
    /// a burst of them costs one more run, not one each.
    fn start_run(&mut self) -> Result<()> {
        let Some(name) = self.shown.clone() else {
            return Ok(());
        };
        if self.busy.is_some() {
            self.save_pending = true;
            return Ok(());
        }
        self.graded = self.file_of(&name).and_then(|file| Fingerprint::of(&file));
        self.runner.grade(&name)?;
        self.busy = Some(Busy::Grading(Instant::now()));
        self.checked = None;
        Ok(())
    }

    fn on_saved(&mut self, path: &std::path::Path) -> Result<()> {
        let Some(name) = self.shown.clone() else {
            return Ok(());
        };
        if self.file_of(&name).as_deref() != Some(path) {
            return Ok(());
        }
        if self.busy.is_some() {
            self.save_pending = true;
        } else if Fingerprint::of(path) != self.graded {
            // Several notices of one save (notifications and polling) run it once.
            self.start_run()?;
        }
        Ok(())
    }

    fn after_run(&mut self) -> Result<()> {
        if std::mem::take(&mut self.save_pending)
            && let Some(file) = self.shown.as_deref().and_then(|name| self.file_of(name))
            && Fingerprint::of(&file) != self.graded
        {
            return self.start_run();
        }
        match self.deferred.take() {
            Some(action) if self.busy.is_none() => {
                self.message = None;
                self.exercise_key(action)
            }
            _ => Ok(()),
        }
    }

    fn on_graded(&mut self, name: &str, result: Result<ExerciseResult>) -> Result<()> {
        if let Some(Busy::Grading(started)) = self.busy.take() {
            self.last_run = Some(started.elapsed());
        }
        if self.shown.as_deref() == Some(name) {
            if let Ok(result) = &result {
                // A pass moves "current" on, as `clings run` does; a failure keeps the
                // student here and, as `clings test` does, undoes an earlier pass.
                let progress = &mut self.app.progress;
                if result.passed() {
                    progress.mark_done(name);
                } else {
                    progress.mark_pending(name);
                    progress.set_current(name);
                }
                if let Err(err) = progress.save() {
                    self.message = Some(error_text(&err, self.app.lang));
                }
            }
            let lang = self.app.lang;
            self.result = Some(result.map_err(|err| crate::i18n::error_text(&err, lang)));
        }
        self.after_run()
    }

    fn on_checked(&mut self, results: Result<Vec<ExerciseResult>>) -> Result<()> {
        self.busy = None;
        let lang = self.app.lang;
        match results {
            Err(err) => self.message = Some(error_text(&err, self.app.lang)),
            Ok(results) => {
                let width = results.iter().map(|r| r.name.len()).max().unwrap_or(0);
                let mut lines = vec![
                    lang.pick("Every exercise, graded again:", "全部练习重新检查的结果：")
                        .bold()
                        .to_string(),
                ];
                for result in &results {
                    let status = format!("{:<13}", result.status.as_str());
                    let status = if result.passed() {
                        status.green()
                    } else {
                        status.red().bold()
                    };
                    let points = lang.pick(
                        format!("{}/{} points", result.points(), result.max_points()),
                        format!("得分 {}/{}", result.points(), result.max_points()),
                    );
                    lines.push(format!("  {status} {:<width$}  {points}", result.name));
                }
                lines.push(crate::report::human::summary(&results));
                let mut saved = test::record(&mut self.app.progress, &results);
                if let Some(name) = self.shown.clone() {
                    // Recording moves "current" past every passed exercise; the student
                    // stays where they are.
                    if !self.app.progress.is_done(&name) {
                        self.app.progress.set_current(&name);
                        saved = saved.and_then(|()| self.app.progress.save());
                    }
                    self.result = results
                        .into_iter()
                        .find(|result| result.name == name)
                        .map(Ok);
                }
                if let Err(err) = saved {
                    self.message = Some(error_text(&err, self.app.lang));
                }
                self.checked = Some(lines);
            }
        }
        self.after_run()
    }

    fn on_key(&mut self, key: KeyEvent) -> Result<Flow> {
        self.message = None;
        let keymap = match self.mode {
            Mode::Exercise => Keymap::Exercise,
            Mode::List { .. } => Keymap::List,
            Mode::ConfirmReset => Keymap::Confirm,
        };
        let action = keys::action(key, keymap);
        if action == Action::Quit {
            return Ok(Flow::Quit);
        }
        match self.mode {
            Mode::Exercise => self.exercise_key(action)?,
            Mode::List { selected } => self.list_key(action, selected)?,
            Mode::ConfirmReset => self.confirm_key(action)?,
        }
        Ok(Flow::Continue)
    }

    fn exercise_key(&mut self, action: Action) -> Result<()> {
        let lang = self.app.lang;
        if self.busy.is_some() && action != Action::Ignore {
            self.deferred = Some(action);
            self.message = Some(
                lang.pick(
                    "Still running: the key takes effect when the result is in (q quits).",
                    "还在运行：结果出来后再执行这个按键（按 q 退出）。",
                )
                .to_string(),
            );
            return Ok(());
        }
        match action {
            Action::Next => self.next()?,
            Action::Hint => {
                if let Some(name) = self.shown.clone() {
                    if let Err(err) = hint::reveal_next(self.app, &name) {
                        self.message = Some(error_text(&err, self.app.lang));
                    }
                    self.show_hints = true;
                }
            }
            Action::List => {
                let on = self.shown.clone().or_else(|| self.app.current_name());
                let selected = on
                    .and_then(|name| {
                        self.app
                            .course
                            .exercises
                            .iter()
                            .position(|exercise| exercise.name == name)
                    })
                    .unwrap_or(0);
                self.mode = Mode::List { selected };
            }
            Action::Run => self.start_run()?,
            Action::CheckAll => {
                self.runner.check_all()?;
                self.busy = Some(Busy::Checking);
            }
            Action::Reset if self.shown.is_some() => self.mode = Mode::ConfirmReset,
            Action::Unknown(key) => self.message = Some(unknown_key(key, lang)),
            _ => {}
        }
        Ok(())
    }

    /// `n`: on to the next unfinished exercise, once the one on screen passes.
    fn next(&mut self) -> Result<()> {
        let lang = self.app.lang;
        let Some(name) = self.shown.clone() else {
            self.message = Some(
                lang.pick(
                    "Every exercise is done: l opens any of them again.",
                    "所有练习都完成了：按 l 可以重新打开任何一个。",
                )
                .to_string(),
            );
            return Ok(());
        };
        if !self.app.progress.is_done(&name) {
            self.message = Some(lang.pick(
                format!(
                    "{name} does not pass yet: n moves on once every case passes (h shows a hint)."
                ),
                format!("{name} 还没有通过：所有用例通过后才能按 n 继续（按 h 看提示）。"),
            ));
            return Ok(());
        }
        let next = self.app.current_name();
        self.show(next)
    }

    /// Puts `name` on screen with a clean slate and grades it.
    fn show(&mut self, name: Option<String>) -> Result<()> {
        self.shown = name;
        self.mode = Mode::Exercise;
        self.result = None;
        self.show_hints = false;
        self.checked = None;
        self.graded = None;
        self.save_pending = false;
        self.start_run()
    }

    fn list_key(&mut self, action: Action, selected: usize) -> Result<()> {
        let lang = self.app.lang;
        let last = self.app.course.exercises.len().saturating_sub(1);
        let selected = match action {
            Action::Up => selected.saturating_sub(1),
            Action::Down => (selected + 1).min(last),
            Action::Top => 0,
            Action::Bottom => last,
            Action::Back => {
                self.mode = Mode::Exercise;
                return Ok(());
            }
            Action::Open if self.busy.is_some() => {
                self.message = Some(
                    lang.pick(
                        "Still running: wait for the result, then open it.",
                        "还在运行：请等结果出来再打开。",
                    )
                    .to_string(),
                );
                selected
            }
            Action::Open => {
                let name = self.app.course.exercises[selected].name.clone();
                self.app.progress.set_current(&name);
                if let Err(err) = self.app.progress.save() {
                    self.message = Some(error_text(&err, self.app.lang));
                }
                return self.show(Some(name));
            }
            Action::Unknown(key) => {
                self.message = Some(unknown_key(key, lang));
                selected
            }
            _ => selected,
        };
        self.mode = Mode::List { selected };
        Ok(())
    }

    fn confirm_key(&mut self, action: Action) -> Result<()> {
        self.mode = Mode::Exercise;
        let Some(name) = self.shown.clone() else {
            return Ok(());
        };
        if action != Action::Yes {
            self.message = Some(reset::unchanged(self.app.lang).to_string());
            return Ok(());
        }
        match reset::restore(self.app, &name) {
            Ok(()) => {
                let file = self.app.course.exercise(&name)?.path.clone();
                self.message = Some(reset::restored(&file, self.app.lang));
                self.show_hints = false;
                self.start_run()?;
            }
            Err(err) => self.message = Some(error_text(&err, self.app.lang)),
        }
        Ok(())
    }
}

fn error_text(err: &anyhow::Error, lang: crate::i18n::Lang) -> String {
    let text = crate::i18n::error_text(err, lang);
    format!("{}{text}", lang.pick("error: ", "错误："))
        .red()
        .to_string()
}

fn unknown_key(key: char, lang: crate::i18n::Lang) -> String {
    lang.pick(
        format!("`{key}` does nothing here: the keys are listed below."),
        format!("`{key}` 在这里没有作用：可用的按键列在下方。"),
    )
}
