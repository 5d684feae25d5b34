//! An exercise judged by the course's checker (a Kattis-style output validator) instead of
//! a comparison: any right answer passes, a wrong one gets the checker's message, a hidden
//! case keeps it to itself, and a checker that fails is the course's error.

use crate::common;

use std::path::Path;

use common::{
    Process, assert_error, case_verdicts_and_messages, clings, clings_process, processes,
    small_course, solution_passed, stderr_of, stdout_of, verdicts, write_script,
};
use tempfile::TempDir;

/// A course with one exercise, `divisor` (print any proper divisor of n), judged by
/// `checker` (in `tests/programs/checker/`); `program` is the student's.
fn divisor_course(program: &str, checker: &str) -> TempDir {
    let dir = small_course(
        "format_version = 1\n\n[[exercises]]\nname = \"divisor\"\ntitle = \"Divisor\"\n\
         path = \"exercises/divisor.c\"\nsolution = \"solutions/divisor.c\"\n\
         checker = \"checkers/divisor.c\"\n",
        "checker",
        &[
            (program, "exercises/divisor.c"),
            ("smallest", "solutions/divisor.c"),
            (checker, "checkers/divisor.c"),
        ],
    );
    let root = dir.path();
    write_cases(
        &root.join("fixtures/divisor"),
        &[("01_twelve", 12, 2), ("02_thirty_five", 35, 5)],
    );
    dir
}

/// Cases of n, with the smallest divisor as the answer file.
fn write_cases(dir: &Path, cases: &[(&str, u32, u32)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, n, answer) in cases {
        std::fs::write(dir.join(format!("{name}.in")), format!("{n}\n")).unwrap();
        std::fs::write(dir.join(format!("{name}.out")), format!("{answer}\n")).unwrap();
    }
}

fn verdicts_and_messages(dir: &Path, extra: &[&str]) -> Vec<(String, String)> {
    case_verdicts_and_messages(clings(dir).args(["test", "--format", "json"]).args(extra))
}

#[test]
fn any_right_answer_passes_and_a_wrong_one_gets_the_checkers_words() {
    // The largest divisor is right, though it is not what the answer files hold.
    for program in ["smallest", "largest"] {
        let course = divisor_course(program, "check_divisor");
        let results = verdicts_and_messages(course.path(), &[]);
        assert!(
            results.iter().all(|(verdict, _)| verdict == "passed"),
            "{program}: {results:?}"
        );
    }
    let course = divisor_course("itself", "check_divisor");
    let results = verdicts_and_messages(course.path(), &[]);
    assert_eq!(results[0].0, "wrong_output");
    assert_eq!(
        results[0].1,
        "the course's checker rejected your output: 12 is not a proper divisor of 12"
    );
    let report = stdout_of(
        &clings(course.path())
            .args(["run", "divisor"])
            .output()
            .unwrap(),
    );
    assert!(
        report.contains("35 is not a proper divisor of 35"),
        "{report}"
    );
    // No diff with the answer file: the checker, not the answer, decides.
    assert!(!report.contains("--- expected"), "{report}");
}

#[test]
fn a_hidden_case_keeps_the_checkers_message_to_itself() {
    let course = divisor_course("itself", "check_divisor");
    let hidden = tempfile::tempdir().unwrap();
    write_cases(&hidden.path().join("divisor"), &[("h1_secret", 4321, 29)]);
    let results = verdicts_and_messages(
        course.path(),
        &[
            "--fixtures",
            hidden.path().to_str().unwrap(),
            "--hidden-feedback",
            "verdicts",
        ],
    );
    let (verdict, message) = &results[2];
    assert_eq!(verdict, "wrong_output");
    assert!(!message.contains("4321"), "{message}");
}

#[test]
fn a_checker_that_fails_is_the_courses_error() {
    let course = divisor_course("smallest", "broken_checker");
    let output = clings(course.path()).args(["test"]).output().unwrap();
    assert_error(
        &output,
        "the course's checker checkers/divisor.c failed on case 01_twelve",
    );
    assert_error(&output, "not the student's");
    assert_error(&output, "checker: cannot parse");
}

