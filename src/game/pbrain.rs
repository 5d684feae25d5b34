//! A lesson player as a Gomocup engine (a "pbrain", as piskvork calls its brains): the
//! Gomocup protocol with the manager on one side, the lesson's with the player on the
//! other, the player run in a sandbox as in a battle. `TURN x,y` reaches the player as
//! `y x` (the lesson's `r c`: row, then column; Gomocup's x is the column) and the
//! player's `r c` goes back as `c,r`. See docs/gomocup.md.
//!
//! A lesson player plays one game from an empty board and chooses its own moves: nothing
//! in its protocol puts a stone of its own on the board. A position from the manager
//! (`BOARD`, or the game after a `TAKEBACK`) is reached by playing the game again from
//! the start in a new run of the player: the player must choose the same moves again, as
//! a deterministic player does, or the brain says `ERROR`.
//!
//! The player is seated as a battle's player (A at a [`Table`] where clings is the
//! referee), so that it runs only while the manager waits for its move: between its
//! turns every process of its run is stopped, as in a battle, and the other engine's
//! time is its own.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsFd;
use std::sync::Arc;
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::game::battle::{self, Arena, Player, SIZE};
use crate::sandbox::{Outcome, Relay, Table};
use crate::util::style;

/// How long a run of the player may last: the manager times the game, not clings.
const RUN_TIME: Duration = Duration::from_secs(3600);

/// How long a player has to stop once its input has ended.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Answers a manager's session on `input` with `output`, `player` playing, until `END`
/// or the end of the input.
pub fn serve(
    arena: &Arena,
    player: &Player,
    input: impl BufRead,
    output: impl Write,
) -> Result<()> {
    std::thread::scope(|scope| {
        let mut brain = Brain {
            scope,
            arena,
            player,
            stones: Vec::new(),
            game: None,
            out: output,
        };
        let served = brain.serve(input);
        brain.end_game();
        served
    })
}

/// A stone on the board: the brain's own (the player's), or the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    own: bool,
    row: u8,
    col: u8,
}

/// The session with the manager: the position as it has told it, and the game the
/// player's current run has played.
struct Brain<'scope, 'env, W: Write> {
    scope: &'scope Scope<'scope, 'env>,
    arena: &'env Arena<'env>,
    player: &'env Player,
    /// The stones on the board, in the order they were played.
    stones: Vec<Placed>,
    game: Option<Game<'scope>>,
    out: W,
}

/// A run of the lesson player, and the moves it has seen and made.
struct Game<'scope> {
    /// clings' commands as the table's referee: `to A ...` to the player, `turn A` to let
    /// it run, `turn B` to stop it.
    to_player: Arc<Relay>,
    /// What the player writes, tagged `A `, on its way to clings.
    from_player: Arc<Relay>,
    lines: Lines,
    run: ScopedJoinHandle<'scope, Result<Outcome>>,
    played: Vec<Placed>,
}

/// Why a move could not be had from the player, said to the manager after `ERROR`.
struct Refusal(String);

