//! A shard's games checked before `--merge` counts them: a shard's `tournament.json` is a
//! file anyone can edit, so each of its games must be a game of the tournament's schedule
//! (its number, seed, players and colours) that the referee could have recorded: moves on
//! empty cells of the board, X and O alternating from X, nothing after a five, the winner
//! the one the moves or the fault named in the reason say.

use crate::game::battle::{Record, Rules, SIZE, Stone};
use crate::game::tournament::{self, Played, Tournament};

/// Why a game of `tournament` is not one its tournament could have played, if it is not.
pub fn game(tournament: &Tournament, game: &Played) -> Result<(), String> {
    let pairing =
        tournament::schedule(tournament.players.len(), tournament.rounds, tournament.seed)
            .into_iter()
            .find(|pairing| pairing.number == game.number)
            .ok_or("its number is not in the tournament's schedule")?;
    let (x, o) = (
        &tournament.players[pairing.x],
        &tournament.players[pairing.o],
    );
    let record = &game.record;
    if game.seed != pairing.seed {
        return Err(format!(
            "its seed is {}, the schedule's {}",
            game.seed, pairing.seed
        ));
    }
    if (record.x.as_str(), record.o.as_str()) != (x.name.as_str(), o.name.as_str()) {
        return Err("its players or colours are not the schedule's".to_string());
    }
    if x.forfeits.is_some() || o.forfeits.is_some() {
        let winner = match (&x.forfeits, &o.forfeits) {
            (Some(_), Some(_)) => None,
            (Some(_), None) => Some(Stone::O),
            _ => Some(Stone::X),
        };
        return match record.moves.is_empty() && record.winner == winner {
            true => Ok(()),
            false => Err("a player forfeits it, and the record does not say so".to_string()),
        };
    }
    moves(record, tournament.rules)
}

/// The game's moves by the referee's rules, and its end as they decide it.
fn moves(record: &Record, rules: Rules) -> Result<(), String> {
    let mut board = [[None; SIZE]; SIZE];
    let mut five = None;
    for (index, step) in record.moves.iter().enumerate() {
        let number = index + 1;
        let (row, col) = (usize::from(step.row), usize::from(step.col));
        let expected = if index % 2 == 0 { Stone::X } else { Stone::O };
        if five.is_some() {
            return Err(format!("move {number} comes after the five"));
        }
        if step.stone != expected || row >= SIZE || col >= SIZE || board[row][col].is_some() {
            return Err(format!(
                "move {number} ({} {}) is not a move of the game there",
                step.row, step.col
            ));
        }
        board[row][col] = Some(step.stone);
        let run = longest_run(&board, row, col);
        // Under renju, black's overline is a forbidden move: the referee never places it.
        if rules == Rules::Renju && step.stone == Stone::X && run > 5 {
            return Err(format!(
                "move {number} is black's overline, forbidden under renju"
            ));
        }
        if run >= 5 {
            five = Some(step.stone);
        }
    }
    let said_loser = fault_of(&record.reason);
    match five {
        Some(stone) if record.winner != Some(stone) => {
            Err("its winner is not the one who made five".to_string())
        }
        Some(stone) if !five_is_made(&board, &record.five, stone) => {
            Err("its winning five is not on the board".to_string())
        }
        Some(_) => Ok(()),
        None if record.winner.is_none() && record.moves.len() < SIZE * SIZE => {
            Err("a draw before the board is full".to_string())
        }
        None if record.winner.is_some() && !record.five.is_empty() => {
            Err("a winning five that no move made".to_string())
        }
        None if said_loser.is_some() && said_loser == record.winner => {
            Err("its winner is the player its reason faults".to_string())
        }
        None if record.winner.is_some() && said_loser.is_none() => {
            Err("a win without a five or a fault".to_string())
        }
        None => Ok(()),
    }
}

/// The player the referee's reason faults: `X: ...` or `X ended ...` (a note after it,
/// `; O did not stop ...`, faults no one for the result).
fn fault_of(reason: &str) -> Option<Stone> {
    let mut letters = reason.chars();
    let stone = match letters.next()? {
        'X' => Stone::X,
        'O' => Stone::O,
        _ => return None,
    };
    let rest = letters.as_str();
    (rest.starts_with(": ") || rest.starts_with(" ended ")).then_some(stone)
}

