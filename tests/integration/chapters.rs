//! A course in chapters: the list and `run next` go chapter by chapter, every report names
//! the chapters, and only the chapters that count for a grade make the total.

use crate::common;

use std::path::Path;

use common::{clings, copy_course, hello_as_practice, repo, stdout_of};
use tempfile::TempDir;

/// The test course in chapters (see [`hello_as_practice`]).
fn course_in_chapters() -> TempDir {
    let dir = copy_course(&repo().join("tests/course"));
    hello_as_practice(dir.path());
    dir
}

fn solve(course: &Path, exercise: &str) {
    std::fs::copy(
        course.join(format!("solutions/{exercise}.c")),
        course.join(format!("exercises/{exercise}.c")),
    )
    .unwrap();
}

#[test]
fn list_and_run_next_go_chapter_by_chapter() {
    let course = course_in_chapters();
    let listed = stdout_of(&clings(course.path()).arg("list").output().unwrap());
    let core = listed
        .find("Chapter 1 · The core (0/1 done)")
        .expect(&listed);
    let sum = listed.find("sum").expect(&listed);
    let after = listed
        .find("Chapter 2 · After class (0/1 done) — practice, not graded")
        .expect(&listed);
    let hello = listed.find("hello").expect(&listed);
    assert!(core < sum && sum < after && after < hello, "{listed}");
    assert!(
        listed.contains("Chapters: The core 0/1 · After class 0/1"),
        "{listed}"
    );

    solve(course.path(), "sum");
    let output = clings(course.path())
        .args(["run", "next"])
        .output()
        .unwrap();
    let said = stdout_of(&output);
    assert!(said.contains("sum passed"), "{said}");
    assert!(
        said.contains("hello"),
        "the next one is in chapter 2: {said}"
    );
    assert!(
        said.contains("Chapters: The core 1/1 · After class 0/1"),
        "{said}"
    );
    let output = clings(course.path())
        .args(["run", "next"])
        .output()
        .unwrap();
    let said = stdout_of(&output);
    assert!(said.starts_with("hello"), "{said}");
    let listed = stdout_of(
        &clings(course.path())
            .args(["--lang", "zh", "list"])
            .output()
            .unwrap(),
    );
    assert!(listed.contains("第 1 章 · 核心（已完成 1/1）"), "{listed}");
}

