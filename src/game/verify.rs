//! A game's record checked before `--merge` counts it: a shard's `tournament.json` is a
//! file anyone can edit, so each of its games must be one the referee could have recorded:
//! moves on empty cells of the board, X and O alternating from X, none of black's moves
//! that renju forbids in a renju tournament ([`super::renju`]), nothing after a five (black's
//! exactly five, under renju), the winner the one the moves or the fault named in the
//! reason say, and a fault the fault of the side whose turn it was (or, before any move,
//! of an engine that did not start). That it is a game of the
//! tournament's schedule is the tournament's to check ([`super::tournament`]).

use crate::game::battle::{Record, Rules, SIZE, Stone};
use crate::game::renju::{self, Board, DIRECTIONS, Verdict};

/// The game's moves by the referee's rules, and its end as they decide it.
pub fn moves(record: &Record, rules: Rules) -> Result<(), String> {
    let mut board = [[None; SIZE]; SIZE];
    let mut five = None;
    for (index, step) in record.moves.iter().enumerate() {
        let number = index + 1;
        let (row, col) = (usize::from(step.row), usize::from(step.col));
        let expected = Stone::to_move(index);
        if five.is_some() {
            return Err(format!("move {number} comes after the five"));
        }
        if step.stone != expected || row >= SIZE || col >= SIZE || board[row][col].is_some() {
            return Err(format!(
                "move {number} ({} {}) is not a move of the game there",
                step.row, step.col
            ));
        }
        // Under renju black's forbidden moves are illegal: the referee never places one,
        // and black's five is exactly five.
        let black_under_renju = rules == Rules::Renju && step.stone == Stone::X;
        if black_under_renju {
            let verdict = renju::verdict(&mut board, row, col);
            if verdict != Verdict::Allowed {
                return Err(format!(
                    "move {number} is black's {}, forbidden under renju",
                    verdict.name()
                ));
            }
        }
        board[row][col] = Some(step.stone);
        let made_five = match black_under_renju {
            true => renju::black_five_at(&board, row, col),
            false => (0..4).any(|d| renju::run_through(&board, row, col, d, step.stone) >= 5),
        };
        if made_five {
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
        // The referee faults the side it waits for: the one to move, or before the first
        // move an engine that does not start (either side).
        None if start_fault(&record.reason) && !record.moves.is_empty() => {
            Err("it faults a start after moves were played".to_string())
        }
        None if said_loser.is_some()
            && !start_fault(&record.reason)
            && said_loser != Some(Stone::to_move(record.moves.len())) =>
        {
            Err(format!(
                "its reason faults the side that was not to move (after {} moves, {} was)",
                record.moves.len(),
                Stone::to_move(record.moves.len()).letter()
            ))
        }
        None => Ok(()),
    }
}

/// Whether the referee's reason faults an engine for its start, before any move: no OK
/// to `START`, another answer, or its end before it answered.
pub fn start_fault(reason: &str) -> bool {
    let Some(rest) = reason.strip_prefix(['X', 'O']) else {
        return false;
    };
    [
        ": no OK to START ",
        ": answered START ",
        " ended before it answered START ",
    ]
    .iter()
    .any(|start| rest.starts_with(start))
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

/// Whether `five` is five cells of `stone` in a row on `board`.
fn five_is_made(board: &Board, five: &[[u8; 2]], stone: Stone) -> bool {
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

    /// X's moves at `black`, O's at `white`, alternating from X; `winner` won, as
    /// `reason` says.
    fn record(black: &[(u8, u8)], white: &[(u8, u8)], winner: Stone, reason: &str) -> Record {
        let mut moves = Vec::new();
        for (k, &(row, col)) in black.iter().enumerate() {
            moves.push(Move {
                stone: Stone::X,
                row,
                col,
            });
            if let Some(&(row, col)) = white.get(k) {
                moves.push(Move {
                    stone: Stone::O,
                    row,
                    col,
                });
            }
        }
        Record {
            x: "a".into(),
            o: "b".into(),
            winner: Some(winner),
            reason: reason.into(),
            five: Vec::new(),
            moves,
            said: Vec::new(),
        }
    }

    #[test]
    fn a_renju_game_is_replayed_by_renjus_rules() {
        let far = [(0, 0), (0, 2), (0, 4), (0, 6)];
        let fault = "O: no move within 1000 ms (move 10)";
        // Black's fifth move makes two open threes: free-style it stands, under renju the
        // referee would never have placed it.
        let double_three = record(
            &[(7, 5), (7, 6), (5, 7), (6, 7), (7, 7)],
            &far,
            Stone::X,
            fault,
        );
        assert_eq!(moves(&double_three, Rules::Freestyle), Ok(()));
        let refused = moves(&double_three, Rules::Renju).unwrap_err();
        assert!(
            refused.contains("move 9 is black's double three"),
            "{refused}"
        );
        let double_four = record(
            &[(7, 4), (7, 5), (7, 6), (4, 7), (5, 7), (6, 7), (7, 7)],
            &[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)],
            Stone::O,
            "X: no move within 1000 ms (move 14)",
        );
        let refused = moves(&double_four, Rules::Renju).unwrap_err();
        assert!(
            refused.contains("move 13 is black's double four"),
            "{refused}"
        );
        // Exactly five wins for black though the move makes six in another line; six alone
        // is black's overline.
        let mut five = record(
            &[
                (7, 3),
                (7, 4),
                (7, 5),
                (7, 6),
                (3, 7),
                (4, 7),
                (5, 7),
                (6, 7),
                (8, 7),
                (7, 7),
            ],
            &[
                (0, 0),
                (0, 2),
                (0, 4),
                (0, 6),
                (0, 8),
                (0, 10),
                (0, 12),
                (0, 14),
                (14, 0),
            ],
            Stone::X,
            "X made five",
        );
        five.five = (3..8).map(|col| [7, col]).collect();
        assert_eq!(moves(&five, Rules::Renju), Ok(()));
        let six = record(
            &[(7, 1), (7, 2), (7, 3), (7, 5), (7, 6), (7, 4)],
            &[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)],
            Stone::X,
            "X made five",
        );
        let refused = moves(&six, Rules::Renju).unwrap_err();
        assert!(refused.contains("move 11 is black's overline"), "{refused}");
    }
}
