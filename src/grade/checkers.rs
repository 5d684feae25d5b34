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
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::compile::cache::Executable;
use crate::course::fixture::Case;
use crate::sandbox::{
    Conversation, Job, Left, Limits, Outcome, Pair, Relay, RunFiles, Sandbox, Side, Table,
    Termination,
};
use crate::util::style;
use crate::verdict::{Checked, JudgedBy};

/// Kattis' exit statuses for an accepted and a rejected output.
const ACCEPTED: i32 = 42;
const REJECTED: i32 = 43;

/// The message for the student, and the one for the course's authors.
const TEAM_MESSAGE: &str = "teammessage.txt";
const JUDGE_MESSAGE: &str = "judgemessage.txt";
/// What a referee leaves after a battle (see referees/README.md, "Battle mode").
pub const RESULT: &str = "result.txt";
pub const MOVES: &str = "moves.txt";
pub const CHATTER: &str = "chatter.txt";
const BATTLE_FILES: [&str; 4] = [RESULT, MOVES, CHATTER, TEAM_MESSAGE];

/// The longest message shown, in characters: a validator may quote the output at length.
const MESSAGE_CHARS: usize = 300;

/// How much longer than the program a referee may run: it has the last word.
const REFEREE_GRACE: Duration = Duration::from_secs(1);
/// How long a program may go on once its referee has ended; then clings ends it. A
/// referee that cares whether the program stops by itself waits for it before it ends.
const GAME_OVER_GRACE: Duration = Duration::from_millis(200);
/// How often a battle's watcher is shown the game.
const WATCH_EVERY: Duration = Duration::from_millis(30);

/// A course's checker or referee, built.
pub struct Validator {
    pub role: JudgedBy,
    /// Its source, as the course names it (for the course's errors).
    pub source: PathBuf,
    pub program: Executable,
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

/// What a battle came to: the files the referee left ([`RESULT`], [`MOVES`], its
/// message) and how each player ran, A's first.
pub struct Battled {
    pub files: Vec<(String, Left)>,
    pub players: [Outcome; 2],
}

/// A validator's run: its arguments, the case's input and answer under the names it is
/// given, and the messages it may leave.
struct Inputs {
    scratch: tempfile::TempDir,
    args: [String; 3],
    given: [(String, PathBuf); 2],
    collect: Vec<String>,
}

impl Inputs {
    fn new(case: &Case) -> Result<Inputs> {
        let scratch = tempfile::tempdir().context("cannot make room for the validator")?;
        let input = match &case.input {
            Some(path) => path.clone(),
            None => write(&scratch, "input", b"")?,
        };
        let messages = [TEAM_MESSAGE, JUDGE_MESSAGE];
        Ok(Inputs::in_scratch(
            scratch,
            input,
            case.expected_path.clone(),
            &messages,
        ))
    }

    /// A battle's: its setup as the input, no answer, and the game's record to leave.
    fn battle(setup: &str) -> Result<Inputs> {
        let scratch = tempfile::tempdir().context("cannot make room for the referee")?;
        let input = write(&scratch, "input", setup.as_bytes())?;
        let answer = write(&scratch, "answer", b"")?;
        Ok(Inputs::in_scratch(scratch, input, answer, &BATTLE_FILES))
    }

