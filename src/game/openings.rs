//! An opening book (`tournament --openings FILE`), as Gomocup's tournaments and
//! c-gomoku-cli give engines one: an opening a line, its moves as Gomocup cells `x,y` (the
//! column first, from 0), separated by blanks, X first; `#` starts a comment. Two engines
//! play each opening with either colour; a lesson player cannot be given a position (its
//! protocol puts no stone of its own on the board), so its games start empty.

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::game::battle::{Rules, SIZE, Stone};
use crate::game::renju::{self, Board, Verdict};

/// The most moves an opening may place: a book's openings are a few stones.
const MOST_MOVES: usize = 40;

/// The book at `path`: each opening its moves `[row, col]`, X first, every one a move the
/// game allows under `rules` (an empty cell, no five, none of black's forbidden moves).
pub fn read(path: &Path, rules: Rules) -> Result<Vec<Vec<[u8; 2]>>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the opening book {}", path.display()))?;
    let mut book = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let opening = opening(line, rules).with_context(|| {
            format!(
                "{}:{}: {line:?} is not an opening: write its moves as Gomocup cells x,y \
                 (the column first, 0 to {}), X first, separated by blanks",
                path.display(),
                number + 1,
                SIZE - 1
            )
        })?;
        book.push(opening);
    }
    if book.is_empty() {
        bail!("the opening book {} holds no opening", path.display());
    }
    Ok(book)
}

/// One line's moves, checked on a board of their own.
fn opening(line: &str, rules: Rules) -> Result<Vec<[u8; 2]>> {
    let mut board: Board = [[None; SIZE]; SIZE];
    let mut moves = Vec::new();
    for (index, word) in line.split_whitespace().enumerate() {
        let cell = word.split_once(',').and_then(|(x, y)| {
            let (x, y) = (x.trim().parse::<u8>().ok()?, y.trim().parse::<u8>().ok()?);
            (usize::from(x) < SIZE && usize::from(y) < SIZE).then_some([y, x])
        });
        let Some([row, col]) = cell else {
            bail!("move {} ({word}) is not a cell of the board", index + 1);
        };
        let (r, c) = (usize::from(row), usize::from(col));
        let stone = Stone::to_move(index);
        if board[r][c].is_some() {
            bail!("move {} ({word}) is on a stone", index + 1);
        }
        if rules == Rules::Renju && stone == Stone::X {
            let verdict = renju::verdict(&mut board, r, c);
            if verdict != Verdict::Allowed {
                bail!("move {} ({word}) is black's {}", index + 1, verdict.name());
            }
        }
        board[r][c] = Some(stone);
        if (0..4).any(|d| renju::run_through(&board, r, c, d, stone) >= 5) {
            bail!(
                "move {} ({word}) makes five: the game would be over",
                index + 1
            );
        }
        moves.push([row, col]);
    }
    if moves.len() > MOST_MOVES {
        bail!("{} moves, more than {MOST_MOVES}", moves.len());
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_is_read_as_gomocup_cells_and_a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.txt");
        std::fs::write(&path, "# a book\n7,7 8,7  7,8\n\n3,4 # one stone\n").unwrap();
        let book = read(&path, Rules::Freestyle).unwrap();
        assert_eq!(book, [vec![[7, 7], [7, 8], [8, 7]], vec![[4, 3]]]);
        for (line, why) in [
            ("7,7 7,7", "move 2 (7,7) is on a stone"),
            ("7,15", "not a cell of the board"),
            ("7 7", "not a cell of the board"),
            ("0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0", "makes five"),
        ] {
            std::fs::write(&path, format!("7,7\n{line}\n")).unwrap();
            let error = format!("{:#}", read(&path, Rules::Freestyle).unwrap_err());
            assert!(
                error.contains("book.txt:2:") && error.contains(why),
                "{error}"
            );
        }
        // Black's double three, as x,y: row 7, columns 5 and 6; column 7, rows 5 and 6.
        std::fs::write(&path, "5,7 0,0 6,7 0,2 7,5 0,4 7,6 0,6 7,7\n").unwrap();
        assert!(read(&path, Rules::Freestyle).is_ok());
        let error = format!("{:#}", read(&path, Rules::Renju).unwrap_err());
        assert!(error.contains("black's double three"), "{error}");
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(read(&path, Rules::Freestyle).is_err());
    }
}
