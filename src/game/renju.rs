//! Renju's rules as the course's referee judges them (`rule renju`, referees/gomoku.c):
//! black (X) may not play an overline (six or more in a row), a double four or a double
//! three, unless the move makes exactly five, which wins whatever else it makes; white is
//! free, and five or more win for white. RIF's definitions, as the renju exercise states
//! them (docs/chapter-3.md):
//!
//! - a *four*: four stones of a line that one more makes exactly five;
//! - a *straight four*: an unbroken four whose two ends each make exactly five;
//! - a *three*: three stones of a line that one more makes a straight four, that stone
//!   being a move black may play (not a five, not forbidden): the rule is recursive.
//!
//! The same reading as the referee's, cell by cell, so that `--merge` accepts the games it
//! recorded and refuses a forbidden move it never placed.

use crate::game::battle::{SIZE, Stone};

/// The board: a stone, or none, each cell, `[row][col]`.
pub type Board = [[Option<Stone>; SIZE]; SIZE];

/// The four directions of a line: along a row, a column and the two diagonals.
pub const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A black move judged by renju's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Verdict {
    /// The referee's words for it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Overline => "overline",
            Verdict::DoubleFour => "double four",
            Verdict::DoubleThree => "double three",
        }
    }
}

fn cell(row: isize, col: isize) -> Option<(usize, usize)> {
    let on = |n: isize| (0..SIZE as isize).contains(&n);
    (on(row) && on(col)).then_some((row as usize, col as usize))
}

/// How many stones of `stone` a line along `d` through (row, col) would hold, the cell
/// counted as one of them.
pub fn run_through(board: &Board, row: usize, col: usize, d: usize, stone: Stone) -> usize {
    let (dr, dc) = DIRECTIONS[d];
    let mut count = 1;
    for sign in [-1, 1] {
        let mut k = 1;
        while let Some((r, c)) = cell(row as isize + sign * k * dr, col as isize + sign * k * dc) {
            if board[r][c] != Some(stone) {
                break;
            }
            count += 1;
            k += 1;
        }
    }
    count
}

/// Black's stone at (row, col) stands in exactly five in a row, in some line.
pub fn black_five_at(board: &Board, row: usize, col: usize) -> bool {
    (0..4).any(|d| run_through(board, row, col, d, Stone::X) == 5)
}

/// The fours of black's stone at (row, col) along `d`, read window by window: a window
/// of five cells holding it, four black stones and an empty cell that makes exactly five.
/// An open four `.XXXX.` fills two windows side by side and is one four; any other two
/// windows are two fours (`X.XXX.X`).
fn black_fours(board: &Board, row: usize, col: usize, d: usize) -> usize {
    let (dr, dc) = DIRECTIONS[d];
    let (mut fours, mut previous) = (0, false);
    for start in -4..=0isize {
        let (mut stones, mut gap) = (0, None);
        for k in start..start + 5 {
            match cell(row as isize + k * dr, col as isize + k * dc) {
                None => {
                    stones = 0;
                    break;
                }
                Some((r, c)) => match board[r][c] {
                    Some(Stone::X) => stones += 1,
                    None => gap = Some((r, c)),
                    Some(Stone::O) => {}
                },
            }
        }
        let window =
            stones == 4 && gap.is_some_and(|(r, c)| run_through(board, r, c, d, Stone::X) == 5);
        fours += usize::from(window && !previous);
        previous = window;
    }
    fours
}

/// Black's unbroken row through (row, col) along `d` is a straight four.
fn black_straight_four(board: &Board, row: usize, col: usize, d: usize) -> bool {
    if run_through(board, row, col, d, Stone::X) != 4 {
        return false;
    }
    let (dr, dc) = DIRECTIONS[d];
    [-1, 1].iter().all(|&sign| {
        let mut k = 1;
        loop {
            match cell(row as isize + sign * k * dr, col as isize + sign * k * dc) {
                Some((r, c)) if board[r][c] == Some(Stone::X) => k += 1,
                Some((r, c)) => {
                    return board[r][c].is_none() && run_through(board, r, c, d, Stone::X) == 5;
                }
                None => return false,
            }
        }
    })
}

