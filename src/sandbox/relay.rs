//! Two programs in conversation, each in a sandbox of its own: an interactive case's program
//! and the course's referee. Neither holds a pipe to the other: clings reads what each one
//! writes (counted against its output limit, like any output), passes it on to the other
//! as it comes, and keeps the conversation, who said what, for the report. When one side
//! stops writing (it closed its stdout, or ended), the other reads the end of its input.
//!
//! A battle seats three at a [`Table`]: two players and the referee between them. The
//! referee still has one stdin and one stdout; clings tags each player's lines for it
//! (`A 7 7`, and `eof A` at the end of A's output) and follows its commands (`to B 7 7`
//! passes a line on to B, `close B` ends B's input).
//!
//! The referee also says whose turn it is (`turn A`), and only that player runs: the other
//! one's processes are stopped (see [`Turn`]) until the turn is its own, or its game is
//! over. A player's time to move is then its own, whatever the other player's processes
//! would do meanwhile on the same cores (a player whose children spin while the other
//! thinks made that one miss its move clock).

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

/// A stdin clings writes to; gone once closed, or once its reader stopped reading.
type Stdin = Arc<Mutex<Option<File>>>;

/// Whether a battle's player may run: the write end of its run's turn channel, on which
/// the run's init is told to stop (`S`) or continue (`C`) every process of the run, and
/// whether it should be stopped now, which holds for a run not started yet too.
#[derive(Default)]
pub struct Turn {
    channel: Option<File>,
    stopped: bool,
}

/// A battle's player's [`Turn`], shared by its relay (whose run takes the channel when it
/// starts) and the referee's (whose commands give the turn).
type SharedTurn = Arc<Mutex<Turn>>;

impl Turn {
    /// The channel of the run that has just started; it is told at once if it must wait.
    fn attach(&mut self, channel: File) {
        self.channel = Some(channel);
        self.tell();
    }

    fn set(&mut self, stopped: bool) {
        if self.stopped != stopped {
            self.stopped = stopped;
            self.tell();
        }
    }

    fn tell(&mut self) {
        let order: &[u8] = if self.stopped { b"S" } else { b"C" };
        if let Some(channel) = self.channel.as_mut()
            && write_without_sigpipe(channel, order).is_err()
        {
            // The run is over.
            self.channel = None;
        }
    }
}

/// Where what a side writes goes.
enum Route {
    /// To the other side's stdin as it is: a referee and one program.
    Direct(Stdin),
    /// A battle's player: each line to the referee after the player's tag.
    Tagged {
        tag: char,
        referee: Stdin,
        turn: SharedTurn,
    },
    /// A battle's referee: its commands, to the players.
    Commands {
        players: [(char, Stdin, SharedTurn); 2],
    },
}

/// One direction of the conversation: what `side` writes, on its way to the other.
pub struct Relay {
    side: Side,
    route: Route,
    /// The start of a line not yet ended, for the routes that go line by line.
    pending: Mutex<Vec<u8>>,
    /// What a battle's player says is not kept: its lines reach the referee, whose
    /// commands are the game's record.
    kept: bool,
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
    fn new(side: Side, route: Route, conversation: &Arc<Conversation>) -> Arc<Relay> {
        Arc::new(Relay {
            side,
            kept: !matches!(route, Route::Tagged { .. }),
            route,
            pending: Mutex::new(Vec::new()),
            conversation: Arc::clone(conversation),
            writer: Mutex::new(None),
            ended_writer: AtomicBool::new(false),
        })
    }

