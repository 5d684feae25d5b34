//! Everything watch mode reacts to arrives as one [`Event`] on one channel: keys from the
//! terminal, saves from the file watcher, results from the grading thread, signals. The
//! session handles them one at a time, so it never has to share its state.

use std::io;
use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::thread;

use anyhow::{Context, Result};
use crossterm::event::{self, KeyEvent, KeyEventKind};
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::grade::results::ExerciseResult;

pub enum Event {
    Key(KeyEvent),
    /// The terminal changed size: draw again.
    Resize,
    /// An exercise file was saved (after the debounce); the absolute path.
    Saved(PathBuf),
    /// The grading thread finished grading the named exercise (boxed: a result is large,
    /// and most events are a key).
    Graded(String, Result<Box<ExerciseResult>>),
    /// The grading thread finished grading every exercise, in course order.
    Checked(Result<Vec<ExerciseResult>>),
    /// Something the student should know that is no error, e.g. a toolchain warning.
    Notice(String),
    /// A signal asked clings to stop (kill, a closed terminal window): its number.
    Signal(i32),
    /// Reading the terminal failed: watch mode cannot go on.
    InputFailed(io::Error),
}

/// Reads keys on a thread of its own, so the session can wait on one channel for
/// everything. The thread ends with the process.
pub fn spawn_keys(events: Sender<Event>) -> Result<()> {
    thread::Builder::new()
        .name("keys".into())
        .spawn(move || {
            loop {
                let event = match event::read() {
                    // Terminals that report releases and repeats (the kitty protocol)
                    // would otherwise act on each key twice.
                    Ok(event::Event::Key(key)) if key.kind == KeyEventKind::Press => {
                        Event::Key(key)
                    }
                    Ok(event::Event::Resize(..)) => Event::Resize,
                    Ok(_) => continue,
                    Err(err) => {
                        let _ = events.send(Event::InputFailed(err));
                        return;
                    }
                };
                if events.send(event).is_err() {
                    return;
                }
            }
        })
        .context("cannot start the thread that reads keys")?;
    Ok(())
}

/// Turns the signals that end a program into an [`Event::Signal`], so the session ends
/// through its normal path and the terminal is restored. (Ctrl-C itself arrives as a key:
/// raw mode turns signal keys off.)
pub fn spawn_signals(events: Sender<Event>) -> Result<()> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])
        .context("cannot install the signal handlers")?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _ = events.send(Event::Signal(signal));
            }
        })
        .context("cannot start the thread that handles signals")?;
    Ok(())
}
