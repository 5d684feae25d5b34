//! The lesson's own reference solutions (section 参考解答 of the lesson text) define the
//! expected outputs: each must pass every case of its exercise. The lesson is read from
//! `../shared/lesson/` beside the repository. Without it (a bare clone) the test says it
//! was skipped; under CI (`CI=true`), where the lesson is always there, it fails.

mod common;

use common::*;

const LESSON: &str = "../shared/lesson/lesson23-gomoku.zh.txt";

/// The C program that follows `marker` in the lesson: from its first line up to the
/// prose that comes after the closing brace of `main`.
fn program_after(lesson: &str, marker: &str) -> String {
    let start = lesson
        .find(&format!("\n{marker}\n"))
        .unwrap_or_else(|| panic!("{marker} is not in the lesson"));
    let mut code = Vec::new();
    let mut in_main = false;
    for line in lesson[start + marker.len() + 2..].lines() {
        if in_main && !line.is_empty() && !line.is_ascii() && !line.starts_with(' ') {
            break;
        }
        in_main |= line.starts_with("int main");
        code.push(line);
    }
    code.join("\n") + "\n"
}

#[test]
fn lesson_reference_solutions_pass_every_case() {
    let lesson = match std::fs::read_to_string(repo().join(LESSON)) {
        Ok(lesson) => lesson,
        Err(err) => {
            require(false, &format!("cannot read {LESSON} ({err})"));
            return;
        }
    };
    let course = copy_course(&repo());
    for name in ["print_board", "check_win", "gomoku"] {
        let program = program_after(&lesson, &format!("solution_{name}.c"));
        assert!(
            program.contains("int main") && program.trim_end().ends_with('}'),
            "{program}"
        );
        std::fs::write(course.path().join(format!("exercises/{name}.c")), program).unwrap();
    }
    let (document, code) = json_results(course.path(), &[]);
    for index in 0..3 {
        let verdicts = verdicts(&document, index);
        assert!(
            verdicts.iter().all(|v| v == "passed"),
            "{}: {verdicts:?}",
            document["exercises"][index]["name"]
        );
    }
    assert_eq!(code, Some(0));
}
