//! Watch mode, the student's default loop (`clings` without a command): the current
//! exercise's result on screen, graded again on every save, with keys for the next
//! exercise, hints, the list, a check of everything and a reset.
//!
//! Threads feed one channel of [`events::Event`]s (keys, debounced saves, results from
//! the grading thread, signals); the loop here hands them to the [`session::Session`]
//! one at a time, passes what it asks for on to the grading thread, and has [`screen`]
//! draw it after each batch.

mod events;
mod files;
mod keys;
mod runner;
mod screen;
mod session;
mod terminal;

use std::io::IsTerminal;
use std::sync::mpsc::{self, Receiver};

use anyhow::{Context, Result};

use crate::app::App;
use crate::commands::{self, Exit};
use crate::compile::editor_flags;

/// How saves start a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Only `r` runs: nothing watches the files.
    pub manual: bool,
    /// Look for saves by polling only, without file notifications.
    pub poll: bool,
}

pub fn run(app: &mut App, options: Options) -> Result<Exit> {
    let lang = app.lang;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        // Piped or in CI: no keys to read and no screen to draw, so do the one useful
        // thing watch mode would have started with.
        eprintln!(
            "{}",
            lang.pick(
                "Watch mode needs a terminal; running `clings run next` once instead.",
                "监视模式需要终端；改为运行一次 `clings run next`。",
            )
        );
        return commands::run::grade_and_move_on(app, "next");
    }
    let message = match editor_flags::write_flags(&app.course) {
        Ok(Some(_)) => Some(lang.pick(
            format!("Wrote {}: editors that use clangd now check the exercises with the course's flags.", editor_flags::FLAGS_FILE),
            format!("已写入 {}：使用 clangd 的编辑器会按课程的编译选项检查练习。", editor_flags::FLAGS_FILE),
        )),
        Ok(None) => None,
        Err(err) => Some(format!("warning: {err:#}")),
    };

    let (sender, events) = mpsc::channel();
    let runner = runner::Runner::start(app.course.clone(), app.grader_options(), sender.clone())?;
    // Kept until the session ends: dropping it stops the notifications.
    let (_watch, how) = if options.manual {
        (None, files::How::Manual)
    } else {
        let files = app
            .course
            .exercises
            .iter()
            .map(|exercise| app.course.root.join(&exercise.path))
            .collect();
        let watch = files::watch(files, options.poll, sender.clone())?;
        let how = watch.how.clone();
        (Some(watch), how)
    };
    let mut terminal = terminal::Terminal::enter()?;
    events::spawn_keys(sender.clone())?;
    events::spawn_signals(sender)?;
    let mut session = session::Session::new(app, how, message);
    let ended = serve(&mut session, &runner, &events, &mut terminal);
    drop(terminal);
    // The screen's last line has no newline: what follows starts on a line of its own.
    println!();
    let ended = ended?;
    println!(
        "\n{}",
        lang.pick(
            "See you! Run `clings` again to carry on where you left off.",
            "下次见！再次运行 `clings` 就能从这里继续。",
        )
    );
    Ok(match ended {
        session::Flow::Stopped(signal) => Exit::Stopped(signal),
        _ => Exit::Success,
    })
}

/// Grades the current exercise, then answers events until the student quits; how the
/// session ended.
fn serve(
    session: &mut session::Session,
    runner: &runner::Runner,
    events: &Receiver<events::Event>,
    terminal: &mut terminal::Terminal,
) -> Result<session::Flow> {
    session.start();
    loop {
        for request in session.take_requests() {
            runner.send(request)?;
        }
        let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
        terminal.draw(&screen::render(session, width.into(), height.into()))?;
        let event = events
            .recv()
            .context("watch mode lost every source of events")?;
        let mut flow = session.handle(event)?;
        // Whatever else already waits is handled before drawing again.
        while flow == session::Flow::Continue {
            let Ok(event) = events.try_recv() else { break };
            flow = session.handle(event)?;
        }
        if flow != session::Flow::Continue {
            return Ok(flow);
        }
    }
}
