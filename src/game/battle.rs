//! Games between two programs (`clings battle`, `clings tournament`): each player built
//! like a student's program and run in a sandbox of its own, both talking with the
//! course's referee in its battle mode (see [`crate::grade::checkers::Validator::battle`]
//! and referees/README.md), which checks every move and decides. A player speaks the
//! lesson's protocol, or is a Gomocup engine (`gomocup:FILE`), which the referee talks to
//! in the Gomocup protocol (docs/gomocup.md). A game ends with its [`Record`]: the moves,
//! the winner and why.

use std::os::fd::BorrowedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use colored::Colorize;
use serde::{Deserialize, Serialize};

use crate::compile::cache::Executable;
use crate::course::{BOTS_DIR, Course, Exercise};
use crate::game::engine_folder::EngineFolder;
use crate::grade::checkers::{CHATTER, MOVES, RESULT, Validator};
use crate::grade::{self, Grader};
use crate::sandbox::{
    Conversation, Job, Left, Limits, MemoryEnforcement, Outcome, Program, Relay, Side, Termination,
};
use crate::util::i18n::count;
use crate::util::parallel;
use crate::util::style;
use crate::verdict::compare::CompareMode;
use crate::verdict::{self, Checked, Clock, Expected, Finding, JudgedBy, signal_name};

/// The board's size, as the course's referee plays it.
pub const SIZE: usize = 15;

/// The longest a game may last: the referee limits each move (1 s by default), and a
/// game has at most 225 of them. Engines are told it as `timeout_match`.
const GAME_TIME: Duration = Duration::from_secs(300);

/// The rules of a game: free-style Gomoku (five or more in a row win), or renju's, where
/// black (X) may not play an overline, a double four or a double three (the referee's
/// `rule renju`, referees/README.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    #[default]
    Freestyle,
    Renju,
}

impl Rules {
    pub fn is_freestyle(&self) -> bool {
        *self == Rules::Freestyle
    }

    /// The referee's case for a game between two players under these rules.
    fn battle_case(self) -> &'static str {
        match self {
            Rules::Freestyle => "battle\n",
            Rules::Renju => "battle\nrule renju\n",
        }
    }
}

impl std::str::FromStr for Rules {
    type Err = String;

    fn from_str(name: &str) -> Result<Rules, String> {
        match name {
            "freestyle" => Ok(Rules::Freestyle),
            "renju" => Ok(Rules::Renju),
            _ => Err(format!("no such rules: {name:?} (freestyle or renju)")),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stone {
    X,
    O,
}

impl Stone {
    pub fn letter(self) -> char {
        match self {
            Stone::X => 'X',
            Stone::O => 'O',
        }
    }

    /// Whose move comes after `played` moves: X begins, then they alternate.
    pub fn to_move(played: usize) -> Stone {
        match played % 2 {
            0 => Stone::X,
            _ => Stone::O,
        }
    }

    fn from_letter(letter: &str) -> Option<Stone> {
        match letter {
            "X" => Some(Stone::X),
            "O" => Some(Stone::O),
            _ => None,
        }
    }
}

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entrant {
    /// A course bot, by name (`bots/NAME.c`).
    Bot(String),
    /// A C file.
    File(PathBuf),
    /// A student's directory, in the course's layout (its `exercises/ai.c`).
    Submission(PathBuf),
    /// A Gomocup engine: a C file, built as a student's is, an executable, or a folder
    /// holding its executable and the files it reads (see [`EngineFolder`]).
    Engine(PathBuf),
}

/// What marks a player as a Gomocup engine on the command line: `gomocup:FILE`. The file
/// alone cannot say which protocol its program speaks, and a battle's players are two
/// words: a prefix marks either, and any file, the same way.
pub const ENGINE_PREFIX: &str = "gomocup:";

impl Entrant {
    pub fn parse(course: &Course, spec: &str) -> Result<Entrant> {
        if let Some(file) = spec.strip_prefix(ENGINE_PREFIX) {
            return Entrant::engine(Path::new(file));
        }
        let path = Path::new(spec);
        if path.is_dir() {
            return Ok(Entrant::Submission(path.to_path_buf()));
        }
        if path.is_file() {
            return Ok(Entrant::File(path.to_path_buf()));
        }
        let bot = course.root.join(BOTS_DIR).join(format!("{spec}.c"));
        if !spec.contains(['/', '.']) && bot.is_file() {
            return Ok(Entrant::Bot(spec.to_string()));
        }
        bail!(
            "{spec}: no such file or directory, nor a course bot (the course's bots: {})",
            Entrant::bots(course).join(", ")
        )
    }

    /// A Gomocup engine's file, a C file or an executable, or its folder.
    pub fn engine(path: &Path) -> Result<Entrant> {
        anyhow::ensure!(
            path.is_file() || path.is_dir(),
            "{}: no such file or folder: a Gomocup engine is an executable, a C file, or a \
             folder holding its executable and its files",
            path.display()
        );
        Ok(Entrant::Engine(path.to_path_buf()))
    }

    /// The names of the course's bots.
    pub fn bots(course: &Course) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(course.root.join(BOTS_DIR))
            .into_iter()
            .flatten()
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".c").map(str::to_string)
            })
            .collect();
        names.sort();
        names
    }

    /// Whether its code is someone's other than the course's (or the student's own, in
    /// the course): it must then be isolated, as any submission.
    pub fn foreign(&self, course: &Course) -> bool {
        let inside = |path: &Path| {
            let root = course.root.canonicalize();
            let path = path.canonicalize();
            matches!((root, path), (Ok(root), Ok(path)) if path.starts_with(&root))
        };
        match self {
            Entrant::Bot(_) => false,
            Entrant::File(path) | Entrant::Submission(path) | Entrant::Engine(path) => {
                !inside(path)
            }
        }
    }
}

