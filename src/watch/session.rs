//! The watch session: which exercise is on screen, what its last run found, what the
//! student asked for. A state machine: each event changes the state and may queue
//! requests for the grading thread; it reads no keys, waits for nothing and draws nothing
//! (the loop in `watch` does, and `screen` draws the state).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use colored::Colorize;
use crossterm::event::KeyEvent;
use signal_hook::consts::SIGINT;

use super::events::Event;
use super::files::{Fingerprint, How};
use super::keys::{self, Action, Keymap};
use super::runner::Request;
use crate::app::App;
use crate::grade::results::ExerciseResult;
use crate::report::student;
use crate::sandbox::Cancelled;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
    /// Ended by Ctrl-C or by a signal (its number): clings exits as a program it stopped.
    Stopped(i32),
}

pub struct Session<'a> {
    pub app: &'a mut App,
    /// Asked of the grading thread since the loop last took them.
    requests: Vec<Request>,
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
    /// What the last `c` found, every exercise in course order.
    pub checked: Option<Vec<ExerciseResult>>,
    /// Lasting messages: toolchain warnings.
    pub notices: Vec<String>,
    /// The answer to the last key (or a one-off note); gone at the next key.
    pub message: Option<String>,
}

impl<'a> Session<'a> {
    pub fn new(app: &'a mut App, how: How, message: Option<String>) -> Self {
        let shown = app.current_name();
        Session {
            app,
            requests: Vec::new(),
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

    /// Grades the exercise on screen: the first thing a session does.
    pub fn start(&mut self) {
        self.start_run();
    }

    /// The requests for the grading thread queued since the last call, oldest first.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// The absolute path of an exercise's file, as file events name it.
    pub fn file_of(&self, name: &str) -> Option<PathBuf> {
        let exercise = self.app.course.exercise(name).ok()?;
        Some(self.app.course.root.join(&exercise.path))
    }

    /// Changes the state as `event` asks; `Flow::Quit` when the session is over.
    pub fn handle(&mut self, event: Event) -> Result<Flow> {
        let flow = self.change(event);
        if let Some(notice) = self.app.progress.unsaved_notice() {
            self.notices.push(format!("warning: {notice}"));
        }
        flow
    }

    fn change(&mut self, event: Event) -> Result<Flow> {
        match event {
            Event::Key(key) => return Ok(self.on_key(key)),
            Event::Resize => {}
            Event::Saved(path) => self.on_saved(&path),
            Event::Graded(name, result) => self.on_graded(&name, result.map(|result| *result)),
            Event::Checked(results) => self.on_checked(results),
            Event::Notice(text) => self.notices.push(text),
            Event::Signal(signal) => return Ok(Flow::Stopped(signal)),
            Event::InputFailed(err) => {
                return Err(err).context("cannot read keys from the terminal");
            }
        }
        Ok(Flow::Continue)
    }

    /// Grades the shown exercise, or, while the grading thread is busy, remembers to
    /// look at the file again when it is done: saves during a run are never lost, and
    /// a burst of them costs one more run, not one each.
    fn start_run(&mut self) {
        let Some(name) = self.shown.clone() else {
            return;
        };
        if self.busy.is_some() {
            self.save_pending = true;
            return;
        }
        self.graded = self.file_of(&name).and_then(|file| Fingerprint::of(&file));
        self.requests.push(Request::Grade(name));
        self.busy = Some(Busy::Grading(Instant::now()));
        self.checked = None;
    }

    fn on_saved(&mut self, path: &std::path::Path) {
        let Some(name) = self.shown.clone() else {
            return;
        };
        if self.file_of(&name).as_deref() != Some(path) {
            return;
        }
        if self.busy.is_some() {
            // A grading of the file as it was is moot: stopped, the file is graded again
            // at once. Checking every exercise goes on; the file is graded after it.
            if matches!(self.busy, Some(Busy::Grading(_)))
                && !self.save_pending
                && Fingerprint::of(path) != self.graded
            {
                self.requests.push(Request::Cancel);
            }
            self.save_pending = true;
        } else if Fingerprint::of(path) != self.graded {
            // Several notices of one save (notifications and polling) run it once.
            self.start_run();
        }
    }

    fn after_run(&mut self) {
        if std::mem::take(&mut self.save_pending)
            && let Some(file) = self.shown.as_deref().and_then(|name| self.file_of(name))
            && Fingerprint::of(&file) != self.graded
        {
            self.start_run();
            return;
        }
        // Nothing runs now: a key pressed during the run takes effect.
        if let Some(action) = self.deferred.take() {
            self.message = None;
            self.exercise_key(action);
        }
    }

    fn on_graded(&mut self, name: &str, result: Result<ExerciseResult>) {
        if let Some(Busy::Grading(started)) = self.busy.take() {
            self.last_run = Some(started.elapsed());
        }
        let cancelled = result
            .as_ref()
            .is_err_and(|err| err.downcast_ref::<Cancelled>().is_some());
        if self.shown.as_deref() == Some(name) && !cancelled {
            // What the last key did (a reset, a hint) is old news once a new result is in.
            self.message = None;
            if let Ok(result) = &result {
                self.message = self.recorded(std::slice::from_ref(result), Some(name));
            }
            let lang = self.app.lang;
            self.result = Some(result.map_err(|err| crate::util::i18n::error_text(&err, lang)));
        }
        self.after_run()
    }

    fn on_checked(&mut self, results: Result<Vec<ExerciseResult>>) {
        self.busy = None;
        match results {
            Err(err) => self.message = Some(error_text(&err, self.app.lang)),
            Ok(results) => {
                // The student stays on the exercise on screen, whatever else passed.
                let shown = self.shown.clone();
                self.message = self.recorded(&results, shown.as_deref());
                if let Some(name) = &self.shown {
                    self.result = results
                        .iter()
                        .find(|result| &result.name == name)
                        .cloned()
                        .map(Ok);
                }
                self.checked = Some(results);
            }
        }
        self.after_run()
    }

    /// Records `results` into the progress; what is to be said of it: an error, or the
    /// reference solutions it earned.
    fn recorded(&mut self, results: &[ExerciseResult], focus: Option<&str>) -> Option<String> {
        let lang = self.app.lang;
        match self.app.record(results, focus) {
            Err(err) => Some(error_text(&err, lang)),
            Ok(solutions) if solutions.is_empty() => None,
            Ok(solutions) => Some(
                solutions
                    .iter()
                    .map(|path| student::solution_written(path, lang))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Flow {
        self.message = None;
        let keymap = match self.mode {
            Mode::Exercise => Keymap::Exercise,
            Mode::List { .. } => Keymap::List,
            Mode::ConfirmReset => Keymap::Confirm,
        };
        let action = keys::action(key, keymap);
        match action {
            Action::Quit => return Flow::Quit,
            Action::Interrupt => return Flow::Stopped(SIGINT),
            _ => {}
        }
        match self.mode {
            Mode::Exercise => self.exercise_key(action),
            Mode::List { selected } => self.list_key(action, selected),
            Mode::ConfirmReset => self.confirm_key(action),
        }
        Flow::Continue
    }

    fn exercise_key(&mut self, action: Action) {
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
            return;
        }
        match action {
            Action::Next => self.next(),
            Action::Hint => {
                if let Some(name) = self.shown.clone() {
                    if let Err(err) = self.app.reveal_hint(&name) {
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
            Action::Run => self.start_run(),
            Action::CheckAll => {
                self.requests.push(Request::CheckAll);
                self.busy = Some(Busy::Checking);
            }
            Action::Reset if self.shown.is_some() => self.mode = Mode::ConfirmReset,
            Action::Unknown(key) => self.message = Some(unknown_key(key, lang)),
            _ => {}
        }
    }

    /// `n`: on to the next unfinished exercise, once the one on screen passes.
    fn next(&mut self) {
        let lang = self.app.lang;
        let Some(name) = self.shown.clone() else {
            self.message = Some(
                lang.pick(
                    "Every exercise is done: l opens any of them again.",
                    "所有练习都完成了：按 l 可以重新打开任何一个。",
                )
                .to_string(),
            );
            return;
        };
        if !self.app.progress.is_done(&name) {
            self.message = Some(lang.pick(
                format!(
                    "{name} does not pass yet: n moves on once every case passes (h shows a hint)."
                ),
                format!("{name} 还没有通过：所有用例通过后才能按 n 继续（按 h 看提示）。"),
            ));
            return;
        }
        let next = self.app.current_name();
        self.show(next)
    }

    /// Puts `name` on screen with a clean slate and grades it.
    fn show(&mut self, name: Option<String>) {
        self.shown = name;
        self.mode = Mode::Exercise;
        self.result = None;
        self.show_hints = false;
        self.checked = None;
        self.graded = None;
        self.save_pending = false;
        self.start_run()
    }

    fn list_key(&mut self, action: Action, selected: usize) {
        let lang = self.app.lang;
        let last = self.app.course.exercises.len().saturating_sub(1);
        let selected = match action {
            Action::Up => selected.saturating_sub(1),
            Action::Down => (selected + 1).min(last),
            Action::Top => 0,
            Action::Bottom => last,
            Action::Back => {
                self.mode = Mode::Exercise;
                return;
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
                if let Err(err) = self.app.open_exercise(&name) {
                    self.message = Some(error_text(&err, self.app.lang));
                }
                self.show(Some(name));
                return;
            }
            Action::Unknown(key) => {
                self.message = Some(unknown_key(key, lang));
                selected
            }
            _ => selected,
        };
        self.mode = Mode::List { selected };
    }

    fn confirm_key(&mut self, action: Action) {
        self.mode = Mode::Exercise;
        let Some(name) = self.shown.clone() else {
            return;
        };
        if action != Action::Yes {
            self.message = Some(student::reset_declined(self.app.lang).to_string());
            return;
        }
        let reset = self.app.reset(&name).and_then(|()| {
            let exercise = self.app.course.exercise(&name)?;
            Ok(exercise.path.clone())
        });
        match reset {
            Ok(file) => {
                self.message = Some(student::reset_done(&file, self.app.lang));
                self.show_hints = false;
                self.start_run();
            }
            Err(err) => self.message = Some(error_text(&err, self.app.lang)),
        }
    }
}

fn error_text(err: &anyhow::Error, lang: crate::util::i18n::Lang) -> String {
    let text = crate::util::i18n::error_text(err, lang);
    format!("{}{text}", lang.pick("error: ", "错误："))
        .red()
        .to_string()
}

fn unknown_key(key: char, lang: crate::util::i18n::Lang) -> String {
    lang.pick(
        format!("`{key}` does nothing here: the keys are listed below."),
        format!("`{key}` 在这里没有作用：可用的按键列在下方。"),
    )
}

#[cfg(test)]
pub(in crate::watch) mod tests {
    use std::path::Path;

    use crossterm::event::{KeyCode, KeyModifiers};
    use signal_hook::consts::SIGTERM;

    use super::*;
    use crate::course::Course;
    use crate::grade::GraderOptions;
    use crate::util::i18n::{Lang, Text};
    use crate::verdict::Status;

    /// A course of three exercises, `a` to `c`, each with its file, in a directory of its own.
    pub(in crate::watch) fn app() -> (tempfile::TempDir, App) {
        let dir = tempfile::tempdir().unwrap();
        let mut info = String::from("format_version = 1\n");
        std::fs::create_dir(dir.path().join("exercises")).unwrap();
        std::fs::create_dir(dir.path().join("skeletons")).unwrap();
        for name in ["a", "b", "c"] {
            std::fs::write(dir.path().join(format!("skeletons/{name}.c")), "int main;").unwrap();
            info.push_str(&format!(
                "[[exercises]]\nname = \"{name}\"\ntitle = \"{name}\"\npath = \"exercises/{name}.c\"\nhints = [\"first\", \"second\"]\n"
            ));
            std::fs::write(dir.path().join(format!("exercises/{name}.c")), "int main;").unwrap();
        }
        std::fs::write(dir.path().join("info.toml"), info).unwrap();
        let options = GraderOptions {
            jobs: 1,
            require_isolation: false,
            allow_unisolated: false,
            lang: Lang::En,
        };
        let (app, warnings) = App::load(Course::load(dir.path()).unwrap(), Lang::En, options);
        assert!(warnings.is_empty(), "{warnings:?}");
        (dir, app)
    }

    /// A session that has asked for its first grading, the request taken.
    pub(in crate::watch) fn started(app: &mut App) -> Session<'_> {
        let mut session = Session::new(app, How::Notify, None);
        session.start();
        assert_eq!(session.take_requests(), grade("a"));
        session
    }

    pub(in crate::watch) fn result(name: &str, passed: bool) -> Result<ExerciseResult> {
        Ok(ExerciseResult {
            name: name.into(),
            title: Text::Plain(name.into()),
            chapter: crate::course::Chapter::implicit(),
            source: PathBuf::from(format!("exercises/{name}.c")),
            status: if passed {
                Status::Passed
            } else {
                Status::Failed
            },
            unchanged: false,
            diagnostics: String::new(),
            cases: Vec::new(),
            hidden_total: None,
        })
    }

    pub(in crate::watch) fn key(session: &mut Session, code: KeyCode) -> Flow {
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        session.handle(Event::Key(key)).unwrap()
    }

    pub(in crate::watch) fn char_key(session: &mut Session, letter: char) -> Flow {
        key(session, KeyCode::Char(letter))
    }

    pub(in crate::watch) fn graded(session: &mut Session, name: &str, passed: bool) {
        let event = Event::Graded(name.into(), result(name, passed).map(Box::new));
        assert_eq!(session.handle(event).unwrap(), Flow::Continue);
    }

    fn grade(name: &str) -> Vec<Request> {
        vec![Request::Grade(name.into())]
    }

    /// Saves `file` with new contents (another length, so its fingerprint changes even
    /// within one tick of the file system's clock) and tells the session.
    fn save(session: &mut Session, file: &Path, contents: &str) {
        std::fs::write(file, contents).unwrap();
        session.handle(Event::Saved(file.to_path_buf())).unwrap();
    }

    #[test]
    fn a_session_grades_the_current_exercise_and_a_pass_moves_the_course_on() {
        let (dir, mut app) = app();
        let mut session = Session::new(&mut app, How::Notify, None);
        session.start();
        assert_eq!(session.take_requests(), grade("a"));
        assert!(session.busy.is_some());
        graded(&mut session, "a", true);
        assert!(session.busy.is_none() && session.take_requests().is_empty());
        assert!(matches!(&session.result, Some(Ok(result)) if result.passed()));
        assert_eq!(session.app.progress.current(), Some("b"));
        // Saved for the next clings: the pass is in the state file.
        let (app, _) = App::load(
            Course::load(dir.path()).unwrap(),
            Lang::En,
            session.app.grader_options(),
        );
        assert!(app.progress.is_done("a"));
        // `n` goes on to b with a clean slate and grades it.
        char_key(&mut session, 'n');
        assert_eq!(session.shown.as_deref(), Some("b"));
        assert!(session.result.is_none());
        assert_eq!(session.take_requests(), grade("b"));
    }

    #[test]
    fn a_failure_keeps_the_student_on_the_exercise_and_n_says_why() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", true);
        // `r` runs it again, and now it fails.
        char_key(&mut session, 'r');
        assert_eq!(session.take_requests(), grade("a"));
        graded(&mut session, "a", false);
        assert!(
            !session.app.progress.is_done("a"),
            "a failure undoes the pass"
        );
        assert_eq!(session.app.progress.current(), Some("a"));
        char_key(&mut session, 'n');
        assert_eq!(session.shown.as_deref(), Some("a"));
        assert!(session.take_requests().is_empty());
        let message = session.message.clone().unwrap_or_default();
        assert!(message.contains("does not pass yet"), "{message}");
        // The next key clears the answer to the last one.
        char_key(&mut session, 'h');
        assert!(session.message.is_none());
    }

    #[test]
    fn a_save_during_a_run_is_graded_once_when_the_run_ends() {
        let (dir, mut app) = app();
        let file = dir.path().join("exercises/a.c");
        let mut session = Session::new(&mut app, How::Notify, None);
        session.start();
        assert_eq!(session.take_requests(), grade("a"));
        // Two saves while the run goes on: the run of the old file is stopped, once...
        save(&mut session, &file, "int main(void) { return 0; }");
        assert_eq!(session.take_requests(), vec![Request::Cancel]);
        save(&mut session, &file, "int main(void) { return 1; }");
        assert!(session.take_requests().is_empty());
        // ...and when it has stopped, the file is graded once more, not twice; the stopped
        // run's "result" is no result: the screen keeps what it had.
        let cancelled = Event::Graded("a".into(), Err(crate::sandbox::Cancelled.into()));
        session.handle(cancelled).unwrap();
        assert!(session.result.is_none() && session.message.is_none());
        assert_eq!(session.take_requests(), grade("a"));
        graded(&mut session, "a", false);
        assert!(session.take_requests().is_empty());
        // A notice of a save that changed nothing (polling after a notification) runs nothing.
        session.handle(Event::Saved(file.clone())).unwrap();
        assert!(session.take_requests().is_empty());
        // Another exercise's file is not the one on screen.
        save(&mut session, &dir.path().join("exercises/b.c"), "int x;");
        assert!(session.take_requests().is_empty());
        save(&mut session, &file, "int main(void) { return 22; }");
        assert_eq!(session.take_requests(), grade("a"));
    }

    #[test]
    fn a_save_during_a_run_that_changed_nothing_runs_nothing_more() {
        let (dir, mut app) = app();
        let file = dir.path().join("exercises/a.c");
        let mut session = started(&mut app);
        session.handle(Event::Saved(file)).unwrap();
        assert!(session.take_requests().is_empty(), "nothing to stop");
        graded(&mut session, "a", true);
        assert!(session.take_requests().is_empty());
    }

    #[test]
    fn a_key_during_a_run_takes_effect_when_the_result_is_in() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        char_key(&mut session, 'n');
        assert_eq!(session.shown.as_deref(), Some("a"));
        assert!(
            session
                .message
                .as_deref()
                .unwrap_or_default()
                .contains("Still running")
        );
        graded(&mut session, "a", true);
        // The deferred `n`, now that a passed.
        assert_eq!(session.shown.as_deref(), Some("b"));
        assert_eq!(session.take_requests(), grade("b"));
    }

    #[test]
    fn q_ctrl_c_and_signals_end_the_session_even_during_a_run() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        assert_eq!(char_key(&mut session, 'q'), Flow::Quit);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(
            session.handle(Event::Key(ctrl_c)).unwrap(),
            Flow::Stopped(SIGINT)
        );
        assert_eq!(
            session.handle(Event::Signal(SIGTERM)).unwrap(),
            Flow::Stopped(SIGTERM)
        );
        assert_eq!(
            session.handle(Event::Resize).unwrap(),
            Flow::Continue,
            "a resize only draws again"
        );
    }

    #[test]
    fn hints_are_revealed_one_at_a_time_and_remembered() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        for expected in [1, 2, 2] {
            char_key(&mut session, 'h');
            assert!(session.show_hints);
            assert_eq!(session.app.progress.hint_level("a"), expected);
        }
    }

    #[test]
    fn the_list_opens_another_exercise_and_grades_it() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        char_key(&mut session, 'l');
        assert_eq!(session.mode, Mode::List { selected: 0 });
        key(&mut session, KeyCode::Down);
        key(&mut session, KeyCode::Down);
        key(&mut session, KeyCode::Down);
        assert_eq!(
            session.mode,
            Mode::List { selected: 2 },
            "stops at the last"
        );
        key(&mut session, KeyCode::Up);
        key(&mut session, KeyCode::Enter);
        assert_eq!(session.mode, Mode::Exercise);
        assert_eq!(session.shown.as_deref(), Some("b"));
        assert_eq!(session.app.progress.current(), Some("b"));
        assert_eq!(session.take_requests(), grade("b"));
        // Esc leaves the list without opening anything.
        graded(&mut session, "b", false);
        char_key(&mut session, 'l');
        key(&mut session, KeyCode::Esc);
        assert_eq!(session.mode, Mode::Exercise);
        assert!(session.take_requests().is_empty());
    }

    #[test]
    fn checking_everything_records_each_result_and_keeps_the_student_where_they_are() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        char_key(&mut session, 'c');
        assert_eq!(session.take_requests(), vec![Request::CheckAll]);
        assert!(matches!(session.busy, Some(Busy::Checking)));
        let results = ["a", "b", "c"]
            .iter()
            .map(|name| result(name, *name != "a"))
            .collect();
        session.handle(Event::Checked(results)).unwrap();
        assert!(session.busy.is_none());
        let progress = &session.app.progress;
        assert!(!progress.is_done("a") && progress.is_done("b") && progress.is_done("c"));
        assert_eq!(progress.current(), Some("a"));
        assert_eq!(session.checked.as_ref().map(Vec::len), Some(3));
        assert!(matches!(&session.result, Some(Ok(result)) if !result.passed()));
    }

