//! A case's arguments, the files it gives the program, the files the program must leave,
//! and the exit status it must end with: judged by the real binary on real programs,
//! isolated and not.

use crate::common;

use std::path::Path;

use common::{case_verdicts_and_messages, clings, repo, solution_passed, stdout_of};
use tempfile::TempDir;

/// A course with one exercise, `copy`: its program copies the file named by its argument
/// to `out.txt`, upper-cased, and prints how many bytes it copied; a file it cannot open
/// is exit status 1. `program` (in `tests/programs/files/`) is the student's.
fn copy_course(program: &str) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("info.toml"),
        "format_version = 1\n\n[defaults]\ntime_limit_ms = 2000\n\n\
         [[exercises]]\nname = \"copy\"\ntitle = \"Copy\"\n\
         path = \"exercises/copy.c\"\nsolution = \"solutions/copy.c\"\n",
    )
    .unwrap();
    for folder in ["exercises", "solutions", "fixtures/copy"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    let programs = repo().join("tests/programs/files");
    std::fs::copy(programs.join("copy.c"), root.join("solutions/copy.c")).unwrap();
    std::fs::copy(
        programs.join(format!("{program}.c")),
        root.join("exercises/copy.c"),
    )
    .unwrap();
    write_case(&root.join("fixtures/copy"));
    dir
}