impl<'scope, 'env: 'scope, W: Write> Brain<'scope, 'env, W> {
    /// Answers the manager's commands until `END` or the end of its input.
    fn serve(&mut self, input: impl BufRead) -> Result<()> {
        // Bytes, not text: a manager may send a folder's name in a Windows code page.
        let mut lines = input.split(b'\n');
        while let Some(line) = lines.next() {
            let line = String::from_utf8_lossy(&line?).into_owned();
            let line = line.trim();
            let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
            match command.to_ascii_uppercase().as_str() {
                "" | "INFO" => {}
                "START" => match rest.trim().parse::<usize>() {
                    Ok(size) if size == SIZE => {
                        self.new_game();
                        self.say("OK")?;
                    }
                    _ => self.say(&lesson_board_only())?,
                },
                "RECTSTART" => self.say(&lesson_board_only())?,
                "RESTART" => {
                    self.new_game();
                    self.say("OK")?;
                }
                "BEGIN" => {
                    self.stones.clear();
                    self.answer()?;
                }
                "TURN" => match cell(rest).filter(|&(row, col)| self.empty(row, col)) {
                    Some((row, col)) => {
                        self.stones.push(Placed {
                            own: false,
                            row,
                            col,
                        });
                        self.answer()?;
                    }
                    None => self.say(&format!(
                        "ERROR TURN {}: not an empty cell x,y of the board",
                        style::one_line(rest.trim())
                    ))?,
                },
                "BOARD" => {
                    let mut stones = Vec::new();
                    let mut wrong = None;
                    for line in lines.by_ref() {
                        let line = String::from_utf8_lossy(&line?).into_owned();
                        let line = line.trim();
                        if line.eq_ignore_ascii_case("DONE") {
                            break;
                        }
                        match board_line(line) {
                            Some(stone) => stones.push(stone),
                            None => wrong = wrong.or(Some(line.to_string())),
                        }
                    }
                    match wrong {
                        Some(line) => self.say(&format!(
                            "ERROR BOARD line \"{}\": a stone is x,y,1 (this brain's) or \
                             x,y,2 (the opponent's)",
                            style::one_line(&line)
                        ))?,
                        None => {
                            self.stones = stones;
                            self.answer()?;
                        }
                    }
                }
                "TAKEBACK" => match cell(rest).and_then(|cell| self.stone_at(cell)) {
                    Some(index) => {
                        self.stones.remove(index);
                        self.say("OK")?;
                    }
                    None => self.say(&format!(
                        "ERROR TAKEBACK {}: no stone there",
                        style::one_line(rest.trim())
                    ))?,
                },
                "ABOUT" => {
                    // One line: a name that could end it would forge the manager's answers.
                    let name = style::one_line(&self.player.name).replace(['"', ','], "");
                    let version = env!("CARGO_PKG_VERSION");
                    self.say(&format!(
                        "name=\"{name}\", version=\"{version}\", author=\"a lesson player, \
                         played by clings pbrain\""
                    ))?
                }
                "END" => break,
                _ => self.say(&format!("UNKNOWN {}", style::one_line(command)))?,
            }
        }
        Ok(())
    }

    /// One line to the manager: `line` holds no newline (what it quotes is escaped).
    fn say(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()?;
        Ok(())
    }

    fn new_game(&mut self) {
        self.end_game();
        self.stones.clear();
    }

    fn empty(&self, row: u8, col: u8) -> bool {
        self.stone_at((row, col)).is_none()
    }

    fn stone_at(&self, (row, col): (u8, u8)) -> Option<usize> {
        self.stones
            .iter()
            .position(|stone| (stone.row, stone.col) == (row, col))
    }

    /// The player's move in the position the manager gave, as `x,y`, or `ERROR` and why.
    fn answer(&mut self) -> Result<()> {
        let line = match self.next_move() {
            Ok(stone) => {
                self.stones.push(stone);
                format!("{},{}", stone.col, stone.row)
            }
            Err(Refusal(why)) => {
                self.end_game();
                format!("ERROR {why}")
            }
        };
        self.say(&line)
    }

    /// The player's move after `self.stones`: from the game its run has played if that
    /// is where the position comes from, else from a new run that plays the position's
    /// game again.
    fn next_move(&mut self) -> Result<Placed, Refusal> {
        let own = self.stones.iter().filter(|stone| stone.own).count();
        let x = match self.stones.len() - own {
            theirs if theirs == own => true,
            theirs if theirs == own + 1 => false,
            _ => {
                return Err(Refusal(
                    "a position no game reaches: the opponent has more than one stone more, \
                     or fewer, than this brain"
                        .to_string(),
                ));
            }
        };
        // X moved first. A Gomoku manager may send BOARD's stones in any order: each
        // side's are taken in the order given, the two sides alternating from X's.
        self.stones = alternating(&self.stones, x);
        let continues = self
            .game
            .as_ref()
            .is_some_and(|game| self.stones.starts_with(&game.played));
        if !continues {
            self.end_game();
            self.game = Some(self.start(x)?);
        }
        let game = self.game.as_mut().expect("started above");
        for &stone in &self.stones[game.played.len()..] {
            match stone.own {
                false => game.tell(stone),
                true => {
                    let chosen = game.own_move()?;
                    if chosen != stone {
                        return Err(Refusal(format!(
                            "the player chose {},{} where the position has its stone at \
                             {},{}: a lesson player cannot be put in a position it did not \
                             play itself",
                            chosen.col, chosen.row, stone.col, stone.row
                        )));
                    }
                }
            }
        }
        game.own_move()
    }

    /// A new run of the player, told its colour.
    fn start(&self, x: bool) -> Result<Game<'scope>, Refusal> {
        let refused = |error: anyhow::Error| {
            Refusal(format!(
                "cannot start the player: {}",
                style::one_line(&format!("{error:#}"))
            ))
        };
        let Table {
            from_players: [from_program, _],
            from_referee,
            player_stdins: [program_stdin, _],
            referee_stdin,
            ..
        } = Table::new().map_err(refused)?;
        let (arena, player, relay) = (self.arena, self.player, Arc::clone(&from_program));
        let run = self
            .scope
            .spawn(move || arena.run_alone(player, program_stdin.as_fd(), &relay, RUN_TIME));
        from_referee.pass(if x { b"to A X\n" } else { b"to A O\n" });
        Ok(Game {
            to_player: from_referee,
            from_player: from_program,
            lines: BufReader::new(File::from(referee_stdin)).split(b'\n'),
            run,
            played: Vec::new(),
        })
    }

    /// Ends the player's run: its input ends, and it is stopped if it goes on.
    fn end_game(&mut self) {
        if let Some(game) = self.game.take() {
            game.to_player.close();
            let deadline = Instant::now() + STOP_GRACE;
            while !game.run.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if !game.run.is_finished() {
                game.from_player.end_writer();
            }
            if let Ok(Err(error)) = game.run.join() {
                eprintln!("warning: the player's run: {error:#}");
            }
        }
    }
}