/// Black's stone at (row, col) makes a three along `d` (asked of a line with no four).
fn black_three(board: &mut Board, row: usize, col: usize, d: usize) -> bool {
    let (dr, dc) = DIRECTIONS[d];
    for k in -4..=4isize {
        let Some((r, c)) = cell(row as isize + k * dr, col as isize + k * dc) else {
            continue;
        };
        if board[r][c].is_some() {
            continue;
        }
        board[r][c] = Some(Stone::X);
        let straight = black_straight_four(board, row, col, d) && !black_five_at(board, r, c);
        board[r][c] = None;
        if straight && verdict(board, r, c) == Verdict::Allowed {
            return true;
        }
    }
    false
}

/// Black's move on the empty cell (row, col), judged by renju's rules; the board is as
/// it was afterwards.
pub fn verdict(board: &mut Board, row: usize, col: usize) -> Verdict {
    board[row][col] = Some(Stone::X);
    let mut verdict = Verdict::Allowed;
    if !black_five_at(board, row, col) {
        let overline = (0..4).any(|d| run_through(board, row, col, d, Stone::X) >= 6);
        let (mut fours, mut threes) = (0, 0);
        if !overline {
            for d in 0..4 {
                let n = black_fours(board, row, col, d);
                fours += n;
                threes += usize::from(n == 0 && black_three(board, row, col, d));
            }
        }
        verdict = if overline {
            Verdict::Overline
        } else if fours >= 2 {
            Verdict::DoubleFour
        } else if threes >= 2 {
            Verdict::DoubleThree
        } else {
            Verdict::Allowed
        };
    }
    board[row][col] = None;
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board with black stones at `cells` (`(row, col)`).
    fn board(black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
        let mut board = [[None; SIZE]; SIZE];
        for &(r, c) in black {
            board[r][c] = Some(Stone::X);
        }
        for &(r, c) in white {
            board[r][c] = Some(Stone::O);
        }
        board
    }

    #[test]
    fn blacks_forbidden_moves_are_told_as_the_referee_tells_them() {
        // Two open threes crossing at (7, 7): a double three.
        let mut three = board(&[(7, 5), (7, 6), (5, 7), (6, 7)], &[]);
        assert_eq!(verdict(&mut three, 7, 7), Verdict::DoubleThree);
        // One of them blocked at an end (O at 7,4 and 7,8 ... the row cannot be a
        // straight four): one three only, allowed.
        let mut blocked = board(&[(7, 5), (7, 6), (5, 7), (6, 7)], &[(7, 4), (7, 8)]);
        assert_eq!(verdict(&mut blocked, 7, 7), Verdict::Allowed);
        // Two fours crossing: a double four; X.XXX.X in one line is two fours too.
        let mut four = board(&[(7, 4), (7, 5), (7, 6), (4, 7), (5, 7), (6, 7)], &[]);
        assert_eq!(verdict(&mut four, 7, 7), Verdict::DoubleFour);
        let mut line = board(&[(7, 3), (7, 5), (7, 6), (7, 9)], &[]);
        assert_eq!(verdict(&mut line, 7, 7), Verdict::DoubleFour);
        // Six in a row: an overline; but a move that makes exactly five wins whatever else
        // it makes.
        let mut six = board(&[(7, 2), (7, 3), (7, 4), (7, 5), (7, 6)], &[]);
        assert_eq!(verdict(&mut six, 7, 7), Verdict::Overline);
        let mut five = board(
            &[
                (7, 3),
                (7, 4),
                (7, 5),
                (7, 6),
                (3, 7),
                (4, 7),
                (5, 7),
                (6, 7),
            ],
            &[],
        );
        five[2][7] = Some(Stone::X);
        assert_eq!(verdict(&mut five, 7, 7), Verdict::Allowed);
        assert_eq!(five[7][7], None, "the board is as it was");
    }
}
