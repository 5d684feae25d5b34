//! Cases judged by a program of the course's, in Kattis' conventions, so that existing
//! ones can be used as they are:
//! - a **checker** (Kattis' output validator) judges an output where more than one answer
//!   is right: it runs as `checker INPUT ANSWER FEEDBACK_DIR` with the program's output on
//!   its stdin;
//! - a **referee** (Kattis' interactor) talks with the program: it runs as
//!   `referee INPUT ANSWER FEEDBACK_DIR` while the program runs, each reading what the
//!   other writes (clings passes it on and keeps the conversation, see
//!   [`crate::sandbox::Pair`]).
//!
//! Either exits 42 to accept and 43 to reject, and may leave a message for the student in
//! `FEEDBACK_DIR/teammessage.txt` (and one for the course's authors in `judgemessage.txt`).
//! Any other end is the course's error, never the student's. They are the course's code,
//! trusted to judge, but they read what the student's program wrote: each runs in the
//! sandbox like any program, with the case's limits, in a scratch directory that holds the
//! input and the answer and is its feedback directory.

use std::io::Write;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::fixture::Case;
use crate::sandbox::{Job, Left, Limits, Outcome, Pair, RunFiles, Sandbox, Side, Termination};
use crate::style;
use crate::verdict::{Checked, JudgedBy};

/// Kattis' exit statuses for an accepted and a rejected output.
const ACCEPTED: i32 = 42;
const REJECTED: i32 = 43;

/// The message for the student, and the one for the course's authors.
const TEAM_MESSAGE: &str = "teammessage.txt";
const JUDGE_MESSAGE: &str = "judgemessage.txt";

/// The longest message shown, in characters: a validator may quote the output at length.
const MESSAGE_CHARS: usize = 300;

/// How much longer than the program a referee may run: it has the last word.
const REFEREE_GRACE: Duration = Duration::from_secs(1);
/// How long a program may go on once its referee has ended; then clings ends it. A
/// referee that cares whether the program stops by itself waits for it before it ends.
const GAME_OVER_GRACE: Duration = Duration::from_millis(200);

/// A course's checker or referee, built.
pub struct Validator {
    pub role: JudgedBy,
    /// Its source, as the course names it (for the course's errors).
    pub source: PathBuf,
    pub program: PathBuf,
    /// Its runtime environment (the sanitizers' options), made once per grading.
    pub env: Vec<(String, String)>,
}

/// What a game between a program and the referee came to.
pub struct Played {
    /// How the student's program ran, what it wrote and left.
    pub outcome: Outcome,
    pub checked: Checked,
    /// Who said what, in order.
    pub conversation: Vec<(Side, String)>,
}

/// A validator's run: its arguments, the case's input and answer under the names it is
/// given, and the messages it may leave.
struct Inputs {
    scratch: tempfile::TempDir,
    args: [String; 3],
    given: [(String, PathBuf); 2],
    collect: [String; 2],
}

impl Inputs {
    fn new(case: &Case) -> Result<Inputs> {
        let scratch = tempfile::tempdir().context("cannot make room for the validator")?;
        let input = match &case.input {
            Some(path) => path.clone(),
            None => write(&scratch, "input", b"")?,
        };
        Ok(Inputs {
            args: ["input", "answer", "."].map(String::from),
            given: [
                ("input".to_string(), input),
                ("answer".to_string(), case.expected_path.clone()),
            ],
            collect: [TEAM_MESSAGE.to_string(), JUDGE_MESSAGE.to_string()],
            scratch,
        })
    }

    /// The validator's job: `program` run as `program INPUT ANSWER FEEDBACK_DIR`, reading
    /// `stdin`.
    fn job<'a>(
        &'a self,
        program: &'a Path,
        stdin: Option<&'a Path>,
        env: &'a [(String, String)],
    ) -> Job<'a> {
        Job {
            args: &self.args,
            files: RunFiles {
                given: &self.given,
                collect: &self.collect,
            },
            ..Job::program(program, stdin, env)
        }
    }
}

