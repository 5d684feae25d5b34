//! Chapter 3's search exercise: the referee's two rules that look two moves deep, judged
//! through the real referee on scripted games, and the chapter 2 ai (a one-move scorer)
//! failing the exercise, told that it does not look ahead.

use crate::common;

use common::{copy_course, json_results, repo, scripted_player};

/// The ai exercise's course with one case, `case` (a referee case file), played by
/// `program` as the student's ai.c: the case's verdict and message.
fn ai_case(case: &str, program: &str) -> (String, String) {
    let course = copy_course(&repo());
    let fixtures = course.path().join("fixtures/ai");
    std::fs::remove_dir_all(&fixtures).unwrap();
    std::fs::create_dir(&fixtures).unwrap();
    std::fs::write(fixtures.join("01_two_moves_deep.in"), case).unwrap();
    std::fs::write(fixtures.join("01_two_moves_deep.out"), "").unwrap();
    std::fs::write(
        fixtures.join("01_two_moves_deep.toml"),
        "time_limit_ms = 60000\ncpu_time_ms = 60000\n",
    )
    .unwrap();
    std::fs::write(course.path().join("exercises/ai.c"), program).unwrap();
    let (document, _) = json_results(course.path(), &["ai"]);
    let case = &document["exercises"][0]["cases"][0];
    let field = |key: &str| case[key].as_str().unwrap_or_default().to_string();
    (field("verdict"), field("message"))
}

/// X's open three on row 7, closed two cells to the right by O (7 9): 7 4 makes a
/// straight four and wins in two, 7 8 a four O stops. The rule takes the first, not the
/// second.
#[test]
fn win_in_two_wants_the_four_that_cannot_be_stopped() {
    let case = "player X\nopponent script\nmove 7 9\nmove 0 0\nmove 0 14\nmove 14 0\n\
                move 14 14\nafter random 1\nrule win_in_two\n";
    let (verdict, message) = ai_case(
        case,
        &scripted_player(&[(7, 5), (7, 6), (7, 7), (7, 8), (7, 4), (7, 3)]),
    );
    assert_eq!(verdict, "wrong_output", "{message}");
    assert!(
        message.ends_with(
            "move 7: 7 4 wins in two (after it two cells make five for you), but you played 7 8"
        ),
        "{message}"
    );
    let (verdict, message) = ai_case(
        case,
        &scripted_player(&[(7, 5), (7, 6), (7, 7), (7, 4), (7, 3)]),
    );
    assert_eq!(verdict, "passed", "{message}");
    // Without the rule the closed four is a move like any other.
    let (verdict, message) = ai_case(
        &case.replace("rule win_in_two\n", ""),
        &scripted_player(&[(7, 5), (7, 6), (7, 7), (7, 8), (7, 4), (7, 3), (7, 2)]),
    );
    assert_eq!(verdict, "passed", "{message}");
}

/// X's open three on row 7: either end makes a straight four, so O must take one; a move
/// beyond it (7 9) does not stop the other.
#[test]
fn block_win_in_two_wants_a_move_that_stops_it() {
    let case = "player O\nopponent script\nmove 7 5\nmove 7 6\nmove 7 7\nmove 7 8\n\
                move 14 0\nmove 14 2\nmove 14 4\nmove 14 6\nafter random 1\n\
                rule block_four\nrule block_win_in_two\n";
    let (verdict, message) = ai_case(case, &scripted_player(&[(0, 0), (0, 1), (7, 9)]));
    assert_eq!(verdict, "wrong_output", "{message}");
    assert!(
        message.ends_with(
            "move 6: X wins in two with 7 4 next (two cells would make five); you played 7 9, \
             and 7 4 would have stopped it"
        ),
        "{message}"
    );
    let stops = [(0, 0), (0, 1), (7, 4), (7, 9), (0, 2), (0, 3), (0, 4)];
    let (verdict, message) = ai_case(case, &scripted_player(&stops));
    assert_eq!(verdict, "passed", "{message}");
}

#[test]
fn the_chapter_2_ai_fails_the_search_exercise_told_it_does_not_look_ahead() {
    let course = copy_course(&repo());
    std::fs::copy(
        repo().join("solutions/ai.c"),
        course.path().join("exercises/search.c"),
    )
    .unwrap();
    let (document, code) = json_results(course.path(), &["search"]);
    let exercise = &document["exercises"][0];
    assert_eq!(exercise["status"], "failed", "{exercise:#}");
    assert_eq!(code, Some(1));
    let cases = exercise["cases"].as_array().unwrap();
    let failed: Vec<&str> = cases
        .iter()
        .filter(|case| case["verdict"] != "passed" && case["bonus"] != true)
        .map(|case| case["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        failed,
        [
            "05_win_in_two_o_random_seed_24",
            "06_win_in_two_o_random_seed_77",
            "07_win_in_two_x_random_seed_13",
            "08_block_win_in_two_x_strong",
            "09_block_win_in_two_o_strong"
        ]
    );
    let first = cases.iter().find(|case| case["name"] == failed[0]).unwrap();
    let hint = first["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("does not look ahead"), "{hint}");
}