const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// The longest line of the stone at (row, col) through it.
fn longest_run(board: &[[Option<Stone>; SIZE]; SIZE], row: usize, col: usize) -> usize {
    let stone = board[row][col];
    let same = |r: isize, c: isize| {
        (0..SIZE as isize).contains(&r)
            && (0..SIZE as isize).contains(&c)
            && board[r as usize][c as usize] == stone
    };
    DIRECTIONS
        .iter()
        .map(|&(dr, dc)| {
            let count = |sign: isize| {
                (1..)
                    .take_while(|&k| {
                        same(row as isize + sign * k * dr, col as isize + sign * k * dc)
                    })
                    .count()
            };
            1 + count(1) + count(-1)
        })
        .max()
        .unwrap_or(0)
}

/// Whether `five` is five cells of `stone` in a row on `board`.
fn five_is_made(board: &[[Option<Stone>; SIZE]; SIZE], five: &[[u8; 2]], stone: Stone) -> bool {
    let [first, second, ..] = five else {
        return false;
    };
    let step = (
        second[0] as isize - first[0] as isize,
        second[1] as isize - first[1] as isize,
    );
    five.len() == 5
        && DIRECTIONS
            .iter()
            .any(|&(dr, dc)| step == (dr, dc) || step == (-dr, -dc))
        && five.iter().enumerate().all(|(k, cell)| {
            let (row, col) = (usize::from(cell[0]), usize::from(cell[1]));
            let expected = (
                first[0] as isize + k as isize * step.0,
                first[1] as isize + k as isize * step.1,
            );
            row < SIZE
                && col < SIZE
                && (row as isize, col as isize) == expected
                && board[row][col] == Some(stone)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::battle::Move;
    use crate::game::tournament::Entry;

    fn entry(name: &str) -> Entry {
        Entry {
            name: name.to_string(),
            forfeits: None,
            refused: false,
            engine: None,
        }
    }

    /// Game 1 of two players: `a` (X) makes five on row 7 while `b` plays row 0.
    fn tournament() -> (Tournament, Played) {
        let mut moves = Vec::new();
        for k in 0..5u8 {
            moves.push(Move {
                stone: Stone::X,
                row: 7,
                col: 3 + k,
            });
            if k < 4 {
                moves.push(Move {
                    stone: Stone::O,
                    row: 0,
                    col: k,
                });
            }
        }
        let played = Played {
            number: 1,
            seed: 1,
            record: Record {
                x: "a".into(),
                o: "b".into(),
                winner: Some(Stone::X),
                reason: "X made five".into(),
                five: (3..8).map(|col| [7, col]).collect(),
                moves,
                said: Vec::new(),
            },
        };
        let tournament = Tournament {
            players: vec![entry("a"), entry("b")],
            rounds: 1,
            seed: 1,
            rules: Rules::Freestyle,
            time_tolerance_ms: 0,
            games: vec![played.clone()],
        };
        (tournament, played)
    }

    /// What a forger changes in a game.
    type Forgery = fn(&mut Played);

    #[test]
    fn a_game_the_referee_could_have_recorded_is_accepted_and_a_forged_one_refused() {
        let (tournament, honest) = tournament();
        assert_eq!(game(&tournament, &honest), Ok(()));
        let forged: [(&str, Forgery); 10] = [
            ("not in the tournament's schedule", |g| g.number = 3),
            ("its seed is 9", |g| g.seed = 9),
            ("players or colours", |g| {
                std::mem::swap(&mut g.record.x, &mut g.record.o)
            }),
            ("players or colours", |g| g.record.o = "mallory".into()),
            ("not the one who made five", |g| {
                g.record.winner = Some(Stone::O)
            }),
            ("not a move of the game", |g| g.record.moves[2].row = 200),
            ("not a move of the game", |g| {
                g.record.moves[2] = g.record.moves[0]
            }),
            ("after the five", |g| {
                g.record.moves.push(Move {
                    stone: Stone::O,
                    row: 1,
                    col: 1,
                })
            }),
            ("winning five is not on the board", |g| {
                g.record.five[4] = [0, 0]
            }),
            ("a win without a five or a fault", |g| {
                g.record.moves.pop();
                g.record.five.clear();
            }),
        ];
        for (why, forge) in forged {
            let mut played = honest.clone();
            forge(&mut played);
            let refused = game(&tournament, &played).expect_err(why);
            assert!(refused.contains(why), "{why}: {refused}");
        }
        // A fault names the loser: its opponent won.
        let mut faulted = honest.clone();
        faulted.record.moves.pop();
        faulted.record.five.clear();
        faulted.record.reason = "X: no move within 2000 ms (move 9)".into();
        faulted.record.winner = Some(Stone::O);
        assert_eq!(game(&tournament, &faulted), Ok(()));
        faulted.record.winner = Some(Stone::X);
        assert!(game(&tournament, &faulted).unwrap_err().contains("faults"));
    }
}
