//! The ai exercise judges the contract of SPEC.md's exercise 7, priority by priority: a player
//! that follows the priorities as stated passes, whatever it plays when none applies; naive
//! players fail, told first which priority they lack; strength beyond the contract (games
//! against random, priorities and strong) earns bonus points and fails nothing.

use crate::common;

use std::path::Path;

use common::{copy_course, json_results, repo, stdout_of};
use serde_json::Value;
use tempfile::TempDir;

/// The shipped course with `program` (a path in the repository) as the student's ai.c.
fn course_playing(program: &str) -> TempDir {
    let course = copy_course(&repo());
    std::fs::copy(repo().join(program), course.path().join("exercises/ai.c")).unwrap();
    course
}

/// `clings test ai --format json` in `course`: the exercise's report and the exit code.
fn graded(course: &Path) -> (Value, Option<i32>) {
    let (document, code) = json_results(course, &["ai"]);
    (document["exercises"][0].clone(), code)
}

fn cases(exercise: &Value) -> &Vec<Value> {
    exercise["cases"].as_array().expect("cases")
}

fn named<'a>(exercise: &'a Value, name: &str) -> &'a Value {
    cases(exercise)
        .iter()
        .find(|case| case["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

/// The hint of the first case that fails the exercise (not a bonus): where the reports start.
fn first_hint(exercise: &Value) -> String {
    let first = cases(exercise)
        .iter()
        .find(|case| case["verdict"] != "passed" && case["bonus"] != true)
        .unwrap_or_else(|| panic!("no failing case: {exercise:#}"));
    first["hint"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_player_that_follows_the_spec_priorities_passes_and_its_lost_bonus_game_costs_a_point() {
    let course = course_playing("tests/programs/ai_spec_priorities.c");
    let (exercise, code) = graded(course.path());
    // Its moves when no priority applies are the first empty cell: the lesson's priorities
    // bot, with better tie-breaks, beats it. That is a bonus game, not the contract.
    let lost = named(&exercise, "29_not_lose_to_priorities");
    assert_eq!(lost["verdict"], "wrong_output", "{lost:#}");
    assert_eq!(lost["bonus"], true);
    assert_eq!(lost["points"], 0);
    for case in cases(&exercise) {
        if case["bonus"] != true {
            assert_eq!(case["verdict"], "passed", "{case:#}");
        }
    }
    assert_eq!(exercise["status"], "passed", "{exercise:#}");
    assert_eq!(code, Some(0));
    let (points, max) = (&exercise["points"], &exercise["max_points"]);
    assert_eq!(points.as_u64().unwrap() + 1, max.as_u64().unwrap());

    // The human report says the failure is a bonus missed.
    let output = common::clings(course.path())
        .args(["test", "ai"])
        .output()
        .unwrap();
    let said = stdout_of(&output);
    let line = said
        .lines()
        .find(|line| line.contains("29_not_lose_to_priorities"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(line.contains("bonus, not required: "), "{line}");
    assert_eq!(output.status.code(), Some(0), "{said}");

    // JUnit and GitHub, read by CI as failed results, are told it fails nothing.
    let report = |format: &str| {
        let output = common::clings(course.path())
            .args(["test", "ai", "--format", format])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{format}");
        stdout_of(&output)
    };
    let junit = report("junit");
    let case = &junit[junit
        .find("\"29_not_lose_to_priorities\"")
        .expect("the case")..];
    let case = &case[..case.find("</testcase>").expect("its end")];
    assert!(
        case.contains("<skipped message=\"bonus, not required: "),
        "{case}"
    );
    assert!(!junit.contains("<failure"), "{junit}");
    let github = report("github");
    assert!(
        github.contains("::warning file=exercises/ai.c,title=ai (bonus) 29_not_lose_to_priorities"),
        "{github}"
    );
    assert!(!github.contains("::error"), "{github}");
}

#[test]
fn naive_players_fail_and_are_told_first_the_priority_they_lack() {
    // Deterministic players: none blocks a four, and the first hint says so.
    for program in [
        "first_empty_cell",
        "mirrors_the_opponent",
        "spiral_from_the_centre",
    ] {
        let course = course_playing(&format!("solutions/wrong/ai/{program}.c"));
        let (exercise, code) = graded(course.path());
        assert_eq!(exercise["status"], "failed", "{program}");
        assert_eq!(code, Some(1), "{program}");
        let hint = first_hint(&exercise);
        assert!(
            hint.starts_with("Your program never blocks"),
            "{program}: {hint}"
        );
    }
    // A random player fails too; which priority it meets first is down to chance.
    let course = course_playing("solutions/wrong/ai/random_cell.c");
    let (exercise, code) = graded(course.path());
    assert_eq!(
        (exercise["status"].as_str(), code),
        (Some("failed"), Some(1))
    );
    let hint = first_hint(&exercise);
    assert!(
        [
            "never blocks",
            "The opponent had a four",
            "could have won",
            "three in a row"
        ]
        .iter()
        .any(|priority| hint.contains(priority)),
        "{hint}"
    );
}

#[test]
fn a_player_with_a_three_must_make_it_four_when_nothing_is_more_urgent() {
    // The mirror image of X's open three is O's own three: the next move must extend it.
    let course = course_playing("solutions/wrong/ai/mirrors_the_opponent.c");
    let (exercise, _) = graded(course.path());
    for name in ["17_extend_three_o", "18_extend_three_x"] {
        let case = named(&exercise, name);
        let message = case["message"].as_str().unwrap();
        assert!(
            message.contains("11 8 makes a four of your three, but you played 5 13"),
            "{name}: {message}"
        );
        let hint = case["hint"].as_str().unwrap_or("");
        assert!(hint.contains("extend your own three"), "{name}: {hint}");
    }
    // With the first two priorities and none of the third, that is the one mistake, and
    // the first hint names it.
    let course = course_playing("solutions/wrong/ai/never_extends_three.c");
    let (exercise, code) = graded(course.path());
    assert_eq!(
        (exercise["status"].as_str(), code),
        (Some("failed"), Some(1))
    );
    let hint = first_hint(&exercise);
    assert!(hint.contains("it has no third priority"), "{hint}");
}

/// A player that thinks past its first move's time (its start-up second included) and
/// then prints the move, flushed.
const THINKS_TOO_LONG: &str = "#include <stdio.h>\n#include <time.h>\n\nint main(void)\n{\n    \
    char side;\n    if (scanf(\" %c\", &side) != 1)\n        return 0;\n    \
    while (clock() < 26 * CLOCKS_PER_SEC / 10)\n        continue;\n    \
    printf(\"7 7\\n\");\n    fflush(stdout);\n    return 0;\n}\n";

/// After a move that did not come in time, the referee waits a moment for a line that a
/// missing fflush held back, not a second: a player that forgot fflush is told so, one that
/// was still thinking (and flushes) is told only that its move was late.
#[test]
fn a_late_move_is_put_down_to_a_missing_fflush_only_when_it_was_one() {
    let said = |program: &str| {
        let course = copy_course(&repo());
        std::fs::write(course.path().join("exercises/ai.c"), program).unwrap();
        let fixtures = course.path().join("fixtures/ai");
        for entry in std::fs::read_dir(&fixtures).unwrap() {
            let path = entry.unwrap().path();
            if !path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("01_")
            {
                std::fs::remove_file(path).unwrap();
            }
        }
        let (exercise, _) = graded(course.path());
        let case = &cases(&exercise)[0];
        assert_eq!(case["verdict"], "wrong_output", "{exercise:#}");
        case.to_string()
    };
    let forgets =
        std::fs::read_to_string(repo().join("solutions/wrong/ai/forgets_flush.c")).unwrap();
    let late_line = "a line came after the game ended";
    let forgot = said(&forgets);
    assert!(
        forgot.contains("no move within") && forgot.contains(late_line),
        "{forgot}"
    );
    let thinking = said(THINKS_TOO_LONG);
    assert!(thinking.contains("no move within"), "{thinking}");
    assert!(!thinking.contains(late_line), "{thinking}");
}
