//! A course in chapters: the list and `run next` go chapter by chapter, every report names
//! the chapters, and only the chapters that count for a grade make the total.

mod common;

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
