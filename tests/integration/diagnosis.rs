//! Diagnosis from the first point of divergence: a run stopped after its output had gone
//! wrong is told where it went wrong first (the line, the move it answered), the hint names
//! that mistake, and the stop comes after it. Each program here is written from the
//! mistake's description alone.

use crate::common::{copy_course, repo, stdout_of};

/// A gomoku that refuses moves off the board only and never checks what scanf returns:
/// on O's move onto X's stone it plays on, past its script, and loops at the end of input.
const ACCEPTS_OCCUPIED: &str = r#"#include <stdio.h>
#include <string.h>
char b[15][15];
int five(char p) {
    int d[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };
    for (int r = 0; r < 15; r++)
        for (int c = 0; c < 15; c++)
            for (int k = 0; k < 4; k++) {
                int n = 0;
                while (n < 5) {
                    int y = r + n * d[k][0], x = c + n * d[k][1];
                    if (y < 0 || y >= 15 || x < 0 || x >= 15 || b[y][x] != p) break;
                    n++;
                }
                if (n == 5) return 1;
            }
    return 0;
}
int main(void) {
    int turn = 0, r = 0, c = 0;
    memset(b, '.', sizeof b);
    for (;;) {
        char p = turn % 2 ? 'O' : 'X';
        printf("Player %c, enter row col: ", p);
        scanf("%d %d", &r, &c);
        if (r < 0 || r > 14 || c < 0 || c > 14) { printf("Invalid move! Try again.\n"); continue; }
        b[r][c] = p;
        if (five(p)) { printf("Player %c wins!\n", p); break; }
        turn++;
    }
    return 0;
}
"#;

/// A print_board whose row loop stops one row short.
const LAST_ROW_MISSING: &str = r#"#include <stdio.h>
int main(void) {
    printf("   ");
    for (int c = 0; c < 15; c++) printf("%2d ", c);
    printf("\n");
    for (int r = 0; r < 14; r++) {
        printf("%2d ", r);
        for (int c = 0; c < 15; c++) printf(" %c ", '.');
        printf("\n");
    }
    return 0;
}
"#;

fn run(exercise: &str, program: &str) -> String {
    let course = copy_course(&repo());
    std::fs::write(
        course.path().join(format!("exercises/{exercise}.c")),
        program,
    )
    .unwrap();
    let output = crate::common::clings(course.path())
        .env("NO_COLOR", "1")
        .args(["run", exercise])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    stdout_of(&output)
}

#[test]
fn a_loop_after_a_wrong_move_is_reported_after_the_move_and_its_hint_names_the_move() {
    let stdout = run("gomoku", ACCEPTS_OCCUPIED);
    let line = stdout
        .lines()
        .find(|line| line.contains("12_move_on_occupied_cell"))
        .unwrap_or_else(|| panic!("{stdout}"));
    // The verdict is what stopped it; the message names the wrong move first, then the stop.
    let wrong = line
        .find("the output went wrong first on line 1, answering input line 2 (`7 7`): expected \"Invalid move! Try again.\", printed \"Player X, enter row col:")
        .unwrap_or_else(|| panic!("{line}"));
    let after = line
        .find("as a consequence")
        .unwrap_or_else(|| panic!("{line}"));
    assert!(wrong < after, "{line}");
    assert!(
        line.contains("output_limit") || line.contains("timeout"),
        "{line}"
    );
    // The hint is about the occupied cell, not about scanf's return value, and the diff of
    // the output up to a little past the wrong move is shown under it.
    let case = &stdout[stdout.find(line).unwrap()..];
    let hint = case
        .find("hint: O played on X's stone")
        .unwrap_or_else(|| panic!("{case}"));
    let diff = case
        .find("--- expected")
        .unwrap_or_else(|| panic!("{case}"));
    assert!(hint < diff, "{case}");
    let hint_line = case[hint..].lines().next().unwrap();
    assert!(!hint_line.contains("scanf"), "{hint_line}");
    // The diff is cut a little past the wrong move, not drawn over the whole loop.
    assert!(case[diff..].find("input:").unwrap() < 2000, "{case}");
}

#[test]
fn run_shows_the_verdict_the_hint_and_the_diff_before_the_input() {
    let stdout = run("print_board", LAST_ROW_MISSING);
    let verdict = stdout
        .find("wrong_output")
        .unwrap_or_else(|| panic!("{stdout}"));
    let hint = stdout
        .find("hint: Row 14, the last, is missing")
        .unwrap_or_else(|| panic!("{stdout}"));
    let diff = stdout
        .find("--- expected")
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(verdict < hint && hint < diff, "{stdout}");
    // The hint and the start of the diff come within the first lines.
    assert!(stdout[..diff].lines().count() < 8, "{stdout}");

    // With an input, it comes last, after the diff.
    let stdout = run("gomoku", ACCEPTS_OCCUPIED);
    let case = &stdout[stdout.find("12_move_on_occupied_cell").unwrap()..];
    let diff = case.find("--- expected").unwrap();
    let input = case.find("input:").unwrap_or_else(|| panic!("{case}"));
    assert!(diff < input, "{case}");
}