    fn in_scratch(
        scratch: tempfile::TempDir,
        input: PathBuf,
        answer: PathBuf,
        collect: &[&str],
    ) -> Inputs {
        Inputs {
            args: ["input", "answer", "."].map(String::from),
            given: [("input".to_string(), input), ("answer".to_string(), answer)],
            collect: collect.iter().map(|name| name.to_string()).collect(),
            scratch,
        }
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
        let (referee, referee_limits) = self.referee(
            &inputs,
            pair.referee_stdin.as_fd(),
            &pair.from_referee,
            limits,
        );
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

    /// A game between two programs, refereed in the referee's battle mode: `setup` is its
    /// input (`battle`, and what else the referee reads), `players` the two programs,
    /// `A` first. `watch` is shown the referee's commands as the game goes. The referee
    /// judges the game (a player that crashed ended before the game did); how each player
    /// ran is given beside, to say why. Each player runs under its `limits` (their wall
    /// time alike: A's bounds the referee's).
    pub fn battle(
        &self,
        sandbox: &Sandbox,
        limits: [Limits; 2],
        setup: &str,
        players: [Job; 2],
        watch: &(dyn Fn(&Conversation) + Sync),
    ) -> Result<Battled> {
        let inputs = Inputs::battle(setup)?;
        let table = Table::new()?;
        let (referee, referee_limits) = self.referee(
            &inputs,
            table.referee_stdin.as_fd(),
            &table.from_referee,
            limits[0],
        );
        let [a, b] = players;
        let seated =
            |side: usize| Some((table.player_stdins[side].as_fd(), &table.from_players[side]));
        let players = [
            Job {
                conversation: seated(0),
                ..a
            },
            Job {
                conversation: seated(1),
                ..b
            },
        ];
        let (player_ended, ended) = mpsc::channel::<()>();
        let done = [AtomicBool::new(false), AtomicBool::new(false)];
        let (refereed, outcomes) = std::thread::scope(|scope| {
            let (referee, table, done) = (&referee, &table, &done);
            let refereed = scope.spawn(move || {
                let refereed = sandbox.run(referee, referee_limits);
                // The game is over: a player still running after a moment is ended.
                if let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(GAME_OVER_GRACE) {
                    for (relay, done) in table.from_players.iter().zip(done) {
                        if !done.load(Ordering::SeqCst) {
                            relay.end_writer();
                        }
                    }
                }
                refereed
            });
            let running: Vec<_> = players
                .iter()
                .zip(done)
                .zip(limits)
                .map(|((player, done), limits)| {
                    let ended = player_ended.clone();
                    scope.spawn(move || {
                        let outcome = sandbox.run(player, limits);
                        done.store(true, Ordering::SeqCst);
                        drop(ended);
                        outcome
                    })
                })
                .collect();
            drop(player_ended);
            while !refereed.is_finished() {
                watch(&table.conversation);
                std::thread::sleep(WATCH_EVERY);
            }
            watch(&table.conversation);
            let outcomes: Vec<_> = running.into_iter().map(|run| run.join()).collect();
            (refereed.join(), outcomes)
        });
        let refereed = refereed.map_err(|_| anyhow::anyhow!("the referee's thread panicked"))??;
        let mut players = Vec::with_capacity(2);
        for outcome in outcomes {
            players.push(outcome.map_err(|_| anyhow::anyhow!("a player's thread panicked"))??);
        }
        let players: [Outcome; 2] = players
            .try_into()
            .map_err(|_| anyhow::anyhow!("two players"))?;
        match (refereed.stopped, refereed.termination) {
            (None, Termination::Exited(ACCEPTED)) => Ok(Battled {
                files: refereed.files,
                players,
            }),
            (stopped, termination) => bail!(
                "the course's referee {} failed in a battle ({}): after a battle it must exit \
                 with {ACCEPTED}; this is the course's error, not the players'{}",
                self.source.display(),
                match stopped {
                    Some(stop) => format!("stopped: {stop:?}"),
                    None => format!("{termination:?}"),
                },
                said(&refereed),
            ),
        }
    }

    /// The referee's run in a conversation: its files, its stdin and the relay of what
    /// it says, and the players' `limits` with a second more (it has the last word).
    fn referee<'a>(
        &'a self,
        inputs: &'a Inputs,
        stdin: BorrowedFd<'a>,
        relay: &'a Arc<Relay>,
        limits: Limits,
    ) -> (Job<'a>, Limits) {
        let job = Job {
            conversation: Some((stdin, relay)),
            ..inputs.job(&self.program, None, &self.env)
        };
        let limits = Limits {
            wall_time: limits.wall_time + REFEREE_GRACE,
            ..limits
        };
        (job, limits)
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
                // It read the case's input and answer: what it said of a hidden case's
                // may quote them.
                match case.hidden {
                    true => String::new(),
                    false => said(outcome),
                },
                role = self.role.name(),
            ),
        }
    }
}

/// What a validator that failed wrote on stderr, for the course's authors.
fn said(outcome: &Outcome) -> String {
    match String::from_utf8_lossy(&outcome.stderr).trim() {
        "" => String::new(),
        said => format!("\nit said: {}", style::visible(said)),
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