/// `01_copy`: `in.txt` given, `out.txt` expected; `02_missing`: a file that is not there.
fn write_case(fixtures: &Path) {
    let files = [
        ("01_copy.toml", "args = [\"in.txt\"]\n"),
        ("01_copy.out", "copied 10 bytes\n"),
        ("01_copy.given/in.txt", "first\nrow\n"),
        ("01_copy.expected/out.txt", "FIRST\nROW\n"),
        ("02_missing.toml", "args = [\"nope.txt\"]\nexit_code = 1\n"),
        ("02_missing.out", ""),
    ];
    for (name, content) in files {
        let path = fixtures.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

/// `(verdict, message)` of each case of `copy`, graded with `isolation` (`None`: the
/// machine's default).
fn graded(dir: &Path, isolation: Option<&str>) -> Vec<(String, String)> {
    let mut command = clings(dir);
    command.args(["test", "--format", "json", "copy"]);
    if let Some(isolation) = isolation {
        command.env("CLINGS_ISOLATION", isolation);
    }
    case_verdicts_and_messages(&mut command)
}

/// A case may give files and expect none back: they are given all the same.
#[test]
fn a_case_that_gives_files_and_expects_none_gets_them() {
    let course = copy_course("copy");
    let fixtures = course.path().join("fixtures/copy");
    for (name, content) in [
        ("03_given_only.toml", "args = [\"in.txt\"]\n"),
        ("03_given_only.out", "copied 4 bytes\n"),
        ("03_given_only.given/in.txt", "abc\n"),
    ] {
        let path = fixtures.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    for isolation in [None, Some("none")] {
        let results = graded(course.path(), isolation);
        assert_eq!(results[2].0, "passed", "{isolation:?}: {results:?}");
    }
}

#[test]
fn files_given_and_left_are_judged_like_stdout() {
    // (program, for each case: the verdict and words of its message)
    let expected: [(&str, [(&str, &str); 2]); 4] = [
        ("copy", [("passed", "correct"), ("passed", "correct")]),
        (
            "copy_unchanged",
            [
                ("wrong_output", "out.txt differs from the expected file"),
                ("passed", "correct"),
            ],
        ),
        (
            "copy_nothing",
            [
                ("wrong_output", "out.txt is missing"),
                (
                    "wrong_output",
                    "exited with status 0, but this case expects 1",
                ),
            ],
        ),
        (
            "copy_as_link",
            [
                ("wrong_output", "out.txt is not a plain file"),
                ("passed", "correct"),
            ],
        ),
    ];
    for isolation in [None, Some("none")] {
        for (program, cases) in expected {
            let course = copy_course(program);
            let results = graded(course.path(), isolation);
            assert_eq!(results.len(), 2, "{program}");
            for ((verdict, message), (want_verdict, want_words)) in results.iter().zip(cases) {
                assert_eq!(
                    verdict, want_verdict,
                    "{program} ({isolation:?}): {message}"
                );
                assert!(
                    message.contains(want_words),
                    "{program} ({isolation:?}): {message}"
                );
            }
        }
    }
}

#[test]
fn a_wrong_file_shows_its_own_diff() {
    let course = copy_course("copy_unchanged");
    let output = clings(course.path())
        .args(["run", "copy"])
        .output()
        .unwrap();
    let report = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(report.contains("out.txt differs"), "{report}");
    // What the program was given, then the file's own diff, named.
    assert!(report.contains("arguments: in.txt"), "{report}");
    assert!(
        report.contains("in.txt (given):\n        first\n        row\n"),
        "{report}"
    );
    assert!(
        report.contains("      out.txt:\n      --- expected"),
        "{report}"
    );
    assert!(
        report.contains("-FIRST") && report.contains("+first"),
        "{report}"
    );

    // A missing file and a wrong exit status have nothing to diff: their message says it.
    let course = copy_course("copy_nothing");
    let output = clings(course.path())
        .args(["run", "copy"])
        .output()
        .unwrap();
    let report = stdout_of(&output);
    assert!(report.contains("out.txt is missing"), "{report}");
    assert!(
        report.contains("exited with status 0, but this case expects 1"),
        "{report}"
    );
    assert!(!report.contains("--- expected"), "{report}");
}

#[test]
fn a_hidden_case_keeps_its_files_to_itself() {
    let course = copy_course("copy_unchanged");
    let hidden = tempfile::tempdir().unwrap();
    let fixtures = hidden.path().join("copy");
    write_case(&fixtures);
    for (from, to) in [("01_copy", "h1_copy"), ("02_missing", "h2_missing")] {
        for ext in ["toml", "out", "given", "expected"] {
            let path = fixtures.join(format!("{from}.{ext}"));
            if path.exists() {
                std::fs::rename(path, fixtures.join(format!("{to}.{ext}"))).unwrap();
            }
        }
    }
    // The hidden file's content is what the program copies: it must not be shown.
    std::fs::write(fixtures.join("h1_copy.given/in.txt"), "secret\nrow\n").unwrap();
    std::fs::write(fixtures.join("h1_copy.out"), "copied 11 bytes\n").unwrap();
    std::fs::write(fixtures.join("h1_copy.expected/out.txt"), "SECRET\nROW\n").unwrap();
    for format in ["human", "json", "junit", "github"] {
        let output = clings(course.path())
            .args(["test", "copy", "--format", format, "--fixtures"])
            .arg(fixtures.parent().unwrap())
            .args(["--hidden-feedback", "verdicts"])
            .output()
            .unwrap();
        let report = stdout_of(&output);
        assert!(report.contains("h1_copy"), "{format}: {report}");
        assert!(
            !report.to_lowercase().contains("secret"),
            "{format}: {report}"
        );
    }
}

#[test]
fn new_case_and_bless_write_the_files_a_program_leaves() {
    let course = copy_course("copy");
    let root = course.path();
    let given = root.join("input.txt");
    std::fs::write(&given, "abc\n").unwrap();
    let output = clings(root)
        .args([
            "dev",
            "new-case",
            "copy",
            "03_abc",
            "--arg",
            "input.txt",
            "--given",
        ])
        .arg(&given)
        .args(["--expect-file", "out.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let fixtures = root.join("fixtures/copy");
    let read = |name: &str| std::fs::read_to_string(fixtures.join(name)).unwrap();
    assert_eq!(read("03_abc.out"), "copied 4 bytes\n");
    assert_eq!(read("03_abc.given/input.txt"), "abc\n");
    assert_eq!(read("03_abc.expected/out.txt"), "ABC\n");
    assert_eq!(read("03_abc.toml"), "args = [\"input.txt\"]\n");
    // A case that expects exit status 1 of the reference.
    let output = clings(root)
        .args(["dev", "new-case", "copy", "04_gone", "--arg", "gone.txt"])
        .args(["--exit-code", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        read("04_gone.toml"),
        "args = [\"gone.txt\"]\nexit_code = 1\n"
    );

    // An expected file gone stale: bless shows it and writes what the solution leaves.
    std::fs::write(fixtures.join("03_abc.expected/out.txt"), "old\n").unwrap();
    let output = clings(root)
        .args(["dev", "bless", "copy", "--yes"])
        .output()
        .unwrap();
    let said = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{said}");
    assert!(said.contains("03_abc.expected/out.txt"), "{said}");
    assert_eq!(read("03_abc.expected/out.txt"), "ABC\n");

    // dev check runs the solution on the new cases too, and takes their folders as theirs
    // (this small course lacks what a real one has: skeletons, hints, translations).
    let output = clings(root).args(["dev", "check"]).output().unwrap();
    let said = stdout_of(&output);
    for case in ["01_copy", "02_missing", "03_abc", "04_gone"] {
        assert!(solution_passed(&said, case), "{case}: {said}");
    }
    assert!(!said.contains("not part of a case"), "{said}");
}