/// The protocol a player speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The lesson's (SPEC, exercise 7): `X` or `O`, then `r c` lines.
    Lesson,
    /// Gomocup's: `START 15`, `BEGIN`, `TURN x,y`, ... (docs/gomocup.md).
    Gomocup,
}

/// One contestant: a program clings built (or an engine's executable).
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub program: Executable,
    /// A course bot, run with each game's seed.
    pub seeded: bool,
    pub protocol: Protocol,
    /// The name an engine gives itself (its answer to `ABOUT`), shown escaped.
    pub about: Option<String>,
    /// An engine given as a folder: the copy it runs in, and the folder it keeps.
    pub folder: Option<Arc<EngineFolder>>,
}

impl Player {
    /// A run of the player's program with `args`: an engine's folder is its working
    /// directory, its executable run there (where it may look for its files).
    fn job<'p>(&'p self, args: &'p [String], env: &'p [(String, String)]) -> Job<'p> {
        match &self.folder {
            Some(folder) => Job {
                program: Program::Installed(&folder.program),
                args,
                folders: Some(folder.folders()),
                ..Job::program(&self.program, None, env)
            },
            None => Job {
                args,
                ..Job::program(&self.program, None, env)
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub stone: Stone,
    pub row: u8,
    pub col: u8,
}

/// A game as the referee recorded it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The players' names: X moved first.
    pub x: String,
    pub o: String,
    /// `None` for a draw.
    pub winner: Option<Stone>,
    /// Why the game ended, in the referee's words (escaped: it may quote a player).
    pub reason: String,
    /// The winning five, when a five ended the game.
    pub five: Vec<[u8; 2]>,
    pub moves: Vec<Move>,
    /// What engines wrote for a human (`MESSAGE`, `DEBUG`, `ERROR` lines), for the
    /// teacher; written only when there is some, so that other games' records are as
    /// before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub said: Vec<Said>,
}

/// A line an engine wrote that is not a move: what it said before a move of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    pub stone: Stone,
    /// The number of the move it came before (past the last: after the game).
    pub before_move: u32,
    /// As written, escaped; or how many more lines the referee did not keep.
    pub text: String,
}

/// Where games are played: the course's referee, and the limits every player runs under.
pub struct Arena<'a> {
    grader: &'a Grader<'a>,
    exercise: &'a Exercise,
    referee: Validator,
    limits: Limits,
    env: Vec<(String, String)>,
    rules: Rules,
    /// An engine's time beyond the time it is told, the same for every engine.
    tolerance: Duration,
}

/// The exercise whose referee judges battles: the one named, else the course's first
/// with a referee.
pub fn refereed_exercise<'c>(course: &'c Course, name: Option<&str>) -> Result<&'c Exercise> {
    match name {
        Some(name) => course.exercise(name),
        None => course
            .exercises
            .iter()
            .find(|exercise| exercise.referee.is_some())
            .context("no exercise of this course has a referee: battles need one (`referee = ...` in info.toml)"),
    }
}

