//! Games between two programs (`clings battle`, `clings tournament`): each player built
//! like a student's program and run in a sandbox of its own, both talking with the
//! course's referee in its battle mode (see [`crate::grade::checkers::Validator::battle`] and
//! referees/README.md), which checks every move and decides. A game ends with its
//! [`Record`]: the moves, the winner and why.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use colored::Colorize;
use serde::{Deserialize, Serialize};

use crate::course::{BOTS_DIR, Course, Exercise};
use crate::grade::checkers::{MOVES, RESULT, Validator};
use crate::grade::{self, Grader};
use crate::sandbox::{Conversation, Job, Left, Limits, Side};
use crate::util::i18n::count;
use crate::util::style;
use crate::verdict::JudgedBy;

/// The board's size, as the course's referee plays it.
pub const SIZE: usize = 15;

/// The longest a game may last: the referee limits each move (1 s by default), and a
/// game has at most 225 of them.
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
    fn letter(self) -> char {
        match self {
            Stone::X => 'X',
            Stone::O => 'O',
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
}

impl Entrant {
    pub fn parse(course: &Course, spec: &str) -> Result<Entrant> {
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
            Entrant::File(path) | Entrant::Submission(path) => !inside(path),
        }
    }
}

/// One contestant: a program clings built.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub program: PathBuf,
    /// A course bot, run with each game's seed.
    pub seeded: bool,
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
}

/// Where games are played: the course's referee, and the limits every player runs under.
pub struct Arena<'a> {
    grader: &'a Grader<'a>,
    exercise: &'a Exercise,
    referee: Validator,
    limits: Limits,
    env: Vec<(String, String)>,
    rules: Rules,
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
    /// The arena of `exercise`, whose referee judges its games by `rules`.
    pub fn new(grader: &'a Grader<'a>, exercise: &'a Exercise, rules: Rules) -> Result<Arena<'a>> {
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
            wall_time: GAME_TIME,
            cpu_time: GAME_TIME,
            ..grader.limits(None)
        };
        Ok(Arena {
            grader,
            exercise,
            referee,
            limits,
            env: grader.toolchain.runtime_env(),
            rules,
        })
    }

    /// Builds `entrant` into a player named `name`. A program that does not compile is an
    /// error that shows the compiler's.
    pub fn player(&self, entrant: &Entrant, name: &str) -> Result<Player> {
        let (dir, source) = match entrant {
            Entrant::Bot(bot) => (
                self.grader.course.root.clone(),
                Path::new(BOTS_DIR).join(format!("{bot}.c")),
            ),
            Entrant::File(path) => {
                let dir = match path.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir,
                    _ => Path::new("."),
                };
                (
                    dir.to_path_buf(),
                    PathBuf::from(path.file_name().unwrap_or_default()),
                )
            }
            Entrant::Submission(dir) => (dir.clone(), grade::locate(self.exercise, dir)),
        };
        let program = self.grader.build_in(&dir, &source)?;
        Ok(Player {
            name: name.to_string(),
            program,
            seeded: matches!(entrant, Entrant::Bot(_)),
        })
    }

    /// One game, `x` moving first, a bot playing with `seed`; `watch` is shown the moves
    /// as they are played.
    pub fn play(
        &self,
        x: &Player,
        o: &Player,
        seed: u64,
        watch: &(dyn Fn(&[Move]) + Sync),
    ) -> Result<Record> {
        let seed = [seed.to_string()];
        let jobs = [x, o].map(|player| Job {
            args: if player.seeded { &seed } else { &[] },
            ..Job::program(&player.program, None, &self.env)
        });
        let files = self.referee.battle(
            &self.grader.sandbox,
            self.limits,
            self.rules.battle_case(),
            jobs,
            &|conversation: &Conversation| watch(&moves_so_far(conversation)),
        )?;
        let file = |name: &str| match files.iter().find(|(file, _)| file == name) {
            Some((_, Left::File(bytes))) => Ok(String::from_utf8_lossy(bytes).into_owned()),
            _ => bail!(
                "the course's referee {} left no {name} after a battle",
                self.referee.source.display()
            ),
        };
        Record::read(&file(RESULT)?, &file(MOVES)?, &x.name, &o.name)
            .with_context(|| format!("the referee {}", self.referee.source.display()))
    }
}

/// The moves the referee has passed on so far: `to B r c` is a move of A (X), `to A r c`
/// one of B (O). The move that ends a game is passed on to no one: it is in the record.
fn moves_so_far(conversation: &Conversation) -> Vec<Move> {
    conversation
        .lines()
        .iter()
        .filter(|(side, _)| *side == Side::Referee)
        .filter_map(|(_, line)| {
            let mut words = line.split_whitespace();
            let stone = match (words.next(), words.next()) {
                (Some("to"), Some("B")) => Stone::X,
                (Some("to"), Some("A")) => Stone::O,
                _ => return None,
            };
            let row = words.next()?.parse().ok()?;
            let col = words.next()?.parse().ok()?;
            Some(Move { stone, row, col })
        })
        .collect()
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
                "reason" => reason = Some(style::visible(value).into_owned()),
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
        })
    }

    /// The name of the winner, if any.
    pub fn winner_name(&self) -> Option<&str> {
        self.winner.map(|stone| match stone {
            Stone::X => self.x.as_str(),
            Stone::O => self.o.as_str(),
        })
    }

    /// One line: who won and why. A game with no move was not played: a forfeit.
    pub fn summary(&self) -> String {
        let moves = count(self.moves.len(), "move", "moves");
        let outcome = match (self.winner, self.moves.is_empty()) {
            (Some(stone), forfeit) => format!(
                "{} ({}) won {}",
                self.winner_name().unwrap_or_default(),
                stone.letter(),
                match forfeit {
                    true => "by forfeit".to_string(),
                    false => format!("in {moves}"),
                }
            ),
            (None, true) => "no game, both forfeit".to_string(),
            (None, false) => format!("a draw after {moves}"),
        };
        format!("{outcome}: {}", self.reason)
    }

    /// The game in the `replay` exercise's format: a move `r c` a line.
    pub fn replay(&self) -> String {
        self.moves
            .iter()
            .map(|step| format!("{} {}\n", step.row, step.col))
            .collect()
    }
}

/// Cells given as `r c r c ...`, each on the board.
fn cells(text: &str) -> Result<Vec<[u8; 2]>> {
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