impl Game<'_> {
    /// The opponent's move, passed on to the player.
    fn tell(&mut self, stone: Placed) {
        self.to_player
            .pass(format!("to A {} {}\n", stone.row, stone.col).as_bytes());
        self.played.push(stone);
    }

    /// The player's next move, read and checked to be a cell of the board (whether it is
    /// empty is for the manager to judge).
    fn own_move(&mut self) -> Result<Placed, Refusal> {
        // The player runs only while its move is awaited.
        self.to_player.pass(b"turn A\n");
        let line = next_line(&mut self.lines);
        self.to_player.pass(b"turn B\n");
        let Some(line) = line else {
            return Err(Refusal(
                "the player ended (or closed its stdout) before the game did".to_string(),
            ));
        };
        // One cell, `r c`, on the board.
        let cell = battle::cells(&line)
            .ok()
            .filter(|cells| cells.len() == 1)
            .map(|cells| (cells[0][0], cells[0][1]));
        match cell {
            Some((row, col)) => {
                let stone = Placed {
                    own: true,
                    row,
                    col,
                };
                self.played.push(stone);
                Ok(stone)
            }
            None => Err(Refusal(format!(
                "the player wrote {:?}, not a move \"r c\" on the board",
                style::visible(&line)
            ))),
        }
    }
}

/// The lines of what the player writes, tagged `A ` as they come (a last line without
/// its newline too), then `eof A` once its output has ended.
type Lines = std::io::Split<BufReader<File>>;

/// The player's next line, without its tag, newline and `\r`; none once its output has
/// ended.
fn next_line(lines: &mut Lines) -> Option<String> {
    let line = lines.next()?.ok()?;
    let said = line.strip_prefix(b"A ")?;
    Some(
        String::from_utf8_lossy(said)
            .trim_end_matches('\r')
            .to_string(),
    )
}

/// The answer to a board that is not the lesson's.
fn lesson_board_only() -> String {
    format!("ERROR this brain plays on a {SIZE}x{SIZE} board only, the lesson's")
}

/// `x,y` (the column, then the row) as the lesson's (row, column), on the board.
fn cell(text: &str) -> Option<(u8, u8)> {
    let (x, y) = text.trim().split_once(',')?;
    let (col, row) = (x.trim().parse::<u8>().ok()?, y.trim().parse::<u8>().ok()?);
    (usize::from(row) < SIZE && usize::from(col) < SIZE).then_some((row, col))
}

/// The stones as the moves of a game: X's and O's alternating from X's, each side's in
/// the order given (`x`: the brain's stones are X's).
fn alternating(stones: &[Placed], x: bool) -> Vec<Placed> {
    let (own, theirs): (Vec<Placed>, Vec<Placed>) = stones.iter().partition(|stone| stone.own);
    let (first, second) = if x { (own, theirs) } else { (theirs, own) };
    let mut second = second.into_iter();
    let mut game = Vec::with_capacity(stones.len());
    for stone in first {
        game.push(stone);
        game.extend(second.next());
    }
    game
}

/// A line of `BOARD`: `x,y,1` a stone of this brain's, `x,y,2` the opponent's.
fn board_line(line: &str) -> Option<Placed> {
    let (cell_text, owner) = line.rsplit_once(',')?;
    let (row, col) = cell(cell_text)?;
    let own = match owner.trim() {
        "1" => true,
        "2" => false,
        _ => return None,
    };
    Some(Placed { own, row, col })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_cells_are_column_then_row() {
        assert_eq!(cell("3,8"), Some((8, 3)));
        assert_eq!(cell(" 14 , 0 "), Some((0, 14)));
        assert_eq!(cell("15,0"), None);
        assert_eq!(cell("3 8"), None);
        assert_eq!(
            board_line("3,8,2"),
            Some(Placed {
                own: false,
                row: 8,
                col: 3
            })
        );
        assert_eq!(board_line("3,8,3"), None, "a continuous game's line");
    }

    #[test]
    fn board_stones_in_any_order_become_a_game_each_sides_order_kept() {
        let stone = |own, row| Placed { own, row, col: 0 };
        // The brain's stones first, then the opponent's: the brain is O (one stone fewer).
        let given = [
            stone(true, 1),
            stone(true, 3),
            stone(false, 0),
            stone(false, 2),
            stone(false, 4),
        ];
        let game = alternating(&given, false);
        let rows: Vec<u8> = game.iter().map(|stone| stone.row).collect();
        assert_eq!(rows, [0, 1, 2, 3, 4]);
        assert_eq!(alternating(&game, false), game, "a game's order stays");
        let as_x = [stone(false, 1), stone(true, 0)];
        assert_eq!(alternating(&as_x, true), [stone(true, 0), stone(false, 1)]);
    }
}