fn write(scratch: &tempfile::TempDir, name: &str, bytes: &[u8]) -> Result<PathBuf> {
    let path = scratch.path().join(name);
    std::fs::File::create(&path)
        .and_then(|mut file| file.write_all(bytes))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

impl Validator {
    /// The checker's word on `output`, what the program printed on `case`.
    pub fn check(
        &self,
        sandbox: &Sandbox,
        limits: Limits,
        case: &Case,
        output: &[u8],
    ) -> Result<Checked> {
        let inputs = Inputs::new(case)?;
        let output = write(&inputs.scratch, "output", output)?;
        let outcome = sandbox.run(&inputs.job(&self.program, Some(&output), &self.env), limits)?;
        self.verdict(&outcome, case)
    }

    /// Runs `program` (the student's run of `case`) in conversation with the referee.
    pub fn play(
        &self,
        sandbox: &Sandbox,
        limits: Limits,
        case: &Case,
        program: Job,
    ) -> Result<Played> {
        let inputs = Inputs::new(case)?;
        let pair = Pair::new()?;
        let referee = Job {
            conversation: Some((pair.referee_stdin.as_fd(), &pair.from_referee)),
            ..inputs.job(&self.program, None, &self.env)
        };
        let referee_limits = Limits {
            wall_time: limits.wall_time + REFEREE_GRACE,
            ..limits
        };
        let program = Job {
            conversation: Some((pair.program_stdin.as_fd(), &pair.from_program)),
            ..program
        };
        let (program_ended, ended) = mpsc::channel::<()>();
        let (refereed, outcome) = std::thread::scope(|scope| {
            let (referee, pair) = (&referee, &pair);
            let refereed = scope.spawn(move || {
                let refereed = sandbox.run(referee, referee_limits);
                // The game is over: a program still running after a moment is ended, and
                // the referee (which saw it go on) has the last word.
                if let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(GAME_OVER_GRACE) {
                    pair.from_program.end_writer();
                }
                refereed
            });
            let outcome = sandbox.run(&program, limits);
            drop(program_ended);
            (refereed.join(), outcome)
        });
        let refereed = refereed.map_err(|_| anyhow::anyhow!("the referee's thread panicked"))??;
        let outcome = outcome?;
        Ok(Played {
            checked: self.verdict(&refereed, case)?,
            outcome,
            conversation: pair.conversation.lines(),
        })
    }

    /// Accepted or rejected, as the validator ended; any other end is the course's error.
    fn verdict(&self, outcome: &Outcome, case: &Case) -> Result<Checked> {
        let message = |name: &str| {
            outcome.files.iter().find_map(|(file, left)| match left {
                Left::File(bytes) if file == name => Some(shorten(bytes)),
                _ => None,
            })
        };
        match (outcome.stopped, outcome.termination) {
            (None, Termination::Exited(ACCEPTED)) => Ok(Checked::Accepted),
            (None, Termination::Exited(REJECTED)) => Ok(Checked::Rejected {
                by: self.role,
                message: message(TEAM_MESSAGE)
                    .filter(|text| !text.is_empty())
                    .or_else(|| message(JUDGE_MESSAGE))
                    .unwrap_or_default(),
            }),
            (stopped, termination) => bail!(
                "the course's {role} {} failed on case {} ({}): a {role} must exit with \
                 {ACCEPTED} (accepted) or {REJECTED} (rejected); this is the course's error, \
                 not the student's{}",
                self.source.display(),
                case.name,
                match stopped {
                    Some(stop) => format!("stopped: {stop:?}"),
                    None => format!("{termination:?}"),
                },
                match String::from_utf8_lossy(&outcome.stderr).trim() {
                    "" => String::new(),
                    said => format!("\nit said: {}", style::visible(said)),
                },
                role = self.role.name(),
            ),
        }
    }
}

/// A message as one line of at most [`MESSAGE_CHARS`] characters, control characters
/// escaped.
fn shorten(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = line.chars().take(MESSAGE_CHARS).collect();
    let cut = if short.len() < line.len() { "…" } else { "" };
    format!("{}{cut}", style::visible(&short))
}

#[cfg(test)]
mod tests {
    #[test]
    fn messages_are_one_short_visible_line() {
        assert_eq!(
            super::shorten(b"  wrong\n divisor \x1b[31m 9\n"),
            "wrong divisor \\x1b[31m 9"
        );
        let long = "x".repeat(400);
        let shown = super::shorten(long.as_bytes());
        assert_eq!(shown.chars().count(), super::MESSAGE_CHARS + 1);
        assert!(shown.ends_with('…'));
    }
}
