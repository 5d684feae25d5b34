//! Two programs in conversation, each in a sandbox of its own: an interactive case's program
//! and the course's referee. Neither holds a pipe to the other: clings reads what each one
//! writes (counted against its output limit, like any output), passes it on to the other
//! as it comes, and keeps the conversation, who said what, for the report. When one side
//! stops writing (it closed its stdout, or ended), the other reads the end of its input.

use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};

use super::process::Group;

/// Who said it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The student's program.
    Program,
    /// The course's referee.
    Referee,
}

/// What the two sides said, in the order clings read it.
#[derive(Default)]
pub struct Conversation {
    said: Mutex<Vec<(Side, Vec<u8>)>>,
}

impl Conversation {
    /// The conversation as lines, each with its side; a line cut short by the end of the
    /// conversation is kept.
    pub fn lines(&self) -> Vec<(Side, String)> {
        let said = self.said.lock().expect("conversation lock");
        let mut lines: Vec<(Side, String)> = Vec::new();
        // Bytes of each side not yet ended by a newline: one side may write half a line,
        // then the other answer, then the first finish its line.
        let mut partial: [(Side, Vec<u8>); 2] =
            [(Side::Program, Vec::new()), (Side::Referee, Vec::new())];
        for (side, bytes) in said.iter() {
            let pending = &mut partial[*side as usize].1;
            for &byte in bytes {
                if byte == b'\n' {
                    lines.push((*side, String::from_utf8_lossy(pending).into_owned()));
                    pending.clear();
                } else {
                    pending.push(byte);
                }
            }
        }
        for (side, pending) in partial {
            if !pending.is_empty() {
                lines.push((side, String::from_utf8_lossy(&pending).into_owned()));
            }
        }
        lines
    }
}

/// One direction of the conversation: what `side` writes, on its way to the other.
pub struct Relay {
    side: Side,
    /// The other side's stdin; gone once `side` has stopped writing, or the other side
    /// stopped reading.
    to: Mutex<Option<File>>,
    conversation: Arc<Conversation>,
    /// The run writing, once it has started: to be ended when the conversation is over.
    writer: Mutex<Option<Arc<Group>>>,
    /// Whether the conversation ended while `side` still ran, and clings ended it.
    ended_writer: AtomicBool,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Relay from {:?}", self.side)
    }
}

impl Relay {
    /// Passes `bytes`, which `side` wrote, on to the other side, and keeps them.
    pub fn pass(&self, bytes: &[u8]) {
        self.conversation
            .said
            .lock()
            .expect("conversation lock")
            .push((self.side, bytes.to_vec()));
        let mut to = self.to.lock().expect("relay lock");
        // A side that stopped reading (it ended) is written to no more.
        if let Some(file) = to.as_mut()
            && file.write_all(bytes).is_err()
        {
            *to = None;
        }
    }

    /// `side` has stopped writing: the other side reads the end of its input.
    pub fn close(&self) {
        self.to.lock().expect("relay lock").take();
    }

    /// The run of `side` has started, as `group`.
    pub fn attach(&self, group: &Arc<Group>) {
        let mut writer = self.writer.lock().expect("relay lock");
        *writer = Some(Arc::clone(group));
        if self.ended_writer.load(Ordering::SeqCst) {
            group.kill();
        }
    }

    /// The conversation is over (the referee has ended) but `side` still runs: clings ends
    /// it, now or as soon as it starts.
    pub fn end_writer(&self) {
        let writer = self.writer.lock().expect("relay lock");
        self.ended_writer.store(true, Ordering::SeqCst);
        if let Some(group) = writer.as_ref() {
            group.kill();
        }
    }

    /// Whether clings ended the run of `side` because the conversation was over.
    pub fn writer_ended(&self) -> bool {
        self.ended_writer.load(Ordering::SeqCst)
    }
}

/// The two directions of a conversation, and the stdin of each side.
pub struct Pair {
    /// What the program writes, on its way to the referee.
    pub from_program: Arc<Relay>,
    /// What the referee writes, on its way to the program.
    pub from_referee: Arc<Relay>,
    pub program_stdin: OwnedFd,
    pub referee_stdin: OwnedFd,
    pub conversation: Arc<Conversation>,
}

impl Pair {
    pub fn new() -> Result<Pair> {
        let conversation = Arc::new(Conversation::default());
        let (program_stdin, to_program) = pipe()?;
        let (referee_stdin, to_referee) = pipe()?;
        let relay = |side, to: OwnedFd| {
            Arc::new(Relay {
                side,
                to: Mutex::new(Some(File::from(to))),
                conversation: Arc::clone(&conversation),
                writer: Mutex::new(None),
                ended_writer: AtomicBool::new(false),
            })
        };
        Ok(Pair {
            from_program: relay(Side::Program, to_referee),
            from_referee: relay(Side::Referee, to_program),
            program_stdin,
            referee_stdin,
            conversation: Arc::clone(&conversation),
        })
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).context("cannot create a pipe")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn each_side_is_passed_on_and_kept_line_by_line() {
        let pair = Pair::new().unwrap();
        pair.from_referee.pass(b"X\n");
        pair.from_program.pass(b"7 ");
        pair.from_referee.pass(b"7 8\n");
        pair.from_program.pass(b"7\nhalf");
        pair.from_program.close();
        pair.from_referee.close();
        let lines = pair.conversation.lines();
        assert_eq!(
            lines,
            [
                (Side::Referee, "X".to_string()),
                (Side::Referee, "7 8".to_string()),
                (Side::Program, "7 7".to_string()),
                (Side::Program, "half".to_string()),
            ]
        );
        // Each side's stdin got what the other wrote, then its end.
        let mut referee_read = String::new();
        File::from(pair.referee_stdin)
            .read_to_string(&mut referee_read)
            .unwrap();
        assert_eq!(referee_read, "7 7\nhalf");
        let mut program_read = String::new();
        File::from(pair.program_stdin)
            .read_to_string(&mut program_read)
            .unwrap();
        assert_eq!(program_read, "X\n7 8\n");
    }
}