#[test]
fn reports_give_each_chapter_and_the_total_counts_the_graded_ones() {
    let course = course_in_chapters();
    solve(course.path(), "sum");
    solve(course.path(), "hello");
    // hello now passes, but it is practice: its point stays out of the total.
    let output = clings(course.path())
        .args(["test", "--format", "json"])
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["exercises"][0]["chapter"], "core");
    assert_eq!(document["exercises"][1]["chapter"], "after_class");
    assert_eq!(
        (document["points"].as_u64(), document["max_points"].as_u64()),
        (Some(3), Some(3))
    );
    let chapters = document["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), 2);
    assert_eq!(chapters[1]["name"], "after_class");
    assert_eq!(chapters[1]["graded"], false);
    assert_eq!(chapters[1]["points"], 1);
    assert_eq!(chapters[1]["passed"], 1);

    let human = stdout_of(&clings(course.path()).arg("test").output().unwrap());
    assert!(human.contains("== The core =="), "{human}");
    assert!(human.contains("Points: 3/3"), "{human}");
    assert!(
        human.contains(
            "After class: 1/1 points, 1 of 1 exercises passed (practice, not in the total)"
        ),
        "{human}"
    );
    let junit = stdout_of(
        &clings(course.path())
            .args(["test", "--format", "junit"])
            .output()
            .unwrap(),
    );
    assert!(
        junit.contains(r#"<property name="chapter" value="after_class"/>"#),
        "{junit}"
    );

    // One exercise's report names no chapter to a person: there is nothing to tell apart.
    let human = stdout_of(
        &clings(course.path())
            .args(["test", "hello"])
            .output()
            .unwrap(),
    );
    assert!(
        !human.contains("==") && !human.contains("After class:"),
        "{human}"
    );
}

#[test]
fn the_gradebook_has_a_column_per_chapter() {
    let root = tempfile::tempdir().unwrap();
    let course = course_in_chapters();
    let submissions = root.path().join("submissions");
    for (student, sum, hello) in [("ann", "passing", true), ("ben", "wrong_output", false)] {
        let dir = submissions.join(student);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            repo().join(format!("tests/programs/{sum}.c")),
            dir.join("sum.c"),
        )
        .unwrap();
        if hello {
            std::fs::copy(course.path().join("solutions/hello.c"), dir.join("hello.c")).unwrap();
        }
    }
    let output = clings(course.path())
        .arg("grade")
        .arg(&submissions)
        .arg("--out")
        .arg(root.path().join("book"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let csv = std::fs::read_to_string(root.path().join("book/grades.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "student,sum,hello,chapter core,chapter after_class,total,max,summary"
    );
    assert!(lines[1].starts_with("ann,3,1,3,1,3,3,"), "{csv}");
    assert!(lines[2].starts_with("ben,0,0,0,0,0,3,"), "{csv}");
}

/// `clings test --submission DIR` plus `args`, in `course`, with its exit code and stdout.
fn test_submission(course: &Path, submission: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = clings(course)
        .args(["test", "--submission"])
        .arg(submission)
        .args(args)
        .output()
        .unwrap();
    (output.status.code(), stdout_of(&output))
}

/// A submission of `sum` as `program` (a file of tests/programs), without hello.
fn submission_of_sum(root: &Path, program: &str) -> std::path::PathBuf {
    let dir = root.join("submission");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        repo().join(format!("tests/programs/{program}.c")),
        dir.join("sum.c"),
    )
    .unwrap();
    dir
}

/// docs/course-authoring.md, "What passes": the exit status follows what is graded. Full marks
/// in the graded chapter with the practice chapter not started is a pass (exit 0) that every
/// format agrees with; `--count-practice` (alias `--all-chapters`) makes practice count.
#[test]
fn full_marks_in_the_graded_chapters_pass_whatever_practice_says() {
    let course = course_in_chapters();
    let root = tempfile::tempdir().unwrap();
    let submission = submission_of_sum(root.path(), "passing");
    let (code, human) = test_submission(course.path(), &submission, &[]);
    assert_eq!(code, Some(0), "{human}");
    assert!(human.contains("Points: 3/3"), "{human}");
    assert!(
        human.ends_with(
            "Result: passed (practice does not count toward it: After class; \
             --count-practice counts it)\n1 passed, 1 failed\n"
        ),
        "{human}"
    );
    let (code, human) = test_submission(course.path(), &submission, &["--lang", "zh"]);
    assert_eq!(code, Some(0), "{human}");
    assert!(
        human.contains("结果：通过（练习「课后」不计入结果；加 --count-practice 则计入）"),
        "{human}"
    );

    let (code, json) = test_submission(course.path(), &submission, &["--format", "json"]);
    assert_eq!(code, Some(0), "{json}");
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(document["success"], true, "{json}");
    assert_eq!(document["counting"], "graded");
    assert_eq!(document["counted_chapters"], serde_json::json!(["core"]));
    assert_eq!(document["chapters"][0]["counted"], true);
    assert_eq!(document["chapters"][1]["counted"], false);
    assert_eq!(
        (&document["passed"], &document["failed"]),
        (&1.into(), &1.into())
    );

    // Practice that does not count is no failure to a CI's test view, nor an error on its
    // check: its cases are skipped, saying how they failed; its annotations are warnings.
    let (code, junit) = test_submission(course.path(), &submission, &["--format", "junit"]);
    assert_eq!(code, Some(0), "{junit}");
    assert!(
        junit.contains(r#"<testsuites name="clings" tests="3" skipped="1" failures="0""#),
        "{junit}"
    );
    assert!(
        junit.contains(r#"<property name="counted" value="false"/>"#)
            && junit.contains(r#"<skipped message="practice, not counted: not run: "#),
        "{junit}"
    );
    let (code, github) = test_submission(course.path(), &submission, &["--format", "github"]);
    assert_eq!(code, Some(0), "{github}");
    assert!(
        github.contains("\n::warning file=exercises/hello.c,title=hello (practice)::exercises/hello.c is missing\n")
            && !github.contains("\n::error"),
        "{github}"
    );

    for flag in ["--count-practice", "--all-chapters"] {
        let (code, json) = test_submission(course.path(), &submission, &[flag, "--format", "json"]);
        assert_eq!(code, Some(1), "{flag}: {json}");
        let document: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(document["success"], false, "{json}");
        assert_eq!(document["counting"], "with_practice");
        assert_eq!(
            document["counted_chapters"],
            serde_json::json!(["core", "after_class"])
        );
    }
    let (code, human) = test_submission(course.path(), &submission, &["--count-practice"]);
    assert_eq!(code, Some(1), "{human}");
    assert!(
        human.contains(
            "Result: failed (practice counts toward it too: After class; --count-practice)"
        ),
        "{human}"
    );
    let (_, junit) = test_submission(
        course.path(),
        &submission,
        &["--count-practice", "--format", "junit"],
    );
    assert!(junit.contains(r#"failures="1""#), "{junit}");
    let (_, github) = test_submission(
        course.path(),
        &submission,
        &["--count-practice", "--format", "github"],
    );
    assert!(
        github.contains(
            "\n::error file=exercises/hello.c,title=hello::exercises/hello.c is missing\n"
        ),
        "{github}"
    );
}

/// A failing exercise of a graded chapter fails the run, whatever practice says.
#[test]
fn a_failing_graded_exercise_fails_the_run() {
    let course = course_in_chapters();
    let root = tempfile::tempdir().unwrap();
    let submission = submission_of_sum(root.path(), "wrong_output");
    std::fs::copy(
        course.path().join("solutions/hello.c"),
        submission.join("hello.c"),
    )
    .unwrap();
    let (code, json) = test_submission(course.path(), &submission, &["--format", "json"]);
    assert_eq!(code, Some(1), "{json}");
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(document["success"], false, "{json}");
    assert_eq!(document["counted_chapters"], serde_json::json!(["core"]));
    let (code, human) = test_submission(course.path(), &submission, &[]);
    assert_eq!(code, Some(1), "{human}");
    assert!(
        human.contains("Result: failed (practice does not count toward it"),
        "{human}"
    );
}

/// Exercises named are what the user asked about: a practice one that fails fails the
/// run, in the course (`test NAME`, `run NAME`) and for a submission; unnamed, the same
/// course state passes.
#[test]
fn a_practice_exercise_named_counts() {
    let course = course_in_chapters();
    solve(course.path(), "sum");
    let exit_of = |args: &[&str]| {
        let output = clings(course.path()).args(args).output().unwrap();
        (output.status.code(), stdout_of(&output))
    };
    let (code, human) = exit_of(&["test"]);
    assert_eq!(code, Some(0), "{human}");
    let (code, human) = exit_of(&["test", "sum", "hello"]);
    assert_eq!(code, Some(1), "{human}");
    assert!(
        human.contains("Result: failed (the exercises named count, practice too: After class)"),
        "{human}"
    );
    let (code, human) = exit_of(&["run", "hello"]);
    assert_eq!(code, Some(1), "{human}");

    let root = tempfile::tempdir().unwrap();
    let submission = submission_of_sum(root.path(), "passing");
    let (code, json) = test_submission(
        course.path(),
        &submission,
        &["sum", "hello", "--format", "json"],
    );
    assert_eq!(code, Some(1), "{json}");
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(document["success"], false, "{json}");
    assert_eq!(document["counting"], "named");
    assert_eq!(
        document["counted_chapters"],
        serde_json::json!(["core", "after_class"])
    );
}