    /// Passes `bytes`, which `side` wrote, on to the other side, and keeps them.
    pub fn pass(&self, bytes: &[u8]) {
        if self.kept {
            self.conversation
                .said
                .lock()
                .expect("conversation lock")
                .push((self.side, bytes.to_vec()));
        }
        if let Route::Direct(to) = &self.route {
            write_to(to, bytes);
            return;
        }
        let mut pending = self.pending.lock().expect("relay lock");
        pending.extend_from_slice(bytes);
        while let Some(end) = pending.iter().position(|&byte| byte == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).take(end).collect();
            self.route_line(&line);
        }
    }

    /// One whole line of a battle's player or referee, where it goes.
    fn route_line(&self, line: &[u8]) {
        match &self.route {
            Route::Direct(_) => {}
            Route::Tagged { tag, referee, .. } => {
                let mut tagged = format!("{tag} ").into_bytes();
                tagged.extend_from_slice(line);
                tagged.push(b'\n');
                write_to(referee, &tagged);
            }
            Route::Commands { players } => {
                let text = String::from_utf8_lossy(line);
                let (command, rest) = text.split_once(' ').unwrap_or((&text, ""));
                let player = |tag: &str| {
                    players
                        .iter()
                        .position(|(own, _, _)| own.to_string() == tag)
                };
                match command {
                    "to" => {
                        let (tag, said) = rest.split_once(' ').unwrap_or((rest, ""));
                        if let Some(index) = player(tag) {
                            write_to(&players[index].1, format!("{said}\n").as_bytes());
                        }
                    }
                    "turn" => {
                        if let Some(index) = player(rest.trim()) {
                            for (other, (_, _, turn)) in players.iter().enumerate() {
                                turn.lock().expect("relay lock").set(other != index);
                            }
                        }
                    }
                    "close" => {
                        if let Some(index) = player(rest.trim()) {
                            let (_, stdin, turn) = &players[index];
                            stdin.lock().expect("relay lock").take();
                            // The game is over for it: let it see the end of its input.
                            turn.lock().expect("relay lock").set(false);
                        }
                    }
                    // The referee is the course's: a line it did not mean for clings is
                    // its own business.
                    _ => {}
                }
            }
        }
    }

    /// Whether `side` goes on past its output limit, what it writes past it dropped: a
    /// battle's player, whose lines the referee reads in the game's order, needing no more
    /// than a move each (referees/README.md). Ended for flooding, it would end at a moment
    /// of the game that depends on the machine's load, and its game with it.
    pub fn outlasts_cap(&self) -> bool {
        matches!(self.route, Route::Tagged { .. })
    }

    /// `side` has stopped writing: the other side reads the end of its input (a battle's
    /// referee reads `eof` and the player's tag; once the referee has stopped, both
    /// players read the end of theirs).
    pub fn close(&self) {
        let rest = std::mem::take(&mut *self.pending.lock().expect("relay lock"));
        if !rest.is_empty() {
            self.route_line(&rest);
        }
        match &self.route {
            Route::Direct(to) => drop(to.lock().expect("relay lock").take()),
            Route::Tagged { tag, referee, .. } => {
                write_to(referee, format!("eof {tag}\n").as_bytes())
            }
            Route::Commands { players } => {
                for (_, stdin, turn) in players {
                    stdin.lock().expect("relay lock").take();
                    turn.lock().expect("relay lock").set(false);
                }
            }
        }
    }

    /// For a battle's player, whose run must be told when to wait: the read end of a new
    /// turn channel for its run's init (see [`Turn`]), whose write end this relay keeps;
    /// `None` for any other side.
    pub fn turn_channel(&self) -> Result<Option<OwnedFd>> {
        let Route::Tagged { turn, .. } = &self.route else {
            return Ok(None);
        };
        let (read, write) = pipe()?;
        turn.lock().expect("relay lock").attach(File::from(write));
        Ok(Some(read))
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
        let (program_stdin, to_program) = stdin()?;
        let (referee_stdin, to_referee) = stdin()?;
        Ok(Pair {
            from_program: Relay::new(Side::Program, Route::Direct(to_referee), &conversation),
            from_referee: Relay::new(Side::Referee, Route::Direct(to_program), &conversation),
            program_stdin,
            referee_stdin,
            conversation,
        })
    }
}

/// A battle: two players, `A` and `B`, and the referee between them.
pub struct Table {
    /// What each player writes, tagged, on its way to the referee: `A`'s first.
    pub from_players: [Arc<Relay>; 2],
    /// The referee's commands.
    pub from_referee: Arc<Relay>,
    /// Each player's stdin, `A`'s first.
    pub player_stdins: [OwnedFd; 2],
    pub referee_stdin: OwnedFd,
    /// What the referee said (its commands): the game as it went.
    pub conversation: Arc<Conversation>,
}

/// The tags of a battle's players, in the referee's protocol.
const PLAYER_TAGS: [char; 2] = ['A', 'B'];

impl Table {
    pub fn new() -> Result<Table> {
        let conversation = Arc::new(Conversation::default());
        let (a_stdin, to_a) = stdin()?;
        let (b_stdin, to_b) = stdin()?;
        let (referee_stdin, to_referee) = stdin()?;
        let [a, b] = PLAYER_TAGS;
        let turns: [SharedTurn; 2] = Default::default();
        let player = |tag, turn: &SharedTurn| {
            let route = Route::Tagged {
                tag,
                referee: Arc::clone(&to_referee),
                turn: Arc::clone(turn),
            };
            Relay::new(Side::Program, route, &conversation)
        };
        Ok(Table {
            from_players: [player(a, &turns[0]), player(b, &turns[1])],
            from_referee: Relay::new(
                Side::Referee,
                Route::Commands {
                    players: [
                        (a, to_a, Arc::clone(&turns[0])),
                        (b, to_b, Arc::clone(&turns[1])),
                    ],
                },
                &conversation,
            ),
            player_stdins: [a_stdin, b_stdin],
            referee_stdin,
            conversation,
        })
    }
}