impl<'a> Arena<'a> {
    /// The arena of `exercise`, whose referee judges its games by `rules`, engines
    /// allowed `tolerance` beyond the time they are told.
    pub fn new(
        grader: &'a Grader<'a>,
        exercise: &'a Exercise,
        rules: Rules,
        tolerance: Duration,
    ) -> Result<Arena<'a>> {
        let referee = grader
            .validator(exercise)?
            .filter(|validator| validator.role == JudgedBy::Referee)
            .with_context(|| {
                format!(
                    "exercise {} has no referee: battles are played through the referee of an \
                     exercise whose cases are games (`referee = ...` in info.toml)",
                    exercise.name
                )
            })?;
        let limits = Limits {
            wall_time: GAME_TIME + tolerance,
            cpu_time: GAME_TIME + tolerance,
            ..grader.limits(None)
        };
        Ok(Arena {
            grader,
            exercise,
            referee,
            limits,
            env: grader.toolchain.runtime_env(),
            rules,
            tolerance,
        })
    }

    /// Builds `entrant` into a player named `name`; an engine is asked its own name
    /// (`ABOUT`). A program that does not compile is an error that shows the compiler's.
    pub fn player(&self, entrant: &Entrant, name: &str) -> Result<Player> {
        let mut folder = None;
        let (program, protocol) = match entrant {
            Entrant::Bot(bot) => {
                let source = Path::new(BOTS_DIR).join(format!("{bot}.c"));
                let program = self.grader.build(self.exercise, &source)?;
                (program, Protocol::Lesson)
            }
            Entrant::File(path) => (self.build_file(path)?, Protocol::Lesson),
            Entrant::Submission(dir) => {
                let source = grade::locate(self.exercise, dir);
                (
                    self.grader.build_in(self.exercise, dir, &source)?,
                    Protocol::Lesson,
                )
            }
            Entrant::Engine(path) if path.is_dir() => {
                let copy = EngineFolder::copy(path)?;
                let program = Executable::at(copy.program.clone());
                folder = Some(Arc::new(copy));
                (program, Protocol::Gomocup)
            }
            Entrant::Engine(path) => match path.extension().is_some_and(|ext| ext == "c") {
                true => (self.build_file(path)?, Protocol::Gomocup),
                false => (Executable::at(executable(path)?), Protocol::Gomocup),
            },
        };
        let mut player = Player {
            name: name.to_string(),
            program,
            seeded: matches!(entrant, Entrant::Bot(_)),
            protocol,
            about: None,
            folder,
        };
        if protocol == Protocol::Gomocup {
            player.about = self.engine_name(&player);
        }
        Ok(player)
    }

    /// A player's run outside a battle, in a conversation clings holds itself (`clings
    /// pbrain`): `stdin` its input, `relay` where its output goes; under the arena's limits
    /// but `wall_time`, as the game is someone else's to time.
    pub fn run_alone(
        &self,
        player: &Player,
        stdin: BorrowedFd,
        relay: &Arc<Relay>,
        wall_time: Duration,
    ) -> Result<Outcome> {
        let job = Job {
            conversation: Some((stdin, relay)),
            ..player.job(&[], &self.env)
        };
        let limits = Limits {
            wall_time,
            ..self.limits
        };
        self.grader.sandbox.run(&job, limits)
    }

    /// The limits `player` runs under: a lesson player's are the course's, an engine's
    /// [`engine_limits`].
    fn limits_of(&self, player: &Player) -> Limits {
        match player.protocol {
            Protocol::Lesson => self.limits,
            Protocol::Gomocup => engine_limits(self.limits),
        }
    }

    /// A C file built as a student's, in its own folder.
    fn build_file(&self, path: &Path) -> Result<Executable> {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let source = PathBuf::from(path.file_name().unwrap_or_default());
        self.grader.build_in(self.exercise, dir, &source)
    }

    /// The name an engine gives itself, asked once (`ABOUT`, then `END`) in a sandbox of
    /// its own under an engine's limits: `name="..."` of its answer, shown escaped and
    /// cut; none if it gives none.
    fn engine_name(&self, engine: &Player) -> Option<String> {
        let scratch = tempfile::tempdir().ok()?;
        let input = scratch.path().join("about.txt");
        std::fs::write(&input, "ABOUT\nEND\n").ok()?;
        let job = Job {
            input: Some(&input),
            ..engine.job(&[], &self.env)
        };
        let outcome = self
            .grader
            .sandbox
            .run(&job, engine_limits(self.grader.limits(None)))
            .ok()?;
        about_name(&String::from_utf8_lossy(&outcome.stdout))
    }

    /// One game, `x` moving first, a bot playing with `seed`, from `opening` (moves
    /// `[row, col]` on the board first, X first: two engines only); `watch` is shown the
    /// moves as they are played.
    pub fn play(
        &self,
        x: &Player,
        o: &Player,
        seed: u64,
        opening: &[[u8; 2]],
        watch: &(dyn Fn(&[Move]) + Sync),
    ) -> Result<Record> {
        let seed = [seed.to_string()];
        let jobs =
            [x, o].map(|player| player.job(if player.seeded { &seed } else { &[] }, &self.env));
        // An engine is told the game's time and memory, as a Gomocup manager tells them,
        // and given the tolerance beyond that time.
        let mut setup = format!(
            "{}match_time_ms {}\nmemory_bytes {}\ntime_tolerance_ms {}\n",
            self.rules.battle_case(),
            GAME_TIME.as_millis(),
            self.limits.memory.bytes,
            self.tolerance.as_millis()
        );
        for (tag, player) in ["A", "B"].iter().zip([x, o]) {
            if player.protocol == Protocol::Gomocup {
                setup.push_str(&format!("engine {tag}\n"));
            }
            // Its own folder to write, which it is told as `INFO folder`.
            if let Some(folder) = &player.folder {
                setup.push_str(&format!("folder {tag} {}\n", folder.keep()?));
            }
        }
        for [row, col] in opening {
            setup.push_str(&format!("opening {row} {col}\n"));
        }
        // An engine with a folder plays one game at a time; the folders are taken in one
        // order, so that two games never wait for each other.
        let mut folders: Vec<&EngineFolder> = [x, o]
            .iter()
            .filter_map(|player| player.folder.as_deref())
            .collect();
        folders.sort_by_key(|folder| std::ptr::from_ref(*folder) as usize);
        folders.dedup_by_key(|folder| std::ptr::from_ref(*folder) as usize);
        let _games: Vec<_> = folders.iter().map(|folder| folder.for_a_game()).collect();
        let limits = [x, o].map(|player| self.limits_of(player));
        let battled = self.referee.battle(
            &self.grader.sandbox,
            limits,
            &setup,
            jobs,
            &|conversation: &Conversation| watch(&moves_so_far(conversation)),
        )?;
        let left = |name: &str| match battled.files.iter().find(|(file, _)| file == name) {
            Some((_, Left::File(bytes))) => Some(String::from_utf8_lossy(bytes).into_owned()),
            _ => None,
        };
        let file = |name: &str| {
            left(name).with_context(|| {
                format!(
                    "the course's referee {} left no {name} after a battle",
                    self.referee.source.display()
                )
            })
        };
        let mut record = Record::read(&file(RESULT)?, &file(MOVES)?, &x.name, &o.name)
            .with_context(|| format!("the referee {}", self.referee.source.display()))?;
        // A course's older referee keeps no chatter.
        record.said = left(CHATTER).map(|text| said(&text)).unwrap_or_default();
        let loser = match record.winner {
            Some(Stone::X) => Some((&battled.players[1], limits[1])),
            Some(Stone::O) => Some((&battled.players[0], limits[0])),
            None => None,
        };
        if let Some((loser, limits)) = loser {
            record.reason = how_it_ended(std::mem::take(&mut record.reason), loser, limits);
        }
        Ok(record)
    }
}

