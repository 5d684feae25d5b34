//! A game's record checked before `--merge` counts it: a shard's `tournament.json` is a
//! file anyone can edit, so each of its games must be one the referee could have recorded:
//! moves on empty cells of the board, X and O alternating from X, nothing after a five, the
//! winner the one the moves or the fault named in the reason say. That it is a game of the
//! tournament's schedule is the tournament's to check ([`super::tournament`]).

use crate::game::battle::{Record, Rules, SIZE, Stone};

/// The game's moves by the referee's rules, and its end as they decide it.
pub fn moves(record: &Record, rules: Rules) -> Result<(), String> {
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
