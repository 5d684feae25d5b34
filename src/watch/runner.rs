//! Grading on a thread of its own, so the screen keeps answering keys during a long run
//! (a program that loops until the time limit, on every case) and `q` quits at once.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use anyhow::{Context, Result, anyhow};

use super::events::Event;
use crate::course::Course;
use crate::grade::{Grader, GraderOptions};

/// What the session asks of the grading thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Grade the named exercise; the result arrives as [`Event::Graded`].
    Grade(String),
    /// Grade every exercise; the results arrive as [`Event::Checked`].
    CheckAll,
    /// Stop the grading under way: it ends with [`crate::sandbox::Cancelled`].
    Cancel,
}

pub struct Runner {
    requests: Sender<Request>,
}

impl Runner {
    /// Starts the grading thread with its own copy of the course; it finds the compiler
    /// first, and reports the toolchain's warnings as notices.
    pub fn start(course: Course, options: GraderOptions, events: Sender<Event>) -> Result<Runner> {
        let (requests, received) = mpsc::channel();
        thread::Builder::new()
            .name("grader".into())
            .spawn(move || serve(&course, options, received, events))
            .context("cannot start the grading thread")?;
        Ok(Runner { requests })
    }

    pub fn send(&self, request: Request) -> Result<()> {
        if request == Request::Cancel {
            // The grading thread is busy with the grading to stop: this cannot wait in line.
            crate::sandbox::cancel();
            return Ok(());
        }
        self.requests
            .send(request)
            .map_err(|_| anyhow!("the grading thread stopped unexpectedly"))
    }
}

fn serve(
    course: &Course,
    options: GraderOptions,
    requests: Receiver<Request>,
    events: Sender<Event>,
) {
    let grader = Grader::new(course, options)
        .map_err(|err| crate::util::i18n::error_text(&err, options.lang));
    if let Ok(grader) = &grader {
        for warning in &grader.warnings {
            let _ = events.send(Event::Notice(format!("warning: {warning}")));
        }
    }
    for request in requests {
        crate::sandbox::resume();
        let event = match (&grader, request) {
            // Done by `send` itself, never queued.
            (_, Request::Cancel) => continue,
            (Err(err), Request::Grade(name)) => Event::Graded(name, Err(anyhow!("{err}"))),
            (Err(err), Request::CheckAll) => Event::Checked(Err(anyhow!("{err}"))),
            (Ok(grader), Request::Grade(name)) => {
                let result = course
                    .exercise(&name)
                    .and_then(|exercise| grader.grade(exercise));
                Event::Graded(name, result.map(Box::new))
            }
            (Ok(grader), Request::CheckAll) => Event::Checked(
                course
                    .exercises
                    .iter()
                    .map(|exercise| grader.grade(exercise))
                    .collect(),
            ),
        };
        if events.send(event).is_err() {
            return;
        }
    }
}