/// What the referee says of a player that ended too soon ("X ended before the game did")
/// is all it can see; its run says why: a crash, a sanitizer's report, a limit, its exit
/// status, and the first line it wrote on stderr (an engine that cannot start says why
/// there).
fn how_it_ended(reason: String, loser: &Outcome, limits: Limits) -> String {
    if !ended_early(&reason) {
        return reason;
    }
    let ended_well = Expected {
        stdout: &loser.stdout,
        exit_code: 0,
        files: &[],
        checked: Some(&Checked::Accepted),
    };
    let finding = verdict::judge(loser, &ended_well, CompareMode::Exact, limits);
    let how = match finding {
        Finding::Crashed { signal } => Some(format!("it crashed with {}", signal_name(signal))),
        Finding::Sanitizer { report } => Some(format!("the sanitizer stopped it: {report}")),
        Finding::MemoryLimit { limit_mb } => Some(format!("it ran out of its {limit_mb} MB")),
        Finding::Timeout {
            clock: Clock::Cpu,
            limit_ms,
            ..
        } => Some(format!("it used up its {limit_ms} ms of processor time")),
        Finding::NonzeroExit { code } | Finding::WrongExitStatus { code, .. } => {
            Some(format!("it exited with status {code}"))
        }
        // Nothing went wrong with the run: it ended by itself, the game unfinished.
        _ => match loser.termination {
            Termination::Exited(0) => Some("it exited with status 0".to_string()),
            _ => None,
        },
    };
    let stderr = String::from_utf8_lossy(&loser.stderr);
    let said = stderr
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .filter(|_| {
            how.as_deref()
                .is_none_or(|how| !how.starts_with("the sanitizer"))
        })
        .map(|line| {
            let line: String = line.chars().take(STDERR_CHARS).collect();
            format!("its stderr: {}", style::one_line(&line))
        });
    let why: Vec<String> = how.into_iter().chain(said).collect();
    match why.is_empty() {
        true => reason,
        false => format!("{reason} ({})", why.join("; ")),
    }
}

