//! A course's checker: a program that judges a case's output where more than one answer is
//! right. It follows the convention of Kattis' output validators, so that existing ones
//! can be used as they are: it runs as `checker INPUT ANSWER FEEDBACK_DIR` with the
//! program's output on its stdin, exits 42 to accept and 43 to reject, and may leave a
//! message for the student in `FEEDBACK_DIR/teammessage.txt` (and one for the course's
//! authors in `judgemessage.txt`). Any other end is the course's error, never the student's.
//!
//! The checker is the course's code, trusted to judge, but it reads what the student's
//! program wrote: it runs in the sandbox like any program, with the course's limits, in a
//! scratch directory holding the input and the answer, which is its feedback directory.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::fixture::Case;
use crate::sandbox::{Job, Left, Limits, Program, RunFiles, Sandbox, Termination};
use crate::style;
use crate::verdict::Checked;

/// Kattis' exit statuses for an accepted and a rejected output.
const ACCEPTED: i32 = 42;
const REJECTED: i32 = 43;

/// The message for the student, and the one for the course's authors.
const TEAM_MESSAGE: &str = "teammessage.txt";
const JUDGE_MESSAGE: &str = "judgemessage.txt";

/// The longest message shown, in characters: a checker may quote the output at length.
const MESSAGE_CHARS: usize = 300;

/// A course's checker, built.
pub struct Checker {
    /// Its source, as the course names it (for the course's errors).
    pub source: PathBuf,
    pub program: PathBuf,
}

impl Checker {
    /// Judges `output`, what the program printed on `case`.
    pub fn check(
        &self,
        sandbox: &Sandbox,
        env: &[(String, String)],
        limits: Limits,
        case: &Case,
        output: &[u8],
    ) -> Result<Checked> {
        let scratch = tempfile::tempdir().context("cannot make room for the checker")?;
        let write = |name: &str, bytes: &[u8]| -> Result<PathBuf> {
            let path = scratch.path().join(name);
            std::fs::File::create(&path)
                .and_then(|mut file| file.write_all(bytes))
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(path)
        };
        let input = match &case.input {
            Some(path) => path.clone(),
            None => write("input", b"")?,
        };
        let output = write("output", output)?;
        let given = [
            ("input".to_string(), input),
            ("answer".to_string(), case.expected_path.clone()),
        ];
        let collect = [TEAM_MESSAGE.to_string(), JUDGE_MESSAGE.to_string()];
        let args = ["input", "answer", "."].map(String::from);
        let job = Job {
            program: Program::Built(&self.program),
            args: &args,
            input: Some(&output),
            env,
            workdir: None,
            files: RunFiles {
                given: &given,
                collect: &collect,
            },
        };
        let outcome = sandbox.run(&job, limits)?;
        let message = |name: &str| {
            outcome.files.iter().find_map(|(file, left)| match left {
                Left::File(bytes) if file == name => Some(shorten(bytes)),
                _ => None,
            })
        };
        match (outcome.stopped, outcome.termination) {
            (None, Termination::Exited(ACCEPTED)) => Ok(Checked::Accepted),
            (None, Termination::Exited(REJECTED)) => Ok(Checked::Rejected(
                message(TEAM_MESSAGE)
                    .filter(|text| !text.is_empty())
                    .or_else(|| message(JUDGE_MESSAGE))
                    .unwrap_or_default(),
            )),
            (stopped, termination) => bail!(
                "the course's checker {} failed on case {} ({}): a checker must exit with \
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
                }
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