    #[test]
    fn a_reset_is_asked_first_and_no_changes_nothing() {
        let (dir, mut app) = app();
        let file = dir.path().join("exercises/a.c");
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        session.take_requests();
        char_key(&mut session, 'x');
        assert_eq!(session.mode, Mode::ConfirmReset);
        char_key(&mut session, 'n');
        assert_eq!(session.mode, Mode::Exercise);
        assert_eq!(session.message.as_deref(), Some("Nothing was changed."));
        assert_eq!(std::fs::read_to_string(file).unwrap(), "int main;");
        assert!(session.take_requests().is_empty());
    }

    #[test]
    fn yes_resets_the_file_to_its_skeleton_and_grades_it_again() {
        let (dir, mut app) = app();
        let file = dir.path().join("exercises/a.c");
        let mut session = started(&mut app);
        graded(&mut session, "a", true);
        save(&mut session, &file, "int main(void) { return 3; }");
        session.take_requests();
        graded(&mut session, "a", true);
        char_key(&mut session, 'x');
        char_key(&mut session, 'y');
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "int main;");
        let message = session.message.clone().unwrap_or_default();
        assert!(
            message.contains("back to its original skeleton"),
            "{message}"
        );
        assert_eq!(session.take_requests(), grade("a"));
        // The skeleton is to be done again, and it is the student's current exercise.
        assert!(!session.app.progress.is_done("a"));
        assert_eq!(session.app.progress.current(), Some("a"));
    }

    #[test]
    fn unknown_keys_are_named_and_the_list_moves_to_either_end() {
        let (_dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        char_key(&mut session, 'z');
        let message = session.message.clone().unwrap_or_default();
        assert!(message.contains("`z` does nothing here"), "{message}");
        char_key(&mut session, 'l');
        key(&mut session, KeyCode::End);
        assert_eq!(session.mode, Mode::List { selected: 2 });
        key(&mut session, KeyCode::Home);
        assert_eq!(session.mode, Mode::List { selected: 0 });
        char_key(&mut session, 'z');
        assert!(
            session
                .message
                .as_deref()
                .unwrap_or_default()
                .contains("`z`")
        );
        assert_eq!(session.mode, Mode::List { selected: 0 }, "the list stays");
    }

    #[test]
    fn the_list_opens_nothing_during_a_run() {
        let (dir, mut app) = app();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        session.take_requests();
        char_key(&mut session, 'l');
        // A save while the list is open starts a run.
        save(
            &mut session,
            &dir.path().join("exercises/a.c"),
            "int x = 1;",
        );
        assert_eq!(session.take_requests(), grade("a"));
        key(&mut session, KeyCode::Down);
        key(&mut session, KeyCode::Enter);
        assert_eq!(session.mode, Mode::List { selected: 1 });
        assert_eq!(session.shown.as_deref(), Some("a"));
        assert!(session.take_requests().is_empty());
        assert!(
            session
                .message
                .as_deref()
                .unwrap_or_default()
                .contains("Still running")
        );
    }

    #[test]
    fn once_all_is_done_reset_asks_nothing() {
        let (_dir, mut app) = app();
        app.progress.record([("a", true), ("b", true)], None);
        let mut session = Session::new(&mut app, How::Notify, None);
        session.start();
        graded(&mut session, "c", true);
        char_key(&mut session, 'n');
        assert_eq!(session.shown, None, "every exercise is done");
        char_key(&mut session, 'x');
        assert_eq!(session.mode, Mode::Exercise);
    }

    #[test]
    fn a_reset_that_fails_says_why() {
        let (dir, mut app) = app();
        std::fs::remove_file(dir.path().join("skeletons/a.c")).unwrap();
        let mut session = started(&mut app);
        graded(&mut session, "a", false);
        session.take_requests();
        char_key(&mut session, 'x');
        char_key(&mut session, 'y');
        let message = crate::util::style::strip_ansi(&session.message.clone().unwrap_or_default());
        assert!(
            message.starts_with("error: ") && message.contains("skeletons/a.c"),
            "{message}"
        );
        assert!(session.take_requests().is_empty(), "nothing to grade again");
    }
}