/// The referee's word for a player whose program ended before the game did: a forfeit,
/// however many moves were played.
fn ended_early(reason: &str) -> bool {
    reason.contains("ended before")
}

/// The most of a player's stderr a game's reason quotes.
const STDERR_CHARS: usize = 100;

/// The moves the referee has passed on so far: `to B r c` (or, to an engine, `to B TURN
/// c,r`) is a move of A (X), `to A ...` one of B (O). The move that ends a game is passed
/// on to no one: it is in the record.
fn moves_so_far(conversation: &Conversation) -> Vec<Move> {
    conversation
        .lines()
        .iter()
        .filter(|(side, _)| *side == Side::Referee)
        .filter_map(|(_, line)| {
            let (stone, said) = match line.split_once(' ')? {
                ("to", rest) => match rest.split_once(' ')? {
                    ("B", said) => (Stone::X, said),
                    ("A", said) => (Stone::O, said),
                    _ => return None,
                },
                _ => return None,
            };
            let (row, col) = match said.strip_prefix("TURN ") {
                Some(cell) => cell.split_once(',').map(|(col, row)| (row, col))?,
                None => said.split_once(' ')?,
            };
            Some(Move {
                stone,
                row: row.trim().parse().ok()?,
                col: col.trim().parse().ok()?,
            })
        })
        .collect()
}

/// `names` made distinct: a name met before gets ` (2)`, ` (3)`, ... (two engines that
/// call themselves alike, a bot named twice).
pub fn distinct(names: &mut [String]) {
    for index in 1..names.len() {
        let (before, rest) = names.split_at_mut(index);
        let name = &mut rest[0];
        if before.contains(name) {
            let mut copy = 2;
            while before.contains(&format!("{name} ({copy})")) {
                copy += 1;
            }
            *name = format!("{name} ({copy})");
        }
    }
}

/// An engine's executable, to be run as it is (a copy of it, in its sandbox).
fn executable(path: &Path) -> Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .permissions()
        .mode();
    anyhow::ensure!(
        mode & 0o111 != 0,
        "{}: neither a C file nor an executable: a Gomocup engine is one or the other",
        path.display()
    );
    path.canonicalize()
        .with_context(|| format!("cannot read {}", path.display()))
}

/// A Gomocup engine's limits, from a lesson player's `limits` (docs/gomocup.md, "Threads"
/// and "Memory"). Strong engines search with a thread per hardware thread (Rapfi with
/// `default_thread_num = 0`), and clear their table with as many more (Rapfi's
/// `HashTable::clear`): the engine may have two tasks per hardware thread more than a
/// lesson player, and as much processor time as that many threads busy for the whole game
/// (the referee times each move by the clock, and only the side to move runs). It is told
/// `max_memory`, the course's memory limit, and sizes its table to all of it as Rapfi does
/// (no memory reserved in its shipped config), so the memory it uses is held
/// [`ENGINE_MEMORY_ROOM`] higher, for its code, weights and threads; its address space
/// higher still, for what allocators and threads reserve and never use.
fn engine_limits(limits: Limits) -> Limits {
    // One per hardware thread, as std sees them (the affinity mask, a cgroup's quota).
    let threads = parallel::default_jobs() as u64;
    let processes = limits.processes + 2 * threads;
    let mut memory = limits.memory;
    if memory.enforcement == MemoryEnforcement::AddressSpace {
        memory.bytes = memory.bytes.saturating_add(ENGINE_MEMORY_ROOM);
        memory.enforcement = MemoryEnforcement::InUse {
            address_space_bytes: memory
                .bytes
                .saturating_add(processes.saturating_mul(ENGINE_ADDRESS_ROOM_PER_TASK)),
        };
    }
    Limits {
        processes,
        cpu_time: limits.cpu_time.saturating_mul(threads as u32),
        memory,
        ..limits
    }
}

