//! `clings dev mutants`: the mutation score measures how strong the cases are. A weak spot
//! planted in a copy of the course (check_win without the cases that hold an anti-diagonal
//! five) lowers its score, and the anti-diagonal's mutant survives, with a board that tells
//! it from the reference: an anti-diagonal five.

use crate::common;

use std::path::Path;

use common::*;

/// Runs `dev mutants check_win` (few made-up inputs, to be quick); its exit code and output.
fn mutants(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = clings(dir)
        .args(["dev", "mutants", "check_win", "--tries", "40"])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        format!("{}{}", stdout_of(&output), stderr_of(&output)),
    )
}

/// The score `check_win: mutation score 97.5%, ...` says.
fn score(output: &str) -> f64 {
    let line = output
        .lines()
        .find(|line| line.starts_with("check_win: mutation score "))
        .unwrap_or_else(|| panic!("no score in:\n{output}"));
    let number = line["check_win: mutation score ".len()..]
        .split('%')
        .next()
        .unwrap();
    number.parse().unwrap()
}

/// Whether the board has five of one player's stones in a row going down-left.
fn has_anti_diagonal_five(board: &str) -> bool {
    let cells: Vec<Vec<char>> = board.lines().map(|line| line.chars().collect()).collect();
    let at = |r: i64, c: i64| -> Option<char> {
        let row = cells.get(usize::try_from(r).ok()?)?;
        row.get(usize::try_from(c).ok()?).copied()
    };
    (0..15i64).any(|r| {
        (0..15i64).any(|c| {
            let first = at(r, c);
            matches!(first, Some('B' | 'W')) && (1..5).all(|k| at(r + k, c - k) == first)
        })
    })
}

#[test]
fn a_course_without_anti_diagonal_cases_scores_lower_and_keeps_the_anti_diagonal_mutant() {
    let full = copy_course(&repo());
    let weak = copy_course(&repo());
    let fixtures = weak.path().join("fixtures/check_win");
    let mut removed = 0;
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "in")
            && has_anti_diagonal_five(&std::fs::read_to_string(&path).unwrap())
        {
            for ext in ["in", "out", "toml"] {
                let _ = std::fs::remove_file(path.with_extension(ext));
            }
            removed += 1;
        }
    }
    assert!(removed >= 8, "only {removed} anti-diagonal cases found");

    let (code, full_output) = mutants(full.path(), &["--min-score", "95"]);
    assert_eq!(code, Some(0), "{full_output}");
    let full_score = score(&full_output);
    assert!(full_score >= 95.0, "{full_output}");

    let (code, weak_output) = mutants(weak.path(), &["--min-score", "95"]);
    assert_eq!(code, Some(1), "{weak_output}");
    assert!(score(&weak_output) < full_score, "{weak_output}");
    // The direction array's anti-diagonal entry made a second vertical survives, and the
    // input found for it is a board with an anti-diagonal five.
    let lines: Vec<&str> = weak_output.lines().collect();
    let survivor = lines
        .iter()
        .position(|line| line.contains("survived") && line.contains("{1, -1} → {1, 0}"))
        .unwrap_or_else(|| panic!("the anti-diagonal mutant did not survive:\n{weak_output}"));
    let input = lines[survivor + 1]
        .split("--input ")
        .nth(1)
        .unwrap_or_else(|| panic!("no input for the survivor:\n{weak_output}"));
    let board = std::fs::read_to_string(weak.path().join(input.trim())).unwrap();
    assert!(has_anti_diagonal_five(&board), "{board}");
    assert!(
        !full_output.contains("{1, -1} → {1, 0}"),
        "the full course lets the anti-diagonal mutant through:\n{full_output}"
    );
}