/// Writes `bytes` to `stdin`, which is given up once its reader has stopped reading.
fn write_to(stdin: &Stdin, bytes: &[u8]) {
    let mut stdin = stdin.lock().expect("relay lock");
    if let Some(file) = stdin.as_mut()
        && write_without_sigpipe(file, bytes).is_err()
    {
        *stdin = None;
    }
}

/// Writes to a pipe whose reader may have gone (a player killed for flooding, a referee
/// that has ended) without the SIGPIPE that would end clings, which keeps the signal's
/// default to stop quietly in a shell's pipeline: the signal is blocked for this thread
/// during the write, and one the write raised is taken back before it is unblocked.
fn write_without_sigpipe(file: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    use nix::sys::signal::{SigSet, SigmaskHow, Signal};
    let pipe = SigSet::from(Signal::SIGPIPE);
    let before = pipe.thread_swap_mask(SigmaskHow::SIG_BLOCK)?;
    let written = file.write_all(bytes);
    if written
        .as_ref()
        .is_err_and(|error| error.kind() == std::io::ErrorKind::BrokenPipe)
    {
        let now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid signal set and timeout; it only dequeues a pending SIGPIPE.
        unsafe { libc::sigtimedwait(pipe.as_ref(), std::ptr::null_mut(), &now) };
    }
    before.thread_set_mask()?;
    written
}

/// A pipe for a side's stdin: its read end, and the write end clings keeps.
fn stdin() -> Result<(OwnedFd, Stdin)> {
    let (read, write) = pipe()?;
    Ok((read, Arc::new(Mutex::new(Some(File::from(write))))))
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

    #[test]
    fn only_the_player_to_move_runs_and_a_player_whose_game_is_over_goes_on() {
        let table = Table::new().unwrap();
        let [a, b] = &table.from_players;
        let a_read = a.turn_channel().unwrap().unwrap();
        // X moves first: O waits, even before its run has started.
        table.from_referee.pass(b"turn A\nto A X\nto B O\n");
        let b_read = b.turn_channel().unwrap().unwrap();
        // The referee's own run takes no turns.
        assert!(table.from_referee.turn_channel().unwrap().is_none());
        table
            .from_referee
            .pass(b"turn B\nto B 7 7\nturn A\nto A 8 8\nclose A\nclose B\n");
        drop(table);
        let read = |fd: OwnedFd| {
            let mut text = String::new();
            File::from(fd).read_to_string(&mut text).unwrap();
            text
        };
        // Each player's run is told its state when it starts, then each change.
        assert_eq!(read(a_read), "CSC");
        assert_eq!(read(b_read), "SCSC");
    }

    #[test]
    fn a_battles_players_are_tagged_for_the_referee_and_its_commands_followed() {
        let table = Table::new().unwrap();
        let [a, b] = &table.from_players;
        table.from_referee.pass(b"to A X\nto B O\nhello\n");
        a.pass(b"7 ");
        a.pass(b"7\n");
        table.from_referee.pass(b"to B 7 7\nclose A\nto A 1 1\n");
        b.pass(b"8 8\nhalf");
        b.close();
        table.from_referee.pass(b"to B 0 0\n");
        table.from_referee.close();
        // Only the referee's commands are kept: the game's record.
        let kept: Vec<String> = table
            .conversation
            .lines()
            .into_iter()
            .map(|(_, line)| line)
            .collect();
        assert_eq!(
            kept,
            [
                "to A X", "to B O", "hello", "to B 7 7", "close A", "to A 1 1", "to B 0 0"
            ]
        );
        let [a_stdin, b_stdin] = table.player_stdins;
        drop(table.from_players);
        let read = |fd: OwnedFd| {
            let mut text = String::new();
            File::from(fd).read_to_string(&mut text).unwrap();
            text
        };
        assert_eq!(read(a_stdin), "X\n", "nothing after close A");
        assert_eq!(
            read(b_stdin),
            "O\n7 7\n0 0\n",
            "ended with the referee's output"
        );
        assert_eq!(read(table.referee_stdin), "A 7 7\nB 8 8\nB half\neof B\n");
    }
}