/// An engine's memory in use beyond the `max_memory` it is told, which Rapfi fills with its
/// hash table: its code, its network's weights, its threads' stacks.
const ENGINE_MEMORY_ROOM: u64 = 128 << 20;

/// An engine's address space beyond its memory, for each of its tasks: glibc reserves 64
/// MiB of arena for a thread that allocates, and a thread's stack is 8 MiB, or more for a
/// deep search, none of which is used.
const ENGINE_ADDRESS_ROOM_PER_TASK: u64 = 128 << 20;

/// The longest name an engine may give itself on the standings.
const ENGINE_NAME: usize = 40;

/// The `name="..."` of an engine's answer to `ABOUT` (`name="pela", version="1.0", ...`),
/// escaped and cut to [`ENGINE_NAME`] characters.
fn about_name(answer: &str) -> Option<String> {
    let start = answer.find("name=\"")? + "name=\"".len();
    let name = answer[start..].split(['"', '\n']).next()?.trim();
    let name: String = style::one_line(name).chars().take(ENGINE_NAME).collect();
    (!name.is_empty()).then_some(name)
}

/// The referee's `chatter.txt`: `X 7 MESSAGE text` a line (the colour, the move it came
/// before), then `dropped N` when it kept no more.
fn said(chatter: &str) -> Vec<Said> {
    let mut said = Vec::new();
    for line in chatter.lines() {
        let mut words = line.splitn(3, ' ');
        let (first, second, text) = (words.next(), words.next(), words.next());
        if let (Some("dropped"), Some(count), Some(last)) = (first, second, said.last()) {
            let more = Said {
                text: format!("... and {} more lines, not kept", style::one_line(count)),
                ..Said::clone(last)
            };
            said.push(more);
            continue;
        }
        let stone = first.and_then(Stone::from_letter);
        let before_move = second.and_then(|number| number.parse().ok());
        if let (Some(stone), Some(before_move)) = (stone, before_move) {
            said.push(Said {
                stone,
                before_move,
                text: style::one_line(text.unwrap_or_default()).into_owned(),
            });
        }
    }
    said
}

impl Record {
    /// A game from the referee's `result.txt` (`winner X|O|none`, `reason ...`, and
    /// `five r c ...` after a five) and `moves.txt` (`X r c` a line).
    fn read(result: &str, moves: &str, x: &str, o: &str) -> Result<Record> {
        let mut winner = None;
        let mut reason = None;
        let mut five = Vec::new();
        for line in result.lines() {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "winner" if value == "none" => winner = Some(None),
                "winner" => {
                    let stone = Stone::from_letter(value)
                        .with_context(|| format!("{RESULT}: no such winner: {value:?}"))?;
                    winner = Some(Some(stone));
                }
                "reason" => reason = Some(style::one_line(value).into_owned()),
                "five" => five = cells(value).with_context(|| format!("{RESULT}: {line:?}"))?,
                _ => {}
            }
        }
        let moves = moves
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let (stone, cell) = line.split_once(' ').unwrap_or((line, ""));
                let stone = Stone::from_letter(stone);
                match (stone, cells(cell).as_deref()) {
                    (Some(stone), Ok([[row, col]])) => Ok(Move {
                        stone,
                        row: *row,
                        col: *col,
                    }),
                    _ => bail!("{MOVES}: not a move: {line:?}"),
                }
            })
            .collect::<Result<Vec<Move>>>()?;
        Ok(Record {
            x: x.to_string(),
            o: o.to_string(),
            winner: winner.with_context(|| format!("{RESULT} names no winner"))?,
            reason: reason.unwrap_or_default(),
            five,
            moves,
            said: Vec::new(),
        })
    }

    /// The name of the winner, if any.
    pub fn winner_name(&self) -> Option<&str> {
        self.winner.map(|stone| match stone {
            Stone::X => self.x.as_str(),
            Stone::O => self.o.as_str(),
        })
    }

    /// One line: who won and why. A game with no move was not played, and one whose loser
    /// ended before it did was not lost on the board: each a forfeit, said one way.
    pub fn summary(&self) -> String {
        let moves = count(self.moves.len(), "move", "moves");
        let outcome = match (self.winner, self.moves.is_empty()) {
            (Some(stone), no_move) => format!(
                "{} ({}) won {}",
                self.winner_name().unwrap_or_default(),
                stone.letter(),
                match no_move || ended_early(&self.reason) {
                    true => "by forfeit".to_string(),
                    false => format!("in {moves}"),
                }
            ),
            (None, true) => "no game, both forfeit".to_string(),
            (None, false) => format!("a draw after {moves}"),
        };
        format!("{outcome}: {}", self.reason)
    }

    /// The game in the `replay` exercise's format: a move `r c` a line; then what the
    /// engines said, `# ` lines after the moves, where a replay program's reading of
    /// `r c` pairs stops.
    pub fn replay(&self) -> String {
        let moves = self
            .moves
            .iter()
            .map(|step| format!("{} {}\n", step.row, step.col));
        let said = self.said.iter().map(|line| format!("# {}\n", line.shown()));
        moves.chain(said).collect()
    }
}

