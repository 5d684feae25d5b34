//! A program that loops costs each case its whole time limit: how many cases still run
//! (docs/student-guide.md, "A program that loops"). For a student, two timeouts end the
//! grading; in CI, the cases that time out may use 10 s together, and the others still earn
//! their points.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

/// Adds `count` cases to the course's `sum` exercise, `NN_loop` with the input `a 1` where
/// `a` is 0 for the cases listed in `zero` (1 otherwise).
fn add_cases(course: &Path, count: usize, zero: &[usize]) {
    let dir = course.join("fixtures/sum");
    for index in 0..count {
        let a = if zero.contains(&index) { 0 } else { 1 };
        let name = format!("{:02}_loop", index + 10);
        std::fs::write(dir.join(format!("{name}.in")), format!("{a} 1\n")).unwrap();
        std::fs::write(dir.join(format!("{name}.out")), format!("{}\n", a + 1)).unwrap();
    }
}

fn count(verdicts: &[String], word: &str) -> usize {
    verdicts.iter().filter(|verdict| *verdict == word).count()
}

#[test]
fn a_student_waits_for_two_timeouts_then_is_told_which_case_to_fix() {
    let course = sum_course("timeout");
    add_cases(course.path(), 20, &[]);
    let started = Instant::now();
    let output = clings(course.path())
        .args(["--jobs", "2", "test", "sum", "--format", "json"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let verdicts = verdicts(&document, 0);
    assert_eq!(verdicts.len(), 22);
    // Two timeouts show the loop; a case that had already started when the second came
    // runs to its end too: at most one per job more.
    let timeouts = count(&verdicts, "timeout");
    assert!((2..=3).contains(&timeouts), "{verdicts:?}");
    assert_eq!(count(&verdicts, "not_run"), 22 - timeouts, "{verdicts:?}");
    let message = document["exercises"][0]["cases"][21]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("run out of time on other cases"),
        "{message}"
    );
    // Each timeout is 1 s of CPU: far below the 22 s of running every case.
    assert!(took < Duration::from_secs(15), "{took:?}");

    // The student's report says it once, and names the first case to fix.
    let output = clings(course.path())
        .args(["--jobs", "2", "run", "sum"])
        .output()
        .unwrap();
    let report = stdout_of(&output);
    assert!(
        report.contains("more cases: the program ran out of time on")
            && report.contains("Fix 01_small first"),
        "{report}"
    );
    assert_eq!(report.matches("not_run").count(), 1, "{report}");
}

#[test]
fn in_ci_the_cases_that_do_not_loop_still_earn_their_points() {
    // Three of twelve loop: every other case runs and passes.
    let layout = ci_layout(
        &repo().join("tests/course"),
        &[("programs/loops_on_zero.c", "sum.c")],
        "sum",
    );
    let course = layout.path().join("course");
    std::fs::remove_file(course.join("fixtures/sum/01_small.in")).unwrap();
    std::fs::remove_file(course.join("fixtures/sum/01_small.out")).unwrap();
    std::fs::remove_file(course.join("fixtures/sum/01_small.toml")).unwrap();
    std::fs::remove_file(course.join("fixtures/sum/02_negative.in")).unwrap();
    std::fs::remove_file(course.join("fixtures/sum/02_negative.out")).unwrap();
    std::fs::remove_file(course.join("fixtures/sum/02_negative.toml")).unwrap();
    add_cases(&course, 12, &[0, 5, 11]);
    let output = clings(&course)
        .args([
            "--jobs",
            "2",
            "test",
            "sum",
            "--format",
            "json",
            "--submission",
        ])
        .arg(layout.path().join("submission"))
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", stderr_of(&output)));
    let verdicts = verdicts(&document, 0);
    assert_eq!(count(&verdicts, "timeout"), 3, "{verdicts:?}");
    assert_eq!(count(&verdicts, "passed"), 9, "{verdicts:?}");
    assert_eq!(document["points"], 9);
}

#[test]
fn in_ci_timeouts_may_use_ten_seconds_together_then_the_rest_is_not_run() {
    let layout = ci_layout(
        &repo().join("tests/course"),
        &[("programs/timeout.c", "sum.c")],
        "sum",
    );
    let course = layout.path().join("course");
    add_cases(&course, 28, &[]);
    let started = Instant::now();
    let output = clings(&course)
        .args([
            "--jobs",
            "2",
            "test",
            "sum",
            "--format",
            "json",
            "--submission",
        ])
        .arg(layout.path().join("submission"))
        .output()
        .unwrap();
    let took = started.elapsed();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", stderr_of(&output)));
    let verdicts = verdicts(&document, 0);
    // Each timeout is about 1 s of wall time (the CPU limit): ten of them, and one more
    // per job that had started, then nothing.
    let timeouts = count(&verdicts, "timeout");
    assert!(
        (10..=12).contains(&timeouts),
        "{timeouts} timeouts: {verdicts:?}"
    );
    assert_eq!(count(&verdicts, "not_run"), 30 - timeouts, "{verdicts:?}");
    assert!(took < Duration::from_secs(25), "{took:?}");
}