/// A checker that fails on a hidden case is the course's error, as on a public one, but
/// what it said is not shown: it read the hidden input and answer, and quotes them and
/// the program's output. In a class's gradebook the student's row holds that error.
#[test]
fn a_checker_that_fails_on_a_hidden_case_keeps_what_it_said_to_itself() {
    let course = divisor_course("itself", "fails_on_large");
    let root = course.path();
    let student = root.join("class/student");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::copy(root.join("exercises/divisor.c"), student.join("divisor.c")).unwrap();
    let grade = || {
        let output = clings(root)
            .args(["grade", "class", "--fixtures", "hidden", "--out", "book"])
            .args(["--hidden-feedback", "verdicts"])
            .args(["--html", "page.html"])
            .output()
            .unwrap();
        assert_error(&output, "error: grading student failed");
        (
            output,
            std::fs::read_to_string(root.join("book/grades.json")).unwrap(),
        )
    };
    // On a public case, what it said is shown, escaped: on stderr and in the gradebook.
    write_cases(&root.join("fixtures/divisor"), &[("03_large", 1001, 7)]);
    write_cases(&root.join("hidden/divisor"), &[("h1_secret", 4321, 29)]);
    let said = "it said: checker: \\x1b[1mcannot judge\\x1b[0m input: 1001";
    let output = clings(root).args(["test"]).output().unwrap();
    assert_error(&output, "failed on case 03_large");
    assert_error(&output, said);
    let book: serde_json::Value = serde_json::from_str(&grade().1).unwrap();
    let error = book["students"][0]["error"].as_str().unwrap();
    assert!(error.contains(said), "{error:?}");
    for file in ["03_large.in", "03_large.out"] {
        std::fs::remove_file(root.join("fixtures/divisor").join(file)).unwrap();
    }
    let output = clings(root)
        .args([
            "test",
            "--fixtures",
            "hidden",
            "--hidden-feedback",
            "verdicts",
        ])
        .output()
        .unwrap();
    assert_error(&output, "failed on case h1_secret");
    let said = stderr_of(&output);
    assert!(!said.contains("4321") && !said.contains("29"), "{said}");
    let (output, book) = grade();
    assert!(book.contains("failed on case h1_secret"), "{book}");
    for text in [
        stderr_of(&output),
        book,
        std::fs::read_to_string(root.join("book/grades.csv")).unwrap(),
        std::fs::read_to_string(root.join("page.html")).unwrap(),
    ] {
        assert!(
            !text.contains("4321") && !text.contains("it said"),
            "{text}"
        );
    }
}

#[test]
fn dev_check_runs_the_checker_on_the_solution() {
    let course = divisor_course("smallest", "check_divisor");
    let output = clings(course.path())
        .args(["dev", "check"])
        .output()
        .unwrap();
    let said = stdout_of(&output);
    assert!(solution_passed(&said, "02_thirty_five"), "{said}");
}

/// The worker's warm sandbox, started while the programs compile, serves the program and
/// then its checker. Killed while it waits (from outside: no program can signal it), it is
/// not used: the first case starts a new one, in which the program and the checker run and
/// are judged as they would have been. A compiler that takes a second keeps it waiting.
#[test]
fn a_warm_sandbox_killed_while_it_waits_is_replaced() {
    let course = divisor_course("slow_smallest", "check_divisor");
    let slow_cc = course.path().join("slow-cc");
    write_script(
        &slow_cc,
        "#!/bin/sh\ncase \"$*\" in *-MD*) sleep 1;; esac\nexec gcc \"$@\"\n",
    );
    let child = clings_process(course.path())
        .env("CC", &slow_cc)
        .env("CLINGS_TIMINGS", "1")
        .args([
            "--jobs",
            "1",
            "--require-isolation",
            "test",
            "--format",
            "json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut killed = None;
    while killed.is_none() && std::time::Instant::now() < deadline {
        let waiting = sandbox_helpers(child.id())
            .into_iter()
            .find(|&helper| serves_runs(helper) && !has_children(helper));
        if let Some(helper) = waiting {
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(helper as i32),
                nix::sys::signal::Signal::SIGKILL,
            )
            .unwrap();
            killed = Some(helper);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = common::stderr_of(&output);
    assert!(
        killed.is_some(),
        "no moment with the sandbox waiting: {}{stderr}",
        stdout_of(&output)
    );
    let document: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("{error}: {stderr}"));
    assert_eq!(verdicts(&document, 0), ["passed", "passed"], "{document}");
    let starts = stderr
        .lines()
        .find_map(|line| line.strip_prefix("sandbox start"))
        .and_then(|counts| counts.split_whitespace().nth(1));
    assert_eq!(
        starts,
        Some("2"),
        "the killed sandbox and its replacement: {stderr}"
    );
}

/// Whether `helper` is a kept sandbox's helper, which serves run after run, rather than
/// one for a single compile.
fn serves_runs(helper: u32) -> bool {
    std::fs::read(format!("/proc/{helper}/cmdline"))
        .is_ok_and(|line| String::from_utf8_lossy(&line).contains("--clings-sandbox-server"))
}

/// The sandboxes' helpers under the clings process `clings`: bubblewrap's children.
fn sandbox_helpers(clings: u32) -> Vec<u32> {
    let live: Vec<Process> = processes()
        .into_iter()
        .filter(|process| process.state != "Z")
        .collect();
    let bubblewraps: Vec<u32> = live
        .iter()
        .filter(|process| process.parent == clings && process.command == "bwrap")
        .map(|process| process.pid)
        .collect();
    live.iter()
        .filter(|process| bubblewraps.contains(&process.parent) && process.command != "bwrap")
        .map(|process| process.pid)
        .collect()
}

fn has_children(pid: u32) -> bool {
    processes()
        .iter()
        .any(|process| process.parent == pid && process.state != "Z")
}