impl Said {
    /// `X before move 7: MESSAGE text`.
    pub fn shown(&self) -> String {
        format!(
            "{} before move {}: {}",
            self.stone.letter(),
            self.before_move,
            self.text
        )
    }
}

/// Cells given as `r c r c ...`, each on the board.
pub fn cells(text: &str) -> Result<Vec<[u8; 2]>> {
    let numbers: Vec<u8> = text
        .split_whitespace()
        .map(|word| word.parse::<u8>().ok().filter(|n| usize::from(*n) < SIZE))
        .collect::<Option<_>>()
        .with_context(|| format!("not cells of the board: {text:?}"))?;
    if numbers.is_empty() || !numbers.len().is_multiple_of(2) {
        bail!("not cells of the board: {text:?}");
    }
    Ok(numbers.chunks(2).map(|pair| [pair[0], pair[1]]).collect())
}

/// The board after `moves`, as the course's print_board draws it, the last move in
/// parentheses and the cells of `five` in brackets (in colour when the terminal has it).
pub fn draw(moves: &[Move], five: &[[u8; 2]]) -> String {
    let mut board = [[None; SIZE]; SIZE];
    for step in moves {
        board[usize::from(step.row)][usize::from(step.col)] = Some(step.stone);
    }
    let last = moves.last().map(|step| [step.row, step.col]);
    let mut text = String::from("  ");
    for col in 0..SIZE {
        text.push_str(&format!("{col:3}"));
    }
    text.push('\n');
    for (row, cells) in board.iter().enumerate() {
        text.push_str(&format!("{row:2} "));
        for (col, cell) in cells.iter().enumerate() {
            let here = [row as u8, col as u8];
            let letter = cell.map_or('.', Stone::letter).to_string();
            let shown = if five.contains(&here) {
                format!("[{letter}]").green().bold().to_string()
            } else if last == Some(here) {
                format!("({letter})").yellow().bold().to_string()
            } else {
                format!(" {letter} ")
            };
            text.push_str(&shown);
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine has two tasks more per hardware thread, as much more processor time, and
    /// 128 MiB of memory above what it is told; a sanitizer's limits are its own.
    #[test]
    fn an_engines_limits_make_room_for_its_threads_and_its_table() {
        let course = Limits {
            wall_time: Duration::from_secs(301),
            cpu_time: Duration::from_secs(301),
            memory: crate::sandbox::Memory {
                bytes: 256 << 20,
                enforcement: MemoryEnforcement::AddressSpace,
            },
            processes: 16,
            file_size_bytes: 1 << 20,
            open_files: 64,
            output_bytes: 1 << 16,
        };
        let threads = parallel::default_jobs() as u64;
        let engine = engine_limits(course);
        assert_eq!(engine.processes, 16 + 2 * threads);
        assert_eq!(engine.cpu_time, Duration::from_secs(301 * threads));
        assert_eq!(engine.memory.bytes, 384 << 20);
        assert_eq!(
            engine.memory.enforcement,
            MemoryEnforcement::InUse {
                address_space_bytes: (384 << 20) + engine.processes * (128 << 20)
            }
        );
        assert_eq!(engine.wall_time, course.wall_time);
        let sanitized = Limits {
            memory: crate::sandbox::Memory {
                enforcement: MemoryEnforcement::Sanitizer(crate::sandbox::StartFootprint {
                    data_bytes: 1,
                    address_space_bytes: 2,
                }),
                ..course.memory
            },
            ..course
        };
        assert_eq!(engine_limits(sanitized).memory, sanitized.memory);
    }

    #[test]
    fn a_record_is_read_from_the_referees_files() {
        let record = Record::read(
            "winner X\nreason X made five\nfive 7 3 7 4 7 5 7 6 7 7\n",
            "X 7 3\nO 0 0\nX 7 4\n",
            "ana",
            "ben",
        )
        .unwrap();
        assert_eq!(record.winner_name(), Some("ana"));
        assert_eq!(record.five.len(), 5);
        assert_eq!(record.five[4], [7, 7]);
        assert_eq!(
            record.moves[1],
            Move {
                stone: Stone::O,
                row: 0,
                col: 0
            }
        );
        assert_eq!(record.replay(), "7 3\n0 0\n7 4\n");
        assert_eq!(record.summary(), "ana (X) won in 3 moves: X made five");
        // One move, and none at all: said as such.
        let mut short = record.clone();
        short.moves.truncate(1);
        assert_eq!(short.summary(), "ana (X) won in 1 move: X made five");
        short.moves.clear();
        assert_eq!(short.summary(), "ana (X) won by forfeit: X made five");

        let draw = Record::read("winner none\nreason the board is full\n", "", "a", "b").unwrap();
        assert_eq!(draw.winner, None);
        // The referee's reason may quote a player.
        let quoted = Record::read("winner O\nreason X said \x1b[2J\n", "", "a", "b").unwrap();
        assert_eq!(quoted.reason, "X said \\x1b[2J");

        for (result, moves) in [
            ("reason no winner line\n", ""),
            ("winner Y\n", ""),
            ("winner X\nfive 7 3 7\n", ""),
            ("winner X\n", "X 7 15\n"),
            ("winner X\n", "Z 1 1\n"),
        ] {
            assert!(
                Record::read(result, moves, "a", "b").is_err(),
                "{result} {moves}"
            );
        }
    }

    #[test]
    fn what_engines_said_is_read_escaped_and_follows_the_moves_of_the_replay() {
        let mut record =
            Record::read("winner X\nreason X made five\n", "X 7 7\n", "a", "b").unwrap();
        record.said =
            said("X 1 MESSAGE \x1b[2J hi\nO 2 ERROR Unknown command\nnot a line\ndropped 40\n");
        assert_eq!(
            record.replay(),
            "7 7\n# X before move 1: MESSAGE \\x1b[2J hi\n# O before move 2: ERROR Unknown \
             command\n# O before move 2: ... and 40 more lines, not kept\n"
        );
        assert_eq!(said(""), []);
    }

    #[test]
    fn names_met_before_are_told_apart() {
        let mut names = ["a", "b", "a", "a", "a (2)"].map(String::from);
        distinct(&mut names);
        assert_eq!(names, ["a", "b", "a (2)", "a (3)", "a (2) (2)"]);
    }

    #[test]
    fn an_engines_name_is_read_from_its_answer_to_about() {
        let about = "MESSAGE hi\nname=\"pela\", version=\"1.0\", author=\"X\"\n";
        assert_eq!(about_name(about).as_deref(), Some("pela"));
        assert_eq!(about_name("name=\"\x1b[2J\"").as_deref(), Some("\\x1b[2J"));
        assert_eq!(
            about_name(&format!("name=\"{}\"", "n".repeat(99)))
                .unwrap()
                .len(),
            40
        );
        assert_eq!(about_name("version=\"1\""), None);
        assert_eq!(about_name("name=\"\""), None);
    }

    #[test]
    fn the_moves_passed_on_are_read_in_either_protocol() {
        let table = crate::sandbox::Table::new().unwrap();
        table.from_referee.pass(
            b"turn A\nto A START 15\nto A INFO timeout_turn 1000\nto A BEGIN\nto B X\n\
              to B 7 7\nto A TURN 3,8\nto B 2 2\n",
        );
        let moves = moves_so_far(&table.conversation);
        let cells: Vec<(Stone, u8, u8)> = moves
            .iter()
            .map(|step| (step.stone, step.row, step.col))
            .collect();
        assert_eq!(
            cells,
            [(Stone::X, 7, 7), (Stone::O, 8, 3), (Stone::X, 2, 2)],
            "the engine's x,y is the column, then the row"
        );
    }

    #[test]
    fn the_board_marks_the_last_move_and_the_five() {
        colored::control::set_override(false);
        let moves = [
            Move {
                stone: Stone::X,
                row: 0,
                col: 0,
            },
            Move {
                stone: Stone::O,
                row: 14,
                col: 14,
            },
        ];
        let board = draw(&moves, &[[0, 0]]);
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines.len(), 16);
        assert!(lines[1].starts_with(" 0 [X] . "), "{board}");
        assert!(lines[15].ends_with("(O)"), "{board}");
    }
}
