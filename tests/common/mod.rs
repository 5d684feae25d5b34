//! Shared by the integration tests: copies of a course to break, and the real binary.
#![allow(dead_code)] // each test crate uses its own subset of these helpers

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;
use walkdir::WalkDir;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the course at `source` into a fresh directory, leaving out build products
/// and progress so every test starts clean.
pub fn copy_course(source: &Path) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in WalkDir::new(source).min_depth(1) {
        let entry = entry.expect("walk course");
        let relative = entry.path().strip_prefix(source).expect("inside course");
        let first = relative.components().next().expect("a component");
        if [
            ".clings",
            ".clings-state.json",
            "target",
            "src",
            "tests",
            ".git",
        ]
        .iter()
        .any(|skip| first.as_os_str() == *skip)
        {
            continue;
        }
        let target = dir.path().join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("create dir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
    dir
}

/// The test course (`tests/course`) with `tests/programs/<program>.c` as the student's
/// `sum` exercise.
pub fn sum_course(program: &str) -> TempDir {
    let dir = copy_course(&repo().join("tests/course"));
    put_program(dir.path(), program);
    dir
}

pub fn put_program(course: &Path, program: &str) {
    let source = repo().join("tests/programs").join(format!("{program}.c"));
    std::fs::copy(&source, course.join("exercises/sum.c")).expect("copy program");
}

/// `clings` run in `dir`, in English, without colour, with the compiler from the machine.
pub fn clings(dir: &Path) -> Command {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("clings");
    command
        .current_dir(dir)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("CC")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

pub fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `clings test --format json` on `dir`, parsed, with the exit code.
pub fn json_results(dir: &Path, names: &[&str]) -> (serde_json::Value, Option<i32>) {
    let output = clings(dir)
        .args(["test", "--format", "json"])
        .args(names)
        .output()
        .expect("run clings");
    let document = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "not JSON ({err}): {}\nstderr: {}",
            stdout_of(&output),
            stderr_of(&output)
        )
    });
    (document, output.status.code())
}

/// The verdicts of an exercise's cases, in case order.
pub fn verdicts(document: &serde_json::Value, exercise: usize) -> Vec<String> {
    document["exercises"][exercise]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| case["verdict"].as_str().expect("verdict").to_string())
        .collect()
}
