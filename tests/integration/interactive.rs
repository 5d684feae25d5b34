//! Interactive cases: the student's program in conversation with the course's referee (a
//! Kattis-style interactor), both in sandboxes of their own, clings passing on what each
//! says. The referee decides; the report shows the end of the conversation for a public
//! case and nothing of it for a hidden one; a referee that fails is the course's error.

use crate::common;

use std::path::Path;

use common::{assert_error, case_verdicts_and_messages, clings, small_course, stdout_of};
use tempfile::TempDir;

/// A course with one exercise, `guess` (find the secret number by asking the referee),
/// refereed by `referee` (in `tests/programs/interactive/`); `program` is the student's.
fn guessing_course(program: &str, referee: &str) -> TempDir {
    let dir = small_course(
        "format_version = 1\n\n[defaults]\ntime_limit_ms = 3000\n\n\
         [[exercises]]\nname = \"guess\"\ntitle = \"Guess\"\n\
         path = \"exercises/guess.c\"\nsolution = \"solutions/guess.c\"\n\
         referee = \"referees/guess.c\"\n",
        "interactive",
        &[
            (program, "exercises/guess.c"),
            ("binary", "solutions/guess.c"),
            (referee, "referees/guess.c"),
        ],
    );
    let root = dir.path();
    write_cases(
        &root.join("fixtures/guess"),
        &[("01_small", 3), ("02_large", 700)],
    );
    dir
}

/// Cases whose input (the referee's) is the secret; no answer file is needed.
fn write_cases(dir: &Path, cases: &[(&str, u32)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, secret) in cases {
        std::fs::write(dir.join(format!("{name}.in")), format!("{secret}\n")).unwrap();
        std::fs::write(dir.join(format!("{name}.out")), "").unwrap();
    }
}

/// Asserts that `course`'s cases all pass, with isolation and without.
fn passes_with_and_without_isolation(course: &Path) {
    for isolation in [None, Some("none")] {
        let mut command = clings(course);
        command.args(["test", "--format", "json"]);
        if let Some(isolation) = isolation {
            command.env("CLINGS_ISOLATION", isolation);
        }
        let results = case_verdicts_and_messages(&mut command);
        assert!(
            results.iter().all(|(verdict, _)| verdict == "passed"),
            "{isolation:?}: {results:?}"
        );
    }
}

fn graded(dir: &Path, extra: &[&str]) -> Vec<(String, String)> {
    case_verdicts_and_messages(clings(dir).args(["test", "--format", "json"]).args(extra))
}

#[test]
fn the_referee_decides_and_the_report_shows_the_conversation() {
    for isolation in [None, Some("none")] {
        let course = guessing_course("binary", "referee");
        let mut command = clings(course.path());
        command.args(["test", "--format", "json"]);
        if let Some(isolation) = isolation {
            command.env("CLINGS_ISOLATION", isolation);
        }
        let output = command.output().unwrap();
        let said = stdout_of(&output);
        assert_eq!(output.status.code(), Some(0), "{isolation:?}: {said}");
    }

    // Counting up finds 3, and runs out of guesses before 700.
    let course = guessing_course("counts_up", "referee");
    let results = graded(course.path(), &[]);
    assert_eq!(results[0].0, "passed", "{results:?}");
    assert_eq!(
        results[1],
        (
            "wrong_output".to_string(),
            "the course's referee rejected your program's play: ten guesses and still not \
             the number"
                .to_string()
        ),
        "{results:?}"
    );
    let report = stdout_of(
        &clings(course.path())
            .args(["run", "guess"])
            .output()
            .unwrap(),
    );
    // Who said what, the end of it: the program's tenth guess and the referee's answers.
    // Ten guesses and their answers, and perhaps an eleventh guess before the end.
    assert!(
        report.contains("conversation, its last 12 lines of 20:")
            || report.contains("conversation, its last 12 lines of 21:"),
        "{report}"
    );
    assert!(report.contains("you     10\n"), "{report}");
    assert!(report.contains("referee higher\n"), "{report}");
}

/// What the program says is the program's: the conversation, and the referee's message
/// that quotes it, show its control characters escaped.
#[test]
fn a_program_s_escape_sequences_are_shown_escaped_in_the_conversation() {
    let course = guessing_course("escapes", "referee");
    let report = stdout_of(
        &clings(course.path())
            .args(["run", "guess"])
            .output()
            .unwrap(),
    );
    assert!(
        report.contains("not a number: '1\\x1b]0;pwned\\x07'"),
        "{report}"
    );
    assert!(report.contains("you     1\\x1b]0;pwned\\x07\n"), "{report}");
    assert!(!report.contains(['\x1b', '\x07']), "{report:?}");
}

#[test]
fn a_program_that_does_not_flush_is_told_by_the_referee() {
    // Its guess waits in its buffer while it waits for an answer: the referee's move clock
    // runs out, and the program reads the end of its input.
    let course = guessing_course("no_flush", "referee");
    let results = graded(course.path(), &[]);
    assert_eq!(results[0].0, "wrong_output", "{results:?}");
    assert!(
        results[0]
            .1
            .ends_with("no guess within 1 s (did you fflush?)"),
        "{results:?}"
    );
}

#[test]
fn a_program_that_plays_on_after_the_referee_has_ended_is_ended_and_the_referee_decides() {
    // The referee accepts and ends; the program sleeps on. Left alone it would reach the
    // 3 s wall-time limit (a timeout); clings ends it with the game, and the referee,
    // which does not ask programs to stop, has the last word.
    passes_with_and_without_isolation(guessing_course("plays_on", "referee").path());
}

/// When the referee closes its output the program's input ends at once, though the
/// referee runs on: here it reads what the program still says until its own input ends
/// ("drain"), and the program, which reads until its input ends, then exits. Only the
/// referee itself may hold its output (the helper of a run without isolation lets go of
/// it), or both would wait for each other until the wall-time limit.
#[test]
fn the_program_s_input_ends_when_the_referee_closes_its_output() {
    let course = guessing_course("binary", "referee");
    let fixtures = course.path().join("fixtures/guess");
    for (case, secret) in [("01_small", 3), ("02_large", 700)] {
        std::fs::write(
            fixtures.join(format!("{case}.in")),
            format!("{secret} drain\n"),
        )
        .unwrap();
    }
    passes_with_and_without_isolation(course.path());
}

#[test]
fn a_hidden_case_keeps_its_conversation_to_itself() {
    let course = guessing_course("counts_up", "referee");
    let hidden = tempfile::tempdir().unwrap();
    write_cases(&hidden.path().join("guess"), &[("h1_secret", 987)]);
    let fixtures = [
        "--fixtures",
        hidden.path().to_str().unwrap(),
        "--hidden-feedback",
        "verdicts",
    ];
    let results = graded(course.path(), &fixtures);
    assert_eq!(results[2].0, "wrong_output");
    assert!(!results[2].1.contains("guesses"), "{results:?}");
    let report = stdout_of(
        &clings(course.path())
            .args(["test", "guess"])
            .args(fixtures)
            .output()
            .unwrap(),
    );
    let hidden_part = &report[report.find("h1_secret").unwrap()..];
    assert!(!hidden_part.contains("conversation"), "{report}");
    assert!(!hidden_part.contains("986"), "{report}");
}

#[test]
fn a_referee_that_fails_is_the_courses_error() {
    let course = guessing_course("binary", "crashing_referee");
    let output = clings(course.path()).args(["test"]).output().unwrap();
    assert_error(
        &output,
        "the course's referee referees/guess.c failed on case 01_small",
    );
    assert_error(&output, "not the student's");
}
