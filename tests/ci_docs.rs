//! The commands of docs/ci.md, run exactly as the workflows there run them, on a local
//! copy of the course: the documentation cannot drift from what clings does.

mod common;

use std::path::Path;
use std::process::Output;

use common::*;

/// Asserts `command` is in docs/ci.md verbatim, then runs it with `sh` in `dir` with
/// `clings` on the PATH and the workflow's `${{ … }}` expressions replaced.
fn run_documented(
    command: &str,
    dir: &Path,
    expressions: &[(&str, &str)],
    env: &[(&str, &Path)],
) -> Output {
    let docs = std::fs::read_to_string(repo().join("docs/ci.md")).unwrap();
    assert!(
        docs.contains(command),
        "docs/ci.md no longer contains: {command}"
    );
    let mut line = command.to_string();
    for (expression, value) in expressions {
        line = line.replace(expression, value);
    }
    let binary = assert_cmd::cargo::cargo_bin!("clings");
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let mut shell = std::process::Command::new("sh");
    shell
        .arg("-c")
        .arg(&line)
        .current_dir(dir)
        .env("PATH", path)
        .env("LANG", "C")
        .env_remove("CC");
    for (key, value) in env {
        shell.env(key, value);
    }
    shell.output().unwrap()
}

/// A workspace as a CI job lays it out: the course checked out in `course/`.
fn workspace() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let course = copy_course(&repo());
    std::fs::rename(course.keep(), root.path().join("course")).unwrap();
    root
}

/// A student's repository with the course layout, some exercises solved.
fn student_repo(dir: &Path, solved: &[&str]) {
    std::fs::create_dir_all(dir.join("exercises")).unwrap();
    for name in ["print_board", "check_win", "gomoku"] {
        let from = if solved.contains(&name) {
            "solutions"
        } else {
            "exercises"
        };
        std::fs::copy(
            repo().join(format!("{from}/{name}.c")),
            dir.join(format!("exercises/{name}.c")),
        )
        .unwrap();
    }
}

#[test]
fn github_classroom_workflow() {
    let root = workspace();
    student_repo(
        &root.path().join("submission"),
        &["print_board", "check_win"],
    );
    let hidden = root.path().join("hidden/check_win");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::copy(
        repo().join("fixtures/check_win/09_black_anti_diagonal.in"),
        hidden.join("99_hidden.in"),
    )
    .unwrap();
    std::fs::write(hidden.join("99_hidden.out"), "black\n").unwrap();
    let summary = root.path().join("summary.md");
    let course = root.path().join("course");

    let grade = run_documented(
        "clings test --submission ../submission --fixtures ../hidden --format github",
        &course,
        &[],
        &[("GITHUB_STEP_SUMMARY", &summary)],
    );
    let log = stdout_of(&grade);
    assert_eq!(
        grade.status.code(),
        Some(1),
        "gomoku is still a skeleton: {log}"
    );
    assert!(
        log.contains(
            "::error file=exercises/gomoku.c,title=gomoku 01_x_wins_in_nine_moves%3A wrong_output::"
        ),
        "{log}"
    );
    assert!(log.contains("99_hidden (hidden)"), "{log}");
    let table = std::fs::read_to_string(&summary).unwrap();
    assert!(
        table.contains("| check_win | passed | 45/45 | 45/45 |"),
        "{table}"
    );

    let junit = run_documented(
        "clings test --submission ../submission --fixtures ../hidden --format junit --output ../clings-junit.xml",
        &course,
        &[],
        &[],
    );
    assert_eq!(junit.status.code(), Some(1));
    let xml = std::fs::read_to_string(root.path().join("clings-junit.xml")).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(report.test_suites.len(), 3);
    assert!(
        !course.join(".clings-state.json").exists(),
        "the course's progress is untouched"
    );
}

#[test]
fn gitlab_job() {
    // The student's project is the job's directory; the course is cloned inside it.
    let root = workspace();
    student_repo(root.path(), &["print_board", "check_win", "gomoku"]);
    let output = run_documented(
        "clings test --submission .. --format junit --output ../clings-junit.xml",
        &root.path().join("course"),
        &[],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    let xml = std::fs::read_to_string(root.path().join("clings-junit.xml")).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(report.tests, 70);
    assert_eq!(report.failures, 0);
}

#[test]
fn sharded_class_and_merge() {
    let root = workspace();
    let students = ["ana", "ben", "cai", "dan", "eva", "fei"];
    for (index, student) in students.iter().enumerate() {
        let solved: &[&str] = match index % 3 {
            0 => &["print_board", "check_win", "gomoku"],
            1 => &["print_board"],
            _ => &[],
        };
        student_repo(&root.path().join("submissions").join(student), solved);
    }
    let course = root.path().join("course");
    for shard in ["1", "2", "3", "4"] {
        let output = run_documented(
            "clings grade ../submissions --shard ${{ matrix.shard }}/4 --out ../shard-${{ matrix.shard }}",
            &course,
            &[("${{ matrix.shard }}", shard)],
            &[],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    }
    let output = run_documented(
        "clings grade --merge ../shard-*/grades.json --out ../gradebook",
        &course,
        &[],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let csv = std::fs::read_to_string(root.path().join("gradebook/grades.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), students.len(), "{csv}");
    assert!(rows[0].starts_with("ana,1,44,25,70,70,"), "{csv}");
    assert!(rows[1].starts_with("ben,1,11,0,12,70,"), "{csv}");
}