#[test]
fn dev_check_explain_names_the_rule_that_fired_per_case_for_each_wrong_program() {
    let course = copy_course(&repo());
    let output = crate::common::clings(course.path())
        .env("NO_COLOR", "1")
        .args(["dev", "check", "--explain", "print_board"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let program = stdout
        .find("solutions/wrong/print_board/last_row_missing.c")
        .unwrap_or_else(|| panic!("{stdout}"));
    let explained = &stdout[program..];
    let case = explained
        .find("01_board wrong_output: rule \"Row 14, the last, is missing")
        .unwrap_or_else(|| panic!("{explained}"));
    // Under the next program's line, not another's.
    assert!(
        !explained[..case].contains("memset_size_SIZE"),
        "{explained}"
    );
    let sanitizer = stdout
        .find("01_board sanitizer: rule \"The row index reached 15")
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        stdout[..sanitizer].contains("inner_loop_increments_the_row.c"),
        "{stdout}"
    );
    // The `r++` of the inner loop is told the rule on the board's first index, in full.
    let program = stdout
        .find("solutions/wrong/print_board/inner_loop_increments_the_row.c")
        .unwrap();
    let first = stdout[program..].lines().nth(1).unwrap().trim();
    let rule = rule_text(
        "fixtures/print_board/01_board.toml",
        "hints",
        "report_contains",
        "for type 'char [15][15]'",
    );
    assert_eq!(first, format!("first hint: {rule}"), "{stdout}");
    // Without --explain the lines per case are not there.
    let plain = crate::common::clings(course.path())
        .env("NO_COLOR", "1")
        .args(["dev", "check", "print_board"])
        .output()
        .unwrap();
    assert!(!stdout_of(&plain).contains("01_board wrong_output: rule"));
}

/// The English text of the rule in `array` of the course's TOML `file` whose `key` is
/// `value`: a hint named by what it keys on, not by its words.
fn rule_text(file: &str, array: &str, key: &str, value: impl Into<toml::Value>) -> String {
    let text = std::fs::read_to_string(repo().join(file)).unwrap();
    let document: toml::Table = toml::from_str(&text).unwrap();
    let value = value.into();
    let rules = |table: &toml::Table| table.get(array).and_then(|rules| rules.as_array()).cloned();
    // info.toml holds them per exercise; a case's file, at its top.
    let all: Vec<toml::Value> = match document.get("exercises") {
        Some(exercises) => exercises
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|exercise| rules(exercise.as_table().unwrap()))
            .flatten()
            .collect(),
        None => rules(&document).unwrap_or_default(),
    };
    let rule = all
        .iter()
        .find(|rule| rule.get(key) == Some(&value))
        .unwrap_or_else(|| panic!("no rule with {key} = {value} in {file}"));
    rule["text"]["en"].as_str().unwrap().to_string()
}

/// The first hint `clings run EXERCISE` shows for `program`, a known-wrong program of the
/// course: the first `hint:` line, the one of the case its report starts with.
fn first_hint_of(exercise: &str, program: &str) -> String {
    let text = std::fs::read_to_string(repo().join(program)).unwrap();
    let stdout = run(exercise, &text);
    let line = stdout
        .lines()
        .find(|line| line.trim_start().starts_with("hint: "))
        .unwrap_or_else(|| panic!("no hint for {program}:\n{stdout}"));
    line.trim_start()["hint: ".len()..].to_string()
}

/// Held-out mistakes, written from their description: a gomoku that never declares a draw
/// (and loops at the end of its input) is told of the draw, not of scanf's return or a loop;
/// a check_win that prints `Black` is told of the capital letter, not of the last rows and
/// columns.
#[test]
fn a_game_without_a_draw_and_a_capitalised_winner_are_told_their_mistake_first() {
    let draw = first_hint_of("gomoku", "solutions/wrong/gomoku/draw_never_declared.c");
    let rule = rule_text(
        "fixtures/gomoku/18_draw_full_board.toml",
        "hints",
        "output_lacks",
        "Draw!",
    );
    assert_eq!(draw, rule);
    assert!(draw.contains("never said \"Draw!\""), "{draw}");
    assert!(!draw.contains("scanf") && !draw.contains("loop"), "{draw}");

    let capital = first_hint_of(
        "check_win",
        "solutions/wrong/check_win/winner_capitalised.c",
    );
    let rule = rule_text("info.toml", "failure_hints", "letter_case", true);
    assert_eq!(capital, rule);
    assert!(capital.contains("capital letters only"), "{capital}");
}

#[test]
fn a_rule_on_an_input_line_without_the_exercise_s_prompt_is_a_course_problem() {
    let course = copy_course(&repo());
    let case = course.path().join("fixtures/print_board/01_board.toml");
    let mut text = std::fs::read_to_string(&case).unwrap();
    text.push_str("\n[[hints]]\ninput_line = 1\ntext = { en = \"a\", zh = \"a\" }\n");
    std::fs::write(&case, text).unwrap();
    let output = crate::common::clings(course.path())
        .env("NO_COLOR", "1")
        .args(["dev", "check", "print_board"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("fixtures/print_board/01_board.toml: [[hints]] rule")
            && stdout.contains("input_line needs the exercise's `prompt` in info.toml"),
        "{stdout}"
    );
}
