//! An exercise judged by the course's checker (a Kattis-style output validator) instead of
//! a comparison: any right answer passes, a wrong one gets the checker's message, a hidden
//! case keeps it to itself, and a checker that fails is the course's error.

mod common;

use std::path::Path;

use common::{
    Process, assert_error, case_verdicts_and_messages, clings, clings_process, processes,
    small_course, solution_passed, stdout_of, verdicts,
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
        &["--fixtures", hidden.path().to_str().unwrap()],
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

/// The program and the checker each keep a warm sandbox on the worker, and take turns: the
/// checker's waits while the program runs. A sandbox whose helper was killed while it
/// waited (from outside: no program can signal it) is not used again; the next case gets a
/// new one and is judged like the first, not turned into an error.
#[test]
fn a_checkers_sandbox_killed_while_it_waits_is_replaced() {
    let course = divisor_course("slow_smallest", "check_divisor");
    let child = clings_process(course.path())
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
    // Case 2's program runs once there are two sandboxes (the first case's checker has
    // run) and one of them has a run under way: the other is the checker's, waiting.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut killed = None;
    while killed.is_none() && std::time::Instant::now() < deadline {
        let helpers = sandbox_helpers(child.id());
        let busy: Vec<bool> = helpers.iter().map(|&helper| has_children(helper)).collect();
        if helpers.len() == 2 && busy.iter().filter(|&&busy| busy).count() == 1 {
            let idle = helpers[busy.iter().position(|&busy| !busy).unwrap()];
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(idle as i32),
                nix::sys::signal::Signal::SIGKILL,
            )
            .unwrap();
            killed = Some(idle);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    assert!(
        killed.is_some(),
        "no moment with the checker's sandbox waiting: {}",
        stdout_of(&output)
    );
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", common::stderr_of(&output)));
    assert_eq!(verdicts(&document, 0), ["passed", "passed"], "{document}");
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
